//! Questions of the form "click every point that …", answered by the engine.

use super::{Color, Move, Point, Position};
use std::fmt;

/// A question whose answer is a set of points, computed from a position.
///
/// ```
/// use qiyuan::rules::go::{select::Ask, Board, Color, Position};
/// //   . . . . .
/// //   . X O . .      the white stone on C4 has three liberties: D4, C5 and C3
/// //   . . . . .
/// let board = Board::from_text(5, ".....\n.XO..\n.....\n.....\n.....").unwrap();
/// let pos = Position::new(board, Color::Black);
/// let ask = Ask::parse("liberties:C4", 5).unwrap();
/// let mut names: Vec<String> = ask.answer(&pos).unwrap().iter().map(|p| p.name(5)).collect();
/// names.sort();
/// assert_eq!(names, ["C3", "C5", "D4"]);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ask {
    /// `liberties:D4`: every liberty of the chain through D4.
    Liberties(Point),
    /// `chain:D4`: every stone of the chain through D4.
    Chain(Point),
    /// `forbidden:black`: every empty point where that side may not play.
    Forbidden(Color),
    /// `captures`: every point where the side to play captures at least one stone.
    Captures,
    /// `atari`: every point where the side to play puts an opponent chain in atari
    /// (leaves it exactly one liberty) without being captured at once.
    Atari,
    /// `in-atari:white`: every stone of that side whose chain has exactly one liberty.
    InAtari(Color),
}

/// Why a `select` question cannot be asked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BadAsk {
    /// The question's name is not one of the known ones.
    Unknown(String),
    /// The question needs a point (`liberties:D4`) or a colour (`forbidden:black`).
    Argument { ask: String, expected: &'static str },
    /// The question names an empty point where a stone was expected.
    EmptyPoint(String),
}

impl fmt::Display for BadAsk {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BadAsk::Unknown(a) => write!(
                f,
                "unknown question `{a}`: use liberties:POINT, chain:POINT, forbidden:COLOUR, captures, atari or in-atari:COLOUR"
            ),
            BadAsk::Argument { ask, expected } => {
                write!(f, "question `{ask}` needs {expected}")
            }
            BadAsk::EmptyPoint(p) => write!(f, "question names {p}, but there is no stone there"),
        }
    }
}

impl std::error::Error for BadAsk {}

impl Ask {
    /// Reads a question such as `liberties:D4` on a board of `size`.
    pub fn parse(text: &str, size: u8) -> Result<Ask, BadAsk> {
        let (name, arg) = match text.split_once(':') {
            Some((n, a)) => (n.trim(), Some(a.trim())),
            None => (text.trim(), None),
        };
        let point = || {
            arg.and_then(|a| Point::parse(a, size).ok())
                .ok_or_else(|| BadAsk::Argument {
                    ask: text.to_string(),
                    expected: "a point on the board, like liberties:D4",
                })
        };
        let color = || {
            arg.and_then(Color::parse).ok_or_else(|| BadAsk::Argument {
                ask: text.to_string(),
                expected: "a colour, black or white, like forbidden:black",
            })
        };
        match name {
            "liberties" => Ok(Ask::Liberties(point()?)),
            "chain" => Ok(Ask::Chain(point()?)),
            "forbidden" => Ok(Ask::Forbidden(color()?)),
            "in-atari" => Ok(Ask::InAtari(color()?)),
            "captures" if arg.is_none() => Ok(Ask::Captures),
            "atari" if arg.is_none() => Ok(Ask::Atari),
            _ => Err(BadAsk::Unknown(text.to_string())),
        }
    }

    /// The points that answer the question, sorted.
    pub fn answer(self, pos: &Position) -> Result<Vec<Point>, BadAsk> {
        let board = pos.board();
        let size = board.size();
        let stone_at = |p: Point| {
            if board.get(p).is_some() {
                Ok(())
            } else {
                Err(BadAsk::EmptyPoint(p.name(size)))
            }
        };
        let mut points = match self {
            Ask::Liberties(p) => {
                stone_at(p)?;
                board.liberties(p)
            }
            Ask::Chain(p) => {
                stone_at(p)?;
                board.chain(p)
            }
            Ask::Forbidden(color) => pos.forbidden_points(color),
            Ask::Captures => board
                .points()
                .filter(|&p| {
                    pos.play_move(Move::Play(p))
                        .is_ok_and(|next| !next.captured().is_empty())
                })
                .collect(),
            Ask::Atari => {
                let them = pos.turn().opponent();
                board
                    .points()
                    .filter(|&p| {
                        pos.play_move(Move::Play(p)).is_ok_and(|next| {
                            let b = next.board();
                            b.liberties(p).len() > 1
                                && b.neighbours(p).any(|n| {
                                    b.get(n) == Some(them)
                                        && board.liberties(n).len() > 1
                                        && b.liberties(n).len() == 1
                                })
                        })
                    })
                    .collect()
            }
            Ask::InAtari(color) => board
                .stones(color)
                .filter(|&p| board.liberties(p).len() == 1)
                .collect(),
        };
        points.sort();
        Ok(points)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::go::Board;

    fn names(points: &[Point], size: u8) -> Vec<String> {
        points.iter().map(|p| p.name(size)).collect()
    }

    #[test]
    fn lists_forbidden_points_for_black() {
        let b = Board::from_text(5, ".O...\nO.O..\n.O...\n.....\n....O").unwrap();
        let pos = Position::new(b, Color::Black);
        let ans = Ask::Forbidden(Color::Black).answer(&pos).unwrap();
        assert_eq!(names(&ans, 5), ["A5", "B4"]);
    }

    #[test]
    fn lists_capturing_points() {
        let b = Board::from_text(5, ".....\n.XO..\n..X..\n.....\n.....").unwrap();
        let pos = Position::new(b, Color::Black);
        assert!(Ask::Captures.answer(&pos).unwrap().is_empty());
        let b = Board::from_text(5, "..X..\n.XO..\n..X..\n.....\n.....").unwrap();
        let pos = Position::new(b, Color::Black);
        assert_eq!(names(&Ask::Captures.answer(&pos).unwrap(), 5), ["D4"]);
    }

    #[test]
    fn errors_on_unknown_question() {
        assert!(matches!(Ask::parse("eyes", 9), Err(BadAsk::Unknown(_))));
        assert!(matches!(
            Ask::parse("liberties:Z9", 9),
            Err(BadAsk::Argument { .. })
        ));
        assert!(matches!(
            Ask::parse("forbidden:red", 9),
            Err(BadAsk::Argument { .. })
        ));
    }
}
