//! Tsume (詰将棋) search: does the side to move mate within n plies if every one of its
//! moves gives check and the defender may answer with any legal move, drops from its hand
//! included?
//!
//! The search is depth-first proof-number search (df-pn, Nagai 2002) over AND/OR nodes:
//! the attacker's nodes are OR nodes (one checking move that mates suffices), the
//! defender's AND nodes (every reply must be mated). Each node carries the number of plies
//! left, and the transposition table is keyed by position *and* plies left.
//!
//! Futile interpositions (無駄合) are not counted, as in every published tsume: when the
//! defender drops a piece between a ranging checker and its king on a square no defending
//! piece (king included) guards, the checker may take it "for free": the two plies do not
//! count, and the mate must go on within the plies that were left before the drop. An
//! interposition that does guard, or one made by moving a piece (移動合), counts as usual.
//! A position where every defence is such a futile drop is mate.
//!
//! Every edge either uses up a ply or (a free capture) adds a piece to the attacker's
//! hand, so no position repeats with the same plies left and the graph searched has no
//! cycles. The 千日手 rule is therefore not applied inside the search: within the bound a
//! shortest mate never needs a repetition.

use super::position::legal_rs;
use rsshogi::board as rb;
use rsshogi::mate::solve_mate_in_one_in_place;
use rsshogi::types::{self as rs, Move32};
use std::collections::HashMap;

/// Proof and disproof numbers saturate here.
const INF: u32 = u32::MAX / 4;

/// How many nodes one search may visit before giving up (and answering "not proven").
const NODE_LIMIT: u64 = 30_000_000;

/// Marks the key of an attacker's node that may take a futile interposition for free.
const FREE_CAPTURE: u64 = 0x9E37_79B9_7F4A_7C15;

/// (φ, δ) of a node from the side to move's view: φ = 0 means the side to move wins,
/// δ = 0 that it loses. For the attacker φ is the proof number, for the defender the
/// disproof number.
type Numbers = (u32, u32);

/// A move out of a node, with the child's table key and plies left.
struct Child {
    mv: Move32,
    key: u64,
    plies: i32,
    /// The child is an attacker's node that may take a futile interposition for free.
    free: bool,
}

