//! Game records of all four games: one model (where the game starts, who played it, how it
//! ended, and a tree of moves with comments), read from and written to SGF, PGN and
//! KIF/KI2/CSA, and xiangqi's PGN as Chinese tools write it.
//!
//! A [`Record`] holds its moves by their canonical names (Go `D4`/`pass`, chess UCI `e2e4`,
//! shogi USI `7g7f`/`P*5e`), whatever notation the file used; every reader plays every move
//! of every variation through our rules engine, and refuses a record with an illegal move,
//! saying where it stands (`path:line`, or the game and ply where the format has no lines)
//! and why the rules refuse it.
//!
//! A line is a list of [`Step`]s; a step's `variations` are the other moves that were
//! considered in its place (PGN's `( … )`, SGF's sibling nodes, KIF's `変化：N手`).
//!
//! ```
//! use qiyuan::play::{Finish, Reason, Side, Start};
//! use qiyuan::record::{self, Format, Record};
//! let start = Start::Chess(qiyuan::base::chess::Start { fen: qiyuan::rules::chess::Position::start().fen() });
//! let moves: Vec<String> = ["f2f3", "e7e5", "g2g4", "d8h4"].map(String::from).into();
//! let finish = Finish { winner: Some(Side::Second), reason: Reason::Checkmate };
//! let game = Record::from_game(start, &moves, ["Fool", "Scholar"], Some("2026.12.01"), Some(finish)).unwrap();
//! let pgn = record::write(&game, record::pgn::PGN).unwrap();
//! assert!(pgn.contains("1. f3 e5 2. g4 Qh4# 0-1"));
//! let back = record::read("fool.pgn", pgn.as_bytes()).unwrap();
//! assert_eq!(back[0].main_line(), moves);
//! assert_eq!(back[0].tags.result, Some(finish));
//! ```

mod format;
for_each_game!(game_modules);
pub mod kif;
pub mod library;
pub mod path;
pub mod pgn;
pub mod sgf;

use crate::base::{AnyPosition, BadStart, Game};
use crate::base::{Finish, Side, Start};
use crate::lang::Lang;
pub use format::{Format, FormatKind};
use std::fmt;

/// How deep variations may nest inside each other (a record nesting deeper is refused, so
/// that no input can exhaust the stack).
pub const MAX_NESTING: usize = 64;

// Limits on records read from files (game records here, problem files in `import` alike).

/// The most moves one line of a record may hold, counted from the start to the line's end
/// (in SGF, the nodes from the root to the deepest leaf, moves or not). Real games have a
/// few hundred moves, a few thousand at most with their variations; a record with a longer
/// line is refused before it is parsed, so that no upload can take the server's time,
/// memory or stack.
pub const MAX_PLIES: usize = 10_000;

/// The most moves the lines of one record may hold together, each line counted from the
/// start (KIF and KI2 write a variation as a block after the moves it follows, and the
/// readers copy those moves into each line).
pub const MAX_MOVES: usize = 20 * MAX_PLIES;

/// The stack of the thread that reads and drops an SGF tree (sgf-parse nests every node in
/// the one before it, and its drop recurses once a node): [`MAX_PLIES`] nodes deep needs a
/// small part of it.
pub(crate) const READER_STACK: usize = 64 << 20;

/// Runs `work` on a thread of its own with a [`READER_STACK`] stack (reserved, not used,
/// until a deep tree needs it), and returns its result; a panic in `work` is passed on.
pub(crate) fn on_reader_stack<T: Send>(work: impl FnOnce() -> T + Send) -> T {
    std::thread::scope(|scope| {
        std::thread::Builder::new()
            .name("record-reader".into())
            .stack_size(READER_STACK)
            .spawn_scoped(scope, work)
            .expect("a thread to read the record on")
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
    })
}

