//! The live board: a teacher opens one problem for the whole class, every logged-in student's
//! screen switches to it, each student sends a first move, and the teacher's screen shows a
//! heat map of the answers as they arrive; then the teacher reveals the answer.
//!
//! Kept in memory, bounded: one board a class (made when the class's teacher or one of its
//! students first looks), one answer a student of that class (so at most the class's size),
//! a board idle for [`IDLE`] is dropped and its streams end. Every stream of events ends after
//! [`STREAM_LIFETIME`] (the browser's `EventSource` reconnects); the server's request timeout
//! covers only the answer's head, so it does not cut a stream.
//!
//! A student's verdict is shown to them only after the reveal (so that neighbours cannot copy
//! a "correct!" off a screen); an illegal move or an unreadable count is refused at once, as it
//! is no answer. Each answer a student sends (a changed one too) is judged by the puzzles'
//! judge and recorded as a try, so the dashboard sees it.
//!
//! Statuses follow [`super::session`]: a student of another class never reaches this class's
//! board (the student routes name no class: they always mean the student's own), a teacher
//! asking for another teacher's class gets `404`.

use super::i18n::{fill, Ui};
use super::kit::{blocking, message, store_failed};
use super::kit::{enc, respond, Chrome};
use super::session::{record_move, Signed};
use super::small;
use super::state::Snapshot;
use super::trainer::{judge, Input, Progress};
use super::AppState;
use crate::class::{ClassId, StudentId, Task};
use crate::content::{Action, BoardRequest, Game, Input as Takes, Problem, ProblemSet, Verdict};
use crate::lang::Lang;
use askama::Template;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Redirect, Response};
use axum::routing::{get, post};
use axum::Form;
use axum::Router;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashMap, HashSet};
use std::convert::Infallible;
use std::fmt::Write;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};
use tokio::sync::watch;

/// The routes of the live board: the students' and the teacher's.
pub(super) fn routes() -> Router<AppState> {
    Router::new()
        .route("/live", get(student_page))
        .route("/live/answer", post(answer).layer(small()))
        .route("/live/events", get(student_events))
        .route(
            "/teacher/classes/{id}/live",
            get(teacher_page).post(start).layer(small()),
        )
        .route(
            "/teacher/classes/{id}/live/reveal",
            post(reveal).layer(small()),
        )
        .route("/teacher/classes/{id}/live/next", post(next).layer(small()))
        .route("/teacher/classes/{id}/live/stop", post(stop).layer(small()))
        .route("/teacher/classes/{id}/live/events", get(teacher_events))
}

/// A board nobody touched for this long is dropped.
pub const IDLE: Duration = Duration::from_secs(2 * 3600);
/// How long one stream of events stays open.
pub const STREAM_LIFETIME: Duration = Duration::from_secs(30 * 60);
/// A student counts as here while one of their pages listened this recently.
pub const HERE: Duration = Duration::from_secs(75);
/// How often a student's open stream says the student is still here.
const HEARTBEAT: Duration = Duration::from_secs(30);
/// How many times a student may change their answer to one problem.
pub const CHANGES: u32 = 20;

/// The live problem: which one, and where it is in the content.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LiveProblem {
    /// The game.
    pub game: Game,
    /// The set's slug.
    pub set: String,
    /// The problem's id.
    pub id: String,
}

impl LiveProblem {
    /// `go/problems/captures/3`.
    pub fn path(&self) -> String {
        format!("{}/problems/{}/{}", self.game.slug(), self.set, self.id)
    }

    /// Finds the problem in the content.
    fn find<'a>(&self, snap: &'a Snapshot) -> Option<(&'a ProblemSet, &'a Problem)> {
        let shelf = snap.library.shelves.iter().find(|s| s.game == self.game)?;
        let set = shelf.sets.iter().find(|s| s.slug == self.set)?;
        Some((set, set.problem(&self.id)?))
    }
}

/// One student's answer.
#[derive(Clone, Debug)]
struct Answer {
    /// The move (or count) as sent.
    played: String,
    /// The judge's verdict (`solved`, `correct`, `wrong`, `found`, `not-answer`).
    verdict: &'static str,
    /// Times changed.
    changes: u32,
}

impl Answer {
    fn right(&self) -> bool {
        matches!(self.verdict, "solved" | "correct" | "found")
    }
}

/// What a board holds now.
#[derive(Debug)]
struct Round {
    problem: Option<LiveProblem>,
    /// Goes up each time the problem starts, changes or stops.
    number: u64,
    revealed: bool,
    answers: HashMap<StudentId, Answer>,
    here: HashMap<StudentId, Instant>,
    /// The class's students when the problem started.
    class_size: usize,
    touched: Instant,
}

/// The live board of one class.
pub struct LiveBoard {
    round: Mutex<Round>,
    /// Bumped when the problem starts, changes, is revealed or stops (students listen).
    rounds: watch::Sender<u64>,
    /// Bumped on every change, answers and arrivals too (the teacher listens).
    counts: watch::Sender<u64>,
    closed: std::sync::atomic::AtomicBool,
}

impl LiveBoard {
    fn new() -> LiveBoard {
        LiveBoard {
            round: Mutex::new(Round {
                problem: None,
                number: 0,
                revealed: false,
                answers: HashMap::new(),
                here: HashMap::new(),
                class_size: 0,
                touched: Instant::now(),
            }),
            rounds: watch::channel(0).0,
            counts: watch::channel(0).0,
            closed: false.into(),
        }
    }

    fn lock(&self) -> MutexGuard<'_, Round> {
        self.round.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn bump(&self, round_changed: bool) {
        if round_changed {
            self.rounds.send_modify(|v| *v += 1);
        }
        self.counts.send_modify(|v| *v += 1);
    }

