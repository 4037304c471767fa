//! Places in a record's tree of moves: a [`Path`] names one position (the start, or the
//! position after a move of the main line or of a variation at any depth), is spelled in one
//! canonical way for addresses (`?at=12-1-3`), and moves from place to place: the next and
//! previous move, the end of the line, the other moves played in the same place.
//!
//! A path is the moves played along the main line, then for every variation entered the
//! variation's number (from 1) and the moves played in it: `12-1-3` is "after the main
//! line's 12th move, the first variation of the 13th, three moves into it".
//!
//! ```
//! use qiyuan::record::path::Path;
//! use qiyuan::record::{Record, Step};
//! use qiyuan::play::Start;
//! let mut record = Record::new(Start::Go(qiyuan::base::go::Start { size: 9, handicap: 0, rules: qiyuan::rules::go::Scoring::Chinese, komi: 7.5 }));
//! let mut second = Step::new("E5");
//! second.variations.push(vec![Step::new("C3"), Step::new("C4")]);
//! record.moves = vec![Step::new("D4"), second];
//! let at: Path = "1-1-2".parse().unwrap();
//! assert_eq!(record.moves_to(&at).unwrap(), ["D4", "C3", "C4"]);
//! assert_eq!(at.to_string(), "1-1-2");
//! assert_eq!(record.previous(&at).to_string(), "1-1-1");
//! assert_eq!(record.previous(&record.previous(&at)).to_string(), "1");
//! ```

use super::{Record, Step};
use std::fmt;
use std::str::FromStr;

/// A variation entered: at which step of the line it stands beside, and which it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Branch {
    /// The index of the step of the line that the variation replaces (its moves before it
    /// are played).
    pub at: usize,
    /// Which of the step's variations, from 0.
    pub variation: usize,
}

/// A position in a record's tree.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Path {
    /// The variations entered, outermost first.
    pub branches: Vec<Branch>,
    /// How many moves are played along the innermost line.
    pub moves: usize,
}

/// The longest path spelling read (a record of 10,000 moves nested 64 deep fits well).
pub const MAX_SPELLING: usize = 1024;

/// Why a path's spelling cannot be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PathError {
    /// Not numbers joined by `-`, or an even count of them.
    Syntax,
    /// Longer than [`MAX_SPELLING`].
    TooLong,
}

impl fmt::Display for PathError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PathError::Syntax => write!(f, "a place is numbers joined by -, like 12 or 12-1-3"),
            PathError::TooLong => write!(f, "a place is at most {MAX_SPELLING} characters"),
        }
    }
}

impl std::error::Error for PathError {}

impl FromStr for Path {
    type Err = PathError;

    /// Reads `12`, `12-1-3` …; an empty text is the start. Numbers with leading zeros and
    /// variation `0` are read too (the record then says which place they name).
    fn from_str(text: &str) -> Result<Path, PathError> {
        if text.len() > MAX_SPELLING {
            return Err(PathError::TooLong);
        }
        if text.is_empty() {
            return Ok(Path::default());
        }
        let numbers = text
            .split('-')
            .map(|n| {
                (!n.is_empty() && n.len() <= 9 && n.bytes().all(|b| b.is_ascii_digit()))
                    .then(|| n.parse::<usize>().ok())
                    .flatten()
            })
            .collect::<Option<Vec<usize>>>()
            .ok_or(PathError::Syntax)?;
        if numbers.len() % 2 == 0 {
            return Err(PathError::Syntax);
        }
        let branches = numbers
            .chunks(2)
            .filter(|c| c.len() == 2)
            .map(|c| Branch {
                at: c[0],
                variation: c[1].wrapping_sub(1),
            })
            .collect();
        Ok(Path {
            branches,
            moves: numbers[numbers.len() - 1],
        })
    }
}

impl fmt::Display for Path {
    /// The canonical spelling: `12`, `12-1-3`; the start is `0`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for b in &self.branches {
            write!(f, "{}-{}-", b.at, b.variation + 1)?;
        }
        write!(f, "{}", self.moves)
    }
}

impl Path {
    /// The start of the game.
    pub fn start() -> Path {
        Path::default()
    }

    /// Whether this is the start.
    pub fn is_start(&self) -> bool {
        self.branches.is_empty() && self.moves == 0
    }

    /// How many moves from the start this position is.
    pub fn ply(&self) -> usize {
        self.branches.iter().map(|b| b.at).sum::<usize>() + self.moves
    }

    /// The address spelling: empty for the start, else [`Path`]'s `Display`.
    pub fn spelling(&self) -> String {
        if self.is_start() {
            String::new()
        } else {
            self.to_string()
        }
    }

