//! HTML pages: home, game index, lessons with step diagrams, problem sets and problems.

use super::i18n::{fill, negotiate, Ui};
use super::state::{AppState, PageKey, Snapshot};
use super::trainer;
use super::urls;
use crate::content::{Diagram, Game, Lesson, Problem, ProblemSet, Segment, Shelf};
use crate::lang::Lang;
use askama::Template;
use axum::body::Bytes;
use axum::extract::{FromRequestParts, Path, Query, State};
use axum::http::request::Parts;
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{Html, IntoResponse, Response};
use percent_encoding::{utf8_percent_encode, AsciiSet, NON_ALPHANUMERIC};
use serde::de::DeserializeOwned;
use serde::Deserialize;
use std::convert::Infallible;

/// Characters escaped in query values: everything but letters, digits and `, - _ . *`.
const QUERY: &AsciiSet = &NON_ALPHANUMERIC
    .remove(b',')
    .remove(b'-')
    .remove(b'_')
    .remove(b'.')
    .remove(b'*');

/// The longest query parameter (name and value) echoed in a page's links: longer than any
/// state a page needs (400 moves in `m`).
pub(crate) const ECHO_LIMIT: usize = 4096;

/// Escapes text for HTML.
pub(crate) fn escape(s: &str) -> String {
    crate::render::escape(s)
}

pub(crate) fn enc(s: &str) -> String {
    utf8_percent_encode(s, QUERY).to_string()
}

/// What every page needs from the request: the language and the address.
pub(crate) struct Req {
    pub lang: Lang,
    /// `?lang=` was given: remember it in a cookie.
    pub chosen: bool,
    pub path: String,
    pub query: Vec<(String, String)>,
    /// The logged-in account, if the request carries a live session.
    pub account: Option<crate::class::Account>,
}

impl Req {
    pub fn param(&self, name: &str) -> Option<&str> {
        self.query
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    pub fn ui(&self) -> &'static Ui {
        Ui::get(self.lang)
    }
}

impl FromRequestParts<AppState> for Req {
    type Rejection = Infallible;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Req, Infallible> {
        let query: Vec<(String, String)> = Query::try_from_uri(&parts.uri)
            .map(|Query(q)| q)
            .unwrap_or_default();
        let header = |name| {
            parts
                .headers
                .get(name)
                .and_then(|v: &HeaderValue| v.to_str().ok())
        };
        let asked = query
            .iter()
            .find(|(k, _)| k == "lang")
            .map(|(_, v)| v.as_str());
        let lang = negotiate(
            asked,
            header(header::COOKIE),
            header(header::ACCEPT_LANGUAGE),
        );
        let account = super::class::account_of(state, &parts.headers).await;
        Ok(Req {
            lang,
            chosen: asked.and_then(Lang::parse).is_some(),
            path: parts.uri.path().to_string(),
            query,
            account,
        })
    }
}

/// The frame around every page.
pub(crate) struct Chrome {
    pub lang: Lang,
    pub ui: &'static Ui,
    pub title: String,
    pub switch_href: String,
    pub switch_label: &'static str,
    pub errors: Vec<String>,
    /// The logged-in account's name, home page and CSRF secret (for the logout form and the
    /// page's script).
    pub account: Option<AccountBar>,
}

/// The header's account links.
pub(crate) struct AccountBar {
    pub name: String,
    pub home: &'static str,
    pub csrf: String,
    pub student: bool,
}

