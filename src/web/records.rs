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
use crate::content::board_game::{self, PieceGame, Target};
use crate::content::{chess::Chess, shogi::Shogi, Action as Click, BoardMarks, Game};
use crate::lang::Lang;
use crate::play::table::side_names;
use crate::play::{Finish, Reason, Side};
use crate::record::library::Library;
use crate::record::path::{Branch, Path as At};
use crate::record::{self, Board, Format, Record, RecordError, Step};
use crate::render::go::{svg as go_svg, GoDiagram};
use crate::render::Marks;
use crate::rules::{go, Rules};
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
            RecordsError::Unreadable(e) => fill(&ui.unreadable, &[("reason", &e.to_string())]),
            RecordsError::Illegal { mv, reason } => {
                fill(&ui.illegal, &[("move", mv), ("reason", reason)])
            }
            RecordsError::TooMany(n) => fill(&ui.too_many, &[("n", &n.to_string())]),
            RecordsError::MainLine => ui.main_line.clone(),
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

    /// Changes game `game` of the record `id` by `change` (which says how many moves it
    /// added): a library record is first copied into memory under a new id. The id the
    /// record now has, and what `change` gave.
    fn edit<T>(
        &self,
        id: &str,
        game: usize,
        change: impl FnOnce(&mut Record) -> Result<(T, usize), RecordsError>,
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
        let record = h
            .games
            .get_mut(index)
            .ok_or_else(|| RecordsError::NotFound(id.clone()))?;
        let (out, added) = change(record)?;
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

// ---------------------------------------------------------------- replaying

/// A position and the move that led to it, drawn.
struct Shown {
    board: Board,
    /// The position before the last move, and the last move's name.
    last: Option<(Board, String)>,
}

/// Plays `moves` from the record's start.
fn replay(record: &Record, moves: &[String]) -> Result<Shown, String> {
    let mut board = Board::at_start(&record.start, record.setup.as_ref(), "record")
        .map_err(|e| e.to_string())?;
    let mut last = None;
    for m in moves {
        let (next, _) = board.play(m)?;
        last = Some((board, m.clone()));
        board = next;
    }
    Ok(Shown { board, last })
}

/// Plays `mv` on `board`: the next position and the move as learners read it.
fn play_noted(board: &Board, mv: &str) -> Option<(Board, String)> {
    fn step<P: Rules>(pos: &P, mv: &str) -> Option<(P, String)> {
        let (next, played) = pos.play(mv).ok()?;
        let text = pos.notation(&played);
        Some((next, text))
    }
    match board {
        Board::Go(p) => step(p, mv).map(|(n, t)| (Board::Go(n), t)),
        Board::Chess(p) => step(p, mv).map(|(n, t)| (Board::Chess(n), t)),
        Board::Shogi(p) => step(p, mv).map(|(n, t)| (Board::Shogi(n), t)),
    }
}

/// The SGF point `dd` on a board of `size`.
fn sgf_point(text: &str, size: u8) -> Option<go::Point> {
    let b = text.as_bytes();
    if b.len() != 2 || !b[0].is_ascii_lowercase() || !b[1].is_ascii_lowercase() {
        return None;
    }
    let (col, row) = (b[0] - b'a', b[1] - b'a');
    (col < size && row < size).then(|| go::Point::new(col, row))
}

/// The marks of SGF markup (`TR[dd][ee]`, `SQ`, `CR`, `MA`, `LB[dd:A]`, point lists as
/// `aa:cc` rectangles); other properties are passed over.
pub fn go_marks(markup: &[String], size: u8) -> Marks<go::Point> {
    let mut marks = Marks::default();
    for prop in markup {
        let Some(open) = prop.find('[') else { continue };
        let name = &prop[..open];
        let values = prop[open..]
            .split(']')
            .filter_map(|v| v.strip_prefix('['))
            .map(|v| v.trim());
        for value in values {
            if name == "LB" {
                if let Some((at, text)) = value.split_once(':') {
                    if let Some(p) = sgf_point(at, size) {
                        marks.labels.push((text.chars().take(4).collect(), p));
                    }
                }
                continue;
            }
            let points: Vec<go::Point> = match value.split_once(':') {
                Some((a, b)) => match (sgf_point(a, size), sgf_point(b, size)) {
                    (Some(a), Some(b)) => (a.row.min(b.row)..=a.row.max(b.row))
                        .flat_map(|r| {
                            (a.col.min(b.col)..=a.col.max(b.col)).map(move |c| go::Point::new(c, r))
                        })
                        .collect(),
                    _ => Vec::new(),
                },
                None => sgf_point(value, size).into_iter().collect(),
            };
            match name {
                "TR" => marks.triangles.extend(points),
                "SQ" => marks.squares.extend(points),
                "CR" => marks.circles.extend(points),
                "MA" => marks.crosses.extend(points),
                _ => {}
            }
        }
    }
    marks
}

/// A chess comment's drawing commands (`[%csl Gd4,Re5]` squares, `[%cal Ge2e4]` arrows, as
/// lichess and ChessBase write them) and the comment without them.
fn chess_marks(comment: &str) -> (BoardMarks, String) {
    let mut marks = BoardMarks::default();
    let mut text = String::new();
    let mut rest = comment;
    while let Some(start) = rest.find("[%") {
        text.push_str(&rest[..start]);
        let Some(end) = rest[start..].find(']') else {
            rest = &rest[start..];
            break;
        };
        let command = &rest[start + 2..start + end];
        let (name, args) = command.split_once(' ').unwrap_or((command, ""));
        for arg in args.split(',').map(str::trim) {
            let squares = arg.get(1..).unwrap_or("");
            match name {
                "csl" => marks.highlight.extend(Chess::parse_square(squares)),
                "cal" => {
                    let from = squares.get(..2).and_then(Chess::parse_square);
                    let to = squares.get(2..).and_then(Chess::parse_square);
                    if let (Some(a), Some(b)) = (from, to) {
                        marks.arrows.push((a, b));
                    }
                }
                _ => {}
            }
        }
        rest = &rest[start + end + 1..];
    }
    text.push_str(rest);
    (marks, text.split_whitespace().collect::<Vec<_>>().join(" "))
}

/// What a board is drawn with.
struct Drawing<'a> {
    markup: &'a [String],
    chess: BoardMarks,
    link: Option<&'a dyn Fn(Click) -> String>,
    selected: Option<&'a str>,
    labels: Vec<(String, go::Point)>,
    lang: Lang,
    title: &'a str,
}

