//! The SVG kit the three boards share: escaping, fonts, tints, flags, marks, arrows, move
//! hints and halos. Inputs are plain data; each board maps its squares or points to drawing
//! units and calls these.

use super::Marks;
use std::collections::BTreeMap;
use std::fmt::Write;

/// The sans-serif font of coordinates and labels.
pub(crate) const FONT: &str = "font-family=\"Helvetica Neue,Arial,Noto Sans,sans-serif\"";
/// Legal destinations.
pub(crate) const HINT: &str = "#0f4a16";
/// Arrows.
pub(crate) const ARROW: &str = "#1b7d25";
/// Marks, with a light halo so that they read on any square or piece.
pub(crate) const MARK: &str = "#1747b5";
/// Fills of the square tints, weakest first.
pub(crate) const TINT_HIGHLIGHT: &str = "fill=\"#0a7cff\" fill-opacity=\".5\"";
pub(crate) const TINT_LAST: &str = "fill=\"#d7c437\" fill-opacity=\".55\"";
pub(crate) const TINT_SELECTED: &str = "fill=\"#3c9a3c\" fill-opacity=\".62\"";

/// What a square of a chess, shogi or xiangqi board shows, for its accessible name: the piece picked
/// up, a legal destination, the last move, a king in check, an author's shading, a mark.
pub(crate) const F_SELECTED: u8 = 1;
/// A legal destination of the piece picked up.
pub(crate) const F_DOT: u8 = 2;
/// A square of the last move.
pub(crate) const F_LAST: u8 = 4;
/// A king in check.
pub(crate) const F_CHECK: u8 = 8;
/// Shaded by the author.
pub(crate) const F_HIGHLIGHT: u8 = 16;
/// Carries a mark.
pub(crate) const F_MARK: u8 = 32;

/// Appends `text` with `& < > " '` escaped, safe inside SVG/HTML text and attributes.
pub(crate) fn push_escaped(out: &mut String, text: &str) {
    let mut rest = text;
    while let Some(i) = rest.find(['&', '<', '>', '"', '\'']) {
        out.push_str(&rest[..i]);
        out.push_str(match rest.as_bytes()[i] {
            b'&' => "&amp;",
            b'<' => "&lt;",
            b'>' => "&gt;",
            b'"' => "&quot;",
            _ => "&#39;",
        });
        rest = &rest[i + 1..];
    }
    out.push_str(rest);
}

/// `text` with `& < > " '` escaped for SVG/HTML text and attributes.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 8);
    push_escaped(&mut out, text);
    out
}

/// Every point that carries a mark.
pub(crate) fn marked<P>(marks: &Marks<P>) -> impl Iterator<Item = &P> {
    marks
        .triangles
        .iter()
        .chain(&marks.squares)
        .chain(&marks.circles)
        .chain(&marks.crosses)
        .chain(marks.labels.iter().map(|(_, p)| p))
}

/// Opens the root element, its title, and the group of everything drawn (`aria-hidden`).
pub(crate) fn open_svg(out: &mut String, class: &str, w: i32, h: i32, links: bool, title: &str) {
    let title = escape(title);
    let _ = write!(
        out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"{class}\" viewBox=\"0 0 {w} {h}\" \
         width=\"100%\" role=\"{}\" aria-label=\"{title}\"><title>{title}</title>\
         <g aria-hidden=\"true\">",
        if links { "group" } else { "img" }
    );
}

/// Squares tinted with `fill`; `half` is half a square's width and height.
pub(crate) fn tints<P: Copy>(
    out: &mut String,
    class: &str,
    fill: &str,
    squares: &[P],
    at: impl Fn(P) -> Option<(i32, i32)>,
    half: (i32, i32),
) {
    if squares.is_empty() {
        return;
    }
    let _ = write!(out, "<path class=\"{class}\" {fill} d=\"");
    for &p in squares {
        if let Some((x, y)) = at(p) {
            let _ = write!(
                out,
                "M{} {}h{}v{}h-{}z",
                x - half.0,
                y - half.1,
                2 * half.0,
                2 * half.1,
                2 * half.0
            );
        }
    }
    out.push_str("\"/>");
}

/// A red glow around a king in check: concentric circles, each faintly red.
pub(crate) fn halo(out: &mut String, x: i32, y: i32, r: i32) {
    let _ = write!(
        out,
        "<g class=\"check\" fill=\"#f0161c\" fill-opacity=\".2\">"
    );
    for i in 0..5 {
        let _ = write!(
            out,
            "<circle cx=\"{x}\" cy=\"{y}\" r=\"{}\"/>",
            r - i * r / 6
        );
    }
    out.push_str("</g>");
}

