//! Xiangqi content: what xiangqi adds to the board-game puzzle (FEN, ICCS points, moves in
//! any notation the rules read, kills proven by search — 将死 and 困毙 both win — `select`
//! questions about a piece's moves and captures, the picture).

use super::board_game::{self, PieceGame, Target, View};
use super::marks::Sq;
use super::Game;
use crate::base::Text;
use crate::lang::Lang;
use crate::render::xiangqi as draw;
use crate::render::Marks;
use crate::rules::xiangqi::select::Ask;
use crate::rules::xiangqi::{Color, Move, Outcome, Point, Position, LONGEST_MATE};

/// Xiangqi, as the board-game puzzle needs it.
#[derive(Clone, Copy, Debug)]
pub struct Xiangqi;

/// A xiangqi problem, ready to judge attempts.
pub type XiangqiPuzzle = board_game::BoardPuzzle<Xiangqi>;

/// The registry's name for xiangqi's puzzle.
pub type Puzzle = XiangqiPuzzle;

/// Xiangqi's part of the content layer.
pub(crate) const CONTENT: super::puzzle::ContentPlugin = super::board_plugin::<Xiangqi>();

fn sq(p: Point) -> Sq {
    (p.file() as u8, p.rank() as u8)
}

fn point((file, rank): Sq) -> Option<Point> {
    Point::new(file as i8, rank as i8)
}

fn points(squares: &[Sq]) -> Vec<Point> {
    squares.iter().filter_map(|&s| point(s)).collect()
}

/// The move number a position's FEN gives (a move is Red's and Black's turn).
fn move_number(pos: &Position) -> u32 {
    let fen = pos.fen();
    fen.split_whitespace()
        .last()
        .and_then(|n| n.parse().ok())
        .unwrap_or(1)
}

impl PieceGame for Xiangqi {
    type Pos = Position;
    type Ask = Ask;

    const GAME: Game = Game::Xiangqi;
    const SEARCH_VERSION: u32 = 1;

    const POSITION: &'static str = "fen";
    const OTHER_POSITION: &'static str = "sfen";
    const SQUARE_EXAMPLE: &'static str = "e0";
    const MATE_GOAL: &'static str = "mate";
    const SELECT_EXAMPLE: &'static str = "moves:h2";
    const ORIENTATION: [&'static str; 2] = ["red", "black"];
    const HANDS: bool = false;
    const CHOOSE: &'static str = "choose_promotion";

    fn start() -> Position {
        Position::start()
    }

    fn read_position(text: &str) -> Result<Position, String> {
        Position::from_fen(text).map_err(|e| e.to_string())
    }

    fn position_text(pos: &Position) -> String {
        pos.fen()
    }

    fn second_to_move(pos: &Position) -> bool {
        pos.turn() == Color::Black
    }

    fn to_play_key(pos: &Position) -> &'static str {
        match pos.turn() {
            Color::Red => "red_to_play",
            Color::Black => "black_to_play",
        }
    }

    fn parse_square(text: &str) -> Option<Sq> {
        Point::parse(text).map(sq)
    }

    fn square_name(s: Sq) -> String {
        point(s).map(draw::point_name).unwrap_or_default()
    }

    fn piece_on(pos: &Position, s: Sq) -> Option<bool> {
        let (color, _) = pos.piece_at(point(s)?)?;
        Some(color == pos.turn())
    }

    fn squares(mv: &Move) -> (Option<Sq>, Sq) {
        (Some(sq(mv.from)), sq(mv.to))
    }

    fn choice_label(mv: &Move) -> Text {
        Text::from_fn(|_| mv.iccs())
    }

    fn moves_of(pos: &Position, s: Sq) -> Vec<Sq> {
        point(s)
            .and_then(|from| Ask::Moves(from).answer(pos).ok())
            .map(|found| found.into_iter().map(sq).collect())
            .unwrap_or_default()
    }

    fn draw(pos: &Position, view: &View) -> String {
        let pieces = pos.pieces();
        let link = view
            .link
            .map(|link| move |p: Point| link(Target::Square(draw::point_name(p))));
        let selected = match view.selected {
            Some(Target::Square(s)) => Point::parse(s),
            _ => None,
        };
        let shapes = &view.marks.shapes;
        let marks = Marks {
            triangles: points(&shapes.triangles),
            squares: points(&shapes.squares),
            circles: points(&shapes.circles),
            crosses: points(&shapes.crosses),
            labels: shapes
                .labels
                .iter()
                .filter_map(|(label, s)| Some((label.clone(), point(*s)?)))
                .collect(),
        };
        let arrows: Vec<(Point, Point)> = view
            .marks
            .arrows
            .iter()
            .filter_map(|&(a, b)| Some((point(a)?, point(b)?)))
            .collect();
        draw::svg(&draw::XiangqiDiagram {
            pieces: &pieces,
            flipped: view.flipped,
            last_move: view
                .last
                .and_then(|(from, to)| Some((point(from?)?, point(to)?))),
            check: pos.is_check().then(|| pos.king(pos.turn())),
            selected,
            dots: &points(&view.marks.dots),
            highlight: &points(&view.marks.highlight),
            arrows: &arrows,
            marks: &marks,
            link: link.as_ref().map(|l| l as &dyn Fn(Point) -> String),
            heat: view.heat,
            lang: view.lang,
            title: view.title,
        })
    }

