//! Tsume (詰将棋) search: does the side to move mate within n plies if every one of its
//! moves gives check and the defender may answer with any legal move, drops from its hand
//! included?
//!
//! The search is depth-first proof-number search (df-pn, Nagai 2002) over AND/OR nodes:
//! the attacker's nodes are OR nodes (one checking move that mates suffices), the
//! defender's AND nodes (every reply must be mated). Each node carries the number of plies
//! left. A check with one ply left is found by rsshogi's mate-in-one solver. A child's
//! threshold is widened by the 1+ε trick (Pawlewicz and Lew 2007), so the search stays
//! longer below one child before switching to its sibling.
//!
//! The transposition table is keyed by the board (pieces and side to move) and compares
//! the attacker's hands, as tsume solvers do (優等局面, 証明駒): a mate proven with some
//! pieces in hand holds with more, and no mate with some pieces none with fewer. A proof
//! records its *proof pieces*, the pieces in hand it really needs: the pieces dropped on
//! the way, and, where the defender could interpose, every attacking piece of a kind the
//! defender holds none of (had the attacker fewer, the defender would hold one). When the
//! defender drops at distance and each futile drop is taken in turn, the positions met
//! differ only in the pieces the attacker has collected, and one proof needing none of
//! them covers them all, so a distant check costs little more than a near one. This
//! needs the defender to hold every piece not on the board or in the attacker's hand, as
//! tsume problems are set; with pieces missing from the set the defender's hand is part
//! of the key and a proof needs no more than the pieces dropped.
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
use crate::rules::key_map::KeyMap;
use rsshogi::board::zobrist::Zobrist;
use rsshogi::board::{self as rb, Move32List};
use rsshogi::mate::solve_mate_in_one_in_place;
use rsshogi::movegen::{generate_checks_all_move32, generate_legal_all_move32_into, Move32Sink};
use rsshogi::types::{self as rs, Bitboard, Hand, HandPiece, Move32, Piece, PieceType};

/// Proof and disproof numbers saturate here.
const INF: u32 = u32::MAX / 4;

/// How many nodes one search may visit before giving up (and answering "not proven"):
/// a few hundred megabytes of table at most.
const NODE_LIMIT: u64 = 5_000_000;

/// Marks the key of an attacker's node that may take a futile interposition for free.
const FREE_CAPTURE: u64 = 0x9E37_79B9_7F4A_7C15;

/// Mixes the defender's hand into the key when the defender's hand is not implied.
const DEFENDER_HAND: u64 = 0xD6E8_FEB8_6659_FD93;

/// At most this many unsolved entries are kept per board; the oldest gives way.
const OPEN_PER_BOARD: usize = 16;

/// Pieces in a full set but the kings (a tsume problem has no attacking king): the
/// defender holds all those not on the board or in the attacker's hand.
const FULL_SET: u32 = 38;

/// (φ, δ) of a node from the side to move's view: φ = 0 means the side to move wins,
/// δ = 0 that it loses. For the attacker φ is the proof number, for the defender the
/// disproof number.
type Numbers = (u32, u32);

/// A move out of a node, with the child's table key, the attacker's hand there and the
/// plies left.
struct Child {
    mv: Move32,
    key: u64,
    hand: Hand,
    plies: i32,
    /// For a futile drop: the keys of the defender's nodes after each free capture of it.
    captured: Vec<u64>,
    /// For a futile drop of a piece other than the first one dropped on its square: that
    /// first drop's index. It waits until the first is solved, whose proof most often
    /// covers it (see [`Solver::child_proof`]).
    waits_for: Option<usize>,
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

/// The board key (pieces and side to move, no hands) of the position after the legal
/// move `mv`, without playing it (as rsshogi's deprecated `board_key_after`, which it
/// asks its users to compute themselves).
fn board_key_after(pos: &rb::Position, mv: Move32) -> u64 {
    let us = pos.turn();
    let to = mv.to_sq();
    let mut key = pos.board_key() ^ Zobrist::side();
    if mv.is_drop() {
        let pt = mv.dropped_piece().unwrap_or(PieceType::PAWN);
        key ^= Zobrist::psq(to, Piece::from_parts(us, pt));
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
        }
        key ^= Zobrist::psq(from, moved);
        key ^= Zobrist::psq(to, after);
    }
    key.low_u64()
}

