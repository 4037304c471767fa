//! What each game is, as data the other layers ask instead of naming the game: its
//! names, its sides, what a table offers (pass, draw offers, 入玉宣言, counting), its clock,
//! its record formats and the engines that play it.
//!
//! Each game fills one [`GameKind`] in its own file (`base/go.rs`, `base/chess.rs`,
//! `base/shogi.rs`); [`Game::kind`](super::Game::kind) is the registry.

use super::position::{AnyPosition, BadStart};
use super::{Side, Start};
use crate::lang::Lang;

/// The protocol a game's engines speak.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Protocol {
    /// Go Text Protocol (GNU Go, Pachi).
    Gtp,
    /// Universal Chess Interface (Stockfish; Fairy-Stockfish with `UCI_Variant`).
    Uci,
    /// Universal Shogi Interface (Fairy-Stockfish, which speaks it by default).
    Usi,
}

impl Protocol {
    /// Its name, upper case: `GTP`, `UCI`, `USI`.
    pub fn name(self) -> String {
        format!("{self:?}").to_ascii_uppercase()
    }
}

/// How a game's clock adds time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ClockStyle {
    /// Main time, then byo-yomi periods (Go, shogi).
    Byoyomi,
    /// Main time, and an increment after each move (chess).
    Increment,
}

/// What the form that opens a game was sent: a field by its name, when given and not blank.
pub type Fields<'a> = &'a dyn Fn(&str) -> Option<&'a str>;

/// Why a game's start could not be made from a form.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StartFieldError {
    /// A field that should be a number is not one in range: the field and what was sent.
    Number(&'static str, String),
    /// Go's counting rules are not `chinese` or `japanese`.
    Rules(String),
    /// Not one of the game's handicaps.
    Handicap(String),
}

/// A field of the new-game form that sets where a game starts (a board size, a handicap,
/// a FEN), as the form shows it; [`GameKind::start_from_fields`] reads what it sends.
#[derive(Debug)]
pub struct StartField {
    /// The field's name in the form.
    pub name: &'static str,
    /// Its label: `[zh, en]`.
    pub label: [&'static str; 2],
    /// Its choices in a language, each a value and its label, the first chosen; none for a
    /// text field.
    pub choices: fn(Lang) -> Vec<(String, String)>,
}

impl StartField {
    /// The label in `lang`.
    pub fn label(&self, lang: Lang) -> &'static str {
        self.label[lang_index(lang)]
    }
}

/// The start field of a game whose positions are written as FEN (chess, xiangqi): a text
/// field, the usual start when left empty.
pub const FEN_FIELD: StartField = StartField {
    name: "fen",
    label: [
        "从某个局面开始：FEN（可不填）",
        "Start from a position: FEN (optional)",
    ],
    choices: typed,
};

/// No choices: a text field.
pub fn typed(_: Lang) -> Vec<(String, String)> {
    Vec::new()
}

/// The first choice of a handicap field: an even game.
pub fn even_game(lang: Lang) -> (String, String) {
    let text = ["分先（不让子）", "None (an even game)"][lang_index(lang)];
    (String::new(), text.to_string())
}

