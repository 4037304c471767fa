//! Go content: `goban` diagrams and Go problems, read from TOML and played through the engine.

pub mod life_check;

use super::diagnostic::{Ctx, Diagnostic};
use super::lines::LineTree;
use super::marks::{Labels, Points};
pub use super::problem::WhyLine;
use super::problem::{
    shared, Action, BoardRequest, CountAsk, GamePuzzle, Input, ProblemOf, RecordFormat, Tasked,
    Verdict,
};
use super::sensei;
use super::task::{self, TaskSpec};
use super::{Diagram, Frame, Picture};
use crate::base::Text;
use crate::lang::Lang;
use crate::render::{go as draw, Marks};
use crate::rules::go::life;
use crate::rules::go::select::Ask;
use crate::rules::go::{
    score, Board, Color, Counting, Move, Outcome as ScoreOutcome, Point, Position, Score, Scoring,
};
use serde::Deserialize;
use std::ops::Range;
use toml::Spanned;

/// The registry's name for Go's puzzle.
pub type Puzzle = GoPuzzle;

/// Go's part of the content layer: its sets and `goban` diagrams.
pub(crate) const CONTENT: super::puzzle::ContentPlugin = super::puzzle::ContentPlugin {
    load_set: |slug, path, text, proofs| {
        super::load_set_of(slug, path, text, proofs, problem_id, |ctx, spec, _| {
            problem(ctx, spec).map(|p| p.map(super::Puzzle::from))
        })
    },
    diagram: |ctx, body, id, lang| diagram(ctx, body, id, lang).map(|d| d.wrap(super::Puzzle::from)),
};

/// A `goban` block.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct DiagramSpec {
    size: Option<Spanned<u8>>,
    sensei: Option<Spanned<String>>,
    view: Option<Spanned<String>>,
    board: Option<Spanned<String>>,
    to_play: Option<Spanned<String>>,
    caption: Option<String>,
    #[serde(default)]
    triangles: Points,
    #[serde(default)]
    squares: Points,
    #[serde(default)]
    circles: Points,
    #[serde(default)]
    crosses: Points,
    #[serde(default)]
    labels: Labels,
    #[serde(default)]
    liberties: Points,
    #[serde(default)]
    steps: Vec<Spanned<StepSpec>>,
}

/// One `[[steps]]` table of a diagram.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct StepSpec {
    play: Option<Spanned<String>>,
    #[serde(default)]
    add_black: Points,
    #[serde(default)]
    add_white: Points,
    #[serde(default)]
    clear: Points,
    say: Option<String>,
    #[serde(default)]
    triangles: Points,
    #[serde(default)]
    squares: Points,
    #[serde(default)]
    circles: Points,
    #[serde(default)]
    crosses: Points,
    #[serde(default)]
    labels: Labels,
    #[serde(default)]
    liberties: Points,
    /// The learner acts at this step.
    task: Option<Spanned<TaskSpec>>,
}

/// The marks of a diagram, a step or a problem, as written.
struct MarkSpec<'a> {
    triangles: &'a Points,
    squares: &'a Points,
    circles: &'a Points,
    crosses: &'a Points,
    labels: &'a Labels,
    liberties: &'a Points,
}

/// A board, a view and the side to play, read from the keys every Go block shares.
struct Setup {
    position: Position,
    view: Option<(Point, Point)>,
}

fn point(ctx: &Ctx, size: u8, name: &Spanned<String>) -> Result<Point, Diagnostic> {
    Point::parse(name.get_ref(), size).map_err(|e| ctx.err(name.span(), e.to_string()))
}

fn points(ctx: &Ctx, size: u8, names: &Points) -> Result<Vec<Point>, Diagnostic> {
    names.iter().map(|n| point(ctx, size, n)).collect()
}

fn setup(
    ctx: &Ctx,
    size: &Spanned<u8>,
    view: Option<&Spanned<String>>,
    board: Option<&Spanned<String>>,
    to_play: Option<&Spanned<String>>,
) -> Result<Setup, Diagnostic> {
    let n = *size.get_ref();
    if !(2..=25).contains(&n) {
        return Err(ctx.err(
            size.span(),
            format!("board size {n} is not supported: use 2 to 25 (9, 13 and 19 are usual)"),
        ));
    }
    let view = view.map(|v| rectangle(ctx, n, "view", v)).transpose()?;
    let board = match board {
        None => Board::new(n).map_err(|e| ctx.err(size.span(), e.to_string()))?,
        Some(text) => {
            let (origin, cols, rows) = match view {
                Some((tl, br)) => (tl, br.col - tl.col + 1, br.row - tl.row + 1),
                None => (Point::new(0, 0), n, n),
            };
            Board::from_text_at(n, text.get_ref(), origin, cols, rows).map_err(|e| {
                let what = if view.is_some() {
                    format!("{e} (with `view`, `board` gives only the viewed rectangle)")
                } else {
                    e.to_string()
                };
                ctx.err(board_row_span(ctx, text, &e), what)
            })?
        }
    };
    let color = match to_play {
        None => Color::Black,
        Some(c) => Color::parse(c.get_ref()).ok_or_else(|| {
            ctx.err(
                c.span(),
                format!("to_play `{}` should be \"black\" or \"white\"", c.get_ref()),
            )
        })?,
    };
    Ok(Setup {
        position: Position::new(board, color),
        view,
    })
}

/// The rectangle `key = "A1:E5"` names on a board of `size`: its top left and bottom right
/// corners.
fn rectangle(
    ctx: &Ctx,
    size: u8,
    key: &str,
    v: &Spanned<String>,
) -> Result<(Point, Point), Diagnostic> {
    let bad = || {
        ctx.err(
            v.span(),
            format!(
                "{key} `{}` should be two corners of a rectangle, like \"A1:E5\"",
                v.get_ref()
            ),
        )
    };
    let (a, b) = v.get_ref().split_once(':').ok_or_else(bad)?;
    let corner =
        |name: &str| Point::parse(name, size).map_err(|e| ctx.err(v.span(), format!("{key}: {e}")));
    let (a, b) = (corner(a)?, corner(b)?);
    Ok((
        Point::new(a.col.min(b.col), a.row.min(b.row)),
        Point::new(a.col.max(b.col), a.row.max(b.row)),
    ))
}

/// The span of the board row an error speaks of, or of the whole board.
fn board_row_span(
    ctx: &Ctx,
    text: &Spanned<String>,
    e: &crate::rules::go::BadBoard,
) -> Range<usize> {
    use crate::rules::go::BadBoard;
    let row = match e {
        BadBoard::RowLength { row, .. } | BadBoard::Character { row, .. } => *row,
        _ => return text.span(),
    };
    let span = text.span();
    let source = ctx.text(span.clone());
    let mut offset = 0;
    let mut seen = 0;
    for line in source.split_inclusive('\n') {
        let content = line.trim_matches(|c: char| c == '"' || c == '\'' || c.is_whitespace());
        if !content.is_empty() {
            seen += 1;
            if seen == row {
                let indent = line.len() - line.trim_start_matches([' ', '\t', '"', '\'']).len();
                let start = span.start + offset + indent;
                return start..start + content.len();
            }
        }
        offset += line.len();
    }
    span
}

