//! The words every layer above the rules shares: which [`Game`], which [`Side`], where a game
//! [`Start`]s, how it ends ([`Finish`]) and the [`Text`] learners read in both languages.
//!
//! They sit below `content`, `record` and `play`, so that none of those needs another for
//! them.

for_each_game!(game_modules);
mod finish;
mod game;
mod kind;
mod position;
mod side;
mod start;
mod text;

pub use finish::{Finish, Reason};
pub use game::Game;
pub use kind::{number_field, ClockStyle, Fields, GameKind, Protocol, StartField, StartFieldError};
pub use position::{position_of, AnyPosition, BadStart, GamePosition};
pub use shogi::ShogiHandicap;
pub use side::Side;
pub use start::Start;
pub use text::Text;