    fn with_moves(&self, moves: usize) -> Path {
        Path {
            branches: self.branches.clone(),
            moves,
        }
    }
}

impl Record {
    /// The line a path's branches lead into (the main line for none), if they exist.
    pub fn line_at(&self, branches: &[Branch]) -> Option<&[Step]> {
        let mut line: &[Step] = &self.moves;
        for b in branches {
            line = line.get(b.at)?.variations.get(b.variation)?;
        }
        Some(line)
    }

    /// The same, to change.
    pub fn line_at_mut(&mut self, branches: &[Branch]) -> Option<&mut Vec<Step>> {
        let mut line = &mut self.moves;
        for b in branches {
            line = line.get_mut(b.at)?.variations.get_mut(b.variation)?;
        }
        Some(line)
    }

    /// The steps played from the start to `path`, if it names a place of this record.
    pub fn steps_to(&self, path: &Path) -> Option<Vec<&Step>> {
        let mut out = Vec::with_capacity(path.ply());
        let mut line: &[Step] = &self.moves;
        for b in &path.branches {
            out.extend(line.get(..b.at)?);
            line = line.get(b.at)?.variations.get(b.variation)?;
        }
        out.extend(line.get(..path.moves)?);
        Some(out)
    }

    /// The moves played from the start to `path`, by their canonical names.
    pub fn moves_to(&self, path: &Path) -> Option<Vec<String>> {
        self.steps_to(path)
            .map(|s| s.iter().map(|s| s.mv.clone()).collect())
    }

    /// The place `path` names, in its canonical form: variations it enters that do not exist
    /// and moves past a line's end are cut off, and a variation entered with no move played
    /// in it is the place in the line around it.
    pub fn place(&self, path: &Path) -> Path {
        let mut out = Path::default();
        let mut line: &[Step] = &self.moves;
        for b in &path.branches {
            let Some(v) = line.get(b.at).and_then(|s| s.variations.get(b.variation)) else {
                out.moves = b.at.min(line.len());
                return out;
            };
            out.branches.push(*b);
            line = v;
        }
        out.moves = path.moves.min(line.len());
        while out.moves == 0 {
            let Some(b) = out.branches.pop() else { break };
            out.moves = b.at;
        }
        out
    }

    /// The step played last to reach `path` (none at the start).
    pub fn step_at(&self, path: &Path) -> Option<&Step> {
        let line = self.line_at(&path.branches)?;
        line.get(path.moves.checked_sub(1)?)
    }

    /// The position one move on along the line (the same place at its end).
    pub fn next(&self, path: &Path) -> Path {
        let len = self.line_at(&path.branches).map_or(0, <[Step]>::len);
        path.with_moves((path.moves + 1).min(len))
    }

    /// The position one move back: out of a variation at its first move.
    pub fn previous(&self, path: &Path) -> Path {
        let mut out = path.with_moves(path.moves.saturating_sub(1));
        if out.moves == 0 {
            if let Some(b) = out.branches.pop() {
                out.moves = b.at;
            }
        }
        out
    }

    /// The end of the line `path` is on.
    pub fn end_of_line(&self, path: &Path) -> Path {
        path.with_moves(self.line_at(&path.branches).map_or(0, <[Step]>::len))
    }

    /// The moves that could have been played in place of the last one, the last one among
    /// them: every place reached by one of them, and which of them `path` is. At the start,
    /// only the start.
    ///
    /// On a line's first move after a branch, the alternatives are those of the line around
    /// it (its move and its variations); elsewhere, the step's own variations.
    pub fn alternatives(&self, path: &Path) -> (Vec<Path>, usize) {
        if path.moves == 1 {
            if let Some((last, outer)) = path.branches.split_last() {
                let Some(line) = self.line_at(outer) else {
                    return (vec![path.clone()], 0);
                };
                let Some(step) = line.get(last.at) else {
                    return (vec![path.clone()], 0);
                };
                let around = Path {
                    branches: outer.to_vec(),
                    moves: last.at + 1,
                };
                let mut out = vec![around];
                out.extend((0..step.variations.len()).map(|v| {
                    let mut p = path.clone();
                    if let Some(b) = p.branches.last_mut() {
                        b.variation = v;
                    }
                    p
                }));
                return (out, last.variation + 1);
            }
        }
        let Some(step) = self.step_at(path) else {
            return (vec![path.clone()], 0);
        };
        let mut out = vec![path.clone()];
        out.extend((0..step.variations.len()).map(|v| {
            let mut branches = path.branches.clone();
            branches.push(Branch {
                at: path.moves - 1,
                variation: v,
            });
            Path { branches, moves: 1 }
        }));
        (out, 0)
    }

