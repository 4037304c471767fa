//! Reading xiangqi PGN: tags, comments, variations (skipped), move numbers, results, and
//! moves in Chinese notation, ICCS or WXF, each played through the rules engine.
//!
//! One pass over the characters, no recursion: each open variation is a line of its own on
//! a stack (at most [`MAX_NESTING`] deep), set up from the position before the move it
//! replaces, and its moves are checked like the main line's.

use super::error::{Place, ReadError};
use super::text::{names_xiangqi, simplified, unescape, value_end, without_move_number, Cursor};
use super::{decode, NotedMove, XiangqiGame, MAX_BYTES, MAX_GAMES, MAX_MOVES, MAX_PLIES};
use crate::record::MAX_NESTING;
use crate::rules::xiangqi::{Illegal, Kind, Position};

/// Reads every game of a record from its raw bytes (any encoding [`decode`] knows); errors
/// name the file `<input>`. Never panics; refuses more than [`MAX_BYTES`].
///
/// ```
/// use qiyuan::record::xiangqi::read;
/// let games = read("1. h2e2 h9g7 2. H2+3 (2. C8=7) 車９平８ *".as_bytes()).unwrap();
/// assert_eq!(games[0].iccs(), ["h2e2", "h9g7", "h0g2", "i9h9"]);
/// ```
pub fn read(bytes: &[u8]) -> Result<Vec<XiangqiGame>, ReadError> {
    read_named("<input>", bytes)
}

/// Reads every game of the record file `file` from its raw bytes.
pub fn read_named(file: &str, bytes: &[u8]) -> Result<Vec<XiangqiGame>, ReadError> {
    if bytes.len() > MAX_BYTES {
        return Err(ReadError::TooLarge {
            file: file.to_string(),
            bytes: bytes.len(),
        });
    }
    read_text(file, &decode(bytes).0)
}

/// Reads every game of a record's text (already decoded).
pub fn read_text(file: &str, text: &str) -> Result<Vec<XiangqiGame>, ReadError> {
    let mut reader = Reader {
        cursor: Cursor {
            text,
            pos: 0,
            line: 1,
            col: 1,
        },
        file,
        games: Vec::new(),
        game: Game::default(),
        total_moves: 0,
    };
    reader.run()?;
    if reader.games.is_empty() {
        return Err(ReadError::Empty {
            file: file.to_string(),
        });
    }
    Ok(reader.games)
}

/// A game being read.
#[derive(Default)]
struct Game {
    tags: Vec<(String, String)>,
    /// Where the `FEN` tag stands, and its text.
    fen: Option<(Place, String)>,
    /// The main line, then each variation open (the innermost last); empty until the
    /// position is set up, at the first move (or the game's end).
    lines: Vec<Line>,
    /// The comment before the first move.
    comment: Option<String>,
    result: Option<String>,
    /// Whether movetext (a move, a comment, a result) has begun: a tag then starts a new game.
    movetext: bool,
    /// The FEN as Fairy-Stockfish writes it, once the position is set up from it.
    start_fen: Option<String>,
    /// Where the first tag stands (for errors about the game as a whole).
    first: Option<Place>,
}

/// The main line or a variation being read.
struct Line {
    /// The position after its moves so far.
    position: Position,
    /// The FEN before its last move: where a variation of that move starts.
    before_last: Option<String>,
    moves: Vec<NotedMove>,
    /// Where its `(` stands (none for the main line).
    opened: Option<Place>,
    /// A variation's comment before its first move.
    comment: Option<String>,
}

impl Line {
    fn new(position: Position, opened: Option<Place>) -> Line {
        Line {
            position,
            before_last: None,
            moves: Vec::new(),
            opened,
            comment: None,
        }
    }
}

struct Reader<'t> {
    cursor: Cursor<'t>,
    file: &'t str,
    games: Vec<XiangqiGame>,
    game: Game,
    total_moves: usize,
}

const DELIMITERS: &str = "[]{}();";
const RESULTS: [&str; 5] = ["1-0", "0-1", "1/2-1/2", "½-½", "*"];

