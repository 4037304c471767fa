//! Tsumego SGF files in, Go positions and their lines out.
//!
//! Reading ([`import`]): the root's `AB`/`AW` (and `SZ`, `PL`, `C`) set up the problem; every
//! variation is a line. A line is correct when its last comment holds `RIGHT` (the GoProblems
//! convention), or starts with `+` (Tsumego Hero), or one of its moves is marked `TE`
//! (tesuji); every other line is wrong, with its comments as the explanation.
//!
//! Writing ([`to_sgf`], [`problem_to_sgf`]): a position as `AB`/`AW`/`PL`, and lines as
//! variations, correct ones ending in a `RIGHT` comment, so that the file imports back; the
//! lines become a record's variations, written by the records' SGF writer.
//!
//! ```
//! use qiyuan::import::sgf::{import, to_sgf, SgfLine};
//! use qiyuan::rules::go::{Move, Position};
//! let text = "(;SZ[9]AB[ba][bb][cb]AW[ca][db][dc][cc][bc]C[Black to live.]
//!              (;B[da];W[ea];B[aa]C[RIGHT])
//!              (;B[aa];W[da]C[Too slow.]))";
//! let got = import(text, "demo.sgf", "demo");
//! let p = &got.problems[0];
//! assert_eq!(p.solutions, [["D9", "E9", "A9"]]);
//! assert_eq!(p.wrong[0].0, ["A9", "D9"]);
//! assert_eq!(p.wrong[0].1.en, "Too slow.");
//! // And back out:
//! let sgf = to_sgf(p.setup.go().unwrap(), Some("Black to live."), &[SgfLine {
//!     moves: vec![Move::parse("D9", 9).unwrap()],
//!     right: true,
//!     comment: None,
//! }]).unwrap();
//! assert!(sgf.contains("AB[ba][bb][cb]") && sgf.contains("C[RIGHT]"));
//! ```

use super::{
    fit_lines, is_chinese, one_language, play_all, standard_prompt, view_for, Goal, Imported,
    ImportedProblem, Setup, Skipped, MAX_PLIES,
};
use crate::base::go::Start as GoStart;
use crate::base::{Side, Start};
use crate::content::{Problem, Puzzle, Step as TreeStep, Text};
use crate::lang::Lang;
pub use crate::record::sgf::line_past_the_limit;
use crate::record::sgf::syntax_error_place;
use crate::record::{GoSetup, Record, Step as RecordStep};
use crate::rules::go::Scoring;
use crate::rules::go::{Board, Color, Move, Point, Position};
use sgf_parse::go::{Move as SgfMove, Prop};
use sgf_parse::SgfNode;

/// One move of a variation, as read from the SGF.
#[derive(Clone, Debug)]
struct Step {
    colour: Color,
    mv: Move,
    comment: String,
    tesuji: bool,
}

/// A variation from the root to a leaf.
struct Path {
    steps: Vec<Step>,
    /// Comments of move-less nodes at the end, or of the leaf.
    trouble: Option<String>,
}

/// Reads every game of an SGF text as a problem. `source` names the file in notes; `id` is
/// the problem id (games after the first get `id-2`, `id-3`, …). A text with a line of more
/// than [`MAX_PLIES`] nodes is skipped before it is parsed; the rest is read
/// on a thread whose stack holds a tree that deep.
pub fn import(text: &str, source: &str, id: &str) -> Imported {
    if let Some((line, col)) = line_past_the_limit(text) {
        let mut out = Imported::default();
        out.skipped.push(Skipped {
            source: format!("{source}:{line}:{col}"),
            reason: format!("a line goes on past {MAX_PLIES} nodes; longer files are not read"),
        });
        return out;
    }
    crate::record::on_reader_stack(|| import_checked(text, source, id))
}