/// The hand kind a move adds to its mover's hand (a capture) and the one it takes away
/// (a drop).
fn hand_change(pos: &rb::Position, mv: Move32) -> (Option<HandPiece>, Option<HandPiece>) {
    if mv.is_drop() {
        let pt = mv.dropped_piece().unwrap_or(PieceType::PAWN);
        (None, HandPiece::from_piece_type(pt))
    } else {
        let captured = pos.piece_on(mv.to_sq());
        if captured == Piece::NONE {
            (None, None)
        } else {
            (
                HandPiece::from_piece_type(captured.piece_type().demote()),
                None,
            )
        }
    }
}

/// `hand` with one more `p` (unchanged when full).
fn plus(hand: Hand, p: HandPiece) -> Hand {
    hand.checked_add(p, 1).unwrap_or(hand)
}

/// `hand` with one `p` fewer (unchanged when it holds none).
fn minus(hand: Hand, p: HandPiece) -> Hand {
    hand.checked_sub(p, 1).unwrap_or(hand)
}

/// The hand holding of each kind the larger (`max`) or smaller count of `a` and `b`.
fn combine(a: Hand, b: Hand, max: bool) -> Hand {
    let mut out = Hand::ZERO;
    for p in HandPiece::iter() {
        let (x, y) = (a.count(p), b.count(p));
        out = out
            .checked_add(p, if max { x.max(y) } else { x.min(y) })
            .unwrap_or(out);
    }
    out
}

/// Whether `a` holds at least as many of every kind as `b`.
fn covers(a: Hand, b: Hand) -> bool {
    Hand::is_equal_or_superior(a, b)
}

/// What the table knows of one board under some attacker's hand.
#[derive(Clone, Copy)]
enum Known {
    /// Mate within `plies` plies or more, whenever the attacker holds at least `hand`.
    Proof { hand: Hand, plies: i8 },
    /// No mate within `plies` plies or fewer, whenever the attacker holds at most `hand`.
    Disproof { hand: Hand, plies: i8 },
    /// Unsolved numbers with exactly `hand` and `plies`.
    Open { hand: Hand, plies: i8, n: Numbers },
}

/// The table's answer for one node.
enum Probe {
    /// Mate, needing these pieces in hand.
    Proven(Hand),
    /// No mate.
    Disproven,
    /// Unsolved, with these numbers.
    Open(Numbers),
    /// Never seen.
    Unknown,
}

/// The numbers of a solved node (attacker to move if `or`) from the side to move's view.
fn solved(or: bool, attacker_wins: bool) -> Numbers {
    if or == attacker_wins {
        (0, INF)
    } else {
        (INF, 0)
    }
}

/// One search context; its table is shared by every question asked through it.
pub(crate) struct Solver {
    attacker: rs::Color,
    /// Whether the defender holds every piece not on the board or in the attacker's hand
    /// (set once: moves keep it so).
    complete: bool,
    table: KeyMap<Vec<Known>>,
    nodes: u64,
    aborted: bool,
}

