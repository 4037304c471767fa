//! A position of any game behind one interface, [`AnyPosition`]: where records are replayed
//! and moves read without naming the game.
//!
//! A game's rules position becomes one by implementing [`GamePosition`] in the game's own
//! file: which game it is, its colours as [`Side`]s, and how it is made from a [`Start`].

use super::{Game, Side, Start};
use crate::lang::Lang;
use crate::rules::{Explain, Rules};
use std::any::Any;
use std::fmt;

/// Why a [`Start`] gives no position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BadStart {
    /// The start is not a position of the game: why, in English.
    Position(String),
    /// The start is a variant the game does not play (Chess960): its name.
    Variant(String),
}

impl fmt::Display for BadStart {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BadStart::Position(why) => f.write_str(why),
            BadStart::Variant(name) => write!(f, "{name} is not played here"),
        }
    }
}

/// A rules position that knows its game: the bridge from a game's [`Rules`] to
/// [`AnyPosition`].
pub trait GamePosition: Rules {
    /// The game it is a position of.
    const GAME: Game;

    /// The side a colour of the game plays.
    fn side(color: Self::Color) -> Side;

    /// The position where `start` begins.
    fn from_start(start: &Start) -> Result<Self, BadStart>;

    /// The position where `start` begins for an engine, which may play starts a table
    /// refuses (a chess engine plays Chess960).
    fn engine_start(start: &Start) -> Result<Self, BadStart> {
        Self::from_start(start)
    }

    /// The options an engine of the game is given for this position, where it announces
    /// them (`UCI_Chess960`).
    fn engine_options(&self) -> Vec<(&'static str, &'static str)> {
        Vec::new()
    }

    /// The position as engines are told it (`position fen …`, `position sfen …`): the
    /// game's FEN or SFEN. Go, whose engines replay the moves, writes its board.
    fn engine_position(&self) -> String;

    /// A move's canonical name as the game's engines write it (the same, unless the game's
    /// engines count the board otherwise).
    fn to_engine_move(name: &str) -> String {
        name.to_string()
    }

    /// A move as the game's engines write it, in the canonical name the rules read.
    fn from_engine_move(text: &str) -> String {
        text.to_string()
    }
}

/// What [`AnyPosition`] asks of a position; implemented for every [`GamePosition`].
trait Dyn: Send + Sync + fmt::Debug {
    fn game(&self) -> Game;
    fn turn(&self) -> Side;
    fn play(&self, text: &str, lang: Lang) -> Result<(AnyPosition, String), String>;
    fn play_noted(&self, text: &str) -> Option<(AnyPosition, String)>;
    fn legal_moves(&self) -> Vec<String>;
    fn over(&self) -> bool;
    fn engine_position(&self) -> String;
    fn engine_options(&self) -> Vec<(&'static str, &'static str)>;
    fn to_engine_move(&self, name: &str) -> String;
    fn engine_move_read(&self, text: &str) -> String;
    fn boxed(&self) -> Box<dyn Dyn>;
    fn any(&self) -> &dyn Any;
}

impl<P: GamePosition> Dyn for P {
    fn game(&self) -> Game {
        P::GAME
    }

    fn turn(&self) -> Side {
        P::side(Rules::turn(self))
    }

    fn play(&self, text: &str, lang: Lang) -> Result<(AnyPosition, String), String> {
        let (next, played) = Rules::play(self, text).map_err(|e| e.explain(lang))?;
        let name = self.move_name(&played);
        Ok((AnyPosition(Box::new(next)), name))
    }

    fn play_noted(&self, text: &str) -> Option<(AnyPosition, String)> {
        let (next, played) = Rules::play(self, text).ok()?;
        let notation = Rules::notation(self, &played);
        Some((AnyPosition(Box::new(next)), notation))
    }

    fn legal_moves(&self) -> Vec<String> {
        Rules::legal_moves(self)
            .iter()
            .map(|m| self.move_name(m))
            .collect()
    }

