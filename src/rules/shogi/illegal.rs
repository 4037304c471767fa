//! Why a shogi move is refused, and how the game ended, in words for a learner.

use super::types::{Color, Kind, Square};
use crate::lang::Lang;
use std::fmt;

/// Why a move is refused. Each variant is one rule a learner can be told about, with the
/// squares and pieces needed to explain it.
///
/// [`Position::play`](super::Position::play) looks for the cause the way a teacher would:
/// first whether the text is a move at all, then the piece, its way of moving and its path,
/// promotion, the rules of drops, and last whether the move leaves the king in check.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Illegal {
    /// The text is not a USI move such as `7g7f`, `8h2b+` or `P*5e`.
    NotAMove(String),
    /// There is no piece on the square the move starts from.
    NoPiece { from: Square },
    /// The piece on `from` belongs to the other side.
    NotYourPiece { from: Square },
    /// One of your own pieces stands on the square moved to.
    OwnPieceOnTarget { to: Square },
    /// The piece does not move that way (wrong direction or distance).
    CannotMoveThatWay {
        kind: Kind,
        from: Square,
        to: Square,
    },
    /// A ranging piece would have to pass over the piece on `by`.
    PathBlocked {
        kind: Kind,
        from: Square,
        to: Square,
        by: Square,
    },
    /// After the move the piece on the square named would attack your king (王手).
    LeavesKingInCheck { attacker: (Kind, Square) },
    /// A drop of a kind of piece you do not hold in hand.
    NotInHand { kind: Kind },
    /// A drop onto a square that is not empty.
    DropOccupied { to: Square },
    /// A drop written promoted (`+P*5e`, `P*5e+`): dropped pieces are always unpromoted.
    DropPromoted,
    /// 二歩 (nifu): an unpromoted pawn of yours already stands on this file.
    TwoPawns { file: u8 },
    /// 打ち歩詰め: a pawn drop that checkmates at once. (A pawn drop that only checks is legal.)
    PawnDropMate { to: Square },
    /// 行き所のない駒: a pawn or lance dropped on the last rank, a knight on the last two.
    DeadDrop { kind: Kind, to: Square },
    /// A promotion where neither the start nor the end of the move is in the promotion zone.
    PromotionOutsideZone { from: Square, to: Square },
    /// A pawn or lance moved to the last rank, or a knight to the last two, without promoting.
    PromotionRequired { kind: Kind, to: Square },
    /// A promotion of a gold, a king, or a piece already promoted.
    CannotPromote { kind: Kind },
    /// The game is over (checkmate, 千日手): no move may be played.
    GameOver,
}

