//! Whole games on the web: the `/play` pages (they work without a script, by forms and links)
//! and the `/api/games` API the pages' script uses, with live updates by server-sent events.
//!
//! A seat's secret token is kept in an HttpOnly, SameSite=Strict cookie named after the
//! game, so a reload or a new tab resumes the game; API clients may send it in the body.

use super::i18n::{fill, Ui};
use super::kit::{enc, respond, Chrome, Req};
use super::serve::Client;
use super::small;
use super::AppState;
use crate::content::{Action as Click, Game};
use crate::lang::Lang;
use crate::play::clock::{ClockState, TimeControl};
use crate::play::lobby::{ActError, Entry, LobbyError, NewGame, Notice, Opponent};
use crate::play::table::{side_names, Action, BoardAsk, Match, Phase, Seat};
use crate::play::{Level, Reason, ShogiHandicap, Side, Start};
use crate::record::{self, Format, Record, RecordError};
use crate::rules::{chess, go, shogi, Explain};
use askama::Template;
use axum::extract::{Path, Query, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Redirect, Response};
use axum::routing::{get, post};
use axum::Router;
use axum::{Form, Json};
use serde::{Deserialize, Deserializer, Serialize};
use std::convert::Infallible;
use std::sync::Arc;
use std::time::Duration;

/// The routes of the games: the `/api/games` API and the `/play` pages.
pub(super) fn routes() -> Router<AppState> {
    Router::new()
        .route("/api/games", post(api_create).layer(small()))
        .route("/api/games/{id}", get(api_state))
        .route("/api/games/{id}/join", post(api_join).layer(small()))
        .route("/api/games/{id}/moves", post(api_move).layer(small()))
        .route("/api/games/{id}/events", get(api_events))
        .route("/api/games/{id}/record", get(api_record))
        .route("/play", get(new_page).post(create_form).layer(small()))
        .route("/play/join", post(join_code).layer(small()))
        .route("/play/{id}", get(page).post(act_form).layer(small()))
        .route("/play/{id}/join", post(join_form).layer(small()))
}

/// The largest body the game routes read (a move is a few bytes, a FEN under 100).
pub const GAME_BODY_LIMIT: usize = 8 << 10;

/// How long one stream of events stays open; the browser's `EventSource` reconnects.
const STREAM_LIFETIME: Duration = Duration::from_secs(30 * 60);

/// Reads a number or a string as text (forms send strings, JSON numbers).
fn text<'de, D: Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Either {
        Text(String),
        Number(f64),
        Flag(bool),
    }
    Ok(Option::<Either>::deserialize(d)?.map(|e| match e {
        Either::Text(s) => s,
        Either::Number(n) => n.to_string(),
        Either::Flag(b) => b.to_string(),
    }))
}

/// A new game, as `POST /api/games` (JSON) and `POST /play` (a form) give it.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CreateRequest {
    /// `go`, `chess` or `shogi`.
    #[serde(default, deserialize_with = "text")]
    pub game: Option<String>,
    /// `computer` (the default) or `human`.
    #[serde(default, deserialize_with = "text")]
    pub opponent: Option<String>,
    /// The computer's level, 1 to 5.
    #[serde(default, deserialize_with = "text")]
    pub level: Option<String>,
    /// The computer: `builtin` (the default) or `installed`, the real engine found for the
    /// game (GNU Go, Stockfish, Fairy-Stockfish).
    #[serde(default, deserialize_with = "text")]
    pub engine: Option<String>,
    /// Go: 9, 13 or 19.
    #[serde(default, deserialize_with = "text")]
    pub size: Option<String>,
    /// Go: `chinese` or `japanese`.
    #[serde(default, deserialize_with = "text")]
    pub rules: Option<String>,
    /// Go: handicap stones (0, 2–9); shogi: `lance`, `bishop`, `rook`, `two-pieces`,
    /// `four-pieces`, `six-pieces`.
    #[serde(default, deserialize_with = "text")]
    pub handicap: Option<String>,
    /// Go: komi in points (the rules' usual komi when missing).
    #[serde(default, deserialize_with = "text")]
    pub komi: Option<String>,
    /// Chess: the start as FEN.
    #[serde(default, deserialize_with = "text")]
    pub fen: Option<String>,
    /// Shogi: the start as SFEN.
    #[serde(default, deserialize_with = "text")]
    pub sfen: Option<String>,
    /// Main time per side in minutes; no clocks when missing or 0.
    #[serde(default, deserialize_with = "text")]
    pub minutes: Option<String>,
    /// Go, shogi: byo-yomi in seconds after main time (each move within it).
    #[serde(default, deserialize_with = "text")]
    pub byoyomi: Option<String>,
    /// Chess: seconds added after each move.
    #[serde(default, deserialize_with = "text")]
    pub increment: Option<String>,
    /// The creator's side: `black`, `white`, `first`, `second`, `sente`, `gote` or `random`.
    #[serde(default, deserialize_with = "text")]
    pub color: Option<String>,
}

