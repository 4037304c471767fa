//! The repository's own lessons and puzzles: all load without error, and every puzzle (and
//! every task of a lesson) is solved by playing its main line through the engine.

use qiyuan::content::board_game::{Goal, PieceGame};
use qiyuan::content::chess::ChessGoal;
use qiyuan::content::go::GoGoal;
use qiyuan::content::shogi::{Shogi, ShogiGoal};
use qiyuan::content::source::{self, Folder};
use qiyuan::content::xiangqi::Xiangqi;
use qiyuan::content::{Input, Library, Puzzle, Verdict};

fn repo_library() -> Library {
    let files = Folder::new(env!("CARGO_MANIFEST_DIR")).read().unwrap();
    let (library, errors) = Library::load(&files);
    assert!(
        errors.is_empty(),
        "content errors:\n{}",
        errors
            .iter()
            .map(|e| e.to_string())
            .collect::<Vec<_>>()
            .join("\n")
    );
    library
}

#[test]
fn repository_content_has_no_errors() {
    let library = repo_library();
    let go = &library.shelves[0];
    assert!(go.lessons.len() >= 5, "{} Go lessons", go.lessons.len());
    assert!(
        library.problem_count() >= 40,
        "{} puzzles",
        library.problem_count()
    );
    for lesson in &go.lessons {
        assert!(
            lesson.zh.diagrams.len() >= 3,
            "lesson {} has only {} diagrams",
            lesson.slug,
            lesson.zh.diagrams.len()
        );
    }
}

#[test]
fn embedded_content_is_the_repository_content() {
    let embedded = source::embedded();
    let on_disk = Folder::new(env!("CARGO_MANIFEST_DIR")).read().unwrap();
    assert_eq!(
        embedded.iter().map(|(p, _)| p).collect::<Vec<_>>(),
        on_disk.iter().map(|(p, _)| p).collect::<Vec<_>>()
    );
}

/// Solves `problem` the way a learner would, with the engine's help where no line is
/// written (mate problems): returns whether it ends solved.
fn solve(name: &str, problem: &qiyuan::content::Problem) -> bool {
    let puzzle = &problem.puzzle;
    if puzzle.select_total().is_some() {
        let mut picked = Vec::new();
        let mut solved = false;
        for p in puzzle.answer() {
            match puzzle.attempt(&[], &picked, &p) {
                Verdict::Found {
                    picked: now,
                    solved: s,
                } => {
                    picked = now;
                    solved = s;
                }
                other => panic!("{name}: clicking {p} gave {other:?}"),
            }
        }
        return solved;
    }
    if matches!(puzzle.input(), Input::Count(_)) {
        // The engine's own count is accepted; a different one is not.
        let answer = puzzle.answer().remove(0);
        assert!(
            !matches!(puzzle.attempt(&[], &[], "999"), Verdict::Correct { .. }),
            "{name}: any count accepted"
        );
        return matches!(
            puzzle.attempt(&[], &[], &answer),
            Verdict::Correct { solved: true, .. }
        );
    }
    let main = puzzle.lines().main_line();
    let mut moves: Vec<String> = Vec::new();
    for turn in 0..12 {
        let learner = match main.get(turn * 2) {
            Some(m) => m.clone(),
            None => match puzzle {
                Puzzle::Chess(c) => {
                    let pos = c.replay(&moves).expect("moves replay");
                    let ChessGoal::Mate(n) = c.goal else {
                        panic!("{name}: no line to play")
                    };
                    let left = n - turn as u32;
                    pos.mating_moves(left)
                        .first()
                        .unwrap_or_else(|| panic!("{name}: no mate in {left}"))
                        .uci
                        .clone()
                }
                Puzzle::Shogi(s) => {
                    let pos = s.replay(&moves).expect("moves replay");
                    let ShogiGoal::Mate(n) = s.goal else {
                        panic!("{name}: no line to play")
                    };
                    Shogi::mating_moves(&pos, n - 2 * turn as u32)
                        .first()
                        .unwrap_or_else(|| panic!("{name}: no tsume"))
                        .clone()
                }
                Puzzle::Xiangqi(x) => {
                    let pos = x.replay(&moves).expect("moves replay");
                    let Goal::Mate(n) = x.goal else {
                        panic!("{name}: no line to play")
                    };
                    Xiangqi::mating_moves(&pos, n - turn as u32)
                        .first()
                        .unwrap_or_else(|| panic!("{name}: no win in {}", n - turn as u32))
                        .clone()
                }
                _ => panic!("{name}: the main line ends unsolved"),
            },
        };
        match puzzle.attempt(&moves, &[], &learner) {
            Verdict::Correct {
                moves: m, solved, ..
            } => {
                if solved {
                    return true;
                }
                moves = m;
            }
            other => panic!("{name}: move {learner} gave {other:?}"),
        }
    }
    false
}

#[test]
fn every_puzzle_is_solved_by_its_main_line() {
    let library = repo_library();
    for shelf in &library.shelves {
        for set in &shelf.sets {
            for problem in &set.problems {
                let name = format!("{}/{}/{}", shelf.game.slug(), set.slug, problem.id);
                assert!(solve(&name, problem), "{name}: not solved");
                assert!(
                    !problem.prompt.zh.is_empty() && !problem.prompt.en.is_empty(),
                    "{name}"
                );
            }
        }
    }
}

#[test]
fn every_lesson_task_is_solved_by_its_main_line() {
    let library = repo_library();
    let mut tasks = 0;
    for shelf in &library.shelves {
        for lesson in &shelf.lessons {
            for text in [&lesson.zh, &lesson.en] {
                for (d, diagram) in text.diagrams.iter().enumerate() {
                    for (k, frame) in diagram.frames.iter().enumerate() {
                        let Some(task) = &frame.task else { continue };
                        let name = format!("{}:{d}:{k}", text.path);
                        assert!(solve(&name, task), "{name}: not solved");
                        assert!(!task.prompt.en.is_empty(), "{name}: no instruction");
                        tasks += 1;
                    }
                }
            }
        }
    }
    assert!(tasks >= 180, "only {tasks} lesson tasks");
}

#[test]
fn a_go_point_outside_the_answer_is_not_the_answer() {
    let library = repo_library();
    for set in &library.shelves[0].sets {
        for problem in &set.problems {
            let Puzzle::Go(go) = &problem.puzzle else {
                continue;
            };
            if let GoGoal::Select { answer, .. } = &go.goal {
                let size = go.start.size();
                if let Some(outside) = go.start.board().points().find(|p| !answer.contains(p)) {
                    let v = problem.puzzle.attempt(&[], &[], &outside.name(size));
                    assert!(
                        matches!(v, Verdict::NotAnswer { .. }),
                        "{}: {v:?}",
                        problem.id
                    );
                }
            }
        }
    }
}
