//! Engines of the UCI family (chess and xiangqi over UCI, shogi over USI): the two protocols
//! are one dialogue with different words (`uci`/`usiok`, `position fen`/`position sfen`,
//! `go movetime`/`go byoyomi`), so one session speaks both; [`super::usi`] holds what only USI has.
//!
//! ```text
//! > uci                               > usi
//! < id name Stockfish 15.1            < id name Fairy-Stockfish 11.1 LB 64
//! < option name Skill Level type spin default 20 min 0 max 20
//! < uciok                             < usiok
//! > isready          < readyok        > isready   < readyok   > usinewgame
//! > position startpos moves e2e4      > position sfen … w - 1 moves 5a4b
//! > go movetime 200                   > go btime 0 wtime 0 byoyomi 200
//! < bestmove e7e5 ponder g1f3         < bestmove 7g7f ponder 4b3b
//! ```
//!
//! Strength: the engine's `Skill Level` option ([`skill_level`], kept inside the range the
//! engine announces) and the think time per move ([`think_time`]). An engine that announces
//! `UCI_Variant` (Fairy-Stockfish) is told the game, and the options the position asks for
//! (a Chess960 start: `UCI_Chess960`) are set where the engine announces them.

use super::process::Process;
use super::usi;
use super::{EngineError, Timeouts};
use crate::base::{AnyPosition, Game, Protocol};
use crate::lang::Lang;
use crate::play::{Level, Start};
use std::time::{Duration, Instant};

/// The `Skill Level` each of our levels asks for, from the game's descriptor: Stockfish
/// 0, 2, 5, 8, 12 (of 0..20); Fairy-Stockfish for shogi −20, −12, −5, 2, 8 (of −20..20).
/// The engine's announced range bounds it.
///
/// ```
/// use qiyuan::content::Game;
/// use qiyuan::play::{engine::skill_level, Level};
/// assert_eq!(skill_level(Game::Chess, Level::MIN), 0);
/// assert_eq!(skill_level(Game::Shogi, Level::MIN), -20);
/// ```
pub fn skill_level(game: Game, level: Level) -> i32 {
    game.kind().engine_skills[usize::from(level.get() - 1)]
}

/// How long a UCI or USI engine thinks per move at each level: 100, 200, 300, 500, 800 ms.
///
/// ```
/// use qiyuan::play::{engine::think_time, Level};
/// assert!(think_time(Level::MAX).as_millis() <= 1000);
/// ```
pub fn think_time(level: Level) -> Duration {
    Duration::from_millis([100, 200, 300, 500, 800][usize::from(level.get() - 1)])
}

/// What a `bestmove` line says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BestMove {
    /// A move, as the engine wrote it (`e2e4`, `7g7f`, `P*5e`).
    Move(String),
    /// `(none)` or `0000`: no legal move (mate or stalemate).
    NoMove,
    /// USI `resign`.
    Resign,
    /// USI `win`: the engine declares an entering-king (入玉) win.
    Win,
}

/// Reads a `bestmove` line (a `ponder` move after it is ignored).
///
/// ```
/// use qiyuan::play::engine::{parse_bestmove, BestMove};
/// assert_eq!(parse_bestmove("bestmove e2e4 ponder e7e5"), Ok(BestMove::Move("e2e4".into())));
/// assert_eq!(parse_bestmove("bestmove (none)"), Ok(BestMove::NoMove));
/// assert_eq!(parse_bestmove("bestmove resign"), Ok(BestMove::Resign));
/// assert!(parse_bestmove("bestmove").is_err());
/// ```
pub fn parse_bestmove(line: &str) -> Result<BestMove, EngineError> {
    let mut words = line.split_whitespace();
    if words.next() != Some("bestmove") {
        return Err(EngineError::Protocol(format!(
            "not a bestmove line: `{}`",
            cut(line)
        )));
    }
    let Some(mv) = words.next() else {
        return Err(EngineError::Protocol("bestmove without a move".to_string()));
    };
    match (words.next(), words.next(), words.next()) {
        (None, _, _) | (Some("ponder"), Some(_), None) => {}
        _ => {
            return Err(EngineError::Protocol(format!(
                "bad bestmove line `{}`",
                cut(line)
            )))
        }
    }
    Ok(match mv {
        "(none)" | "0000" => BestMove::NoMove,
        "resign" => BestMove::Resign,
        "win" => BestMove::Win,
        _ => BestMove::Move(mv.to_string()),
    })
}

