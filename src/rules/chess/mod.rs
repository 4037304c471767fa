//! The chess rules engine: [`shakmaty`] underneath, with what a learner needs on top:
//! moves in SAN or UCI, the reason an illegal move is refused ([`Illegal`]), the end of the
//! game with threefold repetition and the fifty-move rule ([`Outcome`]), a mate prover for
//! puzzles, and "click every square that …" questions ([`select`]).
//!
//! Terms follow the Chinese translation of the FIDE Laws of Chess: 王 后 车 象 马 兵, 将军,
//! 将死, 逼和, 王车易位, 吃过路兵, 升变, 和棋.
//!
//! ```
//! use qiyuan::rules::chess::{parse_square, Illegal, Position, Role};
//! let pos = Position::start();
//! let (pos, played) = pos.play("e4").unwrap();
//! assert_eq!(played.uci, "e2e4");
//! let (pos, played) = pos.play("g8f6").unwrap();
//! assert_eq!(played.san, "Nf6");
//! // The bishop on f1 cannot go like a rook.
//! assert_eq!(
//!     pos.play("f1f3").unwrap_err(),
//!     Illegal::CannotMoveThatWay {
//!         role: Role::Bishop,
//!         from: parse_square("f1").unwrap(),
//!         to: parse_square("f3").unwrap(),
//!     }
//! );
//! ```

mod illegal;
mod search;
pub mod select;

pub use illegal::{CastlingRefused, Illegal};
/// Kingside (`O-O`, 短易位) or queenside (`O-O-O`, 长易位) castling (shakmaty's type).
pub use shakmaty::CastlingSide;
/// The side to move or a piece's side (shakmaty's type).
pub use shakmaty::Color;
/// The kind of a piece (shakmaty's type).
pub use shakmaty::Role;
/// A square, `a1` to `h8` (shakmaty's type); see [`square_name`] and [`parse_square`].
pub use shakmaty::Square;

use crate::lang::Lang;
use search::MateSearch as _;
use shakmaty::fen::{Fen, ParseFenError};
use shakmaty::san::SanPlus;
use shakmaty::uci::UciMove;
use shakmaty::zobrist::Zobrist64;
use shakmaty::{
    CastlingMode, Chess, EnPassantMode, FromSetup, Move, Position as _, PositionError,
    PositionErrorKinds, Rank, Setup,
};
use std::fmt;
use std::sync::Arc;

/// The name of a square, such as `e4`.
pub fn square_name(sq: Square) -> String {
    sq.to_string()
}

/// Reads a square name such as `e4` (case and surrounding spaces ignored).
pub fn parse_square(s: &str) -> Option<Square> {
    Square::from_ascii(s.trim().to_ascii_lowercase().as_bytes()).ok()
}

/// The name of a kind of piece in `lang`: 王 后 车 象 马 兵 / king queen rook bishop knight pawn.
pub fn role_name(role: Role, lang: Lang) -> &'static str {
    match (lang, role) {
        (Lang::Zh, Role::King) => "王",
        (Lang::Zh, Role::Queen) => "后",
        (Lang::Zh, Role::Rook) => "车",
        (Lang::Zh, Role::Bishop) => "象",
        (Lang::Zh, Role::Knight) => "马",
        (Lang::Zh, Role::Pawn) => "兵",
        (Lang::En, Role::King) => "king",
        (Lang::En, Role::Queen) => "queen",
        (Lang::En, Role::Rook) => "rook",
        (Lang::En, Role::Bishop) => "bishop",
        (Lang::En, Role::Knight) => "knight",
        (Lang::En, Role::Pawn) => "pawn",
    }
}

/// The name of a side in `lang`: 白方 / 黑方, White / Black.
pub fn color_name(color: Color, lang: Lang) -> &'static str {
    match (lang, color) {
        (Lang::Zh, Color::White) => "白方",
        (Lang::Zh, Color::Black) => "黑方",
        (Lang::En, Color::White) => "White",
        (Lang::En, Color::Black) => "Black",
    }
}

