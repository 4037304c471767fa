//! The games the trainer teaches, by name.

use super::kind::GameKind;
use crate::lang::Lang;
use serde::Deserialize;

/// A game the trainer teaches.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Game {
    /// 围棋.
    Go,
    /// 国际象棋.
    Chess,
    /// 将棋.
    Shogi,
}

impl Game {
    /// Every game, in the order they are listed.
    pub const ALL: [Game; 3] = [Game::Go, Game::Chess, Game::Shogi];

    /// What the game is and has: the registry, one line a game.
    pub fn kind(self) -> &'static GameKind {
        match self {
            Game::Go => &super::go::KIND,
            Game::Chess => &super::chess::KIND,
            Game::Shogi => &super::shogi::KIND,
        }
    }

    /// The name used in addresses and folders: `go`.
    pub fn slug(self) -> &'static str {
        self.kind().slug
    }

    /// The game from its slug.
    pub fn from_slug(slug: &str) -> Option<Game> {
        Game::ALL.into_iter().find(|g| g.slug() == slug)
    }

    /// The game's name in `lang`.
    pub fn name(self, lang: Lang) -> &'static str {
        self.kind().name(lang)
    }
}

/// A game is read from its slug (in addresses: `/go/…`).
impl<'de> Deserialize<'de> for Game {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Game, D::Error> {
        let slug = String::deserialize(d)?;
        Game::from_slug(&slug).ok_or_else(|| {
            serde::de::Error::custom(format!(
                "unknown game `{slug}`: use {}",
                Game::ALL.map(|g| g.slug()).join(", ")
            ))
        })
    }
}
