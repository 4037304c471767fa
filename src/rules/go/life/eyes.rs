//! Static kills for the life-and-death search: a target whose whole remaining eye space is
//! one small pocket of a known dead shape is dead, without playing the capture out; and
//! [`EyeSpace`], which rules out life in one move without playing the move.
//!
//! The search's model (see [`super`]) keeps every attacker chain with a liberty outside the
//! defender's reach (the region, and the fence points where the defender may capture)
//! alive for good: the defender never plays there, and the attacker never fills its own
//! liberty. Call those chains *safe*. The rules here look at the **pocket**: the points
//! reached from the target's chains through empty points and the stones of unsafe attacker
//! chains. They fire only when
//!
//! 0. the defender is to play (with the attacker to play the search plays the attacker's
//!    move, the vital point first, and asks again: so a won position always has its
//!    winning move to show);
//! 1. the target still on the board is **one chain** `W` (its *wall*);
//! 2. every neighbour of the pocket is a stone of `W` or off the board: no safe attacker
//!    stone and no other defender chain touches it, and every empty point of the pocket is
//!    in the region (both sides may play on all of it);
//! 3. the pocket holds no ko point.
//!
//! Then `W`'s neighbours outside the pocket are all safe attacker stones or the edge, so
//! `W` has no liberty outside the pocket and can never gain one: the stones around the
//! pocket are `W`'s own, the stones around `W` are never captured. The defender's only
//! eye space, now and after any captures inside it, is the pocket, and the fight is the
//! classical one of an enclosed eye space with no outside liberties, decided by the shape
//! of the pocket alone:
//!
//! - **Two points or fewer** (any stones in them): the defender can never split the pocket
//!   into two regions, so it never has two eyes, and the attacker captures `W` by filling
//!   the pocket (a stone the defender captures inside a two-point pocket leaves one point).
//! - **A killing shape with one attacker stone on its vital point** and the rest empty:
//!   straight and bent three, pyramid four, bulky five, crossed five and rabbity (flower)
//!   six; and a **square four** with every point empty. These are the nakade shapes: the
//!   attacker fills the pocket to a self-atari shaped so that the defender's capture
//!   leaves a smaller killing shape, down to one of two points; no ko arises, since `W`
//!   takes part in every capture the defender makes and the attacker captures nothing
//!   before `W` itself.
//!
//! The unit tests prove each rule's positions again by search with the rules switched off
//! (on the edge, in the corner and in the middle of the board), and show where a rule must
//! not fire.
//!
//! ```text
//!   X X X X X .      Fires (White to play): White's pocket A1 B1 C1 is a straight
//!   O O O O X .      three with Black on its vital point B1, touched only by White's
//!   . X . O X .      one chain and the edge; Black's wall reaches outside the region.
//!
//!   X X X X X .      Must not fire (White to play): the same pocket, empty. White B1
//!   O O O O X .      makes two eyes. (With Black to play the search finds B1, and the
//!   . . . O X .      rule fires after it.)
//!
//!   X X X X X .      Must not fire: D1 is Black's, so the pocket A1 B1 C1 touches
//!   O O O O X .      Black's wall: it is not White's eye space alone.
//!   . . . X X .
//! ```

use super::super::board::Color;
use super::super::search_board::{PointSet, SearchBoard};

/// The most points a pocket may have to be looked at (the largest shape has six).
const MAX_POCKET: usize = 6;

/// A dead shape of eye space: its points, normalised (the smallest column and row 0),
/// sorted, and its vital point.
struct Shape {
    name: &'static str,
    points: &'static [(i8, i8)],
    /// The point that decides the shape; `None` for a shape dead whoever plays.
    vital: Option<(i8, i8)>,
}

