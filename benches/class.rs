//! Benchmark: the teacher's class page (roster, homework, the students × problems grid) of a
//! class of 40 students with 10,000 tries, against the same page of an empty class measured
//! in the same run. The goal is under 50 ms.
//!
//! Run with `cargo bench --bench class`.

use axum::body::Body;
use axum::http::{header, Request};
use criterion::{criterion_group, criterion_main, Criterion};
use http_body_util::BodyExt;
use qiyuan::class::sqlite::Sqlite;
use qiyuan::class::{password, Account, Act, Role, Roster, Store, Task, Try};
use qiyuan::web::{app, AppState};
use std::hint::black_box;
use std::sync::Arc;
use tower::ServiceExt;

const STUDENTS: usize = 40;
const TRIES: usize = 10_000;

fn bench(c: &mut Criterion) {
    let dir = std::env::temp_dir().join(format!("qiyuan-bench-class-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let store = Arc::new(Sqlite::open(&dir).unwrap());
    let teacher = store.add_teacher("t", &password::hash("bench")).unwrap();
    let full = store.create_class(teacher, "full").unwrap();
    let empty = store.create_class(teacher, "empty").unwrap();
    let names: Vec<String> = (0..STUDENTS).map(|i| format!("学生{i}")).collect();
    let students = store
        .add_students(full.id, &Roster::parse(&names.join("\n")).unwrap())
        .unwrap();
    let state = AppState::embedded().with_store(store.clone(), Some(dir.clone()));
    let library = state.snapshot().library;
    // Homework: every Go problem set (about 200 problems), and the tries spread over them.
    let go = &library.shelves[0];
    let sets: Vec<Task> = go
        .sets
        .iter()
        .map(|s| Task::Set {
            game: "go".into(),
            set: s.slug.clone(),
        })
        .collect();
    for chunk in sets.chunks(5) {
        store.assign(full.id, "作业", chunk, None).unwrap();
    }
    store.assign(empty.id, "作业", &sets[..5], None).unwrap();
    let problems: Vec<(String, String)> = go
        .sets
        .iter()
        .flat_map(|s| s.problems.iter().map(|p| (s.slug.clone(), p.id.clone())))
        .collect();
    let start = qiyuan::class::now() - 20 * 86_400_000;
    for i in 0..TRIES {
        let (set, id) = &problems[(i * 7) % problems.len()];
        let verdict = ["wrong", "correct", "solved", "illegal"][i % 4];
        store
            .record_try(&Try {
                student: students[i % STUDENTS].id,
                game: "go".into(),
                set: set.clone(),
                problem: id.clone(),
                act: Act::Move {
                    before: String::new(),
                    played: "D4".into(),
                    verdict: verdict.into(),
                },
                at: start + i as i64 * 150_000,
            })
            .unwrap();
    }
    let token = qiyuan::random::token();
    store
        .open_session(
            &password::token_hash(&token),
            &Account {
                role: Role::Teacher(teacher),
                name: "t".into(),
                csrf: qiyuan::random::token(),
                expires: qiyuan::class::now() + 86_400_000,
            },
        )
        .unwrap();
    let cookie = format!("qiyuan-session={token}");
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let router = app(state);
    let get = |path: String| {
        let (router, cookie) = (router.clone(), cookie.clone());
        runtime.block_on(async move {
            let response = router
                .oneshot(
                    Request::get(path)
                        .header(header::COOKIE, cookie)
                        .body(Body::empty())
                        .unwrap(),
                )
                .await
                .unwrap();
            assert_eq!(response.status(), 200);
            response.into_body().collect().await.unwrap().to_bytes()
        })
    };
    let mut group = c.benchmark_group("class");
    group.sample_size(20);
    group.bench_function("page/empty-class (baseline)", |b| {
        b.iter(|| black_box(get(format!("/teacher/classes/{}", empty.id.0))))
    });
    group.bench_function("page/40-students-10000-tries", |b| {
        b.iter(|| black_box(get(format!("/teacher/classes/{}", full.id.0))))
    });
    // Where the page's time goes: reading the class's history, and summing it up.
    group.bench_function("part/class_history-10000-tries", |b| {
        b.iter(|| black_box(store.class_history(full.id).unwrap()))
    });
    let history = store.class_history(full.id).unwrap();
    group.bench_function("part/summarize-10000-tries", |b| {
        b.iter(|| black_box(qiyuan::class::progress::summarize(&history.tries)))
    });
    let page = get(format!("/teacher/classes/{}", full.id.0));
    println!("the page: {} bytes", page.len());
    group.bench_function("grid.csv/40-students-10000-tries", |b| {
        b.iter(|| black_box(get(format!("/teacher/classes/{}/grid.csv", full.id.0))))
    });
    group.finish();
    let _ = std::fs::remove_dir_all(&dir);
}

criterion_group!(benches, bench);
criterion_main!(benches);
