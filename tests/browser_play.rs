//! Whole games in real browsers: two headless Chromium sessions (two learners) play each other
//! on one server with live updates, one reconnects, and a learner plays the computer by mouse
//! and keyboard. Any JavaScript error fails the test.
//!
//! Needs Debian's `chromium` and `chromium-driver` (`scripts/test.sh` installs them).

#[allow(dead_code)]
#[path = "browser/harness.rs"]
mod harness;

use anyhow::{ensure, Context, Result};
use fantoccini::key::Key;
use harness::{start_trainer, Browser, Driver};
use qiyuan::content::Library;
use qiyuan::web::i18n::Ui;
use qiyuan::web::AppState;
use serde_json::json;

fn point(p: &str) -> String {
    format!("#board a.pt[data-p=\"{p}\"]")
}

/// Waits until the move list of the page holds `n` moves.
async fn wait_moves(b: &Browser, n: usize) -> Result<()> {
    b.wait_for_with(
        &format!("{n} moves in the list"),
        "return document.querySelectorAll('.move-list li').length === arguments[0]",
        vec![json!(n)],
    )
    .await?;
    Ok(())
}

async fn classmates(a: &Browser, b: &Browser) -> Result<()> {
    let ui = Ui::get(qiyuan::lang::Lang::En);
    a.open("/play?lang=en").await?;
    a.js(
        "document.querySelector('#new-go input[value=human]').checked = true; return true",
        vec![],
    )
    .await?;
    a.follow(fantoccini::Locator::Css("#new-go button[type=submit]"))
        .await?;
    let id = a
        .js(
            "return document.querySelector('.play-table').dataset.id",
            vec![],
        )
        .await?;
    let id = id.as_str().context("the table's code")?.to_string();
    ensure!(
        a.text("#status").await?.contains(&id),
        "the code is shown to share"
    );

    b.open(&format!("/play/{id}?lang=en")).await?;
    ensure!(b.text("#side").await?.contains(&ui.play.join_seat));
    b.follow(fantoccini::Locator::Css(
        "#side form[action$='/join'] button",
    ))
    .await?;
    // Black plays by a click; White's board follows without a reload.
    a.wait_for(
        "White to have joined",
        "return !document.querySelector('#status .share')",
    )
    .await?;
    a.find(&point("E5")).await?.click().await?;
    wait_moves(a, 1).await?;
    a.same_page("a move by click").await?;
    wait_moves(b, 1).await?;
    b.same_page("the opponent's move arriving").await?;
    ensure!(b.text("#status").await?.contains(&ui.play.your_turn));

    // White reconnects (a reload), then answers from the keyboard: focus the board, move with
    // the arrows, Enter plays.
    b.reload().await?;
    ensure!(
        b.text("#status").await?.contains(&ui.play.your_turn),
        "the game resumes after a reload"
    );
    b.find(&point("E5")).await?.click().await?; // a stone: shows its liberties
    b.wait_for(
        "the four liberties of E5",
        "return document.querySelectorAll('#board g.liberties > *').length === 4",
    )
    .await?;
    b.js(
        "const p = document.querySelector('#board a.pt[data-p=\"C3\"]'); p.focus(); return true",
        vec![],
    )
    .await?;
    b.press(Key::Right).await?;
    let focused = b
        .js("return document.activeElement.dataset.p", vec![])
        .await?;
    ensure!(
        focused == json!("D3"),
        "the right arrow goes to D3, not {focused}"
    );
    b.press(Key::Enter).await?;
    wait_moves(b, 2).await?;
    wait_moves(a, 2).await?;
    a.same_page("the reply arriving").await?;
    // An illegal move, typed, is refused with its reason, in place.
    a.find("#side .move-form input")
        .await?
        .send_keys("D3")
        .await?;
    a.find("#side .move-form button").await?.click().await?;
    a.wait_for(
        "the refusal",
        "return !!document.querySelector('#status .verdict.illegal')",
    )
    .await?;
    ensure!(a.text("#status .verdict.illegal").await?.contains("D3"));
    a.check_errors().await?;
    b.check_errors().await?;
    a.screenshot("play-go-classmates").await?;
    Ok(())
}

async fn against_the_computer(a: &Browser) -> Result<()> {
    a.open("/play?lang=zh").await?;
    a.follow(fantoccini::Locator::Css("#new-chess button[type=submit]"))
        .await?;
    a.find(&point("e2")).await?.click().await?;
    a.wait_for(
        "the pawn picked up",
        "const e4 = document.querySelector('#board a.pt[data-p=\"e4\"]'); return !!e4 && e4.getAttribute('href').includes('confirm=e2e4')",
    )
    .await?;
    a.find(&point("e4")).await?.click().await?;
    wait_moves(a, 2).await?;
    a.same_page("a move against the computer").await?;
    // Take back both moves.
    a.js(
        "document.querySelector('#side form input[value=undo]').form.querySelector('button').click(); return true",
        vec![],
    )
    .await?;
    a.wait_for(
        "the take-back",
        "return document.querySelectorAll('.move-list li').length === 0",
    )
    .await?;
    // The game is listed under "my games" on /play.
    a.open("/play?lang=zh").await?;
    a.wait_for(
        "my games",
        "return !document.getElementById('my-games').hidden",
    )
    .await?;
    a.viewport(360, 740).await?;
    a.follow(fantoccini::Locator::Css("#my-games a")).await?;
    let wide = a
        .js(
            "return document.documentElement.scrollWidth <= window.innerWidth",
            vec![],
        )
        .await?;
    ensure!(
        wide == json!(true),
        "the table page scrolls sideways on a phone"
    );
    a.screenshot("play-chess-phone").await?;
    a.check_errors().await?;
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_learners_play_live_and_one_plays_the_computer() {
    let state = AppState::from_library(Library::default());
    let base = start_trainer(state).await.expect("the trainer starts");
    let driver = Driver::start().await.unwrap_or_else(|e| panic!("{e:#}"));
    let a = driver
        .session(&base)
        .await
        .unwrap_or_else(|e| panic!("{e:#}"));
    let b = driver
        .session(&base)
        .await
        .unwrap_or_else(|e| panic!("{e:#}"));
    let mut failures = Vec::new();
    if let Err(e) = classmates(&a, &b).await {
        let _ = a.screenshot("failed-play-a").await;
        let _ = b.screenshot("failed-play-b").await;
        failures.push(format!("classmates: {e:#}"));
    }
    if let Err(e) = against_the_computer(&a).await {
        let _ = a.screenshot("failed-play-computer").await;
        failures.push(format!("against the computer: {e:#}"));
    }
    let _ = a.close().await;
    let _ = b.close().await;
    drop(driver);
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}
