//! Lesson tasks: a diagram step that asks the learner to act, read into a [`Problem`] so that
//! the one judge of puzzles judges it.
//!
//! ````markdown
//! ```goban
//! size = 5
//! board = "..."
//!
//! [[steps]]
//! say = "Your move: capture the marked stone."
//! triangles = ["C3"]
//! task = { goal = "capture", target = ["C3"], solutions = ["C2"], hint = "Count its liberties." }
//! ```
//! ````
//!
//! The task starts from the step's position (after its `play`), with the step's marks; its
//! instruction is the step's `say`. Every key but `hint`, `done` and the `why` of a wrong line
//! must be the same in both languages of a lesson.

use super::diagnostic::{Ctx, Diagnostic};
use super::go::Points;
use crate::base::Text;
use serde::Deserialize;
use toml::Spanned;

/// The `task` table of a diagram step, as written: the keys of a problem's goal.
#[derive(Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct TaskSpec {
    /// A problem goal: `capture`, `select`, `best`, `live`, `kill` (Go); `mate`, `tsume`,
    /// `best`, `select`, `move`, `check` (chess, shogi).
    pub goal: Spanned<String>,
    /// `capture`: the stones to capture.
    #[serde(default)]
    pub target: Points,
    /// `select`: the question.
    pub ask: Option<Spanned<String>>,
    /// `mate`, `tsume`: the length proven by search.
    pub mate_in: Option<Spanned<u32>>,
    /// `move`: the square the piece leaves, or `P*` for a drop.
    pub from: Option<Spanned<String>>,
    /// `move`: the square the piece goes to.
    pub to: Option<Spanned<String>>,
    /// The correct lines.
    #[serde(default)]
    pub solutions: Vec<Spanned<String>>,
    /// Tempting wrong lines and why they fail.
    #[serde(default)]
    pub wrong: Vec<TaskWrong>,
    /// A nudge, shown on request.
    pub hint: Option<String>,
    /// What the step says once the task is done (the trainer's "Right!" if not given).
    pub done: Option<String>,
}

/// A `wrong` line of a task: `{ line = "B9 C9", why = "…" }`.
#[derive(Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct TaskWrong {
    /// The learner's wrong move, then the opponent's answer.
    pub line: Spanned<String>,
    /// Why it fails, in the lesson's language.
    pub why: String,
}

impl TaskSpec {
    /// Everything about the task that both languages of a lesson must share.
    pub fn key(&self) -> String {
        let list = |v: &[Spanned<String>]| {
            v.iter()
                .map(|s| s.get_ref().as_str())
                .collect::<Vec<_>>()
                .join(",")
        };
        let wrong: Vec<&str> = self
            .wrong
            .iter()
            .map(|w| w.line.get_ref().as_str())
            .collect();
        format!(
            "task {}|{}|{:?}|{:?}|{:?}|{:?}|{}|{}",
            self.goal.get_ref(),
            list(&self.target),
            self.ask.as_ref().map(|a| a.get_ref()),
            self.mate_in.as_ref().map(|n| *n.get_ref()),
            self.from.as_ref().map(|a| a.get_ref()),
            self.to.as_ref().map(|a| a.get_ref()),
            list(&self.solutions),
            wrong.join(",")
        )
    }

    /// The wrong lines as a problem writes them.
    pub fn wrong_lines(&self) -> Vec<(Spanned<String>, Text)> {
        self.wrong
            .iter()
            .map(|w| (w.line.clone(), Text::both(w.why.clone())))
            .collect()
    }
}

/// Checks the step around a task: it needs `say`, the instruction; returns it.
pub(crate) fn instruction<'a>(
    ctx: &Ctx,
    n: usize,
    task: &Spanned<TaskSpec>,
    say: Option<&'a str>,
) -> Result<&'a str, Diagnostic> {
    say.filter(|s| !s.trim().is_empty()).ok_or_else(|| {
        ctx.err(
            task.span(),
            format!("step {n}: a task needs `say`, the instruction the learner reads, like say = \"Your move: capture the marked stone.\""),
        )
    })
}

/// The problem fields a task gives: the prompt (its step's `say`), hint and `done` text.
pub(crate) fn texts(say: &str, task: &TaskSpec) -> (Text, Option<Text>, Option<Text>) {
    (
        Text::both(say),
        task.hint.clone().map(Text::both),
        task.done.clone().map(Text::both),
    )
}

/// The first error of a task, which a diagram reports (a diagram stops at its first error).
pub(crate) fn first(ctx: &Ctx, task: &Spanned<TaskSpec>, errors: Vec<Diagnostic>) -> Diagnostic {
    errors
        .into_iter()
        .next()
        .unwrap_or_else(|| ctx.err(task.span(), "the task could not be read"))
}

#[cfg(test)]
mod tests {
    use super::super::lesson::parse;
    use super::super::{Library, Verdict};
    use crate::lang::Lang;

    /// A lesson with one diagram block `kind` whose body is `body`.
    fn lesson(kind: &str, body: &str) -> String {
        format!("+++\ntitle = \"T\"\n+++\nText.\n\n```{kind}\n{body}\n```\n")
    }

    fn only_task(kind: &str, body: &str) -> super::super::Problem {
        let (lesson, errors) = parse("l.en.md", &lesson(kind, body), Lang::En);
        assert!(errors.is_empty(), "{errors:?}");
        let lesson = lesson.unwrap();
        let task = lesson.diagrams[0]
            .frames
            .iter()
            .find_map(|f| f.task.clone());
        *task.expect("a frame with a task")
    }

    fn errors_of(kind: &str, body: &str) -> Vec<super::super::Diagnostic> {
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
        let body = format!("{BACK_RANK}[[steps]]\nsay = \"Mate in one.\"\ntask = {{ goal = \"mate\", mate_in = 1 }}\n");
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
}