    /// The moves of a record's movetext, in any notation the rules read (`1. 炮二平五 马8进7`,
    /// `1. h2e2 h9g7`): move numbers, results and `{…}` comments left out.
    fn record(text: &str) -> Result<Vec<String>, String> {
        let mut moves = Vec::new();
        let mut depth = 0usize;
        for word in text.split_whitespace() {
            if word.starts_with('{') || depth > 0 {
                depth += word.matches('{').count();
                depth = depth.saturating_sub(word.matches('}').count());
                continue;
            }
            if matches!(word, "1-0" | "0-1" | "1/2-1/2" | "*") {
                continue;
            }
            let word = word.trim_start_matches(|c: char| c.is_ascii_digit() || c == '.');
            if word.is_empty() {
                continue;
            }
            moves.push(word.to_string());
        }
        if moves.is_empty() {
            return Err("the record has no moves".into());
        }
        Ok(moves)
    }

    fn record_say(before: &Position, mv: &Move) -> String {
        let number = match before.turn() {
            Color::Red => format!("{}.", move_number(before)),
            Color::Black => format!("{}…", move_number(before)),
        };
        format!("{number} {}", before.chinese(mv))
    }

    fn mate_length(n: u32) -> Result<(), String> {
        if (1..=LONGEST_MATE).contains(&n) {
            Ok(())
        } else {
            Err(format!("mate_in should be 1 to {LONGEST_MATE}"))
        }
    }

    fn mate_what(n: u32) -> String {
        format!("a win (将死 or 困毙) in {n}")
    }

    fn no_mate(n: u32) -> String {
        format!(
            "the side to move has no forced win (将死 or 困毙) in {n} here: check the FEN and mate_in"
        )
    }

    fn mating_moves(pos: &Position, n: u32) -> Vec<String> {
        pos.mating_moves(n)
            .map(|moves| moves.iter().map(Move::iccs).collect())
            .unwrap_or_default()
    }

    fn forces(pos: &Position, mv: &str, left: u32) -> bool {
        pos.forces_mate(mv, left).unwrap_or(false)
    }

    fn best_defence(pos: &Position, left: u32) -> Option<String> {
        pos.best_defence(left).ok().flatten().map(|m| m.iccs())
    }

    fn in_check(pos: &Position) -> bool {
        pos.is_check()
    }

    /// The side to move has lost: no legal move, in check (将死) or not (困毙).
    fn is_mated(pos: &Position) -> bool {
        matches!(
            pos.outcome(),
            Some(Outcome::Checkmate { .. } | Outcome::Stalemate { .. })
        )
    }

    fn not_forcing(pos: &Position, mv: &Move, left: u32) -> Text {
        let name = pos.chinese(mv);
        match pos.why_not_mate(&mv.iccs(), left) {
            Ok(Some(why)) => Text::from_fn(|lang| why.explain(lang)),
            _ => Text {
                zh: format!("{name} 不能在 {left} 步内杀棋。"),
                en: format!("{name} does not force a win in {left}."),
            },
        }
    }

    fn ask(text: &str, pos: &Position) -> Result<(Ask, Vec<String>), String> {
        let ask = Ask::parse(text).map_err(|e| e.explain(Lang::En))?;
        let answer = ask.answer_names(pos).map_err(|e| e.explain(Lang::En))?;
        Ok((ask, answer))
    }

    fn asks_nobody(ask: &Ask) -> bool {
        matches!(ask, Ask::Moves(_) | Ask::Captures(_))
    }

    fn miss(ask: &Ask, square: &str) -> Text {
        match ask {
            Ask::Moves(_) => Text {
                zh: format!("这个棋子不能走到 {square}。"),
                en: format!("The piece cannot move to {square}."),
            },
            Ask::Captures(_) => Text {
                zh: format!("这个棋子现在不能在 {square} 吃子。"),
                en: format!("The piece cannot capture on {square} now."),
            },
            Ask::Checks => Text {
                zh: format!("走到 {square} 的着法都不能将军。"),
                en: format!("No move to {square} gives check."),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_read_in_chinese_notation_and_numbers_follow_the_fen() {
        let moves = Xiangqi::record("1. 炮二平五 {中炮} 马8进7 2. h0g2 1-0").unwrap();
        assert_eq!(moves, ["炮二平五", "马8进7", "h0g2"]);
        let pos = Position::start();
        let (next, mv) = pos.play("h2e2").unwrap();
        assert_eq!(Xiangqi::record_say(&pos, &mv), "1. 炮二平五");
        let (_, reply) = next.play("h9g7").unwrap();
        assert_eq!(Xiangqi::record_say(&next, &reply), "1… 马8进7");
    }

    #[test]
    fn points_are_named_as_iccs_writes_them() {
        assert_eq!(Xiangqi::parse_square("e0"), Some((4, 0)));
        assert_eq!(Xiangqi::parse_square("j0"), None);
        assert_eq!(Xiangqi::square_name((4, 9)), "e9");
    }
}
