//! The stylesheet and the script, embedded in the binary.

use super::AppState;
use axum::extract::Path;
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use rust_embed::RustEmbed;

/// The routes of the static files (`/static/…`).
pub(super) fn routes() -> Router<AppState> {
    Router::new().route("/static/{*path}", get(serve))
}

#[derive(RustEmbed)]
#[folder = "static/"]
struct Assets;

/// `GET /static/{path}`.
pub async fn serve(Path(path): Path<String>) -> Response {
    let Some(file) = Assets::get(&path) else {
        return StatusCode::NOT_FOUND.into_response();
    };
    let mime = match path.rsplit('.').next() {
        Some("css") => "text/css; charset=utf-8",
        Some("js") => "text/javascript; charset=utf-8",
        Some("svg") => "image/svg+xml",
        Some("png") => "image/png",
        Some("woff2") => "font/woff2",
        _ => "application/octet-stream",
    };
    (
        [
            (header::CONTENT_TYPE, mime),
            (header::CACHE_CONTROL, "public, max-age=3600"),
        ],
        file.data,
    )
        .into_response()
}
