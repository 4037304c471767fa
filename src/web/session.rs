//! The classroom on the web: logging in and out, sessions and their CSRF secret, the
//! student's home page with their homework, and the recording of what a logged-in student
//! does (every move judged, hints, solutions, lessons, games).
//!
//! Statuses, the same on every classroom route (`tests/class_auth.rs` checks them all):
//! anonymous → `303` to `/login` for a page, `401` for an API or a file; signed in with the
//! wrong role → `403`; a teacher asking for another teacher's class → `404` (its existence is
//! not told); a form without the session's CSRF secret, or sent from another site → `403`.

use super::i18n::{fill, Ui};
use super::kit::{blocking, enc, message, respond, session_token, store_failed, Chrome, Req};
pub use super::kit::{CsrfForm, SESSION_COOKIE};
use super::serve::Client;
use super::small;
use super::state::Snapshot;
use super::AppState;
use crate::base::Game;
use crate::class::throttle::{Kind, StudentEvents, Throttle};
use crate::class::{
    self, password, Account, Act, Assignment, Class, ClassError, ClassId, LessonMark, Millis,
    PictureCode, Played, Reading, Role, Status, Store, StudentId, Task, Try,
};
use crate::lang::Lang;
use askama::Template;
use axum::extract::{FromRequestParts, State};
use axum::http::request::Parts;
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Redirect, Response};
use axum::routing::{get, post};
use axum::Router;
use axum::{Form, Json};
use serde::Deserialize;
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

/// The routes of the sessions: logging in and out, the student's home page, what students send.
pub(super) fn routes() -> Router<AppState> {
    Router::new()
        .route("/login", get(login_page))
        .route("/login/student", post(login_student).layer(small()))
        .route("/login/teacher", post(login_teacher).layer(small()))
        .route("/logout", post(logout).layer(small()))
        .route("/me", get(me))
        .route("/me/read", post(read_form).layer(small()))
        .route("/api/class/event", post(api_event).layer(small()))
        .route(
            "/api/class/merge",
            post(api_merge).layer(axum::extract::DefaultBodyLimit::max(1 << 20)),
        )
}

/// How long a student stays logged in: a school day.
pub const STUDENT_SESSION: Duration = Duration::from_secs(12 * 3600);
/// How long a teacher stays logged in.
pub const TEACHER_SESSION: Duration = Duration::from_secs(7 * 24 * 3600);
/// Failed logins allowed for one name in [`LOGIN_WINDOW`].
pub const LOGIN_TRIES: u32 = class::throttle::NAME_TRIES;
/// The window of [`LOGIN_TRIES`].
pub const LOGIN_WINDOW: Duration = class::throttle::WINDOW;

/// The classroom of a server: its store, and the limits on logging in, on checking
/// passwords and on what students send.
pub struct Classroom {
    /// Where everything is kept.
    pub store: Arc<dyn Store>,
    /// The data folder, when the store lives in one (printed at start, used by backups).
    pub folder: Option<PathBuf>,
    limiter: Throttle,
    hashing: password::Gate,
    events: StudentEvents,
    opened: StudentEvents,
}

impl Classroom {
    /// A classroom over `store`, checking as many passwords at once as there are cores.
    pub fn new(store: Arc<dyn Store>, folder: Option<PathBuf>) -> Classroom {
        Classroom::with_gate(store, folder, password::Gate::for_cores())
    }

    /// A classroom over `store` whose passwords are checked through `hashing`.
    pub fn with_gate(
        store: Arc<dyn Store>,
        folder: Option<PathBuf>,
        hashing: password::Gate,
    ) -> Classroom {
        Classroom {
            store,
            folder,
            limiter: Throttle::default(),
            hashing,
            events: StudentEvents::default(),
            opened: StudentEvents::default(),
        }
    }
}

fn session_cookie(token: &str, max_age: Duration) -> HeaderValue {
    HeaderValue::from_str(&format!(
        "{SESSION_COOKIE}={token}; Path=/; HttpOnly; SameSite=Strict; Max-Age={}",
        max_age.as_secs()
    ))
    .unwrap_or_else(|_| HeaderValue::from_static("qiyuan-session=; Path=/; Max-Age=0"))
}

/// Whether two secrets are equal, in time that does not depend on where they differ.
pub(crate) fn same_secret(a: &str, b: &str) -> bool {
    a.len() == b.len()
        && a.bytes()
            .zip(b.bytes())
            .fold(0u8, |acc, (x, y)| acc | (x ^ y))
            == 0
}

