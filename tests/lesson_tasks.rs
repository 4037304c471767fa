//! Lesson tasks on the web: every lesson asks the learner to act, a right move solves the task
//! and opens the next step, a wrong or illegal one is refused with the reason, and everything
//! works through plain links as well as through `POST /api/lesson-attempt`, in zh and en.

mod common;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use http_body_util::BodyExt;
use qiyuan::web::{app, AppState};
use serde_json::{json, Value};
use tower::ServiceExt;

/// The built-in content, loaded once for all the tests of this file.
fn state() -> AppState {
    static STATE: std::sync::OnceLock<AppState> = std::sync::OnceLock::new();
    STATE.get_or_init(AppState::embedded).clone()
}

async fn get(uri: &str) -> (StatusCode, String) {
    let response = app(state())
        .oneshot(Request::get(uri).body(Body::empty()).unwrap())
        .await
        .unwrap();
    let status = response.status();
    let body = response.into_body().collect().await.unwrap().to_bytes();
    (status, String::from_utf8(body.to_vec()).unwrap())
}

async fn lesson_attempt(body: Value) -> (StatusCode, Value) {
    let (status, bytes) = common::post_json(app(state()), "/api/lesson-attempt", &body).await;
    (
        status,
        serde_json::from_slice(&bytes).unwrap_or(Value::Null),
    )
}

/// The `<figure>` with this `id` in a page.
fn figure<'a>(html: &'a str, id: &str) -> &'a str {
    let start = html
        .find(&format!("id=\"{id}\""))
        .unwrap_or_else(|| panic!("no figure {id}"));
    let start = html[..start].rfind("<figure").unwrap();
    let end = start + html[start..].find("</figure>").unwrap();
    &html[start..end]
}

#[test]
fn every_lesson_asks_the_learner_to_act_in_a_third_of_its_diagrams() {
    let library = state().snapshot().library;
    let mut lessons = 0;
    for shelf in &library.shelves {
        for lesson in &shelf.lessons {
            for text in [&lesson.zh, &lesson.en] {
                let diagrams = text.diagrams.len();
                let with_task = text
                    .diagrams
                    .iter()
                    .filter(|d| d.frames.iter().any(|f| f.task.is_some()))
                    .count();
                assert!(
                    with_task >= diagrams.div_ceil(3),
                    "{}: {with_task} of {diagrams} diagrams ask the learner to act; at least {} should",
                    text.path,
                    diagrams.div_ceil(3)
                );
            }
            lessons += 1;
        }
    }
    assert!(lessons >= 43, "only {lessons} lessons");
}

#[test]
fn every_lesson_has_a_practice_set() {
    let library = state().snapshot().library;
    for shelf in &library.shelves {
        for lesson in &shelf.lessons {
            let sets = shelf
                .sets
                .iter()
                .filter(|s| s.lesson.as_deref() == Some(lesson.slug.as_str()))
                .filter(|s| !s.problems.is_empty())
                .count();
            assert!(
                sets >= 1,
                "{:?} lesson `{}` has no practice set (a set with `lesson = \"{}\"`)",
                shelf.game,
                lesson.slug,
                lesson.slug
            );
        }
    }
}

#[tokio::test]
async fn a_right_move_solves_the_task_and_opens_the_next_step() {
    for (lang, done) in [
        ("en", "Right! The white stone has no liberties left"),
        ("zh", "对！白子没有气了"),
    ] {
        let (status, reply) = lesson_attempt(json!({
            "game": "go", "lesson": "captures", "diagram": 0, "step": 2, "play": "E4", "lang": lang
        }))
        .await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(reply["verdict"], "solved", "{lang}: {reply}");
        assert_eq!(reply["solved"], true);
        assert_eq!(reply["moves"], json!(["E4"]));
        let figure = reply["figure"].as_str().unwrap();
        assert!(figure.contains("class=\"diagram task solved\""), "{figure}");
        assert!(
            figure.contains(done),
            "{lang}: the step says it is done: {figure}"
        );
        assert!(
            figure
                .contains("class=\"step next\" href=\"/go/lessons/captures?s=0:3#d-capture-one\""),
            "{lang}: the next step opens: {figure}"
        );
        assert_eq!(
            reply["url"],
            "/go/lessons/captures?s=0:2&t=0&m=E4#d-capture-one"
        );
    }
}

#[tokio::test]
async fn a_wrong_or_illegal_move_is_refused_with_the_reason() {
    for (lang, wrong, illegal) in [
        ("en", "Not quite.", "There is already a stone on E5"),
        ("zh", "不对", "E5 已经有棋子了"),
    ] {
        let (status, reply) = lesson_attempt(json!({
            "game": "go", "lesson": "captures", "diagram": 0, "step": 2, "play": "A1", "lang": lang
        }))
        .await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(reply["verdict"], "wrong", "{reply}");
        let figure = reply["figure"].as_str().unwrap();
        assert!(figure.contains("verdict wrong"), "{figure}");
        assert!(figure.contains(wrong), "{lang}: {figure}");
        assert!(
            figure.contains("step next disabled"),
            "{lang}: the next step stays closed: {figure}"
        );
        assert!(
            figure.contains("Take back") || figure.contains("悔一步"),
            "{lang}: a retry is offered: {figure}"
        );
        // E5 holds the white stone: the rules forbid the move, and say why.
        let (_, reply) = lesson_attempt(json!({
            "game": "go", "lesson": "captures", "diagram": 0, "step": 2, "play": "E5", "lang": lang
        }))
        .await;
        assert_eq!(reply["verdict"], "illegal", "{reply}");
        let figure = reply["figure"].as_str().unwrap();
        assert!(figure.contains("verdict illegal"), "{figure}");
        assert!(
            figure.contains(illegal),
            "{lang}: the rule's reason: {figure}"
        );
    }
}

