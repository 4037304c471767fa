//! Go game records in SGF (FF4): decoded from the encodings learners' files come in, read
//! with sgf-parse into a [`Record`] (every move played through our engine), and written
//! back as UTF-8 SGF.
//!
//! **Encodings.** A byte-order mark decides first (UTF-8, UTF-16LE/BE); then the root's `CA`
//! (`GB2312`, `GBK`, `Shift_JIS`, `EUC-KR`, `UTF-8` … by the WHATWG labels), unless the
//! bytes do not decode in it but are valid UTF-8 (a file re-saved as UTF-8 that kept its old
//! `CA`); without `CA`, valid UTF-8 is UTF-8 and anything else is guessed by chardetng, the
//! detector Firefox uses (a MultiGo file without `CA` comes out GBK, a Nihon Ki-in one
//! Shift_JIS).
//!
//! **Reading.** `SZ`, `HA` with its `AB` on the usual points, `KM` and `RU` make the
//! [`Start`]; other `AB`/`AW` stones are a [`GoSetup`]. `PB`, `PW`, `EV`, `DT` and `RE`
//! (`B+R`, `W+2.5`, `0`, `B+T`, `B+F`) are the tags; every other root property is kept as it
//! was written. A node's `C` is its comment and its other properties (markup, times) are
//! kept as written. Siblings are variations. A side that plays twice in a row gets a pass
//! put between (with a note); a variation that adds or removes stones in the middle of the
//! game (`AB`/`AW`/`AE` after the root) is left out, with a note. An illegal move is refused
//! with the file's line of its node (`game.sgf:12, ply 31`) and the engine's reason.
//!
//! ```
//! use qiyuan::record::{sgf, Step};
//! let text = "(;GM[1]FF[4]SZ[9]KM[7]PB[黑]PW[白]RE[W+R];B[ee]C[天元](;W[cc];B[gg])(;W[gc]))";
//! let got = sgf::read("game.sgf", text.as_bytes()).unwrap();
//! let game = &got[0];
//! assert_eq!(game.main_line(), ["E5", "C7", "G3"]);
//! assert_eq!(game.moves[1].variations[0][0].mv, "G7");
//! assert_eq!(game.tags.first_player.as_deref(), Some("黑"));
//! let again = sgf::write(game).unwrap();
//! assert!(again.contains("CA[UTF-8]") && again.contains("RE[W+R]"));
//! assert_eq!(sgf::read("again.sgf", again.as_bytes()).unwrap()[0].moves, game.moves);
//! ```

use super::{within_nesting, GoSetup, Record, RecordError, Step, Tags, MAX_PLIES};
use crate::base::{Finish, GamePosition, Reason, Side, Start};
use crate::rules::go;
use sgf_parse::go::{Move as SgfMove, Prop};
use sgf_parse::SgfNode;

/// Decodes an SGF file's bytes: the text and the name of the encoding used.
///
/// ```
/// use qiyuan::record::sgf::decode;
/// // 古力 in GB2312, as the file says.
/// let (text, encoding) = decode(b"(;CA[GB2312]PB[\xb9\xc5\xc1\xa6])");
/// assert_eq!((text.as_str(), encoding), ("(;CA[GB2312]PB[古力])", "GBK"));
/// assert_eq!(decode("(;PB[李世石])".as_bytes()).1, "UTF-8");
/// ```
pub fn decode(bytes: &[u8]) -> (String, &'static str) {
    if let Some((encoding, bom)) = encoding_rs::Encoding::for_bom(bytes) {
        let (text, _) = encoding.decode_without_bom_handling(&bytes[bom..]);
        return (text.into_owned(), encoding.name());
    }
    // UTF-16 without a mark: the opening `(` with a zero byte beside it.
    if bytes.len() >= 2 && bytes[1] == 0 && bytes[0] != 0 {
        let (text, _) = encoding_rs::UTF_16LE.decode_without_bom_handling(bytes);
        return (text.into_owned(), "UTF-16LE");
    }
    if bytes.len() >= 2 && bytes[0] == 0 && bytes[1] != 0 {
        let (text, _) = encoding_rs::UTF_16BE.decode_without_bom_handling(bytes);
        return (text.into_owned(), "UTF-16BE");
    }
    let utf8 = std::str::from_utf8(bytes).ok();
    if let Some(encoding) = charset_label(bytes).and_then(encoding_rs::Encoding::for_label) {
        let (text, had_errors) = encoding.decode_without_bom_handling(bytes);
        match utf8 {
            Some(t) if had_errors => return (t.to_string(), "UTF-8"),
            _ => return (text.into_owned(), encoding.name()),
        }
    }
    if let Some(t) = utf8 {
        return (t.to_string(), "UTF-8");
    }
    let mut detector = chardetng::EncodingDetector::new(chardetng::Iso2022JpDetection::Deny);
    detector.feed(bytes, true);
    let encoding = detector.guess(None, chardetng::Utf8Detection::Deny);
    let (text, _) = encoding.decode_without_bom_handling(bytes);
    (text.into_owned(), encoding.name())
}

