//! The layers' rules, read from the source: where a particular game is named, and which
//! layers use which. A game is a plugin: outside `src/rules` and outside a game's own files
//! (a path naming the game), nothing should name one (`Game::Go`, `Start::Shogi`,
//! `Format::Pgn`, `Dialect::Uci` …), no modules should use each other in a circle, and no
//! layer should use a higher one.
//!
//! The limits below are a ratchet: they are today's counts, so that the count can only fall.
//! The goal is the registry alone (at most 10 places) and no circle. Lower a limit whenever
//! a change brings its count down.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// At most this many lines outside the rules and the games' own files name a game.
const GAME_NAMES_AT_MOST: usize = 5;

/// At most this many groups of modules use each other.
const CIRCLES_AT_MOST: usize = 0;

/// At most this many pairs of layers where the lower uses the higher.
const LAYER_BREAKS_AT_MOST: usize = 0;

/// The words that name a game, or a format or protocol of one game.
const GAME_WORDS: &[&str] = &[
    "Go", "Chess", "Shogi", "Xiangqi", "Pgn", "Sgf", "Kif", "Ki2", "Csa", "Uci", "Usi", "Gtp",
];

/// The path segments (folder or file stem) that make a file a game's own, or a record
/// format's or an engine protocol's own (`record/sgf.rs` may name `Format::Sgf`,
/// `play/engine/uci.rs` `Dialect::Usi`).
const GAME_SEGMENTS: &[&str] = &[
    "go", "chess", "shogi", "xiangqi", "sgf", "pgn", "kif", "csa", "gtp", "uci", "usi",
];

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// Every `.rs` file under `src/`, as paths relative to `src/`, with its text.
fn sources() -> Vec<(String, String)> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    files
        .into_iter()
        .map(|p| {
            let rel = p
                .strip_prefix(&src)
                .unwrap()
                .to_string_lossy()
                .replace('\\', "/");
            (rel, std::fs::read_to_string(&p).unwrap())
        })
        .collect()
}

/// Whether `path` (relative to `src/`) is in the rules or is a game's own file.
fn may_name_games(path: &str) -> bool {
    path.starts_with("rules/")
        || path
            .trim_end_matches(".rs")
            .split('/')
            .any(|segment| GAME_SEGMENTS.contains(&segment))
}

/// The code of a line: what comes before a `//` comment (strings are not told apart, which
/// only ever counts a line less).
fn code(line: &str) -> &str {
    line.split("//").next().unwrap_or("")
}

/// Whether `line` names a game as a path: an upper-case type, `::`, then a game word that
/// ends there (`Game::Go`, `record::Format::Pgn`; not `Game::Good`).
///
/// ```text
/// Game::Go =>        names a game
/// go::Point          does not (a module, lower case)
/// ```
fn names_a_game(line: &str) -> bool {
    let code = code(line);
    let bytes = code.as_bytes();
    let mut from = 0;
    while let Some(at) = code[from..].find("::") {
        let colons = from + at;
        from = colons + 2;
        let before = code[..colons]
            .rsplit(|c: char| !(c.is_alphanumeric() || c == '_'))
            .next()
            .unwrap_or("");
        if !before.starts_with(|c: char| c.is_ascii_uppercase()) {
            continue;
        }
        let after = &code[colons + 2..];
        for word in GAME_WORDS {
            if after.starts_with(word) {
                let end = colons + 2 + word.len();
                let boundary = bytes
                    .get(end)
                    .is_none_or(|b| !(b.is_ascii_alphanumeric() || *b == b'_'));
                if boundary {
                    return true;
                }
            }
        }
    }
    false
}

/// The lines of `text` outside its unit tests (a `#[cfg(test)]` item to the end of its
/// block, which must try the layer on real games: that is not the layer deciding by game).
fn lines_outside_tests(text: &str) -> impl Iterator<Item = &str> {
    let mut depth: Option<i64> = None;
    let mut armed = false;
    text.lines().filter(move |line| {
        let code = code(line);
        if depth.is_none() && code.trim_start().starts_with("#[cfg(test)]") {
            armed = true;
            return false;
        }
        if armed || depth.is_some() {
            let d = depth.get_or_insert(0);
            *d += code.matches('{').count() as i64 - code.matches('}').count() as i64;
            if code.contains('{') {
                armed = false;
            }
            if !armed && *d <= 0 {
                depth = None;
            }
            return false;
        }
        true
    })
}

/// The lines outside the rules and the games' own files (and outside unit tests) that name
/// a game, by file.
fn game_names() -> BTreeMap<String, usize> {
    let mut counts = BTreeMap::new();
    for (path, text) in sources() {
        if may_name_games(&path) {
            continue;
        }
        let n = lines_outside_tests(&text)
            .filter(|l| names_a_game(l))
            .count();
        if n > 0 {
            counts.insert(path, n);
        }
    }
    counts
}

