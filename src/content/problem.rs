//! Problems whatever their game: a problem, what every game's puzzle answers
//! ([`GamePuzzle`]), and the verdict on an attempt. The list of the games is above, in
//! `puzzle`.

use super::lines::LineTree;
use super::Diagram;
use crate::base::Text;
use crate::lang::Lang;
use crate::render::svg::Heat;

/// One problem of a set, whatever its game: `P` is the game-specific part (one game's puzzle
/// as the game reads it, or any game's [`Puzzle`](super::Puzzle) once the games are listed).
#[derive(Clone, Debug)]
pub struct ProblemOf<P> {
    /// Unique within the set; the problem's address.
    pub id: String,
    /// What the learner is asked to do.
    pub prompt: Text,
    /// 1 (easiest) to 5.
    pub difficulty: u8,
    /// A nudge, shown on request.
    pub hint: Option<Text>,
    /// Shown once solved.
    pub explanation: Option<Text>,
    /// The goal as written (`capture`, `select`, …).
    pub goal: String,
    /// The game-specific part: position, goal and lines.
    pub puzzle: P,
}

impl<P> ProblemOf<P> {
    /// The same problem with its game-specific part made another kind (`Puzzle::Go`).
    pub fn map<Q>(self, wrap: impl FnOnce(P) -> Q) -> ProblemOf<Q> {
        ProblemOf {
            id: self.id,
            prompt: self.prompt,
            difficulty: self.difficulty,
            hint: self.hint,
            explanation: self.explanation,
            goal: self.goal,
            puzzle: wrap(self.puzzle),
        }
    }
}

/// A diagram as one game reads it: its frames, without their tasks yet, and the tasks of some
/// frames (by index) in the game's own kind of puzzle `P`.
pub(crate) struct Tasked<P> {
    /// The frames, each with `task: None`.
    pub diagram: Diagram,
    /// The frame index and task of every frame that asks the learner to act.
    pub tasks: Vec<(usize, ProblemOf<P>)>,
}

/// What a link on a problem board does.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Action {
    /// Play this move (canonical name).
    Play(String),
    /// Pick up the piece on this square (or in hand, `P*`), or put it down (`None`).
    Select(Option<String>),
    /// Several moves go from `from` to `to` (promotion or not): ask which.
    Choose { from: String, to: String },
}

/// A request to draw a problem's board.
pub struct BoardRequest<'a> {
    /// The moves to show from the start position.
    pub shown: &'a [String],
    /// Points or squares found so far (`select`).
    pub picked: &'a [String],
    /// The piece the learner has picked up, if any.
    pub selected: Option<&'a str>,
    /// The address of each action; `None` when the board takes no clicks.
    pub href: Option<&'a dyn Fn(Action) -> String>,
    /// A heat map of answers to draw over the points or squares; `None` for none.
    pub heat: Option<&'a Heat>,
    /// The language of accessible names.
    pub lang: Lang,
    /// What the picture shows, for screen readers.
    pub title: &'a str,
}

/// What a problem takes from the learner.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Input {
    /// A click on a point (Go).
    Point,
    /// A piece picked up, then its destination (chess, shogi); `choose` is the locale key of
    /// the question asked when several moves go between the same squares (a promotion).
    Piece {
        /// A key of `locales/*.toml`.
        choose: &'static str,
    },
    /// Clicks on every point or square of the answer, `total` of them.
    Pick {
        /// How many make the answer.
        total: usize,
    },
    /// A number typed in a form (counting a finished Go board).
    Count(CountAsk),
}

/// What a `count` problem asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CountAsk {
    /// `ask = "black"`: Black's count (stones and points, or points and prisoners).
    Black,
    /// `ask = "white"`: White's count.
    White,
    /// `ask = "result"` (the default): who wins, by how much (`B+2.5`, `W+0.5`, `0`).
    Result,
}

impl CountAsk {
    /// The name in forms and scripts: `black`, `white`, `result`.
    pub fn name(self) -> &'static str {
        match self {
            CountAsk::Black => "black",
            CountAsk::White => "white",
            CountAsk::Result => "result",
        }
    }
}

/// A record format a problem can be downloaded in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RecordFormat {
    /// Smart Game Format (Go).
    Sgf,
}

