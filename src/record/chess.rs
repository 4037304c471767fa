//! The formats of chess's records.

use super::Format;

/// The formats chess's records are written in, the usual one first.
pub(crate) static FORMATS: &[Format] = &[super::pgn::PGN];
