//! Questions of the form "click every square that …", answered by the engine.

use super::types::{Kind, Square};
use super::Position;
use std::fmt;

/// A question whose answer is a set of squares, computed from a position.
///
/// ```
/// use qiyuan::rules::shogi::{select::Ask, Position};
/// //   9 8 7 6 5 4 3 2 1
/// //   . . . . k . . . .  a
/// //   …
/// //   . . . . . . . . .  g
/// //   . . . . . . . . .  h
/// //   . . . . K . . . .  i     Black holds a pawn; its king stands on 5i.
/// let pos = Position::from_sfen("4k4/9/9/9/9/9/9/9/4K4 b P 1").unwrap();
/// let ask = Ask::parse("drops:P").unwrap();
/// // Anywhere empty except rank a, where a pawn could never move again:
/// assert_eq!(ask.answer(&pos).unwrap().len(), 81 - 2 - 9 + 1);
/// let ask = Ask::parse("moves:5i").unwrap();
/// let names: Vec<String> = ask.answer(&pos).unwrap().iter().map(|s| s.usi()).collect();
/// assert_eq!(names, ["4h", "4i", "5h", "6h", "6i"]);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ask {
    /// `moves:5e`: every square the piece on 5e may legally move to. For a piece of the
    /// side not to move, the squares it could go to if it were its turn.
    Moves(Square),
    /// `attacks:5e`: every square the piece on 5e attacks (its 利き), squares of its own
    /// side's pieces included.
    Attacks(Square),
    /// `drops:P`: every square where the side to move may legally drop that piece
    /// (二歩, 打ち歩詰め and dead drops left out).
    Drops(Kind),
}

/// Why a `select` question cannot be asked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BadAsk {
    /// The question's name is not one of the known ones.
    Unknown(String),
    /// The question needs a square (`moves:5e`) or a piece letter (`drops:P`).
    Argument { ask: String, expected: &'static str },
    /// The question names an empty square where a piece was expected.
    EmptySquare(Square),
    /// `drops:` a piece the side to move does not hold.
    NotInHand(Kind),
}

impl fmt::Display for BadAsk {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BadAsk::Unknown(a) => write!(
                f,
                "unknown question `{a}`: use moves:SQUARE, attacks:SQUARE or drops:PIECE"
            ),
            BadAsk::Argument { ask, expected } => write!(f, "question `{ask}` needs {expected}"),
            BadAsk::EmptySquare(s) => {
                write!(f, "question names {s}, but there is no piece there")
            }
            BadAsk::NotInHand(k) => write!(
                f,
                "question asks where to drop a {k}, but the side to move has none in hand"
            ),
        }
    }
}

impl std::error::Error for BadAsk {}

impl Ask {
    /// Reads a question: `moves:5e`, `attacks:5e` or `drops:P` (`P L N S G B R`).
    pub fn parse(text: &str) -> Result<Ask, BadAsk> {
        let (name, arg) = match text.split_once(':') {
            Some((n, a)) => (n.trim(), a.trim()),
            None => return Err(BadAsk::Unknown(text.to_string())),
        };
        let square = || {
            Square::parse(arg).ok_or_else(|| BadAsk::Argument {
                ask: text.to_string(),
                expected: "a square such as 5e (file 1-9, rank a-i)",
            })
        };
        match name {
            "moves" => Ok(Ask::Moves(square()?)),
            "attacks" => Ok(Ask::Attacks(square()?)),
            "drops" => Kind::from_sfen(arg)
                .filter(|k| Kind::HAND.contains(k) && arg.len() == 1)
                .map(Ask::Drops)
                .ok_or_else(|| BadAsk::Argument {
                    ask: text.to_string(),
                    expected: "a piece that can be held in hand: P, L, N, S, G, B or R",
                }),
            _ => Err(BadAsk::Unknown(text.to_string())),
        }
    }

