//! Go (围棋) as the layers above the rules see it.

use super::kind::{
    even_game, number_field, ClockStyle, Fields, GameKind, Protocol, StartField, StartFieldError,
};
use super::position::{position_of, BadStart, GamePosition};
use super::{Game, Side};
use crate::lang::Lang;
use crate::rules::go;

/// Where a Go game starts.
#[derive(Clone, Debug, PartialEq)]
pub struct Start {
    /// 9, 13 or 19.
    pub size: u8,
    /// 0 for an even game, else 2 to 9 stones placed before White's first move.
    pub handicap: u8,
    /// Area (Chinese) or territory (Japanese) counting.
    pub rules: go::Scoring,
    /// Komi in points, given to White.
    pub komi: f64,
}

/// Go's descriptor.
pub static KIND: GameKind = GameKind {
    slug: "go",
    names: ["围棋", "Go"],
    sides: [["黑方", "Black"], ["白方", "White"]],
    side_marks: ["", ""],
    colour_words: ["black", "white"],
    move_examples: "D4, pass",
    passes: true,
    draw_offers: false,
    declares: false,
    shows_check: false,
    flips_for_second: false,
    atari_hints: true,
    clock: ClockStyle::Byoyomi,
    numbers_in_pairs: false,
    numbered_figures: true,
    lesson_fence: "goban",
    position_key: "board",
    tagged_sets: false,
    protocol: Protocol::Gtp,
    engine_skills: [0, 2, 5, 8, 12],
    programs: &["gnugo", "pachi"],
    position: position_of::<go::Position>,
    lands_on,
    start_fields: &[
        StartField {
            name: "size",
            label: ["棋盘", "Board"],
            choices: sizes,
        },
        StartField {
            name: "rules",
            label: ["规则", "Rules"],
            choices: scorings,
        },
        StartField {
            name: "handicap",
            label: ["让子", "Handicap"],
            choices: handicaps,
        },
    ],
    standard_start,
    start_from_fields,
};

/// A point (`D4`) lands on itself; a pass or a count lands nowhere.
fn lands_on(played: &str) -> Option<String> {
    let b = played.as_bytes();
    (played.is_ascii()
        && b.len() >= 2
        && b[0].is_ascii_alphabetic()
        && b[1..].iter().all(u8::is_ascii_digit))
    .then(|| played.to_string())
}

/// 9×9 (the first, for a beginner), 13×13 and 19×19.
fn sizes(_: Lang) -> Vec<(String, String)> {
    [9, 13, 19]
        .map(|n| (n.to_string(), format!("{n} × {n}")))
        .to_vec()
}

/// Area counting (the first) or territory counting, with their komi.
fn scorings(lang: Lang) -> Vec<(String, String)> {
    let (chinese, japanese) = match lang {
        Lang::Zh => ("中国规则：数子，贴 3¾ 子", "日本规则：数目，贴 6½ 目"),
        Lang::En => (
            "Chinese: area counting, komi 3¾ stones",
            "Japanese: territory counting, komi 6½ points",
        ),
    };
    vec![
        ("chinese".to_string(), chinese.to_string()),
        ("japanese".to_string(), japanese.to_string()),
    ]
}

/// An even game, then 2 to 9 stones.
fn handicaps(lang: Lang) -> Vec<(String, String)> {
    let (_, even) = even_game(lang);
    let stones = |n: u8| match lang {
        Lang::Zh => format!("{n} 子"),
        Lang::En => format!("{n} stones"),
    };
    std::iter::once(("0".to_string(), even))
        .chain((2..=9).map(|n| (n.to_string(), stones(n))))
        .collect()
}

fn standard_start() -> super::Start {
    super::Start::Go(Start {
        size: 19,
        handicap: 0,
        rules: go::Scoring::Chinese,
        komi: go::Scoring::Chinese.default_komi(0),
    })
}

/// `size` (9 when missing), `rules` (`chinese` when missing), `handicap` (0) and `komi`
/// (the rules' usual komi for the handicap).
fn start_from_fields(fields: Fields) -> Result<super::Start, StartFieldError> {
    let size = number_field::<u8>(fields, "size")?.unwrap_or(9);
    let rules = match fields("rules") {
        None => go::Scoring::Chinese,
        Some(r) => go::Scoring::parse(r).ok_or_else(|| StartFieldError::Rules(r.into()))?,
    };
    let handicap = number_field::<u8>(fields, "handicap")?.unwrap_or(0);
    let komi = number_field::<f64>(fields, "komi")?.unwrap_or_else(|| rules.default_komi(handicap));
    Ok(super::Start::Go(Start {
        size,
        handicap,
        rules,
        komi,
    }))
}

impl GamePosition for go::Position {
    const GAME: Game = Game::Go;

    fn side(color: go::Color) -> Side {
        match color {
            go::Color::Black => Side::First,
            go::Color::White => Side::Second,
        }
    }

    /// An empty board of the start's size, with its handicap stones (a handicap of one
    /// stone is an even game without komi: Black starts).
    fn from_start(start: &super::Start) -> Result<go::Position, BadStart> {
        let super::Start::Go(Start { size, handicap, .. }) = *start else {
            return Err(BadStart::Position("not a Go start".into()));
        };
        let bad = |e: String| BadStart::Position(e);
        if handicap < 2 {
            go::Position::empty(size).map_err(|e| bad(e.to_string()))
        } else {
            go::handicap_position(size, handicap).map_err(|e| bad(e.to_string()))
        }
    }

    fn engine_position(&self) -> String {
        self.board().to_text()
    }
}