/// Everything the trainer asks of a problem, answered the same way for every game.
///
/// Moves are canonical names (`D4`, `e2e4`, `P*5e`); `moves` are the learner's moves and
/// the replies, alternating, and `picked` the points found so far in a `select` question.
pub trait GamePuzzle: Send + Sync + std::fmt::Debug {
    /// What the problem takes from the learner.
    fn input(&self) -> Input;

    /// The correct and wrong lines.
    fn lines(&self) -> &LineTree;

    /// Judges the learner's move (or, for `select`, point) `play` after `moves`.
    fn attempt(&self, moves: &[String], picked: &[String], play: &str) -> Verdict;

    /// `moves` in canonical form, if they are legal and fit the problem (for a count: the
    /// correct answer, once given).
    fn valid_moves(&self, moves: &[String]) -> Option<Vec<String>>;

    /// The answer of a `select` question (point or square names) or of a count; empty
    /// otherwise.
    fn answer(&self) -> Vec<String>;

    /// The names of `picked` that belong to the answer of a `select` question, once each.
    fn valid_picks(&self, picked: &[String]) -> Vec<String>;

    /// Whether the problem is solved after `moves` (lines) without `picked` (select).
    fn is_solved_by(&self, moves: &[String]) -> bool;

    /// The locale key of who is to play (`black_to_play`), when the problem asks for a move.
    fn to_play(&self) -> Option<&'static str>;

    /// The board as SVG.
    fn board(&self, request: &BoardRequest) -> String;

    /// How a learner reads the move `mv` played after `before`: SAN in chess (`Kb8`), the
    /// Japanese notation in shogi (`☗７六歩`), the point in Go.
    fn notation(&self, before: &[String], mv: &str) -> String;

    /// How a learner reads an answer of [`GamePuzzle::answer`] (or one they gave): a count's
    /// result in words (`白胜 ½ 子`, not `W+0.5`); a point or square as it is.
    fn answer_words(&self, answer: &str, _lang: Lang) -> String {
        answer.to_string()
    }

    /// The picture of the choice `mv` after `moves` (a promotion's piece, as SVG), if the
    /// game draws one.
    fn choice_picture(&self, _moves: &[String], _mv: &str, _lang: Lang) -> Option<String> {
        None
    }

    /// The moves from `from` to `to` after `moves`, with a label each, when there are
    /// several (a promotion to choose).
    fn choices(&self, _moves: &[String], _from: &str, _to: &str) -> Vec<(Text, String)> {
        Vec::new()
    }

    /// A note shown once solved, worked out by the engine (a count step by step).
    fn solved_note(&self, _lang: Lang) -> Option<String> {
        None
    }

    /// The record format the problem downloads in, if any.
    fn record(&self) -> Option<RecordFormat> {
        None
    }

    /// Whether judging a move may run a search (a mate proof, the life-and-death solver),
    /// which takes too long for an async worker.
    fn searches(&self) -> bool {
        false
    }

    /// Whether "show why" can be asked of this problem (a solver judges it).
    fn has_why(&self) -> bool {
        false
    }

    /// For "show why": with `wrong`, the refutation of the learner's move `wrong` after
    /// `moves`, played out; without, the proof from the start. `None` where no solver
    /// judges the problem, the move is not wrong, or the solver decides nothing in time.
    fn why_line(&self, _moves: &[String], _wrong: Option<&str>) -> Option<WhyLine> {
        None
    }
}

impl dyn GamePuzzle {
    /// How many points or squares the answer of a `select` question has.
    pub fn select_total(&self) -> Option<usize> {
        match self.input() {
            Input::Pick { total } => Some(total),
            _ => None,
        }
    }

    /// Whether the problem is solved after `moves` and `picked`.
    pub fn is_solved(&self, moves: &[String], picked: &[String]) -> bool {
        match self.select_total() {
            Some(total) => self.valid_picks(picked).len() == total,
            None => self.is_solved_by(moves),
        }
    }

    /// The answer as a worksheet's key prints it: the points of a `select` question, the
    /// count, or the main line in the learner's notation.
    pub fn answer_key(&self) -> String {
        match self.input() {
            Input::Pick { .. } | Input::Count(_) => self.answer().join(" "),
            _ => {
                let main = self.lines().main_line();
                (0..main.len())
                    .map(|i| self.notation(&main[..i], &main[i]))
                    .collect::<Vec<_>>()
                    .join(" ")
            }
        }
    }
}

