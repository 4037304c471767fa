//! Shogi tsume (詰将棋) as JSON lines, one problem a line, with the position in SFEN and the
//! main line in USI:
//!
//! ```json
//! {"id": "tanuki-3-1", "sfen": "7nl/7k1/9/7N1/9/9/9/9/9 b G2r2b3g4s2n3l18p 1",
//!  "solution_usi": ["G*2c", "2b1a", "2d1b+"]}
//! ```
//!
//! `solution_usi` may also be one string of moves separated by spaces. Each line becomes a
//! `tsume` problem with `mate_in` = the number of plies, `solutions = ["<the moves>"]`, the
//! prompt `3 手诘。` / `Mate in 3 (tsume).`, and a difficulty from the length (1 ply → 1,
//! 3 → 2, 5 → 3, 7 → 4, longer → 5). The id is the line's `id` made a slug (else its line
//! number); `collection` and `number`, when given, go into the `#` comment.
//!
//! Every move is played through the engine before anything is written: a line with an
//! illegal move, an attacking move that is no check, or an end that is not mate is left out
//! with the reason. A tsume longer than the trainer proves by search
//! ([`MAX_TSUME_PLIES`]) is written as a `best` problem that follows the main line, with a
//! note saying so. The search proof of the others runs when the written set is checked.
//!
//! ```
//! use qiyuan::import::{sfen, Goal};
//! let line = r#"{"id": "tanuki-1-1", "sfen": "9/7Sk/1+R7/9/9/9/9/9/9 b r2b4g3s4n4l18p 1", "solution_usi": ["8c1c"]}"#;
//! let got = sfen::import("tsume.jsonl", line, None, None);
//! let p = &got.problems[0];
//! assert_eq!(p.id, "tanuki-1-1");
//! assert_eq!(p.goal, Goal::Tsume(1));
//! assert_eq!(p.solutions, [["8c1c"]]);
//! assert_eq!(p.prompt.zh, "1 手诘。");
//! ```

use super::{unique_id, Goal, Imported, ImportedProblem, Setup, Skipped};
use crate::base::{GamePosition, Text};
use crate::lang::Lang;
use crate::rules::shogi::{Outcome, Position};
use serde_json::Value;
use std::collections::HashSet;

/// The longest tsume the trainer proves by search when content loads; longer ones are
/// written as `best` problems.
pub const MAX_TSUME_PLIES: usize = 11;

/// Reads the JSON lines of `text`: at most `limit` problems (lines left out do not count),
/// and only those of at most `max_plies` plies (longer ones are left out, and said so).
pub fn import(path: &str, text: &str, limit: Option<usize>, max_plies: Option<usize>) -> Imported {
    let mut out = Imported::default();
    let mut taken = HashSet::new();
    for (n, value) in super::json_lines(text) {
        if limit.is_some_and(|l| out.problems.len() >= l) {
            break;
        }
        let at = format!("{path}:{n}");
        let value: Value = match value {
            Ok(v) => v,
            Err(reason) => {
                out.skipped.push(Skipped { source: at, reason });
                continue;
            }
        };
        let id = value.get("id").and_then(Value::as_str).unwrap_or("");
        let source = if id.is_empty() {
            at.clone()
        } else {
            format!("{at} ({id})")
        };
        let moves = match solution(&value) {
            Ok(m) => m,
            Err(reason) => {
                out.skipped.push(Skipped { source, reason });
                continue;
            }
        };
        if let Some(max) = max_plies.filter(|&m| moves.len() > m) {
            out.skipped.push(Skipped {
                source,
                reason: format!("{} plies, longer than the {max} asked for", moves.len()),
            });
            continue;
        }
        match problem(&value, &moves) {
            Ok(mut p) => {
                let number = n.to_string();
                p.id = unique_id(&mut taken, if id.is_empty() { &number } else { id });
                let collection = value.get("collection").and_then(Value::as_str);
                let number = value.get("number").and_then(Value::as_u64);
                p.source = match (collection, number) {
                    (Some(c), Some(k)) => format!("{source}: {c}, no. {k}"),
                    (Some(c), None) => format!("{source}: {c}"),
                    _ => source,
                };
                out.problems.push(p);
            }
            Err(reason) => out.skipped.push(Skipped { source, reason }),
        }
    }
    out
}

