//! Classroom and games, polished (issue 48): the points about playing a game (move numbers,
//! passes, joining a classmate, words in their language, the placed stone, the counted
//! board), in headless Chromium, in both languages, with a screenshot kept in
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

use anyhow::{ensure, Context, Result};
use classroom::{no_sideways_scroll, Room};
use fantoccini::actions::InputSource;
use fantoccini::Locator;
use harness::Browser;
use qiyuan::lang::Lang;
use qiyuan::web::i18n::{fill, Ui};
use serde_json::json;
use tables::{click_move, join_as_classmate, new_game, press, wait_moves};

/// Point 6: a pass is answered in words: what the computer did instead of passing, that the
/// classmate passed and one more pass ends the game, and that it then goes to counting.
async fn passing_is_told(room: &Room, a: &Browser) -> Result<()> {
    let zh = Ui::get(Lang::Zh);
    new_game(a, "go", "zh", false).await?;
    press(a, "pass").await?;
    wait_moves(a, 2).await?;
    let reply = a.text(".move-list li:nth-child(2)").await?;
    let status = a.text("#status").await?;
    let said = fill(
        &zh.polish.answered_pass,
        &[("who", &zh.play.computer), ("move", &reply)],
    );
    ensure!(
        status.contains(&said) && status.contains(&zh.play.your_turn),
        "after a pass the status reads {status:?}, not {said:?}"
    );
    a.viewport(390, 844).await?;
    no_sideways_scroll(a, "a game after a pass").await?;
    a.screenshot("polish-06-pass-computer-zh").await?;
    a.viewport(1280, 800).await?;

    // Two classmates: Black passes, each is told what it means, White passes: counting.
    let en = Ui::get(Lang::En);
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
        press(a, "pass").await?;
        wait_moves(a, 1).await?;
        wait_moves(&b, 1).await?;
        let mine = a.text("#status").await?;
        ensure!(mine.contains(&en.polish.you_passed), "Black reads {mine:?}");
        let theirs = b.text("#status").await?;
        let said = fill(&en.polish.opponent_passed, &[("who", &en.polish.opponent)]);
        ensure!(
            theirs.contains(&said),
            "White reads {theirs:?}, not {said:?}"
        );
        b.screenshot("polish-06-pass-classmate-en").await?;
        press(&b, "pass").await?;
        b.wait_for(
            "counting",
            "return !!document.querySelector('#status .counting')",
        )
        .await?;
        a.wait_for(
            "counting",
            "return !!document.querySelector('#status .counting')",
        )
        .await?;
        b.check_errors().await
    }
    .await;
    let _ = b.close().await;
    outcome
}

/// The move list as shown: each item's number (empty when none) and its top on the page.
async fn move_rows(b: &Browser) -> Result<Vec<(String, String, i64)>> {
    let items = b
        .js(
            "return [...document.querySelectorAll('.move-list li')].map(li => {
               const n = li.querySelector('.n');
               return [n ? n.textContent : '', li.textContent.trim(), Math.round(li.getBoundingClientRect().top)];
             })",
            vec![],
        )
        .await?;
    Ok(items
        .as_array()
        .cloned()
        .unwrap_or_default()
        .iter()
        .map(|i| {
            (
                i[0].as_str().unwrap_or_default().to_string(),
                i[1].as_str().unwrap_or_default().to_string(),
                i[2].as_i64().unwrap_or_default(),
            )
        })
        .collect())
}