/// The value of the first `CA[…]` property, read from the raw bytes (its name and value
/// are ASCII in every encoding that has no zero bytes).
fn charset_label(bytes: &[u8]) -> Option<&[u8]> {
    let mut i = 0;
    while i + 3 <= bytes.len() {
        let prev_is_letter = i > 0 && bytes[i - 1].is_ascii_uppercase();
        if &bytes[i..i + 3] == b"CA[" && !prev_is_letter {
            let rest = &bytes[i + 3..];
            let end = rest.iter().position(|&b| b == b']')?;
            return Some(rest[..end].trim_ascii());
        }
        i += 1;
    }
    None
}

/// Reads every game of the SGF file `name` from its raw bytes (any encoding, see
/// [`decode`]).
pub fn read(name: &str, bytes: &[u8]) -> Result<Vec<Record>, RecordError> {
    let (text, _) = decode(bytes);
    read_text(name, &text)
}

/// Where the first node past [`MAX_PLIES`] on one line of an SGF text stands (a line: the
/// nodes from a game's root to a leaf, through every `(` on the way), as (line, column)
/// from 1; `None` when every line is within the limit. One pass over the characters, with
/// a stack of the open game trees' depths, before anything is parsed: sgf-parse nests each
/// node inside the one before it, and its drop recurses once a node.
///
/// ```
/// use qiyuan::record::{sgf::line_past_the_limit, MAX_PLIES};
/// let long = format!("(;GM[1]{})", ";".repeat(MAX_PLIES));
/// assert_eq!(line_past_the_limit(&long), Some((1, 7 + MAX_PLIES)));
/// let fits = format!("(;GM[1]C[;;;](;{})(;B[aa]))", ";".repeat(MAX_PLIES - 2));
/// assert_eq!(line_past_the_limit(&fits), None);
/// ```
pub fn line_past_the_limit(text: &str) -> Option<(usize, usize)> {
    let mut depth = 0usize;
    let mut open: Vec<usize> = Vec::new();
    for (line, col, ch, within) in scan(text) {
        if within != Within::Outside {
            continue;
        }
        match ch {
            '(' => open.push(depth),
            ')' => depth = open.pop().unwrap_or(0),
            ';' => {
                depth += 1;
                if depth > MAX_PLIES {
                    return Some((line, col));
                }
            }
            _ => {}
        }
    }
    None
}

/// Where a character of an SGF text stands: outside every property value, or opening,
/// inside or closing one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Within {
    Outside,
    Open,
    Inside,
    Close,
}

/// The characters of an SGF text with their line and column (from 1; a line break ends its
/// line at column 0 of the next) and where they stand: `[` outside a value opens one, `]`
/// not escaped by `\` closes it.
pub(crate) fn scan(text: &str) -> impl Iterator<Item = (usize, usize, char, Within)> + '_ {
    let (mut line, mut col, mut in_value, mut escaped) = (1, 0, false, false);
    text.chars().map(move |ch| {
        if ch == '\n' {
            line += 1;
            col = 0;
        } else {
            col += 1;
        }
        let within = match (in_value, escaped, ch) {
            (false, _, '[') => {
                in_value = true;
                Within::Open
            }
            (false, _, _) => Within::Outside,
            (true, false, '\\') => {
                escaped = true;
                Within::Inside
            }
            (true, false, ']') => {
                in_value = false;
                Within::Close
            }
            (true, _, _) => {
                escaped = false;
                Within::Inside
            }
        };
        (line, col, ch, within)
    })
}

/// Where the syntax of an SGF text first goes wrong, as (line, column) from 1: a value
/// without a property name, a character that may not stand outside a value, or a value or
/// game tree left open (then the place where it opened). sgf-parse says what is wrong but
/// not where; this says where. (1, 1) when the text reads well.
pub(crate) fn syntax_error_place(text: &str) -> (usize, usize) {
    let mut value_at: Option<(usize, usize)> = None;
    let mut named = false; // a property name or a value came just before
    let mut open: Vec<(usize, usize)> = Vec::new();
    for (line, col, ch, within) in scan(text) {
        match within {
            Within::Inside => continue,
            Within::Close => {
                value_at = None;
                continue;
            }
            Within::Open if named => {
                value_at = Some((line, col));
                continue;
            }
            Within::Open => return (line, col),
            Within::Outside => {}
        }
        match ch {
            '(' => {
                open.push((line, col));
                named = false;
            }
            ')' => {
                if open.pop().is_none() {
                    return (line, col);
                }
                named = false;
            }
            ';' => named = false,
            c if c.is_ascii_alphabetic() => named = true,
            c if c.is_whitespace() || c == '\u{feff}' => {}
            _ => return (line, col),
        }
    }
    value_at.or(open.first().copied()).unwrap_or((1, 1))
}

/// Checks, before an SGF text is parsed, that none of its lines (the nodes from a game's
/// root to a leaf, through every `(` on the way) holds more than [`MAX_PLIES`](super::MAX_PLIES) nodes
/// ([`line_past_the_limit`]). A longer line is refused with the
/// `path:line:col` of its first node past the limit.
///
/// ```
/// use qiyuan::record::{sgf, MAX_PLIES, RecordError};
/// let long = format!("(;GM[1]{})", ";".repeat(MAX_PLIES));
/// assert!(matches!(sgf::check_lines("long.sgf", &long), Err(RecordError::TooLong { .. })));
/// let fits = format!("(;GM[1]{})", ";".repeat(MAX_PLIES - 1));
/// assert!(sgf::check_lines("fits.sgf", &fits).is_ok());
/// ```
pub fn check_lines(name: &str, text: &str) -> Result<(), RecordError> {
    match line_past_the_limit(text) {
        Some((line, col)) => Err(RecordError::TooLong {
            place: format!("{name}:{line}:{col}"),
        }),
        None => Ok(()),
    }
}

