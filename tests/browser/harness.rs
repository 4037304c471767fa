//! The machinery of the browser tests: the trainer on a free port, chromedriver as a child
//! process, and a [`Browser`] with the few helpers the scenarios need (wait for a condition,
//! press a key, collect JavaScript errors, take screenshots).

use anyhow::{anyhow, bail, ensure, Context, Result};
use fantoccini::actions::{InputSource, KeyAction, KeyActions};
use fantoccini::key::Key;
use fantoccini::{Client, ClientBuilder, Locator};
use qiyuan::web::{app, AppState};
use serde_json::{json, Value};
use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// The browser the tests drive: Debian's `chromium` package.
pub const CHROMIUM: &str = "/usr/bin/chromium";

/// How long a condition may take to come true before the test fails.
const PATIENCE: Duration = Duration::from_secs(10);

/// What to install when the browser or its driver is missing.
const INSTALL: &str = "apt-get install -y chromium chromium-driver";

/// Starts the trainer with the built-in content on a free port of 127.0.0.1, in a
/// background task of the test's runtime; returns its base address.
pub async fn start_trainer(state: AppState) -> Result<String> {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
    let addr = listener.local_addr()?;
    let router = app(state);
    tokio::spawn(async move {
        axum::serve(listener, router)
            .await
            .expect("trainer stopped");
    });
    Ok(format!("http://{addr}"))
}

/// `chromedriver` found on `PATH` (Debian's `chromium-driver` puts it in `/usr/bin`).
fn find_chromedriver() -> Option<PathBuf> {
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path)
        .chain([PathBuf::from("/usr/bin")])
        .map(|dir| dir.join("chromedriver"))
        .find(|p| p.is_file())
}

/// A free TCP port on 127.0.0.1 (free when asked; chromedriver binds it right after).
fn free_port() -> Result<u16> {
    Ok(std::net::TcpListener::bind("127.0.0.1:0")?
        .local_addr()?
        .port())
}

/// A running chromedriver and the browser profile folder of this run; both go on drop.
pub struct Driver {
    child: Child,
    port: u16,
    profile: PathBuf,
}

impl Driver {
    /// Starts `chromedriver --port=<free port>` and waits until it listens.
    pub async fn start() -> Result<Driver> {
        ensure!(
            Path::new(CHROMIUM).is_file(),
            "{CHROMIUM} is missing; the browser tests need Chromium and its WebDriver: {INSTALL}"
        );
        let Some(program) = find_chromedriver() else {
            bail!("chromedriver is missing; the browser tests need Chromium and its WebDriver: {INSTALL}");
        };
        let port = free_port()?;
        let profile = std::env::temp_dir().join(format!(
            "qiyuan-browser-{}-{}",
            std::process::id(),
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)?
                .as_nanos()
        ));
        std::fs::create_dir_all(&profile)?;
        let child = Command::new(&program)
            .arg(format!("--port={port}"))
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .with_context(|| format!("starting {}; {INSTALL}", program.display()))?;
        let mut driver = Driver {
            child,
            port,
            profile,
        };
        let start = Instant::now();
        while TcpStream::connect(("127.0.0.1", port)).is_err() {
            if let Some(status) = driver.child.try_wait()? {
                bail!("chromedriver exited at start ({status}); {INSTALL}");
            }
            ensure!(
                start.elapsed() < PATIENCE,
                "chromedriver did not listen on port {port} within {PATIENCE:?}"
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        Ok(driver)
    }

    /// Opens a headless Chromium session with a fresh profile, its console kept for us.
    pub async fn session(&self, base: &str) -> Result<Browser> {
        // Each session its own profile: two browsers on one driver are two learners.
        static SESSIONS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let n = SESSIONS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let profile = self.profile.join(format!("session-{n}"));
        std::fs::create_dir_all(&profile)?;
        let capabilities = json!({
            "goog:loggingPrefs": { "browser": "ALL" },
            "goog:chromeOptions": {
                "binary": CHROMIUM,
                "args": [
                    "--headless",
                    "--no-sandbox",
                    "--disable-gpu",
                    "--disable-quic",
                    "--no-first-run",
                    "--disable-background-networking",
                    "--disable-component-update",
                    "--disable-sync",
                    "--window-size=1280,800",
                    format!("--user-data-dir={}", profile.display()),
                ],
            },
        });
        let Value::Object(capabilities) = capabilities else {
            unreachable!()
        };
        let client = ClientBuilder::native()
            .capabilities(capabilities)
            .connect(&format!("http://127.0.0.1:{}", self.port))
            .await
            .with_context(|| format!("starting {CHROMIUM} through chromedriver; {INSTALL}"))?;
        let session = client
            .session_id()
            .await?
            .ok_or_else(|| anyhow!("chromedriver gave no session id"))?;
        let shots = screenshot_dir();
        // Screenshots of failures in an earlier run would mislead.
        for entry in std::fs::read_dir(&shots).into_iter().flatten().flatten() {
            if entry.file_name().to_string_lossy().starts_with("failed-") {
                let _ = std::fs::remove_file(entry.path());
            }
        }
        Ok(Browser {
            client,
            base: base.to_string(),
            driver_port: self.port,
            session,
            shots,
        })
    }
}

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.profile);
    }
}

