//! Why a xiangqi move is refused, and how the game ended, in words for a learner.

use super::types::{Color, Kind, Point};
use crate::lang::Lang;
use std::fmt;

/// Why a move is refused. Each variant is one rule a learner can be told about, with the
/// points and pieces needed to explain it.
///
/// [`Position::play`](super::Position::play) looks for the cause the way a teacher would:
/// first whether the text is a move at all, then the piece, its way of moving and what
/// stands in its way, and last whether the move exposes its own king (照面 or check).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Illegal {
    /// The text is not a move in ICCS (`h2e2`), WXF (`C2=5`) or Chinese notation (炮二平五).
    NotAMove(String),
    /// There is no piece on the point the move starts from.
    NoPiece { from: Point },
    /// The piece on `from` belongs to the other side.
    NotYourPiece { from: Point },
    /// One of your own pieces stands on the point moved to.
    OwnPieceOnTarget { to: Point },
    /// The piece does not move that way (wrong direction or distance).
    CannotMoveThatWay {
        color: Color,
        kind: Kind,
        from: Point,
        to: Point,
    },
    /// The king or an advisor would leave its palace (九宫).
    LeavesPalace { color: Color, kind: Kind, to: Point },
    /// The elephant would cross the river (象不过河).
    ElephantCrossesRiver {
        color: Color,
        from: Point,
        to: Point,
    },
    /// 塞象眼: the point between the elephant and its target (the eye) is occupied.
    ElephantEyeBlocked {
        color: Color,
        from: Point,
        to: Point,
        eye: Point,
    },
    /// 蹩马腿: the point next to the horse on the long side of its jump (the leg) is occupied.
    HorseLegBlocked { from: Point, to: Point, leg: Point },
    /// A chariot, or a cannon moving without capturing, would pass over the piece on `by`.
    PathBlocked {
        kind: Kind,
        from: Point,
        to: Point,
        by: Point,
    },
    /// A cannon captures only by jumping exactly one piece (炮架, the screen); here it
    /// would jump `screens` (none, or more than one).
    CannonScreen {
        from: Point,
        to: Point,
        screens: Vec<Point>,
    },
    /// A soldier never moves backward.
    PawnBackward {
        color: Color,
        from: Point,
        to: Point,
    },
    /// A soldier moves sideways only once it has crossed the river.
    PawnSidewaysBeforeRiver {
        color: Color,
        from: Point,
        to: Point,
    },
    /// 将帅照面: after the move the two kings would stand on one file with nothing between.
    KingsFace { red: Point, black: Point },
    /// After the move the piece named would attack your king (将军).
    LeavesKingInCheck { attacker: (Color, Kind, Point) },
    /// The written move names a piece you do not have there (炮二平五 with no cannon on
    /// file 二).
    NoPieceToMove { text: String },
    /// The written move fits more than one of your pieces; say which (前/后, `+`/`-`).
    Ambiguous { text: String },
    /// The piece named cannot make the move written (an advisor moving sideways, a horse
    /// reaching a file three away).
    NoSuchMove { text: String },
    /// The game is over (将死, 困毙, 长将): no move may be played.
    GameOver,
}

