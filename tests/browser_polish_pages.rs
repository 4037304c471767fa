//! Classroom and games, polished (issue 48): the trainer's pages (Go counts in the learner's
//! words, shogi boards that fit and name squares as they are labelled, a compact home page),
//! in headless Chromium, in both languages, with a screenshot kept in
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

use anyhow::{anyhow, ensure, Result};
use classroom::{no_sideways_scroll, Room};
use harness::Browser;
use qiyuan::content::go::GoGoal;
use qiyuan::content::{CountAsk, Game, Puzzle};
use serde_json::json;

/// The Go problems that ask who wins a count by a half, with neither dead stones nor komi:
/// their addresses and answers.
fn half_results(room: &Room) -> Vec<(String, String)> {
    let library = room.state.snapshot().library;
    let mut out = Vec::new();
    for shelf in library.shelves.iter().filter(|s| s.game == Game::Go) {
        for set in &shelf.sets {
            for p in &set.problems {
                let Puzzle::Go(go) = &p.puzzle else { continue };
                if let GoGoal::Count {
                    ask: CountAsk::Result,
                    score,
                    answer,
                } = &go.goal
                {
                    if score.dead.is_empty() && score.counting.komi == 0.0 && answer.ends_with(".5")
                    {
                        out.push((
                            format!("/go/problems/{}/{}", set.slug, p.id),
                            answer.clone(),
                        ));
                    }
                }
            }
        }
    }
    out
}

/// Point 4: a Go count's answers and messages in the learner's words (白胜 ½ 子, not W+0.5),
/// a wrong answer's advice about this board (no dead stones or komi it does not have), and
/// no "take back a move" on a question without moves.
async fn counts_in_words(room: &Room, b: &Browser) -> Result<()> {
    let problems = half_results(room);
    ensure!(
        !problems.is_empty(),
        "no Go count asks for a result by a half"
    );
    for (path, answer) in problems.iter().take(3) {
        for lang in ["zh", "en"] {
            let ui = qiyuan::web::i18n::Ui::get(if lang == "zh" {
                qiyuan::lang::Lang::Zh
            } else {
                qiyuan::lang::Lang::En
            });
            b.open(&format!("{path}?lang={lang}")).await?;
            // A wrong answer: the other side wins by one.
            let other = if answer.starts_with('W') { "B" } else { "W" };
            classroom::fill(b, "form.count-form", &[("winner", other), ("margin", "1")]).await?;
            b.find("form.count-form button[type=submit]")
                .await?
                .click()
                .await?;
            b.wait_for(
                "the wrong answer's verdict",
                "return !!document.querySelector('#status .verdict.wrong')",
            )
            .await?;
            b.hook_if_reloaded().await?;
            let status = b.text("#status").await?;
            let (words, dead, komi) = if lang == "zh" {
                (
                    if other == "B" {
                        "黑胜 1 子"
                    } else {
                        "白胜 1 子"
                    },
                    "死子",
                    "贴",
                )
            } else {
                (
                    if other == "B" {
                        "Black wins by 1 stone"
                    } else {
                        "White wins by 1 stone"
                    },
                    "dead",
                    "komi",
                )
            };
            ensure!(
                status.contains(words) && !status.contains(&format!("{other}+1")),
                "{path} {lang}: the wrong answer reads {status:?}"
            );
            ensure!(
                !status.contains(dead) && !status.contains(komi),
                "{path} {lang}: the advice names what the board does not have: {status:?}"
            );
            ensure!(
                !status.contains(&ui.take_back),
                "{path} {lang}: {:?} offered on a question with no move: {status:?}",
                ui.take_back
            );
            if path.ends_with("/3") {
                b.viewport(390, 844).await?;
                no_sideways_scroll(b, path).await?;
                b.screenshot(&format!("polish-04-count-wrong-{lang}"))
                    .await?;
                b.viewport(1280, 800).await?;
            }
            // The solution, in words.
            b.open(&format!("{path}?lang={lang}&solution=1")).await?;
            let shown = b.text("#status .message").await?;
            let half = answer
                .trim_start_matches(['B', 'W', '+'])
                .replace(".5", "½");
            let half = if half == "0½" {
                "½".to_string()
            } else {
                half
            };
            ensure!(
                !shown.contains('+') && shown.contains(&half),
                "{path} {lang}: the solution reads {shown:?} (answer {answer})"
            );
            // The explanation writes the result as the answer does (12½, not 12又1/2).
            let explanation = b.text("#status .explanation").await?;
            half_stones_in_words(path, lang, "the explanation", &explanation, &shown)?;
            // Answered right: the explanation and the count worked out step by step.
            b.open(&format!("{path}?lang={lang}")).await?;
            let margin = answer.trim_start_matches(['B', 'W', '+']);
            classroom::fill(
                b,
                "form.count-form",
                &[("winner", &answer[..1]), ("margin", margin)],
            )
            .await?;
            b.find("form.count-form button[type=submit]")
                .await?
                .click()
                .await?;
            b.wait_for(
                "the right answer's verdict",
                "return !!document.querySelector('#status .explanation')",
            )
            .await?;
            b.hook_if_reloaded().await?;
            let walk = b.text("#status .explanation").await?;
            half_stones_in_words(path, lang, "the count worked out", &walk, &shown)?;
            ensure!(
                !walk.contains(dead) && !walk.contains(komi),
                "{path} {lang}: the count worked out names what the board does not have: {walk:?}"
            );
            if path.ends_with("/3") {
                b.screenshot(&format!("polish-04-count-right-{lang}"))
                    .await?;
            }
        }
    }
    Ok(())
}

