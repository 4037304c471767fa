//! The moves the search tries at a position, most promising first: the region and the
//! fence, kept to the fight, with the ko and superko rules of the ko master.

use super::super::board::Color;
use super::super::search_board::{PointSet, Refusal};
use super::eyes;
use super::search::{Candidate, Search, PASS};

impl<'a> Search<'a> {
    /// Notes the depth of the position of the line that the superko rule keeps `color`
    /// from bringing back with a stone on `v` (none for a position from before the
    /// search: the same on every line).
    fn note_superko(&self, v: usize, color: Color) {
        let Some(hash) = self.board.hash_after(v, color) else {
            return;
        };
        if let Some(depth) = self.line.iter().rposition(|&(_, b)| b == hash) {
            self.refused_above.set(self.refused_above.get().min(depth));
        }
    }

    /// Whether `color` may put a stone on the empty `v`, by the board's answer `check`:
    /// a ko or superko refusal binds all but the ko master.
    #[inline]
    pub(super) fn permits(&self, check: Result<(), Refusal>, color: Color) -> bool {
        match check {
            Ok(()) => true,
            Err(Refusal::Suicide) => false,
            Err(Refusal::Ko | Refusal::Superko) => self.ko_master == Some(color),
        }
    }

    /// Whether `color` may put a stone on the empty `v`.
    #[inline]
    pub(super) fn allowed(&self, v: usize, color: Color) -> bool {
        self.permits(self.board.check_vertex(v, color), color)
    }

    /// [`Search::allowed`] for a move the search would play here: a superko refusal is
    /// noted (see [`Search::note_superko`]), as the values below rest on it.
    /// `check` is the board's answer for the move.
    fn may_play(&self, check: Result<(), Refusal>, v: usize, color: Color) -> bool {
        if matches!(check, Err(Refusal::Superko)) && self.ko_master != Some(color) {
            self.note_superko(v, color);
        }
        self.permits(check, color)
    }

    /// The moves of the side to play, most promising first.
    pub(super) fn candidates(&self) -> Vec<Candidate> {
        let color = self.board.turn();
        // The chains of the target still on the board, by representative.
        let mut target_chains = PointSet::EMPTY;
        for t in self.target_stones() {
            target_chains.insert(self.board.chain_id(t));
        }
        let mut scored: Vec<(i32, Candidate)> = Vec::with_capacity(self.region.len() + 1);
        // The vital point of a killing shape is both sides' first move.
        let vital = eyes::vital_point(
            &self.board,
            &self.region_set,
            &self.reach,
            &self.target,
            self.defender,
        );
        // The attacker may also take the liberties just off the region of the defender's
        // stones on the fence (see [`Search::takes_on_fence`]).
        let mut beyond = PointSet::EMPTY;
        if color == self.problem.attacker {
            for &v in &self.fence {
                if self.board.cell(v) == Some(self.defender) && self.reach.contains(v) {
                    for n in self.board.neighbours(v) {
                        if self.area.contains(n) && !self.playable.contains(n) {
                            beyond.insert(n);
                        }
                    }
                }
            }
        }
        // A move away from the fight is a pass in all but name: the defender has its pass,
        // the attacker keeps its best such move, to wait, only if the fight refuses it a
        // point by ko or superko (waiting can lift that).
        let fight = self.options.fight_only.then(|| self.fight());
        let mut away: Option<(i32, Candidate)> = None;
        let mut refused = false;
        let fence = self.fence.iter().copied().chain(beyond.iter());
        for v in self.region.iter().copied().chain(fence) {
            if !self.board.is_empty_vertex(v) || self.fills_own_eye(v, color) {
                continue;
            }
            if color == self.defender && !self.region_set.contains(v) && !self.takes_on_fence(v) {
                continue;
            }
            let in_fight = fight.is_none_or(|f| f.contains(v));
            if !in_fight && color == self.defender {
                continue;
            }
            let check = self.board.check_vertex(v, color);
            if !self.may_play(check, v, color) {
                refused |= in_fight && matches!(check, Err(Refusal::Ko | Refusal::Superko));
                continue;
            }
            if self.options.kos_left_to_master && self.retaken_at_once(v, color) {
                continue;
            }
            let bonus = if vital == Some(v) { 100 } else { 0 };
            let score = self.score(v, color, &target_chains) + bonus;
            if in_fight {
                scored.push((score, v));
            } else if away.is_none_or(|(best, _)| best < score) {
                away = Some((score, v));
            }
        }
        if refused {
            scored.extend(away);
        }
        scored.sort_by(|a, b| b.0.cmp(&a.0));
        let mut out: Vec<Candidate> = scored.into_iter().map(|(_, v)| v).collect();
        if color == self.defender {
            out.push(PASS);
        }
        out
    }

