//! What a student's tries on a problem add up to: solved at the first try, solved after
//! mistakes, failed, started or not started; the same reading for the dashboard, the
//! student's home page and the CSV export.

use super::{Act, History, LessonMark, Millis, StudentId, Task, Try};
use std::collections::HashMap;

/// Where a student stands on a problem.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Status {
    /// No try yet.
    NotStarted,
    /// Moves tried, none wrong, not solved yet.
    Started,
    /// Tries with a wrong or illegal move, or the solution looked at, and not solved.
    Failed,
    /// Solved, after a wrong move or a look at the solution.
    AfterMistakes,
    /// Solved with no wrong move and no look at the solution (a hint is allowed).
    FirstTry,
}

impl Status {
    /// A stable name for pages, CSS classes and CSV: `not-started`, `started`, `failed`,
    /// `after-mistakes`, `first-try`.
    pub fn slug(self) -> &'static str {
        match self {
            Status::NotStarted => "not-started",
            Status::Started => "started",
            Status::Failed => "failed",
            Status::AfterMistakes => "after-mistakes",
            Status::FirstTry => "first-try",
        }
    }

    /// Whether the problem is solved.
    pub fn solved(self) -> bool {
        matches!(self, Status::AfterMistakes | Status::FirstTry)
    }
}

/// A verdict that counts as a mistake.
pub fn is_mistake(verdict: &str) -> bool {
    matches!(verdict, "wrong" | "illegal" | "not-answer")
}

/// One student on one problem.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Summary {
    /// Where they stand.
    pub status: Status,
    /// Wrong, illegal or not-an-answer moves, before it was solved (all of them if not).
    pub mistakes: usize,
    /// Whether they opened the hint.
    pub hint: bool,
    /// Whether they looked at the solution.
    pub solution: bool,
    /// Their first try.
    pub first: Millis,
    /// When they solved it.
    pub solved_at: Option<Millis>,
}

impl Summary {
    /// From the first try to the solve, in milliseconds.
    pub fn time_taken(&self) -> Option<Millis> {
        self.solved_at.map(|s| s - self.first)
    }
}

/// Adds up tries (oldest first) by student and problem.
///
/// ```
/// use qiyuan::class::{Act, StudentId, Try, Status, progress::summarize};
/// let t = |verdict: &str, at| Try {
///     student: StudentId(1), game: "go".into(), set: "captures".into(), problem: "1".into(),
///     act: Act::Move { before: String::new(), played: "D4".into(), verdict: verdict.into() }, at,
/// };
/// let all = summarize(&[t("wrong", 10), t("solved", 30)]);
/// let s = all.values().next().unwrap();
/// assert_eq!((s.status, s.mistakes, s.time_taken()), (Status::AfterMistakes, 1, Some(20)));
/// ```
pub fn summarize(tries: &[Try]) -> HashMap<(StudentId, Task), Summary> {
    summarize_these(tries.iter())
}

/// [`summarize`] over the tries `tries` yields, in order.
fn summarize_these<'a>(
    tries: impl Iterator<Item = &'a Try>,
) -> HashMap<(StudentId, Task), Summary> {
    let mut out: HashMap<(StudentId, Task), Summary> = HashMap::new();
    for t in tries {
        let s = out.entry((t.student, t.task())).or_insert(Summary {
            status: Status::Started,
            mistakes: 0,
            hint: false,
            solution: false,
            first: t.at,
            solved_at: None,
        });
        if s.status.solved() {
            // What comes after the solve (a second visit) does not change it.
            continue;
        }
        match &t.act {
            Act::Hint => s.hint = true,
            Act::Solution => {
                s.solution = true;
                s.status = Status::Failed;
            }
            Act::Move { verdict, .. } => {
                if is_mistake(verdict) {
                    s.mistakes += 1;
                    s.status = Status::Failed;
                } else if verdict == "solved" {
                    s.solved_at = Some(t.at);
                    s.status = if s.mistakes == 0 && !s.solution {
                        Status::FirstTry
                    } else {
                        Status::AfterMistakes
                    };
                }
            }
        }
    }
    out
}

/// What a try merged from the browser's progress has as its moves before
/// (`POST /api/class/merge`).
pub const MERGED: &str = "(browser)";

/// Whether a try was merged from the browser's progress rather than judged on the server.
pub fn merged(t: &Try) -> bool {
    matches!(&t.act, Act::Move { before, .. } if before == MERGED)
}

