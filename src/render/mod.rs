//! SVG pictures of boards, drawn on the server.

for_each_game!(game_modules);
pub mod svg;

pub use svg::escape;

/// Marks drawn on top of a board: shapes on points and letter labels.
///
/// Points are kept as the game's own type (`P`), e.g. [`crate::rules::go::Point`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Marks<P> {
    /// Triangles (△).
    pub triangles: Vec<P>,
    /// Squares (□).
    pub squares: Vec<P>,
    /// Circles (○).
    pub circles: Vec<P>,
    /// Crosses (×).
    pub crosses: Vec<P>,
    /// Short labels, such as `A` or `1`, on points.
    pub labels: Vec<(String, P)>,
}

impl<P> Default for Marks<P> {
    fn default() -> Self {
        Marks {
            triangles: Vec::new(),
            squares: Vec::new(),
            circles: Vec::new(),
            crosses: Vec::new(),
            labels: Vec::new(),
        }
    }
}

impl<P> Marks<P> {
    /// Whether there is no mark at all.
    pub fn is_empty(&self) -> bool {
        self.triangles.is_empty()
            && self.squares.is_empty()
            && self.circles.is_empty()
            && self.crosses.is_empty()
            && self.labels.is_empty()
    }
}