    fn over(&self) -> bool {
        self.ending().is_some()
    }

    fn engine_position(&self) -> String {
        GamePosition::engine_position(self)
    }

    fn engine_options(&self) -> Vec<(&'static str, &'static str)> {
        GamePosition::engine_options(self)
    }

    fn to_engine_move(&self, name: &str) -> String {
        P::to_engine_move(name)
    }

    fn engine_move_read(&self, text: &str) -> String {
        P::from_engine_move(text)
    }

    fn boxed(&self) -> Box<dyn Dyn> {
        Box::new(self.clone())
    }

    fn any(&self) -> &dyn Any {
        self
    }
}

/// A position of any game: the rules' operations in words every game shares (moves as
/// text, sides as [`Side`]).
///
/// ```
/// use qiyuan::base::{AnyPosition, Game, Side};
/// use qiyuan::lang::Lang;
/// let start = (Game::from_slug("chess").unwrap().kind().standard_start)();
/// let pos = AnyPosition::from_start(&start).unwrap();
/// assert_eq!(pos.turn(), Side::First);
/// let (next, name) = pos.play("e4", Lang::En).unwrap();
/// assert_eq!((name.as_str(), next.turn()), ("e2e4", Side::Second));
/// assert!(pos.play("Ke2", Lang::En).is_err());
/// ```
pub struct AnyPosition(Box<dyn Dyn>);

impl AnyPosition {
    /// The position where `start` begins.
    pub fn from_start(start: &Start) -> Result<AnyPosition, BadStart> {
        (start.game().kind().position)(start)
    }

    /// A game's own position, as any position.
    pub fn new<P: GamePosition>(pos: P) -> AnyPosition {
        AnyPosition(Box::new(pos))
    }

    /// The game it is a position of.
    pub fn game(&self) -> Game {
        self.0.game()
    }

    /// The side to move.
    pub fn turn(&self) -> Side {
        self.0.turn()
    }

    /// Plays `text` (any notation the game reads): the position after it and the move's
    /// canonical name, or why the rules refuse it, told in `lang`.
    pub fn play(&self, text: &str, lang: Lang) -> Result<(AnyPosition, String), String> {
        self.0.play(text, lang)
    }

    /// Plays `text`: the position after it and the move as learners read it (`Nf3`), if the
    /// move is legal.
    pub fn play_noted(&self, text: &str) -> Option<(AnyPosition, String)> {
        self.0.play_noted(text)
    }

    /// The canonical names of the legal moves.
    pub fn legal_moves(&self) -> Vec<String> {
        self.0.legal_moves()
    }

    /// Whether the game has ended here.
    pub fn over(&self) -> bool {
        self.0.over()
    }

    /// The position as the game's engines are told it: its FEN or SFEN.
    pub fn engine_position(&self) -> String {
        self.0.engine_position()
    }

    /// The options the game's engines are given for this position.
    pub fn engine_options(&self) -> Vec<(&'static str, &'static str)> {
        self.0.engine_options()
    }

    /// A move's canonical name as the game's engines write it.
    pub fn to_engine_move(&self, name: &str) -> String {
        self.0.to_engine_move(name)
    }

    /// A move as the game's engines write it, in the canonical name the rules read.
    pub fn from_engine_move(&self, text: &str) -> String {
        self.0.engine_move_read(text)
    }

    /// The game's own position, when it is a `P`: for a game's own code.
    pub fn get<P: GamePosition>(&self) -> Option<&P> {
        self.0.any().downcast_ref()
    }
}

impl Clone for AnyPosition {
    fn clone(&self) -> AnyPosition {
        AnyPosition(self.0.boxed())
    }
}

impl fmt::Debug for AnyPosition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

/// Makes a game's `from_start` the descriptor's `position` function.
pub fn position_of<P: GamePosition>(start: &Start) -> Result<AnyPosition, BadStart> {
    P::from_start(start).map(AnyPosition::new)
}