/// A whole game record: its start, its tags and its tree of moves.
#[derive(Clone, Debug, PartialEq)]
pub struct Record {
    /// Where the game starts.
    pub start: Start,
    /// Go only: stones set up before the first move when they are not `start`'s handicap
    /// (SGF `AB`/`AW`: a problem, or a game from a position); `None` otherwise.
    pub setup: Option<GoSetup>,
    /// The players, event, date, result and any other tags.
    pub tags: Tags,
    /// The comment before the first move.
    pub comment: String,
    /// SGF properties of the root that this model does not name, as written (`AP[Sabaki]`),
    /// written back to SGF as they were.
    pub root_markup: Vec<String>,
    /// The main line; each step may hold alternatives to itself.
    pub moves: Vec<Step>,
    /// What was changed while reading (a pass put between two moves of one side).
    pub notes: Vec<String>,
}

/// Go stones set up before the first move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GoSetup {
    /// Black stones, by name (`D4`).
    pub black: Vec<String>,
    /// White stones, by name.
    pub white: Vec<String>,
    /// Who plays first from the setup.
    pub to_play: Side,
}

/// The tags of a record, the same for every format.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Tags {
    /// The player of [`Side::First`]: Black in Go, White in chess, Sente in shogi.
    pub first_player: Option<String>,
    /// The player of [`Side::Second`]: White in Go, Black in chess, Gote in shogi.
    pub second_player: Option<String>,
    /// The event or tournament.
    pub event: Option<String>,
    /// The date, as the file writes it (`2023/07/30`, `1997.05.11`, `2025-06-12`).
    pub date: Option<String>,
    /// How the game ended, when the record says so.
    pub result: Option<Finish>,
    /// Every other tag by name, as the format names it (PGN tag pairs, KIF header lines);
    /// kept and written back by the writer of the same format.
    pub extra: Vec<(String, String)>,
}

/// One move of a line, with what was said about it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Step {
    /// The move's canonical name: `D4`/`pass`, `e2e4`, `7g7f`/`P*5e`.
    pub mv: String,
    /// The comment after the move (empty when none).
    pub comment: String,
    /// PGN's numeric annotation glyphs (`$1` = `!`).
    pub nags: Vec<u8>,
    /// SGF properties of the move's node that this model does not name, as written
    /// (`TR[dd]`, `LB[cc:A]`, `BL[300]`).
    pub markup: Vec<String>,
    /// Other moves considered instead of this one, each a line from the same position.
    pub variations: Vec<Vec<Step>>,
}

impl Step {
    /// A step with only a move.
    pub fn new(mv: impl Into<String>) -> Step {
        Step {
            mv: mv.into(),
            ..Step::default()
        }
    }
}

