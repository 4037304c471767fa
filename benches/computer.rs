//! Benchmark: think time per move of the built-in opponents (`play::computer`) at every
//! level, for Go 9×9 and 19×19, a chess middle game and a shogi middle game, each against a
//! baseline measured in the same run on the same position: for Go 1,000 random playouts
//! on the search board, for chess and shogi one generation of the legal moves.
//!
//! Run with `cargo bench --bench computer`. It first prints a sweep table (mean and
//! slowest think time over several positions of a game, and the mean's ratio to the
//! baseline), then criterion measures one position per game and level.

use criterion::{criterion_group, criterion_main, Criterion};
use qiyuan::play::computer::Computer;
use qiyuan::play::Level;
use qiyuan::rules::go::{SearchBoard, SplitMix64};
use qiyuan::rules::{chess, go, shogi};
use std::hint::black_box;
use std::time::{Duration, Instant};

/// Middle-game chess positions: an Italian, a Queen's Gambit Declined, a Sicilian.
const CHESS_FENS: [&str; 3] = [
    "r1bq1rk1/pppp1ppp/2n2n2/2b1p3/2B1P3/2PP1N2/PP3PPP/RNBQ1RK1 w - - 1 6",
    "r1bq1rk1/pp1nbppp/2p1pn2/3p2B1/2PP4/2NBPN2/PP3PPP/R2QK2R w KQ - 0 8",
    "r1b1kb1r/1pqp1ppp/p1n1pn2/8/3NP3/2N1B3/PPP1BPPP/R2QK2R w KQkq - 2 8",
];

/// The positions of a self-play game of `level` from `start`, at every ply of `plies`.
fn self_play<P: Computer>(start: P, level: u8, plies: &[usize]) -> Vec<P> {
    let level = Level::new(level).expect("a level");
    let mut pos = start;
    let mut out = Vec::new();
    let last = plies.iter().copied().max().unwrap_or(0);
    for ply in 0..=last {
        if plies.contains(&ply) {
            out.push(pos.clone());
        }
        let Some(mv) = pos.think(level, ply as u64) else {
            break;
        };
        let name = pos.move_name(&mv);
        pos = pos.play(&name).expect("the computer plays legal moves").0;
    }
    out
}

/// The mean and the slowest of `f` over `positions`.
fn time_each<P>(positions: &[P], mut f: impl FnMut(&P)) -> (Duration, Duration) {
    let mut total = Duration::ZERO;
    let mut slowest = Duration::ZERO;
    for p in positions {
        let t = Instant::now();
        f(p);
        let e = t.elapsed();
        total += e;
        slowest = slowest.max(e);
    }
    (total / positions.len().max(1) as u32, slowest)
}

/// 1,000 random playouts from `pos` on the search board.
fn playouts(pos: &go::Position) {
    let mut board = SearchBoard::from_position(pos);
    let mut rng = SplitMix64(7);
    let max = 3 * pos.size() as usize * pos.size() as usize;
    for _ in 0..1_000 {
        let n = board.random_playout(&mut rng, max);
        for _ in 0..n {
            board.undo();
        }
    }
}

/// Prints one game's sweep: per level, mean and slowest think time, and the mean over the
/// baseline's mean (the baseline run `reps` times per position).
fn sweep<P: Computer>(
    name: &str,
    positions: &[P],
    baseline: impl Fn(&P),
    baseline_name: &str,
    reps: u32,
) {
    let (one, _) = time_each(positions, |p| {
        for _ in 0..reps {
            baseline(p);
        }
    });
    let base_one = one / reps;
    println!(
        "{name}: baseline ({baseline_name}) {:.3} ms over {} positions",
        base_one.as_secs_f64() * 1e3,
        positions.len()
    );
    for level in 1..=5 {
        let l = Level::new(level).expect("a level");
        let (mean, slowest) = time_each(positions, |p| {
            black_box(p.think(l, 1));
        });
        println!(
            "  level {level}: mean {:8.1} ms, slowest {:8.1} ms, budget {:5} ms, mean/baseline {:8.1}×",
            mean.as_secs_f64() * 1e3,
            slowest.as_secs_f64() * 1e3,
            positions[0].think_budget(l).as_millis(),
            mean.as_secs_f64() / base_one.as_secs_f64().max(1e-9)
        );
    }
}

fn bench(c: &mut Criterion) {
    let go9 = self_play(go::Position::empty(9).expect("9×9"), 1, &[10, 30, 50]);
    let go19 = self_play(go::Position::empty(19).expect("19×19"), 1, &[40, 120, 200]);
    let chess: Vec<chess::Position> = CHESS_FENS
        .iter()
        .map(|f| chess::Position::from_fen(f).expect("a FEN"))
        .collect();
    let shogi = self_play(shogi::Position::start(), 2, &[20, 30, 40]);

    sweep("go 9×9", &go9, playouts, "1,000 playouts", 3);
    sweep("go 19×19", &go19, playouts, "1,000 playouts", 1);
    sweep(
        "chess",
        &chess,
        |p| drop(black_box(p.legal_moves())),
        "legal moves",
        200,
    );
    sweep(
        "shogi",
        &shogi,
        |p| drop(black_box(p.legal_moves())),
        "legal moves",
        200,
    );

    let mut group = c.benchmark_group("think");
    group.sample_size(10);
    group.warm_up_time(Duration::from_millis(500));
    group.measurement_time(Duration::from_secs(3));
    group.bench_function("go-9x9/baseline-1000-playouts", |b| {
        b.iter(|| playouts(&go9[1]))
    });
    group.bench_function("chess/baseline-legal-moves", |b| {
        b.iter(|| black_box(chess[0].legal_moves()))
    });
    group.bench_function("shogi/baseline-legal-moves", |b| {
        b.iter(|| black_box(shogi[1].legal_moves()))
    });
    for level in 1..=5 {
        let l = Level::new(level).expect("a level");
        group.bench_function(format!("go-9x9/level-{level}"), |b| {
            b.iter(|| black_box(go9[1].think(l, 1)))
        });
        group.bench_function(format!("go-19x19/level-{level}"), |b| {
            b.iter(|| black_box(go19[1].think(l, 1)))
        });
        group.bench_function(format!("chess/level-{level}"), |b| {
            b.iter(|| black_box(chess[0].think(l, 1)))
        });
        group.bench_function(format!("shogi/level-{level}"), |b| {
            b.iter(|| black_box(shogi[1].think(l, 1)))
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
