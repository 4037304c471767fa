//! The life-and-death solver (`qiyuan::rules::go::life`) against answers it did not write:
//! a sample of Cho Chikun's Elementary problems from the corpus (the book's first moves).
//! The whole Cho set runs in `examples/cho_life_and_death.rs` (`scripts/life-and-death.sh`),
//! not here; the repository's own `live`, `kill` and `ko` problems (their authors' correct
//! and wrong lines) are proven by `qiyuan check`, tested in `tests/check_life.rs`.
//!
//! Budgets are node counts only, so the results do not depend on the machine's speed.

mod common;

use qiyuan::import::{tsumego_json, Setup};
use qiyuan::rules::go::life::{
    evaluate_move, infer_goal, solve, Budget, Outcome, Problem, Region, Target,
};
use qiyuan::rules::go::Move;
use std::time::Duration;

fn budget(nodes: u64) -> Budget {
    Budget {
        nodes,
        time: Duration::from_secs(3600),
    }
}

/// Cho problems whose book answer the solver refutes (each examined in docs/performance.md).
const BOOK_ERRORS: &[&str] = &["39", "40"];

#[test]
fn proves_a_sample_of_cho_elementary_problems_as_the_book_answers() {
    let text = std::fs::read_to_string(
        common::corpus("go/cho-elementary.jsonl").join("go/cho-elementary.jsonl"),
    )
    .unwrap();
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
        if BOOK_ERRORS.contains(&p.id.as_str()) {
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
