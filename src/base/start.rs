//! Where a game starts: a Go board and its handicap, a chess FEN, a shogi SFEN or 駒落ち.

use super::Game;
use crate::rules::go;
use serde::{Deserialize, Serialize};

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
        rules: go::Scoring,
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
