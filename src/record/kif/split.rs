//! Shogi records in KIF, KI2 and CSA, in UTF-8 or Shift_JIS, read by rsshogi's readers
//! with their variations, every line replayed through our engine: what both the game
//! records (KI2 and CSA in [`super`]) and the problem importer (`qiyuan import kif`) read.
//!
//! A file's format comes from its extension (`.kif`/`.kifu`, `.ki2`/`.ki2u`, `.csa`), else
//! from its contents. Its encoding is UTF-8 if the bytes are valid UTF-8, else Shift_JIS.
//! rsshogi's readers parse the moves (they decode Shift_JIS themselves, from bytes); but
//! they stop at the `まで…` summary line and at a main line's last move such as `投了`, so
//! they drop the `変化：N手` blocks that follow them, which is where Kifu for Windows and
//! most programs write variations. So this module splits the record itself: the main part
//! (everything before the first `変化` line) is read as it is, and each variation is read as
//! a record of its own, made of the header, the moves before ply N of the line it branches
//! from (the most recent line reaching ply N, as KIF has it), and the block's moves. The
//! splitting works on the raw text in either encoding: Shift_JIS is viewed as characters
//! through a lossless mapping, and only the few marks the splitting looks for (`変化`,
//! `まで`, `▲`, `△`, full-width digits and space) are compared. CSA files may hold several
//! games separated by `/`; CSA has no variations.
//!
//! Every move of the main line and of each variation is played through our engine
//! (`rules::shogi`), from the record's start position (an SFEN: 平手, a handicap, or a board
//! diagram). A main line the engine refuses makes the record an error; a refused variation
//! is left out with a note.
//!
//! ```
//! use qiyuan::record::kif::split;
//! let text = "手合割：平手\n手数----指手---------消費時間--\n   1 ７六歩(77)\n   2 ３四歩(33)\n   3 投了\nまで2手で後手の勝ち\n\n変化：1手\n   1 ２六歩(27)\n   2 ８四歩(83)\n";
//! let games = split::read("game.kif", text.as_bytes()).unwrap();
//! assert_eq!(games[0].main, ["7g7f", "3c3d"]);
//! assert_eq!(games[0].variations[0].line, ["2g2f", "8c8d"]);
//! ```

use crate::base::Game;
use crate::lang::Lang;
use crate::record::{Format, MAX_MOVES, MAX_PLIES};
use crate::rules::shogi::Position;
use rsshogi::records::formats::{csa, kif};
use rsshogi::records::Record;

/// A text encoding of record files.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Encoding {
    /// UTF-8.
    Utf8,
    /// Shift_JIS (Windows-31J), the encoding of older KIF files.
    ShiftJis,
}

impl Encoding {
    /// UTF-8 if `bytes` are valid UTF-8, else Shift_JIS.
    pub fn detect(bytes: &[u8]) -> Encoding {
        if std::str::from_utf8(bytes).is_ok() {
            Encoding::Utf8
        } else {
            Encoding::ShiftJis
        }
    }
}

/// A variation of a game: it leaves the line it branches from at ply `from` (counted from 1).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Variation {
    /// The ply at which it differs, from 1.
    pub from: usize,
    /// The whole line from the start position, in USI.
    pub line: Vec<String>,
}

/// One game of a record file, every line replayed through the engine.
#[derive(Clone, Debug)]
pub struct RecordGame {
    /// The file's format.
    pub format: Format,
    /// The file's encoding.
    pub encoding: Encoding,
    /// The start position, in SFEN.
    pub start: String,
    /// The main line, in USI.
    pub main: Vec<String>,
    /// The variations the engine accepts, in the file's order.
    pub variations: Vec<Variation>,
    /// The players, the event and the date, when the record gives them.
    pub about: Vec<String>,
    /// What was left out (a variation that cannot be read or played).
    pub notes: Vec<String>,
}