impl Chrome {
    pub(crate) fn new(req: &Req, snap: &Snapshot, title: String) -> Chrome {
        let other = req.lang.other();
        let mut query: Vec<String> = req
            .query
            .iter()
            .filter(|(k, _)| k != "lang" && k != "play")
            // Echoes are bounded: a value no page state needs is not sent back.
            .filter(|(k, v)| k.len() + v.len() <= ECHO_LIMIT)
            .take(16)
            .map(|(k, v)| format!("{}={}", enc(k), enc(v)))
            .collect();
        query.push(format!("lang={}", other.code()));
        Chrome {
            lang: req.lang,
            ui: req.ui(),
            title,
            switch_href: format!("{}?{}", req.path, query.join("&")),
            switch_label: &Ui::get(other).language_name,
            errors: snap.errors.iter().take(30).map(|e| e.to_string()).collect(),
            account: req.account.as_ref().map(|a| AccountBar {
                name: a.name.clone(),
                home: if a.teacher().is_some() {
                    "/teacher"
                } else {
                    "/me"
                },
                csrf: a.csrf.clone(),
                student: a.student().is_some(),
            }),
        }
    }
}

/// The one responder of pages and fragments: the HTML, or, when a template failed, a 500
/// with a log line (never an empty page).
pub(crate) fn respond(
    req: &Req,
    status: StatusCode,
    html: Result<String, askama::Error>,
) -> Response {
    match html {
        Ok(h) => respond_bytes(req, status, Bytes::from(h)),
        Err(e) => {
            eprintln!("qiyuan: template error on {}: {e}", req.path);
            (
                StatusCode::INTERNAL_SERVER_ERROR,
                format!("template error: {e}"),
            )
                .into_response()
        }
    }
}

/// What an address names, read from its path (`/{game}/lessons/{slug}` …). An address that
/// names no game of the trainer, or a diagram index that is no number, is the 404 page in the
/// learner's language.
pub(crate) struct At<T>(pub T);

impl<T: DeserializeOwned + Send> FromRequestParts<AppState> for At<T> {
    type Rejection = Response;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<At<T>, Response> {
        match Path::<T>::from_request_parts(parts, state).await {
            Ok(Path(t)) => Ok(At(t)),
            Err(_) => {
                let Ok(req) = Req::from_request_parts(parts, state).await;
                Err(missing(&req, &state.snapshot()))
            }
        }
    }
}

/// `/{game}`.
#[derive(Deserialize)]
pub(crate) struct GameAt {
    pub game: Game,
}

/// `/{game}/lessons/{slug}`.
#[derive(Deserialize)]
pub(crate) struct LessonAt {
    pub game: Game,
    pub slug: String,
}

/// `/{game}/lessons/{slug}/diagram/{index}`: the diagram (the lesson is a [`FoundLesson`]).
#[derive(Deserialize)]
pub(crate) struct DiagramAt {
    pub index: usize,
}

/// `/{game}/problems/{set}` and `/{game}/worksheets/{set}`.
#[derive(Deserialize)]
pub(crate) struct SetAt {
    pub game: Game,
    pub set: String,
}

/// `/{game}/problems/{set}/{id}`: the problem (the set is a [`FoundSet`]).
#[derive(Deserialize)]
pub(crate) struct ProblemAt {
    pub id: String,
}

/// The lesson an address names (`/{game}/lessons/{slug}…`), found in the content being
/// served, with the language and address of the request; the 404 page when there is none.
pub(crate) struct FoundLesson {
    pub req: Req,
    pub snap: Snapshot,
    shelf: usize,
    lesson: usize,
}

impl FoundLesson {
    pub fn shelf(&self) -> &Shelf {
        &self.snap.library.shelves[self.shelf]
    }

    pub fn lesson(&self) -> &Lesson {
        &self.shelf().lessons[self.lesson]
    }
}

/// The problem set an address names (`/{game}/problems/{set}…`, `/{game}/worksheets/{set}`),
/// found in the content being served; the 404 page when there is none.
pub(crate) struct FoundSet {
    pub req: Req,
    pub snap: Snapshot,
    shelf: usize,
    set: usize,
}

impl FoundSet {
    pub fn shelf(&self) -> &Shelf {
        &self.snap.library.shelves[self.shelf]
    }

    pub fn set(&self) -> &ProblemSet {
        &self.shelf().sets[self.set]
    }
}

