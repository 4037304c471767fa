//! Content: lessons and problem sets, read from files and checked against the rules engines.
//!
//! Everything is loaded once into an immutable [`Library`]; a mistake anywhere becomes a
//! [`Diagnostic`] with file, line and column, and loading goes on so that every mistake is
//! reported at once.

pub mod board_game;
for_each_game!(game_modules);
mod diagnostic;
pub mod drawing;
mod lesson;
mod lines;
mod marks;
mod problem;
pub mod proofs;
mod puzzle;
pub mod sensei;
pub mod source;
mod task;
#[cfg(test)]
mod task_tests;

pub use crate::base::{Game, Text};
pub use board_game::{BoardPuzzle, Goal, Target};
pub use diagnostic::{Diagnostic, Locator};
pub use lesson::{LessonText, Segment};
pub use lines::{LineTree, Step, WrongMove};
pub use marks::BoardMarks;
pub use problem::{
    Action, BoardRequest, CountAsk, GamePuzzle, Input, ProblemOf, RecordFormat, Verdict, WhyLine,
};
pub use proofs::{PendingProofs, ProofRun, ProofStore, Proving};
pub use puzzle::{Problem, ProblemSet, Puzzle};

use crate::lang::Lang;
use diagnostic::Ctx;
use proofs::LoadProofs;
use serde::Deserialize;
use std::collections::{BTreeMap, HashSet};
use std::fmt;
use std::sync::{Arc, OnceLock};
use toml::Spanned;

/// A board diagram: frames the reader steps through.
#[derive(Clone, Debug)]
pub struct Diagram {
    /// The `id=` given after the block's kind.
    pub id: Option<String>,
    /// Text under the first frame.
    pub caption: Option<String>,
    /// The starting position, then one frame per step.
    pub frames: Vec<Frame>,
    /// For a Go diagram: its starting position and the moves of its steps, for SGF download
    /// (up to the first step that sets stones by hand).
    pub go_line: Option<(crate::rules::go::Position, Vec<crate::rules::go::Move>)>,
}

/// One frame of a diagram.
#[derive(Clone, Debug)]
pub struct Frame {
    /// The picture, drawn as inline SVG when first asked for ([`Frame::svg`]).
    pub picture: Picture,
    /// What the step says.
    pub say: Option<String>,
    /// Everything drawn, as text: twin lessons must have equal keys.
    pub key: String,
    /// What the learner is asked to do at this step, if anything: a problem from the
    /// frame's position, judged like any other.
    pub task: Option<Box<Problem>>,
}

impl Frame {
    /// The picture, as inline SVG (drawn now if no one asked for it before).
    pub fn svg(&self) -> &str {
        self.picture.svg()
    }
}

/// A picture drawn the first time it is asked for, then kept: loading content draws
/// nothing, so a large lesson folder costs start-up only what reading it costs. Clones share
/// the drawing.
#[derive(Clone)]
pub struct Picture(Arc<Drawn>);

struct Drawn {
    svg: OnceLock<String>,
    draw: Box<dyn Fn() -> String + Send + Sync>,
}

impl Picture {
    /// A picture that `draw` makes when it is first needed.
    pub fn new(draw: impl Fn() -> String + Send + Sync + 'static) -> Picture {
        Picture(Arc::new(Drawn {
            svg: OnceLock::new(),
            draw: Box::new(draw),
        }))
    }

    /// The SVG, drawn on the first call.
    pub fn svg(&self) -> &str {
        self.0.svg.get_or_init(|| (self.0.draw)())
    }
}

impl fmt::Debug for Picture {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0.svg.get() {
            Some(svg) => write!(f, "Picture({} bytes)", svg.len()),
            None => f.write_str("Picture(not drawn yet)"),
        }
    }
}

/// A lesson in both languages.
#[derive(Clone, Debug)]
pub struct Lesson {
    /// The name in addresses: `captures` for `03-captures.zh.md`.
    pub slug: String,
    /// The number that orders lessons.
    pub number: u32,
    /// The Chinese version.
    pub zh: LessonText,
    /// The English version.
    pub en: LessonText,
}

