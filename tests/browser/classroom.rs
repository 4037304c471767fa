//! A classroom for the browser tests: a real SQLite store in a temp folder, one teacher with
//! one class of students, the trainer serving it on a free port and a chromedriver; helpers
//! to log a browser in as the teacher or a student through the login page, and the checks
//! every page of the polish tests passes (no sideways scroll at phone width, a screenshot).

use super::harness::{start_trainer, Browser, Driver};
use anyhow::{ensure, Context, Result};
use fantoccini::Locator;
use qiyuan::class::sqlite::Sqlite;
use qiyuan::class::{password, Class, Roster, Store, Student};
use qiyuan::lang::Lang;
use qiyuan::web::AppState;
use serde_json::json;
use std::path::PathBuf;
use std::sync::Arc;

/// The teacher's name and password.
pub const TEACHER: &str = "王老师";
pub const PASSWORD: &str = "a long teacher password";

/// One browser scenario at a time: Chromium on a small machine is slow enough alone.
pub static ONE_AT_A_TIME: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

/// A trainer with a classroom: one teacher, one class of students.
pub struct Room {
    pub state: AppState,
    pub store: Arc<Sqlite>,
    pub dir: PathBuf,
    pub class: Class,
    pub students: Vec<Student>,
    pub base: String,
    pub driver: Driver,
}

impl Room {
    /// A new room named after the test, with `names` in its class.
    pub async fn new(test: &str, names: &str) -> Result<Room> {
        let dir = std::env::temp_dir().join(format!(
            "qiyuan-polish-{test}-{}-{}",
            std::process::id(),
            qiyuan::random::token()
        ));
        let store = Arc::new(Sqlite::open(&dir)?);
        let teacher = store.add_teacher(TEACHER, &password::hash(PASSWORD))?;
        let class = store.create_class(teacher, "三年级二班")?;
        let students = store.add_students(class.id, &Roster::parse(names)?)?;
        let state = AppState::embedded().with_store(store.clone(), Some(dir.clone()));
        let base = start_trainer(state.clone()).await?;
        let driver = Driver::start().await?;
        Ok(Room {
            state,
            store,
            dir,
            class,
            students,
            base,
            driver,
        })
    }

    /// A fresh browser (its own profile: another learner).
    pub async fn browser(&self) -> Result<Browser> {
        self.driver.session(&self.base).await
    }

    /// The class page's address.
    pub fn class_path(&self) -> String {
        format!("/teacher/classes/{}", self.class.id.0)
    }

    /// The student `name`.
    pub fn student(&self, name: &str) -> &Student {
        self.students
            .iter()
            .find(|s| s.name == name)
            .unwrap_or_else(|| panic!("no student {name}"))
    }

    /// Logs `b` in as the teacher, then opens `next`.
    pub async fn teacher_login(&self, b: &Browser, next: &str) -> Result<()> {
        b.open("/login?lang=en").await?;
        fill(
            b,
            "form.teacher-login",
            &[("name", TEACHER), ("password", PASSWORD)],
        )
        .await?;
        b.follow(Locator::Css("form.teacher-login button[type=submit]"))
            .await?;
        ensure!(
            b.location().await?.ends_with("/teacher"),
            "the teacher lands on their classes"
        );
        b.open(next).await
    }

    /// Logs `b` in as the student `name`, typing the code's words, landing on `/me`.
    pub async fn student_login(&self, b: &Browser, name: &str) -> Result<()> {
        let code = self.student(name).code.words(Lang::En);
        b.open("/login?lang=en&next=/me").await?;
        fill(
            b,
            "form.student-login",
            &[("class", &self.class.code), ("name", name), ("code", &code)],
        )
        .await?;
        b.follow(Locator::Css("form.student-login button[type=submit]"))
            .await?;
        ensure!(
            b.location().await?.ends_with("/me"),
            "{name} logged in lands on /me"
        );
        Ok(())
    }
}

impl Drop for Room {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// Sets the fields of the form `form` (name → value).
pub async fn fill(b: &Browser, form: &str, fields: &[(&str, &str)]) -> Result<()> {
    for (name, value) in fields {
        b.js(
            "const f = document.querySelector(arguments[0]).elements[arguments[1]]; f.value = arguments[2]; return true",
            vec![json!(form), json!(name), json!(value)],
        )
        .await
        .with_context(|| format!("filling {form} {name}"))?;
    }
    Ok(())
}

/// Fails if the page scrolls sideways at its current width (what is wider than the window).
pub async fn no_sideways_scroll(b: &Browser, what: &str) -> Result<()> {
    let wide = b
        .js(
            "const w = document.documentElement.clientWidth;
             if (document.documentElement.scrollWidth <= w) return '';
             return [...document.querySelectorAll('body *')]
               .filter(e => e.getBoundingClientRect().right > w + 1)
               .slice(0, 5).map(e => e.tagName + '.' + e.className + ' ' + Math.round(e.getBoundingClientRect().right)).join(', ') || 'something'",
            vec![],
        )
        .await?;
    ensure!(
        wide == json!(""),
        "{what}: the page scrolls sideways; too wide: {wide}"
    );
    Ok(())
}

/// One test of one browser in a new room, one test at a time: `in_room!("bars",
/// "小明\nTom", "point 1 homework bars", |room, b| homework_bars(&room, &b))` makes the room
/// `bars` with those students, opens a browser on it, runs the scenario under its label and
/// fails with what failed. (`#[macro_use]` on the `classroom` module brings it in.)
#[allow(unused_macros)]
macro_rules! in_room {
    ($test:expr, $names:expr, $label:expr, |$room:ident, $b:ident| $scenario:expr) => {{
        let _one = $crate::classroom::ONE_AT_A_TIME.lock().await;
        let $room = $crate::classroom::Room::new($test, $names)
            .await
            .unwrap_or_else(|e| panic!("{e:#}"));
        let $b = $room.browser().await.unwrap_or_else(|e| panic!("{e:#}"));
        let mut runner = $crate::harness::Runner {
            browser: &$b,
            failures: Vec::new(),
        };
        runner.run($label, $scenario).await;
        let failures = runner.failures;
        $crate::classroom::finish(failures, vec![$b]).await;
    }};
}

/// Ends a test: closes the browsers and fails with every failed scenario of `failures`.
pub async fn finish(failures: Vec<String>, browsers: Vec<Browser>) {
    for b in browsers {
        let _ = b.close().await;
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}
