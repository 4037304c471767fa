//! Lesson tasks in a real browser (headless Chromium through chromedriver): a Go task done by
//! clicking, after a wrong move taken back; a chess task done by clicking a piece and then its
//! square; a "click every liberty" task done from the keyboard alone. The page never reloads,
//! the next step opens once the task is done, the progress is kept in `localStorage` and the
//! `qiyuan:task-solved` event fires; on a 360×740 screen nothing scrolls sideways. Any
//! JavaScript error fails the test.
//!
//! Needs Debian's `chromium` and `chromium-driver` (`scripts/test.sh` installs them).

#[allow(dead_code)]
#[path = "browser/harness.rs"]
mod harness;

use anyhow::{anyhow, bail, ensure, Context, Result};
use fantoccini::key::Key;
use harness::{start_trainer, Browser, Driver};
use qiyuan::content::Library;
use qiyuan::lang::Lang;
use qiyuan::web::i18n::Ui;
use qiyuan::web::AppState;
use serde_json::{json, Value};

/// A point or square of the task board of the diagram `figure`.
fn point(figure: &str, p: &str) -> String {
    format!("#{figure} .task-board a.pt[data-p=\"{p}\"]")
}

/// Listens for `qiyuan:task-solved`, keeping each event's detail in `window.__solved`.
async fn listen(b: &Browser) -> Result<()> {
    b.js(
        "window.__solved = []; document.addEventListener('qiyuan:task-solved', (e) => window.__solved.push(e.detail)); return true",
        vec![],
    )
    .await?;
    Ok(())
}

/// Waits until the diagram `figure` shows a verdict of `kind`; returns its text.
async fn verdict(b: &Browser, figure: &str, kind: &str) -> Result<String> {
    let css = format!("#{figure} .task-status .verdict.{kind}");
    b.wait_for_with(
        &format!("a {kind} verdict in {figure}"),
        "return !!document.querySelector(arguments[0])",
        vec![json!(css)],
    )
    .await?;
    b.text(&css).await
}

/// The lesson's progress as the page keeps it.
async fn stored(b: &Browser, lesson: &str) -> Result<Value> {
    b.js(
        "return (JSON.parse(localStorage.getItem('qiyuan:lessons') || '{}'))[arguments[0]] || null",
        vec![json!(lesson)],
    )
    .await
}

/// The Go capture task of `go/captures`: a wrong move, taken back; then the capture. The
/// next step opens and is followed.
async fn capture_by_clicking(b: &Browser, library: &Library) -> Result<()> {
    let ui = Ui::get(Lang::En);
    let lesson = library.shelves[0]
        .lesson("captures")
        .ok_or_else(|| anyhow!("no Go lesson `captures`"))?;
    let task = lesson.en.diagrams[0].frames[2]
        .task
        .as_ref()
        .ok_or_else(|| anyhow!("captures: diagram 1 step 2 is no task"))?;
    let right = task.puzzle.lines().main_line()[0].clone();
    let figure = "d-capture-one";
    b.open("/go/lessons/captures?s=0:2&lang=en").await?;
    listen(b).await?;
    ensure!(
        b.find(&format!("#{figure} .step.next.disabled"))
            .await
            .is_ok(),
        "the next step is closed before the task is done"
    );
    b.find(&point(figure, "A1")).await?.click().await?;
    let said = verdict(b, figure, "wrong").await?;
    ensure!(said.contains(&ui.wrong), "a wrong move says {said:?}");
    b.same_page("a wrong move").await?;
    b.find(&format!("#{figure} .task-status .actions a"))
        .await?
        .click()
        .await?;
    verdict(b, figure, "ready")
        .await
        .context("after taking back")?;
    b.find(&point(figure, &right)).await?.click().await?;
    verdict(b, figure, "solved").await?;
    b.same_page("the right move").await?;
    let say = b.text(&format!("#{figure} .say")).await?;
    let done = task
        .explanation
        .as_ref()
        .map(|e| e.en.clone())
        .unwrap_or_default();
    ensure!(say == harness::squash(&done), "the step says {say:?}");
    let events = b.js("return window.__solved", vec![]).await?;
    ensure!(
        events == json!([{ "game": "go", "lesson": "captures", "diagram": 0, "step": 2 }]),
        "qiyuan:task-solved sent {events}"
    );
    let kept = stored(b, "go/captures").await?;
    ensure!(
        kept["tasks"]["0:2"]["state"] == "solved" && kept["tasks"]["0:2"]["tries"] == 1,
        "localStorage holds {kept}"
    );
    let here = b.location().await?;
    ensure!(
        here.contains("t=0") && here.contains(&format!("m={right}")),
        "address {here}"
    );
    b.find(&format!("#{figure} a.step.next"))
        .await?
        .click()
        .await?;
    b.wait_for(
        "the next step",
        "const f = document.getElementById('d-capture-one'); return !!f && f.dataset.step === '3'",
    )
    .await?;
    b.same_page("the next step").await
}

