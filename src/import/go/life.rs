//! Imported Go problems proven by the life-and-death solver: the goal (live or kill) is
//! inferred where the file does not say it, the book's answer is proven, and the solver's
//! main line after each book move is written out, so that the problem plays to the end.
//! Where the solver and the book disagree, the problem keeps the book's answer as a `best`
//! problem, with a note for the author saying so: never silently. The learner is told that
//! the book's answer fails only when two more readings confirm the solver's: a search with
//! the whole corner as the region, and an independent [`SecondReading`] (GNU Go's owl
//! reading, where it is installed). A solver is fitted to the problems it was developed on;
//! a learner who is told a published book is wrong must be told so only where it is.
//!
//! ```
//! use qiyuan::import::{life::prove_life_and_death, tsumego_json, Goal};
//! use qiyuan::rules::go::life::Budget;
//! // White's corner group, walled in; Black to play. The book's answer: B1 (SGF `ba`).
//! //   . . . O X . .      (row 3)
//! //   O O O O X . .      (row 2)
//! //   . . . O X . .      (row 1)
//! let line = r#"{"file": "Prob0001.json", "SZ": "19",
//!   "AB": ["ep", "eq", "er", "es"], "AW": ["dp", "aq", "bq", "cq", "dq", "ds"],
//!   "C": "Black to play", "SOL": [["B", "bs", "Correct.", ""]]}"#.replace('\n', " ");
//! let mut got = tsumego_json::import("t.jsonl", &line, None);
//! // A node budget on one thread, so that the answer does not depend on the machine.
//! let budget = Budget {
//!     nodes: 2_000_000,
//!     time: std::time::Duration::from_secs(600),
//!     threads: 1,
//! };
//! let summary = prove_life_and_death(&mut got.problems, budget, None);
//! assert_eq!(summary.proven, 1);
//! assert_eq!(got.problems[0].goal, Goal::Kill);
//! assert_eq!(got.problems[0].solutions[0][0], "B1");
//! ```

use crate::base::Text;
use crate::import::{Goal, ImportedProblem, Setup};
use crate::rules::go::life::{self, Budget, Outcome};
use crate::rules::go::{Color, Move, Point, Position};

/// What a second reading, independent of the solver, makes of a book move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reading {
    /// The book's move reaches its goal.
    Holds,
    /// It reaches its goal only through a ko.
    Ko,
    /// It does not reach its goal.
    Fails,
}

/// A reading of life and death that is not the solver's own (GNU Go's owl code, through
/// `play::engine::owl`), asked before a learner is told that a book's answer fails.
pub trait SecondReading {
    /// What `book_move`, played from `before`, gets of `goal` for the group of the
    /// defender's stone at `target` (which stands after the move); `None` where the reader
    /// cannot tell.
    fn read(
        &mut self,
        before: &Position,
        book_move: Move,
        goal: life::Goal,
        target: Point,
    ) -> Option<Reading>;
    /// The reader's name, for the author's notes: `GNU Go 3.8's owl reading`.
    fn name(&self) -> String;
}

/// What the solver made of a batch of imported problems.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LifeSummary {
    /// The book's every first move proven: written as `live` or `kill`.
    pub proven: usize,
    /// A book move refuted by the solver: kept as `best`, with a note for the author.
    pub disagree: usize,
    /// Of those, the refutations that the whole corner and the second reading confirm: the
    /// learner is told.
    pub confirmed: usize,
    /// Not decided within the budget: kept as it was, with a note.
    pub unknown: usize,
}

/// Proves the Go problems among `problems` whose goal is `best`, `live` or `kill`, within
/// `budget` for each question, and rewrites them as the solver finds (see the module).
/// Without a `second` reading, no learner is told that a book's answer fails.
pub fn prove_life_and_death(
    problems: &mut [ImportedProblem],
    budget: Budget,
    mut second: Option<&mut dyn SecondReading>,
) -> LifeSummary {
    let mut summary = LifeSummary::default();
    for p in problems.iter_mut() {
        if !matches!(p.goal, Goal::Best | Goal::Live | Goal::Kill) || p.solutions.is_empty() {
            continue;
        }
        let Setup::Go { start, .. } = &p.setup else {
            continue;
        };
        let start = start.clone();
        match prove_one(&start, p, budget, second.as_deref_mut()) {
            Proof::Proven => summary.proven += 1,
            Proof::Disagree { confirmed } => {
                summary.disagree += 1;
                summary.confirmed += usize::from(confirmed);
            }
            Proof::Unknown => summary.unknown += 1,
            Proof::NotLifeAndDeath => {}
        }
    }
    summary
}

