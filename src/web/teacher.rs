//! The teacher's side of the classroom: their classes, a class's roster, homework and
//! progress grid, login cards, one student's history, the class on one problem, the activity
//! chart and the CSV exports.
//!
//! Every route goes through [`Signed`] and [`Signed::own_class`]: anonymous → 303 to
//! `/login` (401 for `.csv` and `.svg`), a student → 403, another teacher's class → 404.

use super::i18n::{fill, TeacherUi};
use super::kit::{blocking, message, store_failed, CsrfForm};
use super::kit::{respond, Chrome};
use super::session::{view_task, Signed};
use super::small;
use super::state::Snapshot;
use super::trainer::{board, judge, Input, Progress};
use super::AppState;
use crate::base::Game;
use crate::class::progress::{self, Status, Summary};
use crate::class::{
    self, Act, Assignment, AssignmentId, Class, ClassError, ClassId, History, LessonMark, Millis,
    Roster, Student, StudentId, Task,
};
use crate::lang::Lang;
use askama::Template;
use axum::extract::Path;
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Redirect, Response};
use axum::routing::{get, post};
use axum::Form;
use axum::Router;
use serde::Deserialize;
use std::collections::{HashMap, HashSet};

/// The routes of the teacher's side of the classroom.
pub(super) fn routes() -> Router<AppState> {
    Router::new()
        .route("/teacher", get(home))
        .route("/teacher/classes", post(create_class).layer(small()))
        .route("/teacher/classes/{id}", get(class))
        .route(
            "/teacher/classes/{id}/delete",
            get(delete_confirm).post(delete_class).layer(small()),
        )
        .route(
            "/teacher/classes/{id}/students",
            post(add_students).layer(axum::extract::DefaultBodyLimit::max(64 << 10)),
        )
        .route(
            "/teacher/classes/{id}/homework",
            post(give_homework).layer(axum::extract::DefaultBodyLimit::max(64 << 10)),
        )
        .route(
            "/teacher/classes/{id}/homework/{aid}/delete",
            post(take_back).layer(small()),
        )
        .route("/teacher/classes/{id}/cards", get(cards))
        .route("/teacher/classes/{id}/students/{sid}", get(student))
        .route(
            "/teacher/classes/{id}/problems/{game}/{set}/{pid}",
            get(problem),
        )
        .route("/teacher/classes/{id}/activity.svg", get(activity))
        .route("/teacher/classes/{id}/attempts.csv", get(attempts_csv))
        .route("/teacher/classes/{id}/grid.csv", get(grid_csv))
}

/// The most boards drawn for one problem on a student's page (the latest tries).
const BOARDS_PER_PROBLEM: usize = 12;
/// The most wrong moves drawn on a problem's page.
const WRONG_MOVES_SHOWN: usize = 12;
/// The days of the activity chart.
const ACTIVITY_DAYS: i64 = 30;
const DAY: Millis = 86_400_000;

fn tui(signed: &Signed) -> &'static TeacherUi {
    &signed.req.ui().teacher
}

/// A number from the address, or the 404 page.
fn id_of(signed: &Signed, s: &str) -> Result<i64, Response> {
    s.parse().map_err(|_| not_found(signed))
}

fn not_found(signed: &Signed) -> Response {
    message(
        &signed.req,
        &signed.snap,
        StatusCode::NOT_FOUND,
        &signed.req.ui().class.not_found,
    )
}

/// The class the address names, if it is this teacher's.
async fn own(signed: &Signed, id: &str) -> Result<Class, Response> {
    let id = id_of(signed, id)?;
    signed.own_class(id).await
}

/// A refusal of the classroom as the teacher reads it, in their language, saying what to fix.
fn why(ui: &TeacherUi, e: &ClassError) -> Option<String> {
    Some(match e {
        ClassError::DuplicateName(n) => fill(&ui.duplicate_name, &[("name", n)]),
        ClassError::BadName(n) => fill(&ui.bad_name, &[("name", n)]),
        ClassError::NameTooLong(n) => fill(&ui.name_too_long, &[("name", n)]),
        ClassError::EmptyRoster => ui.empty_roster.clone(),
        ClassError::ClassFull(n) => fill(&ui.class_full, &[("n", &n.to_string())]),
        ClassError::BadTitle => ui.bad_title.clone(),
        ClassError::BadTask(t) if t.is_empty() => ui.no_task.clone(),
        ClassError::BadTask(t) => fill(&ui.bad_task, &[("task", t)]),
        ClassError::BadDate(d) => fill(&ui.bad_date, &[("date", d)]),
        _ => return None,
    })
}

fn redirect(to: &str) -> Response {
    Redirect::to(to).into_response()
}

fn class_href(id: ClassId) -> String {
    format!("/teacher/classes/{}", id.0)
}

// ---------------------------------------------------------------------------------------
// /teacher: the classes.

struct ClassRow {
    id: i64,
    name: String,
    code: String,
    created: String,
}

#[derive(Template)]
#[template(path = "teacher_home.html")]
struct HomePage {
    chrome: Chrome,
    t: &'static TeacherUi,
    csrf: String,
    classes: Vec<ClassRow>,
    error: String,
    name: String,
}

async fn home_page(signed: &Signed, status: StatusCode, error: String, name: String) -> Response {
    let teacher = match signed.teacher() {
        Ok(t) => t,
        Err(r) => return r,
    };
    let classes = match blocking(&signed.room.store, move |s| s.classes(teacher)).await {
        Ok(c) => c,
        Err(e) => return store_failed(&signed.req, &signed.snap, &e),
    };
    let t = tui(signed);
    let page = HomePage {
        chrome: Chrome::new(&signed.req, &signed.snap, t.title.clone()),
        t,
        csrf: signed.account.csrf.clone(),
        classes: classes
            .into_iter()
            .map(|c| ClassRow {
                id: c.id.0,
                name: c.name,
                code: c.code,
                created: fill(&t.created, &[("date", &class::day_of(c.created))]),
            })
            .collect(),
        error,
        name,
    };
    respond(&signed.req, status, page.render())
}

