//! The board without its history: the 90 points, the side to move, FEN, move generation,
//! attacks (check and 将帅照面), Zobrist hashing and perft.

use super::types::{Color, Kind, Move, Point};
use std::fmt;

/// A piece on the board.
pub(crate) type Piece = (Color, Kind);

/// The four lines (file up, file down, rank right, rank left).
pub(crate) const LINES: [(i8, i8); 4] = [(0, 1), (0, -1), (1, 0), (-1, 0)];
/// The four diagonal steps.
pub(crate) const DIAGONALS: [(i8, i8); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];
/// The horse's eight jumps.
pub(crate) const HORSE_JUMPS: [(i8, i8); 8] = [
    (1, 2),
    (-1, 2),
    (1, -2),
    (-1, -2),
    (2, 1),
    (2, -1),
    (-2, 1),
    (-2, -1),
];

/// The horse's leg for a jump of (`df`, `dr`): the point one step along the long side.
pub(crate) fn horse_leg(df: i8, dr: i8) -> (i8, i8) {
    if df.abs() == 2 {
        (df / 2, 0)
    } else {
        (0, dr / 2)
    }
}

const fn splitmix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = x;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Zobrist keys: one per (color, kind, point), then one for Black to move.
const ZOBRIST: [u64; 2 * 7 * 90 + 1] = {
    let mut keys = [0u64; 2 * 7 * 90 + 1];
    let mut i = 0;
    while i < keys.len() {
        keys[i] = splitmix(0x5851_F42D_4C95_7F2D ^ (i as u64).wrapping_mul(0x2545_F491_4F6C_DD1D));
        i += 1;
    }
    keys
};

fn key(piece: Piece, at: Point) -> u64 {
    ZOBRIST[(piece.0.index() * 7 + piece.1 as usize) * 90 + at.index()]
}

const BLACK_TO_MOVE: u64 = ZOBRIST[2 * 7 * 90];

/// Why a FEN is refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BadFen {
    /// The text is not xiangqi FEN (what is wrong with it).
    Syntax(String),
    /// A side has no king, or more than one.
    Kings { color: Color },
    /// A piece stands on a point it could never reach (a king or advisor outside its
    /// palace, an elephant off its seven points, a soldier behind its starting rank).
    OutOfPlace { at: Point },
    /// More pieces of a kind than a set holds (2 advisors, elephants, horses, chariots,
    /// cannons; 5 soldiers).
    TooMany { color: Color, kind: Kind },
    /// The side not to move is in check, or the kings face each other: the last move was
    /// illegal.
    OpponentInCheck,
}

impl fmt::Display for BadFen {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BadFen::Syntax(e) => write!(f, "bad fen: {e}"),
            BadFen::Kings { color } => {
                write!(f, "bad fen: {} must have exactly one king", color.as_str())
            }
            BadFen::OutOfPlace { at } => write!(f, "bad fen: the piece on {at} is out of place"),
            BadFen::TooMany { color, kind } => {
                write!(f, "bad fen: {} has too many of {kind}", color.as_str())
            }
            BadFen::OpponentInCheck => f.write_str("bad fen: the side not to move is in check"),
        }
    }
}

impl std::error::Error for BadFen {}

/// The board and the counters of FEN; no history.
#[derive(Clone, PartialEq, Eq)]
pub(crate) struct Board {
    pub squares: [Option<Piece>; 90],
    pub turn: Color,
    /// Plies since the last capture (Fairy-Stockfish counts it so).
    pub halfmove: u32,
    pub fullmove: u32,
    pub hash: u64,
}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Board({})", self.fen())
    }
}

impl Board {
    pub fn at(&self, p: Point) -> Option<Piece> {
        self.squares[p.index()]
    }

    fn put(&mut self, p: Point, piece: Option<Piece>) {
        if let Some(old) = self.squares[p.index()] {
            self.hash ^= key(old, p);
        }
        if let Some(new) = piece {
            self.hash ^= key(new, p);
        }
        self.squares[p.index()] = piece;
    }

