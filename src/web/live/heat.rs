//! The teacher's heat map: where answers land, tallied and drawn over the board's cells.

use super::*;
use crate::render::svg::Heat;

/// Where a move lands: the point or square a heat map shades (a chess, shogi or xiangqi move's
/// destination, a Go point, a square picked); none for a count or a pass.
///
/// ```text
/// D4 → D4   e2e4 → e4   e7e8q → e8   P*5e → 5e   7g7f+ → 7f   41 → none
/// ```
pub(super) fn target(game: Game, played: &str) -> Option<String> {
    (game.kind().lands_on)(played)
}

/// The board of `problem` with a heat map: each point or square in `counts` shaded by its
/// share of the answers, the count written on it, and those in `right` ringed. The board
/// draws the cells itself, without links (a picture, `role="img"`); a board that counts
/// (a finished Go board) shows no heat.
pub(super) fn heat_board(
    problem: &Problem,
    counts: &BTreeMap<String, usize>,
    right: &HashSet<String>,
    lang: Lang,
) -> String {
    let start = judge(problem, Progress::default(), Input::None);
    let heat = Heat::new(counts, right);
    problem.puzzle.board(&BoardRequest {
        shown: &start.shown,
        picked: &[],
        selected: None,
        href: None,
        heat: Some(&heat),
        lang,
        title: problem.prompt.get(lang),
    })
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
