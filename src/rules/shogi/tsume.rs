//! Tsume (詰将棋) search: does the side to move mate within n plies if every one of its
//! moves gives check and the defender may answer with any legal move, drops from its hand
//! included?
//!
//! The search is depth-first proof-number search (df-pn, Nagai 2002) over AND/OR nodes:
//! the attacker's nodes are OR nodes (one checking move that mates suffices), the
//! defender's AND nodes (every reply must be mated). Each node carries the number of plies
//! left; the transposition table keeps, per position, the plies within which a mate is
//! known to exist or not, and the proof numbers of unsolved nodes by plies left. A check
//! with one ply left is found by rsshogi's mate-in-one solver.
//!
//! Futile interpositions (無駄合) are not counted, as in published tsume: when the
//! defender drops a piece between a ranging checker and its king, and after the checker
//! takes it nothing can take back (no defending piece guards the square, or only the king
//! while another attacking piece guards it too), the checker's capture is free: the two
//! plies do not count, and the mate must go on within the plies that were left before the
//! drop. An interposition that can be taken back, or one made by moving a piece (移動合),
//! counts as usual. A position where every defence is such a futile drop is mate.
//!
//! Every edge either uses up a ply or (a free capture) adds a piece to the attacker's
//! hand, so no position repeats with the same plies left and the graph searched has no
//! cycles. The 千日手 rule is therefore not applied inside the search: within the bound a
//! shortest mate never needs a repetition.

use super::position::legal_rs;
use rsshogi::board::zobrist::Zobrist;
use rsshogi::board::{self as rb, Move32List};
use rsshogi::mate::solve_mate_in_one_in_place;
use rsshogi::movegen::{generate_checks_all_move32, generate_legal_all_move32_into, Move32Sink};
use rsshogi::types::{self as rs, Bitboard, HandPiece, Move32, Piece, PieceType};
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// Proof and disproof numbers saturate here.
const INF: u32 = u32::MAX / 4;

/// How many nodes one search may visit before giving up (and answering "not proven"):
/// a few hundred megabytes of table at most. The hardest problem of the corpus needs
/// about 1.5 million.
const NODE_LIMIT: u64 = 5_000_000;

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
}

/// Table keys are Zobrist keys already: a cheap mix is hash enough.
#[derive(Default)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u8(b);
        }
    }

    fn write_u8(&mut self, n: u8) {
        self.0 = (self.0 ^ n as u64).wrapping_mul(0x100_0000_01B3);
    }

    fn write_i8(&mut self, n: i8) {
        self.0 = (self.0 ^ (n as u8 as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)).rotate_left(17);
    }

    fn write_u64(&mut self, n: u64) {
        self.0 ^= n;
    }
}

/// Stops move generation at the first move that is not a drop.
struct NonDrop {
    found: bool,
}

impl Move32Sink for NonDrop {
    fn push_move32(&mut self, mv: Move32) {
        if !mv.is_drop() {
            self.found = true;
        }
    }

    fn retain_unordered<F>(&mut self, _: F)
    where
        F: FnMut(Move32) -> bool,
    {
    }

    fn stop(&self) -> bool {
        self.found
    }

    fn push_drop_targets(&mut self, _: PieceType, _: Bitboard, _: rs::Color) {}
}

/// Whether the side to move has a legal move other than a drop.
fn has_non_drop(pos: &rb::Position) -> bool {
    let mut sink = NonDrop { found: false };
    generate_legal_all_move32_into(pos, &mut sink);
    sink.found
}

