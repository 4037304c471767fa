//! Solving a problem: the learner's progress in the address, the verdict on each action, and
//! the problem page. The same code serves links (no script) and `POST /api/attempt`.

use super::i18n::{fill, Ui};
use super::kit::{enc, respond, At, Chrome, FoundSet, Item, PageError, ProblemAt, Req};
use super::urls;
use super::AppState;
use crate::content::WhyLine;
use crate::content::{
    Action, BoardRequest, Game, Input as Takes, Library, Problem, ProblemSet, Text, Verdict,
};
use crate::lang::Lang;
use askama::Template;
use axum::extract::State;
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use std::sync::Arc;
use std::time::Duration;

mod problem_page;
mod status;

use problem_page::{page, problem_sgf, worksheet};
pub(crate) use status::{status, status_at};

/// The routes of the solving flow: a problem, its SGF, a set's worksheet.
pub(super) fn routes() -> Router<AppState> {
    Router::new()
        .route("/{game}/problems/{set}/{id}/sgf", get(problem_sgf))
        .route("/{game}/worksheets/{set}", get(worksheet))
        .route("/{game}/problems/{set}/{id}", get(page))
}

/// The learner's progress in a problem, as carried in addresses (`m`, `p`, `sel`).
#[derive(Clone, Debug, Default)]
pub(crate) struct Progress {
    /// Moves so far: the learner's and the replies, alternating.
    pub moves: Vec<String>,
    /// Points or squares found so far (`select`).
    pub picked: Vec<String>,
    /// The piece picked up (chess, shogi): a square, or `P*` for a piece in hand.
    pub selected: Option<String>,
}

fn list(s: Option<&str>) -> Vec<String> {
    s.unwrap_or("")
        .split(',')
        .map(str::trim)
        .filter(|m| !m.is_empty())
        .take(400)
        .map(String::from)
        .collect()
}

impl Progress {
    /// Reads the progress from the address's `m`, `p` and `sel`.
    pub fn from_query(req: &Req) -> Progress {
        Progress {
            moves: list(req.param("m")),
            picked: list(req.param("p")),
            selected: req.param("sel").filter(|s| !s.is_empty()).map(String::from),
        }
    }

    /// The query string for this progress, ending with `&` when not empty.
    pub fn query(&self) -> String {
        let mut q = String::new();
        if !self.moves.is_empty() {
            q.push_str(&format!("m={}&", enc(&self.moves.join(","))));
        }
        if !self.picked.is_empty() {
            q.push_str(&format!("p={}&", enc(&self.picked.join(","))));
        }
        q
    }
}

/// What the learner did.
#[derive(Clone, Debug, Default)]
pub(crate) enum Input {
    /// Nothing: the page as it stands.
    #[default]
    None,
    /// A move.
    Play(String),
    /// Pick up a piece, or put it down.
    Select(Option<String>),
    /// Two or more moves go between these squares: show the choice.
    Choose { from: String, to: String },
}

impl Input {
    /// The move as the classroom records it: the move played, or the square picked up
    /// before followed by this one (`e2e4`); empty when nothing is played.
    pub fn played(&self, selected: Option<&str>) -> String {
        match self {
            Input::None | Input::Select(None) => String::new(),
            Input::Play(m) => m.clone(),
            Input::Select(Some(s)) => format!("{}{s}", selected.unwrap_or("")),
            Input::Choose { from, to } => format!("{from}{to}"),
        }
    }

    /// Reads `play`, `sel` with `to`, from the address.
    pub fn from_query(req: &Req) -> Input {
        // A count is typed in a form: `count=41`, or `winner=B&margin=2.5`.
        if let Some(count) = req.param("count") {
            return Input::Play(count.to_string());
        }
        if let Some(winner) = req.param("winner") {
            return Input::Play(match winner {
                "0" => "0".to_string(),
                w => format!("{w}+{}", req.param("margin").unwrap_or("")),
            });
        }
        match (req.param("play"), req.param("sel"), req.param("to")) {
            (Some(play), _, _) => Input::Play(play.to_string()),
            (None, Some(from), Some(to)) => Input::Choose {
                from: from.to_string(),
                to: to.to_string(),
            },
            _ => Input::None,
        }
    }
}

