//! The games' JSON API (docs/api.md): creating, joining, moving, the state and its events.

use super::table::{render_table, View, ViewQuery};
use super::*;

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
    pub notice: Option<Text>,
    /// Once over: the code of the rematch a player opened from this table (再来一盘).
    pub rematch: Option<String>,
}

impl GameState {
    /// Whether nothing more will change: over, and, between two classmates, a rematch
    /// opened (until then the other player may still be offered one).
    fn settled(&self) -> bool {
        self.over && (self.rematch.is_some() || self.seats.iter().any(|s| s.kind == "computer"))
    }
}

/// The end of a game in the state.
#[derive(Debug, Serialize)]
pub struct ResultState {
    /// `first`, `second`, or `null` for a draw.
    pub winner: Option<&'static str>,
    /// Why it ended, with the margin of a count.
    pub reason: Reason,
    /// The ending explained.
    pub text: Text,
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
                text: text.clone(),
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
        rematch: entry.rematch(),
    }
}

fn game_state(entry: &Entry, you: Option<Side>) -> GameState {
    entry.check_time();
    let table = entry.table();
    state_of(entry, &**table, you)
}

/// `POST /api/games`.
pub async fn api_create(
    State(state): State<AppState>,
    client: Client,
    req: Req,
    Json(request): Json<CreateRequest>,
) -> Result<Response, NotCreated> {
    let (entry, side, token) = create(&state, client, &request, req.account.as_ref()).await?;
    let body = Created {
        id: entry.id.clone(),
        url: table_href(&entry.id),
        token: token.clone(),
        side: side.word(),
    };
    Ok(with_cookie(
        (StatusCode::CREATED, Json(body)).into_response(),
        &entry.id,
        &token,
    ))
}

/// `POST /api/games/{id}/join` → `{"token", "side"}`; a third player gets 409 and watches.
pub async fn api_join(
    State(state): State<AppState>,
    client: Client,
    Path(id): Path<String>,
) -> Result<Response, LobbyError> {
    #[derive(Serialize)]
    struct Joined {
        token: String,
        side: &'static str,
    }
    let (entry, side, token) = state.lobby().join_by(&id, client.0)?;
    Ok(with_cookie(
        Json(Joined {
            token: token.clone(),
            side: side.word(),
        })
        .into_response(),
        &entry.id,
        &token,
    ))
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

/// `POST /api/games/{id}/moves`.
pub async fn api_move(
    State(state): State<AppState>,
    client: Client,
    Path(id): Path<String>,
    headers: HeaderMap,
    Json(request): Json<MoveRequest>,
) -> Result<impl IntoResponse, ApiError> {
    let entry = look_up(&state, client, &id, &headers, request.token.as_deref())?;
    let token = request
        .token
        .or_else(|| cookie_token(&headers, &entry.id))
        .ok_or(LobbyError::NotAPlayer)?;
    let (side, reply) = act(&entry, &token, &request.play).await?;
    Ok(Json(Moved {
        state: game_state(&entry, Some(side)),
        reply,
    }))
}

/// `GET /api/games/{id}`.
pub async fn api_state(
    State(state): State<AppState>,
    client: Client,
    Path(id): Path<String>,
    headers: HeaderMap,
    Query(query): Query<ViewQuery>,
) -> Result<impl IntoResponse, ApiError> {
    #[derive(Serialize)]
    struct Viewed {
        #[serde(flatten)]
        state: GameState,
        #[serde(skip_serializing_if = "Option::is_none")]
        svg: Option<String>,
        #[serde(skip_serializing_if = "Option::is_none")]
        side: Option<String>,
    }
    let entry = look_up(&state, client, &id, &headers, None)?;
    let you = cookie_token(&headers, &entry.id).and_then(|t| entry.side_of(&t));
    let now = game_state(&entry, you);
    let (svg, side) = if query.view.is_some() {
        let lang = query
            .lang
            .as_deref()
            .and_then(Lang::parse)
            .unwrap_or(Lang::Zh);
        let view = View::read(&query, lang, super::super::kit::site_host(&headers));
        let (svg, side) = render_table(&entry, you, &view, None, None)
            .map_err(|error| ApiError::Template { id, error })?;
        (Some(svg), Some(side))
    } else {
        (None, None)
    };
    Ok(Json(Viewed {
        state: now,
        svg,
        side,
    }))
}

/// `GET /api/games/{id}/events`: `text/event-stream`, a `state` event with the game's state
/// now and after every change; the stream closes after the game ends or after half an hour
/// (the browser reconnects).
pub async fn api_events(
    State(state): State<AppState>,
    client: Client,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Response, LobbyError> {
    let entry = look_up(&state, client, &id, &headers, None)?;
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
            let over = now.settled();
            let event = Event::default()
                .event("state")
                .id(now.version.to_string())
                .json_data(&now)
                .unwrap_or_else(|_| Event::default().comment("unserializable state"));
            Some((Ok::<Event, Infallible>(event), (entry, rx, true, over)))
        },
    );
    Ok(Sse::new(stream)
        .keep_alive(KeepAlive::new().interval(Duration::from_secs(15)))
        .into_response())
}
