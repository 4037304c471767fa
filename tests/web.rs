//! The router: every page answers in both languages, and the attempt API judges moves.

mod common;

use axum::body::Body;
use axum::http::{header, Request, StatusCode};
use http_body_util::BodyExt;
use qiyuan::content::go::GoGoal;
use qiyuan::content::{Library, Puzzle};
use qiyuan::web::{app, AppState};
use serde_json::{json, Value};
use tower::ServiceExt;

/// The built-in content, loaded (and its mates proven) once for all the tests of this file.
fn state() -> AppState {
    static STATE: std::sync::OnceLock<AppState> = std::sync::OnceLock::new();
    STATE.get_or_init(AppState::embedded).clone()
}

async fn get(
    state: &AppState,
    uri: &str,
    headers: &[(&str, &str)],
) -> (StatusCode, String, Option<String>) {
    let mut req = Request::get(uri);
    for (k, v) in headers {
        req = req.header(*k, *v);
    }
    let response = app(state.clone())
        .oneshot(req.body(Body::empty()).unwrap())
        .await
        .unwrap();
    let status = response.status();
    let cookie = response
        .headers()
        .get(header::SET_COOKIE)
        .map(|v| v.to_str().unwrap().to_string());
    let body = response.into_body().collect().await.unwrap().to_bytes();
    (status, String::from_utf8(body.to_vec()).unwrap(), cookie)
}

async fn attempt(state: &AppState, body: Value) -> (StatusCode, Value) {
    let (status, bytes) = common::post_json(app(state.clone()), "/api/attempt", &body).await;
    (
        status,
        serde_json::from_slice(&bytes).unwrap_or(Value::Null),
    )
}

fn library(state: &AppState) -> std::sync::Arc<Library> {
    state.snapshot().library
}

#[tokio::test]
async fn every_page_answers_in_both_languages() {
    let state = state();
    let lib = library(&state);
    let mut uris = vec!["/".to_string()];
    for shelf in &lib.shelves {
        let g = shelf.game.slug();
        uris.push(format!("/{g}"));
        for l in &shelf.lessons {
            uris.push(format!("/{g}/lessons/{}", l.slug));
            uris.push(format!("/{g}/lessons/{}/print", l.slug));
        }
        for s in &shelf.sets {
            uris.push(format!("/{g}/problems/{}", s.slug));
            uris.push(format!("/{g}/worksheets/{}", s.slug));
            for p in &s.problems {
                uris.push(format!("/{g}/problems/{}/{}", s.slug, p.id));
            }
        }
    }
    assert!(uris.len() > 45, "only {} pages", uris.len());
    for uri in &uris {
        for (lang, html_lang) in [("zh", "lang=\"zh-Hans\""), ("en", "lang=\"en\"")] {
            let sep = if uri.contains('?') { '&' } else { '?' };
            let (status, body, _) = get(&state, &format!("{uri}{sep}lang={lang}"), &[]).await;
            assert_eq!(status, StatusCode::OK, "{uri} in {lang}");
            assert!(
                body.contains(html_lang),
                "{uri} in {lang} is not marked {html_lang}"
            );
        }
    }
}

#[tokio::test]
async fn lesson_pages_step_through_diagrams_without_script() {
    let state = state();
    let lib = library(&state);
    let shelf = &lib.shelves[0];
    let lesson = shelf
        .lessons
        .iter()
        .find(|l| l.zh.diagrams.iter().any(|d| d.frames.len() > 1))
        .expect("a lesson with steps");
    let uri = format!("/go/lessons/{}", lesson.slug);
    let (_, first, _) = get(&state, &format!("{uri}?lang=en"), &[]).await;
    let d = lesson
        .en
        .diagrams
        .iter()
        .position(|d| d.frames.len() > 1)
        .unwrap();
    // The link names only its own diagram and step.
    let next = format!("{uri}?s={d}:1");
    assert!(first.contains(&next), "page links to {next}");
    let (status, stepped, _) = get(&state, &format!("{next}&lang=en"), &[]).await;
    assert_eq!(status, StatusCode::OK);
    assert!(stepped.contains(&lesson.en.diagrams[d].frames[1].svg()));
    // The same frame as a fragment, for the script.
    let (status, fragment, _) =
        get(&state, &format!("{uri}/diagram/{d}?s={d}:1&lang=en"), &[]).await;
    assert_eq!(status, StatusCode::OK);
    assert!(fragment.starts_with("<figure"));
    assert!(fragment.contains(&lesson.en.diagrams[d].frames[1].svg()));
}