impl Solver {
    pub(crate) fn new(attacker: rs::Color, pos: &rb::Position) -> Solver {
        let in_hands: u32 = [rs::Color::BLACK, rs::Color::WHITE]
            .into_iter()
            .map(|c| HandPiece::iter().map(|p| pos.hand(c).count(p)).sum::<u32>())
            .sum();
        Solver {
            attacker,
            complete: pos.bitboards().occupied().count() as u32 + in_hands
                == FULL_SET + pos.bitboards().pieces(PieceType::KING).count() as u32,
            table: KeyMap::default(),
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

    /// The defender's hand mixed into a key, unless the board and the attacker's hand
    /// imply it.
    fn defender_mix(&self, defender_hand: Hand) -> u64 {
        if self.complete {
            0
        } else {
            (defender_hand.raw() as u64 + 1).wrapping_mul(DEFENDER_HAND)
        }
    }

    /// The table key of the node `pos` (its board, marked when the attacker may capture
    /// for free) and the attacker's hand there.
    fn node(&self, pos: &mut rb::Position) -> (u64, Hand) {
        let mut k = pos.board_key().low_u64() ^ self.defender_mix(pos.hand(self.attacker.flip()));
        if !self.free_captures(pos).is_empty() {
            k ^= FREE_CAPTURE;
        }
        (k, pos.hand(self.attacker))
    }

    /// The key (unmarked) and attacker's hand of the node after the legal move `mv`.
    fn child_of(&self, pos: &rb::Position, mv: Move32) -> (u64, Hand) {
        let (gained, spent) = hand_change(pos, mv);
        let mut attacker = pos.hand(self.attacker);
        let mut defender = pos.hand(self.attacker.flip());
        let mover = if pos.turn() == self.attacker {
            &mut attacker
        } else {
            &mut defender
        };
        if let Some(p) = gained {
            *mover = plus(*mover, p);
        }
        if let Some(p) = spent {
            *mover = minus(*mover, p);
        }
        (
            board_key_after(pos, mv) ^ self.defender_mix(defender),
            attacker,
        )
    }

    /// Whether a check just given leaves the defender a chance to interpose: a single
    /// ranging checker with a square between it and the king.
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

    /// The pieces in hand a mate of the defender's node `pos` needs whatever its replies:
    /// where the defender could interpose, every attacking piece of a kind the defender
    /// holds none of (see the module documentation).
    fn interposition_pieces(&self, pos: &rb::Position) -> Hand {
        if !self.complete || !self.distant_check(pos) {
            return Hand::ZERO;
        }
        let attacker = pos.hand(self.attacker);
        let defender = pos.hand(self.attacker.flip());
        let mut out = Hand::ZERO;
        for p in HandPiece::iter() {
            if defender.count(p) == 0 {
                out = out.checked_add(p, attacker.count(p)).unwrap_or(out);
            }
        }
        out
    }

    /// What the table knows of the node `key` with the attacker holding `hand` and `d`
    /// plies left.
    fn probe(&self, key: u64, hand: Hand, d: i32) -> Probe {
        let Some(entries) = self.table.get(&key) else {
            return Probe::Unknown;
        };
        let d = d as i8;
        let mut found = Probe::Unknown;
        for e in entries {
            match *e {
                Known::Proof { hand: h, plies } if d >= plies && covers(hand, h) => {
                    return Probe::Proven(h)
                }
                Known::Disproof { hand: h, plies } if d <= plies && covers(h, hand) => {
                    return Probe::Disproven
                }
                Known::Open { hand: h, plies, n } if plies == d && h == hand => {
                    found = Probe::Open(n)
                }
                _ => {}
            }
        }
        found
    }

    /// The numbers of the node `key` (attacker to move if `or`, holding `hand`) with `d`
    /// plies left, if known.
    fn lookup(&self, key: u64, hand: Hand, or: bool, d: i32) -> Option<Numbers> {
        match self.probe(key, hand, d) {
            Probe::Proven(_) => Some(solved(or, true)),
            Probe::Disproven => Some(solved(or, false)),
            Probe::Open(n) => Some(n),
            Probe::Unknown => None,
        }
    }

    /// Records a mate of the node `key` within `d` plies needing `proof` in hand, and
    /// forgets what it makes redundant.
    fn store_proof(&mut self, key: u64, proof: Hand, d: i32) {
        let d = d as i8;
        let entries = self.table.entry(key).or_default();
        entries.retain(|e| match *e {
            Known::Proof { hand, plies } | Known::Open { hand, plies, .. } => {
                !(plies >= d && covers(hand, proof))
            }
            Known::Disproof { .. } => true,
        });
        entries.push(Known::Proof {
            hand: proof,
            plies: d,
        });
    }

    /// Records the numbers `n` of the node `key` (attacker to move if `or`, holding
    /// `hand`) with `d` plies left; a mate is recorded as needing the whole hand.
    fn store(&mut self, key: u64, hand: Hand, or: bool, d: i32, n: Numbers) -> Numbers {
        // φ = 0: the side to move wins; δ = 0: it loses.
        let attacker_wins = if or { n.0 == 0 } else { n.1 == 0 };
        let attacker_loses = if or { n.1 == 0 } else { n.0 == 0 };
        if attacker_wins {
            self.store_proof(key, hand, d);
            return n;
        }
        let d = d as i8;
        let entries = self.table.entry(key).or_default();
        if attacker_loses {
            entries.retain(|e| match *e {
                Known::Disproof { hand: h, plies } | Known::Open { hand: h, plies, .. } => {
                    !(plies <= d && covers(hand, h))
                }
                Known::Proof { .. } => true,
            });
            entries.push(Known::Disproof { hand, plies: d });
        } else if let Some(Known::Open { n: old, .. }) = entries
            .iter_mut()
            .find(|e| matches!(e, Known::Open { hand: h, plies, .. } if *h == hand && *plies == d))
        {
            *old = n;
        } else {
            let open = entries
                .iter()
                .filter(|e| matches!(e, Known::Open { .. }))
                .count();
            if open >= OPEN_PER_BOARD {
                if let Some(i) = entries.iter().position(|e| matches!(e, Known::Open { .. })) {
                    entries.remove(i);
                }
            }
            entries.push(Known::Open { hand, plies: d, n });
        }
        n
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
                let (key, hand) = self.child_of(pos, m);
                if d == 1 {
                    // No mate in one (the caller tried): only a distant check after which
                    // every reply is a drop may still leave nothing but futile drops.
                    if self.lookup(key, hand, false, 0).is_none() {
                        pos.apply_move32_with_gives_check(m, true);
                        let hopeless = !self.distant_check(pos) || has_non_drop(pos);
                        pos.undo_move32(m).expect("undo the move just applied");
                        if hopeless {
                            self.store(key, hand, false, 0, (0, INF));
                            continue;
                        }
                    }
                } else if self.lookup(key, hand, false, d - 1).is_none() {
                    pos.apply_move32_with_gives_check(m, true);
                    let replies = legal_rs(pos).len() as u32;
                    if replies == 0 {
                        let proof = self.interposition_pieces(pos);
                        self.store_proof(key, proof, d - 1);
                    } else {
                        self.store(key, hand, false, d - 1, (1, replies));
                    }
                    pos.undo_move32(m).expect("undo the move just applied");
                }
                out.push(Child {
                    mv: m,
                    key,
                    hand,
                    plies: d - 1,
                    captured: Vec::new(),
                    waits_for: None,
                });
            }
        }
        for m in self.free_captures(pos) {
            let (key, hand) = self.child_of(pos, m);
            out.push(Child {
                mv: m,
                key,
                hand,
                plies: d + 1,
                captured: Vec::new(),
                waits_for: None,
            });
        }
        out
    }

