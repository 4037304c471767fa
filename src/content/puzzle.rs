//! The games' puzzles listed: the one enum of every game's kind of puzzle ([`Puzzle`]), the
//! problem and problem set that hold it, and the wrapping of a game's own problems into it.
//! The game modules sit below and never name it.

use super::chess::ChessPuzzle;
use super::go::GoPuzzle;
use super::problem::{GamePuzzle, ProblemOf, Tasked};
use super::shogi::ShogiPuzzle;
use super::Diagram;
use crate::base::Text;

/// One problem of a set, with any game's puzzle.
pub type Problem = ProblemOf<Puzzle>;

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

/// The game-specific part of a problem: one puzzle of one game behind [`GamePuzzle`].
#[derive(Clone, Debug)]
#[allow(clippy::large_enum_variant)] // problems are built once, at load, and never moved
pub enum Puzzle {
    /// A Go problem.
    Go(GoPuzzle),
    /// A chess problem.
    Chess(ChessPuzzle),
    /// A shogi problem.
    Shogi(ShogiPuzzle),
}

impl std::ops::Deref for Puzzle {
    type Target = dyn GamePuzzle;

    /// The one dispatch over the games: everything else is asked of [`GamePuzzle`].
    fn deref(&self) -> &(dyn GamePuzzle + 'static) {
        match self {
            Puzzle::Go(p) => p,
            Puzzle::Chess(p) => p,
            Puzzle::Shogi(p) => p,
        }
    }
}

impl From<GoPuzzle> for Puzzle {
    fn from(puzzle: GoPuzzle) -> Puzzle {
        Puzzle::Go(puzzle)
    }
}

impl From<ChessPuzzle> for Puzzle {
    fn from(puzzle: ChessPuzzle) -> Puzzle {
        Puzzle::Chess(puzzle)
    }
}

impl From<ShogiPuzzle> for Puzzle {
    fn from(puzzle: ShogiPuzzle) -> Puzzle {
        Puzzle::Shogi(puzzle)
    }
}

impl<P> Tasked<P> {
    /// The diagram, each task (made a [`Puzzle`] by `wrap`) in its frame.
    pub(crate) fn wrap(self, wrap: impl Fn(P) -> Puzzle) -> Diagram {
        let mut diagram = self.diagram;
        for (i, task) in self.tasks {
            diagram.frames[i].task = Some(Box::new(task.map(&wrap)));
        }
        diagram
    }
}
