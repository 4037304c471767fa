//! Life and death proven by search: depth-first proof-number search (df-pn) on the
//! make/undo [`SearchBoard`], over a region of interest, with Benson's unconditional life,
//! seki (the attacker cannot make progress), ko results kept apart from plain wins, and
//! node and time budgets that end in an honest [`Outcome::Unknown`].
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
use super::fast::{KeyHasher, PointSet, Refusal, SearchBoard};
use super::point::Point;
use super::position::{Move, Position};
use std::collections::hash_map::Entry as Slot;
use std::collections::{HashMap, HashSet};
use std::fmt;
use std::hash::BuildHasherDefault;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicU8, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

mod eyes;

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

/// A life-and-death problem on a board: who attacks, which stones, where moves may go.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    attacker: Color,
    target: Vec<Point>,
    region: Vec<Point>,
    /// Empty points outside the region where only the attacker may play, and the defender
    /// only to capture (see [`auto_region`]).
    fence: Vec<Point>,
    /// The part of the board kept as it is: (first column, first row, last column, last
    /// row). Outside it the board is the attacker's wall.
    area: (u8, u8, u8, u8),
    /// The author's (or the book's) first moves and the position they are played from,
    /// searched first there (see [`Problem::with_first_moves`]).
    first_moves: Option<FirstMoves>,
}

/// The first moves an author gives for a problem's start, and that start.
#[derive(Clone, Debug, PartialEq, Eq)]
struct FirstMoves {
    board: super::Board,
    turn: Color,
    moves: Vec<Point>,
}

impl Problem {
    /// The problem of `position` where the side to play has `goal`.
    pub fn new(
        position: &Position,
        goal: Goal,
        target: Target,
        region: Region,
    ) -> Result<Problem, BadProblem> {
        let defender = match goal {
            Goal::Kill => position.turn().opponent(),
            Goal::Live => position.turn(),
        };
        Problem::with_defender(position, defender, target, region)
    }

    /// The problem of `position` in which `defender`'s stones are at stake.
    pub fn with_defender(
        position: &Position,
        defender: Color,
        target: Target,
        region: Region,
    ) -> Result<Problem, BadProblem> {
        let board = position.board();
        let size = board.size();
        let target_given = matches!(target, Target::Stones(_)).then_some(());
        let target = match target {
            Target::Stones(points) => {
                for &p in &points {
                    if !board.contains(p) {
                        return Err(BadProblem::OffBoard { point: p });
                    }
                    if board.get(p) != Some(defender) {
                        return Err(BadProblem::NotDefenderStone { point: p, defender });
                    }
                }
                let mut points = points;
                points.sort();
                points.dedup();
                points
            }
            Target::Inferred => {
                let mut best: Option<(usize, usize, Vec<Point>)> = None;
                let mut seen = std::collections::HashSet::new();
                for p in board.stones(defender) {
                    if !seen.insert(p) {
                        continue;
                    }
                    let chain = board.chain(p);
                    seen.extend(chain.iter().copied());
                    let key = (chain.len(), board.liberties(p).len());
                    if best.as_ref().is_none_or(|b| key > (b.0, b.1)) {
                        best = Some((key.0, key.1, chain));
                    }
                }
                let mut chain = best.ok_or(BadProblem::NoDefenderStones { defender })?.2;
                chain.sort();
                chain
            }
        };
        if target.is_empty() {
            return Err(BadProblem::NoDefenderStones { defender });
        }
        let attacker = defender.opponent();
        let inferred = target_given.is_none();
        let (region, fence, group, area) = match region {
            Region::Points(points) => {
                if points.is_empty() {
                    return Err(BadProblem::EmptyRegion);
                }
                if let Some(&p) = points.iter().find(|p| !board.contains(**p)) {
                    return Err(BadProblem::OffBoard { point: p });
                }
                let mut points = points;
                points.sort();
                points.dedup();
                let spread: Vec<Point> = points.iter().chain(target.iter()).copied().collect();
                let area = widen(bounds(&spread), size);
                let group = points
                    .iter()
                    .copied()
                    .filter(|&p| board.get(p) == Some(defender))
                    .collect();
                (points, Vec::new(), group, area)
            }
            Region::Auto => {
                let cluster = cluster(board, &target);
                let area = widen(bounds(&cluster), size);
                let reach = if position.turn() == attacker {
                    REACH_TO_KILL
                } else {
                    REACH_TO_LIVE
                };
                let auto = auto_region(board, &target, attacker, area, reach);
                (auto.region, auto.fence, auto.group, area)
            }
        };
        // An inferred target is the whole group: every defender stone in the region.
        let target = if inferred {
            let mut group: Vec<Point> = group.into_iter().chain(target.iter().copied()).collect();
            group.sort();
            group.dedup();
            group
        } else {
            target
        };
        Ok(Problem {
            attacker,
            target,
            region,
            fence,
            area,
            first_moves: None,
        })
    }

    /// The same problem, with `moves` (the author's or the book's answer from `start`)
    /// searched first whenever the solver starts from `start`: the search stays in them
    /// until their proof looks 16 times dearer than another move's.
    /// It changes the order of the search only, never a result: a first move that does
    /// not work is refuted, and the other moves are searched as before.
    pub fn with_first_moves(mut self, start: &Position, moves: &[Point]) -> Problem {
        self.first_moves = (!moves.is_empty()).then(|| FirstMoves {
            board: start.board().clone(),
            turn: start.turn(),
            moves: moves.to_vec(),
        });
        self
    }

    /// The first moves to search first from `position`: the author's, if it is their start.
    fn first_moves_from(&self, position: &Position) -> &[Point] {
        match &self.first_moves {
            Some(f) if f.turn == position.turn() && &f.board == position.board() => &f.moves,
            _ => &[],
        }
    }

    /// The same problem with the whole corner of `position` as its region: every point of
    /// the rectangle that holds every stone and one line more, where either side may play
    /// (no fence), the target as it is. The derived region is a heuristic; this one leaves
    /// nothing out near the stones, at the price of a larger search. Returns the
    /// rectangle's top left and bottom right corners with it; `None` on an empty board.
    ///
    /// ```
    /// use qiyuan::rules::go::{Board, Color, Point, Position};
    /// use qiyuan::rules::go::life::{Goal, Problem, Region, Target};
    /// //   X X X X X . .     (A3-G1 on a 9×9 board)
    /// //   O O O O X . .     Black to kill; the whole corner is A4:F1.
    /// //   . . . O X . .
    /// let board = Board::from_text_at(9, "
    ///     X X X X X . .
    ///     O O O O X . .
    ///     . . . O X . .", Point::parse("A3", 9).unwrap(), 7, 3).unwrap();
    /// let pos = Position::new(board, Color::Black);
    /// let problem = Problem::new(&pos, Goal::Kill, Target::Inferred, Region::Auto).unwrap();
    /// let ((top_left, bottom_right), corner) = problem.whole_corner(&pos).unwrap();
    /// assert_eq!((top_left.name(9), bottom_right.name(9)), ("A4".into(), "F1".into()));
    /// assert_eq!(corner.region().len(), 24);
    /// assert_eq!(corner.target(), problem.target());
    /// ```
    pub fn whole_corner(&self, position: &Position) -> Option<((Point, Point), Problem)> {
        let board = position.board();
        let last = position.size() - 1;
        let stones: Vec<Point> = board.points().filter(|&p| board.get(p).is_some()).collect();
        if stones.is_empty() {
            return None;
        }
        let (c0, r0, c1, r1) = bounds(&stones);
        let top_left = Point::new(c0.saturating_sub(1), r0.saturating_sub(1));
        let bottom_right = Point::new((c1 + 1).min(last), (r1 + 1).min(last));
        let region = Region::rectangle(top_left, bottom_right);
        let target = Target::Stones(self.target.clone());
        let corner = Problem::with_defender(position, self.defender(), target, region).ok()?;
        Some(((top_left, bottom_right), corner))
    }

    /// The side that kills.
    pub fn attacker(&self) -> Color {
        self.attacker
    }

    /// The side that lives.
    pub fn defender(&self) -> Color {
        self.attacker.opponent()
    }

    /// The defender's stones at stake, sorted.
    pub fn target(&self) -> &[Point] {
        &self.target
    }

    /// The points where moves may go, sorted.
    pub fn region(&self) -> &[Point] {
        &self.region
    }

    /// The goal of `color` in this problem.
    pub fn goal_of(&self, color: Color) -> Goal {
        if color == self.attacker {
            Goal::Kill
        } else {
            Goal::Live
        }
    }

    /// The points where `color` may play: the region, and for the attacker the fence.
    fn moves_of(&self, color: Color) -> impl Iterator<Item = Point> + '_ {
        let fence: &[Point] = if color == self.attacker {
            &self.fence
        } else {
            &[]
        };
        self.region.iter().chain(fence).copied()
    }

    fn in_area(&self, p: Point) -> bool {
        let (c0, r0, c1, r1) = self.area;
        (c0..=c1).contains(&p.col) && (r0..=r1).contains(&p.row)
    }
}

/// The stones near the target: stones within two lines of one already found.
fn cluster(board: &super::Board, target: &[Point]) -> Vec<Point> {
    let stones: Vec<Point> = board.points().filter(|&p| board.get(p).is_some()).collect();
    let mut found: Vec<Point> = target.to_vec();
    let mut taken = vec![false; stones.len()];
    let mut i = 0;
    while i < found.len() {
        let p = found[i];
        for (j, &q) in stones.iter().enumerate() {
            if !taken[j] && p.col.abs_diff(q.col) <= 2 && p.row.abs_diff(q.row) <= 2 {
                taken[j] = true;
                found.push(q);
            }
        }
        i += 1;
    }
    found
}

fn bounds(points: &[Point]) -> (u8, u8, u8, u8) {
    let c0 = points.iter().map(|p| p.col).min().unwrap_or(0);
    let r0 = points.iter().map(|p| p.row).min().unwrap_or(0);
    let c1 = points.iter().map(|p| p.col).max().unwrap_or(0);
    let r1 = points.iter().map(|p| p.row).max().unwrap_or(0);
    (c0, r0, c1, r1)
}

/// The area of a problem from the bounds of its stones: a strip of two lines or less left
/// to an edge joins the area; elsewhere the outermost stones are the boundary.
fn widen((c0, r0, c1, r1): (u8, u8, u8, u8), size: u8) -> (u8, u8, u8, u8) {
    let low = |x: u8| if x <= 2 { 0 } else { x };
    let high = |x: u8| if x + 3 >= size { size - 1 } else { x };
    (low(c0), low(r0), high(c1), high(r1))
}

/// A boundary chain of the attacker with this many liberties or fewer brings its liberties
/// into the region: the defender may fight to capture it.
const SHORT_OF_LIBERTIES: usize = 3;

/// How far, in empty points, the region reaches out from the defender's stones before the
/// attacker's guarded points become the fence (see [`auto_region`]), when the attacker is
/// to play.
const REACH_TO_KILL: u8 = 2;

/// The reach when the defender is to play: one point more, because a group that must live
/// needs room to make its eyes (with two, Cho 133, 301, 317, 458 and 573 refute the book's
/// living move for want of it).
const REACH_TO_LIVE: u8 = 3;

/// The region of a problem and its fence.
struct AutoRegion {
    region: Vec<Point>,
    /// Empty points just outside the region that the attacker guards: only the attacker
    /// plays there.
    fence: Vec<Point>,
    /// The defender's stones the region reaches from the target (an inferred target's
    /// group).
    group: Vec<Point>,
}

