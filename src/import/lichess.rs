//! Chess puzzles from the Lichess puzzle database (CSV, CC0): one puzzle a row,
//!
//! ```text
//! PuzzleId,FEN,Moves,Rating,RatingDeviation,Popularity,NbPlays,Themes,GameUrl,OpeningTags,SortKey
//! 0kDWS,1r6/1PN5/3p4/4kpp1/1R6/P3n3/K1P5/8 b - - 0 49,e3d5 b4b5 b8b7 b5b7,1947,75,95,…
//! ```
//!
//! The FEN is the position *before* the opponent's move `Moves[0]`: the importer plays that
//! move through the engine and writes the position after it as the problem's `fen`, with
//! the move's two squares shaded (`highlight`) so the learner sees what was just played. The
//! learner's moves are then `Moves[1]`, `Moves[3]`, … and the replies `Moves[2]`, `Moves[4]`, …
//!
//! - **Goal.** A puzzle whose line ends in checkmate (Lichess tags these `mate` and
//!   `mateIn1` … `mateIn5`) gets `goal = "mate"` with `mate_in` = the learner's moves in the
//!   line, up to [`MAX_MATE_IN`], so the trainer accepts any move that forces mate in time
//!   (Lichess counts any mate, not only the one on file); a tag that disagrees with the line
//!   is noted. Every other puzzle is `best`; there, a move that mates at once, other than the
//!   one on file, is added as a correct line ending there wherever the learner could play
//!   it, so that any mate counts too.
//! - **Tags.** The themes, as written (`fork`, `mateIn2`, `endgame`, …).
//! - **Difficulty** from the rating: below 1000 → 1, 1000–1399 → 2, 1400–1799 → 3,
//!   1800–2199 → 4, 2200 and above → 5.
//! - **Prompt**: the side to play and the task the themes name, in both languages: `白先，两步杀。`
//!   / `White to play: mate in 2.`; `equality` asks to save the game; otherwise the best move.
//!   The first motif among the themes (fork, pin, skewer, …) becomes the `hint`.
//! - **Ids**: the puzzle id in lowercase (problem ids are slugs), made unique with `-2`…;
//!   the original id and the game's address are kept in a `# lichess <id> <url>` comment.
//!
//! A row whose moves the engine refuses, or whose mate line does not end in checkmate, is
//! left out with the reason.
//!
//! ```
//! use qiyuan::import::{lichess, Goal};
//! let csv = "PuzzleId,FEN,Moves,Rating,RatingDeviation,Popularity,NbPlays,Themes,GameUrl,OpeningTags,SortKey\n\
//!     Ab1,6k1/p4ppp/8/8/8/8/5PPP/3R2K1 b - - 0 1,a7a6 d1d8,700,75,90,100,mate mateIn1 backRankMate,https://lichess.org/x,,1";
//! let got = lichess::import("puzzles.csv", csv, None);
//! let p = &got.problems[0];
//! assert_eq!(p.id, "ab1");
//! assert_eq!(p.setup.notation().unwrap(), "6k1/5ppp/p7/8/8/8/5PPP/3R2K1 w - - 0 2");
//! assert_eq!(p.goal, Goal::Mate(1));
//! assert_eq!(p.solutions, [["d1d8"]]);
//! assert_eq!(p.prompt.en, "White to play: mate in 1.");
//! assert_eq!(p.difficulty, Some(1));
//! ```

use super::{unique_id, Goal, Imported, ImportedProblem, Setup, Skipped};
use crate::base::{GamePosition, Text};
use crate::lang::Lang;
use crate::rules::chess::{square_name, Color, Outcome, Position};
use std::collections::HashSet;

/// The longest mate the trainer proves by search (`mate_in` above it is refused); longer
/// mates are imported as `best`.
pub const MAX_MATE_IN: u32 = 4;

/// The columns of the Lichess puzzle CSV, in the database's order.
const COLUMNS: [&str; 11] = [
    "PuzzleId",
    "FEN",
    "Moves",
    "Rating",
    "RatingDeviation",
    "Popularity",
    "NbPlays",
    "Themes",
    "GameUrl",
    "OpeningTags",
    "SortKey",
];

