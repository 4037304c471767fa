//! The search under the xiangqi mate prover: a depth-limited AND/OR proof over the legal
//! moves of [`Board`], with a table of mate distances, killer replies, and repetition on
//! the path counted as no win.
//!
//! A node is a board and the number of moves the attacker has left. At an OR node the
//! attacker is to move; at an AND node the defender is, the attacker having `n` moves
//! counting the one just made. A side with no legal move loses, in check (将死) or not
//! (困毙), so the defender without a reply is a win and the attacker without a move a
//! loss.
//!
//! Mate within `n` implies mate within more, and no mate within `n` none within fewer, so
//! the table keeps per position (its Zobrist hash, which includes the side to move) the
//! fewest moves known to mate and the most known not to, with the move that decided it
//! (the mating move or the refutation), tried first next time.
//!
//! Repetition: a child whose position is already on the path (the game's history and the
//! moves searched down to here) is no win for the attacker: the attacker may not go there
//! and the defender escapes by going there. A win found under that restriction is a win
//! anywhere, but a loss may depend on the path, so such a loss is "tainted" and not put
//! in the table.
//!
//! Ordering: the attacker tries the table's move, then checks (fewest replies first),
//! then captures, then the rest; the defender tries the table's refutation, the killers
//! (refutations found at the same depth), then captures, then the rest. The last
//! attacker move (`n = 1`) is tried without a child node: the move wins exactly when the
//! defender is left without a legal move, which is tested without listing every reply.

use super::super::board::{horse_leg, Board, HORSE_JUMPS, LINES};
use super::super::types::{Color, Kind, Move, Point};
use std::collections::HashMap;

/// Entries the table holds at most; it is emptied when full (memory stays bounded).
const TABLE_LIMIT: usize = 1 << 20;

/// A move as the table and the killers keep it.
type Step = (Point, Point);

/// What the table knows of one position.
#[derive(Clone, Copy)]
struct Entry {
    /// The attacker mates within this many moves (`u8::MAX`: not known).
    win: u8,
    /// The attacker does not mate within this many moves (0: nothing known).
    lose: u8,
    /// The move that decided the node last.
    best: Option<Step>,
}

/// The answer of one node.
#[derive(Clone, Copy, Debug)]
pub(super) struct Found {
    /// The attacker forces the win.
    pub win: bool,
    /// The answer (a loss) depended on a repetition on the path.
    pub tainted: bool,
}

const WIN: Found = Found {
    win: true,
    tainted: false,
};

/// The budget of nodes ran out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct OutOfBudget;

/// One search context: its table serves every question asked through it. One side
/// attacks in every question (the table's entries mean nothing for the other).
pub(super) struct Search {
    table: HashMap<u64, Entry>,
    /// The hashes of the game's positions and of the path searched, the current last.
    path: Vec<u64>,
    /// Per ply from the root, the two latest refutations found there.
    killers: Vec<[Option<Step>; 2]>,
    /// Positions made since the last [`Search::reset`].
    pub nodes: u64,
    /// The most positions one question may make.
    pub budget: u64,
}

impl Search {
    /// An empty context with a budget of `budget` positions per question.
    pub fn new(budget: u64) -> Search {
        Search {
            table: HashMap::new(),
            path: Vec::new(),
            killers: Vec::new(),
            nodes: 0,
            budget,
        }
    }

    /// Starts a question: no position made yet.
    pub fn begin(&mut self) {
        self.nodes = 0;
    }

    /// The path becomes `history` (the game's hashes, the position asked about last).
    pub fn reset(&mut self, history: &[u64]) {
        self.path.clear();
        self.path.extend_from_slice(history);
    }

    /// Puts `hash` on the path (a move played from the position asked about).
    pub fn push(&mut self, hash: u64) {
        self.path.push(hash);
    }

    /// Whether `hash` is on the path.
    pub fn repeats(&self, hash: u64) -> bool {
        self.path.contains(&hash)
    }

    /// Counts one position made.
    fn count(&mut self) -> Result<(), OutOfBudget> {
        self.nodes += 1;
        if self.nodes > self.budget {
            Err(OutOfBudget)
        } else {
            Ok(())
        }
    }

    fn entry(&self, key: u64) -> Option<Entry> {
        self.table.get(&key).copied()
    }

    fn store(&mut self, key: u64, update: impl FnOnce(&mut Entry)) {
        if self.table.len() >= TABLE_LIMIT && !self.table.contains_key(&key) {
            self.table.clear();
        }
        let e = self.table.entry(key).or_insert(Entry {
            win: u8::MAX,
            lose: 0,
            best: None,
        });
        update(e);
    }

    fn store_win(&mut self, key: u64, n: u32, best: Option<Step>) {
        let n = n as u8;
        self.store(key, |e| {
            if n < e.win {
                e.win = n;
            }
            if best.is_some() {
                e.best = best;
            }
        });
    }

