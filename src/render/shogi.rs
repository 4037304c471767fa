//! The shogi board as SVG: wooden board, pieces with their kanji, both hands, move hints,
//! arrows and marks.
//!
//! Inputs are plain data, so this module does not depend on any shogi engine. As for
//! [`super::go`], a square is [`CELL_W`] × [`CELL_H`] drawing units (taller than wide, as on
//! real boards), the SVG has `width="100%"`, and no gradients, filters, ids or external files
//! are used. From top to bottom the picture has the upper player's hand, the file numbers
//! (１–９, right to left), the board with the rank numbers (一–九) down its right side, and
//! the lower player's hand. Sente (先手, Black) sits at the bottom unless
//! [`ShogiDiagram::flipped`]; the upper player's pieces, in hand too, point down the board.

use super::svg::{
    arrows, close_heat, escape, halo, heat_cell, hints, marked, marks, num, open_heat, open_svg,
    tints, Heat, FONT, F_CHECK, F_DOT, F_HIGHLIGHT, F_LAST, F_MARK, F_SELECTED, TINT_HIGHLIGHT,
    TINT_LAST, TINT_SELECTED,
};
use super::Marks;
use crate::lang::Lang;
use std::fmt::Write;

/// A square: file 1..=9 (1 on the right, from Black's side), rank 1..=9 (1 = 一 at the top).
pub type Sq = (u8, u8);

/// A piece on the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Piece {
    /// Sente (先手), who moves first; gote (後手) otherwise.
    pub black: bool,
    /// The SFEN letter, uppercase: `P L N S G B R K`.
    pub letter: char,
    /// Promoted (成り); ignored for gold and king.
    pub promoted: bool,
}

/// Something the learner can pick: a square, or a kind of piece in a hand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    /// A square on the board.
    Square(Sq),
    /// A piece in `black`'s (sente's) or white's hand, by SFEN letter (`P`, `R`, …).
    Hand {
        /// Whose hand.
        black: bool,
        /// The piece, uppercase.
        letter: char,
    },
}

/// What to draw: a position and everything shown on it.
pub struct ShogiDiagram<'a> {
    /// The pieces on the board.
    pub pieces: &'a [(Sq, Piece)],
    /// Pieces in hand (持ち駒): counts in the order R B G S N L P, [black, white].
    pub hands: [[u8; 7]; 2],
    /// White (gote) at the bottom when true.
    pub flipped: bool,
    /// Shade both promotion zones (three ranks each side).
    pub zones: bool,
    /// The last move, from and to; from is `None` for a drop.
    pub last_move: Option<(Option<Sq>, Sq)>,
    /// A king in check: a red halo on that square.
    pub check: Option<Sq>,
    /// The piece the learner picked up, on the board or in hand.
    pub selected: Option<Target>,
    /// Legal destinations: small dots on empty squares, rings on occupied ones.
    pub dots: &'a [Sq],
    /// Squares shaded by the author.
    pub highlight: &'a [Sq],
    /// Arrows from square to square.
    pub arrows: &'a [(Sq, Sq)],
    /// Triangles, squares, circles, crosses and labels.
    pub marks: &'a Marks<Sq>,
    /// When set, every square and every piece in hand becomes a link to this address.
    pub link: Option<&'a dyn Fn(Target) -> String>,
    /// A heat map of answers, drawn over every square that it counts.
    pub heat: Option<&'a Heat>,
    /// Language of accessible names and of the hands' captions.
    pub lang: Lang,
    /// What the picture shows, for screen readers.
    pub title: &'a str,
}

/// Width of a square in drawing units.
pub const CELL_W: i32 = 100;
/// Height of a square in drawing units.
pub const CELL_H: i32 = 110;
/// Space round the whole picture.
const PAD: i32 = 8;
/// Wood between the outer lines and the board's edge.
const BORDER: i32 = 16;
/// Height of a hand's row.
const HAND: i32 = 104;
/// Height of the row of file numbers.
const FILES: i32 = 48;
/// Width of the column of rank numbers.
const RANKS: i32 = 50;
/// The grid's top-left corner.
const GX: i32 = PAD + BORDER;
const GY: i32 = PAD + HAND + FILES + BORDER;
/// The whole picture.
const WIDTH: i32 = GX + 9 * CELL_W + BORDER + RANKS + PAD;
const HEIGHT: i32 = GY + 9 * CELL_H + BORDER + 10 + HAND + PAD;
/// Width of one kind of piece in a hand, with its count.
const SLOT: i32 = 112;
/// Scale of pieces in hand.
const HAND_SCALE: f64 = 0.86;
/// Size of the kanji on a king; smaller pieces have smaller kanji.
const KANJI: f64 = 62.0;

const PAPER: &str = "#f6eedc";
const WOOD: &str = "#e8c47e";
const WOOD_EDGE: &str = "#b8894a";
const STAND: &str = "#d9b06b";
const LINE: &str = "#3b2a16";
const INK: &str = "#4a3720";
const PIECE_BODY: &str =
    "fill=\"#f8e4b4\" stroke=\"#7c5a2c\" stroke-width=\"2.6\" stroke-linejoin=\"round\"";
const PIECE_INK: &str = "#1d140b";
const PROMOTED_INK: &str = "#c4161c";
const ZONE: &str = "fill=\"#9a5412\" fill-opacity=\".2\"";
const CJK: &str = "font-family=\"'Noto Serif CJK SC','Noto Sans CJK SC','Hiragino Mincho ProN',\
                   'Yu Mincho','SimSun',serif\"";

