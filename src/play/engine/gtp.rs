//! Go over GTP (Go Text Protocol version 2): GNU Go, Pachi.
//!
//! A command is one line; the answer is `= text` or `? message` followed by an empty line.
//! The engine is kept in step with the game: the board is set up once (`boardsize`,
//! `clear_board`, `komi`, `set_free_handicap` on the points of
//! [`handicap_points`](crate::rules::go::handicap_points)) and later calls send only the
//! moves played since. A game that went back (a take-back) is set up again.
//!
//! ```text
//! > boardsize 9          > set_free_handicap G7 C3     > genmove W
//! = (empty line)         = (empty line)                = C7
//! ```

use super::process::Process;
use super::{accept_move, replay, EngineError, Timeouts};
use crate::play::{Level, Start};
use crate::rules::go;
use std::time::Instant;

/// The GNU Go `level` (0 to 10) each of our levels plays at on a board of `size`: on 19×19
/// 0, 2, 4, 7, 10; on smaller boards, where GNU Go's higher levels think for seconds in the
/// middle game (see docs/performance.md), 0, 1, 2, 3, 4, so that a move takes under a second.
///
/// ```
/// use qiyuan::play::{engine::gnugo_level, Level};
/// assert_eq!(gnugo_level(Level::MIN, 9), 0);
/// assert_eq!(gnugo_level(Level::MAX, 9), 4);
/// assert_eq!(gnugo_level(Level::MAX, 19), 10);
/// ```
pub fn gnugo_level(level: Level, size: u8) -> u8 {
    let i = usize::from(level.get() - 1);
    if size >= 19 {
        [0, 2, 4, 7, 10][i]
    } else {
        [0, 1, 2, 3, 4][i]
    }
}

/// Seconds per move given with `time_settings` to a GTP engine that has no `level`
/// command (Pachi), by our level.
fn seconds_per_move(level: Level) -> u32 {
    [1, 1, 1, 2, 3][usize::from(level.get() - 1)]
}

/// A GTP answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GtpReply {
    /// `= text`: the command succeeded (the text may be empty or span lines).
    Success(String),
    /// `? message`: the command failed.
    Failure(String),
}

/// Reads one GTP answer, its lines joined by `\n` without the final empty line: `= D4`,
/// `=12 C3` (with a command id), `? illegal move`. Anything else is a protocol error.
///
/// ```
/// use qiyuan::play::engine::{parse_gtp_reply, GtpReply};
/// assert_eq!(parse_gtp_reply("= D4"), Ok(GtpReply::Success("D4".into())));
/// assert_eq!(parse_gtp_reply("? illegal move"), Ok(GtpReply::Failure("illegal move".into())));
/// assert!(parse_gtp_reply("hello").is_err());
/// ```
pub fn parse_reply(text: &str) -> Result<GtpReply, EngineError> {
    let text = text.trim_start_matches(['\n', '\r']);
    let mut chars = text.chars();
    let success = match chars.next() {
        Some('=') => true,
        Some('?') => false,
        _ => {
            return Err(EngineError::Protocol(format!(
                "a GTP answer starts with = or ?, not `{}`",
                first_line(text)
            )))
        }
    };
    let rest = chars.as_str();
    let rest = rest.trim_start_matches(|c: char| c.is_ascii_digit());
    if !(rest.is_empty() || rest.starts_with([' ', '\t', '\n'])) {
        return Err(EngineError::Protocol(format!(
            "bad GTP answer `{}`",
            first_line(text)
        )));
    }
    let body = rest.trim().to_string();
    Ok(if success {
        GtpReply::Success(body)
    } else {
        GtpReply::Failure(body)
    })
}

fn first_line(text: &str) -> String {
    text.lines().next().unwrap_or("").chars().take(80).collect()
}

/// The GTP colour letter.
fn colour(c: go::Color) -> &'static str {
    match c {
        go::Color::Black => "B",
        go::Color::White => "W",
    }
}

/// The position of a Go start, before any move.
fn start_position(start: &Start) -> Result<(go::Position, Vec<go::Point>, u8, f64), EngineError> {
    let Start::Go(crate::base::go::Start {
        size,
        handicap,
        komi,
        ..
    }) = start
    else {
        return Err(EngineError::NotGo);
    };
    let bad = |e: String| EngineError::BadPosition(e);
    let (pos, stones) = if *handicap == 0 {
        (
            go::Position::empty(*size).map_err(|e| bad(e.to_string()))?,
            Vec::new(),
        )
    } else {
        (
            go::handicap_position(*size, *handicap).map_err(|e| bad(e.to_string()))?,
            go::handicap_points(*size, *handicap).map_err(|e| bad(e.to_string()))?,
        )
    };
    if !komi.is_finite() {
        return Err(bad(format!("komi {komi}")));
    }
    Ok((pos, stones, *size, *komi))
}

