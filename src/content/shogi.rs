//! Shogi content: what shogi adds to the board-game puzzle (SFEN, USI, drops and hands,
//! promote-or-not choices, tsume proven by search, the picture).

use super::board_game::{self, PieceGame, Target, View};
use super::marks::Sq;
use super::Game;
use crate::base::Text;
use crate::render::shogi as draw;
use crate::rules::shogi::select::Ask;
use crate::rules::shogi::{kanji_square, Color, Kind, Played, Position, Square};

/// Shogi, as the board-game puzzle needs it.
#[derive(Clone, Copy, Debug)]
pub struct Shogi;

/// A shogi problem, ready to judge attempts.
pub type ShogiPuzzle = board_game::BoardPuzzle<Shogi>;

/// The registry's name for shogi's puzzle.
pub type Puzzle = ShogiPuzzle;

/// Shogi's part of the content layer.
pub(crate) const CONTENT: super::puzzle::ContentPlugin = super::board_plugin::<Shogi>();

/// What a shogi problem asks (`Mate(n)`: tsume in `n` plies, every attacking move a check).
pub type ShogiGoal = board_game::Goal<Ask>;

/// Tsume longer than this are refused: they would make loading slow.
const MAX_TSUME: u32 = 11;

fn sq(s: Square) -> Sq {
    (s.file, s.rank)
}

fn square(s: Sq) -> Option<Square> {
    Square::parse(&draw::square_name(s))
}

impl PieceGame for Shogi {
    type Pos = Position;
    type Ask = Ask;

    const GAME: Game = Game::Shogi;
    const SEARCH_VERSION: u32 = 1;

    const POSITION: &'static str = "sfen";
    const OTHER_POSITION: &'static str = "fen";
    const SQUARE_EXAMPLE: &'static str = "5e";
    const MATE_GOAL: &'static str = "tsume";
    const SELECT_EXAMPLE: &'static str = "drops:P";
    const ORIENTATION: [&'static str; 2] = ["black", "white"];
    const HANDS: bool = true;
    const CHOOSE: &'static str = "choose_promotion_shogi";

    fn start() -> Position {
        Position::start()
    }

    fn read_position(text: &str) -> Result<Position, String> {
        Position::from_sfen(text).map_err(|e| e.to_string())
    }

    fn position_text(pos: &Position) -> String {
        pos.sfen()
    }

    fn second_to_move(pos: &Position) -> bool {
        pos.turn() == Color::White
    }

    fn to_play_key(pos: &Position) -> &'static str {
        match pos.turn() {
            Color::Black => "sente_to_play",
            Color::White => "gote_to_play",
        }
    }

    fn parse_square(text: &str) -> Option<Sq> {
        Square::parse(text).map(sq)
    }

    fn square_name(s: Sq) -> String {
        draw::square_name(s)
    }

    fn piece_on(pos: &Position, s: Sq) -> Option<bool> {
        let (color, _) = pos.piece_at(square(s)?)?;
        Some(color == pos.turn())
    }

    fn squares(mv: &Played) -> (Option<Sq>, Sq) {
        (mv.from.map(sq), sq(mv.to))
    }

    fn dropped(mv: &Played) -> Option<String> {
        mv.drop.map(|k| format!("{}*", k.sfen_letter()))
    }

    fn choice_label(mv: &Played) -> Text {
        if mv.promote {
            Text {
                zh: "升变（成）".into(),
                en: "Promote".into(),
            }
        } else {
            Text {
                zh: "不升变（不成）".into(),
                en: "Don't promote".into(),
            }
        }
    }

    fn promotes(mv: &Played) -> bool {
        mv.promote
    }

    fn moves_of(pos: &Position, s: Sq) -> Vec<Sq> {
        square(s)
            .and_then(|from| Ask::Moves(from).answer(pos).ok())
            .map(|squares| squares.into_iter().map(sq).collect())
            .unwrap_or_default()
    }

    fn drops_of(pos: &Position, kind: &str) -> Result<Vec<Sq>, String> {
        let k = Kind::from_sfen(kind)
            .filter(|k| !k.is_promoted() && *k != Kind::King)
            .ok_or_else(|| format!("drops_of `{kind}` should be a piece letter: P L N S G B R"))?;
        let mut out: Vec<Sq> = pos
            .legal_moves()
            .into_iter()
            .filter(|m| m.drop == Some(k))
            .map(|m| sq(m.to))
            .collect();
        out.sort();
        out.dedup();
        Ok(out)
    }

