//! Tests of the xiangqi board picture ([`super`]): where pieces, lines, coordinates, marks
//! and links land, worked out here from the board's geometry, not from the drawing code.

use super::*;
use crate::render::svg::testing::{count, group};
use crate::rules::xiangqi::Position;
use std::collections::BTreeMap;

fn diagram<'a>(pieces: &'a [(Point, Color, Kind)], marks: &'a Marks<Point>) -> XiangqiDiagram<'a> {
    XiangqiDiagram {
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

fn pt(name: &str) -> Point {
    Point::parse(name).unwrap()
}

/// Where a point is drawn with Red at the bottom: `a9` at (100, 100), 100 units apart.
fn expected_xy(name: &str) -> (i32, i32) {
    let b = name.as_bytes();
    let (file, rank) = ((b[0] - b'a') as i32, (b[1] - b'0') as i32);
    (100 + 100 * file, 100 + 100 * (9 - rank))
}

/// The characters drawn in a side's group, by their place in the picture.
fn glyphs(svg: &str, side: &str) -> BTreeMap<(i32, i32), char> {
    let g = group(svg, &format!("class=\"{side}-pieces\""));
    let mut found = BTreeMap::new();
    for part in g.split("<text ").skip(1) {
        let num = |name: &str| -> i32 {
            let at = part.find(&format!("{name}=\"")).unwrap() + name.len() + 2;
            part[at..at + part[at..].find('"').unwrap()]
                .parse()
                .unwrap()
        };
        let glyph = part[part.find('>').unwrap() + 1..].chars().next().unwrap();
        assert!(found.insert((num("x"), num("y")), glyph).is_none());
    }
    found
}

/// A small XML well-formedness check: every tag closes in order, attributes are quoted,
/// and every `&` starts an entity.
fn assert_well_formed(svg: &str) {
    let mut stack: Vec<&str> = Vec::new();
    let mut rest = svg;
    while let Some(open) = rest.find('<') {
        let text = &rest[..open];
        for (i, _) in text.match_indices('&') {
            let entity = &text[i..];
            assert!(
                ["&amp;", "&lt;", "&gt;", "&quot;", "&#39;"]
                    .iter()
                    .any(|e| entity.starts_with(e)),
                "bare & in {text:?}"
            );
        }
        assert!(!text.contains('>'), "stray > in {text:?}");
        let close = rest[open..].find('>').expect("unclosed tag") + open;
        let tag = &rest[open + 1..close];
        assert!(!tag.contains('<'), "< inside tag {tag:?}");
        assert_eq!(
            tag.matches('"').count() % 2,
            0,
            "unbalanced quotes in {tag:?}"
        );
        if let Some(name) = tag.strip_prefix('/') {
            assert_eq!(stack.pop(), Some(name), "closing {name}");
        } else if !tag.ends_with('/') {
            let name = tag.split_whitespace().next().unwrap();
            stack.push(name);
        }
        rest = &rest[close + 1..];
    }
    assert!(rest.is_empty() && stack.is_empty(), "left open: {stack:?}");
}

#[rustfmt::skip]
const RED_START: [(&str, char); 16] = [
    ("a0", '车'), ("b0", '马'), ("c0", '相'), ("d0", '仕'), ("e0", '帅'), ("f0", '仕'),
    ("g0", '相'), ("h0", '马'), ("i0", '车'), ("b2", '炮'), ("h2", '炮'), ("a3", '兵'),
    ("c3", '兵'), ("e3", '兵'), ("g3", '兵'), ("i3", '兵'),
];
#[rustfmt::skip]
const BLACK_START: [(&str, char); 16] = [
    ("a9", '车'), ("b9", '马'), ("c9", '象'), ("d9", '士'), ("e9", '将'), ("f9", '士'),
    ("g9", '象'), ("h9", '马'), ("i9", '车'), ("b7", '炮'), ("h7", '炮'), ("a6", '卒'),
    ("c6", '卒'), ("e6", '卒'), ("g6", '卒'), ("i6", '卒'),
];

#[test]
fn start_has_32_pieces_with_the_right_characters_on_the_right_points() {
    let pieces = Position::start().pieces();
    let marks = Marks::default();
    let svg = svg(&diagram(&pieces, &marks));
    assert!(svg.starts_with(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"xiangqi\" viewBox=\"0 0 1000 1150\" \
         width=\"100%\" role=\"img\" aria-label=\"test\"><title>test</title>"
    ));
    assert_eq!(count(group(&svg, "class=\"pieces\""), "<circle"), 32);
    for (side, start) in [("red", RED_START), ("black", BLACK_START)] {
        let want: BTreeMap<(i32, i32), char> =
            start.iter().map(|&(p, c)| (expected_xy(p), c)).collect();
        assert_eq!(glyphs(&svg, side), want, "{side}");
    }
    // Simplified forms only, in each side's colour.
    assert!(!svg.contains(['俥', '傌', '車', '馬', '帥', '將', '砲']));
    assert!(svg.contains("class=\"red-pieces\"") && svg.contains(&format!("fill=\"{RED_INK}\"")));
    // No ids or gradients: any number of boards can share a page.
    assert!(!svg.contains("id=") && !svg.contains("Gradient") && !svg.contains("<use"));
    assert_well_formed(&svg);
}

#[test]
fn lines_river_and_palaces() {
    let marks = Marks::default();
    let svg = svg(&diagram(&[], &marks));
    let lines = group(&svg, "class=\"lines\"");
    // The b file stops at the river (rank 5 at y 500, rank 4 at y 600) and goes on.
    assert!(lines.contains("M200 100v400M200 600v400"));
    // The edge files cross it.
    assert!(lines.contains("M100 100v900") && lines.contains("M900 100v900"));
    // Both palaces' diagonals: d9–f7 and f9–d7, d2–f0 and f2–d0.
    assert!(lines.contains("M400 100l200 200M600 100l-200 200"));
    assert!(lines.contains("M400 800l200 200M600 800l-200 200"));
    // Four cannon points with four corners each; ten soldier points, the edge ones with two.
    assert_eq!(count(lines, "H"), 4 * 4 + 6 * 4 + 4 * 2);
    let river = group(&svg, "class=\"river\"");
    for glyph in ['楚', '河', '汉', '界'] {
        assert!(river.contains(&format!("{glyph}</text>")));
    }
    assert!(river.contains("y=\"550\""));
}

#[test]
fn flipped_board_mirrors() {
    let (pos, _) = Position::start().play("h2e2").unwrap();
    let pieces = pos.pieces();
    let marks = Marks::default();
    let normal = svg(&diagram(&pieces, &marks));
    let flipped = svg(&XiangqiDiagram {
        flipped: true,
        ..diagram(&pieces, &marks)
    });
    for side in ["red", "black"] {
        let turned: BTreeMap<(i32, i32), char> = glyphs(&normal, side)
            .into_iter()
            .map(|((x, y), c)| ((1000 - x, 1100 - y), c))
            .collect();
        assert_eq!(glyphs(&flipped, side), turned, "{side}");
    }
    // Red's central cannon: e2 is at (500, 800) with Red below, (500, 300) turned round.
    assert_eq!(glyphs(&normal, "red")[&(500, 800)], '炮');
    assert_eq!(glyphs(&flipped, "red")[&(500, 300)], '炮');
    // Coordinates: Black's 1 over file a and Red's 九 under it; turned round, Red's 一
    // at the top left, Black's 9 at the bottom left.
    let first = |svg: &str, y: i32| {
        let coords = group(svg, "class=\"coords\"");
        let at = coords
            .find(&format!("x=\"100\" y=\"{y}\" dy=\".35em\">"))
            .unwrap();
        coords[at..]
            .split('>')
            .nth(1)
            .unwrap()
            .chars()
            .next()
            .unwrap()
    };
    assert_eq!((first(&normal, 28), first(&normal, 1072)), ('1', '九'));
    assert_eq!((first(&flipped, 28), first(&flipped, 1072)), ('一', '9'));
    let iccs = |svg: &str| group(svg, "class=\"iccs\"").to_string();
    assert!(iccs(&normal).contains("x=\"100\" y=\"1116\" dy=\".35em\">a<"));
    assert!(iccs(&normal).contains("x=\"26\" y=\"100\" dy=\".35em\">9<"));
    assert!(iccs(&flipped).contains("x=\"100\" y=\"1116\" dy=\".35em\">i<"));
    assert!(iccs(&flipped).contains("x=\"26\" y=\"100\" dy=\".35em\">0<"));
}

#[test]
fn marks_land_where_asked() {
    let pieces = [
        (pt("e0"), Color::Red, Kind::King),
        (pt("e9"), Color::Black, Kind::King),
    ];
    let marks = Marks {
        circles: vec![pt("h2")],
        triangles: vec![pt("a9")],
        labels: vec![("A".to_string(), pt("c4")), ("B".to_string(), pt("e0"))],
        ..Marks::default()
    };
    for flipped in [false, true] {
        let svg = svg(&XiangqiDiagram {
            flipped,
            arrows: &[(pt("b0"), pt("c2"))],
            dots: &[pt("e1"), pt("e9")],
            ..diagram(&pieces, &marks)
        });
        let turn = |(x, y): (i32, i32)| {
            if flipped {
                (1000 - x, 1100 - y)
            } else {
                (x, y)
            }
        };
        let m = &svg[svg.find("class=\"marks\"").unwrap()..];
        let (x, y) = turn(expected_xy("h2"));
        assert!(
            m.contains(&format!("M{} {y}a33 33", x - 33)),
            "circle, flipped {flipped}"
        );
        let (x, y) = turn(expected_xy("a9"));
        assert!(m.contains(&format!("M{x} {}l30 52h-60z", y - 32)));
        // A big label on the empty c4, a badge on the king.
        let (x, y) = turn(expected_xy("c4"));
        assert!(m.contains(&format!(
            "<text x=\"{x}\" y=\"{y}\" dy=\".35em\" font-size=\"54\""
        )));
        let (x, y) = turn(expected_xy("e0"));
        assert!(m.contains(&format!("cx=\"{}\" cy=\"{}\" r=\"19\"", x + 31, y - 31)));
        let dots = group(&svg, "class=\"dots\"");
        let (x, y) = turn(expected_xy("e1"));
        assert!(dots.contains(&format!("<circle cx=\"{x}\" cy=\"{y}\" r=\"13\"/>")));
        assert_eq!(count(dots, "r=\"43\""), 1);
        assert_eq!(count(group(&svg, "class=\"arrows\""), "<polygon"), 1);
    }
}

#[test]
fn labels_are_escaped() {
    let pieces = [
        (pt("e0"), Color::Red, Kind::King),
        (pt("d9"), Color::Black, Kind::King),
    ];
    let marks = Marks {
        labels: vec![("<b>&".to_string(), pt("c4"))],
        ..Marks::default()
    };
    let link = |_: Point| "/a?b=\"c\"&d='e'<f>".to_string();
    let counts = BTreeMap::from([("e4\"<x>".to_string(), 2), ("e4".to_string(), 1)]);
    let heat = Heat::new(&counts, &[]);
    let svg = svg(&XiangqiDiagram {
        title: "A <script> & \"quotes\" 'too'",
        link: Some(&link),
        heat: Some(&heat),
        ..diagram(&pieces, &marks)
    });
    assert!(svg.contains("aria-label=\"A &lt;script&gt; &amp; &quot;quotes&quot; &#39;too&#39;\""));
    assert!(svg.contains("<title>A &lt;script&gt; &amp; &quot;quotes&quot; &#39;too&#39;</title>"));
    assert!(svg.contains(">&lt;b&gt;&amp;</text>"));
    assert!(svg.contains("href=\"/a?b=&quot;c&quot;&amp;d=&#39;e&#39;&lt;f&gt;\""));
    assert!(!svg.contains("<script") && !svg.contains("<b>"));
    // Only the board's own point names are drawn from the heat map.
    assert_eq!(count(&svg, "class=\"heat-cell\""), 1);
    assert_well_formed(&svg);
}

#[test]
fn links_have_accessible_names_in_both_languages() {
    let pieces = Position::start().pieces();
    let marks = Marks {
        crosses: vec![pt("e4")],
        ..Marks::default()
    };
    let link = |p: Point| format!("/x?p={p}");
    let base = XiangqiDiagram {
        selected: Some(pt("h2")),
        dots: &[pt("h6"), pt("h9")],
        last_move: Some((pt("b7"), pt("e7"))),
        check: Some(pt("e0")),
        highlight: &[pt("a0")],
        link: Some(&link),
        ..diagram(&pieces, &marks)
    };
    let en = svg(&base);
    assert!(en.contains("role=\"group\""));
    assert_eq!(count(&en, "<a href="), 90);
    assert!(en.contains(
        "<a href=\"/x?p=h2\" class=\"pt\" data-p=\"h2\" aria-label=\"red cannon h2, selected\">"
    ));
    assert!(en.contains("aria-label=\"black horse h9, legal move\""));
    assert!(en.contains("aria-label=\"empty h6, legal move\""));
    assert!(en.contains("aria-label=\"red king e0, in check\""));
    assert!(en.contains("aria-label=\"empty e7, last move\""));
    assert!(en.contains("aria-label=\"empty e4, marked\""));
    assert!(en.contains("aria-label=\"red chariot a0, highlighted\""));
    // The corner point's link reaches the picture's edge; reading order starts at the top.
    assert!(en.contains(
        "aria-label=\"black chariot a9\"><rect x=\"0\" y=\"0\" width=\"150\" height=\"150\"/>"
    ));
    let first = |svg: &str| svg[svg.find("data-p=\"").unwrap() + 8..][..2].to_string();
    assert_eq!(first(&en), "a9");
    let flipped = svg(&XiangqiDiagram {
        flipped: true,
        ..base
    });
    assert_eq!(first(&flipped), "i0");
    let zh = svg(&XiangqiDiagram {
        lang: Lang::Zh,
        ..base
    });
    assert!(zh.contains("aria-label=\"红炮 h2，已选\""));
    assert!(zh.contains("aria-label=\"黑马 h9，可走\""));
    assert!(zh.contains("aria-label=\"红帅 e0，被将军\""));
    assert!(zh.contains("aria-label=\"黑将 e9\""));
    assert!(zh.contains("aria-label=\"空 e5\""));
    assert_well_formed(&en);
    assert_well_formed(&zh);
}

#[test]
fn heat_cells_surround_their_points() {
    use crate::render::svg::testing::rect_after;
    let marks = Marks::default();
    let counts = BTreeMap::from([("e4".to_string(), 5), ("a9".to_string(), 1)]);
    let heat = Heat::new(&counts, &["e4".to_string()]);
    for flipped in [false, true] {
        let hot = svg(&XiangqiDiagram {
            flipped,
            heat: Some(&heat),
            ..diagram(&[], &marks)
        });
        assert_eq!(count(&hot, "class=\"heat-cell\""), 2);
        let (x, y, w, h) = rect_after(&hot, "class=\"heat-cell\" data-p=\"e4\"");
        let (cx, cy) = expected_xy("e4");
        let (cx, cy) = if flipped {
            (1000 - cx, 1100 - cy)
        } else {
            (cx, cy)
        };
        assert_eq!(
            (x + w / 2.0, y + h / 2.0, w, h),
            (cx as f64, cy as f64, 100.0, 100.0)
        );
    }
}