/// `target/screenshots/` (or under `CARGO_TARGET_DIR`).
fn screenshot_dir() -> PathBuf {
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("target"));
    target.join("screenshots")
}

/// Records JavaScript errors in `window.__qiyuanErrors`; injected right after each page
/// load. The object is also how a test tells that the page was not reloaded.
const ERROR_HOOK: &str = r#"
if (!window.__qiyuanErrors) {
  const errors = (window.__qiyuanErrors = []);
  window.addEventListener("error", (e) => {
    const what = e.message || (e.target && (e.target.src || e.target.href)) || String(e);
    errors.push(`error: ${what}`);
  }, true);
  window.addEventListener("unhandledrejection", (e) => {
    errors.push(`unhandled rejection: ${e.reason && (e.reason.stack || e.reason)}`);
  });
  const original = console.error;
  console.error = function (...args) {
    errors.push(`console.error: ${args.map(String).join(" ")}`);
    return original.apply(this, args);
  };
}
return true;
"#;

/// A WebDriver session on the trainer.
pub struct Browser {
    pub client: Client,
    base: String,
    driver_port: u16,
    session: String,
    shots: PathBuf,
}

impl Browser {
    /// The full address of a path on the trainer.
    pub fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base)
    }

    /// Opens `path` (after making sure the page being left had no errors) and hooks the new
    /// page's errors.
    pub async fn open(&self, path: &str) -> Result<()> {
        self.check_errors()
            .await
            .with_context(|| format!("before opening {path}"))?;
        self.client.goto(&self.url(path)).await?;
        self.loaded().await
    }

    /// Waits until the page is loaded, then hooks its errors.
    async fn loaded(&self) -> Result<()> {
        self.wait_for(
            "the page to load",
            "return document.readyState === 'complete'",
        )
        .await?;
        self.js(ERROR_HOOK, vec![]).await?;
        Ok(())
    }

    /// Clicks the link `link` (which leaves the page) and waits for the next page.
    pub async fn follow(&self, link: Locator<'_>) -> Result<()> {
        self.check_errors().await?;
        self.client
            .wait()
            .at_most(PATIENCE)
            .every(Duration::from_millis(40))
            .for_element(link)
            .await
            .with_context(|| format!("waiting for the link {link:?}"))?
            .click()
            .await?;
        self.after_reload()
            .await
            .with_context(|| format!("after clicking {link:?}"))
    }

    /// Reloads the page.
    pub async fn reload(&self) -> Result<()> {
        self.check_errors().await?;
        self.client.refresh().await?;
        self.after_reload().await
    }

    /// Waits for the page that replaces the current one (after a reload or a link).
    pub async fn after_reload(&self) -> Result<()> {
        self.wait_for(
            "the next page",
            "return !window.__qiyuanErrors && document.readyState === 'complete'",
        )
        .await?;
        self.loaded().await
    }

    /// Hooks the page's errors if it is a new page (after a link that may or may not have
    /// been handled by the script); returns whether it is.
    pub async fn hook_if_reloaded(&self) -> Result<bool> {
        let new = self.js("return !window.__qiyuanErrors", vec![]).await? == json!(true);
        if new {
            self.loaded().await?;
        }
        Ok(new)
    }

    /// Fails if the page was reloaded since it was opened (for actions the script should
    /// handle in place, without falling back to following the link).
    pub async fn same_page(&self, after: &str) -> Result<()> {
        let same = self.js("return !!window.__qiyuanErrors", vec![]).await?;
        ensure!(
            same == json!(true),
            "{after}: the page was reloaded; the script should have done it in place"
        );
        Ok(())
    }

    /// Runs `script` (a function body) in the page and returns its value.
    pub async fn js(&self, script: &str, args: Vec<Value>) -> Result<Value> {
        self.client
            .execute(script, args)
            .await
            .with_context(|| format!("running script: {}", script.trim()))
    }

    /// Polls `script` until it returns something truthy, and returns that.
    pub async fn wait_for(&self, what: &str, script: &str) -> Result<Value> {
        self.wait_for_with(what, script, vec![]).await
    }

    /// Like [`Browser::wait_for`], with arguments for the script.
    pub async fn wait_for_with(&self, what: &str, script: &str, args: Vec<Value>) -> Result<Value> {
        let start = Instant::now();
        loop {
            let value = self.js(script, args.clone()).await?;
            let truthy = match &value {
                Value::Null => false,
                Value::Bool(b) => *b,
                Value::Number(n) => n.as_f64() != Some(0.0),
                Value::String(s) => !s.is_empty(),
                _ => true,
            };
            if truthy {
                return Ok(value);
            }
            if start.elapsed() > PATIENCE {
                let url = self.client.current_url().await?;
                bail!("waited {PATIENCE:?} for {what} on {url}; last value: {value}");
            }
            tokio::time::sleep(Duration::from_millis(40)).await;
        }
    }

    /// The element `css`, waiting for it to appear.
    pub async fn find(&self, css: &str) -> Result<fantoccini::elements::Element> {
        self.client
            .wait()
            .at_most(PATIENCE)
            .every(Duration::from_millis(40))
            .for_element(Locator::Css(css))
            .await
            .with_context(|| format!("waiting for an element {css}"))
    }

    /// The text of `css` (its `textContent`, spaces collapsed), waiting for it to appear.
    pub async fn text(&self, css: &str) -> Result<String> {
        self.find(css).await?;
        let text = self
            .js(
                "return document.querySelector(arguments[0]).textContent",
                vec![json!(css)],
            )
            .await?;
        Ok(squash(text.as_str().unwrap_or_default()))
    }

    /// The path and query of the page.
    pub async fn location(&self) -> Result<String> {
        let url = self.client.current_url().await?;
        Ok(match url.query() {
            Some(q) => format!("{}?{q}", url.path()),
            None => url.path().to_string(),
        })
    }

    /// Presses and releases `key` on the focused element.
    pub async fn press(&self, key: Key) -> Result<()> {
        let keys = KeyActions::new("keyboard".into())
            .then(KeyAction::Down { value: key.into() })
            .then(KeyAction::Up { value: key.into() });
        self.client.perform_actions(keys).await?;
        Ok(())
    }

    /// Sets the viewport (not the window) to `width`×`height` CSS pixels.
    pub async fn viewport(&self, width: u32, height: u32) -> Result<()> {
        let want = (i64::from(width), i64::from(height));
        let (mut w, mut h) = want;
        let mut inner = (0, 0);
        for _ in 0..5 {
            self.client
                .set_window_size(w.max(1) as u32, h.max(1) as u32)
                .await?;
            // The page may learn of its new size a moment later: wait until it settles.
            let start = Instant::now();
            let mut last = (-1, -1);
            loop {
                let v = self
                    .js("return [window.innerWidth, window.innerHeight]", vec![])
                    .await?;
                inner = (v[0].as_i64().unwrap_or(0), v[1].as_i64().unwrap_or(0));
                if inner == want {
                    return Ok(());
                }
                if inner == last || start.elapsed() > Duration::from_secs(2) {
                    break;
                }
                last = inner;
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
            w += want.0 - inner.0;
            h += want.1 - inner.1;
        }
        bail!(
            "could not set the viewport to {width}×{height}: it stays {}×{}",
            inner.0,
            inner.1
        )
    }

    /// Runs the DevTools command `cmd` with `params` through chromedriver
    /// (`Emulation.setTouchEmulationEnabled` …).
    #[allow(dead_code)] // not every test file that includes the harness uses it
    pub async fn devtools(&self, cmd: &str, params: Value) -> Result<Value> {
        let path = format!("/session/{}/goog/cdp/execute", self.session);
        let reply = driver_post(
            self.driver_port,
            &path,
            &json!({ "cmd": cmd, "params": params }),
        )
        .await?;
        ensure!(reply.get("value").is_some(), "chromedriver: {reply}");
        Ok(reply["value"].clone())
    }

    /// The page printed to PDF (A4) by the browser (WebDriver's print), only `pages`
    /// (`"1"`, `"1-3"`) if given.
    #[allow(dead_code)] // not every test file that includes the harness uses it
    pub async fn print_pdf(&self, pages: Option<&str>) -> Result<Vec<u8>> {
        let path = format!("/session/{}/print", self.session);
        let mut body = json!({ "page": { "width": 21.0, "height": 29.7 }, "background": true });
        if let Some(p) = pages {
            body["pageRanges"] = json!([p]);
        }
        let reply = driver_post(self.driver_port, &path, &body).await?;
        let data = reply["value"]
            .as_str()
            .ok_or_else(|| anyhow!("chromedriver's print: {reply}"))?;
        base64(data).ok_or_else(|| anyhow!("chromedriver's print is not base64"))
    }

    /// Saves a screenshot of the viewport as `target/screenshots/{name}.png`.
    pub async fn screenshot(&self, name: &str) -> Result<PathBuf> {
        std::fs::create_dir_all(&self.shots)?;
        let png = self.client.screenshot().await?;
        let path = self.shots.join(format!("{name}.png"));
        std::fs::write(&path, png)?;
        Ok(path)
    }

    /// Fails with every JavaScript error of the page (caught by the hook) and every error in
    /// Chromium's console log since the last check.
    pub async fn check_errors(&self) -> Result<()> {
        let mut errors = Vec::new();
        let hooked = self
            .js(
                "const list = window.__qiyuanErrors || []; const copy = list.slice(); list.length = 0; return copy;",
                vec![],
            )
            .await?;
        if let Value::Array(list) = hooked {
            errors.extend(list.iter().filter_map(|e| e.as_str()).map(String::from));
        }
        errors.extend(self.console_errors().await?);
        if errors.is_empty() {
            return Ok(());
        }
        let url = self.client.current_url().await?;
        bail!("JavaScript errors on {url}:\n  {}", errors.join("\n  "))
    }

    /// Errors in Chromium's console log since the last call (chromedriver's `se/log`).
    ///
    /// A missing `/favicon.ico` is not counted: the trainer serves no icon, and Chromium asks
    /// for one on its own, not the page. Nor is a `422` answer of a game's `…/moves`: that is
    /// the rules refusing a move, which the page shows with its reason.
    async fn console_errors(&self) -> Result<Vec<String>> {
        let path = format!("/session/{}/se/log", self.session);
        let reply = driver_post(self.driver_port, &path, &json!({ "type": "browser" })).await?;
        let Some(entries) = reply["value"].as_array() else {
            bail!("chromedriver's log: unexpected reply {reply}");
        };
        Ok(entries
            .iter()
            .filter(|e| e["level"] == "SEVERE")
            .map(|e| e["message"].as_str().unwrap_or_default().to_string())
            .filter(|m| !m.contains("/favicon.ico "))
            .filter(|m| !(m.contains("/moves - ") && m.contains("status of 422")))
            .collect())
    }

    /// Ends the session (the browser quits).
    pub async fn close(self) -> Result<()> {
        self.client.close().await?;
        Ok(())
    }
}