    /// Plays `name` (a canonical move name) from `path`: the place of the move the record
    /// already has there (the line's next move or a variation's first), or a new variation
    /// beside the line's next move, or a move added at the line's end. `None` when `path`
    /// names no place.
    pub fn add_move(&mut self, path: &Path, name: &str) -> Option<Path> {
        let line = self.line_at_mut(&path.branches)?;
        if path.moves > line.len() {
            return None;
        }
        let Some(step) = line.get_mut(path.moves) else {
            line.push(Step::new(name));
            return Some(path.with_moves(path.moves + 1));
        };
        if step.mv == name {
            return Some(path.with_moves(path.moves + 1));
        }
        let variation = match step.variations.iter().position(|v| v[0].mv == name) {
            Some(v) => v,
            None => {
                step.variations.push(vec![Step::new(name)]);
                step.variations.len() - 1
            }
        };
        let mut branches = path.branches.clone();
        branches.push(Branch {
            at: path.moves,
            variation,
        });
        Some(Path { branches, moves: 1 })
    }

    /// Deletes the innermost variation `path` is in: the place where it branched off, or
    /// `None` on the main line (which is not deleted) or when `path` names no place.
    pub fn delete_variation(&mut self, path: &Path) -> Option<Path> {
        let (last, outer) = path.branches.split_last()?;
        let line = self.line_at_mut(outer)?;
        let step = line.get_mut(last.at)?;
        if last.variation >= step.variations.len() {
            return None;
        }
        step.variations.remove(last.variation);
        Some(Path {
            branches: outer.to_vec(),
            moves: last.at,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::base::Start;

    /// 1 D4, 2 E5 (or 2 C3 3 C4 (or 3 F6)), 3 F5.
    fn tree() -> Record {
        let mut r = Record::new(Start::Go(crate::base::go::Start {
            size: 9,
            handicap: 0,
            rules: crate::rules::go::Scoring::Chinese,
            komi: 7.5,
        }));
        let mut c4 = Step::new("C4");
        c4.variations.push(vec![Step::new("F6")]);
        let mut e5 = Step::new("E5");
        e5.variations.push(vec![Step::new("C3"), c4]);
        r.moves = vec![Step::new("D4"), e5, Step::new("F5")];
        r
    }

    fn p(s: &str) -> Path {
        s.parse().unwrap()
    }

    #[test]
    fn spellings_read_back_as_written() {
        for s in ["0", "3", "1-1-2", "1-1-1-1-1"] {
            assert_eq!(p(s).to_string(), s);
        }
        assert_eq!(p(""), Path::start());
        assert!("1-1".parse::<Path>().is_err());
        assert!("x".parse::<Path>().is_err());
        assert!("1--2".parse::<Path>().is_err());
    }

    #[test]
    fn a_place_outside_the_tree_is_cut_to_the_tree() {
        let r = tree();
        assert_eq!(r.place(&p("9")).to_string(), "3");
        assert_eq!(r.place(&p("1-2-1")).to_string(), "1");
        assert_eq!(r.place(&p("1-1-0")).to_string(), "1");
        assert_eq!(r.place(&p("1-1-7")).to_string(), "1-1-2");
        assert_eq!(r.place(&p("01")).to_string(), "1");
    }

    #[test]
    fn alternatives_are_the_moves_of_one_place() {
        let r = tree();
        let (alts, here) = r.alternatives(&p("2"));
        assert_eq!(alts, [p("2"), p("1-1-1")]);
        assert_eq!(here, 0);
        let (alts, here) = r.alternatives(&p("1-1-1"));
        assert_eq!(alts, [p("2"), p("1-1-1")]);
        assert_eq!(here, 1);
        let (alts, _) = r.alternatives(&p("1-1-2"));
        assert_eq!(alts, [p("1-1-2"), p("1-1-1-1-1")]);
        assert_eq!(r.moves_to(&p("1-1-1-1-1")).unwrap(), ["D4", "C3", "F6"]);
    }

    #[test]
    fn moves_tried_become_variations_and_can_be_deleted() {
        let mut r = tree();
        assert_eq!(r.add_move(&p("1"), "E5"), Some(p("2")));
        assert_eq!(r.add_move(&p("1"), "C3"), Some(p("1-1-1")));
        let new = r.add_move(&p("1"), "G7").unwrap();
        assert_eq!(new, p("1-2-1"));
        assert_eq!(r.add_move(&p("3"), "A1"), Some(p("4")));
        assert_eq!(r.delete_variation(&new), Some(p("1")));
        assert_eq!(r.line_at(&[]).unwrap()[1].variations.len(), 1);
        assert_eq!(r.delete_variation(&p("2")), None);
    }
}