/// Point 5: a chess game numbers moves in pairs, as the lessons do: `1. e4 e5 2. Nf3`, White
/// and Black of a move on one row; a game where Black moves first starts `1… e5`.
async fn chess_numbers_in_pairs(b: &Browser) -> Result<()> {
    for lang in ["zh", "en"] {
        new_game(b, "chess", lang, false).await?;
        click_move(b, "e2", "e4").await?;
        wait_moves(b, 2).await?;
        click_move(b, "g1", "f3").await?;
        wait_moves(b, 4).await?;
        let rows = move_rows(b).await?;
        let numbers: Vec<&str> = rows.iter().map(|r| r.0.as_str()).collect();
        ensure!(
            numbers == ["1.", "", "2.", ""],
            "{lang}: the moves are numbered {rows:?}"
        );
        ensure!(
            rows[0].1.starts_with("1.") && rows[0].1.ends_with("e4") && rows[2].1.ends_with("Nf3"),
            "{lang}: the moves read {rows:?}"
        );
        ensure!(
            rows[0].2 == rows[1].2 && rows[2].2 > rows[1].2,
            "{lang}: a move's two halves on one row: {rows:?}"
        );
        b.viewport(390, 844).await?;
        no_sideways_scroll(b, "a chess game").await?;
        b.js(
            "document.querySelector('.move-list').scrollIntoView(); return true",
            vec![],
        )
        .await?;
        b.screenshot(&format!("polish-05-chess-moves-{lang}"))
            .await?;
        b.viewport(1280, 800).await?;
    }
    // Black to move first, from a position after 1. e4.
    b.open("/play?lang=en").await?;
    classroom::fill(
        b,
        "#new-chess",
        &[
            (
                "fen",
                "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
            ),
            ("color", "second"),
        ],
    )
    .await?;
    b.follow(Locator::Css("#new-chess button[type=submit]"))
        .await?;
    click_move(b, "e7", "e5").await?;
    wait_moves(b, 2).await?;
    let rows = move_rows(b).await?;
    ensure!(
        rows.len() == 2 && rows[0].0 == "1…" && rows[1].0 == "2.",
        "Black first: the moves are numbered {rows:?}"
    );
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn point_05_chess_moves_numbered_in_pairs() {
    in_room!(
        "pairs",
        "Tom",
        "point 5 chess numbers in pairs",
        |room, b| chess_numbers_in_pairs(&b)
    );
}

/// Point 8: joining a classmate is at the top of `/play`; a table waiting for a classmate
/// shows its code large, its full address and a QR code of it.
async fn joining_is_easy(room: &Room, a: &Browser) -> Result<()> {
    for lang in ["zh", "en"] {
        a.viewport(390, 844).await?;
        a.open(&format!("/play?lang={lang}")).await?;
        let join = a
            .js(
                "const r = document.querySelector('form.join-game').getBoundingClientRect(); return [r.top, r.bottom]",
                vec![],
            )
            .await?;
        ensure!(
            join[1].as_f64().unwrap_or(f64::MAX) <= 844.0,
            "{lang}: the join form is not on the first screen of a phone: {join}"
        );
        no_sideways_scroll(a, "/play").await?;
        a.screenshot(&format!("polish-08-play-join-{lang}")).await?;
        let id = new_game(a, "go", lang, true).await?;
        let shown = a
            .js(
                "const code = document.querySelector('#status .share-code');
                 const link = document.querySelector('#status .share-address a');
                 const qr = document.querySelector('#status .share-qr svg');
                 return { code: code && code.textContent.trim(),
                          size: code && parseFloat(getComputedStyle(code).fontSize),
                          address: link && link.textContent.trim(),
                          qr: qr && qr.getAttribute('role'), qr_width: qr && qr.getBoundingClientRect().width }",
                vec![],
            )
            .await?;
        let address = a.url(&format!("/play/{id}"));
        ensure!(
            shown["code"] == json!(id) && shown["size"].as_f64().unwrap_or(0.0) >= 32.0,
            "{lang}: the code is not shown large: {shown}"
        );
        ensure!(
            shown["address"] == json!(address),
            "{lang}: the full address {address} is not shown: {shown}"
        );
        ensure!(
            shown["qr"] == json!("img") && shown["qr_width"].as_f64().unwrap_or(0.0) >= 150.0,
            "{lang}: no QR code of the address: {shown}"
        );
        no_sideways_scroll(a, "a table waiting for a classmate").await?;
        a.screenshot(&format!("polish-08-waiting-{lang}")).await?;
        a.viewport(1280, 800).await?;
    }
    // The classmate joins at the address shown; the sharing box goes.
    let b = room.browser().await?;
    let outcome = async {
        let address = a
            .js(
                "return document.querySelector('#status .share-address a').textContent.trim()",
                vec![],
            )
            .await?;
        b.client
            .goto(address.as_str().context("the address")?)
            .await?;
        b.after_reload().await?;
        join_as_classmate(&a, &b).await?;
        b.check_errors().await
    }
    .await;
    let _ = b.close().await;
    outcome
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn point_08_joining_a_classmate_is_easy() {
    in_room!("join", "Tom", "point 8 joining is easy", |room, b| {
        joining_is_easy(&room, &b)
    });
}

/// Types `mv` into the table's move form and waits for its refusal: the reason as shown.
async fn refused(b: &Browser, mv: &str) -> Result<String> {
    b.js(
        "const old = document.querySelector('#status .verdict.illegal'); if (old) old.remove();
         document.querySelector('#side .move-form input[name=move]').value = arguments[0];
         document.querySelector('#side .move-form button').click(); return true",
        vec![json!(mv)],
    )
    .await?;
    b.wait_for_with(
        "the refusal",
        "return !!document.querySelector('#status .verdict.illegal')",
        vec![],
    )
    .await
    .with_context(|| format!("{mv} refused"))?;
    b.hook_if_reloaded().await?;
    b.text("#status .verdict.illegal .message").await
}

/// Point 12: every reason in the page's language, and Chinese written as Chinese is: no
/// space before 的 or 将军 nor a missing one after 被, full-width punctuation (认输？, 黑方：你).
async fn words_in_place(b: &Browser) -> Result<()> {
    // An antichess record on a Chinese page: refused in Chinese.
    b.open("/records?lang=zh").await?;
    classroom::fill(
        b,
        "form.record-upload",
        &[
            ("text", "[Variant \"Antichess\"]\n\n1. e3 *\n"),
            ("format", "pgn"),
        ],
    )
    .await?;
    b.follow(Locator::Css("form.record-upload button[type=submit]"))
        .await?;
    if let Err(e) = b.check_errors().await {
        // The refusal is answered 422, which Chromium logs: expected here.
        ensure!(format!("{e:#}").contains("status of 4"), "{e:#}");
    }
    let said = b.text("main").await?;
    ensure!(
        said.contains("不是标准的国际象棋") && !said.contains("not standard chess"),
        "the antichess record is refused in English on a Chinese page: {said:?}"
    );
    b.screenshot("polish-12-antichess-zh").await?;
    // Black in check from the rook on e1: a pawn move and a king move into the file refused.
    b.open("/play?lang=zh").await?;
    classroom::fill(
        b,
        "#new-chess",
        &[
            ("fen", "4k3/8/8/8/8/p7/8/4R1K1 b - - 0 1"),
            ("color", "second"),
        ],
    )
    .await?;
    b.follow(Locator::Css("#new-chess button[type=submit]"))
        .await?;
    let check = refused(b, "a3a2").await?;
    ensure!(
        check.contains("被 e1 上的车将军") && !check.contains("车 将军"),
        "the check reads {check:?}"
    );
    let attacked = refused(b, "e8e7").await?;
    ensure!(
        attacked.contains("受到 e1 上的车的攻击") && !attacked.contains("车 的"),
        "the attacked square reads {attacked:?}"
    );
    let players = b.text(".players").await?;
    ensure!(players.contains("黑方：你"), "the players read {players:?}");
    let turn = b.text("#status .turn").await?;
    ensure!(
        !turn.contains("！ "),
        "a space after a Chinese full stop: {turn:?}"
    );
    let resign = b
        .js(
            "return document.querySelector('#side button[data-confirm]').dataset.confirm",
            vec![],
        )
        .await?;
    ensure!(resign == json!("确定认输吗？"), "resigning asks {resign}");
    b.viewport(390, 844).await?;
    no_sideways_scroll(b, "a refused move").await?;
    b.screenshot("polish-12-check-zh").await?;
    b.viewport(1280, 800).await?;
    // The same in English keeps its own punctuation.
    b.open(&format!(
        "{}?lang=en",
        b.location().await?.split('?').next().unwrap_or("")
    ))
    .await?;
    let players = b.text(".players").await?;
    ensure!(
        players.contains("Black: You") || players.contains("Black: you"),
        "the players read {players:?}"
    );
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn point_12_words_in_their_language() {
    in_room!("words", "Tom", "point 12 words in place", |room, b| {
        words_in_place(&b)
    });
}

/// Point 14: the stone just placed keeps its colour while the pointer rests on it or it has
/// the focus: no wash is painted over it.
async fn placed_stone_not_faded(b: &Browser) -> Result<()> {
    for lang in ["zh", "en"] {
        new_game(b, "go", lang, false).await?;
        let point = "#board a.pt[data-p=\"E5\"]";
        b.find(point).await?.click().await?;
        b.wait_for(
            "the stone to be confirmed or placed",
            "return !!document.querySelector('#status form.confirm') || document.querySelectorAll('.move-list li').length > 0",
        )
        .await?;
        if b.js(
            "return !!document.querySelector('#status form.confirm')",
            vec![],
        )
        .await?
            == json!(true)
        {
            b.find(point).await?.click().await?;
        }
        wait_moves(b, 2).await?;
        // The pointer rests on the stone, and it has the focus, as after a click.
        b.js(
            "document.querySelector('#board a.pt[data-p=\"E5\"]').focus(); return true",
            vec![],
        )
        .await?;
        let rect = b.find(&format!("{point} rect")).await?;
        b.client
            .perform_actions(fantoccini::actions::MouseActions::new("mouse".into()).then(
                fantoccini::actions::PointerAction::MoveToElement {
                    element: rect,
                    duration: None,
                    x: 0.0,
                    y: 0.0,
                },
            ))
            .await?;
        let fill = b
            .js(
                "const a = document.querySelector('#board a.pt[data-p=\"E5\"]');
                 return [a.matches(':hover'), a.matches(':focus'), getComputedStyle(a.querySelector('rect')).fill]",
                vec![],
            )
            .await?;
        ensure!(
            fill[0] == json!(true) && fill[1] == json!(true),
            "{lang}: the test could not hover and focus E5: {fill}"
        );
        let f = fill[2].as_str().unwrap_or_default();
        ensure!(
            f == "none" || f == "transparent" || f.replace(' ', "").ends_with(",0)"),
            "{lang}: a wash ({f}) is painted over the stone just placed"
        );
        b.screenshot(&format!("polish-14-placed-stone-{lang}"))
            .await?;
    }
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn point_14_the_stone_just_placed_is_not_faded() {
    in_room!(
        "faded",
        "Tom",
        "point 14 the placed stone is not faded",
        |room, b| placed_stone_not_faded(&b)
    );
}

/// Clicks the point `p` of a Go table, confirming if the page asks, and waits for the table
/// to have `moves` moves.
async fn go_click(b: &Browser, p: &str) -> Result<()> {
    let point = format!("#board a.pt[data-p=\"{p}\"]");
    b.find(&point).await?.click().await?;
    b.wait_for(
        "the click taken",
        "return !!document.querySelector('#status form.confirm') || !document.querySelector('.play-table.busy')",
    )
    .await?;
    if b.js(
        "return !!document.querySelector('#status form.confirm button')",
        vec![],
    )
    .await?
        == json!(true)
    {
        b.find("#status form.confirm button").await?.click().await?;
        b.hook_if_reloaded().await?;
    }
    Ok(())
}

/// What a Go table's board shows: territory squares of each colour, dead-stone crosses and
/// atari triangles.
async fn counted_marks(b: &Browser) -> Result<serde_json::Value> {
    b.js(
        "const svg = document.querySelector('#board svg');
         const paths = [...svg.querySelectorAll('g.marks path')].map(p => p.getAttribute('d'));
         return { black: svg.querySelectorAll('g.territory rect.tb').length,
                  white: svg.querySelectorAll('g.territory rect.tw').length,
                  crosses: paths.filter(d => d.includes('l38 38')).length,
                  triangles: paths.filter(d => d.endsWith('Z')).length }",
        vec![],
    )
    .await
}

/// Point 15: a counted Go board shades each side's territory and marks a dead stone once
/// (a cross, not a cross and an atari triangle).
async fn counted_board(room: &Room, a: &Browser) -> Result<()> {
    let b = room.browser().await?;
    let outcome = async {
        let id = new_game(a, "go", "zh", true).await?;
        b.open(&format!("/play/{id}?lang=en")).await?;
        b.follow(Locator::Css("#side form[action$='/join'] button"))
            .await?;
        a.wait_for("White to have joined", "return !document.querySelector('#status .share')")
            .await?;
        // Black E5, White A1, Black B1 (A1 in atari), both pass.
        go_click(a, "E5").await?;
        wait_moves(&b, 1).await?;
        go_click(&b, "A1").await?;
        wait_moves(a, 2).await?;
        go_click(a, "B1").await?;
        wait_moves(&b, 3).await?;
        press(&b, "pass").await?;
        wait_moves(a, 4).await?;
        press(a, "pass").await?;
        for x in [a, &b] {
            x.wait_for("counting", "return !!document.querySelector('#status .counting')")
                .await?;
            x.hook_if_reloaded().await?;
        }
        // Black marks A1 dead.
        go_click(a, "A1").await?;
        a.wait_for(
            "A1 marked dead",
            "return [...document.querySelectorAll('#board g.marks path')].some(p => p.getAttribute('d').includes('l38 38'))",
        )
        .await?;
        let marks = counted_marks(a).await?;
        ensure!(
            marks["crosses"] == json!(1) && marks["triangles"] == json!(0),
            "the dead stone is marked more than once: {marks}"
        );
        // 81 points less E5, B1 and A1 (dead, marked by its cross): all Black's.
        ensure!(
            marks["black"] == json!(78) && marks["white"] == json!(0),
            "Black's territory is not shaded: {marks}"
        );
        let passes = a.text(".move-list li:nth-child(5)").await?;
        ensure!(passes.contains("停一手"), "a pass in the zh move list reads {passes:?}");
        a.screenshot("polish-15-counting-zh").await?;
        press(a, "agree").await?;
        press(&b, "agree").await?;
        for (x, lang) in [(a, "zh"), (&b, "en")] {
            x.wait_for(
                "the result",
                "return !!document.querySelector('#status .verdict.solved')",
            )
            .await?;
            x.hook_if_reloaded().await?;
            let marks = counted_marks(x).await?;
            ensure!(
                marks["black"] == json!(78) && marks["crosses"] == json!(1) && marks["triangles"] == json!(0),
                "{lang}: the final board: {marks}"
            );
            x.viewport(390, 844).await?;
            no_sideways_scroll(x, "a counted game").await?;
            x.screenshot(&format!("polish-15-counted-{lang}")).await?;
            x.viewport(1280, 800).await?;
        }
        b.check_errors().await
    }
    .await;
    let _ = b.close().await;
    outcome
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn point_15_a_counted_board_shows_territory_and_the_dead_once() {
    in_room!("counted", "Tom", "point 15 the counted board", |room, b| {
        counted_board(&room, &b)
    });
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn point_06_a_pass_is_answered_in_words() {
    in_room!("pass", "Tom", "point 6 passing is told", |room, b| {
        passing_is_told(&room, &b)
    });
}