impl Reader<'_> {
    fn place(&self) -> Place {
        Place {
            file: self.file.to_string(),
            line: self.cursor.line,
            col: self.cursor.col,
        }
    }

    /// How many variations are open.
    fn depth(&self) -> usize {
        self.game.lines.len().saturating_sub(1)
    }

    fn run(&mut self) -> Result<(), ReadError> {
        while let Some(c) = self.cursor.peek() {
            let at = self.place();
            let depth = self.depth();
            match c {
                c if c.is_whitespace() => {
                    self.cursor.next();
                }
                '%' if at.col == 1 => {
                    self.cursor.take_until(|c| c == '\n');
                }
                '[' if depth == 0 => {
                    if self.game.movetext {
                        self.finish()?;
                    }
                    self.tag(at)?;
                }
                '{' => {
                    self.cursor.next();
                    let text = self.cursor.take_until(|c| c == '}');
                    if self.cursor.next().is_none() {
                        return Err(ReadError::UnclosedComment { at });
                    }
                    self.note(text);
                }
                ';' => {
                    self.cursor.next();
                    let text = self.cursor.take_until(|c| c == '\n');
                    self.note(text);
                }
                '(' => {
                    self.cursor.next();
                    self.open(at)?;
                }
                ')' => {
                    self.cursor.next();
                    self.close(at)?;
                }
                _ => {
                    let token = self
                        .cursor
                        .take_until(|c| c.is_whitespace() || DELIMITERS.contains(c));
                    if token.is_empty() {
                        // A `[` or `]` inside a variation, or a stray `]`.
                        self.cursor.next();
                    } else {
                        self.token(token, at)?;
                    }
                }
            }
        }
        if let Some(at) = self.game.lines.get(1).and_then(|l| l.opened.clone()) {
            return Err(ReadError::UnclosedVariation { at });
        }
        self.finish()
    }

    /// A `(`: a variation of the last move begins, from the position before it.
    fn open(&mut self, at: Place) -> Result<(), ReadError> {
        self.game.movetext = true;
        self.set_up()?;
        if self.game.lines.len() > MAX_NESTING {
            return Err(ReadError::TooDeep { at });
        }
        let before = self
            .game
            .lines
            .last()
            .and_then(|l| l.before_last.as_deref());
        let Some(Ok(position)) = before.map(Position::from_fen) else {
            return Err(ReadError::VariationWithoutMove { at });
        };
        self.game.lines.push(Line::new(position, Some(at)));
        Ok(())
    }

    /// A `)`: the innermost variation ends, kept with the move it replaces.
    fn close(&mut self, at: Place) -> Result<(), ReadError> {
        if self.game.lines.len() < 2 {
            return Err(ReadError::UnopenedVariation { at });
        }
        let Some(mut line) = self.game.lines.pop() else {
            return Err(ReadError::UnopenedVariation { at });
        };
        if let (Some(comment), Some(first)) = (line.comment.take(), line.moves.first_mut()) {
            first.comment = Some(match first.comment.take() {
                Some(after) => format!("{comment}\n{after}"),
                None => comment,
            });
        }
        let parent = self.game.lines.last_mut().and_then(|l| l.moves.last_mut());
        if let Some(last) = parent.filter(|_| !line.moves.is_empty()) {
            last.variations.push(line.moves);
        }
        Ok(())
    }

    /// Reads `[Name "value"]`, the cursor on the `[`.
    fn tag(&mut self, at: Place) -> Result<(), ReadError> {
        let bad = || ReadError::BadTag { at: at.clone() };
        self.cursor.next();
        self.cursor.take_until(|c| !c.is_whitespace());
        let name = self
            .cursor
            .take_until(|c| !(c.is_alphanumeric() || c == '_' || c == '-'));
        self.cursor.take_until(|c| !c.is_whitespace());
        if name.is_empty() || self.cursor.next() != Some('"') {
            return Err(bad());
        }
        let raw = value_end(self.cursor.rest()).ok_or_else(bad)?;
        let value = unescape(raw);
        self.cursor.skip_bytes(raw.len() + 1);
        self.cursor.take_until(|c| !c.is_whitespace());
        if self.cursor.next() != Some(']') {
            return Err(bad());
        }
        self.game.first.get_or_insert(at.clone());
        let key = name.to_ascii_lowercase();
        if key == "fen" {
            self.game.fen = Some((at, value));
            return Ok(());
        }
        if (key == "game" || key == "variant") && !names_xiangqi(&value) {
            return Err(ReadError::OtherGame { at, game: value });
        }
        self.game.tags.push((name.to_string(), value));
        Ok(())
    }

    /// A comment: after the last move of the innermost line, or before its first (a
    /// variation's is kept with its first move).
    fn note(&mut self, text: &str) {
        let text = text.trim().to_string();
        self.game.movetext = true;
        if text.is_empty() {
            return;
        }
        let depth = self.depth();
        let slot = match self.game.lines.last_mut() {
            Some(line) => match line.moves.last_mut() {
                Some(last) => &mut last.comment,
                None if depth > 0 => &mut line.comment,
                None => &mut self.game.comment,
            },
            None => &mut self.game.comment,
        };
        match slot {
            Some(old) => {
                old.push('\n');
                old.push_str(&text);
            }
            None => *slot = Some(text),
        }
    }

    /// A word of movetext: a result, a move number, an annotation or a move.
    fn token(&mut self, token: &str, at: Place) -> Result<(), ReadError> {
        if RESULTS.contains(&token) {
            if self.depth() > 0 {
                return Ok(());
            }
            self.game.result = Some(token.replace('½', "1/2"));
            self.game.movetext = true;
            return self.finish();
        }
        if token.starts_with('$') || token.chars().all(|c| "!?".contains(c)) {
            return Ok(());
        }
        let text = without_move_number(token);
        if text.is_empty() {
            return Ok(());
        }
        let text = text.trim_end_matches(['!', '?', '#']);
        self.play(text, at)
    }

    fn play(&mut self, text: &str, at: Place) -> Result<(), ReadError> {
        self.game.movetext = true;
        self.total_moves += 1;
        if self.total_moves > MAX_MOVES {
            return Err(ReadError::TooManyMoves { at });
        }
        self.set_up()?;
        let Some(line) = self.game.lines.last_mut() else {
            return Ok(());
        };
        let ply = line.moves.len() + 1;
        if ply > MAX_PLIES {
            return Err(ReadError::GameTooLong { at });
        }
        let position = &mut line.position;
        let written = simplified(text);
        let refused = |reason: Illegal| ReadError::IllegalMove {
            at: at.clone(),
            ply,
            text: text.to_string(),
            reason,
        };
        let (mv, fresh) = match position.read_move(&written) {
            Ok(mv) => (mv, false),
            // Repeated three times, yet the players went on: read on, from the same board.
            Err(Illegal::GameOver)
                if position.repetitions() >= 2 && !position.legal_moves().is_empty() =>
            {
                let fresh =
                    Position::from_fen(&position.fen()).map_err(|_| refused(Illegal::GameOver))?;
                (fresh.read_move(&written).map_err(refused)?, true)
            }
            Err(reason) => return Err(refused(reason)),
        };
        line.before_last = Some(position.fen());
        position.apply(mv);
        // No position before a capture or a soldier's move can arise again: the history
        // the repetition rules look through (one hash a move, scanned at every move)
        // starts again, so that a long game costs time in proportion to its length.
        if fresh || mv.captured.is_some() || mv.piece == Kind::Pawn {
            if let Ok(again) = Position::from_fen(&position.fen()) {
                *position = again;
            }
        }
        line.moves.push(NotedMove::new(mv.iccs()));
        Ok(())
    }

    /// Sets up the game's position from its FEN (or the start), once.
    fn set_up(&mut self) -> Result<(), ReadError> {
        if !self.game.lines.is_empty() {
            return Ok(());
        }
        let position = match &self.game.fen {
            Some((at, fen)) => Position::from_fen(fen).map_err(|problem| ReadError::BadFen {
                at: at.clone(),
                fen: fen.clone(),
                problem,
            })?,
            None => Position::start(),
        };
        if self.game.fen.is_some() {
            self.game.start_fen = Some(position.fen());
        }
        self.game.lines.push(Line::new(position, None));
        Ok(())
    }

    /// Ends the game being read: kept if it has a tag, a move, a comment or a result.
    fn finish(&mut self) -> Result<(), ReadError> {
        let game = std::mem::take(&mut self.game);
        let empty = game.tags.is_empty()
            && game.fen.is_none()
            && game.lines.iter().all(|l| l.moves.is_empty())
            && game.comment.is_none()
            && game.result.is_none();
        if empty {
            return Ok(());
        }
        if self.games.len() >= MAX_GAMES {
            let at = game.first.unwrap_or_else(|| self.place());
            return Err(ReadError::TooManyGames { at });
        }
        self.game = game;
        self.set_up()?;
        let mut game = std::mem::take(&mut self.game);
        let moves = game
            .lines
            .drain(..)
            .next()
            .map(|l| l.moves)
            .unwrap_or_default();
        let result = game.result.or_else(|| {
            game.tags
                .iter()
                .find(|(k, _)| k.eq_ignore_ascii_case("result"))
                .map(|(_, v)| v.clone())
                .filter(|v| !v.is_empty())
        });
        self.games.push(XiangqiGame {
            tags: game.tags,
            fen: game.start_fen,
            comment: game.comment,
            moves,
            result,
        });
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lang::Lang;

    fn moves(text: &str) -> Vec<String> {
        let games = read(text.as_bytes()).unwrap();
        games[0].iccs().iter().map(|m| m.to_string()).collect()
    }

    #[test]
    fn every_notation_reads_the_same_moves() {
        let want = ["h2e2", "h9g7", "h0g2", "i9h9"];
        for text in [
            "1. 炮二平五 馬８進７ 2. 馬二進三 車９平８",
            "1. 炮二平五 马8进7 2. 马二进三 车9平8",
            "1.炮二平五 马８进７ 2.傌二進三 俥9平8",
            "1. h2e2 h9g7 2. h0g2 i9h9",
            "1. H2-E2 H9-G7 2. H0-G2 I9-H9",
            "1. C2=5 H8+7 2. H2+3 R9=8",
            "1. C2.5 H8+7 2. H2+3 R1+1 *",
            "1. Ｃ２＝５ Ｈ８＋７ 2. Ｈ２＋３ Ｒ９＝８",
        ] {
            let got = moves(text);
            if text.contains("R1+1") {
                // R1+1 names Black's other chariot: a9a8.
                assert_eq!(got[3], "a9a8", "{text}");
                continue;
            }
            assert_eq!(got, want, "{text}");
        }
    }

    #[test]
    fn variations_and_comments_are_kept_and_annotations_skipped() {
        let text = "{开局} 1. 炮二平五! {中炮} ; 最常见\n\
                    ({飞相} 1. 相三进五 (1. 兵七进一) 马8进7 *) 1... 马8进7 $1 2. 马二进三?! *";
        let games = read(text.as_bytes()).unwrap();
        let game = &games[0];
        assert_eq!(game.iccs(), ["h2e2", "h9g7", "h0g2"]);
        assert_eq!(game.comment.as_deref(), Some("开局"));
        assert_eq!(game.moves[0].comment.as_deref(), Some("中炮\n最常见"));
        assert_eq!(game.result.as_deref(), Some("*"));
        let variation = &game.moves[0].variations[0];
        assert_eq!(variation[0].iccs, "g0e2");
        assert_eq!(variation[0].comment.as_deref(), Some("飞相"));
        assert_eq!(variation[0].variations, [vec![NotedMove::new("c3c4")]]);
        assert_eq!(variation[1].iccs, "h9g7");
        let again = crate::record::xiangqi::write(&games).unwrap();
        assert!(again.contains("1. 炮二平五 {中炮\n最常见} (1. 相三进五 {飞相} (1. 兵七进一) 1... 马8进7) 1... 马8进7\n2. 马二进三\n*"), "{again}");
        assert_eq!(read(again.as_bytes()).unwrap()[0].moves, game.moves);
    }

    #[test]
    fn a_bad_move_in_a_variation_is_refused() {
        let err = read("1. 炮二平五 (1. 炮二平九) *".as_bytes()).unwrap_err();
        assert!(
            matches!(err, ReadError::IllegalMove { ply: 1, .. }),
            "{err:?}"
        );
        let err = read("(1. 炮二平五) *".as_bytes()).unwrap_err();
        assert!(
            matches!(err, ReadError::VariationWithoutMove { .. }),
            "{err:?}"
        );
        let deep = format!("1. h2e2 {}", "(1. h2d2 ".repeat(MAX_NESTING + 1));
        assert!(matches!(
            read(deep.as_bytes()),
            Err(ReadError::TooDeep { .. })
        ));
    }

    #[test]
    fn several_games_in_one_file_are_split_at_their_tags() {
        let text = "[Event \"一\"]\n1. 炮二平五 1-0\n\n[Event \"二\"]\n[FEN \"4k4/9/9/9/9/9/9/9/9/3K5 w\"]\n\
                    1. 帅六进一 1/2-1/2\n[Event \"三\"]\n1. h2e2";
        let games = read(text.as_bytes()).unwrap();
        assert_eq!(games.len(), 3);
        assert_eq!(
            games[1].fen.as_deref(),
            Some("4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1")
        );
        assert_eq!(games[1].iccs(), ["d0d1"]);
        assert_eq!(games[1].result.as_deref(), Some("1/2-1/2"));
        assert_eq!(games[2].tag("event"), Some("三"));
        assert_eq!(games[2].result, None);
    }

    #[test]
    fn unescaped_quotes_in_a_tag_are_kept() {
        let text = "[Event \"1999年\"中视股份杯\"总决赛 (半决赛)\"] [Red \"吕钦\"]\n1. 炮二平五";
        let games = read(text.as_bytes()).unwrap();
        assert_eq!(
            games[0].tag("Event"),
            Some("1999年\"中视股份杯\"总决赛 (半决赛)")
        );
        assert_eq!(games[0].tag("Red"), Some("吕钦"));
    }

    #[test]
    fn the_first_bad_move_is_placed_and_explained() {
        let err = read_named(
            "x.pgn",
            "1. 炮二平五 马8进7\n2. 马二进三 卒7进1\n3. 车九进二 车9平7".as_bytes(),
        )
        .unwrap_err();
        let ReadError::IllegalMove {
            ref at,
            ply,
            ref text,
            ..
        } = err
        else {
            panic!("{err:?}");
        };
        assert_eq!((at.line, at.col, ply, text.as_str()), (3, 9, 6, "车9平7"));
        assert!(err.explain(Lang::En).starts_with("x.pgn:3:9: move 6"));
        assert!(err.explain(Lang::Zh).contains("第 6 步"));
    }

    #[test]
    fn broken_text_is_refused_by_cause() {
        let cases: [(&str, fn(&ReadError) -> bool); 8] = [
            ("", |e| matches!(e, ReadError::Empty { .. })),
            ("[Event \"x\"", |e| matches!(e, ReadError::BadTag { .. })),
            ("1. 炮二平五 {note", |e| {
                matches!(e, ReadError::UnclosedComment { .. })
            }),
            ("1. 炮二平五 (1. h2e2", |e| {
                matches!(e, ReadError::UnclosedVariation { .. })
            }),
            ("1. 炮二平五 )", |e| {
                matches!(e, ReadError::UnopenedVariation { .. })
            }),
            ("[Game \"Chess\"]\n1. e4", |e| {
                matches!(e, ReadError::OtherGame { .. })
            }),
            ("[FEN \"9/9/9/9/9/9/9/9/9/9 w\"]\n*", |e| {
                matches!(e, ReadError::BadFen { .. })
            }),
            ("1. xyz", |e| {
                matches!(
                    e,
                    ReadError::IllegalMove {
                        reason: Illegal::NotAMove(_),
                        ..
                    }
                )
            }),
        ];
        for (text, is) in cases {
            let err = read(text.as_bytes()).unwrap_err();
            assert!(is(&err), "{text}: {err:?}");
            assert!(!err.explain(Lang::Zh).is_empty() && !err.explain(Lang::En).is_empty());
        }
        let big = vec![b' '; MAX_BYTES + 1];
        assert!(matches!(read(&big), Err(ReadError::TooLarge { .. })));
    }

    #[test]
    fn too_many_games_are_refused() {
        let text = "* ".repeat(MAX_GAMES + 1);
        assert!(matches!(
            read(text.as_bytes()),
            Err(ReadError::TooManyGames { .. })
        ));
    }

    #[test]
    fn a_game_goes_on_after_an_unclaimed_repetition() {
        let shuffle = "h0g2 h9g7 g2h0 g7h9 ".repeat(3);
        let text = format!("{shuffle} h2e2");
        assert_eq!(moves(&text).len(), 13);
    }
}
