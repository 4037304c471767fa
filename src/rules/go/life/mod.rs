//! Life and death proven by search: depth-first proof-number search (df-pn) on the
//! make/undo [`SearchBoard`](super::SearchBoard), over a region of interest, with Benson's
//! unconditional life, seki (the attacker cannot make progress), ko results kept apart from
//! plain wins, and node and time budgets that end in an honest [`Outcome::Unknown`].
//!
//! The model (as in Kishimoto and Müller's Tsumego Explorer):
//! - the **target** is the defender's stones; the attacker wins when every target stone has
//!   been captured (the defender may give up some); the defender wins when a target stone is
//!   unconditionally alive
//!   (Benson), or when the attacker has no move left in the region (seki, or nothing that
//!   does not destroy itself). The attacker never passes: passing would let the defender
//!   pass too and keep its stones.
//! - moves go only on the **region**: the empty points the defender can reach from the
//!   target without crossing the attacker's stones, and the attacker's chains next to them,
//!   inside the problem's area (the stones near the target and a margin of one line), and
//!   the empty points they enclose.
//!   Outside the area the board counts as the attacker's safe wall. The **fence** closes a
//!   loose wall's gaps: where the region, two points out from the defender's stones (three
//!   when the defender is to play), meets points the attacker guards, those points are open
//!   to the attacker's moves, and to the defender's only where they capture; the attacker
//!   may then take that stone's liberties just off the region.
//! - **ko**: the goal is first proven with the opponent as "ko master" (it may retake any
//!   ko at once, as if it had endless ko threats): a proof is a [`Outcome::Win`]. Failing
//!   that, with the side to play as ko master: a proof is a [`Outcome::Ko`]. Repetitions
//!   are refused along the searched line (positional superko), except for the ko master.
//!   Positions proven in one attempt start the next one proven where that still holds.
//! - **static kills** (the `eyes` module): with the defender to play, a target that is one
//!   chain around a pocket of two points, or of a nakade shape with the attacker on its
//!   vital point, is dead without the capture being played out. **Life in one move**: with
//!   the defender to play, a move that makes a target stone Benson-alive at once wins
//!   (a move that cannot leave two possible eyes, by `eyes::EyeSpace`, is not played out).
//! - **the fight**: the points reached from the target through everything but the stones of
//!   *safe* attacker chains (those with a liberty where no move is ever played, so never
//!   captured). A move anywhere else cannot touch the fight: it is a pass in all but name.
//!   So the defender's moves stay in the fight (it may pass), and the attacker's too, with
//!   one move away from it kept only while a ko or superko refusal in the fight makes
//!   waiting worth a move. (The one liberty: a pass and a move away leave different boards
//!   behind, which only a repetition longer than a ko could tell apart.)
//! - the order of the search: df-pn's first estimates come from the target's liberties and
//!   the depth (deep df-pn, which goes on down a line begun before opening new ones).
//!
//! This module holds the public types and the solving functions; the rest lives in
//! `problem` (the problem and its region), `search` (the proof search), `decided` (positions
//! decided without searching below them), `moves` (the moves tried), `simulation`, `table`
//! (the transposition table), `eyes` (static kills) and `goal` (goal inference).
//!
//! ```
//! use qiyuan::rules::go::{Board, Color, Move, Position};
//! use qiyuan::rules::go::life::{solve, Budget, Goal, Outcome, Problem, Region, Target};
//! // Black to kill: White's eye space A1 B1 C1 is a straight three; B1 is the vital point.
//! //   X X X X X . .
//! //   O O O O X . .
//! //   . . . O X . .
//! let board = Board::from_text_at(19, "
//!     X X X X X . .
//!     O O O O X . .
//!     . . . O X . .", qiyuan::rules::go::Point::parse("A3", 19).unwrap(), 7, 3).unwrap();
//! let pos = Position::new(board, Color::Black);
//! let problem = Problem::new(&pos, Goal::Kill, Target::Inferred, Region::Auto).unwrap();
//! let verdict = solve(&pos, &problem, Budget::default());
//! assert_eq!(verdict.outcome, Outcome::Win);
//! assert_eq!(verdict.best, Some(Move::parse("B1", 19).unwrap()));
//! ```