/// A GTP engine in play.
pub struct Session {
    process: Process,
    timeouts: Timeouts,
    name: String,
    knows_level: bool,
    knows_time_settings: bool,
    /// The level last set, and the board size it was set for.
    level: Option<(Level, u8)>,
    /// The start and moves the engine's board holds, when it is known to be in step.
    synced: Option<(Start, Vec<String>)>,
}

impl Session {
    /// Handshakes: `protocol_version`, `name`, `version`, and which optional commands the
    /// engine knows.
    pub fn start(process: Process, timeouts: Timeouts) -> Result<Session, EngineError> {
        let mut session = Session {
            process,
            timeouts,
            name: String::new(),
            knows_level: false,
            knows_time_settings: false,
            level: None,
            synced: None,
        };
        let bound = timeouts.start;
        let version = session.command("protocol_version", bound)?;
        if version.trim() != "2" {
            return Err(EngineError::Protocol(format!(
                "GTP protocol_version `{version}`, not 2"
            )));
        }
        let name = session.command("name", bound)?;
        let version = session.command("version", bound).unwrap_or_default();
        session.name = format!("{name} {version}").trim().to_string();
        session.knows_level = session.command("known_command level", bound)? == "true";
        session.knows_time_settings =
            session.command("known_command time_settings", bound)? == "true";
        Ok(session)
    }

    /// The engine's name and version.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Sends `command` and reads its answer within `bound`: the text of `= text`, or
    /// `Refused` for `? message`.
    pub(super) fn command(
        &mut self,
        command: &str,
        bound: std::time::Duration,
    ) -> Result<String, EngineError> {
        let deadline = Instant::now() + bound;
        self.process.send(command)?;
        let mut text = String::new();
        loop {
            let line = self.process.read_line(deadline, "a GTP answer")?;
            if text.is_empty() {
                if line.trim().is_empty() {
                    continue;
                }
                // Fail at once on a first line that is not an answer.
                parse_reply(&line)?;
            } else if line.trim().is_empty() {
                break;
            }
            text.push_str(&line);
            text.push('\n');
        }
        match parse_reply(&text)? {
            GtpReply::Success(body) => Ok(body),
            GtpReply::Failure(message) => Err(EngineError::Refused {
                command: command.to_string(),
                message,
            }),
        }
    }

    /// Brings the engine's board to `start` and `moves`, and returns our position there.
    fn sync(&mut self, start: &Start, moves: &[String]) -> Result<go::Position, EngineError> {
        let (first, stones, size, komi) = start_position(start)?;
        let (pos, played) = replay(first, moves)?;
        let from = match &self.synced {
            Some((s, m)) if s == start && moves.starts_with(m) => m.len(),
            _ => {
                self.synced = None;
                self.command(&format!("boardsize {size}"), self.timeouts.reply)?;
                self.command("clear_board", self.timeouts.reply)?;
                self.command(&format!("komi {komi}"), self.timeouts.reply)?;
                if !stones.is_empty() {
                    let points: Vec<String> = stones.iter().map(|p| p.name(size)).collect();
                    self.command(
                        &format!("set_free_handicap {}", points.join(" ")),
                        self.timeouts.reply,
                    )?;
                }
                self.synced = Some((start.clone(), Vec::new()));
                0
            }
        };
        for (color, name) in played.iter().skip(from) {
            self.command(
                &format!("play {} {name}", colour(*color)),
                self.timeouts.reply,
            )
            .inspect_err(|_| self.synced = None)?;
        }
        self.synced = Some((start.clone(), moves.to_vec()));
        Ok(pos)
    }

    fn set_level(&mut self, level: Level, size: u8) -> Result<(), EngineError> {
        if self.level == Some((level, size)) {
            return Ok(());
        }
        if self.knows_level {
            self.command(
                &format!("level {}", gnugo_level(level, size)),
                self.timeouts.reply,
            )?;
        } else if self.knows_time_settings {
            let per_move = seconds_per_move(level) * u32::from(size.max(9)) / 9;
            self.command(
                &format!("time_settings 0 {per_move} 1"),
                self.timeouts.reply,
            )?;
        }
        self.level = Some((level, size));
        Ok(())
    }

