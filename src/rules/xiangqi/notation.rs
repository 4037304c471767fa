//! Moves as people write them: ICCS coordinates (`h2e2`), WXF (`C2=5`) and Chinese
//! notation (炮二平五, 马8进7), read and written.
//!
//! Files are counted 1–9 from the mover's own right: Red writes them 一…九, Black 1…9
//! (full-width １…９ are read too). 进 / `+` is forward, 退 / `-` back, 平 / `=` (or `.`)
//! sideways. The last number is the file reached, except for a king, chariot, cannon or
//! soldier moving forward or back, where it counts the points moved.
//!
//! Two of a kind on one file are told apart by 前/后 (WXF `+`/`-` after the letter:
//! `R+=3`). Soldiers follow the World Xiangqi Rules: three on a file are 前/中/后 (WXF
//! `P+`, `P3` for the middle one, `P-`); four or five are 一 二 三 四 五 from the front
//! (WXF `++ P+ P3 P- --`); when two files hold two or more soldiers each, the file
//! number replaces the character 兵/卒 (前三平四, WXF `3+=4`, middle `33=4`). Advisors and
//! elephants are always written by file: 进 or 退 already says which one moves.
//!
//! Reading is more lenient than writing: a move that names two pieces of a kind by their
//! file (车五平六 with two chariots on 五) is read when only one of them can make it, as
//! many game records write it (the CCPD books do so 110 times in 12,491 moves); when
//! both can, it is refused as [`Illegal::Ambiguous`]. Either side's characters are
//! read for either side (帅 or 将), and WXF's sideways sign may be `=` or `.`; WXF is
//! written with `=`.
//!
//! ```text
//!   9 8 7 6 5 4 3 2 1     Black's numbering
//!   a b c d e f g h i
//!   …
//! 2 . C . . . . . C .     炮二平五 = C2=5 = h2e2
//!   一二三四五六七八九 read from the right: 九八七六五四三二一   Red's numbering
//! ```

use super::board::Board;
use super::illegal::Illegal;
use super::types::{Color, Kind, Move, Point};

