//! Reading a move the learner typed or dragged, and, when it is illegal, finding the reason
//! a teacher would give, in the order a teacher would check it.

use super::{color_name, role_name, square_name, CastlingSide, Color, Role, Square};
use crate::lang::Lang;
use shakmaty::san::San;
use shakmaty::{attacks, Bitboard, CastlingMode, Chess, File, Move, MoveList, Position as _, Rank};
use std::fmt;

/// Why castling is refused: which of its conditions (FIDE 3.8.2) fails.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CastlingRefused {
    /// The king has moved (the position has no castling rights left for this side).
    KingMoved,
    /// The rook of that side has moved (castling to the other side is still allowed).
    RookMoved {
        /// Which castling.
        side: CastlingSide,
    },
    /// There is no rook in that corner at all.
    NoRook {
        /// Which castling.
        side: CastlingSide,
    },
    /// A piece stands between the king and the rook.
    PiecesBetween {
        /// The occupied square nearest the king.
        square: Square,
    },
    /// The king is in check.
    InCheck {
        /// A checking piece and its square.
        by: (Role, Square),
    },
    /// The king would cross a square the opponent attacks.
    PassesThroughAttacked {
        /// The square crossed.
        square: Square,
        /// A piece attacking it and its square.
        by: (Role, Square),
    },
    /// The king would land on a square the opponent attacks.
    LandsOnAttacked {
        /// The king's destination.
        square: Square,
        /// A piece attacking it and its square.
        by: (Role, Square),
    },
}

/// Why a move is refused. Each variant is one rule a learner can be told about, with the
/// squares and pieces needed to say it.
///
/// ```
/// use qiyuan::lang::Lang;
/// use qiyuan::rules::chess::{parse_square, Illegal, Position, Role};
/// //  . . . . k . . .     8
/// //  . . . . r . . .     7   the black rook on e7 pins
/// //  . . . . . . . .     6
/// //  . . . . . . . .     5
/// //  . . . . . . . .     4
/// //  . . . . . . . .     3
/// //  . . . . N . . .     2   the white knight on e2
/// //  . . . . K . . .     1   to the white king
/// let pos = Position::from_fen("4k3/4r3/8/8/8/8/4N3/4K3 w - - 0 1").unwrap();
/// let err = pos.play("Nf4").unwrap_err();
/// let e7 = parse_square("e7").unwrap();
/// assert_eq!(err, Illegal::LeavesKingInCheck { attacker: (Role::Rook, e7) });
/// assert!(err.explain(Lang::En).contains("rook on e7"));
/// assert!(err.explain(Lang::Zh).contains("e7"));
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Illegal {
    /// The text is neither SAN nor UCI.
    NotAMove(String),
    /// There is no piece on the from-square.
    NoPiece {
        /// The empty square.
        from: Square,
    },
    /// The piece on the from-square belongs to the other side.
    NotYourPiece {
        /// Its square.
        from: Square,
        /// The side to move.
        turn: Color,
    },
    /// One of the mover's own pieces is on the target square.
    OwnPieceOnTarget {
        /// The target square.
        to: Square,
    },
    /// The piece does not move like that.
    CannotMoveThatWay {
        /// The piece.
        role: Role,
        /// From.
        from: Square,
        /// To.
        to: Square,
    },
    /// A pawn tried to capture (or push onto a piece) straight ahead.
    PawnCannotCaptureForward {
        /// The pawn's square.
        from: Square,
        /// The occupied square ahead.
        to: Square,
    },
    /// A pawn tried to move diagonally to a square with nothing to capture.
    PawnDiagonalNeedsCapture {
        /// The pawn's square.
        from: Square,
        /// The empty square.
        to: Square,
    },
    /// A pawn tried to advance two squares after leaving its starting square.
    PawnDoubleStepNotFromStart {
        /// The pawn's square.
        from: Square,
        /// Two squares ahead.
        to: Square,
    },
    /// A piece stands in the way of a rook, bishop, queen or a pawn's two-square advance.
    PathBlocked {
        /// The moving piece.
        role: Role,
        /// From.
        from: Square,
        /// To.
        to: Square,
        /// The blocking piece's square (the nearest to `from`).
        by: Square,
    },
    /// The king would step onto a square the opponent attacks.
    KingIntoCheck {
        /// The king's destination.
        to: Square,
        /// A piece attacking it and its square.
        attacker: (Role, Square),
    },
    /// The move exposes the mover's king to check (the piece is pinned).
    LeavesKingInCheck {
        /// The piece that would give check and its square.
        attacker: (Role, Square),
    },
    /// The king is in check and the move does not get it out of check.
    InCheck {
        /// A piece giving check and its square.
        attacker: (Role, Square),
    },
    /// An en-passant capture that uncovers the mover's king: the pawn it would take was
    /// shielding the king (on its own, or together with the capturing pawn when both stand
    /// on the king's rank between it and a rook or queen).
    EnPassantUncoversKing {
        /// The square the capturing pawn would move to.
        to: Square,
        /// The square of the pawn it would take.
        captured: Square,
        /// The capturing pawn's square, when it stood in the line of fire too.
        own_pawn: Option<Square>,
        /// The piece that would give check and its square.
        attacker: (Role, Square),
    },
    /// Castling is not allowed now, and why.
    Castling(CastlingRefused),
    /// An en-passant capture that is no longer (or never was) available: it is allowed only
    /// on the move right after the enemy pawn's two-square advance.
    EnPassantGone {
        /// The square the capturing pawn would move to.
        to: Square,
    },
    /// A pawn reaching the last rank without saying what it promotes to.
    PromotionRequired {
        /// The promotion square.
        to: Square,
    },
    /// A promotion that cannot be: to a king or a pawn, or by a piece that is not a pawn
    /// reaching the last rank.
    BadPromotion {
        /// From.
        from: Square,
        /// To.
        to: Square,
        /// The piece asked for.
        role: Role,
    },
    /// SAN that more than one piece can play, such as `Nd2` with knights on b1 and f3.
    AmbiguousSan(String),
    /// SAN naming a kind of piece the player has none of that could play it.
    NoSuchPiece {
        /// The kind of piece named.
        role: Role,
        /// The SAN as typed.
        san: String,
    },
    /// The game is already over: checkmate or stalemate, no move is legal.
    GameOver,
}

