//! Passwords (argon2id, in the PHC string format) and session tokens (kept only as hashes).

use argon2::password_hash::phc::PasswordHash;
use argon2::password_hash::{PasswordHasher, PasswordVerifier};
use argon2::Argon2;
use sha2::{Digest, Sha256};

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