/// Point 4: a text about a count writes half stones as the learner's answer does: the
/// result (`shown`, e.g. 白胜 ½ 子 / White wins by ½ stone) in the same words, and no
/// `又`, `1/2` or points in brackets.
fn half_stones_in_words(path: &str, lang: &str, what: &str, text: &str, shown: &str) -> Result<()> {
    ensure!(
        !text.contains('又') && !text.contains("1/2") && !text.contains("points)"),
        "{path} {lang}: {what} writes half stones otherwise: {text:?}"
    );
    ensure!(
        text.contains(shown.trim()),
        "{path} {lang}: {what} does not say {shown:?} as the answer does: {text:?}"
    );
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn point_04_go_counts_in_the_learners_words() {
    in_room!("counts", "Tom", "point 4 counts in words", |room, b| {
        counts_in_words(&room, &b)
    });
}

/// A shogi problem where dropping a pawn on some square is refused as 打ち歩詰め: its address,
/// the drop (`P*9b`) and the square.
fn pawn_drop_mate(room: &Room) -> Option<(String, String, String)> {
    let library = room.state.snapshot().library;
    let shelf = library.shelves.iter().find(|s| s.game == Game::Shogi)?;
    for set in &shelf.sets {
        for p in &set.problems {
            for file in 1..=9 {
                for rank in 'a'..='i' {
                    let sq = format!("{file}{rank}");
                    let drop = format!("P*{sq}");
                    let reason = match p.puzzle.attempt(&[], &[], &drop) {
                        qiyuan::content::Verdict::Illegal { reason } => reason.zh,
                        qiyuan::content::Verdict::NotAnswer { why, .. } => why.zh,
                        _ => continue,
                    };
                    if reason.contains("打步诘") {
                        return Some((format!("/shogi/problems/{}/{}", set.slug, p.id), drop, sq));
                    }
                }
            }
        }
    }
    None
}

/// Point 11: a shogi problem fits a 1280×800 window with the player's hand in view, the
/// counts of pieces in hand stay on their stand, and each language names squares as its
/// board labels them (English a–i; Chinese 一–九, also in the reason of 打ち歩詰め).
async fn shogi_fits_and_names_squares(room: &Room, b: &Browser) -> Result<()> {
    let library = room.state.snapshot().library;
    let shelf = library
        .shelves
        .iter()
        .find(|s| s.game == Game::Shogi)
        .ok_or_else(|| anyhow!("no shogi"))?;
    // A problem with several pieces of a kind in hand.
    let (set, problem) = shelf
        .sets
        .iter()
        .flat_map(|s| s.problems.iter().map(move |p| (s, p)))
        .find(|(_, p)| {
            let svg = p.puzzle.board(&qiyuan::content::BoardRequest {
                shown: &[],
                picked: &[],
                selected: None,
                href: None,
                heat: None,
                lang: qiyuan::lang::Lang::En,
                title: "",
            });
            svg.split("class=\"counts\"").nth(1).is_some_and(|c| {
                c.split("</g>")
                    .next()
                    .is_some_and(|c| c.matches("<text").count() >= 3)
            })
        })
        .ok_or_else(|| anyhow!("no shogi problem with counts in hand"))?;
    let path = format!("/shogi/problems/{}/{}", set.slug, problem.id);
    for lang in ["en", "zh"] {
        b.open(&format!("{path}?lang={lang}")).await?;
        let seen = b
            .js(
                "const svg = document.querySelector('.problem-board svg');
                 const hands = [...svg.querySelectorAll('a.pt[data-p$=\"*\"] rect')].map(r => r.getBoundingClientRect());
                 const right = Math.max(...hands.map(r => r.right));
                 const counts = [...svg.querySelectorAll('g.counts text')].map(t => t.getBoundingClientRect().right);
                 const ranks = [...svg.querySelectorAll('g.coords text')].map(t => t.textContent).filter(t => !/[０-９]/.test(t));
                 return { bottom: svg.getBoundingClientRect().bottom, height: innerHeight, right, counts, ranks }",
                vec![],
            )
            .await?;
        ensure!(
            seen["bottom"].as_f64() <= seen["height"].as_f64(),
            "{path} {lang}: the board (and the player's hand) goes below the window: {seen}"
        );
        let right = seen["right"].as_f64().unwrap_or(0.0);
        ensure!(
            seen["counts"].as_array().is_some_and(|c| c
                .iter()
                .all(|x| x.as_f64().unwrap_or(f64::MAX) <= right + 1.0)),
            "{path} {lang}: a count spills out of its stand: {seen}"
        );
        let ranks: Vec<&str> = seen["ranks"]
            .as_array()
            .map(|r| r.iter().filter_map(|x| x.as_str()).collect())
            .unwrap_or_default();
        let want: Vec<&str> = if lang == "en" {
            vec!["a", "b", "c", "d", "e", "f", "g", "h", "i"]
        } else {
            vec!["一", "二", "三", "四", "五", "六", "七", "八", "九"]
        };
        ensure!(ranks == want, "{path} {lang}: the ranks read {ranks:?}");
        b.screenshot(&format!("polish-11-shogi-{lang}")).await?;
    }
    // 打ち歩詰め, in Chinese, names the square as the board does.
    let (path, drop, sq) =
        pawn_drop_mate(room).ok_or_else(|| anyhow!("no 打ち歩詰め in the shogi problems"))?;
    b.open(&format!("{path}?lang=zh&play={}", drop.replace('*', "%2A")))
        .await?;
    let status = b.text("#status").await?;
    let kanji =
        ["一", "二", "三", "四", "五", "六", "七", "八", "九"][(sq.as_bytes()[1] - b'a') as usize];
    ensure!(
        status.contains(&format!("{}{kanji}", &sq[..1])) && !status.contains(&format!("{sq} ")),
        "{path}: the reason for {drop} reads {status:?}"
    );
    b.viewport(390, 844).await?;
    no_sideways_scroll(b, &path).await?;
    b.screenshot("polish-11-uchifuzume-zh").await?;
    b.viewport(1280, 800).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn point_11_shogi_fits_and_names_squares_as_its_board() {
    in_room!(
        "shogi",
        "Tom",
        "point 11 shogi fits and names squares",
        |room, b| shogi_fits_and_names_squares(&room, &b)
    );
}

/// Point 19: the home page is a compact start on a phone (the games as cards, their lists on
/// each game's page), its title says 棋院 once, and keyboard hints are not shown on touch
/// screens.
async fn compact_home(room: &Room, b: &Browser) -> Result<()> {
    let library = room.state.snapshot().library;
    b.viewport(390, 844).await?;
    for lang in ["zh", "en"] {
        b.open(&format!("/?lang={lang}")).await?;
        let home = b
            .js(
                "return [document.documentElement.scrollHeight, document.querySelectorAll('.game-card').length, document.title,
                         document.querySelectorAll('main ol.lessons li').length]",
                vec![],
            )
            .await?;
        ensure!(
            home[0].as_f64().unwrap_or(f64::MAX) <= 2.5 * 844.0,
            "{lang}: the home page is {} px tall on a phone",
            home[0]
        );
        ensure!(
            home[1] == json!(library.shelves.len()) && home[3] == json!(0),
            "{lang}: the games are not cards without their lists: {home}"
        );
        let site = if lang == "zh" { "棋院" } else { "qiyuan" };
        ensure!(
            home[2] == json!(site),
            "{lang}: the page title is {}",
            home[2]
        );
        no_sideways_scroll(b, "/").await?;
        b.screenshot(&format!("polish-19-home-{lang}")).await?;
    }
    // A lesson on a touch screen: no keyboard hint; with a mouse, the hint.
    let shelf = &library.shelves[0];
    let lesson = format!(
        "/{}/lessons/{}?lang=zh",
        shelf.game.slug(),
        shelf.lessons[0].slug
    );
    b.open(&lesson).await?;
    let visible = "const k = document.querySelector('.key-help'); return !!k && k.getBoundingClientRect().height > 0";
    ensure!(
        b.js(visible, vec![]).await? == json!(true),
        "no keyboard hint with a mouse"
    );
    b.devtools(
        "Emulation.setTouchEmulationEnabled",
        json!({"enabled": true, "maxTouchPoints": 5}),
    )
    .await?;
    b.devtools(
        "Emulation.setEmulatedMedia",
        json!({"features": [{"name": "hover", "value": "none"}, {"name": "pointer", "value": "coarse"}]}),
    )
    .await?;
    let shown = b.js(visible, vec![]).await?;
    let media = b
        .js(
            "return [matchMedia('(hover: none)').matches, matchMedia('(pointer: coarse)').matches]",
            vec![],
        )
        .await?;
    b.screenshot("polish-19-lesson-touch-zh").await?;
    b.devtools(
        "Emulation.setTouchEmulationEnabled",
        json!({"enabled": false}),
    )
    .await?;
    b.devtools("Emulation.setEmulatedMedia", json!({"features": []}))
        .await?;
    ensure!(
        shown == json!(false),
        "a keyboard hint on a touch screen (media {media})"
    );
    b.viewport(1280, 800).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn point_19_a_compact_home() {
    in_room!("home", "Tom", "point 19 a compact home", |room, b| {
        compact_home(&room, &b)
    });
}
