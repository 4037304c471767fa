//! qiyuan (棋院): a teaching and puzzle trainer for Go, xiangqi, chess and shogi.
//!
//! Layers, each depending only on those before it: [`rules`] (the engines, one [`rules::Rules`]
//! trait for every game), [`render`] (SVG boards from plain data), [`content`] (lessons and
//! problems, checked against the engines; lesson frames drawn with [`render`]; one
//! [`content::GamePuzzle`] trait for every game), [`import`] (other formats into problem
//! sets, checked by [`content`] before they are written), [`record`] (whole game records in
//! SGF, PGN and KIF/KI2/CSA, every move checked by [`rules`]) and [`web`] (the axum server).
//! `docs/architecture.md` shows the layers and how to add a game.

/// The registry of games, one line a game: `Variant module`, where `Variant` names the game
/// in [`base::Game`] and `module` is the name of the game's own file or folder in every
/// layer (`rules/go/`, `base/go.rs`, `content/go/`, `play/table/go.rs` …).
///
/// Each layer expands it with a macro of its own that takes the list and makes what the
/// layer needs of every game (its modules with [`game_modules`], an enum with a variant a
/// game, a table of functions), so that a game is added here and in its own folders alone.
macro_rules! for_each_game {
    ($then:ident) => {
        $then! {
            Go go,
            Chess chess,
            Shogi shogi,
            Xiangqi xiangqi,
        }
    };
}

/// Declares every game's own module of the layer it is expanded in (`pub mod go;` …).
macro_rules! game_modules {
    ($($game:ident $module:ident,)*) => {
        $(pub mod $module;)*
    };
}

pub mod base;
pub mod class;
pub mod content;
pub mod import;
pub mod lang;
pub mod play;
pub mod random;
pub mod record;
pub mod render;
pub mod rules;
pub mod web;
