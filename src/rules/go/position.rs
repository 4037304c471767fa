//! A Go position in play: whose turn, ko, the history for superko, and the rules of a move.

use super::board::{BadBoard, Board, Color};
use super::point::{Point, MAX_SIZE};
use crate::lang::Lang;
use std::fmt;
use std::sync::Arc;

/// A move: a stone on a point, or a pass.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    /// Put a stone of the side to play on this point.
    Play(Point),
    /// Give up the turn (第二条四: either side may pass).
    Pass,
}

impl Move {
    /// Reads `pass` or a GTP point such as `D4`.
    pub fn parse(text: &str, size: u8) -> Result<Move, super::BadPoint> {
        if text.trim().eq_ignore_ascii_case("pass") {
            Ok(Move::Pass)
        } else {
            Point::parse(text, size).map(Move::Play)
        }
    }

    /// `pass` or the GTP name of the point.
    pub fn name(self, size: u8) -> String {
        match self {
            Move::Play(p) => p.name(size),
            Move::Pass => "pass".to_string(),
        }
    }
}

/// Why a move is refused. Each variant is one rule a learner can be told about; `size` is
/// the board's, so that the point can be named.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Illegal {
    /// The text is not a point of this board, nor `pass`.
    NotAMove(String),
    /// A stone is already on the point.
    Occupied {
        point: Point,
        size: u8,
        stone: Color,
    },
    /// The stone would have no liberties and captures nothing: a forbidden point (禁着点).
    Suicide { point: Point, size: u8 },
    /// Retaking a ko at once would repeat the position before the last move (打劫).
    Ko { point: Point, size: u8 },
    /// The move would repeat an earlier whole-board position (全局同形再现).
    Superko { point: Point, size: u8 },
    /// It is the other side's turn.
    NotYourTurn { to_play: Color },
    /// The point lies outside the board.
    OffBoard { point: Point, size: u8 },
}

impl Illegal {
    /// A sentence for the learner in `lang`.
    pub fn explain(&self, lang: Lang) -> String {
        match (self, lang) {
            (Illegal::NotAMove(text), Lang::Zh) => {
                format!("“{text}”不是棋盘上的点：请写像 D4 这样的坐标，或者“pass”（停一手）。")
            }
            (Illegal::NotAMove(text), Lang::En) => format!(
                "“{text}” is not a point of this board: write a point such as D4, or pass."
            ),
            (Illegal::Occupied { point, size, .. }, Lang::Zh) => {
                format!("{} 已经有棋子了，只能下在空的交叉点上。", point.name(*size))
            }
            (Illegal::Occupied { point, size, .. }, Lang::En) => format!(
                "There is already a stone on {}: stones go on empty points only.",
                point.name(*size)
            ),
            (Illegal::Suicide { point, size }, Lang::Zh) => format!(
                "{} 是禁着点：棋子下在这里立即没有气，又不能提掉对方的棋子。",
                point.name(*size)
            ),
            (Illegal::Suicide { point, size }, Lang::En) => format!(
                "{} is a forbidden point: a stone there would have no liberties and captures nothing.",
                point.name(*size)
            ),
            (Illegal::Ko { point, size }, Lang::Zh) => format!(
                "打劫：不能马上在 {} 提回，否则棋盘会回到上一手之前的样子。请先在别处下一手（找劫材）。",
                point.name(*size)
            ),
            (Illegal::Ko { point, size }, Lang::En) => format!(
                "Ko: you may not retake at {} at once, because the board would repeat the position before the last move. Play elsewhere first (a ko threat).",
                point.name(*size)
            ),
            (Illegal::Superko { point, size }, Lang::Zh) => format!(
                "{} 会使全局出现与之前完全相同的局面（全局同形再现），这是禁止的。",
                point.name(*size)
            ),
            (Illegal::Superko { point, size }, Lang::En) => format!(
                "{} would repeat an earlier whole-board position, which the rules forbid (superko).",
                point.name(*size)
            ),
            (Illegal::NotYourTurn { to_play }, Lang::Zh) => format!(
                "现在轮到{}下。",
                if *to_play == Color::Black { "黑方" } else { "白方" }
            ),
            (Illegal::NotYourTurn { to_play }, Lang::En) => {
                format!("It is {}'s turn.", to_play.as_str())
            }
            (Illegal::OffBoard { size, .. }, Lang::Zh) => format!("这一点不在 {size}×{size} 的棋盘上。"),
            (Illegal::OffBoard { size, .. }, Lang::En) => {
                format!("That point is not on the {size}×{size} board.")
            }
        }
    }
}

