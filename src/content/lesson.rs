//! Lessons: Markdown with TOML front matter and board diagrams.

use super::diagnostic::Ctx;
use super::diagnostic::{Diagnostic, Locator};
use super::puzzle::plugin;
use super::Diagram;
use crate::base::Game;
use crate::lang::Lang;
use pulldown_cmark::{CodeBlockKind, Event, Options, Parser, Tag, TagEnd};
use serde::Deserialize;

/// The game whose diagram a fenced block's info string (`chess id=start`) opens: its first
/// word is the game's lesson fence (`goban`, `chess` …).
fn fenced_game(info: &str) -> Option<Game> {
    let fence = info.split_whitespace().next()?;
    Game::ALL
        .into_iter()
        .find(|g| g.kind().lesson_fence == fence)
}

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
///
/// A UTF-8 byte-order mark and CRLF line endings (files saved on Windows) are accepted: the
/// text is read as if it had neither, which keeps every line and column of an error the same.
pub(crate) fn parse(path: &str, text: &str, lang: Lang) -> (Option<LessonText>, Vec<Diagnostic>) {
    let text = super::source::normalise(text);
    let text: &str = &text;
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
    let mut in_diagram: Option<(Game, Option<String>, usize, String)> = None;
    // For each open link or image: whether its address was refused.
    let mut refused: Vec<bool> = Vec::new();
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
                    let Some((game, id, start, code)) = in_diagram.take() else {
                        continue;
                    };
                    let ctx = Ctx {
                        loc: &loc,
                        base: body_start + start,
                    };
                    let result = (plugin(game).diagram)(&ctx, &code, id, lang);
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
                if fenced_game(info).is_some() =>
            {
                let Some(game) = fenced_game(info) else {
                    continue;
                };
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
                in_diagram = Some((game, id, range.start, String::new()));
            }
            // Raw HTML is shown as text, never interpreted.
            Event::Html(h) | Event::InlineHtml(h) => events.push(Event::Text(h)),
            // A link or image to anything but the web, mail or this site is shown as its
            // text: its start and end are left out, what is between them stays.
            Event::Start(Tag::Link { ref dest_url, .. } | Tag::Image { ref dest_url, .. }) => {
                let safe = is_safe_url(dest_url);
                refused.push(!safe);
                if safe {
                    events.push(event);
                }
            }
            Event::End(TagEnd::Link | TagEnd::Image) => {
                if !refused.pop().unwrap_or(false) {
                    events.push(event);
                }
            }
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

/// Whether a link or image address may be kept: `http`, `https`, `mailto`, or an address
/// with no scheme (relative, in-page, `//host`). Checked as a browser reads it, after
/// pulldown-cmark has decoded entities and escapes: tabs and newlines anywhere and control
/// characters and spaces at the ends are ignored, and case does not count.
///
/// ```text
/// https://example.org/a   kept          ../captures#d1   kept
/// mailto:teacher@school   kept          #d2              kept
/// javascript:alert(1)     refused       JaVa\tScRiPt:…    refused
/// data:text/html,…        refused       vbscript:…       refused
/// ```
pub(crate) fn is_safe_url(url: &str) -> bool {
    let cleaned: String = url
        .trim_matches(|c: char| c <= ' ')
        .chars()
        .filter(|c| !matches!(c, '\t' | '\n' | '\r'))
        .collect();
    // A scheme is letters, digits, `+`, `-`, `.` before the first `:`, starting with a letter.
    let Some(colon) = cleaned.find(':') else {
        return true;
    };
    let before = &cleaned[..colon];
    if before.contains(['/', '?', '#']) {
        return true; // the colon is in the path, query or fragment: a relative address
    }
    let scheme = before.to_ascii_lowercase();
    matches!(scheme.as_str(), "http" | "https" | "mailto")
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

    #[test]
    fn accepts_crlf_and_byte_order_mark() {
        let unix = "+++\ntitle = \"T\"\n+++\nHello.\n\n```goban\nsize = 5\nboard = \"\"\"\n.....\n..X..\n.....\n.....\n.....\n\"\"\"\n[[steps]]\nplay = \"C4\"\n```\n";
        let windows = format!("\u{feff}{}", unix.replace('\n', "\r\n"));
        let (lesson, errors) = parse("l.en.md", &windows, Lang::En);
        // The same single error as without CR and BOM, at the same place.
        let (_, unix_errors) = parse("l.en.md", unix, Lang::En);
        assert_eq!(errors, unix_errors);
        assert_eq!(errors.len(), 1, "{errors:?}");
        assert_eq!((errors[0].line, errors[0].col), (16, 8), "{}", errors[0]);
        let lesson = lesson.expect("the lesson is read");
        assert_eq!(lesson.title, "T");
        let fine = "\u{feff}+++\r\ntitle = \"T\"\r\n+++\r\nHello.\r\n";
        let (lesson, errors) = parse("l.en.md", fine, Lang::En);
        assert!(errors.is_empty(), "{errors:?}");
        assert!(matches!(&lesson.unwrap().body[0], Segment::Html(h) if h == "<p>Hello.</p>\n"));
    }

    fn body_html(markdown: &str) -> String {
        let text = format!("+++\ntitle = \"T\"\n+++\n{markdown}\n");
        let (lesson, errors) = parse("l.en.md", &text, Lang::En);
        assert!(errors.is_empty(), "{errors:?}");
        lesson
            .unwrap()
            .body
            .iter()
            .map(|s| match s {
                Segment::Html(h) => h.clone(),
                Segment::Diagram(_) => String::new(),
            })
            .collect()
    }

    #[test]
    fn keeps_web_mail_and_relative_links() {
        for (md, href) in [
            (
                "[a](https://example.org/x?y=1)",
                "https://example.org/x?y=1",
            ),
            ("[a](HTTP://example.org)", "HTTP://example.org"),
            ("[a](mailto:t@school.example)", "mailto:t@school.example"),
            ("[a](../captures)", "../captures"),
            ("[a](#d2)", "#d2"),
            (
                "[a](/go/lessons/captures?s=0:1)",
                "/go/lessons/captures?s=0:1",
            ),
            ("<https://example.org>", "https://example.org"),
        ] {
            let html = body_html(md);
            assert!(html.contains(&format!("href=\"{href}\"")), "{md} → {html}");
        }
        assert!(body_html("![b](/static/favicon.svg)").contains("<img src=\"/static/favicon.svg\""));
    }

    #[test]
    fn shows_script_links_and_images_as_text() {
        for md in [
            "[click](javascript:alert(1))",
            "[click](JaVaScRiPt:alert(1))",
            "[click](&#106;avascript:alert(1))",
            "[click](&#x6A;avascript&#x3A;alert(1))",
            "[click](java&#9;script:alert(1))",
            "[click](java&#10;script:alert(1))",
            "[click](&#14;javascript:alert(1))",
            "[click](<javascript:alert(1)>)",
            "[click](vbscript:msgbox(1))",
            "[click](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)",
            "[click][r]\n\n[r]: javascript:alert(1)",
            "<javascript:alert(1)>",
            "![click](javascript:alert(1))",
            "![click](data:image/svg+xml,<svg onload=alert(1)>)",
            "[![click](https://example.org/i.png)](javascript:alert(1))",
        ] {
            let html = body_html(md);
            let lower = html.to_ascii_lowercase();
            assert!(!lower.contains("<a "), "{md} → {html}");
            assert!(
                !lower.contains("href=\"javascript") && !lower.contains("src=\"javascript"),
                "{md} → {html}"
            );
            assert!(!lower.contains("src=\"data"), "{md} → {html}");
            assert!(
                html.contains("click") || html.contains("javascript:alert(1)"),
                "{md}: the text stays → {html}"
            );
        }
    }

    #[test]
    fn refuses_every_scheme_but_web_and_mail() {
        for url in [
            "javascript:x",
            " \u{1}javascript:x",
            "ja\tvas\ncript:x",
            "file:///etc/passwd",
            "data:,x",
            "vbscript:x",
            "blob:x",
            "x:y",
        ] {
            assert!(!is_safe_url(url), "{url:?}");
        }
        for url in [
            "",
            "a",
            "a/b:c",
            "?q=a:b",
            "#a:b",
            "//example.org",
            "https://x",
            "MAILTO:x",
        ] {
            assert!(is_safe_url(url), "{url:?}");
        }
    }
}