fn side_name(side: CastlingSide, lang: Lang) -> &'static str {
    match (lang, side) {
        (Lang::Zh, CastlingSide::KingSide) => "王翼（短易位，O-O）",
        (Lang::Zh, CastlingSide::QueenSide) => "后翼（长易位，O-O-O）",
        (Lang::En, CastlingSide::KingSide) => "kingside (O-O)",
        (Lang::En, CastlingSide::QueenSide) => "queenside (O-O-O)",
    }
}

/// "the rook on e8" / "e8 上的车".
fn piece_on((role, sq): (Role, Square), lang: Lang) -> String {
    match lang {
        Lang::Zh => format!("{} 上的{}", square_name(sq), role_name(role, lang)),
        Lang::En => format!("the {} on {}", role_name(role, lang), square_name(sq)),
    }
}

/// How a kind of piece moves, as a clause.
fn how_it_moves(role: Role, lang: Lang) -> &'static str {
    match (lang, role) {
        (Lang::Zh, Role::King) => "王每步只能向任意方向走一格（王车易位除外）",
        (Lang::Zh, Role::Queen) => "后沿横线、直线或斜线走，格数不限",
        (Lang::Zh, Role::Rook) => "车只能沿横线或直线走，格数不限",
        (Lang::Zh, Role::Bishop) => "象只能沿斜线走，格数不限",
        (Lang::Zh, Role::Knight) => "马走“日”字：向一个方向走两格，再向旁边走一格",
        (Lang::Zh, Role::Pawn) => {
            "兵只能向前直走一格（从原始位置第一步可以走两格），吃子时斜向前一格；兵不能后退，也不能横走"
        }
        (Lang::En, Role::King) => "the king moves one square in any direction (castling aside)",
        (Lang::En, Role::Queen) => {
            "the queen moves any number of squares along a rank, a file or a diagonal"
        }
        (Lang::En, Role::Rook) => "the rook moves any number of squares along a rank or a file",
        (Lang::En, Role::Bishop) => "the bishop moves any number of squares along a diagonal",
        (Lang::En, Role::Knight) => {
            "the knight jumps in an L: two squares in one direction, then one to the side"
        }
        (Lang::En, Role::Pawn) => {
            "a pawn moves straight forward one square (two from its starting square) and captures one square diagonally forward; it never moves backward or sideways"
        }
    }
}

impl CastlingRefused {
    /// The reason as a clause for the learner in `lang`.
    pub fn explain(&self, lang: Lang) -> String {
        let sq = |s: &Square| square_name(*s);
        match (self, lang) {
            (CastlingRefused::KingMoved, Lang::Zh) => {
                "王已经走动过（这个局面中已没有王车易位的权利），走动过的王不能再王车易位。".to_string()
            }
            (CastlingRefused::KingMoved, Lang::En) => {
                "the king has already moved (no castling rights are left in this position), and a king that has moved may not castle.".to_string()
            }
            (CastlingRefused::RookMoved { side }, Lang::Zh) => format!(
                "{}易位用的车已经走动过，只能和没有走动过的车易位。",
                side_name(*side, lang)
            ),
            (CastlingRefused::RookMoved { side }, Lang::En) => format!(
                "the rook for {} castling has already moved; the king may castle only with a rook that has not moved.",
                side_name(*side, lang)
            ),
            (CastlingRefused::NoRook { side }, Lang::Zh) => {
                format!("{}易位用的车已经不在原来的角上了。", side_name(*side, lang))
            }
            (CastlingRefused::NoRook { side }, Lang::En) => format!(
                "there is no rook in its corner for {} castling.",
                side_name(*side, lang)
            ),
            (CastlingRefused::PiecesBetween { square }, Lang::Zh) => format!(
                "王和车之间的 {} 上有棋子；王车易位时，王和车之间的格子必须都是空的。",
                sq(square)
            ),
            (CastlingRefused::PiecesBetween { square }, Lang::En) => format!(
                "there is a piece on {}, between the king and the rook; all the squares between them must be empty.",
                sq(square)
            ),
            (CastlingRefused::InCheck { by }, Lang::Zh) => format!(
                "王正被 {}将军；被将军时不能用王车易位来躲避。",
                piece_on(*by, lang)
            ),
            (CastlingRefused::InCheck { by }, Lang::En) => format!(
                "your king is in check from {}; you may not castle out of check.",
                piece_on(*by, lang)
            ),
            (CastlingRefused::PassesThroughAttacked { square, by }, Lang::Zh) => format!(
                "王要经过的 {} 受到 {}的攻击；王车易位时，王不能经过被对方攻击的格子。",
                sq(square),
                piece_on(*by, lang)
            ),
            (CastlingRefused::PassesThroughAttacked { square, by }, Lang::En) => format!(
                "the king would pass through {}, which {} attacks; the king may not cross an attacked square when castling.",
                sq(square),
                piece_on(*by, lang)
            ),
            (CastlingRefused::LandsOnAttacked { square, by }, Lang::Zh) => format!(
                "王要到达的 {} 受到 {}的攻击，易位后王会被将军。",
                sq(square),
                piece_on(*by, lang)
            ),
            (CastlingRefused::LandsOnAttacked { square, by }, Lang::En) => format!(
                "the king would land on {}, which {} attacks, so it would be in check.",
                sq(square),
                piece_on(*by, lang)
            ),
        }
    }
}

