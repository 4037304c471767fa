//! A game record in a real browser: a learner uploads the GBK MultiGo file, steps through it
//! by keyboard (← → move, ↓ enters a variation, Home/End), tries a move of their own by a
//! click (a new variation), is refused an illegal one with its reason, and prints it, all
//! without a reload. Any JavaScript error fails the test.
//!
//! Needs Debian's `chromium` and `chromium-driver` (`scripts/test.sh` installs them).

mod common;

#[allow(dead_code)]
#[path = "browser/harness.rs"]
mod harness;

use anyhow::{ensure, Context, Result};
use fantoccini::key::Key;
use harness::{start_trainer, Browser, Driver};
use qiyuan::content::Library;
use qiyuan::web::AppState;
use serde_json::json;

/// Waits until the place shown reads `text`.
async fn wait_at(b: &Browser, text: &str) -> Result<()> {
    b.wait_for_with(
        &format!("the place to read {text:?}"),
        "const at = document.getElementById('record-at'); return !!at && at.textContent.includes(arguments[0])",
        vec![json!(text)],
    )
    .await
    .map(|_| ())
}

async fn body_focus(b: &Browser) -> Result<()> {
    b.js(
        "document.activeElement && document.activeElement.blur(); return true",
        vec![],
    )
    .await?;
    Ok(())
}

async fn replay(b: &Browser) -> Result<()> {
    let corpus = common::corpus("go/sgf-encodings/no-ca.sgf");
    let file = corpus.join("go/sgf-encodings/no-ca.sgf");
    let file = file.canonicalize()?;
    b.open("/records?lang=en").await?;
    b.find("input[type=file]")
        .await?
        .send_keys(&file.display().to_string())
        .await?;
    b.follow(fantoccini::Locator::Css(
        ".record-upload button[type=submit]",
    ))
    .await?;
    ensure!(
        b.text("#comment")
            .await?
            .contains("这是从压长星定式演变而来的形"),
        "the GBK comment, read right"
    );
    wait_at(b, "The start of the game").await?;
    body_focus(b).await?;
    b.press(Key::Right).await?;
    wait_at(b, "After move 1").await?;
    b.same_page("a step by the right arrow").await?;
    ensure!(b.location().await?.ends_with("at=1"), "the address follows");
    // Down: the next of the four moves played here, a variation.
    b.press(Key::Down).await?;
    wait_at(b, "variation 2 of 4").await?;
    ensure!(b.location().await?.ends_with("at=0-1-1"));
    b.press(Key::Right).await?;
    wait_at(b, "After move 2").await?;
    b.press(Key::End).await?;
    wait_at(b, "After move 6").await?;
    b.press(Key::Home).await?;
    wait_at(b, "The start of the game").await?;
    b.press(Key::Right).await?;
    wait_at(b, "After move 1").await?;
    b.same_page("stepping by keyboard").await?;
    // Back in the browser's history goes to the place before.
    b.client.back().await?;
    wait_at(b, "The start of the game").await?;
    b.client.forward().await?;
    wait_at(b, "After move 1").await?;
    b.same_page("back and forward").await?;

    // 推演: a click on an empty point plays it as a new variation beside move 2.
    let before = b
        .js(
            "return document.querySelectorAll('.record-tree .var').length",
            vec![],
        )
        .await?;
    b.find("#board a.pt[data-p=\"A1\"]").await?.click().await?;
    b.wait_for(
        "the new variation",
        "return location.search.includes('at=1-2-1')",
    )
    .await?;
    b.same_page("a move tried by a click").await?;
    let after = b
        .js(
            "return document.querySelectorAll('.record-tree .var').length",
            vec![],
        )
        .await?;
    ensure!(
        after.as_u64() == before.as_u64().map(|n| n + 1),
        "one variation more: {before} → {after}"
    );
    ensure!(
        b.text(".record-tree a.current").await?.contains("A1"),
        "the new move is the current one"
    );
    // An illegal move typed in the field: refused, with the reason, in place.
    b.find(".record-try .move-form input[name=move]")
        .await?
        .send_keys("N17")
        .await?;
    b.find(".record-try .move-form button")
        .await?
        .click()
        .await?;
    b.wait_for(
        "the refusal",
        "return !!document.querySelector('#status .verdict.illegal')",
    )
    .await?;
    ensure!(b.text("#status").await?.contains("N17 is not allowed"));
    // The variation can be deleted again.
    b.find(".delete-variation button").await?.click().await?;
    wait_at(b, "After move 1").await?;
    let last = b
        .js(
            "return document.querySelectorAll('.record-tree .var').length",
            vec![],
        )
        .await?;
    ensure!(last == before, "the variation is gone");
    b.same_page("trying and deleting").await?;
    b.check_errors().await?;
    b.screenshot("record-replay").await?;
    // The print page opens (a link that leaves the page).
    b.follow(fantoccini::Locator::Css("a.print-link")).await?;
    ensure!(b.text("article").await?.contains("Figure 1"));
    b.check_errors().await?;
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_learner_steps_through_a_record_by_keyboard_and_adds_a_variation() {
    let state = AppState::from_library(Library::default());
    let base = start_trainer(state).await.expect("the trainer starts");
    let driver = Driver::start().await.unwrap_or_else(|e| panic!("{e:#}"));
    let b = driver
        .session(&base)
        .await
        .unwrap_or_else(|e| panic!("{e:#}"));
    let result = replay(&b).await.context("replaying a record");
    if result.is_err() {
        let _ = b.screenshot("failed-record").await;
    }
    let _ = b.close().await;
    drop(driver);
    if let Err(e) = result {
        panic!("{e:#}");
    }
}