/// Reads every game of an SGF text.
///
/// A root node written without its `;` (`(PB[…]…;B[pd]…)`, as some Nihon Ki-in files are)
/// is read as if it had one. A text with a line longer than [`MAX_PLIES`](super::MAX_PLIES) nodes is refused
/// before it is parsed ([`check_lines`]); the rest is parsed, read and dropped on a thread
/// whose stack holds a tree that deep.
pub fn read_text(name: &str, text: &str) -> Result<Vec<Record>, RecordError> {
    check_lines(name, text)?;
    super::on_reader_stack(|| read_checked(name, text))
}

/// [`read_text`] once the lines' lengths are checked. A file of several games is parsed a
/// game at a time (each game's tokens and tree dropped before the next is parsed), unless
/// something other than white space stands between its games.
fn read_checked(name: &str, text: &str) -> Result<Vec<Record>, RecordError> {
    let Some(games) = game_texts(text).filter(|games| games.len() > 1) else {
        return read_trees(name, text, text, 1, None);
    };
    let mut out = Vec::with_capacity(games.len());
    for (n, (line, game)) in games.into_iter().enumerate() {
        out.extend(read_trees(name, text, game, line, Some(n + 1))?);
    }
    Ok(out)
}

/// The game trees of an SGF text, each with the line it starts on, when nothing but white
/// space stands between them; `None` otherwise.
fn game_texts(text: &str) -> Option<Vec<(usize, &str)>> {
    let mut out = Vec::new();
    let (mut depth, mut start) = (0usize, (0, 1));
    for ((at, _), (line, _, ch, within)) in text.char_indices().zip(scan(text)) {
        match (within, ch) {
            (Within::Outside, '(') => {
                if depth == 0 {
                    start = (at, line);
                }
                depth += 1;
            }
            (Within::Outside, ')') => {
                depth = depth.checked_sub(1)?;
                if depth == 0 {
                    out.push((start.1, &text[start.0..=at]));
                }
            }
            _ if depth > 0 => {}
            (Within::Outside, c) if c.is_whitespace() || c == '\u{feff}' => {}
            _ => return None,
        }
    }
    (depth == 0).then_some(out)
}

/// Reads the game trees of `text` (all of `whole`, the file, or one game of it, starting on
/// line `first_line`; `game` its number in the file).
fn read_trees(
    name: &str,
    whole: &str,
    text: &str,
    first_line: usize,
    game: Option<usize>,
) -> Result<Vec<Record>, RecordError> {
    let (trees, read) = match sgf_parse::parse(text) {
        Ok(trees) => (trees, std::borrow::Cow::Borrowed(text)),
        Err(e) => {
            let repaired = root_without_semicolon(text)
                .and_then(|t| sgf_parse::parse(&t).ok().map(|trees| (trees, t.into())));
            repaired.ok_or_else(|| {
                let (line, col) = syntax_error_place(whole);
                RecordError::Syntax {
                    place: format!("{name}:{line}:{col}"),
                    detail: e.to_string(),
                }
            })?
        }
    };
    let many = trees.len() > 1;
    let mut first_node = 0;
    let mut out = Vec::new();
    for (n, tree) in trees.into_iter().enumerate() {
        let place = match game {
            Some(g) => format!("{name} (game {g})"),
            None if many => format!("{name} (game {})", n + 1),
            None => name.to_string(),
        };
        let root = tree.into_go_node().map_err(|_| RecordError::Syntax {
            place: place.clone(),
            detail: "not a Go game (GM is not 1)".into(),
        })?;
        let lines = Lines {
            name,
            text: &read,
            first_line,
            root: &root,
            first: first_node,
        };
        first_node += nodes_in_order(&root).count();
        out.push(game_record(&root, &place, &lines)?);
    }
    Ok(out)
}

/// The line of the `index`-th node (`;` outside a value, counted from 0) of an SGF text.
fn node_line(text: &str, index: usize) -> Option<usize> {
    scan(text)
        .filter(|&(_, _, ch, within)| ch == ';' && within == Within::Outside)
        .nth(index)
        .map(|(line, ..)| line)
}

/// The nodes of a tree in the text's order (depth first, children in order), with a stack.
fn nodes_in_order(root: &SgfNode<Prop>) -> impl Iterator<Item = &SgfNode<Prop>> {
    let mut stack = vec![root];
    std::iter::from_fn(move || {
        let node = stack.pop()?;
        let before = stack.len();
        stack.extend(node.children());
        stack[before..].reverse();
        Some(node)
    })
}

/// Where the nodes of a game tree stand in the file: `path:line`, found only when an error
/// needs it (a map of every node would take more memory than the tree).
struct Lines<'a> {
    name: &'a str,
    /// The text as parsed.
    text: &'a str,
    /// The line of the file `text` starts on.
    first_line: usize,
    /// The tree's root.
    root: &'a SgfNode<Prop>,
    /// How many nodes of the file come before the root.
    first: usize,
}

