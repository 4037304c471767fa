//! The web server: an axum router over the content [`Library`](crate::content::Library), with pages in both languages.
//!
//! The server is the only judge: pages carry the moves so far in their addresses, every point
//! of a problem board is a link, and a small script upgrades clicks to `POST /api/attempt`.

mod api;
mod games;
pub mod i18n;
mod kit;
pub mod live;
mod pages;
pub mod records;
pub mod serve;
pub mod session;
mod state;
mod static_files;
mod teacher;
mod trainer;
pub mod urls;

pub use state::Snapshot;

use crate::class::Store;
use crate::content::source::Folder;
use crate::content::{Library, ProofStore};
use crate::play::engine::Engines;
use crate::play::lobby::{Limits, Lobby};
use axum::http::{header, HeaderValue};
use axum::response::Response;
use axum::routing::get;
use axum::Router;
use session::Classroom;
use std::sync::Arc;

/// The largest body `POST /api/attempt` reads (64 KiB; an attempt takes a few hundred bytes).
pub const ATTEMPT_BODY_LIMIT: usize = 64 << 10;

/// The Content-Security-Policy of every response. Scripts come only from this site, and
/// with `nosniff` only files served as JavaScript run, which only `/static/` serves: no
/// inline script, no event-handler attribute, no `javascript:` address runs. Styles only from
/// the stylesheet; images from this site or the web (a lesson's Markdown images); no plugins,
/// no `<base>`, forms only to this site, framed only by this site.
pub const CONTENT_SECURITY_POLICY: &str = "default-src 'self'; script-src 'self'; \
style-src 'self'; img-src 'self' https: http:; object-src 'none'; base-uri 'none'; \
form-action 'self'; frame-ancestors 'self'";

/// Adds the security headers to a response: the [`CONTENT_SECURITY_POLICY`],
/// `X-Content-Type-Options: nosniff`, `Referrer-Policy: same-origin` (addresses carry a
/// learner's moves: they are not told to other sites) and `X-Frame-Options: SAMEORIGIN` for
/// browsers that do not read `frame-ancestors`.
async fn security_headers(mut response: Response) -> Response {
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(CONTENT_SECURITY_POLICY),
    );
    headers.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    headers.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("same-origin"),
    );
    headers.insert(
        header::X_FRAME_OPTIONS,
        HeaderValue::from_static("SAMEORIGIN"),
    );
    response
}

/// Shared state of the server.
#[derive(Clone)]
pub struct AppState {
    /// The content being served.
    content: state::Content,
    /// The games being played on this server.
    lobby: Arc<Lobby>,
    /// The classes' live boards.
    live: Arc<live::LiveBoards>,
    /// The real engines the computer opponent can be.
    engines: Arc<Engines>,
    /// Game records opened by learners, and the `--records` library.
    records: Arc<records::Records>,
    /// The classroom (accounts, homework, progress), when the server has a data folder.
    classroom: Option<Arc<Classroom>>,
}

impl AppState {
    /// Serves the content built into the binary; its proofs run in the background (errors
    /// they find are printed: the test suite makes sure there are none).
    ///
    /// # Panics
    /// If the built-in content has errors (the test suite makes sure it has none).
    pub fn embedded() -> AppState {
        AppState::with_content(state::Content::embedded())
    }

    /// Serves a library made elsewhere (tests, benchmarks).
    pub fn from_library(library: Library) -> AppState {
        AppState::with_content(state::Content::from_library(library))
    }

    fn with_content(content: state::Content) -> AppState {
        AppState {
            content,
            lobby: Arc::default(),
            live: Arc::default(),
            engines: Arc::new(Engines::none()),
            records: Arc::default(),
            classroom: None,
        }
    }

    /// Serves the content of `folder`, read again whenever a file in it changes: a thread
    /// looks at the files every [`WATCH_INTERVAL`](state::WATCH_INTERVAL), builds the new
    /// library when one changed and swaps it in. Requests never wait for a reload: until the
    /// swap they get the last snapshot. Neither waits for proofs: they run in the background
    /// after each read, and the errors they find replace the snapshot when they are done. The
    /// thread ends when the last clone of this state is dropped.
    pub fn folder(folder: Folder) -> AppState {
        AppState::with_content(state::Content::folder(folder))
    }

