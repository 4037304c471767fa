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
use super::marks::Points;
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
