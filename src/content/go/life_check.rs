//! `qiyuan check`'s proof of the Go `live`, `kill` and `ko` problems: every learner move of
//! an author's correct line is proven by the life-and-death solver, every author's wrong
//! move is proven to fail (and the author's reply to refute it), and what the solver cannot
//! decide within its budget is a warning that names the budget.
//!
//! A finding sits on the line it speaks of, as `path:line:col`:
//!
//! ```text
//! problems/go/life-and-death.toml:31:14: error: solution `D7 E8 C8`: D7 fails: …
//! problems/go/life-and-death.toml:40:10: warning: wrong line `B2 C1`: …
//! ```
//!
//! It runs in `qiyuan check` only, not at every load: a proof may take a second.

use super::{GoPuzzle, LifeJudge};
use crate::content::diagnostic::{Diagnostic, Locator};
use crate::content::{Game, Library, Puzzle};
use crate::rules::go::life::{self, Budget, Outcome};
use crate::rules::go::{Color, Move, Position};
use serde::Deserialize;
use std::fmt;
use std::time::Duration;
use toml::Spanned;

/// The solver's budget for one question of `qiyuan check`: a node count, so that a check
/// gives the same answer on every machine (the time bound only stops a runaway search).
pub const CHECK_NODES: u64 = 1_000_000;

/// The budget of one question when `nodes` positions may be searched.
pub fn check_budget(nodes: u64) -> Budget {
    Budget {
        nodes,
        time: Duration::from_secs(60),
        // One thread: the same answer every time (and `check` runs problems on every
        // core already).
        threads: 1,
    }
}

/// What the proof of the L&D problems found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LifeFindings {
    /// The solver refutes an author's correct line, or finds an author's wrong line working.
    pub errors: Vec<Diagnostic>,
    /// The solver could not decide a line within its budget.
    pub warnings: Vec<Diagnostic>,
    /// How many problems were proven (every line of them decided).
    pub proven: usize,
    /// How many `live`/`kill`/`ko` problems were looked at.
    pub problems: usize,
}

/// A diagnostic shown as a warning: `path:line:col: warning: message`.
pub struct AsWarning<'a>(pub &'a Diagnostic);

impl fmt::Display for AsWarning<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let d = self.0;
        write!(f, "{}:{}:{}: warning: {}", d.path, d.line, d.col, d.message)
    }
}

/// The keys of a problem the check needs, with their places in the file. Every other key
/// has been checked by [`Library::load`] already.
#[derive(Deserialize)]
struct SpecLines {
    id: String,
    goal: String,
    #[serde(default)]
    solutions: Vec<Spanned<String>>,
    #[serde(default)]
    wrong: Vec<WrongLine>,
}

#[derive(Deserialize)]
struct WrongLine {
    line: Spanned<String>,
}

#[derive(Deserialize)]
struct SetLines {
    #[serde(default)]
    problem: Vec<SpecLines>,
}

/// Proves the `live`, `kill` and `ko` problems of the Go sets that `library` loaded from
/// `files`, each question within `budget`.
pub fn check_life_and_death(
    library: &Library,
    files: &[(String, String)],
    budget: Budget,
) -> LifeFindings {
    let mut found = LifeFindings::default();
    let Some(shelf) = library.shelf(Game::Go) else {
        return found;
    };
    for set in &shelf.sets {
        let Some((path, text)) = files.iter().find(|(p, _)| *p == set.path) else {
            continue;
        };
        let Ok(specs) = toml::from_str::<SetLines>(text) else {
            continue;
        };
        let loc = Locator::new(path, text);
        for spec in &specs.problem {
            if !matches!(spec.goal.as_str(), "live" | "kill" | "ko") {
                continue;
            }
            let Some(Puzzle::Go(puzzle)) = set.problem(&spec.id).map(|p| &p.puzzle) else {
                continue;
            };
            found.problems += 1;
            let before = (found.errors.len(), found.warnings.len());
            check_problem(puzzle, spec, &loc, budget, &mut found);
            if (found.errors.len(), found.warnings.len()) == before {
                found.proven += 1;
            }
        }
    }
    found
}

/// The moves of a written line, if every one reads (the load has checked them).
fn written(text: &Spanned<String>, size: u8) -> Option<Vec<Move>> {
    text.get_ref()
        .split_whitespace()
        .map(|m| Move::parse(m, size).ok())
        .collect()
}