#[tokio::test]
async fn a_task_works_through_links_without_script() {
    let (status, page) = get("/go/lessons/captures?s=0:2&lang=en").await;
    assert_eq!(status, StatusCode::OK);
    let open = figure(&page, "d-capture-one");
    assert!(
        open.contains("Your turn: capture the white stone."),
        "{open}"
    );
    assert!(
        open.contains("step next disabled"),
        "locked before it is done: {open}"
    );
    assert!(open.contains("class=\"locked-note\""), "{open}");
    let link = "/go/lessons/captures?s=0:2&amp;t=0&amp;play=E4#d-capture-one";
    assert!(open.contains(link), "every point is a link: {open}");
    let (status, page) = get(&link.replace("&amp;", "&")).await;
    assert_eq!(status, StatusCode::OK);
    let solved = figure(&page, "d-capture-one");
    assert!(solved.contains("diagram task solved"), "{solved}");
    assert!(
        solved.contains("href=\"/go/lessons/captures?s=0:3#d-capture-one\""),
        "{solved}"
    );
    // The other diagrams of the page are drawn as usual.
    assert!(page.contains("id=\"d-capture-chain\""));
    // The same in Chinese, from the same address.
    let (_, page) = get(&format!(
        "{}&lang=zh",
        link.replace("&amp;", "&").replace("#d-capture-one", "")
    ))
    .await;
    let solved = figure(&page, "d-capture-one");
    assert!(solved.contains("对！白子没有气了"), "{solved}");
    assert!(solved.contains("轮到你了"), "{solved}");
}

#[tokio::test]
async fn a_chess_piece_is_picked_up_and_moved_through_links() {
    // chess/05-check, diagram 3 ("move the king"): the king on e1 is in check.
    let base = "/chess/lessons/check?s=2:1&t=2";
    let (_, page) = get(&format!("{base}&sel=e1&lang=en")).await;
    let picked = figure(&page, "d-move-king");
    assert!(
        picked.contains("play=e1f1"),
        "the king's destinations are links: {picked}"
    );
    let (_, page) = get(&format!("{base}&play=e1f1&lang=en")).await;
    assert!(figure(&page, "d-move-king").contains("diagram task solved"));
    // Moving another piece does not answer the check.
    let (_, reply) = lesson_attempt(json!({
        "game": "chess", "lesson": "check", "diagram": 2, "step": 1, "play": "h2h3", "lang": "en"
    }))
    .await;
    assert_eq!(reply["verdict"], "illegal", "{reply}");
}

#[tokio::test]
async fn a_select_task_counts_every_liberty() {
    // go/03-liberties, diagram 1: a lone black stone on E5 has four liberties, the points
    // above, below and beside it.
    let mut picked: Vec<&str> = Vec::new();
    for (i, point) in ["E6", "F5", "E4", "D5"].into_iter().enumerate() {
        let (_, reply) = lesson_attempt(json!({
            "game": "go", "lesson": "liberties", "diagram": 0, "step": 1,
            "picked": picked, "play": point, "lang": "en"
        }))
        .await;
        picked.push(point);
        let expected = if i == 3 { "solved" } else { "found" };
        assert_eq!(reply["verdict"], expected, "{point}: {reply}");
    }
    let (_, reply) = lesson_attempt(json!({
        "game": "go", "lesson": "liberties", "diagram": 0, "step": 1, "play": "F6", "lang": "en"
    }))
    .await;
    assert_eq!(
        reply["verdict"], "not-answer",
        "a diagonal point is no liberty: {reply}"
    );
}

#[tokio::test]
async fn a_pawn_drop_on_a_file_with_a_pawn_is_refused() {
    // shogi/07-drop-rules, diagram 3: Black already has a pawn on file 7 (7f).
    let (_, reply) = lesson_attempt(json!({
        "game": "shogi", "lesson": "drop-rules", "diagram": 2, "step": 1, "play": "P*7d", "lang": "en"
    }))
    .await;
    assert_eq!(reply["verdict"], "illegal", "{reply}");
    let (_, reply) = lesson_attempt(json!({
        "game": "shogi", "lesson": "drop-rules", "diagram": 2, "step": 1, "play": "P*8d", "lang": "zh"
    }))
    .await;
    assert_eq!(
        reply["verdict"], "solved",
        "file 8 holds no Black pawn: {reply}"
    );
}

#[tokio::test]
async fn an_attempt_at_a_step_without_a_task_is_not_found() {
    for body in [
        json!({ "game": "go", "lesson": "captures", "diagram": 0, "step": 1, "play": "E4" }),
        json!({ "game": "go", "lesson": "captures", "diagram": 99, "step": 1, "play": "E4" }),
        json!({ "game": "go", "lesson": "no-such-lesson", "diagram": 0, "step": 2, "play": "E4" }),
        json!({ "game": "xiangqi", "lesson": "captures", "diagram": 0, "step": 2, "play": "E4" }),
    ] {
        let (status, _) = lesson_attempt(body.clone()).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{body}");
    }
    // Progress that does not fit the task is dropped, not trusted.
    let (_, reply) = lesson_attempt(json!({
        "game": "go", "lesson": "captures", "diagram": 0, "step": 2, "moves": ["A1", "A2"], "lang": "en"
    }))
    .await;
    assert_eq!(reply["verdict"], "ready", "{reply}");
    assert_eq!(reply["moves"], json!([]));
}