/// The killing shapes, as in every Go book (a `.` is not part of the shape):
///
/// ```text
///   straight three  bent three  square four  pyramid four  bulky five  crossed five  rabbity six
///   # @ #           @ #         # #          # @ #         # #         . # .         . # .
///                   #           # #            #           # @ #       # @ #         # @ #
///                                                                      . # .         . # #
/// ```
/// (`@` is the vital point.)
const SHAPES: &[Shape] = &[
    Shape {
        name: "straight three",
        points: &[(0, 0), (1, 0), (2, 0)],
        vital: Some((1, 0)),
    },
    Shape {
        name: "bent three",
        points: &[(0, 0), (0, 1), (1, 0)],
        vital: Some((0, 0)),
    },
    Shape {
        name: "square four",
        points: &[(0, 0), (0, 1), (1, 0), (1, 1)],
        vital: None,
    },
    Shape {
        name: "pyramid four",
        points: &[(0, 0), (1, 0), (1, 1), (2, 0)],
        vital: Some((1, 0)),
    },
    Shape {
        name: "bulky five",
        points: &[(0, 0), (0, 1), (1, 0), (1, 1), (2, 1)],
        vital: Some((1, 1)),
    },
    Shape {
        name: "crossed five",
        points: &[(0, 1), (1, 0), (1, 1), (1, 2), (2, 1)],
        vital: Some((1, 1)),
    },
    Shape {
        name: "rabbity six",
        points: &[(0, 1), (1, 0), (1, 1), (1, 2), (2, 1), (2, 2)],
        vital: Some((1, 1)),
    },
];

/// The target's pocket (see the module's conditions 1 to 3): its points (grid indices) and
/// its shape, if it has one of [`SHAPES`], with the grid index of the shape's vital point.
struct Pocket {
    points: Vec<usize>,
    shape: Option<(&'static Shape, Option<usize>)>,
}

/// The pocket of the target's one chain, if the target has one (conditions 1 to 3).
fn pocket(
    board: &SearchBoard,
    region: &PointSet,
    reach: &PointSet,
    target: &[usize],
    defender: Color,
) -> Option<Pocket> {
    let attacker = defender.opponent();
    // 1. One chain of the target on the board.
    let mut wall = None;
    for &t in target {
        if board.cell(t) == Some(defender) {
            let chain = board.chain_id(t);
            if wall.is_some_and(|w| w != chain) {
                return None;
            }
            wall = Some(chain);
        }
    }
    let wall = wall?;
    let safe = |v: usize| !board.chain_libs(v).is_subset(reach);
    // 2. The pocket, flooded from the wall's neighbours.
    let mut pocket = PointSet::EMPTY;
    let mut stack: Vec<usize> = Vec::with_capacity(MAX_POCKET + 4);
    for s in board.chain_stones(wall) {
        for n in board.neighbours(s) {
            let open = board.is_empty_vertex(n) || (board.cell(n) == Some(attacker) && !safe(n));
            if open && pocket.insert(n) {
                stack.push(n);
            }
        }
    }
    let mut points = Vec::with_capacity(MAX_POCKET);
    while let Some(q) = stack.pop() {
        points.push(q);
        if points.len() > MAX_POCKET {
            return None;
        }
        if board.is_empty_vertex(q) && !region.contains(q) {
            return None;
        }
        for n in board.neighbours(q) {
            if !board.on_board(n) || pocket.contains(n) {
                continue;
            }
            match board.cell(n) {
                None => {
                    pocket.insert(n);
                    stack.push(n);
                }
                Some(c) if c == defender => {
                    if board.chain_id(n) != wall {
                        return None;
                    }
                }
                Some(_) => {
                    if safe(n) {
                        return None;
                    }
                    pocket.insert(n);
                    stack.push(n);
                }
            }
        }
    }
    // 3. No ko inside.
    if let Some(ko) = board.ko_point() {
        if pocket.contains(board.vertex(ko)) {
            return None;
        }
    }
    let shape = match_shape(board, &points);
    Some(Pocket { points, shape })
}

/// Why the target is dead, if one of the rules of this module says so: the name of the
/// pocket's shape (`"two points"` for the smallest pockets).
///
/// `region` is the set of points where both sides may play, `reach` those where the
/// defender may ever play (the region and more); `target` the grid indices of the
/// target's points.
pub(in crate::rules::go) fn dead_pocket(
    board: &SearchBoard,
    region: &PointSet,
    reach: &PointSet,
    target: &[usize],
    defender: Color,
) -> Option<&'static str> {
    // 0. The defender to play.
    if board.turn() != defender {
        return None;
    }
    let pocket = pocket(board, region, reach, target, defender)?;
    if pocket.points.len() <= 2 {
        return Some("two points");
    }
    let (shape, vital) = pocket.shape?;
    let mut stones = pocket
        .points
        .iter()
        .copied()
        .filter(|&v| board.cell(v).is_some());
    let dead = match (vital, stones.next(), stones.next()) {
        (None, None, _) => shape.vital.is_none(),
        (Some(vital), Some(stone), None) => stone == vital,
        _ => false,
    };
    dead.then_some(shape.name)
}