/// The empty points and defender stones reachable from the target without crossing the
/// attacker's stones, inside `area`, and the attacker's chains next to them.
///
/// The reach into open space is limited: from the defender's stones the region goes `reach`
/// empty points out freely ([`REACH_TO_KILL`] or [`REACH_TO_LIVE`]); beyond that an empty
/// point the attacker guards (an attacker stone next to it or diagonally next to it, and no
/// defender stone nearer) is the attacker's, and becomes the **fence**: an empty point
/// where only the attacker may play (and the defender, in the search, to capture a stone),
/// so that a defender running through a gap in a loose wall meets the wall the gap's guard
/// stands for, while the attacker still spends the move that closes the gap (a stone put
/// there for free would take a liberty of the fight without a move). The defender's chains
/// next to a boundary chain short of liberties bring their liberties into the region (the
/// attacker may capture them), and their own attacker neighbours are boundary chains in
/// turn (the defender may capture those to save them). Last, the region takes in its
/// **holes**: connected empty points whose every neighbour is in the region (a liberty two
/// racing chains share, cut off from the target by one of them), when the defender is to
/// play all of them, else only those the attacker does not guard.
///
/// ```text
///   . O . . O . .    Black to kill. White may run out at A17 and A16; A15 and B16
///   O O O O X X .    (guarded by Black's B15 and B17, two points out) are the fence.
///   . X X X . . .    Without it the region would hold all the open points of rows 14
///   . . . . . . .    to 16.
///   . X . . . . .
/// ```
fn auto_region(
    board: &super::Board,
    target: &[Point],
    attacker: Color,
    area: (u8, u8, u8, u8),
    reach: u8,
) -> AutoRegion {
    let (c0, r0, c1, r1) = area;
    let inside = |p: Point| (c0..=c1).contains(&p.col) && (r0..=r1).contains(&p.row);
    let defender = attacker.opponent();
    let size = board.size() as i32;
    // Manhattan distance to the nearest stone of each colour.
    let stones: Vec<(Point, Color)> = board
        .points()
        .filter_map(|p| board.get(p).map(|c| (p, c)))
        .collect();
    let nearest = |p: Point, color: Color| {
        stones
            .iter()
            .filter(|(_, c)| *c == color)
            .map(|(q, _)| p.col.abs_diff(q.col) as u32 + p.row.abs_diff(q.row) as u32)
            .min()
            .unwrap_or(u32::MAX)
    };
    // An empty point the attacker guards: an attacker stone next to it or diagonally next
    // to it, and no defender stone nearer.
    let guarded = |p: Point| {
        let (c, r) = (p.col as i32, p.row as i32);
        let near = (-1..=1).any(|dc| {
            (-1..=1).any(|dr| {
                let (x, y) = (c + dc, r + dr);
                (0..size).contains(&x)
                    && (0..size).contains(&y)
                    && board.get(Point::new(x as u8, y as u8)) == Some(attacker)
            })
        });
        near && nearest(p, attacker) <= nearest(p, defender)
    };
    // From the target outwards: a defender stone is at distance 0, an empty point one more
    // than the point it is reached from (shortest distances, by relaxation).
    let mut distance: HashMap<Point, u8> = HashMap::new();
    let mut queue = std::collections::VecDeque::new();
    for &t in target {
        distance.insert(t, 0);
        queue.push_back(t);
    }
    let mut walls = Vec::new();
    while let Some(p) = queue.pop_front() {
        let d = distance[&p];
        for n in board.neighbours(p) {
            if !inside(n) {
                continue;
            }
            let next = match board.get(n) {
                Some(c) if c == attacker => {
                    walls.push(n);
                    continue;
                }
                Some(_) => 0,
                None if d >= reach && guarded(n) => {
                    continue;
                }
                None => d.saturating_add(1),
            };
            if distance.get(&n).is_none_or(|&old| next < old) {
                distance.insert(n, next);
                queue.push_back(n);
            }
        }
    }
    let mut seen: std::collections::HashSet<Point> = distance.keys().copied().collect();
    let group: Vec<Point> = distance
        .keys()
        .copied()
        .filter(|&p| board.get(p) == Some(defender))
        .collect();
    // The attacker's chains on the boundary may be captured: their stones, and the
    // liberties (in the area) of those short of liberties, are in the region too; so are
    // the stones and liberties of the defender's other chains next to a short one (the
    // attacker may capture them to save it), and such a chain's own attacker neighbours
    // are boundary chains in their turn (the fight goes on around it).
    while let Some(w) = walls.pop() {
        if seen.contains(&w) {
            continue;
        }
        let chain = board.chain(w);
        seen.extend(chain.iter().copied().filter(|&s| inside(s)));
        let liberties = board.liberties(w);
        if liberties.len() > SHORT_OF_LIBERTIES {
            continue;
        }
        seen.extend(liberties.into_iter().filter(|&l| inside(l)));
        for &s in &chain {
            for n in board.neighbours(s) {
                let other = board.get(n) == Some(defender)
                    && !distance.contains_key(&n)
                    && !seen.contains(&n);
                if !other {
                    continue;
                }
                let stones = board.chain(n);
                walls.extend(
                    stones
                        .iter()
                        .flat_map(|&q| board.neighbours(q))
                        .filter(|&a| {
                            inside(a) && board.get(a) == Some(attacker) && !seen.contains(&a)
                        }),
                );
                seen.extend(stones.into_iter().filter(|&q| inside(q)));
                seen.extend(board.liberties(n).into_iter().filter(|&l| inside(l)));
            }
        }
    }
    // A group that must live may make an eye in a hole the attacker guards (its reach is
    // [`REACH_TO_LIVE`]); to kill, such a hole is the attacker's.
    let must_live = reach == REACH_TO_LIVE;
    let holes = holes(board, &seen, inside, |p| !must_live && guarded(p));
    seen.extend(holes);
    // The fence: the empty points of the area next to the region's empty points, outside
    // it, that the attacker guards.
    let mut fence = std::collections::BTreeSet::new();
    for &p in &seen {
        if board.get(p).is_some() {
            continue;
        }
        for n in board.neighbours(p) {
            if inside(n) && board.get(n).is_none() && !seen.contains(&n) && guarded(n) {
                fence.insert(n);
            }
        }
    }
    let mut region: Vec<Point> = seen.into_iter().collect();
    region.sort();
    AutoRegion {
        region,
        group,
        fence: fence.into_iter().collect(),
    }
}

/// The region's holes: connected empty points inside the area, none of them `guarded`
/// (the attacker's), whose every neighbour outside them is in `region`. Nothing reaches them from
/// the target (a wall cuts them off), yet the fight is all around them.
///
/// ```text
///   . . O . X    White's C19-C17 chain (short of liberties) brings B19, and Black's
///   . X O . .    B18-B17 chain next to it brings its liberties A18 and A17; A19, next
///   . X O X X    to A18 and B19 only, is the race's shared liberty: a hole.
/// ```
fn holes(
    board: &super::Board,
    region: &HashSet<Point>,
    inside: impl Fn(Point) -> bool,
    guarded: impl Fn(Point) -> bool,
) -> Vec<Point> {
    let open = |p: Point| inside(p) && board.get(p).is_none() && !guarded(p);
    let mut holes = Vec::new();
    // Every empty point outside the region met so far (a flood takes its whole piece).
    let mut looked = HashSet::new();
    for &p in region {
        for start in board.neighbours(p) {
            let outside = inside(start) && board.get(start).is_none() && !region.contains(&start);
            if !outside || !looked.insert(start) {
                continue;
            }
            let mut piece = vec![start];
            let mut enclosed = open(start);
            let mut i = 0;
            while i < piece.len() {
                for n in board.neighbours(piece[i]) {
                    if region.contains(&n) {
                        continue;
                    }
                    if !open(n) {
                        enclosed = false;
                    } else if looked.insert(n) {
                        piece.push(n);
                    }
                }
                i += 1;
            }
            if enclosed {
                holes.extend(piece);
            }
        }
    }
    holes
}

// ---------------------------------------------------------------------------------------
// The search
// ---------------------------------------------------------------------------------------

const INF: u32 = 1 << 30;
/// The longest line searched; deeper lines count as not proven.
const MAX_DEPTH: usize = 160;
/// Deep df-pn (Zhang, Iida and van den Herik, 2017): a new position at depth `d` starts
/// with its estimates multiplied by `max(DEEP - d, 1)`, so that the search prefers to go
/// deeper in a line it has begun over opening many shallow ones. It changes the order of
/// the search, never a result (20 measured best of 10, 15, 20, 30 and 45 on the Cho
/// problems; docs/performance.md).
const DEEP: u32 = 20;
/// How many times more a move's proof may cost than the author's first move's before the
/// search leaves the first move for it (see [`Problem::with_first_moves`]).
const FIRST_MOVE_WEIGHT: u64 = 16;
/// The ε of the 1+ε trick, in sixteenths, of the first helper thread (more for each next
/// one): larger than the main thread's, so that the threads part.
const HELPER_STAY: u64 = 12;

#[derive(Clone, Copy, Debug)]
struct Entry {
    pn: u32,
    dn: u32,
    /// Positions searched below this one (a measure of how hard it is to prove).
    work: u32,
}

/// The transposition table: (pn, dn) for the prover by position key.
type Table = HashMap<u64, Entry, BuildHasherDefault<KeyHasher>>;

/// How many pieces [`Shared`]'s table is locked in.
const SHARDS: usize = 64;
/// How many slots [`Shared::busy`] has.
const BUSY_SLOTS: usize = 1 << 16;

/// What the threads of one proof attempt share: the table, split in [`SHARDS`] pieces
/// locked one at a time (by bits of the key that neither the map's bucket nor its tag
/// uses); the positions all threads have counted; and the flag that stops them.
struct Shared {
    shards: Vec<Mutex<Table>>,
    /// The positions the threads have reported (each reports every 1,024 or so).
    nodes: AtomicU64,
    /// Set when one thread has settled the root or run out of budget: the others stop.
    stop: AtomicBool,
    /// How many threads are searching below each position, by key (in [`BUSY_SLOTS`]
    /// slots, so positions may share one).
    busy: Vec<AtomicU8>,
}

impl Shared {
    /// A shared table that starts with `known`.
    fn new(known: Table) -> Shared {
        let mut shards: Vec<Table> = (0..SHARDS).map(|_| Table::default()).collect();
        for (key, entry) in known {
            shards[Shared::shard_of(key)].insert(key, entry);
        }
        Shared {
            shards: shards.into_iter().map(Mutex::new).collect(),
            nodes: AtomicU64::new(0),
            stop: AtomicBool::new(false),
            busy: (0..BUSY_SLOTS).map(|_| AtomicU8::new(0)).collect(),
        }
    }

    /// How many threads are searching below the position `key` (or one sharing its slot).
    fn busy(&self, key: u64) -> u8 {
        self.busy[key as usize % BUSY_SLOTS].load(Ordering::Relaxed)
    }

    /// Notes that a thread starts (`true`) or ends (`false`) searching below `key`.
    fn mark(&self, key: u64, arrives: bool) {
        let slot = &self.busy[key as usize % BUSY_SLOTS];
        if arrives {
            slot.fetch_add(1, Ordering::Relaxed);
        } else {
            slot.fetch_sub(1, Ordering::Relaxed);
        }
    }

    fn shard_of(key: u64) -> usize {
        (key >> 40) as usize % SHARDS
    }

    fn shard(&self, key: u64) -> MutexGuard<'_, Table> {
        lock(&self.shards[Shared::shard_of(key)])
    }
}

/// Locks one shard of the table; a thread that panicked leaves it as it was (its entries
/// stay whole), so it is used on.
fn lock(shard: &Mutex<Table>) -> MutexGuard<'_, Table> {
    shard
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// The table of one search: its own (one thread, no locks), or one shared with other
/// threads.
#[derive(Clone)]
enum Memory {
    Own(Table),
    Shared(Arc<Shared>),
}

impl Memory {
    fn get(&self, key: u64) -> Option<Entry> {
        match self {
            Memory::Own(table) => table.get(&key).copied(),
            Memory::Shared(shared) => shared.shard(key).get(&key).copied(),
        }
    }

    /// Stores `entry`, except over a settled entry (a proof or disproof found, by another
    /// thread or by a simulation below, while the search of this position still held
    /// older values).
    fn insert(&mut self, key: u64, entry: Entry) {
        self.insert_with(key, entry, false);
    }

    /// [`Memory::insert`]; with `add`, the work already stored for `key` is added to
    /// `entry`'s (a position searched again: its work is the sum of its searches).
    fn insert_with(&mut self, key: u64, entry: Entry, add: bool) {
        match self {
            Memory::Own(table) => keep_settled(table, key, entry, add),
            Memory::Shared(shared) => keep_settled(&mut shared.shard(key), key, entry, add),
        }
    }

    /// The entries that `keep` selects (proofs or disproofs, to carry over to an attempt
    /// under another ko rule where they still hold).
    fn entries_where(&self, keep: impl Fn(&Entry) -> bool) -> Table {
        let mut out = Table::default();
        let mut add = |table: &Table| {
            out.extend(table.iter().filter(|(_, e)| keep(e)).map(|(k, e)| (*k, *e)));
        };
        match self {
            Memory::Own(table) => add(table),
            Memory::Shared(shared) => shared.shards.iter().for_each(|shard| add(&lock(shard))),
        }
        out
    }

    /// What the threads share, if there are others.
    fn shared(&self) -> Option<&Shared> {
        match self {
            Memory::Own(_) => None,
            Memory::Shared(shared) => Some(shared),
        }
    }
}

/// Stores `entry` in `table`, except an unsettled entry over a settled one; with `add`,
/// the stored entry's work is added to `entry`'s first. One probe of the table.
fn keep_settled(table: &mut Table, key: u64, mut entry: Entry, add: bool) {
    match table.entry(key) {
        Slot::Occupied(mut slot) => {
            let old = slot.get_mut();
            if add {
                entry.work = entry.work.saturating_add(old.work);
            }
            if (old.pn == 0 || old.dn == 0) && entry.pn != 0 && entry.dn != 0 {
                old.work = old.work.max(entry.work);
            } else {
                *old = entry;
            }
        }
        Slot::Vacant(slot) => {
            slot.insert(entry);
        }
    }
}

/// A candidate move: a grid index, or `PASS`.
type Candidate = usize;
const PASS: Candidate = 0;

