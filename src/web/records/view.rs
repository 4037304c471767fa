//! The record page: the tree of moves, trying one's own moves (推演), deleting a variation,
//! downloading.

use super::drawing::{draw, replay};
use super::uploads::{open_blocking, OnList};
use super::*;
use crate::content::drawing::{self, Choice, DrawAsk};
use axum::http::HeaderMap;

/// One item of the move tree: a move, or the start or end of a variation.
struct TreeItem {
    /// `move`, `open` or `close`.
    kind: &'static str,
    href: String,
    text: String,
    current: bool,
    /// The item's depth of variations (0 on the main line).
    depth: usize,
}

/// A move's text in the tree: `12 D4`, `3. e4` / `3… e5`, `7 ▲7六歩`.
fn move_text(game: Game, ply: usize, first_to_move: Side, notation: &str) -> String {
    if !game.kind().numbers_in_pairs {
        return format!("{ply} {notation}");
    }
    let offset = usize::from(first_to_move == Side::Second);
    let n = (ply + offset).div_ceil(2);
    if (ply + offset) % 2 == 1 {
        format!("{n}. {notation}")
    } else {
        format!("{n}… {notation}")
    }
}

/// The whole tree as a list: each line's moves, each step's variations after it in
/// brackets.
fn tree(record: &Record, here: &Here, current: &At) -> Vec<TreeItem> {
    #[allow(clippy::too_many_arguments)]
    fn walk(
        game: Game,
        first: Side,
        line: &[Step],
        mut board: crate::base::AnyPosition,
        branches: &[Branch],
        ply: usize,
        here: &Here,
        current: &At,
        out: &mut Vec<TreeItem>,
    ) {
        for (i, step) in line.iter().enumerate() {
            let Some((next, notation)) = board.play_noted(&step.mv) else {
                return;
            };
            let at = At {
                branches: branches.to_vec(),
                moves: i + 1,
            };
            out.push(TreeItem {
                kind: "move",
                href: here.href(&at, &[]),
                text: move_text(game, ply + i + 1, first, &notation),
                current: &at == current,
                depth: branches.len(),
            });
            for (v, variation) in step.variations.iter().enumerate() {
                out.push(TreeItem {
                    kind: "open",
                    href: String::new(),
                    text: String::new(),
                    current: false,
                    depth: branches.len() + 1,
                });
                let mut inner = branches.to_vec();
                inner.push(Branch {
                    at: i,
                    variation: v,
                });
                walk(
                    game,
                    first,
                    variation,
                    board.clone(),
                    &inner,
                    ply + i,
                    here,
                    current,
                    out,
                );
                out.push(TreeItem {
                    kind: "close",
                    href: String::new(),
                    text: String::new(),
                    current: false,
                    depth: branches.len() + 1,
                });
            }
            board = next;
        }
    }
    let mut out = Vec::new();
    let Ok(board) = record.position_at_start("record") else {
        return out;
    };
    walk(
        record.start.game(),
        record.first_to_move(),
        &record.moves,
        board,
        &[],
        0,
        here,
        current,
        &mut out,
    );
    out
}

/// A link of the replay controls.
struct NavLink {
    href: String,
    rel: &'static str,
    key: &'static str,
    title: String,
    here: bool,
}

/// A download or other link.
struct Link {
    href: String,
    title: String,
}

/// How a finished game ended, in `lang`.
fn result_text(game: Game, finish: &Finish, lang: Lang) -> String {
    let ui = &Ui::get(lang).record;
    let (zh, en) = side_names(game);
    let names = if lang == Lang::Zh { zh } else { en };
    let Some(winner) = finish.winner else {
        return ui.draw.clone();
    };
    let won = fill(&ui.wins, &[("side", names[winner.index()])]);
    let how = match finish.reason {
        Reason::Count { points } => fill(&ui.by_points, &[("points", &points.to_string())]),
        Reason::Resignation => ui.by_resignation.clone(),
        Reason::Timeout => ui.on_time.clone(),
        _ => String::new(),
    };
    if how.is_empty() {
        won
    } else if lang == Lang::Zh && matches!(finish.reason, Reason::Count { .. }) {
        format!("{}{how}", won)
    } else {
        format!("{won} {how}")
    }
}

