//! Tests of lesson tasks, read through whole lessons: a task of each game, and the errors of
//! tasks written wrong.

use super::lesson::parse;
use super::{Library, Verdict};
use crate::lang::Lang;

/// A lesson with one diagram block `kind` whose body is `body`.
fn lesson(kind: &str, body: &str) -> String {
    format!("+++\ntitle = \"T\"\n+++\nText.\n\n```{kind}\n{body}\n```\n")
}

fn only_task(kind: &str, body: &str) -> super::Problem {
    let (lesson, errors) = parse("l.en.md", &lesson(kind, body), Lang::En);
    assert!(errors.is_empty(), "{errors:?}");
    let lesson = lesson.unwrap();
    let task = lesson.diagrams[0]
        .frames
        .iter()
        .find_map(|f| f.task.clone());
    *task.expect("a frame with a task")
}

fn errors_of(kind: &str, body: &str) -> Vec<super::Diagnostic> {
    parse("l.en.md", &lesson(kind, body), Lang::En).1
}

// . . . . .
// . . X . .
// . X O X .      White C3 has one liberty, C2.
// . . . . .
// . . . . .
const ATARI: &str = "size = 5\nboard = \"\"\"\n.....\n..X..\n.XOX.\n.....\n.....\n\"\"\"\n";

#[test]
fn go_capture_task_is_judged_like_a_problem() {
    let body = format!("{ATARI}[[steps]]\nsay = \"Your move: capture the marked stone.\"\ntriangles = [\"C3\"]\ntask = {{ goal = \"capture\", target = [\"C3\"], solutions = [\"C2\"], hint = \"Count its liberties.\" }}\n");
    let task = only_task("goban", &body);
    assert_eq!(task.prompt.en, "Your move: capture the marked stone.");
    assert_eq!(
        task.hint.as_ref().map(|h| h.en.as_str()),
        Some("Count its liberties.")
    );
    assert!(matches!(
        task.puzzle.attempt(&[], &[], "C2"),
        Verdict::Correct { solved: true, .. }
    ));
    assert!(matches!(
        task.puzzle.attempt(&[], &[], "A1"),
        Verdict::Wrong { .. }
    ));
    assert!(matches!(
        task.puzzle.attempt(&[], &[], "C3"),
        Verdict::Illegal { .. }
    ));
}

#[test]
fn task_starts_after_the_steps_play() {
    // Black plays D4 first; the task is then White's, from that position.
    let body = format!("{ATARI}[[steps]]\nplay = \"E1\"\n\n[[steps]]\nsay = \"White: capture the stone on E1.\"\ntask = {{ goal = \"capture\", target = [\"E1\"], solutions = [\"E2 A1 D1\"] }}\n");
    let task = only_task("goban", &body);
    assert_eq!(task.puzzle.to_play(), Some("white_to_play"));
    assert!(matches!(
        task.puzzle.attempt(&[], &[], "D1"),
        Verdict::Correct { solved: false, .. } | Verdict::Wrong { .. }
    ));
}

#[test]
fn go_select_task_counts_liberties() {
    let body = format!("{ATARI}[[steps]]\nsay = \"Click every liberty of the black stone on B3.\"\ntask = {{ goal = \"select\", ask = \"liberties:B3\" }}\n");
    let task = only_task("goban", &body);
    assert_eq!(task.puzzle.select_total(), Some(3));
    assert!(matches!(
        task.puzzle.attempt(&[], &[], "A3"),
        Verdict::Found { solved: false, .. }
    ));
    assert!(matches!(
        task.puzzle.attempt(&[], &[], "E5"),
        Verdict::NotAnswer { .. }
    ));
}

#[test]
fn task_without_say_is_an_error_at_its_line() {
    let body = format!("{ATARI}[[steps]]\ntask = {{ goal = \"capture\", target = [\"C3\"], solutions = [\"C2\"] }}\n");
    let errors = errors_of("goban", &body);
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(errors[0].message.contains("needs `say`"), "{}", errors[0]);
    assert_eq!(errors[0].line, 16, "{}", errors[0]);
}