    fn is_closed(&self) -> bool {
        self.closed.load(std::sync::atomic::Ordering::Relaxed)
    }

    /// Marks `student` as here; tells the teacher when they were not.
    fn arrive(&self, student: StudentId) {
        let new = {
            let mut r = self.lock();
            let now = Instant::now();
            let before = r.here.insert(student, now);
            before.is_none_or(|t| now.duration_since(t) >= HERE)
        };
        if new {
            self.bump(false);
        }
    }

    /// Starts `problem` for a class of `class_size` students: answers cleared.
    fn start(&self, problem: LiveProblem, class_size: usize) {
        {
            let mut r = self.lock();
            r.problem = Some(problem);
            r.number += 1;
            r.revealed = false;
            r.answers.clear();
            r.class_size = class_size;
            r.touched = Instant::now();
        }
        self.bump(true);
    }

    fn reveal(&self) {
        {
            let mut r = self.lock();
            r.revealed = true;
            r.touched = Instant::now();
        }
        self.bump(true);
    }

    fn stop(&self) {
        {
            let mut r = self.lock();
            r.problem = None;
            r.number += 1;
            r.revealed = false;
            r.answers.clear();
            r.touched = Instant::now();
        }
        self.bump(true);
    }

    /// What the students' pages need to know.
    fn student_event(&self) -> StudentEvent {
        let r = self.lock();
        StudentEvent {
            round: r.number,
            problem: r.problem.as_ref().map(LiveProblem::path),
            revealed: r.revealed,
        }
    }

    fn problem(&self) -> (Option<LiveProblem>, u64, bool) {
        let r = self.lock();
        (r.problem.clone(), r.number, r.revealed)
    }
}

/// Why an answer is not taken.
#[derive(Debug, PartialEq, Eq)]
enum Refusal {
    /// Nothing is live.
    NothingLive,
    /// The answer was for an earlier problem.
    OtherRound,
    /// The teacher has revealed the answer.
    Closed,
    /// Changed too often.
    TooManyChanges,
}

/// The live boards of a server, one a class.
#[derive(Default)]
pub struct LiveBoards {
    boards: Mutex<HashMap<ClassId, Arc<LiveBoard>>>,
}

impl LiveBoards {
    /// The board of `class`, made when there is none; boards idle for [`IDLE`] are dropped
    /// (their streams end) on the way.
    pub fn board(&self, class: ClassId) -> Arc<LiveBoard> {
        let mut boards = self.boards.lock().unwrap_or_else(|e| e.into_inner());
        boards.retain(|_, b| {
            let idle = b.lock().touched.elapsed() >= IDLE;
            if idle {
                b.closed.store(true, std::sync::atomic::Ordering::Relaxed);
                b.bump(true);
            }
            !idle
        });
        boards
            .entry(class)
            .or_insert_with(|| Arc::new(LiveBoard::new()))
            .clone()
    }

    /// How many boards are kept.
    pub fn len(&self) -> usize {
        self.boards.lock().unwrap_or_else(|e| e.into_inner()).len()
    }

    /// Whether none is.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// The event students' pages listen to.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
struct StudentEvent {
    round: u64,
    /// `go/problems/captures/3`, or none.
    problem: Option<String>,
    revealed: bool,
}

/// Where a move lands: the point or square a heat map shades (a chess or shogi move's
/// destination, a Go point, a square picked); none for a count or a pass.
///
/// ```text
/// D4 → D4   e2e4 → e4   e7e8q → e8   P*5e → 5e   7g7f+ → 7f   41 → none
/// ```
fn target(game: Game, played: &str) -> Option<String> {
    let ascii = played.is_ascii();
    match game {
        Game::Go => (ascii
            && played.len() >= 2
            && played.as_bytes()[0].is_ascii_alphabetic()
            && played[1..].bytes().all(|b| b.is_ascii_digit()))
        .then(|| played.to_string()),
        _ if ascii && played.len() == 2 => Some(played.to_string()),
        _ if ascii && played.len() >= 4 => Some(played[2..4].to_string()),
        _ => None,
    }
}

/// One point or square of a linked board: its name and its link's rectangle.
#[derive(Debug, PartialEq)]
struct Cell {
    name: String,
    x: f64,
    y: f64,
    w: f64,
    h: f64,
}

/// Reads the value of `attr="…"` in `tag`.
fn attr<'a>(tag: &'a str, attr: &str) -> Option<&'a str> {
    let at = tag.find(&format!(" {attr}=\""))? + attr.len() + 3;
    let end = tag[at..].find('"')?;
    Some(&tag[at..at + end])
}

/// Cuts a linked board's SVG into the picture without its links and the cells of the links
/// (every board draws them last, as `<g class="points">` of `<a data-p="…"><rect …/></a>`).
fn cells(svg: &str) -> Option<(&str, Vec<Cell>, (f64, f64))> {
    let start = svg.find("<g class=\"points\"")?;
    let view = attr(svg, "viewBox")?;
    let mut dims = view
        .split(' ')
        .filter_map(|n| n.parse::<f64>().ok())
        .skip(2);
    let size = (dims.next()?, dims.next()?);
    let mut out = Vec::new();
    for link in svg[start..].split("<a ").skip(1) {
        let num = |a| attr(link, a).and_then(|v| v.parse::<f64>().ok());
        let (Some(name), Some(x), Some(y), Some(w), Some(h)) = (
            attr(link, "data-p"),
            num("x"),
            num("y"),
            num("width"),
            num("height"),
        ) else {
            continue;
        };
        out.push(Cell {
            name: name.to_string(),
            x,
            y,
            w,
            h,
        });
    }
    Some((&svg[..start], out, size))
}

