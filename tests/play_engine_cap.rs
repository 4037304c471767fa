//! Engine processes are capped (issue 43 item 4): three times the cap of games against
//! Stockfish never run more than the cap of processes (counted as this test process's live
//! children); the games beyond it are played by the built-in computer and say so in both
//! languages; the processes end with their games (resigned, or abandoned by nobody). One test
//! in its own binary, so that no other test's engines are counted.
//!
//! Needs Debian's `stockfish` (`scripts/test.sh` installs it); without it the test says so
//! and passes.

mod common;

use axum::body::Body;
use axum::http::{Method, Request, StatusCode};
use qiyuan::content::{Game, Library};
use qiyuan::play::engine::Engines;
use qiyuan::play::lobby::Limits;
use qiyuan::web::{app, AppState};
use serde_json::{json, Value};
use std::time::Duration;

/// This process's children that are running (not yet reaped zombies are not counted).
fn live_children() -> usize {
    let me = std::process::id().to_string();
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return 0;
    };
    dir.filter_map(Result::ok)
        .filter_map(|e| std::fs::read_to_string(e.path().join("stat")).ok())
        .filter(|stat| {
            // pid (comm) state ppid …: the comm may hold spaces, so split after its `)`.
            let Some((_, rest)) = stat.rsplit_once(')') else {
                return false;
            };
            let mut fields = rest.split_whitespace();
            let state = fields.next().unwrap_or("");
            let ppid = fields.next().unwrap_or("");
            ppid == me && state != "Z" && state != "X"
        })
        .count()
}

async fn call(state: &AppState, method: Method, path: &str, body: Option<Value>) -> Value {
    let req = common::json_request(method, path, body.as_ref(), None, None);
    let r = common::send(app(state.clone()), req).await;
    assert!(r.status.is_success(), "{path}: {} {}", r.status, r.body);
    r.json()
}

async fn engine_game(state: &AppState) -> (String, String, Value) {
    let made = call(
        state,
        Method::POST,
        "/api/games",
        Some(json!({"game": "chess", "opponent": "computer", "engine": "installed", "level": 1})),
    )
    .await;
    let id = made["id"].as_str().unwrap().to_string();
    let token = made["token"].as_str().unwrap().to_string();
    let now = call(state, Method::GET, &format!("/api/games/{id}"), None).await;
    (id, token, now)
}

#[tokio::test]
async fn engine_processes_never_exceed_the_cap_and_end_with_their_games() {
    let engines = Engines::discover(&[]);
    if engines.command(Game::Chess).is_none() {
        eprintln!("play_engine_cap: no chess engine installed; skipped");
        return;
    }
    const CAP: usize = 2;
    let state = AppState::from_library(Library::default())
        .with_engines(engines.clone())
        .with_max_engines(CAP);
    assert_eq!(live_children(), 0);
    let mut games = Vec::new();
    for n in 0..3 * CAP {
        let (id, token, now) = engine_game(&state).await;
        assert!(
            live_children() <= CAP,
            "{} engines after {} games",
            live_children(),
            n + 1
        );
        assert!(state.lobby().engines_running() <= CAP);
        if n < CAP {
            assert!(
                now["engine"].as_str().unwrap().contains("Stockfish"),
                "{now}"
            );
            assert!(now["notice"].is_null(), "{now}");
        } else {
            assert!(now["engine"].is_null(), "{now}");
            assert!(
                now["notice"]["en"].as_str().unwrap().contains("in use"),
                "{now}"
            );
            assert!(!now["notice"]["zh"].as_str().unwrap().is_empty(), "{now}");
            // The built-in computer answers.
            let moved = call(
                &state,
                Method::POST,
                &format!("/api/games/{id}/moves"),
                Some(json!({"token": token, "move": "e2e4"})),
            )
            .await;
            assert_eq!(moved["moves"].as_array().unwrap().len(), 2, "{moved}");
            // The game page says so too.
            let page = common::send(
                app(state.clone()),
                Request::get(format!("/play/{id}?lang=en"))
                    .body(Body::empty())
                    .unwrap(),
            )
            .await;
            assert_eq!(page.status, StatusCode::OK);
            assert!(page.body.contains("in use"), "the page tells the players");
        }
        games.push((id, token));
    }
    assert_eq!(live_children(), CAP);
    // The games with engines are resigned: their processes end, and a new game gets one.
    for (id, token) in &games[..CAP] {
        call(
            &state,
            Method::POST,
            &format!("/api/games/{id}/moves"),
            Some(json!({"token": token, "move": "resign"})),
        )
        .await;
    }
    assert_eq!(live_children(), 0, "resigned games keep no engine");
    assert_eq!(state.lobby().engines_running(), 0);
    let (_, _, now) = engine_game(&state).await;
    assert!(
        now["engine"].as_str().unwrap().contains("Stockfish"),
        "{now}"
    );
    assert_eq!(live_children(), 1);
    drop(state);
    assert_eq!(live_children(), 0, "a dropped lobby keeps no engine");

    // A game nobody moves in is ended by the sweep, and its engine with it.
    let state = AppState::from_library(Library::default())
        .with_engines(engines)
        .with_lobby(Limits {
            idle: Duration::ZERO,
            engines: CAP,
            ..Limits::default()
        });
    let (id, _, _) = engine_game(&state).await;
    assert_eq!(live_children(), 1);
    state.lobby().sweep();
    assert_eq!(live_children(), 0, "an abandoned game keeps no engine");
    let now = call(&state, Method::GET, &format!("/api/games/{id}"), None).await;
    assert_eq!(now["result"]["reason"]["kind"], "abandoned", "{now}");
}
