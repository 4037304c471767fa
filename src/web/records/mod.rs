//! Game records in the browser (打谱): open a record (uploaded, or from the `--records`
//! library folder), replay it with its variations and comments, try one's own moves as new
//! variations (推演), delete a variation, print it and download it in its game's formats.
//!
//! Uploaded records are kept in memory only, bounded by count and bytes (the oldest go
//! first), with the learner's variations in them: the server keeps the edits, so a record's
//! address (`/records/{id}?at=12-1-3`) shows the same tree to anyone who has it. A record of
//! the library is read from its file on every request; the first edit copies it into memory
//! under a new id. Every place in the tree is a link ([`Path`]'s spelling in `?at=`), so the
//! pages work without JavaScript; `static/record.js` adds the keyboard and swaps the page
//! in place.

use super::games::{download, record_formats};
use super::i18n::{fill, RecordUi, Ui};
use super::kit::{enc, respond, Chrome, Req};
use super::AppState;
use crate::content::{Action as Click, Game};
use crate::lang::Lang;
use crate::play::table::side_names;
use crate::play::{Finish, Reason, Side};
use crate::record::library::Library;
use crate::record::path::{Branch, Path as At};
use crate::record::{self, Format, Record, RecordError, Step};
use crate::render::go::{svg as go_svg, GoDiagram};
use crate::render::Marks;
use crate::rules::go;
use askama::Template;
use axum::extract::{FromRequest, Multipart, Path, Request, State};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Redirect, Response};
use axum::routing::{get, post};
use axum::Form;
use axum::Router;
use serde::Deserialize;
use std::collections::{HashMap, VecDeque};
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

mod drawing;
mod owners;
mod printing;
mod uploads;
mod view;

pub use crate::content::drawing::go_marks;
use printing::print;
use uploads::{list, upload};
use view::{delete, download_record, page, try_move};

/// The routes of game records (打谱): upload, library, replay, 推演, print, download.
pub(super) fn routes() -> Router<AppState> {
    Router::new()
        .route(
            "/records",
            get(list)
                .post(upload)
                .layer(axum::extract::DefaultBodyLimit::max(UPLOAD_BODY_LIMIT)),
        )
        .route("/records/{id}", get(page))
        .route("/records/{id}/moves", post(try_move).layer(record_forms()))
        .route("/records/{id}/delete", post(delete).layer(record_forms()))
        .route("/records/{id}/download", get(download_record))
        .route("/records/{id}/print", get(print))
}

/// The body limit of the record forms (a move, a place).
fn record_forms() -> axum::extract::DefaultBodyLimit {
    axum::extract::DefaultBodyLimit::max(FORM_BODY_LIMIT)
}

/// The largest record a learner may upload (1 MiB).
pub const UPLOAD_LIMIT: usize = 1 << 20;
/// The largest body `POST /records` reads: the record, the form around it, and room to tell
/// a learner whose file is somewhat too large why it was refused.
pub const UPLOAD_BODY_LIMIT: usize = 2 * UPLOAD_LIMIT + (64 << 10);
/// The largest body of the other forms (a move, a place).
pub const FORM_BODY_LIMIT: usize = 8 << 10;

/// How many records, and how many bytes of them, the server keeps in memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RecordLimits {
    /// Records kept; the oldest goes when a new one comes.
    pub count: usize,
    /// Bytes of records kept (as [`weight`] counts them).
    pub bytes: usize,
    /// Moves a learner may add to one record.
    pub tried: usize,
    /// Bytes one upload's records may take once read (as [`weight`] counts them); over it,
    /// the upload is refused with 413.
    pub upload_memory: usize,
}

impl Default for RecordLimits {
    fn default() -> RecordLimits {
        RecordLimits {
            count: 256,
            bytes: 128 << 20,
            tried: 2000,
            upload_memory: RECORD_MEMORY_LIMIT,
        }
    }
}

/// One record file held in memory: its name, its games (with the learner's variations) and
/// what it weighs.
#[derive(Debug)]
struct Held {
    name: String,
    games: Vec<Record>,
    weight: usize,
    tried: usize,
    /// The variations viewers added, which only they may delete.
    owned: Vec<owners::Owned>,
}

#[derive(Debug, Default)]
struct Shelf {
    held: HashMap<String, Arc<Mutex<Held>>>,
    order: VecDeque<String>,
    bytes: usize,
}

/// The records of a server: those opened by learners, in memory, and the library folder.
#[derive(Debug, Default)]
pub struct Records {
    shelf: Mutex<Shelf>,
    library: Option<Library>,
    limits: RecordLimits,
}

