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
            BadSfen::OpponentInCheck => f.write_str("bad sfen: the side not to move is in check"),
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
    pub fn piece_at(&self, sq: Square) -> Option<(Color, Kind)> {
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
        let mv = self.legal(usi)?;
        let mut after = self.clone();
        let played = after.apply(mv);
        Ok((after, played))
    }

    /// Plays a USI move as [`Position::play`] does, on this position itself (it is left as
    /// it was when the move is refused). Cheaper than `play`, which copies the position's
    /// whole history.
    ///
    /// ```
    /// use qiyuan::rules::shogi::Position;
    /// let mut pos = Position::start();
    /// assert_eq!(pos.play_in_place("7g7f").unwrap().usi, "7g7f");
    /// assert!(pos.play_in_place("7g7f").is_err()); // White to move now
    /// assert_eq!(pos, Position::start().play("7g7f").unwrap().0);
    /// ```
    pub fn play_in_place(&mut self, usi: &str) -> Result<Played, Illegal> {
        let mv = self.legal(usi)?;
        Ok(self.apply(mv))
    }

    /// The USI move `usi` if the rules allow it here, or why not.
    fn legal(&self, usi: &str) -> Result<rs::Move, Illegal> {
        let text = usi.trim();
        let parsed = parse_usi(text)?;
        if self.outcome().is_some() {
            return Err(Illegal::GameOver);
        }
        let mv = rs_move(parsed);
        if !self.inner.is_legal_move(mv) {
            return Err(self.diagnose(parsed, text));
        }
        Ok(mv)
    }

    /// Plays `mv`, which rsshogi found legal, and describes it as played from here.
    fn apply(&mut self, mv: rs::Move) -> Played {
        let played = describe(&self.inner, mv);
        let m32 = self.inner.move32_from_move(mv);
        self.inner.apply_move32(m32);
        played
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lang::Lang;

    fn sq(s: &str) -> Square {
        Square::parse(s).unwrap()
    }

    fn pos(sfen: &str) -> Position {
        Position::from_sfen(sfen).unwrap()
    }

    fn err(p: &Position, usi: &str) -> Illegal {
        p.play(usi).unwrap_err()
    }

    fn play_all(p: &Position, moves: &str) -> Position {
        moves.split_whitespace().fold(p.clone(), |p, m| {
            p.play(m).unwrap_or_else(|e| panic!("{m}: {e}")).0
        })
    }

    #[test]
    fn refuses_second_unpromoted_pawn_on_file() {
        let p = pos("4k4/9/9/9/9/9/4P4/9/4K4 b P 1");
        assert_eq!(err(&p, "P*5e"), Illegal::TwoPawns { file: 5 });
        assert!(p.play("P*4e").is_ok());
        // A tokin is no pawn: a pawn may be dropped on its file.
        let p = pos("4k4/9/4+P4/9/9/9/9/9/4K4 b P 1");
        assert!(p.play("P*5e").is_ok());
    }

    #[test]
    fn refuses_pawn_drop_mate_but_allows_pawn_drop_check() {
        //   3 2 1
        //   . l k  a     White's king is walled in by its own lance and pawn;
        //   . p .  b     the gold on 1c guards 1b: P*1b would mate.
        //   . . G  c
        let p = pos("7lk/7p1/8G/9/9/9/9/9/4K4 b P 1");
        assert_eq!(err(&p, "P*1b"), Illegal::PawnDropMate { to: sq("1b") });
        // Unguarded, the same drop is a check the king answers by taking: legal (打步将).
        let p = pos("7lk/7p1/9/9/9/9/9/9/4K4 b P 1");
        let (next, played) = p.play("P*1b").unwrap();
        assert!(played.check && next.is_check());
        assert_eq!(next.outcome(), None);
        // Mating with a pawn that moves is legal.
        let p = pos("7lk/7p1/7GP/9/9/9/9/9/4K4 b - 1");
        let (next, _) = p.play("1c1b").unwrap();
        assert_eq!(
            next.outcome(),
            Some(Outcome::Checkmate {
                winner: Color::Black
            })
        );
    }

    #[test]
    fn refuses_dead_drops() {
        let p = pos("4k4/9/9/9/9/9/9/9/4K4 b PLN 1");
        for (usi, kind, to) in [
            ("P*3a", Kind::Pawn, "3a"),
            ("L*3a", Kind::Lance, "3a"),
            ("N*3a", Kind::Knight, "3a"),
            ("N*3b", Kind::Knight, "3b"),
        ] {
            assert_eq!(err(&p, usi), Illegal::DeadDrop { kind, to: sq(to) });
        }
        assert!(p.play("N*3c").is_ok());
        assert!(p.play("L*3b").is_ok());
        // White's last ranks are at the bottom.
        let p = pos("4k4/9/9/9/9/9/9/9/4K4 w pn 1");
        assert_eq!(
            err(&p, "P*3i"),
            Illegal::DeadDrop {
                kind: Kind::Pawn,
                to: sq("3i")
            }
        );
        assert_eq!(
            err(&p, "N*3h"),
            Illegal::DeadDrop {
                kind: Kind::Knight,
                to: sq("3h")
            }
        );
        assert!(p.play("P*3a").is_ok());
    }

    #[test]
    fn requires_promotion_where_a_piece_could_never_move_again() {
        let p = pos("k8/4P4/4N4/9/9/9/9/9/4K4 b - 1");
        assert_eq!(
            err(&p, "5b5a"),
            Illegal::PromotionRequired {
                kind: Kind::Pawn,
                to: sq("5a")
            }
        );
        assert!(p.play("5b5a+").is_ok());
        assert_eq!(
            err(&p, "5c4a"),
            Illegal::PromotionRequired {
                kind: Kind::Knight,
                to: sq("4a")
            }
        );
        assert!(p.play("5c4a+").is_ok());
    }

    #[test]
    fn refuses_promotion_outside_the_zone_and_of_what_cannot_promote() {
        let p = Position::start();
        assert_eq!(
            err(&p, "7g7f+"),
            Illegal::PromotionOutsideZone {
                from: sq("7g"),
                to: sq("7f")
            }
        );
        assert_eq!(
            err(&p, "6i6h+"),
            Illegal::CannotPromote { kind: Kind::Gold }
        );
        assert_eq!(
            err(&p, "5i5h+"),
            Illegal::CannotPromote { kind: Kind::King }
        );
        // Leaving the zone promotes too; a tokin cannot promote again.
        let p = pos("k8/9/4S4/3+P5/9/9/9/9/4K4 b - 1");
        assert!(p.play("5c4d+").is_ok());
        assert_eq!(
            err(&p, "6d6c+"),
            Illegal::CannotPromote {
                kind: Kind::ProPawn
            }
        );
    }

    #[test]
    fn refuses_promoted_drops() {
        let p = pos("4k4/9/9/9/9/9/9/9/4K4 b P 1");
        assert_eq!(err(&p, "+P*5e"), Illegal::DropPromoted);
        assert_eq!(err(&p, "P*5e+"), Illegal::DropPromoted);
    }

    #[test]
    fn diagnoses_moves_like_a_teacher() {
        let p = Position::start();
        assert_eq!(err(&p, "5e5d"), Illegal::NoPiece { from: sq("5e") });
        assert_eq!(err(&p, "3c3d"), Illegal::NotYourPiece { from: sq("3c") });
        assert_eq!(err(&p, "9i9g"), Illegal::OwnPieceOnTarget { to: sq("9g") });
        assert_eq!(
            err(&p, "8h7h"),
            Illegal::CannotMoveThatWay {
                kind: Kind::Bishop,
                from: sq("8h"),
                to: sq("7h")
            }
        );
        assert_eq!(
            err(&p, "8h2b+"),
            Illegal::PathBlocked {
                kind: Kind::Bishop,
                from: sq("8h"),
                to: sq("2b"),
                by: sq("7g")
            }
        );
        assert_eq!(
            err(&p, "2h2c"),
            Illegal::PathBlocked {
                kind: Kind::Rook,
                from: sq("2h"),
                to: sq("2c"),
                by: sq("2g")
            }
        );
        // A silver cannot step straight back; White's pawn moves down, not up.
        let p = pos("4k4/9/9/9/4S4/9/9/9/4K4 b - 1");
        assert!(matches!(err(&p, "5e5f"), Illegal::CannotMoveThatWay { .. }));
        let p = pos("k8/4p4/9/9/9/9/9/9/4K4 w - 1");
        assert!(matches!(err(&p, "5b5a"), Illegal::CannotMoveThatWay { .. }));
        assert!(p.play("5b5c").is_ok());
        for bad in ["", "hello", "5e", "7g7f++", "p*5e", "P*5j", "7g7", "P*5e5"] {
            assert_eq!(
                err(&Position::start(), bad),
                Illegal::NotAMove(bad.to_string())
            );
        }
    }

    #[test]
    fn names_the_piece_that_would_give_check() {
        // The gold on 5h shields its king from the rook on 5a.
        let p = pos("4r3k/9/9/9/9/9/9/4G4/4K4 b - 1");
        assert_eq!(
            err(&p, "5h4h"),
            Illegal::LeavesKingInCheck {
                attacker: (Kind::Rook, sq("5a"))
            }
        );
        assert!(p.play("5h5g").is_ok());
        // In check, a drop elsewhere does not help; nor may the king walk along the file.
        let p = pos("4r3k/9/9/9/9/9/9/9/4K4 b P 1");
        assert_eq!(
            err(&p, "P*1e"),
            Illegal::LeavesKingInCheck {
                attacker: (Kind::Rook, sq("5a"))
            }
        );
        assert_eq!(
            err(&p, "5i5h"),
            Illegal::LeavesKingInCheck {
                attacker: (Kind::Rook, sq("5a"))
            }
        );
        assert!(p.play("P*5e").is_ok());
    }

    #[test]
    fn refuses_drops_of_pieces_not_in_hand_or_onto_pieces() {
        let p = Position::start();
        assert_eq!(err(&p, "P*5e"), Illegal::NotInHand { kind: Kind::Pawn });
        assert_eq!(err(&p, "K*5e"), Illegal::NotInHand { kind: Kind::King });
        let p = pos("4k4/9/9/9/9/9/4P4/9/4K4 b G 1");
        assert_eq!(err(&p, "G*5g"), Illegal::DropOccupied { to: sq("5g") });
    }

    #[test]
    fn captured_promoted_piece_goes_to_hand_unpromoted() {
        let p = pos("4k4/9/9/9/4+r4/9/9/4R4/4K4 b - 1");
        let (next, played) = p.play("5h5e").unwrap();
        assert_eq!(played.captured, Some(Kind::Dragon));
        assert_eq!(next.hand(Color::Black), [(Kind::Rook, 1)]);
        assert!(next.sfen().contains(" w R "));
        // And it is dropped as a rook.
        let next = next.play("5a4a").unwrap().0;
        let (_, played) = next.play("R*5b").unwrap();
        assert_eq!(played.drop, Some(Kind::Rook));
    }

    #[test]
    fn repetition_four_times_is_a_draw() {
        let cycle = "2h3h 8b7b 3h2h 7b8b";
        let p = play_all(&Position::start(), &format!("{cycle} {cycle}"));
        assert_eq!(p.outcome(), None);
        let p = play_all(&p, cycle);
        assert_eq!(p.outcome(), Some(Outcome::Repetition));
        assert_eq!(err(&p, "7g7f"), Illegal::GameOver);
        assert!(p.legal_moves().is_empty());
        assert!(p.outcome().unwrap().explain(Lang::Zh).contains("千日手"));
    }

    #[test]
    fn perpetual_check_loses_for_the_checking_side() {
        // Black's rook checks along rank b, then rank a, then b again …
        let p = pos("9/R7k/9/9/9/9/9/9/4K4 w - 1");
        let cycle = "1b1a 9b9a 1a1b 9a9b";
        let p = play_all(&p, &format!("{cycle} {cycle}"));
        assert_eq!(p.outcome(), None);
        let p = play_all(&p, cycle);
        assert_eq!(
            p.outcome(),
            Some(Outcome::PerpetualCheck {
                loser: Color::Black
            })
        );
        assert_eq!(p.outcome().unwrap().winner(), Some(Color::White));
    }

    #[test]
    fn checkmate_and_no_legal_move_end_the_game() {
        let p = pos("8k/8G/8P/9/9/9/9/9/4K4 w - 1");
        assert!(p.is_check());
        let outcome = p.outcome().unwrap();
        assert_eq!(
            outcome,
            Outcome::Checkmate {
                winner: Color::Black
            }
        );
        assert_eq!(err(&p, "1a2a"), Illegal::GameOver);
        assert!(outcome.explain(Lang::Zh).contains("将死"));
        assert!(outcome.explain(Lang::En).contains("checkmate"));
    }

    #[test]
    fn sfen_round_trips() {
        for sfen in [
            START_SFEN,
            "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1",
            "8l/1l+R2P3/p2pBG1pp/kps1p4/Nn1P2G2/P1P1P2PP/1PS6/1KSG3+r1/LN2+p3L w Sbgn3p 124",
            "9/9/6n2/8n/6+pl1/7Sn/4+pp1k1/7N1/7s+R b R2B4g2s3l15p 1",
        ] {
            assert_eq!(pos(sfen).sfen(), sfen);
        }
        assert_eq!(
            pos("4k4/9/9/9/9/9/9/9/4K4 b P").sfen(),
            "4k4/9/9/9/9/9/9/9/4K4 b P 1"
        );
        assert_eq!(
            pos("sfen 4k4/9/9/9/9/9/9/9/4K4 b -").sfen(),
            "4k4/9/9/9/9/9/9/9/4K4 b - 1"
        );
    }

    #[test]
    fn refuses_impossible_sfens() {
        assert!(matches!(
            Position::from_sfen("nonsense"),
            Err(BadSfen::Syntax(_))
        ));
        assert_eq!(
            Position::from_sfen("4k4/9/9/9/9/9/9/9/3KK4 b - 1"),
            Err(BadSfen::TwoKings {
                color: Color::Black
            })
        );
        assert_eq!(
            Position::from_sfen("4kP3/9/9/9/9/9/9/9/4K4 b - 1"),
            Err(BadSfen::DeadPiece {
                square: sq("4a"),
                kind: Kind::Pawn
            })
        );
        assert_eq!(
            Position::from_sfen("4k4/9/9/9/9/9/9/9/4K4 b 3R 1"),
            Err(BadSfen::TooMany { kind: Kind::Rook })
        );
        // Black to move while White's king stands in check from Black's rook.
        assert_eq!(
            Position::from_sfen("4k4/9/9/9/4R4/9/9/9/3K5 b - 1"),
            Err(BadSfen::OpponentInCheck)
        );
        let e = Position::from_sfen("nonsense").unwrap_err().to_string();
        assert!(e.starts_with("bad sfen"), "{e}");
    }

    #[test]
    fn describes_pieces_hands_and_moves() {
        let p = Position::start();
        assert_eq!(p.turn(), Color::Black);
        assert_eq!(p.pieces().len(), 40);
        assert_eq!(p.pieces()[0], (sq("9a"), Color::White, Kind::Lance));
        assert_eq!(p.king_square(Color::White), Some(sq("5a")));
        let moves = p.legal_moves();
        assert_eq!(moves.len(), 30);
        assert!(moves.windows(2).all(|w| w[0].usi < w[1].usi));
        let p = play_all(&p, "7g7f 3c3d");
        let (_, played) = p.play("8h2b+").unwrap();
        assert_eq!(
            played,
            Played {
                usi: "8h2b+".into(),
                from: Some(sq("8h")),
                to: sq("2b"),
                drop: None,
                promote: true,
                kind: Kind::Bishop,
                captured: Some(Kind::Bishop),
                check: false,
            }
        );
        let p = pos("4k4/9/9/9/9/9/9/9/4K4 b P2LRBG 1");
        let hand: Vec<Kind> = p.hand(Color::Black).iter().map(|&(k, _)| k).collect();
        assert_eq!(
            hand,
            [
                Kind::Rook,
                Kind::Bishop,
                Kind::Gold,
                Kind::Lance,
                Kind::Pawn
            ]
        );
        assert_eq!(p.in_hand(Color::Black, Kind::Lance), 2);
        assert_eq!(p.king_square(Color::White), Some(sq("5a")));
        assert_eq!(
            pos("9/9/9/9/9/9/9/9/9 b - 1").king_square(Color::Black),
            None
        );
    }

    #[test]
    fn every_reason_is_explained_in_both_languages() {
        let s = sq("5e");
        let all = [
            (Illegal::NotAMove("x".into()), "7g7f", "7g7f"),
            (Illegal::NoPiece { from: s }, "5五", "5e"),
            (Illegal::NotYourPiece { from: s }, "对方", "opponent"),
            (Illegal::OwnPieceOnTarget { to: s }, "自己", "own"),
            (
                Illegal::CannotMoveThatWay {
                    kind: Kind::Silver,
                    from: s,
                    to: sq("5f"),
                },
                "银将",
                "silver",
            ),
            (
                Illegal::PathBlocked {
                    kind: Kind::Rook,
                    from: s,
                    to: sq("5a"),
                    by: sq("5c"),
                },
                "5三",
                "5c",
            ),
            (
                Illegal::LeavesKingInCheck {
                    attacker: (Kind::Rook, sq("5a")),
                },
                "王手",
                "check",
            ),
            (Illegal::NotInHand { kind: Kind::Gold }, "持驹", "hand"),
            (Illegal::DropOccupied { to: s }, "打入", "drop"),
            (Illegal::DropPromoted, "打入", "unpromoted"),
            (Illegal::TwoPawns { file: 5 }, "二步", "nifu"),
            (Illegal::PawnDropMate { to: s }, "打步诘", "uchifuzume"),
            (
                Illegal::DeadDrop {
                    kind: Kind::Knight,
                    to: sq("5b"),
                },
                "桂马",
                "knight",
            ),
            (
                Illegal::PromotionOutsideZone {
                    from: sq("7g"),
                    to: sq("7f"),
                },
                "敌阵",
                "zone",
            ),
            (
                Illegal::PromotionRequired {
                    kind: Kind::Pawn,
                    to: sq("5a"),
                },
                "升变",
                "promote",
            ),
            (
                Illegal::CannotPromote { kind: Kind::Gold },
                "升变",
                "promote",
            ),
            (Illegal::GameOver, "结束", "over"),
        ];
        for (e, zh, en) in all {
            let (z, n) = (e.explain(Lang::Zh), e.explain(Lang::En));
            assert!(z.contains(zh), "{e:?}: {z}");
            assert!(n.contains(en), "{e:?}: {n}");
            let d = e.to_string();
            assert!(d.chars().next().unwrap().is_lowercase(), "{d}");
        }
        for o in [
            Outcome::Checkmate {
                winner: Color::White,
            },
            Outcome::Repetition,
            Outcome::PerpetualCheck {
                loser: Color::White,
            },
        ] {
            assert!(!o.explain(Lang::Zh).is_empty() && !o.explain(Lang::En).is_empty());
        }
    }

    #[test]
    fn positions_can_cross_threads() {
        fn send_sync<T: Send + Sync>() {}
        send_sync::<Position>();
        send_sync::<Illegal>();
    }
}