/// A move that was played or can be played, in every form the rest of the program needs.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Played {
    /// UCI notation: `g1f3`, `e7e8q`; castling as the king's two-square move `e1g1`
    /// (in a Chess960 position, set up by an X-FEN castling field, as king-takes-rook `b1a1`).
    pub uci: String,
    /// Standard algebraic notation with its `+` or `#`: `Nf3`, `exd6`, `O-O`, `e8=Q`, `Qxf7#`.
    pub san: String,
    /// The square the moving piece leaves (the king's, for castling).
    pub from: Square,
    /// The square the moving piece arrives on (the king's, for castling).
    pub to: Square,
    /// The piece a pawn promotes to.
    pub promotion: Option<Role>,
    /// The piece captured, a pawn for an en-passant capture.
    pub captured: Option<Role>,
    /// Whether the move gives check.
    pub check: bool,
    /// Whether the move checkmates.
    pub mate: bool,
}

impl Played {
    /// Describes `m`, legal in `pos`, and returns the position after it too.
    fn new(pos: &Chess, m: Move) -> (Chess, Played) {
        let mut after = pos.clone();
        after.play_unchecked(m);
        let check = after.is_check();
        let mate = check && after.legal_moves().is_empty();
        let from = m.from().expect("chess moves have a from-square");
        let to = match m.castling_side() {
            Some(side) => side.king_to(pos.turn()),
            None => m.to(),
        };
        let san = SanPlus {
            san: shakmaty::san::San::from_move(pos, m),
            suffix: if mate {
                Some(shakmaty::san::Suffix::Checkmate)
            } else if check {
                Some(shakmaty::san::Suffix::Check)
            } else {
                None
            },
        };
        let played = Played {
            uci: UciMove::from_move(m, pos.castles().mode()).to_string(),
            san: san.to_string(),
            from,
            to,
            promotion: m.promotion(),
            captured: m.capture(),
            check,
            mate,
        };
        (after, played)
    }
}

/// How a game has ended.
///
/// Threefold repetition and the fifty-move rule are reported as soon as a player could
/// claim the draw (FIDE 9.2, 9.3): a trainer has no one to claim it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// The side to move is in check and has no legal move (将死).
    Checkmate {
        /// The side that gave mate.
        winner: Color,
    },
    /// The side to move is not in check and has no legal move (逼和, 无子可动).
    Stalemate,
    /// Neither side has the pieces to mate, a dead position (FIDE 5.2.2, 死局), as far as
    /// shakmaty's material test sees: king against king, king and minor piece against
    /// king, bishops all on squares of one colour.
    InsufficientMaterial,
    /// The same position, with the same side to move, castling rights and en-passant
    /// captures, has occurred three times (三次重复局面).
    ThreefoldRepetition,
    /// Fifty moves by each side without a capture or a pawn move (五十回合规则).
    FiftyMoves,
}

impl Outcome {
    /// The side that won, if the game is not drawn.
    pub fn winner(&self) -> Option<Color> {
        match self {
            Outcome::Checkmate { winner } => Some(*winner),
            _ => None,
        }
    }

    /// The result as written in PGN: `1-0`, `0-1` or `1/2-1/2`.
    pub fn score(&self) -> &'static str {
        match self.winner() {
            Some(Color::White) => "1-0",
            Some(Color::Black) => "0-1",
            None => "1/2-1/2",
        }
    }

    /// A sentence for the learner in `lang`.
    pub fn explain(&self, lang: Lang) -> String {
        match (self, lang) {
            (Outcome::Checkmate { winner }, Lang::Zh) => format!(
                "将死！{}的王被将军，而且无法解除。{}胜（{}）。",
                color_name(!*winner, Lang::Zh),
                color_name(*winner, Lang::Zh),
                self.score()
            ),
            (Outcome::Checkmate { winner }, Lang::En) => format!(
                "Checkmate! {}'s king is in check and cannot escape. {} wins ({}).",
                color_name(!*winner, Lang::En),
                color_name(*winner, Lang::En),
                self.score()
            ),
            (Outcome::Stalemate, Lang::Zh) => {
                "逼和：轮到走棋的一方没有被将军，但无子可动。和棋（½-½）。".to_string()
            }
            (Outcome::Stalemate, Lang::En) => {
                "Stalemate: the side to move is not in check but has no legal move. The game is drawn (½-½).".to_string()
            }
            (Outcome::InsufficientMaterial, Lang::Zh) => {
                "双方都没有足够的子力将死对方（死局），和棋（½-½）。".to_string()
            }
            (Outcome::InsufficientMaterial, Lang::En) => {
                "Neither side has the pieces to give checkmate (a dead position): the game is drawn (½-½).".to_string()
            }
            (Outcome::ThreefoldRepetition, Lang::Zh) => {
                "同一局面第三次出现（三次重复局面），和棋（½-½）。".to_string()
            }
            (Outcome::ThreefoldRepetition, Lang::En) => {
                "The same position has occurred for the third time (threefold repetition): the game is drawn (½-½).".to_string()
            }
            (Outcome::FiftyMoves, Lang::Zh) => {
                "双方各走了五十步，既没有吃子也没有走兵（五十回合规则），和棋（½-½）。".to_string()
            }
            (Outcome::FiftyMoves, Lang::En) => {
                "Fifty moves by each side without a capture or a pawn move (the fifty-move rule): the game is drawn (½-½).".to_string()
            }
        }
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Outcome::Checkmate { winner } => {
                write!(f, "checkmate, {} wins", color_name(*winner, Lang::En))
            }
            Outcome::Stalemate => f.write_str("stalemate"),
            Outcome::InsufficientMaterial => f.write_str("insufficient material"),
            Outcome::ThreefoldRepetition => f.write_str("threefold repetition"),
            Outcome::FiftyMoves => f.write_str("fifty-move rule"),
        }
    }
}