/// Whether a form was sent from another site (`Sec-Fetch-Site: cross-site`, or an `Origin`
/// that is not this host): refused whatever it carries.
pub(crate) fn cross_site(headers: &HeaderMap) -> bool {
    let get = |h: &str| headers.get(h).and_then(|v| v.to_str().ok());
    if get("sec-fetch-site") == Some("cross-site") {
        return true;
    }
    match (get("origin"), get("host")) {
        (Some("null"), _) => true,
        (Some(origin), Some(host)) => {
            let bare = origin
                .strip_prefix("http://")
                .or_else(|| origin.strip_prefix("https://"))
                .unwrap_or(origin);
            bare != host
        }
        _ => false,
    }
}

/// A signed-in request: its account and the classroom. Anonymous requests are sent to
/// `/login` (pages) or answered 401 (`/api/…`, files); a server without a classroom answers
/// 404 with how to have one.
pub(crate) struct Signed {
    pub req: Req,
    pub snap: Snapshot,
    pub room: Arc<Classroom>,
    pub account: Account,
}

impl Signed {
    /// The teacher's id, or a 403.
    pub fn teacher(&self) -> Result<class::TeacherId, Response> {
        self.account.teacher().ok_or_else(|| self.forbidden())
    }

    /// The student and their class, or a 403.
    pub fn student(&self) -> Result<(StudentId, ClassId), Response> {
        self.account.student().ok_or_else(|| self.forbidden())
    }

    /// The 403 page.
    pub fn forbidden(&self) -> Response {
        message(
            &self.req,
            &self.snap,
            StatusCode::FORBIDDEN,
            &self.req.ui().class.forbidden,
        )
    }

    /// Checks a form's CSRF secret, or answers 403.
    pub fn check(&self, csrf: &str) -> Result<(), Response> {
        if same_secret(csrf, &self.account.csrf) {
            Ok(())
        } else {
            Err(message(
                &self.req,
                &self.snap,
                StatusCode::FORBIDDEN,
                &self.req.ui().class.bad_form,
            ))
        }
    }

    /// This teacher's class `id`, or 403 (a student) / 404 (not theirs, deleted, none).
    pub async fn own_class(&self, id: i64) -> Result<Class, Response> {
        let teacher = self.teacher()?;
        let found = blocking(&self.room.store, move |s| s.class(ClassId(id))).await;
        match found {
            Ok(Some(c)) if c.teacher == teacher => Ok(c),
            Ok(_) => Err(message(
                &self.req,
                &self.snap,
                StatusCode::NOT_FOUND,
                &self.req.ui().class.not_found,
            )),
            Err(e) => Err(store_failed(&self.req, &self.snap, &e)),
        }
    }
}

impl FromRequestParts<AppState> for Signed {
    type Rejection = Response;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Signed, Response> {
        let Ok(req) = Req::from_request_parts(parts, state).await;
        let snap = state.snapshot();
        let Some(room) = state.classroom_arc() else {
            return Err(message(
                &req,
                &snap,
                StatusCode::NOT_FOUND,
                &req.ui().class.no_classroom,
            ));
        };
        if parts.method == axum::http::Method::POST && cross_site(&parts.headers) {
            return Err(message(
                &req,
                &snap,
                StatusCode::FORBIDDEN,
                &req.ui().class.bad_form,
            ));
        }
        match req.account.clone() {
            Some(account) => Ok(Signed {
                req,
                snap,
                room,
                account,
            }),
            None => {
                let path = parts.uri.path();
                let file = path.starts_with("/api/")
                    || path.ends_with(".csv")
                    || path.ends_with(".svg")
                    || path.ends_with("/events");
                if file || parts.method != axum::http::Method::GET {
                    Err(
                        (StatusCode::UNAUTHORIZED, req.ui().class.login_first.clone())
                            .into_response(),
                    )
                } else {
                    let next = parts
                        .uri
                        .path_and_query()
                        .map(|p| p.as_str())
                        .unwrap_or("/");
                    Err(Redirect::to(&format!("/login?next={}", enc(next))).into_response())
                }
            }
        }
    }
}

/// Where to go after logging in: a path on this site, never another site, else `fallback`.
fn safe_next(next: Option<&str>, fallback: &str) -> String {
    match next {
        Some(n) if same_site_path(n) => n.to_string(),
        _ => fallback.to_string(),
    }
}