#[derive(Clone)]
struct Search<'a> {
    board: SearchBoard,
    /// A second board for [`Search::try_simulation`], brought in step with `board` by
    /// [`SearchBoard::follow`] (cheaper than a copy); `None` until the first simulation
    /// copies the board, and while in use.
    reference: Option<Box<SearchBoard>>,
    problem: &'a Problem,
    /// The region's grid indices, most promising first is decided per node.
    region: Vec<usize>,
    /// The same points as `region`, as a set.
    region_set: PointSet,
    /// The fence's grid indices: empty points only the attacker may play (and the
    /// defender, to capture: see [`Search::takes_on_fence`]).
    fence: Vec<usize>,
    /// The points where the defender may ever play: the region, and the fence points
    /// whose neighbours are all in the area, where it may capture. An attacker chain with
    /// a liberty off them is never captured.
    reach: PointSet,
    area: PointSet,
    /// The points where a move may ever be played: the region and the fence.
    playable: PointSet,
    target: Vec<usize>,
    defender: Color,
    /// The side whose goal is being proven (the OR player).
    prover: Color,
    ko_master: Option<Color>,
    /// The table (shared with the attempt's other threads, if any).
    tt: Memory,
    nodes: u64,
    /// The positions this search has reported to [`Shared::nodes`].
    reported: u64,
    /// The other threads' positions, as last read from [`Shared::nodes`].
    others: u64,
    node_limit: u64,
    deadline: Instant,
    aborted: bool,
    /// A line met the depth limit or returned to a position of the line: the disproofs
    /// may depend on the line that reached them, and do not count.
    disproofs_untrusted: bool,
    /// The positions on the line being searched, by depth from the root: the table key
    /// (a ko master's cycle returns to one) and the board hash (what the superko rule
    /// compares).
    line: Vec<(u64, u64)>,
    /// The shallowest depth of a position on the line whose presence made the superko
    /// rule refuse a move in the subtree being searched (`usize::MAX`: none). A result
    /// that rests on a position above it holds only for the line that reached it, and is
    /// not stored.
    refused_above: std::cell::Cell<usize>,
    ko_keys: Vec<u64>,
    /// The ε of the 1+ε trick, in sixteenths: how much longer the search stays in the
    /// chosen child than its second-best sibling's value asks (it changes the order of
    /// the search, never a result).
    stay: u64,
    /// Whether the static kills of [`eyes`] are used (off only to test them by search).
    static_kills: bool,
    /// Whether the moves are kept to [`Search::fight`] (off only to test that by search).
    fight_only: bool,
    /// Whether the side that is not ko master leaves out kos the master would take straight
    /// back ([`Search::retaken_at_once`]; off only to test that by search).
    kos_left_to_master: bool,
    /// The defender's possible eyes at the position [`Search::living_move`] looks at.
    eye_space: eyes::EyeSpace,
    /// The last move [`Search::living_move`] found, tried first the next time.
    last_living: usize,
    /// By depth, the move that last settled a position there (the prover's proving move
    /// or the opponent's refutation), tried first at the next position of that depth.
    killers: Vec<Candidate>,
    /// The positions a simulation ([`Search::simulate`]) was tried from, tried only once.
    simulated: HashSet<u64, BuildHasherDefault<KeyHasher>>,
    /// Whether [`Search::simulate`] is tried (off only in a test, to check its proofs).
    simulation: bool,
    /// During a simulation: the sibling's move and the move simulated, which change
    /// places when the other side plays on the sibling's point.
    swap: (Candidate, Candidate),
    /// The author's first moves at the root, searched first (see
    /// [`Problem::with_first_moves`]).
    first_moves: Vec<Candidate>,
}