impl Lesson {
    /// The version in `lang`.
    pub fn text(&self, lang: Lang) -> &LessonText {
        match lang {
            Lang::Zh => &self.zh,
            Lang::En => &self.en,
        }
    }
}

/// The lessons and problem sets of one game.
#[derive(Clone, Debug)]
pub struct Shelf {
    /// The game.
    pub game: Game,
    /// Lessons, by number.
    pub lessons: Vec<Lesson>,
    /// Problem sets, by `order` then slug.
    pub sets: Vec<ProblemSet>,
}

impl Shelf {
    /// The lesson with this slug.
    pub fn lesson(&self, slug: &str) -> Option<&Lesson> {
        self.lessons.iter().find(|l| l.slug == slug)
    }

    /// The set with this slug.
    pub fn set(&self, slug: &str) -> Option<&ProblemSet> {
        self.sets.iter().find(|s| s.slug == slug)
    }
}

/// All content, checked and ready to serve.
#[derive(Clone, Debug, Default)]
pub struct Library {
    /// One shelf per game that has content, in [`Game::ALL`] order.
    pub shelves: Vec<Shelf>,
}

impl Library {
    /// The shelf of `game`, if it has content.
    pub fn shelf(&self, game: Game) -> Option<&Shelf> {
        self.shelves.iter().find(|s| s.game == game)
    }

    /// How many problems there are in all.
    pub fn problem_count(&self) -> usize {
        self.shelves
            .iter()
            .flat_map(|s| &s.sets)
            .map(|s| s.problems.len())
            .sum()
    }

    /// Loads every file (`(path, text)`, paths relative to the content folder with `/`),
    /// proving every mate and tsume problem. Returns what could be loaded and every problem
    /// found, sorted by file and line.
    pub fn load(files: &[(String, String)]) -> (Library, Vec<Diagnostic>) {
        let loaded = Library::load_with(files, &ProofStore::default(), Proving::Now);
        (loaded.library, loaded.errors)
    }

