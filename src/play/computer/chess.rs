//! The built-in chess opponent: negamax alpha-beta over shakmaty with quiescence on
//! captures, move ordering (the previous iteration's scores at the root, captures by most
//! valuable victim, promotions, killers) and iterative deepening; the evaluation is material,
//! piece-square tables and mobility. Level 1 looks one move ahead without quiescence and
//! adds much noise to its choice (it blunders often); each level above looks deeper with
//! less noise. The chosen move is played through [`Position::play`], so what comes back is
//! always one of our legal moves.
//!
//! ```
//! use qiyuan::play::computer::Computer;
//! use qiyuan::play::Level;
//! use qiyuan::rules::chess::Position;
//! // Scholar's mate on the board: White mates with Qxf7#.
//! //   r . b q k b . r
//! //   p p p p . p p p
//! //   . . n . . n . .
//! //   . . . . p . . Q
//! //   . . B . P . . .
//! let pos = Position::from_fen(
//!     "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4",
//! ).unwrap();
//! let played = pos.think(Level::new(2).unwrap(), 1).unwrap();
//! assert_eq!(played.uci, "h5f7");
//! assert!(played.mate);
//! ```

use super::{deadline, noisy_best, root_bound, Computer, Limits, SearchStrength, INFINITY, MATE};
use crate::play::Level;
use crate::rules::chess::{Played, Position};
use shakmaty::attacks;
use shakmaty::{Bitboard, Chess, Color, Move, Position as _, Role, Square};
use std::time::{Duration, Instant};

/// The searches of levels 1 to 5: `(depth, quiescence, noise in centipawns, nodes)`.
const LEVELS: [(u8, bool, i32, u64); 5] = [
    (1, false, 300, 10_000),
    (2, true, 80, 40_000),
    (3, true, 30, 120_000),
    (4, true, 10, 250_000),
    (5, true, 0, 400_000),
];

/// The search of `level`.
pub fn strength(level: Level) -> SearchStrength {
    SearchStrength::of_level(level, &LEVELS)
}

impl Computer for Position {
    fn think(&self, level: Level, seed: u64) -> Option<Played> {
        let until = deadline(self.think_budget(level));
        think_with(self, strength(level), seed, until)
    }

    fn think_budget(&self, _level: Level) -> Duration {
        Duration::from_secs(1)
    }
}

/// The move of a chess opponent of `strength` in `pos`, the search stopping at `until`;
/// `None` when the side to move has no legal move.
pub fn think_with(
    pos: &Position,
    strength: SearchStrength,
    seed: u64,
    until: Instant,
) -> Option<Played> {
    let chess = pos.chess();
    let mut search = Search {
        limits: Limits::new(strength.nodes, until),
        quiescence: strength.quiescence,
        killers: vec![[None; 2]; 64],
    };
    let best = search.root(chess, strength.depth.max(1) as i32, strength.noise, seed)?;
    let uci = best.to_uci(chess.castles().mode()).to_string();
    pos.play(&uci).ok().map(|(_, played)| played)
}

/// One search: its limits and killer moves.
struct Search {
    limits: Limits,
    quiescence: bool,
    /// Per ply, two quiet moves that caused a cut-off there.
    killers: Vec<[Option<Move>; 2]>,
}

