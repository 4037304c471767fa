//! The records list (the library and the records opened) and uploading a record.

use super::*;

/// A row of the library list.
struct Row {
    href: String,
    path: String,
    players: String,
    event: String,
    date: String,
    result: String,
    readable: bool,
}

#[derive(Template)]
#[template(path = "record_list.html")]
struct ListPage<'a> {
    chrome: Chrome,
    ui: &'a RecordUi,
    error: String,
    has_library: bool,
    query: String,
    rows: Vec<Row>,
    count: String,
    formats: Vec<Format>,
}

/// A records error told on the list page (`/records`), in the asker's language, with its
/// status.
pub(super) struct OnList {
    state: AppState,
    /// Boxed, like `error`: errors stay small.
    req: Box<Req>,
    error: Box<RecordsError>,
}

impl OnList {
    /// `error`, to be told on the list page of `req`.
    pub(super) fn new(state: &AppState, req: &Req, error: RecordsError) -> OnList {
        OnList {
            state: state.clone(),
            req: Box::new(req.clone()),
            error: Box::new(error),
        }
    }
}

impl IntoResponse for OnList {
    fn into_response(self) -> Response {
        let OnList { state, req, error } = self;
        list_page(&state, &req, error.status(), &error.explain(req.lang))
    }
}

fn list_page(state: &AppState, req: &Req, status: StatusCode, error: &str) -> Response {
    let ui = &req.ui().record;
    let query = req
        .param("q")
        .unwrap_or("")
        .chars()
        .take(100)
        .collect::<String>();
    let q = query.trim().to_lowercase();
    let mut rows = Vec::new();
    let library = state.records().library();
    if let Some(lib) = library {
        let entries = lib.list().unwrap_or_default();
        for e in &entries {
            let id = library_id(&e.path);
            if e.games.is_empty() && q.is_empty() {
                rows.push(Row {
                    href: format!("/records/{id}"),
                    path: e.path.clone(),
                    players: String::new(),
                    event: String::new(),
                    date: String::new(),
                    result: ui.unreadable_file.clone(),
                    readable: false,
                });
            }
            let many = e.games.len() > 1;
            for s in e.games.iter().filter(|s| s.matches(&q)) {
                let here = Here {
                    id: &id,
                    game: s.game,
                };
                rows.push(Row {
                    href: here.href(&At::start(), &[]),
                    path: if many {
                        format!(
                            "{} · {}",
                            e.path,
                            fill(&ui.game_n, &[("n", &s.game.to_string())])
                        )
                    } else {
                        e.path.clone()
                    },
                    players: format!(
                        "{} – {}",
                        s.players[0].as_deref().unwrap_or("?"),
                        s.players[1].as_deref().unwrap_or("?")
                    ),
                    event: s.event.clone().unwrap_or_default(),
                    date: s.date.clone().unwrap_or_default(),
                    result: s.result.clone().unwrap_or_default(),
                    readable: true,
                });
            }
        }
    }
    let html = ListPage {
        chrome: Chrome::new(req, &state.snapshot(), ui.title.clone()),
        ui,
        error: error.to_string(),
        has_library: library.is_some(),
        query,
        count: fill(&ui.library_count, &[("n", &rows.len().to_string())]),
        rows,
        formats: Format::all().collect(),
    }
    .render();
    respond(req, status, html)
}

/// `GET /records`: the upload form and the library.
pub(crate) async fn list(State(state): State<AppState>, req: Req) -> Response {
    list_page(&state, &req, StatusCode::OK, "")
}

/// The pasted form: the record's text and its format's extension.
#[derive(Debug, Default, Deserialize)]
pub struct PasteForm {
    /// The record's text.
    #[serde(default)]
    pub text: String,
    /// `sgf`, `pgn`, `kif`, `ki2` or `csa`.
    #[serde(default)]
    pub format: String,
}

