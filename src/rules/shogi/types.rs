//! The small words of shogi: the two sides, the fourteen kinds of piece, and the squares.

use crate::lang::Lang;
use rsshogi::types as rs;
use std::fmt;

/// A side. Black (先手, sente) moves first and sits at the bottom; White (後手, gote) at the top.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Color {
    /// 先手 (sente): moves first, `b` in SFEN, upper-case letters, moves "up" toward rank a.
    Black,
    /// 後手 (gote): `w` in SFEN, lower-case letters, moves "down" toward rank i.
    White,
}

impl Color {
    /// The other side.
    pub fn opponent(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }

    /// `black` or `white`.
    pub fn as_str(self) -> &'static str {
        match self {
            Color::Black => "black",
            Color::White => "white",
        }
    }

    /// Reads `black`/`white`, `sente`/`gote` or `b`/`w`.
    pub fn parse(text: &str) -> Option<Color> {
        match text.trim().to_ascii_lowercase().as_str() {
            "black" | "sente" | "b" => Some(Color::Black),
            "white" | "gote" | "w" => Some(Color::White),
            _ => None,
        }
    }

    /// The side's name for a learner: 先手 / 后手, or Black (sente) / White (gote).
    pub fn name(self, lang: Lang) -> &'static str {
        match (self, lang) {
            (Color::Black, Lang::Zh) => "先手",
            (Color::White, Lang::Zh) => "后手",
            (Color::Black, Lang::En) => "Black (sente)",
            (Color::White, Lang::En) => "White (gote)",
        }
    }

    pub(crate) fn to_rs(self) -> rs::Color {
        match self {
            Color::Black => rs::Color::BLACK,
            Color::White => rs::Color::WHITE,
        }
    }

    pub(crate) fn from_rs(c: rs::Color) -> Color {
        if c == rs::Color::BLACK {
            Color::Black
        } else {
            Color::White
        }
    }

    /// +1 for White, −1 for Black: the rank step of "forward".
    pub(crate) fn forward(self) -> i8 {
        match self {
            Color::Black => -1,
            Color::White => 1,
        }
    }
}

/// A kind of piece, promoted kinds included.
///
/// ```
/// use qiyuan::rules::shogi::{Color, Kind};
/// assert_eq!(Kind::Dragon.sfen_letter(), 'R');
/// assert_eq!(Kind::Dragon.unpromoted(), Kind::Rook);
/// assert_eq!(Kind::King.kanji(Color::Black), "玉");
/// assert_eq!(Kind::King.kanji(Color::White), "王");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kind {
    /// 歩兵 (fuhyō): one square forward.
    Pawn,
    /// 香車 (kyōsha): any number of squares forward.
    Lance,
    /// 桂馬 (keima): two forward and one sideways, jumping.
    Knight,
    /// 銀将 (ginshō): one square forward or diagonally.
    Silver,
    /// 金将 (kinshō): one square in any direction but diagonally back.
    Gold,
    /// 角行 (kakugyō): any number of squares diagonally.
    Bishop,
    /// 飛車 (hisha): any number of squares along a rank or file.
    Rook,
    /// 王将 / 玉将: one square in any direction.
    King,
    /// と金 (tokin), a promoted pawn: moves as a gold.
    ProPawn,
    /// 成香, a promoted lance: moves as a gold.
    ProLance,
    /// 成桂, a promoted knight: moves as a gold.
    ProKnight,
    /// 成銀, a promoted silver: moves as a gold.
    ProSilver,
    /// 龍馬 (horse), a promoted bishop: bishop plus one square orthogonally.
    Horse,
    /// 龍王 (dragon), a promoted rook: rook plus one square diagonally.
    Dragon,
}

impl Kind {
    /// Every kind, base kinds first, in the order of the enum.
    pub const ALL: [Kind; 14] = [
        Kind::Pawn,
        Kind::Lance,
        Kind::Knight,
        Kind::Silver,
        Kind::Gold,
        Kind::Bishop,
        Kind::Rook,
        Kind::King,
        Kind::ProPawn,
        Kind::ProLance,
        Kind::ProKnight,
        Kind::ProSilver,
        Kind::Horse,
        Kind::Dragon,
    ];

