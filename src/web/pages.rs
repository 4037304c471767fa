//! HTML pages: home, game index, lessons with step diagrams, problem sets and problems.

use super::i18n::{fill, Ui};
use super::kit::{
    missing, progress_key, respond, respond_bytes, sgf_response, At, Chrome, DiagramAt,
    FoundLesson, FoundSet, GameAt, Item, Req,
};
use super::state::{PageKey, Snapshot};
use super::trainer;
use super::urls;
use super::AppState;
use crate::content::{Diagram, Game, Lesson, ProblemSet, Segment, Shelf};
use crate::lang::Lang;
use askama::Template;
use axum::body::Bytes;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;

/// The routes of the pages: home, game index, lessons, problem sets.
pub(super) fn routes() -> Router<AppState> {
    Router::new()
        .route("/", get(home))
        .route("/{game}", get(game))
        .route("/{game}/lessons/{slug}", get(lesson))
        .route("/{game}/lessons/{slug}/diagram/{index}", get(diagram))
        .route("/{game}/lessons/{slug}/print", get(lesson_print))
        .route(
            "/{game}/lessons/{slug}/diagram/{index}/sgf",
            get(diagram_sgf),
        )
        .route("/{game}/problems/{set}", get(set))
}

/// A link to a lesson, with its summary.
fn lesson_item(game: Game, lesson: &Lesson, lang: Lang) -> Item {
    Item {
        href: urls::lesson(game, &lesson.slug),
        title: lesson.text(lang).title.clone(),
        note: lesson.text(lang).summary.clone().unwrap_or_default(),
        keys: String::new(),
    }
}

/// A link to a problem set, with its number of problems.
fn set_item(game: Game, set: &ProblemSet, lang: Lang) -> Item {
    Item {
        href: urls::set(game, &set.slug),
        title: set.title.get(lang).to_string(),
        note: fill(
            &Ui::get(lang).problem_count,
            &[("n", &set.problems.len().to_string())],
        ),
        keys: set
            .problems
            .iter()
            .map(|p| progress_key(game, set, p))
            .collect::<Vec<_>>()
            .join(","),
    }
}

struct GameCard {
    name: &'static str,
    slug: &'static str,
    href: String,
    lessons: Vec<Item>,
    sets: Vec<Item>,
    counts: String,
}

fn game_card(shelf: &Shelf, lang: Lang) -> GameCard {
    let ui = Ui::get(lang);
    let problems: usize = shelf.sets.iter().map(|s| s.problems.len()).sum();
    GameCard {
        name: shelf.game.name(lang),
        slug: shelf.game.slug(),
        href: urls::game(shelf.game),
        lessons: shelf
            .lessons
            .iter()
            .map(|l| lesson_item(shelf.game, l, lang))
            .collect(),
        sets: shelf
            .sets
            .iter()
            .map(|s| set_item(shelf.game, s, lang))
            .collect(),
        counts: format!(
            "{} · {}",
            fill(&ui.lesson_count, &[("n", &shelf.lessons.len().to_string())]),
            fill(&ui.problem_count, &[("n", &problems.to_string())])
        ),
    }
}

#[derive(Template)]
#[template(path = "home.html")]
struct HomePage {
    chrome: Chrome,
    games: Vec<GameCard>,
}

/// `GET /`.
pub async fn home(State(state): State<AppState>, req: Req) -> Response {
    let snap = state.snapshot();
    let page = HomePage {
        chrome: Chrome::new(&req, &snap, req.ui().site_name.clone()),
        games: snap
            .library
            .shelves
            .iter()
            .map(|s| game_card(s, req.lang))
            .collect(),
    };
    respond(&req, StatusCode::OK, page.render())
}

#[derive(Template)]
#[template(path = "game.html")]
struct GamePage {
    chrome: Chrome,
    game: GameCard,
}

/// `GET /{game}`.
pub async fn game(
    State(state): State<AppState>,
    req: Req,
    At(GameAt { game }): At<GameAt>,
) -> Response {
    let snap = state.snapshot();
    let Some(shelf) = snap.library.shelf(game) else {
        return missing(&req, &snap);
    };
    let card = game_card(shelf, req.lang);
    let page = GamePage {
        chrome: Chrome::new(&req, &snap, card.name.to_string()),
        game: card,
    };
    respond(&req, StatusCode::OK, page.render())
}

