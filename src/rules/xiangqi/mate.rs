//! Mate-in-N proofs for xiangqi puzzles (杀局): which first moves force a win within N
//! moves of the attacker, the defender's most stubborn reply, and why a move fails.
//!
//! In xiangqi the side with no legal move loses, in check (将死) or not (困毙): both
//! count as the attacker's win here, as in Fairy-Stockfish. A position repeated on the
//! path (the game's history and the moves searched) is no win. Every question has a
//! budget of positions ([`DEFAULT_BUDGET`], or [`MateProver::with_budget`]); when it runs
//! out the answer is [`MateError::Budget`], never a guess. The table of proven distances
//! is bounded too.
//!
//! ```
//! use qiyuan::rules::xiangqi::Position;
//! // 马后炮: the horse on e7 holds d9 and f9; the cannon comes to e0 behind it and checks
//! // along the e-file over the horse, which also covers e8: mate in one.
//! //   a b c d e f g h i
//! // 9 . . . . k . . . .
//! // 8 . . . . . . . . .
//! // 7 . . . . N . . . .
//! //   …
//! // 0 . . . K . . . . C
//! let pos = Position::from_fen("4k4/9/4N4/9/9/9/9/9/9/3K4C w - - 0 1").unwrap();
//! let moves: Vec<String> = pos.mating_moves(1).unwrap().iter().map(|m| m.iccs()).collect();
//! assert_eq!(moves, ["i0e0"]);
//! ```

mod search;

use super::board::Board;
use super::illegal::Illegal;
use super::position::Position;
use super::types::Move;
use crate::lang::Lang;
use search::{OutOfBudget, Search};
use std::fmt;

/// The most attacker moves a question may ask for.
pub const LONGEST_MATE: u32 = 5;

/// The positions one question may make unless told otherwise: a few seconds of search in
/// a release build.
pub const DEFAULT_BUDGET: u64 = 20_000_000;

/// Why a mate question got no answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MateError {
    /// The search made `budget` positions without settling the question.
    Budget {
        /// The positions allowed.
        budget: u64,
    },
    /// The question asks for a mate longer than [`LONGEST_MATE`] moves.
    TooLong {
        /// The moves asked for.
        n: u32,
    },
}

impl MateError {
    /// The reason in `lang`.
    pub fn explain(&self, lang: Lang) -> String {
        match (self, lang) {
            (MateError::Budget { budget }, Lang::Zh) => {
                format!("搜索了 {budget} 个局面仍未得出结论，已停止：这道题对杀棋搜索来说太复杂。")
            }
            (MateError::Budget { budget }, Lang::En) => format!(
                "the mate search stopped after {budget} positions without an answer: the problem is too hard for it"
            ),
            (MateError::TooLong { n }, Lang::Zh) => {
                format!("{n} 步杀太长：杀棋搜索最多证明 {LONGEST_MATE} 步杀。")
            }
            (MateError::TooLong { n }, Lang::En) => format!(
                "mate in {n} is too long: the mate search proves mates of at most {LONGEST_MATE} moves"
            ),
        }
    }
}

impl fmt::Display for MateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.explain(Lang::En))
    }
}

impl std::error::Error for MateError {}

/// Why a move does not force a win within the moves left.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NotForcing {
    /// The move cannot be played here.
    Illegal(Illegal),
    /// The defender has `reply`, after which no win is forced within the moves left.
    Escape {
        /// The move tried, in Chinese notation (炮二平五).
        played_zh: String,
        /// The move tried, in WXF and ICCS: `C2=5 (h2e2)`.
        played_en: String,
        /// The reply that escapes.
        reply: Move,
        /// The reply in Chinese notation.
        reply_zh: String,
        /// The reply in WXF and ICCS.
        reply_en: String,
        /// The attacker's moves that were left, counting the one tried.
        left: u32,
    },
}

impl NotForcing {
    /// A sentence for the learner in `lang`.
    pub fn explain(&self, lang: Lang) -> String {
        match self {
            NotForcing::Illegal(why) => why.explain(lang),
            NotForcing::Escape {
                played_zh,
                played_en,
                reply_zh,
                reply_en,
                left,
                ..
            } => match (lang, *left) {
                (Lang::Zh, 0 | 1) => format!(
                    "{played_zh}之后对方还有棋可走（例如{reply_zh}），既没有被将死也没有被困毙。"
                ),
                (Lang::En, 0 | 1) => format!(
                    "After {played_en} the opponent can still move (for example {reply_en}): neither checkmated nor stalemated."
                ),
                (Lang::Zh, l) => format!(
                    "{played_zh}之后对方可以走{reply_zh}，剩下的 {} 步之内杀不死对方。",
                    l - 1
                ),
                (Lang::En, l) => format!(
                    "After {played_en} the opponent answers {reply_en}, and there is no forced win in the {} move{} left.",
                    l - 1,
                    if l == 2 { "" } else { "s" }
                ),
            },
        }
    }
}

