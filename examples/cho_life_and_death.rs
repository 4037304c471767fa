//! Proves the 900 Cho Chikun Elementary life-and-death problems of the corpus with the
//! solver (`qiyuan::rules::go::life`), compares with the book's first moves and, with
//! `--gnugo`, with GNU Go's owl reading (`owl_attack` / `owl_defend` on the target).
//!
//! Run with `scripts/life-and-death.sh` (release build), or
//! `cargo run --release --example cho_life_and_death -- [--gnugo] [--limit N] [--every N]
//! [--ms N] [--nodes N] [--all] [--only ID,ID] [--book-first] [--threads N]
//! [--file NAME --volume NAME] [--corner]` (`--file cho-intermediate-advanced.jsonl --volume
//! Advanced`: another file of the corpus, one volume of it; `--corner`: the whole corner as
//! the region from the start, the framed problem, in place of the derived region; `--every 6`:
//! the fixed sample of every sixth problem; `--all`: a line `= id goal outcome nodes time
//! search-time` for every problem, the time with the book's moves judged and the search's
//! own; `--only 310,358`: just those problems; `--book-first`: the book's first moves are
//! searched first, as the trainer searches an author's, which changes the order of the
//! search and never a result; `--threads 2`: each proof attempt searched by two threads
//! sharing one table, as on this machine's two cores; the default is one).
//! A book move the derived region refutes is searched again with the whole corner as the
//! region ([`Problem::whole_corner`]), as the importer does, within ten times the budget
//! (`--verify-ms N`, `--verify-nodes N`); where that proves it, the problem counts as
//! agreeing with the book. Where the whole corner cannot decide, the derived region may be
//! too tight: the problem is *contested*, and neither its verdict nor the refutation
//! counts as proven. A contested problem is judged under the other goal too (the book's
//! first move tells which side must live or kill, as in the importer); where every book
//! move works there, the problem is that goal's, and the verdict took both searches.
//! The corpus is read from `$QIYUAN_CORPUS` or `../shared/corpus`. Prints a summary and every
//! problem where the solver, the book or GNU Go disagree.

use qiyuan::import::{tsumego_json, ImportedProblem, Setup};
use qiyuan::rules::go::life::{
    evaluate_move, infer_goal, solve_keeping, BadProblem, Budget, Goal, Outcome, Problem, Region,
    Target, Verdict,
};
use qiyuan::rules::go::{Color, Move, Point, Position};
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::time::{Duration, Instant};

