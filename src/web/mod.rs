//! The web server: an axum router over the content [`Library`](crate::content::Library), with pages in both languages.
//!
//! The server is the only judge: pages carry the moves so far in their addresses, every point
//! of a problem board is a link, and a small script upgrades clicks to `POST /api/attempt`.

mod api;
pub mod i18n;
mod pages;
mod state;
mod static_files;
mod trainer;
pub mod urls;

pub use state::{AppState, Snapshot};

use axum::routing::{get, post};
use axum::Router;

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
        .route("/", get(pages::home))
        .route("/health", get(|| async { "ok" }))
        .route(
            "/favicon.ico",
            get(|| async { axum::response::Redirect::permanent("/static/favicon.svg") }),
        )
        .route("/api/attempt", post(api::attempt))
        .route("/static/{*path}", get(static_files::serve))
        .route("/{game}", get(pages::game))
        .route("/{game}/lessons/{slug}", get(pages::lesson))
        .route(
            "/{game}/lessons/{slug}/diagram/{index}",
            get(pages::diagram),
        )
        .route("/{game}/lessons/{slug}/print", get(pages::lesson_print))
        .route(
            "/{game}/lessons/{slug}/diagram/{index}/sgf",
            get(pages::diagram_sgf),
        )
        .route("/{game}/problems/{set}/{id}/sgf", get(trainer::problem_sgf))
        .route("/{game}/problems/{set}", get(pages::set))
        .route("/{game}/worksheets/{set}", get(trainer::worksheet))
        .route("/{game}/problems/{set}/{id}", get(trainer::page))
        .fallback(pages::not_found)
        .with_state(state)
}
