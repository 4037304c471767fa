//! The built-in Go opponent: tactical rules at level 1, Monte-Carlo playouts above, on the
//! make/undo [`SearchBoard`]; and the dead stones it proposes at the end of a game.
//!
//! Level 1 captures when it can (the biggest chain first), saves a chain in atari when one
//! move gives it two liberties, and otherwise plays a random move that neither fills one of
//! its own eyes nor puts its own stones in atari. Levels 2 to 5 play flat Monte-Carlo: the
//! root moves are chosen by UCB1, each followed by a random playout to the end, counted by
//! area with the game's komi ([`KOMI`] unless [`Strength::with_komi`] says otherwise; a game
//! table tells it the komi and handicap of its start); the moves of level 1 start with a few
//! virtual wins. The most visited move is played, unless it lies on a point the playouts
//! show settled (owned by one side in nine playouts of ten): then the next, and a pass when
//! every move is such. Against a pass the computer passes too when counting the board now
//! (its dead stones by the playouts) wins, so two passes end a game.
//!
//! ```
//! use qiyuan::play::computer::Computer;
//! use qiyuan::play::Level;
//! use qiyuan::rules::go::{Board, Color, Move, Position};
//! //   . O X . .      White's stone on B5 has one liberty, A5: level 1 takes it.
//! //   . X . . .
//! //   . . . . .
//! //   . . . . .
//! //   . . . . .
//! let board = Board::from_text(5, "
//!     . O X . .
//!     . X . . .
//!     . . . . .
//!     . . . . .
//!     . . . . .").unwrap();
//! let pos = Position::new(board, Color::Black);
//! let a5 = pos.board().point("A5").unwrap();
//! assert_eq!(pos.think(Level::new(1).unwrap(), 3), Some(Move::Play(a5)));
//! ```

use super::{deadline, Computer};
use crate::play::Level;
use crate::rules::go::{Color, Move, Point, Position, SearchBoard, SplitMix64};
use std::time::{Duration, Instant};

/// The komi the playouts count with, in points of area (3¾ stones).
pub const KOMI: f64 = 7.5;

/// How the Go opponent of a level plays: tactical rules alone, or so many playouts.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Strength {
    /// Monte-Carlo playouts per move; 0 plays the tactical rules alone (level 1).
    pub playouts: usize,
    /// What White gets at the count, in points of area: [`KOMI`] unless the game says
    /// otherwise (see [`Strength::with_komi`]).
    pub komi: f64,
}

impl Strength {
    /// The strength of `level` on a board of `size`: playouts fall with the board's area so
    /// that a move stays within [`Computer::think_budget`] (about 12,000 playouts a second
    /// on 9×9 and 3,000 on 19×19 from the middle game, on one core of this machine).
    pub fn of(level: Level, size: u8) -> Strength {
        let nine = match level.get() {
            1 => 0,
            2 => 400,
            3 => 1_500,
            4 => 3_500,
            _ => 7_000,
        };
        let area = (size as usize * size as usize).max(1);
        // A playout is about as long as the board's area, and larger boards get twice the
        // time, of which three quarters for playouts: those of 9×9 times 1.5·81/n².
        let scaled = if area <= 81 {
            nine
        } else {
            nine * 3 * 81 / (2 * area)
        };
        Strength {
            playouts: scaled,
            komi: KOMI,
        }
    }

    /// The same search, counting with `komi` points of area for White (a handicap game's
    /// komi, with what Black gives back under Chinese rules).
    pub fn with_komi(self, komi: f64) -> Strength {
        Strength { komi, ..self }
    }
}

impl Computer for Position {
    fn think(&self, level: Level, seed: u64) -> Option<Move> {
        let until = deadline(self.think_budget(level));
        think_with(self, Strength::of(level, self.size()), seed, until)
    }

    fn think_budget(&self, _level: Level) -> Duration {
        if self.size() <= 9 {
            Duration::from_secs(1)
        } else {
            Duration::from_secs(2)
        }
    }
}

