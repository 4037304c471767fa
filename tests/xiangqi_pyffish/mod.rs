//! The client of `scripts/xiangqi_reference.py`: asks pyffish (Fairy-Stockfish) about a
//! batch of xiangqi games in one Python process. A missing Python or pyffish panics with
//! the command that installs it; the tests that use it fail, never pass quietly.

#![allow(dead_code)]

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};

/// What pyffish says about one game.
#[derive(Debug)]
pub struct Answer {
    /// For each position (the start, then after each move): the legal moves in our ICCS
    /// (ranks 0–9), sorted.
    pub legal: Vec<Vec<String>>,
    /// For each position: whether the side to move is in check.
    pub check: Vec<bool>,
    /// For each position: pyffish's game result when there is no legal move (negative: the
    /// side to move loses).
    pub result: Vec<Option<i64>>,
    /// pyffish's WXF name of each move.
    pub wxf: Vec<String>,
    /// pyffish's FEN of the last position.
    pub fen: String,
    /// The first move pyffish does not allow; the lists stop before it.
    pub illegal: Option<String>,
}

const INSTALL: &str = "python3 -m pip install pyffish==0.0.90";

/// Asks pyffish about every position of `games` (start FEN, moves in our ICCS), in one
/// process: one answer a game, in order. With `names_only`, pyffish only names the moves
/// (WXF) and says whether it allows them (`legal`, `check`, `result` are left empty; much
/// faster: pyffish takes some milliseconds a call).
pub fn ask(games: &[(String, Vec<String>)], names_only: bool) -> Vec<Answer> {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/scripts/xiangqi_reference.py");
    let python = std::env::var("QIYUAN_PYTHON").unwrap_or_else(|_| "python3".into());
    let mut child = Command::new(&python)
        .arg(script)
        .args(names_only.then_some("--names-only"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| {
            panic!("the xiangqi reference needs {python} with pyffish ({INSTALL}): {e}")
        });
    let mut stdin = child.stdin.take().expect("stdin");
    let input: String = games
        .iter()
        .map(|(fen, moves)| format!("{fen}\t{}\n", moves.join(" ")))
        .collect();
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(input.as_bytes());
    });
    let stdout = BufReader::new(child.stdout.take().expect("stdout"));
    let mut answers = Vec::with_capacity(games.len());
    for line in stdout.lines() {
        let line = line.expect("a line from the reference");
        answers.push(parse(&line));
    }
    writer.join().expect("the writer thread");
    let output = child.wait_with_output().expect("the reference's exit");
    let stderr = String::from_utf8_lossy(&output.stderr);
    if output.status.code() == Some(3) {
        panic!("pyffish is missing; install it with `{INSTALL}` ({stderr})");
    }
    assert!(
        output.status.success(),
        "scripts/xiangqi_reference.py failed ({}): {stderr}",
        output.status
    );
    assert_eq!(
        answers.len(),
        games.len(),
        "the reference answered {} games of {}",
        answers.len(),
        games.len()
    );
    answers
}

fn parse(line: &str) -> Answer {
    let value: serde_json::Value = serde_json::from_str(line).expect("JSON from the reference");
    let strings = |v: &serde_json::Value| -> Vec<String> {
        v.as_array()
            .map(|l| {
                l.iter()
                    .filter_map(|m| m.as_str().map(String::from))
                    .collect()
            })
            .unwrap_or_default()
    };
    let list = |key: &str| value[key].as_array().cloned().unwrap_or_default();
    Answer {
        legal: list("legal").iter().map(strings).collect(),
        check: list("check")
            .iter()
            .map(|c| c.as_bool().unwrap_or(false))
            .collect(),
        result: list("result").iter().map(|r| r.as_i64()).collect(),
        wxf: strings(&value["wxf"]),
        fen: value["fen"].as_str().unwrap_or_default().to_string(),
        illegal: value["illegal"].as_str().map(String::from),
    }
}
