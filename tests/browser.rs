//! The trainer in a real browser: headless Chromium driven through chromedriver (WebDriver).
//!
//! For every game that has content, in one browser session: step a lesson diagram with the
//! keyboard; solve a problem by clicking (a point, or a piece and then its destination) and
//! answer a "click every point" question, then find both solved on their set page after a
//! reload; a wrong move with its refutation and explanation, then take it back; an illegal
//! move and the rule it breaks; a promotion chosen among the moves offered; the solution step
//! by step; the board's accessible names in both languages; the board from the keyboard alone.
//! For Go also: a hint, the language switch keeping the position, and progress (solved, to
//! review, continue where you stopped, clear). In a second session: nothing scrolls sideways
//! at 360×740 and 1280×800, with screenshots under `target/screenshots/`. Any JavaScript error
//! on any page fails the test. Answers and texts come from the content library (its lines and
//! its engines' verdicts) and the interface strings, not from this file.
//!
//! Needs Debian's `chromium` and `chromium-driver` (`scripts/test.sh` installs them); fails
//! when they are missing. `cargo test --test browser -- --nocapture` shows what each scenario
//! covered and its time; a failed scenario leaves `target/screenshots/failed-….png`.

#[path = "browser/content.rs"]
mod content;
#[path = "browser/harness.rs"]
mod harness;

use anyhow::{anyhow, bail, ensure, Context, Result};
use content::{move_problem, problem_path, solution, wrong_move};
use fantoccini::key::Key;
use fantoccini::Locator;
use harness::{squash, start_trainer, Browser, Driver, Runner};
use qiyuan::content::{Game, Input, Library, Problem, ProblemSet, Verdict};
use qiyuan::lang::Lang;
use qiyuan::web::i18n::{fill, Ui};
use qiyuan::web::AppState;
use serde_json::{json, Value};
use std::sync::Arc;
use std::time::Instant;

const EN: Lang = Lang::En;

/// `#board a.pt[data-p="…"]`.
fn point_css(point: &str) -> String {
    format!("#board a.pt[data-p=\"{point}\"]")
}

/// For every game that has one, a problem answered by moves (see [`move_problem`]).
fn move_problems(library: &Library, min: usize) -> Vec<(Game, &ProblemSet, &Problem)> {
    library
        .shelves
        .iter()
        .filter_map(|s| move_problem(library, s.game, min).map(|(set, p)| (s.game, set, p)))
        .collect()
}

/// For every game that has problems, one to look at: answered by moves if there is one,
/// else the first.
fn any_problems(library: &Library) -> Vec<(Game, &ProblemSet, &Problem)> {
    library
        .shelves
        .iter()
        .filter_map(|s| {
            move_problem(library, s.game, 1)
                .or_else(|| content::problems(s).next())
                .map(|(set, p)| (s.game, set, p))
        })
        .collect()
}

/// The first learner action on `problem`: a move, or a point of the answer.
async fn first_action(b: &Browser, game: Game, problem: &Problem) -> Result<()> {
    match (problem.puzzle.input(), problem.puzzle.answer().first()) {
        (Input::Pick { .. }, Some(point)) => b.find(&point_css(point)).await?.click().await?,
        _ => {
            let steps = solution(game, problem).map_err(|e| anyhow!("{e}"))?;
            click_move(b, game, &steps[0].play).await?;
        }
    }
    Ok(())
}

/// A Go problem answered by moves (see [`move_problem`]).
fn go_problem(library: &Library, min: usize) -> Result<(&ProblemSet, &Problem)> {
    move_problem(library, Game::Go, min)
        .ok_or_else(|| anyhow!("Go has no problem answered by moves"))
}

/// Waits until the problem's progress (`data-moves`) is `moves`.
async fn wait_moves(b: &Browser, moves: &[String]) -> Result<()> {
    b.wait_for_with(
        &format!("the moves to be {moves:?}"),
        "return document.querySelector('.problem').dataset.moves === arguments[0]",
        vec![json!(moves.join(","))],
    )
    .await?;
    Ok(())
}

/// Waits until the piece on `square` is picked up (`data-selected`).
async fn wait_selected(b: &Browser, square: &str) -> Result<()> {
    b.wait_for_with(
        &format!("the piece on {square} picked up"),
        "return document.querySelector('.problem').dataset.selected === arguments[0]",
        vec![json!(square)],
    )
    .await?;
    Ok(())
}

/// Waits for a verdict of this kind in `#status` and returns its headline and message.
async fn verdict(b: &Browser, kind: &str) -> Result<(String, String)> {
    if let Err(e) = b.find(&format!("#status .verdict.{kind}")).await {
        let status = b.text("#status").await.unwrap_or_default();
        return Err(e.context(format!("no `{kind}` verdict; the status says {status:?}")));
    }
    let headline = b.text("#status .headline").await?;
    let message = b
        .js(
            "const m = document.querySelector('#status .message'); return m ? m.textContent : ''",
            vec![],
        )
        .await?;
    Ok((headline, squash(message.as_str().unwrap_or_default())))
}

/// How many points of the board take clicks.
async fn open_points(b: &Browser) -> Result<u64> {
    let n = b
        .js(
            "return document.querySelectorAll('#board a.pt').length",
            vec![],
        )
        .await?;
    n.as_u64().ok_or_else(|| anyhow!("not a count: {n}"))
}

/// The clicks that play the canonical move `mv`: the point (Go `D4`), or the piece and then
/// its destination (chess `e2e4`, shogi `7g7f`, a piece in hand `P*5e`). A promotion is then
/// chosen among the moves offered.
fn clicks(game: Game, mv: &str) -> (Option<&str>, &str) {
    match game {
        Game::Go => (None, mv),
        Game::Chess | Game::Shogi | Game::Xiangqi => (Some(&mv[..2]), &mv[2..4]),
    }
}