/// A field of a FEN, for [`BadFen::Field`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FenField {
    /// The pieces, rank 8 first.
    Board,
    /// `w` or `b`.
    Turn,
    /// `KQkq`, `-`, or X-FEN / Shredder-FEN files.
    Castling,
    /// `-` or the square a pawn just skipped.
    EnPassant,
    /// Half-moves since the last capture or pawn move.
    HalfmoveClock,
    /// The move number.
    FullmoveNumber,
    /// Anything after the six fields.
    Extra,
}

/// Why a FEN does not give a playable chess position. The message says how to fix it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BadFen {
    /// The text is empty.
    Empty,
    /// A field cannot be read.
    Field {
        /// Which field.
        field: FenField,
        /// The field as written.
        text: String,
    },
    /// Pockets or check counts: a chess variant, not chess.
    Variant,
    /// A side has no king.
    MissingKing {
        /// The side without a king.
        color: Color,
    },
    /// A side has more than one king.
    TooManyKings {
        /// The side with several kings.
        color: Color,
    },
    /// A pawn stands on the first or the last rank.
    PawnOnBackRank {
        /// Where.
        square: Square,
    },
    /// Castling rights whose king or rook is not on its starting square.
    CastlingRights {
        /// The offending letters of the castling field, such as `K` or `kq`.
        letters: String,
    },
    /// An en-passant square that no pawn can just have skipped.
    EnPassant {
        /// The square as given.
        square: Square,
    },
    /// The side that is not to move is in check.
    OpponentInCheck {
        /// The side in check.
        color: Color,
    },
    /// Some other reason shakmaty gives.
    Other(String),
}