/// Reads the CSV `text` (with or without its header row), at most `limit` problems (rows
/// left out do not count).
pub fn import(path: &str, text: &str, limit: Option<usize>) -> Imported {
    let mut out = Imported::default();
    let mut taken = HashSet::new();
    let mut index: Vec<usize> = (0..COLUMNS.len()).collect();
    for (n, line) in text.lines().enumerate() {
        if limit.is_some_and(|l| out.problems.len() >= l) {
            break;
        }
        let line = line.trim_start_matches('\u{feff}').trim_end_matches('\r');
        if line.trim().is_empty() {
            continue;
        }
        let fields = split_csv(line);
        if n == 0 && fields.first().is_some_and(|f| f == "PuzzleId") {
            index = COLUMNS
                .iter()
                .map(|c| fields.iter().position(|f| f == c).unwrap_or(usize::MAX))
                .collect();
            continue;
        }
        let field = |name: &str| -> &str {
            COLUMNS
                .iter()
                .position(|c| *c == name)
                .and_then(|i| fields.get(index[i]))
                .map_or("", |s| s.trim())
        };
        let puzzle = field("PuzzleId");
        let at = format!("{path}:{}", n + 1);
        let source = if puzzle.is_empty() {
            at.clone()
        } else {
            format!("{at} (lichess {})", super::comment(puzzle))
        };
        let row = Row {
            id: puzzle,
            fen: field("FEN"),
            moves: field("Moves"),
            rating: field("Rating"),
            themes: field("Themes"),
            url: field("GameUrl"),
        };
        match problem(&row) {
            Ok(mut p) => {
                let number = (n + 1).to_string();
                p.id = unique_id(&mut taken, if puzzle.is_empty() { &number } else { puzzle });
                if !row.url.is_empty() {
                    p.source = format!("{source} {}", row.url);
                } else {
                    p.source = source;
                }
                out.problems.push(p);
            }
            Err(reason) => out.skipped.push(Skipped { source, reason }),
        }
    }
    out
}

/// The fields of one CSV line; `"…"` fields may hold commas and `""` quotes.
fn split_csv(line: &str) -> Vec<String> {
    let mut fields = Vec::new();
    let mut field = String::new();
    let mut quoted = false;
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '"' if quoted && chars.peek() == Some(&'"') => {
                field.push('"');
                chars.next();
            }
            '"' => quoted = !quoted,
            ',' if !quoted => fields.push(std::mem::take(&mut field)),
            c => field.push(c),
        }
    }
    fields.push(field);
    fields
}

/// The fields of a row the importer reads.
struct Row<'a> {
    id: &'a str,
    fen: &'a str,
    moves: &'a str,
    rating: &'a str,
    themes: &'a str,
    url: &'a str,
}

/// The difficulty of a Lichess rating: the bands of the module documentation.
pub fn difficulty(rating: u32) -> u8 {
    match rating {
        0..=999 => 1,
        1000..=1399 => 2,
        1400..=1799 => 3,
        1800..=2199 => 4,
        _ => 5,
    }
}

/// `mateIn3` → 3.
fn mate_in(themes: &[&str]) -> Option<u32> {
    themes
        .iter()
        .find_map(|t| t.strip_prefix("mateIn")?.parse().ok())
}

/// "one", "two" … in Chinese counting words for moves: 一步杀, 两步杀 …
fn zh_count(n: u32) -> String {
    match n {
        1 => "一".into(),
        2 => "两".into(),
        3 => "三".into(),
        4 => "四".into(),
        5 => "五".into(),
        6 => "六".into(),
        7 => "七".into(),
        8 => "八".into(),
        9 => "九".into(),
        n => n.to_string(),
    }
}

/// The prompt: who plays and what the puzzle asks (a mate in `mate` moves, or what the
/// themes say).
fn prompt(turn: Color, mate: Option<u32>, themes: &[&str]) -> Text {
    let (zh_side, en_side) = match turn {
        Color::White => ("白先", "White to play"),
        Color::Black => ("黑先", "Black to play"),
    };
    let (zh, en) = match mate {
        Some(n) => (format!("{}步杀", zh_count(n)), format!("mate in {n}")),
        None if themes.contains(&"equality") => (
            "扭转劣势，争取均势".into(),
            "save the game (reach equality)".into(),
        ),
        None => ("找出最佳着法".into(), "find the best move".into()),
    };
    Text {
        zh: format!("{zh_side}，{zh}。"),
        en: format!("{en_side}: {en}."),
    }
}