fn draw_pieces<G: PieceGame>(
    pos: &G::Pos,
    last: Option<(Option<(u8, u8)>, (u8, u8))>,
    d: &Drawing,
    marks: BoardMarks,
) -> String {
    let selected = d.selected.map(board_game::target);
    let link = d.link.map(|href| {
        let selected = selected.clone();
        move |t: Target| href(board_game::action::<G>(pos, selected.as_ref(), t))
    });
    let none = BoardMarks::default();
    board_game::draw_position::<G>(
        pos,
        marks,
        &board_game::View {
            flipped: false,
            zones: false,
            last,
            marks: &none,
            selected: selected.as_ref(),
            link: link.as_ref().map(|l| l as &dyn Fn(Target) -> String),
            lang: d.lang,
            title: d.title,
        },
    )
}

/// Draws a shown position.
fn draw(shown: &Shown, d: Drawing) -> String {
    let last = shown.last.as_ref().and_then(|(before, mv)| match before {
        Board::Go(p) => p.play(mv).ok().map(|(_, m)| Played::Go(m)),
        Board::Chess(p) => p
            .play(mv)
            .ok()
            .map(|(_, m)| Played::Chess(Chess::squares(&m))),
        Board::Shogi(p) => p
            .play(mv)
            .ok()
            .map(|(_, m)| Played::Shogi(Shogi::squares(&m))),
    });
    match &shown.board {
        Board::Go(pos) => {
            let size = pos.size();
            let mut marks = go_marks(d.markup, size);
            marks.labels.extend(d.labels.iter().cloned());
            let link = d
                .link
                .map(|href| move |p: go::Point| href(Click::Play(p.name(size))));
            go_svg(&GoDiagram {
                board: pos.board(),
                view: None,
                last_move: match last {
                    Some(Played::Go(go::Move::Play(p))) => Some(p),
                    _ => None,
                },
                marks: &marks,
                liberties: &[],
                selected: &[],
                link: link.as_ref().map(|l| l as &dyn Fn(go::Point) -> String),
                lang: d.lang,
                title: d.title,
            })
        }
        Board::Chess(pos) => {
            let squares = match last {
                Some(Played::Chess(s)) => Some(s),
                _ => None,
            };
            let marks = BoardMarks {
                highlight: d.chess.highlight.clone(),
                arrows: d.chess.arrows.clone(),
                ..BoardMarks::default()
            };
            draw_pieces::<Chess>(pos, squares, &d, marks)
        }
        Board::Shogi(pos) => {
            let squares = match last {
                Some(Played::Shogi(s)) => Some(s),
                _ => None,
            };
            draw_pieces::<Shogi>(pos, squares, &d, BoardMarks::default())
        }
    }
}

/// The last move as a drawing needs it.
enum Played {
    Go(go::Move),
    Chess((Option<(u8, u8)>, (u8, u8))),
    Shogi((Option<(u8, u8)>, (u8, u8))),
}

// ---------------------------------------------------------------- pages

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

/// One item of the move tree: a move, or the start or end of a variation.
struct TreeItem {
    /// `move`, `open` or `close`.
    kind: &'static str,
    href: String,
    text: String,
    current: bool,
    /// The item's depth of variations (0 on the main line).
    depth: usize,
}

/// A move's text in the tree: `12 D4`, `3. e4` / `3… e5`, `7 ▲7六歩`.
fn move_text(game: Game, ply: usize, first_to_move: Side, notation: &str) -> String {
    match game {
        Game::Chess => {
            let offset = usize::from(first_to_move == Side::Second);
            let n = (ply + offset).div_ceil(2);
            if (ply + offset) % 2 == 1 {
                format!("{n}. {notation}")
            } else {
                format!("{n}… {notation}")
            }
        }
        _ => format!("{ply} {notation}"),
    }
}