impl fmt::Display for BadFen {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BadFen::Empty => f.write_str(
                "empty fen: give at least the board, such as `rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1`",
            ),
            BadFen::Field { field, text } => match field {
                FenField::Board => write!(
                    f,
                    "bad board field `{text}`: write the 8 ranks from rank 8 down to rank 1, separated by `/`, each with piece letters (KQRBNP for White, kqrbnp for Black) and digits for empty squares, adding up to 8"
                ),
                FenField::Turn => write!(f, "bad side to move `{text}`: write `w` or `b`"),
                FenField::Castling => write!(
                    f,
                    "bad castling field `{text}`: write `-` or some of `KQkq` (at most two letters per side)"
                ),
                FenField::EnPassant => write!(
                    f,
                    "bad en-passant field `{text}`: write `-` or the square a pawn just skipped, such as `e3`"
                ),
                FenField::HalfmoveClock => {
                    write!(f, "bad halfmove clock `{text}`: write a whole number such as `0`")
                }
                FenField::FullmoveNumber => {
                    write!(f, "bad move number `{text}`: write a whole number such as `1`")
                }
                FenField::Extra => write!(
                    f,
                    "unexpected `{text}` after the move number: a fen has at most six fields"
                ),
            },
            BadFen::Variant => f.write_str(
                "this fen is for a chess variant (it has pockets or check counts): remove them, only standard chess is supported",
            ),
            BadFen::MissingKing { color } => write!(
                f,
                "{} has no king: put one `{}` on the board",
                color_name(*color, Lang::En).to_lowercase(),
                if *color == Color::White { 'K' } else { 'k' }
            ),
            BadFen::TooManyKings { color } => write!(
                f,
                "{} has more than one king: keep exactly one `{}`",
                color_name(*color, Lang::En).to_lowercase(),
                if *color == Color::White { 'K' } else { 'k' }
            ),
            BadFen::PawnOnBackRank { square } => write!(
                f,
                "pawn on {square}, on the first or last rank, where no pawn can stand: move it or make it another piece"
            ),
            BadFen::CastlingRights { letters } => write!(
                f,
                "castling right `{letters}` does not match the board, which needs the king and that rook on their starting squares: remove `{letters}` from the castling field"
            ),
            BadFen::EnPassant { square } => write!(
                f,
                "en-passant square {square} does not match the board: it must be on rank 6 with a black pawn just below it (white to move) or on rank 3 with a white pawn just above it (black to move), and empty behind; fix it or write `-`"
            ),
            BadFen::OpponentInCheck { color } => {
                let c = color_name(*color, Lang::En).to_lowercase();
                write!(
                    f,
                    "{c} is in check although it is not {c}'s move: change the side to move or remove the check"
                )
            }
            BadFen::Other(why) => write!(f, "{why}"),
        }
    }
}

impl std::error::Error for BadFen {}

/// A chess position in play: the board, the side to move, castling and en-passant
/// rights, the halfmove clock (for the fifty-move rule) and the positions since the last
/// capture or pawn move (for threefold repetition).
///
/// ```
/// use qiyuan::rules::chess::{Outcome, Position};
/// // Fool's mate.
/// let mut pos = Position::start();
/// for mv in ["f3", "e5", "g4"] {
///     pos = pos.play(mv).unwrap().0;
/// }
/// let (pos, played) = pos.play("Qh4").unwrap();
/// assert_eq!(played.san, "Qh4#");
/// assert!(played.mate);
/// assert_eq!(pos.outcome(), Some(Outcome::Checkmate { winner: qiyuan::rules::chess::Color::Black }));
/// ```
#[derive(Clone)]
pub struct Position {
    chess: Chess,
    /// Zobrist keys of the positions since the last capture or pawn move, current last.
    history: Arc<Vec<u64>>,
}

impl Position {
    fn with_chess(chess: Chess) -> Position {
        let key = key(&chess);
        Position {
            chess,
            history: Arc::new(vec![key]),
        }
    }

    /// The starting position.
    pub fn start() -> Position {
        Position::with_chess(Chess::default())
    }

    /// Reads a FEN (the board alone is enough: missing fields default to `w - - 0 1`).
    ///
    /// A castling field of `KQkq` letters is read as standard chess, and a letter whose king
    /// or rook is not on its starting square is dropped (as python-chess does), unless only a
    /// Chess960 reading (X-FEN: `K` the outermost rook on the king's side) gives any of the
    /// letters a meaning. Castling fields that name rook files (Shredder-FEN, X-FEN) set up a
    /// Chess960 position. Positions with more pieces than a game can produce, or with checks
    /// no game can produce, are accepted: composed problems have them and the rules still
    /// apply. The history starts empty.
    pub fn from_fen(fen: &str) -> Result<Position, BadFen> {
        let text = fen.trim();
        if text.is_empty() {
            return Err(BadFen::Empty);
        }
        let field_text = |i: usize| {
            text.split([' ', '_'])
                .filter(|s| !s.is_empty())
                .nth(i)
                .unwrap_or("")
                .to_string()
        };
        let parsed = Fen::from_ascii(text.as_bytes()).map_err(|e| {
            let (field, i) = match e {
                ParseFenError::InvalidBoard => (FenField::Board, 0),
                ParseFenError::InvalidPocket | ParseFenError::InvalidRemainingChecks => {
                    return BadFen::Variant
                }
                ParseFenError::InvalidTurn => (FenField::Turn, 1),
                ParseFenError::InvalidCastling => (FenField::Castling, 2),
                ParseFenError::InvalidEpSquare => (FenField::EnPassant, 3),
                ParseFenError::InvalidHalfmoveClock => (FenField::HalfmoveClock, 4),
                ParseFenError::InvalidFullmoves => (FenField::FullmoveNumber, 5),
                ParseFenError::InvalidFen => (FenField::Extra, 6),
            };
            BadFen::Field {
                field,
                text: field_text(i),
            }
        })?;
        let setup = parsed.into_setup();
        if setup.pockets.is_some() || setup.remaining_checks.is_some() {
            return Err(BadFen::Variant);
        }
        let standard_letters = field_text(2).chars().all(|c| "KQkq-".contains(c));
        let mode = castling_mode(&setup, standard_letters);
        Chess::from_setup(setup.clone(), mode)
            .or_else(PositionError::ignore_too_much_material)
            .or_else(PositionError::ignore_impossible_check)
            .or_else(|e| match (mode, standard_letters) {
                (CastlingMode::Standard, true) => e.ignore_invalid_castling_rights(),
                _ => Err(e),
            })
            .map(Position::with_chess)
            .map_err(|e| bad_setup(&setup, mode, e.kinds(), e.to_string()))
    }

