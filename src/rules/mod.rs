//! The rules engines. Pure: no web, no files, no content formats.
//!
//! Every engine answers the same questions in the same words, the [`Rules`] trait (shakmaty's
//! `Position` is the model): whose [`turn`](Rules::turn) it is, the
//! [`legal_moves`](Rules::legal_moves), [`play`](Rules::play) a written move (the new
//! position and the move played, or a typed `Illegal` the learner can be told about with
//! [`Explain`]), how the game has ended, and a move's canonical name and notation.
//! Game-specific extras (Go scoring, mate and tsume search, `select` questions) stay in each
//! game's module.

mod key_map;
for_each_game!(game_modules);

use crate::lang::Lang;
use std::fmt;

/// Something the learner can be told about, in their language.
pub trait Explain {
    /// A sentence for the learner in `lang`.
    fn explain(&self, lang: Lang) -> String;
}

/// A position of a game, as every engine describes it.
///
/// ```
/// use qiyuan::lang::Lang;
/// use qiyuan::rules::{chess, go, shogi, Explain, Rules};
///
/// /// The canonical names of a line, or why it stops.
/// fn line<P: Rules>(start: &P, moves: &[&str]) -> Result<Vec<String>, String> {
///     let mut pos = start.clone();
///     let mut names = Vec::new();
///     for text in moves {
///         let (next, played) = pos.play(text).map_err(|e| e.explain(Lang::En))?;
///         names.push(pos.move_name(&played));
///         pos = next;
///     }
///     Ok(names)
/// }
/// assert_eq!(line(&go::Position::empty(9).unwrap(), &["d4", "pass"]).unwrap(), ["D4", "pass"]);
/// assert_eq!(line(&chess::Position::start(), &["e4", "Nf6"]).unwrap(), ["e2e4", "g8f6"]);
/// assert_eq!(line(&shogi::Position::start(), &["7g7f"]).unwrap(), ["7g7f"]);
/// assert!(line(&chess::Position::start(), &["Ke2"]).unwrap_err().contains("e2"));
/// ```
pub trait Rules: Clone + fmt::Debug + Send + Sync + Sized + 'static {
    /// A move as the engine describes it once it is known to be legal.
    type Move: Clone + fmt::Debug;
    /// Why a move is refused: one variant per rule.
    type Illegal: Explain + fmt::Display + fmt::Debug + Clone + PartialEq;
    /// How a game has ended.
    type Ending: Explain + fmt::Debug + Clone;
    /// A side.
    type Color: Copy + Eq + fmt::Debug;

    /// The side to move.
    fn turn(&self) -> Self::Color;

    /// Every legal move of the side to move.
    fn legal_moves(&self) -> Vec<Self::Move>;

    /// Plays a move written in any notation the game reads (`D4`, `Nf3` or `g1f3`, `7g7f`):
    /// the position after it and the move, or why the rules refuse it.
    fn play(&self, text: &str) -> Result<(Self, Self::Move), Self::Illegal>;

    /// Plays a move as [`Rules::play`] does, on this position itself; when the rules refuse
    /// it the position is left as it was. The same as `play` then keeping the new position,
    /// cheaper where the engine can play in place (shogi: `play` copies the history).
    fn play_in_place(&mut self, text: &str) -> Result<Self::Move, Self::Illegal> {
        let (next, mv) = self.play(text)?;
        *self = next;
        Ok(mv)
    }

    /// The move's canonical name, the same however it was written: `D4`, `g1f3`, `P*5e`
    /// (it depends on the move and the board's size only, so it may be asked of the
    /// position before the move or after it).
    fn move_name(&self, mv: &Self::Move) -> String;

    /// The move as learners read it, played from this position: `D4`, `Nf3`, `☗７六歩`.
    fn notation(&self, mv: &Self::Move) -> String;

    /// How the game has ended here, if it has.
    fn ending(&self) -> Option<Self::Ending>;
}
