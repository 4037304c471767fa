//! Chess drawn on a page: the pieces, the last move, and a comment's drawing commands.

use super::{draw_pieces, pieces_between, Choice, DrawAsk, Drawn};
use crate::content::board_game::PieceGame;
use crate::content::chess::Chess;
use crate::content::BoardMarks;
use crate::rules::chess;

/// A chess comment's drawing commands (`[%csl Gd4,Re5]` squares, `[%cal Ge2e4]` arrows, as
/// lichess and ChessBase write them) and the comment without them.
pub fn chess_marks(comment: &str) -> (BoardMarks, String) {
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

impl Drawn for chess::Position {
    fn draw(&self, last: Option<&chess::Played>, ask: &DrawAsk) -> String {
        let (commands, _) = chess_marks(ask.comment);
        let marks = BoardMarks {
            highlight: commands.highlight,
            arrows: commands.arrows,
            ..BoardMarks::default()
        };
        draw_pieces::<Chess>(self, last, ask, false, marks)
    }

    fn comment_text(comment: &str) -> String {
        chess_marks(comment).1
    }

    fn moves_between(&self, from: &str, to: &str) -> Vec<Choice> {
        pieces_between::<Chess>(self, from, to)
    }
}