/// The move of a Go opponent of `strength` in `pos`, stopping the playouts at `until`; `None`
/// once the game is over (two passes).
pub fn think_with(pos: &Position, strength: Strength, seed: u64, until: Instant) -> Option<Move> {
    if pos.consecutive_passes() >= 2 {
        return None;
    }
    let mut board = SearchBoard::from_position(pos);
    let mut rng = SplitMix64(seed ^ 0x60_60_60);
    if strength.playouts == 0 {
        return Some(tactical_move(&mut board, &mut rng));
    }
    Some(monte_carlo_move(pos, &mut board, strength, &mut rng, until))
}

/// The chains on the board: (representative vertex, colour, liberty count, size).
fn chains(board: &SearchBoard) -> Vec<(usize, Color, usize, usize)> {
    let mut out = Vec::new();
    for v in 0..board.grid_len() {
        if let Some(c) = board.cell(v) {
            if board.chain_id(v) == v {
                out.push((
                    v,
                    c,
                    board.chain_lib_count(v),
                    board.chain_stones(v).count(),
                ));
            }
        }
    }
    out
}

/// Whether the side to play may play on the empty vertex `v` sensibly: legal, not one of its
/// own single-point eyes.
fn playable(board: &SearchBoard, v: usize) -> bool {
    let color = board.turn();
    board.is_empty_vertex(v) && !board.is_own_eye(v, color) && board.check_vertex(v, color).is_ok()
}

/// Whether the stone the side to play would put on `v` (legal) ends in atari without having
/// captured anything: a self-atari. A lone stone that fills a point of the opponent's eye
/// is a self-atari too.
fn is_self_atari(board: &mut SearchBoard, v: usize) -> bool {
    let before = board.prisoners(board.turn());
    let mover = board.turn();
    board.play_legal(v);
    let atari = board.chain_lib_count(v) <= 1 && board.prisoners(mover) == before;
    board.undo();
    atari
}

/// The liberty that saves the chain at `r` (in atari): the one after which the chain has two
/// liberties or more, if it is playable.
fn escape(board: &mut SearchBoard, r: usize) -> Option<usize> {
    let lib = board.chain_libs(r).iter().next()?;
    if !playable(board, lib) {
        return None;
    }
    board.play_legal(lib);
    let libs = board.chain_lib_count(lib);
    board.undo();
    (libs >= 2).then_some(lib)
}

/// The tactical moves for the side to play, the most urgent first: captures (the biggest
/// chain first), then escapes from atari (the biggest chain first).
fn tactical_moves(board: &mut SearchBoard) -> Vec<usize> {
    let me = board.turn();
    let mut all = chains(board);
    all.sort_by_key(|&(v, _, _, size)| (std::cmp::Reverse(size), v));
    let mut moves = Vec::new();
    for &(r, color, libs, _) in &all {
        if color != me && libs == 1 {
            if let Some(lib) = board.chain_libs(r).iter().next() {
                if playable(board, lib) && !moves.contains(&lib) {
                    moves.push(lib);
                }
            }
        }
    }
    for &(r, color, libs, _) in &all {
        if color == me && libs == 1 {
            if let Some(lib) = escape(board, r) {
                if !moves.contains(&lib) {
                    moves.push(lib);
                }
            }
        }
    }
    moves
}

/// Level 1: a capture, else an escape, else a random playable move that is no self-atari,
/// else a pass.
fn tactical_move(board: &mut SearchBoard, rng: &mut SplitMix64) -> Move {
    if let Some(&v) = tactical_moves(board).first() {
        return Move::Play(board.point(v));
    }
    let mut empties: Vec<usize> = (0..board.grid_len())
        .filter(|&v| board.is_empty_vertex(v))
        .collect();
    for i in 0..empties.len() {
        let j = i + rng.below(empties.len() - i);
        empties.swap(i, j);
        let v = empties[i];
        if playable(board, v) && !is_self_atari(board, v) {
            return Move::Play(board.point(v));
        }
    }
    Move::Pass
}

/// Who owns each vertex of a board played out to the end, counted by area: a stone's
/// colour, or the colour of every stone next to an empty point (`None` when both or none).
fn area_owner(board: &SearchBoard, v: usize) -> Option<Color> {
    if let Some(c) = board.cell(v) {
        return Some(c);
    }
    let mut owner = None;
    for n in board.neighbours(v) {
        if let Some(c) = board.cell(n) {
            match owner {
                None => owner = Some(c),
                Some(o) if o != c => return None,
                _ => {}
            }
        }
    }
    owner
}

