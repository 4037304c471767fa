//! The depth-first mate search the prover replaced, kept as the tests' oracle: a plain
//! AND/OR search over every legal move with a table of mate distances and killer moves,
//! no special last moves and no reply ordering by the attacker's mobility. The tests ask
//! it and [`super::Prover`] the same questions and want the same answers.

use super::{gives_check, is_mate_after, order_attacks, MateSearch, Memory};
use shakmaty::{Chess, Position as _};

#[path = "../../../../benches/support/mate_positions.rs"]
mod mate_positions;

/// One search context, as [`super::Prover`] has it.
#[derive(Default)]
pub(crate) struct Prover {
    memory: Memory,
}

impl MateSearch for Prover {
    fn or_node(&mut self, pos: &Chess, key: u64, n: u32, ply: usize) -> bool {
        if n == 0 {
            return false;
        }
        if let Some(known) = self.memory.known(key, n) {
            return known;
        }
        let mut moves = pos.legal_moves();
        if n == 1 {
            // Only a check can mate: test the rest without playing them.
            let mate = moves
                .iter()
                .find(|&&m| gives_check(pos, m) && is_mate_after(pos, m))
                .copied();
            return self.memory.record(key, 1, mate.is_some(), mate, ply);
        }
        let front = self.memory.promote(key, ply, &mut moves);
        order_attacks(pos, &mut moves[front..]);
        let mate = self.first_forcing(pos, key, &moves, n, ply);
        self.memory.record(key, n, mate.is_some(), mate, ply)
    }

    fn and_node(&mut self, pos: &Chess, key: u64, n: u32, ply: usize) -> bool {
        let mut replies = pos.legal_moves();
        if replies.is_empty() {
            return pos.is_check();
        }
        if n <= 1 {
            return false;
        }
        if let Some(known) = self.memory.known(key, n) {
            return known;
        }
        let front = self.memory.promote(key, ply, &mut replies);
        // Captures first: taking the attacker's pieces refutes most often.
        replies[front..].sort_by_key(|m| !m.is_capture());
        let refutation = self.first_refuting(pos, key, &replies, n, ply);
        self.memory
            .record(key, n, refutation.is_none(), refutation, ply)
    }
}

#[cfg(test)]
mod tests {
    //! The prover against this oracle: the same first moves proven, on the corpus and on
    //! the repository's own mate problems.

    use super::super::MateSearch;
    use super::super::Prover as Fast;
    use super::mate_positions;
    use super::Prover as Oracle;
    use shakmaty::fen::Fen;
    use shakmaty::{CastlingMode, Chess, Position as _};
    use std::path::PathBuf;

    fn corpus() -> PathBuf {
        std::env::var_os("QIYUAN_CORPUS")
            .map(PathBuf::from)
            .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/corpus"))
    }

    fn chess(fen: &str) -> Chess {
        fen.parse::<Fen>()
            .unwrap_or_else(|e| panic!("{fen}: {e}"))
            .into_position(CastlingMode::Standard)
            .unwrap_or_else(|e| panic!("{fen}: {e}"))
    }

    /// Every first move of `pos` that mates within `n`, by each search (one table per
    /// search for all the first moves, as `mating_moves` has it).
    fn first_moves(pos: &Chess, n: u32) -> (Vec<String>, Vec<String>) {
        let (mut fast, mut oracle) = (Fast::new(), Oracle::default());
        let (mut by_fast, mut by_oracle) = (Vec::new(), Vec::new());
        for m in pos.legal_moves() {
            let after = super::super::played(pos, m);
            if fast.forced(&after, n) {
                by_fast.push(m.to_string());
            }
            if oracle.forced(&after, n) {
                by_oracle.push(m.to_string());
            }
        }
        (by_fast, by_oracle)
    }

    fn agree(what: &str, fen: &str, n: u32) {
        let (fast, oracle) = first_moves(&chess(fen), n);
        assert_eq!(fast, oracle, "{what} ({fen}), mate in {n}");
    }

    #[test]
    fn proves_the_oracles_first_moves_on_corpus_mates_in_two() {
        let text = std::fs::read_to_string(corpus().join("chess/mate-in-2.epd"))
            .expect("the corpus (set QIYUAN_CORPUS)");
        // Debug builds take every 25th position, release builds all 1,000.
        let step = if cfg!(debug_assertions) { 25 } else { 1 };
        let mut compared = 0;
        for (i, line) in text.lines().enumerate().step_by(step) {
            let fen: Vec<&str> = line.split_whitespace().take(4).collect();
            agree(
                &format!("mate-in-2.epd line {}", i + 1),
                &format!("{} 0 1", fen.join(" ")),
                2,
            );
            compared += 1;
        }
        assert!(compared >= 40, "{compared} positions");
    }

    #[test]
    fn proves_the_oracles_first_moves_on_mates_in_three_to_five() {
        let positions = mate_positions::mate_positions(&corpus()).expect("the corpus");
        // The oracle needs seconds for a mate in 5: debug builds compare a sample of the
        // mates in 3, release builds every mate in 3 and 4, and in 5 as well when
        // QIYUAN_LONG_TESTS is set.
        let longest = match (
            cfg!(debug_assertions),
            std::env::var_os("QIYUAN_LONG_TESTS"),
        ) {
            (true, _) => 3,
            (false, None) => 4,
            (false, Some(_)) => 5,
        };
        let step = if cfg!(debug_assertions) { 8 } else { 1 };
        let mut compared = 0;
        for p in positions.iter().filter(|p| p.n <= longest).step_by(step) {
            agree(&p.id, &p.fen, p.n);
            // The same with a move too few: the same first moves fail too.
            agree(&p.id, &p.fen, p.n - 1);
            compared += 1;
        }
        assert!(compared >= 10, "{compared} positions");
    }