/// Reads the request and the address, and finds what it names in the content served:
/// `find` gives the shelf's and the item's indices.
async fn found<T: DeserializeOwned + Send>(
    parts: &mut Parts,
    state: &AppState,
    find: impl FnOnce(&Snapshot, T) -> Option<(usize, usize)>,
) -> Result<(Req, Snapshot, usize, usize), Response> {
    let Ok(req) = Req::from_request_parts(parts, state).await;
    let snap = state.snapshot();
    match Path::<T>::from_request_parts(parts, state).await {
        Ok(Path(at)) => match find(&snap, at) {
            Some((shelf, item)) => Ok((req, snap, shelf, item)),
            None => Err(missing(&req, &snap)),
        },
        Err(_) => Err(missing(&req, &snap)),
    }
}

fn shelf_index(snap: &Snapshot, game: Game) -> Option<usize> {
    snap.library.shelves.iter().position(|s| s.game == game)
}

impl FromRequestParts<AppState> for FoundLesson {
    type Rejection = Response;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, Response> {
        let (req, snap, shelf, lesson) = found(parts, state, |snap, at: LessonAt| {
            let shelf = shelf_index(snap, at.game)?;
            let lessons = &snap.library.shelves[shelf].lessons;
            Some((shelf, lessons.iter().position(|l| l.slug == at.slug)?))
        })
        .await?;
        Ok(FoundLesson {
            req,
            snap,
            shelf,
            lesson,
        })
    }
}

impl FromRequestParts<AppState> for FoundSet {
    type Rejection = Response;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, Response> {
        let (req, snap, shelf, set) = found(parts, state, |snap, at: SetAt| {
            let shelf = shelf_index(snap, at.game)?;
            let sets = &snap.library.shelves[shelf].sets;
            Some((shelf, sets.iter().position(|s| s.slug == at.set)?))
        })
        .await?;
        Ok(FoundSet {
            req,
            snap,
            shelf,
            set,
        })
    }
}

fn respond_bytes(req: &Req, status: StatusCode, html: Bytes) -> Response {
    let mut response = (status, Html(html)).into_response();
    if req.chosen {
        if let Ok(v) = HeaderValue::from_str(&format!(
            "lang={}; Path=/; Max-Age=31536000; SameSite=Lax",
            req.lang.code()
        )) {
            response.headers_mut().insert(header::SET_COOKIE, v);
        }
    }
    response
}

/// A link with a title and an optional line under it.
pub(crate) struct Item {
    pub href: String,
    pub title: String,
    pub note: String,
    /// Progress keys (`go/captures/1`) of the problems behind the link, comma-separated.
    pub keys: String,
}

impl Item {
    /// A plain link: an address and its words, no note, no progress keys.
    pub(crate) fn link(href: String, title: impl Into<String>) -> Item {
        Item {
            href,
            title: title.into(),
            note: String::new(),
            keys: String::new(),
        }
    }
}

/// The key under which the browser keeps the learner's progress on a problem.
pub(crate) fn progress_key(game: Game, set: &ProblemSet, problem: &Problem) -> String {
    format!("{}/{}/{}", game.slug(), set.slug, problem.id)
}

/// A link to a lesson, with its summary.
fn lesson_item(game: Game, lesson: &Lesson, lang: Lang) -> Item {
    Item {
        href: urls::lesson(game, &lesson.slug),
        title: lesson.text(lang).title.clone(),
        note: lesson.text(lang).summary.clone().unwrap_or_default(),
        keys: String::new(),
    }
}

/// A link to a problem set, with its number of problems.
fn set_item(game: Game, set: &ProblemSet, lang: Lang) -> Item {
    Item {
        href: urls::set(game, &set.slug),
        title: set.title.get(lang).to_string(),
        note: fill(
            &Ui::get(lang).problem_count,
            &[("n", &set.problems.len().to_string())],
        ),
        keys: set
            .problems
            .iter()
            .map(|p| progress_key(game, set, p))
            .collect::<Vec<_>>()
            .join(","),
    }
}