/// Pieces in hand, in the order of [`ShogiDiagram::hands`].
/// The order pieces in hand are drawn in (and counted in [`ShogiDiagram::hands`]).
pub const HAND_ORDER: [char; 7] = ['R', 'B', 'G', 'S', 'N', 'L', 'P'];

/// The USI name of a square, such as `5e` (file 5, rank 5).
pub fn square_name(sq: Sq) -> String {
    let mut name = String::with_capacity(2);
    name.push((b'0' + sq.0) as char);
    name.push((b'a' + sq.1.saturating_sub(1)) as char);
    name
}

fn on_board(sq: Sq) -> bool {
    (1..=9).contains(&sq.0) && (1..=9).contains(&sq.1)
}

/// Column and row in the picture, 0..9 from the top left.
fn cell(sq: Sq, flipped: bool) -> (i32, i32) {
    let (col, row) = if flipped {
        (sq.0 - 1, 9 - sq.1)
    } else {
        (9 - sq.0, sq.1 - 1)
    };
    (col as i32, row as i32)
}

/// The centre of a square in the picture, or `None` off the board.
fn centre(sq: Sq, flipped: bool) -> Option<(i32, i32)> {
    on_board(sq).then(|| {
        let (col, row) = cell(sq, flipped);
        (
            GX + col * CELL_W + CELL_W / 2,
            GY + row * CELL_H + CELL_H / 2,
        )
    })
}

/// Relative size of a piece: kings are the biggest and pawns the smallest, as on real sets.
fn scale(letter: char) -> f64 {
    match letter {
        'K' => 1.0,
        'R' | 'B' => 0.96,
        'G' | 'S' => 0.93,
        'N' => 0.9,
        'L' => 0.88,
        _ => 0.86,
    }
}

/// The kanji on a piece, and whether it is written in red (promoted).
fn kanji(piece: Piece) -> Option<(char, bool)> {
    let promoted = piece.promoted;
    Some(match (piece.letter, promoted) {
        ('P', false) => ('歩', false),
        ('P', true) => ('と', true),
        ('L', false) => ('香', false),
        ('L', true) => ('杏', true),
        ('N', false) => ('桂', false),
        ('N', true) => ('圭', true),
        ('S', false) => ('銀', false),
        ('S', true) => ('全', true),
        ('G', _) => ('金', false),
        ('B', false) => ('角', false),
        ('B', true) => ('馬', true),
        ('R', false) => ('飛', false),
        ('R', true) => ('龍', true),
        ('K', _) => (if piece.black { '玉' } else { '王' }, false),
        _ => return None,
    })
}

/// The piece as drawn: letters uppercased, promotion dropped where there is none.
fn normal(piece: Piece) -> Option<Piece> {
    let letter = piece.letter.to_ascii_uppercase();
    let piece = Piece {
        letter,
        promoted: piece.promoted && !matches!(letter, 'G' | 'K'),
        ..piece
    };
    kanji(piece).map(|_| piece)
}

/// The outline of a piece centred on the origin, pointing up: a pentagon wider at the base.
fn pentagon(out: &mut String, s: f64) {
    out.push_str("M0 ");
    num(out, -48.0 * s);
    for (x, y) in [(32.0, -31.0), (40.0, 46.0), (-40.0, 46.0), (-32.0, -31.0)] {
        out.push('L');
        num(out, x * s);
        out.push(' ');
        num(out, y * s);
    }
    out.push('Z');
}

/// `translate(x y)`, turned round for pieces that point down the board.
fn place(out: &mut String, x: i32, y: i32, down: bool) {
    let _ = write!(out, "translate({x} {y})");
    if down {
        out.push_str(" rotate(180)");
    }
}

/// One piece: its body (with a soft shadow) into `bodies`, its kanji into `texts`.
fn piece(bodies: &mut String, texts: &mut String, x: i32, y: i32, down: bool, p: Piece, s: f64) {
    let Some((glyph, red)) = kanji(p) else { return };
    bodies.push_str(
        "<path class=\"shadow\" fill=\"#000\" fill-opacity=\".2\" stroke=\"none\" transform=\"",
    );
    place(bodies, x + 2, y + 3, down);
    bodies.push_str("\" d=\"");
    pentagon(bodies, s);
    bodies.push_str("\"/><path transform=\"");
    place(bodies, x, y, down);
    bodies.push_str("\" d=\"");
    pentagon(bodies, s);
    bodies.push_str("\"/>");

    texts.push_str("<text transform=\"");
    place(texts, x, y, down);
    texts.push_str("\" y=\"");
    // The kanji's centre a little below the middle, where the piece is widest; CJK fonts
    // centre ideographs about 0.38 em above the baseline.
    num(texts, (3.0 + 0.38 * KANJI) * s);
    texts.push_str("\" font-size=\"");
    num(texts, KANJI * s);
    texts.push('"');
    if red {
        let _ = write!(texts, " fill=\"{PROMOTED_INK}\"");
    }
    let _ = write!(texts, ">{glyph}</text>");
}