    fn store_lose(&mut self, key: u64, n: u32, best: Option<Step>) {
        let n = n as u8;
        self.store(key, |e| {
            if n > e.lose {
                e.lose = n;
            }
            if best.is_some() {
                e.best = best;
            }
        });
    }

    /// What the table says of `key` with `n` moves left, if it decides the node.
    fn known(&self, key: u64, n: u32) -> Option<bool> {
        let e = self.entry(key)?;
        if (e.win as u32) <= n {
            Some(true)
        } else if (e.lose as u32) >= n {
            Some(false)
        } else {
            None
        }
    }

    fn killer(&mut self, ply: usize, step: Step) {
        if self.killers.len() <= ply {
            self.killers.resize(ply + 1, [None; 2]);
        }
        let k = &mut self.killers[ply];
        if k[0] != Some(step) {
            k[1] = k[0];
            k[0] = Some(step);
        }
    }

    /// The attacker to move at `b` with `n ≥ 1` moves left, `ply` plies from the root
    /// (`b`'s hash is last on the path).
    pub fn or_node(&mut self, b: &Board, n: u32, ply: usize) -> Result<Found, OutOfBudget> {
        let key = b.hash;
        if let Some(win) = self.known(key, n) {
            return Ok(Found {
                win,
                tainted: false,
            });
        }
        let moves = legal_moves(b);
        if n == 1 {
            for m in &moves {
                self.count()?;
                let mut next = b.clone();
                next.make(m.from, m.to);
                if !has_legal_move(&next) {
                    self.store_win(key, 1, Some((m.from, m.to)));
                    return Ok(WIN);
                }
            }
            self.store_lose(key, 1, None);
            return Ok(Found {
                win: false,
                tainted: false,
            });
        }
        let best = self.entry(key).and_then(|e| e.best);
        let mut tainted = false;
        for (m, next) in self.attacker_order(b, moves, best)? {
            if self.repeats(next.hash) {
                tainted = true;
                continue;
            }
            self.path.push(next.hash);
            let found = self.and_node(&next, n, ply + 1);
            self.path.pop();
            let found = found?;
            if found.win {
                self.store_win(key, n, Some((m.from, m.to)));
                return Ok(WIN);
            }
            tainted |= found.tainted;
        }
        if !tainted {
            self.store_lose(key, n, None);
        }
        Ok(Found {
            win: false,
            tainted,
        })
    }

    /// The defender to move at `b`, the attacker having `n ≥ 1` moves counting the one
    /// that led here (`b`'s hash is last on the path).
    pub fn and_node(&mut self, b: &Board, n: u32, ply: usize) -> Result<Found, OutOfBudget> {
        let key = b.hash;
        if let Some(win) = self.known(key, n) {
            return Ok(Found {
                win,
                tainted: false,
            });
        }
        let replies = legal_moves(b);
        if replies.is_empty() {
            self.store_win(key, 1, None);
            return Ok(WIN);
        }
        if n == 1 {
            self.store_lose(key, 1, None);
            return Ok(Found {
                win: false,
                tainted: false,
            });
        }
        let best = self.entry(key).and_then(|e| e.best);
        let killers = self.killers.get(ply).copied().unwrap_or([None; 2]);
        let mut repeats = false;
        for r in defender_order(replies, best, killers) {
            self.count()?;
            let mut next = b.clone();
            next.make(r.from, r.to);
            if self.repeats(next.hash) {
                repeats = true;
                continue;
            }
            self.path.push(next.hash);
            let found = self.or_node(&next, n - 1, ply + 1);
            self.path.pop();
            let found = found?;
            if !found.win {
                self.killer(ply, (r.from, r.to));
                if !found.tainted {
                    self.store_lose(key, n, Some((r.from, r.to)));
                }
                return Ok(found);
            }
        }
        if repeats {
            return Ok(Found {
                win: false,
                tainted: true,
            });
        }
        self.store_win(key, n, None);
        Ok(WIN)
    }

    /// The attacker's moves with the positions they lead to, in the order to try: the
    /// table's move, checks (fewest replies first), captures (most valuable first), the
    /// rest.
    fn attacker_order(
        &mut self,
        b: &Board,
        moves: Vec<Move>,
        best: Option<Step>,
    ) -> Result<Vec<(Move, Board)>, OutOfBudget> {
        let mut keyed = Vec::with_capacity(moves.len());
        for m in moves {
            self.count()?;
            let mut next = b.clone();
            next.make(m.from, m.to);
            let rank = if best == Some((m.from, m.to)) {
                0
            } else if in_check(&next) {
                1 + legal_moves(&next).len()
            } else if let Some(k) = m.captured {
                200 - value(k)
            } else {
                300
            };
            keyed.push((rank, m, next));
        }
        keyed.sort_by_key(|&(rank, _, _)| rank);
        Ok(keyed.into_iter().map(|(_, m, next)| (m, next)).collect())
    }
}