impl fmt::Display for CastlingRefused {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = |(role, sq): (Role, Square)| format!("{} on {sq}", role_name(role, Lang::En));
        let side = |s: CastlingSide| match s {
            CastlingSide::KingSide => "kingside",
            CastlingSide::QueenSide => "queenside",
        };
        match self {
            CastlingRefused::KingMoved => f.write_str("the king has moved"),
            CastlingRefused::RookMoved { side: s } => write!(f, "the {} rook has moved", side(*s)),
            CastlingRefused::NoRook { side: s } => {
                write!(f, "no rook for {} castling", side(*s))
            }
            CastlingRefused::PiecesBetween { square } => {
                write!(f, "{square} between king and rook is occupied")
            }
            CastlingRefused::InCheck { by } => {
                write!(f, "the king is in check from the {}", name(*by))
            }
            CastlingRefused::PassesThroughAttacked { square, by } => write!(
                f,
                "the king passes through {square}, attacked by the {}",
                name(*by)
            ),
            CastlingRefused::LandsOnAttacked { square, by } => write!(
                f,
                "the king lands on {square}, attacked by the {}",
                name(*by)
            ),
        }
    }
}

impl Illegal {
    /// A sentence (or two) for the learner in `lang`.
    pub fn explain(&self, lang: Lang) -> String {
        let sq = |s: &Square| square_name(*s);
        let role = |r: &Role| role_name(*r, lang);
        match (self, lang) {
            (Illegal::NotAMove(text), Lang::Zh) => format!(
                "看不懂“{text}”。请用代数记谱法（如 Nf3、exd5、O-O、e8=Q）或起点加终点（如 g1f3、e7e8q）。"
            ),
            (Illegal::NotAMove(text), Lang::En) => format!(
                "“{text}” is not a move. Write it in algebraic notation (Nf3, exd5, O-O, e8=Q) or as the from- and to-squares (g1f3, e7e8q)."
            ),
            (Illegal::NoPiece { from }, Lang::Zh) => format!("{} 上没有棋子。", sq(from)),
            (Illegal::NoPiece { from }, Lang::En) => format!("There is no piece on {}.", sq(from)),
            (Illegal::NotYourPiece { from, turn }, Lang::Zh) => format!(
                "{} 上是{}的棋子，现在轮到{}走棋。",
                sq(from),
                color_name(!*turn, lang),
                color_name(*turn, lang)
            ),
            (Illegal::NotYourPiece { from, turn }, Lang::En) => format!(
                "The piece on {} is {}'s, and it is {}'s move.",
                sq(from),
                color_name(!*turn, lang),
                color_name(*turn, lang)
            ),
            (Illegal::OwnPieceOnTarget { to }, Lang::Zh) => {
                format!("{} 上是你自己的棋子，不能吃自己的棋子。", sq(to))
            }
            (Illegal::OwnPieceOnTarget { to }, Lang::En) => format!(
                "One of your own pieces is on {}, and you cannot capture your own pieces.",
                sq(to)
            ),
            (Illegal::CannotMoveThatWay { role: r, from, to }, Lang::Zh) => format!(
                "{}不能从 {} 走到 {}：{}。",
                role(r),
                sq(from),
                sq(to),
                how_it_moves(*r, lang)
            ),
            (Illegal::CannotMoveThatWay { role: r, from, to }, Lang::En) => format!(
                "The {} cannot move from {} to {}: {}.",
                role(r),
                sq(from),
                sq(to),
                how_it_moves(*r, lang)
            ),
            (Illegal::PawnCannotCaptureForward { to, .. }, Lang::Zh) => format!(
                "兵不能向前吃子：{} 上有棋子，兵被挡住了。兵吃子时要斜向前走一格。",
                sq(to)
            ),
            (Illegal::PawnCannotCaptureForward { to, .. }, Lang::En) => format!(
                "A pawn cannot capture straight ahead: {} is occupied, so the pawn is blocked. Pawns capture one square diagonally forward.",
                sq(to)
            ),
            (Illegal::PawnDiagonalNeedsCapture { to, .. }, Lang::Zh) => format!(
                "兵只有吃子时才能斜着走，而 {} 上没有可以吃的棋子。",
                sq(to)
            ),
            (Illegal::PawnDiagonalNeedsCapture { to, .. }, Lang::En) => format!(
                "A pawn moves diagonally only to capture, and there is nothing to capture on {}.",
                sq(to)
            ),
            (Illegal::PawnDoubleStepNotFromStart { from, .. }, Lang::Zh) => format!(
                "兵只有在原始位置时（第一步）才能向前走两格，{} 上的兵已经离开了原始位置。",
                sq(from)
            ),
            (Illegal::PawnDoubleStepNotFromStart { from, .. }, Lang::En) => format!(
                "A pawn may advance two squares only from its starting square, and the pawn on {} has already left it.",
                sq(from)
            ),
            (
                Illegal::PathBlocked {
                    role: r,
                    from,
                    to,
                    by,
                },
                Lang::Zh,
            ) => format!(
                "{}从 {} 到 {} 的路被 {} 上的棋子挡住了：除了马，棋子都不能越过其他棋子。",
                role(r),
                sq(from),
                sq(to),
                sq(by)
            ),
            (
                Illegal::PathBlocked {
                    role: r,
                    from,
                    to,
                    by,
                },
                Lang::En,
            ) => format!(
                "The {} cannot go from {} to {}: the piece on {} is in the way. Only the knight can jump over pieces.",
                role(r),
                sq(from),
                sq(to),
                sq(by)
            ),
            (Illegal::KingIntoCheck { to, attacker }, Lang::Zh) => format!(
                "王不能走到 {}：那里受到 {}的攻击，王走过去就会被将军。",
                sq(to),
                piece_on(*attacker, lang)
            ),
            (Illegal::KingIntoCheck { to, attacker }, Lang::En) => format!(
                "The king cannot go to {}: {} attacks that square, so the king would be in check.",
                sq(to),
                piece_on(*attacker, lang)
            ),
            (Illegal::LeavesKingInCheck { attacker }, Lang::Zh) => format!(
                "这步棋会让自己的王被 {}将军：这个棋子被牵制了，它挡在王的前面，一走开王就会被将军。",
                piece_on(*attacker, lang)
            ),
            (Illegal::LeavesKingInCheck { attacker }, Lang::En) => format!(
                "This move would leave your king in check from {}: the piece is pinned, shielding the king, and may not step aside.",
                piece_on(*attacker, lang)
            ),
            (Illegal::InCheck { attacker }, Lang::Zh) => format!(
                "你的王正被 {}将军，这步棋没有解除将军。被将军时必须应将：移动王、吃掉将军的棋子，或者挡住将军的路线。",
                piece_on(*attacker, lang)
            ),
            (Illegal::InCheck { attacker }, Lang::En) => format!(
                "Your king is in check from {}, and this move does not get it out of check. In check you must move the king, capture the checking piece, or block the check.",
                piece_on(*attacker, lang)
            ),
            (
                Illegal::EnPassantUncoversKing {
                    to,
                    captured,
                    own_pawn,
                    attacker,
                },
                Lang::Zh,
            ) => {
                let (to, captured, by) = (sq(to), sq(captured), piece_on(*attacker, lang));
                match own_pawn {
                    None => format!(
                        "不能在 {to} 吃过路兵：要吃掉的 {captured} 上的兵正挡在你的王和 {by}之间，吃掉它，你的王就会被将军。"
                    ),
                    Some(from) => format!(
                        "不能在 {to} 吃过路兵：{captured} 上的兵和你 {} 上的兵一起挡在你的王和 {by}之间；吃过路兵会让这两个兵同时离开这条横线，你的王就会被将军。",
                        sq(from)
                    ),
                }
            }
            (
                Illegal::EnPassantUncoversKing {
                    to,
                    captured,
                    own_pawn,
                    attacker,
                },
                Lang::En,
            ) => {
                let (to, captured, by) = (sq(to), sq(captured), piece_on(*attacker, lang));
                match own_pawn {
                    None => format!(
                        "You cannot capture en passant on {to}: the pawn it would take, on {captured}, stands between your king and {by}, and with it gone your king would be in check."
                    ),
                    Some(from) => format!(
                        "You cannot capture en passant on {to}: the pawn on {captured} and your pawn on {} together stand between your king and {by}; the capture takes both off that rank, and your king would be in check.",
                        sq(from)
                    ),
                }
            }
            (Illegal::Castling(why), Lang::Zh) => format!("不能王车易位：{}", why.explain(lang)),
            (Illegal::Castling(why), Lang::En) => format!("You cannot castle: {}", why.explain(lang)),
            (Illegal::EnPassantGone { to }, Lang::Zh) => format!(
                "不能在 {} 吃过路兵：只有当对方的兵从原始位置一步走两格、停在你的兵旁边时，才能在紧接着的下一步吃过路兵，过了这一步就不能再吃了。",
                sq(to)
            ),
            (Illegal::EnPassantGone { to }, Lang::En) => format!(
                "You cannot capture en passant on {}: en passant is allowed only on the very next move after the enemy pawn advanced two squares to stand beside yours.",
                sq(to)
            ),
            (Illegal::PromotionRequired { to }, Lang::Zh) => format!(
                "兵走到底线 {} 时必须升变：请选择后、车、象或马（例如 e8=Q 或 e7e8q）。",
                sq(to)
            ),
            (Illegal::PromotionRequired { to }, Lang::En) => format!(
                "A pawn reaching {} on the last rank must promote: choose a queen, rook, bishop or knight (for example e8=Q or e7e8q).",
                sq(to)
            ),
            (Illegal::BadPromotion { role: r, .. }, Lang::Zh)
                if matches!(r, Role::King | Role::Pawn) =>
            {
                format!("兵不能升变为{}：兵只能升变为后、车、象或马。", role(r))
            }
            (Illegal::BadPromotion { role: r, .. }, Lang::En)
                if matches!(r, Role::King | Role::Pawn) =>
            {
                format!(
                    "A pawn cannot promote to a {}: it promotes to a queen, rook, bishop or knight.",
                    role(r)
                )
            }
            (Illegal::BadPromotion { from, to, .. }, Lang::Zh) => format!(
                "从 {} 到 {} 不能升变：只有走到底线的兵才能升变。",
                sq(from),
                sq(to)
            ),
            (Illegal::BadPromotion { from, to, .. }, Lang::En) => format!(
                "There is no promotion from {} to {}: only a pawn reaching the last rank promotes.",
                sq(from),
                sq(to)
            ),
            (Illegal::AmbiguousSan(text), Lang::Zh) => format!(
                "“{text}”不明确：有不止一个棋子可以走到那里。请加上出发格的列或行，例如 Nbd2 或 R1e2。"
            ),
            (Illegal::AmbiguousSan(text), Lang::En) => format!(
                "“{text}” is ambiguous: more than one piece can go there. Add the file or rank the piece comes from, as in Nbd2 or R1e2."
            ),
            (Illegal::NoSuchPiece { role: r, san }, Lang::Zh) => {
                format!("你没有可以走“{san}”的{}。", role(r))
            }
            (Illegal::NoSuchPiece { role: r, san }, Lang::En) => {
                format!("You have no {} that could play “{san}”.", role(r))
            }
            (Illegal::GameOver, Lang::Zh) => {
                "对局已经结束（将死或逼和），不能再走棋了。".to_string()
            }
            (Illegal::GameOver, Lang::En) => {
                "The game is over (checkmate or stalemate): no more moves can be played.".to_string()
            }
        }
    }
}

