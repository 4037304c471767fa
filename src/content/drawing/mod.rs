//! A position of any game drawn on a page from words every game shares: the move that led
//! to it, the markup a record keeps, a link for a click, a picked-up piece. Each game draws
//! itself by [`Drawn`] in its own file; [`DRAWN`] is the registry.

for_each_game!(game_modules);

pub use self::chess::chess_marks;
pub use self::go::go_marks;

use super::board_game::{self, PieceGame, Target, View};
use super::{Action as Click, BoardMarks};
use crate::base::{AnyPosition, Game, GamePosition};
use crate::lang::Lang;
use crate::rules::Rules;

/// What a drawing of a position asks for.
pub struct DrawAsk<'a> {
    /// The record's markup at this point, as its format writes it (SGF `TR[dd]`, `LB[dd:A]`).
    pub markup: &'a [String],
    /// The comment at this point, whose drawing commands a game may read (a chess
    /// comment's `[%csl Gd4]` and `[%cal Ge2e4]`).
    pub comment: &'a str,
    /// Where a click on the board goes, if it may be clicked.
    pub link: Option<&'a dyn Fn(Click) -> String>,
    /// The picked-up piece's square, if any.
    pub selected: Option<&'a str>,
    /// The language of the accessible names.
    pub lang: Lang,
    /// The drawing's title.
    pub title: &'a str,
    /// Where the moves that branch from here land, each with its label (`("D4", "A")`): a
    /// record's branch point marked on its board.
    pub branches: &'a [(String, String)],
}

/// A move between two squares, as a choice: its canonical name and as learners read it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Choice {
    /// The canonical name (`e7e8q`).
    pub mv: String,
    /// As learners read it (`e8=Q`).
    pub label: String,
}

/// A game's position drawn on a page.
pub trait Drawn: GamePosition {
    /// The board as SVG, `last` the move that led here.
    fn draw(&self, last: Option<&Self::Move>, ask: &DrawAsk) -> String;

    /// A comment as learners read it, the game's drawing commands taken out.
    fn comment_text(comment: &str) -> String {
        comment.to_string()
    }

    /// The legal moves from square `from` to `to` (a pawn promoting: one a piece); none
    /// for a game whose moves are not from one square to another.
    fn moves_between(&self, _from: &str, _to: &str) -> Vec<Choice> {
        Vec::new()
    }
}

/// A game's drawing functions over [`AnyPosition`].
struct Entry {
    game: Game,
    draw: fn(&AnyPosition, Option<(&AnyPosition, &str)>, &DrawAsk) -> Option<String>,
    comment_text: fn(&str) -> String,
    moves_between: fn(&AnyPosition, &str, &str) -> Vec<Choice>,
}

const fn entry<P: Drawn>() -> Entry {
    Entry {
        game: P::GAME,
        draw: draw_as::<P>,
        comment_text: P::comment_text,
        moves_between: between_as::<P>,
    }
}

/// Makes [`DRAWN`] from the registry of games: each game's rules `Position`, drawn by its
/// [`Drawn`] in its own file here.
macro_rules! drawn {
    ($($game:ident $module:ident,)*) => {
        /// The games drawn here.
        const DRAWN: &[Entry] = &[$(entry::<crate::rules::$module::Position>(),)*];
    };
}

for_each_game!(drawn);

fn entry_of(game: Game) -> Option<&'static Entry> {
    DRAWN.iter().find(|e| e.game == game)
}

fn draw_as<P: Drawn>(
    pos: &AnyPosition,
    before: Option<(&AnyPosition, &str)>,
    ask: &DrawAsk,
) -> Option<String> {
    let pos = pos.get::<P>()?;
    let last = before.and_then(|(b, mv)| Rules::play(b.get::<P>()?, mv).ok().map(|(_, m)| m));
    Some(pos.draw(last.as_ref(), ask))
}

fn between_as<P: Drawn>(pos: &AnyPosition, from: &str, to: &str) -> Vec<Choice> {
    pos.get::<P>()
        .map(|p| p.moves_between(from, to))
        .unwrap_or_default()
}

/// Draws `pos`; `before` is the position before the last move and that move's name.
pub fn draw(pos: &AnyPosition, before: Option<(&AnyPosition, &str)>, ask: &DrawAsk) -> String {
    entry_of(pos.game())
        .and_then(|e| (e.draw)(pos, before, ask))
        .unwrap_or_default()
}

/// A comment of `game` as learners read it, the game's drawing commands taken out.
pub fn comment_text(game: Game, comment: &str) -> String {
    entry_of(game).map_or_else(|| comment.to_string(), |e| (e.comment_text)(comment))
}

/// The legal moves of `pos` from square `from` to `to`.
pub fn moves_between(pos: &AnyPosition, from: &str, to: &str) -> Vec<Choice> {
    entry_of(pos.game()).map_or_else(Vec::new, |e| (e.moves_between)(pos, from, to))
}

/// Draws a chess, shogi or xiangqi position with the shared board-game code: `last` the move that
/// led here, `marks` the shaded squares and arrows, turned round when `flipped`.
pub fn draw_pieces<G: PieceGame>(
    pos: &G::Pos,
    last: Option<&<G::Pos as Rules>::Move>,
    ask: &DrawAsk,
    flipped: bool,
    mut marks: BoardMarks,
) -> String {
    marks.shapes.labels.extend(
        ask.branches
            .iter()
            .filter_map(|(sq, label)| Some((label.clone(), G::parse_square(sq)?))),
    );
    let selected = ask.selected.map(board_game::target);
    let link = ask.link.map(|href| {
        let selected = selected.clone();
        move |t: Target| href(board_game::action::<G>(pos, selected.as_ref(), t))
    });
    let none = BoardMarks::default();
    board_game::draw_position::<G>(
        pos,
        marks,
        &View {
            flipped,
            zones: false,
            last: last.map(G::squares),
            marks: &none,
            selected: selected.as_ref(),
            link: link.as_ref().map(|l| l as &dyn Fn(Target) -> String),
            heat: None,
            lang: ask.lang,
            title: ask.title,
        },
    )
}

/// The legal moves of a piece game from `from` to `to`.
fn pieces_between<G: PieceGame>(pos: &G::Pos, from: &str, to: &str) -> Vec<Choice> {
    let (Some(a), Some(b)) = (G::parse_square(from), G::parse_square(to)) else {
        return Vec::new();
    };
    pos.legal_moves()
        .iter()
        .filter(|m| G::squares(m) == (Some(a), b))
        .map(|m| Choice {
            mv: pos.move_name(m),
            label: pos.notation(m),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_game_is_drawn_at_its_usual_start() {
        for game in Game::ALL {
            let pos = AnyPosition::from_start(&(game.kind().standard_start)()).unwrap();
            let ask = DrawAsk {
                markup: &[],
                comment: "",
                link: None,
                selected: None,
                lang: Lang::En,
                title: "t",
                branches: &[],
            };
            assert!(draw(&pos, None, &ask).starts_with("<svg"), "{game:?}");
        }
    }
}