    /// The kinds a hand can hold, in the order SFEN and this crate list them: R B G S N L P.
    pub const HAND: [Kind; 7] = [
        Kind::Rook,
        Kind::Bishop,
        Kind::Gold,
        Kind::Silver,
        Kind::Knight,
        Kind::Lance,
        Kind::Pawn,
    ];

    /// The SFEN / USI letter: `P L N S G B R K`; a promoted kind has its base kind's letter
    /// (SFEN writes `+` in front of it).
    pub fn sfen_letter(self) -> char {
        match self.unpromoted() {
            Kind::Pawn => 'P',
            Kind::Lance => 'L',
            Kind::Knight => 'N',
            Kind::Silver => 'S',
            Kind::Gold => 'G',
            Kind::Bishop => 'B',
            Kind::Rook => 'R',
            _ => 'K',
        }
    }

    /// Reads an SFEN letter, either case, with an optional `+` in front: `P`, `+r`.
    pub fn from_sfen(text: &str) -> Option<Kind> {
        let (promoted, letter) = match text.strip_prefix('+') {
            Some(rest) => (true, rest),
            None => (false, text),
        };
        let mut chars = letter.chars();
        let c = chars.next()?;
        if chars.next().is_some() {
            return None;
        }
        let base = match c.to_ascii_uppercase() {
            'P' => Kind::Pawn,
            'L' => Kind::Lance,
            'N' => Kind::Knight,
            'S' => Kind::Silver,
            'G' => Kind::Gold,
            'B' => Kind::Bishop,
            'R' => Kind::Rook,
            'K' => Kind::King,
            _ => return None,
        };
        if promoted {
            base.promoted()
        } else {
            Some(base)
        }
    }

    /// Whether this is a promoted kind (と 杏 圭 全 馬 龍).
    pub fn is_promoted(self) -> bool {
        matches!(
            self,
            Kind::ProPawn
                | Kind::ProLance
                | Kind::ProKnight
                | Kind::ProSilver
                | Kind::Horse
                | Kind::Dragon
        )
    }

    /// Whether a piece of this kind may promote: pawn, lance, knight, silver, bishop, rook.
    pub fn can_promote(self) -> bool {
        self.promoted().is_some()
    }

    /// The promoted kind, if this kind promotes.
    pub fn promoted(self) -> Option<Kind> {
        match self {
            Kind::Pawn => Some(Kind::ProPawn),
            Kind::Lance => Some(Kind::ProLance),
            Kind::Knight => Some(Kind::ProKnight),
            Kind::Silver => Some(Kind::ProSilver),
            Kind::Bishop => Some(Kind::Horse),
            Kind::Rook => Some(Kind::Dragon),
            _ => None,
        }
    }

    /// The base kind: what a captured piece becomes in the hand.
    pub fn unpromoted(self) -> Kind {
        match self {
            Kind::ProPawn => Kind::Pawn,
            Kind::ProLance => Kind::Lance,
            Kind::ProKnight => Kind::Knight,
            Kind::ProSilver => Kind::Silver,
            Kind::Horse => Kind::Bishop,
            Kind::Dragon => Kind::Rook,
            k => k,
        }
    }