/// Why a record cannot be read or written.
#[derive(Clone, Debug, PartialEq)]
pub enum RecordError {
    /// The file name has no record extension.
    UnknownFormat {
        /// The file's name.
        name: String,
    },
    /// The text is not readable in its format.
    Syntax {
        /// Where: `path:line`, or the path and game.
        place: String,
        /// What is wrong, as the parser says.
        detail: String,
    },
    /// The start position or the board cannot be set up.
    BadStart {
        /// Where.
        place: String,
        /// What is wrong.
        detail: String,
    },
    /// A move the rules refuse.
    Illegal {
        /// Where: `path:line`, or the path, game and ply.
        place: String,
        /// The move as the file writes it.
        mv: String,
        /// Why the rules refuse it, from the engine's `Explain`.
        reason: String,
    },
    /// A chess variant (Chess960, antichess …): only standard chess is read.
    Variant {
        /// Where.
        place: String,
        /// The variant the game names.
        variant: String,
    },
    /// Variations nested deeper than [`MAX_NESTING`].
    TooDeep {
        /// Where.
        place: String,
    },
    /// A line longer than [`MAX_PLIES`] moves (SGF: nodes), refused before it is read.
    TooLong {
        /// Where: `path:line:col` of the move past the limit, or the path and game.
        place: String,
    },
    /// Lines holding more than [`MAX_MOVES`] moves together, each counted from the start.
    TooManyMoves {
        /// Where: `path:line` of the move past the limit.
        place: String,
    },
    /// The file holds no game.
    Empty {
        /// The file's name.
        name: String,
    },
    /// A file of several games converted to a format that holds one.
    ManyGames {
        /// The file's name.
        name: String,
        /// How many games it holds.
        games: usize,
        /// The format asked for.
        format: Format,
    },
    /// The game asked for is not in the file.
    NoSuchGame {
        /// The file's name.
        name: String,
        /// The game asked for, from 1.
        game: usize,
        /// How many games it holds.
        games: usize,
    },
    /// A record of one game written in another game's format.
    WrongGame {
        /// The format asked for.
        format: Format,
        /// The record's game.
        game: Game,
    },
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RecordError::UnknownFormat { name } => write!(
                f,
                "{name}: unknown record format (use .sgf, .pgn, .kif, .kifu, .ki2, .ki2u or .csa)"
            ),
            RecordError::Syntax { place, detail } => write!(f, "{place}: not readable: {detail}"),
            RecordError::BadStart { place, detail } => {
                write!(f, "{place}: bad start position: {detail}")
            }
            RecordError::Illegal { place, mv, reason } => {
                write!(f, "{place}: illegal move {mv}: {reason}")
            }
            RecordError::Variant { place, variant } => write!(
                f,
                "{place}: the game is {variant}, not standard chess; only standard chess is read"
            ),
            RecordError::TooDeep { place } => {
                write!(f, "{place}: variations nest more than {MAX_NESTING} deep")
            }
            RecordError::TooLong { place } => write!(
                f,
                "{place}: a line of the record goes on past {MAX_PLIES} moves; longer records are not read"
            ),
            RecordError::TooManyMoves { place } => write!(
                f,
                "{place}: the record's lines hold more than {MAX_MOVES} moves together (each counted from the start); larger records are not read"
            ),
            RecordError::Empty { name } => write!(f, "{name}: the file holds no game"),
            RecordError::ManyGames {
                name,
                games,
                format,
            } => write!(
                f,
                "{name} holds {games} games and {} holds one: choose one with --game N",
                format.as_str()
            ),
            RecordError::NoSuchGame { name, game, games } => write!(
                f,
                "{name} has no game {game}: it holds {games} (counted from 1)"
            ),
            RecordError::WrongGame { format, game } => write!(
                f,
                "a {} record cannot be written as {}",
                game.slug(),
                format.as_str()
            ),
        }
    }
}

impl std::error::Error for RecordError {}

/// Reads every game of the record file `name` (its extension gives the format) from its raw
/// bytes, in whatever encoding the format allows.
pub fn read(name: &str, bytes: &[u8]) -> Result<Vec<Record>, RecordError> {
    let format = Format::for_file(name, bytes).ok_or_else(|| RecordError::UnknownFormat {
        name: name.to_string(),
    })?;
    let records = (format.kind().read)(name, bytes, format)?;
    if records.is_empty() {
        return Err(RecordError::Empty {
            name: name.to_string(),
        });
    }
    Ok(records)
}

/// Writes `record` in `format` (one of its game's formats), as UTF-8 text.
pub fn write(record: &Record, format: Format) -> Result<String, RecordError> {
    let game = record.start.game();
    if format.game() != game {
        return Err(RecordError::WrongGame { format, game });
    }
    (format.kind().write)(record, format)
}

/// A file converted to another format.
#[derive(Clone, Debug, PartialEq)]
pub struct Converted {
    /// The text in the new format (UTF-8).
    pub text: String,
    /// The games converted.
    pub records: Vec<Record>,
}

/// Converts the record file `name` (its raw bytes, in any encoding its format allows) to
/// `to`, a format of the same game: every game for SGF and PGN (which hold many), or the
/// one `game` chosen (from 1) or the only one for KIF, KI2 and CSA.
///
/// ```
/// use qiyuan::record::{self, convert};
/// let kif = "手合割：平手\n手数----指手---------消費時間--\n   1 ７六歩(77)\n   2 ３四歩(33)\n";
/// let csa = convert("g.kif", kif.as_bytes(), record::kif::CSA, None).unwrap();
/// assert!(csa.text.contains("+7776FU") && csa.text.contains("-3334FU"));
/// assert!(convert("g.kif", kif.as_bytes(), record::pgn::PGN, None).is_err());
/// ```
pub fn convert(
    name: &str,
    bytes: &[u8],
    to: Format,
    game: Option<usize>,
) -> Result<Converted, RecordError> {
    let mut records = read(name, bytes)?;
    let games = records.len();
    if let Some(n) = game {
        if n == 0 || n > games {
            return Err(RecordError::NoSuchGame {
                name: name.to_string(),
                game: n,
                games,
            });
        }
        records = vec![records.swap_remove(n - 1)];
    }
    let many = to.kind().many_games.is_some();
    if records.len() > 1 && !many {
        return Err(RecordError::ManyGames {
            name: name.to_string(),
            games,
            format: to,
        });
    }
    let texts = records
        .iter()
        .map(|r| write(r, to))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Converted {
        text: texts.join(to.kind().many_games.unwrap_or("")),
        records,
    })
}

