//! Positions the search decides without searching below them: a target captured or as good
//! as captured, a target Benson-alive, a static kill (`eyes`), and life in one move.

use super::super::board::Color;
use super::eyes;
use super::search::{Candidate, Search, PASS};

impl<'a> Search<'a> {
    /// The winner if the game is decided on the board now.
    #[inline]
    pub(super) fn decided(&self) -> Option<Color> {
        self.decided_unless(false)
    }

    /// [`Search::decided`], with Benson's test left out when `not_alive`: the caller
    /// knows that no target stone is unconditionally alive.
    fn decided_unless(&self, not_alive: bool) -> Option<Color> {
        let defender = self.defender;
        if self.target_stones().next().is_none() {
            return Some(self.problem.attacker);
        }
        let hopeful = self
            .target_stones()
            .any(|v| self.board.chain_lib_count(v) >= 2);
        if hopeful {
            if !not_alive && self.target_alive() {
                return Some(defender);
            }
        } else if self.capture_all_at().is_some() {
            return Some(self.problem.attacker);
        }
        if self.options.static_kills
            && eyes::dead_pocket(
                &self.board,
                &self.region_set,
                &self.reach,
                &self.target,
                defender,
            )
            .is_some()
        {
            return Some(self.problem.attacker);
        }
        None
    }

    /// The winner of a position the search meets for the first time: [`Search::decided`],
    /// or the defender if it makes life in one move ([`Search::living_move`]); Benson's
    /// test is left out when `not_alive` (see [`Search::alive_ruled_out`]).
    #[inline]
    pub(super) fn winner_on_arrival(&mut self, not_alive: bool) -> Option<Color> {
        self.decided_unless(not_alive)
            .or_else(|| self.living_move().map(|_| self.defender))
    }

    /// Whether the position after `c` (at `depth`, one below this one) is known to leave
    /// no target stone unconditionally alive, so that Benson's test need not be asked
    /// there: after a pass (this position was not alive); below the root's children,
    /// after a defender stone that [`Search::living_move`] tried here on arrival (it found
    /// no life), and after an attacker stone, which hardly ever gives the defender life
    /// (where it does, the defender's next position finds it: leaving the test out never
    /// changes what is proven, only, there, the search's order).
    #[inline]
    pub(super) fn alive_ruled_out(&self, c: Candidate, depth: usize) -> bool {
        if c == PASS {
            return true;
        }
        if depth < 2 {
            return false;
        }
        self.board.turn() != self.defender || self.may_make_life(c)
    }

    /// Whether the defender's stone on `v` is one [`Search::living_move`] tries: next to
    /// a defender stone or to a chain in atari.
    fn may_make_life(&self, v: usize) -> bool {
        let defender = self.defender;
        self.board.neighbours(v).iter().any(|&n| {
            self.board.cell(n) == Some(defender)
                || (self.board.cell(n).is_some() && self.board.chain_lib_count(n) == 1)
        })
    }

    /// Whether a target stone is unconditionally alive (Benson's test over the target's
    /// chains and those their life depends on).
    pub(super) fn target_alive(&self) -> bool {
        let alive = self
            .board
            .benson_of(self.defender, Some(&self.area), self.target_stones());
        self.target_stones().any(|v| alive.contains(v))
    }

    /// With the defender to play, a move that leaves a target stone unconditionally alive
    /// (Benson) at once, if there is one: the defender has won, whatever follows. Only
    /// moves next to a defender stone or to a chain in atari are tried (a move that makes
    /// life mostly does; the search finds the others), the last one found first; each
    /// counts as a position searched.
    ///
    /// ```text
    ///   . . . . X .    White to play: B1 splits the straight three A1-C1 into two
    ///   O O O O X .    eyes, A1 and C1, each enclosed by White's one chain; Benson's
    ///   . . . O X .    test proves White alive, and the position counts as won for
    ///                  White without its moves being searched.
    /// ```
    pub(super) fn living_move(&mut self) -> Option<usize> {
        if self.board.turn() != self.defender {
            return None;
        }
        self.eye_space
            .rebuild(&self.board, &self.area, self.defender);
        let first = self.last_living;
        if first != PASS && self.lives_after(first) {
            return Some(first);
        }
        for i in 0..self.region.len() {
            let v = self.region[i];
            if v != first && self.lives_after(v) {
                self.last_living = v;
                return Some(v);
            }
        }
        None
    }

    /// Whether the defender's stone on `v` (tried only next to a defender stone or to a
    /// chain in atari, where it is allowed, and where [`eyes::EyeSpace`] does not rule
    /// life out) leaves a target stone Benson-alive; a move tried counts as a position.
    fn lives_after(&mut self, v: usize) -> bool {
        let defender = self.defender;
        let touches = self.board.is_empty_vertex(v) && self.may_make_life(v);
        if !touches
            || !self.allowed(v, defender)
            || !self
                .eye_space
                .may_live_after(&self.board, &self.area, defender, v)
        {
            return false;
        }
        self.board.play_legal(v);
        self.nodes += 1;
        let alive = self.target_alive();
        self.board.undo();
        alive
    }

    /// With the attacker to play and every target chain left in atari on one and the same
    /// liberty, that liberty if the attacker may play there: the move captures the whole
    /// target at once.
    ///
    /// ```text
    ///   X X . .      White's target A2-B2 has one liberty, A1: with Black to play it is
    ///   O O X .      as good as captured (Black A1 takes both stones).
    ///   . X . .
    /// ```
    pub(super) fn capture_all_at(&self) -> Option<usize> {
        let attacker = self.problem.attacker;
        if self.board.turn() != attacker {
            return None;
        }
        let mut shared = None;
        for v in self.target_stones() {
            if self.board.chain_lib_count(v) != 1 {
                return None;
            }
            let liberty = self.board.chain_libs(v).iter().next()?;
            if shared.is_some_and(|s| s != liberty) {
                return None;
            }
            shared = Some(liberty);
        }
        shared.filter(|&l| {
            (self.region_set.contains(l) || self.fence.contains(&l)) && self.allowed(l, attacker)
        })
    }

    /// The target's points that still hold a defender's stone.
    #[inline]
    pub(super) fn target_stones(&self) -> impl Iterator<Item = usize> + '_ {
        self.target
            .iter()
            .copied()
            .filter(|&t| self.board.cell(t) == Some(self.defender))
    }
}