/// Where the record file `name` (its extension gives the format, else its text) first goes
/// past [`MAX_PLIES`] moves on one line (CSA: a game; KIF and KI2: the main line or a
/// `変化` block with the moves before it), as `path:line:col`; `None` when no line does.
/// Counted on the text before any move is parsed: rsshogi's position panics past 65,535
/// plies, and our replays would take time growing with the square of a line's length.
pub fn past_the_limit(name: &str, bytes: &[u8]) -> Option<String> {
    let view = View::decode(Encoding::detect(bytes), bytes);
    let format = format_of(name, &view);
    // KIF and KI2 moves as the splitting reads them; a CSA line (whose moves no KIF or KI2
    // line is mistaken for) holds statements separated by commas, `+7776FU` a move.
    let split = Split::new(&view, format);
    let csa_moves = |t: &str| {
        t.split(',')
            .filter(|s| {
                let s = s.trim();
                (s.starts_with('+') || s.starts_with('-'))
                    && s[1..].starts_with(|c: char| c.is_ascii_digit())
            })
            .count()
    };
    let henka = view.mark("変化");
    let mut plies = 0usize;
    for (n, line) in view.text.lines().enumerate() {
        let t = view.trim(line);
        if t.starts_with('/') {
            // The next game of a CSA file.
            plies = 0;
        } else if let Some(rest) = t.strip_prefix(henka.as_str()) {
            // A variation: the moves before its first, then its own.
            plies = view.number(rest).saturating_sub(1);
        } else {
            plies += csa_moves(t) + split.moves(std::slice::from_ref(&line)).len();
        }
        if plies > MAX_PLIES {
            return Some(format!("{name}:{}:1", n + 1));
        }
    }
    None
}

/// Reads every game of the record file `name` (its extension gives the format) from its
/// raw `bytes`. A line longer than [`MAX_PLIES`] moves is refused before anything is
/// parsed ([`past_the_limit`]), and variations replaying more than [`MAX_MOVES`] plies
/// together are left out with a note.
pub fn read(name: &str, bytes: &[u8]) -> Result<Vec<RecordGame>, String> {
    if let Some(place) = past_the_limit(name, bytes) {
        return Err(format!(
            "{place}: a line goes on past {MAX_PLIES} moves; longer records are not read"
        ));
    }
    let encoding = Encoding::detect(bytes);
    let view = View::decode(encoding, bytes);
    let format = format_of(name, &view);
    let mut games = Vec::new();
    if format == super::CSA {
        let records = guarded(format, || {
            csa::parse_csa_games_bytes(bytes).map_err(|e| format!("CSA: {e}"))
        })?;
        for record in records {
            games.push(main_game(format, encoding, &record)?);
        }
        return Ok(games);
    }
    let split = Split::new(&view, format);
    let main_text = view.encode(&split.main.join("\n"));
    let record = parse(format, &main_text)?;
    let mut game = main_game(format, encoding, &record)?;
    let mut active = split.moves(&split.main[split.header..]);
    let mut replayed = 0usize;
    for (from, block) in &split.blocks {
        let from = *from;
        replayed = replayed.saturating_add(from + block.len());
        if replayed > MAX_MOVES {
            game.notes.push(format!(
                "variations from ply {from} on left out: together they replay more than {MAX_MOVES} plies"
            ));
            break;
        }
        if from == 0 || from > active.len() + 1 {
            game.notes.push(format!(
                "variation at ply {from} left out: the line it would branch from has {} plies",
                active.len()
            ));
            continue;
        }
        active.truncate(from - 1);
        let mut text: Vec<&str> = split.main[..split.header].to_vec();
        text.extend(active.iter().map(String::as_str));
        text.extend(block.iter().copied());
        let record = match parse(format, &view.encode(&text.join("\n"))) {
            Ok(r) => r,
            Err(e) => {
                game.notes
                    .push(format!("variation at ply {from} left out: {e}"));
                active.extend(split.moves(block));
                continue;
            }
        };
        active.extend(split.moves(block));
        let (_, line) = lines_of(&record);
        if line.len() < from {
            game.notes.push(format!(
                "variation at ply {from} left out: it has no move of its own"
            ));
            continue;
        }
        match replay(&game.start, &line) {
            Ok(()) => game.variations.push(Variation { from, line }),
            Err(e) => game
                .notes
                .push(format!("variation at ply {from} left out: {e}")),
        }
    }
    games.push(game);
    Ok(games)
}

