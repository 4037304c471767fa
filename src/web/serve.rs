//! Serving over HTTP/1.1 with limits, so that idle or slow connections lock nobody out: a
//! header-read timeout (also the keep-alive idle timeout), a request timeout that answers
//! 408, a cap on open connections under the open-file limit (raised at start where the hard
//! limit allows), and, at the cap, the oldest idle connection closed to make room. Each
//! request carries its peer's address (axum's `ConnectInfo`) for the login limits, and
//! [`secure_cookies`] marks every cookie `Secure` for a server reached over TLS; behind a
//! reverse proxy, [`behind_proxy`] takes the client's address and scheme from the proxy's
//! `X-Forwarded-For` and `X-Forwarded-Proto`, and from that proxy only.

use axum::body::Body;
use axum::http::{Request, Response, StatusCode};
use axum::Router;
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use std::collections::BTreeMap;
use std::future::Future;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::net::TcpListener;
use tokio::sync::Notify;
use tower::ServiceExt;

/// The limits of a server.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// A connection must send a whole request head within this time of opening, or of its
    /// last response (so it is also how long an idle keep-alive connection stays open).
    pub header_timeout: Duration,
    /// A request (its body read and its answer made) must be done within this time, or it is
    /// answered `408 Request Timeout` and its connection closed.
    pub request_timeout: Duration,
    /// At most this many connections are open at once; at the cap, a new connection closes
    /// the oldest idle one (or, if none is idle, the oldest).
    pub max_connections: usize,
}

impl Limits {
    /// Header-read and keep-alive idle timeout: 10 s.
    pub const HEADER_TIMEOUT: Duration = Duration::from_secs(10);
    /// Request (body) timeout: 10 s.
    pub const REQUEST_TIMEOUT: Duration = Duration::from_secs(10);
    /// The most connections ever allowed, whatever the open-file limit: 4,096.
    pub const MAX_CONNECTIONS: usize = 4096;
    /// Files kept free under the open-file limit for everything but connections.
    pub const SPARE_FILES: u64 = 64;

    /// The limits for a process whose open-file limit is `open_files`: the cap is
    /// [`Self::MAX_CONNECTIONS`] or the limit less [`Self::SPARE_FILES`], whichever is lower.
    ///
    /// ```
    /// use qiyuan::web::serve::Limits;
    /// assert_eq!(Limits::for_open_files(1024).max_connections, 960);
    /// assert_eq!(Limits::for_open_files(1 << 20).max_connections, 4096);
    /// ```
    pub fn for_open_files(open_files: u64) -> Limits {
        let room = open_files.saturating_sub(Self::SPARE_FILES).max(1);
        Limits {
            header_timeout: Self::HEADER_TIMEOUT,
            request_timeout: Self::REQUEST_TIMEOUT,
            max_connections: usize::try_from(room)
                .unwrap_or(usize::MAX)
                .min(Self::MAX_CONNECTIONS),
        }
    }
}

/// Raises the soft open-file limit (`RLIMIT_NOFILE`) as far as the hard limit allows, up to
/// what [`Limits::MAX_CONNECTIONS`] needs; returns the soft limit in force after.
pub fn raise_open_file_limit() -> u64 {
    let want = Limits::MAX_CONNECTIONS as u64 + Limits::SPARE_FILES;
    let mut limit = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit and setrlimit only read and write the struct given.
    unsafe {
        if libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) != 0 {
            return 1024;
        }
        let target = want.min(limit.rlim_max as u64);
        if (limit.rlim_cur as u64) < target {
            let raised = libc::rlimit {
                rlim_cur: target as libc::rlim_t,
                rlim_max: limit.rlim_max,
            };
            if libc::setrlimit(libc::RLIMIT_NOFILE, &raised) == 0 {
                return target;
            }
        }
    }
    limit.rlim_cur as u64
}

/// How many connections may wait to be accepted (the kernel may hold it lower: `somaxconn`).
pub const BACKLOG: u32 = 4096;

/// Listens on `addr` with a [`BACKLOG`] long enough for a classroom opening its pages at once
/// (the usual 1,024 drops connections in a burst, and their clients wait seconds to retry).
pub fn bind(addr: std::net::SocketAddr) -> std::io::Result<TcpListener> {
    let socket = if addr.is_ipv4() {
        tokio::net::TcpSocket::new_v4()?
    } else {
        tokio::net::TcpSocket::new_v6()?
    };
    socket.set_reuseaddr(true)?;
    socket.bind(addr)?;
    socket.listen(BACKLOG)
}

