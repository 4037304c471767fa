//! What chess adds to a table: its board, check, and how its endings are recorded.

use super::*;
use crate::rules::chess;

impl Drawable for chess::Position {
    fn draw(&self, d: &DrawAsk<chess::Played>) -> String {
        draw_at_table::<crate::content::chess::Chess>(self, d)
    }
    fn choices(&self, from: &str, to: &str, lang: Lang) -> (&'static str, Vec<Choice>) {
        choices_at_table::<crate::content::chess::Chess>(self, from, to, lang)
    }
    fn checked(&self) -> bool {
        self.is_check()
    }
}

impl Playable for chess::Position {
    fn table_start(start: &Start) -> Result<chess::Position, BadStart> {
        let Start::Chess(crate::base::chess::Start { fen }) = start else {
            return Err(BadStart::Position("not a chess start".into()));
        };
        chess::Position::from_fen(fen).map_err(|e| BadStart::Position(e.to_string()))
    }

    fn finish(&self, ending: &chess::Outcome) -> Option<Finish> {
        use crate::rules::chess::Outcome as O;
        let reason = match ending {
            O::Checkmate { .. } => Reason::Checkmate,
            O::Stalemate => Reason::Stalemate,
            O::InsufficientMaterial => Reason::InsufficientMaterial,
            O::ThreefoldRepetition => Reason::Repetition,
            O::FiftyMoves => Reason::FiftyMoves,
        };
        Some(Finish {
            winner: ending.winner().map(Self::side),
            reason,
        })
    }
}