    /// The defender's replies, or `Err` with the node's numbers when one reply escapes
    /// outright (no plies left and no futile drop).
    ///
    /// Drops on one square are all futile or none (the piece dropped is taken either way),
    /// and after the free capture the positions differ only in the piece the attacker has
    /// gained: the first futile drop on a square is searched, the others wait for it.
    fn and_children(&mut self, pos: &mut rb::Position, d: i32) -> Result<Vec<Child>, Numbers> {
        // With no plies left only futile drops can be answered.
        if d <= 0 && has_non_drop(pos) {
            return Err((0, INF));
        }
        let moves = legal_rs(pos);
        let mut out: Vec<Child> = Vec::with_capacity(moves.len());
        // Per square dropped on: the first drop's index and the board keys after its free
        // captures (empty: not futile).
        let mut squares: Vec<(rs::Square, usize, Vec<u64>)> = Vec::new();
        for &m in moves.iter() {
            let (mut key, hand) = self.child_of(pos, m);
            let mut captured = Vec::new();
            let mut waits_for = None;
            let first = if m.is_drop() {
                squares
                    .iter()
                    .find(|q| q.0 == m.to_sq())
                    .map(|q| (q.1, q.2.clone()))
            } else {
                None
            };
            if let Some((index, boards)) = first {
                // Another piece dropped where one was dropped already: futile alike.
                if boards.is_empty() {
                    if d <= 1 {
                        return Err((0, INF));
                    }
                } else {
                    key ^= FREE_CAPTURE;
                    let mix = self.defender_mix(self.child_defender_hand(pos, m));
                    captured = boards.iter().map(|b| b ^ mix).collect();
                    waits_for = Some(index);
                }
            } else if m.is_drop() || d >= 2 && self.lookup(key, hand, true, d - 1).is_none() {
                let check = pos.gives_check_move32(m);
                pos.apply_move32_with_gives_check(m, check);
                let frees = if m.is_drop() {
                    self.free_captures(pos)
                } else {
                    Vec::new()
                };
                let free = !frees.is_empty();
                if free {
                    key ^= FREE_CAPTURE;
                    // The defender's hand is the same after the capture as after the drop.
                    let mix = self.defender_mix(pos.hand(self.attacker.flip()));
                    captured = frees
                        .iter()
                        .map(|&c| board_key_after(pos, c) ^ mix)
                        .collect();
                }
                if m.is_drop() {
                    let boards = captured
                        .iter()
                        .map(|k| k ^ self.defender_mix(pos.hand(self.attacker.flip())))
                        .collect();
                    squares.push((m.to_sq(), out.len(), boards));
                }
                if d >= 2 && self.lookup(key, hand, true, d - 1).is_none() {
                    // Estimate the attacker's node by its number of checks: more are
                    // harder to refute; none (and no free capture) is refuted.
                    let checks = self.checks(pos).len() as u32;
                    let estimate = if checks == 0 && !free {
                        (INF, 0)
                    } else {
                        (1, checks.max(1))
                    };
                    self.store(key, hand, true, d - 1, estimate);
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
                hand,
                plies: d - 1,
                captured,
                waits_for,
            });
        }
        Ok(out)
    }

