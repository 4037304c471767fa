//! The recording of what a logged-in student does: every move judged, hints, solutions,
//! lessons, games; the script's events and the merge of progress kept in the browser.

use super::*;

/// What a student did, told by the page's script: a hint opened, a lesson finished.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EventRequest {
    /// `hint` or `lesson-finished`.
    pub kind: String,
    /// `go`, `chess`, `shogi`.
    pub game: String,
    /// The set (hint) or the lesson (lesson-finished).
    #[serde(default)]
    pub set: String,
    /// The problem (hint).
    #[serde(default)]
    pub id: String,
    /// The session's CSRF secret.
    pub csrf: String,
}

/// `POST /api/class/event`: only for a problem or lesson the library has, and at most
/// [`class::throttle::EVENTS_PER_WINDOW`] a minute for each student (429 beyond).
pub(crate) async fn api_event(signed: Signed, Json(event): Json<EventRequest>) -> Response {
    if !same_secret(&event.csrf, &signed.account.csrf) {
        return (StatusCode::FORBIDDEN, "bad csrf").into_response();
    }
    let Some((student, _)) = signed.account.student() else {
        return (StatusCode::FORBIDDEN, "students only").into_response();
    };
    let task = match event.kind.as_str() {
        "hint" => Task::parse(&format!(
            "{}/problems/{}/{}",
            event.game, event.set, event.id
        ))
        .filter(|t| matches!(t, Task::Problem { .. })),
        "lesson-finished" => Task::parse(&format!("{}/lessons/{}", event.game, event.set)),
        _ => None,
    };
    let Some(task) = task else {
        return (StatusCode::UNPROCESSABLE_ENTITY, "unknown event").into_response();
    };
    if !view_task(&signed.snap, &task, signed.req.lang).exists {
        return (
            StatusCode::NOT_FOUND,
            signed.req.ui().class.not_found.clone(),
        )
            .into_response();
    }
    if !signed.room.events.allow(student.0) {
        let mut r = (
            StatusCode::TOO_MANY_REQUESTS,
            signed.req.ui().class.events_too_fast.clone(),
        )
            .into_response();
        r.headers_mut()
            .insert(header::RETRY_AFTER, HeaderValue::from_static("60"));
        return r;
    }
    let now = class::now();
    let result = if let Task::Problem { .. } = task {
        let t = Try {
            student,
            game: event.game,
            set: event.set,
            problem: event.id,
            act: Act::Hint,
            at: now,
        };
        blocking(&signed.room.store, move |s| s.record_try(&t)).await
    } else {
        let r = Reading {
            student,
            game: event.game,
            slug: event.set,
            mark: LessonMark::Finished,
            at: now,
        };
        blocking(&signed.room.store, move |s| s.record_reading(&r)).await
    };
    match result {
        Ok(()) => StatusCode::NO_CONTENT.into_response(),
        Err(e) => unkept(signed.req.lang, &e),
    }
}

/// The answer to a write that failed (503): what the student did was not kept, and why, in
/// their language.
pub(crate) fn unkept(lang: Lang, e: &ClassError) -> Response {
    eprintln!("qiyuan: classroom: not kept: {e}");
    let ui = &Ui::get(lang).class;
    let why = match e {
        ClassError::Unwritable(_) => ui.unwritable.clone(),
        _ => fill(&ui.store_error, &[("error", &e.to_string())]),
    };
    let mut r = (
        StatusCode::SERVICE_UNAVAILABLE,
        format!("{} {why}", ui.unkept),
    )
        .into_response();
    r.headers_mut()
        .insert(header::RETRY_AFTER, HeaderValue::from_static("60"));
    r
}

/// `POST /lessons-read`: a lesson marked as read by its form (no script needed).
#[derive(Deserialize)]
pub struct ReadForm {
    #[serde(default)]
    csrf: String,
    #[serde(default)]
    game: String,
    #[serde(default)]
    slug: String,
}

/// `POST /me/read`: the lesson's "I have read it" button; counted with the events
/// ([`class::throttle::EVENTS_PER_WINDOW`] a minute, 429 beyond).
pub(crate) async fn read_form(
    signed: Signed,
    Form(form): Form<ReadForm>,
) -> Result<Response, PageError> {
    signed.check(&form.csrf)?;
    let (student, _) = signed.student()?;
    let task = Task::parse(&format!("{}/lessons/{}", form.game, form.slug))
        .filter(|t| view_task(&signed.snap, t, signed.req.lang).exists)
        .ok_or_else(|| signed.refuse(Why::NoClass))?;
    // The same budget as the script's events: a lesson read is one.
    if !signed.room.events.allow(student.0) {
        return Err(signed.refuse(Why::TooFast));
    }
    let r = Reading {
        student,
        game: form.game,
        slug: form.slug,
        mark: LessonMark::Finished,
        at: class::now(),
    };
    blocking(&signed.room.store, move |s| s.record_reading(&r))
        .await
        .map_err(|e| signed.refuse(Why::Store(e)))?;
    Ok(Redirect::to(&format!("/{}?read=1", task.path())).into_response())
}

/// One problem's progress as this browser kept it before the student logged in.
#[derive(Deserialize)]
pub struct LocalEntry {
    /// `go/captures/3`.
    pub key: String,
    /// `solved` or `failed`.
    pub state: String,
    /// When (milliseconds since 1970), if known.
    #[serde(default)]
    pub t: Option<i64>,
}

/// The browser's progress, sent once after the first login.
#[derive(Deserialize)]
pub struct MergeRequest {
    /// The session's CSRF secret.
    pub csrf: String,
    /// At most 5,000 entries.
    pub entries: Vec<LocalEntry>,
}

