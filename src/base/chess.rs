//! Chess (国际象棋) as the layers above the rules see it.

use super::kind::{
    square_landing, typed, ClockStyle, Fields, GameKind, Protocol, StartField, StartFieldError,
};
use super::position::{position_of, BadStart, GamePosition};
use super::{Game, Side, Start};
use crate::rules::chess;

/// Chess's descriptor.
pub static KIND: GameKind = GameKind {
    slug: "chess",
    names: ["国际象棋", "Chess"],
    sides: [["白方", "White"], ["黑方", "Black"]],
    side_marks: ["", ""],
    colour_words: ["white", "black"],
    move_examples: "e4, Nf3, e7e8q",
    passes: false,
    draw_offers: true,
    declares: false,
    shows_check: true,
    flips_for_second: true,
    atari_hints: false,
    clock: ClockStyle::Increment,
    numbers_in_pairs: true,
    numbered_figures: false,
    position_key: "fen",
    tagged_sets: true,
    record_formats: &["pgn"],
    protocol: Protocol::Uci,
    programs: &["stockfish"],
    position: position_of::<chess::Position>,
    lands_on: square_landing,
    start_fields: &[StartField {
        name: "fen",
        label: [
            "从某个局面开始：FEN（可不填）",
            "Start from a position: FEN (optional)",
        ],
        choices: typed,
    }],
    standard_start,
    start_from_fields,
};

fn standard_start() -> Start {
    Start::Chess {
        fen: chess::Position::start().fen(),
    }
}

/// `fen`, the standard start when missing.
fn start_from_fields(fields: Fields) -> Result<Start, StartFieldError> {
    Ok(match fields("fen") {
        Some(fen) => Start::Chess { fen: fen.into() },
        None => standard_start(),
    })
}

impl GamePosition for chess::Position {
    const GAME: Game = Game::Chess;

    fn side(color: chess::Color) -> Side {
        match color {
            chess::Color::White => Side::First,
            chess::Color::Black => Side::Second,
        }
    }

    /// The start's FEN; Chess960 positions are refused.
    fn from_start(start: &Start) -> Result<chess::Position, BadStart> {
        let Start::Chess { fen } = start else {
            return Err(BadStart::Position("not a chess start".into()));
        };
        let pos = chess::Position::from_fen(fen).map_err(|e| BadStart::Position(e.to_string()))?;
        if pos.is_chess960() {
            return Err(BadStart::Variant("Chess960".into()));
        }
        Ok(pos)
    }
}