#[test]
fn capture_task_that_does_not_capture_is_an_error() {
    let body = format!("{ATARI}[[steps]]\nsay = \"Capture.\"\ntask = {{ goal = \"capture\", target = [\"C3\"], solutions = [\"A1\"] }}\n");
    let errors = errors_of("goban", &body);
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(
        errors[0].message.contains("without capturing"),
        "{}",
        errors[0]
    );
    assert_eq!(errors[0].line, 17, "{}", errors[0]);
}

#[test]
fn go_task_refuses_chess_keys_and_counts() {
    let body = format!("{ATARI}[[steps]]\nsay = \"Go.\"\ntask = {{ goal = \"capture\", target = [\"C3\"], solutions = [\"C2\"], to = \"C2\" }}\n");
    let errors = errors_of("goban", &body);
    assert!(
        errors[0].message.contains("only used in chess and shogi"),
        "{}",
        errors[0]
    );
    let body = format!("{ATARI}[[steps]]\nsay = \"Count.\"\ntask = {{ goal = \"count\" }}\n");
    let errors = errors_of("goban", &body);
    assert!(
        errors[0].message.contains("cannot ask for a count"),
        "{}",
        errors[0]
    );
}

// White: Kg1... a back-rank mate in one: 1. Re8#.
const BACK_RANK: &str = "fen = \"6k1/5ppp/8/8/8/8/5PPP/4R1K1 w - - 0 1\"\n";

#[test]
fn chess_mate_task_is_proven_and_judged() {
    let body = format!(
        "{BACK_RANK}[[steps]]\nsay = \"Mate in one.\"\ntask = {{ goal = \"mate\", mate_in = 1 }}\n"
    );
    let task = only_task("chess", &body);
    assert!(matches!(
        task.puzzle.attempt(&[], &[], "Re8"),
        Verdict::Correct { solved: true, .. }
    ));
    assert!(matches!(
        task.puzzle.attempt(&[], &[], "Re7"),
        Verdict::Wrong { .. }
    ));
    // No mate in one after the rook has gone: refused when the lesson loads.
    let body = "fen = \"6k1/5ppp/8/8/8/8/5PPP/6K1 w - - 0 1\"\n[[steps]]\nsay = \"Mate in one.\"\ntask = { goal = \"mate\", mate_in = 1 }\n";
    let errors = errors_of("chess", body);
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(errors[0].message.contains("mate"), "{}", errors[0]);
}

#[test]
fn chess_move_task_takes_any_move_of_the_piece_to_the_square() {
    let body = "[[steps]]\nsay = \"Move the knight from g1.\"\ntask = { goal = \"move\", from = \"g1\" }\n";
    let task = only_task("chess", body);
    assert!(matches!(
        task.puzzle.attempt(&[], &[], "Nh3"),
        Verdict::Correct { solved: true, .. }
    ));
    assert!(matches!(
        task.puzzle.attempt(&[], &[], "Nf3"),
        Verdict::Correct { solved: true, .. }
    ));
    match task.puzzle.attempt(&[], &[], "e4") {
        Verdict::Wrong { why: Some(why), .. } => assert!(why.en.contains("g1"), "{why:?}"),
        other => panic!("{other:?}"),
    }
    assert!(matches!(
        task.puzzle.attempt(&[], &[], "Ng4"),
        Verdict::Illegal { .. }
    ));
    let body = "[[steps]]\nsay = \"A piece to f3.\"\ntask = { goal = \"move\", to = \"f3\" }\n";
    let task = only_task("chess", body);
    assert!(task.puzzle.is_solved_by(&["g1f3".to_string()]));
    assert!(task.puzzle.is_solved_by(&["f2f3".to_string()]));
    assert!(!task.puzzle.is_solved_by(&["g1h3".to_string()]));
    let body = "[[steps]]\nsay = \"Knight to f3.\"\ntask = { goal = \"move\", from = \"g1\", to = \"f3\" }\n";
    let task = only_task("chess", body);
    // The first fitting move is the solution shown.
    assert_eq!(task.puzzle.lines().main_line(), vec!["g1f3".to_string()]);
}

