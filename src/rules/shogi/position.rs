//! A shogi position in play: rsshogi's board and history underneath, our diagnosis on top.

use super::geometry::{self, Grid, Reach};
use super::illegal::{Illegal, Outcome};
use super::types::{Color, Kind, Square};
use rsshogi::board::{self as rb, Move32List};
use rsshogi::movegen::generate_legal_all_move32;
use rsshogi::types::{self as rs, HandPiece, RepetitionState};
use std::fmt;

/// The SFEN of the starting position (平手).
pub const START_SFEN: &str = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";

/// Why an SFEN string is not a position we accept.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BadSfen {
    /// The text is not SFEN (rsshogi's reason).
    Syntax(String),
    /// A side has more than one king.
    TwoKings { color: Color },
    /// A piece stands where it could never move (a pawn or lance on the last rank, a
    /// knight on the last two).
    DeadPiece { square: Square, kind: Kind },
    /// More pieces of a kind (promoted or not, board and hands together) than a set holds.
    TooMany { kind: Kind },
    /// The side not to move is in check: its king could be taken.
    OpponentInCheck,
}

impl fmt::Display for BadSfen {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BadSfen::Syntax(e) => write!(f, "bad sfen: {e}"),
            BadSfen::TwoKings { color } => write!(f, "bad sfen: {} has two kings", color.as_str()),
            BadSfen::DeadPiece { square, kind } => {
                write!(f, "bad sfen: a {kind} on {square} could never move")
            }
            BadSfen::TooMany { kind } => {
                write!(f, "bad sfen: more {kind}s than a set holds")
            }
            BadSfen::OpponentInCheck => {
                f.write_str("bad sfen: the side not to move is in check")
            }
        }
    }
}

impl std::error::Error for BadSfen {}

/// A move that was (or may be) played, described for display and for judging.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Played {
    /// The USI text: `7g7f`, `8h2b+`, `P*5e`.
    pub usi: String,
    /// Where the piece came from; `None` for a drop.
    pub from: Option<Square>,
    /// Where the piece went.
    pub to: Square,
    /// The kind dropped from the hand, for a drop.
    pub drop: Option<Kind>,
    /// Whether the piece promoted.
    pub promote: bool,
    /// The moving piece before promotion (the dropped kind for a drop).
    pub kind: Kind,
    /// The piece captured, as it stood on the board (a captured dragon is `Dragon`; it
    /// goes to the hand as a rook).
    pub captured: Option<Kind>,
    /// Whether the move gives check (王手).
    pub check: bool,
}

/// A move as written, before the position is asked about it.
#[derive(Clone, Copy, Debug)]
enum Usi {
    Board {
        from: Square,
        to: Square,
        promote: bool,
    },
    Drop {
        kind: Kind,
        to: Square,
    },
}

fn parse_usi(text: &str) -> Result<Usi, Illegal> {
    let bad = || Illegal::NotAMove(text.to_string());
    if !text.is_ascii() {
        return Err(bad());
    }
    if let Some(star) = text.find('*') {
        let (head, tail) = (&text[..star], &text[star + 1..]);
        let (promoted_head, letter) = match head.strip_prefix('+') {
            Some(l) => (true, l),
            None => (false, head),
        };
        let (promoted_tail, square) = match tail.strip_suffix('+') {
            Some(s) => (true, s),
            None => (false, tail),
        };
        let to = Square::parse(square).filter(|_| square.len() == 2);
        let kind = (letter.len() == 1 && letter.chars().all(|c| c.is_ascii_uppercase()))
            .then(|| Kind::from_sfen(letter))
            .flatten();
        return match (kind, to) {
            (Some(_), Some(_)) if promoted_head || promoted_tail => Err(Illegal::DropPromoted),
            (Some(kind), Some(to)) => Ok(Usi::Drop { kind, to }),
            _ => Err(bad()),
        };
    }
    let (body, promote) = match text.strip_suffix('+') {
        Some(b) => (b, true),
        None => (text, false),
    };
    if body.len() != 4 {
        return Err(bad());
    }
    match (Square::parse(&body[..2]), Square::parse(&body[2..])) {
        (Some(from), Some(to)) => Ok(Usi::Board { from, to, promote }),
        _ => Err(bad()),
    }
}

