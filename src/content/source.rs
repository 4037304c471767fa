//! Where content comes from: embedded in the binary, or a folder on disk.

use rust_embed::RustEmbed;
use std::borrow::Cow;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

#[derive(RustEmbed)]
#[folder = "lessons/"]
struct EmbeddedLessons;

#[derive(RustEmbed)]
#[folder = "problems/"]
struct EmbeddedProblems;

/// The text of a content file as it is read: without a UTF-8 byte-order mark at the start,
/// and with CRLF line endings (files saved on Windows) turned into LF. Lines stay the lines
/// they were, and columns too (the mark and the carriage returns take no column).
///
/// ```
/// use qiyuan::content::source::normalise;
/// assert_eq!(normalise("\u{feff}+++\r\ntitle = \"T\"\r\n+++\r\n"), "+++\ntitle = \"T\"\n+++\n");
/// assert_eq!(normalise("plain\n"), "plain\n");
/// ```
pub fn normalise(text: &str) -> Cow<'_, str> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    if text.contains("\r\n") {
        Cow::Owned(text.replace("\r\n", "\n"))
    } else {
        Cow::Borrowed(text)
    }
}

/// The content built into the binary, as `(path, text)` pairs.
pub fn embedded() -> Vec<(String, String)> {
    let mut files = Vec::new();
    for path in EmbeddedLessons::iter() {
        if let Some(file) = EmbeddedLessons::get(&path) {
            files.push((
                format!("lessons/{path}"),
                String::from_utf8_lossy(&file.data).into_owned(),
            ));
        }
    }
    for path in EmbeddedProblems::iter() {
        if let Some(file) = EmbeddedProblems::get(&path) {
            files.push((
                format!("problems/{path}"),
                String::from_utf8_lossy(&file.data).into_owned(),
            ));
        }
    }
    files.sort();
    files
}

/// A content folder on disk, with `lessons/` and `problems/` inside.
#[derive(Clone, Debug)]
pub struct Folder {
    root: PathBuf,
}

/// A file's path and modification time: when any changes, the content is read again.
pub type Stamp = Vec<(PathBuf, Option<SystemTime>, u64)>;

impl Folder {
    /// The folder at `root`.
    pub fn new(root: impl Into<PathBuf>) -> Folder {
        Folder { root: root.into() }
    }

    /// The folder's path.
    pub fn root(&self) -> &Path {
        &self.root
    }

    fn paths(&self) -> Vec<PathBuf> {
        let mut out = Vec::new();
        for top in ["lessons", "problems"] {
            let Ok(games) = std::fs::read_dir(self.root.join(top)) else {
                continue;
            };
            for game in games.flatten() {
                let Ok(entries) = std::fs::read_dir(game.path()) else {
                    continue;
                };
                for entry in entries.flatten() {
                    if entry.file_type().is_ok_and(|t| t.is_file()) {
                        out.push(entry.path());
                    }
                }
            }
        }
        out.sort();
        out
    }

    /// A cheap fingerprint of the folder: every file's path, modification time and size.
    pub fn stamp(&self) -> Stamp {
        self.paths()
            .into_iter()
            .map(|p| {
                let meta = std::fs::metadata(&p).ok();
                let modified = meta.as_ref().and_then(|m| m.modified().ok());
                let len = meta.map_or(0, |m| m.len());
                (p, modified, len)
            })
            .collect()
    }

    /// Every content file as `(path relative to the folder with /, text)`.
    pub fn read(&self) -> std::io::Result<Vec<(String, String)>> {
        let mut files = Vec::new();
        for path in self.paths() {
            let rel = path
                .strip_prefix(&self.root)
                .unwrap_or(&path)
                .components()
                .map(|c| c.as_os_str().to_string_lossy())
                .collect::<Vec<_>>()
                .join("/");
            let bytes = std::fs::read(&path)?;
            let text = String::from_utf8_lossy(&bytes);
            files.push((rel, normalise(&text).into_owned()));
        }
        Ok(files)
    }
}
