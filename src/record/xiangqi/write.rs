//! Writing xiangqi PGN: UTF-8, `[Game "Chinese Chess"]` and `[Variant "xiangqi"]`, the
//! game's tags, `[FEN]`, and the moves in simplified Chinese notation, with their comments
//! and variations.

use super::error::WriteError;
use super::{NotedMove, XiangqiGame};
use crate::record::MAX_NESTING;
use crate::rules::xiangqi::{Color, Illegal, Position};

/// Tags the writer writes itself, whatever the game holds.
const OWN_TAGS: [&str; 4] = ["game", "variant", "fen", "result"];

/// Writes games as one PGN text, a blank line between them.
///
/// ```
/// use qiyuan::record::xiangqi::{write, NotedMove, XiangqiGame};
/// let game = XiangqiGame {
///     tags: vec![("Red".into(), "胡荣华".into())],
///     moves: ["h2e2", "h9g7"].map(NotedMove::new).into(),
///     ..XiangqiGame::default()
/// };
/// let text = write(&[game]).unwrap();
/// assert_eq!(text, "[Game \"Chinese Chess\"]\n[Variant \"xiangqi\"]\n[Red \"胡荣华\"]\n\
///                   [Result \"*\"]\n\n1. 炮二平五 马8进7\n*\n");
/// ```
pub fn write(games: &[XiangqiGame]) -> Result<String, WriteError> {
    let texts = games
        .iter()
        .map(write_game)
        .collect::<Result<Vec<_>, _>>()?;
    Ok(texts.join("\n"))
}

/// Writes one game as PGN. Its moves are played from its start to name them; a move the
/// rules refuse is an error.
pub fn write_game(game: &XiangqiGame) -> Result<String, WriteError> {
    let mut out = String::from("[Game \"Chinese Chess\"]\n[Variant \"xiangqi\"]\n");
    for (name, value) in &game.tags {
        if !OWN_TAGS.contains(&name.to_ascii_lowercase().as_str()) && is_tag_name(name) {
            out.push_str(&format!("[{name} \"{}\"]\n", escape(value)));
        }
    }
    let result = game.result.as_deref().unwrap_or("*");
    out.push_str(&format!("[Result \"{}\"]\n", escape(result)));
    if let Some(fen) = &game.fen {
        out.push_str(&format!("[FEN \"{}\"]\n", escape(fen)));
    }
    out.push('\n');
    if let Some(comment) = &game.comment {
        out.push_str(&format!("{{{}}}\n", comment_text(comment)));
    }
    let position = game.start().map_err(|problem| WriteError::BadFen {
        fen: game.fen.clone().unwrap_or_default(),
        problem,
    })?;
    write_line(&mut out, position, &game.moves, 0)?;
    if out.ends_with(' ') {
        out.pop();
    }
    if !out.ends_with('\n') {
        out.push('\n');
    }
    out.push_str(result);
    out.push('\n');
    Ok(out)
}