/// The game of rsshogi's `record`, its main line replayed (an illegal one is an error), with
/// no variations yet.
fn main_game(format: Format, encoding: Encoding, record: &Record) -> Result<RecordGame, String> {
    let (start, main) = lines_of(record);
    replay(&start, &main).map_err(|e| format!("main line: {e}"))?;
    Ok(RecordGame {
        format,
        encoding,
        start,
        main,
        variations: Vec::new(),
        about: about(record),
        notes: Vec::new(),
    })
}

/// Plays `line` from `start` through our engine (in place: a position copied at every
/// move would copy its whole history each time).
pub fn replay(start: &str, line: &[String]) -> Result<(), String> {
    let mut pos = Position::from_sfen(start).map_err(|e| format!("start position: {e}"))?;
    for (i, mv) in line.iter().enumerate() {
        pos.play_in_place(mv)
            .map_err(|e| format!("ply {} ({mv}) is illegal: {}", i + 1, e.explain(Lang::En)))?;
    }
    Ok(())
}

/// Runs one of rsshogi's readers: a panic is a refusal. rsshogi 1.7.3's KI2 reader panics
/// on some variations whose move it cannot resolve (`apply_move32 expects a legal move`,
/// found by tests/fuzz.rs), and its position past 65,535 plies (`CounterOverflow`).
pub(super) fn guarded<T>(
    format: Format,
    read: impl FnOnce() -> Result<T, String>,
) -> Result<T, String> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(read)).unwrap_or_else(|_| {
        Err(format!(
            "{}: the record's moves cannot be resolved (the reader stopped)",
            format.as_str()
        ))
    })
}

fn parse(format: Format, bytes: &[u8]) -> Result<Record, String> {
    guarded(format, || match format {
        f if f == super::KIF => kif::parse_kif_bytes(bytes).map_err(|e| format!("KIF: {e}")),
        f if f == super::KI2 => kif::parse_ki2_bytes(bytes).map_err(|e| format!("KI2: {e}")),
        f if f == super::CSA => csa::parse_csa_bytes(bytes).map_err(|e| format!("CSA: {e}")),
        _ => Err(format!("{}: not a shogi record", format.as_str())),
    })
}

/// The start SFEN and the main line in USI.
fn lines_of(record: &Record) -> (String, Vec<String>) {
    let main = record.main_moves().map(|m| m.mv().to_usi()).collect();
    (record.init_position_sfen().to_string(), main)
}

/// Players, event and date, for the source comment.
fn about(record: &Record) -> Vec<String> {
    let m = record.metadata();
    let mut out = Vec::new();
    for (label, value) in [
        ("black", m.black_player()),
        ("white", m.white_player()),
        ("event", m.event()),
        ("date", m.start_date()),
    ] {
        if let Some(v) = value.map(str::trim).filter(|v| !v.is_empty()) {
            out.push(format!("{label} {v}"));
        }
    }
    out
}

/// The format of the shogi record file `name`: its extension's (`.kif`/`.kifu`,
/// `.ki2`/`.ki2u`, `.csa`), else its text's.
fn format_of(name: &str, view: &View) -> Format {
    Format::from_name(name)
        .filter(|f| f.game() == Game::Shogi)
        .unwrap_or_else(|| sniff(view))
}

