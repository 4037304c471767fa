//! Game clocks: main time, then byo-yomi (秒読み, Go and shogi: every move within the period)
//! or an increment per move (chess, Fischer).

use super::Side;
use serde::Serialize;
use std::time::{Duration, Instant};

/// How much time each side has.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeControl {
    /// Main time for the whole game.
    pub main: Duration,
    /// After main time, each move must be made within this (0: none).
    pub byoyomi: Duration,
    /// Added to a side's main time after each of its moves (chess).
    pub increment: Duration,
}

/// The two clocks of a game.
///
/// ```
/// use qiyuan::play::clock::{Clock, TimeControl};
/// use qiyuan::play::Side;
/// use std::time::{Duration, Instant};
/// let s = Duration::from_secs;
/// let t0 = Instant::now();
/// let mut clock = Clock::new(TimeControl { main: s(60), byoyomi: s(10), increment: s(0) });
/// clock.start(Side::First, t0);
/// assert_eq!(clock.charge(t0 + s(65)), Ok(()));   // 60 s of main time, 5 s of byo-yomi
/// assert_eq!(clock.left(t0 + s(65))[0], s(0));
/// clock.start(Side::First, t0 + s(65));
/// assert_eq!(clock.flagged(t0 + s(76)), Some(Side::First)); // over the 10 s period
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Clock {
    /// The time control.
    pub control: TimeControl,
    left: [Duration; 2],
    running: Option<(Side, Instant)>,
}

/// A clock as the state shows it, in milliseconds.
#[derive(Clone, Debug, Serialize)]
pub struct ClockState {
    /// Main time left, first and second.
    pub left: [u64; 2],
    /// The byo-yomi period.
    pub byoyomi: u64,
    /// The increment per move.
    pub increment: u64,
    /// Whose clock runs.
    pub running: Option<Side>,
}

impl Clock {
    /// Both sides with the full main time; no clock running.
    pub fn new(control: TimeControl) -> Clock {
        Clock {
            control,
            left: [control.main; 2],
            running: None,
        }
    }

    /// Starts `side`'s clock at `now` (stopping the other).
    pub fn start(&mut self, side: Side, now: Instant) {
        self.running = Some((side, now));
    }

    /// Stops the clocks without charging anyone (counting, the end).
    pub fn stop(&mut self) {
        self.running = None;
    }

    /// Charges the running side for its move made at `now` and stops its clock; `Err` with
    /// the side when its time was already over.
    pub fn charge(&mut self, now: Instant) -> Result<(), Side> {
        let Some((side, since)) = self.running.take() else {
            return Ok(());
        };
        let spent = now.saturating_duration_since(since);
        let left = &mut self.left[side.index()];
        if *left >= spent {
            *left -= spent;
        } else {
            let over = spent - *left;
            *left = Duration::ZERO;
            if over > self.control.byoyomi {
                return Err(side);
            }
        }
        *left += self.control.increment;
        Ok(())
    }

    /// The side whose time is over at `now`, if any.
    pub fn flagged(&self, now: Instant) -> Option<Side> {
        let (side, since) = self.running?;
        let spent = now.saturating_duration_since(since);
        (spent > self.left[side.index()] + self.control.byoyomi).then_some(side)
    }

    /// When the running side's time is over, if a clock runs.
    pub fn flag_at(&self) -> Option<Instant> {
        let (side, since) = self.running?;
        Some(since + self.left[side.index()] + self.control.byoyomi)
    }

    /// Main time left of each side at `now`.
    pub fn left(&self, now: Instant) -> [Duration; 2] {
        let mut left = self.left;
        if let Some((side, since)) = self.running {
            let l = &mut left[side.index()];
            *l = l.saturating_sub(now.saturating_duration_since(since));
        }
        left
    }

    /// The clock for the state, at `now`.
    pub fn state(&self, now: Instant) -> ClockState {
        let left = self.left(now);
        ClockState {
            left: left.map(|d| d.as_millis() as u64),
            byoyomi: self.control.byoyomi.as_millis() as u64,
            increment: self.control.increment.as_millis() as u64,
            running: self.running.map(|(s, _)| s),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(n: u64) -> Duration {
        Duration::from_secs(n)
    }

    #[test]
    fn increment_is_added_after_each_move() {
        let t0 = Instant::now();
        let mut c = Clock::new(TimeControl {
            main: s(180),
            byoyomi: s(0),
            increment: s(2),
        });
        c.start(Side::Second, t0);
        c.charge(t0 + s(10)).unwrap();
        assert_eq!(c.left(t0 + s(10)), [s(180), s(172)]);
    }

    #[test]
    fn a_move_after_the_flag_loses() {
        let t0 = Instant::now();
        let mut c = Clock::new(TimeControl {
            main: s(5),
            byoyomi: s(0),
            increment: s(0),
        });
        c.start(Side::First, t0);
        assert_eq!(c.flagged(t0 + s(5)), None);
        assert_eq!(c.flag_at(), Some(t0 + s(5)));
        assert_eq!(c.charge(t0 + s(6)), Err(Side::First));
    }

    #[test]
    fn byoyomi_resets_every_move() {
        let t0 = Instant::now();
        let mut c = Clock::new(TimeControl {
            main: s(0),
            byoyomi: s(30),
            increment: s(0),
        });
        for i in 0..5 {
            let t = t0 + s(29 * i);
            c.start(Side::First, t);
            c.charge(t + s(29)).unwrap();
        }
    }
}