impl<'a> Lines<'a> {
    /// `path:line` of `node`, if known.
    fn at(&self, node: &SgfNode<Prop>) -> Option<String> {
        let index = nodes_in_order(self.root).position(|n| std::ptr::eq(n, node))?;
        let l = node_line(self.text, self.first + index)? + self.first_line - 1;
        Some(format!("{}:{l}", self.name))
    }
}

/// The text with a `;` put after the first `(` when a property follows it directly.
fn root_without_semicolon(text: &str) -> Option<String> {
    let open = text.find('(')?;
    let after = text[open + 1..].trim_start();
    after
        .starts_with(|c: char| c.is_ascii_uppercase())
        .then(|| format!("{};{}", &text[..=open], &text[open + 1..]))
}

fn text_of(p: &sgf_parse::SimpleText) -> Option<String> {
    let t = p.text.trim();
    (!t.is_empty()).then(|| t.to_string())
}

/// A property as written, with its values in a fixed order (sgf-parse keeps lists as sets);
/// `None` for a property whose name is not SGF's (capital letters).
fn as_written(prop: &Prop) -> Option<String> {
    let written = match prop {
        // sgf-parse writes the values of these as they are, unescaped.
        Prop::Unknown(id, values) | Prop::Invalid(id, values) => {
            if id.is_empty() || !id.bytes().all(|b| b.is_ascii_uppercase()) {
                return None;
            }
            let values: String = values.iter().map(|v| format!("[{}]", escape(v))).collect();
            format!("{id}{values}")
        }
        _ => prop.to_string(),
    };
    Some(sorted_values(&written))
}

/// A written property with its values sorted.
fn sorted_values(written: &str) -> String {
    let Some(open) = written.find('[') else {
        return written.to_string();
    };
    let mut values = split_values(&written[open..]);
    if values.len() > 1 {
        values.sort();
    }
    format!("{}{}", &written[..open], values.concat())
}

/// `[a][b\]c]` → `["[a]", "[b\]c]"]`.
fn split_values(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut current = String::new();
    let mut escaped = false;
    for ch in text.chars() {
        current.push(ch);
        match (escaped, ch) {
            (false, '\\') => escaped = true,
            (false, ']') => out.push(std::mem::take(&mut current)),
            _ => escaped = false,
        }
    }
    if !current.is_empty() {
        out.push(current);
    }
    out
}

/// A result as SGF writes it (`B+R`, `W+2.5`, `0`, `B+T`), or `None` when it does not
/// name one this model knows.
fn parse_result(text: &str) -> Option<Finish> {
    let t = text.trim();
    if matches!(t.to_ascii_lowercase().as_str(), "0" | "draw" | "jigo") {
        return Some(Finish {
            winner: None,
            reason: Reason::Count { points: 0.0 },
        });
    }
    let (who, how) = t.split_once('+')?;
    let winner = match who.trim().to_ascii_uppercase().as_str() {
        "B" => Side::First,
        "W" => Side::Second,
        _ => return None,
    };
    let reason = match how.trim().to_ascii_lowercase().as_str() {
        "r" | "resign" => Reason::Resignation,
        "t" | "time" => Reason::Timeout,
        "f" | "forfeit" => Reason::Abandoned,
        n => match n.parse::<f64>() {
            Ok(points) if points.is_finite() && points >= 0.0 => Reason::Count { points },
            _ => return None,
        },
    };
    Some(Finish {
        winner: Some(winner),
        reason,
    })
}

/// The `RE` value of a finish.
///
/// ```
/// use qiyuan::play::{Finish, Reason, Side};
/// use qiyuan::record::sgf::result_text;
/// let w = |winner, reason| Finish { winner, reason };
/// assert_eq!(result_text(&w(Some(Side::First), Reason::Resignation)), "B+R");
/// assert_eq!(result_text(&w(Some(Side::Second), Reason::Count { points: 2.5 })), "W+2.5");
/// assert_eq!(result_text(&w(None, Reason::Count { points: 0.0 })), "0");
/// assert_eq!(result_text(&w(Some(Side::First), Reason::Timeout)), "B+T");
/// ```
pub fn result_text(finish: &Finish) -> String {
    let Some(winner) = finish.winner else {
        return "0".into();
    };
    let who = match winner {
        Side::First => "B",
        Side::Second => "W",
    };
    let how = match finish.reason {
        Reason::Count { points } => format!("{points}"),
        Reason::Resignation => "R".into(),
        Reason::Timeout => "T".into(),
        Reason::Abandoned => "F".into(),
        _ => String::new(),
    };
    format!("{who}+{how}")
}

fn sgf_colour(c: &sgf_parse::Color) -> go::Color {
    match c {
        sgf_parse::Color::Black => go::Color::Black,
        sgf_parse::Color::White => go::Color::White,
    }
}