#[derive(Template)]
#[template(path = "diagram.html")]
struct DiagramView<'a> {
    ui: &'static Ui,
    anchor: String,
    svg: &'a str,
    say: Option<&'a str>,
    step: usize,
    total: usize,
    step_label: String,
    prev_href: Option<String>,
    next_href: Option<String>,
    fragment_base: String,
    sgf_href: Option<String>,
    task: Option<TaskView>,
}

/// A step that asks the learner to act, as the diagram shows it.
struct TaskView {
    /// The board with a link on every point or square while the task is open.
    board: String,
    /// Who is to play, when the task asks for a move.
    to_play: String,
    /// The verdict and what to do next (HTML).
    status: String,
    hint: String,
    solved: bool,
    game: &'static str,
    lesson: String,
    diagram: usize,
    moves: String,
    picked: String,
    selected: String,
}

/// Steps of every diagram of a lesson, from `?s=`: `I:K` puts diagram `I` (from 0) at step
/// `K` (`?s=2:1`, or several, `?s=0:3,2:1`); a plain list gives the steps in order
/// (`?s=0,2,1`). Diagrams not named are at their start; steps past the end are the last.
fn steps_from(req: &Req, diagrams: &[Diagram]) -> Vec<usize> {
    let mut steps = vec![0; diagrams.len()];
    let given = req.param("s").unwrap_or("").split(',');
    for (position, entry) in given.take(diagrams.len()).enumerate() {
        let (index, step) = match entry.split_once(':') {
            Some((i, k)) => (i.trim().parse().ok(), k),
            None => (Some(position), entry),
        };
        if let (Some(i), Ok(k)) = (index, step.trim().parse::<usize>()) {
            if let (Some(slot), Some(d)) = (steps.get_mut(i), diagrams.get(i)) {
                *slot = k.min(d.frames.len() - 1);
            }
        }
    }
    steps
}

/// The diagram `t=I` whose task the address's `m`, `p`, `sel` and `play` are for.
fn task_diagram(req: &Req) -> Option<usize> {
    req.param("t").and_then(|t| t.trim().parse().ok())
}

/// The address of diagram `index` of a lesson at `step`, with a task's `query` (may be
/// empty), ending with the diagram's anchor.
pub(crate) fn step_href(
    base: &str,
    index: usize,
    step: usize,
    query: &str,
    anchor: &str,
) -> String {
    if query.is_empty() {
        format!("{base}?s={index}:{step}#{anchor}")
    } else {
        format!("{base}?s={index}:{step}&t={index}&{query}#{anchor}")
    }
}

/// The anchor of diagram `index`: `d-ID`, or `d3` for the third.
pub(crate) fn diagram_anchor(d: &Diagram, index: usize) -> String {
    match &d.id {
        Some(id) => format!("d-{id}"),
        None => format!("d{}", index + 1),
    }
}