/// After the destination of `mv` was chosen: if moves to that square are offered (a
/// promotion), chooses `mv`, with a click or, with `keyboard`, Tab and Enter. Returns whether
/// that loaded a new page (the choices are links the script leaves alone).
async fn choose_if_offered(b: &Browser, mv: &str, keyboard: bool) -> Result<bool> {
    let offered = b
        .wait_for(
            &format!("{mv} played or a choice offered"),
            "if (document.querySelector('#status .choices a')) return 'choice'; return !document.querySelector('.problem').dataset.selected && 'played'",
        )
        .await?;
    if offered != "choice" {
        return Ok(false);
    }
    let is_mv = "(a) => !!a && !!a.closest && !!a.closest('#status .choices a') && new URL(a.href).searchParams.get('play') === arguments[0]";
    b.check_errors().await?;
    if keyboard {
        let mut reached = false;
        for _ in 0..30 {
            let here = format!("return ({is_mv})(document.activeElement)");
            if b.js(&here, vec![json!(mv)]).await? == json!(true) {
                reached = true;
                break;
            }
            b.press(Key::Tab).await?;
        }
        ensure!(reached, "Tab never reaches the choice {mv}");
        b.press(Key::Enter).await?;
    } else {
        let index = b
            .js(
                &format!("return [...document.querySelectorAll('#status .choices a')].findIndex({is_mv})"),
                vec![json!(mv)],
            )
            .await?;
        let index = index
            .as_u64()
            .ok_or_else(|| anyhow!("{mv} is not among the moves offered"))?;
        let choices = b
            .client
            .find_all(Locator::Css("#status .choices a"))
            .await?;
        choices[index as usize].click().await?;
    }
    b.wait_for(
        &format!("{mv} chosen"),
        "return document.readyState === 'complete' && !document.querySelector('#status .choices a')",
    )
    .await?;
    b.hook_if_reloaded().await
}

/// Plays the learner's move `mv` by clicking.
async fn click_move(b: &Browser, game: Game, mv: &str) -> Result<()> {
    let (from, to) = clicks(game, mv);
    if let Some(from) = from {
        b.find(&point_css(from))
            .await
            .with_context(|| format!("picking up the piece on {from} for {mv}"))?
            .click()
            .await?;
        wait_selected(b, from).await?;
    }
    b.find(&point_css(to))
        .await
        .with_context(|| format!("the destination {to} of {mv}"))?
        .click()
        .await?;
    if from.is_some() {
        choose_if_offered(b, mv, false).await?;
    }
    Ok(())
}

/// Solves `problem` by clicking; the script does it in place.
async fn click_solution(b: &Browser, game: Game, problem: &Problem) -> Result<()> {
    let steps = solution(game, problem).map_err(|e| anyhow!("{e}"))?;
    for step in &steps {
        click_move(b, game, &step.play).await?;
        wait_moves(b, &step.after).await?;
        b.same_page("a click on the board").await?;
    }
    Ok(())
}

/// Fails if the page scrolls sideways; names the elements that stick out.
async fn no_sideways_scroll(b: &Browser, page: &str) -> Result<()> {
    let m = b
        .js(
            r##"
const d = document.documentElement;
const name = (e) => e.tagName.toLowerCase() + (e.id ? "#" + e.id : "") +
  (typeof e.className === "string" && e.className.trim() ? "." + e.className.trim().split(/\s+/).join(".") : "");
const wide = [...document.body.querySelectorAll("*")]
  .filter((e) => e.getBoundingClientRect().right > d.clientWidth + 0.5)
  .slice(0, 8)
  .map((e) => `${name(e)} (right edge ${Math.round(e.getBoundingClientRect().right)})`);
return { scrollWidth: d.scrollWidth, clientWidth: d.clientWidth, innerWidth: window.innerWidth, wide };
"##,
            vec![],
        )
        .await?;
    let scroll = m["scrollWidth"].as_i64().unwrap_or(i64::MAX);
    let client = m["clientWidth"].as_i64().unwrap_or(0);
    let inner = m["innerWidth"].as_i64().unwrap_or(0);
    ensure!(
        scroll <= client && scroll <= inner,
        "{page} scrolls sideways: scrollWidth {scroll} > clientWidth {client} (innerWidth {inner}); sticking out: {}",
        m["wide"]
    );
    Ok(())
}

/// The home page, and a lesson and a problem (before and after a move) of every game, at a
/// phone's and a laptop's size, in both languages: nothing scrolls sideways; a screenshot of
/// each.
async fn layout(b: &Browser, library: &Library) -> Result<()> {
    for (width, height) in [(360, 740), (1280, 800)] {
        b.viewport(width, height).await?;
        for lang in Lang::ALL {
            let size = format!("{width}x{height}-{lang}");
            b.open(&format!("/?lang={lang}")).await?;
            no_sideways_scroll(b, &format!("/?lang={lang} at {width}×{height}")).await?;
            b.screenshot(&format!("{size}-home")).await?;
            for shelf in &library.shelves {
                let game = shelf.game;
                let slug = game.slug();
                let mut pages = Vec::new();
                if let Some(lesson) = shelf.lessons.first() {
                    pages.push(("lesson", format!("/{slug}/lessons/{}", lesson.slug)));
                }
                let problem = any_problems(library)
                    .into_iter()
                    .find(|(g, _, _)| *g == game)
                    .map(|(_, set, p)| (set, p));
                if let Some((set, problem)) = problem {
                    pages.push(("problem", problem_path(game, set, problem)));
                }
                for (name, path) in pages {
                    let path = format!("{path}?lang={lang}");
                    b.open(&path).await?;
                    no_sideways_scroll(b, &format!("{path} at {width}×{height}")).await?;
                    b.screenshot(&format!("{size}-{slug}-{name}")).await?;
                }
                if let Some((_, problem)) = problem {
                    first_action(b, game, problem).await?;
                    b.find("#status .verdict:not(.ready)").await?;
                    b.js("window.scrollTo(0, 0)", vec![]).await?;
                    let here = b.location().await?;
                    no_sideways_scroll(b, &format!("{here} at {width}×{height}")).await?;
                    b.screenshot(&format!("{size}-{slug}-problem-after-move"))
                        .await?;
                }
            }
        }
    }
    b.viewport(1280, 800).await
}

/// Waits until the diagram `id` is at step `n` and has the focus.
async fn step_is(b: &Browser, id: &str, n: usize) -> Result<()> {
    b.wait_for_with(
        &format!("diagram {id} at step {n}, focused"),
        "const f = document.getElementById(arguments[0]); return !!f && f.dataset.step === arguments[1] && document.activeElement === f",
        vec![json!(id), json!(n.to_string())],
    )
    .await?;
    Ok(())
}