    /// Whether the defender's stone on the fence point `v` captures: a neighbouring chain
    /// of the attacker has `v` as its last liberty, and every neighbour of `v` is in the
    /// area (next to the wall outside it, the stone would stand in a shape the real board
    /// does not have). The fence is the attacker's, but not against a capture: a stone the
    /// attacker plays in the region may be taken from outside it. The stone that takes it
    /// may in turn be attacked from its liberties just off the region.
    ///
    /// ```text
    ///   . . . . . X O    Black lives with C18 (Cho 881): after White C17, Black D19 and
    ///   . O . . O X O    White C19, White's C19 has one liberty, B19, on the fence:
    ///   . O . X O X O    Black takes there, and lives.
    /// ```
    fn takes_on_fence(&self, v: usize) -> bool {
        self.reach.contains(v)
            && self.board.neighbours(v).into_iter().any(|n| {
                self.board.cell(n) == Some(self.problem.attacker)
                    && self.board.chain_lib_count(n) == 1
            })
    }

    /// Whether `color`'s stone on `v` takes a ko that the opponent, as ko master, may take
    /// straight back, without capturing the whole target. Such a move is never searched: the
    /// master's retake brings back the same board with the same side to play, which may
    /// no longer take the ko (the superko rule binds it), so the ko capture gives it
    /// nothing it has not already got by playing elsewhere, while the master keeps every
    /// move. (The capture that takes the target's last stone wins at once and is kept.)
    ///
    /// ```text
    ///   X X X X . .    White to play with Black as ko master: White D1 would take
    ///   . O O X . .    Black's C1, and Black takes back at C1 at once. Not searched;
    ///   . O X . X .    with White as ko master (or none), it is.
    /// ```
    fn retaken_at_once(&self, v: usize, color: Color) -> bool {
        if self.ko_master != Some(color.opponent()) {
            return false;
        }
        // A ko capture (of one stone), not of the target's last stone.
        let Some(stone) = self.board.ko_capture(v, color) else {
            return false;
        };
        !(self.target.contains(&stone) && self.target_stones().nth(1).is_none())
    }

    /// The points of the fight: those reached from the target's stones through every point
    /// but the stones of safe attacker chains, chains with a liberty off the region and
    /// the fence, where no move is ever played. A safe chain is never captured, so a move
    /// anywhere else can neither capture nor free anything in the fight: it changes the
    /// fight no more than a pass does.
    ///
    /// ```text
    ///   X X X X X . .    Black's wall A3-E1 is one chain with liberties off the region
    ///   O O O O X . .    (A4 to E4): it is safe. White's fight is its stones and A1-C1;
    ///   . . . O X . .    a stone on F1 or F2, by either side, changes nothing there.
    /// ```
    fn fight(&self) -> PointSet {
        let attacker = self.problem.attacker;
        let mut fight = PointSet::EMPTY;
        // Attacker chains met, by representative, and whether they are safe.
        let (mut safe, mut met) = (PointSet::EMPTY, PointSet::EMPTY);
        let mut stack: Vec<usize> = Vec::with_capacity(64);
        for t in self.target_stones() {
            if fight.insert(t) {
                stack.push(t);
            }
        }
        while let Some(q) = stack.pop() {
            for n in self.board.neighbours(q) {
                if !self.board.on_board(n) || fight.contains(n) {
                    continue;
                }
                if self.board.cell(n) == Some(attacker) {
                    let chain = self.board.chain_id(n);
                    if met.insert(chain) && !self.board.chain_libs(n).is_subset(&self.playable) {
                        safe.insert(chain);
                    }
                    if safe.contains(chain) {
                        continue;
                    }
                }
                fight.insert(n);
                stack.push(n);
            }
        }
        fight
    }

    /// Filling a single-point eye of one own chain that has other liberties: never better
    /// than passing.
    fn fills_own_eye(&self, v: usize, color: Color) -> bool {
        if !self.board.is_own_eye(v, color) {
            return false;
        }
        let mut chain = None;
        for n in self.board.neighbours(v) {
            if self.board.on_board(n) {
                let c = self.board.chain_id(n);
                if chain.is_some_and(|k| k != c) || self.board.chain_lib_count(n) < 2 {
                    return false;
                }
                chain = Some(c);
            }
        }
        true
    }

    /// A cheap guess of how good a move is: captures, ataris, liberties of the target.
    fn score(&self, v: usize, color: Color, target_chains: &PointSet) -> i32 {
        let mut s = 0;
        let mut own_libs = 0;
        for n in self.board.neighbours(v) {
            match self.board.cell(n) {
                None if self.board.is_empty_vertex(n) => own_libs += 1,
                None => {}
                Some(c) => {
                    let libs = self.board.chain_lib_count(n) as i32;
                    let is_target = target_chains.contains(self.board.chain_id(n));
                    if c != color {
                        if libs == 1 {
                            s += 20;
                        } else if libs == 2 {
                            s += 6;
                        }
                        if is_target {
                            s += 4;
                        }
                    } else {
                        own_libs += libs - 1;
                        if libs == 1 {
                            s += 10;
                        }
                        if is_target {
                            s += 2;
                        }
                    }
                }
            }
        }
        if own_libs <= 1 {
            s -= 8;
        }
        s
    }
}
