//! Chess game records in PGN: files of many games with variations, comments and NAGs, read
//! with pgn-reader into [`Record`]s (every move played through our engine, kept in UCI), and
//! written back with SAN from our engine.
//!
//! **Reading.** The Seven Tag Roster's `White`, `Black`, `Event` and `Date` are the tags
//! (`?` means unknown), every other tag pair is kept in order; `FEN` (with `SetUp`) is the
//! start. A game whose `Variant` is not standard chess, or whose FEN is a Chess960 set-up,
//! is refused with [`RecordError::Variant`]. The result is `Result` (or the movetext's
//! closing token); its reason comes from `Termination` (`time forfeit`, `abandoned`) or the
//! final position of the main line (mate, stalemate, dead position, threefold repetition,
//! fifty moves), and is otherwise resignation for a win and agreement for a draw. A UTF-8
//! byte-order mark is skipped; text that is not UTF-8 is read as Latin-1 (the PGN standard's
//! character set).
//!
//! **Writing.** The Seven Tag Roster first, then `SetUp`/`FEN` when the start is not the
//! standard one, `Termination`, the kept tags; moves in SAN with their numbers, NAGs as
//! `$n`, comments in braces (a `}` inside becomes `)`), variations in parentheses, and the
//! result; lines at most 80 characters.
//!
//! ```
//! use qiyuan::record::pgn;
//! let text = "[White \"Anand\"]\n[Black \"Carlsen\"]\n[Result \"*\"]\n\n1. e4 $1 {Best by test} (1. d4 d5) 1... e5 *\n";
//! let games = pgn::read("g.pgn", text.as_bytes()).unwrap();
//! assert_eq!(games[0].main_line(), ["e2e4", "e7e5"]);
//! assert_eq!(games[0].moves[0].nags, [1]);
//! assert_eq!(games[0].moves[0].variations[0][1].mv, "d7d5");
//! let out = pgn::write(&games[0]).unwrap();
//! assert!(out.contains("1. e4 $1 {Best by test} (1. d4 d5) 1... e5 *"), "{out}");
//! ```

use super::{within_nesting, Record, RecordError, Step, Tags, MAX_NESTING, MAX_PLIES};
use crate::base::{Finish, Reason, Side, Start};
use crate::rules::chess;
use pgn_reader::{Nag, Outcome, RawComment, RawTag, Reader, SanPlus, Skip, Visitor};
use std::ops::ControlFlow;

/// A PGN file's text: UTF-8 (its byte-order mark dropped) when the bytes are UTF-8, else
/// Windows-1252 (the old ChessBase exports).
pub fn decode(bytes: &[u8]) -> std::borrow::Cow<'_, str> {
    let bytes = bytes.strip_prefix(b"\xef\xbb\xbf").unwrap_or(bytes);
    match std::str::from_utf8(bytes) {
        Ok(text) => text.into(),
        Err(_) => encoding_rs::WINDOWS_1252
            .decode_without_bom_handling(bytes)
            .0
            .into_owned()
            .into(),
    }
}

/// Reads every game of the PGN file `name` from its raw bytes.
pub fn read(name: &str, bytes: &[u8]) -> Result<Vec<Record>, RecordError> {
    let text = decode(bytes);
    let mut reader = Reader::new(text.as_bytes());
    let mut out = Vec::new();
    let mut number = 0;
    loop {
        number += 1;
        let mut visitor = GameReader {
            place: format!("{name} (game {number})"),
        };
        match reader.read_game(&mut visitor) {
            Ok(Some(Ok(record))) => out.push(record),
            Ok(Some(Err(e))) => return Err(e),
            Ok(None) => break,
            Err(e) => {
                return Err(RecordError::Syntax {
                    place: format!("{name} (game {number})"),
                    detail: e.to_string(),
                })
            }
        }
    }
    Ok(out)
}

struct GameReader {
    place: String,
}

/// A line being read: its steps, the position before the last (where a variation of the
/// last step starts), and after the last. Only these two positions are kept: each carries
/// the repetition history since the last capture or pawn move, so keeping one a step would
/// take memory growing with the square of the moves.
struct Frame {
    steps: Vec<Step>,
    before: Option<chess::Position>,
    board: chess::Position,
    /// A comment before the line's first move.
    lead: String,
}

struct Movetext {
    record: Record,
    stack: Vec<Frame>,
    termination: Option<String>,
    result: Option<String>,
    /// How many variations were skipped because they stood before any move.
    skipped: usize,
    /// The parts read so far of a comment longer than pgn-reader's buffer.
    partial_comment: Vec<u8>,
}