/// [`import`] once the lines' lengths are checked.
fn import_checked(text: &str, source: &str, id: &str) -> Imported {
    let mut out = Imported::default();
    let games = match sgf_parse::parse(text) {
        Ok(g) => g,
        Err(e) => {
            let (line, col) = syntax_error_place(text);
            out.skipped.push(Skipped {
                source: format!("{source}:{line}:{col}"),
                reason: format!("not a readable SGF file: {e}"),
            });
            return out;
        }
    };
    let many = games.len() > 1;
    for (n, game) in games.into_iter().enumerate() {
        let (src, pid) = if many {
            (
                format!("{source}:1 (game {})", n + 1),
                if n == 0 {
                    id.to_string()
                } else {
                    format!("{id}-{}", n + 1)
                },
            )
        } else {
            (format!("{source}:1"), id.to_string())
        };
        let root = match game.into_go_node() {
            Ok(r) => r,
            Err(_) => {
                out.skipped.push(Skipped {
                    source: src,
                    reason: "not a Go game (GM is not 1)".to_string(),
                });
                continue;
            }
        };
        match problem(&root, &src, &pid) {
            Ok(p) => out.problems.push(p),
            Err(reason) => out.skipped.push(Skipped {
                source: src,
                reason,
            }),
        }
    }
    out
}

/// Reads several SGF files (`(file name, text)`) as one set: each problem's id is its file
/// name made a slug (`Problem 12.sgf` → `problem-12`), numbered when names collide.
pub fn import_files(files: &[(String, String)]) -> Imported {
    let mut out = Imported::default();
    let mut taken = std::collections::HashSet::new();
    for (n, (name, text)) in files.iter().enumerate() {
        let stem = std::path::Path::new(name)
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        let wanted = match super::slugify(&stem) {
            id if id.is_empty() => (n + 1).to_string(),
            id => id,
        };
        let unique = super::unique_id(&mut taken, &wanted);
        let got = import(text, name, &unique);
        out.problems.extend(got.problems);
        out.skipped.extend(got.skipped);
    }
    out
}

fn colour(c: &sgf_parse::Color) -> Color {
    match c {
        sgf_parse::Color::Black => Color::Black,
        sgf_parse::Color::White => Color::White,
    }
}

fn to_move(m: &SgfMove, size: u8) -> Result<Move, String> {
    match m {
        SgfMove::Pass => Ok(Move::Pass),
        // `tt` is the old way to write a pass on boards up to 19×19.
        SgfMove::Move(p) if size <= 19 && p.x == 19 && p.y == 19 => Ok(Move::Pass),
        SgfMove::Move(p) if p.x < size && p.y < size => Ok(Move::Play(Point::new(p.x, p.y))),
        SgfMove::Move(p) => Err(format!(
            "a move at ({}, {}) is off the {size}×{size} board",
            p.x, p.y
        )),
    }
}