#[test]
fn move_task_with_no_fitting_move_is_an_error() {
    let body = "[[steps]]\nsay = \"Knight to e5.\"\ntask = { goal = \"move\", from = \"g1\", to = \"e5\" }\n";
    let errors = errors_of("chess", body);
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(errors[0].message.contains("no legal move"), "{}", errors[0]);
    let body = "[[steps]]\nsay = \"Move.\"\ntask = { goal = \"move\", from = \"e5\" }\n";
    let errors = errors_of("chess", body);
    assert!(
        errors[0]
            .message
            .contains("no piece of the side to move on e5"),
        "{}",
        errors[0]
    );
    let body = "[[steps]]\nsay = \"Move.\"\ntask = { goal = \"move\" }\n";
    let errors = errors_of("chess", body);
    assert!(errors[0].message.contains("needs `from`"), "{}", errors[0]);
}

#[test]
fn check_task_accepts_every_check() {
    // White: Qd1, Ke1... Black king on e8 alone with pawns; Qh5 and Qa4 are not both checks.
    let body = "fen = \"4k3/8/8/8/8/8/8/3QK3 w - - 0 1\"\n[[steps]]\nsay = \"Give check.\"\ntask = { goal = \"check\" }\n";
    let task = only_task("chess", body);
    assert!(matches!(
        task.puzzle.attempt(&[], &[], "Qd8"),
        Verdict::Correct { solved: true, .. }
    ));
    assert!(matches!(
        task.puzzle.attempt(&[], &[], "Qa4"),
        Verdict::Correct { solved: true, .. }
    ));
    match task.puzzle.attempt(&[], &[], "Qd2") {
        Verdict::Wrong { why: Some(why), .. } => {
            assert!(why.en.contains("no check"), "{why:?}")
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn shogi_drop_task_refuses_two_pawns_on_a_file() {
    // Sente has a pawn in hand and a pawn on 5g: a drop on the 5th file is 二歩.
    let body = "sfen = \"4k4/9/9/9/9/9/4P4/9/4K4 b P 1\"\n[[steps]]\nsay = \"Drop your pawn where it is allowed.\"\ntask = { goal = \"move\", from = \"P*\" }\n";
    let task = only_task("shogi", body);
    assert!(matches!(
        task.puzzle.attempt(&[], &[], "P*4e"),
        Verdict::Correct { solved: true, .. }
    ));
    match task.puzzle.attempt(&[], &[], "P*5e") {
        Verdict::Illegal { reason } => assert!(!reason.en.is_empty()),
        other => panic!("{other:?}"),
    }
    assert!(matches!(
        task.puzzle.attempt(&[], &[], "5g5f"),
        Verdict::Wrong { .. }
    ));
}

#[test]
fn twin_lessons_must_share_their_tasks() {
    let task = |target: &str| {
        lesson(
                "goban",
                &format!("{ATARI}[[steps]]\nsay = \"Capture.\"\ntask = {{ goal = \"capture\", target = [\"{target}\"], solutions = [\"C2\"] }}\n"),
            )
    };
    let files = vec![
        ("lessons/go/01-a.zh.md".to_string(), task("C3")),
        ("lessons/go/01-a.en.md".to_string(), task("C3")),
    ];
    let (library, errors) = Library::load(&files);
    assert!(errors.is_empty(), "{errors:?}");
    assert_eq!(library.shelves[0].lessons.len(), 1);
    // A different hint is fine; a different goal is not.
    let other = lesson(
            "goban",
            &format!("{ATARI}[[steps]]\nsay = \"Click.\"\ntask = {{ goal = \"select\", ask = \"liberties:C3\" }}\n"),
        );
    let files = vec![
        ("lessons/go/01-a.zh.md".to_string(), task("C3")),
        ("lessons/go/01-a.en.md".to_string(), other),
    ];
    let (_, errors) = Library::load(&files);
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(errors[0].message.contains("differs"), "{}", errors[0]);
}
