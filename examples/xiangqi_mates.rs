//! Times the xiangqi mate prover on the CCPD kill exercises (`tests/data/xiangqi/ccpd.tsv`,
//! CC BY 4.0) against Fairy-Stockfish, one run each: for every kill game whose last move
//! leaves the loser without a legal move, the positions 1, 3, 5 and 7 plies before the end
//! (the winner to move) are proven with [`MateProver::mate_distance`] up to 4 moves, and
//! those with a mate in 1–4 with [`MateProver::mating_moves`] (every first move). The
//! table gives the median and worst time of `mating_moves` per mate length, and
//! Fairy-Stockfish's time for `go mate N` on the same positions (the wall time from `go`
//! to `bestmove`, over a pipe).
//!
//! `cargo run --release --example xiangqi_mates` (Fairy-Stockfish at
//! `/usr/games/fairy-stockfish` or `$FAIRY_STOCKFISH`).

#[path = "../tests/fairy/mod.rs"]
mod fairy;

use fairy::{kill_positions, Fsf};
use qiyuan::rules::xiangqi::{MateProver, Position};
use std::time::{Duration, Instant};

impl Fsf {
    /// `go mate n` from `fen`: the time to `bestmove`.
    fn time_mate(&mut self, fen: &str, n: u32) -> Duration {
        self.send("ucinewgame");
        self.send(&format!("position fen {fen}"));
        self.send("isready");
        self.until(|l| l == "readyok");
        let start = Instant::now();
        self.send(&format!("go mate {n}"));
        self.until(|l| l.starts_with("bestmove"));
        start.elapsed()
    }
}

fn stats(times: &mut [Duration]) -> (f64, f64) {
    times.sort();
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    (ms(times[times.len() / 2]), ms(*times.last().unwrap()))
}

fn main() {
    let positions = kill_positions();
    let mut fsf = Fsf::start("the xiangqi mate benchmark");
    // Per mate length 1–4: our times, Fairy-Stockfish's times.
    let mut ours: Vec<Vec<Duration>> = vec![Vec::new(); 5];
    let mut theirs: Vec<Vec<Duration>> = vec![Vec::new(); 5];
    let mut nodes_max = [0u64; 5];
    let mut none = 0;
    for (name, fen) in &positions {
        let pos = Position::from_fen(fen).unwrap();
        let mut prover = MateProver::new();
        let Some(d) = prover
            .mate_distance(&pos, 4)
            .unwrap_or_else(|e| panic!("{name}: {e}"))
        else {
            none += 1;
            continue;
        };
        let start = Instant::now();
        let mut prover = MateProver::new();
        let moves = prover
            .mating_moves(&pos, d)
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        ours[d as usize].push(start.elapsed());
        nodes_max[d as usize] = nodes_max[d as usize].max(prover.nodes());
        assert!(!moves.is_empty(), "{name}: {fen}");
        theirs[d as usize].push(fsf.time_mate(fen, d));
    }
    println!(
        "{} kill positions, {none} without a mate in 4 or less",
        positions.len()
    );
    println!("| mate in | positions | ours median ms | ours worst ms | most nodes | Fairy-Stockfish median ms | Fairy-Stockfish worst ms |");
    println!("|---|---|---|---|---|---|---|");
    for d in 1..=4 {
        if ours[d].is_empty() {
            continue;
        }
        let (om, ow) = stats(&mut ours[d]);
        let (fm, fw) = stats(&mut theirs[d]);
        println!(
            "| {d} | {} | {om:.2} | {ow:.2} | {} | {fm:.2} | {fw:.2} |",
            ours[d].len(),
            nodes_max[d]
        );
    }
}