struct GameCard {
    name: &'static str,
    slug: &'static str,
    href: String,
    lessons: Vec<Item>,
    sets: Vec<Item>,
    counts: String,
}

fn game_card(shelf: &Shelf, lang: Lang) -> GameCard {
    let ui = Ui::get(lang);
    let problems: usize = shelf.sets.iter().map(|s| s.problems.len()).sum();
    GameCard {
        name: shelf.game.name(lang),
        slug: shelf.game.slug(),
        href: urls::game(shelf.game),
        lessons: shelf
            .lessons
            .iter()
            .map(|l| lesson_item(shelf.game, l, lang))
            .collect(),
        sets: shelf
            .sets
            .iter()
            .map(|s| set_item(shelf.game, s, lang))
            .collect(),
        counts: format!(
            "{} · {}",
            fill(&ui.lesson_count, &[("n", &shelf.lessons.len().to_string())]),
            fill(&ui.problem_count, &[("n", &problems.to_string())])
        ),
    }
}

#[derive(Template)]
#[template(path = "home.html")]
struct HomePage {
    chrome: Chrome,
    games: Vec<GameCard>,
}

/// `GET /`.
pub async fn home(State(state): State<AppState>, req: Req) -> Response {
    let snap = state.snapshot();
    let page = HomePage {
        chrome: Chrome::new(&req, &snap, req.ui().site_name.clone()),
        games: snap
            .library
            .shelves
            .iter()
            .map(|s| game_card(s, req.lang))
            .collect(),
    };
    respond(&req, StatusCode::OK, page.render())
}

#[derive(Template)]
#[template(path = "game.html")]
struct GamePage {
    chrome: Chrome,
    game: GameCard,
}

/// `GET /{game}`.
pub async fn game(
    State(state): State<AppState>,
    req: Req,
    At(GameAt { game }): At<GameAt>,
) -> Response {
    let snap = state.snapshot();
    let Some(shelf) = snap.library.shelf(game) else {
        return missing(&req, &snap);
    };
    let card = game_card(shelf, req.lang);
    let page = GamePage {
        chrome: Chrome::new(&req, &snap, card.name.to_string()),
        game: card,
    };
    respond(&req, StatusCode::OK, page.render())
}

#[derive(Template)]
#[template(path = "diagram.html")]
struct DiagramView<'a> {
    ui: &'static Ui,
    anchor: String,
    svg: &'a str,
    say: Option<&'a str>,
    step: usize,
    total: usize,
    step_label: String,
    prev_href: Option<String>,
    next_href: Option<String>,
    fragment_base: String,
    sgf_href: Option<String>,
    task: Option<TaskView>,
}

/// A step that asks the learner to act, as the diagram shows it.
struct TaskView {
    /// The board with a link on every point or square while the task is open.
    board: String,
    /// Who is to play, when the task asks for a move.
    to_play: String,
    /// The verdict and what to do next (HTML).
    status: String,
    hint: String,
    solved: bool,
    game: &'static str,
    lesson: String,
    diagram: usize,
    moves: String,
    picked: String,
    selected: String,
}

/// Steps of every diagram of a lesson, from `?s=`: `I:K` puts diagram `I` (from 0) at step
/// `K` (`?s=2:1`, or several, `?s=0:3,2:1`); a plain list gives the steps in order
/// (`?s=0,2,1`). Diagrams not named are at their start; steps past the end are the last.
fn steps_from(req: &Req, diagrams: &[Diagram]) -> Vec<usize> {
    let mut steps = vec![0; diagrams.len()];
    let given = req.param("s").unwrap_or("").split(',');
    for (position, entry) in given.take(diagrams.len()).enumerate() {
        let (index, step) = match entry.split_once(':') {
            Some((i, k)) => (i.trim().parse().ok(), k),
            None => (Some(position), entry),
        };
        if let (Some(i), Ok(k)) = (index, step.trim().parse::<usize>()) {
            if let (Some(slot), Some(d)) = (steps.get_mut(i), diagrams.get(i)) {
                *slot = k.min(d.frames.len() - 1);
            }
        }
    }
    steps
}

