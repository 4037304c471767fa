//! Many games on one server: 200 Go games between 400 clients over real sockets, each client
//! with its event stream open. Measures move-to-opponent latency (from a player's `POST
//! …/moves` to the opponent's event), the memory per game, and, as the baseline measured in
//! the same run under the same load, the round trip of `GET /health`.
//!
//! `cargo bench --bench games` (`-- --games N --moves M --pause-ms T` to change the load: with
//! no pause every player answers at once, the most the server can take; with a pause each player
//! thinks that long, ± half, before a move).

use qiyuan::content::Library;
use qiyuan::rules::go;
use qiyuan::web::{app, AppState};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpStream;

#[path = "common/http.rs"]
mod http;
use http::{arg, percentile, read_head, Conn};

/// An open event stream: yields the version of each `state` event.
struct Events {
    stream: BufReader<TcpStream>,
}

impl Events {
    async fn open(port: u16, id: &str) -> Events {
        let mut conn = Conn::open(port).await;
        let req = format!("GET /api/games/{id}/events HTTP/1.1\r\nhost: bench\r\n\r\n");
        conn.stream
            .get_mut()
            .write_all(req.as_bytes())
            .await
            .unwrap();
        read_head(&mut conn.stream).await;
        Events {
            stream: conn.stream,
        }
    }

    /// Waits for an event of at least `version`.
    async fn until(&mut self, version: u64) {
        let mut line = String::new();
        loop {
            line.clear();
            if self.stream.read_line(&mut line).await.unwrap() == 0 {
                panic!("the event stream closed");
            }
            if let Some(v) = line.trim().strip_prefix("id: ") {
                if v.parse::<u64>().unwrap_or(0) >= version {
                    return;
                }
            }
        }
    }
}

fn json_field<'a>(body: &'a str, name: &str) -> &'a str {
    let key = format!("\"{name}\":\"");
    let start = body.find(&key).map(|i| i + key.len()).expect(name);
    &body[start..start + body[start..].find('"').unwrap()]
}

/// A game's moves: random legal moves from the empty 9×9 board (no passes).
fn line(seed: u64, moves: usize) -> Vec<String> {
    let mut rng = go::SplitMix64(seed);
    let mut pos = go::Position::empty(9).unwrap();
    let mut out = Vec::new();
    while out.len() < moves {
        let legal: Vec<go::Move> = pos
            .legal_moves()
            .into_iter()
            .filter(|m| *m != go::Move::Pass)
            .collect();
        if legal.is_empty() {
            break;
        }
        let mv = legal[rng.below(legal.len())];
        out.push(mv.name(9));
        pos = pos.play_move(mv).unwrap();
    }
    out
}

fn rss_bytes() -> usize {
    let statm = std::fs::read_to_string("/proc/self/statm").unwrap_or_default();
    let pages: usize = statm
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    pages * 4096
}

async fn game(
    port: u16,
    seed: u64,
    moves: usize,
    pause: Duration,
    latencies: Arc<Mutex<Vec<Duration>>>,
) {
    let mut first = Conn::open(port).await;
    let (_, created) = first
        .call(
            "POST",
            "/api/games",
            Some(r#"{"game":"go","opponent":"human","size":9}"#),
        )
        .await;
    let id = json_field(&created, "id").to_string();
    let tokens = [json_field(&created, "token").to_string(), {
        let mut second = Conn::open(port).await;
        let (_, joined) = second
            .call("POST", &format!("/api/games/{id}/join"), None)
            .await;
        json_field(&joined, "token").to_string()
    }];
    let mut conns = [first, Conn::open(port).await];
    let mut events = [Events::open(port, &id).await, Events::open(port, &id).await];
    let mut version = 1; // created (0), joined (1)
    for (i, mv) in line(seed, moves).iter().enumerate() {
        let (me, them) = (i % 2, 1 - i % 2);
        if !pause.is_zero() {
            // A player's think time: the pause, ± half, spread by the game and the move.
            let spread = (seed as u128 * 7919 + i as u128 * 104_729) % 1000;
            tokio::time::sleep(pause / 2 + pause * spread as u32 / 1000).await;
        }
        let body = format!(r#"{{"token":"{}","move":"{mv}"}}"#, tokens[me]);
        let sent = Instant::now();
        let (status, reply) = conns[me]
            .call("POST", &format!("/api/games/{id}/moves"), Some(&body))
            .await;
        assert_eq!(status, 200, "{reply}");
        version += 1;
        events[them].until(version).await;
        latencies.lock().unwrap().push(sent.elapsed());
        events[me].until(version).await;
    }
}

fn main() {
    let games = arg("--games", 200);
    let moves = arg("--moves", 60);
    let pause = Duration::from_millis(arg("--pause-ms", 0) as u64);
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let port = listener.local_addr().unwrap().port();
        let state = AppState::from_library(Library::default());
        tokio::spawn(async move {
            axum::serve(listener, app(state)).await.unwrap();
        });
        let before = rss_bytes();
        let latencies = Arc::new(Mutex::new(Vec::new()));
        let health = Arc::new(Mutex::new(Vec::new()));
        let done = Arc::new(std::sync::atomic::AtomicBool::new(false));
        let pinger = {
            let (health, done) = (health.clone(), done.clone());
            tokio::spawn(async move {
                let mut conn = Conn::open(port).await;
                while !done.load(std::sync::atomic::Ordering::Relaxed) {
                    let t = Instant::now();
                    conn.call("GET", "/health", None).await;
                    health.lock().unwrap().push(t.elapsed());
                    tokio::time::sleep(Duration::from_millis(5)).await;
                }
            })
        };
        let started = Instant::now();
        let tasks: Vec<_> = (0..games)
            .map(|g| tokio::spawn(game(port, g as u64 + 1, moves, pause, latencies.clone())))
            .collect();
        for t in tasks {
            t.await.unwrap();
        }
        let took = started.elapsed();
        done.store(true, std::sync::atomic::Ordering::Relaxed);
        pinger.await.unwrap();
        let after = rss_bytes();
        let mut l = latencies.lock().unwrap().clone();
        l.sort();
        let mut h = health.lock().unwrap().clone();
        h.sort();
        let (p50, p99, max) = (percentile(&l, 0.5), percentile(&l, 0.99), percentile(&l, 1.0));
        let (h50, h99) = (percentile(&h, 0.5), percentile(&h, 0.99));
        println!(
            "{games} games, {} clients, {} moves in {took:.2?} ({:.0} moves/s; think time {pause:?} ± half)",
            games * 2,
            l.len(),
            l.len() as f64 / took.as_secs_f64()
        );
        println!("move to opponent: p50 {p50:.2?}  p99 {p99:.2?}  max {max:.2?}");
        println!("GET /health (baseline, same load): p50 {h50:.2?}  p99 {h99:.2?}");
        println!(
            "ratio move/health: p50 {:.2}×  p99 {:.2}×",
            p50.as_secs_f64() / h50.as_secs_f64().max(1e-9),
            p99.as_secs_f64() / h99.as_secs_f64().max(1e-9)
        );
        println!(
            "memory: {:.1} MiB more for {games} games of {moves} moves = {:.1} KiB a game",
            after.saturating_sub(before) as f64 / (1 << 20) as f64,
            after.saturating_sub(before) as f64 / 1024.0 / games as f64
        );
    });
}
