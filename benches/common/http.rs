//! A small HTTP/1.1 client for the load benchmarks: keep-alive connections over real sockets.
#![allow(dead_code)]

use std::time::Duration;
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpStream;

/// One keep-alive HTTP/1.1 connection.
pub struct Conn {
    pub stream: BufReader<TcpStream>,
    /// A `cookie` header sent with every request, if any.
    pub cookie: Option<String>,
}

impl Conn {
    pub async fn open(port: u16) -> Conn {
        let stream = TcpStream::connect(("127.0.0.1", port))
            .await
            .expect("connect");
        stream.set_nodelay(true).unwrap();
        Conn {
            stream: BufReader::new(stream),
            cookie: None,
        }
    }

    /// Sends a request and reads the whole answer: status and body.
    pub async fn call(&mut self, method: &str, path: &str, body: Option<&str>) -> (u16, String) {
        let mut req = format!("{method} {path} HTTP/1.1\r\nhost: bench\r\n");
        if let Some(c) = &self.cookie {
            req.push_str(&format!("cookie: {c}\r\n"));
        }
        if let Some(b) = body {
            req.push_str(&format!(
                "content-type: application/json\r\ncontent-length: {}\r\n",
                b.len()
            ));
        }
        req.push_str("\r\n");
        if let Some(b) = body {
            req.push_str(b);
        }
        self.stream
            .get_mut()
            .write_all(req.as_bytes())
            .await
            .unwrap();
        let (status, length) = read_head(&mut self.stream).await;
        let mut buf = vec![0u8; length];
        self.stream.read_exact(&mut buf).await.unwrap();
        (status, String::from_utf8_lossy(&buf).into_owned())
    }
}

/// Reads a response's head: its status and content length.
pub async fn read_head(stream: &mut BufReader<TcpStream>) -> (u16, usize) {
    let mut line = String::new();
    stream.read_line(&mut line).await.unwrap();
    let status = line
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    let mut length = 0;
    loop {
        line.clear();
        stream.read_line(&mut line).await.unwrap();
        if line == "\r\n" || line.is_empty() {
            break;
        }
        if let Some(v) = line.to_ascii_lowercase().strip_prefix("content-length:") {
            length = v.trim().parse().unwrap_or(0);
        }
    }
    (status, length)
}

/// The value of `--name N` on the command line, or `default`.
pub fn arg(name: &str, default: usize) -> usize {
    let args: Vec<String> = std::env::args().collect();
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1))
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// The `p` quantile (0 to 1) of sorted durations.
pub fn percentile(sorted: &[Duration], p: f64) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    sorted[((sorted.len() - 1) as f64 * p).round() as usize]
}
