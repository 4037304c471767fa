//! The lobby: every table of one server, found by a short code, with the seats' secrets, a
//! version that wakes the watchers of a table, and bounds on how many tables live and for how
//! long.

use super::clock::{Clock, ClockState, TimeControl};
use super::engine::Engine;
use super::table::{open, timeout_text, Action, BadStart, Match, Phase, Refused, Seat};
use super::throttle::{client_of, Buckets, Rate};
use super::{Finish, Level, Reason, Side, Start};
use crate::base::Text;
use crate::lang::Lang;
use crate::rules::Explain;
use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, TryLockError};
use std::time::{Duration, Instant};
use tokio::sync::watch;

/// How many tables a server keeps and for how long, how many engine processes run for them,
/// and what one client may ask of the lobby (docs/classroom.md, "Limits on games").
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Tables kept at most (finished ones are dropped first, oldest first).
    pub tables: usize,
    /// A game with no move for this long ends as abandoned.
    pub idle: Duration,
    /// A game waiting for a classmate that nobody has begun (its free seat not taken, no
    /// move by a player) ends as abandoned after this long, so that games made and left do
    /// not hold the lobby. A game against the computer is begun when it is made.
    pub unstarted: Duration,
    /// A finished game stays this long for replay and download.
    pub keep: Duration,
    /// Engine processes running at most; a game beyond them gets the built-in computer.
    pub engines: usize,
    /// Games one client may create.
    pub creates: Rate,
    /// Unfinished games of one client at most.
    pub open_per_client: usize,
    /// Look-ups by code that find no game, for one client; when spent, a client's look-ups
    /// are refused, but for a player's own game.
    pub misses: Rate,
    /// Clients whose buckets are remembered at most.
    pub clients: usize,
}

/// The default cap on engine processes: one per core, at least 2 and at most 16 (an engine
/// thinks on one core; Stockfish takes 133 MB, so 16 of them about 2 GB).
pub fn default_engines() -> usize {
    std::thread::available_parallelism()
        .map_or(2, |n| n.get())
        .clamp(2, 16)
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            tables: 2_000,
            idle: Duration::from_secs(60 * 60),
            unstarted: Duration::from_secs(10 * 60),
            keep: Duration::from_secs(24 * 60 * 60),
            engines: default_engines(),
            creates: Rate {
                burst: 80,
                every: Duration::from_secs(1),
            },
            open_per_client: 160,
            misses: Rate {
                burst: 60,
                every: Duration::from_secs(1),
            },
            clients: 4_096,
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
    /// This client has made games faster than [`Limits::creates`]: one more after this long.
    CreatingTooFast(Duration),
    /// This client has this many unfinished games, the most [`Limits::open_per_client`]
    /// allows.
    TooManyOpen(usize),
    /// This client has tried codes that find no game faster than [`Limits::misses`]: look-ups
    /// again after this long.
    TooManyMisses(Duration),
}

impl LobbyError {
    /// How many whole seconds (at least one) the client should wait before asking again, for
    /// a refusal of too much.
    pub fn retry_after(&self) -> Option<u64> {
        match self {
            LobbyError::CreatingTooFast(wait) | LobbyError::TooManyMisses(wait) => {
                Some(seconds(wait))
            }
            LobbyError::TooManyOpen(_) => Some(60),
            _ => None,
        }
    }
}

/// Whole seconds to wait, at least one.
fn seconds(wait: &Duration) -> u64 {
    (wait.as_secs() + u64::from(wait.subsec_nanos() > 0)).max(1)
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
            LobbyError::CreatingTooFast(wait) if zh => format!(
                "从你这里新开的对局太多太快了：请 {} 秒后再开。",
                seconds(wait)
            ),
            LobbyError::CreatingTooFast(wait) => format!(
                "Too many games were started from here too quickly: start one again in {} s.",
                seconds(wait)
            ),
            LobbyError::TooManyOpen(n) if zh => format!(
                "从你这里开的未下完的对局已有 {n} 盘：请先下完或认输几盘，再开新的。"
            ),
            LobbyError::TooManyOpen(n) => format!(
                "{n} unfinished games were started from here already: finish or resign some before starting another."
            ),
            LobbyError::TooManyMisses(wait) if zh => format!(
                "从你这里输入的对局代码错得太多了：请 {} 秒后再试。",
                seconds(wait)
            ),
            LobbyError::TooManyMisses(wait) => format!(
                "Too many game codes that match no game were tried from here: try again in {} s.",
                seconds(wait)
            ),
        }
    }
}