/// The progress and the action an address carries (`m`, `p`, `sel`, `play`, `to`, a count).
pub(crate) fn from_address(req: &Req) -> (Progress, Input) {
    let mut input = Input::from_query(req);
    if let (Input::None, Some(sel)) = (&input, req.param("sel")) {
        input = Input::Select(Some(sel.to_string()));
    }
    (Progress::from_query(req), input)
}

/// Where a problem is being solved: on its own page, or at a step of a lesson's diagram.
pub(crate) struct Place<'a> {
    /// The address that carries this query (`m=D4&play=E5`; empty for the start).
    pub href: &'a dyn Fn(&str) -> String,
    /// The link offered once solved: the next problem, or the lesson's next step.
    pub next: Option<Item>,
    /// Whether the explanation is shown once solved (a lesson shows it in the step's text).
    pub explain: bool,
}

/// A problem judged after the learner's latest action: what to show and what comes next.
pub(crate) struct Judged {
    pub verdict: Option<Verdict>,
    /// The progress from which the learner goes on.
    pub progress: Progress,
    /// The moves shown on the board (may include a wrong move and its refutation).
    pub shown: Vec<String>,
    pub solved: bool,
    /// Whether the board takes clicks.
    pub open: bool,
    /// Moves to choose between (a promotion), with their labels.
    pub choices: Vec<(Text, String)>,
}

/// Judges `input` on `problem` from `progress`; progress that does not fit the problem
/// (moves off the lines, points outside the answer) is dropped, never trusted.
pub(crate) fn judge(problem: &Problem, progress: Progress, input: Input) -> Judged {
    let puzzle = &problem.puzzle;
    let mut progress = Progress {
        moves: puzzle.valid_moves(&progress.moves).unwrap_or_default(),
        picked: puzzle.valid_picks(&progress.picked),
        selected: progress.selected.filter(|s| s.len() <= 4),
    };
    let solved_before = puzzle.is_solved(&progress.moves, &progress.picked);
    let mut judged = Judged {
        verdict: None,
        shown: progress.moves.clone(),
        progress: progress.clone(),
        solved: solved_before,
        open: !solved_before,
        choices: Vec::new(),
    };
    if solved_before {
        judged.progress.selected = None;
        return judged;
    }
    // What the learner sent comes back in the reply: no square is longer than 4 bytes, and
    // no move or count than 32 characters, so longer ones are cut before they are judged.
    let play = match input {
        Input::None => return judged,
        Input::Select(square) => {
            judged.progress.selected = square.filter(|s| s.len() <= 4);
            return judged;
        }
        Input::Choose { from, to } => {
            judged.choices = puzzle.choices(&progress.moves, &from, &to);
            judged.progress.selected = Some(from).filter(|s| s.len() <= 4);
            return judged;
        }
        Input::Play(play) if play.chars().count() > 32 => {
            play.chars().take(32).chain(['…']).collect()
        }
        Input::Play(play) => play,
    };
    progress.selected = None;
    let verdict = puzzle.attempt(&progress.moves, &progress.picked, &play);
    let mut next = progress.clone();
    let mut shown = progress.moves.clone();
    let mut open = true;
    match &verdict {
        Verdict::Correct { moves, .. } => {
            next.moves = moves.clone();
            shown = moves.clone();
        }
        Verdict::Wrong { shown: s, .. } => {
            shown = s.clone();
            open = false;
        }
        Verdict::Found { picked, .. } | Verdict::NotAnswer { picked, .. } => {
            next.picked = picked.clone();
        }
        Verdict::Illegal { .. } | Verdict::Invalid { .. } => {}
    }
    let solved = matches!(
        verdict,
        Verdict::Correct { solved: true, .. } | Verdict::Found { solved: true, .. }
    );
    Judged {
        verdict: Some(verdict),
        progress: next,
        shown,
        solved,
        open: open && !solved,
        choices: Vec::new(),
    }
}

/// How long a request waits for the engine's verdict. The searches are bounded (the deepest
/// proofs allowed take well under a second); this only keeps a request from hanging.
pub(crate) const JUDGE_TIME_LIMIT: Duration = Duration::from_secs(5);

