//! Writes `target/preview/boards.html`: chess and shogi board SVGs at phone (360 px) and
//! desktop (600 px) widths, for looking at the drawing in a browser, and one page per
//! diagram (`boards-1.html`, …) for close looks.
//!
//! Run with `cargo run --example preview_boards`.

use qiyuan::lang::Lang;
use qiyuan::render::chess::{self, ChessDiagram};
use qiyuan::render::shogi::{self, Piece, ShogiDiagram, Target};
use qiyuan::render::Marks;
use std::fmt::Write;

/// A chess square from its name, such as `e4`.
fn sq(name: &str) -> chess::Sq {
    let b = name.as_bytes();
    (b[0] - b'a', b[1] - b'1')
}

/// Chess pieces from the board part of a FEN.
fn fen(board: &str) -> Vec<(chess::Sq, char)> {
    let mut pieces = Vec::new();
    for (i, row) in board.split('/').enumerate() {
        let rank = 7 - i as u8;
        let mut file = 0u8;
        for c in row.chars() {
            if let Some(n) = c.to_digit(10) {
                file += n as u8;
            } else {
                pieces.push(((file, rank), c));
                file += 1;
            }
        }
    }
    pieces
}

/// Shogi pieces from the board part of an SFEN (`+` before a letter promotes it).
fn sfen(board: &str) -> Vec<(shogi::Sq, Piece)> {
    let mut pieces = Vec::new();
    for (i, row) in board.split('/').enumerate() {
        let rank = i as u8 + 1;
        let mut file = 9u8;
        let mut promoted = false;
        for c in row.chars() {
            if let Some(n) = c.to_digit(10) {
                file -= n as u8;
            } else if c == '+' {
                promoted = true;
            } else {
                pieces.push((
                    (file, rank),
                    Piece {
                        black: c.is_ascii_uppercase(),
                        letter: c.to_ascii_uppercase(),
                        promoted,
                    },
                ));
                promoted = false;
                file -= 1;
            }
        }
    }
    pieces
}

/// A shogi square from its USI name, such as `5e`.
fn usi(name: &str) -> shogi::Sq {
    let b = name.as_bytes();
    (b[0] - b'0', b[1] - b'a' + 1)
}

