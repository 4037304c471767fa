//! Lessons: Markdown with TOML front matter and board diagrams.

use super::diagnostic::Ctx;
use super::diagnostic::{Diagnostic, Locator};
use super::board_game;
use super::chess::Chess;
use super::go;
use super::shogi::Shogi;
use super::Diagram;
use crate::lang::Lang;
use pulldown_cmark::{CodeBlockKind, Event, Options, Parser, Tag, TagEnd};
use serde::Deserialize;

/// One language version of a lesson.
#[derive(Clone, Debug)]
pub struct LessonText {
    /// The file, relative to the content folder.
    pub path: String,
    /// The title.
    pub title: String,
    /// A sentence shown in the lesson list.
    pub summary: Option<String>,
    /// Topic words.
    pub topics: Vec<String>,
    /// The body: HTML and the places of diagrams.
    pub body: Vec<Segment>,
    /// The diagrams, in order.
    pub diagrams: Vec<Diagram>,
}

/// A piece of a lesson's body.
#[derive(Clone, Debug, PartialEq)]
pub enum Segment {
    /// HTML rendered from Markdown (raw HTML in the source is escaped).
    Html(String),
    /// The diagram with this index.
    Diagram(usize),
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FrontMatter {
    title: String,
    summary: Option<String>,
    #[serde(default)]
    topics: Vec<String>,
}

/// Reads a lesson file. Returns the lesson even when some diagrams are broken, with the errors.
pub(crate) fn parse(path: &str, text: &str, lang: Lang) -> (Option<LessonText>, Vec<Diagnostic>) {
    let loc = Locator::new(path, text);
    let mut errors = Vec::new();
    let Some(rest) = text.strip_prefix("+++") else {
        errors.push(loc.at(
            0,
            "a lesson starts with front matter: a line `+++`, then `title = \"…\"`, then `+++`",
        ));
        return (None, errors);
    };
    let Some(end) = rest.find("\n+++") else {
        errors.push(loc.at(
            0,
            "the front matter is not closed: add a line `+++` after it",
        ));
        return (None, errors);
    };
    let fm_start = 3;
    let fm_text = &rest[..end];
    let ctx = Ctx {
        loc: &loc,
        base: fm_start,
    };
    let front: FrontMatter = match toml::from_str(fm_text) {
        Ok(f) => f,
        Err(e) => {
            errors.push(ctx.toml_error(&e));
            return (None, errors);
        }
    };
    let mut body_start = fm_start + end + 4;
    // Skip the rest of the closing `+++` line.
    body_start += text[body_start..]
        .find('\n')
        .map_or(text.len() - body_start, |i| i + 1);
    let body = &text[body_start..];

    let mut segments = Vec::new();
    let mut diagrams = Vec::new();
    let mut events: Vec<Event> = Vec::new();
    let mut in_diagram: Option<(String, Option<String>, usize, String)> = None;
    let options = Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH;
    for (event, range) in Parser::new_ext(body, options).into_offset_iter() {
        if let Some((_, _, start, code)) = &mut in_diagram {
            match event {
                Event::Text(t) => {
                    if code.is_empty() {
                        *start = range.start;
                    }
                    code.push_str(&t);
                }
                Event::End(TagEnd::CodeBlock) => {
                    let (kind, id, start, code) = in_diagram.take().unwrap();
                    let ctx = Ctx {
                        loc: &loc,
                        base: body_start + start,
                    };
                    let result = match kind.as_str() {
                        "goban" => go::diagram(&ctx, &code, id, lang),
                        "chess" => board_game::diagram::<Chess>(&ctx, &code, id, lang),
                        "shogi" => board_game::diagram::<Shogi>(&ctx, &code, id, lang),
                        _ => unreachable!("only known kinds start a diagram"),
                    };
                    match result {
                        Ok(d) => {
                            flush(&mut events, &mut segments);
                            segments.push(Segment::Diagram(diagrams.len()));
                            diagrams.push(d);
                        }
                        Err(e) => errors.push(e),
                    }
                }
                _ => {}
            }
            continue;
        }
        match event {
            Event::Start(Tag::CodeBlock(CodeBlockKind::Fenced(ref info)))
                if matches!(
                    info.split_whitespace().next(),
                    Some("goban" | "chess" | "shogi")
                ) =>
            {
                let kind = info
                    .split_whitespace()
                    .next()
                    .unwrap_or_default()
                    .to_string();
                let mut id = None;
                for word in info.split_whitespace().skip(1) {
                    match word.strip_prefix("id=") {
                        Some(v) if !v.is_empty() => id = Some(v.to_string()),
                        _ => errors.push(loc.at(
                            body_start + range.start,
                            format!("unknown diagram option `{word}`: only `id=NAME` may follow the board kind"),
                        )),
                    }
                }
                in_diagram = Some((kind, id, range.start, String::new()));
            }
            // Raw HTML is shown as text, never interpreted.
            Event::Html(h) | Event::InlineHtml(h) => events.push(Event::Text(h)),
            other => events.push(other),
        }
    }
    flush(&mut events, &mut segments);
    (
        Some(LessonText {
            path: path.to_string(),
            title: front.title,
            summary: front.summary,
            topics: front.topics,
            body: segments,
            diagrams,
        }),
        errors,
    )
}

fn flush(events: &mut Vec<Event>, segments: &mut Vec<Segment>) {
    if events.is_empty() {
        return;
    }
    let mut html = String::new();
    pulldown_cmark::html::push_html(&mut html, events.drain(..));
    segments.push(Segment::Html(html));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_body_around_diagrams() {
        let text = "+++\ntitle = \"T\"\n+++\nHello *there*.\n\n```goban\nsize = 5\n[[steps]]\nplay = \"C3\"\n```\n\nBye <b>now</b>.\n";
        let (lesson, errors) = parse("l.en.md", text, Lang::En);
        assert!(errors.is_empty(), "{errors:?}");
        let lesson = lesson.unwrap();
        assert_eq!(lesson.title, "T");
        assert_eq!(lesson.diagrams.len(), 1);
        assert_eq!(lesson.diagrams[0].frames.len(), 2);
        assert!(matches!(&lesson.body[0], Segment::Html(h) if h.contains("<em>there</em>")));
        assert_eq!(lesson.body[1], Segment::Diagram(0));
        assert!(matches!(&lesson.body[2], Segment::Html(h) if h.contains("&lt;b&gt;")));
    }

    #[test]
    fn reports_line_of_illegal_step() {
        let text = "+++\ntitle = \"T\"\n+++\n\n```goban\nsize = 5\nboard = \"\"\"\n.....\n..X..\n.....\n.....\n.....\n\"\"\"\n[[steps]]\nplay = \"C4\"\n```\n";
        let (_, errors) = parse("l.en.md", text, Lang::En);
        assert_eq!(errors.len(), 1);
        assert_eq!(errors[0].line, 15, "{}", errors[0]);
        assert!(errors[0].message.contains("step 1"), "{}", errors[0]);
    }
}
