//! The built-in xiangqi opponent: negamax alpha-beta over [`Position`] with quiescence on
//! captures, move ordering (the previous iteration's scores at the root, captures by most
//! valuable victim and least valuable attacker, killers) and iterative deepening. The
//! evaluation is material (a soldier across the river worth twice one at home) and small
//! piece-square tables. Level 1 looks one move ahead without quiescence and adds much noise
//! to its choice; each level above looks deeper with less noise.
//!
//! Repetition follows the rules our [`Position`] judges: a position arising the third time
//! ends the game, and the lone perpetual checker loses (长将判负). Inside the search a
//! position that has arisen once before already counts as that end when one side alone
//! has checked with every move since, so the opponent never starts a perpetual check that
//! would lose; any other repetition scores as a draw. The chosen move is one of
//! [`Position::legal_moves`], so it is always legal.
//!
//! ```
//! use qiyuan::play::computer::Computer;
//! use qiyuan::play::Level;
//! use qiyuan::rules::xiangqi::{Outcome, Color, Position};
//! // Red mates with the chariot a1–d1: the black king on d9 may not step to e9, where it
//! // would face Red's king (将帅照面), and d8 is on the chariot's file.
//! //   . . . k . . . . .   9
//! //   …
//! //   R . . . . . . . .   1
//! //   . . . . K . . . .   0
//! //   a b c d e f g h i
//! let pos = Position::from_fen("3k5/9/9/9/9/9/9/9/R8/4K4 w - - 0 1").unwrap();
//! let mv = pos.think(Level::new(2).unwrap(), 1).unwrap();
//! assert_eq!(mv.iccs(), "a1d1");
//! let mut after = pos.clone();
//! after.apply(mv);
//! assert_eq!(after.outcome(), Some(Outcome::Checkmate { winner: Color::Red }));
//! ```
//!
//! Glue still to write where the games are listed (not here): the xiangqi arm of the
//! table's dispatch over games, calling [`Computer::think`] on this position as for chess.

use super::{deadline, noisy_best, root_bound, Computer, Limits, SearchStrength, INFINITY, MATE};
use crate::play::Level;
use crate::rules::xiangqi::{Color, Kind, Move, Point, Position};
use std::time::{Duration, Instant};

/// The searches of levels 1 to 5: `(depth, quiescence, noise, nodes)`, a soldier 100.
const LEVELS: [(u8, bool, i32, u64); 5] = [
    (1, false, 300, 3_000),
    (2, true, 80, 12_000),
    (3, true, 30, 30_000),
    (4, true, 10, 60_000),
    (5, true, 0, 100_000),
];

/// The search of `level`.
pub fn strength(level: Level) -> SearchStrength {
    SearchStrength::of_level(level, &LEVELS)
}

impl Computer for Position {
    fn think(&self, level: Level, seed: u64) -> Option<Move> {
        let until = deadline(self.think_budget(level));
        think_with(self, strength(level), seed, until)
    }

    fn think_budget(&self, _level: Level) -> Duration {
        Duration::from_secs(1)
    }
}

/// The move of the opponent of `level` in `pos` with the noise of `seed`, or `None` when
/// the game is over (no legal move, or ended by repetition). The same as
/// [`Computer::think`].
pub fn choose(pos: &Position, level: Level, seed: u64) -> Option<Move> {
    pos.think(level, seed)
}

/// The move of an opponent of `strength` in `pos`, the search stopping at `until`; `None`
/// when the game is over.
pub fn think_with(
    pos: &Position,
    strength: SearchStrength,
    seed: u64,
    until: Instant,
) -> Option<Move> {
    if pos.outcome().is_some() {
        return None;
    }
    let mut search = Search {
        limits: Limits::new(strength.nodes, until),
        quiescence: strength.quiescence,
        killers: vec![[None; 2]; 64],
    };
    search.root(pos, strength.depth.max(1) as i32, strength.noise, seed)
}

/// A name for a move that does not depend on the order moves come in.
fn salt(m: Move) -> u64 {
    m.from.index() as u64 * 90 + m.to.index() as u64
}

