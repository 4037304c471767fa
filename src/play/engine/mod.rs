//! Real engines as opponents: GNU Go (or Pachi) over GTP, Stockfish over UCI and
//! Fairy-Stockfish over USI, each a child process with every answer bounded in time.
//!
//! [`Engines`] says which engine command each game uses (an `--engine go=PATH` override,
//! else the first known engine found on `PATH` or in `/usr/games`); [`Engine::start`] runs
//! one and handshakes; [`Engine::best_move`] asks for a move in a position given as its
//! [`Start`] and the moves since, in canonical names, and answers with a canonical name that
//! our own rules have accepted. An engine that dies, hangs or prints garbage gives an
//! [`EngineError`] and is not asked again; the caller goes on with the built-in opponent.
//!
//! ```no_run
//! use qiyuan::content::Game;
//! use qiyuan::play::engine::Engines;
//! use qiyuan::play::{Level, Start};
//!
//! let engines = Engines::discover(&[]);
//! let mut stockfish = engines.start(Game::Chess)?;
//! let start = Start::Chess(qiyuan::base::chess::Start { fen: qiyuan::rules::chess::Position::start().fen() });
//! let reply = stockfish.best_move(&start, &["e2e4".to_string()], Level::new(2).unwrap())?;
//! assert_eq!(reply.len(), 4); // such as e7e5
//! # Ok::<(), qiyuan::play::engine::EngineError>(())
//! ```

mod gtp;
pub mod owl;
mod process;
mod uci;
mod usi;

pub use gtp::{gnugo_level, parse_reply as parse_gtp_reply, GtpReply};
pub use process::{MAX_LINE, MAX_REPLY_BYTES};
pub use uci::{parse_bestmove, skill_level, think_time, BestMove};

use super::{Level, Start};
use crate::base::Game;
pub use crate::base::Protocol;
use crate::rules::Rules;
use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// Why an engine could not give an answer. Every variant is one cause; none of them is a
/// panic or a hang.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineError {
    /// No engine is configured or installed for this game.
    NoEngine(Game),
    /// The engine program does not exist.
    NotFound(PathBuf),
    /// The engine program exists but cannot be run.
    NotExecutable(PathBuf),
    /// The engine program could not be started for another reason.
    Spawn {
        /// The program.
        program: PathBuf,
        /// What the system said.
        reason: String,
    },
    /// The engine closed its output or exited.
    Died {
        /// Its exit status, if it was known at once.
        status: Option<String>,
    },
    /// The engine said nothing in time.
    Timeout {
        /// What we were waiting for: `uciok`, `bestmove`, `a GTP reply`.
        waiting_for: &'static str,
        /// How long we waited.
        after: Duration,
    },
    /// The engine printed something its protocol does not allow here.
    Protocol(String),
    /// A GTP engine refused a command with `? message`.
    Refused {
        /// The command.
        command: String,
        /// The engine's message.
        message: String,
    },
    /// The engine answered a move our rules refuse in that position.
    IllegalMove {
        /// The engine's answer.
        answer: String,
        /// Why our rules refuse it.
        reason: String,
    },
    /// The engine found no move: the side to move is mated or stalemated.
    NoMove,
    /// The position asked about cannot be set up: bad FEN/SFEN, an illegal move in the list,
    /// a handicap the board has no points for.
    BadPosition(String),
    /// The position is of another game than this engine plays.
    WrongGame {
        /// The engine's game.
        engine: Game,
        /// The position's game.
        position: Game,
    },
    /// Dead stones and a final score are only asked of Go engines.
    NotGo,
    /// An earlier error left the engine unusable; this is that error.
    Broken(Box<EngineError>),
}

impl fmt::Display for EngineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EngineError::NoEngine(game) => {
                write!(
                    f,
                    "no engine is installed or configured for {}",
                    game.slug()
                )
            }
            EngineError::NotFound(p) => write!(f, "engine program {} not found", p.display()),
            EngineError::NotExecutable(p) => {
                write!(f, "engine program {} cannot be run", p.display())
            }
            EngineError::Spawn { program, reason } => {
                write!(
                    f,
                    "engine program {} did not start: {reason}",
                    program.display()
                )
            }
            EngineError::Died { status: Some(s) } => write!(f, "the engine stopped ({s})"),
            EngineError::Died { status: None } => write!(f, "the engine stopped"),
            EngineError::Timeout { waiting_for, after } => write!(
                f,
                "the engine did not answer in time: no {waiting_for} after {:.1} s",
                after.as_secs_f64()
            ),
            EngineError::Protocol(what) => write!(f, "the engine broke its protocol: {what}"),
            EngineError::Refused { command, message } => {
                write!(f, "the engine refused `{command}`: {message}")
            }
            EngineError::IllegalMove { answer, reason } => {
                write!(
                    f,
                    "the engine answered an illegal move `{answer}`: {reason}"
                )
            }
            EngineError::NoMove => write!(f, "the engine has no move to play"),
            EngineError::BadPosition(why) => write!(f, "the position cannot be set up: {why}"),
            EngineError::WrongGame { engine, position } => write!(
                f,
                "a {} engine was asked about a {} position",
                engine.slug(),
                position.slug()
            ),
            EngineError::NotGo => write!(f, "dead stones and scores are for Go engines only"),
            EngineError::Broken(first) => write!(f, "the engine is out of use: {first}"),
        }
    }
}

