//! Importers: Go problems from tsumego SGF files ([`sgf`]) and from the JSON lines of tsumego
//! collections ([`tsumego_json`]), written out as a problem-set TOML file in the format of
//! `docs/authoring.md`; and SGF export of any Go position with its lines ([`sgf::to_sgf`]).
//! Chess puzzles from the Lichess puzzle database ([`lichess`]); shogi tsume from SFEN + USI
//! JSON lines ([`sfen`]) and game records in KIF, KI2 and CSA ([`kif`]). Every importer gives
//! [`ImportedProblem`]s of one shape, and one writer, [`write_checked`], checks a set as
//! `qiyuan check` would before it is written.
//!
//! An importer never writes a line the trainer would refuse: every move is played through the
//! rules engine and every line is put into a [`LineTree`] as the loader does; what does not fit
//! is left out and said so in a `#` comment of the written file.

pub mod kif;
pub mod lichess;
pub mod sfen;
pub mod sgf;

mod go;
pub use go::{life, tsumego_json};

use crate::content::{Diagnostic, Game, Library, LineTree, Text};
use crate::lang::Lang;
use crate::rules::go::{Color, Move, Point, Position};
use std::fmt::Write as _;

// Limits on records read from files (game records and problem files alike): `record`
// keeps them, with the readers of SGF and shogi records this module reads through.
pub use crate::record::{MAX_MOVES, MAX_PLIES};

/// What a problem asks, as its `goal` key (and `mate_in`) say.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Goal {
    /// `best`: find the best move (and follow the lines).
    Best,
    /// `live`: make the group live (Go).
    Live,
    /// `kill`: kill the group (Go).
    Kill,
    /// `ko`: at least a ko (Go): the solver proves the book's ko.
    Ko,
    /// `mate` with `mate_in = N` (chess): mate in N moves, proven by search.
    Mate(u32),
    /// `tsume` with `mate_in = N` (shogi): mate in N plies, every attacking move a check.
    Tsume(u32),
}

impl Goal {
    /// The TOML name: `best`, `live`, `kill`, `mate` or `tsume`.
    pub fn as_str(self) -> &'static str {
        match self {
            Goal::Best => "best",
            Goal::Live => "live",
            Goal::Kill => "kill",
            Goal::Ko => "ko",
            Goal::Mate(_) => "mate",
            Goal::Tsume(_) => "tsume",
        }
    }

    /// `mate_in`, for a goal proven by search.
    pub fn mate_in(self) -> Option<u32> {
        match self {
            Goal::Mate(n) | Goal::Tsume(n) => Some(n),
            _ => None,
        }
    }

    /// The goal a problem's prompt states, if any: "Black to live", "黑先活", "kill", "杀"…
    pub fn from_prompt(text: &str) -> Goal {
        let lower = text.to_lowercase();
        let has_word = |w: &str| {
            lower
                .split(|c: char| !c.is_alphanumeric())
                .any(|word| word == w)
        };
        if has_word("kill")
            || lower.contains("净杀")
            || lower.contains("先杀")
            || lower.contains("杀白")
            || lower.contains("杀黑")
        {
            Goal::Kill
        } else if has_word("live")
            || has_word("living")
            || lower.contains("做活")
            || lower.contains("先活")
            || lower.contains("净活")
        {
            Goal::Live
        } else {
            Goal::Best
        }
    }
}

/// The position of an imported problem, in its game's terms; its side to move is the learner.
#[derive(Clone, Debug)]
pub enum Setup {
    /// A Go position, and the part of the board to show if not all of it.
    Go {
        /// The starting position.
        start: Position,
        /// The part shown.
        view: Option<(Point, Point)>,
    },
    /// A position of a game of pieces, as that game writes one (a chess FEN, a shogi
    /// SFEN); the set file keeps it under the game's `position_key`.
    Pieces {
        /// The game.
        game: Game,
        /// The position in the game's notation.
        notation: String,
    },
}

impl Setup {
    /// The position of a game of pieces, `notation` in the game's notation.
    pub fn pieces(game: Game, notation: impl Into<String>) -> Setup {
        Setup::Pieces {
            game,
            notation: notation.into(),
        }
    }
}