impl Illegal {
    /// A sentence or two for the learner, in `lang`.
    pub fn explain(&self, lang: Lang) -> String {
        let zh = lang == Lang::Zh;
        match self {
            Illegal::NotAMove(text) => {
                if zh {
                    format!("“{text}”不是着法的写法。可以写中文记谱（炮二平五、马8进7），也可以写 ICCS 坐标（h2e2：从 h2 走到 e2）或 WXF 记法（C2=5）。")
                } else {
                    format!("\"{text}\" is not a move. Write it in ICCS coordinates (h2e2: from h2 to e2), in WXF notation (C2=5), or in Chinese notation (炮二平五).")
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
                    format!("{from} 上是对方的棋子，只能走自己的棋子。")
                } else {
                    format!("The piece on {from} belongs to your opponent. You may move only your own pieces.")
                }
            }
            Illegal::OwnPieceOnTarget { to } => {
                if zh {
                    format!("{to} 上是你自己的棋子，不能吃自己的子。")
                } else {
                    format!("Your own piece stands on {to}; you cannot capture your own piece.")
                }
            }
            Illegal::CannotMoveThatWay {
                color,
                kind,
                from,
                to,
            } => {
                let name = kind.name(*color, lang);
                if zh {
                    format!(
                        "{name}不能从 {from} 走到 {to}。{}",
                        movement(*kind, *color, lang)
                    )
                } else {
                    format!(
                        "A {name} cannot go from {from} to {to}. {}",
                        movement(*kind, *color, lang)
                    )
                }
            }
            Illegal::LeavesPalace { color, kind, to } => {
                let name = kind.name(*color, lang);
                if zh {
                    format!("{name}不能走出九宫，{to} 在九宫之外。九宫是底线中间的 3×3 个交叉点（画有斜线的地方）。")
                } else {
                    format!("The {name} may not leave its palace, and {to} is outside it. The palace is the 3×3 points marked with a cross at the middle of your back ranks.")
                }
            }
            Illegal::ElephantCrossesRiver { color, from, to } => {
                let name = Kind::Elephant.name(*color, lang);
                if zh {
                    format!("{name}不能过河：从 {from} 走到 {to} 就过了河界。{name}只能在自己一方的五行里活动，是防守的棋子。")
                } else {
                    format!("An elephant never crosses the river: {from} to {to} would take it to the other side. It stays on your own five ranks and defends.")
                }
            }
            Illegal::ElephantEyeBlocked {
                color,
                from,
                to,
                eye,
            } => {
                let name = Kind::Elephant.name(*color, lang);
                if zh {
                    format!("塞象眼：{name}从 {from} 走到 {to} 要经过“田”字中心 {eye}，而 {eye} 上有棋子，象眼被塞住了，这步不能走。")
                } else {
                    format!("The elephant's eye is blocked (塞象眼): going from {from} to {to} it passes the middle point {eye}, and a piece stands there.")
                }
            }
            Illegal::HorseLegBlocked { from, to, leg } => {
                if zh {
                    format!("蹩马腿：马从 {from} 跳到 {to} 要先经过 {leg}（马腿），而 {leg} 上有棋子挡住，所以不能跳。马走“日”字：先直走一步，再斜走一步；直走的那一点被占就走不了。")
                } else {
                    format!("The horse's leg is blocked at {leg} (蹩马腿): to jump from {from} to {to} the horse first passes {leg}, and a piece stands there. A horse moves one point straight, then one diagonally outward; if that first point is occupied, it cannot go.")
                }
            }
            Illegal::PathBlocked { kind, from, to, by } => {
                let name = kind.name(Color::Red, lang);
                let cannon = *kind == Kind::Cannon;
                if zh {
                    let tail = if cannon {
                        "炮不吃子时和车一样走，不能越过棋子；只有吃子时才隔一个子（炮架）打过去。"
                    } else {
                        "车只能直走，不能越过棋子。"
                    };
                    format!("{name}从 {from} 走到 {to} 要经过 {by}，而 {by} 上有棋子挡住了。{tail}")
                } else {
                    let tail = if cannon {
                        "A cannon that does not capture moves like a chariot and cannot jump; it jumps one piece (its screen) only to capture."
                    } else {
                        "A chariot cannot jump over pieces."
                    };
                    format!("The {name} would pass over {by} on its way from {from} to {to}, but a piece stands there. {tail}")
                }
            }
            Illegal::CannonScreen { from, to, screens } => {
                let list = screens
                    .iter()
                    .map(|p| p.to_string())
                    .collect::<Vec<_>>()
                    .join(if zh { "、" } else { ", " });
                match (screens.len(), zh) {
                    (0, true) => format!("炮吃子必须隔一个子（炮架）。从 {from} 到 {to} 之间没有棋子，所以不能吃 {to} 上的子。"),
                    (0, false) => format!("A cannon captures only by jumping exactly one piece (its screen). There is no piece between {from} and {to}, so it cannot capture on {to}."),
                    (n, true) => format!("炮吃子只能隔一个子（炮架）。从 {from} 到 {to} 之间有 {n} 个子（{list}），不能吃 {to} 上的子。"),
                    (n, false) => format!("A cannon captures by jumping exactly one piece (its screen). Between {from} and {to} there are {n} pieces ({list}), so it cannot capture on {to}."),
                }
            }
            Illegal::PawnBackward { color, from, to } => {
                let name = Kind::Pawn.name(*color, lang);
                if zh {
                    format!(
                        "{name}不能后退：从 {from} 到 {to} 是往回走。{}",
                        movement(Kind::Pawn, *color, lang)
                    )
                } else {
                    format!(
                        "A soldier never moves backward, and {from} to {to} goes back. {}",
                        movement(Kind::Pawn, *color, lang)
                    )
                }
            }
            Illegal::PawnSidewaysBeforeRiver { color, from, to } => {
                let name = Kind::Pawn.name(*color, lang);
                if zh {
                    format!("{name}还没有过河，不能横走（{from} 到 {to}）。过河以前只能向前走一步；过了河才可以向左或向右走一步。")
                } else {
                    format!("This soldier has not crossed the river yet, so it cannot move sideways ({from} to {to}). Before the river it only steps forward; once across it may also step left or right.")
                }
            }
            Illegal::KingsFace { red, black } => {
                if zh {
                    format!("将帅不能照面：走了这步以后，{red} 的帅和 {black} 的将在同一条直线上，中间没有任何棋子隔开，这是不允许的。")
                } else {
                    format!("The kings may not face each other (将帅照面): after this move the red king on {red} and the black king on {black} would stand on one file with nothing between them.")
                }
            }
            Illegal::LeavesKingInCheck {
                attacker: (color, kind, at),
            } => {
                let name = kind.name(*color, lang);
                if zh {
                    format!("走了这步以后，你的{}会被对方 {at} 的{name}将军。不能让自己的将（帅）被攻击：被将军时必须应将，也不能把挡在将前面的子走开。", Kind::King.name(color.opponent(), lang))
                } else {
                    format!("After this move your king would be attacked by the {name} on {at} (in check). No move may leave your own king in check: answer a check, and do not move away a piece that shields your king.")
                }
            }
            Illegal::NoPieceToMove { text } => {
                if zh {
                    format!("“{text}”说的那个棋子不存在：那条直线上没有你的这种棋子。记谱时路数从自己的右边数起：红方一到九，黑方1到9。")
                } else {
                    format!("\"{text}\" names a piece you do not have on that file. Files are counted from the mover's own right: 1 to 9 for each side.")
                }
            }
            Illegal::Ambiguous { text } => {
                if zh {
                    format!("“{text}”可以指不止一个棋子。同一条直线上有两个相同的棋子时，用“前”“后”（WXF 用 + 和 -）说明走哪一个，例如“前炮平五”。")
                } else {
                    format!("\"{text}\" could mean more than one of your pieces. When two of a kind stand on one file, say which with front/rear: 前/后 in Chinese, + or - in WXF (C+=5).")
                }
            }
            Illegal::NoSuchMove { text } => {
                if zh {
                    format!("“{text}”这步棋那个棋子走不出来。仕、相、马走斜线，记谱的最后一个数字是到达的路数；车、炮、兵、帅进退时，最后一个数字是走的步数。")
                } else {
                    format!("The piece named cannot make the move \"{text}\". For an advisor, elephant or horse the last number is the file it lands on; for a chariot, cannon, soldier or king moving forward or back it is the number of points moved.")
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

/// How a kind of piece moves, in a sentence.
fn movement(kind: Kind, color: Color, lang: Lang) -> String {
    let zh = lang == Lang::Zh;
    let name = kind.name(color, lang);
    match (kind, zh) {
        (Kind::King, true) => format!("{name}每次沿直线（横或竖）走一步，不能走出九宫。"),
        (Kind::King, false) => "A king moves one point along a line (not diagonally) and stays in its palace.".into(),
        (Kind::Advisor, true) => format!("{name}每次沿九宫的斜线走一步，不能走出九宫。"),
        (Kind::Advisor, false) => "An advisor moves one point diagonally and stays in its palace.".into(),
        (Kind::Elephant, true) => format!("{name}走“田”字：斜着走两步，不能过河。"),
        (Kind::Elephant, false) => "An elephant moves exactly two points diagonally and never crosses the river.".into(),
        (Kind::Horse, true) => "马走“日”字：先直走一步，再向外斜走一步。".into(),
        (Kind::Horse, false) => "A horse moves one point straight and then one diagonally outward (like a chess knight, but it can be blocked).".into(),
        (Kind::Rook, true) => "车沿直线（横或竖）走，步数不限，不能越子。".into(),
        (Kind::Rook, false) => "A chariot moves any distance along a line (file or rank) and cannot jump.".into(),
        (Kind::Cannon, true) => "炮不吃子时和车一样沿直线走；吃子时必须隔一个子（炮架）。".into(),
        (Kind::Cannon, false) => "A cannon moves like a chariot; to capture it must jump exactly one piece.".into(),
        (Kind::Pawn, true) => format!("{name}每次只走一步：没过河只能向前，过了河可以向前或横走，永远不能后退。"),
        (Kind::Pawn, false) => "A soldier moves one point: forward only before the river, forward or sideways after it, never back.".into(),
    }
}

impl fmt::Display for Illegal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Illegal::NotAMove(t) => write!(f, "not a move: `{t}`"),
            Illegal::NoPiece { from } => write!(f, "no piece on {from}"),
            Illegal::NotYourPiece { from } => write!(f, "the piece on {from} is not yours"),
            Illegal::OwnPieceOnTarget { to } => write!(f, "own piece on {to}"),
            Illegal::CannotMoveThatWay { kind, from, to, .. } => {
                write!(f, "a {kind} cannot move from {from} to {to}")
            }
            Illegal::LeavesPalace { kind, to, .. } => {
                write!(f, "the {kind} cannot leave the palace for {to}")
            }
            Illegal::ElephantCrossesRiver { from, to, .. } => {
                write!(f, "the elephant cannot cross the river ({from} to {to})")
            }
            Illegal::ElephantEyeBlocked { eye, .. } => {
                write!(f, "the elephant's eye is blocked at {eye}")
            }
            Illegal::HorseLegBlocked { leg, .. } => {
                write!(f, "the horse's leg is blocked at {leg}")
            }
            Illegal::PathBlocked { kind, from, to, by } => {
                write!(
                    f,
                    "the {kind}'s path from {from} to {to} is blocked on {by}"
                )
            }
            Illegal::CannonScreen { from, to, screens } => write!(
                f,
                "the cannon needs exactly one screen from {from} to {to}, not {}",
                screens.len()
            ),
            Illegal::PawnBackward { from, to, .. } => {
                write!(f, "a soldier cannot retreat ({from} to {to})")
            }
            Illegal::PawnSidewaysBeforeRiver { from, to, .. } => {
                write!(
                    f,
                    "a soldier cannot move sideways before the river ({from} to {to})"
                )
            }
            Illegal::KingsFace { red, black } => {
                write!(f, "the kings would face each other ({red}, {black})")
            }
            Illegal::LeavesKingInCheck {
                attacker: (_, kind, at),
            } => write!(f, "leaves the king in check from the {kind} on {at}"),
            Illegal::NoPieceToMove { text } => write!(f, "no such piece to move: `{text}`"),
            Illegal::Ambiguous { text } => write!(f, "ambiguous move: `{text}`"),
            Illegal::NoSuchMove { text } => write!(f, "the piece cannot make the move `{text}`"),
            Illegal::GameOver => f.write_str("the game is over"),
        }
    }
}

impl std::error::Error for Illegal {}

impl crate::rules::Explain for Illegal {
    fn explain(&self, lang: Lang) -> String {
        Illegal::explain(self, lang)
    }
}

impl crate::rules::Explain for Outcome {
    fn explain(&self, lang: Lang) -> String {
        Outcome::explain(self, lang)
    }
}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// 将死: the side to move is in check and has no legal move; it loses.
    Checkmate { winner: Color },
    /// 困毙: the side to move is not in check but has no legal move; in xiangqi it loses.
    Stalemate { winner: Color },
    /// 长将判负: the position arose a third time while one side (and only one) gave check
    /// with every move since its first occurrence; that side loses.
    PerpetualCheck { loser: Color },
    /// The position arose a third time with no one-sided perpetual check: a draw under
    /// the rules this engine covers (the chasing rules, 长捉, are not judged).
    Repetition,
}

impl Outcome {
    /// The winner, if the game has one.
    pub fn winner(&self) -> Option<Color> {
        match *self {
            Outcome::Checkmate { winner } | Outcome::Stalemate { winner } => Some(winner),
            Outcome::PerpetualCheck { loser } => Some(loser.opponent()),
            Outcome::Repetition => None,
        }
    }

