//! Printing a record: Go figures and score sheets.

use super::drawing::{draw, Shown};
use super::uploads::{open_blocking, OnList};
use super::view::{game_param, heading, tag_lines};
use super::*;
use crate::content::drawing::{self, DrawAsk};

/// One figure of a printed Go record, or one section of a score sheet.
struct Figure {
    title: String,
    svg: String,
    notes: Vec<String>,
    /// Score sheet rows: the move number and the two sides' moves.
    rows: Vec<(String, String, String)>,
}

#[derive(Template)]
#[template(path = "record_print.html")]
struct PrintPage<'a> {
    chrome: Chrome,
    ui: &'a RecordUi,
    back: String,
    heading: String,
    tags: Vec<(String, String)>,
    comment: String,
    per: usize,
    per_label: String,
    pers: Vec<usize>,
    action: String,
    game: usize,
    go: bool,
    figures: Vec<Figure>,
}

/// The figures of a Go record's main line, `per` moves each: the stones of each figure's
/// start unnumbered, each move's number on its point, and the books' notes for moves played
/// where a stone of the figure already stands (`60 at 54`, or `ko at` when it retakes a ko)
/// or stood before the figure (marked ▲).
fn go_figures(record: &Record, per: usize, lang: Lang, title: &str) -> Vec<Figure> {
    let ui = &Ui::get(lang).record;
    let Some(mut pos) = record
        .position_at_start("record")
        .ok()
        .and_then(|p| p.get::<go::Position>().cloned())
    else {
        return Vec::new();
    };
    let moves = &record.moves;
    let mut out = Vec::new();
    let chunks: Vec<&[Step]> = if moves.is_empty() {
        vec![&[]]
    } else {
        moves.chunks(per).collect()
    };
    for (k, chunk) in chunks.into_iter().enumerate() {
        let first = k * per + 1;
        let start = pos.board().clone();
        let mut drawn = start.clone();
        let mut numbered: HashMap<go::Point, usize> = HashMap::new();
        let mut marks: Marks<go::Point> = Marks::default();
        let mut notes = Vec::new();
        for (i, step) in chunk.iter().enumerate() {
            let n = first + i;
            let colour = pos.turn();
            let Ok((next, mv)) = pos.play(&step.mv) else {
                break;
            };
            match mv {
                go::Move::Pass => notes.push(fill(&ui.pass_note, &[("n", &n.to_string())])),
                go::Move::Play(p) => {
                    let ko = next.captured().len() == 1 && numbered.contains_key(&p);
                    if let Some(k) = numbered.get(&p) {
                        let template = if ko { &ui.ko_note } else { &ui.at_note };
                        notes.push(fill(
                            template,
                            &[("n", &n.to_string()), ("k", &k.to_string())],
                        ));
                    } else if start.get(p).is_some() {
                        if !marks.triangles.contains(&p) {
                            marks.triangles.push(p);
                        }
                        notes.push(fill(&ui.earlier_note, &[("n", &n.to_string())]));
                    } else {
                        numbered.insert(p, n);
                        drawn.set(p, Some(colour));
                        marks.labels.push((n.to_string(), p));
                    }
                }
            }
            if !step.comment.is_empty() {
                notes.push(format!("{n}: {}", step.comment));
            }
            pos = next;
        }
        let last = first + chunk.len().saturating_sub(1);
        let svg = go_svg(&GoDiagram {
            board: &drawn,
            view: None,
            last_move: None,
            marks: &marks,
            liberties: &[],
            territory: &[],
            selected: &[],
            link: None,
            heat: None,
            lang,
            title,
        });
        out.push(Figure {
            title: figure_title(ui, k, first, last.max(first)),
            svg,
            notes,
            rows: Vec::new(),
        });
    }
    out
}

