//! No lock-out by idle or slow connections: the `qiyuan` binary, started with the common
//! open-file limit of 1,024 (soft and hard), takes 2,000 slow connections on 127.0.0.1
//! (headers one line every 5 s, nothing at all, a body dribbled a byte a second, a POST that
//! declares 10 MB and sends 1 KB), then answers a new `GET /health` in under 100 ms, and every
//! slow connection is closed within the stated limits (10 s for a request head, 10 s for a
//! request; sooner when the connection cap makes room). Every loop here is bounded in count
//! and time and stops by itself.

use qiyuan::web::serve::{raise_open_file_limit, Limits};
use std::io::{BufRead, BufReader};
use std::os::unix::process::CommandExt;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// Slack on top of a stated timeout for the server to notice and the test to see it.
const SLACK: Duration = Duration::from_secs(3);

/// The server as a child process; killed on drop.
struct Server {
    child: Child,
    addr: String,
    dir: std::path::PathBuf,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// Starts `qiyuan serve` on a free port with a one-lesson content folder (quick to load)
/// and an open-file limit of 1,024.
fn start_server() -> Server {
    let dir = std::env::temp_dir().join(format!("qiyuan-limits-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let lesson = "+++\ntitle = \"T\"\n+++\n\nWords.\n";
    for lang in ["zh", "en"] {
        let p = dir.join(format!("lessons/go/01-intro.{lang}.md"));
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, lesson).unwrap();
    }
    let mut command = Command::new(env!("CARGO_BIN_EXE_qiyuan"));
    command
        .args(["serve", "--addr", "127.0.0.1:0", "--content"])
        .arg(&dir)
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit());
    // SAFETY: setrlimit is async-signal-safe; it only sets the child's own limit.
    unsafe {
        command.pre_exec(|| {
            let limit = libc::rlimit {
                rlim_cur: 1024,
                rlim_max: 1024,
            };
            if libc::setrlimit(libc::RLIMIT_NOFILE, &limit) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    let mut child = command.spawn().expect("starting qiyuan");
    let stdout = child.stdout.take().unwrap();
    let mut line = String::new();
    BufReader::new(stdout).read_line(&mut line).unwrap();
    let addr = line
        .split("http://")
        .nth(1)
        .map(|a| a.trim().to_string())
        .unwrap_or_else(|| panic!("no address in {line:?}"));
    Server { child, addr, dir }
}

/// How a slow client behaves.
#[derive(Clone, Copy, Debug)]
enum Slow {
    /// Sends a request line, then a header line every 5 s.
    HeaderLines,
    /// Sends nothing.
    Silent,
    /// Declares a 50 KB body and sends a byte a second.
    DribbledBody,
    /// Declares 10 MB and sends 1 KB.
    ShortBody,
}

/// Runs one slow client for at most `give_up`; returns how long the server kept the
/// connection open (None if it never closed it), and the status it answered, if any.
async fn slow_client(
    addr: String,
    kind: Slow,
    give_up: Duration,
) -> (Option<Duration>, Option<u16>) {
    let start = Instant::now();
    let Ok(mut stream) = TcpStream::connect(&addr).await else {
        return (Some(Duration::ZERO), None);
    };

    let head = match kind {
        Slow::HeaderLines => "GET /health HTTP/1.1\r\nHost: x\r\n".to_string(),
        Slow::Silent => String::new(),
        Slow::DribbledBody => "POST /api/attempt HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 50000\r\n\r\n".to_string(),
        Slow::ShortBody => format!(
            "POST /api/attempt HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 10000000\r\n\r\n{}",
            " ".repeat(1024)
        ),
    };
    if !head.is_empty() && stream.write_all(head.as_bytes()).await.is_err() {
        return (Some(start.elapsed()), None);
    }
    let every = match kind {
        Slow::HeaderLines => Duration::from_secs(5),
        _ => Duration::from_secs(1),
    };
    let mut received = Vec::new();
    let mut buf = [0u8; 4096];
    let mut tick = tokio::time::interval_at(tokio::time::Instant::now() + every, every);
    loop {
        if start.elapsed() > give_up {
            return (None, status_of(&received));
        }
        tokio::select! {
            read = stream.read(&mut buf) => match read {
                Ok(0) | Err(_) => return (Some(start.elapsed()), status_of(&received)),
                Ok(n) => received.extend_from_slice(&buf[..n]),
            },
            _ = tick.tick() => {
                let more: &[u8] = match kind {
                    Slow::HeaderLines => b"X-Slow: yes\r\n",
                    Slow::DribbledBody => b" ",
                    Slow::Silent | Slow::ShortBody => b"",
                };
                if !more.is_empty() && stream.write_all(more).await.is_err() {
                    return (Some(start.elapsed()), status_of(&received));
                }
            }
            () = tokio::time::sleep(give_up.saturating_sub(start.elapsed())) => {}
        }
    }
}

fn status_of(response: &[u8]) -> Option<u16> {
    let text = String::from_utf8_lossy(response);
    text.strip_prefix("HTTP/1.1 ")?.get(..3)?.parse().ok()
}

/// `GET /health` on a new connection: the time to the whole answer.
async fn health(addr: &str) -> Duration {
    let start = Instant::now();
    let mut stream = TcpStream::connect(addr).await.expect("connect");
    stream
        .write_all(b"GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        .await
        .unwrap();
    let mut answer = Vec::new();
    let _ = tokio::time::timeout(Duration::from_secs(10), stream.read_to_end(&mut answer)).await;
    let text = String::from_utf8_lossy(&answer);
    assert!(text.starts_with("HTTP/1.1 200"), "health: {text:?}");
    assert!(text.ends_with("ok"), "health: {text:?}");
    start.elapsed()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn slow_connections_lock_nobody_out() {
    // This process holds 2,000 connections too.
    assert!(
        raise_open_file_limit() >= 2200,
        "the test needs 2,200 open files"
    );
    let server = start_server();
    let addr = server.addr.clone();
    let limits = Limits::for_open_files(1024);
    assert_eq!(limits.max_connections, 960);
    let bound = Limits::HEADER_TIMEOUT.max(Limits::REQUEST_TIMEOUT) + SLACK;
    let give_up = bound + Duration::from_secs(5);
    let kinds = [Slow::HeaderLines, Slow::Silent, Slow::DribbledBody];
    let mut clients = Vec::new();
    for i in 0..2000 {
        let kind = if i == 1999 {
            Slow::ShortBody
        } else {
            kinds[i % 3]
        };
        clients.push((kind, tokio::spawn(slow_client(addr.clone(), kind, give_up))));
        if i % 100 == 99 {
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    }
    // Let the connections open.
    tokio::time::sleep(Duration::from_millis(500)).await;
    let mut best = Duration::MAX;
    for _ in 0..3 {
        best = best.min(health(&addr).await);
    }
    eprintln!("GET /health with 2,000 slow connections: {best:?}");
    assert!(
        best < Duration::from_millis(100),
        "GET /health took {best:?}"
    );

    let mut open_too_long = Vec::new();
    let mut statuses = std::collections::BTreeMap::new();
    let mut latest = Duration::ZERO;
    let mut early = 0;
    for (kind, client) in clients {
        let (closed, status) = client.await.unwrap();
        match closed {
            Some(after) if after <= bound => {
                latest = latest.max(after);
                early += usize::from(after < Duration::from_secs(5));
            }
            other => open_too_long.push((kind, other)),
        }
        *statuses.entry((format!("{kind:?}"), status)).or_insert(0) += 1;
    }
    eprintln!("closed, {early} in the first 5 s, the last after {latest:?}; answers: {statuses:?}");
    // At most 960 are open at once: the others were closed to make room, well before any
    // timeout.
    assert!(
        early >= 2000 - limits.max_connections,
        "only {early} closed to make room"
    );
    assert!(
        open_too_long.is_empty(),
        "{} slow connections stayed open past {bound:?}: {:?}",
        open_too_long.len(),
        &open_too_long[..open_too_long.len().min(5)]
    );
    // A request whose body does not come in time is answered 408 (or refused as too large).
    for ((kind, status), _) in &statuses {
        if kind == "DribbledBody" || kind == "ShortBody" {
            assert!(
                matches!(status, None | Some(408 | 413)),
                "{kind}: {status:?}"
            );
        }
    }
    assert!(
        statuses
            .iter()
            .any(|((k, s), _)| k == "DribbledBody" && *s == Some(408)),
        "no dribbled body was answered 408: {statuses:?}"
    );
    // And the server still answers.
    health(&addr).await;
}
