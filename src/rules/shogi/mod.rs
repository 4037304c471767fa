//! The shogi rules engine (将棋): rsshogi decides what is legal; this layer says why a move
//! is not, in the words of a teacher, and proves tsume problems (詰将棋).
//!
//! ```
//! use qiyuan::rules::shogi::{Illegal, Position};
//! use qiyuan::lang::Lang;
//! // Black has a pawn on 5g and another in hand:
//! //   9 8 7 6 5 4 3 2 1
//! //   . . . . k . . . .  a
//! //   …
//! //   . . . . P . . . .  g
//! //   . . . . . . . . .  h
//! //   . . . . K . . . .  i
//! let pos = Position::from_sfen("4k4/9/9/9/9/9/4P4/9/4K4 b P 1").unwrap();
//! let err = pos.play("P*5e").unwrap_err();
//! assert_eq!(err, Illegal::TwoPawns { file: 5 });
//! assert!(err.explain(Lang::Zh).contains("二步"));
//! assert!(pos.play("P*4e").is_ok());
//! ```

mod geometry;
mod illegal;
mod notation;
mod position;
pub mod select;
mod tsume;
mod types;

pub use illegal::{Illegal, Outcome};
pub use notation::{japanese, kanji_square};
pub use position::{BadSfen, Played, Position, START_SFEN};
pub use types::{Color, Kind, Square};

/// The rules in the words every game shares.
impl super::Rules for Position {
    type Move = Played;
    type Illegal = Illegal;
    type Ending = Outcome;
    type Color = Color;

    fn turn(&self) -> Color {
        Position::turn(self)
    }
    fn legal_moves(&self) -> Vec<Played> {
        Position::legal_moves(self)
    }
    fn play(&self, text: &str) -> Result<(Self, Played), Illegal> {
        Position::play(self, text)
    }
    fn play_in_place(&mut self, text: &str) -> Result<Played, Illegal> {
        Position::play_in_place(self, text)
    }
    fn move_name(&self, mv: &Played) -> String {
        mv.usi.clone()
    }
    fn notation(&self, mv: &Played) -> String {
        japanese(mv, Position::turn(self))
    }
    fn ending(&self) -> Option<Outcome> {
        self.outcome()
    }
}

impl super::Explain for Illegal {
    fn explain(&self, lang: crate::lang::Lang) -> String {
        Illegal::explain(self, lang)
    }
}

impl super::Explain for Outcome {
    fn explain(&self, lang: crate::lang::Lang) -> String {
        Outcome::explain(self, lang)
    }
}