/// The diagram `t=I` whose task the address's `m`, `p`, `sel` and `play` are for.
fn task_diagram(req: &Req) -> Option<usize> {
    req.param("t").and_then(|t| t.trim().parse().ok())
}

/// The address of diagram `index` of a lesson at `step`, with a task's `query` (may be
/// empty), ending with the diagram's anchor.
pub(crate) fn step_href(
    base: &str,
    index: usize,
    step: usize,
    query: &str,
    anchor: &str,
) -> String {
    if query.is_empty() {
        format!("{base}?s={index}:{step}#{anchor}")
    } else {
        format!("{base}?s={index}:{step}&t={index}&{query}#{anchor}")
    }
}

/// The anchor of diagram `index`: `d-ID`, or `d3` for the third.
pub(crate) fn diagram_anchor(d: &Diagram, index: usize) -> String {
    match &d.id {
        Some(id) => format!("d-{id}"),
        None => format!("d{}", index + 1),
    }
}

/// Draws diagram `index` of a lesson at `steps[index]`; when that step is a task, the
/// learner's `progress` and `input` there (from the address or a script) are judged, and the
/// judgement is returned with the HTML.
pub(crate) fn render_diagram(
    lang: Lang,
    game: Game,
    lesson: &Lesson,
    diagrams: &[Diagram],
    steps: &[usize],
    index: usize,
    task_state: Option<(trainer::Progress, trainer::Input)>,
) -> Result<(String, Option<trainer::Judged>), askama::Error> {
    let ui = Ui::get(lang);
    let d = &diagrams[index];
    let step = steps[index];
    let frame = &d.frames[step];
    let total = d.frames.len() - 1;
    let base = urls::lesson(game, &lesson.slug);
    let anchor = diagram_anchor(d, index);
    // A step link names only its own diagram, so a page's size grows with its diagrams
    // alone (the others go back to their start when followed without the script).
    let href = |s: usize| step_href(&base, index, s, "", &anchor);
    let mut say = if step == 0 {
        d.caption.as_deref()
    } else {
        frame.say.as_deref()
    };
    let mut judgement = None;
    let task = match &frame.task {
        None => None,
        Some(problem) => {
            let (progress, input) = task_state.unwrap_or_default();
            let judged = trainer::judge(problem, progress, input);
            let at = |q: &str| step_href(&base, index, step, q, &anchor);
            let next = (step < total).then(|| Item::link(href(step + 1), ui.next_step.clone()));
            let place = trainer::Place {
                href: &at,
                next,
                explain: false,
            };
            if judged.solved {
                say = problem.explanation.as_ref().map(|e| e.get(lang)).or(say);
            }
            let view = Some(TaskView {
                board: trainer::board_at(problem, &judged, lang, &at),
                to_play: problem
                    .puzzle
                    .to_play()
                    .map(|key| ui.key(key).unwrap_or(key).to_string())
                    .unwrap_or_default(),
                status: trainer::status_at(problem, &judged, lang, &place)?,
                hint: problem
                    .hint
                    .as_ref()
                    .map(|h| h.get(lang).to_string())
                    .unwrap_or_default(),
                solved: judged.solved,
                game: game.slug(),
                lesson: lesson.slug.clone(),
                diagram: index,
                moves: judged.progress.moves.join(","),
                picked: judged.progress.picked.join(","),
                selected: judged.progress.selected.clone().unwrap_or_default(),
            });
            judgement = Some(judged);
            view
        }
    };
    // The step after a task opens once the task is done.
    let locked = task.as_ref().is_some_and(|t| !t.solved);
    DiagramView {
        ui,
        anchor: anchor.clone(),
        svg: frame.svg(),
        say,
        step,
        total,
        step_label: if step == 0 {
            ui.start_position.clone()
        } else {
            fill(
                &ui.step_of,
                &[("i", &step.to_string()), ("n", &total.to_string())],
            )
        },
        prev_href: (step > 0).then(|| href(step - 1)),
        next_href: (step < total && !locked).then(|| href(step + 1)),
        fragment_base: urls::diagram(game, &lesson.slug, index),
        sgf_href: d
            .go_line
            .as_ref()
            .map(|_| urls::diagram_sgf(game, &lesson.slug, index)),
        task,
    }
    .render()
    .map(|html| (html, judgement))
}

