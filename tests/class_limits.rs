//! The classroom's limits under attack and under failure (issue 43): logins at once and
//! floods of names, the cap on password hashing, a full disk, students' events and merged
//! progress, the `next=` redirect, `Secure` cookies and one server a data folder.

mod common;

use axum::body::Body;
use axum::extract::ConnectInfo;
use axum::http::{header, Request};
use common::school::{School, PASSWORD};
use common::{send, Reply};
use qiyuan::class::{Store, Task};
use std::net::SocketAddr;
use tokio::task::JoinSet;

/// A login form posted to `router`, from `peer` if given.
async fn login(router: axum::Router, path: &str, body: String, peer: Option<&str>) -> Reply {
    let mut r = Request::post(path)
        .header(header::HOST, "localhost")
        .header(header::CONTENT_TYPE, "application/x-www-form-urlencoded");
    if let Some(p) = peer {
        let addr: SocketAddr = p.parse().unwrap();
        r = r.extension(ConnectInfo(addr));
    }
    send(router, r.body(Body::from(body)).unwrap()).await
}

/// Sends `n` copies of one login at once; the statuses of the answers.
async fn at_once(s: &School, path: &'static str, body: String, n: usize) -> Vec<u16> {
    let mut set = JoinSet::new();
    for _ in 0..n {
        let (router, body) = (s.router(), body.clone());
        set.spawn(async move { login(router, path, body, None).await.status.as_u16() });
    }
    set.join_all().await
}

fn count(statuses: &[u16], status: u16) -> usize {
    statuses.iter().filter(|s| **s == status).count()
}

/// A wrong picture code for the class A student.
fn wrong_student_login(s: &School) -> String {
    let student = s.store.student_login(&s.class_code, "a1").unwrap().unwrap();
    let wrong = if student.code.to_string() == "0-0-0" {
        "1-1-1"
    } else {
        "0-0-0"
    };
    format!("class={}&name=a1&code={wrong}", s.class_code)
}