/// The module a file holds: `content/go.rs` → `content::go`, `web/mod.rs` → `web`,
/// `lang.rs` → `lang`, `lib.rs` → `` (the crate).
fn module_of(path: &str) -> String {
    let path = path.trim_end_matches(".rs");
    let path = path.strip_suffix("/mod").unwrap_or(path);
    if path == "lib" || path == "main" {
        return String::new();
    }
    path.replace('/', "::")
}

/// The first segment of a module path (its layer).
fn layer(module: &str) -> &str {
    module.split("::").next().unwrap_or("")
}

/// Whether `a` is `b` or lies inside it (`content::go` in `content`).
fn within(a: &str, b: &str) -> bool {
    b.is_empty() || a == b || a.starts_with(&format!("{b}::"))
}

/// The paths a line of code names after `crate::` or `super::` (resolved from `module`,
/// the module the line is in), with `use a::{b, c}` braces opened: `super::go::Point` in
/// `content::problem` gives `content::go::Point`.
fn named_paths(code: &str, module: &str) -> Vec<String> {
    let parent = module.rsplit_once("::").map_or("", |(p, _)| p);
    let mut out = Vec::new();
    for (prefix, base) in [("crate::", ""), ("super::", parent)] {
        let mut rest = code;
        while let Some(at) = rest.find(prefix) {
            let before = &rest[..at];
            rest = &rest[at + prefix.len()..];
            // `super::` preceded by `::` (a `super::super::` chain, or `self::super`) is left out.
            if prefix == "super::" && (before.ends_with("::") || before.ends_with("crate")) {
                continue;
            }
            if prefix == "super::" && rest.starts_with("super::") {
                while let Some(r) = rest.strip_prefix("super::") {
                    rest = r;
                }
                continue;
            }
            let join = |tail: &str| {
                let tail: String = tail
                    .trim()
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == ':')
                    .collect();
                let tail = tail.trim_end_matches(':');
                match (base.is_empty(), tail.is_empty()) {
                    (_, true) => base.to_string(),
                    (true, false) => tail.to_string(),
                    (false, false) => format!("{base}::{tail}"),
                }
            };
            let head: String = rest
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == ':')
                .collect();
            if let Some(open) = rest[head.len()..].strip_prefix('{') {
                let inner = open.split('}').next().unwrap_or("");
                for part in inner.split(',') {
                    out.push(join(&format!("{head}{}", part.trim())));
                }
            } else {
                out.push(join(&head));
            }
        }
    }
    out
}

/// Which modules each module uses, by `crate::` and `super::` paths, each path cut to the
/// longest module it names. Uses of a module's own ancestors or descendants are left out: a
/// child using its parent's shared words, or a parent declaring its children, is the shape
/// of a Rust module, not a circle.
fn module_uses() -> BTreeMap<String, BTreeSet<String>> {
    let files = sources();
    let modules: BTreeSet<String> = files.iter().map(|(p, _)| module_of(p)).collect();
    let mut uses: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (path, text) in &files {
        let from = module_of(path);
        if path == "main.rs" {
            continue;
        }
        let entry = uses.entry(from.clone()).or_default();
        for line in text.lines() {
            for named in named_paths(code(line), &from) {
                let mut to = named.as_str();
                while !modules.contains(to) {
                    match to.rsplit_once("::") {
                        Some((head, _)) => to = head,
                        None => {
                            to = "";
                            break;
                        }
                    }
                }
                if !to.is_empty() && !within(&from, to) && !within(to, &from) {
                    entry.insert(to.to_string());
                }
            }
        }
    }
    uses
}

/// The groups of modules that reach each other through their uses (the strongly connected
/// components of more than one module), each sorted.
fn circles(uses: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
    let reaches = |from: &str| {
        let mut seen = BTreeSet::new();
        let mut stack = vec![from.to_string()];
        while let Some(at) = stack.pop() {
            for next in uses.get(&at).into_iter().flatten() {
                if seen.insert(next.clone()) {
                    stack.push(next.clone());
                }
            }
        }
        seen
    };
    let reach: BTreeMap<&String, BTreeSet<String>> = uses.keys().map(|m| (m, reaches(m))).collect();
    let mut out: Vec<Vec<String>> = Vec::new();
    let mut placed = BTreeSet::new();
    for (m, from_m) in &reach {
        if placed.contains(*m) {
            continue;
        }
        let group: Vec<String> = from_m
            .iter()
            .filter(|other| reach.get(other).is_some_and(|r| r.contains(*m)))
            .cloned()
            .collect();
        if group.len() > 1 {
            placed.extend(group.iter().cloned());
            out.push(group);
        }
    }
    out
}