#[derive(Template)]
#[template(path = "lesson.html")]
struct LessonPage {
    chrome: Chrome,
    game_name: &'static str,
    game_href: String,
    title: String,
    parts: Vec<String>,
    prev: Option<Item>,
    next: Option<Item>,
    practise: Vec<Item>,
    print_href: String,
    /// The game's and the lesson's slugs, for a student's "I have read it" form.
    game_slug: &'static str,
    slug: String,
    /// The student has just marked it read.
    read: bool,
}

/// `GET /{game}/lessons/{slug}`.
pub async fn lesson(State(app): State<AppState>, found: FoundLesson) -> Response {
    let (req, snap, shelf, lesson) = (&found.req, &found.snap, found.shelf(), found.lesson());
    let text = lesson.text(req.lang);
    let steps = steps_from(&req, &text.diagrams);
    // A lesson depends only on its language and its diagrams' steps: rendered once for
    // each, from the canonical address, however the address was spelled.
    let state: Vec<String> = (steps.iter().enumerate())
        .filter(|(_, &k)| k > 0)
        .map(|(i, k)| format!("{i}:{k}"))
        .collect();
    if req.account.is_some() && req.param("s").is_none() {
        super::class::record_opened(&app, req.account.as_ref(), shelf.game, &lesson.slug).await;
    }
    // Pages of a logged-in learner carry their name: not kept in the cache.
    let cache_key = (req.account.is_none()
        && req.query.iter().all(|(k, _)| k == "lang" || k == "s"))
    .then(|| PageKey {
        game: shelf.game,
        page: format!("lessons/{}", lesson.slug),
        lang: req.lang,
        state: state.join(","),
    });
    if let Some(page) = cache_key.as_ref().and_then(|k| snap.cache.get(k)) {
        return respond_bytes(&req, StatusCode::OK, page);
    }
    let canonical = cache_key.as_ref().map(|k| Req {
        lang: req.lang,
        chosen: req.chosen,
        path: format!("/{}/{}", shelf.game.slug(), k.page),
        query: (!k.state.is_empty())
            .then(|| ("s".to_string(), k.state.clone()))
            .into_iter()
            .collect(),
        account: None,
    });
    let req = canonical.as_ref().unwrap_or(&req);
    let parts = text
        .body
        .iter()
        .map(|seg| match seg {
            Segment::Html(h) => Ok(h.clone()),
            Segment::Diagram(i) => {
                let state = (task_diagram(&found.req) == Some(*i))
                    .then(|| trainer::from_address(&found.req));
                render_diagram(
                    req.lang,
                    shelf.game,
                    lesson,
                    &text.diagrams,
                    &steps,
                    *i,
                    state,
                )
                .map(|(html, _)| html)
            }
        })
        .collect::<Result<Vec<_>, _>>();
    let parts = match parts {
        Ok(parts) => parts,
        Err(e) => return respond(req, StatusCode::OK, Err(e)),
    };
    let i = shelf
        .lessons
        .iter()
        .position(|l| l.slug == lesson.slug)
        .unwrap_or(0);
    let link = |l: &Lesson| lesson_item(shelf.game, l, req.lang);
    let page = LessonPage {
        chrome: Chrome::new(&req, &snap, text.title.clone()),
        game_name: shelf.game.name(req.lang),
        game_href: urls::game(shelf.game),
        title: text.title.clone(),
        parts,
        print_href: urls::lesson_print(shelf.game, &lesson.slug),
        game_slug: shelf.game.slug(),
        slug: lesson.slug.clone(),
        read: found.req.param("read").is_some(),
        prev: i
            .checked_sub(1)
            .and_then(|j| shelf.lessons.get(j))
            .map(link),
        next: shelf.lessons.get(i + 1).map(link),
        practise: shelf
            .sets
            .iter()
            .filter(|s| s.lesson.as_deref() == Some(lesson.slug.as_str()))
            .map(|s| set_item(shelf.game, s, req.lang))
            .collect(),
    };
    match (page.render(), cache_key) {
        (Ok(html), Some(key)) => {
            let html = Bytes::from(html);
            snap.cache.put(key, html.clone());
            respond_bytes(&req, StatusCode::OK, html)
        }
        (html, _) => respond(&req, StatusCode::OK, html),
    }
}

