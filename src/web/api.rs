//! `POST /api/attempt`: the engine's verdict on one move, for the script on problem pages.

use super::pages::find_set;
use super::state::AppState;
use super::trainer::{board, judge_off_async, problem_href, status, Input, Progress};
use crate::content::Game;
use crate::lang::Lang;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::{Deserialize, Serialize};

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

/// Judges one move.
pub async fn attempt(
    State(state): State<AppState>,
    req: super::pages::Req,
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
    let input = match (request.play, request.select, request.to) {
        (Some(play), _, _) => Input::Play(play),
        (None, Some(from), Some(to)) => Input::Choose { from, to },
        (None, Some(sel), None) => Input::Select(Some(sel).filter(|s| !s.is_empty())),
        (None, None, _) => Input::None,
    };
    let before = progress.moves.clone();
    let played = input.played(progress.selected.as_deref());
    let at = (shelf.game, set.slug.as_str(), problem.id.as_str());
    let judged = match judge_off_async(&snap.library, at, progress, input).await {
        Ok(Some(judged)) => judged,
        Ok(None) => return (StatusCode::NOT_FOUND, "no such problem").into_response(),
        Err(e) => return e.into_response(),
    };
    if let Some(v) = &judged.verdict {
        super::class::record_move(
            &state,
            req.account.as_ref(),
            (shelf.game, &set.slug, &problem.id),
            &before,
            played,
            v.kind(),
        )
        .await;
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
