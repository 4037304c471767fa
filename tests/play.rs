//! Whole games through HTTP: the `/api/games` API and the `/play` pages without a script,
//! against the built-in computer and between two players, with every kind of bad input.

mod common;

use axum::body::Body;
use axum::http::{header, Method, Request, StatusCode};
use http_body_util::BodyExt;
use qiyuan::content::Library;
use qiyuan::play::computer::Computer;
use qiyuan::play::Level;
use qiyuan::rules::{chess, Rules};
use qiyuan::web::{app, AppState};
use serde_json::{json, Value};
use tower::ServiceExt;

fn state() -> AppState {
    AppState::from_library(Library::default())
}

use common::{send, Reply};

async fn call(
    state: &AppState,
    method: Method,
    path: &str,
    body: Option<Value>,
    cookie: Option<&str>,
) -> Reply {
    let req = common::json_request(method, path, body.as_ref(), cookie, None);
    send(app(state.clone()), req).await
}

async fn form(state: &AppState, path: &str, fields: &str, cookie: Option<&str>) -> Reply {
    let mut req =
        Request::post(path).header(header::CONTENT_TYPE, "application/x-www-form-urlencoded");
    if let Some(c) = cookie {
        req = req.header(header::COOKIE, c);
    }
    send(
        app(state.clone()),
        req.body(Body::from(fields.to_string())).unwrap(),
    )
    .await
}

async fn create(state: &AppState, body: Value) -> (String, String) {
    let r = call(state, Method::POST, "/api/games", Some(body), None).await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.body);
    let v = r.json();
    (
        v["id"].as_str().unwrap().to_string(),
        v["token"].as_str().unwrap().to_string(),
    )
}

/// Takes the free seat of game `id`: its token.
/// Asks for the free seat of game `id`.
async fn join_reply(state: &AppState, id: &str) -> Reply {
    call(
        state,
        Method::POST,
        &format!("/api/games/{id}/join"),
        None,
        None,
    )
    .await
}

/// Takes the free seat of game `id`: its token.
async fn join(state: &AppState, id: &str) -> String {
    let r = join_reply(state, id).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    r.json()["token"].as_str().unwrap().to_string()
}

async fn play(state: &AppState, id: &str, token: &str, mv: &str) -> Reply {
    call(
        state,
        Method::POST,
        &format!("/api/games/{id}/moves"),
        Some(json!({"token": token, "move": mv})),
        None,
    )
    .await
}

async fn get_state(state: &AppState, id: &str) -> Value {
    let r = call(state, Method::GET, &format!("/api/games/{id}"), None, None).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    r.json()
}

#[tokio::test]
async fn go_game_against_the_computer_ends_in_a_count() {
    let state = state();
    let (id, token) = create(
        &state,
        json!({"game": "go", "opponent": "computer", "level": 1, "size": 9}),
    )
    .await;
    // Black takes the centre, then both pass; the count is area counting with 3¾ stones komi.
    let r = play(&state, &id, &token, "E5").await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    let mut v = r.json();
    for _ in 0..80 {
        if v["phase"] != "play" {
            break;
        }
        let r = play(&state, &id, &token, "pass").await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.body);
        v = r.json();
    }
    assert_eq!(v["phase"], "counting", "{v}");
    let r = play(&state, &id, &token, "agree").await;
    let v = r.json();
    if v["phase"] == "over" {
        assert_eq!(v["result"]["reason"]["kind"], "count");
        assert!(v["result"]["text"]["zh"]
            .as_str()
            .unwrap()
            .contains("数子法"));
        assert!(v["result"]["text"]["en"]
            .as_str()
            .unwrap()
            .contains("Area counting"));
    } else {
        // The computer disagreed with an empty list of dead stones: play resumed.
        assert_eq!(v["phase"], "play", "{v}");
    }
}

