//! Tsumego collections as JSON lines (one problem per line), as in the sanderland/tsumego
//! collections:
//!
//! ```json
//! {"file": "Prob0001.json", "AB": ["eb", "fb"], "AW": ["da", "ab"], "SZ": "19",
//!  "C": "Black to play: Elementary", "SOL": [["B", "ba", "Correct.", ""]]}
//! ```
//!
//! `AB`/`AW` are SGF points; `SOL` lists the accepted first moves (colour, point, comment,
//! note), without continuations or wrong lines. Each becomes a one-move solution of a `best`
//! problem (`live`/`kill` when the prompt says so); an entry whose point is empty ("no
//! correct solution on file") gives nothing, and a problem left without any is skipped.
//!
//! ```
//! use qiyuan::import::tsumego_json::import;
//! let line = r#"{"file": "Prob0001.json", "AB": ["eb", "fb", "bc", "cc", "dc", "be"],
//!   "AW": ["da", "ab", "bb", "cb", "db"], "SZ": "19", "C": "Black to play: Elementary",
//!   "SOL": [["B", "ba", "Correct.", ""]]}"#.replace('\n', " ");
//! let got = import("t.jsonl", &line, None);
//! let p = &got.problems[0];
//! assert_eq!(p.id, "1");
//! assert_eq!(p.solutions, [["B19"]]);
//! assert_eq!(p.prompt.zh, "黑先。");
//! ```

use crate::base::Text;
use crate::import::{
    one_language, play_all, standard_prompt, unique_id, view_for, Goal, Imported, ImportedProblem,
    Setup, Skipped,
};
use crate::lang::Lang;
use crate::rules::go::{Board, Color, Move, Point, Position};
use serde_json::Value;

/// Reads the JSON lines of `text` (the file `path`), at most `limit` problems (skipped lines
/// do not count). What is left out is placed as `path:line`.
pub fn import(path: &str, text: &str, limit: Option<usize>) -> Imported {
    let mut out = Imported::default();
    let mut taken = std::collections::HashSet::new();
    for (n, value) in crate::import::json_lines(text) {
        if limit.is_some_and(|l| out.problems.len() >= l) {
            break;
        }
        let source_line = format!("{path}:{n}");
        let value: Value = match value {
            Ok(v) => v,
            Err(reason) => {
                out.skipped.push(Skipped {
                    source: source_line,
                    reason,
                });
                continue;
            }
        };
        let file = value.get("file").and_then(Value::as_str).unwrap_or("");
        let source = if file.is_empty() {
            source_line
        } else {
            format!("{source_line} ({file})")
        };
        // Collections number their files from 1 each: `Prob0001.json` comes again in the
        // next one, so ids are made unique (`1`, then `1-2`).
        let id = id_of(file).unwrap_or_else(|| n.to_string());
        match problem(&value, &source, &unique_id(&mut taken, &id)) {
            Ok(p) => out.problems.push(p),
            Err(reason) => out.skipped.push(Skipped { source, reason }),
        }
    }
    out
}

/// `Prob0042.json` → `42`.
fn id_of(file: &str) -> Option<String> {
    let digits: String = file.chars().filter(|c| c.is_ascii_digit()).collect();
    let trimmed = digits.trim_start_matches('0');
    match (digits.is_empty(), trimmed.is_empty()) {
        (true, _) => None,
        (false, true) => Some("0".into()),
        (false, false) => Some(trimmed.to_string()),
    }
}

fn points(value: &Value, key: &str, size: u8) -> Result<Vec<Point>, String> {
    let Some(list) = value.get(key) else {
        return Ok(Vec::new());
    };
    let list = list
        .as_array()
        .ok_or_else(|| format!("`{key}` should be a list of SGF points"))?;
    list.iter()
        .map(|p| {
            p.as_str()
                .and_then(|s| Point::from_sgf(s, size))
                .ok_or_else(|| format!("`{key}` holds {p}, which is no point of the board"))
        })
        .collect()
}

/// Known comments of the collections, with their Chinese.
fn known_comment(c: &str) -> Option<&'static str> {
    match c.trim() {
        "Correct; disadvantageous ko." => Some("正解，但形成对己方不利的劫。"),
        "Correct; ko." => Some("正解，形成劫。"),
        _ => None,
    }
}