/// A chess, shogi or xiangqi score sheet of the main line, a diagram after every `per` moves.
fn score_sheet(record: &Record, per: usize, lang: Lang, title: &str) -> Vec<Figure> {
    let ui = &Ui::get(lang).record;
    let Ok(mut board) = record.position_at_start("record") else {
        return Vec::new();
    };
    let offset = usize::from(record.first_to_move() == Side::Second);
    let mut out = Vec::new();
    let chunks: Vec<&[Step]> = if record.moves.is_empty() {
        vec![&[]]
    } else {
        record.moves.chunks(per).collect()
    };
    let mut ply = 0;
    for (k, chunk) in chunks.into_iter().enumerate() {
        let first = ply + 1;
        let mut rows: Vec<(String, String, String)> = Vec::new();
        let mut notes = Vec::new();
        let mut last = None;
        for step in chunk {
            let Some((next, notation)) = board.play_noted(&step.mv) else {
                break;
            };
            ply += 1;
            let slot = ply + offset;
            let number = slot.div_ceil(2).to_string();
            if slot % 2 == 1 || rows.is_empty() {
                rows.push((number, String::new(), String::new()));
            }
            if let Some(row) = rows.last_mut() {
                if slot % 2 == 1 {
                    row.1 = notation;
                } else {
                    row.2 = notation;
                }
            }
            if !step.comment.is_empty() {
                let text = drawing::comment_text(record.start.game(), &step.comment);
                if !text.is_empty() {
                    notes.push(format!("{ply}: {text}"));
                }
            }
            last = Some((board, step.mv.clone()));
            board = next;
        }
        let shown = Shown {
            board: board.clone(),
            last,
        };
        let svg = draw(
            &shown,
            DrawAsk {
                markup: &[],
                comment: "",
                link: None,
                selected: None,
                lang,
                title,
                branches: &[],
            },
        );
        out.push(Figure {
            title: figure_title(ui, k, first, ply.max(first)),
            svg,
            notes,
            rows,
        });
    }
    out
}

/// `GET /records/{id}/print?per=&game=`: the record for A4 paper.
pub(crate) async fn print(
    State(state): State<AppState>,
    req: Req,
    Path(id): Path<String>,
) -> Result<Response, OnList> {
    let game = game_param(&req);
    let opened = open_blocking(&state, &id, game)
        .await
        .map_err(|e| OnList::new(&state, &req, e))?;
    let record = &opened.record;
    let g = record.start.game();
    let ui = &req.ui().record;
    let go_record = g.kind().numbered_figures;
    let (pers, default) = if go_record {
        (vec![25, 50, 100], 50)
    } else {
        (vec![10, 20, 40], 20)
    };
    let per = req
        .param("per")
        .and_then(|p| p.parse::<usize>().ok())
        .filter(|p| (4..=400).contains(p))
        .unwrap_or(default);
    let title = heading(record, &opened.name);
    let figures = if go_record {
        go_figures(record, per, req.lang, &title)
    } else {
        score_sheet(record, per, req.lang, &title)
    };
    let here = Here { id: &id, game };
    let html = PrintPage {
        chrome: Chrome::new(
            &req,
            &state.snapshot(),
            format!("{title} · {}", ui.print_title),
        ),
        ui,
        back: here.href(&At::start(), &[]),
        heading: title,
        tags: tag_lines(record, req.lang),
        comment: record.comment.clone(),
        per,
        per_label: if go_record {
            ui.per.clone()
        } else {
            fill(&ui.every, &[("n", "N")])
        },
        pers,
        action: here.sub("print", &[]),
        game,
        go: go_record,
        figures,
    }
    .render();
    Ok(respond(&req, StatusCode::OK, html))
}

/// A printed figure's heading: "Figure 2 (moves 51–100)".
fn figure_title(ui: &RecordUi, k: usize, first: usize, last: usize) -> String {
    fill(
        &ui.figure,
        &[
            ("n", &(k + 1).to_string()),
            ("from", &first.to_string()),
            ("to", &last.to_string()),
        ],
    )
}
