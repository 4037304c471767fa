//! The tree of a problem's lines: correct lines, wrong moves and their refutations.
//!
//! Moves are kept as the game's canonical move names (`D4`, `e2e4`, `P*5e`), so the tree
//! serves every game; the game's engine decides legality before the tree is asked.

use super::diagnostic::{Ctx, Diagnostic};
use crate::base::Text;
use toml::Spanned;

/// A learner move that the problem's author marked wrong, with its refutation.
#[derive(Clone, Debug, PartialEq)]
pub struct WrongMove {
    /// The opponent's answer and any further moves, played on the board.
    pub refutation: Vec<String>,
    /// Why the move fails.
    pub why: Text,
}

/// One node: a move and what may follow it.
#[derive(Clone, Debug, Default, PartialEq)]
struct Node {
    /// Correct continuations, in the order the author wrote them.
    children: Vec<(String, usize)>,
    /// Wrong learner moves from here (only at the learner's turn).
    wrong: Vec<(String, WrongMove)>,
    /// A correct line ends here.
    ends: bool,
}

/// The lines of a problem as a tree. The learner moves at even depths (0, 2, …).
///
/// ```text
/// solutions = ["D6", "E4 D5 F5"]     root ─ D6 (end)
/// wrong     = "F5 D6"                     ├ E4 ─ D5 ─ F5 (end)
///                                         └ F5 ✗ refuted by D6
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct LineTree {
    nodes: Vec<Node>,
}

/// Where a move leads in the tree.
#[derive(Clone, Debug, PartialEq)]
pub enum Step<'a> {
    /// A correct move. `reply` is the opponent's answer, if the line goes on;
    /// `solved` says whether a line ends with this move (or with the reply).
    Correct {
        reply: Option<&'a str>,
        solved: bool,
    },
    /// A move the author marked wrong.
    Wrong(&'a WrongMove),
    /// A move the tree does not know.
    Unknown,
}

/// Why a wrong line cannot be added to the tree.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BadLine {
    /// The line is empty.
    Empty,
    /// The wrong line follows a correct line all the way: nothing in it is wrong.
    IsCorrect,
    /// The wrong line leaves the correct lines at an opponent move (index from 0);
    /// only the learner's moves can be wrong.
    LeavesAtReply(usize),
    /// A correct line's opponent move (index from 0) differs from the reply an earlier line
    /// gives in the same place, so the learner could never see it.
    Unreachable { index: usize, reply: String },
}

impl std::fmt::Display for BadLine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BadLine::Empty => f.write_str("the line has no moves"),
            BadLine::IsCorrect => f.write_str(
                "every move of this wrong line is in a solution line: nothing in it is wrong",
            ),
            BadLine::LeavesAtReply(i) => write!(
                f,
                "move {} of this wrong line is an opponent move that no solution line has: a wrong line must follow the solutions up to the learner's wrong move",
                i + 1
            ),
            BadLine::Unreachable { index, reply } => write!(
                f,
                "move {} of this line can never be reached: there the opponent always answers {reply}, the reply of an earlier line; list each reply once, or make this a separate problem",
                index + 1
            ),
        }
    }
}

impl Default for LineTree {
    fn default() -> Self {
        LineTree::new()
    }
}

impl LineTree {
    /// An empty tree.
    pub fn new() -> LineTree {
        LineTree {
            nodes: vec![Node::default()],
        }
    }

    /// Adds a correct line. A line whose opponent move differs from an earlier line's reply
    /// could never be played (the opponent always answers with the first line's reply), so
    /// it is refused.
    pub fn add_correct(&mut self, line: &[String]) -> Result<(), BadLine> {
        if line.is_empty() {
            return Err(BadLine::Empty);
        }
        let mut at = 0;
        for (i, mv) in line.iter().enumerate() {
            at = match self.child(at, mv) {
                Some(next) => next,
                None if i % 2 == 1 && !self.nodes[at].children.is_empty() => {
                    return Err(BadLine::Unreachable {
                        index: i,
                        reply: self.nodes[at].children[0].0.clone(),
                    })
                }
                None => {
                    self.nodes.push(Node::default());
                    let next = self.nodes.len() - 1;
                    self.nodes[at].children.push((mv.clone(), next));
                    next
                }
            };
        }
        self.nodes[at].ends = true;
        Ok(())
    }

