//! The teacher's heat map: where answers land, tallied and drawn over the board's cells.

use super::*;

/// Where a move lands: the point or square a heat map shades (a chess or shogi move's
/// destination, a Go point, a square picked); none for a count or a pass.
///
/// ```text
/// D4 → D4   e2e4 → e4   e7e8q → e8   P*5e → 5e   7g7f+ → 7f   41 → none
/// ```
pub(super) fn target(game: Game, played: &str) -> Option<String> {
    (game.kind().lands_on)(played)
}

/// One point or square of a linked board: its name and its link's rectangle.
#[derive(Debug, PartialEq)]
pub(super) struct Cell {
    pub(super) name: String,
    pub(super) x: f64,
    pub(super) y: f64,
    pub(super) w: f64,
    pub(super) h: f64,
}

/// Reads the value of `attr="…"` in `tag`.
fn attr<'a>(tag: &'a str, attr: &str) -> Option<&'a str> {
    let at = tag.find(&format!(" {attr}=\""))? + attr.len() + 3;
    let end = tag[at..].find('"')?;
    Some(&tag[at..at + end])
}

/// Cuts a linked board's SVG into the picture without its links and the cells of the links
/// (every board draws them last, as `<g class="points">` of `<a data-p="…"><rect …/></a>`).
pub(super) fn cells(svg: &str) -> Option<(&str, Vec<Cell>, (f64, f64))> {
    let start = svg.find("<g class=\"points\"")?;
    let view = attr(svg, "viewBox")?;
    let mut dims = view
        .split(' ')
        .filter_map(|n| n.parse::<f64>().ok())
        .skip(2);
    let size = (dims.next()?, dims.next()?);
    let mut out = Vec::new();
    for link in svg[start..].split("<a ").skip(1) {
        let num = |a| attr(link, a).and_then(|v| v.parse::<f64>().ok());
        let (Some(name), Some(x), Some(y), Some(w), Some(h)) = (
            attr(link, "data-p"),
            num("x"),
            num("y"),
            num("width"),
            num("height"),
        ) else {
            continue;
        };
        out.push(Cell {
            name: name.to_string(),
            x,
            y,
            w,
            h,
        });
    }
    Some((&svg[..start], out, size))
}

/// The board of `problem` with a heat map: each point or square in `counts` shaded by its
/// share of the answers, the count written on it, and those in `right` ringed.
pub(super) fn heat_board(
    problem: &Problem,
    counts: &BTreeMap<String, usize>,
    right: &HashSet<String>,
    lang: Lang,
) -> String {
    let start = judge(problem, Progress::default(), Input::None);
    let href = |_: Action| String::from("#");
    let svg = problem.puzzle.board(&BoardRequest {
        shown: &start.shown,
        picked: &[],
        selected: None,
        href: Some(&href),
        lang,
        title: problem.prompt.get(lang),
    });
    let Some((picture, cells, (width, height))) = cells(&svg) else {
        // A board without links (a count): the picture as it is.
        return problem.puzzle.board(&BoardRequest {
            shown: &start.shown,
            picked: &[],
            selected: None,
            href: None,
            lang,
            title: problem.prompt.get(lang),
        });
    };
    // The links of edge points reach the picture's edge: the inner cells give the size.
    let cell = cells
        .iter()
        .map(|c| c.w.min(c.h))
        .fold(f64::INFINITY, f64::min);
    let most = counts.values().copied().max().unwrap_or(1).max(1) as f64;
    let mut out = picture.replacen("role=\"group\"", "role=\"img\"", 1);
    out.push_str("<g class=\"heat\">");
    for c in &cells {
        let n = counts.get(&c.name).copied().unwrap_or(0);
        let is_right = right.contains(&c.name);
        if n == 0 && !is_right {
            continue;
        }
        let cx = if c.x <= 0.0 {
            c.x + c.w - cell / 2.0
        } else {
            c.x + c.w.min(cell) / 2.0
        };
        let cy = if c.y <= 0.0 {
            c.y + c.h - cell / 2.0
        } else {
            c.y + c.h.min(cell) / 2.0
        };
        let (cx, cy) = (cx.min(width - cell / 2.0), cy.min(height - cell / 2.0));
        let (x0, y0) = (cx - cell / 2.0, cy - cell / 2.0);
        let _ = write!(out, "<g class=\"heat-cell\" data-p=\"{}\">", c.name);
        if n > 0 {
            let _ = write!(
                out,
                "<rect x=\"{x0:.1}\" y=\"{y0:.1}\" width=\"{cell:.1}\" height=\"{cell:.1}\" \
                 fill=\"#d9480f\" fill-opacity=\"{:.2}\"/>\
                 <text x=\"{cx:.1}\" y=\"{cy:.1}\" font-size=\"{:.1}\" font-weight=\"bold\" \
                 text-anchor=\"middle\" dominant-baseline=\"central\" fill=\"#111\" \
                 stroke=\"#fff\" stroke-width=\"{:.1}\" paint-order=\"stroke\" {}>{n}</text>",
                0.25 + 0.5 * n as f64 / most,
                cell * 0.55,
                cell * 0.12,
                crate::render::svg::FONT,
            );
        }
        if is_right {
            let _ = write!(
                out,
                "<rect class=\"heat-right\" x=\"{:.1}\" y=\"{:.1}\" width=\"{:.1}\" height=\"{:.1}\" \
                 fill=\"none\" stroke=\"#1b7d25\" stroke-width=\"{:.1}\"/>",
                x0 + cell * 0.06,
                y0 + cell * 0.06,
                cell * 0.88,
                cell * 0.88,
                cell * 0.12
            );
        }
        out.push_str("</g>");
    }
    out.push_str("</g></svg>");
    out
}

