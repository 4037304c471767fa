//! The two sides of a board, in words every game shares.

use serde::{Deserialize, Serialize};

/// A side of the board, the same words for every game: `First` moves first (Black in Go,
/// White in chess, Sente ☗ in shogi; in a Go or shogi handicap game the giver, White or
/// Gote, moves first from the set-up, but stays `Second`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    /// Black in Go, White in chess, Sente (先手, ☗) in shogi.
    First,
    /// White in Go, Black in chess, Gote (後手, ☖) in shogi.
    Second,
}

impl Side {
    /// The other side.
    pub fn other(self) -> Side {
        match self {
            Side::First => Side::Second,
            Side::Second => Side::First,
        }
    }

    /// The side's place in a `[first, second]` pair (seats, clocks, names).
    pub fn index(self) -> usize {
        match self {
            Side::First => 0,
            Side::Second => 1,
        }
    }

    /// `first` or `second`, as the API writes it.
    pub fn word(self) -> &'static str {
        match self {
            Side::First => "first",
            Side::Second => "second",
        }
    }
}