/// The empty vital point of the target's pocket, if the pocket is one of the killing
/// shapes with every point empty: the move both sides want first.
pub(in crate::rules::go) fn vital_point(
    board: &SearchBoard,
    region: &PointSet,
    reach: &PointSet,
    target: &[usize],
    defender: Color,
) -> Option<usize> {
    let pocket = pocket(board, region, reach, target, defender)?;
    let (_, vital) = pocket.shape?;
    let vital = vital?;
    pocket
        .points
        .iter()
        .all(|&v| board.is_empty_vertex(v))
        .then_some(vital)
}

/// The shape of `points` (grid indices), if it is one of [`SHAPES`], and the grid index of
/// its vital point.
fn match_shape(board: &SearchBoard, points: &[usize]) -> Option<(&'static Shape, Option<usize>)> {
    let coords: Vec<(i8, i8)> = points
        .iter()
        .map(|&v| {
            let p = board.point(v);
            (p.col as i8, p.row as i8)
        })
        .collect();
    for shape in SHAPES.iter().filter(|s| s.points.len() == coords.len()) {
        for symmetry in 0..8 {
            let moved: Vec<(i8, i8)> = coords.iter().map(|&c| transform(c, symmetry)).collect();
            let c0 = moved.iter().map(|c| c.0).min()?;
            let r0 = moved.iter().map(|c| c.1).min()?;
            let normal: Vec<(i8, i8)> = moved.iter().map(|&(c, r)| (c - c0, r - r0)).collect();
            let mut sorted = normal.clone();
            sorted.sort_unstable();
            if sorted != shape.points {
                continue;
            }
            let vital = shape
                .vital
                .and_then(|v| normal.iter().position(|&c| c == v))
                .map(|i| points[i]);
            return Some((shape, vital));
        }
    }
    None
}

/// One of the eight symmetries of the square.
fn transform((c, r): (i8, i8), symmetry: u8) -> (i8, i8) {
    let (c, r) = if symmetry & 4 != 0 { (r, c) } else { (c, r) };
    let c = if symmetry & 1 != 0 { -c } else { c };
    let r = if symmetry & 2 != 0 { -r } else { r };
    (c, r)
}

/// The defender's possible eyes before its move, for a quick "no" to "does this move leave
/// a chain Benson-alive?" (the search asks it of most moves next to the defender's stones,
/// at every new position with the defender to play, and most answers are no).
///
/// A chain is Benson-alive only with two regions vital to it (a *region*: connected points
/// of the area that are not the defender's stones), and a vital region lies inside the
/// area and has every empty point next to a defender stone. Call such a region *possible*.
/// After a defender stone on `v`, the regions other than `v`'s own are as they were (a
/// chain the stone captures touches `v`, so it lies in `v`'s region), and `v`'s region
/// splits into the pieces that `v` separates. So with fewer than two possible regions
/// besides `v`'s, and too few possible pieces, no chain lives after `v`.
///
/// ```text
///   X X X X X .     White to play. White's one possible region is A1-C1 (the one
///   O O O O X .     beyond Black's wall reaches out of the area). White A1 leaves
///   . . . O X .     the piece B1-C1: one, so no chain lives; B1 leaves A1 and C1.
/// ```
#[derive(Clone)]
pub(in crate::rules::go) struct EyeSpace {
    /// The points of the possible regions.
    possible: PointSet,
    /// How many regions are possible.
    count: usize,
    /// By grid index: a point of the area next to a point off it (a region holding it
    /// reaches out of the area: it is no eye).
    escapes: Vec<bool>,
    stack: Vec<usize>,
}

