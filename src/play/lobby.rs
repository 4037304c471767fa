//! The lobby: every table of one server, found by a short code, with the seats' secrets, a
//! version that wakes the watchers of a table, and bounds on how many tables live and for how
//! long.

use super::clock::{Clock, ClockState, TimeControl};
use super::engine::Engine;
use super::table::{timeout_text, Action, BadStart, Match, Phase, Refused, Seat, Table};
use super::{Finish, Level, Reason, Side, Start};
use crate::lang::Lang;
use crate::rules::{chess, go, shogi, Explain};
use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};
use tokio::sync::watch;

/// How many tables a server keeps and for how long.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Tables kept at most (finished ones are dropped first, oldest first).
    pub tables: usize,
    /// A game with no move for this long ends as abandoned.
    pub idle: Duration,
    /// A finished game stays this long for replay and download.
    pub keep: Duration,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            tables: 2_000,
            idle: Duration::from_secs(60 * 60),
            keep: Duration::from_secs(24 * 60 * 60),
        }
    }
}

/// Who the opponent of the creator is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Opponent {
    /// The computer at a level.
    Computer(Level),
    /// A person who joins by the code.
    Human,
}

/// A table to open.
#[derive(Debug)]
pub struct NewGame {
    /// Where the game starts.
    pub start: Start,
    /// Who plays the creator.
    pub opponent: Opponent,
    /// The creator's side.
    pub side: Side,
    /// The clocks, if the game is timed.
    pub clock: Option<TimeControl>,
    /// A real engine, started, to play the computer's moves.
    pub engine: Option<Engine>,
}

/// Why a table cannot be opened or joined.
#[derive(Clone, Debug, PartialEq)]
pub enum LobbyError {
    /// The start is not possible.
    Start(BadStart),
    /// No table has this code (or it has been cleared away).
    NoSuchGame(String),
    /// Both seats are taken: watch instead.
    Full,
    /// The token belongs to no seat of this table.
    NotAPlayer,
    /// The server has as many live games as it keeps.
    Busy,
}

impl Explain for LobbyError {
    fn explain(&self, lang: Lang) -> String {
        let zh = lang == Lang::Zh;
        match self {
            LobbyError::Start(e) => e.explain(lang),
            LobbyError::NoSuchGame(id) if zh => {
                format!("没有代码为 “{id}” 的对局：请检查代码，或者新开一局。")
            }
            LobbyError::NoSuchGame(id) => {
                format!("No game has the code “{id}”: check the code, or start a new game.")
            }
            LobbyError::Full if zh => "两个座位都有人了：你可以观战。".to_string(),
            LobbyError::Full => "Both seats are taken: you can watch.".to_string(),
            LobbyError::NotAPlayer if zh => {
                "你不是这盘棋的对局者（口令不对），只能观战。".to_string()
            }
            LobbyError::NotAPlayer => {
                "You are not a player of this game (the token does not match): you can watch."
                    .to_string()
            }
            LobbyError::Busy if zh => "服务器上的对局已满，请稍后再试。".to_string(),
            LobbyError::Busy => {
                "The server has all the games it can keep: try again later.".to_string()
            }
        }
    }
}

impl std::fmt::Display for LobbyError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.explain(Lang::En))
    }
}

impl std::error::Error for LobbyError {}

/// One table and its watchers.
#[derive(Debug)]
pub struct Entry {
    /// The short code.
    pub id: String,
    /// When the table was opened.
    pub created: std::time::SystemTime,
    table: Mutex<Box<dyn Match>>,
    /// Locked only while the table is (table first).
    clock: Mutex<Option<Clock>>,
    /// The real engine playing the computer's moves, until it fails.
    engine: Mutex<Option<Engine>>,
    /// The engine's name, while it plays.
    engine_name: Mutex<Option<String>>,
    /// Said to the players: the engine failed and the built-in computer took over (zh, en).
    notice: Mutex<Option<[String; 2]>>,
    last_move: Mutex<Instant>,
    version: watch::Sender<u64>,
}

impl Entry {
    /// The table, locked. Hold it briefly: never across a computer's think.
    pub fn table(&self) -> MutexGuard<'_, Box<dyn Match>> {
        self.table.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A receiver that wakes on every change of the table.
    pub fn watch(&self) -> watch::Receiver<u64> {
        self.version.subscribe()
    }

    /// The number of changes so far.
    pub fn version(&self) -> u64 {
        *self.version.borrow()
    }