/// What an upload sent: a file's name and bytes.
async fn read_upload(
    state: &AppState,
    request: Request,
) -> Result<(String, Vec<u8>), RecordsError> {
    let multipart = request
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("multipart/form-data"));
    let mut file: Option<(String, Vec<u8>)> = None;
    let mut paste = PasteForm::default();
    if multipart {
        let mut form = Multipart::from_request(request, state)
            .await
            .map_err(|_| RecordsError::BadUpload)?;
        let too_large = |e: axum::extract::multipart::MultipartError| {
            if e.status() == StatusCode::PAYLOAD_TOO_LARGE {
                RecordsError::TooLarge
            } else {
                RecordsError::BadUpload
            }
        };
        while let Some(mut field) = form.next_field().await.map_err(too_large)? {
            let name = field.name().unwrap_or("").to_string();
            let file_name = field.file_name().unwrap_or("").to_string();
            let mut bytes = Vec::new();
            while let Some(chunk) = field.chunk().await.map_err(too_large)? {
                if bytes.len() + chunk.len() > UPLOAD_LIMIT {
                    return Err(RecordsError::TooLarge);
                }
                bytes.extend_from_slice(&chunk);
            }
            match name.as_str() {
                "file" if !bytes.is_empty() => file = Some((file_name, bytes)),
                "text" => paste.text = String::from_utf8_lossy(&bytes).into_owned(),
                "format" => paste.format = String::from_utf8_lossy(&bytes).into_owned(),
                _ => {}
            }
        }
    } else {
        let Form(form) = Form::<PasteForm>::from_request(request, state)
            .await
            .map_err(|e| {
                if e.status() == StatusCode::PAYLOAD_TOO_LARGE {
                    RecordsError::TooLarge
                } else {
                    RecordsError::BadUpload
                }
            })?;
        paste = form;
    }
    if let Some(f) = file {
        return Ok(f);
    }
    if paste.text.trim().is_empty() {
        return Err(RecordsError::NoFile);
    }
    if paste.text.len() > UPLOAD_LIMIT {
        return Err(RecordsError::TooLarge);
    }
    let ext: String = paste
        .format
        .chars()
        .filter(char::is_ascii_alphanumeric)
        .take(5)
        .collect();
    Ok((format!("pasted.{ext}"), paste.text.into_bytes()))
}

/// `POST /records`: a record uploaded (a file, multipart) or pasted (a form field): kept in
/// memory and shown, or the form again with why it cannot be opened.
///
/// The record is read on a blocking thread (never on the async workers), and refused with
/// 413 when its records take more than [`RecordLimits::upload_memory`].
pub(crate) async fn upload(
    State(state): State<AppState>,
    req: Req,
    request: Request,
) -> Result<Redirect, OnList> {
    let (name, bytes) = read_upload(&state, request)
        .await
        .map_err(|e| OnList::new(&state, &req, e))?;
    let limit = state.records().limits.upload_memory;
    let (name, games) = tokio::task::spawn_blocking(move || open_upload(name, &bytes, limit))
        .await
        .unwrap_or(Err(RecordsError::ReaderStopped))
        .map_err(|e| OnList::new(&state, &req, e))?;
    let id = state.records().keep(&name, games);
    Ok(Redirect::to(&format!("/records/{id}")))
}

/// [`Records::open`] on a blocking thread: a record of the library is read from its file and
/// parsed, which is no work for an async worker.
pub(super) async fn open_blocking(
    state: &AppState,
    id: &str,
    game: usize,
) -> Result<Opened, RecordsError> {
    let (state, id) = (state.clone(), id.to_string());
    tokio::task::spawn_blocking(move || state.records().open(&id, game))
        .await
        .unwrap_or(Err(RecordsError::ReaderStopped))
}

/// Reads an upload's bytes into its games (on a blocking thread): the name cut to 200
/// characters, and the games, unless they are unreadable or take more than `limit` bytes.
fn open_upload(
    name: String,
    bytes: &[u8],
    limit: usize,
) -> Result<(String, Vec<Record>), RecordsError> {
    let name: String = name.chars().take(200).collect();
    let games = record::read(&name, bytes).map_err(RecordsError::Unreadable)?;
    if weight(&games) > limit {
        return Err(RecordsError::TooMuchMemory(limit));
    }
    Ok((name, games))
}