impl std::fmt::Display for LobbyError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.explain(Lang::En))
    }
}

impl std::error::Error for LobbyError {}

/// What the players of a game are told about its computer opponent.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Notice {
    /// The engine failed: the built-in computer plays on.
    EngineFailed,
    /// Every engine process the server allows ([`Limits::engines`]) was in use when the game
    /// began: the built-in computer plays it.
    EnginesBusy,
}

/// A place for one engine process among the lobby's [`Limits::engines`], given back when
/// dropped (after the engine it was taken for).
#[derive(Debug)]
pub struct EngineSlot(Arc<AtomicUsize>);

impl Drop for EngineSlot {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

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
    /// The real engine playing the computer's moves, until it fails or the game ends.
    engine: Mutex<Option<Engine>>,
    /// The engine's slot among the lobby's engines, freed after the engine is stopped.
    slot: Mutex<Option<EngineSlot>>,
    /// The engine's name, from when it plays (kept after the game ends, for the record).
    engine_name: Mutex<Option<String>>,
    /// Said to the players about the computer.
    notice: Mutex<Option<Notice>>,
    /// The code of the rematch a player of this table opened once it ended.
    rematch: Mutex<Option<String>>,
    /// The client that made the table, if known.
    owner: Option<IpAddr>,
    /// Whether a player has moved or the free seat has been taken.
    begun: AtomicBool,
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

    /// Tells the watchers the table changed; a game that is over stops its engine. Call it
    /// with the table unlocked.
    pub fn changed(&self) {
        *self.last_move.lock().unwrap_or_else(|e| e.into_inner()) = Instant::now();
        self.version.send_modify(|v| *v += 1);
        self.retire_engine_if_over();
    }

    fn is_over(&self) -> bool {
        matches!(self.table().phase(), Phase::Over { .. })
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
        self.begun.store(true, Ordering::Relaxed);
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
        let engine = self.engine().take();
        let slot = self.slot().take();
        drop((engine, slot));
        *self.engine_name.lock().unwrap_or_else(|e| e.into_inner()) = None;
        self.tell(Notice::EngineFailed);
    }

    /// Tells the players `notice`.
    pub fn tell(&self, notice: Notice) {
        *self.notice.lock().unwrap_or_else(|e| e.into_inner()) = Some(notice);
    }

