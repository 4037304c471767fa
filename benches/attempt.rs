//! Benchmark: judging one attempt.
fn main() {}