/// The board of `problem` with a heat map: each point or square in `counts` shaded by its
/// share of the answers, the count written on it, and those in `right` ringed.
fn heat_board(
    problem: &Problem,
    counts: &BTreeMap<String, usize>,
    right: &HashSet<String>,
    lang: Lang,
) -> String {
    let start = judge(problem, Progress::default(), Input::None);
    let href = |_: Action| String::from("#");
    let svg = problem.puzzle.board(&BoardRequest {
        shown: &start.shown,
        picked: &[],
        selected: None,
        href: Some(&href),
        lang,
        title: problem.prompt.get(lang),
    });
    let Some((picture, cells, (width, height))) = cells(&svg) else {
        // A board without links (a count): the picture as it is.
        return problem.puzzle.board(&BoardRequest {
            shown: &start.shown,
            picked: &[],
            selected: None,
            href: None,
            lang,
            title: problem.prompt.get(lang),
        });
    };
    // The links of edge points reach the picture's edge: the inner cells give the size.
    let cell = cells
        .iter()
        .map(|c| c.w.min(c.h))
        .fold(f64::INFINITY, f64::min);
    let most = counts.values().copied().max().unwrap_or(1).max(1) as f64;
    let mut out = picture.replacen("role=\"group\"", "role=\"img\"", 1);
    out.push_str("<g class=\"heat\">");
    for c in &cells {
        let n = counts.get(&c.name).copied().unwrap_or(0);
        let is_right = right.contains(&c.name);
        if n == 0 && !is_right {
            continue;
        }
        let cx = if c.x <= 0.0 {
            c.x + c.w - cell / 2.0
        } else {
            c.x + c.w.min(cell) / 2.0
        };
        let cy = if c.y <= 0.0 {
            c.y + c.h - cell / 2.0
        } else {
            c.y + c.h.min(cell) / 2.0
        };
        let (cx, cy) = (cx.min(width - cell / 2.0), cy.min(height - cell / 2.0));
        let (x0, y0) = (cx - cell / 2.0, cy - cell / 2.0);
        let _ = write!(out, "<g class=\"heat-cell\" data-p=\"{}\">", c.name);
        if n > 0 {
            let _ = write!(
                out,
                "<rect x=\"{x0:.1}\" y=\"{y0:.1}\" width=\"{cell:.1}\" height=\"{cell:.1}\" \
                 fill=\"#d9480f\" fill-opacity=\"{:.2}\"/>\
                 <text x=\"{cx:.1}\" y=\"{cy:.1}\" font-size=\"{:.1}\" font-weight=\"bold\" \
                 text-anchor=\"middle\" dominant-baseline=\"central\" fill=\"#111\" \
                 stroke=\"#fff\" stroke-width=\"{:.1}\" paint-order=\"stroke\" {}>{n}</text>",
                0.25 + 0.5 * n as f64 / most,
                cell * 0.55,
                cell * 0.12,
                crate::render::svg::FONT,
            );
        }
        if is_right {
            let _ = write!(
                out,
                "<rect class=\"heat-right\" x=\"{:.1}\" y=\"{:.1}\" width=\"{:.1}\" height=\"{:.1}\" \
                 fill=\"none\" stroke=\"#1b7d25\" stroke-width=\"{:.1}\"/>",
                x0 + cell * 0.06,
                y0 + cell * 0.06,
                cell * 0.88,
                cell * 0.88,
                cell * 0.12
            );
        }
        out.push_str("</g>");
    }
    out.push_str("</g></svg>");
    out
}

/// The points or squares of the right first moves (or, for a `select` question, of the
/// answer).
fn right_targets(game: Game, problem: &Problem) -> HashSet<String> {
    let puzzle = &problem.puzzle;
    match puzzle.input() {
        Takes::Pick { .. } => puzzle.answer().into_iter().collect(),
        Takes::Count(_) => HashSet::new(),
        _ => puzzle
            .lines()
            .correct_lines()
            .iter()
            .filter_map(|l| l.first())
            .filter_map(|m| target(game, m))
            .collect(),
    }
}

/// The first move of the main line (or the answer of a count or `select` question) as the
/// learner reads it.
fn answer_text(problem: &Problem) -> String {
    let puzzle = &problem.puzzle;
    match puzzle.input() {
        Takes::Pick { .. } | Takes::Count(_) => puzzle.answer().join(" "),
        _ => puzzle
            .lines()
            .main_line()
            .first()
            .map(|m| puzzle.notation(&[], m))
            .unwrap_or_default(),
    }
}

/// The answers so far, as the teacher sees them.
#[derive(Serialize)]
struct Tally {
    round: u64,
    revealed: bool,
    answered: usize,
    here: usize,
    class_size: usize,
    /// Points or squares, with how many chose each and whether it is right (after the
    /// reveal).
    heat: Vec<HeatCell>,
}

#[derive(Serialize)]
struct HeatCell {
    p: String,
    n: usize,
    right: bool,
}

/// One row of the teacher's answer table.
struct AnswerRow {
    answer: String,
    count: usize,
    right: bool,
}