/// In a lesson of every game, a diagram steps with → and ← when focused; the address
/// follows, and opened again it shows the same step.
async fn lesson_keyboard(b: &Browser, library: &Library) -> Result<()> {
    let ui = Ui::get(EN);
    for shelf in &library.shelves {
        let Some(lesson) = shelf
            .lessons
            .iter()
            .find(|l| l.en.diagrams.first().is_some_and(|d| d.frames.len() >= 3))
        else {
            eprintln!("browser: {} has no lesson to step", shelf.game.slug());
            continue;
        };
        let diagram = &lesson.en.diagrams[0];
        let total = diagram.frames.len() - 1;
        let path = format!("/{}/lessons/{}", shelf.game.slug(), lesson.slug);
        b.open(&format!("{path}?lang=en")).await?;
        let id = b.find("figure.diagram").await?.attr("id").await?;
        let id = id.ok_or_else(|| anyhow!("{path}: the first diagram has no id"))?;
        let count = format!("#{id} .count");
        ensure!(
            b.text(&count).await? == ui.start_position,
            "{path}: step counter at start"
        );
        let focused = b
            .js(
                "const f = document.querySelector('figure.diagram'); f.focus(); return document.activeElement === f",
                vec![],
            )
            .await?;
        ensure!(
            focused == json!(true),
            "{path}: the first diagram cannot take focus"
        );
        let label = |n: usize| {
            fill(
                &ui.step_of,
                &[("i", &n.to_string()), ("n", &total.to_string())],
            )
        };

        b.press(Key::Right).await?;
        step_is(b, &id, 1)
            .await
            .with_context(|| format!("{path}: → on the focused diagram"))?;
        ensure!(b.text(&count).await? == label(1), "{path}: counter after →");
        if let Some(say) = &diagram.frames[1].say {
            let shown = b.text(&format!("#{id} .say")).await?;
            ensure!(shown == squash(say), "{path}: step 1 says {shown:?}");
        }
        let here = b.location().await?;
        ensure!(
            here.starts_with(&format!("{path}?s=0:1")),
            "address after →: {here}"
        );
        b.press(Key::Right).await?;
        step_is(b, &id, 2).await.context("a second →")?;
        ensure!(
            b.text(&count).await? == label(2),
            "{path}: counter after → →"
        );
        b.press(Key::Left).await?;
        step_is(b, &id, 1).await.context("←")?;
        ensure!(b.text(&count).await? == label(1), "{path}: counter after ←");
        let here = b.location().await?;
        ensure!(
            here.starts_with(&format!("{path}?s=0:1")),
            "address after ←: {here}"
        );
        b.same_page("stepping a diagram").await?;

        // The address is the state: opened again, the diagram is at step 1.
        b.open(&here).await?;
        let step = b.find(&format!("#{id}")).await?.attr("data-step").await?;
        ensure!(
            step.as_deref() == Some("1"),
            "{here} opens at step {step:?}"
        );
    }
    Ok(())
}

/// Waits until the points found so far (`data-picked`) are `picked`, in any order.
async fn wait_picked(b: &Browser, picked: &[String]) -> Result<()> {
    let mut sorted = picked.to_vec();
    sorted.sort();
    b.wait_for_with(
        &format!("the points found to be {picked:?}"),
        "const p = document.querySelector('.problem').dataset.picked; return (p ? p.split(',') : []).sort().join(',') === arguments[0]",
        vec![json!(sorted.join(","))],
    )
    .await?;
    Ok(())
}

/// Answers a "click every point that …" question by clicking every point of the answer.
async fn click_answer(b: &Browser, problem: &Problem) -> Result<()> {
    let answer = problem.puzzle.answer();
    for (i, point) in answer.iter().enumerate() {
        b.find(&point_css(point))
            .await
            .with_context(|| format!("{point} of the answer {answer:?}"))?
            .click()
            .await?;
        wait_picked(b, &answer[..=i]).await?;
        b.same_page("a click on the board").await?;
    }
    Ok(())
}

/// Checks a problem just solved: the verdict, the explanation, a closed board; reloaded,
/// still solved; then, on its set page after a reload, marked solved.
async fn solved(b: &Browser, game: Game, set: &ProblemSet, problem: &Problem) -> Result<()> {
    let ui = Ui::get(EN);
    let path = problem_path(game, set, problem);
    let key = b.find(".problem").await?.attr("data-key").await?;
    let key = key.ok_or_else(|| anyhow!("{path} has no data-key"))?;
    let (headline, _) = verdict(b, "solved").await.context(path.clone())?;
    ensure!(
        headline == ui.solved,
        "{path}: solved headline {headline:?}"
    );
    if let Some(explanation) = &problem.explanation {
        let shown = b.text("#status .explanation p").await?;
        ensure!(
            shown == squash(explanation.get(EN)),
            "{path}: explanation {shown:?}"
        );
    }
    ensure!(
        open_points(b).await? == 0,
        "{path}: a solved board still takes clicks"
    );
    // The address is the state: reloaded, the problem is still solved.
    b.reload().await?;
    verdict(b, "solved")
        .await
        .with_context(|| format!("{path} reloaded once solved"))?;

    b.open(&format!("/{}/problems/{}?lang=en", game.slug(), set.slug))
        .await?;
    b.reload().await?;
    b.wait_for_with(
        &format!("{key} marked solved on its set page after a reload"),
        "const li = document.querySelector(`li[data-key=\"${arguments[0]}\"]`); return !!li && li.classList.contains('solved')",
        vec![json!(key)],
    )
    .await?;
    Ok(())
}

/// In every game, a problem answered by moves and a "click every point" question, solved by
/// clicking, show as solved, with the explanation, and are marked solved on their set page,
/// after a reload too.
async fn solve_by_clicking(b: &Browser, library: &Library) -> Result<()> {
    for (game, set, problem) in move_problems(library, 1) {
        let path = problem_path(game, set, problem);
        b.open(&format!("{path}?lang=en")).await?;
        verdict(b, "ready").await?;
        click_solution(b, game, problem)
            .await
            .with_context(|| format!("solving {path}"))?;
        solved(b, game, set, problem).await?;
        eprintln!("browser: solved {path} by clicking");
    }
    for shelf in &library.shelves {
        let game = shelf.game;
        let Some((set, problem)) =
            content::problems(shelf).find(|(_, p)| matches!(p.puzzle.input(), Input::Pick { .. }))
        else {
            eprintln!(
                "browser: {} has no \"click every point\" question",
                game.slug()
            );
            continue;
        };
        let path = problem_path(game, set, problem);
        b.open(&format!("{path}?lang=en")).await?;
        verdict(b, "ready").await?;
        click_answer(b, problem)
            .await
            .with_context(|| format!("answering {path}"))?;
        solved(b, game, set, problem).await?;
        eprintln!("browser: answered {path} by clicking");
    }
    Ok(())
}

