//! One student, one problem: boards of the moves tried, a student's summary.

use super::class_page::{load, status_word};
use super::*;

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

fn verdict_word(req_ui: &crate::web::i18n::Ui, verdict: &str) -> String {
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
pub(super) fn duration(ms: Millis) -> String {
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
pub(crate) async fn student(
    signed: Signed,
    Path((id, sid)): Path<(String, String)>,
) -> Result<Response, PageError> {
    let class = own(&signed, &id).await?;
    let sid = StudentId(id_of(&signed, &sid)?);
    let (student, history) = blocking(&signed.room.store, move |s| {
        Ok((s.student(sid)?, s.student_history(sid)?))
    })
    .await
    .map_err(|e| signed.refuse(Why::Store(e)))?;
    let student = student
        .filter(|st| st.class == class.id)
        .ok_or_else(|| signed.refuse(Why::NoClass))?;
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
    Ok(respond(&signed.req, StatusCode::OK, page.render()))
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
) -> Result<Response, PageError> {
    let class = own(&signed, &id).await?;
    let task = Task::parse(&format!("{game}/problems/{set}/{pid}"))
        .filter(|t| view_task(&signed.snap, t, Lang::Zh).exists)
        .ok_or_else(|| signed.refuse(Why::NoClass))?;
    let loaded = load(&signed, class.id).await?;
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
    Ok(respond(&signed.req, StatusCode::OK, page.render()))
}