enum Board<'a> {
    Chess(ChessDiagram<'a>),
    Shogi(ShogiDiagram<'a>),
}

fn main() {
    let no_marks = Marks::default();

    // Chess.
    let chess_start = fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR");
    // Légal's trap: 1.e4 e5 2.Nf3 d6 3.Bc4 Bg4 4.Nc3 g6 5.Nxe5 Bxd1 6.Bxf7+, Ke7 forced.
    let legal = fen("rn1qkbnr/ppp2B1p/3p2p1/4N3/4P3/2N5/PPPP1PPP/R1BbK2R");
    let legal_arrows = [(sq("c3"), sq("d5")), (sq("f7"), sq("e8"))];
    let legal_dots = [sq("e7")];
    let legal_marks = Marks {
        circles: vec![sq("d5")],
        ..Marks::default()
    };
    // 1.e4 d5: the pawn on e4 may push or capture.
    let scandi = fen("rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR");
    let scandi_dots = [sq("e5"), sq("d5")];
    let scandi_marks = Marks {
        triangles: vec![sq("c6")],
        squares: vec![sq("f3")],
        crosses: vec![sq("e6")],
        labels: vec![("A".to_string(), sq("b5")), ("B".to_string(), sq("g8"))],
        ..Marks::default()
    };
    let scandi_highlight = [sq("d4"), sq("c4")];
    let chess_link = |s: chess::Sq| format!("/chess/play?sq={}&x=<y>", chess::square_name(s));
    let chess_plain = |pieces, title| ChessDiagram {
        pieces,
        flipped: false,
        last_move: None,
        check: None,
        selected: None,
        dots: &[],
        highlight: &[],
        arrows: &[],
        marks: &no_marks,
        link: None,
        heat: None,
        lang: Lang::En,
        title,
    };
    let legal_diagram = |flipped| ChessDiagram {
        flipped,
        last_move: Some((sq("c4"), sq("f7"))),
        check: Some(sq("e8")),
        selected: Some(sq("e8")),
        dots: &legal_dots,
        arrows: &legal_arrows,
        marks: &legal_marks,
        ..chess_plain(&legal, "Légal's trap: 6.Bxf7+ Ke7 7.Nd5#")
    };

    // Shogi.
    let shogi_start = sfen("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL");
    let middle = sfen("ln1g3nl/1k4+R2/ppp1ppB1p/3p2p2/9/2P1P4/PP1P1PP1P/1+s2GS3/LN1GK2NL");
    let mut hands = [[0u8; 7]; 2];
    hands[0] = [0, 0, 1, 1, 0, 0, 3]; // Black: G, S, 3 P
    hands[1] = [1, 1, 0, 0, 1, 0, 2]; // White: R, B, N, 2 P
    let middle_promoted = {
        let mut pieces = middle.clone();
        // The bishop on 3c has promoted to a horse, and a tokin sits on 2c.
        for (s, p) in pieces.iter_mut() {
            if *s == usi("3c") {
                p.promoted = true;
            }
        }
        pieces.push((
            usi("2c"),
            Piece {
                black: true,
                letter: 'P',
                promoted: true,
            },
        ));
        pieces
    };
    // Where Black may drop a pawn: not on a file with a Black pawn, not on rank a.
    let drop_dots: Vec<shogi::Sq> = {
        let occupied = |s: shogi::Sq| middle_promoted.iter().any(|(t, _)| *t == s);
        let pawn_files: Vec<u8> = middle_promoted
            .iter()
            .filter(|(_, p)| p.black && p.letter == 'P' && !p.promoted)
            .map(|(s, _)| s.0)
            .collect();
        let mut dots = Vec::new();
        for file in 1..=9u8 {
            if pawn_files.contains(&file) {
                continue;
            }
            for rank in 2..=9u8 {
                if !occupied((file, rank)) {
                    dots.push((file, rank));
                }
            }
        }
        dots
    };
    let shogi_marks = Marks {
        triangles: vec![usi("5e")],
        labels: vec![("A".to_string(), usi("6e")), ("B".to_string(), usi("8b"))],
        ..Marks::default()
    };
    let shogi_arrows = [(usi("3b"), usi("8b"))];
    let shogi_link = |t: Target| match t {
        Target::Square(s) => format!("/shogi/play?sq={}&x=<y>", shogi::square_name(s)),
        Target::Hand { black, letter } => format!("/shogi/play?drop={letter}&black={black}"),
    };
    let shogi_plain = |pieces, title| ShogiDiagram {
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
        marks: &no_marks,
        link: None,
        heat: None,
        lang: Lang::Zh,
        title,
    };
    let middle_diagram = |flipped| ShogiDiagram {
        hands,
        flipped,
        zones: true,
        last_move: Some((Some(usi("2b")), usi("3b"))),
        arrows: &shogi_arrows,
        check: Some(usi("8b")),
        marks: &shogi_marks,
        ..shogi_plain(&middle_promoted, "中盘：龙将军，双方都有持驹")
    };

    let diagrams: Vec<(&str, Board)> = vec![
        (
            "Chess: start position",
            Board::Chess(chess_plain(&chess_start, "Starting position")),
        ),
        (
            "Chess: last move Bxf7+, check, king selected with its one move, arrows, a circle",
            Board::Chess(legal_diagram(false)),
        ),
        (
            "Chess: the same, flipped (Black at the bottom)",
            Board::Chess(legal_diagram(true)),
        ),
        (
            "Chess: interactive (links), zh names, e4 selected with a push and a capture, marks",
            Board::Chess(ChessDiagram {
                selected: Some(sq("e4")),
                dots: &scandi_dots,
                last_move: Some((sq("d7"), sq("d5"))),
                highlight: &scandi_highlight,
                marks: &scandi_marks,
                link: Some(&chess_link),
                lang: Lang::Zh,
                ..chess_plain(&scandi, "1.e4 d5：白兵可以吃")
            }),
        ),
        (
            "Shogi: start position",
            Board::Shogi(shogi_plain(&shogi_start, "平手初始局面")),
        ),
        (
            "Shogi: pieces in hand, promoted pieces, zones, last move, check, arrow, marks",
            Board::Shogi(middle_diagram(false)),
        ),
        (
            "Shogi: a pawn drop selected in hand, with dots (interactive, English)",
            Board::Shogi(ShogiDiagram {
                hands,
                selected: Some(Target::Hand {
                    black: true,
                    letter: 'P',
                }),
                dots: &drop_dots,
                link: Some(&shogi_link),
                lang: Lang::En,
                ..shogi_plain(&middle_promoted, "Where can Black drop a pawn?")
            }),
        ),
        (
            "Shogi: the middle game flipped (White at the bottom)",
            Board::Shogi(middle_diagram(true)),
        ),
    ];

    let head = String::from(
        "<!doctype html><html><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width\">\
         <title>Chess and shogi board preview</title><style>\
         body{font-family:sans-serif;margin:8px;background:#f4f1ea;color:#222}\
         .row{display:flex;flex-wrap:wrap;gap:16px;align-items:flex-start;margin-bottom:24px}\
         .box{width:360px;max-width:100%}.wide{width:600px;max-width:100%}\
         svg{display:block}\
         .pt:hover rect,.pt:focus rect{fill:rgba(255,255,255,.25)}\
         h2{font-size:15px;margin:4px 0}\
         </style></head><body>",
    );
    std::fs::create_dir_all("target/preview").unwrap();
    let mut html = head.clone();
    for (i, (caption, d)) in diagrams.iter().enumerate() {
        let picture = match d {
            Board::Chess(d) => chess::svg(d),
            Board::Shogi(d) => shogi::svg(d),
        };
        let mut section = String::new();
        let _ = write!(
            section,
            "<h2>{caption} ({} bytes)</h2><div class=\"row\"><div class=\"box\">{picture}</div>\
             <div class=\"wide\">{picture}</div></div>",
            picture.len()
        );
        html.push_str(&section);
        let page = format!("{head}{section}</body></html>");
        std::fs::write(format!("target/preview/boards-{}.html", i + 1), page).unwrap();
    }
    html.push_str("</body></html>");
    std::fs::write("target/preview/boards.html", html).unwrap();
    println!(
        "wrote target/preview/boards.html and boards-1.html … boards-{}.html",
        diagrams.len()
    );
}