impl fmt::Display for Illegal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Illegal::NotAMove(text) => write!(f, "not a point or pass: {text:?}"),
            Illegal::Occupied { .. } => f.write_str("point is occupied"),
            Illegal::Suicide { .. } => f.write_str("forbidden point: suicide"),
            Illegal::Ko { .. } => f.write_str("ko: immediate recapture"),
            Illegal::Superko { .. } => f.write_str("superko: repeats a whole-board position"),
            Illegal::NotYourTurn { to_play } => {
                write!(f, "not your turn: {} to play", to_play.as_str())
            }
            Illegal::OffBoard { point, .. } => {
                write!(f, "point ({}, {}) is off the board", point.col, point.row)
            }
        }
    }
}

impl std::error::Error for Illegal {}

/// A position: the board, the side to play, and what the rules need to remember.
///
/// Positional superko: no move may recreate a board seen before in this game, whoever
/// is to play. The immediate ko recapture is reported as [`Illegal::Ko`], every other
/// repetition as [`Illegal::Superko`].
///
/// ```
/// use qiyuan::rules::go::{Board, Color, Illegal, Move, Position};
/// // Black's A is a forbidden point (甲 of figure 2 in the Chinese rules):
/// //   . O O O .
/// //   . O A O .
/// //   . . O O .
/// let board = Board::from_text(5, "
///     . . . . .
///     . O O O .
///     . O . O .
///     . . O O .
///     . . . . .").unwrap();
/// let pos = Position::new(board, Color::Black);
/// let a = pos.board().point("C3").unwrap();
/// assert_eq!(pos.play_move(Move::Play(a)), Err(Illegal::Suicide { point: a, size: 5 }));
/// // White may fill its own eye.
/// let pos = pos.play_move(Move::Pass).unwrap();
/// assert!(pos.play_move(Move::Play(a)).is_ok());
/// ```
#[derive(Clone)]
pub struct Position {
    board: Board,
    to_play: Color,
    /// The point the side to play may not retake at once, if the last move took a ko.
    ko: Option<Point>,
    /// Hashes of every board seen so far, the current one last.
    history: Arc<Vec<u64>>,
    hash: u64,
    last_move: Option<(Color, Move)>,
    captured: Vec<Point>,
    prisoners: [u32; 2],
    passes: u8,
}

impl Position {
    /// A position with `board` as set up, `to_play` to move, and no history.
    pub fn new(board: Board, to_play: Color) -> Position {
        let hash = hash_board(&board);
        Position {
            board,
            to_play,
            ko: None,
            history: Arc::new(vec![hash]),
            hash,
            last_move: None,
            captured: Vec::new(),
            prisoners: [0, 0],
            passes: 0,
        }
    }

    /// An empty board of `size` with Black to play.
    pub fn empty(size: u8) -> Result<Position, BadBoard> {
        Ok(Position::new(Board::new(size)?, Color::Black))
    }

    /// The stones on the board.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The board size.
    pub fn size(&self) -> u8 {
        self.board.size()
    }

    /// The side to play.
    pub fn turn(&self) -> Color {
        self.to_play
    }

    /// The last move and who played it.
    pub fn last_move(&self) -> Option<(Color, Move)> {
        self.last_move
    }

    /// The stones the last move captured.
    pub fn captured(&self) -> &[Point] {
        &self.captured
    }

    /// How many stones `color` has captured so far.
    pub fn prisoners(&self, color: Color) -> u32 {
        self.prisoners[color.index()]
    }

    /// How many passes were played in a row just now (two end the game).
    pub fn consecutive_passes(&self) -> u8 {
        self.passes
    }

    /// The point where the side to play may not retake a ko at once, if any.
    pub fn ko_point(&self) -> Option<Point> {
        self.ko
    }

    /// The hashes of every whole-board position of this game so far (for superko).
    pub(crate) fn seen_boards(&self) -> &[u64] {
        &self.history
    }

    /// Plays `mv` for the side to play.
    pub fn play_move(&self, mv: Move) -> Result<Position, Illegal> {
        self.play_as(self.to_play, mv)
    }

    /// Plays a written move (`D4`, `d4`, `pass`) for the side to play: the position after it
    /// and the move read.
    ///
    /// ```
    /// use qiyuan::rules::go::{Illegal, Move, Position};
    /// let pos = Position::empty(9).unwrap();
    /// let (after, mv) = pos.play("d4").unwrap();
    /// assert_eq!(mv.name(9), "D4");
    /// assert!(matches!(after.play("D4"), Err(Illegal::Occupied { .. })));
    /// assert!(matches!(pos.play("Z9"), Err(Illegal::NotAMove(_))));
    /// ```
    pub fn play(&self, text: &str) -> Result<(Position, Move), Illegal> {
        let mv = Move::parse(text, self.size())
            .map_err(|_| Illegal::NotAMove(text.trim().to_string()))?;
        Ok((self.play_move(mv)?, mv))
    }