/// The pairs of layers where the lower one uses the higher, against the order of
/// docs/architecture.md (`web` on top, then `play`, `import` (on `record`'s readers and
/// writers), `record`, `content`, `render`, the shared words of `base`, `rules` at the
/// bottom; `class`, `lang` and `random` beside them).
fn layer_breaks(uses: &BTreeMap<String, BTreeSet<String>>) -> BTreeSet<(String, String)> {
    let rank = |layer: &str| match layer {
        "web" => 7,
        "play" => 6,
        "import" => 5,
        "record" => 4,
        "content" => 3,
        "render" => 2,
        "base" => 1,
        "rules" => 0,
        _ => -1,
    };
    let mut out = BTreeSet::new();
    for (from, tos) in uses {
        for to in tos {
            let (a, b) = (layer(from), layer(to));
            if a != b && rank(a) >= 0 && rank(b) >= 0 && rank(b) >= rank(a) {
                out.insert((a.to_string(), b.to_string()));
            }
        }
    }
    out
}

#[test]
fn names_a_game_reads_paths_not_modules() {
    assert!(names_a_game("        Game::Go => 19,"));
    assert!(names_a_game("let f = record::Format::Pgn;"));
    assert!(names_a_game("Dialect::Uci | Dialect::Usi"));
    assert!(!names_a_game("use crate::rules::go::Point;"));
    assert!(!names_a_game("Game::Good"));
    assert!(!names_a_game("// Game::Go in a comment"));
}

#[test]
fn leaves_unit_tests_out_of_the_count() {
    let text = "fn a() { Game::Go }\n#[cfg(test)]\nmod tests {\n    fn b() {\n        Game::Chess;\n    }\n}\nfn c() { Game::Shogi }\n";
    let kept: Vec<&str> = lines_outside_tests(text).collect();
    assert_eq!(kept, ["fn a() { Game::Go }", "fn c() { Game::Shogi }"]);
}

#[test]
fn finds_a_circle_of_three_modules_and_leaves_parents_out() {
    let uses: BTreeMap<String, BTreeSet<String>> = [
        ("web::games", vec!["web::pages"]),
        ("web::pages", vec!["web::kit"]),
        ("web::kit", vec!["web::games"]),
        ("rules", vec![]),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), v.into_iter().map(String::from).collect()))
    .collect();
    assert_eq!(
        circles(&uses),
        [vec![
            "web::games".to_string(),
            "web::kit".into(),
            "web::pages".into()
        ]]
    );
    assert_eq!(
        named_paths("use super::{go::Point, marks};", "content::problem"),
        ["content::go::Point", "content::marks"]
    );
    assert_eq!(
        named_paths("crate::rules::go::Board", "web"),
        ["rules::go::Board"]
    );
}

#[test]
fn no_more_game_names_outside_the_games_than_before() {
    let counts = game_names();
    let total: usize = counts.values().sum();
    let mut by_layer: BTreeMap<String, usize> = BTreeMap::new();
    for (path, n) in &counts {
        *by_layer
            .entry(layer(&module_of(path)).to_string())
            .or_default() += n;
    }
    eprintln!("lines naming a game outside the rules and the games' own files: {total}");
    eprintln!("by layer: {by_layer:?}");
    assert!(
        total <= GAME_NAMES_AT_MOST,
        "{total} lines name a game outside the rules and the games' own files, more than the \
         {GAME_NAMES_AT_MOST} allowed: ask the game's descriptor instead. By file: {counts:#?}"
    );
}

#[test]
// A limit that has come down to 0 (no break at all) still reads as a limit.
#[allow(clippy::absurd_extreme_comparisons)]
fn no_more_circles_or_layer_breaks_than_before() {
    let uses = module_uses();
    let found = circles(&uses);
    let breaks = layer_breaks(&uses);
    eprintln!("modules that use each other: {found:?}");
    eprintln!("layers that use a higher one: {breaks:?}");
    assert!(
        found.len() <= CIRCLES_AT_MOST,
        "{} groups of modules use each other, more than the {CIRCLES_AT_MOST} allowed: {found:?}",
        found.len()
    );
    assert!(
        breaks.len() <= LAYER_BREAKS_AT_MOST,
        "{} layers use a higher one, more than the {LAYER_BREAKS_AT_MOST} allowed: {breaks:?}",
        breaks.len()
    );
}

/// At most this many lines in one file of the web layer: a web file mixing helpers, domain
/// logic and views is split by concern into a folder instead.
const WEB_FILE_LINES_AT_MOST: usize = 900;

#[test]
fn no_web_file_is_longer_than_the_limit() {
    let long: Vec<(String, usize)> = sources()
        .into_iter()
        .filter(|(path, _)| path.starts_with("web/"))
        .map(|(path, text)| (path, text.lines().count()))
        .filter(|&(_, n)| n > WEB_FILE_LINES_AT_MOST)
        .collect();
    assert!(
        long.is_empty(),
        "web files longer than {WEB_FILE_LINES_AT_MOST} lines: {long:?}"
    );
}