/// Whether `text` has the shape of a UCI move: `e2e4`, `e7e8q`.
fn is_uci_move(text: &str) -> bool {
    let b = text.as_bytes();
    let square = |f: u8, r: u8| (b'a'..=b'h').contains(&f) && (b'1'..=b'8').contains(&r);
    match b.len() {
        4 => square(b[0], b[1]) && square(b[2], b[3]),
        5 => square(b[0], b[1]) && square(b[2], b[3]) && b"qrbn".contains(&b[4]),
        _ => false,
    }
}

/// Whether `text` has the shape of a move of a variant engine, whose boards may be larger
/// than chess's: two squares, each a file letter and a rank of one or two digits (`h3e3`,
/// `a10a9` on xiangqi's 9×10 board), then at most a promotion letter.
fn is_variant_move(text: &str) -> bool {
    fn square(s: &str) -> Option<&str> {
        let s = s.strip_prefix(|c: char| c.is_ascii_lowercase())?;
        let digits = s.len() - s.trim_start_matches(|c: char| c.is_ascii_digit()).len();
        (1..=2).contains(&digits).then(|| &s[digits..])
    }
    let Some(rest) = square(text).and_then(square) else {
        return false;
    };
    rest.is_empty() || (rest.len() == 1 && rest.bytes().all(|b| b.is_ascii_lowercase()))
}

/// The standard start of `game` as its engines are told it.
fn standard_position(game: Game) -> String {
    AnyPosition::from_start(&(game.kind().standard_start)())
        .map(|p| p.engine_position())
        .unwrap_or_default()
}

/// Plays `moves` from `first`: the position after them and each move's canonical name.
fn replay_any(
    first: AnyPosition,
    moves: &[String],
) -> Result<(AnyPosition, Vec<String>), EngineError> {
    let mut pos = first;
    let mut played = Vec::with_capacity(moves.len());
    for (i, text) in moves.iter().enumerate() {
        let (next, name) = pos
            .play(text, Lang::En)
            .map_err(|e| EngineError::BadPosition(format!("move {} `{text}`: {e}", i + 1)))?;
        played.push(name);
        pos = next;
    }
    Ok((pos, played))
}

/// The engine's `answer` checked by our rules in `pos`: its canonical name, or
/// [`EngineError::IllegalMove`].
fn accept_any_move(pos: &AnyPosition, answer: &str) -> Result<String, EngineError> {
    pos.play(answer, Lang::En)
        .map(|(_, name)| name)
        .map_err(|reason| EngineError::IllegalMove {
            answer: answer.chars().take(80).collect(),
            reason,
        })
}

/// At most 80 characters of an engine's line, for an error.
fn cut(line: &str) -> String {
    line.chars().take(80).collect()
}

/// An option the engine announced.
#[derive(Clone, Debug, PartialEq)]
struct EngineOption {
    name: String,
    /// `min` and `max` of a spin option.
    range: Option<(i32, i32)>,
    /// The `var` values of a combo option.
    values: Vec<String>,
}

/// Reads `option name Skill Level type spin default 20 min -20 max 20`.
fn parse_option(line: &str) -> Option<EngineOption> {
    let rest = line.strip_prefix("option name ")?;
    let (name, rest) = rest.split_once(" type ")?;
    let words: Vec<&str> = rest.split_whitespace().collect();
    let after = |key: &str| {
        words
            .iter()
            .position(|w| *w == key)
            .and_then(|i| words.get(i + 1))
            .and_then(|w| w.parse::<i32>().ok())
    };
    let range = match (after("min"), after("max")) {
        (Some(min), Some(max)) if min <= max => Some((min, max)),
        _ => None,
    };
    let values = words
        .windows(2)
        .filter(|w| w[0] == "var")
        .map(|w| w[1].to_string())
        .collect();
    Some(EngineOption {
        name: name.trim().to_string(),
        range,
        values,
    })
}

/// A UCI or USI engine in play.
pub struct Session {
    process: Process,
    /// UCI or USI.
    protocol: Protocol,
    /// The game the engine plays (`UCI_Variant` when it plays several).
    game: Game,
    timeouts: Timeouts,
    name: String,
    options: Vec<EngineOption>,
    /// The `Skill Level` last set.
    skill: Option<i32>,
    /// The options set for the positions played so far (`UCI_Chess960`), each at most once.
    position_options: Vec<(&'static str, &'static str)>,
    /// Think time instead of the level's.
    think: Option<Duration>,
    /// Whether the engine was told the game by `UCI_Variant` (its moves may then name the
    /// squares of a larger board).
    variant: bool,
}