/// Black's area minus White's on a board played out to the end.
fn area_margin(board: &SearchBoard) -> i32 {
    let mut margin = 0;
    for v in 0..board.grid_len() {
        if board.on_board(v) {
            match area_owner(board, v) {
                Some(Color::Black) => margin += 1,
                Some(Color::White) => margin -= 1,
                None => {}
            }
        }
    }
    margin
}

/// Ownership gathered over playouts: per vertex, how often Black and White owned it.
struct Ownership {
    black: Vec<u32>,
    white: Vec<u32>,
    playouts: u32,
}

impl Ownership {
    fn new(len: usize) -> Ownership {
        Ownership {
            black: vec![0; len],
            white: vec![0; len],
            playouts: 0,
        }
    }

    /// Counts the owners of a board played out to the end.
    fn add(&mut self, board: &SearchBoard) {
        for v in 0..board.grid_len() {
            if board.on_board(v) {
                match area_owner(board, v) {
                    Some(Color::Black) => self.black[v] += 1,
                    Some(Color::White) => self.white[v] += 1,
                    None => {}
                }
            }
        }
        self.playouts += 1;
    }

    /// How often `color` owned `v`, from 0 to 1.
    fn share(&self, v: usize, color: Color) -> f64 {
        let n = match color {
            Color::Black => self.black[v],
            Color::White => self.white[v],
        };
        n as f64 / self.playouts.max(1) as f64
    }

    /// Whether one side owned `v` in nine playouts of ten.
    fn settled(&self, v: usize) -> bool {
        self.share(v, Color::Black) >= 0.9 || self.share(v, Color::White) >= 0.9
    }
}

/// Plays a random playout from the board as it is, counts it for `ownership`, takes it
/// back, and says whether `color` won it.
fn playout(
    board: &mut SearchBoard,
    rng: &mut SplitMix64,
    color: Color,
    komi: f64,
    ownership: &mut Ownership,
) -> bool {
    let area = board.size() as usize * board.size() as usize;
    let played = board.random_playout(rng, 3 * area + 20);
    let margin = area_margin(board) as f64 - komi;
    ownership.add(board);
    for _ in 0..played {
        board.undo();
    }
    (margin > 0.0) == (color == Color::Black)
}

/// One root move of the Monte-Carlo search and its record.
struct Arm {
    vertex: usize,
    wins: f64,
    visits: f64,
}

/// Levels 2 to 5: UCB1 over the playable moves, a playout after each.
fn monte_carlo_move(
    pos: &Position,
    board: &mut SearchBoard,
    strength: Strength,
    rng: &mut SplitMix64,
    until: Instant,
) -> Move {
    let (playouts, komi) = (strength.playouts, strength.komi);
    let me = board.turn();
    let tactical = tactical_moves(board);
    let mut arms: Vec<Arm> = (0..board.grid_len())
        .filter(|&v| playable(board, v))
        .map(|v| {
            let prior = if tactical.contains(&v) { 5.0 } else { 0.0 };
            Arm {
                vertex: v,
                wins: prior,
                visits: prior,
            }
        })
        .collect();
    let mut ownership = Ownership::new(board.grid_len());
    if arms.is_empty() {
        return Move::Pass;
    }
    let mut total = arms.iter().map(|a| a.visits).sum::<f64>();
    for n in 0..playouts {
        if n % 64 == 63 && Instant::now() >= until {
            break;
        }
        let log_total = (total + 1.0).ln();
        let pick = arms
            .iter()
            .enumerate()
            .map(|(i, a)| {
                let score = if a.visits == 0.0 {
                    f64::INFINITY
                } else {
                    a.wins / a.visits + (1.4 * log_total / a.visits).sqrt()
                };
                (i, score)
            })
            .fold(
                (0, f64::NEG_INFINITY),
                |best, x| if x.1 > best.1 { x } else { best },
            )
            .0;
        board.play_legal(arms[pick].vertex);
        let won = playout(board, rng, me, komi, &mut ownership);
        board.undo();
        arms[pick].visits += 1.0;
        arms[pick].wins += if won { 1.0 } else { 0.0 };
        total += 1.0;
    }
    if opponent_passed(pos) && passing_wins(board, &ownership, me, komi) {
        return Move::Pass;
    }
    arms.sort_by(|a, b| {
        b.visits
            .total_cmp(&a.visits)
            .then(b.wins.total_cmp(&a.wins))
            .then(a.vertex.cmp(&b.vertex))
    });
    arms.iter()
        .find(|a| tactical.contains(&a.vertex) || !ownership.settled(a.vertex))
        .map_or(Move::Pass, |a| Move::Play(board.point(a.vertex)))
}