/// The most memory one upload's records may take once read (as [`weight`] counts it), by
/// default ([`RecordLimits::upload_memory`]): a record over it is refused with 413, whatever
/// its size on disk.
pub const RECORD_MEMORY_LIMIT: usize = 64 << 20;

/// The heap bytes of one allocation of `n` bytes, as a general-purpose allocator hands them
/// out: nothing for none, else the bytes and a word of bookkeeping rounded up to 16, at
/// least 32.
fn allocation(n: usize) -> usize {
    if n == 0 {
        0
    } else {
        (n + 8).next_multiple_of(16).max(32)
    }
}

/// The heap bytes of a vector's buffer (not of what its items hold).
fn buffer_bytes<T>(v: &Vec<T>) -> usize {
    allocation(v.capacity() * std::mem::size_of::<T>())
}

/// How many bytes `records` hold in memory: each [`Record`], and every buffer of every
/// line, step, move name, comment, NAG list, markup and tag, by its capacity and with the
/// allocator's overhead (see [`allocation`]). Walks the tree with a stack of lines, not
/// recursion.
pub fn weight(records: &[Record]) -> usize {
    let text = |s: &String| allocation(s.capacity());
    let mut total = 0usize;
    for r in records {
        let tags = &r.tags;
        total += std::mem::size_of::<Record>()
            + text(&r.comment)
            + buffer_bytes(&r.root_markup)
            + r.root_markup.iter().map(text).sum::<usize>()
            + buffer_bytes(&r.notes)
            + r.notes.iter().map(text).sum::<usize>()
            + [
                &tags.first_player,
                &tags.second_player,
                &tags.event,
                &tags.date,
            ]
            .iter()
            .map(|t| t.as_ref().map_or(0, text))
            .sum::<usize>()
            + buffer_bytes(&tags.extra)
            + tags
                .extra
                .iter()
                .map(|(k, v)| text(k) + text(v))
                .sum::<usize>();
        if let Some(setup) = &r.setup {
            total += buffer_bytes(&setup.black)
                + buffer_bytes(&setup.white)
                + setup
                    .black
                    .iter()
                    .chain(&setup.white)
                    .map(text)
                    .sum::<usize>();
        }
        let mut lines: Vec<&Vec<Step>> = vec![&r.moves];
        while let Some(line) = lines.pop() {
            total += buffer_bytes(line);
            for s in line {
                total += text(&s.mv)
                    + text(&s.comment)
                    + buffer_bytes(&s.nags)
                    + buffer_bytes(&s.markup)
                    + s.markup.iter().map(text).sum::<usize>()
                    + buffer_bytes(&s.variations);
                lines.extend(&s.variations);
            }
        }
    }
    total
}

/// How many steps a tree holds, in every line (a stack of lines, not recursion).
fn step_count(line: &[Step]) -> usize {
    let mut count = 0;
    let mut lines = vec![line];
    while let Some(line) = lines.pop() {
        count += line.len();
        for s in line {
            lines.extend(s.variations.iter().map(Vec::as_slice));
        }
    }
    count
}

/// The letters of record ids (as the lobby's codes: nothing read two ways).
const ID_LETTERS: &[u8] = b"23456789abcdefghjkmnpqrstuvwxyz";
/// Letters in an uploaded record's id: 31¹⁰ ids, not to be guessed.
const ID_LENGTH: usize = 10;
/// Library records' ids start so: `lib-` and a hash of the file's path.
const LIBRARY_PREFIX: &str = "lib-";

fn new_id() -> String {
    let mut bytes = [0u8; ID_LENGTH];
    if getrandom::fill(&mut bytes).is_err() {
        let t = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos())
            .unwrap_or(0) as u64;
        for (i, b) in bytes.iter_mut().enumerate() {
            *b = (t >> (i * 6) ^ t.rotate_left(i as u32 * 7)) as u8;
        }
    }
    bytes
        .iter()
        .map(|b| ID_LETTERS[*b as usize % ID_LETTERS.len()] as char)
        .collect()
}

/// The id of the library file `path`: `lib-` and its FNV-1a hash.
pub fn library_id(path: &str) -> String {
    let hash = path.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ b as u64).wrapping_mul(0x0100_0000_01b3)
    });
    format!("{LIBRARY_PREFIX}{hash:016x}")
}

