//! Start-up that does not wait for proofs: a `--content` folder of mate problems is served, and
//! a move judged, before the background proofs are done, and judged the same after; a reload
//! proves only the problems whose position changed; errors the proofs find reach the page;
//! `qiyuan check` still proves everything and fails on a wrong solution.
//!
//! The problems are real: Lichess puzzles of the corpus (`$QIYUAN_CORPUS`) that
//! `benches/data/mates-3-6.txt` lists as mates in 4 (Stockfish), imported with the Lichess
//! importer, whose solution lines are the puzzles' own, and corpus mates in 2.

mod common;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use qiyuan::content::source::Folder;
use qiyuan::content::{Game, Text};
use qiyuan::web::{app, AppState};
use serde_json::json;
use std::path::Path;
use std::time::{Duration, Instant};

/// The Lichess puzzles `mates-3-6.txt` lists with a mate in `n`, as the CSV rows of the
/// corpus (header first); at most `most`.
fn lichess_mates(n: u32, most: usize) -> String {
    let csv = std::fs::read_to_string(
        common::corpus("chess/lichess-1000.csv").join("chess/lichess-1000.csv"),
    )
    .expect("the Lichess puzzles");
    let list = include_str!("../benches/data/mates-3-6.txt");
    let ids: Vec<&str> = list
        .lines()
        .filter_map(|l| l.strip_prefix(&format!("lichess {n} ")))
        .take(most)
        .collect();
    let mut lines = csv.lines();
    let mut out = format!("{}\n", lines.next().unwrap());
    for line in lines.filter(|l| ids.iter().any(|id| l.starts_with(&format!("{id},")))) {
        out.push_str(line);
        out.push('\n');
    }
    out
}

/// A problem-set file of the Lichess puzzles in `csv`, written by the importer.
fn lichess_set(csv: &str) -> String {
    let imported = qiyuan::import::lichess::import("lichess.csv", csv, None);
    qiyuan::import::write_set(Game::Chess, &Text::both("Mates"), "test", &imported)
}

/// A set of the corpus mates in 2 from line `from` on, `count` of them, with no solutions
/// written (the proof finds them).
fn mate_in_2_set(from: usize, count: usize) -> String {
    let epd =
        std::fs::read_to_string(common::corpus("chess/mate-in-2.epd").join("chess/mate-in-2.epd"))
            .expect("mate-in-2.epd");
    let mut out = "[set]\ntitle = { zh = \"杀\", en = \"Mates\" }\n".to_string();
    for (i, line) in epd.lines().enumerate().skip(from).take(count) {
        let fen: Vec<&str> = line.split_whitespace().take(4).collect();
        out.push_str(&format!(
            "\n[[problem]]\nid = \"m{i}\"\nprompt = {{ zh = \"两步杀\", en = \"Mate in 2\" }}\nfen = \"{} 0 1\"\ngoal = \"mate\"\nmate_in = 2\n",
            fen.join(" ")
        ));
    }
    out
}

fn write(root: &Path, rel: &str, text: &str) {
    let p = root.join(rel);
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(p, text).unwrap();
}

async fn get(state: &AppState, uri: &str) -> common::Reply {
    common::send(
        app(state.clone()),
        Request::get(uri).body(Body::empty()).unwrap(),
    )
    .await
}

/// The verdict on `play` as the first move of problem `id` of the set `set`: the reply's
/// verdict, moves and reply.
async fn first_move(state: &AppState, set: &str, id: &str, play: &str) -> serde_json::Value {
    let request = json!({"game": "chess", "set": set, "id": id, "play": play, "lang": "en"});
    let (status, body) = common::post_json(app(state.clone()), "/api/attempt", &request).await;
    assert_eq!(status, StatusCode::OK, "{}", String::from_utf8_lossy(&body));
    let reply: serde_json::Value = serde_json::from_slice(&body).unwrap();
    json!({"verdict": reply["verdict"], "moves": reply["moves"], "reply": reply["reply"]})
}