impl Session {
    /// Handshakes: `uci`/`usi` up to `uciok`/`usiok`, the variant if the engine plays
    /// several, `isready`, and `ucinewgame`/`usinewgame`.
    pub fn start(
        process: Process,
        protocol: Protocol,
        game: Game,
        timeouts: Timeouts,
    ) -> Result<Session, EngineError> {
        let mut session = Session {
            name: super::program_stem(process.program()),
            process,
            protocol,
            game,
            timeouts,
            options: Vec::new(),
            skill: None,
            position_options: Vec::new(),
            think: None,
            variant: false,
        };
        let deadline = Instant::now() + timeouts.start;
        let (hello, hello_ok) = match protocol {
            Protocol::Usi => ("usi", "usiok"),
            _ => ("uci", "uciok"),
        };
        session.process.send(hello)?;
        loop {
            let line = session.process.read_line(deadline, hello_ok)?;
            let line = line.trim();
            if line == hello_ok {
                break;
            } else if let Some(name) = line.strip_prefix("id name ") {
                session.name = name.trim().to_string();
            } else if let Some(option) = parse_option(line) {
                session.options.push(option);
            }
        }
        let variant = game.slug();
        if session
            .option("UCI_Variant")
            .is_some_and(|o| o.values.iter().any(|v| v == variant))
        {
            session.set_option("UCI_Variant", variant)?;
            session.variant = true;
        }
        session.ready(timeouts.start)?;
        session.process.send(&format!("{hello}newgame"))?;
        if protocol == Protocol::Uci {
            session.ready(timeouts.start)?;
        }
        Ok(session)
    }

    /// The engine's name as it gave it.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Think time per move instead of the level's.
    pub fn set_think_time(&mut self, think: Option<Duration>) {
        self.think = think;
    }

    fn option(&self, name: &str) -> Option<&EngineOption> {
        self.options
            .iter()
            .find(|o| o.name.eq_ignore_ascii_case(name))
    }

    fn set_option(&mut self, name: &str, value: &str) -> Result<(), EngineError> {
        self.process
            .send(&format!("setoption name {name} value {value}"))
    }

    /// `isready`, then wait for `readyok` (other lines are skipped).
    fn ready(&mut self, bound: Duration) -> Result<(), EngineError> {
        let deadline = Instant::now() + bound;
        self.process.send("isready")?;
        while self.process.read_line(deadline, "readyok")?.trim() != "readyok" {}
        Ok(())
    }

    /// The engine's move after `moves` from `start`.
    pub fn best_move(
        &mut self,
        start: &Start,
        moves: &[String],
        level: Level,
    ) -> Result<String, EngineError> {
        if start.game() != self.game {
            return Err(EngineError::WrongGame {
                engine: self.game,
                position: start.game(),
            });
        }
        let first = start
            .engine_start()
            .map_err(|e| EngineError::BadPosition(e.to_string()))?;
        let text = first.engine_position();
        let setup = if self.protocol == Protocol::Usi {
            usi::position_setup(&text)
        } else if text == standard_position(self.game) {
            "startpos".to_string()
        } else {
            format!("fen {text}")
        };
        for (name, value) in first.engine_options() {
            self.want_option(name, value)?;
        }
        self.ask(first, setup, moves, level)
    }

    /// Sets the option `name` to `value` if the engine announced it and it is not so already
    /// (an unset option is at the engine's default, which a position's `false` keeps).
    fn want_option(&mut self, name: &'static str, value: &'static str) -> Result<(), EngineError> {
        if self.option(name).is_none() {
            return Ok(());
        }
        let now = self
            .position_options
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, v)| *v);
        if now.unwrap_or("false") != value {
            self.set_option(name, value)?;
            self.position_options.retain(|(n, _)| *n != name);
            self.position_options.push((name, value));
        }
        Ok(())
    }

    /// Sets the level, sends the position and `go`, and checks the answer against `first`
    /// after `moves`.
    fn ask(
        &mut self,
        first: AnyPosition,
        setup: String,
        moves: &[String],
        level: Level,
    ) -> Result<String, EngineError> {
        let (pos, played) = replay_any(first, moves)?;
        let wanted = skill_level(self.game, level);
        if let Some((min, max)) = self.option("Skill Level").and_then(|o| o.range) {
            let skill = wanted.clamp(min, max);
            if self.skill != Some(skill) {
                self.set_option("Skill Level", &skill.to_string())?;
                self.skill = Some(skill);
            }
        }
        self.ready(self.timeouts.reply)?;
        let mut position = format!("position {setup}");
        if !played.is_empty() {
            position.push_str(" moves");
            for name in &played {
                position.push(' ');
                position.push_str(&pos.to_engine_move(name));
            }
        }
        self.process.send(&position)?;
        let think = self.think.unwrap_or_else(|| think_time(level));
        let millis = think.as_millis().max(1);
        self.process.send(&match self.protocol {
            Protocol::Usi => usi::go_command(millis),
            _ => format!("go movetime {millis}"),
        })?;
        let deadline = Instant::now() + think + self.timeouts.reply;
        let line = loop {
            let line = self.process.read_line(deadline, "bestmove")?;
            if line.trim_start().starts_with("bestmove") {
                break line;
            }
        };
        let usi = self.protocol == Protocol::Usi;
        let shaped = |mv: &str| match (usi, self.variant) {
            (true, _) => usi::is_usi_move(mv),
            (false, true) => is_variant_move(mv),
            (false, false) => is_uci_move(mv),
        };
        match parse_bestmove(line.trim())? {
            BestMove::Move(mv) if shaped(&mv) => accept_any_move(&pos, &pos.from_engine_move(&mv)),
            BestMove::Move(mv) => Err(EngineError::Protocol(format!(
                "bestmove `{}` is not a {} move",
                cut(&mv),
                self.game.slug()
            ))),
            BestMove::NoMove => Err(EngineError::NoMove),
            BestMove::Resign if usi => Ok("resign".to_string()),
            BestMove::Win if usi => Ok("win".to_string()),
            other => Err(EngineError::Protocol(format!(
                "UCI has no bestmove {other:?}"
            ))),
        }
    }
}

