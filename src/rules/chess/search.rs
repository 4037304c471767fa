//! Mate search: a plain depth-limited AND/OR search over shakmaty's legal moves, the
//! attacker's checks first. Enough for puzzles of a few moves; repetition and the
//! fifty-move rule are not considered inside the search.

use shakmaty::{attacks, Board, Chess, Color, Move, Position as _, Square};

/// Whether the side to move can force mate in at most `n` of its own moves.
pub(super) fn mates_in(pos: &Chess, n: u32) -> bool {
    if n == 0 {
        return false;
    }
    let moves = pos.legal_moves();
    if n == 1 {
        // Only a check can mate: test the rest without playing them.
        return moves
            .iter()
            .any(|&m| gives_check(pos, m) && is_mate_after(pos, m));
    }
    let mut checks = Vec::new();
    let mut captures = Vec::new();
    let mut quiet = Vec::new();
    for &m in &moves {
        if gives_check(pos, m) {
            checks.push(m);
        } else if m.is_capture() || m.is_promotion() {
            captures.push(m);
        } else {
            quiet.push(m);
        }
    }
    checks
        .into_iter()
        .chain(captures)
        .chain(quiet)
        .any(|m| forced(&played(pos, m), n))
}

/// Whether the attacker, having just moved into `after` (the defender to move), mates in at
/// most `n` moves counting the one just made: mate now, or mate in `n - 1` more against
/// every reply.
pub(super) fn forced(after: &Chess, n: u32) -> bool {
    if n == 0 {
        return false;
    }
    let replies = after.legal_moves();
    if replies.is_empty() {
        return after.is_check();
    }
    n > 1 && replies.iter().all(|&r| mates_in(&played(after, r), n - 1))
}

/// The fewest moves, at most `max`, in which the side to move forces mate.
pub(super) fn mate_distance(pos: &Chess, max: u32) -> Option<u32> {
    (1..=max).find(|&k| mates_in(pos, k))
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

    #[test]
    fn finds_back_rank_mate() {
        let pos = chess("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1");
        assert!(mates_in(&pos, 1));
        assert_eq!(mate_distance(&pos, 3), Some(1));
        let pos = chess("6k1/5pp1/7p/8/8/8/8/R5K1 w - - 0 1");
        assert_eq!(mate_distance(&pos, 2), None);
    }
}