/// The format of a file without a known extension, from its text.
fn sniff(view: &View) -> Format {
    let mut kif_like = false;
    for line in view.text.lines() {
        let t = view.trim(line);
        let csa_move = t.len() >= 7
            && (t.starts_with('+') || t.starts_with('-'))
            && t[1..5].bytes().all(|b| b.is_ascii_digit());
        if t.starts_with("V2") || t.starts_with("PI") || t.starts_with("P1") || csa_move {
            return super::CSA;
        }
        if t.starts_with(&view.mark("手数")) || t.starts_with(|c: char| c.is_ascii_digit()) {
            kif_like = true;
        }
    }
    if kif_like {
        super::KIF
    } else {
        super::KI2
    }
}

/// A record's text split into its main part and its `変化` blocks.
struct Split<'a> {
    view: &'a View,
    format: Format,
    /// The lines before the first `変化` line.
    main: Vec<&'a str>,
    /// How many lines of `main` come before the first move.
    header: usize,
    /// Each `変化：N手` block: N and its lines.
    blocks: Vec<(usize, Vec<&'a str>)>,
}

impl<'a> Split<'a> {
    fn new(view: &'a View, format: Format) -> Split<'a> {
        let henka = view.mark("変化");
        let made = view.mark("まで");
        let mut main = Vec::new();
        let mut blocks: Vec<(usize, Vec<&str>)> = Vec::new();
        for line in view.text.lines() {
            let t = view.trim(line);
            if t.starts_with(&henka) {
                blocks.push((view.number(&t[henka.len()..]), Vec::new()));
            } else if let Some((_, block)) = blocks.last_mut() {
                if !t.is_empty() && !t.starts_with(&made) {
                    block.push(line);
                }
            } else {
                main.push(line);
            }
        }
        let mut split = Split {
            view,
            format,
            main,
            header: 0,
            blocks,
        };
        split.header = split
            .main
            .iter()
            .position(|l| {
                let t = view.trim(l);
                t.starts_with(&made) || split.is_move_line(t)
            })
            .unwrap_or(split.main.len());
        split
    }

    fn is_move_line(&self, t: &str) -> bool {
        match self.format {
            f if f == super::KIF => t.starts_with(|c: char| c.is_ascii_digit()),
            _ => self
                .view
                .ki2_marks()
                .iter()
                .any(|m| t.starts_with(m.as_str())),
        }
    }

    /// The moves of `lines`, one entry a move: a KIF move line, or a KI2 move such as
    /// `▲同　歩`.
    fn moves(&self, lines: &[&str]) -> Vec<String> {
        let mut out = Vec::new();
        let marks = self.view.ki2_marks();
        for line in lines {
            let t = self.view.trim(line);
            if !self.is_move_line(t) {
                continue;
            }
            if self.format == super::KIF {
                out.push(t.to_string());
                continue;
            }
            let mut starts: Vec<usize> = Vec::new();
            for (i, _) in t.char_indices() {
                if marks.iter().any(|m| t[i..].starts_with(m.as_str())) {
                    starts.push(i);
                }
            }
            starts.push(t.len());
            for w in starts.windows(2) {
                let mv = self.view.trim(&t[w[0]..w[1]]);
                if !mv.is_empty() {
                    out.push(mv.to_string());
                }
            }
        }
        out
    }
}

/// A record's text as characters: UTF-8 as it is; Shift_JIS mapped losslessly, each
/// two-byte character to one private-use character (U+F0000 + its code) and each other
/// byte above 0x7F to U+F0000 + the byte, so that it can be split into lines and moves and
/// turned back into the same bytes.
struct View {
    encoding: Encoding,
    text: String,
}

/// The Shift_JIS codes of the characters the splitting looks for.
const SJIS: [(char, u16); 10] = [
    ('変', 0x95CF),
    ('化', 0x89BB),
    ('ま', 0x82DC),
    ('で', 0x82C5),
    ('手', 0x8EE8),
    ('数', 0x9094),
    ('▲', 0x81A3),
    ('△', 0x81A2),
    ('▼', 0x81A5),
    ('▽', 0x81A4),
];

const PRIVATE: u32 = 0xF0000;

impl View {
    fn decode(encoding: Encoding, bytes: &[u8]) -> View {
        let text = match encoding {
            Encoding::Utf8 => String::from_utf8_lossy(bytes).into_owned(),
            Encoding::ShiftJis => {
                let mut text = String::with_capacity(bytes.len());
                let mut i = 0;
                while i < bytes.len() {
                    let b = bytes[i];
                    let lead = matches!(b, 0x81..=0x9F | 0xE0..=0xFC);
                    let trail = bytes
                        .get(i + 1)
                        .filter(|&&t| matches!(t, 0x40..=0x7E | 0x80..=0xFC));
                    let (code, len) = match (b, lead, trail) {
                        (0..=0x7F, _, _) => (u32::from(b), 1),
                        (_, true, Some(&t)) => (PRIVATE + (u32::from(b) << 8 | u32::from(t)), 2),
                        _ => (PRIVATE + u32::from(b), 1),
                    };
                    text.push(char::from_u32(code).unwrap_or('\u{fffd}'));
                    i += len;
                }
                text
            }
        };
        View {
            encoding,
            text: text.replace("\r\n", "\n").replace('\r', "\n"),
        }
    }