    /// Loads every file as [`Library::load`] does, keeping proofs in `store` (a proof already
    /// there is not searched for again) and running them as `mode` says: with
    /// [`Proving::Later`], the errors are those found without the proofs, and the proofs are
    /// returned to be run; the problems they are about are loaded meanwhile.
    pub fn load_with(files: &[(String, String)], store: &ProofStore, mode: Proving) -> Loaded {
        store.forget_unused();
        let mut pending = PendingProofs::default();
        let mut errors = Vec::new();
        let mut shelves: BTreeMap<Game, Shelf> = BTreeMap::new();
        let mut lesson_files: BTreeMap<(Game, u32, String), [Option<LessonText>; 2]> =
            BTreeMap::new();
        let mut paths_of: BTreeMap<(Game, u32, String), [Option<&str>; 2]> = BTreeMap::new();
        for ((path, _), read) in files.iter().zip(read_files(files, store, mode)) {
            let (game, read) = match read {
                FileRead::Skipped => continue,
                FileRead::Refused(e) => {
                    errors.push(e);
                    continue;
                }
                FileRead::Read(game, read) => (game, read),
            };
            let shelf = shelves.entry(game).or_insert_with(|| Shelf {
                game,
                lessons: Vec::new(),
                sets: Vec::new(),
            });
            match read {
                Read::Lesson {
                    number,
                    slug,
                    lang,
                    lesson,
                    errors: errs,
                } => {
                    errors.extend(errs);
                    let i = lang_index(lang);
                    let key = (game, number, slug);
                    paths_of.entry(key.clone()).or_default()[i] = Some(path);
                    lesson_files.entry(key).or_default()[i] = lesson;
                }
                Read::Set(set, proofs) => {
                    pending.checks.extend(proofs.checks);
                    match set {
                        Ok(set) => shelf.sets.push(set),
                        Err(errs) => errors.extend(errs),
                    }
                }
            }
        }
        // Pair the two languages of each lesson.
        let mut slugs_seen: HashSet<(Game, String)> = HashSet::new();
        for ((game, number, slug), [zh, en]) in lesson_files {
            let paths = paths_of[&(game, number, slug.clone())];
            for (have, missing) in [(0, 1), (1, 0)] {
                if let (Some(p), None) = (paths[have], paths[missing]) {
                    let twin = p.replace(
                        &format!(".{}.md", Lang::ALL[have].code()),
                        &format!(".{}.md", Lang::ALL[missing].code()),
                    );
                    let text = files.iter().find(|(q, _)| q == p).map_or("", |(_, t)| t);
                    errors.push(Locator::new(p, text).at(
                        0,
                        format!("the {} version `{twin}` is missing: every lesson is written in both zh and en", if missing == 0 { "Chinese" } else { "English" }),
                    ));
                }
            }
            if !slugs_seen.insert((game, slug.clone())) {
                let p = paths[0].or(paths[1]).unwrap_or_default();
                let text = files.iter().find(|(q, _)| q == p).map_or("", |(_, t)| t);
                errors.push(Locator::new(p, text).at(
                    0,
                    format!("another lesson is already called `{slug}`: lesson slugs must differ"),
                ));
                continue;
            }
            let (Some(zh), Some(en)) = (zh, en) else {
                continue;
            };
            let broken = errors
                .iter()
                .any(|e| e.path == zh.path || e.path == en.path);
            if broken {
                continue;
            }
            if let Some(e) = twin_mismatch(&zh, &en, files) {
                errors.push(e);
                continue;
            }
            if let Some(shelf) = shelves.get_mut(&game) {
                shelf.lessons.push(Lesson {
                    slug,
                    number,
                    zh,
                    en,
                });
            }
        }
        // Sets may name the lesson they practise.
        for shelf in shelves.values_mut() {
            shelf
                .sets
                .sort_by(|a, b| (a.order, &a.slug).cmp(&(b.order, &b.slug)));
            shelf.lessons.sort_by_key(|l| l.number);
            for set in &shelf.sets {
                if let Some(lesson) = &set.lesson {
                    if !shelf.lessons.iter().any(|l| &l.slug == lesson)
                        && !lesson_exists_in_files(files, shelf.game, lesson)
                    {
                        let text = files
                            .iter()
                            .find(|(q, _)| q == &set.path)
                            .map_or("", |(_, t)| t);
                        let offset = text.find(&format!("\"{lesson}\"")).unwrap_or(0);
                        errors.push(Locator::new(&set.path, text).at(
                            offset,
                            format!(
                                "set names lesson `{lesson}`, but there is no such {} lesson",
                                shelf.game.name(Lang::En)
                            ),
                        ));
                    }
                }
            }
        }
        proofs::sort_by_place(&mut errors);
        let library = Library {
            shelves: shelves
                .into_values()
                .filter(|s| !s.lessons.is_empty() || !s.sets.is_empty())
                .collect(),
        };
        Loaded {
            library,
            errors,
            proofs: pending,
        }
    }
}

/// What [`Library::load_with`] read.
#[derive(Debug)]
pub struct Loaded {
    /// What could be loaded.
    pub library: Library,
    /// Every problem found, sorted by file and line.
    pub errors: Vec<Diagnostic>,
    /// The proofs left to run ([`Proving::Later`]; none with [`Proving::Now`]).
    pub proofs: PendingProofs,
}

/// What one content file gave.
enum FileRead {
    /// Not content (another folder, a hidden file, a picture beside the lessons).
    Skipped,
    /// The file cannot be read for where it is or what it is called.
    Refused(Diagnostic),
    /// A lesson or a set of `game`.
    Read(Game, Read),
}

