//! The computer's turns at a table: the built-in opponent and real engines, thinking on
//! blocking threads (never on the async workers), their moves applied only if the table has
//! not changed meanwhile.

use super::lobby::{ActError, Entry};
use super::table::{Action, Phase, Seat};
use super::{Level, Start};
use std::sync::Arc;

/// The computer's replies: while a computer sits at the side to move, it thinks (on a
/// blocking thread, never on the async workers) and plays. Returns the moves it played.
pub async fn computer_moves(entry: &Arc<Entry>) -> Vec<String> {
    let mut played = Vec::new();
    // The computer never moves twice in a row; the bound only guards against a loop.
    for _ in 0..2 {
        let (job, version, side, level, start, moves) = {
            let table = entry.table();
            let Some(side) = table.turn() else { break };
            let Seat::Computer { level } = table.seats()[side.index()] else {
                break;
            };
            (
                table.think_job(level),
                entry.version(),
                side,
                level,
                table.start().clone(),
                table.moves().to_vec(),
            )
        };
        let text = match engine_move(entry, &start, &moves, level).await {
            Some(m) => m,
            None => {
                let choice = tokio::task::spawn_blocking(job).await.ok().flatten();
                match (choice, start.game()) {
                    (Some(m), _) => m,
                    (None, g) if g.kind().passes => "pass".to_string(),
                    (None, _) => break,
                }
            }
        };
        let action = match text.as_str() {
            "resign" => Action::Resign,
            "win" => Action::Declare,
            _ => Action::Move(text.clone()),
        };
        match entry.apply(side, &action, Some(version)) {
            Ok(()) => {}
            Err(ActError::Moved) => break,
            Err(e) if entry.engine_name().is_some() => {
                entry.engine_failed(&format!("its move {text} was refused: {e:?}"));
                continue;
            }
            Err(e) => {
                eprintln!("qiyuan: the computer's move {text} was refused: {e:?}");
                break;
            }
        }
        played.push(text);
    }
    engine_dead_stones(entry).await;
    played
}

/// The real engine's move, if one plays this game and answers; when it fails, it is stopped
/// and the built-in computer takes over (`None`).
async fn engine_move(
    entry: &Arc<Entry>,
    start: &Start,
    moves: &[String],
    level: Level,
) -> Option<String> {
    entry.engine_name()?;
    let (entry2, start, moves) = (entry.clone(), start.clone(), moves.to_vec());
    let answer = tokio::task::spawn_blocking(move || {
        let answer = entry2
            .engine()
            .as_mut()
            .map(|e| e.best_move(&start, &moves, level));
        // The game may have ended while the engine thought: it was left running for this.
        entry2.retire_engine_if_over();
        answer
    })
    .await
    .ok()
    .flatten()?;
    match answer {
        Ok(m) => Some(m),
        // A move our rules refuse (GNU Go knows only simple ko, not superko): the built-in
        // computer plays this one, the engine the next.
        Err(e) if e.leaves_engine_usable() => {
            eprintln!("qiyuan: game {}: the engine's answer is not played ({e}); the built-in computer moves", entry.id);
            None
        }
        Err(e) => {
            entry.engine_failed(&e.to_string());
            None
        }
    }
}

/// Go, after two passes against a real engine: the engine marks the dead stones (GTP
/// `final_status_list dead`), instead of the built-in guess.
async fn engine_dead_stones(entry: &Arc<Entry>) {
    let (start, moves) = {
        let table = entry.table();
        if !matches!(table.phase(), Phase::Counting { .. }) || entry.engine_name().is_none() {
            return;
        }
        (table.start().clone(), table.moves().to_vec())
    };
    let entry2 = entry.clone();
    let (start2, moves2) = (start.clone(), moves.clone());
    let answer = tokio::task::spawn_blocking(move || {
        let answer = entry2
            .engine()
            .as_mut()
            .map(|e| e.dead_stones(&start2, &moves2));
        entry2.retire_engine_if_over();
        answer
    })
    .await
    .ok()
    .flatten();
    match answer {
        Some(Ok(dead)) => {
            {
                let mut table = entry.table();
                if table.moves() != moves.as_slice() {
                    return;
                }
                table.propose_dead(dead);
            }
            entry.changed();
        }
        Some(Err(e)) => entry.engine_failed(&e.to_string()),
        None => {}
    }
}