    /// The one-character name written on the piece: 歩 香 桂 銀 金 角 飛, と 杏 圭 全 馬 龍;
    /// the king is 玉 for Black (sente) and 王 for White (gote), as is customary.
    pub fn kanji(self, color: Color) -> &'static str {
        match self {
            Kind::Pawn => "歩",
            Kind::Lance => "香",
            Kind::Knight => "桂",
            Kind::Silver => "銀",
            Kind::Gold => "金",
            Kind::Bishop => "角",
            Kind::Rook => "飛",
            Kind::King => match color {
                Color::Black => "玉",
                Color::White => "王",
            },
            Kind::ProPawn => "と",
            Kind::ProLance => "杏",
            Kind::ProKnight => "圭",
            Kind::ProSilver => "全",
            Kind::Horse => "馬",
            Kind::Dragon => "龍",
        }
    }

    /// The full name for a learner: 步兵, 香车 … in Chinese; pawn, lance … in English.
    pub fn name(self, lang: Lang) -> &'static str {
        match lang {
            Lang::Zh => match self {
                Kind::Pawn => "步兵",
                Kind::Lance => "香车",
                Kind::Knight => "桂马",
                Kind::Silver => "银将",
                Kind::Gold => "金将",
                Kind::Bishop => "角行",
                Kind::Rook => "飞车",
                Kind::King => "王将",
                Kind::ProPawn => "と金",
                Kind::ProLance => "成香",
                Kind::ProKnight => "成桂",
                Kind::ProSilver => "成银",
                Kind::Horse => "龙马",
                Kind::Dragon => "龙王",
            },
            Lang::En => match self {
                Kind::Pawn => "pawn",
                Kind::Lance => "lance",
                Kind::Knight => "knight",
                Kind::Silver => "silver",
                Kind::Gold => "gold",
                Kind::Bishop => "bishop",
                Kind::Rook => "rook",
                Kind::King => "king",
                Kind::ProPawn => "tokin",
                Kind::ProLance => "promoted lance",
                Kind::ProKnight => "promoted knight",
                Kind::ProSilver => "promoted silver",
                Kind::Horse => "horse",
                Kind::Dragon => "dragon",
            },
        }
    }

    pub(crate) fn to_rs(self) -> rs::PieceType {
        match self {
            Kind::Pawn => rs::PieceType::PAWN,
            Kind::Lance => rs::PieceType::LANCE,
            Kind::Knight => rs::PieceType::KNIGHT,
            Kind::Silver => rs::PieceType::SILVER,
            Kind::Gold => rs::PieceType::GOLD,
            Kind::Bishop => rs::PieceType::BISHOP,
            Kind::Rook => rs::PieceType::ROOK,
            Kind::King => rs::PieceType::KING,
            Kind::ProPawn => rs::PieceType::PRO_PAWN,
            Kind::ProLance => rs::PieceType::PRO_LANCE,
            Kind::ProKnight => rs::PieceType::PRO_KNIGHT,
            Kind::ProSilver => rs::PieceType::PRO_SILVER,
            Kind::Horse => rs::PieceType::HORSE,
            Kind::Dragon => rs::PieceType::DRAGON,
        }
    }

    pub(crate) fn from_rs(pt: rs::PieceType) -> Option<Kind> {
        Some(match pt {
            rs::PieceType::PAWN => Kind::Pawn,
            rs::PieceType::LANCE => Kind::Lance,
            rs::PieceType::KNIGHT => Kind::Knight,
            rs::PieceType::SILVER => Kind::Silver,
            rs::PieceType::GOLD => Kind::Gold,
            rs::PieceType::BISHOP => Kind::Bishop,
            rs::PieceType::ROOK => Kind::Rook,
            rs::PieceType::KING => Kind::King,
            rs::PieceType::PRO_PAWN => Kind::ProPawn,
            rs::PieceType::PRO_LANCE => Kind::ProLance,
            rs::PieceType::PRO_KNIGHT => Kind::ProKnight,
            rs::PieceType::PRO_SILVER => Kind::ProSilver,
            rs::PieceType::HORSE => Kind::Horse,
            rs::PieceType::DRAGON => Kind::Dragon,
            _ => return None,
        })
    }
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name(Lang::En))
    }
}

/// A square of the 9×9 board, named as in USI: file `1`–`9`, then rank `a`–`i`.
///
/// Files count from the right as Black sees the board; rank a is at the top (White's side).
///
/// ```text
///   9 8 7 6 5 4 3 2 1
///   . . . . . . . . .  a      "5e" is the centre: file 5, rank e (5)
///   . . . . . . . . .  b      "1a" is the top-right corner
///   …
///   . . . . . . . . .  i      "9i" is the bottom-left corner
/// ```
///
/// ```
/// use qiyuan::rules::shogi::Square;
/// let sq = Square::parse("5e").unwrap();
/// assert_eq!((sq.file, sq.rank), (5, 5));
/// assert_eq!(sq.usi(), "5e");
/// assert_eq!(Square::parse("0a"), None);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square {
    /// 1..=9, file 1 on the right from Black's side.
    pub file: u8,
    /// 1..=9, rank 1 (`a`) at the top.
    pub rank: u8,
}

