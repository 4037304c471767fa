//! Built-in opponents (interim: the first legal move, until the searching opponents land).

use super::Level;
use crate::rules::{chess, go, shogi, Rules};

/// A built-in opponent: the move the computer plays here.
pub trait Computer: Rules {
    /// The move the built-in opponent of `level` plays, or `None` when it has none.
    fn think(&self, level: Level, seed: u64) -> Option<Self::Move>;
}

impl Computer for go::Position {
    fn think(&self, _level: Level, _seed: u64) -> Option<go::Move> {
        Some(go::Move::Pass)
    }
}
impl Computer for chess::Position {
    fn think(&self, _level: Level, _seed: u64) -> Option<chess::Played> {
        self.legal_moves().into_iter().next()
    }
}
impl Computer for shogi::Position {
    fn think(&self, _level: Level, _seed: u64) -> Option<shogi::Played> {
        self.legal_moves().into_iter().next()
    }
}

/// The stones the computer thinks are dead at the end of a game.
pub fn dead_stones(_pos: &go::Position, _seed: u64) -> Vec<go::Point> {
    Vec::new()
}