/// `GET /teacher`: the teacher's classes, newest first, and the form to make one.
pub(crate) async fn home(signed: Signed) -> Response {
    home_page(&signed, StatusCode::OK, String::new(), String::new()).await
}

/// The new-class form.
#[derive(Deserialize)]
pub struct NewClassForm {
    #[serde(default)]
    csrf: String,
    #[serde(default)]
    name: String,
}

/// `POST /teacher/classes`: makes a class, then opens it.
pub(crate) async fn create_class(signed: Signed, Form(form): Form<NewClassForm>) -> Response {
    if let Err(r) = signed.check(&form.csrf) {
        return r;
    }
    let teacher = match signed.teacher() {
        Ok(t) => t,
        Err(r) => return r,
    };
    let name = form.name.trim().to_string();
    let made = {
        let name = name.clone();
        blocking(&signed.room.store, move |s| s.create_class(teacher, &name)).await
    };
    match made {
        Ok(c) => redirect(&class_href(c.id)),
        Err(e) => match why(tui(&signed), &e) {
            Some(text) => home_page(&signed, StatusCode::UNPROCESSABLE_ENTITY, text, name).await,
            None => store_failed(&signed.req, &signed.snap, &e),
        },
    }
}

#[derive(Template)]
#[template(path = "teacher_delete.html")]
struct DeletePage {
    chrome: Chrome,
    t: &'static TeacherUi,
    csrf: String,
    id: i64,
    title: String,
}

/// `GET /teacher/classes/{id}/delete`: are you sure? (a page, so it works without a script).
pub(crate) async fn delete_confirm(signed: Signed, Path(id): Path<String>) -> Response {
    let class = match own(&signed, &id).await {
        Ok(c) => c,
        Err(r) => return r,
    };
    let t = tui(&signed);
    let title = fill(&t.delete_title, &[("name", &class.name)]);
    let page = DeletePage {
        chrome: Chrome::new(&signed.req, &signed.snap, title.clone()),
        t,
        csrf: signed.account.csrf.clone(),
        id: class.id.0,
        title,
    };
    respond(&signed.req, StatusCode::OK, page.render())
}

/// `POST /teacher/classes/{id}/delete`: deletes the class (its history stays in the store).
pub(crate) async fn delete_class(
    signed: Signed,
    Path(id): Path<String>,
    Form(form): Form<CsrfForm>,
) -> Response {
    if let Err(r) = signed.check(&form.csrf) {
        return r;
    }
    let class = match own(&signed, &id).await {
        Ok(c) => c,
        Err(r) => return r,
    };
    let teacher = class.teacher;
    match blocking(&signed.room.store, move |s| {
        s.delete_class(teacher, class.id)
    })
    .await
    {
        Ok(()) => redirect("/teacher"),
        Err(e) => store_failed(&signed.req, &signed.snap, &e),
    }
}

// ---------------------------------------------------------------------------------------
// The class page: roster, homework, grid.

/// Everything a class page reads from the store, in one call.
struct Loaded {
    students: Vec<Student>,
    assignments: Vec<Assignment>,
    history: History,
}

async fn load(signed: &Signed, class: ClassId) -> Result<Loaded, Response> {
    blocking(&signed.room.store, move |s| {
        Ok(Loaded {
            students: s.students(class)?,
            assignments: s.assignments(class)?,
            history: s.class_history(class)?,
        })
    })
    .await
    .map_err(|e| store_failed(&signed.req, &signed.snap, &e))
}

/// One column of the grid: a problem or a lesson of a homework.
struct Column {
    /// The homework's title.
    homework: String,
    /// The item's title.
    title: String,
    /// Where the teacher reads the class on it (a problem), or the lesson itself.
    href: String,
    /// The item.
    task: Task,
    /// How many students solved or finished it.
    solved: usize,
}

/// The students × homework grid, from a class's history.
struct Grid {
    /// The homework with how many columns each spans, in the store's order (newest first).
    groups: Vec<(String, usize)>,
    columns: Vec<Column>,
    /// One row a student: their name, id and a status a column.
    rows: Vec<(String, i64, Vec<Status>)>,
}

/// A lesson's status: finished reads as done at the first try, opened as started.
fn lesson_status(
    readings: &HashMap<(StudentId, Task), LessonMark>,
    key: (StudentId, Task),
) -> Status {
    match readings.get(&key) {
        Some(LessonMark::Finished) => Status::FirstTry,
        Some(LessonMark::Opened) => Status::Started,
        None => Status::NotStarted,
    }
}

/// Each student's furthest mark on each lesson.
fn reading_marks(history: &History) -> HashMap<(StudentId, Task), LessonMark> {
    let mut out = HashMap::new();
    for r in &history.readings {
        let key = (
            r.student,
            Task::Lesson {
                game: r.game.clone(),
                slug: r.slug.clone(),
            },
        );
        let e = out.entry(key).or_insert(r.mark);
        if r.mark == LessonMark::Finished {
            *e = LessonMark::Finished;
        }
    }
    out
}

/// Builds the grid of a class.
fn grid(
    snap: &Snapshot,
    class: ClassId,
    loaded: &Loaded,
    summaries: &HashMap<(StudentId, Task), Summary>,
    lang: Lang,
) -> Grid {
    let marks = reading_marks(&loaded.history);
    let mut groups = Vec::new();
    let mut columns = Vec::new();
    for a in &loaded.assignments {
        let mut seen = HashSet::new();
        let before = columns.len();
        for task in &a.tasks {
            for item in view_task(snap, task, lang).items {
                if !seen.insert(item.clone()) {
                    continue;
                }
                let v = view_task(snap, &item, lang);
                let href = match &item {
                    Task::Problem { .. } => format!(
                        "{}/problems/{}",
                        class_href(class),
                        item.path().replacen("/problems/", "/", 1)
                    ),
                    _ => v.href.clone(),
                };
                columns.push(Column {
                    homework: a.title.clone(),
                    title: v.title,
                    href,
                    task: item,
                    solved: 0,
                });
            }
        }
        groups.push((a.title.clone(), columns.len() - before));
    }
    let mut rows = Vec::new();
    for st in &loaded.students {
        let cells: Vec<Status> = columns
            .iter_mut()
            .map(|c| {
                let key = (st.id, c.task.clone());
                let s = match c.task {
                    Task::Lesson { .. } => lesson_status(&marks, key),
                    _ => summaries
                        .get(&key)
                        .map(|s| s.status)
                        .unwrap_or(Status::NotStarted),
                };
                if s.solved() {
                    c.solved += 1;
                }
                s
            })
            .collect();
        rows.push((st.name.clone(), st.id.0, cells));
    }
    Grid {
        groups,
        columns,
        rows,
    }
}