enum Proof {
    Proven,
    /// The solver refutes a book move; `confirmed` where the learner is told.
    Disagree {
        confirmed: bool,
    },
    Unknown,
    NotLifeAndDeath,
}

/// The goals to try: the file's, or the inferred one first and then the other.
fn goals_to_try(start: &Position, goal: Goal) -> Vec<life::Goal> {
    match goal {
        Goal::Live => vec![life::Goal::Live],
        Goal::Kill => vec![life::Goal::Kill],
        _ => {
            let first = life::infer_goal(start);
            let other = match first {
                life::Goal::Live => life::Goal::Kill,
                life::Goal::Kill => life::Goal::Live,
            };
            vec![first, other]
        }
    }
}

fn names(moves: &[Move], size: u8) -> String {
    moves
        .iter()
        .map(|m| m.name(size))
        .collect::<Vec<_>>()
        .join(" ")
}

fn prove_one<'r>(
    start: &Position,
    p: &mut ImportedProblem,
    budget: Budget,
    second: Option<&mut (dyn SecondReading + 'r)>,
) -> Proof {
    let size = start.size();
    let firsts: Option<Vec<Move>> = p
        .solutions
        .iter()
        .map(|line| line.first().and_then(|m| Move::parse(m, size).ok()))
        .collect();
    let Some(firsts) = firsts else {
        return Proof::NotLifeAndDeath;
    };
    let mut undecided = false;
    // The first goal under which the solver proves every book move; else what refutes one.
    let mut refuted: Option<(life::Goal, Move, life::Judgement, Vec<Point>, Color)> = None;
    // What the whole corner says where the derived region refutes the book (see below).
    let mut corner = Corner::NotSearched;
    let goals = goals_to_try(start, p.goal);
    for &goal in &goals {
        let Ok(problem) =
            life::Problem::new(start, goal, life::Target::Inferred, life::Region::Auto)
        else {
            continue;
        };
        match judge_book(start, &problem, &firsts, book_says_ko(p), budget) {
            Book::Proven { lines, kos } => {
                write_proven(p, start, goal, kos, &lines);
                return Proof::Proven;
            }
            Book::Undecided => undecided = true,
            Book::Refuted(mv, j) => {
                // The derived region is a heuristic: a refutation of the book under the
                // first goal is searched again with the whole corner as the region, which
                // decides where it can (before the other goal is tried).
                if goal == goals[0] {
                    match corner_opinion(start, p, &problem, goal, &firsts, budget) {
                        Ok(()) => return Proof::Proven,
                        Err(found) => corner = found,
                    }
                }
                if refuted.is_none() {
                    refuted = Some((goal, mv, j, problem.target().to_vec(), problem.defender()));
                }
            }
            Book::Illegal => {}
        }
    }
    // A refutation under the inferred goal is a disagreement even when the other goal is
    // undecided; one under the other goal only when nothing was left undecided.
    let refuted_first = refuted.as_ref().is_some_and(|(g, ..)| *g == goals[0]);

    if !refuted_first && (undecided || refuted.is_none()) {
        p.notes.push(format!(
            "the life-and-death solver cannot prove the book's answer within {} positions a move: left as `{}`",
            budget.nodes,
            p.goal.as_str()
        ));
        return Proof::Unknown;
    }
    let Some((goal, mv, j, target, defender)) = refuted else {
        return Proof::Unknown;
    };
    let aim = match goal {
        life::Goal::Live => ("活", "live"),
        life::Goal::Kill => ("杀", "kill"),
    };
    let solver_ko = matches!(j.outcome, Outcome::Ko { .. });
    let line = names(&j.line, size);
    // The learner is told only what three readings agree on: the derived region, the whole
    // corner, and the second reading.
    let reading = match (&corner, second) {
        (Corner::Refuted(_), Some(reader)) => start.play_move(mv).ok().and_then(|after| {
            let stone = target
                .iter()
                .copied()
                .find(|&t| after.board().get(t) == Some(defender))?;
            reader
                .read(start, mv, goal, stone)
                .map(|r| (r, reader.name()))
        }),
        _ => None,
    };
    let confirmed = matches!(reading, Some((Reading::Fails | Reading::Ko, _)));
    let what = if solver_ko || matches!(reading, Some((Reading::Ko, _))) {
        ("只能打劫", "gives only a ko")
    } else {
        ("不成立", "fails")
    };
    let told = if confirmed {
        "kept as `best` with the book's answer, and the learner is told"
    } else {
        "kept as `best` with the book's answer; the learner is not told, as the refutation is not confirmed"
    };
    let second_note = match &reading {
        Some((r, name)) => format!(
            "; {name} finds that it {}",
            match r {
                Reading::Holds => "holds",
                Reading::Ko => "gives a ko",
                Reading::Fails => "fails",
            }
        ),
        None if matches!(corner, Corner::Refuted(_)) => {
            "; no second reading was made (GNU Go is not installed, or it could not tell)"
                .to_string()
        }
        None => String::new(),
    };
    p.notes.push(format!(
        "the life-and-death solver disagrees with the book: to {}, {} {} ({}){}{second_note}; {told}",
        aim.1,
        mv.name(size),
        what.1,
        line,
        corner.note(),
    ));
    p.goal = Goal::Best;
    if !confirmed {
        return Proof::Disagree { confirmed };
    }
    let note = Text {
        zh: format!(
            "注意：计算机认为书上的 {} {}（要{}的话，对方应 {}）。",
            mv.name(size),
            what.0,
            aim.0,
            line
        ),
        en: format!(
            "Note: the solver finds that the book's {} {} (to {}, the answer is {}).",
            mv.name(size),
            what.1,
            aim.1,
            line
        ),
    };
    p.explanation = Some(match p.explanation.take() {
        None => note,
        Some(e) => Text {
            zh: format!("{}\n\n{}", e.zh, note.zh),
            en: format!("{}\n\n{}", e.en, note.en),
        },
    });
    Proof::Disagree { confirmed }
}

