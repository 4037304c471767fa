//! What one client can make the server hold (issue 43 items 4 and 8): games created from one
//! address are limited in rate and in number, codes that find no game are limited per address,
//! and games that nobody begins end instead of holding the lobby for an hour. Requests carry
//! their peer address as the server records it (`ConnectInfo`); one test goes through the real
//! server on loopback to see that it does.

mod common;

use axum::body::Body;
use axum::extract::ConnectInfo;
use axum::http::{header, Method, Request, StatusCode};
use common::{send, Reply};
use qiyuan::content::Library;
use qiyuan::play::lobby::Limits;
use qiyuan::play::throttle::Rate;
use qiyuan::web::{app, AppState};
use serde_json::{json, Value};
use std::net::SocketAddr;
use std::time::Duration;

const HOUR: Duration = Duration::from_secs(3600);

fn state(limits: Limits) -> AppState {
    AppState::from_library(Library::default()).with_lobby(limits)
}

fn addr(n: u8) -> SocketAddr {
    SocketAddr::from(([10, 0, 0, n], 40_000))
}

async fn call(
    state: &AppState,
    from: SocketAddr,
    method: Method,
    path: &str,
    body: Option<Value>,
    cookie: Option<&str>,
) -> Reply {
    let req = common::json_request(method, path, body.as_ref(), cookie, Some(from));
    send(app(state.clone()), req).await
}

async fn get(state: &AppState, from: SocketAddr, path: &str, cookie: Option<&str>) -> Reply {
    call(state, from, Method::GET, path, None, cookie).await
}

async fn post(state: &AppState, from: SocketAddr, path: &str) -> Reply {
    call(state, from, Method::POST, path, None, None).await
}

fn waiting_game() -> Value {
    json!({"game": "chess", "opponent": "human"})
}

async fn create(state: &AppState, from: SocketAddr) -> Reply {
    call(
        state,
        from,
        Method::POST,
        "/api/games",
        Some(waiting_game()),
        None,
    )
    .await
}

/// A 429 with a reason in both languages and a `Retry-After` of whole seconds.
fn assert_too_many(r: &Reply) {
    assert_eq!(r.status, StatusCode::TOO_MANY_REQUESTS, "{}", r.body);
    let v = r.json();
    assert!(!v["reason"]["zh"].as_str().unwrap().is_empty(), "{v}");
    assert!(!v["reason"]["en"].as_str().unwrap().is_empty(), "{v}");
    let retry: u64 = r.headers[header::RETRY_AFTER]
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!(retry >= 1, "{retry}");
}

#[tokio::test]
async fn a_burst_of_creates_from_one_address_gets_429_while_another_address_still_can() {
    let state = state(Limits {
        creates: Rate {
            burst: 5,
            every: HOUR,
        },
        ..Limits::default()
    });
    for _ in 0..5 {
        assert_eq!(create(&state, addr(1)).await.status, StatusCode::CREATED);
    }
    let refused = create(&state, addr(1)).await;
    assert_too_many(&refused);
    assert!(refused.json()["reason"]["en"]
        .as_str()
        .unwrap()
        .contains("Too many games"));
    assert_eq!(create(&state, addr(2)).await.status, StatusCode::CREATED);
    // The form is refused the same way, as a page.
    let form = send(
        app(state.clone()),
        Request::post("/play")
            .header(header::CONTENT_TYPE, "application/x-www-form-urlencoded")
            .extension(ConnectInfo(addr(1)))
            .body(Body::from("game=go&opponent=human"))
            .unwrap(),
    )
    .await;
    assert_eq!(form.status, StatusCode::TOO_MANY_REQUESTS);
    assert!(form.headers.contains_key(header::RETRY_AFTER));
}

#[tokio::test]
async fn one_address_cannot_hold_more_than_its_open_games() {
    let state = state(Limits {
        open_per_client: 3,
        ..Limits::default()
    });
    let mut tokens = Vec::new();
    for _ in 0..3 {
        let r = create(&state, addr(1)).await;
        assert_eq!(r.status, StatusCode::CREATED, "{}", r.body);
        let v = r.json();
        tokens.push((
            v["id"].as_str().unwrap().to_string(),
            v["token"].as_str().unwrap().to_string(),
        ));
    }
    assert_too_many(&create(&state, addr(1)).await);
    assert_eq!(create(&state, addr(2)).await.status, StatusCode::CREATED);
    // A finished game no longer counts.
    let (id, token) = &tokens[0];
    let r = call(
        &state,
        addr(1),
        Method::POST,
        &format!("/api/games/{id}/moves"),
        Some(json!({"token": token, "move": "resign"})),
        None,
    )
    .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    assert_eq!(create(&state, addr(1)).await.status, StatusCode::CREATED);
}

#[tokio::test]
async fn a_class_behind_one_address_can_start_forty_games_at_once() {
    let state = state(Limits::default());
    let created = futures_util::future::join_all((0..40).map(|_| create(&state, addr(7)))).await;
    for r in created {
        assert_eq!(r.status, StatusCode::CREATED, "{}", r.body);
    }
}

