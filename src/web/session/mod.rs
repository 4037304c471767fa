//! The classroom on the web: logging in and out, sessions and their CSRF secret, the
//! student's home page with their homework, and the recording of what a logged-in student
//! does (every move judged, hints, solutions, lessons, games).
//!
//! Statuses, the same on every classroom route (`tests/class_auth.rs` checks them all):
//! anonymous → `303` to `/login` for a page, `401` for an API or a file; signed in with the
//! wrong role → `403`; a teacher asking for another teacher's class → `404` (its existence is
//! not told); a form without the session's CSRF secret, or sent from another site → `403`.

use super::i18n::{fill, Ui};
use super::kit::{blocking, enc, message, respond, session_token, Chrome, PageError, Req, Why};
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

mod home;
mod login;
mod recording;

use home::me;
pub(crate) use home::view_task;
pub use login::LoginForm;
use login::{login_page, login_student, login_teacher, logout};
use recording::{api_event, api_merge, read_form};
pub(crate) use recording::{record_game, record_move, record_opened, record_solution, unkept};
pub use recording::{EventRequest, LocalEntry, MergeRequest, ReadForm};

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
    /// `why`, told on this request's page.
    pub fn refuse(&self, why: Why) -> PageError {
        PageError::new(&self.req, &self.snap, why)
    }

    /// The teacher's id, or a 403.
    pub fn teacher(&self) -> Result<class::TeacherId, PageError> {
        self.account
            .teacher()
            .ok_or_else(|| self.refuse(Why::Forbidden))
    }

    /// The student and their class, or a 403.
    pub fn student(&self) -> Result<(StudentId, ClassId), PageError> {
        self.account
            .student()
            .ok_or_else(|| self.refuse(Why::Forbidden))
    }

    /// Checks a form's CSRF secret, or answers 403.
    pub fn check(&self, csrf: &str) -> Result<(), PageError> {
        if same_secret(csrf, &self.account.csrf) {
            Ok(())
        } else {
            Err(self.refuse(Why::BadForm))
        }
    }

    /// This teacher's class `id`, or 403 (a student) / 404 (not theirs, deleted, none).
    pub async fn own_class(&self, id: i64) -> Result<Class, PageError> {
        let teacher = self.teacher()?;
        let found = blocking(&self.room.store, move |s| s.class(ClassId(id))).await;
        match found {
            Ok(Some(c)) if c.teacher == teacher => Ok(c),
            Ok(_) => Err(self.refuse(Why::NoClass)),
            Err(e) => Err(self.refuse(Why::Store(e))),
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
