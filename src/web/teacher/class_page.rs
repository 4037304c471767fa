//! A class's page: roster, homework, the grid of progress; adding students, giving and taking
//! back homework.

use super::*;

/// Everything a class page reads from the store, in one call.
pub(super) struct Loaded {
    pub(super) students: Vec<Student>,
    pub(super) assignments: Vec<Assignment>,
    pub(super) history: History,
}

pub(super) async fn load(signed: &Signed, class: ClassId) -> Result<Loaded, PageError> {
    blocking(&signed.room.store, move |s| {
        Ok(Loaded {
            students: s.students(class)?,
            assignments: s.assignments(class)?,
            history: s.class_history(class)?,
        })
    })
    .await
    .map_err(|e| signed.refuse(Why::Store(e)))
}

/// One column of the grid: a problem or a lesson of a homework.
pub(super) struct Column {
    /// The homework's title.
    pub(super) homework: String,
    /// The item's title.
    pub(super) title: String,
    /// Where the teacher reads the class on it (a problem), or the lesson itself.
    pub(super) href: String,
    /// The item.
    pub(super) task: Task,
    /// How many students solved or finished it.
    pub(super) solved: usize,
}

/// The students × homework grid, from a class's history.
pub(super) struct Grid {
    /// The homework with how many columns each spans, in the store's order (newest first).
    pub(super) groups: Vec<(String, usize)>,
    pub(super) columns: Vec<Column>,
    /// One row a student: their name, id and a status a column.
    pub(super) rows: Vec<(String, i64, Vec<Status>)>,
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
pub(super) fn grid(
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

/// Whether `student` looked at the solution of `task` without trying a move: not a wrong
/// answer, which the grid's "failed" would say.
fn looked_only(
    summaries: &HashMap<(StudentId, Task), Summary>,
    student: StudentId,
    task: &Task,
) -> bool {
    summaries
        .get(&(student, task.clone()))
        .is_some_and(|s| s.status == Status::Failed && s.solution && s.mistakes == 0)
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

pub(super) fn status_word(t: &TeacherUi, s: Status) -> &str {
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
    /// The code's drawings: file name and word.
    pictures: Vec<(&'static str, &'static str)>,
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
async fn class_page(
    signed: &Signed,
    class: Class,
    status: StatusCode,
    notice: Notice,
) -> Result<Response, PageError> {
    let loaded = load(signed, class.id).await?;
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
                .map(|(s, c)| {
                    if looked_only(&summaries, StudentId(*id), &c.task) {
                        let p = &signed.req.ui().polish;
                        return Cell {
                            slug: "looked",
                            symbol: "?",
                            label: format!("{name} · {}: {}", c.title, p.looked_only),
                        };
                    }
                    Cell {
                        slug: s.slug(),
                        symbol: symbol(*s),
                        label: format!("{name} · {}: {}", c.title, status_word(t, *s)),
                    }
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
    .chain([("looked", "?", signed.req.ui().polish.looked_only.clone())])
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
                pictures: s.code.drawings(lang),
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
    Ok(respond(&signed.req, status, page.render()))
}

/// `GET /teacher/classes/{id}`: the class page.
pub(crate) async fn class(signed: Signed, Path(id): Path<String>) -> Result<Response, PageError> {
    let class = own(&signed, &id).await?;
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
) -> Result<Response, PageError> {
    signed.check(&form.csrf)?;
    let class = own(&signed, &id).await?;
    let added = match Roster::parse(&form.names) {
        Ok(roster) => {
            let id = class.id;
            blocking(&signed.room.store, move |s| s.add_students(id, &roster)).await
        }
        Err(e) => Err(e),
    };
    match added {
        Ok(list) => Ok(redirect(&format!(
            "{}?ok=added&n={}",
            class_href(class.id),
            list.len()
        ))),
        Err(e) => match why(tui(&signed), &e) {
            Some(text) => {
                let notice = Notice {
                    roster_error: fill(&tui(&signed).roster_refused, &[("why", &text)]),
                    roster: form.names,
                    ..Notice::default()
                };
                class_page(&signed, class, StatusCode::UNPROCESSABLE_ENTITY, notice).await
            }
            None => Err(signed.refuse(Why::Store(e))),
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
) -> Result<Response, PageError> {
    let csrf = fields
        .iter()
        .find(|(k, _)| k == "csrf")
        .map(|(_, v)| v.as_str())
        .unwrap_or("");
    signed.check(csrf)?;
    let class = own(&signed, &id).await?;
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
        Ok(_) => Ok(redirect(&format!("{}?ok=given", class_href(class.id)))),
        Err(e) => match why(tui(&signed), &e) {
            Some(text) => {
                notice.homework_error = fill(&tui(&signed).homework_refused, &[("why", &text)]);
                class_page(&signed, class, StatusCode::UNPROCESSABLE_ENTITY, notice).await
            }
            None => Err(signed.refuse(Why::Store(e))),
        },
    }
}

/// `GET /teacher/classes/{id}/homework/{aid}/delete`: take this homework back? (as deleting a
/// class asks first).
pub(crate) async fn take_back_confirm(
    signed: Signed,
    Path((id, aid)): Path<(String, String)>,
) -> Result<Response, PageError> {
    let class = own(&signed, &id).await?;
    let aid = AssignmentId(id_of(&signed, &aid)?);
    let cid = class.id;
    let homework = blocking(&signed.room.store, move |s| s.assignments(cid))
        .await
        .map_err(|e| signed.refuse(Why::Store(e)))?
        .into_iter()
        .find(|a| a.id == aid)
        .ok_or_else(|| signed.refuse(Why::NoClass))?;
    let t = tui(&signed);
    let p = &signed.req.ui().polish;
    let title = fill(&p.take_back_title, &[("title", &homework.title)]);
    let page = super::classes::DeletePage {
        chrome: Chrome::new(&signed.req, &signed.snap, title.clone()),
        t,
        csrf: signed.account.csrf.clone(),
        title,
        note: p.take_back_note.clone(),
        action: format!("{}/homework/{}/delete", class_href(cid), aid.0),
        yes: p.take_back_yes.clone(),
        back: class_href(cid),
    };
    Ok(respond(&signed.req, StatusCode::OK, page.render()))
}

/// `POST /teacher/classes/{id}/homework/{aid}/delete`: takes a homework back.
pub(crate) async fn take_back(
    signed: Signed,
    Path((id, aid)): Path<(String, String)>,
    Form(form): Form<CsrfForm>,
) -> Result<Response, PageError> {
    signed.check(&form.csrf)?;
    let class = own(&signed, &id).await?;
    let aid = AssignmentId(id_of(&signed, &aid)?);
    let cid = class.id;
    match blocking(&signed.room.store, move |s| s.unassign(cid, aid)).await {
        Ok(()) => Ok(redirect(&format!("{}?ok=taken-back", class_href(class.id)))),
        Err(e) => Err(signed.refuse(Why::Store(e))),
    }
}