/// The whole tree as a list: each line's moves, each step's variations after it in
/// brackets.
fn tree(record: &Record, here: &Here, current: &At) -> Vec<TreeItem> {
    #[allow(clippy::too_many_arguments)]
    fn walk(
        game: Game,
        first: Side,
        line: &[Step],
        mut board: Board,
        branches: &[Branch],
        ply: usize,
        here: &Here,
        current: &At,
        out: &mut Vec<TreeItem>,
    ) {
        for (i, step) in line.iter().enumerate() {
            let Some((next, notation)) = play_noted(&board, &step.mv) else {
                return;
            };
            let at = At {
                branches: branches.to_vec(),
                moves: i + 1,
            };
            out.push(TreeItem {
                kind: "move",
                href: here.href(&at, &[]),
                text: move_text(game, ply + i + 1, first, &notation),
                current: &at == current,
                depth: branches.len(),
            });
            for (v, variation) in step.variations.iter().enumerate() {
                out.push(TreeItem {
                    kind: "open",
                    href: String::new(),
                    text: String::new(),
                    current: false,
                    depth: branches.len() + 1,
                });
                let mut inner = branches.to_vec();
                inner.push(Branch {
                    at: i,
                    variation: v,
                });
                walk(
                    game,
                    first,
                    variation,
                    board.clone(),
                    &inner,
                    ply + i,
                    here,
                    current,
                    out,
                );
                out.push(TreeItem {
                    kind: "close",
                    href: String::new(),
                    text: String::new(),
                    current: false,
                    depth: branches.len() + 1,
                });
            }
            board = next;
        }
    }
    let mut out = Vec::new();
    let Ok(board) = Board::at_start(&record.start, record.setup.as_ref(), "record") else {
        return out;
    };
    walk(
        record.start.game(),
        record.first_to_move(),
        &record.moves,
        board,
        &[],
        0,
        here,
        current,
        &mut out,
    );
    out
}

/// A link of the replay controls.
struct NavLink {
    href: String,
    rel: &'static str,
    key: &'static str,
    title: String,
    here: bool,
}

/// A download or other link.
struct Link {
    href: String,
    title: String,
}

/// A move to choose (a promotion).
struct Choice {
    mv: String,
    label: String,
}

/// How a finished game ended, in `lang`.
fn result_text(game: Game, finish: &Finish, lang: Lang) -> String {
    let ui = &Ui::get(lang).record;
    let (zh, en) = side_names(game);
    let names = if lang == Lang::Zh { zh } else { en };
    let Some(winner) = finish.winner else {
        return ui.draw.clone();
    };
    let won = fill(&ui.wins, &[("side", names[winner.index()])]);
    let how = match finish.reason {
        Reason::Count { points } => fill(&ui.by_points, &[("points", &points.to_string())]),
        Reason::Resignation => ui.by_resignation.clone(),
        Reason::Timeout => ui.on_time.clone(),
        _ => String::new(),
    };
    if how.is_empty() {
        won
    } else if lang == Lang::Zh && matches!(finish.reason, Reason::Count { .. }) {
        format!("{}{how}", won)
    } else {
        format!("{won} {how}")
    }
}

/// The tags shown above a record: the players by side, event, date, result.
fn tag_lines(record: &Record, lang: Lang) -> Vec<(String, String)> {
    let ui = &Ui::get(lang).record;
    let game = record.start.game();
    let (zh, en) = side_names(game);
    let names = if lang == Lang::Zh { zh } else { en };
    let mut out = Vec::new();
    for (side, who) in [&record.tags.first_player, &record.tags.second_player]
        .into_iter()
        .enumerate()
    {
        if let Some(who) = who {
            out.push((names[side].to_string(), who.clone()));
        }
    }
    if let Some(e) = &record.tags.event {
        out.push((ui.event.clone(), e.clone()));
    }
    if let Some(d) = &record.tags.date {
        out.push((ui.date.clone(), d.clone()));
    }
    if let Some(f) = &record.tags.result {
        out.push((ui.result.clone(), result_text(game, f, lang)));
    }
    out
}

/// `Black 古力 – White 李世石`, or the file's name when the record names no player.
fn heading(record: &Record, name: &str) -> String {
    match (&record.tags.first_player, &record.tags.second_player) {
        (None, None) => name.to_string(),
        (a, b) => format!(
            "{} – {}",
            a.as_deref().unwrap_or("?"),
            b.as_deref().unwrap_or("?")
        ),
    }
}

#[derive(Template)]
#[template(path = "record.html")]
struct RecordPage<'a> {
    chrome: Chrome,
    ui: &'a RecordUi,
    id: String,
    game: usize,
    at: String,
    heading: String,
    name: String,
    tags: Vec<(String, String)>,
    games: Vec<NavLink>,
    board: String,
    at_text: String,
    nav: Vec<NavLink>,
    comment: String,
    refused: String,
    confirm: Option<Choice>,
    choices: Vec<Choice>,
    cancel_href: String,
    action: String,
    delete_action: String,
    can_delete: bool,
    example: String,
    tree: Vec<TreeItem>,
    downloads: Vec<Link>,
    print_href: String,
    notes: Vec<String>,
}

/// What a record page is asked to show.
struct Ask {
    at: At,
    sel: Option<String>,
    to: Option<String>,
    try_move: Option<String>,
    refused: Option<String>,
}

fn example_move(game: Game) -> &'static str {
    match game {
        Game::Go => "D4, pass",
        Game::Chess => "e4, Nf3, e7e8q",
        Game::Shogi => "7g7f, P*5e, 8h2b+",
    }
}