/// The points or squares of the right first moves (or, for a `select` question, of the
/// answer).
fn right_targets(game: Game, problem: &Problem) -> HashSet<String> {
    let puzzle = &problem.puzzle;
    match puzzle.input() {
        Takes::Pick { .. } => puzzle.answer().into_iter().collect(),
        Takes::Count(_) => HashSet::new(),
        _ => puzzle
            .lines()
            .correct_lines()
            .iter()
            .filter_map(|l| l.first())
            .filter_map(|m| target(game, m))
            .collect(),
    }
}

/// The first move of the main line (or the answer of a count or `select` question) as the
/// learner reads it.
pub(super) fn answer_text(problem: &Problem) -> String {
    let puzzle = &problem.puzzle;
    match puzzle.input() {
        Takes::Pick { .. } | Takes::Count(_) => puzzle.answer().join(" "),
        _ => puzzle
            .lines()
            .main_line()
            .first()
            .map(|m| puzzle.notation(&[], m))
            .unwrap_or_default(),
    }
}

/// The answers so far, as the teacher sees them.
#[derive(Serialize)]
pub(super) struct Tally {
    pub(super) round: u64,
    pub(super) revealed: bool,
    pub(super) answered: usize,
    pub(super) here: usize,
    pub(super) class_size: usize,
    /// Points or squares, with how many chose each and whether it is right (after the
    /// reveal).
    pub(super) heat: Vec<HeatCell>,
}

#[derive(Serialize)]
pub(super) struct HeatCell {
    pub(super) p: String,
    pub(super) n: usize,
    pub(super) right: bool,
}

/// One row of the teacher's answer table.
pub(super) struct AnswerRow {
    pub(super) answer: String,
    pub(super) count: usize,
    pub(super) right: bool,
}

/// Counts what a board holds.
pub(super) fn tally(
    board: &LiveBoard,
    game: Game,
    problem: &Problem,
) -> (Tally, Vec<AnswerRow>, Vec<(String, usize)>) {
    let r = board.lock();
    let mut by_answer: BTreeMap<String, (usize, bool)> = BTreeMap::new();
    let mut by_target: BTreeMap<String, usize> = BTreeMap::new();
    for a in r.answers.values() {
        let e = by_answer.entry(a.played.clone()).or_insert((0, a.right()));
        e.0 += 1;
        if let Some(t) = target(game, &a.played) {
            *by_target.entry(t).or_insert(0) += 1;
        }
    }
    let right = if r.revealed {
        let mut right = right_targets(game, problem);
        right.extend(
            r.answers
                .values()
                .filter(|a| a.right())
                .filter_map(|a| target(game, &a.played)),
        );
        right
    } else {
        HashSet::new()
    };
    let mut rows: Vec<AnswerRow> = by_answer
        .into_iter()
        .map(|(played, (count, ok))| AnswerRow {
            answer: problem.puzzle.notation(&[], &played),
            count,
            right: ok && r.revealed,
        })
        .collect();
    rows.sort_by(|a, b| b.count.cmp(&a.count).then(a.answer.cmp(&b.answer)));
    let mut heat: Vec<HeatCell> = by_target
        .iter()
        .map(|(p, n)| HeatCell {
            p: p.clone(),
            n: *n,
            right: right.contains(p),
        })
        .collect();
    heat.extend(
        right
            .iter()
            .filter(|p| !by_target.contains_key(*p))
            .map(|p| HeatCell {
                p: p.clone(),
                n: 0,
                right: true,
            }),
    );
    let here = r.here.values().filter(|t| t.elapsed() < HERE).count();
    (
        Tally {
            round: r.number,
            revealed: r.revealed,
            answered: r.answers.len(),
            here,
            class_size: r.class_size,
            heat,
        },
        rows,
        by_target.into_iter().collect(),
    )
}

/// The teacher's view of the answers: the heat map, the counts, the table.
#[derive(Template)]
#[template(path = "live_tally.html")]
pub(super) struct TallyView {
    pub(super) ui: &'static Ui,
    pub(super) board: String,
    pub(super) counts: String,
    pub(super) revealed: bool,
    pub(super) answer: String,
    pub(super) rows: Vec<AnswerRow>,
}