impl fmt::Display for Illegal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let role = |r: &Role| role_name(*r, Lang::En);
        let piece = |(r, s): &(Role, Square)| format!("{} on {s}", role_name(*r, Lang::En));
        match self {
            Illegal::NotAMove(text) => write!(f, "not a move: `{text}`"),
            Illegal::NoPiece { from } => write!(f, "no piece on {from}"),
            Illegal::NotYourPiece { from, turn } => write!(
                f,
                "the piece on {from} is not {}'s",
                color_name(*turn, Lang::En).to_lowercase()
            ),
            Illegal::OwnPieceOnTarget { to } => write!(f, "own piece on {to}"),
            Illegal::CannotMoveThatWay { role: r, from, to } => {
                write!(f, "a {} cannot move from {from} to {to}", role(r))
            }
            Illegal::PawnCannotCaptureForward { from, to } => {
                write!(f, "a pawn cannot capture straight ahead ({from} to {to})")
            }
            Illegal::PawnDiagonalNeedsCapture { from, to } => write!(
                f,
                "a pawn moves diagonally only to capture ({from} to {to})"
            ),
            Illegal::PawnDoubleStepNotFromStart { from, to } => write!(
                f,
                "a pawn advances two squares only from its starting square ({from} to {to})"
            ),
            Illegal::PathBlocked {
                role: r,
                from,
                to,
                by,
            } => write!(f, "the {} from {from} to {to} is blocked on {by}", role(r)),
            Illegal::KingIntoCheck { to, attacker } => write!(
                f,
                "the king would be in check on {to} from the {}",
                piece(attacker)
            ),
            Illegal::LeavesKingInCheck { attacker } => {
                write!(f, "leaves the king in check from the {}", piece(attacker))
            }
            Illegal::InCheck { attacker } => {
                write!(f, "does not get out of check from the {}", piece(attacker))
            }
            Illegal::EnPassantUncoversKing {
                to,
                captured,
                own_pawn,
                attacker,
            } => {
                write!(
                    f,
                    "en passant on {to} would uncover the king to the {}: ",
                    piece(attacker)
                )?;
                match own_pawn {
                    None => write!(f, "the captured pawn on {captured} shields it"),
                    Some(from) => write!(f, "the pawns on {from} and {captured} shield it"),
                }
            }
            Illegal::Castling(why) => write!(f, "cannot castle: {why}"),
            Illegal::EnPassantGone { to } => write!(
                f,
                "en passant on {to} is not available: it must follow the two-square pawn advance at once"
            ),
            Illegal::PromotionRequired { to } => write!(
                f,
                "a pawn reaching {to} must promote: add q, r, b or n (e8=Q, e7e8q)"
            ),
            Illegal::BadPromotion { from, to, role: r } => write!(
                f,
                "no promotion to a {} from {from} to {to}: only a pawn reaching the last rank promotes, to a queen, rook, bishop or knight",
                role(r)
            ),
            Illegal::AmbiguousSan(text) => write!(
                f,
                "ambiguous move `{text}`: add the file or rank of the piece, as in Nbd2"
            ),
            Illegal::NoSuchPiece { role: r, san } => {
                write!(f, "no {} can play `{san}`", role(r))
            }
            Illegal::GameOver => f.write_str("the game is over"),
        }
    }
}

