//! Shogi content: `shogi` diagrams and shogi problems, read from TOML and played through the
//! engine; tsume problems are proven by search when the content loads.

use super::diagnostic::{Ctx, Diagnostic};
use super::lines::{self, LineTree};
use super::marks::{with_marks, BoardMarks, MarkSpec, Sq};
use super::problem::{shared, Action, BoardRequest, Problem, Puzzle, Verdict};
use super::text::Text;
use super::{Diagram, Frame};
use crate::lang::Lang;
use crate::render::shogi as draw;
use crate::rules::shogi::select::Ask;
use crate::rules::shogi::{Color, Kind, Played, Position, Square};
use toml::Spanned;

with_marks! {
    /// A `shogi` block.
    struct DiagramSpec {
        sfen: Option<Spanned<String>>,
        orientation: Option<Spanned<String>>,
        #[serde(default)]
        zones: bool,
        caption: Option<String>,
        drops_of: Option<Spanned<String>>,
        #[serde(default)]
        steps: Vec<Spanned<StepSpec>>,
    }
}

with_marks! {
    /// One `[[steps]]` table of a shogi diagram.
    struct StepSpec {
        play: Option<Spanned<String>>,
        say: Option<String>,
        drops_of: Option<Spanned<String>>,
    }
}

fn sq(s: Square) -> Sq {
    (s.file, s.rank)
}

fn parse_sq(text: &str) -> Option<Sq> {
    Square::parse(text).map(sq)
}

/// Every square the piece on `from`, or a piece of `kind` dropped from the hand, may go to.
fn destinations(pos: &Position, from: Option<Square>, drop: Option<Kind>) -> Vec<Sq> {
    let mut out: Vec<Sq> = pos
        .legal_moves()
        .into_iter()
        .filter(|m| match (from, drop) {
            (Some(f), _) => m.from == Some(f),
            (None, Some(k)) => m.drop == Some(k),
            (None, None) => false,
        })
        .map(|m| sq(m.to))
        .collect();
    out.sort();
    out.dedup();
    out
}

fn read_marks(
    spec: MarkSpec,
    drops_of: Option<&Spanned<String>>,
    ctx: &Ctx,
    pos: &Position,
) -> Result<BoardMarks, Diagnostic> {
    let mut marks = spec.read(ctx, &parse_sq, "5e")?;
    if let Some(name) = spec.moves_of {
        let from = Square::parse(name.get_ref()).ok_or_else(|| {
            ctx.err(
                name.span(),
                format!("`{}` is not a square: write it like 5e", name.get_ref()),
            )
        })?;
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
    if let Some(kind) = drops_of {
        let k = Kind::from_sfen(kind.get_ref())
            .filter(|k| !k.is_promoted() && *k != Kind::King)
            .ok_or_else(|| {
                ctx.err(
                    kind.span(),
                    format!(
                        "drops_of `{}` should be a piece letter: P L N S G B R",
                        kind.get_ref()
                    ),
                )
            })?;
        marks.dots.extend(destinations(pos, None, Some(k)));
    }
    Ok(marks)
}

fn position(ctx: &Ctx, sfen: Option<&Spanned<String>>) -> Result<Position, Diagnostic> {
    match sfen {
        None => Ok(Position::start()),
        Some(s) => Position::from_sfen(s.get_ref()).map_err(|e| ctx.err(s.span(), e.to_string())),
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
            "black" => Ok(false),
            "white" => Ok(true),
            other => Err(ctx.err(
                o.span(),
                format!(
                    "orientation `{other}` should be \"black\" (sente at the bottom) or \"white\""
                ),
            )),
        },
    }
}

