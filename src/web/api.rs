//! `POST /api/attempt` and `POST /api/lesson-attempt`: the engine's verdict on one move, for
//! the script on problem pages and on lesson tasks.

use super::pages::{diagram_anchor, find_set, render_diagram, step_href};
use super::trainer::{board, judge_off_async, problem_href, status, Input, Progress};
use super::urls;
use super::AppState;
use crate::base::Game;
use crate::lang::Lang;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use axum::Json;
use axum::Router;
use serde::{Deserialize, Serialize};

/// The routes of the attempt API (`/api/attempt`, `/api/lesson-attempt`).
pub(super) fn routes() -> Router<AppState> {
    Router::new()
        .route(
            "/api/attempt",
            post(attempt).layer(axum::extract::DefaultBodyLimit::max(
                super::ATTEMPT_BODY_LIMIT,
            )),
        )
        .route(
            "/api/lesson-attempt",
            post(lesson_attempt).layer(axum::extract::DefaultBodyLimit::max(
                super::ATTEMPT_BODY_LIMIT,
            )),
        )
}

/// An attempt: which problem, the progress so far, and the move.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AttemptRequest {
    /// `go`.
    pub game: String,
    /// The set's slug.
    pub set: String,
    /// The problem's id.
    pub id: String,
    /// Moves so far, learner's and replies alternating.
    #[serde(default)]
    pub moves: Vec<String>,
    /// Points found so far (`select`).
    #[serde(default)]
    pub picked: Vec<String>,
    /// The piece picked up so far (chess, shogi): a square, or `P*` for a piece in hand.
    #[serde(default)]
    pub selected: Option<String>,
    /// The learner's move: a point such as `D4`, `pass`, `e2e4`, `P*5e`.
    #[serde(default)]
    pub play: Option<String>,
    /// Pick up the piece on this square (or in hand); an empty string puts it down.
    #[serde(default)]
    pub select: Option<String>,
    /// With `select`: the square the picked-up piece goes to, when a choice is needed.
    #[serde(default)]
    pub to: Option<String>,
    /// `zh` or `en`; zh if missing.
    #[serde(default)]
    pub lang: Option<String>,
}

/// The verdict, and everything the page needs to show it.
#[derive(Debug, Serialize)]
pub struct AttemptReply {
    /// `correct`, `solved`, `wrong`, `illegal`, `found`, `not-answer`, `invalid`, or `ready`
    /// when nothing was played (a piece picked up).
    pub verdict: &'static str,
    /// Moves from which the learner goes on.
    pub moves: Vec<String>,
    /// Points found so far (`select`).
    pub picked: Vec<String>,
    /// The piece picked up, if any.
    pub selected: Option<String>,
    /// Moves shown on the board (with a wrong move and its refutation, if any).
    pub shown: Vec<String>,
    /// The opponent's answer, if any.
    pub reply: Option<String>,
    /// Whether the problem is solved.
    pub solved: bool,
    /// The new board.
    pub svg: String,
    /// The verdict's message and links, as HTML.
    pub status: String,
    /// The address of this state, for the browser's history.
    pub url: String,
}

/// What the learner did, from a request's `play`, `select` and `to`.
fn input_of(play: Option<String>, select: Option<String>, to: Option<String>) -> Input {
    match (play, select, to) {
        (Some(play), _, _) => Input::Play(play),
        (None, Some(from), Some(to)) => Input::Choose { from, to },
        (None, Some(sel), None) => Input::Select(Some(sel).filter(|s| !s.is_empty())),
        (None, None, _) => Input::None,
    }
}

/// Judges one move.
pub async fn attempt(
    State(state): State<AppState>,
    req: super::kit::Req,
    Json(request): Json<AttemptRequest>,
) -> Response {
    let snap = state.snapshot();
    let found = Game::from_slug(&request.game).and_then(|g| find_set(&snap, g, &request.set));
    let Some((shelf, set)) = found else {
        return (StatusCode::NOT_FOUND, "no such problem set").into_response();
    };
    let Some(problem) = set.problem(&request.id) else {
        return (StatusCode::NOT_FOUND, "no such problem").into_response();
    };
    let lang = request
        .lang
        .as_deref()
        .and_then(Lang::parse)
        .unwrap_or(Lang::Zh);
    let progress = Progress {
        moves: request.moves,
        picked: request.picked,
        selected: request.selected,
    };
    let input = input_of(request.play, request.select, request.to);
    let before = progress.moves.clone();
    let played = input.played(progress.selected.as_deref());
    let at = (shelf.game, set.slug.as_str(), problem.id.as_str());
    let judged = match judge_off_async(&snap.library, at, progress, input).await {
        Ok(Some(judged)) => judged,
        Ok(None) => return (StatusCode::NOT_FOUND, "no such problem").into_response(),
        Err(e) => return e.into_response(),
    };
    if let Some(v) = &judged.verdict {
        if let Err(e) = super::session::record_move(
            &state,
            req.account.as_ref(),
            (shelf.game, &set.slug, &problem.id),
            &before,
            played,
            v.kind(),
        )
        .await
        {
            // Judged but not kept: the reply says so rather than answer as if it were.
            return super::session::unkept(lang, &e);
        }
    }
    let reply = match &judged.verdict {
        Some(crate::content::Verdict::Correct { reply, .. }) => reply.clone(),
        _ => None,
    };
    let mut url = problem_href(shelf.game, set, problem);
    let q = judged.progress.query();
    if !q.is_empty() {
        url.push('?');
        url.push_str(q.trim_end_matches('&'));
    }
    let status = match status(shelf.game, set, problem, &judged, lang) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("qiyuan: template error in /api/attempt: {e}");
            return (StatusCode::INTERNAL_SERVER_ERROR, "template error").into_response();
        }
    };
    Json(AttemptReply {
        verdict: match &judged.verdict {
            Some(v) => v.kind(),
            None if judged.solved => "solved",
            None => "ready",
        },
        moves: judged.progress.moves.clone(),
        picked: judged.progress.picked.clone(),
        selected: judged.progress.selected.clone(),
        shown: judged.shown.clone(),
        reply,
        solved: judged.solved,
        svg: board(shelf.game, set, problem, &judged, lang),
        status,
        url,
    })
    .into_response()
}