    /// The squares that answer the question, sorted by file, then rank.
    pub fn answer(&self, pos: &Position) -> Result<Vec<Square>, BadAsk> {
        let mut squares = match *self {
            Ask::Moves(from) => {
                let Some((color, _)) = pos.piece_at(from) else {
                    return Err(BadAsk::EmptySquare(from));
                };
                let mover = if color == pos.turn() {
                    Some(pos.clone())
                } else {
                    as_if_to_move(pos)
                };
                mover
                    .map(|p| {
                        p.legal_moves()
                            .into_iter()
                            .filter(|m| m.from == Some(from))
                            .map(|m| m.to)
                            .collect()
                    })
                    .unwrap_or_default()
            }
            Ask::Attacks(from) => {
                let Some((color, kind)) = pos.piece_at(from) else {
                    return Err(BadAsk::EmptySquare(from));
                };
                pos.grid().attacks(from, color, kind)
            }
            Ask::Drops(kind) => {
                if pos.in_hand(pos.turn(), kind) == 0 {
                    return Err(BadAsk::NotInHand(kind));
                }
                pos.legal_moves()
                    .into_iter()
                    .filter(|m| m.drop == Some(kind))
                    .map(|m| m.to)
                    .collect()
            }
        };
        squares.sort();
        squares.dedup();
        Ok(squares)
    }
}

/// The same board with the other side to move, if rsshogi can read it.
fn as_if_to_move(pos: &Position) -> Option<Position> {
    let sfen = pos.sfen();
    let mut parts: Vec<&str> = sfen.split(' ').collect();
    if parts.len() < 2 {
        return None;
    }
    parts[1] = if parts[1] == "b" { "w" } else { "b" };
    rsshogi::board::Position::from_sfen(&parts.join(" "))
        .ok()
        .map(|inner| Position { inner })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(squares: &[Square]) -> Vec<String> {
        squares.iter().map(|s| s.usi()).collect()
    }

    #[test]
    fn knight_moves_and_attacks_from_the_start() {
        let pos = Position::start();
        let ask = Ask::parse("moves:8i").unwrap();
        assert!(
            ask.answer(&pos).unwrap().is_empty(),
            "8i's knight is hemmed in"
        );
        let ask = Ask::parse("attacks:8i").unwrap();
        assert_eq!(names(&ask.answer(&pos).unwrap()), ["7g", "9g"]);
        let ask = Ask::parse("moves:7g").unwrap();
        assert_eq!(names(&ask.answer(&pos).unwrap()), ["7f"]);
        // White's pawn, as if it were White's turn: it moves down.
        let ask = Ask::parse("moves:3c").unwrap();
        assert_eq!(names(&ask.answer(&pos).unwrap()), ["3d"]);
    }

    #[test]
    fn drops_leave_out_nifu_and_dead_squares() {
        // Black pawn on 5g; a pawn in hand may not go on file 5 nor rank a.
        let pos = Position::from_sfen("k8/9/9/9/9/9/4P4/9/K8 b P 1").unwrap();
        let ans = Ask::parse("drops:P").unwrap().answer(&pos).unwrap();
        assert!(ans.iter().all(|s| s.file != 5 && s.rank != 1));
        assert_eq!(ans.len(), 8 * 8 - 1); // files 1-4, 6-9; ranks b-i; minus 9i (king)
    }

    #[test]
    fn errors_on_bad_questions() {
        assert!(matches!(Ask::parse("eyes"), Err(BadAsk::Unknown(_))));
        assert!(matches!(
            Ask::parse("moves:0z"),
            Err(BadAsk::Argument { .. })
        ));
        assert!(matches!(
            Ask::parse("drops:K"),
            Err(BadAsk::Argument { .. })
        ));
        assert!(matches!(
            Ask::parse("drops:+P"),
            Err(BadAsk::Argument { .. })
        ));
        let pos = Position::start();
        assert_eq!(
            Ask::parse("moves:5e").unwrap().answer(&pos),
            Err(BadAsk::EmptySquare(Square::parse("5e").unwrap()))
        );
        assert_eq!(
            Ask::parse("drops:P").unwrap().answer(&pos),
            Err(BadAsk::NotInHand(Kind::Pawn))
        );
    }
}
