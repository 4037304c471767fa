//! Positional superko in practice: the cycles of `go/seki-exotics` (triple ko, eternal life
//! 长生, round-robin ko 循环劫) replayed through the engine. Under the Chinese rules (第六条,
//! 禁止全局同形再现) the move that would bring back an earlier whole-board position is refused
//! with [`Illegal::Superko`], so these cycles cannot go on for ever.
//!
//! The corpus is read from `$QIYUAN_CORPUS` or `tests/data/corpus`; the test fails if it
//! is missing.

mod common;

use qiyuan::lang::Lang;
use qiyuan::rules::go::{Board, Color, Illegal, Move, Point, Position};
use std::path::PathBuf;

fn corpus() -> PathBuf {
    common::corpus("go/seki-exotics")
}

/// The position set up in a seki-exotics SGF (`AB`/`AW` in any node of the main line),
/// with `to_play` to move.
fn setup(file: &str, to_play: Color) -> Position {
    let path = corpus().join("go/seki-exotics").join(file);
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    let root = sgf_parse::go::parse(&text).unwrap().remove(0);
    let size = match root.get_property("SZ") {
        Some(sgf_parse::go::Prop::SZ((w, _))) => *w,
        _ => 19,
    };
    let mut board = Board::new(size).unwrap();
    let mut node = Some(&root);
    while let Some(n) = node {
        for prop in n.properties() {
            let (points, colour) = match prop {
                sgf_parse::go::Prop::AB(p) => (p, Color::Black),
                sgf_parse::go::Prop::AW(p) => (p, Color::White),
                _ => continue,
            };
            for p in points {
                board.set(Point::new(p.x, p.y), Some(colour));
            }
        }
        node = n.children().next();
    }
    Position::new(board, to_play)
}

/// Plays `moves` (GTP names, alternating from the side to play); every one but the last must
/// be legal, and the last must be refused as a whole-board repetition. Returns the position
/// before the last move.
fn cycle_ends_in_superko(start: &Position, moves: &str) -> Position {
    let size = start.size();
    let moves: Vec<&str> = moves.split_whitespace().collect();
    let (last, before) = moves.split_last().unwrap();
    let mut pos = start.clone();
    for (i, m) in before.iter().enumerate() {
        let mv = Move::parse(m, size).unwrap();
        pos = pos
            .play_move(mv)
            .unwrap_or_else(|e| panic!("move {} ({m}) should be legal: {e}\n{:?}", i + 1, pos));
    }
    let point = Point::parse(last, size).unwrap();
    let refused = pos.play_move(Move::Play(point));
    assert_eq!(
        refused,
        Err(Illegal::Superko {
            point,
            size: pos.size()
        }),
        "{last} would repeat an earlier whole-board position"
    );
    let why = refused.unwrap_err();
    assert!(why.explain(Lang::Zh).contains("全局同形再现"));
    assert!(why
        .explain(Lang::En)
        .contains("repeat an earlier whole-board position"));
    // On an empty history (the same board, set up afresh) the move is an ordinary capture:
    // only the history forbids it.
    let fresh = Position::new(pos.board().clone(), pos.turn());
    assert!(
        fresh.play_move(Move::Play(point)).is_ok(),
        "{last} is legal without the history"
    );
    pos
}

#[test]
fn triple_ko_cycle_is_cut_by_superko() {
    // threeko1.sgf, Black to play. Three kos: D4 (Black takes D3), A3 (Black takes A2) and
    // E1 (White takes F1). Each side takes a ko in turn; White's sixth move, retaking at A2,
    // would bring back the starting position.
    //    A B C D E F G H J
    //  4 O O O . O O X . .
    //  3 . O X O X O X X .
    //  2 O X X X X O O X .
    //  1 X X . X . X O X .
    let start = setup("threeko1.sgf", Color::Black);
    let pos = cycle_ends_in_superko(&start, "D4 E1 A3 D3 F1 A2");
    // White is not retaking a ko just taken (Black's last move was at F1, another ko), so
    // the simple ko rule does not apply: only the whole-board rule refuses A2.
    assert_ne!(pos.ko_point(), pos.board().point("A2").ok());
}

#[test]
fn eternal_life_cycle_is_cut_by_superko() {
    // chosei.sgf (长生), Black to play. Black throws in at C1, White captures two at E1,
    // Black captures two at D1, and White's throw-in at F1 would restore the start.
    //    A B C D E F G H J
    //  3 . X X X X O . . .
    //  2 X O O O X X O O .
    //  1 . O . X . O X . .
    let start = setup("chosei.sgf", Color::Black);
    let pos = cycle_ends_in_superko(&start, "C1 E1 D1 F1");
    // White's two stones on E1 and F1 were just captured by D1: F1 is no simple ko.
    assert_eq!(pos.captured().len(), 2);
}

#[test]
fn round_robin_ko_cycle_is_cut_by_superko() {
    // junkan-ko.sgf (循环劫), Black to play: throw-ins and captures go round the middle,
    // and White's fourth move, at F6, would restore the start.
    //    A B C D E F G H J
    //  9 . . X O . X O O .
    //  8 . . X O O X X O .
    //  7 . . X O . O X O .
    //  6 . . X O . O X O .
    //  5 . . X O O X X O .
    //  4 . . X O X . X O .
    //  3 . . X O X . X O .
    //  2 . . X O O X X O .
    //  1 . . X X X O O O .
    let start = setup("junkan-ko.sgf", Color::Black);
    cycle_ends_in_superko(&start, "E7 F4 E6 F3 E4 F7 E3 F6");
}

#[test]
fn the_repeating_move_is_among_the_forbidden_points() {
    // The trainer's "where may I not play?" question sees the superko point too.
    let start = setup("threeko1.sgf", Color::Black);
    let size = start.size();
    let mut pos = start;
    for m in ["D4", "E1", "A3", "D3", "F1"] {
        pos = pos.play_move(Move::parse(m, size).unwrap()).unwrap();
    }
    let a2 = Point::parse("A2", size).unwrap();
    assert!(pos.forbidden_points(Color::White).contains(&a2));
    assert!(!pos.legal_moves().contains(&Move::Play(a2)));
}