/// The key of the position after the legal move `mv`, without playing it (as rsshogi's
/// own `key_after`, which it asks its users to compute themselves).
pub(crate) fn key_after(pos: &rb::Position, mv: Move32) -> u64 {
    let us = pos.turn();
    let to = mv.to_sq();
    let mut key = pos.key() ^ Zobrist::side();
    if mv.is_drop() {
        let pt = mv.dropped_piece().unwrap_or(PieceType::PAWN);
        key ^= Zobrist::psq(to, Piece::from_parts(us, pt));
        if let Some(hp) = HandPiece::from_piece_type(pt) {
            let before = pos.hand(us).count(hp);
            key ^= Zobrist::hand_delta(us, pt, before, before.saturating_sub(1));
        }
    } else {
        let from = mv.from_sq();
        let moved = pos.piece_on(from);
        let after = if mv.is_promotion() {
            moved.promote()
        } else {
            moved
        };
        let captured = pos.piece_on(to);
        if captured != Piece::NONE {
            key ^= Zobrist::psq(to, captured);
            let pt = captured.piece_type().demote();
            if let Some(hp) = HandPiece::from_piece_type(pt) {
                let before = pos.hand(us).count(hp);
                key ^= Zobrist::hand_delta(us, pt, before, before + 1);
            }
        }
        key ^= Zobrist::psq(from, moved);
        key ^= Zobrist::psq(to, after);
    }
    key.low_u64()
}

/// What the table knows of one position (one side to move, one free-capture mark).
///
/// Mate within d plies implies mate within more, and no mate within d none within fewer,
/// so a solved result is kept as a bound over the plies left; unsolved numbers are kept
/// for a few depths.
#[derive(Clone, Copy)]
struct Slot {
    /// The attacker mates with this many plies left or more (`i8::MAX`: not known).
    win: i8,
    /// The attacker cannot mate with this many plies left or fewer (`i8::MIN`: not known).
    lose: i8,
    /// Unsolved numbers by plies left.
    open: [(i8, Numbers); 3],
    n_open: u8,
}

impl Slot {
    const EMPTY: Slot = Slot {
        win: i8::MAX,
        lose: i8::MIN,
        open: [(0, (0, 0)); 3],
        n_open: 0,
    };
}

/// One search context; its table is shared by every question asked through it.
pub(crate) struct Solver {
    attacker: rs::Color,
    table: HashMap<u64, Slot, BuildHasherDefault<KeyHasher>>,
    nodes: u64,
    aborted: bool,
}

impl Solver {
    pub(crate) fn new(attacker: rs::Color) -> Solver {
        Solver {
            attacker,
            table: HashMap::default(),
            nodes: 0,
            aborted: false,
        }
    }

    /// Whether the attacker mates within `plies` plies from `pos` (either side to move);
    /// `None` when the search gave up.
    pub(crate) fn proves(&mut self, pos: &mut rb::Position, plies: u32) -> Option<bool> {
        let d = plies.min(100) as i32;
        self.nodes = 0;
        self.aborted = false;
        let (phi, delta) = self.mid(pos, d, INF, INF);
        let or = pos.turn() == self.attacker;
        // From the side to move's view: φ = 0 wins, δ = 0 loses.
        match (phi, delta) {
            (0, _) => Some(or),
            (_, 0) => Some(!or),
            _ => None,
        }
    }

    /// The attacker's free captures of a futile interposition just dropped (see the module
    /// documentation); empty unless the defender's last move was such a drop.
    fn free_captures(&self, pos: &mut rb::Position) -> Vec<Move32> {
        let last = pos.last_move();
        if pos.turn() != self.attacker || !last.is_normal() || !last.is_drop() {
            return Vec::new();
        }
        let defender = self.attacker.flip();
        let s = last.to_sq();
        let king = pos.king_square(defender);
        if !king.is_valid() {
            return Vec::new();
        }
        let mut occupied = pos.bitboards().occupied();
        occupied.clear(s);
        let mut out = Vec::new();
        for checker in pos.attackers_to_color(self.attacker, king, occupied).iter() {
            for mv in [
                rs::Move::normal(checker, s),
                rs::Move::promotion(checker, s),
            ] {
                if !pos.is_legal_move(mv) {
                    continue;
                }
                let m = pos.move32_from_move(mv);
                pos.apply_move32_with_gives_check(m, true);
                // Futile when the defender cannot take back: nothing guards the square,
                // or only the king, and another attacking piece guards it too.
                let guards = pos.attackers_to_color_current(defender, s);
                let futile = guards.is_empty()
                    || (guards.count() == 1
                        && guards.test(king)
                        && !pos.attackers_to_color_current(self.attacker, s).is_empty());
                pos.undo_move32(m).expect("undo the move just applied");
                if futile {
                    out.push(m);
                }
            }
        }
        out
    }