fn right_student_login(s: &School) -> String {
    let student = s.store.student_login(&s.class_code, "a1").unwrap().unwrap();
    format!("class={}&name=a1&code={}", s.class_code, student.code)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hundred_teacher_logins_at_once_check_no_more_than_the_limit() {
    let s = School::new("parallel-teachers").await;
    let statuses = at_once(
        &s,
        "/login/teacher",
        "name=t1&password=wrong+wrong+wrong".into(),
        100,
    )
    .await;
    assert!(count(&statuses, 401) <= 8, "{statuses:?}");
    // Refused by the limit, or (on a machine of fewer than two cores) told busy.
    assert_eq!(
        count(&statuses, 401) + count(&statuses, 429) + count(&statuses, 503),
        100,
        "{statuses:?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hundred_student_logins_at_once_check_no_more_than_the_limit() {
    let s = School::new("parallel-students").await;
    let statuses = at_once(&s, "/login/student", wrong_student_login(&s), 100).await;
    assert!(count(&statuses, 401) <= 8, "{statuses:?}");
    // Refused by the limit, or (on a machine of fewer than two cores) told busy.
    assert_eq!(
        count(&statuses, 401) + count(&statuses, 429) + count(&statuses, 503),
        100,
        "{statuses:?}"
    );
}

#[tokio::test]
async fn a_flood_of_junk_names_does_not_unlock_a_locked_name() {
    let s = School::new("flood").await;
    let router = s.router();
    for _ in 0..8 {
        let r = login(
            router.clone(),
            "/login/student",
            wrong_student_login(&s),
            None,
        )
        .await;
        assert_eq!(r.status, 401);
    }
    // More junk names than the table holds.
    for i in 0..10_050 {
        let body = format!("class={}&name=junk{i}&code=0-0-0", s.class_code);
        login(router.clone(), "/login/student", body, None).await;
    }
    let r = login(
        router.clone(),
        "/login/student",
        right_student_login(&s),
        None,
    )
    .await;
    assert_eq!(r.status, 429, "the locked name was let in after a flood");
}

#[tokio::test]
async fn one_address_cannot_try_name_after_name() {
    let s = School::new("one-address").await;
    let router = s.router();
    let mut refused = None;
    for i in 0..400 {
        let body = format!("class={}&name=junk{i}&code=0-0-0", s.class_code);
        let r = login(
            router.clone(),
            "/login/student",
            body,
            Some("10.1.2.3:5000"),
        )
        .await;
        if r.status == 429 {
            refused = Some(i);
            break;
        }
    }
    assert_eq!(
        refused,
        Some(240),
        "one address tried 240 names, then was refused"
    );
    // Another address of the class still logs in.
    let r = login(
        router.clone(),
        "/login/student",
        right_student_login(&s),
        Some("10.1.2.4:5000"),
    )
    .await;
    assert_eq!(r.status, 303);
}

#[tokio::test]
async fn a_student_cannot_lock_the_teacher_out() {
    let s = School::new("teacher-lockout").await;
    let router = s.router();
    for _ in 0..12 {
        login(
            router.clone(),
            "/login/teacher",
            "name=t1&password=guess+guess+guess".into(),
            Some("10.1.2.30:4000"),
        )
        .await;
    }
    let r = login(
        router.clone(),
        "/login/teacher",
        "name=t1&password=guess+guess+guess".into(),
        Some("10.1.2.30:4000"),
    )
    .await;
    assert_eq!(r.status, 429, "the guessing address is locked");
    let r = login(
        router.clone(),
        "/login/teacher",
        format!("name=t1&password={}", PASSWORD.replace(' ', "+")),
        Some("10.1.2.1:4000"),
    )
    .await;
    assert_eq!(r.status, 303, "the teacher logs in from their own machine");
}

/// A machine is given a whole IPv6 /64: stepping through its addresses does not reset the
/// per-address login limit (the same client as the lobby's limits count).
#[tokio::test]
async fn addresses_of_one_ipv6_network_are_one_client() {
    let s = School::new("ipv6-network").await;
    let router = s.router();
    for i in 1..=40 {
        login(
            router.clone(),
            "/login/teacher",
            format!("name=x{i}&password=guess+guess+guess"),
            Some(&format!("[2001:db8:5:6::{i:x}]:4000")),
        )
        .await;
    }
    let r = login(
        router.clone(),
        "/login/teacher",
        "name=y&password=guess+guess+guess".into(),
        Some("[2001:db8:5:6:ffff::1]:4000"),
    )
    .await;
    assert_eq!(r.status, 429, "the /64 has spent its tries");
    let r = login(
        router.clone(),
        "/login/teacher",
        format!("name=t1&password={}", PASSWORD.replace(' ', "+")),
        Some("[2001:db8:5:7::1]:4000"),
    )
    .await;
    assert_eq!(r.status, 303, "another network logs in");
}

#[tokio::test]
async fn a_password_that_cannot_be_checked_is_not_a_wrong_password() {
    let s = School::new("malformed-hash").await;
    s.store.set_password("t1", "not a hash").unwrap();
    for _ in 0..12 {
        let r = s
            .post_form(
                None,
                "/login/teacher?lang=en",
                "name=t1&password=correct+horse+battery",
            )
            .await;
        assert_eq!(r.status, 500, "{}", r.body);
        assert!(r.body.contains("could not be checked"), "{}", r.body);
        assert!(!r.body.contains("is not right"), "{}", r.body);
    }
    // None of them counted as a failure.
    s.store
        .set_password("t1", &qiyuan::class::password::hash(PASSWORD))
        .unwrap();
    let r = s
        .post_form(
            None,
            "/login/teacher",
            "name=t1&password=correct+horse+battery",
        )
        .await;
    assert_eq!(r.status, 303);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn logins_beyond_the_hashing_cap_are_told_busy_and_not_counted() {
    let mut s = School::new("busy").await;
    s.state = s
        .state
        .clone()
        .with_password_gate(qiyuan::class::password::Gate::new(1, 0));
    let mut set = JoinSet::new();
    for i in 0..24 {
        let router = s.router();
        set.spawn(async move {
            login(
                router,
                "/login/teacher?lang=en",
                format!("name=nobody{i}&password=x"),
                None,
            )
            .await
        });
    }
    let replies = set.join_all().await;
    let busy: Vec<&Reply> = replies.iter().filter(|r| r.status == 503).collect();
    assert!(!busy.is_empty(), "no login was told busy");
    assert!(
        busy[0].body.contains("Try again in a moment"),
        "{}",
        busy[0].body
    );
    assert_eq!(busy[0].headers[header::RETRY_AFTER], "1");
    assert!(replies.iter().all(|r| r.status == 401 || r.status == 503));
    // Busy tries are not failures: twenty at once for t1, then the right password works.
    let statuses = at_once(&s, "/login/teacher", "name=t1&password=wrong".into(), 20).await;
    assert!(count(&statuses, 503) > 0, "{statuses:?}");
    let r = s
        .post_form(
            None,
            "/login/teacher",
            "name=t1&password=correct+horse+battery",
        )
        .await;
    assert_eq!(r.status, 303, "busy tries were counted as failures");
}

fn attempt(play: &str) -> String {
    format!(r#"{{"game":"go","set":"captures","id":"1","moves":[],"play":"{play}","lang":"en"}}"#)
}

#[tokio::test]
async fn a_full_disk_loses_no_acknowledged_attempt() {
    let s = School::new("full-disk").await;
    let size = |f: &str| std::fs::metadata(s.dir.join(f)).map_or(0, |m| m.len());
    let pages = ((size("qiyuan.db") + size("qiyuan.db-wal")) / 4096) as u32 + 4;
    s.store.simulate_full_disk(pages).unwrap();
    let (mut answered, mut refused, mut in_a_row) = (0usize, 0usize, 0usize);
    for _ in 0..5_000 {
        let r = s
            .post_json(Some(&s.student), "/api/attempt", &attempt("A1"))
            .await;
        match r.status.as_u16() {
            200 => {
                answered += 1;
                in_a_row = 0;
            }
            503 => {
                assert!(r.body.contains("Not saved"), "{}", r.body);
                refused += 1;
                in_a_row += 1;
                if in_a_row == 20 {
                    break;
                }
            }
            other => panic!("{other}: {}", r.body),
        }
    }
    assert!(
        answered > 0 && refused > 0,
        "{answered} answered, {refused} refused"
    );
    let kept = s.store.student_history(s.student_id).unwrap().tries.len();
    assert_eq!(
        kept, answered,
        "every attempt answered 200 is in the database"
    );
}

fn hint(id: &str) -> String {
    format!(r#"{{"kind":"hint","game":"go","set":"captures","id":"{id}","csrf":"{{csrf}}"}}"#)
}

#[tokio::test]
async fn events_for_problems_that_do_not_exist_are_refused() {
    let s = School::new("event-missing").await;
    for body in [
        hint("no-such-problem"),
        r#"{"kind":"hint","game":"go","set":"no-such-set","id":"1","csrf":"{csrf}"}"#.into(),
        r#"{"kind":"lesson-finished","game":"go","set":"no-such-lesson","csrf":"{csrf}"}"#.into(),
    ] {
        let r = s
            .post_json(Some(&s.student), "/api/class/event", &body)
            .await;
        assert_eq!(r.status, 404, "{body}: {}", r.body);
    }
    let h = s.store.student_history(s.student_id).unwrap();
    assert!(h.tries.is_empty() && h.readings.is_empty(), "{h:?}");
}

#[tokio::test]
async fn events_beyond_the_rate_are_refused() {
    let s = School::new("event-rate").await;
    let mut statuses = Vec::new();
    for _ in 0..100 {
        let r = s
            .post_json(Some(&s.student), "/api/class/event?lang=en", &hint("1"))
            .await;
        statuses.push(r.status.as_u16());
        if r.status == 429 {
            assert!(r.body.contains("wait a minute"), "{}", r.body);
        }
    }
    assert_eq!(count(&statuses, 204), 60, "{statuses:?}");
    assert_eq!(count(&statuses, 429), 40, "{statuses:?}");
    let kept = s.store.student_history(s.student_id).unwrap().tries.len();
    assert_eq!(kept, 60);
    // Another student is counted apart.
    let r = s
        .post_json(Some(&s.other_student), "/api/class/event", &hint("1"))
        .await;
    assert_eq!(r.status, 204);
}

#[tokio::test]
async fn lesson_reads_and_views_beyond_the_rate_are_not_kept() {
    let s = School::new("read-rate").await;
    let mut statuses = Vec::new();
    for _ in 0..70 {
        let r = s
            .post_form(
                Some(&s.student),
                "/me/read",
                "csrf={csrf}&game=go&slug=liberties",
            )
            .await;
        statuses.push(r.status.as_u16());
    }
    assert_eq!(count(&statuses, 303), 60, "{statuses:?}");
    assert_eq!(count(&statuses, 429), 10, "{statuses:?}");
    for _ in 0..70 {
        let r = s.get(Some(&s.student), "/go/lessons/liberties").await;
        assert_eq!(r.status, 200, "the page is served whatever the count");
    }
    let readings = s.store.student_history(s.student_id).unwrap().readings;
    assert_eq!(readings.len(), 120, "60 reads and 60 views kept");
}

#[tokio::test]
async fn merged_progress_is_not_homework_solved_at_the_first_try() {
    let s = School::new("merge-homework").await;
    s.store
        .assign(
            s.class,
            "week 1",
            &[Task::parse("go/problems/captures/1").unwrap()],
            None,
        )
        .unwrap();
    let r = s
        .post_json(
            Some(&s.student),
            "/api/class/merge",
            r#"{"csrf":"{csrf}","entries":[{"key":"go/captures/1","state":"solved"}]}"#,
        )
        .await;
    assert_eq!(r.json()["merged"], 1, "{}", r.body);
    let me = s.get(Some(&s.student), "/me?lang=en").await;
    assert!(me.body.contains("0 of 1 done"), "{}", me.body);
    let csv = s
        .get(
            Some(&s.teacher),
            &format!("/teacher/classes/{}/grid.csv", s.class.0),
        )
        .await;
    assert_eq!(csv.status, 200, "{}", csv.body);
    assert!(!csv.body.contains("first-try"), "{}", csv.body);
}

#[tokio::test]
async fn next_goes_only_to_a_path_on_this_site() {
    let s = School::new("next").await;
    let router = s.router();
    let right = right_student_login(&s);
    for (next, expect) in [
        ("%2Fgo%2Fproblems%2Fcaptures%2F1", "/go/problems/captures/1"),
        ("%2F%09%2Fevil.example", "/me?merge=1"),
        ("%2F%2Fevil.example", "/me?merge=1"),
        ("%2F%5Cevil.example", "/me?merge=1"),
        ("%2F%5C%2Fevil.example", "/me?merge=1"),
        ("%2Fa%0D%0ASet-Cookie%3A+x%3D1", "/me?merge=1"),
        ("%2Fa%0Ab", "/me?merge=1"),
        ("https%3A%2F%2Fevil.example", "/me?merge=1"),
        ("javascript%3Aalert(1)", "/me?merge=1"),
        ("%20%2F%2Fevil.example", "/me?merge=1"),
    ] {
        let r = login(
            router.clone(),
            "/login/student",
            format!("{right}&next={next}"),
            None,
        )
        .await;
        assert_eq!(r.status, 303, "next={next}: {}", r.body);
        assert_eq!(r.headers[header::LOCATION], expect, "next={next}");
    }
}

#[tokio::test]
async fn secure_cookies_marks_every_cookie_secure() {
    let s = School::new("secure").await;
    let router = qiyuan::web::serve::secure_cookies(s.router());
    let r = login(
        router.clone(),
        "/login/teacher",
        "name=t1&password=correct+horse+battery".into(),
        None,
    )
    .await;
    assert_eq!(r.status, 303);
    let set = r.headers[header::SET_COOKIE].to_str().unwrap();
    assert!(set.ends_with("; Secure"), "{set}");
    let lang = send(
        router.clone(),
        Request::get("/?lang=en")
            .header(header::HOST, "localhost")
            .body(Body::empty())
            .unwrap(),
    )
    .await;
    for c in lang.headers.get_all(header::SET_COOKIE) {
        assert!(c.to_str().unwrap().ends_with("; Secure"), "{c:?}");
    }
    // Without the flag, no Secure (a LAN server over plain HTTP).
    let plain = login(
        s.router(),
        "/login/teacher",
        "name=t1&password=correct+horse+battery".into(),
        None,
    )
    .await;
    let set = plain.headers[header::SET_COOKIE].to_str().unwrap();
    assert!(!set.contains("Secure"), "{set}");
}

/// A login through the reverse proxy at 10.9.9.9 for the client `forwarded_for`, over
/// HTTPS, with `password`; sent by `peer` (the proxy itself, or a client naming itself).
async fn login_via_proxy(
    router: axum::Router,
    peer: &str,
    forwarded_for: &str,
    password: &str,
) -> Reply {
    let addr: SocketAddr = peer.parse().unwrap();
    let r = Request::post("/login/teacher")
        .header(header::HOST, "localhost")
        .header(header::CONTENT_TYPE, "application/x-www-form-urlencoded")
        .header("x-forwarded-for", forwarded_for)
        .header("x-forwarded-proto", "https")
        .extension(ConnectInfo(addr));
    let body = format!("name=t1&password={}", password.replace(' ', "+"));
    send(router, r.body(Body::from(body)).unwrap()).await
}

/// Behind `--trusted-proxy`, the proxy's `X-Forwarded-For` names the client the limits count
/// (a guesser through the proxy locks out only itself, not the teacher behind the same
/// proxy) and `X-Forwarded-Proto: https` makes cookies `Secure`; the same headers from any
/// other peer are ignored.
#[tokio::test]
async fn behind_a_trusted_proxy_the_forwarded_client_is_counted_and_cookies_are_secure() {
    let s = School::new("proxy").await;
    let router = qiyuan::web::serve::behind_proxy(s.router(), "10.9.9.9".parse().unwrap());
    let proxy = "10.9.9.9:443";
    for _ in 0..13 {
        login_via_proxy(router.clone(), proxy, "203.0.113.5", "guess guess guess").await;
    }
    let r = login_via_proxy(router.clone(), proxy, "203.0.113.5", "guess guess guess").await;
    assert_eq!(r.status, 429, "the guessing client is locked");
    let r = login_via_proxy(router.clone(), proxy, "198.51.100.7, 203.0.113.6", PASSWORD).await;
    assert_eq!(
        r.status, 303,
        "the teacher behind the same proxy logs in: {}",
        r.body
    );
    let set = r.headers[header::SET_COOKIE].to_str().unwrap();
    assert!(set.ends_with("; Secure"), "{set}");
    // A client that is not the proxy cannot name itself another client, nor ask for HTTPS.
    let other = "10.1.2.40:4000";
    for _ in 0..13 {
        login_via_proxy(router.clone(), other, "203.0.113.99", "guess guess guess").await;
    }
    let r = login_via_proxy(router.clone(), other, "203.0.113.100", "guess guess guess").await;
    assert_eq!(
        r.status, 429,
        "its own address is counted, whatever it forwards"
    );
    let r = login_via_proxy(router.clone(), "10.1.2.41:4000", "203.0.113.5", PASSWORD).await;
    assert_eq!(r.status, 303, "{}", r.body);
    let set = r.headers[header::SET_COOKIE].to_str().unwrap();
    assert!(!set.contains("Secure"), "{set}");
}

#[test]
fn a_second_server_on_the_same_data_folder_is_refused() {
    use std::io::{BufRead, BufReader, Read};
    use std::process::{Command, Stdio};
    let dir = std::env::temp_dir().join(format!(
        "qiyuan-second-server-{}-{}",
        std::process::id(),
        qiyuan::random::token()
    ));
    let server = |dir: &std::path::Path| {
        Command::new(env!("CARGO_BIN_EXE_qiyuan"))
            .args(["serve", "--addr", "127.0.0.1:0", "--data"])
            .arg(dir)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap()
    };
    let mut first = server(&dir);
    let mut line = String::new();
    BufReader::new(first.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    assert!(line.contains("serving"), "{line}");
    let mut second = server(&dir);
    // The second one must stop by itself; if it serves, it is stopped after a minute.
    let mut status = None;
    for _ in 0..600 {
        if let Some(s) = second.try_wait().unwrap() {
            status = Some(s);
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    let _ = second.kill();
    let _ = first.kill();
    let _ = first.wait();
    let mut stderr = String::new();
    second
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut stderr)
        .unwrap();
    let _ = second.wait();
    let _ = std::fs::remove_dir_all(&dir);
    let status = status.expect("the second server kept running");
    assert!(!status.success());
    let shown = dir.display().to_string();
    assert!(
        stderr.contains(&format!(
            "Another qiyuan is already serving the data folder {shown}"
        )),
        "{stderr}"
    );
    assert!(
        stderr.contains(&format!("另一个 qiyuan 已经在使用数据文件夹 {shown}")),
        "{stderr}"
    );
}
