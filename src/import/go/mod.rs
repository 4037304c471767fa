//! Go's own importers: tsumego collections as JSON lines, and the life-and-death solver's
//! proof of what any Go importer brings.

pub mod life;
mod setup;
pub mod tsumego_json;