impl EyeSpace {
    /// The eye space of a search over `area` on `board`'s grid (no regions yet: see
    /// [`EyeSpace::rebuild`]).
    pub(in crate::rules::go) fn new(board: &SearchBoard, area: &PointSet) -> EyeSpace {
        let mut escapes = vec![false; board.grid_len()];
        for v in area.iter() {
            escapes[v] = board
                .neighbours(v)
                .iter()
                .any(|&q| board.on_board(q) && !area.contains(q));
        }
        EyeSpace {
            possible: PointSet::EMPTY,
            count: 0,
            escapes,
            stack: Vec::with_capacity(64),
        }
    }

    /// Finds the possible regions of `board` as it is, the defender to play: walked from
    /// the liberties of the defender's chains with a stone in `area` (the chains Benson's
    /// test there looks at; a region with no liberty is vital to no chain), each given up
    /// at its first point that rules it out.
    pub(in crate::rules::go) fn rebuild(
        &mut self,
        board: &SearchBoard,
        area: &PointSet,
        defender: Color,
    ) {
        self.possible = PointSet::EMPTY;
        self.count = 0;
        let (mut chains, mut liberties) = (PointSet::EMPTY, PointSet::EMPTY);
        for v in area.iter() {
            if board.cell(v) == Some(defender) && chains.insert(board.chain_id(v)) {
                liberties.union_with(board.chain_libs(v));
            }
        }
        let mut walked = PointSet::EMPTY;
        for l in liberties.iter() {
            if walked.contains(l) || !area.contains(l) {
                continue;
            }
            let mut seen = PointSet::EMPTY;
            if self.walk(board, area, defender, l, None, &mut seen) {
                self.possible.union_with(&seen);
                self.count += 1;
            }
            walked.union_with(&seen);
        }
    }

    /// False only if no chain can be Benson-alive after a defender stone on the empty
    /// `v` (on the board [`EyeSpace::rebuild`] looked at).
    pub(in crate::rules::go) fn may_live_after(
        &mut self,
        board: &SearchBoard,
        area: &PointSet,
        defender: Color,
        v: usize,
    ) -> bool {
        let others = self.count - usize::from(self.possible.contains(v));
        let mut pieces = PointSet::EMPTY;
        let mut found = 0;
        for start in board.neighbours(v) {
            if others + found >= 2 {
                break;
            }
            let open = area.contains(start) && board.cell(start) != Some(defender);
            if !open || pieces.contains(start) {
                continue;
            }
            let mut seen = PointSet::EMPTY;
            if self.walk(board, area, defender, start, Some(v), &mut seen) {
                found += 1;
                pieces.union_with(&seen);
            }
        }
        others + found >= 2
    }