/// Collapses runs of white space into one space and trims.
pub fn squash(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// A `POST` of JSON to chromedriver, for its commands fantoccini has no method for.
async fn driver_post(port: u16, path: &str, body: &Value) -> Result<Value> {
    let body = body.to_string();
    let request = format!(
        "POST {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    let body = tokio::task::spawn_blocking(move || -> Result<String> {
        let mut stream = TcpStream::connect(("127.0.0.1", port))?;
        stream.set_read_timeout(Some(PATIENCE))?;
        stream.write_all(request.as_bytes())?;
        // Read the head, then as many bytes as it announces (chromedriver keeps the
        // connection open).
        let mut data = Vec::new();
        let mut buf = [0; 8192];
        loop {
            let text = String::from_utf8_lossy(&data);
            if let Some(end) = text.find("\r\n\r\n") {
                let length = text[..end]
                    .lines()
                    .find_map(|l| {
                        let (k, v) = l.split_once(':')?;
                        k.eq_ignore_ascii_case("content-length")
                            .then(|| v.trim().parse::<usize>().ok())?
                    })
                    .ok_or_else(|| anyhow!("chromedriver: no length in {text}"))?;
                if data.len() >= end + 4 + length {
                    return Ok(String::from_utf8_lossy(&data[end + 4..end + 4 + length]).into());
                }
            }
            let n = stream.read(&mut buf)?;
            ensure!(n > 0, "chromedriver closed the connection: {text}");
            data.extend_from_slice(&buf[..n]);
        }
    })
    .await??;
    serde_json::from_str(&body).with_context(|| format!("chromedriver replied {body}"))
}