    /// Plays `mv` for `color`, which must be the side to play.
    pub fn play_as(&self, color: Color, mv: Move) -> Result<Position, Illegal> {
        if color != self.to_play {
            return Err(Illegal::NotYourTurn {
                to_play: self.to_play,
            });
        }
        let point = match mv {
            Move::Pass => {
                let mut next = self.clone();
                next.to_play = color.opponent();
                next.ko = None;
                next.last_move = Some((color, Move::Pass));
                next.captured = Vec::new();
                next.passes = self.passes.saturating_add(1);
                return Ok(next);
            }
            Move::Play(p) => p,
        };
        if !self.board.contains(point) {
            return Err(Illegal::OffBoard {
                point,
                size: self.board.size(),
            });
        }
        if let Some(stone) = self.board.get(point) {
            return Err(Illegal::Occupied {
                point,
                size: self.board.size(),
                stone,
            });
        }
        if self.ko == Some(point) {
            return Err(Illegal::Ko {
                point,
                size: self.board.size(),
            });
        }
        let mut board = self.board.clone();
        board.set(point, Some(color));
        let mut hash = self.hash ^ zobrist(board.size(), point, color);
        // 第四条一、二: first remove the opponent's chains left without liberties.
        let mut captured = Vec::new();
        for n in board.neighbours(point).collect::<Vec<_>>() {
            if board.get(n) == Some(color.opponent()) && !board.has_liberty(n) {
                for q in board.chain(n) {
                    board.set(q, None);
                    hash ^= zobrist(board.size(), q, color.opponent());
                    captured.push(q);
                }
            }
        }
        // 第五条: a stone without liberties that captures nothing stands on a forbidden point.
        if captured.is_empty() && !board.has_liberty(point) {
            return Err(Illegal::Suicide {
                point,
                size: board.size(),
            });
        }
        // 第六条: no whole-board position may repeat.
        if self.history.contains(&hash) {
            return Err(Illegal::Superko {
                point,
                size: board.size(),
            });
        }
        // A single stone that captured a single stone and has one liberty starts a ko:
        // the opponent may not take back at once.
        let ko = (captured.len() == 1
            && board.chain(point).len() == 1
            && board.liberties(point).len() == 1)
            .then(|| captured[0]);
        let mut history = Vec::with_capacity(self.history.len() + 1);
        history.extend_from_slice(&self.history);
        history.push(hash);
        let mut prisoners = self.prisoners;
        prisoners[color.index()] += captured.len() as u32;
        captured.sort();
        Ok(Position {
            board,
            to_play: color.opponent(),
            ko,
            history: Arc::new(history),
            hash,
            last_move: Some((color, mv)),
            captured,
            prisoners,
            passes: 0,
        })
    }

    /// Whether `mv` is legal for the side to play.
    pub fn is_legal(&self, mv: Move) -> bool {
        self.play_move(mv).is_ok()
    }

    /// Every legal move for the side to play, the pass last.
    pub fn legal_moves(&self) -> Vec<Move> {
        let mut moves: Vec<Move> = self
            .board
            .points()
            .map(Move::Play)
            .filter(|&m| self.is_legal(m))
            .collect();
        moves.push(Move::Pass);
        moves
    }

    /// Empty points where `color` may not play now, whatever the reason (forbidden point, ko,
    /// superko), as if it were `color`'s turn.
    pub fn forbidden_points(&self, color: Color) -> Vec<Point> {
        let pos = if color == self.to_play {
            self.clone()
        } else {
            let mut p = self.clone();
            p.to_play = color;
            p.ko = None;
            p
        };
        pos.board
            .points()
            .filter(|&p| pos.board.get(p).is_none() && !pos.is_legal(Move::Play(p)))
            .collect()
    }
}

/// Two positions are equal when their boards, side to play, ko point and histories are.
impl PartialEq for Position {
    fn eq(&self, other: &Position) -> bool {
        self.board == other.board
            && self.to_play == other.to_play
            && self.ko == other.ko
            && self.history == other.history
    }
}

impl Eq for Position {}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?}{} to play", self.board, self.to_play.as_str())
    }
}