/// A counting problem answered in its form, without the script: the count is judged, the
/// status speaks of counting, and the solved state survives a reload.
async fn count_by_the_form(b: &Browser, library: &Library) -> Result<()> {
    let ui = Ui::get(EN);
    let Some((set, problem)) = library.shelf(Game::Go).and_then(|s| {
        content::problems(s).find(|(_, p)| matches!(p.puzzle.input(), Input::Count(_)))
    }) else {
        bail!("the Go content has no counting problem");
    };
    let path = problem_path(Game::Go, set, problem);
    b.open(&format!("{path}?lang=en")).await?;
    let (headline, _) = verdict(b, "ready").await?;
    ensure!(
        headline == ui.your_count,
        "{path}: the status says {headline:?}"
    );
    let answer = problem.puzzle.answer().remove(0);
    let fill_in = |name: &str, value: &str| {
        format!(
            "const f = document.querySelector('form.count-form'); \
             const e = f.elements[{name:?}]; e.value = {value:?}; return true;"
        )
    };
    match answer.split_once('+') {
        Some((side, margin)) => {
            b.js(&fill_in("winner", side), vec![]).await?;
            b.js(&fill_in("margin", margin), vec![]).await?;
        }
        None if answer == "0" => {
            b.js(&fill_in("winner", "0"), vec![]).await?;
        }
        None => {
            b.js(&fill_in("count", &answer), vec![]).await?;
        }
    }
    b.find("form.count-form button[type=submit]")
        .await?
        .click()
        .await?;
    b.after_reload().await?;
    let (headline, _) = verdict(b, "solved").await.context(path.clone())?;
    ensure!(
        headline == ui.solved,
        "{path}: {headline:?} after the count {answer}"
    );
    b.reload().await?;
    verdict(b, "solved")
        .await
        .with_context(|| format!("{path} reloaded once counted"))?;
    eprintln!("browser: counted {path} ({answer}) in the form");
    Ok(())
}

/// In every game with a wrong line: the wrong move is played out with the opponent's answer
/// and the author's explanation, then taken back.
async fn wrong_then_take_back(b: &Browser, library: &Library) -> Result<()> {
    let ui = Ui::get(EN);
    for game in library.shelves.iter().map(|s| s.game) {
        let Some((set, problem, mv, wrong)) = wrong_move(library, game) else {
            eprintln!("browser: {} has no wrong line", game.slug());
            continue;
        };
        let path = problem_path(game, set, problem);
        ensure!(
            matches!(problem.puzzle.attempt(&[], &[], &mv), Verdict::Wrong { .. }),
            "{path}: the engine does not call {mv} wrong"
        );
        b.open(&format!("{path}?lang=en")).await?;
        click_move(b, game, &mv).await?;
        let (headline, message) = verdict(b, "wrong").await?;
        ensure!(headline == ui.wrong, "{path}: wrong headline {headline:?}");
        ensure!(
            message.contains(&squash(wrong.why.get(EN))),
            "{path}, {mv}: the message {message:?} lacks the author's explanation {:?}",
            wrong.why.en
        );
        if let Some(reply) = wrong.refutation.first() {
            let reply = problem.puzzle.notation(std::slice::from_ref(&mv), reply);
            let refuted = fill(&ui.wrong_refuted, &[("move", &reply)]);
            ensure!(
                message.contains(&refuted),
                "{path}: message {message:?} lacks {refuted:?}"
            );
        }
        b.same_page("a wrong move").await?;
        b.follow(Locator::LinkText(&ui.take_back)).await?;
        verdict(b, "ready")
            .await
            .with_context(|| format!("{path}: after taking back"))?;
        wait_moves(b, &[]).await?;
        let (_, to) = clicks(game, &mv);
        b.find(&point_css(to))
            .await
            .with_context(|| format!("{path}: the board takes clicks again"))?;
    }
    Ok(())
}

/// The board's links: each point's name and the move its link plays, if it plays one.
async fn board_links(b: &Browser) -> Result<Vec<(String, Option<String>)>> {
    let links = b
        .js(
            "return [...document.querySelectorAll('#board a.pt')].map((a) => [a.dataset.p, new URL(a.getAttribute('href'), location.href).searchParams.get('play')])",
            vec![],
        )
        .await?;
    Ok(serde_json::from_value(links)?)
}

/// In every game, a move the rules forbid is refused with the engine's reason, and the
/// board stays as it was: in Go a click on an occupied point; in chess and shogi a piece
/// sent where it may not go.
async fn illegal_move(b: &Browser, library: &Library) -> Result<()> {
    let ui = Ui::get(EN);
    for (game, set, problem) in move_problems(library, 1) {
        let path = problem_path(game, set, problem);
        b.open(&format!("{path}?lang=en")).await?;
        let refused = |links: Vec<(String, Option<String>)>| {
            links.into_iter().find_map(|(p, play)| {
                let play = play?;
                match problem.puzzle.attempt(&[], &[], &play) {
                    Verdict::Illegal { reason } => Some((p, play, reason)),
                    _ => None,
                }
            })
        };
        let found = if game == Game::Go {
            let occupied = b
                .js(
                    "return [...document.querySelectorAll('#board a.pt')].filter((a) => / stone/.test(a.getAttribute('aria-label'))).map((a) => a.dataset.p)",
                    vec![],
                )
                .await?;
            let occupied: Vec<String> = serde_json::from_value(occupied)?;
            let links = board_links(b).await?;
            refused(
                links
                    .into_iter()
                    .filter(|(p, _)| occupied.contains(p))
                    .collect(),
            )
        } else {
            // Pick up each piece of the side to move in turn until one has a forbidden
            // destination on the board.
            let pieces = b
                .js(
                    "return [...document.querySelectorAll('#board a.pt')].filter((a) => new URL(a.getAttribute('href'), location.href).searchParams.has('sel')).map((a) => a.dataset.p)",
                    vec![],
                )
                .await?;
            let pieces: Vec<String> = serde_json::from_value(pieces)?;
            let mut found = None;
            for piece in pieces.iter().take(20) {
                b.find(&point_css(piece)).await?.click().await?;
                wait_selected(b, piece).await?;
                found = refused(board_links(b).await?);
                if found.is_some() {
                    break;
                }
            }
            found
        };
        let Some((point, play, reason)) = found else {
            bail!("{path}: no point on the board plays a move the engine refuses");
        };
        b.find(&point_css(&point)).await?.click().await?;
        let (headline, message) = verdict(b, "illegal")
            .await
            .with_context(|| format!("{path}: {play}"))?;
        ensure!(headline == ui.illegal, "{path}: headline {headline:?}");
        ensure!(
            message == squash(reason.get(EN)),
            "{path}, {play}: message {message:?}, the engine says {:?}",
            reason.en
        );
        ensure!(
            open_points(b).await? > 0,
            "{path}: the board stopped taking clicks"
        );
        wait_moves(b, &[]).await?;
        b.same_page("an illegal move").await?;
    }
    Ok(())
}

