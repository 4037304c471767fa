//! The live board's event streams, the students' and the teacher's.

use super::heat::Tally;
use super::teacher_side::teacher_view;
use super::*;

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
        Err(r) => return r.into_response(),
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
        Err(r) => return r.into_response(),
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