/// `POST /api/class/merge`: the browser's progress merged in, only while the student has no
/// history on the server (the first login), each entry as one try marked `(browser)`.
pub(crate) async fn api_merge(signed: Signed, Json(request): Json<MergeRequest>) -> Response {
    if !same_secret(&request.csrf, &signed.account.csrf) {
        return (StatusCode::FORBIDDEN, "bad csrf").into_response();
    }
    let Some((student, _)) = signed.account.student() else {
        return (StatusCode::FORBIDDEN, "students only").into_response();
    };
    let now = class::now();
    let tries: Vec<Try> = request
        .entries
        .iter()
        .take(5_000)
        .filter_map(|e| {
            let mut parts = e.key.splitn(3, '/');
            let (game, set, id) = (parts.next()?, parts.next()?, parts.next()?);
            let task = Task::parse(&format!("{game}/problems/{set}/{id}"))?;
            if !view_task(&signed.snap, &task, Lang::En).exists {
                return None;
            }
            let verdict = match e.state.as_str() {
                "solved" => "solved",
                "failed" => "wrong",
                _ => return None,
            };
            Some(Try {
                student,
                game: game.into(),
                set: set.into(),
                problem: id.into(),
                act: Act::Move {
                    before: class::progress::MERGED.into(),
                    played: String::new(),
                    verdict: verdict.into(),
                },
                at: e.t.filter(|t| (0..=now).contains(t)).unwrap_or(now),
            })
        })
        .collect();
    let merged = blocking(&signed.room.store, move |s| {
        if !s.student_history(student)?.tries.is_empty() {
            return Ok(0);
        }
        for t in &tries {
            s.record_try(t)?;
        }
        Ok(tries.len())
    })
    .await;
    match merged {
        Ok(n) => Json(serde_json::json!({ "merged": n })).into_response(),
        Err(e) => unkept(signed.req.lang, &e),
    }
}

/// Writes what a logged-in student did (a no-op for anyone else), waiting for the row: a
/// student's judged move is never lost to a reply sent before it is written, and a write
/// that fails is the caller's error to answer ([`unkept`]), never a reply as if it were kept.
async fn record_for(
    state: &AppState,
    account: Option<&Account>,
    write: impl FnOnce(&dyn Store, StudentId) -> Result<(), ClassError> + Send + 'static,
) -> Result<(), ClassError> {
    let (Some(room), Some((student, _))) =
        (state.classroom_arc(), account.and_then(Account::student))
    else {
        return Ok(());
    };
    blocking(&room.store, move |s| write(s, student)).await
}

/// Writes what a logged-in student did that no reply waits on (a lesson opened, a game
/// started): a failure is logged, with `what` naming it.
async fn record_logged(
    state: &AppState,
    account: Option<&Account>,
    what: &'static str,
    write: impl FnOnce(&dyn Store, StudentId) -> Result<(), ClassError> + Send + 'static,
) {
    if let Err(e) = record_for(state, account, write).await {
        eprintln!("qiyuan: cannot record {what}: {e}");
    }
}

/// Records a move a logged-in student had judged; the reply must wait for it and say so
/// if it failed.
pub(crate) async fn record_move(
    state: &AppState,
    account: Option<&Account>,
    key: (Game, &str, &str),
    before: &[String],
    played: String,
    verdict: &str,
) -> Result<(), ClassError> {
    if played.is_empty() || verdict == "invalid" {
        return Ok(());
    }
    let (game, set, problem) = (
        key.0.slug().to_string(),
        key.1.to_string(),
        key.2.to_string(),
    );
    let act = Act::Move {
        before: before.join(" "),
        played,
        verdict: verdict.to_string(),
    };
    record_for(state, account, move |s, student| {
        s.record_try(&Try {
            student,
            game,
            set,
            problem,
            act,
            at: class::now(),
        })
    })
    .await
}

/// Records that a logged-in student looked at a problem's solution; the reply must wait
/// for it (a look not kept would leave the problem "solved at the first try").
pub(crate) async fn record_solution(
    state: &AppState,
    account: Option<&Account>,
    key: (Game, &str, &str),
) -> Result<(), ClassError> {
    let (game, set, problem) = (
        key.0.slug().to_string(),
        key.1.to_string(),
        key.2.to_string(),
    );
    record_for(state, account, move |s, student| {
        s.record_try(&Try {
            student,
            game,
            set,
            problem,
            act: Act::Solution,
            at: class::now(),
        })
    })
    .await
}

/// Records that a logged-in student opened a lesson, at most
/// [`class::throttle::EVENTS_PER_WINDOW`] a minute for each student: the page is served
/// whatever the count, a view beyond is not recorded.
pub(crate) async fn record_opened(
    state: &AppState,
    account: Option<&Account>,
    game: Game,
    slug: &str,
) {
    if let (Some(room), Some((student, _))) =
        (state.classroom(), account.and_then(Account::student))
    {
        if !room.opened.allow(student.0) {
            return;
        }
    }
    let (game, slug) = (game.slug().to_string(), slug.to_string());
    record_logged(state, account, "a lesson opened", move |s, student| {
        s.record_reading(&Reading {
            student,
            game,
            slug,
            mark: LessonMark::Opened,
            at: class::now(),
        })
    })
    .await;
}

/// Records a game a logged-in student started or joined.
pub(crate) async fn record_game(
    state: &AppState,
    account: Option<&Account>,
    game: Game,
    code: &str,
    opponent: String,
) {
    let (game, code) = (game.slug().to_string(), code.to_string());
    record_logged(state, account, "a game", move |s, student| {
        s.record_game(&Played {
            student,
            game,
            code,
            opponent,
            at: class::now(),
        })
    })
    .await;
}
