//! Points of a Go board and their GTP names (`D4`, columns A–T without I, row 1 at the bottom).

use std::fmt;

/// The largest board the engine supports (25×25, the largest size GTP letters can name).
pub const MAX_SIZE: u8 = 25;
/// The smallest board the engine supports.
pub const MIN_SIZE: u8 = 2;

/// Column letters in GTP order: A–Z without I.
const COLUMNS: &[u8; 25] = b"ABCDEFGHJKLMNOPQRSTUVWXYZ";

/// A point on the board: `col` counts from the left edge, `row` from the top edge, both from 0.
///
/// ```
/// use qiyuan::rules::go::Point;
/// // On a 9×9 board the bottom-left corner is A1 and the top-right corner is J9.
/// assert_eq!(Point::parse("A1", 9), Ok(Point::new(0, 8)));
/// assert_eq!(Point::parse("j9", 9), Ok(Point::new(8, 0)));
/// assert_eq!(Point::new(3, 5).name(9), "D4");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Point {
    /// Column, 0 at the left edge.
    pub col: u8,
    /// Row, 0 at the top edge.
    pub row: u8,
}

/// Why a point name could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BadPoint {
    /// The text is not a letter followed by a number.
    Syntax(String),
    /// The letter I is never used for a column.
    LetterI,
    /// The point lies outside a board of this size.
    OffBoard { name: String, size: u8 },
}

impl fmt::Display for BadPoint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BadPoint::Syntax(s) => write!(
                f,
                "`{s}` is not a point: write a column letter and a row number, like D4"
            ),
            BadPoint::LetterI => write!(f, "column letters skip I: after H comes J"),
            BadPoint::OffBoard { name, size } => {
                write!(f, "{name} is outside the {size}×{size} board")
            }
        }
    }
}

impl std::error::Error for BadPoint {}

impl Point {
    /// A point from its column (from the left) and row (from the top).
    pub const fn new(col: u8, row: u8) -> Point {
        Point { col, row }
    }

    /// Reads a GTP point name such as `D4` or `q16` on a board of `size`.
    pub fn parse(name: &str, size: u8) -> Result<Point, BadPoint> {
        let name = name.trim();
        let mut chars = name.chars();
        let letter = chars
            .next()
            .ok_or_else(|| BadPoint::Syntax(name.to_string()))?
            .to_ascii_uppercase();
        if letter == 'I' {
            return Err(BadPoint::LetterI);
        }
        let col = COLUMNS
            .iter()
            .position(|&c| c as char == letter)
            .ok_or_else(|| BadPoint::Syntax(name.to_string()))?;
        let digits = chars.as_str();
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) || digits.len() > 2 {
            return Err(BadPoint::Syntax(name.to_string()));
        }
        let number: usize = digits
            .parse()
            .map_err(|_| BadPoint::Syntax(name.to_string()))?;
        if col >= size as usize || number == 0 || number > size as usize {
            return Err(BadPoint::OffBoard {
                name: name.to_ascii_uppercase(),
                size,
            });
        }
        Ok(Point::new(col as u8, (size as usize - number) as u8))
    }

    /// The GTP name of this point on a board of `size`, e.g. `D4`.
    pub fn name(self, size: u8) -> String {
        format!("{}{}", self.column_letter(), size - self.row)
    }

    /// The column letter (A–Z without I).
    pub fn column_letter(self) -> char {
        COLUMNS[self.col as usize] as char
    }

    /// Reads an SGF point such as `dd` ("aa" is the top-left corner, column first).
    pub fn from_sgf(text: &str, size: u8) -> Option<Point> {
        let b = text.as_bytes();
        if b.len() != 2 || !b[0].is_ascii_lowercase() || !b[1].is_ascii_lowercase() {
            return None;
        }
        let (col, row) = (b[0] - b'a', b[1] - b'a');
        (col < size && row < size).then_some(Point::new(col, row))
    }

    /// The SGF name of this point (`aa` is the top-left corner).
    pub fn sgf(self) -> String {
        format!("{}{}", (b'a' + self.col) as char, (b'a' + self.row) as char)
    }
}

/// The letter used for column `col` (0 = A; I is skipped).
pub fn column_letter(col: u8) -> char {
    COLUMNS[col as usize] as char
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_corners_of_19x19() {
        assert_eq!(Point::parse("A19", 19), Ok(Point::new(0, 0)));
        assert_eq!(Point::parse("T1", 19), Ok(Point::new(18, 18)));
        assert_eq!(Point::parse("K10", 19), Ok(Point::new(9, 9)));
    }

    #[test]
    fn rejects_letter_i_and_off_board_points() {
        assert_eq!(Point::parse("I5", 19), Err(BadPoint::LetterI));
        assert!(matches!(
            Point::parse("K5", 9),
            Err(BadPoint::OffBoard { .. })
        ));
        assert!(matches!(
            Point::parse("A0", 9),
            Err(BadPoint::OffBoard { .. })
        ));
        assert!(matches!(Point::parse("4D", 9), Err(BadPoint::Syntax(_))));
        assert!(matches!(Point::parse("", 9), Err(BadPoint::Syntax(_))));
        assert!(matches!(Point::parse("A+1", 9), Err(BadPoint::Syntax(_))));
    }

    #[test]
    fn names_round_trip() {
        for size in [5u8, 9, 13, 19] {
            for col in 0..size {
                for row in 0..size {
                    let p = Point::new(col, row);
                    assert_eq!(Point::parse(&p.name(size), size), Ok(p));
                    assert_eq!(Point::from_sgf(&p.sgf(), size), Some(p));
                }
            }
        }
    }
}
