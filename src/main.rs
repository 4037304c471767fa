//! The `qiyuan` command: serve the trainer, check content.
fn main() {}
