//! Solving a problem: the learner's progress in the address, the verdict on each action, and
//! the problem page. The same code serves links (no script) and `POST /api/attempt`.

use super::i18n::{fill, Ui};
use super::kit::{enc, missing, respond, At, Chrome, FoundSet, Item, ProblemAt, Req};
use super::urls;
use super::AppState;
use crate::content::go::WhyLine;
use crate::content::{
    Action, BoardRequest, Game, Input as Takes, Library, Problem, ProblemSet, Puzzle, RecordFormat,
    Text, Verdict,
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
        lang,
        title: problem.prompt.get(lang),
    })
}

#[derive(Template)]
#[template(path = "status.html")]
struct StatusView {
    kind: &'static str,
    headline: String,
    message: String,
    explanation: String,
    explanation_title: String,
    choices: Vec<Item>,
    other_lines: Vec<String>,
    other_lines_title: String,
    take_back: Option<Item>,
    retry: Option<Item>,
    next: Option<Item>,
    /// "Show why": the solver's proof or refutation, step by step (Go life and death).
    why: Option<Item>,
}

/// The verdict and what the learner may do next, as an HTML fragment.
pub(crate) fn status(
    game: Game,
    set: &ProblemSet,
    problem: &Problem,
    judged: &Judged,
    lang: Lang,
) -> Result<String, askama::Error> {
    let ui = Ui::get(lang);
    let base = problem_href(game, set, problem);
    let next = set
        .next_after(&problem.id)
        .filter(|_| judged.solved)
        .map(|p| Item::link(problem_href(game, set, p), ui.next_problem.clone()));
    let place = Place {
        href: &|q| problem_query(&base, q),
        next,
        explain: true,
    };
    status_at(problem, judged, lang, &place)
}