/// One open connection: how many of its requests are being answered, and how to close it.
#[derive(Default)]
struct Connection {
    busy: AtomicUsize,
    close: Notify,
}

/// The open connections, oldest first.
#[derive(Default)]
struct Connections {
    open: Mutex<(u64, BTreeMap<u64, Arc<Connection>>)>,
}

impl Connections {
    /// Registers a new connection; at the cap, closes the oldest idle one (or the oldest).
    fn open(&self, max: usize) -> (u64, Arc<Connection>) {
        let mut guard = self.open.lock().unwrap_or_else(|e| e.into_inner());
        let (next, open) = &mut *guard;
        while open.len() >= max.max(1) {
            let victim = open
                .iter()
                .find(|(_, c)| c.busy.load(Ordering::Relaxed) == 0)
                .or_else(|| open.iter().next())
                .map(|(id, _)| *id);
            let Some(id) = victim else { break };
            if let Some(c) = open.remove(&id) {
                c.close.notify_one();
            }
        }
        let id = *next;
        *next += 1;
        let connection = Arc::new(Connection::default());
        open.insert(id, connection.clone());
        (id, connection)
    }

    fn closed(&self, id: u64) {
        self.open
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .1
            .remove(&id);
    }
}

/// Counts a request as being answered while it lives.
struct Busy(Arc<Connection>);

impl Busy {
    fn new(connection: &Arc<Connection>) -> Busy {
        connection.busy.fetch_add(1, Ordering::Relaxed);
        Busy(connection.clone())
    }
}

impl Drop for Busy {
    fn drop(&mut self) {
        self.0.busy.fetch_sub(1, Ordering::Relaxed);
    }
}

/// Serves `router` on `listener` within `limits` until `shutdown` completes.
///
/// ```no_run
/// # async fn run() -> std::io::Result<()> {
/// use qiyuan::web::serve::{raise_open_file_limit, serve, Limits};
/// use qiyuan::web::{app, AppState};
/// let limits = Limits::for_open_files(raise_open_file_limit());
/// let listener = tokio::net::TcpListener::bind("127.0.0.1:8080").await?;
/// serve(listener, app(AppState::embedded()), limits, std::future::pending()).await
/// # }
/// ```
pub async fn serve(
    listener: TcpListener,
    router: Router,
    limits: Limits,
    shutdown: impl Future<Output = ()>,
) -> std::io::Result<()> {
    let connections = Arc::new(Connections::default());
    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(limits.header_timeout);
    tokio::pin!(shutdown);
    loop {
        let (stream, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                // Out of files or a connection reset before it was accepted: go on.
                Err(_) => {
                    tokio::time::sleep(Duration::from_millis(10)).await;
                    continue;
                }
            },
            () = &mut shutdown => return Ok(()),
        };
        let _ = stream.set_nodelay(true);
        let (id, connection) = connections.open(limits.max_connections);
        let router = router.clone();
        let handle = connection.clone();
        let service = hyper::service::service_fn(move |mut request: Request<Incoming>| {
            // The peer's address, for the limits by client ([`Client`]).
            request
                .extensions_mut()
                .insert(axum::extract::ConnectInfo(peer));
            let busy = Busy::new(&handle);
            let router = router.clone();
            async move {
                let _busy = busy;
                let answer = router.oneshot(request.map(Body::new));
                Ok::<Response<Body>, std::convert::Infallible>(
                    match tokio::time::timeout(limits.request_timeout, answer).await {
                        Ok(Ok(response)) => response,
                        Ok(Err(never)) => match never {},
                        Err(_) => {
                            let mut response = Response::new(Body::from("request timeout\n"));
                            *response.status_mut() = StatusCode::REQUEST_TIMEOUT;
                            response.headers_mut().insert(
                                axum::http::header::CONNECTION,
                                axum::http::HeaderValue::from_static("close"),
                            );
                            response
                        }
                    },
                )
            }
        });
        let served = http.serve_connection(TokioIo::new(stream), service);
        let connections = connections.clone();
        tokio::spawn(async move {
            tokio::select! {
                _ = served => {}
                () = connection.close.notified() => {}
            }
            connections.closed(id);
        });
    }
}