/// An attempt at a lesson task: which step of which diagram, the progress so far, and the
/// move (as in [`AttemptRequest`]).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LessonAttemptRequest {
    /// `go`.
    pub game: String,
    /// The lesson's slug.
    pub lesson: String,
    /// The diagram, from 0.
    pub diagram: usize,
    /// The step of the diagram that holds the task, from 1.
    pub step: usize,
    /// Moves so far, learner's and replies alternating.
    #[serde(default)]
    pub moves: Vec<String>,
    /// Points found so far (`select`).
    #[serde(default)]
    pub picked: Vec<String>,
    /// The piece picked up so far (chess, shogi).
    #[serde(default)]
    pub selected: Option<String>,
    /// The learner's move.
    #[serde(default)]
    pub play: Option<String>,
    /// Pick up the piece on this square (or in hand); an empty string puts it down.
    #[serde(default)]
    pub select: Option<String>,
    /// With `select`: the square the picked-up piece goes to, when a choice is needed.
    #[serde(default)]
    pub to: Option<String>,
    /// `zh` or `en`; zh if missing.
    #[serde(default)]
    pub lang: Option<String>,
}

/// The verdict on a lesson task, and the diagram as it now stands.
#[derive(Debug, Serialize)]
pub struct LessonAttemptReply {
    /// As in [`AttemptReply`]: `solved`, `correct`, `wrong`, `illegal`, `found`,
    /// `not-answer`, `invalid`, or `ready`.
    pub verdict: &'static str,
    /// Whether the task is done.
    pub solved: bool,
    /// Moves from which the learner goes on.
    pub moves: Vec<String>,
    /// Points found so far (`select`).
    pub picked: Vec<String>,
    /// The piece picked up, if any.
    pub selected: Option<String>,
    /// The diagram's `<figure>`, to put in place of the old one.
    pub figure: String,
    /// The address of this state, for the browser's history.
    pub url: String,
}

/// Judges one move of a lesson task.
pub async fn lesson_attempt(
    State(state): State<AppState>,
    Json(request): Json<LessonAttemptRequest>,
) -> Response {
    let snap = state.snapshot();
    let lang = request
        .lang
        .as_deref()
        .and_then(Lang::parse)
        .unwrap_or(Lang::Zh);
    let found = Game::from_slug(&request.game)
        .and_then(|g| snap.library.shelf(g))
        .and_then(|shelf| Some((shelf.game, shelf.lesson(&request.lesson)?)));
    let Some((game, lesson)) = found else {
        return (StatusCode::NOT_FOUND, "no such lesson").into_response();
    };
    let diagrams = &lesson.text(lang).diagrams;
    let has_task = diagrams
        .get(request.diagram)
        .and_then(|d| d.frames.get(request.step))
        .is_some_and(|f| f.task.is_some());
    if !has_task {
        return (StatusCode::NOT_FOUND, "no task at that step").into_response();
    }
    let mut steps = vec![0; diagrams.len()];
    steps[request.diagram] = request.step;
    let progress = Progress {
        moves: request.moves,
        picked: request.picked,
        selected: request.selected,
    };
    let input = input_of(request.play, request.select, request.to);
    let rendered = render_diagram(
        lang,
        game,
        lesson,
        diagrams,
        &steps,
        request.diagram,
        Some((progress, input)),
    );
    let (figure, judged) = match rendered {
        Ok((figure, Some(judged))) => (figure, judged),
        Ok((_, None)) => return (StatusCode::NOT_FOUND, "no task at that step").into_response(),
        Err(e) => {
            eprintln!("qiyuan: template error in /api/lesson-attempt: {e}");
            return (StatusCode::INTERNAL_SERVER_ERROR, "template error").into_response();
        }
    };
    let d = &diagrams[request.diagram];
    let url = step_href(
        &urls::lesson(game, &lesson.slug),
        request.diagram,
        request.step,
        judged.progress.query().trim_end_matches('&'),
        &diagram_anchor(d, request.diagram),
    );
    Json(LessonAttemptReply {
        verdict: match &judged.verdict {
            Some(v) => v.kind(),
            None if judged.solved => "solved",
            None => "ready",
        },
        solved: judged.solved,
        moves: judged.progress.moves.clone(),
        picked: judged.progress.picked.clone(),
        selected: judged.progress.selected.clone(),
        figure,
        url,
    })
    .into_response()
}
