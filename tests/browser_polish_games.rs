//! Classroom and games, polished (issue 48): after a game and around it (a rematch, a
//! promotion chosen from pictures, moves you can see happen, a record's variations), in
//! headless Chromium, in both languages, with a screenshot kept in
//! `target/screenshots/polish-*`. Any JavaScript error fails the test.
//!
//! Needs Debian's `chromium` and `chromium-driver` (`scripts/test.sh` installs them).

#[allow(dead_code)]
#[macro_use]
#[path = "browser/classroom.rs"]
mod classroom;
#[allow(dead_code)]
#[path = "browser/harness.rs"]
mod harness;
#[allow(dead_code)]
#[path = "browser/tables.rs"]
mod tables;

use anyhow::{ensure, Result};
use classroom::{no_sideways_scroll, Room};
use fantoccini::Locator;
use harness::Browser;
use serde_json::json;
use tables::{click_move, join_as_classmate, new_game, wait_moves};

/// Resigns the table's game (the form sent as without the script: no question asked).
async fn resign(b: &Browser) -> Result<()> {
    b.find("#side form input[value=resign]").await?;
    b.js(
        "document.querySelector('#side form input[value=resign]').form.submit(); return true",
        vec![],
    )
    .await?;
    b.after_reload().await?;
    b.find("#status .verdict.solved").await?;
    Ok(())
}

/// The side the viewer plays, as the players line says it (`黑方：你` → `黑方`).
async fn my_side(b: &Browser) -> Result<String> {
    let v = b
        .js(
            "const me = [...document.querySelectorAll('.players .player')].find(p => /：你|: you/.test(p.textContent));
             return me ? me.textContent.split(/：|: /)[0] : ''",
            vec![],
        )
        .await?;
    Ok(v.as_str().unwrap_or_default().to_string())
}

