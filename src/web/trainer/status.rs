//! What a problem page says: its status, the solution, why a move is wrong.

use super::*;

#[derive(Template)]
#[template(path = "status.html")]
struct StatusView {
    kind: &'static str,
    headline: String,
    message: String,
    explanation: String,
    explanation_title: String,
    choices: Vec<Item>,
    /// A picture for each choice (a promotion's piece, SVG drawn here), or none.
    pictures: Vec<String>,
    other_lines: Vec<String>,
    other_lines_title: String,
    take_back: Option<Item>,
    retry: Option<Item>,
    next: Option<Item>,
    /// "Show why": the solver's proof or refutation, step by step (Go life and death).
    why: Option<Item>,
}

/// The verdict and what the learner may do next, as an HTML fragment.
pub(crate) fn status(
    game: Game,
    set: &ProblemSet,
    problem: &Problem,
    judged: &Judged,
    lang: Lang,
) -> Result<String, askama::Error> {
    let ui = Ui::get(lang);
    let base = problem_href(game, set, problem);
    let next = set
        .next_after(&problem.id)
        .filter(|_| judged.solved)
        .map(|p| Item::link(problem_href(game, set, p), ui.next_problem.clone()));
    let place = Place {
        href: &|q| problem_query(&base, q),
        next,
        explain: true,
    };
    status_at(problem, judged, lang, &place)
}

/// The verdict and what the learner may do next at `place`, as an HTML fragment.
pub(crate) fn status_at(
    problem: &Problem,
    judged: &Judged,
    lang: Lang,
    place: &Place,
) -> Result<String, askama::Error> {
    let ui = Ui::get(lang);
    let at = place.href;
    let total = problem.puzzle.select_total();
    let count = |found: usize| {
        [
            ("found", found.to_string()),
            ("total", total.unwrap_or(0).to_string()),
        ]
    };
    let progress = |found: usize| {
        let c = count(found);
        fill(
            &ui.select_progress,
            &[("found", &c[0].1), ("total", &c[1].1)],
        )
    };
    let (kind, headline, message) = match &judged.verdict {
        None if judged.solved => ("solved", ui.solved.clone(), String::new()),
        None => match problem.puzzle.input() {
            Takes::Pick { .. } => (
                "ready",
                ui.your_pick.clone(),
                progress(judged.progress.picked.len()),
            ),
            Takes::Count(_) => ("ready", ui.your_count.clone(), String::new()),
            Takes::Piece { choose } if !judged.choices.is_empty() => (
                "ready",
                ui.key(choose).unwrap_or(choose).to_string(),
                String::new(),
            ),
            _ if judged.progress.selected.is_some() => {
                ("ready", ui.your_destination.clone(), String::new())
            }
            Takes::Point => ("ready", ui.your_move.clone(), String::new()),
            Takes::Piece { .. } => ("ready", ui.your_piece.clone(), String::new()),
        },
        Some(Verdict::Correct { solved: true, .. }) | Some(Verdict::Found { solved: true, .. }) => {
            ("solved", ui.solved.clone(), String::new())
        }
        Some(Verdict::Correct { reply, .. }) => (
            "correct",
            ui.correct.clone(),
            reply
                .as_ref()
                .map(|r| {
                    let before = &judged.progress.moves[..judged.progress.moves.len() - 1];
                    let shown = problem.puzzle.notation(before, r);
                    fill(&ui.opponent_replied, &[("move", &shown)])
                })
                .unwrap_or_default(),
        ),
        Some(Verdict::Wrong { why, shown }) => {
            let at = judged.progress.moves.len() + 1;
            let mut msg = shown
                .get(at)
                .map(|r| {
                    let r = problem.puzzle.notation(&shown[..at], r);
                    fill(&ui.wrong_refuted, &[("move", &r)]) + " "
                })
                .unwrap_or_default();
            msg.push_str(
                why.as_ref()
                    .map(|w| w.get(lang))
                    .unwrap_or(&ui.wrong_general),
            );
            ("wrong", ui.wrong.clone(), msg)
        }
        Some(Verdict::Illegal { reason }) => {
            ("illegal", ui.illegal.clone(), reason.get(lang).into())
        }
        Some(Verdict::Found { picked, .. }) => {
            let c = count(picked.len());
            (
                "found",
                fill(&ui.found, &[("found", &c[0].1), ("total", &c[1].1)]),
                String::new(),
            )
        }
        Some(Verdict::NotAnswer { why, picked }) => (
            "not-answer",
            ui.not_answer.clone(),
            format!("{} {}", why.get(lang), progress(picked.len())),
        ),
        Some(Verdict::Invalid { why }) => ("invalid", ui.illegal.clone(), why.get(lang).into()),
    };
    let solved = judged.solved;
    let wrong = matches!(judged.verdict, Some(Verdict::Wrong { .. }));
    let query = judged.progress.query();
    let started = !judged.progress.moves.is_empty() || !judged.progress.picked.is_empty();
    let counting = matches!(problem.puzzle.input(), Takes::Count(_));
    StatusView {
        kind,
        headline,
        message,
        explanation: if solved && place.explain {
            [
                problem
                    .explanation
                    .as_ref()
                    .map(|e| e.get(lang).to_string()),
                problem.puzzle.solved_note(lang),
            ]
            .into_iter()
            .flatten()
            .collect::<Vec<_>>()
            .join("\n\n")
        } else {
            String::new()
        },
        explanation_title: ui.explanation.clone(),
        other_lines: if solved {
            problem
                .puzzle
                .lines()
                .correct_lines()
                .into_iter()
                .filter(|l| {
                    !judged.progress.moves.starts_with(l) && !l.starts_with(&judged.progress.moves)
                })
                .map(|l| {
                    (0..l.len())
                        .map(|i| problem.puzzle.notation(&l[..i], &l[i]))
                        .collect::<Vec<_>>()
                        .join(" ")
                })
                .collect()
        } else {
            Vec::new()
        },
        other_lines_title: ui.other_lines.clone(),
        choices: judged
            .choices
            .iter()
            .map(|(label, mv)| Item::link(at(&format!("{query}play={}", enc(mv))), label.get(lang)))
            .collect(),
        pictures: judged
            .choices
            .iter()
            .map(|(_, mv)| {
                problem
                    .puzzle
                    .choice_picture(&judged.progress.moves, mv, lang)
            })
            .collect::<Option<Vec<String>>>()
            .unwrap_or_default(),
        // A count has no move to take back: it starts again.
        take_back: (wrong && !counting)
            .then(|| Item::link(at(query.trim_end_matches('&')), &ui.take_back)),
        why: why_link(problem, judged, at).map(|href| Item::link(href, &ui.show_why)),
        retry: (solved || started || (wrong && counting)).then(|| Item::link(at(""), &ui.retry)),
        next: (place.next.as_ref())
            .filter(|_| solved)
            .map(|n| Item::link(n.href.clone(), &n.title)),
    }
    .render()
}

