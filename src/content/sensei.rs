//! Sensei's Library diagrams (`$$` lines): the board, marks and numbered moves of a Go diagram
//! as Go teachers write them on the web.
//!
//! ```text
//! $$Bc9 Capturing          header: B/W moves first, c = coordinates, 9 = board size
//! $$ +-------------------+   edges: - top/bottom, | sides, + corners
//! $$ | . . . . . . . . . |
//! $$ | . . X O 1 . . . . |   X O stones, 1–9 and 0 (= 10) numbered moves
//! $$ | . . . X . . . . . |   , star point; B W # @ Y Q Z P marked stones;
//! $$ ...                     C S T M marks on empty points; a–z letters
//! ```

use super::super::render::Marks;
use crate::rules::go::{Board, Color, Point};

/// A Sensei's Library diagram, read.
#[derive(Clone, Debug, PartialEq)]
pub struct SenseiDiagram {
    /// The board size (from the header, else 19, or the diagram's own size when it shows
    /// all four edges).
    pub size: u8,
    /// Who plays the first numbered move.
    pub first: Color,
    /// The number of the first numbered move (`m` in the header), usually 1.
    pub first_number: u32,
    /// The header's title, if any.
    pub title: Option<String>,
    /// The stones on the board before the numbered moves.
    pub board: Board,
    /// The shown part of the board (top-left, bottom-right), when it is not the whole board.
    pub view: Option<(Point, Point)>,
    /// Circles, squares, triangles, crosses and letters.
    pub marks: Marks<Point>,
    /// Numbered moves in order: the point of move 1, 2, …
    pub moves: Vec<Point>,
}

/// Why a Sensei's diagram cannot be read; `line` counts the diagram's lines from 1.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BadSensei {
    /// The line of the diagram text.
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

impl std::fmt::Display for BadSensei {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Sensei's diagram line {}: {}", self.line, self.message)
    }
}

fn bad(line: usize, message: impl Into<String>) -> BadSensei {
    BadSensei {
        line,
        message: message.into(),
    }
}