/// What the whole corner made of a book move the derived region refutes.
enum Corner {
    /// Not searched (the refutation came under the other goal, or there is no corner).
    NotSearched,
    /// Refuted there too; the note names the corner.
    Refuted(String),
    /// Not decided there; the note says so.
    Undecided(String),
}

impl Corner {
    /// What the author's note says of it.
    fn note(&self) -> &str {
        match self {
            Corner::NotSearched => "",
            Corner::Refuted(note) | Corner::Undecided(note) => note,
        }
    }
}

/// Searches the book's first moves again in `problem` (of `goal`) with the whole corner as
/// the region: where it proves them, `p` is written proven with that `region`; else `Err`
/// says what the corner found.
fn corner_opinion(
    start: &Position,
    p: &mut ImportedProblem,
    problem: &life::Problem,
    goal: life::Goal,
    firsts: &[Move],
    budget: Budget,
) -> Result<(), Corner> {
    let Some((rect, corner)) = problem.whole_corner(start) else {
        return Err(Corner::NotSearched);
    };
    let name = crate::import::rectangle_name(rect, start.size());
    match judge_book(start, &corner, firsts, book_says_ko(p), budget) {
        Book::Proven { lines, kos } => {
            write_proven(p, start, goal, kos, &lines);
            p.region = Some(rect);
            p.notes.push(format!(
                "the region the life-and-death solver derives refutes the book's answer; with the whole corner ({name}) as the region the solver proves it: written with `region`"
            ));
            Ok(())
        }
        Book::Refuted(..) => Err(Corner::Refuted(format!(
            ", and so with the whole corner ({name}) as the region"
        ))),
        Book::Undecided | Book::Illegal => Err(Corner::Undecided(format!(
            "; with the whole corner ({name}) as the region it cannot decide within {} positions a move",
            budget.nodes
        ))),
    }
}

