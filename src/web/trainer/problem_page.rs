//! The problem page, a problem's SGF and a set's worksheet.

use super::status::{solution, why};
use super::*;

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

/// Why a problem page cannot be shown.
pub(super) enum ProblemError {
    /// No such problem, the classroom's store failed, or a template failed.
    Page(PageError),
    /// The move was not judged.
    NotJudged(NotJudged),
}

impl From<PageError> for ProblemError {
    fn from(e: PageError) -> ProblemError {
        ProblemError::Page(e)
    }
}

impl From<NotJudged> for ProblemError {
    fn from(e: NotJudged) -> ProblemError {
        ProblemError::NotJudged(e)
    }
}

impl IntoResponse for ProblemError {
    fn into_response(self) -> Response {
        match self {
            ProblemError::Page(e) => e.into_response(),
            ProblemError::NotJudged(e) => e.into_response(),
        }
    }
}

/// `GET /{game}/problems/{set}/{id}?m=…&p=…&sel=…&play=…`.
pub async fn page(
    State(app): State<AppState>,
    found: FoundSet,
    At(ProblemAt { id, .. }): At<ProblemAt>,
) -> Result<Response, ProblemError> {
    let (req, snap, shelf, set) = (&found.req, &found.snap, found.shelf(), found.set());
    let index = set
        .problems
        .iter()
        .position(|p| p.id == id)
        .ok_or_else(|| PageError::missing(req, snap))?;
    let problem = &set.problems[index];
    let ui = req.ui();
    let (progress, input) = from_address(req);
    let (before, played) = (
        progress.moves.clone(),
        input.played(progress.selected.as_deref()),
    );
    let at = (shelf.game, set.slug.as_str(), problem.id.as_str());
    let judged = judge_off_async(&snap.library, at, progress, input)
        .await?
        .ok_or_else(|| PageError::missing(req, snap))?;
    if req.account.is_some() {
        let key = (shelf.game, set.slug.as_str(), problem.id.as_str());
        let kept = match &judged.verdict {
            Some(v) => {
                crate::web::session::record_move(
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
                crate::web::session::record_solution(&app, req.account.as_ref(), key).await
            }
            kept => kept,
        };
        kept.map_err(|e| PageError::store(req, snap, e))?;
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
    let (board_svg, status_html) = shown.map_err(|e| PageError::template(req, snap, e))?;
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
        record_href: (problem.puzzle.record().is_some())
            .then(|| urls::problem_record(game, &set.slug, &problem.id)),
        key: crate::web::kit::progress_key(game, set, problem),
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
    Ok(respond(req, StatusCode::OK, page.render()))
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
        Some(sgf) => crate::web::kit::sgf_response(&format!("{}-{id}", set.slug), sgf),
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
                    heat: None,
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