fn marks(
    ctx: &Ctx,
    board: &Board,
    spec: &MarkSpec,
) -> Result<(Marks<Point>, Vec<Point>), Diagnostic> {
    let size = board.size();
    let mut labels = Vec::new();
    for (label, at) in spec.labels {
        if label.chars().count() > 3 {
            return Err(ctx.err(
                at.span(),
                format!("label `{label}` is too long: use at most 3 characters"),
            ));
        }
        labels.push((label.clone(), point(ctx, size, at)?));
    }
    let mut liberties = Vec::new();
    for name in spec.liberties {
        let p = point(ctx, size, name)?;
        if board.get(p).is_none() {
            return Err(ctx.err(
                name.span(),
                format!(
                    "liberties: {} is empty; name a stone whose chain's liberties to show",
                    p.name(size)
                ),
            ));
        }
        liberties.extend(board.liberties(p));
    }
    liberties.sort();
    liberties.dedup();
    Ok((
        Marks {
            triangles: points(ctx, size, spec.triangles)?,
            squares: points(ctx, size, spec.squares)?,
            circles: points(ctx, size, spec.circles)?,
            crosses: points(ctx, size, spec.crosses)?,
            labels,
        },
        liberties,
    ))
}

/// A moment of a diagram: the position and what is drawn on it.
#[derive(Clone, Debug)]
pub struct GoFrame {
    /// The position.
    pub position: Position,
    /// The last point played, marked on the board.
    pub last: Option<Point>,
    /// Shapes and labels.
    pub marks: Marks<Point>,
    /// Liberties to mark.
    pub liberties: Vec<Point>,
}

/// Reads a `goban` block at byte `base` of the file and plays its steps.
pub(crate) fn diagram(
    ctx: &Ctx,
    body: &str,
    id: Option<String>,
    lang: Lang,
) -> Result<Tasked<GoPuzzle>, Diagnostic> {
    let spec: DiagramSpec = toml::from_str(body).map_err(|e| ctx.toml_error(&e))?;
    let (setup, size, sensei_marks, numbered) = match (&spec.sensei, &spec.size) {
        (Some(text), _) => {
            if spec.board.is_some() || spec.view.is_some() || spec.to_play.is_some() {
                return Err(ctx.err(
                    text.span(),
                    "`sensei` gives the board, the view and who plays: leave out `board`, `view` and `to_play`",
                ));
            }
            let d = sensei::parse(text.get_ref()).map_err(|e| {
                let line = text.get_ref().lines().nth(e.line - 1).unwrap_or("").trim();
                let raw = ctx.text(text.span());
                let offset = raw.find(line).filter(|_| !line.is_empty()).unwrap_or(0);
                ctx.err(text.span().start + offset..text.span().end, e.to_string())
            })?;
            if let Some(n) = &spec.size {
                if *n.get_ref() != d.size {
                    return Err(ctx.err(
                        n.span(),
                        format!(
                            "size {} differs from the Sensei's diagram's {}",
                            n.get_ref(),
                            d.size
                        ),
                    ));
                }
            }
            let setup = Setup {
                position: Position::new(d.board.clone(), d.first),
                view: d.view,
            };
            (setup, d.size, d.marks, d.moves)
        }
        (None, Some(size)) => (
            setup(
                ctx,
                size,
                spec.view.as_ref(),
                spec.board.as_ref(),
                spec.to_play.as_ref(),
            )?,
            *size.get_ref(),
            Marks::default(),
            Vec::new(),
        ),
        (None, None) => return Err(ctx.loc.at(
            ctx.base,
            "a goban diagram needs `size` (and `board`), or a Sensei's Library diagram in `sensei`",
        )),
    };
    let title = spec.caption.clone().unwrap_or_default();
    let mut frames = Vec::new();
    let (mut m, libs) = marks(
        ctx,
        setup.position.board(),
        &MarkSpec {
            triangles: &spec.triangles,
            squares: &spec.squares,
            circles: &spec.circles,
            crosses: &spec.crosses,
            labels: &spec.labels,
            liberties: &spec.liberties,
        },
    )?;
    m.triangles.extend(sensei_marks.triangles);
    m.squares.extend(sensei_marks.squares);
    m.circles.extend(sensei_marks.circles);
    m.crosses.extend(sensei_marks.crosses);
    m.labels.extend(sensei_marks.labels);
    let mut go_frames = vec![(
        GoFrame {
            position: setup.position.clone(),
            last: None,
            marks: m,
            liberties: libs,
        },
        spec.caption.clone(),
        None,
    )];
    // Numbered stones of a Sensei's diagram are played first, one step each.
    let mut pos = setup.position.clone();
    let mut line: Vec<Move> = numbered.iter().map(|&p| Move::Play(p)).collect();
    let mut line_open = true;
    for (i, p) in numbered.iter().enumerate() {
        let color = pos.turn();
        pos = pos.play_move(Move::Play(*p)).map_err(|e| {
            ctx.err(
                spec.sensei.as_ref().map_or(0..0, |s| s.span()),
                format!(
                    "numbered move {} ({} {}) is illegal: {}",
                    i + 1,
                    color.as_str(),
                    p.name(size),
                    e.explain(Lang::En)
                ),
            )
        })?;
        go_frames.push((
            GoFrame {
                position: pos.clone(),
                last: Some(*p),
                marks: Marks::default(),
                liberties: Vec::new(),
            },
            None,
            None,
        ));
    }
    for (n, step) in spec.steps.iter().enumerate() {
        let n = n + 1;
        let step_span = step.span();
        let step = step.get_ref();
        // Setup changes first, then moves.
        if !(step.add_black.is_empty() && step.add_white.is_empty() && step.clear.is_empty()) {
            line_open = false;
            let mut board = pos.board().clone();
            for (list, stone, key) in [
                (&step.add_black, Some(Color::Black), "add_black"),
                (&step.add_white, Some(Color::White), "add_white"),
                (&step.clear, None, "clear"),
            ] {
                for name in list {
                    let p = point(ctx, size, name)?;
                    match (board.get(p), stone) {
                        (Some(c), Some(_)) => {
                            return Err(ctx.err(
                                name.span(),
                                format!(
                                    "step {n}: {key} puts a stone on {}, which already has a {} stone; clear it first",
                                    p.name(size),
                                    c.as_str()
                                ),
                            ))
                        }
                        (None, None) => {
                            return Err(ctx.err(
                                name.span(),
                                format!("step {n}: clear names {}, which is already empty", p.name(size)),
                            ))
                        }
                        _ => board.set(p, stone),
                    }
                }
            }
            pos = Position::new(board, pos.turn());
        }
        let mut last = None;
        if let Some(play) = &step.play {
            let moves: Vec<&str> = play.get_ref().split_whitespace().collect();
            if moves.is_empty() {
                return Err(ctx.err(play.span(), format!("step {n}: `play` has no moves")));
            }
            for mv in moves {
                let parsed = Move::parse(mv, size)
                    .map_err(|e| ctx.err(play.span(), format!("step {n}: {e}")))?;
                let color = pos.turn();
                pos = pos.play_move(parsed).map_err(|e| {
                    ctx.err(
                        play.span(),
                        format!(
                            "step {n}: {} {} is illegal: {}",
                            color.as_str(),
                            parsed.name(size),
                            e.explain(Lang::En)
                        ),
                    )
                })?;
                if line_open {
                    line.push(parsed);
                }
                last = match parsed {
                    Move::Play(p) => Some(p),
                    Move::Pass => None,
                };
            }
        }
        if step.play.is_none()
            && step.say.is_none()
            && step.add_black.is_empty()
            && step.add_white.is_empty()
            && step.clear.is_empty()
            && step.task.is_none()
        {
            return Err(ctx.err(
                step_span,
                format!("step {n} does nothing: give it `play`, `add_black`, `add_white`, `clear` or `say`"),
            ));
        }
        let (m, libs) = marks(
            ctx,
            pos.board(),
            &MarkSpec {
                triangles: &step.triangles,
                squares: &step.squares,
                circles: &step.circles,
                crosses: &step.crosses,
                labels: &step.labels,
                liberties: &step.liberties,
            },
        )?;
        let task = match &step.task {
            None => None,
            Some(written) => {
                let setup = Setup {
                    position: pos.clone(),
                    view: setup.view,
                };
                let problem = read_task(ctx, n, written, step.say.as_deref(), setup, &m)?;
                Some((problem, written.get_ref().key()))
            }
        };
        go_frames.push((
            GoFrame {
                position: pos.clone(),
                last,
                marks: m,
                liberties: libs,
            },
            step.say.clone(),
            task,
        ));
    }
    let mut tasks = Vec::new();
    for (i, (f, say, task)) in go_frames.into_iter().enumerate() {
        let task_key = match task {
            Some((p, k)) => {
                tasks.push((i, p));
                k
            }
            None => String::new(),
        };
        let key = format!(
            "{:?}|{:?}|{:?}|{:?}|{task_key}",
            f.position.board(),
            f.last,
            f.marks,
            f.liberties
        );
        let (view, title) = (setup.view, title.clone());
        frames.push(Frame {
            picture: Picture::new(move || {
                draw::svg(&draw::GoDiagram {
                    board: f.position.board(),
                    view,
                    last_move: f.last,
                    marks: &f.marks,
                    liberties: &f.liberties,
                    territory: &[],
                    selected: &[],
                    link: None,
                    heat: None,
                    lang,
                    title: &title,
                })
            }),
            say,
            key,
            task: None,
        });
    }
    Ok(Tasked {
        diagram: Diagram {
            id,
            caption: spec.caption,
            frames,
            go_line: Some((setup.position, line)),
        },
        tasks,
    })
}