/// Whether `n` is a path on this site: one `/` first (not `//`, which names another host),
/// no backslash (read as `/` by browsers), and only visible ASCII (no space, no tab, CR or LF,
/// which browsers drop, so that `/\t/evil.example` would become `//evil.example`; an address
/// made by this site is percent-encoded).
fn same_site_path(n: &str) -> bool {
    n.starts_with('/')
        && !n.starts_with("//")
        && n.bytes().all(|b| b.is_ascii_graphic() && b != b'\\')
}

/// `GET /login`.
pub(crate) async fn login_page(State(state): State<AppState>, req: Req) -> Response {
    login_form(&state, &req, "", StatusCode::OK, LoginForm::default())
}

#[derive(Default, Deserialize)]
pub struct LoginForm {
    #[serde(default)]
    class: String,
    #[serde(default)]
    name: String,
    #[serde(default)]
    code: String,
    #[serde(default)]
    p1: String,
    #[serde(default)]
    p2: String,
    #[serde(default)]
    p3: String,
    #[serde(default)]
    password: String,
    #[serde(default)]
    next: String,
}

struct Picture {
    index: usize,
    emoji: &'static str,
    word: &'static str,
}

#[derive(Template)]
#[template(path = "login.html")]
struct LoginPage {
    chrome: Chrome,
    error: String,
    class: String,
    name: String,
    next: String,
    pictures: Vec<Picture>,
    enabled: bool,
}

fn login_form(
    state: &AppState,
    req: &Req,
    error: &str,
    status: StatusCode,
    form: LoginForm,
) -> Response {
    let snap = state.snapshot();
    let page = LoginPage {
        chrome: Chrome::new(req, &snap, req.ui().class.login.clone()),
        error: error.to_string(),
        class: form.class,
        name: form.name,
        next: if form.next.is_empty() {
            req.param("next").unwrap_or("").to_string()
        } else {
            form.next
        },
        pictures: class::codes::PICTURES
            .iter()
            .enumerate()
            .map(|(index, (emoji, zh, en))| Picture {
                index,
                emoji,
                word: if req.lang == Lang::Zh { zh } else { en },
            })
            .collect(),
        enabled: state.classroom().is_some(),
    };
    respond(req, status, page.render())
}

async fn start_session(room: &Classroom, role: Role, name: String, next: String) -> Response {
    let life = match role {
        Role::Teacher(_) => TEACHER_SESSION,
        Role::Student(..) => STUDENT_SESSION,
    };
    let token = crate::random::token();
    let account = Account {
        role,
        name,
        csrf: crate::random::token(),
        expires: class::now() + life.as_millis() as Millis,
    };
    let hash = password::token_hash(&token);
    match blocking(&room.store, move |s| s.open_session(&hash, &account)).await {
        Ok(()) => {
            let mut r = Redirect::to(&next).into_response();
            r.headers_mut()
                .append(header::SET_COOKIE, session_cookie(&token, life));
            r
        }
        Err(e) => {
            eprintln!("qiyuan: cannot open a session: {e}");
            (StatusCode::SERVICE_UNAVAILABLE, e.to_string()).into_response()
        }
    }
}

/// `POST /login/student`: class code, name and picture code. A wrong class, a wrong name and
/// a wrong code get the same answer; eight failures for one name in ten minutes lock it for
/// the rest of the ten minutes.
pub(crate) async fn login_student(
    State(state): State<AppState>,
    req: Req,
    Client(peer): Client,
    headers: HeaderMap,
    Form(form): Form<LoginForm>,
) -> Response {
    let ui = &req.ui().class;
    let Some(room) = state.classroom_arc() else {
        return login_form(&state, &req, &ui.no_classroom, StatusCode::NOT_FOUND, form);
    };
    if cross_site(&headers) {
        return login_form(&state, &req, &ui.bad_form, StatusCode::FORBIDDEN, form);
    }
    let typed = if form.code.trim().is_empty() {
        format!("{} {} {}", form.p1, form.p2, form.p3)
    } else {
        form.code.clone()
    };
    let key = format!(
        "{}:{}",
        form.class.trim().to_lowercase(),
        form.name.trim().to_lowercase()
    );
    let reserved = match room.limiter.reserve(Kind::Student, &key, peer) {
        Ok(r) => r,
        Err(_) => return too_many(&state, &req, form),
    };
    let (class_code, name) = (form.class.clone(), form.name.clone());
    let found = blocking(&room.store, move |s| s.student_login(&class_code, &name)).await;
    let student = match found {
        Ok(s) => s,
        Err(e) => {
            room.limiter.refund(reserved);
            return store_failed(&req, &state.snapshot(), &e);
        }
    };
    let code = PictureCode::parse(&typed);
    match student {
        Some(st) if code == Some(st.code) => {
            room.limiter.succeeded(reserved);
            let next = safe_next(
                Some(form.next.as_str()).filter(|n| !n.is_empty()),
                "/me?merge=1",
            );
            start_session(&room, Role::Student(st.id, st.class), st.name, next).await
        }
        _ => {
            room.limiter.failed(reserved);
            login_form(
                &state,
                &req,
                &ui.wrong_login,
                StatusCode::UNAUTHORIZED,
                form,
            )
        }
    }
}

