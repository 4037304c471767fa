//! The chessboard as SVG: squares, coordinates, pieces, move hints, arrows and marks.
//!
//! Inputs are plain data (squares as `(file, rank)` pairs and pieces as FEN letters), so
//! this module does not depend on any chess engine. As for [`super::go`], everything is
//! drawn in whole drawing units: a square is [`CELL`] = 100 units, the `viewBox` covers the
//! board and its frame, and the SVG has `width="100%"`, so the page decides how large it
//! appears. No gradients, filters, ids or external files are used, so any number of boards
//! can share one page.
//!
//! The pieces are drawn here as simple silhouettes (one path each, plus a path of inner
//! lines), white ones light with dark lines and black ones dark with light lines.
//!
//! The overlay helpers (tints, check halo, dots, arrows, marks) are shared with
//! [`super::shogi`].

use super::svg::{
    arrows, close_heat, escape, halo, heat_cell, hints, marked, marks, open_heat, open_svg, tints,
    Heat, FONT, F_CHECK, F_DOT, F_HIGHLIGHT, F_LAST, F_MARK, F_SELECTED, TINT_HIGHLIGHT, TINT_LAST,
    TINT_SELECTED,
};
use super::Marks;
use crate::lang::Lang;
use std::fmt::Write;

/// A square: file 0..8 = a..h, rank 0..8 = 1..8.
pub type Sq = (u8, u8);

/// What to draw: a position and everything shown on it.
pub struct ChessDiagram<'a> {
    /// Pieces as FEN letters: 'K','Q','R','B','N','P' white; lowercase black.
    pub pieces: &'a [(Sq, char)],
    /// Black at the bottom when true.
    pub flipped: bool,
    /// The last move, from and to: both squares are tinted.
    pub last_move: Option<(Sq, Sq)>,
    /// A king in check: a red halo on that square.
    pub check: Option<Sq>,
    /// The piece the learner picked up: its square is tinted more strongly.
    pub selected: Option<Sq>,
    /// Legal destinations: small dots on empty squares, rings on occupied ones.
    pub dots: &'a [Sq],
    /// Squares shaded by the author.
    pub highlight: &'a [Sq],
    /// Arrows from square to square.
    pub arrows: &'a [(Sq, Sq)],
    /// Triangles, squares, circles, crosses and labels.
    pub marks: &'a Marks<Sq>,
    /// When set, every square becomes a link to this address.
    pub link: Option<&'a dyn Fn(Sq) -> String>,
    /// A heat map of answers, drawn over every square that it counts.
    pub heat: Option<&'a Heat>,
    /// Language of accessible names.
    pub lang: Lang,
    /// What the picture shows, for screen readers.
    pub title: &'a str,
}

/// Drawing units per square.
pub const CELL: i32 = 100;
/// Width of the frame around the squares, where the coordinates are.
const FRAME: i32 = 40;
/// Width and height of the whole picture.
const SIDE: i32 = 2 * FRAME + 8 * CELL;

const FRAME_FILL: &str = "#6b4a2f";
const FRAME_EDGE: &str = "#4a3220";
const COORD_INK: &str = "#f1dfc0";
const LIGHT: &str = "#f0dcb8";
const DARK: &str = "#b5835a";

/// White pieces: body, then inner lines.
const WHITE_BODY: &str =
    "fill=\"#fbf8f1\" stroke=\"#2b2520\" stroke-width=\"3.4\" stroke-linejoin=\"round\"";
const WHITE_LINES: &str =
    "fill=\"none\" stroke=\"#2b2520\" stroke-width=\"3\" stroke-linecap=\"round\"";
/// Black pieces: body, then inner lines.
const BLACK_BODY: &str =
    "fill=\"#2a2521\" stroke=\"#120f0c\" stroke-width=\"3.4\" stroke-linejoin=\"round\"";
const BLACK_LINES: &str =
    "fill=\"none\" stroke=\"#eae3d6\" stroke-width=\"3\" stroke-linecap=\"round\"";