use super::board::Color;
use super::point::Point;
use super::position::{Move, Position};
use std::fmt;
use std::time::{Duration, Instant};

mod decided;
mod eyes;
mod goal;
mod moves;
mod problem;
mod search;
mod simulation;
mod table;
#[cfg(test)]
mod tests;

pub use goal::infer_goal;
pub use problem::Problem;
use search::{Search, PASS};
use table::{Memory, Table};

/// What the side to play wants.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Goal {
    /// Capture the target, or leave it unable to live (the side to play attacks).
    Kill,
    /// Keep the target alive: two eyes or seki (the side to play defends).
    Live,
}

/// Which stones the problem is about.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Target {
    /// The defender's group: its largest chain (most stones; then most liberties, so that
    /// of two equal chains the one in atari, which the defender may give up, is not taken
    /// for the group) and every defender stone in the region around it.
    Inferred,
    /// These stones of the defender (an author's `target`).
    Stones(Vec<Point>),
}

/// Where moves may go.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Region {
    /// Derived from the position: the defender's side of the attacker's boundary.
    Auto,
    /// These points only (an author's region): no move is searched elsewhere, and beyond
    /// the area they span the board counts as the attacker's wall.
    Points(Vec<Point>),
}

impl Region {
    /// Every point of the rectangle with corners `a` and `b` (in either order).
    ///
    /// ```
    /// use qiyuan::rules::go::Point;
    /// use qiyuan::rules::go::life::Region;
    /// let at = |name| Point::parse(name, 19).unwrap();
    /// let Region::Points(points) = Region::rectangle(at("C17"), at("A19")) else { panic!() };
    /// assert_eq!(points.len(), 9);
    /// assert!(points.contains(&at("B18")));
    /// ```
    pub fn rectangle(a: Point, b: Point) -> Region {
        let rows = a.row.min(b.row)..=a.row.max(b.row);
        let points = (a.col.min(b.col)..=a.col.max(b.col))
            .flat_map(|col| rows.clone().map(move |row| Point::new(col, row)))
            .collect();
        Region::Points(points)
    }
}

/// How much search a question may use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// The most positions to visit (each position after a move that the search values,
    /// from its table or on the board).
    pub nodes: u64,
    /// The most time to take.
    pub time: Duration,
    /// How many threads search each proof attempt at once, sharing one table (1: the same
    /// search, position for position, every time; more: faster on as many cores, in an
    /// order that depends on the threads' timing, with the same results).
    pub threads: usize,
}

impl Default for Budget {
    /// 2,000,000 positions or one second, whichever comes first, on one thread.
    fn default() -> Budget {
        Budget {
            nodes: 2_000_000,
            time: Duration::from_secs(1),
            threads: 1,
        }
    }
}

/// The result of a life-and-death question, for the side to play.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// The side to play reaches its goal whatever the opponent does, needing no ko.
    Win,
    /// The side to play reaches its goal only by winning a ko; `first_threat` is the side
    /// that must find the first ko threat (the other takes the ko first).
    Ko { first_threat: Color },
    /// The side to play cannot reach its goal, even by ko.
    Loss,
    /// The budget ran out first.
    Unknown,
}

impl Outcome {
    /// The same result seen from the opponent of the side to play.
    pub fn for_opponent(self) -> Outcome {
        match self {
            Outcome::Win => Outcome::Loss,
            Outcome::Loss => Outcome::Win,
            other => other,
        }
    }

    /// `win`, `ko` or `loss`, `unknown`.
    pub fn as_str(self) -> &'static str {
        match self {
            Outcome::Win => "win",
            Outcome::Ko { .. } => "ko",
            Outcome::Loss => "loss",
            Outcome::Unknown => "unknown",
        }
    }
}