fn rs_move(usi: Usi) -> rs::Move {
    match usi {
        Usi::Board { from, to, promote } => {
            if promote {
                rs::Move::promotion(from.to_rs(), to.to_rs())
            } else {
                rs::Move::normal(from.to_rs(), to.to_rs())
            }
        }
        Usi::Drop { kind, to } => rs::Move::drop(kind.to_rs(), to.to_rs()),
    }
}

/// The piece on a square of an rsshogi position, in our words.
pub(crate) fn piece_at(pos: &rb::Position, sq: rs::Square) -> Option<(Color, Kind)> {
    let p = pos.piece_on(sq);
    if p == rs::Piece::NONE {
        return None;
    }
    Kind::from_rs(p.piece_type()).map(|k| (Color::from_rs(p.color()), k))
}

/// Describes a legal move of `pos` (before it is played).
pub(crate) fn describe(pos: &rb::Position, mv: rs::Move) -> Played {
    let to = Square::from_rs(mv.to_sq());
    let captured = if mv.is_drop() {
        None
    } else {
        piece_at(pos, mv.to_sq()).map(|(_, k)| k)
    };
    let (from, drop, kind) = match mv.dropped_piece() {
        Some(pt) if mv.is_drop() => {
            let k = Kind::from_rs(pt).unwrap_or(Kind::Pawn);
            (None, Some(k), k)
        }
        _ => {
            let k = piece_at(pos, mv.from_sq())
                .map(|(_, k)| k)
                .unwrap_or(Kind::Pawn);
            (Some(Square::from_rs(mv.from_sq())), None, k)
        }
    };
    Played {
        usi: mv.to_usi(),
        from,
        to,
        drop,
        promote: mv.is_promotion(),
        kind,
        captured,
        check: pos.gives_check_move(mv),
    }
}

/// The legal moves of `pos` (promotions and non-promotions both), in rsshogi's order.
pub(crate) fn legal_rs(pos: &rb::Position) -> Move32List {
    let mut list = Move32List::new();
    generate_legal_all_move32(pos, &mut list);
    list
}

/// A shogi position: the board, both hands, the side to move, and the positions seen so
/// far (for 千日手). Playing a move returns a new position; the old one is untouched.
///
/// ```
/// use qiyuan::rules::shogi::{Illegal, Kind, Position, Square};
/// // The start position, Black (sente) to move at the bottom:
/// //   9 8 7 6 5 4 3 2 1
/// //   l n s g k g s n l  a
/// //   . r . . . . . b .  b
/// //   p p p p p p p p p  c
/// //   . . . . . . . . .  d …
/// //   P P P P P P P P P  g
/// //   . B . . . . . R .  h
/// //   L N S G K G S N L  i
/// let pos = Position::start();
/// let (next, played) = pos.play("7g7f").unwrap();
/// assert_eq!(played.kind, Kind::Pawn);
/// assert!(next.sfen().starts_with("lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/"));
/// // A pawn moves one square forward only:
/// let sq = |s| Square::parse(s).unwrap();
/// assert_eq!(
///     pos.play("7g7e"),
///     Err(Illegal::CannotMoveThatWay { kind: Kind::Pawn, from: sq("7g"), to: sq("7e") })
/// );
/// ```
#[derive(Clone)]
pub struct Position {
    pub(crate) inner: rb::Position,
}

impl Position {
    /// The starting position (平手), Black to move.
    pub fn start() -> Position {
        Position {
            inner: rb::hirate_position(),
        }
    }