/// The chess task "move the king out of check" of `chess/check`: the king, then a square.
async fn chess_by_clicking(b: &Browser) -> Result<()> {
    let figure = "d-move-king";
    b.open("/chess/lessons/check?s=2:1&lang=en").await?;
    listen(b).await?;
    b.find(&point(figure, "e1")).await?.click().await?;
    b.wait_for(
        "the king picked up",
        "return document.getElementById('d-move-king').dataset.selected === 'e1'",
    )
    .await?;
    b.find(&point(figure, "f1")).await?.click().await?;
    verdict(b, figure, "solved").await?;
    b.same_page("a chess task").await?;
    let events = b.js("return window.__solved.length", vec![]).await?;
    ensure!(events == json!(1), "{events} task-solved events");
    Ok(())
}

/// The focused point of a task board: its name and centre, or null.
async fn focused(b: &Browser) -> Result<Value> {
    b.js(
        r#"const a = document.activeElement; if (!a || !a.closest(".task-board a.pt")) return null;
const r = a.getBoundingClientRect(); return { p: a.dataset.p, x: r.left + r.width / 2, y: r.top + r.height / 2 };"#,
        vec![],
    )
    .await
}

/// Moves the focus on the task board to `target` with the arrow keys.
async fn walk_to(b: &Browser, figure: &str, target: &str) -> Result<()> {
    for _ in 0..30 {
        let here = focused(b).await?;
        ensure!(!here.is_null(), "the task board lost the focus");
        if here["p"] == target {
            return Ok(());
        }
        let there = b
            .js(
                "const r = document.querySelector(arguments[0]).getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2]",
                vec![json!(point(figure, target))],
            )
            .await?;
        let dx = there[0].as_f64().unwrap_or(0.0) - here["x"].as_f64().unwrap_or(0.0);
        let dy = there[1].as_f64().unwrap_or(0.0) - here["y"].as_f64().unwrap_or(0.0);
        let key = match (dx.abs() > dy.abs(), dx > 0.0, dy > 0.0) {
            (true, true, _) => Key::Right,
            (true, false, _) => Key::Left,
            (false, _, true) => Key::Down,
            (false, _, false) => Key::Up,
        };
        b.press(key).await?;
    }
    bail!("the arrow keys never reach {target}")
}