fn problem(value: &Value, source: &str, id: &str) -> Result<ImportedProblem, String> {
    let size: u8 = match value.get("SZ") {
        None => 19,
        Some(Value::String(s)) => s
            .trim()
            .parse()
            .map_err(|_| format!("SZ `{s}` is no size"))?,
        Some(Value::Number(n)) => n
            .as_u64()
            .and_then(|n| u8::try_from(n).ok())
            .ok_or_else(|| format!("SZ {n} is no size"))?,
        Some(other) => return Err(format!("SZ {other} is no size")),
    };
    let mut board = Board::new(size).map_err(|e| e.to_string())?;
    for (key, c) in [("AB", Color::Black), ("AW", Color::White)] {
        for p in points(value, key, size)? {
            board.set(p, Some(c));
        }
    }
    let sol = value
        .get("SOL")
        .and_then(Value::as_array)
        .ok_or("no `SOL` list")?;
    let mut firsts: Vec<(Color, Point, String)> = Vec::new();
    let mut empty = 0;
    for entry in sol {
        let colour = entry.get(0).and_then(Value::as_str).and_then(Color::parse);
        let point = entry.get(1).and_then(Value::as_str).unwrap_or("");
        let comment = entry.get(2).and_then(Value::as_str).unwrap_or("");
        if point.is_empty() {
            empty += 1;
            continue;
        }
        let (Some(colour), Some(p)) = (colour, Point::from_sgf(point, size)) else {
            return Err(format!("SOL entry {entry} is not a colour and a point"));
        };
        firsts.push((colour, p, comment.to_string()));
    }
    if firsts.is_empty() {
        return Err(if empty > 0 {
            "no correct solution on file".into()
        } else {
            "`SOL` lists no move".into()
        });
    }
    let to_play = firsts[0].0;
    let mut notes = Vec::new();
    let start = Position::new(board, to_play);
    let comment = value.get("C").and_then(Value::as_str).unwrap_or("").trim();
    let goal = Goal::from_prompt(comment);
    let prompt = if comment.is_empty() {
        standard_prompt(to_play, goal)
    } else if comment
        .to_lowercase()
        .starts_with(&format!("{} to ", to_play.as_str()))
    {
        Text {
            zh: standard_prompt(to_play, goal).zh,
            en: comment.to_string(),
        }
    } else {
        let (t, l) = one_language(comment);
        notes.push(one_language_note(l));
        t
    };
    let mut solutions = Vec::new();
    let mut said: Vec<(String, String, String)> = Vec::new();
    for (colour, p, comment) in &firsts {
        if *colour != to_play {
            notes.push(format!(
                "first move {} left out: it is {}'s, but {} is to play",
                p.name(size),
                colour.as_str(),
                to_play.as_str()
            ));
            continue;
        }
        match play_all(&start, &[Move::Play(*p)]) {
            Ok(names) => {
                if solutions.contains(&names) {
                    continue;
                }
                let c = comment.trim();
                if !c.is_empty() && c != "Correct." {
                    let zh = known_comment(c).map(str::to_string);
                    if zh.is_none() {
                        notes.push(one_language_note(one_language(c).1));
                    }
                    said.push((
                        names[0].clone(),
                        zh.unwrap_or_else(|| c.to_string()),
                        c.to_string(),
                    ));
                }
                solutions.push(names);
            }
            Err(e) => notes.push(format!("first move {} left out: {e}", p.name(size))),
        }
    }
    if solutions.is_empty() {
        return Err(format!(
            "no listed first move is legal: {}",
            notes.join("; ")
        ));
    }
    let explanation = (!said.is_empty()).then(|| Text {
        zh: said
            .iter()
            .map(|(m, zh, _)| format!("{m}：{zh}"))
            .collect::<Vec<_>>()
            .join("\n"),
        en: said
            .iter()
            .map(|(m, _, en)| format!("{m}: {en}"))
            .collect::<Vec<_>>()
            .join("\n"),
    });
    notes.sort();
    notes.dedup();
    let all: Vec<&[String]> = solutions.iter().map(|l| l.as_slice()).collect();
    let view = view_for(&start, &all);
    Ok(ImportedProblem {
        id: id.to_string(),
        source: source.to_string(),
        prompt,
        solutions,
        wrong: Vec::new(),
        explanation,
        notes,
        ..ImportedProblem::new(Setup::Go { start, view }, goal, Text::default())
    })
}

fn one_language_note(l: Lang) -> String {
    format!(
        "the source's text is in {} only: the same words are used for both languages; translate them",
        match l {
            Lang::Zh => "Chinese",
            Lang::En => "English",
        }
    )
}

/// The game of the problems this importer writes.
pub const GAME: crate::base::Game = <Position as crate::base::GamePosition>::GAME;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn skips_problems_without_a_solution() {
        let text = r#"{"file": "Prob0007.json", "AB": ["aa"], "AW": ["ba"], "SZ": "9", "C": "Black to play", "SOL": [["B", "", "No correct solution on file", ""]]}
{"file": "Prob0008.json", "AB": ["aa"], "AW": ["ba"], "SZ": 9, "C": "Black to kill", "SOL": [["B", "ca", "", ""], ["B", "ab", "Correct; disadvantageous ko.", ""]]}"#;
        let got = import("t.jsonl", text, None);
        assert_eq!(got.skipped.len(), 1);
        assert_eq!(got.skipped[0].reason, "no correct solution on file");
        let p = &got.problems[0];
        assert_eq!(p.id, "8");
        assert_eq!(p.goal, Goal::Kill);
        assert_eq!(p.solutions, [["C9"], ["A8"]]);
        assert_eq!(p.prompt.zh, "黑先杀。");
        assert_eq!(
            p.explanation.as_ref().unwrap().zh,
            "A8：正解，但形成对己方不利的劫。"
        );
        assert!(p.notes.is_empty(), "{:?}", p.notes);
    }

    #[test]
    fn limit_counts_problems() {
        let line = r#"{"file": "P1.json", "AB": ["aa"], "AW": ["ba"], "SZ": "9", "C": "Black to play", "SOL": [["B", "ca", "", ""]]}"#;
        let text = [line; 5].join("\n");
        assert_eq!(import("t.jsonl", &text, Some(3)).problems.len(), 3);
    }

    #[test]
    fn an_illegal_first_move_is_left_out() {
        // White stones around A9's neighbour: B9 is occupied.
        let text = r#"{"file": "P2.json", "AB": ["aa"], "AW": ["ba"], "SZ": "9", "C": "", "SOL": [["B", "ba", "", ""], ["B", "ca", "", ""]]}"#;
        let got = import("t.jsonl", text, None);
        let p = &got.problems[0];
        assert_eq!(p.solutions, [["C9"]]);
        assert!(p.notes[0].contains("B9 left out"), "{:?}", p.notes);
        assert_eq!(p.prompt.en, "Black to play.");
    }
}