/// One search context; its table is shared by every question asked through it.
pub(crate) struct Solver {
    attacker: rs::Color,
    table: HashMap<(u64, i8), Numbers>,
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
        let d = plies.min(100) as i32;
        let (phi, delta) = self.mid(pos, d, INF, INF);
        let or = pos.turn() == self.attacker;
        if std::env::var_os("QIYUAN_TSUME_TRACE").is_some() {
            eprintln!(
                "trace: {} plies {plies}: phi {phi} delta {delta} nodes {} aborted {} table {}",
                pos.to_sfen(None),
                self.nodes,
                self.aborted,
                self.table.len()
            );
        }
        // From the side to move's view: φ = 0 wins, δ = 0 loses.
        match (phi, delta) {
            (0, _) => Some(or),
            (_, 0) => Some(!or),
            _ => None,
        }
    }

    /// The attacker's free captures of a futile interposition just dropped (see the module
    /// documentation); empty unless the defender's last move was such a drop.
    fn free_captures(&self, pos: &rb::Position) -> Vec<Move32> {
        let last = pos.last_move();
        if pos.turn() != self.attacker || !last.is_normal() || !last.is_drop() {
            return Vec::new();
        }
        let defender = self.attacker.flip();
        let s = last.to_sq();
        let king = pos.king_square(defender);
        if !king.is_valid() || !pos.attackers_to_color_current(defender, s).is_empty() {
            return Vec::new();
        }
        let mut occupied = pos.bitboards().occupied();
        occupied.clear(s);
        let mut out = Vec::new();
        for checker in pos.attackers_to_color(self.attacker, king, occupied).iter() {
            for mv in [rs::Move::normal(checker, s), rs::Move::promotion(checker, s)] {
                if pos.is_legal_move(mv) {
                    out.push(pos.move32_from_move(mv));
                }
            }
        }
        out
    }

    /// The table key of the node `pos`, and whether the attacker may capture for free.
    fn key(&self, pos: &rb::Position) -> (u64, bool) {
        let k = pos.key().low_u64();
        if self.free_captures(pos).is_empty() {
            (k, false)
        } else {
            (k ^ FREE_CAPTURE, true)
        }
    }

    /// Whether a check just given leaves the defender a chance of facing only futile
    /// drops: a single ranging checker with a square between it and the king.
    fn distant_check(&self, pos: &rb::Position) -> bool {
        let checkers = pos.checkers();
        if checkers.count() != 1 {
            return false;
        }
        let Some(c) = checkers.lsb() else {
            return false;
        };
        let king = pos.king_square(self.attacker.flip());
        pos.piece_on(c).is_long_range() && c.distance(king) >= 2
    }

    fn store(&mut self, key: u64, d: i32, n: Numbers) -> Numbers {
        self.table.insert((key, d as i8), n);
        n
    }

    fn lookup(&self, key: u64, d: i32) -> Option<Numbers> {
        self.table.get(&(key, d as i8)).copied()
    }

    /// Plays `m`, notes the child's key, and takes it back.
    fn child(&self, pos: &mut rb::Position, m: Move32, plies: i32, check: bool) -> Child {
        pos.apply_move32_with_gives_check(m, check);
        let (key, free) = self.key(pos);
        pos.undo_move32(m).expect("undo the move just applied");
        Child {
            mv: m,
            key,
            plies,
            free,
        }
    }

    /// The attacker's moves: checks (each uses a ply) and free captures (none).
    fn or_children(&self, pos: &mut rb::Position, d: i32) -> Vec<Child> {
        let mut out = Vec::new();
        if d >= 1 {
            let checks: Vec<Move32> = legal_rs(pos)
                .iter()
                .copied()
                .filter(|&m| pos.gives_check_move32(m))
                .collect();
            for m in checks {
                if d == 1 {
                    // No mate in one (the caller tried): only a distant check can still
                    // leave nothing but futile drops.
                    pos.apply_move32_with_gives_check(m, true);
                    let keep = self.distant_check(pos);
                    pos.undo_move32(m).expect("undo the move just applied");
                    if !keep {
                        continue;
                    }
                }
                out.push(self.child(pos, m, d - 1, true));
            }
        }
        for m in self.free_captures(pos) {
            out.push(self.child(pos, m, d + 1, true));
        }
        out
    }

    /// Multiple iterative deepening: searches the node `pos` with `d` plies left until its
    /// φ reaches `th_phi` or its δ reaches `th_delta`.
    fn mid(&mut self, pos: &mut rb::Position, d: i32, th_phi: u32, th_delta: u32) -> Numbers {
        let (key, _) = self.key(pos);
        self.nodes += 1;
        if self.nodes > NODE_LIMIT {
            self.aborted = true;
        }
        if let Some(n) = self.lookup(key, d) {
            if n.0 == 0 || n.1 == 0 || n.0 >= th_phi || n.1 >= th_delta || self.aborted {
                return n;
            }
        } else if self.aborted {
            return (1, 1);
        }
        let or = pos.turn() == self.attacker;
        let children = if or {
            if d == 1 && solve_mate_in_one_in_place(pos).is_some() {
                return self.store(key, d, (0, INF));
            }
            self.or_children(pos, d)
        } else {
            let moves = legal_rs(pos);
            if moves.is_empty() {
                return self.store(key, d, (INF, 0));
            }
            // With no plies left only futile drops can be answered.
            if d <= 0 && moves.iter().any(|m| !m.is_drop()) {
                return self.store(key, d, (0, INF));
            }
            let mut out = Vec::with_capacity(moves.len());
            for &m in moves.iter() {
                let check = pos.gives_check_move32(m);
                let c = self.child(pos, m, d - 1, check);
                // An attacker's node with no plies and no free capture is lost for it.
                if c.plies <= 0 && !c.free {
                    return self.store(key, d, (0, INF));
                }
                out.push(c);
            }
            out
        };
        // Whoever is to move and has no move here loses (φ = ∞, δ = 0).
        if children.is_empty() {
            return self.store(key, d, (INF, 0));
        }
        loop {
            let mut phi = INF;
            let mut delta: u32 = 0;
            let mut best = 0;
            let mut best_delta = INF;
            let mut second_delta = INF;
            let mut best_phi = 0;
            for (i, c) in children.iter().enumerate() {
                let (cphi, cdelta) = self.lookup(c.key, c.plies).unwrap_or((1, 1));
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
            let c = &children[best];
            let (m, plies) = (c.mv, c.plies);
            let check = or || pos.gives_check_move32(m);
            pos.apply_move32_with_gives_check(m, check);
            self.mid(pos, plies, child_th_phi, child_th_delta);
            pos.undo_move32(m).expect("undo the move just applied");
        }
    }
}