/// The "click every liberty" task of `go/liberties` from the keyboard: Tab onto the board,
/// the arrows to each liberty, Enter on each.
async fn liberties_by_keyboard(b: &Browser, library: &Library) -> Result<()> {
    let lesson = library.shelves[0]
        .lesson("liberties")
        .ok_or_else(|| anyhow!("no Go lesson `liberties`"))?;
    let task = lesson.en.diagrams[0].frames[1]
        .task
        .as_ref()
        .ok_or_else(|| anyhow!("liberties: diagram 1 step 1 is no task"))?;
    let answer = task.puzzle.answer();
    ensure!(
        answer.len() == 4,
        "a lone stone in the centre has 4 liberties, not {answer:?}"
    );
    let figure = "d-one-stone";
    b.open("/go/lessons/liberties?s=0:1&lang=en").await?;
    listen(b).await?;
    b.js(
        "document.getElementById(arguments[0]).focus(); return true",
        vec![json!(figure)],
    )
    .await?;
    for _ in 0..6 {
        if !focused(b).await?.is_null() {
            break;
        }
        b.press(Key::Tab).await?;
    }
    ensure!(
        !focused(b).await?.is_null(),
        "Tab never reaches the task board"
    );
    for (i, p) in answer.iter().enumerate() {
        walk_to(b, figure, p).await?;
        b.press(Key::Enter).await?;
        let kind = if i + 1 == answer.len() {
            "solved"
        } else {
            "found"
        };
        verdict(b, figure, kind)
            .await
            .with_context(|| format!("Enter on {p}"))?;
        if kind == "found" {
            b.wait_for("the focus back on the board", "return !!(document.activeElement && document.activeElement.closest('.task-board a.pt'))")
                .await?;
        }
    }
    b.same_page("a task from the keyboard").await?;
    let onward = b
        .js(
            "return !!(document.activeElement && document.activeElement.matches('a.step.next, .task-status .actions a'))",
            vec![],
        )
        .await?;
    ensure!(
        onward == json!(true),
        "once solved, the focus is on the way on"
    );
    let kept = stored(b, "go/liberties").await?;
    ensure!(
        kept["tasks"]["0:1"]["state"] == "solved",
        "localStorage holds {kept}"
    );
    Ok(())
}

/// On a phone-sized screen (360×740) a task's diagram fits: nothing scrolls sideways, and
/// the board's points are big enough to tap (at least 28 px).
async fn fits_a_phone(b: &Browser) -> Result<()> {
    b.viewport(360, 740).await?;
    for page in [
        "/go/lessons/captures?s=0:2&lang=en",
        "/chess/lessons/check?s=2:1&t=2&sel=e1&lang=zh",
        "/shogi/lessons/drop-rules?s=2:1&lang=en",
    ] {
        b.open(page).await?;
        let sizes = b
            .js(
                "const a = document.querySelector('.task-board a.pt'); const r = a ? a.getBoundingClientRect() : { width: 0 }; return [document.documentElement.scrollWidth, window.innerWidth, r.width]",
                vec![],
            )
            .await?;
        let (wide, inner, point) = (sizes[0].as_f64(), sizes[1].as_f64(), sizes[2].as_f64());
        ensure!(
            wide <= inner,
            "{page}: {wide:?} px wide in a {inner:?} px window"
        );
        ensure!(point >= Some(28.0), "{page}: a point is {point:?} px wide");
    }
    b.viewport(1280, 800).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn lesson_tasks_in_headless_chromium() {
    let state = AppState::embedded();
    let library = state.snapshot().library;
    let base = start_trainer(state).await.expect("the trainer starts");
    let driver = Driver::start().await.unwrap_or_else(|e| panic!("{e:#}"));
    let b = driver
        .session(&base)
        .await
        .unwrap_or_else(|e| panic!("{e:#}"));
    let mut failures = Vec::new();
    for (name, outcome) in [
        (
            "capture by clicking",
            capture_by_clicking(&b, &library).await,
        ),
        ("chess by clicking", chess_by_clicking(&b).await),
        (
            "liberties by keyboard",
            liberties_by_keyboard(&b, &library).await,
        ),
        ("fits a phone", fits_a_phone(&b).await),
    ] {
        let outcome = match outcome {
            Ok(()) => b.check_errors().await,
            e => e,
        };
        if let Err(e) = outcome {
            let _ = b
                .screenshot(&format!("failed-task-{}", name.replace(' ', "-")))
                .await;
            failures.push(format!("{name}: {e:#}"));
        }
    }
    let closed = b.close().await;
    drop(driver);
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    closed.expect("the browser session closes");
}
