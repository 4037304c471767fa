//! What the polish tests do at a game's table: start a game from `/play`, press a button,
//! play a move by two clicks, wait for the move list, join a classmate's table.

use super::harness::Browser;
use anyhow::{Context, Result};
use fantoccini::Locator;
use serde_json::json;

/// Waits until the move list of the page holds `n` moves.
pub async fn wait_moves(b: &Browser, n: usize) -> Result<()> {
    b.wait_for_with(
        &format!("{n} moves in the list"),
        "return document.querySelectorAll('.move-list li').length === arguments[0]",
        vec![json!(n)],
    )
    .await?;
    Ok(())
}

/// Presses the table's button for `action` (`pass`, `resign` …), as a click on it.
pub async fn press(b: &Browser, action: &str) -> Result<()> {
    b.find(&format!("#side form input[value={action}]")).await?;
    b.js(
        "document.querySelector(`#side form input[value=${arguments[0]}]`).form.querySelector('button').click(); return true",
        vec![json!(action)],
    )
    .await?;
    Ok(())
}

/// Starts a game of `game` from `/play` in `lang`, against the computer or a classmate; the
/// table's code.
pub async fn new_game(b: &Browser, game: &str, lang: &str, classmate: bool) -> Result<String> {
    b.open(&format!("/play?lang={lang}")).await?;
    if classmate {
        b.js(
            "document.querySelector(`#new-${arguments[0]} input[value=human]`).checked = true; return true",
            vec![json!(game)],
        )
        .await?;
    }
    b.follow(Locator::Css(&format!("#new-{game} button[type=submit]")))
        .await?;
    let id = b
        .js(
            "return document.querySelector('.play-table').dataset.id",
            vec![],
        )
        .await?;
    Ok(id.as_str().context("the table's code")?.to_string())
}

/// Plays `from`→`to` by two clicks on the table's board.
pub async fn click_move(b: &Browser, from: &str, to: &str) -> Result<()> {
    let point = |p: &str| format!("#board a.pt[data-p=\"{p}\"]");
    b.find(&point(from)).await?.click().await?;
    b.wait_for_with(
        "the piece picked up",
        "const t = document.querySelector(`#board a.pt[data-p=\"${arguments[0]}\"]`); return !!t && t.getAttribute('href').includes('confirm=' + arguments[1])",
        vec![json!(to), json!(format!("{from}{to}"))],
    )
    .await?;
    b.find(&point(to)).await?.click().await?;
    Ok(())
}

/// On the table page `b` has open, takes the free seat, and waits until the table's owner
/// `a` sees the classmate there (the share box goes).
pub async fn join_as_classmate(a: &Browser, b: &Browser) -> Result<()> {
    b.follow(Locator::Css("#side form[action$='/join'] button"))
        .await?;
    a.wait_for(
        "the classmate to have joined",
        "return !document.querySelector('#status .share')",
    )
    .await?;
    Ok(())
}