/// Why a record page cannot show what was asked.
#[derive(Clone, Debug, PartialEq)]
pub enum RecordsError {
    /// No record has this id.
    NotFound(String),
    /// The upload is over [`UPLOAD_LIMIT`].
    TooLarge,
    /// The upload's records take more than this many bytes ([`RecordLimits::upload_memory`])
    /// once read.
    TooMuchMemory(usize),
    /// The reader of the upload stopped (a panic on its thread).
    ReaderStopped,
    /// The upload was cut off or is not a form.
    BadUpload,
    /// Neither a file nor text was sent.
    NoFile,
    /// The record cannot be read.
    Unreadable(RecordError),
    /// The move is refused by the rules.
    Illegal {
        /// The move as typed.
        mv: String,
        /// Why, in the learner's language.
        reason: String,
    },
    /// The learner has added [`RecordLimits::tried`] moves to this record.
    TooMany(usize),
    /// Deleting the main line.
    MainLine,
    /// Deleting a variation the viewer did not add (the record's own, or another's).
    NotYours,
    /// The place asked for is not in the record.
    NoPlace,
}

impl RecordsError {
    /// The error in `lang`.
    pub fn explain(&self, lang: Lang) -> String {
        let ui = &Ui::get(lang).record;
        match self {
            RecordsError::NotFound(id) => fill(&ui.not_found, &[("id", id)]),
            RecordsError::TooLarge => fill(
                &ui.too_large,
                &[("limit", &format!("{} MiB", UPLOAD_LIMIT >> 20))],
            ),
            RecordsError::TooMuchMemory(limit) => fill(
                &ui.too_much_memory,
                &[("limit", &format!("{} MiB", limit >> 20))],
            ),
            RecordsError::ReaderStopped => ui.reader_stopped.clone(),
            RecordsError::Unreadable(RecordError::TooLong { place }) => fill(
                &ui.too_long,
                &[("place", place), ("limit", &record::MAX_PLIES.to_string())],
            ),
            RecordsError::Unreadable(RecordError::TooManyMoves { place }) => fill(
                &ui.too_many_moves,
                &[("place", place), ("limit", &record::MAX_MOVES.to_string())],
            ),
            RecordsError::Unreadable(RecordError::TooDeep { place }) => fill(
                &ui.too_deep,
                &[
                    ("place", place),
                    ("limit", &record::MAX_NESTING.to_string()),
                ],
            ),
            RecordsError::BadUpload => ui.bad_upload.clone(),
            RecordsError::NoFile => ui.no_file.clone(),
            RecordsError::Unreadable(RecordError::UnknownFormat { .. }) => {
                ui.unknown_format.clone()
            }
            RecordsError::Unreadable(RecordError::Variant { place, variant }) => fill(
                &ui.unreadable,
                &[(
                    "reason",
                    &fill(
                        &Ui::get(lang).polish.variant,
                        &[("place", place), ("variant", variant)],
                    ),
                )],
            ),
            RecordsError::Unreadable(e) => fill(&ui.unreadable, &[("reason", &e.to_string())]),
            RecordsError::Illegal { mv, reason } => {
                fill(&ui.illegal, &[("move", mv), ("reason", reason)])
            }
            RecordsError::TooMany(n) => fill(&ui.too_many, &[("n", &n.to_string())]),
            RecordsError::MainLine => ui.main_line.clone(),
            RecordsError::NotYours => Ui::get(lang).polish.not_yours.clone(),
            RecordsError::NoPlace => ui.no_place.clone(),
        }
    }

    fn status(&self) -> StatusCode {
        match self {
            RecordsError::NotFound(_) => StatusCode::NOT_FOUND,
            RecordsError::TooLarge | RecordsError::TooMuchMemory(_) => {
                StatusCode::PAYLOAD_TOO_LARGE
            }
            RecordsError::Unreadable(RecordError::TooLong { .. })
            | RecordsError::Unreadable(RecordError::TooManyMoves { .. }) => {
                StatusCode::PAYLOAD_TOO_LARGE
            }
            RecordsError::ReaderStopped => StatusCode::INTERNAL_SERVER_ERROR,
            RecordsError::BadUpload => StatusCode::BAD_REQUEST,
            RecordsError::NotYours => StatusCode::FORBIDDEN,
            _ => StatusCode::UNPROCESSABLE_ENTITY,
        }
    }
}

/// One game of a record file, opened for a request.
struct Opened {
    name: String,
    games: usize,
    record: Record,
}

impl Records {
    /// Records of learners only, or also the library folder `library`, within `limits`.
    pub fn new(library: Option<PathBuf>, limits: RecordLimits) -> Records {
        Records {
            shelf: Mutex::default(),
            library: library.map(Library::new),
            limits,
        }
    }