/// One `[[problem]]` of a Go set.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ProblemSpec {
    id: Spanned<String>,
    prompt: Text,
    size: Spanned<u8>,
    view: Option<Spanned<String>>,
    board: Option<Spanned<String>>,
    to_play: Option<Spanned<String>>,
    goal: Spanned<String>,
    #[serde(default)]
    target: Points,
    /// `live`, `kill`, `ko`: the rectangle where the solver's moves may go (derived from
    /// the position when not given).
    region: Option<Spanned<String>>,
    ask: Option<Spanned<String>>,
    difficulty: Option<Spanned<u8>>,
    #[serde(default)]
    solutions: Vec<Spanned<String>>,
    hint: Option<Text>,
    explanation: Option<Text>,
    #[serde(default)]
    triangles: Points,
    #[serde(default)]
    squares: Points,
    #[serde(default)]
    circles: Points,
    #[serde(default)]
    crosses: Points,
    #[serde(default)]
    labels: Labels,
    #[serde(default)]
    wrong: Vec<WrongSpec>,
    /// `count`: `chinese` or `japanese`.
    rules: Option<Spanned<String>>,
    /// `count`: the dead stones, taken off before counting.
    #[serde(default)]
    dead: Points,
    /// `count`: komi in points, if not the rules' usual one.
    komi: Option<f64>,
    /// `count`: handicap stones Black received.
    handicap: Option<u8>,
    /// `count`: stones captured during the game.
    prisoners: Option<PrisonerSpec>,
}

/// `prisoners = { black = 3, white = 2 }`: stones captured by each side.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct PrisonerSpec {
    black: u32,
    white: u32,
}

/// A `[[problem.wrong]]` table.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct WrongSpec {
    line: Spanned<String>,
    why: Text,
}

/// What a Go problem asks, and the engine's key to it.
#[derive(Clone, Debug)]
pub enum GoGoal {
    /// Capture every one of these stones.
    Capture(Vec<Point>),
    /// Click every point of the engine's answer.
    Select {
        /// The question.
        ask: Ask,
        /// The points that answer it.
        answer: Vec<Point>,
    },
    /// Follow the written lines (`live`, `kill`, `ko`, `best`).
    Lines,
    /// Count the finished board: the learner gives `answer`, worked out by the engine.
    Count {
        /// What is asked: Black's count, White's count, or the result.
        ask: CountAsk,
        /// The engine's count.
        score: Score,
        /// The answer as the trainer writes it: `41`, or `B+2.5`.
        answer: String,
    },
}

/// Reads a number as learners write it: `41`, `2.5`, `2½`, `2 3/4`, `¾`.
pub fn read_number(text: &str) -> Option<f64> {
    let text = text.trim().replace(['，', ','], ".");
    let (whole, frac) = match text.char_indices().find(|(_, c)| "½¼¾".contains(*c)) {
        Some((i, c)) => (
            &text[..i],
            match c {
                '½' => 0.5,
                '¼' => 0.25,
                _ => 0.75,
            },
        ),
        None => match text.split_once(' ') {
            Some((w, f)) if f.contains('/') => {
                let (n, d) = f.split_once('/')?;
                (
                    w,
                    n.trim().parse::<f64>().ok()? / d.trim().parse::<f64>().ok()?,
                )
            }
            _ if text.contains('/') && !text.contains('.') => {
                let (n, d) = text.split_once('/')?;
                return Some(n.trim().parse::<f64>().ok()? / d.trim().parse::<f64>().ok()?);
            }
            _ => (text.as_str(), 0.0),
        },
    };
    let whole = whole.trim();
    let w = if whole.is_empty() {
        0.0
    } else {
        whole.parse::<f64>().ok()?
    };
    (w.is_finite() && w >= 0.0).then_some(w + frac)
}