/// The hint is hidden until its summary is clicked.
async fn hint(b: &Browser, library: &Library) -> Result<()> {
    let (game, set, problem) = library
        .shelves
        .iter()
        .flat_map(|s| content::problems(s).map(move |(set, p)| (s.game, set, p)))
        .find(|(_, _, p)| p.hint.is_some())
        .ok_or_else(|| anyhow!("no problem has a hint"))?;
    let hint = problem.hint.as_ref().expect("a hint");
    b.open(&format!("{}?lang=en", problem_path(game, set, problem)))
        .await?;
    let text = b.find("details.hint p").await?;
    ensure!(
        !text.is_displayed().await?,
        "the hint shows before it is asked for"
    );
    b.find("details.hint summary").await?.click().await?;
    b.wait_for(
        "the hint to open",
        "return document.querySelector('details.hint').open",
    )
    .await?;
    ensure!(
        text.is_displayed().await?,
        "the hint is not shown once opened"
    );
    let shown = b.text("details.hint p").await?;
    ensure!(shown == squash(hint.get(EN)), "hint {shown:?}");
    Ok(())
}

/// The accessible names of the board's squares: point → name.
async fn board_names(b: &Browser) -> Result<Vec<(String, String)>> {
    let names = b
        .js(
            "return [...document.querySelectorAll('#board a.pt')].map((a) => [a.dataset.p, a.getAttribute('aria-label')])",
            vec![],
        )
        .await?;
    Ok(serde_json::from_value(names)?)
}

/// The header's switch changes the language of the page and of the board's accessible
/// names ("D4, black stone" / "D4，黑子"; in every game, each square's name), and keeps the
/// position in the address.
async fn language_switch(b: &Browser, library: &Library) -> Result<()> {
    let (set, problem) = go_problem(library, 1)?;
    b.open(&format!("{}?lang=en", problem_path(Game::Go, set, problem)))
        .await?;
    let point = board_names(b)
        .await?
        .into_iter()
        .find(|(p, name)| *name == format!("{p}, black stone"))
        .map(|(p, _)| p)
        .ok_or_else(|| anyhow!("no point labelled \"…, black stone\""))?;
    let label = || async {
        let a = b.find(&point_css(&point)).await?;
        Ok::<_, anyhow::Error>(a.attr("aria-label").await?.unwrap_or_default())
    };
    b.follow(Locator::Css("a.lang-switch")).await?;
    let lang = b.js("return document.documentElement.lang", vec![]).await?;
    ensure!(
        lang == json!("zh-Hans"),
        "html lang after switching: {lang}"
    );
    let zh = label().await?;
    ensure!(
        zh == format!("{point}，黑子"),
        "Chinese name of {point}: {zh:?}"
    );
    let prompt = b.text(".prompt").await?;
    ensure!(
        prompt == squash(problem.prompt.get(Lang::Zh)),
        "prompt {prompt:?}"
    );
    b.follow(Locator::Css("a.lang-switch")).await?;
    let en = label().await?;
    ensure!(
        en == format!("{point}, black stone"),
        "English name of {point} after switching back: {en:?}"
    );

    // Every game: each square's name changes language with the page.
    for (game, set, problem) in any_problems(library) {
        let path = problem_path(game, set, problem);
        b.open(&format!("{path}?lang=en")).await?;
        let en = board_names(b).await?;
        b.follow(Locator::Css("a.lang-switch")).await?;
        let zh = board_names(b).await?;
        ensure!(
            en.len() == zh.len(),
            "{path}: {} points in English, {} in Chinese",
            en.len(),
            zh.len()
        );
        for ((p, en), (_, zh)) in en.iter().zip(&zh) {
            if !en.starts_with(&format!("{p}, ")) {
                continue; // a piece in hand, named by its owner
            }
            // The point keeps its name (shogi writes the rank in kanji: 9一).
            ensure!(
                zh.contains('，') && zh != en,
                "{path}: {p} is {en:?} in English and {zh:?} in Chinese"
            );
        }
        b.follow(Locator::Css("a.lang-switch")).await?;
    }

    // The moves in the address survive a switch.
    let (set, problem) = go_problem(library, 3)?;
    let line = problem.puzzle.lines().main_line();
    let path = problem_path(Game::Go, set, problem);
    b.open(&format!("{path}?m={},{}&lang=en", line[0], line[1]))
        .await?;
    wait_moves(b, &line[..2]).await?;
    b.follow(Locator::Css("a.lang-switch")).await?;
    wait_moves(b, &line[..2])
        .await
        .context("the moves in the address are lost when switching language")?;
    b.follow(Locator::Css("a.lang-switch")).await?;
    Ok(())
}

/// What the script puts in the address (a move played, a diagram stepped) survives a
/// language switch.
async fn language_switch_keeps_script_state(b: &Browser, library: &Library) -> Result<()> {
    let (set, problem) = go_problem(library, 3)?;
    let line = problem.puzzle.lines().main_line();
    b.open(&format!("{}?lang=en", problem_path(Game::Go, set, problem)))
        .await?;
    b.find(&point_css(&line[0])).await?.click().await?;
    wait_moves(b, &line[..2]).await?;
    b.follow(Locator::Css("a.lang-switch")).await?;
    wait_moves(b, &line[..2])
        .await
        .context("the moves played before switching language are lost")?;

    let shelf = library.shelf(Game::Go).expect("Go content");
    b.open(&format!("/go/lessons/{}?lang=en", shelf.lessons[0].slug))
        .await?;
    let id = b.find("figure.diagram").await?.attr("id").await?;
    let id = id.ok_or_else(|| anyhow!("the first diagram has no id"))?;
    b.js("document.querySelector('figure.diagram').focus()", vec![])
        .await?;
    b.press(Key::Right).await?;
    step_is(b, &id, 1).await?;
    b.follow(Locator::Css("a.lang-switch")).await?;
    let step = b.find(&format!("#{id}")).await?.attr("data-step").await?;
    ensure!(
        step.as_deref() == Some("1"),
        "a diagram stepped before switching language is back at step {step:?}"
    );
    Ok(())
}