    /// Adds a wrong line: correct moves, then the wrong learner move, then its refutation.
    pub fn add_wrong(&mut self, line: &[String], why: Text) -> Result<(), BadLine> {
        if line.is_empty() {
            return Err(BadLine::Empty);
        }
        let mut at = 0;
        for (i, mv) in line.iter().enumerate() {
            match self.child(at, mv) {
                Some(next) => at = next,
                None if i % 2 == 1 => return Err(BadLine::LeavesAtReply(i)),
                None => {
                    let wrong = WrongMove {
                        refutation: line[i + 1..].to_vec(),
                        why,
                    };
                    self.nodes[at].wrong.push((mv.clone(), wrong));
                    return Ok(());
                }
            }
        }
        Err(BadLine::IsCorrect)
    }

    fn child(&self, at: usize, mv: &str) -> Option<usize> {
        self.nodes[at]
            .children
            .iter()
            .find(|(m, _)| m == mv)
            .map(|&(_, n)| n)
    }

    /// Follows `moves` (learner and replies alternating) through correct moves; `None` if
    /// they leave the tree.
    fn walk(&self, moves: &[String]) -> Option<usize> {
        moves.iter().try_fold(0, |at, mv| self.child(at, mv))
    }

    /// Whether `moves` follow the correct lines (so the learner may go on from there).
    pub fn follows(&self, moves: &[String]) -> bool {
        self.walk(moves).is_some()
    }

    /// Whether a correct line ends after `moves` (the problem is solved there).
    pub fn ends_at(&self, moves: &[String]) -> bool {
        self.walk(moves).is_some_and(|at| self.nodes[at].ends)
    }

    /// What the learner's move `mv` after `moves` is. `moves` must follow the tree.
    pub fn step(&self, moves: &[String], mv: &str) -> Step<'_> {
        let Some(at) = self.walk(moves) else {
            return Step::Unknown;
        };
        if let Some(next) = self.child(at, mv) {
            let node = &self.nodes[next];
            let reply = node.children.first().map(|(m, n)| (m.as_str(), *n));
            let solved = node.ends || reply.is_some_and(|(_, n)| self.nodes[n].ends);
            return Step::Correct {
                reply: reply.map(|(m, _)| m),
                solved,
            };
        }
        match self.nodes[at].wrong.iter().find(|(m, _)| m == mv) {
            Some((_, wrong)) => Step::Wrong(wrong),
            None => Step::Unknown,
        }
    }

    /// The main line: the first correct line written, learner and replies alternating.
    pub fn main_line(&self) -> Vec<String> {
        let mut line = Vec::new();
        let mut at = 0;
        while let Some((mv, next)) = self.nodes[at].children.first() {
            line.push(mv.clone());
            at = *next;
        }
        line
    }

    /// Every correct line, in the order written (lines that are the start of a longer one
    /// are included only when a line ends there).
    pub fn correct_lines(&self) -> Vec<Vec<String>> {
        let mut out = Vec::new();
        let mut stack = vec![(0usize, Vec::new())];
        while let Some((at, line)) = stack.pop() {
            if self.nodes[at].ends && !line.is_empty() {
                out.push(line.clone());
            }
            for (mv, next) in self.nodes[at].children.iter().rev() {
                let mut longer = line.clone();
                longer.push(mv.clone());
                stack.push((*next, longer));
            }
        }
        out
    }

    /// The learner's correct first moves, in the order written.
    pub fn first_moves(&self) -> impl Iterator<Item = &str> {
        self.nodes[0].children.iter().map(|(mv, _)| mv.as_str())
    }

    /// Whether the tree has no line at all.
    pub fn is_empty(&self) -> bool {
        self.nodes[0].children.is_empty()
    }
}

/// A game's rules as line building needs them: play one written move on a position, giving
/// the move's canonical name, or why it is refused (the position then left as it was).
pub(crate) type PlayFn<'a, P> = &'a dyn Fn(&mut P, &str) -> Result<String, String>;

/// Plays a written line (moves separated by spaces) from `start`.
pub(crate) fn play_line<P: Clone>(
    ctx: &Ctx,
    start: &P,
    play: PlayFn<P>,
    line: &Spanned<String>,
) -> Result<(Vec<String>, P), Diagnostic> {
    let mut pos = start.clone();
    let mut names = Vec::new();
    for (i, text) in line.get_ref().split_whitespace().enumerate() {
        let name = play(&mut pos, text).map_err(|why| {
            ctx.err(
                line.span(),
                format!("line `{}`: move {} ({text}): {why}", line.get_ref(), i + 1),
            )
        })?;
        names.push(name);
    }
    if names.is_empty() {
        return Err(ctx.err(line.span(), "the line has no moves"));
    }
    Ok((names, pos))
}

