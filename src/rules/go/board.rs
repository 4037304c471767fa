//! The Go board: stones on points, chains and their liberties.

use super::point::{BadPoint, Point, MAX_SIZE, MIN_SIZE};
use std::fmt;

/// A player's colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Color {
    /// Black (黑), who plays first.
    Black,
    /// White (白).
    White,
}

impl Color {
    /// The other colour.
    pub fn opponent(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }

    /// Reads `black`/`white` (also `b`/`w`, any case).
    pub fn parse(text: &str) -> Option<Color> {
        match text.trim().to_ascii_lowercase().as_str() {
            "black" | "b" => Some(Color::Black),
            "white" | "w" => Some(Color::White),
            _ => None,
        }
    }

    /// `black` or `white`.
    pub fn as_str(self) -> &'static str {
        match self {
            Color::Black => "black",
            Color::White => "white",
        }
    }

    pub(crate) fn index(self) -> usize {
        match self {
            Color::Black => 0,
            Color::White => 1,
        }
    }
}

/// A square board of `size`×`size` points, each empty or holding a stone.
///
/// ```
/// use qiyuan::rules::go::{Board, Color, Point};
/// let board = Board::from_text(5, "
///     . . . . .
///     . X O . .
///     . . . . .
///     . . . . .
///     . . . . .
/// ").unwrap();
/// assert_eq!(board.get(Point::parse("B4", 5).unwrap()), Some(Color::Black));
/// assert_eq!(board.liberties(Point::parse("C4", 5).unwrap()).len(), 3);
/// ```
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Board {
    size: u8,
    cells: Vec<Option<Color>>,
}

/// Why a board diagram could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BadBoard {
    /// Sizes outside 2..=25 are not supported.
    Size(u8),
    /// A row has the wrong number of points (rows count from 1 at the top of the diagram).
    RowLength {
        row: usize,
        found: usize,
        expected: usize,
    },
    /// The diagram has the wrong number of rows.
    RowCount { found: usize, expected: usize },
    /// A character that is neither `.`, `X`, `O` nor a star point `+`.
    Character { row: usize, found: char },
}

impl fmt::Display for BadBoard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BadBoard::Size(s) => write!(f, "board size {s} is not supported: use 2 to 25"),
            BadBoard::RowLength { row, found, expected } => write!(
                f,
                "board row {row} has {found} points but should have {expected}"
            ),
            BadBoard::RowCount { found, expected } => write!(
                f,
                "the board has {found} rows but should have {expected} (one per line, top to bottom)"
            ),
            BadBoard::Character { row, found } => write!(
                f,
                "board row {row} has `{found}`: use `.` for empty, `X` for black, `O` for white"
            ),
        }
    }
}

impl std::error::Error for BadBoard {}

impl Board {
    /// An empty board.
    pub fn new(size: u8) -> Result<Board, BadBoard> {
        if !(MIN_SIZE..=MAX_SIZE).contains(&size) {
            return Err(BadBoard::Size(size));
        }
        Ok(Board {
            size,
            cells: vec![None; size as usize * size as usize],
        })
    }

    /// Reads a diagram of the whole board: one line per row from the top, `.` (or `+`, `,`)
    /// empty, `X` black, `O` white; spaces between points are optional, blank lines ignored.
    pub fn from_text(size: u8, text: &str) -> Result<Board, BadBoard> {
        Board::from_text_at(size, text, Point::new(0, 0), size, size)
    }

    /// Reads a diagram of part of the board: `cols`×`rows` points whose top-left point is
    /// `origin`. Points outside the part stay empty.
    pub fn from_text_at(
        size: u8,
        text: &str,
        origin: Point,
        cols: u8,
        rows: u8,
    ) -> Result<Board, BadBoard> {
        let mut board = Board::new(size)?;
        let lines = text_rows(text)?;
        if lines.len() != rows as usize {
            return Err(BadBoard::RowCount {
                found: lines.len(),
                expected: rows as usize,
            });
        }
        for (r, line) in lines.iter().enumerate() {
            if line.len() != cols as usize {
                return Err(BadBoard::RowLength {
                    row: r + 1,
                    found: line.len(),
                    expected: cols as usize,
                });
            }
            for (c, stone) in line.iter().enumerate() {
                let p = Point::new(origin.col + c as u8, origin.row + r as u8);
                if board.contains(p) {
                    board.set(p, *stone);
                }
            }
        }
        Ok(board)
    }

    /// The number of lines in each direction.
    pub fn size(&self) -> u8 {
        self.size
    }

    /// Whether `p` lies on this board.
    pub fn contains(&self, p: Point) -> bool {
        p.col < self.size && p.row < self.size
    }

    fn index(&self, p: Point) -> usize {
        p.row as usize * self.size as usize + p.col as usize
    }

    /// The stone on `p`, if any.
    pub fn get(&self, p: Point) -> Option<Color> {
        self.cells[self.index(p)]
    }

    /// Puts a stone on `p` or clears it, without applying any rule.
    pub fn set(&mut self, p: Point, stone: Option<Color>) {
        let i = self.index(p);
        self.cells[i] = stone;
    }