/// In every game, "Show the solution" plays the written main line step by step, in the
/// game's notation, with the explanation; "Start again" goes back to the problem.
async fn show_solution(b: &Browser, library: &Library) -> Result<()> {
    let ui = Ui::get(EN);
    for (game, set, problem) in move_problems(library, 3) {
        let line = problem.puzzle.lines().main_line();
        if line.is_empty() {
            eprintln!("browser: {} has no written solution to show", game.slug());
            continue;
        }
        let path = problem_path(game, set, problem);
        let notation: Vec<String> = (0..line.len())
            .map(|i| problem.puzzle.notation(&line[..i], &line[i]))
            .collect();
        b.open(&format!("{path}?lang=en")).await?;
        ensure!(b.text("a.show-solution").await? == ui.show_solution);
        b.follow(Locator::Css("a.show-solution")).await?;
        let next = format!("{} →", ui.next_step);
        for step in 1..=line.len() {
            if step > 1 {
                b.follow(Locator::LinkText(&next)).await?;
            }
            let (headline, message) = verdict(b, "solution").await?;
            ensure!(
                headline == ui.solution_is,
                "{path}: solution headline {headline:?}"
            );
            ensure!(
                message == notation.join(" "),
                "{path}: the solution reads {message:?}, not {notation:?}"
            );
            let bold = b
                .js(
                    "return [...document.querySelectorAll('#status .message b')].map((b) => b.textContent)",
                    vec![],
                )
                .await?;
            ensure!(
                bold == json!(notation[..step]),
                "{path}: step {step} of the solution shows {bold} as played"
            );
            ensure!(
                open_points(b).await? == 0,
                "{path}: the solution's board takes clicks"
            );
        }
        let more = b.client.find_all(Locator::LinkText(&next)).await?;
        ensure!(
            more.is_empty(),
            "{path}: a next step after the last move of the solution"
        );
        if let Some(explanation) = &problem.explanation {
            let shown = b.text("#status .explanation p").await?;
            ensure!(
                shown == squash(explanation.get(EN)),
                "{path}: explanation {shown:?}"
            );
        }
        b.follow(Locator::LinkText(&ui.retry)).await?;
        verdict(b, "ready")
            .await
            .with_context(|| format!("{path}: starting again after the solution"))?;
        ensure!(
            open_points(b).await? > 0,
            "{path}: the board takes no clicks after starting again"
        );
    }
    Ok(())
}

/// A learner move of a written line that offers a choice of moves (a promotion): the
/// problem, the moves before it, and the move.
fn promotion_in_lines(library: &Library, game: Game) -> Option<(&ProblemSet, &Problem, usize)> {
    content::problems(library.shelf(game)?).find_map(|(set, problem)| {
        let line = problem.puzzle.lines().main_line();
        (0..line.len()).step_by(2).find_map(|i| {
            let (from, to) = clicks(game, &line[i]);
            let offered = problem.puzzle.choices(&line[..i], from?, to).len();
            (offered > 1).then_some((set, problem, i))
        })
    })
}

/// Choosing a promotion is done in place like every other move: the page is not reloaded,
/// the address holds the moves, and the keyboard focus stays on the board or what comes next.
async fn promotion_in_place(b: &Browser, library: &Library) -> Result<()> {
    for game in [Game::Chess, Game::Shogi] {
        let Some((set, problem, i)) = promotion_in_lines(library, game) else {
            continue;
        };
        let line = problem.puzzle.lines().main_line();
        let path = problem_path(game, set, problem);
        let (from, to) = clicks(game, &line[i]);
        let query = if i == 0 {
            String::new()
        } else {
            format!("m={}&", line[..i].join(","))
        };
        b.open(&format!("{path}?{query}lang=en")).await?;
        let from = from.expect("a piece moves");
        b.find(&point_css(from)).await?.click().await?;
        // The board is drawn anew once the piece is picked up: wait for it.
        wait_selected(b, from).await?;
        b.find(&point_css(to)).await?.click().await?;
        let reloaded = choose_if_offered(b, &line[i], true).await?;
        ensure!(!reloaded, "{path}: choosing {} loads a new page", line[i]);
        let here = b.location().await?;
        ensure!(
            here.starts_with(&format!("{path}?m=")),
            "{path}: the address after choosing {} is {here}",
            line[i]
        );
        let focus = b
            .js(
                "return !!(document.activeElement && document.activeElement.closest('#board, #status'))",
                vec![],
            )
            .await?;
        ensure!(
            focus == json!(true),
            "{path}: the focus is lost after choosing"
        );
    }
    Ok(())
}

/// In chess and shogi, a piece moved where it may promote offers the moves to choose from,
/// named in the page's language; the chosen one is played.
async fn promotion(b: &Browser, library: &Library) -> Result<()> {
    let ui = Ui::get(EN);
    for game in [Game::Chess, Game::Shogi] {
        let Some((set, problem, i)) = promotion_in_lines(library, game) else {
            eprintln!(
                "browser: {} has no line with a promotion to choose",
                game.slug()
            );
            continue;
        };
        let line = problem.puzzle.lines().main_line();
        let path = problem_path(game, set, problem);
        let (from, to) = clicks(game, &line[i]);
        let from = from.expect("a piece moves");
        let before = &line[..i];
        let Verdict::Correct { moves: after, .. } = problem.puzzle.attempt(before, &[], &line[i])
        else {
            bail!("{path}: the engine refuses {} after {before:?}", line[i]);
        };
        let query = if before.is_empty() {
            String::new()
        } else {
            format!("m={}&", before.join(","))
        };
        b.open(&format!("{path}?{query}lang=en")).await?;
        wait_moves(b, before).await?;
        b.find(&point_css(from)).await?.click().await?;
        wait_selected(b, from).await?;
        b.find(&point_css(to)).await?.click().await?;
        b.find("#status .choices a").await?;
        let (headline, _) = verdict(b, "ready").await?;
        let expected = if game == Game::Shogi {
            &ui.choose_promotion_shogi
        } else {
            &ui.choose_promotion
        };
        ensure!(
            &headline == expected,
            "{path}: the choice is announced as {headline:?}"
        );
        let offered = b
            .js(
                "return [...document.querySelectorAll('#status .choices a')].map((a) => [a.textContent.trim(), new URL(a.href).searchParams.get('play')])",
                vec![],
            )
            .await?;
        let expected: Vec<(String, String)> = problem
            .puzzle
            .choices(before, from, to)
            .into_iter()
            .map(|(label, mv)| (label.get(EN).to_string(), mv))
            .collect();
        ensure!(
            offered == json!(expected),
            "{path}: offered {offered}, the engine has {expected:?}"
        );
        choose_if_offered(b, &line[i], false).await?;
        wait_moves(b, &after).await?;
        eprintln!("browser: promoted with {} on {path}", line[i]);
    }
    Ok(())
}