/// Counts what a board holds.
fn tally(
    board: &LiveBoard,
    game: Game,
    problem: &Problem,
) -> (Tally, Vec<AnswerRow>, Vec<(String, usize)>) {
    let r = board.lock();
    let mut by_answer: BTreeMap<String, (usize, bool)> = BTreeMap::new();
    let mut by_target: BTreeMap<String, usize> = BTreeMap::new();
    for a in r.answers.values() {
        let e = by_answer.entry(a.played.clone()).or_insert((0, a.right()));
        e.0 += 1;
        if let Some(t) = target(game, &a.played) {
            *by_target.entry(t).or_insert(0) += 1;
        }
    }
    let right = if r.revealed {
        let mut right = right_targets(game, problem);
        right.extend(
            r.answers
                .values()
                .filter(|a| a.right())
                .filter_map(|a| target(game, &a.played)),
        );
        right
    } else {
        HashSet::new()
    };
    let mut rows: Vec<AnswerRow> = by_answer
        .into_iter()
        .map(|(played, (count, ok))| AnswerRow {
            answer: problem.puzzle.notation(&[], &played),
            count,
            right: ok && r.revealed,
        })
        .collect();
    rows.sort_by(|a, b| b.count.cmp(&a.count).then(a.answer.cmp(&b.answer)));
    let mut heat: Vec<HeatCell> = by_target
        .iter()
        .map(|(p, n)| HeatCell {
            p: p.clone(),
            n: *n,
            right: right.contains(p),
        })
        .collect();
    heat.extend(
        right
            .iter()
            .filter(|p| !by_target.contains_key(*p))
            .map(|p| HeatCell {
                p: p.clone(),
                n: 0,
                right: true,
            }),
    );
    let here = r.here.values().filter(|t| t.elapsed() < HERE).count();
    (
        Tally {
            round: r.number,
            revealed: r.revealed,
            answered: r.answers.len(),
            here,
            class_size: r.class_size,
            heat,
        },
        rows,
        by_target.into_iter().collect(),
    )
}

/// The teacher's view of the answers: the heat map, the counts, the table.
#[derive(Template)]
#[template(path = "live_tally.html")]
struct TallyView {
    ui: &'static Ui,
    board: String,
    counts: String,
    revealed: bool,
    answer: String,
    rows: Vec<AnswerRow>,
}

/// The teacher's tally as HTML and as data.
fn teacher_view(
    board: &LiveBoard,
    snap: &Snapshot,
    problem: &LiveProblem,
    lang: Lang,
) -> Option<(Tally, Result<String, askama::Error>)> {
    let (_, found) = problem.find(snap)?;
    let (tally, rows, by_target) = tally(board, problem.game, found);
    let right: HashSet<String> = tally
        .heat
        .iter()
        .filter(|h| h.right)
        .map(|h| h.p.clone())
        .collect();
    let ui = Ui::get(lang);
    let html = TallyView {
        ui,
        board: heat_board(found, &by_target.into_iter().collect(), &right, lang),
        counts: fill(
            &ui.live.answered,
            &[
                ("n", &tally.answered.to_string()),
                ("here", &tally.here.to_string()),
                ("size", &tally.class_size.to_string()),
            ],
        ),
        revealed: tally.revealed,
        answer: answer_text(found),
        rows,
    }
    .render();
    Some((tally, html))
}

/// A problem of the content, for the teacher's choice.
struct Choice {
    value: String,
    label: String,
}

/// The problems of the content grouped by game and set.
fn choices(snap: &Snapshot, lang: Lang) -> Vec<(String, Vec<Choice>)> {
    let ui = Ui::get(lang);
    let mut groups = Vec::new();
    for shelf in &snap.library.shelves {
        for set in &shelf.sets {
            let items = set
                .problems
                .iter()
                .enumerate()
                .map(|(i, p)| Choice {
                    value: format!("{}/problems/{}/{}", shelf.game.slug(), set.slug, p.id),
                    label: format!(
                        "{} — {}",
                        fill(&ui.problem, &[("n", &(i + 1).to_string())]),
                        p.prompt.get(lang)
                    ),
                })
                .collect();
            groups.push((
                format!("{} · {}", shelf.game.name(lang), set.title.get(lang)),
                items,
            ));
        }
    }
    groups
}

#[derive(Template)]
#[template(path = "live_teacher.html")]
struct TeacherPage {
    chrome: Chrome,
    class_id: i64,
    class_name: String,
    csrf: String,
    groups: Vec<(String, Vec<Choice>)>,
    live: Option<LiveTeacher>,
}

struct LiveTeacher {
    title: String,
    href: String,
    path: String,
    round: u64,
    revealed: bool,
    has_next: bool,
    tally: String,
}

/// `GET /teacher/classes/{id}/live`: choose a problem; while one is live, the heat map of the
/// answers and the buttons to reveal, go on and stop.
pub(crate) async fn teacher_page(
    State(state): State<AppState>,
    signed: Signed,
    Path(id): Path<i64>,
) -> Response {
    let class = match signed.own_class(id).await {
        Ok(c) => c,
        Err(r) => return r,
    };
    let lang = signed.req.lang;
    let board = state.live().board(class.id);
    let (problem, round, revealed) = board.problem();
    let live = match problem
        .as_ref()
        .and_then(|p| Some((p, p.find(&signed.snap)?)))
    {
        Some((p, (set, found))) => {
            let tally = match teacher_view(&board, &signed.snap, p, lang) {
                Some((_, Ok(html))) => html,
                Some((_, Err(e))) => return respond(&signed.req, StatusCode::OK, Err(e)),
                None => String::new(),
            };
            let view = super::session::view_task(
                &signed.snap,
                &Task::Problem {
                    game: p.game.slug().into(),
                    set: p.set.clone(),
                    id: p.id.clone(),
                },
                lang,
            );
            Some(LiveTeacher {
                title: view.title,
                href: view.href,
                path: p.path(),
                round,
                revealed,
                has_next: set.next_after(&found.id).is_some(),
                tally,
            })
        }
        None => None,
    };
    let page = TeacherPage {
        chrome: Chrome::new(
            &signed.req,
            &signed.snap,
            fill(&signed.req.ui().live.title_class, &[("name", &class.name)]),
        ),
        class_id: class.id.0,
        class_name: class.name,
        csrf: signed.account.csrf.clone(),
        groups: choices(&signed.snap, lang),
        live,
    };
    respond(&signed.req, StatusCode::OK, page.render())
}