/// Waits until the state's background proofs are done (a few minutes at most).
async fn proofs_done(state: &AppState) {
    let start = Instant::now();
    while !state.snapshot().proofs.is_finished() {
        assert!(
            start.elapsed() < Duration::from_secs(300),
            "the proofs are not done: {:?}",
            state.snapshot().proofs
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// The page at `uri` once it contains `want` (the folder is read again in the background).
async fn page_with(state: &AppState, uri: &str, want: &str) -> String {
    let start = Instant::now();
    loop {
        let body = get(state, uri).await.body;
        if body.contains(want) || start.elapsed() > Duration::from_secs(60) {
            return body;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[tokio::test]
async fn serves_and_judges_before_the_background_proofs_are_done() {
    let dir = common::temp_folder("startup-proofs", "chess");
    let csv = lichess_mates(4, 8);
    write(&dir, "problems/chess/mates.toml", &lichess_set(&csv));
    // The puzzles' own solutions: the first move after the opponent's, and the problem id
    // the importer gives (the PuzzleId in lowercase).
    let puzzles: Vec<(String, String)> = csv
        .lines()
        .skip(1)
        .map(|l| {
            let fields: Vec<&str> = l.split(',').collect();
            let solution = fields[2].split(' ').nth(1).unwrap().to_string();
            (fields[0].to_lowercase(), solution)
        })
        .collect();
    assert_eq!(puzzles.len(), 8);

    let state = AppState::folder(Folder::new(&dir));
    let health = get(&state, "/health").await;
    let (id, solution) = &puzzles[0];
    let page = get(&state, &format!("/chess/problems/mates/{id}")).await;
    assert!(
        !state.snapshot().proofs.is_finished(),
        "the proofs were done before the first page: {:?}",
        state.snapshot().proofs
    );
    assert_eq!(health.status, StatusCode::OK);
    assert_eq!(page.status, StatusCode::OK, "{}", page.body);
    assert!(page.body.contains("<svg"), "{}", page.body);

    // Judged meanwhile: the puzzle's solution is correct, with the engine's reply (the
    // problem's proof is searched for on demand); another move gets the same verdict before
    // and after the proofs.
    let early = first_move(&state, "mates", id, solution).await;
    assert_eq!(early["verdict"], "correct", "{early}");
    assert!(early["reply"].is_string(), "{early}");
    let early_wrong = first_move(&state, "mates", id, "a2a3").await;
    proofs_done(&state).await;
    assert_eq!(first_move(&state, "mates", id, solution).await, early);
    assert_eq!(first_move(&state, "mates", id, "a2a3").await, early_wrong);
    // Every other puzzle's solution is accepted too.
    for (id, solution) in &puzzles[1..] {
        let v = first_move(&state, "mates", id, solution).await;
        assert_eq!(v["verdict"], "correct", "{id} {solution}: {v}");
    }
    // Each problem was proven once, whether on demand or in the background.
    assert_eq!(state.proof_store().searches(), puzzles.len());
    assert!(
        state.snapshot().errors.is_empty(),
        "{:?}",
        state.snapshot().errors
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[tokio::test]
async fn a_reload_proves_only_the_changed_problems() {
    let dir = common::temp_folder("startup-reload", "chess");
    write(&dir, "problems/chess/a.toml", &mate_in_2_set(0, 6));
    write(&dir, "problems/chess/b.toml", &mate_in_2_set(6, 6));
    let state = AppState::folder(Folder::new(&dir));
    proofs_done(&state).await;
    assert_eq!(state.proof_store().searches(), 12);

    // b.toml changed: two of its positions replaced, the rest as they were.
    let mut b = mate_in_2_set(6, 4);
    b.push_str(
        &mate_in_2_set(100, 2)
            .split_once("\n\n")
            .unwrap()
            .1
            .replace("[[problem]]", "\n[[problem]]"),
    );
    write(&dir, "problems/chess/b.toml", &b);
    let set = page_with(
        &state,
        "/chess/problems/b?lang=en",
        "/chess/problems/b/m100",
    )
    .await;
    assert!(set.contains("/chess/problems/b/m101"), "{set}");
    proofs_done(&state).await;
    assert_eq!(state.proof_store().searches(), 14);

    // Only the wording changed: nothing to prove.
    write(
        &dir,
        "problems/chess/a.toml",
        &mate_in_2_set(0, 6).replace("两步杀", "二步杀"),
    );
    let start = Instant::now();
    while !get(&state, "/chess/problems/a/m0")
        .await
        .body
        .contains("二步杀")
    {
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "a.toml was not read again"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    proofs_done(&state).await;
    assert_eq!(state.proof_store().searches(), 14);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[tokio::test]
async fn an_error_the_proof_finds_reaches_the_page_when_it_is_done() {
    let dir = common::temp_folder("startup-error", "chess");
    // The corpus's first mate in 2 with a solution that does not mate: a quiet pawn move.
    let set = mate_in_2_set(0, 1).replace("mate_in = 2\n", "mate_in = 2\nsolutions = [\"h5h6\"]\n");
    write(&dir, "problems/chess/wrong.toml", &set);
    let state = AppState::folder(Folder::new(&dir));
    // The load finds no error; the proof's error comes with the snapshot that follows its
    // run (which may already be done: a mate in 2 takes microseconds).
    let first = state.snapshot();
    assert!(
        first.errors.is_empty() || first.proofs.is_finished(),
        "an error before the proofs were done: {:?}",
        first.errors
    );
    proofs_done(&state).await;
    let body = page_with(&state, "/chess?lang=en", "does not force mate in 2").await;
    assert!(
        body.contains("problems/chess/wrong.toml:10:14: error: solution `h5h6` starts with h5h6, which does not force mate in 2"),
        "{body}"
    );
    // As on a first read with errors: the broken set is not served.
    assert_eq!(
        get(&state, "/chess/problems/wrong/m0").await.status,
        StatusCode::NOT_FOUND
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn check_still_proves_and_fails_on_a_wrong_solution() {
    let dir = common::temp_folder("startup-check", "chess");
    let set =
        mate_in_2_set(0, 3).replacen("mate_in = 2\n", "mate_in = 2\nsolutions = [\"h5h6\"]\n", 1);
    write(&dir, "problems/chess/wrong.toml", &set);
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_qiyuan"))
        .arg("check")
        .arg(&dir)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert_eq!(
        stdout,
        "problems/chess/wrong.toml:10:14: error: solution `h5h6` starts with h5h6, which does not force mate in 2\n"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
