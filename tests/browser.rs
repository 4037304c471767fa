//! The trainer in a real browser: headless Chromium driven through chromedriver (WebDriver).
//!
//! One browser session runs every scenario in turn: step a lesson diagram with the keyboard;
//! solve a puzzle by clicking; a wrong move with its refutation, then take it back; an illegal
//! move and the rule it breaks; a hint; the solution step by step; the language switch and the
//! board's accessible names; the board from the keyboard alone; progress kept in the browser
//! across reloads, and cleared; nothing scrolls sideways at 360×740 and 1280×800, with
//! screenshots under `target/screenshots/`. Any JavaScript error on any page fails the test.
//! Answers and texts come from the content library and the interface strings, not from this
//! file.
//!
//! Needs Debian's `chromium` and `chromium-driver` (`scripts/test.sh` installs them); fails
//! when they are missing. `cargo test --test browser -- --nocapture` shows each scenario's
//! time; a failed scenario leaves `target/screenshots/failed-….png`.

#[path = "browser/harness.rs"]
mod harness;

use anyhow::{anyhow, ensure, Context, Result};
use fantoccini::key::Key;
use fantoccini::Locator;
use harness::{squash, start_trainer, Browser, Driver};
use qiyuan::content::{Game, Library, Problem, ProblemSet, Step, Verdict, WrongMove};
use qiyuan::lang::Lang;
use qiyuan::web::i18n::{fill, Ui};
use qiyuan::web::AppState;
use serde_json::{json, Value};
use std::future::Future;
use std::sync::Arc;
use std::time::Instant;

const EN: Lang = Lang::En;

/// The names of the points of the largest Go board, `A1` to `T19` (no `I`).
fn go_points() -> Vec<String> {
    "ABCDEFGHJKLMNOPQRST"
        .chars()
        .flat_map(|c| (1..=19).map(move |n| format!("{c}{n}")))
        .collect()
}

fn go_sets(library: &Library) -> &[ProblemSet] {
    &library
        .shelf(Game::Go)
        .expect("the built-in content has Go problems")
        .sets
}

fn problem_path(game: Game, set: &ProblemSet, problem: &Problem) -> String {
    format!("/{}/problems/{}/{}", game.slug(), set.slug, problem.id)
}

/// A Go problem answered by moves (not a "click every point" question) whose main line
/// has at least `moves` moves; `captures/1` when it fits.
fn go_problem(library: &Library, moves: usize) -> (&ProblemSet, &Problem) {
    let fits = |p: &Problem| {
        p.puzzle.select_total().is_none() && p.puzzle.lines().main_line().len() >= moves
    };
    let sets = go_sets(library);
    sets.iter()
        .filter(|s| s.slug == "captures")
        .flat_map(|s| {
            s.problems
                .iter()
                .filter(|p| p.id == "1")
                .map(move |p| (s, p))
        })
        .chain(
            sets.iter()
                .flat_map(|s| s.problems.iter().map(move |p| (s, p))),
        )
        .find(|(_, p)| fits(p))
        .unwrap_or_else(|| panic!("no Go problem with a main line of {moves} moves"))
}

/// A Go problem with a wrong first move written by its author.
fn go_wrong_move(library: &Library) -> (&ProblemSet, &Problem, String, &WrongMove) {
    for set in go_sets(library) {
        for problem in &set.problems {
            for point in go_points() {
                if let Step::Wrong(wrong) = problem.puzzle.lines().step(&[], &point) {
                    return (set, problem, point, wrong);
                }
            }
        }
    }
    panic!("no Go problem has a [[problem.wrong]] line")
}