/// The verdict and what the learner may do next at `place`, as an HTML fragment.
pub(crate) fn status_at(
    problem: &Problem,
    judged: &Judged,
    lang: Lang,
    place: &Place,
) -> Result<String, askama::Error> {
    let ui = Ui::get(lang);
    let at = place.href;
    let total = problem.puzzle.select_total();
    let count = |found: usize| {
        [
            ("found", found.to_string()),
            ("total", total.unwrap_or(0).to_string()),
        ]
    };
    let progress = |found: usize| {
        let c = count(found);
        fill(
            &ui.select_progress,
            &[("found", &c[0].1), ("total", &c[1].1)],
        )
    };
    let (kind, headline, message) = match &judged.verdict {
        None if judged.solved => ("solved", ui.solved.clone(), String::new()),
        None => match problem.puzzle.input() {
            Takes::Pick { .. } => (
                "ready",
                ui.your_pick.clone(),
                progress(judged.progress.picked.len()),
            ),
            Takes::Count(_) => ("ready", ui.your_count.clone(), String::new()),
            Takes::Piece { choose } if !judged.choices.is_empty() => (
                "ready",
                ui.key(choose).unwrap_or(choose).to_string(),
                String::new(),
            ),
            _ if judged.progress.selected.is_some() => {
                ("ready", ui.your_destination.clone(), String::new())
            }
            Takes::Point => ("ready", ui.your_move.clone(), String::new()),
            Takes::Piece { .. } => ("ready", ui.your_piece.clone(), String::new()),
        },
        Some(Verdict::Correct { solved: true, .. }) | Some(Verdict::Found { solved: true, .. }) => {
            ("solved", ui.solved.clone(), String::new())
        }
        Some(Verdict::Correct { reply, .. }) => (
            "correct",
            ui.correct.clone(),
            reply
                .as_ref()
                .map(|r| {
                    let before = &judged.progress.moves[..judged.progress.moves.len() - 1];
                    let shown = problem.puzzle.notation(before, r);
                    fill(&ui.opponent_replied, &[("move", &shown)])
                })
                .unwrap_or_default(),
        ),
        Some(Verdict::Wrong { why, shown }) => {
            let at = judged.progress.moves.len() + 1;
            let mut msg = shown
                .get(at)
                .map(|r| {
                    let r = problem.puzzle.notation(&shown[..at], r);
                    fill(&ui.wrong_refuted, &[("move", &r)]) + " "
                })
                .unwrap_or_default();
            msg.push_str(
                why.as_ref()
                    .map(|w| w.get(lang))
                    .unwrap_or(&ui.wrong_general),
            );
            ("wrong", ui.wrong.clone(), msg)
        }
        Some(Verdict::Illegal { reason }) => {
            ("illegal", ui.illegal.clone(), reason.get(lang).into())
        }
        Some(Verdict::Found { picked, .. }) => {
            let c = count(picked.len());
            (
                "found",
                fill(&ui.found, &[("found", &c[0].1), ("total", &c[1].1)]),
                String::new(),
            )
        }
        Some(Verdict::NotAnswer { why, picked }) => (
            "not-answer",
            ui.not_answer.clone(),
            format!("{} {}", why.get(lang), progress(picked.len())),
        ),
        Some(Verdict::Invalid { why }) => ("invalid", ui.illegal.clone(), why.get(lang).into()),
    };
    let solved = judged.solved;
    let wrong = matches!(judged.verdict, Some(Verdict::Wrong { .. }));
    let query = judged.progress.query();
    let started = !judged.progress.moves.is_empty() || !judged.progress.picked.is_empty();
    StatusView {
        kind,
        headline,
        message,
        explanation: if solved && place.explain {
            [
                problem
                    .explanation
                    .as_ref()
                    .map(|e| e.get(lang).to_string()),
                problem.puzzle.solved_note(lang),
            ]
            .into_iter()
            .flatten()
            .collect::<Vec<_>>()
            .join("\n\n")
        } else {
            String::new()
        },
        explanation_title: ui.explanation.clone(),
        other_lines: if solved {
            problem
                .puzzle
                .lines()
                .correct_lines()
                .into_iter()
                .filter(|l| {
                    !judged.progress.moves.starts_with(l) && !l.starts_with(&judged.progress.moves)
                })
                .map(|l| {
                    (0..l.len())
                        .map(|i| problem.puzzle.notation(&l[..i], &l[i]))
                        .collect::<Vec<_>>()
                        .join(" ")
                })
                .collect()
        } else {
            Vec::new()
        },
        other_lines_title: ui.other_lines.clone(),
        choices: judged
            .choices
            .iter()
            .map(|(label, mv)| Item::link(at(&format!("{query}play={}", enc(mv))), label.get(lang)))
            .collect(),
        take_back: wrong.then(|| Item::link(at(query.trim_end_matches('&')), &ui.take_back)),
        why: why_link(problem, judged, at).map(|href| Item::link(href, &ui.show_why)),
        retry: (solved || started).then(|| Item::link(at(""), &ui.retry)),
        next: (place.next.as_ref())
            .filter(|_| solved)
            .map(|n| Item::link(n.href.clone(), &n.title)),
    }
    .render()
}

