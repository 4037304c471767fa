//! Mate search: a depth-limited AND/OR search over shakmaty's legal moves with a
//! transposition table of mate distances. Repetition and the fifty-move rule are not
//! considered inside the search.
//!
//! A node is a position and the number of moves the attacker has left. Mate within `n`
//! moves implies mate within more, and no mate within `n` none within fewer, so the
//! table keeps, per position (its Zobrist key, which includes the side to move), the
//! fewest moves known to mate and the most known not to, plus the move that decided it
//! (the mating move, or the defender's refutation), which is tried first the next time.
//!
//! Most of the work is refuting first moves that do not mate, and a refutation costs what
//! the attacker's moves below it cost. So the defender first tries the table's move and
//! the killers (the moves that decided nodes at the same depth), before any reply is
//! generated; when those fail and two or more attacker moves are to come, the replies go
//! by how many moves they leave the attacker ([`mobility`]: the legal ones after a check,
//! else counted from the attack tables), fewest first (checks come first that way).
//!
//! The last two plies, where nearly all the nodes are, do without the table (a lookup
//! there cost more than it saved) and without move lists where they can: a mate in one
//! is looked for among the checking moves only, generated directly
//! ([`find_direct_check`], uncovered checks included), each tried on the board alone
//! with an escape test ([`escapes`]) instead of generating the defender's replies; a
//! killer's legality is checked without generating moves ([`is_legal_here`]). The first
//! moves of a mate in 4 or longer are shared out among threads, which share one table
//! ([`forcing_first_moves`]). The search this replaced is kept as the tests' oracle
//! (`depth_first`).

use super::super::key_map::KeyMap;
use shakmaty::zobrist::Zobrist64;
use shakmaty::{
    attacks, Bitboard, Board, Chess, Color, EnPassantMode, File, Move, MoveList, Position as _,
    Rank, Role, Square,
};

#[cfg(test)]
mod depth_first;

/// What the table knows of one position.
#[derive(Clone, Copy)]
struct Entry {
    /// The attacker mates within this many moves (`u8::MAX`: not known).
    win: u8,
    /// The attacker does not mate within this many moves (0: nothing known).
    lose: u8,
    /// The move that decided the node last: a mating move, or a refutation.
    best: Option<Move>,
}

/// The table of mate distances, which the threads of one proof share: every entry is a
/// proven bound, so it holds whichever thread wrote it, and the answers do not depend on
/// the order the threads write in.
type Table = std::sync::Arc<std::sync::Mutex<KeyMap<Entry>>>;

/// What a search context has learnt: the table, and the killer moves.
#[derive(Default)]
struct Memory {
    table: Table,
    /// Per depth from the root, the two latest moves that decided a node there.
    killers: Vec<[Option<Move>; 2]>,
}

/// One search context; its table serves every question asked through it, so the first
/// moves of one problem share what was learnt. One side attacks in every question.
pub(super) struct Prover {
    memory: Memory,
}

/// The questions a mate search answers, given its two kinds of node.
pub(super) trait MateSearch {
    /// The attacker to move with `n` moves left, `ply` plies from the root.
    fn or_node(&mut self, pos: &Chess, key: u64, n: u32, ply: usize) -> bool;

    /// The defender to move, the attacker having `n` moves left counting the one that
    /// led here.
    fn and_node(&mut self, pos: &Chess, key: u64, n: u32, ply: usize) -> bool;

    /// Whether the side to move can force mate in at most `n` of its own moves.
    fn mates_in(&mut self, pos: &Chess, n: u32) -> bool {
        self.or_node(pos, key_of(pos), n.min(u8::MAX as u32 - 1), 0)
    }

    /// Whether the attacker, having just moved into `after` (the defender to move),
    /// mates in at most `n` moves counting the one just made: mate now, or mate in
    /// `n - 1` more against every reply.
    fn forced(&mut self, after: &Chess, n: u32) -> bool {
        n > 0 && self.and_node(after, key_of(after), n.min(u8::MAX as u32 - 1), 0)
    }

    /// The fewest moves, at most `max`, in which the side to move forces mate.
    fn mate_distance(&mut self, pos: &Chess, max: u32) -> Option<u32> {
        (1..=max).find(|&k| self.mates_in(pos, k))
    }

    /// The first of the defender's `replies` at `pos` after which the attacker does not
    /// mate within `n - 1` moves.
    fn first_refuting(
        &mut self,
        pos: &Chess,
        key: u64,
        replies: &[Move],
        n: u32,
        ply: usize,
    ) -> Option<Move> {
        replies.iter().copied().find(|&r| {
            let (next, next_key) = child(pos, key, r);
            !self.or_node(&next, next_key, n - 1, ply + 1)
        })
    }

    /// The first of the attacker's `moves` at `pos` that mates within `n` moves counting
    /// itself.
    fn first_forcing(
        &mut self,
        pos: &Chess,
        key: u64,
        moves: &[Move],
        n: u32,
        ply: usize,
    ) -> Option<Move> {
        moves.iter().copied().find(|&m| {
            let (next, next_key) = child(pos, key, m);
            self.and_node(&next, next_key, n, ply + 1)
        })
    }
}