    /// `text` (made of this view's characters) back in the file's encoding.
    fn encode(&self, text: &str) -> Vec<u8> {
        match self.encoding {
            Encoding::Utf8 => text.as_bytes().to_vec(),
            Encoding::ShiftJis => {
                let mut out = Vec::with_capacity(text.len());
                for c in text.chars() {
                    let c = c as u32;
                    if c < 0x80 {
                        out.push(c as u8);
                    } else if c >= PRIVATE && c - PRIVATE <= 0xFF {
                        out.push((c - PRIVATE) as u8);
                    } else if c >= PRIVATE && c - PRIVATE <= 0xFFFF {
                        out.extend_from_slice(&((c - PRIVATE) as u16).to_be_bytes());
                    } else {
                        out.push(b'?');
                    }
                }
                out
            }
        }
    }

    /// `s` (ASCII and the characters of [`SJIS`], full-width digits and space) as this
    /// view writes it.
    fn mark(&self, s: &str) -> String {
        match self.encoding {
            Encoding::Utf8 => s.to_string(),
            Encoding::ShiftJis => s
                .chars()
                .map(|c| {
                    let code = match c {
                        '０'..='９' => Some(0x824F + (c as u32 - '０' as u32) as u16),
                        '　' => Some(0x8140),
                        _ => SJIS.iter().find(|(k, _)| *k == c).map(|&(_, v)| v),
                    };
                    match code {
                        Some(v) => char::from_u32(PRIVATE + u32::from(v)).unwrap_or(c),
                        None => c,
                    }
                })
                .collect(),
        }
    }

    /// The marks that begin a KI2 move.
    fn ki2_marks(&self) -> Vec<String> {
        let mut marks: Vec<String> = ["▲", "△", "▼", "▽"].iter().map(|m| self.mark(m)).collect();
        if self.encoding == Encoding::Utf8 {
            marks.extend(["☗".to_string(), "☖".to_string()]);
        }
        marks
    }

