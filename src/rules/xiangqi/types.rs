//! The small words of xiangqi: the two sides, the seven kinds of piece, the 90 points, a move.

use crate::lang::Lang;
use std::fmt;

/// A side. Red (红方) moves first and sits at the bottom, on ranks 0–4; Black (黑方) on
/// ranks 5–9.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Color {
    /// 红方: moves first, `w` in FEN, upper-case letters, moves "up" toward rank 9.
    Red,
    /// 黑方: `b` in FEN, lower-case letters, moves "down" toward rank 0.
    Black,
}

impl Color {
    /// The other side.
    pub fn opponent(self) -> Color {
        match self {
            Color::Red => Color::Black,
            Color::Black => Color::Red,
        }
    }

    /// `red` or `black`.
    pub fn as_str(self) -> &'static str {
        match self {
            Color::Red => "red",
            Color::Black => "black",
        }
    }

    /// The side's name for a learner: 红方 / 黑方, Red / Black.
    pub fn name(self, lang: Lang) -> &'static str {
        match (self, lang) {
            (Color::Red, Lang::Zh) => "红方",
            (Color::Black, Lang::Zh) => "黑方",
            (Color::Red, Lang::En) => "Red",
            (Color::Black, Lang::En) => "Black",
        }
    }

    /// +1 for Red (forward is up the ranks), −1 for Black.
    pub fn forward(self) -> i8 {
        match self {
            Color::Red => 1,
            Color::Black => -1,
        }
    }

    pub(crate) fn index(self) -> usize {
        self as usize
    }
}

/// A kind of piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kind {
    /// 帅 / 将, the king (general): one step along a line, inside its palace.
    King,
    /// 仕 / 士, the advisor: one step diagonally, inside its palace.
    Advisor,
    /// 相 / 象, the elephant: two steps diagonally, never across the river.
    Elephant,
    /// 马, the horse: one step along a line then one diagonally outward, if the first
    /// point (its leg) is empty.
    Horse,
    /// 车, the chariot (rook): any distance along a line.
    Rook,
    /// 炮, the cannon: moves like a chariot, captures by jumping exactly one piece.
    Cannon,
    /// 兵 / 卒, the soldier (pawn): one step forward; also sideways once across the river.
    Pawn,
}

impl Kind {
    /// All seven kinds.
    pub const ALL: [Kind; 7] = [
        Kind::King,
        Kind::Advisor,
        Kind::Elephant,
        Kind::Horse,
        Kind::Rook,
        Kind::Cannon,
        Kind::Pawn,
    ];

    /// The FEN letter, lower case (`k a b n r c p`, as Fairy-Stockfish writes them).
    pub fn fen_letter(self) -> char {
        match self {
            Kind::King => 'k',
            Kind::Advisor => 'a',
            Kind::Elephant => 'b',
            Kind::Horse => 'n',
            Kind::Rook => 'r',
            Kind::Cannon => 'c',
            Kind::Pawn => 'p',
        }
    }

    /// Reads a FEN letter of either case; `e` and `h` (WXF) are read too.
    pub fn from_letter(c: char) -> Option<Kind> {
        Some(match c.to_ascii_lowercase() {
            'k' => Kind::King,
            'a' => Kind::Advisor,
            'b' | 'e' => Kind::Elephant,
            'n' | 'h' => Kind::Horse,
            'r' => Kind::Rook,
            'c' => Kind::Cannon,
            'p' => Kind::Pawn,
            _ => return None,
        })
    }

    /// The WXF letter: `K A E H R C P`.
    pub fn wxf_letter(self) -> char {
        match self {
            Kind::King => 'K',
            Kind::Advisor => 'A',
            Kind::Elephant => 'E',
            Kind::Horse => 'H',
            Kind::Rook => 'R',
            Kind::Cannon => 'C',
            Kind::Pawn => 'P',
        }
    }

    /// The character on the piece, in simplified Chinese: 帅仕相马车炮兵 for Red,
    /// 将士象马车炮卒 for Black.
    pub fn hanzi(self, color: Color) -> char {
        match (self, color) {
            (Kind::King, Color::Red) => '帅',
            (Kind::King, Color::Black) => '将',
            (Kind::Advisor, Color::Red) => '仕',
            (Kind::Advisor, Color::Black) => '士',
            (Kind::Elephant, Color::Red) => '相',
            (Kind::Elephant, Color::Black) => '象',
            (Kind::Horse, _) => '马',
            (Kind::Rook, _) => '车',
            (Kind::Cannon, _) => '炮',
            (Kind::Pawn, Color::Red) => '兵',
            (Kind::Pawn, Color::Black) => '卒',
        }
    }

    /// Reads a piece character, simplified or traditional, of either side
    /// (帅帥将將 仕士 相象 马馬傌 车車俥 炮砲 兵卒).
    pub fn from_hanzi(c: char) -> Option<Kind> {
        Some(match c {
            '帅' | '帥' | '将' | '將' => Kind::King,
            '仕' | '士' => Kind::Advisor,
            '相' | '象' => Kind::Elephant,
            '马' | '馬' | '傌' => Kind::Horse,
            '车' | '車' | '俥' => Kind::Rook,
            '炮' | '砲' | '包' => Kind::Cannon,
            '兵' | '卒' => Kind::Pawn,
            _ => return None,
        })
    }

    /// The piece's name for a learner of `color`'s side: 帅, 马 …; king, horse ….
    pub fn name(self, color: Color, lang: Lang) -> String {
        match lang {
            Lang::Zh => self.hanzi(color).to_string(),
            Lang::En => match self {
                Kind::King => "king",
                Kind::Advisor => "advisor",
                Kind::Elephant => "elephant",
                Kind::Horse => "horse",
                Kind::Rook => "chariot",
                Kind::Cannon => "cannon",
                Kind::Pawn => "soldier",
            }
            .to_string(),
        }
    }