/// Motifs that make a useful hint, in the order they are preferred.
const MOTIFS: [(&str, &str, &str); 16] = [
    (
        "smotheredMate",
        "想想闷杀：王被自己的棋子围住。",
        "Think of a smothered mate.",
    ),
    ("backRankMate", "看看对方的底线。", "Look at the back rank."),
    ("doubleCheck", "找一个双将。", "Look for a double check."),
    (
        "discoveredAttack",
        "移开一个棋子，让后面的棋子发动攻击（闪击）。",
        "Look for a discovered attack.",
    ),
    (
        "fork",
        "找一步同时攻击两个目标的棋（捉双）。",
        "Look for a fork.",
    ),
    (
        "pin",
        "利用牵制：被牵制的棋子不能（或不宜）移动。",
        "Use a pin.",
    ),
    (
        "skewer",
        "找串击：先攻击大子，再吃后面的棋子。",
        "Look for a skewer.",
    ),
    (
        "deflection",
        "把防守的棋子引离它的岗位。",
        "Deflect a defender.",
    ),
    (
        "attraction",
        "把对方的棋子（常是王）引到不利的格子上。",
        "Lure a piece onto a bad square.",
    ),
    ("capturingDefender", "吃掉保护者。", "Capture the defender."),
    (
        "hangingPiece",
        "有一个棋子没有保护。",
        "A piece is left unprotected.",
    ),
    (
        "trappedPiece",
        "有一个棋子无路可逃。",
        "A piece is trapped.",
    ),
    (
        "interference",
        "在对方两个棋子之间插入一子，切断联系。",
        "Interfere between two defenders.",
    ),
    ("promotion", "想想升变。", "Think of promotion."),
    ("enPassant", "想想吃过路兵。", "Think of en passant."),
    (
        "sacrifice",
        "不要怕弃子。",
        "Do not be afraid to sacrifice.",
    ),
];

fn hint(themes: &[&str]) -> Option<Text> {
    MOTIFS
        .iter()
        .find(|(t, _, _)| themes.contains(t))
        .map(|(_, zh, en)| Text {
            zh: zh.to_string(),
            en: en.to_string(),
        })
}