/// The solver's answer for a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verdict {
    /// The result for the side to play.
    pub outcome: Outcome,
    /// The move to play: a winning one for a win or a ko, the longest resistance for a
    /// loss; `None` when the goal is already decided on the board or nothing is known.
    pub best: Option<Move>,
    /// The main line of the proof from the position, the best move first: the winner's
    /// quickest way, the loser's longest resistance. It stops where a ko would need a threat.
    pub line: Vec<Move>,
    /// Positions searched.
    pub nodes: u64,
    /// Time taken.
    pub elapsed: Duration,
}

/// A move judged by the solver.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Judgement {
    /// The result for the side that played the move.
    pub outcome: Outcome,
    /// The opponent's best answer: the refutation of a wrong move, the longest resistance
    /// to a correct one.
    pub reply: Option<Move>,
    /// The line after the move, the reply first.
    pub line: Vec<Move>,
    /// Positions searched.
    pub nodes: u64,
}

/// Why a problem could not be set up.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BadProblem {
    /// A point lies outside the board.
    OffBoard { point: Point },
    /// A target point holds no stone of the defender.
    NotDefenderStone { point: Point, defender: Color },
    /// The defender has no stones to infer a target from.
    NoDefenderStones { defender: Color },
    /// The author's region holds no point.
    EmptyRegion,
}

impl fmt::Display for BadProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BadProblem::OffBoard { point } => {
                write!(f, "point ({}, {}) is off the board", point.col, point.row)
            }
            BadProblem::NotDefenderStone { point, defender } => write!(
                f,
                "target point ({}, {}) holds no {} stone",
                point.col,
                point.row,
                defender.as_str()
            ),
            BadProblem::NoDefenderStones { defender } => {
                write!(f, "{} has no stones to defend", defender.as_str())
            }
            BadProblem::EmptyRegion => f.write_str("the region holds no point"),
        }
    }
}

impl std::error::Error for BadProblem {}

/// One proof attempt for the side to play, with `ko_master` free to retake kos.
struct Attempt<'a> {
    proven: Option<bool>,
    line: Vec<Move>,
    nodes: u64,
    /// The search, with its table: it still knows the moves it proved or refuted.
    search: Search<'a>,
}

/// One proof attempt; `known` are positions already proven or disproven for the same
/// prover under another ko rule that carry over to this one.
fn attempt<'a>(
    position: &Position,
    problem: &'a Problem,
    ko_master: Option<Color>,
    budget: Budget,
    deadline: Instant,
    known: Table,
) -> Attempt<'a> {
    let prover = position.turn();
    let mut search = Search::new(position, problem, prover, ko_master);
    search.tt = Memory::Own(known);
    search.node_limit = budget.nodes;
    search.deadline = deadline;
    let proven = if budget.threads > 1 && search.decided().is_none() {
        search.run_with_helpers(budget.threads - 1)
    } else {
        search.run()
    };
    let line = match proven {
        Some(win) => {
            let line = search.main_line(win, 40);
            line.into_iter().map(|c| search.to_move(c)).collect()
        }
        None => Vec::new(),
    };
    Attempt {
        proven,
        line,
        nodes: search.nodes,
        search,
    }
}

impl Attempt<'_> {
    /// What this attempt's table already proves about the prover's move `mv` at the root:
    /// `Some((true, line))` if the move reaches the goal under this attempt's ko rule,
    /// `Some((false, line))` if it does not, with the line after it (the reply first).
    fn knows(&mut self, mv: Move) -> Option<(bool, Vec<Move>)> {
        let search = &mut self.search;
        let c = match mv {
            Move::Pass => PASS,
            Move::Play(p) => {
                let v = search.board.vertex(p);
                if !search.candidates().contains(&v) {
                    return None;
                }
                v
            }
        };
        if c == PASS && search.board.turn() != search.defender {
            return None;
        }
        search.play(c);
        let entry = search.tt.get(search.key());
        let known = match entry {
            Some(e) if e.pn == 0 => Some(true),
            Some(e) if e.dn == 0 && !search.disproofs_untrusted => Some(false),
            _ => None,
        };
        let out = known.map(|win| {
            let line = search.main_line(win, 40);
            (win, line.into_iter().map(|c| search.to_move(c)).collect())
        });
        search.board.undo();
        out
    }
}

