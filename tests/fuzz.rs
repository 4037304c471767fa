//! Fuzzing on the stable toolchain: a small mutator (bit flips, byte and chunk edits,
//! splices between seeds, tokens of the formats) over seeds from the corpus
//! (`QIYUAN_CORPUS`, `tests/data/corpus` by default) and the repository's content, for every
//! parser: SGF, Sensei's diagrams, FEN/SAN/UCI, SFEN/USI, KIF/KI2/CSA, Lichess CSV, tsumego
//! JSON, lesson Markdown with front matter, problem TOML, the attempt API's body, and the
//! game record readers (SGF, PGN, KIF/KI2/CSA: a record read is written and reads back the
//! same).
//!
//! Properties: no panic; no input takes over 2 s and 2 µs a byte (10 s and 20 µs a byte in
//! a debug build); no input makes the process's peak memory grow by more than 200 bytes a
//! byte of input and 64 MiB (read from `/proc/self/status` after `/proc/self/clear_refs`
//! resets the peak, else from `getrusage`'s maximum); every refusal carries a place (a path
//! with line and column ≥ 1, a line, or a named source); what an importer writes is a set
//! `qiyuan check` accepts.
//!
//! Besides small edits, the mutator grows inputs, as hostile uploads are made: a node, a move
//! pair or any chunk repeated, or a nesting level (an opening chunk repeated at one place and
//! a closing one after it), up to the upload limit (1 MiB).
//!
//! `fuzz_every_parser` runs for `QIYUAN_FUZZ_SECS` seconds in all (60 in a release build,
//! 20 in a debug one), shared between the targets. An input that breaks a property is
//! written to `target/fuzz-found/TARGET-HASH` and the test fails naming it; moved to
//! `tests/fuzz-regressions/TARGET/`, it is replayed by `replays_fuzz_regressions` on every
//! run.

mod common;

use axum::body::Body;
use axum::http::{header, Request, StatusCode};
use qiyuan::content::{Game, Library, Text};
use qiyuan::import;
use qiyuan::web::{app, AppState};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};
use tower::ServiceExt;

/// The longest one input may take.
const INPUT_LIMIT: Duration = if cfg!(debug_assertions) {
    Duration::from_secs(10)
} else {
    Duration::from_secs(2)
};

/// Inputs are cut to this many bytes (seeds from large files are taken in parts), except
/// those the mutator grows.
const MAX_INPUT: usize = 16 << 10;

/// Grown inputs are cut to this many bytes: the largest record a learner may upload.
const MAX_GROWN: usize = qiyuan::web::records::UPLOAD_LIMIT;

/// How long one input may take besides [`INPUT_LIMIT`], a byte.
const TIME_PER_BYTE: Duration = if cfg!(debug_assertions) {
    Duration::from_micros(20)
} else {
    Duration::from_micros(2)
};

/// How much one input may raise the process's peak memory, a byte of input.
const MEMORY_PER_BYTE: usize = 200;

/// How much one input may raise the process's peak memory whatever its size (the other test
/// of this binary runs beside the fuzzing, and the allocator keeps some memory it frees).
const MEMORY_SLACK: usize = 64 << 20;

/// The parsers under test.
const TARGETS: &[&str] = &[
    "sgf",
    "sensei",
    "chess",
    "shogi",
    "kif",
    "lichess",
    "tsumego-json",
    "sfen-json",
    "lesson",
    "problem",
    "attempt",
    "record-sgf",
    "record-pgn",
    "record-kif",
    "game",
    "engine-reply",
    "xiangqi",
    "record-xiangqi",
    "xiangqi-content",
];