/// Why a new game's request cannot be read.
#[derive(Clone, Debug, PartialEq)]
pub enum BadRequest {
    /// The game is none of `go`, `chess`, `shogi`.
    Game(String),
    /// The opponent is neither `computer` nor `human`.
    Opponent(String),
    /// The level is not 1 to 5.
    Level(String),
    /// A number field is not a number.
    Number(&'static str, String),
    /// Go rules are `chinese` or `japanese`.
    Rules(String),
    /// The side is none of the words.
    Color(String),
    /// A shogi handicap that is not one of the six.
    ShogiHandicap(String),
    /// The computer is `builtin` or `installed`.
    Engine(String),
    /// No real engine is installed for the game.
    NoEngine(Game),
    /// A record format the game has not.
    Format(String),
}

impl Explain for BadRequest {
    fn explain(&self, lang: Lang) -> String {
        let zh = lang == Lang::Zh;
        let cut = |s: &String| s.chars().take(40).collect::<String>();
        match self {
            BadRequest::Game(g) if zh => format!("没有“{}”这种棋：请选 go、chess 或 shogi。", cut(g)),
            BadRequest::Game(g) => format!("There is no game “{}”: choose go, chess or shogi.", cut(g)),
            BadRequest::Opponent(o) if zh => format!("对手“{}”不明：请选 computer（电脑）或 human（同学）。", cut(o)),
            BadRequest::Opponent(o) => format!("Opponent “{}” is unknown: choose computer or human.", cut(o)),
            BadRequest::Level(l) if zh => format!("没有“{}”级：电脑级别是 1 到 5。", cut(l)),
            BadRequest::Level(l) => format!("There is no level “{}”: the computer's levels are 1 to 5.", cut(l)),
            BadRequest::Number(field, v) if zh => format!("{field} 应该是数字，而不是“{}”。", cut(v)),
            BadRequest::Number(field, v) => format!("{field} must be a number, not “{}”.", cut(v)),
            BadRequest::Rules(r) if zh => format!("没有“{}”规则：请选 chinese（中国规则）或 japanese（日本规则）。", cut(r)),
            BadRequest::Rules(r) => format!("There are no rules “{}”: choose chinese or japanese.", cut(r)),
            BadRequest::Color(c) if zh => format!("“{}”不是一方：请选 black、white、first、second 或 random。", cut(c)),
            BadRequest::Color(c) => format!("“{}” is not a side: choose black, white, first, second or random.", cut(c)),
            BadRequest::Engine(e) if zh => format!("电脑“{}”不明：请选 builtin（内置）或 installed（已安装的引擎）。", cut(e)),
            BadRequest::Engine(e) => format!("The computer “{}” is unknown: choose builtin or installed.", cut(e)),
            BadRequest::NoEngine(g) if zh => format!("这台服务器上没有安装{}引擎：请用内置电脑。", g.name(lang)),
            BadRequest::NoEngine(g) => format!("No {} engine is installed on this server: play the built-in computer.", g.name(lang)),
            BadRequest::Format(f) if zh => format!("没有“{}”格式的棋谱：围棋是 sgf，国际象棋是 pgn，将棋是 kif、ki2 或 csa。", cut(f)),
            BadRequest::Format(f) => format!("There is no record format “{}” for this game: Go has sgf, chess pgn, shogi kif, ki2 and csa.", cut(f)),
            BadRequest::ShogiHandicap(h) if zh => format!("没有“{}”这种驹落：请选 lance、bishop、rook、two-pieces、four-pieces 或 six-pieces。", cut(h)),
            BadRequest::ShogiHandicap(h) => format!("There is no handicap “{}”: choose lance, bishop, rook, two-pieces, four-pieces or six-pieces.", cut(h)),
        }
    }
}

fn blank(v: &Option<String>) -> Option<&str> {
    v.as_deref().map(str::trim).filter(|s| !s.is_empty())
}

fn number<T: std::str::FromStr>(
    field: &'static str,
    v: &Option<String>,
) -> Result<Option<T>, BadRequest> {
    blank(v)
        .map(|s| {
            s.parse()
                .map_err(|_| BadRequest::Number(field, s.to_string()))
        })
        .transpose()
}

impl CreateRequest {
    /// The new game it asks for; `random` draws the side here.
    pub fn read(&self) -> Result<NewGame, BadRequest> {
        let game_name = blank(&self.game).unwrap_or("");
        let game = Game::from_slug(game_name).ok_or_else(|| BadRequest::Game(game_name.into()))?;
        let opponent = match blank(&self.opponent).unwrap_or("computer") {
            "computer" => {
                let level = match blank(&self.level) {
                    None => Level::MIN,
                    Some(l) => l
                        .parse::<u8>()
                        .ok()
                        .and_then(Level::new)
                        .ok_or_else(|| BadRequest::Level(l.into()))?,
                };
                Opponent::Computer(level)
            }
            "human" => Opponent::Human,
            other => return Err(BadRequest::Opponent(other.into())),
        };
        let start = match game {
            Game::Go => {
                let size = number::<u8>("size", &self.size)?.unwrap_or(9);
                let rules = match blank(&self.rules) {
                    None => go::Rules::Chinese,
                    Some(r) => go::Rules::parse(r).ok_or_else(|| BadRequest::Rules(r.into()))?,
                };
                let handicap = number::<u8>("handicap", &self.handicap)?.unwrap_or(0);
                let komi = number::<f64>("komi", &self.komi)?
                    .unwrap_or_else(|| rules.default_komi(handicap));
                Start::Go {
                    size,
                    handicap,
                    rules,
                    komi,
                }
            }
            Game::Chess => Start::Chess {
                fen: blank(&self.fen)
                    .map(String::from)
                    .unwrap_or_else(|| chess::Position::start().fen()),
            },
            Game::Shogi => {
                let handicap = match blank(&self.handicap) {
                    None | Some("0") | Some("none") => None,
                    Some(h) => Some(
                        ShogiHandicap::ALL
                            .into_iter()
                            .find(|x| x.slug() == h || x.kif_name() == h)
                            .ok_or_else(|| BadRequest::ShogiHandicap(h.into()))?,
                    ),
                };
                let sfen = match (blank(&self.sfen), handicap) {
                    (Some(s), _) => s.to_string(),
                    (None, Some(h)) => h.sfen().to_string(),
                    (None, None) => shogi::Position::start().sfen(),
                };
                Start::Shogi { sfen, handicap }
            }
        };
        let side = match blank(&self.color).unwrap_or("first") {
            "first" | "sente" => Side::First,
            "second" | "gote" => Side::Second,
            "black" if game == Game::Chess => Side::Second,
            "white" if game == Game::Chess => Side::First,
            "black" => Side::First,
            "white" => Side::Second,
            "random" => {
                let mut b = [0u8; 1];
                let _ = getrandom::fill(&mut b);
                if b[0] & 1 == 0 {
                    Side::First
                } else {
                    Side::Second
                }
            }
            other => return Err(BadRequest::Color(other.into())),
        };
        let seconds =
            |field: &'static str, v: &Option<String>, most: f64| -> Result<Duration, BadRequest> {
                let n = number::<f64>(field, v)?.unwrap_or(0.0);
                if !(0.0..=most).contains(&n) {
                    return Err(BadRequest::Number(field, n.to_string()));
                }
                Ok(Duration::from_secs_f64(n))
            };
        let main = seconds("minutes", &self.minutes, 600.0)? * 60;
        let byoyomi = seconds("byoyomi", &self.byoyomi, 3600.0)?;
        let increment = seconds("increment", &self.increment, 3600.0)?;
        let clock = (!main.is_zero() || !byoyomi.is_zero()).then_some(TimeControl {
            main,
            byoyomi: if game == Game::Chess {
                Duration::ZERO
            } else {
                byoyomi
            },
            increment: if game == Game::Chess {
                increment
            } else {
                Duration::ZERO
            },
        });
        Ok(NewGame {
            start,
            opponent,
            side,
            clock,
        })
    }
}

/// `{"zh": …, "en": …}`: a message in both languages.
#[derive(Debug, Serialize)]
pub struct Both {
    /// 中文.
    pub zh: String,
    /// English.
    pub en: String,
}

impl Both {
    fn of(e: &impl Explain) -> Both {
        Both {
            zh: e.explain(Lang::Zh),
            en: e.explain(Lang::En),
        }
    }
}

/// A refusal: `{"reason": {"zh", "en"}}` with its status.
fn refusal(status: StatusCode, e: &impl Explain) -> Response {
    #[derive(Serialize)]
    struct Reason {
        reason: Both,
    }
    (
        status,
        Json(Reason {
            reason: Both::of(e),
        }),
    )
        .into_response()
}

fn lobby_status(e: &LobbyError) -> StatusCode {
    match e {
        LobbyError::NoSuchGame(_) => StatusCode::NOT_FOUND,
        LobbyError::Full => StatusCode::CONFLICT,
        LobbyError::NotAPlayer => StatusCode::FORBIDDEN,
        LobbyError::Busy => StatusCode::SERVICE_UNAVAILABLE,
        LobbyError::Start(_) => StatusCode::UNPROCESSABLE_ENTITY,
        LobbyError::CreatingTooFast(_)
        | LobbyError::TooManyOpen(_)
        | LobbyError::TooManyMisses(_) => StatusCode::TOO_MANY_REQUESTS,
    }
}

/// Adds `Retry-After` (whole seconds) to a refusal of too much.
fn with_retry_after(mut response: Response, e: &LobbyError) -> Response {
    if let Some(secs) = e.retry_after() {
        response
            .headers_mut()
            .insert(header::RETRY_AFTER, HeaderValue::from(secs));
    }
    response
}

fn lobby_refusal(e: &LobbyError) -> Response {
    with_retry_after(refusal(lobby_status(e), e), e)
}

/// The game `id` for `client`, whose seat token (if any) is the cookie's or `token`.
fn look_up(
    state: &AppState,
    client: Client,
    id: &str,
    headers: &HeaderMap,
    token: Option<&str>,
) -> Result<Arc<Entry>, LobbyError> {
    let cookie = cookie_token(headers, &id.trim().to_ascii_lowercase());
    state
        .lobby()
        .find(id, client.0, token.or(cookie.as_deref()))
}

