//! Importing Lichess puzzles: all 1,000 rows of the corpus's sample of the Lichess puzzle
//! database. Every line must be legal, every puzzle tagged `mate` must end in checkmate, the
//! written set must load as `qiyuan check` loads it, and in the trainer any mating move must
//! be correct at a mate-in-one step.
//!
//! The corpus is read from `$QIYUAN_CORPUS` or `tests/data/corpus`; the test fails if it
//! is missing. Imported files go to a temporary folder, never into the repository.

mod common;

use qiyuan::content::source::Folder;
use qiyuan::content::{Game, Library, Puzzle, Text, Verdict};
use qiyuan::import::{lichess, write_set, Goal};
use qiyuan::rules::chess::{Outcome, Position};
use std::path::PathBuf;
use std::time::Instant;

fn corpus() -> PathBuf {
    common::corpus("chess/lichess-1000.csv")
}

/// A fresh temporary content folder for this test.
fn temp_folder(name: &str) -> PathBuf {
    common::temp_folder(name, "chess")
}

/// Checks the rows of the CSV with the engine alone: every move legal from the FEN, and a
/// line tagged `mate` ends in checkmate. Returns how many rows, and how many tagged `mate`.
fn check_rows(text: &str) -> (usize, usize) {
    let (mut rows, mut mated) = (0, 0);
    for line in text.lines().skip(1).filter(|l| !l.trim().is_empty()) {
        let f: Vec<&str> = line.split(',').collect();
        let (id, fen, moves, themes) = (f[0], f[1], f[2], f[7]);
        let mut pos = Position::from_fen(fen).unwrap_or_else(|e| panic!("{id}: {e}"));
        for mv in moves.split_whitespace() {
            pos = match pos.play(mv) {
                Ok((next, _)) => next,
                Err(e) => panic!("{id}: {mv} is illegal: {e}"),
            };
        }
        if themes.split_whitespace().any(|t| t == "mate") {
            mated += 1;
            assert!(
                matches!(pos.outcome(), Some(Outcome::Checkmate { .. })),
                "{id} is tagged mate but its line ends in {:?}",
                pos.outcome()
            );
        }
        rows += 1;
    }
    (rows, mated)
}

#[test]
fn lichess_1000_imports_loads_and_takes_any_mate() {
    let started = Instant::now();
    let text = std::fs::read_to_string(corpus().join("chess/lichess-1000.csv")).unwrap();
    let (rows, mated_rows) = check_rows(&text);
    assert_eq!(rows, 1000);

    let imported = lichess::import("lichess-1000.csv", &text, None);
    for s in &imported.skipped {
        eprintln!("skipped {}: {}", s.source, s.reason);
    }
    assert_eq!(imported.problems.len() + imported.skipped.len(), rows);
    assert!(
        imported.skipped.len() <= 10,
        "{} rows left out",
        imported.skipped.len()
    );
    // The importer's lines, replayed from the written FEN (after the opponent's move).
    let mut mates = 0;
    for p in &imported.problems {
        for line in &p.solutions {
            let mut pos = Position::from_fen(p.setup.notation().unwrap()).unwrap();
            for mv in line {
                pos = pos
                    .play(mv)
                    .unwrap_or_else(|e| panic!("{}: {mv}: {e}", p.id))
                    .0;
            }
            if p.tags.iter().any(|t| t == "mate") {
                assert!(
                    matches!(pos.outcome(), Some(Outcome::Checkmate { .. })),
                    "{}",
                    p.id
                );
            }
        }
        if matches!(p.goal, Goal::Mate(_)) {
            mates += 1;
        }
    }
    let imported_in = started.elapsed();

    let loading = Instant::now();
    let toml = write_set(
        Game::Chess,
        &Text::both("Lichess 1000"),
        "Imported from lichess-1000.csv",
        &imported,
    );
    let dir = temp_folder("lichess");
    std::fs::write(dir.join("problems/chess/lichess-1000.toml"), &toml).unwrap();
    let files = Folder::new(&dir).read().unwrap();
    let (library, errors) = Library::load(&files);
    let loaded_in = loading.elapsed();
    assert!(
        errors.is_empty(),
        "{} errors, first: {}",
        errors.len(),
        errors[0]
    );
    let set = library
        .shelf(Game::Chess)
        .and_then(|s| s.set("lichess-1000"))
        .unwrap();
    assert_eq!(set.problems.len(), imported.problems.len());

    // At the last learner move of every line that ends in mate, every mating move is
    // correct; find the steps that have more than one.
    let judging = Instant::now();
    let (mut steps, mut several, mut accepted) = (0, 0, 0);
    for problem in &set.problems {
        let Puzzle::Chess(puzzle) = &problem.puzzle else {
            panic!("{} is not chess", problem.id);
        };
        let main = puzzle.lines.main_line();
        let end = puzzle.replay(&main).unwrap();
        if !matches!(end.outcome(), Some(Outcome::Checkmate { .. })) {
            continue;
        }
        steps += 1;
        let before = &main[..main.len() - 1];
        let pos = puzzle.replay(before).unwrap();
        let mating = pos.mating_moves(1);
        assert!(mating.iter().any(|m| m.uci == main[main.len() - 1]));
        if mating.len() < 2 {
            continue;
        }
        several += 1;
        for m in &mating {
            match problem.puzzle.attempt(before, &[], &m.uci) {
                Verdict::Correct { solved: true, .. } => accepted += 1,
                other => panic!(
                    "{}: after {before:?} the mate {} is judged {other:?}",
                    problem.id, m.san
                ),
            }
        }
        // And a move that does not mate is not solved there.
        if let Some(quiet) = pos.legal_moves().into_iter().find(|m| !m.mate) {
            assert!(
                !matches!(
                    problem.puzzle.attempt(before, &[], &quiet.uci),
                    Verdict::Correct { solved: true, .. }
                ),
                "{}: {} is no mate",
                problem.id,
                quiet.san
            );
        }
    }
    assert!(several > 0, "no mate-in-one step with several mates");
    eprintln!(
        "Lichess: {rows} rows ({mated_rows} tagged mate), {} imported ({mates} as mate problems), {} skipped; \
         imported in {imported_in:.2?}, loaded (mates proven) in {loaded_in:.2?}; \
         {steps} mating steps, {several} with several mates: all {accepted} mates accepted, judged in {:.2?}; \
         total {:.2?}",
        imported.problems.len(),
        imported.skipped.len(),
        judging.elapsed(),
        started.elapsed()
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_command_line_writes_a_chess_set_that_checks() {
    let dir = temp_folder("lichess-cli");
    let out = dir.join("problems/chess/lichess-sample.toml");
    let run = std::process::Command::new(env!("CARGO_BIN_EXE_qiyuan"))
        .args(["import", "lichess"])
        .arg(corpus().join("chess/lichess-1000.csv"))
        .args(["--set", "lichess-sample", "--limit", "30", "--out"])
        .arg(&out)
        .output()
        .unwrap();
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let written = std::fs::read_to_string(&out).unwrap();
    assert_eq!(written.matches("[[problem]]").count(), 30);
    assert!(
        written.contains("lichess-1000.csv:2 (lichess tewjc) https://lichess.org/SLbfzQtP#36"),
        "each problem names its file, line and puzzle"
    );
    let check = std::process::Command::new(env!("CARGO_BIN_EXE_qiyuan"))
        .arg("check")
        .arg(&dir)
        .output()
        .unwrap();
    assert!(
        check.status.success(),
        "{}",
        String::from_utf8_lossy(&check.stdout)
    );
    let _ = std::fs::remove_dir_all(&dir);
}