/// Runs one input through `target`; `Err` says which property broke.
fn run(target: &str, input: &[u8]) -> Result<(), String> {
    let text = String::from_utf8_lossy(input);
    match target {
        "sgf" => {
            let mut imported = import::sgf::import(&text, "fuzz.sgf", "fuzz");
            written_passes(Game::Go, &mut imported)?;
        }
        "tsumego-json" => {
            let mut imported = import::tsumego_json::import("fuzz.jsonl", &text, Some(50));
            written_passes(Game::Go, &mut imported)?;
        }
        "lichess" => {
            let mut imported = import::lichess::import("fuzz.csv", &text, Some(3));
            written_passes(Game::Chess, &mut imported)?;
        }
        "sfen-json" => {
            let mut imported = import::sfen::import("fuzz.jsonl", &text, Some(3), Some(5));
            written_passes(Game::Shogi, &mut imported)?;
        }
        "kif" => {
            if let Err(e) = import::kif::read("fuzz.kif", input) {
                if e.trim().is_empty() {
                    return Err("a refusal with no message".into());
                }
            }
            let mut imported = import::kif::import_files(&[("fuzz.kif".into(), input.to_vec())]);
            written_passes(Game::Shogi, &mut imported)?;
        }
        "sensei" => {
            if let Err(e) = qiyuan::content::sensei::parse(&text) {
                if e.line == 0 || e.line > text.lines().count().max(1) {
                    return Err(format!(
                        "refusal at line {} of {}",
                        e.line,
                        text.lines().count()
                    ));
                }
            }
        }
        "chess" | "shogi" | "xiangqi-content" => {
            // The first line is a position, the second a line of moves, as a problem and as
            // a lesson diagram.
            let mut lines = text.lines();
            let position = toml_string(lines.next().unwrap_or(""));
            let moves = toml_string(lines.next().unwrap_or(""));
            let (key, game) = match target {
                "chess" => ("fen", "chess"),
                "shogi" => ("sfen", "shogi"),
                _ => ("fen", "xiangqi"),
            };
            let set = format!(
                "[set]\ntitle = \"F\"\n\n[[problem]]\nid = \"1\"\nprompt = \"P\"\n{key} = {position}\ngoal = \"best\"\ndifficulty = 1\nsolutions = [{moves}]\n"
            );
            let lesson = format!(
                "+++\ntitle = \"F\"\n+++\n```{game}\n{key} = {position}\n[[steps]]\nplay = {moves}\n```\n"
            );
            load(&[
                (format!("problems/{game}/f.toml"), set),
                (format!("lessons/{game}/01-f.en.md"), lesson.clone()),
                (format!("lessons/{game}/01-f.zh.md"), lesson),
            ])?;
        }
        "lesson" => {
            load(&[
                ("lessons/go/01-f.en.md".into(), text.to_string()),
                ("lessons/go/01-f.zh.md".into(), text.to_string()),
            ])?;
        }
        "problem" => {
            for game in ["go", "chess", "shogi", "xiangqi"] {
                load(&[(format!("problems/{game}/f.toml"), text.to_string())])?;
            }
        }
        "attempt" => {
            let status = attempt(input);
            if status == StatusCode::INTERNAL_SERVER_ERROR {
                return Err("the attempt API answered 500".into());
            }
        }
        "record-sgf" => record_round_trip(&["fuzz.sgf"], input)?,
        "record-pgn" => record_round_trip(&["fuzz.pgn"], input)?,
        "record-kif" => record_round_trip(&["fuzz.kif", "fuzz.ki2", "fuzz.csa"], input)?,
        "record-xiangqi" => {
            // The reader alone (any bytes), then through the records' registry.
            if let Err(e) = qiyuan::record::xiangqi::read(input) {
                if e.to_string().trim().is_empty() {
                    return Err("a refusal with no message".into());
                }
            }
            record_round_trip(&["fuzz.pgn"], input)?
        }
        "game" => game_actions(&text)?,
        "engine-reply" => {
            // Engines are programs we did not write: any answer is read without a panic.
            let _ = qiyuan::play::engine::parse_gtp_reply(&text);
            for line in text.lines() {
                let _ = qiyuan::play::engine::parse_bestmove(line);
            }
        }
        "xiangqi" => xiangqi_line(&text)?,
        other => return Err(format!("no target {other}")),
    }
    Ok(())
}

/// A xiangqi position and a line of moves: the first line a FEN (or the start when it is
/// not one), each other line a move in ICCS, WXF or Chinese notation. A refused move is
/// explained in both languages and changes nothing; every position reached writes a FEN
/// that reads back to itself.
fn xiangqi_line(text: &str) -> Result<(), String> {
    use qiyuan::lang::Lang;
    use qiyuan::rules::xiangqi;
    let mut lines = text.lines();
    let mut pos = xiangqi::Position::from_fen(lines.next().unwrap_or(""))
        .unwrap_or_else(|_| xiangqi::Position::start());
    for mv in lines.take(400) {
        match pos.play(mv) {
            Ok((next, _)) => pos = next,
            Err(why) => {
                if why.explain(Lang::Zh).is_empty() || why.explain(Lang::En).is_empty() {
                    return Err(format!("the move {mv:?} is refused without a reason"));
                }
            }
        }
        let fen = pos.fen();
        match xiangqi::Position::from_fen(&fen) {
            Ok(back) if back.fen() == fen => {}
            _ => return Err(format!("the FEN {fen} does not read back")),
        }
    }
    Ok(())
}

