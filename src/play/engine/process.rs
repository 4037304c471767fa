//! One engine child process, spoken to line by line with every read bounded in time and size.
//!
//! The child's stdout is read by a thread that sends whole lines over a bounded channel, and
//! its stdin is written by another thread, so that neither a silent engine nor one that stops
//! reading can block the caller: every wait is [`recv_timeout`](std::sync::mpsc::Receiver)
//! up to a deadline. A line longer than [`MAX_LINE`] is cut and reported; more than
//! [`MAX_REPLY_BYTES`] of output while waiting for one answer is a protocol error. The child
//! runs in its own process group, and the whole group is killed when the [`Process`] is
//! dropped (a shell script's children too).

use super::EngineError;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, SyncSender, TrySendError};
use std::thread;
use std::time::{Duration, Instant};

/// The longest line read from an engine, in bytes; longer lines are a protocol error.
pub const MAX_LINE: usize = 64 * 1024;

/// The most output read while waiting for one answer (info lines and all), in bytes.
pub const MAX_REPLY_BYTES: usize = 4 * 1024 * 1024;

/// Lines waiting in the channel between the reader thread and the caller.
const CHANNEL_LINES: usize = 256;

/// What the reader thread saw on the engine's stdout.
#[derive(Debug)]
enum Event {
    /// One line, without its line end, read as UTF-8 (invalid bytes replaced).
    Line(String),
    /// A line longer than [`MAX_LINE`] bytes.
    TooLong,
    /// The output ended (the engine closed it or exited) or could not be read.
    Closed,
}

/// A running engine: its child process, its output lines and its input.
pub struct Process {
    child: Child,
    program: PathBuf,
    lines: Receiver<Event>,
    input: Option<SyncSender<String>>,
    /// Bytes read since the last command was sent.
    read_since_send: usize,
    /// When the last command was sent (or the process started).
    sent_at: Instant,
    /// Set once the output has ended.
    closed: bool,
}

impl Process {
    /// Starts `program` with `args`, stdin and stdout piped, stderr discarded.
    pub fn spawn(program: &Path, args: &[String]) -> Result<Process, EngineError> {
        let mut command = Command::new(program);
        command
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        #[cfg(unix)]
        {
            use std::os::unix::process::CommandExt;
            command.process_group(0);
        }
        let mut child = command.spawn().map_err(|e| match e.kind() {
            std::io::ErrorKind::NotFound => EngineError::NotFound(program.to_path_buf()),
            std::io::ErrorKind::PermissionDenied => {
                EngineError::NotExecutable(program.to_path_buf())
            }
            _ => EngineError::Spawn {
                program: program.to_path_buf(),
                reason: e.to_string(),
            },
        })?;
        let (stdout, stdin) = match (child.stdout.take(), child.stdin.take()) {
            (Some(out), Some(inp)) => (out, inp),
            _ => {
                kill_group(&mut child);
                return Err(EngineError::Spawn {
                    program: program.to_path_buf(),
                    reason: "no pipes to the child".to_string(),
                });
            }
        };
        let (line_tx, lines) = mpsc::sync_channel(CHANNEL_LINES);
        let (input_tx, input_rx) = mpsc::sync_channel::<String>(CHANNEL_LINES);
        let spawned = thread::Builder::new()
            .name("engine-reader".to_string())
            .spawn(move || read_lines(stdout, line_tx))
            .and_then(|_| {
                thread::Builder::new()
                    .name("engine-writer".to_string())
                    .spawn(move || write_lines(stdin, input_rx))
            });
        if let Err(e) = spawned {
            kill_group(&mut child);
            return Err(EngineError::Spawn {
                program: program.to_path_buf(),
                reason: e.to_string(),
            });
        }
        Ok(Process {
            child,
            program: program.to_path_buf(),
            lines,
            input: Some(input_tx),
            read_since_send: 0,
            sent_at: Instant::now(),
            closed: false,
        })
    }

    /// The program this process runs.
    pub fn program(&self) -> &Path {
        &self.program
    }

    /// Sends one command line (a line end is added).
    pub fn send(&mut self, line: &str) -> Result<(), EngineError> {
        if self.closed {
            return Err(self.died());
        }
        self.read_since_send = 0;
        self.sent_at = Instant::now();
        let Some(input) = &self.input else {
            return Err(self.died());
        };
        match input.try_send(format!("{line}\n")) {
            Ok(()) => Ok(()),
            // The writer thread is stuck behind a full pipe: the engine reads nothing.
            Err(TrySendError::Full(_)) => Err(EngineError::Timeout {
                waiting_for: "the engine to read its input",
                after: Duration::ZERO,
            }),
            // The writer thread has stopped: the pipe is broken.
            Err(TrySendError::Disconnected(_)) => {
                self.closed = true;
                Err(self.died())
            }
        }
    }