#[tokio::test]
async fn chooses_language_by_query_cookie_and_header() {
    let state = state();
    let (_, body, cookie) = get(&state, "/?lang=en", &[]).await;
    assert!(body.contains("lang=\"en\""));
    assert!(cookie.unwrap().starts_with("lang=en"));
    let (_, body, cookie) = get(&state, "/", &[("cookie", "lang=en")]).await;
    assert!(body.contains("lang=\"en\""));
    assert!(cookie.is_none());
    let (_, body, _) = get(&state, "/", &[("accept-language", "en-US,en;q=0.9")]).await;
    assert!(body.contains("lang=\"en\""));
    let (_, body, _) = get(&state, "/", &[("accept-language", "fr-FR")]).await;
    assert!(body.contains("lang=\"zh-Hans\""));
}

#[tokio::test]
async fn unknown_pages_answer_404_in_the_learners_language() {
    let state = state();
    for uri in [
        "/nope",
        "/go/lessons/nope",
        "/go/problems/nope",
        "/go/problems/liberties/999",
        "/janggi",
    ] {
        let (status, body, _) = get(&state, &format!("{uri}?lang=en"), &[]).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{uri}");
        assert!(body.contains("This page does not exist."));
    }
}

/// The first problem of a goal kind, as (set slug, problem id, puzzle).
fn find(lib: &Library, pred: impl Fn(&Puzzle) -> bool) -> (String, String, &Puzzle) {
    for set in &lib.shelves[0].sets {
        for p in &set.problems {
            if pred(&p.puzzle) {
                return (set.slug.clone(), p.id.clone(), &p.puzzle);
            }
        }
    }
    panic!("no such problem in the content");
}

