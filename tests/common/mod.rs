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

/// Cho Chikun's Encyclopedia of Life and Death, `go/{file}` of the shared corpus
/// (`cho-elementary.jsonl`, or `cho-intermediate-advanced.jsonl`, the half of the next two
/// volumes kept for development). The books may not be redistributed and so are not in
/// `tests/data`: they are read from the shared corpus beside the project
/// (`QIYUAN_CHO_CORPUS`, else `../shared/corpus`). The tests that read them are ignored in
/// `cargo test` and run by `scripts/cho-checks.sh`; there a missing book fails.
pub fn cho_book(file: &str) -> PathBuf {
    let dir = std::env::var_os("QIYUAN_CHO_CORPUS")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus"));
    let path = dir.join("go").join(file);
    assert!(
        path.exists(),
        "Cho Chikun's book is missing at {}: set QIYUAN_CHO_CORPUS to the shared corpus folder",
        path.display()
    );
    path
}

/// Cho Chikun's Elementary volume: [`cho_book`].
pub fn cho_elementary() -> PathBuf {
    cho_book("cho-elementary.jsonl")
}

/// Asks GNU Go `question` (`owl_attack` or `owl_defend` on a point) after the GTP commands
/// `plays` on a 19×19 board: the first word of the answer (0 fails, 1 succeeds, 2 and 3
/// are kos, 4 and 5 succeed with a gain or a loss). A reading of its own, not the one the
/// program asks (`play::engine::owl`).
pub fn gnugo_owl(plays: &[String], question: &str) -> String {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let binary = std::env::var_os("GNUGO").unwrap_or_else(|| "/usr/games/gnugo".into());
    let mut child = Command::new(&binary)
        .args(["--mode", "gtp", "--chinese-rules"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start GNU Go: {e}; run `apt-get install gnugo`"));
    let input = format!(
        "boardsize 19\nclear_board\n{}\n{question}\nquit\n",
        plays.join("\n")
    );
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    let answers: Vec<&str> = text
        .split("\n\n")
        .filter(|a| !a.trim().is_empty())
        .collect();
    assert!(
        answers.iter().all(|a| a.starts_with('=')),
        "GNU Go refused a command: {answers:?}"
    );
    let answer = answers[answers.len() - 2].trim_start_matches('=').trim();
    answer.split_whitespace().next().unwrap_or("").to_string()
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

/// A request to `path`: `body` as JSON if given, the `cookie` header if given, and `from`
/// as the connection's peer (as the real server records it) if given.
pub fn json_request(
    method: axum::http::Method,
    path: &str,
    body: Option<&serde_json::Value>,
    cookie: Option<&str>,
    from: Option<std::net::SocketAddr>,
) -> axum::http::Request<axum::body::Body> {
    use axum::http::header;
    let mut req = axum::http::Request::builder().method(method).uri(path);
    if let Some(from) = from {
        req = req.extension(axum::extract::ConnectInfo(from));
    }
    if let Some(c) = cookie {
        req = req.header(header::COOKIE, c);
    }
    let body = match body {
        Some(v) => {
            req = req.header(header::CONTENT_TYPE, "application/json");
            axum::body::Body::from(v.to_string())
        }
        None => axum::body::Body::empty(),
    };
    req.body(body).unwrap()
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
