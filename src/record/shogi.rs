//! The formats of shogi's records.

use super::Format;

/// The formats shogi's records are written in, the usual one first.
pub(crate) static FORMATS: &[Format] = &[super::kif::KIF, super::kif::KI2, super::kif::CSA];