/// Where the hand of the upper or lower player is drawn: the centre of each kind of piece
/// held (in [`HAND_ORDER`]), the caption's marker position, the row's middle and the width
/// of a slot (narrower than [`SLOT`] when every kind is held, so that the hand stays on its
/// stand).
fn hand_layout(counts: &[u8; 7], upper: bool) -> (Vec<(usize, i32)>, i32, i32, i32) {
    let held: Vec<usize> = (0..7).filter(|&i| counts[i] > 0).collect();
    let caption = 150;
    let y = if upper {
        PAD + HAND / 2
    } else {
        HEIGHT - PAD - HAND / 2
    };
    let slot = SLOT.min((9 * CELL_W - caption) / (held.len() as i32).max(1));
    // The upper hand starts at the left, the lower one ends at the right.
    let start = if upper {
        GX + caption
    } else {
        GX + 9 * CELL_W - held.len() as i32 * slot
    };
    let slots = held
        .iter()
        .enumerate()
        .map(|(n, &i)| (i, start + n as i32 * slot + 44))
        .collect();
    (slots, start - caption + 10, y, slot)
}

/// Draws `diagram` as an inline SVG element.
///
/// The root is `<svg class="shogiban" … width="100%">` with `role="img"`, or `role="group"`
/// when [`ShogiDiagram::link`] is set; then every square is an
/// `<a class="pt" data-p="5e" aria-label="5e, Black's silver">` over a transparent square,
/// and every kind of piece in hand is an `<a class="pt" data-p="P*" …>` (lowercase letters
/// for White's hand, as in SFEN).
///
/// ```
/// use qiyuan::lang::Lang;
/// use qiyuan::render::{shogi, Marks};
/// use qiyuan::render::shogi::{Piece, Target};
///
/// let marks = Marks::default();
/// let link = |t: Target| match t {
///     Target::Square(sq) => format!("/shogi?to={}", shogi::square_name(sq)),
///     Target::Hand { letter, .. } => format!("/shogi?drop={letter}"),
/// };
/// let king = Piece { black: true, letter: 'K', promoted: false };
/// let mut hands = [[0; 7]; 2];
/// hands[0][6] = 2; // two pawns in Black's hand
/// let svg = shogi::svg(&shogi::ShogiDiagram {
///     pieces: &[((5, 9), king)],
///     hands,
///     flipped: false,
///     zones: false,
///     last_move: None,
///     check: None,
///     selected: Some(Target::Hand { black: true, letter: 'P' }),
///     dots: &[],
///     highlight: &[],
///     arrows: &[],
///     marks: &marks,
///     link: Some(&link),
///     heat: None,
///     lang: Lang::En,
///     title: "Drop a pawn",
/// });
/// assert!(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"shogiban\""));
/// assert!(svg.contains("aria-label=\"5i, Black's king\""));
/// assert!(svg.contains("aria-label=\"Black's pawn in hand, 2, selected\""));
/// ```
pub fn svg(d: &ShogiDiagram) -> String {
    let flipped = d.flipped;
    let mut out = String::with_capacity(14000 + if d.link.is_some() { 90 * 190 } else { 0 });

    // What is on each square, indexed [file - 1][rank - 1].
    let mut board: [[Option<Piece>; 9]; 9] = [[None; 9]; 9];
    for &(sq, p) in d.pieces {
        if on_board(sq) {
            if let Some(p) = normal(p) {
                board[sq.0 as usize - 1][sq.1 as usize - 1] = Some(p);
            }
        }
    }
    let piece_at = |sq: Sq| {
        if on_board(sq) {
            board[sq.0 as usize - 1][sq.1 as usize - 1]
        } else {
            None
        }
    };
    let mut flags = [[0u8; 9]; 9];
    let mut flag = |sq: Sq, f: u8| {
        if on_board(sq) {
            flags[sq.0 as usize - 1][sq.1 as usize - 1] |= f;
        }
    };
    if let Some(Target::Square(sq)) = d.selected {
        flag(sq, F_SELECTED);
    }
    for &sq in d.dots {
        flag(sq, F_DOT);
    }
    if let Some((from, to)) = d.last_move {
        if let Some(from) = from {
            flag(from, F_LAST);
        }
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
        "shogiban",
        WIDTH,
        HEIGHT,
        d.link.is_some(),
        d.title,
    );

    // Paper, the two piece stands, and the board.
    let (wx, wy) = (GX - BORDER, GY - BORDER);
    let (ww, wh) = (9 * CELL_W + 2 * BORDER, 9 * CELL_H + 2 * BORDER);
    let _ = write!(
        out,
        "<rect width=\"{WIDTH}\" height=\"{HEIGHT}\" rx=\"14\" fill=\"{PAPER}\"/>\
         <g fill=\"{STAND}\" stroke=\"{WOOD_EDGE}\" stroke-width=\"3\">\
         <rect x=\"{wx}\" y=\"{}\" width=\"{ww}\" height=\"{}\" rx=\"12\"/>\
         <rect x=\"{wx}\" y=\"{}\" width=\"{ww}\" height=\"{}\" rx=\"12\"/></g>\
         <rect x=\"{wx}\" y=\"{wy}\" width=\"{ww}\" height=\"{wh}\" rx=\"6\" fill=\"{WOOD}\" \
         stroke=\"{WOOD_EDGE}\" stroke-width=\"3\"/>",
        PAD + 4,
        HAND - 8,
        HEIGHT - PAD - HAND + 4,
        HAND - 8,
    );

    // Promotion zones: the three ranks nearest each side.
    if d.zones {
        let _ = write!(
            out,
            "<path class=\"zones\" {ZONE} d=\"M{GX} {GY}h{w}v{h}h-{w}zM{GX} {}h{w}v{h}h-{w}z\"/>",
            GY + 6 * CELL_H,
            w = 9 * CELL_W,
            h = 3 * CELL_H
        );
    }

    // Tints, weakest first.
    let at = |sq: Sq| centre(sq, flipped);
    let half = (CELL_W / 2, CELL_H / 2);
    tints(&mut out, "highlight", TINT_HIGHLIGHT, d.highlight, at, half);
    if let Some((from, to)) = d.last_move {
        let squares: Vec<Sq> = from.into_iter().chain([to]).collect();
        tints(&mut out, "last", TINT_LAST, &squares, at, half);
    }
    if let Some(Target::Square(sq)) = d.selected {
        tints(&mut out, "selected", TINT_SELECTED, &[sq], at, half);
    }

    // Grid: thin inner lines, a thicker outer edge, and the four star points.
    let _ = write!(
        out,
        "<g stroke=\"{LINE}\" fill=\"none\"><path stroke-width=\"2.5\" d=\""
    );
    for i in 1..9 {
        let _ = write!(
            out,
            "M{} {GY}v{}M{GX} {}h{}",
            GX + i * CELL_W,
            9 * CELL_H,
            GY + i * CELL_H,
            9 * CELL_W
        );
    }
    let _ = write!(
        out,
        "\"/><rect x=\"{GX}\" y=\"{GY}\" width=\"{}\" height=\"{}\" stroke-width=\"5\"/></g>\
         <g class=\"stars\" fill=\"{LINE}\">",
        9 * CELL_W,
        9 * CELL_H
    );
    for (i, j) in [(3, 3), (6, 3), (3, 6), (6, 6)] {
        let _ = write!(
            out,
            "<circle cx=\"{}\" cy=\"{}\" r=\"7\"/>",
            GX + i * CELL_W,
            GY + j * CELL_H
        );
    }
    out.push_str("</g>");

    // Coordinates: files １–９ along the top (file 1 on Black's right), ranks 一–九 down the
    // right side (一 at the top, Black's far side); in English a–i, as its text names squares
    // (`7g`).
    let _ = write!(
        out,
        "<g class=\"coords\" {CJK} font-size=\"40\" fill=\"{INK}\" text-anchor=\"middle\">"
    );
    for n in 1..=9u8 {
        let (col, row) = cell((n, n), flipped);
        let _ = write!(
            out,
            "<text x=\"{}\" y=\"{}\" dy=\".35em\">{}</text>\
             <text x=\"{}\" y=\"{}\" dy=\".35em\">{}</text>",
            GX + col * CELL_W + CELL_W / 2,
            PAD + HAND + FILES / 2 + 2,
            char::from_u32('０' as u32 + n as u32).unwrap_or('?'),
            GX + 9 * CELL_W + BORDER + RANKS / 2,
            GY + row * CELL_H + CELL_H / 2,
            rank_label(n, d.lang)
        );
    }
    out.push_str("</g>");

    if let Some((x, y)) = d.check.and_then(at) {
        halo(&mut out, x, y, 50);
    }

    // Pieces on the board and in hand: bodies, then kanji.
    let mut bodies = String::with_capacity(6000);
    let mut texts = String::with_capacity(3000);
    for file in 1..=9u8 {
        for rank in 1..=9u8 {
            if let Some(p) = piece_at((file, rank)) {
                let (x, y) = at((file, rank)).unwrap_or_default();
                let down = p.black == flipped;
                piece(&mut bodies, &mut texts, x, y, down, p, scale(p.letter));
            }
        }
    }
    // Hands: a caption (a small ☗ or ☖ piece and the player), then each kind held.
    let mut captions = String::new();
    let mut counts = String::new();
    for upper in [true, false] {
        let black = upper == flipped;
        let hand = &d.hands[if black { 0 } else { 1 }];
        let (slots, mx, y, slot) = hand_layout(hand, upper);
        let _ = write!(
            captions,
            "<path transform=\"translate({mx} {y})\" fill=\"{}\" stroke=\"{LINE}\" \
             stroke-width=\"3\" stroke-linejoin=\"round\" d=\"",
            if black { "#2a211a" } else { "#fffaf0" }
        );
        pentagon(&mut captions, 0.4);
        let _ = write!(
            captions,
            "\"/><text x=\"{}\" y=\"{y}\" dy=\".35em\">{}</text>",
            mx + 26,
            player(d.lang, black)
        );
        for (i, x) in slots {
            let letter = HAND_ORDER[i];
            if d.selected == Some(Target::Hand { black, letter }) {
                let _ = write!(
                    out,
                    "<rect class=\"selected\" {TINT_SELECTED} x=\"{}\" y=\"{}\" width=\"{}\" \
                     height=\"{}\" rx=\"10\"/>",
                    x - 48,
                    y - HAND / 2 + 6,
                    slot - 4,
                    HAND - 12
                );
            }
            let p = Piece {
                black,
                letter,
                promoted: false,
            };
            let s = scale(letter) * HAND_SCALE;
            piece(&mut bodies, &mut texts, x, y, upper, p, s);
            if hand[i] > 1 {
                // At the slot's right edge, inside the stand, however many digits.
                let _ = write!(
                    counts,
                    "<text x=\"{}\" y=\"{}\">{}</text>",
                    x - 48 + slot - 6,
                    y + 40,
                    hand[i]
                );
            }
        }
    }
    let _ = write!(
        out,
        "<g class=\"pieces\" {PIECE_BODY}>{bodies}</g>\
         <g class=\"kanji\" {CJK} font-weight=\"bold\" fill=\"{PIECE_INK}\" \
         text-anchor=\"middle\">{texts}</g>\
         <g class=\"hands\" {CJK} font-size=\"36\" fill=\"{INK}\">{captions}</g>\
         <g class=\"counts\" {FONT} font-size=\"34\" font-weight=\"bold\" fill=\"{INK}\" text-anchor=\"end\" \
         stroke=\"{STAND}\" stroke-width=\"6\" paint-order=\"stroke\">{counts}</g>"
    );

    let occupied = |sq: Sq| piece_at(sq).is_some();
    hints(&mut out, d.dots, at, occupied);
    marks(&mut out, d.marks, at, occupied, WOOD);
    arrows(&mut out, d.arrows, at);
    out.push_str("</g>");

    // Links in reading order, whichever side is at the bottom: the upper hand, the squares
    // row by row (the outer ones reaching the board's edge), then the lower hand.
    if let Some(link) = d.link {
        out.push_str("<g class=\"points\" fill=\"transparent\" pointer-events=\"visible\">");
        let hand_links = |out: &mut String, upper: bool| {
            let black = upper == flipped;
            let hand = &d.hands[if black { 0 } else { 1 }];
            let (slots, _, y, slot) = hand_layout(hand, upper);
            for (i, x) in slots {
                let letter = HAND_ORDER[i];
                let target = Target::Hand { black, letter };
                let _ = write!(
                    out,
                    "<a href=\"{}\" class=\"pt\" data-p=\"{}*\" aria-label=\"{}\">\
                     <rect x=\"{}\" y=\"{}\" width=\"{slot}\" height=\"{HAND}\"/></a>",
                    escape(&link(target)),
                    if black {
                        letter
                    } else {
                        letter.to_ascii_lowercase()
                    },
                    hand_accessible(d.lang, black, letter, hand[i], d.selected == Some(target)),
                    x - 48,
                    y - HAND / 2
                );
            }
        };
        hand_links(&mut out, true);
        for row in 0..9i32 {
            for col in 0..9i32 {
                let sq = if flipped {
                    (col as u8 + 1, 9 - row as u8)
                } else {
                    (9 - col as u8, row as u8 + 1)
                };
                let (file, rank) = sq;
                let x0 = GX + col * CELL_W - if col == 0 { BORDER } else { 0 };
                let y0 = GY + row * CELL_H - if row == 0 { BORDER } else { 0 };
                let x1 = GX + (col + 1) * CELL_W + if col == 8 { BORDER } else { 0 };
                let y1 = GY + (row + 1) * CELL_H + if row == 8 { BORDER } else { 0 };
                let _ = write!(
                    out,
                    "<a href=\"{}\" class=\"pt\" data-p=\"{}\" aria-label=\"{}\">\
                     <rect x=\"{x0}\" y=\"{y0}\" width=\"{}\" height=\"{}\"/></a>",
                    escape(&link(Target::Square(sq))),
                    square_name(sq),
                    accessible(
                        d.lang,
                        sq,
                        piece_at(sq),
                        flags[file as usize - 1][rank as usize - 1]
                    ),
                    x1 - x0,
                    y1 - y0
                );
            }
        }
        hand_links(&mut out, false);
        out.push_str("</g>");
    }
    // Heat: a cell on each square it counts, row by row as the links.
    if let Some(heat) = d.heat {
        open_heat(&mut out);
        for row in 0..9i32 {
            for col in 0..9i32 {
                let sq = if flipped {
                    (col as u8 + 1, 9 - row as u8)
                } else {
                    (9 - col as u8, row as u8 + 1)
                };
                let (x, y) = (GX + col * CELL_W, GY + row * CELL_H);
                let rect = (x as f64, y as f64, CELL_W as f64, CELL_H as f64);
                heat_cell(&mut out, heat, &square_name(sq), rect);
            }
        }
        close_heat(&mut out);
    }
    out.push_str("</svg>");
    out
}