#[tokio::test]
async fn chess_game_against_the_computer_ends_in_mate() {
    let state = state();
    // King and queen against king: the learner (driven here by the computer's own strongest
    // level) mates, and the game ends there.
    let fen = "8/8/8/4k3/8/8/8/4K2Q w - - 0 1";
    let (id, token) = create(
        &state,
        json!({"game": "chess", "opponent": "computer", "level": 1, "fen": fen}),
    )
    .await;
    let mut pos = chess::Position::from_fen(fen).unwrap();
    let mut v = get_state(&state, &id).await;
    for ply in 0..150 {
        if v["over"] == true {
            break;
        }
        let mv = pos.think(Level::MAX, ply).expect("a legal move");
        let r = play(&state, &id, &token, &mv.uci).await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.body);
        v = r.json();
        pos = chess::Position::from_fen(fen).unwrap();
        for m in v["moves"].as_array().unwrap() {
            pos = pos.play(m.as_str().unwrap()).unwrap().0;
        }
    }
    assert_eq!(v["over"], true, "{v}");
    let reason = v["result"]["reason"]["kind"].as_str().unwrap();
    assert!(
        [
            "checkmate",
            "stalemate",
            "repetition",
            "fifty-moves",
            "insufficient-material"
        ]
        .contains(&reason),
        "{v}"
    );
    // Every move the server recorded is legal by the engine (checked by replaying above).
    assert!(pos.ending().is_some());
}

#[tokio::test]
async fn shogi_game_against_the_computer_is_refused_an_illegal_drop_and_resigns() {
    let state = state();
    let (id, token) = create(&state, json!({"game": "shogi", "opponent": "computer", "level": 1, "handicap": "two-pieces", "color": "sente"})).await;
    let v = get_state(&state, &id).await;
    // In a handicap game the giver (Gote, the computer) moves first.
    assert_eq!(v["moves"].as_array().unwrap().len(), 1, "{v}");
    assert_eq!(v["to_play"], "first");
    let r = play(&state, &id, &token, "P*5e").await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY);
    let reason = r.json()["reason"].clone();
    assert!(
        !reason["zh"].as_str().unwrap().is_empty() && !reason["en"].as_str().unwrap().is_empty()
    );
    let r = play(&state, &id, &token, "7g7f").await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    assert_eq!(r.json()["moves"].as_array().unwrap().len(), 3);
    let r = play(&state, &id, &token, "resign").await;
    let v = r.json();
    assert_eq!(v["over"], true);
    assert_eq!(v["result"]["winner"], "second");
    assert_eq!(v["result"]["reason"]["kind"], "resignation");
    // A finished game takes no more moves.
    let r = play(&state, &id, &token, "2g2f").await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(r.json()["reason"]["en"].as_str().unwrap().contains("over"));
}

#[tokio::test]
async fn take_back_against_the_computer_returns_to_the_learners_turn() {
    let state = state();
    let (id, token) = create(&state, json!({"game": "chess", "level": 2})).await;
    let v = play(&state, &id, &token, "e4").await.json();
    assert_eq!(v["moves"].as_array().unwrap().len(), 2);
    let v = play(&state, &id, &token, "undo").await.json();
    assert_eq!(v["moves"].as_array().unwrap().len(), 0, "{v}");
    assert_eq!(v["to_play"], "first");
    let r = play(&state, &id, &token, "undo").await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY);
}

#[tokio::test]
async fn two_players_join_and_play_and_a_third_watches() {
    let state = state();
    let (id, first) = create(
        &state,
        json!({"game": "go", "opponent": "human", "size": 9}),
    )
    .await;
    let r = join_reply(&state, &id).await;
    assert_eq!(r.status, StatusCode::OK);
    let second = r.json()["token"].as_str().unwrap().to_string();
    assert_eq!(r.json()["side"], "second");
    let r = join_reply(&state, &id).await;
    assert_eq!(r.status, StatusCode::CONFLICT);
    assert!(r.json()["reason"]["zh"].as_str().unwrap().contains("观战"));

    // Out of turn, with the other's token, with no token: refused, nothing changes.
    assert_eq!(
        play(&state, &id, &second, "D4").await.status,
        StatusCode::UNPROCESSABLE_ENTITY
    );
    assert_eq!(
        play(&state, &id, "0000", "D4").await.status,
        StatusCode::FORBIDDEN
    );
    let r = call(
        &state,
        Method::POST,
        &format!("/api/games/{id}/moves"),
        Some(json!({"move": "D4"})),
        None,
    )
    .await;
    assert_eq!(r.status, StatusCode::FORBIDDEN);
    assert_eq!(
        get_state(&state, &id).await["moves"]
            .as_array()
            .unwrap()
            .len(),
        0
    );

    assert_eq!(play(&state, &id, &first, "D4").await.status, StatusCode::OK);
    assert_eq!(
        play(&state, &id, &second, "C3").await.status,
        StatusCode::OK
    );
    // Two passes: counting. Black marks White's lone stone dead, both agree.
    play(&state, &id, &first, "pass").await;
    let v = play(&state, &id, &second, "pass").await.json();
    assert_eq!(v["phase"], "counting");
    let r = play(&state, &id, &first, "D4").await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY);
    let v = play(&state, &id, &first, "dead C3").await.json();
    assert_eq!(v["dead"], json!(["C3"]));
    let v = play(&state, &id, &first, "agree").await.json();
    assert_eq!(v["agreed"], json!([true, false]));
    let v = play(&state, &id, &second, "agree").await.json();
    assert_eq!(v["phase"], "over", "{v}");
    assert_eq!(v["result"]["winner"], "first");
    // 81 black points against 40½ and 3¾ komi: Black wins by 36¾ stones, 73½ points.
    assert_eq!(v["result"]["reason"]["points"], 73.5);
}