/// Up to how many threads [`forcing_first_moves`] uses: `$QIYUAN_MATE_THREADS` when it is
/// a number of at least 1, else the cores there are. Read once: finding the cores reads
/// files under /proc and /sys, too slow for every proof.
fn mate_threads() -> usize {
    static THREADS: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    *THREADS.get_or_init(|| {
        std::env::var("QIYUAN_MATE_THREADS")
            .ok()
            .and_then(|t| t.parse::<usize>().ok())
            .filter(|&t| t >= 1)
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
    })
}

/// For each of `moves` (legal moves of `pos`), whether it forces mate within `n` moves
/// counting itself. Mates in 4 and longer take the first moves on several threads
/// ([`mate_threads`]) sharing one table (each its own killers), each thread taking the
/// next move not yet taken; shorter ones take one thread, whose start would cost more
/// than the search.
///
/// ```text
/// . . . . . . k .   White to move, n = 1: of the rook's and the king's moves
/// . . . . . p p p   only Ra8 mates.
/// . . . . . . . .
/// . . . . . . . .
/// . . . . . . . .
/// . . . . . . . .
/// . . . . . . . .
/// R . . . . . K .
/// ```
pub(super) fn forcing_first_moves(pos: &Chess, moves: &[Move], n: u32) -> Vec<bool> {
    let threads = if n >= 4 { mate_threads() } else { 1 };
    forcing_first_moves_on(pos, moves, n, threads)
}

/// [`forcing_first_moves`] on up to `threads` threads (one when `threads` is 0 or 1).
fn forcing_first_moves_on(pos: &Chess, moves: &[Move], n: u32, threads: usize) -> Vec<bool> {
    use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
    let threads = threads.min(moves.len());
    if threads <= 1 {
        let mut prover = Prover::new();
        return moves
            .iter()
            .map(|&m| prover.forced(&played(pos, m), n))
            .collect();
    }
    let next = AtomicUsize::new(0);
    let forced: Vec<AtomicBool> = moves.iter().map(|_| AtomicBool::new(false)).collect();
    let table = Table::default();
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| {
                let mut prover = Prover::sharing(&table);
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(&m) = moves.get(i) else {
                        break;
                    };
                    forced[i].store(prover.forced(&played(pos, m), n), Ordering::Relaxed);
                }
            });
        }
    });
    forced.into_iter().map(AtomicBool::into_inner).collect()
}

/// The Zobrist key of `pos` (the en-passant square counted whenever a pawn has just
/// moved two squares, as shakmaty's incremental update does).
fn key_of(pos: &Chess) -> u64 {
    pos.zobrist_hash::<Zobrist64>(EnPassantMode::Always).0
}

/// `pos` after the legal move `m`, and its key, given the key of `pos`.
fn child(pos: &Chess, key: u64, m: Move) -> (Chess, u64) {
    let next_key = pos.update_zobrist_hash(Zobrist64(key), m, EnPassantMode::Always);
    let next = played(pos, m);
    let next_key = next_key.map_or_else(|| key_of(&next), |k| k.0);
    (next, next_key)
}

impl Memory {
    /// The table's verdict on `key` with `n` moves left, if it has one.
    fn known(&self, key: u64, n: u32) -> Option<bool> {
        let e = *self.table().get(&key)?;
        if n >= e.win as u32 {
            Some(true)
        } else if n <= e.lose as u32 {
            Some(false)
        } else {
            None
        }
    }

    /// Records that the attacker mates (`wins`) or does not within `n` moves at `key`,
    /// decided by `best`, and returns `wins`.
    fn record(&mut self, key: u64, n: u32, wins: bool, best: Option<Move>, ply: usize) -> bool {
        let mut table = self.table();
        let e = table.entry(key).or_insert(Entry {
            win: u8::MAX,
            lose: 0,
            best: None,
        });
        if wins {
            e.win = e.win.min(n as u8);
        } else {
            e.lose = e.lose.max(n as u8);
        }
        if let Some(m) = best {
            e.best = Some(m);
            drop(table);
            self.killer(m, ply);
        }
        wins
    }

    /// The table, locked (a thread that panicked holding it left proven bounds only).
    fn table(&self) -> std::sync::MutexGuard<'_, KeyMap<Entry>> {
        self.table
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Makes `m` the latest killer of depth `ply`.
    fn killer(&mut self, m: Move, ply: usize) {
        if self.killers.len() <= ply {
            self.killers.resize(ply + 1, [None, None]);
        }
        let k = &mut self.killers[ply];
        if k[0] != Some(m) {
            k[1] = k[0];
            k[0] = Some(m);
        }
    }

    /// The two killers of depth `ply`.
    fn killers_at(&self, ply: usize) -> [Option<Move>; 2] {
        self.killers.get(ply).copied().unwrap_or([None, None])
    }

    /// The moves to try first at `key`, depth `ply`: the table's, then the two killers
    /// (not checked for legality).
    fn first_tries(&self, key: u64, ply: usize) -> [Option<Move>; 3] {
        let tt = self.table().get(&key).and_then(|e| e.best);
        let killers = self.killers.get(ply).copied().unwrap_or([None, None]);
        [tt, killers[0], killers[1]]
    }

    /// Moves the table's move and the killers of depth `ply` to the front of `moves`
    /// (those that are legal here); returns how many were moved.
    fn promote(&self, key: u64, ply: usize, moves: &mut MoveList) -> usize {
        let mut front = 0;
        for m in self.first_tries(key, ply).into_iter().flatten() {
            if let Some(i) = moves[front..].iter().position(|&x| x == m) {
                moves.swap(front, front + i);
                front += 1;
            }
        }
        front
    }
}