/// The solution, shown step by step: the main line's first `step` moves (or, for a `select`
/// question, every point of the answer), as a board and a status fragment.
pub(crate) fn solution(
    game: Game,
    set: &ProblemSet,
    problem: &Problem,
    step: usize,
    lang: Lang,
) -> Result<(String, String), askama::Error> {
    let ui = Ui::get(lang);
    let base = problem_href(game, set, problem);
    let main = problem.puzzle.lines().main_line();
    let step = step.clamp(1, main.len().max(1));
    let answer = problem.puzzle.answer();
    let judged = Judged {
        verdict: None,
        progress: Progress {
            moves: Vec::new(),
            picked: answer.clone(),
            selected: None,
        },
        shown: main[..step.min(main.len())].to_vec(),
        solved: false,
        open: false,
        choices: Vec::new(),
    };
    let board = board(game, set, problem, &judged, lang);
    let mut steps = Vec::new();
    if step > 1 {
        steps.push(Item::link(
            format!("{base}?solution={}", step - 1),
            format!("← {}", ui.prev_step),
        ));
    }
    if step < main.len() {
        steps.push(Item::link(
            format!("{base}?solution={}", step + 1),
            format!("{} →", ui.next_step),
        ));
    }
    let line = if answer.is_empty() {
        line_html(problem, &main, 0, step)
    } else {
        answer.join(" ")
    };
    let status = StatusView {
        kind: "solution",
        headline: ui.solution_is.clone(),
        message: line,
        explanation: problem
            .explanation
            .as_ref()
            .map(|e| e.get(lang).to_string())
            .unwrap_or_default(),
        explanation_title: ui.explanation.clone(),
        choices: steps,
        other_lines: Vec::new(),
        other_lines_title: String::new(),
        take_back: None,
        why: None,
        retry: Some(Item::link(base, ui.retry.clone())),
        next: set
            .next_after(&problem.id)
            .map(|p| Item::link(problem_href(game, set, p), ui.next_problem.clone())),
    }
    .render()?;
    Ok((board, status))
}

