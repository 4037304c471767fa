//! Xiangqi in a real browser (headless Chromium through chromedriver): a lesson task done by
//! clicking a piece and then its point; a puzzle where a horse whose leg is blocked is sent
//! over it and the move is refused with 蹩马腿 and the blocking point; a game against the
//! built-in computer from the /play page, which answers the learner's move. Positions and
//! answers come from the content library and the rules engine, not from this file; any
//! JavaScript error fails the test.
//!
//! Needs Debian's `chromium` and `chromium-driver` (`scripts/test.sh` installs them).

#[allow(dead_code)]
#[path = "browser/content.rs"]
mod content;
#[allow(dead_code)]
#[path = "browser/harness.rs"]
mod harness;

use anyhow::{anyhow, ensure, Context, Result};
use content::problem_path;
use harness::{squash, start_trainer, Browser, Driver, Runner};
use qiyuan::content::{Game, Library, Problem, ProblemSet, Puzzle, Verdict};
use qiyuan::lang::Lang;
use qiyuan::rules::xiangqi::{Illegal, Kind, Position};
use qiyuan::web::AppState;
use serde_json::json;

/// A point of the board `#board` (problems and games).
fn board_point(p: &str) -> String {
    format!("#board a.pt[data-p=\"{p}\"]")
}

/// A point of the task board of the lesson diagram `figure`.
fn task_point(figure: &str, p: &str) -> String {
    format!("#{figure} .task-board a.pt[data-p=\"{p}\"]")
}

/// The first lesson task of xiangqi answered by one move of a piece: the lesson's slug, the
/// diagram's index and id, the step, and the move.
fn one_move_task(library: &Library) -> Result<(String, usize, String, usize, String)> {
    let shelf = library
        .shelves
        .iter()
        .find(|s| s.game == Game::Xiangqi)
        .ok_or_else(|| anyhow!("no xiangqi lessons"))?;
    for lesson in &shelf.lessons {
        for (d, diagram) in lesson.en.diagrams.iter().enumerate() {
            for (step, frame) in diagram.frames.iter().enumerate() {
                let Some(task) = &frame.task else { continue };
                let line = task.puzzle.lines().main_line();
                if line.len() == 1 && task.puzzle.select_total().is_none() {
                    let id = diagram
                        .id
                        .clone()
                        .ok_or_else(|| anyhow!("a diagram without id"))?;
                    return Ok((lesson.slug.clone(), d, id, step, line[0].clone()));
                }
            }
        }
    }
    Err(anyhow!("no xiangqi lesson task is one move"))
}

/// A xiangqi task: the piece, then its point; the task is solved without a reload.
async fn lesson_task(b: &Browser, library: &Library) -> Result<()> {
    let (slug, d, id, step, mv) = one_move_task(library)?;
    let figure = format!("d-{id}");
    b.open(&format!("/xiangqi/lessons/{slug}?s={d}:{step}&lang=zh"))
        .await?;
    b.find(&task_point(&figure, &mv[..2]))
        .await?
        .click()
        .await?;
    b.wait_for_with(
        "the piece picked up",
        "return document.getElementById(arguments[0]).dataset.selected === arguments[1]",
        vec![json!(figure), json!(&mv[..2])],
    )
    .await?;
    b.find(&task_point(&figure, &mv[2..4]))
        .await?
        .click()
        .await?;
    b.wait_for_with(
        "a solved verdict",
        "return !!document.querySelector(arguments[0])",
        vec![json!(format!("#{figure} .task-status .verdict.solved"))],
    )
    .await
    .with_context(|| format!("/xiangqi/lessons/{slug}: task {d}:{step}, {mv}"))?;
    b.same_page("a xiangqi task").await
}

