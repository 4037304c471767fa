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
//! by how many legal moves they leave the attacker, fewest first (checks come first that
//! way). A mate in one is looked for among the checking moves only, generated directly
//! ([`direct_checks`]). The search this replaced is kept as the tests' oracle
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

/// What a search context has learnt: the table, and the killer moves.
#[derive(Default)]
struct Memory {
    table: KeyMap<Entry>,
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
        let e = self.table.get(&key)?;
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
        let e = self.table.entry(key).or_insert(Entry {
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
            if self.killers.len() <= ply {
                self.killers.resize(ply + 1, [None, None]);
            }
            let k = &mut self.killers[ply];
            if k[0] != Some(m) {
                k[1] = k[0];
                k[0] = Some(m);
            }
        }
        wins
    }

    /// The moves to try first at `key`, depth `ply`: the table's, then the two killers
    /// (not checked for legality).
    fn first_tries(&self, key: u64, ply: usize) -> [Option<Move>; 3] {
        let tt = self.table.get(&key).and_then(|e| e.best);
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
}

impl MateSearch for Prover {
    fn or_node(&mut self, pos: &Chess, key: u64, n: u32, ply: usize) -> bool {
        if n == 0 {
            return false;
        }
        if let Some(known) = self.memory.known(key, n) {
            return known;
        }
        if n == 1 {
            let mate = mate_in_one(pos);
            return self.memory.record(key, 1, mate.is_some(), mate, ply);
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
                        let (next, next_key) = child(pos, key, m);
                        if self.and_node(&next, next_key, n, ply + 1) {
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
        if let Some(known) = self.memory.known(key, n) {
            return known;
        }
        if n >= 2 {
            // A refutation that worked nearby usually works here: try those before
            // generating and ordering every reply (a legal reply also means no mate and
            // no stalemate).
            for r in self.memory.first_tries(key, ply).into_iter().flatten() {
                if pos.is_legal(r) {
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
        if n >= 3 {
            // Fewest attacker moves after the reply first: the cheapest to refute.
            replies[front..].sort_by_cached_key(|&r| played(pos, r).legal_moves().len());
        } else {
            // Captures first: taking the attacker's pieces refutes most often.
            replies[front..].sort_by_key(|m| !m.is_capture());
        }
        let refutation = self.first_refuting(pos, key, &replies, n, ply);
        self.memory
            .record(key, n, refutation.is_none(), refutation, ply)
    }
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

fn played(pos: &Chess, m: Move) -> Chess {
    let mut next = pos.clone();
    next.play_unchecked(m);
    next
}

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

/// Every legal checking move of the side to move, found from the squares that see the
/// enemy king rather than by trying every move; `None` when a check might be castling
/// with the rook checking, en passant, a promotion or a discovered check (one of its
/// pieces alone between one of its sliders and the king), which the caller then finds
/// by filtering every legal move.
///
/// ```text
/// . . . . . . k .   White to move: the checks are Ra8 (the rook to the
/// . . . . . p p p   king's rank) and nothing else; the knight on d4 and
/// . . . . . . . .   the king reach no square that sees g8.
/// . . . . . . . .
/// . . . N . . . .
/// . . . . . . . .
/// . . . . . . . .
/// R . . . . . K .
/// ```
fn direct_checks(pos: &Chess) -> Option<MoveList> {
    let board = pos.board();
    let us = pos.turn();
    let king = board.king_of(!us)?;
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
    for slider in sliders {
        let between = attacks::between(king, slider) & occupied;
        if between.count() == 1 && (between & ours).any() {
            return None;
        }
    }
    // A piece checks from a square it would attack the king from; its leaving square
    // cannot be between the two (it would be giving check already).
    let free = !ours;
    let diagonal = attacks::bishop_attacks(king, occupied) & free;
    let line = attacks::rook_attacks(king, occupied) & free;
    let mut checks = MoveList::new();
    for (role, squares) in [
        (Role::Knight, attacks::knight_attacks(king) & free),
        (Role::Bishop, diagonal),
        (Role::Rook, line),
        (Role::Queen, diagonal | line),
        (Role::Pawn, attacks::pawn_attacks(!us, king) & free),
    ] {
        let pieces = board.by_role(role) & ours;
        for to in squares {
            // Cheap test first: can a piece of that kind reach `to` at all?
            if role == Role::Pawn || (attacks::attacks(to, role.of(!us), occupied) & pieces).any() {
                checks.extend(pos.san_candidates(role, to));
            }
        }
    }
    Some(checks)
}

/// A move of the side to move that mates at once, if there is one.
fn mate_in_one(pos: &Chess) -> Option<Move> {
    match direct_checks(pos) {
        Some(checks) => checks.into_iter().find(|&m| is_mate_after(pos, m)),
        None => pos
            .legal_moves()
            .into_iter()
            .find(|&m| gives_check(pos, m) && is_mate_after(pos, m)),
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
        assert!(direct_checks(&discovered).is_none());
        let mate = mate_in_one(&discovered).expect("a discovered mate");
        assert_eq!(mate.role(), Role::Bishop);
        assert!(is_mate_after(&discovered, mate));
        assert_eq!(
            mate_in_one(&chess("6k1/5ppp/8/8/8/8/8/6K1 w - - 0 1")),
            None
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