/// Legal destinations: dots on empty squares, rings round occupied ones.
pub(crate) fn hints<P: Copy>(
    out: &mut String,
    dots: &[P],
    at: impl Fn(P) -> Option<(i32, i32)>,
    occupied: impl Fn(P) -> bool,
) {
    if dots.is_empty() {
        return;
    }
    let _ = write!(
        out,
        "<g class=\"dots\" fill=\"{HINT}\" fill-opacity=\".55\">"
    );
    for &p in dots {
        if let Some((x, y)) = at(p) {
            if occupied(p) {
                let _ = write!(
                    out,
                    "<circle cx=\"{x}\" cy=\"{y}\" r=\"43\" fill=\"none\" stroke=\"{HINT}\" \
                     stroke-opacity=\".55\" stroke-width=\"8\"/>"
                );
            } else {
                let _ = write!(out, "<circle cx=\"{x}\" cy=\"{y}\" r=\"13\"/>");
            }
        }
    }
    out.push_str("</g>");
}

/// Appends a number with at most one decimal.
pub(crate) fn num(out: &mut String, v: f64) {
    let v = (v * 10.0).round() / 10.0;
    if v == v.trunc() {
        let _ = write!(out, "{}", v as i64);
    } else {
        let _ = write!(out, "{v:.1}");
    }
}

/// Arrows from centre to centre: a semi-transparent green shaft and head, one polygon each.
pub(crate) fn arrows<P: Copy>(
    out: &mut String,
    arrows: &[(P, P)],
    at: impl Fn(P) -> Option<(i32, i32)>,
) {
    if arrows.is_empty() {
        return;
    }
    let _ = write!(
        out,
        "<g class=\"arrows\" fill=\"{ARROW}\" fill-opacity=\".7\">"
    );
    for &(from, to) in arrows {
        let (Some((x0, y0)), Some((x1, y1))) = (at(from), at(to)) else {
            continue;
        };
        let (dx, dy) = ((x1 - x0) as f64, (y1 - y0) as f64);
        let len = (dx * dx + dy * dy).sqrt();
        if len < 1.0 {
            continue;
        }
        let (ux, uy) = (dx / len, dy / len);
        let (nx, ny) = (-uy, ux);
        // Shaft half-width, head half-width, head length; the tip stops short of the centre.
        let (shaft, head, head_len, short) = (10.0, 28.0, 44.0, 12.0);
        let (x0, y0) = (x0 as f64 + ux * 12.0, y0 as f64 + uy * 12.0);
        let (tx, ty) = (x1 as f64 - ux * short, y1 as f64 - uy * short);
        let (bx, by) = (tx - ux * head_len, ty - uy * head_len);
        let points = [
            (x0 + nx * shaft, y0 + ny * shaft),
            (bx + nx * shaft, by + ny * shaft),
            (bx + nx * head, by + ny * head),
            (tx, ty),
            (bx - nx * head, by - ny * head),
            (bx - nx * shaft, by - ny * shaft),
            (x0 - nx * shaft, y0 - ny * shaft),
        ];
        out.push_str("<polygon points=\"");
        for (i, (x, y)) in points.into_iter().enumerate() {
            if i > 0 {
                out.push(' ');
            }
            num(out, x);
            out.push(',');
            num(out, y);
        }
        out.push_str("\"/>");
    }
    out.push_str("</g>");
}

