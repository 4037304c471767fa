//! The xiangqi mate prover (`qiyuan::rules::xiangqi::MateProver`) against Fairy-Stockfish
//! (`/usr/games/fairy-stockfish`, or `$FAIRY_STOCKFISH`), spoken to over UCI with
//! `UCI_Variant xiangqi`. A missing Fairy-Stockfish fails these tests; they are never
//! skipped.
//!
//! Positions: the CCPD kill exercises of `tests/data/xiangqi/ccpd.tsv` (CC BY 4.0, see
//! that folder's README): every kill game whose last move leaves the loser without a legal
//! move gives the positions 1, 3, 5 and 7 plies before the end (the winner to move); and
//! every `goal = "mate"` problem of `problems/xiangqi/*.toml` (or of the folder in
//! `$XIANGQI_PROBLEMS`), when that folder exists.
//!
//! For each position:
//! * the mate length: ours ([`MateProver::mate_distance`]) equals Fairy-Stockfish's
//!   (`go depth`, its last `score mate K`; when we find a mate it does not report at that
//!   depth, `go mate N` is asked), for mates up to [`LONGEST`] moves, and a problem's
//!   `mate_in` is no shorter than it;
//! * every first move we call forcing ([`MateProver::mating_moves`]) is confirmed: played,
//!   the defender has no legal move (`go perft 1`) for a mate in 1; for longer mates,
//!   after every legal reply Fairy-Stockfish's `go mate` finds a mate in the moves left.
//!   (Its depth-limited search is not enough: at depth 14 it misses the mate in 2 of
//!   kill 109, which ends in 困毙; `go mate 2` reaches it at depth 20.)
//!
//! [`LONGEST`] is 4 in a release build and 3 in a debug one (an unoptimised mate in 4
//! takes half a minute); `cargo test --release --test xiangqi_mates` checks mates in 4.

mod fairy;

use fairy::{kill_positions, to_fsf, Fsf};
use qiyuan::rules::xiangqi::{MateProver, Position};
use std::path::PathBuf;

const RELEASE: bool = !cfg!(debug_assertions);

/// The longest mate compared.
const LONGEST: u32 = if RELEASE { 4 } else { 3 };

/// Fairy-Stockfish's search depth for the mate length: well beyond 2 × 4 − 1 plies.
const DEPTH: u32 = 14;

impl Fsf {
    /// The legal moves in Fairy-Stockfish's coordinates (`go perft 1`).
    fn legal_moves(&mut self) -> Vec<String> {
        self.send("go perft 1");
        let lines = self.until(|l| l.starts_with("Nodes searched"));
        lines
            .iter()
            .filter_map(|l| l.split_once(": ").map(|(mv, _)| mv.to_string()))
            .filter(|mv| !mv.starts_with("Nodes"))
            .collect()
    }

    /// Sets up `fen` and `moves` already in Fairy-Stockfish's coordinates.
    fn position_raw(&mut self, fen: &str, moves: &[String]) {
        self.send("ucinewgame");
        self.send(&format!("position fen {fen} moves {}", moves.join(" ")));
        self.send("isready");
        self.until(|l| l == "readyok");
    }
}

/// The `goal = "mate"` problems: (label, FEN, mate_in), or `None` without the folder.
fn problem_positions() -> Option<Vec<(String, String, u32)>> {
    let dir = std::env::var_os("XIANGQI_PROBLEMS")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/problems/xiangqi")));
    let entries = std::fs::read_dir(&dir).ok()?;
    let mut files: Vec<PathBuf> = entries
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .collect();
    files.sort();
    let mut out = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap();
        let doc: toml::Table =
            toml::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        let Some(problems) = doc.get("problem").and_then(|p| p.as_array()) else {
            continue;
        };
        for p in problems {
            if p.get("goal").and_then(|g| g.as_str()) != Some("mate") {
                continue;
            }
            let id = p.get("id").and_then(|i| i.as_str()).unwrap_or("?");
            let label = format!("{} problem {id}", file.display());
            let fen = p.get("fen").and_then(|f| f.as_str());
            let n = p.get("mate_in").and_then(|n| n.as_integer());
            let (Some(fen), Some(n)) = (fen, n) else {
                panic!("{label}: a mate problem needs fen and mate_in");
            };
            out.push((label, fen.to_string(), n as u32));
        }
    }
    Some(out)
}

/// What one position showed.
struct Checked {
    /// Our mate length (up to [`LONGEST`]).
    ours: Option<u32>,
    /// Mating first moves confirmed by Fairy-Stockfish.
    confirmed: usize,
}

