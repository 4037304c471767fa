//! Problem sets: the set, its problems, and the verdict on an attempt.

use super::lines::LineTree;
use super::text::Text;
use crate::content::chess::ChessPuzzle;
use crate::content::go::GoPuzzle;
use crate::content::shogi::ShogiPuzzle;
use crate::lang::Lang;

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
    /// A chess problem.
    Chess(ChessPuzzle),
    /// A shogi problem.
    Shogi(ShogiPuzzle),
}

/// What a link on a problem board does.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Action {
    /// Play this move (canonical name).
    Play(String),
    /// Pick up the piece on this square (or in hand, `P*`), or put it down (`None`).
    Select(Option<String>),
    /// Several moves go from `from` to `to` (promotion or not): ask which.
    Choose { from: String, to: String },
}

/// A request to draw a problem's board.
pub struct BoardRequest<'a> {
    /// The moves to show from the start position.
    pub shown: &'a [String],
    /// Points or squares found so far (`select`).
    pub picked: &'a [String],
    /// The piece the learner has picked up, if any.
    pub selected: Option<&'a str>,
    /// The address of each action; `None` when the board takes no clicks.
    pub href: Option<&'a dyn Fn(Action) -> String>,
    /// The language of accessible names.
    pub lang: Lang,
    /// What the picture shows, for screen readers.
    pub title: &'a str,
}

impl Puzzle {
    /// Judges the learner's move `play` after `moves` (and, for `select`, the points `picked`).
    pub fn attempt(&self, moves: &[String], picked: &[String], play: &str) -> Verdict {
        match self {
            Puzzle::Go(p) => p.attempt(moves, picked, play),
            Puzzle::Chess(p) => p.attempt(moves, picked, play),
            Puzzle::Shogi(p) => p.attempt(moves, picked, play),
        }
    }

    /// The correct and wrong lines.
    pub fn lines(&self) -> &LineTree {
        match self {
            Puzzle::Go(p) => &p.lines,
            Puzzle::Chess(p) => &p.lines,
            Puzzle::Shogi(p) => &p.lines,
        }
    }

    /// `moves` in canonical form, if they are legal and follow the correct lines.
    pub fn valid_moves(&self, moves: &[String]) -> Option<Vec<String>> {
        match self {
            Puzzle::Go(p) => {
                let canonical: Vec<String> = moves
                    .iter()
                    .map(|m| p.canonical(m))
                    .collect::<Option<_>>()?;
                (p.replay(&canonical).is_some() && p.lines.follows(&canonical)).then_some(canonical)
            }
            Puzzle::Chess(p) => p.valid_moves(moves),
            Puzzle::Shogi(p) => p.valid_moves(moves),
        }
    }

    /// The points of `picked` that belong to the answer of a `select` question, once each.
    pub fn valid_picks(&self, picked: &[String]) -> Vec<String> {
        match self {
            Puzzle::Go(p) => p.valid_picks(picked),
            Puzzle::Chess(p) => p.valid_picks(picked),
            Puzzle::Shogi(p) => p.valid_picks(picked),
        }
    }

    /// How many points or squares the answer of a `select` question has.
    pub fn select_total(&self) -> Option<usize> {
        match self {
            Puzzle::Go(p) => p.select_total(),
            Puzzle::Chess(p) => match p.goal {
                crate::content::chess::ChessGoal::Select { ref answer, .. } => Some(answer.len()),
                _ => None,
            },
            Puzzle::Shogi(p) => match p.goal {
                crate::content::shogi::ShogiGoal::Select { ref answer, .. } => Some(answer.len()),
                _ => None,
            },
        }
    }

    /// The answer of a `select` question, as point or square names; empty otherwise.
    pub fn answer(&self) -> Vec<String> {
        match self {
            Puzzle::Go(p) => p.answer(),
            Puzzle::Chess(p) => p.answer(),
            Puzzle::Shogi(p) => p.answer(),
        }
    }

    /// Whether the problem is solved after `moves` and `picked`.
    pub fn is_solved(&self, moves: &[String], picked: &[String]) -> bool {
        match (self, self.select_total()) {
            (_, Some(total)) => self.valid_picks(picked).len() == total,
            (Puzzle::Go(p), None) => p.is_solved(moves),
            (Puzzle::Chess(p), None) => p.is_solved(moves),
            (Puzzle::Shogi(p), None) => p.is_solved(moves),
        }
    }

    /// Who is to play, when the problem asks for a move ("Black to play").
    pub fn to_play(&self) -> Option<Text> {
        match self {
            Puzzle::Go(p) => p.to_play(),
            Puzzle::Chess(p) => p.to_play(),
            Puzzle::Shogi(p) => p.to_play(),
        }
    }

    /// The board as SVG.
    pub fn board(&self, request: &BoardRequest) -> String {
        match self {
            Puzzle::Go(p) => p.board(request),
            Puzzle::Chess(p) => p.board(request),
            Puzzle::Shogi(p) => p.board(request),
        }
    }

    /// What a `count` problem asks, if it is one (the learner types the answer).
    pub fn count_ask(&self) -> Option<crate::content::go::CountAsk> {
        match self {
            Puzzle::Go(p) => p.count_ask(),
            _ => None,
        }
    }

    /// A note shown once solved, worked out by the engine (a count step by step).
    pub fn solved_note(&self, lang: Lang) -> Option<String> {
        match self {
            Puzzle::Go(p) => p.solved_note(lang),
            _ => None,
        }
    }

    /// How a learner reads the move `mv` (canonical) played after `before`: SAN in chess
    /// (`Kb8` rather than `a8b8`), the point or USI move otherwise.
    pub fn notation(&self, before: &[String], mv: &str) -> String {
        match self {
            Puzzle::Go(_) => mv.to_string(),
            Puzzle::Chess(p) => p.notation(before, mv),
            Puzzle::Shogi(p) => p.notation(before, mv),
        }
    }

    /// The moves from `from` to `to` after `moves`, with a label each, when there are
    /// several (a promotion to choose).
    pub fn choices(&self, moves: &[String], from: &str, to: &str) -> Vec<(Text, String)> {
        match self {
            Puzzle::Go(_) => Vec::new(),
            Puzzle::Chess(p) => p.choices(moves, from, to),
            Puzzle::Shogi(p) => p.choices(moves, from, to),
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