    /// The next line of output, waiting until `deadline` at most; `waiting_for` names what
    /// is awaited, for the error.
    pub fn read_line(
        &mut self,
        deadline: Instant,
        waiting_for: &'static str,
    ) -> Result<String, EngineError> {
        if self.closed {
            return Err(self.died());
        }
        let left = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(left) {
            Ok(Event::Line(line)) => {
                self.read_since_send += line.len() + 1;
                if self.read_since_send > MAX_REPLY_BYTES {
                    return Err(EngineError::Protocol(format!(
                        "more than {} bytes of output while waiting for {waiting_for}",
                        MAX_REPLY_BYTES
                    )));
                }
                Ok(line)
            }
            Ok(Event::TooLong) => Err(EngineError::Protocol(format!(
                "a line longer than {MAX_LINE} bytes while waiting for {waiting_for}"
            ))),
            Ok(Event::Closed) | Err(RecvTimeoutError::Disconnected) => {
                self.closed = true;
                Err(self.died())
            }
            Err(RecvTimeoutError::Timeout) => Err(EngineError::Timeout {
                waiting_for,
                after: self.sent_at.elapsed(),
            }),
        }
    }

    /// The error for an engine whose output has ended, with its exit status if it has one
    /// within a short wait.
    fn died(&mut self) -> EngineError {
        let until = Instant::now() + Duration::from_millis(200);
        loop {
            match self.child.try_wait() {
                Ok(Some(status)) => {
                    return EngineError::Died {
                        status: Some(status.to_string()),
                    }
                }
                Ok(None) if Instant::now() < until => thread::sleep(Duration::from_millis(10)),
                _ => return EngineError::Died { status: None },
            }
        }
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        self.input = None;
        kill_group(&mut self.child);
    }
}

/// Kills the child and everything in its process group, and reaps it.
fn kill_group(child: &mut Child) {
    #[cfg(unix)]
    {
        if let Ok(pid) = i32::try_from(child.id()) {
            if child.try_wait().ok().flatten().is_none() {
                // SAFETY: kill(2) with a negative pid signals the process group the child
                // leads (it was spawned with process_group(0)); it touches no memory.
                unsafe {
                    libc::kill(-pid, libc::SIGKILL);
                }
            }
        }
    }
    let _ = child.kill();
    let _ = child.wait();
}

/// The reader thread: whole lines of at most [`MAX_LINE`] bytes, until the output ends.
fn read_lines(stdout: ChildStdout, lines: SyncSender<Event>) {
    let mut reader = BufReader::new(stdout);
    let mut line: Vec<u8> = Vec::new();
    let mut too_long = false;
    loop {
        let buf = match reader.fill_buf() {
            Ok([]) | Err(_) => break,
            Ok(buf) => buf,
        };
        let (chunk, ends_line) = match buf.iter().position(|&b| b == b'\n') {
            Some(i) => (&buf[..i], true),
            None => (buf, false),
        };
        let used = chunk.len() + usize::from(ends_line);
        if !too_long {
            if line.len() + chunk.len() > MAX_LINE {
                too_long = true;
                line.clear();
            } else {
                line.extend_from_slice(chunk);
            }
        }
        reader.consume(used);
        if ends_line {
            let event = if too_long {
                Event::TooLong
            } else {
                if line.last() == Some(&b'\r') {
                    line.pop();
                }
                Event::Line(String::from_utf8_lossy(&line).into_owned())
            };
            line.clear();
            too_long = false;
            if lines.send(event).is_err() {
                return;
            }
        }
    }
    if !line.is_empty() && !too_long {
        let _ = lines.send(Event::Line(String::from_utf8_lossy(&line).into_owned()));
    }
    let _ = lines.send(Event::Closed);
}

/// The writer thread: writes each line and flushes, until the channel closes or a write fails.
fn write_lines(mut stdin: ChildStdin, input: Receiver<String>) {
    for line in input {
        if stdin.write_all(line.as_bytes()).is_err() || stdin.flush().is_err() {
            return;
        }
    }
}
