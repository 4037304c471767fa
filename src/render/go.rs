//! The Go board as SVG: grid, star points, coordinates, stones, marks, liberties, crop.
//!
//! Everything is drawn in whole drawing units: the distance between two lines is
//! [`CELL`] = 100 units, and the `viewBox` is sized to the points in view plus a margin for
//! the coordinates. The SVG has `width="100%"` and no fixed size, so the page's CSS decides
//! how large it appears; cell-relative font sizes keep it readable from a 360 px phone to a
//! desktop. No gradients, filters, ids or external files are used, so any number of
//! diagrams can share one page.

use super::svg::{close_heat, heat_cell, marked, open_heat, push_escaped, Heat, FONT};
use super::Marks;
use crate::lang::Lang;
use crate::rules::go::{column_letter, star_points, Board, Color, Point};
use std::fmt::Write;

/// What to draw: a board and everything shown on it.
pub struct GoDiagram<'a> {
    /// The stones.
    pub board: &'a Board,
    /// Show only this rectangle (top-left and bottom-right corners, inclusive).
    pub view: Option<(Point, Point)>,
    /// The last move, marked on its stone.
    pub last_move: Option<Point>,
    /// Shapes and labels.
    pub marks: &'a Marks<Point>,
    /// Points marked as liberties (small markers on empty points).
    pub liberties: &'a [Point],
    /// A counted board's territory: a small square of the owner's colour on each point.
    pub territory: &'a [(Point, Color)],
    /// Points the learner has selected (for "click every …" questions).
    pub selected: &'a [Point],
    /// When set, every point in view becomes a link to this address.
    pub link: Option<&'a dyn Fn(Point) -> String>,
    /// A heat map of answers, drawn over every point in view that it counts.
    pub heat: Option<&'a Heat>,
    /// Language of accessible names.
    pub lang: Lang,
    /// What the picture shows, for screen readers.
    pub title: &'a str,
}

/// Drawing units between two neighbouring lines.
pub const CELL: i32 = 100;
/// Coordinates' layout by how many points the view spans (its longer side), smallest
/// first: (up to this many points, font size, margin from the outermost line to the edge of
/// the picture, distance from the edge of the picture to a coordinate's centre). Small
/// boards have big cells, so their coordinates take a smaller share of a cell.
const COORD_LAYOUTS: [(u8, i32, i32, i32); 3] =
    [(7, 40, 114, 36), (12, 48, 122, 40), (25, 58, 132, 44)];
/// How far grid lines run past a crop edge where the board goes on.
const EXTEND: i32 = 36;
/// Stone radius: stones almost touch their neighbours.
const STONE: i32 = 47;

const WOOD: &str = "#ddb56b";
const WOOD_EDGE: &str = "#c39a4f";
const LINE: &str = "#3a2c18";
const COORD_INK: &str = "#5c4626";
/// Shadows of stones, slightly down and right.
const SHADOW: &str = "fill=\"#000\" opacity=\".2\"";
/// Black stones' bodies.
const BLACK_BODY: &str = "class=\"b\" fill=\"#1c1c1c\" stroke=\"#000\" stroke-width=\"2\"";
/// A soft light on the upper left of black stones.
const BLACK_GLOW: &str = "fill=\"#fff\" fill-opacity=\".08\"";
/// White stones' bodies: the shaded rim and the outline.
const WHITE_BODY: &str = "class=\"w\" fill=\"#d5d1c6\" stroke=\"#777064\" stroke-width=\"3\"";
/// White stones' lit face, a little up and left, leaving a shaded crescent lower right.
const WHITE_FACE: &str = "fill=\"#f7f5ef\"";
const DARK_INK: &str = "#141414";
const LIBERTY: &str = "#1fa3d6";
const LIBERTY_EDGE: &str = "#0d6f96";
const SELECTED: &str = "#1e9e4e";

const F_MARK: u8 = 1;
const F_LIBERTY: u8 = 2;
const F_SELECTED: u8 = 4;
const F_LAST: u8 = 8;

/// The rectangle of points in view, inclusive.
#[derive(Clone, Copy)]
struct View {
    c0: u8,
    c1: u8,
    r0: u8,
    r1: u8,
    /// Coordinates' font size.
    font: i32,
    /// From the outermost line in view to the edge of the picture.
    margin: i32,
    /// From the edge of the picture to the centre of a coordinate.
    coord: i32,
}