fn mix(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The search board of a problem: the position's stones in the area, the attacker's wall
/// (with eyes, so it never dies) outside it.
fn problem_board(position: &Position, problem: &Problem) -> SearchBoard {
    let size = position.size();
    let mut board = position.board().clone();
    let (c0, r0, c1, r1) = problem.area;
    let original = SearchBoard::new(position.board(), position.turn()).hash();
    for p in board.points().collect::<Vec<_>>() {
        if problem.in_area(p) {
            continue;
        }
        // Distance from the area, in lines.
        let dc = if p.col < c0 {
            c0 - p.col
        } else {
            p.col.saturating_sub(c1)
        };
        let dr = if p.row < r0 {
            r0 - p.row
        } else {
            p.row.saturating_sub(r1)
        };
        let eye = dc.max(dr) >= 2 && p.col % 2 == 0 && p.row % 2 == 0;
        board.set(p, (!eye).then_some(problem.attacker));
    }
    let _ = size;
    let mut sb = SearchBoard::new(&board, position.turn());
    sb.set_ko(position.ko_point());
    let frame = sb.hash() ^ original;
    sb.add_history(position.seen_boards().iter().map(|h| h ^ frame));
    sb
}

impl<'a> Search<'a> {
    fn new(
        position: &Position,
        problem: &'a Problem,
        prover: Color,
        ko_master: Option<Color>,
    ) -> Search<'a> {
        let board = problem_board(position, problem);
        let region: Vec<usize> = problem.region.iter().map(|&p| board.vertex(p)).collect();
        let fence: Vec<usize> = problem.fence.iter().map(|&p| board.vertex(p)).collect();
        let first_moves = problem
            .first_moves_from(position)
            .iter()
            .map(|&p| board.vertex(p))
            .collect();
        let mut region_set = PointSet::EMPTY;
        for &v in &region {
            region_set.insert(v);
        }
        let mut area = PointSet::EMPTY;
        for p in position.board().points() {
            if problem.in_area(p) {
                area.insert(board.vertex(p));
            }
        }
        let target = problem.target.iter().map(|&p| board.vertex(p)).collect();
        let mut playable = region_set;
        let mut reach = region_set;
        for &v in &fence {
            playable.insert(v);
            let neighbours = board.neighbours(v);
            if neighbours
                .iter()
                .all(|&n| !board.on_board(n) || area.contains(n))
            {
                reach.insert(v);
            }
        }
        let eye_space = eyes::EyeSpace::new(&board, &area);
        let ko_keys = (0..board.grid_len() as u64)
            .map(|v| mix(v ^ 0x6B6F))
            .collect();
        Search {
            reference: None,
            board,
            problem,
            region,
            region_set,
            fence,
            reach,
            area,
            playable,
            target,
            defender: problem.defender(),
            prover,
            ko_master,
            tt: Memory::Own(Table::default()),
            nodes: 0,
            reported: 0,
            others: 0,
            node_limit: u64::MAX,
            deadline: Instant::now() + Duration::from_secs(3600),
            aborted: false,
            disproofs_untrusted: false,
            line: Vec::with_capacity(MAX_DEPTH + 1),
            refused_above: std::cell::Cell::new(usize::MAX),
            ko_keys,
            stay: 4,
            static_kills: true,
            fight_only: true,
            kos_left_to_master: true,
            last_living: PASS,
            eye_space,
            killers: vec![PASS; MAX_DEPTH + 1],
            simulated: HashSet::default(),
            simulation: true,
            swap: (PASS, PASS),
            first_moves,
        }
    }

    fn key(&self) -> u64 {
        self.key_of(&self.board)
    }

    /// The table key of `board`'s position (see [`Search::key`]).
    fn key_of(&self, board: &SearchBoard) -> u64 {
        self.key_from(
            board.hash(),
            board.turn(),
            board.ko_vertex(),
            board.repeated(),
        )
    }

    /// The table key of the position after `c`, and whether its board repeats one of the
    /// history (a ko master's retake), read off the board without playing the move: the
    /// same as [`Search::key`] after [`Search::play`].
    fn key_after(&self, c: Candidate) -> (u64, bool) {
        let board = &self.board;
        let next = board.turn().opponent();
        if c == PASS {
            return (self.key_from(board.hash(), next, 0, false), false);
        }
        let color = board.turn();
        let hash = board.hash_after(c, color).expect("a legal move");
        let ko = board.ko_capture(c, color).unwrap_or(0);
        let repeated = board.seen(hash);
        (self.key_from(hash, next, ko, repeated), repeated)
    }

    /// The table key of a position by its parts: the board hash, the side to play, the ko
    /// point (0: none) and whether the board repeats one of the history.
    fn key_from(&self, hash: u64, turn: Color, ko: usize, repeated: bool) -> u64 {
        let side = if turn == Color::White {
            0x5713_0000_0000_0001
        } else {
            0
        };
        let ko = if ko == 0 { 0 } else { self.ko_keys[ko] };
        // A ko master's retake back to an earlier board is another node than that board
        // was: the side to play there may no longer take the ko back.
        let repeat = if repeated { 0x7E9E_A7ED_0000_0000 } else { 0 };
        hash ^ side ^ ko ^ repeat
    }

    /// The winner if the game is decided on the board now.
    fn decided(&self) -> Option<Color> {
        self.decided_unless(false)
    }

    /// [`Search::decided`], with Benson's test left out when `not_alive`: the caller
    /// knows that no target stone is unconditionally alive.
    fn decided_unless(&self, not_alive: bool) -> Option<Color> {
        let defender = self.defender;
        if self.target_stones().next().is_none() {
            return Some(self.problem.attacker);
        }
        let hopeful = self
            .target_stones()
            .any(|v| self.board.chain_lib_count(v) >= 2);
        if hopeful {
            if !not_alive && self.target_alive() {
                return Some(defender);
            }
        } else if self.capture_all_at().is_some() {
            return Some(self.problem.attacker);
        }
        if self.static_kills
            && eyes::dead_pocket(
                &self.board,
                &self.region_set,
                &self.reach,
                &self.target,
                defender,
            )
            .is_some()
        {
            return Some(self.problem.attacker);
        }
        None
    }

    /// The winner of a position the search meets for the first time: [`Search::decided`],
    /// or the defender if it makes life in one move ([`Search::living_move`]); Benson's
    /// test is left out when `not_alive` (see [`Search::alive_ruled_out`]).
    fn winner_on_arrival(&mut self, not_alive: bool) -> Option<Color> {
        self.decided_unless(not_alive)
            .or_else(|| self.living_move().map(|_| self.defender))
    }

    /// Whether the position after `c` (at `depth`, one below this one) is known to leave
    /// no target stone unconditionally alive, so that Benson's test need not be asked
    /// there: after a pass (this position was not alive); below the root's children,
    /// after a defender stone that [`Search::living_move`] tried here on arrival (it found
    /// no life), and after an attacker stone, which hardly ever gives the defender life
    /// (where it does, the defender's next position finds it: leaving the test out never
    /// changes what is proven, only, there, the search's order).
    fn alive_ruled_out(&self, c: Candidate, depth: usize) -> bool {
        if c == PASS {
            return true;
        }
        if depth < 2 {
            return false;
        }
        self.board.turn() != self.defender || self.may_make_life(c)
    }

    /// Whether the defender's stone on `v` is one [`Search::living_move`] tries: next to
    /// a defender stone or to a chain in atari.
    fn may_make_life(&self, v: usize) -> bool {
        let defender = self.defender;
        self.board.neighbours(v).iter().any(|&n| {
            self.board.cell(n) == Some(defender)
                || (self.board.cell(n).is_some() && self.board.chain_lib_count(n) == 1)
        })
    }

    /// Whether a target stone is unconditionally alive (Benson's test over the target's
    /// chains and those their life depends on).
    fn target_alive(&self) -> bool {
        let alive = self
            .board
            .benson_of(self.defender, Some(&self.area), self.target_stones());
        self.target_stones().any(|v| alive.contains(v))
    }

    /// With the defender to play, a move that leaves a target stone unconditionally alive
    /// (Benson) at once, if there is one: the defender has won, whatever follows. Only
    /// moves next to a defender stone or to a chain in atari are tried (a move that makes
    /// life mostly does; the search finds the others), the last one found first; each
    /// counts as a position searched.
    ///
    /// ```text
    ///   . . . . X .    White to play: B1 splits the straight three A1-C1 into two
    ///   O O O O X .    eyes, A1 and C1, each enclosed by White's one chain; Benson's
    ///   . . . O X .    test proves White alive, and the position counts as won for
    ///                  White without its moves being searched.
    /// ```
    fn living_move(&mut self) -> Option<usize> {
        if self.board.turn() != self.defender {
            return None;
        }
        self.eye_space
            .rebuild(&self.board, &self.area, self.defender);
        let first = self.last_living;
        if first != PASS && self.lives_after(first) {
            return Some(first);
        }
        for i in 0..self.region.len() {
            let v = self.region[i];
            if v != first && self.lives_after(v) {
                self.last_living = v;
                return Some(v);
            }
        }
        None
    }

    /// Whether the defender's stone on `v` (tried only next to a defender stone or to a
    /// chain in atari, where it is allowed, and where [`eyes::EyeSpace`] does not rule
    /// life out) leaves a target stone Benson-alive; a move tried counts as a position.
    fn lives_after(&mut self, v: usize) -> bool {
        let defender = self.defender;
        let touches = self.board.is_empty_vertex(v) && self.may_make_life(v);
        if !touches
            || !self.allowed(v, defender)
            || !self
                .eye_space
                .may_live_after(&self.board, &self.area, defender, v)
        {
            return false;
        }
        self.board.play_legal(v);
        self.nodes += 1;
        let alive = self.target_alive();
        self.board.undo();
        alive
    }

    /// With the attacker to play and every target chain left in atari on one and the same
    /// liberty, that liberty if the attacker may play there: the move captures the whole
    /// target at once.
    ///
    /// ```text
    ///   X X . .      White's target A2-B2 has one liberty, A1: with Black to play it is
    ///   O O X .      as good as captured (Black A1 takes both stones).
    ///   . X . .
    /// ```
    fn capture_all_at(&self) -> Option<usize> {
        let attacker = self.problem.attacker;
        if self.board.turn() != attacker {
            return None;
        }
        let mut shared = None;
        for v in self.target_stones() {
            if self.board.chain_lib_count(v) != 1 {
                return None;
            }
            let liberty = self.board.chain_libs(v).iter().next()?;
            if shared.is_some_and(|s| s != liberty) {
                return None;
            }
            shared = Some(liberty);
        }
        shared.filter(|&l| {
            (self.region_set.contains(l) || self.fence.contains(&l)) && self.allowed(l, attacker)
        })
    }

    /// The target's points that still hold a defender's stone.
    fn target_stones(&self) -> impl Iterator<Item = usize> + '_ {
        self.target
            .iter()
            .copied()
            .filter(|&t| self.board.cell(t) == Some(self.defender))
    }

    /// (pn, dn) of a decided position for the prover.
    fn value_of(&self, winner: Color) -> (u32, u32) {
        if winner == self.prover {
            (0, INF)
        } else {
            (INF, 0)
        }
    }

    /// (pn, dn) of a new position at `depth` the search knows nothing about (df-pn with
    /// heuristic initialisation): the more liberties the target has, the more work a kill
    /// takes; the deeper the position, the less ([`DEEP`]). Only the order of the search
    /// depends on it, never a result.
    fn leaf_estimate(&self, depth: usize) -> (u32, u32) {
        let mut libs = PointSet::EMPTY;
        for t in self.target_stones() {
            libs.union_with(self.board.chain_libs(t));
        }
        let kill_work = (libs.len() as u32).clamp(1, 8);
        let deep = DEEP.saturating_sub(depth as u32).max(1);
        if self.prover == self.problem.attacker {
            (kill_work * deep, deep)
        } else {
            (deep, kill_work * deep)
        }
    }

    /// Notes the depth of the position of the line that the superko rule keeps `color`
    /// from bringing back with a stone on `v` (none for a position from before the
    /// search: the same on every line).
    fn note_superko(&self, v: usize, color: Color) {
        let Some(hash) = self.board.hash_after(v, color) else {
            return;
        };
        if let Some(depth) = self.line.iter().rposition(|&(_, b)| b == hash) {
            self.refused_above.set(self.refused_above.get().min(depth));
        }
    }

    /// Whether `color` may put a stone on the empty `v`, by the board's answer `check`:
    /// a ko or superko refusal binds all but the ko master.
    fn permits(&self, check: Result<(), Refusal>, color: Color) -> bool {
        match check {
            Ok(()) => true,
            Err(Refusal::Suicide) => false,
            Err(Refusal::Ko | Refusal::Superko) => self.ko_master == Some(color),
        }
    }

    /// Whether `color` may put a stone on the empty `v`.
    fn allowed(&self, v: usize, color: Color) -> bool {
        self.permits(self.board.check_vertex(v, color), color)
    }

    /// [`Search::allowed`] for a move the search would play here: a superko refusal is
    /// noted (see [`Search::note_superko`]), as the values below rest on it.
    /// `check` is the board's answer for the move.
    fn may_play(&self, check: Result<(), Refusal>, v: usize, color: Color) -> bool {
        if matches!(check, Err(Refusal::Superko)) && self.ko_master != Some(color) {
            self.note_superko(v, color);
        }
        self.permits(check, color)
    }

    /// The moves of the side to play, most promising first.
    fn candidates(&self) -> Vec<Candidate> {
        let color = self.board.turn();
        // The chains of the target still on the board, by representative.
        let mut target_chains = PointSet::EMPTY;
        for t in self.target_stones() {
            target_chains.insert(self.board.chain_id(t));
        }
        let mut scored: Vec<(i32, Candidate)> = Vec::with_capacity(self.region.len() + 1);
        // The vital point of a killing shape is both sides' first move.
        let vital = eyes::vital_point(
            &self.board,
            &self.region_set,
            &self.reach,
            &self.target,
            self.defender,
        );
        // The attacker may also take the liberties just off the region of the defender's
        // stones on the fence (see [`Search::takes_on_fence`]).
        let mut beyond = PointSet::EMPTY;
        if color == self.problem.attacker {
            for &v in &self.fence {
                if self.board.cell(v) == Some(self.defender) && self.reach.contains(v) {
                    for n in self.board.neighbours(v) {
                        if self.area.contains(n) && !self.playable.contains(n) {
                            beyond.insert(n);
                        }
                    }
                }
            }
        }
        // A move away from the fight is a pass in all but name: the defender has its pass,
        // the attacker keeps its best such move, to wait, only if the fight refuses it a
        // point by ko or superko (waiting can lift that).
        let fight = self.fight_only.then(|| self.fight());
        let mut away: Option<(i32, Candidate)> = None;
        let mut refused = false;
        let fence = self.fence.iter().copied().chain(beyond.iter());
        for v in self.region.iter().copied().chain(fence) {
            if !self.board.is_empty_vertex(v) || self.fills_own_eye(v, color) {
                continue;
            }
            if color == self.defender && !self.region_set.contains(v) && !self.takes_on_fence(v) {
                continue;
            }
            let in_fight = fight.is_none_or(|f| f.contains(v));
            if !in_fight && color == self.defender {
                continue;
            }
            let check = self.board.check_vertex(v, color);
            if !self.may_play(check, v, color) {
                refused |= in_fight && matches!(check, Err(Refusal::Ko | Refusal::Superko));
                continue;
            }
            if self.kos_left_to_master && self.retaken_at_once(v, color) {
                continue;
            }
            let bonus = if vital == Some(v) { 100 } else { 0 };
            let score = self.score(v, color, &target_chains) + bonus;
            if in_fight {
                scored.push((score, v));
            } else if away.is_none_or(|(best, _)| best < score) {
                away = Some((score, v));
            }
        }
        if refused {
            scored.extend(away);
        }
        scored.sort_by(|a, b| b.0.cmp(&a.0));
        let mut out: Vec<Candidate> = scored.into_iter().map(|(_, v)| v).collect();
        if color == self.defender {
            out.push(PASS);
        }
        out
    }

    /// Whether the defender's stone on the fence point `v` captures: a neighbouring chain
    /// of the attacker has `v` as its last liberty, and every neighbour of `v` is in the
    /// area (next to the wall outside it, the stone would stand in a shape the real board
    /// does not have). The fence is the attacker's, but not against a capture: a stone the
    /// attacker plays in the region may be taken from outside it. The stone that takes it
    /// may in turn be attacked from its liberties just off the region.
    ///
    /// ```text
    ///   . . . . . X O    Black lives with C18 (Cho 881): after White C17, Black D19 and
    ///   . O . . O X O    White C19, White's C19 has one liberty, B19, on the fence:
    ///   . O . X O X O    Black takes there, and lives.
    /// ```
    fn takes_on_fence(&self, v: usize) -> bool {
        self.reach.contains(v)
            && self.board.neighbours(v).into_iter().any(|n| {
                self.board.cell(n) == Some(self.problem.attacker)
                    && self.board.chain_lib_count(n) == 1
            })
    }

    /// Whether `color`'s stone on `v` takes a ko that the opponent, as ko master, may take
    /// straight back, without capturing the whole target. Such a move is never searched: the
    /// master's retake brings back the same board with the same side to play, which may
    /// no longer take the ko (the superko rule binds it), so the ko capture gives it
    /// nothing it has not already got by playing elsewhere, while the master keeps every
    /// move. (The capture that takes the target's last stone wins at once and is kept.)
    ///
    /// ```text
    ///   X X X X . .    White to play with Black as ko master: White D1 would take
    ///   . O O X . .    Black's C1, and Black takes back at C1 at once. Not searched;
    ///   . O X . X .    with White as ko master (or none), it is.
    /// ```
    fn retaken_at_once(&self, v: usize, color: Color) -> bool {
        if self.ko_master != Some(color.opponent()) {
            return false;
        }
        // A ko capture (of one stone), not of the target's last stone.
        let Some(stone) = self.board.ko_capture(v, color) else {
            return false;
        };
        !(self.target.contains(&stone) && self.target_stones().nth(1).is_none())
    }

    /// The points of the fight: those reached from the target's stones through every point
    /// but the stones of safe attacker chains, chains with a liberty off the region and
    /// the fence, where no move is ever played. A safe chain is never captured, so a move
    /// anywhere else can neither capture nor free anything in the fight: it changes the
    /// fight no more than a pass does.
    ///
    /// ```text
    ///   X X X X X . .    Black's wall A3-E1 is one chain with liberties off the region
    ///   O O O O X . .    (A4 to E4): it is safe. White's fight is its stones and A1-C1;
    ///   . . . O X . .    a stone on F1 or F2, by either side, changes nothing there.
    /// ```
    fn fight(&self) -> PointSet {
        let attacker = self.problem.attacker;
        let mut fight = PointSet::EMPTY;
        // Attacker chains met, by representative, and whether they are safe.
        let (mut safe, mut met) = (PointSet::EMPTY, PointSet::EMPTY);
        let mut stack: Vec<usize> = Vec::with_capacity(64);
        for t in self.target_stones() {
            if fight.insert(t) {
                stack.push(t);
            }
        }
        while let Some(q) = stack.pop() {
            for n in self.board.neighbours(q) {
                if !self.board.on_board(n) || fight.contains(n) {
                    continue;
                }
                if self.board.cell(n) == Some(attacker) {
                    let chain = self.board.chain_id(n);
                    if met.insert(chain) && !self.board.chain_libs(n).is_subset(&self.playable) {
                        safe.insert(chain);
                    }
                    if safe.contains(chain) {
                        continue;
                    }
                }
                fight.insert(n);
                stack.push(n);
            }
        }
        fight
    }

    /// Filling a single-point eye of one own chain that has other liberties: never better
    /// than passing.
    fn fills_own_eye(&self, v: usize, color: Color) -> bool {
        if !self.board.is_own_eye(v, color) {
            return false;
        }
        let mut chain = None;
        for n in self.board.neighbours(v) {
            if self.board.on_board(n) {
                let c = self.board.chain_id(n);
                if chain.is_some_and(|k| k != c) || self.board.chain_lib_count(n) < 2 {
                    return false;
                }
                chain = Some(c);
            }
        }
        true
    }

    /// A cheap guess of how good a move is: captures, ataris, liberties of the target.
    fn score(&self, v: usize, color: Color, target_chains: &PointSet) -> i32 {
        let mut s = 0;
        let mut own_libs = 0;
        for n in self.board.neighbours(v) {
            match self.board.cell(n) {
                None if self.board.is_empty_vertex(n) => own_libs += 1,
                None => {}
                Some(c) => {
                    let libs = self.board.chain_lib_count(n) as i32;
                    let is_target = target_chains.contains(self.board.chain_id(n));
                    if c != color {
                        if libs == 1 {
                            s += 20;
                        } else if libs == 2 {
                            s += 6;
                        }
                        if is_target {
                            s += 4;
                        }
                    } else {
                        own_libs += libs - 1;
                        if libs == 1 {
                            s += 10;
                        }
                        if is_target {
                            s += 2;
                        }
                    }
                }
            }
        }
        if own_libs <= 1 {
            s -= 8;
        }
        s
    }

    fn play(&mut self, c: Candidate) {
        if c == PASS {
            self.board.pass();
        } else {
            self.board.play_legal(c);
        }
    }

    fn out_of_budget(&mut self) -> bool {
        if self.aborted {
            return true;
        }
        if self.nodes - self.reported >= 1024 {
            // Look at the clock; report this thread's positions and read the others'.
            let fresh = self.nodes - self.reported;
            self.reported = self.nodes;
            if let Some(shared) = self.tt.shared() {
                let all = shared.nodes.fetch_add(fresh, Ordering::Relaxed) + fresh;
                self.others = all - self.nodes;
            }
            if Instant::now() >= self.deadline {
                self.aborted = true;
            }
        }
        let stopped = || {
            self.tt
                .shared()
                .is_some_and(|s| s.stop.load(Ordering::Relaxed))
        };
        if self.nodes + self.others >= self.node_limit || stopped() {
            self.aborted = true;
        }
        self.aborted
    }

    /// (pn, dn) of the position after `c`, at `depth`, from the table or from the board,
    /// and the position's key.
    fn child_value(&mut self, c: Candidate, depth: usize) -> ((u32, u32), u64) {
        self.nodes += 1;
        let (key, repeated) = self.key_after(c);
        if repeated && self.line.iter().any(|&(k, _)| k == key) {
            // A ko master's retake back to a position of the line: a cycle, which the
            // table cannot value. It counts as the prover's loss, so that no proof rests on
            // it; disproofs no longer count.
            self.disproofs_untrusted = true;
            return ((INF, 0), key);
        }
        // A position the table knows is valued without playing the move.
        if let Some(e) = self.tt.get(key) {
            return ((e.pn, e.dn), key);
        }
        let not_alive = self.alive_ruled_out(c, depth);
        self.play(c);
        debug_assert_eq!(
            key,
            self.key(),
            "the key read off the board before the move"
        );
        let value = match self.winner_on_arrival(not_alive) {
            Some(w) => self.value_of(w),
            None => self.leaf_estimate(depth),
        };
        let (pn, dn) = value;
        self.tt.insert(key, Entry { pn, dn, work: 1 });
        self.board.undo();
        (value, key)
    }

    /// Stores the value of the position at `depth`, unless it rests on a position of the
    /// line above (a move the superko rule refused because of it).
    fn store(&mut self, key: u64, value: (u32, u32), work: u32, depth: usize) {
        self.store_with(key, value, work, depth, false);
    }

    /// [`Search::store`], with the work stored for the position before added (a
    /// position searched again).
    fn store_adding(&mut self, key: u64, value: (u32, u32), work: u32, depth: usize) {
        self.store_with(key, value, work, depth, true);
    }

    fn store_with(&mut self, key: u64, (pn, dn): (u32, u32), work: u32, depth: usize, add: bool) {
        if self.refused_above.get() >= depth {
            self.tt.insert_with(key, Entry { pn, dn, work }, add);
        }
    }

    /// Leaves the position the search is at: what it rests on counts for the line above
    /// too.
    fn leave(&mut self, outer: usize) {
        if let Some((key, _)) = self.line.pop() {
            if let Some(shared) = self.tt.shared() {
                shared.mark(key, false);
            }
        }
        self.refused_above.set(self.refused_above.get().min(outer));
    }

    /// Nagai's multiple-iterative deepening at the current position.
    fn mid(&mut self, th_pn: u32, th_dn: u32, depth: usize) -> (u32, u32) {
        let key = self.key();
        let start_nodes = self.nodes;
        if depth >= MAX_DEPTH {
            // Not proven, whoever is to move; a disproof that met the cap is not trusted.
            self.disproofs_untrusted = true;
            return (INF, 0);
        }
        // What the line above this position kept from being played here and below.
        let outer = self.refused_above.replace(usize::MAX);
        self.line.push((key, self.board.hash()));
        if let Some(shared) = self.tt.shared() {
            shared.mark(key, true);
        }
        let mut moves = self.candidates();
        let killer = self.killers[depth];
        if killer != PASS {
            if let Some(i) = moves.iter().position(|&m| m == killer) {
                moves[..=i].rotate_right(1);
            }
        }
        // At the root, the author's first moves are searched first: any other move's
        // value counts `FIRST_MOVE_WEIGHT` times when the child to search is chosen
        // (elsewhere no weights: every move counts once).
        let weights: Vec<u64> = if depth == 0 && !self.first_moves.is_empty() {
            let weight = |m: &Candidate| {
                if self.first_moves.contains(m) {
                    1
                } else {
                    FIRST_MOVE_WEIGHT
                }
            };
            moves.iter().map(weight).collect()
        } else {
            Vec::new()
        };
        if moves.is_empty() {
            // The attacker has nowhere to play: the defender keeps its stones.
            let v = self.value_of(self.defender);
            self.store(key, v, 1, depth);
            self.leave(outer);
            return v;
        }
        let or_node = self.board.turn() == self.prover;
        // The number the side to play here wants small, and the one its opponent does.
        let pick = |v: &(u32, u32)| if or_node { v.0 } else { v.1 };
        let settles = |v: &(u32, u32)| if or_node { v.1 == 0 } else { v.0 == 0 };
        let threaded = self.tt.shared().is_some();
        let mut values: Vec<(u32, u32)> = Vec::with_capacity(moves.len());
        // The children's keys, kept only when other threads share the table.
        let mut keys: Vec<u64> = Vec::new();
        for &m in &moves {
            let (value, key) = self.child_value(m, depth + 1);
            values.push(value);
            if threaded {
                keys.push(key);
            }
        }
        // With other threads: a child another thread is searching below counts twice
        // (three times with two threads there...), so that the threads part.
        let mut crowded: Vec<u64> = Vec::new();
        loop {
            if depth == 0 && threaded {
                // The root is searched once, for the whole attempt: what the other
                // threads found below it comes from the table. (One move cannot bring
                // the root's board back, so no child here is a cycle.)
                for (value, &k) in values.iter_mut().zip(&keys) {
                    if let Some(e) = self.tt.get(k) {
                        *value = (e.pn, e.dn);
                    }
                }
            }
            let (pn, dn) = combine(&values, or_node);
            if pn >= th_pn || dn >= th_dn || pn == 0 || dn == 0 || self.out_of_budget() {
                if pick(&(pn, dn)) == 0 {
                    if let Some(i) = values.iter().position(|v| pick(v) == 0) {
                        self.killers[depth] = moves[i];
                    }
                }
                let work = (self.nodes - start_nodes).min(u32::MAX as u64) as u32;
                self.store_adding(key, (pn, dn), work, depth);
                self.leave(outer);
                return (pn, dn);
            }
            if let Some(shared) = self.tt.shared() {
                crowded.clear();
                crowded.extend(keys.iter().map(|&k| 1 + shared.busy(k) as u64));
            }
            let weight = |i: usize| {
                weights.get(i).copied().unwrap_or(1) * crowded.get(i).copied().unwrap_or(1)
            };
            // The most proving child and the second best value, by weight, unless the
            // child the weights choose is past this position's own threshold (searching it
            // would return at once, again and again): then by value alone.
            let threshold = if or_node { th_pn } else { th_dn };
            let (mut best, mut second) = most_proving(&values, pick, weight);
            let weighted = pick(&values[best]) < threshold;
            if !weighted {
                (best, second) = most_proving(&values, pick, |_| 1);
            }
            let weight = |i: usize| if weighted { weight(i) } else { 1 };
            // The side that must answer every move here has settled a sibling: try to
            // settle this one the same way before searching it.
            if self.simulation && !settles(&values[best]) {
                if let Some(r) = values.iter().position(settles) {
                    if self.try_simulation(moves[r], moves[best], depth + 1, !or_node) {
                        values[best] = if or_node { (INF, 0) } else { (0, INF) };
                        continue;
                    }
                }
            }
            let (cpn, cdn) = values[best];
            // The 1+ε trick (Pawlewicz and Lew): stay longer in the chosen child (until it
            // is no longer the best by weight).
            let second = cap(second as u64 + second as u64 * self.stay / 16 + 1);
            // (By weight: the threshold in the chosen child's own terms, above its value
            // so that the child is searched.)
            let second = if second >= INF {
                INF
            } else {
                cap(second as u64 / weight(best)).max(pick(&values[best]) + 1)
            };
            let (child_pn, child_dn) = if or_node {
                (
                    th_pn.min(second),
                    cap(th_dn as u64 - dn as u64 + cdn as u64),
                )
            } else {
                (
                    cap(th_pn as u64 - pn as u64 + cpn as u64),
                    th_dn.min(second),
                )
            };
            self.play(moves[best]);
            self.nodes += 1;
            values[best] = self.mid(child_pn, child_dn, depth + 1);
            self.board.undo();
        }
    }

    /// Plays `m` on `reference`, a board in step with the search's, if it may be played
    /// there.
    fn play_on(&self, reference: &mut SearchBoard, m: Candidate) -> bool {
        if m == PASS {
            reference.pass();
            return true;
        }
        let color = reference.turn();
        if !reference.is_empty_vertex(m) || !self.permits(reference.check_vertex(m, color), color) {
            return false;
        }
        reference.play_legal(m);
        true
    }

    /// Kawano's simulation: tries to settle the position after `m` for the side that
    /// settled its sibling after `settled` (`for_prover`: the prover), by following the
    /// sibling's proof: that side plays the move that won in the same place of the
    /// sibling's tree, the other side every move it has. At most `budget` positions;
    /// `false` when the sibling's tree does not carry over (the search then goes on as
    /// before). Every position it settles is settled on its own board.
    fn try_simulation(
        &mut self,
        settled: Candidate,
        m: Candidate,
        depth: usize,
        for_prover: bool,
    ) -> bool {
        // Once from a position, and never into a cycle: asked before the sibling's board
        // is copied, as the search comes back here often.
        self.play(m);
        self.nodes += 1;
        let key = self.key();
        let fresh = self.simulated.insert(key);
        let cycle = self.board.repeated() && self.line.iter().any(|&(k, _)| k == key);
        self.board.undo();
        if !fresh || cycle {
            return false;
        }
        let mut reference = match self.reference.take() {
            Some(mut reference) => {
                reference.follow(&self.board);
                reference
            }
            None => Box::new(self.board.clone()),
        };
        let ok = self.play_on(&mut reference, settled) && {
            let budget_of = |e: Option<Entry>| e.map_or(0, |e| e.work as u64);
            let mut budget = 2 * budget_of(self.tt.get(self.key_of(&reference))).clamp(16, 20_000);
            self.play(m);
            self.swap = (settled, m);
            let ok = self.simulate(Some(&mut reference), depth, for_prover, &mut budget);
            self.board.undo();
            ok
        };
        self.reference = Some(reference);
        ok
    }

    /// The walk of [`Search::try_simulation`] at the position on the board, `reference`
    /// at the same place of the sibling's tree (`None` where the sibling has no such
    /// position).
    fn simulate(
        &mut self,
        mut reference: Option<&mut SearchBoard>,
        depth: usize,
        for_prover: bool,
        budget: &mut u64,
    ) -> bool {
        let done = |e: &Entry| if for_prover { e.pn == 0 } else { e.dn == 0 };
        let lost = |e: &Entry| if for_prover { e.dn == 0 } else { e.pn == 0 };
        let winner = if for_prover {
            self.prover
        } else {
            self.prover.opponent()
        };
        let key = self.key();
        match self.tt.get(key) {
            Some(e) if done(&e) => return true,
            Some(e) if lost(&e) => return false,
            Some(_) => {}
            None => {
                if let Some(w) = self.winner_on_arrival(false) {
                    let (pn, dn) = self.value_of(w);
                    self.tt.insert(key, Entry { pn, dn, work: 1 });
                    return w == winner;
                }
            }
        }
        let Some(reference) = reference.as_deref_mut() else {
            return false;
        };
        if depth >= MAX_DEPTH || *budget == 0 || self.out_of_budget() {
            return false;
        }
        *budget -= 1;
        match self.tt.get(self.key_of(reference)) {
            Some(e) if done(&e) => {}
            _ => return false,
        }
        let start = self.nodes;
        let outer = self.refused_above.replace(usize::MAX);
        self.line.push((key, self.board.hash()));
        if let Some(shared) = self.tt.shared() {
            shared.mark(key, true);
        }
        let moves = self.candidates();
        let ok = if moves.is_empty() {
            self.defender == winner
        } else if self.board.turn() == winner {
            // The move that won in the sibling's tree, the least work first.
            let mut choice: Option<(u32, Candidate)> = None;
            for &m in &moves {
                if !self.play_on(reference, self.in_reference(m)) {
                    continue;
                }
                let e = self.tt.get(self.key_of(reference));
                reference.undo();
                if let Some(e) = e.filter(|e| done(e)) {
                    if choice.map_or(true, |(w, _)| e.work < w) {
                        choice = Some((e.work, m));
                    }
                }
            }
            match choice {
                Some((_, m)) => self.simulate_child(reference, m, depth, for_prover, budget),
                None => false,
            }
        } else {
            moves
                .iter()
                .all(|&m| self.simulate_child(reference, m, depth, for_prover, budget))
        };
        if ok {
            let work = (self.nodes - start).min(u32::MAX as u64) as u32;
            let value = if for_prover { (0, INF) } else { (INF, 0) };
            self.store(key, value, work.max(1), depth);
        }
        self.leave(outer);
        ok
    }

    /// The move on the sibling's board that stands for `m` on the board: the sibling's
    /// point stands for the point simulated.
    fn in_reference(&self, m: Candidate) -> Candidate {
        let (settled, simulated) = self.swap;
        if m == settled && m != PASS {
            simulated
        } else {
            m
        }
    }

    /// [`Search::simulate`] after `m`, played on the board and, where it may be, on
    /// `reference`.
    fn simulate_child(
        &mut self,
        reference: &mut SearchBoard,
        m: Candidate,
        depth: usize,
        for_prover: bool,
        budget: &mut u64,
    ) -> bool {
        self.play(m);
        self.nodes += 1;
        let key = self.key();
        if self.board.repeated() && self.line.iter().any(|&(k, _)| k == key) {
            self.board.undo();
            return false;
        }
        let stepped = self.play_on(reference, self.in_reference(m));
        let ok = self.simulate(
            stepped.then_some(&mut *reference),
            depth + 1,
            for_prover,
            budget,
        );
        if stepped {
            reference.undo();
        }
        self.board.undo();
        ok
    }

    /// Tells the other threads to stop.
    fn stop_all(&self) {
        if let Some(shared) = self.tt.shared() {
            shared.stop.store(true, Ordering::Relaxed);
        }
    }

    /// [`Search::run`] on this thread and on `helpers` more, which share the table and
    /// the budget and search in another order (a larger ε of the 1+ε trick, so that they
    /// stay longer where they are and part from this thread's path). The first thread to
    /// settle the root stops the others; the positions counted are all threads'.
    fn run_with_helpers(&mut self, helpers: usize) -> Option<bool> {
        if let Memory::Own(table) = &mut self.tt {
            let shared = Shared::new(std::mem::take(table));
            shared.nodes.store(self.nodes, Ordering::Relaxed);
            self.reported = self.nodes;
            self.tt = Memory::Shared(Arc::new(shared));
        }
        let others: Vec<Search<'a>> = (0..helpers)
            .map(|i| {
                let mut helper = self.clone();
                helper.stay = HELPER_STAY + 4 * i as u64;
                helper
            })
            .collect();
        let finished: Vec<(u64, bool)> = std::thread::scope(|scope| {
            let handles: Vec<_> = others
                .into_iter()
                .map(|mut helper| {
                    scope.spawn(move || {
                        helper.run();
                        helper.stop_all();
                        (helper.nodes, helper.disproofs_untrusted)
                    })
                })
                .collect();
            self.run();
            self.stop_all();
            // A helper that panicked has only left its part of the search undone (and
            // counts as having met a cycle: its disproofs are not trusted).
            handles
                .into_iter()
                .map(|handle| handle.join().unwrap_or((0, true)))
                .collect()
        });
        for (nodes, untrusted) in finished {
            self.nodes += nodes;
            self.disproofs_untrusted |= untrusted;
        }
        let root = self.tt.get(self.key());
        self.aborted = false;
        match root {
            Some(e) if e.pn == 0 => Some(true),
            Some(e) if e.dn == 0 => (!self.disproofs_untrusted).then_some(false),
            _ => {
                self.aborted = true;
                None
            }
        }
    }

    /// Proves or disproves the prover's goal at the root: `Some(true)` proven, `Some(false)`
    /// disproven, `None` unknown.
    fn run(&mut self) -> Option<bool> {
        if let Some(w) = self.decided() {
            return Some(w == self.prover);
        }
        let (pn, dn) = self.mid(INF - 1, INF - 1, 0);
        if pn == 0 {
            Some(true)
        } else if dn == 0 && !self.disproofs_untrusted {
            Some(false)
        } else {
            None
        }
    }

    /// The main line from the root: the winner's least-work proof, the loser's most-work
    /// resistance, stopping where the table knows no more.
    fn main_line(&mut self, prover_wins: bool, limit: usize) -> Vec<Candidate> {
        let mut line = Vec::new();
        while line.len() < limit && self.decided().is_none() {
            let moves = self.candidates();
            let mover_is_prover = self.board.turn() == self.prover;
            let winner_moves = mover_is_prover == prover_wins;
            let mut choice: Option<(u32, Candidate)> = None;
            for &m in &moves {
                self.play(m);
                let e = self.tt.get(self.key());
                self.board.undo();
                let Some(e) = e else { continue };
                let proven = if prover_wins { e.pn == 0 } else { e.dn == 0 };
                if !proven {
                    continue;
                }
                // The author's first move, when it wins, is the line's first move.
                let work = if line.is_empty() && winner_moves && self.first_moves.contains(&m) {
                    0
                } else {
                    e.work
                };
                let better = match choice {
                    None => true,
                    Some((w, _)) => {
                        if winner_moves {
                            work < w
                        } else {
                            work > w
                        }
                    }
                };
                if better {
                    choice = Some((work, m));
                }
            }
            let Some((_, m)) = choice else { break };
            line.push(m);
            self.play(m);
        }
        // A line that stops on a target as good as captured ends with the capture; one
        // that stops where the defender makes life in one move, with that move.
        if line.len() < limit {
            let last = match self.capture_all_at() {
                Some(capture) => Some(capture),
                None if self.decided().is_none() => self.living_move(),
                None => None,
            };
            if let Some(l) = last {
                line.push(l);
                self.play(l);
            }
        }
        for _ in 0..line.len() {
            self.board.undo();
        }
        line
    }

    fn to_move(&self, c: Candidate) -> Move {
        if c == PASS {
            Move::Pass
        } else {
            Move::Play(self.board.point(c))
        }
    }
}

