//! The built-in shogi opponent: negamax alpha-beta over rsshogi's make/undo position (the
//! one our [`Position`] wraps), with quiescence on captures and iterative deepening. The
//! evaluation counts material (a piece in hand worth a tenth more than on the board,
//! promoted pieces their own value), mobility, and a light king safety: the squares next to
//! the king the opponent attacks, and the golds and silvers beside it. Moves come from
//! rsshogi's legal generator (which knows 二歩, 打ち歩詰め and the pieces with no move), and
//! the chosen move is played through [`Position::play`], so it is always one of
//! [`legal_moves`](Position::legal_moves).
//!
//! ```
//! use qiyuan::play::computer::Computer;
//! use qiyuan::play::Level;
//! use qiyuan::rules::shogi::Position;
//! //   9 8 7 6 5 4 3 2 1
//! //   . . . . . . . . k  a     Black mates with G*1b: the gold is guarded by the pawn
//! //   . . . . . . . . .  b     on 1c.
//! //   . . . . . . . . P  c
//! let pos = Position::from_sfen("8k/9/8P/9/9/9/9/9/4K4 b G 1").unwrap();
//! let played = pos.think(Level::new(2).unwrap(), 1).unwrap();
//! assert_eq!(played.usi, "G*1b");
//! ```

use super::{deadline, noisy_best, root_bound, Computer, Limits, SearchStrength, INFINITY, MATE};
use crate::play::Level;
use crate::rules::shogi::{Played, Position};
use rsshogi::board::{self as rb, Move32List};
use rsshogi::movegen::{generate_moves_move32, Legal};
use rsshogi::types::{Bitboard, Color, HandPiece, Move32, PieceType};
use std::time::{Duration, Instant};