    /// The table key of the node `pos`: its Zobrist key, marked when the attacker may
    /// capture for free.
    fn key(&self, pos: &mut rb::Position) -> u64 {
        let k = pos.key().low_u64();
        if self.free_captures(pos).is_empty() {
            k
        } else {
            k ^ FREE_CAPTURE
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

    /// Records the numbers `n` of the node `key` (attacker to move if `or`) with `d`
    /// plies left.
    fn store(&mut self, key: u64, or: bool, d: i32, n: Numbers) -> Numbers {
        let d = d as i8;
        let slot = self.table.entry(key).or_insert(Slot::EMPTY);
        // φ = 0: the side to move wins; δ = 0: it loses.
        let attacker_wins = if or { n.0 == 0 } else { n.1 == 0 };
        let attacker_loses = if or { n.1 == 0 } else { n.0 == 0 };
        if attacker_wins {
            slot.win = slot.win.min(d);
        } else if attacker_loses {
            slot.lose = slot.lose.max(d);
        } else {
            let len = slot.n_open as usize;
            if let Some(e) = slot.open[..len].iter_mut().find(|e| e.0 == d) {
                e.1 = n;
            } else if len < slot.open.len() {
                slot.open[len] = (d, n);
                slot.n_open += 1;
            } else {
                slot.open[(d as usize) % slot.open.len()] = (d, n);
            }
        }
        n
    }

    /// The numbers of the node `key` (attacker to move if `or`) with `d` plies left, if
    /// known.
    fn lookup(&self, key: u64, or: bool, d: i32) -> Option<Numbers> {
        let slot = self.table.get(&key)?;
        let d = d as i8;
        let (win, lose) = if or {
            ((0, INF), (INF, 0))
        } else {
            ((INF, 0), (0, INF))
        };
        if d >= slot.win {
            return Some(win);
        }
        if d <= slot.lose {
            return Some(lose);
        }
        slot.open[..slot.n_open as usize]
            .iter()
            .find(|e| e.0 == d)
            .map(|e| e.1)
    }

    /// The attacker's legal checks.
    fn checks(&self, pos: &rb::Position) -> Vec<Move32> {
        if pos.is_in_check() {
            return legal_rs(pos)
                .iter()
                .copied()
                .filter(|&m| pos.gives_check_move32(m))
                .collect();
        }
        let mut list = Move32List::new();
        generate_checks_all_move32(pos, &mut list);
        list.iter()
            .copied()
            .filter(|&m| pos.is_legal_move32(m))
            .collect()
    }

    /// The attacker's moves: checks (each uses a ply) and free captures (none). The first
    /// time a defender's node is met its numbers are estimated from its replies: none is
    /// mate, and fewer replies are easier to prove.
    fn or_children(&mut self, pos: &mut rb::Position, d: i32) -> Vec<Child> {
        let mut out = Vec::new();
        if d >= 1 {
            for m in self.checks(pos) {
                let key = key_after(pos, m);
                if d == 1 {
                    // No mate in one (the caller tried): only a distant check after which
                    // every reply is a drop may still leave nothing but futile drops.
                    if self.lookup(key, false, 0).is_none() {
                        pos.apply_move32_with_gives_check(m, true);
                        let hopeless = !self.distant_check(pos) || has_non_drop(pos);
                        pos.undo_move32(m).expect("undo the move just applied");
                        if hopeless {
                            self.store(key, false, 0, (0, INF));
                            continue;
                        }
                    }
                } else if self.lookup(key, false, d - 1).is_none() {
                    pos.apply_move32_with_gives_check(m, true);
                    let replies = legal_rs(pos).len() as u32;
                    pos.undo_move32(m).expect("undo the move just applied");
                    let estimate = if replies == 0 { (INF, 0) } else { (1, replies) };
                    self.store(key, false, d - 1, estimate);
                }
                out.push(Child {
                    mv: m,
                    key,
                    plies: d - 1,
                });
            }
        }
        for m in self.free_captures(pos) {
            out.push(Child {
                mv: m,
                key: key_after(pos, m),
                plies: d + 1,
            });
        }
        out
    }

    /// The defender's replies, or `Err` with the node's numbers when one reply escapes
    /// outright (no plies left and no futile drop).
    fn and_children(&mut self, pos: &mut rb::Position, d: i32) -> Result<Vec<Child>, Numbers> {
        // With no plies left only futile drops can be answered.
        if d <= 0 && has_non_drop(pos) {
            return Err((0, INF));
        }
        let moves = legal_rs(pos);
        let mut out = Vec::with_capacity(moves.len());
        for &m in moves.iter() {
            let mut key = key_after(pos, m);
            let known = d >= 2 && self.lookup(key, true, d - 1).is_some();
            if m.is_drop() || (d >= 2 && !known) {
                let check = pos.gives_check_move32(m);
                pos.apply_move32_with_gives_check(m, check);
                let free = m.is_drop() && !self.free_captures(pos).is_empty();
                if free {
                    key ^= FREE_CAPTURE;
                }
                if d >= 2 && self.lookup(key, true, d - 1).is_none() {
                    // Estimate the attacker's node by its number of checks: more are
                    // harder to refute; none (and no free capture) is refuted.
                    let checks = self.checks(pos).len() as u32;
                    let estimate = if checks == 0 && !free {
                        (INF, 0)
                    } else {
                        (1, checks.max(1))
                    };
                    self.store(key, true, d - 1, estimate);
                }
                pos.undo_move32(m).expect("undo the move just applied");
                if d <= 1 && !free {
                    // The attacker has no plies left and no free capture: escaped.
                    return Err((0, INF));
                }
            } else if d <= 1 {
                return Err((0, INF));
            }
            out.push(Child {
                mv: m,
                key,
                plies: d - 1,
            });
        }
        Ok(out)
    }

    /// Multiple iterative deepening: searches the node `pos` with `d` plies left until its
    /// φ reaches `th_phi` or its δ reaches `th_delta`.
    fn mid(&mut self, pos: &mut rb::Position, d: i32, th_phi: u32, th_delta: u32) -> Numbers {
        let key = self.key(pos);
        let or = pos.turn() == self.attacker;
        self.nodes += 1;
        if self.nodes > NODE_LIMIT {
            self.aborted = true;
        }
        if let Some(n) = self.lookup(key, or, d) {
            if n.0 == 0 || n.1 == 0 || n.0 >= th_phi || n.1 >= th_delta || self.aborted {
                return n;
            }
        } else if self.aborted {
            return (1, 1);
        }
        let children = if or {
            if d == 1 && solve_mate_in_one_in_place(pos).is_some() {
                return self.store(key, or, d, (0, INF));
            }
            self.or_children(pos, d)
        } else {
            match self.and_children(pos, d) {
                Ok(c) => c,
                Err(n) => return self.store(key, or, d, n),
            }
        };
        // Whoever is to move and has no move here loses (φ = ∞, δ = 0).
        if children.is_empty() {
            return self.store(key, or, d, (INF, 0));
        }
        loop {
            let mut phi = INF;
            let mut delta: u32 = 0;
            let mut best = 0;
            let mut best_delta = INF;
            let mut second_delta = INF;
            let mut best_phi = 0;
            for (i, c) in children.iter().enumerate() {
                let (cphi, cdelta) = self.lookup(c.key, !or, c.plies).unwrap_or((1, 1));
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
                return self.store(key, or, d, (phi, delta));
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
    /// its hand included, but a futile interposition (無駄合) and its capture do not count
    /// as plies), in the order of [`legal_moves`](Self::legal_moves).
    ///
    /// A search that would need more than a few million nodes for one first move gives up
    /// and counts as "no".
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
    /// problem (`mate_in − 1` after the first move) or one more gives the same answer; the
    /// horizon is at least one attacking move.
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
            while m < n.max(2) {
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

    /// Whether the side to move is mated by tsume rules: checkmated, or in check with no
    /// defence but futile interpositions (無駄合), which the checker would take for free.
    /// [`outcome`](Self::outcome) only knows the first kind.
    pub fn is_tsume_mate(&self) -> bool {
        if !self.is_check() {
            return false;
        }
        let mut pos = self.inner.clone();
        let mut solver = Solver::new(pos.turn().flip());
        solver.proves(&mut pos, 0) == Some(true)
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

#[cfg(test)]
mod tests {
    use super::super::Position;
    use super::*;

    fn usis(moves: Vec<super::super::Played>) -> Vec<String> {
        moves.into_iter().map(|p| p.usi).collect()
    }

    #[test]
    fn futile_interpositions_do_not_count() {
        //   3 2 1
        //   . l k  a     White's king is walled in; Black's gold on 2c guards 1b.
        //   . p .  b     A lance dropped anywhere on file 1 mates by tsume rules: White's
        //   . G .  c     silver can only be dropped in between and taken for nothing.
        let p = Position::from_sfen("7lk/7p1/7G1/9/9/9/9/9/9 b Ls 1").unwrap();
        let expected: Vec<String> = "bcdefghi".chars().map(|r| format!("L*1{r}")).collect();
        assert_eq!(usis(p.tsume_first_moves(1)), expected);
        assert!(p.forces_tsume("L*1i", 1));
        let checked = p.play("L*1i").unwrap().0;
        assert!(checked.is_tsume_mate());
        assert_eq!(checked.outcome(), None);
        // Played out, the drop and its capture are two more plies.
        let p2 = p.play("L*1i").unwrap().0.play("S*1e").unwrap().0;
        assert_eq!(usis(p2.tsume_first_moves(1)), ["1i1e"]);
    }

    #[test]
    fn interpositions_that_can_be_taken_back_count() {
        // A knight on 2a guards 1c: a silver dropped there is not futile.
        let p = Position::from_sfen("7nk/7p1/7G1/9/9/9/9/9/9 b Ls 1").unwrap();
        assert_eq!(usis(p.tsume_first_moves(1)), ["L*1b"]);
        assert!(!p.forces_tsume("L*1i", 1));
        assert_eq!(p.tsume_length(9), Some(1));
    }

    #[test]
    fn best_defence_puts_off_mate_longest() {
        // tanuki-5-4: 1c1b (takes the gold) 1a1b is the main line; 1a2b … runs shorter.
        let p = Position::from_sfen("8k/8g/8G/7L1/9/9/9/9/9 b 2r2b2g4s4n3l17p 1").unwrap();
        assert!(p.forces_tsume("1c1b", 5));
        assert!(!p.forces_tsume("1c1b", 3));
        assert!(!p.forces_tsume("7g7f", 5), "not a legal move");
        let after = p.play("1c1b").unwrap().0;
        let best = after.best_defence(4).unwrap();
        let next = after.play(&best.usi).unwrap().0;
        assert_eq!(next.tsume_length(9), Some(3));
        for reply in after.legal_moves() {
            let n = after.play(&reply.usi).unwrap().0;
            assert!(n.tsume_length(3).is_some(), "{} escapes", reply.usi);
        }
        assert_eq!(after.best_defence(4), after.best_defence(5));
    }

    #[test]
    fn a_move_that_is_not_check_is_no_tsume_move() {
        let p = Position::from_sfen("8k/9/8P/9/9/9/9/9/9 b G 1").unwrap();
        assert!(p.forces_tsume("G*1b", 1));
        assert!(!p.forces_tsume("G*5e", 3));
        assert!(p.tsume_first_moves(0).is_empty());
    }

    #[test]
    fn key_after_agrees_with_playing_the_move() {
        for sfen in [
            super::super::START_SFEN,
            "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1",
            "8l/1l+R2P3/p2pBG1pp/kps1p4/Nn1P2G2/P1P1P2PP/1PS6/1KSG3+r1/LN2+p3L w Sbgn3p 124",
        ] {
            let mut pos = rb::Position::from_sfen(sfen).unwrap();
            for &m in legal_rs(&pos).iter() {
                let predicted = key_after(&pos, m);
                pos.apply_move32(m);
                assert_eq!(predicted, pos.key().low_u64(), "{sfen} {}", m.to_usi());
                pos.undo_move32(m).unwrap();
            }
        }
    }
}