/// `POST /login/teacher`: name and password (argon2id; an unknown name is checked against a
/// decoy hash, so it takes as long as a wrong password).
pub(crate) async fn login_teacher(
    State(state): State<AppState>,
    req: Req,
    Client(peer): Client,
    headers: HeaderMap,
    Form(mut form): Form<LoginForm>,
) -> Response {
    let ui = &req.ui().class;
    let Some(room) = state.classroom_arc() else {
        return login_form(&state, &req, &ui.no_classroom, StatusCode::NOT_FOUND, form);
    };
    if cross_site(&headers) {
        return login_form(&state, &req, &ui.bad_form, StatusCode::FORBIDDEN, form);
    }
    let key = form.name.trim().to_lowercase();
    let reserved = match room.limiter.reserve(Kind::Teacher, &key, peer) {
        Ok(r) => r,
        Err(_) => return too_many(&state, &req, form),
    };
    let password = std::mem::take(&mut form.password);
    let name = form.name.clone();
    let found = blocking(&room.store, move |s| {
        Ok(match s.teacher_login(&name)? {
            Some((t, hash)) => (Some(t), hash),
            None => (None, password::decoy().to_string()),
        })
    })
    .await;
    let (teacher, hash) = match found {
        Ok(found) => found,
        Err(e) => {
            room.limiter.refund(reserved);
            return store_failed(&req, &state.snapshot(), &e);
        }
    };
    match (room.hashing.check(password, hash).await, teacher) {
        (Ok(true), Some(t)) => {
            room.limiter.succeeded(reserved);
            let next = safe_next(
                Some(form.next.as_str()).filter(|n| !n.is_empty()),
                "/teacher",
            );
            start_session(&room, Role::Teacher(t.id), t.name, next).await
        }
        (Ok(_), _) => {
            room.limiter.failed(reserved);
            login_form(
                &state,
                &req,
                &ui.wrong_password,
                StatusCode::UNAUTHORIZED,
                form,
            )
        }
        (Err(e), _) => {
            // Not a wrong password: not counted, and told as what it is.
            room.limiter.refund(reserved);
            eprintln!("qiyuan: a teacher's password could not be checked: {e}");
            let (status, text) = match e {
                password::PasswordError::Busy => (StatusCode::SERVICE_UNAVAILABLE, ui.busy.clone()),
                password::PasswordError::Hashing(_) => (
                    StatusCode::SERVICE_UNAVAILABLE,
                    fill(&ui.check_failed, &[("error", &e.to_string())]),
                ),
                password::PasswordError::Malformed(_) => (
                    StatusCode::INTERNAL_SERVER_ERROR,
                    fill(&ui.check_failed, &[("error", &e.to_string())]),
                ),
            };
            let mut r = login_form(&state, &req, &text, status, form);
            if status == StatusCode::SERVICE_UNAVAILABLE {
                r.headers_mut()
                    .insert(header::RETRY_AFTER, HeaderValue::from_static("1"));
            }
            r
        }
    }
}

/// The answer to a login refused by the limits (429), whichever limit it met.
fn too_many(state: &AppState, req: &Req, form: LoginForm) -> Response {
    login_form(
        state,
        req,
        &req.ui().class.too_many,
        StatusCode::TOO_MANY_REQUESTS,
        form,
    )
}

/// `POST /logout`.
pub(crate) async fn logout(
    signed: Signed,
    headers: HeaderMap,
    Form(form): Form<CsrfForm>,
) -> Response {
    if let Err(r) = signed.check(&form.csrf) {
        return r;
    }
    if let Some(token) = session_token(&headers) {
        let hash = password::token_hash(&token);
        if let Err(e) = blocking(&signed.room.store, move |s| s.close_session(&hash)).await {
            return store_failed(&signed.req, &signed.snap, &e);
        }
    }
    let mut r = Redirect::to("/").into_response();
    r.headers_mut().append(
        header::SET_COOKIE,
        HeaderValue::from_static("qiyuan-session=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0"),
    );
    r
}

