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
/// // Red's cannon on h2 captures only over exactly one screen: up the h-file stand h5
/// // (a black cannon, the screen) and h7 (a black horse), so it captures on h7.
/// //   a b c d e f g h i
/// // 9 . . . . k . . . .
/// // 8 . . . . . . . . .
/// // 7 . . . . . . . n .
/// // 6 . . . . . . . . .
/// // 5 . . . . . . . c .
/// // 4 . . . . . . . . .
/// // 3 . . . . . . . . .
/// // 2 . . . . . . . C .
/// // 1 . . . . . . . . .
/// // 0 . . . K . . . . .
/// let pos = Position::from_fen("4k4/9/7n1/9/7c1/9/9/7C1/9/3K5 w - - 0 1").unwrap();
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
        let point = || {
            arg.and_then(Point::parse)
                .ok_or_else(|| BadAsk::NeedsPoint(text.to_string()))
        };
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

#[cfg(test)]
mod tests {
    use super::*;

    fn answer(fen: &str, ask: &str) -> Vec<String> {
        let pos = Position::from_fen(fen).unwrap();
        Ask::parse(ask).unwrap().answer_names(&pos).unwrap()
    }

    #[test]
    fn horse_leg_blocks_the_jump() {
        // Red's horse on b0 with its own cannon on b1 (the leg toward a2 and c2): only
        // d1 is left.
        //   a b c d e f g h i
        // 1 . C . . . . . . .
        // 0 . N . . K . . . .
        let fen = "3k5/9/9/9/9/9/9/9/1C7/1N2K4 w - - 0 1";
        assert_eq!(answer(fen, "moves:b0"), ["d1"]);
    }

    #[test]
    fn cannon_captures_over_exactly_one_screen() {
        // The cannon on b2: b5 (a black cannon) is the screen, b7 (a horse) is taken; b9
        // (a rook) stands behind two pieces. Along rank 2, the advisor on d2 is a screen
        // with nothing behind it.
        //   a b c d e f g h i
        // 9 . r . k . . . . .
        // 7 . n . . . . . . .
        // 5 . c . . . . . . .
        // 2 . C . A . . . . .
        // 0 . . . . K . . . .
        let fen = "1r1k5/9/1n7/9/1c7/9/9/1C1A5/9/4K4 w - - 0 1";
        assert_eq!(answer(fen, "captures:b2"), ["b7"]);
        let moves = answer(fen, "moves:b2");
        assert!(moves.contains(&"b7".to_string()) && !moves.contains(&"b5".to_string()));
        assert!(moves.contains(&"c2".to_string()) && !moves.contains(&"d2".to_string()));
    }

    #[test]
    fn moves_of_the_side_not_to_move_as_if_its_turn() {
        // Black's king on e9 asked about while Red is to move: e8 and f9; d9 would face
        // Red's king on d0 along the empty d-file (照面).
        let fen = "4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1";
        assert_eq!(answer(fen, "moves:e9"), ["e8", "f9"]);
    }

    #[test]
    fn lists_checking_points() {
        // The rook on a0 checks only from a9, along rank 9 (its own king on d0 bars the
        // way to e0), and the king cannot step to e0: it would face the other (照面).
        //   a b c d e f g h i
        // 9 . . . . k . . . .
        // 0 R . . K . . . . .
        let fen = "4k4/9/9/9/9/9/9/9/9/R2K5 w - - 0 1";
        assert_eq!(answer(fen, "checks"), ["a9"]);
    }

    #[test]
    fn bad_questions_are_explained() {
        assert!(matches!(Ask::parse("attacks:h2"), Err(BadAsk::Unknown(_))));
        assert!(matches!(Ask::parse("moves:j2"), Err(BadAsk::NeedsPoint(_))));
        assert!(matches!(Ask::parse("moves"), Err(BadAsk::NeedsPoint(_))));
        assert!(matches!(
            Ask::parse("checks:e4"),
            Err(BadAsk::TakesNoPoint(_))
        ));
        let start = Position::start();
        let empty = Ask::parse("moves:e4").unwrap().answer(&start);
        assert_eq!(empty, Err(BadAsk::EmptyPoint(Point::parse("e4").unwrap())));
        // Black in check: Red's pieces cannot be given the move.
        let pos = Position::from_fen("4k4/9/9/9/9/9/9/9/9/3KR4 b - - 0 1").unwrap();
        let wrong = Ask::parse("moves:d0").unwrap().answer(&pos);
        assert!(matches!(wrong, Err(BadAsk::WrongSide(_))));
        for lang in Lang::ALL {
            assert!(!BadAsk::WrongSide(Point::parse("d0").unwrap())
                .explain(lang)
                .is_empty());
        }
    }
}