/// A move in the notation learners read: `☗７六歩`, `☖２二角成`, `☗５五歩打`.
pub fn japanese(played: &Played, mover: Color) -> String {
    const FILES: [&str; 9] = ["１", "２", "３", "４", "５", "６", "７", "８", "９"];
    const RANKS: [&str; 9] = ["一", "二", "三", "四", "五", "六", "七", "八", "九"];
    let mark = if mover == Color::Black { "☗" } else { "☖" };
    let piece = played.drop.unwrap_or(played.kind).kanji(mover);
    let suffix = if played.drop.is_some() {
        "打"
    } else if played.promote {
        "成"
    } else {
        ""
    };
    format!(
        "{mark}{}{}{piece}{suffix}",
        FILES[played.to.file as usize - 1],
        RANKS[played.to.rank as usize - 1]
    )
}

/// Plays one written USI move, for line building.
fn play_shogi(pos: &Position, text: &str) -> Result<(Position, String), String> {
    pos.play(text)
        .map(|(next, played)| (next, played.usi))
        .map_err(|e| format!("{text} is illegal: {}", e.explain(Lang::En)))
}

struct ShogiFrame {
    position: Position,
    last: Option<(Option<Sq>, Sq)>,
    marks: BoardMarks,
    say: Option<String>,
}

/// Reads a `shogi` block and plays its steps.
pub(crate) fn diagram(
    ctx: &Ctx,
    body: &str,
    id: Option<String>,
    lang: Lang,
) -> Result<Diagram, Diagnostic> {
    let spec: DiagramSpec = toml::from_str(body).map_err(|e| ctx.toml_error(&e))?;
    let start = position(ctx, spec.sfen.as_ref())?;
    let flip = flipped(ctx, spec.orientation.as_ref(), false)?;
    let mut frames = vec![ShogiFrame {
        marks: read_marks(spec.marks(), spec.drops_of.as_ref(), ctx, &start)?,
        position: start.clone(),
        last: None,
        say: spec.caption.clone(),
    }];
    let mut pos = start;
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
                last = Some((played.from.map(sq), sq(played.to)));
            }
        } else if step.say.is_none() {
            return Err(ctx.err(
                span,
                format!("step {n} does nothing: give it `play` or `say`"),
            ));
        }
        frames.push(ShogiFrame {
            marks: read_marks(step.marks(), step.drops_of.as_ref(), ctx, &pos)?,
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
                    spec.zones,
                    f.last,
                    &f.marks,
                    None,
                    None,
                    lang,
                    &title,
                ),
                key: format!(
                    "{}|{:?}|{:?}|{}",
                    f.position.sfen(),
                    f.last,
                    f.marks,
                    spec.zones
                ),
                say: f.say,
            })
            .collect(),
    })
}

#[allow(clippy::too_many_arguments)]
fn render(
    pos: &Position,
    flipped: bool,
    zones: bool,
    last: Option<(Option<Sq>, Sq)>,
    marks: &BoardMarks,
    selected: Option<draw::Target>,
    link: Option<&dyn Fn(draw::Target) -> String>,
    lang: Lang,
    title: &str,
) -> String {
    let pieces: Vec<(Sq, draw::Piece)> = pos
        .pieces()
        .into_iter()
        .map(|(s, color, kind)| {
            (
                sq(s),
                draw::Piece {
                    black: color == Color::Black,
                    letter: kind.sfen_letter(),
                    promoted: kind.is_promoted(),
                },
            )
        })
        .collect();
    const ORDER: [char; 7] = ['R', 'B', 'G', 'S', 'N', 'L', 'P'];
    let mut hands = [[0u8; 7]; 2];
    for (i, color) in [Color::Black, Color::White].into_iter().enumerate() {
        for (kind, count) in pos.hand(color) {
            if let Some(j) = ORDER.iter().position(|&c| c == kind.sfen_letter()) {
                hands[i][j] = count;
            }
        }
    }
    draw::svg(&draw::ShogiDiagram {
        pieces: &pieces,
        hands,
        flipped,
        zones,
        last_move: last,
        check: if pos.is_check() {
            pos.king_square(pos.turn()).map(sq)
        } else {
            None
        },
        selected,
        dots: &marks.dots,
        highlight: &marks.highlight,
        arrows: &marks.arrows,
        marks: &marks.shapes,
        link,
        lang,
        title,
    })
}