/// Runs the scenarios one by one, timing each; a failed one leaves a screenshot.
pub struct Runner<'a> {
    /// The session the scenarios run in.
    pub browser: &'a Browser,
    /// Each failed scenario: its name, the error, the screenshot and any script error.
    pub failures: Vec<String>,
}

impl Runner<'_> {
    /// Runs one scenario, then checks the page for script errors.
    pub async fn run(
        &mut self,
        name: &str,
        scenario: impl std::future::Future<Output = Result<()>>,
    ) {
        let start = Instant::now();
        let mut outcome = scenario.await;
        if outcome.is_ok() {
            outcome = self.browser.check_errors().await;
        }
        let took = start.elapsed();
        match outcome {
            Ok(()) => eprintln!("browser: {name}: ok in {took:.1?}"),
            Err(e) => {
                let shot = format!("failed-{}", name.replace(' ', "-"));
                let saved = match self.browser.screenshot(&shot).await {
                    Ok(path) => format!("screenshot {}", path.display()),
                    Err(e) => format!("no screenshot: {e}"),
                };
                let errors = match self.browser.check_errors().await {
                    Ok(()) => String::new(),
                    Err(e) => format!("\n  also: {e:#}"),
                };
                eprintln!("browser: {name}: FAILED in {took:.1?}");
                self.failures
                    .push(format!("{name}: {e:#}\n  ({saved}){errors}"));
            }
        }
    }
}

/// Standard base64 (with padding) decoded.
#[allow(dead_code)] // used by `print_pdf` only
fn base64(text: &str) -> Option<Vec<u8>> {
    let value = |c: u8| match c {
        b'A'..=b'Z' => Some(c - b'A'),
        b'a'..=b'z' => Some(c - b'a' + 26),
        b'0'..=b'9' => Some(c - b'0' + 52),
        b'+' => Some(62),
        b'/' => Some(63),
        _ => None,
    };
    let bytes: Vec<u8> = text
        .bytes()
        .filter(|b| !b.is_ascii_whitespace() && *b != b'=')
        .collect();
    let mut out = Vec::with_capacity(bytes.len() * 3 / 4);
    for chunk in bytes.chunks(4) {
        let v: Vec<u8> = chunk.iter().map(|&c| value(c)).collect::<Option<_>>()?;
        let n = v.iter().fold(0u32, |n, &x| (n << 6) | u32::from(x)) << (6 * (4 - v.len()));
        out.extend_from_slice(&n.to_be_bytes()[1..v.len()]);
    }
    Some(out)
}
