//! A class's activity chart and its CSV files.

use super::class_page::{grid, load};
use super::*;

/// Tries a day over the [`ACTIVITY_DAYS`] days ending with `today` (a day's start): one
/// `(day, count)` a day, oldest first.
pub(crate) fn tries_per_day(tries: &[class::Try], today: Millis) -> Vec<(String, usize)> {
    let first = today - (ACTIVITY_DAYS - 1) * DAY;
    let mut counts = vec![0usize; ACTIVITY_DAYS as usize];
    for tr in tries {
        if tr.at >= first && tr.at < today + DAY {
            counts[((tr.at - first) / DAY) as usize] += 1;
        }
    }
    counts
        .into_iter()
        .enumerate()
        .map(|(i, n)| (class::day_of(first + i as i64 * DAY), n))
        .collect()
}

/// The bar chart of [`tries_per_day`] as SVG, every text escaped.
pub(crate) fn activity_svg(days: &[(String, usize)], t: &TeacherUi) -> String {
    use crate::render::escape;
    let (w, h, left, bottom, top) = (640.0, 200.0, 36.0, 28.0, 24.0);
    let max = days.iter().map(|d| d.1).max().unwrap_or(0).max(1);
    let plot_h = h - bottom - top;
    let bar_w = (w - left - 8.0) / days.len().max(1) as f64;
    let mut svg = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {w} {h}\" width=\"{w}\" height=\"{h}\" role=\"img\" aria-label=\"{}\">\
<title>{}</title><style>text{{font:11px sans-serif;fill:#444}}rect.bar{{fill:#3a7d44}}</style>\
<line x1=\"{left}\" y1=\"{y0}\" x2=\"{w}\" y2=\"{y0}\" stroke=\"#888\"/>\
<text x=\"{tx}\" y=\"{ty}\" text-anchor=\"end\">{max}</text><text x=\"{tx}\" y=\"{y0}\" text-anchor=\"end\">0</text>",
        escape(&t.activity_alt),
        escape(&t.activity),
        y0 = h - bottom,
        tx = left - 4.0,
        ty = top + 4.0,
    );
    for (i, (day, n)) in days.iter().enumerate() {
        let x = left + i as f64 * bar_w;
        let bh = plot_h * *n as f64 / max as f64;
        let y = h - bottom - bh;
        svg.push_str(&format!(
            "<rect class=\"bar\" x=\"{:.1}\" y=\"{y:.1}\" width=\"{:.1}\" height=\"{bh:.1}\"><title>{}</title></rect>",
            x + 1.0,
            (bar_w - 2.0).max(1.0),
            escape(&fill(&t.tries_on, &[("n", &n.to_string()), ("date", day)]))
        ));
        // A date every week, counted back from the last day: labels never crowd together.
        if (days.len() - 1 - i).is_multiple_of(7) {
            svg.push_str(&format!(
                "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{}</text>",
                x + bar_w / 2.0,
                h - bottom + 16.0,
                escape(day.get(5..).unwrap_or(day))
            ));
        }
    }
    svg.push_str("</svg>");
    svg
}

/// `GET /teacher/classes/{id}/activity.svg`.
pub(crate) async fn activity(
    signed: Signed,
    Path(id): Path<String>,
) -> Result<Response, PageError> {
    let class = own(&signed, &id).await?;
    let loaded = load(&signed, class.id).await?;
    let now = class::now();
    let days = tries_per_day(&loaded.history.tries, now - now.rem_euclid(DAY));
    let mut r = activity_svg(&days, tui(&signed)).into_response();
    r.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("image/svg+xml; charset=utf-8"),
    );
    r.headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    Ok(r)
}