fn comment_of(node: &SgfNode<Prop>) -> String {
    node.properties()
        .filter_map(|p| match p {
            Prop::C(t) => Some(t.text.trim().to_string()),
            _ => None,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn has_setup(node: &SgfNode<Prop>) -> bool {
    node.properties()
        .any(|p| matches!(p, Prop::AB(_) | Prop::AW(_) | Prop::AE(_)))
}

/// The most moves a problem's lines may hold together, each line counted from the start
/// (a tree of many long lines is refused rather than copied line by line).
const MAX_PATH_STEPS: usize = 100_000;

/// Collects every variation below `node` (whose moves so far are `steps`); `room` is how
/// many more steps the lines may hold together (see [`MAX_PATH_STEPS`]).
fn walk(
    node: &SgfNode<Prop>,
    size: u8,
    steps: &mut Vec<Step>,
    paths: &mut Vec<Path>,
    errors: &mut Vec<String>,
    room: &mut usize,
) {
    if *room == 0 {
        return;
    }
    let mut pushed = false;
    if !node.is_root && has_setup(node) {
        errors
            .push("a variation adds or removes stones (AB/AW/AE) after the start; left out".into());
        return;
    }
    let mv = node.properties().find_map(|p| match p {
        Prop::B(m) => Some((Color::Black, m)),
        Prop::W(m) => Some((Color::White, m)),
        _ => None,
    });
    let comment = comment_of(node);
    let tesuji = node.properties().any(|p| matches!(p, Prop::TE(_)));
    if let Some((c, m)) = mv {
        match to_move(m, size) {
            Ok(mv) => {
                steps.push(Step {
                    colour: c,
                    mv,
                    comment: comment.clone(),
                    tesuji,
                });
                pushed = true;
            }
            Err(e) => {
                errors.push(format!("{e}; that variation is left out"));
                return;
            }
        }
    }
    let children: Vec<&SgfNode<Prop>> = node.children().collect();
    if children.is_empty() {
        if steps.len() > *room {
            *room = 0;
            errors.push(format!(
                "the lines hold more than {MAX_PATH_STEPS} moves together; the rest are left out"
            ));
        } else if !steps.is_empty() {
            *room -= steps.len();
            paths.push(Path {
                steps: steps.clone(),
                trouble: (!pushed && !comment.is_empty()).then_some(comment),
            });
        }
    } else {
        for child in children {
            walk(child, size, steps, paths, errors, room);
        }
    }
    if pushed {
        steps.pop();
    }
}

/// Whether a comment marks its line correct: `RIGHT` (GoProblems) or a leading `+`
/// (Tsumego Hero).
fn marks_right(comment: &str) -> bool {
    comment.contains("RIGHT")
        || comment
            .trim_start()
            .strip_prefix('+')
            .is_some_and(|rest| rest.is_empty() || rest.starts_with(char::is_whitespace))
}

/// A comment without the markers.
fn strip_markers(comment: &str) -> String {
    let c = comment.replace("RIGHT", "");
    let c = c.trim();
    let c = c.strip_prefix('+').unwrap_or(c);
    c.trim().to_string()
}

fn problem(root: &SgfNode<Prop>, source: &str, id: &str) -> Result<ImportedProblem, String> {
    let size = match root.get_property("SZ") {
        Some(Prop::SZ((w, h))) if w == h => *w,
        Some(Prop::SZ((w, h))) => {
            return Err(format!(
                "the board is {w}×{h}: only square boards are supported"
            ))
        }
        Some(Prop::Invalid(_, values) | Prop::Unknown(_, values)) => {
            return Err(format!(
                "SZ[{}] is not a board size (a whole number from {} to {})",
                values.join("]["),
                crate::rules::go::MIN_SIZE,
                crate::rules::go::MAX_SIZE
            ))
        }
        _ => 19,
    };
    let mut board = Board::new(size).map_err(|e| format!("board size {size}: {e}"))?;
    for prop in root.properties() {
        let (points, stone) = match prop {
            Prop::AB(p) => (p, Some(Color::Black)),
            Prop::AW(p) => (p, Some(Color::White)),
            Prop::AE(p) => (p, None),
            _ => continue,
        };
        for p in points {
            if p.x >= size || p.y >= size {
                return Err(format!("a stone at ({}, {}) is off the board", p.x, p.y));
            }
            board.set(Point::new(p.x, p.y), stone);
        }
    }
    let pl = root.properties().find_map(|p| match p {
        Prop::PL(c) => Some(colour(c)),
        _ => None,
    });
    let mut notes = Vec::new();
    let mut paths = Vec::new();
    let mut steps = Vec::new();
    let mut room = MAX_PATH_STEPS;
    walk(root, size, &mut steps, &mut paths, &mut notes, &mut room);
    let root_comment = comment_of(root);
    // A root move belongs to every line; its comment is not the prompt then.
    let root_has_move = root
        .properties()
        .any(|p| matches!(p, Prop::B(_) | Prop::W(_)));
    let prompt_text = if root_has_move {
        String::new()
    } else {
        root_comment.clone()
    };
    let to_play = paths
        .first()
        .and_then(|p| p.steps.first())
        .map(|s| s.colour)
        .or(pl)
        .unwrap_or(Color::Black);
    if paths.is_empty() {
        return Err("the file has no variations: no solution to import".into());
    }
    let start = Position::new(board, to_play);
    let goal = Goal::from_prompt(&prompt_text);
    let mut one_language_texts: Vec<Lang> = Vec::new();
    let (prompt, prompt_lang) = prompt_from(&prompt_text, to_play, goal);
    if let Some(l) = prompt_lang {
        one_language_texts.push(l);
    }
    let generic_wrong = Text {
        zh: "这一手不成立。".into(),
        en: "This move does not work.".into(),
    };
    let mut correct = Vec::new();
    let mut wrong = Vec::new();
    let mut explanation = None;
    for path in &paths {
        let (moves, inserted) = alternate(&path.steps, to_play);
        let written: Vec<String> = path.steps.iter().map(sgf_name).collect();
        if inserted {
            notes.push(format!(
                "line `{}`: a side played twice in a row; a pass was put between",
                written.join(" ")
            ));
        }
        let Some(moves) = moves else {
            notes.push(format!(
                "line `{}` left out: it starts with {}, but {} is to play",
                written.join(" "),
                path.steps[0].colour.as_str(),
                to_play.as_str()
            ));
            continue;
        };
        let names = match play_all(&start, &moves) {
            Ok(n) => n,
            Err(e) => {
                notes.push(format!("line `{}` left out: {e}", written.join(" ")));
                continue;
            }
        };
        let leaf = path.trouble.clone().unwrap_or_else(|| {
            path.steps
                .last()
                .map(|s| s.comment.clone())
                .unwrap_or_default()
        });
        let right =
            marks_right(&leaf) || path.steps.iter().any(|s| s.tesuji && s.colour == to_play);
        if right {
            let said = strip_markers(&leaf);
            if explanation.is_none() && !said.is_empty() {
                let (t, l) = one_language(&said);
                one_language_texts.push(l);
                explanation = Some(t);
            }
            correct.push(names);
        } else {
            // The explanation of a wrong line: its last comment.
            let said = std::iter::once(leaf)
                .chain(path.steps.iter().rev().map(|s| s.comment.clone()))
                .map(|c| strip_markers(&c))
                .find(|c| !c.is_empty());
            let why = match said {
                Some(c) => {
                    let (t, l) = one_language(&c);
                    one_language_texts.push(l);
                    t
                }
                None => generic_wrong.clone(),
            };
            wrong.push((names, why));
        }
    }
    if correct.is_empty() {
        return Err(
            "no variation is marked correct (RIGHT or `+` in its last comment, or TE on a move)"
                .into(),
        );
    }
    let (solutions, wrong) = fit_lines(correct, wrong, &mut notes);
    if solutions.is_empty() {
        return Err(format!(
            "no correct line could be kept: {}",
            notes.join("; ")
        ));
    }
    one_language_texts.sort();
    one_language_texts.dedup();
    for l in one_language_texts {
        notes.push(format!(
            "the SGF's text is in {} only: the same words are used for both languages; translate them",
            match l {
                Lang::Zh => "Chinese",
                Lang::En => "English",
            }
        ));
    }
    let all: Vec<&[String]> = solutions
        .iter()
        .map(|l| l.as_slice())
        .chain(wrong.iter().map(|(l, _)| l.as_slice()))
        .collect();
    let view = view_for(&start, &all);
    Ok(ImportedProblem {
        id: id.to_string(),
        source: source.to_string(),
        prompt,
        solutions,
        wrong,
        explanation,
        notes,
        ..ImportedProblem::new(Setup::Go { start, view }, goal, Text::default())
    })
}

fn sgf_name(s: &Step) -> String {
    let c = match s.colour {
        Color::Black => 'B',
        Color::White => 'W',
    };
    match s.mv {
        Move::Pass => format!("{c}[]"),
        Move::Play(p) => format!("{c}[{}]", p.sgf()),
    }
}

/// The moves of a variation, alternating from `to_play`: a pass is put in where a side plays
/// twice (`true` when one was). `None` if the variation starts with the other side.
fn alternate(steps: &[Step], to_play: Color) -> (Option<Vec<Move>>, bool) {
    if steps.first().map(|s| s.colour) != Some(to_play) {
        return (None, false);
    }
    let mut moves = Vec::new();
    let mut side = to_play;
    let mut inserted = false;
    for s in steps {
        if s.colour != side {
            moves.push(Move::Pass);
            inserted = true;
            side = side.opponent();
        }
        moves.push(s.mv);
        side = side.opponent();
    }
    (Some(moves), inserted)
}

/// The prompt from the root comment. A standard phrase ("Black to play: Elementary", "黑先")
/// gets its translation; any other comment is put in both languages (the language is
/// returned so that a note can say so). No comment: the standard prompt.
fn prompt_from(comment: &str, to_play: Color, goal: Goal) -> (Text, Option<Lang>) {
    let c = comment.trim();
    if c.is_empty() {
        return (standard_prompt(to_play, goal), None);
    }
    let standard = standard_prompt(to_play, goal);
    let lower = c.to_lowercase();
    let en_phrase = ["black to ", "white to "]
        .iter()
        .any(|p| lower.starts_with(p))
        && lower.len() <= 40
        && ["play", "live", "kill", "move"]
            .iter()
            .any(|w| lower[9..].starts_with(w));
    if en_phrase {
        return (
            Text {
                zh: standard.zh,
                en: c.to_string(),
            },
            None,
        );
    }
    let zh_phrase =
        is_chinese(c) && c.chars().count() <= 6 && (c.starts_with("黑先") || c.starts_with("白先"));
    if zh_phrase {
        return (
            Text {
                zh: c.to_string(),
                en: standard.en,
            },
            None,
        );
    }
    let (t, l) = one_language(c);
    (t, Some(l))
}

/// One line to write as an SGF variation: moves from the position's side to play,
/// alternating; `right` adds `RIGHT` to the comment of its last move.
#[derive(Clone, Debug, PartialEq)]
pub struct SgfLine {
    /// The moves.
    pub moves: Vec<Move>,
    /// Whether the line is correct.
    pub right: bool,
    /// Said at the end of the line.
    pub comment: Option<String>,
}

/// A node of the variation tree being built.
#[derive(Default)]
struct Node {
    mv: Option<(Color, Move)>,
    comments: Vec<String>,
    children: Vec<Node>,
}

impl Node {
    /// The record step of this node's move (every node but the root has one).
    fn step(&self, size: u8) -> RecordStep {
        RecordStep {
            comment: self.comments.join("\n"),
            ..RecordStep::new(self.mv.map(|(_, m)| m.name(size)).unwrap_or_default())
        }
    }
}

/// The record line below `children`: the first child goes on, the others are its
/// variations, each a line of its own.
fn line_below(children: &[Node], size: u8) -> Vec<RecordStep> {
    let Some((first, others)) = children.split_first() else {
        return Vec::new();
    };
    let mut step = first.step(size);
    step.variations = others
        .iter()
        .map(|other| {
            let mut line = vec![other.step(size)];
            line.extend(line_below(&other.children, size));
            line
        })
        .collect();
    let mut line = vec![step];
    line.extend(line_below(&first.children, size));
    line
}

/// An SGF file of `start` (`SZ`, `AB`, `AW`, `PL`, and `comment` on the root) with `lines`
/// as variations, written by the records' SGF writer (`record::sgf::write`). Lines sharing
/// a beginning share those moves; a correct line ends in a comment holding `RIGHT`, so
/// [`import`] reads it back as correct. `None` only if the writer refuses the position.
pub fn to_sgf(start: &Position, comment: Option<&str>, lines: &[SgfLine]) -> Option<String> {
    let size = start.size();
    let board = start.board();
    let stones = |c: Color| board.stones(c).map(|p| p.name(size)).collect::<Vec<_>>();
    let mut record = Record::new(Start::Go(GoStart {
        size,
        handicap: 0,
        rules: Scoring::Chinese,
        komi: 0.0,
    }));
    record.setup = Some(GoSetup {
        black: stones(Color::Black),
        white: stones(Color::White),
        to_play: match start.turn() {
            Color::Black => Side::First,
            Color::White => Side::Second,
        },
    });
    record.comment = comment.map(str::trim).unwrap_or_default().to_string();
    let mut root = Node::default();
    for line in lines {
        let mut at = &mut root;
        let mut side = start.turn();
        for &mv in &line.moves {
            let i = match at.children.iter().position(|n| n.mv == Some((side, mv))) {
                Some(i) => i,
                None => {
                    at.children.push(Node {
                        mv: Some((side, mv)),
                        ..Node::default()
                    });
                    at.children.len() - 1
                }
            };
            at = &mut at.children[i];
            side = side.opponent();
        }
        let mut said = line.comment.clone().unwrap_or_default();
        if line.right {
            said = if said.is_empty() {
                "RIGHT".into()
            } else {
                format!("RIGHT\n{said}")
            };
        }
        if !said.is_empty() && !at.comments.contains(&said) {
            at.comments.push(said);
        }
    }
    record.moves = line_below(&root.children, size);
    crate::record::sgf::write(&record).ok()
}

/// A Go problem as SGF, in `lang`: its position, prompt, every correct line (marked `RIGHT`,
/// with the explanation) and every wrong move the author refuted (with the refutation and
/// why it fails). `None` for a problem of another game.
pub fn problem_to_sgf(problem: &Problem, lang: Lang) -> Option<String> {
    let Puzzle::Go(puzzle) = &problem.puzzle else {
        return None;
    };
    let size = puzzle.start.size();
    let parse = |names: &[String]| -> Vec<Move> {
        names
            .iter()
            .filter_map(|n| Move::parse(n, size).ok())
            .collect()
    };
    let explanation = problem
        .explanation
        .as_ref()
        .map(|e| e.get(lang).to_string());
    let mut lines: Vec<SgfLine> = Vec::new();
    let correct = puzzle.lines.correct_lines();
    for line in &correct {
        lines.push(SgfLine {
            moves: parse(line),
            right: true,
            comment: explanation.clone(),
        });
    }
    // Wrong moves hang off the learner's turns of the correct lines.
    let mut prefixes: Vec<Vec<String>> = vec![Vec::new()];
    for line in &correct {
        for k in (2..line.len()).step_by(2) {
            let p = line[..k].to_vec();
            if !prefixes.contains(&p) {
                prefixes.push(p);
            }
        }
    }
    let candidates: Vec<String> = puzzle
        .start
        .board()
        .points()
        .map(|p| p.name(size))
        .chain(std::iter::once("pass".to_string()))
        .collect();
    for prefix in prefixes {
        for mv in &candidates {
            if let TreeStep::Wrong(w) = puzzle.lines.step(&prefix, mv) {
                let mut names = prefix.clone();
                names.push(mv.clone());
                names.extend(w.refutation.iter().cloned());
                lines.push(SgfLine {
                    moves: parse(&names),
                    right: false,
                    comment: Some(w.why.get(lang).to_string()),
                });
            }
        }
    }
    to_sgf(&puzzle.start, Some(problem.prompt.get(lang)), &lines)
}

/// The game of the problems this importer writes.
pub const GAME: crate::base::Game = <Position as crate::base::GamePosition>::GAME;

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(text: &str, size: u8, to_play: Color) -> Position {
        Position::new(Board::from_text(size, text).unwrap(), to_play)
    }

    #[test]
    fn to_sgf_parses_back_with_sgf_parse() {
        let start = pos(
            ". X O . .\n. X O . .\n. . . . .\n. . . . .\n. . . . .",
            5,
            Color::White,
        );
        let c3 = Move::parse("C3", 5).unwrap();
        let b3 = Move::parse("B3", 5).unwrap();
        let d3 = Move::parse("D3", 5).unwrap();
        let text = to_sgf(
            &start,
            Some("White to play [a test]"),
            &[
                SgfLine {
                    moves: vec![c3, b3],
                    right: true,
                    comment: Some("Good.".into()),
                },
                SgfLine {
                    moves: vec![c3, Move::Pass, d3],
                    right: true,
                    comment: None,
                },
                SgfLine {
                    moves: vec![d3, c3],
                    right: false,
                    comment: Some("Too slow.".into()),
                },
            ],
        )
        .unwrap();
        let root = sgf_parse::go::parse(&text).unwrap().remove(0);
        assert_eq!(root.get_property("SZ"), Some(&Prop::SZ((5, 5))));
        assert_eq!(
            root.get_property("PL"),
            Some(&Prop::PL(sgf_parse::Color::White))
        );
        match root.get_property("C") {
            Some(Prop::C(t)) => assert_eq!(t.text, "White to play [a test]"),
            other => panic!("root comment: {other:?}"),
        }
        match root.get_property("AB") {
            Some(Prop::AB(s)) => assert_eq!(s.len(), 2),
            other => panic!("AB: {other:?}"),
        }
        // Two first moves: C3 (with two replies) and D3.
        let firsts: Vec<&SgfNode<Prop>> = root.children().collect();
        assert_eq!(firsts.len(), 2);
        assert_eq!(firsts[0].children().count(), 2);
        // And the importer reads it back.
        let got = import(&text, "t.sgf", "t");
        let p = &got.problems[0];
        assert_eq!(p.setup.go().unwrap().turn(), Color::White);
        assert_eq!(p.solutions, [vec!["C3", "B3"]]);
        assert!(
            p.notes.iter().any(|n| n.contains("C3 pass D3")),
            "{:?}",
            p.notes
        );
        assert_eq!(p.wrong.len(), 1);
        assert_eq!(p.wrong[0].1.en, "Too slow.");
        assert_eq!(p.explanation.as_ref().unwrap().en, "Good.");
    }

    #[test]
    fn reads_the_three_correctness_markers() {
        assert!(marks_right("RIGHT"));
        assert!(marks_right("Correct! RIGHT"));
        assert!(marks_right("+"));
        assert!(marks_right("+\nWell done"));
        assert!(!marks_right("+1 point"));
        assert!(!marks_right("Wrong"));
        let te = "(;SZ[5]AB[aa]AW[ba](;B[ca]TE[1])(;B[ab]C[No.]))";
        let got = import(te, "te.sgf", "te");
        assert_eq!(got.problems[0].solutions, [vec!["C5"]]);
        let plus = "(;SZ[5]AB[aa]AW[ba](;B[ab])(;B[ca]C[+]))";
        let got = import(plus, "plus.sgf", "plus");
        assert_eq!(got.problems[0].solutions, [vec!["C5"]]);
        assert_eq!(got.problems[0].wrong[0].1.zh, "这一手不成立。");
    }

    #[test]
    fn prompts() {
        let (t, l) = prompt_from("Black to play: Elementary", Color::Black, Goal::Best);
        assert_eq!(
            (t.zh.as_str(), t.en.as_str(), l),
            ("黑先。", "Black to play: Elementary", None)
        );
        let (t, l) = prompt_from("黑先活", Color::Black, Goal::Live);
        assert_eq!(
            (t.zh.as_str(), t.en.as_str(), l),
            ("黑先活", "Black to live.", None)
        );
        let (t, l) = prompt_from("注意角上的特殊性。", Color::Black, Goal::Best);
        assert_eq!((t.en.as_str(), l), ("注意角上的特殊性。", Some(Lang::Zh)));
        let (t, _) = prompt_from("", Color::White, Goal::Kill);
        assert_eq!(t.zh, "白先杀。");
    }

    #[test]
    fn syntax_errors_are_placed() {
        assert_eq!(syntax_error_place("(;GM[1]\n;[aa])"), (2, 2));
        assert_eq!(syntax_error_place("(;GM[1]\n;B[aa"), (2, 3));
        assert_eq!(syntax_error_place("(;GM[1];B[a\\]a])"), (1, 1));
        let got = import("(;GM[1]SZ[9]\n;B[aa", "bad.sgf", "1");
        assert_eq!(got.skipped[0].source, "bad.sgf:2:3");
    }

    #[test]
    fn a_file_without_a_correct_line_is_skipped() {
        let got = import("(;SZ[5]AB[aa](;B[bb]C[Wrong]))", "w.sgf", "w");
        assert!(got.problems.is_empty());
        assert!(got.skipped[0]
            .reason
            .contains("no variation is marked correct"));
        let got = import("(;SZ[5", "broken.sgf", "b");
        assert!(got.skipped[0].reason.contains("not a readable SGF"));
    }
}
