//! Board marks as written and as read: the point lists every game's blocks write (`Points`,
//! `Labels`), and the mark keys that chess, shogi and xiangqi blocks share, declared once for every TOML
//! table that has them.

use super::diagnostic::{Ctx, Diagnostic};
use crate::render::Marks;
use std::collections::BTreeMap;
use toml::Spanned;

/// Point or square names as written, each with its place in the file (`triangles = ["C3"]`).
pub(crate) type Points = Vec<Spanned<String>>;

/// Labels as written: point or square name to label, with their places in the file.
pub(crate) type Labels = BTreeMap<String, Spanned<String>>;

/// A square of a chess, shogi or xiangqi board as the renderers take it.
pub(crate) type Sq = (u8, u8);

/// Marks read and checked, for a chess, shogi or xiangqi board.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct BoardMarks {
    /// Shaded squares.
    pub highlight: Vec<Sq>,
    /// Arrows from square to square.
    pub arrows: Vec<(Sq, Sq)>,
    /// Shapes and labels.
    pub shapes: Marks<Sq>,
    /// Dots on squares (a piece's moves).
    pub dots: Vec<Sq>,
}

/// Declares a TOML table struct with the mark keys every square-board block shares
/// (`highlight`, `arrows`, `triangles`, `squares`, `circles`, `crosses`, `labels`,
/// `moves_of`) besides its own fields, and a `marks()` view of them. (serde cannot combine
/// `flatten` with `deny_unknown_fields`, so the keys are written out by the macro.)
macro_rules! with_marks {
    ($(#[$meta:meta])* struct $name:ident { $($(#[$fmeta:meta])* $field:ident : $ty:ty),* $(,)? }) => {
        $(#[$meta])*
        #[derive(serde::Deserialize)]
        #[serde(deny_unknown_fields)]
        pub(crate) struct $name {
            $($(#[$fmeta])* $field: $ty,)*
            #[serde(default)]
            highlight: $crate::content::marks::Points,
            #[serde(default)]
            arrows: $crate::content::marks::Points,
            #[serde(default)]
            triangles: $crate::content::marks::Points,
            #[serde(default)]
            squares: $crate::content::marks::Points,
            #[serde(default)]
            circles: $crate::content::marks::Points,
            #[serde(default)]
            crosses: $crate::content::marks::Points,
            #[serde(default)]
            labels: $crate::content::marks::Labels,
            moves_of: Option<toml::Spanned<String>>,
        }

        impl $name {
            fn marks(&self) -> $crate::content::marks::MarkSpec<'_> {
                $crate::content::marks::MarkSpec {
                    highlight: &self.highlight,
                    arrows: &self.arrows,
                    triangles: &self.triangles,
                    squares: &self.squares,
                    circles: &self.circles,
                    crosses: &self.crosses,
                    labels: &self.labels,
                    moves_of: self.moves_of.as_ref(),
                }
            }
        }
    };
}

/// The mark keys of a block, as written.
pub(crate) struct MarkSpec<'a> {
    pub highlight: &'a Points,
    pub arrows: &'a Points,
    pub triangles: &'a Points,
    pub squares: &'a Points,
    pub circles: &'a Points,
    pub crosses: &'a Points,
    pub labels: &'a Labels,
    pub moves_of: Option<&'a Spanned<String>>,
}

impl MarkSpec<'_> {
    /// Reads the marks with the game's square names: `parse` reads one square, `example`
    /// names one for error messages (`e4`, `5e`).
    pub fn read(
        &self,
        ctx: &Ctx,
        parse: &dyn Fn(&str) -> Option<Sq>,
        example: &str,
    ) -> Result<BoardMarks, Diagnostic> {
        let square = |name: &Spanned<String>| {
            parse(name.get_ref()).ok_or_else(|| {
                ctx.err(
                    name.span(),
                    format!(
                        "`{}` is not a square: write it like {example}",
                        name.get_ref()
                    ),
                )
            })
        };
        let squares = |names: &Points| names.iter().map(square).collect::<Result<Vec<_>, _>>();
        let mut arrows = Vec::new();
        for a in self.arrows {
            let text = a.get_ref();
            let half = text.len() / 2;
            match (text.get(..half).and_then(parse), text.get(half..).and_then(parse)) {
                (Some(f), Some(t)) if text.len() % 2 == 0 => arrows.push((f, t)),
                _ => {
                    return Err(ctx.err(
                        a.span(),
                        format!("arrow `{text}` should be two squares, like \"{example}{example}\" (from, then to)"),
                    ))
                }
            }
        }
        let mut labels = Vec::new();
        for (label, at) in self.labels {
            labels.push((label.clone(), square(at)?));
        }
        Ok(BoardMarks {
            highlight: squares(self.highlight)?,
            arrows,
            shapes: Marks {
                triangles: squares(self.triangles)?,
                squares: squares(self.squares)?,
                circles: squares(self.circles)?,
                crosses: squares(self.crosses)?,
                labels,
            },
            dots: Vec::new(),
        })
    }
}

pub(crate) use with_marks;