/// `line[from..]` in the game's notation, HTML-escaped, the moves before `upto` in bold.
fn line_html(problem: &Problem, line: &[String], from: usize, upto: usize) -> String {
    (from..line.len())
        .map(|i| {
            let m = super::kit::escape(&problem.puzzle.notation(&line[..i], &line[i]));
            if i < upto {
                format!("<b>{m}</b>")
            } else {
                m
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// The "show why" address for a solved or failed Go life-and-death problem: the proof
/// from the start once solved, the refutation of the wrong move after a wrong one.
fn why_link(problem: &Problem, judged: &Judged, at: &dyn Fn(&str) -> String) -> Option<String> {
    let Puzzle::Go(go) = &problem.puzzle else {
        return None;
    };
    if !go.has_why() {
        return None;
    }
    match &judged.verdict {
        Some(Verdict::Wrong { shown, .. }) => {
            let wrong = shown.get(judged.progress.moves.len())?;
            Some(at(&format!(
                "{}w={}&why=1",
                judged.progress.query(),
                enc(wrong)
            )))
        }
        _ if judged.solved => Some(at("why=1")),
        _ => None,
    }
}

/// "Show why", step by step: the board after `step` moves of the solver's line and a
/// status fragment with the line, as lesson diagrams step. With `wrong`, the line is the
/// refutation of the learner's wrong move after `progress`; without, the proof.
pub(crate) fn why(
    game: Game,
    set: &ProblemSet,
    problem: &Problem,
    progress: &Progress,
    wrong: Option<&str>,
    step: usize,
    lang: Lang,
) -> Result<(String, String), askama::Error> {
    let ui = Ui::get(lang);
    let base = problem_href(game, set, problem);
    let query = progress.query();
    let found = match &problem.puzzle {
        Puzzle::Go(go) => go.why_line(&progress.moves, wrong),
        _ => None,
    };
    let (line, from, explanation) = match &found {
        Some(WhyLine::Proof(line)) => (line.clone(), 0, ui.why_proof.clone()),
        Some(WhyLine::Refutation(line)) => (
            line.clone(),
            progress.moves.len(),
            fill(
                &ui.why_refutation,
                &[(
                    "move",
                    &problem
                        .puzzle
                        .notation(&progress.moves, wrong.unwrap_or("")),
                )],
            ),
        ),
        None => (
            progress.moves.clone(),
            progress.moves.len(),
            ui.why_unknown.clone(),
        ),
    };
    let steps = line.len() - from;
    let step = step.clamp(1, steps.max(1));
    let judged = Judged {
        verdict: None,
        progress: progress.clone(),
        shown: line[..(from + step).min(line.len())].to_vec(),
        solved: false,
        open: false,
        choices: Vec::new(),
    };
    let board = board(game, set, problem, &judged, lang);
    let wrong_q = wrong.map_or(String::new(), |w| format!("w={}&", enc(w)));
    let at = |n: usize| format!("{base}?{query}{wrong_q}why={n}");
    let mut choices = Vec::new();
    if step > 1 {
        choices.push(Item::link(at(step - 1), format!("← {}", ui.prev_step)));
    }
    if step < steps {
        choices.push(Item::link(at(step + 1), format!("{} →", ui.next_step)));
    }
    let status = StatusView {
        kind: "solution",
        headline: ui.why_title.clone(),
        message: line_html(problem, &line, from, from + step),
        explanation,
        explanation_title: ui.explanation.clone(),
        choices,
        other_lines: Vec::new(),
        other_lines_title: String::new(),
        take_back: wrong.map(|_| Item::link(format!("{base}?{query}"), ui.take_back.clone())),
        why: None,
        retry: Some(Item::link(base.clone(), ui.retry.clone())),
        next: None,
    }
    .render()?;
    Ok((board, status))
}

#[derive(Template)]
#[template(path = "problem.html")]
struct ProblemPage {
    chrome: Chrome,
    game_name: &'static str,
    game_href: String,
    set_title: String,
    set_href: String,
    label: String,
    prompt: String,
    to_play: String,
    difficulty: String,
    board: String,
    status: String,
    hint: String,
    solution_href: String,
    /// The record download (SGF for a Go problem).
    record_href: Option<String>,
    /// `black`, `white` or `result` for a count problem, where the learner types the answer.
    count: String,
    key: String,
    game: &'static str,
    set: String,
    id: String,
    moves: String,
    picked: String,
    selected: String,
    prev: Option<String>,
    next: Option<String>,
}

/// `GET /{game}/problems/{set}/{id}?m=…&p=…&sel=…&play=…`.
pub async fn page(
    State(app): State<AppState>,
    found: FoundSet,
    At(ProblemAt { id, .. }): At<ProblemAt>,
) -> Response {
    let (req, snap, shelf, set) = (&found.req, &found.snap, found.shelf(), found.set());
    let Some(index) = set.problems.iter().position(|p| p.id == id) else {
        return missing(&req, &snap);
    };
    let problem = &set.problems[index];
    let ui = req.ui();
    let (progress, input) = from_address(req);
    let (before, played) = (
        progress.moves.clone(),
        input.played(progress.selected.as_deref()),
    );
    let at = (shelf.game, set.slug.as_str(), problem.id.as_str());
    let judged = match judge_off_async(&snap.library, at, progress, input).await {
        Ok(Some(judged)) => judged,
        Ok(None) => return missing(&req, &snap),
        Err(e) => return e.into_response(),
    };
    if req.account.is_some() {
        let key = (shelf.game, set.slug.as_str(), problem.id.as_str());
        let kept = match &judged.verdict {
            Some(v) => {
                super::session::record_move(
                    &app,
                    req.account.as_ref(),
                    key,
                    &before,
                    played,
                    v.kind(),
                )
                .await
            }
            None => Ok(()),
        };
        let kept = match kept {
            Ok(()) if req.param("solution") == Some("1") => {
                super::session::record_solution(&app, req.account.as_ref(), key).await
            }
            kept => kept,
        };
        if let Err(e) = kept {
            return super::kit::store_failed(&req, &snap, &e);
        }
    }
    let why_step = req.param("why").and_then(|s| s.parse().ok());
    let shown = match (why_step, req.param("solution").and_then(|s| s.parse().ok())) {
        (Some(step), _) => why(
            shelf.game,
            set,
            problem,
            &judged.progress,
            req.param("w").filter(|w| w.len() <= 4),
            step,
            req.lang,
        ),
        (None, Some(step)) => solution(shelf.game, set, problem, step, req.lang),
        (None, None) => status(shelf.game, set, problem, &judged, req.lang)
            .map(|status| (board(shelf.game, set, problem, &judged, req.lang), status)),
    };
    let (board_svg, status_html) = match shown {
        Ok(shown) => shown,
        Err(e) => return respond(&req, StatusCode::OK, Err(e)),
    };
    let label = fill(&ui.problem, &[("n", &(index + 1).to_string())]);
    let game = shelf.game;
    let page = ProblemPage {
        chrome: Chrome::new(
            &req,
            &snap,
            format!("{} · {}", set.title.get(req.lang), label),
        ),
        game_name: game.name(req.lang),
        game_href: urls::game(game),
        set_title: set.title.get(req.lang).to_string(),
        set_href: urls::set(game, &set.slug),
        label,
        prompt: problem.prompt.get(req.lang).to_string(),
        to_play: problem
            .puzzle
            .to_play()
            .map(|key| ui.key(key).unwrap_or(key).to_string())
            .unwrap_or_default(),
        difficulty: "●".repeat(problem.difficulty as usize),
        board: board_svg,
        status: status_html,
        solution_href: format!("{}?solution=1", problem_href(game, set, problem)),
        record_href: (problem.puzzle.record() == Some(RecordFormat::Sgf))
            .then(|| urls::problem_record(game, &set.slug, &problem.id)),
        key: super::kit::progress_key(game, set, problem),
        count: match problem.puzzle.input() {
            Takes::Count(ask) => ask.name().to_string(),
            _ => String::new(),
        },
        hint: problem
            .hint
            .as_ref()
            .map(|h| h.get(req.lang).to_string())
            .unwrap_or_default(),
        game: game.slug(),
        set: set.slug.clone(),
        id: problem.id.clone(),
        moves: judged.progress.moves.join(","),
        picked: judged.progress.picked.join(","),
        selected: judged.progress.selected.clone().unwrap_or_default(),
        prev: index
            .checked_sub(1)
            .map(|i| problem_href(game, set, &set.problems[i])),
        next: set
            .problems
            .get(index + 1)
            .map(|p| problem_href(game, set, p)),
    };
    respond(&req, StatusCode::OK, page.render())
}

/// One problem on a worksheet.
struct SheetProblem {
    number: usize,
    prompt: String,
    board: String,
    answer: String,
}

#[derive(Template)]
#[template(path = "worksheet.html")]
struct WorksheetPage {
    chrome: Chrome,
    title: String,
    set_href: String,
    problems: Vec<SheetProblem>,
}

/// `GET /go/problems/{set}/{id}/sgf`: a Go problem as an SGF file, with its lines.
pub async fn problem_sgf(found: FoundSet, At(ProblemAt { id, .. }): At<ProblemAt>) -> Response {
    let (req, set) = (&found.req, found.set());
    match set
        .problem(&id)
        .and_then(|p| crate::import::sgf::problem_to_sgf(p, req.lang))
    {
        Some(sgf) => super::kit::sgf_response(&format!("{}-{id}", set.slug), sgf),
        None => StatusCode::NOT_FOUND.into_response(),
    }
}

/// `GET /{game}/worksheets/{set}`: every problem of a set on A4 pages, answers at the end.
pub async fn worksheet(found: FoundSet) -> Response {
    let (req, snap, shelf, set) = (&found.req, &found.snap, found.shelf(), found.set());
    let lang = req.lang;
    let problems = set
        .problems
        .iter()
        .enumerate()
        .map(|(i, problem)| {
            let judged = judge(problem, Progress::default(), Input::None);
            let answer = problem.puzzle.answer_key();
            SheetProblem {
                number: i + 1,
                prompt: problem.prompt.get(lang).to_string(),
                board: problem.puzzle.board(&BoardRequest {
                    shown: &judged.shown,
                    picked: &[],
                    selected: None,
                    href: None,
                    lang,
                    title: problem.prompt.get(lang),
                }),
                answer,
            }
        })
        .collect();
    let page = WorksheetPage {
        chrome: Chrome::new(&req, &snap, set.title.get(lang).to_string()),
        title: set.title.get(lang).to_string(),
        set_href: urls::set(shelf.game, &set.slug),
        problems,
    };
    respond(&req, StatusCode::OK, page.render())
}
