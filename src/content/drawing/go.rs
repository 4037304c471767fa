//! Go drawn on a page: the stones, the last move, and a record's SGF markup.

use super::{DrawAsk, Drawn};
use crate::content::Action as Click;
use crate::render::go::{svg as go_svg, GoDiagram};
use crate::render::Marks;
use crate::rules::go;

/// The SGF point `dd` on a board of `size`.
fn sgf_point(text: &str, size: u8) -> Option<go::Point> {
    let b = text.as_bytes();
    if b.len() != 2 || !b[0].is_ascii_lowercase() || !b[1].is_ascii_lowercase() {
        return None;
    }
    let (col, row) = (b[0] - b'a', b[1] - b'a');
    (col < size && row < size).then(|| go::Point::new(col, row))
}

/// The marks of SGF markup (`TR[dd][ee]`, `SQ`, `CR`, `MA`, `LB[dd:A]`, point lists as
/// `aa:cc` rectangles); other properties are passed over.
pub fn go_marks(markup: &[String], size: u8) -> Marks<go::Point> {
    let mut marks = Marks::default();
    for prop in markup {
        let Some(open) = prop.find('[') else { continue };
        let name = &prop[..open];
        let values = prop[open..]
            .split(']')
            .filter_map(|v| v.strip_prefix('['))
            .map(|v| v.trim());
        for value in values {
            if name == "LB" {
                if let Some((at, text)) = value.split_once(':') {
                    if let Some(p) = sgf_point(at, size) {
                        marks.labels.push((text.chars().take(4).collect(), p));
                    }
                }
                continue;
            }
            let points: Vec<go::Point> = match value.split_once(':') {
                Some((a, b)) => match (sgf_point(a, size), sgf_point(b, size)) {
                    (Some(a), Some(b)) => (a.row.min(b.row)..=a.row.max(b.row))
                        .flat_map(|r| {
                            (a.col.min(b.col)..=a.col.max(b.col)).map(move |c| go::Point::new(c, r))
                        })
                        .collect(),
                    _ => Vec::new(),
                },
                None => sgf_point(value, size).into_iter().collect(),
            };
            match name {
                "TR" => marks.triangles.extend(points),
                "SQ" => marks.squares.extend(points),
                "CR" => marks.circles.extend(points),
                "MA" => marks.crosses.extend(points),
                _ => {}
            }
        }
    }
    marks
}

impl Drawn for go::Position {
    fn draw(&self, last: Option<&go::Move>, ask: &DrawAsk) -> String {
        let size = self.size();
        let mut marks = go_marks(ask.markup, size);
        marks.labels.extend(
            ask.branches
                .iter()
                .filter_map(|(p, label)| Some((label.clone(), go::Point::parse(p, size).ok()?))),
        );
        let link = ask
            .link
            .map(|href| move |p: go::Point| href(Click::Play(p.name(size))));
        go_svg(&GoDiagram {
            board: self.board(),
            view: None,
            last_move: match last {
                Some(go::Move::Play(p)) => Some(*p),
                _ => None,
            },
            marks: &marks,
            liberties: &[],
            territory: &[],
            selected: &[],
            link: link.as_ref().map(|l| l as &dyn Fn(go::Point) -> String),
            heat: None,
            lang: ask.lang,
            title: ask.title,
        })
    }
}
