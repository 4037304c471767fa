//! The record file formats: each format's data and reader and writer in one [`FormatKind`],
//! filled in the format's own file; [`Format::kind`] is the registry.

use super::library::Summary;
use super::{Record, RecordError};
use crate::base::Game;

/// A record file format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// Smart Game Format (Go).
    Sgf,
    /// Portable Game Notation (chess).
    Pgn,
    /// KIF (shogi, 柿木形式).
    Kif,
    /// KI2 (shogi, moves as players write them).
    Ki2,
    /// CSA (shogi, コンピュータ将棋協会).
    Csa,
}

/// What a record format is and does.
#[derive(Debug)]
pub struct FormatKind {
    /// The format's name: `SGF`.
    pub name: &'static str,
    /// The file extensions that name it, lower case, the usual one first: `kif`, `kifu`.
    pub extensions: &'static [&'static str],
    /// The media type of a download.
    pub mime: &'static str,
    /// For a format whose files hold many games: what goes between them when several are
    /// written.
    pub many_games: Option<&'static str>,
    /// Every game of a file (name, raw bytes, in any encoding the format allows).
    pub read: fn(&str, &[u8], Format) -> Result<Vec<Record>, RecordError>,
    /// A record as UTF-8 text (its game already checked to use the format).
    pub write: fn(&Record, Format) -> Result<String, RecordError>,
    /// The tags of every game of a file (raw bytes), without reading its moves.
    pub summarize: fn(&[u8]) -> Vec<Summary>,
}

impl Format {
    /// Every format.
    pub const ALL: [Format; 5] = [
        Format::Sgf,
        Format::Pgn,
        Format::Kif,
        Format::Ki2,
        Format::Csa,
    ];

    /// What the format is and does: the registry, one line a format.
    pub fn kind(self) -> &'static FormatKind {
        match self {
            Format::Sgf => &super::sgf::FORMAT,
            Format::Pgn => &super::pgn::FORMAT,
            Format::Kif => &super::kif::KIF,
            Format::Ki2 => &super::kif::KI2,
            Format::Csa => &super::kif::CSA,
        }
    }

    /// The format a file name's extension names (`.sgf`, `.pgn`, `.kif`/`.kifu`,
    /// `.ki2`/`.ki2u`, `.csa`).
    ///
    /// ```
    /// use qiyuan::record::Format;
    /// assert_eq!(Format::from_name("game.KIFU"), Some(Format::Kif));
    /// assert_eq!(Format::from_name("game.txt"), None);
    /// ```
    pub fn from_name(name: &str) -> Option<Format> {
        let extension = name.rsplit_once('.')?.1.to_ascii_lowercase();
        Format::ALL
            .into_iter()
            .find(|f| f.kind().extensions.contains(&extension.as_str()))
    }

    /// The format its usual extension names: `sgf`, `kif`.
    pub fn from_slug(slug: &str) -> Option<Format> {
        Format::ALL.into_iter().find(|f| f.extension() == slug)
    }

    /// The game whose records the format holds (the first game that lists it).
    pub fn game(self) -> Game {
        Game::ALL
            .into_iter()
            .find(|g| g.kind().record_formats.contains(&self.extension()))
            .unwrap_or(Game::ALL[0])
    }

    /// The usual file extension, without the dot.
    pub fn extension(self) -> &'static str {
        self.kind().extensions[0]
    }

    /// The format's name: `SGF`, `PGN`, `KIF`, `KI2`, `CSA`.
    pub fn as_str(self) -> &'static str {
        self.kind().name
    }

    /// The media type of a download: `application/x-go-sgf; charset=utf-8`.
    pub fn mime(self) -> &'static str {
        self.kind().mime
    }

    /// The formats `game`'s records are written in, the usual one first.
    pub fn of(game: Game) -> Vec<Format> {
        game.kind()
            .record_formats
            .iter()
            .filter_map(|slug| Format::from_slug(slug))
            .collect()
    }

    /// The format a played game downloads as: SGF for Go, PGN for chess, KIF for shogi.
    pub fn of_game(game: Game) -> Format {
        Format::of(game)[0]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_game_writes_in_formats_that_exist_and_name_it() {
        for game in Game::ALL {
            let formats = Format::of(game);
            assert_eq!(formats.len(), game.kind().record_formats.len());
            for f in formats {
                assert_eq!(f.game(), game);
            }
        }
        for f in Format::ALL {
            assert!(Format::of(f.game()).contains(&f));
        }
    }
}