impl Prover {
    pub(super) fn new() -> Prover {
        Prover {
            memory: Memory::default(),
        }
    }

    /// A search context that shares `table` with others (its killers are its own).
    fn sharing(table: &Table) -> Prover {
        Prover {
            memory: Memory {
                table: table.clone(),
                killers: Vec::new(),
            },
        }
    }

    /// The defender to move (`ply` plies from the root), the attacker's last move to
    /// come: whether the defender is mated now or mated in one after every reply. Not
    /// kept in the table, which costs more than it saves here (nearly every such node
    /// is refuted at once, and few are met twice); the refutation becomes a killer.
    fn every_reply_mated(&mut self, pos: &Chess, ply: usize) -> bool {
        let killers = self.memory.killers_at(ply);
        for r in killers.into_iter().flatten() {
            if is_legal_here(pos, r) && mate_in_one(&played(pos, r)).is_none() {
                self.memory.killer(r, ply);
                return false;
            }
        }
        let replies = pos.legal_moves();
        if replies.is_empty() {
            return pos.is_check();
        }
        // Captures first: taking the attacker's pieces refutes most often. Two passes
        // over the list in the order generated, not a sort (a stable sort of the list
        // cost 7% of a mate in 5).
        for capturing in [true, false] {
            for &r in &replies {
                if r.is_capture() == capturing
                    && !killers.contains(&Some(r))
                    && mate_in_one(&played(pos, r)).is_none()
                {
                    self.memory.killer(r, ply);
                    return false;
                }
            }
        }
        true
    }
}

impl MateSearch for Prover {
    fn or_node(&mut self, pos: &Chess, key: u64, n: u32, ply: usize) -> bool {
        if n == 0 {
            return false;
        }
        if n == 1 {
            return mate_in_one(pos).is_some();
        }
        if let Some(known) = self.memory.known(key, n) {
            return known;
        }
        let mut moves = pos.legal_moves();
        let front = self.memory.promote(key, ply, &mut moves);
        if n == 2 {
            // Checks first, but unsorted: nearly every such node is refuted, every
            // move tried.
            let mut checks = [0u64; 4];
            for (i, &m) in moves.iter().enumerate() {
                if gives_check(pos, m) {
                    checks[i / 64] |= 1 << (i % 64);
                }
            }
            for checking in [true, false] {
                for (i, &m) in moves.iter().enumerate() {
                    if (checks[i / 64] >> (i % 64) & 1 == 1) == checking {
                        if self.every_reply_mated(&played(pos, m), ply + 1) {
                            return self.memory.record(key, n, true, Some(m), ply);
                        }
                    }
                }
            }
            return self.memory.record(key, n, false, None, ply);
        }
        order_attacks(pos, &mut moves[front..]);
        let mate = self.first_forcing(pos, key, &moves, n, ply);
        self.memory.record(key, n, mate.is_some(), mate, ply)
    }

    fn and_node(&mut self, pos: &Chess, key: u64, n: u32, ply: usize) -> bool {
        if n == 2 {
            return self.every_reply_mated(pos, ply);
        }
        if let Some(known) = self.memory.known(key, n) {
            return known;
        }
        if n >= 3 {
            // A refutation that worked nearby usually works here: try those before
            // generating and ordering every reply (a legal reply also means no mate and
            // no stalemate).
            for r in self.memory.first_tries(key, ply).into_iter().flatten() {
                if is_legal_here(pos, r) {
                    let (next, next_key) = child(pos, key, r);
                    if !self.or_node(&next, next_key, n - 1, ply + 1) {
                        return self.memory.record(key, n, false, Some(r), ply);
                    }
                }
            }
        }
        let mut replies = pos.legal_moves();
        if replies.is_empty() {
            return pos.is_check();
        }
        if n <= 1 {
            return false;
        }
        let front = self.memory.promote(key, ply, &mut replies);
        // Fewest attacker moves after the reply first: the cheapest to refute.
        replies[front..].sort_by_cached_key(|&r| mobility(&played(pos, r)));
        let refutation = self.first_refuting(pos, key, &replies, n, ply);
        self.memory
            .record(key, n, refutation.is_none(), refutation, ply)
    }
}

/// How many moves the side to move has, as the defender's replies are ordered by it:
/// the legal moves when in check (a handful, and the order among them matters most),
/// else the pseudo-legal ones counted from the attack tables, without generating them
/// (pins and the king's unsafe squares not taken off, castling and en passant left out,
/// a promotion counted four times as in a move list).
///
/// ```text
/// . . . . . . k .   White to move: the rook has 9 squares (h2-h8, g1, f1),
/// . . . . . . . .   the king 5 (d1 d2 e2 f2 f1), the pawn 2 (a3 a4): 16.
/// . . . . . . . .
/// . . . . . . . .
/// . . . . . . . .
/// . . . . . . . .
/// P . . . . . . .
/// . . . . K . . R
/// ```
fn mobility(pos: &Chess) -> usize {
    if pos.is_check() {
        return pos.legal_moves().len();
    }
    let board = pos.board();
    let us = pos.turn();
    let ours = board.by_color(us);
    let occupied = board.occupied();
    let mut count = 0;
    for from in ours & !board.pawns() {
        if let Some(piece) = board.piece_at(from) {
            count += (attacks::attacks(from, piece, occupied) & !ours).count();
        }
    }
    let pawns = board.pawns() & ours;
    let ahead = us.fold_wb(8, -8);
    let last = Bitboard::from_rank(us.relative_rank(Rank::Eighth));
    let one = pawns.shift(ahead) & !occupied;
    let two = (one & Bitboard::from_rank(us.relative_rank(Rank::Third))).shift(ahead) & !occupied;
    count += (one & !last).count() + two.count() + 4 * (one & last).count();
    for from in pawns {
        let takes = attacks::pawn_attacks(us, from) & board.by_color(!us);
        count += (takes & !last).count() + 4 * (takes & last).count();
    }
    count
}

