//! Chess content: `chess` diagrams and chess problems, read from TOML and played through the
//! engine; mate problems are proven by search when the content loads.

use super::diagnostic::{Ctx, Diagnostic};
use super::lines::{self, LineTree};
use super::marks::{with_marks, BoardMarks, MarkSpec};
use super::problem::{shared, Action, BoardRequest, Problem, Puzzle, Verdict};
use super::text::Text;
use super::{Diagram, Frame};
use crate::lang::Lang;
use crate::render::chess as draw;
use crate::rules::chess::select::Ask;
use crate::rules::chess::{self as rules, Color, Position, Role, Square};
use serde::Deserialize;
use std::ops::ControlFlow;
use toml::Spanned;

with_marks! {
    /// A `chess` block.
    struct DiagramSpec {
        fen: Option<Spanned<String>>,
        orientation: Option<Spanned<String>>,
        pgn: Option<Spanned<String>>,
        caption: Option<String>,
        #[serde(default)]
        steps: Vec<Spanned<StepSpec>>,
    }
}

with_marks! {
    /// One `[[steps]]` table of a chess diagram.
    struct StepSpec {
        play: Option<Spanned<String>>,
        say: Option<String>,
    }
}

/// Marks read and checked.
pub type ChessMarks = BoardMarks;

fn sq(s: Square) -> draw::Sq {
    (u32::from(s.file()) as u8, u32::from(s.rank()) as u8)
}

fn square(ctx: &Ctx, name: &Spanned<String>) -> Result<Square, Diagnostic> {
    rules::parse_square(name.get_ref()).ok_or_else(|| {
        ctx.err(
            name.span(),
            format!(
                "`{}` is not a square: write a file a–h and a rank 1–8, like e4",
                name.get_ref()
            ),
        )
    })
}

/// Reads the marks of a block, with `moves_of` computed in `pos`.
fn read_marks(spec: MarkSpec, ctx: &Ctx, pos: &Position) -> Result<ChessMarks, Diagnostic> {
    let mut marks = spec.read(ctx, &|s| rules::parse_square(s).map(sq), "e4")?;
    if let Some(name) = spec.moves_of {
        let from = square(ctx, name)?;
        if pos.piece_at(from).is_none() {
            return Err(ctx.err(
                name.span(),
                format!("moves_of: there is no piece on {}", name.get_ref()),
            ));
        }
        // As if it were that piece's side's turn, so a diagram can show either side's moves.
        marks.dots = Ask::Moves(from)
            .answer(pos)
            .map(|squares| squares.into_iter().map(sq).collect())
            .unwrap_or_default();
    }
    Ok(marks)
}

/// Every square the piece on `from` may move to now (whoever's turn it is).
fn destinations(pos: &Position, from: Square) -> Vec<draw::Sq> {
    let mut out: Vec<draw::Sq> = pos
        .legal_moves()
        .into_iter()
        .filter(|m| m.from == from)
        .map(|m| sq(m.to))
        .collect();
    out.sort();
    out.dedup();
    out
}

fn position(ctx: &Ctx, fen: Option<&Spanned<String>>) -> Result<Position, Diagnostic> {
    match fen {
        None => Ok(Position::start()),
        Some(f) => Position::from_fen(f.get_ref()).map_err(|e| ctx.err(f.span(), e.to_string())),
    }
}

fn flipped(
    ctx: &Ctx,
    orientation: Option<&Spanned<String>>,
    default: bool,
) -> Result<bool, Diagnostic> {
    match orientation {
        None => Ok(default),
        Some(o) => match o.get_ref().as_str() {
            "white" => Ok(false),
            "black" => Ok(true),
            other => Err(ctx.err(
                o.span(),
                format!("orientation `{other}` should be \"white\" or \"black\" (the side at the bottom)"),
            )),
        },
    }
}

/// Plays one written move (SAN or UCI), for line building.
fn play_chess(pos: &Position, text: &str) -> Result<(Position, String), String> {
    pos.play(text)
        .map(|(next, played)| (next, played.uci))
        .map_err(|e| format!("{} is illegal: {}", text, e.explain(Lang::En)))
}