    /// The defender's hand after its legal move `mv`.
    fn child_defender_hand(&self, pos: &rb::Position, mv: Move32) -> Hand {
        let (gained, spent) = hand_change(pos, mv);
        let mut hand = pos.hand(self.attacker.flip());
        if let Some(p) = gained {
            hand = plus(hand, p);
        }
        if let Some(p) = spent {
            hand = minus(hand, p);
        }
        hand
    }

    /// The proof pieces of the child `c`, if it is proven: from the table, or for a futile
    /// drop from the defender's node after a free capture of it (the capture mates as well
    /// as anything, and gains the piece dropped).
    fn child_proof(&self, c: &Child) -> Option<Hand> {
        if let Probe::Proven(h) = self.probe(c.key, c.hand, c.plies) {
            return Some(h);
        }
        let gained = c.mv.dropped_piece().and_then(HandPiece::from_piece_type)?;
        let after = plus(c.hand, gained);
        c.captured
            .iter()
            .find_map(|&k| match self.probe(k, after, c.plies + 1) {
                Probe::Proven(h) => Some(combine(minus(h, gained), c.hand, false)),
                _ => None,
            })
    }

    /// The numbers of the child `c` of a node (attacker to move if `or`), (1, 1) if
    /// unknown.
    fn child_numbers(&self, c: &Child, or: bool) -> Numbers {
        if self.child_proof(c).is_some() {
            return solved(!or, true);
        }
        self.lookup(c.key, c.hand, !or, c.plies).unwrap_or((1, 1))
    }

    /// The proof pieces of a node just proven (attacker to move if `or`, holding `hand`):
    /// an attacker's node needs what its mating move's child needs, plus the piece it
    /// drops, less the piece it captures; a defender's node what all its children need
    /// together, plus its interposition pieces.
    fn proof_pieces(&self, pos: &rb::Position, or: bool, hand: Hand, children: &[Child]) -> Hand {
        let needs = |c: &Child| self.child_proof(c);
        if or {
            for c in children {
                if let Some(mut h) = needs(c) {
                    let (gained, spent) = hand_change(pos, c.mv);
                    if let Some(p) = spent {
                        h = plus(h, p);
                    }
                    if let Some(p) = gained {
                        h = minus(h, p);
                    }
                    return combine(h, hand, false);
                }
            }
            hand
        } else {
            let mut h = self.interposition_pieces(pos);
            for c in children {
                match needs(c) {
                    Some(ch) => h = combine(h, ch, true),
                    None => return hand,
                }
            }
            combine(h, hand, false)
        }
    }