/// A game played by the lines of `text`: the first names the game (`go`, `chess`, `shogi`,
/// `xiangqi`, else a FEN or SFEN to start from), each other line is an action of the side to move or,
/// when it starts with `2 `, of the other side. A refused action changes nothing; an accepted
/// one leaves a table whose every move replays.
fn game_actions(text: &str) -> Result<(), String> {
    use qiyuan::play::lobby::{Lobby, NewGame, Opponent};
    use qiyuan::play::table::Action;
    use qiyuan::play::{Side, Start};
    use qiyuan::rules::{chess, shogi};
    let mut lines = text.lines();
    let first = lines.next().unwrap_or("go").trim();
    let start = match first {
        "chess" => Start::Chess(qiyuan::base::chess::Start {
            fen: chess::Position::start().fen(),
        }),
        "shogi" => Start::Shogi(qiyuan::base::shogi::Start {
            sfen: shogi::Position::start().sfen(),
            handicap: None,
        }),
        "xiangqi" => Start::Xiangqi(qiyuan::base::xiangqi::Start {
            fen: qiyuan::rules::xiangqi::START_FEN.to_string(),
        }),
        f if f.contains('/') && f.split('/').count() == 10 => {
            Start::Xiangqi(qiyuan::base::xiangqi::Start { fen: f.to_string() })
        }
        f if f.contains('/') && f.split('/').count() == 8 => {
            Start::Chess(qiyuan::base::chess::Start { fen: f.to_string() })
        }
        f if f.contains('/') => Start::Shogi(qiyuan::base::shogi::Start {
            sfen: f.to_string(),
            handicap: None,
        }),
        _ => Start::Go(qiyuan::base::go::Start {
            size: 9,
            handicap: 0,
            rules: qiyuan::rules::go::Scoring::Chinese,
            komi: 7.5,
        }),
    };
    let lobby = Lobby::default();
    let new = NewGame {
        start,
        opponent: Opponent::Human,
        side: Side::First,
        clock: None,
    };
    let Ok((entry, first_token)) = lobby.create(new) else {
        return Ok(()); // a start refused with its reason
    };
    let Ok((_, _, second_token)) = lobby.join(&entry.id) else {
        return Err("the second seat could not be taken".into());
    };
    for line in lines.take(200) {
        let (token, action) = match line.strip_prefix("2 ") {
            Some(rest) => (&second_token, rest),
            None => (&first_token, line),
        };
        let before = (entry.table().moves().to_vec(), entry.version());
        match entry.act(token, &Action::parse(action)) {
            Ok(_) => {}
            Err(e) => {
                let after = (entry.table().moves().to_vec(), entry.version());
                if after != before {
                    return Err(format!("a refused action changed the game: {e:?}"));
                }
                if qiyuan::rules::Explain::explain(&e, qiyuan::lang::Lang::En).is_empty() {
                    return Err("a refusal with no reason".into());
                }
            }
        }
    }
    Ok(())
}

/// A game record read under each of `names` is refused with a message, or written in its
/// format and read back with the same tree, start and tags.
fn record_round_trip(names: &[&str], input: &[u8]) -> Result<(), String> {
    use qiyuan::record::{self, Format};
    for name in names {
        let records = match record::read(name, input) {
            Ok(r) => r,
            Err(e) if e.to_string().trim().is_empty() => {
                return Err("a refusal with no message".into())
            }
            Err(_) => continue,
        };
        let format = Format::for_file(name, input).unwrap_or(qiyuan::record::sgf::SGF);
        for r in &records {
            let text = match record::write(r, format) {
                Ok(t) => t,
                // rsshogi cannot write every start as KI2 or CSA; it says so.
                Err(record::RecordError::BadStart { .. }) if format != qiyuan::record::kif::KIF => {
                    continue
                }
                Err(e) => return Err(format!("{name}: writing: {e}")),
            };
            let back = record::read(name, text.as_bytes())
                .map_err(|e| format!("{name}: what we wrote does not read back: {e}\n{text}"))?;
            let b = &back[0];
            // CSA holds no variations; KI2 and CSA keep only the main line's comments.
            let same = match format.as_str() {
                "CSA" => b.main_line() == r.main_line(),
                "KI2" => b.lines() == r.lines(),
                _ => b.moves == r.moves && b.comment == r.comment,
            };
            if !same || b.start != r.start || back.len() != 1 {
                return Err(format!(
                    "{name}: the record changed on the way back\n{text}"
                ));
            }
        }
    }
    Ok(())
}

fn toml_string(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_else(|_| "\"\"".into())
}

/// Loads content files; every error must name the file, a line and a column.
fn load(files: &[(String, String)]) -> Result<(), String> {
    let (_, errors) = Library::load(files);
    for e in errors {
        let known = files.iter().any(|(p, _)| *p == e.path);
        let lines = files
            .iter()
            .find(|(p, _)| *p == e.path)
            .map_or(0, |(_, t)| t.lines().count().max(1));
        if !known || e.line == 0 || e.col == 0 || e.line > lines + 1 {
            return Err(format!("an error without a place in the file: {e}"));
        }
    }
    Ok(())
}

fn skipped_have_places(skipped: &[import::Skipped]) -> Result<(), String> {
    match skipped
        .iter()
        .find(|s| s.source.trim().is_empty() || s.reason.trim().is_empty())
    {
        Some(s) => Err(format!("a skip with no place or reason: {s:?}")),
        None => Ok(()),
    }
}

/// Every skip has a place and a reason, and the set written from the rest passes the check.
fn written_passes(game: Game, imported: &mut import::Imported) -> Result<(), String> {
    skipped_have_places(&imported.skipped)?;
    if imported.problems.is_empty() {
        return Ok(());
    }
    let title = Text::both("fuzz".to_string());
    let target = import::SetTarget {
        game,
        slug: "fuzz",
        shown: "fuzz.toml",
        title: &title,
        origin: "fuzz",
    };
    let checked = import::write_checked(&target, imported);
    match checked.errors.first() {
        Some(e) => Err(format!("the written set fails the check: {e}")),
        None => Ok(()),
    }
}