    /// Where the proofs of this state's content are kept (and how many searches ran).
    pub fn proof_store(&self) -> &ProofStore {
        self.content.proof_store()
    }

    /// The same content with a lobby of other limits (tests).
    pub fn with_lobby(self, limits: Limits) -> AppState {
        AppState {
            lobby: Arc::new(Lobby::new(limits)),
            ..self
        }
    }

    /// The same content with at most `n` engine processes for its games (`--max-engines`).
    pub fn with_max_engines(self, n: usize) -> AppState {
        let limits = Limits {
            engines: n,
            ..self.lobby.limits()
        };
        self.with_lobby(limits)
    }

    /// The games being played.
    pub fn lobby(&self) -> &Lobby {
        &self.lobby
    }

    /// The classes' live boards.
    pub fn live(&self) -> &live::LiveBoards {
        &self.live
    }

    /// The same content with these real engines for the computer opponent (none by default).
    pub fn with_engines(self, engines: Engines) -> AppState {
        AppState {
            engines: Arc::new(engines),
            ..self
        }
    }

    /// The same content with the records of the folder `library` (`--records DIR`) and
    /// these limits on the records learners open.
    pub fn with_records(
        self,
        library: Option<std::path::PathBuf>,
        limits: records::RecordLimits,
    ) -> AppState {
        AppState {
            records: Arc::new(records::Records::new(library, limits)),
            ..self
        }
    }

    /// Game records: those opened by learners, and the library.
    pub fn records(&self) -> &records::Records {
        &self.records
    }

    /// The real engines the computer opponent can be.
    pub fn engines(&self) -> &Engines {
        &self.engines
    }

    /// The same, shared (for a blocking thread that starts one).
    pub fn engines_arc(&self) -> Arc<Engines> {
        self.engines.clone()
    }

    /// The same content with a classroom kept in `store` (its data folder, if any, is
    /// `folder`).
    pub fn with_store(self, store: Arc<dyn Store>, folder: Option<std::path::PathBuf>) -> AppState {
        AppState {
            classroom: Some(Arc::new(Classroom::new(store, folder))),
            ..self
        }
    }

    /// The same classroom (a fresh one: its login limits start afresh) with its passwords
    /// checked through `gate` (by default one at a time per core).
    pub fn with_password_gate(self, gate: crate::class::password::Gate) -> AppState {
        let classroom = self.classroom.as_ref().map(|room| {
            Arc::new(Classroom::with_gate(
                room.store.clone(),
                room.folder.clone(),
                gate,
            ))
        });
        AppState { classroom, ..self }
    }

    /// The classroom, if the server has one.
    pub fn classroom(&self) -> Option<&Classroom> {
        self.classroom.as_deref()
    }

    /// The same, shared.
    pub fn classroom_arc(&self) -> Option<Arc<Classroom>> {
        self.classroom.clone()
    }

    /// The content to serve now: the built-in library, or the folder's last snapshot (if the
    /// folder's new content has errors, the last good library, with the errors).
    pub fn snapshot(&self) -> Snapshot {
        self.content.snapshot()
    }
}

/// The body limit of the game routes.
fn small() -> axum::extract::DefaultBodyLimit {
    axum::extract::DefaultBodyLimit::max(games::GAME_BODY_LIMIT)
}

/// The whole application: every route, over `state`.
///
/// ```no_run
/// # async fn run() {
/// use qiyuan::web::{app, AppState};
/// let state = AppState::embedded();
/// let listener = tokio::net::TcpListener::bind("127.0.0.1:8080").await.unwrap();
/// axum::serve(listener, app(state)).await.unwrap();
/// # }
/// ```
pub fn app(state: AppState) -> Router {
    Router::new()
        .route("/health", get(|| async { "ok" }))
        .route(
            "/favicon.ico",
            get(|| async { axum::response::Redirect::permanent("/static/favicon.svg") }),
        )
        .merge(api::routes())
        .merge(games::routes())
        .merge(session::routes())
        .merge(records::routes())
        .merge(live::routes())
        .merge(teacher::routes())
        .merge(static_files::routes())
        .merge(pages::routes())
        .merge(trainer::routes())
        .fallback(pages::not_found)
        .layer(axum::middleware::map_response(security_headers))
        .with_state(state)
}