/// Fairy-Stockfish's word that `mv` (its coordinates), played at `fen`, wins within `d`
/// moves counting itself: the defender has no legal move (d = 1), or after each of the
/// defender's legal moves Fairy-Stockfish finds a mate within `d - 1` (`go mate`, bounded
/// by a minute). Its depth-limited search is not asked for the defender: it can miss a
/// 困毙 (a quiet move that leaves no legal reply) a few plies deep.
fn confirm(fsf: &mut Fsf, fen: &str, mv: &str, d: u32) -> Result<(), String> {
    fsf.position_raw(fen, &[mv.to_string()]);
    let replies = fsf.legal_moves();
    if d == 1 {
        return match replies.first() {
            None => Ok(()),
            Some(r) => Err(format!("leaves the defender {r} (Fairy-Stockfish)")),
        };
    }
    for r in replies {
        fsf.position_raw(fen, &[mv.to_string(), r.clone()]);
        let score = fsf.mate_score(&format!("go mate {} movetime 60000", d - 1));
        if !score.is_some_and(|k| k > 0 && k as u32 <= d - 1) {
            return Err(format!(
                "then {r}: Fairy-Stockfish scores {score:?}, not a mate within {}",
                d - 1
            ));
        }
    }
    Ok(())
}

/// Compares one position with Fairy-Stockfish (see the file's doc).
fn check(fsf: &mut Fsf, label: &str, fen: &str) -> Checked {
    let pos = Position::from_fen(fen).unwrap_or_else(|e| panic!("{label}: {fen}: {e}"));
    let mut prover = MateProver::new();
    let ours = prover
        .mate_distance(&pos, LONGEST)
        .unwrap_or_else(|e| panic!("{label}: {fen}: {e}"));
    fsf.position(fen, &[]);
    let mut theirs = fsf.mate_score(&format!("go depth {DEPTH}"));
    if let Some(d) = ours {
        if theirs.is_none_or(|k| k <= 0 || k as u32 > d) {
            // Its depth-limited search may not have reached our mate: ask for it.
            theirs = fsf.mate_score(&format!("go mate {d} movetime 60000"));
        }
    }
    let theirs = theirs
        .filter(|&k| k > 0 && k as u32 <= LONGEST)
        .map(|k| k as u32);
    assert_eq!(
        ours, theirs,
        "{label}: {fen}: mate length, ours {ours:?}, Fairy-Stockfish {theirs:?}"
    );
    let mut confirmed = 0;
    if let Some(d) = ours {
        let moves = prover
            .mating_moves(&pos, d)
            .unwrap_or_else(|e| panic!("{label}: {fen}: {e}"));
        assert!(
            !moves.is_empty(),
            "{label}: {fen}: a mate in {d} with no mating move"
        );
        for mv in moves {
            confirm(fsf, fen, &to_fsf(&mv.iccs()), d)
                .unwrap_or_else(|why| panic!("{label}: {fen}: {} {why}", mv.iccs()));
            confirmed += 1;
        }
    }
    Checked { ours, confirmed }
}

#[test]
fn kill_positions_agree_with_fairy_stockfish() {
    let positions = kill_positions();
    assert!(
        positions.len() >= 100,
        "only {} kill positions",
        positions.len()
    );
    let mut fsf = Fsf::start("the xiangqi mate test");
    let mut by_length = [0usize; 6];
    let mut confirmed = 0;
    for (label, fen) in &positions {
        let c = check(&mut fsf, label, fen);
        by_length[c.ours.unwrap_or(0) as usize] += 1;
        confirmed += c.confirmed;
    }
    println!(
        "{} kill positions: mate in 1–{LONGEST}: {:?}, none: {}; {confirmed} mating first moves confirmed",
        positions.len(),
        &by_length[1..=LONGEST as usize],
        by_length[0]
    );
    // The positions one ply before the end are all mates in one.
    assert!(by_length[1] >= positions.len() / 4);
}

#[test]
fn mate_problems_agree_with_fairy_stockfish() {
    let problems = problem_positions().expect(
        "the problems/xiangqi folder (or $XIANGQI_PROBLEMS) is missing: nothing to compare",
    );
    assert!(
        problems.len() >= 40,
        "only {} mate problems",
        problems.len()
    );
    let mut fsf = Fsf::start("the xiangqi mate test");
    let mut compared = 0;
    for (label, fen, n) in &problems {
        let c = check(&mut fsf, label, fen);
        if *n <= LONGEST {
            assert_eq!(
                c.ours.map(|d| d <= *n),
                Some(true),
                "{label}: {fen}: mate_in = {n}, but the shortest mate is {:?}",
                c.ours
            );
            compared += 1;
        }
    }
    println!("{compared} of {} mate problems compared", problems.len());
    assert!(compared > 0, "no mate problem is short enough to compare");
}