/// Builds the tree of a problem's written lines, played through the rules from `start`.
/// Returns the tree and, for each solution line that was added, its span and end position.
pub(crate) fn build<'s, P: Clone>(
    ctx: &Ctx,
    start: &P,
    play: PlayFn<P>,
    solutions: &'s [Spanned<String>],
    wrong: &[(&Spanned<String>, &Text)],
    errors: &mut Vec<Diagnostic>,
) -> (LineTree, Vec<(&'s Spanned<String>, P)>) {
    let mut tree = LineTree::new();
    let mut ends = Vec::new();
    for line in solutions {
        match play_line(ctx, start, play, line) {
            Ok((names, end)) => match tree.add_correct(&names) {
                Ok(()) => ends.push((line, end)),
                Err(e) => errors.push(ctx.err(line.span(), e.to_string())),
            },
            Err(e) => errors.push(e),
        }
    }
    for (line, why) in wrong {
        match play_line(ctx, start, play, line) {
            Ok((names, _)) => {
                if let Err(e) = tree.add_wrong(&names, (*why).clone()) {
                    errors.push(ctx.err(line.span(), e.to_string()));
                }
            }
            Err(e) => errors.push(e),
        }
    }
    (tree, ends)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(s: &str) -> Vec<String> {
        s.split_whitespace().map(String::from).collect()
    }

    fn why() -> Text {
        Text {
            zh: "不对".into(),
            en: "no".into(),
        }
    }

    #[test]
    fn first_moves_are_the_roots_in_order_written() {
        let mut t = LineTree::new();
        t.add_correct(&line("E4 D5 F5")).unwrap();
        t.add_correct(&line("D6")).unwrap();
        t.add_correct(&line("E4 D5 C6")).unwrap();
        assert_eq!(t.first_moves().collect::<Vec<_>>(), ["E4", "D6"]);
    }

    #[test]
    fn follows_correct_lines_and_replies_with_the_first() {
        let mut t = LineTree::new();
        t.add_correct(&line("D6")).unwrap();
        t.add_correct(&line("E4 D5 F5")).unwrap();
        t.add_correct(&line("E4 D5 C6")).unwrap();
        assert_eq!(
            t.step(&[], "D6"),
            Step::Correct {
                reply: None,
                solved: true
            }
        );
        assert_eq!(
            t.step(&[], "E4"),
            Step::Correct {
                reply: Some("D5"),
                solved: false
            }
        );
        assert_eq!(
            t.step(&line("E4 D5"), "C6"),
            Step::Correct {
                reply: None,
                solved: true
            }
        );
        assert_eq!(t.step(&[], "A1"), Step::Unknown);
        assert_eq!(t.main_line(), line("D6"));
        assert_eq!(
            t.correct_lines(),
            vec![line("D6"), line("E4 D5 F5"), line("E4 D5 C6")]
        );
    }

    #[test]
    fn errors_on_unreachable_reply() {
        let mut t = LineTree::new();
        t.add_correct(&line("E4 D5 F5")).unwrap();
        assert_eq!(
            t.add_correct(&line("E4 C5 C6")),
            Err(BadLine::Unreachable {
                index: 1,
                reply: "D5".into()
            })
        );
    }

    #[test]
    fn wrong_lines_carry_their_refutation() {
        let mut t = LineTree::new();
        t.add_correct(&line("E4 D5 F5")).unwrap();
        t.add_wrong(&line("F5 D6"), why()).unwrap();
        t.add_wrong(&line("E4 D5 G5 F5"), why()).unwrap();
        match t.step(&[], "F5") {
            Step::Wrong(w) => assert_eq!(w.refutation, line("D6")),
            other => panic!("{other:?}"),
        }
        assert!(matches!(t.step(&line("E4 D5"), "G5"), Step::Wrong(_)));
    }

    #[test]
    fn errors_on_wrong_line_that_is_correct_or_leaves_at_a_reply() {
        let mut t = LineTree::new();
        t.add_correct(&line("E4 D5 F5")).unwrap();
        assert_eq!(t.add_wrong(&line("E4 D5"), why()), Err(BadLine::IsCorrect));
        assert_eq!(
            t.add_wrong(&line("E4 C5 F5"), why()),
            Err(BadLine::LeavesAtReply(1))
        );
        assert_eq!(t.add_wrong(&[], why()), Err(BadLine::Empty));
    }
}