fn decimal(x: f64) -> String {
    let s = format!("{x:.2}");
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// The canonical answer to a count question.
fn count_answer(ask: CountAsk, score: &Score) -> String {
    match ask {
        CountAsk::Black => decimal(score.black),
        CountAsk::White => decimal(score.white),
        CountAsk::Result => match score.outcome {
            ScoreOutcome::Win { winner, margin, .. } => format!(
                "{}+{}",
                if winner == Color::Black { "B" } else { "W" },
                decimal(margin)
            ),
            _ => "0".to_string(),
        },
    }
}

/// A number with its halves and quarters as fractions: `12½`, `½`, `3¾`.
fn fraction(x: f64) -> String {
    let whole = x.trunc();
    let part = match ((x - whole).abs() * 4.0).round() as u8 {
        1 => "¼",
        2 => "½",
        3 => "¾",
        _ => return decimal(x),
    };
    if whole == 0.0 {
        part.to_string()
    } else {
        format!("{}{part}", decimal(whole))
    }
}

/// A count's answer (canonical, as [`read_count`] writes it) in the learner's words: the
/// result as `白胜 ½ 子` / `White wins by ½ stone` (points, 目, under territory counting), a
/// side's count as `12 子` / `12 stones`.
fn count_words(ask: CountAsk, answer: &str, rules: Scoring, lang: Lang) -> String {
    let area = rules == Scoring::Chinese;
    let unit = |n: f64| match (lang, area) {
        (Lang::Zh, true) => "子",
        (Lang::Zh, false) => "目",
        (Lang::En, true) if n > 1.0 => "stones",
        (Lang::En, true) => "stone",
        (Lang::En, false) if n > 1.0 => "points",
        (Lang::En, false) => "point",
    };
    let number = |text: &str| read_number(text).map(|n| (n, fraction(n)));
    match ask {
        CountAsk::Black | CountAsk::White => match number(answer) {
            Some((n, shown)) => format!("{shown} {}", unit(n)),
            None => answer.to_string(),
        },
        CountAsk::Result => {
            let Some((side, margin)) = answer.split_once('+') else {
                return match lang {
                    Lang::Zh => "和棋".to_string(),
                    Lang::En => "a draw".to_string(),
                };
            };
            let Some((n, shown)) = number(margin) else {
                return answer.to_string();
            };
            match (lang, side) {
                (Lang::Zh, "B") => format!("黑胜 {shown} {}", unit(n)),
                (Lang::Zh, _) => format!("白胜 {shown} {}", unit(n)),
                (Lang::En, "B") => format!("Black wins by {shown} {}", unit(n)),
                (Lang::En, _) => format!("White wins by {shown} {}", unit(n)),
            }
        }
    }
}

/// The learner's answer to a count question in canonical form, if it can be read:
/// a number, or `B+2.5` / `W+0.5` / `0` for the result.
pub fn read_count(ask: CountAsk, text: &str) -> Option<String> {
    let text = text.trim();
    match ask {
        CountAsk::Black | CountAsk::White => read_number(text).map(decimal),
        CountAsk::Result => {
            if text == "0" || text.eq_ignore_ascii_case("draw") || text == "和" {
                return Some("0".into());
            }
            let (side, margin) = text.split_once('+')?;
            let side = match side.trim().to_ascii_uppercase().as_str() {
                "B" | "黑" => "B",
                "W" | "白" => "W",
                _ => return None,
            };
            Some(format!("{side}+{}", decimal(read_number(margin)?)))
        }
    }
}

/// A Go problem, ready to judge attempts.
#[derive(Clone, Debug)]
pub struct GoPuzzle {
    /// The position the learner starts from.
    pub start: Position,
    /// The part of the board shown.
    pub view: Option<(Point, Point)>,
    /// Marks drawn on the board.
    pub marks: Marks<Point>,
    /// What is asked.
    pub goal: GoGoal,
    /// Correct and wrong lines.
    pub lines: LineTree,
    /// For `live`, `kill` and `ko`: the life-and-death solver's view of the problem, which
    /// judges every move the written lines do not know.
    pub life: Option<LifeJudge>,
}

/// A `live`, `kill` or `ko` problem as the solver sees it.
#[derive(Clone, Debug)]
pub struct LifeJudge {
    problem: life::Problem,
    /// `goal = "ko"`: a ko is as good as a win.
    ko_enough: bool,
}

/// The solver's budget for one move of a learner: a node count, so that the same request
/// always gets the same answer, and a time bound that a request never passes.
const LIFE_BUDGET: life::Budget = life::Budget {
    nodes: 300_000,
    time: std::time::Duration::from_millis(800),
    threads: 1,
};

impl LifeJudge {
    /// The solver's view of a `live`/`kill`/`ko` problem starting at `start`, with the
    /// author's `target` stones and `region` if given and the author's first moves (from
    /// `lines`) searched first.
    /// `Ok(None)` for another goal, or for a problem without the defender's stones, which
    /// cannot be searched; `Err` for a target that is not the defender's.
    fn new(
        start: &Position,
        goal: &str,
        target: &[(Point, Range<usize>)],
        region: life::Region,
        lines: &LineTree,
    ) -> Result<Option<LifeJudge>, life::BadProblem> {
        let aim = match goal {
            "live" => life::Goal::Live,
            "kill" => life::Goal::Kill,
            "ko" => life::infer_goal(start),
            _ => return Ok(None),
        };
        let stones = if target.is_empty() {
            life::Target::Inferred
        } else {
            life::Target::Stones(target.iter().map(|(p, _)| *p).collect())
        };
        let problem = match life::Problem::new(start, aim, stones, region) {
            Ok(problem) => {
                // (A pass is no point: it is not searched first.)
                let first: Vec<Point> = lines
                    .first_moves()
                    .filter_map(|name| start.board().point(name).ok())
                    .collect();
                problem.with_first_moves(start, &first)
            }
            Err(life::BadProblem::NoDefenderStones { .. }) if target.is_empty() => return Ok(None),
            Err(e) => return Err(e),
        };
        Ok(Some(LifeJudge {
            problem,
            ko_enough: goal == "ko",
        }))
    }

    /// The solver's problem: attacker, target and region.
    pub fn problem(&self) -> &life::Problem {
        &self.problem
    }

    /// Whether the solver proves `outcome` good enough for the learner.
    pub fn keeps_goal(&self, outcome: life::Outcome) -> bool {
        match outcome {
            life::Outcome::Win => true,
            life::Outcome::Ko { .. } => self.ko_enough,
            _ => false,
        }
    }

    /// The verdict on the learner's legal move `mv` from `pos` that the written lines do
    /// not know; `line` is the moves so far with `mv`.
    fn judge(&self, pos: &Position, mv: Move, mut line: Vec<String>) -> Verdict {
        let size = pos.size();
        let Ok(j) = life::evaluate_move(pos, &self.problem, mv, LIFE_BUDGET) else {
            return Verdict::Wrong {
                why: None,
                shown: line,
            };
        };
        let learner = pos.turn();
        let (me_zh, me_en) = colour_names(learner);
        let lives = self.problem.defender() == learner;
        if self.keeps_goal(j.outcome) {
            let reply = j.reply.map(|r| r.name(size));
            if let Some(r) = &reply {
                line.push(r.clone());
            }
            let solved = reply.is_none();
            return Verdict::Correct {
                moves: line,
                reply,
                solved,
            };
        }
        if j.outcome == life::Outcome::Unknown {
            return Verdict::Wrong {
                why: None,
                shown: line,
            };
        }
        let reply = j.reply.map_or_else(String::new, |r| r.name(size));
        let why = match (j.outcome, lives) {
            (life::Outcome::Ko { .. }, _) => Text {
                zh: format!("这样下只能打劫：对方 {reply} 之后要靠劫争。还有更好的下法。"),
                en: format!("This only gives a ko: after {reply} it comes down to ko threats. There is a better move."),
            },
            (_, true) => Text {
                zh: format!("这样下，对方 {reply} 之后{me_zh}棋活不了。"),
                en: format!("After this, {reply} and {me_en} cannot live."),
            },
            (_, false) => Text {
                zh: format!("这样下，对方 {reply} 之后就能活棋（或者双活）。"),
                en: format!("After this, {reply} and the opponent lives (or makes seki)."),
            },
        };
        line.extend(j.line.iter().map(|m| m.name(size)));
        Verdict::Wrong {
            why: Some(why),
            shown: line,
        }
    }
}

/// A life-and-death target the solver refuses, placed at the target stone it speaks of.
fn target_error(
    ctx: &Ctx,
    size: u8,
    target: &[(Point, Range<usize>)],
    e: life::BadProblem,
) -> Diagnostic {
    let (at, message) = match &e {
        life::BadProblem::NotDefenderStone { point, defender } => (
            target.iter().find(|(p, _)| p == point),
            format!(
                "target {} is not a {} stone: the target of a life-and-death problem is the stones that must live (or that the side to play kills)",
                point.name(size),
                defender.as_str()
            ),
        ),
        other => (None, format!("target: {other}")),
    };
    let span = at.or(target.first()).map_or(0..0, |(_, s)| s.clone());
    ctx.err(span, message)
}

fn colour_names(c: Color) -> (&'static str, &'static str) {
    match c {
        Color::Black => ("黑", "Black"),
        Color::White => ("白", "White"),
    }
}

const GOALS: &str = "capture, live, kill, ko, best, select or count";

/// Reads one Go problem; every error found is returned, not only the first.
pub(crate) fn problem(
    ctx: &Ctx,
    spec: ProblemSpec,
) -> Result<ProblemOf<GoPuzzle>, Vec<Diagnostic>> {
    let setup = setup(
        ctx,
        &spec.size,
        spec.view.as_ref(),
        spec.board.as_ref(),
        spec.to_play.as_ref(),
    )
    .map_err(|e| vec![e])?;
    problem_from(ctx, spec, setup)
}

/// Reads a lesson task at step `n` of a diagram: a problem from the step's position `start`,
/// seen through `view`, with the step's marks; its prompt is the step's `say`.
fn read_task(
    ctx: &Ctx,
    n: usize,
    written: &Spanned<TaskSpec>,
    say: Option<&str>,
    setup: Setup,
    marks: &Marks<Point>,
) -> Result<ProblemOf<GoPuzzle>, Diagnostic> {
    let say = task::instruction(ctx, n, written, say)?;
    let t = written.get_ref();
    let mut errors = Vec::new();
    for (key, value) in [
        ("mate_in", t.mate_in.as_ref().map(|v| v.span())),
        ("from", t.from.as_ref().map(|v| v.span())),
        ("to", t.to.as_ref().map(|v| v.span())),
    ] {
        if let Some(span) = value {
            errors.push(ctx.err(
                span,
                format!("step {n}: `{key}` is only used in chess and shogi tasks"),
            ));
        }
    }
    if t.goal.get_ref() == "count" {
        errors.push(ctx.err(
            t.goal.span(),
            format!("step {n}: a lesson task cannot ask for a count (the learner would need a form): make it a problem in a set"),
        ));
    }
    if !errors.is_empty() {
        return Err(task::first(ctx, written, errors));
    }
    let (prompt, hint, explanation) = task::texts(say, t);
    let spec = ProblemSpec {
        id: Spanned::new(t.goal.span(), "task".to_string()),
        prompt,
        size: Spanned::new(t.goal.span(), setup.position.size()),
        view: None,
        board: None,
        to_play: None,
        goal: t.goal.clone(),
        target: t.target.clone(),
        region: None,
        ask: t.ask.clone(),
        difficulty: None,
        solutions: t.solutions.clone(),
        hint,
        explanation,
        triangles: Vec::new(),
        squares: Vec::new(),
        circles: Vec::new(),
        crosses: Vec::new(),
        labels: Labels::new(),
        wrong: t
            .wrong_lines()
            .into_iter()
            .map(|(line, why)| WrongSpec { line, why })
            .collect(),
        rules: None,
        dead: Vec::new(),
        komi: None,
        handicap: None,
        prisoners: None,
    };
    let mut problem = problem_from(ctx, spec, setup).map_err(|e| task::first(ctx, written, e))?;
    problem.puzzle.marks = marks.clone();
    Ok(problem)
}

/// Reads a Go problem whose position has been set up.
fn problem_from(
    ctx: &Ctx,
    spec: ProblemSpec,
    setup: Setup,
) -> Result<ProblemOf<GoPuzzle>, Vec<Diagnostic>> {
    let mut errors = Vec::new();
    let start = setup.position;
    let size = start.size();
    let marks = match marks(
        ctx,
        start.board(),
        &MarkSpec {
            triangles: &spec.triangles,
            squares: &spec.squares,
            circles: &spec.circles,
            crosses: &spec.crosses,
            labels: &spec.labels,
            liberties: &Vec::new(),
        },
    ) {
        Ok((m, _)) => m,
        Err(e) => {
            errors.push(e);
            Marks::default()
        }
    };
    let goal_name = spec.goal.get_ref().as_str();
    let needs_lines = !matches!(goal_name, "select" | "count");
    // Lines: parsed, played through the engine, and built into a tree.
    let wrong: Vec<_> = spec.wrong.iter().map(|w| (&w.line, &w.why)).collect();
    let (lines, ends) =
        super::lines::build(ctx, &start, &play_go, &spec.solutions, &wrong, &mut errors);
    if needs_lines && spec.solutions.is_empty() && goal_name != "capture" {
        errors.push(ctx.err(
            spec.goal.span(),
            format!("goal `{goal_name}` needs `solutions`: the correct lines"),
        ));
    }
    let goal = match goal_name {
        "capture" => {
            if spec.target.is_empty() {
                errors.push(ctx.err(
                    spec.goal.span(),
                    "goal `capture` needs `target`: the stones to capture, like [\"E5\"]",
                ));
            }
            if spec.solutions.is_empty() {
                errors.push(ctx.err(
                    spec.goal.span(),
                    "goal `capture` needs `solutions`: at least one line that captures the target",
                ));
            }
            let mut targets = Vec::new();
            for t in &spec.target {
                match point(ctx, size, t) {
                    Ok(p) if start.board().get(p).is_none() => errors.push(ctx.err(
                        t.span(),
                        format!(
                            "target {} is an empty point: name a stone to capture",
                            p.name(size)
                        ),
                    )),
                    Ok(p) => targets.push(p),
                    Err(e) => errors.push(e),
                }
            }
            for (line, end) in &ends {
                if let Some(left) = targets.iter().find(|&&t| end.board().get(t).is_some()) {
                    errors.push(ctx.err(
                        line.span(),
                        format!(
                            "solution `{}` ends without capturing the target stone on {}",
                            line.get_ref(),
                            left.name(size)
                        ),
                    ));
                }
            }
            GoGoal::Capture(targets)
        }
        "select" => {
            if !spec.solutions.is_empty() {
                errors.push(ctx.err(
                    spec.goal.span(),
                    "goal `select` takes no `solutions`: the engine computes the answer from `ask`",
                ));
            }
            shared::select(
                ctx,
                &spec.goal,
                spec.ask.as_ref(),
                "liberties:D4",
                |text| {
                    let ask = Ask::parse(text, size).map_err(|e| e.to_string())?;
                    let answer = ask.answer(&start).map_err(|e| e.to_string())?;
                    Ok((ask, answer))
                },
                &mut errors,
            )
            .map_or(GoGoal::Lines, |(ask, answer)| GoGoal::Select {
                ask,
                answer,
            })
        }
        "live" | "kill" | "ko" | "best" => GoGoal::Lines,
        "count" => match count_goal(ctx, &spec, &start) {
            Ok(goal) => goal,
            Err(e) => {
                errors.push(e);
                GoGoal::Lines
            }
        },
        other => {
            errors.push(ctx.err(
                spec.goal.span(),
                format!("unknown goal `{other}`: use {GOALS}"),
            ));
            GoGoal::Lines
        }
    };
    // `target` names the stones to capture, or the stones at stake in a life-and-death
    // problem (the defender's largest chain and its group when not given).
    let life_goal = matches!(goal_name, "live" | "kill" | "ko");
    let mut life_target = Vec::new();
    if life_goal {
        for t in &spec.target {
            match point(ctx, size, t) {
                Ok(p) => life_target.push((p, t.span())),
                Err(e) => errors.push(e),
            }
        }
    } else {
        shared::only_with(
            ctx,
            "target",
            spec.target.first(),
            goal_name,
            "capture",
            &mut errors,
        );
    }
    // `region` widens or narrows the solver's search: every point of a rectangle.
    let mut life_region = life::Region::Auto;
    match (&spec.region, life_goal) {
        (None, _) => {}
        (Some(r), true) => match rectangle(ctx, size, "region", r) {
            Ok((a, b)) => life_region = life::Region::rectangle(a, b),
            Err(e) => errors.push(e),
        },
        (Some(r), false) => errors.push(ctx.err(
            r.span(),
            "`region` is only used with goal = \"live\", \"kill\" or \"ko\"",
        )),
    }
    let life = match LifeJudge::new(&start, goal_name, &life_target, life_region, &lines) {
        Ok(judge) => judge,
        Err(e) => {
            errors.push(target_error(ctx, size, &life_target, e));
            None
        }
    };
    if let (true, Some(ask)) = (!matches!(goal_name, "select" | "count"), &spec.ask) {
        errors.push(ctx.err(
            ask.span(),
            "`ask` is only used with goal = \"select\" or \"count\"",
        ));
    }
    if goal_name != "count" && (spec.rules.is_some() || !spec.dead.is_empty()) {
        errors.push(ctx.err(
            spec.goal.span(),
            "`rules` and `dead` are only used with goal = \"count\"",
        ));
    }
    let difficulty = shared::difficulty(ctx, &spec.difficulty, &mut errors);
    if !errors.is_empty() {
        return Err(errors);
    }
    Ok(ProblemOf {
        id: spec.id.get_ref().clone(),
        prompt: spec.prompt,
        difficulty,
        hint: spec.hint,
        explanation: spec.explanation,
        goal: goal_name.to_string(),
        puzzle: GoPuzzle {
            life,
            start,
            view: setup.view,
            marks,
            goal,
            lines,
        },
    })
}

/// Reads the keys of a `count` problem and counts the board.
fn count_goal(ctx: &Ctx, spec: &ProblemSpec, start: &Position) -> Result<GoGoal, Diagnostic> {
    let size = start.size();
    let rules = match &spec.rules {
        None => {
            return Err(ctx.err(
                spec.goal.span(),
                "goal `count` needs `rules`: \"chinese\" (area counting) or \"japanese\" (territory counting)",
            ))
        }
        Some(r) => Scoring::parse(r.get_ref()).ok_or_else(|| {
            ctx.err(
                r.span(),
                format!("rules `{}` should be \"chinese\" or \"japanese\"", r.get_ref()),
            )
        })?,
    };
    let ask = match spec.ask.as_ref().map(|a| (a, a.get_ref().as_str())) {
        None | Some((_, "result")) => CountAsk::Result,
        Some((_, "black")) => CountAsk::Black,
        Some((_, "white")) => CountAsk::White,
        Some((a, other)) => {
            return Err(ctx.err(
                a.span(),
                format!("a count asks for \"result\", \"black\" or \"white\", not `{other}`"),
            ))
        }
    };
    let mut counting = Counting::new(rules).handicap(spec.handicap.unwrap_or(0));
    if let Some(k) = spec.komi {
        counting = counting.komi(k);
    }
    if let Some(p) = &spec.prisoners {
        counting = counting.prisoners(p.black, p.white);
    }
    let dead = points(ctx, size, &spec.dead)?;
    for (p, name) in dead.iter().zip(&spec.dead) {
        if start.board().get(*p).is_none() {
            return Err(ctx.err(
                name.span(),
                format!("dead: {} is empty; list the dead stones", p.name(size)),
            ));
        }
    }
    let score = score(start.board(), &dead, &counting)
        .map_err(|e| ctx.err(spec.goal.span(), e.to_string()))?;
    let answer = count_answer(ask, &score);
    Ok(GoGoal::Count { ask, score, answer })
}

/// The id of a problem spec, with its span, for duplicate checks.
pub(crate) fn problem_id(spec: &ProblemSpec) -> &Spanned<String> {
    &spec.id
}

/// Plays one written Go move (`D4`, `pass`), for line building.
fn play_go(pos: &mut Position, text: &str) -> Result<String, String> {
    let size = pos.size();
    let mv = Move::parse(text, size).map_err(|e| e.to_string())?;
    let color = pos.turn();
    let next = pos.play_move(mv).map_err(|e| {
        format!(
            "{} {} is illegal: {}",
            color.as_str(),
            mv.name(size),
            e.explain(Lang::En)
        )
    })?;
    *pos = next;
    Ok(mv.name(size))
}

impl GoPuzzle {
    /// The position after `moves` (canonical names), if they are all legal.
    pub fn replay(&self, moves: &[String]) -> Option<Position> {
        let size = self.start.size();
        moves.iter().try_fold(self.start.clone(), |pos, m| {
            pos.play_move(Move::parse(m, size).ok()?).ok()
        })
    }

    /// The canonical name of a move typed as `text` (`d4` → `D4`), if it is one.
    pub fn canonical(&self, text: &str) -> Option<String> {
        Move::parse(text, self.start.size())
            .ok()
            .map(|m| m.name(self.start.size()))
    }
}

impl GoPuzzle {
    /// Why a count answer `given` (canonical) is wrong, and how to count this board: the
    /// dead stones and the komi only where the problem has them, and for a result under
    /// area counting, half the board to compare with.
    fn count_advice(&self, given: &str, lang: Lang) -> String {
        let GoGoal::Count { ask, score, .. } = &self.goal else {
            return String::new();
        };
        let counting = &score.counting;
        let area = counting.rules == Scoring::Chinese;
        let half = fraction(f64::from(score.size) * f64::from(score.size) / 2.0);
        let komi = counting.komi;
        let mut steps: Vec<String> = Vec::new();
        let zh = lang == Lang::Zh;
        if !score.dead.is_empty() {
            steps.push(if zh { "先拿掉死子（×）" } else { "take off the dead stones (×) first" }.into());
        }
        steps.push(match (zh, area) {
            (true, true) => "数一数棋子和围住的空点".into(),
            (true, false) => "数一数围住的空点，再加上提掉的子".into(),
            (false, true) => "count the stones and the empty points they surround".into(),
            (false, false) => "count the surrounded points and add the prisoners".into(),
        });
        if *ask == CountAsk::Result && area {
            steps.push(if zh {
                format!("和棋盘的一半（{half}）比一比")
            } else {
                format!("compare with half the board ({half})")
            });
        }
        if komi != 0.0 {
            // Under area counting the komi is given back in stones: half the points.
            let k = if area { fraction(komi / 2.0) } else { fraction(komi) };
            steps.push(match (zh, area) {
                (true, true) => format!("别忘了贴子（白贴 {k} 子）"),
                (true, false) => format!("别忘了贴目（白贴 {k} 目）"),
                (false, true) => format!("remember the komi (White gets {k} stones)"),
                (false, false) => format!("remember the komi (White gets {k} points)"),
            });
        }
        let words = count_words(*ask, given, counting.rules, lang);
        if zh {
            format!("“{words}”不对。{}。", steps.join("，"))
        } else {
            let mut advice = steps.join(", ");
            if let Some(first) = advice.get(..1) {
                advice = first.to_uppercase() + &advice[1..];
            }
            format!("“{words}” is not right. {advice}.")
        }
    }

    /// For "show why" on a `live`/`kill`/`ko` problem: with `wrong`, the refutation of the
    /// learner's move `wrong` after `moves` (the learner's valid progress), played out;
    /// without, the proof of the problem from the start. `None` when the problem is not
    /// one the solver judges, the move is not wrong, or the solver decides nothing within
    /// its budget.
    pub fn why_line(&self, moves: &[String], wrong: Option<&str>) -> Option<WhyLine> {
        let judge = self.life.as_ref()?;
        let size = self.start.size();
        let names = |line: &[Move]| line.iter().map(|m| m.name(size)).collect::<Vec<_>>();
        match wrong {
            None => {
                let v = life::solve(&self.start, &judge.problem, LIFE_BUDGET);
                (judge.keeps_goal(v.outcome) && !v.line.is_empty())
                    .then(|| WhyLine::Proof(names(&v.line)))
            }
            Some(text) => {
                let pos = self.replay(moves)?;
                let mv = Move::parse(text, size).ok()?;
                let j = life::evaluate_move(&pos, &judge.problem, mv, LIFE_BUDGET).ok()?;
                if judge.keeps_goal(j.outcome) || j.outcome == life::Outcome::Unknown {
                    return None;
                }
                let mut line = moves.to_vec();
                line.push(mv.name(size));
                line.extend(names(&j.line));
                Some(WhyLine::Refutation(line))
            }
        }
    }

    /// Whether "show why" can be asked of this problem (the solver judges it).
    pub fn has_why(&self) -> bool {
        self.life.is_some()
    }
}

impl GamePuzzle for GoPuzzle {
    fn has_why(&self) -> bool {
        GoPuzzle::has_why(self)
    }

    fn why_line(&self, moves: &[String], wrong: Option<&str>) -> Option<WhyLine> {
        GoPuzzle::why_line(self, moves, wrong)
    }

    fn input(&self) -> Input {
        match &self.goal {
            GoGoal::Count { ask, .. } => Input::Count(*ask),
            GoGoal::Select { answer, .. } => Input::Pick {
                total: answer.len(),
            },
            _ => Input::Point,
        }
    }

    fn lines(&self) -> &LineTree {
        &self.lines
    }

    fn searches(&self) -> bool {
        self.life.is_some()
    }

    fn valid_picks(&self, picked: &[String]) -> Vec<String> {
        shared::valid_picks(&self.answer(), picked, |p| {
            self.canonical(p).unwrap_or_default()
        })
    }

    /// For a `count` problem: no moves, or the correct answer once given.
    fn valid_moves(&self, moves: &[String]) -> Option<Vec<String>> {
        if let GoGoal::Count { ask, answer, .. } = &self.goal {
            return match moves {
                [] => Some(Vec::new()),
                [given] if read_count(*ask, given).as_ref() == Some(answer) => {
                    Some(vec![answer.clone()])
                }
                _ => None,
            };
        }
        let canonical: Vec<String> = moves
            .iter()
            .map(|m| self.canonical(m))
            .collect::<Option<_>>()?;
        self.replay(&canonical)?;
        if self.lines.follows(&canonical) {
            return Some(canonical);
        }
        // Off the written lines, a live/kill problem goes on as long as every learner move
        // from where the moves left the lines still keeps the goal, by the solver.
        let judge = self.life.as_ref()?;
        let left = (1..=canonical.len()).find(|&k| !self.lines.follows(&canonical[..k]))? - 1;
        if left % 2 == 1 {
            return None;
        }
        let size = self.start.size();
        for i in (left..canonical.len()).step_by(2) {
            let pos = self.replay(&canonical[..i])?;
            let mv = Move::parse(&canonical[i], size).ok()?;
            let j = life::evaluate_move(&pos, &judge.problem, mv, LIFE_BUDGET).ok()?;
            if !judge.keeps_goal(j.outcome) {
                return None;
            }
        }
        Some(canonical)
    }

    fn is_solved_by(&self, moves: &[String]) -> bool {
        match &self.goal {
            GoGoal::Count { answer, .. } => moves == std::slice::from_ref(answer),
            _ if !moves.is_empty() && self.lines.ends_at(moves) => true,
            // Off the written lines: solved when the learner's last move keeps the goal and
            // leaves the opponent nothing to try.
            _ => match (&self.life, moves.split_last()) {
                (Some(judge), Some((last, before)))
                    if moves.len() % 2 == 1 && !self.lines.follows(moves) =>
                {
                    let (Some(pos), Ok(mv)) =
                        (self.replay(before), Move::parse(last, self.start.size()))
                    else {
                        return false;
                    };
                    life::evaluate_move(&pos, &judge.problem, mv, LIFE_BUDGET)
                        .is_ok_and(|j| judge.keeps_goal(j.outcome) && j.reply.is_none())
                }
                _ => false,
            },
        }
    }

    /// For a count, the count worked out step by step.
    fn solved_note(&self, lang: Lang) -> Option<String> {
        match &self.goal {
            GoGoal::Count { score, .. } => Some(score.explain(lang)),
            _ => None,
        }
    }

    fn answer(&self) -> Vec<String> {
        match &self.goal {
            GoGoal::Count { answer, .. } => vec![answer.clone()],
            GoGoal::Select { answer, .. } => {
                answer.iter().map(|p| p.name(self.start.size())).collect()
            }
            _ => Vec::new(),
        }
    }

    fn to_play(&self) -> Option<&'static str> {
        if let GoGoal::Select {
            ask: Ask::Liberties(_) | Ask::Chain(_) | Ask::InAtari(_) | Ask::Forbidden(_),
            ..
        }
        | GoGoal::Count { .. } = self.goal
        {
            return None;
        }
        Some(match self.start.turn() {
            Color::Black => "black_to_play",
            Color::White => "white_to_play",
        })
    }

    fn notation(&self, _before: &[String], mv: &str) -> String {
        mv.to_string()
    }

    /// A count's answer in words (`白胜 ½ 子`, `White wins by ½ stone`, `12 子`).
    fn answer_words(&self, answer: &str, lang: Lang) -> String {
        match &self.goal {
            GoGoal::Count { ask, score, .. } => {
                count_words(*ask, answer, score.counting.rules, lang)
            }
            _ => answer.to_string(),
        }
    }

    fn record(&self) -> Option<RecordFormat> {
        Some(RecordFormat::Sgf)
    }

    /// The board after `request.shown`, with the found points and a link on every point.
    fn board(&self, request: &BoardRequest) -> String {
        let size = self.start.size();
        let pos = self
            .replay(request.shown)
            .unwrap_or_else(|| self.start.clone());
        let last = request
            .shown
            .last()
            .and_then(|m| match Move::parse(m, size) {
                Ok(Move::Play(p)) => Some(p),
                _ => None,
            });
        let mut marks = self.marks.clone();
        if let GoGoal::Count { score, .. } = &self.goal {
            marks.crosses.extend(score.dead.iter().map(|(p, _)| *p));
        }
        let selected: Vec<Point> = request
            .picked
            .iter()
            .filter_map(|p| Point::parse(p, size).ok())
            .collect();
        let link = request
            .href
            .map(|href| move |p: Point| href(Action::Play(p.name(size))));
        draw::svg(&draw::GoDiagram {
            board: pos.board(),
            view: self.view,
            last_move: last,
            marks: &marks,
            liberties: &[],
            territory: &[],
            selected: &selected,
            link: link
                .as_ref()
                .filter(|_| !matches!(self.goal, GoGoal::Count { .. }))
                .map(|l| l as &dyn Fn(Point) -> String),
            heat: request
                .heat
                .filter(|_| !matches!(self.goal, GoGoal::Count { .. })),
            lang: request.lang,
            title: request.title,
        })
    }

    /// Judges the learner's move `play` after `moves` (for `select`: after `picked`).
    fn attempt(&self, moves: &[String], picked: &[String], play: &str) -> Verdict {
        let size = self.start.size();
        if let GoGoal::Count { ask, answer, .. } = &self.goal {
            return match read_count(*ask, play) {
                None => Verdict::Invalid {
                    why: Text {
                        zh: format!("看不懂“{play}”：请写一个数，比如 41 或 2.5（也可以写 2½）。"),
                        en: format!("“{play}” cannot be read: write a number such as 41 or 2.5 (or 2½)."),
                    },
                },
                Some(given) if &given == answer => Verdict::Correct {
                    moves: vec![given],
                    reply: None,
                    solved: true,
                },
                Some(given) => Verdict::Wrong {
                    why: Some(Text::from_fn(|lang| self.count_advice(&given, lang))),
                    shown: moves.to_vec(),
                },
            };
        }
        let Some(mv) = self.canonical(play) else {
            return Verdict::Invalid {
                why: Text {
                    zh: format!("“{play}”不是棋盘上的点。"),
                    en: format!("“{play}” is not a point on this board."),
                },
            };
        };
        if let GoGoal::Select { ask, .. } = &self.goal {
            let why = miss(*ask, &mv);
            return shared::pick(&self.answer(), &self.valid_picks(picked), mv, why);
        }
        // On the written lines the tree decides (cheap); only progress off them is asked of
        // the solver again.
        let fits = self.lines.follows(moves)
            || self
                .valid_moves(moves)
                .is_some_and(|valid| valid.as_slice() == moves);
        let Some(pos) = fits.then(|| self.replay(moves)).flatten() else {
            return shared::off_the_lines();
        };
        let parsed = Move::parse(&mv, size).expect("canonical move parses");
        let after = match pos.play_move(parsed) {
            Ok(after) => after,
            Err(e) => {
                return Verdict::Illegal {
                    reason: Text {
                        zh: e.explain(Lang::Zh),
                        en: e.explain(Lang::En),
                    },
                }
            }
        };
        let line = match shared::from_lines(&self.lines, moves, &mv) {
            Ok(verdict) => return verdict,
            Err(line) => line,
        };
        if let Some(judge) = &self.life {
            return judge.judge(&pos, parsed, line);
        }
        if let GoGoal::Capture(targets) = &self.goal {
            if targets.iter().all(|&t| after.board().get(t).is_none()) {
                return Verdict::Correct {
                    moves: line,
                    reply: None,
                    solved: true,
                };
            }
        }
        Verdict::Wrong {
            why: None,
            shown: line,
        }
    }
}