impl std::error::Error for Illegal {}

/// A move as the learner wrote it.
enum Input {
    Uci {
        from: Square,
        to: Square,
        promotion: Option<Role>,
    },
    San(San),
}

/// Reads SAN or UCI, leniently (see [`super::Position::play`]).
fn parse(text: &str) -> Result<Input, Illegal> {
    let trimmed = text.trim();
    let not_a_move = || Illegal::NotAMove(trimmed.to_string());
    let s = trimmed.trim_end_matches(['+', '#', '!', '?']);
    if let Some(input) = parse_uci(s) {
        return Ok(input);
    }
    let mut san = match s {
        "0-0" | "o-o" => "O-O".to_string(),
        "0-0-0" | "o-o-o" => "O-O-O".to_string(),
        _ => s.to_string(),
    };
    // `e8Q` for `e8=Q`.
    let b = san.as_bytes();
    if b.len() >= 3 && b"QRBNK".contains(&b[b.len() - 1]) && matches!(b[b.len() - 2], b'1' | b'8') {
        san.insert(san.len() - 1, '=');
    }
    match San::from_ascii(san.as_bytes()) {
        Ok(s @ (San::Normal { .. } | San::Castle(_))) => Ok(Input::San(s)),
        _ => Err(not_a_move()),
    }
}

