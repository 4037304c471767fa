//! Importing shogi: tsume from SFEN + USI JSON lines (the corpus's classical `open-tsume` and
//! the generated `tanuki-tsume` up to 7 plies), and the five game records of the corpus in
//! KIF, KI2 and CSA, UTF-8 and Shift_JIS. The written sets must load as `qiyuan check` loads
//! them (tsume are proven by search then), and every game must replay through our engine.
//!
//! Proving hundreds of tsume is slow without optimisation: in a debug build the tsume tests
//! load a sample (said so in their output); `cargo test --release` loads them all.
//!
//! The corpus is read from `$QIYUAN_CORPUS` or `tests/data/corpus`; the test fails if it
//! is missing. Imported files go to a temporary folder, never into the repository.

mod common;

use qiyuan::content::source::Folder;
use qiyuan::content::{Game, Library, Puzzle, Text, Verdict};
use qiyuan::import::kif::{self, Encoding};
use qiyuan::import::{sfen, write_checked, Goal, Imported, SetTarget};
use qiyuan::rules::shogi::Position;
use std::path::PathBuf;
use std::time::Instant;

fn corpus() -> PathBuf {
    common::corpus("shogi/kif")
}

/// A fresh temporary content folder for this test.
fn temp_folder(name: &str) -> PathBuf {
    common::temp_folder(name, "shogi")
}

const RELEASE: bool = !cfg!(debug_assertions);

/// Writes `imported` as `problems/shogi/SLUG.toml` through [`write_checked`], loads the
/// folder as `qiyuan check` does, and asserts that it loads without errors. Returns the
/// loaded library and the problems the first check refused.
fn write_and_load(slug: &str, imported: &mut Imported) -> (Library, Vec<(String, String)>) {
    let shown = format!("problems/shogi/{slug}.toml");
    let checked = write_checked(
        &SetTarget {
            game: Game::Shogi,
            slug,
            shown: &shown,
            title: &Text::both(slug),
            origin: "test import",
        },
        imported,
    );
    assert!(checked.errors.is_empty(), "{:?}", checked.errors);
    let dir = temp_folder(slug);
    std::fs::write(
        dir.join(format!("problems/shogi/{slug}.toml")),
        &checked.toml,
    )
    .unwrap();
    let (library, errors) = Library::load(&Folder::new(&dir).read().unwrap());
    let _ = std::fs::remove_dir_all(&dir);
    assert!(
        errors.is_empty(),
        "{} errors, first: {}",
        errors.len(),
        errors[0]
    );
    (library, checked.refused)
}

/// Plays each problem's first listed move in the trainer: it must be correct.
fn first_moves_are_correct(library: &Library, slug: &str) -> usize {
    let set = library
        .shelf(Game::Shogi)
        .and_then(|s| s.set(slug))
        .unwrap();
    for problem in &set.problems {
        let Puzzle::Shogi(puzzle) = &problem.puzzle else {
            panic!("{} is not shogi", problem.id);
        };
        let first = puzzle.lines.main_line()[0].clone();
        match problem.puzzle.attempt(&[], &[], &first) {
            Verdict::Correct { .. } => {}
            other => panic!("{}: {first} judged {other:?}", problem.id),
        }
    }
    set.problems.len()
}

#[test]
fn tanuki_tsume_up_to_seven_plies_load_proven() {
    let started = Instant::now();
    let text = std::fs::read_to_string(corpus().join("shogi/tanuki-tsume.jsonl")).unwrap();
    let mut imported = sfen::import("tanuki-tsume.jsonl", &text, None, Some(7));
    let longer = imported
        .skipped
        .iter()
        .filter(|s| s.reason.contains("longer than the 7"))
        .count();
    assert_eq!(
        imported.skipped.len(),
        longer,
        "only longer problems may be left out: {:?}",
        imported.skipped
    );
    let total = imported.problems.len();
    assert_eq!(total + longer, text.lines().count());
    assert!(imported
        .problems
        .iter()
        .all(|p| matches!(p.goal, Goal::Tsume(n) if n <= 7)));
    if !RELEASE {
        // Five of each length, 1 to 7 plies.
        let mut per_length = std::collections::HashMap::new();
        imported.problems.retain(|p| {
            let n = per_length.entry(p.solutions[0].len()).or_insert(0);
            *n += 1;
            *n <= 5
        });
    }
    let sample = imported.problems.len();
    let loading = Instant::now();
    let (library, refused) = write_and_load("tanuki", &mut imported);
    let loaded_in = loading.elapsed();
    assert!(refused.is_empty(), "{refused:?}");
    let judged = first_moves_are_correct(&library, "tanuki");
    assert_eq!(judged, sample);
    eprintln!(
        "tanuki-tsume: {total} problems of up to 7 plies imported ({longer} longer left out); {} {sample} loaded, every tsume proven, in {loaded_in:.2?}; total {:.2?}",
        if RELEASE { "all" } else { "debug build: a sample of" },
        started.elapsed()
    );
}

