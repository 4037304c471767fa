//! The xiangqi board (中国象棋) as SVG: the 9×10 points with the river (楚河 汉界), the
//! palaces' diagonals, the marks at the cannons' and soldiers' points, round pieces with
//! their characters, coordinates, move hints, arrows and marks.
//!
//! The pieces are written in simplified characters: red 帅 仕 相 车 马 炮 兵, black 将 士 象
//! 车 马 炮 卒. Our learners read simplified Chinese; the forms on many wooden sets and in
//! older books (帥 俥 傌 車 馬 將 砲) are the traditional variants of the same characters,
//! which a beginner may not recognise. The rules engine reads both.
//!
//! As for [`super::chess`], everything is drawn in whole drawing units: points are
//! [`CELL`] = 100 units apart, the `viewBox` covers the board and its margins, and the SVG has
//! `width="100%"`, so it scales to a phone's width. No gradients, filters, ids or external
//! files are used, so any number of boards can share one page.
//!
//! Coordinates are written as each side counts: along Red's side its files 九 … 一 (from
//! Red's left), along Black's side Black's files 1 … 9 (from Black's right, which is Red's
//! left), and for the learner who uses ICCS the letters `a`–`i` under the board and the
//! ranks `0`–`9` up its left side. Red sits at the bottom unless [`XiangqiDiagram::flipped`],
//! which turns the whole board round (Black at the bottom, `i9` at the bottom left).
//!
//! ```text
//!   1  2  3  4  5  6  7  8  9      Black's files
//! 9 车-马-象-士-将-士-象-马-车
//!   …        palace ╳
//! 0 车-马-相-仕-帅-仕-相-马-车
//!   九 八 七 六 五 四 三 二 一      Red's files
//!   a  b  c  d  e  f  g  h  i      ICCS
//! ```

use super::svg::{
    arrows, close_heat, escape, halo, heat_cell, hints, marked, marks, open_heat, open_svg, tints,
    Heat, FONT, F_CHECK, F_DOT, F_HIGHLIGHT, F_LAST, F_MARK, F_SELECTED, TINT_HIGHLIGHT, TINT_LAST,
    TINT_SELECTED,
};
use super::Marks;
use crate::lang::Lang;
use crate::rules::xiangqi::{Color, Kind, Point};
use std::fmt::Write;

/// What to draw: a position and everything shown on it.
pub struct XiangqiDiagram<'a> {
    /// The pieces, as [`Position::pieces`](crate::rules::xiangqi::Position::pieces) lists
    /// them. A later piece on the same point replaces an earlier one.
    pub pieces: &'a [(Point, Color, Kind)],
    /// Black at the bottom when true.
    pub flipped: bool,
    /// The last move, from and to: both points are tinted.
    pub last_move: Option<(Point, Point)>,
    /// A king in check: a red halo on that point.
    pub check: Option<Point>,
    /// The piece the learner picked up: its point is tinted more strongly.
    pub selected: Option<Point>,
    /// Legal destinations: small dots on empty points, rings on occupied ones.
    pub dots: &'a [Point],
    /// Points shaded by the author.
    pub highlight: &'a [Point],
    /// Arrows from point to point.
    pub arrows: &'a [(Point, Point)],
    /// Triangles, squares, circles, crosses and labels.
    pub marks: &'a Marks<Point>,
    /// When set, every point becomes a link to this address (play without JavaScript).
    pub link: Option<&'a dyn Fn(Point) -> String>,
    /// A heat map of answers by ICCS point name (`e4`), drawn over every point it counts.
    pub heat: Option<&'a Heat>,
    /// Language of accessible names.
    pub lang: Lang,
    /// What the picture shows, for screen readers.
    pub title: &'a str,
}

/// Drawing units between two neighbouring points.
pub const CELL: i32 = 100;
/// The top-left point's place in the picture.
const GX: i32 = 100;
const GY: i32 = 100;
/// Width and height of the whole picture.
const WIDTH: i32 = 2 * GX + 8 * CELL;
const HEIGHT: i32 = GY + 9 * CELL + 150;
/// Radius of a piece.
const PIECE_R: i32 = 44;