/// A notice in both languages, from the locales.
fn notice_text(notice: Notice) -> Both {
    let text = |lang| {
        let play = &Ui::get(lang).play;
        match notice {
            Notice::EngineFailed => play.engine_failed.clone(),
            Notice::EnginesBusy => play.engines_busy.clone(),
        }
    };
    Both {
        zh: text(Lang::Zh),
        en: text(Lang::En),
    }
}

/// A side's name in a game: 黑方, White, 先手 ☗ (the names of [`side_names`], with the
/// shogi marks).
fn side_name(game: Game, side: Side, lang: Lang) -> String {
    let (zh, en) = side_names(game);
    let name = if lang == Lang::Zh { zh } else { en }[side.index()];
    match (game, side) {
        (Game::Shogi, Side::First) => format!("{name} ☗"),
        (Game::Shogi, Side::Second) => format!("{name} ☖"),
        _ => name.to_string(),
    }
}

/// The cookie holding the seat's token of game `id`.
fn cookie_name(id: &str) -> String {
    format!("qiyuan-game-{id}")
}

fn token_cookie(id: &str, token: &str) -> Option<HeaderValue> {
    HeaderValue::from_str(&format!(
        "{}={token}; Path=/; Max-Age=2592000; HttpOnly; SameSite=Strict",
        cookie_name(id)
    ))
    .ok()
}

/// The token of game `id` from the request's cookies.
fn cookie_token(headers: &HeaderMap, id: &str) -> Option<String> {
    super::kit::cookie(headers, &cookie_name(id))
}

fn with_cookie(mut response: Response, id: &str, token: &str) -> Response {
    if let Some(v) = token_cookie(id, token) {
        response.headers_mut().append(header::SET_COOKIE, v);
    }
    response
}

/// The computer's replies: while a computer sits at the side to move, it thinks (on a
/// blocking thread, never on the async workers) and plays. Returns the moves it played.
pub(crate) async fn computer_moves(entry: &Arc<Entry>) -> Vec<String> {
    let mut played = Vec::new();
    // The computer never moves twice in a row; the bound only guards against a loop.
    for _ in 0..2 {
        let (job, version, side, level, start, moves) = {
            let table = entry.table();
            let Some(side) = table.turn() else { break };
            let Seat::Computer { level } = table.seats()[side.index()] else {
                break;
            };
            (
                table.think_job(level),
                entry.version(),
                side,
                level,
                table.start().clone(),
                table.moves().to_vec(),
            )
        };
        let text = match engine_move(entry, &start, &moves, level).await {
            Some(m) => m,
            None => {
                let choice = tokio::task::spawn_blocking(job).await.ok().flatten();
                match (choice, start.game()) {
                    (Some(m), _) => m,
                    (None, Game::Go) => "pass".to_string(),
                    (None, _) => break,
                }
            }
        };
        let action = match text.as_str() {
            "resign" => Action::Resign,
            "win" => Action::Declare,
            _ => Action::Move(text.clone()),
        };
        match entry.apply(side, &action, Some(version)) {
            Ok(()) => {}
            Err(ActError::Moved) => break,
            Err(e) if entry.engine_name().is_some() => {
                entry.engine_failed(&format!("its move {text} was refused: {e:?}"));
                continue;
            }
            Err(e) => {
                eprintln!("qiyuan: the computer's move {text} was refused: {e:?}");
                break;
            }
        }
        played.push(text);
    }
    engine_dead_stones(entry).await;
    played
}

/// The real engine's move, if one plays this game and answers; when it fails, it is stopped
/// and the built-in computer takes over (`None`).
async fn engine_move(
    entry: &Arc<Entry>,
    start: &Start,
    moves: &[String],
    level: Level,
) -> Option<String> {
    entry.engine_name()?;
    let (entry2, start, moves) = (entry.clone(), start.clone(), moves.to_vec());
    let answer = tokio::task::spawn_blocking(move || {
        let answer = entry2
            .engine()
            .as_mut()
            .map(|e| e.best_move(&start, &moves, level));
        // The game may have ended while the engine thought: it was left running for this.
        entry2.retire_engine_if_over();
        answer
    })
    .await
    .ok()
    .flatten()?;
    match answer {
        Ok(m) => Some(m),
        // A move our rules refuse (GNU Go knows only simple ko, not superko): the built-in
        // computer plays this one, the engine the next.
        Err(e) if e.leaves_engine_usable() => {
            eprintln!("qiyuan: game {}: the engine's answer is not played ({e}); the built-in computer moves", entry.id);
            None
        }
        Err(e) => {
            entry.engine_failed(&e.to_string());
            None
        }
    }
}

/// Go, after two passes against a real engine: the engine marks the dead stones (GTP
/// `final_status_list dead`), instead of the built-in guess.
async fn engine_dead_stones(entry: &Arc<Entry>) {
    let (start, moves) = {
        let table = entry.table();
        if !matches!(table.phase(), Phase::Counting { .. }) || entry.engine_name().is_none() {
            return;
        }
        (table.start().clone(), table.moves().to_vec())
    };
    let entry2 = entry.clone();
    let (start2, moves2) = (start.clone(), moves.clone());
    let answer = tokio::task::spawn_blocking(move || {
        let answer = entry2
            .engine()
            .as_mut()
            .map(|e| e.dead_stones(&start2, &moves2));
        entry2.retire_engine_if_over();
        answer
    })
    .await
    .ok()
    .flatten();
    match answer {
        Some(Ok(dead)) => {
            {
                let mut table = entry.table();
                if table.moves() != moves.as_slice() {
                    return;
                }
                table.propose_dead(dead);
            }
            entry.changed();
        }
        Some(Err(e)) => entry.engine_failed(&e.to_string()),
        None => {}
    }
}

/// The state of a game, as `GET /api/games/{id}` gives it.
#[derive(Debug, Serialize)]
pub struct GameState {
    /// The game's code.
    pub id: String,
    /// `go`, `chess` or `shogi`.
    pub game: &'static str,
    /// The moves played, canonical names (`D4`, `e2e4`, `7g7f`).
    pub moves: Vec<String>,
    /// The moves as learners read them (`D4`, `e4`, `☗７六歩`).
    pub notation: Vec<String>,
    /// `first` or `second` while moves are played; `null` while counting or over.
    pub to_play: Option<&'static str>,
    /// Whether the game has ended.
    pub over: bool,
    /// `play`, `counting` or `over`.
    pub phase: &'static str,
    /// How it ended.
    pub result: Option<ResultState>,
    /// Go, while counting: the points of stones marked dead.
    pub dead: Vec<String>,
    /// Go, while counting: whether first and second agree.
    pub agreed: [bool; 2],
    /// Who sits on each side (first, second).
    pub seats: [SeatState; 2],
    /// A pending draw offer, by `first` or `second`.
    pub draw_offer: Option<&'static str>,
    /// Whether the side to move is in check.
    pub check: bool,
    /// The number of changes so far (events carry it too).
    pub version: u64,
    /// The asker's side, when their token was given.
    pub you: Option<&'static str>,
    /// The clocks, in milliseconds, if the game is timed.
    pub clock: Option<ClockState>,
    /// The real engine playing the computer's moves, if one does (or did, once the game is
    /// over).
    pub engine: Option<String>,
    /// What the players are told about the game: the engine failed, or every engine was in
    /// use, and the built-in computer plays.
    pub notice: Option<Both>,
}