    pub fn from_fen(fen: &str) -> Result<Board, BadFen> {
        let syntax = |m: &str| BadFen::Syntax(m.to_string());
        let fields: Vec<&str> = fen.split_whitespace().collect();
        if fields.is_empty() {
            return Err(syntax("empty"));
        }
        let rows: Vec<&str> = fields[0].split('/').collect();
        if rows.len() != 10 {
            return Err(syntax("the board needs 10 ranks separated by /"));
        }
        let mut board = Board {
            squares: [None; 90],
            turn: Color::Red,
            halfmove: 0,
            fullmove: 1,
            hash: 0,
        };
        for (i, row) in rows.iter().enumerate() {
            let rank = 9 - i as i8;
            let mut file = 0i8;
            for c in row.chars() {
                if let Some(d) = c.to_digit(10) {
                    if d == 0 {
                        return Err(syntax("0 in a rank"));
                    }
                    file += d as i8;
                } else {
                    let kind = Kind::from_letter(c)
                        .filter(|_| !matches!(c.to_ascii_lowercase(), 'e' | 'h'))
                        .ok_or_else(|| BadFen::Syntax(format!("unknown piece letter {c}")))?;
                    let color = if c.is_ascii_uppercase() {
                        Color::Red
                    } else {
                        Color::Black
                    };
                    let p = Point::new(file, rank)
                        .ok_or_else(|| BadFen::Syntax(format!("rank {rank} is too long")))?;
                    board.put(p, Some((color, kind)));
                    file += 1;
                }
                if file > 9 {
                    return Err(BadFen::Syntax(format!("rank {rank} is too long")));
                }
            }
            if file != 9 {
                return Err(BadFen::Syntax(format!(
                    "rank {rank} has {file} files, not 9"
                )));
            }
        }
        board.turn = match fields.get(1).copied().unwrap_or("w") {
            "w" | "r" => Color::Red,
            "b" => Color::Black,
            t => return Err(BadFen::Syntax(format!("side to move `{t}`"))),
        };
        if board.turn == Color::Black {
            board.hash ^= BLACK_TO_MOVE;
        }
        for (i, f) in fields.iter().enumerate().skip(2).take(2) {
            if *f != "-" {
                return Err(BadFen::Syntax(format!(
                    "field {} must be `-`, not `{f}`",
                    i + 1
                )));
            }
        }
        if let Some(h) = fields.get(4) {
            board.halfmove = h.parse().map_err(|_| syntax("halfmove clock"))?;
        }
        if let Some(m) = fields.get(5) {
            board.fullmove = m.parse().map_err(|_| syntax("move number"))?;
        }
        if fields.len() > 6 {
            return Err(syntax("too many fields"));
        }
        board.validate()?;
        Ok(board)
    }

    fn validate(&self) -> Result<(), BadFen> {
        for color in [Color::Red, Color::Black] {
            let mut count = [0u8; 7];
            for p in Point::all() {
                let Some((c, kind)) = self.at(p) else {
                    continue;
                };
                if c != color {
                    continue;
                }
                count[kind as usize] += 1;
                let home = |r: i8| if color == Color::Red { r } else { 9 - r };
                let placed = match kind {
                    Kind::King => p.in_palace(color),
                    Kind::Advisor => p.in_palace(color) && (p.file() + home(p.rank())) % 2 == 1,
                    Kind::Elephant => {
                        p.on_own_side(color)
                            && p.file() % 2 == 0
                            && home(p.rank()) % 2 == 0
                            && (p.file() + home(p.rank())) % 4 == 2
                    }
                    Kind::Pawn => {
                        let r = home(p.rank());
                        r >= 5 || (r >= 3 && p.file() % 2 == 0)
                    }
                    _ => true,
                };
                if !placed {
                    return Err(BadFen::OutOfPlace { at: p });
                }
            }
            if count[Kind::King as usize] != 1 {
                return Err(BadFen::Kings { color });
            }
            for kind in Kind::ALL {
                let max = match kind {
                    Kind::King => 1,
                    Kind::Pawn => 5,
                    _ => 2,
                };
                if count[kind as usize] > max {
                    return Err(BadFen::TooMany { color, kind });
                }
            }
        }
        if self.king_exposed(self.turn.opponent()) {
            return Err(BadFen::OpponentInCheck);
        }
        Ok(())
    }

    /// The FEN as Fairy-Stockfish writes it.
    pub fn fen(&self) -> String {
        let mut s = String::new();
        for rank in (0..10).rev() {
            let mut empty = 0;
            for file in 0..9 {
                match self.at(Point::new(file, rank).unwrap()) {
                    None => empty += 1,
                    Some((color, kind)) => {
                        if empty > 0 {
                            s.push_str(&empty.to_string());
                            empty = 0;
                        }
                        let c = kind.fen_letter();
                        s.push(if color == Color::Red {
                            c.to_ascii_uppercase()
                        } else {
                            c
                        });
                    }
                }
            }
            if empty > 0 {
                s.push_str(&empty.to_string());
            }
            if rank > 0 {
                s.push('/');
            }
        }
        let turn = if self.turn == Color::Red { 'w' } else { 'b' };
        format!("{s} {turn} - - {} {}", self.halfmove, self.fullmove)
    }