/// A lesson file or a problem set, as read.
enum Read {
    /// One language of a lesson.
    Lesson {
        number: u32,
        slug: String,
        lang: Lang,
        lesson: Option<LessonText>,
        errors: Vec<Diagnostic>,
    },
    /// A set, and the proofs it leaves for later.
    Set(Result<ProblemSet, Vec<Diagnostic>>, PendingProofs),
}

/// Reads every file, on as many threads as there are cores (each file is read on its own;
/// the largest files are taken first so that no thread is left with one at the end). The
/// results are in the order of `files`.
fn read_files(files: &[(String, String)], store: &ProofStore, mode: Proving) -> Vec<FileRead> {
    let threads = proofs::cores().min(files.len());
    if threads <= 1 {
        return files
            .iter()
            .map(|(path, text)| read_file(path, text, store, mode))
            .collect();
    }
    let mut order: Vec<usize> = (0..files.len()).collect();
    order.sort_by_key(|&i| std::cmp::Reverse(files[i].1.len()));
    let next = std::sync::atomic::AtomicUsize::new(0);
    let mut read: Vec<(usize, FileRead)> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                scope.spawn(|| {
                    let mut mine = Vec::new();
                    loop {
                        let k = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        let Some(&i) = order.get(k) else {
                            return mine;
                        };
                        let (path, text) = &files[i];
                        mine.push((i, read_file(path, text, store, mode)));
                    }
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|w| w.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
            .collect()
    });
    read.sort_by_key(|(i, _)| *i);
    read.into_iter().map(|(_, r)| r).collect()
}

/// Reads one file at `path` (relative to the content folder): a lesson under
/// `lessons/GAME/`, a problem set under `problems/GAME/`.
fn read_file(path: &str, text: &str, store: &ProofStore, mode: Proving) -> FileRead {
    let parts: Vec<&str> = path.split('/').collect();
    let (kind, game, name) = match parts.as_slice() {
        [kind @ ("lessons" | "problems"), game, name] => (*kind, *game, *name),
        _ => return FileRead::Skipped,
    };
    if name.starts_with('.') {
        return FileRead::Skipped;
    }
    let Some(game) = Game::from_slug(game) else {
        return FileRead::Refused(Locator::new(path, text).at(
            0,
            format!(
                "unknown game folder `{game}`: use {}",
                Game::ALL.map(|g| g.slug()).join(", ")
            ),
        ));
    };
    if kind == "lessons" {
        let Some((number, slug, lang)) = lesson_name(name) else {
            if name.ends_with(".md") {
                return FileRead::Refused(Locator::new(path, text).at(
                    0,
                    format!("lesson file name `{name}` should look like `03-captures.zh.md`: a number, a slug of lowercase letters, digits and `-`, then `.zh.md` or `.en.md`"),
                ));
            }
            return FileRead::Skipped;
        };
        let (lesson, errors) = lesson::parse(path, text, lang);
        return FileRead::Read(
            game,
            Read::Lesson {
                number,
                slug,
                lang,
                lesson,
                errors,
            },
        );
    }
    let Some(slug) = name.strip_suffix(".toml") else {
        return FileRead::Skipped;
    };
    if !is_slug(slug) {
        return FileRead::Refused(Locator::new(path, text).at(
            0,
            format!("problem set file name `{name}` should be a slug of lowercase letters, digits and `-`, like `captures.toml`"),
        ));
    }
    let mut proofs = LoadProofs {
        store,
        mode,
        pending: PendingProofs::default(),
        file: None,
    };
    let set = (puzzle::plugin(game).load_set)(slug, path, text, &mut proofs);
    FileRead::Read(game, Read::Set(set, proofs.pending))
}

fn lang_index(lang: Lang) -> usize {
    match lang {
        Lang::Zh => 0,
        Lang::En => 1,
    }
}

fn is_slug(s: &str) -> bool {
    !s.is_empty()
        && s.bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
}