    /// Reads an SFEN such as
    /// `lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1`
    /// (a leading `sfen ` is allowed; the move number may be left out and is then 1).
    ///
    /// Refuses what could not arise in a game: two kings of a side, a piece that could
    /// never move, more pieces than a set holds, or the side not to move in check. A side
    /// without a king is allowed (tsume problems give the attacker none), and so are two
    /// pawns of a side on one file, which some generated problems have (dropping another
    /// pawn there is still 二歩).
    pub fn from_sfen(sfen: &str) -> Result<Position, BadSfen> {
        let text = sfen.trim();
        let text = text.strip_prefix("sfen ").unwrap_or(text).trim();
        let owned;
        let text = if text.split_whitespace().count() == 3 {
            owned = format!("{text} 1");
            owned.as_str()
        } else {
            text
        };
        let inner = rb::Position::from_sfen(text).map_err(|e| BadSfen::Syntax(e.to_string()))?;
        let pos = Position { inner };
        pos.validate()?;
        Ok(pos)
    }

    fn validate(&self) -> Result<(), BadSfen> {
        let grid = self.grid();
        let mut counts = [0u32; 8];
        let base_index = |k: Kind| match k.unpromoted() {
            Kind::Pawn => 0,
            Kind::Lance => 1,
            Kind::Knight => 2,
            Kind::Silver => 3,
            Kind::Gold => 4,
            Kind::Bishop => 5,
            Kind::Rook => 6,
            _ => 7,
        };
        let mut kings = [0u32; 2];
        for sq in Square::all() {
            let Some((color, kind)) = grid.get(sq) else {
                continue;
            };
            counts[base_index(kind)] += 1;
            let side = color as usize;
            if kind == Kind::King {
                kings[side] += 1;
                if kings[side] > 1 {
                    return Err(BadSfen::TwoKings { color });
                }
            }
            if geometry::is_dead_square(kind, color, sq) {
                return Err(BadSfen::DeadPiece { square: sq, kind });
            }
        }
        for color in [Color::Black, Color::White] {
            for (kind, n) in self.hand(color) {
                counts[base_index(kind)] += n as u32;
            }
        }
        let limits = [18, 4, 4, 4, 4, 2, 2, 2];
        let kinds = [
            Kind::Pawn,
            Kind::Lance,
            Kind::Knight,
            Kind::Silver,
            Kind::Gold,
            Kind::Bishop,
            Kind::Rook,
            Kind::King,
        ];
        for i in 0..8 {
            if counts[i] > limits[i] {
                return Err(BadSfen::TooMany { kind: kinds[i] });
            }
        }
        let them = self.turn().opponent();
        if let Some(k) = grid.king(them) {
            if !grid.attackers(k, self.turn()).is_empty() {
                return Err(BadSfen::OpponentInCheck);
            }
        }
        Ok(())
    }

    /// The position in SFEN, with the move number.
    pub fn sfen(&self) -> String {
        self.inner.to_sfen(None)
    }

    /// The side to move.
    pub fn turn(&self) -> Color {
        Color::from_rs(self.inner.turn())
    }

    /// Every piece on the board, rank by rank from the top (rank a), each rank from file 9
    /// to file 1: the order in which SFEN lists them.
    pub fn pieces(&self) -> Vec<(Square, Color, Kind)> {
        Square::all()
            .filter_map(|sq| piece_at(&self.inner, sq.to_rs()).map(|(c, k)| (sq, c, k)))
            .collect()
    }

    /// The piece on `sq`, if any.
    pub fn piece(&self, sq: Square) -> Option<(Color, Kind)> {
        piece_at(&self.inner, sq.to_rs())
    }

    /// The pieces `color` holds in hand (持ち駒), always unpromoted, with their counts, in
    /// the order R B G S N L P; kinds not held are left out.
    pub fn hand(&self, color: Color) -> Vec<(Kind, u8)> {
        let hand = self.inner.hand(color.to_rs());
        Kind::HAND
            .iter()
            .filter_map(|&k| {
                let hp = HandPiece::from_piece_type(k.to_rs())?;
                let n = hand.count(hp);
                (n > 0).then_some((k, n as u8))
            })
            .collect()
    }

