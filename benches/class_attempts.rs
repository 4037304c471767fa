//! Judging attempts with the classroom recording them, against the same attempts from
//! anonymous learners (not recorded), in one run: 500 students at once, each on a keep-alive
//! connection of its own, over real sockets, against a real SQLite file.
//!
//! Two kinds of load: *at once*, every student sends its next attempt as soon as the last one
//! is answered (the most the server can judge and record: throughput); and *paced*, every
//! student plays a move every `--think` milliseconds, started at random offsets, as a class
//! does (the latency a student sees when 500 are at work).
//!
//! `cargo bench --bench class_attempts`
//! (`-- --students N --attempts M --rounds R --think MS --paced-moves K`).

use qiyuan::class::sqlite::Sqlite;
use qiyuan::class::{now, password, Account, Role, Roster, Store};
use qiyuan::web::{app, AppState};
use std::sync::Arc;
use std::time::{Duration, Instant};

#[path = "common/http.rs"]
mod http;
use http::{arg, percentile, Conn};

/// The `n`th attempt of a client (a wrong and a right move by turns): its latency.
async fn attempt(conn: &mut Conn, n: usize) -> Duration {
    let play = if n % 2 == 0 { "A1" } else { "D4" };
    let body = format!(r#"{{"game":"go","set":"captures","id":"1","moves":[],"play":"{play}"}}"#);
    let t = Instant::now();
    let (status, _) = conn.call("POST", "/api/attempt", Some(&body)).await;
    assert_eq!(status, 200);
    t.elapsed()
}

/// One round: every client makes `attempts` attempts at once with the others; the
/// latencies and the wall time.
async fn round(
    port: u16,
    cookies: &[Option<String>],
    attempts: usize,
) -> (Vec<Duration>, Duration) {
    let started = Instant::now();
    let tasks: Vec<_> = cookies
        .iter()
        .cloned()
        .map(|cookie| {
            tokio::spawn(async move {
                let mut conn = Conn::open(port).await;
                conn.cookie = cookie;
                let mut lat = Vec::with_capacity(attempts);
                for n in 0..attempts {
                    lat.push(attempt(&mut conn, n).await);
                }
                lat
            })
        })
        .collect();
    let mut all = Vec::new();
    for t in tasks {
        all.extend(t.await.unwrap());
    }
    let took = started.elapsed();
    all.sort();
    (all, took)
}

/// Paced: every client plays `moves` attempts, one every `think` (the first after a random
/// part of it); the latencies.
async fn paced(
    port: u16,
    cookies: &[Option<String>],
    moves: usize,
    think: Duration,
) -> Vec<Duration> {
    let n = cookies.len().max(1) as u32;
    let tasks: Vec<_> = cookies
        .iter()
        .cloned()
        .enumerate()
        .map(|(i, cookie)| {
            tokio::spawn(async move {
                let mut conn = Conn::open(port).await;
                conn.cookie = cookie;
                // Spread evenly over one thinking time, so the offered load is steady.
                let mut next = tokio::time::Instant::now() + think * i as u32 / n;
                let mut lat = Vec::with_capacity(moves);
                for k in 0..moves {
                    tokio::time::sleep_until(next).await;
                    next += think;
                    lat.push(attempt(&mut conn, k).await);
                }
                lat
            })
        })
        .collect();
    let mut all = Vec::new();
    for t in tasks {
        all.extend(t.await.unwrap());
    }
    all.sort();
    all
}

fn main() {
    let students = arg("--students", 500);
    let attempts = arg("--attempts", 10);
    let rounds = arg("--rounds", 3);
    let think = Duration::from_millis(arg("--think", 2000) as u64);
    let paced_moves = arg("--paced-moves", 5);
    let dir = std::env::temp_dir().join(format!("qiyuan-bench-class-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let store = Arc::new(Sqlite::open(&dir).unwrap());
    let teacher = store
        .add_teacher("T", &password::hash("benchmark"))
        .unwrap();
    let mut cookies = Vec::new();
    for c in 0..students.div_ceil(50) {
        let class = store.create_class(teacher, &format!("C{c}")).unwrap();
        let n = 50.min(students - c * 50);
        let names: Vec<String> = (0..n).map(|i| format!("s{c}-{i}")).collect();
        for s in store
            .add_students(class.id, &Roster::parse(&names.join("\n")).unwrap())
            .unwrap()
        {
            let token = qiyuan::random::token();
            let account = Account {
                role: Role::Student(s.id, class.id),
                name: s.name,
                csrf: qiyuan::random::token(),
                expires: now() + 3_600_000,
            };
            store
                .open_session(&password::token_hash(&token), &account)
                .unwrap();
            cookies.push(Some(format!("qiyuan-session={token}")));
        }
    }
    let anonymous: Vec<Option<String>> = vec![None; students];
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let served = dir.clone();
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let port = listener.local_addr().unwrap().port();
        let state = AppState::embedded().with_store(store.clone(), Some(served));
        tokio::spawn(async move {
            axum::serve(listener, app(state)).await.unwrap();
        });
        // Warm up: the problem page's code paths and the connections.
        round(port, &anonymous[..10.min(students)], 2).await;
        let (mut rec_rates, mut anon_rates) = (Vec::new(), Vec::new());
        let (mut rec_lat, mut anon_lat) = (Vec::new(), Vec::new());
        for _ in 0..rounds {
            let (l, t) = round(port, &anonymous, attempts).await;
            anon_rates.push(l.len() as f64 / t.as_secs_f64());
            anon_lat.extend(l);
            let (l, t) = round(port, &cookies, attempts).await;
            rec_rates.push(l.len() as f64 / t.as_secs_f64());
            rec_lat.extend(l);
        }
        rec_lat.sort();
        anon_lat.sort();
        let median = |v: &mut Vec<f64>| {
            v.sort_by(f64::total_cmp);
            v[v.len() / 2]
        };
        let (rec, anon) = (median(&mut rec_rates), median(&mut anon_rates));
        println!(
            "{students} students at once, {attempts} attempts each, {rounds} rounds of each kind"
        );
        println!(
            "anonymous (not recorded): {anon:.0} attempts/s  p50 {:.2?}  p99 {:.2?}",
            percentile(&anon_lat, 0.5),
            percentile(&anon_lat, 0.99)
        );
        println!(
            "students (recorded):      {rec:.0} attempts/s  p50 {:.2?}  p99 {:.2?}",
            percentile(&rec_lat, 0.5),
            percentile(&rec_lat, 0.99)
        );
        println!("ratio recorded/anonymous: {:.2}×", rec / anon);
        let offered = students as f64 / think.as_secs_f64();
        let anon_paced = paced(port, &anonymous, paced_moves, think).await;
        let rec_paced = paced(port, &cookies, paced_moves, think).await;
        println!(
            "paced: {students} students, a move every {think:?} each ({offered:.0} attempts/s offered), {paced_moves} moves each"
        );
        for (who, lat) in [("anonymous", &anon_paced), ("students (recorded)", &rec_paced)] {
            println!(
                "  {who:<20} p50 {:.2?}  p99 {:.2?}  max {:.2?}",
                percentile(lat, 0.5),
                percentile(lat, 0.99),
                lat.last().copied().unwrap_or_default()
            );
        }
        let rows: usize = store
            .classes(teacher)
            .unwrap()
            .iter()
            .map(|c| store.class_history(c.id).unwrap().tries.len())
            .sum();
        let expected = students * (attempts * rounds + paced_moves);
        println!("rows written: {rows} (expected {expected})");
        assert_eq!(rows, expected, "rows lost");
    });
    let _ = std::fs::remove_dir_all(&dir);
}