fn render_record(
    req: &Req,
    state: &AppState,
    id: &str,
    game: usize,
    opened: &Opened,
    ask: &Ask,
) -> Result<String, askama::Error> {
    let lang = req.lang;
    let ui = &req.ui().record;
    let record = &opened.record;
    let g = record.start.game();
    let here = Here { id, game };
    let at = &ask.at;
    let moves = record.moves_to(at).unwrap_or_default();
    let shown = replay(record, &moves).map_err(|e| askama::Error::Custom(e.into()))?;
    let step = record.step_at(at);
    let (markup, raw_comment): (&[String], &str) = match step {
        Some(s) => (&s.markup, &s.comment),
        None => (&record.root_markup, &record.comment),
    };
    let (chess, comment) = if g == Game::Chess {
        chess_marks(raw_comment)
    } else {
        (BoardMarks::default(), raw_comment.to_string())
    };
    let href = |c: Click| -> String {
        match c {
            Click::Play(m) => here.href(at, &[("try", &m)]),
            Click::Select(Some(s)) => here.href(at, &[("sel", &s)]),
            Click::Select(None) => here.href(at, &[]),
            Click::Choose { from, to } => here.href(at, &[("sel", &from), ("to", &to)]),
        }
    };
    let title = heading(record, &opened.name);
    let board = draw(
        &shown,
        Drawing {
            markup,
            chess,
            link: Some(&href),
            selected: ask.sel.as_deref(),
            labels: Vec::new(),
            lang,
            title: &title,
        },
    );
    let (alternatives, which) = record.alternatives(at);
    let nav_link = |to: &At, rel, key, title: &str| NavLink {
        href: here.href(to, &[]),
        rel,
        key,
        title: title.to_string(),
        here: to == at,
    };
    let mut nav = vec![
        nav_link(&At::start(), "first", "Home", &format!("« {}", ui.first)),
        nav_link(
            &record.previous(at),
            "prev",
            "ArrowLeft",
            &format!("◀ {}", ui.prev),
        ),
        nav_link(
            &record.next(at),
            "next",
            "ArrowRight",
            &format!("{} ▶", ui.next),
        ),
        nav_link(
            &record.end_of_line(at),
            "last",
            "End",
            &format!("{} »", ui.last),
        ),
    ];
    if alternatives.len() > 1 {
        let up = &alternatives[(which + alternatives.len() - 1) % alternatives.len()];
        let down = &alternatives[(which + 1) % alternatives.len()];
        nav.push(nav_link(up, "up", "ArrowUp", &format!("▲ {}", ui.up)));
        nav.push(nav_link(
            down,
            "down",
            "ArrowDown",
            &format!("▼ {}", ui.down),
        ));
    }
    let mut at_text = if at.is_start() {
        ui.at_start.clone()
    } else {
        fill(&ui.at_move, &[("n", &at.ply().to_string())])
    };
    if alternatives.len() > 1 {
        at_text = format!(
            "{at_text} · {}",
            fill(
                &ui.in_variation,
                &[
                    ("n", &(which + 1).to_string()),
                    ("total", &alternatives.len().to_string())
                ]
            )
        );
    }
    // A promotion: the moves between the two squares chosen.
    let choices = match (&ask.sel, &ask.to) {
        (Some(from), Some(to)) => legal_between(&shown.board, from, to),
        _ => Vec::new(),
    };
    let games = if opened.games > 1 {
        (1..=opened.games)
            .map(|n| NavLink {
                href: Here { id, game: n }.href(&At::start(), &[]),
                rel: "",
                key: "",
                title: fill(&ui.game_n, &[("n", &n.to_string())]),
                here: n == game.clamp(1, opened.games),
            })
            .collect()
    } else {
        Vec::new()
    };
    RecordPage {
        chrome: Chrome::new(req, &state.snapshot(), format!("{title} · {}", ui.title)),
        ui,
        id: id.to_string(),
        game,
        at: at.spelling(),
        heading: title.clone(),
        name: opened.name.clone(),
        tags: tag_lines(record, lang),
        games,
        board,
        at_text,
        nav,
        comment,
        refused: ask.refused.clone().unwrap_or_default(),
        confirm: ask.try_move.clone().map(|m| Choice {
            label: fill(&ui.confirm, &[("move", &m)]),
            mv: m,
        }),
        choices,
        cancel_href: here.href(at, &[]),
        action: here.sub("moves", &[]),
        delete_action: here.sub("delete", &[]),
        can_delete: !at.branches.is_empty(),
        example: fill(&ui.try_example, &[("move", example_move(g))]),
        tree: tree(record, &here, at),
        downloads: record_formats(g)
            .iter()
            .map(|f| Link {
                href: here.sub("download", &[("format", f.extension().to_string())]),
                title: f.as_str().to_string(),
            })
            .collect(),
        print_href: here.sub("print", &[]),
        notes: record.notes.clone(),
    }
    .render()
}

/// The legal moves from square `from` to `to` (a pawn promoting: one a piece).
fn legal_between(board: &Board, from: &str, to: &str) -> Vec<Choice> {
    fn between<G: PieceGame>(pos: &G::Pos, from: &str, to: &str) -> Vec<Choice> {
        let (Some(a), Some(b)) = (G::parse_square(from), G::parse_square(to)) else {
            return Vec::new();
        };
        pos.legal_moves()
            .iter()
            .filter(|m| G::squares(m) == (Some(a), b))
            .map(|m| Choice {
                mv: pos.move_name(m),
                label: pos.notation(m),
            })
            .collect()
    }
    match board {
        Board::Go(_) => Vec::new(),
        Board::Chess(p) => between::<Chess>(p, from, to),
        Board::Shogi(p) => between::<Shogi>(p, from, to),
    }
}