#[tokio::test]
async fn attempt_api_judges_correct_wrong_and_illegal_moves() {
    let state = state();
    let lib = library(&state);
    // Correct: the main line's first move.
    let (set, id, puzzle) = find(
        &lib,
        |p| matches!(p, Puzzle::Go(g) if matches!(g.goal, GoGoal::Capture(_))),
    );
    let Puzzle::Go(go) = puzzle else {
        unreachable!()
    };
    let main = go.lines.main_line();
    let (status, reply) = attempt(
        &state,
        json!({"game": "go", "set": set, "id": id, "play": main[0], "lang": "en"}),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    assert!(
        reply["verdict"] == "correct" || reply["verdict"] == "solved",
        "{reply}"
    );
    assert!(reply["svg"].as_str().unwrap().starts_with("<svg"));

    // Illegal: a point that already holds a stone.
    let occupied = go
        .start
        .board()
        .points()
        .find(|&p| go.start.board().get(p).is_some())
        .unwrap()
        .name(go.start.size());
    let (_, reply) = attempt(
        &state,
        json!({"game": "go", "set": set, "id": id, "play": occupied, "lang": "en"}),
    )
    .await;
    assert_eq!(reply["verdict"], "illegal", "{reply}");
    assert!(reply["status"]
        .as_str()
        .unwrap()
        .contains("There is already a stone"));

    // Wrong: a move the author refuted, answered with the refutation and the explanation.
    let (set, id, puzzle) = find(
        &lib,
        |p| matches!(p, Puzzle::Go(g) if g.lines.main_line().len() == 1 && first_wrong(g).is_some()),
    );
    let Puzzle::Go(go) = puzzle else {
        unreachable!()
    };
    let (wrong, refutation, why) = first_wrong(go).unwrap();
    let (_, reply) = attempt(
        &state,
        json!({"game": "go", "set": set, "id": id, "play": wrong, "lang": "zh"}),
    )
    .await;
    assert_eq!(reply["verdict"], "wrong", "{reply}");
    assert!(reply["status"].as_str().unwrap().contains(&why), "{reply}");
    if let Some(r) = refutation {
        assert_eq!(reply["shown"][1], r.as_str(), "{reply}");
    }
    assert_eq!(
        reply["moves"],
        json!([]),
        "the learner goes on from before the wrong move"
    );
}

/// A first move the author marked wrong: (move, first refutation move, why in zh).
fn first_wrong(go: &qiyuan::content::go::GoPuzzle) -> Option<(String, Option<String>, String)> {
    let size = go.start.size();
    for p in go.start.board().points() {
        let name = p.name(size);
        if let qiyuan::content::Step::Wrong(w) = go.lines.step(&[], &name) {
            return Some((name, w.refutation.first().cloned(), w.why.zh.clone()));
        }
    }
    None
}

#[tokio::test]
async fn attempt_api_refuses_unknown_problems_and_bad_moves() {
    let state = state();
    let (status, _) = attempt(
        &state,
        json!({"game": "go", "set": "nope", "id": "1", "play": "D4"}),
    )
    .await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let lib = library(&state);
    let (set, id, _) = find(&lib, |_| true);
    let (status, reply) = attempt(
        &state,
        json!({"game": "go", "set": set, "id": id, "play": "Z99", "lang": "en"}),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(reply["verdict"], "invalid");
}

#[tokio::test]
async fn problem_pages_judge_moves_from_links() {
    let state = state();
    let lib = library(&state);
    let (set, id, puzzle) = find(
        &lib,
        |p| matches!(p, Puzzle::Go(g) if matches!(g.goal, GoGoal::Select { .. })),
    );
    let Puzzle::Go(go) = puzzle else {
        unreachable!()
    };
    let GoGoal::Select { answer, .. } = &go.goal else {
        unreachable!()
    };
    let size = go.start.size();
    let uri = format!("/go/problems/{set}/{id}");
    let (_, page, _) = get(&state, &format!("{uri}?lang=en"), &[]).await;
    let first = answer[0].name(size);
    assert!(
        page.contains(&format!("{uri}?play={first}")),
        "points are links"
    );
    // Clicking every answer point solves the problem.
    let mut picked: Vec<String> = Vec::new();
    let mut body = String::new();
    for p in answer {
        let q = if picked.is_empty() {
            String::new()
        } else {
            format!("p={}&", picked.join(","))
        };
        body = get(
            &state,
            &format!("{uri}?{q}play={}&lang=en", p.name(size)),
            &[],
        )
        .await
        .1;
        picked.push(p.name(size));
    }
    assert!(body.contains("verdict solved"), "{body}");
}

#[tokio::test]
async fn cached_lesson_page_is_the_same_page() {
    let state = state();
    let lib = library(&state);
    let slug = &lib.shelves[0].lessons[0].slug;
    let uri = format!("/go/lessons/{slug}?lang=en");
    let (_, first, cookie) = get(&state, &uri, &[]).await;
    let (_, second, cookie2) = get(&state, &uri, &[]).await;
    assert_eq!(first, second);
    assert_eq!(
        cookie, cookie2,
        "the language cookie is set on cached pages too"
    );
    let (_, zh, _) = get(&state, &format!("/go/lessons/{slug}?lang=zh"), &[]).await;
    assert_ne!(first, zh);
}

#[tokio::test]
async fn worksheet_has_every_problem_and_an_answer_key() {
    let state = state();
    let lib = library(&state);
    let set = &lib.shelves[0].sets[0];
    let (status, body, _) = get(&state, &format!("/go/worksheets/{}?lang=en", set.slug), &[]).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(
        body.matches("class=\"sheet-problem\"").count(),
        set.problems.len()
    );
    assert!(body.contains("<h2>Answers</h2>"));
    for p in &set.problems {
        let answer = p.puzzle.answer_key();
        assert!(!answer.is_empty(), "{} has an answer", p.id);
        assert!(body.contains(&answer), "answer {answer} of {}", p.id);
    }
    assert!(
        !body.contains("class=\"pt\""),
        "worksheet boards take no clicks"
    );
}

#[tokio::test]
async fn lesson_print_page_shows_every_frame() {
    let state = state();
    let lib = library(&state);
    let lesson = &lib.shelves[0].lessons[2];
    let (_, body, _) = get(
        &state,
        &format!("/go/lessons/{}/print?lang=zh", lesson.slug),
        &[],
    )
    .await;
    let frames: usize = lesson.zh.diagrams.iter().map(|d| d.frames.len()).sum();
    assert_eq!(body.matches("<figure class=\"frame\">").count(), frames);
}

#[tokio::test]
async fn solution_view_steps_through_the_main_line() {
    let state = state();
    let lib = library(&state);
    let (set, id, puzzle) = find(&lib, |p| p.lines().main_line().len() >= 3);
    let main = puzzle.lines().main_line();
    let uri = format!("/go/problems/{set}/{id}");
    let (_, body, _) = get(&state, &format!("{uri}?solution=1&lang=en"), &[]).await;
    assert!(body.contains("verdict solution"));
    assert!(
        body.contains(&format!("<b>{}</b> {}", main[0], main[1])),
        "{body}"
    );
    assert!(body.contains(&format!("{uri}?solution=2")));
    let (_, body, _) = get(&state, &format!("{uri}?solution=99&lang=en"), &[]).await;
    assert!(body.contains(
        &main
            .iter()
            .map(|m| format!("<b>{m}</b>"))
            .collect::<Vec<_>>()
            .join(" ")
    ));
}

#[tokio::test]
async fn go_diagrams_and_problems_download_as_sgf() {
    let state = state();
    let lib = library(&state);
    let shelf = &lib.shelves[0];
    let lesson = shelf
        .lessons
        .iter()
        .find(|l| {
            l.en.diagrams
                .iter()
                .any(|d| d.go_line.as_ref().is_some_and(|(_, m)| !m.is_empty()))
        })
        .expect("a Go diagram with moves");
    let (i, d) = lesson
        .en
        .diagrams
        .iter()
        .enumerate()
        .find(|(_, d)| d.go_line.as_ref().is_some_and(|(_, m)| !m.is_empty()))
        .unwrap();
    let uri = format!("/go/lessons/{}/diagram/{i}/sgf?lang=en", lesson.slug);
    let (status, sgf, _) = get(&state, &uri, &[]).await;
    assert_eq!(status, StatusCode::OK);
    let nodes = sgf_parse::go::parse(&sgf).expect("valid SGF");
    let moves = d.go_line.as_ref().unwrap().1.len();
    // The root, then one node per move.
    let mut depth = 0;
    let mut node = &nodes[0];
    while let Some(child) = node.children().next() {
        node = child;
        depth += 1;
    }
    assert_eq!(depth, moves, "{sgf}");
    let (page, _, _) = get(&state, &format!("/go/lessons/{}?lang=en", lesson.slug), &[]).await;
    assert_eq!(page, StatusCode::OK);

    // The first problem with written lines.
    let (set, p) = shelf
        .sets
        .iter()
        .flat_map(|s| s.problems.iter().map(move |p| (s, p)))
        .find(|(_, p)| !p.puzzle.lines().is_empty())
        .expect("a Go problem with lines");
    let (status, sgf, _) = get(
        &state,
        &format!("/go/problems/{}/{}/sgf", set.slug, p.id),
        &[],
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    assert!(sgf.contains("RIGHT"), "{sgf}");
    assert!(sgf_parse::go::parse(&sgf).is_ok());
    let (status, _, _) = get(&state, "/chess/problems/moves/1/sgf", &[]).await;
    assert_eq!(status, StatusCode::NOT_FOUND, "only Go has SGF");
}

/// The area-counting set's first problem and its count (from the engine's score).
fn first_count(lib: &Library) -> (String, String) {
    let set = lib
        .shelf(qiyuan::content::Game::Go)
        .and_then(|s| s.set("area-counting"))
        .expect("the area-counting set");
    let p = &set.problems[0];
    assert!(matches!(p.puzzle.input(), qiyuan::content::Input::Count(_)));
    (p.id.clone(), p.puzzle.answer().remove(0))
}

#[tokio::test]
async fn solved_count_survives_reload_and_the_form() {
    let state = state();
    let lib = library(&state);
    let (id, answer) = first_count(&lib);
    let base = format!("/go/problems/area-counting/{id}");
    // The status speaks of counting, never of clicking a point.
    let (_, fresh, _) = get(&state, &format!("{base}?lang=en"), &[]).await;
    assert!(fresh.contains("Count the board"), "{fresh}");
    assert!(!fresh.contains("Click a point"));
    // The address of the solved state, reloaded: still solved.
    let m = answer.replace('+', "%2B");
    let (status, reloaded, _) = get(&state, &format!("{base}?m={m}&lang=en"), &[]).await;
    assert_eq!(status, StatusCode::OK);
    assert!(
        reloaded.contains("Solved!"),
        "?m={answer} should load solved"
    );
    assert!(!reloaded.contains("Click a point"));
    // The form without script: a count given as the form sends it.
    let query = match answer.split_once('+') {
        Some((side, margin)) => format!("winner={side}&margin={margin}"),
        None if answer == "0" => "winner=0".to_string(),
        None => format!("count={answer}"),
    };
    let (_, submitted, _) = get(&state, &format!("{base}?{query}&lang=en"), &[]).await;
    assert!(submitted.contains("Solved!"), "{query}");
}

#[tokio::test]
async fn worksheet_answer_key_shows_counts() {
    let state = state();
    let lib = library(&state);
    let set = lib
        .shelf(qiyuan::content::Game::Go)
        .and_then(|s| s.set("territory-counting"))
        .unwrap();
    let (_, body, _) = get(&state, "/go/worksheets/territory-counting?lang=en", &[]).await;
    for (i, p) in set.problems.iter().enumerate() {
        let answer = p.puzzle.answer().remove(0);
        let item = format!("<li value=\"{}\">{answer}</li>", i + 1);
        assert!(body.contains(&item), "{item} for {}", p.id);
    }
}

/// Every locale key a problem names (who is to play, the promotion question) exists in both
/// languages, so no page shows a bare key.
#[test]
fn every_key_content_names_is_in_the_locales() {
    use qiyuan::content::Input;
    use qiyuan::lang::Lang;
    use qiyuan::web::i18n::Ui;
    let lib = library(&state());
    for set in lib.shelves.iter().flat_map(|s| &s.sets) {
        for p in &set.problems {
            let mut keys: Vec<&str> = p.puzzle.to_play().into_iter().collect();
            if let Input::Piece { choose } = p.puzzle.input() {
                keys.push(choose);
            }
            for key in keys {
                for lang in Lang::ALL {
                    assert!(Ui::get(lang).key(key).is_some(), "{key} in {lang:?}");
                }
            }
        }
    }
}

/// An address that names no game is the 404 page in the learner's language, for every kind
/// of page.
#[tokio::test]
async fn unknown_games_are_404_pages() {
    let state = state();
    for path in [
        "/janggi",
        "/janggi/lessons/captures",
        "/janggi/lessons/captures/diagram/0",
        "/go/lessons/captures/diagram/x",
        "/janggi/problems/captures",
        "/janggi/problems/captures/1",
        "/janggi/worksheets/captures",
    ] {
        let (status, body, _) = get(&state, &format!("{path}?lang=en"), &[]).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{path}");
        assert!(body.contains("<html"), "{path}: a page, not a bare status");
    }
}