    /// The library folder, when there is one.
    pub fn library(&self) -> Option<&Library> {
        self.library.as_ref()
    }

    /// Keeps the games of the file `name` and gives their id; the oldest records go when
    /// there are too many or they weigh too much.
    pub fn keep(&self, name: &str, games: Vec<Record>) -> String {
        let weight = weight(&games) + name.len();
        let id = new_id();
        let held = Held {
            name: name.to_string(),
            games,
            weight,
            tried: 0,
            owned: Vec::new(),
        };
        let mut shelf = self.shelf.lock().unwrap_or_else(|e| e.into_inner());
        shelf.bytes += weight;
        shelf.order.push_back(id.clone());
        shelf.held.insert(id.clone(), Arc::new(Mutex::new(held)));
        self.trim(&mut shelf, &id);
        id
    }

    /// Drops the oldest records (never `keep`) while over the limits.
    fn trim(&self, shelf: &mut Shelf, keep: &str) {
        while shelf.order.len() > self.limits.count
            || (shelf.bytes > self.limits.bytes && shelf.order.len() > 1)
        {
            let Some(oldest) = shelf.order.pop_front() else {
                break;
            };
            if oldest == keep {
                shelf.order.push_back(oldest);
                if shelf.order.len() == 1 {
                    break;
                }
                continue;
            }
            if let Some(h) = shelf.held.remove(&oldest) {
                shelf.bytes -= h.lock().unwrap_or_else(|e| e.into_inner()).weight;
            }
        }
    }

    /// How many records are kept in memory, and their bytes.
    pub fn kept(&self) -> (usize, usize) {
        let shelf = self.shelf.lock().unwrap_or_else(|e| e.into_inner());
        (shelf.order.len(), shelf.bytes)
    }

    fn held(&self, id: &str) -> Option<Arc<Mutex<Held>>> {
        let shelf = self.shelf.lock().unwrap_or_else(|e| e.into_inner());
        shelf.held.get(id).cloned()
    }

    /// The library file whose id is `id`, with every game read.
    fn library_file(&self, id: &str) -> Result<(String, Vec<Record>), RecordsError> {
        let missing = || RecordsError::NotFound(id.to_string());
        let library = self.library.as_ref().ok_or_else(missing)?;
        let entries = library.list().map_err(|_| missing())?;
        let entry = entries
            .iter()
            .find(|e| library_id(&e.path) == id)
            .ok_or_else(missing)?;
        let full = library.file(&entry.path).ok_or_else(missing)?;
        let bytes = std::fs::read(full).map_err(|_| missing())?;
        let games = record::read(&entry.path, &bytes).map_err(RecordsError::Unreadable)?;
        Ok((entry.path.clone(), games))
    }

    /// Game `game` (from 1; the first when out of range) of the record `id`.
    fn open(&self, id: &str, game: usize) -> Result<Opened, RecordsError> {
        if let Some(held) = self.held(id) {
            let held = held.lock().unwrap_or_else(|e| e.into_inner());
            let index = game.clamp(1, held.games.len().max(1)) - 1;
            let record = held
                .games
                .get(index)
                .cloned()
                .ok_or_else(|| RecordsError::NotFound(id.to_string()))?;
            return Ok(Opened {
                name: held.name.clone(),
                games: held.games.len(),
                record,
            });
        }
        if !id.starts_with(LIBRARY_PREFIX) {
            return Err(RecordsError::NotFound(id.to_string()));
        }
        let (name, mut games) = self.library_file(id)?;
        let count = games.len();
        let index = game.clamp(1, count.max(1)) - 1;
        Ok(Opened {
            name,
            games: count,
            record: games.swap_remove(index),
        })
    }

    /// Whether `viewer` added the variation `branches` of game `game` of the record `id`.
    fn owns(
        &self,
        id: &str,
        game: usize,
        viewer: &str,
        branches: &[crate::record::path::Branch],
    ) -> bool {
        let Some(held) = self.held(id) else {
            return false;
        };
        let h = held.lock().unwrap_or_else(|e| e.into_inner());
        let index = game.clamp(1, h.games.len().max(1)) - 1;
        owners::owns(&h.owned, index, viewer, branches)
    }

