//! Questions of the form "click every square that …", answered by the engine.

use super::{parse_square, square_name, Position, Square};
use shakmaty::{Chess, EnPassantMode, FromSetup, Position as _};
use std::fmt;

/// A question whose answer is a set of squares, computed from a position.
///
/// ```
/// use qiyuan::rules::chess::{select::Ask, square_name, Position};
/// //  . . . . k . . .
/// //  . . . . . . . .
/// //  . . . . . . . .
/// //  . . . . . . . .
/// //  . . . . . . . .
/// //  . . . . . . . .
/// //  . . . . . . . .
/// //  N . . . K . . .      the knight in the corner reaches b3 and c2
/// let pos = Position::from_fen("4k3/8/8/8/8/8/8/N3K3 w - - 0 1").unwrap();
/// let ask = Ask::parse("moves:a1").unwrap();
/// let names: Vec<String> = ask.answer(&pos).unwrap().into_iter().map(square_name).collect();
/// assert_eq!(names, ["c2", "b3"]);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Ask {
    /// `moves:e1`: every square the piece on e1 can legally move to, castling destinations
    /// (the king's square, g1 or c1) included. For a piece of the side not to move, the
    /// answer is as if it were that side's turn.
    Moves(Square),
    /// `attacks:f3`: every square the piece on f3 attacks, whether empty or holding an
    /// enemy piece. Squares holding its own side's pieces are defended, not attacked, and
    /// left out. Pins do not matter: a pinned piece still attacks.
    Attacks(Square),
    /// `checks`: the destination of every move of the side to move that gives check.
    Checks,
}

/// Why a `select` question cannot be asked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BadAsk {
    /// The question's name is not one of the known ones.
    Unknown(String),
    /// The question needs a square (`moves:e1`), or takes none (`checks`).
    Argument {
        /// The question as written.
        ask: String,
        /// What it needs.
        expected: &'static str,
    },
    /// The question names an empty square where a piece was expected.
    EmptySquare(String),
    /// The question asks about a piece of the side not to move, which cannot be given the
    /// move because the side to move is in check.
    WrongSide(String),
}

impl fmt::Display for BadAsk {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BadAsk::Unknown(a) => write!(
                f,
                "unknown question `{a}`: use moves:SQUARE, attacks:SQUARE or checks"
            ),
            BadAsk::Argument { ask, expected } => write!(f, "question `{ask}` needs {expected}"),
            BadAsk::EmptySquare(s) => {
                write!(f, "question names {s}, but there is no piece there")
            }
            BadAsk::WrongSide(s) => write!(
                f,
                "the piece on {s} belongs to the side not to move, and the side to move is in check: set the fen's side to move to the piece's side"
            ),
        }
    }
}

impl std::error::Error for BadAsk {}

impl Ask {
    /// Reads a question such as `moves:e1`, `attacks:f3` or `checks`.
    pub fn parse(text: &str) -> Result<Ask, BadAsk> {
        let (name, arg) = match text.split_once(':') {
            Some((n, a)) => (n.trim(), Some(a.trim())),
            None => (text.trim(), None),
        };
        let square = || {
            arg.and_then(parse_square).ok_or_else(|| BadAsk::Argument {
                ask: text.to_string(),
                expected: "a square, like moves:e1",
            })
        };
        match name {
            "moves" => Ok(Ask::Moves(square()?)),
            "attacks" => Ok(Ask::Attacks(square()?)),
            "checks" if arg.is_none() => Ok(Ask::Checks),
            "checks" => Err(BadAsk::Argument {
                ask: text.to_string(),
                expected: "no square: write just checks",
            }),
            _ => Err(BadAsk::Unknown(text.to_string())),
        }
    }