impl Record {
    /// A record of no moves from `start`.
    pub fn new(start: Start) -> Record {
        Record {
            start,
            setup: None,
            tags: Tags::default(),
            comment: String::new(),
            root_markup: Vec::new(),
            moves: Vec::new(),
            notes: Vec::new(),
        }
    }

    /// The record of a played game: its start, its moves in any notation the game reads (the
    /// canonical names are kept), the players (`[first, second]`: Black/White in Go,
    /// White/Black in chess, Sente/Gote in shogi), the date and how it ended. An illegal
    /// move is refused with its ply and reason.
    pub fn from_game(
        start: Start,
        moves: &[String],
        players: [&str; 2],
        date: Option<&str>,
        finish: Option<Finish>,
    ) -> Result<Record, RecordError> {
        let mut record = Record::new(start);
        let named = |s: &str| (!s.trim().is_empty()).then(|| s.trim().to_string());
        record.tags.first_player = named(players[0]);
        record.tags.second_player = named(players[1]);
        record.tags.date = date.and_then(named);
        record.tags.result = finish;
        let mut board = record.position_at_start("game")?;
        for (ply, text) in moves.iter().enumerate() {
            let (next, name) =
                board
                    .play(text, Lang::En)
                    .map_err(|reason| RecordError::Illegal {
                        place: format!("game, ply {}", ply + 1),
                        mv: text.clone(),
                        reason,
                    })?;
            record.moves.push(Step::new(name));
            board = next;
        }
        Ok(record)
    }

    /// The moves of the main line, by their canonical names.
    pub fn main_line(&self) -> Vec<String> {
        self.moves.iter().map(|s| s.mv.clone()).collect()
    }

    /// How many variations the tree holds, at every depth.
    pub fn variation_count(&self) -> usize {
        fn count(line: &[Step]) -> usize {
            line.iter()
                .map(|s| s.variations.len() + s.variations.iter().map(|v| count(v)).sum::<usize>())
                .sum()
        }
        count(&self.moves)
    }

    /// Every comment of the tree (the one before the first move first), depth first.
    pub fn comments(&self) -> Vec<String> {
        fn collect(line: &[Step], out: &mut Vec<String>) {
            for s in line {
                if !s.comment.is_empty() {
                    out.push(s.comment.clone());
                }
                for v in &s.variations {
                    collect(v, out);
                }
            }
        }
        let mut out = Vec::new();
        if !self.comment.is_empty() {
            out.push(self.comment.clone());
        }
        collect(&self.moves, &mut out);
        out
    }

    /// Every line of the tree from the start, by canonical names: the main line first, then
    /// each variation in the order it is met, depth first.
    pub fn lines(&self) -> Vec<Vec<String>> {
        fn walk(prefix: &[String], line: &[Step], out: &mut Vec<Vec<String>>) {
            let mut here = prefix.to_vec();
            let index = out.len();
            out.push(Vec::new());
            for s in line {
                for v in &s.variations {
                    walk(&here, v, out);
                }
                here.push(s.mv.clone());
            }
            out[index] = here;
        }
        let mut out = Vec::new();
        walk(&[], &self.moves, &mut out);
        out
    }

    /// The side that makes the first move.
    pub fn first_to_move(&self) -> Side {
        if let Some(setup) = &self.setup {
            return setup.to_play;
        }
        AnyPosition::from_start(&self.start).map_or(Side::First, |p| p.turn())
    }

