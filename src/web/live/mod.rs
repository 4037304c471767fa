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
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};
use tokio::sync::watch;

mod events;
mod heat;
mod student_side;
mod teacher_side;

use events::{student_events, teacher_events};
use student_side::{answer, student_page};
use teacher_side::{next, reveal, start, stop, teacher_page};

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

fn nothing_live(signed: &Signed) -> Response {
    message(
        &signed.req,
        &signed.snap,
        StatusCode::CONFLICT,
        &signed.req.ui().live.nothing_live,
    )
}

#[cfg(test)]
mod tests {
    use super::heat::target;
    use super::student_side::take_answer;
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
