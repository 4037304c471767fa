//! Shogi (将棋) as the layers above the rules see it.

use super::kind::{
    even_game, square_landing, typed, ClockStyle, Fields, GameKind, Protocol, StartField,
    StartFieldError,
};
use super::position::{position_of, BadStart, GamePosition};
use super::{Game, Side};
use crate::lang::Lang;
use crate::rules::shogi;
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

/// Where a shogi game starts.
#[derive(Clone, Debug, PartialEq)]
pub struct Start {
    /// The starting position as SFEN.
    pub sfen: String,
    /// The handicap this SFEN is, if it is one of the usual ones.
    pub handicap: Option<ShogiHandicap>,
}

/// Shogi's descriptor.
pub static KIND: GameKind = GameKind {
    slug: "shogi",
    names: ["将棋", "Shogi"],
    sides: [["先手", "Sente"], ["后手", "Gote"]],
    side_marks: ["☗", "☖"],
    colour_words: ["black", "white"],
    move_examples: "7g7f, P*5e, 8h2b+",
    passes: false,
    draw_offers: true,
    declares: true,
    shows_check: true,
    flips_for_second: true,
    atari_hints: false,
    clock: ClockStyle::Byoyomi,
    numbers_in_pairs: false,
    numbered_figures: false,
    lesson_fence: "shogi",
    position_key: "sfen",
    tagged_sets: false,
    protocol: Protocol::Usi,
    engine_skills: [-20, -12, -5, 2, 8],
    programs: &["fairy-stockfish"],
    position: position_of::<shogi::Position>,
    lands_on: square_landing,
    start_fields: &[
        StartField {
            name: "handicap",
            label: ["驹落（让子）", "Handicap (駒落ち)"],
            choices: handicaps,
        },
        StartField {
            name: "sfen",
            label: [
                "从某个局面开始：SFEN（可不填）",
                "Start from a position: SFEN (optional)",
            ],
            choices: typed,
        },
    ],
    standard_start,
    start_from_fields,
};

/// An even game, then the usual 駒落ち.
fn handicaps(lang: Lang) -> Vec<(String, String)> {
    std::iter::once(even_game(lang))
        .chain(
            ShogiHandicap::ALL
                .into_iter()
                .map(|h| (h.slug().to_string(), h.name(lang))),
        )
        .collect()
}

fn standard_start() -> super::Start {
    super::Start::Shogi(Start {
        sfen: shogi::Position::start().sfen(),
        handicap: None,
    })
}

/// `handicap` (a 駒落ち by slug or KIF name; `0` or `none` for none) and `sfen`, which wins
/// over the handicap's position when both are given.
fn start_from_fields(fields: Fields) -> Result<super::Start, StartFieldError> {
    let handicap = match fields("handicap") {
        None | Some("0") | Some("none") => None,
        Some(h) => Some(
            ShogiHandicap::ALL
                .into_iter()
                .find(|x| x.slug() == h || x.kif_name() == h)
                .ok_or_else(|| StartFieldError::Handicap(h.into()))?,
        ),
    };
    let sfen = match (fields("sfen"), handicap) {
        (Some(s), _) => s.to_string(),
        (None, Some(h)) => h.sfen().to_string(),
        (None, None) => shogi::Position::start().sfen(),
    };
    Ok(super::Start::Shogi(Start { sfen, handicap }))
}

impl GamePosition for shogi::Position {
    const GAME: Game = Game::Shogi;

    fn side(color: shogi::Color) -> Side {
        match color {
            shogi::Color::Black => Side::First,
            shogi::Color::White => Side::Second,
        }
    }

    /// The start's SFEN.
    fn from_start(start: &super::Start) -> Result<shogi::Position, BadStart> {
        let super::Start::Shogi(Start { sfen, .. }) = start else {
            return Err(BadStart::Position("not a shogi start".into()));
        };
        shogi::Position::from_sfen(sfen).map_err(|e| BadStart::Position(e.to_string()))
    }

    fn engine_position(&self) -> String {
        self.sfen()
    }
}