/// The defender's replies in the order to try: the table's refutation, the killers,
/// captures, the rest (the order of generation kept within each group).
fn defender_order(
    mut replies: Vec<Move>,
    best: Option<Step>,
    killers: [Option<Step>; 2],
) -> Vec<Move> {
    let rank = |m: &Move| {
        let step = Some((m.from, m.to));
        if step == best {
            0
        } else if step == killers[0] {
            1
        } else if step == killers[1] {
            2
        } else if m.captured.is_some() {
            3
        } else {
            4
        }
    };
    replies.sort_by_key(rank);
    replies
}

/// A rough worth of a piece, to try the richest captures first.
fn value(kind: Kind) -> usize {
    match kind {
        Kind::Rook => 90,
        Kind::Cannon => 45,
        Kind::Horse => 40,
        Kind::Advisor | Kind::Elephant => 20,
        Kind::Pawn => 10,
        Kind::King => 0,
    }
}

/// Whether the side to move at `b` has a legal move (stops at the first).
pub(super) fn has_legal_move(b: &Board) -> bool {
    let us = b.turn;
    b.pseudo_moves().iter().any(|m| {
        let mut next = b.clone();
        next.make(m.from, m.to);
        !exposed(&next, us)
    })
}

/// The legal moves of the side to move at `b`: [`Board::legal_moves`], with the cheaper
/// test [`exposed`].
fn legal_moves(b: &Board) -> Vec<Move> {
    let us = b.turn;
    let mut moves = b.pseudo_moves();
    moves.retain(|m| {
        let mut next = b.clone();
        next.make(m.from, m.to);
        !exposed(&next, us)
    });
    moves
}

/// Whether the side to move at `b` is in check.
fn in_check(b: &Board) -> bool {
    exposed(b, b.turn)
}

/// Whether `color`'s king is attacked or faces the other king ([`Board::king_exposed`]
/// without lists): along each line the first piece may be a rook (or, up or down the
/// file, the other king) and the second a cannon; then horses with their legs free, and
/// soldiers (sideways only across the river).
fn exposed(b: &Board, color: Color) -> bool {
    let Some(king) = king_of(b, color) else {
        return true;
    };
    let by = color.opponent();
    for (df, dr) in LINES {
        let mut screened = false;
        let mut p = king.offset(df, dr);
        while let Some(q) = p {
            if let Some((c, k)) = b.at(q) {
                if screened {
                    if c == by && k == Kind::Cannon {
                        return true;
                    }
                    break;
                }
                if c == by && (k == Kind::Rook || (k == Kind::King && df == 0)) {
                    return true;
                }
                screened = true;
            }
            p = q.offset(df, dr);
        }
    }
    for (df, dr) in HORSE_JUMPS {
        let Some(h) = king.offset(df, dr) else {
            continue;
        };
        if b.at(h) == Some((by, Kind::Horse)) {
            let (lf, lr) = horse_leg(-df, -dr);
            if h.offset(lf, lr).is_some_and(|leg| b.at(leg).is_none()) {
                return true;
            }
        }
    }
    let fwd = by.forward();
    for (df, dr) in [(0, -fwd), (1, 0), (-1, 0)] {
        if let Some(s) = king.offset(df, dr) {
            if b.at(s) == Some((by, Kind::Pawn)) && (dr != 0 || !s.on_own_side(by)) {
                return true;
            }
        }
    }
    false
}

/// Where `color`'s king stands (looked for in its palace).
fn king_of(b: &Board, color: Color) -> Option<Point> {
    let ranks = if color == Color::Red { 0..3 } else { 7..10 };
    ranks
        .flat_map(|r| (3..6).map(move |f| (f, r)))
        .filter_map(|(f, r)| Point::new(f, r))
        .find(|&p| b.at(p) == Some((color, Kind::King)))
}

#[cfg(test)]
mod tests {
    use super::super::super::position::Position;
    use super::*;

    #[test]
    fn quick_legality_agrees_with_the_board_on_the_ccpd_games() {
        // Every position of the CCPD games in tests/data (CC BY 4.0), both sides to move.
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/xiangqi/ccpd.tsv");
        let text = std::fs::read_to_string(path).unwrap();
        let mut seen = 0;
        for line in text.lines() {
            let f: Vec<&str> = line.split('\t').collect();
            let mut pos = Position::from_fen(f[1]).unwrap();
            for mv in f.get(2).unwrap_or(&"").split_whitespace() {
                let b = Board::from_fen(&pos.fen()).unwrap();
                assert_eq!(legal_moves(&b), b.legal_moves(), "{}", pos.fen());
                assert_eq!(in_check(&b), b.in_check(), "{}", pos.fen());
                assert_eq!(has_legal_move(&b), !b.legal_moves().is_empty());
                seen += 1;
                if pos.play_in_place(mv).is_err() {
                    break;
                }
            }
        }
        assert!(seen > 5000, "{seen}");
    }
}