fn check_problem(
    puzzle: &GoPuzzle,
    spec: &SpecLines,
    loc: &Locator,
    budget: Budget,
    found: &mut LifeFindings,
) {
    let size = puzzle.start.size();
    let at = |span: std::ops::Range<usize>, message: String| loc.at(span.start, message);
    let Some(judge) = &puzzle.life else {
        found.warnings.push(at(
            spec_span(spec),
            format!(
                "problem `{}`: the solver cannot set it up (no stones of the side that must live)",
                spec.id
            ),
        ));
        return;
    };
    let nodes = budget.nodes;
    let undecided = |what: String| {
        format!("{what}: the solver cannot decide it within its budget of {nodes} positions")
    };
    for text in &spec.solutions {
        let Some(line) = written(text, size) else {
            continue;
        };
        let mut pos = puzzle.start.clone();
        for (i, &mv) in line.iter().enumerate() {
            if i % 2 == 0 {
                let judged = life::evaluate_move(&pos, judge.problem(), mv, budget);
                let Ok(j) = judged else { break };
                let what = format!("solution `{}`: {}", text.get_ref(), mv.name(size));
                if j.outcome == Outcome::Unknown {
                    found.warnings.push(at(text.span(), undecided(what)));
                    break;
                }
                if !judge.keeps_goal(j.outcome) {
                    let why = refutation(judge, pos.turn(), &j, size);
                    found
                        .errors
                        .push(at(text.span(), format!("{what} fails: {why}")));
                    break;
                }
            }
            match pos.play_move(mv) {
                Ok(next) => pos = next,
                Err(_) => break,
            }
        }
    }
    for wrong in &spec.wrong {
        let Some(line) = written(&wrong.line, size) else {
            continue;
        };
        let names: Vec<String> = line.iter().map(|m| m.name(size)).collect();
        let Some(k) = (0..names.len()).find(|&k| !puzzle.lines.follows(&names[..=k])) else {
            continue;
        };
        let Some(pos) = replay(&puzzle.start, &line[..k]) else {
            continue;
        };
        let mv = line[k];
        let Ok(j) = life::evaluate_move(&pos, judge.problem(), mv, budget) else {
            continue;
        };
        let what = format!("wrong line `{}`: {}", wrong.line.get_ref(), names[k]);
        if j.outcome == Outcome::Unknown {
            found.warnings.push(at(wrong.line.span(), undecided(what)));
            continue;
        }
        if judge.keeps_goal(j.outcome) {
            let shown = moves_text(&j.line, size);
            found.errors.push(at(
                wrong.line.span(),
                format!(
                    "{what} actually works: the solver proves it{}; list it in `solutions` or fix the problem",
                    if shown.is_empty() { String::new() } else { format!(" (then {shown})") }
                ),
            ));
            continue;
        }
        // The author's reply must refute it: after it the learner cannot reach the goal.
        if line.len() < k + 2 {
            continue;
        }
        let Some(after) = replay(&pos, &line[k..k + 2]) else {
            continue;
        };
        let v = life::solve(&after, judge.problem(), budget);
        let reply = format!(
            "wrong line `{}`: the reply {}",
            wrong.line.get_ref(),
            line[k + 1].name(size)
        );
        if v.outcome == Outcome::Unknown {
            found.warnings.push(at(wrong.line.span(), undecided(reply)));
        } else if judge.keeps_goal(v.outcome) {
            found.errors.push(at(
                wrong.line.span(),
                format!(
                    "{reply} does not refute {}: after it the solver proves {}; answer with {} or fix the problem",
                    names[k],
                    moves_text(&v.line, size),
                    j.reply.map_or_else(|| "the solver's reply".to_string(), |r| r.name(size))
                ),
            ));
        }
    }
}

/// Where a problem's finding sits when it belongs to no line: its first solution, if any.
fn spec_span(spec: &SpecLines) -> std::ops::Range<usize> {
    spec.solutions.first().map_or(0..0, |s| s.span())
}

fn replay(start: &Position, moves: &[Move]) -> Option<Position> {
    moves
        .iter()
        .try_fold(start.clone(), |p, &m| p.play_move(m).ok())
}

fn moves_text(moves: &[Move], size: u8) -> String {
    moves
        .iter()
        .map(|m| m.name(size))
        .collect::<Vec<_>>()
        .join(" ")
}

/// How the solver refutes `mover`'s move that does not keep the goal.
fn refutation(judge: &LifeJudge, mover: Color, j: &life::Judgement, size: u8) -> String {
    let line = moves_text(&j.line, size);
    match j.outcome {
        Outcome::Ko { .. } => format!(
            "it only gives a ko ({line}); make the goal `ko`, or find the move that needs none"
        ),
        _ if judge.problem().defender() == mover => {
            format!("the solver kills the group with {line}")
        }
        _ => format!("the group lives after {line}"),
    }
}