/// Cuts `line` where a move is not legal under the real rules (a ko retaken without the
/// threat the search assumed).
fn legal_prefix(position: &Position, line: Vec<Move>) -> Vec<Move> {
    let mut pos = position.clone();
    let mut out = Vec::new();
    for mv in line {
        match pos.play_move(mv) {
            Ok(next) => {
                pos = next;
                out.push(mv);
            }
            Err(_) => break,
        }
    }
    out
}

/// Solves `problem` in `position` for the side to play.
///
/// ```
/// use qiyuan::rules::go::{Board, Color, Move, Point, Position};
/// use qiyuan::rules::go::life::{solve, Budget, Goal, Outcome, Problem, Region, Target};
/// // Black to live in the corner: A9 makes two eyes (B9 and A8); elsewhere White A9 kills.
/// //   . . X O .
/// //   . X X O .
/// //   X X O O .
/// //   O O . . .
/// let board = Board::from_text_at(9, "
///     . . X O .
///     . X X O .
///     X X O O .
///     O O . . .", Point::new(0, 0), 5, 4).unwrap();
/// let pos = Position::new(board, Color::Black);
/// let problem = Problem::new(&pos, Goal::Live, Target::Inferred, Region::Auto).unwrap();
/// let verdict = solve(&pos, &problem, Budget::default());
/// assert_eq!(verdict.outcome, Outcome::Win);
/// assert_eq!(verdict.best, Some(Move::parse("A9", 9).unwrap()));
/// ```
pub fn solve(position: &Position, problem: &Problem, budget: Budget) -> Verdict {
    solve_keeping(position, problem, budget).verdict
}

/// A solved problem that keeps its proof's table, to judge moves of the side to play
/// without searching again where the proof already settles them.
pub struct Solution<'a> {
    /// The result of the problem.
    pub verdict: Verdict,
    position: Position,
    problem: &'a Problem,
    budget: Budget,
    /// The attempt that decided the problem and whether the side to play won it: a strict
    /// win (the opponent as ko master) or a loss even as ko master.
    settled: Option<(Attempt<'a>, bool)>,
}

impl Solution<'_> {
    /// Judges `mv` as [`evaluate_move`] does (with the same budget as the problem): a
    /// winning move of a won problem and any move of a lost one come from the proof's
    /// table, anything else from a new search. `Err` if the move is illegal.
    pub fn judge(&mut self, mv: Move) -> Result<Judgement, super::Illegal> {
        let next = self.position.play_move(mv)?;
        if let Some((attempt, won)) = self.settled.as_mut() {
            if let Some((win, line)) = attempt.knows(mv) {
                // A strict win of the mover stays a win after it; a loss even as ko
                // master stays a loss.
                if win == *won {
                    let line = legal_prefix(&next, line);
                    return Ok(Judgement {
                        outcome: if win { Outcome::Win } else { Outcome::Loss },
                        reply: line.first().copied(),
                        line,
                        nodes: 0,
                    });
                }
            }
        }
        evaluate_move(&self.position, self.problem, mv, self.budget)
    }
}