    /// What the players are told about the computer, if anything.
    pub fn notice(&self) -> Option<Notice> {
        *self.notice.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn slot(&self) -> MutexGuard<'_, Option<EngineSlot>> {
        self.slot.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Sets `engine`, started in `slot`, to play the computer's moves; if the game is over
    /// meanwhile, it is stopped at once.
    pub fn seat_engine(&self, engine: Engine, slot: EngineSlot) {
        *self.engine_name.lock().unwrap_or_else(|e| e.into_inner()) =
            Some(engine.name().to_string());
        *self.engine() = Some(engine);
        *self.slot() = Some(slot);
        self.retire_engine_if_over();
    }

    /// If the game is over, stops its engine (the process killed and reaped, then its slot
    /// freed). An engine thinking now is left to its thinker, who calls this when done.
    pub fn retire_engine_if_over(&self) {
        if self.is_over() {
            self.stop_engine();
        }
    }

    /// Stops the engine unless it is thinking (the engine's lock is held).
    fn stop_engine(&self) {
        let engine = match self.engine.try_lock() {
            Ok(mut e) => e.take(),
            Err(TryLockError::Poisoned(e)) => e.into_inner().take(),
            Err(TryLockError::WouldBlock) => return,
        };
        let slot = self.slot().take();
        drop(engine);
        drop(slot);
    }

    /// When the running clock's time runs out, if a clock runs.
    pub fn flag_at(&self) -> Option<Instant> {
        self.clock().as_ref().and_then(Clock::flag_at)
    }

    /// The time control the table was opened with, if it is timed.
    pub fn time_control(&self) -> Option<TimeControl> {
        self.clock().as_ref().map(|c| c.control)
    }

    /// The code of the rematch opened from this table, if one was.
    pub fn rematch(&self) -> Option<String> {
        self.rematch
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }

    /// Records the rematch `code` opened from this table (the first one only), and wakes
    /// its pages so that the other player sees it.
    pub fn offer_rematch(&self, code: &str) {
        let mut r = self.rematch.lock().unwrap_or_else(|e| e.into_inner());
        if r.is_none() {
            *r = Some(code.to_string());
            drop(r);
            self.changed();
        }
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

/// Every table of a server, the engine processes running for them, and what each client
/// has asked for.
#[derive(Debug)]
pub struct Lobby {
    tables: Mutex<HashMap<String, Arc<Entry>>>,
    limits: Limits,
    /// Engine processes running (slots taken).
    engines: Arc<AtomicUsize>,
    /// Games created, by client (locked after `tables`).
    creates: Mutex<Buckets>,
    /// Look-ups that found no game, by client (locked before `tables`).
    misses: Mutex<Buckets>,
}

impl Default for Lobby {
    fn default() -> Lobby {
        Lobby::new(Limits::default())
    }
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

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl Lobby {
    /// An empty lobby with `limits`.
    pub fn new(limits: Limits) -> Lobby {
        Lobby {
            tables: Mutex::new(HashMap::new()),
            limits,
            engines: Arc::default(),
            creates: Mutex::new(Buckets::new(limits.creates, limits.clients)),
            misses: Mutex::new(Buckets::new(limits.misses, limits.clients)),
        }
    }

    /// The limits of this lobby.
    pub fn limits(&self) -> Limits {
        self.limits
    }

    fn tables(&self) -> MutexGuard<'_, HashMap<String, Arc<Entry>>> {
        lock(&self.tables)
    }

    /// A place for one more engine process, if fewer than [`Limits::engines`] run. Take it
    /// only once the game has its table ([`Lobby::create`] succeeded).
    pub fn engine_slot(&self) -> Option<EngineSlot> {
        let cap = self.limits.engines;
        self.engines
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| {
                (n < cap).then_some(n + 1)
            })
            .ok()
            .map(|_| EngineSlot(self.engines.clone()))
    }

    /// How many engine processes run (or are starting) for this lobby's games.
    pub fn engines_running(&self) -> usize {
        self.engines.load(Ordering::SeqCst)
    }

    /// Opens a table: its code and the creator's token.
    pub fn create(&self, new: NewGame) -> Result<(Arc<Entry>, String), LobbyError> {
        self.create_by(new, None)
    }

    /// Opens a table for the client at `addr` (none: not limited by client): its code and the
    /// creator's token. The client is refused when it creates faster than
    /// [`Limits::creates`] or has [`Limits::open_per_client`] unfinished games. An engine
    /// is seated afterwards, in a free slot ([`Lobby::engine_slot`], [`Entry::seat_engine`]),
    /// so that a table refused starts no process.
    pub fn create_by(
        &self,
        new: NewGame,
        addr: Option<IpAddr>,
    ) -> Result<(Arc<Entry>, String), LobbyError> {
        let owner = addr.map(client_of);
        let now = Instant::now();
        if let Some(client) = owner {
            lock(&self.creates)
                .check(client, now)
                .map_err(LobbyError::CreatingTooFast)?;
        }
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
        if let Some(client) = owner {
            let open = tables
                .values()
                .filter(|e| e.owner == Some(client) && !e.is_over())
                .count();
            if open >= self.limits.open_per_client {
                return Err(LobbyError::TooManyOpen(open));
            }
            lock(&self.creates)
                .take(client, now)
                .map_err(LobbyError::CreatingTooFast)?;
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
            engine: Mutex::new(None),
            slot: Mutex::new(None),
            engine_name: Mutex::new(None),
            notice: Mutex::new(None),
            rematch: Mutex::new(None),
            owner,
            // A game against the computer is begun when made: its learner may think long
            // before a first move. Only a game waiting for a classmate is left unbegun.
            begun: AtomicBool::new(computer),
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

    /// The table with code `id`, looked up for the client at `addr` (none: not limited)
    /// holding `token` (a seat's, if it has one). A code that finds no game spends one of the
    /// client's [`Limits::misses`]; once they are spent, every look-up of the client is
    /// refused (a found game as a missing one, so that refusals tell nothing), but for a game
    /// whose seat `token` is.
    pub fn find(
        &self,
        id: &str,
        addr: Option<IpAddr>,
        token: Option<&str>,
    ) -> Result<Arc<Entry>, LobbyError> {
        let Some(client) = addr.map(client_of) else {
            return self.get(id);
        };
        let now = Instant::now();
        let mut misses = lock(&self.misses);
        if let Err(wait) = misses.check(client, now) {
            drop(misses);
            return match (self.get(id), token) {
                (Ok(entry), Some(t)) if entry.side_of(t).is_some() => Ok(entry),
                _ => Err(LobbyError::TooManyMisses(wait)),
            };
        }
        let found = self.get(id);
        if found.is_err() {
            // Checked above under the same lock: there is a token to spend.
            let _ = misses.take(client, now);
        }
        found
    }

    /// Takes the free seat of table `id`: the new player's side and token.
    pub fn join(&self, id: &str) -> Result<(Arc<Entry>, Side, String), LobbyError> {
        self.join_by(id, None)
    }

    /// Takes the free seat of table `id` for the client at `addr`, looked up as
    /// [`Lobby::find`] does: the new player's side and token.
    pub fn join_by(
        &self,
        id: &str,
        addr: Option<IpAddr>,
    ) -> Result<(Arc<Entry>, Side, String), LobbyError> {
        let entry = self.find(id, addr, None)?;
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
        entry.begun.store(true, Ordering::Relaxed);
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

    /// Ends games nobody has moved in for too long (or begun, for [`Limits::unstarted`]),
    /// and clears away finished games kept long enough, and the oldest finished ones when the
    /// lobby is full. The engines of games ended or cleared are stopped.
    pub fn sweep(&self) {
        let mut tables = self.tables();
        let mut finished: Vec<(Duration, String)> = Vec::new();
        let mut ended = Vec::new();
        for (id, entry) in tables.iter() {
            entry.check_time();
            let idle = entry.idle_for();
            let over = entry.is_over();
            let unstarted = !entry.begun.load(Ordering::Relaxed) && idle >= self.limits.unstarted;
            if !over && (idle >= self.limits.idle || unstarted) {
                let text = if unstarted {
                    Text::new(
                        "没有人加入或走棋，对局已结束（无人开始）。".to_string(),
                        "Nobody joined or moved: the game was ended as abandoned.".to_string(),
                    )
                } else {
                    Text::new(
                        "很久没有人走棋，对局已结束（无人继续）。",
                        "Nobody moved for a long time: the game was ended as abandoned.",
                    )
                };
                entry.table().end_by(
                    Finish {
                        winner: None,
                        reason: Reason::Abandoned,
                    },
                    text,
                );
                entry.version.send_modify(|v| *v += 1);
                ended.push(entry.clone());
            }
            if over || idle >= self.limits.idle || unstarted {
                finished.push((idle, id.clone()));
            }
        }
        finished.sort();
        let mut room = tables.len();
        while let Some((idle, id)) = finished.pop() {
            if idle >= self.limits.keep || room >= self.limits.tables {
                if let Some(entry) = tables.remove(&id) {
                    ended.push(entry);
                }
                room -= 1;
            }
        }
        drop(tables);
        for entry in ended {
            entry.retire_engine_if_over();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chess() -> NewGame {
        NewGame {
            start: Start::Chess(crate::base::chess::Start {
                fen: crate::rules::chess::Position::start().fen(),
            }),
            opponent: Opponent::Human,
            side: Side::First,
            clock: None,
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
    fn engine_slots_are_capped_and_given_back() {
        let lobby = Lobby::new(Limits {
            engines: 2,
            ..Limits::default()
        });
        let a = lobby.engine_slot().unwrap();
        let _b = lobby.engine_slot().unwrap();
        assert!(lobby.engine_slot().is_none());
        assert_eq!(lobby.engines_running(), 2);
        drop(a);
        assert!(lobby.engine_slot().is_some());
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