const WOOD: &str = "#f1d39a";
const WOOD_EDGE: &str = "#a7773c";
const LINE: &str = "#5a3b17";
const INK: &str = "#4a3010";
const RED_INK: &str = "#c1121f";
const BLACK_INK: &str = "#1a1a1a";
const PIECE_BODY: &str = "fill=\"#fcefd2\" stroke=\"#8a6a3a\" stroke-width=\"3\"";
const CJK: &str = "font-family=\"'Noto Serif CJK SC','Noto Sans CJK SC','Source Han Serif SC',\
                   'Songti SC','SimSun',serif\"";

/// The ICCS name of a point, such as `h2`.
pub fn point_name(p: Point) -> String {
    p.to_string()
}

/// Column (0 at the left) and row (0 at the top) of a point in the picture.
fn cell(p: Point, flipped: bool) -> (i32, i32) {
    let (file, rank) = (p.file() as i32, p.rank() as i32);
    if flipped {
        (8 - file, rank)
    } else {
        (file, 9 - rank)
    }
}

/// The centre of a point in the picture.
fn centre(p: Point, flipped: bool) -> (i32, i32) {
    let (col, row) = cell(p, flipped);
    (GX + col * CELL, GY + row * CELL)
}

/// The point at column `col` and row `row` of the picture.
fn point_at(col: i32, row: i32, flipped: bool) -> Option<Point> {
    let (file, rank) = if flipped {
        (8 - col, row)
    } else {
        (col, 9 - row)
    };
    Point::new(file as i8, rank as i8)
}

/// Red's file numerals, 一 (file `i`) to 九 (file `a`).
const RED_FILES: [char; 9] = ['一', '二', '三', '四', '五', '六', '七', '八', '九'];

/// The cross-marks (炮位, 兵位) round the points where cannons and soldiers start: short
/// corners in each quarter that is on the board.
fn cross_marks(out: &mut String, flipped: bool) {
    let (gap, arm) = (8, 18);
    for (file, rank) in [(1, 2), (7, 2), (1, 7), (7, 7)]
        .into_iter()
        .chain([0, 2, 4, 6, 8].into_iter().flat_map(|f| [(f, 3), (f, 6)]))
    {
        let Some(p) = Point::new(file, rank) else {
            continue;
        };
        let (x, y) = centre(p, flipped);
        for (sx, sy) in [(-1, -1), (1, -1), (-1, 1), (1, 1)] {
            let cx = x + sx * gap;
            if !(GX..=GX + 8 * CELL).contains(&cx) {
                continue;
            }
            let _ = write!(
                out,
                "M{} {}H{cx}V{}",
                cx + sx * arm,
                y + sy * gap,
                y + sy * (gap + arm)
            );
        }
    }
}

