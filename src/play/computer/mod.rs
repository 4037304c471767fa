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
//! - Xiangqi ([`xiangqi`]): alpha-beta with quiescence over the rules' own position, material
//!   (a soldier across the river worth twice one at home) and piece-square tables; a win in
//!   one is always taken, and a losing perpetual check is avoided.
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

for_each_game!(game_modules);

pub use go::dead_stones;

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

/// When a search must stop: nine tenths of `budget` from now, leaving the rest for playing
/// the chosen move and for a late look at the clock.
pub(crate) fn deadline(budget: Duration) -> Instant {
    Instant::now() + budget * 9 / 10
}

/// How an alpha-beta opponent (chess, shogi) of a level searches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchStrength {
    /// Full-width plies, before quiescence.
    pub depth: u8,
    /// Whether captures are followed to quiet positions past the depth.
    pub quiescence: bool,
    /// The largest random change to a root move's score (a pawn is 100).
    pub noise: i32,
    /// At most this many positions are searched for one move.
    pub nodes: u64,
}

impl SearchStrength {
    /// The row of `level` in a table of five `(depth, quiescence, noise, nodes)`, level 1
    /// first.
    pub(crate) fn of_level(level: Level, table: &[(u8, bool, i32, u64); 5]) -> SearchStrength {
        let (depth, quiescence, noise, nodes) = table[(level.get() as usize).clamp(1, 5) - 1];
        SearchStrength {
            depth,
            quiescence,
            noise,
            nodes,
        }
    }
}

/// A mate found is worth this, less the plies to it (chess, shogi and xiangqi searches).
pub(crate) const MATE: i32 = 100_000;
/// Above every score of the chess, shogi and xiangqi searches.
pub(crate) const INFINITY: i32 = 1_000_000;

/// What an alpha-beta search may spend: a count of positions and a deadline.
pub(crate) struct Limits {
    nodes: u64,
    most: u64,
    until: Instant,
    stopped: bool,
}

impl Limits {
    /// At most `most` positions, and nothing after `until`.
    pub(crate) fn new(most: u64, until: Instant) -> Limits {
        Limits {
            nodes: 0,
            most,
            until,
            stopped: false,
        }
    }

    /// Counts one more position; whether the search must stop (the clock is read every
    /// 1,024 positions).
    pub(crate) fn spend(&mut self) -> bool {
        self.nodes += 1;
        if !self.stopped
            && (self.nodes >= self.most || (self.nodes % 1024 == 0 && Instant::now() >= self.until))
        {
            self.stopped = true;
        }
        self.stopped
    }

    /// Whether the search has had to stop.
    pub(crate) fn stopped(&self) -> bool {
        self.stopped
    }
}

/// The lower bound a root move is searched with when scores get up to `amplitude` of noise:
/// a move can only be chosen if its score reaches the best so far less twice the noise.
pub(crate) fn root_bound(best_so_far: i32, amplitude: i32) -> i32 {
    if best_so_far == -INFINITY {
        -INFINITY
    } else {
        best_so_far - 2 * amplitude - 1
    }
}

/// The move whose score plus its seeded noise (none for a mate score) is highest; on a tie
/// the smaller `salt`. `salt` names a move the same whatever order the moves come in.
pub(crate) fn noisy_best<M: Copy>(
    scored: &[(i32, M)],
    amplitude: i32,
    seed: u64,
    salt: impl Fn(M) -> u64,
) -> Option<M> {
    scored
        .iter()
        .max_by_key(|&&(raw, m)| {
            let n = if raw.abs() > MATE / 2 {
                0
            } else {
                noise(seed, salt(m), amplitude)
            };
            (raw + n, std::cmp::Reverse(salt(m)))
        })
        .map(|&(_, m)| m)
}

/// A seeded 64-bit mix of `seed` and `salt` (splitmix64's finaliser), for noise that does
/// not depend on the order moves are looked at.
fn mix(seed: u64, salt: u64) -> u64 {
    let mut z = seed ^ salt.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// A seeded noise in `-amplitude..=amplitude` for the move `salt`.
fn noise(seed: u64, salt: u64, amplitude: i32) -> i32 {
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

    #[test]
    fn a_mate_is_never_traded_for_noise() {
        let scored = [(MATE - 3, 'm'), (MATE / 4, 'a'), (MATE / 4 - 1, 'b')];
        for seed in 0..50 {
            assert_eq!(noisy_best(&scored, 10_000, seed, |m| m as u64), Some('m'));
        }
        assert_eq!(noisy_best(&scored[1..], 0, 3, |m| m as u64), Some('a'));
        assert_eq!(noisy_best::<char>(&[], 5, 3, |m| m as u64), None);
    }

    #[test]
    fn limits_stop_at_the_count() {
        let mut limits = Limits::new(3, deadline(Duration::from_secs(60)));
        assert!(!limits.spend() && !limits.spend());
        assert!(limits.spend() && limits.stopped());
    }
}