/// `#board a.pt[data-p="…"]`.
fn point_css(point: &str) -> String {
    format!("#board a.pt[data-p=\"{point}\"]")
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

/// Home, a lesson and a problem (before and after a move) at a phone's and a laptop's size,
/// in both languages: nothing scrolls sideways; a screenshot of each.
async fn layout(b: &Browser, library: &Library) -> Result<()> {
    let shelf = library.shelf(Game::Go).expect("Go content");
    let lesson = &shelf.lessons[0];
    let (set, problem) = go_problem(library, 1);
    let first = problem.puzzle.lines().main_line()[0].clone();
    let problem_path = problem_path(Game::Go, set, problem);
    for (width, height) in [(360, 740), (1280, 800)] {
        b.viewport(width, height).await?;
        for lang in Lang::ALL {
            let pages = [
                ("home", "/".to_string()),
                ("lesson", format!("/go/lessons/{}", lesson.slug)),
                ("problem", problem_path.clone()),
            ];
            for (name, path) in pages {
                let path = format!("{path}?lang={lang}");
                b.open(&path).await?;
                no_sideways_scroll(b, &format!("{path} at {width}×{height}")).await?;
                b.screenshot(&format!("{width}x{height}-{lang}-{name}"))
                    .await?;
            }
            b.find(&point_css(&first)).await?.click().await?;
            b.find("#status .verdict:not(.ready)").await?;
            b.js("window.scrollTo(0, 0)", vec![]).await?;
            no_sideways_scroll(
                b,
                &format!("{problem_path} after a move at {width}×{height}"),
            )
            .await?;
            b.screenshot(&format!("{width}x{height}-{lang}-problem-after-move"))
                .await?;
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

/// A lesson diagram steps with → and ← when focused; the address follows.
async fn lesson_keyboard(b: &Browser, library: &Library) -> Result<()> {
    let shelf = library.shelf(Game::Go).expect("Go content");
    let lesson = shelf
        .lessons
        .iter()
        .find(|l| l.en.diagrams.first().is_some_and(|d| d.frames.len() >= 3))
        .ok_or_else(|| anyhow!("no Go lesson whose first diagram has two steps"))?;
    let diagram = &lesson.en.diagrams[0];
    let total = diagram.frames.len() - 1;
    let ui = Ui::get(EN);
    let path = format!("/go/lessons/{}", lesson.slug);
    b.open(&format!("{path}?lang=en")).await?;
    let id = b.find("figure.diagram").await?.attr("id").await?;
    let id = id.ok_or_else(|| anyhow!("the first diagram has no id"))?;
    let count = format!("#{id} .count");
    ensure!(
        b.text(&count).await? == ui.start_position,
        "step counter at start"
    );
    let focused = b
        .js(
            "const f = document.querySelector('figure.diagram'); f.focus(); return document.activeElement === f",
            vec![],
        )
        .await?;
    ensure!(
        focused == json!(true),
        "the first diagram cannot take focus"
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
        .context("→ on the focused diagram")?;
    ensure!(b.text(&count).await? == label(1), "step counter after →");
    if let Some(say) = &diagram.frames[1].say {
        let shown = b.text(&format!("#{id} .say")).await?;
        ensure!(shown == squash(say), "step 1 says {shown:?}, not {say:?}");
    }
    let here = b.location().await?;
    ensure!(
        here.starts_with(&format!("{path}?s=1")),
        "address after →: {here}"
    );
    b.press(Key::Right).await?;
    step_is(b, &id, 2).await.context("a second →")?;
    ensure!(b.text(&count).await? == label(2), "step counter after → →");
    b.press(Key::Left).await?;
    step_is(b, &id, 1).await.context("←")?;
    ensure!(b.text(&count).await? == label(1), "step counter after ←");
    let here = b.location().await?;
    ensure!(
        here.starts_with(&format!("{path}?s=1")),
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
    Ok(())
}

/// Plays `problem`'s main line by clicking each of the learner's moves.
async fn click_main_line(b: &Browser, problem: &Problem) -> Result<()> {
    let line = problem.puzzle.lines().main_line();
    for i in (0..line.len()).step_by(2) {
        b.find(&point_css(&line[i]))
            .await
            .with_context(|| format!("move {} ({}) of the main line", i + 1, line[i]))?
            .click()
            .await?;
        wait_moves(b, &line[..(i + 2).min(line.len())]).await?;
        b.same_page("a click on the board").await?;
    }
    Ok(())
}

/// Solves a Go problem by clicking its main line.
async fn solve_by_clicking(b: &Browser, library: &Library) -> Result<()> {
    let (set, problem) = go_problem(library, 1);
    let ui = Ui::get(EN);
    let path = problem_path(Game::Go, set, problem);
    b.open(&format!("{path}?lang=en")).await?;
    let (headline, _) = verdict(b, "ready").await?;
    ensure!(headline == ui.your_move, "before a move: {headline:?}");
    click_main_line(b, problem).await?;
    let (headline, _) = verdict(b, "solved").await?;
    ensure!(headline == ui.solved, "solved headline: {headline:?}");
    if let Some(explanation) = &problem.explanation {
        let shown = b.text("#status .explanation p").await?;
        ensure!(
            shown == squash(explanation.get(EN)),
            "explanation: {shown:?}"
        );
    }
    ensure!(
        open_points(b).await? == 0,
        "a solved board still takes clicks"
    );
    let here = b.location().await?;
    ensure!(
        here.starts_with(&format!("{path}?m=")),
        "address once solved: {here}"
    );
    b.same_page("solving by clicking").await
}

/// A wrong move is played out with its refutation and explanation, then taken back.
async fn wrong_then_take_back(b: &Browser, library: &Library) -> Result<()> {
    let (set, problem, point, wrong) = go_wrong_move(library);
    ensure!(
        matches!(
            problem.puzzle.attempt(&[], &[], &point),
            Verdict::Wrong { .. }
        ),
        "the engine does not call {point} wrong"
    );
    let ui = Ui::get(EN);
    let path = problem_path(Game::Go, set, problem);
    b.open(&format!("{path}?lang=en")).await?;
    b.find(&point_css(&point)).await?.click().await?;
    let (headline, message) = verdict(b, "wrong").await?;
    ensure!(headline == ui.wrong, "wrong headline: {headline:?}");
    ensure!(
        message.contains(&squash(wrong.why.get(EN))),
        "{path}, {point}: the message {message:?} lacks the author's explanation {:?}",
        wrong.why.en
    );
    if let Some(reply) = wrong.refutation.first() {
        let refuted = fill(&ui.wrong_refuted, &[("move", reply)]);
        ensure!(
            message.contains(&refuted),
            "message {message:?} lacks {refuted:?}"
        );
    }
    b.same_page("a wrong move").await?;
    b.follow(Locator::LinkText(&ui.take_back)).await?;
    verdict(b, "ready").await.context("after taking back")?;
    b.find(&point_css(&point))
        .await
        .context("the point is free again after taking back")?;
    wait_moves(b, &[]).await
}

/// A click on an occupied point is refused with the engine's reason; the board stays open.
async fn illegal_move(b: &Browser, library: &Library) -> Result<()> {
    let (set, problem) = go_problem(library, 1);
    let ui = Ui::get(EN);
    b.open(&format!("{}?lang=en", problem_path(Game::Go, set, problem)))
        .await?;
    let occupied = b
        .js(
            "return [...document.querySelectorAll('#board a.pt')].filter((a) => / stone/.test(a.getAttribute('aria-label'))).map((a) => a.dataset.p)",
            vec![],
        )
        .await?;
    let occupied: Vec<String> = serde_json::from_value(occupied)?;
    let (point, reason) = occupied
        .iter()
        .find_map(|p| match problem.puzzle.attempt(&[], &[], p) {
            Verdict::Illegal { reason } => Some((p.clone(), reason)),
            _ => None,
        })
        .ok_or_else(|| anyhow!("no occupied point the engine refuses: {occupied:?}"))?;
    b.find(&point_css(&point)).await?.click().await?;
    let (headline, message) = verdict(b, "illegal").await?;
    ensure!(headline == ui.illegal, "illegal headline: {headline:?}");
    ensure!(
        message == squash(reason.get(EN)),
        "{point}: message {message:?}, the engine says {:?}",
        reason.en
    );
    ensure!(open_points(b).await? > 0, "the board stopped taking clicks");
    wait_moves(b, &[]).await?;
    b.same_page("an illegal move").await
}

/// The hint is hidden until its summary is clicked.
async fn hint(b: &Browser, library: &Library) -> Result<()> {
    let (set, problem) = go_sets(library)
        .iter()
        .flat_map(|s| s.problems.iter().map(move |p| (s, p)))
        .find(|(_, p)| p.hint.is_some())
        .ok_or_else(|| anyhow!("no Go problem has a hint"))?;
    let hint = problem.hint.as_ref().expect("a hint");
    b.open(&format!("{}?lang=en", problem_path(Game::Go, set, problem)))
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

/// The switch in the header changes the language of the page and of the board's accessible
/// names, and keeps the learner's progress.
async fn language_switch(b: &Browser, library: &Library) -> Result<()> {
    let (set, problem) = go_problem(library, 1);
    b.open(&format!("{}?lang=en", problem_path(Game::Go, set, problem)))
        .await?;
    let black = b
        .js(
            "const a = [...document.querySelectorAll('#board a.pt')].find((a) => /, black stone$/.test(a.getAttribute('aria-label'))); return a ? a.dataset.p : null",
            vec![],
        )
        .await?;
    let point = black
        .as_str()
        .ok_or_else(|| anyhow!("no point labelled \"…, black stone\""))?
        .to_string();
    let label = || async {
        let a = b.find(&point_css(&point)).await?;
        Ok::<_, anyhow::Error>(a.attr("aria-label").await?.unwrap_or_default())
    };
    ensure!(label().await? == format!("{point}, black stone"));

    b.follow(Locator::Css("a.lang-switch")).await?;
    let lang = b.js("return document.documentElement.lang", vec![]).await?;
    ensure!(
        lang == json!("zh-Hans"),
        "html lang after switching: {lang}"
    );
    ensure!(
        label().await? == format!("{point}，黑子"),
        "Chinese name of {point}: {:?}",
        label().await?
    );
    let prompt = b.text(".prompt").await?;
    ensure!(
        prompt == squash(problem.prompt.get(Lang::Zh)),
        "prompt {prompt:?}"
    );

    b.follow(Locator::Css("a.lang-switch")).await?;
    ensure!(
        label().await? == format!("{point}, black stone"),
        "English name of {point} after switching back: {:?}",
        label().await?
    );

    // Progress in the address survives a switch.
    let (set, problem) = go_problem(library, 3);
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
    let (set, problem) = go_problem(library, 3);
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

/// "Show the solution" plays the main line step by step, with the explanation.
async fn show_solution(b: &Browser, library: &Library) -> Result<()> {
    let (set, problem) = go_problem(library, 3);
    let line = problem.puzzle.lines().main_line();
    let ui = Ui::get(EN);
    b.open(&format!("{}?lang=en", problem_path(Game::Go, set, problem)))
        .await?;
    ensure!(b.text("a.show-solution").await? == ui.show_solution);
    b.follow(Locator::Css("a.show-solution")).await?;
    let next = format!("{} →", ui.next_step);
    for step in 1..=line.len() {
        if step > 1 {
            b.follow(Locator::LinkText(&next)).await?;
        }
        let (headline, message) = verdict(b, "solution").await?;
        ensure!(headline == ui.solution_is, "solution headline {headline:?}");
        ensure!(message == line.join(" "), "the solution reads {message:?}");
        let bold = b
            .js(
                "return [...document.querySelectorAll('#status .message b')].map((b) => b.textContent)",
                vec![],
            )
            .await?;
        ensure!(
            bold == json!(line[..step]),
            "step {step} of the solution shows {bold} as played"
        );
        ensure!(
            open_points(b).await? == 0,
            "the solution's board takes clicks"
        );
    }
    let more = b.client.find_all(Locator::LinkText(&next)).await?;
    ensure!(
        more.is_empty(),
        "a next step after the last move of the solution"
    );
    if let Some(explanation) = &problem.explanation {
        let shown = b.text("#status .explanation p").await?;
        ensure!(
            shown == squash(explanation.get(EN)),
            "explanation: {shown:?}"
        );
    }
    b.follow(Locator::LinkText(&ui.retry)).await?;
    verdict(b, "ready")
        .await
        .context("starting again after the solution")?;
    ensure!(
        open_points(b).await? > 0,
        "the board takes no clicks after starting again"
    );
    Ok(())
}

/// Progress is kept in the browser: a solved problem and a failed one show on the set page,
/// the game page and the home page, after a reload too; one button clears it all.
async fn progress_kept(b: &Browser, library: &Library) -> Result<()> {
    let ui = Ui::get(EN);
    let (set, problem) = go_problem(library, 1);
    let path = problem_path(Game::Go, set, problem);
    b.open(&format!("{path}?lang=en")).await?;
    b.js("localStorage.clear()", vec![]).await?;
    b.open(&format!("{path}?lang=en")).await?;
    let key = b.find(".problem").await?.attr("data-key").await?;
    let key = key.ok_or_else(|| anyhow!("the problem has no data-key"))?;
    click_main_line(b, problem).await?;
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

    let (set, problem, point, _) = go_wrong_move(library);
    let wrong_path = problem_path(Game::Go, set, problem);
    b.open(&format!("{wrong_path}?lang=en")).await?;
    b.find(&point_css(&point)).await?.click().await?;
    verdict(b, "wrong").await?;
    b.open("/go?lang=en").await?;
    let review = b
        .wait_for(
            "the review list",
            "const r = document.querySelector('#review:not([hidden])'); return r && [...r.querySelectorAll('a')].map((a) => a.getAttribute('href'))",
        )
        .await?;
    ensure!(
        review == json!([wrong_path]),
        "the list of problems to review is {review}"
    );
    b.reload().await?;
    let review = b
        .wait_for(
            "the review list after a reload",
            "const r = document.querySelector('#review:not([hidden])'); return r && [...r.querySelectorAll('a')].map((a) => a.getAttribute('href'))",
        )
        .await?;
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

/// The board from the keyboard alone: one tab stop, arrows move, Enter plays.
async fn keyboard_board(b: &Browser, library: &Library) -> Result<()> {
    let (set, problem) = go_problem(library, 1);
    let line = problem.puzzle.lines().main_line();
    b.open(&format!("{}?lang=en", problem_path(Game::Go, set, problem)))
        .await?;
    let stops = b
        .js(
            "return document.querySelectorAll('#board a.pt[tabindex=\"0\"]').length",
            vec![],
        )
        .await?;
    ensure!(stops == json!(1), "{stops} tab stops on the board, not 1");
    let focused = || async {
        let v = b
            .js(
                r##"const a = document.activeElement; if (!a || !a.closest("#board a.pt")) return null;
const r = a.getBoundingClientRect();
return { p: a.dataset.p, x: r.left + r.width / 2, y: r.top + r.height / 2, tab: a.getAttribute("tabindex") };"##,
                vec![],
            )
            .await?;
        Ok::<Value, anyhow::Error>(v)
    };
    for _ in 0..40 {
        if !focused().await?.is_null() {
            break;
        }
        b.press(Key::Tab).await?;
    }
    let start = focused().await?;
    ensure!(!start.is_null(), "Tab never reaches the board");
    ensure!(
        start["tab"] == "0",
        "Tab lands on a point that is not the tab stop"
    );

    let moved = |from: &Value, key: &str, to: &Value| -> Result<()> {
        let dx = to["x"].as_f64().unwrap_or(0.0) - from["x"].as_f64().unwrap_or(0.0);
        let dy = to["y"].as_f64().unwrap_or(0.0) - from["y"].as_f64().unwrap_or(0.0);
        let ok = match key {
            "right" => dx > 1.0 && dy.abs() < 1.0,
            "left" => dx < -1.0 && dy.abs() < 1.0,
            "up" => dy < -1.0 && dx.abs() < 1.0,
            _ => dy > 1.0 && dx.abs() < 1.0,
        };
        ensure!(ok, "{key} moved the focus from {from} to {to}");
        ensure!(
            to["tab"] == "0",
            "the focused point is not the tab stop: {to}"
        );
        Ok(())
    };
    for (key, name, back) in [(Key::Right, "right", Key::Left), (Key::Up, "up", Key::Down)] {
        let from = focused().await?;
        b.press(key).await?;
        let to = focused().await?;
        moved(&from, name, &to)?;
        b.press(back).await?;
        ensure!(
            focused().await?["p"] == from["p"],
            "the way back after {name}"
        );
    }

    for i in (0..line.len()).step_by(2) {
        let target = b.find(&point_css(&line[i])).await?;
        let (tx, ty, tw, th) = target.rectangle().await?;
        let (tx, ty) = (tx + tw / 2.0, ty + th / 2.0);
        for _ in 0..40 {
            let here = focused().await?;
            ensure!(!here.is_null(), "the board lost the focus");
            if here["p"] == line[i].as_str() {
                break;
            }
            let dx = tx - here["x"].as_f64().unwrap_or(0.0);
            let dy = ty - here["y"].as_f64().unwrap_or(0.0);
            let key = if dx.abs() > dy.abs() {
                if dx > 0.0 {
                    Key::Right
                } else {
                    Key::Left
                }
            } else if dy > 0.0 {
                Key::Down
            } else {
                Key::Up
            };
            b.press(key).await?;
        }
        ensure!(
            focused().await?["p"] == line[i].as_str(),
            "the arrows never reach {}",
            line[i]
        );
        b.press(Key::Enter).await?;
        wait_moves(b, &line[..(i + 2).min(line.len())]).await?;
        b.same_page("Enter on the board").await?;
    }
    verdict(b, "solved").await?;
    let on_action = b
        .js(
            "return !!(document.activeElement && document.activeElement.closest('#status a'))",
            vec![],
        )
        .await?;
    ensure!(
        on_action == json!(true),
        "once solved, the focus is not on a next step"
    );
    b.same_page("playing from the keyboard").await
}

/// Runs the scenarios one by one, timing each; a failed one leaves a screenshot.
struct Runner<'a> {
    browser: &'a Browser,
    failures: Vec<String>,
}

impl Runner<'_> {
    async fn run(&mut self, name: &str, scenario: impl Future<Output = Result<()>>) {
        let start = Instant::now();
        let mut outcome = scenario.await;
        if outcome.is_ok() {
            outcome = self.browser.check_errors().await;
        }
        let took = start.elapsed();
        match outcome {
            Ok(()) => eprintln!("browser: {name}: ok in {took:.1?}"),
            Err(e) => {
                let shot = format!("failed-{}", name.replace(' ', "-"));
                let saved = match self.browser.screenshot(&shot).await {
                    Ok(path) => format!("screenshot {}", path.display()),
                    Err(e) => format!("no screenshot: {e}"),
                };
                let errors = match self.browser.check_errors().await {
                    Ok(()) => String::new(),
                    Err(e) => format!("\n  also: {e:#}"),
                };
                eprintln!("browser: {name}: FAILED in {took:.1?}");
                self.failures
                    .push(format!("{name}: {e:#}\n  ({saved}){errors}"));
            }
        }
    }
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
    runner.run("wrong move", wrong_then_take_back(b, lib)).await;
    runner.run("illegal move", illegal_move(b, lib)).await;
    runner.run("hint", hint(b, lib)).await;
    runner.run("show solution", show_solution(b, lib)).await;
    runner.run("language switch", language_switch(b, lib)).await;
    runner.run("keyboard board", keyboard_board(b, lib)).await;
    runner.run("progress", progress_kept(b, lib)).await;
    runner.run("layout", layout(b, lib)).await;
    let failures = runner.failures;
    finish(browser, driver, failures, started).await;
}

/// A known bug, kept as a test to run with `--ignored` once fixed: the header's language
/// switch is rendered with the address the page was loaded with, so what the script added
/// since (moves played, diagram steps) is lost when the learner switches language.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "known bug: the language switch drops the moves and steps the script put in the address"]
async fn language_switch_keeps_what_the_script_did() {
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
    let failures = runner.failures;
    finish(browser, driver, failures, started).await;
}