/// The moves of a PGN text's main line, in SAN.
fn pgn_moves(text: &str) -> Result<Vec<String>, String> {
    struct MainLine;
    impl pgn_reader::Visitor for MainLine {
        type Tags = ();
        type Movetext = Vec<String>;
        type Output = Vec<String>;
        fn begin_tags(&mut self) -> ControlFlow<Self::Output, Self::Tags> {
            ControlFlow::Continue(())
        }
        fn begin_movetext(&mut self, _: ()) -> ControlFlow<Self::Output, Self::Movetext> {
            ControlFlow::Continue(Vec::new())
        }
        fn san(
            &mut self,
            moves: &mut Self::Movetext,
            san: pgn_reader::SanPlus,
        ) -> ControlFlow<Self::Output> {
            moves.push(san.to_string());
            ControlFlow::Continue(())
        }
        fn end_game(&mut self, moves: Self::Movetext) -> Self::Output {
            moves
        }
    }
    let mut reader = pgn_reader::Reader::new(std::io::Cursor::new(text.as_bytes()));
    match reader.read_game(&mut MainLine) {
        Ok(Some(moves)) if !moves.is_empty() => Ok(moves),
        Ok(_) => Err("the PGN has no moves".into()),
        Err(e) => Err(format!("the PGN cannot be read: {e}")),
    }
}

struct ChessFrame {
    position: Position,
    last: Option<(draw::Sq, draw::Sq)>,
    marks: ChessMarks,
    say: Option<String>,
}

/// Reads a `chess` block and plays its steps.
pub(crate) fn diagram(
    ctx: &Ctx,
    body: &str,
    id: Option<String>,
    lang: Lang,
) -> Result<Diagram, Diagnostic> {
    let spec: DiagramSpec = toml::from_str(body).map_err(|e| ctx.toml_error(&e))?;
    let start = position(ctx, spec.fen.as_ref())?;
    let flip = flipped(ctx, spec.orientation.as_ref(), false)?;
    let mut frames = vec![ChessFrame {
        marks: read_marks(spec.marks(), ctx, &start)?,
        position: start.clone(),
        last: None,
        say: spec.caption.clone(),
    }];
    let mut pos = start;
    if let Some(pgn) = &spec.pgn {
        if !spec.steps.is_empty() {
            return Err(ctx.err(pgn.span(), "give either `pgn` or `[[steps]]`, not both"));
        }
        let moves = pgn_moves(pgn.get_ref()).map_err(|e| ctx.err(pgn.span(), e))?;
        for (n, mv) in moves.iter().enumerate() {
            let (next, played) = pos.play(mv).map_err(|e| {
                ctx.err(
                    pgn.span(),
                    format!(
                        "pgn move {} ({mv}) is illegal: {}",
                        n + 1,
                        e.explain(Lang::En)
                    ),
                )
            })?;
            let number = match pos.turn() {
                Color::White => format!("{}.", pos.fullmove_number()),
                Color::Black => format!("{}…", pos.fullmove_number()),
            };
            pos = next;
            frames.push(ChessFrame {
                position: pos.clone(),
                last: Some((sq(played.from), sq(played.to))),
                marks: ChessMarks::default(),
                say: Some(format!("{number} {}", played.san)),
            });
        }
    }
    for (n, step) in spec.steps.iter().enumerate() {
        let n = n + 1;
        let span = step.span();
        let step = step.get_ref();
        let mut last = None;
        if let Some(play) = &step.play {
            let moves: Vec<&str> = play.get_ref().split_whitespace().collect();
            if moves.is_empty() {
                return Err(ctx.err(play.span(), format!("step {n}: `play` has no moves")));
            }
            for mv in moves {
                let (next, played) = pos.play(mv).map_err(|e| {
                    ctx.err(
                        play.span(),
                        format!("step {n}: {mv} is illegal: {}", e.explain(Lang::En)),
                    )
                })?;
                pos = next;
                last = Some((sq(played.from), sq(played.to)));
            }
        } else if step.say.is_none() {
            return Err(ctx.err(
                span,
                format!("step {n} does nothing: give it `play` or `say`"),
            ));
        }
        frames.push(ChessFrame {
            marks: read_marks(step.marks(), ctx, &pos)?,
            position: pos.clone(),
            last,
            say: step.say.clone(),
        });
    }
    let title = spec.caption.clone().unwrap_or_default();
    Ok(Diagram {
        id,
        go_line: None,
        caption: spec.caption,
        frames: frames
            .into_iter()
            .map(|f| Frame {
                svg: render(
                    &f.position,
                    flip,
                    f.last,
                    &f.marks,
                    None,
                    &[],
                    None,
                    lang,
                    &title,
                ),
                key: format!("{}|{:?}|{:?}", f.position.fen(), f.last, f.marks),
                say: f.say,
            })
            .collect(),
    })
}