/// One game tree into a record.
fn game_record(root: &SgfNode<Prop>, place: &str, lines: &Lines) -> Result<Record, RecordError> {
    let bad = |detail: String| RecordError::BadStart {
        place: place.to_string(),
        detail,
    };
    let size = match root.get_property("SZ") {
        Some(Prop::SZ((w, h))) if w == h => *w,
        Some(Prop::SZ((w, h))) => return Err(bad(format!("the board is {w}×{h}, not square"))),
        Some(Prop::Invalid(_, values) | Prop::Unknown(_, values)) => {
            return Err(RecordError::BadStart {
                place: lines.at(root).unwrap_or_else(|| place.to_string()),
                detail: format!(
                    "SZ[{}] is not a board size (a whole number from {} to {})",
                    values.join("]["),
                    go::MIN_SIZE,
                    go::MAX_SIZE
                ),
            })
        }
        _ => 19,
    };
    go::Board::new(size).map_err(|e| bad(e.to_string()))?;
    let mut tags = Tags::default();
    let mut root_markup = Vec::new();
    let (mut black, mut white) = (Vec::new(), Vec::new());
    let (mut komi, mut handicap, mut rules, mut pl) = (None, 0u8, None, None);
    for prop in root.properties() {
        match prop {
            Prop::GM(_) | Prop::FF(_) | Prop::CA(_) | Prop::AP(_) | Prop::SZ(_) => {}
            Prop::B(_) | Prop::W(_) | Prop::C(_) => {}
            Prop::KM(k) if k.is_finite() => komi = Some(*k),
            Prop::HA(n) => handicap = u8::try_from(*n).unwrap_or(0),
            Prop::PL(c) => pl = Some(sgf_colour(c)),
            Prop::PB(t) => tags.first_player = text_of(t),
            Prop::PW(t) => tags.second_player = text_of(t),
            Prop::EV(t) => tags.event = text_of(t),
            Prop::DT(t) => tags.date = text_of(t),
            Prop::RE(t) if parse_result(&t.text).is_some() => tags.result = parse_result(&t.text),
            Prop::RU(t) if go::Scoring::parse(&t.text).is_some() => {
                rules = go::Scoring::parse(&t.text)
            }
            Prop::AB(points) | Prop::AW(points) => {
                let into = if matches!(prop, Prop::AB(_)) {
                    &mut black
                } else {
                    &mut white
                };
                for p in points {
                    if p.x >= size || p.y >= size {
                        return Err(bad(format!(
                            "a stone at ({}, {}) is off the board",
                            p.x, p.y
                        )));
                    }
                    into.push(go::Point::new(p.x, p.y));
                }
            }
            Prop::AE(_) => {}
            // Which program wrote the file: ours writes its own.
            Prop::Invalid(id, _) | Prop::Unknown(id, _) if id == "AP" => {}
            other => root_markup.extend(as_written(other)),
        }
    }
    let komi = komi.unwrap_or(0.0);
    let rules = rules.unwrap_or(if komi == 6.5 {
        go::Scoring::Japanese
    } else {
        go::Scoring::Chinese
    });
    black.sort();
    black.dedup();
    white.sort();
    white.dedup();
    let first_colour = first_move_colour(root);
    let usual = go::handicap_points(size, handicap)
        .map(|mut points| {
            points.sort();
            points
        })
        .ok();
    let is_handicap = handicap >= 2
        && white.is_empty()
        && usual.as_ref() == Some(&black)
        && pl.or(first_colour) != Some(go::Color::Black);
    let no_stones = black.is_empty() && white.is_empty();
    let setup = (!is_handicap && !no_stones).then(|| GoSetup {
        black: black.iter().map(|p| p.name(size)).collect(),
        white: white.iter().map(|p| p.name(size)).collect(),
        to_play: match pl.or(first_colour) {
            Some(go::Color::White) => Side::Second,
            _ => Side::First,
        },
    });
    let start = Start::Go(crate::base::go::Start {
        size,
        handicap: if is_handicap { handicap } else { 0 },
        rules,
        komi,
    });
    let mut record = Record {
        comment: String::new(),
        root_markup,
        tags,
        notes: Vec::new(),
        moves: Vec::new(),
        setup,
        start,
    };
    let bad = |detail: String| RecordError::BadStart {
        place: place.to_string(),
        detail,
    };
    let board = match &record.setup {
        Some(setup) => setup_position(&record.start, setup).map_err(bad)?,
        None => <go::Position as GamePosition>::from_start(&record.start)
            .map_err(|e| bad(e.to_string()))?,
    };
    let mut reader = Reader {
        place,
        lines,
        size,
        notes: Vec::new(),
        comment: String::new(),
    };
    record.moves = reader.line(root, board, 1, 0)?;
    record.comment = reader.comment;
    record.notes = reader.notes;
    Ok(record)
}

/// Whether a node below the root adds or removes stones (`AB`, `AW`, `AE`).
fn sets_up_stones(node: &SgfNode<Prop>) -> bool {
    !node.is_root
        && node
            .properties()
            .any(|p| matches!(p, Prop::AB(_) | Prop::AW(_) | Prop::AE(_)))
}

/// The colour of the first move of the main line.
fn first_move_colour(root: &SgfNode<Prop>) -> Option<go::Color> {
    root.main_variation().find_map(|n| {
        n.properties().find_map(|p| match p {
            Prop::B(_) => Some(go::Color::Black),
            Prop::W(_) => Some(go::Color::White),
            _ => None,
        })
    })
}

struct Reader<'a> {
    place: &'a str,
    lines: &'a Lines<'a>,
    size: u8,
    notes: Vec<String>,
    /// The comment before the first move.
    comment: String,
}

