//! Text written in both languages: what every learner reads exists in 简体中文 and English.

use crate::lang::Lang;
use serde::{Deserialize, Serialize};

/// The same words in Chinese and English: `{ zh = "…", en = "…" }` in TOML,
/// `{"zh": …, "en": …}` in JSON.
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Text {
    /// 简体中文.
    pub zh: String,
    /// English.
    pub en: String,
}

impl Text {
    /// `zh` and `en`.
    pub fn new(zh: impl Into<String>, en: impl Into<String>) -> Text {
        Text {
            zh: zh.into(),
            en: en.into(),
        }
    }

    /// The text in `lang`.
    pub fn get(&self, lang: Lang) -> &str {
        match lang {
            Lang::Zh => &self.zh,
            Lang::En => &self.en,
        }
    }

    /// The same text in both languages (for names such as `D4`).
    pub fn both(s: impl Into<String>) -> Text {
        let s = s.into();
        Text {
            zh: s.clone(),
            en: s,
        }
    }

    /// The text `say` gives in each language (an engine's explanation).
    pub fn from_fn(say: impl Fn(Lang) -> String) -> Text {
        Text {
            zh: say(Lang::Zh),
            en: say(Lang::En),
        }
    }
}