impl std::error::Error for EngineError {}

impl EngineError {
    /// Whether the engine can be asked again after this error (it still follows the
    /// protocol): a refused command, an illegal answer, no move or a bad request.
    pub fn leaves_engine_usable(&self) -> bool {
        matches!(
            self,
            EngineError::Refused { .. }
                | EngineError::IllegalMove { .. }
                | EngineError::NoMove
                | EngineError::BadPosition(_)
                | EngineError::WrongGame { .. }
                | EngineError::NotGo
        )
    }
}

/// A command that runs an engine: the program and its arguments.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineCommand {
    /// The program.
    pub program: PathBuf,
    /// Its arguments.
    pub args: Vec<String>,
}

impl EngineCommand {
    /// The command for `program` with the arguments it needs to speak its protocol: GNU Go
    /// gets `--mode gtp` unless a `--mode` is given.
    pub fn new(program: impl Into<PathBuf>, args: Vec<String>) -> EngineCommand {
        let program = program.into();
        let mut args = args;
        if program_stem(&program) == "gnugo" && !args.iter().any(|a| a.starts_with("--mode")) {
            args.extend(["--mode".to_string(), "gtp".to_string()]);
        }
        EngineCommand { program, args }
    }
}

impl fmt::Display for EngineCommand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.program.display())?;
        for arg in &self.args {
            write!(f, " {arg}")?;
        }
        Ok(())
    }
}

fn program_stem(program: &Path) -> String {
    program
        .file_stem()
        .map(|s| s.to_string_lossy().to_ascii_lowercase())
        .unwrap_or_default()
}

/// An `--engine` argument: which game's engine to run, and how.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineArg {
    /// The game.
    pub game: Game,
    /// The command (words split at white space; the first is the program).
    pub command: EngineCommand,
}

/// Why an `--engine` argument was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BadEngineArg {
    /// No `=` between the game and the command.
    NoEquals(String),
    /// The part before `=` is not `go`, `chess` or `shogi`.
    UnknownGame(String),
    /// Nothing after the `=`.
    NoCommand(Game),
}

impl fmt::Display for BadEngineArg {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BadEngineArg::NoEquals(text) => {
                let forms: Vec<String> = Game::ALL
                    .iter()
                    .map(|g| format!("{}=PATH", g.slug()))
                    .collect();
                write!(
                    f,
                    "engine `{text}` has no `=`: write it as {}",
                    forms.join(", ")
                )
            }
            BadEngineArg::UnknownGame(game) => {
                let slugs: Vec<&str> = Game::ALL.iter().map(|g| g.slug()).collect();
                write!(
                    f,
                    "unknown game `{game}` in --engine: use {}",
                    slugs.join(", ")
                )
            }
            BadEngineArg::NoCommand(game) => {
                write!(f, "--engine {}= names no program", game.slug())
            }
        }
    }
}

impl std::error::Error for BadEngineArg {}