fn cap(x: u64) -> u32 {
    x.min(INF as u64) as u32
}

/// The child to search among `values`: the smallest `pick` times its weight, and the
/// second smallest such product (`INF` for an only child).
fn most_proving(
    values: &[(u32, u32)],
    pick: impl Fn(&(u32, u32)) -> u32,
    weight: impl Fn(usize) -> u64,
) -> (usize, u32) {
    let weighed = |i: usize| cap(pick(&values[i]) as u64 * weight(i));
    let mut best = 0;
    let mut second = INF;
    for i in 1..values.len() {
        if weighed(i) < weighed(best) {
            second = weighed(best);
            best = i;
        } else if weighed(i) < second {
            second = weighed(i);
        }
    }
    (best, second)
}

/// (pn, dn) of a node from its children's.
fn combine(values: &[(u32, u32)], or_node: bool) -> (u32, u32) {
    let min = |f: fn(&(u32, u32)) -> u32| values.iter().map(f).min().unwrap_or(INF);
    let sum = |f: fn(&(u32, u32)) -> u32| cap(values.iter().map(|v| f(v) as u64).sum());
    if or_node {
        (min(|v| v.0), sum(|v| v.1))
    } else {
        (sum(|v| v.0), min(|v| v.1))
    }
}

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

/// How far a stone counts from the open board when no empty path reaches it: farther than
/// any path round a corner problem.
const ENCLOSED: f64 = 30.0;

