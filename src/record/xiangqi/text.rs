//! The small pieces of reading PGN text: a cursor that knows its line and column, tag
//! values, move numbers, and moves written with traditional or full-width characters.

/// The text with the line and column of the next character.
pub(super) struct Cursor<'t> {
    pub text: &'t str,
    /// The byte offset of the next character.
    pub pos: usize,
    pub line: usize,
    pub col: usize,
}

impl<'t> Cursor<'t> {
    /// The text from the next character on.
    pub fn rest(&self) -> &'t str {
        self.text.get(self.pos..).unwrap_or("")
    }

    pub fn peek(&self) -> Option<char> {
        self.rest().chars().next()
    }

    pub fn next(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.pos += c.len_utf8();
        if c == '\n' {
            self.line += 1;
            self.col = 1;
        } else {
            self.col += 1;
        }
        Some(c)
    }

    /// Characters up to (not including) the first for which `stop` holds.
    pub fn take_until(&mut self, stop: impl Fn(char) -> bool) -> &'t str {
        let start = self.pos;
        while self.peek().is_some_and(|c| !stop(c)) {
            self.next();
        }
        self.text.get(start..self.pos).unwrap_or("")
    }

    /// Moves on by `bytes` bytes (a character boundary of the rest).
    pub fn skip_bytes(&mut self, bytes: usize) {
        let end = self.pos + bytes;
        while self.pos < end && self.next().is_some() {}
    }
}

/// A tag's value, from the text after its opening `"`: up to the `"` that is followed by
/// `]` and then the line's end or another tag. Quotes inside a value are often left
/// unescaped (`[Event "1999年"中视股份杯"象棋年度总决赛"]`); they are kept.
pub(super) fn value_end(rest: &str) -> Option<&str> {
    let mut backslashes = 0;
    for (i, c) in rest.char_indices() {
        if c == '\n' {
            return None;
        }
        if c == '"' && backslashes % 2 == 0 {
            let mut after = rest[i + 1..].chars().skip_while(|&c| c == ' ' || c == '\t');
            if after.next() == Some(']') {
                let mut tail = after.skip_while(|&c| c == ' ' || c == '\t');
                if matches!(tail.next(), None | Some('\n' | '\r' | '[')) {
                    return Some(&rest[..i]);
                }
            }
        }
        backslashes = if c == '\\' { backslashes + 1 } else { 0 };
    }
    None
}

/// A tag value with PGN's escapes `\"` and `\\` undone.
pub(super) fn unescape(raw: &str) -> String {
    let mut out = String::with_capacity(raw.len());
    let mut chars = raw.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            if let Some(next) = chars.next() {
                out.push(next);
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// Whether a `Game` or `Variant` tag's value names xiangqi (or is empty): it is 象棋, or
/// contains `xiangqi`, `xiang qi`, `chinese chess` (any case), 中国象棋 or 中國象棋 (not
/// 国际象棋, chess, nor 日本象棋, shogi).
pub(super) fn names_xiangqi(value: &str) -> bool {
    let v = value.trim().to_lowercase();
    let names = [
        "chinese chess",
        "xiangqi",
        "xiang qi",
        "中国象棋",
        "中國象棋",
    ];
    v.is_empty() || v == "象棋" || names.iter().any(|n| v.contains(n))
}

/// The token without a move number in front (`12.`, `12...`, `12…`, `１２．`); WXF's
/// middle-soldier move `33.4` is left whole.
pub(super) fn without_move_number(token: &str) -> &str {
    let digits = token.len()
        - token
            .trim_start_matches(|c: char| c.is_ascii_digit() || ('０'..='９').contains(&c))
            .len();
    let rest = &token[digits..];
    let after = rest.trim_start_matches(['.', '．', '…', '。']);
    if digits == 0 || after.len() == rest.len() {
        return token;
    }
    let wxf_middle = digits == 2 && rest.len() - after.len() == 1 && after.len() == 1;
    if wxf_middle && token.as_bytes()[0] == token.as_bytes()[1] {
        return token;
    }
    after
}

/// A move written with full-width letters and digits, traditional or variant characters,
/// as the notation reader takes it: ASCII, and simplified characters.
///
/// ```text
/// 馬８進７ → 马8进7     後車退一 → 后车退一     Ｃ２＝５ → C2=5
/// ```
pub(super) fn simplified(text: &str) -> String {
    text.chars()
        .map(|c| match c {
            '\u{ff01}'..='\u{ff5e}' => char::from_u32(c as u32 - 0xfee0).unwrap_or(c),
            '車' | '俥' => '车',
            '馬' | '傌' => '马',
            '砲' | '包' => '炮',
            '帥' => '帅',
            '將' => '将',
            '進' => '进',
            '後' => '后',
            _ => c,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn move_numbers_are_taken_off_and_wxf_middle_soldiers_kept() {
        assert_eq!(without_move_number("12."), "");
        assert_eq!(without_move_number("12...马8进7"), "马8进7");
        assert_eq!(without_move_number("１２．炮二平五"), "炮二平五");
        assert_eq!(without_move_number("3…"), "");
        assert_eq!(without_move_number("33.4"), "33.4");
        assert_eq!(without_move_number("C2.5"), "C2.5");
    }

    #[test]
    fn traditional_and_full_width_moves_become_simplified_ascii() {
        assert_eq!(simplified("馬８進７"), "马8进7");
        assert_eq!(simplified("後車退一"), "后车退一");
        assert_eq!(simplified("Ｃ２＝５"), "C2=5");
        assert_eq!(simplified("傌二進三"), "马二进三");
    }

    #[test]
    fn tag_values_end_at_the_quote_before_the_bracket() {
        assert_eq!(value_end("a \\\"b\"] [x"), Some("a \\\"b"));
        assert_eq!(value_end("1999年\"杯\"赛\"]\n"), Some("1999年\"杯\"赛"));
        assert_eq!(value_end("never closed\n\"]"), None);
        assert_eq!(unescape("a \\\"b\\\\"), "a \"b\\");
        assert!(names_xiangqi("Chinese Chess") && names_xiangqi("中國象棋"));
        assert!(names_xiangqi("Xiangqi (Chinese Chess)"));
        assert!(!names_xiangqi("Chess") && !names_xiangqi("janggi") && !names_xiangqi("将棋"));
        assert!(!names_xiangqi("国际象棋") && !names_xiangqi("日本象棋"));
    }
}