/// How a kind of piece moves, in a sentence.
fn movement(kind: Kind, lang: Lang) -> &'static str {
    match (kind, lang) {
        (Kind::Pawn, Lang::Zh) => "步兵只能向前走一格。",
        (Kind::Pawn, Lang::En) => "A pawn moves one square straight forward, nothing else.",
        (Kind::Lance, Lang::Zh) => "香车只能向前直走，格数不限，不能后退，也不能横走。",
        (Kind::Lance, Lang::En) => {
            "A lance moves straight forward any number of squares; never back or sideways."
        }
        (Kind::Knight, Lang::Zh) => {
            "桂马只能向前跳：向前两格再向左或向右一格，共两个落点；不能向旁边或后面跳。"
        }
        (Kind::Knight, Lang::En) => {
            "A knight jumps only forward: two squares forward and one to the side, so it has just two targets."
        }
        (Kind::Silver, Lang::Zh) => {
            "银将可以向前、左前、右前、左后、右后各走一格；不能横走，也不能直退。"
        }
        (Kind::Silver, Lang::En) => {
            "A silver moves one square forward, diagonally forward, or diagonally back; not sideways and not straight back."
        }
        (Kind::Gold, Lang::Zh) => "金将可以向前、左前、右前、左、右、后各走一格；不能斜着后退。",
        (Kind::Gold, Lang::En) => {
            "A gold moves one square forward, diagonally forward, sideways, or straight back; not diagonally back."
        }
        (Kind::ProPawn | Kind::ProLance | Kind::ProKnight | Kind::ProSilver, Lang::Zh) => {
            "升变后的步兵、香车、桂马、银将都按金将的走法走：向前、左前、右前、左、右、后各一格。"
        }
        (Kind::ProPawn | Kind::ProLance | Kind::ProKnight | Kind::ProSilver, Lang::En) => {
            "A promoted pawn, lance, knight or silver moves like a gold: one square forward, diagonally forward, sideways, or straight back."
        }
        (Kind::Bishop, Lang::Zh) => "角行只能斜走，格数不限。",
        (Kind::Bishop, Lang::En) => "A bishop moves diagonally, any number of squares.",
        (Kind::Rook, Lang::Zh) => "飞车只能直走或横走，格数不限。",
        (Kind::Rook, Lang::En) => {
            "A rook moves along its file or rank, any number of squares."
        }
        (Kind::King, Lang::Zh) => "王将每次向任意方向走一格。",
        (Kind::King, Lang::En) => "A king moves one square in any direction.",
        (Kind::Horse, Lang::Zh) => "龙马可以斜走任意格，另外还能上下左右走一格。",
        (Kind::Horse, Lang::En) => {
            "A horse moves diagonally any number of squares, or one square straight in any direction."
        }
        (Kind::Dragon, Lang::Zh) => "龙王可以直走或横走任意格，另外还能斜走一格。",
        (Kind::Dragon, Lang::En) => {
            "A dragon moves along its file or rank any number of squares, or one square diagonally."
        }
    }
}

/// Whether "forward" matters for the kind, so the explanation says which way it is.
fn has_direction(kind: Kind) -> bool {
    !matches!(
        kind,
        Kind::Bishop | Kind::Rook | Kind::King | Kind::Horse | Kind::Dragon
    )
}

/// A Chinese explanation with its squares as the board labels them: `1b` becomes `1二`
/// (the file's digit, the rank's kanji). Only a square standing alone is changed: not the
/// move syntax a learner types (`7g7f`, `P*5e`, `8h2b+`).
fn kanji_squares(text: &str) -> String {
    const KANJI: [char; 9] = ['一', '二', '三', '四', '五', '六', '七', '八', '九'];
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    for (i, &c) in chars.iter().enumerate() {
        let before = i.checked_sub(1).map(|j| chars[j]);
        let after = chars.get(i + 1).copied();
        let rank = |c: char| ('a'..='i').contains(&c);
        let file = |c: char| ('1'..='9').contains(&c);
        let free = |c: Option<char>| c.is_none_or(|c| !c.is_ascii_alphanumeric() && c != '*' && c != '+');
        if rank(c)
            && before.is_some_and(file)
            && free(after)
            && free(i.checked_sub(2).map(|j| chars[j]))
        {
            out.push(KANJI[(c as u8 - b'a') as usize]);
        } else {
            out.push(c);
        }
    }
    out
}

impl Illegal {
    /// A sentence or two for the learner, in `lang`; in Chinese the squares are named as
    /// the board labels them (`1二`).
    pub fn explain(&self, lang: Lang) -> String {
        let text = self.explain_usi(lang);
        if lang == Lang::Zh && !matches!(self, Illegal::NotAMove(_)) {
            kanji_squares(&text)
        } else {
            text
        }
    }

