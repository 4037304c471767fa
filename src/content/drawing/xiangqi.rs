//! Xiangqi drawn on a page: the pieces and the last move.

use super::{draw_pieces, pieces_between, Choice, DrawAsk, Drawn};
use crate::content::xiangqi::Xiangqi;
use crate::content::BoardMarks;
use crate::rules::xiangqi;

impl Drawn for xiangqi::Position {
    fn draw(&self, last: Option<&xiangqi::Move>, ask: &DrawAsk) -> String {
        draw_pieces::<Xiangqi>(self, last, ask, false, BoardMarks::default())
    }

    fn moves_between(&self, from: &str, to: &str) -> Vec<Choice> {
        pieces_between::<Xiangqi>(self, from, to)
    }
}