/// One problem of any game, ready to be written as a `[[problem]]` table. Lines are in the
/// engine's canonical move names (GTP points, UCI, USI), the learner's first.
#[derive(Clone, Debug)]
pub struct ImportedProblem {
    /// The problem's id within its set (a slug).
    pub id: String,
    /// Where it came from (file, and game or line), written as a `#` comment.
    pub source: String,
    /// What the learner is asked.
    pub prompt: Text,
    /// The starting position.
    pub setup: Setup,
    /// The goal.
    pub goal: Goal,
    /// 1 (easiest) to 5, if known.
    pub difficulty: Option<u8>,
    /// Tags (chess sets keep them; elsewhere they become a comment).
    pub tags: Vec<String>,
    /// Squares to shade, such as the opponent's last move.
    pub highlight: Vec<String>,
    /// A nudge, shown on request.
    pub hint: Option<Text>,
    /// Correct lines.
    pub solutions: Vec<Vec<String>>,
    /// Wrong lines (correct moves, the wrong move, the refutation) and why they fail.
    pub wrong: Vec<(Vec<String>, Text)>,
    /// Shown once solved.
    pub explanation: Option<Text>,
    /// Notes for the author (a language missing, lines left out), written as `#` comments.
    pub notes: Vec<String>,
    /// Go life and death: the rectangle the solver searches (top left and bottom right),
    /// where the one it derives would not do; written as `region`.
    pub region: Option<(Point, Point)>,
}

impl ImportedProblem {
    /// A problem with nothing but its position, goal and prompt; the rest is filled in.
    pub fn new(setup: Setup, goal: Goal, prompt: Text) -> ImportedProblem {
        ImportedProblem {
            id: String::new(),
            source: String::new(),
            prompt,
            setup,
            goal,
            difficulty: None,
            tags: Vec::new(),
            highlight: Vec::new(),
            hint: None,
            solutions: Vec::new(),
            wrong: Vec::new(),
            explanation: None,
            notes: Vec::new(),
            region: None,
        }
    }
}

/// A source item that could not become a problem.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Skipped {
    /// Where it came from.
    pub source: String,
    /// Why it was left out.
    pub reason: String,
}

/// What an import produced.
#[derive(Clone, Debug, Default)]
pub struct Imported {
    /// The problems, in source order.
    pub problems: Vec<ImportedProblem>,
    /// What was left out, and why.
    pub skipped: Vec<Skipped>,
}

/// Why an import cannot be written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ImportError {
    /// The set name is not a slug (lowercase letters, digits and `-`).
    SetName(String),
    /// Nothing could be imported.
    Empty,
}

impl std::fmt::Display for ImportError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ImportError::SetName(n) => write!(
                f,
                "set name `{n}` should be a slug: lowercase letters, digits and `-`, like `cho-elementary`"
            ),
            ImportError::Empty => f.write_str("no problem could be imported"),
        }
    }
}

impl std::error::Error for ImportError {}

/// Whether `s` may name a set or a problem: lowercase letters, digits and `-`.
pub fn is_slug(s: &str) -> bool {
    !s.is_empty()
        && s.bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
}

/// A slug made from a file stem or a name: `Prob0001` → `prob0001`, `Life & Death 3` →
/// `life-death-3`.
pub fn slugify(s: &str) -> String {
    let mut out = String::new();
    for ch in s.chars() {
        if ch.is_ascii_alphanumeric() {
            out.push(ch.to_ascii_lowercase());
        } else if !out.ends_with('-') && !out.is_empty() {
            out.push('-');
        }
    }
    while out.ends_with('-') {
        out.pop();
    }
    out
}

/// The standard prompt for `to_play` and `goal`: `黑先。` / `Black to play.`, `白先活。` /
/// `White to live.`
pub fn standard_prompt(to_play: Color, goal: Goal) -> Text {
    let (zh, en) = match to_play {
        Color::Black => ("黑", "Black"),
        Color::White => ("白", "White"),
    };
    let (zh_goal, en_goal) = match goal {
        Goal::Live => ("活", "live"),
        Goal::Kill => ("杀", "kill"),
        Goal::Best | Goal::Ko | Goal::Mate(_) | Goal::Tsume(_) => ("", "play"),
    };
    Text {
        zh: format!("{zh}先{zh_goal}。"),
        en: format!("{en} to {en_goal}."),
    }
}

/// Whether a text is written in Chinese (holds CJK characters).
pub fn is_chinese(s: &str) -> bool {
    s.chars()
        .any(|c| matches!(c as u32, 0x3400..=0x4DBF | 0x4E00..=0x9FFF | 0xF900..=0xFAFF))
}