/// The client that sent a request, for every limit by client (games created, codes tried,
/// logins): the connection's peer as [`serve`] records it (or, behind [`behind_proxy`], the
/// address the proxy forwards), an IPv6 address counted by its /64 network
/// ([`crate::play::throttle::client_of`]), so that one machine cannot step through its own
/// addresses to reset a limit. `None` for a request made inside the process (tests), which
/// no limit by client counts.
#[derive(Clone, Copy, Debug)]
pub struct Client(pub Option<std::net::IpAddr>);

impl<S: Send + Sync> axum::extract::FromRequestParts<S> for Client {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(
        parts: &mut axum::http::request::Parts,
        _: &S,
    ) -> Result<Client, Self::Rejection> {
        Ok(Client(
            parts
                .extensions
                .get::<axum::extract::ConnectInfo<std::net::SocketAddr>>()
                .map(|info| crate::play::throttle::client_of(info.0.ip())),
        ))
    }
}

/// `router` with `Secure` added to every cookie it sets (`--secure-cookies`: the server is
/// reached over TLS, through a proxy that ends it): a browser then never sends the session
/// over plain HTTP.
///
/// ```
/// # async fn run() {
/// use qiyuan::web::{app, serve::secure_cookies, AppState};
/// let router = secure_cookies(app(AppState::embedded()));
/// # }
/// ```
pub fn secure_cookies(router: Router) -> Router {
    router.layer(axum::middleware::map_response(mark_secure))
}

/// `router` reached through the reverse proxy at `proxy` (`--trusted-proxy`): for a request
/// whose connection comes from `proxy`, the client's address is the last of
/// `X-Forwarded-For` (the one the proxy added), so that the limits by client count clients,
/// not the proxy; and with `X-Forwarded-Proto: https` every cookie set is `Secure`. The
/// headers of any other peer are ignored: a client cannot name itself someone else.
///
/// ```
/// use qiyuan::web::{app, serve::behind_proxy, AppState};
/// let router = behind_proxy(app(AppState::embedded()), "127.0.0.1".parse().unwrap());
/// ```
pub fn behind_proxy(router: Router, proxy: std::net::IpAddr) -> Router {
    router.layer(axum::middleware::from_fn(
        move |mut request: axum::extract::Request, next: axum::middleware::Next| async move {
            let peer = request
                .extensions()
                .get::<axum::extract::ConnectInfo<std::net::SocketAddr>>()
                .map(|info| info.0);
            let mut https = false;
            if let Some(peer) = peer.filter(|p| p.ip() == proxy) {
                let headers = request.headers();
                https = headers
                    .get("x-forwarded-proto")
                    .and_then(|v| v.to_str().ok())
                    .is_some_and(|v| v.trim().eq_ignore_ascii_case("https"));
                let client = headers
                    .get_all("x-forwarded-for")
                    .iter()
                    .filter_map(|v| v.to_str().ok())
                    .flat_map(|v| v.split(','))
                    .last()
                    .and_then(|last| last.trim().parse::<std::net::IpAddr>().ok());
                if let Some(client) = client {
                    request.extensions_mut().insert(axum::extract::ConnectInfo(
                        std::net::SocketAddr::new(client, peer.port()),
                    ));
                }
            }
            let response = next.run(request).await;
            if https {
                mark_secure(response).await
            } else {
                response
            }
        },
    ))
}

async fn mark_secure(mut response: axum::response::Response) -> axum::response::Response {
    let headers = response.headers_mut();
    let cookies: Vec<axum::http::HeaderValue> = headers
        .get_all(axum::http::header::SET_COOKIE)
        .iter()
        .cloned()
        .collect();
    if cookies.is_empty() {
        return response;
    }
    headers.remove(axum::http::header::SET_COOKIE);
    for c in cookies {
        let secure = match c.to_str() {
            Ok(text)
                if !text
                    .split(';')
                    .any(|part| part.trim().eq_ignore_ascii_case("secure")) =>
            {
                axum::http::HeaderValue::from_str(&format!("{text}; Secure")).unwrap_or(c)
            }
            _ => c,
        };
        headers.append(axum::http::header::SET_COOKIE, secure);
    }
    response
}