/// Draws diagram `index` of a lesson at `steps[index]`; when that step is a task, the
/// learner's `progress` and `input` there (from the address or a script) are judged, and the
/// judgement is returned with the HTML.
pub(crate) fn render_diagram(
    lang: Lang,
    game: Game,
    lesson: &Lesson,
    diagrams: &[Diagram],
    steps: &[usize],
    index: usize,
    task_state: Option<(trainer::Progress, trainer::Input)>,
) -> Result<(String, Option<trainer::Judged>), askama::Error> {
    let ui = Ui::get(lang);
    let d = &diagrams[index];
    let step = steps[index];
    let frame = &d.frames[step];
    let total = d.frames.len() - 1;
    let base = urls::lesson(game, &lesson.slug);
    let anchor = diagram_anchor(d, index);
    // A step link names only its own diagram, so a page's size grows with its diagrams
    // alone (the others go back to their start when followed without the script).
    let href = |s: usize| step_href(&base, index, s, "", &anchor);
    let mut say = if step == 0 {
        d.caption.as_deref()
    } else {
        frame.say.as_deref()
    };
    let mut judgement = None;
    let task = match &frame.task {
        None => None,
        Some(problem) => {
            let (progress, input) = task_state.unwrap_or_default();
            let judged = trainer::judge(problem, progress, input);
            let at = |q: &str| step_href(&base, index, step, q, &anchor);
            let next = (step < total).then(|| Item::link(href(step + 1), ui.next_step.clone()));
            let place = trainer::Place {
                href: &at,
                next,
                explain: false,
            };
            if judged.solved {
                say = problem.explanation.as_ref().map(|e| e.get(lang)).or(say);
            }
            let view = Some(TaskView {
                board: trainer::board_at(problem, &judged, lang, &at),
                to_play: problem
                    .puzzle
                    .to_play()
                    .map(|key| ui.key(key).unwrap_or(key).to_string())
                    .unwrap_or_default(),
                status: trainer::status_at(problem, &judged, lang, &place)?,
                hint: problem
                    .hint
                    .as_ref()
                    .map(|h| h.get(lang).to_string())
                    .unwrap_or_default(),
                solved: judged.solved,
                game: game.slug(),
                lesson: lesson.slug.clone(),
                diagram: index,
                moves: judged.progress.moves.join(","),
                picked: judged.progress.picked.join(","),
                selected: judged.progress.selected.clone().unwrap_or_default(),
            });
            judgement = Some(judged);
            view
        }
    };
    // The step after a task opens once the task is done.
    let locked = task.as_ref().is_some_and(|t| !t.solved);
    DiagramView {
        ui,
        anchor: anchor.clone(),
        svg: frame.svg(),
        say,
        step,
        total,
        step_label: if step == 0 {
            ui.start_position.clone()
        } else {
            fill(
                &ui.step_of,
                &[("i", &step.to_string()), ("n", &total.to_string())],
            )
        },
        prev_href: (step > 0).then(|| href(step - 1)),
        next_href: (step < total && !locked).then(|| href(step + 1)),
        fragment_base: urls::diagram(game, &lesson.slug, index),
        sgf_href: d
            .go_line
            .as_ref()
            .map(|_| urls::diagram_sgf(game, &lesson.slug, index)),
        task,
    }
    .render()
    .map(|html| (html, judgement))
}

#[derive(Template)]
#[template(path = "lesson.html")]
struct LessonPage {
    chrome: Chrome,
    game_name: &'static str,
    game_href: String,
    title: String,
    parts: Vec<String>,
    prev: Option<Item>,
    next: Option<Item>,
    practise: Vec<Item>,
    print_href: String,
    /// The game's and the lesson's slugs, for a student's "I have read it" form.
    game_slug: &'static str,
    slug: String,
    /// The student has just marked it read.
    read: bool,
}