/// The `solution_usi` moves: a list of strings, or one string.
fn solution(value: &Value) -> Result<Vec<String>, String> {
    let moves: Vec<String> = match value.get("solution_usi") {
        Some(Value::Array(list)) => list
            .iter()
            .map(|m| {
                m.as_str()
                    .map(|s| s.trim().to_string())
                    .ok_or_else(|| format!("`solution_usi` holds {m}, which is no USI move"))
            })
            .collect::<Result<_, _>>()?,
        Some(Value::String(s)) => s.split_whitespace().map(String::from).collect(),
        Some(other) => {
            return Err(format!(
                "`solution_usi` should be a list of moves, not {other}"
            ))
        }
        None => return Err("no `solution_usi`".into()),
    };
    if moves.is_empty() {
        return Err("`solution_usi` is empty".into());
    }
    Ok(moves)
}

/// The difficulty of a tsume of `plies` plies.
pub fn difficulty(plies: usize) -> u8 {
    match plies {
        0..=1 => 1,
        2..=3 => 2,
        4..=5 => 3,
        6..=7 => 4,
        _ => 5,
    }
}

fn problem(value: &Value, moves: &[String]) -> Result<ImportedProblem, String> {
    let sfen = value
        .get("sfen")
        .and_then(Value::as_str)
        .ok_or("no `sfen`")?;
    let start = Position::from_sfen(sfen).map_err(|e| format!("SFEN: {e}"))?;
    let mut pos = start.clone();
    let mut line = Vec::new();
    for (i, mv) in moves.iter().enumerate() {
        let (next, played) = pos
            .play(mv)
            .map_err(|e| format!("ply {} ({mv}) is illegal: {}", i + 1, e.explain(Lang::En)))?;
        if i % 2 == 0 && !played.check {
            return Err(format!(
                "ply {} ({mv}) gives no check: in tsume every attacking move checks",
                i + 1
            ));
        }
        line.push(played.usi);
        pos = next;
    }
    if !matches!(pos.outcome(), Some(Outcome::Checkmate { .. })) {
        return Err("the line does not end in mate".into());
    }
    let n = line.len();
    let mut notes = Vec::new();
    if let Some(said) = value
        .get("mate_length")
        .or_else(|| value.get("solution_moves"))
        .and_then(Value::as_u64)
        .filter(|&m| m as usize != n)
    {
        notes.push(format!("the source says {said} plies; the line has {n}"));
    }
    let goal = if n <= MAX_TSUME_PLIES {
        Goal::Tsume(n as u32)
    } else {
        notes.push(format!(
            "{n} plies: longer than the trainer proves ({MAX_TSUME_PLIES}), so judged by the main line"
        ));
        Goal::Best
    };
    Ok(ImportedProblem {
        id: String::new(),
        source: String::new(),
        prompt: Text {
            zh: format!("{n} 手诘。"),
            en: format!("Mate in {n} (tsume)."),
        },
        difficulty: Some(difficulty(n)),
        solutions: vec![line],
        notes,
        ..ImportedProblem::new(
            Setup::pieces(Position::GAME, start.sfen()),
            goal,
            Text::default(),
        )
    })
}

/// The game of the problems this importer writes.
pub const GAME: crate::base::Game = <Position as crate::base::GamePosition>::GAME;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_lists_and_strings_and_refuses_what_is_no_tsume() {
        let text = r#"{"id": "A 1", "sfen": "9/7Sk/1+R7/9/9/9/9/9/9 b r2b4g3s4n4l18p 1", "solution_usi": "8c1c"}
{"id": "quiet", "sfen": "9/7Sk/1+R7/9/9/9/9/9/9 b r2b4g3s4n4l18p 1", "solution_usi": ["8c7c"]}
{"id": "illegal", "sfen": "9/7Sk/1+R7/9/9/9/9/9/9 b r2b4g3s4n4l18p 1", "solution_usi": ["8c1d"]}
not json"#;
        let got = import("t.jsonl", text, None, None);
        assert_eq!(got.problems.len(), 1);
        assert_eq!(got.problems[0].id, "a-1");
        assert_eq!(got.problems[0].difficulty, Some(1));
        let reasons: Vec<&str> = got.skipped.iter().map(|s| s.reason.as_str()).collect();
        assert!(reasons[0].contains("gives no check"), "{reasons:?}");
        assert!(reasons[1].contains("illegal"), "{reasons:?}");
        assert!(reasons[2].starts_with("not JSON"), "{reasons:?}");
    }

    #[test]
    fn max_plies_leaves_out_longer_lines() {
        let text = r#"{"sfen": "9/7Sk/1+R7/9/9/9/9/9/9 b r2b4g3s4n4l18p 1", "solution_usi": ["8c1c", "x", "y"]}"#;
        let got = import("t.jsonl", text, None, Some(1));
        assert!(got.problems.is_empty());
        assert!(got.skipped[0].reason.contains("longer than the 1"));
    }
}