/// A status's symbol in the grid (the legend says what each means: not colour alone).
fn symbol(s: Status) -> &'static str {
    match s {
        Status::FirstTry => "✓",
        Status::AfterMistakes => "(✓)",
        Status::Failed => "✗",
        Status::Started => "…",
        Status::NotStarted => "·",
    }
}

fn status_word(t: &TeacherUi, s: Status) -> &str {
    match s {
        Status::FirstTry => &t.first_try,
        Status::AfterMistakes => &t.after_mistakes,
        Status::Failed => &t.failed,
        Status::Started => &t.started,
        Status::NotStarted => &t.not_started,
    }
}

struct Cell {
    slug: &'static str,
    symbol: &'static str,
    label: String,
}

struct GridRow {
    name: String,
    href: String,
    cells: Vec<Cell>,
}

struct GridColumn {
    title: String,
    href: String,
    count: String,
}

struct HomeworkRow {
    id: i64,
    title: String,
    due: String,
    tasks: Vec<(String, String)>,
}

struct Choice {
    path: String,
    title: String,
    checked: bool,
}

struct GameChoices {
    name: String,
    sets: Vec<Choice>,
    lessons: Vec<Choice>,
}

struct StudentRow {
    name: String,
    href: String,
    pictures: String,
    words: String,
}

/// What a class page shows besides the class: a notice, and a refused form's values.
#[derive(Default)]
struct Notice {
    ok: String,
    roster_error: String,
    roster: String,
    homework_error: String,
    hw_title: String,
    hw_tasks: Vec<String>,
    hw_problems: String,
    hw_due: String,
}

#[derive(Template)]
#[template(path = "teacher_class.html")]
struct ClassPage {
    chrome: Chrome,
    t: &'static TeacherUi,
    csrf: String,
    base: String,
    name: String,
    code: String,
    notice: Notice,
    students: Vec<StudentRow>,
    homework: Vec<HomeworkRow>,
    choices: Vec<GameChoices>,
    legend: Vec<(&'static str, &'static str, String)>,
    groups: Vec<(String, usize)>,
    columns: Vec<GridColumn>,
    rows: Vec<GridRow>,
}

/// The class page, rendered from what the store holds (also used by the benchmark's
/// measure through the route).
async fn class_page(signed: &Signed, class: Class, status: StatusCode, notice: Notice) -> Response {
    let loaded = match load(signed, class.id).await {
        Ok(l) => l,
        Err(r) => return r,
    };
    let (snap, lang, t) = (&signed.snap, signed.req.lang, tui(signed));
    let summaries = progress::for_homework(&loaded.history.tries);
    let g = grid(snap, class.id, &loaded, &summaries, lang);
    let base = class_href(class.id);
    let students_total = loaded.students.len();
    let columns = g
        .columns
        .iter()
        .map(|c| GridColumn {
            title: c.title.clone(),
            href: c.href.clone(),
            count: fill(
                &t.solved_of,
                &[
                    ("n", &c.solved.to_string()),
                    ("total", &students_total.to_string()),
                ],
            ),
        })
        .collect();
    let rows = g
        .rows
        .iter()
        .map(|(name, id, cells)| GridRow {
            name: name.clone(),
            href: format!("{base}/students/{id}"),
            cells: cells
                .iter()
                .zip(&g.columns)
                .map(|(s, c)| Cell {
                    slug: s.slug(),
                    symbol: symbol(*s),
                    label: format!("{name} · {}: {}", c.title, status_word(t, *s)),
                })
                .collect(),
        })
        .collect();
    let homework = loaded
        .assignments
        .iter()
        .map(|a| HomeworkRow {
            id: a.id.0,
            title: a.title.clone(),
            due: a
                .due
                .as_deref()
                .map(|d| fill(&t.due, &[("date", d)]))
                .unwrap_or_default(),
            tasks: a
                .tasks
                .iter()
                .map(|task| {
                    let v = view_task(snap, task, lang);
                    (v.title, v.href)
                })
                .collect(),
        })
        .collect();
    let checked: HashSet<&str> = notice.hw_tasks.iter().map(String::as_str).collect();
    let choices = snap
        .library
        .shelves
        .iter()
        .map(|shelf| {
            let g = shelf.game.slug();
            GameChoices {
                name: shelf.game.name(lang).to_string(),
                sets: shelf
                    .sets
                    .iter()
                    .map(|s| {
                        let path = format!("{g}/problems/{}", s.slug);
                        Choice {
                            checked: checked.contains(path.as_str()),
                            path,
                            title: s.title.get(lang).to_string(),
                        }
                    })
                    .collect(),
                lessons: shelf
                    .lessons
                    .iter()
                    .map(|l| {
                        let path = format!("{g}/lessons/{}", l.slug);
                        Choice {
                            checked: checked.contains(path.as_str()),
                            path,
                            title: l.text(lang).title.clone(),
                        }
                    })
                    .collect(),
            }
        })
        .collect();
    let legend = [
        Status::FirstTry,
        Status::AfterMistakes,
        Status::Failed,
        Status::Started,
        Status::NotStarted,
    ]
    .into_iter()
    .map(|s| (s.slug(), symbol(s), status_word(t, s).to_string()))
    .collect();
    let page = ClassPage {
        chrome: Chrome::new(&signed.req, snap, class.name.clone()),
        t,
        csrf: signed.account.csrf.clone(),
        students: loaded
            .students
            .iter()
            .map(|s| StudentRow {
                name: s.name.clone(),
                href: format!("{base}/students/{}", s.id.0),
                pictures: s.code.pictures(),
                words: s.code.words(lang),
            })
            .collect(),
        base,
        name: class.name,
        code: class.code,
        notice,
        homework,
        choices,
        legend,
        groups: g.groups,
        columns,
        rows,
    };
    respond(&signed.req, status, page.render())
}