/// The solution, shown step by step: the main line's first `step` moves (or, for a `select`
/// question, every point of the answer), as a board and a status fragment.
pub(crate) fn solution(
    game: Game,
    set: &ProblemSet,
    problem: &Problem,
    step: usize,
    lang: Lang,
) -> Result<(String, String), askama::Error> {
    let ui = Ui::get(lang);
    let base = problem_href(game, set, problem);
    let main = problem.puzzle.lines().main_line();
    let step = step.clamp(1, main.len().max(1));
    let answer = problem.puzzle.answer();
    let judged = Judged {
        verdict: None,
        progress: Progress {
            moves: Vec::new(),
            picked: answer.clone(),
            selected: None,
        },
        shown: main[..step.min(main.len())].to_vec(),
        solved: false,
        open: false,
        choices: Vec::new(),
    };
    let board = board(game, set, problem, &judged, lang);
    let mut steps = Vec::new();
    if step > 1 {
        steps.push(Item::link(
            format!("{base}?solution={}", step - 1),
            format!("← {}", ui.prev_step),
        ));
    }
    if step < main.len() {
        steps.push(Item::link(
            format!("{base}?solution={}", step + 1),
            format!("{} →", ui.next_step),
        ));
    }
    let line = if answer.is_empty() {
        line_html(problem, &main, 0, step)
    } else {
        answer
            .iter()
            .map(|a| problem.puzzle.answer_words(a, lang))
            .collect::<Vec<_>>()
            .join(" ")
    };
    let status = StatusView {
        kind: "solution",
        headline: ui.solution_is.clone(),
        message: line,
        explanation: problem
            .explanation
            .as_ref()
            .map(|e| e.get(lang).to_string())
            .unwrap_or_default(),
        explanation_title: ui.explanation.clone(),
        choices: steps,
        pictures: Vec::new(),
        other_lines: Vec::new(),
        other_lines_title: String::new(),
        take_back: None,
        why: None,
        retry: Some(Item::link(base, ui.retry.clone())),
        next: set
            .next_after(&problem.id)
            .map(|p| Item::link(problem_href(game, set, p), ui.next_problem.clone())),
    }
    .render()?;
    Ok((board, status))
}