impl Movetext {
    fn ply(&self) -> usize {
        let frame = self.stack.last().map_or(0, |f| f.steps.len());
        1 + frame
            + self.stack[..self.stack.len().saturating_sub(1)]
                .iter()
                .map(|f| f.steps.len().saturating_sub(1))
                .sum::<usize>()
    }
}

fn join_comment(into: &mut String, text: &str) {
    let text = text.trim();
    if text.is_empty() {
        return;
    }
    if !into.is_empty() {
        into.push('\n');
    }
    into.push_str(text);
}

impl Visitor for GameReader {
    type Tags = Vec<(String, String)>;
    type Movetext = Movetext;
    type Output = Result<Record, RecordError>;

    fn begin_tags(&mut self) -> ControlFlow<Self::Output, Self::Tags> {
        ControlFlow::Continue(Vec::new())
    }

    fn tag(
        &mut self,
        tags: &mut Self::Tags,
        name: &[u8],
        value: RawTag<'_>,
    ) -> ControlFlow<Self::Output> {
        tags.push((
            String::from_utf8_lossy(name).into_owned(),
            value.decode_utf8_lossy().into_owned(),
        ));
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, tags: Self::Tags) -> ControlFlow<Self::Output, Self::Movetext> {
        let place = &self.place;
        let mut fen = None;
        let mut record_tags = Tags::default();
        let mut termination = None;
        let mut result = None;
        let known = |v: &str| {
            let v = v.trim();
            (!v.is_empty() && v != "?" && !v.starts_with("????")).then(|| v.to_string())
        };
        for (name, value) in tags {
            match name.as_str() {
                "White" => record_tags.first_player = known(&value),
                "Black" => record_tags.second_player = known(&value),
                "Event" => record_tags.event = known(&value),
                "Date" => record_tags.date = known(&value),
                "Result" => result = Some(value),
                "FEN" => fen = Some(value),
                "SetUp" => {}
                "Termination" => termination = Some(value),
                "Variant" => {
                    let v = value.trim().to_ascii_lowercase();
                    if !matches!(v.as_str(), "" | "standard" | "chess" | "from position") {
                        return ControlFlow::Break(Err(RecordError::Variant {
                            place: place.clone(),
                            variant: value,
                        }));
                    }
                }
                "Site" | "Round" if known(&value).is_none() => {}
                _ => record_tags.extra.push((name, value)),
            }
        }
        let board = match &fen {
            None => chess::Position::start(),
            Some(f) => match chess::Position::from_fen(f) {
                Ok(p) => p,
                Err(e) => {
                    return ControlFlow::Break(Err(RecordError::BadStart {
                        place: place.clone(),
                        detail: e.to_string(),
                    }))
                }
            },
        };
        if board.is_chess960() {
            return ControlFlow::Break(Err(RecordError::Variant {
                place: place.clone(),
                variant: "Chess960".into(),
            }));
        }
        // The roster's Site and Round first, as the writer puts them.
        let roster = |n: &str| match n {
            "Site" => 0,
            "Round" => 1,
            _ => 2,
        };
        record_tags.extra.sort_by_key(|(n, _)| roster(n));
        let mut record = Record::new(Start::Chess(crate::base::chess::Start { fen: board.fen() }));
        record.tags = record_tags;
        ControlFlow::Continue(Movetext {
            record,
            stack: vec![Frame {
                steps: Vec::new(),
                before: None,
                board,
                lead: String::new(),
            }],
            termination,
            result,
            skipped: 0,
            partial_comment: Vec::new(),
        })
    }

    fn san(&mut self, m: &mut Self::Movetext, san_plus: SanPlus) -> ControlFlow<Self::Output> {
        let ply = m.ply();
        if ply > MAX_PLIES {
            return ControlFlow::Break(Err(RecordError::TooLong {
                place: format!("{}, ply {ply}", self.place),
            }));
        }
        let written = san_plus.to_string();
        let Some(frame) = m.stack.last_mut() else {
            return ControlFlow::Continue(());
        };
        match frame.board.play(&written) {
            Ok((next, played)) => {
                let mut step = Step::new(played.uci);
                if frame.steps.is_empty() {
                    step.comment = std::mem::take(&mut frame.lead);
                }
                frame.steps.push(step);
                frame.before = Some(std::mem::replace(&mut frame.board, next));
                ControlFlow::Continue(())
            }
            Err(e) => ControlFlow::Break(Err(RecordError::Illegal {
                place: format!("{}, ply {ply}", self.place),
                mv: written,
                reason: crate::rules::Explain::explain(&e, crate::lang::Lang::En),
            })),
        }
    }