impl Reader<'_> {
    /// The line starting at `node` (the root, or the first node of a variation), played
    /// from `board`; `ply` is the first move's number from the start.
    fn line(
        &mut self,
        node: &SgfNode<Prop>,
        mut board: go::Position,
        mut ply: usize,
        depth: usize,
    ) -> Result<Vec<Step>, RecordError> {
        within_nesting(depth, self.place)?;
        let mut line: Vec<Step> = Vec::new();
        let mut waiting: Vec<Vec<Step>> = Vec::new();
        let mut node = node;
        loop {
            let mv = node.properties().find_map(|p| match p {
                Prop::B(m) => Some((go::Color::Black, m)),
                Prop::W(m) => Some((go::Color::White, m)),
                _ => None,
            });
            let comment = node
                .properties()
                .filter_map(|p| match p {
                    Prop::C(t) => Some(t.text.trim().to_string()),
                    _ => None,
                })
                .collect::<Vec<_>>()
                .join("\n");
            if let Some((colour, m)) = mv {
                if colour != board.turn() {
                    board = board
                        .play_move(go::Move::Pass)
                        .map_err(|e| self.illegal(node, ply, "pass", &e))?;
                    line.push(Step::new("pass"));
                    self.notes.push(format!(
                        "{}, ply {ply}: {} played twice in a row; a pass was put between",
                        self.place,
                        colour.as_str()
                    ));
                    ply += 1;
                }
                let mv = self.to_move(node, m, ply)?;
                let name = mv.name(self.size);
                board = board
                    .play_move(mv)
                    .map_err(|e| self.illegal(node, ply, &name, &e))?;
                let mut step = Step::new(name);
                step.comment = comment;
                // The root's other properties are the record's (`root_markup`).
                if !node.is_root {
                    step.markup = node
                        .properties()
                        .filter(|p| !matches!(p, Prop::B(_) | Prop::W(_) | Prop::C(_)))
                        .filter_map(as_written)
                        .collect();
                }
                step.variations = std::mem::take(&mut waiting);
                line.push(step);
                ply += 1;
            } else if !comment.is_empty() {
                match line.last_mut() {
                    Some(last) if !last.comment.is_empty() => {
                        last.comment = format!("{}\n{comment}", last.comment)
                    }
                    Some(last) => last.comment = comment,
                    None if depth == 0 => self.comment = comment,
                    None => {}
                }
            }
            let children: Vec<&SgfNode<Prop>> = node.children().collect();
            let Some((first, others)) = children.split_first() else {
                break;
            };
            for other in others {
                if sets_up_stones(other) {
                    self.notes.push(format!(
                        "{}, ply {ply}: a variation adds or removes stones (AB/AW/AE) in the middle of the game; left out",
                        self.place
                    ));
                    continue;
                }
                let v = self.line(other, board.clone(), ply, depth + 1)?;
                if !v.is_empty() {
                    waiting.push(v);
                }
            }
            if sets_up_stones(first) {
                self.notes.push(format!(
                    "{}, ply {ply}: the line goes on with stones added or removed (AB/AW/AE) in the middle of the game; it stops there",
                    self.place
                ));
                break;
            }
            node = first;
        }
        if !waiting.is_empty() {
            self.notes.push(format!(
                "{}, ply {ply}: variations after the line's last move have no move to stand beside; left out",
                self.place
            ));
        }
        // A line is kept as long as the record is: no room for moves that will not come.
        line.shrink_to_fit();
        Ok(line)
    }

    /// Where `node` is: `path:line, ply N`, or the game and ply when the line is unknown.
    fn place_of(&self, node: &SgfNode<Prop>, ply: usize) -> String {
        match self.lines.at(node) {
            Some(at) => format!("{at}, ply {ply}"),
            None => format!("{}, ply {ply}", self.place),
        }
    }

    fn to_move(
        &self,
        node: &SgfNode<Prop>,
        m: &SgfMove,
        ply: usize,
    ) -> Result<go::Move, RecordError> {
        let size = self.size;
        match m {
            SgfMove::Pass => Ok(go::Move::Pass),
            SgfMove::Move(p) if size <= 19 && p.x == 19 && p.y == 19 => Ok(go::Move::Pass),
            SgfMove::Move(p) if p.x < size && p.y < size => {
                Ok(go::Move::Play(go::Point::new(p.x, p.y)))
            }
            SgfMove::Move(p) => Err(RecordError::Illegal {
                place: self.place_of(node, ply),
                mv: format!("({}, {})", p.x, p.y),
                reason: format!("the point is off the {size}×{size} board"),
            }),
        }
    }

    fn illegal(&self, node: &SgfNode<Prop>, ply: usize, mv: &str, e: &go::Illegal) -> RecordError {
        RecordError::Illegal {
            place: self.place_of(node, ply),
            mv: mv.to_string(),
            reason: e.explain(crate::lang::Lang::En),
        }
    }
}

/// An SGF text value with `\` and `]` escaped.
pub(crate) fn escape(s: &str) -> String {
    s.replace('\\', "\\\\").replace(']', "\\]")
}