/// `GET /teacher/classes/{id}`: the class page.
pub(crate) async fn class(signed: Signed, Path(id): Path<String>) -> Response {
    let class = match own(&signed, &id).await {
        Ok(c) => c,
        Err(r) => return r,
    };
    let t = tui(&signed);
    let ok = match (signed.req.param("ok"), signed.req.param("n")) {
        (Some("added"), Some(n)) if n.parse::<usize>().is_ok() => fill(&t.added, &[("n", n)]),
        (Some("given"), _) => t.given.clone(),
        (Some("taken-back"), _) => t.taken_back.clone(),
        _ => String::new(),
    };
    class_page(
        &signed,
        class,
        StatusCode::OK,
        Notice {
            ok,
            ..Notice::default()
        },
    )
    .await
}

/// The add-students form.
#[derive(Deserialize)]
pub struct RosterForm {
    #[serde(default)]
    csrf: String,
    #[serde(default)]
    names: String,
}

/// `POST /teacher/classes/{id}/students`: adds a pasted list; a refused list adds nobody and
/// comes back in the form with what to fix.
pub(crate) async fn add_students(
    signed: Signed,
    Path(id): Path<String>,
    Form(form): Form<RosterForm>,
) -> Response {
    if let Err(r) = signed.check(&form.csrf) {
        return r;
    }
    let class = match own(&signed, &id).await {
        Ok(c) => c,
        Err(r) => return r,
    };
    let added = match Roster::parse(&form.names) {
        Ok(roster) => {
            let id = class.id;
            blocking(&signed.room.store, move |s| s.add_students(id, &roster)).await
        }
        Err(e) => Err(e),
    };
    match added {
        Ok(list) => redirect(&format!(
            "{}?ok=added&n={}",
            class_href(class.id),
            list.len()
        )),
        Err(e) => match why(tui(&signed), &e) {
            Some(text) => {
                let notice = Notice {
                    roster_error: fill(&tui(&signed).roster_refused, &[("why", &text)]),
                    roster: form.names,
                    ..Notice::default()
                };
                class_page(&signed, class, StatusCode::UNPROCESSABLE_ENTITY, notice).await
            }
            None => store_failed(&signed.req, &signed.snap, &e),
        },
    }
}

/// Reads the homework form's fields: `csrf`, `title`, `task` (repeated), `problems`, `due`.
fn homework_fields(fields: &[(String, String)]) -> Notice {
    let mut n = Notice::default();
    for (k, v) in fields {
        match k.as_str() {
            "title" => n.hw_title = v.clone(),
            "task" => n.hw_tasks.push(v.clone()),
            "problems" => n.hw_problems = v.clone(),
            "due" => n.hw_due = v.trim().to_string(),
            _ => {}
        }
    }
    n
}

/// The tasks a homework form asks for, each checked against the content.
fn homework_tasks(snap: &Snapshot, n: &Notice) -> Result<Vec<Task>, ClassError> {
    let typed = n
        .hw_problems
        .split(|c: char| c.is_whitespace() || c == ',' || c == '，')
        .filter(|s| !s.is_empty());
    let mut tasks: Vec<Task> = Vec::new();
    for path in n.hw_tasks.iter().map(String::as_str).chain(typed) {
        let shown: String = path.chars().take(100).collect();
        let task = Task::parse(path).ok_or_else(|| ClassError::BadTask(shown.clone()))?;
        if !view_task(snap, &task, Lang::Zh).exists {
            return Err(ClassError::BadTask(shown));
        }
        if !tasks.contains(&task) {
            tasks.push(task);
        }
    }
    if tasks.is_empty() {
        return Err(ClassError::BadTask(String::new()));
    }
    Ok(tasks)
}

/// `POST /teacher/classes/{id}/homework`: gives homework; a task the content does not have
/// refuses the whole form.
pub(crate) async fn give_homework(
    signed: Signed,
    Path(id): Path<String>,
    Form(fields): Form<Vec<(String, String)>>,
) -> Response {
    let csrf = fields
        .iter()
        .find(|(k, _)| k == "csrf")
        .map(|(_, v)| v.as_str())
        .unwrap_or("");
    if let Err(r) = signed.check(csrf) {
        return r;
    }
    let class = match own(&signed, &id).await {
        Ok(c) => c,
        Err(r) => return r,
    };
    let mut notice = homework_fields(&fields);
    let checked = homework_tasks(&signed.snap, &notice).and_then(|tasks| {
        if !notice.hw_due.is_empty() {
            class::check_date(&notice.hw_due)?;
        }
        Ok(tasks)
    });
    let given = match checked {
        Ok(tasks) => {
            let (cid, title) = (class.id, notice.hw_title.trim().to_string());
            let due = Some(notice.hw_due.clone()).filter(|d| !d.is_empty());
            blocking(&signed.room.store, move |s| {
                s.assign(cid, &title, &tasks, due.as_deref())
            })
            .await
        }
        Err(e) => Err(e),
    };
    match given {
        Ok(_) => redirect(&format!("{}?ok=given", class_href(class.id))),
        Err(e) => match why(tui(&signed), &e) {
            Some(text) => {
                notice.homework_error = fill(&tui(&signed).homework_refused, &[("why", &text)]);
                class_page(&signed, class, StatusCode::UNPROCESSABLE_ENTITY, notice).await
            }
            None => store_failed(&signed.req, &signed.snap, &e),
        },
    }
}

