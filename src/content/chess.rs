//! Chess content: what chess adds to the board-game puzzle (FEN, SAN, PGN diagrams, promotion
//! choices, mate in `n` proven by search, the picture).

use super::board_game::{self, PieceGame, Target, View};
use super::marks::Sq;
use super::Game;
use crate::base::Text;
use crate::lang::Lang;
use crate::render::chess as draw;
use crate::rules::chess::select::Ask;
use crate::rules::chess::{self as rules, Color, Outcome, Played, Position, Role, Square};
use std::ops::ControlFlow;

/// Chess, as the board-game puzzle needs it.
#[derive(Clone, Copy, Debug)]
pub struct Chess;

/// A chess problem, ready to judge attempts.
pub type ChessPuzzle = board_game::BoardPuzzle<Chess>;

/// The registry's name for chess's puzzle.
pub type Puzzle = ChessPuzzle;

/// Chess's part of the content layer.
pub(crate) const CONTENT: super::puzzle::ContentPlugin = super::board_plugin::<Chess>();

/// What a chess problem asks.
pub type ChessGoal = board_game::Goal<Ask>;

/// Mate searches deeper than this are refused: they would make loading slow.
const MAX_MATE: u32 = 4;

fn sq(s: Square) -> Sq {
    (u32::from(s.file()) as u8, u32::from(s.rank()) as u8)
}

fn square(s: Sq) -> Option<Square> {
    rules::parse_square(&draw::square_name(s))
}

impl PieceGame for Chess {
    type Pos = Position;
    type Ask = Ask;

    const GAME: Game = Game::Chess;
    const SEARCH_VERSION: u32 = 1;

    const POSITION: &'static str = "fen";
    const OTHER_POSITION: &'static str = "sfen";
    const SQUARE_EXAMPLE: &'static str = "e4";
    const MATE_GOAL: &'static str = "mate";
    const SELECT_EXAMPLE: &'static str = "moves:e1";
    const ORIENTATION: [&'static str; 2] = ["white", "black"];
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
            Color::White => "white_to_play",
            Color::Black => "black_to_play",
        }
    }

    fn parse_square(text: &str) -> Option<Sq> {
        rules::parse_square(text).map(sq)
    }

    fn square_name(s: Sq) -> String {
        draw::square_name(s)
    }

    fn piece_on(pos: &Position, s: Sq) -> Option<bool> {
        let (color, _) = pos.piece_at(square(s)?)?;
        Some(color == pos.turn())
    }

    fn squares(mv: &Played) -> (Option<Sq>, Sq) {
        (Some(sq(mv.from)), sq(mv.to))
    }

    fn choice_label(mv: &Played) -> Text {
        let role = mv.promotion.unwrap_or(Role::Pawn);
        Text::from_fn(|lang| rules::role_name(role, lang).to_string())
    }

    fn choice_picture(before: &Position, mv: &Played, lang: Lang) -> Option<String> {
        let role = mv.promotion?;
        let letter = match role {
            Role::Queen => 'Q',
            Role::Rook => 'R',
            Role::Bishop => 'B',
            Role::Knight => 'N',
            _ => return None,
        };
        let letter = match before.turn() {
            Color::White => letter,
            Color::Black => letter.to_ascii_lowercase(),
        };
        Some(draw::piece_svg(letter, rules::role_name(role, lang)))
    }

    fn promotes(mv: &Played) -> bool {
        mv.promotion.is_some()
    }

    fn moves_of(pos: &Position, s: Sq) -> Vec<Sq> {
        square(s)
            .and_then(|from| Ask::Moves(from).answer(pos).ok())
            .map(|squares| squares.into_iter().map(sq).collect())
            .unwrap_or_default()
    }

    fn draw(pos: &Position, view: &View) -> String {
        let pieces: Vec<(Sq, char)> = pos
            .pieces()
            .into_iter()
            .map(|(s, color, role)| {
                let c = role.char();
                let c = if color == Color::White {
                    c.to_ascii_uppercase()
                } else {
                    c
                };
                (sq(s), c)
            })
            .collect();
        let link = view
            .link
            .map(|link| move |s: Sq| link(Target::Square(draw::square_name(s))));
        let selected = match view.selected {
            Some(Target::Square(s)) => rules::parse_square(s).map(sq),
            _ => None,
        };
        draw::svg(&draw::ChessDiagram {
            pieces: &pieces,
            flipped: view.flipped,
            last_move: view.last.and_then(|(from, to)| Some((from?, to))),
            check: pos.king_in_check().map(sq),
            selected,
            dots: &view.marks.dots,
            highlight: &view.marks.highlight,
            arrows: &view.marks.arrows,
            marks: &view.marks.shapes,
            link: link.as_ref().map(|l| l as &dyn Fn(Sq) -> String),
            heat: view.heat,
            lang: view.lang,
            title: view.title,
        })
    }

    fn record(text: &str) -> Result<Vec<String>, String> {
        pgn_moves(text)
    }

    fn record_say(before: &Position, mv: &Played) -> String {
        let number = match before.turn() {
            Color::White => format!("{}.", before.fullmove_number()),
            Color::Black => format!("{}…", before.fullmove_number()),
        };
        format!("{number} {}", mv.san)
    }

    fn mate_length(n: u32) -> Result<(), String> {
        if (1..=MAX_MATE).contains(&n) {
            Ok(())
        } else {
            Err(format!("mate_in should be 1 to {MAX_MATE}"))
        }
    }

    fn mate_what(n: u32) -> String {
        format!("mate in {n}")
    }

    fn no_mate(n: u32) -> String {
        format!("the side to move has no mate in {n} here: check the FEN and mate_in")
    }

    fn mating_moves(pos: &Position, n: u32) -> Vec<String> {
        pos.mating_moves(n).into_iter().map(|m| m.uci).collect()
    }

    fn forces(pos: &Position, mv: &str, left: u32) -> bool {
        pos.forces_mate(mv, left)
    }

    fn best_defence(pos: &Position, left: u32) -> Option<String> {
        pos.best_defence(left).map(|m| m.uci)
    }

    fn in_check(pos: &Position) -> bool {
        pos.is_check()
    }

    fn is_mated(pos: &Position) -> bool {
        matches!(pos.outcome(), Some(Outcome::Checkmate { .. }))
    }

    fn not_forcing(_: &Position, mv: &Played, left: u32) -> Text {
        Text {
            zh: format!("{} 不能在 {left} 步内将死对方。", mv.san),
            en: format!("{} does not force mate in {left}.", mv.san),
        }
    }

    fn ask(text: &str, pos: &Position) -> Result<(Ask, Vec<String>), String> {
        let ask = Ask::parse(text).map_err(|e| e.to_string())?;
        let answer = ask.answer(pos).map_err(|e| e.to_string())?;
        Ok((ask, answer.into_iter().map(rules::square_name).collect()))
    }

    fn asks_nobody(ask: &Ask) -> bool {
        matches!(ask, Ask::Moves(_) | Ask::Attacks(_))
    }

    fn miss(ask: &Ask, square: &str) -> Text {
        match ask {
            Ask::Moves(_) => Text {
                zh: format!("这个棋子不能走到 {square}。"),
                en: format!("The piece cannot move to {square}."),
            },
            Ask::Attacks(_) => Text {
                zh: format!("这个棋子没有攻击 {square}。"),
                en: format!("The piece does not attack {square}."),
            },
            Ask::Checks => Text {
                zh: format!("走到 {square} 的着法都不能将军。"),
                en: format!("No move to {square} gives check."),
            },
        }
    }
}