/// Reads an `--engine` argument: `go=/usr/games/gnugo`, `chess=/opt/sf/stockfish`,
/// `go=/usr/bin/pachi -t 2` (words after the program are its arguments). Usable as a clap
/// `value_parser`.
///
/// ```
/// use qiyuan::content::Game;
/// use qiyuan::play::engine::{parse_engine_arg, BadEngineArg};
/// let arg = parse_engine_arg("go=/usr/games/gnugo --level 3").unwrap();
/// assert_eq!(arg.game, Game::Go);
/// assert_eq!(arg.command.to_string(), "/usr/games/gnugo --level 3 --mode gtp");
/// assert_eq!(parse_engine_arg("janggi=/bin/x"), Err(BadEngineArg::UnknownGame("janggi".into())));
/// assert_eq!(parse_engine_arg("chess="), Err(BadEngineArg::NoCommand(Game::Chess)));
/// assert!(matches!(parse_engine_arg("stockfish"), Err(BadEngineArg::NoEquals(_))));
/// ```
pub fn parse_engine_arg(text: &str) -> Result<EngineArg, BadEngineArg> {
    let (game, command) = text
        .split_once('=')
        .ok_or_else(|| BadEngineArg::NoEquals(text.to_string()))?;
    let game_name = game.trim().to_ascii_lowercase();
    let game = Game::ALL
        .into_iter()
        .find(|g| g.slug() == game_name)
        .ok_or(BadEngineArg::UnknownGame(game_name))?;
    let mut words = command.split_whitespace().map(str::to_string);
    let program = words.next().ok_or(BadEngineArg::NoCommand(game))?;
    Ok(EngineArg {
        game,
        command: EngineCommand::new(program, words.collect()),
    })
}

/// Which engine each game uses, if any.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Engines {
    commands: BTreeMap<Game, EngineCommand>,
}

impl Engines {
    /// No engines at all: every game uses the built-in opponent.
    pub fn none() -> Engines {
        Engines::default()
    }

    /// The engines of `overrides` (the last one given for a game wins), and for the other
    /// games the first known engine found on `PATH` or in `/usr/games`.
    pub fn discover(overrides: &[EngineArg]) -> Engines {
        Engines::discover_in(overrides, &program_dirs())
    }

    /// Like [`Engines::discover`], looking in `dirs` only.
    pub fn discover_in(overrides: &[EngineArg], dirs: &[PathBuf]) -> Engines {
        let mut engines = Engines::none();
        for game in Game::ALL {
            let chosen = overrides
                .iter()
                .rev()
                .find(|o| o.game == game)
                .map(|o| o.command.clone())
                .or_else(|| find_program(game.kind().programs, dirs));
            engines = engines.with(game, chosen);
        }
        engines
    }

    /// The same engines with `game`'s set to `command` (or none).
    pub fn with(mut self, game: Game, command: Option<EngineCommand>) -> Engines {
        match command {
            Some(c) => self.commands.insert(game, c),
            None => self.commands.remove(&game),
        };
        self
    }

    /// The command of `game`'s engine, if there is one.
    pub fn command(&self, game: Game) -> Option<&EngineCommand> {
        self.commands.get(&game)
    }

    /// Starts `game`'s engine with the default timeouts.
    pub fn start(&self, game: Game) -> Result<Engine, EngineError> {
        let command = self.command(game).ok_or(EngineError::NoEngine(game))?;
        Engine::start(command, game)
    }
}

/// Where engines are looked for: the folders of `PATH`, then `/usr/games` (where Debian puts
/// GNU Go, Stockfish and Fairy-Stockfish).
fn program_dirs() -> Vec<PathBuf> {
    let path = std::env::var_os("PATH").unwrap_or_default();
    let mut dirs: Vec<PathBuf> = std::env::split_paths(&path).collect();
    dirs.push(PathBuf::from("/usr/games"));
    dirs
}

/// The first of `names` that is an executable file in one of `dirs`.
fn find_program(names: &[&str], dirs: &[PathBuf]) -> Option<EngineCommand> {
    names.iter().find_map(|name| {
        dirs.iter()
            .map(|dir| dir.join(name))
            .find(|p| is_executable(p))
            .map(|p| EngineCommand::new(p, Vec::new()))
    })
}

fn is_executable(path: &Path) -> bool {
    let Ok(meta) = std::fs::metadata(path) else {
        return false;
    };
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        meta.is_file() && meta.permissions().mode() & 0o111 != 0
    }
    #[cfg(not(unix))]
    {
        meta.is_file()
    }
}

/// How long to wait for an engine.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Timeouts {
    /// For the handshake after starting (Stockfish loads its network then).
    pub start: Duration,
    /// For the answer to a command that needs no search, and added to a search's think time.
    pub reply: Duration,
    /// For a GTP `genmove`, `final_status_list` or `final_score` on 9×9 (GTP has no think
    /// time to set); larger boards get more in proportion to their area, up to six times.
    pub go_search: Duration,
}

impl Default for Timeouts {
    fn default() -> Timeouts {
        Timeouts {
            start: Duration::from_secs(10),
            reply: Duration::from_secs(3),
            go_search: Duration::from_secs(10),
        }
    }
}

impl Timeouts {
    /// The bound of a GTP search on a board of `size`.
    fn go_search_on(&self, size: u8) -> Duration {
        let area = f64::from(size) * f64::from(size) / 81.0;
        self.go_search.mul_f64(area.clamp(1.0, 6.0))
    }
}

