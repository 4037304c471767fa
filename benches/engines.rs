//! Benchmark: how long the real engines take to answer at each of our levels, measured
//! through `qiyuan::play::engine` (process round trip, position set-up and our rules' check
//! included).
//!
//! Run with `cargo bench --bench engines`. For Stockfish and Fairy-Stockfish the baseline is
//! the think time the level asks for (`go movetime` / `byoyomi`), so the ratio is the
//! overhead; GTP has no think time, so GNU Go's levels are compared with its level 1 (GNU Go
//! level 0) in the same run. Positions are those of a game the engine plays against itself
//! at level 1, from move `SKIP` on; every level answers the same positions. Engines that are
//! not installed are left out.

use qiyuan::content::Game;
use qiyuan::play::engine::{gnugo_level, think_time, Engine, Engines};
use qiyuan::play::{Level, Start};
use qiyuan::rules::{chess, go, shogi, Rules};
use std::time::{Duration, Instant};

/// Moves played before the measured positions.
const SKIP: usize = 12;

/// A line of `len` moves from `first`, the engine playing both sides at level 1 with a short
/// think time.
fn line<P: Rules>(engine: &mut Engine, start: &Start, first: &P, len: usize) -> Vec<String> {
    engine.set_think_time(Some(Duration::from_millis(30)));
    let mut pos = first.clone();
    let mut moves = Vec::new();
    while moves.len() < len {
        let Ok(answer) = engine.best_move(start, &moves, Level::MIN) else {
            break;
        };
        let Ok((next, _)) = pos.play(&answer) else {
            break;
        };
        moves.push(answer);
        pos = next;
    }
    engine.set_think_time(None);
    moves
}

/// Mean and longest answer at `level` over the positions after `line[..k]`, `k` from `SKIP`.
fn measure(
    engine: &mut Engine,
    start: &Start,
    line: &[String],
    level: Level,
) -> (Duration, Duration) {
    let mut total = Duration::ZERO;
    let mut longest = Duration::ZERO;
    let mut n = 0u32;
    for k in SKIP..line.len() {
        let began = Instant::now();
        if engine.best_move(start, &line[..k], level).is_err() {
            eprintln!("{}: no answer at level {}", engine.name(), level.get());
            continue;
        }
        let took = began.elapsed();
        total += took;
        longest = longest.max(took);
        n += 1;
    }
    (total / n.max(1), longest)
}

fn ms(d: Duration) -> String {
    format!("{:.0}", d.as_secs_f64() * 1000.0)
}

fn levels() -> impl Iterator<Item = Level> {
    (1..=5).filter_map(Level::new)
}

/// One table for a UCI or USI engine: each level against its think time.
fn think_table<P: Rules>(
    title: &str,
    engine: &mut Engine,
    start: &Start,
    first: P,
    positions: usize,
) {
    let line = line(engine, start, &first, SKIP + positions);
    println!(
        "\n{title} ({}), {} positions",
        engine.name(),
        line.len().saturating_sub(SKIP)
    );
    println!("| level | think time (ms) | mean answer (ms) | longest (ms) | mean / think |");
    println!("|---|---|---|---|---|");
    for level in levels() {
        let (mean, longest) = measure(engine, start, &line, level);
        let think = think_time(level);
        println!(
            "| {} | {} | {} | {} | {:.2} |",
            level.get(),
            ms(think),
            ms(mean),
            ms(longest),
            mean.as_secs_f64() / think.as_secs_f64()
        );
    }
}

/// One table for GNU Go on a board of `size`: each level against level 1.
fn go_table(engine: &mut Engine, size: u8, positions: usize) {
    let start = Start::Go(qiyuan::base::go::Start {
        size,
        handicap: 0,
        rules: go::Scoring::Chinese,
        komi: 7.5,
    });
    let first = go::Position::empty(size).expect("a board");
    let line = line(engine, &start, &first, SKIP + positions);
    println!(
        "\n{size}×{size} ({}), {} positions",
        engine.name(),
        line.len().saturating_sub(SKIP)
    );
    println!("| level | GNU Go level | mean answer (ms) | longest (ms) | mean / level 1 |");
    println!("|---|---|---|---|---|");
    let mut base = None;
    for level in levels() {
        let (mean, longest) = measure(engine, &start, &line, level);
        let base = *base.get_or_insert(mean);
        println!(
            "| {} | {} | {} | {} | {:.1} |",
            level.get(),
            gnugo_level(level, size),
            ms(mean),
            ms(longest),
            mean.as_secs_f64() / base.as_secs_f64().max(1e-9)
        );
    }
}

fn main() {
    let engines = Engines::discover(&[]);
    println!(
        "Real engines' answers per level; {} cores.",
        std::thread::available_parallelism().map_or(1, |n| n.get())
    );
    for game in Game::ALL {
        let Some(command) = engines.command(game) else {
            println!("\n{}: no engine installed, left out", game.slug());
            continue;
        };
        let mut engine = match Engine::start(command, game) {
            Ok(engine) => engine,
            Err(e) => {
                println!("\n{}: {command} did not start: {e}", game.slug());
                continue;
            }
        };
        match game {
            Game::Go => {
                go_table(&mut engine, 9, 10);
                go_table(&mut engine, 19, 4);
            }
            Game::Chess => {
                let first = chess::Position::start();
                let start = Start::Chess(qiyuan::base::chess::Start { fen: first.fen() });
                think_table("chess", &mut engine, &start, first, 6);
            }
            Game::Shogi => {
                let start = Start::Shogi(qiyuan::base::shogi::Start {
                    sfen: shogi::START_SFEN.to_string(),
                    handicap: None,
                });
                think_table("shogi", &mut engine, &start, shogi::Position::start(), 6);
            }
            Game::Xiangqi => {
                let first = qiyuan::rules::xiangqi::Position::start();
                let start = Start::Xiangqi(qiyuan::base::xiangqi::Start {
                    fen: qiyuan::rules::xiangqi::START_FEN.to_string(),
                });
                think_table("xiangqi", &mut engine, &start, first, 6);
            }
        }
    }
}
