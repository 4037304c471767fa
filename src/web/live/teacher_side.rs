//! The teacher's live page: choosing a problem, starting, revealing, the next, stopping.

use super::heat::{answer_text, heat_board, tally, Tally, TallyView};
use super::*;

/// The teacher's tally as HTML and as data.
pub(super) fn teacher_view(
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

/// A set of the content, for the teacher's first choice: `game/slug`, its name, and whether
/// it is the one whose problems are listed.
struct SetChoice {
    value: String,
    label: String,
    chosen: bool,
}

/// The sets of the content, and the problems of the chosen one (`chosen`: `game/slug`; the
/// first set when it names none).
fn choices(snap: &Snapshot, lang: Lang, chosen: Option<&str>) -> (Vec<SetChoice>, Vec<Choice>) {
    let ui = Ui::get(lang);
    let mut sets = Vec::new();
    let mut problems = Vec::new();
    for shelf in &snap.library.shelves {
        for set in &shelf.sets {
            let value = format!("{}/{}", shelf.game.slug(), set.slug);
            let here = match chosen {
                Some(c) => c == value,
                None => sets.is_empty(),
            };
            if here {
                problems = set
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
            }
            sets.push(SetChoice {
                label: format!("{} · {}", shelf.game.name(lang), set.title.get(lang)),
                value,
                chosen: here,
            });
        }
    }
    (sets, problems)
}

#[derive(Template)]
#[template(path = "live_teacher.html")]
struct TeacherPage {
    chrome: Chrome,
    class_id: i64,
    class_name: String,
    csrf: String,
    sets: Vec<SetChoice>,
    problems: Vec<Choice>,
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
        Err(r) => return r.into_response(),
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
            let view = crate::web::session::view_task(
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
    // The set asked for, else the live problem's, else the first.
    let live_set = problem
        .as_ref()
        .map(|p| format!("{}/{}", p.game.slug(), p.set));
    let asked = signed.req.param("set").map(String::from).or(live_set);
    let (sets, problems) = choices(&signed.snap, lang, asked.as_deref());
    let page = TeacherPage {
        chrome: Chrome::new(
            &signed.req,
            &signed.snap,
            fill(&signed.req.ui().live.title_class, &[("name", &class.name)]),
        ),
        class_id: class.id.0,
        class_name: class.name,
        csrf: signed.account.csrf.clone(),
        sets,
        problems,
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
    Form(form): Form<crate::web::kit::CsrfForm>,
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
    Form(form): Form<crate::web::kit::CsrfForm>,
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
    Form(form): Form<crate::web::kit::CsrfForm>,
) -> Response {
    let (_, board) = match teacher_board(&state, &signed, id, &form.csrf).await {
        Ok(x) => x,
        Err(r) => return r,
    };
    board.stop();
    back(id)
}