/// A text found in one language only, put in both; the note says which.
pub(crate) fn one_language(text: &str) -> (Text, Lang) {
    let lang = if is_chinese(text) { Lang::Zh } else { Lang::En };
    (Text::both(text.trim()), lang)
}

/// Wrong lines with why they fail.
pub(crate) type WrongLines = Vec<(Vec<String>, Text)>;

/// Builds the lines of a problem as the loader will: correct lines in order, then wrong
/// lines. Lines the tree refuses are left out, with a note. Every move must already be legal.
pub(crate) fn fit_lines(
    correct: Vec<Vec<String>>,
    wrong: WrongLines,
    notes: &mut Vec<String>,
) -> (Vec<Vec<String>>, WrongLines) {
    let mut tree = LineTree::new();
    let mut kept = Vec::new();
    for line in correct {
        if kept.contains(&line) {
            continue;
        }
        match tree.add_correct(&line) {
            Ok(()) => kept.push(line),
            Err(e) => notes.push(format!("correct line `{}` left out: {e}", line.join(" "))),
        }
    }
    let mut kept_wrong: WrongLines = Vec::new();
    for (line, why) in wrong {
        // Cut the line after the first learner move that leaves the correct lines, plus its
        // refutation: that is what the tree keeps.
        let mut at = Vec::new();
        let mut cut = None;
        for (i, mv) in line.iter().enumerate() {
            at.push(mv.clone());
            if !tree.follows(&at) {
                cut = Some(i);
                break;
            }
        }
        let Some(i) = cut else {
            notes.push(format!(
                "wrong line `{}` left out: it follows a correct line all the way",
                line.join(" ")
            ));
            continue;
        };
        if i % 2 == 1 {
            notes.push(format!(
                "wrong line `{}` left out: it leaves the correct lines at the opponent's move {}, and the trainer always answers with the first correct reply",
                line.join(" "),
                line[i]
            ));
            continue;
        }
        if kept_wrong
            .iter()
            .any(|(l, _)| l.len() > i && l[..=i] == line[..=i])
        {
            notes.push(format!(
                "wrong line `{}` left out: an earlier line already refutes {}",
                line.join(" "),
                line[i]
            ));
            continue;
        }
        match tree.add_wrong(&line, why.clone()) {
            Ok(()) => kept_wrong.push((line, why)),
            Err(e) => notes.push(format!("wrong line `{}` left out: {e}", line.join(" "))),
        }
    }
    (kept, kept_wrong)
}

/// Plays `moves` from `start`; the GTP names if every move is legal, else why not.
pub(crate) fn play_all(start: &Position, moves: &[Move]) -> Result<Vec<String>, String> {
    let size = start.size();
    let mut pos = start.clone();
    let mut names = Vec::new();
    for (i, &mv) in moves.iter().enumerate() {
        let colour = pos.turn();
        pos = pos.play_move(mv).map_err(|e| {
            format!(
                "move {} ({} {}) is illegal: {}",
                i + 1,
                colour.as_str(),
                mv.name(size),
                e.explain(Lang::En)
            )
        })?;
        names.push(mv.name(size));
    }
    Ok(names)
}

/// The part of a large board worth showing: the stones and the moves of every line, with a
/// margin of two lines, stretched to an edge that is near. `None` (the whole board) on boards
/// of 9×9 and less, or when the part would be nearly all of it.
pub fn view_for(start: &Position, lines: &[&[String]]) -> Option<(Point, Point)> {
    let size = start.size();
    if size <= 9 {
        return None;
    }
    let board = start.board();
    let mut pts: Vec<Point> = board.points().filter(|&p| board.get(p).is_some()).collect();
    for line in lines {
        pts.extend(line.iter().filter_map(|m| Point::parse(m, size).ok()));
    }
    if pts.is_empty() {
        return None;
    }
    let last = size - 1;
    let lo = |v: u8| if v <= 4 { 0 } else { v - 2 };
    let hi = |v: u8| if v + 4 >= last { last } else { v + 2 };
    let (c0, c1) = (
        lo(pts.iter().map(|p| p.col).min()?),
        hi(pts.iter().map(|p| p.col).max()?),
    );
    let (r0, r1) = (
        lo(pts.iter().map(|p| p.row).min()?),
        hi(pts.iter().map(|p| p.row).max()?),
    );
    let (w, h) = ((c1 - c0 + 1) as u32, (r1 - r0 + 1) as u32);
    if w * h * 4 >= (size as u32) * (size as u32) * 3 {
        return None;
    }
    Some((Point::new(c0, r0), Point::new(c1, r1)))
}

