//! The built-in xiangqi opponent (`play::computer::xiangqi`) judged by Fairy-Stockfish
//! (`/usr/games/fairy-stockfish`, or `$FAIRY_STOCKFISH`, with `UCI_Variant xiangqi`), an
//! independent engine. A missing Fairy-Stockfish fails these tests; it is never skipped.
//!
//! * `mates_in_one_and_takes_a_free_chariot`: at levels 2–5, a mate in one for each side
//!   (Fairy-Stockfish says the side to move after it has no move and is in check) and a
//!   free chariot for each side (the capture Fairy-Stockfish's own search plays).
//! * `always_a_legal_move_in_200_random_positions`: positions reached by seeded random play;
//!   each level in turn; the move must be in Fairy-Stockfish's `go perft 1` list.
//! * `games_against_fairy_stockfish_play_to_the_end`: two games, one with each colour,
//!   against Fairy-Stockfish at depth 1: every move of either side is legal for the other
//!   engine, and they agree on how the game ended.
//! * `time_per_move_by_level`: the time of a move at each level over positions of a game
//!   (printed as a table; within the 1 s budget in a release build). A debug build
//!   times the start and one later position only.
//!
//! A debug build (what `cargo test` runs) searches fewer positions per move (see
//! `strength`); a release build (`cargo test --release`) plays the real levels.

mod fairy;

use fairy::Fsf;
use qiyuan::play::computer::xiangqi::{strength as level_strength, think_with};
use qiyuan::play::computer::{Computer, SearchStrength};
use qiyuan::play::Level;
use qiyuan::rules::xiangqi::{Move, Outcome, Position, START_FEN};
use std::time::{Duration, Instant};

const RELEASE: bool = !cfg!(debug_assertions);

fn level(n: u8) -> Level {
    Level::new(n).unwrap()
}

/// The search of `n`; in a debug build, at most 1,500 positions.
fn strength(n: u8) -> SearchStrength {
    let s = level_strength(level(n));
    if RELEASE {
        s
    } else {
        SearchStrength {
            nodes: s.nodes.min(1_500),
            ..s
        }
    }
}

fn think(pos: &Position, n: u8, seed: u64) -> Option<Move> {
    think_with(
        pos,
        strength(n),
        seed,
        Instant::now() + Duration::from_secs(60),
    )
}

/// A small seeded generator (xorshift64*), so that the positions are the same every run.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 33) as usize % n.max(1)
    }
}

#[test]
fn mates_in_one_and_takes_a_free_chariot() {
    let mut fsf = Fsf::start("the xiangqi computer test");
    // Red: the chariot a1–d1 (e9 faces Red's king). Black: the chariot a8–f8 (e0 faces
    // Black's king).
    let mates = [
        "3k5/9/9/9/9/9/9/9/R8/4K4 w - - 0 1",
        "4k4/r8/9/9/9/9/9/9/9/5K3 b - - 0 1",
    ];
    // A chariot hangs to a horse: d3xe5 for Red, f6xe4 for Black; Fairy-Stockfish's own
    // search takes it too.
    let chariots = [
        "3k5/9/9/9/4r4/9/3N5/9/9/5K3 w - - 0 1",
        "3k5/9/9/5n3/9/4R4/9/9/9/5K3 b - - 0 1",
    ];
    for n in 2..=5 {
        for fen in mates {
            let pos = Position::from_fen(fen).unwrap();
            let mv = pos.think(level(n), 7).unwrap().iccs();
            fsf.position(fen, std::slice::from_ref(&mv));
            assert!(
                fsf.legal().is_empty() && fsf.show().1,
                "level {n}: {mv} does not mate in {fen}"
            );
        }
        for fen in chariots {
            let pos = Position::from_fen(fen).unwrap();
            let mv = pos.think(level(n), 7).unwrap();
            fsf.position(fen, &[]);
            let theirs = fsf.best(8).unwrap();
            assert_eq!(mv.iccs(), theirs, "level {n} in {fen}");
            assert!(mv.captured.is_some(), "level {n}: {mv} takes nothing");
        }
    }
}

