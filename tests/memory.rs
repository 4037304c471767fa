//! Memory stays bounded: the page cache is keyed on what an address resolved to, not on how
//! it was spelled, so 10,000 spellings of one lesson leave the resident set under a ceiling;
//! what a request sends is echoed bounded. (A lesson's growth with its diagrams is in
//! `tests/lesson_size.rs`, which would disturb the measure here.)

mod common;

use axum::body::Body;
use axum::http::{header, Request, StatusCode};
use axum::Router;
use http_body_util::BodyExt;
use qiyuan::web::{app, AppState};
use serde_json::json;
use std::sync::Mutex;
use tower::ServiceExt;

/// The resident set may not pass this after 10,000 spellings (it was 204 MB after 2,100
/// when each spelling was a new cache entry).
const RSS_CEILING_MB: u64 = 100;

/// Tests here measure memory: one at a time.
static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

/// This process's resident set in MB, from /proc/self/status.
fn rss_mb() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").expect("/proc/self/status");
    let kb: u64 = status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .expect("VmRSS in /proc/self/status");
    kb / 1024
}

/// The built-in lessons and one chess set: loading every problem takes long in a debug build.
fn state() -> AppState {
    let files: Vec<(String, String)> = qiyuan::content::source::embedded()
        .into_iter()
        .filter(|(path, _)| path.starts_with("lessons/") || path == "problems/chess/moves.toml")
        .collect();
    let (library, errors) = qiyuan::content::Library::load(&files);
    assert!(errors.is_empty(), "{errors:?}");
    AppState::from_library(library)
}

async fn get(router: &Router, uri: &str) -> (StatusCode, Vec<u8>) {
    let response = router
        .clone()
        .oneshot(Request::get(uri).body(Body::empty()).unwrap())
        .await
        .unwrap();
    let status = response.status();
    let body = response.into_body().collect().await.unwrap().to_bytes();
    (status, body.to_vec())
}

/// The `n`th spelling of `word`: each letter as itself, `%hh` or `%HH` (base 3 digits of `n`).
fn spelling(word: &str, mut n: usize) -> String {
    let mut out = String::new();
    for b in word.bytes() {
        match n % 3 {
            0 => out.push(b as char),
            1 => out.push_str(&format!("%{b:02x}")),
            _ => out.push_str(&format!("%{b:02X}")),
        }
        n /= 3;
    }
    out
}

#[tokio::test]
async fn ten_thousand_spellings_keep_memory_bounded() {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let state = state();
    let router = app(state.clone());
    // The largest lesson page is the one whose copies would weigh most.
    let library = state.snapshot().library;
    let mut largest = (0, String::new(), String::new());
    for shelf in &library.shelves {
        for lesson in &shelf.lessons {
            let (_, page) = get(
                &router,
                &format!("/{}/lessons/{}?lang=en", shelf.game.slug(), lesson.slug),
            )
            .await;
            if page.len() > largest.0 {
                largest = (
                    page.len(),
                    shelf.game.slug().to_string(),
                    lesson.slug.clone(),
                );
            }
        }
    }
    let (size, game, slug) = largest;
    let before = rss_mb();
    let cached_before = state.snapshot().cache.bytes();
    let queries = [
        "",
        "?lang=en",
        "?lang=zh",
        "?lang=en&lang=en",
        "?s=0",
        "?s=0:0,0:0",
        "?lang=zh&s=00",
    ];
    for n in 0..10_000 {
        let uri = format!(
            "/{}/lessons/{}{}",
            spelling(&game, n),
            spelling(&slug, n / 32),
            queries[n % queries.len()]
        );
        let (status, page) = get(&router, &uri).await;
        assert_eq!(status, StatusCode::OK, "{uri}");
        assert!(page.len() < size * 2, "{uri}: {} bytes", page.len());
    }
    let after = rss_mb();
    let cached = state.snapshot().cache.bytes() - cached_before;
    eprintln!("largest page /{game}/lessons/{slug}: {size} bytes; RSS {before} MB → {after} MB; cache {cached} bytes");
    assert!(
        after < RSS_CEILING_MB,
        "RSS {after} MB after 10,000 spellings (from {before} MB)"
    );
    // The spellings are one page in two languages (English was cached already).
    assert!(
        cached <= 2 * size,
        "{cached} more bytes cached for one lesson of {size} bytes"
    );
}

#[tokio::test]
async fn echoes_are_bounded() {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let state = state();
    let router = app(state.clone());
    let library = state.snapshot().library;
    let shelf = library
        .shelves
        .iter()
        .find(|s| s.game.slug() == "chess")
        .unwrap();
    let set = &shelf.sets[0];
    let problem = &set.problems[0];
    let big = "e".repeat(30_000);
    // The attempt API: a 30 KB `select` does not come back.
    let body =
        json!({ "game": "chess", "set": set.slug, "id": problem.id, "select": big, "lang": "en" });
    let (status, reply) = common::post_json(app(state.clone()), "/api/attempt", &body).await;
    assert_eq!(status, StatusCode::OK);
    assert!(reply.len() < 30_000, "the reply has {} bytes", reply.len());
    // Nor a 30 KB move.
    let body =
        json!({ "game": "chess", "set": set.slug, "id": problem.id, "play": big, "lang": "en" });
    let (_, reply) = common::post_json(app(state.clone()), "/api/attempt", &body).await;
    assert!(reply.len() < 30_000, "the reply has {} bytes", reply.len());
    // A body over the limit is refused before it is read whole.
    let huge = json!({ "game": "chess", "set": set.slug, "id": problem.id, "select": "e".repeat(1 << 20) });
    let response = app(state.clone())
        .oneshot(
            Request::post("/api/attempt")
                .header(header::CONTENT_TYPE, "application/json")
                .body(Body::from(huge.to_string()))
                .unwrap(),
        )
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::PAYLOAD_TOO_LARGE);
    // Pages: long `sel` and unknown parameters are not echoed in links or data.
    let base = format!("/chess/problems/{}/{}", set.slug, problem.id);
    let (_, plain) = get(&router, &format!("{base}?lang=en")).await;
    let (status, page) = get(&router, &format!("{base}?lang=en&sel={big}&junk={big}")).await;
    assert_eq!(status, StatusCode::OK);
    assert!(
        page.len() < plain.len() + 1000,
        "{} bytes against {}",
        page.len(),
        plain.len()
    );
    let (_, page) = get(&router, &format!("/nowhere?x={big}")).await;
    assert!(page.len() < 20_000, "the 404 page has {} bytes", page.len());
}