/// `GET /{game}/lessons/{slug}`.
pub async fn lesson(State(app): State<AppState>, found: FoundLesson) -> Response {
    let (req, snap, shelf, lesson) = (&found.req, &found.snap, found.shelf(), found.lesson());
    let text = lesson.text(req.lang);
    let steps = steps_from(&req, &text.diagrams);
    // A lesson depends only on its language and its diagrams' steps: rendered once for
    // each, from the canonical address, however the address was spelled.
    let state: Vec<String> = (steps.iter().enumerate())
        .filter(|(_, &k)| k > 0)
        .map(|(i, k)| format!("{i}:{k}"))
        .collect();
    if req.account.is_some() && req.param("s").is_none() {
        super::session::record_opened(&app, req.account.as_ref(), shelf.game, &lesson.slug).await;
    }
    // Pages of a logged-in learner carry their name: not kept in the cache.
    let cache_key = (req.account.is_none()
        && req.query.iter().all(|(k, _)| k == "lang" || k == "s"))
    .then(|| PageKey {
        game: shelf.game,
        page: format!("lessons/{}", lesson.slug),
        lang: req.lang,
        state: state.join(","),
    });
    if let Some(page) = cache_key.as_ref().and_then(|k| snap.cache.get(k)) {
        return respond_bytes(&req, StatusCode::OK, page);
    }
    let canonical = cache_key.as_ref().map(|k| Req {
        lang: req.lang,
        chosen: req.chosen,
        path: format!("/{}/{}", shelf.game.slug(), k.page),
        query: (!k.state.is_empty())
            .then(|| ("s".to_string(), k.state.clone()))
            .into_iter()
            .collect(),
        account: None,
        host: req.host.clone(),
    });
    let req = canonical.as_ref().unwrap_or(&req);
    let parts = text
        .body
        .iter()
        .map(|seg| match seg {
            Segment::Html(h) => Ok(h.clone()),
            Segment::Diagram(i) => {
                let state = (task_diagram(&found.req) == Some(*i))
                    .then(|| trainer::from_address(&found.req));
                render_diagram(
                    req.lang,
                    shelf.game,
                    lesson,
                    &text.diagrams,
                    &steps,
                    *i,
                    state,
                )
                .map(|(html, _)| html)
            }
        })
        .collect::<Result<Vec<_>, _>>();
    let parts = match parts {
        Ok(parts) => parts,
        Err(e) => return respond(req, StatusCode::OK, Err(e)),
    };
    let i = shelf
        .lessons
        .iter()
        .position(|l| l.slug == lesson.slug)
        .unwrap_or(0);
    let link = |l: &Lesson| lesson_item(shelf.game, l, req.lang);
    let page = LessonPage {
        chrome: Chrome::new(&req, &snap, text.title.clone()),
        game_name: shelf.game.name(req.lang),
        game_href: urls::game(shelf.game),
        title: text.title.clone(),
        parts,
        print_href: urls::lesson_print(shelf.game, &lesson.slug),
        game_slug: shelf.game.slug(),
        slug: lesson.slug.clone(),
        read: found.req.param("read").is_some(),
        prev: i
            .checked_sub(1)
            .and_then(|j| shelf.lessons.get(j))
            .map(link),
        next: shelf.lessons.get(i + 1).map(link),
        practise: shelf
            .sets
            .iter()
            .filter(|s| s.lesson.as_deref() == Some(lesson.slug.as_str()))
            .map(|s| set_item(shelf.game, s, req.lang))
            .collect(),
    };
    match (page.render(), cache_key) {
        (Ok(html), Some(key)) => {
            let html = Bytes::from(html);
            snap.cache.put(key, html.clone());
            respond_bytes(&req, StatusCode::OK, html)
        }
        (html, _) => respond(&req, StatusCode::OK, html),
    }
}

/// One frame of a diagram on the print page.
struct PrintFrame<'a> {
    svg: &'a str,
    label: String,
    say: &'a str,
}

#[derive(Template)]
#[template(path = "lesson_print.html")]
struct LessonPrintPage<'a> {
    chrome: Chrome,
    title: String,
    back: String,
    parts: Vec<PrintPart<'a>>,
}