/// Shapes and labels. Shapes are blue outlines over a light halo. A label is a big letter on
/// an empty square, and a small badge in the corner of an occupied one.
pub(crate) fn marks<P: Copy>(
    out: &mut String,
    marks: &Marks<P>,
    at: impl Fn(P) -> Option<(i32, i32)>,
    occupied: impl Fn(P) -> bool,
    halo_fill: &str,
) {
    if marks.is_empty() {
        return;
    }
    let mut shapes = String::new();
    for &p in &marks.triangles {
        if let Some((x, y)) = at(p) {
            let _ = write!(shapes, "M{x} {}l30 52h-60z", y - 32);
        }
    }
    for &p in &marks.squares {
        if let Some((x, y)) = at(p) {
            let _ = write!(shapes, "M{} {}h56v56h-56z", x - 28, y - 28);
        }
    }
    for &p in &marks.circles {
        if let Some((x, y)) = at(p) {
            let _ = write!(shapes, "M{} {y}a33 33 0 1 0 66 0a33 33 0 1 0-66 0z", x - 33);
        }
    }
    for &p in &marks.crosses {
        if let Some((x, y)) = at(p) {
            let _ = write!(shapes, "M{} {}l52 52m0-52l-52 52", x - 26, y - 26);
        }
    }
    out.push_str("<g class=\"marks\">");
    if !shapes.is_empty() {
        let _ = write!(
            out,
            "<path d=\"{shapes}\" fill=\"none\" stroke=\"#fff\" stroke-opacity=\".8\" \
             stroke-width=\"15\" stroke-linejoin=\"round\" stroke-linecap=\"round\"/>\
             <path d=\"{shapes}\" fill=\"none\" stroke=\"{MARK}\" stroke-width=\"8\" \
             stroke-linejoin=\"round\" stroke-linecap=\"round\"/>"
        );
    }
    if !marks.labels.is_empty() {
        let _ = write!(
            out,
            "<g {FONT} font-weight=\"bold\" text-anchor=\"middle\">"
        );
        for (text, p) in &marks.labels {
            let Some((x, y)) = at(*p) else { continue };
            let text = escape(text);
            let long = text.chars().count() > 1;
            if occupied(*p) {
                let (bx, by) = (x + 31, y - 31);
                let _ = write!(
                    out,
                    "<circle cx=\"{bx}\" cy=\"{by}\" r=\"19\" fill=\"{MARK}\" stroke=\"#fff\" \
                     stroke-width=\"3\"/><text x=\"{bx}\" y=\"{by}\" dy=\".35em\" \
                     font-size=\"{}\" fill=\"#fff\">{text}</text>",
                    if long { 18 } else { 26 }
                );
            } else {
                let _ = write!(
                    out,
                    "<circle cx=\"{x}\" cy=\"{y}\" r=\"34\" fill=\"{halo_fill}\" \
                     fill-opacity=\".75\"/><text x=\"{x}\" y=\"{y}\" dy=\".35em\" \
                     font-size=\"{}\" fill=\"{MARK}\">{text}</text>",
                    if long { 38 } else { 54 }
                );
            }
        }
        out.push_str("</g>");
    }
    out.push_str("</g>");
}

/// A heat map over a board: how many answers landed on each point or square, and which
/// are right. Plain data, so that every board can draw it over its own cells.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Heat {
    /// By point or square name as the board writes `data-p` (`D4`, `e4`, `5e`).
    pub cells: BTreeMap<String, HeatCount>,
    /// The largest count, which is shaded the most.
    pub most: usize,
}

/// One point or square of a [`Heat`] map.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct HeatCount {
    /// How many answers landed here.
    pub count: usize,
    /// Whether an answer here is right (ringed).
    pub right: bool,
}

impl Heat {
    /// The heat map of `counts` (answers by point or square), with the names in `right`
    /// ringed.
    pub fn new<'a>(
        counts: impl IntoIterator<Item = (&'a String, &'a usize)>,
        right: impl IntoIterator<Item = &'a String>,
    ) -> Heat {
        let mut heat = Heat::default();
        for (name, &count) in counts {
            heat.cells.entry(name.clone()).or_default().count += count;
        }
        for name in right {
            heat.cells.entry(name.clone()).or_default().right = true;
        }
        heat.most = heat.cells.values().map(|c| c.count).max().unwrap_or(0);
        heat
    }
}

/// Opens the group of a heat map's cells, drawn over everything else.
pub(crate) fn open_heat(out: &mut String) {
    out.push_str("<g class=\"heat\">");
}

/// Closes the group of a heat map's cells.
pub(crate) fn close_heat(out: &mut String) {
    out.push_str("</g>");
}

/// One cell of `heat` over the point or square `name`, whose own rectangle is `x0 y0 w h`:
/// shaded by its share of the answers with the count written on it, and ringed when right.
/// Nothing when no answer landed there and it is not right.
pub(crate) fn heat_cell(out: &mut String, heat: &Heat, name: &str, rect: (f64, f64, f64, f64)) {
    let Some(&HeatCount { count: n, right }) = heat.cells.get(name) else {
        return;
    };
    if n == 0 && !right {
        return;
    }
    let (x0, y0, w, h) = rect;
    let cell = w.min(h);
    let (cx, cy) = (x0 + w / 2.0, y0 + h / 2.0);
    let most = heat.most.max(1) as f64;
    let _ = write!(out, "<g class=\"heat-cell\" data-p=\"");
    push_escaped(out, name);
    out.push_str("\">");
    if n > 0 {
        let _ = write!(
            out,
            "<rect x=\"{x0:.1}\" y=\"{y0:.1}\" width=\"{w:.1}\" height=\"{h:.1}\" \
             fill=\"#d9480f\" fill-opacity=\"{:.2}\"/>\
             <text x=\"{cx:.1}\" y=\"{cy:.1}\" font-size=\"{:.1}\" font-weight=\"bold\" \
             text-anchor=\"middle\" dominant-baseline=\"central\" fill=\"#111\" \
             stroke=\"#fff\" stroke-width=\"{:.1}\" paint-order=\"stroke\" {FONT}>{n}</text>",
            0.25 + 0.5 * n as f64 / most,
            cell * 0.55,
            cell * 0.12,
        );
    }
    if right {
        let _ = write!(
            out,
            "<rect class=\"heat-right\" x=\"{:.1}\" y=\"{:.1}\" width=\"{:.1}\" \
             height=\"{:.1}\" fill=\"none\" stroke=\"#1b7d25\" stroke-width=\"{:.1}\"/>",
            x0 + cell * 0.06,
            y0 + cell * 0.06,
            w - cell * 0.12,
            h - cell * 0.12,
            cell * 0.12
        );
    }
    out.push_str("</g>");
}