/// A TOML basic string: `"…"` with `\`, `"` and control characters escaped.
pub fn toml_string(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for ch in s.chars() {
        match ch {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            c if (c as u32) < 0x20 || c as u32 == 0x7f => {
                let _ = write!(out, "\\u{:04X}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

fn toml_text(t: &Text) -> String {
    format!(
        "{{ zh = {}, en = {} }}",
        toml_string(&t.zh),
        toml_string(&t.en)
    )
}

/// Text for a `#` comment: one line, no control characters (TOML refuses them in comments).
pub fn comment(s: &str) -> String {
    s.chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect()
}

/// The problem-set file of `imported` problems of `game`, titled `title`; `origin` says in a
/// `#` comment where they came from, and what was left out is listed under it.
pub fn write_set(game: Game, title: &Text, origin: &str, imported: &Imported) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "# {}", comment(origin));
    if !imported.skipped.is_empty() {
        let _ = writeln!(out, "# Left out ({}):", imported.skipped.len());
        for s in &imported.skipped {
            let _ = writeln!(out, "#   {}: {}", comment(&s.source), comment(&s.reason));
        }
    }
    out.push_str("\n[set]\n");
    let _ = writeln!(out, "title = {}", toml_text(title));
    for p in imported.problems.iter().filter(|p| p.setup.game() == game) {
        out.push('\n');
        write_problem(&mut out, p);
    }
    out
}

fn toml_list(items: &[String]) -> String {
    let quoted: Vec<String> = items.iter().map(|s| toml_string(s)).collect();
    format!("[{}]", quoted.join(", "))
}

/// A rectangle of a board of `size` as the `view` and `region` keys write it: `"A19:G14"`.
pub(crate) fn rectangle_name((top_left, bottom_right): (Point, Point), size: u8) -> String {
    format!("{}:{}", top_left.name(size), bottom_right.name(size))
}

fn write_problem(out: &mut String, p: &ImportedProblem) {
    out.push_str("[[problem]]\n");
    let _ = writeln!(out, "id = {}", toml_string(&p.id));
    let _ = writeln!(out, "# from {}", comment(&p.source));
    for note in &p.notes {
        let _ = writeln!(out, "# note: {}", comment(note));
    }
    let _ = writeln!(out, "prompt = {}", toml_text(&p.prompt));
    p.setup.write_position(out);
    let _ = writeln!(out, "goal = {}", toml_string(p.goal.as_str()));
    p.setup.write_region(p.region, out);
    if let Some(n) = p.goal.mate_in() {
        let _ = writeln!(out, "mate_in = {n}");
    }
    if let Some(d) = p.difficulty {
        let _ = writeln!(out, "difficulty = {d}");
    }
    if !p.tags.is_empty() {
        if p.setup.game().kind().tagged_sets {
            let _ = writeln!(out, "tags = {}", toml_list(&p.tags));
        } else {
            let _ = writeln!(out, "# tags: {}", comment(&p.tags.join(" ")));
        }
    }
    if !p.highlight.is_empty() {
        let _ = writeln!(out, "highlight = {}", toml_list(&p.highlight));
    }
    let lines: Vec<String> = p.solutions.iter().map(|l| l.join(" ")).collect();
    let _ = writeln!(out, "solutions = {}", toml_list(&lines));
    if let Some(h) = &p.hint {
        let _ = writeln!(out, "hint = {}", toml_text(h));
    }
    if let Some(e) = &p.explanation {
        let _ = writeln!(out, "explanation = {}", toml_text(e));
    }
    for (line, why) in &p.wrong {
        out.push_str("\n[[problem.wrong]]\n");
        let _ = writeln!(out, "line = {}", toml_string(&line.join(" ")));
        let _ = writeln!(out, "why = {}", toml_text(why));
    }
}

/// An id for `wanted` (made a slug) that no earlier problem of the set has: `abc`, then
/// `abc-2`, `abc-3`…
pub(crate) fn unique_id(taken: &mut std::collections::HashSet<String>, wanted: &str) -> String {
    let base = match slugify(wanted) {
        s if s.is_empty() => "problem".to_string(),
        s => s,
    };
    let mut id = base.clone();
    let mut n = 1;
    while !taken.insert(id.clone()) {
        n += 1;
        id = format!("{base}-{n}");
    }
    id
}

/// Loads a written set the way `qiyuan check` does, as `problems/GAME/SLUG.toml`; every
/// problem found is reported against `shown`, the file as the author will open it.
pub fn check(game: Game, slug: &str, shown: &str, toml: &str) -> (Library, Vec<Diagnostic>) {
    let (library, mut errors) = Library::load(&[(
        format!("problems/{}/{slug}.toml", game.slug()),
        toml.to_string(),
    )]);
    for e in &mut errors {
        e.path = shown.to_string();
    }
    (library, errors)
}

/// The lines of JSON-lines text, numbered from 1, with a byte-order mark and blank lines left
/// out; each line is parsed, or gives why it cannot be.
pub fn json_lines(
    text: &str,
) -> impl Iterator<Item = (usize, Result<serde_json::Value, String>)> + '_ {
    text.strip_prefix('\u{feff}')
        .unwrap_or(text)
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| {
            (
                i + 1,
                serde_json::from_str(l.trim()).map_err(|e| format!("not JSON: {e}")),
            )
        })
}

/// A set written by [`write_checked`].
#[derive(Clone, Debug)]
pub struct CheckedSet {
    /// The file's text.
    pub toml: String,
    /// The errors left in it: none when every problem could be kept or put right.
    pub errors: Vec<Diagnostic>,
    /// The problems the first check refused: id and the check's messages. Each was
    /// rewritten as `best` (see [`write_checked`]) or left out.
    pub refused: Vec<(String, String)>,
}

/// What [`write_checked`] writes: the set's name, the file it goes to, its title and origin.
pub struct SetTarget<'a> {
    /// The game of the set.
    pub game: Game,
    /// The set's name (a slug).
    pub slug: &'a str,
    /// The file as the author will open it (`--out`), named in every diagnostic.
    pub shown: &'a str,
    /// The set's title.
    pub title: &'a Text,
    /// Where the problems came from, for the file's first comment.
    pub origin: &'a str,
}