/// `GET /records/{id}?at=&game=`: the replay page.
pub(crate) async fn page(
    State(state): State<AppState>,
    req: Req,
    Path(id): Path<String>,
) -> Response {
    let game = game_param(&req);
    let opened = match open_blocking(&state, &id, game).await {
        Ok(o) => o,
        Err(e) => return list_page(&state, &req, e.status(), &e.explain(req.lang)),
    };
    let asked = req.param("at").unwrap_or("");
    let at = opened.record.place(&asked.parse().unwrap_or_default());
    if asked != at.spelling() {
        let here = Here { id: &id, game };
        return Redirect::to(&here.href(&at, &[])).into_response();
    }
    let short = |k: &str| {
        req.param(k)
            .filter(|v| !v.is_empty() && v.len() <= 16)
            .map(String::from)
    };
    let ask = Ask {
        at,
        sel: short("sel"),
        to: short("to"),
        try_move: short("try"),
        refused: None,
    };
    let html = render_record(&req, &state, &id, game, &opened, &ask);
    respond(&req, StatusCode::OK, html)
}

fn game_param(req: &Req) -> usize {
    req.param("game")
        .and_then(|g| g.parse().ok())
        .unwrap_or(1)
        .max(1)
}

/// The form of a move tried: where, which game, what.
#[derive(Debug, Deserialize)]
pub struct TryForm {
    /// The place, as `?at=` spells it.
    #[serde(default)]
    pub at: String,
    /// The move, in any notation the game reads.
    #[serde(default, rename = "move")]
    pub mv: String,
}

/// `POST /records/{id}/moves`: a move tried from a place, judged by the rules; a new
/// variation (or the record's own move there) is shown, or the page with the reason.
pub(crate) async fn try_move(
    State(state): State<AppState>,
    req: Req,
    Path(id): Path<String>,
    Form(form): Form<TryForm>,
) -> Response {
    let game = game_param(&req);
    let lang = req.lang;
    let mv = form.mv.trim().chars().take(32).collect::<String>();
    let asked: At = form.at.parse().unwrap_or_default();
    let tried = state.records().edit(&id, game, |record| {
        let at = record.place(&asked);
        let moves = record.moves_to(&at).ok_or(RecordsError::NoPlace)?;
        let shown = replay(record, &moves).map_err(|_| RecordsError::NoPlace)?;
        let (_, name) = shown
            .board
            .play_in(&mv, lang)
            .map_err(|reason| RecordsError::Illegal {
                mv: mv.clone(),
                reason,
            })?;
        let before = step_count(&record.moves);
        let to = record.add_move(&at, &name).ok_or(RecordsError::NoPlace)?;
        Ok((to, step_count(&record.moves) - before))
    });
    match tried {
        Ok((new_id, to)) => {
            let here = Here { id: &new_id, game };
            Redirect::to(&here.href(&to, &[])).into_response()
        }
        Err(e) => refused_page(&state, &req, &id, game, &asked, &e),
    }
}

/// The record page at `asked` with `e` said, or the list page when the record is gone.
fn refused_page(
    state: &AppState,
    req: &Req,
    id: &str,
    game: usize,
    asked: &At,
    e: &RecordsError,
) -> Response {
    let opened = match state.records().open(id, game) {
        Ok(o) => o,
        Err(gone) => return list_page(state, req, gone.status(), &gone.explain(req.lang)),
    };
    let ask = Ask {
        at: opened.record.place(asked),
        sel: None,
        to: None,
        try_move: None,
        refused: Some(e.explain(req.lang)),
    };
    let html = render_record(req, state, id, game, &opened, &ask);
    respond(req, e.status(), html)
}

/// The form that deletes a variation: its place.
#[derive(Debug, Deserialize)]
pub struct PlaceForm {
    /// The place, as `?at=` spells it.
    #[serde(default)]
    pub at: String,
}

/// `POST /records/{id}/delete`: deletes the innermost variation of the place, and shows
/// where it branched off.
pub(crate) async fn delete(
    State(state): State<AppState>,
    req: Req,
    Path(id): Path<String>,
    Form(form): Form<PlaceForm>,
) -> Response {
    let game = game_param(&req);
    let asked: At = form.at.parse().unwrap_or_default();
    let deleted = state.records().edit(&id, game, |record| {
        let at = record.place(&asked);
        let back = record.delete_variation(&at).ok_or(RecordsError::MainLine)?;
        Ok((back, 0))
    });
    match deleted {
        Ok((new_id, back)) => {
            let here = Here { id: &new_id, game };
            Redirect::to(&here.href(&back, &[])).into_response()
        }
        Err(e) => refused_page(&state, &req, &id, game, &asked, &e),
    }
}

/// `GET /records/{id}/download?format=&game=`: the game with the learner's variations in
/// one of its game's formats.
pub(crate) async fn download_record(
    State(state): State<AppState>,
    req: Req,
    Path(id): Path<String>,
) -> Response {
    let game = game_param(&req);
    let opened = match open_blocking(&state, &id, game).await {
        Ok(o) => o,
        Err(e) => return (e.status(), e.explain(req.lang)).into_response(),
    };
    let g = opened.record.start.game();
    let asked = req.param("format").unwrap_or("").to_ascii_lowercase();
    let format = record_formats(g)
        .iter()
        .copied()
        .find(|f| f.extension() == asked)
        .unwrap_or(Format::of_game(g));
    let stem: String = opened
        .name
        .rsplit('/')
        .next()
        .unwrap_or("")
        .rsplit_once('.')
        .map_or("", |(s, _)| s)
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
        .take(60)
        .collect();
    let stem = if stem.is_empty() {
        "record".to_string()
    } else {
        stem
    };
    let file = if opened.games > 1 {
        format!("{stem}-{game}.{}", format.extension())
    } else {
        format!("{stem}.{}", format.extension())
    };
    match record::write(&opened.record, format) {
        Ok(text) => download(text, format, &file),
        Err(e) => (StatusCode::UNPROCESSABLE_ENTITY, e.to_string()).into_response(),
    }
}