    /// Whether the piece moves along lines only (king, chariot, cannon, soldier): its
    /// forward and backward moves count steps in notation, not the file reached.
    pub fn moves_straight(self) -> bool {
        matches!(self, Kind::King | Kind::Rook | Kind::Cannon | Kind::Pawn)
    }
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name(Color::Red, Lang::En))
    }
}

/// One of the 90 points, named in ICCS: a file `a`–`i` from Red's left and a rank `0`–`9`
/// from Red's side (`e0` is Red's king's point, `e9` Black's).
///
/// ```text
///   a b c d e f g h i
/// 9 r n b a k a b n r   Black
/// 8 . . . . . . . . .
/// 7 . c . . . . . c .
/// 6 p . p . p . p . p
/// 5 . . . . . . . . .   ~~ river ~~
/// 4 . . . . . . . . .
/// 3 P . P . P . P . P
/// 2 . C . . . . . C .
/// 1 . . . . . . . . .
/// 0 R N B A K A B N R   Red
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Point(u8);

impl Point {
    /// The point on `file` (0 = `a`) and `rank` (0 = Red's back rank), if on the board.
    pub fn new(file: i8, rank: i8) -> Option<Point> {
        ((0..9).contains(&file) && (0..10).contains(&rank)).then(|| Point((rank * 9 + file) as u8))
    }

    /// Reads `e0`, `E0`.
    pub fn parse(text: &str) -> Option<Point> {
        let b = text.as_bytes();
        if b.len() != 2 {
            return None;
        }
        let file = b[0].to_ascii_lowercase().wrapping_sub(b'a');
        let rank = b[1].wrapping_sub(b'0');
        Point::new(file as i8, rank as i8).filter(|_| file < 9 && rank < 10)
    }

    /// The file, 0 (`a`) to 8 (`i`).
    pub fn file(self) -> i8 {
        (self.0 % 9) as i8
    }

    /// The rank, 0 (Red's back rank) to 9 (Black's).
    pub fn rank(self) -> i8 {
        (self.0 / 9) as i8
    }

    /// The index 0..90 (rank × 9 + file).
    pub fn index(self) -> usize {
        self.0 as usize
    }

    /// The point `df` files and `dr` ranks away, if on the board.
    pub fn offset(self, df: i8, dr: i8) -> Option<Point> {
        Point::new(self.file() + df, self.rank() + dr)
    }

    /// Every point, `a0` first.
    pub fn all() -> impl Iterator<Item = Point> {
        (0..90u8).map(Point)
    }

    /// Whether the point is in `color`'s palace (九宫: files d–f, ranks 0–2 or 7–9).
    pub fn in_palace(self, color: Color) -> bool {
        (3..=5).contains(&self.file())
            && match color {
                Color::Red => self.rank() <= 2,
                Color::Black => self.rank() >= 7,
            }
    }

    /// Whether the point is on `color`'s own side of the river (Red: ranks 0–4).
    pub fn on_own_side(self, color: Color) -> bool {
        match color {
            Color::Red => self.rank() <= 4,
            Color::Black => self.rank() >= 5,
        }
    }

    /// The file as `color` numbers it in notation: 1–9 from that side's right
    /// (Red's file 1 is `i`, Black's file 1 is `a`).
    pub fn file_number(self, color: Color) -> u8 {
        match color {
            Color::Red => 9 - self.file() as u8,
            Color::Black => self.file() as u8 + 1,
        }
    }

    /// The file index (0 = `a`) of `color`'s file number `n` (1–9).
    pub fn file_of_number(n: u8, color: Color) -> i8 {
        match color {
            Color::Red => 9 - n as i8,
            Color::Black => n as i8 - 1,
        }
    }
}

impl fmt::Display for Point {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.file() as u8) as char, self.rank())
    }
}

/// A legal move: where from, where to, which piece, and what it took.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    /// The point the piece leaves.
    pub from: Point,
    /// The point it goes to.
    pub to: Point,
    /// The kind of the piece moved.
    pub piece: Kind,
    /// The kind of the piece captured, if any.
    pub captured: Option<Kind>,
}

impl Move {
    /// The move in ICCS, lower case: `h2e2`.
    pub fn iccs(&self) -> String {
        format!("{}{}", self.from, self.to)
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.from, self.to)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn points_read_and_number_files_from_each_sides_right() {
        let p = Point::parse("h2").unwrap();
        assert_eq!((p.file(), p.rank()), (7, 2));
        assert_eq!(p.to_string(), "h2");
        assert_eq!(p.file_number(Color::Red), 2);
        assert_eq!(p.file_number(Color::Black), 8);
        assert_eq!(Point::file_of_number(2, Color::Red), 7);
        assert_eq!(Point::file_of_number(8, Color::Black), 7);
        assert!(Point::parse("j0").is_none() && Point::parse("a10").is_none());
        assert!(Point::parse("e1").unwrap().in_palace(Color::Red));
        assert!(!Point::parse("e3").unwrap().in_palace(Color::Red));
        assert!(Point::parse("d8").unwrap().in_palace(Color::Black));
    }

    #[test]
    fn pieces_read_in_both_scripts() {
        for c in ['車', '俥', '车'] {
            assert_eq!(Kind::from_hanzi(c), Some(Kind::Rook));
        }
        assert_eq!(Kind::from_hanzi('傌'), Some(Kind::Horse));
        assert_eq!(Kind::from_hanzi('砲'), Some(Kind::Cannon));
        assert_eq!(Kind::from_letter('H'), Some(Kind::Horse));
        assert_eq!(Kind::Pawn.hanzi(Color::Black), '卒');
    }
}
