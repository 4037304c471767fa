//! Whole games against real engines through HTTP: GNU Go to its count (checked against GNU
//! Go's own `final_score`), Stockfish and Fairy-Stockfish for a stretch of moves, and engines
//! that die, whose games go on with the built-in computer and say so.
//!
//! The real engines are Debian's `gnugo`, `stockfish` and `fairy-stockfish` (`scripts/test.sh`
//! installs them); a test whose engine is missing fails.

mod common;

use axum::http::{Method, StatusCode};
use qiyuan::content::{Game, Library};
use qiyuan::play::computer::Computer;
use qiyuan::play::engine::{EngineCommand, Engines};
use qiyuan::play::{Level, Start};
use qiyuan::rules::{chess, go, shogi, Rules};
use qiyuan::web::{app, AppState};
use serde_json::{json, Value};

async fn call(
    state: &AppState,
    method: Method,
    path: &str,
    body: Option<Value>,
) -> (StatusCode, Value) {
    let req = common::json_request(method, path, body.as_ref(), None, None);
    let r = common::send(app(state.clone()), req).await;
    (
        r.status,
        serde_json::from_str(&r.body).unwrap_or(Value::Null),
    )
}

/// The moves of a state, canonical names.
fn moves_of(v: &Value) -> Vec<String> {
    v["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap().to_string())
        .collect()
}

fn with_engine(game: Game) -> AppState {
    let engines = Engines::discover(&[]);
    assert!(
        engines.command(game).is_some(),
        "no {} engine installed: apt-get install gnugo stockfish fairy-stockfish \
         (scripts/test.sh installs them)",
        game.slug()
    );
    AppState::from_library(Library::default()).with_engines(engines)
}

async fn create(state: &AppState, body: Value) -> (String, String, Value) {
    let (status, v) = call(state, Method::POST, "/api/games", Some(body)).await;
    assert_eq!(status, StatusCode::CREATED, "{v}");
    let id = v["id"].as_str().unwrap().to_string();
    let token = v["token"].as_str().unwrap().to_string();
    let (_, now) = call(state, Method::GET, &format!("/api/games/{id}"), None).await;
    (id, token, now)
}

async fn play(state: &AppState, id: &str, token: &str, mv: &str) -> (StatusCode, Value) {
    call(
        state,
        Method::POST,
        &format!("/api/games/{id}/moves"),
        Some(json!({"token": token, "move": mv})),
    )
    .await
}

#[tokio::test]
async fn go_against_gnugo_to_the_count_agrees_with_gnugo() {
    let state = with_engine(Game::Go);
    let (id, token, mut v) = create(
        &state,
        json!({"game": "go", "opponent": "computer", "engine": "installed", "level": 1, "size": 9, "rules": "japanese"}),
    )
    .await;
    assert!(v["engine"].as_str().unwrap().contains("GNU Go"), "{v}");
    // Black is played by the built-in level 1; White is GNU Go.
    for ply in 0..300u64 {
        if v["phase"] != "play" {
            break;
        }
        let moves = moves_of(&v);
        let mut pos = go::Position::empty(9).unwrap();
        for m in &moves {
            pos = pos.play(m).expect("every recorded move is legal").0;
        }
        // Past the opening, Black passes whenever White did, so that the game ends.
        let mv = if moves.len() > 60 && moves.last().map(String::as_str) == Some("pass") {
            "pass".to_string()
        } else {
            pos.think(Level::MIN, ply)
                .map(|m| pos.move_name(&m))
                .unwrap_or_else(|| "pass".into())
        };
        let (status, next) = play(&state, &id, &token, &mv).await;
        assert_eq!(status, StatusCode::OK, "{next}");
        v = next;
    }
    assert_eq!(v["phase"], "counting", "{v}");
    assert!(v["notice"].is_null(), "GNU Go kept playing: {v}");
    let dead: Vec<String> = v["dead"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d.as_str().unwrap().to_string())
        .collect();
    let (_, v) = play(&state, &id, &token, "agree").await;
    assert_eq!(v["phase"], "over", "{v}");
    let moves = moves_of(&v);
    // GNU Go's own count of the same game, in a fresh process.
    let start = Start::Go(qiyuan::base::go::Start {
        size: 9,
        handicap: 0,
        rules: go::Scoring::Japanese,
        komi: 6.5,
    });
    let engines = Engines::discover(&[]);
    let mut gnugo = engines.start(Game::Go).unwrap();
    assert_eq!(
        gnugo.dead_stones(&start, &moves).unwrap().len(),
        dead.len(),
        "the dead stones proposed were GNU Go's"
    );
    let score = gnugo.final_score(&start, &moves).unwrap();
    let ours = match (
        v["result"]["winner"].as_str(),
        v["result"]["reason"]["points"].as_f64(),
    ) {
        (Some("first"), Some(p)) => format!("B+{p:.1}"),
        (Some("second"), Some(p)) => format!("W+{p:.1}"),
        _ => "0".to_string(),
    };
    assert_eq!(ours, score, "our count {v}");
}

#[tokio::test]
async fn chess_against_stockfish_and_shogi_against_fairy_stockfish() {
    for game in [Game::Chess, Game::Shogi] {
        let state = with_engine(game);
        let (id, token, v) = create(
            &state,
            json!({"game": game.slug(), "engine": "installed", "level": 2}),
        )
        .await;
        assert!(v["engine"].is_string(), "{v}");
        let mut v = v;
        for ply in 0..8u64 {
            // The engine may mate the built-in computer's weakest moves: the game is over.
            if !v["result"].is_null() {
                break;
            }
            let moves = moves_of(&v);
            let mv = match game {
                Game::Chess => {
                    let mut pos = chess::Position::start();
                    for m in &moves {
                        pos = pos.play(m).expect("legal").0;
                    }
                    pos.think(Level::MIN, ply).unwrap().uci
                }
                _ => {
                    let mut pos = shogi::Position::start();
                    for m in &moves {
                        pos = pos.play(m).expect("legal").0;
                    }
                    pos.think(Level::MIN, ply).unwrap().usi
                }
            };
            let (status, next) = play(&state, &id, &token, &mv).await;
            assert_eq!(status, StatusCode::OK, "{next}");
            assert!(next["reply"].is_string(), "the engine answered: {next}");
            v = next;
        }
        assert!(v["notice"].is_null(), "{v}");
        if !v["result"].is_null() {
            assert_eq!(v["result"]["reason"]["kind"], "checkmate", "{v}");
            continue;
        }
        let (_, v) = play(&state, &id, &token, "resign").await;
        assert_eq!(v["result"]["reason"]["kind"], "resignation", "{v}");
    }
}

/// A shell script, run with `/bin/sh`.
fn script(name: &str, body: &str) -> EngineCommand {
    let dir = std::env::temp_dir().join(format!("qiyuan-play-engines-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, body).unwrap();
    EngineCommand::new("/bin/sh", vec![path.display().to_string()])
}

#[tokio::test]
async fn an_engine_that_dies_is_replaced_by_the_built_in_computer() {
    // Handshakes, then exits when asked to think.
    let dies = script(
        "dies.sh",
        "while read cmd rest; do
  case \"$cmd\" in
    uci) echo 'id name Fragile'; echo uciok;;
    isready) echo readyok;;
    go) exit 3;;
  esac
done
",
    );
    let state = AppState::from_library(Library::default())
        .with_engines(Engines::none().with(Game::Chess, Some(dies)));
    let (id, token, v) = create(&state, json!({"game": "chess", "engine": "installed"})).await;
    assert_eq!(v["engine"], "Fragile", "{v}");
    let (status, v) = play(&state, &id, &token, "e4").await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert!(
        v["reply"].is_string(),
        "the built-in computer answered: {v}"
    );
    assert!(
        v["notice"]["en"].as_str().unwrap().contains("built-in"),
        "{v}"
    );
    assert!(!v["notice"]["zh"].as_str().unwrap().is_empty());
    assert!(v["engine"].is_null());
    // An engine that cannot start at all: the game starts with the built-in computer.
    let state = AppState::from_library(Library::default()).with_engines(
        Engines::none().with(Game::Go, Some(EngineCommand::new("/bin/false", vec![]))),
    );
    let (_, _, v) = create(
        &state,
        json!({"game": "go", "engine": "installed", "color": "white"}),
    )
    .await;
    assert_eq!(
        v["moves"].as_array().unwrap().len(),
        1,
        "the built-in computer opened: {v}"
    );
    assert!(v["notice"].is_object(), "{v}");
    // Asking for an engine where none is installed is refused in both languages.
    let state = AppState::from_library(Library::default());
    let (status, v) = call(
        &state,
        Method::POST,
        "/api/games",
        Some(json!({"game": "shogi", "engine": "installed"})),
    )
    .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(v["reason"]["en"].as_str().unwrap().contains("engine"));
}