#[tokio::test]
async fn go_disagreement_resumes_play() {
    let state = state();
    let (id, first) = create(&state, json!({"game": "go", "opponent": "human"})).await;
    let second = join(&state, &id).await;
    play(&state, &id, &first, "pass").await;
    play(&state, &id, &second, "pass").await;
    let v = play(&state, &id, &second, "resume").await.json();
    assert_eq!(v["phase"], "play");
    assert_eq!(v["to_play"], "first");
}

#[tokio::test]
async fn bad_requests_are_explained_in_both_languages() {
    let state = state();
    for (body, needle) in [
        (json!({"game": "janggi"}), "janggi"),
        (json!({"game": "go", "size": 10}), "10"),
        (json!({"game": "go", "handicap": 1}), "1"),
        (json!({"game": "go", "rules": "ing"}), "ing"),
        (json!({"game": "chess", "level": 9}), "9"),
        (json!({"game": "chess", "fen": "not a fen"}), "position"),
        (json!({"game": "shogi", "handicap": "queen"}), "queen"),
        (json!({"game": "chess", "color": "purple"}), "purple"),
        (json!({"game": "go", "opponent": "robot"}), "robot"),
    ] {
        let r = call(&state, Method::POST, "/api/games", Some(body.clone()), None).await;
        assert_eq!(
            r.status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "{body}: {}",
            r.body
        );
        let v = r.json();
        let (zh, en) = (
            v["reason"]["zh"].as_str().unwrap(),
            v["reason"]["en"].as_str().unwrap(),
        );
        assert!(
            !zh.is_empty() && en.to_lowercase().contains(&needle.to_lowercase()),
            "{body}: {en}"
        );
        assert_ne!(zh, en);
    }
    // Unknown fields and malformed JSON are refused too.
    let r = call(
        &state,
        Method::POST,
        "/api/games",
        Some(json!({"game": "go", "colour": "black"})),
        None,
    )
    .await;
    assert!(r.status.is_client_error());
    let r = call(&state, Method::GET, "/api/games/nosuch", None, None).await;
    assert_eq!(r.status, StatusCode::NOT_FOUND);
    assert!(r.json()["reason"]["zh"]
        .as_str()
        .unwrap()
        .contains("nosuch"));
    let r = play(&state, "nosuch", "t", "D4").await;
    assert_eq!(r.status, StatusCode::NOT_FOUND);
    let (id, token) = create(&state, json!({"game": "go", "opponent": "human"})).await;
    let long = "D".repeat(100);
    assert_eq!(
        play(&state, &id, &token, &long).await.status,
        StatusCode::UNPROCESSABLE_ENTITY
    );
    assert_eq!(
        play(&state, &id, &token, "Z99").await.status,
        StatusCode::UNPROCESSABLE_ENTITY
    );
    assert_eq!(
        play(&state, &id, &token, "draw").await.status,
        StatusCode::UNPROCESSABLE_ENTITY
    );
    assert_eq!(
        play(&state, &id, &token, "agree").await.status,
        StatusCode::UNPROCESSABLE_ENTITY
    );
    assert_eq!(get_state(&state, &id).await["version"], 0);
}

#[tokio::test]
async fn chess_draw_offer_is_accepted_by_the_other_player() {
    let state = state();
    let (id, white) = create(&state, json!({"game": "chess", "opponent": "human"})).await;
    let black = join(&state, &id).await;
    let v = play(&state, &id, &white, "draw").await.json();
    assert_eq!(v["draw_offer"], "first");
    let v = play(&state, &id, &black, "draw").await.json();
    assert_eq!(v["over"], true);
    assert_eq!(v["result"]["reason"]["kind"], "agreement");
    assert_eq!(v["result"]["winner"], Value::Null);
}