/// `POST /teacher/classes/{id}/homework/{aid}/delete`: takes a homework back.
pub(crate) async fn take_back(
    signed: Signed,
    Path((id, aid)): Path<(String, String)>,
    Form(form): Form<CsrfForm>,
) -> Response {
    if let Err(r) = signed.check(&form.csrf) {
        return r;
    }
    let class = match own(&signed, &id).await {
        Ok(c) => c,
        Err(r) => return r,
    };
    let aid = match id_of(&signed, &aid) {
        Ok(a) => AssignmentId(a),
        Err(r) => return r,
    };
    let cid = class.id;
    match blocking(&signed.room.store, move |s| s.unassign(cid, aid)).await {
        Ok(()) => redirect(&format!("{}?ok=taken-back", class_href(class.id))),
        Err(e) => store_failed(&signed.req, &signed.snap, &e),
    }
}

// ---------------------------------------------------------------------------------------
// Login cards.

struct Card {
    name: String,
    pictures: Vec<(&'static str, &'static str, &'static str)>,
}

#[derive(Template)]
#[template(path = "teacher_cards.html")]
struct CardsPage {
    chrome: Chrome,
    t: &'static TeacherUi,
    base: String,
    name: String,
    code: String,
    address: String,
    /// Eight cards a sheet.
    sheets: Vec<Vec<Card>>,
}

/// The address students type: the host the teacher used, and `/login`.
fn login_address(headers: &HeaderMap) -> String {
    let host = headers
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())
        .filter(|h| {
            !h.is_empty()
                && h.len() <= 255
                && h.bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b"-.:[]".contains(&b))
        })
        .unwrap_or("localhost");
    format!("{host}/login")
}

/// `GET /teacher/classes/{id}/cards`: A4 login cards, eight a page.
pub(crate) async fn cards(signed: Signed, headers: HeaderMap, Path(id): Path<String>) -> Response {
    let class = match own(&signed, &id).await {
        Ok(c) => c,
        Err(r) => return r,
    };
    let cid = class.id;
    let students = match blocking(&signed.room.store, move |s| s.students(cid)).await {
        Ok(s) => s,
        Err(e) => return store_failed(&signed.req, &signed.snap, &e),
    };
    let t = tui(&signed);
    let cards: Vec<Card> = students
        .into_iter()
        .map(|s| Card {
            name: s.name,
            pictures: s
                .code
                .0
                .iter()
                .map(|&i| class::codes::PICTURES[i as usize])
                .collect(),
        })
        .collect();
    let mut sheets: Vec<Vec<Card>> = Vec::new();
    for card in cards {
        match sheets.last_mut() {
            Some(sheet) if sheet.len() < 8 => sheet.push(card),
            _ => sheets.push(vec![card]),
        }
    }
    let page = CardsPage {
        chrome: Chrome::new(
            &signed.req,
            &signed.snap,
            format!("{} · {}", t.cards, class.name),
        ),
        t,
        base: class_href(class.id),
        name: class.name,
        code: class.code,
        address: login_address(&headers),
        sheets,
    };
    respond(&signed.req, StatusCode::OK, page.render())
}

// ---------------------------------------------------------------------------------------
// One student, one problem: boards of the moves tried.

/// A move tried, drawn: the position after the moves before it and the move (with the
/// answer to a wrong move), and what the judge said.
struct MoveView {
    board: String,
    text: String,
    wrong: bool,
}

/// Draws `played` after `before` on a problem of the content, if the content still has it
/// and the moves before still fit it.
fn draw_move(
    snap: &Snapshot,
    (game, set, id): (&str, &str, &str),
    before: &str,
    played: &str,
    lang: Lang,
) -> Option<String> {
    let g = Game::from_slug(game)?;
    let shelf = snap.library.shelf(g)?;
    let set = shelf.set(set)?;
    let problem = set.problem(id)?;
    let moves: Vec<String> = before.split_whitespace().map(String::from).collect();
    if problem.puzzle.valid_moves(&moves)?.len() != moves.len() {
        return None;
    }
    let mut judged = judge(
        problem,
        Progress {
            moves,
            ..Progress::default()
        },
        Input::Play(played.to_string()),
    );
    judged.open = false;
    Some(board(g, set, problem, &judged, lang))
}

/// The learner's notation of a move, when the content still has the problem.
fn notation(
    snap: &Snapshot,
    (game, set, id): (&str, &str, &str),
    before: &str,
    mv: &str,
) -> String {
    let found = Game::from_slug(game)
        .and_then(|g| snap.library.shelf(g))
        .and_then(|s| s.set(set))
        .and_then(|s| s.problem(id));
    match found {
        Some(p) => {
            let moves: Vec<String> = before.split_whitespace().map(String::from).collect();
            p.puzzle.notation(&moves, mv)
        }
        None => mv.to_string(),
    }
}

fn verdict_word(req_ui: &super::i18n::Ui, verdict: &str) -> String {
    match verdict {
        "correct" => req_ui.correct.clone(),
        "solved" => req_ui.solved.clone(),
        "wrong" => req_ui.wrong.clone(),
        "illegal" => req_ui.illegal.clone(),
        "found" => req_ui.found.clone(),
        "not-answer" => req_ui.not_answer.clone(),
        other => other.to_string(),
    }
}

/// A duration as the teacher reads it: `42 s`, `3 min 5 s`, `2 h 10 min`.
fn duration(ms: Millis) -> String {
    let s = ms.max(0) / 1000;
    match s {
        0..=59 => format!("{s} s"),
        60..=3599 => format!("{} min {} s", s / 60, s % 60),
        _ => format!("{} h {} min", s / 3600, s % 3600 / 60),
    }
}

struct ProblemView {
    title: String,
    href: String,
    status_slug: &'static str,
    status: String,
    notes: Vec<String>,
    moves: Vec<MoveView>,
}

