//! What the integration tests share: the corpus folder and fresh content folders.
#![allow(dead_code)] // each test file uses some of these

pub mod hostile;
pub mod school;

use std::path::PathBuf;

/// The test corpus (`QIYUAN_CORPUS`, else `../shared/corpus` beside the project), checked to
/// hold `needed` (a file or folder inside it).
pub fn corpus(needed: &str) -> PathBuf {
    let dir = std::env::var_os("QIYUAN_CORPUS")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus"));
    assert!(
        dir.join(needed).exists(),
        "the test corpus is missing at {}: set QIYUAN_CORPUS to the folder holding {needed}",
        dir.display()
    );
    dir
}

/// A fresh temporary content folder for the test `name`, with an empty `problems/{game}`.
pub fn temp_folder(name: &str, game: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("qiyuan-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("problems").join(game)).unwrap();
    dir
}

/// POSTs `body` as JSON to `path` of `router`: the status and the reply's bytes.
pub async fn post_json(
    router: axum::Router,
    path: &str,
    body: &serde_json::Value,
) -> (axum::http::StatusCode, Vec<u8>) {
    use http_body_util::BodyExt;
    use tower::ServiceExt;
    let response = router
        .oneshot(
            axum::http::Request::post(path)
                .header(axum::http::header::CONTENT_TYPE, "application/json")
                .body(axum::body::Body::from(body.to_string()))
                .unwrap(),
        )
        .await
        .unwrap();
    let status = response.status();
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    (status, bytes.to_vec())
}

/// An answer of the app: status, headers and body as text.
pub struct Reply {
    pub status: axum::http::StatusCode,
    pub headers: axum::http::HeaderMap,
    pub body: String,
}

impl Reply {
    /// The body as JSON (panics with the body when it is not).
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_str(&self.body).unwrap_or_else(|e| panic!("{e}: {}", self.body))
    }
}

/// Sends `request` to `router` and reads the whole answer.
pub async fn send(router: axum::Router, request: axum::http::Request<axum::body::Body>) -> Reply {
    use http_body_util::BodyExt;
    use tower::ServiceExt;
    let response = router.oneshot(request).await.unwrap();
    let status = response.status();
    let headers = response.headers().clone();
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    Reply {
        status,
        headers,
        body: String::from_utf8_lossy(&bytes).into_owned(),
    }
}