/// Solves `problem` in `position` for the side to play, keeping the proof to judge moves
/// with ([`Solution::judge`]).
pub fn solve_keeping<'a>(
    position: &Position,
    problem: &'a Problem,
    budget: Budget,
) -> Solution<'a> {
    let start = Instant::now();
    let deadline = start + budget.time;
    let me = position.turn();
    let mut nodes = 0;
    let finish = |outcome: Outcome, line: Vec<Move>, nodes: u64| {
        let line = legal_prefix(position, line);
        Verdict {
            outcome,
            best: line.first().copied(),
            line,
            nodes,
            elapsed: start.elapsed(),
        }
    };
    // Without needing a ko: the opponent may retake every ko at once.
    let mut strict = attempt(
        position,
        problem,
        Some(me.opponent()),
        budget,
        deadline,
        Table::default(),
    );
    nodes += strict.nodes;
    let (verdict, settled) = match strict.proven {
        Some(true) => {
            let line = std::mem::take(&mut strict.line);
            (finish(Outcome::Win, line, nodes), Some((strict, true)))
        }
        // Out of budget: nothing known.
        None if strict.search.aborted => (finish(Outcome::Unknown, Vec::new(), nodes), None),
        // Disproven, or refuted only through a cycle (untrusted): on to the ko attempts.
        strict_result => {
            // Only a trusted disproof shows that a ko is the best the side to play gets;
            // after an untrusted one a ko win is reported as unknown.
            let no_strict_win = strict_result == Some(false);
            // A position proven with the opponent as ko master stays proven with the side
            // to play as ko master, or with none: the prover may only gain moves, the
            // opponent only lose them. Disproofs carry over the other way.
            let proofs = strict.search.tt.entries_where(|e| e.pn == 0);
            drop(strict);
            // By ko: the side to play may retake every ko at once.
            let left = Budget {
                nodes: budget.nodes.saturating_sub(nodes),
                ..budget
            };
            let mut master = attempt(position, problem, Some(me), left, deadline, proofs.clone());
            nodes += master.nodes;
            match master.proven {
                Some(false) => {
                    let line = std::mem::take(&mut master.line);
                    (finish(Outcome::Loss, line, nodes), Some((master, false)))
                }
                None => (finish(Outcome::Unknown, Vec::new(), nodes), None),
                Some(true) if !no_strict_win => (finish(Outcome::Unknown, Vec::new(), nodes), None),
                Some(true) => {
                    // (Disproofs only if no line met the depth limit: those are untrusted.)
                    let mut known = if master.search.disproofs_untrusted {
                        Table::default()
                    } else {
                        master.search.tt.entries_where(|e| e.dn == 0)
                    };
                    known.extend(proofs);
                    drop(master.search);
                    // Who needs the first threat: with no ko master at all, the side that
                    // takes the ko first wins it. The ko is decided already: this detail
                    // gets at most as many positions as the two attempts before it and
                    // half the time left, so that it never holds the verdict back to the
                    // deadline; out of them the side to play is said to need the first
                    // threat (the cautious answer).
                    let left = Budget {
                        nodes: budget.nodes.saturating_sub(nodes).min(nodes),
                        ..budget
                    };
                    let now = Instant::now();
                    let half_left = now + deadline.saturating_duration_since(now) / 2;
                    let plain = attempt(position, problem, None, left, half_left, known);
                    nodes += plain.nodes;
                    let first_threat = match plain.proven {
                        Some(true) => me.opponent(),
                        _ => me,
                    };
                    (
                        finish(Outcome::Ko { first_threat }, master.line, nodes),
                        None,
                    )
                }
            }
        }
    };
    Solution {
        verdict,
        position: position.clone(),
        problem,
        budget,
        settled,
    }
}

/// Judges `mv` for the side to play: the solver's result for it after the move, and the
/// opponent's best reply (the refutation of a wrong move). `Err` if the move is illegal.
pub fn evaluate_move(
    position: &Position,
    problem: &Problem,
    mv: Move,
    budget: Budget,
) -> Result<Judgement, super::Illegal> {
    let next = position.play_move(mv)?;
    let answer = solve(&next, problem, budget);
    Ok(Judgement {
        outcome: answer.outcome.for_opponent(),
        reply: answer.best,
        line: answer.line,
        nodes: answer.nodes,
    })
}

/// The side to play's best move: a winning one if there is one, else the longest
/// resistance. `None` if the budget decides nothing or the position is already decided.
pub fn best_defence(position: &Position, problem: &Problem, budget: Budget) -> Option<Move> {
    solve(position, problem, budget).best
}

/// Every legal move of the side to play in the region (and the pass), judged; the budget
/// is for each move.
pub fn judge_all_moves(
    position: &Position,
    problem: &Problem,
    budget: Budget,
) -> Vec<(Move, Judgement)> {
    let mut moves: Vec<Move> = problem
        .moves_of(position.turn())
        .filter(|&p| position.board().get(p).is_none())
        .map(Move::Play)
        .collect();
    moves.push(Move::Pass);
    moves
        .into_iter()
        .filter_map(|mv| {
            evaluate_move(position, problem, mv, budget)
                .ok()
                .map(|j| (mv, j))
        })
        .collect()
}