    /// The position the record starts from (with Go's set-up stones); `place` names the
    /// record in the error.
    pub fn position_at_start(&self, place: &str) -> Result<AnyPosition, RecordError> {
        let bad = |detail: String| RecordError::BadStart {
            place: place.to_string(),
            detail,
        };
        if let Some(setup) = &self.setup {
            return sgf::setup_position(&self.start, setup)
                .map(AnyPosition::new)
                .map_err(bad);
        }
        AnyPosition::from_start(&self.start).map_err(|e| match e {
            BadStart::Variant(variant) => RecordError::Variant {
                place: place.to_string(),
                variant,
            },
            BadStart::Position(why) => bad(why),
        })
    }
}

/// `depth` (how deep variations nest at this point) against [`MAX_NESTING`].
pub(crate) fn within_nesting(depth: usize, place: &str) -> Result<(), RecordError> {
    if depth > MAX_NESTING {
        return Err(RecordError::TooDeep {
            place: place.to_string(),
        });
    }
    Ok(())
}

/// Plays every line of `moves` from `board` (the variations of a step from the position
/// before it); the first refused move is reported with its ply, counted from the start.
pub(crate) fn check_lines(
    board: &AnyPosition,
    moves: &[Step],
    first_ply: usize,
    place: &str,
    depth: usize,
) -> Result<(), RecordError> {
    within_nesting(depth, place)?;
    let mut board = board.clone();
    for (i, s) in moves.iter().enumerate() {
        for v in &s.variations {
            check_lines(&board, v, first_ply + i, place, depth + 1)?;
        }
        board = board
            .play(&s.mv, Lang::En)
            .map_err(|reason| RecordError::Illegal {
                place: format!("{place}, ply {}", first_ply + i),
                mv: s.mv.clone(),
                reason,
            })?
            .0;
    }
    Ok(())
}

impl Record {
    /// Plays every move of every line through the rules engine; the first refused move is
    /// reported with its ply. `place` names the record in the error.
    pub fn check(&self, place: &str) -> Result<(), RecordError> {
        let board = self.position_at_start(place)?;
        check_lines(&board, &self.moves, 1, place, 0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::go;

    fn go9() -> Start {
        Start::Go(crate::base::go::Start {
            size: 9,
            handicap: 0,
            rules: go::Scoring::Chinese,
            komi: 7.5,
        })
    }

    #[test]
    fn from_game_keeps_canonical_names() {
        let moves: Vec<String> = ["d4", "pass", "E5"].map(String::from).into();
        let r = Record::from_game(go9(), &moves, ["A", ""], None, None).unwrap();
        assert_eq!(r.main_line(), ["D4", "pass", "E5"]);
        assert_eq!(r.tags.first_player.as_deref(), Some("A"));
        assert_eq!(r.tags.second_player, None);
    }

    #[test]
    fn from_game_refuses_an_illegal_move_with_its_ply() {
        //   A B C
        // 9 . . .   the second D4 lands on the first
        let moves: Vec<String> = ["D4", "D4"].map(String::from).into();
        let err = Record::from_game(go9(), &moves, ["", ""], None, None).unwrap_err();
        let text = err.to_string();
        assert!(text.contains("ply 2") && text.contains("D4"), "{text}");
    }

    #[test]
    fn lines_lists_every_variation_from_the_start() {
        let mut r = Record::new(go9());
        let mut second = Step::new("E5");
        second
            .variations
            .push(vec![Step::new("C3"), Step::new("C4")]);
        r.moves = vec![Step::new("D4"), second];
        assert_eq!(r.lines(), vec![vec!["D4", "E5"], vec!["D4", "C3", "C4"]]);
        assert_eq!(r.variation_count(), 1);
        r.check("t").unwrap();
        r.moves[1].variations[0][1].mv = "D4".into();
        assert!(matches!(r.check("t"), Err(RecordError::Illegal { .. })));
    }

    #[test]
    fn writing_in_another_games_format_is_refused() {
        let r = Record::new(go9());
        assert_eq!(
            write(&r, pgn::PGN),
            Err(RecordError::WrongGame {
                format: pgn::PGN,
                game: Game::Go
            })
        );
    }
}
