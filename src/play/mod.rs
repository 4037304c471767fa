//! Whole games: where a game starts, who plays it, how strong the computer is and how it ended.
//!
//! This layer sits on [`crate::rules`] and knows nothing of the web. `computer` holds the
//! built-in opponents (one for each game, inside the binary) and `engine` talks to real
//! engines over GTP, UCI and USI. The types here are what both, the game tables and the
//! records share.

pub mod clock;
pub mod computer;
pub mod engine;
pub mod lobby;
pub mod table;
pub mod throttle;
pub mod turns;

pub use crate::base::{Finish, Reason, ShogiHandicap, Side, Start};
use serde::{Deserialize, Serialize};

/// How strong the computer plays: 1 (a beginner beats it) to 5 (a club beginner).
///
/// ```
/// use qiyuan::play::Level;
/// assert_eq!(Level::new(3).map(Level::get), Some(3));
/// assert!(Level::new(0).is_none() && Level::new(6).is_none());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(try_from = "u8", into = "u8")]
pub struct Level(u8);

impl Level {
    /// The weakest level.
    pub const MIN: Level = Level(1);
    /// The strongest level.
    pub const MAX: Level = Level(5);

    /// The level `n`, if it is one (1 to 5).
    pub fn new(n: u8) -> Option<Level> {
        (Level::MIN.0..=Level::MAX.0)
            .contains(&n)
            .then_some(Level(n))
    }

    /// The level as a number, 1 to 5.
    pub fn get(self) -> u8 {
        self.0
    }
}

impl TryFrom<u8> for Level {
    type Error = String;
    fn try_from(n: u8) -> Result<Level, String> {
        Level::new(n).ok_or_else(|| format!("level {n} is not one of 1 to 5"))
    }
}

impl From<Level> for u8 {
    fn from(level: Level) -> u8 {
        level.0
    }
}