    /// The position as a FEN (an en-passant square only when a capture there is legal).
    pub fn fen(&self) -> String {
        Fen::from_position(&self.chess, EnPassantMode::Legal).to_string()
    }

    /// The side to move.
    pub fn turn(&self) -> Color {
        self.chess.turn()
    }

    /// Every piece on the board, in square order `a1, b1, …, h8`.
    pub fn pieces(&self) -> Vec<(Square, Color, Role)> {
        self.chess
            .board()
            .iter()
            .map(|(sq, p)| (sq, p.color, p.role))
            .collect()
    }

    /// The piece on `sq`, if any.
    pub fn piece_at(&self, sq: Square) -> Option<(Color, Role)> {
        self.chess.board().piece_at(sq).map(|p| (p.color, p.role))
    }

    /// Whether the side to move is in check.
    pub fn is_check(&self) -> bool {
        self.chess.is_check()
    }

    /// The square of the side to move's king when it is in check.
    pub fn king_in_check(&self) -> Option<Square> {
        if self.chess.is_check() {
            self.chess.board().king_of(self.turn())
        } else {
            None
        }
    }

    /// Half-moves since the last capture or pawn move (the fifty-move rule counts to 100).
    pub fn halfmove_clock(&self) -> u32 {
        self.chess.halfmoves()
    }

    /// The move number: 1 at the start, increased after each Black move.
    pub fn fullmove_number(&self) -> u32 {
        self.chess.fullmoves().get()
    }

    /// How many times the current position has occurred in this game so far, counting
    /// this time (positions before the FEN it was set up from are unknown).
    pub fn repetitions(&self) -> usize {
        let now = self.history.last().copied();
        self.history.iter().filter(|&&k| Some(k) == now).count()
    }

    /// Plays a move given in SAN (`Nf3`, `exd6`, `O-O`, `e8=Q`, `Qxf7#`) or UCI (`g1f3`,
    /// `e7e8q`, `e1g1` for castling).
    ///
    /// SAN is read leniently: `0-0` for `O-O`, `e8Q` for `e8=Q`, `Kg1` / `Kc8` (the king to
    /// its castling square) for `O-O` / `O-O-O` when castling is legal, and a missing or
    /// extra capture mark `x` or check mark are all accepted, as are annotations like `!?`.
    /// A pawn move without a from-file (`f3`) is a push, never a capture. UCI may
    /// separate the squares with `-` (`e2-e4`); a Chess960-style king-takes-rook castling
    /// (`e1h1`) is accepted too. When the move is illegal, the error says why.
    pub fn play(&self, mv: &str) -> Result<(Position, Played), Illegal> {
        let m = illegal::resolve(&self.chess, mv)?;
        Ok(self.after(m))
    }

    /// The position after the legal move `m`, and its description.
    fn after(&self, m: Move) -> (Position, Played) {
        let (chess, played) = Played::new(&self.chess, m);
        let k = key(&chess);
        let history = if m.is_zeroing() {
            vec![k]
        } else {
            let mut h = Vec::with_capacity(self.history.len() + 1);
            h.extend_from_slice(&self.history);
            h.push(k);
            h
        };
        (
            Position {
                chess,
                history: Arc::new(history),
            },
            played,
        )
    }