/// A few built-in sets, loaded once, for the attempt API.
fn attempt_state() -> &'static (AppState, tokio::runtime::Runtime) {
    static STATE: OnceLock<(AppState, tokio::runtime::Runtime)> = OnceLock::new();
    STATE.get_or_init(|| {
        let keep = [
            "problems/go/atari.toml",
            "problems/chess/promotion.toml",
            "problems/shogi/moves.toml",
        ];
        let files: Vec<(String, String)> = qiyuan::content::source::embedded()
            .into_iter()
            .filter(|(p, _)| keep.contains(&p.as_str()) || p.starts_with("lessons/"))
            .collect();
        let (library, errors) = Library::load(&files);
        assert!(errors.is_empty(), "{errors:?}");
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        (AppState::from_library(library), runtime)
    })
}

fn attempt(body: &[u8]) -> StatusCode {
    let (state, runtime) = attempt_state();
    runtime.block_on(async {
        app(state.clone())
            .oneshot(
                Request::post("/api/attempt")
                    .header(header::CONTENT_TYPE, "application/json")
                    .body(Body::from(body.to_vec()))
                    .unwrap(),
            )
            .await
            .map_or(StatusCode::INTERNAL_SERVER_ERROR, |r| r.status())
    })
}

fn corpus() -> PathBuf {
    std::env::var_os("QIYUAN_CORPUS")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/corpus"))
}