    /// Tells the watchers the table changed.
    pub fn changed(&self) {
        *self.last_move.lock().unwrap_or_else(|e| e.into_inner()) = Instant::now();
        self.version.send_modify(|v| *v += 1);
    }

    /// The seat whose secret `token` is.
    pub fn side_of(&self, token: &str) -> Option<Side> {
        let table = self.table();
        [Side::First, Side::Second].into_iter().find(|&side| {
            matches!(&table.seats()[side.index()], Seat::Human { token: Some(t) } if constant_eq(t, token))
        })
    }

    /// Does `action` for the holder of `token`, and wakes the watchers.
    pub fn act(&self, token: &str, action: &Action) -> Result<Side, ActError> {
        let side = self.side_of(token).ok_or(ActError::NotAPlayer)?;
        self.apply(side, action, None)?;
        Ok(side)
    }

    fn clock(&self) -> MutexGuard<'_, Option<Clock>> {
        self.clock.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Does `action` for `side`, runs the clocks, and wakes the watchers. With `expect`, only
    /// if the table is still at that version (the computer's move, worked out meanwhile).
    pub fn apply(&self, side: Side, action: &Action, expect: Option<u64>) -> Result<(), ActError> {
        let now = Instant::now();
        {
            let mut table = self.table();
            if expect.is_some_and(|v| v != self.version()) {
                return Err(ActError::Moved);
            }
            let mut clock = self.clock();
            if let Some(loser) = clock.as_ref().and_then(|c| c.flagged(now)) {
                flag(&mut **table, clock.as_mut(), loser);
                drop((table, clock));
                self.changed();
                return Err(ActError::Refused(Refused::Over));
            }
            let before = table.moves().len();
            table.act(side, action).map_err(ActError::Refused)?;
            if let Some(c) = clock.as_mut() {
                let moved = table.moves().len() != before;
                if table.moves().len() > before {
                    if let Err(loser) = c.charge(now) {
                        flag(&mut **table, Some(c), loser);
                    }
                }
                match table.turn() {
                    Some(t) if moved || c.state(now).running != Some(t) => c.start(t, now),
                    Some(_) => {}
                    None => c.stop(),
                }
            }
        }
        self.changed();
        Ok(())
    }

    /// Ends the game if the side to move's time is over; whether it did.
    pub fn check_time(&self) -> bool {
        let flagged = {
            let mut table = self.table();
            let mut clock = self.clock();
            match clock.as_ref().and_then(|c| c.flagged(Instant::now())) {
                Some(loser) => {
                    flag(&mut **table, clock.as_mut(), loser);
                    true
                }
                None => false,
            }
        };
        if flagged {
            self.changed();
        }
        flagged
    }

    /// The real engine, locked (held while it thinks: only the computer's moves use it).
    pub fn engine(&self) -> MutexGuard<'_, Option<Engine>> {
        self.engine.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The name of the real engine playing, if one does.
    pub fn engine_name(&self) -> Option<String> {
        self.engine_name
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }

    /// The engine failed with `why`: it is stopped, the built-in computer plays on, and the
    /// players are told.
    pub fn engine_failed(&self, why: &str) {
        eprintln!(
            "qiyuan: game {}: the engine failed ({why}); the built-in computer plays on",
            self.id
        );
        *self.engine() = None;
        *self.engine_name.lock().unwrap_or_else(|e| e.into_inner()) = None;
        *self.notice.lock().unwrap_or_else(|e| e.into_inner()) = Some([
            "外部引擎没有按时正确回应，改由内置电脑继续下。".to_string(),
            "The engine did not answer in time or correctly: the built-in computer plays on."
                .to_string(),
        ]);
    }

    /// What the players are told about the game (an engine that failed), zh and en.
    pub fn notice(&self) -> Option<[String; 2]> {
        self.notice
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }

    /// When the running clock's time runs out, if a clock runs.
    pub fn flag_at(&self) -> Option<Instant> {
        self.clock().as_ref().and_then(Clock::flag_at)
    }

    /// The clocks now, if the game is timed.
    pub fn clock_state(&self) -> Option<ClockState> {
        self.clock().as_ref().map(|c| c.state(Instant::now()))
    }

    /// Starts the clock of the side to move (the game begins: both seats taken).
    fn start_clock(&self) {
        let table = self.table();
        if let (Some(c), Some(t)) = (self.clock().as_mut(), table.turn()) {
            c.start(t, Instant::now());
        }
    }

    fn idle_for(&self) -> Duration {
        self.last_move
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .elapsed()
    }
}