/// Draws `diagram` as an inline SVG element.
///
/// The root is `<svg class="xiangqi" … width="100%">` with `role="img"`, or `role="group"`
/// when [`XiangqiDiagram::link`] is set; then every point is an
/// `<a class="pt" data-p="h2" aria-label="红炮 h2">` over a transparent square.
///
/// ```
/// use qiyuan::lang::Lang;
/// use qiyuan::render::{xiangqi, Marks};
/// use qiyuan::rules::xiangqi::Position;
///
/// let (pos, mv) = Position::start().play("h2e2").unwrap();
/// let marks = Marks::default();
/// let link = |p| format!("/xiangqi?p={}", xiangqi::point_name(p));
/// let pieces = pos.pieces();
/// let svg = xiangqi::svg(&xiangqi::XiangqiDiagram {
///     pieces: &pieces,
///     flipped: false,
///     last_move: Some((mv.from, mv.to)),
///     check: None,
///     selected: None,
///     dots: &[],
///     highlight: &[],
///     arrows: &[],
///     marks: &marks,
///     link: Some(&link),
///     heat: None,
///     lang: Lang::En,
///     title: "炮二平五",
/// });
/// assert!(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"xiangqi\""));
/// assert!(svg.contains("aria-label=\"red cannon e2, last move\""));
/// assert!(svg.contains(">楚</text>") && svg.contains(">汉</text>"));
/// ```
pub fn svg(d: &XiangqiDiagram) -> String {
    let flipped = d.flipped;
    let mut out = String::with_capacity(16000 + if d.link.is_some() { 90 * 190 } else { 0 });

    let mut board: [Option<(Color, Kind)>; 90] = [None; 90];
    for &(p, color, kind) in d.pieces {
        board[p.index()] = Some((color, kind));
    }
    let mut flags = [0u8; 90];
    let mut flag = |p: Point, f: u8| flags[p.index()] |= f;
    if let Some(p) = d.selected {
        flag(p, F_SELECTED);
    }
    for &p in d.dots {
        flag(p, F_DOT);
    }
    if let Some((from, to)) = d.last_move {
        flag(from, F_LAST);
        flag(to, F_LAST);
    }
    if let Some(p) = d.check {
        flag(p, F_CHECK);
    }
    for &p in d.highlight {
        flag(p, F_HIGHLIGHT);
    }
    for &p in marked(d.marks) {
        flag(p, F_MARK);
    }

    open_svg(
        &mut out,
        "xiangqi",
        WIDTH,
        HEIGHT,
        d.link.is_some(),
        d.title,
    );

    // The wooden board and the thick frame of the outer lines.
    let (w, h) = (8 * CELL, 9 * CELL);
    let _ = write!(
        out,
        "<rect x=\"1.5\" y=\"1.5\" width=\"{}\" height=\"{}\" rx=\"14\" fill=\"{WOOD}\" \
         stroke=\"{WOOD_EDGE}\" stroke-width=\"3\"/>\
         <rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"none\" stroke=\"{LINE}\" \
         stroke-width=\"6\"/>",
        WIDTH - 3,
        HEIGHT - 3,
        GX,
        GY,
        w,
        h
    );

    // Tints under the lines, weakest first.
    let at = |p: Point| Some(centre(p, flipped));
    let half = (CELL / 2 - 4, CELL / 2 - 4);
    tints(&mut out, "highlight", TINT_HIGHLIGHT, d.highlight, at, half);
    if let Some((from, to)) = d.last_move {
        tints(&mut out, "last", TINT_LAST, &[from, to], at, half);
    }
    if let Some(p) = d.selected {
        tints(&mut out, "selected", TINT_SELECTED, &[p], at, half);
    }

    // The lines: ten ranks across, the two edge files whole, the seven inner files broken
    // by the river, the palaces' diagonals, and the cannons' and soldiers' marks.
    let _ = write!(
        out,
        "<g class=\"lines\" stroke=\"{LINE}\" fill=\"none\"><path stroke-width=\"3\" d=\""
    );
    for row in 0..10 {
        let _ = write!(out, "M{GX} {}h{w}", GY + row * CELL);
    }
    let _ = write!(out, "M{GX} {GY}v{h}M{} {GY}v{h}", GX + w);
    for col in 1..8 {
        let x = GX + col * CELL;
        let _ = write!(
            out,
            "M{x} {GY}v{}M{x} {}v{}",
            4 * CELL,
            GY + 5 * CELL,
            4 * CELL
        );
    }
    for top in [0, 7] {
        let (x0, y0) = (GX + 3 * CELL, GY + top * CELL);
        let _ = write!(
            out,
            "M{x0} {y0}l{d} {d}M{} {y0}l-{d} {d}",
            x0 + 2 * CELL,
            d = 2 * CELL
        );
    }
    out.push_str("\"/><path class=\"cross-marks\" stroke-width=\"3\" d=\"");
    cross_marks(&mut out, flipped);
    out.push_str("\"/></g>");

    // The river: 楚河 on the left half, 汉界 on the right, upright for the learner.
    let river_y = GY + 4 * CELL + CELL / 2;
    let _ = write!(
        out,
        "<g class=\"river\" {CJK} font-size=\"60\" fill=\"{INK}\" text-anchor=\"middle\">"
    );
    for (i, glyph) in ['楚', '河', '汉', '界'].into_iter().enumerate() {
        let x = GX + [CELL, 2 * CELL, 6 * CELL, 7 * CELL][i];
        let _ = write!(
            out,
            "<text x=\"{x}\" y=\"{river_y}\" dy=\".35em\">{glyph}</text>"
        );
    }
    out.push_str("</g>");

    // Coordinates: each side's file numbers along its own edge, ICCS letters at the
    // bottom and ranks at the left.
    let _ = write!(
        out,
        "<g class=\"coords\" {CJK} font-size=\"34\" fill=\"{INK}\" text-anchor=\"middle\">"
    );
    let (top_y, bottom_y) = (GY - 72, GY + h + 72);
    for col in 0..9 {
        let Some(p) = point_at(col, 0, flipped) else {
            continue;
        };
        let x = GX + col * CELL;
        let red = RED_FILES[(p.file_number(Color::Red) as usize).clamp(1, 9) - 1];
        let black = p.file_number(Color::Black);
        let (top, bottom) = if flipped {
            (red.to_string(), black.to_string())
        } else {
            (black.to_string(), red.to_string())
        };
        let _ = write!(
            out,
            "<text x=\"{x}\" y=\"{top_y}\" dy=\".35em\">{top}</text>\
             <text x=\"{x}\" y=\"{bottom_y}\" dy=\".35em\">{bottom}</text>"
        );
    }
    let _ = write!(
        out,
        "</g><g class=\"iccs\" {FONT} font-size=\"26\" fill=\"{INK}\" text-anchor=\"middle\">"
    );
    for col in 0..9 {
        if let Some(p) = point_at(col, 0, flipped) {
            let _ = write!(
                out,
                "<text x=\"{}\" y=\"{}\" dy=\".35em\">{}</text>",
                GX + col * CELL,
                bottom_y + 44,
                (b'a' + p.file() as u8) as char
            );
        }
    }
    for row in 0..10 {
        if let Some(p) = point_at(0, row, flipped) {
            let _ = write!(
                out,
                "<text x=\"{}\" y=\"{}\" dy=\".35em\">{}</text>",
                GX - 74,
                GY + row * CELL,
                p.rank()
            );
        }
    }
    out.push_str("</g>");

    if let Some((x, y)) = d.check.and_then(at) {
        halo(&mut out, x, y, PIECE_R + 6);
    }

    // Pieces: the discs, then each side's rings and characters in its colour.
    let mut discs = String::new();
    let mut sides = [String::new(), String::new()];
    for p in Point::all() {
        let Some((color, kind)) = board[p.index()] else {
            continue;
        };
        let (x, y) = centre(p, flipped);
        let _ = write!(discs, "<circle cx=\"{x}\" cy=\"{y}\" r=\"{PIECE_R}\"/>");
        let _ = write!(
            sides[color.index()],
            "<circle cx=\"{x}\" cy=\"{y}\" r=\"{}\" fill=\"none\"/>\
             <text x=\"{x}\" y=\"{y}\" dy=\".35em\" stroke=\"none\">{}</text>",
            PIECE_R - 7,
            kind.hanzi(color)
        );
    }
    let _ = write!(
        out,
        "<g class=\"pieces\" {PIECE_BODY}>{discs}</g>\
         <g class=\"red-pieces\" {CJK} font-size=\"50\" font-weight=\"bold\" \
         text-anchor=\"middle\" fill=\"{RED_INK}\" stroke=\"{RED_INK}\" stroke-width=\"2.5\">{}</g>\
         <g class=\"black-pieces\" {CJK} font-size=\"50\" font-weight=\"bold\" \
         text-anchor=\"middle\" fill=\"{BLACK_INK}\" stroke=\"{BLACK_INK}\" \
         stroke-width=\"2.5\">{}</g>",
        sides[0], sides[1]
    );

    let occupied = |p: Point| board[p.index()].is_some();
    hints(&mut out, d.dots, at, occupied);
    marks(&mut out, d.marks, at, occupied, WOOD);
    arrows(&mut out, d.arrows, at);
    out.push_str("</g>");

    // Links in reading order (top row first, left to right) whichever side is at the
    // bottom; the outer ones reach the picture's edge.
    if let Some(link) = d.link {
        out.push_str("<g class=\"points\" fill=\"transparent\" pointer-events=\"visible\">");
        for row in 0..10 {
            for col in 0..9 {
                let Some(p) = point_at(col, row, flipped) else {
                    continue;
                };
                let (x, y) = centre(p, flipped);
                let x0 = if col == 0 { 0 } else { x - CELL / 2 };
                let y0 = if row == 0 { 0 } else { y - CELL / 2 };
                let x1 = if col == 8 { WIDTH } else { x + CELL / 2 };
                let y1 = if row == 9 { HEIGHT } else { y + CELL / 2 };
                let _ = write!(
                    out,
                    "<a href=\"{}\" class=\"pt\" data-p=\"{p}\" aria-label=\"{}\">\
                     <rect x=\"{x0}\" y=\"{y0}\" width=\"{}\" height=\"{}\"/></a>",
                    escape(&link(p)),
                    accessible(d.lang, p, board[p.index()], flags[p.index()]),
                    x1 - x0,
                    y1 - y0
                );
            }
        }
        out.push_str("</g>");
    }
    // Heat: a cell round each point it counts, in the same reading order.
    if let Some(heat) = d.heat {
        open_heat(&mut out);
        for row in 0..10 {
            for col in 0..9 {
                let Some(p) = point_at(col, row, flipped) else {
                    continue;
                };
                let (x, y) = centre(p, flipped);
                let half = (CELL / 2) as f64;
                let rect = (x as f64 - half, y as f64 - half, CELL as f64, CELL as f64);
                heat_cell(&mut out, heat, &point_name(p), rect);
            }
        }
        close_heat(&mut out);
    }
    out.push_str("</svg>");
    out
}