/// Whether the last move of `pos` was a pass.
fn opponent_passed(pos: &Position) -> bool {
    matches!(pos.last_move(), Some((_, Move::Pass)))
}

/// Whether `me` wins if the game ends now, counted by area with [`KOMI`], the stones the
/// playouts lose more often than not taken off as dead (a pass-alive chain never).
fn passing_wins(board: &SearchBoard, ownership: &Ownership, me: Color, komi: f64) -> bool {
    let dead = dead_by_ownership(board, ownership);
    let mut margin = 0i32;
    for v in 0..board.grid_len() {
        if !board.on_board(v) {
            continue;
        }
        let owner = if dead.contains(&v) {
            board.cell(v).map(Color::opponent)
        } else if board.cell(v).is_some() {
            board.cell(v)
        } else {
            region_owner(board, v, &dead)
        };
        match owner {
            Some(Color::Black) => margin += 1,
            Some(Color::White) => margin -= 1,
            None => {}
        }
    }
    (margin as f64 - komi > 0.0) == (me == Color::Black)
}

/// The owner of the empty region through `v` with the `dead` stones taken off: the one
/// colour of living stones around it, if only one.
fn region_owner(board: &SearchBoard, v: usize, dead: &[usize]) -> Option<Color> {
    let mut seen = vec![false; board.grid_len()];
    let mut stack = vec![v];
    seen[v] = true;
    let mut owner: Option<Color> = None;
    let mut shared = false;
    while let Some(q) = stack.pop() {
        for n in board.neighbours(q) {
            if !board.on_board(n) || seen[n] {
                continue;
            }
            match board.cell(n) {
                Some(c) if !dead.contains(&n) => match owner {
                    None => owner = Some(c),
                    Some(o) if o != c => shared = true,
                    _ => {}
                },
                _ => {
                    seen[n] = true;
                    stack.push(n);
                }
            }
        }
    }
    if shared {
        None
    } else {
        owner
    }
}

/// The stones whose chain the playouts give to the opponent more often than to its own
/// colour, on average over its stones; never a stone of a pass-alive chain.
fn dead_by_ownership(board: &SearchBoard, ownership: &Ownership) -> Vec<usize> {
    let alive: Vec<Point> = [Color::Black, Color::White]
        .into_iter()
        .flat_map(|c| board.unconditionally_alive(c))
        .collect();
    let mut dead = Vec::new();
    for (r, color, _, _) in chains(board) {
        if alive.contains(&board.point(r)) {
            continue;
        }
        let stones: Vec<usize> = board.chain_stones(r).collect();
        let own: f64 = stones.iter().map(|&s| ownership.share(s, color)).sum();
        let foe: f64 = stones
            .iter()
            .map(|&s| ownership.share(s, color.opponent()))
            .sum();
        if foe > own {
            dead.extend(stones);
        }
    }
    dead.sort_unstable();
    dead
}