    /// Where `color`'s king stands.
    pub fn king(&self, color: Color) -> Point {
        let base = if color == Color::Red { 0 } else { 7 };
        for rank in base..base + 3 {
            for file in 3..6 {
                let p = Point::new(file, rank).unwrap();
                if self.at(p) == Some((color, Kind::King)) {
                    return p;
                }
            }
        }
        unreachable!("every position has both kings in their palaces")
    }

    /// The first piece from `from` in direction (`df`, `dr`), not counting `from`.
    fn first_on_line(&self, from: Point, df: i8, dr: i8) -> Option<Point> {
        let mut p = from.offset(df, dr);
        while let Some(q) = p {
            if self.at(q).is_some() {
                return Some(q);
            }
            p = q.offset(df, dr);
        }
        None
    }

    /// Whether the two kings stand on one file with nothing between them (将帅照面).
    pub fn kings_face(&self) -> bool {
        let red = self.king(Color::Red);
        red.file() == self.king(Color::Black).file()
            && self
                .first_on_line(red, 0, 1)
                .is_some_and(|q| self.at(q) == Some((Color::Black, Kind::King)))
    }

    /// The pieces of `by` that attack `target`: (kind, point).
    pub fn attackers(&self, target: Point, by: Color) -> Vec<(Kind, Point)> {
        let mut found = Vec::new();
        for (df, dr) in LINES {
            let Some(first) = self.first_on_line(target, df, dr) else {
                continue;
            };
            if self.at(first) == Some((by, Kind::Rook)) {
                found.push((Kind::Rook, first));
            }
            if let Some(second) = self.first_on_line(first, df, dr) {
                if self.at(second) == Some((by, Kind::Cannon)) {
                    found.push((Kind::Cannon, second));
                }
            }
        }
        for (df, dr) in HORSE_JUMPS {
            let Some(h) = target.offset(df, dr) else {
                continue;
            };
            if self.at(h) != Some((by, Kind::Horse)) {
                continue;
            }
            // The leg is next to the horse, toward the target along the long side.
            let (lf, lr) = horse_leg(-df, -dr);
            if self.at(h.offset(lf, lr).unwrap()).is_none() {
                found.push((Kind::Horse, h));
            }
        }
        let fwd = by.forward();
        for (df, dr) in [(0, -fwd), (1, 0), (-1, 0)] {
            let Some(s) = target.offset(df, dr) else {
                continue;
            };
            if self.at(s) == Some((by, Kind::Pawn)) && (dr != 0 || !s.on_own_side(by)) {
                found.push((Kind::Pawn, s));
            }
        }
        for (df, dr) in LINES {
            if let Some(k) = target.offset(df, dr) {
                if self.at(k) == Some((by, Kind::King)) && k.in_palace(by) {
                    found.push((Kind::King, k));
                }
            }
        }
        found
    }

    /// Whether `color`'s king is attacked or faces the other king.
    pub fn king_exposed(&self, color: Color) -> bool {
        self.kings_face()
            || !self
                .attackers(self.king(color), color.opponent())
                .is_empty()
    }

    /// Whether the side to move is in check.
    pub fn in_check(&self) -> bool {
        !self
            .attackers(self.king(self.turn), self.turn.opponent())
            .is_empty()
    }

    /// Plays a move known to be at least pseudo-legal; counters and hash follow.
    pub fn make(&mut self, from: Point, to: Point) {
        let piece = self.at(from);
        let captured = self.at(to);
        self.put(to, piece);
        self.put(from, None);
        self.halfmove = if captured.is_some() {
            0
        } else {
            self.halfmove + 1
        };
        if self.turn == Color::Black {
            self.fullmove += 1;
        }
        self.turn = self.turn.opponent();
        self.hash ^= BLACK_TO_MOVE;
    }

    fn push(&self, out: &mut Vec<Move>, from: Point, to: Point, kind: Kind) {
        let captured = self.at(to);
        if captured.is_some_and(|(c, _)| c == self.turn) {
            return;
        }
        out.push(Move {
            from,
            to,
            piece: kind,
            captured: captured.map(|(_, k)| k),
        });
    }