impl View {
    fn of(diagram: &GoDiagram) -> View {
        let last = diagram.board.size() - 1;
        let ((c0, r0), (c1, r1)) = match diagram.view {
            None => ((0, 0), (last, last)),
            Some((a, b)) => (
                (a.col.min(b.col).min(last), a.row.min(b.row).min(last)),
                (a.col.max(b.col).min(last), a.row.max(b.row).min(last)),
            ),
        };
        let span = (c1 - c0).max(r1 - r0) + 1;
        let (_, font, margin, coord) = COORD_LAYOUTS
            .into_iter()
            .find(|&(up_to, ..)| span <= up_to)
            .unwrap_or(COORD_LAYOUTS[COORD_LAYOUTS.len() - 1]);
        View {
            c0,
            c1,
            r0,
            r1,
            font,
            margin,
            coord,
        }
    }

    fn contains(self, p: Point) -> bool {
        (self.c0..=self.c1).contains(&p.col) && (self.r0..=self.r1).contains(&p.row)
    }

    fn x(self, col: u8) -> i32 {
        self.margin + (col - self.c0) as i32 * CELL
    }

    fn y(self, row: u8) -> i32 {
        self.margin + (row - self.r0) as i32 * CELL
    }

    fn width(self) -> i32 {
        2 * self.margin + (self.c1 - self.c0) as i32 * CELL
    }

    fn height(self) -> i32 {
        2 * self.margin + (self.r1 - self.r0) as i32 * CELL
    }
}

