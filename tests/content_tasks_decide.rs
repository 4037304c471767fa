//! A lesson task should ask for a decision, not dictate it: an instruction (the `say` of a
//! step with a `task`) that names the square or point of the move it expects tells the
//! learner the answer. At most five tasks in all may do so, and each of them is justified by
//! a `# names the move: <reason>` comment in its step (in both languages), such as a
//! coordinates or notation lesson whose task is to read the named move.
//!
//! "Names the move" is read from the expected moves: the destination of every first move of
//! the task's `solutions`, and its `to`, written as the learner reads it (Go `D4`, chess `e4`
//! or the SAN, shogi `7f`, `７六`, `7六`, xiangqi `e2`) and standing alone in the text.

use std::collections::BTreeMap;
use std::fs;
use std::path::Path;

const LIMIT: usize = 5;
const EXEMPT: &str = "# names the move:";

/// Every lesson file, `lessons/GAME/NN-slug.LANG.md`, with its game and text.
fn lesson_files() -> Vec<(String, String, String)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("lessons");
    let mut files = Vec::new();
    for game in fs::read_dir(&root).unwrap() {
        let game = game.unwrap();
        if !game.file_type().unwrap().is_dir() {
            continue;
        }
        let game_name = game.file_name().to_string_lossy().into_owned();
        for file in fs::read_dir(game.path()).unwrap() {
            let path = file.unwrap().path();
            if path.extension().and_then(|e| e.to_str()) != Some("md") {
                continue;
            }
            let rel = format!(
                "lessons/{game_name}/{}",
                path.file_name().unwrap().to_string_lossy()
            );
            files.push((rel, game_name.clone(), fs::read_to_string(&path).unwrap()));
        }
    }
    files.sort();
    files
}

/// The diagram blocks of a lesson: their body and the line where the body starts.
fn diagrams(text: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let mut open: Option<(usize, String)> = None;
    for (n, line) in text.lines().enumerate() {
        match &mut open {
            None => {
                if let Some(info) = line.strip_prefix("```") {
                    let kind = info.split_whitespace().next().unwrap_or("");
                    if matches!(kind, "goban" | "chess" | "shogi" | "xiangqi") {
                        open = Some((n + 2, String::new()));
                    }
                }
            }
            Some((start, body)) => {
                if line.starts_with("```") {
                    out.push((*start, std::mem::take(body)));
                    open = None;
                } else {
                    body.push_str(line);
                    body.push('\n');
                }
            }
        }
    }
    out
}

const FULLWIDTH: [&str; 10] = ["０", "１", "２", "３", "４", "５", "６", "７", "８", "９"];
const KANJI: [&str; 10] = ["〇", "一", "二", "三", "四", "五", "六", "七", "八", "九"];

/// The ways a learner reads the destination of a move of `game`.
fn destinations(game: &str, mv: &str) -> Vec<String> {
    let mv = mv.trim();
    match game {
        "go" => vec![mv.to_uppercase()],
        "chess" => {
            let chars: Vec<char> = mv.chars().collect();
            let mut out = vec![mv.trim_end_matches(['+', '#']).to_string()];
            for i in (0..chars.len().saturating_sub(1)).rev() {
                if ('a'..='h').contains(&chars[i]) && ('1'..='8').contains(&chars[i + 1]) {
                    out.push(format!("{}{}", chars[i], chars[i + 1]));
                    break;
                }
            }
            out
        }
        "shogi" => {
            // USI: `7g7f`, `8h2b+`, `P*5e`; the destination is the third and fourth character.
            let chars: Vec<char> = mv.chars().collect();
            if chars.len() < 4 {
                return Vec::new();
            }
            let (file, rank) = (chars[2], chars[3]);
            let (Some(f), Some(r)) = (file.to_digit(10), "abcdefghi".find(rank)) else {
                return Vec::new();
            };
            let (f, r) = (f as usize, r + 1);
            vec![
                format!("{f}{rank}"),
                format!("{}{}", FULLWIDTH[f], KANJI[r]),
                format!("{f}{}", KANJI[r]),
            ]
        }
        _ => {
            // xiangqi, ICCS `h2e2`: the destination is the last two characters.
            if mv.len() == 4 && mv.is_ascii() {
                vec![mv[2..].to_string()]
            } else {
                vec![mv.to_string()]
            }
        }
    }
}

/// Whether `token` stands alone in `say`: not inside a longer coordinate or word.
fn names(game: &str, say: &str, token: &str) -> bool {
    if token.is_empty() {
        return false;
    }
    if game == "shogi" {
        return say.contains(token);
    }
    let mut from = 0;
    while let Some(i) = say[from..].find(token) {
        let at = from + i;
        let before = say[..at].chars().next_back();
        let after = say[at + token.len()..].chars().next();
        let alone_before = !before.is_some_and(|c| c.is_ascii_alphanumeric());
        let alone_after = !after.is_some_and(|c| c.is_ascii_digit());
        if alone_before && alone_after {
            return true;
        }
        from = at + token.len();
    }
    false
}

