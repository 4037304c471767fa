//! The teacher's side of the classroom: their classes, a class's roster, homework and
//! progress grid, login cards, one student's history, the class on one problem, the activity
//! chart and the CSV exports.
//!
//! Every route goes through [`Signed`] and [`Signed::own_class`]: anonymous → 303 to
//! `/login` (401 for `.csv` and `.svg`), a student → 403, another teacher's class → 404.

use super::i18n::{fill, TeacherUi};
use super::kit::{blocking, CsrfForm, PageError, Why};
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

mod class_page;
mod classes;
mod login_cards;
mod reports;
mod student_page;

use class_page::{add_students, class, give_homework, take_back, take_back_confirm};
use classes::{create_class, delete_class, delete_confirm, home};
use login_cards::cards;
use reports::{activity, attempts_csv, grid_csv};
use student_page::{problem, student};

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
            get(take_back_confirm).post(take_back).layer(small()),
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
fn id_of(signed: &Signed, s: &str) -> Result<i64, PageError> {
    s.parse().map_err(|_| signed.refuse(Why::NoClass))
}

/// The class the address names, if it is this teacher's.
async fn own(signed: &Signed, id: &str) -> Result<Class, PageError> {
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

#[cfg(test)]
mod tests {
    use super::reports::{csv_cell, iso, tries_per_day};
    use super::student_page::duration;
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