/// A game, as the layers above the rules see it.
///
/// ```
/// use qiyuan::base::{Game, Side};
/// use qiyuan::lang::Lang;
/// let shogi = Game::from_slug("shogi").unwrap().kind();
/// assert_eq!(shogi.side_name(Side::First, Lang::En), "Sente");
/// assert!(shogi.declares && !shogi.passes);
/// ```
#[derive(Debug)]
pub struct GameKind {
    /// The name in addresses and folders: `go`.
    pub slug: &'static str,
    /// The game's name: `[zh, en]`.
    pub names: [&'static str; 2],
    /// The sides' names, `[first, second]`, each `[zh, en]`: 黑方/白方, White/Black, 先手/后手.
    pub sides: [[&'static str; 2]; 2],
    /// The marks shown after the sides' names (shogi's ☗ ☖), or empty.
    pub side_marks: [&'static str; 2],
    /// The colour words a form may use for `[first, second]`: Go's `black`/`white`,
    /// chess's `white`/`black`.
    pub colour_words: [&'static str; 2],
    /// Moves as a learner may type them, for the examples beside a move box.
    pub move_examples: &'static str,
    /// A player may pass.
    pub passes: bool,
    /// Players may offer and accept draws.
    pub draw_offers: bool,
    /// A player may declare a win (shogi's 入玉宣言).
    pub declares: bool,
    /// Being in check is shown and told.
    pub shows_check: bool,
    /// The board turns round for the second side.
    pub flips_for_second: bool,
    /// The table can mark stones in atari for a learner (Go's hints).
    pub atari_hints: bool,
    /// How the clock adds time.
    pub clock: ClockStyle,
    /// Moves are numbered by pairs, the first side's and its answer (`3. e4`, `3… e5`);
    /// otherwise each ply has its number (`12 D4`).
    pub numbers_in_pairs: bool,
    /// Stones stay where they are played, so a record prints as figures with each move's
    /// number on its point (Go's 棋谱).
    pub numbered_figures: bool,
    /// The key a problem set writes a position under (`fen`, `sfen`; Go's sets draw the
    /// board instead).
    /// The word that opens a lesson's diagram block of the game: ```` ```goban ````.
    pub lesson_fence: &'static str,
    pub position_key: &'static str,
    /// Problem sets keep the source's tags (`tags = [...]`), not only as a comment.
    pub tagged_sets: bool,
    /// The protocol its engines speak.
    pub protocol: Protocol,
    /// The engine programs looked for, in order.
    /// The `Skill Level` an engine is asked for at each of our five levels (the engine's
    /// announced range bounds it).
    pub engine_skills: [i32; 5],
    pub programs: &'static [&'static str],
    /// The position where a start of the game begins.
    pub position: fn(&Start) -> Result<AnyPosition, BadStart>,
    /// The point or square a move (a canonical name) lands on, for a heat map of answers;
    /// none for a pass or a count.
    pub lands_on: fn(&str) -> Option<String>,
    /// The new-game form's fields for the start, in order.
    pub start_fields: &'static [StartField],
    /// The game's usual start (an even game on the usual board).
    pub standard_start: fn() -> Start,
    /// The start a form asks for (size, handicap, rules, komi, FEN, SFEN … as the game has
    /// them); missing fields take the usual values.
    pub start_from_fields: fn(Fields) -> Result<Start, StartFieldError>,
}

impl GameKind {
    /// The game's name in `lang`.
    pub fn name(&self, lang: Lang) -> &'static str {
        self.names[lang_index(lang)]
    }

    /// A side's name in `lang`: 黑方, White, 先手.
    pub fn side_name(&self, side: Side, lang: Lang) -> &'static str {
        self.sides[side.index()][lang_index(lang)]
    }

    /// A side's name with its mark, if the game has one: 先手 ☗, Black.
    pub fn side_label(&self, side: Side, lang: Lang) -> String {
        let name = self.side_name(side, lang);
        match self.side_marks[side.index()] {
            "" => name.to_string(),
            mark => format!("{name} {mark}"),
        }
    }

    /// The side a form's colour word names (`black`, `white`), if the game uses it.
    pub fn side_of_colour(&self, word: &str) -> Option<Side> {
        [Side::First, Side::Second]
            .into_iter()
            .find(|s| self.colour_words[s.index()] == word)
    }
}

/// Where a move of a game of pieces on squares lands: a square picked (`e4`) is itself, a
/// move (`e2e4`, `e7e8q`, `P*5e`, `7g7f+`) its third and fourth characters.
pub fn square_landing(played: &str) -> Option<String> {
    if !played.is_ascii() {
        return None;
    }
    match played.len() {
        2 => Some(played.to_string()),
        4.. => Some(played[2..4].to_string()),
        _ => None,
    }
}

fn lang_index(lang: Lang) -> usize {
    match lang {
        Lang::Zh => 0,
        Lang::En => 1,
    }
}

/// A form's number field: missing is `None`, anything that is not a number an error.
pub fn number_field<T: std::str::FromStr>(
    fields: Fields,
    name: &'static str,
) -> Result<Option<T>, StartFieldError> {
    match fields(name) {
        None => Ok(None),
        Some(v) => v
            .trim()
            .parse()
            .map(Some)
            .map_err(|_| StartFieldError::Number(name, v.to_string())),
    }
}