impl super::Session for Session {
    fn name(&self) -> &str {
        Session::name(self)
    }

    fn set_think_time(&mut self, think: Option<Duration>) {
        Session::set_think_time(self, think)
    }

    fn best_move(
        &mut self,
        start: &Start,
        moves: &[String],
        level: Level,
    ) -> Result<String, EngineError> {
        Session::best_move(self, start, moves, level)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bestmove_with_ponder() {
        assert_eq!(
            parse_bestmove("bestmove e2e4 ponder e7e5"),
            Ok(BestMove::Move("e2e4".into()))
        );
        assert_eq!(
            parse_bestmove("bestmove e7e8q"),
            Ok(BestMove::Move("e7e8q".into()))
        );
    }

    #[test]
    fn bestmove_none_means_no_move() {
        assert_eq!(parse_bestmove("bestmove (none)"), Ok(BestMove::NoMove));
        assert_eq!(parse_bestmove("bestmove 0000"), Ok(BestMove::NoMove));
    }

    #[test]
    fn usi_bestmove_resign_and_win() {
        assert_eq!(parse_bestmove("bestmove resign"), Ok(BestMove::Resign));
        assert_eq!(parse_bestmove("bestmove win"), Ok(BestMove::Win));
        assert_eq!(
            parse_bestmove("bestmove P*5e ponder 4a3b"),
            Ok(BestMove::Move("P*5e".into()))
        );
    }

    #[test]
    fn broken_bestmove_lines_are_protocol_errors() {
        for line in [
            "bestmove",
            "best move e2e4",
            "bestmove e2e4 ponder",
            "bestmove a b c d",
            "info depth 1",
        ] {
            assert!(
                matches!(parse_bestmove(line), Err(EngineError::Protocol(_))),
                "{line}"
            );
        }
    }

    #[test]
    fn variant_move_shapes_allow_two_digit_ranks() {
        assert!(is_variant_move("h3e3") && is_variant_move("a10a9") && is_variant_move("e7e8q"));
        assert!(!is_variant_move("xyzzy") && !is_variant_move("h3") && !is_variant_move("a100a9"));
    }

    #[test]
    fn uci_move_shapes() {
        assert!(is_uci_move("e2e4") && is_uci_move("a7a8n"));
        assert!(!is_uci_move("e2e9") && !is_uci_move("e7e8k") && !is_uci_move("7g7f"));
    }

    #[test]
    fn options_with_spaces_and_ranges() {
        let skill =
            parse_option("option name Skill Level type spin default 20 min -20 max 20").unwrap();
        assert_eq!(skill.name, "Skill Level");
        assert_eq!(skill.range, Some((-20, 20)));
        let variant =
            parse_option("option name UCI_Variant type combo default shogi var chess var shogi")
                .unwrap();
        assert_eq!(variant.values, ["chess", "shogi"]);
        assert_eq!(parse_option("id name Stockfish"), None);
    }

    #[test]
    fn levels_map_to_rising_skill_and_time() {
        let levels: Vec<Level> = (1..=5).filter_map(Level::new).collect();
        for game in [Game::Chess, Game::Shogi] {
            assert!(levels
                .windows(2)
                .all(|w| skill_level(game, w[0]) < skill_level(game, w[1])));
        }
        assert!(levels
            .windows(2)
            .all(|w| think_time(w[0]) < think_time(w[1])));
        assert!(think_time(Level::MAX) <= Duration::from_secs(1));
    }
}