    fn nag(&mut self, m: &mut Self::Movetext, nag: Nag) -> ControlFlow<Self::Output> {
        if let Some(step) = m.stack.last_mut().and_then(|f| f.steps.last_mut()) {
            step.nags.push(nag.0);
        }
        ControlFlow::Continue(())
    }

    /// A part of a comment longer than pgn-reader's buffer: kept until the rest comes.
    fn partial_comment(
        &mut self,
        m: &mut Self::Movetext,
        comment: RawComment<'_>,
    ) -> ControlFlow<Self::Output> {
        m.partial_comment.extend_from_slice(comment.as_bytes());
        ControlFlow::Continue(())
    }

    fn comment(
        &mut self,
        m: &mut Self::Movetext,
        comment: RawComment<'_>,
    ) -> ControlFlow<Self::Output> {
        let text = if m.partial_comment.is_empty() {
            String::from_utf8_lossy(comment.as_bytes()).into_owned()
        } else {
            let mut whole = std::mem::take(&mut m.partial_comment);
            whole.extend_from_slice(comment.as_bytes());
            String::from_utf8_lossy(&whole).into_owned()
        };
        let depth = m.stack.len();
        if let Some(frame) = m.stack.last_mut() {
            match frame.steps.last_mut() {
                Some(step) => join_comment(&mut step.comment, &text),
                None if depth == 1 => join_comment(&mut m.record.comment, &text),
                None => join_comment(&mut frame.lead, &text),
            }
        }
        ControlFlow::Continue(())
    }

    fn begin_variation(&mut self, m: &mut Self::Movetext) -> ControlFlow<Self::Output, Skip> {
        if m.stack.len() > MAX_NESTING {
            return ControlFlow::Break(Err(RecordError::TooDeep {
                place: self.place.clone(),
            }));
        }
        let Some(board) = m.stack.last().and_then(|f| f.before.clone()) else {
            m.skipped += 1;
            return ControlFlow::Continue(Skip(true));
        };
        m.stack.push(Frame {
            steps: Vec::new(),
            before: None,
            board,
            lead: String::new(),
        });
        ControlFlow::Continue(Skip(false))
    }

    fn end_variation(&mut self, m: &mut Self::Movetext) -> ControlFlow<Self::Output> {
        if m.skipped > 0 {
            m.skipped -= 1;
            return ControlFlow::Continue(());
        }
        if m.stack.len() < 2 {
            return ControlFlow::Continue(());
        }
        if let Some(frame) = m.stack.pop() {
            if let Some(step) = m.stack.last_mut().and_then(|f| f.steps.last_mut()) {
                if !frame.steps.is_empty() {
                    step.variations.push(frame.steps);
                }
            }
        }
        ControlFlow::Continue(())
    }

    fn outcome(&mut self, m: &mut Self::Movetext, outcome: Outcome) -> ControlFlow<Self::Output> {
        if m.result.is_none() {
            m.result = Some(outcome.to_string());
        }
        ControlFlow::Continue(())
    }

    fn end_game(&mut self, mut m: Self::Movetext) -> Self::Output {
        while m.stack.len() > 1 {
            let frame = m.stack.pop().expect("two frames");
            if let Some(step) = m.stack.last_mut().and_then(|f| f.steps.last_mut()) {
                if !frame.steps.is_empty() {
                    step.variations.push(frame.steps);
                }
            }
        }
        let main = m.stack.pop().expect("the main line's frame");
        m.record.moves = main.steps;
        m.record.tags.result = finish(m.result.as_deref(), m.termination.as_deref(), &main.board);
        if let Some(t) = m.termination {
            let t_lower = t.to_ascii_lowercase();
            if !matches!(t_lower.as_str(), "normal" | "time forfeit" | "abandoned") {
                m.record.tags.extra.push(("Termination".into(), t));
            }
        }
        if let Some(r) = m
            .result
            .filter(|r| !matches!(r.as_str(), "1-0" | "0-1" | "1/2-1/2" | "*"))
        {
            m.record
                .notes
                .push(format!("the result `{r}` is not one PGN knows; left out"));
        }
        Ok(m.record)
    }
}