/// What the solver makes of the book's first moves in one problem.
enum Book {
    /// Every move proven (a ko where the book says ko): the solver's line after each.
    Proven { lines: Vec<Vec<Move>>, kos: bool },
    /// A move refuted, and how.
    Refuted(Move, life::Judgement),
    /// A move not decided within the budget.
    Undecided,
    /// A move the rules refuse.
    Illegal,
}

/// Judges the book's first moves `firsts` from `start` in `problem`, in turn, until one
/// fails; a ko is enough where `ko_enough` (the book says ko).
fn judge_book(
    start: &Position,
    problem: &life::Problem,
    firsts: &[Move],
    ko_enough: bool,
    budget: Budget,
) -> Book {
    let mut lines = Vec::new();
    let mut kos = false;
    for &mv in firsts {
        let Ok(j) = life::evaluate_move(start, problem, mv, budget) else {
            return Book::Illegal;
        };
        match j.outcome {
            Outcome::Win => lines.push(j.line),
            Outcome::Ko { .. } if ko_enough => {
                kos = true;
                lines.push(j.line);
            }
            Outcome::Unknown => return Book::Undecided,
            _ => return Book::Refuted(mv, j),
        }
    }
    Book::Proven { lines, kos }
}

/// Whether the book says its answer is a ko (a comment with "ko" or 劫).
fn book_says_ko(p: &ImportedProblem) -> bool {
    let texts = [Some(&p.prompt), p.explanation.as_ref()];
    texts.into_iter().flatten().any(|t| {
        t.zh.contains('劫')
            || t.en
                .to_lowercase()
                .split(|c: char| !c.is_alphanumeric())
                .any(|w| w == "ko")
    })
}

/// Writes a proven problem: its goal, the prompt saying it, and each book move followed by
/// the solver's main line (up to the learner's last move before any pass).
fn write_proven(
    p: &mut ImportedProblem,
    start: &Position,
    goal: life::Goal,
    ko: bool,
    lines: &[Vec<Move>],
) {
    let size = start.size();
    let to_play = start.turn();
    let new_goal = match goal {
        _ if ko => Goal::Ko,
        life::Goal::Live => Goal::Live,
        life::Goal::Kill => Goal::Kill,
    };
    if p.goal == Goal::Best && !ko {
        p.prompt = prompt_with_goal(&p.prompt, to_play, new_goal);
    }
    p.goal = new_goal;
    for (solution, after) in p.solutions.iter_mut().zip(lines) {
        if solution.len() > 1 {
            continue;
        }
        let rest: Vec<&Move> = after.iter().take_while(|m| **m != Move::Pass).collect();
        // The learner plays the moves at even places: end on one.
        let keep = if rest.len() % 2 == 1 {
            rest.len() - 1
        } else {
            rest.len()
        };
        solution.extend(rest[..keep].iter().map(|m| m.name(size)));
    }
}

/// The prompt with the inferred goal: the standard one where the file gave the standard
/// "to play", and "… to play: …" turned into "… to kill: …" in English.
fn prompt_with_goal(prompt: &Text, to_play: Color, goal: Goal) -> Text {
    let best = crate::import::standard_prompt(to_play, Goal::Best);
    let wanted = crate::import::standard_prompt(to_play, goal);
    let zh = if prompt.zh == best.zh {
        wanted.zh.clone()
    } else {
        prompt.zh.clone()
    };
    let colour = match to_play {
        Color::Black => "Black",
        Color::White => "White",
    };
    let play = format!("{colour} to play");
    let en = if prompt.en == best.en {
        wanted.en
    } else if let Some(rest) = prompt.en.strip_prefix(&play) {
        format!("{colour} to {}{rest}", goal.as_str())
    } else {
        prompt.en.clone()
    };
    Text { zh, en }
}
