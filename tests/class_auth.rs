//! The classroom's authorization matrix: every classroom route × {anonymous, student,
//! another class's student, teacher, another teacher}, with the exact status expected.

mod common;

use common::school::{School, Who};
use common::Reply;

/// How a row sends its request.
#[derive(Clone, Copy)]
enum Send {
    Get,
    /// A form body; `{csrf}` becomes the sender's secret.
    Form(&'static str),
    /// A JSON body; `{csrf}` becomes the sender's secret.
    Json(&'static str),
    /// A GET of an event stream: only the status is read (the stream stays open).
    Events,
}

/// One route. `path` may hold `{class}` (class A's id: the teacher's and the student's
/// class), `{student}` (class A's student) and `{code}` (class A's code). `expect` is the
/// status for: anonymous, student of A, student of B, teacher of A, teacher of B.
struct Route {
    path: &'static str,
    send: Send,
    expect: [u16; 5],
}

const fn get(path: &'static str, expect: [u16; 5]) -> Route {
    Route {
        path,
        send: Send::Get,
        expect,
    }
}

const fn form(path: &'static str, body: &'static str, expect: [u16; 5]) -> Route {
    Route {
        path,
        send: Send::Form(body),
        expect,
    }
}

const fn events(path: &'static str, expect: [u16; 5]) -> Route {
    Route {
        path,
        send: Send::Events,
        expect,
    }
}

const fn json(path: &'static str, body: &'static str, expect: [u16; 5]) -> Route {
    Route {
        path,
        send: Send::Json(body),
        expect,
    }
}

/// Every classroom route but logout (which ends the session: `logs_out_every_role`).
/// Add a row for every new route.
const ROUTES: &[Route] = &[
    get("/login", [200, 200, 200, 200, 200]),
    get("/me", [303, 200, 200, 303, 303]),
    form(
        "/me/read",
        "csrf={csrf}&game=go&slug=liberties",
        [401, 303, 303, 403, 403],
    ),
    json(
        "/api/class/event",
        r#"{"kind":"hint","game":"go","set":"captures","id":"1","csrf":"{csrf}"}"#,
        [401, 204, 204, 403, 403],
    ),
    json(
        "/api/class/merge",
        r#"{"csrf":"{csrf}","entries":[]}"#,
        [401, 200, 200, 403, 403],
    ),
    // The live board (src/web/live.rs), in the order a lesson goes: class A's teacher opens a
    // problem, its students answer, class B's student has nothing live (409).
    get("/teacher/classes/{class}/live", [303, 403, 403, 200, 404]),
    form(
        "/teacher/classes/{class}/live",
        "csrf={csrf}&problem=go%2Fproblems%2Fcaptures%2F1",
        [401, 403, 403, 303, 404],
    ),
    get("/live", [303, 200, 200, 403, 403]),
    events("/live/events", [401, 200, 200, 403, 403]),
    events(
        "/teacher/classes/{class}/live/events",
        [401, 403, 403, 200, 404],
    ),
    form(
        "/live/answer",
        "csrf={csrf}&answer=D4",
        [401, 303, 409, 403, 403],
    ),
    form(
        "/teacher/classes/{class}/live/reveal",
        "csrf={csrf}",
        [401, 403, 403, 303, 404],
    ),
    form(
        "/teacher/classes/{class}/live/next",
        "csrf={csrf}",
        [401, 403, 403, 303, 404],
    ),
    form(
        "/teacher/classes/{class}/live/stop",
        "csrf={csrf}",
        [401, 403, 403, 303, 404],
    ),
    // The teacher's pages (src/web/teacher.rs). `{spare}` is a fresh class of teacher A's
    // made for the call, with one homework `{spare_homework}` (deleting them spares A).
    get("/teacher", [303, 403, 403, 200, 200]),
    form(
        "/teacher/classes",
        "csrf={csrf}&name=C",
        [401, 403, 403, 303, 303],
    ),
    get("/teacher/classes/{class}", [303, 403, 403, 200, 404]),
    get("/teacher/classes/{class}/delete", [303, 403, 403, 200, 404]),
    form(
        "/teacher/classes/{spare}/delete",
        "csrf={csrf}",
        [401, 403, 403, 303, 404],
    ),
    form(
        "/teacher/classes/{class}/students",
        "csrf={csrf}&names=new1",
        [401, 403, 403, 303, 404],
    ),
    form(
        "/teacher/classes/{class}/homework",
        "csrf={csrf}&title=H&task=go%2Fproblems%2Fcaptures",
        [401, 403, 403, 303, 404],
    ),
    get(
        "/teacher/classes/{spare}/homework/{spare_homework}/delete",
        [303, 403, 403, 200, 404],
    ),
    get(
        "/teacher/classes/{class}/homework/999999/delete",
        [303, 403, 403, 404, 404],
    ),
    form(
        "/teacher/classes/{spare}/homework/{spare_homework}/delete",
        "csrf={csrf}",
        [401, 403, 403, 303, 404],
    ),
    get("/teacher/classes/{class}/cards", [303, 403, 403, 200, 404]),
    get(
        "/teacher/classes/{class}/students/{student}",
        [303, 403, 403, 200, 404],
    ),
    get(
        "/teacher/classes/{class}/problems/go/captures/1",
        [303, 403, 403, 200, 404],
    ),
    get(
        "/teacher/classes/{class}/activity.svg",
        [401, 403, 403, 200, 404],
    ),
    get(
        "/teacher/classes/{class}/attempts.csv",
        [401, 403, 403, 200, 404],
    ),
    get(
        "/teacher/classes/{class}/grid.csv",
        [401, 403, 403, 200, 404],
    ),
];

fn fill(s: &School, path: &str) -> String {
    path.replace("{class}", &s.class.0.to_string())
        .replace("{student}", &s.student_id.0.to_string())
        .replace("{code}", &s.class_code)
}

/// A fresh class of teacher A's with one homework, for the rows that delete (`{spare}`).
fn spare(s: &School, path: &str) -> String {
    use qiyuan::class::{Store, Task};
    if !path.contains("{spare}") {
        return path.to_string();
    }
    let teacher = s.store.class(s.class).unwrap().unwrap().teacher;
    let class = s.store.create_class(teacher, "spare").unwrap();
    let task = Task::parse("go/problems/captures").unwrap();
    let homework = s.store.assign(class.id, "spare", &[task], None).unwrap();
    path.replace("{spare}", &class.id.0.to_string())
        .replace("{spare_homework}", &homework.id.0.to_string())
}

async fn call(s: &School, who: Option<&Who>, route: &Route) -> Reply {
    let path = fill(s, &spare(s, route.path));
    match route.send {
        Send::Get => s.get(who, &path).await,
        Send::Form(body) => s.post_form(who, &path, &fill(s, body)).await,
        Send::Json(body) => s.post_json(who, &path, &fill(s, body)).await,
        Send::Events => s.get_head(who, &path).await,
    }
}

#[tokio::test]
async fn every_route_answers_each_role_exactly() {
    let s = School::new("auth").await;
    let roles: [(&str, Option<&Who>); 5] = [
        ("anonymous", None),
        ("student", Some(&s.student)),
        ("other student", Some(&s.other_student)),
        ("teacher", Some(&s.teacher)),
        ("other teacher", Some(&s.other_teacher)),
    ];
    let mut wrong = Vec::new();
    for route in ROUTES {
        for ((name, who), want) in roles.iter().zip(route.expect) {
            let got = call(&s, *who, route).await;
            if got.status.as_u16() != want {
                wrong.push(format!(
                    "{} as {name}: {} (expected {want}) {}",
                    route.path,
                    got.status.as_u16(),
                    got.body.chars().take(200).collect::<String>()
                ));
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[tokio::test]
async fn forms_without_the_csrf_secret_are_refused() {
    let s = School::new("csrf").await;
    for route in ROUTES {
        let (Send::Form(body) | Send::Json(body)) = route.send else {
            continue;
        };
        let forged = Route {
            path: route.path,
            send: match route.send {
                Send::Form(_) => {
                    Send::Form(Box::leak(body.replace("{csrf}", "0").into_boxed_str()))
                }
                _ => Send::Json(Box::leak(body.replace("{csrf}", "0").into_boxed_str())),
            },
            expect: route.expect,
        };
        for who in [&s.student, &s.teacher] {
            let got = call(&s, Some(who), &forged).await;
            assert_eq!(got.status, 403, "{} without csrf: {}", route.path, got.body);
        }
    }
}

#[tokio::test]
async fn a_form_from_another_site_is_refused_even_at_login() {
    let s = School::new("cross").await;
    let reply = common::send(
        s.router(),
        axum::http::Request::post("/login/teacher")
            .header("host", "localhost")
            .header("origin", "http://evil.example")
            .header("content-type", "application/x-www-form-urlencoded")
            .body(axum::body::Body::from(format!(
                "name=t1&password={}",
                common::school::PASSWORD.replace(' ', "+")
            )))
            .unwrap(),
    )
    .await;
    assert_eq!(reply.status, 403);
    assert!(reply.headers.get("set-cookie").is_none());
}

#[tokio::test]
async fn logs_out_every_role() {
    let s = School::new("logout").await;
    let anonymous = s.post_form(None, "/logout", "csrf=x").await;
    assert_eq!(anonymous.status, 401);
    for who in [&s.student, &s.other_student, &s.teacher, &s.other_teacher] {
        let out = s.post_form(Some(who), "/logout", "csrf={csrf}").await;
        assert_eq!(out.status, 303, "{}", out.body);
        // The old cookie opens nothing any more.
        let again = s.get(Some(who), "/me").await;
        assert_eq!(again.status, 303);
        assert!(again.headers["location"]
            .to_str()
            .unwrap()
            .starts_with("/login"));
    }
}