    /// [`Illegal::explain`] with squares as USI names them (`1b`).
    fn explain_usi(&self, lang: Lang) -> String {
        let zh = lang == Lang::Zh;
        match self {
            Illegal::NotAMove(text) => {
                if zh {
                    format!(
                        "“{text}”不是着法的写法。走子写作 7g7f（从 7g 走到 7f），升变（成）在后面加 +，如 8h2b+；打入写作 P*5e（把持驹里的步兵打在 5e）。"
                    )
                } else {
                    format!(
                        "\"{text}\" is not a move. Write a move as 7g7f (from 7g to 7f), add + to promote (8h2b+), and write a drop as P*5e (a pawn from your hand onto 5e)."
                    )
                }
            }
            Illegal::NoPiece { from } => {
                if zh {
                    format!("{from} 上没有棋子，没有可以走的子。")
                } else {
                    format!("There is no piece on {from} to move.")
                }
            }
            Illegal::NotYourPiece { from } => {
                if zh {
                    format!("{from} 上是对方的棋子。将棋的棋子以尖头朝向区分归属，只能走尖头朝向对方的自己的棋子。")
                } else {
                    format!("The piece on {from} belongs to your opponent (its point faces you). You may move only your own pieces.")
                }
            }
            Illegal::OwnPieceOnTarget { to } => {
                if zh {
                    format!("{to} 上是你自己的棋子，不能吃自己的子。")
                } else {
                    format!("Your own piece stands on {to}; you cannot capture your own piece.")
                }
            }
            Illegal::CannotMoveThatWay { kind, from, to } => {
                let mut s = if zh {
                    format!(
                        "{}不能从 {from} 走到 {to}。{}",
                        kind.name(lang),
                        movement(*kind, lang)
                    )
                } else {
                    format!(
                        "A {} cannot go from {from} to {to}. {}",
                        kind.name(lang),
                        movement(*kind, lang)
                    )
                };
                if has_direction(*kind) {
                    s.push_str(if zh {
                        "（“前”对先手是向上，朝 a 行；对后手是向下，朝 i 行。）"
                    } else {
                        " (Forward is up the board, toward rank a, for Black; down, toward rank i, for White.)"
                    });
                }
                s
            }
            Illegal::PathBlocked { kind, from, to, by } => {
                if zh {
                    format!(
                        "{}从 {from} 走到 {to} 要经过 {by}，而 {by} 上有棋子挡住了。{}不能跳过棋子（只有桂马能跳）。",
                        kind.name(lang),
                        kind.name(lang)
                    )
                } else {
                    format!(
                        "The {} would pass over {by} on its way from {from} to {to}, but a piece stands on {by}. Only a knight may jump over pieces.",
                        kind.name(lang)
                    )
                }
            }
            Illegal::LeavesKingInCheck {
                attacker: (kind, sq),
            } => {
                if zh {
                    format!(
                        "走了这步以后，你的王将会受到对方 {sq} 的{}的攻击（被王手）。不能让自己的王处在王手之下：被王手时必须应对，也不能把挡在王前面的子走开。",
                        kind.name(lang)
                    )
                } else {
                    format!(
                        "After this move your king would be attacked by the {} on {sq} (in check). No move may leave your own king in check: answer a check, and do not move away a piece that shields your king.",
                        kind.name(lang)
                    )
                }
            }
            Illegal::NotInHand { kind } => {
                if *kind == Kind::King {
                    if zh {
                        "王将不会被吃成持驹，所以不能打入。".to_string()
                    } else {
                        "A king is never captured into a hand, so it can never be dropped."
                            .to_string()
                    }
                } else if zh {
                    format!(
                        "你的持驹里没有{}，不能打入。只有吃掉的对方棋子才能打入（打入）。",
                        kind.unpromoted().name(lang)
                    )
                } else {
                    format!(
                        "You have no {} in hand to drop. Only pieces you have captured can be dropped.",
                        kind.unpromoted().name(lang)
                    )
                }
            }
            Illegal::DropOccupied { to } => {
                if zh {
                    format!("{to} 上已经有棋子了。打入只能打在空格上，打入不能吃子。")
                } else {
                    format!("{to} is not empty. A piece may be dropped only on an empty square; a drop never captures.")
                }
            }
            Illegal::DropPromoted => {
                if zh {
                    "打入的棋子总是以未升变的一面打入；成驹被吃后回到持驹时也变回原来的棋子。即使打在敌阵里，也要等下一次走动时才能升变（成）。".to_string()
                } else {
                    "A dropped piece always comes in unpromoted; a promoted piece that is captured goes to the hand unpromoted. Even in the promotion zone it may promote only on a later move.".to_string()
                }
            }
            Illegal::TwoPawns { file } => {
                if zh {
                    format!("二步（二歩）：第 {file} 路已经有你的一枚未升变的步兵，同一路不能再打入步兵。（已升变的と金不算。）")
                } else {
                    format!("Two pawns (nifu, 二歩): you already have an unpromoted pawn on file {file}, and a second may not be dropped on the same file. (A promoted pawn, a tokin, does not count.)")
                }
            }
            Illegal::PawnDropMate { to } => {
                if zh {
                    format!("打步诘（打ち歩詰め）：在 {to} 打入步兵会立刻将死对方，这是犯规的。打入步兵王手而不将死（打步将）是允许的，走动步兵将死也是允许的。")
                } else {
                    format!("Pawn-drop mate (uchifuzume, 打ち歩詰め): dropping a pawn on {to} would checkmate at once, which is forbidden. A pawn drop that only gives check is allowed, and so is mating with a pawn that moves.")
                }
            }
            Illegal::DeadDrop { kind, to } => {
                if zh {
                    format!(
                        "{}打在 {to} 以后就再也不能走动了（行き所のない駒），所以不能打在那里：步兵和香车不能打在敌阵最底的一行，桂马不能打在最底的两行。",
                        kind.name(lang)
                    )
                } else {
                    format!(
                        "A {} dropped on {to} could never move again, so it may not be dropped there: a pawn or lance never on the last rank, a knight never on the last two.",
                        kind.name(lang)
                    )
                }
            }
            Illegal::PromotionOutsideZone { from, to } => {
                if zh {
                    format!("只有走进、走出或在敌阵（对方一侧的三行）之内走动时才能升变（成）。{from} 和 {to} 都不在敌阵里。")
                } else {
                    format!("A piece may promote only when its move starts or ends in the promotion zone (the three ranks on the far side). Neither {from} nor {to} is in the zone.")
                }
            }
            Illegal::PromotionRequired { kind, to } => {
                if zh {
                    format!(
                        "{}走到 {to} 以后如果不升变，就再也不能走动了，所以这里必须升变（成）：在着法后面加 +。",
                        kind.name(lang)
                    )
                } else {
                    format!(
                        "A {} on {to} could never move again unless it promotes, so here it must promote: add + to the move.",
                        kind.name(lang)
                    )
                }
            }
            Illegal::CannotPromote { kind } => {
                if kind.is_promoted() {
                    if zh {
                        format!("{}已经升变过了，不能再升变。", kind.name(lang))
                    } else {
                        format!(
                            "A {} is already promoted and cannot promote again.",
                            kind.name(lang)
                        )
                    }
                } else if zh {
                    format!("{}不能升变：王将和金将没有升变。", kind.name(lang))
                } else {
                    format!(
                        "A {} cannot promote: kings and golds never promote.",
                        kind.name(lang)
                    )
                }
            }
            Illegal::GameOver => {
                if zh {
                    "对局已经结束，不能再走棋了。".to_string()
                } else {
                    "The game is over; no more moves may be played.".to_string()
                }
            }
        }
    }
}