/// Why a clicked point is not part of a `select` answer.
fn miss(ask: Ask, point: &str) -> Text {
    match ask {
        Ask::Liberties(_) => Text {
            zh: format!("{point} 不是这块棋的气。气是紧挨着棋子的空交叉点（上下左右）。"),
            en: format!("{point} is not a liberty of this chain. Liberties are the empty points right next to its stones (up, down, left, right)."),
        },
        Ask::Chain(_) => Text {
            zh: format!("{point} 不属于这块棋：只有上下左右相连的同色棋子才是一块棋。"),
            en: format!("{point} is not part of this chain: only stones of one colour joined up, down, left or right form a chain."),
        },
        Ask::Forbidden(c) => {
            let (zh, en) = if c == Color::Black { ("黑", "Black") } else { ("白", "White") };
            Text {
                zh: format!("{point} 不是{zh}方的禁着点：{zh}可以下在这里。"),
                en: format!("{point} is not forbidden: {en} may play there."),
            }
        }
        Ask::Captures => Text {
            zh: format!("下在 {point} 提不掉对方的棋子。"),
            en: format!("Playing {point} captures nothing."),
        },
        Ask::Atari => Text {
            zh: format!("下在 {point} 不能叫吃对方的棋子。"),
            en: format!("Playing {point} puts no opponent stones in atari."),
        },
        Ask::InAtari(_) => Text {
            zh: format!("{point} 不是被叫吃的棋子：它不止一口气，或者那里没有这种颜色的棋子。"),
            en: format!("{point} is not a stone in atari: it has more than one liberty, or no such stone is there."),
        },
    }
}