/// The end of a game in the state.
#[derive(Debug, Serialize)]
pub struct ResultState {
    /// `first`, `second`, or `null` for a draw.
    pub winner: Option<&'static str>,
    /// Why it ended, with the margin of a count.
    pub reason: Reason,
    /// The ending explained.
    pub text: Both,
}

/// One seat in the state.
#[derive(Debug, Serialize)]
pub struct SeatState {
    /// `human` or `computer`.
    pub kind: &'static str,
    /// A person has taken it (always true for the computer).
    pub joined: bool,
    /// The computer's level.
    pub level: Option<u8>,
}

fn state_of(entry: &Entry, table: &dyn Match, you: Option<Side>) -> GameState {
    let (phase, result, dead, agreed) = match table.phase() {
        Phase::Play => ("play", None, Vec::new(), [false; 2]),
        Phase::Counting { dead, agreed } => ("counting", None, dead.clone(), *agreed),
        Phase::Over { finish, text } => (
            "over",
            Some(ResultState {
                winner: finish.winner.map(Side::word),
                reason: finish.reason,
                text: Both {
                    zh: text[0].clone(),
                    en: text[1].clone(),
                },
            }),
            Vec::new(),
            [false; 2],
        ),
    };
    let seat = |s: &Seat| match s {
        Seat::Human { token } => SeatState {
            kind: "human",
            joined: token.is_some(),
            level: None,
        },
        Seat::Computer { level } => SeatState {
            kind: "computer",
            joined: true,
            level: Some(level.get()),
        },
    };
    let seats = table.seats();
    GameState {
        id: entry.id.clone(),
        game: table.game().slug(),
        moves: table.moves().to_vec(),
        notation: table.notations().to_vec(),
        to_play: table.turn().map(Side::word),
        over: result.is_some(),
        phase,
        result,
        dead,
        agreed,
        seats: [seat(&seats[0]), seat(&seats[1])],
        draw_offer: table.draw_offer().map(Side::word),
        check: table.in_check(),
        version: entry.version(),
        you: you.map(Side::word),
        clock: entry.clock_state(),
        engine: entry.engine_name(),
        notice: entry.notice().map(notice_text),
    }
}

fn game_state(entry: &Entry, you: Option<Side>) -> GameState {
    entry.check_time();
    let table = entry.table();
    state_of(entry, &**table, you)
}

/// `201 {"id", "token", "url", "side"}`.
#[derive(Debug, Serialize)]
struct Created {
    id: String,
    token: String,
    url: String,
    side: &'static str,
}

fn table_href(id: &str) -> String {
    format!("/play/{id}")
}

/// Why a game was not created.
enum NotCreated {
    Bad(BadRequest),
    Lobby(LobbyError),
}

impl NotCreated {
    fn explain(&self, lang: Lang) -> String {
        match self {
            NotCreated::Bad(e) => e.explain(lang),
            NotCreated::Lobby(e) => e.explain(lang),
        }
    }

    fn status(&self) -> StatusCode {
        match self {
            NotCreated::Bad(_) => StatusCode::UNPROCESSABLE_ENTITY,
            NotCreated::Lobby(e) => lobby_status(e),
        }
    }

    fn response(&self) -> Response {
        match self {
            NotCreated::Bad(e) => refusal(StatusCode::UNPROCESSABLE_ENTITY, e),
            NotCreated::Lobby(e) => lobby_refusal(e),
        }
    }
}

/// Creates the game of `request` for `client`: the table first (the lobby must have room and
/// the client be within its limits), then, against an installed engine, the engine in a free
/// slot, or the built-in computer and a notice when every slot is taken.
async fn create(
    state: &AppState,
    client: Client,
    request: &CreateRequest,
    account: Option<&crate::class::Account>,
) -> Result<(Arc<Entry>, Side, String), NotCreated> {
    let new = request.read().map_err(NotCreated::Bad)?;
    let game = new.start.game();
    let installed = match blank(&request.engine).unwrap_or("builtin") {
        "builtin" => false,
        "installed" => true,
        other => return Err(NotCreated::Bad(BadRequest::Engine(other.into()))),
    };
    let engine_game = installed && matches!(new.opponent, Opponent::Computer(_));
    if engine_game && state.engines().command(game).is_none() {
        return Err(NotCreated::Bad(BadRequest::NoEngine(game)));
    }
    let side = new.side;
    let opponent = match &new.opponent {
        Opponent::Computer(level) if installed => format!("engine, level {}", level.get()),
        Opponent::Computer(level) => format!("computer, level {}", level.get()),
        Opponent::Human => "classmate".to_string(),
    };
    let (entry, token) = state
        .lobby()
        .create_by(new, client.0)
        .map_err(NotCreated::Lobby)?;
    if engine_game {
        match state.lobby().engine_slot() {
            Some(slot) => {
                let engines = state.engines_arc();
                match tokio::task::spawn_blocking(move || (engines.start(game), slot)).await {
                    Ok((Ok(engine), slot)) => entry.seat_engine(engine, slot),
                    Ok((Err(e), _)) => entry.engine_failed(&e.to_string()),
                    Err(e) => entry.engine_failed(&e.to_string()),
                }
            }
            None => entry.tell(Notice::EnginesBusy),
        }
    }
    super::session::record_game(state, account, game, &entry.id, opponent).await;
    computer_moves(&entry).await;
    Ok((entry, side, token))
}

/// `POST /api/games`.
pub async fn api_create(
    State(state): State<AppState>,
    client: Client,
    req: Req,
    Json(request): Json<CreateRequest>,
) -> Response {
    match create(&state, client, &request, req.account.as_ref()).await {
        Ok((entry, side, token)) => {
            let body = Created {
                id: entry.id.clone(),
                url: table_href(&entry.id),
                token: token.clone(),
                side: side.word(),
            };
            with_cookie(
                (StatusCode::CREATED, Json(body)).into_response(),
                &entry.id,
                &token,
            )
        }
        Err(e) => e.response(),
    }
}

/// `POST /api/games/{id}/join` → `{"token", "side"}`; a third player gets 409 and watches.
pub async fn api_join(
    State(state): State<AppState>,
    client: Client,
    Path(id): Path<String>,
) -> Response {
    #[derive(Serialize)]
    struct Joined {
        token: String,
        side: &'static str,
    }
    match state.lobby().join_by(&id, client.0) {
        Ok((entry, side, token)) => with_cookie(
            Json(Joined {
                token: token.clone(),
                side: side.word(),
            })
            .into_response(),
            &entry.id,
            &token,
        ),
        Err(e) => lobby_refusal(&e),
    }
}

/// `POST /api/games/{id}/moves` with `{"token", "move"}`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MoveRequest {
    /// The seat's token; the cookie's when missing.
    #[serde(default)]
    pub token: Option<String>,
    /// A move (`D4`, `pass`, `e2e4`, `P*5e`) or an action (`resign`, `undo`, `draw`,
    /// `dead D4`, `agree`, `resume`, `declare`).
    #[serde(rename = "move")]
    pub play: String,
}

/// What `POST …/moves` answers: the new state, the computer's reply if any.
#[derive(Debug, Serialize)]
struct Moved {
    #[serde(flatten)]
    state: GameState,
    reply: Option<String>,
}