/// The tags shown above a record: the players by side, event, date, result.
pub(super) fn tag_lines(record: &Record, lang: Lang) -> Vec<(String, String)> {
    let ui = &Ui::get(lang).record;
    let game = record.start.game();
    let (zh, en) = side_names(game);
    let names = if lang == Lang::Zh { zh } else { en };
    let mut out = Vec::new();
    for (side, who) in [&record.tags.first_player, &record.tags.second_player]
        .into_iter()
        .enumerate()
    {
        if let Some(who) = who {
            out.push((names[side].to_string(), who.clone()));
        }
    }
    if let Some(e) = &record.tags.event {
        out.push((ui.event.clone(), e.clone()));
    }
    if let Some(d) = &record.tags.date {
        out.push((ui.date.clone(), d.clone()));
    }
    if let Some(f) = &record.tags.result {
        out.push((ui.result.clone(), result_text(game, f, lang)));
    }
    out
}

/// `Black 古力 – White 李世石`, or the file's name when the record names no player.
pub(super) fn heading(record: &Record, name: &str) -> String {
    match (&record.tags.first_player, &record.tags.second_player) {
        (None, None) => name.to_string(),
        (a, b) => format!(
            "{} – {}",
            a.as_deref().unwrap_or("?"),
            b.as_deref().unwrap_or("?")
        ),
    }
}

#[derive(Template)]
#[template(path = "record.html")]
struct RecordPage<'a> {
    chrome: Chrome,
    ui: &'a RecordUi,
    id: String,
    game: usize,
    at: String,
    heading: String,
    name: String,
    tags: Vec<(String, String)>,
    games: Vec<NavLink>,
    board: String,
    at_text: String,
    nav: Vec<NavLink>,
    comment: String,
    refused: String,
    confirm: Option<Choice>,
    choices: Vec<Choice>,
    cancel_href: String,
    action: String,
    delete_action: String,
    can_delete: bool,
    example: String,
    tree: Vec<TreeItem>,
    downloads: Vec<Link>,
    print_href: String,
    notes: Vec<String>,
}

/// What a record page is asked to show.
struct Ask {
    at: At,
    /// Whether the viewer added the variation the place is in (and so may delete it).
    mine: bool,
    sel: Option<String>,
    to: Option<String>,
    try_move: Option<String>,
    refused: Option<String>,
}

/// A branch point: where each of the moves the record plays next lands, labelled A, B, C …
/// in the tree's order, when there are two or more (none elsewhere, nor past a label's
/// alphabet).
fn branch_labels(record: &Record, at: &At) -> Vec<(String, String)> {
    let next = record.next(at);
    if &next == at {
        return Vec::new();
    }
    let (places, _) = record.alternatives(&next);
    if places.len() < 2 {
        return Vec::new();
    }
    let lands_on = record.start.game().kind().lands_on;
    places
        .iter()
        .zip('A'..='Z')
        .filter_map(|(p, label)| Some((lands_on(&record.step_at(p)?.mv)?, label.to_string())))
        .collect()
}

fn example_move(game: Game) -> &'static str {
    game.kind().move_examples
}

