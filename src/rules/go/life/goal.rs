//! The goal of the side to play guessed from the position, when a problem does not say.

use super::super::board::Color;
use super::super::point::Point;
use super::super::position::Position;
use super::Goal;
use std::collections::HashMap;

/// How far a stone counts from the open board when no empty path reaches it: farther than
/// any path round a corner problem.
const ENCLOSED: f64 = 30.0;

/// For each colour, the mean distance of its stones from the open board (the empty points
/// with no stone within two lines), counting steps through empty points; [`ENCLOSED`] for
/// a stone no empty path reaches.
fn enclosure(board: &super::super::Board) -> impl Fn(Color) -> f64 {
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