impl fmt::Display for NotForcing {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.explain(Lang::En))
    }
}

/// A mate search context. Its table serves every question asked through it, so the
/// questions of one problem share what was learnt; ask it about one attacker only.
pub struct MateProver {
    search: Search,
}

impl Default for MateProver {
    fn default() -> Self {
        MateProver::new()
    }
}

/// The board of `pos` (the position keeps it private; its FEN is exact).
fn board_of(pos: &Position) -> Board {
    Board::from_fen(&pos.fen()).expect("a position's own FEN reads back")
}

impl MateProver {
    /// A prover with [`DEFAULT_BUDGET`] positions per question.
    pub fn new() -> MateProver {
        MateProver::with_budget(DEFAULT_BUDGET)
    }

    /// A prover allowing `budget` positions per question.
    pub fn with_budget(budget: u64) -> MateProver {
        MateProver {
            search: Search::new(budget),
        }
    }

    /// The positions the last question made.
    pub fn nodes(&self) -> u64 {
        self.search.nodes
    }

    /// Runs one question: the node count starts at zero, a spent budget becomes
    /// [`MateError::Budget`], and `n` is checked against [`LONGEST_MATE`].
    fn question<T>(
        &mut self,
        n: u32,
        ask: impl FnOnce(&mut Search) -> Result<T, OutOfBudget>,
    ) -> Result<T, MateError> {
        if n > LONGEST_MATE {
            return Err(MateError::TooLong { n });
        }
        self.search.begin();
        let budget = self.search.budget;
        ask(&mut self.search).map_err(|_| MateError::Budget { budget })
    }

    /// Every legal first move of the side to move that forces a win within `n` of its
    /// moves against every defence, in the order of [`Position::legal_moves`].
    pub fn mating_moves(&mut self, pos: &Position, n: u32) -> Result<Vec<Move>, MateError> {
        self.question(n, |s| {
            let mut found = Vec::new();
            if pos.repetitions() >= 2 {
                return Ok(found);
            }
            for mv in pos.legal_moves() {
                if forced_after(s, pos, mv, n)? {
                    found.push(mv);
                }
            }
            Ok(found)
        })
    }

    /// Whether `mv`, a legal move at `pos`, forces a win within `left` moves counting
    /// itself.
    pub fn forces(&mut self, pos: &Position, mv: Move, left: u32) -> Result<bool, MateError> {
        self.question(left, |s| forced_after(s, pos, mv, left))
    }

    /// The fewest moves, at most `max`, in which the side to move at `pos` forces a win.
    pub fn mate_distance(&mut self, pos: &Position, max: u32) -> Result<Option<u32>, MateError> {
        self.question(max, |s| distance(s, pos, max))
    }

    /// For the side to move at `pos`, being mated: the reply after which the opponent's
    /// shortest forced win (looking up to `left` of its moves) is longest. A reply that
    /// escapes altogether (or repeats a position) beats every other; ties go to the first
    /// in legal-move order. `None` when there is no legal move.
    pub fn best_defence(&mut self, pos: &Position, left: u32) -> Result<Option<Move>, MateError> {
        self.question(left, |s| stubborn(s, pos, left))
    }

    /// Why `mv` (any notation) does not force a win within `left` moves counting
    /// itself: `None` when it does.
    pub fn why_not(
        &mut self,
        pos: &Position,
        mv: &str,
        left: u32,
    ) -> Result<Option<NotForcing>, MateError> {
        let played = match pos.read_move(mv) {
            Ok(m) => m,
            Err(why) => return Ok(Some(NotForcing::Illegal(why))),
        };
        self.question(left, |s| {
            if forced_after(s, pos, played, left)? {
                return Ok(None);
            }
            let mut after = pos.clone();
            after.apply(played);
            let reply = match left {
                0 | 1 => after.legal_moves().first().copied(),
                _ => stubborn(s, &after, left - 1)?,
            };
            // A move that does not force a win leaves the defender a move.
            let Some(reply) = reply else {
                return Ok(None);
            };
            let en = |p: &Position, m: &Move| format!("{} ({})", p.wxf(m), m.iccs());
            Ok(Some(NotForcing::Escape {
                played_zh: pos.chinese(&played),
                played_en: en(pos, &played),
                reply,
                reply_zh: after.chinese(&reply),
                reply_en: en(&after, &reply),
                left,
            }))
        })
    }
}

/// Whether `mv` (legal at `pos`) wins within `left` attacker moves counting itself.
fn forced_after(s: &mut Search, pos: &Position, mv: Move, left: u32) -> Result<bool, OutOfBudget> {
    if left == 0 {
        return Ok(false);
    }
    let mut after = board_of(pos);
    after.make(mv.from, mv.to);
    s.reset(&pos.history());
    if s.repeats(after.hash) {
        return Ok(false);
    }
    s.push(after.hash);
    Ok(s.and_node(&after, left, 1)?.win)
}