/// The review list of the game page: the addresses of its links.
async fn review_list(b: &Browser) -> Result<Value> {
    b.wait_for(
        "the review list",
        "const r = document.querySelector('#review:not([hidden])'); return r && [...r.querySelectorAll('a')].map((a) => a.getAttribute('href'))",
    )
    .await
}

/// Progress is kept in the browser: a solved problem and a failed one show on the set page,
/// the game page and the home page, after a reload too; one button clears it all.
async fn progress_kept(b: &Browser, library: &Library) -> Result<()> {
    let ui = Ui::get(EN);
    let (set, problem) = go_problem(library, 1)?;
    let path = problem_path(Game::Go, set, problem);
    b.open(&format!("{path}?lang=en")).await?;
    b.js("localStorage.clear()", vec![]).await?;
    b.open(&format!("{path}?lang=en")).await?;
    let key = b.find(".problem").await?.attr("data-key").await?;
    let key = key.ok_or_else(|| anyhow!("the problem has no data-key"))?;
    click_solution(b, Game::Go, problem).await?;
    verdict(b, "solved").await?;

    let set_path = format!("/go/problems/{}?lang=en", set.slug);
    let solved_label = fill(
        &ui.progress_solved,
        &[("n", "1"), ("total", &set.problems.len().to_string())],
    );
    for reload in [false, true] {
        if reload {
            b.reload().await?;
        } else {
            b.open(&set_path).await?;
        }
        b.wait_for_with(
            &format!("{key} marked solved on the set page"),
            "const li = document.querySelector(`li[data-key=\"${arguments[0]}\"]`); return !!li && li.classList.contains('solved')",
            vec![json!(key)],
        )
        .await?;
        let shown = b.text(".progress:not([hidden])").await?;
        ensure!(
            shown == solved_label,
            "set progress {shown:?}, not {solved_label:?}"
        );
    }

    b.open("/?lang=en").await?;
    let href = b
        .find("#continue:not([hidden]) a")
        .await?
        .attr("href")
        .await?;
    ensure!(
        href.as_deref() == Some(path.as_str()),
        "continue goes to {href:?}"
    );

    let (set, problem, point, _) =
        wrong_move(library, Game::Go).ok_or_else(|| anyhow!("no Go problem has a wrong line"))?;
    let wrong_path = problem_path(Game::Go, set, problem);
    b.open(&format!("{wrong_path}?lang=en")).await?;
    click_move(b, Game::Go, &point).await?;
    verdict(b, "wrong").await?;
    b.open("/go?lang=en").await?;
    let review = review_list(b).await?;
    ensure!(
        review == json!([wrong_path]),
        "the list of problems to review is {review}"
    );
    b.reload().await?;
    let review = review_list(b).await?;
    ensure!(review == json!([wrong_path]), "after a reload: {review}");

    b.check_errors().await?;
    b.find("button.clear-progress").await?.click().await?;
    let asked = b.client.get_alert_text().await?;
    ensure!(asked == ui.clear_confirm, "clearing asks {asked:?}");
    b.client.accept_alert().await?;
    b.after_reload().await?;
    let review = b.text("#review:not([hidden]) ul").await?;
    ensure!(
        review == ui.no_failed,
        "after clearing, the review list says {review:?}"
    );
    let stored = b
        .js("return localStorage.getItem('qiyuan:progress')", vec![])
        .await?;
    ensure!(stored.is_null(), "progress left after clearing: {stored}");
    Ok(())
}

/// The focused board point: its name, centre and `tabindex`; null when the focus is
/// elsewhere.
async fn focused_point(b: &Browser) -> Result<Value> {
    b.js(
        r##"const a = document.activeElement; if (!a || !a.closest("#board a.pt")) return null;
const r = a.getBoundingClientRect();
return { p: a.dataset.p, x: r.left + r.width / 2, y: r.top + r.height / 2, tab: a.getAttribute("tabindex") };"##,
        vec![],
    )
    .await
}

/// Moves the board's focus to `point` with the arrow keys: along the longer way first, the
/// other way when the focus does not move.
async fn arrows_to(b: &Browser, point: &str) -> Result<()> {
    b.find(&point_css(point)).await?;
    for _ in 0..40 {
        let here = focused_point(b).await?;
        ensure!(!here.is_null(), "the board lost the focus");
        if here["p"] == point {
            return Ok(());
        }
        // Both in the viewport's coordinates, read afresh: moving the focus may scroll.
        let target = b
            .js(
                "const r = document.querySelector(arguments[0]).getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2]",
                vec![json!(point_css(point))],
            )
            .await?;
        let dx = target[0].as_f64().unwrap_or(0.0) - here["x"].as_f64().unwrap_or(0.0);
        let dy = target[1].as_f64().unwrap_or(0.0) - here["y"].as_f64().unwrap_or(0.0);
        let horizontal = (dx.abs() > 1.0).then_some(if dx > 0.0 { Key::Right } else { Key::Left });
        let vertical = (dy.abs() > 1.0).then_some(if dy > 0.0 { Key::Down } else { Key::Up });
        let keys = if dx.abs() > dy.abs() {
            [horizontal, vertical]
        } else {
            [vertical, horizontal]
        };
        let mut moved = false;
        for key in keys.into_iter().flatten() {
            b.press(key).await?;
            if focused_point(b).await?["p"] != here["p"] {
                moved = true;
                break;
            }
        }
        ensure!(
            moved,
            "the arrow keys cannot reach {point}: from {} no arrow towards it moves the focus",
            here["p"]
        );
    }
    bail!("the arrow keys never reach {point}")
}

