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
use crate::base::{ClockStyle, StartFieldError, Text};
use crate::content::{Action as Click, Game};
use crate::lang::Lang;
use crate::play::clock::{ClockState, TimeControl};
use crate::play::lobby::{ActError, Entry, LobbyError, NewGame, Notice, Opponent};
use crate::play::table::{Action, BoardAsk, Match, Phase, Seat};
use crate::play::{Level, Reason, Side};
use crate::record::{self, Format, Record, RecordError};
use crate::rules::Explain;
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

mod api;
mod export;
mod rematch;
mod share;
mod table;

use crate::play::turns::computer_moves;
use api::{api_create, api_events, api_join, api_move, api_state, GameState};
use export::api_record;
pub(crate) use export::{download, record_formats};
use table::{act_form, create_form, join_code, join_form, new_page, page};

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
        .route(
            "/play/{id}/rematch",
            post(rematch::rematch_form).layer(small()),
        )
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
        let slugs: Vec<&str> = Game::ALL.iter().map(|g| g.slug()).collect();
        match self {
            BadRequest::Game(g) if zh => format!("没有“{}”这种棋：请选 {}。", cut(g), slugs.join("、")),
            BadRequest::Game(g) => format!("There is no game “{}”: choose {}.", cut(g), slugs.join(", ")),
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
        let fields = |name: &str| match name {
            "size" => blank(&self.size),
            "rules" => blank(&self.rules),
            "handicap" => blank(&self.handicap),
            "komi" => blank(&self.komi),
            "fen" => blank(&self.fen),
            "sfen" => blank(&self.sfen),
            _ => None,
        };
        let start = (game.kind().start_from_fields)(&fields).map_err(|e| match e {
            StartFieldError::Number(field, v) => BadRequest::Number(field, v),
            StartFieldError::Rules(r) => BadRequest::Rules(r),
            StartFieldError::Handicap(h) => BadRequest::ShogiHandicap(h),
        })?;
        let side = match blank(&self.color).unwrap_or("first") {
            "first" | "sente" => Side::First,
            "second" | "gote" => Side::Second,
            word @ ("black" | "white") => game
                .kind()
                .side_of_colour(word)
                .ok_or_else(|| BadRequest::Color(word.into()))?,
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
            byoyomi: if game.kind().clock == ClockStyle::Increment {
                Duration::ZERO
            } else {
                byoyomi
            },
            increment: if game.kind().clock == ClockStyle::Increment {
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

/// A refusal: `{"reason": {"zh", "en"}}` with its status.
fn refusal(status: StatusCode, e: &impl Explain) -> Response {
    #[derive(Serialize)]
    struct Reason {
        reason: Text,
    }
    (
        status,
        Json(Reason {
            reason: Text::from_fn(|l| e.explain(l)),
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

/// A lobby's refusal in the JSON API: `{"reason"}` with its status, and `Retry-After` when
/// the client asks too much.
impl IntoResponse for LobbyError {
    fn into_response(self) -> Response {
        with_retry_after(refusal(lobby_status(&self), &self), &self)
    }
}

/// A refused action in the JSON API: `{"reason"}` with 403, 409 or 422.
impl IntoResponse for ActError {
    fn into_response(self) -> Response {
        refusal(act_status(&self), &self)
    }
}

/// A request that cannot be read, in the JSON API: `{"reason"}` with 422.
impl IntoResponse for BadRequest {
    fn into_response(self) -> Response {
        refusal(StatusCode::UNPROCESSABLE_ENTITY, &self)
    }
}

/// Why a request of the games' JSON API failed; each answers as its cause does.
pub(super) enum ApiError {
    /// The lobby refused: no such game, full, too many (see [`LobbyError`]).
    Lobby(LobbyError),
    /// The action was refused.
    Act(ActError),
    /// The request cannot be read.
    Bad(BadRequest),
    /// The table's HTML for `?view=1` of game `id` failed: 500 `template error` (and a line
    /// in the log).
    Template {
        /// The game's code, for the log.
        id: String,
        /// What failed.
        error: askama::Error,
    },
    /// The record of game `id` cannot be written: 500 with the reason (and a line in the log).
    Record {
        /// The game's code, for the log.
        id: String,
        /// What failed.
        error: RecordError,
    },
}

impl From<LobbyError> for ApiError {
    fn from(e: LobbyError) -> ApiError {
        ApiError::Lobby(e)
    }
}

impl From<ActError> for ApiError {
    fn from(e: ActError) -> ApiError {
        ApiError::Act(e)
    }
}

impl From<BadRequest> for ApiError {
    fn from(e: BadRequest) -> ApiError {
        ApiError::Bad(e)
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        match self {
            ApiError::Lobby(e) => e.into_response(),
            ApiError::Act(e) => e.into_response(),
            ApiError::Bad(e) => e.into_response(),
            ApiError::Template { id, error } => {
                eprintln!("qiyuan: template error in /api/games/{id}: {error}");
                (StatusCode::INTERNAL_SERVER_ERROR, "template error").into_response()
            }
            ApiError::Record { id, error } => {
                eprintln!("qiyuan: the record of game {id} cannot be written: {error}");
                (StatusCode::INTERNAL_SERVER_ERROR, error.to_string()).into_response()
            }
        }
    }
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
fn notice_text(notice: Notice) -> Text {
    let text = |lang| {
        let play = &Ui::get(lang).play;
        match notice {
            Notice::EngineFailed => play.engine_failed.clone(),
            Notice::EnginesBusy => play.engines_busy.clone(),
        }
    };
    Text {
        zh: text(Lang::Zh),
        en: text(Lang::En),
    }
}

/// A side's name in a game: 黑方, White, 先手 ☗ (the names of [`side_names`], with the
/// shogi marks).
fn side_name(game: Game, side: Side, lang: Lang) -> String {
    game.kind().side_label(side, lang)
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

/// Why a game was not created (or found, or joined).
enum NotCreated {
    /// The request cannot be read.
    Bad(BadRequest),
    /// The lobby refused.
    Lobby(LobbyError),
}

impl From<LobbyError> for NotCreated {
    fn from(e: LobbyError) -> NotCreated {
        NotCreated::Lobby(e)
    }
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
}

/// In the JSON API: the refusal of its cause.
impl IntoResponse for NotCreated {
    fn into_response(self) -> Response {
        match self {
            NotCreated::Bad(e) => e.into_response(),
            NotCreated::Lobby(e) => e.into_response(),
        }
    }
}

/// A game not created, found or joined, told on the new-game page (`/play`) in the
/// asker's language, with its status (and `Retry-After` when the client asks too much).
pub(super) struct NoTable {
    state: AppState,
    /// Boxed: errors stay small.
    req: Box<Req>,
    why: NotCreated,
}

impl NoTable {
    fn new(state: &AppState, req: &Req, why: impl Into<NotCreated>) -> NoTable {
        NoTable {
            state: state.clone(),
            req: Box::new(req.clone()),
            why: why.into(),
        }
    }
}

impl IntoResponse for NoTable {
    fn into_response(self) -> Response {
        let NoTable { state, req, why } = self;
        let page = table::new_game_page(&state, &req, why.status(), why.explain(req.lang));
        match &why {
            NotCreated::Lobby(l) => with_retry_after(page, l),
            NotCreated::Bad(_) => page,
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
    let installed = match blank(&request.engine).unwrap_or("builtin") {
        "builtin" => false,
        "installed" => true,
        other => return Err(NotCreated::Bad(BadRequest::Engine(other.into()))),
    };
    open_new(state, client, new, installed, account).await
}

/// Opens the table of `new` for `client` (against the installed engine if `installed` and
/// the computer plays), as [`create`] does.
async fn open_new(
    state: &AppState,
    client: Client,
    new: NewGame,
    installed: bool,
    account: Option<&crate::class::Account>,
) -> Result<(Arc<Entry>, Side, String), NotCreated> {
    let game = new.start.game();
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
        return Err(ActError::Refused(crate::play::table::Refused::Illegal(
            crate::base::Text::new(
                "这不是一步棋：太长了。",
                "That is not a move: it is too long.",
            ),
        )));
    }
    let side = entry.act(token, &Action::parse(text))?;
    let reply = computer_moves(entry).await.pop();
    Ok((side, reply))
}

/// The status of a refused action: 403, 409 or 422.
fn act_status(e: &ActError) -> StatusCode {
    match e {
        ActError::NotAPlayer => StatusCode::FORBIDDEN,
        ActError::Moved => StatusCode::CONFLICT,
        ActError::Refused(_) => StatusCode::UNPROCESSABLE_ENTITY,
    }
}