/// A task of a homework as the pages show it: its title, link and the problems or lessons
/// behind it.
pub(crate) struct TaskView {
    pub title: String,
    pub href: String,
    /// The problems (or the lesson) this task asks for, as problem/lesson tasks.
    pub items: Vec<Task>,
    /// Whether the content still has it.
    pub exists: bool,
}

/// Finds a task in the content: its title, address and the problems behind it (a set's
/// problems, in order).
pub(crate) fn view_task(snap: &Snapshot, task: &Task, lang: Lang) -> TaskView {
    let shelf = |g: &str| {
        Game::from_slug(g).and_then(|g| snap.library.shelves.iter().find(|s| s.game == g))
    };
    let missing = || TaskView {
        title: task.path(),
        href: format!("/{}", task.path()),
        items: vec![task.clone()],
        exists: false,
    };
    match task {
        Task::Problem { game, set, id } => {
            let Some(s) = shelf(game).and_then(|sh| sh.sets.iter().find(|x| &x.slug == set)) else {
                return missing();
            };
            let Some(i) = s.problems.iter().position(|p| &p.id == id) else {
                return missing();
            };
            TaskView {
                title: format!(
                    "{} · {}",
                    s.title.get(lang),
                    fill(&Ui::get(lang).problem, &[("n", &(i + 1).to_string())])
                ),
                href: format!("/{}", task.path()),
                items: vec![task.clone()],
                exists: true,
            }
        }
        Task::Set { game, set } => {
            let Some(s) = shelf(game).and_then(|sh| sh.sets.iter().find(|x| &x.slug == set)) else {
                return missing();
            };
            TaskView {
                title: s.title.get(lang).to_string(),
                href: format!("/{}", task.path()),
                items: s
                    .problems
                    .iter()
                    .map(|p| Task::Problem {
                        game: game.clone(),
                        set: set.clone(),
                        id: p.id.clone(),
                    })
                    .collect(),
                exists: true,
            }
        }
        Task::Lesson { game, slug } => {
            let Some(l) = shelf(game).and_then(|sh| sh.lessons.iter().find(|l| &l.slug == slug))
            else {
                return missing();
            };
            TaskView {
                title: l.text(lang).title.clone(),
                href: format!("/{}", task.path()),
                items: vec![task.clone()],
                exists: true,
            }
        }
    }
}

/// How far one student is with one homework: `(done, total)` over its problems and lessons,
/// and the status of each item.
pub(crate) fn homework_progress(
    snap: &Snapshot,
    assignment: &Assignment,
    student: StudentId,
    summaries: &HashMap<(StudentId, Task), class::progress::Summary>,
    finished: &HashMap<(StudentId, Task), Millis>,
) -> (usize, usize, Vec<Status>) {
    let mut statuses = Vec::new();
    for task in &assignment.tasks {
        for item in view_task(snap, task, Lang::Zh).items {
            let status = match &item {
                Task::Lesson { .. } => {
                    if finished.contains_key(&(student, item.clone())) {
                        Status::FirstTry
                    } else {
                        Status::NotStarted
                    }
                }
                _ => summaries
                    .get(&(student, item.clone()))
                    .map(|s| s.status)
                    .unwrap_or(Status::NotStarted),
            };
            statuses.push(status);
        }
    }
    let done = statuses.iter().filter(|s| s.solved()).count();
    (done, statuses.len(), statuses)
}

