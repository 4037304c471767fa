//! Shogi (将棋) as the layers above the rules see it.

use super::kind::{
    even_game, square_landing, typed, ClockStyle, Fields, GameKind, Protocol, StartField,
    StartFieldError,
};
use super::position::{position_of, BadStart, GamePosition};
use super::{Game, ShogiHandicap, Side, Start};
use crate::lang::Lang;
use crate::rules::shogi;

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
    position_key: "sfen",
    tagged_sets: false,
    record_formats: &["kif", "ki2", "csa"],
    protocol: Protocol::Usi,
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

fn standard_start() -> Start {
    Start::Shogi {
        sfen: shogi::Position::start().sfen(),
        handicap: None,
    }
}

/// `handicap` (a 駒落ち by slug or KIF name; `0` or `none` for none) and `sfen`, which wins
/// over the handicap's position when both are given.
fn start_from_fields(fields: Fields) -> Result<Start, StartFieldError> {
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
    Ok(Start::Shogi { sfen, handicap })
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
    fn from_start(start: &Start) -> Result<shogi::Position, BadStart> {
        let Start::Shogi { sfen, .. } = start else {
            return Err(BadStart::Position("not a shogi start".into()));
        };
        shogi::Position::from_sfen(sfen).map_err(|e| BadStart::Position(e.to_string()))
    }
}