// ---------------------------------------------------------------- the list and uploads

/// A row of the library list.
struct Row {
    href: String,
    path: String,
    players: String,
    event: String,
    date: String,
    result: String,
    readable: bool,
}

#[derive(Template)]
#[template(path = "record_list.html")]
struct ListPage<'a> {
    chrome: Chrome,
    ui: &'a RecordUi,
    error: String,
    has_library: bool,
    query: String,
    rows: Vec<Row>,
    count: String,
    formats: Vec<Format>,
}

fn list_page(state: &AppState, req: &Req, status: StatusCode, error: &str) -> Response {
    let ui = &req.ui().record;
    let query = req
        .param("q")
        .unwrap_or("")
        .chars()
        .take(100)
        .collect::<String>();
    let q = query.trim().to_lowercase();
    let mut rows = Vec::new();
    let library = state.records().library();
    if let Some(lib) = library {
        let entries = lib.list().unwrap_or_default();
        for e in &entries {
            let id = library_id(&e.path);
            if e.games.is_empty() && q.is_empty() {
                rows.push(Row {
                    href: format!("/records/{id}"),
                    path: e.path.clone(),
                    players: String::new(),
                    event: String::new(),
                    date: String::new(),
                    result: ui.unreadable_file.clone(),
                    readable: false,
                });
            }
            let many = e.games.len() > 1;
            for s in e.games.iter().filter(|s| s.matches(&q)) {
                let here = Here {
                    id: &id,
                    game: s.game,
                };
                rows.push(Row {
                    href: here.href(&At::start(), &[]),
                    path: if many {
                        format!(
                            "{} · {}",
                            e.path,
                            fill(&ui.game_n, &[("n", &s.game.to_string())])
                        )
                    } else {
                        e.path.clone()
                    },
                    players: format!(
                        "{} – {}",
                        s.players[0].as_deref().unwrap_or("?"),
                        s.players[1].as_deref().unwrap_or("?")
                    ),
                    event: s.event.clone().unwrap_or_default(),
                    date: s.date.clone().unwrap_or_default(),
                    result: s.result.clone().unwrap_or_default(),
                    readable: true,
                });
            }
        }
    }
    let html = ListPage {
        chrome: Chrome::new(req, &state.snapshot(), ui.title.clone()),
        ui,
        error: error.to_string(),
        has_library: library.is_some(),
        query,
        count: fill(&ui.library_count, &[("n", &rows.len().to_string())]),
        rows,
        formats: vec![
            Format::Sgf,
            Format::Pgn,
            Format::Kif,
            Format::Ki2,
            Format::Csa,
        ],
    }
    .render();
    respond(req, status, html)
}

/// `GET /records`: the upload form and the library.
pub(crate) async fn list(State(state): State<AppState>, req: Req) -> Response {
    list_page(&state, &req, StatusCode::OK, "")
}

/// The pasted form: the record's text and its format's extension.
#[derive(Debug, Default, Deserialize)]
pub struct PasteForm {
    /// The record's text.
    #[serde(default)]
    pub text: String,
    /// `sgf`, `pgn`, `kif`, `ki2` or `csa`.
    #[serde(default)]
    pub format: String,
}

/// What an upload sent: a file's name and bytes.
async fn read_upload(
    state: &AppState,
    request: Request,
) -> Result<(String, Vec<u8>), RecordsError> {
    let multipart = request
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("multipart/form-data"));
    let mut file: Option<(String, Vec<u8>)> = None;
    let mut paste = PasteForm::default();
    if multipart {
        let mut form = Multipart::from_request(request, state)
            .await
            .map_err(|_| RecordsError::BadUpload)?;
        let too_large = |e: axum::extract::multipart::MultipartError| {
            if e.status() == StatusCode::PAYLOAD_TOO_LARGE {
                RecordsError::TooLarge
            } else {
                RecordsError::BadUpload
            }
        };
        while let Some(mut field) = form.next_field().await.map_err(too_large)? {
            let name = field.name().unwrap_or("").to_string();
            let file_name = field.file_name().unwrap_or("").to_string();
            let mut bytes = Vec::new();
            while let Some(chunk) = field.chunk().await.map_err(too_large)? {
                if bytes.len() + chunk.len() > UPLOAD_LIMIT {
                    return Err(RecordsError::TooLarge);
                }
                bytes.extend_from_slice(&chunk);
            }
            match name.as_str() {
                "file" if !bytes.is_empty() => file = Some((file_name, bytes)),
                "text" => paste.text = String::from_utf8_lossy(&bytes).into_owned(),
                "format" => paste.format = String::from_utf8_lossy(&bytes).into_owned(),
                _ => {}
            }
        }
    } else {
        let Form(form) = Form::<PasteForm>::from_request(request, state)
            .await
            .map_err(|e| {
                if e.status() == StatusCode::PAYLOAD_TOO_LARGE {
                    RecordsError::TooLarge
                } else {
                    RecordsError::BadUpload
                }
            })?;
        paste = form;
    }
    if let Some(f) = file {
        return Ok(f);
    }
    if paste.text.trim().is_empty() {
        return Err(RecordsError::NoFile);
    }
    if paste.text.len() > UPLOAD_LIMIT {
        return Err(RecordsError::TooLarge);
    }
    let ext: String = paste
        .format
        .chars()
        .filter(char::is_ascii_alphanumeric)
        .take(5)
        .collect();
    Ok((format!("pasted.{ext}"), paste.text.into_bytes()))
}