/// For each colour, the mean distance of its stones from the open board (the empty points
/// with no stone within two lines), counting steps through empty points; [`ENCLOSED`] for
/// a stone no empty path reaches.
fn enclosure(board: &super::Board) -> impl Fn(Color) -> f64 {
    let size = board.size() as i32;
    let near_stone = |p: Point| {
        (-2..=2).any(|dr: i32| {
            (-2..=2).any(|dc: i32| {
                let (c, r) = (p.col as i32 + dc, p.row as i32 + dr);
                (0..size).contains(&c)
                    && (0..size).contains(&r)
                    && board.get(Point::new(c as u8, r as u8)).is_some()
            })
        })
    };
    let mut distance: HashMap<Point, u32> = HashMap::new();
    let mut queue = std::collections::VecDeque::new();
    for p in board.points() {
        if !near_stone(p) {
            distance.insert(p, 0);
            queue.push_back(p);
        }
    }
    while let Some(p) = queue.pop_front() {
        let d = distance[&p];
        for n in board.neighbours(p) {
            if distance.contains_key(&n) {
                continue;
            }
            distance.insert(n, d + 1);
            if board.get(n).is_none() {
                queue.push_back(n);
            }
        }
    }
    let mut sums = [(0.0, 0usize); 2];
    for p in board.points() {
        if let Some(color) = board.get(p) {
            let d = distance.get(&p).map_or(ENCLOSED, |&d| d as f64);
            let slot = &mut sums[color.index()];
            slot.0 += d;
            slot.1 += 1;
        }
    }
    move |color: Color| {
        let (sum, n) = sums[color.index()];
        if n == 0 {
            0.0
        } else {
            sum / n as f64
        }
    }
}

