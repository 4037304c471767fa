//! The puzzle of a game of pieces on squares (chess, shogi), written once over the engine
//! interface: diagram steps, problem reading (position, orientation, lines, mate proofs,
//! `select` questions, wrong lines), replay, judging and the clickable board. Each game's file
//! keeps only what differs: notation, orientation words, drops, promotion choices, pictures.

use super::diagnostic::{Ctx, Diagnostic};
use super::lines::{self, LineTree};
use super::marks::{with_marks, BoardMarks, MarkSpec, Sq};
use super::problem::{shared, Action, BoardRequest, GamePuzzle, Input, ProblemOf, Tasked, Verdict};
use super::proofs::{LoadProofs, Proof, ProofKey, ProofStore, Proving};
use super::task::{self, TaskSpec};
use super::{Diagram, Frame, Game, Picture};
use crate::base::Text;
use crate::lang::Lang;
use crate::render::svg::Heat;
use crate::rules::{Explain, Rules};
use std::fmt;
use std::sync::Arc;
use toml::Spanned;

/// What a click on a board picks: a square (`e4`, `5e`), or a kind of piece in the hand of
/// the side to move (`P*`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Target {
    /// A square, by its name.
    Square(String),
    /// A piece in hand, as `P*`.
    Hand(String),
    /// A place that picks nothing (a piece in the opponent's hand).
    Nothing,
}

/// Everything a game's picture shows besides the position.
pub struct View<'a> {
    /// The second player at the bottom.
    pub flipped: bool,
    /// Shade the promotion zones (shogi).
    pub zones: bool,
    /// The last move, if any.
    pub last: Option<(Option<Sq>, Sq)>,
    /// Marks, with the picked-up piece's destinations as dots.
    pub marks: &'a BoardMarks,
    /// The piece picked up.
    pub selected: Option<&'a Target>,
    /// A link on every square and piece in hand.
    pub link: Option<&'a dyn Fn(Target) -> String>,
    /// A heat map of answers over the squares.
    pub heat: Option<&'a Heat>,
    /// The language of accessible names.
    pub lang: Lang,
    /// What the picture shows.
    pub title: &'a str,
}

/// What one game of pieces on squares adds to the shared puzzle.
pub trait PieceGame: fmt::Debug + Send + Sync + Sized + 'static {
    /// The engine's position.
    type Pos: Rules + PartialEq;
    /// A `select` question.
    type Ask: Clone + fmt::Debug + Send + Sync;

    /// The game.
    const GAME: Game;
    /// The version of the mate search: proofs are kept by it, so a search that answers
    /// differently must get a new number.
    const SEARCH_VERSION: u32;

    /// The position key of diagrams and problems: `fen`, `sfen`.
    const POSITION: &'static str;
    /// The other game's position key, refused with a hint.
    const OTHER_POSITION: &'static str;
    /// A square, for error messages: `e4`, `5e`.
    const SQUARE_EXAMPLE: &'static str;
    /// The goal proven by search: `mate`, `tsume`.
    const MATE_GOAL: &'static str;
    /// An example question: `moves:e1`.
    const SELECT_EXAMPLE: &'static str;
    /// The orientation words, the first player's side first: `["white", "black"]`.
    const ORIENTATION: [&'static str; 2];
    /// Whether the game has pieces in hand (`drops_of`) and promotion zones (`zones`).
    const HANDS: bool;
    /// The locale key asked when several moves join two squares.
    const CHOOSE: &'static str;

    /// The starting position of a game.
    fn start() -> Self::Pos;
    /// Reads a written position.
    fn read_position(text: &str) -> Result<Self::Pos, String>;
    /// The position as text (frames of twin lessons are compared by it).
    fn position_text(pos: &Self::Pos) -> String;
    /// Whether the second player is to move (they are then drawn at the bottom).
    fn second_to_move(pos: &Self::Pos) -> bool;
    /// The locale key of who is to move.
    fn to_play_key(pos: &Self::Pos) -> &'static str;

    /// Reads a square name.
    fn parse_square(text: &str) -> Option<Sq>;
    /// The canonical name of a square.
    fn square_name(sq: Sq) -> String;
    /// Whether a piece stands on `sq`, and whether it belongs to the side to move.
    fn piece_on(pos: &Self::Pos, sq: Sq) -> Option<bool>;
    /// The squares of a move: from (none for a drop) and to.
    fn squares(mv: &<Self::Pos as Rules>::Move) -> (Option<Sq>, Sq);
    /// The piece dropped by a move, as `P*` (a game without hands drops none).
    fn dropped(_mv: &<Self::Pos as Rules>::Move) -> Option<String> {
        None
    }
    /// How a choice between moves joining the same squares is labelled (the promotion).
    fn choice_label(mv: &<Self::Pos as Rules>::Move) -> Text;
    /// The picture of such a choice (the piece promoted to, as SVG), if the game draws one.
    fn choice_picture(
        _before: &Self::Pos,
        _mv: &<Self::Pos as Rules>::Move,
        _lang: Lang,
    ) -> Option<String> {
        None
    }
    /// Whether the move promotes (promoting choices are offered first).
    fn promotes(_mv: &<Self::Pos as Rules>::Move) -> bool {
        false
    }
    /// Every square the piece on `sq` could go to, as if it were its side's turn.
    fn moves_of(pos: &Self::Pos, sq: Sq) -> Vec<Sq>;
    /// Every square where the side to move may drop `kind` (`P`), or why it is no piece
    /// (a game without hands has none).
    fn drops_of(_pos: &Self::Pos, _kind: &str) -> Result<Vec<Sq>, String> {
        Err(format!("{} has no pieces in hand", Self::GAME.slug()))
    }
    /// The picture.
    fn draw(pos: &Self::Pos, view: &View) -> String;

    /// Reads a record of moves written in a diagram (`pgn` in chess): the moves as text.
    fn record(text: &str) -> Result<Vec<String>, String>;
    /// The step text of a record's move played from `before`: `12… Nf6`.
    fn record_say(before: &Self::Pos, mv: &<Self::Pos as Rules>::Move) -> String;

    /// Checks `mate_in` of a mate problem.
    fn mate_length(n: u32) -> Result<(), String>;
    /// What is proven, for messages: `mate in 2`.
    fn mate_what(n: u32) -> String;
    /// The error when the position has no such mate.
    fn no_mate(n: u32) -> String;
    /// How much of a mate in `n` is left after `played` moves (learner and replies): `n`
    /// counts the attacker's moves, so two plies make one.
    fn left(n: u32, played: usize) -> Option<u32> {
        n.checked_sub(played as u32 / 2)
    }
    /// The first moves that force mate in `n` (canonical names).
    fn mating_moves(pos: &Self::Pos, n: u32) -> Vec<String>;
    /// Whether `mv` forces mate within `left`.
    fn forces(pos: &Self::Pos, mv: &str, left: u32) -> bool;
    /// The most stubborn defence when the attacker has `left` to mate after it (the defender
    /// to move).
    fn best_defence(pos: &Self::Pos, left: u32) -> Option<String>;
    /// Whether the side to move is mated, by the goal's rules.
    fn is_mated(pos: &Self::Pos) -> bool;
    /// Whether the side to move is in check.
    fn in_check(pos: &Self::Pos) -> bool;
    /// Why `mv`, played from `pos`, does not force mate within `left`.
    fn not_forcing(pos: &Self::Pos, mv: &<Self::Pos as Rules>::Move, left: u32) -> Text;

    /// Reads a `select` question and answers it (square names).
    fn ask(text: &str, pos: &Self::Pos) -> Result<(Self::Ask, Vec<String>), String>;
    /// Whether the question asks about a piece rather than for a move.
    fn asks_nobody(ask: &Self::Ask) -> bool;
    /// Why a clicked square is not part of the answer.
    fn miss(ask: &Self::Ask, square: &str) -> Text;
}

