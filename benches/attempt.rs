//! Benchmark: judging one attempt, by the engine alone and through the whole API.
//!
//! Run with `cargo bench --bench attempt`. The goal is well under 200 µs at the median.

use axum::body::Body;
use axum::http::{header, Request};
use criterion::{criterion_group, criterion_main, Criterion};
use http_body_util::BodyExt;
use qiyuan::content::go::GoGoal;
use qiyuan::content::{Library, Puzzle};
use qiyuan::web::{app, AppState};
use std::hint::black_box;
use tower::ServiceExt;

/// The first capture problem: (set, id, first correct move, puzzle).
fn capture_problem(library: &Library) -> (String, String, String, Puzzle) {
    for set in &library.shelves[0].sets {
        for p in &set.problems {
            if let Puzzle::Go(
                go @ qiyuan::content::go::GoPuzzle {
                    goal: GoGoal::Capture(_),
                    ..
                },
            ) = &p.puzzle
            {
                let first = go.lines.main_line()[0].clone();
                return (set.slug.clone(), p.id.clone(), first, p.puzzle.clone());
            }
        }
    }
    panic!("no capture problem");
}

fn bench(c: &mut Criterion) {
    let state = AppState::embedded();
    let library = state.snapshot().library;
    let (set, id, first, puzzle) = capture_problem(&library);

    c.bench_function("attempt/engine", |b| {
        b.iter(|| black_box(puzzle.attempt(&[], &[], black_box(&first))))
    });

    let runtime = tokio::runtime::Runtime::new().unwrap();
    let router = app(state);
    let body = serde_json::json!({"game": "go", "set": set, "id": id, "play": first, "lang": "zh"})
        .to_string();
    c.bench_function("attempt/api", |b| {
        b.iter(|| {
            runtime.block_on(async {
                let response = router
                    .clone()
                    .oneshot(
                        Request::post("/api/attempt")
                            .header(header::CONTENT_TYPE, "application/json")
                            .body(Body::from(body.clone()))
                            .unwrap(),
                    )
                    .await
                    .unwrap();
                black_box(response.into_body().collect().await.unwrap().to_bytes())
            })
        })
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
