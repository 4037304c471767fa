//! qiyuan (棋院): a teaching and puzzle trainer for Go, chess and shogi.
//!
//! Layers, each depending only on those before it: [`rules`] (the engines), [`content`]
//! (lessons and problems, checked against the engines), [`render`] (SVG boards) and
//! [`web`] (the axum server).

pub mod content;
pub mod import;
pub mod lang;
pub mod render;
pub mod rules;
pub mod web;
