//! The chess mate prover against the answers of the search it replaced:
//! `tests/data/proof-answers.tsv` is `benches/proofs.rs --dump` run on main's search
//! (commit 6492198) — for every corpus mate in 2 and every mate in 3 to 5 of
//! `benches/data/mates-3-6.txt`, the first moves proven to mate within the stated length
//! (`set<TAB>id<TAB>uci moves`). `Position::mating_moves` must prove exactly those.
//!
//! Debug builds compare a sample (every 10th mate in 2, every 4th mate in 3, three mates
//! in 4); release builds (`cargo test --release --test chess_proofs`) every mate up to 4,
//! and the mates in 5 too when `QIYUAN_LONG_TESTS` is set. The corpus is read from
//! `$QIYUAN_CORPUS` (default `tests/data/corpus`).

mod common;

#[path = "../benches/support/mate_positions.rs"]
mod mate_positions;

use qiyuan::rules::chess::Position;
use std::collections::HashMap;

const ANSWERS: &str = include_str!("data/proof-answers.tsv");

/// The FEN of every dumped problem, by set and id.
fn positions() -> HashMap<(String, String), (String, u32)> {
    let corpus = common::corpus("chess/mate-in-2.epd");
    let mut out = HashMap::new();
    let text = std::fs::read_to_string(corpus.join("chess/mate-in-2.epd")).expect("mate-in-2.epd");
    for (i, line) in text.lines().enumerate() {
        let fen: Vec<&str> = line.split_whitespace().take(4).collect();
        let key = ("chess/mate-in-2".to_string(), (i + 1).to_string());
        out.insert(key, (format!("{} 0 1", fen.join(" ")), 2));
    }
    for p in mate_positions::mate_positions(&corpus).expect("the mate positions") {
        out.insert((format!("chess/mate-in-{}", p.n), p.id), (p.fen, p.n));
    }
    out
}

/// How many of each set's dumped problems this build compares (every `step`th, at most
/// `most`).
fn sample(set: &str) -> (usize, usize) {
    let debug = cfg!(debug_assertions);
    let long = std::env::var_os("QIYUAN_LONG_TESTS").is_some();
    match set {
        "chess/mate-in-2" if debug => (10, usize::MAX),
        "chess/mate-in-3" if debug => (4, usize::MAX),
        "chess/mate-in-4" if debug => (1, 3),
        "chess/mate-in-5" if !debug && long => (1, usize::MAX),
        "chess/mate-in-5" => (1, 0),
        _ => (1, usize::MAX),
    }
}

#[test]
fn proves_the_first_moves_the_old_search_proved() {
    let positions = positions();
    let mut seen: HashMap<&str, usize> = HashMap::new();
    let mut compared = 0;
    for line in ANSWERS.lines() {
        let mut fields = line.splitn(3, '\t');
        let (Some(set), Some(id), Some(moves)) = (fields.next(), fields.next(), fields.next())
        else {
            panic!("a line of proof-answers.tsv: {line:?}");
        };
        let index = seen.entry(set).or_insert(0);
        *index += 1;
        let (step, most) = sample(set);
        if !(*index - 1).is_multiple_of(step) || (*index - 1) / step >= most {
            continue;
        }
        let (fen, n) = &positions[&(set.to_string(), id.to_string())];
        let pos = Position::from_fen(fen).expect("a corpus position");
        let proven: Vec<String> = pos.mating_moves(*n).into_iter().map(|m| m.uci).collect();
        let old: Vec<&str> = moves.split_whitespace().collect();
        assert_eq!(proven, old, "{set} {id} ({fen})");
        compared += 1;
    }
    assert!(compared >= 130, "{compared} problems compared");
}