/// The engine's answer to one move of the learner.
#[derive(Clone, Debug, PartialEq)]
pub enum Verdict {
    /// The move is correct. `moves` is the line so far, with the opponent's `reply` if any.
    Correct {
        moves: Vec<String>,
        reply: Option<String>,
        solved: bool,
    },
    /// The move is legal but wrong. `shown` is the line to show: the moves before it, the
    /// wrong move, then the refutation; `why` is the author's explanation, if written.
    Wrong {
        why: Option<Text>,
        shown: Vec<String>,
    },
    /// The rules forbid the move, for this reason.
    Illegal { reason: Text },
    /// A `select` click on a point of the answer; `picked` holds all found so far.
    Found { picked: Vec<String>, solved: bool },
    /// A `select` click on a point that is not part of the answer.
    NotAnswer { why: Text, picked: Vec<String> },
    /// The request does not fit the problem (a move that is no point, moves off the lines).
    Invalid { why: Text },
}

impl Verdict {
    /// A short name for the kind of verdict: `correct`, `solved`, `wrong`, `illegal`,
    /// `found`, `not-answer` or `invalid`.
    pub fn kind(&self) -> &'static str {
        match self {
            Verdict::Correct { solved: true, .. } | Verdict::Found { solved: true, .. } => "solved",
            Verdict::Correct { .. } => "correct",
            Verdict::Wrong { .. } => "wrong",
            Verdict::Illegal { .. } => "illegal",
            Verdict::Found { .. } => "found",
            Verdict::NotAnswer { .. } => "not-answer",
            Verdict::Invalid { .. } => "invalid",
        }
    }
}

/// Pieces of problem reading and judging that every game shares.
pub(crate) mod shared {
    use super::super::diagnostic::{Ctx, Diagnostic};
    use super::super::lines::{LineTree, Step};
    use super::super::proofs::{LineCheck, Possible, Proof, ProofCheck, SourceFile};
    use super::Verdict;
    use crate::base::Text;
    use std::sync::Arc;
    use toml::Spanned;

    /// Reads `difficulty`: 1 (easiest, the default) to 5.
    pub fn difficulty(ctx: &Ctx, d: &Option<Spanned<u8>>, errors: &mut Vec<Diagnostic>) -> u8 {
        match d {
            None => 1,
            Some(d) if (1..=5).contains(d.get_ref()) => *d.get_ref(),
            Some(d) => {
                errors.push(ctx.err(d.span(), "difficulty should be 1 (easiest) to 5"));
                1
            }
        }
    }

    /// Reads a `select` question with the game's `answer` (which parses and answers it); a
    /// missing question, one the engine refuses, or one with no answer is an error.
    pub fn select<A, S>(
        ctx: &Ctx,
        goal: &Spanned<String>,
        ask: Option<&Spanned<String>>,
        example: &str,
        answer: impl FnOnce(&str) -> Result<(A, Vec<S>), String>,
        errors: &mut Vec<Diagnostic>,
    ) -> Option<(A, Vec<S>)> {
        let Some(ask) = ask else {
            errors.push(ctx.err(
                goal.span(),
                format!("goal `select` needs `ask`, the question, like ask = \"{example}\""),
            ));
            return None;
        };
        match answer(ask.get_ref()) {
            Err(e) => {
                errors.push(ctx.err(ask.span(), e));
                None
            }
            Ok((_, found)) if found.is_empty() => {
                errors.push(ctx.err(
                    ask.span(),
                    format!(
                        "the question `{}` has no answer here, so the learner could never finish",
                        ask.get_ref()
                    ),
                ));
                None
            }
            Ok(found) => Some(found),
        }
    }

    /// The names in `picked` that are in `answer`, once each (`normal` puts a typed name in
    /// the answer's form).
    pub fn valid_picks(
        answer: &[String],
        picked: &[String],
        normal: impl Fn(&str) -> String,
    ) -> Vec<String> {
        let mut valid: Vec<String> = Vec::new();
        for p in picked.iter().map(|p| normal(p)) {
            if answer.contains(&p) && !valid.contains(&p) {
                valid.push(p);
            }
        }
        valid
    }

    /// A click on `name` in a `select` problem: found, or not the answer (with `why`).
    pub fn pick(answer: &[String], picked: &[String], name: String, why: Text) -> Verdict {
        let mut picked = picked.to_vec();
        if !answer.contains(&name) {
            return Verdict::NotAnswer { why, picked };
        }
        if !picked.contains(&name) {
            picked.push(name);
        }
        let solved = answer.iter().all(|a| picked.contains(a));
        Verdict::Found { picked, solved }
    }

