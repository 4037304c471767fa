//! The two languages every learner-facing word exists in.

use std::fmt;

/// A language of the interface and the content.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Lang {
    /// 简体中文, the default.
    Zh,
    /// English.
    En,
}

impl Lang {
    /// Both languages, Chinese first.
    pub const ALL: [Lang; 2] = [Lang::Zh, Lang::En];

    /// The language code used in URLs, file names and `lang` attributes (`zh`, `en`).
    pub fn code(self) -> &'static str {
        match self {
            Lang::Zh => "zh",
            Lang::En => "en",
        }
    }

    /// Reads a code such as `zh`, `zh-CN` or `en-GB`.
    pub fn parse(code: &str) -> Option<Lang> {
        let primary = code.trim().split(['-', '_']).next()?.to_ascii_lowercase();
        match primary.as_str() {
            "zh" => Some(Lang::Zh),
            "en" => Some(Lang::En),
            _ => None,
        }
    }

    /// The other language.
    pub fn other(self) -> Lang {
        match self {
            Lang::Zh => Lang::En,
            Lang::En => Lang::Zh,
        }
    }
}

impl fmt::Display for Lang {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}
