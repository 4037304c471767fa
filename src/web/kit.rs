//! The web kit: what every feature of the web layer shares — reading a request (`Req`, the
//! address extractors), the page frame (`Chrome`), the one responder, the message and error
//! pages, and small helpers (escaping, cookies, store calls off the async workers).

use super::i18n::{fill, negotiate, Ui};
use super::state::Snapshot;
use super::AppState;
use crate::class::{self, password, Account, ClassError, Store};
use crate::content::{Game, Lesson, Problem, ProblemSet, Shelf};
use crate::lang::Lang;
use askama::Template;
use axum::body::Bytes;
use axum::extract::{FromRequestParts, Path, Query};
use axum::http::request::Parts;
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{Html, IntoResponse, Response};
use percent_encoding::{utf8_percent_encode, AsciiSet, NON_ALPHANUMERIC};
use serde::de::DeserializeOwned;
use serde::Deserialize;
use std::convert::Infallible;
use std::sync::Arc;

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
#[derive(Clone)]
pub(crate) struct Req {
    pub lang: Lang,
    /// `?lang=` was given: remember it in a cookie.
    pub chosen: bool,
    pub path: String,
    pub query: Vec<(String, String)>,
    /// The logged-in account, if the request carries a live session.
    pub account: Option<crate::class::Account>,
    /// The host the request was sent to ([`site_host`]).
    pub host: String,
}

/// The host a request was sent to (its `Host` header, with the port), when it is a plain
/// name or address: what a page gives as the address to type or scan on another device;
/// `localhost` otherwise.
pub(crate) fn site_host(headers: &HeaderMap) -> String {
    headers
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())
        .filter(|h| {
            !h.is_empty()
                && h.len() <= 255
                && h.bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b"-.:[]".contains(&b))
        })
        .unwrap_or("localhost")
        .to_string()
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
        let account = account_of(state, &parts.headers).await;
        Ok(Req {
            lang,
            chosen: asked.and_then(Lang::parse).is_some(),
            path: parts.uri.path().to_string(),
            query,
            account,
            host: site_host(&parts.headers),
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

pub(crate) fn respond_bytes(req: &Req, status: StatusCode, html: Bytes) -> Response {
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

/// The session cookie.
pub const SESSION_COOKIE: &str = "qiyuan-session";

/// Runs a store call off the async workers.
pub(crate) async fn blocking<T: Send + 'static>(
    store: &Arc<dyn Store>,
    f: impl FnOnce(&dyn Store) -> Result<T, ClassError> + Send + 'static,
) -> Result<T, ClassError> {
    let store = store.clone();
    tokio::task::spawn_blocking(move || f(&*store))
        .await
        .unwrap_or_else(|e| Err(ClassError::Database(format!("a store call failed: {e}"))))
}

/// The value of the cookie `name` in a request's cookies.
pub(crate) fn cookie(headers: &HeaderMap, name: &str) -> Option<String> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|kv| kv.trim().split_once('='))
        .find(|(k, _)| *k == name)
        .map(|(_, v)| v.to_string())
}

/// The session token in the request's cookies (32 hex digits, or none).
pub(crate) fn session_token(headers: &HeaderMap) -> Option<String> {
    cookie(headers, SESSION_COOKIE)
        .filter(|v| v.len() == 32 && v.bytes().all(|b| b.is_ascii_hexdigit()))
}

/// The account of a request's session cookie, if it names a live session.
pub(crate) async fn account_of(state: &AppState, headers: &HeaderMap) -> Option<Account> {
    let room = state.classroom()?;
    let token = session_token(headers)?;
    let hash = password::token_hash(&token);
    match blocking(&room.store, move |s| s.session(&hash, class::now())).await {
        Ok(a) => a,
        Err(e) => {
            eprintln!("qiyuan: cannot read a session: {e}");
            None
        }
    }
}

/// A message page with a status (refusals, errors), in the learner's language.
pub(crate) fn message(req: &Req, snap: &Snapshot, status: StatusCode, text: &str) -> Response {
    let page = MessagePage {
        chrome: Chrome::new(req, snap, req.ui().class.title.clone()),
        text: text.to_string(),
    };
    respond(req, status, page.render())
}