    /// Every legal move, in shakmaty's generation order.
    pub fn legal_moves(&self) -> Vec<Played> {
        self.chess
            .legal_moves()
            .into_iter()
            .map(|m| Played::new(&self.chess, m).1)
            .collect()
    }

    /// How the game has ended, if it has: checkmate and stalemate first, then insufficient
    /// material, threefold repetition and the fifty-move rule.
    pub fn outcome(&self) -> Option<Outcome> {
        if self.chess.legal_moves().is_empty() {
            return Some(if self.chess.is_check() {
                Outcome::Checkmate {
                    winner: !self.turn(),
                }
            } else {
                Outcome::Stalemate
            });
        }
        if self.chess.is_insufficient_material() {
            Some(Outcome::InsufficientMaterial)
        } else if self.repetitions() >= 3 {
            Some(Outcome::ThreefoldRepetition)
        } else if self.chess.halfmoves() >= 100 {
            Some(Outcome::FiftyMoves)
        } else {
            None
        }
    }

    /// Every first move, in legal-move order, that forces mate in at most `n` moves of the
    /// side to move against every defence. (Repetition and the fifty-move rule are not
    /// considered inside the search.) Mates in 4 and longer are searched on as many
    /// threads as there are cores (`$QIYUAN_MATE_THREADS` sets the number).
    pub fn mating_moves(&self, n: u32) -> Vec<Played> {
        let moves = self.chess.legal_moves();
        let forced = search::forcing_first_moves(&self.chess, &moves, n);
        moves
            .iter()
            .zip(forced)
            .filter(|(_, forced)| *forced)
            .map(|(&m, _)| Played::new(&self.chess, m).1)
            .collect()
    }

    /// Whether the move `mv` (UCI, or SAN) forces mate in at most `n` moves against every
    /// defence. An illegal or unreadable move does not.
    pub fn forces_mate(&self, mv: &str, n: u32) -> bool {
        match illegal::resolve(&self.chess, mv) {
            Ok(m) => {
                let mut after = self.chess.clone();
                after.play_unchecked(m);
                search::Prover::new().forced(&after, n)
            }
            Err(_) => false,
        }
    }

    /// For the side to move when it is being mated: the reply after which the opponent's
    /// shortest forced mate (looking up to `n` of its moves) is longest. A reply that
    /// escapes mate in `n` altogether beats every other. Ties go to the first in legal-move
    /// order. `None` when there is no legal move.
    pub fn best_defence(&self, n: u32) -> Option<Played> {
        let mut best: Option<(Move, u32)> = None;
        let mut prover = search::Prover::new();
        for m in self.chess.legal_moves() {
            let mut after = self.chess.clone();
            after.play_unchecked(m);
            match prover.mate_distance(&after, n) {
                None => return Some(Played::new(&self.chess, m).1),
                Some(d) => {
                    if best.is_none_or(|(_, b)| d > b) {
                        best = Some((m, d));
                    }
                }
            }
        }
        best.map(|(m, _)| Played::new(&self.chess, m).1)
    }

    /// The number of legal move sequences of length `depth` (a test of move generation).
    pub fn perft(&self, depth: u32) -> u64 {
        shakmaty::perft(&self.chess, depth)
    }

    /// Whether castling follows Chess960 rules (set up from an X-FEN or Shredder-FEN).
    pub fn is_chess960(&self) -> bool {
        self.chess.castles().mode().is_chess960()
    }

    /// The shakmaty position underneath.
    pub(crate) fn chess(&self) -> &Chess {
        &self.chess
    }
}

impl Default for Position {
    fn default() -> Position {
        Position::start()
    }
}

/// Two positions are equal when their boards, side to move, castling and en-passant
/// rights and their histories since the last capture or pawn move are.
impl PartialEq for Position {
    fn eq(&self, other: &Position) -> bool {
        self.chess == other.chess && self.history == other.history
    }
}

impl Eq for Position {}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({})", self.fen())
    }
}

/// The repetition key of a position (FIDE 9.2.3: pieces, side to move, castling rights and
/// en-passant captures that are actually possible).
fn key(chess: &Chess) -> u64 {
    chess.zobrist_hash::<Zobrist64>(EnPassantMode::Legal).0
}