/// The stones the computer thinks are dead at the end of a game: Monte-Carlo ownership over
/// random playouts from the board (half of them with Black to move first, half with White),
/// a chain dead when the opponent owns its points more often than it does, and never a
/// chain that is pass-alive ([`SearchBoard::unconditionally_alive`]). Sorted.
///
/// ```
/// use qiyuan::play::computer::go::dead_stones;
/// use qiyuan::rules::go::{Board, Color, Position};
/// // Black's wall on D and White's on E split the board; White's stone on B2 and Black's
/// // on H8 sit in the other side's area: dead.
/// let board = Board::from_text(9, "
///     . . . X O . . . .
///     . . . X O . . X .
///     . . . X O . . . .
///     . . . X O . . . .
///     . . . X O . . . .
///     . . . X O . . . .
///     . . . X O . . . .
///     . O . X O . . . .
///     . . . X O . . . .").unwrap();
/// let pos = Position::new(board, Color::Black);
/// let dead = dead_stones(&pos, 1);
/// let at = |name| pos.board().point(name).unwrap();
/// assert_eq!(dead, vec![at("B2"), at("H8")]);
/// ```
pub fn dead_stones(pos: &Position, seed: u64) -> Vec<Point> {
    let size = pos.size() as usize;
    let area = (size * size).max(1);
    let playouts = (600 * 81 / area).max(150);
    let board = SearchBoard::new(pos.board(), Color::Black);
    let mut ownership = Ownership::new(board.grid_len());
    let mut rng = SplitMix64(seed ^ 0xDEAD);
    for color in [Color::Black, Color::White] {
        let mut from = SearchBoard::new(pos.board(), color);
        for _ in 0..playouts / 2 {
            playout(&mut from, &mut rng, color, KOMI, &mut ownership);
        }
    }
    let mut dead: Vec<Point> = dead_by_ownership(&board, &ownership)
        .into_iter()
        .map(|v| board.point(v))
        .collect();
    dead.sort();
    dead
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::go::Board;

    fn position(size: u8, text: &str, to_play: Color) -> Position {
        Position::new(Board::from_text(size, text).unwrap(), to_play)
    }

    #[test]
    fn level_one_escapes_from_atari() {
        //   . X O . .     White's C5 has one liberty, D5; there it joins D4 and has
        //   . . X O .     three (E5, E4, D3).
        let pos = position(
            5,
            ". X O . .\n. . X O .\n. . . . .\n. . . . .\n. . . . .",
            Color::White,
        );
        let d5 = pos.board().point("D5").unwrap();
        assert_eq!(pos.think(Level::new(1).unwrap(), 9), Some(Move::Play(d5)));
    }

    #[test]
    fn answers_a_pass_by_the_komi_it_is_told() {
        // Black's wall on E, White's on F: Black has 45 points of area, White 36. Black
        // passes. With 10½ komi White wins by passing back; with 7½ it loses by 1½ and
        // plays on.
        let row = ". . . . X O . . .";
        let text = vec![row; 9].join("\n");
        let pos = position(9, &text, Color::Black)
            .play_move(Move::Pass)
            .unwrap();
        let level3 = Strength::of(Level::new(3).unwrap(), 9);
        let far = Instant::now() + Duration::from_secs(60);
        assert_eq!(
            think_with(&pos, level3.with_komi(10.5), 1, far),
            Some(Move::Pass)
        );
        assert_ne!(
            think_with(&pos, level3.with_komi(7.5), 1, far),
            Some(Move::Pass)
        );
    }

    #[test]
    fn never_fills_its_own_eye_and_passes_when_only_eyes_are_left() {
        //   X . X X X     Black has two eyes (B5, D4) and nothing else to play but
        //   X X X . X     White's area: every level passes or plays a sensible move.
        let pos = position(
            5,
            "X . X X X\nX X X . X\nX X X X X\nO O O O O\n. O . O .",
            Color::Black,
        );
        for level in 1..=2 {
            let mv = pos.think(Level::new(level).unwrap(), 5);
            for eye in ["B5", "D4"] {
                assert_ne!(mv, Some(Move::Play(pos.board().point(eye).unwrap())));
            }
        }
    }

    #[test]
    fn game_over_gives_no_move() {
        let pos = Position::empty(9).unwrap();
        let over = pos
            .play_move(Move::Pass)
            .unwrap()
            .play_move(Move::Pass)
            .unwrap();
        assert_eq!(over.think(Level::new(3).unwrap(), 1), None);
    }

    #[test]
    fn playouts_fall_with_the_board_and_rise_with_the_level() {
        let l = |n| Level::new(n).unwrap();
        assert_eq!(Strength::of(l(1), 9).playouts, 0);
        assert!(Strength::of(l(2), 9).playouts < Strength::of(l(5), 9).playouts);
        assert!(Strength::of(l(5), 19).playouts < Strength::of(l(5), 9).playouts);
        assert!(Strength::of(l(5), 13).playouts > Strength::of(l(5), 19).playouts);
    }
}
