//! A running Fairy-Stockfish set to xiangqi, for the tests (and benchmarks) that compare our
//! xiangqi with it: one UCI dialogue, moves converted between ICCS (ranks 0–9) and
//! Fairy-Stockfish's coordinates (ranks 1–10).
//!
//! Fairy-Stockfish is `/usr/games/fairy-stockfish` or `$FAIRY_STOCKFISH`; a missing engine
//! fails the test that needs it, with how to install it.

#![allow(dead_code)] // each test uses what it needs

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

/// A running Fairy-Stockfish, set to xiangqi.
pub struct Fsf {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

impl Fsf {
    /// Starts the engine for `purpose` (named in the failure when it is missing), tells it
    /// the variant and waits until it is ready.
    pub fn start(purpose: &str) -> Fsf {
        let binary = std::env::var_os("FAIRY_STOCKFISH")
            .unwrap_or_else(|| "/usr/games/fairy-stockfish".into());
        let mut child = Command::new(&binary)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| {
                panic!(
                    "{purpose} needs Fairy-Stockfish at {}: {e}; run `apt-get install \
                     fairy-stockfish` or set FAIRY_STOCKFISH",
                    binary.to_string_lossy()
                )
            });
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
        fsf.ready();
        fsf
    }

    /// Sends one line.
    pub fn send(&mut self, line: &str) {
        writeln!(self.stdin, "{line}").unwrap();
        self.stdin.flush().unwrap();
    }

    /// `isready`, up to `readyok`.
    pub fn ready(&mut self) {
        self.send("isready");
        self.until(|l| l == "readyok");
    }

    /// The lines up to and including the first that `last` accepts.
    pub fn until(&mut self, last: impl Fn(&str) -> bool) -> Vec<String> {
        let mut lines = Vec::new();
        loop {
            let mut line = String::new();
            let n = self.stdout.read_line(&mut line).unwrap();
            assert!(n > 0, "Fairy-Stockfish stopped; lines so far: {lines:?}");
            let line = line.trim_end().to_string();
            let done = last(&line);
            lines.push(line);
            if done {
                return lines;
            }
        }
    }

    /// Sets up `fen` and the `moves` (ICCS) after it.
    pub fn position(&mut self, fen: &str, moves: &[String]) {
        if moves.is_empty() {
            self.send(&format!("position fen {fen}"));
        } else {
            let moves: Vec<String> = moves.iter().map(|m| to_fsf(m)).collect();
            self.send(&format!("position fen {fen} moves {}", moves.join(" ")));
        }
    }

    /// Like [`Fsf::position`], with a fresh hash table first (`ucinewgame`), and waits
    /// until the engine is ready.
    pub fn new_position(&mut self, fen: &str, moves: &[String]) {
        self.send("ucinewgame");
        self.position(fen, moves);
        self.ready();
    }
}

impl Fsf {
    /// `go perft depth`: the moves (in ICCS) with their counts, and the total.
    pub fn perft(&mut self, depth: u32) -> (std::collections::BTreeSet<String>, u64) {
        self.send(&format!("go perft {depth}"));
        let lines = self.until(|l| l.starts_with("Nodes searched"));
        let mut moves = std::collections::BTreeSet::new();
        let mut total = 0;
        for l in &lines {
            if let Some(n) = l.strip_prefix("Nodes searched:") {
                total = n.trim().parse().unwrap();
            } else if let Some((mv, _)) = l.split_once(": ") {
                moves.insert(from_fsf(mv));
            }
        }
        (moves, total)
    }

    /// The legal moves (ICCS) of the position set.
    pub fn legal(&mut self) -> std::collections::BTreeSet<String> {
        self.perft(1).0
    }

