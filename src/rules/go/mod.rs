//! The Go rules engine: board, chains and liberties, captures, forbidden points, ko and
//! positional superko, as in the Chinese rules (中国围棋竞赛规则).
//!
//! ```
//! use qiyuan::rules::go::{Move, Position};
//! let pos = Position::empty(9).unwrap();
//! let d4 = pos.board().point("D4").unwrap();
//! let pos = pos.play_move(Move::Play(d4)).unwrap();
//! assert_eq!(pos.board().liberties(d4).len(), 4);
//! ```

mod board;
pub mod handicap;
pub mod life;
mod point;
mod position;
pub mod score;
mod search_board;
pub mod select;

pub use board::{BadBoard, Board, Color};
pub use handicap::{handicap_points, handicap_position, BadHandicap};
pub use point::{column_letter, BadPoint, Point, MAX_SIZE, MIN_SIZE};
pub use position::{Illegal, Move, Position};
pub use score::{
    game_over, score, score_position, BadCount, Counting, Ending, Outcome, Owner, Score, Scoring,
};
pub use search_board::{SearchBoard, SplitMix64};

/// Star points (星位) of a board of `size`: 9 on 19×19 (the centre one is 天元), 9 on 13×13,
/// 5 on 9×9, none below 7×7 except the centre of odd boards.
pub fn star_points(size: u8) -> Vec<Point> {
    let edge = match size {
        0..=6 => None,
        7..=11 => Some(2),
        _ => Some(3),
    };
    let mut stars = Vec::new();
    let centre = (size % 2 == 1).then_some(size / 2);
    if let Some(e) = edge {
        let far = size - 1 - e;
        for (c, r) in [(e, e), (far, e), (e, far), (far, far)] {
            stars.push(Point::new(c, r));
        }
        if size >= 13 {
            if let Some(m) = centre {
                for (c, r) in [(m, e), (e, m), (far, m), (m, far)] {
                    stars.push(Point::new(c, r));
                }
            }
        }
    }
    if let Some(m) = centre {
        if size >= 5 {
            stars.push(Point::new(m, m));
        }
    }
    stars.sort();
    stars
}


/// The rules in the words every game shares.
impl super::Rules for Position {
    type Move = Move;
    type Illegal = Illegal;
    type Ending = Ending;
    type Color = Color;

    fn turn(&self) -> Color {
        Position::turn(self)
    }
    fn legal_moves(&self) -> Vec<Move> {
        Position::legal_moves(self)
    }
    fn play(&self, text: &str) -> Result<(Self, Move), Illegal> {
        Position::play(self, text)
    }
    fn move_name(&self, mv: &Move) -> String {
        mv.name(self.size())
    }
    fn notation(&self, mv: &Move) -> String {
        mv.name(self.size())
    }
    fn ending(&self) -> Option<Ending> {
        game_over(self).then_some(Ending::TwoPasses)
    }
}

impl super::Explain for Illegal {
    fn explain(&self, lang: crate::lang::Lang) -> String {
        Illegal::explain(self, lang)
    }
}

impl super::Explain for Ending {
    fn explain(&self, lang: crate::lang::Lang) -> String {
        Ending::explain(self, lang)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nineteen_has_nine_star_points_with_tengen() {
        let s = star_points(19);
        assert_eq!(s.len(), 9);
        assert!(s.contains(&Point::new(9, 9)));
        assert!(s.contains(&Point::parse("D4", 19).unwrap()));
        assert_eq!(star_points(9).len(), 5);
        assert_eq!(star_points(13).len(), 9);
    }
}