fn render_record(
    req: &Req,
    state: &AppState,
    id: &str,
    game: usize,
    opened: &Opened,
    ask: &Ask,
) -> Result<String, askama::Error> {
    let lang = req.lang;
    let ui = &req.ui().record;
    let record = &opened.record;
    let g = record.start.game();
    let here = Here { id, game };
    let at = &ask.at;
    let moves = record.moves_to(at).unwrap_or_default();
    let shown = replay(record, &moves).map_err(|e| askama::Error::Custom(e.into()))?;
    let step = record.step_at(at);
    let (markup, raw_comment): (&[String], &str) = match step {
        Some(s) => (&s.markup, &s.comment),
        None => (&record.root_markup, &record.comment),
    };
    let comment = drawing::comment_text(g, raw_comment);
    let href = |c: Click| -> String {
        match c {
            Click::Play(m) => here.href(at, &[("try", &m)]),
            Click::Select(Some(s)) => here.href(at, &[("sel", &s)]),
            Click::Select(None) => here.href(at, &[]),
            Click::Choose { from, to } => here.href(at, &[("sel", &from), ("to", &to)]),
        }
    };
    let title = heading(record, &opened.name);
    let branches = branch_labels(record, at);
    let board = draw(
        &shown,
        DrawAsk {
            markup,
            comment: raw_comment,
            link: Some(&href),
            selected: ask.sel.as_deref(),
            lang,
            title: &title,
            branches: &branches,
        },
    );
    let (alternatives, which) = record.alternatives(at);
    let nav_link = |to: &At, rel, key, title: &str| NavLink {
        href: here.href(to, &[]),
        rel,
        key,
        title: title.to_string(),
        here: to == at,
    };
    let mut nav = vec![
        nav_link(&At::start(), "first", "Home", &format!("« {}", ui.first)),
        nav_link(
            &record.previous(at),
            "prev",
            "ArrowLeft",
            &format!("◀ {}", ui.prev),
        ),
        nav_link(
            &record.next(at),
            "next",
            "ArrowRight",
            &format!("{} ▶", ui.next),
        ),
        nav_link(
            &record.end_of_line(at),
            "last",
            "End",
            &format!("{} »", ui.last),
        ),
    ];
    if alternatives.len() > 1 {
        let up = &alternatives[(which + alternatives.len() - 1) % alternatives.len()];
        let down = &alternatives[(which + 1) % alternatives.len()];
        nav.push(nav_link(up, "up", "ArrowUp", &format!("▲ {}", ui.up)));
        nav.push(nav_link(
            down,
            "down",
            "ArrowDown",
            &format!("▼ {}", ui.down),
        ));
    }
    let mut at_text = if at.is_start() {
        ui.at_start.clone()
    } else {
        fill(&ui.at_move, &[("n", &at.ply().to_string())])
    };
    if alternatives.len() > 1 {
        at_text = format!(
            "{at_text} · {}",
            fill(
                &ui.in_variation,
                &[
                    ("n", &(which + 1).to_string()),
                    ("total", &alternatives.len().to_string())
                ]
            )
        );
    }
    // A promotion: the moves between the two squares chosen.
    let choices = match (&ask.sel, &ask.to) {
        (Some(from), Some(to)) => drawing::moves_between(&shown.board, from, to),
        _ => Vec::new(),
    };
    let games = if opened.games > 1 {
        (1..=opened.games)
            .map(|n| NavLink {
                href: Here { id, game: n }.href(&At::start(), &[]),
                rel: "",
                key: "",
                title: fill(&ui.game_n, &[("n", &n.to_string())]),
                here: n == game.clamp(1, opened.games),
            })
            .collect()
    } else {
        Vec::new()
    };
    RecordPage {
        chrome: Chrome::new(req, &state.snapshot(), format!("{title} · {}", ui.title)),
        ui,
        id: id.to_string(),
        game,
        at: at.spelling(),
        heading: title.clone(),
        name: opened.name.clone(),
        tags: tag_lines(record, lang),
        games,
        board,
        at_text,
        nav,
        comment,
        refused: ask.refused.clone().unwrap_or_default(),
        confirm: ask.try_move.clone().map(|m| Choice {
            label: fill(&ui.confirm, &[("move", &m)]),
            mv: m,
        }),
        choices,
        cancel_href: here.href(at, &[]),
        action: here.sub("moves", &[]),
        delete_action: here.sub("delete", &[]),
        can_delete: ask.mine,
        example: fill(&ui.try_example, &[("move", example_move(g))]),
        tree: tree(record, &here, at),
        downloads: record_formats(g)
            .iter()
            .map(|f| Link {
                href: here.sub("download", &[("format", f.extension().to_string())]),
                title: f.as_str().to_string(),
            })
            .collect(),
        print_href: here.sub("print", &[]),
        notes: record.notes.clone(),
    }
    .render()
}