fn parse_uci(s: &str) -> Option<Input> {
    let b = s.as_bytes();
    let square = |f: u8, r: u8| {
        if (b'a'..=b'h').contains(&f) && (b'1'..=b'8').contains(&r) {
            Square::from_ascii(&[f, r]).ok()
        } else {
            None
        }
    };
    if b.len() < 4 {
        return None;
    }
    let from = square(b[0], b[1])?;
    let rest = if matches!(b[2], b'-' | b'x') {
        &b[3..]
    } else {
        &b[2..]
    };
    if rest.len() < 2 {
        return None;
    }
    let to = square(rest[0], rest[1])?;
    let promo = match &rest[2..] {
        [] => None,
        [c] | [b'=', c] => Some(Role::from_char(*c as char)?),
        _ => return None,
    };
    Some(Input::Uci {
        from,
        to,
        promotion: promo,
    })
}

/// The legal move `text` stands for, or why there is none.
pub(super) fn resolve(pos: &Chess, text: &str) -> Result<Move, Illegal> {
    let input = parse(text)?;
    let legal = pos.legal_moves();
    if legal.is_empty() {
        return Err(Illegal::GameOver);
    }
    match input {
        Input::Uci {
            from,
            to,
            promotion,
        } => find_uci(pos, &legal, from, to, promotion)
            .ok_or_else(|| diagnose(pos, from, to, promotion)),
        Input::San(san) => resolve_san(pos, &legal, san, text.trim()),
    }
}

/// The legal move from `from` to `to`: exact first, then castling written as the king's
/// destination (standard) or as king-takes-rook (Chess960).
fn find_uci(
    pos: &Chess,
    legal: &MoveList,
    from: Square,
    to: Square,
    promotion: Option<Role>,
) -> Option<Move> {
    let exact = legal.iter().find(|m| {
        !m.is_castle() && m.from() == Some(from) && m.to() == to && m.promotion() == promotion
    });
    exact
        .or_else(|| {
            legal.iter().find(|m| match m {
                Move::Castle { king, rook } => {
                    *king == from
                        && promotion.is_none()
                        && (*rook == to
                            || m.castling_side().map(|s| s.king_to(pos.turn())) == Some(to))
                }
                _ => false,
            })
        })
        .copied()
}

fn resolve_san(pos: &Chess, legal: &MoveList, san: San, text: &str) -> Result<Move, Illegal> {
    let (role, file, rank, to, promotion) = match san {
        San::Castle(side) => {
            return legal
                .iter()
                .find(|m| m.castling_side() == Some(side))
                .copied()
                .ok_or_else(|| match castling_refused(pos, side) {
                    Some(why) => Illegal::Castling(why),
                    None => Illegal::CannotMoveThatWay {
                        role: Role::King,
                        from: pos.board().king_of(pos.turn()).unwrap_or(Square::E1),
                        to: side.king_to(pos.turn()),
                    },
                });
        }
        San::Normal {
            role,
            file,
            rank,
            to,
            promotion,
            ..
        } => (role, file, rank, to, promotion),
        _ => return Err(Illegal::NotAMove(text.to_string())),
    };
    // A pawn move without a from-file (`f3`) is a push: a pawn capture always names the
    // file it leaves (`exf3`), so the bare destination never stands for one.
    let file = match (role, file) {
        (Role::Pawn, None) => Some(to.file()),
        _ => file,
    };
    let from_ok = |from: Square| {
        file.is_none_or(|f| f == from.file()) && rank.is_none_or(|r| r == from.rank())
    };
    // The capture mark is not required to match: beginners leave it out.
    let matching: Vec<Move> = legal
        .iter()
        .filter(|m| {
            !m.is_castle()
                && m.role() == role
                && m.to() == to
                && m.from().is_some_and(from_ok)
                && m.promotion() == promotion
        })
        .copied()
        .collect();
    match matching.as_slice() {
        [m] => return Ok(*m),
        [_, _, ..] => return Err(Illegal::AmbiguousSan(text.to_string())),
        [] => {}
    }
    // Which of our pieces could the learner have meant?
    let us = pos.turn();
    let candidates = pos.board().by_piece(role.of(us));
    if role == Role::King {
        // `Kg1` from e1 is an attempt to castle. When castling is legal, the king's
        // destination written as a king move (`Kg1`, `Kc8`) means it: no king move can.
        if let Some(king) = pos.board().king_of(us).filter(|&k| from_ok(k)) {
            if let Some(side) = castling_attempt(pos, king, to) {
                if let Some(why) = castling_refused(pos, side) {
                    return Err(Illegal::Castling(why));
                }
                let castle = legal.iter().find(|m| m.castling_side() == Some(side));
                if let (true, Some(m)) = (to == side.king_to(us) && promotion.is_none(), castle) {
                    return Ok(*m);
                }
            }
        }
    }
    // The reason that gets furthest down the checklist tells the most; ties go to the
    // first piece in square order.
    let mut best: Option<Illegal> = None;
    for from in candidates.into_iter().filter(|&from| from_ok(from)) {
        let e = diagnose(pos, from, to, promotion);
        if best.as_ref().is_none_or(|b| depth(&e) > depth(b)) {
            best = Some(e);
        }
    }
    Err(best.unwrap_or(Illegal::NoSuchPiece {
        role,
        san: text.to_string(),
    }))
}