fn problem(row: &Row) -> Result<ImportedProblem, String> {
    if row.fen.is_empty() {
        return Err("no FEN".into());
    }
    let before = Position::from_fen(row.fen).map_err(|e| format!("FEN: {e}"))?;
    let moves: Vec<&str> = row.moves.split_whitespace().collect();
    if moves.len() < 2 {
        return Err(format!(
            "`{}` should hold the opponent's move and at least one move of the learner",
            row.moves
        ));
    }
    let (start, first) = before.play(moves[0]).map_err(|e| {
        format!(
            "the opponent's move {} is illegal: {}",
            moves[0],
            e.explain(Lang::En)
        )
    })?;
    let mut pos = start.clone();
    let mut line = Vec::new();
    // The positions before each learner move, for the other mates.
    let mut before_learner = Vec::new();
    for (i, mv) in moves[1..].iter().enumerate() {
        if i % 2 == 0 {
            before_learner.push(pos.clone());
        }
        let (next, played) = pos
            .play(mv)
            .map_err(|e| format!("move {} ({mv}) is illegal: {}", i + 2, e.explain(Lang::En)))?;
        line.push(played.uci);
        pos = next;
    }
    let themes: Vec<&str> = row.themes.split_whitespace().collect();
    let mated = matches!(pos.outcome(), Some(Outcome::Checkmate { .. }));
    if themes.contains(&"mate") && !mated {
        return Err("tagged `mate`, but the line does not end in checkmate".into());
    }
    let mut notes = Vec::new();
    let tagged = mate_in(&themes);
    if tagged.is_some() && !mated {
        return Err("tagged mateIn, but the line does not end in checkmate".into());
    }
    // The line's own length decides: Lichess's count is now and then one short.
    let learner_moves = line.len().div_ceil(2) as u32;
    if let Some(n) = tagged.filter(|&n| n != learner_moves) {
        notes.push(format!(
            "tagged mateIn{n}, but the line mates in {learner_moves} moves of the learner"
        ));
    }
    // A line that ends in mate is a mate problem, whatever the tags say.
    let mate = mated.then_some(learner_moves);
    let goal = match mate {
        Some(n) if (1..=MAX_MATE_IN).contains(&n) => Goal::Mate(n),
        Some(n) => {
            notes.push(format!(
                "mate in {n}: longer than the trainer proves ({MAX_MATE_IN}), so judged by the line"
            ));
            Goal::Best
        }
        None => Goal::Best,
    };
    let mut solutions = vec![line.clone()];
    if goal == Goal::Best {
        // Any mate counts: a learner move that mates at once is correct wherever it can be
        // played.
        for (k, at) in before_learner.iter().enumerate() {
            for m in at.legal_moves() {
                if m.mate && m.uci != line[2 * k] {
                    let mut alt = line[..2 * k].to_vec();
                    alt.push(m.uci);
                    solutions.push(alt);
                }
            }
        }
    }
    let difficulty = row.rating.parse::<u32>().ok().map(difficulty).or_else(|| {
        notes.push(format!("rating `{}` is no number", row.rating));
        None
    });
    let _ = row.id;
    Ok(ImportedProblem {
        id: String::new(),
        source: String::new(),
        prompt: prompt(start.turn(), mate, &themes),
        difficulty,
        tags: themes.iter().map(|t| t.to_string()).collect(),
        highlight: vec![square_name(first.from), square_name(first.to)],
        hint: hint(&themes),
        solutions,
        notes,
        ..ImportedProblem::new(
            Setup::pieces(Position::GAME, start.fen()),
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

    const HEADER: &str = "PuzzleId,FEN,Moves,Rating,RatingDeviation,Popularity,NbPlays,Themes,GameUrl,OpeningTags,SortKey";

    #[test]
    fn plays_the_opponents_move_first() {
        let csv = format!(
            "{HEADER}\n0kDWS,1r6/1PN5/3p4/4kpp1/1R6/P3n3/K1P5/8 b - - 0 49,e3d5 b4b5 b8b7 b5b7,1947,75,95,13691,advantage endgame pin short,https://lichess.org/q2SFqfYD/black#97,,1300645"
        );
        let got = import("t.csv", &csv, None);
        assert!(got.skipped.is_empty(), "{:?}", got.skipped);
        let p = &got.problems[0];
        assert_eq!(p.id, "0kdws");
        assert!(
            p.source.starts_with("t.csv:2 (lichess 0kDWS) https://"),
            "{}",
            p.source
        );
        assert_eq!(
            p.setup.notation().unwrap(),
            "1r6/1PN5/3p4/3nkpp1/1R6/P7/K1P5/8 w - - 1 50"
        );
        assert_eq!(p.solutions, [["b4b5", "b8b7", "b5b7"]]);
        assert_eq!(p.goal, Goal::Best);
        assert_eq!(p.difficulty, Some(4));
        assert_eq!(p.highlight, ["e3", "d5"]);
        assert_eq!(p.prompt.zh, "白先，找出最佳着法。");
        assert_eq!(p.hint.as_ref().unwrap().en, "Use a pin.");
        assert_eq!(p.tags, ["advantage", "endgame", "pin", "short"]);
    }

    #[test]
    fn refuses_illegal_moves_and_keeps_ids_unique() {
        let csv = format!(
            "{HEADER}\nAb,6k1/p4ppp/8/8/8/8/5PPP/3R2K1 b - - 0 1,a7a6 d1d8,700,75,90,100,mate mateIn1,,,1\n\
             aB,6k1/p4ppp/8/8/8/8/5PPP/3R2K1 b - - 0 1,a7a6 d1d8,700,75,90,100,mate mateIn1,,,1\n\
             bad,6k1/p4ppp/8/8/8/8/5PPP/3R2K1 b - - 0 1,a7a5 d1d9,700,75,90,100,mate mateIn1,,,1"
        );
        let got = import("t.csv", &csv, None);
        let ids: Vec<&str> = got.problems.iter().map(|p| p.id.as_str()).collect();
        assert_eq!(ids, ["ab", "ab-2"]);
        assert_eq!(got.skipped.len(), 1);
        assert!(got.skipped[0].reason.contains("d1d9"), "{:?}", got.skipped);
        assert_eq!(import("t.csv", &csv, Some(1)).problems.len(), 1);
    }

    #[test]
    fn any_mate_counts_in_a_best_line() {
        // Black plays b6b5; the line on file wins the a-pawn, but either rook mates at once.
        let csv = "x1,6k1/p4ppp/1p6/8/8/8/5PPP/R2R2K1 b - - 0 1,b6b5 a1a7,900,75,90,100,advantage short,,,1";
        let got = import("t.csv", csv, None);
        let p = &got.problems[0];
        assert_eq!(p.goal, Goal::Best);
        assert_eq!(p.solutions, [vec!["a1a7"], vec!["d1d8"]]);
        assert_eq!(p.prompt.en, "White to play: find the best move.");
    }

    #[test]
    fn a_mating_line_is_a_mate_problem_whatever_its_tags() {
        let csv =
            "x2,6k1/5ppp/1p6/8/8/8/5PPP/R2R2K1 b - - 0 1,b6b5 d1d8,900,75,90,100,mateIn2 short,,,1";
        let p = &import("t.csv", csv, None).problems[0];
        assert_eq!(p.goal, Goal::Mate(1));
        assert_eq!(p.prompt.zh, "白先，一步杀。");
        assert!(p.notes[0].contains("mateIn2"), "{:?}", p.notes);
    }

    #[test]
    fn splits_quoted_fields() {
        assert_eq!(
            split_csv(r#"a,"b,c","d""e",,f"#),
            ["a", "b,c", "d\"e", "", "f"]
        );
    }
}