fn files_under(dir: &Path, ends: &[&str]) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).into_iter().flatten().flatten() {
            let p = entry.path();
            if p.is_dir() {
                stack.push(p);
            } else if ends.iter().any(|e| p.to_string_lossy().ends_with(e)) {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// Seeds of a file: the whole file if small, else its first lines in groups.
fn seeds_of(path: &Path, lines_each: usize) -> Vec<Vec<u8>> {
    let Ok(bytes) = std::fs::read(path) else {
        return Vec::new();
    };
    if bytes.len() <= MAX_INPUT && lines_each == 0 {
        return vec![bytes];
    }
    let text = String::from_utf8_lossy(&bytes);
    let lines: Vec<&str> = text.lines().collect();
    let each = lines_each.max(1);
    let header = if path.extension().is_some_and(|e| e == "csv") {
        lines.first().copied()
    } else {
        None
    };
    lines
        .chunks(each)
        .take(8)
        .map(|chunk| {
            let mut s = String::new();
            if let Some(h) = header.filter(|h| chunk.first() != Some(h)) {
                s.push_str(h);
                s.push('\n');
            }
            s.push_str(&chunk.join("\n"));
            s.into_bytes()
        })
        .collect()
}

/// The seeds of a target: corpus files and the repository's content.
fn seeds(target: &str) -> Vec<Vec<u8>> {
    let corpus = corpus();
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut out: Vec<Vec<u8>> = Vec::new();
    match target {
        "sgf" => {
            for p in files_under(&corpus.join("go"), &[".sgf"])
                .into_iter()
                .take(40)
            {
                out.extend(seeds_of(&p, 0));
            }
        }
        "record-sgf" => {
            for p in files_under(&corpus.join("go/sgf-encodings"), &[".sgf"]) {
                out.extend(seeds_of(&p, 0));
            }
        }
        "record-pgn" => {
            for p in files_under(&corpus.join("chess/pgn"), &[".pgn"]) {
                out.extend(seeds_of(&p, 0));
            }
        }
        "xiangqi-content" => {
            // A position and a line of moves, as problems and lessons write them.
            for seed in [
                "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1\nh2e2 h9g7",
                "4k4/9/4N4/p8/9/C8/9/9/9/5K3 w - - 0 1\na4e4",
                "3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1\n\u{5e05}\u{4e94}\u{5e73}\u{516d}",
            ] {
                out.push(seed.as_bytes().to_vec());
            }
        }
        "record-xiangqi" => {
            // Chinese tools' PGN (Big5) from the CCPD files in the repository.
            for p in files_under(&repo.join("tests/data/xiangqi/ccpd"), &[".pgn"]) {
                out.extend(seeds_of(&p, 0));
            }
        }
        "record-kif" => {
            for p in files_under(&corpus.join("shogi/kif"), &[""]) {
                out.extend(seeds_of(&p, 0));
            }
        }
        "game" => {
            for seed in [
                "go\nD4\n2 D5\nE5\n2 pass\npass\npass\ndead D5\nagree\n2 agree",
                "go\nE5\n2 E5\nresign\nundo\ndraw\n2 resume",
                "chess\ne4\n2 e5\nQh5\n2 Nc6\nBc4\n2 Nf6\nQxf7\ndraw\n2 draw",
                "shogi\n7g7f\n2 3c3d\n8h2b+\n2 3a2b\nB*4e\ndeclare\n2 resign",
                "xiangqi\nh2e2\n2 h9g7\n\u{70ae}\u{4e8c}\u{5e73}\u{4e94}\nundo\ndraw\n2 draw",
                "8/8/8/4k3/8/8/8/4K2Q w - - 0 1\nQh5\n2 Kd4\nundo",
                "lnsgkgsn1/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1\n2 7g7f\n3c3d",
            ] {
                out.push(seed.as_bytes().to_vec());
            }
        }
        "xiangqi" => {
            // The CCPD endgames and kills in the repository: a FEN, then the book's moves
            // in traditional Chinese notation, a line each.
            let tsv = std::fs::read_to_string(repo.join("tests/data/xiangqi/ccpd.tsv"))
                .expect("tests/data/xiangqi/ccpd.tsv");
            for row in tsv.lines().take(40) {
                let mut fields = row.split('\t').skip(1);
                let fen = fields.next().unwrap_or("");
                let moves = fields.next().unwrap_or("").split(' ').take(30);
                let text: Vec<&str> = std::iter::once(fen).chain(moves).collect();
                out.push(text.join("\n").into_bytes());
            }
            out.push(
                b"start\nh2e2\nC8=5\n\xe7\x82\xae\xe4\xba\x8c\xe5\xb9\xb3\xe4\xba\x94\nh0g2"
                    .to_vec(),
            );
        }
        "engine-reply" => {
            for seed in [
                "= D4\n\n",
                "=7 resign\n\n",
                "? illegal move\n\n",
                "bestmove e2e4 ponder e7e5",
                "bestmove (none)",
                "bestmove resign\nbestmove win\nbestmove 7g7f\nbestmove P*5e",
                "= A1 B2 C3\nD4 E5\n\n",
            ] {
                out.push(seed.as_bytes().to_vec());
            }
        }
        // Seeds written here in the form of the Cho Chikun files, which may not be redistributed.
        "tsumego-json" => out.extend(seeds_of(
            &Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/tsumego-json-seeds.jsonl"),
            3,
        )),
        "lichess" => out.extend(seeds_of(&corpus.join("chess/lichess-1000.csv"), 3)),
        "sfen-json" => {
            out.extend(seeds_of(&corpus.join("shogi/tanuki-tsume.jsonl"), 3));
            out.extend(seeds_of(&corpus.join("shogi/open-tsume.jsonl"), 2));
        }
        "kif" => {
            for p in files_under(&corpus.join("shogi/kif"), &[""]) {
                out.extend(seeds_of(&p, 0));
            }
        }
        "sensei" => {
            let sources = [
                repo.join("docs/authoring.md"),
                repo.join("src/content/sensei.rs"),
            ];
            for p in files_under(&repo.join("lessons"), &[".md"])
                .into_iter()
                .chain(sources)
            {
                let text = std::fs::read_to_string(&p).unwrap_or_default();
                for part in text.split("sensei = \"\"\"").skip(1) {
                    out.push(
                        part.split("\"\"\"")
                            .next()
                            .unwrap_or("")
                            .as_bytes()
                            .to_vec(),
                    );
                }
            }
        }
        "chess" => {
            for p in [
                corpus.join("chess/win-at-chess.epd"),
                corpus.join("chess/mate-in-2.epd"),
            ] {
                let text = std::fs::read_to_string(&p).unwrap_or_default();
                for line in text.lines().take(10) {
                    let fen: Vec<&str> = line.split_whitespace().take(4).collect();
                    let bm = line
                        .split("bm ")
                        .nth(1)
                        .and_then(|r| r.split(';').next())
                        .unwrap_or("");
                    out.push(format!("{} 0 1\n{bm}", fen.join(" ")).into_bytes());
                }
            }
        }
        "shogi" => {
            let text = std::fs::read_to_string(corpus.join("shogi/tanuki-tsume.jsonl"))
                .unwrap_or_default();
            for line in text.lines().take(10) {
                let v: serde_json::Value = serde_json::from_str(line).unwrap_or_default();
                let sfen = v["sfen"].as_str().unwrap_or("");
                let usi = match &v["solution_usi"] {
                    serde_json::Value::Array(a) => a
                        .iter()
                        .filter_map(|m| m.as_str())
                        .collect::<Vec<_>>()
                        .join(" "),
                    other => other.as_str().unwrap_or("").to_string(),
                };
                out.push(format!("{sfen}\n{usi}").into_bytes());
            }
        }
        "lesson" => {
            for p in files_under(&repo.join("lessons"), &[".md"])
                .into_iter()
                .step_by(2)
            {
                out.extend(seeds_of(&p, 0));
            }
        }
        "problem" => {
            // A set's head with one of its first problems: whole sets take long to check.
            for p in files_under(&repo.join("problems"), &[".toml"]) {
                let text = std::fs::read_to_string(&p).unwrap_or_default();
                let mut parts = text.split("[[problem]]");
                let head = parts
                    .next()
                    .unwrap_or("")
                    .replace("lesson = ", "# lesson = ");
                for problem in parts.take(2) {
                    out.push(format!("{head}[[problem]]{problem}").into_bytes());
                }
            }
        }
        "attempt" => {
            for body in [
                r#"{"game":"go","set":"atari","id":"1","play":"C3","lang":"en"}"#,
                r#"{"game":"chess","set":"promotion","id":"2","moves":[],"select":"e2"}"#,
                r#"{"game":"chess","set":"promotion","id":"1","select":"e7","to":"e8"}"#,
                r#"{"game":"shogi","set":"moves","id":"2","moves":["P*5b"],"picked":["5e"],"play":"G*5b","lang":"zh"}"#,
                r#"{"game":"shogi","set":"moves","id":"1","play":"5e","selected":"P*"}"#,
            ] {
                out.push(body.as_bytes().to_vec());
            }
        }
        _ => {}
    }
    for s in &mut out {
        s.truncate(MAX_INPUT);
    }
    out
}

/// Tokens the formats are made of, for the mutator to put in.
const TOKENS: &[&str] = &[
    "(",
    ")",
    ";",
    "[",
    "]",
    "\\",
    "AB[",
    "AW[",
    "B[",
    "W[",
    "C[",
    "SZ[",
    "SZ[25]",
    "SZ[0]",
    "+++",
    "\n+++\n",
    "```goban\n",
    "```chess\n",
    "```shogi\n",
    "```\n",
    "[[steps]]\n",
    "play = ",
    "\"\"\"",
    "$$",
    "$$B",
    " X ",
    " O ",
    "=",
    "\"",
    "'",
    "{",
    "}",
    ",",
    ":",
    "\r\n",
    "\r",
    "\u{feff}",
    "\u{0}",
    "\t",
    "-1",
    "99999999999",
    "1e309",
    "é",
    "棋",
    "/",
    " w ",
    " b ",
    "KQkq",
    "O-O",
    "e8=Q",
    "P*",
    "+",
    "%",
    "手数＝",
    "▲",
    "△",
    "同",
    "成",
    "打",
    "N*",
    "#",
    "[set]\n",
    "[[problem]]\n",
    "[[problem.wrong]]\n",
    "goal = \"capture\"\n",
    "size = 19\n",
    "null",
    "[]",
    "true",
];

/// A xorshift generator: the runs are the same for the same seed.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next() % n as u64) as usize
        }
    }
}

