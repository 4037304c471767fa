//! Where a game starts: one variant a game, each holding the `Start` of the game's own file
//! (a Go board and its handicap, a chess FEN, a shogi SFEN or 駒落ち …).

use super::position::{AnyPosition, BadStart, GamePosition};
use super::Game;

/// Makes [`Start`] from the registry.
macro_rules! starts {
    ($($game:ident $module:ident,)*) => {
        /// Where a game starts: the game's own `Start` (in its file of `base`).
        #[derive(Clone, Debug, PartialEq)]
        pub enum Start {
            $(
                #[doc = concat!("A start of `", stringify!($module), "`.")]
                $game(super::$module::Start),
            )*
        }

        impl Start {
            /// The game this start belongs to.
            pub fn game(&self) -> Game {
                match self {
                    $(Start::$game(_) => Game::$game,)*
                }
            }

            /// The position where the start begins for an engine of its game
            /// ([`GamePosition::engine_start`]).
            pub fn engine_start(&self) -> Result<AnyPosition, BadStart> {
                match self {
                    $(Start::$game(_) => {
                        <crate::rules::$module::Position as GamePosition>::engine_start(self)
                            .map(AnyPosition::new)
                    })*
                }
            }
        }
    };
}

for_each_game!(starts);