/// One frame of a diagram on the print page.
struct PrintFrame<'a> {
    svg: &'a str,
    label: String,
    say: &'a str,
}

#[derive(Template)]
#[template(path = "lesson_print.html")]
struct LessonPrintPage<'a> {
    chrome: Chrome,
    title: String,
    back: String,
    parts: Vec<PrintPart<'a>>,
}

enum PrintPart<'a> {
    Html(&'a str),
    Frames(Vec<PrintFrame<'a>>),
}

/// `GET /{game}/lessons/{slug}/print`: the lesson with every frame of every diagram.
pub async fn lesson_print(found: FoundLesson) -> Response {
    let (req, snap, shelf, lesson) = (&found.req, &found.snap, found.shelf(), found.lesson());
    let ui = req.ui();
    let text = lesson.text(req.lang);
    let parts = text
        .body
        .iter()
        .map(|seg| match seg {
            Segment::Html(h) => PrintPart::Html(h),
            Segment::Diagram(i) => {
                let d = &text.diagrams[*i];
                PrintPart::Frames(
                    d.frames
                        .iter()
                        .enumerate()
                        .map(|(n, f)| PrintFrame {
                            svg: f.svg(),
                            label: if n == 0 {
                                ui.start_position.clone()
                            } else {
                                fill(
                                    &ui.step_of,
                                    &[
                                        ("i", &n.to_string()),
                                        ("n", &(d.frames.len() - 1).to_string()),
                                    ],
                                )
                            },
                            say: if n == 0 {
                                d.caption.as_deref().unwrap_or("")
                            } else {
                                f.say.as_deref().unwrap_or("")
                            },
                        })
                        .collect(),
                )
            }
        })
        .collect();
    let page = LessonPrintPage {
        chrome: Chrome::new(&req, &snap, text.title.clone()),
        title: text.title.clone(),
        back: urls::lesson(shelf.game, &lesson.slug),
        parts,
    };
    respond(&req, StatusCode::OK, page.render())
}

/// An SGF file to download.
pub(crate) fn sgf_response(name: &str, sgf: String) -> Response {
    (
        [
            (
                header::CONTENT_TYPE,
                "application/x-go-sgf; charset=utf-8".to_string(),
            ),
            (
                header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"{name}.sgf\""),
            ),
        ],
        sgf,
    )
        .into_response()
}