/// A rank's label on the board: 一 to 九 in Chinese, `a` to `i` in English (one coordinate
/// system a language, the one its text uses).
fn rank_label(rank: u8, lang: Lang) -> char {
    match lang {
        Lang::Zh => rank_kanji(rank),
        Lang::En => char::from(b'a' + rank.clamp(1, 9) - 1),
    }
}

/// 一 to 九.
fn rank_kanji(rank: u8) -> char {
    ['一', '二', '三', '四', '五', '六', '七', '八', '九'][(rank.clamp(1, 9) - 1) as usize]
}

/// The hand's caption: who holds it.
fn player(lang: Lang, black: bool) -> &'static str {
    match (lang, black) {
        (Lang::Zh, true) => "先手",
        (Lang::Zh, false) => "后手",
        (Lang::En, true) => "Black",
        (Lang::En, false) => "White",
    }
}

/// A piece's name, such as "银将" or "silver".
fn piece_name(lang: Lang, p: Piece) -> &'static str {
    let i = "PLNSGBRK".find(p.letter).unwrap_or(0);
    match (lang, p.promoted) {
        (Lang::En, false) => [
            "pawn", "lance", "knight", "silver", "gold", "bishop", "rook", "king",
        ][i],
        (Lang::En, true) => [
            "tokin (promoted pawn)",
            "promoted lance",
            "promoted knight",
            "promoted silver",
            "gold",
            "horse (promoted bishop)",
            "dragon (promoted rook)",
            "king",
        ][i],
        (Lang::Zh, false) => {
            if p.letter == 'K' && p.black {
                "玉将"
            } else {
                [
                    "步兵", "香车", "桂马", "银将", "金将", "角行", "飞车", "王将",
                ][i]
            }
        }
        (Lang::Zh, true) => [
            "と金", "成香", "成桂", "成银", "金将", "龙马", "龙王", "王将",
        ][i],
    }
}