/// How a game ended from its `Result`, its `Termination` and the final position.
fn finish(
    result: Option<&str>,
    termination: Option<&str>,
    end: &chess::Position,
) -> Option<Finish> {
    let winner = match result?.trim() {
        "1-0" => Some(Side::First),
        "0-1" => Some(Side::Second),
        "1/2-1/2" => None,
        _ => return None,
    };
    let termination = termination.map(|t| t.trim().to_ascii_lowercase());
    let reason = match (termination.as_deref(), end.outcome(), winner) {
        (Some("time forfeit"), _, _) => Reason::Timeout,
        (Some("abandoned"), _, _) => Reason::Abandoned,
        (_, Some(chess::Outcome::Checkmate { .. }), Some(_)) => Reason::Checkmate,
        (_, _, Some(_)) => Reason::Resignation,
        (_, Some(chess::Outcome::Stalemate), None) => Reason::Stalemate,
        (_, Some(chess::Outcome::InsufficientMaterial), None) => Reason::InsufficientMaterial,
        (_, Some(chess::Outcome::ThreefoldRepetition), None) => Reason::Repetition,
        (_, Some(chess::Outcome::FiftyMoves), None) => Reason::FiftyMoves,
        (_, _, None) => Reason::Agreement,
    };
    Some(Finish { winner, reason })
}

/// The `Result` tag of a finish (`*` for none).
fn result_text(finish: Option<&Finish>) -> &'static str {
    match finish.map(|f| f.winner) {
        Some(Some(Side::First)) => "1-0",
        Some(Some(Side::Second)) => "0-1",
        Some(None) => "1/2-1/2",
        None => "*",
    }
}

/// Writes a chess record as PGN.
pub fn write(record: &Record) -> Result<String, RecordError> {
    let Start::Chess(crate::base::chess::Start { fen }) = &record.start else {
        return Err(RecordError::WrongGame {
            format: PGN,
            game: record.start.game(),
        });
    };
    let start = chess::Position::from_fen(fen).map_err(|e| RecordError::BadStart {
        place: "record".into(),
        detail: e.to_string(),
    })?;
    let tags = &record.tags;
    let extra = |name: &str| {
        tags.extra
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.clone())
    };
    let or_unknown =
        |v: &Option<String>, unknown: &str| v.clone().unwrap_or_else(|| unknown.into());
    let result = result_text(tags.result.as_ref());
    let mut out = String::new();
    let mut tag = |name: &str, value: &str| {
        let value = value.replace('\\', "\\\\").replace('"', "\\\"");
        out.push_str(&format!("[{name} \"{value}\"]\n"));
    };
    tag("Event", &or_unknown(&tags.event, "?"));
    tag("Site", &extra("Site").unwrap_or_else(|| "?".into()));
    tag("Date", &or_unknown(&tags.date, "????.??.??"));
    tag("Round", &extra("Round").unwrap_or_else(|| "?".into()));
    tag("White", &or_unknown(&tags.first_player, "?"));
    tag("Black", &or_unknown(&tags.second_player, "?"));
    tag("Result", result);
    if start.fen() != chess::Position::start().fen() {
        tag("SetUp", "1");
        tag("FEN", &start.fen());
    }
    if let Some(f) = &tags.result {
        if extra("Termination").is_none() {
            tag(
                "Termination",
                match f.reason {
                    Reason::Timeout => "time forfeit",
                    Reason::Abandoned => "abandoned",
                    _ => "normal",
                },
            );
        }
    }
    for (name, value) in &tags.extra {
        if !matches!(name.as_str(), "Site" | "Round") {
            tag(name, value);
        }
    }
    out.push('\n');
    let mut tokens = Vec::new();
    if !record.comment.is_empty() {
        tokens.push(comment_token(&record.comment));
    }
    write_line(&start, &record.moves, &mut tokens, 0)?;
    tokens.push(result.to_string());
    out.push_str(&wrap(&tokens, 80));
    out.push('\n');
    Ok(out)
}

fn comment_token(text: &str) -> String {
    format!("{{{}}}", text.replace('}', ")"))
}

fn write_line(
    start: &chess::Position,
    line: &[Step],
    tokens: &mut Vec<String>,
    depth: usize,
) -> Result<(), RecordError> {
    within_nesting(depth, "record")?;
    let mut pos = start.clone();
    let mut number_black = true;
    for step in line {
        let (next, played) = pos.play(&step.mv).map_err(|e| RecordError::Illegal {
            place: "record".into(),
            mv: step.mv.clone(),
            reason: crate::rules::Explain::explain(&e, crate::lang::Lang::En),
        })?;
        let n = pos.fullmove_number();
        match pos.turn() {
            chess::Color::White => tokens.push(format!("{n}.")),
            chess::Color::Black if number_black => tokens.push(format!("{n}...")),
            chess::Color::Black => {}
        }
        tokens.push(played.san.clone());
        for nag in &step.nags {
            tokens.push(format!("${nag}"));
        }
        number_black = false;
        if !step.comment.is_empty() {
            tokens.push(comment_token(&step.comment));
            number_black = true;
        }
        for v in &step.variations {
            tokens.push("(".into());
            write_line(&pos, v, tokens, depth + 1)?;
            tokens.push(")".into());
            number_black = true;
        }
        pos = next;
    }
    Ok(())
}