/// A Zobrist key for a stone of `color` on `p` of a board of `size`.
pub(crate) fn zobrist(size: u8, p: Point, color: Color) -> u64 {
    // splitmix64 of the (size, point, colour) triple: deterministic, no table to build.
    let key = ((size as u64) << 16)
        | ((p.row as u64) * MAX_SIZE as u64 + p.col as u64) << 1
        | color.index() as u64;
    let mut z = key.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

fn hash_board(board: &Board) -> u64 {
    board
        .points()
        .filter_map(|p| board.get(p).map(|c| zobrist(board.size(), p, c)))
        .fold(0, |h, z| h ^ z)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(size: u8, text: &str, to_play: Color) -> Position {
        Position::new(Board::from_text(size, text).unwrap(), to_play)
    }

    fn pt(p: &Position, name: &str) -> Point {
        p.board().point(name).unwrap()
    }

    #[test]
    fn captures_single_stone() {
        let p = pos(
            5,
            ". . . . .\n. . X . .\n. X O . .\n. . X . .\n. . . . .",
            Color::Black,
        );
        let d3 = pt(&p, "D3");
        let next = p.play_move(Move::Play(d3)).unwrap();
        assert_eq!(next.captured(), &[pt(&p, "C3")]);
        assert_eq!(next.board().get(pt(&p, "C3")), None);
        assert_eq!(next.prisoners(Color::Black), 1);
    }

    #[test]
    fn captures_two_stone_chain() {
        let p = pos(
            5,
            ". X X . .\nX O O . .\n. X X . .\n. . . . .\n. . . . .",
            Color::Black,
        );
        let next = p.play_move(Move::Play(pt(&p, "D4"))).unwrap();
        assert_eq!(next.captured().len(), 2);
    }

    #[test]
    fn capture_rescues_stone_without_liberties() {
        // 第四条二: after Black B5 both sides have stones without liberties; White's go.
        let p = pos(
            5,
            "O . O X .\nX O X . .\n. X . . .\n. . . . .\n. . . . .",
            Color::Black,
        );
        let b5 = pt(&p, "B5");
        let next = p.play_move(Move::Play(b5)).unwrap();
        assert_eq!(next.board().get(b5), Some(Color::Black));
        for gone in ["A5", "C5", "B4"] {
            assert_eq!(next.board().get(pt(&p, gone)), None, "{gone}");
        }
        assert_eq!(next.captured().len(), 3);
    }

    #[test]
    fn refuses_occupied_point() {
        let p = pos(
            5,
            ". . . . .\n. . X . .\n. . . . .\n. . . . .\n. . . . .",
            Color::White,
        );
        let c4 = pt(&p, "C4");
        assert_eq!(
            p.play_move(Move::Play(c4)),
            Err(Illegal::Occupied {
                point: c4,
                size: 5,
                stone: Color::Black
            })
        );
    }

    #[test]
    fn refuses_immediate_ko_recapture() {
        // . X O .
        // X O . O
        // . X O .
        let p = pos(
            5,
            ". X O . .\nX O . O .\n. X O . .\n. . . . .\n. . . . .",
            Color::Black,
        );
        let c4 = pt(&p, "C4");
        let taken = p.play_move(Move::Play(c4)).unwrap();
        assert_eq!(taken.captured(), &[pt(&p, "B4")]);
        let b4 = pt(&p, "B4");
        assert_eq!(
            taken.play_move(Move::Play(b4)),
            Err(Illegal::Ko { point: b4, size: 5 })
        );
        // After an exchange elsewhere White may retake.
        let later = taken
            .play_move(Move::Play(pt(&p, "E1")))
            .unwrap()
            .play_move(Move::Play(pt(&p, "D1")))
            .unwrap();
        assert!(later.play_move(Move::Play(b4)).is_ok());
    }

    #[test]
    fn snapback_is_not_ko() {
        // White captures one stone but its own stone is then captured with two: legal.
        let p = pos(
            5,
            ". . . . .\n. X X O .\nX O . X O\n. X X O .\n. . . . .",
            Color::White,
        );
        let next = p.play_move(Move::Play(pt(&p, "C3"))).unwrap();
        assert_eq!(next.captured(), &[pt(&p, "D3")]);
        assert_eq!(next.ko_point(), None);
        let back = next.play_move(Move::Play(pt(&p, "D3"))).unwrap();
        assert_eq!(back.captured().len(), 2);
    }

    #[test]
    fn refuses_play_out_of_turn() {
        let p = Position::empty(9).unwrap();
        assert_eq!(
            p.play_as(Color::White, Move::Play(Point::new(4, 4))),
            Err(Illegal::NotYourTurn {
                to_play: Color::Black
            })
        );
    }

    #[test]
    fn two_passes_are_counted() {
        let p = Position::empty(9).unwrap();
        let p = p
            .play_move(Move::Pass)
            .unwrap()
            .play_move(Move::Pass)
            .unwrap();
        assert_eq!(p.consecutive_passes(), 2);
        assert_eq!(p.turn(), Color::Black);
    }

    #[test]
    fn explains_in_both_languages() {
        let e = Illegal::Suicide {
            point: Point::new(3, 5),
            size: 9,
        };
        assert!(e.explain(Lang::Zh).contains("禁着点"));
        assert!(e.explain(Lang::En).contains("forbidden point"));
        assert!(e.explain(Lang::En).contains("D4"));
    }
}
