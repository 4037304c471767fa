//! The words every layer above the rules shares: which [`Game`], which [`Side`], where a game
//! [`Start`]s, how it ends ([`Finish`]) and the [`Text`] learners read in both languages.
//!
//! They sit below `content`, `record` and `play`, so that none of those needs another for
//! them.

mod chess;
mod finish;
mod game;
mod go;
mod kind;
mod position;
mod shogi;
mod side;
mod start;
mod text;

pub use finish::{Finish, Reason};
pub use game::Game;
pub use kind::{number_field, ClockStyle, Fields, GameKind, Protocol, StartField, StartFieldError};
pub use position::{position_of, AnyPosition, BadStart, GamePosition};
pub use side::Side;
pub use start::{ShogiHandicap, Start};
pub use text::Text;
