//! What the integration tests share: the corpus folder and fresh content folders.
#![allow(dead_code)] // each test file uses some of these

pub mod hostile;
pub mod school;

use std::path::PathBuf;

/// The test corpus (`QIYUAN_CORPUS`, else `tests/data/corpus` in the repository), checked to
/// hold `needed` (a file or folder inside it).
pub fn corpus(needed: &str) -> PathBuf {
    let dir = std::env::var_os("QIYUAN_CORPUS")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/corpus"));
    assert!(
        dir.join(needed).exists(),
        "the test corpus is missing at {}: set QIYUAN_CORPUS to the folder holding {needed}",
        dir.display()
    );
    dir
}

/// Cho Chikun's Encyclopedia of Life and Death (`go/cho-elementary.jsonl`), which may not be
/// redistributed and so is not in `tests/data`: it is read from the shared corpus beside the
/// project (`QIYUAN_CHO_CORPUS`, else `../shared/corpus`). The tests that read it are ignored
/// in `cargo test` and run by `scripts/cho-checks.sh`; there a missing book fails.
pub fn cho_elementary() -> PathBuf {
    let dir = std::env::var_os("QIYUAN_CHO_CORPUS")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus"));
    let file = dir.join("go/cho-elementary.jsonl");
    assert!(
        file.exists(),
        "Cho Chikun's Elementary book is missing at {}: set QIYUAN_CHO_CORPUS to the shared \
         corpus folder",
        file.display()
    );
    file
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