#[allow(clippy::too_many_arguments)]
fn render(
    pos: &Position,
    flipped: bool,
    last: Option<(draw::Sq, draw::Sq)>,
    marks: &ChessMarks,
    selected: Option<draw::Sq>,
    extra_dots: &[draw::Sq],
    link: Option<&dyn Fn(draw::Sq) -> String>,
    lang: Lang,
    title: &str,
) -> String {
    let pieces: Vec<(draw::Sq, char)> = pos
        .pieces()
        .into_iter()
        .map(|(s, color, role)| {
            let c = role.char();
            (
                sq(s),
                if color == Color::White {
                    c.to_ascii_uppercase()
                } else {
                    c
                },
            )
        })
        .collect();
    let mut dots = marks.dots.clone();
    dots.extend_from_slice(extra_dots);
    draw::svg(&draw::ChessDiagram {
        pieces: &pieces,
        flipped,
        last_move: last,
        check: pos.king_in_check().map(sq),
        selected,
        dots: &dots,
        highlight: &marks.highlight,
        arrows: &marks.arrows,
        marks: &marks.shapes,
        link,
        lang,
        title,
    })
}

with_marks! {
    /// One `[[problem]]` of a chess set.
    struct ProblemSpec {
        id: Spanned<String>,
        prompt: Text,
        fen: Spanned<String>,
        orientation: Option<Spanned<String>>,
        goal: Spanned<String>,
        mate_in: Option<Spanned<u32>>,
        ask: Option<Spanned<String>>,
        difficulty: Option<Spanned<u8>>,
        #[serde(default)]
        solutions: Vec<Spanned<String>>,
        hint: Option<Text>,
        explanation: Option<Text>,
        #[serde(default)]
        tags: Vec<String>,
        #[serde(default)]
        wrong: Vec<WrongSpec>,
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct WrongSpec {
    line: Spanned<String>,
    why: Text,
}

/// What a chess problem asks.
#[derive(Clone, Debug)]
pub enum ChessGoal {
    /// Mate in `n` moves of the side to move, proven by search.
    Mate(u32),
    /// Follow the written lines.
    Lines,
    /// Click every square of the engine's answer.
    Select { ask: Ask, answer: Vec<Square> },
}

/// A chess problem, ready to judge attempts.
#[derive(Clone, Debug)]
pub struct ChessPuzzle {
    /// The position the learner starts from.
    pub start: Position,
    /// Black at the bottom.
    pub flipped: bool,
    marks: ChessMarks,
    /// What is asked.
    pub goal: ChessGoal,
    /// Correct and wrong lines.
    pub lines: LineTree,
}

/// The id of a problem spec, for duplicate checks.
pub(crate) fn problem_id(spec: &ProblemSpec) -> &Spanned<String> {
    &spec.id
}

/// Mate searches deeper than this are refused: they would make loading slow.
const MAX_MATE: u32 = 4;

/// Reads one chess problem; every error found is returned.
pub(crate) fn problem(ctx: &Ctx, spec: ProblemSpec) -> Result<Problem, Vec<Diagnostic>> {
    let start = position(ctx, Some(&spec.fen)).map_err(|e| vec![e])?;
    let mut errors = Vec::new();
    let flip = flipped(ctx, spec.orientation.as_ref(), start.turn() == Color::Black)
        .unwrap_or_else(|e| {
            errors.push(e);
            false
        });
    let marks = read_marks(spec.marks(), ctx, &start).unwrap_or_else(|e| {
        errors.push(e);
        ChessMarks::default()
    });
    let wrong: Vec<_> = spec.wrong.iter().map(|w| (&w.line, &w.why)).collect();
    let (lines, ends) = lines::build(
        ctx,
        &start,
        &play_chess,
        &spec.solutions,
        &wrong,
        &mut errors,
    );
    let goal_name = spec.goal.get_ref().as_str();
    let goal = match goal_name {
        "mate" => {
            match &spec.mate_in {
                None => {
                    errors.push(ctx.err(
                        spec.goal.span(),
                        "goal `mate` needs `mate_in`, like mate_in = 2",
                    ));
                    ChessGoal::Lines
                }
                Some(n) if !(1..=MAX_MATE).contains(n.get_ref()) => {
                    errors.push(ctx.err(n.span(), format!("mate_in should be 1 to {MAX_MATE}")));
                    ChessGoal::Lines
                }
                Some(n) => {
                    let n = *n.get_ref();
                    let mating = start.mating_moves(n);
                    if mating.is_empty() {
                        errors.push(ctx.err(
                        spec.goal.span(),
                        format!("the side to move has no mate in {n} here: check the FEN and mate_in"),
                    ));
                    }
                    let mating: Vec<String> = mating.into_iter().map(|m| m.uci).collect();
                    shared::mate_lines(
                        ctx,
                        &format!("mate in {n}"),
                        &spec.solutions,
                        &ends,
                        &mating,
                        |mv| start.play(mv).ok().map(|(_, played)| played.uci),
                        |end| matches!(end.outcome(), Some(rules::Outcome::Checkmate { .. })),
                        &mut errors,
                    );
                    ChessGoal::Mate(n)
                }
            }
        }
        "best" => {
            shared::needs_lines(ctx, &spec.goal, &spec.solutions, &mut errors);
            ChessGoal::Lines
        }
        "select" => shared::select(
            ctx,
            &spec.goal,
            spec.ask.as_ref(),
            "moves:e1",
            |text| {
                let ask = Ask::parse(text).map_err(|e| e.to_string())?;
                let answer = ask.answer(&start).map_err(|e| e.to_string())?;
                Ok((ask, answer))
            },
            &mut errors,
        )
        .map_or(ChessGoal::Lines, |(ask, answer)| ChessGoal::Select {
            ask,
            answer,
        }),
        other => {
            errors.push(ctx.err(
                spec.goal.span(),
                format!("unknown goal `{other}`: use mate, best or select"),
            ));
            ChessGoal::Lines
        }
    };
    shared::only_with(
        ctx,
        "mate_in",
        spec.mate_in.as_ref(),
        goal_name,
        "mate",
        &mut errors,
    );
    shared::only_with(
        ctx,
        "ask",
        spec.ask.as_ref(),
        goal_name,
        "select",
        &mut errors,
    );
    let difficulty = shared::difficulty(ctx, &spec.difficulty, &mut errors);
    if !errors.is_empty() {
        return Err(errors);
    }
    let _ = spec.tags;
    Ok(Problem {
        id: spec.id.get_ref().clone(),
        prompt: spec.prompt,
        difficulty,
        hint: spec.hint,
        explanation: spec.explanation,
        goal: goal_name.to_string(),
        puzzle: Puzzle::Chess(ChessPuzzle {
            start,
            flipped: flip,
            marks,
            goal,
            lines,
        }),
    })
}

fn role_text(role: Role) -> Text {
    Text {
        zh: rules::role_name(role, Lang::Zh).to_string(),
        en: rules::role_name(role, Lang::En).to_string(),
    }
}

impl ChessPuzzle {
    /// The position after `moves` (UCI), if they are all legal.
    pub fn replay(&self, moves: &[String]) -> Option<Position> {
        moves.iter().try_fold(self.start.clone(), |pos, m| {
            pos.play(m).ok().map(|(p, _)| p)
        })
    }

    /// `moves` if they are legal and fit the problem: they follow the written lines, or, for
    /// a mate problem, every learner move still forces mate in time.
    pub fn valid_moves(&self, moves: &[String]) -> Option<Vec<String>> {
        let mut pos = self.start.clone();
        let mut canonical = Vec::new();
        for (i, m) in moves.iter().enumerate() {
            if let ChessGoal::Mate(n) = self.goal {
                let left = n.checked_sub(i as u32 / 2)?;
                if i % 2 == 0 && !pos.forces_mate(m, left) {
                    return None;
                }
            }
            let (next, played) = pos.play(m).ok()?;
            pos = next;
            canonical.push(played.uci);
        }
        match self.goal {
            ChessGoal::Mate(_) => Some(canonical),
            _ => self.lines.follows(&canonical).then_some(canonical),
        }
    }

    /// Whether the problem is solved after `moves`.
    pub fn is_solved(&self, moves: &[String]) -> bool {
        match self.goal {
            ChessGoal::Mate(_) => self
                .replay(moves)
                .is_some_and(|p| matches!(p.outcome(), Some(rules::Outcome::Checkmate { .. }))),
            _ => !moves.is_empty() && self.lines.ends_at(moves),
        }
    }

    /// The squares of a `select` answer.
    pub fn answer(&self) -> Vec<String> {
        match &self.goal {
            ChessGoal::Select { answer, .. } => {
                answer.iter().map(|s| rules::square_name(*s)).collect()
            }
            _ => Vec::new(),
        }
    }

    /// The squares of `picked` that belong to the answer, once each.
    pub fn valid_picks(&self, picked: &[String]) -> Vec<String> {
        shared::valid_picks(&self.answer(), picked, |p| p.to_ascii_lowercase())
    }

    /// "White to play" or "Black to play".
    pub fn to_play(&self) -> Option<Text> {
        if matches!(
            self.goal,
            ChessGoal::Select {
                ask: Ask::Moves(_) | Ask::Attacks(_),
                ..
            }
        ) {
            return None;
        }
        Some(match self.start.turn() {
            Color::White => Text {
                zh: "白先".into(),
                en: "White to play".into(),
            },
            Color::Black => Text {
                zh: "黑先".into(),
                en: "Black to play".into(),
            },
        })
    }

    /// `mv` (UCI) after `before`, in SAN.
    pub fn notation(&self, before: &[String], mv: &str) -> String {
        self.replay(before)
            .and_then(|p| p.play(mv).ok())
            .map_or_else(|| mv.to_string(), |(_, played)| played.san)
    }

    /// The moves from `from` to `to`, when there are several (a promotion).
    pub fn choices(&self, moves: &[String], from: &str, to: &str) -> Vec<(Text, String)> {
        let Some(pos) = self.replay(moves) else {
            return Vec::new();
        };
        let (Some(from), Some(to)) = (rules::parse_square(from), rules::parse_square(to)) else {
            return Vec::new();
        };
        pos.legal_moves()
            .into_iter()
            .filter(|m| m.from == from && m.to == to)
            .filter_map(|m| m.promotion.map(|r| (role_text(r), m.uci)))
            .collect()
    }

    /// Judges the learner's move (or, for `select`, square) `play` after `moves`.
    pub fn attempt(&self, moves: &[String], picked: &[String], play: &str) -> Verdict {
        if let ChessGoal::Select { ask, .. } = &self.goal {
            let Some(square) = rules::parse_square(&play.to_ascii_lowercase()) else {
                return invalid(play);
            };
            let name = rules::square_name(square);
            let why = miss(ask, &name);
            return shared::pick(&self.answer(), &self.valid_picks(picked), name, why);
        }
        let Some(moves) = self.valid_moves(moves) else {
            return shared::off_the_lines();
        };
        let pos = self.replay(&moves).expect("valid moves replay");
        let (after, played) = match pos.play(play) {
            Ok(x) => x,
            Err(e) => {
                return Verdict::Illegal {
                    reason: Text {
                        zh: e.explain(Lang::Zh),
                        en: e.explain(Lang::En),
                    },
                }
            }
        };
        let mut line = match shared::from_lines(&self.lines, &moves, &played.uci) {
            Ok(verdict) => return verdict,
            Err(line) => line,
        };
        match &self.goal {
            ChessGoal::Mate(n) => {
                let left = n.saturating_sub(moves.len() as u32 / 2);
                if played.mate {
                    Verdict::Correct {
                        moves: line,
                        reply: None,
                        solved: true,
                    }
                } else if pos.forces_mate(&played.uci, left) {
                    let reply = after.best_defence(left - 1).map(|m| m.uci);
                    if let Some(r) = &reply {
                        line.push(r.clone());
                    }
                    Verdict::Correct {
                        moves: line,
                        reply,
                        solved: false,
                    }
                } else {
                    Verdict::Wrong {
                        why: Some(Text {
                            zh: format!("{} 不能在 {left} 步内将死对方。", played.san),
                            en: format!("{} does not force mate in {left}.", played.san),
                        }),
                        shown: line,
                    }
                }
            }
            _ => Verdict::Wrong {
                why: None,
                shown: line,
            },
        }
    }

    /// The board after `request.shown`, with the picked-up piece's moves and links.
    pub fn board(&self, request: &BoardRequest) -> String {
        let pos = self
            .replay(request.shown)
            .unwrap_or_else(|| self.start.clone());
        let last = request.shown.last().and_then(|m| {
            let from = rules::parse_square(m.get(0..2)?)?;
            let to = rules::parse_square(m.get(2..4)?)?;
            Some((sq(from), sq(to)))
        });
        let mut marks = self.marks.clone();
        marks.highlight.extend(
            request
                .picked
                .iter()
                .filter_map(|p| rules::parse_square(p))
                .map(sq),
        );
        let selected = request.selected.and_then(rules::parse_square);
        let dots = selected.map(|s| destinations(&pos, s)).unwrap_or_default();
        let select_goal = matches!(self.goal, ChessGoal::Select { .. });
        let link = request.href.map(|href| {
            let pos = pos.clone();
            move |target: draw::Sq| {
                let name = draw::square_name(target);
                if select_goal {
                    return href(Action::Play(name));
                }
                let Some(target_sq) = rules::parse_square(&name) else {
                    return href(Action::Select(None));
                };
                let own = pos
                    .piece_at(target_sq)
                    .is_some_and(|(c, _)| c == pos.turn());
                match selected {
                    Some(from) if from == target_sq => href(Action::Select(None)),
                    _ if own => href(Action::Select(Some(name))),
                    // Nothing picked up: a piece (even the opponent's, to learn why it may not
                    // move) can be picked up; an empty square does nothing.
                    None if pos.piece_at(target_sq).is_some() => href(Action::Select(Some(name))),
                    None => href(Action::Select(None)),
                    Some(from) => {
                        let promotions = pos
                            .legal_moves()
                            .into_iter()
                            .filter(|m| {
                                m.from == from && m.to == target_sq && m.promotion.is_some()
                            })
                            .count();
                        let from_name = rules::square_name(from);
                        if promotions > 1 {
                            href(Action::Choose {
                                from: from_name,
                                to: name,
                            })
                        } else {
                            href(Action::Play(format!("{from_name}{name}")))
                        }
                    }
                }
            }
        });
        render(
            &pos,
            self.flipped,
            last,
            &marks,
            selected.map(sq),
            &dots,
            link.as_ref().map(|l| l as &dyn Fn(draw::Sq) -> String),
            request.lang,
            request.title,
        )
    }
}

fn invalid(text: &str) -> Verdict {
    Verdict::Invalid {
        why: Text {
            zh: format!("“{text}”不是棋盘上的格子。"),
            en: format!("“{text}” is not a square of the board."),
        },
    }
}

/// Why a clicked square is not part of a `select` answer.
fn miss(ask: &Ask, square: &str) -> Text {
    match ask {
        Ask::Moves(_) => Text {
            zh: format!("这个棋子不能走到 {square}。"),
            en: format!("The piece cannot move to {square}."),
        },
        Ask::Attacks(_) => Text {
            zh: format!("这个棋子没有攻击 {square}。"),
            en: format!("The piece does not attack {square}."),
        },
        Ask::Checks => Text {
            zh: format!("走到 {square} 的着法都不能将军。"),
            en: format!("No move to {square} gives check."),
        },
    }
}
