//! `--content DIR`: a changed file shows once the watcher has swapped the new content in (a
//! fraction of a second; the tests wait for it, 20 s at most); a broken one keeps the last
//! good content served, with the error shown on the page.

use axum::body::Body;
use axum::http::Request;
use http_body_util::BodyExt;
use qiyuan::content::source::Folder;
use qiyuan::web::{app, AppState};
use std::path::{Path, PathBuf};
use std::time::Duration;
use tower::ServiceExt;

const LESSON: &str =
    "+++\ntitle = \"TITLE\"\n+++\n\nWords.\n\n```goban\nsize = 5\n[[steps]]\nplay = \"C3\"\n```\n";

fn write(root: &Path, rel: &str, text: &str) {
    let p = root.join(rel);
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(p, text).unwrap();
}

fn temp_folder(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("qiyuan-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    write(
        &dir,
        "lessons/go/01-intro.zh.md",
        &LESSON.replace("TITLE", "开始"),
    );
    write(
        &dir,
        "lessons/go/01-intro.en.md",
        &LESSON.replace("TITLE", "Start"),
    );
    dir
}

async fn page(state: &AppState, uri: &str) -> String {
    let response = app(state.clone())
        .oneshot(Request::get(uri).body(Body::empty()).unwrap())
        .await
        .unwrap();
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    String::from_utf8(bytes.to_vec()).unwrap()
}

/// The page at `uri` once it contains `want` (the folder is read again in the background).
async fn page_with(state: &AppState, uri: &str, want: &str) -> String {
    let start = std::time::Instant::now();
    loop {
        let body = page(state, uri).await;
        if body.contains(want) || start.elapsed() > Duration::from_secs(20) {
            return body;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[tokio::test]
async fn changed_lesson_shows_on_next_load() {
    let dir = temp_folder("reload");
    let state = AppState::folder(Folder::new(&dir));
    assert!(page(&state, "/go/lessons/intro?lang=en")
        .await
        .contains("<h1>Start</h1>"));

    write(
        &dir,
        "lessons/go/01-intro.en.md",
        &LESSON.replace("TITLE", "Beginning"),
    );
    let body = page_with(&state, "/go/lessons/intro?lang=en", "<h1>Beginning</h1>").await;
    assert!(body.contains("<h1>Beginning</h1>"), "{body}");

    // A new lesson appears without a restart.
    write(
        &dir,
        "lessons/go/02-more.zh.md",
        &LESSON.replace("TITLE", "更多"),
    );
    write(
        &dir,
        "lessons/go/02-more.en.md",
        &LESSON.replace("TITLE", "More"),
    );
    assert!(page_with(&state, "/go?lang=en", "More")
        .await
        .contains("More"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[tokio::test]
async fn broken_file_keeps_last_good_content_and_shows_the_error() {
    let dir = temp_folder("broken");
    let state = AppState::folder(Folder::new(&dir));
    assert!(page(&state, "/go/lessons/intro?lang=en")
        .await
        .contains("<h1>Start</h1>"));

    let broken = LESSON
        .replace("TITLE", "Broken")
        .replace("play = \"C3\"", "play = \"C9\"");
    write(&dir, "lessons/go/01-intro.en.md", &broken);
    let body = page_with(&state, "/go/lessons/intro?lang=en", "error:").await;
    assert!(
        body.contains("<h1>Start</h1>"),
        "the last good lesson stays: {body}"
    );
    assert!(
        body.contains("lessons/go/01-intro.en.md:10:8: error: step 1: C9 is outside the 5×5 board"),
        "{body}"
    );

    // Fixed again: the error goes away.
    write(
        &dir,
        "lessons/go/01-intro.en.md",
        &LESSON.replace("TITLE", "Fixed"),
    );
    let body = page_with(&state, "/go/lessons/intro?lang=en", "<h1>Fixed</h1>").await;
    assert!(body.contains("<h1>Fixed</h1>"));
    assert!(!body.contains("error:"));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Teachers on Windows: lessons saved with CRLF line endings and a byte-order mark are read.
#[tokio::test]
async fn reads_lessons_with_crlf_and_byte_order_mark() {
    let dir = temp_folder("crlf");
    let windows = |title: &str| {
        format!(
            "\u{feff}{}",
            LESSON.replace("TITLE", title).replace('\n', "\r\n")
        )
    };
    write(&dir, "lessons/go/01-intro.en.md", &windows("Windows"));
    write(&dir, "lessons/go/01-intro.zh.md", &windows("视窗"));
    let state = AppState::folder(Folder::new(&dir));
    let body = page(&state, "/go/lessons/intro?lang=en").await;
    assert!(body.contains("<h1>Windows</h1>"), "{body}");
    assert!(!body.contains("error:"), "{body}");
    std::fs::remove_dir_all(&dir).unwrap();
}
