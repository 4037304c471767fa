//! The mate-in-3 to mate-in-6 positions `benches/data/mates-3-6.txt` names, read from the
//! corpus: shared by `benches/proofs.rs` and the tests that compare the mate prover with
//! its oracle (they include this file with `#[path]`). Uses shakmaty only, so it builds
//! inside the crate and against older versions of it alike.

use shakmaty::fen::Fen;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, EnPassantMode, Position};
use std::collections::HashMap;
use std::path::Path;

/// The list itself: source, mate length, id (see its header).
pub const MATES: &str = include_str!("../data/mates-3-6.txt");

/// One position of the list.
pub struct MatePosition {
    /// `lichess <PuzzleId>` or `wac <id>`.
    pub id: String,
    /// The position, the side to move mating.
    pub fen: String,
    /// The mate length Stockfish 15.1 found.
    pub n: u32,
}

fn setup(fen: &str) -> Result<Chess, String> {
    fen.parse::<Fen>()
        .map_err(|e| format!("{fen}: {e}"))?
        .into_position(CastlingMode::Standard)
        .map_err(|e| format!("{fen}: {e}"))
}

/// Every position of [`MATES`], from the corpus folder `corpus`: Lichess puzzles after
/// the opponent's move `Moves[0]`, win-at-chess positions as they are.
pub fn mate_positions(corpus: &Path) -> Result<Vec<MatePosition>, String> {
    let read = |rel: &str| {
        let path = corpus.join(rel);
        std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))
    };
    let mut lichess = HashMap::new();
    for line in read("chess/lichess-1000.csv")?.lines().skip(1) {
        let fields: Vec<&str> = line.split(',').collect();
        if let [id, fen, moves, ..] = fields[..] {
            let pos = setup(fen)?;
            let first = moves.split(' ').next().unwrap_or_default();
            let played = first
                .parse::<UciMove>()
                .ok()
                .and_then(|m| m.to_move(&pos).ok())
                .and_then(|m| pos.clone().play(m).ok());
            if let Some(after) = played {
                let fen = Fen::from_position(&after, EnPassantMode::Legal);
                lichess.insert(id.to_string(), fen.to_string());
            }
        }
    }
    let mut wac = HashMap::new();
    for line in read("chess/win-at-chess.epd")?.lines() {
        let fen: Vec<&str> = line.split_whitespace().take(4).collect();
        if let Some(id) = line.split("id \"").nth(1).and_then(|r| r.split('"').next()) {
            wac.insert(id.to_string(), format!("{} 0 1", fen.join(" ")));
        }
    }
    let mut out = Vec::new();
    for line in MATES.lines().filter(|l| !l.starts_with('#')) {
        let mut parts = line.splitn(3, ' ');
        let (Some(source), Some(n), Some(id)) = (parts.next(), parts.next(), parts.next()) else {
            continue;
        };
        let n: u32 = n.parse().map_err(|_| format!("mate length in {line:?}"))?;
        let fen = match source {
            "lichess" => lichess.get(id),
            "wac" => wac.get(id),
            _ => None,
        };
        let fen = fen.ok_or_else(|| format!("{source} {id} is not in the corpus"))?;
        out.push(MatePosition {
            id: format!("{source} {id}"),
            fen: fen.clone(),
            n,
        });
    }
    Ok(out)
}
