//! "Show why" on Go life-and-death problems: after a wrong move, the solver's refutation is
//! stepped through on the board; once solved, the proof from the start. The lines are
//! compared with the author's (the refutation and the solution written in the problem),
//! which the solver did not write.

use axum::body::Body;
use axum::http::Request;
use http_body_util::BodyExt;
use qiyuan::web::{app, AppState};
use tower::ServiceExt;

fn state() -> AppState {
    static STATE: std::sync::OnceLock<AppState> = std::sync::OnceLock::new();
    STATE.get_or_init(AppState::embedded).clone()
}

async fn get(uri: &str) -> String {
    let response = app(state())
        .oneshot(Request::get(uri).body(Body::empty()).unwrap())
        .await
        .unwrap();
    let body = response.into_body().collect().await.unwrap().to_bytes();
    String::from_utf8(body.to_vec()).unwrap()
}

/// `life-and-death` 15: White lives with D7 in the crossed five; the author's wrong line
/// `D8 D7` is refuted by Black D7.
const URI: &str = "/go/problems/life-and-death/15";

#[tokio::test]
async fn show_why_steps_through_the_refutation_of_a_wrong_move() {
    let wrong = get(&format!("{URI}?play=D8&lang=en")).await;
    assert!(wrong.contains("verdict wrong"), "{wrong}");
    let link = format!("{URI}?w=D8&#38;why=1");
    assert!(wrong.contains(&link), "no show-why link in {wrong}");
    assert!(wrong.contains(">Show why<"));
    let step1 = get(&format!("{URI}?w=D8&why=1&lang=en")).await;
    assert!(step1.contains("verdict solution"), "{step1}");
    // The solver's refutation is the author's: Black D7.
    assert!(step1.contains("<b>D8</b> D7"), "{step1}");
    assert!(step1.contains("Why D8 fails"), "{step1}");
    assert!(step1.contains(&format!("{URI}?w=D8&#38;why=2")), "{step1}");
    let step2 = get(&format!("{URI}?w=D8&why=2&lang=zh")).await;
    assert!(step2.contains("<b>D8</b> <b>D7</b>"), "{step2}");
    assert!(step2.contains("为什么不行"), "{step2}");
    assert!(step2.contains(&format!("{URI}?w=D8&#38;why=1")), "{step2}");
}

#[tokio::test]
async fn show_why_steps_through_the_proof_once_solved() {
    let solved = get(&format!("{URI}?play=D7&lang=en")).await;
    assert!(solved.contains("verdict solved"), "{solved}");
    assert!(solved.contains(&format!("{URI}?why=1")), "{solved}");
    let proof = get(&format!("{URI}?why=1&lang=en")).await;
    // The proof starts with the author's solution.
    assert!(proof.contains("<b>D7</b>"), "{proof}");
    assert!(proof.contains("The solver&#39;s proof"), "{proof}");
}

#[tokio::test]
async fn no_show_why_on_a_problem_the_solver_does_not_judge() {
    // A capture problem: the lines alone decide.
    let body = get("/go/problems/captures/1?play=A1&lang=en").await;
    assert!(!body.contains("why=1"), "{body}");
}