/// Splits `03-captures.zh.md` into (3, "captures", Zh).
fn lesson_name(name: &str) -> Option<(u32, String, Lang)> {
    let stem = name.strip_suffix(".md")?;
    let (stem, lang) = stem.rsplit_once('.')?;
    let lang = match lang {
        "zh" => Lang::Zh,
        "en" => Lang::En,
        _ => return None,
    };
    let (number, slug) = stem.split_once('-')?;
    if number.is_empty() || !number.bytes().all(|b| b.is_ascii_digit()) || !is_slug(slug) {
        return None;
    }
    Some((number.parse().ok()?, slug.to_string(), lang))
}

fn lesson_exists_in_files(files: &[(String, String)], game: Game, slug: &str) -> bool {
    files.iter().any(|(p, _)| {
        p.strip_prefix(&format!("lessons/{}/", game.slug()))
            .and_then(lesson_name)
            .is_some_and(|(_, s, _)| s == slug)
    })
}

/// The first difference between the diagrams of a lesson's two versions.
fn twin_mismatch(
    zh: &LessonText,
    en: &LessonText,
    files: &[(String, String)],
) -> Option<Diagnostic> {
    let text_of = |p: &str| {
        files
            .iter()
            .find(|(q, _)| q == p)
            .map_or("", |(_, t)| t.as_str())
    };
    if zh.diagrams.len() != en.diagrams.len() {
        return Some(Locator::new(&en.path, text_of(&en.path)).at(
            0,
            format!(
                "this version has {} diagrams but `{}` has {}: both versions must show the same diagrams",
                en.diagrams.len(),
                zh.path,
                zh.diagrams.len()
            ),
        ));
    }
    for (i, (a, b)) in zh.diagrams.iter().zip(&en.diagrams).enumerate() {
        let same = a.frames.len() == b.frames.len()
            && a.frames.iter().zip(&b.frames).all(|(x, y)| x.key == y.key);
        if !same {
            let text = text_of(&en.path);
            let offset = nth_diagram_offset(text, i).unwrap_or(0);
            return Some(Locator::new(&en.path, text).at(
                offset,
                format!(
                    "diagram {} differs from diagram {} of `{}`: both versions must have the same boards, moves and marks",
                    i + 1,
                    i + 1,
                    zh.path
                ),
            ));
        }
    }
    None
}

