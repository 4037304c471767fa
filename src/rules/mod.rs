//! The rules engines. Pure: no web, no files, no content formats.

pub mod chess;
pub mod go;
pub mod shogi;