/// The teacher's start form.
#[derive(Deserialize)]
pub struct StartForm {
    #[serde(default)]
    csrf: String,
    /// `go/problems/captures/3`.
    #[serde(default)]
    problem: String,
}

/// Checks the form's secret and that the class is this teacher's.
async fn teacher_board(
    state: &AppState,
    signed: &Signed,
    id: i64,
    csrf: &str,
) -> Result<(crate::class::Class, Arc<LiveBoard>), Response> {
    signed.teacher()?;
    signed.check(csrf)?;
    let class = signed.own_class(id).await?;
    let board = state.live().board(class.id);
    Ok((class, board))
}

fn back(id: i64) -> Response {
    Redirect::to(&format!("/teacher/classes/{id}/live")).into_response()
}

/// Starts `problem` on `board`, with the class's size read from the store.
async fn start_problem(
    signed: &Signed,
    board: &LiveBoard,
    class: ClassId,
    problem: LiveProblem,
) -> Result<(), Response> {
    let size = blocking(&signed.room.store, move |s| Ok(s.students(class)?.len()))
        .await
        .map_err(|e| store_failed(&signed.req, &signed.snap, &e))?;
    board.start(problem, size);
    Ok(())
}

/// `POST /teacher/classes/{id}/live`: opens a problem live for the class.
pub(crate) async fn start(
    State(state): State<AppState>,
    signed: Signed,
    Path(id): Path<i64>,
    Form(form): Form<StartForm>,
) -> Response {
    let (class, board) = match teacher_board(&state, &signed, id, &form.csrf).await {
        Ok(x) => x,
        Err(r) => return r,
    };
    let problem = match Task::parse(&form.problem) {
        Some(Task::Problem { game, set, id }) => {
            Game::from_slug(&game).map(|game| LiveProblem { game, set, id })
        }
        _ => None,
    };
    let Some(problem) = problem.filter(|p| p.find(&signed.snap).is_some()) else {
        return message(
            &signed.req,
            &signed.snap,
            StatusCode::NOT_FOUND,
            &signed.req.ui().live.no_such_problem,
        );
    };
    if let Err(r) = start_problem(&signed, &board, class.id, problem).await {
        return r;
    }
    back(id)
}

/// `POST /teacher/classes/{id}/live/reveal`: shows the answer to the class.
pub(crate) async fn reveal(
    State(state): State<AppState>,
    signed: Signed,
    Path(id): Path<i64>,
    Form(form): Form<super::kit::CsrfForm>,
) -> Response {
    let (_, board) = match teacher_board(&state, &signed, id, &form.csrf).await {
        Ok(x) => x,
        Err(r) => return r,
    };
    if board.problem().0.is_none() {
        return nothing_live(&signed);
    }
    board.reveal();
    back(id)
}

/// `POST /teacher/classes/{id}/live/next`: the next problem of the same set.
pub(crate) async fn next(
    State(state): State<AppState>,
    signed: Signed,
    Path(id): Path<i64>,
    Form(form): Form<super::kit::CsrfForm>,
) -> Response {
    let (class, board) = match teacher_board(&state, &signed, id, &form.csrf).await {
        Ok(x) => x,
        Err(r) => return r,
    };
    let Some(current) = board.problem().0 else {
        return nothing_live(&signed);
    };
    let Some(next) = current
        .find(&signed.snap)
        .and_then(|(set, p)| set.next_after(&p.id))
        .map(|p| LiveProblem {
            id: p.id.clone(),
            ..current.clone()
        })
    else {
        return message(
            &signed.req,
            &signed.snap,
            StatusCode::CONFLICT,
            &signed.req.ui().live.last_of_set,
        );
    };
    if let Err(r) = start_problem(&signed, &board, class.id, next).await {
        return r;
    }
    back(id)
}

/// `POST /teacher/classes/{id}/live/stop`: ends the live problem.
pub(crate) async fn stop(
    State(state): State<AppState>,
    signed: Signed,
    Path(id): Path<i64>,
    Form(form): Form<super::kit::CsrfForm>,
) -> Response {
    let (_, board) = match teacher_board(&state, &signed, id, &form.csrf).await {
        Ok(x) => x,
        Err(r) => return r,
    };
    board.stop();
    back(id)
}

fn nothing_live(signed: &Signed) -> Response {
    message(
        &signed.req,
        &signed.snap,
        StatusCode::CONFLICT,
        &signed.req.ui().live.nothing_live,
    )
}