impl super::Position {
    /// A working copy of rsshogi's position for a search, its history cut to this position.
    fn search_copy(&self) -> rb::Position {
        let mut pos = self.inner.clone();
        pos.init_stack();
        pos
    }

    /// Every first move that forces mate in at most `n` plies under tsume rules (every
    /// attacking move gives check; the defender may answer with any legal move, drops from
    /// its hand included), in the order of [`legal_moves`](Self::legal_moves).
    ///
    /// ```
    /// use qiyuan::rules::shogi::Position;
    /// //   9 8 7 6 5 4 3 2 1
    /// //   . . . . . . . . k  a     White's king on 1a; Black holds a gold
    /// //   . . . . . . . . .  b     and has a pawn on 1c (the gold's guard).
    /// //   . . . . . . . . P  c
    /// let pos = Position::from_sfen("8k/9/8P/9/9/9/9/9/9 b G 1").unwrap();
    /// let firsts: Vec<String> = pos.tsume_first_moves(1).into_iter().map(|p| p.usi).collect();
    /// assert_eq!(firsts, ["G*1b"]);
    /// ```
    pub fn tsume_first_moves(&self, n: u32) -> Vec<super::Played> {
        if n == 0 || self.outcome().is_some() {
            return Vec::new();
        }
        let mut pos = self.search_copy();
        let mut solver = Solver::new(pos.turn());
        let mut found = Vec::new();
        for played in self.legal_moves() {
            if !played.check {
                continue;
            }
            let Some(mv) = rsshogi::board::move_from_usi(&pos, &played.usi) else {
                continue;
            };
            pos.apply_move32_with_gives_check(mv, true);
            let proved = solver.proves(&mut pos, n - 1) == Some(true);
            pos.undo_move32(mv).expect("undo the move just applied");
            if proved {
                found.push(played);
            }
        }
        found
    }

    /// Whether the move `usi` forces mate in at most `n` plies (the move itself counted)
    /// under tsume rules. False when the move is illegal or gives no check.
    pub fn forces_tsume(&self, usi: &str, n: u32) -> bool {
        if n == 0 {
            return false;
        }
        let Ok((next, played)) = self.play(usi) else {
            return false;
        };
        if !played.check {
            return false;
        }
        let mut pos = next.search_copy();
        let mut solver = Solver::new(self.inner.turn());
        solver.proves(&mut pos, n - 1) == Some(true)
    }

    /// The reply of the side to move that puts off the opponent's tsume mate longest,
    /// looking `n` plies ahead counting this reply (a reply after which no mate within
    /// that horizon exists is best of all); ties go to the first in the order of
    /// [`legal_moves`](Self::legal_moves). `None` when there is no legal move.
    ///
    /// Because a mate always ends on the attacker's move, passing the plies left of a
    /// problem (`mate_in − 1` after the first move) or one more gives the same answer.
    pub fn best_defence(&self, n: u32) -> Option<super::Played> {
        let replies = self.legal_moves();
        let mut pos = self.search_copy();
        let mut solver = Solver::new(pos.turn().flip());
        let mut best: Option<(u32, super::Played)> = None;
        for played in replies {
            let Some(mv) = rsshogi::board::move_from_usi(&pos, &played.usi) else {
                continue;
            };
            let gives_check = pos.gives_check_move32(mv);
            pos.apply_move32_with_gives_check(mv, gives_check);
            let mut length = None;
            let mut m = 1;
            while m < n {
                if solver.proves(&mut pos, m) == Some(true) {
                    length = Some(m);
                    break;
                }
                m += 2;
            }
            pos.undo_move32(mv).expect("undo the move just applied");
            let Some(length) = length else {
                return Some(played);
            };
            if best.as_ref().is_none_or(|(l, _)| length > *l) {
                best = Some((length, played));
            }
        }
        best.map(|(_, p)| p)
    }

    /// The length in plies of the shortest tsume mate for the side to move, looking at
    /// most `n` plies ahead; `None` if there is none within `n`.
    pub fn tsume_length(&self, n: u32) -> Option<u32> {
        let mut pos = self.search_copy();
        let mut solver = Solver::new(pos.turn());
        (1..=n)
            .step_by(2)
            .find(|&m| solver.proves(&mut pos, m) == Some(true))
    }
}
