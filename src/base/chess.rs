//! Chess (国际象棋) as the layers above the rules see it.

use super::kind::{
    square_landing, ClockStyle, Fields, GameKind, Protocol, StartFieldError, FEN_FIELD,
};
use super::position::{position_of, BadStart, GamePosition};
use super::{Game, Side};
use crate::rules::chess;

/// Where a chess game starts.
#[derive(Clone, Debug, PartialEq)]
pub struct Start {
    /// The starting position as FEN.
    pub fen: String,
}

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
    lesson_fence: "chess",
    position_key: "fen",
    tagged_sets: true,
    protocol: Protocol::Uci,
    engine_skills: [0, 2, 5, 8, 12],
    programs: &["stockfish"],
    position: position_of::<chess::Position>,
    lands_on: square_landing,
    start_fields: &[FEN_FIELD],
    standard_start,
    start_from_fields,
};

fn standard_start() -> super::Start {
    super::Start::Chess(Start {
        fen: chess::Position::start().fen(),
    })
}

/// `fen`, the standard start when missing.
fn start_from_fields(fields: Fields) -> Result<super::Start, StartFieldError> {
    Ok(match fields("fen") {
        Some(fen) => super::Start::Chess(Start { fen: fen.into() }),
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
    fn from_start(start: &super::Start) -> Result<chess::Position, BadStart> {
        let super::Start::Chess(Start { fen }) = start else {
            return Err(BadStart::Position("not a chess start".into()));
        };
        let pos = chess::Position::from_fen(fen).map_err(|e| BadStart::Position(e.to_string()))?;
        if pos.is_chess960() {
            return Err(BadStart::Variant("Chess960".into()));
        }
        Ok(pos)
    }

    /// Any FEN: an engine plays Chess960 too.
    fn engine_start(start: &super::Start) -> Result<chess::Position, BadStart> {
        let super::Start::Chess(Start { fen }) = start else {
            return Err(BadStart::Position("not a chess start".into()));
        };
        chess::Position::from_fen(fen).map_err(|e| BadStart::Position(e.to_string()))
    }

    fn engine_options(&self) -> Vec<(&'static str, &'static str)> {
        let on = if self.is_chess960() { "true" } else { "false" };
        vec![("UCI_Chess960", on)]
    }

    fn engine_position(&self) -> String {
        self.fen()
    }
}