/// Helpers for the boards' tests: counting and cutting out parts of a picture.
#[cfg(test)]
pub(crate) mod testing {
    pub(crate) fn count(haystack: &str, needle: &str) -> usize {
        haystack.matches(needle).count()
    }
    /// The part of `svg` inside the first group that starts with `<g {start}`.
    pub(crate) fn group<'s>(svg: &'s str, start: &str) -> &'s str {
        let from = svg
            .find(&format!("<g {start}"))
            .unwrap_or_else(|| panic!("no group {start}"));
        let rest = &svg[from..];
        &rest[..rest.find("</g>").unwrap()]
    }
    /// The x, y, width and height of the first `<rect` after `after` in `svg`.
    pub(crate) fn rect_after(svg: &str, after: &str) -> (f64, f64, f64, f64) {
        let from = svg.find(after).unwrap_or_else(|| panic!("no {after}"));
        let rest = &svg[from..];
        let tag = &rest[rest.find("<rect").unwrap()..];
        let tag = &tag[..tag.find("/>").unwrap()];
        let num = |name: &str| -> f64 {
            let at = tag.find(&format!(" {name}=\"")).unwrap() + name.len() + 3;
            tag[at..at + tag[at..].find('"').unwrap()].parse().unwrap()
        };
        (num("x"), num("y"), num("width"), num("height"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_markup_and_quotes() {
        assert_eq!(
            escape("<a href=\"x\">'&'</a>"),
            "&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;"
        );
        assert_eq!(escape("黑先"), "黑先");
    }

    #[test]
    fn heat_cells_shade_by_share_count_and_ring_the_right() {
        let counts = BTreeMap::from([("D4".to_string(), 3), ("E4".to_string(), 1)]);
        let right = ["E4".to_string(), "C3".to_string()];
        let heat = Heat::new(&counts, &right);
        assert_eq!(heat.most, 3);
        assert_eq!(
            heat.cells["C3"],
            HeatCount {
                count: 0,
                right: true
            }
        );
        let mut out = String::new();
        heat_cell(&mut out, &heat, "D4", (50.0, 150.0, 100.0, 100.0));
        assert_eq!(
            out,
            format!(
                "<g class=\"heat-cell\" data-p=\"D4\"><rect x=\"50.0\" y=\"150.0\" \
                 width=\"100.0\" height=\"100.0\" fill=\"#d9480f\" fill-opacity=\"0.75\"/>\
                 <text x=\"100.0\" y=\"200.0\" font-size=\"55.0\" font-weight=\"bold\" \
                 text-anchor=\"middle\" dominant-baseline=\"central\" fill=\"#111\" \
                 stroke=\"#fff\" stroke-width=\"12.0\" paint-order=\"stroke\" {FONT}>3</text>\
                 </g>"
            )
        );
        out.clear();
        heat_cell(&mut out, &heat, "E4", (0.0, 0.0, 100.0, 100.0));
        assert!(out.contains("fill-opacity=\"0.42\""));
        assert!(out.contains(
            "<rect class=\"heat-right\" x=\"6.0\" y=\"6.0\" width=\"88.0\" \
             height=\"88.0\" fill=\"none\" stroke=\"#1b7d25\" stroke-width=\"12.0\"/></g>"
        ));
        out.clear();
        heat_cell(&mut out, &heat, "C3", (0.0, 0.0, 100.0, 100.0));
        assert!(out.contains("heat-right") && !out.contains("<text"));
        out.clear();
        heat_cell(&mut out, &heat, "A1", (0.0, 0.0, 100.0, 100.0));
        assert_eq!(out, "");
    }
}
