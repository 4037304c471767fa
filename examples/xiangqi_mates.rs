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

use qiyuan::rules::xiangqi::{MateProver, Outcome, Position};
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::time::{Duration, Instant};

/// A running Fairy-Stockfish, set to xiangqi.
struct Fsf {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

impl Fsf {
    fn start() -> Fsf {
        let binary = std::env::var_os("FAIRY_STOCKFISH")
            .unwrap_or_else(|| "/usr/games/fairy-stockfish".into());
        let mut child = Command::new(&binary)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| panic!("Fairy-Stockfish at {}: {e}", binary.to_string_lossy()));
        let stdin = child.stdin.take().unwrap();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        let mut fsf = Fsf {
            child,
            stdin,
            stdout,
        };
        fsf.send("uci");
        fsf.until(|l| l == "uciok");
        fsf.send("setoption name UCI_Variant value xiangqi");
        fsf.send("isready");
        fsf.until(|l| l == "readyok");
        fsf
    }

    fn send(&mut self, line: &str) {
        writeln!(self.stdin, "{line}").unwrap();
        self.stdin.flush().unwrap();
    }

    fn until(&mut self, last: impl Fn(&str) -> bool) -> Vec<String> {
        let mut lines = Vec::new();
        loop {
            let mut line = String::new();
            assert!(
                self.stdout.read_line(&mut line).unwrap() > 0,
                "Fairy-Stockfish stopped"
            );
            let line = line.trim_end().to_string();
            let done = last(&line);
            lines.push(line);
            if done {
                return lines;
            }
        }
    }

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

impl Drop for Fsf {
    fn drop(&mut self) {
        let _ = writeln!(self.stdin, "quit");
        let _ = self.child.wait();
    }
}

/// The positions of the kill games 1, 3, 5 and 7 plies before a game's end by 将死 or 困毙
/// (the winner to move), as FENs with a fresh history.
fn kill_positions() -> Vec<(String, String)> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/xiangqi/ccpd.tsv");
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut out = Vec::new();
    for line in text.lines().filter(|l| l.starts_with("kills/")) {
        let f: Vec<&str> = line.split('\t').collect();
        let mut pos = Position::from_fen(f[1]).unwrap();
        let mut fens = vec![pos.fen()];
        let mut ok = true;
        for mv in f.get(2).unwrap_or(&"").split_whitespace() {
            if pos.play_in_place(mv).is_err() {
                ok = false;
                break;
            }
            fens.push(pos.fen());
        }
        if !ok
            || !matches!(
                pos.outcome(),
                Some(Outcome::Checkmate { .. } | Outcome::Stalemate { .. })
            )
        {
            continue;
        }
        for back in [1, 3, 5, 7] {
            if fens.len() > back {
                out.push((
                    format!("{}-{back}", f[0]),
                    fens[fens.len() - 1 - back].clone(),
                ));
            }
        }
    }
    out
}

fn stats(times: &mut [Duration]) -> (f64, f64) {
    times.sort();
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    (ms(times[times.len() / 2]), ms(*times.last().unwrap()))
}

fn main() {
    let positions = kill_positions();
    let mut fsf = Fsf::start();
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