/// Orders the attacker's moves: checks, then captures and promotions, then the rest;
/// stable within each.
fn order_attacks(pos: &Chess, moves: &mut [Move]) {
    moves.sort_by_cached_key(|&m| {
        if gives_check(pos, m) {
            0
        } else if m.is_capture() || m.is_promotion() {
            1
        } else {
            2
        }
    });
}

/// `pos` after the legal move `m`.
fn played(pos: &Chess, m: Move) -> Chess {
    let mut next = pos.clone();
    next.play_unchecked(m);
    next
}

/// Whether the legal move `m` mates, by shakmaty's move generator alone: the oracle's
/// test, and the tests' reference for [`mates`].
#[cfg(test)]
fn is_mate_after(pos: &Chess, m: Move) -> bool {
    let next = played(pos, m);
    next.is_check() && next.legal_moves().is_empty()
}

/// Whether the legal move `m` gives check, without playing it. Exact, except that every
/// castling move counts as a possible check (it is then played to find out).
pub(super) fn gives_check(pos: &Chess, m: Move) -> bool {
    let board = pos.board();
    let us = pos.turn();
    let Some(king) = board.king_of(!us) else {
        return false;
    };
    match m {
        Move::Normal {
            role,
            from,
            to,
            promotion,
            ..
        } => {
            let occupied = board.occupied().without(from).with(to);
            let piece = promotion.unwrap_or(role).of(us);
            attacks::attacks(to, piece, occupied).contains(king)
                || discovered(board, us, king, from, occupied)
        }
        Move::EnPassant { from, to } => {
            let taken = Square::from_coords(to.file(), from.rank());
            let occupied = board.occupied().without(from).without(taken).with(to);
            attacks::pawn_attacks(us, to).contains(king)
                || discovered(board, us, king, from, occupied)
        }
        Move::Castle { .. } | Move::Put { .. } => {
            let next = played(pos, m);
            next.is_check()
        }
    }
}

/// Whether one of `us`'s sliders other than the one leaving `from` sees `king` once the
/// board is `occupied`.
fn discovered(
    board: &Board,
    us: Color,
    king: Square,
    from: Square,
    occupied: shakmaty::Bitboard,
) -> bool {
    let ours = board.by_color(us).without(from);
    let rooks = attacks::rook_attacks(king, occupied) & board.rooks_and_queens();
    let bishops = attacks::bishop_attacks(king, occupied) & board.bishops_and_queens();
    ((rooks | bishops) & ours).any()
}

/// The pieces of the side to move that would uncover a check by leaving their square
/// (each the one piece between one of its sliders and the enemy king on `king`), with
/// the line each must leave; `None` when some check is one [`find_direct_check`] leaves
/// to the full move list: castling with the rook checking, en passant, a promotion, or
/// the king itself uncovering a check.
fn discoverers(pos: &Chess, king: Square) -> Option<Vec<(Square, Bitboard)>> {
    let board = pos.board();
    let us = pos.turn();
    if pos.maybe_ep_square().is_some() {
        return None;
    }
    let occupied = board.occupied();
    let ours = board.by_color(us);
    let back = us.backrank();
    if (board.pawns() & ours & Bitboard::from_rank(us.relative_rank(Rank::Seventh))).any() {
        return None;
    }
    if pos.castles().has_color(us) {
        // A castling rook ends next to the king's target square, on d1 or f1.
        let rook_targets = Bitboard::from_square(Square::from_coords(File::D, back))
            | Bitboard::from_square(Square::from_coords(File::F, back));
        let movers = ours & Bitboard::from_rank(back) & (board.kings() | board.rooks());
        if (attacks::rook_attacks(king, occupied & !movers) & rook_targets).any() {
            return None;
        }
    }
    let sliders = (attacks::rook_attacks(king, Bitboard::EMPTY) & board.rooks_and_queens()
        | attacks::bishop_attacks(king, Bitboard::EMPTY) & board.bishops_and_queens())
        & ours;
    let mut found = Vec::new();
    for slider in sliders {
        let between = attacks::between(king, slider) & occupied;
        if between.count() == 1 && (between & ours).any() {
            let piece = between.first()?;
            if board.kings().contains(piece) {
                return None;
            }
            found.push((piece, attacks::ray(king, slider)));
        }
    }
    Some(found)
}

