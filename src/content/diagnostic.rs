//! Problems found in content files, with the place they were found.

use std::fmt;
use std::ops::Range;

/// One problem in a content file: where it is and how to fix it.
///
/// Displays as `path:line:col: error: message`, the form editors and terminals link to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    /// The file, relative to the content folder, with `/` separators.
    pub path: String,
    /// Line, from 1.
    pub line: usize,
    /// Column in characters, from 1.
    pub col: usize,
    /// What is wrong, and how to put it right.
    pub message: String,
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}:{}:{}: error: {}",
            self.path, self.line, self.col, self.message
        )
    }
}

/// Turns byte offsets of one file into lines and columns.
pub struct Locator<'a> {
    path: &'a str,
    text: &'a str,
}

impl<'a> Locator<'a> {
    /// A locator for `text`, the contents of `path`.
    pub fn new(path: &'a str, text: &'a str) -> Locator<'a> {
        Locator { path, text }
    }

    /// The file's path.
    pub fn path(&self) -> &str {
        self.path
    }

    /// The file's whole text.
    pub fn contents(&self) -> &'a str {
        self.text
    }

    /// The line and column (both from 1, column in characters) of byte `offset`.
    pub fn line_col(&self, offset: usize) -> (usize, usize) {
        let mut offset = offset.min(self.text.len());
        while !self.text.is_char_boundary(offset) {
            offset -= 1;
        }
        let before = &self.text[..offset];
        let line = before.matches('\n').count() + 1;
        let line_start = before.rfind('\n').map_or(0, |i| i + 1);
        let col = before[line_start..].chars().count() + 1;
        (line, col)
    }

    /// The text between two byte offsets (clamped to the file).
    pub fn slice(&self, range: std::ops::Range<usize>) -> &'a str {
        let end = range.end.min(self.text.len());
        self.text.get(range.start.min(end)..end).unwrap_or("")
    }

    /// A diagnostic at byte `offset`.
    pub fn at(&self, offset: usize, message: impl Into<String>) -> Diagnostic {
        let (line, col) = self.line_col(offset);
        Diagnostic {
            path: self.path.to_string(),
            line,
            col,
            message: message.into(),
        }
    }
}

/// Where a TOML text sits in its file, to turn spans into lines and columns.
pub(crate) struct Ctx<'a> {
    pub loc: &'a Locator<'a>,
    /// Byte offset of the TOML text within the file.
    pub base: usize,
}

impl Ctx<'_> {
    /// The file's text between two offsets of the TOML text.
    pub fn text(&self, span: Range<usize>) -> &str {
        self.loc.slice(self.base + span.start..self.base + span.end)
    }

    pub fn err(&self, span: Range<usize>, message: impl Into<String>) -> Diagnostic {
        self.loc.at(self.base + span.start, message)
    }

    /// The diagnostic for a TOML syntax or shape error.
    pub fn toml_error(&self, e: &toml::de::Error) -> Diagnostic {
        let start = e.span().map_or(0, |s| s.start);
        self.loc
            .at(self.base + start, e.message().trim().to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_lines_and_characters() {
        let text = "first\n第二行 x\nthird";
        let loc = Locator::new("a.md", text);
        assert_eq!(loc.line_col(0), (1, 1));
        let x = text.find('x').unwrap();
        assert_eq!(loc.line_col(x), (2, 5));
        assert_eq!(
            loc.at(x, "bad").to_string(),
            "a.md:2:5: error: bad".to_string()
        );
    }
}