#[test]
fn open_tsume_loads() {
    let started = Instant::now();
    let text = std::fs::read_to_string(corpus().join("shogi/open-tsume.jsonl")).unwrap();
    let mut imported = sfen::import("open-tsume.jsonl", &text, None, None);
    assert!(imported.skipped.is_empty(), "{:?}", imported.skipped);
    assert_eq!(imported.problems.len(), 21);
    let total = imported.problems.len();
    if !RELEASE {
        // The shortest tsume (9 plies) and the ones past the search (judged by their line).
        imported
            .problems
            .retain(|p| p.id == "zukou-050" || p.goal == Goal::Best);
    }
    let sample = imported.problems.len();
    let loading = Instant::now();
    let (library, refused) = write_and_load("open-tsume", &mut imported);
    let loaded_in = loading.elapsed();
    for (id, why) in &refused {
        eprintln!("open-tsume: the search refused {id}, now judged by its line: {why}");
    }
    assert_eq!(first_moves_are_correct(&library, "open-tsume"), sample);
    let proven = imported
        .problems
        .iter()
        .filter(|p| matches!(p.goal, Goal::Tsume(_)))
        .count();
    eprintln!(
        "open-tsume: {total} imported; {} {sample} loaded in {loaded_in:.2?}: {proven} proven as tsume, {} refused by the search and judged by their line, {} longer than the search goes; total {:.2?}",
        if RELEASE { "all" } else { "debug build: a sample of" },
        refused.len(),
        sample - proven - refused.len(),
        started.elapsed()
    );
}

/// Plays `line` from `start` through our engine, move by move.
fn replay(start: &str, line: &[String]) -> Position {
    let mut pos = Position::from_sfen(start).unwrap();
    for (i, mv) in line.iter().enumerate() {
        pos = match pos.play(mv) {
            Ok((next, _)) => next,
            Err(e) => panic!("ply {} ({mv}) is illegal: {e}", i + 1),
        };
    }
    pos
}

