//! The proof search: [`Search`], its depth-first proof-number search (df-pn) with the
//! 1+ε trick, deep df-pn and killer moves, the threads of one attempt, and the main line.

use super::super::board::Color;
use super::super::position::{Move, Position};
use super::super::search_board::{KeyHasher, PointSet, SearchBoard};
use super::eyes;
use super::table::{Entry, Memory, Shared, Table};
use super::Problem;
use std::collections::HashSet;
use std::hash::BuildHasherDefault;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::{Duration, Instant};

pub(super) const INF: u32 = 1 << 30;
/// The longest line searched; deeper lines count as not proven.
pub(super) const MAX_DEPTH: usize = 160;
/// Deep df-pn (Zhang, Iida and van den Herik, 2017): a new position at depth `d` starts
/// with its estimates multiplied by `max(DEEP - d, 1)`, so that the search prefers to go
/// deeper in a line it has begun over opening many shallow ones. It changes the order of
/// the search, never a result (20 measured best of 10, 15, 20, 30 and 45 on the Cho
/// problems; docs/performance.md).
const DEEP: u32 = 20;
/// How many times more a move's proof may cost than the author's first move's before the
/// search leaves the first move for it (see [`Problem::with_first_moves`]).
const FIRST_MOVE_WEIGHT: u64 = 16;
/// The ε of the 1+ε trick, in sixteenths, of the first helper thread (more for each next
/// one): larger than the main thread's, so that the threads part.
const HELPER_STAY: u64 = 12;

/// A candidate move: a grid index, or `PASS`.
pub(super) type Candidate = usize;
pub(super) const PASS: Candidate = 0;

#[derive(Clone)]
pub(super) struct Search<'a> {
    pub(super) board: SearchBoard,
    /// A second board for [`Search::try_simulation`], brought in step with `board` by
    /// [`SearchBoard::follow`] (cheaper than a copy); `None` until the first simulation
    /// copies the board, and while in use.
    pub(super) reference: Option<Box<SearchBoard>>,
    pub(super) problem: &'a Problem,
    /// The region's grid indices, most promising first is decided per node.
    pub(super) region: Vec<usize>,
    /// The same points as `region`, as a set.
    pub(super) region_set: PointSet,
    /// The fence's grid indices: empty points only the attacker may play (and the
    /// defender, to capture: see [`Search::takes_on_fence`]).
    pub(super) fence: Vec<usize>,
    /// The points where the defender may ever play: the region, and the fence points
    /// whose neighbours are all in the area, where it may capture. An attacker chain with
    /// a liberty off them is never captured.
    pub(super) reach: PointSet,
    pub(super) area: PointSet,
    /// The points where a move may ever be played: the region and the fence.
    pub(super) playable: PointSet,
    pub(super) target: Vec<usize>,
    pub(super) defender: Color,
    /// The side whose goal is being proven (the OR player).
    pub(super) prover: Color,
    pub(super) ko_master: Option<Color>,
    /// The table (shared with the attempt's other threads, if any).
    pub(super) tt: Memory,
    pub(super) nodes: u64,
    /// The positions this search has reported to [`Shared::nodes`].
    pub(super) reported: u64,
    /// The other threads' positions, as last read from [`Shared::nodes`].
    pub(super) others: u64,
    pub(super) node_limit: u64,
    pub(super) deadline: Instant,
    pub(super) aborted: bool,
    /// A line met the depth limit or returned to a position of the line: the disproofs
    /// may depend on the line that reached them, and do not count.
    pub(super) disproofs_untrusted: bool,
    /// The positions on the line being searched, by depth from the root: the table key
    /// (a ko master's cycle returns to one) and the board hash (what the superko rule
    /// compares).
    pub(super) line: Vec<(u64, u64)>,
    /// The shallowest depth of a position on the line whose presence made the superko
    /// rule refuse a move in the subtree being searched (`usize::MAX`: none). A result
    /// that rests on a position above it holds only for the line that reached it, and is
    /// not stored.
    pub(super) refused_above: std::cell::Cell<usize>,
    pub(super) ko_keys: Vec<u64>,
    /// The ε of the 1+ε trick and the heuristics' switches.
    pub(super) options: SearchOptions,
    /// The defender's possible eyes at the position [`Search::living_move`] looks at.
    pub(super) eye_space: eyes::EyeSpace,
    /// The last move [`Search::living_move`] found, tried first the next time.
    pub(super) last_living: usize,
    /// By depth, the move that last settled a position there (the prover's proving move
    /// or the opponent's refutation), tried first at the next position of that depth.
    pub(super) killers: Vec<Candidate>,
    /// The positions a simulation ([`Search::simulate`]) was tried from, tried only once.
    pub(super) simulated: HashSet<u64, BuildHasherDefault<KeyHasher>>,
    /// During a simulation: the sibling's move and the move simulated, which change
    /// places when the other side plays on the sibling's point.
    pub(super) swap: (Candidate, Candidate),
    /// The author's first moves at the root, searched first (see
    /// [`Problem::with_first_moves`]).
    pub(super) first_moves: Vec<Candidate>,
}

