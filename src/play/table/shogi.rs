//! What shogi adds to a table: its board, check, its endings, and the 入玉 declaration
//! by the 27-point rule.

use super::*;
use crate::rules::shogi;

impl Drawable for shogi::Position {
    fn draw(&self, d: &DrawAsk<shogi::Played>) -> String {
        draw_at_table::<crate::content::shogi::Shogi>(self, d)
    }
    fn choices(&self, from: &str, to: &str, lang: Lang) -> (&'static str, Vec<Choice>) {
        choices_at_table::<crate::content::shogi::Shogi>(self, from, to, lang)
    }
    fn checked(&self) -> bool {
        self.is_check()
    }
}

impl Playable for shogi::Position {
    fn table_start(start: &Start) -> Result<shogi::Position, BadStart> {
        let Start::Shogi(crate::base::shogi::Start { sfen, .. }) = start else {
            return Err(BadStart::Position("not a shogi start".into()));
        };
        shogi::Position::from_sfen(sfen).map_err(|e| BadStart::Position(e.to_string()))
    }

    fn finish(&self, ending: &shogi::Outcome) -> Option<Finish> {
        use crate::rules::shogi::Outcome as O;
        let reason = match ending {
            O::Checkmate { .. } => Reason::Checkmate,
            O::Repetition => Reason::Repetition,
            O::PerpetualCheck { .. } => Reason::PerpetualCheck,
        };
        Some(Finish {
            winner: ending.winner().map(Self::side),
            reason,
        })
    }

    fn declare(&self) -> Result<Finish, Refused> {
        impasse(self)
    }
}

/// The 入玉 declaration of the side to move by the 27-point rule (日本将棋連盟): the king in
/// the opponent's camp, not in check, at least 10 other pieces in that camp, and 28 points
/// (Sente) or 27 (Gote) from pieces in the camp and in hand, rook and bishop 5, others 1.
fn impasse(pos: &shogi::Position) -> Result<Finish, Refused> {
    use crate::rules::shogi::{Color, Kind};
    let me = pos.turn();
    let in_camp = |rank: u8| match me {
        Color::Black => rank <= 3,
        Color::White => rank >= 7,
    };
    let no = |zh: &str, en: &str| {
        Refused::CannotDeclare(Text::new(
            format!("还不能宣告入玉：{zh}"),
            format!("The 入玉 declaration is not possible yet: {en}"),
        ))
    };
    let king = pos.king_square(me);
    if !king.is_some_and(|k| in_camp(k.rank)) {
        return Err(no(
            "你的玉还没有进入对方阵地（敌阵三段）。",
            "your king is not in the opponent's camp (its three ranks).",
        ));
    }
    if pos.is_check() {
        return Err(no("你的玉正被王手。", "your king is in check."));
    }
    let big = |k: Kind| matches!(k, Kind::Rook | Kind::Bishop | Kind::Dragon | Kind::Horse);
    let value = |k: Kind| if big(k) { 5 } else { 1 };
    let camp: Vec<Kind> = pos
        .pieces()
        .into_iter()
        .filter(|&(sq, c, k)| c == me && k != Kind::King && in_camp(sq.rank))
        .map(|(_, _, k)| k)
        .collect();
    if camp.len() < 10 {
        return Err(no(
            &format!("敌阵里除玉以外只有 {} 枚棋子，需要 10 枚。", camp.len()),
            &format!(
                "only {} pieces besides the king are in the opponent's camp; 10 are needed.",
                camp.len()
            ),
        ));
    }
    let points: u32 = camp.iter().map(|&k| value(k)).sum::<u32>()
        + pos
            .hand(me)
            .iter()
            .map(|&(k, n)| value(k) * n as u32)
            .sum::<u32>();
    let needed = if me == Color::Black { 28 } else { 27 };
    if points < needed {
        return Err(no(
            &format!("只有 {points} 点，需要 {needed} 点（飞、角 5 点，其他 1 点）。"),
            &format!("{points} points, {needed} needed (rook and bishop 5, other pieces 1)."),
        ));
    }
    Ok(Finish {
        winner: Some(<shogi::Position as GamePosition>::side(me)),
        reason: Reason::Impasse,
    })
}