/// Writes a Go record as SGF FF4 in UTF-8 (`CA[UTF-8]`): the start (`SZ`, `KM`, `RU`, `HA`
/// with its `AB`, or the set-up stones and `PL`), the tags, every variation and comment,
/// and the markup as it was read.
pub fn write(record: &Record) -> Result<String, RecordError> {
    let Start::Go(crate::base::go::Start {
        size,
        handicap,
        rules,
        komi,
    }) = &record.start
    else {
        return Err(RecordError::WrongGame {
            format: SGF,
            game: record.start.game(),
        });
    };
    let size = *size;
    let kept = |id: &str| {
        record
            .root_markup
            .iter()
            .any(|m| m.strip_prefix(id).is_some_and(|r| r.starts_with('[')))
    };
    let mut out = format!(
        "(;GM[1]FF[4]CA[UTF-8]AP[qiyuan:{}]SZ[{size}]KM[{komi}]",
        env!("CARGO_PKG_VERSION")
    );
    if !kept("RU") {
        out.push_str(match rules {
            go::Scoring::Chinese => "RU[Chinese]",
            go::Scoring::Japanese => "RU[Japanese]",
        });
    }
    let point = |name: &String| -> Result<String, RecordError> {
        go::Point::parse(name, size)
            .map(|p| format!("[{}]", p.sgf()))
            .map_err(|e| RecordError::BadStart {
                place: "record".into(),
                detail: e.to_string(),
            })
    };
    if let Some(setup) = &record.setup {
        for (id, stones) in [("AB", &setup.black), ("AW", &setup.white)] {
            if !stones.is_empty() {
                out.push_str(id);
                for s in stones {
                    out.push_str(&point(s)?);
                }
            }
        }
        out.push_str(match setup.to_play {
            Side::First => "PL[B]",
            Side::Second => "PL[W]",
        });
    } else if *handicap >= 2 {
        let points = go::handicap_points(size, *handicap).map_err(|e| RecordError::BadStart {
            place: "record".into(),
            detail: e.to_string(),
        })?;
        out.push_str(&format!("HA[{handicap}]AB"));
        for p in points {
            out.push_str(&format!("[{}]", p.sgf()));
        }
    }
    let tags = &record.tags;
    for (id, value) in [
        ("PB", &tags.first_player),
        ("PW", &tags.second_player),
        ("EV", &tags.event),
        ("DT", &tags.date),
    ] {
        if let Some(v) = value {
            out.push_str(&format!("{id}[{}]", escape(v)));
        }
    }
    if let Some(finish) = &tags.result {
        if !kept("RE") {
            out.push_str(&format!("RE[{}]", result_text(finish)));
        }
    }
    for m in &record.root_markup {
        out.push_str(m);
    }
    if !record.comment.is_empty() {
        out.push_str(&format!("C[{}]", escape(&record.comment)));
    }
    let first = match record.first_to_move() {
        Side::First => 'B',
        Side::Second => 'W',
    };
    write_line(&record.moves, first, size, &mut out)?;
    out.push_str(")\n");
    Ok(out)
}

fn other(colour: char) -> char {
    if colour == 'B' {
        'W'
    } else {
        'B'
    }
}

