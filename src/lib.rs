//! qiyuan (棋院): a teaching and puzzle trainer for Go, chess and shogi.
//!
//! Layers, each depending only on those before it: [`rules`] (the engines, one [`rules::Rules`]
//! trait for every game), [`render`] (SVG boards from plain data), [`content`] (lessons and
//! problems, checked against the engines; lesson frames drawn with [`render`]; one
//! [`content::GamePuzzle`] trait for every game), [`import`] (other formats into problem
//! sets, checked by [`content`] before they are written), [`record`] (whole game records in
//! SGF, PGN and KIF/KI2/CSA, every move checked by [`rules`]) and [`web`] (the axum server).
//! `docs/architecture.md` shows the layers and how to add a game.

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