/// A stream of events: `event` of the board now, then each time `rx` changes (and `wanted`
/// says the new one is worth sending), until the board is dropped or the stream's lifetime is
/// over; `beat` runs every [`HEARTBEAT`] while it waits.
fn stream<T, F, W, B>(
    board: Arc<LiveBoard>,
    mut rx: watch::Receiver<u64>,
    name: &'static str,
    event: F,
    wanted: W,
    beat: B,
) -> Response
where
    T: Serialize + Send + 'static,
    F: Fn(&LiveBoard) -> Option<T> + Send + Sync + 'static,
    W: Fn(&T, &T) -> bool + Send + Sync + 'static,
    B: Fn(&LiveBoard) + Send + Sync + 'static,
{
    rx.borrow_and_update();
    let deadline = tokio::time::Instant::now() + STREAM_LIFETIME;
    let first = event(&board);
    let how = Arc::new((event, wanted, beat));
    let stream = futures_util::stream::unfold(
        (board, rx, first, true),
        move |(board, mut rx, last, first)| {
            let how = how.clone();
            async move {
                let (event, wanted, beat) = &*how;
                let mut now = last;
                if !first {
                    loop {
                        if board.is_closed() {
                            return None;
                        }
                        let wake = (tokio::time::Instant::now() + HEARTBEAT).min(deadline);
                        match tokio::time::timeout_at(wake, rx.changed()).await {
                            Ok(Ok(())) => {
                                rx.borrow_and_update();
                                if board.is_closed() {
                                    return None;
                                }
                                let fresh = event(&board);
                                let send = match (&now, &fresh) {
                                    (Some(a), Some(b)) => wanted(a, b),
                                    _ => true,
                                };
                                now = fresh;
                                if send {
                                    break;
                                }
                            }
                            Ok(Err(_)) => return None,
                            Err(_) if tokio::time::Instant::now() >= deadline => return None,
                            Err(_) => beat(&board),
                        }
                    }
                }
                let sse = match &now {
                    Some(data) => Event::default()
                        .event(name)
                        .json_data(data)
                        .unwrap_or_else(|_| Event::default().comment("unserializable")),
                    None => Event::default().event(name).data("null"),
                };
                Some((Ok::<Event, Infallible>(sse), (board, rx, now, false)))
            }
        },
    );
    Sse::new(stream)
        .keep_alive(KeepAlive::new().interval(Duration::from_secs(15)))
        .into_response()
}

/// `GET /live/events`: a logged-in student's pages listen here; an event each time the
/// class's live problem starts, changes, is revealed or stops.
pub(crate) async fn student_events(State(state): State<AppState>, signed: Signed) -> Response {
    let (student, class) = match signed.student() {
        Ok(x) => x,
        Err(r) => return r,
    };
    let board = state.live().board(class);
    board.arrive(student);
    let rx = board.rounds.subscribe();
    stream(
        board,
        rx,
        "live",
        |b| Some(b.student_event()),
        |a, b| a != b,
        move |b| b.arrive(student),
    )
}

/// `GET /teacher/classes/{id}/live/events`: the counts and the heat map as answers arrive.
pub(crate) async fn teacher_events(
    State(state): State<AppState>,
    signed: Signed,
    Path(id): Path<i64>,
) -> Response {
    let class = match signed.own_class(id).await {
        Ok(c) => c,
        Err(r) => return r,
    };
    let board = state.live().board(class.id);
    let rx = board.counts.subscribe();
    let lang = signed.req.lang;
    let app = state.clone();
    stream(
        board,
        rx,
        "tally",
        move |b| Some(teacher_event(b, &app.snapshot(), lang)),
        |_, _| true,
        |_| {},
    )
}

/// What the teacher's page is sent.
#[derive(Serialize)]
struct TeacherEvent {
    problem: Option<String>,
    #[serde(flatten)]
    tally: Option<Tally>,
    html: String,
}

fn teacher_event(board: &LiveBoard, snap: &Snapshot, lang: Lang) -> TeacherEvent {
    let (problem, ..) = board.problem();
    let view = problem
        .as_ref()
        .and_then(|p| teacher_view(board, snap, p, lang));
    let (tally, html) = match view {
        Some((t, html)) => (Some(t), html.unwrap_or_default()),
        None => (None, String::new()),
    };
    TeacherEvent {
        problem: problem.map(|p| p.path()),
        tally,
        html,
    }
}

#[derive(Template)]
#[template(path = "live_student.html")]
struct StudentPage {
    chrome: Chrome,
    live: Option<LiveStudent>,
}

struct LiveStudent {
    round: u64,
    csrf: String,
    title: String,
    prompt: String,
    to_play: String,
    board: String,
    /// `black`, `white` or `result` for a count, typed in a form.
    count: String,
    /// A move clicked without the script, waiting to be sent.
    confirm: Option<(String, String)>,
    /// Moves to choose between (a promotion), as links.
    choices: Vec<(String, String)>,
    /// The student's answer so far, as they read it.
    mine: Option<String>,
    revealed: bool,
    /// After the reveal: whether the student's answer was right, and the answer.
    right: bool,
    answer: String,
}

/// `GET /live`: the class's live problem, for a student: its board (every point or square a
/// link to `/live?play=…`, which asks to confirm without the script), their answer, and after
/// the reveal their verdict.
pub(crate) async fn student_page(State(state): State<AppState>, signed: Signed) -> Response {
    let (student, class) = match signed.student() {
        Ok(x) => x,
        Err(r) => return r,
    };
    let board = state.live().board(class);
    board.arrive(student);
    let (problem, round, revealed) = board.problem();
    let req = &signed.req;
    let ui = req.ui();
    let live = problem.as_ref().and_then(|p| {
        let (set, found) = p.find(&signed.snap)?;
        let mine = board.lock().answers.get(&student).cloned();
        Some(student_view(&signed, p, set, found, round, revealed, mine))
    });
    let title = match &live {
        Some(l) => l.title.clone(),
        None => ui.live.title.clone(),
    };
    let page = StudentPage {
        chrome: Chrome::new(req, &signed.snap, title),
        live,
    };
    respond(req, StatusCode::OK, page.render())
}