/// Ends a game lost on time by `loser`.
fn flag(table: &mut dyn Match, clock: Option<&mut Clock>, loser: Side) {
    let text = timeout_text(table.game(), loser);
    table.end_by(
        Finish {
            winner: Some(loser.other()),
            reason: Reason::Timeout,
        },
        text,
    );
    if let Some(c) = clock {
        c.stop();
    }
}

/// Why an action at a table did nothing.
#[derive(Clone, Debug, PartialEq)]
pub enum ActError {
    /// The token is no seat's.
    NotAPlayer,
    /// The game changed while the computer thought; its move is dropped.
    Moved,
    /// The table refused it.
    Refused(super::table::Refused),
}

impl Explain for ActError {
    fn explain(&self, lang: Lang) -> String {
        match self {
            ActError::NotAPlayer => LobbyError::NotAPlayer.explain(lang),
            ActError::Moved if lang == Lang::Zh => "棋局已经变了，请再走一次。".to_string(),
            ActError::Moved => "The game changed meanwhile: play again.".to_string(),
            ActError::Refused(r) => r.explain(lang),
        }
    }
}

/// Compares secrets in time independent of where they differ.
fn constant_eq(a: &str, b: &str) -> bool {
    a.len() == b.len()
        && a.bytes()
            .zip(b.bytes())
            .fold(0u8, |acc, (x, y)| acc | (x ^ y))
            == 0
}

/// Every table of a server.
#[derive(Debug, Default)]
pub struct Lobby {
    tables: Mutex<HashMap<String, Arc<Entry>>>,
    limits: Limits,
}

/// Letters in a code: 31⁶ ≈ 887 million codes.
const CODE_LENGTH: usize = 6;

fn new_code() -> String {
    crate::random::code(CODE_LENGTH)
}

/// A seat's secret: 128 random bits as hex.
fn new_token() -> String {
    crate::random::token()
}

/// Opens a table of the right game.
fn open(start: Start, seats: [Seat; 2]) -> Result<Box<dyn Match>, BadStart> {
    Ok(match start {
        Start::Go { .. } => Box::new(Table::<go::Position>::new(start, seats)?),
        Start::Chess { .. } => Box::new(Table::<chess::Position>::new(start, seats)?),
        Start::Shogi { .. } => Box::new(Table::<shogi::Position>::new(start, seats)?),
    })
}

impl Lobby {
    /// An empty lobby with `limits`.
    pub fn new(limits: Limits) -> Lobby {
        Lobby {
            tables: Mutex::new(HashMap::new()),
            limits,
        }
    }

    fn tables(&self) -> MutexGuard<'_, HashMap<String, Arc<Entry>>> {
        self.tables.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Opens a table: its code and the creator's token.
    pub fn create(&self, new: NewGame) -> Result<(Arc<Entry>, String), LobbyError> {
        let token = new_token();
        let me = Seat::Human {
            token: Some(token.clone()),
        };
        let computer = matches!(new.opponent, Opponent::Computer(_));
        let them = match new.opponent {
            Opponent::Computer(level) => Seat::Computer { level },
            Opponent::Human => Seat::Human { token: None },
        };
        let seats = match new.side {
            Side::First => [me, them],
            Side::Second => [them, me],
        };
        let table = open(new.start, seats).map_err(LobbyError::Start)?;
        self.sweep();
        let mut tables = self.tables();
        if tables.len() >= self.limits.tables {
            return Err(LobbyError::Busy);
        }
        let id = loop {
            let id = new_code();
            if !tables.contains_key(&id) {
                break id;
            }
        };
        let entry = Arc::new(Entry {
            id: id.clone(),
            created: std::time::SystemTime::now(),
            table: Mutex::new(table),
            clock: Mutex::new(new.clock.map(Clock::new)),
            engine_name: Mutex::new(new.engine.as_ref().map(|e| e.name().to_string())),
            engine: Mutex::new(new.engine),
            notice: Mutex::new(None),
            last_move: Mutex::new(Instant::now()),
            version: watch::Sender::new(0),
        });
        tables.insert(id, entry.clone());
        drop(tables);
        if computer {
            entry.start_clock();
        }
        Ok((entry, token))
    }

    /// The table with code `id`.
    pub fn get(&self, id: &str) -> Result<Arc<Entry>, LobbyError> {
        self.tables()
            .get(&id.trim().to_ascii_lowercase())
            .cloned()
            .ok_or_else(|| LobbyError::NoSuchGame(id.chars().take(20).collect()))
    }