impl Search {
    /// Iterative deepening at the root: the move with the best score plus its noise, from
    /// the deepest iteration that finished (the first one is used even if cut short).
    fn root(&mut self, pos: &Chess, depth: i32, amplitude: i32, seed: u64) -> Option<Move> {
        let mut moves: Vec<Move> = pos.legal_moves().into_iter().collect();
        if moves.is_empty() {
            return None;
        }
        order(&mut moves, &[None; 2]);
        let salt = |m: Move| {
            let from = m.from().map_or(64, |s| s as u64);
            from * 4096 + m.to() as u64 * 8 + m.promotion().map_or(0, |r| r as u64)
        };
        let mut best = moves[0];
        for d in 1..=depth {
            let mut scored: Vec<(i32, Move)> = Vec::with_capacity(moves.len());
            let mut best_raw = -INFINITY;
            for &m in &moves {
                let mut child = pos.clone();
                child.play_unchecked(m);
                let alpha = root_bound(best_raw, amplitude);
                let raw = -self.negamax(&child, d - 1, 1, -INFINITY, -alpha);
                if self.limits.stopped() && d > 1 {
                    break;
                }
                best_raw = best_raw.max(raw);
                scored.push((raw, m));
            }
            if self.limits.stopped() && d > 1 {
                break;
            }
            scored.sort_by_key(|&(raw, _)| std::cmp::Reverse(raw));
            moves = scored.iter().map(|&(_, m)| m).collect();
            best = noisy_best(&scored, amplitude, seed, salt).unwrap_or(best);
            if self.limits.stopped() || scored.first().is_some_and(|&(raw, _)| raw > MATE / 2) {
                break;
            }
        }
        Some(best)
    }

    fn negamax(&mut self, pos: &Chess, depth: i32, ply: usize, mut alpha: i32, beta: i32) -> i32 {
        if self.limits.spend() {
            return 0;
        }
        let mut moves: Vec<Move> = pos.legal_moves().into_iter().collect();
        if moves.is_empty() {
            return if pos.is_check() {
                -(MATE - ply as i32)
            } else {
                0
            };
        }
        if pos.halfmoves() >= 100 || pos.is_insufficient_material() {
            return 0;
        }
        if depth <= 0 {
            return if self.quiescence {
                self.quiesce(pos, ply, alpha, beta, 0)
            } else {
                evaluate(pos)
            };
        }
        let killers = self.killers.get(ply).copied().unwrap_or([None; 2]);
        order(&mut moves, &killers);
        let mut best = -INFINITY;
        for m in moves {
            let mut child = pos.clone();
            child.play_unchecked(m);
            let score = -self.negamax(&child, depth - 1, ply + 1, -beta, -alpha);
            if self.limits.stopped() {
                return 0;
            }
            if score > best {
                best = score;
            }
            if score > alpha {
                alpha = score;
            }
            if alpha >= beta {
                if !m.is_capture() {
                    if let Some(k) = self.killers.get_mut(ply) {
                        if k[0] != Some(m) {
                            k[1] = k[0];
                            k[0] = Some(m);
                        }
                    }
                }
                break;
            }
        }
        best
    }

    /// Captures and promotions only, until the position is quiet; in check every move.
    fn quiesce(&mut self, pos: &Chess, ply: usize, mut alpha: i32, beta: i32, qdepth: u8) -> i32 {
        if self.limits.spend() {
            return 0;
        }
        let in_check = pos.is_check();
        let all = pos.legal_moves();
        if all.is_empty() {
            return if in_check { -(MATE - ply as i32) } else { 0 };
        }
        let stand = evaluate(pos);
        if !in_check || qdepth >= 4 {
            if stand >= beta {
                return stand;
            }
            alpha = alpha.max(stand);
        }
        let mut moves: Vec<Move> = if in_check && qdepth < 4 {
            all.into_iter().collect()
        } else {
            all.into_iter()
                .filter(|m| m.is_capture() || m.promotion() == Some(Role::Queen))
                .collect()
        };
        order(&mut moves, &[None; 2]);
        let mut best = if in_check && qdepth < 4 {
            -INFINITY
        } else {
            stand
        };
        for m in moves {
            let mut child = pos.clone();
            child.play_unchecked(m);
            let score = -self.quiesce(&child, ply + 1, -beta, -alpha, qdepth + 1);
            if self.limits.stopped() {
                return 0;
            }
            best = best.max(score);
            alpha = alpha.max(score);
            if alpha >= beta {
                break;
            }
        }
        best
    }
}

/// Orders moves for the search: captures by most valuable victim and least valuable
/// attacker, queen promotions, the killers, then the rest (a stable sort: at the root the
/// previous iteration's order breaks ties).
fn order(moves: &mut [Move], killers: &[Option<Move>; 2]) {
    moves.sort_by_key(|&m| {
        let mut key = 0;
        if let Some(victim) = m.capture() {
            key -= 10_000 + 10 * value(victim) - value(m.role()) / 10;
        }
        if m.promotion() == Some(Role::Queen) {
            key -= 9_000;
        }
        if killers.contains(&Some(m)) {
            key -= 5_000;
        }
        key
    });
}

