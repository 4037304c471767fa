//! How each kind of piece moves, on a plain 9×9 array: the teacher's view of the rules,
//! used to say *why* a move is illegal (rsshogi decides *whether* it is).

use super::types::{Color, Kind, Square};

/// One way a piece moves: a single step, or a slide of any length, in a direction
/// given as (files, ranks) for Black; White's directions have the rank step negated.
#[derive(Clone, Copy)]
struct Dir {
    df: i8,
    dr: i8,
    slide: bool,
}

const fn step(df: i8, dr: i8) -> Dir {
    Dir {
        df,
        dr,
        slide: false,
    }
}

const fn slide(df: i8, dr: i8) -> Dir {
    Dir {
        df,
        dr,
        slide: true,
    }
}

const GOLD: &[Dir] = &[
    step(-1, -1),
    step(0, -1),
    step(1, -1),
    step(-1, 0),
    step(1, 0),
    step(0, 1),
];

const PAWN: &[Dir] = &[step(0, -1)];
const LANCE: &[Dir] = &[slide(0, -1)];
const KNIGHT: &[Dir] = &[step(-1, -2), step(1, -2)];
const SILVER: &[Dir] = &[
    step(-1, -1),
    step(0, -1),
    step(1, -1),
    step(-1, 1),
    step(1, 1),
];
const BISHOP: &[Dir] = &[slide(-1, -1), slide(1, -1), slide(-1, 1), slide(1, 1)];
const ROOK: &[Dir] = &[slide(0, -1), slide(0, 1), slide(-1, 0), slide(1, 0)];
const KING: &[Dir] = &[
    step(-1, -1),
    step(0, -1),
    step(1, -1),
    step(-1, 0),
    step(1, 0),
    step(-1, 1),
    step(0, 1),
    step(1, 1),
];
const HORSE: &[Dir] = &[
    slide(-1, -1),
    slide(1, -1),
    slide(-1, 1),
    slide(1, 1),
    step(0, -1),
    step(0, 1),
    step(-1, 0),
    step(1, 0),
];
const DRAGON: &[Dir] = &[
    slide(0, -1),
    slide(0, 1),
    slide(-1, 0),
    slide(1, 0),
    step(-1, -1),
    step(1, -1),
    step(-1, 1),
    step(1, 1),
];

/// The directions of `kind` as Black sees them (forward = rank − 1).
fn dirs(kind: Kind) -> &'static [Dir] {
    match kind {
        Kind::Pawn => PAWN,
        Kind::Lance => LANCE,
        Kind::Knight => KNIGHT,
        Kind::Silver => SILVER,
        Kind::Gold | Kind::ProPawn | Kind::ProLance | Kind::ProKnight | Kind::ProSilver => GOLD,
        Kind::Bishop => BISHOP,
        Kind::Rook => ROOK,
        Kind::King => KING,
        Kind::Horse => HORSE,
        Kind::Dragon => DRAGON,
    }
}

/// A piece on the board.
pub(crate) type Piece = (Color, Kind);

/// The board as a plain array, indexed by [`Square::index`].
#[derive(Clone)]
pub(crate) struct Grid {
    cells: [Option<Piece>; 81],
}

/// Whether, and how, a piece could go from one square to another on an empty board.
pub(crate) enum Reach {
    /// Not in the piece's pattern at all.
    No,
    /// In the pattern; the squares passed over on the way (empty for steps and jumps).
    Yes(Vec<Square>),
}

impl Grid {
    pub(crate) fn empty() -> Grid {
        Grid { cells: [None; 81] }
    }

    pub(crate) fn get(&self, sq: Square) -> Option<Piece> {
        self.cells[sq.index()]
    }

    pub(crate) fn set(&mut self, sq: Square, piece: Option<Piece>) {
        self.cells[sq.index()] = piece;
    }

    /// The square of `color`'s king, if it has one on the board.
    pub(crate) fn king(&self, color: Color) -> Option<Square> {
        Square::all().find(|&sq| self.get(sq) == Some((color, Kind::King)))
    }

    /// Every square the piece `(color, kind)` on `from` attacks (利き), own pieces included.
    pub(crate) fn attacks(&self, from: Square, color: Color, kind: Kind) -> Vec<Square> {
        let fwd = -color.forward(); // Black's tables have forward = −1 already
        let mut out = Vec::new();
        for d in dirs(kind) {
            let (df, dr) = (d.df, d.dr * fwd);
            let mut at = from;
            while let Some(next) = at.offset(df, dr) {
                out.push(next);
                if !d.slide || self.get(next).is_some() {
                    break;
                }
                at = next;
            }
        }
        out
    }