    /// Takes the free seat of table `id`: the new player's side and token.
    pub fn join(&self, id: &str) -> Result<(Arc<Entry>, Side, String), LobbyError> {
        let entry = self.get(id)?;
        let token = new_token();
        let side = {
            let mut table = entry.table();
            if matches!(table.phase(), Phase::Over { .. }) {
                return Err(LobbyError::Full);
            }
            let free = [Side::First, Side::Second]
                .into_iter()
                .find(|&s| matches!(table.seats()[s.index()], Seat::Human { token: None }));
            let side = free.ok_or(LobbyError::Full)?;
            *table.seat_mut(side) = Seat::Human {
                token: Some(token.clone()),
            };
            side
        };
        entry.start_clock();
        entry.changed();
        Ok((entry, side, token))
    }

    /// How many tables there are now.
    pub fn len(&self) -> usize {
        self.tables().len()
    }

    /// Whether there is no table.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Ends games nobody has moved in for too long, and clears away finished games kept long
    /// enough, and the oldest finished ones when the lobby is full.
    pub fn sweep(&self) {
        let mut tables = self.tables();
        let mut finished: Vec<(Duration, String)> = Vec::new();
        for (id, entry) in tables.iter() {
            entry.check_time();
            let idle = entry.idle_for();
            let over = matches!(entry.table().phase(), Phase::Over { .. });
            if !over && idle >= self.limits.idle {
                let text = [
                    "很久没有人走棋，对局已结束（无人继续）。".to_string(),
                    "Nobody moved for a long time: the game was ended as abandoned.".to_string(),
                ];
                entry.table().end_by(
                    Finish {
                        winner: None,
                        reason: Reason::Abandoned,
                    },
                    text,
                );
                entry.version.send_modify(|v| *v += 1);
            }
            if over || idle >= self.limits.idle {
                finished.push((idle, id.clone()));
            }
        }
        finished.sort();
        let mut room = tables.len();
        while let Some((idle, id)) = finished.pop() {
            if idle >= self.limits.keep || room >= self.limits.tables {
                tables.remove(&id);
                room -= 1;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chess() -> NewGame {
        NewGame {
            start: Start::Chess {
                fen: crate::rules::chess::Position::start().fen(),
            },
            opponent: Opponent::Human,
            side: Side::First,
            clock: None,
            engine: None,
        }
    }

    #[test]
    fn codes_are_short_and_unambiguous() {
        let code = new_code();
        assert_eq!(code.len(), CODE_LENGTH);
        assert!(code
            .bytes()
            .all(|b| crate::random::CODE_LETTERS.contains(&b)));
        assert_ne!(new_token(), new_token());
    }

    #[test]
    fn third_player_is_refused_and_tokens_are_checked() {
        let lobby = Lobby::default();
        let (entry, first) = lobby.create(chess()).unwrap();
        let (_, side, second) = lobby.join(&entry.id).unwrap();
        assert_eq!(side, Side::Second);
        assert_eq!(lobby.join(&entry.id).unwrap_err(), LobbyError::Full);
        assert_eq!(
            entry.act("nope", &Action::parse("e4")).unwrap_err(),
            ActError::NotAPlayer
        );
        assert!(matches!(
            entry.act(&second, &Action::parse("e5")).unwrap_err(),
            ActError::Refused(super::super::table::Refused::NotYourTurn)
        ));
        entry.act(&first, &Action::parse("e4")).unwrap();
        entry.act(&second, &Action::parse("e5")).unwrap();
        assert_eq!(entry.table().moves(), ["e2e4", "e7e5"]);
        assert_eq!(entry.version(), 3);
    }

    #[test]
    fn full_lobby_clears_finished_games_first() {
        let lobby = Lobby::new(Limits {
            tables: 2,
            ..Limits::default()
        });
        let (a, token) = lobby.create(chess()).unwrap();
        lobby.create(chess()).unwrap();
        assert_eq!(lobby.create(chess()).unwrap_err(), LobbyError::Busy);
        a.act(&token, &Action::Resign).unwrap();
        lobby.create(chess()).unwrap();
        assert!(lobby.get(&a.id).is_err());
        assert_eq!(lobby.len(), 2);
    }

    #[test]
    fn idle_games_end_as_abandoned() {
        let lobby = Lobby::new(Limits {
            idle: Duration::ZERO,
            ..Limits::default()
        });
        let (a, _) = lobby.create(chess()).unwrap();
        lobby.sweep();
        assert!(matches!(
            a.table().phase(),
            Phase::Over {
                finish: Finish {
                    reason: Reason::Abandoned,
                    ..
                },
                ..
            }
        ));
    }
}