    /// The verdict the written lines give on the learner's `mv` after `moves`: `Err(line)`,
    /// the line with the move, when the lines do not know it.
    pub fn from_lines(
        lines: &LineTree,
        moves: &[String],
        mv: &str,
    ) -> Result<Verdict, Vec<String>> {
        let mut line = moves.to_vec();
        line.push(mv.to_string());
        match lines.step(moves, mv) {
            Step::Correct { reply, solved } => {
                if let Some(r) = reply {
                    line.push(r.to_string());
                }
                Ok(Verdict::Correct {
                    moves: line,
                    reply: reply.map(String::from),
                    solved,
                })
            }
            Step::Wrong(w) => {
                line.extend(w.refutation.iter().cloned());
                Ok(Verdict::Wrong {
                    why: Some(w.why.clone()),
                    shown: line,
                })
            }
            Step::Unknown => Err(line),
        }
    }

    /// What the written lines of a mate problem (`what`: "mate in 2", "tsume in 3 plies")
    /// must satisfy once `proof` is known: each must start with one of the proven first moves
    /// (`first` gives a line's first move in canonical form) and end in mate (`mated`); and
    /// some first move must force the goal (else `no_mate`).
    #[allow(clippy::too_many_arguments)]
    pub fn mate_check<P>(
        (ctx, file): (&Ctx, SourceFile),
        what: &str,
        (goal, no_mate): (&Spanned<String>, String),
        solutions: &[Spanned<String>],
        ends: &[(&Spanned<String>, P)],
        first: impl Fn(&str) -> Option<String>,
        mated: impl Fn(&P) -> bool,
        proof: Arc<Proof>,
    ) -> ProofCheck {
        let at = |span: std::ops::Range<usize>, message: String| Possible {
            file: file.clone(),
            offset: ctx.base + span.start,
            message,
        };
        let lines = solutions
            .iter()
            .map(|line| {
                let text = line.get_ref().split_whitespace().next().unwrap_or("");
                let end = ends.iter().find(|(l, _)| l.span() == line.span());
                LineCheck {
                    first: first(text),
                    refused: at(
                        line.span(),
                        format!(
                            "solution `{}` starts with {text}, which does not force {what}",
                            line.get_ref()
                        ),
                    ),
                    unmated: end.filter(|(_, end)| !mated(end)).map(|_| {
                        at(
                            line.span(),
                            format!(
                                "solution `{}` does not end in mate: write the line to the mate",
                                line.get_ref()
                            ),
                        )
                    }),
                }
            })
            .collect();
        ProofCheck {
            proof,
            no_mate: at(goal.span(), no_mate),
            lines,
        }
    }

    /// `goal = "best"` needs written lines.
    pub fn needs_lines(
        ctx: &Ctx,
        goal: &Spanned<String>,
        solutions: &[Spanned<String>],
        errors: &mut Vec<Diagnostic>,
    ) {
        if solutions.is_empty() {
            errors.push(ctx.err(
                goal.span(),
                format!(
                    "goal `{}` needs `solutions`: the correct lines",
                    goal.get_ref()
                ),
            ));
        }
    }

    /// A key given with a goal that does not use it (`key` is only used with `goal = "used"`).
    pub fn only_with<T>(
        ctx: &Ctx,
        key: &str,
        value: Option<&Spanned<T>>,
        goal: &str,
        used: &str,
        errors: &mut Vec<Diagnostic>,
    ) {
        if let (true, Some(v)) = (goal != used, value) {
            errors.push(ctx.err(
                v.span(),
                format!("`{key}` is only used with goal = \"{used}\""),
            ));
        }
    }

    /// Moves that do not fit the problem.
    pub fn off_the_lines() -> Verdict {
        Verdict::Invalid {
            why: Text {
                zh: "这些着法不在本题的正解中，请重新开始。".into(),
                en: "Those moves are not part of this problem's solution: start again.".into(),
            },
        }
    }
}

/// What "show why" steps through on a life-and-death problem.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WhyLine {
    /// The proof's main line from the start: the winner's quickest way, the loser's
    /// longest resistance.
    Proof(Vec<String>),
    /// The learner's moves, the wrong move, and the solver's refutation of it.
    Refutation(Vec<String>),
}