    /// Walks the region of `start` (without `stone`, a defender stone to come) while it
    /// stays possible, marking the points walked in `seen`: true if it is possible.
    fn walk(
        &mut self,
        board: &SearchBoard,
        area: &PointSet,
        defender: Color,
        start: usize,
        stone: Option<usize>,
        seen: &mut PointSet,
    ) -> bool {
        let is_stone = |q: usize| stone == Some(q);
        self.stack.clear();
        self.stack.push(start);
        seen.insert(start);
        while let Some(q) = self.stack.pop() {
            let neighbours = board.neighbours(q);
            let lonely = board.is_empty_vertex(q)
                && neighbours
                    .iter()
                    .all(|&n| board.cell(n) != Some(defender) && !is_stone(n));
            if self.escapes[q] || lonely {
                return false;
            }
            for n in neighbours {
                let open = area.contains(n) && board.cell(n) != Some(defender) && !is_stone(n);
                if open && seen.insert(n) {
                    self.stack.push(n);
                }
            }
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::super::search::Search;
    use super::super::{solve, Budget, Outcome, Problem, Region, Target};
    use super::*;
    use crate::rules::go::search_board::for_random_boards;
    use crate::rules::go::{Board, Move, Point, Position};

    /// A White group whose only eye space is `pocket` (points `(x, y)` from the lower left
    /// corner A1, shifted by `at`), walled in by White and, around it, by Black: every
    /// point within one line of the pocket is White, within two lines Black; `black` are
    /// Black stones put inside. `None` if White's wall is not one chain there.
    fn enclosed(
        pocket: &[(i8, i8)],
        at: (i8, i8),
        black: &[(i8, i8)],
        to_play: Color,
    ) -> Option<Position> {
        let mut board = Board::new(19).unwrap();
        let shifted: Vec<(i8, i8)> = pocket.iter().map(|&(x, y)| (x + at.0, y + at.1)).collect();
        let point = |(x, y): (i8, i8)| {
            ((0..19).contains(&x) && (0..19).contains(&y))
                .then(|| Point::new(x as u8, (18 - y) as u8))
        };
        let distance = |(x, y): (i8, i8)| {
            shifted
                .iter()
                .map(|&(px, py)| (px - x).abs().max((py - y).abs()))
                .min()
                .unwrap_or(i8::MAX)
        };
        let mut white = Vec::new();
        for x in 0..19 {
            for y in 0..19 {
                let colour = match distance((x, y)) {
                    1 => Color::White,
                    2 => Color::Black,
                    _ => continue,
                };
                let p = point((x, y))?;
                board.set(p, Some(colour));
                if colour == Color::White {
                    white.push(p);
                }
            }
        }
        for &(x, y) in black {
            board.set(point((x + at.0, y + at.1))?, Some(Color::Black));
        }
        white.retain(|&p| board.get(p) == Some(Color::White));
        (board.chain(white[0]).len() == white.len()).then(|| Position::new(board, to_play))
    }

    fn search(pos: &Position, ko_master: Color) -> Search<'static> {
        let problem =
            Problem::with_defender(pos, Color::White, Target::Inferred, Region::Auto).unwrap();
        let problem: &'static Problem = Box::leak(Box::new(problem));
        let mut s = Search::new(pos, problem, pos.turn(), Some(ko_master));
        s.node_limit = Budget::default().nodes;
        s
    }

    fn rule(pos: &Position) -> Option<&'static str> {
        let s = search(pos, Color::White);
        dead_pocket(&s.board, &s.region_set, &s.reach, &s.target, Color::White)
    }

    /// Whether White lives in `pos`, by search without this module's rules, with White as
    /// ko master (a win by ko counts for White).
    fn white_lives_by_search(pos: &Position) -> Option<bool> {
        let mut plain = search(pos, Color::White);
        plain.options.static_kills = false;
        let proven = plain.run();
        match pos.turn() {
            Color::White => proven,
            Color::Black => proven.map(|black_kills| !black_kills),
        }
    }

    const PLACES: [(i8, i8); 4] = [(0, 0), (1, 0), (6, 0), (7, 7)];