/// `GET /records/{id}?at=&game=`: the replay page.
pub(crate) async fn page(
    State(state): State<AppState>,
    req: Req,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Response, OnList> {
    let game = game_param(&req);
    let opened = open_blocking(&state, &id, game)
        .await
        .map_err(|e| OnList::new(&state, &req, e))?;
    let asked = req.param("at").unwrap_or("");
    let at = opened.record.place(&asked.parse().unwrap_or_default());
    if asked != at.spelling() {
        let here = Here { id: &id, game };
        return Ok(Redirect::to(&here.href(&at, &[])).into_response());
    }
    let short = |k: &str| {
        req.param(k)
            .filter(|v| !v.is_empty() && v.len() <= 16)
            .map(String::from)
    };
    let mine = super::owners::viewer(&headers)
        .is_some_and(|v| state.records().owns(&id, game, &v, &at.branches));
    let ask = Ask {
        at,
        mine,
        sel: short("sel"),
        to: short("to"),
        try_move: short("try"),
        refused: None,
    };
    let html = render_record(&req, &state, &id, game, &opened, &ask);
    Ok(respond(&req, StatusCode::OK, html))
}

pub(super) fn game_param(req: &Req) -> usize {
    req.param("game")
        .and_then(|g| g.parse().ok())
        .unwrap_or(1)
        .max(1)
}

/// The form of a move tried: where, which game, what.
#[derive(Debug, Deserialize)]
pub struct TryForm {
    /// The place, as `?at=` spells it.
    #[serde(default)]
    pub at: String,
    /// The move, in any notation the game reads.
    #[serde(default, rename = "move")]
    pub mv: String,
}

/// `POST /records/{id}/moves`: a move tried from a place, judged by the rules; a new
/// variation (or the record's own move there) is shown, or the page with the reason.
pub(crate) async fn try_move(
    State(state): State<AppState>,
    req: Req,
    Path(id): Path<String>,
    headers: HeaderMap,
    Form(form): Form<TryForm>,
) -> Result<Response, Refused> {
    let (viewer, cookie) = super::owners::viewer_or_new(&headers);
    let game = game_param(&req);
    let lang = req.lang;
    let mv = form.mv.trim().chars().take(32).collect::<String>();
    let asked: At = form.at.parse().unwrap_or_default();
    let tried = state.records().edit(&id, game, |record, owned, index| {
        let at = record.place(&asked);
        let moves = record.moves_to(&at).ok_or(RecordsError::NoPlace)?;
        let shown = replay(record, &moves).map_err(|_| RecordsError::NoPlace)?;
        let (_, name) = shown
            .board
            .play(&mv, lang)
            .map_err(|reason| RecordsError::Illegal {
                mv: mv.clone(),
                reason,
            })?;
        let before = step_count(&record.moves);
        let to = record.add_move(&at, &name).ok_or(RecordsError::NoPlace)?;
        let added = step_count(&record.moves) - before;
        // A new variation (not a move added to a line, nor one already there): the viewer's.
        if added > 0 && to.moves == 1 && to.branches.len() == at.branches.len() + 1 {
            owned.push(super::owners::Owned {
                game: index,
                viewer: viewer.clone(),
                branches: to.branches.clone(),
            });
        }
        Ok((to, added))
    });
    let (new_id, to) = tried
        .map_err(|e| Refused::new(&state, &req, &id, game, &asked, e).by(Some(viewer.clone())))?;
    let here = Here { id: &new_id, game };
    let mut r = Redirect::to(&here.href(&to, &[])).into_response();
    if let Some(c) = cookie {
        r.headers_mut().append(header::SET_COOKIE, c);
    }
    Ok(r)
}

/// An edit of a record refused: the record page at the place asked with the reason said and
/// its status, or the list page when the record is gone.
pub(super) struct Refused {
    state: AppState,
    req: Req,
    id: String,
    game: usize,
    asked: At,
    error: RecordsError,
    /// The viewer who asked (the page offers to delete what it added).
    viewer: Option<String>,
}

impl Refused {
    /// `error`, refusing an edit of game `game` of record `id` at `asked`.
    fn new(
        state: &AppState,
        req: &Req,
        id: &str,
        game: usize,
        asked: &At,
        error: RecordsError,
    ) -> Refused {
        Refused {
            state: state.clone(),
            req: req.clone(),
            id: id.to_string(),
            game,
            asked: asked.clone(),
            error,
            viewer: None,
        }
    }

    /// The refusal of what `viewer` asked.
    fn by(self, viewer: Option<String>) -> Refused {
        Refused { viewer, ..self }
    }

    /// The record page at `asked` with `error` said.
    fn page(&self) -> Result<Response, OnList> {
        let (state, req) = (&self.state, &self.req);
        let opened = state
            .records()
            .open(&self.id, self.game)
            .map_err(|gone| OnList::new(state, req, gone))?;
        let at = opened.record.place(&self.asked);
        let mine = self
            .viewer
            .as_ref()
            .is_some_and(|v| state.records().owns(&self.id, self.game, v, &at.branches));
        let ask = Ask {
            mine,
            at,
            sel: None,
            to: None,
            try_move: None,
            refused: Some(self.error.explain(req.lang)),
        };
        let html = render_record(req, state, &self.id, self.game, &opened, &ask);
        Ok(respond(req, self.error.status(), html))
    }
}

impl IntoResponse for Refused {
    fn into_response(self) -> Response {
        self.page().into_response()
    }
}

/// The form that deletes a variation: its place.
#[derive(Debug, Deserialize)]
pub struct PlaceForm {
    /// The place, as `?at=` spells it.
    #[serde(default)]
    pub at: String,
}

/// `POST /records/{id}/delete`: deletes the innermost variation of the place, and shows
/// where it branched off.
pub(crate) async fn delete(
    State(state): State<AppState>,
    req: Req,
    Path(id): Path<String>,
    headers: HeaderMap,
    Form(form): Form<PlaceForm>,
) -> Result<Redirect, Refused> {
    let game = game_param(&req);
    let asked: At = form.at.parse().unwrap_or_default();
    let viewer = super::owners::viewer(&headers).unwrap_or_default();
    let deleted = state.records().edit(&id, game, |record, owned, index| {
        let at = record.place(&asked);
        if at.branches.is_empty() {
            return Err(RecordsError::MainLine);
        }
        if !super::owners::owns(owned, index, &viewer, &at.branches) {
            return Err(RecordsError::NotYours);
        }
        let back = record.delete_variation(&at).ok_or(RecordsError::MainLine)?;
        super::owners::after_delete(owned, index, &at.branches);
        Ok((back, 0))
    });
    let (new_id, back) = deleted
        .map_err(|e| Refused::new(&state, &req, &id, game, &asked, e).by(Some(viewer.clone())))?;
    let here = Here { id: &new_id, game };
    Ok(Redirect::to(&here.href(&back, &[])))
}

/// Why a record cannot be downloaded, told as plain text.
pub(super) enum NoDownload {
    /// The record cannot be opened: its status, the reason in `lang`.
    Open {
        /// The asker's language.
        lang: Lang,
        /// Why.
        error: RecordsError,
    },
    /// The record cannot be written in the format: 422 with the reason.
    Write(RecordError),
}

impl IntoResponse for NoDownload {
    fn into_response(self) -> Response {
        match self {
            NoDownload::Open { lang, error } => {
                (error.status(), error.explain(lang)).into_response()
            }
            NoDownload::Write(e) => {
                (StatusCode::UNPROCESSABLE_ENTITY, e.to_string()).into_response()
            }
        }
    }
}

/// `GET /records/{id}/download?format=&game=`: the game with the learner's variations in
/// one of its game's formats.
pub(crate) async fn download_record(
    State(state): State<AppState>,
    req: Req,
    Path(id): Path<String>,
) -> Result<Response, NoDownload> {
    let game = game_param(&req);
    let lang = req.lang;
    let opened = open_blocking(&state, &id, game)
        .await
        .map_err(|error| NoDownload::Open { lang, error })?;
    let g = opened.record.start.game();
    let asked = req.param("format").unwrap_or("").to_ascii_lowercase();
    let format = record_formats(g)
        .iter()
        .copied()
        .find(|f| f.extension() == asked)
        .unwrap_or(Format::of_game(g));
    let stem: String = opened
        .name
        .rsplit('/')
        .next()
        .unwrap_or("")
        .rsplit_once('.')
        .map_or("", |(s, _)| s)
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
        .take(60)
        .collect();
    let stem = if stem.is_empty() {
        "record".to_string()
    } else {
        stem
    };
    let file = if opened.games > 1 {
        format!("{stem}-{game}.{}", format.extension())
    } else {
        format!("{stem}.{}", format.extension())
    };
    let text = record::write(&opened.record, format).map_err(NoDownload::Write)?;
    Ok(download(text, format, &file))
}