    /// The squares that answer the question, sorted (a1, b1, …, h8).
    pub fn answer(&self, pos: &Position) -> Result<Vec<Square>, BadAsk> {
        let chess = pos.chess();
        let board = chess.board();
        let piece_at = |sq: Square| {
            board
                .piece_at(sq)
                .ok_or_else(|| BadAsk::EmptySquare(square_name(sq)))
        };
        let mut squares: Vec<Square> = match *self {
            Ask::Moves(sq) => {
                let piece = piece_at(sq)?;
                let mover = if piece.color == chess.turn() {
                    chess.clone()
                } else {
                    let mut setup = chess.to_setup(EnPassantMode::Legal);
                    setup.swap_turn();
                    Chess::from_setup(setup, chess.castles().mode())
                        .or_else(shakmaty::PositionError::ignore_too_much_material)
                        .or_else(shakmaty::PositionError::ignore_impossible_check)
                        .map_err(|_| BadAsk::WrongSide(square_name(sq)))?
                };
                mover
                    .legal_moves()
                    .into_iter()
                    .filter(|m| m.from() == Some(sq))
                    .map(|m| match m.castling_side() {
                        Some(side) => side.king_to(piece.color),
                        None => m.to(),
                    })
                    .collect()
            }
            Ask::Attacks(sq) => {
                let piece = piece_at(sq)?;
                (board.attacks_from(sq) & !board.by_color(piece.color))
                    .into_iter()
                    .collect()
            }
            Ask::Checks => pos
                .legal_moves()
                .into_iter()
                .filter(|p| p.check)
                .map(|p| p.to)
                .collect(),
        };
        squares.sort();
        squares.dedup();
        Ok(squares)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(squares: &[Square]) -> Vec<String> {
        squares.iter().map(|&s| square_name(s)).collect()
    }

    fn answer(fen: &str, ask: &str) -> Vec<String> {
        let pos = Position::from_fen(fen).unwrap();
        names(&Ask::parse(ask).unwrap().answer(&pos).unwrap())
    }

    #[test]
    fn lists_king_moves_with_castling_destinations() {
        //  r . . . k . . r
        //  . . . . . . . .
        //  …
        //  R . . . K . . R      White may castle both ways
        let fen = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
        assert_eq!(
            answer(fen, "moves:e1"),
            ["c1", "d1", "f1", "g1", "d2", "e2", "f2"]
        );
        // Black's king, asked about while White is to move.
        assert_eq!(
            answer(fen, "moves:e8"),
            ["d7", "e7", "f7", "c8", "d8", "f8", "g8"]
        );
    }

    #[test]
    fn lists_attacked_squares_without_own_pieces() {
        // After 1.Nf3 the knight attacks g1 (now empty), d4, h4, e5 and g5; e1, d2 and h2
        // hold White's own pieces: defended, not attacked.
        let pos = Position::start().play("Nf3").unwrap().0;
        let got = names(
            &Ask::Attacks(parse_square("f3").unwrap())
                .answer(&pos)
                .unwrap(),
        );
        assert_eq!(got, ["g1", "d4", "h4", "e5", "g5"]);
    }

    #[test]
    fn lists_checking_squares() {
        //  . . . . k . . .
        //  …
        //  R . . . K . . .      only Ra8 gives check
        assert_eq!(answer("4k3/8/8/8/8/8/8/R3K3 w - - 0 1", "checks"), ["a8"]);
        //  . . . . k . . .
        //  …
        //  . . . Q K . . .      the queen checks from e2, a4, h5, d7 and d8
        assert_eq!(
            answer("4k3/8/8/8/8/8/8/3QK3 w - - 0 1", "checks"),
            ["e2", "a4", "h5", "d7", "d8"]
        );
    }

    #[test]
    fn errors_on_bad_questions() {
        assert!(matches!(Ask::parse("mobility"), Err(BadAsk::Unknown(_))));
        assert!(matches!(
            Ask::parse("moves:z9"),
            Err(BadAsk::Argument { .. })
        ));
        assert!(matches!(
            Ask::parse("checks:e4"),
            Err(BadAsk::Argument { .. })
        ));
        let pos = Position::start();
        assert_eq!(
            Ask::parse("moves:e4").unwrap().answer(&pos),
            Err(BadAsk::EmptySquare("e4".into()))
        );
    }
}