#[test]
fn the_five_records_parse_and_replay() {
    let dir = corpus().join("shogi/kif");
    let expected = [
        (
            "csa-sjis.csa",
            qiyuan::record::kif::CSA,
            Encoding::ShiftJis,
            20,
            vec![],
        ),
        (
            "ki2-sjis.ki2",
            qiyuan::record::kif::KI2,
            Encoding::ShiftJis,
            6,
            vec![],
        ),
        (
            "ki2u-utf8.ki2u",
            qiyuan::record::kif::KI2,
            Encoding::Utf8,
            15,
            vec![(9, 23)],
        ),
        (
            "kif-sjis.kif",
            qiyuan::record::kif::KIF,
            Encoding::ShiftJis,
            6,
            vec![],
        ),
        (
            "kifu-utf8.kifu",
            qiyuan::record::kif::KIF,
            Encoding::Utf8,
            19,
            vec![],
        ),
    ];
    let mut files = Vec::new();
    for (name, format, encoding, plies, variations) in expected {
        let bytes = std::fs::read(dir.join(name)).unwrap();
        let games = kif::read(name, &bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(games.len(), 1, "{name}");
        let g = &games[0];
        assert_eq!((g.format, g.encoding), (format, encoding), "{name}");
        assert!(g.notes.is_empty(), "{name}: {:?}", g.notes);
        replay(&g.start, &g.main);
        assert_eq!(g.main.len(), plies, "{name}");
        let got: Vec<(usize, usize)> = g
            .variations
            .iter()
            .map(|v| {
                replay(&g.start, &v.line);
                assert_eq!(v.line[..v.from - 1], g.main[..v.from - 1], "{name}");
                (v.from, v.line.len())
            })
            .collect();
        assert_eq!(got, variations, "{name}");
        eprintln!(
            "{name}: {} in {:?}, {plies} plies replayed, {} variation{}",
            format.as_str(),
            encoding,
            got.len(),
            if got.len() == 1 { "" } else { "s" }
        );
        files.push((name.to_string(), bytes));
    }
    // All five games are the same opening, so the Shift_JIS and UTF-8 readings agree.
    let kif_sjis = kif::read("kif-sjis.kif", &files[3].1).unwrap();
    let ki2_sjis = kif::read("ki2-sjis.ki2", &files[1].1).unwrap();
    assert_eq!(kif_sjis[0].main, ki2_sjis[0].main);

    let mut imported = kif::import_files(&files);
    assert!(imported.skipped.is_empty(), "{:?}", imported.skipped);
    assert_eq!(imported.problems.len(), 5);
    // The KI2U variation branches at ply 9, a move of Black (the learner): a second line.
    let ki2u = &imported.problems[2];
    assert_eq!(ki2u.id, "ki2u-utf8");
    assert_eq!(ki2u.solutions.len(), 2);
    let (library, refused) = write_and_load("records", &mut imported);
    assert!(refused.is_empty(), "{refused:?}");
    assert_eq!(first_moves_are_correct(&library, "records"), 5);
}

/// Shift_JIS bytes of `変化：N手` (N in ASCII digits).
fn henka_sjis(n: usize) -> Vec<u8> {
    let mut b = vec![0x95, 0xCF, 0x89, 0xBB, 0x81, 0x46];
    b.extend(n.to_string().bytes());
    b.extend([0x8E, 0xE8]);
    b
}

#[test]
fn variations_after_the_summary_line_in_shift_jis() {
    // The corpus's Shift_JIS KIF (it ends `投了` and `まで6手で後手の勝ち`), with two
    // variations appended after the summary line, as Kifu for Windows writes them:
    // 変化：3手 (７六歩 ３四歩), then 変化：4手 (５四歩), an alternative to that line's ply 4.
    let mut bytes = std::fs::read(corpus().join("shogi/kif/kif-sjis.kif")).unwrap();
    bytes.extend(b"\r\n");
    bytes.extend(henka_sjis(3));
    bytes.extend(b"\r\n   3 ");
    bytes.extend([0x82, 0x56, 0x98, 0x5A, 0x95, 0xE0]); // ７六歩
    bytes.extend(b"(77)   ( 0:00/00:00:00)\r\n   4 ");
    bytes.extend([0x82, 0x52, 0x8E, 0x6C, 0x95, 0xE0]); // ３四歩
    bytes.extend(b"(33)   ( 0:00/00:00:00)\r\n\r\n");
    bytes.extend(henka_sjis(4));
    bytes.extend(b"\r\n   4 ");
    bytes.extend([0x82, 0x54, 0x8E, 0x6C, 0x95, 0xE0]); // ５四歩
    bytes.extend(b"(53)   ( 0:00/00:00:00)\r\n");
    let games = kif::read("appended.kif", &bytes).unwrap();
    let g = &games[0];
    assert_eq!(g.encoding, Encoding::ShiftJis);
    assert_eq!(g.main, ["2g2f", "8c8d", "2f2e", "8d8e", "6i7h", "4a3b"]);
    let lines: Vec<(usize, String)> = g
        .variations
        .iter()
        .map(|v| (v.from, v.line.join(" ")))
        .collect();
    assert_eq!(
        lines,
        [
            (3, "2g2f 8c8d 7g7f 3c3d".to_string()),
            // Ply 4 branches from the latest line written: the variation at ply 3.
            (4, "2g2f 8c8d 7g7f 5c5d".to_string()),
        ]
    );
    for v in &g.variations {
        replay(&g.start, &v.line);
    }
}