/// The moves of a PGN text's main line, in SAN.
fn pgn_moves(text: &str) -> Result<Vec<String>, String> {
    struct MainLine;
    impl pgn_reader::Visitor for MainLine {
        type Tags = ();
        type Movetext = Vec<String>;
        type Output = Vec<String>;
        fn begin_tags(&mut self) -> ControlFlow<Self::Output, Self::Tags> {
            ControlFlow::Continue(())
        }
        fn begin_movetext(&mut self, _: ()) -> ControlFlow<Self::Output, Self::Movetext> {
            ControlFlow::Continue(Vec::new())
        }
        fn san(
            &mut self,
            moves: &mut Self::Movetext,
            san: pgn_reader::SanPlus,
        ) -> ControlFlow<Self::Output> {
            moves.push(san.to_string());
            ControlFlow::Continue(())
        }
        fn end_game(&mut self, moves: Self::Movetext) -> Self::Output {
            moves
        }
    }
    let mut reader = pgn_reader::Reader::new(std::io::Cursor::new(text.as_bytes()));
    match reader.read_game(&mut MainLine) {
        Ok(Some(moves)) if !moves.is_empty() => Ok(moves),
        Ok(_) => Err("the PGN has no moves".into()),
        Err(e) => Err(format!("the PGN cannot be read: {e}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn promotion_choices_name_the_pieces() {
        let played = Position::from_fen("8/P6k/8/8/8/8/8/K7 w - - 0 1")
            .unwrap()
            .play("a8=N")
            .unwrap()
            .1;
        assert_eq!(Chess::choice_label(&played).zh, "马");
        assert_eq!(Chess::choice_label(&played).en, "knight");
    }

    #[test]
    fn counts_mate_moves_not_plies() {
        assert_eq!(Chess::left(3, 0), Some(3));
        assert_eq!(Chess::left(3, 2), Some(2));
        assert_eq!(Chess::left(1, 4), None);
    }
}