    /// Every move that obeys the pieces' ways of moving, ignoring check and 照面.
    pub fn pseudo_moves(&self) -> Vec<Move> {
        let us = self.turn;
        let mut out = Vec::with_capacity(64);
        for from in Point::all() {
            let Some((c, kind)) = self.at(from) else {
                continue;
            };
            if c != us {
                continue;
            }
            match kind {
                Kind::King | Kind::Advisor => {
                    let steps = if kind == Kind::King { LINES } else { DIAGONALS };
                    for (df, dr) in steps {
                        if let Some(to) = from.offset(df, dr).filter(|t| t.in_palace(us)) {
                            self.push(&mut out, from, to, kind);
                        }
                    }
                }
                Kind::Elephant => {
                    for (df, dr) in DIAGONALS {
                        let Some(to) = from.offset(2 * df, 2 * dr) else {
                            continue;
                        };
                        let eye = from.offset(df, dr).unwrap();
                        if to.on_own_side(us) && self.at(eye).is_none() {
                            self.push(&mut out, from, to, kind);
                        }
                    }
                }
                Kind::Horse => {
                    for (df, dr) in HORSE_JUMPS {
                        let Some(to) = from.offset(df, dr) else {
                            continue;
                        };
                        let (lf, lr) = horse_leg(df, dr);
                        if self.at(from.offset(lf, lr).unwrap()).is_none() {
                            self.push(&mut out, from, to, kind);
                        }
                    }
                }
                Kind::Rook | Kind::Cannon => {
                    for (df, dr) in LINES {
                        let mut p = from.offset(df, dr);
                        while let Some(q) = p {
                            if self.at(q).is_some() {
                                if kind == Kind::Rook {
                                    self.push(&mut out, from, q, kind);
                                } else if let Some(t) = self.first_on_line(q, df, dr) {
                                    self.push(&mut out, from, t, kind);
                                }
                                break;
                            }
                            out.push(Move {
                                from,
                                to: q,
                                piece: kind,
                                captured: None,
                            });
                            p = q.offset(df, dr);
                        }
                    }
                }
                Kind::Pawn => {
                    if let Some(to) = from.offset(0, us.forward()) {
                        self.push(&mut out, from, to, kind);
                    }
                    if !from.on_own_side(us) {
                        for df in [-1, 1] {
                            if let Some(to) = from.offset(df, 0) {
                                self.push(&mut out, from, to, kind);
                            }
                        }
                    }
                }
            }
        }
        out
    }

    /// Every legal move of the side to move.
    pub fn legal_moves(&self) -> Vec<Move> {
        let us = self.turn;
        let mut moves = self.pseudo_moves();
        moves.retain(|m| {
            let mut next = self.clone();
            next.make(m.from, m.to);
            !next.king_exposed(us)
        });
        moves
    }

    pub fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let moves = self.legal_moves();
        if depth == 1 {
            return moves.len() as u64;
        }
        moves
            .iter()
            .map(|m| {
                let mut next = self.clone();
                next.make(m.from, m.to);
                next.perft(depth - 1)
            })
            .sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const START: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

    #[test]
    fn fen_round_trips_as_fairy_stockfish_writes_it() {
        let b = Board::from_fen(START).unwrap();
        assert_eq!(b.fen(), START);
        let mut b2 = b.clone();
        b2.make(Point::parse("b0").unwrap(), Point::parse("c2").unwrap());
        assert_eq!(
            b2.fen(),
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1CN4C1/9/R1BAKABNR b - - 1 1"
        );
        assert_eq!(Board::from_fen(&b2.fen()).unwrap().hash, b2.hash);
    }

    #[test]
    fn fen_refuses_what_cannot_be() {
        assert!(matches!(
            Board::from_fen("9/9/9/9/9/9/9/9/9/9 w - - 0 1"),
            Err(BadFen::Kings { .. })
        ));
        // A red advisor on e0 is off the palace's diagonals.
        assert!(matches!(
            Board::from_fen("4k4/9/9/9/9/9/9/9/9/3KA4 w - - 0 1"),
            Err(BadFen::OutOfPlace { .. })
        ));
        // Kings face each other with Black to move... and Red to move: both refused.
        assert_eq!(
            Board::from_fen("4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1"),
            Err(BadFen::OpponentInCheck)
        );
    }

    #[test]
    fn perft_from_the_start() {
        let b = Board::from_fen(START).unwrap();
        assert_eq!(b.perft(1), 44);
        assert_eq!(b.perft(2), 1920);
    }

    #[test]
    fn a_cannon_attacks_over_exactly_one_screen() {
        // Red cannon e2, screen e5 (a black soldier), black king e9 (e6..e8 empty):
        //   e9 k / e5 p / e2 C  → check.
        let b = Board::from_fen("4k4/9/9/9/4p4/9/9/4C4/9/3K5 b - - 0 1").unwrap();
        assert_eq!(
            b.attackers(b.king(Color::Black), Color::Red),
            vec![(Kind::Cannon, Point::parse("e2").unwrap())]
        );
    }
}
