//! The life-and-death solver (`qiyuan::rules::go::life`) against answers it did not write:
//! the repository's own `live`, `kill` and `ko` problems (their authors' correct and wrong
//! lines), and a sample of Cho Chikun's Elementary problems from the corpus (the book's first
//! moves). The whole Cho set runs in `examples/cho_life_and_death.rs`
//! (`scripts/life-and-death.sh`), not here.
//!
//! Budgets are node counts only, so the results do not depend on the machine's speed.

mod common;

use qiyuan::import::{tsumego_json, Setup};
use qiyuan::rules::go::life::{
    evaluate_move, infer_goal, solve, Budget, Goal, Outcome, Problem, Region, Target,
};
use qiyuan::rules::go::{Board, Color, Move, Point, Position};
use std::path::PathBuf;
use std::time::Duration;

fn budget(nodes: u64) -> Budget {
    Budget {
        nodes,
        time: Duration::from_secs(3600),
    }
}

/// One problem of a TOML set, as the test reads it.
struct Authored {
    id: String,
    goal: String,
    position: Position,
    solutions: Vec<Vec<Move>>,
    wrong: Vec<Vec<Move>>,
}

fn moves(line: &str, size: u8) -> Vec<Move> {
    line.split_whitespace()
        .map(|m| Move::parse(m, size).unwrap_or_else(|e| panic!("move {m}: {e}")))
        .collect()
}

/// The `live`, `kill` and `ko` problems of `problems/go/{file}`.
fn authored(file: &str) -> Vec<Authored> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("problems/go")
        .join(file);
    let text = std::fs::read_to_string(&path).unwrap();
    let value: toml::Value = toml::from_str(&text).unwrap();
    let mut out = Vec::new();
    for p in value["problem"].as_array().unwrap() {
        let goal = p["goal"].as_str().unwrap().to_string();
        if !["live", "kill", "ko"].contains(&goal.as_str()) {
            continue;
        }
        let size = p["size"].as_integer().unwrap() as u8;
        let text = p["board"].as_str().unwrap();
        let board = match p.get("view").and_then(|v| v.as_str()) {
            None => Board::from_text(size, text).unwrap(),
            Some(view) => {
                let (a, b) = view.split_once(':').unwrap();
                let (a, b) = (
                    Point::parse(a, size).unwrap(),
                    Point::parse(b, size).unwrap(),
                );
                let origin = Point::new(a.col.min(b.col), a.row.min(b.row));
                let cols = a.col.abs_diff(b.col) + 1;
                let rows = a.row.abs_diff(b.row) + 1;
                Board::from_text_at(size, text, origin, cols, rows).unwrap()
            }
        };
        let to_play = Color::parse(p["to_play"].as_str().unwrap()).unwrap();
        let lines = |key: &str| -> Vec<Vec<Move>> {
            p.get(key)
                .and_then(|v| v.as_array())
                .map(|a| a.iter().map(|l| moves(l.as_str().unwrap(), size)).collect())
                .unwrap_or_default()
        };
        let wrong = p
            .get("wrong")
            .and_then(|v| v.as_array())
            .map(|a| {
                a.iter()
                    .map(|w| moves(w["line"].as_str().unwrap(), size))
                    .collect()
            })
            .unwrap_or_default();
        out.push(Authored {
            id: format!("{file} {}", p["id"].as_str().unwrap()),
            goal,
            position: Position::new(board, to_play),
            solutions: lines("solutions"),
            wrong,
        });
    }
    out
}

/// Plays `line` from `start`.
fn after(start: &Position, line: &[Move]) -> Position {
    line.iter()
        .fold(start.clone(), |p, &m| p.play_move(m).unwrap())
}

#[test]
fn proves_the_repositorys_life_and_death_problems() {
    let mut problems = authored("life-and-death.toml");
    problems.extend(authored("ko-fights.toml"));
    assert!(problems.len() >= 25, "only {} problems", problems.len());
    let mut checked_wrong = 0;
    let mut findings = Vec::new();
    for a in &problems {
        let start = &a.position;
        let goal = match a.goal.as_str() {
            "live" => Goal::Live,
            "kill" => Goal::Kill,
            _ => infer_goal(start),
        };
        let problem = Problem::new(start, goal, Target::Inferred, Region::Auto).unwrap();
        let verdict = solve(start, &problem, budget(100_000));
        let wanted_ko = a.goal == "ko";
        match verdict.outcome {
            Outcome::Win if !wanted_ko => {}
            Outcome::Ko { .. } if wanted_ko => {}
            other => {
                let shown: Vec<String> =
                    verdict.line.iter().map(|m| m.name(start.size())).collect();
                eprintln!(
                    "{}: the solver says {other:?} ({goal:?}): {}",
                    a.id,
                    shown.join(" ")
                );
                findings.push(format!("{}: {}", a.id, other.as_str()));
                continue;
            }
        }
        // Every author's first move works.
        for line in &a.solutions {
            let j = evaluate_move(start, &problem, line[0], budget(100_000)).unwrap();
            assert!(
                matches!(j.outcome, Outcome::Win | Outcome::Ko { .. }),
                "{}: the author's {:?} is {:?}, refuted by {:?}",
                a.id,
                line[0],
                j.outcome,
                j.reply
            );
        }
        // Every author's wrong line fails: after the author's refutation the learner's side
        // cannot reach the goal.
        for line in &a.wrong {
            if line.len() < 2 || a.solutions.iter().any(|s| s.starts_with(line)) {
                continue;
            }
            let pos = after(start, line);
            if pos.turn() != start.turn() {
                continue;
            }
            let v = solve(&pos, &problem, budget(100_000));
            let refuted = v.outcome != Outcome::Win;
            if !refuted {
                let names: Vec<String> = line.iter().map(|m| m.name(start.size())).collect();
                let shown: Vec<String> = v.line.iter().map(|m| m.name(start.size())).collect();
                eprintln!(
                    "{}: wrong line {} works: {:?} {}",
                    a.id,
                    names.join(" "),
                    v.outcome,
                    shown.join(" ")
                );
                findings.push(format!("{}: {}", a.id, names.join(" ")));
            }
            checked_wrong += 1;
        }
    }
    assert!(
        checked_wrong >= 20,
        "only {checked_wrong} wrong lines checked"
    );
    assert_eq!(
        findings, AUTHORS_WRONG_LINES_THAT_WORK,
        "authors' wrong lines the solver finds working"
    );
}

/// Where the solver and an author disagree: content errors for the author to fix, listed
/// here so that the test notices any change (each examined in docs/performance.md).
/// - `life-and-death.toml` 15: Black's F9 and B9 stones are in atari; after White D8 and
///   Black D7, White captures F9 with G9 and lives, so the three wrong lines work.
/// - `life-and-death.toml` 25: after Black C1 the shape is not seki: White C2 puts both
///   sides in atari, Black A1 captures three stones, and White B2 on the middle of the
///   straight three kills.
const AUTHORS_WRONG_LINES_THAT_WORK: &[&str] = &[
    "life-and-death.toml 15: D8 D7",
    "life-and-death.toml 15: C7 D7",
    "life-and-death.toml 15: D6 D7",
    "life-and-death.toml 25: loss",
];

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