    /// How many pieces of `kind` (a base kind) `color` holds in hand.
    pub fn in_hand(&self, color: Color, kind: Kind) -> u8 {
        HandPiece::from_piece_type(kind.to_rs())
            .map(|hp| self.inner.hand(color.to_rs()).count(hp) as u8)
            .unwrap_or(0)
    }

    /// Whether the side to move is in check (王手).
    pub fn is_check(&self) -> bool {
        self.inner.is_in_check()
    }

    /// Where `color`'s king stands, if it has one.
    pub fn king_square(&self, color: Color) -> Option<Square> {
        let sq = self.inner.king_square(color.to_rs());
        sq.is_valid().then(|| Square::from_rs(sq))
    }

    /// The board as a plain array for the explanations.
    pub(crate) fn grid(&self) -> Grid {
        let mut g = Grid::empty();
        for (sq, c, k) in self.pieces() {
            g.set(sq, Some((c, k)));
        }
        g
    }

    /// Plays a USI move for the side to move: `7g7f`, `8h2b+` (promote), `P*5e` (drop).
    ///
    /// rsshogi decides whether the move is legal; when it is not, the reason is looked for
    /// in the order a teacher would check: the text, the piece, its way of moving, its
    /// path, promotion, the rules of drops, and whether the king is left in check.
    pub fn play(&self, usi: &str) -> Result<(Position, Played), Illegal> {
        let text = usi.trim();
        let parsed = parse_usi(text)?;
        if self.outcome().is_some() {
            return Err(Illegal::GameOver);
        }
        let mv = rs_move(parsed);
        if !self.inner.is_legal_move(mv) {
            return Err(self.diagnose(parsed, text));
        }
        let played = describe(&self.inner, mv);
        let mut inner = self.inner.clone();
        let m32 = inner.move32_from_move(mv);
        inner.apply_move32(m32);
        Ok((Position { inner }, played))
    }

    /// Why the move `usi`, which rsshogi refused, is illegal.
    fn diagnose(&self, usi: Usi, text: &str) -> Illegal {
        let grid = self.grid();
        let us = self.turn();
        let check_king = |after: &Grid| -> Option<Illegal> {
            let king = after.king(us)?;
            after
                .attackers(king, us.opponent())
                .first()
                .map(|&attacker| Illegal::LeavesKingInCheck { attacker })
        };
        match usi {
            Usi::Board { from, to, promote } => {
                let Some((color, kind)) = grid.get(from) else {
                    return Illegal::NoPiece { from };
                };
                if color != us {
                    return Illegal::NotYourPiece { from };
                }
                if from == to {
                    return Illegal::CannotMoveThatWay { kind, from, to };
                }
                if matches!(grid.get(to), Some((c, _)) if c == us) {
                    return Illegal::OwnPieceOnTarget { to };
                }
                match geometry::reach(kind, us, from, to) {
                    Reach::No => return Illegal::CannotMoveThatWay { kind, from, to },
                    Reach::Yes(path) => {
                        if let Some(&by) = path.iter().find(|&&s| grid.get(s).is_some()) {
                            return Illegal::PathBlocked { kind, from, to, by };
                        }
                    }
                }
                if promote {
                    if !kind.can_promote() {
                        return Illegal::CannotPromote { kind };
                    }
                    if !from.in_zone(us) && !to.in_zone(us) {
                        return Illegal::PromotionOutsideZone { from, to };
                    }
                } else if geometry::is_dead_square(kind, us, to) {
                    return Illegal::PromotionRequired { kind, to };
                }
                if let Some(e) = check_king(&grid.after_move(from, to, promote)) {
                    return e;
                }
            }
            Usi::Drop { kind, to } => {
                if self.in_hand(us, kind) == 0 {
                    return Illegal::NotInHand { kind };
                }
                if grid.get(to).is_some() {
                    return Illegal::DropOccupied { to };
                }
                if geometry::is_dead_square(kind, us, to) {
                    return Illegal::DeadDrop { kind, to };
                }
                if kind == Kind::Pawn
                    && (1..=9).any(|rank| {
                        Square::new(to.file, rank)
                            .is_some_and(|s| grid.get(s) == Some((us, Kind::Pawn)))
                    })
                {
                    return Illegal::TwoPawns { file: to.file };
                }
                let mut after = grid.clone();
                after.set(to, Some((us, kind)));
                if let Some(e) = check_king(&after) {
                    return e;
                }
                if kind == Kind::Pawn {
                    return Illegal::PawnDropMate { to };
                }
            }
        }
        debug_assert!(false, "no reason found for illegal move {text}");
        Illegal::NotAMove(text.to_string())
    }