/// Each piece in a 100×100 square (origin at the top left): the silhouette, then the
/// inner lines. Order: K Q R B N P.
const SHAPES: [(char, &str, &str); 6] = [
    (
        'K',
        "M25.4 91.4H74.6V83.6H25.4ZM31 83.6L34.3 70.2C20.9 63.4 16.4 50 25.4 43.3C34.3 36.6 \
         45.5 43.3 50 50C54.5 43.3 65.7 36.6 74.6 43.3C83.6 50 79.1 63.4 65.7 70.2L69 83.6Z\
         M46.1 48.9V28.7H38.8V22H46.1V11.9H53.9V22H61.2V28.7H53.9V48.9Z",
        "M34.3 70.2H65.7M31 83.6H69",
    ),
    (
        'Q',
        "M25.4 91.4H74.6V83.6H25.4ZM31 83.6L34.3 72.4L16.4 36.6L34.3 56.7L33.2 27.6L45.5 54.5\
         L50 23.1L54.5 54.5L66.8 27.6L65.7 56.7L83.6 36.6L65.7 72.4L69 83.6Z\
         M11.4 32.1a5 5 0 1 0 10.1 0a5 5 0 1 0-10.1 0ZM28.2 23.1a5 5 0 1 0 10.1 0a5 5 0 1 0\
         -10.1 0ZM45 18.6a5 5 0 1 0 10.1 0a5 5 0 1 0-10.1 0ZM61.8 23.1a5 5 0 1 0 10.1 0\
         a5 5 0 1 0-10.1 0ZM78.6 32.1a5 5 0 1 0 10.1 0a5 5 0 1 0-10.1 0Z",
        "M34.3 72.4H65.7M31 83.6H69",
    ),
    (
        'R',
        "M24.2 91.4H75.8V82.5H24.2ZM31 82.5H69L64.6 46.6H35.4ZM28.7 46.6H71.3V22H62.3V28.7\
         H55.6V22H44.4V28.7H37.7V22H28.7Z",
        "M32.1 82.5H67.9M35.4 46.6H64.6",
    ),
    (
        'B',
        "M25.4 91.4H74.6V83.6H25.4ZM32.1 83.6Q38.8 76.9 41 67.9H59Q61.2 76.9 67.9 83.6Z\
         M36.6 67.9Q50 72.4 63.4 67.9L61.2 61.2Q50 63.4 38.8 61.2ZM38.8 61.2C27.6 50 32.1 \
         36.6 50 20.9C67.9 36.6 72.4 50 61.2 61.2Q50 63.4 38.8 61.2Z\
         M44.4 15.8a5.6 5.6 0 1 0 11.2 0a5.6 5.6 0 1 0-11.2 0Z",
        "M56.7 34.3L47.8 45.5M32.1 83.6H67.9",
    ),
    (
        'N',
        "M25.4 91.4H76.9V83.6H25.4ZM32.1 83.6C34.3 72.4 41 67.9 43.3 61.2C36.6 61.2 27.6 \
         63.4 20.9 59C14.2 55.6 11.9 50 15.3 45.5L32.1 23.1L36.6 9.7L45.5 18.6C63.4 20.9 \
         76.9 38.8 76.9 61.2L74.6 83.6Z",
        "M33.2 32.1h.1M18.6 48.9h.1M47.8 20.9C63.4 27.6 70.2 43.3 70.2 67.9M29.8 83.6H72.4",
    ),
    (
        'P',
        "M28.7 90.3H71.3Q73.5 81.4 65.7 75.8Q56.7 70.2 55.6 54.5H44.4Q43.3 70.2 34.3 75.8\
         Q26.5 81.4 28.7 90.3ZM38.8 54.5H61.2Q65.7 50 60.1 45.5H39.9Q34.3 50 38.8 54.5Z\
         M35.4 31a14.6 14.6 0 1 0 29.1 0a14.6 14.6 0 1 0-29.1 0Z",
        "M39.9 54.5H60.1",
    ),
];

/// One piece alone (`Q`; lowercase for Black's), as a small inline SVG labelled `label` for
/// screen readers: the pictures a promotion is chosen from.
pub fn piece_svg(letter: char, label: &str) -> String {
    let Some((silhouette, inner, white)) = shape(letter) else {
        return String::new();
    };
    let (body, lines) = if white {
        (WHITE_BODY, WHITE_LINES)
    } else {
        (BLACK_BODY, BLACK_LINES)
    };
    format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"piece\" viewBox=\"0 0 100 100\" \
         width=\"56\" height=\"56\" role=\"img\" aria-label=\"{}\"><path {body} d=\"{silhouette}\"/>\
         <path {lines} d=\"{inner}\"/></svg>",
        crate::render::escape(label)
    )
}

