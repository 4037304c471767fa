//! Shogi problems from game records in KIF, KI2 and CSA (`qiyuan import kif`), in UTF-8 or
//! Shift_JIS, with their variations.
//!
//! **Reading.** The records are read by [`crate::record::kif::split`] (re-exported here):
//! KIF, KI2 and CSA, UTF-8 or Shift_JIS, with their variations, every line replayed through
//! our engine.
//!
//! **Writing.** Each game becomes one `best` problem: its `sfen` is the start position, its
//! first solution the main line in USI, and each variation that branches at one of the
//! learner's moves (the side to move at the start) another solution line. Variations that
//! branch at the opponent's move are left out with a note: the trainer always answers with
//! the first line's reply.
//!
//! ```
//! use qiyuan::import::kif;
//! let text = "手合割：平手\n手数----指手---------消費時間--\n   1 ７六歩(77)\n   2 ３四歩(33)\n   3 投了\nまで2手で後手の勝ち\n\n変化：1手\n   1 ２六歩(27)\n   2 ８四歩(83)\n";
//! let games = kif::read("game.kif", text.as_bytes()).unwrap();
//! assert_eq!(games[0].main, ["7g7f", "3c3d"]);
//! assert_eq!(games[0].variations[0].line, ["2g2f", "8c8d"]);
//! ```

use super::{fit_lines, unique_id, Goal, Imported, ImportedProblem, Setup, Skipped};
use crate::base::{GamePosition, Text};
use crate::lang::Lang;
pub use crate::record::kif::split::{
    past_the_limit, read, replay, Encoding, RecordGame, Variation,
};
pub use crate::record::Format;
use crate::rules::shogi::Position;
use std::collections::HashSet;

/// Reads `files` (name and raw bytes) into one problem a game.
pub fn import_files(files: &[(String, Vec<u8>)]) -> Imported {
    let mut out = Imported::default();
    let mut taken = HashSet::new();
    for (name, bytes) in files {
        let games = match read(name, bytes) {
            Ok(g) => g,
            Err(reason) => {
                out.skipped.push(Skipped {
                    source: name.clone(),
                    reason,
                });
                continue;
            }
        };
        let several = games.len() > 1;
        let stem = std::path::Path::new(name)
            .file_stem()
            .map_or_else(|| name.clone(), |s| s.to_string_lossy().into_owned());
        for (i, game) in games.into_iter().enumerate() {
            let (source, wanted) = if several {
                (
                    format!("{name} (game {})", i + 1),
                    format!("{stem}-{}", i + 1),
                )
            } else {
                (name.clone(), stem.clone())
            };
            match problem(&game) {
                Ok(mut p) => {
                    p.id = unique_id(&mut taken, &wanted);
                    p.source = format!(
                        "{source}: {} ({}), {} plies, {} variation{}",
                        game.format.as_str(),
                        match game.encoding {
                            Encoding::Utf8 => "UTF-8",
                            Encoding::ShiftJis => "Shift_JIS",
                        },
                        game.main.len(),
                        game.variations.len(),
                        if game.variations.len() == 1 { "" } else { "s" }
                    );
                    if !game.about.is_empty() {
                        p.source.push_str(&format!("; {}", game.about.join(", ")));
                    }
                    out.problems.push(p);
                }
                Err(reason) => out.skipped.push(Skipped { source, reason }),
            }
        }
    }
    out
}

/// The problem of one game: the main line and the variations that branch at a learner move.
fn problem(game: &RecordGame) -> Result<ImportedProblem, String> {
    if game.main.is_empty() {
        return Err("the record has no moves".into());
    }
    let start = Position::from_sfen(&game.start).map_err(|e| format!("SFEN: {e}"))?;
    let side = start.turn();
    let mut notes = game.notes.clone();
    let mut correct = vec![game.main.clone()];
    for v in &game.variations {
        if v.from % 2 == 0 {
            notes.push(format!(
                "variation at ply {} left out: it changes the opponent's move, and the trainer always answers with the main line's",
                v.from
            ));
        } else {
            correct.push(v.line.clone());
        }
    }
    let (solutions, _) = fit_lines(correct, Vec::new(), &mut notes);
    Ok(ImportedProblem {
        id: String::new(),
        source: String::new(),
        prompt: Text {
            zh: format!("执{}：按棋谱走出每一步。", side.name(Lang::Zh)),
            en: format!("Play {}'s moves of this game record.", side.name(Lang::En)),
        },
        solutions,
        notes,
        ..ImportedProblem::new(
            Setup::pieces(Position::GAME, start.sfen()),
            Goal::Best,
            Text::default(),
        )
    })
}

/// The game of the problems this importer writes.
pub const GAME: crate::base::Game = <Position as crate::base::GamePosition>::GAME;

#[cfg(test)]
mod tests {
    use super::*;

    const KIF: &str = "手合割：平手\n先手：甲\n後手：乙\n手数----指手---------消費時間--\n   1 ７六歩(77)   ( 0:00/00:00:00)\n*本譜のコメント\n   2 ３四歩(33)   ( 0:00/00:00:00)\n   3 ２六歩(27)   ( 0:00/00:00:00)\n   4 投了\nまで3手で先手の勝ち\n\n変化：3手\n   3 ６六歩(67)   ( 0:00/00:00:00)\n   4 ８四歩(83)   ( 0:00/00:00:00)\n\n変化：4手\n   4 ３二金(41)   ( 0:00/00:00:00)\n\n変化：2手\n   2 ８四歩(83)   ( 0:00/00:00:00)\n";

    #[test]
    fn a_problem_keeps_variations_at_learner_moves() {
        let imported = import_files(&[("games/x.kif".into(), KIF.as_bytes().to_vec())]);
        let p = &imported.problems[0];
        assert_eq!(p.id, "x");
        assert_eq!(
            p.solutions,
            [
                vec!["7g7f", "3c3d", "2g2f"],
                vec!["7g7f", "3c3d", "6g6f", "8c8d"],
            ]
        );
        // The variation at ply 4 is the opponent's; so is the one at ply 2.
        assert_eq!(
            p.notes
                .iter()
                .filter(|n| n.contains("opponent's move"))
                .count(),
            2,
            "{:?}",
            p.notes
        );
        assert_eq!(p.prompt.zh, "执先手：按棋谱走出每一步。");
    }
}