impl fmt::Display for Illegal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Illegal::NotAMove(t) => write!(f, "not a move: `{t}`"),
            Illegal::NoPiece { from } => write!(f, "no piece on {from}"),
            Illegal::NotYourPiece { from } => write!(f, "the piece on {from} is not yours"),
            Illegal::OwnPieceOnTarget { to } => write!(f, "own piece on {to}"),
            Illegal::CannotMoveThatWay { kind, from, to } => {
                write!(f, "a {kind} cannot move from {from} to {to}")
            }
            Illegal::PathBlocked { kind, from, to, by } => {
                write!(
                    f,
                    "the {kind}'s path from {from} to {to} is blocked on {by}"
                )
            }
            Illegal::LeavesKingInCheck {
                attacker: (kind, sq),
            } => write!(f, "leaves the king in check from the {kind} on {sq}"),
            Illegal::NotInHand { kind } => write!(f, "no {kind} in hand"),
            Illegal::DropOccupied { to } => write!(f, "drop on occupied square {to}"),
            Illegal::DropPromoted => f.write_str("dropped pieces are unpromoted"),
            Illegal::TwoPawns { file } => write!(f, "two pawns on file {file} (nifu)"),
            Illegal::PawnDropMate { to } => {
                write!(f, "pawn drop on {to} mates (uchifuzume)")
            }
            Illegal::DeadDrop { kind, to } => write!(f, "a {kind} on {to} could never move"),
            Illegal::PromotionOutsideZone { from, to } => {
                write!(f, "promotion outside the zone: {from} to {to}")
            }
            Illegal::PromotionRequired { kind, to } => {
                write!(f, "a {kind} on {to} must promote")
            }
            Illegal::CannotPromote { kind } => write!(f, "a {kind} cannot promote"),
            Illegal::GameOver => f.write_str("the game is over"),
        }
    }
}