/// Writes the set ([`write_set`]) and checks it as `qiyuan check` does ([`check`]), so that a
/// written set always loads: a problem the check refuses is put right or left out, and the
/// file is written again. A `mate` or `tsume` problem whose proof the search refuses (a
/// composition whose solution relies on a rule the search treats differently, or one past
/// its limits) becomes a `best` problem that follows its lines, with the search's message as
/// a note, and is checked again on its own; any other refused problem is left out with the
/// check's messages (in `imported.skipped`). Problems load independently of each other, so a
/// problem that loads alone loads in the set and the whole set is loaded only once.
pub fn write_checked(target: &SetTarget, imported: &mut Imported) -> CheckedSet {
    let SetTarget {
        game,
        slug,
        shown,
        title,
        origin,
    } = *target;
    let toml = write_set(game, title, origin, imported);
    let (_, errors) = check(game, slug, shown, &toml);
    if errors.is_empty() {
        return CheckedSet {
            toml,
            errors,
            refused: Vec::new(),
        };
    }
    // The line each problem's table starts on, from 1.
    let starts: Vec<usize> = toml
        .lines()
        .enumerate()
        .filter(|(_, l)| *l == "[[problem]]")
        .map(|(i, _)| i + 1)
        .collect();
    let mut left = Vec::new();
    let mut by_problem: Vec<Vec<String>> = vec![Vec::new(); imported.problems.len()];
    for e in errors {
        match starts.iter().rposition(|&s| s <= e.line) {
            Some(k) if k < by_problem.len() => by_problem[k].push(e.message),
            _ => left.push(e),
        }
    }
    let mut refused = Vec::new();
    let mut kept = Vec::new();
    for (p, messages) in std::mem::take(&mut imported.problems)
        .into_iter()
        .zip(by_problem)
    {
        if messages.is_empty() {
            kept.push(p);
            continue;
        }
        let why = messages.join("; ");
        refused.push((p.id.clone(), why.clone()));
        if p.goal.mate_in().is_some() {
            let mut best = p.clone();
            best.goal = Goal::Best;
            best.notes.push(format!(
                "the trainer's search refused this problem ({why}), so it is judged by its lines"
            ));
            let alone = Imported {
                problems: vec![best],
                skipped: Vec::new(),
            };
            let text = write_set(game, title, origin, &alone);
            if check(game, slug, shown, &text).1.is_empty() {
                kept.extend(alone.problems);
                continue;
            }
        }
        imported.skipped.push(Skipped {
            source: p.source.clone(),
            reason: why,
        });
    }
    imported.problems = kept;
    let toml = write_set(game, title, origin, imported);
    if imported.problems.is_empty() {
        left.extend(check(game, slug, shown, &toml).1);
    }
    CheckedSet {
        toml,
        errors: left,
        refused,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_toml_strings() {
        assert_eq!(toml_string("a \"b\" \\ c\nd"), r#""a \"b\" \\ c\nd""#);
        assert_eq!(toml_string("黑先"), "\"黑先\"");
    }

    #[test]
    fn makes_slugs() {
        assert_eq!(slugify("Prob0001"), "prob0001");
        assert_eq!(slugify("Life & Death 3"), "life-death-3");
        assert!(is_slug("cho-elementary"));
        assert!(!is_slug("Cho"));
    }

    #[test]
    fn a_refused_proof_is_written_as_best() {
        let problem = |id: &str, goal| ImportedProblem {
            id: id.into(),
            source: "test".into(),
            tags: vec!["mate".into()],
            solutions: vec![vec!["d1d8".into()]],
            ..ImportedProblem::new(
                Setup::pieces(Game::Chess, "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1"),
                goal,
                Text::both("White to play."),
            )
        };
        // d1d8 mates at once (no luft for the king), but not d1d7: neither proves a mate in 1.
        let mut quiet = problem("quiet", Goal::Mate(1));
        quiet.solutions = vec![vec!["d1d7".into()]];
        let mut imported = Imported {
            problems: vec![problem("mate", Goal::Mate(1)), quiet],
            skipped: Vec::new(),
        };
        let target = SetTarget {
            game: Game::Chess,
            slug: "t",
            shown: "out/t.toml",
            title: &Text::both("t"),
            origin: "test",
        };
        let checked = write_checked(&target, &mut imported);
        assert!(checked.errors.is_empty(), "{:?}", checked.errors);
        assert_eq!(checked.refused.len(), 1);
        assert_eq!(checked.refused[0].0, "quiet");
        assert_eq!(imported.problems[0].goal, Goal::Mate(1));
        assert_eq!(imported.problems[1].goal, Goal::Best);
        assert!(checked
            .toml
            .contains("# note: the trainer's search refused"));
        assert!(checked.toml.contains("tags = [\"mate\"]"));
        assert!(check(Game::Chess, "t", "t.toml", &checked.toml)
            .1
            .is_empty());
    }

    #[test]
    fn comments_stay_valid_toml() {
        let mut p = ImportedProblem::new(
            Setup::pieces(Game::Chess, "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1"),
            Goal::Best,
            Text::both("White to play."),
        );
        p.id = "a".into();
        p.source = "lichess \u{1}\u{7f}id\nnext".into();
        p.notes.push("a\u{0}b".into());
        p.solutions = vec![vec!["d1d8".into()]];
        let imported = Imported {
            problems: vec![p],
            skipped: vec![Skipped {
                source: "x\u{1b}".into(),
                reason: "bad\rline".into(),
            }],
        };
        let toml = write_set(Game::Chess, &Text::both("t"), "test\u{2}", &imported);
        let (_, errors) = check(Game::Chess, "t", "t.toml", &toml);
        assert!(errors.is_empty(), "{errors:?}\n{toml}");
    }

    #[test]
    fn diagnostics_name_the_file_as_written() {
        let (_, errors) = check(Game::Go, "t", "out/my-set.toml", "[set]\ntitle = 1\n");
        assert!(!errors.is_empty());
        assert!(
            errors.iter().all(|e| e.path == "out/my-set.toml"),
            "{errors:?}"
        );
    }

    #[test]
    fn json_lines_skip_a_byte_order_mark_and_blank_lines() {
        let lines: Vec<_> = json_lines("\u{feff}{\"a\": 1}\n\n{\"a\": 2}\nnot json\n").collect();
        assert_eq!(lines.len(), 3);
        assert_eq!(lines[0].0, 1);
        assert!(lines[0].1.is_ok());
        assert_eq!(lines[1].0, 3);
        assert!(lines[2].1.as_ref().unwrap_err().contains("not JSON"));
    }

    #[test]
    fn reads_goals_from_prompts() {
        assert_eq!(Goal::from_prompt("Black to live"), Goal::Live);
        assert_eq!(Goal::from_prompt("黑先杀"), Goal::Kill);
        assert_eq!(Goal::from_prompt("White to play: Elementary"), Goal::Best);
        assert_eq!(Goal::from_prompt("Deliver the killing blow"), Goal::Best);
        assert_eq!(Goal::from_prompt("黑先做活"), Goal::Live);
    }
}
