//! What xiangqi adds to a table: its board, check, and how its endings are recorded
//! (将死 and 困毙 lose; the lone perpetual checker loses, 长将判负).

use super::*;
use crate::rules::xiangqi;

impl Drawable for xiangqi::Position {
    fn draw(&self, d: &DrawAsk<xiangqi::Move>) -> String {
        draw_at_table::<crate::content::xiangqi::Xiangqi>(self, d)
    }
    fn choices(&self, from: &str, to: &str, lang: Lang) -> (&'static str, Vec<Choice>) {
        choices_at_table::<crate::content::xiangqi::Xiangqi>(self, from, to, lang)
    }
    fn checked(&self) -> bool {
        self.is_check()
    }
}

impl Playable for xiangqi::Position {
    fn table_start(start: &Start) -> Result<xiangqi::Position, BadStart> {
        let Start::Xiangqi(crate::base::xiangqi::Start { fen }) = start else {
            return Err(BadStart::Position("not a xiangqi start".into()));
        };
        xiangqi::Position::from_fen(fen).map_err(|e| BadStart::Position(e.to_string()))
    }

    fn finish(&self, ending: &xiangqi::Outcome) -> Option<Finish> {
        use crate::rules::xiangqi::Outcome as O;
        let reason = match ending {
            O::Checkmate { .. } => Reason::Checkmate,
            O::Stalemate { .. } => Reason::Stalemate,
            O::PerpetualCheck { .. } => Reason::PerpetualCheck,
            O::Repetition => Reason::Repetition,
        };
        Some(Finish {
            winner: ending.winner().map(Self::side),
            reason,
        })
    }
}