struct DueView {
    title: String,
    due: String,
    overdue: bool,
    done: usize,
    total: usize,
    percent: usize,
    tasks: Vec<(String, String, &'static str)>,
}

#[derive(Template)]
#[template(path = "me.html")]
struct MePage {
    chrome: Chrome,
    class_name: String,
    homework: Vec<DueView>,
    merge: bool,
    solved: usize,
    lessons: usize,
}

/// `GET /me`: a student's home: their homework, what is due and how far they are.
pub(crate) async fn me(signed: Signed) -> Response {
    let (student, class_id) = match signed.account.role {
        Role::Student(s, c) => (s, c),
        Role::Teacher(_) => return Redirect::to("/teacher").into_response(),
    };
    let loaded = blocking(&signed.room.store, move |s| {
        Ok((
            s.class(class_id)?,
            s.assignments(class_id)?,
            s.student_history(student)?,
        ))
    })
    .await;
    let (class, assignments, history) = match loaded {
        Ok(x) => x,
        Err(e) => return store_failed(&signed.req, &signed.snap, &e),
    };
    let summaries = class::progress::summarize(&history.tries);
    // Homework counts only what the server judged, never the browser's merged progress.
    let homework_summaries = class::progress::for_homework(&history.tries);
    let finished = class::progress::finished_lessons(&history);
    let today = class::day_of(class::now());
    let lang = signed.req.lang;
    let homework = assignments
        .iter()
        .map(|a| {
            let (done, total, statuses) =
                homework_progress(&signed.snap, a, student, &homework_summaries, &finished);
            let mut statuses = statuses.into_iter();
            let mut tasks = Vec::new();
            for t in &a.tasks {
                let v = view_task(&signed.snap, t, lang);
                let n = v.items.len();
                let s: Vec<Status> = statuses.by_ref().take(n).collect();
                let state = if s.iter().all(|s| s.solved()) {
                    "done"
                } else if s.iter().any(|s| *s != Status::NotStarted) {
                    "started"
                } else {
                    "not-started"
                };
                tasks.push((v.title, v.href, state));
            }
            DueView {
                title: a.title.clone(),
                due: a.due.clone().unwrap_or_default(),
                overdue: a.due.as_deref().is_some_and(|d| d < today.as_str()) && done < total,
                done,
                total,
                percent: (100 * done).checked_div(total).unwrap_or(0),
                tasks,
            }
        })
        .collect();
    let page = MePage {
        chrome: Chrome::new(&signed.req, &signed.snap, signed.account.name.clone()),
        class_name: class.map(|c| c.name).unwrap_or_default(),
        homework,
        merge: signed.req.param("merge").is_some() && history.tries.is_empty(),
        solved: summaries.values().filter(|s| s.status.solved()).count(),
        lessons: finished.len(),
    };
    respond(&signed.req, StatusCode::OK, page.render())
}

/// What a student did, told by the page's script: a hint opened, a lesson finished.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EventRequest {
    /// `hint` or `lesson-finished`.
    pub kind: String,
    /// `go`, `chess`, `shogi`.
    pub game: String,
    /// The set (hint) or the lesson (lesson-finished).
    #[serde(default)]
    pub set: String,
    /// The problem (hint).
    #[serde(default)]
    pub id: String,
    /// The session's CSRF secret.
    pub csrf: String,
}

/// `POST /api/class/event`: only for a problem or lesson the library has, and at most
/// [`class::throttle::EVENTS_PER_WINDOW`] a minute for each student (429 beyond).
pub(crate) async fn api_event(signed: Signed, Json(event): Json<EventRequest>) -> Response {
    if !same_secret(&event.csrf, &signed.account.csrf) {
        return (StatusCode::FORBIDDEN, "bad csrf").into_response();
    }
    let Some((student, _)) = signed.account.student() else {
        return (StatusCode::FORBIDDEN, "students only").into_response();
    };
    let task = match event.kind.as_str() {
        "hint" => Task::parse(&format!(
            "{}/problems/{}/{}",
            event.game, event.set, event.id
        ))
        .filter(|t| matches!(t, Task::Problem { .. })),
        "lesson-finished" => Task::parse(&format!("{}/lessons/{}", event.game, event.set)),
        _ => None,
    };
    let Some(task) = task else {
        return (StatusCode::UNPROCESSABLE_ENTITY, "unknown event").into_response();
    };
    if !view_task(&signed.snap, &task, signed.req.lang).exists {
        return (
            StatusCode::NOT_FOUND,
            signed.req.ui().class.not_found.clone(),
        )
            .into_response();
    }
    if !signed.room.events.allow(student.0) {
        let mut r = (
            StatusCode::TOO_MANY_REQUESTS,
            signed.req.ui().class.events_too_fast.clone(),
        )
            .into_response();
        r.headers_mut()
            .insert(header::RETRY_AFTER, HeaderValue::from_static("60"));
        return r;
    }
    let now = class::now();
    let result = if let Task::Problem { .. } = task {
        let t = Try {
            student,
            game: event.game,
            set: event.set,
            problem: event.id,
            act: Act::Hint,
            at: now,
        };
        blocking(&signed.room.store, move |s| s.record_try(&t)).await
    } else {
        let r = Reading {
            student,
            game: event.game,
            slug: event.set,
            mark: LessonMark::Finished,
            at: now,
        };
        blocking(&signed.room.store, move |s| s.record_reading(&r)).await
    };
    match result {
        Ok(()) => StatusCode::NO_CONTENT.into_response(),
        Err(e) => unkept(signed.req.lang, &e),
    }
}

