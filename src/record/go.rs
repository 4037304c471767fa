//! The formats of go's records.

use super::Format;

/// The formats go's records are written in, the usual one first.
pub(crate) static FORMATS: &[Format] = &[super::sgf::SGF];