/// Guesses the goal of the side to play when a problem does not say. The stones at stake
/// are enclosed by the other side's: the side whose stones lie farther from the open board
/// (the empty points with no stone within two lines), counting through empty points, is
/// the one that must live. Where both are about as far (within a line, on average), the
/// side whose stones lie nearer the edge must live.
///
/// ```
/// use qiyuan::rules::go::{Board, Color, Point, Position};
/// use qiyuan::rules::go::life::{infer_goal, Goal};
/// // White's corner group is enclosed by Black's stones: Black, to play, kills.
/// let board = Board::from_text_at(19, "
///     . . . O . .
///     O O O O X X
///     . X X X . .
///     . . . . . .
///     . X . . . .", Point::new(0, 0), 6, 5).unwrap();
/// assert_eq!(infer_goal(&Position::new(board, Color::Black)), Goal::Kill);
/// // Black's stones sit inside White's: Black, to play, must live.
/// let board = Board::from_text_at(19, "
///     . O . . O O . .
///     X X X X X O . .
///     O O O O O O . .
///     . . . . . . . .", Point::new(0, 0), 8, 4).unwrap();
/// assert_eq!(infer_goal(&Position::new(board, Color::Black)), Goal::Live);
/// ```
pub fn infer_goal(position: &Position) -> Goal {
    let board = position.board();
    let size = board.size();
    let me = position.turn();
    let enclosed = enclosure(board);
    let (mine, theirs) = (enclosed(me), enclosed(me.opponent()));
    if mine > theirs + 1.0 {
        return Goal::Live;
    }
    if theirs > mine + 1.0 {
        return Goal::Kill;
    }
    let edge_distance = |color: Color| -> f64 {
        let (mut sum, mut n) = (0usize, 0usize);
        for p in board.stones(color) {
            let d = p.col.min(p.row).min(size - 1 - p.col).min(size - 1 - p.row);
            sum += d as usize;
            n += 1;
        }
        if n == 0 {
            f64::INFINITY
        } else {
            sum as f64 / n as f64
        }
    };
    if edge_distance(me) <= edge_distance(me.opponent()) {
        Goal::Live
    } else {
        Goal::Kill
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::go::Board;

    /// `text` in the lower left corner of a `size` board, `to_play` to move.
    fn corner(size: u8, text: &str, to_play: Color) -> Position {
        let rows = text.trim().lines().count() as u8;
        diagram_at(size, text, size - rows, to_play)
    }

    /// `text` in the upper left corner of a 19×19 board (its first point is A19), `to_play`
    /// to move.
    fn upper_corner(text: &str, to_play: Color) -> Position {
        diagram_at(19, text, 0, to_play)
    }

    /// `text` on a `size` board from column A and grid row `top` down.
    fn diagram_at(size: u8, text: &str, top: u8, to_play: Color) -> Position {
        let rows = text.trim().lines().count() as u8;
        let cols = text
            .trim()
            .lines()
            .next()
            .unwrap()
            .split_whitespace()
            .count() as u8;
        let origin = Point::new(0, top);
        Position::new(
            Board::from_text_at(size, text, origin, cols, rows).unwrap(),
            to_play,
        )
    }

    /// Black to live in `text` (the upper left corner): the position and its problem, with
    /// the target and region the solver infers.
    fn black_to_live(text: &str) -> (Position, Problem) {
        let pos = upper_corner(text, Color::Black);
        let problem = Problem::new(&pos, Goal::Live, Target::Inferred, Region::Auto).unwrap();
        (pos, problem)
    }

    /// Whether every point named is in the problem's region.
    fn in_region(problem: &Problem, points: &[&str]) -> bool {
        points
            .iter()
            .all(|name| problem.region().contains(&Point::parse(name, 19).unwrap()))
    }

    /// Asserts that `first` wins for the side to play (two million positions at most).
    fn assert_wins(pos: &Position, problem: &Problem, first: &str) {
        let judgement = evaluate_move(pos, problem, mv(first), two_million()).unwrap();
        assert_eq!(judgement.outcome, Outcome::Win, "{first}: {judgement:?}");
    }

    fn mv(name: &str) -> Move {
        Move::parse(name, 19).unwrap()
    }

    /// 2,000,000 positions on one thread, and time enough for a debug build.
    fn two_million() -> Budget {
        Budget {
            nodes: 2_000_000,
            time: Duration::from_secs(60),
            threads: 1,
        }
    }

    /// White's eye space A1 B1 A2 is a bent three, Black to play: Black kills at the bend.
    ///   X X X X . .
    ///   O O O X . .
    ///   . O O X . .
    ///   . . O X . .
    fn bent_three() -> Position {
        corner(
            19,
            "X X X X . .\nO O O X . .\n. O O X . .\n. . O X . .",
            Color::Black,
        )
    }

    #[test]
    fn kills_bent_three_at_the_bend() {
        let pos = bent_three();
        let problem = Problem::new(&pos, Goal::Kill, Target::Inferred, Region::Auto).unwrap();
        let v = solve(&pos, &problem, Budget::default());
        assert_eq!(v.outcome, Outcome::Win);
        assert_eq!(v.best, Some(mv("A1")));
        let wrong = evaluate_move(&pos, &problem, mv("B1"), Budget::default()).unwrap();
        assert_eq!(wrong.outcome, Outcome::Loss);
        assert_eq!(wrong.reply, Some(mv("A1")));
    }

    #[test]
    fn the_authors_first_move_is_searched_first() {
        // White's eye space A1 B1 holds one eye at most: either Black move kills.
        //   X X X X . .
        //   O O O X . .
        //   . . O X . .
        let text = "X X X X . .\nO O O X . .\n. . O X . .";
        let pos = corner(19, text, Color::Black);
        let problem = Problem::new(&pos, Goal::Kill, Target::Inferred, Region::Auto).unwrap();
        for first in ["A1", "B1"] {
            let point = Point::parse(first, 19).unwrap();
            let hinted = problem.clone().with_first_moves(&pos, &[point]);
            let v = solve(&pos, &hinted, Budget::default());
            assert_eq!((v.outcome, v.best), (Outcome::Win, Some(mv(first))));
        }
    }

    #[test]
    fn a_wrong_first_move_changes_no_verdict() {
        let pos = bent_three();
        let problem = Problem::new(&pos, Goal::Kill, Target::Inferred, Region::Auto).unwrap();
        let plain = solve(&pos, &problem, Budget::default());
        let b1 = Point::parse("B1", 19).unwrap();
        let hinted = problem.clone().with_first_moves(&pos, &[b1]);
        let v = solve(&pos, &hinted, Budget::default());
        assert_eq!((v.outcome, v.best), (Outcome::Win, Some(mv("A1"))));
        assert_eq!((v.outcome, v.best), (plain.outcome, plain.best));
        // From another position (after a move) the first moves are not the author's.
        let after = pos.play_move(mv("A1")).unwrap();
        assert!(hinted.first_moves_from(&after).is_empty());
        assert_eq!(hinted.first_moves_from(&pos), &[b1]);
    }

    #[test]
    fn a_defender_who_makes_life_in_one_move_has_won() {
        // White to play: B1 splits the straight three A1-C1 into two eyes.
        //   . . . . X .
        //   O O O O X .
        //   . . . O X .
        let text = ". . . . X .\nO O O O X .\n. . . O X .";
        let pos = corner(19, text, Color::White);
        let problem = Problem::new(&pos, Goal::Live, Target::Inferred, Region::Auto).unwrap();
        let mut search = Search::new(&pos, &problem, Color::White, None);
        let b1 = search.board.vertex(Point::parse("B1", 19).unwrap());
        assert_eq!(search.living_move(), Some(b1));
        let nodes = search.nodes;
        assert!(nodes > 0, "each move tried counts as a position");
        assert_eq!(search.living_move(), Some(b1), "found again first");
        assert_eq!(search.nodes, nodes + 1);
        let v = solve(&pos, &problem, Budget::default());
        assert_eq!((v.outcome, v.best), (Outcome::Win, Some(mv("B1"))));
        // The attacker to play: nothing to find.
        let pos = corner(19, text, Color::Black);
        let problem = Problem::new(&pos, Goal::Kill, Target::Inferred, Region::Auto).unwrap();
        let mut search = Search::new(&pos, &problem, Color::Black, None);
        assert_eq!(search.living_move(), None);
        // Black on the vital point: no White move makes two eyes.
        let dead = pos.play_move(mv("B1")).unwrap();
        let mut search = Search::new(&dead, &problem, Color::Black, None);
        assert_eq!(search.living_move(), None);
        assert_eq!(
            solve(&pos, &problem, Budget::default()).best,
            Some(mv("B1"))
        );
    }

    #[test]
    fn judges_the_winning_move_from_the_proof_and_searches_a_wrong_one() {
        let pos = bent_three();
        let problem = Problem::new(&pos, Goal::Kill, Target::Inferred, Region::Auto).unwrap();
        let mut solution = solve_keeping(&pos, &problem, Budget::default());
        assert_eq!(solution.verdict.outcome, Outcome::Win);
        let right = solution.judge(mv("A1")).unwrap();
        assert_eq!(right.outcome, Outcome::Win);
        assert_eq!(right.nodes, 0, "taken from the proof's table");
        let searched = evaluate_move(&pos, &problem, mv("A1"), Budget::default()).unwrap();
        assert_eq!(searched.outcome, Outcome::Win);
        let wrong = solution.judge(mv("B1")).unwrap();
        assert_eq!(wrong.outcome, Outcome::Loss);
        assert_eq!(wrong.reply, Some(mv("A1")));
        assert!(
            wrong.nodes > 0,
            "a refuted move of a won problem is searched"
        );
        assert!(
            solution.judge(mv("B2")).is_err(),
            "an occupied point is illegal"
        );
    }

    #[test]
    fn a_target_in_atari_with_the_attacker_to_play_is_captured_statically() {
        // White's A2-B2 has one liberty, A1, and Black is to play.
        //   X X . .
        //   O O X .
        //   . X . .
        let pos = corner(19, "X X . .\nO O X .\n. X . .", Color::Black);
        let problem = Problem::new(&pos, Goal::Kill, Target::Inferred, Region::Auto).unwrap();
        let search = Search::new(&pos, &problem, Color::Black, Some(Color::White));
        assert_eq!(search.decided(), Some(Color::Black));
        let v = solve(&pos, &problem, Budget::default());
        assert_eq!(v.outcome, Outcome::Win);
        assert_eq!(v.line, vec![mv("A1")], "the line ends with the capture");
    }

    #[test]
    fn the_atari_rule_waits_for_the_attacker_and_one_shared_liberty() {
        // The same atari with White to play: White may still connect or capture.
        let pos = corner(19, "X X . .\nO O X .\n. X . .", Color::White);
        let problem = Problem::new(&pos, Goal::Live, Target::Inferred, Region::Auto).unwrap();
        let search = Search::new(&pos, &problem, Color::White, Some(Color::Black));
        assert_eq!(search.decided(), None);
        // Two target chains in atari on different liberties (A1 and E1): one move takes
        // only one of them.
        //   X X X X X .
        //   O O X O O X
        //   . X . X . X
        let pos = corner(19, "X X X X X .\nO O X O O X\n. X . X . X", Color::Black);
        let target = ["A2", "B2", "D2", "E2"].map(|p| Point::parse(p, 19).unwrap());
        let problem = Problem::new(
            &pos,
            Goal::Kill,
            Target::Stones(target.to_vec()),
            Region::Auto,
        )
        .unwrap();
        let search = Search::new(&pos, &problem, Color::Black, Some(Color::White));
        assert_eq!(search.decided(), None);
    }

    #[test]
    fn two_eyes_are_alive_already() {
        let pos = corner(
            19,
            "X X X . .\nO O X . .\n. O X . .\nO O X . .\n. O X . .",
            Color::Black,
        );
        let problem = Problem::new(&pos, Goal::Kill, Target::Inferred, Region::Auto).unwrap();
        let v = solve(&pos, &problem, Budget::default());
        assert_eq!(v.outcome, Outcome::Loss);
        assert_eq!(v.best, None);
    }

    #[test]
    fn recognises_a_ko() {
        // Black C1 takes D1: White's eye at C1 goes, but White can retake at D1.
        let pos = corner(19, "X X X X . .\nO O O X . .\n. O . O X .", Color::Black);
        let problem = Problem::new(&pos, Goal::Kill, Target::Inferred, Region::Auto).unwrap();
        let v = solve(&pos, &problem, Budget::default());
        assert!(matches!(v.outcome, Outcome::Ko { .. }), "{v:?}");
        let take = evaluate_move(&pos, &problem, mv("C1"), Budget::default()).unwrap();
        assert!(matches!(take.outcome, Outcome::Ko { .. }), "{take:?}");
    }

    #[test]
    fn a_ko_masters_retake_to_an_earlier_board_is_searched_on() {
        // Cho Chikun, Elementary 448: Black A2 leads to a ko (White takes at D1 after
        // Black C1 captures D1's stone). White's retakes as ko master bring back boards of
        // the line; the search must not read them as the same, unfinished node.
        let pos = cho_448();
        let problem = Problem::new(&pos, Goal::Kill, Target::Inferred, Region::Auto).unwrap();
        let v = solve(&pos, &problem, Budget::default());
        assert!(matches!(v.outcome, Outcome::Ko { .. }), "{v:?}");
        assert_eq!(v.best, Some(mv("A2")));
    }

    /// Cho Chikun, Elementary 270 (in the book's corner, top left): Black E18 kills.
    fn cho_270() -> Position {
        let board = Board::from_text_at(
            19,
            ". O X . O X . .
             O O . O . X . .
             X X O O O X . .
             . . X X X X . .
             . X . . . . . .",
            Point::new(0, 0),
            8,
            5,
        )
        .unwrap();
        Position::new(board, Color::Black)
    }

    /// Cho Chikun, Elementary 448: Black A2 leads to a ko.
    fn cho_448() -> Position {
        corner(
            19,
            ". X . . . .
             . . . . . .
             X X X X . .
             . O O O X X
             . . . . O X
             . O . O . X",
            Color::Black,
        )
    }

    #[test]
    fn a_value_resting_on_the_lines_superko_is_not_taken_to_another_line() {
        // Cho Chikun, Elementary 270: Black E18 kills (each of White's answers, searched
        // on its own, loses). Searched in other orders, a value found under a move the
        // superko rule refused because of a board higher on the line was once stored
        // and read on a line without that board: a false refutation, and "ko".
        // (In the book's corner, top left: the order of the search is the benchmark's.)
        let pos = cho_270();
        let problem = Problem::new(&pos, Goal::Kill, Target::Inferred, Region::Auto).unwrap();
        for stay in [4, 8, 16] {
            // As `solve` tries first: White may retake every ko at once.
            let mut search = Search::new(&pos, &problem, Color::Black, Some(Color::White));
            search.stay = stay;
            search.node_limit = 1_000_000;
            assert_eq!(search.run(), Some(true), "ε = {stay}/16");
        }
    }

    /// Black's wall A4-F1 is safe; White's group A2-C1 has the eye space A1 B1 and A3-C3,
    /// and a way out to D1-E3 that Black closes with D2 and D1.
    fn closable() -> Position {
        corner(
            19,
            "X X X X X X .
             . . . X . X .
             O O O . . X .
             . . O . . X .",
            Color::Black,
        )
    }

    #[test]
    fn moves_away_from_the_fight_are_not_searched() {
        let pos = closable();
        let problem = Problem::new(&pos, Goal::Kill, Target::Inferred, Region::Auto).unwrap();
        let names = |search: &Search| -> Vec<String> {
            search
                .candidates()
                .into_iter()
                .map(|c| search.to_move(c).name(19))
                .collect()
        };
        let away = ["E1", "E2", "E3"];
        let mut search = Search::new(&pos, &problem, Color::Black, Some(Color::White));
        // Open: White's way out is part of the fight.
        assert!(away.iter().all(|p| names(&search).contains(&p.to_string())));
        for m in ["D2", "pass", "D1"] {
            search.board.play_move(mv(m)).unwrap();
        }
        // Closed: Black's D1-D3 joins the safe wall; the points beyond are a pass to both.
        let white = names(&search);
        assert!(white.contains(&"pass".to_string()), "{white:?}");
        assert!(
            white.iter().all(|m| !away.contains(&m.as_str())),
            "{white:?}"
        );
        search.board.play_move(Move::Pass).unwrap();
        let black = names(&search);
        assert!(
            black.iter().all(|m| !away.contains(&m.as_str())),
            "{black:?}"
        );
        // Without the rule, every point of the region is a candidate.
        search.fight_only = false;
        assert!(away.iter().all(|p| names(&search).contains(&p.to_string())));
    }

    /// Walks random lines of the search from `pos` (the ko master retaking kos, so that
    /// boards repeat), calling `check` at every position with its depth.
    fn walk_lines(pos: &Position, ko_master: Color, mut check: impl FnMut(&mut Search, usize)) {
        let problem = Problem::new(pos, Goal::Kill, Target::Inferred, Region::Auto).unwrap();
        let mut search = Search::new(pos, &problem, pos.turn(), Some(ko_master));
        let mut rng = super::super::fast::SplitMix64(7);
        for _ in 0..60 {
            let mut depth = 0;
            while depth < 30 && search.decided().is_none() {
                check(&mut search, depth);
                let moves = search.candidates();
                if moves.is_empty() {
                    break;
                }
                search.play(moves[rng.below(moves.len())]);
                depth += 1;
            }
            for _ in 0..depth {
                search.board.undo();
            }
        }
    }

    #[test]
    fn a_childs_key_read_off_the_board_is_its_key_after_the_move() {
        let (mut moves, mut repeats) = (0, 0);
        for (pos, master) in [(cho_270(), Color::Black), (cho_448(), Color::White)] {
            walk_lines(&pos, master, |search, _| {
                for c in search.candidates() {
                    let (key, repeated) = search.key_after(c);
                    search.play(c);
                    assert_eq!((key, repeated), (search.key(), search.board.repeated()));
                    search.board.undo();
                    moves += 1;
                    repeats += usize::from(repeated);
                }
            });
        }
        // Kos were taken back to earlier boards on the way.
        assert!(
            moves > 1000 && repeats > 0,
            "{moves} moves, {repeats} repeats"
        );
    }

    #[test]
    fn benson_is_left_out_only_where_life_is_ruled_out() {
        // After a pass or a defender stone that the position's living move tried, no
        // target stone is alive (the attacker's stones are not checked: they only nearly
        // never give life).
        let mut checked = 0;
        for (pos, master) in [(cho_270(), Color::Black), (cho_448(), Color::White)] {
            walk_lines(&pos, master, |search, depth| {
                if depth == 0 || search.board.turn() != search.defender {
                    return;
                }
                if search.living_move().is_some() {
                    return;
                }
                for c in search.candidates() {
                    if !search.alive_ruled_out(c, depth + 1) {
                        continue;
                    }
                    search.play(c);
                    assert!(!search.target_alive());
                    search.board.undo();
                    checked += 1;
                }
            });
        }
        assert!(checked > 100, "{checked} moves checked");
    }

    #[test]
    fn a_ko_the_master_takes_back_at_once_is_not_searched() {
        // Black C1 takes D1 in a ko. With White as ko master, White takes back at D1 at
        // once, so Black's C1 is left out; as ko master (or with none) Black searches it.
        let pos = corner(19, "X X X X . .\nO O O X . .\n. O . O X .", Color::Black);
        let problem = Problem::new(&pos, Goal::Kill, Target::Inferred, Region::Auto).unwrap();
        let has_c1 = |ko_master: Option<Color>, left: bool| {
            let mut search = Search::new(&pos, &problem, Color::Black, ko_master);
            search.kos_left_to_master = left;
            let c1 = search.board.vertex(Point::new(2, 18));
            search.candidates().contains(&c1)
        };
        assert!(!has_c1(Some(Color::White), true));
        assert!(has_c1(Some(Color::White), false));
        assert!(has_c1(Some(Color::Black), true));
        assert!(has_c1(None, true));
    }

    #[test]
    fn keeping_to_the_fight_changes_no_verdict() {
        // A kill (Elementary 270), a ko (Elementary 448 and a corner ko), a life, and the
        // group above once closed in: the same result with and without the rule, and
        // without leaving kos to the ko master.
        let mut closed = closable();
        for m in ["D2", "pass", "D1"] {
            closed = closed.play_move(mv(m)).unwrap();
        }
        let ko = corner(19, "X X X X . .\nO O O X . .\n. O . O X .", Color::Black);
        let live = corner(
            19,
            "X X X X X . .\nO O O O X . .\n. . . O X . .",
            Color::White,
        );
        let cases = [
            (cho_270(), Goal::Kill),
            (cho_448(), Goal::Kill),
            (ko, Goal::Kill),
            (live, Goal::Live),
            (closable(), Goal::Kill),
            (closed.clone(), Goal::Kill),
            (closed, Goal::Live),
        ];
        for (pos, goal) in cases {
            let problem = Problem::new(&pos, goal, Target::Inferred, Region::Auto).unwrap();
            let attacker = problem.attacker;
            let prover = if goal == Goal::Kill {
                attacker
            } else {
                attacker.opponent()
            };
            for ko_master in [Some(prover.opponent()), Some(prover)] {
                let run = |fight_only: bool, kos_left_to_master: bool| {
                    let mut search = Search::new(&pos, &problem, prover, ko_master);
                    search.fight_only = fight_only;
                    search.kos_left_to_master = kos_left_to_master;
                    search.node_limit = 2_000_000;
                    search.run()
                };
                let kept = run(true, true);
                assert!(kept.is_some(), "{goal:?} {ko_master:?}: unknown");
                assert_eq!(kept, run(false, true), "{goal:?}, ko master {ko_master:?}");
                assert_eq!(kept, run(true, false), "{goal:?}, ko master {ko_master:?}");
            }
        }
    }

    #[test]
    fn threads_sharing_the_table_reach_the_same_verdicts() {
        // A kill without ko (Cho Chikun Elementary 270: E18), a ko (Elementary 448: A2)
        // and a life, each searched on one thread and on two and three that share the
        // table: the same outcome, and a best move that the one thread's proof accepts.
        let live = corner(
            19,
            "X X X X X . .\nO O O O X . .\n. . . O X . .",
            Color::White,
        );
        for (pos, goal) in [
            (cho_270(), Goal::Kill),
            (cho_448(), Goal::Kill),
            (live, Goal::Live),
        ] {
            let problem = Problem::new(&pos, goal, Target::Inferred, Region::Auto).unwrap();
            let one = solve_keeping(&pos, &problem, Budget::default());
            assert_ne!(one.verdict.outcome, Outcome::Unknown);
            for threads in [2, 3] {
                let budget = Budget {
                    threads,
                    ..Budget::default()
                };
                let many = solve(&pos, &problem, budget);
                assert_eq!(many.outcome, one.verdict.outcome, "{threads} threads");
                let best = many.best.expect("a proven problem has a best move");
                let mut judge = solve_keeping(&pos, &problem, Budget::default());
                let judged = judge.judge(best).unwrap();
                assert_eq!(
                    judged.outcome.as_str(),
                    one.verdict.outcome.as_str(),
                    "{threads} threads: {best:?}"
                );
            }
        }
    }

    #[test]
    fn refuses_a_target_without_a_defender_stone() {
        let pos = corner(19, "X X . .\nO X . .", Color::Black);
        let a1 = Point::parse("C1", 19).unwrap();
        assert_eq!(
            Problem::new(&pos, Goal::Kill, Target::Stones(vec![a1]), Region::Auto),
            Err(BadProblem::NotDefenderStone {
                point: a1,
                defender: Color::White
            })
        );
    }

    #[test]
    fn a_siblings_proof_carries_over_by_simulation() {
        // Cho Chikun Elementary 1 after Black's B5, White to play. Once one White move is
        // refuted, others are refuted by following that proof, and every position the
        // simulation settles is settled the same by a search without it.
        //   . X . O . . .
        //   O O O O X X .
        //   . X X X . . .
        //   . . . . . . .
        //   . X . . . . .
        let cho = corner(
            19,
            ". . . O . . .\nO O O O X X .\n. X X X . . .\n. . . . . . .\n. X . . . . .",
            Color::Black,
        );
        let dead = cho.play_move(mv("B5")).unwrap();
        let problem = Problem::new(&dead, Goal::Kill, Target::Inferred, Region::Auto).unwrap();
        let mut search = Search::new(&dead, &problem, Color::Black, None);
        let moves = search.candidates();
        assert!(moves.len() > 2);
        let first = moves[0];
        search.play(first);
        assert_eq!(
            search.mid(INF - 1, INF - 1, 1).0,
            0,
            "Black kills after any White move"
        );
        search.board.undo();
        let mut carried = Vec::new();
        for &m in &moves[1..] {
            if carried.len() == 3 || !search.try_simulation(first, m, 1, true) {
                continue;
            }
            carried.push(m);
            let mut plain = Search::new(&dead, &problem, Color::Black, None);
            plain.simulation = false;
            plain.play(m);
            assert_eq!(
                plain.mid(INF - 1, INF - 1, 1).0,
                0,
                "{:?}",
                search.to_move(m)
            );
        }
        assert!(!carried.is_empty(), "no sibling proof carried over");
        // Tried once from a position, not again.
        assert!(!search.try_simulation(first, carried[0], 1, true));
    }

    #[test]
    fn reports_unknown_when_the_budget_is_too_small() {
        // Cho Chikun Elementary 1: Black kills, but not within three positions.
        let pos = corner(
            19,
            ". . . O . . .\nO O O O X X .\n. X X X . . .\n. . . . . . .\n. X . . . . .",
            Color::Black,
        );
        let problem = Problem::new(&pos, Goal::Kill, Target::Inferred, Region::Auto).unwrap();
        let tiny = Budget {
            nodes: 3,
            time: Duration::from_secs(1),
            threads: 1,
        };
        assert_eq!(solve(&pos, &problem, tiny).outcome, Outcome::Unknown);
    }

    /// Cho 772, Black to live: A18 is the book's answer. After it, Black's B18-A18 chain
    /// and White's C19-C17 chain race, and A19 is a liberty both need; nothing reaches it
    /// from Black's group (White's chain is in the way), but the region is all around it.
    ///
    /// ```text
    ///   . . O . X . .
    ///   . X O . . O O
    ///   . X O X X . .
    ///   X O X X . O .
    ///   . O O . . O .
    ///   . . . . O . .
    ///   . . O . . . .
    /// ```
    #[test]
    fn a_hole_the_fight_surrounds_is_in_the_region() {
        let text = ". . O . X . .
                    . X O . . O O
                    . X O X X . .
                    X O X X . O .
                    . O O . . O .
                    . . . . O . .
                    . . O . . . .";
        let (pos, problem) = black_to_live(text);
        assert!(in_region(&problem, &["A19"]));
        assert_wins(&pos, &problem, "A18");
    }

    /// Cho Chikun Elementary 40 (Black to live): Black's A18-B16 chain and White's B19-B18
    /// are in mutual atari. Black's two chains of four are equal; the target is the
    /// C19-E18 chain with its liberties, not the one in atari, which the book gives up:
    /// after its E19 White captures four stones at A19, and Black B17 lives.
    ///   . O X . . . . . .
    ///   X O X X X O . O .
    ///   X X O . O O . . .
    ///   O X O . . . . . .
    ///   O O O . . . . . .
    ///   . . . . . . . . .
    #[test]
    fn a_chain_in_atari_is_not_taken_for_the_group() {
        let text = ". O X . . . . . .
                    X O X X X O . O .
                    X X O . O O . . .
                    O X O . . . . . .
                    O O O . . . . . .
                    . . . . . . . . .";
        let (pos, problem) = black_to_live(text);
        let at = |name: &str| Point::parse(name, 19).unwrap();
        assert!(problem.target().contains(&at("C18")));
        assert!(!problem.target().contains(&at("A18")));
        assert_wins(&pos, &problem, "E19");
    }

    /// Cho Chikun Elementary 104 (Black to live): White's B18-B17 and C19-D19 are short of
    /// liberties, so A18, A17 and B19 are in the region; A19, next to them only, is a hole
    /// that White guards, taken in because Black must live. The book's A18 lives: White
    /// B19 is answered by A17, and White's five stones, left with A19 alone, are captured
    /// there. Without A19 the solver refuted A18.
    ///   . . O O X O .
    ///   . O X X X O .
    ///   . O X . X O .
    ///   . X O X X O .
    ///   . . O . O O .
    ///   . . O . . . .
    ///   . . . . . . .
    #[test]
    fn a_hole_the_attacker_guards_is_in_the_region_of_a_group_that_must_live() {
        let text = ". . O O X O .
                    . O X X X O .
                    . O X . X O .
                    . X O X X O .
                    . . O . O O .
                    . . O . . . .
                    . . . . . . .";
        let (pos, problem) = black_to_live(text);
        assert!(in_region(&problem, &["A19"]));
        assert_wins(&pos, &problem, "A18");
    }

    /// Cho Chikun Elementary 711 (Black to live): White's C18 is short of liberties, so
    /// Black's B18 next to it is in the region; B18's own neighbour A18 (White, two
    /// liberties) is then a boundary chain too, and its liberties A19 and A17 are in. The
    /// book's B19 lives: White A19 is answered by A17, which captures two stones. Without
    /// A17 in the region the solver refuted B19.
    ///   . . . O . X O .
    ///   O X O X . X O .
    ///   . O X X X X O .
    ///   . O O O O O O .
    ///   . . . . . . . .
    #[test]
    fn a_chain_the_fight_brings_in_brings_its_own_neighbours() {
        let text = ". . . O . X O .
                    O X O X . X O .
                    . O X X X X O .
                    . O O O O O O .
                    . . . . . . . .";
        let (pos, problem) = black_to_live(text);
        assert!(in_region(&problem, &["A19", "A17"]));
        assert_wins(&pos, &problem, "B19");
    }

    /// Cho Chikun Elementary 881 (Black to live): B19, which White guards, is on the fence.
    /// The book's C18 lives: after White C17, Black D19 and White C19, White's C19 has one
    /// liberty, B19, and Black takes it there. Without that capture the solver refuted C18.
    ///   . . . . . X O .
    ///   . O . . O X O .
    ///   . O . X O X O .
    ///   . . O X O X O .
    ///   . . O X X X O .
    ///   . . . O O O . .
    #[test]
    fn the_defender_may_capture_on_the_fence() {
        let text = ". . . . . X O .
                    . O . . O X O .
                    . O . X O X O .
                    . . O X O X O .
                    . . O X X X O .
                    . . . O O O . .";
        let (pos, problem) = black_to_live(text);
        let b19 = Point::parse("B19", 19).unwrap();
        assert!(problem.fence.contains(&b19) && !problem.region.contains(&b19));
        assert_wins(&pos, &problem, "C18");
        let mut after = pos;
        for name in ["C18", "C17", "D19", "C19"] {
            after = after.play_move(mv(name)).unwrap();
        }
        let verdict = solve(&after, &problem, two_million());
        assert_eq!(verdict.outcome, Outcome::Win, "{verdict:?}");
        assert_eq!(verdict.best, Some(mv("B19")));
    }

    /// Cho Chikun Elementary 14 (Black to kill): after the book's B19, White F18 and Black
    /// F19, White's E19 leaves F19 one liberty, G19, on the fence, where White may take it;
    /// Black may then attack that stone at H19, just off the region. Without H19 White's
    /// G19 could never be captured and B19 was refuted; with it B19 is a ko (as it was
    /// before the defender could capture on the fence).
    ///   . . . . . . . . .
    ///   O O O O O . X . .
    ///   . X X X X X . X .
    ///   . . . . . . . . .
    ///   . X . . . . . . .
    #[test]
    fn a_stone_that_captures_on_the_fence_may_be_attacked_from_outside_the_region() {
        let text = ". . . . . . . . .
                    O O O O O . X . .
                    . X X X X X . X .
                    . . . . . . . . .
                    . X . . . . . . .";
        let pos = upper_corner(text, Color::Black);
        let problem = Problem::new(&pos, Goal::Kill, Target::Inferred, Region::Auto).unwrap();
        let g19 = Point::parse("G19", 19).unwrap();
        assert!(problem.fence.contains(&g19));
        let judgement = evaluate_move(&pos, &problem, mv("B19"), two_million()).unwrap();
        assert!(
            matches!(judgement.outcome, Outcome::Ko { .. }),
            "{judgement:?}"
        );
    }

    /// Cho Chikun Elementary 1 (Black to kill): White may run out along the edge at A17 and
    /// A16; A15 and B16, guarded by Black's B15 and B17, are the fence.
    ///   . . . O . . .
    ///   O O O O X X .
    ///   . X X X . . .
    ///   . . . . . . .
    ///   . X . . . . .
    #[test]
    fn fence_points_are_the_attackers_moves_only() {
        let text = ". . . O . . .\nO O O O X X .\n. X X X . . .\n. . . . . . .\n. X . . . . .";
        let pos = upper_corner(text, Color::Black);
        let problem = Problem::new(&pos, Goal::Kill, Target::Inferred, Region::Auto).unwrap();
        let fence: Vec<String> = problem.fence.iter().map(|p| p.name(19)).collect();
        assert_eq!(fence, ["A15", "B16"]);
        let white: Vec<Point> = problem.moves_of(Color::White).collect();
        let black: Vec<Point> = problem.moves_of(Color::Black).collect();
        for p in &problem.fence {
            assert!(!problem.region.contains(p) && !white.contains(p) && black.contains(p));
        }
        // The fence is empty on the search board: Black still spends the move that closes
        // the gap (White's A17 A16 is answered there), and Black's B19 kills.
        let verdict = solve(&pos, &problem, Budget::default());
        assert_eq!(verdict.outcome, Outcome::Win, "{verdict:?}");
        assert_eq!(verdict.best, Some(mv("B19")));
        let after = pos.play_move(mv("B19")).unwrap();
        let search = Search::new(&after, &problem, Color::Black, None);
        assert!(search
            .board
            .is_empty_vertex(search.board.vertex(Point::parse("A15", 19).unwrap())));
    }
}