    /// Whether `usi` is a legal move here.
    pub fn is_legal(&self, usi: &str) -> bool {
        self.play(usi).is_ok()
    }

    /// Every legal move, promotions and non-promotions both, sorted by their USI text (so
    /// board moves come before drops). Empty once the game is over.
    pub fn legal_moves(&self) -> Vec<Played> {
        if self.is_repetition_over() {
            return Vec::new();
        }
        let mut moves: Vec<Played> = legal_rs(&self.inner)
            .iter()
            .map(|m| describe(&self.inner, m.to_move()))
            .collect();
        moves.sort_by(|a, b| a.usi.cmp(&b.usi));
        moves
    }

    fn is_repetition_over(&self) -> bool {
        self.inner.repetition_counter() >= 3
    }

    /// How the game has ended, if it has: 千日手 (the same position for the fourth time;
    /// a loss for the side that gave check with every move of the cycle, else a draw), or
    /// 詰み (the side to move has no legal move).
    ///
    /// ```
    /// use qiyuan::rules::shogi::{Color, Outcome, Position};
    /// //   9 8 7 6 5 4 3 2 1
    /// //   . . . . . . . . k  a     White's king on 1a, Black's gold on 1b
    /// //   . . . . . . . . G  b     guarded by the pawn on 1c: mate.
    /// //   . . . . . . . . P  c
    /// let pos = Position::from_sfen("8k/8G/8P/9/9/9/9/9/4K4 w - 1").unwrap();
    /// assert_eq!(pos.outcome(), Some(Outcome::Checkmate { winner: Color::Black }));
    /// ```
    pub fn outcome(&self) -> Option<Outcome> {
        if self.is_repetition_over() {
            let turn = self.turn();
            return Some(match self.inner.repetition_state() {
                RepetitionState::Win => Outcome::PerpetualCheck {
                    loser: turn.opponent(),
                },
                RepetitionState::Lose => Outcome::PerpetualCheck { loser: turn },
                _ => Outcome::Repetition,
            });
        }
        if self.inner.is_mated() {
            return Some(Outcome::Checkmate {
                winner: self.turn().opponent(),
            });
        }
        None
    }

    /// The number of leaf nodes of the legal-move tree `depth` plies deep (perft), counted
    /// with rsshogi's move generator; non-promotions are moves of their own.
    pub fn perft(&self, depth: u32) -> u64 {
        fn go(pos: &mut rb::Position, depth: u32) -> u64 {
            let list = legal_rs(pos);
            if depth == 1 {
                return list.len() as u64;
            }
            let mut n = 0;
            for &m in list.iter() {
                pos.apply_move32(m);
                n += go(pos, depth - 1);
                pos.undo_move32(m).expect("undo the move just applied");
            }
            n
        }
        if depth == 0 {
            return 1;
        }
        let mut pos = self.inner.clone();
        pos.init_stack();
        go(&mut pos, depth)
    }
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({})", self.sfen())
    }
}

/// Two positions are equal when their board, hands and side to move are (the move number
/// and the history are not compared).
impl PartialEq for Position {
    fn eq(&self, other: &Position) -> bool {
        self.inner.to_sfen(Some(-1)) == other.inner.to_sfen(Some(-1))
    }
}

impl Eq for Position {}