    /// `line` without surrounding spaces (ASCII and full-width) and byte-order mark.
    fn trim<'s>(&self, line: &'s str) -> &'s str {
        let wide = self.mark("　");
        let mut t = line.trim_matches(|c: char| c.is_ascii_whitespace() || c == '\u{feff}');
        loop {
            let before = t.len();
            t = t
                .trim_start_matches(wide.as_str())
                .trim_end_matches(wide.as_str())
                .trim_matches(|c: char| c.is_ascii_whitespace());
            if t.len() == before {
                return t;
            }
        }
    }

    /// The number in `s` (ASCII or full-width digits): `：   9手` → 9; 0 if none.
    fn number(&self, s: &str) -> usize {
        let mut n = 0usize;
        for c in s.chars() {
            let digit = match c {
                '0'..='9' => Some(c as u32 - '0' as u32),
                _ => (0..10).find(|&d| {
                    self.mark(&char::from_u32('０' as u32 + d).unwrap_or('0').to_string())
                        == c.to_string()
                }),
            };
            if let Some(d) = digit {
                n = n.saturating_mul(10).saturating_add(d as usize);
            }
        }
        n
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const KIF: &str = "手合割：平手\n先手：甲\n後手：乙\n手数----指手---------消費時間--\n   1 ７六歩(77)   ( 0:00/00:00:00)\n*本譜のコメント\n   2 ３四歩(33)   ( 0:00/00:00:00)\n   3 ２六歩(27)   ( 0:00/00:00:00)\n   4 投了\nまで3手で先手の勝ち\n\n変化：3手\n   3 ６六歩(67)   ( 0:00/00:00:00)\n   4 ８四歩(83)   ( 0:00/00:00:00)\n\n変化：4手\n   4 ３二金(41)   ( 0:00/00:00:00)\n\n変化：2手\n   2 ８四歩(83)   ( 0:00/00:00:00)\n";

    #[test]
    fn reads_variations_written_after_the_summary_line() {
        let games = read("x.kif", KIF.as_bytes()).unwrap();
        let g = &games[0];
        assert_eq!(g.encoding, Encoding::Utf8);
        assert_eq!(g.main, ["7g7f", "3c3d", "2g2f"]);
        let v: Vec<(usize, Vec<&str>)> = g
            .variations
            .iter()
            .map(|v| (v.from, v.line.iter().map(String::as_str).collect()))
            .collect();
        assert_eq!(
            v,
            [
                (3, vec!["7g7f", "3c3d", "6g6f", "8c8d"]),
                // Ply 4 branches from the latest line reaching it: the variation at 3.
                (4, vec!["7g7f", "3c3d", "6g6f", "4a3b"]),
                (2, vec!["7g7f", "8c8d"]),
            ]
        );
        assert_eq!(g.about, ["black 甲", "white 乙"]);
    }

    #[test]
    fn reads_shift_jis_through_the_private_view() {
        // "変化：1手" and two KI2 moves, in Shift_JIS, written byte by byte.
        let mut bytes = Vec::new();
        // ▲７六歩△３四歩
        bytes.extend([0x81, 0xA3, 0x82, 0x56, 0x98, 0x5A, 0x95, 0xE0]);
        bytes.extend([0x81, 0xA2, 0x82, 0x52, 0x8E, 0x6C, 0x95, 0xE0]);
        bytes.push(b'\n');
        // 変化：1手 / ▲２六歩
        bytes.extend([0x95, 0xCF, 0x89, 0xBB, 0x81, 0x46, b'1', 0x8E, 0xE8, b'\n']);
        bytes.extend([0x81, 0xA3, 0x82, 0x51, 0x98, 0x5A, 0x95, 0xE0, b'\n']);
        assert_eq!(Encoding::detect(&bytes), Encoding::ShiftJis);
        let view = View::decode(Encoding::ShiftJis, &bytes);
        assert_eq!(view.encode(&view.text), bytes);
        let games = read("x.ki2", &bytes).unwrap();
        assert_eq!(games[0].main, ["7g7f", "3c3d"]);
        assert_eq!(games[0].variations[0].line, ["2g2f"]);
    }

    #[test]
    fn an_illegal_main_line_is_an_error() {
        let text = "手数----指手--\n   1 ７六歩(77)\n   2 ７六歩(77)\n";
        assert!(read("x.kif", text.as_bytes()).is_err());
    }
}