impl Square {
    /// The square at `file` and `rank` (both 1..=9), or `None` off the board.
    pub fn new(file: u8, rank: u8) -> Option<Square> {
        ((1..=9).contains(&file) && (1..=9).contains(&rank)).then_some(Square { file, rank })
    }

    /// Reads a USI square such as `5e` or `1a`.
    pub fn parse(usi: &str) -> Option<Square> {
        let b = usi.trim().as_bytes();
        if b.len() != 2 || !(b'1'..=b'9').contains(&b[0]) || !(b'a'..=b'i').contains(&b[1]) {
            return None;
        }
        Some(Square {
            file: b[0] - b'0',
            rank: b[1] - b'a' + 1,
        })
    }

    /// The USI name: `5e`.
    pub fn usi(self) -> String {
        format!("{}{}", self.file, (b'a' + self.rank - 1) as char)
    }

    /// All 81 squares, rank by rank from the top, each rank from file 9 to file 1 (the
    /// order in which SFEN and a reader see them).
    pub fn all() -> impl Iterator<Item = Square> {
        (1..=9u8).flat_map(|rank| (1..=9u8).rev().map(move |file| Square { file, rank }))
    }

    /// Whether the square lies in `color`'s promotion zone (敌阵): the three ranks farthest
    /// from that side.
    pub fn in_zone(self, color: Color) -> bool {
        match color {
            Color::Black => self.rank <= 3,
            Color::White => self.rank >= 7,
        }
    }

    /// The square `df` files and `dr` ranks away, if on the board.
    pub(crate) fn offset(self, df: i8, dr: i8) -> Option<Square> {
        let f = self.file as i8 + df;
        let r = self.rank as i8 + dr;
        ((1..=9).contains(&f) && (1..=9).contains(&r)).then_some(Square {
            file: f as u8,
            rank: r as u8,
        })
    }

    pub(crate) fn to_rs(self) -> rs::Square {
        rs::Square::from_file_rank(
            rs::File::new(self.file as i8 - 1),
            rs::Rank::new(self.rank as i8 - 1),
        )
    }

    pub(crate) fn from_rs(sq: rs::Square) -> Square {
        Square {
            file: sq.file().raw() as u8 + 1,
            rank: sq.rank().raw() as u8 + 1,
        }
    }

    /// Index 0..81 in our own boards.
    pub(crate) fn index(self) -> usize {
        (self.rank as usize - 1) * 9 + (self.file as usize - 1)
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.usi())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn squares_round_trip_through_usi_and_rsshogi() {
        for sq in Square::all() {
            assert_eq!(Square::parse(&sq.usi()), Some(sq));
            assert_eq!(Square::from_rs(sq.to_rs()), sq);
            assert_eq!(sq.to_rs().to_usi(), sq.usi());
        }
        assert_eq!(Square::all().count(), 81);
        assert_eq!(Square::all().next().unwrap().usi(), "9a");
        for bad in ["", "5", "5j", "0e", "55", "e5", "5e5"] {
            assert_eq!(Square::parse(bad), None, "{bad}");
        }
    }

    #[test]
    fn kinds_map_to_rsshogi_and_back() {
        for k in Kind::ALL {
            assert_eq!(Kind::from_rs(k.to_rs()), Some(k));
            assert_eq!(k.is_promoted(), k.unpromoted() != k);
            if let Some(p) = k.promoted() {
                assert_eq!(p.unpromoted(), k);
                assert_eq!(p.sfen_letter(), k.sfen_letter());
            }
        }
        assert_eq!(Kind::from_sfen("+p"), Some(Kind::ProPawn));
        assert_eq!(Kind::from_sfen("+G"), None);
        assert_eq!(Kind::from_sfen("K"), Some(Kind::King));
        assert_eq!(Kind::Horse.kanji(Color::White), "馬");
        assert_eq!(Kind::Knight.name(Lang::Zh), "桂马");
    }
}