/// How to read the castling rights of `setup`: shakmaty's guess (Chess960 as soon as that
/// reading keeps more of the rights than standard chess), except that a field of `KQkq`
/// letters (`standard_letters`) stays standard chess whenever standard chess can keep one of
/// its rights. `r2r3k/p7/3p4/8/8/P6P/8/R3K2R w KQq` is standard chess without `q`, not a
/// Chess960 game where the king on h8 castles with the rook on a8.
fn castling_mode(setup: &Setup, standard_letters: bool) -> CastlingMode {
    let detected = CastlingMode::detect(setup);
    if detected.is_standard() || !standard_letters {
        return detected;
    }
    let standard = shakmaty::Castles::from_setup(setup, CastlingMode::Standard)
        .unwrap_or_else(|c| c)
        .castling_rights();
    if standard.is_empty() {
        CastlingMode::Chess960
    } else {
        CastlingMode::Standard
    }
}

/// Turns shakmaty's reasons for refusing a setup into the first one to fix.
fn bad_setup(setup: &Setup, mode: CastlingMode, kinds: PositionErrorKinds, why: String) -> BadFen {
    let board = &setup.board;
    let kings = |c: Color| (board.kings() & board.by_color(c)).count();
    if kinds.intersects(PositionErrorKinds::EMPTY_BOARD | PositionErrorKinds::MISSING_KING) {
        let color = if kings(Color::White) == 0 {
            Color::White
        } else {
            Color::Black
        };
        return BadFen::MissingKing { color };
    }
    if kinds.contains(PositionErrorKinds::TOO_MANY_KINGS) {
        let color = if kings(Color::White) > 1 {
            Color::White
        } else {
            Color::Black
        };
        return BadFen::TooManyKings { color };
    }
    if kinds.contains(PositionErrorKinds::PAWNS_ON_BACKRANK) {
        let back = shakmaty::Bitboard::from_rank(Rank::First) | Rank::Eighth;
        if let Some(square) = (board.pawns() & back).first() {
            return BadFen::PawnOnBackRank { square };
        }
    }
    if kinds.contains(PositionErrorKinds::INVALID_CASTLING_RIGHTS) {
        let valid = shakmaty::Castles::from_setup(setup, mode)
            .unwrap_or_else(|c| c)
            .castling_rights();
        let letters: String = (setup.castling_rights & !valid)
            .into_iter()
            .map(|sq| {
                let c = match sq.file() {
                    shakmaty::File::H => 'k',
                    shakmaty::File::A => 'q',
                    f => f.char(),
                };
                if sq.rank() == Rank::First {
                    c.to_ascii_uppercase()
                } else {
                    c
                }
            })
            .collect();
        return BadFen::CastlingRights { letters };
    }
    if kinds.contains(PositionErrorKinds::INVALID_EP_SQUARE) {
        if let Some(square) = setup.ep_square {
            return BadFen::EnPassant { square };
        }
    }
    if kinds.contains(PositionErrorKinds::OPPOSITE_CHECK) {
        return BadFen::OpponentInCheck { color: !setup.turn };
    }
    BadFen::Other(why)
}


/// The rules in the words every game shares.
impl super::Rules for Position {
    type Move = Played;
    type Illegal = Illegal;
    type Ending = Outcome;
    type Color = Color;

    fn turn(&self) -> Color {
        Position::turn(self)
    }
    fn legal_moves(&self) -> Vec<Played> {
        Position::legal_moves(self)
    }
    fn play(&self, text: &str) -> Result<(Self, Played), Illegal> {
        Position::play(self, text)
    }
    fn move_name(&self, mv: &Played) -> String {
        mv.uci.clone()
    }
    fn notation(&self, mv: &Played) -> String {
        mv.san.clone()
    }
    fn ending(&self) -> Option<Outcome> {
        self.outcome()
    }
}

impl super::Explain for Illegal {
    fn explain(&self, lang: crate::lang::Lang) -> String {
        Illegal::explain(self, lang)
    }
}

impl super::Explain for Outcome {
    fn explain(&self, lang: crate::lang::Lang) -> String {
        Outcome::explain(self, lang)
    }
}

#[cfg(test)]
mod tests;