/// Does an action for the holder of `token`, then lets the computer answer.
async fn act(
    entry: &Arc<Entry>,
    token: &str,
    text: &str,
) -> Result<(Side, Option<String>), ActError> {
    if text.len() > 64 {
        return Err(ActError::Refused(crate::play::table::Refused::Illegal {
            zh: "这不是一步棋：太长了。".into(),
            en: "That is not a move: it is too long.".into(),
        }));
    }
    let side = entry.act(token, &Action::parse(text))?;
    let reply = computer_moves(entry).await.pop();
    Ok((side, reply))
}

fn act_refusal(e: &ActError) -> Response {
    match e {
        ActError::NotAPlayer => refusal(StatusCode::FORBIDDEN, e),
        ActError::Moved => refusal(StatusCode::CONFLICT, e),
        ActError::Refused(_) => refusal(StatusCode::UNPROCESSABLE_ENTITY, e),
    }
}

/// `POST /api/games/{id}/moves`.
pub async fn api_move(
    State(state): State<AppState>,
    client: Client,
    Path(id): Path<String>,
    headers: HeaderMap,
    Json(request): Json<MoveRequest>,
) -> Response {
    let entry = match look_up(&state, client, &id, &headers, request.token.as_deref()) {
        Ok(e) => e,
        Err(e) => return lobby_refusal(&e),
    };
    let Some(token) = request.token.or_else(|| cookie_token(&headers, &entry.id)) else {
        return refusal(StatusCode::FORBIDDEN, &LobbyError::NotAPlayer);
    };
    match act(&entry, &token, &request.play).await {
        Ok((side, reply)) => Json(Moved {
            state: game_state(&entry, Some(side)),
            reply,
        })
        .into_response(),
        Err(e) => act_refusal(&e),
    }
}

/// What `GET /api/games/{id}` reads: `?view=1` adds the board and side panel as HTML.
#[derive(Debug, Default, Deserialize)]
pub struct ViewQuery {
    /// Add `svg` and `side` (HTML) for the page's script.
    #[serde(default)]
    pub view: Option<String>,
    /// The piece picked up, or the stone whose liberties to show.
    #[serde(default)]
    pub sel: Option<String>,
    /// Show the position after this many moves.
    #[serde(default)]
    pub at: Option<usize>,
    /// `0` hides the hints.
    #[serde(default)]
    pub hints: Option<String>,
    /// `zh` or `en`.
    #[serde(default)]
    pub lang: Option<String>,
}

/// `GET /api/games/{id}`.
pub async fn api_state(
    State(state): State<AppState>,
    client: Client,
    Path(id): Path<String>,
    headers: HeaderMap,
    Query(query): Query<ViewQuery>,
) -> Response {
    #[derive(Serialize)]
    struct Viewed {
        #[serde(flatten)]
        state: GameState,
        #[serde(skip_serializing_if = "Option::is_none")]
        svg: Option<String>,
        #[serde(skip_serializing_if = "Option::is_none")]
        side: Option<String>,
    }
    let entry = match look_up(&state, client, &id, &headers, None) {
        Ok(e) => e,
        Err(e) => return lobby_refusal(&e),
    };
    let you = cookie_token(&headers, &entry.id).and_then(|t| entry.side_of(&t));
    let now = game_state(&entry, you);
    let (svg, side) = if query.view.is_some() {
        let lang = query
            .lang
            .as_deref()
            .and_then(Lang::parse)
            .unwrap_or(Lang::Zh);
        let view = View::read(&query, lang);
        match render_table(&entry, you, &view, None, None) {
            Ok((svg, side)) => (Some(svg), Some(side)),
            Err(e) => {
                eprintln!("qiyuan: template error in /api/games/{id}: {e}");
                return (StatusCode::INTERNAL_SERVER_ERROR, "template error").into_response();
            }
        }
    } else {
        (None, None)
    };
    Json(Viewed {
        state: now,
        svg,
        side,
    })
    .into_response()
}

/// `GET /api/games/{id}/events`: `text/event-stream`, a `state` event with the game's state
/// now and after every change; the stream closes after the game ends or after half an hour
/// (the browser reconnects).
pub async fn api_events(
    State(state): State<AppState>,
    client: Client,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Response {
    let entry = match look_up(&state, client, &id, &headers, None) {
        Ok(e) => e,
        Err(e) => return lobby_refusal(&e),
    };
    let receiver = entry.watch();
    let deadline = tokio::time::Instant::now() + STREAM_LIFETIME;
    // (entry, receiver, first event sent, ended)
    let stream = futures_util::stream::unfold(
        (entry, receiver, false, false),
        move |(entry, mut rx, started, ended)| async move {
            if ended {
                return None;
            }
            if started {
                loop {
                    let flag = entry.flag_at().map(tokio::time::Instant::from_std);
                    let wake =
                        flag.map_or(deadline, |f| (f + Duration::from_millis(1)).min(deadline));
                    match tokio::time::timeout_at(wake, rx.changed()).await {
                        Ok(Ok(())) => break,
                        Ok(Err(_)) => return None,
                        Err(_) if tokio::time::Instant::now() >= deadline => return None,
                        // A clock ran out: end the game (which wakes `rx`).
                        Err(_) => {
                            entry.check_time();
                        }
                    }
                }
            } else {
                rx.borrow_and_update();
            }
            let now = game_state(&entry, None);
            let over = now.over;
            let event = Event::default()
                .event("state")
                .id(now.version.to_string())
                .json_data(&now)
                .unwrap_or_else(|_| Event::default().comment("unserializable state"));
            Some((Ok::<Event, Infallible>(event), (entry, rx, true, over)))
        },
    );
    Sse::new(stream)
        .keep_alive(KeepAlive::new().interval(Duration::from_secs(15)))
        .into_response()
}

/// What a table page shows besides the game: the view asked for in the address.
struct View {
    lang: Lang,
    sel: Option<String>,
    at: Option<usize>,
    hints: bool,
}

impl View {
    fn read(q: &ViewQuery, lang: Lang) -> View {
        View {
            lang,
            sel: q.sel.clone().filter(|s| !s.is_empty() && s.len() <= 8),
            at: q.at,
            hints: q.hints.as_deref() != Some("0"),
        }
    }

    /// The address of the table with this view and `extra` query parts.
    fn href(&self, id: &str, extra: &[(&str, String)]) -> String {
        let mut q: Vec<String> = Vec::new();
        if !self.hints {
            q.push("hints=0".into());
        }
        for (k, v) in extra {
            q.push(format!("{k}={}", enc(v)));
        }
        if q.is_empty() {
            table_href(id)
        } else {
            format!("{}?{}", table_href(id), q.join("&"))
        }
    }
}

#[derive(Template)]
#[template(path = "play_side.html")]
struct SidePanel<'a> {
    ui: &'a Ui,
    title: String,
    players: Vec<PlayerLine>,
    clocks: Vec<ClockLine>,
    refused: String,
    notice: String,
    headline: String,
    result: String,
    explanation: String,
    waiting_code: String,
    counting: String,
    agreed: String,
    confirm: Option<Confirm>,
    action: String,
    here: String,
    buttons: Vec<Button>,
    can_type: bool,
    /// How a move is typed in this game: `for example D4`.
    example: String,
    join: bool,
    join_action: String,
    note: String,
    hints_href: String,
    hints_label: String,
    moves: Vec<MoveLink>,
    replay: Vec<ReplayLink>,
    at_text: String,
    downloads: Vec<Download>,
    share_href: String,
}

struct ClockLine {
    side: String,
    ms: u64,
    byoyomi: u64,
    running: bool,
    text: String,
}