enum PrintPart<'a> {
    Html(&'a str),
    Frames(Vec<PrintFrame<'a>>),
}

/// `GET /{game}/lessons/{slug}/print`: the lesson with every frame of every diagram.
pub async fn lesson_print(found: FoundLesson) -> Response {
    let (req, snap, shelf, lesson) = (&found.req, &found.snap, found.shelf(), found.lesson());
    let ui = req.ui();
    let text = lesson.text(req.lang);
    let parts = text
        .body
        .iter()
        .map(|seg| match seg {
            Segment::Html(h) => PrintPart::Html(h),
            Segment::Diagram(i) => {
                let d = &text.diagrams[*i];
                PrintPart::Frames(
                    d.frames
                        .iter()
                        .enumerate()
                        .map(|(n, f)| PrintFrame {
                            svg: f.svg(),
                            label: if n == 0 {
                                ui.start_position.clone()
                            } else {
                                fill(
                                    &ui.step_of,
                                    &[
                                        ("i", &n.to_string()),
                                        ("n", &(d.frames.len() - 1).to_string()),
                                    ],
                                )
                            },
                            say: if n == 0 {
                                d.caption.as_deref().unwrap_or("")
                            } else {
                                f.say.as_deref().unwrap_or("")
                            },
                        })
                        .collect(),
                )
            }
        })
        .collect();
    let page = LessonPrintPage {
        chrome: Chrome::new(&req, &snap, text.title.clone()),
        title: text.title.clone(),
        back: urls::lesson(shelf.game, &lesson.slug),
        parts,
    };
    respond(&req, StatusCode::OK, page.render())
}

/// `GET /go/lessons/{slug}/diagram/{index}/sgf`: a Go diagram as an SGF file.
pub async fn diagram_sgf(
    found: FoundLesson,
    At(DiagramAt { index, .. }): At<DiagramAt>,
) -> Response {
    let (req, lesson) = (&found.req, found.lesson());
    let text = lesson.text(req.lang);
    let Some((start, moves)) = text.diagrams.get(index).and_then(|d| d.go_line.as_ref()) else {
        return StatusCode::NOT_FOUND.into_response();
    };
    let line = crate::import::sgf::SgfLine {
        moves: moves.clone(),
        right: false,
        comment: None,
    };
    let lines = if moves.is_empty() {
        Vec::new()
    } else {
        vec![line]
    };
    let caption = text.diagrams[index].caption.as_deref();
    match crate::import::sgf::to_sgf(start, caption, &lines) {
        Some(sgf) => sgf_response(&format!("{}-{}", lesson.slug, index + 1), sgf),
        None => StatusCode::NOT_FOUND.into_response(),
    }
}

/// `GET /{game}/lessons/{slug}/diagram/{index}?s=…`: one diagram figure, for the script.
pub async fn diagram(found: FoundLesson, At(DiagramAt { index, .. }): At<DiagramAt>) -> Response {
    let (req, shelf, lesson) = (&found.req, found.shelf(), found.lesson());
    let text = lesson.text(req.lang);
    if index >= text.diagrams.len() {
        return StatusCode::NOT_FOUND.into_response();
    }
    let steps = steps_from(&req, &text.diagrams);
    let state = (task_diagram(req) == Some(index)).then(|| trainer::from_address(req));
    let html = render_diagram(
        req.lang,
        shelf.game,
        lesson,
        &text.diagrams,
        &steps,
        index,
        state,
    )
    .map(|(html, _)| html);
    respond(&req, StatusCode::OK, html)
}

#[derive(Template)]
#[template(path = "set.html")]
struct SetPage {
    chrome: Chrome,
    worksheet_href: String,
    game_name: &'static str,
    game_href: String,
    title: String,
    summary: String,
    lesson: Option<Item>,
    problems: Vec<Item>,
}

/// `GET /{game}/problems/{set}`.
pub async fn set(found: FoundSet) -> Response {
    let (req, snap, shelf, set) = (&found.req, &found.snap, found.shelf(), found.set());
    let ui = req.ui();
    let page = SetPage {
        chrome: Chrome::new(&req, &snap, set.title.get(req.lang).to_string()),
        worksheet_href: urls::worksheet(shelf.game, &set.slug),
        game_name: shelf.game.name(req.lang),
        game_href: urls::game(shelf.game),
        title: set.title.get(req.lang).to_string(),
        summary: set
            .summary
            .as_ref()
            .map(|s| s.get(req.lang).to_string())
            .unwrap_or_default(),
        lesson: set
            .lesson
            .as_ref()
            .and_then(|l| shelf.lesson(l))
            .map(|l| lesson_item(shelf.game, l, req.lang)),
        problems: set
            .problems
            .iter()
            .enumerate()
            .map(|(i, p)| Item {
                href: urls::problem(shelf.game, &set.slug, &p.id),
                title: fill(&ui.problem, &[("n", &(i + 1).to_string())]),
                note: p.prompt.get(req.lang).to_string(),
                keys: progress_key(shelf.game, set, p),
            })
            .collect(),
    };
    respond(&req, StatusCode::OK, page.render())
}

pub(crate) fn find_set<'a>(
    snap: &'a Snapshot,
    game: Game,
    set: &str,
) -> Option<(&'a Shelf, &'a ProblemSet)> {
    let shelf = snap.library.shelf(game)?;
    Some((shelf, shelf.set(set)?))
}

/// Any other address.
pub async fn not_found(State(state): State<AppState>, req: Req) -> Response {
    missing(&req, &state.snapshot())
}
