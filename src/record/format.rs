//! The record file formats: each format's data, reader and writer in one [`FormatKind`],
//! filled in the format's own file; each game lists the formats of its records in its own
//! file here (`FORMATS`), and [`Format::all`] gathers them through the registry of games.

use super::library::Summary;
use super::{Record, RecordError};
use crate::base::Game;
use std::fmt;

/// A record file format of one game: SGF for Go, PGN for chess, KIF for shogi …
#[derive(Clone, Copy)]
pub struct Format(&'static FormatKind);

/// What a record format is and does.
#[derive(Debug)]
pub struct FormatKind {
    /// The game whose records it holds.
    pub game: Game,
    /// The format's name: `SGF`.
    pub name: &'static str,
    /// The file extensions that name it, lower case, the usual one first: `kif`, `kifu`.
    pub extensions: &'static [&'static str],
    /// The media type of a download.
    pub mime: &'static str,
    /// For a format whose files hold many games: what goes between them when several are
    /// written.
    pub many_games: Option<&'static str>,
    /// Whether a file with one of the extensions is of this format, from its first bytes,
    /// when two games' formats share an extension (a PGN of chess or of another game).
    pub claims: fn(&[u8]) -> bool,
    /// Every game of a file (name, raw bytes, in any encoding the format allows).
    pub read: fn(&str, &[u8], Format) -> Result<Vec<Record>, RecordError>,
    /// A record as UTF-8 text (its game already checked to use the format).
    pub write: fn(&Record, Format) -> Result<String, RecordError>,
    /// The tags of every game of a file (raw bytes), without reading its moves.
    pub summarize: fn(&[u8]) -> Vec<Summary>,
}

/// Makes [`FORMATS`] from the registry of games.
macro_rules! formats {
    ($($game:ident $module:ident,)*) => {
        /// Every game's formats, in the order of the registry.
        static FORMATS: &[&[Format]] = &[$(super::$module::FORMATS,)*];
    };
}

for_each_game!(formats);

impl Format {
    /// The format `kind` describes.
    pub const fn new(kind: &'static FormatKind) -> Format {
        Format(kind)
    }

    /// Every format of every game, in the order of the registry.
    pub fn all() -> impl Iterator<Item = Format> {
        FORMATS.iter().flat_map(|formats| formats.iter().copied())
    }

    /// What the format is and does.
    pub fn kind(self) -> &'static FormatKind {
        self.0
    }

    /// The first format a file name's extension names (`.sgf`, `.pgn`, `.kif`/`.kifu`,
    /// `.ki2`/`.ki2u`, `.csa`); [`Format::for_file`] also looks at the file when games
    /// share an extension.
    ///
    /// ```
    /// use qiyuan::record::{kif, Format};
    /// assert_eq!(Format::from_name("game.KIFU"), Some(kif::KIF));
    /// assert_eq!(Format::from_name("game.txt"), None);
    /// ```
    pub fn from_name(name: &str) -> Option<Format> {
        Format::named(name).next()
    }

    /// The format of a file: the one its extension names, or, when several games' formats
    /// share it, the first that claims the bytes (else the first so named).
    pub fn for_file(name: &str, bytes: &[u8]) -> Option<Format> {
        let first = Format::from_name(name)?;
        Some(
            Format::named(name)
                .find(|f| (f.0.claims)(bytes))
                .unwrap_or(first),
        )
    }

    /// The formats a file name's extension names.
    fn named(name: &str) -> impl Iterator<Item = Format> {
        let extension = name
            .rsplit_once('.')
            .map(|(_, e)| e.to_ascii_lowercase())
            .unwrap_or_default();
        Format::all().filter(move |f| f.0.extensions.contains(&extension.as_str()))
    }

    /// The game whose records the format holds.
    pub fn game(self) -> Game {
        self.0.game
    }

    /// The usual file extension, without the dot.
    pub fn extension(self) -> &'static str {
        self.0.extensions[0]
    }

    /// The format's name: `SGF`, `PGN`, `KIF`, `KI2`, `CSA`.
    pub fn as_str(self) -> &'static str {
        self.0.name
    }

    /// The media type of a download: `application/x-go-sgf; charset=utf-8`.
    pub fn mime(self) -> &'static str {
        self.0.mime
    }

    /// The formats `game`'s records are written in, the usual one first.
    pub fn of(game: Game) -> Vec<Format> {
        Format::all().filter(|f| f.game() == game).collect()
    }

    /// The format a played game downloads as: the usual one of its game (SGF for Go, PGN
    /// for chess, KIF for shogi).
    pub fn of_game(game: Game) -> Format {
        Format::all()
            .find(|f| f.game() == game)
            .unwrap_or_else(|| Format::all().next().expect("the registry has a format"))
    }
}

/// Formats are the same when they are one [`FormatKind`].
impl PartialEq for Format {
    fn eq(&self, other: &Format) -> bool {
        std::ptr::eq(self.0, other.0)
    }
}

impl Eq for Format {}

impl fmt::Debug for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({})", self.0.name, self.0.game.slug())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_game_has_formats_that_name_it() {
        for game in Game::ALL {
            let formats = Format::of(game);
            assert!(!formats.is_empty(), "{game:?} has no record format");
            for f in formats {
                assert_eq!(f.game(), game);
            }
        }
        assert_eq!(Format::of_game(Game::Go).as_str(), "SGF");
    }
}
