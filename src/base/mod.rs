//! The words every layer above the rules shares: which [`Game`], which [`Side`], where a game
//! [`Start`]s, how it ends ([`Finish`]) and the [`Text`] learners read in both languages.
//!
//! They sit below `content`, `record` and `play`, so that none of those needs another for
//! them.

mod finish;
mod game;
mod side;
mod start;
mod text;

pub use finish::{Finish, Reason};
pub use game::Game;
pub use side::Side;
pub use start::{ShogiHandicap, Start};
pub use text::Text;