/// The name of a square, such as `e4`.
pub fn square_name(sq: Sq) -> String {
    let mut name = String::with_capacity(2);
    name.push((b'a' + sq.0) as char);
    name.push((b'1' + sq.1) as char);
    name
}

fn on_board(sq: Sq) -> bool {
    sq.0 < 8 && sq.1 < 8
}

/// The top-left corner of a square in the picture.
fn corner(sq: Sq, flipped: bool) -> (i32, i32) {
    let (col, row) = if flipped {
        (7 - sq.0, sq.1)
    } else {
        (sq.0, 7 - sq.1)
    };
    (FRAME + col as i32 * CELL, FRAME + row as i32 * CELL)
}

/// The centre of a square in the picture, or `None` off the board.
fn centre(sq: Sq, flipped: bool) -> Option<(i32, i32)> {
    on_board(sq).then(|| {
        let (x, y) = corner(sq, flipped);
        (x + CELL / 2, y + CELL / 2)
    })
}

/// The shape of a piece (`K Q R B N P`, either case), and whether it is white.
fn shape(letter: char) -> Option<(&'static str, &'static str, bool)> {
    let upper = letter.to_ascii_uppercase();
    SHAPES
        .iter()
        .find(|s| s.0 == upper)
        .map(|s| (s.1, s.2, letter.is_ascii_uppercase()))
}

