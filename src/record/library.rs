//! A folder of game records listed by their tags: who played, when, where and how it ended,
//! read from each file's header alone (SGF root properties, PGN tag pairs, KIF/KI2 header
//! lines, CSA `N+`/`$` lines) without replaying a move, and kept in a cache keyed by the
//! file's path, modification time and size, so that listing a folder of a thousand records
//! reads only the files that changed.
//!
//! ```
//! use qiyuan::record::library::summarize;
//! let sgf = "(;GM[1]SZ[19]PB[古力]PW[李世石]EV[LG Cup]DT[2011-02-14]RE[W+R];B[pd];W[dp])";
//! let s = summarize("final.sgf", sgf.as_bytes());
//! assert_eq!(s.len(), 1);
//! assert_eq!(s[0].players, [Some("古力".to_string()), Some("李世石".to_string())]);
//! assert_eq!(s[0].event.as_deref(), Some("LG Cup"));
//! assert_eq!(s[0].result.as_deref(), Some("W+R"));
//! ```

use super::Format;
use crate::base::Game;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::SystemTime;

/// The largest record file the library reads (4 MiB); larger files are listed as unreadable.
pub const MAX_FILE_BYTES: u64 = 4 << 20;

/// What the header of one game says.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    /// The game within its file, from 1 (PGN files hold many).
    pub game: usize,
    /// The players, `[first, second]`: Black/White in Go, White/Black in chess, Sente/Gote
    /// in shogi.
    pub players: [Option<String>; 2],
    /// The event.
    pub event: Option<String>,
    /// The date, as the file writes it.
    pub date: Option<String>,
    /// The result, as the file writes it (`B+R`, `1-0`, `まで77手で先手の勝ち`).
    pub result: Option<String>,
}

impl Summary {
    /// Whether `query` (lowercase) is in a player's name or the event, ignoring case.
    pub fn matches(&self, query: &str) -> bool {
        let has = |v: &Option<String>| {
            v.as_deref()
                .is_some_and(|t| t.to_lowercase().contains(query))
        };
        query.is_empty() || has(&self.players[0]) || has(&self.players[1]) || has(&self.event)
    }
}

/// One file of the folder, listed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The file's path under the folder, with `/` between folders (`pro/2011/final.sgf`).
    pub path: String,
    /// Its format.
    pub format: Format,
    /// Its games (one for every format but PGN); empty when the file cannot be read.
    pub games: Vec<Summary>,
}

impl Entry {
    /// The game the file holds.
    pub fn game(&self) -> Game {
        self.format.game()
    }
}

/// Reads the tags of every game of the record file `name` (its extension gives the format)
/// from its raw bytes, without reading its moves. An unknown extension gives no games.
pub fn summarize(name: &str, bytes: &[u8]) -> Vec<Summary> {
    match Format::for_file(name, bytes) {
        Some(format) => (format.kind().summarize)(bytes),
        None => Vec::new(),
    }
}

fn known(value: &str) -> Option<String> {
    let v = value.trim_matches([' ', '\u{3000}', '\t', '\r', '\n']);
    (!v.is_empty()).then(|| v.to_string())
}

/// The root properties of every game of an SGF collection: `PB`, `PW`, `EV`, `DT`, `RE`.
pub(crate) fn sgf_summaries(text: &str) -> Vec<Summary> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    let mut depth = 0usize;
    // Walks the tree by its brackets; at depth 1 the first node of each game is read.
    while i < bytes.len() {
        match bytes[i] {
            b'(' => {
                depth += 1;
                if depth == 1 {
                    let (summary, end) = sgf_root(text, i + 1);
                    out.push(Summary {
                        game: out.len() + 1,
                        ..summary
                    });
                    i = end;
                    continue;
                }
            }
            b')' => depth = depth.saturating_sub(1),
            b'[' => i = skip_value(bytes, i),
            _ => {}
        }
        i += 1;
    }
    out
}

/// The index of the `]` that closes the value opening at `open` (or the end).
fn skip_value(bytes: &[u8], open: usize) -> usize {
    let mut j = open + 1;
    while j < bytes.len() {
        match bytes[j] {
            b'\\' => j += 1,
            b']' => return j,
            _ => {}
        }
        j += 1;
    }
    bytes.len()
}

/// Reads the root node starting at `from` (just inside the game's `(`): its tags and where
/// the reading stopped (the next node, variation or the game's end).
fn sgf_root(text: &str, from: usize) -> (Summary, usize) {
    let bytes = text.as_bytes();
    let mut s = Summary::default();
    let mut i = from;
    let mut seen_node = false;
    let mut name = String::new();
    while i < bytes.len() {
        let b = bytes[i];
        match b {
            b';' if seen_node => return (s, i),
            b';' => seen_node = true,
            b'(' | b')' => return (s, i),
            b'[' => {
                let end = skip_value(bytes, i);
                let value = unescape_sgf(&text[i + 1..end.min(bytes.len())]);
                // A root written without its `;` (some Nihon Ki-in files) is read the same.
                seen_node = true;
                match name.as_str() {
                    "PB" => s.players[0] = known(&value),
                    "PW" => s.players[1] = known(&value),
                    "EV" => s.event = known(&value),
                    "DT" => s.date = known(&value),
                    "RE" => s.result = known(&value).filter(|r| r != "?"),
                    _ => {}
                }
                i = end + 1;
                continue;
            }
            b'A'..=b'Z' => {
                if i == 0 || !bytes[i - 1].is_ascii_uppercase() {
                    name.clear();
                }
                name.push(b as char);
            }
            _ if b.is_ascii_lowercase() => {}
            _ => {}
        }
        i += 1;
    }
    (s, i)
}

