//! Passwords (argon2id, in the PHC string format) and session tokens (kept only as hashes).

use argon2::password_hash::phc::PasswordHash;
use argon2::password_hash::{PasswordHasher, PasswordVerifier};
use argon2::Argon2;
use sha2::{Digest, Sha256};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{mpsc, Arc, Mutex};
use std::time::Duration;

/// The shortest password `qiyuan teacher add` takes.
pub const MIN_LENGTH: usize = 8;

/// Hashes a password with argon2id and a random salt (`$argon2id$v=19$…`).
///
/// # Panics
/// Only if the system has no randomness for the salt.
pub fn hash(password: &str) -> String {
    Argon2::default()
        .hash_password(password.as_bytes())
        .expect("argon2 with a random salt")
        .to_string()
}

/// Why a password could not be checked. None of these is a wrong password: a login that
/// meets one is answered with the reason, and is not counted as a failed try.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PasswordError {
    /// Too many passwords are being checked at once (see [`Gate`]): try again.
    Busy,
    /// The stored hash is not a PHC string argon2 can read.
    Malformed(String),
    /// Argon2 failed: out of memory, or parameters it refuses.
    Hashing(String),
}

impl std::fmt::Display for PasswordError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PasswordError::Busy => write!(f, "too many passwords are being checked at once"),
            PasswordError::Malformed(e) => write!(f, "the stored password hash is malformed: {e}"),
            PasswordError::Hashing(e) => write!(f, "the password could not be checked: {e}"),
        }
    }
}

impl std::error::Error for PasswordError {}

/// Whether `password` is the one `hash` was made from; an error (out of memory, a malformed
/// hash) is an error, never a wrong password.
///
/// ```
/// use qiyuan::class::password::{check, hash, PasswordError};
/// let h = hash("correct horse");
/// assert_eq!(check("correct horse", &h), Ok(true));
/// assert_eq!(check("correct horse!", &h), Ok(false));
/// assert!(matches!(check("x", "not a hash"), Err(PasswordError::Malformed(_))));
/// ```
pub fn check(password: &str, hash: &str) -> Result<bool, PasswordError> {
    let parsed = PasswordHash::new(hash).map_err(|e| PasswordError::Malformed(e.to_string()))?;
    match Argon2::default().verify_password(password.as_bytes(), &parsed) {
        Ok(()) => Ok(true),
        Err(argon2::password_hash::Error::PasswordInvalid) => Ok(false),
        Err(e) => Err(PasswordError::Hashing(e.to_string())),
    }
}

/// A cap on the passwords checked at once: each check takes argon2's 19 MiB, so at most
/// `permits` run together, on `permits` threads of the gate's own (each reuses its memory,
/// so what a crowd of logins leaves allocated is bounded by the threads, not by the crowd),
/// at most `queue` more wait (each at most [`Gate::WAIT`]), and the rest are refused at once
/// with [`PasswordError::Busy`].
#[derive(Debug)]
pub struct Gate {
    permits: Arc<tokio::sync::Semaphore>,
    admitted: AtomicUsize,
    limit: usize,
    jobs: Mutex<mpsc::Sender<Job>>,
}

/// A check for a gate's thread: the password, the hash, where to answer, and the turn it
/// holds until it is done.
type Job = (
    String,
    String,
    tokio::sync::oneshot::Sender<Result<bool, PasswordError>>,
    tokio::sync::OwnedSemaphorePermit,
);

/// Counts a check as admitted while it lives.
struct Admitted<'a>(&'a AtomicUsize);

impl Drop for Admitted<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::AcqRel);
    }
}

impl Gate {
    /// The longest a check waits for its turn before it is refused as busy.
    pub const WAIT: Duration = Duration::from_secs(5);
    /// Checks waiting per check running, in [`Gate::for_cores`].
    pub const QUEUE_PER_PERMIT: usize = 4;

    /// At most `permits` checks at once (at least one), on as many threads, and `queue`
    /// waiting. The threads end when the gate is dropped.
    pub fn new(permits: usize, queue: usize) -> Gate {
        let permits = permits.max(1);
        let (send, receive) = mpsc::channel::<Job>();
        let receive = Arc::new(Mutex::new(receive));
        for _ in 0..permits {
            let receive = receive.clone();
            let spawned = std::thread::Builder::new()
                .name("qiyuan-password".into())
                .spawn(move || loop {
                    let job = receive.lock().unwrap_or_else(|e| e.into_inner()).recv();
                    let Ok((password, hash, answer, permit)) = job else {
                        return;
                    };
                    let _ = answer.send(check(&password, &hash));
                    drop(permit);
                });
            if let Err(e) = spawned {
                eprintln!("qiyuan: cannot start a password thread: {e}");
            }
        }
        Gate {
            permits: Arc::new(tokio::sync::Semaphore::new(permits)),
            admitted: AtomicUsize::new(0),
            limit: permits + queue,
            jobs: Mutex::new(send),
        }
    }

    /// One check a core, and [`Gate::QUEUE_PER_PERMIT`] waiting for each.
    pub fn for_cores() -> Gate {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        Gate::new(cores, cores * Self::QUEUE_PER_PERMIT)
    }

    /// Checks `password` against `hash` on one of the gate's threads, when its turn comes.
    pub async fn check(&self, password: String, hash: String) -> Result<bool, PasswordError> {
        if self.admitted.fetch_add(1, Ordering::AcqRel) >= self.limit {
            self.admitted.fetch_sub(1, Ordering::AcqRel);
            return Err(PasswordError::Busy);
        }
        let _admitted = Admitted(&self.admitted);
        let permit =
            match tokio::time::timeout(Self::WAIT, self.permits.clone().acquire_owned()).await {
                Ok(Ok(permit)) => permit,
                _ => return Err(PasswordError::Busy),
            };
        let (answer, answered) = tokio::sync::oneshot::channel();
        let sent = self
            .jobs
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .send((password, hash, answer, permit));
        if sent.is_err() {
            return Err(PasswordError::Hashing(
                "no password thread is running".into(),
            ));
        }
        answered
            .await
            .unwrap_or_else(|_| Err(PasswordError::Hashing("the password thread stopped".into())))
    }
}

/// Whether `password` is the one `hash` was made from (false for a malformed hash).
///
/// ```
/// let h = qiyuan::class::password::hash("correct horse");
/// assert!(qiyuan::class::password::verify("correct horse", &h));
/// assert!(!qiyuan::class::password::verify("correct horse!", &h));
/// assert!(!qiyuan::class::password::verify("x", "not a hash"));
/// ```
pub fn verify(password: &str, hash: &str) -> bool {
    match PasswordHash::new(hash) {
        Ok(parsed) => Argon2::default()
            .verify_password(password.as_bytes(), &parsed)
            .is_ok(),
        Err(_) => false,
    }
}

/// A hash that takes as long to check as a real one: a login with an unknown name is
/// checked against it, so a wrong name and a wrong password take the same time.
pub fn decoy() -> &'static str {
    static DECOY: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    DECOY.get_or_init(|| hash(&crate::random::token()))
}

/// What the database keeps of a session token: its SHA-256, so a copy of the database
/// opens no session.
pub fn token_hash(token: &str) -> Vec<u8> {
    Sha256::digest(token.as_bytes()).to_vec()
}