/// The fewest moves, at most `max`, in which the side to move at `pos` forces a win.
fn distance(s: &mut Search, pos: &Position, max: u32) -> Result<Option<u32>, OutOfBudget> {
    let board = board_of(pos);
    for k in 1..=max {
        s.reset(&pos.history());
        if s.or_node(&board, k, 0)?.win {
            return Ok(Some(k));
        }
    }
    Ok(None)
}

/// The defender's most stubborn reply at `pos`, the attacker having `left` moves after it.
fn stubborn(s: &mut Search, pos: &Position, left: u32) -> Result<Option<Move>, OutOfBudget> {
    let mut best: Option<(Move, u32)> = None;
    for reply in pos.legal_moves() {
        let mut after = pos.clone();
        after.apply(reply);
        if after.repetitions() > 0 {
            return Ok(Some(reply));
        }
        match distance(s, &after, left)? {
            None => return Ok(Some(reply)),
            Some(d) => {
                if best.is_none_or(|(_, b)| d > b) {
                    best = Some((reply, d));
                }
            }
        }
    }
    Ok(best.map(|(m, _)| m))
}

impl Position {
    /// Every legal first move that forces a win (将死 or 困毙) within `n` moves of the
    /// side to move against every defence, in legal-move order; see [`MateProver`].
    pub fn mating_moves(&self, n: u32) -> Result<Vec<Move>, MateError> {
        MateProver::new().mating_moves(self, n)
    }

    /// Whether the move `mv` (ICCS, WXF or Chinese) forces a win within `n` moves
    /// counting itself. An illegal or unreadable move does not.
    pub fn forces_mate(&self, mv: &str, n: u32) -> Result<bool, MateError> {
        match self.read_move(mv) {
            Ok(m) => MateProver::new().forces(self, m, n),
            Err(_) => Ok(false),
        }
    }

    /// The fewest moves, at most `max`, in which the side to move forces a win.
    pub fn mate_distance(&self, max: u32) -> Result<Option<u32>, MateError> {
        MateProver::new().mate_distance(self, max)
    }

    /// The most stubborn defence of the side to move, the opponent having `n` moves to
    /// win; see [`MateProver::best_defence`].
    pub fn best_defence(&self, n: u32) -> Result<Option<Move>, MateError> {
        MateProver::new().best_defence(self, n)
    }

    /// Why `mv` does not force a win within `n` moves counting itself (`None` if it does).
    pub fn why_not_mate(&self, mv: &str, n: u32) -> Result<Option<NotForcing>, MateError> {
        MateProver::new().why_not(self, mv, n)
    }
}

#[cfg(test)]
mod tests {
    use super::super::illegal::Outcome;
    use super::*;

    fn iccs(moves: &[Move]) -> Vec<String> {
        moves.iter().map(Move::iccs).collect()
    }

    fn pos(fen: &str) -> Position {
        Position::from_fen(fen).unwrap()
    }

    /// 马后炮 (Fairy-Stockfish: mate 1, i0e0).
    const HORSE_CANNON: &str = "4k4/9/4N4/9/9/9/9/9/9/3K4C w - - 0 1";

    #[test]
    fn horse_and_cannon_mate_in_one() {
        //   a b c d e f g h i
        // 9 . . . . k . . . .
        // 7 . . . . N . . . .      the horse covers d9 and f9
        // 0 . . . K . . . . C      the cannon to e0 checks over the horse
        let p = pos(HORSE_CANNON);
        assert_eq!(iccs(&p.mating_moves(1).unwrap()), ["i0e0"]);
        assert_eq!(p.mate_distance(3).unwrap(), Some(1));
        let (after, _) = p.play("i0e0").unwrap();
        assert!(matches!(after.outcome(), Some(Outcome::Checkmate { .. })));
    }

    #[test]
    fn double_cannons_mate_in_one() {
        // 重炮: the cannon on i4 comes behind the one on e5; the advisors fill d9 and f9,
        // and an advisor to e8 only makes it the front cannon's screen.
        //   a b c d e f g h i
        // 9 . . . a k a . . .
        // 5 . . . . C . . . .
        // 4 . . . . . . . . C
        // 0 . . . K . . . . .
        let p = pos("3aka3/9/9/9/4C4/8C/9/9/9/3K5 w - - 0 1");
        let moves = iccs(&p.mating_moves(1).unwrap());
        assert!(moves.contains(&"i4e4".to_string()), "{moves:?}");
        assert!(p.forces_mate("i4e4", 1).unwrap());
        assert!(!p.forces_mate("e5e6", 1).unwrap());
    }

