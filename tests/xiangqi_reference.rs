//! The xiangqi rules engine against pyffish (Fairy-Stockfish's Python module, an independent
//! implementation), asked through `scripts/xiangqi_reference.py` in one process for all
//! positions. A missing pyffish fails these tests with the command that installs it
//! (`python3 -m pip install pyffish==0.0.90`).
//!
//! * `random_playouts_agree_with_pyffish`: at least 10,000 positions reached by random
//!   legal play from the start (fixed seed).
//! * `ccpd_endgames_and_kills_agree_with_pyffish`: every position of the 244 CCPD endgames
//!   and 130 kill exercises (`tests/data/xiangqi/ccpd.tsv`, CC BY 4.0), each game played
//!   from its FEN in the book's own notation.
//!
//! In each position: the legal move sets are equal, in-check is equal, and a position with
//! no legal move is a loss for the side to move in both (将死 or 困毙); the FEN of each
//! game's last position is equal (counters included). pyffish takes some milliseconds a
//! call whatever it is asked, so the script asks it once a position and a few times a game.

mod xiangqi_pyffish;

use qiyuan::rules::xiangqi::{Outcome, Position, START_FEN};
use std::time::Instant;
use xiangqi_pyffish::{ask, Answer};

/// A small seeded generator (SplitMix64): the same games on every run.
struct SplitMix(u64);

impl SplitMix {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        ((z ^ (z >> 31)) % n as u64) as usize
    }
}

/// Plays `iccs` (a move of `pos.legal_moves()`) even after a threefold repetition the
/// players did not claim, as the CCPD books go on.
fn play_on(pos: &mut Position, iccs: &str) {
    let mv = pos.legal_moves().into_iter().find(|m| m.iccs() == iccs);
    pos.apply(mv.unwrap_or_else(|| panic!("{iccs} is not legal in {}", pos.fen())));
}

/// Compares our engine with pyffish on every position of `games`; the number of positions.
fn compare(games: &[(String, Vec<String>)], answers: &[Answer]) -> usize {
    let mut positions = 0;
    let mut ends = 0;
    for ((fen, moves), answer) in games.iter().zip(answers) {
        assert_eq!(
            answer.illegal, None,
            "pyffish refuses a move of {fen} {moves:?}"
        );
        let n = moves.len() + 1;
        assert_eq!(answer.legal.len(), n, "{fen} {moves:?}");
        assert_eq!(answer.check.len(), n, "{fen} {moves:?}");
        let mut pos = Position::from_fen(fen).expect("our FEN");
        for i in 0..n {
            let here = format!("{fen} after {:?}", &moves[..i]);
            let mut ours: Vec<String> = pos.legal_moves().iter().map(|m| m.iccs()).collect();
            ours.sort();
            assert_eq!(ours, answer.legal[i], "legal moves, {here}");
            assert_eq!(pos.is_check(), answer.check[i], "in check, {here}");
            if ours.is_empty() {
                ends += 1;
                let lost = answer.result[i].is_some_and(|r| r < 0);
                assert!(
                    lost,
                    "pyffish: no loss for the side to move ({answer:?}), {here}"
                );
                let winner = pos.turn().opponent();
                let want = if pos.is_check() {
                    Outcome::Checkmate { winner }
                } else {
                    Outcome::Stalemate { winner }
                };
                assert_eq!(pos.outcome(), Some(want), "{here}");
            }
            positions += 1;
            if let Some(mv) = moves.get(i) {
                play_on(&mut pos, mv);
            }
        }
        assert_eq!(pos.fen(), answer.fen, "the last FEN of {fen} {moves:?}");
    }
    println!("{positions} positions, {ends} with no legal move");
    positions
}

#[test]
fn random_playouts_agree_with_pyffish() {
    let started = Instant::now();
    let mut rng = SplitMix(0x71_7975_616e);
    let mut games = Vec::new();
    let mut total = 0;
    while total < 10_000 {
        let mut pos = Position::start();
        let mut moves = Vec::new();
        let length = 20 + rng.below(180);
        while moves.len() < length && pos.outcome().is_none() {
            let legal = pos.legal_moves();
            let mv = legal[rng.below(legal.len())];
            pos.apply(mv);
            moves.push(mv.iccs());
        }
        total += moves.len() + 1;
        games.push((START_FEN.to_string(), moves));
    }
    let played = started.elapsed();
    let answers = ask(&games, false);
    let asked = started.elapsed();
    let positions = compare(&games, &answers);
    assert!(positions >= 10_000);
    println!(
        "random playouts: {} games, {positions} positions; played in {:.2?}, pyffish {:.2?}, compared {:.2?}",
        games.len(),
        played,
        asked - played,
        started.elapsed() - asked
    );
}

#[test]
fn ccpd_endgames_and_kills_agree_with_pyffish() {
    let started = Instant::now();
    let tsv = include_str!("data/xiangqi/ccpd.tsv");
    let mut games = Vec::new();
    for line in tsv.lines().filter(|l| !l.trim().is_empty()) {
        let fields: Vec<&str> = line.split('\t').collect();
        assert_eq!(fields.len(), 3, "{line}");
        let (name, fen) = (fields[0], fields[1]);
        let mut pos = Position::from_fen(fen).unwrap_or_else(|e| panic!("{name}: {e}"));
        let mut moves = Vec::new();
        for written in fields[2].split_whitespace() {
            // Past an unclaimed threefold repetition the book goes on: read the move on the
            // same board without its history.
            let fresh = Position::from_fen(&pos.fen()).expect("our own FEN");
            let mv = pos
                .read_move(written)
                .or_else(|_| fresh.read_move(written))
                .unwrap_or_else(|e| panic!("{name}: {written}: {e:?}"));
            pos.apply(mv);
            moves.push(mv.iccs());
        }
        games.push((fen.to_string(), moves));
    }
    assert_eq!(games.len(), 374, "244 endgames and 130 kills");
    let answers = ask(&games, false);
    let positions = compare(&games, &answers);
    println!(
        "CCPD: {} games, {positions} positions in {:.2?}",
        games.len(),
        started.elapsed()
    );
}