with_marks! {
    /// One `[[problem]]` of a shogi set.
    struct ProblemSpec {
        id: Spanned<String>,
        prompt: Text,
        sfen: Spanned<String>,
        orientation: Option<Spanned<String>>,
        #[serde(default)]
        zones: bool,
        goal: Spanned<String>,
        mate_in: Option<Spanned<u32>>,
        ask: Option<Spanned<String>>,
        difficulty: Option<Spanned<u8>>,
        #[serde(default)]
        solutions: Vec<Spanned<String>>,
        hint: Option<Text>,
        explanation: Option<Text>,
        drops_of: Option<Spanned<String>>,
        #[serde(default)]
        wrong: Vec<WrongSpec>,
    }
}

#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct WrongSpec {
    line: Spanned<String>,
    why: Text,
}

/// What a shogi problem asks.
#[derive(Clone, Debug)]
pub enum ShogiGoal {
    /// Tsume: mate in `n` plies, every attacking move a check, proven by search.
    Tsume(u32),
    /// Follow the written lines.
    Lines,
    /// Click every square of the engine's answer.
    Select { ask: Ask, answer: Vec<Square> },
}

/// A shogi problem, ready to judge attempts.
#[derive(Clone, Debug)]
pub struct ShogiPuzzle {
    /// The position the learner starts from.
    pub start: Position,
    /// Gote at the bottom.
    pub flipped: bool,
    zones: bool,
    marks: BoardMarks,
    /// What is asked.
    pub goal: ShogiGoal,
    /// Correct and wrong lines.
    pub lines: LineTree,
}

/// The id of a problem spec, for duplicate checks.
pub(crate) fn problem_id(spec: &ProblemSpec) -> &Spanned<String> {
    &spec.id
}

/// Tsume longer than this are refused: they would make loading slow.
const MAX_TSUME: u32 = 11;

