//! `POST /api/attempt`: the engine's verdict on one move, for the script on problem pages.

use super::pages::{find_set, judge, problem_board, status_html, Progress};
use super::state::AppState;
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
    /// The learner's move: a point such as `D4`, or `pass`.
    pub play: String,
    /// `zh` or `en`; zh if missing.
    #[serde(default)]
    pub lang: Option<String>,
}

/// The verdict, and everything the page needs to show it.
#[derive(Debug, Serialize)]
pub struct AttemptReply {
    /// `correct`, `solved`, `wrong`, `illegal`, `found`, `not-answer` or `invalid`.
    pub verdict: &'static str,
    /// Moves from which the learner goes on.
    pub moves: Vec<String>,
    /// Points found so far (`select`).
    pub picked: Vec<String>,
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
    Json(request): Json<AttemptRequest>,
) -> Response {
    let snap = state.snapshot();
    let Some((shelf, set)) = find_set(&snap, &request.game, &request.set) else {
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
    };
    let judged = judge(problem, progress, Some(&request.play));
    let reply = match &judged.verdict {
        Some(crate::content::Verdict::Correct { reply, .. }) => reply.clone(),
        _ => None,
    };
    let mut url = format!(
        "/{}/problems/{}/{}",
        shelf.game.slug(),
        set.slug,
        problem.id
    );
    let q = judged.progress_query();
    if !q.is_empty() {
        url.push('?');
        url.push_str(q.trim_end_matches('&'));
    }
    Json(AttemptReply {
        verdict: judged.verdict.as_ref().map_or("solved", |v| v.kind()),
        moves: judged.progress.moves.clone(),
        picked: judged.progress.picked.clone(),
        shown: judged.shown.clone(),
        reply,
        solved: judged.solved,
        svg: problem_board(shelf.game, set, problem, &judged, lang),
        status: status_html(shelf.game, set, problem, &judged, lang),
        url,
    })
    .into_response()
}