/// Writes a line of moves from `position`: the main line (`depth` 0) one move pair a line,
/// a variation on one line; each move's variations in `( … )` after it and its comment.
fn write_line(
    out: &mut String,
    mut position: Position,
    moves: &[NotedMove],
    depth: usize,
) -> Result<(), WriteError> {
    if depth > MAX_NESTING {
        return Err(WriteError::TooDeep);
    }
    let mut number = fullmove(Some(&position.fen()));
    let mut numbered = false;
    for (i, noted) in moves.iter().enumerate() {
        let refused = |reason: Illegal| WriteError::IllegalMove {
            ply: i + 1,
            iccs: noted.iccs.clone(),
            reason,
        };
        if !noted.iccs.is_ascii() || noted.iccs.len() != 4 {
            return Err(refused(Illegal::NotAMove(noted.iccs.clone())));
        }
        let mover = position.turn();
        let mv = position.read_move(&noted.iccs).or_else(|reason| {
            // Moves after a threefold repetition the players did not claim, as read.
            if reason == Illegal::GameOver && !position.legal_moves().is_empty() {
                let fresh =
                    Position::from_fen(&position.fen()).map_err(|_| refused(Illegal::GameOver))?;
                fresh.read_move(&noted.iccs).map_err(refused)
            } else {
                Err(refused(reason))
            }
        })?;
        match mover {
            Color::Red => out.push_str(&format!("{number}. ")),
            Color::Black if !numbered => out.push_str(&format!("{number}... ")),
            Color::Black => {}
        }
        out.push_str(&position.chinese(&mv));
        let before = (!noted.variations.is_empty()).then(|| position.fen());
        position.apply(mv);
        if let Some(comment) = &noted.comment {
            out.push_str(&format!(" {{{}}}", comment_text(comment)));
        }
        numbered = mover == Color::Red;
        for variation in &noted.variations {
            let start = before.as_deref().map(Position::from_fen);
            let Some(Ok(start)) = start else {
                return Err(refused(Illegal::GameOver));
            };
            out.push_str(" (");
            write_line(out, start, variation, depth + 1)?;
            if out.ends_with(' ') {
                out.pop();
            }
            out.push(')');
            numbered = false;
        }
        if mover == Color::Black {
            number += 1;
        }
        let line_end = depth == 0 && mover == Color::Black;
        out.push(if line_end { '\n' } else { ' ' });
    }
    Ok(())
}

/// The move number of the FEN's first move (its sixth field), 1 if it has none.
fn fullmove(fen: Option<&str>) -> u32 {
    fen.and_then(|f| f.split_whitespace().nth(5))
        .and_then(|n| n.parse().ok())
        .filter(|&n| n > 0 && n < 100_000)
        .unwrap_or(1)
}

/// Whether `name` can be written as a tag name the reader reads back.
fn is_tag_name(name: &str) -> bool {
    !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_alphanumeric() || c == '_' || c == '-')
}

/// A tag value with `\` and `"` escaped, line breaks as spaces.
fn escape(value: &str) -> String {
    value
        .replace('\\', "\\\\")
        .replace('"', "\\\"")
        .replace(['\n', '\r'], " ")
}

/// A comment's text for `{…}`: a `}` in it, which PGN cannot escape, becomes the full-width
/// `｝`.
fn comment_text(comment: &str) -> String {
    comment.replace('}', "｝")
}

#[cfg(test)]
mod tests {
    use super::super::read;
    use super::*;

    fn noted(moves: &[&str]) -> Vec<NotedMove> {
        moves.iter().map(|&m| NotedMove::new(m)).collect()
    }

    #[test]
    fn tags_and_comments_survive_the_round_trip() {
        let mut game = XiangqiGame {
            tags: vec![
                ("Event".into(), "全国赛 \"决赛\"".into()),
                ("Red".into(), "许银川".into()),
            ],
            comment: Some("开局 {中炮}".into()),
            moves: noted(&["h2e2", "h9g7", "h0g2"]),
            result: Some("1-0".into()),
            ..XiangqiGame::default()
        };
        game.moves[1].comment = Some("屏风马".into());
        let text = write(&[game.clone(), game.clone()]).unwrap();
        let back = read(text.as_bytes()).unwrap();
        assert_eq!(back.len(), 2);
        assert_eq!(back[0].moves, game.moves);
        assert_eq!(back[0].comment.as_deref(), Some("开局 {中炮｝"));
        assert_eq!(back[0].tag("Event"), Some("全国赛 \"决赛\""));
        assert_eq!(back[0].tag("Variant"), Some("xiangqi"));
        assert_eq!(back[0].result.as_deref(), Some("1-0"));
    }

    #[test]
    fn an_illegal_move_is_not_written() {
        let game = XiangqiGame {
            moves: noted(&["h2e2", "h2e2"]),
            ..XiangqiGame::default()
        };
        let err = write(&[game]).unwrap_err();
        assert!(matches!(err, WriteError::IllegalMove { ply: 2, .. }));
        let bad = XiangqiGame {
            moves: noted(&["炮二平五"]),
            ..XiangqiGame::default()
        };
        assert!(matches!(
            write(&[bad]).unwrap_err(),
            WriteError::IllegalMove { ply: 1, .. }
        ));
    }
}
