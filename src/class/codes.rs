//! Students' login codes: three pictures a child can find on a card and click, each with a
//! word in Chinese and in English for those who type.

use crate::lang::Lang;
use std::fmt;

/// The pictures of codes: an emoji (read back when a student pastes one) and its word in zh
/// and en; the English word also names its drawing, `static/pictures/{en}.svg`, the picture
/// shown to people (an emoji is an empty box without a colour-emoji font). Kept in this order
/// forever (a code is stored as the pictures' numbers).
pub const PICTURES: [(&str, &str, &str); 32] = [
    ("🍎", "苹果", "apple"),
    ("🐱", "猫", "cat"),
    ("🐶", "狗", "dog"),
    ("🐟", "鱼", "fish"),
    ("🌙", "月亮", "moon"),
    ("⭐", "星星", "star"),
    ("🌸", "花", "flower"),
    ("🚗", "汽车", "car"),
    ("🐼", "熊猫", "panda"),
    ("🐰", "兔子", "rabbit"),
    ("🍌", "香蕉", "banana"),
    ("🐸", "青蛙", "frog"),
    ("🦋", "蝴蝶", "butterfly"),
    ("🌳", "树", "tree"),
    ("🌞", "太阳", "sun"),
    ("🐦", "小鸟", "bird"),
    ("🍉", "西瓜", "melon"),
    ("🚀", "火箭", "rocket"),
    ("🐢", "乌龟", "turtle"),
    ("🎈", "气球", "balloon"),
    ("🐘", "大象", "elephant"),
    ("🍓", "草莓", "strawberry"),
    ("🐯", "老虎", "tiger"),
    ("🐵", "猴子", "monkey"),
    ("⛵", "帆船", "boat"),
    ("🐝", "蜜蜂", "bee"),
    ("🦆", "鸭子", "duck"),
    ("🍇", "葡萄", "grapes"),
    ("🐮", "奶牛", "cow"),
    ("🐑", "绵羊", "sheep"),
    ("🐴", "小马", "horse"),
    ("🍊", "橘子", "orange"),
];

/// How many pictures a code has: 32³ = 32,768 codes a name, and logins are rate-limited.
pub const LENGTH: usize = 3;

/// A student's code: [`LENGTH`] pictures, by their numbers in [`PICTURES`].
///
/// ```
/// use qiyuan::class::PictureCode;
/// let code = PictureCode::parse("cat 苹果 🌙").unwrap();
/// assert_eq!(code.to_string(), "1-0-4");
/// assert_eq!(code.words(qiyuan::lang::Lang::En), "cat apple moon");
/// assert_eq!(PictureCode::parse("1-0-4"), Some(code));
/// assert!(PictureCode::parse("cat apple").is_none());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PictureCode(pub [u8; LENGTH]);

impl PictureCode {
    /// A random code.
    pub fn random() -> PictureCode {
        let mut code = [0u8; LENGTH];
        for c in code.iter_mut() {
            *c = crate::random::below(PICTURES.len() as u32) as u8;
        }
        PictureCode(code)
    }

    /// Reads a code as stored (`1-0-4`), or as a student types or clicks it: pictures, zh or
    /// en words, separated by spaces, commas or dashes (case and width do not matter).
    pub fn parse(s: &str) -> Option<PictureCode> {
        let mut out = Vec::with_capacity(LENGTH);
        let mut rest = s.trim();
        while !rest.is_empty() {
            rest = rest.trim_start_matches(|c: char| {
                c.is_whitespace() || matches!(c, ',' | '，' | '、' | '-' | '·')
            });
            if rest.is_empty() {
                break;
            }
            let digits: String = rest.chars().take_while(|c| c.is_ascii_digit()).collect();
            if !digits.is_empty() {
                let n: usize = digits.parse().ok()?;
                if n >= PICTURES.len() {
                    return None;
                }
                out.push(n as u8);
                rest = &rest[digits.len()..];
                continue;
            }
            let lower = rest.to_lowercase();
            // The longest word first: 小马 before 马-like prefixes.
            let (n, len) = PICTURES
                .iter()
                .enumerate()
                .flat_map(|(i, (pic, zh, en))| [(i, *pic), (i, *zh), (i, *en)])
                .filter(|(_, w)| lower.starts_with(&w.to_lowercase()))
                .map(|(i, w)| (i, w.len()))
                .max_by_key(|(_, len)| *len)?;
            out.push(n as u8);
            // Lowercasing keeps byte lengths for these words (ASCII, CJK, emoji).
            rest = &rest[len..];
            // A variation selector after an emoji.
            rest = rest.trim_start_matches('\u{fe0f}');
        }
        <[u8; LENGTH]>::try_from(out.as_slice())
            .ok()
            .map(PictureCode)
    }

    /// The pictures as shown: each drawing's file name (`static/pictures/{file}.svg`) and its
    /// word in a language (`("cat", "猫")`).
    pub fn drawings(&self, lang: Lang) -> Vec<(&'static str, &'static str)> {
        self.0
            .iter()
            .map(|&i| {
                let (_, zh, en) = PICTURES[i as usize];
                (
                    en,
                    match lang {
                        Lang::Zh => zh,
                        Lang::En => en,
                    },
                )
            })
            .collect()
    }

    /// The words in a language (`猫 苹果 月亮`, `cat apple moon`).
    pub fn words(&self, lang: Lang) -> String {
        self.0
            .iter()
            .map(|&i| {
                let (_, zh, en) = PICTURES[i as usize];
                match lang {
                    Lang::Zh => zh,
                    Lang::En => en,
                }
            })
            .collect::<Vec<_>>()
            .join(" ")
    }
}

impl fmt::Display for PictureCode {
    /// The stored spelling: the pictures' numbers joined by `-`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let parts: Vec<String> = self.0.iter().map(|n| n.to_string()).collect();
        f.write_str(&parts.join("-"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_are_unique_and_no_word_is_another_with_more() {
        for (i, a) in PICTURES.iter().enumerate() {
            for b in &PICTURES[i + 1..] {
                assert_ne!(a.0, b.0);
                assert_ne!(a.1, b.1);
                assert_ne!(a.2, b.2);
            }
        }
    }

    #[test]
    fn every_picture_has_its_drawing() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("static/pictures");
        let c = PictureCode([0, 1, 31]);
        assert_eq!(
            c.drawings(Lang::Zh),
            [("apple", "苹果"), ("cat", "猫"), ("orange", "橘子")]
        );
        for (_, _, en) in PICTURES {
            assert!(
                dir.join(format!("{en}.svg")).is_file(),
                "no drawing for {en}"
            );
        }
    }

    #[test]
    fn every_code_reads_back_from_its_words_and_pictures() {
        for _ in 0..300 {
            let c = PictureCode::random();
            assert_eq!(PictureCode::parse(&c.words(Lang::Zh)), Some(c));
            assert_eq!(
                PictureCode::parse(&c.words(Lang::En).to_uppercase()),
                Some(c)
            );
            let emoji: String = c.0.iter().map(|&i| PICTURES[i as usize].0).collect();
            assert_eq!(PictureCode::parse(&emoji), Some(c));
            assert_eq!(PictureCode::parse(&c.to_string()), Some(c));
        }
    }

    #[test]
    fn refuses_unknown_words_and_wrong_lengths() {
        assert!(PictureCode::parse("cat dog dragon").is_none());
        assert!(PictureCode::parse("cat dog").is_none());
        assert!(PictureCode::parse("cat dog moon star").is_none());
        assert!(PictureCode::parse("1-2-99").is_none());
        assert!(PictureCode::parse("").is_none());
    }
}