/// How the search orders itself and which of its heuristics it uses: the ε of the 1+ε
/// trick (helper threads take a larger one), and switches that only tests turn off, to
/// check a heuristic against the search without it. None of them changes a result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct SearchOptions {
    /// The ε of the 1+ε trick, in sixteenths: how much longer the search stays in the
    /// chosen child than its second-best sibling's value asks (it changes the order of
    /// the search, never a result).
    pub(super) stay: u64,
    /// Whether the static kills of [`eyes`] are used (off only to test them by search).
    pub(super) static_kills: bool,
    /// Whether the moves are kept to [`Search::fight`] (off only to test that by search).
    pub(super) fight_only: bool,
    /// Whether the side that is not ko master leaves out kos the master would take straight
    /// back ([`Search::retaken_at_once`]; off only to test that by search).
    pub(super) kos_left_to_master: bool,
    /// Whether [`Search::simulate`] is tried (off only in a test, to check its proofs).
    pub(super) simulation: bool,
}

impl Default for SearchOptions {
    /// The solver's: ε = 4/16, every heuristic on.
    fn default() -> SearchOptions {
        SearchOptions {
            stay: 4,
            static_kills: true,
            fight_only: true,
            kos_left_to_master: true,
            simulation: true,
        }
    }
}

fn mix(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The search board of a problem: the position's stones in the area, the attacker's wall
/// (with eyes, so it never dies) outside it.
fn problem_board(position: &Position, problem: &Problem) -> SearchBoard {
    let size = position.size();
    let mut board = position.board().clone();
    let (c0, r0, c1, r1) = problem.area;
    let original = SearchBoard::new(position.board(), position.turn()).hash();
    for p in board.points().collect::<Vec<_>>() {
        if problem.in_area(p) {
            continue;
        }
        // Distance from the area, in lines.
        let dc = if p.col < c0 {
            c0 - p.col
        } else {
            p.col.saturating_sub(c1)
        };
        let dr = if p.row < r0 {
            r0 - p.row
        } else {
            p.row.saturating_sub(r1)
        };
        let eye = dc.max(dr) >= 2 && p.col % 2 == 0 && p.row % 2 == 0;
        board.set(p, (!eye).then_some(problem.attacker));
    }
    let _ = size;
    let mut sb = SearchBoard::new(&board, position.turn());
    sb.set_ko(position.ko_point());
    let frame = sb.hash() ^ original;
    sb.add_history(position.seen_boards().iter().map(|h| h ^ frame));
    sb
}

impl<'a> Search<'a> {
    pub(super) fn new(
        position: &Position,
        problem: &'a Problem,
        prover: Color,
        ko_master: Option<Color>,
    ) -> Search<'a> {
        let board = problem_board(position, problem);
        let region: Vec<usize> = problem.region.iter().map(|&p| board.vertex(p)).collect();
        let fence: Vec<usize> = problem.fence.iter().map(|&p| board.vertex(p)).collect();
        let first_moves = problem
            .first_moves_from(position)
            .iter()
            .map(|&p| board.vertex(p))
            .collect();
        let mut region_set = PointSet::EMPTY;
        for &v in &region {
            region_set.insert(v);
        }
        let mut area = PointSet::EMPTY;
        for p in position.board().points() {
            if problem.in_area(p) {
                area.insert(board.vertex(p));
            }
        }
        let target = problem.target.iter().map(|&p| board.vertex(p)).collect();
        let mut playable = region_set;
        let mut reach = region_set;
        for &v in &fence {
            playable.insert(v);
            let neighbours = board.neighbours(v);
            if neighbours
                .iter()
                .all(|&n| !board.on_board(n) || area.contains(n))
            {
                reach.insert(v);
            }
        }
        let eye_space = eyes::EyeSpace::new(&board, &area);
        let ko_keys = (0..board.grid_len() as u64)
            .map(|v| mix(v ^ 0x6B6F))
            .collect();
        Search {
            reference: None,
            board,
            problem,
            region,
            region_set,
            fence,
            reach,
            area,
            playable,
            target,
            defender: problem.defender(),
            prover,
            ko_master,
            tt: Memory::Own(Table::default()),
            nodes: 0,
            reported: 0,
            others: 0,
            node_limit: u64::MAX,
            deadline: Instant::now() + Duration::from_secs(3600),
            aborted: false,
            disproofs_untrusted: false,
            line: Vec::with_capacity(MAX_DEPTH + 1),
            refused_above: std::cell::Cell::new(usize::MAX),
            ko_keys,
            options: SearchOptions::default(),
            last_living: PASS,
            eye_space,
            killers: vec![PASS; MAX_DEPTH + 1],
            simulated: HashSet::default(),
            swap: (PASS, PASS),
            first_moves,
        }
    }

    #[inline]
    pub(super) fn key(&self) -> u64 {
        self.key_of(&self.board)
    }

    /// The table key of `board`'s position (see [`Search::key`]).
    #[inline]
    pub(super) fn key_of(&self, board: &SearchBoard) -> u64 {
        self.key_from(
            board.hash(),
            board.turn(),
            board.ko_vertex(),
            board.repeated(),
        )
    }

    /// The table key of the position after `c`, and whether its board repeats one of the
    /// history (a ko master's retake), read off the board without playing the move: the
    /// same as [`Search::key`] after [`Search::play`].
    pub(super) fn key_after(&self, c: Candidate) -> (u64, bool) {
        let board = &self.board;
        let next = board.turn().opponent();
        if c == PASS {
            return (self.key_from(board.hash(), next, 0, false), false);
        }
        let color = board.turn();
        let hash = board.hash_after(c, color).expect("a legal move");
        let ko = board.ko_capture(c, color).unwrap_or(0);
        let repeated = board.seen(hash);
        (self.key_from(hash, next, ko, repeated), repeated)
    }

    /// The table key of a position by its parts: the board hash, the side to play, the ko
    /// point (0: none) and whether the board repeats one of the history.
    fn key_from(&self, hash: u64, turn: Color, ko: usize, repeated: bool) -> u64 {
        let side = if turn == Color::White {
            0x5713_0000_0000_0001
        } else {
            0
        };
        let ko = if ko == 0 { 0 } else { self.ko_keys[ko] };
        // A ko master's retake back to an earlier board is another node than that board
        // was: the side to play there may no longer take the ko back.
        let repeat = if repeated { 0x7E9E_A7ED_0000_0000 } else { 0 };
        hash ^ side ^ ko ^ repeat
    }

    /// (pn, dn) of a decided position for the prover.
    #[inline]
    pub(super) fn value_of(&self, winner: Color) -> (u32, u32) {
        if winner == self.prover {
            (0, INF)
        } else {
            (INF, 0)
        }
    }

    /// (pn, dn) of a new position at `depth` the search knows nothing about (df-pn with
    /// heuristic initialisation): the more liberties the target has, the more work a kill
    /// takes; the deeper the position, the less ([`DEEP`]). Only the order of the search
    /// depends on it, never a result.
    fn leaf_estimate(&self, depth: usize) -> (u32, u32) {
        let mut libs = PointSet::EMPTY;
        for t in self.target_stones() {
            libs.union_with(self.board.chain_libs(t));
        }
        let kill_work = (libs.len() as u32).clamp(1, 8);
        let deep = DEEP.saturating_sub(depth as u32).max(1);
        if self.prover == self.problem.attacker {
            (kill_work * deep, deep)
        } else {
            (deep, kill_work * deep)
        }
    }

    #[inline]
    pub(super) fn play(&mut self, c: Candidate) {
        if c == PASS {
            self.board.pass();
        } else {
            self.board.play_legal(c);
        }
    }

    pub(super) fn out_of_budget(&mut self) -> bool {
        if self.aborted {
            return true;
        }
        if self.nodes - self.reported >= 1024 {
            // Look at the clock; report this thread's positions and read the others'.
            let fresh = self.nodes - self.reported;
            self.reported = self.nodes;
            if let Some(shared) = self.tt.shared() {
                let all = shared.nodes.fetch_add(fresh, Ordering::Relaxed) + fresh;
                self.others = all - self.nodes;
            }
            if Instant::now() >= self.deadline {
                self.aborted = true;
            }
        }
        let stopped = || {
            self.tt
                .shared()
                .is_some_and(|s| s.stop.load(Ordering::Relaxed))
        };
        if self.nodes + self.others >= self.node_limit || stopped() {
            self.aborted = true;
        }
        self.aborted
    }

    /// (pn, dn) of the position after `c`, at `depth`, from the table or from the board,
    /// and the position's key.
    fn child_value(&mut self, c: Candidate, depth: usize) -> ((u32, u32), u64) {
        self.nodes += 1;
        let (key, repeated) = self.key_after(c);
        if repeated && self.line.iter().any(|&(k, _)| k == key) {
            // A ko master's retake back to a position of the line: a cycle, which the
            // table cannot value. It counts as the prover's loss, so that no proof rests on
            // it; disproofs no longer count.
            self.disproofs_untrusted = true;
            return ((INF, 0), key);
        }
        // A position the table knows is valued without playing the move.
        if let Some(e) = self.tt.get(key) {
            return ((e.pn, e.dn), key);
        }
        let not_alive = self.alive_ruled_out(c, depth);
        self.play(c);
        debug_assert_eq!(
            key,
            self.key(),
            "the key read off the board before the move"
        );
        let value = match self.winner_on_arrival(not_alive) {
            Some(w) => self.value_of(w),
            None => self.leaf_estimate(depth),
        };
        let (pn, dn) = value;
        self.tt.insert(key, Entry { pn, dn, work: 1 });
        self.board.undo();
        (value, key)
    }

    /// Stores the value of the position at `depth`, unless it rests on a position of the
    /// line above (a move the superko rule refused because of it).
    #[inline]
    pub(super) fn store(&mut self, key: u64, value: (u32, u32), work: u32, depth: usize) {
        self.store_with(key, value, work, depth, false);
    }

    /// [`Search::store`], with the work stored for the position before added (a
    /// position searched again).
    fn store_adding(&mut self, key: u64, value: (u32, u32), work: u32, depth: usize) {
        self.store_with(key, value, work, depth, true);
    }

    fn store_with(&mut self, key: u64, (pn, dn): (u32, u32), work: u32, depth: usize, add: bool) {
        if self.refused_above.get() >= depth {
            self.tt.insert_with(key, Entry { pn, dn, work }, add);
        }
    }

    /// Leaves the position the search is at: what it rests on counts for the line above
    /// too.
    pub(super) fn leave(&mut self, outer: usize) {
        if let Some((key, _)) = self.line.pop() {
            if let Some(shared) = self.tt.shared() {
                shared.mark(key, false);
            }
        }
        self.refused_above.set(self.refused_above.get().min(outer));
    }

    /// Nagai's multiple-iterative deepening at the current position.
    pub(super) fn mid(&mut self, th_pn: u32, th_dn: u32, depth: usize) -> (u32, u32) {
        let key = self.key();
        let start_nodes = self.nodes;
        if depth >= MAX_DEPTH {
            // Not proven, whoever is to move; a disproof that met the cap is not trusted.
            self.disproofs_untrusted = true;
            return (INF, 0);
        }
        // What the line above this position kept from being played here and below.
        let outer = self.refused_above.replace(usize::MAX);
        self.line.push((key, self.board.hash()));
        if let Some(shared) = self.tt.shared() {
            shared.mark(key, true);
        }
        let mut moves = self.candidates();
        let killer = self.killers[depth];
        if killer != PASS {
            if let Some(i) = moves.iter().position(|&m| m == killer) {
                moves[..=i].rotate_right(1);
            }
        }
        // At the root, the author's first moves are searched first: any other move's
        // value counts `FIRST_MOVE_WEIGHT` times when the child to search is chosen
        // (elsewhere no weights: every move counts once).
        let weights: Vec<u64> = if depth == 0 && !self.first_moves.is_empty() {
            let weight = |m: &Candidate| {
                if self.first_moves.contains(m) {
                    1
                } else {
                    FIRST_MOVE_WEIGHT
                }
            };
            moves.iter().map(weight).collect()
        } else {
            Vec::new()
        };
        if moves.is_empty() {
            // The attacker has nowhere to play: the defender keeps its stones.
            let v = self.value_of(self.defender);
            self.store(key, v, 1, depth);
            self.leave(outer);
            return v;
        }
        let or_node = self.board.turn() == self.prover;
        // The number the side to play here wants small, and the one its opponent does.
        let pick = |v: &(u32, u32)| if or_node { v.0 } else { v.1 };
        let settles = |v: &(u32, u32)| if or_node { v.1 == 0 } else { v.0 == 0 };
        let threaded = self.tt.shared().is_some();
        let mut values: Vec<(u32, u32)> = Vec::with_capacity(moves.len());
        // The children's keys, kept only when other threads share the table.
        let mut keys: Vec<u64> = Vec::new();
        for &m in &moves {
            let (value, key) = self.child_value(m, depth + 1);
            values.push(value);
            if threaded {
                keys.push(key);
            }
        }
        // With other threads: a child another thread is searching below counts twice
        // (three times with two threads there...), so that the threads part.
        let mut crowded: Vec<u64> = Vec::new();
        loop {
            if depth == 0 && threaded {
                // The root is searched once, for the whole attempt: what the other
                // threads found below it comes from the table. (One move cannot bring
                // the root's board back, so no child here is a cycle.)
                for (value, &k) in values.iter_mut().zip(&keys) {
                    if let Some(e) = self.tt.get(k) {
                        *value = (e.pn, e.dn);
                    }
                }
            }
            let (pn, dn) = combine(&values, or_node);
            if pn >= th_pn || dn >= th_dn || pn == 0 || dn == 0 || self.out_of_budget() {
                if pick(&(pn, dn)) == 0 {
                    if let Some(i) = values.iter().position(|v| pick(v) == 0) {
                        self.killers[depth] = moves[i];
                    }
                }
                let work = (self.nodes - start_nodes).min(u32::MAX as u64) as u32;
                self.store_adding(key, (pn, dn), work, depth);
                self.leave(outer);
                return (pn, dn);
            }
            if let Some(shared) = self.tt.shared() {
                crowded.clear();
                crowded.extend(keys.iter().map(|&k| 1 + shared.busy(k) as u64));
            }
            let weight = |i: usize| {
                weights.get(i).copied().unwrap_or(1) * crowded.get(i).copied().unwrap_or(1)
            };
            // The most proving child and the second best value, by weight, unless the
            // child the weights choose is past this position's own threshold (searching it
            // would return at once, again and again): then by value alone.
            let threshold = if or_node { th_pn } else { th_dn };
            let (mut best, mut second) = most_proving(&values, pick, weight);
            let weighted = pick(&values[best]) < threshold;
            if !weighted {
                (best, second) = most_proving(&values, pick, |_| 1);
            }
            let weight = |i: usize| if weighted { weight(i) } else { 1 };
            // The side that must answer every move here has settled a sibling: try to
            // settle this one the same way before searching it.
            if self.options.simulation && !settles(&values[best]) {
                if let Some(r) = values.iter().position(settles) {
                    if self.try_simulation(moves[r], moves[best], depth + 1, !or_node) {
                        values[best] = if or_node { (INF, 0) } else { (0, INF) };
                        continue;
                    }
                }
            }
            let (cpn, cdn) = values[best];
            // The 1+ε trick (Pawlewicz and Lew): stay longer in the chosen child (until it
            // is no longer the best by weight).
            let second = cap(second as u64 + second as u64 * self.options.stay / 16 + 1);
            // (By weight: the threshold in the chosen child's own terms, above its value
            // so that the child is searched.)
            let second = if second >= INF {
                INF
            } else {
                cap(second as u64 / weight(best)).max(pick(&values[best]) + 1)
            };
            let (child_pn, child_dn) = if or_node {
                (
                    th_pn.min(second),
                    cap(th_dn as u64 - dn as u64 + cdn as u64),
                )
            } else {
                (
                    cap(th_pn as u64 - pn as u64 + cpn as u64),
                    th_dn.min(second),
                )
            };
            self.play(moves[best]);
            self.nodes += 1;
            values[best] = self.mid(child_pn, child_dn, depth + 1);
            self.board.undo();
        }
    }

    /// Tells the other threads to stop.
    fn stop_all(&self) {
        if let Some(shared) = self.tt.shared() {
            shared.stop.store(true, Ordering::Relaxed);
        }
    }

    /// [`Search::run`] on this thread and on `helpers` more, which share the table and
    /// the budget and search in another order (a larger ε of the 1+ε trick, so that they
    /// stay longer where they are and part from this thread's path). The first thread to
    /// settle the root stops the others; the positions counted are all threads'.
    pub(super) fn run_with_helpers(&mut self, helpers: usize) -> Option<bool> {
        if let Memory::Own(table) = &mut self.tt {
            let shared = Shared::new(std::mem::take(table));
            shared.nodes.store(self.nodes, Ordering::Relaxed);
            self.reported = self.nodes;
            self.tt = Memory::Shared(Arc::new(shared));
        }
        let others: Vec<Search<'a>> = (0..helpers)
            .map(|i| {
                let mut helper = self.clone();
                helper.options.stay = HELPER_STAY + 4 * i as u64;
                helper
            })
            .collect();
        let finished: Vec<(u64, bool)> = std::thread::scope(|scope| {
            let handles: Vec<_> = others
                .into_iter()
                .map(|mut helper| {
                    scope.spawn(move || {
                        helper.run();
                        helper.stop_all();
                        (helper.nodes, helper.disproofs_untrusted)
                    })
                })
                .collect();
            self.run();
            self.stop_all();
            // A helper that panicked has only left its part of the search undone (and
            // counts as having met a cycle: its disproofs are not trusted).
            handles
                .into_iter()
                .map(|handle| handle.join().unwrap_or((0, true)))
                .collect()
        });
        for (nodes, untrusted) in finished {
            self.nodes += nodes;
            self.disproofs_untrusted |= untrusted;
        }
        let root = self.tt.get(self.key());
        self.aborted = false;
        match root {
            Some(e) if e.pn == 0 => Some(true),
            Some(e) if e.dn == 0 => (!self.disproofs_untrusted).then_some(false),
            _ => {
                self.aborted = true;
                None
            }
        }
    }

    /// Proves or disproves the prover's goal at the root: `Some(true)` proven, `Some(false)`
    /// disproven, `None` unknown.
    pub(super) fn run(&mut self) -> Option<bool> {
        if let Some(w) = self.decided() {
            return Some(w == self.prover);
        }
        let (pn, dn) = self.mid(INF - 1, INF - 1, 0);
        if pn == 0 {
            Some(true)
        } else if dn == 0 && !self.disproofs_untrusted {
            Some(false)
        } else {
            None
        }
    }

    /// The main line from the root: the winner's least-work proof, the loser's most-work
    /// resistance, stopping where the table knows no more.
    pub(super) fn main_line(&mut self, prover_wins: bool, limit: usize) -> Vec<Candidate> {
        let mut line = Vec::new();
        while line.len() < limit && self.decided().is_none() {
            let moves = self.candidates();
            let mover_is_prover = self.board.turn() == self.prover;
            let winner_moves = mover_is_prover == prover_wins;
            let mut choice: Option<(u32, Candidate)> = None;
            for &m in &moves {
                self.play(m);
                let e = self.tt.get(self.key());
                self.board.undo();
                let Some(e) = e else { continue };
                let proven = if prover_wins { e.pn == 0 } else { e.dn == 0 };
                if !proven {
                    continue;
                }
                // The author's first move, when it wins, is the line's first move.
                let work = if line.is_empty() && winner_moves && self.first_moves.contains(&m) {
                    0
                } else {
                    e.work
                };
                let better = match choice {
                    None => true,
                    Some((w, _)) => {
                        if winner_moves {
                            work < w
                        } else {
                            work > w
                        }
                    }
                };
                if better {
                    choice = Some((work, m));
                }
            }
            let Some((_, m)) = choice else { break };
            line.push(m);
            self.play(m);
        }
        // A line that stops on a target as good as captured ends with the capture; one
        // that stops where the defender makes life in one move, with that move.
        if line.len() < limit {
            let last = match self.capture_all_at() {
                Some(capture) => Some(capture),
                None if self.decided().is_none() => self.living_move(),
                None => None,
            };
            if let Some(l) = last {
                line.push(l);
                self.play(l);
            }
        }
        for _ in 0..line.len() {
            self.board.undo();
        }
        line
    }

    pub(super) fn to_move(&self, c: Candidate) -> Move {
        if c == PASS {
            Move::Pass
        } else {
            Move::Play(self.board.point(c))
        }
    }
}

fn cap(x: u64) -> u32 {
    x.min(INF as u64) as u32
}

/// The child to search among `values`: the smallest `pick` times its weight, and the
/// second smallest such product (`INF` for an only child).
fn most_proving(
    values: &[(u32, u32)],
    pick: impl Fn(&(u32, u32)) -> u32,
    weight: impl Fn(usize) -> u64,
) -> (usize, u32) {
    let weighed = |i: usize| cap(pick(&values[i]) as u64 * weight(i));
    let mut best = 0;
    let mut second = INF;
    for i in 1..values.len() {
        if weighed(i) < weighed(best) {
            second = weighed(best);
            best = i;
        } else if weighed(i) < second {
            second = weighed(i);
        }
    }
    (best, second)
}

/// (pn, dn) of a node from its children's.
fn combine(values: &[(u32, u32)], or_node: bool) -> (u32, u32) {
    let min = |f: fn(&(u32, u32)) -> u32| values.iter().map(f).min().unwrap_or(INF);
    let sum = |f: fn(&(u32, u32)) -> u32| cap(values.iter().map(|v| f(v) as u64).sum());
    if or_node {
        (min(|v| v.0), sum(|v| v.1))
    } else {
        (sum(|v| v.0), min(|v| v.1))
    }
}