/// `input` grown: a chunk of it (a node, a move pair …) repeated where it stands, or a
/// nesting level (a chunk and a later one, each repeated, the second after the first), to
/// a random size up to [`MAX_GROWN`] (most often under 64 KiB).
fn grow(rng: &mut Rng, input: &[u8]) -> Vec<u8> {
    if input.is_empty() {
        return Vec::new();
    }
    let cap = if rng.below(4) == 0 {
        MAX_GROWN
    } else {
        64 << 10
    };
    let target = input.len() + rng.below(cap.saturating_sub(input.len()) + 1);
    let start = rng.below(input.len());
    let end = (start + 1 + rng.below(16)).min(input.len());
    let chunk = input[start..end].to_vec();
    let mut data = input[..end].to_vec();
    if rng.below(2) == 0 {
        // A sequence: the chunk again and again.
        while data.len() + chunk.len() <= target.max(end + chunk.len()) {
            data.extend_from_slice(&chunk);
        }
        data.extend_from_slice(&input[end..]);
    } else {
        // A nesting level: the chunk n times here, a later chunk n times after the rest.
        let close_start = end + rng.below(input.len() - end + 1);
        let close_end = (close_start + 1 + rng.below(4)).min(input.len());
        let close = &input[close_start.min(close_end)..close_end];
        let n = (target - input.len()) / (chunk.len() + close.len()).max(1);
        for _ in 0..n {
            data.extend_from_slice(&chunk);
        }
        data.extend_from_slice(&input[end..close_end]);
        for _ in 0..n {
            data.extend_from_slice(close);
        }
        data.extend_from_slice(&input[close_end..]);
    }
    data.truncate(MAX_GROWN);
    data
}

/// One to four random edits of `input`, with `other` for splices; one time in sixteen, the
/// input grown instead ([`grow`]).
fn mutate(rng: &mut Rng, input: &[u8], other: &[u8]) -> Vec<u8> {
    if rng.below(16) == 0 {
        return grow(rng, input);
    }
    let mut data = input.to_vec();
    for _ in 0..1 + rng.below(4) {
        let at = rng.below(data.len() + 1);
        match rng.below(8) {
            0 if !data.is_empty() => {
                let i = rng.below(data.len());
                data[i] ^= 1 << rng.below(8);
            }
            1 if !data.is_empty() => {
                let i = rng.below(data.len());
                data[i] = rng.next() as u8;
            }
            2 if !data.is_empty() => {
                let len = 1 + rng.below(16.min(data.len() - at.min(data.len())).max(1));
                let end = (at + len).min(data.len());
                data.drain(at.min(end)..end);
            }
            3 if !data.is_empty() => {
                let start = rng.below(data.len());
                let end = (start + 1 + rng.below(64)).min(data.len());
                let chunk = data[start..end].to_vec();
                data.splice(at..at, chunk);
            }
            4 if !other.is_empty() => {
                let start = rng.below(other.len());
                let end = (start + 1 + rng.below(256)).min(other.len());
                data.splice(at..at, other[start..end].iter().copied());
            }
            5 if !other.is_empty() => {
                // Cross over: this input's start, the other's end.
                let cut = rng.below(other.len());
                data.truncate(at);
                data.extend_from_slice(&other[cut..]);
            }
            _ => {
                let token = TOKENS[rng.below(TOKENS.len())].as_bytes();
                data.splice(at..at, token.iter().copied());
            }
        }
    }
    data.truncate(MAX_INPUT);
    data
}

