//! The rules engines. Pure: no web, no files, no content formats.

pub mod chess;
pub mod go;
mod key_map;
pub mod shogi;