#[derive(Template)]
#[template(path = "teacher_student.html")]
struct StudentPage {
    chrome: Chrome,
    t: &'static TeacherUi,
    base: String,
    class_name: String,
    name: String,
    problems: Vec<ProblemView>,
    lessons: Vec<(String, String, String)>,
    games: Vec<(String, String, String)>,
}

/// A summary's notes: mistakes, hint, solution, time taken.
fn summary_notes(t: &TeacherUi, s: &Summary) -> Vec<String> {
    let mut notes = Vec::new();
    if s.mistakes > 0 {
        notes.push(fill(&t.mistakes, &[("n", &s.mistakes.to_string())]));
    }
    if s.hint {
        notes.push(t.hint_used.clone());
    }
    if s.solution {
        notes.push(t.solution_used.clone());
    }
    match s.time_taken() {
        Some(ms) => notes.push(fill(&t.time_taken, &[("time", &duration(ms))])),
        None => notes.push(t.not_solved.clone()),
    }
    notes
}

/// `GET /teacher/classes/{id}/students/{sid}`: every try of one student, by problem, with
/// the moves drawn; lessons opened and finished; games.
pub(crate) async fn student(signed: Signed, Path((id, sid)): Path<(String, String)>) -> Response {
    let class = match own(&signed, &id).await {
        Ok(c) => c,
        Err(r) => return r,
    };
    let sid = match id_of(&signed, &sid) {
        Ok(s) => StudentId(s),
        Err(r) => return r,
    };
    let loaded = blocking(&signed.room.store, move |s| {
        Ok((s.student(sid)?, s.student_history(sid)?))
    })
    .await;
    let (student, history) = match loaded {
        Ok((Some(st), h)) if st.class == class.id => (st, h),
        Ok(_) => return not_found(&signed),
        Err(e) => return store_failed(&signed.req, &signed.snap, &e),
    };
    let (snap, lang, t, ui) = (&signed.snap, signed.req.lang, tui(&signed), signed.req.ui());
    let summaries = progress::summarize(&history.tries);
    // Problems in the order first tried.
    let mut order: Vec<Task> = Vec::new();
    let mut by_problem: HashMap<Task, Vec<&class::Try>> = HashMap::new();
    for tr in &history.tries {
        let task = tr.task();
        let list = by_problem.entry(task.clone()).or_default();
        if list.is_empty() {
            order.push(task);
        }
        list.push(tr);
    }
    let problems = order
        .iter()
        .map(|task| {
            let tries = &by_problem[task];
            let v = view_task(snap, task, lang);
            let summary = &summaries[&(sid, task.clone())];
            let key = match task {
                Task::Problem { game, set, id } => (game.as_str(), set.as_str(), id.as_str()),
                _ => ("", "", ""),
            };
            let moves: Vec<MoveView> = tries
                .iter()
                .filter_map(|tr| match &tr.act {
                    Act::Move {
                        before,
                        played,
                        verdict,
                    } if !played.is_empty() => Some((before, played, verdict)),
                    _ => None,
                })
                .rev()
                .take(BOARDS_PER_PROBLEM)
                .collect::<Vec<_>>()
                .into_iter()
                .rev()
                .map(|(before, played, verdict)| MoveView {
                    board: draw_move(snap, key, before, played, lang).unwrap_or_default(),
                    text: format!(
                        "{} — {}",
                        notation(snap, key, before, played),
                        verdict_word(ui, verdict)
                    ),
                    wrong: progress::is_mistake(verdict),
                })
                .collect();
            ProblemView {
                title: v.title,
                href: format!(
                    "{}/problems/{}",
                    class_href(class.id),
                    task.path().replacen("/problems/", "/", 1)
                ),
                status_slug: summary.status.slug(),
                status: status_word(t, summary.status).to_string(),
                notes: summary_notes(t, summary),
                moves,
            }
        })
        .collect();
    let mut lessons: Vec<(String, String, String)> = Vec::new();
    for r in &history.readings {
        let task = Task::Lesson {
            game: r.game.clone(),
            slug: r.slug.clone(),
        };
        let v = view_task(snap, &task, lang);
        let mark = match r.mark {
            LessonMark::Opened => t.opened.clone(),
            LessonMark::Finished => t.finished.clone(),
        };
        lessons.push((v.title, mark, class::day_of(r.at)));
    }
    let games = history
        .games
        .iter()
        .map(|g| {
            (
                format!("/play/{}", g.code),
                format!(
                    "{} · {}",
                    Game::from_slug(&g.game)
                        .map(|x| x.name(lang))
                        .unwrap_or(&g.game),
                    fill(&t.vs, &[("who", &g.opponent)])
                ),
                class::day_of(g.at),
            )
        })
        .collect();
    let page = StudentPage {
        chrome: Chrome::new(&signed.req, snap, student.name.clone()),
        t,
        base: class_href(class.id),
        class_name: class.name,
        name: student.name,
        problems,
        lessons,
        games,
    };
    respond(&signed.req, StatusCode::OK, page.render())
}

struct SolverRow {
    name: String,
    href: String,
    slug: &'static str,
    status: String,
    notes: String,
}

#[derive(Template)]
#[template(path = "teacher_problem.html")]
struct ProblemPage {
    chrome: Chrome,
    t: &'static TeacherUi,
    base: String,
    class_name: String,
    title: String,
    problem_href: String,
    solvers: Vec<SolverRow>,
    wrong: Vec<MoveView>,
}

