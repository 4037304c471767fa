//! Writes `target/preview/go.html`: Go board SVGs at phone (360 px) and desktop (600 px)
//! widths, for looking at the drawing in a browser; also prints how long a 19×19 render takes.
//!
//! Run with `cargo run --release --example preview_go`.

use qiyuan::lang::Lang;
use qiyuan::render::go::{svg, GoDiagram};
use qiyuan::render::Marks;
use qiyuan::rules::go::{Board, Point};
use std::fmt::Write;
use std::time::Instant;

fn points(board: &Board, names: &[&str]) -> Vec<Point> {
    names.iter().map(|n| board.point(n).unwrap()).collect()
}

fn main() {
    let empty19 = Board::new(19).unwrap();
    let nine = Board::from_text(
        9,
        "
        . . . . . . . . .
        . . . . . . . . .
        . . O O . . X . .
        . . X O X . . . .
        . . X X O . . . .
        . . . O . . X . .
        . . X . . O . . .
        . . . . . . . . .
        . . . . . . . . .
        ",
    )
    .unwrap();
    let nine_marks = Marks {
        triangles: points(&nine, &["C6", "G3"]),
        squares: points(&nine, &["D5", "B8"]),
        circles: points(&nine, &["E5", "H8"]),
        crosses: points(&nine, &["F2", "D7"]),
        labels: vec![
            ("A".to_string(), nine.point("E7").unwrap()),
            ("B".to_string(), nine.point("B2").unwrap()),
            ("1".to_string(), nine.point("C3").unwrap()),
            ("12".to_string(), nine.point("F3").unwrap()),
        ],
    };
    let nine_libs = nine.liberties(nine.point("C5").unwrap());
    let nine_selected = points(&nine, &["E4", "H5", "C7"]);

    let corner19 = Board::from_text(
        19,
        "
        . . . . . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . . . . . .
        . . . O O . . . . . . . . . . . . . .
        . . O X X O . . . . . . . . . . . . .
        . . . X . X . . . . . . . . . . . . .
        . . . . . . . . . . . . . . . . . . .
        ",
    )
    .unwrap();
    let corner_marks = Marks {
        labels: vec![
            ("A".to_string(), corner19.point("B2").unwrap()),
            ("B".to_string(), corner19.point("E2").unwrap()),
        ],
        ..Marks::default()
    };
    let corner_view = Some((corner19.point("A8").unwrap(), corner19.point("H1").unwrap()));
    let side_view = Some((
        corner19.point("C10").unwrap(),
        corner19.point("H1").unwrap(),
    ));

    let mut thirteen = Board::new(13).unwrap();
    for (name, black) in [("D4", true), ("K10", false), ("D10", true), ("K4", false)] {
        let p = thirteen.point(name).unwrap();
        thirteen.set(
            p,
            Some(if black {
                qiyuan::rules::go::Color::Black
            } else {
                qiyuan::rules::go::Color::White
            }),
        );
    }
    let five = Board::from_text(
        5,
        "
        . . . . .
        . X O . .
        . X O . .
        . . X O .
        . . . . .
        ",
    )
    .unwrap();
    let five_libs = five.liberties(five.point("C4").unwrap());
    let five_selected = points(&five, &["D4", "C5"]);
    let no_marks = Marks::default();
    // Any size: SGF names need no board size. `&` and `<` must come out escaped.
    let link = |p: Point| format!("/go/answer?p={}&x=<y>", p.sgf());

    let plain = |board, title| GoDiagram {
        board,
        view: None,
        last_move: None,
        marks: &no_marks,
        liberties: &[],
        selected: &[],
        link: None,
        heat: None,
        territory: &[],
        lang: Lang::En,
        title,
    };
    let diagrams: Vec<(&str, GoDiagram)> = vec![
        ("Empty 19×19", plain(&empty19, "Empty 19×19 board")),
        (
            "9×9: marks, labels, liberties of C5, selected, last move F3",
            GoDiagram {
                last_move: nine.point("G4").ok(),
                marks: &nine_marks,
                liberties: &nine_libs,
                selected: &nine_selected,
                lang: Lang::Zh,
                ..plain(&nine, "9路：标记 <测试> & \"引号\"")
            },
        ),
        (
            "19×19 corner crop A8–H1",
            GoDiagram {
                view: corner_view,
                marks: &corner_marks,
                last_move: corner19.point("F3").ok(),
                ..plain(&corner19, "Lower-left corner")
            },
        ),
        (
            "19×19 side crop C10–H1",
            GoDiagram {
                view: side_view,
                ..plain(&corner19, "Lower side")
            },
        ),
        (
            "13×13",
            GoDiagram {
                last_move: thirteen.point("K4").ok(),
                ..plain(&thirteen, "13×13 with four stones")
            },
        ),
        (
            "5×5 interactive (links)",
            GoDiagram {
                link: Some(&link),
                liberties: &five_libs,
                selected: &five_selected,
                last_move: five.point("D2").ok(),
                ..plain(&five, "Click the liberties of C4")
            },
        ),
    ];

    let head = String::from(
        "<!doctype html><html><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width\">\
         <title>Go board preview</title><style>\
         body{font-family:sans-serif;margin:8px;background:#f4f1ea;color:#222}\
         .row{display:flex;flex-wrap:wrap;gap:16px;align-items:flex-start;margin-bottom:24px}\
         .box{width:360px;max-width:100%}.wide{width:600px;max-width:100%}\
         .goban{display:block}\
         .goban .pt:hover rect,.goban .pt:focus rect{fill:rgba(255,255,255,.25)}\
         h2{font-size:15px;margin:4px 0}\
         </style></head><body>",
    );
    // One page with everything, and one page per diagram (go-1.html, …) for close looks.
    std::fs::create_dir_all("target/preview").unwrap();
    let mut html = head.clone();
    for (i, (caption, d)) in diagrams.iter().enumerate() {
        let picture = svg(d);
        let mut section = String::new();
        let _ = write!(
            section,
            "<h2>{caption} ({} bytes)</h2><div class=\"row\"><div class=\"box\">{picture}</div>\
             <div class=\"wide\">{picture}</div></div>",
            picture.len()
        );
        html.push_str(&section);
        let page = format!("{head}{section}</body></html>");
        std::fs::write(format!("target/preview/go-{}.html", i + 1), page).unwrap();
    }
    html.push_str("</body></html>");
    std::fs::write("target/preview/go.html", html).unwrap();
    println!(
        "wrote target/preview/go.html and go-1.html … go-{}.html",
        diagrams.len()
    );

    let busy = GoDiagram {
        last_move: Some(Point::new(3, 3)),
        ..plain(&corner19, "timing")
    };
    for (name, d) in [
        ("19x19", &busy),
        (
            "19x19 links",
            &GoDiagram {
                link: Some(&link),
                ..plain(&corner19, "timing")
            },
        ),
    ] {
        let runs = 2000;
        let start = Instant::now();
        let mut total = 0;
        for _ in 0..runs {
            total += svg(d).len();
        }
        let each = start.elapsed() / runs;
        println!(
            "{name}: {each:?} per render ({} bytes)",
            total / runs as usize
        );
    }
}