#[tokio::test]
async fn pages_work_without_a_script() {
    let state = state();
    let r = call(&state, Method::GET, "/play?lang=en", None, None).await;
    assert_eq!(r.status, StatusCode::OK);
    assert!(r.body.contains("action=\"/play\"") && r.body.contains("Computer level"));
    // A new game by the form: a redirect to its page, with the seat's cookie.
    let r = form(
        &state,
        "/play",
        "game=go&opponent=computer&level=1&size=9&rules=japanese&handicap=0&color=first",
        None,
    )
    .await;
    assert_eq!(r.status, StatusCode::SEE_OTHER);
    let page = r.headers[header::LOCATION].to_str().unwrap().to_string();
    let cookie = r.headers[header::SET_COOKIE]
        .to_str()
        .unwrap()
        .split(';')
        .next()
        .unwrap()
        .to_string();
    assert!(cookie.starts_with("qiyuan-game-"));
    let set_cookie = r.headers[header::SET_COOKIE].to_str().unwrap();
    assert!(set_cookie.contains("HttpOnly") && set_cookie.contains("SameSite=Strict"));
    let r = call(
        &state,
        Method::GET,
        &format!("{page}?lang=en"),
        None,
        Some(&cookie),
    )
    .await;
    assert!(r.body.contains("Your move."), "{}", r.body);
    // Every empty point is a link to confirm a move there.
    assert!(r.body.contains(&format!("{page}?confirm=E5")));
    let r = call(
        &state,
        Method::GET,
        &format!("{page}?confirm=E5&lang=en"),
        None,
        Some(&cookie),
    )
    .await;
    assert!(r.body.contains("Play E5?"));
    let r = form(&state, &page, "move=E5", Some(&cookie)).await;
    assert_eq!(r.status, StatusCode::SEE_OTHER);
    // An illegal move: the page again, with the reason.
    let r = form(&state, &format!("{page}?lang=en"), "move=E5", Some(&cookie)).await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(r.body.contains("already a stone on E5"), "{}", r.body);
    // Someone without the cookie watches: no links on the board, no buttons.
    let r = call(&state, Method::GET, &format!("{page}?lang=en"), None, None).await;
    assert!(r.body.contains("You are watching."));
    assert!(!r.body.contains("?confirm="), "{}", r.body);
    assert_eq!(
        form(&state, &page, "move=D4", None).await.status,
        StatusCode::FORBIDDEN
    );
    // A bad form: the new-game page with the reason, escaped.
    let r = form(&state, "/play?lang=en", "game=%3Cscript%3E", None).await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(
        r.body.contains("&#60;script&#62;") && !r.body.contains("<script>"),
        "{}",
        r.body
    );
    // Joining by code from the form.
    let (id, _) = create(&state, json!({"game": "shogi", "opponent": "human"})).await;
    let r = form(
        &state,
        "/play/join",
        &format!("code={}", id.to_uppercase()),
        None,
    )
    .await;
    assert_eq!(r.status, StatusCode::SEE_OTHER);
    assert!(r.headers[header::SET_COOKIE]
        .to_str()
        .unwrap()
        .contains(&id));
    let r = form(&state, "/play/join", "code=zzzzzz", None).await;
    assert_eq!(r.status, StatusCode::NOT_FOUND);
}

async fn next_event(body: &mut Body) -> String {
    let frame = tokio::time::timeout(std::time::Duration::from_secs(5), body.frame())
        .await
        .expect("an event within 5 s")
        .unwrap()
        .unwrap();
    String::from_utf8(frame.into_data().unwrap().to_vec()).unwrap()
}

#[tokio::test]
async fn events_stream_the_state_after_every_move() {
    let state = state();
    let (id, first) = create(&state, json!({"game": "chess", "opponent": "human"})).await;
    let response = app(state.clone())
        .oneshot(
            Request::get(format!("/api/games/{id}/events"))
                .body(Body::empty())
                .unwrap(),
        )
        .await
        .unwrap();
    assert_eq!(
        response.headers()[header::CONTENT_TYPE],
        "text/event-stream"
    );
    let mut body = response.into_body();
    let first_event = next_event(&mut body).await;
    assert!(
        first_event.contains("event: state") && first_event.contains("\"version\":0"),
        "{first_event}"
    );
    let _ = join_reply(&state, &id).await;
    let joined = next_event(&mut body).await;
    assert!(joined.contains("\"version\":1"), "{joined}");
    play(&state, &id, &first, "e4").await;
    let moved = next_event(&mut body).await;
    assert!(moved.contains("\"moves\":[\"e2e4\"]"), "{moved}");
}