/// The answer to a write that failed (503): what the student did was not kept, and why, in
/// their language.
pub(crate) fn unkept(lang: Lang, e: &ClassError) -> Response {
    eprintln!("qiyuan: classroom: not kept: {e}");
    let ui = &Ui::get(lang).class;
    let why = match e {
        ClassError::Unwritable(_) => ui.unwritable.clone(),
        _ => fill(&ui.store_error, &[("error", &e.to_string())]),
    };
    let mut r = (
        StatusCode::SERVICE_UNAVAILABLE,
        format!("{} {why}", ui.unkept),
    )
        .into_response();
    r.headers_mut()
        .insert(header::RETRY_AFTER, HeaderValue::from_static("60"));
    r
}

/// `POST /lessons-read`: a lesson marked as read by its form (no script needed).
#[derive(Deserialize)]
pub struct ReadForm {
    #[serde(default)]
    csrf: String,
    #[serde(default)]
    game: String,
    #[serde(default)]
    slug: String,
}

/// `POST /me/read`: the lesson's "I have read it" button; counted with the events
/// ([`class::throttle::EVENTS_PER_WINDOW`] a minute, 429 beyond).
pub(crate) async fn read_form(signed: Signed, Form(form): Form<ReadForm>) -> Response {
    if let Err(r) = signed.check(&form.csrf) {
        return r;
    }
    let (student, _) = match signed.student() {
        Ok(s) => s,
        Err(r) => return r,
    };
    let Some(task) = Task::parse(&format!("{}/lessons/{}", form.game, form.slug))
        .filter(|t| view_task(&signed.snap, t, signed.req.lang).exists)
    else {
        return message(
            &signed.req,
            &signed.snap,
            StatusCode::NOT_FOUND,
            &signed.req.ui().class.not_found,
        );
    };
    // The same budget as the script's events: a lesson read is one.
    if !signed.room.events.allow(student.0) {
        return message(
            &signed.req,
            &signed.snap,
            StatusCode::TOO_MANY_REQUESTS,
            &signed.req.ui().class.events_too_fast,
        );
    }
    let r = Reading {
        student,
        game: form.game,
        slug: form.slug,
        mark: LessonMark::Finished,
        at: class::now(),
    };
    match blocking(&signed.room.store, move |s| s.record_reading(&r)).await {
        Ok(()) => Redirect::to(&format!("/{}?read=1", task.path())).into_response(),
        Err(e) => store_failed(&signed.req, &signed.snap, &e),
    }
}

/// One problem's progress as this browser kept it before the student logged in.
#[derive(Deserialize)]
pub struct LocalEntry {
    /// `go/captures/3`.
    pub key: String,
    /// `solved` or `failed`.
    pub state: String,
    /// When (milliseconds since 1970), if known.
    #[serde(default)]
    pub t: Option<i64>,
}

/// The browser's progress, sent once after the first login.
#[derive(Deserialize)]
pub struct MergeRequest {
    /// The session's CSRF secret.
    pub csrf: String,
    /// At most 5,000 entries.
    pub entries: Vec<LocalEntry>,
}

/// `POST /api/class/merge`: the browser's progress merged in, only while the student has no
/// history on the server (the first login), each entry as one try marked `(browser)`.
pub(crate) async fn api_merge(signed: Signed, Json(request): Json<MergeRequest>) -> Response {
    if !same_secret(&request.csrf, &signed.account.csrf) {
        return (StatusCode::FORBIDDEN, "bad csrf").into_response();
    }
    let Some((student, _)) = signed.account.student() else {
        return (StatusCode::FORBIDDEN, "students only").into_response();
    };
    let now = class::now();
    let tries: Vec<Try> = request
        .entries
        .iter()
        .take(5_000)
        .filter_map(|e| {
            let mut parts = e.key.splitn(3, '/');
            let (game, set, id) = (parts.next()?, parts.next()?, parts.next()?);
            let task = Task::parse(&format!("{game}/problems/{set}/{id}"))?;
            if !view_task(&signed.snap, &task, Lang::En).exists {
                return None;
            }
            let verdict = match e.state.as_str() {
                "solved" => "solved",
                "failed" => "wrong",
                _ => return None,
            };
            Some(Try {
                student,
                game: game.into(),
                set: set.into(),
                problem: id.into(),
                act: Act::Move {
                    before: class::progress::MERGED.into(),
                    played: String::new(),
                    verdict: verdict.into(),
                },
                at: e.t.filter(|t| (0..=now).contains(t)).unwrap_or(now),
            })
        })
        .collect();
    let merged = blocking(&signed.room.store, move |s| {
        if !s.student_history(student)?.tries.is_empty() {
            return Ok(0);
        }
        for t in &tries {
            s.record_try(t)?;
        }
        Ok(tries.len())
    })
    .await;
    match merged {
        Ok(n) => Json(serde_json::json!({ "merged": n })).into_response(),
        Err(e) => unkept(signed.req.lang, &e),
    }
}