impl std::error::Error for Illegal {}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// 詰み: the side to move has no legal move and loses. In shogi this is a loss even
    /// when the king is not in check.
    Checkmate { winner: Color },
    /// 千日手: the same position (board, hands, side to move) arose four times; a draw.
    Repetition,
    /// 連続王手の千日手: the position arose four times while one side gave check with
    /// every move of the cycle; that side loses.
    PerpetualCheck { loser: Color },
}

impl Outcome {
    /// The winner, if the game has one.
    pub fn winner(&self) -> Option<Color> {
        match *self {
            Outcome::Checkmate { winner } => Some(winner),
            Outcome::Repetition => None,
            Outcome::PerpetualCheck { loser } => Some(loser.opponent()),
        }
    }

    /// A sentence for the learner, in `lang`.
    pub fn explain(&self, lang: Lang) -> String {
        let zh = lang == Lang::Zh;
        match *self {
            Outcome::Checkmate { winner } => {
                let loser = winner.opponent();
                if zh {
                    format!(
                        "{}已经无路可走：被将死（诘み），{}获胜。",
                        loser.name(lang),
                        winner.name(lang)
                    )
                } else {
                    format!(
                        "{} has no legal move left: checkmate (tsumi, 詰み). {} wins.",
                        loser.name(lang),
                        winner.name(lang)
                    )
                }
            }
            Outcome::Repetition => {
                if zh {
                    "千日手：同一局面（棋盘、双方持驹和轮到谁走都相同）出现了四次，本局和棋。"
                        .to_string()
                } else {
                    "Repetition (sennichite, 千日手): the same position, with the same hands and the same side to move, has arisen four times. The game is a draw.".to_string()
                }
            }
            Outcome::PerpetualCheck { loser } => {
                if zh {
                    format!(
                        "连续王手的千日手：同一局面出现了四次，而{}的每一步都是王手。长将的一方判负，{}获胜。",
                        loser.name(lang),
                        loser.opponent().name(lang)
                    )
                } else {
                    format!(
                        "Perpetual check (連続王手の千日手): the same position has arisen four times while {} gave check with every move. The checking side loses; {} wins.",
                        loser.name(lang),
                        loser.opponent().name(lang)
                    )
                }
            }
        }
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Outcome::Checkmate { winner } => write!(f, "checkmate: {} wins", winner.as_str()),
            Outcome::Repetition => f.write_str("draw by repetition (sennichite)"),
            Outcome::PerpetualCheck { loser } => {
                write!(f, "perpetual check: {} loses", loser.as_str())
            }
        }
    }
}

#[cfg(test)]
mod kanji_tests {
    use super::kanji_squares;

    #[test]
    fn squares_alone_take_the_boards_kanji() {
        assert_eq!(kanji_squares("在 1b 打入步兵"), "在 1二 打入步兵");
        assert_eq!(kanji_squares("从 7g 走到 7f。"), "从 7七 走到 7六。");
        assert_eq!(kanji_squares("写作 7g7f，如 8h2b+；P*5e"), "写作 7g7f，如 8h2b+；P*5e");
    }
}