/// `pos` after `m`.
fn after(pos: &Position, m: Move) -> Position {
    let mut child = pos.clone();
    child.apply(m);
    child
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
    fn root(&mut self, pos: &Position, depth: i32, amplitude: i32, seed: u64) -> Option<Move> {
        let mut moves = pos.legal_moves();
        if moves.is_empty() {
            return None;
        }
        // A move that leaves the other side no move wins at once, a mate (将死) rather
        // than a stalemate (困毙, which wins too); they are looked for first so that no
        // budget, however short, can miss them.
        let mut stalemate = None;
        for &m in &moves {
            let child = after(pos, m);
            if child.legal_moves().is_empty() {
                if child.is_check() {
                    return Some(m);
                }
                stalemate = stalemate.or(Some(m));
            }
        }
        if stalemate.is_some() {
            return stalemate;
        }
        order(&mut moves, &[None; 2]);
        let mut best = moves[0];
        for d in 1..=depth {
            let mut scored: Vec<(i32, Move)> = Vec::with_capacity(moves.len());
            let mut best_raw = -INFINITY;
            for &m in &moves {
                let alpha = root_bound(best_raw, amplitude);
                let raw = -self.negamax(&after(pos, m), d - 1, 1, -INFINITY, -alpha);
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

    fn negamax(
        &mut self,
        pos: &Position,
        depth: i32,
        ply: usize,
        mut alpha: i32,
        beta: i32,
    ) -> i32 {
        if depth <= 0 && self.quiescence {
            if let Some(score) = repetition(pos, ply) {
                return score;
            }
            return self.quiesce(pos, ply, alpha, beta, 0);
        }
        if self.limits.spend() {
            return 0;
        }
        let mut moves = pos.legal_moves();
        if moves.is_empty() {
            // 将死 and 困毙 both lose.
            return -(MATE - ply as i32);
        }
        if let Some(score) = repetition(pos, ply) {
            return score;
        }
        if depth <= 0 {
            return evaluate(pos);
        }
        let killers = self.killers.get(ply).copied().unwrap_or([None; 2]);
        order(&mut moves, &killers);
        let mut best = -INFINITY;
        for m in moves {
            let score = -self.negamax(&after(pos, m), depth - 1, ply + 1, -beta, -alpha);
            if self.limits.stopped() {
                return 0;
            }
            best = best.max(score);
            alpha = alpha.max(score);
            if alpha >= beta {
                if m.captured.is_none() {
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

    /// Captures only, until the position is quiet; in check every move (four plies deep at
    /// most). Out of check the position's own worth is a lower bound (stand pat), taken
    /// before the moves are generated: the cheap cut-off that makes quiescence affordable,
    /// at the price of not seeing a 困毙 there.
    fn quiesce(
        &mut self,
        pos: &Position,
        ply: usize,
        mut alpha: i32,
        beta: i32,
        qdepth: u8,
    ) -> i32 {
        if self.limits.spend() {
            return 0;
        }
        let in_check = pos.is_check() && qdepth < 4;
        let mut stand = -INFINITY;
        if !in_check {
            stand = evaluate(pos);
            if stand >= beta {
                return stand;
            }
            alpha = alpha.max(stand);
        }
        let all = pos.legal_moves();
        if all.is_empty() {
            return -(MATE - ply as i32);
        }
        let mut moves: Vec<Move> = if in_check {
            all
        } else {
            all.into_iter().filter(|m| m.captured.is_some()).collect()
        };
        order(&mut moves, &[None; 2]);
        let mut best = stand;
        for m in moves {
            let child = after(pos, m);
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

/// The score for the side to move of a position that has arisen before, if the search
/// should stop there: the lone perpetual checker loses (at the first repetition already,
/// see the module's doc), any other repetition is a draw.
fn repetition(pos: &Position, ply: usize) -> Option<i32> {
    let times = pos.repetitions();
    if times == 0 {
        return None;
    }
    Some(match pos.perpetual_checker(times.min(2)) {
        Some(loser) if loser == pos.turn() => -(MATE - ply as i32),
        Some(_) => MATE - ply as i32,
        None => 0,
    })
}

/// Orders moves for the search: captures by most valuable victim and least valuable
/// attacker, the killers, then the rest (a stable sort: at the root the previous
/// iteration's order breaks ties).
fn order(moves: &mut [Move], killers: &[Option<Move>; 2]) {
    moves.sort_by_key(|&m| {
        let mut key = 0;
        if let Some(victim) = m.captured {
            key -= 10_000 + 10 * value(victim) - value(m.piece) / 10;
        }
        if killers.contains(&Some(m)) {
            key -= 5_000;
        }
        key
    });
}

/// A piece's worth, a soldier at home 100 (the king 0: it is never taken).
fn value(kind: Kind) -> i32 {
    match kind {
        Kind::Rook => 900,
        Kind::Cannon => 450,
        Kind::Horse => 400,
        Kind::Advisor | Kind::Elephant => 200,
        Kind::Pawn => 100,
        Kind::King => 0,
    }
}

/// The bonus of `kind` on `file` (0–8) and `rank` counted from its own side (0 = its
/// back rank, 9 = the other side's).
fn square_bonus(kind: Kind, file: i8, rank: i8) -> i32 {
    // 0 on the middle file, 4 on the edges.
    let side = (file - 4).abs() as i32;
    let rank = rank as i32;
    match kind {
        // Across the river a soldier doubles in worth and may step sideways; nearer the
        // palace it is better, on the last rank it can only step sideways.
        Kind::Pawn => match rank {
            0..=4 => 0,
            9 => 40,
            5 | 6 => 100 + 8 * (4 - side),
            _ => 120 + 10 * (4 - side),
        },
        // A horse likes the middle and the other side of the river, not the edges.
        Kind::Horse => {
            let forward = match rank {
                0 => -20,
                1..=4 => 0,
                5..=7 => 30,
                _ => 10,
            };
            forward + 20 - 8 * side
        }
        // A chariot likes open files toward the middle and the other side's ranks.
        Kind::Rook => (if rank >= 5 { 20 } else { 0 }) + 10 - 3 * side,
        // The cannon is strongest on the middle file (当头炮) and on its own side.
        Kind::Cannon => (if file == 4 { 20 } else { 0 }) + if rank <= 4 { 5 } else { 0 },
        Kind::Advisor | Kind::Elephant => {
            if file == 4 {
                10
            } else {
                0
            }
        }
        // The king is safest at home.
        Kind::King => -10 * rank,
    }
}

/// The position's worth for the side to move: material and piece-square tables.
fn evaluate(pos: &Position) -> i32 {
    let mut red = 0;
    for at in Point::all() {
        let Some((color, kind)) = pos.piece_at(at) else {
            continue;
        };
        let rank = match color {
            Color::Red => at.rank(),
            Color::Black => 9 - at.rank(),
        };
        let worth = value(kind) + square_bonus(kind, at.file(), rank);
        match color {
            Color::Red => red += worth,
            Color::Black => red -= worth,
        }
    }
    match pos.turn() {
        Color::Red => red,
        Color::Black => -red,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::xiangqi::Outcome;

    const MATE_IN_ONE: &str = "3k5/9/9/9/9/9/9/9/R8/4K4 w - - 0 1";

    fn fen(text: &str) -> Position {
        Position::from_fen(text).unwrap()
    }

    #[test]
    fn start_position_is_even_for_the_evaluation() {
        assert_eq!(evaluate(&Position::start()), 0);
        let (next, _) = Position::start().play("h2e2").unwrap();
        // After the central cannon Red is better, seen from Black's side to move.
        assert!(evaluate(&next) < 0);
    }

    #[test]
    fn mates_in_one_at_every_level() {
        //   . . . k . . . . .   9   Red's chariot a1–d1 mates: e9 faces Red's king,
        //   …                       d8 is on the chariot's file.
        //   R . . . . . . . .   1
        //   . . . . K . . . .   0
        let pos = fen(MATE_IN_ONE);
        for level in 1..=5 {
            let mv = pos.think(Level::new(level).unwrap(), 3).unwrap();
            assert_eq!(mv.iccs(), "a1d1", "level {level}");
            assert!(matches!(
                after(&pos, mv).outcome(),
                Some(Outcome::Checkmate { winner: Color::Red })
            ));
        }
    }

    #[test]
    fn takes_a_free_chariot_from_level_two() {
        //   . . . k . . . . .   9
        //   …
        //   . . . . r . . . .   5   Black's chariot on e5 hangs to the horse on d3.
        //   . . . . . . . . .   4
        //   . . . N . . . . .   3
        //   …
        //   . . . . K . . . .   0 (on f0)
        let pos = fen("3k5/9/9/9/4r4/9/3N5/9/9/5K3 w - - 0 1");
        for level in 2..=5 {
            let mv = pos.think(Level::new(level).unwrap(), 5).unwrap();
            assert_eq!(mv.iccs(), "d3e5", "level {level}");
        }
    }

    #[test]
    fn no_move_when_the_game_is_over() {
        let (mated, _) = fen(MATE_IN_ONE).play("a1d1").unwrap();
        assert!(mated.think(Level::new(5).unwrap(), 0).is_none());
    }

    #[test]
    fn a_losing_perpetual_check_is_not_started() {
        // Red's chariot checks from d1 and e1 in turn, the black king steps d9–e9–d9:
        //   . . . k . . . . .   9
        //   …
        //   . . . . R . . . .   1
        //   . . . . . K . . .   0
        let mut pos = fen("3k5/9/9/9/9/9/9/9/4R4/5K3 w - - 0 1");
        for text in ["e1d1", "d9e9", "d1e1", "e9d9"] {
            pos.play_in_place(text).unwrap();
        }
        // The start has come back once; checking on d1 again repeats the position after
        // Red's first check, Red having checked with every move since: Red would be the
        // lone perpetual checker, so Black (to move there) is scored as winning.
        assert_eq!(pos.repetitions(), 1);
        let again = after(&pos, pos.read_move("e1d1").unwrap());
        assert_eq!(repetition(&again, 0), Some(MATE));
        // A quiet repetition is a draw.
        let mut quiet = fen("3k5/9/9/9/9/9/9/9/4R4/5K3 w - - 0 1");
        for text in ["e1e2", "d9d8", "e2e1", "d8d9"] {
            quiet.play_in_place(text).unwrap();
        }
        assert_eq!(repetition(&quiet, 0), Some(0));
        // And the opponent avoids the losing repetition when it has another move.
        let mv = pos.think(Level::new(3).unwrap(), 1).unwrap();
        assert_ne!(mv.iccs(), "e1d1");
    }

    #[test]
    fn strength_rises_with_the_level() {
        let s: Vec<SearchStrength> = (1..=5).map(|l| strength(Level::new(l).unwrap())).collect();
        assert!(s
            .windows(2)
            .all(|w| w[0].depth <= w[1].depth && w[0].nodes < w[1].nodes));
        assert!(s.windows(2).all(|w| w[0].noise >= w[1].noise));
    }
}