/// How far down the teacher's checklist a reason is: the further, the more it tells.
fn depth(e: &Illegal) -> usize {
    match e {
        Illegal::NotAMove(_)
        | Illegal::NoPiece { .. }
        | Illegal::NotYourPiece { .. }
        | Illegal::AmbiguousSan(_)
        | Illegal::NoSuchPiece { .. }
        | Illegal::GameOver => 0,
        Illegal::CannotMoveThatWay { .. } | Illegal::BadPromotion { .. } => 1,
        Illegal::PawnCannotCaptureForward { .. }
        | Illegal::PawnDiagonalNeedsCapture { .. }
        | Illegal::PawnDoubleStepNotFromStart { .. } => 2,
        Illegal::PathBlocked { .. } => 3,
        Illegal::Castling(_)
        | Illegal::EnPassantGone { .. }
        | Illegal::PromotionRequired { .. } => 4,
        Illegal::OwnPieceOnTarget { .. } => 5,
        Illegal::KingIntoCheck { .. }
        | Illegal::LeavesKingInCheck { .. }
        | Illegal::EnPassantUncoversKing { .. }
        | Illegal::InCheck { .. } => 6,
    }
}

/// Whether a king move from `from` to `to` is an attempt to castle, and to which side.
fn castling_attempt(pos: &Chess, from: Square, to: Square) -> Option<CastlingSide> {
    let us = pos.turn();
    let back = us.backrank();
    if from.rank() != back || to.rank() != back || from == to {
        return None;
    }
    let side = CastlingSide::from_king_side(to.file() > from.file());
    let castles = pos.castles();
    // King onto its own castling rook (Chess960 notation).
    if castles.castling_rights().contains(to) && pos.board().by_piece(us.rook()).contains(to) {
        return Some(side);
    }
    match castles.mode() {
        CastlingMode::Standard => {
            (from == Square::from_coords(File::E, back) && from.distance(to) == 2).then_some(side)
        }
        CastlingMode::Chess960 => {
            (to == side.king_to(us) && from.distance(to) > 1 && castles.has(us, side))
                .then_some(side)
        }
    }
}

/// The first condition of castling to `side` that fails, if one does.
fn castling_refused(pos: &Chess, side: CastlingSide) -> Option<CastlingRefused> {
    let us = pos.turn();
    let them = !us;
    let board = pos.board();
    let castles = pos.castles();
    let king = board.king_of(us)?;
    let named = |sq: Square| (board.role_at(sq).unwrap_or(Role::Pawn), sq);
    let Some(rook) = castles.rook(us, side) else {
        let home = Square::from_coords(File::E, us.backrank());
        if !castles.has_color(us) || (castles.mode().is_standard() && king != home) {
            return Some(CastlingRefused::KingMoved);
        }
        let corner = Square::from_coords(
            match side {
                CastlingSide::KingSide => File::H,
                CastlingSide::QueenSide => File::A,
            },
            us.backrank(),
        );
        return Some(if board.by_piece(us.rook()).contains(corner) {
            CastlingRefused::RookMoved { side }
        } else {
            CastlingRefused::NoRook { side }
        });
    };
    let blockers = castles.path(us, side) & board.occupied();
    if let Some(square) = nearest(blockers, king) {
        return Some(CastlingRefused::PiecesBetween { square });
    }
    if let Some(c) = pos.checkers().first() {
        return Some(CastlingRefused::InCheck { by: named(c) });
    }
    let king_to = side.king_to(us);
    let occupied = board.occupied().without(king).without(rook);
    let mut path: Vec<Square> = attacks::between(king, king_to).into_iter().collect();
    path.sort_by_key(|s| s.distance(king));
    path.push(king_to);
    for square in path {
        if square == king {
            continue;
        }
        if let Some(a) = board.attacks_to(square, them, occupied).first() {
            let by = named(a);
            return Some(if square == king_to {
                CastlingRefused::LandsOnAttacked { square, by }
            } else {
                CastlingRefused::PassesThroughAttacked { square, by }
            });
        }
    }
    None
}

/// The square of `set` nearest to `from`.
fn nearest(set: Bitboard, from: Square) -> Option<Square> {
    set.into_iter().min_by_key(|s| s.distance(from))
}