    #[test]
    fn a_killing_shape_with_the_attacker_on_its_vital_point_is_dead() {
        //   X X X X X .      White's straight three A1 B1 C1 with Black on B1, White to
        //   O O O O X .      play: dead.
        //   . X . O X .
        let mut fired = 0;
        for shape in SHAPES.iter() {
            for at in PLACES {
                let Some(vital) = shape.vital else {
                    // A square four dies whoever plays first: it fires with White to play.
                    let Some(pos) = enclosed(shape.points, at, &[], Color::White) else {
                        continue;
                    };
                    assert_eq!(rule(&pos), Some(shape.name), "{} at {at:?}", shape.name);
                    assert_eq!(white_lives_by_search(&pos), Some(false));
                    fired += 1;
                    continue;
                };
                let Some(pos) = enclosed(shape.points, at, &[vital], Color::White) else {
                    continue;
                };
                assert_eq!(
                    (rule(&pos), white_lives_by_search(&pos)),
                    (Some(shape.name), Some(false)),
                    "{} at {at:?}, Black on the vital point",
                    shape.name
                );
                fired += 1;
            }
        }
        assert!(fired >= 20, "{fired}");
    }

    #[test]
    fn the_attacker_to_play_takes_the_vital_point_first() {
        // With Black to play the rule waits; the search plays the vital point and the rule
        // then fires.
        for shape in SHAPES.iter() {
            let Some(vital) = shape.vital else { continue };
            for at in PLACES {
                let Some(pos) = enclosed(shape.points, at, &[], Color::Black) else {
                    continue;
                };
                assert_eq!(rule(&pos), None);
                let problem =
                    Problem::with_defender(&pos, Color::White, Target::Inferred, Region::Auto)
                        .unwrap();
                let v = solve(&pos, &problem, Budget::default());
                let p = Point::new((vital.0 + at.0) as u8, (18 - vital.1 - at.1) as u8);
                assert_eq!(
                    (v.outcome, v.best),
                    (Outcome::Win, Some(Move::Play(p))),
                    "{} at {at:?}",
                    shape.name
                );
            }
        }
    }

    #[test]
    fn a_killing_shape_with_the_defender_to_play_and_its_vital_point_empty_lives() {
        // White takes the vital point and lives: the rule must not fire.
        //   X X X X X .
        //   O O O O X .
        //   . . . O X .
        for shape in SHAPES.iter().filter(|s| s.vital.is_some()) {
            for at in PLACES {
                let Some(pos) = enclosed(shape.points, at, &[], Color::White) else {
                    continue;
                };
                assert_eq!(
                    (rule(&pos), white_lives_by_search(&pos)),
                    (None, Some(true)),
                    "{} at {at:?}, White to play",
                    shape.name
                );
            }
        }
    }