#[tokio::test]
async fn a_player_out_of_time_loses_and_watchers_are_told() {
    let state = state();
    // Half a second of byo-yomi and no main time: the first move in time, then the flag.
    let (id, first) = create(
        &state,
        json!({"game": "shogi", "opponent": "human", "minutes": 0, "byoyomi": 0.5}),
    )
    .await;
    let second = join(&state, &id).await;
    let v = play(&state, &id, &first, "7g7f").await.json();
    assert_eq!(v["clock"]["running"], "second", "{v}");
    assert_eq!(v["clock"]["byoyomi"], 500);
    let response = app(state.clone())
        .oneshot(
            Request::get(format!("/api/games/{id}/events"))
                .body(Body::empty())
                .unwrap(),
        )
        .await
        .unwrap();
    let mut body = response.into_body();
    let now = next_event(&mut body).await;
    assert!(now.contains("\"over\":false"), "{now}");
    // Nobody moves: the stream itself notices the flag and tells the watchers.
    let flagged = next_event(&mut body).await;
    assert!(
        flagged.contains("\"kind\":\"timeout\"") && flagged.contains("\"winner\":\"first\""),
        "{flagged}"
    );
    let r = play(&state, &id, &second, "3c3d").await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(r.json()["reason"]["en"].as_str().unwrap().contains("over"));
}

async fn record(state: &AppState, id: &str, format: &str) -> Reply {
    let r = call(
        state,
        Method::GET,
        &format!("/api/games/{id}/record?format={format}"),
        None,
        None,
    )
    .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    assert!(r.headers[header::CONTENT_DISPOSITION]
        .to_str()
        .unwrap()
        .contains(&format!(".{format}")));
    r
}