/// Why the move `from`-`to` (with `promotion`) is not legal, checked in a teacher's order:
/// the piece, the target, how the piece moves, what is in the way, castling, en passant,
/// promotion, and last the king's safety.
fn diagnose(pos: &Chess, from: Square, to: Square, promotion: Option<Role>) -> Illegal {
    let board = pos.board();
    let us = pos.turn();
    let Some(piece) = board.piece_at(from) else {
        return Illegal::NoPiece { from };
    };
    if piece.color != us {
        return Illegal::NotYourPiece { from, turn: us };
    }
    let role = piece.role;
    if let (true, Some(p)) = (role != Role::Pawn, promotion) {
        return Illegal::BadPromotion { from, to, role: p };
    }
    if role == Role::King {
        if let Some(side) = castling_attempt(pos, from, to) {
            if let Some(why) = castling_refused(pos, side) {
                return Illegal::Castling(why);
            }
        }
    }
    let cannot = Illegal::CannotMoveThatWay { role, from, to };
    if from == to {
        return cannot;
    }
    if board.by_color(us).contains(to) {
        return Illegal::OwnPieceOnTarget { to };
    }
    let mut en_passant = None;
    match role {
        Role::Pawn => match pawn_move(pos, from, to) {
            Ok(ep) => en_passant = ep,
            Err(e) => return e,
        },
        _ => {
            if !attacks::attacks(from, piece, Bitboard::EMPTY).contains(to) {
                return cannot;
            }
            if let Some(by) = nearest(attacks::between(from, to) & board.occupied(), from) {
                return Illegal::PathBlocked { role, from, to, by };
            }
        }
    }
    if role == Role::Pawn {
        let last = to.rank() == (!us).backrank();
        match promotion {
            None if last => return Illegal::PromotionRequired { to },
            Some(p) if !last || matches!(p, Role::King | Role::Pawn) => {
                return Illegal::BadPromotion { from, to, role: p }
            }
            _ => {}
        }
    }
    king_safety(pos, piece.role, from, to, en_passant).unwrap_or(cannot)
}

/// Checks the pawn rules for `from`-`to`; `Ok(Some(square))` for an en-passant capture of
/// the pawn on `square`.
fn pawn_move(pos: &Chess, from: Square, to: Square) -> Result<Option<Square>, Illegal> {
    let board = pos.board();
    let us = pos.turn();
    let forward: i32 = if us == Color::White { 1 } else { -1 };
    let df = to.file().to_u32() as i32 - from.file().to_u32() as i32;
    let dr = (to.rank().to_u32() as i32 - from.rank().to_u32() as i32) * forward;
    let occupied = board.occupied();
    match (df.abs(), dr) {
        (0, 1) if occupied.contains(to) => Err(Illegal::PawnCannotCaptureForward { from, to }),
        (0, 1) => Ok(None),
        (0, 2) => {
            if from.rank() != us.relative_rank(Rank::Second) {
                return Err(Illegal::PawnDoubleStepNotFromStart { from, to });
            }
            let mid = Square::from_coords(
                from.file(),
                Rank::new((from.rank().to_u32() as i32 + forward) as u32),
            );
            if occupied.contains(mid) {
                Err(Illegal::PathBlocked {
                    role: Role::Pawn,
                    from,
                    to,
                    by: mid,
                })
            } else if occupied.contains(to) {
                Err(Illegal::PawnCannotCaptureForward { from, to })
            } else {
                Ok(None)
            }
        }
        (1, 1) => {
            let beside = Square::from_coords(to.file(), from.rank());
            if board.by_color(!us).contains(to) {
                Ok(None)
            } else if pos.maybe_ep_square() == Some(to) {
                Ok(Some(beside))
            } else if from.rank() == us.relative_rank(Rank::Fifth)
                && board.by_piece((!us).pawn()).contains(beside)
            {
                Err(Illegal::EnPassantGone { to })
            } else {
                Err(Illegal::PawnDiagonalNeedsCapture { from, to })
            }
        }
        _ => Err(Illegal::CannotMoveThatWay {
            role: Role::Pawn,
            from,
            to,
        }),
    }
}

/// The check a geometrically possible move walks into or fails to get out of.
fn king_safety(
    pos: &Chess,
    role: Role,
    from: Square,
    to: Square,
    en_passant: Option<Square>,
) -> Option<Illegal> {
    let us = pos.turn();
    let mut board = pos.board().clone();
    let piece = board.remove_piece_at(from)?;
    if let Some(sq) = en_passant {
        board.discard_piece_at(sq);
    }
    board.set_piece_at(to, piece);
    let king = board.king_of(us)?;
    let attackers = board.attacks_to(king, !us, board.occupied());
    let first = attackers.first()?;
    let named = |sq: Square| (board.role_at(sq).unwrap_or(Role::Pawn), sq);
    if role == Role::King {
        return Some(Illegal::KingIntoCheck {
            to,
            attacker: named(first),
        });
    }
    if let Some(c) = (pos.checkers() & attackers).first() {
        return Some(Illegal::InCheck { attacker: named(c) });
    }
    if let Some(captured) = en_passant {
        // Pinned is the capturing pawn only if leaving its square alone opens the line.
        let mut pawn_gone = pos.board().clone();
        pawn_gone.discard_piece_at(from);
        pawn_gone.set_piece_at(to, piece);
        if pawn_gone
            .attacks_to(king, !us, pawn_gone.occupied())
            .is_empty()
        {
            let mut captured_gone = pos.board().clone();
            captured_gone.discard_piece_at(captured);
            let alone = !captured_gone
                .attacks_to(king, !us, captured_gone.occupied())
                .is_empty();
            return Some(Illegal::EnPassantUncoversKing {
                to,
                captured,
                own_pawn: (!alone).then_some(from),
                attacker: named(first),
            });
        }
    }
    Some(Illegal::LeavesKingInCheck {
        attacker: named(first),
    })
}