/// `POST /records`: a record uploaded (a file, multipart) or pasted (a form field): kept in
/// memory and shown, or the form again with why it cannot be opened.
///
/// The record is read on a blocking thread (never on the async workers), and refused with
/// 413 when its records take more than [`RecordLimits::upload_memory`].
pub(crate) async fn upload(State(state): State<AppState>, req: Req, request: Request) -> Response {
    let opened = match read_upload(&state, request).await {
        Ok((name, bytes)) => {
            let limit = state.records().limits.upload_memory;
            tokio::task::spawn_blocking(move || open_upload(name, &bytes, limit))
                .await
                .unwrap_or(Err(RecordsError::ReaderStopped))
        }
        Err(e) => Err(e),
    };
    match opened {
        Ok((name, games)) => {
            let id = state.records().keep(&name, games);
            Redirect::to(&format!("/records/{id}")).into_response()
        }
        Err(e) => list_page(&state, &req, e.status(), &e.explain(req.lang)),
    }
}

/// [`Records::open`] on a blocking thread: a record of the library is read from its file and
/// parsed, which is no work for an async worker.
async fn open_blocking(state: &AppState, id: &str, game: usize) -> Result<Opened, RecordsError> {
    let (state, id) = (state.clone(), id.to_string());
    tokio::task::spawn_blocking(move || state.records().open(&id, game))
        .await
        .unwrap_or(Err(RecordsError::ReaderStopped))
}

/// Reads an upload's bytes into its games (on a blocking thread): the name cut to 200
/// characters, and the games, unless they are unreadable or take more than `limit` bytes.
fn open_upload(
    name: String,
    bytes: &[u8],
    limit: usize,
) -> Result<(String, Vec<Record>), RecordsError> {
    let name: String = name.chars().take(200).collect();
    let games = record::read(&name, bytes).map_err(RecordsError::Unreadable)?;
    if weight(&games) > limit {
        return Err(RecordsError::TooMuchMemory(limit));
    }
    Ok((name, games))
}

// ---------------------------------------------------------------- printing

/// One figure of a printed Go record, or one section of a score sheet.
struct Figure {
    title: String,
    svg: String,
    notes: Vec<String>,
    /// Score sheet rows: the move number and the two sides' moves.
    rows: Vec<(String, String, String)>,
}

#[derive(Template)]
#[template(path = "record_print.html")]
struct PrintPage<'a> {
    chrome: Chrome,
    ui: &'a RecordUi,
    back: String,
    heading: String,
    tags: Vec<(String, String)>,
    comment: String,
    per: usize,
    per_label: String,
    pers: Vec<usize>,
    action: String,
    game: usize,
    go: bool,
    figures: Vec<Figure>,
}

/// The figures of a Go record's main line, `per` moves each: the stones of each figure's
/// start unnumbered, each move's number on its point, and the books' notes for moves played
/// where a stone of the figure already stands (`60 at 54`, or `ko at` when it retakes a ko)
/// or stood before the figure (marked ▲).
fn go_figures(record: &Record, per: usize, lang: Lang, title: &str) -> Vec<Figure> {
    let ui = &Ui::get(lang).record;
    let Ok(Board::Go(mut pos)) = Board::at_start(&record.start, record.setup.as_ref(), "record")
    else {
        return Vec::new();
    };
    let moves = &record.moves;
    let mut out = Vec::new();
    let chunks: Vec<&[Step]> = if moves.is_empty() {
        vec![&[]]
    } else {
        moves.chunks(per).collect()
    };
    for (k, chunk) in chunks.into_iter().enumerate() {
        let first = k * per + 1;
        let start = pos.board().clone();
        let mut drawn = start.clone();
        let mut numbered: HashMap<go::Point, usize> = HashMap::new();
        let mut marks: Marks<go::Point> = Marks::default();
        let mut notes = Vec::new();
        for (i, step) in chunk.iter().enumerate() {
            let n = first + i;
            let colour = pos.turn();
            let Ok((next, mv)) = pos.play(&step.mv) else {
                break;
            };
            match mv {
                go::Move::Pass => notes.push(fill(&ui.pass_note, &[("n", &n.to_string())])),
                go::Move::Play(p) => {
                    let ko = next.captured().len() == 1 && numbered.contains_key(&p);
                    if let Some(k) = numbered.get(&p) {
                        let template = if ko { &ui.ko_note } else { &ui.at_note };
                        notes.push(fill(
                            template,
                            &[("n", &n.to_string()), ("k", &k.to_string())],
                        ));
                    } else if start.get(p).is_some() {
                        if !marks.triangles.contains(&p) {
                            marks.triangles.push(p);
                        }
                        notes.push(fill(&ui.earlier_note, &[("n", &n.to_string())]));
                    } else {
                        numbered.insert(p, n);
                        drawn.set(p, Some(colour));
                        marks.labels.push((n.to_string(), p));
                    }
                }
            }
            if !step.comment.is_empty() {
                notes.push(format!("{n}: {}", step.comment));
            }
            pos = next;
        }
        let last = first + chunk.len().saturating_sub(1);
        let svg = go_svg(&GoDiagram {
            board: &drawn,
            view: None,
            last_move: None,
            marks: &marks,
            liberties: &[],
            selected: &[],
            link: None,
            lang,
            title,
        });
        out.push(Figure {
            title: figure_title(ui, k, first, last.max(first)),
            svg,
            notes,
            rows: Vec::new(),
        });
    }
    out
}