    /// `d`: the FEN and whether the side to move is in check (`Checkers:`).
    pub fn show(&mut self) -> (String, bool) {
        self.send("d");
        self.send("isready");
        let lines = self.until(|l| l == "readyok");
        let fen = lines
            .iter()
            .find_map(|l| l.strip_prefix("Fen: "))
            .expect("d prints the FEN")
            .to_string();
        let checkers = lines
            .iter()
            .find_map(|l| l.strip_prefix("Checkers:"))
            .expect("d prints the checkers");
        (fen, !checkers.trim().is_empty())
    }

    /// Runs `go …` and returns the last `score mate K` (positive: the side to move mates),
    /// `None` for a score in centipawns.
    pub fn mate_score(&mut self, go: &str) -> Option<i32> {
        self.send(go);
        let lines = self.until(|l| l.starts_with("bestmove"));
        let mut score = None;
        for l in &lines {
            if let Some((_, rest)) = l.split_once(" score ") {
                let mut words = rest.split_whitespace();
                score = match (words.next(), words.next()) {
                    (Some("mate"), Some(k)) => k.parse().ok(),
                    _ => None,
                };
            }
        }
        score
    }

    /// The engine's move (ICCS) after `go depth {depth}`, `None` for `(none)`.
    pub fn best(&mut self, depth: u32) -> Option<String> {
        self.send(&format!("go depth {depth}"));
        let lines = self.until(|l| l.starts_with("bestmove"));
        let mv = lines.last()?.split_whitespace().nth(1)?.to_string();
        (mv != "(none)").then(|| from_fsf(&mv))
    }
}

impl Drop for Fsf {
    fn drop(&mut self) {
        let _ = writeln!(self.stdin, "quit");
        let _ = self.child.wait();
    }
}

/// ICCS (ranks 0–9) to Fairy-Stockfish's coordinates (ranks 1–10): `h2e2` → `h3e3`.
pub fn to_fsf(iccs: &str) -> String {
    let b = iccs.as_bytes();
    let r = |c: u8| (c - b'0' + 1).to_string();
    format!("{}{}{}{}", b[0] as char, r(b[1]), b[2] as char, r(b[3]))
}

/// Fairy-Stockfish's coordinates back to ICCS: `h10g8` → `h9g7`.
pub fn from_fsf(mv: &str) -> String {
    let mut out = String::new();
    let mut digits = String::new();
    for c in mv.chars().chain(std::iter::once(' ')) {
        if c.is_ascii_digit() {
            digits.push(c);
        } else {
            if !digits.is_empty() {
                out.push_str(&(digits.parse::<u32>().unwrap() - 1).to_string());
                digits.clear();
            }
            if c != ' ' {
                out.push(c);
            }
        }
    }
    out
}

/// The kill positions of the CCPD kill games in `tests/data/xiangqi/ccpd.tsv` (CC BY 4.0):
/// (label, FEN), the winner to move, 1, 3, 5 and 7 plies before the end of each game that
/// ends by 将死 or 困毙, as FENs with a fresh history.
pub fn kill_positions() -> Vec<(String, String)> {
    use qiyuan::rules::xiangqi::{Outcome, Position};
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/xiangqi/ccpd.tsv");
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("cannot read {path}: {e}"));
    let mut out = Vec::new();
    for line in text.lines().filter(|l| l.starts_with("kills/")) {
        let f: Vec<&str> = line.split('\t').collect();
        let mut pos = Position::from_fen(f[1]).unwrap_or_else(|e| panic!("{}: {e}", f[0]));
        let mut fens = vec![pos.fen()];
        for mv in f.get(2).unwrap_or(&"").split_whitespace() {
            pos.play_in_place(mv)
                .unwrap_or_else(|e| panic!("{} {mv}: {e}", f[0]));
            fens.push(pos.fen());
        }
        if !matches!(
            pos.outcome(),
            Some(Outcome::Checkmate { .. } | Outcome::Stalemate { .. })
        ) {
            continue;
        }
        for back in [1, 3, 5, 7] {
            if fens.len() > back {
                out.push((
                    format!("{} {back} plies before the end", f[0]),
                    fens[fens.len() - 1 - back].clone(),
                ));
            }
        }
    }
    out
}
