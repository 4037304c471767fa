//! A game's record: as text in its game's formats, and downloaded.

use super::*;

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

/// A record's text as a download named `file` (ASCII), typed by its format.
pub(crate) fn download(text: String, format: Format, file: &str) -> Response {
    let mime = format.mime();
    let mut response = text.into_response();
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_static(mime));
    if let Ok(v) = HeaderValue::from_str(&format!("attachment; filename=\"{file}\"")) {
        headers.insert(header::CONTENT_DISPOSITION, v);
    }
    response
}

/// The formats a game's records download in: SGF, PGN, or KIF, KI2 and CSA.
pub(crate) fn record_formats(game: Game) -> Vec<Format> {
    Format::of(game)
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
) -> Result<Response, ApiError> {
    let entry = look_up(&state, client, &id, &headers, None)?;
    let game = entry.table().game();
    let format = match query.format.as_deref() {
        None => Format::of_game(game),
        Some(f) => *record_formats(game)
            .iter()
            .find(|x| x.extension() == f.to_ascii_lowercase())
            .ok_or_else(|| BadRequest::Format(f.chars().take(10).collect()))?,
    };
    let text = record_text(&entry, format).map_err(|error| ApiError::Record { id, error })?;
    let file = format!("qiyuan-{}-{}.{}", game.slug(), entry.id, format.extension());
    Ok(download(text, format, &file))
}