/// Which of the pieces of a kind the text names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Which {
    /// The pieces on this file (mover's numbering).
    File(u8),
    /// One of two or more on a file: the file if written.
    Order(Sel, Option<u8>),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Sel {
    Front,
    Middle,
    Rear,
    /// 一 二 三 四 五 for four or five soldiers: 0 is the front one.
    Index(usize),
    /// WXF `+` after the letter: the front one of two or three, the second of four or five.
    WxfPlus,
    /// WXF `-`: the rear one of two or three, the second rearmost of four or five.
    WxfMinus,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Dir {
    Forward,
    Back,
    Side,
}

/// A move written in WXF or Chinese, before it is matched with a piece.
struct Written {
    kind: Kind,
    which: Which,
    dir: Dir,
    arg: u8,
}

/// Reads `text` in any notation: the points the move goes from and to. Whether the move
/// is legal is left to the caller, except that a relative move naming more than one
/// piece is settled by legality (or refused as ambiguous).
pub(crate) fn read(
    board: &Board,
    legal: &dyn Fn(Point, Point) -> bool,
    text: &str,
) -> Result<(Point, Point), Illegal> {
    let t = text.trim();
    if let Some(points) = read_iccs(t) {
        return Ok(points);
    }
    let written = read_wxf(t)
        .or_else(|| read_chinese(t))
        .ok_or_else(|| Illegal::NotAMove(t.to_string()))?;
    resolve(board, legal, &written, t)
}

fn read_iccs(t: &str) -> Option<(Point, Point)> {
    let t: String = if t.len() == 5 && t.as_bytes()[2] == b'-' {
        format!("{}{}", &t[..2], &t[3..])
    } else {
        t.to_string()
    };
    if t.len() != 4 || !t.is_ascii() {
        return None;
    }
    Some((Point::parse(&t[..2])?, Point::parse(&t[2..])?))
}

fn digit(c: char) -> Option<u8> {
    let d = match c {
        '1'..='9' => c as u32 - '0' as u32,
        '１'..='９' => c as u32 - '１' as u32 + 1,
        _ => "一二三四五六七八九".chars().position(|x| x == c)? as u32 + 1,
    };
    Some(d as u8)
}

fn read_wxf(t: &str) -> Option<Written> {
    let c: Vec<char> = t.chars().collect();
    if c.len() != 4 {
        return None;
    }
    let dir = match c[2] {
        '+' => Dir::Forward,
        '-' => Dir::Back,
        '.' | '=' => Dir::Side,
        _ => return None,
    };
    let arg = c[3].to_digit(10).filter(|&d| d > 0)? as u8;
    let sign = |x: char| match x {
        '+' => Some(true),
        '-' => Some(false),
        _ => None,
    };
    let file = |x: char| x.to_digit(10).filter(|&d| d > 0).map(|d| d as u8);
    let (kind, which) = if let Some(kind) = Kind::from_letter(c[0]) {
        let which = match (file(c[1]), sign(c[1])) {
            (Some(f), _) => Which::File(f),
            (_, Some(true)) => Which::Order(Sel::WxfPlus, None),
            (_, Some(false)) => Which::Order(Sel::WxfMinus, None),
            _ => return None,
        };
        (kind, which)
    } else if let (Some(a), Some(b)) = (sign(c[0]), sign(c[1])) {
        if a != b {
            return None;
        }
        let sel = if a { Sel::Front } else { Sel::Rear };
        (Kind::Pawn, Which::Order(sel, None))
    } else if let Some(f) = file(c[0]) {
        let sel = match (file(c[1]), sign(c[1])) {
            (Some(g), _) if g == f => Sel::Middle,
            (_, Some(true)) => Sel::Front,
            (_, Some(false)) => Sel::Rear,
            _ => return None,
        };
        (Kind::Pawn, Which::Order(sel, Some(f)))
    } else {
        return None;
    };
    Some(Written {
        kind,
        which,
        dir,
        arg,
    })
}

fn read_chinese(t: &str) -> Option<Written> {
    let c: Vec<char> = t.chars().filter(|c| !c.is_whitespace()).collect();
    if c.len() != 4 {
        return None;
    }
    let dir = match c[2] {
        '进' | '進' => Dir::Forward,
        '退' => Dir::Back,
        '平' => Dir::Side,
        _ => return None,
    };
    let arg = digit(c[3])?;
    let sel = match c[0] {
        '前' => Some(Sel::Front),
        '中' => Some(Sel::Middle),
        '后' | '後' => Some(Sel::Rear),
        _ => None,
    };
    let (kind, which) = if let Some(sel) = sel {
        match (Kind::from_hanzi(c[1]), digit(c[1])) {
            (Some(kind), _) => (kind, Which::Order(sel, None)),
            (_, Some(f)) => (Kind::Pawn, Which::Order(sel, Some(f))),
            _ => return None,
        }
    } else if let Some(kind) = Kind::from_hanzi(c[0]) {
        (kind, Which::File(digit(c[1])?))
    } else {
        let k = digit(c[0]).filter(|&k| k <= 5)?;
        if Kind::from_hanzi(c[1]) != Some(Kind::Pawn) {
            return None;
        }
        (Kind::Pawn, Which::Order(Sel::Index(k as usize - 1), None))
    };
    Some(Written {
        kind,
        which,
        dir,
        arg,
    })
}

/// `color`'s pieces of `kind` on `file`, the front one (nearest the opponent) first.
fn column(board: &Board, color: Color, kind: Kind, file: i8) -> Vec<Point> {
    let mut pts: Vec<Point> = (0..10)
        .filter_map(|r| Point::new(file, r))
        .filter(|&p| board.at(p) == Some((color, kind)))
        .collect();
    if color == Color::Red {
        pts.reverse();
    }
    pts
}

/// Where the piece on `from` lands for a written direction and number, if it can.
fn destination(kind: Kind, color: Color, from: Point, dir: Dir, arg: u8) -> Option<Point> {
    let fwd = color.forward();
    let sign = match dir {
        Dir::Forward => fwd,
        Dir::Back => -fwd,
        Dir::Side => 0,
    };
    if kind.moves_straight() {
        if dir == Dir::Side {
            let f = Point::file_of_number(arg, color);
            return (f != from.file())
                .then(|| Point::new(f, from.rank()))
                .flatten();
        }
        return from.offset(0, sign * arg as i8);
    }
    if dir == Dir::Side {
        return None;
    }
    let df = Point::file_of_number(arg, color) - from.file();
    let dr = match (kind, df.abs()) {
        (Kind::Advisor, 1) => 1,
        (Kind::Elephant, 2) => 2,
        (Kind::Horse, 1) => 2,
        (Kind::Horse, 2) => 1,
        _ => return None,
    };
    from.offset(df, sign * dr)
}

fn resolve(
    board: &Board,
    legal: &dyn Fn(Point, Point) -> bool,
    w: &Written,
    text: &str,
) -> Result<(Point, Point), Illegal> {
    let us = board.turn;
    let mut candidates: Vec<Point> = Vec::new();
    let mut middle = None;
    match w.which {
        Which::File(n) => {
            let col = column(board, us, w.kind, Point::file_of_number(n, us));
            if w.kind == Kind::Pawn && col.len() % 2 == 1 && col.len() >= 3 {
                middle = Some(col[col.len() / 2]);
            }
            candidates = col;
        }
        Which::Order(sel, file) => {
            let files: Vec<i8> = match file {
                Some(n) => vec![Point::file_of_number(n, us)],
                None => (0..9).collect(),
            };
            for f in files {
                let col = column(board, us, w.kind, f);
                let n = col.len();
                if n < 2 {
                    continue;
                }
                let i = match sel {
                    Sel::Front => Some(0),
                    Sel::Rear => Some(n - 1),
                    Sel::Middle => (n % 2 == 1).then_some(n / 2),
                    Sel::Index(k) => (k < n).then_some(k),
                    Sel::WxfPlus => Some(if n >= 4 { 1 } else { 0 }),
                    Sel::WxfMinus => Some(if n >= 4 { n - 2 } else { n - 1 }),
                };
                candidates.extend(i.map(|i| col[i]));
            }
        }
    }
    if candidates.is_empty() {
        return Err(Illegal::NoPieceToMove {
            text: text.to_string(),
        });
    }
    let moves: Vec<(Point, Point)> = candidates
        .iter()
        .filter_map(|&from| destination(w.kind, us, from, w.dir, w.arg).map(|to| (from, to)))
        .collect();
    if moves.is_empty() {
        return Err(Illegal::NoSuchMove {
            text: text.to_string(),
        });
    }
    let fits: Vec<(Point, Point)> = moves
        .iter()
        .copied()
        .filter(|&(f, t)| legal(f, t))
        .collect();
    match fits.len() {
        0 => Ok(moves[0]),
        1 => Ok(fits[0]),
        _ => fits
            .iter()
            .copied()
            .find(|&(f, _)| Some(f) == middle)
            .ok_or_else(|| Illegal::Ambiguous {
                text: text.to_string(),
            }),
    }
}

/// How a move's piece is told apart from its kind on the same file.
enum Label {
    /// Alone on its file, or an advisor or elephant: written by its file.
    File,
    /// Two or three: 0 front, then middle, then rear; `multi` when another file also holds
    /// two or more soldiers.
    Tandem {
        index: usize,
        count: usize,
        multi: bool,
    },
}

fn label(board: &Board, mv: &Move) -> Label {
    let us = board.turn;
    let col = column(board, us, mv.piece, mv.from.file());
    if col.len() < 2 || matches!(mv.piece, Kind::Advisor | Kind::Elephant | Kind::King) {
        return Label::File;
    }
    let index = col.iter().position(|&p| p == mv.from).unwrap_or(0);
    let multi = mv.piece == Kind::Pawn
        && (0..9)
            .filter(|&f| column(board, us, Kind::Pawn, f).len() >= 2)
            .count()
            >= 2;
    Label::Tandem {
        index,
        count: col.len(),
        multi,
    }
}

/// The direction and number of a move, as written.
fn action(mv: &Move, color: Color) -> (Dir, u8) {
    let dr = (mv.to.rank() - mv.from.rank()) * color.forward();
    let dir = match dr.signum() {
        1 => Dir::Forward,
        -1 => Dir::Back,
        _ => Dir::Side,
    };
    let arg = if mv.piece.moves_straight() && dir != Dir::Side {
        dr.unsigned_abs()
    } else {
        mv.to.file_number(color)
    };
    (dir, arg)
}

/// The move in WXF notation (`=` for sideways): `C2=5`, `H8+7`, `R+=3`, `P3=4`.
///
/// ```text
///   a b c d e f g h i
/// 2 . C . . . . . C .    h2e2 → C2=5
/// 0 R N B A K A B N R    h0g2 → H2+3
/// ```
pub(crate) fn wxf(board: &Board, mv: &Move) -> String {
    let us = board.turn;
    let (dir, arg) = action(mv, us);
    let op = match dir {
        Dir::Forward => '+',
        Dir::Back => '-',
        Dir::Side => '=',
    };
    let letter = mv.piece.wxf_letter();
    let file = mv.from.file_number(us).to_string();
    let head = match label(board, mv) {
        Label::File => format!("{letter}{file}"),
        Label::Tandem {
            index,
            count,
            multi,
        } => {
            let last = count - 1;
            if multi {
                let tail = match index {
                    0 => "+".to_string(),
                    i if i == last => "-".to_string(),
                    _ => file.clone(),
                };
                format!("{file}{tail}")
            } else if count <= 3 {
                match index {
                    0 => format!("{letter}+"),
                    i if i == last => format!("{letter}-"),
                    _ => format!("{letter}{file}"),
                }
            } else {
                match index {
                    0 => "++".to_string(),
                    1 => format!("{letter}+"),
                    i if i == last => "--".to_string(),
                    i if i == last - 1 => format!("{letter}-"),
                    _ => format!("{letter}{file}"),
                }
            }
        }
    };
    format!("{head}{op}{arg}")
}

/// A number as `color` writes it: 一…九 for Red, 1…9 for Black.
fn number(n: u8, color: Color) -> char {
    match color {
        Color::Red => "一二三四五六七八九"
            .chars()
            .nth(n as usize - 1)
            .unwrap_or('?'),
        Color::Black => (b'0' + n) as char,
    }
}

/// The move in Chinese notation, simplified characters: 炮二平五, 马8进7, 前车退一.
///
/// ```text
///   a b c d e f g h i
/// 7 . c . . . . . c .    h7e7 (Black) → 炮2平5
/// 2 . C . . . . . C .    h2e2 (Red)   → 炮二平五
/// ```
pub(crate) fn chinese(board: &Board, mv: &Move) -> String {
    let us = board.turn;
    let (dir, arg) = action(mv, us);
    let verb = match dir {
        Dir::Forward => '进',
        Dir::Back => '退',
        Dir::Side => '平',
    };
    let name = mv.piece.hanzi(us);
    let file = number(mv.from.file_number(us), us);
    let head = match label(board, mv) {
        Label::File => format!("{name}{file}"),
        Label::Tandem {
            index,
            count,
            multi,
        } => {
            let order = |i: usize| match (i, count) {
                (0, _) => '前',
                (i, c) if i == c - 1 => '后',
                _ => '中',
            };
            if multi {
                format!("{}{file}", order(index))
            } else if count <= 3 {
                format!("{}{name}", order(index))
            } else {
                let ordinal = "一二三四五".chars().nth(index).unwrap_or('?');
                format!("{ordinal}{name}")
            }
        }
    };
    format!("{head}{verb}{}", number(arg, us))
}

#[cfg(test)]
mod tests {
    use super::super::position::Position;
    use super::*;

    fn names(fen: &str, iccs: &str) -> (String, String) {
        let pos = Position::from_fen(fen).unwrap();
        let (_, mv) = pos.play(iccs).unwrap();
        (pos.wxf(&mv), pos.chinese(&mv))
    }

    const START: &str = super::super::position::START_FEN;

    #[test]
    fn opening_moves_in_every_notation() {
        assert_eq!(names(START, "h2e2"), ("C2=5".into(), "炮二平五".into()));
        assert_eq!(names(START, "h0g2"), ("H2+3".into(), "马二进三".into()));
        let pos = Position::start().play("h2e2").unwrap().0;
        let (_, mv) = pos.play("h9g7").unwrap();
        assert_eq!(pos.chinese(&mv), "马8进7");
        assert_eq!(pos.wxf(&mv), "H8+7");
        for text in ["马8进7", "馬８進７", "H8+7", "h8+7", "h9g7", "H9-G7"] {
            assert_eq!(pos.play(text).unwrap().1, mv, "{text}");
        }
        for text in ["炮二平五", "砲二平五", "C2.5", "C2=5", "H2-E2"] {
            assert_eq!(
                Position::start().play(text).unwrap().1.iccs(),
                "h2e2",
                "{text}"
            );
        }
    }

    #[test]
    fn tandem_pieces_are_front_and_rear() {
        // Red chariots on e5 and e3 (Red's file 五): 前车 is e5.
        //   . . . k . . . . .  9
        //   …
        //   . . . . R . . . .  5
        //   . . . . R . . . .  3
        //   . . . . K . . . .  0
        let fen = "3k5/9/9/9/4R4/9/4R4/9/9/4K4 w - - 0 1";
        assert_eq!(names(fen, "e5d5"), ("R+=6".into(), "前车平六".into()));
        assert_eq!(names(fen, "e3e4"), ("R-+1".into(), "后车进一".into()));
        let pos = Position::from_fen(fen).unwrap();
        assert!(matches!(
            pos.play("车五平六"),
            Err(Illegal::Ambiguous { .. })
        ));
        assert_eq!(pos.play("後車進一").unwrap().1.iccs(), "e3e4");
    }

    #[test]
    fn three_and_two_soldiers_follow_the_world_rules() {
        // Red soldiers c5 c6 c7 (Red's file 七) and g5 g6 (file 三).
        let fen = "3k5/9/2P6/2P3P2/2P3P2/9/9/9/9/4K4 w - - 0 1";
        assert_eq!(names(fen, "c7d7"), ("7+=6".into(), "前七平六".into()));
        assert_eq!(names(fen, "c6d6"), ("77=6".into(), "中七平六".into()));
        assert_eq!(names(fen, "g6h6"), ("3+=2".into(), "前三平二".into()));
        let one_file = "3k5/9/2P6/2P6/2P6/9/9/9/9/4K4 w - - 0 1";
        assert_eq!(names(one_file, "c6d6"), ("P7=6".into(), "中兵平六".into()));
        assert_eq!(names(one_file, "c5b5"), ("P-=8".into(), "后兵平八".into()));
    }

    #[test]
    fn unknown_text_and_missing_pieces_are_explained() {
        let pos = Position::start();
        assert!(matches!(pos.play("xyz"), Err(Illegal::NotAMove(_))));
        assert!(matches!(
            pos.play("炮三平五"),
            Err(Illegal::NoPieceToMove { .. })
        ));
        assert!(matches!(
            pos.play("马二平三"),
            Err(Illegal::NoSuchMove { .. })
        ));
        assert!(matches!(
            pos.play("马二进四"),
            Err(Illegal::HorseLegBlocked { .. })
        ));
    }
}