    #[test]
    fn proves_the_oracles_first_moves_on_the_mate_problems() {
        let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("problems/chess");
        let mut compared = 0;
        for entry in std::fs::read_dir(&dir).expect("problems/chess") {
            let path = entry.expect("a problem file").path();
            let text = std::fs::read_to_string(&path).expect("a problem file");
            let sets: toml::Table = text.parse().expect("a problem set");
            let problems = sets.get("problem").and_then(|p| p.as_array());
            for problem in problems.into_iter().flatten() {
                let (Some("mate"), Some(fen), Some(n)) = (
                    problem.get("goal").and_then(|g| g.as_str()),
                    problem.get("fen").and_then(|f| f.as_str()),
                    problem.get("mate_in").and_then(|n| n.as_integer()),
                ) else {
                    continue;
                };
                let id = problem.get("id").and_then(|i| i.as_str()).unwrap_or("?");
                let what = format!("{} {id}", path.display());
                let n = n as u32;
                agree(&what, fen, n);
                agree(&what, fen, n - 1);
                compared += 1;
            }
        }
        assert!(compared >= 50, "{compared} mate problems");
    }

    #[test]
    fn proves_the_oracles_first_moves_with_castling_en_passant_and_promotions() {
        // Positions where a mating line needs a special move, each at every length up to
        // the one given (the oracle's answers): castling with check (O-O mates), en
        // passant as the first move of a mate in 3 (...fxe3) and as a move the attacker
        // has and does not need (exd6), promotions to queen and to rook (e7xd8=R,
        // f7-f8=R), a capture that promotes, quiet rook moves, and a quiet king move that
        // leaves the defender one move (Kb6 in 2k5/8/2K5/...: ...Kb8 Rd8#).
        let mut mates = 0;
        for (fen, n) in [
            ("4rkr1/4p1p1/8/8/8/8/8/4K2R w K - 0 1", 2),
            ("k7/2K5/8/8/B7/8/8/R7 w - - 0 1", 2),
            ("8/8/8/8/4Pp2/6k1/8/7K b - e3 0 1", 3),
            ("8/8/8/3pP3/8/8/k1K5/1R6 w - d6 0 1", 3),
            ("3r3k/4P1pp/8/8/8/8/8/4K2R w K - 0 1", 3),
            ("6k1/4P1pp/8/8/8/8/6PP/4R1K1 w - - 0 1", 3),
            ("8/8/8/8/8/4K3/1p6/k7 b - - 0 1", 3),
            ("7k/5P2/5K2/8/8/8/8/8 w - - 0 1", 3),
            ("k7/8/1K6/8/8/8/8/2R5 w - - 0 1", 2),
            ("8/8/8/8/8/5K1k/8/6R1 w - - 0 1", 3),
            ("2k5/8/2K5/8/8/8/8/3R4 w - - 0 1", 3),
        ] {
            for k in 1..=n {
                agree("a special-move position", fen, k);
            }
            mates += (!first_moves(&chess(fen), n).1.is_empty()) as usize;
        }
        assert!(mates >= 5, "{mates} of the positions mate");
    }

    #[test]
    fn threads_sharing_a_table_prove_the_oracles_first_moves() {
        // Mates in 3 (and in 4 in release builds) on one, two and three threads with one
        // table between them: the first moves the oracle proves.
        let positions = mate_positions::mate_positions(&corpus()).expect("the corpus");
        let longest = if cfg!(debug_assertions) { 3 } else { 4 };
        let step = if cfg!(debug_assertions) { 12 } else { 3 };
        let mut compared = 0;
        for p in positions.iter().filter(|p| p.n <= longest).step_by(step) {
            let pos = chess(&p.fen);
            let moves = pos.legal_moves();
            let (_, oracle) = first_moves(&pos, p.n);
            for threads in 1..=3 {
                let forced = super::super::forcing_first_moves_on(&pos, &moves, p.n, threads);
                let proven: Vec<String> = moves
                    .iter()
                    .zip(forced)
                    .filter(|(_, forced)| *forced)
                    .map(|(m, _)| m.to_string())
                    .collect();
                assert_eq!(proven, oracle, "{} on {threads} threads", p.id);
            }
            compared += 1;
        }
        assert!(compared >= 8, "{compared} positions");
    }

    #[test]
    fn best_defence_distances_agree_with_the_oracle() {
        // After a wrong first move of a mate in 3 the defender's replies, mate distances
        // up to 3 by both searches.
        for fen in [
            "8/1q3p2/6pk/8/3Q4/6PK/5P2/8 w - - 0 41",
            "4r3/p4Q1p/2bp4/6p1/2P5/6kP/q5P1/5R1K w - - 1 37",
        ] {
            let pos = chess(fen);
            let (mut fast, mut oracle) = (Fast::new(), Oracle::default());
            for m in pos.legal_moves().into_iter().take(2) {
                let after = super::super::played(&pos, m);
                for r in after.legal_moves() {
                    let next = super::super::played(&after, r);
                    assert_eq!(
                        fast.mate_distance(&next, 3),
                        oracle.mate_distance(&next, 3),
                        "{fen} {m} {r}"
                    );
                }
            }
        }
    }
}