/// `m:ss`, or `h:mm:ss`.
fn clock_text(ms: u64) -> String {
    let s = ms / 1000;
    if s >= 3600 {
        format!("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
    } else {
        format!("{}:{:02}", s / 60, s % 60)
    }
}

struct PlayerLine {
    side: String,
    who: String,
    to_move: bool,
}

struct Confirm {
    move_text: String,
    question: String,
}

struct Button {
    move_text: &'static str,
    label: String,
    primary: bool,
    confirm: String,
}

struct MoveLink {
    href: String,
    text: String,
    current: bool,
}

struct ReplayLink {
    href: String,
    rel: &'static str,
    title: String,
}

struct Download {
    href: String,
    title: String,
}

/// Draws the board and the side panel of a table for a viewer seated at `you`.
fn render_table(
    entry: &Entry,
    you: Option<Side>,
    view: &View,
    refused: Option<String>,
    confirm: Option<String>,
) -> Result<(String, String), askama::Error> {
    entry.check_time();
    let table = entry.table();
    let ui = Ui::get(view.lang);
    let lang = view.lang;
    let game = table.game();
    let id = entry.id.as_str();
    let moves = table.moves();
    let total = moves.len();
    let at = view.at.filter(|&n| n < total);
    let live = at.is_none();
    let phase = table.phase();
    let over = matches!(phase, Phase::Over { .. });
    let my_turn = live && you.is_some() && table.turn() == you;
    let counting = matches!(phase, Phase::Counting { .. });
    let clickable = live && you.is_some() && (my_turn || counting);
    let href = |c: Click| -> String {
        match c {
            Click::Play(m) => view.href(id, &[("confirm", m)]),
            Click::Select(Some(s)) => view.href(id, &[("sel", s)]),
            Click::Select(None) => view.href(id, &[]),
            Click::Choose { from, to } => view.href(id, &[("sel", from), ("to", to)]),
        }
    };
    let title = format!("{} · {}", game.name(lang), ui.play.title);
    let flipped = you == Some(Side::Second) && game != Game::Go;
    let svg = table.board(
        at.unwrap_or(total),
        &BoardAsk {
            selected: if live { view.sel.as_deref() } else { None },
            href: clickable.then_some(&href as &dyn Fn(Click) -> String),
            flipped,
            teach: view.hints,
            lang,
            title: &title,
        },
    );
    let seats = table.seats();
    let players = [Side::First, Side::Second]
        .into_iter()
        .map(|side| {
            let who = match &seats[side.index()] {
                Seat::Computer { level } => format!(
                    "{} ({})",
                    entry
                        .engine_name()
                        .unwrap_or_else(|| ui.play.computer.clone()),
                    fill(&ui.play.level_n, &[("n", &level.get().to_string())])
                ),
                Seat::Human { .. } if you == Some(side) => ui.play.you.clone(),
                Seat::Human { token: Some(_) } => ui.play.classmate_name.clone(),
                Seat::Human { token: None } => "…".to_string(),
            };
            PlayerLine {
                side: side_name(game, side, lang),
                who,
                to_move: table.turn() == Some(side),
            }
        })
        .collect();
    let waiting = seats
        .iter()
        .any(|s| matches!(s, Seat::Human { token: None }));
    let computer = seats.iter().any(|s| matches!(s, Seat::Computer { .. }));
    let mut headline = String::new();
    let mut result = String::new();
    let mut explanation = String::new();
    match phase {
        Phase::Over { text, .. } => {
            let t = if lang == Lang::Zh { &text[0] } else { &text[1] };
            let mut lines = t.splitn(2, '\n');
            result = lines.next().unwrap_or("").to_string();
            explanation = lines.next().unwrap_or("").to_string();
        }
        Phase::Counting { .. } => {}
        Phase::Play => {
            headline = match (you, table.turn()) {
                (Some(y), Some(t)) if y == t => ui.play.your_turn.clone(),
                (Some(_), Some(t)) if matches!(seats[t.index()], Seat::Computer { .. }) => {
                    ui.play.thinking.clone()
                }
                (Some(_), Some(_)) if waiting => String::new(),
                (Some(_), Some(_)) => ui.play.their_turn.clone(),
                (None, Some(t)) => fill(&ui.play.turn_of, &[("side", &side_name(game, t, lang))]),
                _ => String::new(),
            };
            if table.in_check() && game != Game::Go {
                headline = format!("{} {headline}", ui.play.check);
            }
            if you.is_none() && !waiting {
                headline = format!("{} {headline}", ui.play.watching);
            }
        }
    }
    let share_href = table_href(id);
    let waiting_code = if waiting && you.is_some() && !over {
        fill(&ui.play.waiting, &[("code", id)])
    } else {
        String::new()
    };
    let (counting_text, agreed) = match phase {
        Phase::Counting { agreed, .. } => {
            let sides: Vec<String> = [Side::First, Side::Second]
                .into_iter()
                .filter(|s| agreed[s.index()])
                .map(|s| side_name(game, s, lang))
                .collect();
            (
                if computer {
                    ui.play.counting_computer.clone()
                } else {
                    ui.play.counting.clone()
                },
                if sides.is_empty() {
                    String::new()
                } else {
                    fill(&ui.play.agreed_by, &[("sides", &sides.join("、"))])
                },
            )
        }
        _ => (String::new(), String::new()),
    };
    let mut buttons = Vec::new();
    if let (Some(y), true) = (you, live && !over) {
        let other_computer = matches!(seats[y.other().index()], Seat::Computer { .. });
        if counting {
            buttons.push(Button {
                move_text: "agree",
                label: ui.play.agree.clone(),
                primary: true,
                confirm: String::new(),
            });
            buttons.push(Button {
                move_text: "resume",
                label: ui.play.resume.clone(),
                primary: false,
                confirm: String::new(),
            });
        } else {
            if game == Game::Go && my_turn {
                buttons.push(Button {
                    move_text: "pass",
                    label: ui.play.pass.clone(),
                    primary: false,
                    confirm: String::new(),
                });
            }
            if other_computer && total > 0 {
                buttons.push(Button {
                    move_text: "undo",
                    label: ui.play.undo.clone(),
                    primary: false,
                    confirm: String::new(),
                });
            }
            if game != Game::Go && !other_computer && !waiting {
                let offered_to_me = table.draw_offer() == Some(y.other());
                buttons.push(Button {
                    move_text: "draw",
                    label: if offered_to_me {
                        ui.play.accept_draw.clone()
                    } else {
                        ui.play.offer_draw.clone()
                    },
                    primary: offered_to_me,
                    confirm: String::new(),
                });
            }
            if game == Game::Shogi && my_turn {
                buttons.push(Button {
                    move_text: "declare",
                    label: ui.play.declare.clone(),
                    primary: false,
                    confirm: String::new(),
                });
            }
        }
        buttons.push(Button {
            move_text: "resign",
            label: ui.play.resign.clone(),
            primary: false,
            confirm: format!("{}?", ui.play.resign),
        });
    }
    let mut notice = match (you, table.draw_offer()) {
        (Some(y), Some(by)) if by == y => ui.play.you_offered.clone(),
        (Some(_), Some(_)) => ui.play.draw_offered.clone(),
        _ => String::new(),
    };
    if let Some(n) = entry.notice() {
        let Both { zh, en } = notice_text(n);
        notice = format!("{} {notice}", if lang == Lang::Zh { zh } else { en });
    }
    let confirm = confirm.filter(|_| clickable).map(|m| {
        let dead = m.strip_prefix("dead ").map(str::to_string);
        Confirm {
            question: match &dead {
                Some(p) => fill(&ui.play.confirm_dead, &[("point", p)]),
                None => fill(&ui.play.confirm, &[("move", &m)]),
            },
            move_text: m,
        }
    });
    let notations = table.notations();
    let move_links = notations
        .iter()
        .enumerate()
        .map(|(i, n)| MoveLink {
            href: view.href(id, &[("at", (i + 1).to_string())]),
            text: n.clone(),
            current: at.map_or(i + 1 == total, |a| a == i + 1),
        })
        .collect();
    let mut replay = Vec::new();
    let mut at_text = String::new();
    if total > 0 {
        let shown = at.unwrap_or(total);
        let link = |n: usize| {
            if n >= total {
                view.href(id, &[])
            } else {
                view.href(id, &[("at", n.to_string())])
            }
        };
        replay.push(ReplayLink {
            href: link(0),
            rel: "first",
            title: format!("« {}", ui.play.first),
        });
        replay.push(ReplayLink {
            href: link(shown.saturating_sub(1)),
            rel: "prev",
            title: format!("◀ {}", ui.play.prev),
        });
        replay.push(ReplayLink {
            href: link((shown + 1).min(total)),
            rel: "next",
            title: format!("{} ▶", ui.play.next),
        });
        replay.push(ReplayLink {
            href: link(total),
            rel: "last",
            title: format!("{} »", ui.play.last),
        });
        if let Some(a) = at {
            at_text = fill(&ui.play.replay_at, &[("n", &a.to_string())]);
        }
    }
    let hints_href = if view.hints {
        format!("{}?hints=0", table_href(id))
    } else {
        table_href(id)
    };
    let clocks = entry
        .clock_state()
        .map(|c| {
            [Side::First, Side::Second]
                .into_iter()
                .map(|side| {
                    let ms = c.left[side.index()];
                    ClockLine {
                        side: side_name(game, side, lang),
                        ms,
                        byoyomi: c.byoyomi,
                        running: c.running == Some(side),
                        text: if ms == 0 && c.byoyomi > 0 {
                            format!("{} {}", ui.play.byoyomi, clock_text(c.byoyomi))
                        } else {
                            clock_text(ms)
                        },
                    }
                })
                .collect()
        })
        .unwrap_or_default();
    let side_html = SidePanel {
        ui,
        title,
        players,
        clocks,
        refused: refused.unwrap_or_default(),
        notice,
        headline,
        result,
        explanation,
        waiting_code,
        counting: counting_text,
        agreed,
        confirm,
        action: table_href(id),
        here: view.href(id, &[]),
        buttons,
        can_type: my_turn,
        example: fill(
            &ui.play.move_example,
            &[(
                "move",
                match game {
                    Game::Go => "D4, pass",
                    Game::Chess => "e4, Nf3, e7e8q",
                    Game::Shogi => "7g7f, P*5e, 8h2b+",
                },
            )],
        ),
        join: you.is_none() && waiting && !over,
        join_action: format!("{}/join", table_href(id)),
        note: if game == Game::Go && view.hints && live && !over {
            ui.play.atari_note.clone()
        } else {
            String::new()
        },
        hints_href,
        hints_label: if view.hints {
            ui.play.hints_off.clone()
        } else {
            ui.play.hints_on.clone()
        },
        moves: move_links,
        replay,
        at_text,
        downloads: record_formats(game)
            .iter()
            .map(|f| Download {
                href: format!("/api/games/{id}/record?format={}", f.extension()),
                title: fill(&ui.play.download, &[("format", f.as_str())]),
            })
            .collect(),
        share_href,
    }
    .render()?;
    Ok((svg, side_html))
}

#[derive(Template)]
#[template(path = "play_table.html")]
struct TablePage {
    chrome: Chrome,
    id: String,
    game: &'static str,
    game_name: &'static str,
    version: u64,
    seated: bool,
    at: String,
    hints: bool,
    board: String,
    side: String,
}

fn table_page(
    state: &AppState,
    req: &Req,
    entry: &Entry,
    you: Option<Side>,
    status: StatusCode,
    refused: Option<String>,
) -> Response {
    let snap = state.snapshot();
    let q = ViewQuery {
        sel: req.param("sel").map(String::from),
        at: req.param("at").and_then(|a| a.parse().ok()),
        hints: req.param("hints").map(String::from),
        ..Default::default()
    };
    let view = View::read(&q, req.lang);
    let confirm = req
        .param("confirm")
        .filter(|m| m.len() <= 64)
        .map(String::from);
    let game = entry.table().game();
    let rendered = render_table(entry, you, &view, refused, confirm);
    let html = rendered.and_then(|(board, side)| {
        TablePage {
            chrome: Chrome::new(
                req,
                &snap,
                format!("{} · {}", game.name(req.lang), req.ui().play.title),
            ),
            id: entry.id.clone(),
            game: game.slug(),
            game_name: game.name(req.lang),
            version: entry.version(),
            seated: you.is_some(),
            at: view.at.map(|a| a.to_string()).unwrap_or_default(),
            hints: view.hints,
            board,
            side,
        }
        .render()
    });
    respond(req, status, html)
}

fn missing_game(state: &AppState, req: &Req, e: &LobbyError) -> Response {
    with_retry_after(
        new_game_page(state, req, lobby_status(e), e.explain(req.lang)),
        e,
    )
}

/// `GET /play/{id}`.
pub async fn page(
    State(state): State<AppState>,
    client: Client,
    req: Req,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Response {
    let entry = match look_up(&state, client, &id, &headers, None) {
        Ok(e) => e,
        Err(e) => return missing_game(&state, &req, &e),
    };
    let you = cookie_token(&headers, &entry.id).and_then(|t| entry.side_of(&t));
    table_page(&state, &req, &entry, you, StatusCode::OK, None)
}

/// The form of a move: `move=D4`.
#[derive(Debug, Deserialize)]
pub struct MoveForm {
    /// The move or action.
    #[serde(rename = "move", default)]
    pub play: String,
}

/// `POST /play/{id}`: a move or action from the page's forms; back to the page.
pub async fn act_form(
    State(state): State<AppState>,
    client: Client,
    req: Req,
    Path(id): Path<String>,
    headers: HeaderMap,
    Form(form): Form<MoveForm>,
) -> Response {
    let entry = match look_up(&state, client, &id, &headers, None) {
        Ok(e) => e,
        Err(e) => return missing_game(&state, &req, &e),
    };
    let token = cookie_token(&headers, &entry.id).unwrap_or_default();
    match act(&entry, &token, &form.play).await {
        Ok(_) => Redirect::to(&table_href(&entry.id)).into_response(),
        Err(e) => {
            let you = entry.side_of(&token);
            let status = match e {
                ActError::NotAPlayer => StatusCode::FORBIDDEN,
                ActError::Moved => StatusCode::CONFLICT,
                ActError::Refused(_) => StatusCode::UNPROCESSABLE_ENTITY,
            };
            table_page(&state, &req, &entry, you, status, Some(e.explain(req.lang)))
        }
    }
}

/// `POST /play/{id}/join`: take the free seat, then the page.
pub async fn join_form(
    State(state): State<AppState>,
    client: Client,
    req: Req,
    Path(id): Path<String>,
) -> Response {
    join_page(&state, client, &req, &id)
}

fn join_page(state: &AppState, client: Client, req: &Req, id: &str) -> Response {
    match state.lobby().join_by(id, client.0) {
        Ok((entry, _, token)) if req.account.is_some() => {
            let (state, account, code) = (state.clone(), req.account.clone(), entry.id.clone());
            let game = entry.table().game();
            tokio::spawn(async move {
                super::session::record_game(
                    &state,
                    account.as_ref(),
                    game,
                    &code,
                    "classmate".into(),
                )
                .await
            });
            with_cookie(
                Redirect::to(&table_href(&entry.id)).into_response(),
                &entry.id,
                &token,
            )
        }
        Ok((entry, _, token)) => with_cookie(
            Redirect::to(&table_href(&entry.id)).into_response(),
            &entry.id,
            &token,
        ),
        Err(LobbyError::Full) => match state.lobby().get(id) {
            Ok(entry) => Redirect::to(&table_href(&entry.id)).into_response(),
            Err(e) => missing_game(state, req, &e),
        },
        Err(e) => missing_game(state, req, &e),
    }
}

/// The form of `POST /play/join`: `code=abc123`.
#[derive(Debug, Deserialize)]
pub struct JoinForm {
    /// The game's code.
    #[serde(default)]
    pub code: String,
}

/// `POST /play/join`: join a game by its code.
pub async fn join_code(
    State(state): State<AppState>,
    client: Client,
    req: Req,
    Form(form): Form<JoinForm>,
) -> Response {
    let code: String = form.code.trim().chars().take(20).collect();
    join_page(&state, client, &req, &code)
}

/// `POST /play`: a new game from the form; to its page.
pub async fn create_form(
    State(state): State<AppState>,
    client: Client,
    req: Req,
    Form(form): Form<CreateRequest>,
) -> Response {
    match create(&state, client, &form, req.account.as_ref()).await {
        Ok((entry, _, token)) => with_cookie(
            Redirect::to(&table_href(&entry.id)).into_response(),
            &entry.id,
            &token,
        ),
        Err(e) => {
            let page = new_game_page(&state, &req, e.status(), e.explain(req.lang));
            match &e {
                NotCreated::Lobby(l) => with_retry_after(page, l),
                NotCreated::Bad(_) => page,
            }
        }
    }
}

struct NewForm {
    game: &'static str,
    name: &'static str,
    /// The installed engine's program, if there is one.
    engine: String,
    first: String,
    second: String,
}

#[derive(Template)]
#[template(path = "play_new.html")]
struct NewGamePage {
    chrome: Chrome,
    error: String,
    forms: Vec<NewForm>,
    levels: Vec<String>,
    go_handicaps: Vec<(u8, String)>,
    shogi_handicaps: Vec<(&'static str, String)>,
}

fn new_game_page(state: &AppState, req: &Req, status: StatusCode, error: String) -> Response {
    let snap = &state.snapshot();
    let ui = req.ui();
    let lang = req.lang;
    let page = NewGamePage {
        chrome: Chrome::new(req, snap, ui.play.title.clone()),
        error,
        forms: Game::ALL
            .into_iter()
            .map(|g| NewForm {
                game: g.slug(),
                name: g.name(lang),
                engine: state
                    .engines()
                    .command(g)
                    .map(|c| c.to_string())
                    .unwrap_or_default(),
                first: side_name(g, Side::First, lang),
                second: side_name(g, Side::Second, lang),
            })
            .collect(),
        levels: ui.play.level_names.clone(),
        go_handicaps: (2..=9)
            .map(|n| (n, fill(&ui.play.stones, &[("n", &n.to_string())])))
            .collect(),
        shogi_handicaps: ShogiHandicap::ALL
            .into_iter()
            .map(|h| (h.slug(), h.name(lang)))
            .collect(),
    };
    respond(req, status, page.render())
}

/// `GET /play`: start a game, join one, or find your games.
pub async fn new_page(State(state): State<AppState>, req: Req) -> Response {
    new_game_page(&state, &req, StatusCode::OK, String::new())
}

/// `YYYY-MM-DD` of a time (UTC), for records.
fn civil_date(t: std::time::SystemTime) -> String {
    let days = t
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs() / 86_400)
        .unwrap_or(0) as i64;
    // Howard Hinnant's days-to-civil.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}-{m:02}-{d:02}")
}

/// The record of a game as text in `format`, with its players, date and result.
fn record_text(entry: &Entry, format: Format) -> Result<String, RecordError> {
    let table = entry.table();
    let engine = entry.engine_name();
    let names: Vec<String> = table
        .seats()
        .iter()
        .map(|s| match s {
            Seat::Computer { level } => format!(
                "{} (level {})",
                engine.clone().unwrap_or_else(|| "qiyuan".to_string()),
                level.get()
            ),
            Seat::Human { .. } => String::new(),
        })
        .collect();
    let finish = match table.phase() {
        Phase::Over { finish, .. } => Some(*finish),
        _ => None,
    };
    let record = Record::from_game(
        table.start().clone(),
        table.moves(),
        [&names[0], &names[1]],
        Some(&civil_date(entry.created)),
        finish,
    )?;
    record::write(&record, format)
}

/// The formats a game downloads in: SGF (Go), PGN (chess), KIF, KI2 and CSA (shogi).
/// A record's text as a download named `file` (ASCII), typed by its format.
pub(crate) fn download(text: String, format: Format, file: &str) -> Response {
    let mime = match format {
        Format::Sgf => "application/x-go-sgf; charset=utf-8",
        Format::Pgn => "application/x-chess-pgn; charset=utf-8",
        _ => "text/plain; charset=utf-8",
    };
    let mut response = text.into_response();
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_static(mime));
    if let Ok(v) = HeaderValue::from_str(&format!("attachment; filename=\"{file}\"")) {
        headers.insert(header::CONTENT_DISPOSITION, v);
    }
    response
}

/// The formats a game's records download in: SGF, PGN, or KIF, KI2 and CSA.
pub(crate) fn record_formats(game: Game) -> &'static [Format] {
    match game {
        Game::Go => &[Format::Sgf],
        Game::Chess => &[Format::Pgn],
        Game::Shogi => &[Format::Kif, Format::Ki2, Format::Csa],
    }
}