#[derive(Template)]
#[template(path = "class_message.html")]
struct MessagePage {
    chrome: Chrome,
    text: String,
}

/// A store error as the learner reads it: disk full and a newer database told plainly, the
/// rest with the error's text.
pub(crate) fn store_failed(req: &Req, snap: &Snapshot, e: &ClassError) -> Response {
    eprintln!("qiyuan: classroom: {e}");
    let ui = &req.ui().class;
    let (status, text) = match e {
        ClassError::Unwritable(_) => (StatusCode::SERVICE_UNAVAILABLE, ui.unwritable.clone()),
        ClassError::NotFound => (StatusCode::NOT_FOUND, ui.not_found.clone()),
        _ => (
            StatusCode::SERVICE_UNAVAILABLE,
            fill(&ui.store_error, &[("error", &e.to_string())]),
        ),
    };
    message(req, snap, status, &text)
}

/// A page that cannot be shown: why, told in the asker's language on its page.
pub(crate) struct PageError {
    /// Boxed: errors stay small.
    req: Box<Req>,
    snap: Snapshot,
    why: Why,
}

/// Why a page cannot be shown; each cause answers with its page and status.
pub(crate) enum Why {
    /// Nothing here: the 404 page ([`missing`]).
    Missing,
    /// The classroom's store failed: [`store_failed`]'s page (and a line in the log).
    Store(ClassError),
    /// A template failed: 500 with the reason (and a line in the log), as [`respond`] answers.
    Template(askama::Error),
    /// The account may not do this (a student on a teacher's page, or the other way): the
    /// classroom's 403 page.
    Forbidden,
    /// A form's CSRF secret is wrong: the classroom's 403 page, saying so.
    BadForm,
    /// No such class, student, lesson or number (or not this teacher's): the classroom's 404
    /// page.
    NoClass,
    /// A student sends events faster than the classroom counts them: the classroom's 429 page.
    TooFast,
}

impl PageError {
    /// `why`, told on the page of `req`.
    pub(crate) fn new(req: &Req, snap: &Snapshot, why: Why) -> PageError {
        PageError {
            req: Box::new(req.clone()),
            snap: snap.clone(),
            why,
        }
    }

    /// The 404 page of `req`.
    pub(crate) fn missing(req: &Req, snap: &Snapshot) -> PageError {
        PageError::new(req, snap, Why::Missing)
    }

    /// The store's `error`, on the page of `req`.
    pub(crate) fn store(req: &Req, snap: &Snapshot, error: ClassError) -> PageError {
        PageError::new(req, snap, Why::Store(error))
    }

    /// A template's `error` on the page of `req`.
    pub(crate) fn template(req: &Req, snap: &Snapshot, error: askama::Error) -> PageError {
        PageError::new(req, snap, Why::Template(error))
    }
}

/// For the handlers that answer a [`Response`] and use `?` on a [`PageError`].
impl From<PageError> for Response {
    fn from(e: PageError) -> Response {
        e.into_response()
    }
}

impl IntoResponse for PageError {
    fn into_response(self) -> Response {
        let PageError { req, snap, why } = self;
        let ui = &req.ui().class;
        match why {
            Why::Missing => missing(&req, &snap),
            Why::Store(error) => store_failed(&req, &snap, &error),
            Why::Template(error) => respond(&req, StatusCode::OK, Err(error)),
            Why::Forbidden => message(&req, &snap, StatusCode::FORBIDDEN, &ui.forbidden),
            Why::BadForm => message(&req, &snap, StatusCode::FORBIDDEN, &ui.bad_form),
            Why::NoClass => message(&req, &snap, StatusCode::NOT_FOUND, &ui.not_found),
            Why::TooFast => message(
                &req,
                &snap,
                StatusCode::TOO_MANY_REQUESTS,
                &ui.events_too_fast,
            ),
        }
    }
}

/// A form that carries only the CSRF secret.
#[derive(Deserialize)]
pub struct CsrfForm {
    #[serde(default)]
    pub csrf: String,
}