/// The searches of levels 1 to 5: `(depth, quiescence, noise, nodes)`, a pawn 100.
const LEVELS: [(u8, bool, i32, u64); 5] = [
    (1, false, 300, 5_000),
    (2, true, 80, 30_000),
    (3, true, 30, 150_000),
    (4, true, 10, 300_000),
    (5, true, 0, 700_000),
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

/// The move of a shogi opponent of `strength` in `pos`, the search stopping at `until`;
/// `None` when the side to move has no legal move (or the game is over by repetition).
pub fn think_with(
    pos: &Position,
    strength: SearchStrength,
    seed: u64,
    until: Instant,
) -> Option<Played> {
    let legal = pos.legal_moves();
    if legal.is_empty() || pos.outcome().is_some() {
        return None;
    }
    let mut search = Search {
        limits: Limits::new(strength.nodes, until),
        quiescence: strength.quiescence,
    };
    let mut inner = pos.inner.clone();
    let best = search.root(
        &mut inner,
        strength.depth.max(1) as i32,
        strength.noise,
        seed,
    );
    let chosen = best.and_then(|m| pos.play(&m.to_move().to_usi()).ok().map(|(_, p)| p));
    // rsshogi's generator and our rules agree (both are rsshogi's); should they ever not,
    // the first of our legal moves is still a legal move.
    chosen.or_else(|| legal.into_iter().next())
}

/// The legal moves of `pos` (rsshogi's `Legal`: without the non-promotions of pawns,
/// bishops and rooks that only lose).
fn moves_of(pos: &rb::Position) -> Move32List {
    let mut list = Move32List::new();
    generate_moves_move32::<Legal>(pos, &mut list);
    list
}

/// One search: its limits.
struct Search {
    limits: Limits,
    quiescence: bool,
}

impl Search {
    /// Iterative deepening at the root: the move with the best score plus its noise, from
    /// the deepest iteration that finished (the first one is used even if cut short).
    fn root(
        &mut self,
        pos: &mut rb::Position,
        depth: i32,
        amplitude: i32,
        seed: u64,
    ) -> Option<Move32> {
        let mut moves: Vec<Move32> = moves_of(pos).iter().copied().collect();
        if moves.is_empty() {
            return None;
        }
        order(pos, &mut moves);
        let mut best = moves[0];
        for d in 1..=depth {
            let mut scored: Vec<(i32, Move32)> = Vec::with_capacity(moves.len());
            let mut best_raw = -INFINITY;
            for &m in &moves {
                let alpha = root_bound(best_raw, amplitude);
                let check = pos.gives_check_move32(m);
                pos.apply_move32_with_gives_check(m, check);
                let raw = -self.negamax(pos, d - 1, 1, -INFINITY, -alpha);
                pos.undo_move32(m).expect("undo the move just applied");
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
            best = noisy_best(&scored, amplitude, seed, |m: Move32| m.raw() as u64).unwrap_or(best);
            if self.limits.stopped() || scored.first().is_some_and(|&(raw, _)| raw > MATE / 2) {
                break;
            }
        }
        Some(best)
    }

    fn negamax(
        &mut self,
        pos: &mut rb::Position,
        depth: i32,
        ply: i32,
        mut alpha: i32,
        beta: i32,
    ) -> i32 {
        if self.limits.spend() {
            return 0;
        }
        let list = moves_of(pos);
        if list.is_empty() {
            return -(MATE - ply);
        }
        if depth <= 0 {
            return if self.quiescence {
                self.quiesce(pos, ply, alpha, beta, 0, &list)
            } else {
                evaluate(pos)
            };
        }
        let mut moves: Vec<Move32> = list.iter().copied().collect();
        order(pos, &mut moves);
        let mut best = -INFINITY;
        for m in moves {
            let check = pos.gives_check_move32(m);
            pos.apply_move32_with_gives_check(m, check);
            let score = -self.negamax(pos, depth - 1, ply + 1, -beta, -alpha);
            pos.undo_move32(m).expect("undo the move just applied");
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

    /// Captures only until the position is quiet; in check every move (a few plies deep).
    fn quiesce(
        &mut self,
        pos: &mut rb::Position,
        ply: i32,
        mut alpha: i32,
        beta: i32,
        qdepth: u8,
        list: &Move32List,
    ) -> i32 {
        let in_check = pos.is_in_check() && qdepth < 3;
        let stand = evaluate(pos);
        if !in_check {
            if stand >= beta {
                return stand;
            }
            alpha = alpha.max(stand);
        }
        let mut moves: Vec<Move32> = list
            .iter()
            .copied()
            .filter(|&m| in_check || pos.is_capture_move32(m))
            .collect();
        order(pos, &mut moves);
        let mut best = if in_check { -INFINITY } else { stand };
        for m in moves {
            let check = pos.gives_check_move32(m);
            pos.apply_move32_with_gives_check(m, check);
            let score = if self.limits.spend() {
                0
            } else {
                let replies = moves_of(pos);
                if replies.is_empty() {
                    MATE - ply - 1
                } else {
                    -self.quiesce(pos, ply + 1, -beta, -alpha, qdepth + 1, &replies)
                }
            };
            pos.undo_move32(m).expect("undo the move just applied");
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

/// Orders moves: captures by most valuable victim, then promotions, then checks, then the
/// rest.
fn order(pos: &rb::Position, moves: &mut [Move32]) {
    moves.sort_by_cached_key(|&m| {
        let mut key = 0;
        if !m.is_drop() {
            let victim = pos.piece_on(m.to_sq());
            if victim != rsshogi::types::Piece::NONE {
                key -= 10_000 + value(victim.piece_type());
            }
        }
        if m.is_promotion() {
            key -= 3_000;
        }
        if pos.gives_check_move32(m) {
            key -= 1_000;
        }
        key
    });
}

/// A piece's worth on the board (a pawn is 100).
fn value(pt: PieceType) -> i32 {
    match pt {
        PieceType::PAWN => 100,
        PieceType::LANCE => 300,
        PieceType::KNIGHT => 350,
        PieceType::SILVER => 500,
        PieceType::GOLD => 550,
        PieceType::BISHOP => 800,
        PieceType::ROOK => 950,
        PieceType::PRO_PAWN => 550,
        PieceType::PRO_LANCE => 550,
        PieceType::PRO_KNIGHT => 550,
        PieceType::PRO_SILVER => 560,
        PieceType::HORSE => 1_100,
        PieceType::DRAGON => 1_300,
        _ => 0,
    }
}

/// The piece kinds on the board other than the king.
const BOARD_KINDS: [PieceType; 13] = [
    PieceType::PAWN,
    PieceType::LANCE,
    PieceType::KNIGHT,
    PieceType::SILVER,
    PieceType::GOLD,
    PieceType::BISHOP,
    PieceType::ROOK,
    PieceType::PRO_PAWN,
    PieceType::PRO_LANCE,
    PieceType::PRO_KNIGHT,
    PieceType::PRO_SILVER,
    PieceType::HORSE,
    PieceType::DRAGON,
];

/// One side's material, mobility and king safety.
fn side_worth(pos: &rb::Position, color: Color) -> i32 {
    let own = pos.pieces_by_color(color);
    let mut worth = 0;
    let mut attacked = Bitboard::EMPTY;
    for pt in BOARD_KINDS {
        let count = pos.pieces_for(pt, color).count() as i32;
        if count == 0 {
            continue;
        }
        worth += count * value(pt);
        let reach = pos.attacks_by(color, pt);
        attacked |= reach;
        if matches!(
            pt,
            PieceType::LANCE
                | PieceType::BISHOP
                | PieceType::ROOK
                | PieceType::HORSE
                | PieceType::DRAGON
        ) {
            worth += 2 * reach.and_not(own).count() as i32;
        }
    }
    let hand = pos.hand(color);
    for hp in HandPiece::iter() {
        worth += hand.count(hp) as i32 * value(hp.to_piece_type()) * 11 / 10;
    }
    // Around the opponent's king: every square this side attacks there is a threat.
    let foe = color.flip();
    if pos.pieces_for(PieceType::KING, foe).any() {
        let ring = pos.attacks_by(foe, PieceType::KING);
        worth += 12 * attacked.and(ring).count() as i32;
    }
    if pos.pieces_for(PieceType::KING, color).any() {
        let ring = pos.attacks_by(color, PieceType::KING);
        let guards = pos
            .pieces_for(PieceType::GOLD, color)
            .or(pos.pieces_for(PieceType::SILVER, color));
        worth += 15 * guards.and(ring).count() as i32;
    }
    worth
}

/// The position's worth for the side to move.
fn evaluate(pos: &rb::Position) -> i32 {
    let us = pos.turn();
    side_worth(pos, us) - side_worth(pos, us.flip())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sfen(text: &str) -> Position {
        Position::from_sfen(text).unwrap()
    }

    #[test]
    fn start_position_is_even_for_the_evaluation() {
        assert_eq!(evaluate(&Position::start().inner), 0);
    }

    #[test]
    fn takes_a_free_rook_from_level_two() {
        //   9 8 7 6 5 4 3 2 1
        //   . . . . k . . . .  a
        //   …
        //   . . . . r . . . .  e     White's rook on 5e hangs to Black's bishop on 7g.
        //   . . . . . . . . .  f
        //   . . B . . . . . .  g
        //   …
        //   . . . . K . . . .  i
        let pos = sfen("4k4/9/9/9/4r4/9/2B6/9/3K5 b - 1");
        for level in 2..=5 {
            let played = pos.think(Level::new(level).unwrap(), 3).unwrap();
            assert_eq!(played.to.usi(), "5e", "level {level}: {}", played.usi);
        }
    }

    #[test]
    fn no_move_when_mated() {
        let pos = sfen("8k/8G/8P/9/9/9/9/9/4K4 w - 1");
        assert!(pos.think(Level::new(3).unwrap(), 0).is_none());
    }
}
