//! Questions of the form "click every point that …" on a xiangqi board, answered by the
//! engine: where a piece can go, where it can capture, which moves give check.

use super::board::Board;
use super::position::Position;
use super::types::{Color, Move, Point};
use crate::lang::Lang;
use std::fmt;

/// A question whose answer is a set of points, computed from a position.
///
/// ```
/// use qiyuan::rules::xiangqi::{select::Ask, Position};
/// // Red's cannon on h2 captures only over exactly one screen: the horse on h7 stands
/// // behind the soldier on h5... no: the h-file from h2 up holds h5 (a black soldier,
/// // the screen) and h7 (a black horse): the cannon captures on h7.
/// //   a b c d e f g h i
/// // 9 . . . . k . . . .
/// // 8 . . . . . . . . .
/// // 7 . . . . . . . n .
/// // 6 . . . . . . . . .
/// // 5 . . . . . . . p .
/// // 4 . . . . . . . . .
/// // 3 . . . . . . . . .
/// // 2 . . . . . . . C .
/// // 1 . . . . . . . . .
/// // 0 . . . K . . . . .
/// let pos = Position::from_fen("4k4/9/7n1/9/7p1/9/9/7C1/9/3K5 w - - 0 1").unwrap();
/// let ask = Ask::parse("captures:h2").unwrap();
/// assert_eq!(ask.answer_names(&pos).unwrap(), ["h7"]);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Ask {
    /// `moves:h2`: every point the piece on h2 can legally move to. For a piece of the
    /// side not to move, the answer is as if it were that side's turn.
    Moves(Point),
    /// `captures:h2`: every point where the piece on h2 can legally capture now (a cannon
    /// over exactly one screen, 炮架), as if it were its side's turn.
    Captures(Point),
    /// `checks`: the destination of every legal move of the side to move that gives
    /// check.
    Checks,
}

/// Why a `select` question cannot be asked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BadAsk {
    /// The question's name is not one of the known ones.
    Unknown(String),
    /// The question needs a point (`moves:h2`) and has none, or a bad one.
    NeedsPoint(String),
    /// The question (`checks`) takes no point, and has one.
    TakesNoPoint(String),
    /// The question names an empty point where a piece was expected.
    EmptyPoint(Point),
    /// The question asks about a piece of the side not to move while the side to move is
    /// in check: that side cannot be given the move.
    WrongSide(Point),
}

impl BadAsk {
    /// The reason in `lang`.
    pub fn explain(&self, lang: Lang) -> String {
        match (self, lang) {
            (BadAsk::Unknown(a), Lang::Zh) => {
                format!("不认识的问题“{a}”：请写 moves:点、captures:点 或 checks。")
            }
            (BadAsk::Unknown(a), Lang::En) => {
                format!("unknown question `{a}`: use moves:POINT, captures:POINT or checks")
            }
            (BadAsk::NeedsPoint(a), Lang::Zh) => {
                format!("问题“{a}”需要一个点，例如 moves:h2（列 a–i，行 0–9）。")
            }
            (BadAsk::NeedsPoint(a), Lang::En) => format!(
                "question `{a}` needs a point, like moves:h2 (files a–i, ranks 0–9)"
            ),
            (BadAsk::TakesNoPoint(a), Lang::Zh) => {
                format!("问题“{a}”不带点：只写 checks。")
            }
            (BadAsk::TakesNoPoint(a), Lang::En) => {
                format!("question `{a}` takes no point: write just checks")
            }
            (BadAsk::EmptyPoint(p), Lang::Zh) => format!("问题问的是 {p} 上的棋子，但那里没有棋子。"),
            (BadAsk::EmptyPoint(p), Lang::En) => {
                format!("the question names {p}, but there is no piece there")
            }
            (BadAsk::WrongSide(p), Lang::Zh) => format!(
                "{p} 上的棋子属于不走棋的一方，而走棋的一方正被将军，不能把走棋权交给对方：请在 FEN 里改成该棋子的一方走棋。"
            ),
            (BadAsk::WrongSide(p), Lang::En) => format!(
                "the piece on {p} belongs to the side not to move, and the side to move is in check: set the FEN's side to move to the piece's side"
            ),
        }
    }
}

impl fmt::Display for BadAsk {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.explain(Lang::En))
    }
}

impl std::error::Error for BadAsk {}

/// The legal moves of the piece on `at`, as if its side were to move.
fn moves_of(pos: &Position, at: Point) -> Result<Vec<Move>, BadAsk> {
    let (color, _) = pos.piece_at(at).ok_or(BadAsk::EmptyPoint(at))?;
    let moves = if color == pos.turn() {
        pos.legal_moves()
    } else {
        let mut fen: Vec<String> = pos.fen().split(' ').map(str::to_string).collect();
        fen[1] = if color == Color::Red { "w" } else { "b" }.to_string();
        Board::from_fen(&fen.join(" "))
            .map_err(|_| BadAsk::WrongSide(at))?
            .legal_moves()
    };
    Ok(moves.into_iter().filter(|m| m.from == at).collect())
}

impl Ask {
    /// Reads a question such as `moves:h2`, `captures:e7` or `checks`.
    pub fn parse(text: &str) -> Result<Ask, BadAsk> {
        let (name, arg) = match text.split_once(':') {
            Some((n, a)) => (n.trim(), Some(a.trim())),
            None => (text.trim(), None),
        };
        let point = || arg.and_then(Point::parse).ok_or_else(|| BadAsk::NeedsPoint(text.to_string()));
        match name {
            "moves" => Ok(Ask::Moves(point()?)),
            "captures" => Ok(Ask::Captures(point()?)),
            "checks" if arg.is_none() => Ok(Ask::Checks),
            "checks" => Err(BadAsk::TakesNoPoint(text.to_string())),
            _ => Err(BadAsk::Unknown(text.to_string())),
        }
    }

    /// The points that answer the question, sorted (a0, b0, …, i9).
    pub fn answer(&self, pos: &Position) -> Result<Vec<Point>, BadAsk> {
        let mut points: Vec<Point> = match *self {
            Ask::Moves(at) => moves_of(pos, at)?.into_iter().map(|m| m.to).collect(),
            Ask::Captures(at) => moves_of(pos, at)?
                .into_iter()
                .filter(|m| m.captured.is_some())
                .map(|m| m.to)
                .collect(),
            Ask::Checks => pos
                .legal_moves()
                .into_iter()
                .filter(|&m| {
                    let mut next = pos.clone();
                    next.apply(m);
                    next.is_check()
                })
                .map(|m| m.to)
                .collect(),
        };
        points.sort();
        points.dedup();
        Ok(points)
    }

    /// The answer as ICCS point names (`h2`).
    pub fn answer_names(&self, pos: &Position) -> Result<Vec<String>, BadAsk> {
        Ok(self.answer(pos)?.iter().map(Point::to_string).collect())
    }
}
