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

use crate::content::Game;
use crate::rules::go;
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

/// The usual shogi handicaps (駒落ち): the giver (上手, Gote) removes pieces and moves first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ShogiHandicap {
    /// 香落ち: the left lance (1a).
    Lance,
    /// 角落ち: the bishop.
    Bishop,
    /// 飛車落ち: the rook.
    Rook,
    /// 二枚落ち: rook and bishop.
    TwoPieces,
    /// 四枚落ち: rook, bishop and both lances.
    FourPieces,
    /// 六枚落ち: rook, bishop, both lances and both knights.
    SixPieces,
}

impl ShogiHandicap {
    /// Every handicap, from the smallest.
    pub const ALL: [ShogiHandicap; 6] = [
        ShogiHandicap::Lance,
        ShogiHandicap::Bishop,
        ShogiHandicap::Rook,
        ShogiHandicap::TwoPieces,
        ShogiHandicap::FourPieces,
        ShogiHandicap::SixPieces,
    ];

    /// The starting position as SFEN, Gote (the giver) to move.
    pub fn sfen(self) -> &'static str {
        match self {
            ShogiHandicap::Lance => {
                "lnsgkgsn1/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1"
            }
            ShogiHandicap::Bishop => {
                "lnsgkgsnl/1r7/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1"
            }
            ShogiHandicap::Rook => "lnsgkgsnl/7b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
            ShogiHandicap::TwoPieces => {
                "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1"
            }
            ShogiHandicap::FourPieces => {
                "1nsgkgsn1/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1"
            }
            ShogiHandicap::SixPieces => "2sgkgs2/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
        }
    }

    /// The name in addresses and the API: `lance`, `two-pieces`.
    pub fn slug(self) -> &'static str {
        match self {
            ShogiHandicap::Lance => "lance",
            ShogiHandicap::Bishop => "bishop",
            ShogiHandicap::Rook => "rook",
            ShogiHandicap::TwoPieces => "two-pieces",
            ShogiHandicap::FourPieces => "four-pieces",
            ShogiHandicap::SixPieces => "six-pieces",
        }
    }

    /// The handicap's name for learners: `香落ち（让香）`, `Lance (香落ち)`.
    pub fn name(self, lang: crate::lang::Lang) -> String {
        let (zh, en) = match self {
            ShogiHandicap::Lance => ("让香", "Lance"),
            ShogiHandicap::Bishop => ("让角", "Bishop"),
            ShogiHandicap::Rook => ("让飞", "Rook"),
            ShogiHandicap::TwoPieces => ("让飞角", "Rook and bishop"),
            ShogiHandicap::FourPieces => ("让飞角双香", "Rook, bishop and lances"),
            ShogiHandicap::SixPieces => ("让飞角双香双桂", "Rook, bishop, lances and knights"),
        };
        match lang {
            crate::lang::Lang::Zh => format!("{}（{zh}）", self.kif_name()),
            crate::lang::Lang::En => format!("{en} ({})", self.kif_name()),
        }
    }

    /// The name KIF files use (`手合割`): `香落ち`, `二枚落ち`.
    pub fn kif_name(self) -> &'static str {
        match self {
            ShogiHandicap::Lance => "香落ち",
            ShogiHandicap::Bishop => "角落ち",
            ShogiHandicap::Rook => "飛車落ち",
            ShogiHandicap::TwoPieces => "二枚落ち",
            ShogiHandicap::FourPieces => "四枚落ち",
            ShogiHandicap::SixPieces => "六枚落ち",
        }
    }
}

/// Where a game starts.
#[derive(Clone, Debug, PartialEq)]
pub enum Start {
    /// An empty Go board of `size`, with `handicap` stones (0 or 2–9) on the usual points.
    Go {
        /// 9, 13 or 19.
        size: u8,
        /// 0 for an even game, else 2 to 9 stones placed before White's first move.
        handicap: u8,
        /// Area (Chinese) or territory (Japanese) counting.
        rules: go::Rules,
        /// Komi in points, given to White.
        komi: f64,
    },
    /// A chess position (the standard start unless a FEN was given).
    Chess {
        /// The starting position as FEN.
        fen: String,
    },
    /// A shogi position: the standard start, a handicap, or any SFEN.
    Shogi {
        /// The starting position as SFEN.
        sfen: String,
        /// The handicap this SFEN is, if it is one of the usual ones.
        handicap: Option<ShogiHandicap>,
    },
}

impl Start {
    /// The game this start belongs to.
    pub fn game(&self) -> Game {
        match self {
            Start::Go { .. } => Game::Go,
            Start::Chess { .. } => Game::Chess,
            Start::Shogi { .. } => Game::Shogi,
        }
    }
}

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