/// One CSV cell: quoted when it holds a comma, a quote or a line break; a cell a
/// spreadsheet would read as a formula (`=`, `+`, `-`, `@`, a tab or a carriage return
/// first) gets a `'` in front.
///
/// ```text
/// =SUM(A1)  ->  '=SUM(A1)
/// a,"b"     ->  "a,""b"""
/// ```
pub(crate) fn csv_cell(s: &str) -> String {
    let s = if s.starts_with(['=', '+', '-', '@', '\t', '\r']) {
        format!("'{s}")
    } else {
        s.to_string()
    };
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s
    }
}

/// A CSV file: a byte-order mark (Excel then reads UTF-8), rows ending with CRLF.
pub(crate) fn csv(rows: &[Vec<String>]) -> String {
    let mut out = String::from("\u{feff}");
    for row in rows {
        let cells: Vec<String> = row.iter().map(|c| csv_cell(c)).collect();
        out.push_str(&cells.join(","));
        out.push_str("\r\n");
    }
    out
}

/// A time as ISO 8601 in UTC (`2026-12-01T09:05:03Z`).
pub(crate) fn iso(at: Millis) -> String {
    let s = at.div_euclid(1000).rem_euclid(86_400);
    format!(
        "{}T{:02}:{:02}:{:02}Z",
        class::day_of(at),
        s / 3600,
        s % 3600 / 60,
        s % 60
    )
}

fn csv_response(file: &str, body: String) -> Response {
    let mut r = body.into_response();
    let h = r.headers_mut();
    h.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/csv; charset=utf-8"),
    );
    if let Ok(v) = HeaderValue::from_str(&format!("attachment; filename=\"{file}\"")) {
        h.insert(header::CONTENT_DISPOSITION, v);
    }
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    r
}

/// `GET /teacher/classes/{id}/attempts.csv`: every try of the class.
pub(crate) async fn attempts_csv(
    signed: Signed,
    Path(id): Path<String>,
) -> Result<Response, PageError> {
    let class = own(&signed, &id).await?;
    let loaded = load(&signed, class.id).await?;
    let names: HashMap<StudentId, &str> = loaded
        .students
        .iter()
        .map(|s| (s.id, s.name.as_str()))
        .collect();
    let mut rows = vec![[
        "student",
        "game",
        "set",
        "problem",
        "kind",
        "moves before",
        "move",
        "verdict",
        "time",
    ]
    .map(String::from)
    .to_vec()];
    for tr in &loaded.history.tries {
        let (kind, before, played, verdict) = tr.act.columns();
        rows.push(vec![
            names.get(&tr.student).copied().unwrap_or("").to_string(),
            tr.game.clone(),
            tr.set.clone(),
            tr.problem.clone(),
            kind.to_string(),
            before.to_string(),
            played.to_string(),
            verdict.to_string(),
            iso(tr.at),
        ]);
    }
    Ok(csv_response(
        &format!("class-{}-attempts.csv", class.id.0),
        csv(&rows),
    ))
}

/// `GET /teacher/classes/{id}/grid.csv`: the grid, a status slug a cell.
pub(crate) async fn grid_csv(
    signed: Signed,
    Path(id): Path<String>,
) -> Result<Response, PageError> {
    let class = own(&signed, &id).await?;
    let loaded = load(&signed, class.id).await?;
    let summaries = progress::for_homework(&loaded.history.tries);
    let g = grid(&signed.snap, class.id, &loaded, &summaries, signed.req.lang);
    let mut header = vec!["student".to_string()];
    header.extend(
        g.columns
            .iter()
            .map(|c| format!("{} / {} ({})", c.homework, c.title, c.task.path())),
    );
    let mut rows = vec![header];
    for (name, _, cells) in &g.rows {
        let mut row = vec![name.clone()];
        row.extend(cells.iter().map(|s| s.slug().to_string()));
        rows.push(row);
    }
    let mut solved = vec!["solved".to_string()];
    solved.extend(g.columns.iter().map(|c| c.solved.to_string()));
    rows.push(solved);
    Ok(csv_response(
        &format!("class-{}-grid.csv", class.id.0),
        csv(&rows),
    ))
}