/// One task whose instruction names its move.
struct Named {
    at: String,
    token: String,
    exempt: bool,
}

/// Every task of every lesson whose instruction names its move, keyed by lesson (without the
/// language), diagram and step, so that a lesson's zh and en twins count as one task.
fn named_tasks() -> (usize, BTreeMap<(String, usize, usize), Vec<Named>>) {
    let mut tasks = 0;
    let mut named: BTreeMap<(String, usize, usize), Vec<Named>> = BTreeMap::new();
    for (path, game, text) in lesson_files() {
        let lesson = path
            .trim_end_matches(".md")
            .trim_end_matches(".zh")
            .trim_end_matches(".en")
            .to_string();
        for (d, (start, body)) in diagrams(&text).into_iter().enumerate() {
            let table: toml::Table = body
                .parse()
                .unwrap_or_else(|e| panic!("{path}:{start}: {e}"));
            let Some(steps) = table.get("steps").and_then(|s| s.as_array()) else {
                continue;
            };
            // The raw text of each step, for its comments: the body split at `[[steps]]`.
            let chunks: Vec<&str> = body.split("[[steps]]").skip(1).collect();
            let headers: Vec<usize> = body.match_indices("[[steps]]").map(|(i, _)| i).collect();
            for (s, step) in steps.iter().enumerate() {
                let chunk = chunks.get(s).copied().unwrap_or("");
                let step_line = start + headers.get(s).map_or(0, |&i| body[..i].lines().count());
                let Some(task) = step.get("task").and_then(|t| t.as_table()) else {
                    continue;
                };
                tasks += 1;
                let say = step.get("say").and_then(|s| s.as_str()).unwrap_or("");
                let mut tokens = Vec::new();
                for line in task
                    .get("solutions")
                    .and_then(|s| s.as_array())
                    .into_iter()
                    .flatten()
                {
                    if let Some(first) = line.as_str().and_then(|l| l.split_whitespace().next()) {
                        tokens.extend(destinations(&game, first));
                    }
                }
                if let Some(to) = task.get("to").and_then(|t| t.as_str()) {
                    tokens.push(to.to_string());
                    if game == "shogi" {
                        tokens.extend(destinations(&game, &format!("00{to}")));
                    }
                }
                if let Some(token) = tokens.iter().find(|t| names(&game, say, t)) {
                    let exempt = chunk.lines().any(|l| {
                        l.trim_start()
                            .strip_prefix(EXEMPT)
                            .is_some_and(|why| !why.trim().is_empty())
                    });
                    named
                        .entry((lesson.clone(), d, s))
                        .or_default()
                        .push(Named {
                            at: format!("{path}:{step_line}"),
                            token: token.clone(),
                            exempt,
                        });
                }
            }
        }
    }
    (tasks, named)
}

#[test]
fn at_most_five_tasks_name_their_move_and_each_says_why() {
    let (tasks, named) = named_tasks();
    assert!(
        tasks >= 100,
        "only {tasks} tasks found: is the lesson parser broken?"
    );
    let unexplained: Vec<String> = named
        .values()
        .flatten()
        .filter(|n| !n.exempt)
        .map(|n| format!("{}: the instruction names {}", n.at, n.token))
        .collect();
    assert!(
        unexplained.is_empty(),
        "these instructions name the move they expect; ask for a decision instead, or say why \
         with a `{EXEMPT} …` comment in the step: {unexplained:#?}"
    );
    assert!(
        named.len() <= LIMIT,
        "{} tasks name their move, at most {LIMIT} may: {:#?}",
        named.len(),
        named
            .values()
            .map(|v| v
                .iter()
                .map(|n| format!("{} ({})", n.at, n.token))
                .collect::<Vec<_>>())
            .collect::<Vec<_>>()
    );
}

#[test]
fn the_check_finds_a_named_move() {
    assert!(names("go", "Your turn: play on C6.", "C6"));
    assert!(!names("go", "Your turn: play on C16.", "C1"));
    assert!(!names("go", "Capture at AC6.", "C6"));
    assert!(names("chess", "Move the pawn to e4.", "e4"));
    assert_eq!(destinations("chess", "Nxe5+"), vec!["Nxe5", "e5"]);
    assert!(destinations("shogi", "7g7f").contains(&"７六".to_string()));
    assert!(destinations("shogi", "P*5e").contains(&"5五".to_string()));
    assert_eq!(destinations("xiangqi", "h2e2"), vec!["e2"]);
}