/// Reads a diagram. Every line starts with `$$`; the first is the header.
pub fn parse(text: &str) -> Result<SenseiDiagram, BadSensei> {
    let lines: Vec<(usize, &str)> = text
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.trim()))
        .filter(|(_, l)| !l.is_empty())
        .collect();
    let Some(&(header_line, header)) = lines.first() else {
        return Err(bad(1, "the diagram is empty"));
    };
    let header = header.strip_prefix("$$").ok_or_else(|| {
        bad(
            header_line,
            "every line of a Sensei's diagram starts with `$$`",
        )
    })?;
    // Header: [B|W][c][size][mN] [title]
    let (flags, title) = match header.split_once(char::is_whitespace) {
        Some((f, t)) => (f, Some(t.trim().to_string()).filter(|t| !t.is_empty())),
        None => (header, None),
    };
    let mut first = Color::Black;
    let mut first_number = 1;
    let mut size: Option<u8> = None;
    let mut rest = flags;
    while let Some(c) = rest.chars().next() {
        match c {
            'B' => first = Color::Black,
            'W' => first = Color::White,
            'c' => {}
            'm' => {
                let digits: String = rest[1..].chars().take_while(char::is_ascii_digit).collect();
                first_number = digits
                    .parse()
                    .map_err(|_| bad(header_line, "`m` in the header needs a number, like m23"))?;
                rest = &rest[1 + digits.len()..];
                continue;
            }
            d if d.is_ascii_digit() => {
                let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
                let n: u8 = digits
                    .parse()
                    .map_err(|_| bad(header_line, "the board size should be 2 to 25"))?;
                size = Some(n);
                rest = &rest[digits.len()..];
                continue;
            }
            other => {
                return Err(bad(
                    header_line,
                    format!("unknown header letter `{other}`: use B or W, c, a size, mN"),
                ))
            }
        }
        rest = &rest[c.len_utf8()..];
    }
    // Body rows: strip `$$`, keep the cells.
    let mut rows: Vec<(usize, Vec<char>)> = Vec::new();
    let (mut top, mut bottom, mut left, mut right) = (false, false, false, false);
    for &(n, line) in &lines[1..] {
        let body = line
            .strip_prefix("$$")
            .ok_or_else(|| bad(n, "every line of a Sensei's diagram starts with `$$`"))?
            .trim();
        if body.is_empty() {
            continue;
        }
        if body.chars().all(|c| matches!(c, '-' | '+' | ' ')) {
            if rows.is_empty() {
                top = true;
            } else {
                bottom = true;
            }
            continue;
        }
        let mut cells: Vec<char> = body.chars().filter(|c| !c.is_whitespace()).collect();
        if cells.first() == Some(&'|') {
            left = true;
            cells.remove(0);
        }
        if cells.last() == Some(&'|') {
            right = true;
            cells.pop();
        }
        rows.push((n, cells));
    }
    let Some(width) = rows.first().map(|(_, c)| c.len()) else {
        return Err(bad(header_line, "the diagram has no board rows"));
    };
    if width == 0 {
        return Err(bad(rows[0].0, "this row has no points between its edges"));
    }
    for (n, cells) in &rows {
        if cells.len() != width {
            return Err(bad(
                *n,
                format!(
                    "this row has {} points but the first has {width}",
                    cells.len()
                ),
            ));
        }
    }
    let height = rows.len();
    let whole = top && bottom && left && right;
    let size = match size {
        Some(s) => s,
        None if whole => {
            if width != height {
                return Err(bad(header_line, "a whole board must be square"));
            }
            width as u8
        }
        None => 19,
    };
    if !(2..=25).contains(&size) || width > size as usize || height > size as usize {
        return Err(bad(
            header_line,
            format!("the diagram ({width}×{height}) does not fit a {size}×{size} board"),
        ));
    }
    // Place the shown part: at the edges it shows, else at the top-left.
    let col0 = if !left && right {
        size as usize - width
    } else {
        0
    };
    let row0 = if !top && bottom {
        size as usize - height
    } else {
        0
    };
    let mut board = Board::new(size).map_err(|e| bad(header_line, e.to_string()))?;
    let mut marks = Marks::default();
    let mut numbered: Vec<(u32, Point)> = Vec::new();
    for (r, (n, cells)) in rows.iter().enumerate() {
        for (c, &ch) in cells.iter().enumerate() {
            let p = Point::new((col0 + c) as u8, (row0 + r) as u8);
            let stone = |color| Some(color);
            let (on, mark): (Option<Color>, Option<&mut Vec<Point>>) = match ch {
                '.' | ',' => (None, None),
                'X' => (stone(Color::Black), None),
                'O' => (stone(Color::White), None),
                'B' => (stone(Color::Black), Some(&mut marks.circles)),
                'W' => (stone(Color::White), Some(&mut marks.circles)),
                '#' => (stone(Color::Black), Some(&mut marks.squares)),
                '@' => (stone(Color::White), Some(&mut marks.squares)),
                'Y' => (stone(Color::Black), Some(&mut marks.triangles)),
                'Q' => (stone(Color::White), Some(&mut marks.triangles)),
                'Z' => (stone(Color::Black), Some(&mut marks.crosses)),
                'P' => (stone(Color::White), Some(&mut marks.crosses)),
                'C' => (None, Some(&mut marks.circles)),
                'S' => (None, Some(&mut marks.squares)),
                'T' => (None, Some(&mut marks.triangles)),
                'M' => (None, Some(&mut marks.crosses)),
                '1'..='9' | '0' => {
                    let d = ch.to_digit(10).unwrap_or(0);
                    numbered.push((if d == 0 { 10 } else { d }, p));
                    (None, None)
                }
                'a'..='z' => {
                    marks.labels.push((ch.to_string(), p));
                    (None, None)
                }
                other => {
                    return Err(bad(
                        *n,
                        format!("`{other}` is not a Sensei's diagram symbol: use . , X O, 1–9 0, B W # @ Y Q Z P, C S T M or a–z"),
                    ))
                }
            };
            board.set(p, on);
            if let Some(list) = mark {
                list.push(p);
            }
        }
    }
    numbered.sort_by_key(|&(k, _)| k);
    for (i, &(k, _)) in numbered.iter().enumerate() {
        if k != i as u32 + 1 {
            return Err(bad(
                header_line,
                format!("numbered moves must run 1, 2, 3 … without gaps or repeats; move {} is missing or doubled", i + 1),
            ));
        }
    }
    let view = (!whole || width != size as usize || height != size as usize).then(|| {
        (
            Point::new(col0 as u8, row0 as u8),
            Point::new((col0 + width - 1) as u8, (row0 + height - 1) as u8),
        )
    });
    Ok(SenseiDiagram {
        size,
        first,
        first_number,
        title,
        board,
        view,
        marks,
        moves: numbered.into_iter().map(|(_, p)| p).collect(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_a_corner_with_numbered_moves() {
        let d = parse(
            "$$Bc A ladder
             $$ | . . . . .
             $$ | . . X . .
             $$ | . X O 1 .
             $$ | . . 2 . .
             $$ +----------",
        )
        .unwrap();
        assert_eq!(d.size, 19);
        assert_eq!(d.title.as_deref(), Some("A ladder"));
        // Bottom-left corner: rows 1..4, columns A..E.
        assert_eq!(
            d.view,
            Some((
                Point::parse("A4", 19).unwrap(),
                Point::parse("E1", 19).unwrap()
            ))
        );
        assert_eq!(
            d.board.get(Point::parse("C3", 19).unwrap()),
            Some(Color::Black)
        );
        assert_eq!(
            d.board.get(Point::parse("C2", 19).unwrap()),
            Some(Color::White)
        );
        assert_eq!(
            d.moves,
            vec![
                Point::parse("D2", 19).unwrap(),
                Point::parse("C1", 19).unwrap()
            ]
        );
    }

    #[test]
    fn reads_a_whole_small_board_with_marks() {
        let d = parse(
            "$$W
             $$ +-----------+
             $$ | . . . . . |
             $$ | . B @ a . |
             $$ | . . C . . |
             $$ | . . . . . |
             $$ | . . . . . |
             $$ +-----------+",
        )
        .unwrap();
        assert_eq!(d.size, 5);
        assert_eq!(d.view, None);
        assert_eq!(d.first, Color::White);
        assert_eq!(d.marks.circles.len(), 2);
        assert_eq!(d.marks.squares, vec![Point::parse("C4", 5).unwrap()]);
        assert_eq!(
            d.marks.labels,
            vec![("a".to_string(), Point::parse("D4", 5).unwrap())]
        );
    }

    #[test]
    fn errors_on_gaps_in_numbering_and_unknown_symbols() {
        assert!(parse("$$B\n$$ | 1 3 .\n$$ +------").is_err());
        let e = parse("$$B\n$$ | . ? .\n$$ +------").unwrap_err();
        assert_eq!(e.line, 2);
        assert!(e.message.contains("`?`"));
    }

    #[test]
    fn refuses_a_row_with_no_points() {
        // Found by tests/fuzz.rs: an edge with nothing inside took the view below zero.
        let e = parse("$$Bc A lad.\n$$ | ").unwrap_err();
        assert_eq!(e.line, 2, "{e}");
    }
}
