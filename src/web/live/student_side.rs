//! The student's live page and their answers.

use super::heat::{answer_text, target};
use super::*;

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
        Err(r) => return r.into_response(),
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
        // After the reveal: the answer on the board (the student's own answer is in the
        // verdict): the main line's first move, the points of a `select` question, or the
        // counted board.
        let (shown, picked) = match puzzle.input() {
            Takes::Pick { .. } => (Vec::new(), puzzle.answer()),
            Takes::Count(_) => (Vec::new(), Vec::new()),
            _ => {
                let main = puzzle.lines().main_line();
                (main.iter().take(1).cloned().collect(), Vec::new())
            }
        };
        puzzle.board(&BoardRequest {
            shown: &shown,
            picked: &picked,
            selected: None,
            href: None,
            heat: None,
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
            heat: None,
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
pub(super) fn take_answer(
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
        return r.into_response();
    }
    let (student, class) = match signed.student() {
        Ok(x) => x,
        Err(r) => return r.into_response(),
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
