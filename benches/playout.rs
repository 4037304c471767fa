//! Benchmark: random playouts on 19×19, the make/undo search board (`SearchBoard`) against
//! the copying rules engine (`Position::play_move`), in the same run.
//!
//! Run with `cargo bench --bench playout`. Both play random legal moves that do not fill the
//! mover's own single-point eyes until two passes (at most 1,000 moves); the search board
//! then takes every move back (counted in its time). Criterion reports moves per second as
//! "elements/s"; the goal is at least 1,000,000 for the search board.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use qiyuan::rules::go::{Move, Point, Position, SearchBoard, SplitMix64};
use std::hint::black_box;

const SIZE: u8 = 19;
const MAX_MOVES: usize = 1_000;
const SEED: u64 = 0x19_19_19;

/// One playout on the search board, then undone; returns the moves played.
fn search_board_playout(board: &mut SearchBoard, seed: u64) -> usize {
    let mut rng = SplitMix64(seed);
    let moves = board.random_playout(&mut rng, MAX_MOVES);
    for _ in 0..moves {
        board.undo();
    }
    moves
}

/// The same policy with `Position::play_move`: the first legal non-eye point of a random order.
fn position_playout(seed: u64) -> usize {
    let mut rng = SplitMix64(seed);
    let mut pos = Position::empty(SIZE).expect("19×19");
    let mut moves = 0;
    while moves < MAX_MOVES && pos.consecutive_passes() < 2 {
        let board = pos.board();
        let color = pos.turn();
        let mut empty: Vec<Point> = board.points().filter(|&p| board.get(p).is_none()).collect();
        let mut next = None;
        for i in 0..empty.len() {
            let j = i + rng.below(empty.len() - i);
            empty.swap(i, j);
            let p = empty[i];
            if board.neighbours(p).all(|q| board.get(q) == Some(color)) {
                continue;
            }
            if let Ok(n) = pos.play_move(Move::Play(p)) {
                next = Some(n);
                break;
            }
        }
        pos = match next {
            Some(n) => n,
            None => pos.play_move(Move::Pass).expect("a pass is legal"),
        };
        moves += 1;
    }
    moves
}

fn bench(c: &mut Criterion) {
    let empty = Position::empty(SIZE).expect("19×19");
    let mut board = SearchBoard::from_position(&empty);
    let fast_moves = search_board_playout(&mut board, SEED);
    let slow_moves = position_playout(SEED);

    let mut group = c.benchmark_group("playout-19x19");
    group.throughput(Throughput::Elements(fast_moves as u64));
    group.bench_function("search_board", |b| {
        b.iter(|| black_box(search_board_playout(&mut board, black_box(SEED))))
    });
    group.throughput(Throughput::Elements(slow_moves as u64));
    group.sample_size(10);
    group.bench_function("position_play", |b| {
        b.iter(|| black_box(position_playout(black_box(SEED))))
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
