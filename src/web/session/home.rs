//! The student's home page (`/me`): their homework and how far they are.

use super::*;

/// A task of a homework as the pages show it: its title, link and the problems or lessons
/// behind it.
pub(crate) struct TaskView {
    pub title: String,
    pub href: String,
    /// The problems (or the lesson) this task asks for, as problem/lesson tasks.
    pub items: Vec<Task>,
    /// Whether the content still has it.
    pub exists: bool,
}

/// Finds a task in the content: its title, address and the problems behind it (a set's
/// problems, in order).
pub(crate) fn view_task(snap: &Snapshot, task: &Task, lang: Lang) -> TaskView {
    let shelf = |g: &str| {
        Game::from_slug(g).and_then(|g| snap.library.shelves.iter().find(|s| s.game == g))
    };
    let missing = || TaskView {
        title: task.path(),
        href: format!("/{}", task.path()),
        items: vec![task.clone()],
        exists: false,
    };
    match task {
        Task::Problem { game, set, id } => {
            let Some(s) = shelf(game).and_then(|sh| sh.sets.iter().find(|x| &x.slug == set)) else {
                return missing();
            };
            let Some(i) = s.problems.iter().position(|p| &p.id == id) else {
                return missing();
            };
            TaskView {
                title: format!(
                    "{} · {}",
                    s.title.get(lang),
                    fill(&Ui::get(lang).problem, &[("n", &(i + 1).to_string())])
                ),
                href: format!("/{}", task.path()),
                items: vec![task.clone()],
                exists: true,
            }
        }
        Task::Set { game, set } => {
            let Some(s) = shelf(game).and_then(|sh| sh.sets.iter().find(|x| &x.slug == set)) else {
                return missing();
            };
            TaskView {
                title: s.title.get(lang).to_string(),
                href: format!("/{}", task.path()),
                items: s
                    .problems
                    .iter()
                    .map(|p| Task::Problem {
                        game: game.clone(),
                        set: set.clone(),
                        id: p.id.clone(),
                    })
                    .collect(),
                exists: true,
            }
        }
        Task::Lesson { game, slug } => {
            let Some(l) = shelf(game).and_then(|sh| sh.lessons.iter().find(|l| &l.slug == slug))
            else {
                return missing();
            };
            TaskView {
                title: l.text(lang).title.clone(),
                href: format!("/{}", task.path()),
                items: vec![task.clone()],
                exists: true,
            }
        }
    }
}

/// How far one student is with one homework: `(done, total)` over its problems and lessons,
/// and the status of each item.
pub(crate) fn homework_progress(
    snap: &Snapshot,
    assignment: &Assignment,
    student: StudentId,
    summaries: &HashMap<(StudentId, Task), class::progress::Summary>,
    finished: &HashMap<(StudentId, Task), Millis>,
) -> (usize, usize, Vec<Status>) {
    let mut statuses = Vec::new();
    for task in &assignment.tasks {
        for item in view_task(snap, task, Lang::Zh).items {
            let status = match &item {
                Task::Lesson { .. } => {
                    if finished.contains_key(&(student, item.clone())) {
                        Status::FirstTry
                    } else {
                        Status::NotStarted
                    }
                }
                _ => summaries
                    .get(&(student, item.clone()))
                    .map(|s| s.status)
                    .unwrap_or(Status::NotStarted),
            };
            statuses.push(status);
        }
    }
    let done = statuses.iter().filter(|s| s.solved()).count();
    (done, statuses.len(), statuses)
}

struct DueView {
    title: String,
    due: String,
    overdue: bool,
    done: usize,
    total: usize,
    percent: usize,
    tasks: Vec<(String, String, &'static str)>,
}

#[derive(Template)]
#[template(path = "me.html")]
struct MePage {
    chrome: Chrome,
    class_name: String,
    homework: Vec<DueView>,
    merge: bool,
    solved: usize,
    lessons: usize,
}

/// `GET /me`: a student's home: their homework, what is due and how far they are.
pub(crate) async fn me(signed: Signed) -> Result<Response, PageError> {
    match signed.account.role {
        Role::Student(student, class_id) => home(&signed, student, class_id).await,
        // A teacher's home is the classes.
        Role::Teacher(_) => Ok(Redirect::to("/teacher").into_response()),
    }
}

/// The home of `student` of class `class_id`.
async fn home(
    signed: &Signed,
    student: StudentId,
    class_id: ClassId,
) -> Result<Response, PageError> {
    let (class, assignments, history) = blocking(&signed.room.store, move |s| {
        Ok((
            s.class(class_id)?,
            s.assignments(class_id)?,
            s.student_history(student)?,
        ))
    })
    .await
    .map_err(|e| PageError::store(&signed.req, &signed.snap, e))?;
    let summaries = class::progress::summarize(&history.tries);
    // Homework counts only what the server judged, never the browser's merged progress.
    let homework_summaries = class::progress::for_homework(&history.tries);
    let finished = class::progress::finished_lessons(&history);
    let today = class::day_of(class::now());
    let lang = signed.req.lang;
    let homework = assignments
        .iter()
        .map(|a| {
            let (done, total, statuses) =
                homework_progress(&signed.snap, a, student, &homework_summaries, &finished);
            let mut statuses = statuses.into_iter();
            let mut tasks = Vec::new();
            for t in &a.tasks {
                let v = view_task(&signed.snap, t, lang);
                let n = v.items.len();
                let s: Vec<Status> = statuses.by_ref().take(n).collect();
                let state = if s.iter().all(|s| s.solved()) {
                    "done"
                } else if s.iter().any(|s| *s != Status::NotStarted) {
                    "started"
                } else {
                    "not-started"
                };
                tasks.push((v.title, v.href, state));
            }
            DueView {
                title: a.title.clone(),
                due: a.due.clone().unwrap_or_default(),
                overdue: a.due.as_deref().is_some_and(|d| d < today.as_str()) && done < total,
                done,
                total,
                percent: (100 * done).checked_div(total).unwrap_or(0),
                tasks,
            }
        })
        .collect();
    let page = MePage {
        chrome: Chrome::new(&signed.req, &signed.snap, signed.account.name.clone()),
        class_name: class.map(|c| c.name).unwrap_or_default(),
        homework,
        merge: signed.req.param("merge").is_some() && history.tries.is_empty(),
        solved: summaries.values().filter(|s| s.status.solved()).count(),
        lessons: finished.len(),
    };
    Ok(respond(&signed.req, StatusCode::OK, page.render()))
}