/// A problem answered by moves whose start has a horse of the side to move with a blocked
/// leg: the problem, and the horse's point, the point it may not reach and the leg.
fn blocked_horse(library: &Library) -> Result<(&ProblemSet, &Problem, String, String, String)> {
    let shelf = library
        .shelves
        .iter()
        .find(|s| s.game == Game::Xiangqi)
        .ok_or_else(|| anyhow!("no xiangqi problems"))?;
    for (set, problem) in content::problems(shelf) {
        let Puzzle::Xiangqi(puzzle) = &problem.puzzle else {
            continue;
        };
        if problem.puzzle.select_total().is_some() {
            continue;
        }
        let pos: &Position = &puzzle.start;
        for (from, color, kind) in pos.pieces() {
            if kind != Kind::Horse || color != pos.turn() {
                continue;
            }
            for (df, dr) in [
                (1, 2),
                (2, 1),
                (2, -1),
                (1, -2),
                (-1, -2),
                (-2, -1),
                (-2, 1),
                (-1, 2),
            ] {
                let Some(to) = from.offset(df, dr) else {
                    continue;
                };
                if let Err(Illegal::HorseLegBlocked { leg, .. }) = pos.play(&format!("{from}{to}"))
                {
                    return Ok((
                        set,
                        problem,
                        from.to_string(),
                        to.to_string(),
                        leg.to_string(),
                    ));
                }
            }
        }
    }
    Err(anyhow!("no xiangqi problem has a horse with a blocked leg"))
}

/// The blocked horse sent over its leg: refused, with the rule and the leg named.
async fn horse_leg_refused(b: &Browser, library: &Library) -> Result<()> {
    let (set, problem, from, to, leg) = blocked_horse(library)?;
    let path = problem_path(Game::Xiangqi, set, problem);
    let expected = match problem.puzzle.attempt(&[], &[], &format!("{from}{to}")) {
        Verdict::Illegal { reason } => reason,
        other => return Err(anyhow!("{path}: the puzzle calls {from}{to} {other:?}")),
    };
    b.open(&format!("{path}?lang=zh")).await?;
    b.find(&board_point(&from)).await?.click().await?;
    b.wait_for_with(
        "the horse picked up",
        "return document.querySelector('.problem').dataset.selected === arguments[0]",
        vec![json!(from)],
    )
    .await?;
    b.find(&board_point(&to)).await?.click().await?;
    b.find("#status .verdict.illegal")
        .await
        .with_context(|| format!("{path}: {from}{to} is not refused"))?;
    let message = b
        .js(
            "const m = document.querySelector('#status .message'); return m ? m.textContent : ''",
            vec![],
        )
        .await?;
    let message = squash(message.as_str().unwrap_or_default());
    ensure!(
        message == squash(expected.get(Lang::Zh)),
        "{path}: the message {message:?}, the engine says {:?}",
        expected.zh
    );
    ensure!(
        message.contains("蹩马腿") && message.contains(&leg),
        "{path}: {message:?} does not name 蹩马腿 and the leg {leg}"
    );
    b.same_page("a refused horse move").await
}

/// A new xiangqi game against the computer: the learner's cannon to the centre, and the
/// computer's answer appears in the move list.
async fn against_the_computer(b: &Browser) -> Result<()> {
    b.open("/play?lang=zh").await?;
    b.follow(fantoccini::Locator::Css("#new-xiangqi button[type=submit]"))
        .await?;
    b.find(&board_point("h2")).await?.click().await?;
    b.wait_for(
        "the cannon picked up",
        "const e2 = document.querySelector('#board a.pt[data-p=\"e2\"]'); return !!e2 && e2.getAttribute('href').includes('confirm=h2e2')",
    )
    .await?;
    b.find(&board_point("e2")).await?.click().await?;
    b.wait_for(
        "the computer's answer",
        "return document.querySelectorAll('.move-list li').length === 2",
    )
    .await?;
    let first = b.text(".move-list li").await?;
    ensure!(first.contains("炮二平五"), "the first move reads {first:?}");
    b.same_page("a move against the computer").await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn xiangqi_lesson_task_refused_horse_and_game_in_headless_chromium() {
    let state = AppState::embedded();
    let library = state.snapshot().library;
    let base = start_trainer(state).await.expect("the trainer starts");
    let driver = Driver::start().await.unwrap_or_else(|e| panic!("{e:#}"));
    let b = driver
        .session(&base)
        .await
        .unwrap_or_else(|e| panic!("{e:#}"));
    let mut runner = Runner {
        browser: &b,
        failures: Vec::new(),
    };
    runner
        .run("xiangqi lesson task", lesson_task(&b, &library))
        .await;
    runner
        .run("xiangqi horse leg", horse_leg_refused(&b, &library))
        .await;
    runner
        .run("xiangqi against the computer", against_the_computer(&b))
        .await;
    let failures = runner.failures;
    let _ = b.close().await;
    drop(driver);
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}