/// `GET /teacher/classes/{id}/problems/{game}/{set}/{pid}`: the class on one problem: who
/// solved it how, and the wrong moves most played, drawn.
pub(crate) async fn problem(
    signed: Signed,
    Path((id, game, set, pid)): Path<(String, String, String, String)>,
) -> Response {
    let class = match own(&signed, &id).await {
        Ok(c) => c,
        Err(r) => return r,
    };
    let task = match Task::parse(&format!("{game}/problems/{set}/{pid}")) {
        Some(t) if view_task(&signed.snap, &t, Lang::Zh).exists => t,
        _ => return not_found(&signed),
    };
    let loaded = match load(&signed, class.id).await {
        Ok(l) => l,
        Err(r) => return r,
    };
    let (snap, lang, t) = (&signed.snap, signed.req.lang, tui(&signed));
    let tries: Vec<class::Try> = loaded
        .history
        .tries
        .into_iter()
        .filter(|tr| tr.game == game && tr.set == set && tr.problem == pid)
        .collect();
    let summaries = progress::summarize(&tries);
    let base = class_href(class.id);
    let solvers = loaded
        .students
        .iter()
        .map(|st| {
            let s = summaries.get(&(st.id, task.clone()));
            let status = s.map(|s| s.status).unwrap_or(Status::NotStarted);
            SolverRow {
                name: st.name.clone(),
                href: format!("{base}/students/{}", st.id.0),
                slug: status.slug(),
                status: status_word(t, status).to_string(),
                notes: s
                    .map(|s| summary_notes(t, s).join(" · "))
                    .unwrap_or_default(),
            }
        })
        .collect();
    let key = (game.as_str(), set.as_str(), pid.as_str());
    let wrong = progress::wrong_moves(&tries)
        .into_iter()
        .filter(|(before, played, _, _)| before != "(browser)" && !played.is_empty())
        .take(WRONG_MOVES_SHOWN)
        .map(|(before, played, students, times)| {
            let mut text = fill(
                &t.played_by,
                &[
                    ("move", &notation(snap, key, &before, &played)),
                    ("n", &students.to_string()),
                    ("times", &times.to_string()),
                ],
            );
            if !before.is_empty() {
                let shown: Vec<String> = before.split_whitespace().map(String::from).collect();
                let named: Vec<String> = shown
                    .iter()
                    .enumerate()
                    .map(|(i, m)| notation(snap, key, &shown[..i].join(" "), m))
                    .collect();
                text.push_str(&format!(
                    " ({})",
                    fill(&t.after, &[("moves", &named.join(" "))])
                ));
            }
            MoveView {
                board: draw_move(snap, key, &before, &played, lang).unwrap_or_default(),
                text,
                wrong: true,
            }
        })
        .collect();
    let v = view_task(snap, &task, lang);
    let page = ProblemPage {
        chrome: Chrome::new(&signed.req, snap, v.title.clone()),
        t,
        base,
        class_name: class.name,
        title: v.title,
        problem_href: v.href,
        solvers,
        wrong,
    };
    respond(&signed.req, StatusCode::OK, page.render())
}

// ---------------------------------------------------------------------------------------
// Activity chart and CSV.

/// Tries a day over the [`ACTIVITY_DAYS`] days ending with `today` (a day's start): one
/// `(day, count)` a day, oldest first.
pub(crate) fn tries_per_day(tries: &[class::Try], today: Millis) -> Vec<(String, usize)> {
    let first = today - (ACTIVITY_DAYS - 1) * DAY;
    let mut counts = vec![0usize; ACTIVITY_DAYS as usize];
    for tr in tries {
        if tr.at >= first && tr.at < today + DAY {
            counts[((tr.at - first) / DAY) as usize] += 1;
        }
    }
    counts
        .into_iter()
        .enumerate()
        .map(|(i, n)| (class::day_of(first + i as i64 * DAY), n))
        .collect()
}

/// The bar chart of [`tries_per_day`] as SVG, every text escaped.
pub(crate) fn activity_svg(days: &[(String, usize)], t: &TeacherUi) -> String {
    use crate::render::escape;
    let (w, h, left, bottom, top) = (640.0, 200.0, 36.0, 28.0, 24.0);
    let max = days.iter().map(|d| d.1).max().unwrap_or(0).max(1);
    let plot_h = h - bottom - top;
    let bar_w = (w - left - 8.0) / days.len().max(1) as f64;
    let mut svg = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {w} {h}\" width=\"{w}\" height=\"{h}\" role=\"img\" aria-label=\"{}\">\
<title>{}</title><style>text{{font:11px sans-serif;fill:#444}}rect.bar{{fill:#3a7d44}}</style>\
<line x1=\"{left}\" y1=\"{y0}\" x2=\"{w}\" y2=\"{y0}\" stroke=\"#888\"/>\
<text x=\"{tx}\" y=\"{ty}\" text-anchor=\"end\">{max}</text><text x=\"{tx}\" y=\"{y0}\" text-anchor=\"end\">0</text>",
        escape(&t.activity_alt),
        escape(&t.activity),
        y0 = h - bottom,
        tx = left - 4.0,
        ty = top + 4.0,
    );
    for (i, (day, n)) in days.iter().enumerate() {
        let x = left + i as f64 * bar_w;
        let bh = plot_h * *n as f64 / max as f64;
        let y = h - bottom - bh;
        svg.push_str(&format!(
            "<rect class=\"bar\" x=\"{:.1}\" y=\"{y:.1}\" width=\"{:.1}\" height=\"{bh:.1}\"><title>{}</title></rect>",
            x + 1.0,
            (bar_w - 2.0).max(1.0),
            escape(&fill(&t.tries_on, &[("n", &n.to_string()), ("date", day)]))
        ));
        if i % 7 == 0 || i + 1 == days.len() {
            svg.push_str(&format!(
                "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{}</text>",
                x + bar_w / 2.0,
                h - bottom + 16.0,
                escape(day.get(5..).unwrap_or(day))
            ));
        }
    }
    svg.push_str("</svg>");
    svg
}

/// `GET /teacher/classes/{id}/activity.svg`.
pub(crate) async fn activity(signed: Signed, Path(id): Path<String>) -> Response {
    let class = match own(&signed, &id).await {
        Ok(c) => c,
        Err(r) => return r,
    };
    let loaded = match load(&signed, class.id).await {
        Ok(l) => l,
        Err(r) => return r,
    };
    let now = class::now();
    let days = tries_per_day(&loaded.history.tries, now - now.rem_euclid(DAY));
    let mut r = activity_svg(&days, tui(&signed)).into_response();
    r.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("image/svg+xml; charset=utf-8"),
    );
    r.headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    r
}

