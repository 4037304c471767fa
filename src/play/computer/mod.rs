//! The built-in opponents, one for each game, inside the binary: [`Computer::think`] gives
//! the move the computer plays at a [`Level`] from 1 ("a beginner beats it") to 5 ("a club
//! beginner").
//!
//! - Go ([`go`]): level 1 follows tactical rules only (capture, escape from atari, else a
//!   random move that neither fills its own eye nor puts itself in atari); levels 2 to 5
//!   add Monte-Carlo playouts on the make/undo [`SearchBoard`](crate::rules::go::SearchBoard),
//!   more of them at each level. [`go::dead_stones`] proposes the dead stones at the end.
//! - Chess ([`chess`]): alpha-beta (negamax with quiescence on captures, move ordering,
//!   iterative deepening) over shakmaty with material, piece-square tables and mobility;
//!   deeper at each level, with random noise on the root moves at low levels.
//! - Shogi ([`shogi`]): alpha-beta over rsshogi's make/undo position with material (hand
//!   pieces worth a little more), promotion, a light king safety and mobility.
//!
//! Every search is bounded by a count (playouts or nodes) chosen for the level and board,
//! so a move is the same for the same position, level and seed; a deadline of
//! [`Computer::think_budget`] stops it early should the machine be much slower (then the
//! move can differ). Each search runs on one thread: call it from `spawn_blocking`.
//!
//! ```
//! use qiyuan::play::computer::Computer;
//! use qiyuan::play::Level;
//! use qiyuan::rules::{chess, Rules};
//! let pos = chess::Position::start();
//! let level = Level::new(1).unwrap();
//! let played = pos.think(level, 7).unwrap();
//! assert!(pos.play(&played.uci).is_ok());
//! assert!(pos.think_budget(level) <= std::time::Duration::from_secs(1));
//! ```

pub mod chess;
pub mod go;
pub mod shogi;

use super::Level;
use crate::rules::Rules;
use std::time::{Duration, Instant};

/// A built-in opponent: the move the computer plays here.
pub trait Computer: Rules {
    /// The move the built-in opponent of `level` plays in this position, or `None` only when
    /// the side to move has no legal move (or, in Go, the game is over). Deterministic for a
    /// given `seed` (unless the deadline of [`think_budget`](Computer::think_budget) cuts the
    /// search short); returns within that budget.
    fn think(&self, level: Level, seed: u64) -> Option<Self::Move>;

    /// How long [`think`](Computer::think) may take at `level` for this board, on one thread
    /// of this 2-core machine: at most 1 s for chess, shogi and Go up to 9×9, at most 2 s on
    /// larger Go boards.
    fn think_budget(&self, level: Level) -> Duration;
}

/// When a search must stop: `budget` from now.
pub(crate) fn deadline(budget: Duration) -> Instant {
    Instant::now() + budget
}

/// A seeded 64-bit mix of `seed` and `salt` (splitmix64's finaliser), for noise that does
/// not depend on the order moves are looked at.
pub(crate) fn mix(seed: u64, salt: u64) -> u64 {
    let mut z = seed ^ salt.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// A seeded noise in `-amplitude..=amplitude` for the move `salt`.
pub(crate) fn noise(seed: u64, salt: u64, amplitude: i32) -> i32 {
    if amplitude <= 0 {
        return 0;
    }
    let span = 2 * amplitude as u64 + 1;
    (mix(seed, salt) % span) as i32 - amplitude
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn noise_stays_within_its_amplitude() {
        for salt in 0..1000 {
            let n = noise(42, salt, 30);
            assert!((-30..=30).contains(&n));
        }
        assert_eq!(noise(42, 7, 0), 0);
        assert_eq!(noise(42, 7, 30), noise(42, 7, 30));
        assert!((0..100).any(|s| noise(1, s, 30) != noise(2, s, 30)));
    }
}