#[tokio::test]
async fn code_look_ups_are_throttled_per_address() {
    let state = state(Limits {
        misses: Rate {
            burst: 3,
            every: HOUR,
        },
        ..Limits::default()
    });
    let made = create(&state, addr(9)).await.json();
    let id = made["id"].as_str().unwrap().to_string();
    let token = made["token"].as_str().unwrap().to_string();
    for guess in ["zzzzz2", "zzzzz3", "zzzzz4"] {
        let r = get(&state, addr(1), &format!("/api/games/{guess}"), None).await;
        assert_eq!(r.status, StatusCode::NOT_FOUND);
    }
    // Its misses spent, the address is refused even a game that exists, by every way in.
    let found = get(&state, addr(1), &format!("/api/games/{id}"), None).await;
    assert_too_many(&found);
    assert!(found.json()["reason"]["en"]
        .as_str()
        .unwrap()
        .contains("game codes"));
    let join = post(&state, addr(1), &format!("/api/games/{id}/join")).await;
    assert_too_many(&join);
    let by_form = send(
        app(state.clone()),
        Request::post("/play/join")
            .header(header::CONTENT_TYPE, "application/x-www-form-urlencoded")
            .extension(ConnectInfo(addr(1)))
            .body(Body::from(format!("code={id}")))
            .unwrap(),
    )
    .await;
    assert_eq!(by_form.status, StatusCode::TOO_MANY_REQUESTS);
    let page = get(&state, addr(1), &format!("/play/{id}"), None).await;
    assert_eq!(page.status, StatusCode::TOO_MANY_REQUESTS);
    // Another address looks it up and joins.
    let other = post(&state, addr(2), &format!("/api/games/{id}/join")).await;
    assert_eq!(other.status, StatusCode::OK, "{}", other.body);
    // A player behind the throttled address still reaches their own game.
    let cookie = format!("qiyuan-game-{id}={token}");
    let own = get(&state, addr(1), &format!("/api/games/{id}"), Some(&cookie)).await;
    assert_eq!(own.status, StatusCode::OK, "{}", own.body);
    assert_eq!(own.json()["you"], "first");
}

#[tokio::test]
async fn games_nobody_begins_end_and_free_the_lobby() {
    let state = state(Limits {
        tables: 2,
        unstarted: Duration::ZERO,
        ..Limits::default()
    });
    let begun = create(&state, addr(1)).await.json();
    let begun_id = begun["id"].as_str().unwrap().to_string();
    let joined = post(&state, addr(2), &format!("/api/games/{begun_id}/join")).await;
    assert_eq!(joined.status, StatusCode::OK);
    let left = create(&state, addr(1)).await.json();
    let left_id = left["id"].as_str().unwrap().to_string();
    // The lobby is full; the game nobody joined makes room.
    assert_eq!(create(&state, addr(3)).await.status, StatusCode::CREATED);
    let r = get(&state, addr(1), &format!("/api/games/{begun_id}"), None).await;
    assert_eq!(
        r.json()["phase"],
        "play",
        "a game begun goes on: {}",
        r.body
    );
    let r = get(&state, addr(1), &format!("/api/games/{left_id}"), None).await;
    assert!(
        r.status == StatusCode::NOT_FOUND || r.json()["result"]["reason"]["kind"] == "abandoned",
        "{}",
        r.body
    );
}

/// A learner playing the computer may think long before a first move (the computer may
/// even move first): only games waiting for a classmate end unbegun.
#[tokio::test]
async fn a_game_against_the_computer_is_not_ended_as_unbegun() {
    let state = state(Limits {
        unstarted: Duration::ZERO,
        ..Limits::default()
    });
    let r = call(
        &state,
        addr(1),
        Method::POST,
        "/api/games",
        Some(
            json!({"game": "go", "opponent": "computer", "level": 1, "size": 9, "color": "white"}),
        ),
        None,
    )
    .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.body);
    let id = r.json()["id"].as_str().unwrap().to_string();
    state.lobby().sweep();
    let r = get(&state, addr(1), &format!("/api/games/{id}"), None).await;
    assert_eq!(r.json()["phase"], "play", "{}", r.body);
}

/// The real server records each connection's peer: three creates over loopback against a
/// burst of two.
#[tokio::test]
async fn the_server_limits_by_the_connections_address() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let state = state(Limits {
        creates: Rate {
            burst: 2,
            every: HOUR,
        },
        ..Limits::default()
    });
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    let limits = qiyuan::web::serve::Limits::for_open_files(1024);
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let server = tokio::spawn(qiyuan::web::serve::serve(
        listener,
        app(state),
        limits,
        async move {
            let _ = stopped.await;
        },
    ));
    let body = waiting_game().to_string();
    let mut statuses = Vec::new();
    for _ in 0..3 {
        let mut conn = tokio::net::TcpStream::connect(("127.0.0.1", port))
            .await
            .unwrap();
        let req = format!(
            "POST /api/games HTTP/1.1\r\nhost: t\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
            body.len()
        );
        conn.write_all(req.as_bytes()).await.unwrap();
        let mut answer = Vec::new();
        conn.read_to_end(&mut answer).await.unwrap();
        let text = String::from_utf8_lossy(&answer);
        statuses.push(text.split(' ').nth(1).unwrap_or("").to_string());
    }
    assert_eq!(statuses, ["201", "201", "429"]);
    let _ = stop.send(());
    server.await.unwrap().unwrap();
}
