//! Problem sets: the set, its problems, and the verdict on an attempt.

use super::text::Text;
use crate::content::go::GoPuzzle;

/// A set of problems, read from one TOML file.
#[derive(Clone, Debug)]
pub struct ProblemSet {
    /// The file name without `.toml`; the set's address.
    pub slug: String,
    /// The file, relative to the content folder.
    pub path: String,
    /// The set's title.
    pub title: Text,
    /// A sentence about the set.
    pub summary: Option<Text>,
    /// The slug of the lesson it practises.
    pub lesson: Option<String>,
    /// Sets are listed by this number, then by slug.
    pub order: i64,
    /// The problems, in file order.
    pub problems: Vec<Problem>,
}

impl ProblemSet {
    /// The problem with this id.
    pub fn problem(&self, id: &str) -> Option<&Problem> {
        self.problems.iter().find(|p| p.id == id)
    }

    /// The problem after the one with this id.
    pub fn next_after(&self, id: &str) -> Option<&Problem> {
        let i = self.problems.iter().position(|p| p.id == id)?;
        self.problems.get(i + 1)
    }
}

/// One problem of a set.
#[derive(Clone, Debug)]
pub struct Problem {
    /// Unique within the set; the problem's address.
    pub id: String,
    /// What the learner is asked to do.
    pub prompt: Text,
    /// 1 (easiest) to 5.
    pub difficulty: u8,
    /// A nudge, shown on request.
    pub hint: Option<Text>,
    /// Shown once solved.
    pub explanation: Option<Text>,
    /// The goal as written (`capture`, `select`, …).
    pub goal: String,
    /// The game-specific part: position, goal and lines.
    pub puzzle: Puzzle,
}

/// The game-specific part of a problem.
#[derive(Clone, Debug)]
pub enum Puzzle {
    /// A Go problem.
    Go(GoPuzzle),
}

impl Puzzle {
    /// Judges the learner's move `play` after `moves` (and, for `select`, the points `picked`).
    pub fn attempt(&self, moves: &[String], picked: &[String], play: &str) -> Verdict {
        match self {
            Puzzle::Go(p) => p.attempt(moves, picked, play),
        }
    }
}

/// The engine's answer to one move of the learner.
#[derive(Clone, Debug, PartialEq)]
pub enum Verdict {
    /// The move is correct. `moves` is the line so far, with the opponent's `reply` if any.
    Correct {
        moves: Vec<String>,
        reply: Option<String>,
        solved: bool,
    },
    /// The move is legal but wrong. `shown` is the line to show: the moves before it, the
    /// wrong move, then the refutation; `why` is the author's explanation, if written.
    Wrong {
        why: Option<Text>,
        shown: Vec<String>,
    },
    /// The rules forbid the move, for this reason.
    Illegal { reason: Text },
    /// A `select` click on a point of the answer; `picked` holds all found so far.
    Found { picked: Vec<String>, solved: bool },
    /// A `select` click on a point that is not part of the answer.
    NotAnswer { why: Text, picked: Vec<String> },
    /// The request does not fit the problem (a move that is no point, moves off the lines).
    Invalid { why: Text },
}

impl Verdict {
    /// A short name for the kind of verdict: `correct`, `solved`, `wrong`, `illegal`,
    /// `found`, `not-answer` or `invalid`.
    pub fn kind(&self) -> &'static str {
        match self {
            Verdict::Correct { solved: true, .. } | Verdict::Found { solved: true, .. } => "solved",
            Verdict::Correct { .. } => "correct",
            Verdict::Wrong { .. } => "wrong",
            Verdict::Illegal { .. } => "illegal",
            Verdict::Found { .. } => "found",
            Verdict::NotAnswer { .. } => "not-answer",
            Verdict::Invalid { .. } => "invalid",
        }
    }
}