    #[test]
    fn a_pocket_of_two_points_or_fewer_is_dead() {
        //   X X X X .      White's pocket A1 B1, White to play: no two eyes.
        //   O O O X .
        //   . . O X .
        let pockets: [&[(i8, i8)]; 3] = [&[(0, 0)], &[(0, 0), (1, 0)], &[(0, 0), (0, 1)]];
        for pocket in pockets {
            for at in PLACES {
                for black in [&[][..], &[(0, 0)]] {
                    let Some(pos) = enclosed(pocket, at, black, Color::White) else {
                        continue;
                    };
                    if pocket.len() == 1 && !black.is_empty() {
                        continue;
                    }
                    assert_eq!(
                        (rule(&pos), white_lives_by_search(&pos)),
                        (Some("two points"), Some(false)),
                        "{pocket:?} at {at:?}, Black on {black:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn a_straight_four_is_not_a_killing_shape() {
        //   X X X X X X .      White's straight four A1-D1 lives whoever plays: no rule.
        //   O O O O O X .
        //   . . . . O X .
        let pos = enclosed(&[(0, 0), (1, 0), (2, 0), (3, 0)], (0, 0), &[], Color::White).unwrap();
        assert_eq!(
            (rule(&pos), white_lives_by_search(&pos)),
            (None, Some(true))
        );
    }

    #[test]
    fn a_black_stone_off_the_vital_point_stops_the_rule() {
        //   X X X X X .      Black's stone on A1, the end of White's straight three, and
        //   O O O O X .      White to play: White B1 captures it and makes two eyes.
        //   X . . O X .
        let pos = enclosed(&[(0, 0), (1, 0), (2, 0)], (0, 0), &[(0, 0)], Color::White).unwrap();
        assert_eq!(
            (rule(&pos), white_lives_by_search(&pos)),
            (None, Some(true))
        );
    }

    #[test]
    fn a_pocket_touching_the_attackers_wall_or_two_defender_chains_is_not_looked_at() {
        // The straight three A1 B1 C1 where D1 is Black's: the pocket touches Black's
        // wall (D1 connects to it through E1).
        //   X X X X X .
        //   O O O O X .
        //   . . . X X .
        let pos = enclosed(&[(0, 0), (1, 0), (2, 0)], (0, 0), &[(3, 0)], Color::White).unwrap();
        assert_eq!(rule(&pos), None);
        // A straight three in a wall of two White chains (C2 empty: A2-B2 and D2-D1 are
        // not connected); White to play.
        //   X X X X X .
        //   O O . O X .
        //   . . . O X .
        let mut board = enclosed(&[(0, 0), (1, 0), (2, 0)], (0, 0), &[], Color::White)
            .unwrap()
            .board()
            .clone();
        board.set(Point::parse("C2", 19).unwrap(), None);
        assert_eq!(rule(&Position::new(board, Color::White)), None);
    }

    /// An attacker chain the defender may still capture is no wall of the pocket: Black's
    /// A3-D1 chain has its liberties A4-D4 off the region. Where the defender may never
    /// play them the chain is safe and White's two points A1 B1 are dead; where it may
    /// (its reach: a fence point where it captures), White could capture the chain, and
    /// the rule does not fire.
    ///   . . . . . .
    ///   X X X X O .
    ///   O O O X O .
    ///   . . O X O .
    #[test]
    fn an_attacker_chain_in_the_defenders_reach_is_not_safe() {
        let text = ". . . . . .
                    X X X X O .
                    O O O X O .
                    . . O X O .";
        let a4 = Point::parse("A4", 19).unwrap();
        let board = Board::from_text_at(19, text, a4, 6, 4).unwrap();
        let s = SearchBoard::new(&board, Color::White);
        let set = |names: &[&str]| {
            let mut points = PointSet::EMPTY;
            for name in names {
                points.insert(s.vertex(Point::parse(name, 19).unwrap()));
            }
            points
        };
        let region = set(&["A1", "B1"]);
        let target = [s.vertex(Point::parse("A2", 19).unwrap())];
        let dead = dead_pocket(&s, &region, &region, &target, Color::White);
        assert_eq!(dead, Some("two points"));
        let reach = set(&["A1", "B1", "A4", "B4", "C4", "D4"]);
        assert_eq!(
            dead_pocket(&s, &region, &reach, &target, Color::White),
            None
        );
    }

    /// Wherever [`EyeSpace`] says no chain can live after a move, Benson's test after the
    /// move finds no living chain: on boards of random games stopped at many points, in a
    /// box of the board, for both colours and every legal move in the box.
    #[test]
    fn eye_space_rules_out_life_only_where_benson_finds_none() {
        let (mut ruled_out, mut tried, mut alive_after) = (0, 0, 0);
        for_random_boards(11, 60, (40, 60), |game, s, area| {
            for _ in 0..2 {
                let defender = s.turn();
                let mut space = EyeSpace::new(s, area);
                space.rebuild(s, area, defender);
                for v in area.iter() {
                    if !s.is_empty_vertex(v) || s.check_vertex(v, defender).is_err() {
                        continue;
                    }
                    let may = space.may_live_after(s, area, defender, v);
                    s.play_legal(v);
                    let alive = !s.benson(defender, Some(area)).is_empty();
                    s.undo();
                    assert!(may || !alive, "game {game}: {defender:?} at {v}");
                    tried += 1;
                    ruled_out += usize::from(!may);
                    alive_after += usize::from(alive);
                }
                s.pass();
            }
        });
        assert!(
            tried > 5_000 && ruled_out > 1_000 && alive_after > 200,
            "{tried} {ruled_out} {alive_after}"
        );
    }
}