/// Reads one shogi problem; every error found is returned.
pub(crate) fn problem(ctx: &Ctx, spec: ProblemSpec) -> Result<Problem, Vec<Diagnostic>> {
    let start = position(ctx, Some(&spec.sfen)).map_err(|e| vec![e])?;
    let mut errors = Vec::new();
    let flip = flipped(ctx, spec.orientation.as_ref(), start.turn() == Color::White)
        .unwrap_or_else(|e| {
            errors.push(e);
            false
        });
    let marks = read_marks(spec.marks(), spec.drops_of.as_ref(), ctx, &start).unwrap_or_else(|e| {
        errors.push(e);
        BoardMarks::default()
    });
    let wrong: Vec<_> = spec.wrong.iter().map(|w| (&w.line, &w.why)).collect();
    let (lines, ends) = lines::build(
        ctx,
        &start,
        &play_shogi,
        &spec.solutions,
        &wrong,
        &mut errors,
    );
    let goal_name = spec.goal.get_ref().as_str();
    let goal = match goal_name {
        "tsume" => match &spec.mate_in {
            None => {
                errors.push(ctx.err(
                    spec.goal.span(),
                    "goal `tsume` needs `mate_in`, the number of plies, like mate_in = 3",
                ));
                ShogiGoal::Lines
            }
            Some(n) if *n.get_ref() % 2 == 0 || !(1..=MAX_TSUME).contains(n.get_ref()) => {
                errors.push(ctx.err(
                    n.span(),
                    format!("mate_in counts plies of a tsume (the attacker moves first and last): use an odd number, 1 to {MAX_TSUME}"),
                ));
                ShogiGoal::Lines
            }
            Some(n) => {
                let n = *n.get_ref();
                let mating = start.tsume_first_moves(n);
                if mating.is_empty() {
                    errors.push(ctx.err(
                        spec.goal.span(),
                        format!("the side to move has no tsume in {n} plies here: check the SFEN and mate_in"),
                    ));
                }
                let mating: Vec<String> = mating.into_iter().map(|m| m.usi).collect();
                shared::mate_lines(
                    ctx,
                    &format!("mate in {n} plies with checks"),
                    &spec.solutions,
                    &ends,
                    &mating,
                    |mv| start.play(mv).ok().map(|(_, played)| played.usi),
                    |end| end.is_tsume_mate(),
                    &mut errors,
                );
                ShogiGoal::Tsume(n)
            }
        },
        "best" => {
            shared::needs_lines(ctx, &spec.goal, &spec.solutions, &mut errors);
            ShogiGoal::Lines
        }
        "select" => shared::select(
            ctx,
            &spec.goal,
            spec.ask.as_ref(),
            "drops:P",
            |text| {
                let ask = Ask::parse(text).map_err(|e| e.to_string())?;
                let answer = ask.answer(&start).map_err(|e| e.to_string())?;
                Ok((ask, answer))
            },
            &mut errors,
        )
        .map_or(ShogiGoal::Lines, |(ask, answer)| ShogiGoal::Select {
            ask,
            answer,
        }),
        other => {
            errors.push(ctx.err(
                spec.goal.span(),
                format!("unknown goal `{other}`: use tsume, best or select"),
            ));
            ShogiGoal::Lines
        }
    };
    shared::only_with(
        ctx,
        "mate_in",
        spec.mate_in.as_ref(),
        goal_name,
        "tsume",
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
    Ok(Problem {
        id: spec.id.get_ref().clone(),
        prompt: spec.prompt,
        difficulty,
        hint: spec.hint,
        explanation: spec.explanation,
        goal: goal_name.to_string(),
        puzzle: Puzzle::Shogi(ShogiPuzzle {
            start,
            flipped: flip,
            zones: spec.zones,
            marks,
            goal,
            lines,
        }),
    })
}

impl ShogiPuzzle {
    /// The position after `moves` (USI), if they are all legal.
    pub fn replay(&self, moves: &[String]) -> Option<Position> {
        moves.iter().try_fold(self.start.clone(), |pos, m| {
            pos.play(m).ok().map(|(p, _)| p)
        })
    }

    /// `moves` if they are legal and fit the problem: they follow the written lines, or, for
    /// a tsume, every learner move still forces mate in time.
    pub fn valid_moves(&self, moves: &[String]) -> Option<Vec<String>> {
        let mut pos = self.start.clone();
        let mut canonical = Vec::new();
        for (i, m) in moves.iter().enumerate() {
            if let ShogiGoal::Tsume(n) = self.goal {
                let left = n.checked_sub(i as u32)?;
                if i % 2 == 0 && !pos.forces_tsume(m, left) {
                    return None;
                }
            }
            let (next, played) = pos.play(m).ok()?;
            pos = next;
            canonical.push(played.usi);
        }
        match self.goal {
            ShogiGoal::Tsume(_) => Some(canonical),
            _ => self.lines.follows(&canonical).then_some(canonical),
        }
    }

    /// Whether the problem is solved after `moves`.
    pub fn is_solved(&self, moves: &[String]) -> bool {
        match self.goal {
            ShogiGoal::Tsume(_) => self.replay(moves).is_some_and(|p| p.is_tsume_mate()),
            _ => !moves.is_empty() && self.lines.ends_at(moves),
        }
    }

    /// The squares of a `select` answer.
    pub fn answer(&self) -> Vec<String> {
        match &self.goal {
            ShogiGoal::Select { answer, .. } => answer.iter().map(|s| s.usi()).collect(),
            _ => Vec::new(),
        }
    }

    /// The squares of `picked` that belong to the answer, once each.
    pub fn valid_picks(&self, picked: &[String]) -> Vec<String> {
        shared::valid_picks(&self.answer(), picked, |p| p.to_string())
    }

    /// "先手番" / "Black (sente) to play", unless nobody moves.
    pub fn to_play(&self) -> Option<Text> {
        if matches!(
            self.goal,
            ShogiGoal::Select {
                ask: Ask::Moves(_) | Ask::Attacks(_),
                ..
            }
        ) {
            return None;
        }
        Some(match self.start.turn() {
            Color::Black => Text {
                zh: "先手走".into(),
                en: "Black (sente) to play".into(),
            },
            Color::White => Text {
                zh: "后手走".into(),
                en: "White (gote) to play".into(),
            },
        })
    }

    /// `mv` (USI) after `before`, in Japanese notation.
    pub fn notation(&self, before: &[String], mv: &str) -> String {
        self.replay(before)
            .and_then(|p| {
                let mover = p.turn();
                p.play(mv).ok().map(|(_, played)| japanese(&played, mover))
            })
            .unwrap_or_else(|| mv.to_string())
    }

    /// The moves from `from` to `to` when promotion is optional: promote, or not.
    pub fn choices(&self, moves: &[String], from: &str, to: &str) -> Vec<(Text, String)> {
        let Some(pos) = self.replay(moves) else {
            return Vec::new();
        };
        let (Some(from), Some(to)) = (Square::parse(from), Square::parse(to)) else {
            return Vec::new();
        };
        let mut out: Vec<(Text, String)> = pos
            .legal_moves()
            .into_iter()
            .filter(|m| m.from == Some(from) && m.to == to)
            .map(|m| {
                let label = if m.promote {
                    Text {
                        zh: "升变（成）".into(),
                        en: "Promote".into(),
                    }
                } else {
                    Text {
                        zh: "不升变（不成）".into(),
                        en: "Don't promote".into(),
                    }
                };
                (label, m.usi)
            })
            .collect();
        out.sort_by_key(|(_, usi)| !usi.ends_with('+'));
        out
    }

    /// Judges the learner's move (or, for `select`, square) `play` after `moves`.
    pub fn attempt(&self, moves: &[String], picked: &[String], play: &str) -> Verdict {
        if let ShogiGoal::Select { ask, .. } = &self.goal {
            let Some(square) = Square::parse(play) else {
                return Verdict::Invalid {
                    why: Text {
                        zh: format!("“{play}”不是棋盘上的格子。"),
                        en: format!("“{play}” is not a square of the board."),
                    },
                };
            };
            let name = square.usi();
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
        let mut line = match shared::from_lines(&self.lines, &moves, &played.usi) {
            Ok(verdict) => return verdict,
            Err(line) => line,
        };
        match &self.goal {
            ShogiGoal::Tsume(n) => {
                let left = n.saturating_sub(moves.len() as u32);
                // Mate by tsume rules: only futile interpositions (無駄合) would be left.
                let mated = after.is_tsume_mate();
                if played.check && mated {
                    Verdict::Correct {
                        moves: line,
                        reply: None,
                        solved: true,
                    }
                } else if pos.forces_tsume(&played.usi, left) {
                    let reply = after.best_defence(left - 1).map(|m| m.usi);
                    if let Some(r) = &reply {
                        line.push(r.clone());
                    }
                    Verdict::Correct {
                        moves: line,
                        reply,
                        solved: false,
                    }
                } else {
                    let name = japanese(&played, pos.turn());
                    let why = if played.check {
                        Text {
                            zh: format!("{name} 虽然是王手，但不能在 {left} 手内把对方将死。"),
                            en: format!(
                                "{name} gives check but does not force mate within {left} {}.",
                                if left == 1 { "ply" } else { "plies" }
                            ),
                        }
                    } else {
                        Text {
                            zh: format!("{name} 不是王手。诘将棋里攻方每一步都必须将军（王手）。"),
                            en: format!("{name} is not a check. In tsume every attacking move must give check."),
                        }
                    };
                    Verdict::Wrong {
                        why: Some(why),
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
            let (_, played) = self
                .replay(&request.shown[..request.shown.len() - 1])?
                .play(m)
                .ok()?;
            Some((played.from.map(sq), sq(played.to)))
        });
        let mut marks = self.marks.clone();
        marks
            .highlight
            .extend(request.picked.iter().filter_map(|p| parse_sq(p)));
        // The picked-up piece: a square like `7g`, or a piece in hand like `P*`.
        let selected_square = request.selected.and_then(Square::parse);
        let selected_drop = request
            .selected
            .and_then(|s| s.strip_suffix('*'))
            .and_then(Kind::from_sfen);
        if selected_square.is_some() || selected_drop.is_some() {
            marks.dots = destinations(&pos, selected_square, selected_drop);
        }
        let select_goal = matches!(self.goal, ShogiGoal::Select { .. });
        let turn = pos.turn();
        let link = request.href.map(|href| {
            let pos = pos.clone();
            move |target: draw::Target| match target {
                draw::Target::Hand { black, letter } => {
                    let own = black == (turn == Color::Black);
                    let name = format!("{letter}*");
                    if select_goal || !own || selected_drop.map(|k| k.sfen_letter()) == Some(letter)
                    {
                        href(Action::Select(None))
                    } else {
                        href(Action::Select(Some(name)))
                    }
                }
                draw::Target::Square(s) => {
                    let name = draw::square_name(s);
                    if select_goal {
                        return href(Action::Play(name));
                    }
                    let Some(target_sq) = Square::parse(&name) else {
                        return href(Action::Select(None));
                    };
                    let own = pos.piece_at(target_sq).is_some_and(|(c, _)| c == turn);
                    if let Some(kind) = selected_drop {
                        return href(Action::Play(format!("{}*{name}", kind.sfen_letter())));
                    }
                    match selected_square {
                        Some(from) if from == target_sq => href(Action::Select(None)),
                        _ if own => href(Action::Select(Some(name))),
                        // Nothing picked up: a piece can be picked up; an empty square does
                        // nothing.
                        None if pos.piece_at(target_sq).is_some() => href(Action::Select(Some(name))),
                        None => href(Action::Select(None)),
                        Some(from) => {
                            let options: Vec<Played> = pos
                                .legal_moves()
                                .into_iter()
                                .filter(|m| m.from == Some(from) && m.to == target_sq)
                                .collect();
                            match options.as_slice() {
                                [only] => href(Action::Play(only.usi.clone())),
                                [_, _, ..] => href(Action::Choose {
                                    from: from.usi(),
                                    to: name,
                                }),
                                [] => href(Action::Play(format!("{}{name}", from.usi()))),
                            }
                        }
                    }
                }
            }
        });
        let selected = selected_square
            .map(|s| draw::Target::Square(sq(s)))
            .or(selected_drop.map(|k| draw::Target::Hand {
                black: turn == Color::Black,
                letter: k.sfen_letter(),
            }));
        render(
            &pos,
            self.flipped,
            self.zones,
            last,
            &marks,
            selected,
            link.as_ref().map(|l| l as &dyn Fn(draw::Target) -> String),
            request.lang,
            request.title,
        )
    }
}

/// Why a clicked square is not part of a `select` answer.
/// A square as Chinese and Japanese books write it: file digit, rank kanji (`5e` → `5五`).
pub fn kanji_square(square: Square) -> String {
    const RANKS: [&str; 9] = ["一", "二", "三", "四", "五", "六", "七", "八", "九"];
    format!("{}{}", square.file, RANKS[square.rank as usize - 1])
}

fn miss(ask: &Ask, usi: &str) -> Text {
    let zh = Square::parse(usi).map_or_else(|| usi.to_string(), kanji_square);
    match ask {
        Ask::Moves(_) => Text {
            zh: format!("这个棋子不能走到 {zh}。"),
            en: format!("The piece cannot move to {usi}."),
        },
        Ask::Attacks(_) => Text {
            zh: format!("这个棋子没有攻击 {zh}。"),
            en: format!("The piece does not attack {usi}."),
        },
        Ask::Drops(_) => Text {
            zh: format!("不能把这个棋子打在 {zh}。"),
            en: format!("That piece may not be dropped on {usi}."),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_squares_the_chinese_way() {
        assert_eq!(kanji_square(Square::parse("5e").unwrap()), "5五");
        assert_eq!(kanji_square(Square::parse("1a").unwrap()), "1一");
        assert!(miss(&Ask::Moves(Square::parse("5e").unwrap()), "4g")
            .zh
            .contains("4七"));
    }
}