fn nth_diagram_offset(text: &str, n: usize) -> Option<usize> {
    let mut fences: Vec<usize> = ["```goban", "```chess", "```shogi"]
        .iter()
        .flat_map(|kind| text.match_indices(kind).map(|(i, _)| i))
        .collect();
    fences.sort();
    fences.get(n).copied()
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
#[serde(bound(deserialize = "P: Deserialize<'de>"))]
struct SetFile<P> {
    set: SetSpec,
    #[serde(default = "Vec::new")]
    problem: Vec<P>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SetSpec {
    title: Text,
    summary: Option<Text>,
    lesson: Option<Spanned<String>>,
    #[serde(default)]
    order: i64,
}

/// The content plugin of a board game: its sets and diagrams read by [`board_game`].
pub(crate) const fn board_plugin<G: board_game::PieceGame>() -> puzzle::ContentPlugin
where
    Puzzle: From<BoardPuzzle<G>>,
{
    puzzle::ContentPlugin {
        load_set: |slug, path, text, proofs| load_board_set(slug, path, text, proofs, Puzzle::from),
        diagram: |ctx, body, id, lang| {
            board_game::diagram::<G>(ctx, body, id, lang).map(|d| d.wrap(Puzzle::from))
        },
    }
}

/// Reads a set of a board game's problems (`wrap` makes each a [`Puzzle`]).
fn load_board_set<G: board_game::PieceGame>(
    slug: &str,
    path: &str,
    text: &str,
    proofs: &mut LoadProofs,
    wrap: fn(BoardPuzzle<G>) -> Puzzle,
) -> Result<ProblemSet, Vec<Diagnostic>> {
    let read = |ctx: &Ctx, spec, proofs: &mut LoadProofs| {
        board_game::problem::<G>(ctx, spec, proofs).map(|p| p.map(wrap))
    };
    load_set_of(slug, path, text, proofs, board_game::problem_id, read)
}

/// Reads a set whose problems are of one game's kind `P`.
fn load_set_of<P: serde::de::DeserializeOwned>(
    slug: &str,
    path: &str,
    text: &str,
    proofs: &mut LoadProofs,
    id_of: fn(&P) -> &Spanned<String>,
    read: impl Fn(&Ctx, P, &mut LoadProofs) -> Result<Problem, Vec<Diagnostic>>,
) -> Result<ProblemSet, Vec<Diagnostic>> {
    let loc = Locator::new(path, text);
    let ctx = Ctx { loc: &loc, base: 0 };
    let file: SetFile<P> = toml::from_str(text).map_err(|e| vec![ctx.toml_error(&e)])?;
    let mut errors = Vec::new();
    let mut problems = Vec::new();
    let mut ids: HashSet<String> = HashSet::new();
    if file.problem.is_empty() {
        errors.push(loc.at(0, "the set has no problems: add [[problem]] tables"));
    }
    for spec in file.problem {
        let id = id_of(&spec).clone();
        if !ids.insert(id.get_ref().clone()) {
            errors.push(ctx.err(
                id.span(),
                format!(
                    "problem id `{}` is used twice in this set: ids must differ",
                    id.get_ref()
                ),
            ));
        }
        if !is_slug(id.get_ref()) {
            errors.push(ctx.err(
                id.span(),
                format!(
                    "problem id `{}` should use only lowercase letters, digits and `-`",
                    id.get_ref()
                ),
            ));
        }
        match read(&ctx, spec, proofs) {
            Ok(p) => problems.push(p),
            Err(errs) => errors.extend(errs),
        }
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    Ok(ProblemSet {
        slug: slug.to_string(),
        path: path.to_string(),
        title: file.set.title,
        summary: file.set.summary,
        lesson: file.set.lesson.map(|l| l.into_inner()),
        order: file.set.order,
        problems,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    #[test]
    fn draws_a_picture_once_when_first_asked() {
        let drawn = Arc::new(AtomicUsize::new(0));
        let counter = drawn.clone();
        let picture = Picture::new(move || {
            counter.fetch_add(1, Ordering::Relaxed);
            "<svg/>".to_string()
        });
        let copy = picture.clone();
        assert_eq!(drawn.load(Ordering::Relaxed), 0, "loading draws nothing");
        assert_eq!(format!("{picture:?}"), "Picture(not drawn yet)");
        assert_eq!(copy.svg(), "<svg/>");
        assert_eq!(picture.svg(), "<svg/>");
        assert_eq!(drawn.load(Ordering::Relaxed), 1, "clones share one drawing");
    }

    #[test]
    fn reads_files_on_threads_in_their_order() {
        let text = include_str!("../../problems/go/captures.toml");
        let files: Vec<(String, String)> = (0..40)
            .map(|i| (format!("problems/go/s{i}.toml"), text.to_string()))
            .chain([("notes/readme.txt".to_string(), String::new())])
            .collect();
        let read = read_files(&files, &ProofStore::default(), Proving::Later);
        assert_eq!(read.len(), files.len());
        for (i, r) in read.iter().take(40).enumerate() {
            let FileRead::Read(Game::Go, Read::Set(Ok(set), _)) = r else {
                panic!("file {i} was not read as its set");
            };
            assert_eq!(set.path, files[i].0);
        }
        assert!(matches!(read[40], FileRead::Skipped));
    }

    #[test]
    fn reads_lesson_file_names() {
        assert_eq!(
            lesson_name("03-captures.zh.md"),
            Some((3, "captures".into(), Lang::Zh))
        );
        assert_eq!(lesson_name("captures.zh.md"), None);
        assert_eq!(lesson_name("03-captures.fr.md"), None);
        assert_eq!(lesson_name("03-Captures.en.md"), None);
    }
}