with_marks! {
    /// A `chess` or `shogi` block.
    struct DiagramSpec {
        fen: Option<Spanned<String>>,
        sfen: Option<Spanned<String>>,
        orientation: Option<Spanned<String>>,
        zones: Option<Spanned<bool>>,
        caption: Option<String>,
        drops_of: Option<Spanned<String>>,
        pgn: Option<Spanned<String>>,
        #[serde(default)]
        steps: Vec<Spanned<StepSpec>>,
    }
}

with_marks! {
    /// One `[[steps]]` table of a diagram.
    struct StepSpec {
        play: Option<Spanned<String>>,
        say: Option<String>,
        drops_of: Option<Spanned<String>>,
        task: Option<Spanned<TaskSpec>>,
    }
}

with_marks! {
    /// One `[[problem]]` of a chess, shogi or xiangqi set.
    struct ProblemSpec {
        id: Spanned<String>,
        prompt: Text,
        fen: Option<Spanned<String>>,
        sfen: Option<Spanned<String>>,
        orientation: Option<Spanned<String>>,
        zones: Option<Spanned<bool>>,
        goal: Spanned<String>,
        mate_in: Option<Spanned<u32>>,
        ask: Option<Spanned<String>>,
        from: Option<Spanned<String>>,
        to: Option<Spanned<String>>,
        difficulty: Option<Spanned<u8>>,
        #[serde(default)]
        solutions: Vec<Spanned<String>>,
        hint: Option<Text>,
        explanation: Option<Text>,
        drops_of: Option<Spanned<String>>,
        #[serde(default)]
        tags: Vec<String>,
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

/// The id of a problem spec, for duplicate checks.
pub(crate) fn problem_id(spec: &ProblemSpec) -> &Spanned<String> {
    &spec.id
}

/// The position key: the game's own, never the other game's.
fn position<G: PieceGame>(
    ctx: &Ctx,
    fen: Option<&Spanned<String>>,
    sfen: Option<&Spanned<String>>,
    required: Option<&Spanned<String>>,
) -> Result<G::Pos, Diagnostic> {
    let (own, other) = if G::POSITION == "fen" {
        (fen, sfen)
    } else {
        (sfen, fen)
    };
    if let Some(o) = other {
        return Err(ctx.err(
            o.span(),
            format!(
                "`{}` is not used here: write the position as `{}`",
                G::OTHER_POSITION,
                G::POSITION
            ),
        ));
    }
    match own {
        None if required.is_some() => Err(ctx.err(
            required.map_or(0..0, |r| r.span()),
            format!("the problem needs `{}`: its position", G::POSITION),
        )),
        None => Ok(G::start()),
        Some(f) => G::read_position(f.get_ref()).map_err(|e| ctx.err(f.span(), e)),
    }
}

/// `orientation`: the side at the bottom.
fn flipped<G: PieceGame>(
    ctx: &Ctx,
    orientation: Option<&Spanned<String>>,
    default: bool,
) -> Result<bool, Diagnostic> {
    let [first, second] = G::ORIENTATION;
    match orientation.map(|o| (o, o.get_ref().as_str())) {
        None => Ok(default),
        Some((_, w)) if w == first => Ok(false),
        Some((_, w)) if w == second => Ok(true),
        Some((o, other)) => Err(ctx.err(
            o.span(),
            format!("orientation `{other}` should be \"{first}\" or \"{second}\" (the side at the bottom)"),
        )),
    }
}

/// `zones`, only in a game with promotion zones.
fn zones<G: PieceGame>(ctx: &Ctx, zones: Option<&Spanned<bool>>) -> Result<bool, Diagnostic> {
    match zones {
        Some(z) if !G::HANDS => Err(ctx.err(z.span(), "`zones` is only used on shogi boards")),
        z => Ok(z.is_some_and(|z| *z.get_ref())),
    }
}

/// Reads the marks of a block, with `moves_of` and `drops_of` computed in `pos`.
fn read_marks<G: PieceGame>(
    spec: MarkSpec,
    drops_of: Option<&Spanned<String>>,
    ctx: &Ctx,
    pos: &G::Pos,
) -> Result<BoardMarks, Diagnostic> {
    let mut marks = spec.read(ctx, &G::parse_square, G::SQUARE_EXAMPLE)?;
    if let Some(name) = spec.moves_of {
        let from = G::parse_square(name.get_ref()).ok_or_else(|| {
            ctx.err(
                name.span(),
                format!(
                    "`{}` is not a square: write it like {}",
                    name.get_ref(),
                    G::SQUARE_EXAMPLE
                ),
            )
        })?;
        if G::piece_on(pos, from).is_none() {
            return Err(ctx.err(
                name.span(),
                format!("moves_of: there is no piece on {}", name.get_ref()),
            ));
        }
        marks.dots = G::moves_of(pos, from);
    }
    if let Some(kind) = drops_of {
        if !G::HANDS {
            return Err(ctx.err(kind.span(), "`drops_of` is only used on shogi boards"));
        }
        let dots = G::drops_of(pos, kind.get_ref()).map_err(|e| ctx.err(kind.span(), e))?;
        marks.dots.extend(dots);
    }
    Ok(marks)
}

/// Plays one written move, for line building.
fn play_text<P: Rules>(pos: &mut P, text: &str) -> Result<String, String> {
    pos.play_in_place(text)
        .map(|played| pos.move_name(&played))
        .map_err(|e| format!("{text} is illegal: {}", e.explain(Lang::En)))
}

struct Shot<G: PieceGame> {
    position: G::Pos,
    last: Option<(Option<Sq>, Sq)>,
    marks: BoardMarks,
    say: Option<String>,
    task: Option<(ProblemOf<BoardPuzzle<G>>, String)>,
}

/// Reads a `chess` or `shogi` block and plays its steps.
pub(crate) fn diagram<G: PieceGame>(
    ctx: &Ctx,
    body: &str,
    id: Option<String>,
    lang: Lang,
) -> Result<Tasked<BoardPuzzle<G>>, Diagnostic> {
    let spec: DiagramSpec = toml::from_str(body).map_err(|e| ctx.toml_error(&e))?;
    let start = position::<G>(ctx, spec.fen.as_ref(), spec.sfen.as_ref(), None)?;
    let flip = flipped::<G>(ctx, spec.orientation.as_ref(), false)?;
    let zones = zones::<G>(ctx, spec.zones.as_ref())?;
    let mut shots: Vec<Shot<G>> = vec![Shot {
        marks: read_marks::<G>(spec.marks(), spec.drops_of.as_ref(), ctx, &start)?,
        position: start.clone(),
        last: None,
        say: spec.caption.clone(),
        task: None,
    }];
    let mut pos = start;
    if let Some(record) = &spec.pgn {
        if G::POSITION != "fen" {
            return Err(ctx.err(record.span(), "`pgn` is only used on chess boards"));
        }
        if !spec.steps.is_empty() {
            return Err(ctx.err(record.span(), "give either `pgn` or `[[steps]]`, not both"));
        }
        let moves = G::record(record.get_ref()).map_err(|e| ctx.err(record.span(), e))?;
        for (n, mv) in moves.iter().enumerate() {
            let (next, played) = pos.play(mv).map_err(|e| {
                ctx.err(
                    record.span(),
                    format!(
                        "pgn move {} ({mv}) is illegal: {}",
                        n + 1,
                        e.explain(Lang::En)
                    ),
                )
            })?;
            let say = G::record_say(&pos, &played);
            pos = next;
            shots.push(Shot {
                position: pos.clone(),
                last: Some(G::squares(&played)),
                marks: BoardMarks::default(),
                say: Some(say),
                task: None,
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
                last = Some(G::squares(&played));
            }
        } else if step.say.is_none() && step.task.is_none() {
            return Err(ctx.err(
                span,
                format!("step {n} does nothing: give it `play` or `say`"),
            ));
        }
        let marks = read_marks::<G>(step.marks(), step.drops_of.as_ref(), ctx, &pos)?;
        let task = match &step.task {
            None => None,
            Some(written) => {
                let problem = read_task::<G>(
                    ctx,
                    n,
                    written,
                    step.say.as_deref(),
                    &pos,
                    flip,
                    zones,
                    &marks,
                )?;
                Some((problem, written.get_ref().key()))
            }
        };
        shots.push(Shot {
            marks,
            position: pos.clone(),
            last,
            say: step.say.clone(),
            task,
        });
    }
    let title = spec.caption.clone().unwrap_or_default();
    let mut tasks = Vec::new();
    let diagram = Diagram {
        id,
        go_line: None,
        caption: spec.caption,
        frames: shots
            .into_iter()
            .enumerate()
            .map(|(i, f)| {
                let task_key = match f.task {
                    Some((p, k)) => {
                        tasks.push((i, p));
                        k
                    }
                    None => String::new(),
                };
                let key = format!(
                    "{}|{:?}|{:?}|{zones}|{task_key}",
                    G::position_text(&f.position),
                    f.last,
                    f.marks
                );
                let (position, last, marks, title) = (f.position, f.last, f.marks, title.clone());
                Frame {
                    picture: Picture::new(move || {
                        G::draw(
                            &position,
                            &View {
                                flipped: flip,
                                zones,
                                last,
                                marks: &marks,
                                selected: None,
                                link: None,
                                heat: None,
                                lang,
                                title: &title,
                            },
                        )
                    }),
                    key,
                    say: f.say,
                    task: None,
                }
            })
            .collect(),
    };
    Ok(Tasked { diagram, tasks })
}

/// What a chess, shogi or xiangqi problem asks.
#[derive(Clone, Debug)]
pub enum Goal<A> {
    /// Mate (chess: in `n` moves of the side to move; shogi: tsume in `n` plies), proven by
    /// search.
    Mate(u32),
    /// Follow the written lines.
    Lines,
    /// Click every square of the engine's answer (square names).
    Select {
        /// The question.
        ask: A,
        /// The squares that answer it.
        answer: Vec<String>,
    },
    /// Any legal move of the piece on `from` (or a drop of the piece in hand `P*`) to `to`;
    /// either may be open.
    Move {
        /// The square the piece leaves, or the piece dropped from the hand.
        from: Option<Target>,
        /// The square the piece goes to.
        to: Option<Sq>,
    },
    /// Any legal move that gives check.
    Check,
}

impl<A> Goal<A> {
    /// For a `move` or `check` goal: whether `mv`, leading to `after`, is what is asked
    /// (`None` for the other goals).
    fn fits<G: PieceGame>(&self, mv: &<G::Pos as Rules>::Move, after: &G::Pos) -> Option<bool> {
        match self {
            Goal::Move { from, to } => {
                let (leaves, reaches) = G::squares(mv);
                let from_fits = match from {
                    None => true,
                    Some(Target::Square(s)) => leaves.is_some() && leaves == G::parse_square(s),
                    Some(Target::Hand(p)) => G::dropped(mv).as_deref() == Some(p.as_str()),
                    Some(Target::Nothing) => false,
                };
                Some(from_fits && to.is_none_or(|t| reaches == t))
            }
            Goal::Check => Some(G::in_check(after)),
            _ => None,
        }
    }

    /// Why `mv` is not what a `move` or `check` goal asks.
    fn miss<G: PieceGame>(&self, mv: &<G::Pos as Rules>::Move) -> Text {
        match self {
            Goal::Move { from, to } => {
                let (leaves, reaches) = G::squares(mv);
                match from {
                    Some(Target::Hand(p)) if G::dropped(mv).as_deref() != Some(p.as_str()) => {
                        let piece = p.trim_end_matches('*');
                        return Text {
                            zh: format!("这一步不是从手里打入 {piece}。"),
                            en: format!("That move does not drop {piece} from the hand."),
                        };
                    }
                    Some(Target::Square(s)) if leaves != G::parse_square(s) => {
                        return Text {
                            zh: format!("这一步走的不是 {s} 上的棋子。"),
                            en: format!("That move does not move the piece on {s}."),
                        };
                    }
                    _ => {}
                }
                let to = to
                    .filter(|t| *t != reaches)
                    .map(G::square_name)
                    .unwrap_or_default();
                Text {
                    zh: format!("这一步没有走到 {to}。"),
                    en: format!("That move does not reach {to}."),
                }
            }
            _ => Text {
                zh: "这一步没有将军：走完以后，对方的王没有被攻击。".into(),
                en: "That move gives no check: after it, the opponent's king is not attacked."
                    .into(),
            },
        }
    }
}

/// A chess, shogi or xiangqi problem, ready to judge attempts.
#[derive(Clone, Debug)]
pub struct BoardPuzzle<G: PieceGame> {
    /// The position the learner starts from.
    pub start: G::Pos,
    /// The second player at the bottom.
    pub flipped: bool,
    zones: bool,
    marks: BoardMarks,
    /// What is asked.
    pub goal: Goal<G::Ask>,
    /// Correct and wrong lines.
    pub lines: LineTree,
    /// For a mate goal: the proof of its first moves, which judges the learner's first move
    /// (searched for on demand if the background proof has not got to it yet).
    proof: Option<Arc<Proof>>,
}

/// Reads one problem; every error found is returned (a mate problem's proof errors now or
/// later, as `proofs` says).
pub(crate) fn problem<G: PieceGame>(
    ctx: &Ctx,
    spec: ProblemSpec,
    proofs: &mut LoadProofs,
) -> Result<ProblemOf<BoardPuzzle<G>>, Vec<Diagnostic>> {
    let start = position::<G>(ctx, spec.fen.as_ref(), spec.sfen.as_ref(), Some(&spec.id))
        .map_err(|e| vec![e])?;
    problem_from(ctx, spec, start, proofs, |puzzle| puzzle)
}

/// Reads a lesson task at step `n` of a diagram: a problem from the step's position `start`,
/// drawn as the diagram is (`flipped`, `zones`, the step's `marks`); its prompt is the
/// step's `say`.
#[allow(clippy::too_many_arguments)]
fn read_task<G: PieceGame>(
    ctx: &Ctx,
    n: usize,
    written: &Spanned<TaskSpec>,
    say: Option<&str>,
    start: &G::Pos,
    flipped: bool,
    zones: bool,
    marks: &BoardMarks,
) -> Result<ProblemOf<BoardPuzzle<G>>, Diagnostic> {
    let say = task::instruction(ctx, n, written, say)?;
    let t = written.get_ref();
    if let Some(first) = t.target.first() {
        return Err(ctx.err(
            first.span(),
            format!("step {n}: `target` is only used in Go tasks (goal = \"capture\"); here use goal = \"{}\" or \"best\"", G::MATE_GOAL),
        ));
    }
    let (prompt, hint, explanation) = task::texts(say, t);
    let spec = ProblemSpec {
        id: Spanned::new(t.goal.span(), "task".to_string()),
        prompt,
        fen: None,
        sfen: None,
        orientation: None,
        zones: None,
        goal: t.goal.clone(),
        mate_in: t.mate_in.clone(),
        ask: t.ask.clone(),
        from: t.from.clone(),
        to: t.to.clone(),
        difficulty: None,
        solutions: t.solutions.clone(),
        hint,
        explanation,
        drops_of: None,
        tags: Vec::new(),
        wrong: t
            .wrong_lines()
            .into_iter()
            .map(|(line, why)| WrongSpec { line, why })
            .collect(),
        highlight: Vec::new(),
        arrows: Vec::new(),
        triangles: Vec::new(),
        squares: Vec::new(),
        circles: Vec::new(),
        crosses: Vec::new(),
        labels: Default::default(),
        moves_of: None,
    };
    let dress = |puzzle: BoardPuzzle<G>| BoardPuzzle {
        flipped,
        zones,
        marks: marks.clone(),
        ..puzzle
    };
    // A lesson task's mate (in one or two, as lessons ask) is proven as it is read.
    let store = ProofStore::default();
    let mut proofs = LoadProofs {
        store: &store,
        mode: Proving::Now,
        pending: Default::default(),
        file: None,
    };
    problem_from(ctx, spec, start.clone(), &mut proofs, dress)
        .map_err(|e| task::first(ctx, written, e))
}

/// Reads a chess, shogi or xiangqi problem whose position has been read; `dress` finishes its puzzle
/// (a lesson task's board drawn as its diagram is).
fn problem_from<G: PieceGame>(
    ctx: &Ctx,
    spec: ProblemSpec,
    start: G::Pos,
    proofs: &mut LoadProofs,
    dress: impl FnOnce(BoardPuzzle<G>) -> BoardPuzzle<G>,
) -> Result<ProblemOf<BoardPuzzle<G>>, Vec<Diagnostic>> {
    let mut errors = Vec::new();
    let mut keep = |r: Result<_, Diagnostic>, default| {
        r.unwrap_or_else(|e| {
            errors.push(e);
            default
        })
    };
    let flip = keep(
        flipped::<G>(ctx, spec.orientation.as_ref(), G::second_to_move(&start)),
        false,
    );
    let zones = keep(zones::<G>(ctx, spec.zones.as_ref()), false);
    let marks =
        read_marks::<G>(spec.marks(), spec.drops_of.as_ref(), ctx, &start).unwrap_or_else(|e| {
            errors.push(e);
            BoardMarks::default()
        });
    let goal_name = spec.goal.get_ref().as_str();
    // `move` and `check` accept any fitting move: the first one is the solution shown.
    let open_goal = match goal_name {
        "move" => Some(move_goal::<G>(ctx, &spec, &start, &mut errors)),
        "check" => Some(Goal::Check),
        _ => None,
    };
    let mut solutions = spec.solutions.clone();
    if let Some(goal) = &open_goal {
        let fitting = fitting_moves::<G>(goal, &start);
        if fitting.is_empty() && !matches!(goal, Goal::Lines) {
            errors.push(ctx.err(
                spec.goal.span(),
                format!("no legal move here does what goal `{goal_name}` asks: change the position or the goal"),
            ));
        }
        for line in &spec.solutions {
            let first = line.get_ref().split_whitespace().next().unwrap_or("");
            let name = play_text(&mut start.clone(), first).ok();
            if name.is_some_and(|n| !fitting.contains(&n)) {
                errors.push(ctx.err(
                    line.span(),
                    format!("solution `{}` starts with {first}, which does not do what goal `{goal_name}` asks", line.get_ref()),
                ));
            }
        }
        if let (true, Some(first)) = (solutions.is_empty(), fitting.first()) {
            solutions.push(Spanned::new(spec.goal.span(), first.clone()));
        }
    }
    let wrong: Vec<_> = spec.wrong.iter().map(|w| (&w.line, &w.why)).collect();
    let (lines, ends) = lines::build(
        ctx,
        &start,
        &play_text::<G::Pos>,
        &solutions,
        &wrong,
        &mut errors,
    );
    let mut proof = None;
    let goal = match goal_name {
        "move" | "check" => open_goal.unwrap_or(Goal::Lines),
        g if g == G::MATE_GOAL => match &spec.mate_in {
            None => {
                errors.push(ctx.err(
                    spec.goal.span(),
                    format!(
                        "goal `{g}` needs `mate_in`, like mate_in = {}",
                        if G::HANDS { 3 } else { 2 }
                    ),
                ));
                Goal::Lines
            }
            Some(n) => match G::mate_length(*n.get_ref()) {
                Err(e) => {
                    errors.push(ctx.err(n.span(), e));
                    Goal::Lines
                }
                Ok(()) => {
                    let n = *n.get_ref();
                    let key = ProofKey {
                        game: G::GAME,
                        position: G::position_text(&start),
                        goal: G::MATE_GOAL,
                        depth: n,
                        version: G::SEARCH_VERSION,
                    };
                    let searched = start.clone();
                    let proven = proofs
                        .store
                        .proof(key, move || G::mating_moves(&searched, n));
                    let check = shared::mate_check(
                        (ctx, proofs.file(ctx.loc)),
                        &G::mate_what(n),
                        (&spec.goal, G::no_mate(n)),
                        &spec.solutions,
                        &ends,
                        |mv| play_text(&mut start.clone(), mv).ok(),
                        G::is_mated,
                        proven.clone(),
                    );
                    proofs.check(check, &mut errors);
                    proof = Some(proven);
                    Goal::Mate(n)
                }
            },
        },
        "best" => {
            shared::needs_lines(ctx, &spec.goal, &spec.solutions, &mut errors);
            Goal::Lines
        }
        "select" => shared::select(
            ctx,
            &spec.goal,
            spec.ask.as_ref(),
            G::SELECT_EXAMPLE,
            |text| G::ask(text, &start),
            &mut errors,
        )
        .map_or(Goal::Lines, |(ask, answer)| Goal::Select { ask, answer }),
        other => {
            errors.push(ctx.err(
                spec.goal.span(),
                format!(
                    "unknown goal `{other}`: use {}, best, select, move or check",
                    G::MATE_GOAL
                ),
            ));
            Goal::Lines
        }
    };
    shared::only_with(
        ctx,
        "mate_in",
        spec.mate_in.as_ref(),
        goal_name,
        G::MATE_GOAL,
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
    for (key, value) in [("from", spec.from.as_ref()), ("to", spec.to.as_ref())] {
        shared::only_with(ctx, key, value, goal_name, "move", &mut errors);
    }
    let difficulty = shared::difficulty(ctx, &spec.difficulty, &mut errors);
    if !errors.is_empty() {
        return Err(errors);
    }
    let _ = spec.tags;
    Ok(ProblemOf {
        id: spec.id.get_ref().clone(),
        prompt: spec.prompt,
        difficulty,
        hint: spec.hint,
        explanation: spec.explanation,
        goal: goal_name.to_string(),
        puzzle: dress(BoardPuzzle {
            start,
            flipped: flip,
            zones,
            marks,
            goal,
            lines,
            proof,
        }),
    })
}

/// Reads the `from` and `to` of goal `move`: the piece's square (or `P*`, a piece in hand)
/// and the square to reach; at least one is needed.
fn move_goal<G: PieceGame>(
    ctx: &Ctx,
    spec: &ProblemSpec,
    start: &G::Pos,
    errors: &mut Vec<Diagnostic>,
) -> Goal<G::Ask> {
    if spec.from.is_none() && spec.to.is_none() {
        errors.push(ctx.err(
            spec.goal.span(),
            format!("goal `move` needs `from` (the square of the piece to move{}) or `to` (the square to reach), or both", if G::HANDS { ", or P* to drop a pawn" } else { "" }),
        ));
        return Goal::Lines;
    }
    let not_square = |s: &Spanned<String>| {
        ctx.err(
            s.span(),
            format!(
                "`{}` is not a square: write it like {}",
                s.get_ref(),
                G::SQUARE_EXAMPLE
            ),
        )
    };
    let from = match &spec.from {
        None => None,
        Some(f) => match f.get_ref().strip_suffix('*') {
            Some(_) if !G::HANDS => {
                errors.push(ctx.err(f.span(), "drops (`P*`) are only in shogi"));
                return Goal::Lines;
            }
            Some(kind) => match G::drops_of(start, kind) {
                Err(e) => {
                    errors.push(ctx.err(f.span(), e));
                    return Goal::Lines;
                }
                Ok(_) => Some(Target::Hand(f.get_ref().clone())),
            },
            None => match G::parse_square(f.get_ref()) {
                None => {
                    errors.push(not_square(f));
                    return Goal::Lines;
                }
                Some(sq) if G::piece_on(start, sq) != Some(true) => {
                    errors.push(ctx.err(
                        f.span(),
                        format!(
                            "from: there is no piece of the side to move on {}",
                            f.get_ref()
                        ),
                    ));
                    return Goal::Lines;
                }
                Some(sq) => Some(Target::Square(G::square_name(sq))),
            },
        },
    };
    let to = match &spec.to {
        None => None,
        Some(t) => match G::parse_square(t.get_ref()) {
            None => {
                errors.push(not_square(t));
                return Goal::Lines;
            }
            sq => sq,
        },
    };
    Goal::Move { from, to }
}

/// Every legal move from `start` that a `move` or `check` goal accepts (canonical names).
fn fitting_moves<G: PieceGame>(goal: &Goal<G::Ask>, start: &G::Pos) -> Vec<String> {
    start
        .legal_moves()
        .iter()
        .filter_map(|m| {
            let name = start.move_name(m);
            let (after, _) = start.play(&name).ok()?;
            (goal.fits::<G>(m, &after) == Some(true)).then_some(name)
        })
        .collect()
}

impl<G: PieceGame> BoardPuzzle<G> {
    /// The position after `moves`, if they are all legal.
    pub fn replay(&self, moves: &[String]) -> Option<G::Pos> {
        moves.iter().try_fold(self.start.clone(), |pos, m| {
            pos.play(m).ok().map(|(p, _)| p)
        })
    }

    /// Whether the learner's move `name` (canonical), the `i`th move from the start, forces
    /// the mate with `left` to go from `pos`: the first move by the problem's proof (the
    /// answer the proof gives, searched for now if it is not done), later ones by search.
    fn forces_from(&self, i: usize, pos: &G::Pos, name: &str, left: u32) -> bool {
        match &self.proof {
            Some(proof) if i == 0 => proof.first_moves().iter().any(|m| m == name),
            _ => G::forces(pos, name, left),
        }
    }

    /// The last of `moves`, as the engine describes it.
    fn last_move(&self, moves: &[String]) -> Option<<G::Pos as Rules>::Move> {
        let (last, before) = moves.split_last()?;
        self.replay(before)?.play(last).ok().map(|(_, m)| m)
    }

    /// The link of a click on `target` in `pos`, with `selected` picked up.
    fn action(&self, pos: &G::Pos, selected: Option<&Target>, target: Target) -> Action {
        if matches!(self.goal, Goal::Select { .. }) {
            return match target {
                Target::Square(name) => Action::Play(name),
                Target::Hand(_) | Target::Nothing => Action::Select(None),
            };
        }
        action::<G>(pos, selected, target)
    }
}

/// The link of a click on `target` in `pos` when the learner plays a move, with `selected`
/// picked up: pick a piece up or put it down, play the one move between two squares, or ask
/// which when there are several (a promotion). Problems and played games share it.
pub fn action<G: PieceGame>(pos: &G::Pos, selected: Option<&Target>, target: Target) -> Action {
    let name = match target {
        Target::Hand(piece) if selected == Some(&Target::Hand(piece.clone())) => {
            return Action::Select(None)
        }
        Target::Hand(piece) => return Action::Select(Some(piece)),
        Target::Nothing => return Action::Select(None),
        Target::Square(name) => name,
    };
    let Some(sq) = G::parse_square(&name) else {
        return Action::Select(None);
    };
    let piece = G::piece_on(pos, sq);
    match selected {
        Some(Target::Hand(piece)) => Action::Play(format!("{piece}{name}")),
        Some(Target::Nothing) => Action::Select(None),
        Some(Target::Square(from)) if *from == name => Action::Select(None),
        _ if piece == Some(true) => Action::Select(Some(name)),
        // Nothing picked up: a piece (even the opponent's, to learn why it may not move)
        // can be picked up; an empty square does nothing.
        None if piece.is_some() => Action::Select(Some(name)),
        None => Action::Select(None),
        Some(Target::Square(from)) => {
            let from_sq = G::parse_square(from);
            let options: Vec<_> = pos
                .legal_moves()
                .into_iter()
                .filter(|m| G::squares(m) == (from_sq, sq))
                .collect();
            match options.as_slice() {
                [only] => Action::Play(pos.move_name(only)),
                [_, _, ..] => Action::Choose {
                    from: from.clone(),
                    to: name,
                },
                // Illegal: played, so that the learner hears why.
                [] => Action::Play(format!("{from}{name}")),
            }
        }
    }
}

/// Draws `pos` with `marks`, the destinations of the picked-up piece (`view.selected`) as dots;
/// `view.marks` is ignored (the marks are `marks`). Problems and played games share it.
pub fn draw_position<G: PieceGame>(pos: &G::Pos, mut marks: BoardMarks, view: &View) -> String {
    match view.selected {
        Some(Target::Square(s)) => {
            if let Some(sq) = G::parse_square(s.as_str()) {
                marks.dots = pos
                    .legal_moves()
                    .iter()
                    .map(G::squares)
                    .filter(|(from, _)| *from == Some(sq))
                    .map(|(_, to)| to)
                    .collect();
            }
        }
        Some(Target::Hand(piece)) => {
            marks.dots = pos
                .legal_moves()
                .iter()
                .filter(|m| G::dropped(m).as_deref() == Some(piece.as_str()))
                .map(|m| G::squares(m).1)
                .collect();
        }
        Some(Target::Nothing) | None => {}
    }
    marks.dots.sort();
    marks.dots.dedup();
    G::draw(
        pos,
        &View {
            marks: &marks,
            ..*view
        },
    )
}

/// Reads what the learner picked up: a square, or a piece in hand (`P*`).
pub fn target(selected: &str) -> Target {
    if selected.ends_with('*') {
        Target::Hand(selected.to_string())
    } else {
        Target::Square(selected.to_string())
    }
}

/// The moves of `pos` from `from` to `to` when there are several (a promotion to choose):
/// each with its label, its canonical name and the piece it gives (`(label, name, move)`),
/// promoting moves first.
pub fn choices_between<G: PieceGame>(
    pos: &G::Pos,
    from: &str,
    to: &str,
) -> Vec<(Text, String, <G::Pos as Rules>::Move)> {
    let (Some(from), Some(to)) = (G::parse_square(from), G::parse_square(to)) else {
        return Vec::new();
    };
    let mut options: Vec<_> = pos
        .legal_moves()
        .into_iter()
        .filter(|m| G::squares(m) == (Some(from), to))
        .collect();
    options.sort_by_key(|m| !G::promotes(m));
    if options.len() < 2 {
        return Vec::new();
    }
    options
        .into_iter()
        .map(|m| (G::choice_label(&m), pos.move_name(&m), m))
        .collect()
}

impl<G: PieceGame> GamePuzzle for BoardPuzzle<G> {
    fn choice_picture(&self, moves: &[String], mv: &str, lang: Lang) -> Option<String> {
        let pos = self.replay(moves)?;
        let (_, played) = pos.play(mv).ok()?;
        G::choice_picture(&pos, &played, lang)
    }

    fn input(&self) -> Input {
        match &self.goal {
            Goal::Select { answer, .. } => Input::Pick {
                total: answer.len(),
            },
            _ => Input::Piece { choose: G::CHOOSE },
        }
    }

    fn lines(&self) -> &LineTree {
        &self.lines
    }

    fn searches(&self) -> bool {
        matches!(self.goal, Goal::Mate(_))
    }

    fn valid_moves(&self, moves: &[String]) -> Option<Vec<String>> {
        let mut pos = self.start.clone();
        let mut canonical = Vec::new();
        for (i, m) in moves.iter().enumerate() {
            let (next, played) = pos.play(m).ok()?;
            let name = pos.move_name(&played);
            if let Goal::Mate(n) = self.goal {
                let left = G::left(n, i)?;
                if i % 2 == 0 && !self.forces_from(i, &pos, &name, left) {
                    return None;
                }
            }
            canonical.push(name);
            pos = next;
        }
        match self.goal {
            Goal::Mate(_) => Some(canonical),
            Goal::Move { .. } | Goal::Check => {
                (canonical.is_empty() || self.is_solved_by(&canonical)).then_some(canonical)
            }
            _ => self.lines.follows(&canonical).then_some(canonical),
        }
    }

    fn is_solved_by(&self, moves: &[String]) -> bool {
        match self.goal {
            Goal::Mate(_) => self.replay(moves).is_some_and(|p| G::is_mated(&p)),
            Goal::Move { .. } | Goal::Check => match moves {
                [only] => self.start.play(only).is_ok_and(|(after, played)| {
                    self.goal.fits::<G>(&played, &after) == Some(true)
                }),
                _ => false,
            },
            _ => !moves.is_empty() && self.lines.ends_at(moves),
        }
    }

    fn answer(&self) -> Vec<String> {
        match &self.goal {
            Goal::Select { answer, .. } => answer.clone(),
            _ => Vec::new(),
        }
    }

    fn valid_picks(&self, picked: &[String]) -> Vec<String> {
        shared::valid_picks(&self.answer(), picked, |p| {
            G::parse_square(p).map(G::square_name).unwrap_or_default()
        })
    }

    fn to_play(&self) -> Option<&'static str> {
        match &self.goal {
            Goal::Select { ask, .. } if G::asks_nobody(ask) => None,
            _ => Some(G::to_play_key(&self.start)),
        }
    }

    fn notation(&self, before: &[String], mv: &str) -> String {
        self.replay(before)
            .and_then(|p| p.play(mv).ok().map(|(_, played)| p.notation(&played)))
            .unwrap_or_else(|| mv.to_string())
    }

    fn choices(&self, moves: &[String], from: &str, to: &str) -> Vec<(Text, String)> {
        let Some(pos) = self.replay(moves) else {
            return Vec::new();
        };
        choices_between::<G>(&pos, from, to)
            .into_iter()
            .map(|(label, name, _)| (label, name))
            .collect()
    }

    fn attempt(&self, moves: &[String], picked: &[String], play: &str) -> Verdict {
        if let Goal::Select { ask, .. } = &self.goal {
            let Some(square) = G::parse_square(play) else {
                return Verdict::Invalid {
                    why: Text {
                        zh: format!("“{play}”不是棋盘上的格子。"),
                        en: format!("“{play}” is not a square of the board."),
                    },
                };
            };
            let name = G::square_name(square);
            let why = G::miss(ask, &name);
            return shared::pick(&self.answer(), &self.valid_picks(picked), name, why);
        }
        let Some(moves) = self.valid_moves(moves) else {
            return shared::off_the_lines();
        };
        let Some(pos) = self.replay(&moves) else {
            return shared::off_the_lines();
        };
        let (after, played) = match pos.play(play) {
            Ok(x) => x,
            Err(e) => {
                return Verdict::Illegal {
                    reason: Text::from_fn(|lang| e.explain(lang)),
                }
            }
        };
        let name = pos.move_name(&played);
        let mut line = match shared::from_lines(&self.lines, &moves, &name) {
            Ok(verdict) => return verdict,
            Err(line) => line,
        };
        match self.goal.fits::<G>(&played, &after) {
            Some(true) => {
                return Verdict::Correct {
                    moves: line,
                    reply: None,
                    solved: true,
                }
            }
            Some(false) => {
                return Verdict::Wrong {
                    why: Some(self.goal.miss::<G>(&played)),
                    shown: line,
                }
            }
            None => {}
        }
        let Goal::Mate(n) = self.goal else {
            return Verdict::Wrong {
                why: None,
                shown: line,
            };
        };
        let left = G::left(n, moves.len()).unwrap_or(0);
        if G::is_mated(&after) && left >= 1 {
            Verdict::Correct {
                moves: line,
                reply: None,
                solved: true,
            }
        } else if left > 1 && self.forces_from(moves.len(), &pos, &name, left) {
            let reply = G::best_defence(&after, left - 1);
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
                why: Some(G::not_forcing(&pos, &played, left)),
                shown: line,
            }
        }
    }

    fn board(&self, request: &BoardRequest) -> String {
        let pos = self
            .replay(request.shown)
            .unwrap_or_else(|| self.start.clone());
        let mut marks = self.marks.clone();
        marks
            .highlight
            .extend(request.picked.iter().filter_map(|p| G::parse_square(p)));
        let selected = request.selected.map(target);
        let link = request.href.map(|href| {
            let pos = pos.clone();
            let selected = selected.clone();
            move |t: Target| href(self.action(&pos, selected.as_ref(), t))
        });
        draw_position::<G>(
            &pos,
            marks,
            &View {
                flipped: self.flipped,
                zones: self.zones,
                last: self.last_move(request.shown).map(|m| G::squares(&m)),
                marks: &BoardMarks::default(),
                selected: selected.as_ref(),
                link: link.as_ref().map(|l| l as &dyn Fn(Target) -> String),
                heat: request.heat,
                lang: request.lang,
                title: request.title,
            },
        )
    }
}