    fn draw(pos: &Position, view: &View) -> String {
        let pieces: Vec<(Sq, draw::Piece)> = pos
            .pieces()
            .into_iter()
            .map(|(s, color, kind)| {
                (
                    sq(s),
                    draw::Piece {
                        black: color == Color::Black,
                        letter: kind.sfen_letter(),
                        promoted: kind.is_promoted(),
                    },
                )
            })
            .collect();
        let mut hands = [[0u8; 7]; 2];
        for (i, color) in [Color::Black, Color::White].into_iter().enumerate() {
            for (kind, count) in pos.hand(color) {
                if let Some(j) = draw::HAND_ORDER
                    .iter()
                    .position(|&c| c == kind.sfen_letter())
                {
                    hands[i][j] = count;
                }
            }
        }
        let turn = pos.turn();
        let link = view.link.map(|link| {
            move |t: draw::Target| match t {
                draw::Target::Square(s) => link(Target::Square(draw::square_name(s))),
                // Only the side to move may pick a piece from its hand.
                draw::Target::Hand { black, letter } if black == (turn == Color::Black) => {
                    link(Target::Hand(format!("{letter}*")))
                }
                draw::Target::Hand { .. } => link(Target::Nothing),
            }
        });
        let selected = view.selected.and_then(|t| match t {
            Target::Square(s) => Square::parse(s).map(|s| draw::Target::Square(sq(s))),
            Target::Hand(piece) => piece.chars().next().map(|letter| draw::Target::Hand {
                black: turn == Color::Black,
                letter,
            }),
            Target::Nothing => None,
        });
        draw::svg(&draw::ShogiDiagram {
            pieces: &pieces,
            hands,
            flipped: view.flipped,
            zones: view.zones,
            last_move: view.last,
            check: if pos.is_check() {
                pos.king_square(turn).map(sq)
            } else {
                None
            },
            selected,
            dots: &view.marks.dots,
            highlight: &view.marks.highlight,
            arrows: &view.marks.arrows,
            marks: &view.marks.shapes,
            link: link.as_ref().map(|l| l as &dyn Fn(draw::Target) -> String),
            heat: view.heat,
            lang: view.lang,
            title: view.title,
        })
    }

    fn record(_: &str) -> Result<Vec<String>, String> {
        Err("`pgn` is only used on chess boards".into())
    }

    fn record_say(_: &Position, mv: &Played) -> String {
        mv.usi.clone()
    }

    fn mate_length(n: u32) -> Result<(), String> {
        if n % 2 == 1 && (1..=MAX_TSUME).contains(&n) {
            Ok(())
        } else {
            Err(format!("mate_in counts plies of a tsume (the attacker moves first and last): use an odd number, 1 to {MAX_TSUME}"))
        }
    }

    fn mate_what(n: u32) -> String {
        format!("mate in {n} plies with checks")
    }

    fn no_mate(n: u32) -> String {
        format!("the side to move has no tsume in {n} plies here: check the SFEN and mate_in")
    }

    fn left(n: u32, played: usize) -> Option<u32> {
        n.checked_sub(played as u32)
    }

    fn mating_moves(pos: &Position, n: u32) -> Vec<String> {
        pos.tsume_first_moves(n)
            .into_iter()
            .map(|m| m.usi)
            .collect()
    }

    fn forces(pos: &Position, mv: &str, left: u32) -> bool {
        pos.forces_tsume(mv, left)
    }

    fn best_defence(pos: &Position, left: u32) -> Option<String> {
        pos.best_defence(left).map(|m| m.usi)
    }

    /// Mate by tsume rules: in check, and only futile interpositions (無駄合) would be left.
    fn in_check(pos: &Position) -> bool {
        pos.is_check()
    }

    fn is_mated(pos: &Position) -> bool {
        pos.is_check() && pos.is_tsume_mate()
    }

    fn not_forcing(pos: &Position, mv: &Played, left: u32) -> Text {
        let name = crate::rules::shogi::japanese(mv, pos.turn());
        if mv.check {
            Text {
                zh: format!("{name} 虽然是王手，但不能在 {left} 手内把对方将死。"),
                en: format!(
                    "{name} gives check but does not force mate within {left} {}.",
                    if left == 1 { "ply" } else { "plies" }
                ),
            }
        } else {
            Text {
                zh: format!("{name} 不是王手。诘将棋里攻方每一步都必须将军（王手）。"),
                en: format!(
                    "{name} is not a check. In tsume every attacking move must give check."
                ),
            }
        }
    }

    fn ask(text: &str, pos: &Position) -> Result<(Ask, Vec<String>), String> {
        let ask = Ask::parse(text).map_err(|e| e.to_string())?;
        let answer = ask.answer(pos).map_err(|e| e.to_string())?;
        Ok((ask, answer.into_iter().map(|s| s.usi()).collect()))
    }

    fn asks_nobody(ask: &Ask) -> bool {
        matches!(ask, Ask::Moves(_) | Ask::Attacks(_))
    }

    fn miss(ask: &Ask, usi: &str) -> Text {
        let zh = Square::parse(usi).map_or_else(|| usi.to_string(), kanji_square);
        match ask {
            Ask::Moves(_) => Text {
                zh: format!("这个棋子不能走到 {zh}。"),
                en: format!("The piece cannot move to {usi}."),
            },
            Ask::Attacks(_) => Text {
                zh: format!("这个棋子没有攻击 {zh}。"),
                en: format!("The piece does not attack {usi}."),
            },
            Ask::Drops(_) => Text {
                zh: format!("不能把这个棋子打在 {zh}。"),
                en: format!("That piece may not be dropped on {usi}."),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_squares_the_chinese_way_when_a_pick_misses() {
        assert!(Shogi::miss(&Ask::Moves(Square::parse("5e").unwrap()), "4g")
            .zh
            .contains("4七"));
    }

    #[test]
    fn counts_tsume_in_plies() {
        assert_eq!(Shogi::left(3, 2), Some(1));
        assert!(Shogi::mate_length(4).is_err());
        assert!(Shogi::mate_length(11).is_ok());
    }
}