/// A piece's worth in centipawns.
fn value(role: Role) -> i32 {
    match role {
        Role::Pawn => 100,
        Role::Knight => 320,
        Role::Bishop => 330,
        Role::Rook => 500,
        Role::Queen => 900,
        Role::King => 0,
    }
}

/// Piece-square tables from White's side, a8 first (rank 8 at the top, as a board is
/// drawn); Black reads them mirrored. From the "simplified evaluation function".
#[rustfmt::skip]
const PAWN_TABLE: [i32; 64] = [
     0,  0,  0,  0,  0,  0,  0,  0,
    50, 50, 50, 50, 50, 50, 50, 50,
    10, 10, 20, 30, 30, 20, 10, 10,
     5,  5, 10, 25, 25, 10,  5,  5,
     0,  0,  0, 20, 20,  0,  0,  0,
     5, -5,-10,  0,  0,-10, -5,  5,
     5, 10, 10,-20,-20, 10, 10,  5,
     0,  0,  0,  0,  0,  0,  0,  0,
];
#[rustfmt::skip]
const KNIGHT_TABLE: [i32; 64] = [
    -50,-40,-30,-30,-30,-30,-40,-50,
    -40,-20,  0,  0,  0,  0,-20,-40,
    -30,  0, 10, 15, 15, 10,  0,-30,
    -30,  5, 15, 20, 20, 15,  5,-30,
    -30,  0, 15, 20, 20, 15,  0,-30,
    -30,  5, 10, 15, 15, 10,  5,-30,
    -40,-20,  0,  5,  5,  0,-20,-40,
    -50,-40,-30,-30,-30,-30,-40,-50,
];
#[rustfmt::skip]
const BISHOP_TABLE: [i32; 64] = [
    -20,-10,-10,-10,-10,-10,-10,-20,
    -10,  0,  0,  0,  0,  0,  0,-10,
    -10,  0,  5, 10, 10,  5,  0,-10,
    -10,  5,  5, 10, 10,  5,  5,-10,
    -10,  0, 10, 10, 10, 10,  0,-10,
    -10, 10, 10, 10, 10, 10, 10,-10,
    -10,  5,  0,  0,  0,  0,  5,-10,
    -20,-10,-10,-10,-10,-10,-10,-20,
];
#[rustfmt::skip]
const ROOK_TABLE: [i32; 64] = [
     0,  0,  0,  0,  0,  0,  0,  0,
     5, 10, 10, 10, 10, 10, 10,  5,
    -5,  0,  0,  0,  0,  0,  0, -5,
    -5,  0,  0,  0,  0,  0,  0, -5,
    -5,  0,  0,  0,  0,  0,  0, -5,
    -5,  0,  0,  0,  0,  0,  0, -5,
    -5,  0,  0,  0,  0,  0,  0, -5,
     0,  0,  0,  5,  5,  0,  0,  0,
];
#[rustfmt::skip]
const QUEEN_TABLE: [i32; 64] = [
    -20,-10,-10, -5, -5,-10,-10,-20,
    -10,  0,  0,  0,  0,  0,  0,-10,
    -10,  0,  5,  5,  5,  5,  0,-10,
     -5,  0,  5,  5,  5,  5,  0, -5,
      0,  0,  5,  5,  5,  5,  0, -5,
    -10,  5,  5,  5,  5,  5,  0,-10,
    -10,  0,  5,  0,  0,  0,  0,-10,
    -20,-10,-10, -5, -5,-10,-10,-20,
];
#[rustfmt::skip]
const KING_TABLE: [i32; 64] = [
    -30,-40,-40,-50,-50,-40,-40,-30,
    -30,-40,-40,-50,-50,-40,-40,-30,
    -30,-40,-40,-50,-50,-40,-40,-30,
    -30,-40,-40,-50,-50,-40,-40,-30,
    -20,-30,-30,-40,-40,-30,-30,-20,
    -10,-20,-20,-20,-20,-20,-20,-10,
     20, 20,  0,  0,  0,  0, 20, 20,
     20, 30, 10,  0,  0, 10, 30, 20,
];