#[test]
fn always_a_legal_move_in_200_random_positions() {
    let mut fsf = Fsf::start("the xiangqi computer test");
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let mut checked = 0;
    let mut game = 0u64;
    while checked < 200 {
        game += 1;
        let mut pos = Position::start();
        let mut played: Vec<String> = Vec::new();
        let plies = 10 + rng.below(110);
        for _ in 0..plies {
            let moves = pos.legal_moves();
            if moves.is_empty() || pos.outcome().is_some() {
                break;
            }
            let mv = moves[rng.below(moves.len())];
            pos.apply(mv);
            played.push(mv.iccs());
        }
        fsf.position(START_FEN, &played);
        let legal = fsf.legal();
        let n = (checked % 5) as u8 + 1;
        match think(&pos, n, game) {
            Some(mv) => assert!(
                legal.contains(&mv.iccs()),
                "level {n} played {mv} after {played:?}; Fairy-Stockfish allows {legal:?}"
            ),
            None => assert!(
                legal.is_empty() || pos.repetitions() >= 2,
                "level {n} found no move after {played:?}"
            ),
        }
        checked += 1;
    }
}

/// Plays our level `n` against Fairy-Stockfish at depth 1, ours with `ours` (true: Red);
/// the moves, and how it ended (`None` at 400 plies).
fn game(fsf: &mut Fsf, n: u8, ours_red: bool, seed: u64) -> (Vec<String>, Option<Outcome>) {
    let mut pos = Position::start();
    let mut played: Vec<String> = Vec::new();
    for ply in 0..400 {
        fsf.position(START_FEN, &played);
        let legal = fsf.legal();
        if let Some(end) = pos.outcome() {
            if !matches!(end, Outcome::Repetition | Outcome::PerpetualCheck { .. }) {
                assert!(
                    legal.is_empty(),
                    "{end:?} but Fairy-Stockfish has {legal:?}"
                );
            }
            return (played, Some(end));
        }
        assert!(
            !legal.is_empty(),
            "Fairy-Stockfish has no move after {played:?}"
        );
        let red_to_move = ply % 2 == 0;
        let mv = if red_to_move == ours_red {
            let mv = think(&pos, n, seed + ply as u64).expect("a move while the game goes on");
            assert!(
                legal.contains(&mv.iccs()),
                "we played {mv} after {played:?}; Fairy-Stockfish allows {legal:?}"
            );
            mv
        } else {
            let theirs = fsf.best(1).expect("Fairy-Stockfish has a move");
            pos.read_move(&theirs)
                .unwrap_or_else(|e| panic!("Fairy-Stockfish's {theirs} refused: {e:?}"))
        };
        pos.apply(mv);
        played.push(mv.iccs());
    }
    (played, None)
}

#[test]
fn games_against_fairy_stockfish_play_to_the_end() {
    let mut fsf = Fsf::start("the xiangqi computer test");
    let n = if RELEASE { 5 } else { 3 };
    for ours_red in [true, false] {
        let (played, end) = game(&mut fsf, n, ours_red, 11);
        println!(
            "level {n} as {}: {} plies, {end:?}",
            if ours_red { "Red" } else { "Black" },
            played.len()
        );
    }
}

#[test]
fn time_per_move_by_level() {
    // Positions of a game between the levels: the start, then every tenth ply.
    let mut pos = Position::start();
    let mut positions = vec![pos.clone()];
    for ply in 0..60 {
        let Some(mv) = think(&pos, 1, ply) else { break };
        pos.apply(mv);
        if ply % 10 == 9 {
            positions.push(pos.clone());
        }
    }
    if !RELEASE {
        positions.truncate(2);
    }
    println!("| level | depth | nodes | mean ms/move | max ms/move |");
    println!("|---|---|---|---|---|");
    for n in 1..=5u8 {
        let s = strength(n);
        let mut total = Duration::ZERO;
        let mut most = Duration::ZERO;
        for p in &positions {
            let t = Instant::now();
            let mv = if RELEASE {
                p.think(level(n), 1)
            } else {
                think(p, n, 1)
            };
            let spent = t.elapsed();
            assert!(mv.is_some());
            total += spent;
            most = most.max(spent);
        }
        println!(
            "| {n} | {} | {} | {:.0} | {:.0} |",
            s.depth,
            s.nodes,
            total.as_secs_f64() * 1000.0 / positions.len() as f64,
            most.as_secs_f64() * 1000.0
        );
        if RELEASE {
            assert!(
                most <= Duration::from_millis(1100),
                "level {n} took {most:?}"
            );
        }
    }
}