    /// A sentence for the learner, in `lang`.
    pub fn explain(&self, lang: Lang) -> String {
        let zh = lang == Lang::Zh;
        match *self {
            Outcome::Checkmate { winner } => {
                let (w, l) = (winner.name(lang), winner.opponent().name(lang));
                if zh {
                    format!("{l}被将军，而且无论怎么走都解不了将：被将死，{w}获胜。")
                } else {
                    format!("{l} is in check and no move gets out of it: checkmate. {w} wins.")
                }
            }
            Outcome::Stalemate { winner } => {
                let (w, l) = (winner.name(lang), winner.opponent().name(lang));
                if zh {
                    format!(
                        "{l}没有被将军，但已经无子可走：困毙。象棋里无子可走的一方判负，{w}获胜。"
                    )
                } else {
                    format!("{l} is not in check but has no legal move: stalemate (困毙). In xiangqi the side that cannot move loses; {w} wins.")
                }
            }
            Outcome::PerpetualCheck { loser } => {
                let (l, w) = (loser.name(lang), loser.opponent().name(lang));
                if zh {
                    format!("长将判负：同一局面第三次出现，而{l}在这期间每一步都在将军。一方长将、另一方没有长将时，长将的一方判负，{w}获胜。")
                } else {
                    format!("Perpetual check loses (长将判负): the same position has arisen a third time while {l} gave check with every move. The side that checks perpetually loses; {w} wins.")
                }
            }
            Outcome::Repetition => {
                if zh {
                    "同一局面第三次出现，双方都没有单方面长将：按本程序判定的规则作和。（长捉等规则本程序不判。）".to_string()
                } else {
                    "The same position has arisen a third time and neither side alone checked perpetually: a draw under the rules this program judges (it does not judge perpetual chasing, 长捉).".to_string()
                }
            }
        }
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Outcome::Checkmate { winner } => write!(f, "checkmate: {} wins", winner.as_str()),
            Outcome::Stalemate { winner } => {
                write!(f, "stalemate: {} wins", winner.as_str())
            }
            Outcome::PerpetualCheck { loser } => {
                write!(f, "perpetual check: {} loses", loser.as_str())
            }
            Outcome::Repetition => f.write_str("draw by repetition"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(s: &str) -> Point {
        Point::parse(s).unwrap()
    }

    #[test]
    fn every_reason_names_its_points_in_both_languages() {
        let (a, b, c) = (p("h0"), p("g2"), p("h1"));
        let red = Color::Red;
        let cases: Vec<(Illegal, Vec<Point>)> = vec![
            (Illegal::NoPiece { from: a }, vec![a]),
            (Illegal::NotYourPiece { from: a }, vec![a]),
            (Illegal::OwnPieceOnTarget { to: b }, vec![b]),
            (
                Illegal::CannotMoveThatWay {
                    color: red,
                    kind: Kind::Advisor,
                    from: a,
                    to: b,
                },
                vec![a, b],
            ),
            (
                Illegal::LeavesPalace {
                    color: red,
                    kind: Kind::King,
                    to: b,
                },
                vec![b],
            ),
            (
                Illegal::ElephantCrossesRiver {
                    color: red,
                    from: a,
                    to: b,
                },
                vec![a, b],
            ),
            (
                Illegal::ElephantEyeBlocked {
                    color: red,
                    from: a,
                    to: b,
                    eye: c,
                },
                vec![c],
            ),
            (
                Illegal::HorseLegBlocked {
                    from: a,
                    to: b,
                    leg: c,
                },
                vec![a, b, c],
            ),
            (
                Illegal::PathBlocked {
                    kind: Kind::Rook,
                    from: a,
                    to: b,
                    by: c,
                },
                vec![c],
            ),
            (
                Illegal::CannonScreen {
                    from: a,
                    to: b,
                    screens: vec![c, p("h5")],
                },
                vec![a, b, c],
            ),
            (
                Illegal::PawnBackward {
                    color: red,
                    from: a,
                    to: b,
                },
                vec![a, b],
            ),
            (
                Illegal::PawnSidewaysBeforeRiver {
                    color: red,
                    from: a,
                    to: b,
                },
                vec![a, b],
            ),
            (
                Illegal::KingsFace {
                    red: p("e0"),
                    black: p("e9"),
                },
                vec![p("e0"), p("e9")],
            ),
            (
                Illegal::LeavesKingInCheck {
                    attacker: (Color::Black, Kind::Cannon, c),
                },
                vec![c],
            ),
        ];
        for (err, points) in cases {
            let display = err.to_string();
            assert!(display.chars().next().unwrap().is_lowercase(), "{display}");
            for lang in [Lang::Zh, Lang::En] {
                let text = err.explain(lang);
                for pt in &points {
                    assert!(text.contains(&pt.to_string()), "{lang:?}: {text}");
                }
            }
        }
        let leg = Illegal::HorseLegBlocked {
            from: a,
            to: b,
            leg: c,
        };
        assert!(leg.explain(Lang::Zh).contains("蹩马腿"));
        assert!(Illegal::ElephantEyeBlocked {
            color: red,
            from: a,
            to: b,
            eye: c
        }
        .explain(Lang::Zh)
        .contains("塞象眼"));
        let check = Illegal::LeavesKingInCheck {
            attacker: (Color::Black, Kind::Cannon, c),
        };
        assert!(
            check.explain(Lang::Zh).contains("炮") && check.explain(Lang::En).contains("cannon")
        );
        assert!(Outcome::Stalemate { winner: red }
            .explain(Lang::Zh)
            .contains("困毙"));
        assert!(Outcome::PerpetualCheck { loser: red }
            .explain(Lang::Zh)
            .contains("长将"));
    }
}
