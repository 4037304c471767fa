//! The games the trainer teaches, by name.

use super::kind::GameKind;
use crate::lang::Lang;
use serde::Deserialize;

/// Makes [`Game`] from the registry, with [`Game::ALL`] and [`Game::kind`].
macro_rules! games {
    ($($game:ident $module:ident,)*) => {
        /// A game the trainer teaches: one variant a line of the registry
        /// (`for_each_game!` in `lib.rs`).
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum Game {
            $(
                #[doc = concat!("The game of `", stringify!($module), "`: see its descriptor.")]
                $game,
            )*
        }

        impl Game {
            /// Every game, in the order of the registry.
            pub const ALL: [Game; [$(Game::$game),*].len()] = [$(Game::$game),*];

            /// What the game is and has: its descriptor, `KIND` in its own file of `base`.
            pub fn kind(self) -> &'static GameKind {
                match self {
                    $(Game::$game => &super::$module::KIND,)*
                }
            }
        }
    };
}

for_each_game!(games);

impl Game {
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
