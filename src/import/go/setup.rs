//! A problem's position as its set file writes it: Go's board drawn as text (`size`,
//! `view`, `board`, `to_play`, and the `region` after the goal), any other game's position
//! in its notation under the game's `position_key`.

use super::super::{rectangle_name, toml_string, Setup};
use crate::base::{Game, GamePosition};
use crate::rules::go::{Board, Color, Point, Position};
use std::fmt::Write;

impl Setup {
    /// The game of the position.
    pub fn game(&self) -> Game {
        match self {
            Setup::Go { .. } => <Position as GamePosition>::GAME,
            Setup::Pieces { game, .. } => *game,
        }
    }

    /// The position of a game of pieces in its notation (a FEN, an SFEN).
    pub fn notation(&self) -> Option<&str> {
        match self {
            Setup::Pieces { notation, .. } => Some(notation),
            Setup::Go { .. } => None,
        }
    }

    /// The Go position.
    pub fn go(&self) -> Option<&Position> {
        match self {
            Setup::Go { start, .. } => Some(start),
            Setup::Pieces { .. } => None,
        }
    }

    /// The keys of the position, written before the goal.
    pub(crate) fn write_position(&self, out: &mut String) {
        match self {
            Setup::Go { start, view } => {
                let size = start.size();
                let _ = writeln!(out, "size = {size}");
                let board = start.board();
                let text = match view {
                    Some((tl, br)) => {
                        let rect = rectangle_name((*tl, *br), size);
                        let _ = writeln!(out, "view = {}", toml_string(&rect));
                        crop(board, *tl, *br)
                    }
                    None => board.to_text(),
                };
                let _ = write!(out, "board = \"\"\"\n{text}\"\"\"\n");
                let _ = writeln!(out, "to_play = {}", toml_string(start.turn().as_str()));
            }
            Setup::Pieces { game, notation } => {
                let key = game.kind().position_key;
                let _ = writeln!(out, "{key} = {}", toml_string(notation));
            }
        }
    }

    /// Go's `region`, the part of the board the solver reads, written after the goal.
    pub(crate) fn write_region(&self, region: Option<(Point, Point)>, out: &mut String) {
        if let (Some((tl, br)), Setup::Go { start, .. }) = (region, self) {
            let rect = rectangle_name((tl, br), start.size());
            let _ = writeln!(out, "region = {}", toml_string(&rect));
        }
    }
}

/// The viewed rectangle of a board as the set file draws it (`X`, `O`, `.`).
fn crop(board: &Board, tl: Point, br: Point) -> String {
    let mut out = String::new();
    for row in tl.row..=br.row {
        let cells: Vec<&str> = (tl.col..=br.col)
            .map(|col| match board.get(Point::new(col, row)) {
                None => ".",
                Some(Color::Black) => "X",
                Some(Color::White) => "O",
            })
            .collect();
        out.push_str(&cells.join(" "));
        out.push('\n');
    }
    out
}