    /// `genmove` for the side to move after `moves`.
    pub fn best_move(
        &mut self,
        start: &Start,
        moves: &[String],
        level: Level,
    ) -> Result<String, EngineError> {
        let pos = self.sync(start, moves)?;
        let size = pos.size();
        self.set_level(level, size)?;
        let answer = self.command(
            &format!("genmove {}", colour(pos.turn())),
            self.timeouts.go_search_on(size),
        )?;
        let answer = answer.trim();
        if answer.eq_ignore_ascii_case("resign") {
            // The engine's board is unchanged by a resignation.
            return Ok("resign".to_string());
        }
        match accept_move(&pos, answer) {
            Ok(name) => {
                if let Some((_, m)) = &mut self.synced {
                    m.push(name.clone());
                }
                Ok(name)
            }
            Err(e) => {
                // The engine has played it on its board: set it up again next time.
                self.synced = None;
                Err(e)
            }
        }
    }

    /// `final_status_list dead` after `moves`.
    pub fn dead_stones(
        &mut self,
        start: &Start,
        moves: &[String],
    ) -> Result<Vec<String>, EngineError> {
        let pos = self.sync(start, moves)?;
        let size = pos.size();
        let text = self.command("final_status_list dead", self.timeouts.go_search_on(size))?;
        text.split_whitespace()
            .map(|v| {
                go::Point::parse(v, size)
                    .map(|p| p.name(size))
                    .map_err(|e| EngineError::Protocol(format!("dead stone `{v}`: {e}")))
            })
            .collect()
    }

    /// `final_score` after `moves`: `W+3.5`, `B+12.0` or `0`.
    pub fn final_score(&mut self, start: &Start, moves: &[String]) -> Result<String, EngineError> {
        let pos = self.sync(start, moves)?;
        let text = self.command("final_score", self.timeouts.go_search_on(pos.size()))?;
        let score = text.trim();
        if is_score(score) {
            Ok(score.to_string())
        } else {
            Err(EngineError::Protocol(format!("final_score `{score}`")))
        }
    }
}

/// `0`, or `B+`/`W+` and a number.
fn is_score(text: &str) -> bool {
    if text == "0" {
        return true;
    }
    let upper = text.to_ascii_uppercase();
    let Some(margin) = upper
        .strip_prefix("B+")
        .or_else(|| upper.strip_prefix("W+"))
    else {
        return false;
    };
    margin
        .parse::<f64>()
        .is_ok_and(|m| m.is_finite() && m >= 0.0)
}

impl super::Session for Session {
    fn name(&self) -> &str {
        Session::name(self)
    }

    fn best_move(
        &mut self,
        start: &Start,
        moves: &[String],
        level: Level,
    ) -> Result<String, EngineError> {
        Session::best_move(self, start, moves, level)
    }

    fn dead_stones(&mut self, start: &Start, moves: &[String]) -> Result<Vec<String>, EngineError> {
        Session::dead_stones(self, start, moves)
    }

    fn final_score(&mut self, start: &Start, moves: &[String]) -> Result<String, EngineError> {
        Session::final_score(self, start, moves)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn success_with_a_vertex() {
        assert_eq!(parse_reply("= D4\n"), Ok(GtpReply::Success("D4".into())));
        assert_eq!(parse_reply("=\n"), Ok(GtpReply::Success(String::new())));
        assert_eq!(parse_reply("= PASS"), Ok(GtpReply::Success("PASS".into())));
    }

    #[test]
    fn success_with_an_id_and_many_lines() {
        assert_eq!(
            parse_reply("=7 C3 D4\nE5 F6\n"),
            Ok(GtpReply::Success("C3 D4\nE5 F6".into()))
        );
    }

    #[test]
    fn failure_keeps_the_message() {
        assert_eq!(
            parse_reply("? illegal move"),
            Ok(GtpReply::Failure("illegal move".into()))
        );
        assert_eq!(
            parse_reply("?3 unknown command"),
            Ok(GtpReply::Failure("unknown command".into()))
        );
    }

    #[test]
    fn garbage_is_a_protocol_error() {
        for text in ["D4", "", "==", "=x D4", "!"] {
            assert!(
                matches!(parse_reply(text), Err(EngineError::Protocol(_))),
                "{text:?}"
            );
        }
    }

    #[test]
    fn scores_as_gtp_writes_them() {
        for ok in ["W+3.5", "B+24.5", "0", "b+1"] {
            assert!(is_score(ok), "{ok}");
        }
        for bad in ["W+", "X+3", "W+-1", "draw", "W+nan"] {
            assert!(!is_score(bad), "{bad}");
        }
    }

    #[test]
    fn levels_rise_with_ours() {
        let levels = |size| -> Vec<u8> {
            (1..=5)
                .map(|n| gnugo_level(Level::new(n).unwrap(), size))
                .collect()
        };
        assert_eq!(levels(19), [0, 2, 4, 7, 10]);
        assert_eq!(levels(13), [0, 1, 2, 3, 4]);
        assert_eq!(levels(9), [0, 1, 2, 3, 4]);
    }
}
