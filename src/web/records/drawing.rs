//! Replaying a record: the position after a line of moves, drawn as a board.

use super::*;
use crate::base::AnyPosition;
use crate::content::drawing::{self, DrawAsk};

/// A position and the move that led to it, drawn.
pub(super) struct Shown {
    pub(super) board: AnyPosition,
    /// The position before the last move, and the last move's name.
    pub(super) last: Option<(AnyPosition, String)>,
}

/// Plays `moves` from the record's start.
pub(super) fn replay(record: &Record, moves: &[String]) -> Result<Shown, String> {
    let mut board = record
        .position_at_start("record")
        .map_err(|e| e.to_string())?;
    let mut last = None;
    for m in moves {
        let (next, _) = board.play(m, Lang::En)?;
        last = Some((board, m.clone()));
        board = next;
    }
    Ok(Shown { board, last })
}

/// Draws a shown position.
pub(super) fn draw(shown: &Shown, ask: DrawAsk) -> String {
    let before = shown.last.as_ref().map(|(b, mv)| (b, mv.as_str()));
    drawing::draw(&shown.board, before, &ask)
}