fn student_view(
    signed: &Signed,
    p: &LiveProblem,
    set: &ProblemSet,
    problem: &Problem,
    round: u64,
    revealed: bool,
    mine: Option<Answer>,
) -> LiveStudent {
    let req = &signed.req;
    let (lang, ui) = (req.lang, req.ui());
    let puzzle = &problem.puzzle;
    let index = set
        .problems
        .iter()
        .position(|x| x.id == problem.id)
        .unwrap_or(0);
    let title = format!(
        "{} · {}",
        set.title.get(lang),
        fill(&ui.problem, &[("n", &(index + 1).to_string())])
    );
    let asked = Input::from_query(req);
    let selected = req.param("sel").filter(|s| !s.is_empty() && s.len() <= 4);
    let input = match (&asked, selected) {
        (Input::None, Some(sel)) => Input::Select(Some(sel.to_string())),
        _ => asked.clone(),
    };
    let progress = Progress {
        selected: selected.map(String::from),
        ..Progress::default()
    };
    // A move clicked is not judged here (the answer is a POST): only picking a piece up and
    // choosing a promotion change the board.
    let confirm = match &input {
        Input::Play(mv) if !revealed => Some((mv.clone(), puzzle.notation(&[], mv))),
        _ => None,
    };
    let judged = match input {
        Input::Play(_) | Input::None => judge(problem, Progress::default(), Input::None),
        other => judge(problem, progress, other),
    };
    let mine_target = mine.as_ref().and_then(|a| target(p.game, &a.played));
    let board = if revealed {
        // After the reveal: the student's answer as the judge saw it (with its reply or
        // refutation), or the start.
        let shown = match &mine {
            Some(a) => judge(problem, Progress::default(), Input::Play(a.played.clone())).shown,
            None => judged.shown.clone(),
        };
        puzzle.board(&BoardRequest {
            shown: &shown,
            picked: &[],
            selected: None,
            href: None,
            lang,
            title: problem.prompt.get(lang),
        })
    } else {
        let sel = judged.progress.selected.clone();
        let href = move |action: Action| match action {
            Action::Play(mv) => format!("/live?play={}", enc(&mv)),
            Action::Select(None) => "/live".to_string(),
            Action::Select(Some(sq)) => format!("/live?sel={}", enc(&sq)),
            Action::Choose { from, to } => format!("/live?sel={}&to={}", enc(&from), enc(&to)),
        };
        let picked: Vec<String> = mine_target.into_iter().collect();
        puzzle.board(&BoardRequest {
            shown: &judged.shown,
            picked: if sel.is_some() { &[] } else { &picked },
            selected: sel.as_deref(),
            href: Some(&href),
            lang,
            title: problem.prompt.get(lang),
        })
    };
    LiveStudent {
        round,
        csrf: signed.account.csrf.clone(),
        title,
        prompt: problem.prompt.get(lang).to_string(),
        to_play: puzzle
            .to_play()
            .map(|key| ui.key(key).unwrap_or(key).to_string())
            .unwrap_or_default(),
        board,
        count: match puzzle.input() {
            Takes::Count(ask) if !revealed => ask.name().to_string(),
            _ => String::new(),
        },
        confirm,
        choices: judged
            .choices
            .iter()
            .map(|(label, mv)| {
                (
                    format!("/live?play={}", enc(mv)),
                    label.get(lang).to_string(),
                )
            })
            .collect(),
        right: mine.as_ref().is_some_and(Answer::right),
        mine: mine.map(|a| puzzle.notation(&[], &a.played)),
        revealed,
        answer: answer_text(problem),
    }
}

/// A student's answer.
#[derive(Deserialize)]
pub struct AnswerForm {
    #[serde(default)]
    csrf: String,
    /// The move (`D4`, `e2e4`, `P*5e`) or count.
    #[serde(default)]
    answer: String,
    /// A count typed in the count form.
    #[serde(default)]
    count: Option<String>,
    /// A result's winner (`B`, `W`, `0`) and margin.
    #[serde(default)]
    winner: Option<String>,
    #[serde(default)]
    margin: Option<String>,
    /// The round the page showed; an answer to an earlier problem is not taken.
    #[serde(default)]
    round: Option<u64>,
}

impl AnswerForm {
    /// The answer as the judge takes it (a count form's fields as the problem page reads
    /// them).
    fn played(&self) -> String {
        if let Some(c) = &self.count {
            return c.trim().to_string();
        }
        match self.winner.as_deref() {
            Some("0") => "0".to_string(),
            Some(w) => format!("{w}+{}", self.margin.as_deref().unwrap_or("").trim()),
            None => self.answer.trim().to_string(),
        }
    }
}

/// Stores `student`'s answer on `board` if the round is still open.
fn take_answer(
    board: &LiveBoard,
    student: StudentId,
    round: Option<u64>,
    played: &str,
    verdict: &'static str,
) -> Result<bool, Refusal> {
    let changed = {
        let mut r = board.lock();
        if r.problem.is_none() {
            return Err(Refusal::NothingLive);
        }
        if round.is_some_and(|n| n != r.number) {
            return Err(Refusal::OtherRound);
        }
        if r.revealed {
            return Err(Refusal::Closed);
        }
        r.touched = Instant::now();
        r.here.insert(student, Instant::now());
        match r.answers.get_mut(&student) {
            Some(a) if a.played == played => false,
            Some(a) if a.changes >= CHANGES => return Err(Refusal::TooManyChanges),
            Some(a) => {
                a.played = played.to_string();
                a.verdict = verdict;
                a.changes += 1;
                true
            }
            None => {
                r.answers.insert(
                    student,
                    Answer {
                        played: played.to_string(),
                        verdict,
                        changes: 0,
                    },
                );
                true
            }
        }
    };
    if changed {
        board.bump(false);
    }
    Ok(changed)
}