/// `GET /go/lessons/{slug}/diagram/{index}/sgf`: a Go diagram as an SGF file.
pub async fn diagram_sgf(
    found: FoundLesson,
    At(DiagramAt { index, .. }): At<DiagramAt>,
) -> Response {
    let (req, lesson) = (&found.req, found.lesson());
    let text = lesson.text(req.lang);
    let Some((start, moves)) = text.diagrams.get(index).and_then(|d| d.go_line.as_ref()) else {
        return StatusCode::NOT_FOUND.into_response();
    };
    let line = crate::import::sgf::SgfLine {
        moves: moves.clone(),
        right: false,
        comment: None,
    };
    let lines = if moves.is_empty() {
        Vec::new()
    } else {
        vec![line]
    };
    let caption = text.diagrams[index].caption.as_deref();
    let sgf = crate::import::sgf::to_sgf(start, caption, &lines);
    sgf_response(&format!("{}-{}", lesson.slug, index + 1), sgf)
}

/// `GET /{game}/lessons/{slug}/diagram/{index}?s=…`: one diagram figure, for the script.
pub async fn diagram(found: FoundLesson, At(DiagramAt { index, .. }): At<DiagramAt>) -> Response {
    let (req, shelf, lesson) = (&found.req, found.shelf(), found.lesson());
    let text = lesson.text(req.lang);
    if index >= text.diagrams.len() {
        return StatusCode::NOT_FOUND.into_response();
    }
    let steps = steps_from(&req, &text.diagrams);
    let state = (task_diagram(req) == Some(index)).then(|| trainer::from_address(req));
    let html = render_diagram(
        req.lang,
        shelf.game,
        lesson,
        &text.diagrams,
        &steps,
        index,
        state,
    )
    .map(|(html, _)| html);
    respond(&req, StatusCode::OK, html)
}

#[derive(Template)]
#[template(path = "set.html")]
struct SetPage {
    chrome: Chrome,
    worksheet_href: String,
    game_name: &'static str,
    game_href: String,
    title: String,
    summary: String,
    lesson: Option<Item>,
    problems: Vec<Item>,
}

/// `GET /{game}/problems/{set}`.
pub async fn set(found: FoundSet) -> Response {
    let (req, snap, shelf, set) = (&found.req, &found.snap, found.shelf(), found.set());
    let ui = req.ui();
    let page = SetPage {
        chrome: Chrome::new(&req, &snap, set.title.get(req.lang).to_string()),
        worksheet_href: urls::worksheet(shelf.game, &set.slug),
        game_name: shelf.game.name(req.lang),
        game_href: urls::game(shelf.game),
        title: set.title.get(req.lang).to_string(),
        summary: set
            .summary
            .as_ref()
            .map(|s| s.get(req.lang).to_string())
            .unwrap_or_default(),
        lesson: set
            .lesson
            .as_ref()
            .and_then(|l| shelf.lesson(l))
            .map(|l| lesson_item(shelf.game, l, req.lang)),
        problems: set
            .problems
            .iter()
            .enumerate()
            .map(|(i, p)| Item {
                href: urls::problem(shelf.game, &set.slug, &p.id),
                title: fill(&ui.problem, &[("n", &(i + 1).to_string())]),
                note: p.prompt.get(req.lang).to_string(),
                keys: progress_key(shelf.game, set, p),
            })
            .collect(),
    };
    respond(&req, StatusCode::OK, page.render())
}

pub(crate) fn find_set<'a>(
    snap: &'a Snapshot,
    game: Game,
    set: &str,
) -> Option<(&'a Shelf, &'a ProblemSet)> {
    let shelf = snap.library.shelf(game)?;
    Some((shelf, shelf.set(set)?))
}

#[derive(Template)]
#[template(path = "not_found.html")]
struct NotFoundPage {
    chrome: Chrome,
}

pub(crate) fn missing(req: &Req, snap: &Snapshot) -> Response {
    let page = NotFoundPage {
        chrome: Chrome::new(req, snap, req.ui().not_found.clone()),
    };
    respond(req, StatusCode::NOT_FOUND, page.render())
}

/// Any other address.
pub async fn not_found(State(state): State<AppState>, req: Req) -> Response {
    missing(&req, &state.snapshot())
}
