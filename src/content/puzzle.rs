//! The games' puzzles listed: the one enum of every game's kind of puzzle ([`Puzzle`]) and
//! each game's content plugin, both from the registry of games; the problem and problem set
//! that hold a puzzle, and the wrapping of a game's own problems into it.

use super::diagnostic::{Ctx, Diagnostic};
use super::problem::{GamePuzzle, ProblemOf, Tasked};
use super::proofs::LoadProofs;
use super::Diagram;
use crate::base::{Game, Text};
use crate::lang::Lang;

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

/// What the content layer needs of a game, filled in the game's own folder as `CONTENT`
/// beside `Puzzle`, its kind of puzzle.
pub(crate) struct ContentPlugin {
    /// Reads a problem set: slug, path, text.
    pub load_set: fn(&str, &str, &str, &mut LoadProofs) -> Result<ProblemSet, Vec<Diagnostic>>,
    /// Reads a lesson's diagram block (fenced with the descriptor's `lesson_fence`).
    pub diagram: fn(&Ctx, &str, Option<String>, Lang) -> Result<Diagram, Diagnostic>,
}

/// Makes [`Puzzle`] and the content registry from the registry of games.
macro_rules! puzzles {
    ($($game:ident $module:ident,)*) => {
        /// The game-specific part of a problem: one puzzle of one game behind
        /// [`GamePuzzle`], a variant a game.
        #[derive(Clone, Debug)]
        #[allow(clippy::large_enum_variant)] // problems are built once, at load, and never moved
        pub enum Puzzle {
            $(
                #[doc = concat!("A puzzle of `", stringify!($module), "`.")]
                $game(super::$module::Puzzle),
            )*
        }

        impl std::ops::Deref for Puzzle {
            type Target = dyn GamePuzzle;

            /// The one dispatch over the games: everything else is asked of [`GamePuzzle`].
            fn deref(&self) -> &(dyn GamePuzzle + 'static) {
                match self {
                    $(Puzzle::$game(p) => p,)*
                }
            }
        }

        $(
            impl From<super::$module::Puzzle> for Puzzle {
                fn from(puzzle: super::$module::Puzzle) -> Puzzle {
                    Puzzle::$game(puzzle)
                }
            }
        )*

        /// The content layer's part of `game`: the registry's entry of its folder.
        pub(crate) fn plugin(game: Game) -> &'static ContentPlugin {
            match game {
                $(Game::$game => &super::$module::CONTENT,)*
            }
        }
    };
}

for_each_game!(puzzles);

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
