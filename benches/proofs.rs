//! Benchmark: the proofs content loading runs, timed per problem (tsume and chess mates).
//!
//! Run through `scripts/bench-proofs.sh`, which builds this file against main's search
//! too and runs cshogi's df-pn on the same tsume, so every ratio comes from one run.
//! Alone: `cargo bench --bench proofs -- [shogi] [chess]` (both when neither is named),
//! with `$QIYUAN_CORPUS` (default `tests/data/corpus`). It uses only the public rules API,
//! so it builds against older versions of the crate as well.
//!
//! Output: one JSON object a line per set, `{"set", "items", "proven", "total_s",
//! "median_s", "worst_s", "worst"}`, plus `"answers"`: a digest of every answer (which
//! first moves are proven), so two builds can be compared for the same answers.
//! `--dump FILE` writes every answer too, a line `set<TAB>id<TAB>moves` each (how
//! `tests/data/proof-answers.tsv` was made from main's search).

use qiyuan::rules::{chess, shogi};
use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};
use std::path::PathBuf;
use std::sync::OnceLock;
use std::time::Instant;

/// Where `--dump` writes every answer.
static DUMP: OnceLock<PathBuf> = OnceLock::new();

#[path = "support/mate_positions.rs"]
mod mate_positions;

fn corpus() -> PathBuf {
    std::env::var_os("QIYUAN_CORPUS")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/corpus"))
}

fn read(rel: &str) -> String {
    let path = corpus().join(rel);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Times of one set of problems and a digest of the answers.
struct Set {
    name: String,
    /// Every answer, `set\tid\tmoves`, when dumping.
    dump: Option<Vec<String>>,
    times: Vec<(f64, String)>,
    proven: usize,
    answers: DefaultHasher,
}

impl Set {
    fn new(name: &str) -> Set {
        Set {
            name: name.to_string(),
            dump: DUMP.get().map(|_| Vec::new()),
            times: Vec::new(),
            proven: 0,
            answers: DefaultHasher::new(),
        }
    }

    /// Runs `prove` on the problem `id` and records its time and its answer (the first
    /// moves it proves).
    fn time(&mut self, id: &str, prove: impl FnOnce() -> Vec<String>) {
        let start = Instant::now();
        let firsts = prove();
        self.times
            .push((start.elapsed().as_secs_f64(), id.to_string()));
        if !firsts.is_empty() {
            self.proven += 1;
        }
        (id, &firsts).hash(&mut self.answers);
        if let Some(dump) = &mut self.dump {
            dump.push(format!("{}\t{id}\t{}", self.name, firsts.join(" ")));
        }
    }

    fn report(&self) {
        if let (Some(lines), Some(path)) = (&self.dump, DUMP.get()) {
            use std::io::Write;
            let mut file = std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(path)
                .expect("dump file");
            for line in lines {
                writeln!(file, "{line}").expect("write the dump");
            }
        }
        let mut sorted: Vec<f64> = self.times.iter().map(|t| t.0).collect();
        sorted.sort_by(f64::total_cmp);
        let total: f64 = sorted.iter().sum();
        let median = sorted.get(sorted.len() / 2).copied().unwrap_or(0.0);
        let worst = self
            .times
            .iter()
            .max_by(|a, b| a.0.total_cmp(&b.0))
            .cloned()
            .unwrap_or_default();
        println!(
            "{}",
            serde_json::json!({
                "set": self.name,
                "items": self.times.len(),
                "proven": self.proven,
                "total_s": total,
                "median_s": median,
                "worst_s": worst.0,
                "worst": worst.1,
                "answers": format!("{:016x}", self.answers.finish()),
            })
        );
    }
}

/// Every tanuki tsume: every checking first move searched for mate within the stated
/// length, as content loading does.
fn tanuki() {
    let mut set = Set::new("shogi/tanuki");
    for line in read("shogi/tanuki-tsume.jsonl").lines() {
        let Ok(v) = serde_json::from_str::<serde_json::Value>(line) else {
            continue;
        };
        let (Some(id), Some(sfen), Some(n)) = (
            v["id"].as_str(),
            v["sfen"].as_str(),
            v["mate_length"].as_u64(),
        ) else {
            continue;
        };
        let pos = shogi::Position::from_sfen(sfen).expect("corpus sfen");
        set.time(id, || {
            pos.tsume_first_moves(n as u32)
                .into_iter()
                .map(|m| m.usi)
                .collect()
        });
    }
    set.report();
}

/// Every first move of `fen` that mates within `n`, timed into `set`.
fn chess_problem(set: &mut Set, id: &str, fen: &str, n: u32) {
    let pos = chess::Position::from_fen(fen).expect("valid fen");
    set.time(id, || {
        pos.mating_moves(n).into_iter().map(|m| m.uci).collect()
    });
}

fn chess_mates(longest: u32) {
    let mut set = Set::new("chess/mate-in-2");
    for (i, line) in read("chess/mate-in-2.epd").lines().enumerate() {
        let fen: Vec<&str> = line.split_whitespace().take(4).collect();
        if fen.len() == 4 {
            chess_problem(&mut set, &format!("{}", i + 1), &fen.join(" "), 2);
        }
    }
    set.report();
    let positions = mate_positions::mate_positions(&corpus()).expect("the mate positions");
    for n in 3..=longest.min(6) {
        let mut set = Set::new(&format!("chess/mate-in-{n}"));
        for p in positions.iter().filter(|p| p.n == n) {
            chess_problem(&mut set, &p.id, &p.fen, n);
        }
        set.report();
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let named = |s: &str| args.iter().any(|a| a == s);
    let all = !named("shogi") && !named("chess");
    // `--longest N`: chess mates up to N moves only (an old search takes minutes on 6).
    let longest = args
        .iter()
        .position(|a| a == "--longest")
        .and_then(|i| args.get(i + 1))
        .and_then(|n| n.parse().ok())
        .unwrap_or(6);
    if let Some(path) = args
        .iter()
        .position(|a| a == "--dump")
        .and_then(|i| args.get(i + 1))
    {
        let _ = std::fs::remove_file(path);
        DUMP.set(PathBuf::from(path)).expect("set once");
    }
    if all || named("shogi") {
        tanuki();
    }
    if all || named("chess") {
        chess_mates(longest);
    }
}