/// Point 16: after a game ends, 再来一盘 opens the same game again with the sides swapped,
/// against the computer at once, against a classmate with the classmate offered to join.
async fn rematch(room: &Room, a: &Browser) -> Result<()> {
    let old = new_game(a, "chess", "zh", false).await?;
    let before = my_side(a).await?;
    resign(a).await?;
    a.screenshot("polish-16-over-zh").await?;
    a.follow(Locator::Css("#side form.rematch button")).await?;
    let id = a
        .js(
            "return document.querySelector('.play-table').dataset.id",
            vec![],
        )
        .await?;
    ensure!(id != json!(old), "the rematch is the same table");
    let after = my_side(a).await?;
    ensure!(
        !before.is_empty() && !after.is_empty() && before != after,
        "the sides are not swapped: {before:?} then {after:?}"
    );
    // The computer has White now, and moves first.
    wait_moves(a, 1).await?;
    a.viewport(390, 844).await?;
    no_sideways_scroll(a, "a rematch").await?;
    a.screenshot("polish-16-rematch-zh").await?;
    a.viewport(1280, 800).await?;

    // Classmates: Black resigns and asks for a rematch; White is offered it and joins.
    let b = room.browser().await?;
    let outcome = async {
        let id = new_game(a, "go", "en", true).await?;
        b.open(&format!("/play/{id}?lang=en")).await?;
        b.follow(Locator::Css("#side form[action$='/join'] button"))
            .await?;
        a.wait_for(
            "White to have joined",
            "return !document.querySelector('#status .share')",
        )
        .await?;
        resign(a).await?;
        a.follow(Locator::Css("#side form.rematch button")).await?;
        ensure!(my_side(a).await? == "White", "the asker now has White");
        b.wait_for(
            "the rematch offered",
            "return !!document.querySelector('#status .rematch-offer a')",
        )
        .await?;
        b.hook_if_reloaded().await?;
        b.screenshot("polish-16-offered-en").await?;
        b.follow(Locator::Css("#status .rematch-offer a")).await?;
        join_as_classmate(&a, &b).await?;
        ensure!(my_side(&b).await? == "Black", "the classmate now has Black");
        b.check_errors().await
    }
    .await;
    let _ = b.close().await;
    outcome
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn point_16_a_rematch_with_sides_swapped() {
    in_room!("rematch", "Tom", "point 16 rematch", |room, b| rematch(
        &room, &b
    ));
}

/// A chess problem whose start offers a promotion: its address and the pawn's two squares.
fn promotion_problem(room: &Room) -> Option<(String, String, String)> {
    let library = room.state.snapshot().library;
    let shelf = library
        .shelves
        .iter()
        .find(|s| s.game == qiyuan::content::Game::Chess)?;
    let squares: Vec<String> = "abcdefgh"
        .chars()
        .flat_map(|f| (1..=8).map(move |r| format!("{f}{r}")))
        .collect();
    for set in &shelf.sets {
        for p in &set.problems {
            for from in squares
                .iter()
                .filter(|s| s.ends_with('7') || s.ends_with('2'))
            {
                for to in squares
                    .iter()
                    .filter(|s| s.ends_with('8') || s.ends_with('1'))
                {
                    if p.puzzle.choices(&[], from, to).len() == 4 {
                        let path = format!("/chess/problems/{}/{}", set.slug, p.id);
                        return Some((path, from.clone(), to.clone()));
                    }
                }
            }
        }
    }
    None
}

/// Point 17: a promotion is chosen from the pieces' pictures beside the board, in a game and
/// on a problem, not from words under the board.
async fn promotion_by_pictures(room: &Room, b: &Browser) -> Result<()> {
    for lang in ["zh", "en"] {
        b.open(&format!("/play?lang={lang}")).await?;
        classroom::fill(
            b,
            "#new-chess",
            &[
                ("fen", "8/4P3/8/8/8/8/k7/4K3 w - - 0 1"),
                ("color", "first"),
            ],
        )
        .await?;
        b.follow(Locator::Css("#new-chess button[type=submit]"))
            .await?;
        b.find("#board a.pt[data-p=\"e7\"]").await?.click().await?;
        b.wait_for(
            "the pawn picked up",
            "const t = document.querySelector('#board a.pt[data-p=\"e8\"]'); return !!t && t.getAttribute('href').includes('to=e8')",
        )
        .await?;
        b.find("#board a.pt[data-p=\"e8\"]").await?.click().await?;
        let shown = b
            .wait_for(
                "the pictures to choose from",
                "const c = [...document.querySelectorAll('#side .promotion .piece-choice')];
                 if (c.length !== 4 || !c.every(x => x.querySelector('svg.piece'))) return null;
                 const board = document.getElementById('board').getBoundingClientRect();
                 const box = document.querySelector('#side .promotion').getBoundingClientRect();
                 return { left: box.left, boardRight: board.right, top: box.top, height: innerHeight }",
            )
            .await?;
        ensure!(
            shown["left"].as_f64() >= shown["boardRight"].as_f64()
                && shown["top"].as_f64() < shown["height"].as_f64(),
            "{lang}: the pictures are not beside the board: {shown}"
        );
        b.screenshot(&format!("polish-17-promotion-{lang}")).await?;
        // The knight.
        b.js(
            "[...document.querySelectorAll('#side .promotion form')].find(f => f.elements.move.value === 'e7e8n').querySelector('button').click(); return true",
            vec![],
        )
        .await?;
        b.wait_for(
            "the promotion played",
            "const li = document.querySelector('.move-list li'); return !!li && li.textContent.includes('e8=N')",
        )
        .await?;
        b.hook_if_reloaded().await?;
    }
    // A problem's promotion: pictures too.
    if let Some((path, from, to)) = promotion_problem(room) {
        b.open(&format!("{path}?lang=zh&sel={from}&to={to}"))
            .await?;
        let pictures = b
            .js(
                "return document.querySelectorAll('#status .choices.pictured .piece-choice svg.piece').length",
                vec![],
            )
            .await?;
        ensure!(
            pictures == json!(4),
            "{path}: the promotion shows {pictures} pictures"
        );
        b.viewport(390, 844).await?;
        no_sideways_scroll(b, &path).await?;
        b.screenshot("polish-17-problem-promotion-zh").await?;
        b.viewport(1280, 800).await?;
    }
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn point_17_promotion_chosen_from_pictures() {
    in_room!(
        "promotion",
        "Tom",
        "point 17 promotion by pictures",
        |room, b| promotion_by_pictures(&room, &b)
    );
}

/// Installs a record of the board's changes: each time, the stones on it and how many fade
/// in.
async fn watch_board(b: &Browser) -> Result<()> {
    b.js(
        "window.__boards = [];
         const start = performance.now();
         new MutationObserver(() => {
           const svg = document.querySelector('#board svg');
           if (!svg) return;
           const layers = svg.querySelectorAll('.stones > g');
           const stones = (layers[1] ? layers[1].children.length : 0) + (layers[4] ? layers[4].children.length : 0);
           window.__boards.push({ t: performance.now() - start, stones, appear: svg.querySelectorAll('.appear').length });
         }).observe(document.getElementById('board'), { childList: true });
         return true",
        vec![],
    )
    .await?;
    Ok(())
}

/// Point 13: moves you can see happen: the learner's stone lands at once, the computer's
/// reply follows after a pause and fades in; sound is off until turned on, and the switch is
/// remembered; with reduced motion nothing moves or waits.
async fn moves_seen(b: &Browser) -> Result<()> {
    new_game(b, "go", "zh", false).await?;
    let switch = b
        .js(
            "const s = document.querySelector('button.sound-toggle'); return s && !s.hidden ? s.getAttribute('aria-pressed') : null",
            vec![],
        )
        .await?;
    ensure!(
        switch == json!("false"),
        "the sound switch is not there and off: {switch}"
    );
    watch_board(b).await?;
    b.find("#board a.pt[data-p=\"E5\"]").await?.click().await?;
    wait_moves(b, 2).await?;
    let boards = b.js("return window.__boards", vec![]).await?;
    let list = boards.as_array().cloned().unwrap_or_default();
    let own = list.iter().find(|x| x["stones"] == json!(1));
    let reply = list.iter().find(|x| x["stones"] == json!(2));
    let (Some(own), Some(reply)) = (own, reply) else {
        return Err(anyhow::anyhow!("the boards shown: {boards}"));
    };
    ensure!(
        reply["t"].as_f64().unwrap_or(0.0) - own["t"].as_f64().unwrap_or(0.0) >= 300.0,
        "the reply does not wait after the learner's stone: {boards}"
    );
    ensure!(
        own["appear"].as_u64() > Some(0) && reply["appear"].as_u64() > Some(0),
        "the stones do not fade in: {boards}"
    );
    b.screenshot("polish-13-moves-zh").await?;
    // The sound switch, remembered.
    b.find("button.sound-toggle").await?.click().await?;
    b.reload().await?;
    let on = b
        .wait_for(
            "the switch shown",
            "const s = document.querySelector('button.sound-toggle'); return s && !s.hidden ? s.getAttribute('aria-pressed') : null",
        )
        .await?;
    ensure!(
        on == json!("true"),
        "the sound switch is not remembered: {on}"
    );
    b.find("button.sound-toggle").await?.click().await?;
    // Reduced motion: no fading, no waiting.
    b.devtools(
        "Emulation.setEmulatedMedia",
        json!({"features": [{"name": "prefers-reduced-motion", "value": "reduce"}]}),
    )
    .await?;
    watch_board(b).await?;
    b.find("#board a.pt[data-p=\"C3\"]").await?.click().await?;
    wait_moves(b, 4).await?;
    let boards = b.js("return window.__boards", vec![]).await?;
    b.devtools("Emulation.setEmulatedMedia", json!({"features": []}))
        .await?;
    ensure!(
        boards
            .as_array()
            .is_some_and(|l| !l.is_empty() && l.iter().all(|x| x["appear"] == json!(0))),
        "with reduced motion, stones still fade: {boards}"
    );
    // A chess move slides without a script error.
    new_game(b, "chess", "en", false).await?;
    click_move(b, "e2", "e4").await?;
    wait_moves(b, 2).await?;
    b.screenshot("polish-13-chess-en").await?;
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn point_13_moves_you_can_see_happen() {
    in_room!("motion", "Tom", "point 13 moves you can see", |room, b| {
        moves_seen(&b)
    });
}

/// Point 10: a record's own variations cannot be deleted by whoever has its link; a
/// viewer deletes only the variations it added, and another viewer cannot.
async fn only_your_variations(room: &Room, a: &Browser) -> Result<()> {
    a.open("/records?lang=zh").await?;
    classroom::fill(
        a,
        "form.record-upload",
        &[
            ("text", "(;GM[1]FF[4]SZ[9];B[ee](;W[cc])(;W[gg]))"),
            ("format", "sgf"),
        ],
    )
    .await?;
    a.follow(Locator::Css("form.record-upload button[type=submit]"))
        .await?;
    let page = a
        .location()
        .await?
        .split('?')
        .next()
        .unwrap_or_default()
        .to_string();
    // The record's own variation: no delete button, and a delete asked anyway is refused.
    a.open(&format!("{page}?at=1-1-1&lang=zh")).await?;
    ensure!(
        a.js(
            "return !document.querySelector('.delete-variation')",
            vec![]
        )
        .await?
            == json!(true),
        "the record's own variation offers to be deleted"
    );
    let status = a
        .js(
            "const r = await fetch(location.pathname + '/delete', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'at=1-1-1' }); return r.status",
            vec![],
        )
        .await?;
    ensure!(
        status == json!(403),
        "deleting the record's own variation answers {status}"
    );
    let _ = a.check_errors().await; // The refusal's 403 is logged by Chromium: expected.
                                    // The viewer's own variation: a move tried after move 1.
    a.open(&format!("{page}?at=1&lang=zh")).await?;
    a.find("#board a.pt[data-p=\"D4\"]").await?.click().await?;
    a.wait_for(
        "the new variation",
        "return location.search.includes('at=1-2-1')",
    )
    .await?;
    a.hook_if_reloaded().await?;
    a.find(".delete-variation button").await?;
    let mine = a.location().await?;
    // Another viewer sees no delete button there, and is refused.
    let b = room.browser().await?;
    let outcome = async {
        b.open(&mine).await?;
        ensure!(
            b.js("return !document.querySelector('.delete-variation')", vec![]).await? == json!(true),
            "another viewer may delete it"
        );
        let status = b
            .js(
                "const r = await fetch(location.pathname + '/delete', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'at=1-2-1' }); return r.status",
                vec![],
            )
            .await?;
        ensure!(status == json!(403), "another viewer's delete answers {status}");
        let _ = b.check_errors().await;
        Ok(())
    }
    .await;
    let _ = b.close().await;
    outcome?;
    // The branch point after move 1 is marked on the board: A, B and C where its three
    // moves land.
    a.open(&format!("{page}?at=1&lang=zh")).await?;
    let labels = a
        .js(
            "return [...document.querySelectorAll('#board svg g.marks text')].map(t => t.textContent).sort().join(' ')",
            vec![],
        )
        .await?;
    ensure!(
        labels == json!("A B C"),
        "the branch point's moves are marked {labels}"
    );
    a.screenshot("polish-10-branch-point-zh").await?;
    a.open(&mine).await?;
    // The tree: each variation its own indented line, not a paragraph of brackets.
    let tree = a
        .js(
            "const t = document.querySelector('.record-tree .tree');
             const vars = [...t.querySelectorAll('.var')];
             return { brackets: /[()]/.test(t.textContent), blocks: vars.every(v => getComputedStyle(v).display === 'block'), count: vars.length }",
            vec![],
        )
        .await?;
    ensure!(
        tree["brackets"] == json!(false)
            && tree["blocks"] == json!(true)
            && tree["count"] == json!(2),
        "the move tree is not a tree: {tree}"
    );
    a.screenshot("polish-10-own-variation-zh").await?;
    a.find(".delete-variation button").await?.click().await?;
    a.wait_for(
        "back where it branched",
        "return /at=1(&|$)/.test(location.search)",
    )
    .await?;
    a.hook_if_reloaded().await?;
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn point_10_only_your_own_variations_are_deleted() {
    in_room!(
        "variations",
        "Tom",
        "point 10 only your variations",
        |room, b| only_your_variations(&room, &b)
    );
}