    /// The pieces of `by` that attack `target`, nearest first.
    pub(crate) fn attackers(&self, target: Square, by: Color) -> Vec<(Kind, Square)> {
        let mut found: Vec<(Kind, Square)> = Square::all()
            .filter_map(|sq| match self.get(sq) {
                Some((c, k)) if c == by && self.attacks(sq, c, k).contains(&target) => {
                    Some((k, sq))
                }
                _ => None,
            })
            .collect();
        let dist = |s: Square| {
            (s.file as i8 - target.file as i8)
                .abs()
                .max((s.rank as i8 - target.rank as i8).abs())
        };
        found.sort_by_key(|&(_, s)| dist(s));
        found
    }

    /// The board after a move of the piece on `from` to `to` (promoting if asked); no
    /// questions asked about legality.
    pub(crate) fn after_move(&self, from: Square, to: Square, promote: bool) -> Grid {
        let mut g = self.clone();
        let moving = g.get(from).map(|(c, k)| {
            let k = if promote {
                k.promoted().unwrap_or(k)
            } else {
                k
            };
            (c, k)
        });
        g.set(from, None);
        g.set(to, moving);
        g
    }
}

/// Whether `kind` of `color` could go from `from` to `to` on an empty board, and over
/// which squares.
pub(crate) fn reach(kind: Kind, color: Color, from: Square, to: Square) -> Reach {
    let fwd = -color.forward();
    for d in dirs(kind) {
        let (df, dr) = (d.df, d.dr * fwd);
        let mut passed = Vec::new();
        let mut at = from;
        while let Some(next) = at.offset(df, dr) {
            if next == to {
                return Reach::Yes(passed);
            }
            if !d.slide {
                break;
            }
            passed.push(next);
            at = next;
        }
    }
    Reach::No
}

/// Whether a piece of `kind` standing on `sq` could never move again (行き所のない駒):
/// a pawn or lance on the last rank, a knight on the last two.
pub(crate) fn is_dead_square(kind: Kind, color: Color, sq: Square) -> bool {
    let depth = match color {
        Color::Black => sq.rank,
        Color::White => 10 - sq.rank,
    };
    match kind {
        Kind::Pawn | Kind::Lance => depth == 1,
        Kind::Knight => depth <= 2,
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(s: &str) -> Square {
        Square::parse(s).unwrap()
    }

    #[test]
    fn black_moves_up_and_white_moves_down() {
        assert!(matches!(
            reach(Kind::Pawn, Color::Black, sq("7g"), sq("7f")),
            Reach::Yes(_)
        ));
        assert!(matches!(
            reach(Kind::Pawn, Color::White, sq("7g"), sq("7f")),
            Reach::No
        ));
        assert!(matches!(
            reach(Kind::Knight, Color::Black, sq("8i"), sq("7g")),
            Reach::Yes(_)
        ));
        assert!(matches!(
            reach(Kind::Knight, Color::White, sq("8a"), sq("7c")),
            Reach::Yes(_)
        ));
        match reach(Kind::Bishop, Color::Black, sq("8h"), sq("2b")) {
            Reach::Yes(passed) => assert_eq!(passed.len(), 5),
            Reach::No => panic!("bishop reaches along the diagonal"),
        }
        assert!(matches!(
            reach(Kind::Silver, Color::Black, sq("5e"), sq("5f")),
            Reach::No
        ));
        assert!(matches!(
            reach(Kind::Gold, Color::White, sq("5e"), sq("5f")),
            Reach::Yes(_)
        ));
    }

    #[test]
    fn dead_squares() {
        assert!(is_dead_square(Kind::Pawn, Color::Black, sq("5a")));
        assert!(is_dead_square(Kind::Knight, Color::Black, sq("5b")));
        assert!(!is_dead_square(Kind::Knight, Color::Black, sq("5c")));
        assert!(is_dead_square(Kind::Lance, Color::White, sq("5i")));
        assert!(is_dead_square(Kind::Knight, Color::White, sq("5h")));
        assert!(!is_dead_square(Kind::Silver, Color::White, sq("5i")));
    }
}
