//! The repository's own lessons and puzzles: all load without error, and every puzzle is
//! solved by playing its main line through the engine.

use qiyuan::content::go::GoGoal;
use qiyuan::content::source::{self, Folder};
use qiyuan::content::{Library, Puzzle, Verdict};

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

#[test]
fn every_puzzle_is_solved_by_its_main_line() {
    let library = repo_library();
    for set in &library.shelves[0].sets {
        for problem in &set.problems {
            let Puzzle::Go(go) = &problem.puzzle;
            let name = format!("{}/{}", set.slug, problem.id);
            let size = go.start.size();
            match &go.goal {
                GoGoal::Select { answer, .. } => {
                    let mut picked = Vec::new();
                    let mut last = None;
                    for p in answer {
                        let v = problem.puzzle.attempt(&[], &picked, &p.name(size));
                        match &v {
                            Verdict::Found { picked: now, .. } => picked = now.clone(),
                            other => panic!("{name}: clicking {} gave {other:?}", p.name(size)),
                        }
                        last = Some(v);
                    }
                    assert!(
                        matches!(last, Some(Verdict::Found { solved: true, .. })),
                        "{name}: not solved after every answer point"
                    );
                    // A point outside the answer is "not the answer", never solved.
                    if let Some(outside) = go.start.board().points().find(|p| !answer.contains(p)) {
                        let v = problem.puzzle.attempt(&[], &[], &outside.name(size));
                        assert!(matches!(v, Verdict::NotAnswer { .. }), "{name}: {v:?}");
                    }
                }
                _ => {
                    let main = go.lines.main_line();
                    assert!(!main.is_empty(), "{name}: no line");
                    let mut moves: Vec<String> = Vec::new();
                    let mut solved = false;
                    for learner in main.iter().step_by(2) {
                        match problem.puzzle.attempt(&moves, &[], learner) {
                            Verdict::Correct {
                                moves: m,
                                solved: s,
                                ..
                            } => {
                                moves = m;
                                solved = s;
                            }
                            other => panic!("{name}: main line move {learner} gave {other:?}"),
                        }
                    }
                    assert!(solved, "{name}: the main line does not end solved");
                }
            }
            assert!(
                !problem.prompt.zh.is_empty() && !problem.prompt.en.is_empty(),
                "{name}"
            );
        }
    }
}
