//! Why a xiangqi record is refused, with the place (`file:line:col`) and a reason in
//! Chinese and English.

use crate::lang::Lang;
use crate::rules::xiangqi::{BadFen, Illegal};
use std::fmt;

/// Where in a record file: its name and the line and column (from 1, columns in
/// characters) of the text in question.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Place {
    /// The file's name as the reader was given it.
    pub file: String,
    /// The line, from 1.
    pub line: usize,
    /// The column in characters, from 1.
    pub col: usize,
}

impl fmt::Display for Place {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}:{}", self.file, self.line, self.col)
    }
}

/// Why a record file is not read: one variant per cause.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReadError {
    /// The file is larger than [`MAX_BYTES`](super::MAX_BYTES).
    TooLarge { file: String, bytes: usize },
    /// The file holds no game (no tag, no move).
    Empty { file: String },
    /// A `[` that does not open a tag `[Name "value"]`.
    BadTag { at: Place },
    /// A `{` comment with no `}` before the end of the file.
    UnclosedComment { at: Place },
    /// A `(` variation with no `)` before the end of the file.
    UnclosedVariation { at: Place },
    /// A `)` with no `(` before it.
    UnopenedVariation { at: Place },
    /// A `(` before any move: a variation replaces the move before it.
    VariationWithoutMove { at: Place },
    /// Variations nested deeper than [`MAX_NESTING`](crate::record::MAX_NESTING).
    TooDeep { at: Place },
    /// The `Game` or `Variant` tag names another game (chess, shogi …).
    OtherGame { at: Place, game: String },
    /// The `FEN` tag is not a xiangqi position.
    BadFen {
        at: Place,
        fen: String,
        problem: BadFen,
    },
    /// A move the rules refuse, or text that is not a move.
    IllegalMove {
        at: Place,
        /// The move's number in its game, from 1.
        ply: usize,
        /// The move as the file writes it.
        text: String,
        /// Why the rules refuse it.
        reason: Illegal,
    },
    /// A game with more than [`MAX_PLIES`](super::MAX_PLIES) moves.
    GameTooLong { at: Place },
    /// A file with more than [`MAX_MOVES`](super::MAX_MOVES) moves, its games together.
    TooManyMoves { at: Place },
    /// A file with more than [`MAX_GAMES`](super::MAX_GAMES) games.
    TooManyGames { at: Place },
}

fn bad_fen_reason(problem: &BadFen, lang: Lang) -> String {
    match (problem, lang) {
        (BadFen::Syntax(e), Lang::Zh) => format!("写法不对（{e}）"),
        (BadFen::Syntax(e), Lang::En) => format!("it is not written as FEN ({e})"),
        (BadFen::Kings { color }, Lang::Zh) => format!("{}必须正好有一个将帅", color.name(lang)),
        (BadFen::Kings { color }, Lang::En) => {
            format!("{} must have exactly one king", color.name(lang))
        }
        (BadFen::OutOfPlace { at }, Lang::Zh) => format!("{at} 上的棋子不可能走到那里"),
        (BadFen::OutOfPlace { at }, Lang::En) => {
            format!("the piece on {at} could never stand there")
        }
        (BadFen::TooMany { color, kind }, _) => {
            let piece = kind.name(*color, lang);
            if lang == Lang::Zh {
                format!("{}的{piece}比一副棋里的还多", color.name(lang))
            } else {
                format!("{} has more of {piece} than a set holds", color.name(lang))
            }
        }
        (BadFen::OpponentInCheck, Lang::Zh) => "不该走棋的一方正被将军（或将帅照面）".into(),
        (BadFen::OpponentInCheck, Lang::En) => {
            "the side not to move is in check (or the kings face each other)".into()
        }
    }
}