/// Draws `diagram` as an inline SVG element.
///
/// The root is `<svg class="goban" … width="100%">` with `role="img"`, or `role="group"`
/// when [`GoDiagram::link`] is set; then every point in view is an
/// `<a class="pt" data-p="D4" aria-label="D4, black stone">` over a transparent square, so
/// pages can style `.goban .pt:hover rect` and `.goban .pt:focus rect`.
///
/// ```
/// use qiyuan::lang::Lang;
/// use qiyuan::render::{go, Marks};
/// use qiyuan::rules::go::Board;
///
/// let board = Board::from_text(5, "
///     . . . . .
///     . X O . .
///     . . . . .
///     . . . . .
///     . . . . .
/// ").unwrap();
/// let marks = Marks::default();
/// let link = |p: qiyuan::rules::go::Point| format!("/play?p={}", p.name(5));
/// let svg = go::svg(&go::GoDiagram {
///     board: &board,
///     view: None,
///     last_move: board.point("C4").ok(),
///     marks: &marks,
///     liberties: &[],
///     territory: &[],
///     selected: &[],
///     link: Some(&link),
///     heat: None,
///     lang: Lang::En,
///     title: "Black B4 and white C4",
/// });
/// assert!(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"goban\""));
/// assert!(svg.contains("aria-label=\"C4, white stone, last move\""));
/// ```
pub fn svg(diagram: &GoDiagram) -> String {
    let board = diagram.board;
    let size = board.size();
    let view = View::of(diagram);
    let (w, h) = (view.width(), view.height());
    let cols = (view.c1 - view.c0 + 1) as usize;
    let rows = (view.r1 - view.r0 + 1) as usize;
    let mut out =
        String::with_capacity(3000 + cols * rows * if diagram.link.is_some() { 260 } else { 40 });

    // What lies on each point besides stones, for the marks' colours and accessible names.
    let n = size as usize;
    let mut flags = vec![0u8; n * n];
    let mut flag = |p: Point, f: u8| {
        if board.contains(p) {
            flags[p.row as usize * n + p.col as usize] |= f;
        }
    };
    let marks = diagram.marks;
    for &p in marked(marks) {
        flag(p, F_MARK);
    }
    for &p in diagram.liberties {
        flag(p, F_LIBERTY);
    }
    for &p in diagram.selected {
        flag(p, F_SELECTED);
    }
    if let Some(p) = diagram.last_move {
        flag(p, F_LAST);
    }
    let flags_at = |p: Point| flags[p.row as usize * n + p.col as usize];
    let shown = |p: Point| board.contains(p) && view.contains(p);

    // Root, title, wood.
    let interactive = diagram.link.is_some();
    let _ = write!(
        out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"goban\" viewBox=\"0 0 {w} {h}\" \
         width=\"100%\" role=\"{}\" aria-label=\"",
        if interactive { "group" } else { "img" }
    );
    push_escaped(&mut out, diagram.title);
    out.push_str("\"><title>");
    push_escaped(&mut out, diagram.title);
    let _ = write!(
        out,
        "</title><g aria-hidden=\"true\"><rect x=\"2\" y=\"2\" width=\"{}\" height=\"{}\" \
         rx=\"16\" fill=\"{WOOD}\" stroke=\"{WOOD_EDGE}\" stroke-width=\"4\"/>",
        w - 4,
        h - 4
    );

    // Grid: thin inner lines, thicker real edges; lines run on past crop edges.
    let last = size - 1;
    let left = view.x(view.c0) - if view.c0 > 0 { EXTEND } else { 0 };
    let right = view.x(view.c1) + if view.c1 < last { EXTEND } else { 0 };
    let top = view.y(view.r0) - if view.r0 > 0 { EXTEND } else { 0 };
    let bottom = view.y(view.r1) + if view.r1 < last { EXTEND } else { 0 };
    let _ = write!(
        out,
        "<g fill=\"none\" stroke=\"{LINE}\" stroke-linecap=\"square\"><path stroke-width=\"4\" d=\""
    );
    for row in view.r0..=view.r1 {
        if row != 0 && row != last {
            let _ = write!(out, "M{left} {}H{right}", view.y(row));
        }
    }
    for col in view.c0..=view.c1 {
        if col != 0 && col != last {
            let _ = write!(out, "M{} {top}V{bottom}", view.x(col));
        }
    }
    out.push_str("\"/><path stroke-width=\"7\" d=\"");
    for row in [0, last] {
        if (view.r0..=view.r1).contains(&row) {
            let _ = write!(out, "M{left} {}H{right}", view.y(row));
        }
    }
    for col in [0, last] {
        if (view.c0..=view.c1).contains(&col) {
            let _ = write!(out, "M{} {top}V{bottom}", view.x(col));
        }
    }
    out.push_str("\"/></g>");

    // Star points.
    let _ = write!(out, "<g class=\"stars\" fill=\"{LINE}\">");
    for p in star_points(size) {
        if view.contains(p) {
            let _ = write!(
                out,
                "<circle cx=\"{}\" cy=\"{}\" r=\"11\"/>",
                view.x(p.col),
                view.y(p.row)
            );
        }
    }
    out.push_str("</g>");

    // Coordinates: letters above and below, numbers (1 at the bottom) left and right.
    let _ = write!(
        out,
        "<g class=\"coords\" {FONT} font-size=\"{}\" fill=\"{COORD_INK}\" text-anchor=\"middle\">",
        view.font
    );
    for col in view.c0..=view.c1 {
        let x = view.x(col);
        let letter = column_letter(col);
        for y in [view.coord, h - view.coord] {
            let _ = write!(
                out,
                "<text x=\"{x}\" y=\"{y}\" dy=\".35em\">{letter}</text>"
            );
        }
    }
    for row in view.r0..=view.r1 {
        let y = view.y(row);
        let number = size - row;
        for x in [view.coord, w - view.coord] {
            let _ = write!(
                out,
                "<text x=\"{x}\" y=\"{y}\" dy=\".35em\">{number}</text>"
            );
        }
    }
    out.push_str("</g>");

    // Stones, layer by layer (shadows, bodies, then highlights) so that no shadow falls on a
    // neighbouring stone and each layer's colour is set once.
    out.push_str("<g class=\"stones\">");
    // (which stones, style, offset x, offset y, radius); `None` is every stone.
    let layers: [(Option<Color>, &str, i32, i32, i32); 6] = [
        (None, SHADOW, 3, 4, STONE),
        (Some(Color::Black), BLACK_BODY, 0, 0, STONE),
        (Some(Color::Black), BLACK_GLOW, -9, -11, 28),
        (Some(Color::Black), BLACK_GLOW, -14, -17, 14),
        (Some(Color::White), WHITE_BODY, 0, 0, STONE - 1),
        (Some(Color::White), WHITE_FACE, -4, -4, 40),
    ];
    for (color, style, dx, dy, r) in layers {
        let _ = write!(out, "<g {style}>");
        for row in view.r0..=view.r1 {
            for col in view.c0..=view.c1 {
                let stone = board.get(Point::new(col, row));
                if stone.is_some() && (color.is_none() || stone == color) {
                    let _ = write!(
                        out,
                        "<circle cx=\"{}\" cy=\"{}\" r=\"{r}\"/>",
                        view.x(col) + dx,
                        view.y(row) + dy
                    );
                }
            }
        }
        out.push_str("</g>");
    }
    out.push_str("</g>");

    // Selected points: a green ring, with a light green fill on empty points (under the
    // liberty markers, which stay crisp on top).
    if !diagram.selected.is_empty() {
        let _ = write!(
            out,
            "<g class=\"selected\" stroke=\"{SELECTED}\" stroke-width=\"9\">"
        );
        for &p in diagram.selected {
            if shown(p) {
                let fill = if board.get(p).is_some() {
                    "fill=\"none\""
                } else {
                    "fill=\"#9fe8b4\" fill-opacity=\".55\""
                };
                let _ = write!(
                    out,
                    "<circle cx=\"{}\" cy=\"{}\" r=\"39\" {fill}/>",
                    view.x(p.col),
                    view.y(p.row)
                );
            }
        }
        out.push_str("</g>");
    }

    // Liberties: small blue squares.
    if !diagram.liberties.is_empty() {
        let _ = write!(
            out,
            "<g class=\"liberties\" fill=\"{LIBERTY}\" stroke=\"{LIBERTY_EDGE}\" stroke-width=\"4\">"
        );
        for &p in diagram.liberties {
            if shown(p) {
                let _ = write!(
                    out,
                    "<rect x=\"{}\" y=\"{}\" width=\"32\" height=\"32\" rx=\"6\"/>",
                    view.x(p.col) - 16,
                    view.y(p.row) - 16
                );
            }
        }
        out.push_str("</g>");
    }

    // Shapes and labels, in a colour that stands out from what lies under them.
    if !marks.is_empty() {
        out.push_str("<g class=\"marks\" fill=\"none\" stroke-width=\"7\" stroke-linejoin=\"round\" stroke-linecap=\"round\">");
        let ink = |p: Point| match board.get(p) {
            Some(Color::Black) => "#fff",
            Some(Color::White) => DARK_INK,
            None => DARK_INK,
        };
        for &p in &marks.triangles {
            if shown(p) {
                let (x, y) = (view.x(p.col), view.y(p.row) + 2);
                let _ = write!(
                    out,
                    "<path stroke=\"{}\" d=\"M{x} {}L{} {}H{}Z\"/>",
                    ink(p),
                    y - 29,
                    x + 25,
                    y + 15,
                    x - 25
                );
            }
        }
        for &p in &marks.squares {
            if shown(p) {
                let _ = write!(
                    out,
                    "<rect stroke=\"{}\" x=\"{}\" y=\"{}\" width=\"40\" height=\"40\"/>",
                    ink(p),
                    view.x(p.col) - 20,
                    view.y(p.row) - 20
                );
            }
        }
        for &p in &marks.circles {
            if shown(p) {
                let _ = write!(
                    out,
                    "<circle stroke=\"{}\" cx=\"{}\" cy=\"{}\" r=\"24\"/>",
                    ink(p),
                    view.x(p.col),
                    view.y(p.row)
                );
            }
        }
        for &p in &marks.crosses {
            if shown(p) {
                let (x, y) = (view.x(p.col), view.y(p.row));
                let _ = write!(
                    out,
                    "<path stroke=\"{}\" d=\"M{} {}l38 38m0 -38l-38 38\"/>",
                    ink(p),
                    x - 19,
                    y - 19
                );
            }
        }
        if !marks.labels.is_empty() {
            let _ = write!(
                out,
                "<g {FONT} font-weight=\"bold\" text-anchor=\"middle\" stroke=\"none\">"
            );
            for (text, p) in &marks.labels {
                let p = *p;
                if !shown(p) {
                    continue;
                }
                let (x, y) = (view.x(p.col), view.y(p.row));
                if board.get(p).is_none() {
                    // Clear the grid under the label so it reads cleanly.
                    let _ = write!(
                        out,
                        "<circle cx=\"{x}\" cy=\"{y}\" r=\"38\" fill=\"{WOOD}\"/>"
                    );
                }
                let font = match text.chars().count() {
                    0 | 1 => 58,
                    2 => 48,
                    _ => 36,
                };
                let _ = write!(
                    out,
                    "<text x=\"{x}\" y=\"{y}\" dy=\".35em\" font-size=\"{font}\" fill=\"{}\">",
                    ink(p)
                );
                push_escaped(&mut out, text);
                out.push_str("</text>");
            }
            out.push_str("</g>");
        }
        out.push_str("</g>");
    }

    // Territory of a counted board: a small square of the owner's colour on each point.
    if !diagram.territory.is_empty() {
        out.push_str("<g class=\"territory\" stroke-width=\"3\">");
        for &(p, owner) in diagram.territory {
            if !shown(p) {
                continue;
            }
            let (class, fill, stroke) = match owner {
                Color::Black => ("tb", "#1c1c1c", "#000"),
                Color::White => ("tw", "#fafafa", "#555"),
            };
            let _ = write!(
                out,
                "<rect class=\"{class}\" x=\"{}\" y=\"{}\" width=\"36\" height=\"36\" fill=\"{fill}\" stroke=\"{stroke}\"/>",
                view.x(p.col) - 18,
                view.y(p.row) - 18
            );
        }
        out.push_str("</g>");
    }

    // Last move: a dot in the colour opposite to the stone, unless a mark is already there.
    if let Some(p) = diagram.last_move {
        if shown(p) && flags_at(p) & F_MARK == 0 {
            let ink = match board.get(p) {
                Some(Color::Black) => "#fff",
                _ => DARK_INK,
            };
            let _ = write!(
                out,
                "<circle class=\"last\" cx=\"{}\" cy=\"{}\" r=\"15\" fill=\"{ink}\"/>",
                view.x(p.col),
                view.y(p.row)
            );
        }
    }
    out.push_str("</g>");

    // Links: a transparent square over every point, reaching the picture's edge at the sides.
    if let Some(link) = diagram.link {
        let half = CELL / 2;
        out.push_str("<g class=\"points\" fill=\"transparent\" pointer-events=\"visible\">");
        for row in view.r0..=view.r1 {
            for col in view.c0..=view.c1 {
                let p = Point::new(col, row);
                let (x, y) = (view.x(col), view.y(row));
                let x0 = if col == view.c0 { 0 } else { x - half };
                let x1 = if col == view.c1 { w } else { x + half };
                let y0 = if row == view.r0 { 0 } else { y - half };
                let y1 = if row == view.r1 { h } else { y + half };
                out.push_str("<a href=\"");
                push_escaped(&mut out, &link(p));
                out.push_str("\" class=\"pt\" data-p=\"");
                let name_start = out.len();
                out.push(column_letter(col));
                push_int(&mut out, (size - row) as i32);
                let name_end = out.len();
                out.push_str("\" aria-label=\"");
                out.extend_from_within(name_start..name_end);
                push_accessible(&mut out, diagram.lang, board.get(p), flags_at(p));
                out.push_str("\"><rect x=\"");
                push_int(&mut out, x0);
                out.push_str("\" y=\"");
                push_int(&mut out, y0);
                out.push_str("\" width=\"");
                push_int(&mut out, x1 - x0);
                out.push_str("\" height=\"");
                push_int(&mut out, y1 - y0);
                out.push_str("\"/></a>");
            }
        }
        out.push_str("</g>");
    }
    // Heat: a cell a line apart centred on each point it counts.
    if let Some(heat) = diagram.heat {
        open_heat(&mut out);
        let half = CELL / 2;
        for row in view.r0..=view.r1 {
            for col in view.c0..=view.c1 {
                let (x, y) = (view.x(col), view.y(row));
                let name = Point::new(col, row).name(size);
                let rect = (x - half, y - half, CELL, CELL);
                heat_cell(&mut out, heat, &name, f64_rect(rect));
            }
        }
        close_heat(&mut out);
    }
    out.push_str("</svg>");
    out
}

