//! Shogi drawn on a page: the pieces, the hands and the last move.

use super::{draw_pieces, pieces_between, Choice, DrawAsk, Drawn};
use crate::content::shogi::Shogi;
use crate::content::BoardMarks;
use crate::rules::shogi;

impl Drawn for shogi::Position {
    fn draw(&self, last: Option<&shogi::Played>, ask: &DrawAsk) -> String {
        draw_pieces::<Shogi>(self, last, ask, false, BoardMarks::default())
    }

    fn moves_between(&self, from: &str, to: &str) -> Vec<Choice> {
        pieces_between::<Shogi>(self, from, to)
    }
}