/// The tokens joined by spaces (none after `(` or before `)`), in lines of at most `width`
/// characters where a token allows.
fn wrap(tokens: &[String], width: usize) -> String {
    let mut out = String::new();
    let mut line_len = 0;
    let mut prev_open = true;
    for t in tokens {
        let glue = !(prev_open || t == ")");
        let len = t.chars().count();
        if glue && line_len + 1 + len > width {
            out.push('\n');
            line_len = 0;
        } else if glue {
            out.push(' ');
            line_len += 1;
        }
        out.push_str(t);
        line_len += len;
        prev_open = t == "(";
    }
    out
}

/// PGN: chess records, many games a file, a blank line between them.
/// Whether a PGN file is of chess: unless a `[Variant]` tag names another game than
/// standard chess, or a `[Game]` tag another game than chess, in the first few kilobytes
/// (a PGN of Chinese chess says `[Game "Chinese Chess"]`).
fn is_chess(bytes: &[u8]) -> bool {
    let head = String::from_utf8_lossy(&bytes[..bytes.len().min(4096)]).to_ascii_lowercase();
    let tag = |name: &str| {
        head.lines().find_map(|l| {
            let rest = l.trim().strip_prefix('[')?.strip_prefix(name)?;
            Some(
                rest.trim()
                    .trim_end_matches(']')
                    .trim()
                    .trim_matches('"')
                    .to_string(),
            )
        })
    };
    let variant_is_chess = tag("variant").is_none_or(|v| {
        matches!(
            v.as_str(),
            "" | "standard" | "chess" | "from position" | "normal"
        )
    });
    let game_is_chess = tag("game").is_none_or(|g| g.is_empty() || g == "chess");
    variant_is_chess && game_is_chess
}

/// PGN, chess's record format.
pub const PGN: super::Format = super::Format::new(&FORMAT);

static FORMAT: super::FormatKind = super::FormatKind {
    game: crate::base::Game::Chess,
    name: "PGN",
    extensions: &["pgn"],
    mime: "application/x-chess-pgn; charset=utf-8",
    many_games: Some("\n"),
    claims: is_chess,
    read: |name, bytes, _| read(name, bytes),
    write: |record, _| write(record),
    summarize: |bytes| super::library::pgn_summaries(&decode(bytes)),
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chess960_and_variants_are_refused() {
        let err = read("v.pgn", b"[Variant \"Antichess\"]\n\n1. e3 *\n").unwrap_err();
        assert!(matches!(err, RecordError::Variant { .. }), "{err}");
        let fischer = b"[FEN \"bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9\"]\n\n9. g3 *\n";
        assert!(matches!(
            read("f.pgn", fischer),
            Err(RecordError::Variant { .. })
        ));
    }

    #[test]
    fn an_illegal_move_names_the_game_and_ply() {
        let err = read("i.pgn", b"[White \"a\"]\n\n1. e4 e5 2. Ke3 *\n").unwrap_err();
        let text = err.to_string();
        assert!(
            text.starts_with("i.pgn (game 1), ply 3: illegal move Ke3"),
            "{text}"
        );
    }

    #[test]
    fn the_reason_of_a_result_comes_from_the_final_position() {
        let mate = read("m.pgn", b"1. f3 e5 2. g4 Qh4# 0-1\n").unwrap();
        assert_eq!(
            mate[0].tags.result.map(|f| f.reason),
            Some(Reason::Checkmate)
        );
        let resign = read("r.pgn", b"[Result \"1-0\"]\n\n1. e4 1-0\n").unwrap();
        assert_eq!(
            resign[0].tags.result.map(|f| f.reason),
            Some(Reason::Resignation)
        );
        let time = read("t.pgn", b"[Termination \"time forfeit\"]\n\n1. e4 0-1\n").unwrap();
        assert_eq!(
            time[0].tags.result,
            Some(Finish {
                winner: Some(Side::Second),
                reason: Reason::Timeout
            })
        );
        let out = write(&time[0]).unwrap();
        assert!(
            out.contains("[Termination \"time forfeit\"]") && out.ends_with("1. e4 0-1\n"),
            "{out}"
        );
    }

    #[test]
    fn wraps_at_eighty_columns() {
        let tokens: Vec<String> = (0..40).map(|i| format!("t{i:02}")).collect();
        let text = wrap(&tokens, 80);
        assert!(text.lines().all(|l| l.chars().count() <= 80));
        assert_eq!(text.split_whitespace().count(), 40);
    }
}