    /// Reads a GTP point name on this board.
    pub fn point(&self, name: &str) -> Result<Point, BadPoint> {
        Point::parse(name, self.size)
    }

    /// Every point, row by row from the top-left.
    pub fn points(&self) -> impl Iterator<Item = Point> {
        let size = self.size;
        (0..size).flat_map(move |row| (0..size).map(move |col| Point::new(col, row)))
    }

    /// Every point with a stone of `color`.
    pub fn stones(&self, color: Color) -> impl Iterator<Item = Point> + '_ {
        self.points().filter(move |&p| self.get(p) == Some(color))
    }

    /// The up to four points next to `p`.
    pub fn neighbours(&self, p: Point) -> impl Iterator<Item = Point> {
        let size = self.size;
        let (c, r) = (p.col as i16, p.row as i16);
        [(c, r - 1), (c - 1, r), (c + 1, r), (c, r + 1)]
            .into_iter()
            .filter(move |&(c, r)| c >= 0 && r >= 0 && c < size as i16 && r < size as i16)
            .map(|(c, r)| Point::new(c as u8, r as u8))
    }

    /// The chain (connected stones of one colour) through `p`, in the order found;
    /// empty if `p` is empty.
    pub fn chain(&self, p: Point) -> Vec<Point> {
        let Some(color) = self.get(p) else {
            return Vec::new();
        };
        let mut seen = vec![false; self.cells.len()];
        let mut chain = vec![p];
        seen[self.index(p)] = true;
        let mut i = 0;
        while i < chain.len() {
            let q = chain[i];
            for n in self.neighbours(q) {
                let ni = self.index(n);
                if !seen[ni] && self.get(n) == Some(color) {
                    seen[ni] = true;
                    chain.push(n);
                }
            }
            i += 1;
        }
        chain
    }

    /// The liberties (empty points next to the chain) of the chain through `p`, sorted.
    pub fn liberties(&self, p: Point) -> Vec<Point> {
        let mut libs: Vec<Point> = self
            .chain(p)
            .into_iter()
            .flat_map(|q| self.neighbours(q))
            .filter(|&n| self.get(n).is_none())
            .collect();
        libs.sort();
        libs.dedup();
        libs
    }

    /// Whether the chain through `p` has at least one liberty (cheaper than counting them).
    pub fn has_liberty(&self, p: Point) -> bool {
        self.chain(p)
            .into_iter()
            .any(|q| self.neighbours(q).any(|n| self.get(n).is_none()))
    }

    /// The board as text, one row per line, `.` `X` `O` separated by spaces.
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        for row in 0..self.size {
            for col in 0..self.size {
                if col > 0 {
                    out.push(' ');
                }
                out.push(match self.get(Point::new(col, row)) {
                    None => '.',
                    Some(Color::Black) => 'X',
                    Some(Color::White) => 'O',
                });
            }
            out.push('\n');
        }
        out
    }
}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Board {}×{}\n{}", self.size, self.size, self.to_text())
    }
}

fn text_rows(text: &str) -> Result<Vec<Vec<Option<Color>>>, BadBoard> {
    let mut rows = Vec::new();
    for line in text.lines() {
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        let mut row = Vec::new();
        for ch in line.chars() {
            match ch {
                ' ' | '\t' => {}
                '.' | '+' | ',' => row.push(None),
                'X' | 'x' | '#' => row.push(Some(Color::Black)),
                'O' | 'o' => row.push(Some(Color::White)),
                other => {
                    return Err(BadBoard::Character {
                        row: rows.len() + 1,
                        found: other,
                    })
                }
            }
        }
        rows.push(row);
    }
    Ok(rows)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_liberties_of_a_chain() {
        let b = Board::from_text(
            5,
            "
            . . . . .
            . X X . .
            . X O . .
            . . . . .
            . . . . .",
        )
        .unwrap();
        let b3 = b.point("B3").unwrap();
        assert_eq!(b.chain(b3).len(), 3);
        assert_eq!(b.liberties(b3).len(), 6);
        let c3 = b.point("C3").unwrap();
        assert_eq!(b.liberties(c3).len(), 2);
    }

    #[test]
    fn corner_stone_has_two_liberties() {
        let mut b = Board::new(9).unwrap();
        let a1 = b.point("A1").unwrap();
        b.set(a1, Some(Color::White));
        assert_eq!(b.liberties(a1).len(), 2);
    }

    #[test]
    fn errors_on_bad_diagram() {
        assert_eq!(
            Board::from_text(3, ". . .\n. Y .\n. . ."),
            Err(BadBoard::Character { row: 2, found: 'Y' })
        );
        assert!(matches!(
            Board::from_text(3, ". . .\n. .\n. . ."),
            Err(BadBoard::RowLength { row: 2, .. })
        ));
        assert!(matches!(
            Board::from_text(3, ". . .\n. . ."),
            Err(BadBoard::RowCount { .. })
        ));
        assert_eq!(Board::new(1), Err(BadBoard::Size(1)));
    }
}