/// `?format=kif` of the record's address.
#[derive(Debug, Deserialize)]
pub struct RecordQuery {
    /// `sgf`, `pgn`, `kif`, `ki2` or `csa`; the game's usual one when missing.
    #[serde(default)]
    pub format: Option<String>,
}

/// `GET /api/games/{id}/record`: the game so far (or finished) as SGF, PGN or KIF (or KI2,
/// CSA with `?format=`), UTF-8, as a download.
pub async fn api_record(
    State(state): State<AppState>,
    client: Client,
    Path(id): Path<String>,
    headers: HeaderMap,
    Query(query): Query<RecordQuery>,
) -> Response {
    let entry = match look_up(&state, client, &id, &headers, None) {
        Ok(e) => e,
        Err(e) => return lobby_refusal(&e),
    };
    let game = entry.table().game();
    let format = match query.format.as_deref() {
        None => Format::of_game(game),
        Some(f) => match record_formats(game)
            .iter()
            .find(|x| x.extension() == f.to_ascii_lowercase())
        {
            Some(x) => *x,
            None => {
                return refusal(
                    StatusCode::UNPROCESSABLE_ENTITY,
                    &BadRequest::Format(f.chars().take(10).collect()),
                )
            }
        },
    };
    match record_text(&entry, format) {
        Ok(text) => {
            let file = format!("qiyuan-{}-{}.{}", game.slug(), entry.id, format.extension());
            download(text, format, &file)
        }
        Err(e) => {
            eprintln!("qiyuan: the record of game {id} cannot be written: {e}");
            (StatusCode::INTERNAL_SERVER_ERROR, e.to_string()).into_response()
        }
    }
}
