//! A life-and-death problem: its sides, target and region of interest (the derived
//! region, its fence and holes, and the author's first moves).

use super::super::board::Color;
use super::super::point::Point;
use super::super::position::Position;
use super::{BadProblem, Goal, Region, Target};
use std::collections::{HashMap, HashSet};

/// A life-and-death problem on a board: who attacks, which stones, where moves may go.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    pub(super) attacker: Color,
    pub(super) target: Vec<Point>,
    pub(super) region: Vec<Point>,
    /// Empty points outside the region where only the attacker may play, and the defender
    /// only to capture (see [`auto_region`]).
    pub(super) fence: Vec<Point>,
    /// The part of the board kept as it is: (first column, first row, last column, last
    /// row). Outside it the board is the attacker's wall.
    pub(super) area: (u8, u8, u8, u8),
    /// The author's (or the book's) first moves and the position they are played from,
    /// searched first there (see [`Problem::with_first_moves`]).
    first_moves: Option<FirstMoves>,
}

/// The first moves an author gives for a problem's start, and that start.
#[derive(Clone, Debug, PartialEq, Eq)]
struct FirstMoves {
    board: super::super::Board,
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
    pub(super) fn first_moves_from(&self, position: &Position) -> &[Point] {
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
    pub(super) fn moves_of(&self, color: Color) -> impl Iterator<Item = Point> + '_ {
        let fence: &[Point] = if color == self.attacker {
            &self.fence
        } else {
            &[]
        };
        self.region.iter().chain(fence).copied()
    }

    pub(super) fn in_area(&self, p: Point) -> bool {
        let (c0, r0, c1, r1) = self.area;
        (c0..=c1).contains(&p.col) && (r0..=r1).contains(&p.row)
    }
}

/// The stones near the target: stones within two lines of one already found.
fn cluster(board: &super::super::Board, target: &[Point]) -> Vec<Point> {
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
    board: &super::super::Board,
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
    board: &super::super::Board,
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