/// How long the watch waits for the next input before it calls the current one hung: three
/// times what the largest grown input may take.
fn hang_limit() -> Duration {
    (INPUT_LIMIT + TIME_PER_BYTE * MAX_GROWN as u32) * 3
}

/// What broke: the target, the input and why.
struct Found {
    target: String,
    input: Vec<u8>,
    why: String,
}

/// A field of `/proc/self/status` in bytes (`VmRSS`, `VmHWM`), where there is one.
fn status_bytes(field: &str) -> Option<usize> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with(field))?;
    let kb: usize = line[field.len() + 1..]
        .trim()
        .trim_end_matches("kB")
        .trim()
        .parse()
        .ok()?;
    Some(kb << 10)
}

/// The process's peak resident memory so far (`getrusage`'s maximum), in bytes.
fn max_rss() -> usize {
    // SAFETY: getrusage only writes the struct it is given.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut usage) };
    usize::try_from(usage.ru_maxrss).unwrap_or(0) << 10
}

/// Measures how much `work` raises the process's peak memory, in bytes: the peak is reset
/// first (`/proc/self/clear_refs`) and read after (`VmHWM`) against the memory held before
/// (`VmRSS`); where the peak cannot be reset, only a rise of the process's maximum counts.
fn peak_growth<T>(work: impl FnOnce() -> T) -> (T, usize) {
    let before = status_bytes("VmRSS:");
    let reset = std::fs::write("/proc/self/clear_refs", "5").is_ok();
    let max_before = max_rss();
    let out = work();
    let growth = match (reset, before, status_bytes("VmHWM:")) {
        (true, Some(before), Some(peak)) => peak.saturating_sub(before),
        _ => max_rss().saturating_sub(max_before),
    };
    (out, growth)
}

/// Runs `input` through `target`, catching panics, timing it and measuring its memory.
fn check(target: &str, input: &[u8]) -> Result<(), String> {
    let start = Instant::now();
    let (outcome, memory) = peak_growth(|| catch_unwind(AssertUnwindSafe(|| run(target, input))));
    let took = start.elapsed();
    let time_limit = INPUT_LIMIT + TIME_PER_BYTE * input.len() as u32;
    let memory_limit = MEMORY_PER_BYTE * input.len() + MEMORY_SLACK;
    match outcome {
        Err(panic) => {
            let message = panic
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_default();
            Err(format!("panic: {message}"))
        }
        Ok(Err(why)) => Err(why),
        Ok(Ok(())) if took > time_limit => Err(format!(
            "took {took:?} for {} bytes (limit {time_limit:?})",
            input.len()
        )),
        Ok(Ok(())) if memory > memory_limit => Err(format!(
            "raised the peak memory by {} MiB for {} bytes (limit {} MiB)",
            memory >> 20,
            input.len(),
            memory_limit >> 20
        )),
        Ok(Ok(())) => Ok(()),
    }
}

/// Writes a found input to `target/fuzz-found/` and says where.
fn save(found: &Found) -> PathBuf {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/fuzz-found");
    let _ = std::fs::create_dir_all(&dir);
    let hash = found.input.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ u64::from(*b)).wrapping_mul(0x100_0000_01b3)
    });
    let path = dir.join(format!("{}-{hash:016x}", found.target));
    let _ = std::fs::write(&path, &found.input);
    path
}