/// A rectangle in whole drawing units as the heat map takes it.
fn f64_rect((x, y, w, h): (i32, i32, i32, i32)) -> (f64, f64, f64, f64) {
    (x as f64, y as f64, w as f64, h as f64)
}

/// Appends a whole number in decimal, faster than `write!` in the per-point loops.
fn push_int(out: &mut String, value: i32) {
    if value < 0 {
        out.push('-');
    }
    let mut v = value.unsigned_abs();
    let mut digits = [0u8; 10];
    let mut i = digits.len();
    loop {
        i -= 1;
        digits[i] = b'0' + (v % 10) as u8;
        v /= 10;
        if v == 0 {
            break;
        }
    }
    for &d in &digits[i..] {
        out.push(d as char);
    }
}

/// Appends what a screen reader says after the point's name: stone, then extras.
fn push_accessible(out: &mut String, lang: Lang, stone: Option<Color>, flags: u8) {
    let (sep, stone_word, extras): (&str, &str, [&str; 4]) = match lang {
        Lang::En => (
            ", ",
            match stone {
                Some(Color::Black) => "black stone",
                Some(Color::White) => "white stone",
                None => "empty",
            },
            ["last move", "marked", "liberty", "selected"],
        ),
        Lang::Zh => (
            "，",
            match stone {
                Some(Color::Black) => "黑子",
                Some(Color::White) => "白子",
                None => "空点",
            },
            ["最后一手", "有标记", "气", "已选"],
        ),
    };
    out.push_str(sep);
    out.push_str(stone_word);
    for (f, word) in [F_LAST, F_MARK, F_LIBERTY, F_SELECTED]
        .into_iter()
        .zip(extras)
    {
        if flags & f != 0 {
            out.push_str(sep);
            out.push_str(word);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn diagram<'a>(board: &'a Board, marks: &'a Marks<Point>) -> GoDiagram<'a> {
        GoDiagram {
            board,
            view: None,
            last_move: None,
            marks,
            liberties: &[],
            territory: &[],
            selected: &[],
            link: None,
            heat: None,
            lang: Lang::En,
            title: "test",
        }
    }

    /// The part of `svg` inside the first group that starts with `<g {start}`.
    fn group<'s>(svg: &'s str, start: &str) -> &'s str {
        let from = svg
            .find(&format!("<g {start}"))
            .unwrap_or_else(|| panic!("no group {start}"));
        let rest = &svg[from..];
        &rest[..rest.find("</g>").unwrap()]
    }

    /// The margin of a view 8 to 12 points wide, such as a 9×9 board.
    const M: i32 = COORD_LAYOUTS[1].2;

    fn count(haystack: &str, needle: &str) -> usize {
        haystack.matches(needle).count()
    }

    fn sample() -> Board {
        Board::from_text(
            9,
            "
            . . . . . . . . .
            . . . . . . . . .
            . . O O . . X . .
            . . X O X . . . .
            . . X X O . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            ",
        )
        .unwrap()
    }

    #[test]
    fn nine_by_nine_has_five_star_points_and_is_scalable() {
        let board = Board::new(9).unwrap();
        let marks = Marks::default();
        let svg = svg(&diagram(&board, &marks));
        let side = 2 * M + 8 * CELL;
        assert!(svg.starts_with(&format!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"goban\" \
             viewBox=\"0 0 {side} {side}\" width=\"100%\" role=\"img\" aria-label=\"test\">\
             <title>test</title>"
        )));
        assert!(svg.ends_with("</svg>"));
        assert_eq!(count(group(&svg, "class=\"stars\""), "<circle"), 5);
        assert!(!svg.contains("<a "));
        assert!(!svg.contains("class=\"last\""));
        // Coordinates: A–J without I on two sides, 1–9 on two sides.
        let coords = group(&svg, "class=\"coords\"");
        assert_eq!(count(coords, "<text"), 36);
        assert_eq!(count(coords, ">J</text>"), 2);
        assert_eq!(count(coords, ">I</text>"), 0);
        // Row 1 is at the bottom (the last row, y = margin + 8 cells).
        let (top, bottom) = (M, M + 8 * CELL);
        assert!(coords.contains(&format!("y=\"{bottom}\" dy=\".35em\">1</text>")));
        assert!(coords.contains(&format!("y=\"{top}\" dy=\".35em\">9</text>")));
    }

    #[test]
    fn each_stone_is_drawn_once() {
        let board = sample();
        let marks = Marks::default();
        let svg = svg(&diagram(&board, &marks));
        assert_eq!(count(group(&svg, "class=\"b\""), "<circle"), 5);
        assert_eq!(count(group(&svg, "class=\"w\""), "<circle"), 4);
        assert_eq!(count(group(&svg, SHADOW), "<circle"), 9);
        // C6 is black: column 2, row 3 from the top.
        let (x, y) = (M + 2 * CELL, M + 3 * CELL);
        assert!(group(&svg, "class=\"b\"").contains(&format!("cx=\"{x}\" cy=\"{y}\"")));
    }

    #[test]
    fn crop_draws_only_the_points_in_view() {
        let board = Board::from_text_at(19, "X O", Point::new(2, 16), 2, 1).unwrap();
        let mut board = board;
        board.set(Point::new(15, 3), Some(Color::Black)); // Q16, outside the view.
        let marks = Marks {
            triangles: vec![Point::new(15, 3)],
            ..Marks::default()
        };
        let link = |p: Point| format!("/p/{}", p.name(19));
        let a8 = board.point("A8").unwrap();
        let h1 = board.point("H1").unwrap();
        let svg = svg(&GoDiagram {
            view: Some((h1, a8)), // corners in any order
            link: Some(&link),
            last_move: Some(Point::new(15, 3)),
            ..diagram(&board, &marks)
        });
        // 8×8 points: 7 cells plus the margins.
        let side = 2 * M + 7 * CELL;
        assert!(svg.contains(&format!("viewBox=\"0 0 {side} {side}\"")));
        assert_eq!(count(group(&svg, "class=\"b\""), "<circle"), 1);
        assert_eq!(count(group(&svg, "class=\"w\""), "<circle"), 1);
        assert_eq!(count(&svg, "class=\"pt\""), 64);
        assert!(svg.contains("data-p=\"A1\"") && svg.contains("data-p=\"H8\""));
        assert!(!svg.contains("data-p=\"J1\"") && !svg.contains("data-p=\"A9\""));
        assert!(!svg.contains("<path stroke=\""));
        assert!(!svg.contains("class=\"last\""));
        // D4 is the only star point in view.
        assert_eq!(count(group(&svg, "class=\"stars\""), "<circle"), 1);
        let coords = group(&svg, "class=\"coords\"");
        assert!(!coords.contains(">J<") && !coords.contains(">9<"));
        assert!(coords.contains(">H<") && coords.contains(">8<"));
        // Lines run on past the top and right crop edges, and stop at the real left and
        // bottom edges.
        let (left, right) = (M, M + 7 * CELL + EXTEND);
        let (top, bottom) = (M - EXTEND, M + 7 * CELL);
        assert!(svg.contains(&format!("M{left} {bottom}H{right}")));
        assert!(svg.contains(&format!("M{left} {top}V{bottom}")));
    }

    #[test]
    fn links_have_accessible_names_in_both_languages() {
        let board = sample();
        let d6 = board.point("D6").unwrap();
        let e6 = board.point("E6").unwrap();
        let a1 = board.point("A1").unwrap();
        let marks = Marks {
            labels: vec![("A".to_string(), e6)],
            ..Marks::default()
        };
        let libs = [a1];
        let selected = [a1, d6];
        let link = |p: Point| format!("/go?p={}&x=1", p.name(9));
        let base = GoDiagram {
            link: Some(&link),
            last_move: Some(d6),
            liberties: &libs,
            selected: &selected,
            ..diagram(&board, &marks)
        };
        let en = svg(&base);
        assert!(en.contains("role=\"group\""));
        assert_eq!(count(&en, "<a href="), 81);
        assert!(en.contains(
            "<a href=\"/go?p=D6&amp;x=1\" class=\"pt\" data-p=\"D6\" \
             aria-label=\"D6, white stone, last move, selected\">"
        ));
        assert!(en.contains("aria-label=\"E6, black stone, marked\""));
        assert!(en.contains("aria-label=\"A1, empty, liberty, selected\""));
        assert!(en.contains("aria-label=\"J9, empty\""));
        assert!(en.contains("pointer-events=\"visible\""));
        let zh = svg(&GoDiagram {
            lang: Lang::Zh,
            ..base
        });
        assert!(zh.contains("aria-label=\"D6，白子，最后一手，已选\""));
        assert!(zh.contains("aria-label=\"E6，黑子，有标记\""));
        assert!(zh.contains("aria-label=\"J9，空点\""));
        // Corner points' squares reach the picture's edge.
        let corner = M + CELL / 2;
        assert!(en.contains(&format!(
            "data-p=\"A9\" aria-label=\"A9, empty\"><rect x=\"0\" y=\"0\" \
             width=\"{corner}\" height=\"{corner}\""
        )));
    }

    #[test]
    fn heat_cells_land_on_their_points() {
        use crate::render::svg::testing::rect_after;
        let board = sample();
        let marks = Marks::default();
        let counts = std::collections::BTreeMap::from([
            ("E5".to_string(), 2),
            ("A9".to_string(), 1),
            ("J1".to_string(), 1),
        ]);
        let heat = Heat::new(&counts, &["E5".to_string()]);
        let link = |p: Point| p.name(9);
        let linked = svg(&GoDiagram {
            link: Some(&link),
            ..diagram(&board, &marks)
        });
        let hot = svg(&GoDiagram {
            heat: Some(&heat),
            ..diagram(&board, &marks)
        });
        // No links: a picture, the heat drawn last, one cell a point counted.
        assert!(hot.contains("role=\"img\"") && !hot.contains("<a "));
        assert!(hot.ends_with("</g></g></svg>"));
        assert_eq!(count(&hot, "class=\"heat-cell\""), 3);
        assert_eq!(count(&hot, "class=\"heat-right\""), 1);
        // An inner point: the cell is the point's own link square.
        let cell = rect_after(&hot, "class=\"heat-cell\" data-p=\"E5\"");
        assert_eq!(cell, rect_after(&linked, "data-p=\"E5\""));
        // Edge points: their links reach the picture's edge, the cells stay a line wide,
        // centred on the point, inside the link.
        for name in ["A9", "J1"] {
            let (x, y, w, h) = rect_after(&hot, &format!("class=\"heat-cell\" data-p=\"{name}\""));
            let (lx, ly, lw, lh) = rect_after(&linked, &format!("data-p=\"{name}\""));
            assert_eq!((w, h), (CELL as f64, CELL as f64));
            assert!(
                lx <= x && ly <= y && x + w <= lx + lw && y + h <= ly + lh,
                "{name}"
            );
            let p = board.point(name).unwrap();
            let view = View::of(&diagram(&board, &marks));
            assert_eq!(
                (x + w / 2.0, y + h / 2.0),
                (view.x(p.col) as f64, view.y(p.row) as f64)
            );
        }
        // Without heat, nothing changes.
        assert!(!svg(&diagram(&board, &marks)).contains("heat"));
    }

    #[test]
    fn text_is_escaped() {
        let board = Board::new(5).unwrap();
        let marks = Marks {
            labels: vec![("<b>".to_string(), Point::new(1, 1))],
            ..Marks::default()
        };
        let link = |_: Point| "/a?b=\"c\"&d='e'<f>".to_string();
        let svg = svg(&GoDiagram {
            title: "A <script> & \"quotes\" 'too'",
            link: Some(&link),
            ..diagram(&board, &marks)
        });
        assert!(
            svg.contains("aria-label=\"A &lt;script&gt; &amp; &quot;quotes&quot; &#39;too&#39;\"")
        );
        assert!(
            svg.contains("<title>A &lt;script&gt; &amp; &quot;quotes&quot; &#39;too&#39;</title>")
        );
        assert!(svg.contains(">&lt;b&gt;</text>"));
        assert!(svg.contains("href=\"/a?b=&quot;c&quot;&amp;d=&#39;e&#39;&lt;f&gt;\""));
        assert!(!svg.contains("<script") && !svg.contains("<b>"));
        assert_eq!(
            crate::render::escape("a&b<c>\"'ü"),
            "a&amp;b&lt;c&gt;&quot;&#39;ü"
        );
    }

    #[test]
    fn last_move_and_marks_contrast_with_what_is_under_them() {
        let board = sample();
        let c6 = board.point("C6").unwrap(); // black
        let d6 = board.point("D6").unwrap(); // white
        let a1 = board.point("A1").unwrap(); // empty
        let marks = Marks {
            triangles: vec![c6, d6, a1],
            labels: vec![("1".to_string(), a1)],
            ..Marks::default()
        };
        let svg_black = svg(&GoDiagram {
            last_move: Some(c6),
            marks: &Marks::default(),
            ..diagram(&board, &marks)
        });
        let last = &svg_black[svg_black.find("class=\"last\"").unwrap()..];
        assert!(last[..last.find("/>").unwrap()].contains("fill=\"#fff\""));

        let svg = svg(&GoDiagram {
            last_move: Some(c6),
            ..diagram(&board, &marks)
        });
        // The triangle replaces the last-move dot on a marked point.
        assert!(!svg.contains("class=\"last\""));
        let marks_group = &svg[svg.find("class=\"marks\"").unwrap()..];
        assert_eq!(count(marks_group, "<path stroke=\"#fff\""), 1);
        assert_eq!(
            count(marks_group, &format!("<path stroke=\"{DARK_INK}\"")),
            2
        );
        // The label on an empty point clears the grid under it first.
        let (x, y) = (M, M + 8 * CELL);
        assert!(marks_group.contains(&format!(
            "<circle cx=\"{x}\" cy=\"{y}\" r=\"38\" fill=\"{WOOD}\"/><text x=\"{x}\" y=\"{y}\""
        )));
    }

    #[test]
    fn every_size_renders_and_views_are_clamped() {
        let marks = Marks::default();
        for size in 2..=25 {
            let board = Board::new(size).unwrap();
            let svg = svg(&diagram(&board, &marks));
            assert_eq!(
                count(group(&svg, "class=\"coords\""), "<text"),
                4 * size as usize
            );
        }
        let board = Board::new(9).unwrap();
        let link = |p: Point| p.sgf();
        let svg = svg(&GoDiagram {
            view: Some((Point::new(6, 6), Point::new(30, 30))),
            link: Some(&link),
            ..diagram(&board, &marks)
        });
        assert_eq!(count(&svg, "class=\"pt\""), 9);
        assert!(svg.contains("data-p=\"J1\"") && svg.contains("data-p=\"G3\""));
    }
}

