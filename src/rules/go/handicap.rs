//! Handicap stones (让子) on their standard points.
//!
//! Seen from Black: two stones go on the upper-right and lower-left star points, the third
//! on the lower right, the fourth fills the corners; five adds the centre (天元), six the two
//! side points left and right, seven adds the centre again, eight the four side points, nine
//! every point. On 19×19 and 13×13 these are star points; on 9×9 the corners are the 3-3
//! points and the sides the middle of each edge's third line.
//!
//! ```text
//! 19×19, 4 stones            9×9, 5 stones
//! . . . . . . . .            . . . . . . . . .
//! . . X . . . X .            . . X . . . X . .
//! . . . . . . . .            . . . . X . . . .
//! . . X . . . X .            . . X . . . X . .
//! (D16 Q16 D4 Q4)            . . . . . . . . .
//! ```
//!
//! In a handicap game White plays first, Black gives no komi, and under Chinese counting
//! Black gives back half the handicap at the end (see [`score`](mod@super::score)).

use super::board::{Board, Color};
use super::point::Point;
use super::position::Position;
use std::fmt;

/// Why a handicap cannot be placed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BadHandicap {
    /// Handicaps run from 2 to 9 stones.
    Stones(u8),
    /// This board has no standard points for that many stones (fewer than 7 lines, or an
    /// even size without centre and side points for more than 4).
    Board { size: u8, stones: u8 },
}

impl fmt::Display for BadHandicap {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BadHandicap::Stones(n) => {
                write!(f, "a handicap of {n} stones: use 2 to 9")
            }
            BadHandicap::Board { size, stones } => write!(
                f,
                "a {size}×{size} board has no standard points for {stones} handicap stones"
            ),
        }
    }
}

impl std::error::Error for BadHandicap {}

/// The standard points for `stones` handicap stones on a board of `size`, in the order they
/// are added.
///
/// ```
/// use qiyuan::rules::go::handicap::handicap_points;
/// let names: Vec<String> = handicap_points(19, 3).unwrap().iter().map(|p| p.name(19)).collect();
/// assert_eq!(names, ["Q16", "D4", "Q4"]);
/// assert_eq!(handicap_points(9, 9).unwrap().len(), 9);
/// assert!(handicap_points(8, 5).is_err()); // an even board has no centre
/// ```
pub fn handicap_points(size: u8, stones: u8) -> Result<Vec<Point>, BadHandicap> {
    if !(2..=9).contains(&stones) {
        return Err(BadHandicap::Stones(stones));
    }
    let bad = BadHandicap::Board { size, stones };
    let edge = match size {
        0..=6 => return Err(bad),
        7..=12 => 2,
        _ => 3,
    };
    let (near, far) = (edge, size - 1 - edge);
    let centre = size / 2;
    if stones > 4 && size.is_multiple_of(2) {
        return Err(bad);
    }
    // Columns from the left, rows from the top.
    let upper_right = Point::new(far, near);
    let lower_left = Point::new(near, far);
    let lower_right = Point::new(far, far);
    let upper_left = Point::new(near, near);
    let tengen = Point::new(centre, centre);
    let left = Point::new(near, centre);
    let right = Point::new(far, centre);
    let top = Point::new(centre, near);
    let bottom = Point::new(centre, far);
    let corners = [upper_right, lower_left, lower_right, upper_left];
    let mut points: Vec<Point> = corners[..stones.min(4) as usize].to_vec();
    match stones {
        5 => points.push(tengen),
        6 => points.extend([left, right]),
        7 => points.extend([left, right, tengen]),
        8 => points.extend([left, right, top, bottom]),
        9 => points.extend([left, right, top, bottom, tengen]),
        _ => {}
    }
    Ok(points)
}

/// An empty board of `size` with `stones` handicap stones, White to play.
pub fn handicap_position(size: u8, stones: u8) -> Result<Position, BadHandicap> {
    let mut board = Board::new(size).map_err(|_| BadHandicap::Board { size, stones })?;
    for p in handicap_points(size, stones)? {
        board.set(p, Some(Color::Black));
    }
    Ok(Position::new(board, Color::White))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(size: u8, stones: u8) -> Vec<String> {
        let mut v: Vec<String> = handicap_points(size, stones)
            .unwrap()
            .iter()
            .map(|p| p.name(size))
            .collect();
        v.sort();
        v
    }

    #[test]
    fn nineteen_by_nineteen_uses_the_star_points() {
        assert_eq!(names(19, 2), ["D4", "Q16"]);
        assert_eq!(names(19, 4), ["D16", "D4", "Q16", "Q4"]);
        assert_eq!(names(19, 5), ["D16", "D4", "K10", "Q16", "Q4"]);
        assert_eq!(names(19, 6), ["D10", "D16", "D4", "Q10", "Q16", "Q4"]);
        assert_eq!(
            names(19, 8),
            ["D10", "D16", "D4", "K16", "K4", "Q10", "Q16", "Q4"]
        );
        let stars = super::super::star_points(19);
        assert!(handicap_points(19, 9)
            .unwrap()
            .iter()
            .all(|p| stars.contains(p)));
    }

    #[test]
    fn small_boards() {
        assert_eq!(names(13, 3), ["D4", "K10", "K4"]);
        assert_eq!(names(9, 2), ["C3", "G7"]);
        assert_eq!(names(9, 7), ["C3", "C5", "C7", "E5", "G3", "G5", "G7"]);
        assert_eq!(names(8, 4).len(), 4);
        assert_eq!(
            handicap_points(5, 2),
            Err(BadHandicap::Board { size: 5, stones: 2 })
        );
        assert_eq!(handicap_points(19, 10), Err(BadHandicap::Stones(10)));
    }

    #[test]
    fn white_plays_first() {
        let pos = handicap_position(19, 4).unwrap();
        assert_eq!(pos.turn(), Color::White);
        assert_eq!(pos.board().stones(Color::Black).count(), 4);
    }
}