#[tokio::test]
async fn records_download_and_other_programs_read_them() {
    let state = state();
    // Go: read back by sgf-parse, moves and result.
    let (id, token) = create(
        &state,
        json!({"game": "go", "opponent": "human", "handicap": 2, "rules": "japanese"}),
    )
    .await;
    let second = join(&state, &id).await;
    // In a handicap game White (the joiner) moves first.
    for (who, mv) in [(&second, "E5"), (&token, "D7"), (&second, "pass")] {
        assert_eq!(play(&state, &id, who, mv).await.status, StatusCode::OK);
    }
    play(&state, &id, &token, "resign").await;
    let sgf = record(&state, &id, "sgf").await.body;
    let root = &sgf_parse::go::parse(&sgf).unwrap()[0];
    let mut node = root;
    let mut moves = Vec::new();
    while let Some(child) = node.children().next() {
        node = child;
        for p in node.properties() {
            match p {
                sgf_parse::go::Prop::B(m) | sgf_parse::go::Prop::W(m) => {
                    moves.push(format!("{m:?}"))
                }
                _ => {}
            }
        }
    }
    assert_eq!(moves.len(), 3, "{sgf}");
    assert!(
        sgf.contains("RE[W+R]") && sgf.contains("HA[2]") && sgf.contains("SZ[9]"),
        "{sgf}"
    );

    // Chess: read back by pgn-reader; its SANs played by shakmaty give our moves.
    let (id, token) = create(&state, json!({"game": "chess", "level": 1})).await;
    play(&state, &id, &token, "e4").await;
    let v = play(&state, &id, &token, "Nf3").await.json();
    let ours: Vec<String> = v["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap().to_string())
        .collect();
    let pgn = record(&state, &id, "pgn").await.body;
    struct Sans(shakmaty::Chess, Vec<String>);
    impl pgn_reader::Visitor for Sans {
        type Tags = ();
        type Movetext = ();
        type Output = ();
        fn begin_tags(&mut self) -> std::ops::ControlFlow<(), ()> {
            std::ops::ControlFlow::Continue(())
        }
        fn begin_movetext(&mut self, _: ()) -> std::ops::ControlFlow<(), ()> {
            std::ops::ControlFlow::Continue(())
        }
        fn san(&mut self, _: &mut (), san: pgn_reader::SanPlus) -> std::ops::ControlFlow<()> {
            use shakmaty::Position;
            let m = san.san.to_move(&self.0).expect("a legal SAN");
            self.1
                .push(shakmaty::uci::UciMove::from_standard(m).to_string());
            self.0.play_unchecked(m);
            std::ops::ControlFlow::Continue(())
        }
        fn end_game(&mut self, _: ()) {}
    }
    let mut sans = Sans(shakmaty::Chess::default(), Vec::new());
    pgn_reader::Reader::new(pgn.as_bytes())
        .read_game(&mut sans)
        .unwrap();
    assert_eq!(sans.1, ours, "{pgn}");

    // Shogi: KIF, KI2 and CSA read back by rsshogi.
    let (id, token) = create(
        &state,
        json!({"game": "shogi", "level": 1, "handicap": "bishop", "color": "sente"}),
    )
    .await;
    let v = play(&state, &id, &token, "7g7f").await.json();
    let ours: Vec<String> = v["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap().to_string())
        .collect();
    let kif = record(&state, &id, "kif").await.body;
    let read = rsshogi::records::formats::kif::parse_kif_str(&kif)
        .unwrap_or_else(|e| panic!("{e}\n{kif}"));
    let theirs: Vec<String> = read.main_moves().map(|m| m.mv().to_usi()).collect();
    assert_eq!(theirs, ours, "{kif}");
    assert!(kif.contains("角落ち"), "{kif}");
    record(&state, &id, "ki2").await;
    let csa = record(&state, &id, "csa").await.body;
    assert_eq!(
        rsshogi::records::formats::csa::parse_csa_str(&csa)
            .unwrap()
            .main_moves()
            .count(),
        ours.len()
    );
    let r = call(
        &state,
        Method::GET,
        &format!("/api/games/{id}/record?format=pgn"),
        None,
        None,
    )
    .await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY);
    // The page offers the three downloads.
    let page = call(
        &state,
        Method::GET,
        &format!("/play/{id}?lang=en"),
        None,
        None,
    )
    .await
    .body;
    assert!(page.contains("record?format=kif") && page.contains("record?format=csa"));
}

/// `POST /play/{id}/rematch`: only a seated player may ask (a watcher 403, an unknown table
/// 404); before the end it leads back to the table; after, to a new table with the sides
/// swapped, which the old table's state names.
#[tokio::test]
async fn a_rematch_is_for_the_players_of_a_finished_game() {
    let state = state();
    let r = form(&state, "/play/nosuch/rematch", "", None).await;
    assert_eq!(r.status, StatusCode::NOT_FOUND, "{}", r.body);
    let r = form(
        &state,
        "/play",
        "game=go&opponent=computer&level=1&size=9&color=first",
        None,
    )
    .await;
    assert_eq!(r.status, StatusCode::SEE_OTHER);
    let page = r.headers[header::LOCATION].to_str().unwrap().to_string();
    let id = page.trim_start_matches("/play/").to_string();
    let cookie = r.headers[header::SET_COOKIE]
        .to_str()
        .unwrap()
        .split(';')
        .next()
        .unwrap()
        .to_string();
    // A watcher (no seat) may not.
    let r = form(&state, &format!("{page}/rematch"), "", None).await;
    assert_eq!(r.status, StatusCode::FORBIDDEN, "{}", r.body);
    // Before the end: back to the table.
    let r = form(&state, &format!("{page}/rematch"), "", Some(&cookie)).await;
    assert_eq!(r.status, StatusCode::SEE_OTHER);
    assert_eq!(r.headers[header::LOCATION].to_str().unwrap(), page);
    assert!(get_state(&state, &id).await["rematch"].is_null());
    // After resigning: a new table, Black's player now White.
    let r = form(&state, &page, "move=resign", Some(&cookie)).await;
    assert_eq!(r.status, StatusCode::SEE_OTHER);
    let r = form(&state, &format!("{page}/rematch"), "", Some(&cookie)).await;
    assert_eq!(r.status, StatusCode::SEE_OTHER);
    let new = r.headers[header::LOCATION].to_str().unwrap().to_string();
    assert_ne!(new, page);
    let new_id = new.trim_start_matches("/play/").to_string();
    assert_eq!(get_state(&state, &id).await["rematch"], json!(new_id));
    let seat = r.headers[header::SET_COOKIE]
        .to_str()
        .unwrap()
        .split(';')
        .next()
        .unwrap()
        .to_string();
    let r = call(
        &state,
        Method::GET,
        &format!("/api/games/{new_id}"),
        None,
        Some(&seat),
    )
    .await;
    let v = r.json();
    assert_eq!(v["you"], json!("second"), "{v}");
    assert_eq!(v["seats"][0]["kind"], json!("computer"), "{v}");
}
