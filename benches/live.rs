//! The live board under a class of 40: every student answers at once and the teacher's event
//! stream is read until it counts all 40. Measures that latency (from the first answer sent to
//! the teacher's event with 40 answers) and, as the baseline measured in the same run under
//! the same concurrency, 40 `GET /health` at once. In process, through the real router and a
//! real SQLite store (every answer is written as a try), without sockets.
//!
//! `cargo bench --bench live` (`-- --rounds N --students S` to change the load).

use axum::body::Body;
use axum::http::{header, Request};
use http_body_util::BodyExt;
use qiyuan::class::sqlite::Sqlite;
use qiyuan::class::{password, Account, Role, Roster, Store};
use qiyuan::web::{app, AppState};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tower::ServiceExt;

struct Session {
    cookie: String,
    csrf: String,
}

fn session(store: &Sqlite, role: Role) -> Session {
    let token = qiyuan::random::token();
    let csrf = qiyuan::random::token();
    store
        .open_session(
            &password::token_hash(&token),
            &Account {
                role,
                name: "bench".into(),
                csrf: csrf.clone(),
                expires: qiyuan::class::now() + 3_600_000,
            },
        )
        .unwrap();
    Session {
        cookie: format!("qiyuan-session={token}"),
        csrf,
    }
}

async fn post(router: &axum::Router, who: &Session, path: &str, body: String) -> u16 {
    let r = Request::post(path)
        .header(header::HOST, "bench")
        .header(header::COOKIE, &who.cookie)
        .header(header::CONTENT_TYPE, "application/x-www-form-urlencoded")
        .body(Body::from(body))
        .unwrap();
    let response = router.clone().oneshot(r).await.unwrap();
    let status = response.status().as_u16();
    let _ = response.into_body().collect().await;
    status
}

/// Reads the teacher's stream until an event counts `n` answers.
async fn until_answered(body: &mut Body, buffer: &mut String, n: usize) {
    let want = format!("\"answered\":{n},");
    loop {
        if let Some(end) = buffer.find("\n\n") {
            let block: String = buffer.drain(..end + 2).collect();
            if block.contains(&want) {
                return;
            }
            continue;
        }
        let frame = body.frame().await.expect("the stream is open").unwrap();
        if let Ok(bytes) = frame.into_data() {
            buffer.push_str(&String::from_utf8_lossy(&bytes));
        }
    }
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    sorted[((sorted.len() - 1) as f64 * p).round() as usize]
}

fn ms(d: Duration) -> String {
    format!("{:.2} ms", d.as_secs_f64() * 1e3)
}

#[tokio::main(flavor = "multi_thread")]
async fn main() {
    let args: Vec<String> = std::env::args().collect();
    let arg = |name: &str, default: usize| {
        args.iter()
            .position(|a| a == name)
            .and_then(|i| args.get(i + 1))
            .and_then(|v| v.parse().ok())
            .unwrap_or(default)
    };
    let (rounds, size) = (arg("--rounds", 30), arg("--students", 40));
    let dir = std::env::temp_dir().join(format!("qiyuan-bench-live-{}", std::process::id()));
    let store = Arc::new(Sqlite::open(&dir).unwrap());
    let teacher = store
        .add_teacher("t", &password::hash("bench password"))
        .unwrap();
    let class = store.create_class(teacher, "A").unwrap();
    let names: Vec<String> = (1..=size).map(|i| format!("s{i}")).collect();
    let students: Vec<Session> = store
        .add_students(class.id, &Roster::parse(&names.join("\n")).unwrap())
        .unwrap()
        .iter()
        .map(|s| session(&store, Role::Student(s.id, class.id)))
        .collect();
    let teacher = session(&store, Role::Teacher(teacher));
    let router = app(AppState::embedded().with_store(store.clone(), Some(dir.clone())));
    let live = format!("/teacher/classes/{}/live", class.id.0);
    let events = router
        .clone()
        .oneshot(
            Request::get(format!("{live}/events"))
                .header(header::HOST, "bench")
                .header(header::COOKIE, &teacher.cookie)
                .body(Body::empty())
                .unwrap(),
        )
        .await
        .unwrap();
    assert_eq!(events.status(), 200);
    let mut body = events.into_body();
    let mut buffer = String::new();

    let (mut answers, mut health) = (Vec::new(), Vec::new());
    for round in 0..rounds {
        // Every round a fresh problem: captures #1 again clears the answers.
        let started = post(
            &router,
            &teacher,
            &live,
            format!("csrf={}&problem=go%2Fproblems%2Fcaptures%2F1", teacher.csrf),
        )
        .await;
        assert_eq!(started, 303);
        until_answered(&mut body, &mut buffer, 0).await;

        let t = Instant::now();
        let sent = students.iter().enumerate().map(|(i, who)| {
            let mv = if (i + round) % 3 == 0 { "E4" } else { "D4" };
            post(
                &router,
                who,
                "/live/answer",
                format!("csrf={}&answer={mv}", who.csrf),
            )
        });
        let (statuses, ()) = tokio::join!(
            futures_util::future::join_all(sent),
            until_answered(&mut body, &mut buffer, size)
        );
        answers.push(t.elapsed());
        assert!(statuses.iter().all(|s| *s == 303), "{statuses:?}");

        let t = Instant::now();
        let pings = (0..size).map(|_| {
            router.clone().oneshot(
                Request::get("/health")
                    .header(header::HOST, "bench")
                    .body(Body::empty())
                    .unwrap(),
            )
        });
        for r in futures_util::future::join_all(pings).await {
            assert_eq!(r.unwrap().status(), 200);
        }
        health.push(t.elapsed());
    }
    answers.sort();
    health.sort();
    let tries = store.class_history(class.id).unwrap().tries.len();
    assert_eq!(tries, rounds * size);
    println!(
        "live board: {size} students answering at once, {rounds} rounds ({tries} tries written)"
    );
    println!(
        "  {size} answers -> teacher's event: median {}, p90 {}, max {}",
        ms(percentile(&answers, 0.5)),
        ms(percentile(&answers, 0.9)),
        ms(*answers.last().unwrap())
    );
    println!(
        "  baseline, {size} GET /health at once: median {}, p90 {}",
        ms(percentile(&health, 0.5)),
        ms(percentile(&health, 0.9))
    );
    println!(
        "  ratio (median): {:.1}x the baseline",
        percentile(&answers, 0.5).as_secs_f64() / percentile(&health, 0.5).as_secs_f64()
    );
    let _ = std::fs::remove_dir_all(&dir);
}