impl ReadError {
    /// The refusal in `lang`, beginning with the place (`file:line:col:`).
    ///
    /// ```
    /// use qiyuan::lang::Lang;
    /// use qiyuan::record::xiangqi::read_named;
    /// let err = read_named("a.pgn", "1. 炮二平五 马2进1\n2. 馬二進四".as_bytes()).unwrap_err();
    /// assert!(err.explain(Lang::En).starts_with("a.pgn:2:4: move 3, 馬二進四"));
    /// assert!(err.explain(Lang::Zh).contains("蹩马腿") || err.explain(Lang::Zh).contains("马腿"));
    /// ```
    pub fn explain(&self, lang: Lang) -> String {
        let zh = lang == Lang::Zh;
        match self {
            ReadError::TooLarge { file, bytes } => {
                let limit = super::MAX_BYTES;
                if zh {
                    format!("{file}：文件有 {bytes} 字节，超过上限 {limit} 字节，不读取。")
                } else {
                    format!("{file}: the file has {bytes} bytes, more than the {limit} read.")
                }
            }
            ReadError::Empty { file } => {
                if zh {
                    format!("{file}：文件里没有棋局。")
                } else {
                    format!("{file}: the file holds no game.")
                }
            }
            ReadError::BadTag { at } => {
                if zh {
                    format!("{at}：“[”后面应是标签，如 [Red \"许银川\"]。")
                } else {
                    format!("{at}: a `[` should open a tag such as [Red \"Xu Yinchuan\"].")
                }
            }
            ReadError::UnclosedComment { at } => {
                if zh {
                    format!("{at}：注释“{{”一直到文件末尾都没有“}}”结束。")
                } else {
                    format!("{at}: the comment opened by `{{` is never closed by `}}`.")
                }
            }
            ReadError::UnclosedVariation { at } => {
                if zh {
                    format!("{at}：变着“(”一直到文件末尾都没有“)”结束。")
                } else {
                    format!("{at}: the variation opened by `(` is never closed by `)`.")
                }
            }
            ReadError::UnopenedVariation { at } => {
                if zh {
                    format!("{at}：这个“)”前面没有对应的“(”。")
                } else {
                    format!("{at}: this `)` closes no `(`.")
                }
            }
            ReadError::VariationWithoutMove { at } => {
                if zh {
                    format!("{at}：变着“(”前面还没有着法：变着是替换它前面那一步的走法。")
                } else {
                    format!("{at}: a variation `(` before any move: a variation replaces the move before it.")
                }
            }
            ReadError::TooDeep { at } => {
                let limit = crate::record::MAX_NESTING;
                if zh {
                    format!("{at}：变着套变着超过 {limit} 层，不再读取。")
                } else {
                    format!("{at}: variations nest more than {limit} deep; the file is not read.")
                }
            }
            ReadError::OtherGame { at, game } => {
                if zh {
                    format!("{at}：这局是“{game}”，不是象棋。")
                } else {
                    format!("{at}: the game is \"{game}\", not xiangqi.")
                }
            }
            ReadError::BadFen { at, fen, problem } => {
                let why = bad_fen_reason(problem, lang);
                if zh {
                    format!("{at}：局面 FEN “{fen}”有误：{why}。")
                } else {
                    format!("{at}: the FEN \"{fen}\" is not a xiangqi position: {why}.")
                }
            }
            ReadError::IllegalMove {
                at,
                ply,
                text,
                reason,
            } => {
                let why = reason.explain(lang);
                if zh {
                    format!("{at}：第 {ply} 步“{text}”不能走：{why}")
                } else {
                    format!("{at}: move {ply}, {text}, cannot be played: {why}")
                }
            }
            ReadError::GameTooLong { at } => {
                let limit = super::MAX_PLIES;
                if zh {
                    format!("{at}：一局超过 {limit} 步，不再读取。")
                } else {
                    format!("{at}: the game goes on past {limit} moves; it is not read.")
                }
            }
            ReadError::TooManyMoves { at } => {
                let limit = super::MAX_MOVES;
                if zh {
                    format!("{at}：文件里的棋步共超过 {limit} 步，不再读取。")
                } else {
                    format!("{at}: the file holds more than {limit} moves; it is not read.")
                }
            }
            ReadError::TooManyGames { at } => {
                let limit = super::MAX_GAMES;
                if zh {
                    format!("{at}：文件里超过 {limit} 局，不再读取。")
                } else {
                    format!("{at}: the file holds more than {limit} games; it is not read.")
                }
            }
        }
    }
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.explain(Lang::En))
    }
}

impl std::error::Error for ReadError {}

/// Why a [`XiangqiGame`](super::XiangqiGame) cannot be written: its moves are played to
/// name them in Chinese notation, and one is refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WriteError {
    /// The game's FEN is not a xiangqi position.
    BadFen { fen: String, problem: BadFen },
    /// A move the rules refuse, or text that is not ICCS.
    IllegalMove {
        /// The move's number in its game, from 1.
        ply: usize,
        /// The move as the game holds it.
        iccs: String,
        /// Why the rules refuse it.
        reason: Illegal,
    },
    /// Variations nested deeper than [`MAX_NESTING`](crate::record::MAX_NESTING).
    TooDeep,
}

impl WriteError {
    /// The refusal in `lang`.
    pub fn explain(&self, lang: Lang) -> String {
        match (self, lang) {
            (WriteError::BadFen { fen, problem }, Lang::Zh) => {
                format!("局面 FEN “{fen}”有误：{}。", bad_fen_reason(problem, lang))
            }
            (WriteError::BadFen { fen, problem }, Lang::En) => format!(
                "the FEN \"{fen}\" is not a xiangqi position: {}.",
                bad_fen_reason(problem, lang)
            ),
            (WriteError::IllegalMove { ply, iccs, reason }, Lang::Zh) => {
                format!("第 {ply} 步“{iccs}”不能走：{}", reason.explain(lang))
            }
            (WriteError::IllegalMove { ply, iccs, reason }, Lang::En) => format!(
                "move {ply}, {iccs}, cannot be played: {}",
                reason.explain(lang)
            ),
            (WriteError::TooDeep, Lang::Zh) => format!(
                "变着套变着超过 {} 层，不能写出。",
                crate::record::MAX_NESTING
            ),
            (WriteError::TooDeep, Lang::En) => format!(
                "variations nest more than {} deep; the game is not written.",
                crate::record::MAX_NESTING
            ),
        }
    }
}

impl fmt::Display for WriteError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.explain(Lang::En))
    }
}

impl std::error::Error for WriteError {}