/// `line[from..]` in the game's notation, HTML-escaped, the moves before `upto` in bold.
fn line_html(problem: &Problem, line: &[String], from: usize, upto: usize) -> String {
    (from..line.len())
        .map(|i| {
            let m = crate::web::kit::escape(&problem.puzzle.notation(&line[..i], &line[i]));
            if i < upto {
                format!("<b>{m}</b>")
            } else {
                m
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// The "show why" address for a solved or failed Go life-and-death problem: the proof
/// from the start once solved, the refutation of the wrong move after a wrong one.
fn why_link(problem: &Problem, judged: &Judged, at: &dyn Fn(&str) -> String) -> Option<String> {
    if !problem.puzzle.has_why() {
        return None;
    }
    match &judged.verdict {
        Some(Verdict::Wrong { shown, .. }) => {
            let wrong = shown.get(judged.progress.moves.len())?;
            Some(at(&format!(
                "{}w={}&why=1",
                judged.progress.query(),
                enc(wrong)
            )))
        }
        _ if judged.solved => Some(at("why=1")),
        _ => None,
    }
}

/// "Show why", step by step: the board after `step` moves of the solver's line and a
/// status fragment with the line, as lesson diagrams step. With `wrong`, the line is the
/// refutation of the learner's wrong move after `progress`; without, the proof.
pub(crate) fn why(
    game: Game,
    set: &ProblemSet,
    problem: &Problem,
    progress: &Progress,
    wrong: Option<&str>,
    step: usize,
    lang: Lang,
) -> Result<(String, String), askama::Error> {
    let ui = Ui::get(lang);
    let base = problem_href(game, set, problem);
    let query = progress.query();
    let found = problem.puzzle.why_line(&progress.moves, wrong);
    let (line, from, explanation) = match &found {
        Some(WhyLine::Proof(line)) => (line.clone(), 0, ui.why_proof.clone()),
        Some(WhyLine::Refutation(line)) => (
            line.clone(),
            progress.moves.len(),
            fill(
                &ui.why_refutation,
                &[(
                    "move",
                    &problem
                        .puzzle
                        .notation(&progress.moves, wrong.unwrap_or("")),
                )],
            ),
        ),
        None => (
            progress.moves.clone(),
            progress.moves.len(),
            ui.why_unknown.clone(),
        ),
    };
    let steps = line.len() - from;
    let step = step.clamp(1, steps.max(1));
    let judged = Judged {
        verdict: None,
        progress: progress.clone(),
        shown: line[..(from + step).min(line.len())].to_vec(),
        solved: false,
        open: false,
        choices: Vec::new(),
    };
    let board = board(game, set, problem, &judged, lang);
    let wrong_q = wrong.map_or(String::new(), |w| format!("w={}&", enc(w)));
    let at = |n: usize| format!("{base}?{query}{wrong_q}why={n}");
    let mut choices = Vec::new();
    if step > 1 {
        choices.push(Item::link(at(step - 1), format!("← {}", ui.prev_step)));
    }
    if step < steps {
        choices.push(Item::link(at(step + 1), format!("{} →", ui.next_step)));
    }
    let status = StatusView {
        kind: "solution",
        headline: ui.why_title.clone(),
        message: line_html(problem, &line, from, from + step),
        explanation,
        explanation_title: ui.explanation.clone(),
        choices,
        pictures: Vec::new(),
        other_lines: Vec::new(),
        other_lines_title: String::new(),
        take_back: wrong.map(|_| Item::link(format!("{base}?{query}"), ui.take_back.clone())),
        why: None,
        retry: Some(Item::link(base.clone(), ui.retry.clone())),
        next: None,
    }
    .render()?;
    Ok((board, status))
}