/// `POST /live/answer`: a student's first move (or count), judged by the puzzles' judge,
/// kept as their answer until the reveal (sending another changes it) and recorded as a try.
pub(crate) async fn answer(
    State(state): State<AppState>,
    signed: Signed,
    Form(form): Form<AnswerForm>,
) -> Response {
    if let Err(r) = signed.check(&form.csrf) {
        return r;
    }
    let (student, class) = match signed.student() {
        Ok(x) => x,
        Err(r) => return r,
    };
    let ui = &signed.req.ui().live;
    let board = state.live().board(class);
    let (problem, round, _) = board.problem();
    if form.round.is_some_and(|n| n != round) {
        // The page showed an earlier problem: back to the one live now.
        return Redirect::to("/live").into_response();
    }
    let Some((p, (set, found))) = problem
        .as_ref()
        .and_then(|p| Some((p, p.find(&signed.snap)?)))
    else {
        return nothing_live(&signed);
    };
    let played = form.played();
    let judged = judge(found, Progress::default(), Input::Play(played.clone()));
    let verdict = match &judged.verdict {
        Some(Verdict::Illegal { reason: why } | Verdict::Invalid { why }) => {
            let text = format!("{} {}", ui.refused, why.get(signed.req.lang));
            return message(
                &signed.req,
                &signed.snap,
                StatusCode::UNPROCESSABLE_ENTITY,
                &text,
            );
        }
        Some(v) => v.kind(),
        None => {
            return message(
                &signed.req,
                &signed.snap,
                StatusCode::UNPROCESSABLE_ENTITY,
                &ui.refused,
            )
        }
    };
    let refusal = |text: &str| message(&signed.req, &signed.snap, StatusCode::CONFLICT, text);
    match take_answer(&board, student, form.round, &played, verdict) {
        Ok(true) => {
            if let Err(e) = record_move(
                &state,
                Some(&signed.account),
                (p.game, set.slug.as_str(), found.id.as_str()),
                &[],
                played,
                verdict,
            )
            .await
            {
                return store_failed(&signed.req, &signed.snap, &e);
            }
        }
        Ok(false) => {}
        Err(Refusal::OtherRound) => return Redirect::to("/live").into_response(),
        Err(Refusal::NothingLive) => return nothing_live(&signed),
        Err(Refusal::Closed) => return refusal(&ui.closed),
        Err(Refusal::TooManyChanges) => return refusal(&ui.too_many_changes),
    }
    Redirect::to("/live").into_response()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn targets_are_destinations() {
        assert_eq!(target(Game::Go, "D4").as_deref(), Some("D4"));
        assert_eq!(target(Game::Go, "Q16").as_deref(), Some("Q16"));
        assert_eq!(target(Game::Go, "pass"), None);
        assert_eq!(target(Game::Chess, "e2e4").as_deref(), Some("e4"));
        assert_eq!(target(Game::Chess, "e7e8q").as_deref(), Some("e8"));
        assert_eq!(target(Game::Chess, "f7").as_deref(), Some("f7"));
        assert_eq!(target(Game::Shogi, "P*5e").as_deref(), Some("5e"));
        assert_eq!(target(Game::Shogi, "7g7f+").as_deref(), Some("7f"));
        assert_eq!(target(Game::Go, "41"), None);
        assert_eq!(target(Game::Chess, "车"), None);
    }

    #[test]
    fn cells_read_every_link_of_a_board() {
        let svg = "<svg viewBox=\"0 0 100 50\" role=\"group\"><g aria-hidden=\"true\"></g>\
                   <g class=\"points\"><a href=\"#\" class=\"pt\" data-p=\"A1\" aria-label=\"A1\">\
                   <rect x=\"0\" y=\"0\" width=\"30\" height=\"25\"/></a>\
                   <a href=\"#\" class=\"pt\" data-p=\"B1\" aria-label=\"B1\">\
                   <rect x=\"30\" y=\"0\" width=\"20\" height=\"25\"/></a></g></svg>";
        let (picture, cells, size) = cells(svg).unwrap();
        assert!(picture.ends_with("</g>") && !picture.contains("points"));
        assert_eq!(size, (100.0, 50.0));
        assert_eq!(cells.len(), 2);
        assert_eq!(
            cells[1],
            Cell {
                name: "B1".into(),
                x: 30.0,
                y: 0.0,
                w: 20.0,
                h: 25.0
            }
        );
    }

    #[test]
    fn a_student_answers_once_and_may_change_until_the_reveal() {
        let board = LiveBoard::new();
        let s = StudentId(7);
        assert_eq!(
            take_answer(&board, s, None, "D4", "wrong"),
            Err(Refusal::NothingLive)
        );
        board.start(
            LiveProblem {
                game: Game::Go,
                set: "captures".into(),
                id: "1".into(),
            },
            3,
        );
        assert_eq!(
            take_answer(&board, s, Some(0), "D4", "wrong"),
            Err(Refusal::OtherRound)
        );
        assert_eq!(take_answer(&board, s, Some(1), "D4", "wrong"), Ok(true));
        assert_eq!(take_answer(&board, s, Some(1), "D4", "wrong"), Ok(false));
        assert_eq!(take_answer(&board, s, None, "C3", "solved"), Ok(true));
        assert_eq!(board.lock().answers.len(), 1);
        assert_eq!(board.lock().answers[&s].played, "C3");
        board.reveal();
        assert_eq!(
            take_answer(&board, s, None, "D4", "wrong"),
            Err(Refusal::Closed)
        );
        board.stop();
        assert!(board.lock().answers.is_empty());
    }

    #[test]
    fn changes_are_bounded() {
        let board = LiveBoard::new();
        board.start(
            LiveProblem {
                game: Game::Go,
                set: "captures".into(),
                id: "1".into(),
            },
            1,
        );
        let s = StudentId(1);
        for i in 0..=CHANGES {
            assert_eq!(
                take_answer(&board, s, None, &format!("A{}", i + 1), "wrong"),
                Ok(true)
            );
        }
        assert_eq!(
            take_answer(&board, s, None, "T19", "wrong"),
            Err(Refusal::TooManyChanges)
        );
    }
}