/// An SGF text value as it reads: escapes taken off, soft line breaks joined.
fn unescape_sgf(raw: &str) -> String {
    let mut out = String::with_capacity(raw.len());
    let mut chars = raw.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            match chars.next() {
                Some('\n') | None => {}
                Some(next) => out.push(next),
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// The tag pairs of every game of a PGN file: a game starts at a tag after move text.
pub(crate) fn pgn_summaries(text: &str) -> Vec<Summary> {
    let mut out: Vec<Summary> = Vec::new();
    let mut in_tags = false;
    let mut in_comment = false;
    for line in text.lines() {
        let t = line.trim();
        if in_comment {
            if let Some(end) = t.find('}') {
                in_comment = false;
                if t[end + 1..].contains('{') && !t[end + 1..].contains('}') {
                    in_comment = true;
                }
            }
            continue;
        }
        if let Some(tag) = t.strip_prefix('[').and_then(|r| r.strip_suffix(']')) {
            if !in_tags {
                out.push(Summary {
                    game: out.len() + 1,
                    ..Summary::default()
                });
                in_tags = true;
            }
            let Some((name, rest)) = tag.split_once(char::is_whitespace) else {
                continue;
            };
            let value = rest.trim().trim_matches('"').replace("\\\"", "\"");
            let pgn_known = |v: &str| known(v).filter(|v| v != "?" && !v.starts_with("????"));
            let s = out.last_mut().expect("a game was pushed");
            match name {
                "White" => s.players[0] = pgn_known(&value),
                "Black" => s.players[1] = pgn_known(&value),
                "Event" => s.event = pgn_known(&value),
                "Date" => s.date = pgn_known(&value),
                "Result" => s.result = pgn_known(&value).filter(|r| r != "*"),
                _ => {}
            }
        } else if !t.is_empty() && !t.starts_with('%') {
            if in_tags && out.is_empty() {
                out.push(Summary::default());
            }
            in_tags = false;
            // A comment left open at the end of a line hides brackets on the next ones.
            let opens = t.matches('{').count();
            let closes = t.matches('}').count();
            in_comment = opens > closes;
        }
    }
    out
}

/// The header lines of a KIF or KI2 record, and its `まで…` line.
pub(crate) fn kif_summary(text: &str) -> Summary {
    let mut s = Summary {
        game: 1,
        ..Summary::default()
    };
    for line in text.lines() {
        let t = line.trim();
        if t.starts_with("まで") {
            s.result = known(t);
            continue;
        }
        let Some((key, value)) = t.split_once('：').or_else(|| t.split_once(':')) else {
            continue;
        };
        match key.trim() {
            "先手" | "下手" => s.players[0] = known(value),
            "後手" | "上手" => s.players[1] = known(value),
            "棋戦" => s.event = known(value),
            "開始日時" => s.date = known(value),
            _ => {}
        }
    }
    s
}

/// The `N+`, `N-`, `$EVENT:` and `$START_TIME:` lines of a CSA record, and its end word.
pub(crate) fn csa_summary(text: &str) -> Summary {
    let mut s = Summary {
        game: 1,
        ..Summary::default()
    };
    for line in text.lines() {
        let t = line.trim();
        if let Some(name) = t.strip_prefix("N+") {
            s.players[0] = known(name);
        } else if let Some(name) = t.strip_prefix("N-") {
            s.players[1] = known(name);
        } else if let Some(event) = t.strip_prefix("$EVENT:") {
            s.event = known(event);
        } else if let Some(date) = t.strip_prefix("$START_TIME:") {
            s.date = known(date);
        } else if t.starts_with('%') && !t.starts_with("%+") && !t.starts_with("%-") {
            s.result = known(t);
        }
    }
    s
}

/// A file's stamp: the cache keeps a file's summaries while it stays the same.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Stamp {
    modified: Option<SystemTime>,
    len: u64,
}

/// A folder of records, listed on demand through a cache of each file's summaries.
#[derive(Debug)]
pub struct Library {
    root: PathBuf,
    cache: Mutex<HashMap<PathBuf, (Stamp, Vec<Summary>)>>,
}

/// How deep the library looks into folders within its folder.
const MAX_DEPTH: usize = 8;
/// At most this many record files are listed.
pub const MAX_FILES: usize = 20_000;

impl Library {
    /// The records under `root`.
    pub fn new(root: impl Into<PathBuf>) -> Library {
        Library {
            root: root.into(),
            cache: Mutex::default(),
        }
    }

    /// The folder.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// Every record file under the folder (in folders too, sorted by path), with its games'
    /// tags: read from files that changed since the last listing, the rest from the cache.
    pub fn list(&self) -> std::io::Result<Vec<Entry>> {
        let mut files = Vec::new();
        walk(&self.root, "", 0, &mut files)?;
        files.sort_by(|a, b| a.0.cmp(&b.0));
        files.truncate(MAX_FILES);
        let mut cache = self.cache.lock().unwrap_or_else(|e| e.into_inner());
        let mut out = Vec::with_capacity(files.len());
        let mut kept = HashMap::with_capacity(files.len());
        for (path, full, format) in files {
            let Ok(meta) = std::fs::metadata(&full) else {
                continue;
            };
            let stamp = Stamp {
                modified: meta.modified().ok(),
                len: meta.len(),
            };
            let games = match cache.remove(&full) {
                Some((s, games)) if s == stamp => games,
                _ if stamp.len > MAX_FILE_BYTES => Vec::new(),
                _ => std::fs::read(&full)
                    .map(|bytes| summarize(&path, &bytes))
                    .unwrap_or_default(),
            };
            kept.insert(full, (stamp, games.clone()));
            out.push(Entry {
                path,
                format,
                games,
            });
        }
        // Files gone from the folder leave the cache.
        *cache = kept;
        Ok(out)
    }

    /// The full path of the record file `path` (as [`Entry::path`] spells it), if it is a
    /// record file inside the folder: no `..`, no absolute path, a record extension.
    pub fn file(&self, path: &str) -> Option<PathBuf> {
        Format::from_name(path)?;
        let parts: Vec<&str> = path.split('/').collect();
        if parts
            .iter()
            .any(|p| p.is_empty() || *p == "." || *p == ".." || p.contains('\\'))
        {
            return None;
        }
        let full = parts.iter().fold(self.root.clone(), |acc, p| acc.join(p));
        full.is_file().then_some(full)
    }
}

/// Collects the record files under `dir` (`prefix` is its path under the root).
fn walk(
    dir: &Path,
    prefix: &str,
    depth: usize,
    out: &mut Vec<(String, PathBuf, Format)>,
) -> std::io::Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let Ok(entry) = entry else { continue };
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.starts_with('.') {
            continue;
        }
        let path = if prefix.is_empty() {
            name.clone()
        } else {
            format!("{prefix}/{name}")
        };
        let Ok(kind) = entry.file_type() else {
            continue;
        };
        if kind.is_dir() {
            if depth < MAX_DEPTH {
                // A folder that cannot be read is left out, not the whole listing.
                let _ = walk(&entry.path(), &path, depth + 1, out);
            }
        } else if let Some(format) = Format::from_name(&name) {
            out.push((path, entry.path(), format));
            if out.len() > MAX_FILES {
                return Ok(());
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_pgn_tags_of_every_game() {
        let pgn = "[Event \"A\"]\n[White \"Tal\"]\n[Black \"?\"]\n[Result \"1-0\"]\n\n1. e4 {a [bracket]\n[Event \"not a tag\"]} e5 1-0\n\n[Event \"B\"]\n[White \"Carlsen\"]\n\n1. d4 *\n";
        let s = pgn_summaries(pgn);
        assert_eq!(s.len(), 2, "{s:?}");
        assert_eq!(s[0].players, [Some("Tal".into()), None]);
        assert_eq!(s[0].result.as_deref(), Some("1-0"));
        assert_eq!(s[1].event.as_deref(), Some("B"));
        assert_eq!(s[1].game, 2);
    }

    #[test]
    fn reads_sgf_roots_of_a_collection_without_their_moves() {
        let sgf = "(;PB[a\\]b]C[(;PB[no])];B[aa];PB[late])(;PW[second])";
        let s = sgf_summaries(sgf);
        assert_eq!(s.len(), 2, "{s:?}");
        assert_eq!(s[0].players[0].as_deref(), Some("a]b"));
        assert_eq!(s[1].players[1].as_deref(), Some("second"));
    }

    #[test]
    fn reads_kif_and_csa_headers() {
        let kif =
            "先手：羽生善治\n後手：谷川浩司\n棋戦：名人戦\n   1 ７六歩(77)\nまで1手で先手の勝ち\n";
        let s = kif_summary(kif);
        assert_eq!(s.players[1].as_deref(), Some("谷川浩司"));
        assert_eq!(s.result.as_deref(), Some("まで1手で先手の勝ち"));
        let csa = "V2.2\nN+Habu\nN-Tanigawa\n$EVENT:Meijin\nPI\n+\n+7776FU\n%TORYO\n";
        let c = csa_summary(csa);
        assert_eq!(c.players, [Some("Habu".into()), Some("Tanigawa".into())]);
        assert_eq!(c.result.as_deref(), Some("%TORYO"));
    }

    #[test]
    fn a_path_out_of_the_folder_is_refused() {
        let lib = Library::new(std::env::temp_dir());
        assert_eq!(lib.file("../etc/passwd.sgf"), None);
        assert_eq!(lib.file("/etc/x.sgf"), None);
        assert_eq!(lib.file("a/./b.sgf"), None);
    }
}
