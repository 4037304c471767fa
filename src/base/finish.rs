//! How a game ended: who won, and why.

use super::Side;
use serde::Serialize;

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[serde(rename_all = "kebab-case", tag = "kind")]
pub enum Reason {
    /// Go: two passes, dead stones agreed and the board counted; the winner's margin in points
    /// (0 for jigo).
    Count {
        /// The margin in points, as SGF writes it (`W+2.5`).
        points: f64,
    },
    /// The loser resigned.
    Resignation,
    /// The loser ran out of time.
    Timeout,
    /// The game was left unfinished and ended by the server.
    Abandoned,
    /// Chess or shogi: the side to move is mated.
    Checkmate,
    /// Chess: the side to move has no legal move and is not in check.
    Stalemate,
    /// Chess: neither side can mate.
    InsufficientMaterial,
    /// Chess: threefold repetition, claimed; shogi: 千日手 (fourfold), a draw.
    Repetition,
    /// Chess: fifty moves without a capture or a pawn move, claimed.
    FiftyMoves,
    /// Both players agreed to a draw.
    Agreement,
    /// Shogi: 連続王手の千日手, the checking side loses.
    PerpetualCheck,
    /// Shogi: 入玉宣言 by the 27-point rule.
    Impasse,
}

/// How a game ended: who won (none for a draw) and why.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Finish {
    /// The winner; `None` for a draw.
    pub winner: Option<Side>,
    /// Why the game ended.
    pub reason: Reason,
}