/// Draws `diagram` as an inline SVG element.
///
/// The root is `<svg class="chessboard" … width="100%">` with `role="img"`, or
/// `role="group"` when [`ChessDiagram::link`] is set; then every square is an
/// `<a class="pt" data-p="e4" aria-label="e4, white knight">` over a transparent square.
///
/// ```
/// use qiyuan::lang::Lang;
/// use qiyuan::render::{chess, Marks};
///
/// let marks = Marks::default();
/// let link = |sq: chess::Sq| format!("/chess?sq={}", chess::square_name(sq));
/// let svg = chess::svg(&chess::ChessDiagram {
///     pieces: &[((4, 0), 'K'), ((4, 7), 'k'), ((6, 2), 'N')],
///     flipped: false,
///     last_move: Some(((6, 0), (6, 2))),
///     check: None,
///     selected: None,
///     dots: &[],
///     highlight: &[],
///     arrows: &[],
///     marks: &marks,
///     link: Some(&link),
///     heat: None,
///     lang: Lang::En,
///     title: "Knight to g3",
/// });
/// assert!(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chessboard\""));
/// assert!(svg.contains("aria-label=\"g3, white knight, last move\""));
/// ```
pub fn svg(d: &ChessDiagram) -> String {
    let flipped = d.flipped;
    let mut out = String::with_capacity(9000 + if d.link.is_some() { 64 * 190 } else { 0 });

    // What is on each square, for rings and accessible names.
    let mut board: [[Option<char>; 8]; 8] = [[None; 8]; 8];
    for &(sq, letter) in d.pieces {
        if on_board(sq) && shape(letter).is_some() {
            board[sq.0 as usize][sq.1 as usize] = Some(letter);
        }
    }
    let piece_at = |sq: Sq| {
        if on_board(sq) {
            board[sq.0 as usize][sq.1 as usize]
        } else {
            None
        }
    };
    let mut flags = [[0u8; 8]; 8];
    let mut flag = |sq: Sq, f: u8| {
        if on_board(sq) {
            flags[sq.0 as usize][sq.1 as usize] |= f;
        }
    };
    if let Some(sq) = d.selected {
        flag(sq, F_SELECTED);
    }
    for &sq in d.dots {
        flag(sq, F_DOT);
    }
    if let Some((from, to)) = d.last_move {
        flag(from, F_LAST);
        flag(to, F_LAST);
    }
    if let Some(sq) = d.check {
        flag(sq, F_CHECK);
    }
    for &sq in d.highlight {
        flag(sq, F_HIGHLIGHT);
    }
    for &sq in marked(d.marks) {
        flag(sq, F_MARK);
    }

    open_svg(
        &mut out,
        "chessboard",
        SIDE,
        SIDE,
        d.link.is_some(),
        d.title,
    );

    // Frame and squares: the light colour under the whole board, then the dark squares.
    let _ = write!(
        out,
        "<rect x=\"1.5\" y=\"1.5\" width=\"{w}\" height=\"{w}\" rx=\"10\" fill=\"{FRAME_FILL}\" \
         stroke=\"{FRAME_EDGE}\" stroke-width=\"3\"/>\
         <rect x=\"{FRAME}\" y=\"{FRAME}\" width=\"{b}\" height=\"{b}\" fill=\"{LIGHT}\"/>\
         <path fill=\"{DARK}\" d=\"",
        w = SIDE - 3,
        b = 8 * CELL
    );
    for file in 0..8u8 {
        for rank in 0..8u8 {
            if (file + rank) % 2 == 0 {
                let (x, y) = corner((file, rank), flipped);
                let _ = write!(out, "M{x} {y}h100v100h-100z");
            }
        }
    }
    out.push_str("\"/>");

    // Coordinates: ranks down the left side, files along the bottom.
    let _ = write!(
        out,
        "<g class=\"coords\" {FONT} font-size=\"30\" font-weight=\"bold\" fill=\"{COORD_INK}\" \
         text-anchor=\"middle\">"
    );
    for i in 0..8u8 {
        let (x, _) = corner((i, 0), flipped);
        let _ = write!(
            out,
            "<text x=\"{}\" y=\"{}\" dy=\".35em\">{}</text>",
            x + CELL / 2,
            SIDE - FRAME / 2,
            (b'a' + i) as char
        );
        let (_, y) = corner((0, i), flipped);
        let _ = write!(
            out,
            "<text x=\"{}\" y=\"{}\" dy=\".35em\">{}</text>",
            FRAME / 2,
            y + CELL / 2,
            i + 1
        );
    }
    out.push_str("</g>");

    // Tints, weakest first so that the stronger ones show on top.
    let at = |sq: Sq| centre(sq, flipped);
    let half = (CELL / 2, CELL / 2);
    tints(&mut out, "highlight", TINT_HIGHLIGHT, d.highlight, at, half);
    if let Some((from, to)) = d.last_move {
        tints(&mut out, "last", TINT_LAST, &[from, to], at, half);
    }
    if let Some(sq) = d.selected {
        tints(&mut out, "selected", TINT_SELECTED, &[sq], at, half);
    }
    if let Some((x, y)) = d.check.and_then(at) {
        halo(&mut out, x, y, 48);
    }

    // Pieces, in four layers: bodies and lines of white, then of black.
    for (white, body, lines) in [
        (true, WHITE_BODY, WHITE_LINES),
        (false, BLACK_BODY, BLACK_LINES),
    ] {
        for (layer, style) in [("body", body), ("lines", lines)] {
            let _ = write!(
                out,
                "<g class=\"{}-{layer}\" {style}>",
                if white { "white" } else { "black" }
            );
            for file in 0..8u8 {
                for rank in 0..8u8 {
                    let Some((silhouette, inner, is_white)) =
                        board[file as usize][rank as usize].and_then(shape)
                    else {
                        continue;
                    };
                    if is_white != white {
                        continue;
                    }
                    let (x, y) = corner((file, rank), flipped);
                    let _ = write!(
                        out,
                        "<path transform=\"translate({x} {y})\" d=\"{}\"/>",
                        if layer == "body" { silhouette } else { inner }
                    );
                }
            }
            out.push_str("</g>");
        }
    }

    let occupied = |sq: Sq| piece_at(sq).is_some();
    hints(&mut out, d.dots, at, occupied);
    marks(&mut out, d.marks, at, occupied, LIGHT);
    arrows(&mut out, d.arrows, at);
    out.push_str("</g>");

    // Links: a transparent square over every square, reaching the picture's edge at the
    // sides, in reading order (top row first, left to right) whichever side is at the bottom.
    if let Some(link) = d.link {
        out.push_str("<g class=\"points\" fill=\"transparent\" pointer-events=\"visible\">");
        for row in 0..8u8 {
            for col in 0..8u8 {
                let sq = if flipped {
                    (7 - col, row)
                } else {
                    (col, 7 - row)
                };
                let (file, rank) = sq;
                let (x, y) = corner(sq, flipped);
                let x0 = if x == FRAME { 0 } else { x };
                let y0 = if y == FRAME { 0 } else { y };
                let x1 = if x + CELL == SIDE - FRAME {
                    SIDE
                } else {
                    x + CELL
                };
                let y1 = if y + CELL == SIDE - FRAME {
                    SIDE
                } else {
                    y + CELL
                };
                let name = square_name(sq);
                let _ = write!(
                    out,
                    "<a href=\"{}\" class=\"pt\" data-p=\"{name}\" aria-label=\"{name}{}\">\
                     <rect x=\"{x0}\" y=\"{y0}\" width=\"{}\" height=\"{}\"/></a>",
                    escape(&link(sq)),
                    accessible(d.lang, piece_at(sq), flags[file as usize][rank as usize]),
                    x1 - x0,
                    y1 - y0
                );
            }
        }
        out.push_str("</g>");
    }
    // Heat: a cell on each square it counts, in the same reading order.
    if let Some(heat) = d.heat {
        open_heat(&mut out);
        for row in 0..8u8 {
            for col in 0..8u8 {
                let sq = if flipped {
                    (7 - col, row)
                } else {
                    (col, 7 - row)
                };
                let (x, y) = corner(sq, flipped);
                let rect = (x as f64, y as f64, CELL as f64, CELL as f64);
                heat_cell(&mut out, heat, &square_name(sq), rect);
            }
        }
        close_heat(&mut out);
    }
    out.push_str("</svg>");
    out
}