    /// Changes game `game` of the record `id` by `change` (which says how many moves it
    /// added): a library record is first copied into memory under a new id. The id the
    /// record now has, and what `change` gave.
    fn edit<T>(
        &self,
        id: &str,
        game: usize,
        change: impl FnOnce(
            &mut Record,
            &mut Vec<owners::Owned>,
            usize,
        ) -> Result<(T, usize), RecordsError>,
    ) -> Result<(String, T), RecordsError> {
        let (id, held) = match self.held(id) {
            Some(h) => (id.to_string(), h),
            None if id.starts_with(LIBRARY_PREFIX) => {
                let (name, games) = self.library_file(id)?;
                let new = self.keep(&name, games);
                let held = self
                    .held(&new)
                    .ok_or_else(|| RecordsError::NotFound(new.clone()))?;
                (new, held)
            }
            None => return Err(RecordsError::NotFound(id.to_string())),
        };
        let mut h = held.lock().unwrap_or_else(|e| e.into_inner());
        if h.tried >= self.limits.tried {
            return Err(RecordsError::TooMany(h.tried));
        }
        let index = game.clamp(1, h.games.len().max(1)) - 1;
        let Held { games, owned, .. } = &mut *h;
        let record = games
            .get_mut(index)
            .ok_or_else(|| RecordsError::NotFound(id.clone()))?;
        let (out, added) = change(record, owned, index)?;
        h.tried += added;
        let before = h.weight;
        h.weight = weight(&h.games) + h.name.len();
        let after = h.weight;
        drop(h);
        let mut shelf = self.shelf.lock().unwrap_or_else(|e| e.into_inner());
        shelf.bytes = (shelf.bytes + after).saturating_sub(before);
        self.trim(&mut shelf, &id);
        Ok((id, out))
    }
}

/// The address of one game of a record, with a place and other query parts.
struct Here<'a> {
    id: &'a str,
    game: usize,
}

impl Here<'_> {
    fn base(&self) -> String {
        format!("/records/{}", self.id)
    }

    fn href(&self, at: &At, extra: &[(&str, &str)]) -> String {
        let mut q = Vec::new();
        if self.game > 1 {
            q.push(format!("game={}", self.game));
        }
        if !at.is_start() {
            q.push(format!("at={at}"));
        }
        for (k, v) in extra {
            q.push(format!("{k}={}", enc(v)));
        }
        if q.is_empty() {
            self.base()
        } else {
            format!("{}?{}", self.base(), q.join("&"))
        }
    }

    fn sub(&self, what: &str, extra: &[(&str, String)]) -> String {
        let mut q: Vec<String> = extra
            .iter()
            .map(|(k, v)| format!("{k}={}", enc(v)))
            .collect();
        if self.game > 1 {
            q.insert(0, format!("game={}", self.game));
        }
        let base = format!("{}/{what}", self.base());
        if q.is_empty() {
            base
        } else {
            format!("{base}?{}", q.join("&"))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::content::drawing::chess_marks;

    #[test]
    fn reads_sgf_markup_with_rectangles_and_labels() {
        let m = go_marks(
            &["TR[aa][cc]".into(), "SQ[aa:bb]".into(), "LB[dd:A]".into()],
            9,
        );
        assert_eq!(m.triangles, [go::Point::new(0, 0), go::Point::new(2, 2)]);
        assert_eq!(m.squares.len(), 4);
        assert_eq!(m.labels, [("A".to_string(), go::Point::new(3, 3))]);
        assert!(go_marks(&["TR[zz]".into()], 9).is_empty());
    }

    #[test]
    fn chess_comment_commands_become_marks() {
        let (m, text) = chess_marks("Good. [%csl Gd4,Re5][%cal Ge2e4] Next");
        assert_eq!(m.highlight.len(), 2);
        assert_eq!(m.arrows.len(), 1);
        assert_eq!(text, "Good. Next");
        // Squares written in other scripts are passed over, not cut in two.
        let (m, _) = chess_marks("[%cal Gaéb][%csl é]");
        assert!(m.arrows.is_empty() && m.highlight.is_empty());
    }

    #[test]
    fn the_oldest_record_goes_first() {
        let records = Records::new(
            None,
            RecordLimits {
                count: 2,
                ..RecordLimits::default()
            },
        );
        let r = Record::new(crate::play::Start::Chess(crate::base::chess::Start {
            fen: crate::rules::chess::Position::start().fen(),
        }));
        let a = records.keep("a.pgn", vec![r.clone()]);
        let b = records.keep("b.pgn", vec![r.clone()]);
        let c = records.keep("c.pgn", vec![r]);
        assert!(records.open(&a, 1).is_err());
        assert!(records.open(&b, 1).is_ok() && records.open(&c, 1).is_ok());
        assert_eq!(records.kept().0, 2);
    }
}