/// What is left to write of a tree: a line (its first move by the colour), or text.
enum Pending<'a> {
    Line(&'a [Step], char),
    Text(&'static str),
}

/// Writes `line` (its first move by `colour`) as a sequence of nodes, branching where a
/// step has variations: the rest of the line in parentheses, then each variation. Iterative
/// (a stack of what is left), so a line of many branching steps takes no stack.
fn write_line(line: &[Step], colour: char, size: u8, out: &mut String) -> Result<(), RecordError> {
    let mut pending = vec![Pending::Line(line, colour)];
    while let Some(next) = pending.pop() {
        let (line, mut colour) = match next {
            Pending::Text(text) => {
                out.push_str(text);
                continue;
            }
            Pending::Line(line, colour) => (line, colour),
        };
        for (i, step) in line.iter().enumerate() {
            if step.variations.is_empty() {
                write_node(step, colour, size, out)?;
                colour = other(colour);
                continue;
            }
            out.push_str("\n(");
            write_node(step, colour, size, out)?;
            for v in step.variations.iter().rev() {
                pending.push(Pending::Text(")"));
                pending.push(Pending::Line(v, colour));
                pending.push(Pending::Text("\n("));
            }
            pending.push(Pending::Text(")"));
            pending.push(Pending::Line(&line[i + 1..], other(colour)));
            break;
        }
    }
    Ok(())
}

/// Writes a move's node: `;`, the move (`B[pd]`, `W[]` for a pass) and its comment (`C[…]`,
/// escaped), if it has one.
pub(crate) fn write_move(colour: char, mv: go::Move, comment: &str, out: &mut String) {
    out.push(';');
    out.push(colour);
    out.push('[');
    if let go::Move::Play(p) = mv {
        out.push_str(&p.sgf());
    }
    out.push(']');
    if !comment.is_empty() {
        out.push_str(&format!("C[{}]", escape(comment)));
    }
}

fn write_node(step: &Step, colour: char, size: u8, out: &mut String) -> Result<(), RecordError> {
    let mv = go::Move::parse(&step.mv, size).map_err(|e| RecordError::Illegal {
        place: "record".into(),
        mv: step.mv.clone(),
        reason: e.to_string(),
    })?;
    write_move(colour, mv, &step.comment, out);
    for m in &step.markup {
        out.push_str(m);
    }
    Ok(())
}

/// The position of a Go `start` with `setup`'s stones (SGF `AB`, `AW`, `PL`) on an empty
/// board, or why there is none.
pub(crate) fn setup_position(start: &Start, setup: &GoSetup) -> Result<go::Position, String> {
    let Start::Go(crate::base::go::Start { size, .. }) = *start else {
        return Err("stones are set up only on a Go board".into());
    };
    let mut board = go::Board::new(size).map_err(|e| e.to_string())?;
    for (names, colour) in [
        (&setup.black, go::Color::Black),
        (&setup.white, go::Color::White),
    ] {
        for name in names {
            let p = go::Point::parse(name, size).map_err(|e| e.to_string())?;
            board.set(p, Some(colour));
        }
    }
    let to_play = match setup.to_play {
        Side::First => go::Color::Black,
        Side::Second => go::Color::White,
    };
    Ok(go::Position::new(board, to_play))
}

/// SGF: Go records, many games a file.
/// SGF, Go's record format.
pub const SGF: super::Format = super::Format::new(&FORMAT);

static FORMAT: super::FormatKind = super::FormatKind {
    game: crate::base::Game::Go,
    name: "SGF",
    extensions: &["sgf"],
    mime: "application/x-go-sgf; charset=utf-8",
    many_games: Some(""),
    claims: |_| true,
    read: |name, bytes, _| read(name, bytes),
    write: |record, _| write(record),
    summarize: |bytes| super::library::sgf_summaries(&decode(bytes).0),
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_results_as_sgf_writes_them() {
        for text in ["B+R", "W+2.5", "0", "B+T", "W+F", "B+0.5"] {
            let finish = parse_result(text).unwrap();
            assert_eq!(result_text(&finish), text);
        }
        assert_eq!(parse_result("Void"), None);
        assert_eq!(parse_result("B+"), None);
        assert_eq!(
            parse_result("W+Resign").map(|f| f.reason),
            Some(Reason::Resignation)
        );
    }

    #[test]
    fn a_side_playing_twice_gets_a_pass_between() {
        let got = read_text("t.sgf", "(;SZ[9];B[ee];B[cc])").unwrap();
        assert_eq!(got[0].main_line(), ["E5", "pass", "C7"]);
        assert_eq!(got[0].notes.len(), 1);
    }

    #[test]
    fn an_illegal_move_is_refused_with_its_ply_and_reason() {
        //   A B C
        // 9 . X .   White's second stone on B9's point
        let err = read_text(
            "t.sgf",
            "(;SZ[9];B[ba];W[ca]\n(;B[da])\n(;C[a;b]B[aa];W[ba]))",
        )
        .unwrap_err();
        let text = err.to_string();
        assert!(
            text.starts_with("t.sgf:3, ply 4: illegal move B9"),
            "{text}"
        );
    }

    #[test]
    fn games_read_one_at_a_time_keep_their_places_in_the_file() {
        let text = "(;SZ[9];B[ee])\n\n  (;SZ[9]\n;B[cc]\n;W[cc])";
        assert_eq!(game_texts(text).unwrap().len(), 2);
        let err = read_text("t.sgf", text).unwrap_err().to_string();
        assert!(err.starts_with("t.sgf:5, ply 2: illegal move C7"), "{err}");
        let got = read_text("t.sgf", "(;SZ[9];B[ee])(;SZ[9];B[cc])").unwrap();
        assert_eq!(got.len(), 2);
        assert_eq!(got[1].main_line(), ["C7"]);
        // Something between the games: the file is parsed whole, as sgf-parse sees it.
        assert_eq!(game_texts("(;B[aa]) x (;B[bb])"), None);
        let err = read_text("t.sgf", "(;SZ[9];B[ee])\n(;SZ[9];B[cc]\nX[").unwrap_err();
        assert!(err.to_string().starts_with("t.sgf:3:2"), "{err}");
    }

    #[test]
    fn handicap_stones_on_the_usual_points_are_a_handicap_start() {
        let got = read_text("h.sgf", "(;SZ[9]HA[2]AB[gc][cg];W[ee])").unwrap();
        assert!(matches!(
            got[0].start,
            Start::Go(crate::base::go::Start { handicap: 2, .. })
        ));
        assert_eq!(got[0].setup, None);
        let text = write(&got[0]).unwrap();
        assert!(
            text.contains("HA[2]AB[") && text.contains(";W[ee]"),
            "{text}"
        );
        let odd = read_text("o.sgf", "(;SZ[9]AB[aa]AW[bb];W[ee])").unwrap();
        assert_eq!(odd[0].setup.as_ref().unwrap().to_play, Side::Second);
        assert_eq!(odd[0].setup.as_ref().unwrap().black, ["A9"]);
    }

    #[test]
    fn a_move_in_the_root_keeps_the_roots_properties_once() {
        let got = read_text("r.sgf", "(;SZ[9]GN[root]B[ee]TR[aa];W[cc]TR[bb])").unwrap();
        assert_eq!(got[0].main_line(), ["E5", "C7"]);
        assert!(got[0].moves[0].markup.is_empty());
        assert_eq!(got[0].moves[1].markup, ["TR[bb]"]);
        let text = write(&got[0]).unwrap();
        assert_eq!(text.matches("GN[root]").count(), 1, "{text}");
        assert_eq!(
            read_text("again.sgf", &text).unwrap()[0].moves,
            got[0].moves
        );
    }

    #[test]
    fn splits_values_at_unescaped_brackets() {
        assert_eq!(split_values("[a][b\\]c]"), ["[a]", "[b\\]c]"]);
    }
}