/// One CSV cell: quoted when it holds a comma, a quote or a line break; a cell a
/// spreadsheet would read as a formula (`=`, `+`, `-`, `@`, a tab or a carriage return
/// first) gets a `'` in front.
///
/// ```text
/// =SUM(A1)  ->  '=SUM(A1)
/// a,"b"     ->  "a,""b"""
/// ```
pub(crate) fn csv_cell(s: &str) -> String {
    let s = if s.starts_with(['=', '+', '-', '@', '\t', '\r']) {
        format!("'{s}")
    } else {
        s.to_string()
    };
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s
    }
}

/// A CSV file: a byte-order mark (Excel then reads UTF-8), rows ending with CRLF.
pub(crate) fn csv(rows: &[Vec<String>]) -> String {
    let mut out = String::from("\u{feff}");
    for row in rows {
        let cells: Vec<String> = row.iter().map(|c| csv_cell(c)).collect();
        out.push_str(&cells.join(","));
        out.push_str("\r\n");
    }
    out
}

/// A time as ISO 8601 in UTC (`2026-12-01T09:05:03Z`).
pub(crate) fn iso(at: Millis) -> String {
    let s = at.div_euclid(1000).rem_euclid(86_400);
    format!(
        "{}T{:02}:{:02}:{:02}Z",
        class::day_of(at),
        s / 3600,
        s % 3600 / 60,
        s % 60
    )
}

fn csv_response(file: &str, body: String) -> Response {
    let mut r = body.into_response();
    let h = r.headers_mut();
    h.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/csv; charset=utf-8"),
    );
    if let Ok(v) = HeaderValue::from_str(&format!("attachment; filename=\"{file}\"")) {
        h.insert(header::CONTENT_DISPOSITION, v);
    }
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    r
}

/// `GET /teacher/classes/{id}/attempts.csv`: every try of the class.
pub(crate) async fn attempts_csv(signed: Signed, Path(id): Path<String>) -> Response {
    let class = match own(&signed, &id).await {
        Ok(c) => c,
        Err(r) => return r,
    };
    let loaded = match load(&signed, class.id).await {
        Ok(l) => l,
        Err(r) => return r,
    };
    let names: HashMap<StudentId, &str> = loaded
        .students
        .iter()
        .map(|s| (s.id, s.name.as_str()))
        .collect();
    let mut rows = vec![[
        "student",
        "game",
        "set",
        "problem",
        "kind",
        "moves before",
        "move",
        "verdict",
        "time",
    ]
    .map(String::from)
    .to_vec()];
    for tr in &loaded.history.tries {
        let (kind, before, played, verdict) = tr.act.columns();
        rows.push(vec![
            names.get(&tr.student).copied().unwrap_or("").to_string(),
            tr.game.clone(),
            tr.set.clone(),
            tr.problem.clone(),
            kind.to_string(),
            before.to_string(),
            played.to_string(),
            verdict.to_string(),
            iso(tr.at),
        ]);
    }
    csv_response(&format!("class-{}-attempts.csv", class.id.0), csv(&rows))
}

/// `GET /teacher/classes/{id}/grid.csv`: the grid, a status slug a cell.
pub(crate) async fn grid_csv(signed: Signed, Path(id): Path<String>) -> Response {
    let class = match own(&signed, &id).await {
        Ok(c) => c,
        Err(r) => return r,
    };
    let loaded = match load(&signed, class.id).await {
        Ok(l) => l,
        Err(r) => return r,
    };
    let summaries = progress::for_homework(&loaded.history.tries);
    let g = grid(&signed.snap, class.id, &loaded, &summaries, signed.req.lang);
    let mut header = vec!["student".to_string()];
    header.extend(
        g.columns
            .iter()
            .map(|c| format!("{} / {} ({})", c.homework, c.title, c.task.path())),
    );
    let mut rows = vec![header];
    for (name, _, cells) in &g.rows {
        let mut row = vec![name.clone()];
        row.extend(cells.iter().map(|s| s.slug().to_string()));
        rows.push(row);
    }
    let mut solved = vec!["solved".to_string()];
    solved.extend(g.columns.iter().map(|c| c.solved.to_string()));
    rows.push(solved);
    csv_response(&format!("class-{}-grid.csv", class.id.0), csv(&rows))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csv_cells_escape_formulas_and_quotes() {
        assert_eq!(csv_cell("=SUM(A1)"), "'=SUM(A1)");
        assert_eq!(csv_cell("-1"), "'-1");
        assert_eq!(csv_cell("@x"), "'@x");
        assert_eq!(csv_cell("+86"), "'+86");
        assert_eq!(csv_cell("a,\"b\""), "\"a,\"\"b\"\"\"");
        assert_eq!(csv_cell("小明"), "小明");
    }

    #[test]
    fn iso_times_in_utc() {
        assert_eq!(iso(0), "1970-01-01T00:00:00Z");
        assert_eq!(iso(1_796_083_200_000 + 3_723_000), "2026-12-01T01:02:03Z");
    }

    #[test]
    fn tries_per_day_counts_the_last_thirty_days() {
        let today = 1_796_083_200_000;
        let at = |at| class::Try {
            student: StudentId(1),
            game: "go".into(),
            set: "s".into(),
            problem: "1".into(),
            act: Act::Hint,
            at,
        };
        let days = tries_per_day(
            &[
                at(today + 5),
                at(today + 6),
                at(today - DAY),
                at(today - 40 * DAY),
            ],
            today,
        );
        assert_eq!(days.len(), 30);
        assert_eq!(days[29], ("2026-12-01".to_string(), 2));
        assert_eq!(days[28], ("2026-11-30".to_string(), 1));
        assert_eq!(days.iter().map(|d| d.1).sum::<usize>(), 3);
    }

    #[test]
    fn durations_read_plainly() {
        assert_eq!(duration(42_000), "42 s");
        assert_eq!(duration(185_000), "3 min 5 s");
        assert_eq!(duration(7_800_000), "2 h 10 min");
    }
}
