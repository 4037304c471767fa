//! Replaying a record: the position after a line of moves, its marks, drawn as a board.

use super::*;

/// A position and the move that led to it, drawn.
pub(super) struct Shown {
    pub(super) board: Board,
    /// The position before the last move, and the last move's name.
    pub(super) last: Option<(Board, String)>,
}

/// Plays `moves` from the record's start.
pub(super) fn replay(record: &Record, moves: &[String]) -> Result<Shown, String> {
    let mut board = Board::at_start(&record.start, record.setup.as_ref(), "record")
        .map_err(|e| e.to_string())?;
    let mut last = None;
    for m in moves {
        let (next, _) = board.play(m)?;
        last = Some((board, m.clone()));
        board = next;
    }
    Ok(Shown { board, last })
}

/// Plays `mv` on `board`: the next position and the move as learners read it.
pub(super) fn play_noted(board: &Board, mv: &str) -> Option<(Board, String)> {
    fn step<P: Rules>(pos: &P, mv: &str) -> Option<(P, String)> {
        let (next, played) = pos.play(mv).ok()?;
        let text = pos.notation(&played);
        Some((next, text))
    }
    match board {
        Board::Go(p) => step(p, mv).map(|(n, t)| (Board::Go(n), t)),
        Board::Chess(p) => step(p, mv).map(|(n, t)| (Board::Chess(n), t)),
        Board::Shogi(p) => step(p, mv).map(|(n, t)| (Board::Shogi(n), t)),
    }
}

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

/// A chess comment's drawing commands (`[%csl Gd4,Re5]` squares, `[%cal Ge2e4]` arrows, as
/// lichess and ChessBase write them) and the comment without them.
pub(super) fn chess_marks(comment: &str) -> (BoardMarks, String) {
    let mut marks = BoardMarks::default();
    let mut text = String::new();
    let mut rest = comment;
    while let Some(start) = rest.find("[%") {
        text.push_str(&rest[..start]);
        let Some(end) = rest[start..].find(']') else {
            rest = &rest[start..];
            break;
        };
        let command = &rest[start + 2..start + end];
        let (name, args) = command.split_once(' ').unwrap_or((command, ""));
        for arg in args.split(',').map(str::trim) {
            let squares = arg.get(1..).unwrap_or("");
            match name {
                "csl" => marks.highlight.extend(Chess::parse_square(squares)),
                "cal" => {
                    let from = squares.get(..2).and_then(Chess::parse_square);
                    let to = squares.get(2..).and_then(Chess::parse_square);
                    if let (Some(a), Some(b)) = (from, to) {
                        marks.arrows.push((a, b));
                    }
                }
                _ => {}
            }
        }
        rest = &rest[start + end + 1..];
    }
    text.push_str(rest);
    (marks, text.split_whitespace().collect::<Vec<_>>().join(" "))
}

/// What a board is drawn with.
pub(super) struct Drawing<'a> {
    pub(super) markup: &'a [String],
    pub(super) chess: BoardMarks,
    pub(super) link: Option<&'a dyn Fn(Click) -> String>,
    pub(super) selected: Option<&'a str>,
    pub(super) labels: Vec<(String, go::Point)>,
    pub(super) lang: Lang,
    pub(super) title: &'a str,
}

fn draw_pieces<G: PieceGame>(
    pos: &G::Pos,
    last: Option<(Option<(u8, u8)>, (u8, u8))>,
    d: &Drawing,
    marks: BoardMarks,
) -> String {
    let selected = d.selected.map(board_game::target);
    let link = d.link.map(|href| {
        let selected = selected.clone();
        move |t: Target| href(board_game::action::<G>(pos, selected.as_ref(), t))
    });
    let none = BoardMarks::default();
    board_game::draw_position::<G>(
        pos,
        marks,
        &board_game::View {
            flipped: false,
            zones: false,
            last,
            marks: &none,
            selected: selected.as_ref(),
            link: link.as_ref().map(|l| l as &dyn Fn(Target) -> String),
            lang: d.lang,
            title: d.title,
        },
    )
}

/// Draws a shown position.
pub(super) fn draw(shown: &Shown, d: Drawing) -> String {
    let last = shown.last.as_ref().and_then(|(before, mv)| match before {
        Board::Go(p) => p.play(mv).ok().map(|(_, m)| Played::Go(m)),
        Board::Chess(p) => p
            .play(mv)
            .ok()
            .map(|(_, m)| Played::Chess(Chess::squares(&m))),
        Board::Shogi(p) => p
            .play(mv)
            .ok()
            .map(|(_, m)| Played::Shogi(Shogi::squares(&m))),
    });
    match &shown.board {
        Board::Go(pos) => {
            let size = pos.size();
            let mut marks = go_marks(d.markup, size);
            marks.labels.extend(d.labels.iter().cloned());
            let link = d
                .link
                .map(|href| move |p: go::Point| href(Click::Play(p.name(size))));
            go_svg(&GoDiagram {
                board: pos.board(),
                view: None,
                last_move: match last {
                    Some(Played::Go(go::Move::Play(p))) => Some(p),
                    _ => None,
                },
                marks: &marks,
                liberties: &[],
                selected: &[],
                link: link.as_ref().map(|l| l as &dyn Fn(go::Point) -> String),
                lang: d.lang,
                title: d.title,
            })
        }
        Board::Chess(pos) => {
            let squares = match last {
                Some(Played::Chess(s)) => Some(s),
                _ => None,
            };
            let marks = BoardMarks {
                highlight: d.chess.highlight.clone(),
                arrows: d.chess.arrows.clone(),
                ..BoardMarks::default()
            };
            draw_pieces::<Chess>(pos, squares, &d, marks)
        }
        Board::Shogi(pos) => {
            let squares = match last {
                Some(Played::Shogi(s)) => Some(s),
                _ => None,
            };
            draw_pieces::<Shogi>(pos, squares, &d, BoardMarks::default())
        }
    }
}

/// The last move as a drawing needs it.
enum Played {
    Go(go::Move),
    Chess((Option<(u8, u8)>, (u8, u8))),
    Shogi((Option<(u8, u8)>, (u8, u8))),
}
