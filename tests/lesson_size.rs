//! A lesson's HTML grows linearly with its diagrams: each step link names only its own
//! diagram, in the first state and with every diagram stepped.

use axum::body::Body;
use axum::http::{Request, StatusCode};
use http_body_util::BodyExt;
use qiyuan::content::Library;
use qiyuan::web::{app, AppState};
use tower::ServiceExt;

async fn get(state: &AppState, uri: &str) -> (StatusCode, Vec<u8>) {
    let response = app(state.clone())
        .oneshot(Request::get(uri).body(Body::empty()).unwrap())
        .await
        .unwrap();
    let status = response.status();
    let body = response.into_body().collect().await.unwrap().to_bytes();
    (status, body.to_vec())
}

/// A Go lesson with `n` diagrams of two frames each.
fn lesson_with_diagrams(n: usize) -> Library {
    let mut body = String::from("+++\ntitle = \"Many\"\n+++\n");
    for i in 0..n {
        body.push_str(&format!(
            "Diagram {i}.\n\n```goban\nsize = 3\n[[steps]]\nplay = \"B2\"\n```\n\n"
        ));
    }
    let files = vec![
        ("lessons/go/01-many.zh.md".to_string(), body.clone()),
        ("lessons/go/01-many.en.md".to_string(), body),
    ];
    let (library, errors) = Library::load(&files);
    assert!(errors.is_empty(), "{errors:?}");
    library
}

#[tokio::test]
async fn lesson_html_grows_linearly_with_its_diagrams() {
    let mut sizes = Vec::new();
    for n in [1000, 2000] {
        let state = AppState::from_library(lesson_with_diagrams(n));
        let mut size = 0;
        // The first state, and a state with every diagram stepped.
        let stepped: Vec<String> = (0..n).map(|i| format!("{i}:1")).collect();
        for uri in [
            "/go/lessons/many?lang=en".to_string(),
            format!("/go/lessons/many?lang=en&s={}", stepped.join(",")),
        ] {
            let (status, page) = get(&state, &uri).await;
            assert_eq!(status, StatusCode::OK);
            size = size.max(page.len());
        }
        sizes.push(size);
    }
    let ratio = sizes[1] as f64 / sizes[0] as f64;
    eprintln!(
        "1,000 diagrams: {} bytes; 2,000: {} bytes; ratio {ratio:.2}",
        sizes[0], sizes[1]
    );
    assert!(
        ratio < 2.2,
        "2,000 diagrams make {ratio:.2}× the page of 1,000"
    );
}