    #[test]
    fn stalemate_is_a_win_for_the_attacker() {
        // 困毙: the soldier steps to e8 without check; the king on d9 has d8 and e9, both
        // covered by the soldier, and Black has nothing else: Black cannot move and loses.
        //   a b c d e f g h i
        // 9 . . . k . . . . .
        // 7 . . . . P . . . .
        // 0 . . . . . K . . .
        let p = pos("3k5/9/4P4/9/9/9/9/9/9/5K3 w - - 0 1");
        assert!(iccs(&p.mating_moves(1).unwrap()).contains(&"e7e8".to_string()));
        let (after, _) = p.play("e7e8").unwrap();
        assert!(!after.is_check());
        assert!(matches!(after.outcome(), Some(Outcome::Stalemate { .. })));
    }

    #[test]
    fn a_check_the_defence_escapes_is_explained() {
        // In the 马后炮 position the horse's check from g8 lets the king step to e8.
        let p = pos(HORSE_CANNON);
        let why = p
            .why_not_mate("e7g8", 1)
            .unwrap()
            .expect("e7g8 does not mate");
        let NotForcing::Escape { reply, .. } = &why else {
            panic!("{why:?}");
        };
        let (after, _) = p.play("e7g8").unwrap();
        assert!(after.legal_moves().contains(reply));
        assert!(why.explain(Lang::Zh).contains("之后对方还有棋可走"));
        assert!(why.explain(Lang::En).contains("can still move"));
        assert_eq!(p.why_not_mate("i0e0", 1).unwrap(), None);
        // No moves left: the sentence still reads.
        let none_left = p.why_not_mate("e7g8", 0).unwrap().expect("no moves left");
        assert!(none_left.explain(Lang::En).contains("can still move"));
        assert!(matches!(
            p.why_not_mate("i0i9x", 1).unwrap(),
            Some(NotForcing::Illegal(_))
        ));
    }

    #[test]
    fn mate_in_two_and_the_most_stubborn_defence() {
        //   a b c d e f g h i
        // 9 . . . k . a . . .
        // 8 . . . . a . . . .
        // 0 . R . . K . . . C      1. b0d0 (check) k d9e9  2. i0i9 mate (Fairy-Stockfish)
        let p = pos("3k1a3/4a4/9/9/9/9/9/9/9/1R2K3C w - - 0 1");
        assert_eq!(p.mate_distance(3).unwrap(), Some(2));
        let moves = iccs(&p.mating_moves(2).unwrap());
        assert!(moves.contains(&"b0d0".to_string()), "{moves:?}");
        assert!(p.mating_moves(1).unwrap().is_empty());
        let (after, _) = p.play("b0d0").unwrap();
        let defence = after.best_defence(1).unwrap().expect("Black can move");
        let (then, _) = after.play(&defence.iccs()).unwrap();
        assert_eq!(then.mate_distance(1).unwrap(), Some(1));
        // A quiet first move lets Black escape the mate in two, and the reason names it.
        let why = p
            .why_not_mate("e0f0", 2)
            .unwrap()
            .expect("e0f0 does not mate in 2");
        assert!(matches!(why, NotForcing::Escape { left: 2, .. }));
        assert!(why
            .explain(Lang::En)
            .contains("no forced win in the 1 move left"));
    }

    #[test]
    fn budget_and_length_are_typed_errors() {
        let p = pos("3k1a3/4a4/9/9/9/9/9/9/9/1R2K3C w - - 0 1");
        let mut small = MateProver::with_budget(5);
        assert_eq!(
            small.mating_moves(&p, 2),
            Err(MateError::Budget { budget: 5 })
        );
        assert_eq!(
            p.mating_moves(LONGEST_MATE + 1),
            Err(MateError::TooLong {
                n: LONGEST_MATE + 1
            })
        );
        for lang in Lang::ALL {
            assert!(!MateError::Budget { budget: 5 }.explain(lang).is_empty());
        }
    }

    #[test]
    fn a_repeated_position_is_no_win() {
        // The game went 1. b0d0 k d9e9 2. d0b0 k e9d9, back to the start: b0d0 would now
        // repeat a position of the game, so it is not counted as forcing the win, though
        // from a fresh FEN it forces mate in two.
        let fresh = pos("3k1a3/4a4/9/9/9/9/9/9/9/1R2K3C w - - 0 1");
        let mut game = fresh.clone();
        for mv in ["b0d0", "d9e9", "d0b0", "e9d9"] {
            game.play_in_place(mv).unwrap();
        }
        assert_eq!(game.repetitions(), 1);
        assert!(fresh.forces_mate("b0d0", 2).unwrap());
        assert!(!game.forces_mate("b0d0", 2).unwrap());
        assert!(!iccs(&game.mating_moves(2).unwrap()).contains(&"b0d0".to_string()));
    }
}
