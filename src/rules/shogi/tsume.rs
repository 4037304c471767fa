//! Tsume (詰将棋) search: does the side to move mate within n plies if every one of its
//! moves gives check and the defender may answer with any legal move, drops from its hand
//! included?
//!
//! The search is depth-first proof-number search (df-pn, Nagai 2002) over AND/OR nodes:
//! the attacker's nodes are OR nodes (one checking move that mates suffices), the
//! defender's AND nodes (every reply must be mated). Each node carries the number of plies
//! left, and the transposition table is keyed by position *and* plies left, so the graph
//! searched has no cycles (plies left falls by one on every edge) and the bound "within n
//! plies" is exact. The 千日手 rule is not applied inside the search: within the bound a
//! shortest mate never repeats a position, and repetitions the defender might seek only
//! lengthen lines that must end in mate within the bound anyway.

use super::position::legal_rs;
use rsshogi::board as rb;
use rsshogi::mate::solve_mate_in_one_in_place;
use rsshogi::types::{self as rs, Move32};
use std::collections::HashMap;

/// Proof and disproof numbers saturate here.
const INF: u32 = u32::MAX / 4;

/// How many nodes one search may visit before giving up (and answering "not proven").
const NODE_LIMIT: u64 = 30_000_000;

/// (φ, δ) of a node from the side to move's view: φ = 0 means the side to move wins,
/// δ = 0 that it loses. For the attacker φ is the proof number, for the defender the
/// disproof number.
type Numbers = (u32, u32);

/// One search context; its table is shared by every question asked through it.
pub(crate) struct Solver {
    attacker: rs::Color,
    table: HashMap<(u64, u8), Numbers>,
    nodes: u64,
    aborted: bool,
}

impl Solver {
    pub(crate) fn new(attacker: rs::Color) -> Solver {
        Solver {
            attacker,
            table: HashMap::new(),
            nodes: 0,
            aborted: false,
        }
    }

    /// Whether the attacker mates within `plies` plies from `pos` (either side to move);
    /// `None` when the search gave up.
    pub(crate) fn proves(&mut self, pos: &mut rb::Position, plies: u32) -> Option<bool> {
        let d = plies.min(u8::MAX as u32) as u8;
        let (phi, delta) = self.mid(pos, d, INF, INF);
        let or = pos.turn() == self.attacker;
        // From the side to move's view: φ = 0 wins, δ = 0 loses.
        match (phi, delta) {
            (0, _) => Some(or),
            (_, 0) => Some(!or),
            _ => None,
        }
    }

    /// The node visits so far.
    pub(crate) fn nodes(&self) -> u64 {
        self.nodes
    }

    fn moves(&self, pos: &rb::Position, or: bool) -> Vec<Move32> {
        let list = legal_rs(pos);
        if or {
            list.iter()
                .copied()
                .filter(|&m| pos.gives_check_move32(m))
                .collect()
        } else {
            list.iter().copied().collect()
        }
    }

    fn store(&mut self, key: u64, d: u8, n: Numbers) -> Numbers {
        self.table.insert((key, d), n);
        n
    }

    /// Multiple iterative deepening: searches the node `pos` with `d` plies left until its
    /// φ reaches `th_phi` or its δ reaches `th_delta`.
    fn mid(&mut self, pos: &mut rb::Position, d: u8, th_phi: u32, th_delta: u32) -> Numbers {
        let key = pos.key().low_u64();
        self.nodes += 1;
        if self.nodes > NODE_LIMIT {
            self.aborted = true;
        }
        if let Some(&n) = self.table.get(&(key, d)) {
            if n.0 == 0 || n.1 == 0 || n.0 >= th_phi || n.1 >= th_delta || self.aborted {
                return n;
            }
        } else if self.aborted {
            return (1, 1);
        }
        let or = pos.turn() == self.attacker;
        // Leaves: whoever is to move and cannot go on loses (φ = ∞, δ = 0).
        if or && d == 0 {
            return self.store(key, d, (INF, 0));
        }
        if or && d == 1 {
            let n = if solve_mate_in_one_in_place(pos).is_some() {
                (0, INF)
            } else {
                (INF, 0)
            };
            return self.store(key, d, n);
        }
        if !or && d == 0 {
            let n = if pos.is_mated() { (INF, 0) } else { (0, INF) };
            return self.store(key, d, n);
        }
        let moves = self.moves(pos, or);
        if moves.is_empty() {
            return self.store(key, d, (INF, 0));
        }
        let keys: Vec<u64> = moves.iter().map(|&m| pos.key_after(m).low_u64()).collect();
        let child_d = d - 1;
        loop {
            let mut phi = INF;
            let mut delta: u32 = 0;
            let mut best = 0;
            let mut best_delta = INF;
            let mut second_delta = INF;
            let mut best_phi = 0;
            for (i, &k) in keys.iter().enumerate() {
                let (cphi, cdelta) = self.table.get(&(k, child_d)).copied().unwrap_or((1, 1));
                phi = phi.min(cdelta);
                delta = delta.saturating_add(cphi).min(INF);
                if cdelta < best_delta {
                    second_delta = best_delta;
                    best_delta = cdelta;
                    best = i;
                    best_phi = cphi;
                } else if cdelta < second_delta {
                    second_delta = cdelta;
                }
            }
            if phi >= th_phi || delta >= th_delta || self.aborted {
                return self.store(key, d, (phi, delta));
            }
            let child_th_phi = if th_delta >= INF {
                INF
            } else {
                (th_delta - delta).saturating_add(best_phi).min(INF)
            };
            let child_th_delta = th_phi.min(second_delta.saturating_add(1)).min(INF);
            let m = moves[best];
            let gives_check = or || pos.gives_check_move32(m);
            pos.apply_move32_with_gives_check(m, gives_check);
            self.mid(pos, child_d, child_th_phi, child_th_delta);
            pos.undo_move32(m).expect("undo the move just applied");
        }
    }
}