/// A chess or shogi score sheet of the main line, a diagram after every `per` moves.
fn score_sheet(record: &Record, per: usize, lang: Lang, title: &str) -> Vec<Figure> {
    let ui = &Ui::get(lang).record;
    let Ok(mut board) = Board::at_start(&record.start, record.setup.as_ref(), "record") else {
        return Vec::new();
    };
    let offset = usize::from(record.first_to_move() == Side::Second);
    let mut out = Vec::new();
    let chunks: Vec<&[Step]> = if record.moves.is_empty() {
        vec![&[]]
    } else {
        record.moves.chunks(per).collect()
    };
    let mut ply = 0;
    for (k, chunk) in chunks.into_iter().enumerate() {
        let first = ply + 1;
        let mut rows: Vec<(String, String, String)> = Vec::new();
        let mut notes = Vec::new();
        let mut last = None;
        for step in chunk {
            let Some((next, notation)) = play_noted(&board, &step.mv) else {
                break;
            };
            ply += 1;
            let slot = ply + offset;
            let number = slot.div_ceil(2).to_string();
            if slot % 2 == 1 || rows.is_empty() {
                rows.push((number, String::new(), String::new()));
            }
            if let Some(row) = rows.last_mut() {
                if slot % 2 == 1 {
                    row.1 = notation;
                } else {
                    row.2 = notation;
                }
            }
            if !step.comment.is_empty() {
                let text = if record.start.game() == Game::Chess {
                    chess_marks(&step.comment).1
                } else {
                    step.comment.clone()
                };
                if !text.is_empty() {
                    notes.push(format!("{ply}: {text}"));
                }
            }
            last = Some((board, step.mv.clone()));
            board = next;
        }
        let shown = Shown {
            board: board.clone(),
            last,
        };
        let svg = draw(
            &shown,
            Drawing {
                markup: &[],
                chess: BoardMarks::default(),
                link: None,
                selected: None,
                labels: Vec::new(),
                lang,
                title,
            },
        );
        out.push(Figure {
            title: figure_title(ui, k, first, ply.max(first)),
            svg,
            notes,
            rows,
        });
    }
    out
}

/// `GET /records/{id}/print?per=&game=`: the record for A4 paper.
pub(crate) async fn print(
    State(state): State<AppState>,
    req: Req,
    Path(id): Path<String>,
) -> Response {
    let game = game_param(&req);
    let opened = match open_blocking(&state, &id, game).await {
        Ok(o) => o,
        Err(e) => return list_page(&state, &req, e.status(), &e.explain(req.lang)),
    };
    let record = &opened.record;
    let g = record.start.game();
    let ui = &req.ui().record;
    let go_record = g == Game::Go;
    let (pers, default) = if go_record {
        (vec![25, 50, 100], 50)
    } else {
        (vec![10, 20, 40], 20)
    };
    let per = req
        .param("per")
        .and_then(|p| p.parse::<usize>().ok())
        .filter(|p| (4..=400).contains(p))
        .unwrap_or(default);
    let title = heading(record, &opened.name);
    let figures = if go_record {
        go_figures(record, per, req.lang, &title)
    } else {
        score_sheet(record, per, req.lang, &title)
    };
    let here = Here { id: &id, game };
    let html = PrintPage {
        chrome: Chrome::new(
            &req,
            &state.snapshot(),
            format!("{title} · {}", ui.print_title),
        ),
        ui,
        back: here.href(&At::start(), &[]),
        heading: title,
        tags: tag_lines(record, req.lang),
        comment: record.comment.clone(),
        per,
        per_label: if go_record {
            ui.per.clone()
        } else {
            fill(&ui.every, &[("n", "N")])
        },
        pers,
        action: here.sub("print", &[]),
        game,
        go: go_record,
        figures,
    }
    .render();
    respond(&req, StatusCode::OK, html)
}

/// A printed figure's heading: "Figure 2 (moves 51–100)".
fn figure_title(ui: &RecordUi, k: usize, first: usize, last: usize) -> String {
    fill(
        &ui.figure,
        &[
            ("n", &(k + 1).to_string()),
            ("from", &first.to_string()),
            ("to", &last.to_string()),
        ],
    )
}

#[cfg(test)]
mod tests {
    use super::*;

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
        let r = Record::new(crate::play::Start::Chess {
            fen: crate::rules::chess::Position::start().fen(),
        });
        let a = records.keep("a.pgn", vec![r.clone()]);
        let b = records.keep("b.pgn", vec![r.clone()]);
        let c = records.keep("c.pgn", vec![r]);
        assert!(records.open(&a, 1).is_err());
        assert!(records.open(&b, 1).is_ok() && records.open(&c, 1).is_ok());
        assert_eq!(records.kept().0, 2);
    }
}