/// In every game, the board from the keyboard alone: Tab reaches its one tab stop, the
/// arrows move between points on the screen, Enter picks up a piece and plays; once solved,
/// the focus goes to what comes next.
async fn keyboard_board(b: &Browser, library: &Library) -> Result<()> {
    for (game, set, problem) in move_problems(library, 1) {
        let path = problem_path(game, set, problem);
        let steps = solution(game, problem).map_err(|e| anyhow!("{e}"))?;
        b.open(&format!("{path}?lang=en")).await?;
        let stops = b
            .js(
                "return document.querySelectorAll('#board a.pt[tabindex=\"0\"]').length",
                vec![],
            )
            .await?;
        ensure!(stops == json!(1), "{path}: {stops} tab stops on the board");
        for _ in 0..40 {
            if !focused_point(b).await?.is_null() {
                break;
            }
            b.press(Key::Tab).await?;
        }
        let start = focused_point(b).await?;
        ensure!(!start.is_null(), "{path}: Tab never reaches the board");
        ensure!(
            start["tab"] == "0",
            "{path}: Tab lands on a point that is not the tab stop"
        );

        for (key, name, back) in [(Key::Right, "right", Key::Left), (Key::Up, "up", Key::Down)] {
            let from = focused_point(b).await?;
            b.press(key).await?;
            let to = focused_point(b).await?;
            let dx = to["x"].as_f64().unwrap_or(0.0) - from["x"].as_f64().unwrap_or(0.0);
            let dy = to["y"].as_f64().unwrap_or(0.0) - from["y"].as_f64().unwrap_or(0.0);
            let ok = match name {
                "right" => dx > 1.0 && dy.abs() < 1.0,
                _ => dy < -1.0 && dx.abs() < 1.0,
            };
            ensure!(ok, "{path}: {name} moved the focus from {from} to {to}");
            ensure!(
                to["tab"] == "0",
                "{path}: the focused point is not the tab stop"
            );
            b.press(back).await?;
            ensure!(
                focused_point(b).await?["p"] == from["p"],
                "{path}: the way back after {name}"
            );
        }

        let mut reloaded = false;
        for step in &steps {
            let (from, to) = clicks(game, &step.play);
            if let Some(from) = from {
                arrows_to(b, from).await?;
                b.press(Key::Enter).await?;
                wait_selected(b, from)
                    .await
                    .with_context(|| format!("{path}: Enter on {from}"))?;
            }
            arrows_to(b, to).await?;
            b.press(Key::Enter).await?;
            reloaded = from.is_some() && choose_if_offered(b, &step.play, true).await?;
            wait_moves(b, &step.after)
                .await
                .with_context(|| format!("{path}: Enter on {to}"))?;
            b.same_page("Enter on the board").await?;
        }
        verdict(b, "solved").await?;
        if reloaded {
            // A promotion was chosen from the status, not the board: where the focus goes
            // then is checked by `language_switch_and_promotion_choice_stay_in_place`.
            continue;
        }
        let on_action = b
            .js(
                "return !!(document.activeElement && document.activeElement.closest('#status a'))",
                vec![],
            )
            .await?;
        ensure!(
            on_action == json!(true),
            "{path}: once solved, the focus is not on a next step"
        );
    }
    Ok(())
}

/// The trainer with the built-in content, chromedriver, and a browser session on it.
async fn start() -> (Driver, Browser, Arc<Library>, Instant) {
    let started = Instant::now();
    let state = AppState::embedded();
    let library = state.snapshot().library;
    let base = start_trainer(state).await.expect("the trainer starts");
    let driver = Driver::start().await.unwrap_or_else(|e| panic!("{e:#}"));
    let browser = driver
        .session(&base)
        .await
        .unwrap_or_else(|e| panic!("{e:#}"));
    eprintln!("browser: Chromium ready in {:.1?}", started.elapsed());
    for shelf in &library.shelves {
        let moves =
            move_problem(&library, shelf.game, 1).map(|(s, p)| problem_path(shelf.game, s, p));
        eprintln!(
            "browser: {}: {} lessons, {} sets; a problem answered by moves: {}",
            shelf.game.slug(),
            shelf.lessons.len(),
            shelf.sets.len(),
            moves.as_deref().unwrap_or("none")
        );
    }
    (driver, browser, library, started)
}

/// Ends the session, stops chromedriver, and fails with every failed scenario.
async fn finish(browser: Browser, driver: Driver, failures: Vec<String>, started: Instant) {
    let closed = browser.close().await;
    drop(driver);
    eprintln!("browser: all in {:.1?}", started.elapsed());
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    closed.expect("the browser session closes");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_trainer_in_headless_chromium() {
    let (driver, browser, library, started) = start().await;
    let (b, lib) = (&browser, &*library);
    let mut runner = Runner {
        browser: b,
        failures: Vec::new(),
    };
    runner.run("lesson keyboard", lesson_keyboard(b, lib)).await;
    runner
        .run("solve by clicking", solve_by_clicking(b, lib))
        .await;
    runner
        .run("count by the form", count_by_the_form(b, lib))
        .await;
    runner.run("wrong move", wrong_then_take_back(b, lib)).await;
    runner.run("illegal move", illegal_move(b, lib)).await;
    runner.run("hint", hint(b, lib)).await;
    runner.run("promotion", promotion(b, lib)).await;
    runner.run("show solution", show_solution(b, lib)).await;
    runner.run("language switch", language_switch(b, lib)).await;
    runner.run("keyboard board", keyboard_board(b, lib)).await;
    runner.run("progress", progress_kept(b, lib)).await;
    let failures = runner.failures;
    finish(browser, driver, failures, started).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_page_fits_a_phone_and_a_laptop() {
    let (driver, browser, library, started) = start().await;
    let mut runner = Runner {
        browser: &browser,
        failures: Vec::new(),
    };
    runner.run("layout", layout(&browser, &library)).await;
    let failures = runner.failures;
    finish(browser, driver, failures, started).await;
}

/// Two things the script must do that plain links cannot:
/// - the header's language switch keeps what the script added to the address since the page
///   loaded (moves played, diagram steps);
/// - a promotion choice is judged in place: no reload, the address says `?m=`, and switching
///   language keeps the move.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn language_switch_and_promotion_choice_stay_in_place() {
    let (driver, browser, library, started) = start().await;
    let mut runner = Runner {
        browser: &browser,
        failures: Vec::new(),
    };
    runner
        .run(
            "language switch after the script",
            language_switch_keeps_script_state(&browser, &library),
        )
        .await;
    runner
        .run("promotion in place", promotion_in_place(&browser, &library))
        .await;
    let failures = runner.failures;
    finish(browser, driver, failures, started).await;
}