#[test]
fn fuzz_every_parser() {
    let default = if cfg!(debug_assertions) { 20 } else { 60 };
    let total: u64 = std::env::var("QIYUAN_FUZZ_SECS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(default);
    assert!(
        corpus().is_dir() || std::env::var_os("CI").is_none(),
        "the corpus is missing at {}: set QIYUAN_CORPUS",
        corpus().display()
    );
    let per_target = Duration::from_millis(total * 1000 / TARGETS.len() as u64);
    // The fuzzing runs on a thread of its own, watched: an input that hangs is reported.
    let current: Arc<Mutex<(String, Vec<u8>)>> = Arc::default();
    let (done, finished) = mpsc::channel::<(Vec<Found>, Vec<String>)>();
    let (beat, heartbeat) = mpsc::channel::<()>();
    let watched = current.clone();
    // Panics of the fuzzing thread are caught and reported; they are not printed.
    let default_hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        if std::thread::current().name() != Some("qiyuan-fuzz") {
            default_hook(info);
        }
    }));
    let fuzzing = std::thread::Builder::new().name("qiyuan-fuzz".into());
    let _ = fuzzing.spawn(move || {
        let mut found = Vec::new();
        let mut report = Vec::new();
        for (t, target) in TARGETS.iter().enumerate() {
            if *target == "attempt" {
                attempt_state(); // loaded before the clock starts
            }
            let seeds = seeds(target);
            let mut rng = Rng(0x9e37_79b9_7f4a_7c15 ^ (t as u64 + 1));
            let start = Instant::now();
            let mut runs = 0usize;
            let mut largest = 0usize;
            let mut inputs: Vec<Vec<u8>> = seeds.clone();
            if inputs.is_empty() {
                inputs.push(Vec::new());
            }
            // Every seed as it is, then mutations until the target's time is up.
            let mut i = 0;
            while start.elapsed() < per_target || i < seeds.len() {
                let input = if i < seeds.len() {
                    seeds[i].clone()
                } else {
                    let a = rng.below(inputs.len());
                    let b = rng.below(inputs.len());
                    mutate(&mut rng, &inputs[a], &inputs[b])
                };
                i += 1;
                largest = largest.max(input.len());
                *watched.lock().unwrap() = (target.to_string(), input.clone());
                let _ = beat.send(());
                runs += 1;
                if let Err(why) = check(target, &input) {
                    if found
                        .iter()
                        .filter(|f: &&Found| f.target == *target)
                        .count()
                        < 3
                    {
                        found.push(Found {
                            target: target.to_string(),
                            input: input.clone(),
                            why,
                        });
                    }
                } else if inputs.len() < 256 && rng.below(8) == 0 {
                    // Keep some passing mutants to mutate further.
                    inputs.push(input);
                }
            }
            report.push(format!(
                "{target}: {} seeds, {runs} inputs (the largest {largest} bytes) in {:.1} s",
                seeds.len(),
                start.elapsed().as_secs_f64()
            ));
        }
        let _ = done.send((found, report));
    });
    let (found, report) = loop {
        match finished.recv_timeout(Duration::from_millis(200)) {
            Ok(result) => break result,
            Err(mpsc::RecvTimeoutError::Disconnected) => panic!("the fuzzing thread died"),
            Err(mpsc::RecvTimeoutError::Timeout) => {
                // No new input started for too long: the current one hangs.
                let mut last = Instant::now();
                while heartbeat.try_recv().is_ok() {
                    last = Instant::now();
                }
                let _ = last;
                match heartbeat.recv_timeout(hang_limit()) {
                    Ok(()) | Err(mpsc::RecvTimeoutError::Disconnected) => continue,
                    Err(mpsc::RecvTimeoutError::Timeout) => {
                        let (target, input) = current.lock().unwrap().clone();
                        let path = save(&Found {
                            target: target.clone(),
                            input,
                            why: "hangs".into(),
                        });
                        panic!(
                            "{target}: an input hangs for over {:?}: {}",
                            hang_limit(),
                            path.display()
                        );
                    }
                }
            }
        }
    };
    for line in &report {
        eprintln!("fuzz {line}");
    }
    let lines: Vec<String> = found
        .iter()
        .map(|f| format!("{}: {} ({})", f.target, f.why, save(f).display()))
        .collect();
    assert!(
        lines.is_empty(),
        "fuzzing found {} inputs that break a property:\n{}",
        lines.len(),
        lines.join("\n")
    );
}

#[test]
fn replays_fuzz_regressions() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fuzz-regressions");
    let mut failures = Vec::new();
    let mut replayed = 0;
    for target in TARGETS {
        for path in files_under(&dir.join(target), &[""]) {
            if path.file_name().is_some_and(|n| n == "README.md") {
                continue;
            }
            let input = std::fs::read(&path).unwrap();
            replayed += 1;
            if let Err(why) = check(target, &input) {
                failures.push(format!("{}: {why}", path.display()));
            }
        }
    }
    eprintln!("{replayed} fuzz regressions replayed");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The hostile records of issue 43, and the longest records under the limits, through every
/// harness that reads them: no panic, and time and memory within the fuzzing's linear
/// bounds.
#[test]
fn hostile_records_take_time_and_memory_linear_in_their_size() {
    use common::hostile;
    let max = qiyuan::record::MAX_PLIES;
    let mut cases = hostile::cases();
    cases.extend([
        ("nodes-at-limit.sgf", hostile::sgf_nodes(max - 1)),
        ("pairs-at-limit.sgf", hostile::sgf_pass_pairs((max - 1) / 2)),
        ("nested-at-limit.sgf", hostile::sgf_nested(max)),
        ("shuffle-at-limit.pgn", hostile::pgn_knight_shuffle(max)),
    ]);
    for (name, text) in cases {
        let targets: &[&str] = match name.rsplit('.').next() {
            Some("sgf") => &["record-sgf", "sgf"],
            Some("pgn") => &["record-pgn"],
            _ => &["record-kif", "kif"],
        };
        for target in targets {
            if let Err(why) = check(target, text.as_bytes()) {
                panic!("{target}, {name} ({} bytes): {why}", text.len());
            }
        }
    }
}
