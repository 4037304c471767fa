//! Xiangqi game records as Chinese players have them: PGN in Big5, GBK or UTF-8, with
//! moves in Chinese notation (traditional or simplified, `馬８進７` or `马8进7`), ICCS
//! (`h2e2`, `H2-E2`) or WXF (`C2=5`), read into a neutral [`XiangqiGame`] and written back.
//!
//! Reading ([`read`], [`read_named`]): the bytes are decoded ([`decode`]: UTF-8 with or
//! without its mark, UTF-16, GB18030/GBK/GB2312, Big5); every tag is kept; `[FEN]` gives the
//! start (else the usual start); `{…}` and `;…` comments are kept, each with the move it
//! follows; variations `( … )` are kept with the move they replace, nested up to
//! [`MAX_NESTING`](crate::record::MAX_NESTING) deep, and their moves checked; move numbers and
//! annotations (`!`, `?`, `$1`) are skipped; `1-0`, `0-1`, `1/2-1/2`, `*` end a game; a tag
//! after a game's moves starts the next game. Every move, variations' too, is played through
//! [`rules::xiangqi`](crate::rules::xiangqi), and the first move it refuses stops the
//! reading with its place (`file:line:col`) and the reason in both languages
//! ([`ReadError::explain`]). A game whose moves go on after a threefold repetition is read
//! on (the players did not claim it); [`XiangqiGame::moves`] holds every move.
//!
//! Writing ([`write`]): UTF-8, `[Game "Chinese Chess"]` (what Chinese tools look for) and
//! `[Variant "xiangqi"]` (what Fairy-Stockfish, pychess and lichess-style PGN readers look
//! for, so that a chess reader refuses the file by name rather than on its first move),
//! the other tags as read, `[FEN]` when the game has one, `[Result]` (`*` when the game has
//! none), and the moves in simplified Chinese notation, one move pair a line, each with its
//! comment and its variations. A `}` in a comment, which PGN cannot escape, is written `｝`.
//!
//! Bounds: at most [`MAX_BYTES`] of input, [`MAX_PLIES`] moves a line, [`MAX_MOVES`] a
//! file (variations included), [`MAX_GAMES`] games, and variations nested
//! [`MAX_NESTING`](crate::record::MAX_NESTING) deep; the reader does not recurse, and memory
//! stays a small multiple of the input's size.
//!
//! ```
//! use qiyuan::record::xiangqi::{read, write};
//! // Black to move:  . . . . k . . . .  9
//! //                 . . . . a . . . .  8
//! //                 . . . . . a . . .  7
//! //                 . . . P R . . . .  6   R e6 goes back two: 车五退二 = e6e4
//! //                 . . . . . . r . .  5   r g5 to c5: 车７平３ = g5c5
//! //                 . . . . . . . . .  4
//! //                 . . p p . . . . .  3   p c3 forward: 卒３進１ = c3c2
//! //                 …  . . . . K A . . .  0
//! //                 a b c d e f g h i
//! let pgn = "[Game \"Chinese Chess\"]\n[FEN \"4k4/4a4/5a3/3PR4/6r2/9/2pp5/9/4A4/4KA3 b - - 0 1\"]\n\
//!            1. 卒３進１ {推卒} 2. 車五退二 車７平３ 0-1";
//! let games = read(pgn.as_bytes()).unwrap();
//! let moves: Vec<&str> = games[0].moves.iter().map(|m| m.iccs.as_str()).collect();
//! assert_eq!(moves, ["c3c2", "e6e4", "g5c5"]);
//! assert_eq!(games[0].moves[0].comment.as_deref(), Some("推卒"));
//! assert_eq!(games[0].result.as_deref(), Some("0-1"));
//! let text = write(&games).unwrap();
//! assert!(text.contains("1... 卒3进1 {推卒}\n2. 车五退二 车7平3\n0-1"));
//! let back = read(text.as_bytes()).unwrap();
//! assert_eq!((&back[0].moves, &back[0].fen), (&games[0].moves, &games[0].fen));
//! assert_eq!(back[0].tag("Variant"), Some("xiangqi"));
//! ```

mod encoding;
mod error;
mod format;
mod read;
mod text;
mod write;

pub use encoding::{decode, Encoding};
pub(crate) use format::FORMATS;
pub use format::PGN;
pub use error::{Place, ReadError, WriteError};
pub use read::{read, read_named, read_text};
pub use write::{write, write_game};

use crate::rules::xiangqi::{BadFen, Position};

/// The most bytes a record file may have (4 MiB: some ten thousand games).
pub const MAX_BYTES: usize = 4 << 20;
/// The most moves one game may have.
pub const MAX_PLIES: usize = crate::record::MAX_PLIES;
/// The most moves one file may have, all its games together.
pub const MAX_MOVES: usize = crate::record::MAX_MOVES;
/// The most games one file may hold.
pub const MAX_GAMES: usize = 10_000;

/// One game of a record file, in no particular notation.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct XiangqiGame {
    /// Every tag but `FEN`, in the order the file gives them (`Game`, `Event`, `Red`,
    /// `Result` …), values as written.
    pub tags: Vec<(String, String)>,
    /// The start position when the file gives one (`[FEN]`), as Fairy-Stockfish writes it
    /// (read and written again, so that equal positions have equal text).
    pub fen: Option<String>,
    /// The comment before the first move, if any.
    pub comment: Option<String>,
    /// The main line's moves (with their variations).
    pub moves: Vec<NotedMove>,
    /// The result that ends the movetext (`1-0`, `0-1`, `1/2-1/2`, `*`), or else the
    /// `Result` tag's value, if either is given.
    pub result: Option<String>,
}

/// A move, the comment after it, and the other moves considered in its place.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct NotedMove {
    /// The move in ICCS, lower case: `h2e2`.
    pub iccs: String,
    /// The comments written after the move (several joined by a line break; a comment
    /// at the start of a variation comes first).
    pub comment: Option<String>,
    /// Variations: lines played instead of this move, from the position before it (PGN's
    /// `( … )` after the move), each a list of moves that may have variations of its own.
    pub variations: Vec<Vec<NotedMove>>,
}

impl NotedMove {
    /// A move with no comment and no variation.
    pub fn new(iccs: impl Into<String>) -> NotedMove {
        NotedMove {
            iccs: iccs.into(),
            ..NotedMove::default()
        }
    }
}

impl XiangqiGame {
    /// The value of the first tag named `name` (case-insensitive), if any.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// The position the game starts from: its FEN, or the usual start.
    pub fn start(&self) -> Result<Position, BadFen> {
        match &self.fen {
            Some(fen) => Position::from_fen(fen),
            None => Ok(Position::start()),
        }
    }

    /// The main line's moves in ICCS.
    pub fn iccs(&self) -> Vec<&str> {
        self.moves.iter().map(|m| m.iccs.as_str()).collect()
    }
}
