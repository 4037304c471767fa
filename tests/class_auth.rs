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
];

fn fill(s: &School, path: &str) -> String {
    path.replace("{class}", &s.class.0.to_string())
        .replace("{student}", &s.student_id.0.to_string())
        .replace("{code}", &s.class_code)
}

async fn call(s: &School, who: Option<&Who>, route: &Route) -> Reply {
    let path = fill(s, route.path);
    match route.send {
        Send::Get => s.get(who, &path).await,
        Send::Form(body) => s.post_form(who, &path, &fill(s, body)).await,
        Send::Json(body) => s.post_json(who, &path, &fill(s, body)).await,
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
