//! Shogi notation as learners read it: `☗７六歩`, and squares the Chinese and Japanese way (`5五`).

use super::{Color, Played, Square};

const FILES: [&str; 9] = ["１", "２", "３", "４", "５", "６", "７", "８", "９"];
const RANKS: [&str; 9] = ["一", "二", "三", "四", "五", "六", "七", "八", "九"];

/// A move in the notation learners read: `☗７六歩`, `☖２二角成`, `☗５五歩打`.
///
/// ```
/// use qiyuan::rules::shogi::{japanese, Color, Position};
/// let (_, played) = Position::start().play("7g7f").unwrap();
/// assert_eq!(japanese(&played, Color::Black), "☗７六歩");
/// ```
pub fn japanese(played: &Played, mover: Color) -> String {
    let mark = if mover == Color::Black { "☗" } else { "☖" };
    let piece = played.drop.unwrap_or(played.kind).kanji(mover);
    let suffix = if played.drop.is_some() {
        "打"
    } else if played.promote {
        "成"
    } else {
        ""
    };
    format!(
        "{mark}{}{}{piece}{suffix}",
        FILES[played.to.file as usize - 1],
        RANKS[played.to.rank as usize - 1]
    )
}

/// A square as Chinese and Japanese books write it: file digit, rank kanji (`5e` → `5五`).
///
/// ```
/// use qiyuan::rules::shogi::{kanji_square, Square};
/// assert_eq!(kanji_square(Square::parse("5e").unwrap()), "5五");
/// assert_eq!(kanji_square(Square::parse("1a").unwrap()), "1一");
/// ```
pub fn kanji_square(square: Square) -> String {
    format!("{}{}", square.file, RANKS[square.rank as usize - 1])
}