/// GNU Go over GTP, just enough for owl reading.
struct GnuGo {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

impl GnuGo {
    fn start() -> GnuGo {
        let path = std::env::var("GNUGO").unwrap_or_else(|_| "/usr/games/gnugo".into());
        let mut child = Command::new(&path)
            .args(["--mode", "gtp", "--chinese-rules"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start GNU Go at {path}: {e}"));
        let stdin = child.stdin.take().expect("piped");
        let stdout = BufReader::new(child.stdout.take().expect("piped"));
        GnuGo {
            child,
            stdin,
            stdout,
        }
    }

    fn ask(&mut self, command: &str) -> Result<String, String> {
        writeln!(self.stdin, "{command}")
            .and_then(|_| self.stdin.flush())
            .expect("GNU Go reads");
        let mut text = String::new();
        loop {
            let mut line = String::new();
            if self.stdout.read_line(&mut line).expect("GNU Go answers") == 0 {
                panic!("GNU Go stopped while answering `{command}`");
            }
            if line.trim().is_empty() {
                if text.is_empty() {
                    continue;
                }
                break;
            }
            text.push_str(&line);
        }
        let text = text.trim();
        match text.strip_prefix('=') {
            Some(rest) => Ok(rest.trim().to_string()),
            None => Err(text.trim_start_matches('?').trim().to_string()),
        }
    }

    /// Sets up `position` (stones only).
    fn set_up(&mut self, position: &Position) {
        let size = position.size();
        self.ask(&format!("boardsize {size}")).expect("boardsize");
        self.ask("clear_board").expect("clear_board");
        for color in [Color::Black, Color::White] {
            for p in position.board().stones(color).collect::<Vec<_>>() {
                self.ask(&format!("play {} {}", color.as_str(), p.name(size)))
                    .expect("set-up stone");
            }
        }
    }

    /// GNU Go's owl verdict for the side to play: `owl_attack` for a kill, `owl_defend` for
    /// a life, on the target's first stone. 0 fails, 1 succeeds, 2 and 3 are kos (4 and 5,
    /// a gain or a loss of other stones, are told apart).
    fn owl(&mut self, position: &Position, goal: Goal, target: Point) -> (u8, Option<String>) {
        self.set_up(position);
        let command = match goal {
            Goal::Kill => "owl_attack",
            Goal::Live => "owl_defend",
        };
        let answer = self
            .ask(&format!("{command} {}", target.name(position.size())))
            .unwrap_or_else(|e| panic!("{command}: {e}"));
        let mut words = answer.split_whitespace();
        let code = words.next().and_then(|w| w.parse().ok()).unwrap_or(0);
        (code, words.next().map(str::to_string))
    }
}

impl Drop for GnuGo {
    fn drop(&mut self) {
        let _ = writeln!(self.stdin, "quit");
        let _ = self.stdin.flush();
        let _ = self.child.wait();
    }
}

fn percentile(sorted: &[Duration], q: f64) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    sorted[((sorted.len() - 1) as f64 * q).round() as usize]
}

/// How the problems are proven: the budgets and the flags that change the search or the
/// output.
struct How {
    /// For each proof attempt and each question.
    budget: Budget,
    /// For the whole corner's second opinion on a book move the derived region refutes.
    verify: Budget,
    /// The book's first moves searched first.
    book_first: bool,
    /// A line for every problem.
    all: bool,
    /// The whole corner as the region from the start.
    corner: bool,
}

/// The book's first moves, judged under one goal.
struct BookMoves {
    /// No move refuted (a move left unknown is not refuted).
    ok: bool,
    /// How many moves are proven (a win or a ko).
    proven: usize,
    /// How many of those are proven only as a ko.
    kos: usize,
    /// A move the derived region refutes and the whole corner cannot decide: the region
    /// may be too tight, so neither the refutation nor the problem's verdict is a proof.
    unconfirmed: bool,
    /// What went wrong, for the report.
    notes: Vec<String>,
    /// The moves the derived region refutes and the whole corner proves: "id move".
    corner_proves: Vec<String>,
    /// Positions searched to judge them.
    nodes: u64,
}

/// One goal's proof of a problem, with the book's first moves judged under it.
struct Attempt {
    goal: Goal,
    problem: Problem,
    verdict: Verdict,
    book: BookMoves,
}

/// Proves `p` from `start` under `goal` (target inferred, region derived) and judges the
/// book's first moves. A move the derived region refutes is searched again with the whole
/// corner as the region ([`Problem::whole_corner`]), within the larger `verify` budget, as
/// the importer does: where that proves it, the derived region was too tight.
fn prove_under(
    start: &Position,
    p: &ImportedProblem,
    goal: Goal,
    how: &How,
) -> Result<Attempt, BadProblem> {
    let size = start.size();
    let problem = Problem::new(start, goal, Target::Inferred, Region::Auto)?;
    let problem = match (how.corner, problem.whole_corner(start)) {
        (true, Some((_, corner))) => corner,
        _ => problem,
    };
    // `--book-first`: the book's first moves are searched first, as the importer and the
    // trainer search an author's.
    let problem = if how.book_first {
        let firsts: Vec<Point> = p
            .solutions
            .iter()
            .filter_map(|line| start.board().point(line.first()?).ok())
            .collect();
        problem.with_first_moves(start, &firsts)
    } else {
        problem
    };
    let mut book = BookMoves {
        ok: true,
        proven: 0,
        kos: 0,
        unconfirmed: false,
        notes: Vec::new(),
        corner_proves: Vec::new(),
        nodes: 0,
    };
    let mut solution = solve_keeping(start, &problem, how.budget);
    let verdict = solution.verdict.clone();
    if verdict.outcome != Outcome::Unknown {
        for line in &p.solutions {
            let Ok(mv) = Move::parse(&line[0], size) else {
                continue;
            };
            let j = match solution.judge(mv) {
                Ok(j) => j,
                Err(e) => {
                    book.notes.push(format!("{} illegal: {e}", line[0]));
                    book.ok = false;
                    continue;
                }
            };
            book.nodes += j.nodes;
            if how.all {
                let after: Vec<String> = j.line.iter().map(|m| m.name(size)).collect();
                println!(
                    "  book {} {} ({}): {}",
                    line[0],
                    j.outcome.as_str(),
                    goal_name(goal),
                    after.join(" ")
                );
            }
            let j = match (j.outcome, problem.whole_corner(start)) {
                (Outcome::Loss, Some((_, corner))) => {
                    let again = evaluate_move(start, &corner, mv, how.verify).expect("legal");
                    book.nodes += again.nodes;
                    match again.outcome {
                        Outcome::Win | Outcome::Ko { .. } => {
                            book.corner_proves.push(format!("{} {}", p.id, line[0]));
                            again
                        }
                        Outcome::Unknown => {
                            book.unconfirmed = true;
                            book.notes.push("whole corner undecided".into());
                            j
                        }
                        Outcome::Loss => {
                            book.notes.push("whole corner agrees".into());
                            j
                        }
                    }
                }
                _ => j,
            };
            match j.outcome {
                Outcome::Win => book.proven += 1,
                Outcome::Ko { .. } => {
                    book.proven += 1;
                    book.kos += 1;
                }
                Outcome::Unknown => book.notes.push(format!("{} unknown", line[0])),
                Outcome::Loss => {
                    book.ok = false;
                    let reply = j.reply.map_or("-".into(), |m| m.name(size));
                    let refutation: Vec<String> = j.line.iter().map(|m| m.name(size)).collect();
                    book.notes.push(format!(
                        "{} refuted by {reply} ({})",
                        line[0],
                        refutation.join(" ")
                    ));
                }
            }
        }
    }
    drop(solution);
    Ok(Attempt {
        goal,
        problem,
        verdict,
        book,
    })
}

fn goal_name(goal: Goal) -> &'static str {
    match goal {
        Goal::Kill => "kill",
        Goal::Live => "live",
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let flag = |name: &str| args.iter().any(|a| a == name);
    // The word after `name`: `--only 310,358`.
    let word = |name: &str| {
        args.iter()
            .position(|a| a == name)
            .and_then(|i| args.get(i + 1))
    };
    let value = |name: &str| word(name).and_then(|v| v.parse::<u64>().ok());
    let limit = value("--limit").map(|n| n as usize);
    let budget = Budget {
        nodes: value("--nodes").unwrap_or(5_000_000),
        time: Duration::from_millis(value("--ms").unwrap_or(1000)),
        threads: value("--threads").unwrap_or(1).max(1) as usize,
    };
    // The whole corner's second opinion on a refuted book move: ten times the budget.
    let verify = Budget {
        nodes: value("--verify-nodes").unwrap_or(10 * budget.nodes),
        time: Duration::from_millis(
            value("--verify-ms").unwrap_or(10 * budget.time.as_millis() as u64),
        ),
        ..budget
    };
    let corpus = std::env::var("QIYUAN_CORPUS").unwrap_or_else(|_| "../shared/corpus".into());
    // `--file cho-intermediate-advanced.jsonl --volume Advanced`: another file of the
    // corpus, and only the lines of one volume (by its `collection`).
    let file = word("--file").map_or("cho-elementary.jsonl", |f| f.as_str());
    let path = format!("{corpus}/go/{file}");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let text: String = match word("--volume") {
        Some(volume) => text
            .lines()
            .filter(|l| l.contains(&format!("Life And Death - {volume}")))
            .map(|l| format!("{l}\n"))
            .collect(),
        None => text,
    };
    let mut imported = tsumego_json::import(file, &text, limit);
    // A fixed sample: every N-th problem (the 1st, the N+1-th, ...).
    if let Some(every) = value("--every").filter(|&n| n > 1) {
        let mut i = 0u64;
        imported.problems.retain(|_| {
            i += 1;
            (i - 1) % every == 0
        });
    }
    // Chosen problems by id: `--only 310,358`.
    if flag("--only") {
        let ids: Vec<&str> = word("--only").map_or(vec![], |v| v.split(',').collect());
        imported.problems.retain(|p| ids.contains(&p.id.as_str()));
    }
    let mut gnugo = flag("--gnugo").then(GnuGo::start);

    let (mut proven, mut agree, mut unknown, mut solver_loss) = (0, 0, 0, 0);
    let (mut ko, mut book_wrong) = (0, Vec::new());
    // Problems whose verdict and every book move are proven without a ko (the book gives
    // no ko in this corpus: a ko agrees with it only where GNU Go reads one too).
    let mut agree_no_ko = 0;
    // Problems proven only as a ko, and of those, where GNU Go's owl also reads a ko.
    let (mut ko_only, mut ko_gnugo_too) = (0, 0);
    // Book moves the derived region refutes and the whole corner proves.
    let mut corner_proves: Vec<String> = Vec::new();
    // Problems whose verdict the book contradicts where the whole corner cannot decide.
    let mut contested: Vec<String> = Vec::new();
    // Contested problems whose book moves work under the other goal.
    let mut goal_from_book: Vec<String> = Vec::new();
    // Problems proven by their own search (the book's moves not counted) in under 1 s.
    let mut proven_under_1s = 0;
    let mut times = Vec::new();
    let mut nodes_total = 0u64;
    let mut search_time = Duration::ZERO;
    let (mut gnugo_compared, mut gnugo_agree, mut gnugo_differ) = (0, 0, Vec::new());
    let how = How {
        budget,
        verify,
        book_first: flag("--book-first"),
        all: flag("--all"),
        corner: flag("--corner"),
    };
    for p in &imported.problems {
        let Setup::Go { start, .. } = &p.setup else {
            continue;
        };
        let size = start.size();
        let clock = Instant::now();
        let inferred = infer_goal(start);
        let mut attempt = match prove_under(start, p, inferred, &how) {
            Ok(attempt) => attempt,
            Err(e) => {
                println!("problem {}: cannot set up: {e}", p.id);
                continue;
            }
        };
        // Contested under the inferred goal: the book's first move tells which side must
        // live or kill, as in the importer. Where every book move works under the other
        // goal, the problem is that goal's.
        if attempt.book.unconfirmed {
            let other = match inferred {
                Goal::Live => Goal::Kill,
                Goal::Kill => Goal::Live,
            };
            if let Ok(mut again) = prove_under(start, p, other, &how) {
                if again.verdict.outcome != Outcome::Unknown
                    && again.book.proven == p.solutions.len()
                {
                    // The verdict took both searches.
                    again.verdict.elapsed += attempt.verdict.elapsed;
                    again.verdict.nodes += attempt.verdict.nodes;
                    again.book.nodes += attempt.book.nodes;
                    println!(
                        "problem {}: the goal is the book's: its moves are contested to {} and work to {}",
                        p.id,
                        goal_name(inferred),
                        goal_name(other)
                    );
                    goal_from_book.push(p.id.clone());
                    attempt = again;
                } else {
                    nodes_total += again.verdict.nodes + again.book.nodes;
                }
            }
        }
        let Attempt {
            goal,
            problem,
            verdict,
            book,
        } = attempt;
        nodes_total += book.nodes;
        corner_proves.extend(book.corner_proves);
        let (book_ok, book_notes) = (book.ok, &book.notes);
        let elapsed = clock.elapsed();
        // A verdict the book contradicts, where the whole corner cannot decide who is
        // right, is not counted as proven: the derived region may be too tight.
        let decided = verdict.outcome != Outcome::Unknown && !book.unconfirmed;
        if decided && verdict.elapsed < Duration::from_secs(1) {
            proven_under_1s += 1;
        }
        times.push(elapsed);
        nodes_total += verdict.nodes;
        search_time += elapsed;
        let line: Vec<String> = verdict.line.iter().map(|m| m.name(size)).collect();
        let book_firsts: Vec<&str> = p.solutions.iter().map(|l| l[0].as_str()).collect();
        if how.all {
            println!(
                "= {} {} {} {} {:?} {:?}",
                p.id,
                goal_name(goal),
                verdict.outcome.as_str(),
                verdict.nodes,
                elapsed,
                verdict.elapsed
            );
        }
        let goal_name = goal_name(goal);
        match verdict.outcome {
            _ if book.unconfirmed => {
                contested.push(p.id.clone());
                println!(
                    "problem {}: contested ({goal_name}, solver {} {}): {}",
                    p.id,
                    verdict.outcome.as_str(),
                    line.join(" "),
                    book_notes.join("; ")
                );
            }
            Outcome::Unknown => {
                unknown += 1;
                println!(
                    "problem {}: unknown ({goal_name}, region of {} points, {} nodes, {:?})",
                    p.id,
                    problem.region().len(),
                    verdict.nodes,
                    elapsed
                );
            }
            // The derived region finds no move, but the whole corner proves every book move.
            Outcome::Loss if book_ok && !p.solutions.is_empty() => {
                proven += 1;
                agree += 1;
                println!(
                    "problem {}: the derived region finds no move to {goal_name}; the whole corner proves the book's {:?}",
                    p.id,
                    book_firsts,
                );
            }
            Outcome::Loss => {
                proven += 1;
                solver_loss += 1;
                println!(
                    "problem {}: the side to play cannot {goal_name} (book {:?}; solver line {}) {}",
                    p.id,
                    book_firsts,
                    line.join(" "),
                    book_notes.join("; ")
                );
            }
            Outcome::Win | Outcome::Ko { .. } => {
                proven += 1;
                if matches!(verdict.outcome, Outcome::Ko { .. }) {
                    ko += 1;
                }
                if book_ok {
                    agree += 1;
                    if verdict.outcome == Outcome::Win && book.kos == 0 {
                        agree_no_ko += 1;
                    } else {
                        ko_only += 1;
                    }
                } else {
                    println!(
                        "problem {}: book move wrong ({goal_name}, solver {} {}): {}",
                        p.id,
                        verdict.outcome.as_str(),
                        line.join(" "),
                        book_notes.join("; ")
                    );
                    book_wrong.push(p.id.clone());
                }
            }
        }
        if let Some(g) = gnugo.as_mut() {
            if decided {
                let (code, owl_move) = g.owl(start, goal, problem.target()[0]);
                let ours = match verdict.outcome {
                    Outcome::Win => 1,
                    Outcome::Ko { .. } => 2,
                    _ => 0,
                };
                let theirs = match code {
                    0 => 0,
                    1 => 1,
                    2 | 3 => 2,
                    _ => 3,
                };
                gnugo_compared += 1;
                if ours == 2 && theirs == 2 {
                    ko_gnugo_too += 1;
                }
                if ours == theirs {
                    gnugo_agree += 1;
                } else {
                    gnugo_differ.push(p.id.clone());
                    println!(
                        "problem {}: GNU Go {} says {code} {} on {}, solver {} {} (book {:?})",
                        p.id,
                        if goal == Goal::Kill {
                            "owl_attack"
                        } else {
                            "owl_defend"
                        },
                        owl_move.unwrap_or_default(),
                        problem.target()[0].name(size),
                        verdict.outcome.as_str(),
                        line.join(" "),
                        book_firsts,
                    );
                }
            }
        }
    }
    let total = imported.problems.len();
    times.sort();
    let under_1s = times
        .iter()
        .filter(|t| **t < Duration::from_secs(1))
        .count();
    println!();
    println!(
        "problems: {total} (skipped on import: {})",
        imported.skipped.len()
    );
    println!(
        "proven: {proven} ({:.1}%), of which ko: {ko}",
        100.0 * proven as f64 / total as f64
    );
    println!(
        "proven in under 1 s (the problem's own search): {proven_under_1s} ({:.1}%)",
        100.0 * proven_under_1s as f64 / total as f64
    );
    println!("proven, no book first move refuted (unknown ones count as not refuted): {agree}");
    println!(
        "of those, proven without a ko (the book's answer as the book gives it): {agree_no_ko} ({:.1}%); only as a ko: {ko_only}{}",
        100.0 * agree_no_ko as f64 / total as f64,
        if gnugo.is_some() {
            format!(", of which GNU Go's owl also reads a ko: {ko_gnugo_too}")
        } else {
            String::new()
        }
    );
    println!("book move refuted: {} {:?}", book_wrong.len(), book_wrong);
    println!(
        "book move refuted in the derived region, proven with the whole corner: {} {:?}",
        corner_proves.len(),
        corner_proves
    );
    println!(
        "contested (a book move the derived region refutes, the whole corner cannot decide; not counted as proven): {} {:?}",
        contested.len(),
        contested
    );
    println!(
        "contested under the inferred goal, the book's moves proven under the other: {} {:?}",
        goal_from_book.len(),
        goal_from_book
    );
    println!("side to play loses (goal inferred wrong, or the book's problem not solvable by the model): {solver_loss}");
    println!(
        "unknown within the budget ({} nodes, {:?}): {unknown}",
        budget.nodes, budget.time
    );
    println!(
        "problems decided (with the book's moves judged) under 1 s: {under_1s} ({:.1}%)",
        100.0 * under_1s as f64 / total as f64
    );
    println!(
        "time per problem (solve + judging the book's moves): median {:?}, p95 {:?}, max {:?}",
        percentile(&times, 0.5),
        percentile(&times, 0.95),
        times.last().copied().unwrap_or_default()
    );
    println!(
        "nodes: {nodes_total}, {:.0} nodes/s",
        nodes_total as f64 / search_time.as_secs_f64().max(1e-9)
    );
    if gnugo.is_some() {
        println!(
            "GNU Go owl compared: {gnugo_compared}, agree: {gnugo_agree} ({:.1}%), differ: {} {:?}",
            100.0 * gnugo_agree as f64 / gnugo_compared.max(1) as f64,
            gnugo_differ.len(),
            gnugo_differ
        );
    }
}