/// The table entry of `role` on `sq` for `color`.
fn square_bonus(role: Role, color: Color, sq: Square) -> i32 {
    let table = match role {
        Role::Pawn => &PAWN_TABLE,
        Role::Knight => &KNIGHT_TABLE,
        Role::Bishop => &BISHOP_TABLE,
        Role::Rook => &ROOK_TABLE,
        Role::Queen => &QUEEN_TABLE,
        Role::King => &KING_TABLE,
    };
    // The tables list a8 first; shakmaty counts a1 = 0.
    let white_sq = match color {
        Color::White => sq,
        Color::Black => sq.flip_vertical(),
    };
    table[white_sq.flip_vertical() as usize]
}

/// The squares a knight, bishop, rook or queen on `sq` attacks that its own side does not
/// occupy.
fn mobility(role: Role, sq: Square, occupied: Bitboard, own: Bitboard) -> i32 {
    let reach = match role {
        Role::Knight => attacks::knight_attacks(sq),
        Role::Bishop => attacks::bishop_attacks(sq, occupied),
        Role::Rook => attacks::rook_attacks(sq, occupied),
        Role::Queen => attacks::queen_attacks(sq, occupied),
        _ => Bitboard::EMPTY,
    };
    (reach & !own).count() as i32
}

/// The position's worth for the side to move, in centipawns: material, piece-square tables
/// and 3 centipawns per square of mobility (1 for the queen).
fn evaluate(pos: &Chess) -> i32 {
    let board = pos.board();
    let occupied = board.occupied();
    let mut white = 0;
    for sq in occupied {
        let Some(piece) = board.piece_at(sq) else {
            continue;
        };
        let own = board.by_color(piece.color);
        let weight = if piece.role == Role::Queen { 1 } else { 3 };
        let worth = value(piece.role)
            + square_bonus(piece.role, piece.color, sq)
            + weight * mobility(piece.role, sq, occupied, own);
        match piece.color {
            Color::White => white += worth,
            Color::Black => white -= worth,
        }
    }
    match pos.turn() {
        Color::White => white,
        Color::Black => -white,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fen(text: &str) -> Position {
        Position::from_fen(text).unwrap()
    }

    #[test]
    fn start_position_is_even_for_the_evaluation() {
        let pos = Position::start();
        assert_eq!(evaluate(pos.chess()), 0);
        assert_eq!(pos.chess().legal_moves().len(), 20);
    }

    #[test]
    fn takes_a_hanging_queen_from_level_two() {
        //   . . . . k . . .   8
        //   . . . . . . . .   7
        //   . . . q . . . .   6   Black's queen on d6 hangs to White's knight on c4.
        //   . . . . . . . .   5
        //   . . N . . . . .   4
        //   . . . . K . . .   3
        let pos = fen("4k3/8/3q4/8/2N5/4K3/8/8 w - - 0 1");
        for level in 2..=5 {
            let played = pos.think(Level::new(level).unwrap(), 11).unwrap();
            assert_eq!(played.uci, "c4d6", "level {level}");
        }
    }

    #[test]
    fn mate_is_chosen_over_material() {
        //   . . . . . . k .   8   Back-rank mate: Re8#.
        //   . . . . . p p p   7
        //   …
        //   r . . . . P P P   2
        //   . . . . R . K .   1
        let pos = fen("6k1/5ppp/8/8/8/8/r4PPP/4R1K1 w - - 0 1");
        let played = pos.think(Level::new(3).unwrap(), 2).unwrap();
        assert_eq!(played.uci, "e1e8");
    }

    #[test]
    fn no_move_when_mated() {
        let pos = fen("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1");
        assert!(pos.think(Level::new(5).unwrap(), 0).is_none());
    }
}