/// What a screen reader says for a square: its name, the piece, then extras.
fn accessible(lang: Lang, sq: Sq, piece: Option<Piece>, flags: u8) -> String {
    let mut out = String::with_capacity(48);
    let (sep, extras) = match lang {
        Lang::En => {
            out.push_str(&square_name(sq));
            out.push_str(", ");
            match piece {
                Some(p) => {
                    out.push_str(if p.black { "Black's " } else { "White's " });
                    out.push_str(piece_name(lang, p));
                }
                None => out.push_str("empty"),
            }
            (
                ", ",
                [
                    "selected",
                    "legal move",
                    "last move",
                    "in check",
                    "highlighted",
                    "marked",
                ],
            )
        }
        Lang::Zh => {
            let _ = write!(out, "{}{}，", sq.0, rank_kanji(sq.1));
            match piece {
                Some(p) => {
                    out.push_str(if p.black { "先手" } else { "后手" });
                    out.push_str(piece_name(lang, p));
                }
                None => out.push_str("空格"),
            }
            ("，", ["已选", "可走", "上一步", "被将军", "高亮", "有标记"])
        }
    };
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

/// What a screen reader says for a kind of piece in hand.
fn hand_accessible(lang: Lang, black: bool, letter: char, count: u8, selected: bool) -> String {
    let p = Piece {
        black,
        letter,
        promoted: false,
    };
    match lang {
        Lang::En => format!(
            "{} {} in hand, {count}{}",
            if black { "Black's" } else { "White's" },
            piece_name(lang, p),
            if selected { ", selected" } else { "" }
        ),
        Lang::Zh => format!(
            "{}持驹：{} {count} 枚{}",
            player(lang, black),
            piece_name(lang, p),
            if selected { "，已选" } else { "" }
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::svg::testing::{count, group};

    fn diagram<'a>(pieces: &'a [(Sq, Piece)], marks: &'a Marks<Sq>) -> ShogiDiagram<'a> {
        ShogiDiagram {
            pieces,
            hands: [[0; 7]; 2],
            flipped: false,
            zones: false,
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

    /// The first `<text …>glyph</text>` element in `svg`.
    fn text_of(svg: &str, glyph: char) -> &str {
        let end = svg.find(&format!(">{glyph}</text>")).unwrap();
        &svg[svg[..end].rfind("<text").unwrap()..end]
    }

    fn p(black: bool, letter: char) -> Piece {
        Piece {
            black,
            letter,
            promoted: false,
        }
    }

    fn start_position() -> Vec<(Sq, Piece)> {
        let mut pieces = Vec::new();
        for (i, letter) in "LNSGKGSNL".chars().enumerate() {
            let file = 9 - i as u8;
            pieces.push(((file, 9), p(true, letter)));
            pieces.push(((file, 1), p(false, letter)));
            pieces.push(((file, 7), p(true, 'P')));
            pieces.push(((file, 3), p(false, 'P')));
        }
        pieces.push(((8, 8), p(true, 'B')));
        pieces.push(((2, 8), p(true, 'R')));
        pieces.push(((2, 2), p(false, 'B')));
        pieces.push(((8, 2), p(false, 'R')));
        pieces
    }

    #[test]
    fn square_names() {
        assert_eq!(square_name((5, 5)), "5e");
        assert_eq!(square_name((7, 7)), "7g");
        assert_eq!(square_name((1, 9)), "1i");
        assert_eq!(square_name((9, 1)), "9a");
    }

    #[test]
    fn start_position_draws_each_piece_once() {
        let pieces = start_position();
        let marks = Marks::default();
        let svg = svg(&diagram(&pieces, &marks));
        assert!(svg.starts_with(&format!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"shogiban\" \
             viewBox=\"0 0 {WIDTH} {HEIGHT}\" width=\"100%\" role=\"img\" aria-label=\"test\">\
             <title>test</title>"
        )));
        assert!(svg.ends_with("</svg>"));
        let bodies = group(&svg, "class=\"pieces\"");
        assert_eq!(count(bodies, "<path class=\"shadow\""), 40);
        assert_eq!(count(bodies, "<path transform"), 40);
        let kanji = group(&svg, "class=\"kanji\"");
        assert_eq!(count(kanji, "<text"), 40);
        for (glyph, n) in [
            ('歩', 18),
            ('香', 4),
            ('桂', 4),
            ('銀', 4),
            ('金', 4),
            ('角', 2),
            ('飛', 2),
            ('玉', 1),
            ('王', 1),
        ] {
            assert_eq!(count(kanji, &format!(">{glyph}</text>")), n, "{glyph}");
        }
        // Gote's twenty pieces are turned round.
        assert_eq!(count(kanji, "rotate(180)"), 20);
        assert!(!kanji.contains(PROMOTED_INK));
        // Four star points, files and ranks, no links, no hands.
        assert_eq!(count(group(&svg, "class=\"stars\""), "<circle"), 4);
        assert_eq!(count(group(&svg, "class=\"coords\""), "<text"), 18);
        assert!(!svg.contains("<a ") && !svg.contains("class=\"zones\""));
        assert_eq!(count(group(&svg, "class=\"counts\""), "<text"), 0);
        assert!(!svg.contains("id=") && !svg.contains("Gradient") && !svg.contains("<use"));
    }

    #[test]
    fn files_run_right_to_left_and_flipping_turns_everything_round() {
        let pieces = [((1, 9), p(true, 'L')), ((9, 1), p(false, 'L'))];
        let marks = Marks::default();
        let normal = svg(&diagram(&pieces, &marks));
        let (left, right) = (GX + CELL_W / 2, GX + 8 * CELL_W + CELL_W / 2);
        let (top, bottom) = (GY + CELL_H / 2, GY + 8 * CELL_H + CELL_H / 2);
        let coords = group(&normal, "class=\"coords\"");
        assert!(coords.contains(&format!(
            "<text x=\"{left}\" y=\"{}\" dy=\".35em\">９<",
            PAD + HAND + FILES / 2 + 2
        )));
        assert!(coords.contains(&format!(
            "<text x=\"{right}\" y=\"{}\" dy=\".35em\">１<",
            PAD + HAND + FILES / 2 + 2
        )));
        assert!(coords.contains(&format!("y=\"{top}\" dy=\".35em\">a<")));
        assert!(coords.contains(&format!("y=\"{bottom}\" dy=\".35em\">i<")));
        // Black's lance on 1i at the bottom right, upright; White's on 9a at the top left,
        // turned round.
        let kanji = group(&normal, "class=\"kanji\"");
        assert!(kanji.contains(&format!("translate({right} {bottom})\"")));
        assert!(kanji.contains(&format!("translate({left} {top}) rotate(180)\"")));

        let flipped = svg(&ShogiDiagram {
            flipped: true,
            ..diagram(&pieces, &marks)
        });
        let coords = group(&flipped, "class=\"coords\"");
        assert!(coords.contains(&format!(
            "<text x=\"{left}\" y=\"{}\" dy=\".35em\">１<",
            PAD + HAND + FILES / 2 + 2
        )));
        assert!(coords.contains(&format!("y=\"{top}\" dy=\".35em\">i<")));
        let kanji = group(&flipped, "class=\"kanji\"");
        assert!(kanji.contains(&format!("translate({left} {top}) rotate(180)\"")));
        assert!(kanji.contains(&format!("translate({right} {bottom})\"")));
    }

    #[test]
    fn promoted_pieces_are_red_and_kings_differ() {
        let pieces = [
            (
                (5, 5),
                Piece {
                    promoted: true,
                    ..p(true, 'P')
                },
            ),
            (
                (4, 4),
                Piece {
                    promoted: true,
                    ..p(false, 'R')
                },
            ),
            (
                (3, 3),
                Piece {
                    promoted: true,
                    ..p(true, 'B')
                },
            ),
            (
                (2, 2),
                Piece {
                    promoted: true,
                    ..p(true, 'S')
                },
            ),
            (
                (1, 1),
                Piece {
                    promoted: true,
                    ..p(true, 'G')
                },
            ),
            ((6, 6), p(false, 'K')),
            ((7, 7), p(true, 'K')),
            ((8, 8), p(true, 'X')),
        ];
        let marks = Marks::default();
        let link = |t: Target| format!("{t:?}");
        let svg = svg(&ShogiDiagram {
            link: Some(&link),
            ..diagram(&pieces, &marks)
        });
        let kanji = group(&svg, "class=\"kanji\"");
        for glyph in ['と', '龍', '馬', '全'] {
            assert!(kanji.contains(&format!(" fill=\"{PROMOTED_INK}\">{glyph}</text>")));
        }
        // A gold cannot promote: black ink.
        assert!(kanji.contains("\">金</text>"));
        assert!(kanji.contains(">王</text>") && kanji.contains(">玉</text>"));
        assert_eq!(count(kanji, "<text"), 7);
        assert!(svg.contains("aria-label=\"5e, Black's tokin (promoted pawn)\""));
        assert!(svg.contains("aria-label=\"4d, White's dragon (promoted rook)\""));
        assert!(svg.contains("aria-label=\"1a, Black's gold\""));
        assert!(svg.contains("aria-label=\"8h, empty\""));
    }

    #[test]
    fn hands_show_counts_and_are_links() {
        let marks = Marks::default();
        let mut hands = [[0; 7]; 2];
        hands[0] = [1, 0, 2, 0, 0, 0, 3]; // R, G×2, P×3
        hands[1] = [0, 1, 0, 0, 0, 0, 12]; // B, P×12
        let link = |t: Target| match t {
            Target::Square(sq) => format!("/s?sq={}", square_name(sq)),
            Target::Hand { black, letter } => format!("/s?drop={letter}&b={black}"),
        };
        let dots = [(5, 5), (4, 4)];
        let pieces = [((4, 4), p(false, 'P'))];
        let base = ShogiDiagram {
            hands,
            link: Some(&link),
            selected: Some(Target::Hand {
                black: true,
                letter: 'G',
            }),
            dots: &dots,
            ..diagram(&pieces, &marks)
        };
        let en = svg(&base);
        // 81 squares and five kinds in hand.
        assert_eq!(count(&en, "<a href="), 86);
        assert!(en.contains(
            "<a href=\"/s?drop=G&amp;b=true\" class=\"pt\" data-p=\"G*\" \
             aria-label=\"Black's gold in hand, 2, selected\">"
        ));
        assert!(en.contains("data-p=\"p*\" aria-label=\"White's pawn in hand, 12\""));
        assert!(en.contains("data-p=\"R*\" aria-label=\"Black's rook in hand, 1\""));
        assert!(en.contains("aria-label=\"5e, empty, legal move\""));
        // Reading order: the upper (White's) hand, the squares from 9a, then Black's hand.
        let order: Vec<&str> = en
            .match_indices("data-p=\"")
            .map(|(i, _)| &en[i + 8..i + 10])
            .collect();
        assert_eq!(&order[..4], ["b*", "p*", "9a", "8a"]);
        assert_eq!(&order[order.len() - 4..], ["1i", "R*", "G*", "P*"]);
        assert!(en.contains("aria-label=\"4d, White's pawn, legal move\""));
        // Counts only above one; pieces in hand drawn once each (plus one on the board).
        let counts = group(&en, "class=\"counts\"");
        assert_eq!(count(counts, "<text"), 3);
        assert!(counts.contains(">12</text>") && counts.contains(">3</text>"));
        assert!(counts.contains(">2</text>"));
        assert_eq!(count(group(&en, "class=\"kanji\""), "<text"), 6);
        assert_eq!(count(&en, "<rect class=\"selected\""), 1);
        // White's hand is at the top, turned round; Black's at the bottom, upright.
        let (_, _, y_top, _) = hand_layout(&hands[1], true);
        let kanji = group(&en, "class=\"kanji\"");
        assert!(text_of(kanji, '角').contains(&format!(" {y_top}) rotate(180)\"")));
        assert!(!text_of(kanji, '飛').contains("rotate"));
        let dots = group(&en, "class=\"dots\"");
        assert_eq!(count(dots, "r=\"13\""), 1);
        assert_eq!(count(dots, "r=\"43\""), 1);

        let zh = svg(&ShogiDiagram {
            lang: Lang::Zh,
            ..base
        });
        assert!(zh.contains("aria-label=\"先手持驹：金将 2 枚，已选\""));
        assert!(zh.contains("aria-label=\"后手持驹：步兵 12 枚\""));
        assert!(zh.contains("aria-label=\"5五，空格，可走\""));
        assert!(zh.contains("aria-label=\"4四，后手步兵，可走\""));
        assert!(zh.contains(">先手</text>") && zh.contains(">后手</text>"));

        // Flipped: Black's hand goes to the top.
        let flipped = svg(&ShogiDiagram {
            flipped: true,
            ..base
        });
        let (_, _, y_top, _) = hand_layout(&hands[0], true);
        let kanji = group(&flipped, "class=\"kanji\"");
        assert!(text_of(kanji, '飛').contains(&format!(" {y_top}) rotate(180)\"")));
        assert!(!text_of(kanji, '角').contains("rotate"));
    }

    #[test]
    fn overlays_zones_last_move_check_and_marks() {
        let pieces = [((5, 1), p(false, 'K')), ((5, 3), p(true, 'G'))];
        let marks = Marks {
            triangles: vec![(1, 1)],
            crosses: vec![(9, 9)],
            labels: vec![("A".to_string(), (2, 2))],
            ..Marks::default()
        };
        let base = ShogiDiagram {
            zones: true,
            last_move: Some((None, (5, 3))),
            check: Some((5, 1)),
            arrows: &[((5, 3), (5, 1))],
            ..diagram(&pieces, &marks)
        };
        let svg1 = svg(&base);
        assert!(svg1.contains("<path class=\"zones\""));
        // A drop tints only the square dropped on.
        let last = &svg1[svg1.find("<path class=\"last\"").unwrap()..];
        assert_eq!(count(&last[..last.find("/>").unwrap()], "z"), 1);
        assert_eq!(count(group(&svg1, "class=\"check\""), "<circle"), 5);
        assert_eq!(count(group(&svg1, "class=\"arrows\""), "<polygon"), 1);
        assert!(svg1.contains(">A</text>"));
        let moved = svg(&ShogiDiagram {
            last_move: Some((Some((5, 4)), (5, 3))),
            ..base
        });
        let last = &moved[moved.find("<path class=\"last\"").unwrap()..];
        assert_eq!(count(&last[..last.find("/>").unwrap()], "z"), 2);
    }

    #[test]
    fn heat_cells_cover_their_squares() {
        use crate::render::svg::testing::rect_after;
        let pieces = start_position();
        let marks = Marks::default();
        let counts = std::collections::BTreeMap::from([("7f".to_string(), 2)]);
        let heat = Heat::new(&counts, &["7f".to_string()]);
        let link = |t: Target| format!("{t:?}");
        let linked = svg(&ShogiDiagram {
            link: Some(&link),
            ..diagram(&pieces, &marks)
        });
        let hot = svg(&ShogiDiagram {
            heat: Some(&heat),
            ..diagram(&pieces, &marks)
        });
        assert!(hot.contains("role=\"img\"") && !hot.contains("<a "));
        assert_eq!(
            rect_after(&hot, "class=\"heat-cell\" data-p=\"7f\""),
            rect_after(&linked, "data-p=\"7f\"")
        );
        assert!(hot.contains("class=\"heat-right\""));
    }

    #[test]
    fn text_is_escaped() {
        let marks = Marks {
            labels: vec![("<b>".to_string(), (3, 3))],
            ..Marks::default()
        };
        let link = |_: Target| "/a?b=\"c\"&d='e'<f>".to_string();
        let svg = svg(&ShogiDiagram {
            title: "A <script> & \"quotes\" 'too'",
            link: Some(&link),
            ..diagram(&[], &marks)
        });
        assert!(
            svg.contains("aria-label=\"A &lt;script&gt; &amp; &quot;quotes&quot; &#39;too&#39;\"")
        );
        assert!(svg.contains(">&lt;b&gt;</text>"));
        assert!(svg.contains("href=\"/a?b=&quot;c&quot;&amp;d=&#39;e&#39;&lt;f&gt;\""));
        assert!(!svg.contains("<script") && !svg.contains("<b>"));
    }
}
