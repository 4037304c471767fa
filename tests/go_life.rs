//! The life-and-death solver (`qiyuan::rules::go::life`) against answers it did not write:
//! a sample of Cho Chikun's Elementary problems from the corpus (the book's first moves; the
//! book is not redistributed, so those tests are ignored in `cargo test` and run by
//! `scripts/cho-checks.sh`).
//! The whole Cho set runs in `examples/cho_life_and_death.rs` (`scripts/life-and-death.sh`),
//! not here; the repository's own `live`, `kill` and `ko` problems (their authors' correct
//! and wrong lines) are proven by `qiyuan check`, tested in `tests/check_life.rs`.
//!
//! The killing shapes behind the solver's static kills are read by GNU Go's owl code too.
//!
//! Budgets are node counts only, so the results do not depend on the machine's speed.

mod common;

use qiyuan::import::{tsumego_json, Setup};
use qiyuan::rules::go::life::{
    evaluate_move, infer_goal, solve, Budget, Goal, Outcome, Problem, Region, Target,
};
use qiyuan::rules::go::{Board, Color, Move, Point, Position};
use std::time::Duration;

fn budget(nodes: u64) -> Budget {
    Budget {
        nodes,
        time: Duration::from_secs(3600),
        threads: 1,
    }
}

/// The book errors of docs/cho-book-errors.md: the problem, the book's first move, the
/// reply that refutes it, and two corners of the rectangle searched to show it (every
/// stone of the problem and a line more, unless a narrower one is named there).
const BOOK_ERRORS: &[(&str, &str, &str, (&str, &str))] = &[
    ("96", "E19", "G19", ("A19", "L17")),
    ("341", "C18", "C17", ("A19", "G15")),
    ("372", "A19", "B19", ("A19", "H12")),
    ("533", "D19", "A17", ("A19", "G15")),
    ("619", "C18", "D19", ("A19", "G14")),
    ("704", "E16", "D18", ("B19", "K14")),
];

/// Every documented book error holds when the solver may play anywhere in the corner, not
/// only in the region it derives: after the book's move and the reply, the book's side
/// cannot reach its goal (not even by ko). The target is the one the solver infers.
#[test]
#[ignore = "reads Cho Chikun's book in ../shared/corpus: scripts/cho-checks.sh runs it"]
fn the_books_errors_hold_with_the_whole_corner_as_the_region() {
    let text = std::fs::read_to_string(common::cho_elementary()).unwrap();
    let imported = tsumego_json::import("cho-elementary.jsonl", &text, None);
    for &(id, book, reply, (from, to)) in BOOK_ERRORS {
        let p = imported.problems.iter().find(|p| p.id == id).unwrap();
        let Setup::Go { start, .. } = &p.setup else {
            panic!("Cho {id} is a Go problem");
        };
        assert!(
            p.solutions.iter().any(|line| line[0] == book),
            "Cho {id}: {book} is not among the book's moves"
        );
        let goal = infer_goal(start);
        let derived = Problem::new(start, goal, Target::Inferred, Region::Auto).unwrap();
        let (a, b) = (
            Point::parse(from, 19).unwrap(),
            Point::parse(to, 19).unwrap(),
        );
        let target = Target::Stones(derived.target().to_vec());
        let problem = Problem::new(start, goal, target, Region::rectangle(a, b)).unwrap();
        let after = [book, reply].iter().fold(start.clone(), |pos, m| {
            pos.play_move(Move::parse(m, 19).unwrap()).unwrap()
        });
        let v = solve(&after, &problem, budget(2_000_000));
        assert_eq!(
            v.outcome,
            Outcome::Loss,
            "Cho {id}: after {book} {reply} the book's side should fail ({goal:?}), the solver says {:?} ({})",
            v.outcome,
            v.line
                .iter()
                .map(|m| m.name(19))
                .collect::<Vec<_>>()
                .join(" ")
        );
    }
}

#[test]
#[ignore = "reads Cho Chikun's book in ../shared/corpus: scripts/cho-checks.sh runs it"]
fn proves_a_sample_of_cho_elementary_problems_as_the_book_answers() {
    let text = std::fs::read_to_string(common::cho_elementary()).unwrap();
    let imported = tsumego_json::import("cho-elementary.jsonl", &text, Some(SAMPLE_FROM));
    let nodes = if cfg!(debug_assertions) {
        20_000
    } else {
        200_000
    };
    let (mut proven, mut tried) = (0, 0);
    for p in &imported.problems {
        tried += 1;
        let Setup::Go { start, .. } = &p.setup else {
            continue;
        };
        let goal = infer_goal(start);
        let problem = Problem::new(start, goal, Target::Inferred, Region::Auto).unwrap();
        let v = solve(start, &problem, budget(nodes));
        if v.outcome == Outcome::Unknown {
            continue;
        }
        assert!(
            matches!(v.outcome, Outcome::Win | Outcome::Ko { .. }),
            "Cho {}: the book has a solution, the solver says {:?} ({goal:?}, {:?})",
            p.id,
            v.outcome,
            v.line
        );
        let book = Move::parse(&p.solutions[0][0], start.size()).unwrap();
        let j = evaluate_move(start, &problem, book, budget(nodes)).unwrap();
        if BOOK_ERRORS.iter().any(|e| e.0 == p.id) {
            assert_eq!(j.outcome, Outcome::Loss, "Cho {}: a known book error", p.id);
        } else if j.outcome != Outcome::Unknown {
            assert!(
                matches!(j.outcome, Outcome::Win | Outcome::Ko { .. }),
                "Cho {}: the book's {} is {:?}, refuted by {:?}",
                p.id,
                p.solutions[0][0],
                j.outcome,
                j.reply
            );
        }
        proven += 1;
    }
    eprintln!("Cho sample: {proven} of {tried} proven within {nodes} nodes");
    assert!(proven >= SAMPLE_PROVEN, "only {proven} of {tried} proven");
}

