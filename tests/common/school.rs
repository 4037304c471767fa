//! A classroom for tests: a real SQLite store in a temp folder, two teachers with a class
//! each and a student in each class, all logged in through the real login routes.

use super::{send, Reply};
use axum::body::Body;
use axum::http::{header, Request};
use qiyuan::class::sqlite::Sqlite;
use qiyuan::class::{password, ClassId, Roster, Store, StudentId};
use qiyuan::lang::Lang;
use qiyuan::web::AppState;
use std::path::PathBuf;
use std::sync::Arc;

/// A logged-in browser: its session cookie and its forms' CSRF secret.
#[derive(Clone, Debug)]
pub struct Who {
    pub cookie: String,
    pub csrf: String,
}

/// Two classes, A (teacher `t1`, student `a1`) and B (teacher `t2`, student `b1`).
pub struct School {
    pub state: AppState,
    pub store: Arc<Sqlite>,
    pub dir: PathBuf,
    pub teacher: Who,
    pub other_teacher: Who,
    pub student: Who,
    pub other_student: Who,
    pub class: ClassId,
    pub other_class: ClassId,
    pub class_code: String,
    pub student_id: StudentId,
    pub other_student_id: StudentId,
}

/// The teachers' password in every test school.
pub const PASSWORD: &str = "correct horse battery";

impl School {
    /// A new school in a fresh temp folder named after the test.
    pub async fn new(name: &str) -> School {
        let dir = std::env::temp_dir().join(format!(
            "qiyuan-school-{name}-{}-{}",
            std::process::id(),
            qiyuan::random::token()
        ));
        let store = Arc::new(Sqlite::open(&dir).unwrap());
        let hash = password::hash(PASSWORD);
        let t1 = store.add_teacher("t1", &hash).unwrap();
        let t2 = store.add_teacher("t2", &hash).unwrap();
        let a = store.create_class(t1, "A").unwrap();
        let b = store.create_class(t2, "B").unwrap();
        let a1 = store
            .add_students(a.id, &Roster::parse("a1").unwrap())
            .unwrap();
        let b1 = store
            .add_students(b.id, &Roster::parse("b1").unwrap())
            .unwrap();
        let state = AppState::embedded().with_store(store.clone(), Some(dir.clone()));
        let router = qiyuan::web::app(state.clone());
        let teacher = login(
            &router,
            "/login/teacher",
            "name=t1&password=correct+horse+battery",
        )
        .await;
        let other_teacher = login(
            &router,
            "/login/teacher",
            "name=t2&password=correct+horse+battery",
        )
        .await;
        let student = login(
            &router,
            "/login/student",
            &format!(
                "class={}&name=a1&code={}",
                a.code,
                a1[0].code.words(Lang::En)
            ),
        )
        .await;
        let other_student = login(
            &router,
            "/login/student",
            &format!("class={}&name=b1&code={}", b.code, b1[0].code),
        )
        .await;
        School {
            state,
            store,
            dir,
            teacher,
            other_teacher,
            student,
            other_student,
            class: a.id,
            other_class: b.id,
            class_code: a.code,
            student_id: a1[0].id,
            other_student_id: b1[0].id,
        }
    }

    /// The app.
    pub fn router(&self) -> axum::Router {
        qiyuan::web::app(self.state.clone())
    }

    /// `GET path` as `who` (anonymous when `None`).
    pub async fn get(&self, who: Option<&Who>, path: &str) -> Reply {
        let mut r = Request::get(path).header(header::HOST, "localhost");
        if let Some(w) = who {
            r = r.header(header::COOKIE, &w.cookie);
        }
        send(self.router(), r.body(Body::empty()).unwrap()).await
    }

    /// `POST path` with a form body as `who`; `{csrf}` in the body becomes who's secret.
    pub async fn post_form(&self, who: Option<&Who>, path: &str, body: &str) -> Reply {
        let csrf = who.map(|w| w.csrf.as_str()).unwrap_or("");
        let mut r = Request::post(path)
            .header(header::HOST, "localhost")
            .header(header::CONTENT_TYPE, "application/x-www-form-urlencoded");
        if let Some(w) = who {
            r = r.header(header::COOKIE, &w.cookie);
        }
        send(
            self.router(),
            r.body(Body::from(body.replace("{csrf}", csrf))).unwrap(),
        )
        .await
    }

    /// `POST path` with a JSON body as `who`; `{csrf}` in the body becomes who's secret.
    pub async fn post_json(&self, who: Option<&Who>, path: &str, body: &str) -> Reply {
        let csrf = who.map(|w| w.csrf.as_str()).unwrap_or("");
        let mut r = Request::post(path)
            .header(header::HOST, "localhost")
            .header(header::CONTENT_TYPE, "application/json");
        if let Some(w) = who {
            r = r.header(header::COOKIE, &w.cookie);
        }
        send(
            self.router(),
            r.body(Body::from(body.replace("{csrf}", csrf))).unwrap(),
        )
        .await
    }
}

impl Drop for School {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// Logs in through `path` with the form `body`: the session cookie and the CSRF secret read
/// from the next page's `data-csrf`.
pub async fn login(router: &axum::Router, path: &str, body: &str) -> Who {
    let reply = send(
        router.clone(),
        Request::post(path)
            .header(header::HOST, "localhost")
            .header(header::CONTENT_TYPE, "application/x-www-form-urlencoded")
            .body(Body::from(body.to_string()))
            .unwrap(),
    )
    .await;
    assert_eq!(reply.status, 303, "login {path} {body}: {}", reply.body);
    let set = reply.headers[header::SET_COOKIE].to_str().unwrap();
    let cookie = set.split(';').next().unwrap().to_string();
    let page = send(
        router.clone(),
        Request::get("/login")
            .header(header::COOKIE, &cookie)
            .body(Body::empty())
            .unwrap(),
    )
    .await;
    let csrf = page
        .body
        .split("data-csrf=\"")
        .nth(1)
        .and_then(|s| s.split('"').next())
        .unwrap_or_else(|| panic!("no data-csrf after login: {}", page.body))
        .to_string();
    Who { cookie, csrf }
}
