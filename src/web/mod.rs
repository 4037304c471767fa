//! The web server: an axum router over the content [`Library`](crate::content::Library), with pages in both languages.
//!
//! The server is the only judge: pages carry the moves so far in their addresses, every point
//! of a problem board is a link, and a small script upgrades clicks to `POST /api/attempt`.

mod api;
pub mod class;
mod games;
pub mod i18n;
mod pages;
pub mod records;
pub mod serve;
mod state;
mod static_files;
mod trainer;
pub mod urls;

pub use state::{AppState, Snapshot};

use axum::http::{header, HeaderValue};
use axum::response::Response;
use axum::routing::{get, post};
use axum::Router;

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

/// The body limit of the game routes.
fn small() -> axum::extract::DefaultBodyLimit {
    axum::extract::DefaultBodyLimit::max(games::GAME_BODY_LIMIT)
}

/// The body limit of the record forms (a move, a place).
fn record_forms() -> axum::extract::DefaultBodyLimit {
    axum::extract::DefaultBodyLimit::max(records::FORM_BODY_LIMIT)
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
        .route("/", get(pages::home))
        .route("/health", get(|| async { "ok" }))
        .route(
            "/favicon.ico",
            get(|| async { axum::response::Redirect::permanent("/static/favicon.svg") }),
        )
        .route(
            "/api/attempt",
            post(api::attempt).layer(axum::extract::DefaultBodyLimit::max(ATTEMPT_BODY_LIMIT)),
        )
        .route(
            "/api/lesson-attempt",
            post(api::lesson_attempt)
                .layer(axum::extract::DefaultBodyLimit::max(ATTEMPT_BODY_LIMIT)),
        )
        .route("/api/games", post(games::api_create).layer(small()))
        .route("/api/games/{id}", get(games::api_state))
        .route("/api/games/{id}/join", post(games::api_join).layer(small()))
        .route(
            "/api/games/{id}/moves",
            post(games::api_move).layer(small()),
        )
        .route("/api/games/{id}/events", get(games::api_events))
        .route("/api/games/{id}/record", get(games::api_record))
        .route(
            "/play",
            get(games::new_page).post(games::create_form).layer(small()),
        )
        .route("/play/join", post(games::join_code).layer(small()))
        .route(
            "/play/{id}",
            get(games::page).post(games::act_form).layer(small()),
        )
        .route("/play/{id}/join", post(games::join_form).layer(small()))
        .route("/login", get(class::login_page))
        .route("/login/student", post(class::login_student).layer(small()))
        .route("/login/teacher", post(class::login_teacher).layer(small()))
        .route("/logout", post(class::logout).layer(small()))
        .route("/me", get(class::me))
        .route("/me/read", post(class::read_form).layer(small()))
        .route("/api/class/event", post(class::api_event).layer(small()))
        .route(
            "/api/class/merge",
            post(class::api_merge).layer(axum::extract::DefaultBodyLimit::max(1 << 20)),
        )
        // Game records (打谱): upload, library, replay, 推演, print, download.
        .route(
            "/records",
            get(records::list)
                .post(records::upload)
                .layer(axum::extract::DefaultBodyLimit::max(
                    records::UPLOAD_BODY_LIMIT,
                )),
        )
        .route("/records/{id}", get(records::page))
        .route(
            "/records/{id}/moves",
            post(records::try_move).layer(record_forms()),
        )
        .route(
            "/records/{id}/delete",
            post(records::delete).layer(record_forms()),
        )
        .route("/records/{id}/download", get(records::download_record))
        .route("/records/{id}/print", get(records::print))
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
        .layer(axum::middleware::map_response(security_headers))
        .with_state(state)
}