/// Writes what a logged-in student did (a no-op for anyone else), waiting for the row: a
/// student's judged move is never lost to a reply sent before it is written, and a write
/// that fails is the caller's error to answer ([`unkept`]), never a reply as if it were kept.
async fn record_for(
    state: &AppState,
    account: Option<&Account>,
    write: impl FnOnce(&dyn Store, StudentId) -> Result<(), ClassError> + Send + 'static,
) -> Result<(), ClassError> {
    let (Some(room), Some((student, _))) =
        (state.classroom_arc(), account.and_then(Account::student))
    else {
        return Ok(());
    };
    blocking(&room.store, move |s| write(s, student)).await
}

/// Writes what a logged-in student did that no reply waits on (a lesson opened, a game
/// started): a failure is logged, with `what` naming it.
async fn record_logged(
    state: &AppState,
    account: Option<&Account>,
    what: &'static str,
    write: impl FnOnce(&dyn Store, StudentId) -> Result<(), ClassError> + Send + 'static,
) {
    if let Err(e) = record_for(state, account, write).await {
        eprintln!("qiyuan: cannot record {what}: {e}");
    }
}

/// Records a move a logged-in student had judged; the reply must wait for it and say so
/// if it failed.
pub(crate) async fn record_move(
    state: &AppState,
    account: Option<&Account>,
    key: (Game, &str, &str),
    before: &[String],
    played: String,
    verdict: &str,
) -> Result<(), ClassError> {
    if played.is_empty() || verdict == "invalid" {
        return Ok(());
    }
    let (game, set, problem) = (
        key.0.slug().to_string(),
        key.1.to_string(),
        key.2.to_string(),
    );
    let act = Act::Move {
        before: before.join(" "),
        played,
        verdict: verdict.to_string(),
    };
    record_for(state, account, move |s, student| {
        s.record_try(&Try {
            student,
            game,
            set,
            problem,
            act,
            at: class::now(),
        })
    })
    .await
}

/// Records that a logged-in student looked at a problem's solution; the reply must wait
/// for it (a look not kept would leave the problem "solved at the first try").
pub(crate) async fn record_solution(
    state: &AppState,
    account: Option<&Account>,
    key: (Game, &str, &str),
) -> Result<(), ClassError> {
    let (game, set, problem) = (
        key.0.slug().to_string(),
        key.1.to_string(),
        key.2.to_string(),
    );
    record_for(state, account, move |s, student| {
        s.record_try(&Try {
            student,
            game,
            set,
            problem,
            act: Act::Solution,
            at: class::now(),
        })
    })
    .await
}

/// Records that a logged-in student opened a lesson, at most
/// [`class::throttle::EVENTS_PER_WINDOW`] a minute for each student: the page is served
/// whatever the count, a view beyond is not recorded.
pub(crate) async fn record_opened(
    state: &AppState,
    account: Option<&Account>,
    game: Game,
    slug: &str,
) {
    if let (Some(room), Some((student, _))) =
        (state.classroom(), account.and_then(Account::student))
    {
        if !room.opened.allow(student.0) {
            return;
        }
    }
    let (game, slug) = (game.slug().to_string(), slug.to_string());
    record_logged(state, account, "a lesson opened", move |s, student| {
        s.record_reading(&Reading {
            student,
            game,
            slug,
            mark: LessonMark::Opened,
            at: class::now(),
        })
    })
    .await;
}

/// Records a game a logged-in student started or joined.
pub(crate) async fn record_game(
    state: &AppState,
    account: Option<&Account>,
    game: Game,
    code: &str,
    opponent: String,
) {
    let (game, code) = (game.slug().to_string(), code.to_string());
    record_logged(state, account, "a game", move |s, student| {
        s.record_game(&Played {
            student,
            game,
            code,
            opponent,
            at: class::now(),
        })
    })
    .await;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn next_is_only_a_path_on_this_site() {
        for good in ["/", "/me", "/go/problems/captures/1?m=D4,E5", "/x%0D%0A"] {
            assert!(same_site_path(good), "{good}");
        }
        for bad in [
            "",
            "//evil",
            "/\\evil",
            "/\t/evil.example",
            "/a\r\nb",
            "/a b",
            "https://evil",
            "javascript:alert(1)",
            " /x",
            "/小明",
        ] {
            assert!(!same_site_path(bad), "{bad:?}");
        }
    }
}