/// What a screen reader says after a square's name: the piece, then extras.
fn accessible(lang: Lang, piece: Option<char>, flags: u8) -> String {
    let (sep, extras) = match lang {
        Lang::En => (
            ", ",
            [
                "selected",
                "legal move",
                "last move",
                "in check",
                "highlighted",
                "marked",
            ],
        ),
        Lang::Zh => ("，", ["已选", "可走", "上一步", "被将军", "高亮", "有标记"]),
    };
    let mut out = String::from(sep);
    match piece {
        None => out.push_str(match lang {
            Lang::En => "empty",
            Lang::Zh => "空格",
        }),
        Some(letter) => {
            let white = letter.is_ascii_uppercase();
            let i = "KQRBNP".find(letter.to_ascii_uppercase()).unwrap_or(5);
            match lang {
                Lang::En => {
                    out.push_str(if white { "white " } else { "black " });
                    out.push_str(["king", "queen", "rook", "bishop", "knight", "pawn"][i]);
                }
                Lang::Zh => {
                    out.push(if white { '白' } else { '黑' });
                    out.push(['王', '后', '车', '象', '马', '兵'][i]);
                }
            }
        }
    }
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
mod tests {
    use super::*;
    use crate::render::svg::testing::{count, group};

    fn diagram<'a>(pieces: &'a [(Sq, char)], marks: &'a Marks<Sq>) -> ChessDiagram<'a> {
        ChessDiagram {
            pieces,
            flipped: false,
            last_move: None,
            check: None,
            selected: None,
            dots: &[],
            highlight: &[],
            arrows: &[],
            marks,
            link: None,
            heat: None,
            lang: Lang::En,
            title: "test",
        }
    }

    fn start_position() -> Vec<(Sq, char)> {
        let mut pieces = Vec::new();
        for (file, letter) in "RNBQKBNR".chars().enumerate() {
            let file = file as u8;
            pieces.push(((file, 0), letter));
            pieces.push(((file, 1), 'P'));
            pieces.push(((file, 6), 'p'));
            pieces.push(((file, 7), letter.to_ascii_lowercase()));
        }
        pieces
    }

    #[test]
    fn square_names() {
        assert_eq!(square_name((0, 0)), "a1");
        assert_eq!(square_name((4, 3)), "e4");
        assert_eq!(square_name((7, 7)), "h8");
    }

    #[test]
    fn start_position_draws_each_piece_once() {
        let pieces = start_position();
        let marks = Marks::default();
        let svg = svg(&diagram(&pieces, &marks));
        assert!(svg.starts_with(&format!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chessboard\" \
             viewBox=\"0 0 {SIDE} {SIDE}\" width=\"100%\" role=\"img\" aria-label=\"test\">\
             <title>test</title>"
        )));
        assert!(svg.ends_with("</svg>"));
        for class in ["white-body", "white-lines", "black-body", "black-lines"] {
            assert_eq!(
                count(group(&svg, &format!("class=\"{class}\"")), "<path"),
                16
            );
        }
        // Each kind of piece appears with its own silhouette, as often as on the board.
        let white = group(&svg, "class=\"white-body\"");
        let black = group(&svg, "class=\"black-body\"");
        for (letter, body, _) in SHAPES {
            let n = match letter {
                'K' | 'Q' => 1,
                'P' => 8,
                _ => 2,
            };
            assert_eq!(count(white, body), n, "white {letter}");
            assert_eq!(count(black, body), n, "black {letter}");
        }
        // 32 dark squares, no links, no overlays.
        assert_eq!(count(&svg, "h100v100h-100z"), 32);
        assert!(!svg.contains("<a "));
        assert!(!svg.contains("class=\"dots\"") && !svg.contains("class=\"check\""));
        // No ids or gradients: any number of boards can share a page.
        assert!(!svg.contains("id=") && !svg.contains("Gradient") && !svg.contains("<use"));
    }

    #[test]
    fn corners_and_coordinates_follow_the_orientation() {
        let pieces = [((7, 0), 'R'), ((0, 7), 'r')];
        let marks = Marks::default();
        let normal = svg(&diagram(&pieces, &marks));
        let bottom = FRAME + 7 * CELL;
        let right = FRAME + 7 * CELL;
        // h1 is light, so not among the dark squares; a1 is dark.
        assert!(normal.contains(&format!("M{FRAME} {bottom}h100v100h-100z")));
        assert!(!normal.contains(&format!("M{right} {bottom}h100v100h-100z")));
        // White's rook on h1 at the bottom right, black's rook on a8 at the top left.
        assert!(group(&normal, "class=\"white-body\"")
            .contains(&format!("translate({right} {bottom})")));
        assert!(
            group(&normal, "class=\"black-body\"").contains(&format!("translate({FRAME} {FRAME})"))
        );
        let coords = group(&normal, "class=\"coords\"");
        let mid = CELL / 2;
        assert!(coords.contains(&format!(
            "x=\"{}\" y=\"{}\" dy=\".35em\">a<",
            FRAME + mid,
            SIDE - FRAME / 2
        )));
        assert!(coords.contains(&format!(
            "x=\"{}\" y=\"{}\" dy=\".35em\">1<",
            FRAME / 2,
            bottom + mid
        )));

        let flipped = svg(&ChessDiagram {
            flipped: true,
            ..diagram(&pieces, &marks)
        });
        // With Black at the bottom, h1 is at the top left and a8 at the bottom right; the
        // square at each player's right hand is still light.
        assert!(group(&flipped, "class=\"white-body\"")
            .contains(&format!("translate({FRAME} {FRAME})")));
        assert!(group(&flipped, "class=\"black-body\"")
            .contains(&format!("translate({right} {bottom})")));
        assert!(flipped.contains(&format!("M{FRAME} {bottom}h100v100h-100z")));
        assert!(!flipped.contains(&format!("M{right} {bottom}h100v100h-100z")));
        let coords = group(&flipped, "class=\"coords\"");
        assert!(coords.contains(&format!(
            "x=\"{}\" y=\"{}\" dy=\".35em\">h<",
            FRAME + mid,
            SIDE - FRAME / 2
        )));
        assert!(coords.contains(&format!(
            "x=\"{}\" y=\"{}\" dy=\".35em\">8<",
            FRAME / 2,
            bottom + mid
        )));
        assert!(coords.contains(&format!(
            "x=\"{}\" y=\"{}\" dy=\".35em\">1<",
            FRAME / 2,
            FRAME + mid
        )));
    }

    #[test]
    fn links_have_accessible_names_in_both_languages() {
        let pieces = [((4, 0), 'K'), ((6, 2), 'N'), ((4, 7), 'k'), ((3, 6), 'p')];
        let marks = Marks {
            circles: vec![(0, 0)],
            ..Marks::default()
        };
        let link = |sq: Sq| format!("/c?sq={}&x=1", square_name(sq));
        let dots = [(4, 3), (3, 6)];
        let base = ChessDiagram {
            selected: Some((6, 2)),
            dots: &dots,
            last_move: Some(((6, 0), (6, 2))),
            check: Some((4, 7)),
            link: Some(&link),
            ..diagram(&pieces, &marks)
        };
        let en = svg(&base);
        assert!(en.contains("role=\"group\""));
        assert_eq!(count(&en, "<a href="), 64);
        assert!(en.contains(
            "<a href=\"/c?sq=g3&amp;x=1\" class=\"pt\" data-p=\"g3\" \
             aria-label=\"g3, white knight, selected, last move\">"
        ));
        assert!(en.contains("aria-label=\"e4, empty, legal move\""));
        assert!(en.contains("aria-label=\"d7, black pawn, legal move\""));
        assert!(en.contains("aria-label=\"e8, black king, in check\""));
        assert!(en.contains("aria-label=\"g1, empty, last move\""));
        assert!(en.contains("aria-label=\"a1, empty, marked\""));
        // The corner square's link reaches the picture's edge.
        assert!(en.contains(&format!(
            "aria-label=\"a8, empty\"><rect x=\"0\" y=\"0\" width=\"{w}\" height=\"{w}\"/>",
            w = FRAME + CELL
        )));
        // Links come in reading order: a8 first with White at the bottom, h1 first flipped.
        let first = |svg: &str| svg[svg.find("data-p=\"").unwrap() + 8..][..2].to_string();
        assert_eq!(first(&en), "a8");
        let flipped = svg(&ChessDiagram {
            flipped: true,
            ..base
        });
        assert_eq!(first(&flipped), "h1");
        assert!(flipped.find("data-p=\"a1\"") < flipped.find("data-p=\"h2\""));
        let zh = svg(&ChessDiagram {
            lang: Lang::Zh,
            ..base
        });
        assert!(zh.contains("aria-label=\"g3，白马，已选，上一步\""));
        assert!(zh.contains("aria-label=\"e4，空格，可走\""));
        assert!(zh.contains("aria-label=\"e8，黑王，被将军\""));
        assert!(zh.contains("aria-label=\"d7，黑兵，可走\""));
        assert!(zh.contains("aria-label=\"e1，白王\""));
    }

    #[test]
    fn heat_cells_land_on_their_squares() {
        use crate::render::svg::testing::rect_after;
        let pieces = start_position();
        let marks = Marks::default();
        let counts =
            std::collections::BTreeMap::from([("e4".to_string(), 5), ("a8".to_string(), 1)]);
        let heat = Heat::new(&counts, &["e4".to_string()]);
        let link = |sq: Sq| square_name(sq);
        for flipped in [false, true] {
            let linked = svg(&ChessDiagram {
                flipped,
                link: Some(&link),
                ..diagram(&pieces, &marks)
            });
            let hot = svg(&ChessDiagram {
                flipped,
                heat: Some(&heat),
                ..diagram(&pieces, &marks)
            });
            assert!(hot.contains("role=\"img\"") && !hot.contains("<a "));
            assert_eq!(count(&hot, "class=\"heat-cell\""), 2);
            assert!(hot.contains("fill-opacity=\"0.75\"") && hot.contains("heat-right"));
            // An inner square: the cell is the square's own link.
            assert_eq!(
                rect_after(&hot, "class=\"heat-cell\" data-p=\"e4\""),
                rect_after(&linked, "data-p=\"e4\"")
            );
            // A corner square: its link reaches the picture's edge, the cell is the square.
            let (x, y, w, h) = rect_after(&hot, "class=\"heat-cell\" data-p=\"a8\"");
            let (cx, cy) = centre((0, 7), flipped).unwrap();
            assert_eq!((w, h), (CELL as f64, CELL as f64));
            assert_eq!((x + w / 2.0, y + h / 2.0), (cx as f64, cy as f64));
            let (lx, ly, lw, lh) = rect_after(&linked, "data-p=\"a8\"");
            assert!(lx <= x && ly <= y && x + w <= lx + lw && y + h <= ly + lh);
        }
    }

    #[test]
    fn dots_on_empty_squares_and_rings_on_pieces() {
        let pieces = [((3, 6), 'p'), ((4, 4), 'B')];
        let marks = Marks::default();
        let dots = [(3, 4), (2, 5), (3, 6), (9, 9)];
        let svg = svg(&ChessDiagram {
            dots: &dots,
            selected: Some((4, 4)),
            ..diagram(&pieces, &marks)
        });
        let dots = group(&svg, "class=\"dots\"");
        assert_eq!(count(dots, "r=\"13\""), 2);
        assert_eq!(count(dots, "r=\"43\""), 1);
        // d5 is in the fourth column and the fourth row from the top.
        let (x, y) = (FRAME + 3 * CELL + 50, FRAME + 3 * CELL + 50);
        assert!(dots.contains(&format!("<circle cx=\"{x}\" cy=\"{y}\" r=\"13\"/>")));
        assert!(svg.contains(&format!(
            "<path class=\"selected\" {TINT_SELECTED} d=\"M{} {}h100v100h-100z\"/>",
            FRAME + 4 * CELL,
            FRAME + 3 * CELL
        )));
    }

    #[test]
    fn overlays_check_arrows_and_marks() {
        let pieces = [((4, 7), 'k'), ((4, 0), 'Q')];
        let marks = Marks {
            triangles: vec![(0, 0)],
            squares: vec![(1, 0)],
            circles: vec![(2, 0)],
            crosses: vec![(3, 0)],
            labels: vec![("A".to_string(), (5, 5)), ("B".to_string(), (4, 0))],
        };
        let arrows = [((4, 0), (4, 7)), ((6, 0), (5, 2)), ((1, 1), (1, 1))];
        let svg = svg(&ChessDiagram {
            check: Some((4, 7)),
            arrows: &arrows,
            last_move: Some(((4, 1), (4, 0))),
            highlight: &[(0, 0)],
            ..diagram(&pieces, &marks)
        });
        assert_eq!(count(group(&svg, "class=\"check\""), "<circle"), 5);
        // Zero-length arrows are skipped.
        assert_eq!(count(group(&svg, "class=\"arrows\""), "<polygon"), 2);
        // e1 to e8 goes straight up from the centre of e1.
        let x = FRAME + 4 * CELL + 50;
        assert!(svg.contains(&format!(
            "<polygon points=\"{},{}",
            x + 10,
            FRAME + 7 * CELL + 50 - 12
        )));
        let m = &svg[svg.find("class=\"marks\"").unwrap()..];
        assert_eq!(count(m, "<path d=\""), 2);
        // The label on the empty f6 is big; on the queen, a badge.
        assert!(m.contains("font-size=\"54\" fill=\"#1747b5\">A</text>"));
        assert!(m.contains("font-size=\"26\" fill=\"#fff\">B</text>"));
        assert_eq!(count(&svg, "<path class=\"last\""), 1);
        assert_eq!(count(&svg, "<path class=\"highlight\""), 1);
    }

    #[test]
    fn text_is_escaped_and_odd_input_is_ignored() {
        let pieces = [((0, 0), 'X'), ((8, 0), 'K'), ((1, 1), 'n')];
        let marks = Marks {
            labels: vec![("<b>".to_string(), (1, 2))],
            ..Marks::default()
        };
        let link = |_: Sq| "/a?b=\"c\"&d='e'<f>".to_string();
        let svg = svg(&ChessDiagram {
            title: "A <script> & \"quotes\" 'too'",
            link: Some(&link),
            arrows: &[((0, 0), (9, 9))],
            ..diagram(&pieces, &marks)
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
        // Only the black knight is drawn; the unknown letter and the square off the board
        // are left out.
        assert_eq!(count(group(&svg, "class=\"white-body\""), "<path"), 0);
        assert_eq!(count(group(&svg, "class=\"black-body\""), "<path"), 1);
        assert!(svg.contains("aria-label=\"a1, empty\""));
        assert!(!svg.contains("<polygon"));
    }
}
