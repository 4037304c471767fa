//! Kawano's simulation: a position settled by following the proof of a sibling's tree.

use super::super::search_board::SearchBoard;
use super::search::{Candidate, Search, INF, MAX_DEPTH, PASS};
use super::table::Entry;

impl<'a> Search<'a> {
    /// Plays `m` on `reference`, a board in step with the search's, if it may be played
    /// there.
    fn play_on(&self, reference: &mut SearchBoard, m: Candidate) -> bool {
        if m == PASS {
            reference.pass();
            return true;
        }
        let color = reference.turn();
        if !reference.is_empty_vertex(m) || !self.permits(reference.check_vertex(m, color), color) {
            return false;
        }
        reference.play_legal(m);
        true
    }

    /// Kawano's simulation: tries to settle the position after `m` for the side that
    /// settled its sibling after `settled` (`for_prover`: the prover), by following the
    /// sibling's proof: that side plays the move that won in the same place of the
    /// sibling's tree, the other side every move it has. At most `budget` positions;
    /// `false` when the sibling's tree does not carry over (the search then goes on as
    /// before). Every position it settles is settled on its own board.
    pub(super) fn try_simulation(
        &mut self,
        settled: Candidate,
        m: Candidate,
        depth: usize,
        for_prover: bool,
    ) -> bool {
        // Once from a position, and never into a cycle: asked before the sibling's board
        // is copied, as the search comes back here often.
        self.play(m);
        self.nodes += 1;
        let key = self.key();
        let fresh = self.simulated.insert(key);
        let cycle = self.board.repeated() && self.line.iter().any(|&(k, _)| k == key);
        self.board.undo();
        if !fresh || cycle {
            return false;
        }
        let mut reference = match self.reference.take() {
            Some(mut reference) => {
                reference.follow(&self.board);
                reference
            }
            None => Box::new(self.board.clone()),
        };
        let ok = self.play_on(&mut reference, settled) && {
            let budget_of = |e: Option<Entry>| e.map_or(0, |e| e.work as u64);
            let mut budget = 2 * budget_of(self.tt.get(self.key_of(&reference))).clamp(16, 20_000);
            self.play(m);
            self.swap = (settled, m);
            let ok = self.simulate(Some(&mut reference), depth, for_prover, &mut budget);
            self.board.undo();
            ok
        };
        self.reference = Some(reference);
        ok
    }

    /// The walk of [`Search::try_simulation`] at the position on the board, `reference`
    /// at the same place of the sibling's tree (`None` where the sibling has no such
    /// position).
    fn simulate(
        &mut self,
        mut reference: Option<&mut SearchBoard>,
        depth: usize,
        for_prover: bool,
        budget: &mut u64,
    ) -> bool {
        let done = |e: &Entry| if for_prover { e.pn == 0 } else { e.dn == 0 };
        let lost = |e: &Entry| if for_prover { e.dn == 0 } else { e.pn == 0 };
        let winner = if for_prover {
            self.prover
        } else {
            self.prover.opponent()
        };
        let key = self.key();
        match self.tt.get(key) {
            Some(e) if done(&e) => return true,
            Some(e) if lost(&e) => return false,
            Some(_) => {}
            None => {
                if let Some(w) = self.winner_on_arrival(false) {
                    let (pn, dn) = self.value_of(w);
                    self.tt.insert(key, Entry { pn, dn, work: 1 });
                    return w == winner;
                }
            }
        }
        let Some(reference) = reference.as_deref_mut() else {
            return false;
        };
        if depth >= MAX_DEPTH || *budget == 0 || self.out_of_budget() {
            return false;
        }
        *budget -= 1;
        match self.tt.get(self.key_of(reference)) {
            Some(e) if done(&e) => {}
            _ => return false,
        }
        let start = self.nodes;
        let outer = self.refused_above.replace(usize::MAX);
        self.line.push((key, self.board.hash()));
        if let Some(shared) = self.tt.shared() {
            shared.mark(key, true);
        }
        let moves = self.candidates();
        let ok = if moves.is_empty() {
            self.defender == winner
        } else if self.board.turn() == winner {
            // The move that won in the sibling's tree, the least work first.
            let mut choice: Option<(u32, Candidate)> = None;
            for &m in &moves {
                if !self.play_on(reference, self.in_reference(m)) {
                    continue;
                }
                let e = self.tt.get(self.key_of(reference));
                reference.undo();
                if let Some(e) = e.filter(|e| done(e)) {
                    if choice.map_or(true, |(w, _)| e.work < w) {
                        choice = Some((e.work, m));
                    }
                }
            }
            match choice {
                Some((_, m)) => self.simulate_child(reference, m, depth, for_prover, budget),
                None => false,
            }
        } else {
            moves
                .iter()
                .all(|&m| self.simulate_child(reference, m, depth, for_prover, budget))
        };
        if ok {
            let work = (self.nodes - start).min(u32::MAX as u64) as u32;
            let value = if for_prover { (0, INF) } else { (INF, 0) };
            self.store(key, value, work.max(1), depth);
        }
        self.leave(outer);
        ok
    }

    /// The move on the sibling's board that stands for `m` on the board: the sibling's
    /// point stands for the point simulated.
    fn in_reference(&self, m: Candidate) -> Candidate {
        let (settled, simulated) = self.swap;
        if m == settled && m != PASS {
            simulated
        } else {
            m
        }
    }

    /// [`Search::simulate`] after `m`, played on the board and, where it may be, on
    /// `reference`.
    fn simulate_child(
        &mut self,
        reference: &mut SearchBoard,
        m: Candidate,
        depth: usize,
        for_prover: bool,
        budget: &mut u64,
    ) -> bool {
        self.play(m);
        self.nodes += 1;
        let key = self.key();
        if self.board.repeated() && self.line.iter().any(|&(k, _)| k == key) {
            self.board.undo();
            return false;
        }
        let stepped = self.play_on(reference, self.in_reference(m));
        let ok = self.simulate(
            stepped.then_some(&mut *reference),
            depth + 1,
            for_prover,
            budget,
        );
        if stepped {
            reference.undo();
        }
        self.board.undo();
        ok
    }
}