/// Goes through the legal checking moves of the side to move until `accept` takes one,
/// and returns it (`Some(None)`: none taken): the pieces stepping onto a square that
/// sees the enemy king, found from those squares, then the moves that uncover a check
/// ([`discoverers`]), rather than trying every move. `None` when a check might be one
/// [`discoverers`] leaves out, which the caller then finds among every legal move.
///
/// ```text
/// . . . . . . k .   White to move: the checks are Ra8 (the rook to the
/// . . . . . p p p   king's rank) and nothing else; the knight on d4 and
/// . . . . . . . .   the king reach no square that sees g8. With a white
/// . . . . . . . .   bishop on d5 and queen on a2 instead of the knight,
/// . . . N . . . .   every bishop move would check too.
/// . . . . . . . .
/// . . . . . . . .
/// R . . . . . K .
/// ```
fn find_direct_check(pos: &Chess, mut accept: impl FnMut(Move) -> bool) -> Option<Option<Move>> {
    let board = pos.board();
    let us = pos.turn();
    let king = board.king_of(!us)?;
    let our_king = board.king_of(us)?;
    let discoverers = discoverers(pos, king)?;
    let occupied = board.occupied();
    let ours = board.by_color(us);
    let free = !ours;
    let mut offer = |role: Role, from: Square, to: Square| {
        let m = Move::Normal {
            role,
            from,
            capture: board.role_at(to),
            to,
            promotion: None,
        };
        (king_safe_after(board, us, our_king, from, to) && accept(m)).then_some(m)
    };
    // A piece checks from a square it would attack the king from; its leaving square
    // cannot be between the two (it would be giving check already).
    let diagonal = attacks::bishop_attacks(king, occupied) & free;
    let line = attacks::rook_attacks(king, occupied) & free;
    let knight_checks = attacks::knight_attacks(king) & free;
    let pawn_checks = attacks::pawn_attacks(!us, king) & free;
    for from in board.knights() & ours {
        for to in attacks::knight_attacks(from) & knight_checks {
            if let Some(m) = offer(Role::Knight, from, to) {
                return Some(Some(m));
            }
        }
    }
    for from in board.bishops_and_queens() & ours {
        let role = if board.queens().contains(from) {
            Role::Queen
        } else {
            Role::Bishop
        };
        let squares = if role == Role::Queen {
            diagonal | line
        } else {
            diagonal
        };
        let reach = attacks::bishop_attacks(from, occupied)
            | if role == Role::Queen {
                attacks::rook_attacks(from, occupied)
            } else {
                Bitboard::EMPTY
            };
        for to in reach & squares {
            if let Some(m) = offer(role, from, to) {
                return Some(Some(m));
            }
        }
    }
    for from in board.rooks() & ours {
        for to in attacks::rook_attacks(from, occupied) & line {
            if let Some(m) = offer(Role::Rook, from, to) {
                return Some(Some(m));
            }
        }
    }
    for to in pawn_checks {
        if let Some(m) = pawn_sources(board, us, to)
            .into_iter()
            .find_map(|from| offer(Role::Pawn, from, to))
        {
            return Some(Some(m));
        }
    }
    // Uncovered checks: every move off the line, but those offered above.
    for (from, line_kept) in discoverers {
        let Some(role) = board.role_at(from) else {
            continue;
        };
        let (targets, offered) = match role {
            Role::Pawn => {
                let captures = attacks::pawn_attacks(us, from) & board.by_color(!us);
                let pushes = pawn_pushes(board, us, from);
                (captures | pushes, pawn_checks)
            }
            Role::Knight => (attacks::knight_attacks(from) & free, knight_checks),
            Role::Bishop => (attacks::bishop_attacks(from, occupied) & free, diagonal),
            Role::Rook => (attacks::rook_attacks(from, occupied) & free, line),
            Role::Queen => (
                attacks::queen_attacks(from, occupied) & free,
                diagonal | line,
            ),
            Role::King => continue,
        };
        for to in targets & !line_kept & !offered {
            if let Some(m) = offer(role, from, to) {
                return Some(Some(m));
            }
        }
    }
    Some(None)
}

/// The squares a pawn of `us` on `from` pushes to (one step, or two from its starting
/// rank), captures aside.
fn pawn_pushes(board: &Board, us: Color, from: Square) -> Bitboard {
    let ahead = us.fold_wb(8, -8);
    let occupied = board.occupied();
    let Some(one) = from.offset(ahead).filter(|&sq| !occupied.contains(sq)) else {
        return Bitboard::EMPTY;
    };
    let two = from
        .offset(2 * ahead)
        .filter(|&sq| from.rank() == us.relative_rank(Rank::Second) && !occupied.contains(sq));
    Bitboard::from_square(one) | two.map_or(Bitboard::EMPTY, Bitboard::from_square)
}

/// The squares pawns of `us` move to `to` from: captures when the other side stands
/// there, pushes when it is empty.
fn pawn_sources(board: &Board, us: Color, to: Square) -> Bitboard {
    let pawns = board.pawns() & board.by_color(us);
    if board.by_color(!us).contains(to) {
        attacks::pawn_attacks(!us, to) & pawns
    } else if board.occupied().contains(to) {
        Bitboard::EMPTY
    } else {
        pawn_push_from(board, us, to).map_or(Bitboard::EMPTY, Bitboard::from_square)
    }
}

/// Every legal checking move [`find_direct_check`] goes through, in its order.
#[cfg(test)]
fn direct_checks(pos: &Chess) -> Option<Vec<Move>> {
    let mut checks = Vec::new();
    find_direct_check(pos, |m| {
        checks.push(m);
        false
    })?;
    Some(checks)
}