/// The sample: the first problems of the book, and how many of them must be proven.
const SAMPLE_FROM: usize = 30;
const SAMPLE_PROVEN: usize = 12;

/// The killing shapes of the static kills (`rules::go::life`): the pocket's points from
/// the lower left corner, and its vital point.
const KILLING_SHAPES: &[(&str, &[(i8, i8)], (i8, i8))] = &[
    ("straight three", &[(0, 0), (1, 0), (2, 0)], (1, 0)),
    ("bent three", &[(0, 0), (0, 1), (1, 0)], (0, 0)),
    ("pyramid four", &[(0, 0), (1, 0), (1, 1), (2, 0)], (1, 0)),
    (
        "bulky five",
        &[(0, 0), (0, 1), (1, 0), (1, 1), (2, 1)],
        (1, 1),
    ),
    (
        "crossed five",
        &[(0, 1), (1, 0), (1, 1), (1, 2), (2, 1)],
        (1, 1),
    ),
    (
        "rabbity six",
        &[(0, 1), (1, 0), (1, 1), (1, 2), (2, 1), (2, 2)],
        (1, 1),
    ),
];

/// A White group on the lower edge (the pocket shifted to column F) whose only eye space
/// is `pocket`: White one line around it, Black filling the rest of the board but for
/// eyes two lines or more away (Black is alive for GNU Go too). `black` are Black stones
/// put in the pocket. The stones as GTP `play` commands, and the position.
fn walled_pocket(
    pocket: &[(i8, i8)],
    black: &[(i8, i8)],
    to_play: Color,
) -> (Vec<String>, Position) {
    let at = (5, 0);
    let cells: Vec<(i8, i8)> = pocket.iter().map(|&(x, y)| (x + at.0, y + at.1)).collect();
    let distance = |x: i8, y: i8| {
        cells
            .iter()
            .map(|&(px, py)| (px - x).abs().max((py - y).abs()))
            .min()
            .unwrap()
    };
    let mut board = Board::new(19).unwrap();
    let mut plays = Vec::new();
    for y in 0..19i8 {
        for x in 0..19i8 {
            let d = distance(x, y);
            let black_here = black
                .iter()
                .any(|&(bx, by)| (bx + at.0, by + at.1) == (x, y));
            let colour = match d {
                0 if black_here => Color::Black,
                0 => continue,
                1 => Color::White,
                _ if d >= 3 && x % 3 == 1 && y % 3 == 1 => continue,
                _ => Color::Black,
            };
            let p = Point::new(x as u8, (18 - y) as u8);
            board.set(p, Some(colour));
            plays.push(format!("play {} {}", colour.as_str(), p.name(19)));
        }
    }
    (plays, Position::new(board, to_play))
}

#[test]
fn killing_shapes_die_and_live_as_gnu_go_reads_them() {
    for &(name, pocket, vital) in KILLING_SHAPES {
        // Black on the vital point, White to play: White cannot live.
        let (plays, pos) = walled_pocket(pocket, &[vital], Color::White);
        let wall = pos.board().stones(Color::White).next().unwrap();
        assert_eq!(
            pos.board().chain(wall).len(),
            pos.board().stones(Color::White).count(),
            "{name}: White's wall is one chain"
        );
        let problem = Problem::new(&pos, Goal::Live, Target::Inferred, Region::Auto).unwrap();
        let ours = solve(&pos, &problem, budget(200_000)).outcome;
        let theirs = common::gnugo_owl(&plays, &format!("owl_defend {}", wall.name(19)));
        assert_eq!(
            (ours, theirs.as_str()),
            (Outcome::Loss, "0"),
            "{name}, Black on the vital point"
        );
        // Every point empty, White to play: White takes the vital point and lives.
        let (plays, pos) = walled_pocket(pocket, &[], Color::White);
        let problem = Problem::new(&pos, Goal::Live, Target::Inferred, Region::Auto).unwrap();
        let ours = solve(&pos, &problem, budget(200_000));
        let theirs = common::gnugo_owl(&plays, &format!("owl_defend {}", wall.name(19)));
        let vital_point = Point::new((vital.0 + 5) as u8, (18 - vital.1) as u8);
        assert_eq!(
            (ours.outcome, ours.best, theirs.as_str()),
            (Outcome::Win, Some(Move::Play(vital_point)), "1"),
            "{name}, empty, White to play"
        );
    }
}