    /// Multiple iterative deepening: searches the node `pos` with `d` plies left until its
    /// φ reaches `th_phi` or its δ reaches `th_delta`.
    fn mid(&mut self, pos: &mut rb::Position, d: i32, th_phi: u32, th_delta: u32) -> Numbers {
        let (key, hand) = self.node(pos);
        let or = pos.turn() == self.attacker;
        self.nodes += 1;
        if self.nodes > NODE_LIMIT {
            self.aborted = true;
        }
        if let Some(n) = self.lookup(key, hand, or, d) {
            if n.0 == 0 || n.1 == 0 || n.0 >= th_phi || n.1 >= th_delta || self.aborted {
                return n;
            }
        } else if self.aborted {
            return (1, 1);
        }
        let children = if or {
            if d == 1 {
                if let Some(m) = solve_mate_in_one_in_place(pos) {
                    let (_, spent) = hand_change(pos, m);
                    pos.apply_move32_with_gives_check(m, true);
                    let mut proof = self.interposition_pieces(pos);
                    pos.undo_move32(m).expect("undo the move just applied");
                    if let Some(p) = spent {
                        proof = plus(proof, p);
                    }
                    self.store_proof(key, combine(proof, hand, false), d);
                    return solved(or, true);
                }
            }
            self.or_children(pos, d)
        } else {
            match self.and_children(pos, d) {
                Ok(c) => c,
                Err(n) => return self.store(key, hand, or, d, n),
            }
        };
        // Whoever is to move and has no move here loses (φ = ∞, δ = 0).
        if children.is_empty() {
            if or {
                return self.store(key, hand, or, d, (INF, 0));
            }
            let proof = self.interposition_pieces(pos);
            self.store_proof(key, proof, d);
            return (INF, 0);
        }
        loop {
            let mut phi = INF;
            let mut delta: u32 = 0;
            let mut best = 0;
            let mut best_delta = INF;
            let mut second_delta = INF;
            let mut best_phi = 0;
            let numbers: Vec<Numbers> =
                children.iter().map(|c| self.child_numbers(c, or)).collect();
            for (i, c) in children.iter().enumerate() {
                if let Some(first) = c.waits_for {
                    let (p, q) = numbers[first];
                    if p != 0 && q != 0 {
                        continue;
                    }
                }
                let (cphi, cdelta) = numbers[i];
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
                let attacker_wins = if or { phi == 0 } else { delta == 0 };
                if attacker_wins {
                    let proof = self.proof_pieces(pos, or, hand, &children);
                    self.store_proof(key, proof, d);
                    return (phi, delta);
                }
                return self.store(key, hand, or, d, (phi, delta));
            }
            let child_th_phi = if th_delta >= INF {
                INF
            } else {
                (th_delta - delta).saturating_add(best_phi).min(INF)
            };
            // The 1+ε trick, ε = 1/4.
            let widened = second_delta
                .saturating_add(1)
                .max(second_delta.saturating_add(second_delta / 4));
            let child_th_delta = th_phi.min(widened).min(INF);
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
        let mut solver = Solver::new(pos.turn(), &pos);
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
        let mut solver = Solver::new(self.inner.turn(), &pos);
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
        let mut solver = Solver::new(pos.turn().flip(), &pos);
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
        let mut solver = Solver::new(pos.turn().flip(), &pos);
        solver.proves(&mut pos, 0) == Some(true)
    }

    /// The length in plies of the shortest tsume mate for the side to move, looking at
    /// most `n` plies ahead; `None` if there is none within `n`.
    pub fn tsume_length(&self, n: u32) -> Option<u32> {
        let mut pos = self.search_copy();
        let mut solver = Solver::new(pos.turn(), &pos);
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
    fn board_key_after_agrees_with_playing_the_move() {
        for sfen in [
            super::super::START_SFEN,
            "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1",
            "8l/1l+R2P3/p2pBG1pp/kps1p4/Nn1P2G2/P1P1P2PP/1PS6/1KSG3+r1/LN2+p3L w Sbgn3p 124",
        ] {
            let mut pos = rb::Position::from_sfen(sfen).unwrap();
            for &m in legal_rs(&pos).iter() {
                let predicted = board_key_after(&pos, m);
                pos.apply_move32(m);
                assert_eq!(
                    predicted,
                    pos.board_key().low_u64(),
                    "{sfen} {}",
                    m.to_usi()
                );
                pos.undo_move32(m).unwrap();
            }
        }
    }
}