/// A move of the side to move that mates at once, if there is one.
fn mate_in_one(pos: &Chess) -> Option<Move> {
    let on_board = |m: Move| mates_on_board(pos, m.role(), m.from().unwrap_or(m.to()), m.to());
    match find_direct_check(pos, on_board) {
        Some(mate) => mate,
        None => pos
            .legal_moves()
            .into_iter()
            .find(|&m| gives_check(pos, m) && mates(pos, m)),
    }
}

/// The pieces of `us` pinned to its king on `king` by the other side's sliders.
fn pinned(board: &Board, us: Color, king: Square) -> Bitboard {
    let snipers = (attacks::rook_attacks(king, Bitboard::EMPTY) & board.rooks_and_queens()
        | attacks::bishop_attacks(king, Bitboard::EMPTY) & board.bishops_and_queens())
        & board.by_color(!us);
    let mut pinned = Bitboard::EMPTY;
    for sniper in snipers {
        let between = attacks::between(king, sniper) & board.occupied();
        if !between.more_than_one() {
            pinned |= between & board.by_color(us);
        }
    }
    pinned
}

/// The square a pawn of `us` stands on to push to `to` (one square, or two from its
/// starting rank over an empty square), given that `to` is empty.
fn pawn_push_from(board: &Board, us: Color, to: Square) -> Option<Square> {
    let back = us.fold_wb(-8, 8);
    let one = to.offset(back)?;
    let pawns = board.pawns() & board.by_color(us);
    if pawns.contains(one) {
        return Some(one);
    }
    let two = one.offset(back)?;
    (to.rank() == us.relative_rank(Rank::Fourth)
        && !board.occupied().contains(one)
        && pawns.contains(two))
    .then_some(two)
}

/// Whether `us`'s king on `king` is safe once a piece other than the king moves from
/// `from` to `to` (capturing whatever stands there).
fn king_safe_after(board: &Board, us: Color, king: Square, from: Square, to: Square) -> bool {
    let occupied = board.occupied().without(from).with(to);
    (board.attacks_to(king, !us, occupied) & !Bitboard::from_square(to)).is_empty()
}

/// Whether the side to move, in check, has a legal move (see [`escapes`]; en passant
/// positions ask shakmaty).
fn can_escape_check(pos: &Chess) -> bool {
    if pos.maybe_ep_square().is_some() {
        return !pos.legal_moves().is_empty();
    }
    escapes(pos.board(), pos.turn())
}

/// Whether `defender` has a legal move on `board` where it is to move, en passant aside:
/// any move when it is not in check; in check, a king move to a square no enemy piece
/// sees, or (against a single checker) a piece that is not pinned capturing the checker
/// or stepping between. Without a move list.
///
/// ```text
/// . . . . . . k .   Black to move after Ra8+: no king move (f7 g7 h7 are
/// R . . . . p p p   its own pawns, f8 h8 are seen by the rook), nothing
/// . . . . . . . .   takes or blocks the rook: mated.
/// . . . . . . . .
/// . . . . . . . .
/// . . . . . . . .
/// . . . . . . . .
/// . . . . . . K .
/// ```
fn escapes(board: &Board, defender: Color) -> bool {
    let us = defender;
    let Some(king) = board.king_of(us) else {
        return true;
    };
    let occupied = board.occupied();
    let checkers = board.attacks_to(king, !us, occupied);
    if checkers.is_empty() {
        return true;
    }
    let ours = board.by_color(us);
    let without_king = occupied.without(king);
    for to in attacks::king_attacks(king) & !ours {
        if board.attacks_to(to, !us, without_king).is_empty() {
            return true;
        }
    }
    if checkers.more_than_one() {
        return false;
    }
    let Some(checker) = checkers.first() else {
        return true;
    };
    // A pinned piece cannot take or block a checker that is not its pinner's line.
    let free = ours & !board.kings() & !pinned(board, us, king);
    let between = attacks::between(king, checker);
    for to in between.with(checker) {
        let pieces = attacks::knight_attacks(to) & board.knights()
            | attacks::bishop_attacks(to, occupied) & board.bishops_and_queens()
            | attacks::rook_attacks(to, occupied) & board.rooks_and_queens();
        if (pieces & free).any() {
            return true;
        }
    }
    if (attacks::pawn_attacks(!us, checker) & board.pawns() & free).any() {
        return true;
    }
    between
        .into_iter()
        .any(|to| pawn_push_from(board, us, to).is_some_and(|from| free.contains(from)))
}

/// Whether the legal move `m` mates: it checks and leaves no legal reply.
fn mates(pos: &Chess, m: Move) -> bool {
    let next = played(pos, m);
    next.is_check() && !can_escape_check(&next)
}

/// Whether the legal move of `role` from `from` to `to` (no castling, en passant or
/// promotion) mates, played on the board alone: a pawn's double step, after which en
/// passant might answer, is played in full.
fn mates_on_board(pos: &Chess, role: Role, from: Square, to: Square) -> bool {
    if role == Role::Pawn && from.distance(to) == 2 {
        let capture = pos.board().role_at(to);
        return mates(
            pos,
            Move::Normal {
                role,
                from,
                capture,
                to,
                promotion: None,
            },
        );
    }
    let us = pos.turn();
    let mut board = pos.board().clone();
    board.discard_piece_at(from);
    board.set_piece_at(to, role.of(us));
    !escapes(&board, !us)
}

