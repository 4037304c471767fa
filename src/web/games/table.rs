//! The `/play` pages: a table with its board, clocks and forms, joining, a new game.

use super::export::record_formats;
use super::*;

/// What a table page shows besides the game: the view asked for in the address.
pub(super) struct View {
    lang: Lang,
    /// The host the page was asked from (the table's full address is shared from it).
    host: String,
    sel: Option<String>,
    /// The square of a move to choose (a promotion), with `sel`.
    to: Option<String>,
    at: Option<usize>,
    hints: bool,
}

impl View {
    pub(super) fn read(q: &ViewQuery, lang: Lang, host: String) -> View {
        View {
            lang,
            host,
            sel: q.sel.clone().filter(|s| !s.is_empty() && s.len() <= 8),
            to: q.to.clone().filter(|s| !s.is_empty() && s.len() <= 8),
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
    /// A promotion to choose: each move's label, canonical name and picture (SVG or empty),
    /// and the question.
    choices: Vec<(String, String, String)>,
    choose: String,
    /// Once the game is over, for a player: the rematch form's address, or the address of
    /// the rematch already opened from this table.
    rematch_action: String,
    rematch_href: String,
    /// While waiting for a classmate: the table's code, full address and its QR code (SVG).
    share_code: String,
    share_address: String,
    share_qr: String,
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
    /// Whether moves are numbered in pairs (`1. e4 e5`), and whether the second side moved
    /// first (the list starts in the second column).
    pairs: bool,
    second_first: bool,
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
    /// The move's number where the game numbers it (`3.`, or `3…` for a first move by the
    /// second side, in games numbered in pairs); empty where the list's own number serves.
    number: String,
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
pub(super) fn render_table(
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
    let flipped = you == Some(Side::Second) && game.kind().flips_for_second;
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
            let t = text.get(lang);
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
            if let Some(y) = you.filter(|_| game.kind().passes) {
                let last_by_you = table.turn() != Some(y);
                let said = passes_said(
                    table.moves(),
                    table.notations(),
                    y,
                    last_by_you,
                    seats,
                    lang,
                );
                if !said.is_empty() {
                    let gap = if lang == Lang::Zh { "" } else { " " };
                    headline = format!("{said}{gap}{headline}");
                }
            }
            // Chinese sentences follow each other without a space.
            let gap = if lang == Lang::Zh { "" } else { " " };
            if table.in_check() && game.kind().shows_check {
                headline = format!("{}{gap}{headline}", ui.play.check);
            }
            if you.is_none() && !waiting {
                headline = format!("{}{gap}{headline}", ui.play.watching);
            }
        }
    }
    let (choose, choices) = match (&view.sel, &view.to) {
        (Some(from), Some(to)) if my_turn => {
            let (key, choices) = table.choices(from, to, lang);
            let choices: Vec<(String, String, String)> = choices
                .into_iter()
                .map(|(label, name, picture)| (label, name, picture.unwrap_or_default()))
                .collect();
            (ui.key(key).unwrap_or(key).to_string(), choices)
        }
        _ => (String::new(), Vec::new()),
    };
    let share_href = table_href(id);
    let share_address = super::share::address(&view.host, id);
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
            if game.kind().passes && my_turn {
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
            if game.kind().draw_offers && !other_computer && !waiting {
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
            if game.kind().declares && my_turn {
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
            confirm: ui.polish.resign_confirm.clone(),
        });
    }
    let mut notice = match (you, table.draw_offer()) {
        (Some(y), Some(by)) if by == y => ui.play.you_offered.clone(),
        (Some(_), Some(_)) => ui.play.draw_offered.clone(),
        _ => String::new(),
    };
    if let Some(n) = entry.notice() {
        let Text { zh, en } = notice_text(n);
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
    let pairs = game.kind().numbers_in_pairs;
    let second_first = pairs
        && crate::base::AnyPosition::from_start(table.start())
            .is_ok_and(|p| p.turn() == Side::Second);
    let move_links = notations
        .iter()
        .enumerate()
        .map(|(i, n)| MoveLink {
            href: view.href(id, &[("at", (i + 1).to_string())]),
            number: pair_number(pairs, second_first, i),
            // A pass reads in the page's language (停一手), not as its canonical name.
            text: if moves[i] == "pass" {
                ui.play.pass.clone()
            } else {
                n.clone()
            },
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
        choices,
        choose,
        rematch_href: match entry.rematch() {
            Some(code) if over && you.is_some() => table_href(&code),
            _ => String::new(),
        },
        rematch_action: if over && you.is_some() && entry.rematch().is_none() {
            format!("{}/rematch", table_href(id))
        } else {
            String::new()
        },
        share_code: if waiting_code.is_empty() {
            String::new()
        } else {
            id.to_string()
        },
        share_qr: if waiting_code.is_empty() {
            String::new()
        } else {
            super::share::qr_svg(&share_address, &share_address)
        },
        share_address,
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
            &[("move", game.kind().move_examples)],
        ),
        join: you.is_none() && waiting && !over,
        join_action: format!("{}/join", table_href(id)),
        note: if game.kind().atari_hints && view.hints && live && !over {
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
        pairs,
        second_first,
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
    /// Moves played (the script shows the next ones happen).
    moves: usize,
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
        to: req.param("to").map(String::from),
        at: req.param("at").and_then(|a| a.parse().ok()),
        hints: req.param("hints").map(String::from),
        ..Default::default()
    };
    let view = View::read(&q, req.lang, req.host.clone());
    let confirm = req
        .param("confirm")
        .filter(|m| m.len() <= 64)
        .map(String::from);
    let (game, moves) = {
        let table = entry.table();
        (table.game(), table.moves().len())
    };
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
            moves,
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

/// `GET /play/{id}`.
pub async fn page(
    State(state): State<AppState>,
    client: Client,
    req: Req,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Response, NoTable> {
    let entry =
        look_up(&state, client, &id, &headers, None).map_err(|e| NoTable::new(&state, &req, e))?;
    let you = cookie_token(&headers, &entry.id).and_then(|t| entry.side_of(&t));
    Ok(table_page(&state, &req, &entry, you, StatusCode::OK, None))
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
) -> Result<Response, NoTable> {
    let entry =
        look_up(&state, client, &id, &headers, None).map_err(|e| NoTable::new(&state, &req, e))?;
    let token = cookie_token(&headers, &entry.id).unwrap_or_default();
    Ok(match act(&entry, &token, &form.play).await {
        Ok(_) => Redirect::to(&table_href(&entry.id)).into_response(),
        // The table again, the refusal on it.
        Err(e) => {
            let you = entry.side_of(&token);
            let status = act_status(&e);
            table_page(&state, &req, &entry, you, status, Some(e.explain(req.lang)))
        }
    })
}

/// `POST /play/{id}/join`: take the free seat, then the page.
pub async fn join_form(
    State(state): State<AppState>,
    client: Client,
    req: Req,
    Path(id): Path<String>,
) -> Result<Response, NoTable> {
    join_page(&state, client, &req, &id)
}

fn join_page(state: &AppState, client: Client, req: &Req, id: &str) -> Result<Response, NoTable> {
    let refused = |e| NoTable::new(state, req, e);
    match state.lobby().join_by(id, client.0) {
        Ok((entry, _, token)) if req.account.is_some() => {
            let (state, account, code) = (state.clone(), req.account.clone(), entry.id.clone());
            let game = entry.table().game();
            tokio::spawn(async move {
                crate::web::session::record_game(
                    &state,
                    account.as_ref(),
                    game,
                    &code,
                    "classmate".into(),
                )
                .await
            });
            Ok(with_cookie(
                Redirect::to(&table_href(&entry.id)).into_response(),
                &entry.id,
                &token,
            ))
        }
        Ok((entry, _, token)) => Ok(with_cookie(
            Redirect::to(&table_href(&entry.id)).into_response(),
            &entry.id,
            &token,
        )),
        // A third player watches.
        Err(LobbyError::Full) => state
            .lobby()
            .get(id)
            .map(|entry| Redirect::to(&table_href(&entry.id)).into_response())
            .map_err(refused),
        Err(e) => Err(refused(e)),
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
) -> Result<Response, NoTable> {
    let code: String = form.code.trim().chars().take(20).collect();
    join_page(&state, client, &req, &code)
}

/// `POST /play`: a new game from the form; to its page.
pub async fn create_form(
    State(state): State<AppState>,
    client: Client,
    req: Req,
    Form(form): Form<CreateRequest>,
) -> Result<Response, NoTable> {
    let (entry, _, token) = create(&state, client, &form, req.account.as_ref())
        .await
        .map_err(|e| NoTable::new(&state, &req, e))?;
    Ok(with_cookie(
        Redirect::to(&table_href(&entry.id)).into_response(),
        &entry.id,
        &token,
    ))
}

struct NewForm {
    game: &'static str,
    name: &'static str,
    /// The installed engine's program, if there is one.
    engine: String,
    first: String,
    second: String,
    /// The clock adds an increment after each move (else byo-yomi periods).
    increment: bool,
    /// The fields that set where the game starts.
    fields: Vec<FormField>,
}

/// A field of the new-game form that sets where a game starts.
struct FormField {
    name: &'static str,
    label: &'static str,
    /// Each a value and its label, the first chosen; none for a text field.
    choices: Vec<(String, String)>,
}

#[derive(Template)]
#[template(path = "play_new.html")]
struct NewGamePage {
    chrome: Chrome,
    error: String,
    forms: Vec<NewForm>,
    levels: Vec<String>,
}

pub(super) fn new_game_page(
    state: &AppState,
    req: &Req,
    status: StatusCode,
    error: String,
) -> Response {
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
                increment: g.kind().clock == ClockStyle::Increment,
                fields: g
                    .kind()
                    .start_fields
                    .iter()
                    .map(|f| FormField {
                        name: f.name,
                        label: f.label(lang),
                        choices: (f.choices)(lang),
                    })
                    .collect(),
            })
            .collect(),
        levels: ui.play.level_names.clone(),
    };
    respond(req, status, page.render())
}

/// `GET /play`: start a game, join one, or find your games.
pub async fn new_page(State(state): State<AppState>, req: Req) -> Response {
    new_game_page(&state, &req, StatusCode::OK, String::new())
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
    /// With `sel`: the square a piece was sent to where several moves go (a promotion).
    #[serde(default)]
    pub to: Option<String>,
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

/// What the passes just played mean to the player `you`: the opponent passed (and one more
/// pass ends the game), the opponent answered `you`'s pass with a move, or `you` passed and
/// the game ends if the opponent passes too (`last_by_you`: whether `you` played the last
/// move). Empty when the last moves were no pass.
fn passes_said(
    moves: &[String],
    notations: &[String],
    you: Side,
    last_by_you: bool,
    seats: &[Seat; 2],
    lang: Lang,
) -> String {
    let ui = Ui::get(lang);
    let p = &ui.polish;
    let n = moves.len();
    let Some(last) = moves.last() else {
        return String::new();
    };
    let opponent = match seats[you.other().index()] {
        Seat::Computer { .. } => ui.play.computer.clone(),
        Seat::Human { .. } => p.opponent.clone(),
    };
    let passed = |m: &String| m == "pass";
    if passed(last) && last_by_you {
        p.you_passed.clone()
    } else if passed(last) {
        fill(&p.opponent_passed, &[("who", &opponent)])
    } else if !last_by_you && n >= 2 && passed(&moves[n - 2]) {
        fill(
            &p.answered_pass,
            &[("who", &opponent), ("move", &notations[n - 1])],
        )
    } else {
        String::new()
    }
}

/// The number shown before the move of index `i` (from 0) in a game numbered in pairs: `n.`
/// before the first side's moves, `n…` before a game's first move when the second side moved
/// first, nothing before the second side's other moves (nor in other games).
fn pair_number(pairs: bool, second_first: bool, i: usize) -> String {
    if !pairs {
        return String::new();
    }
    let ply = i + usize::from(second_first);
    let n = ply / 2 + 1;
    match (ply % 2, i) {
        (0, _) => format!("{n}."),
        (_, 0) => format!("{n}…"),
        _ => String::new(),
    }
}