/// Why a move was not judged.
#[derive(Debug)]
pub(crate) enum NotJudged {
    /// The judging took longer than [`JUDGE_TIME_LIMIT`].
    TooLong,
    /// The judging thread panicked.
    Failed,
}

impl IntoResponse for NotJudged {
    fn into_response(self) -> Response {
        match self {
            NotJudged::TooLong => (
                StatusCode::SERVICE_UNAVAILABLE,
                [(header::RETRY_AFTER, "1")],
                "棋院还在验证这道题，请稍后再试。\nThe engine is still working on this problem: try again in a moment.\n",
            )
                .into_response(),
            NotJudged::Failed => {
                (StatusCode::INTERNAL_SERVER_ERROR, "the judging failed\n").into_response()
            }
        }
    }
}

/// Judges as [`judge`] does, but when the judging may search (a mate proof, the
/// life-and-death solver) on a blocking thread, never on the async workers, and within
/// [`JUDGE_TIME_LIMIT`]. The problem is the one with `id` in the set `set` of `game` in
/// `library`; `None` when there is none.
pub(crate) async fn judge_off_async(
    library: &Arc<Library>,
    (game, set, id): (Game, &str, &str),
    progress: Progress,
    input: Input,
) -> Result<Option<Judged>, NotJudged> {
    let Some(problem) = find_problem(library, game, set, id) else {
        return Ok(None);
    };
    let searches = problem.puzzle.searches()
        && (matches!(input, Input::Play(_)) || !progress.moves.is_empty());
    if !searches {
        return Ok(Some(judge(problem, progress, input)));
    }
    let library = library.clone();
    let (set, id) = (set.to_string(), id.to_string());
    let judged = tokio::task::spawn_blocking(move || {
        let problem = find_problem(&library, game, &set, &id)?;
        Some(judge(problem, progress, input))
    });
    match tokio::time::timeout(JUDGE_TIME_LIMIT, judged).await {
        Ok(Ok(judged)) => Ok(judged),
        Ok(Err(_)) => Err(NotJudged::Failed),
        Err(_) => Err(NotJudged::TooLong),
    }
}

fn find_problem<'a>(library: &'a Library, game: Game, set: &str, id: &str) -> Option<&'a Problem> {
    library.shelf(game)?.set(set)?.problem(id)
}

/// The address of a problem.
pub(crate) fn problem_href(game: Game, set: &ProblemSet, problem: &Problem) -> String {
    urls::problem(game, &set.slug, &problem.id)
}

/// The address of a problem with `query` (`m=D4&play=E5`), or the plain address.
fn problem_query(base: &str, query: &str) -> String {
    if query.is_empty() {
        base.to_string()
    } else {
        format!("{base}?{query}")
    }
}

/// The board of a problem as SVG, with links when it takes clicks.
pub(crate) fn board(
    game: Game,
    set: &ProblemSet,
    problem: &Problem,
    judged: &Judged,
    lang: Lang,
) -> String {
    let base = problem_href(game, set, problem);
    board_at(problem, judged, lang, &|q| problem_query(&base, q))
}

/// The board of a problem as SVG, with links (built by `at` from a query) when it takes
/// clicks.
pub(crate) fn board_at(
    problem: &Problem,
    judged: &Judged,
    lang: Lang,
    at: &dyn Fn(&str) -> String,
) -> String {
    let query = judged.progress.query();
    let selected = judged.progress.selected.clone();
    let href = move |action: Action| match action {
        Action::Play(mv) => at(&format!("{query}play={}", enc(&mv))),
        Action::Select(None) => at(query.trim_end_matches('&')),
        Action::Select(Some(sq)) => at(&format!("{query}sel={}", enc(&sq))),
        Action::Choose { from, to } => at(&format!("{query}sel={}&to={}", enc(&from), enc(&to))),
    };
    problem.puzzle.board(&BoardRequest {
        shown: &judged.shown,
        picked: &judged.progress.picked,
        selected: selected.as_deref(),
        href: if judged.open { Some(&href) } else { None },
        heat: None,
        lang,
        title: problem.prompt.get(lang),
    })
}