/// Whether `m` (a move of some position, not necessarily this one) is legal here; the
/// same answer as shakmaty's `is_legal`, without building a move list for the usual
/// moves (castling and en passant ask shakmaty).
fn is_legal_here(pos: &Chess, m: Move) -> bool {
    let Move::Normal {
        role,
        from,
        capture,
        to,
        promotion,
    } = m
    else {
        return pos.is_legal(m);
    };
    let board = pos.board();
    let us = pos.turn();
    if board.piece_at(from) != Some(role.of(us)) || board.by_color(us).contains(to) {
        return false;
    }
    if capture != board.role_at(to) {
        return false;
    }
    let occupied = board.occupied();
    let reaches = match role {
        Role::Pawn => {
            let last = to.rank() == us.relative_rank(Rank::Eighth);
            last == promotion.is_some()
                && if capture.is_some() {
                    attacks::pawn_attacks(us, from).contains(to)
                } else {
                    pawn_push_from(board, us, to) == Some(from)
                }
        }
        _ => promotion.is_none() && attacks::attacks(from, role.of(us), occupied).contains(to),
    };
    if !reaches {
        return false;
    }
    if role == Role::King {
        return board.attacks_to(to, !us, occupied.without(from)).is_empty();
    }
    match board.king_of(us) {
        Some(king) => king_safe_after(board, us, king, from, to),
        None => pos.is_legal(m),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::fen::Fen;
    use shakmaty::CastlingMode;

    fn chess(fen: &str) -> Chess {
        fen.parse::<Fen>()
            .unwrap()
            .into_position(CastlingMode::Standard)
            .or_else(shakmaty::PositionError::ignore_impossible_check)
            .unwrap()
    }

    #[test]
    fn gives_check_agrees_with_playing_the_move() {
        for fen in [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1",
            "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
            "8/8/8/1k6/3Pp3/8/8/4KQ2 b - d3 0 1",
            "5k2/8/8/8/8/8/8/4K2R w K - 0 1",
        ] {
            let pos = chess(fen);
            for m in pos.legal_moves() {
                assert_eq!(
                    gives_check(&pos, m),
                    played(&pos, m).is_check(),
                    "{fen} {m}"
                );
            }
        }
    }

    /// The checking moves by playing every legal move.
    fn checks_by_playing(pos: &Chess) -> Vec<String> {
        let mut checks: Vec<String> = pos
            .legal_moves()
            .into_iter()
            .filter(|&m| played(pos, m).is_check())
            .map(|m| m.to_string())
            .collect();
        checks.sort();
        checks
    }

    #[test]
    fn direct_checks_are_every_checking_move() {
        let pos = chess("6k1/5ppp/8/8/3N4/8/8/R5K1 w - - 0 1");
        let checks = direct_checks(&pos).expect("no discovered check possible");
        assert_eq!(checks.len(), 1);
        assert_eq!(
            (checks[0].from(), checks[0].to()),
            (Some(Square::A1), Square::A8)
        );
        // Random games from positions with pins, castling rights, promotions and en
        // passant: whenever the generator answers, it answers every check.
        let (mut answered, mut seed) = (0, 7u64);
        for fen in [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1",
            "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
            "r2qkb1r/pppb2pp/2np1n2/5pN1/2BQP3/2N5/PPP2PPP/R1B1K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1",
        ] {
            for _ in 0..12 {
                let mut pos = chess(fen);
                for _ in 0..30 {
                    let legal = pos.legal_moves();
                    if legal.is_empty() {
                        break;
                    }
                    if let Some(checks) = direct_checks(&pos) {
                        let mut got: Vec<String> = checks.iter().map(|m| m.to_string()).collect();
                        got.sort();
                        assert_eq!(got, checks_by_playing(&pos), "{:?}", pos.board());
                        answered += 1;
                    }
                    seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
                    pos = played(&pos, legal[(seed >> 33) as usize % legal.len()]);
                }
            }
        }
        assert!(answered > 1000, "{answered}");
    }

    /// Positions along pseudo-random games from `fens` (`games` games of up to `plies`
    /// plies each), the seed fixed.
    fn random_positions(fens: &[&str], games: usize, plies: usize) -> Vec<Chess> {
        let (mut out, mut seed) = (Vec::new(), 11u64);
        for fen in fens {
            for _ in 0..games {
                let mut pos = chess(fen);
                for _ in 0..plies {
                    let legal = pos.legal_moves();
                    out.push(pos.clone());
                    if legal.is_empty() {
                        break;
                    }
                    seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
                    pos = played(&pos, legal[(seed >> 33) as usize % legal.len()]);
                }
            }
        }
        out
    }

    const TRICKY: [&str; 7] = [
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1",
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1",
        "2r1kb1r/pp3ppp/2n1b3/1q1N2B1/1P2Q3/8/P4PPP/3RK1NR w Kk - 0 1",
        "6k1/5ppp/8/8/8/8/5PPP/3QR1K1 w - - 0 1",
    ];

    #[test]
    fn is_legal_here_agrees_with_shakmaty() {
        // Every move of one position asked of the next positions of the game (so
        // most are illegal there: wrong pieces, blocked, pinned, no longer captures).
        let positions = random_positions(&TRICKY, 6, 40);
        let (mut legal, mut illegal) = (0, 0);
        for pair in positions.windows(3) {
            for m in pair[0].legal_moves() {
                for pos in &pair[1..] {
                    let expected = pos.is_legal(m);
                    assert_eq!(is_legal_here(pos, m), expected, "{m} in {:?}", pos.board());
                    if expected {
                        legal += 1;
                    } else {
                        illegal += 1;
                    }
                }
            }
        }
        assert!(
            legal > 1000 && illegal > 1000,
            "{legal} legal, {illegal} illegal"
        );
    }

    #[test]
    fn mates_agrees_with_every_legal_reply() {
        // Every legal move of random positions and of the mate-in-one positions one
        // reply into mates in two: the board-only test, the escape test and
        // shakmaty's legal replies say the same.
        let mut positions = random_positions(&TRICKY, 4, 40);
        for fen in [
            "6k1/5ppp/8/8/8/8/5PPP/3QR1K1 w - - 0 1",
            "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4",
            "k7/2K5/8/8/B7/8/8/R7 w - - 0 1",
            "7k/6pp/8/8/8/8/8/K5QR w - - 0 1",
            "5rk1/5ppp/8/8/8/8/6PP/1B2R1K1 w - - 0 1",
            // Pinned defenders that could take or block (mate-in-2.epd line 876).
            "6N1/3p4/N2kn1R1/1ppPp1p1/1B2Pb2/3p4/p1r5/Kb6 w - - 0 1",
        ] {
            let pos = chess(fen);
            positions.push(pos.clone());
            for m in pos.legal_moves() {
                let after = played(&pos, m);
                positions.extend(after.legal_moves().into_iter().map(|r| played(&after, r)));
            }
        }
        let (mut mates_seen, mut checks) = (0, 0);
        for pos in &positions {
            for m in pos.legal_moves() {
                let expected = is_mate_after(pos, m);
                assert_eq!(mates(pos, m), expected, "{m} in {:?}", pos.board());
                if let Move::Normal {
                    role,
                    from,
                    to,
                    promotion: None,
                    ..
                } = m
                {
                    if gives_check(pos, m) {
                        checks += 1;
                        assert_eq!(mates_on_board(pos, role, from, to), expected, "{m}");
                    }
                }
                mates_seen += expected as usize;
            }
            if pos.is_check() {
                assert_eq!(can_escape_check(pos), !pos.legal_moves().is_empty());
            }
        }
        assert!(
            mates_seen >= 20 && checks > 1000,
            "{mates_seen} mates, {checks} checks"
        );
    }

    #[test]
    fn mate_in_one_finds_castling_and_discovered_mates() {
        // . . . . r k r .   O-O puts the rook on f1 with check (so does Rf1): the
        // . . . . p . p .   generator leaves castling to the full search.
        // . . . . . . . .
        // . . . . . . . .   the same idea below with a discovered check: any bishop
        // . . . . . . . .   move uncovers the rook on a1, and the white king holds
        // . . . . . . . .   b7 and b8.
        // . . . . . . . .
        // . . . . K . . R
        let castle = chess("4rkr1/4p1p1/8/8/8/8/8/4K2R w K - 0 1");
        assert!(direct_checks(&castle).is_none());
        let castles: Vec<Move> = castle
            .legal_moves()
            .into_iter()
            .filter(|m| m.is_castle() && is_mate_after(&castle, *m))
            .collect();
        assert_eq!(castles.len(), 1);
        assert!(mate_in_one(&castle).is_some_and(|m| is_mate_after(&castle, m)));
        let discovered = chess("k7/2K5/8/8/B7/8/8/R7 w - - 0 1");
        let uncovering = direct_checks(&discovered).expect("uncovered checks are listed");
        assert_eq!(uncovering.len(), 7, "every bishop move: {uncovering:?}");
        let mate = mate_in_one(&discovered).expect("a discovered mate");
        assert_eq!(mate.role(), Role::Bishop);
        assert!(is_mate_after(&discovered, mate));
        assert_eq!(
            mate_in_one(&chess("6k1/5ppp/8/8/8/8/8/6K1 w - - 0 1")),
            None
        );
    }

    #[test]
    fn mobility_counts_what_the_move_list_has() {
        let pos = chess("6k1/8/8/8/8/8/P7/4K2R w - - 0 1");
        assert_eq!(mobility(&pos), 16);
        assert_eq!(pos.legal_moves().len(), 16);
        // In check: the legal moves exactly; else every legal move but castling and en
        // passant is counted (and pseudo-legal ones besides).
        let (mut in_check, mut equal) = (0, 0);
        for pos in random_positions(&TRICKY, 4, 40) {
            let legal = pos.legal_moves();
            let counted = legal
                .iter()
                .filter(|m| !m.is_castle() && !m.is_en_passant())
                .count();
            if pos.is_check() {
                assert_eq!(mobility(&pos), legal.len(), "{:?}", pos.board());
                in_check += 1;
            } else {
                assert!(mobility(&pos) >= counted, "{:?}", pos.board());
                equal += (mobility(&pos) == legal.len()) as usize;
            }
        }
        assert!(
            in_check >= 10 && equal >= 10,
            "{in_check} in check, {equal} equal"
        );
    }

    #[test]
    fn finds_back_rank_mate() {
        let pos = chess("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1");
        let mut prover = Prover::new();
        assert!(prover.mates_in(&pos, 1));
        assert_eq!(prover.mate_distance(&pos, 3), Some(1));
        let pos = chess("6k1/5pp1/7p/8/8/8/8/R5K1 w - - 0 1");
        assert_eq!(Prover::new().mate_distance(&pos, 2), None);
    }
}