/// The name of a piece for a screen reader: 红炮, black horse.
pub fn piece_name(lang: Lang, color: Color, kind: Kind) -> String {
    match lang {
        Lang::Zh => format!(
            "{}{}",
            if color == Color::Red { '红' } else { '黑' },
            kind.hanzi(color)
        ),
        Lang::En => format!("{} {}", color.as_str(), kind.name(color, lang)),
    }
}

/// What a screen reader says for a point: the piece (or that it is empty), the point's
/// ICCS name, then extras: `红炮 h2，上一步`, `empty e4, legal move`.
fn accessible(lang: Lang, p: Point, piece: Option<(Color, Kind)>, flags: u8) -> String {
    let (sep, empty, extras) = match lang {
        Lang::En => (
            ", ",
            "empty",
            [
                "selected",
                "legal move",
                "last move",
                "in check",
                "highlighted",
                "marked",
            ],
        ),
        Lang::Zh => (
            "，",
            "空",
            ["已选", "可走", "上一步", "被将军", "高亮", "有标记"],
        ),
    };
    let mut out = match piece {
        Some((color, kind)) => piece_name(lang, color, kind),
        None => empty.to_string(),
    };
    let _ = write!(out, " {p}");
    for (f, word) in [F_SELECTED, F_DOT, F_LAST, F_CHECK, F_HIGHLIGHT, F_MARK]
        .into_iter()
        .zip(extras)
    {
        if flags & f != 0 {
            out.push_str(sep);
            out.push_str(word);
        }
    }
    out
}

#[cfg(test)]
#[path = "xiangqi_tests.rs"]
mod tests;