/// Adds up tries for homework (the class grid, its CSV, the student's homework): as
/// [`summarize`], without the tries merged from the browser, which the server never judged:
/// they count as neither solved nor solved at the first try.
pub fn for_homework(tries: &[Try]) -> HashMap<(StudentId, Task), Summary> {
    summarize_these(tries.iter().filter(|t| !merged(t)))
}

/// The lessons each student finished (`game/lessons/slug` tasks).
pub fn finished_lessons(history: &History) -> HashMap<(StudentId, Task), Millis> {
    history
        .readings
        .iter()
        .filter(|r| r.mark == LessonMark::Finished)
        .map(|r| {
            let task = Task::Lesson {
                game: r.game.clone(),
                slug: r.slug.clone(),
            };
            ((r.student, task), r.at)
        })
        .collect()
}

/// The wrong first moves (or wrong moves after the same moves) played on a problem, most
/// played first: `(moves before, move, how many students, how many times)`.
pub fn wrong_moves(tries: &[Try]) -> Vec<(String, String, usize, usize)> {
    let mut counts: HashMap<(String, String), (std::collections::HashSet<StudentId>, usize)> =
        HashMap::new();
    for t in tries {
        if let Act::Move {
            before,
            played,
            verdict,
        } = &t.act
        {
            if is_mistake(verdict) {
                let e = counts.entry((before.clone(), played.clone())).or_default();
                e.0.insert(t.student);
                e.1 += 1;
            }
        }
    }
    let mut out: Vec<_> = counts
        .into_iter()
        .map(|((b, p), (who, n))| (b, p, who.len(), n))
        .collect();
    out.sort_by(|a, b| {
        (b.2, b.3)
            .cmp(&(a.2, a.3))
            .then_with(|| (&a.0, &a.1).cmp(&(&b.0, &b.1)))
    });
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mv(student: i64, problem: &str, played: &str, verdict: &str, at: Millis) -> Try {
        Try {
            student: StudentId(student),
            game: "go".into(),
            set: "s".into(),
            problem: problem.into(),
            act: Act::Move {
                before: String::new(),
                played: played.into(),
                verdict: verdict.into(),
            },
            at,
        }
    }

    #[test]
    fn solved_first_try_despite_a_hint() {
        let mut hint = mv(1, "1", "", "", 1);
        hint.act = Act::Hint;
        let all = summarize(&[
            hint,
            mv(1, "1", "D4", "correct", 2),
            mv(1, "1", "E5", "solved", 5),
        ]);
        let s = &all[&(StudentId(1), mv(1, "1", "", "", 0).task())];
        assert_eq!(s.status, Status::FirstTry);
        assert!(s.hint);
        assert_eq!(s.time_taken(), Some(4));
    }

    #[test]
    fn solution_shown_then_solved_is_after_mistakes() {
        let mut sol = mv(1, "1", "", "", 1);
        sol.act = Act::Solution;
        let all = summarize(&[sol, mv(1, "1", "D4", "solved", 2)]);
        assert_eq!(all.values().next().unwrap().status, Status::AfterMistakes);
    }

    #[test]
    fn a_later_wrong_move_does_not_unsolve() {
        let all = summarize(&[mv(1, "1", "D4", "solved", 1), mv(1, "1", "A1", "wrong", 2)]);
        let s = all.values().next().unwrap();
        assert_eq!((s.status, s.mistakes), (Status::FirstTry, 0));
    }

    #[test]
    fn merged_progress_is_never_homework_solved() {
        let mut merged = mv(1, "1", "", "solved", 1);
        if let Act::Move { before, .. } = &mut merged.act {
            *before = MERGED.into();
        }
        assert_eq!(
            summarize(std::slice::from_ref(&merged))
                .values()
                .next()
                .unwrap()
                .status,
            Status::FirstTry
        );
        assert!(for_homework(std::slice::from_ref(&merged)).is_empty());
        let then = for_homework(&[merged, mv(1, "1", "A1", "wrong", 2)]);
        assert_eq!(then.values().next().unwrap().status, Status::Failed);
    }

    #[test]
    fn wrong_moves_rank_by_students_then_times() {
        let tries = [
            mv(1, "1", "A1", "wrong", 1),
            mv(1, "1", "A1", "wrong", 2),
            mv(2, "1", "B2", "wrong", 3),
            mv(3, "1", "B2", "illegal", 4),
            mv(3, "1", "C3", "correct", 5),
        ];
        let ranked = wrong_moves(&tries);
        assert_eq!(ranked[0], (String::new(), "B2".into(), 2, 2));
        assert_eq!(ranked[1], (String::new(), "A1".into(), 1, 2));
        assert_eq!(ranked.len(), 2);
    }
}