/// Plays `moves` from `first` by our rules: the position after them, and each move's side
/// and canonical name. A move our rules refuse is a [`EngineError::BadPosition`].
fn replay<P: Rules>(
    first: P,
    moves: &[String],
) -> Result<(P, Vec<(P::Color, String)>), EngineError> {
    let mut pos = first;
    let mut played = Vec::with_capacity(moves.len());
    for (i, text) in moves.iter().enumerate() {
        let (next, mv) = pos
            .play(text)
            .map_err(|e| EngineError::BadPosition(format!("move {} `{text}`: {e}", i + 1)))?;
        played.push((pos.turn(), pos.move_name(&mv)));
        pos = next;
    }
    Ok((pos, played))
}

/// The engine's `answer` checked by our rules in `pos`: its canonical name, or
/// [`EngineError::IllegalMove`].
fn accept_move<P: Rules>(pos: &P, answer: &str) -> Result<String, EngineError> {
    pos.play(answer)
        .map(|(_, mv)| pos.move_name(&mv))
        .map_err(|e| EngineError::IllegalMove {
            answer: answer.chars().take(80).collect(),
            reason: e.to_string(),
        })
}

/// A running engine: one child process, for one game table.
pub struct Engine {
    game: Game,
    session: Box<dyn Session>,
    broken: Option<EngineError>,
}

/// A protocol's conversation with one engine process: what [`Engine`] asks of it.
trait Session: Send {
    /// The engine's own name and version.
    fn name(&self) -> &str;

    /// How long to think per move, where the protocol can say it.
    fn set_think_time(&mut self, _think: Option<Duration>) {}

    /// The engine's move after `moves` from `start`, checked by our rules.
    fn best_move(
        &mut self,
        start: &Start,
        moves: &[String],
        level: Level,
    ) -> Result<String, EngineError>;

    /// The stones the engine thinks dead (Go).
    fn dead_stones(
        &mut self,
        _start: &Start,
        _moves: &[String],
    ) -> Result<Vec<String>, EngineError> {
        Err(EngineError::NotGo)
    }

    /// The engine's count of the game (Go).
    fn final_score(&mut self, _start: &Start, _moves: &[String]) -> Result<String, EngineError> {
        Err(EngineError::NotGo)
    }
}

/// Handshakes with `process` in the protocol of `game`'s engines: GTP, or one of the UCI
/// family (UCI, USI), which one session speaks.
fn start_session(
    game: Game,
    process: process::Process,
    timeouts: Timeouts,
) -> Result<Box<dyn Session>, EngineError> {
    Ok(match game.kind().protocol {
        Protocol::Gtp => Box::new(gtp::Session::start(process, timeouts)?),
        uci_family => Box::new(uci::Session::start(process, uci_family, game, timeouts)?),
    })
}

impl Engine {
    /// Starts `command` as the engine of `game` and handshakes, with the default timeouts.
    pub fn start(command: &EngineCommand, game: Game) -> Result<Engine, EngineError> {
        Engine::start_with(command, game, Timeouts::default())
    }

    /// Starts `command` as the engine of `game` and handshakes, waiting as `timeouts` say.
    pub fn start_with(
        command: &EngineCommand,
        game: Game,
        timeouts: Timeouts,
    ) -> Result<Engine, EngineError> {
        let process = process::Process::spawn(&command.program, &command.args)?;
        let session = start_session(game, process, timeouts)?;
        Ok(Engine {
            game,
            session,
            broken: None,
        })
    }

    /// The game this engine plays.
    pub fn game(&self) -> Game {
        self.game
    }

    /// The protocol it speaks.
    pub fn protocol(&self) -> Protocol {
        self.game.kind().protocol
    }

    /// The engine's own name and version, as it gave them (`GNU Go 3.8`, `Stockfish 15.1`).
    pub fn name(&self) -> &str {
        self.session.name()
    }

    /// Sets how long a UCI or USI engine thinks per move, instead of each level's time
    /// (see [`think_time`]); GTP engines have no such setting and ignore it.
    pub fn set_think_time(&mut self, think: Option<Duration>) {
        self.session.set_think_time(think);
    }

    /// The engine's move in the position after `moves` (canonical names) from `start`,
    /// playing at `level`: a canonical move name (`D4`, `pass`, `e2e4`, `P*5e`), or `resign`
    /// (Go and shogi) or `win` (shogi, a declared 入玉 win). The answer has been checked
    /// against our rules.
    pub fn best_move(
        &mut self,
        start: &Start,
        moves: &[String],
        level: Level,
    ) -> Result<String, EngineError> {
        self.check_game(start)?;
        let result = self.session.best_move(start, moves, level);
        self.note(result)
    }

