//! Xiangqi (中国象棋) as the layers above the rules see it.

use super::kind::{
    square_landing, ClockStyle, Fields, GameKind, Protocol, StartFieldError, FEN_FIELD,
};
use super::position::{position_of, BadStart, GamePosition};
use super::{Game, Side};
use crate::rules::xiangqi;

/// Where a xiangqi game starts.
#[derive(Clone, Debug, PartialEq)]
pub struct Start {
    /// The starting position as FEN (Fairy-Stockfish's: rank 9, black's back rank, first).
    pub fen: String,
}

/// Xiangqi's descriptor.
pub static KIND: GameKind = GameKind {
    slug: "xiangqi",
    names: ["中国象棋", "Xiangqi"],
    sides: [["红方", "Red"], ["黑方", "Black"]],
    side_marks: ["", ""],
    colour_words: ["red", "black"],
    move_examples: "炮二平五, h2e2, C2=5",
    passes: false,
    draw_offers: true,
    declares: false,
    shows_check: true,
    flips_for_second: true,
    atari_hints: false,
    clock: ClockStyle::Increment,
    numbers_in_pairs: true,
    numbered_figures: false,
    lesson_fence: "xiangqi",
    position_key: "fen",
    tagged_sets: true,
    protocol: Protocol::Uci,
    engine_skills: [-20, -12, -5, 2, 8],
    programs: &["fairy-stockfish"],
    position: position_of::<xiangqi::Position>,
    lands_on: square_landing,
    start_fields: &[FEN_FIELD],
    standard_start,
    start_from_fields,
};

fn standard_start() -> super::Start {
    super::Start::Xiangqi(Start {
        fen: xiangqi::START_FEN.to_string(),
    })
}

/// `fen`, the standard start when missing.
fn start_from_fields(fields: Fields) -> Result<super::Start, StartFieldError> {
    Ok(match fields("fen") {
        Some(fen) => super::Start::Xiangqi(Start { fen: fen.into() }),
        None => standard_start(),
    })
}

/// Moves a point's rank of a written move by `by` (ICCS counts ranks 0–9, engines 1–10).
///
/// ```text
/// h2e2  ⇄  h3e3        a9a8  ⇄  a10a9
/// ```
fn shift_ranks(text: &str, by: i8) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(file) = rest.chars().next().filter(char::is_ascii_lowercase) {
        let digits = rest[1..].len() - rest[1..].trim_start_matches(|c: char| c.is_ascii_digit()).len();
        let Ok(rank) = rest[1..1 + digits].parse::<i8>() else {
            return text.to_string();
        };
        out.push(file);
        out.push_str(&(rank + by).to_string());
        rest = &rest[1 + digits..];
    }
    out.push_str(rest);
    out
}

impl GamePosition for xiangqi::Position {
    const GAME: Game = Game::Xiangqi;

    fn side(color: xiangqi::Color) -> Side {
        match color {
            xiangqi::Color::Red => Side::First,
            xiangqi::Color::Black => Side::Second,
        }
    }

    fn from_start(start: &super::Start) -> Result<xiangqi::Position, BadStart> {
        let super::Start::Xiangqi(Start { fen }) = start else {
            return Err(BadStart::Position("not a xiangqi start".into()));
        };
        xiangqi::Position::from_fen(fen).map_err(|e| BadStart::Position(e.to_string()))
    }

    fn engine_position(&self) -> String {
        self.fen()
    }

    /// Fairy-Stockfish counts the ranks from 1: `h2e2` is its `h3e3`.
    fn to_engine_move(name: &str) -> String {
        shift_ranks(name, 1)
    }

    fn from_engine_move(text: &str) -> String {
        shift_ranks(text, -1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn engine_moves_count_ranks_from_one() {
        assert_eq!(shift_ranks("h2e2", 1), "h3e3");
        assert_eq!(shift_ranks("a9a8", 1), "a10a9");
        assert_eq!(shift_ranks("a10a9", -1), "a9a8");
        assert_eq!(shift_ranks("(none)", 1), "(none)");
    }
}