    /// Go only: the stones the engine thinks dead at the end of the game after `moves`
    /// (GTP `final_status_list dead`), as point names sorted as the engine listed them.
    pub fn dead_stones(
        &mut self,
        start: &Start,
        moves: &[String],
    ) -> Result<Vec<String>, EngineError> {
        self.check_game(start)?;
        let result = self.session.dead_stones(start, moves);
        self.note(result)
    }

    /// Go only: the engine's count of the game after `moves` (GTP `final_score`), as it
    /// writes it: `W+3.5`, `B+12.0`, `0`.
    pub fn final_score(&mut self, start: &Start, moves: &[String]) -> Result<String, EngineError> {
        self.check_game(start)?;
        let result = self.session.final_score(start, moves);
        self.note(result)
    }

    fn check_game(&self, start: &Start) -> Result<(), EngineError> {
        if let Some(first) = &self.broken {
            return Err(EngineError::Broken(Box::new(first.clone())));
        }
        if start.game() != self.game {
            return Err(EngineError::WrongGame {
                engine: self.game,
                position: start.game(),
            });
        }
        Ok(())
    }

    /// Remembers an error that leaves the engine out of step, so it is not asked again.
    fn note<T>(&mut self, result: Result<T, EngineError>) -> Result<T, EngineError> {
        if let Err(e) = &result {
            if !e.leaves_engine_usable() {
                self.broken = Some(e.clone());
            }
        }
        result
    }
}

impl fmt::Debug for Engine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Engine")
            .field("game", &self.game)
            .field("name", &self.name())
            .field("broken", &self.broken)
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn engine_arg_keeps_program_arguments() {
        let arg = parse_engine_arg("shogi=/opt/fs/fairy-stockfish  --flag").unwrap();
        assert_eq!(arg.game, Game::Shogi);
        assert_eq!(
            arg.command.program,
            PathBuf::from("/opt/fs/fairy-stockfish")
        );
        assert_eq!(arg.command.args, ["--flag"]);
        let gnugo = parse_engine_arg("Go=/usr/games/gnugo --mode gtp --chinese-rules").unwrap();
        assert_eq!(gnugo.command.args, ["--mode", "gtp", "--chinese-rules"]);
    }

    #[test]
    fn bad_engine_args_are_typed() {
        assert_eq!(
            parse_engine_arg("go"),
            Err(BadEngineArg::NoEquals("go".to_string()))
        );
        assert_eq!(
            parse_engine_arg("go=  "),
            Err(BadEngineArg::NoCommand(Game::Go))
        );
        assert_eq!(
            parse_engine_arg("=x"),
            Err(BadEngineArg::UnknownGame(String::new()))
        );
    }

    #[test]
    fn discovery_prefers_overrides_then_the_first_known_program() {
        let dir = std::env::temp_dir().join(format!("qiyuan-discover-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let pachi = dir.join("pachi");
        std::fs::write(&pachi, "#!/bin/sh\n").unwrap();
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&pachi, std::fs::Permissions::from_mode(0o755)).unwrap();
        }
        // Not executable: not an engine.
        std::fs::write(dir.join("stockfish"), "").unwrap();
        let found = Engines::discover_in(&[], std::slice::from_ref(&dir));
        assert_eq!(
            found.command(Game::Go).map(|c| c.program.clone()),
            Some(pachi)
        );
        assert_eq!(found.command(Game::Chess), None);
        let chosen = parse_engine_arg("go=/elsewhere/gnugo").unwrap();
        let overridden = Engines::discover_in(&[chosen], &[dir.clone()]);
        assert_eq!(
            overridden.command(Game::Go).unwrap().to_string(),
            "/elsewhere/gnugo --mode gtp"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn an_engine_can_move_to_a_blocking_thread() {
        fn is_send<T: Send>() {}
        is_send::<Engine>();
        is_send::<EngineError>();
    }

    #[test]
    fn no_engines_means_no_engine_error() {
        assert_eq!(
            Engines::none().start(Game::Go).unwrap_err(),
            EngineError::NoEngine(Game::Go)
        );
    }

    #[test]
    fn go_search_bound_grows_with_the_board() {
        let t = Timeouts::default();
        assert_eq!(t.go_search_on(9), t.go_search);
        assert!(t.go_search_on(19) > t.go_search_on(13));
        assert!(t.go_search_on(19) <= t.go_search * 6);
    }
}
