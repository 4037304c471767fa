//! No script from content: OWASP XSS filter-evasion vectors put in every field an author or an
//! imported file controls (lesson bodies, titles, summaries, topics, captions, step texts,
//! labels, lesson tasks' instructions, hints, `done` and wrong-line texts, set titles and
//! summaries, prompts, hints, explanations, wrong-line texts, SGF comments) come out as text on every page, fragment and API reply; every response carries
//! the security headers. In headless Chromium (when `chromium` and `chromium-driver` are
//! installed, as `scripts/test.sh` does), the pages open with no dialog, no CSP violation
//! and no link or image to anything but the web, mail or this site.

mod common;

#[allow(dead_code)]
#[path = "browser/harness.rs"]
mod harness;

use axum::body::Body;
use axum::http::{header, Request, StatusCode};
use http_body_util::BodyExt;
use qiyuan::content::Library;
use qiyuan::web::{app, AppState};
use serde_json::{json, Value};
use std::collections::BTreeSet;
use tower::ServiceExt;

/// Vectors from the OWASP XSS filter-evasion cheat sheet and the usual SVG, MathML and
/// broken-tag tricks.
const VECTORS: &[&str] = &[
    "<script>alert('XSS')</script>",
    "<SCRIPT SRC=http://xss.rocks/xss.js></SCRIPT>",
    "<IMG SRC=\"javascript:alert('XSS');\">",
    "<IMG SRC=JaVaScRiPt:alert('XSS')>",
    "<IMG SRC=`javascript:alert(\"RSnake says, 'XSS'\")`>",
    "<IMG SRC=&#106;&#97;&#118;&#97;&#115;&#99;&#114;&#105;&#112;&#116;&#58;&#97;&#108;&#101;&#114;&#116;&#40;&#39;&#88;&#83;&#83;&#39;&#41;>",
    "<IMG SRC=&#x6A&#x61&#x76&#x61&#x73&#x63&#x72&#x69&#x70&#x74&#x3A&#x61&#x6C&#x65&#x72&#x74&#x28&#x27&#x58&#x53&#x53&#x27&#x29>",
    "<IMG SRC=\"jav\tascript:alert('XSS');\">",
    "<IMG SRC=\"jav&#x09;ascript:alert('XSS');\">",
    "<IMG SRC=\" &#14;  javascript:alert('XSS');\">",
    "<IMG \"\"\"><SCRIPT>alert(\"XSS\")</SCRIPT>\"\\>",
    "<img src=x onerror=alert(1)>",
    "<img src=x:alert(alt) onerror=eval(src) alt=0>",
    "<svg/onload=alert('XSS')>",
    "<svg><script>alert(1)</script></svg>",
    "<svg><a xlink:href=\"javascript:alert(1)\"><text x=\"20\" y=\"20\">XSS</text></a></svg>",
    "<svg><animate onbegin=alert(1) attributeName=x dur=1s>",
    "<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>",
    "<math href=\"javascript:alert(1)\">CLICKME</math>",
    "<BODY ONLOAD=alert('XSS')>",
    "<iframe src=\"javascript:alert(1)\"></iframe>",
    "<object data=\"data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==\"></object>",
    "<embed src=\"data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+\">",
    "<META HTTP-EQUIV=\"refresh\" CONTENT=\"0;url=javascript:alert('XSS');\">",
    "<BASE HREF=\"javascript:alert('XSS');//\">",
    "<a href=\"javascript:alert(1)\">x</a>",
    "<a href=\"&#x6A;avascript:alert(1)\">x</a>",
    "<div style=\"background-image: url(javascript:alert('XSS'))\">",
    "<details open ontoggle=alert(1)>",
    "<input autofocus onfocus=alert(1)>",
    "<x onmouseover=alert(1)>hover me",
    "\"><script>alert(1)</script>",
    "'><img src=x onerror=alert(1)>",
    "\" onmouseover=\"alert(1)",
    "' onfocus='alert(1)' autofocus='",
    "</title><script>alert(1)</script>",
    "</textarea><script>alert(1)</script>",
    "</script><script>alert(1)</script>",
    "<<SCRIPT>alert(\"XSS\");//\\<</SCRIPT>",
    "<scr<script>ipt>alert(1)</scr</script>ipt>",
    "<IMG SRC=\"javascript:alert('XSS')\"",
    "<!--<img src=\"--><img src=x onerror=alert(1)//\">",
    "<![CDATA[<script>alert(1)</script>]]>",
    "javascript:alert(1)",
    "\\\";alert(1);//",
    "[click](javascript:alert(1))",
    "[click](JaVaScRiPt:alert(1))",
    "[click](&#106;avascript:alert(1))",
    "[click](java&#9;script:alert(1))",
    "[click](<javascript:alert(1)>)",
    "[click](vbscript:msgbox(1))",
    "[click](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)",
    "<javascript:alert(1)>",
    "![click](javascript:alert(1))",
    "![click](data:image/svg+xml,<svg onload=alert(1)>)",
    "[![click](https://example.org/i.png)](javascript:alert(1))",
];

/// Short strings for Go labels (three characters at most).
const SHORT: &[&str] = &["<b>", "\"'>", "&#", "<a ", "\">"];

/// A content folder with every vector in every field, for the three games.
fn content() -> Vec<(String, String)> {
    let mut files = Vec::new();
    let n = VECTORS.len();
    for (i, v) in VECTORS.iter().enumerate() {
        let w = VECTORS[(i + 1) % n];
        let x = VECTORS[(i + 2) % n];
        let short = SHORT[i % SHORT.len()];
        // As TOML basic strings (a JSON string is one).
        let q = |s: &str| serde_json::to_string(s).unwrap();
        let (qv, qw, qx, qs) = (q(v), q(w), q(x), q(short));
        let body = format!(
            "{v}\n\n{w} and {x}\n\n- {v}\n\n> {w}\n\n| {v} | b |\n|---|---|\n| {x} | d |\n\n`{v}`\n\n```\n{w}\n```\n"
        );
        let go = format!(
            "+++\ntitle = {qv}\nsummary = {qw}\ntopics = [{qx}]\n+++\n```goban\nsize = 5\ncaption = {qw}\nlabels = {{ {qs} = \"B2\" }}\n[[steps]]\nplay = \"C3\"\nsay = {qx}\nlabels = {{ {qs} = \"D4\" }}\n[[steps]]\nsay = {qv}\ntask = {{ goal = \"best\", solutions = [\"D4\"], hint = {qw}, done = {qx}, wrong = [{{ line = \"B2\", why = {qv} }}] }}\n```\n\n```goban\ncaption = {qv}\nsensei = \"\"\"\n$$B\n$$ -----------\n$$ | . . . . . |\n$$ | . 1 . . . |\n$$ | . . a . . |\n$$ | . . . . . |\n$$ | . . . . . |\n$$ -----------\n\"\"\"\n```\n\n{body}"
        );
        let chess = format!(
            "+++\ntitle = {qv}\nsummary = {qw}\n+++\n```chess\ncaption = {qw}\nlabels = {{ {qv} = \"e4\" }}\n[[steps]]\nplay = \"e4\"\nsay = {qx}\n[[steps]]\nsay = {qv}\ntask = {{ goal = \"best\", solutions = [\"e5\"], hint = {qw}, done = {qx}, wrong = [{{ line = \"d5\", why = {qv} }}] }}\n```\n\n{body}"
        );
        let shogi = format!(
            "+++\ntitle = {qv}\nsummary = {qw}\n+++\n```shogi\ncaption = {qw}\nlabels = {{ {qv} = \"5e\" }}\n[[steps]]\nplay = \"7g7f\"\nsay = {qx}\n[[steps]]\nsay = {qv}\ntask = {{ goal = \"best\", solutions = [\"3c3d\"], hint = {qw}, done = {qx}, wrong = [{{ line = \"8c8d\", why = {qv} }}] }}\n```\n\n{body}"
        );
        for lang in ["zh", "en"] {
            files.push((format!("lessons/go/{i:02}-x{i}.{lang}.md"), go.clone()));
            files.push((
                format!("lessons/chess/{i:02}-x{i}.{lang}.md"),
                chess.clone(),
            ));
            files.push((
                format!("lessons/shogi/{i:02}-x{i}.{lang}.md"),
                shogi.clone(),
            ));
        }
        let text = |s: &str| format!("{{ zh = {}, en = {} }}", q(s), q(s));
        let head = format!(
            "[set]\ntitle = {}\nsummary = {}\nlesson = \"x{i}\"\n\n[[problem]]\nid = \"1\"\nprompt = {}\nhint = {}\nexplanation = {}\ngoal = \"best\"\ndifficulty = 1\n",
            text(v),
            text(w),
            text(x),
            text(v),
            text(w)
        );
        let why = format!("why = {}\n", text(x));
        files.push((
            format!("problems/go/x{i}.toml"),
            format!("{head}size = 5\nsolutions = [\"C3\"]\n\n[[problem.wrong]]\nline = \"B2 C2\"\n{why}"),
        ));
        files.push((
            format!("problems/chess/x{i}.toml"),
            format!("{head}fen = \"4k3/8/8/8/8/8/8/R3K3 w - - 0 1\"\nsolutions = [\"Ra8+\"]\n\n[[problem.wrong]]\nline = \"Kd1 Kd7\"\n{why}"),
        ));
        files.push((
            format!("problems/shogi/x{i}.toml"),
            format!("{head}sfen = \"4k4/9/9/9/9/9/1PPPPP3/9/r3K4 b PS 1\"\nsolutions = [\"S*6i\"]\n\n[[problem.wrong]]\nline = \"S*8i 9i8i\"\n{why}"),
        ));
    }
    // An imported SGF collection whose comments and game name carry the vectors.
    let sgf: Vec<(String, String)> = VECTORS
        .iter()
        .enumerate()
        .map(|(i, v)| {
            let c = v.replace('\\', "\\\\").replace(']', "\\]");
            (
                format!("x{i}.sgf"),
                format!("(;GM[1]SZ[9]GN[{c}]C[Black to live. {c}]AB[cc][dc]AW[cd][dd];B[ec]C[RIGHT {c}])"),
            )
        })
        .collect();
    let mut imported = qiyuan::import::sgf::import_files(&sgf);
    assert!(!imported.problems.is_empty(), "{:?}", imported.skipped);
    let title = qiyuan::content::Text::both(VECTORS[0].to_string());
    let target = qiyuan::import::SetTarget {
        game: qiyuan::content::Game::Go,
        slug: "imported",
        shown: "problems/go/imported.toml",
        title: &title,
        origin: "xss test",
    };
    let written = qiyuan::import::write_checked(&target, &mut imported);
    assert!(written.errors.is_empty(), "{:?}", written.errors);
    files.push(("problems/go/imported.toml".to_string(), written.toml));
    files
}

fn library() -> Library {
    let (library, errors) = Library::load(&content());
    let errors: Vec<String> = errors.iter().map(|e| e.to_string()).collect();
    assert!(
        errors.is_empty(),
        "the test content has errors:\n{}",
        errors.join("\n")
    );
    library
}

/// HTML entities decoded, enough to read an attribute as a browser does.
fn decode_entities(s: &str) -> String {
    let mut out = String::new();
    let mut rest = s;
    while let Some(i) = rest.find('&') {
        out.push_str(&rest[..i]);
        rest = &rest[i + 1..];
        let end = rest
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '#'))
            .unwrap_or(rest.len());
        let name = &rest[..end];
        let decoded = if let Some(num) = name.strip_prefix("#x").or(name.strip_prefix("#X")) {
            u32::from_str_radix(num, 16).ok().and_then(char::from_u32)
        } else if let Some(num) = name.strip_prefix('#') {
            num.parse().ok().and_then(char::from_u32)
        } else {
            match name {
                "amp" => Some('&'),
                "lt" => Some('<'),
                "gt" => Some('>'),
                "quot" => Some('"'),
                "apos" => Some('\''),
                "colon" => Some(':'),
                "Tab" => Some('\t'),
                "NewLine" => Some('\n'),
                _ => None,
            }
        };
        match decoded {
            Some(c) => {
                out.push(c);
                rest = rest[end..].strip_prefix(';').unwrap_or(&rest[end..]);
            }
            None => out.push('&'),
        }
    }
    out.push_str(rest);
    out
}

/// A tag of the HTML as a browser tokenises it: its name and attributes.
struct Tag {
    name: String,
    attributes: Vec<(String, String)>,
}

/// Every start tag of `html` (text between tags, comments and end tags are skipped).
fn tags(html: &str) -> Vec<Tag> {
    let bytes = html.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] != b'<' {
            i += 1;
            continue;
        }
        i += 1;
        if html[i..].starts_with("!--") {
            i = html[i..].find("-->").map_or(bytes.len(), |e| i + e + 3);
            continue;
        }
        if i >= bytes.len() || !bytes[i].is_ascii_alphabetic() {
            continue; // `</…`, `<!doctype`, or a `<` that starts no tag
        }
        let start = i;
        while i < bytes.len()
            && !matches!(
                bytes[i],
                b' ' | b'\t' | b'\n' | b'\r' | b'\x0c' | b'/' | b'>'
            )
        {
            i += 1;
        }
        let name = html[start..i].to_ascii_lowercase();
        let mut attributes = Vec::new();
        loop {
            while i < bytes.len()
                && matches!(bytes[i], b' ' | b'\t' | b'\n' | b'\r' | b'\x0c' | b'/')
            {
                i += 1;
            }
            if i >= bytes.len() || bytes[i] == b'>' {
                i += 1;
                break;
            }
            let a = i;
            while i < bytes.len()
                && !matches!(
                    bytes[i],
                    b' ' | b'\t' | b'\n' | b'\r' | b'\x0c' | b'/' | b'>' | b'='
                )
            {
                i += 1;
            }
            let attr = html[a..i].to_ascii_lowercase();
            while i < bytes.len() && matches!(bytes[i], b' ' | b'\t' | b'\n' | b'\r') {
                i += 1;
            }
            let mut value = String::new();
            if i < bytes.len() && bytes[i] == b'=' {
                i += 1;
                while i < bytes.len() && matches!(bytes[i], b' ' | b'\t' | b'\n' | b'\r') {
                    i += 1;
                }
                if i < bytes.len() && (bytes[i] == b'"' || bytes[i] == b'\'') {
                    let q = bytes[i];
                    let v = i + 1;
                    let end = html[v..].find(q as char).map_or(bytes.len(), |e| v + e);
                    value = html[v..end].to_string();
                    i = (end + 1).min(bytes.len());
                } else {
                    let v = i;
                    while i < bytes.len()
                        && !matches!(bytes[i], b' ' | b'\t' | b'\n' | b'\r' | b'>')
                    {
                        i += 1;
                    }
                    value = html[v..i].to_string();
                }
            }
            attributes.push((attr, decode_entities(&value)));
        }
        out.push(Tag { name, attributes });
    }
    out
}

/// Why `html` could run a script, if it could: a script other than `/static/app.js`, a
/// tag that loads or embeds documents, an event handler, or a script address.
fn live_script(html: &str) -> Option<String> {
    for tag in tags(html) {
        let attr = |n: &str| {
            tag.attributes
                .iter()
                .find(|(k, _)| k == n)
                .map(|(_, v)| v.as_str())
        };
        match tag.name.as_str() {
            "script" if attr("src") == Some("/static/app.js") && tag.attributes.len() == 2 => {}
            "script" | "iframe" | "object" | "embed" | "base" | "math" | "style" | "frame"
            | "frameset" | "applet" | "foreignobject" | "animate" | "set" | "handler" => {
                return Some(format!("a <{}> tag", tag.name));
            }
            "meta" if attr("http-equiv").is_some() => return Some("<meta http-equiv>".into()),
            _ => {}
        }
        for (name, value) in &tag.attributes {
            if name.starts_with("on") {
                return Some(format!("<{} {name}=…>", tag.name));
            }
            let address: String = value
                .trim_matches(|c: char| c <= ' ')
                .chars()
                .filter(|c| !matches!(c, '\t' | '\n' | '\r'))
                .collect::<String>()
                .to_ascii_lowercase();
            let is_address = matches!(
                name.as_str(),
                "href"
                    | "src"
                    | "xlink:href"
                    | "action"
                    | "formaction"
                    | "data"
                    | "poster"
                    | "srcdoc"
            );
            if is_address
                && ["javascript:", "vbscript:", "data:", "livescript:"]
                    .iter()
                    .any(|s| address.starts_with(s))
            {
                return Some(format!("<{} {name}=\"{value}\">", tag.name));
            }
            if name == "style"
                && (address.contains("javascript") || address.contains("expression("))
            {
                return Some(format!("<{} style=\"{value}\">", tag.name));
            }
        }
    }
    None
}

#[test]
fn scanner_sees_live_script() {
    for html in [
        "<p><script>alert(1)</script></p>",
        "<img src=x onerror=alert(1)>",
        "<a href=\" &#x6A;avascript:alert(1)\">x</a>",
        "<a HREF='JaVa&#9;ScRiPt:alert(1)'>x</a>",
        "<svg/onload=alert(1)>",
        "<math><mtext>x</mtext></math>",
        "<svg><a xlink:href=\"javascript:alert(1)\">x</a></svg>",
    ] {
        assert!(live_script(html).is_some(), "{html}");
    }
    for html in [
        "<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>",
        "<a href=\"/go\">x</a> &lt;img src=x onerror=alert(1)&gt;",
        "<p title=\"&lt;svg onload=alert(1)&gt;\">x</p>",
        "<script type=\"module\" src=\"/static/app.js\"></script>",
    ] {
        assert_eq!(live_script(html), None, "{html}");
    }
}

/// The test problems' wrong and right first moves (and the imported ones' right move).
fn plays(game: qiyuan::content::Game) -> &'static [&'static str] {
    match game.slug() {
        "go" => &["B2", "C3", "ec"],
        "chess" => &["Kd1", "Ra8%2B"],
        _ => &["S*8i", "S*6i"],
    }
}

async fn get(state: &AppState, uri: &str) -> (StatusCode, axum::http::HeaderMap, String) {
    let response = app(state.clone())
        .oneshot(Request::get(uri).body(Body::empty()).unwrap())
        .await
        .unwrap();
    let status = response.status();
    let headers = response.headers().clone();
    let body = response.into_body().collect().await.unwrap().to_bytes();
    (status, headers, String::from_utf8_lossy(&body).into_owned())
}

/// Every site address in `html` (`href` of `<a>`), without its fragment.
fn links(html: &str) -> Vec<String> {
    tags(html)
        .into_iter()
        .filter(|t| t.name == "a")
        .filter_map(|t| {
            t.attributes
                .into_iter()
                .find(|(k, _)| k == "href")
                .map(|(_, v)| v)
        })
        .filter(|h| h.starts_with('/') && !h.starts_with("//"))
        .map(|h| h.split('#').next().unwrap_or_default().to_string())
        .collect()
}

#[tokio::test]
async fn no_live_script_on_any_page() {
    let state = AppState::from_library(library());
    let lib = state.snapshot().library;
    // Every kind of page for every lesson, set and problem (in one language or the other),
    // and every page linked from the home and game pages in both.
    let mut uris: Vec<String> = Vec::new();
    for lang in ["zh", "en"] {
        uris.push(format!("/?lang={lang}"));
        for shelf in &lib.shelves {
            uris.push(format!("/{}?lang={lang}", shelf.game.slug()));
        }
    }
    let mut linked = Vec::new();
    for uri in &uris {
        let (_, _, html) = get(&state, uri).await;
        linked.extend(links(&html));
    }
    uris.extend(linked);
    for shelf in &lib.shelves {
        let game = shelf.game.slug();
        for (i, lesson) in shelf.lessons.iter().enumerate() {
            let lang = ["zh", "en"][i % 2];
            let base = format!("/{game}/lessons/{}", lesson.slug);
            uris.push(format!("{base}?s=0:1&lang={lang}"));
            uris.push(format!("{base}/print?lang={lang}"));
            uris.push(format!("{base}/diagram/0?s=0:1&lang={lang}"));
            // The task at step 2: open (instruction, hint), solved (done), refused (why); in
            // every third lesson of a game, shifted by game, so that every vector is in every
            // field once.
            if sampled(shelf.game, i) {
                for play in task_plays(shelf.game) {
                    uris.push(format!("{base}?s=0:2&t=0&play={play}&lang={lang}"));
                }
                uris.push(format!("{base}/diagram/0?s=0:2&lang={lang}"));
            }
        }
        for (i, set) in shelf.sets.iter().enumerate() {
            let lang = ["zh", "en"][i % 2];
            uris.push(format!("/{game}/worksheets/{}?lang={lang}", set.slug));
            for p in &set.problems {
                let base = format!("/{game}/problems/{}/{}", set.slug, p.id);
                uris.push(format!("{base}?solution=1&lang={lang}"));
                for play in plays(shelf.game) {
                    uris.push(format!("{base}?play={play}&lang={lang}"));
                }
            }
        }
    }
    let mut seen = BTreeSet::new();
    for uri in uris {
        if !seen.insert(uri.clone()) {
            continue;
        }
        let (status, headers, html) = get(&state, &uri).await;
        assert!(status == StatusCode::OK, "{uri}: {status}");
        let csp = headers.get(header::CONTENT_SECURITY_POLICY).expect("a CSP");
        assert!(csp.to_str().unwrap().contains("script-src 'self'"), "{uri}");
        assert_eq!(
            headers.get(header::X_CONTENT_TYPE_OPTIONS).unwrap(),
            "nosniff"
        );
        if let Some(why) = live_script(&html) {
            panic!("{uri}: {why}");
        }
    }
    assert!(seen.len() > 1000, "only {} pages seen", seen.len());

    // The lesson attempt API: the diagram goes into the page as HTML.
    for shelf in &lib.shelves {
        for (i, lesson) in shelf.lessons.iter().enumerate() {
            if sampled(shelf.game, i) {
                let play = task_plays(shelf.game)[i / 3 % 2];
                let body = json!({ "game": shelf.game.slug(), "lesson": lesson.slug, "diagram": 0, "step": 2, "play": play, "lang": "en" });
                let (status, bytes) =
                    common::post_json(app(state.clone()), "/api/lesson-attempt", &body).await;
                assert_eq!(status, StatusCode::OK, "{body}");
                let reply: Value = serde_json::from_slice(&bytes).unwrap();
                let html = reply["figure"].as_str().unwrap();
                if let Some(why) = live_script(html) {
                    panic!("lesson attempt {play} on {}: {why}", lesson.slug);
                }
            }
        }
    }
    // The attempt API: the board and the verdict go into the page as HTML.
    for shelf in &lib.shelves {
        for set in &shelf.sets {
            for p in &set.problems {
                for play in plays(shelf.game) {
                    let play = play.replace("%2B", "+");
                    let body = json!({ "game": shelf.game.slug(), "set": set.slug, "id": p.id, "play": play, "lang": "en" });
                    let (status, bytes) =
                        common::post_json(app(state.clone()), "/api/attempt", &body).await;
                    assert_eq!(status, StatusCode::OK);
                    let reply: Value = serde_json::from_slice(&bytes).unwrap();
                    for field in ["svg", "status"] {
                        let html = reply[field].as_str().unwrap();
                        if let Some(why) = live_script(html) {
                            panic!("attempt {play} on {}/{}: {field}: {why}", set.slug, p.id);
                        }
                    }
                }
            }
        }
    }
}

/// Whether the tasks of lesson `i` of `game` are visited: every third lesson, shifted by game.
fn sampled(game: qiyuan::content::Game, i: usize) -> bool {
    let shift = qiyuan::content::Game::ALL
        .iter()
        .position(|g| *g == game)
        .unwrap_or(0);
    i % 3 == shift
}

/// A right and a wrong move of the task in each test lesson's first diagram.
fn task_plays(game: qiyuan::content::Game) -> &'static [&'static str] {
    match game.slug() {
        "go" => &["D4", "B2"],
        "chess" => &["e7e5", "d7d5"],
        _ => &["3c3d", "8c8d"],
    }
}

/// In Chromium: the pages with the vectors open with no dialog and no console error (a CSP
/// violation is one), and every link and image goes to the web, mail or this site.
#[tokio::test]
async fn no_script_runs_in_chromium() -> anyhow::Result<()> {
    use anyhow::{ensure, Context};
    let state = AppState::from_library(library());
    let lib = state.snapshot().library;
    let base = harness::start_trainer(state).await?;
    let driver = harness::Driver::start().await?;
    let b = driver.session(&base).await?;
    let mut paths = vec!["/?lang=en".to_string(), "/go?lang=zh".to_string()];
    for shelf in &lib.shelves {
        let game = shelf.game.slug();
        for lesson in shelf.lessons.iter().take(4) {
            paths.push(format!("/{game}/lessons/{}?lang=en", lesson.slug));
            paths.push(format!("/{game}/lessons/{}/print?lang=en", lesson.slug));
        }
        for set in shelf.sets.iter().take(3) {
            paths.push(format!("/{game}/problems/{}?lang=en", set.slug));
            paths.push(format!("/{game}/worksheets/{}?lang=en", set.slug));
            let p = &set.problems[0];
            paths.push(format!("/{game}/problems/{}/{}?lang=en", set.slug, p.id));
            paths.push(format!(
                "/{game}/problems/{}/{}?solution=1&lang=en",
                set.slug, p.id
            ));
        }
    }
    paths.push("/go/problems/x0/1?play=B2&lang=en".into());
    paths.push("/go/problems/imported?lang=en".into());
    for path in &paths {
        b.open(path)
            .await
            .with_context(|| format!("opening {path}"))?;
        ensure!(
            b.client.get_alert_text().await.is_err(),
            "{path}: a dialog opened"
        );
        let bad = b
            .js(
                "return [...document.querySelectorAll('a[href], img[src], [src], [href]')]
                   .map((e) => e.href && e.href.baseVal !== undefined ? e.href.baseVal : (e.href || e.src))
                   .filter((u) => { try { return !['http:', 'https:', 'mailto:'].includes(new URL(u, location.href).protocol) } catch { return false } })",
                vec![],
            )
            .await?;
        ensure!(
            bad == json!([]),
            "{path}: addresses with other schemes: {bad}"
        );
        b.check_errors().await.with_context(|| path.clone())?;
    }
    b.close().await?;
    Ok(())
}

/// Record files with the vectors in every text field their format has: SGF root and move
/// properties (players, event, date, result, game name, comments, labels), PGN tags and
/// comments, KIF header lines and comments.
fn hostile_records() -> Vec<(String, String)> {
    let sgf_value = |v: &str| v.replace('\\', "\\\\").replace(']', "\\]");
    let mut out = Vec::new();
    // Each vector in one of the three formats, in turn (every field of every format still
    // meets a third of them).
    for (i, v) in VECTORS.iter().enumerate() {
        let s = sgf_value(v);
        let label = sgf_value(SHORT[i % SHORT.len()]);
        let mut three = Vec::new();
        three.push((
            format!("{}-{i}.sgf", v.replace(['/', '\\', '"', '\r', '\n'], "")),
            format!(
                "(;GM[1]FF[4]SZ[9]PB[{s}]PW[{s}]EV[{s}]DT[{s}]RE[{s}]GN[{s}]C[{s}];B[ee]C[{s}]LB[cc:{label}]TR[dd]\
                 (;W[cc]C[{s}];B[gg]N[{s}])(;W[gc]C[{s}]))"
            ),
        ));
        let p = v.replace('\\', "\\\\").replace('"', "\\\"");
        let comment = v.replace('}', ")");
        three.push((
            format!("x-{i}.pgn"),
            format!(
                "[Event \"{p}\"]\n[Site \"{p}\"]\n[Date \"{p}\"]\n[White \"{p}\"]\n[Black \"{p}\"]\n[Result \"*\"]\n[Annotator \"{p}\"]\n\n\
                 {{{comment}}} 1. e4 {{{comment} [%csl Gd4]}} e5 (1... c5 {{{comment}}}) 2. Nf3 *\n"
            ),
        ));
        three.push((
            format!("x-{i}.kifu"),
            format!(
                "棋戦：{v}\n先手：{v}\n後手：{v}\n開始日時：{v}\n手合割：平手\n手数----指手---------消費時間--\n*{v}\n   1 ７六歩(77)\n*{v}\n   2 ３四歩(33)\n"
            ),
        ));
        out.push(three.swap_remove(i % 3));
    }
    out
}

/// Uploads `text` as the file `name`: the page it leads to.
async fn upload_record(state: &AppState, name: &str, text: &str) -> String {
    let boundary = "xss-boundary-41ac";
    let body = format!(
        "--{boundary}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"{name}\"\r\n\r\n{text}\r\n--{boundary}--\r\n"
    );
    let response = app(state.clone())
        .oneshot(
            Request::post("/records?lang=en")
                .header(
                    header::CONTENT_TYPE,
                    format!("multipart/form-data; boundary={boundary}"),
                )
                .body(Body::from(body))
                .unwrap(),
        )
        .await
        .unwrap();
    let status = response.status();
    let location = response
        .headers()
        .get(header::LOCATION)
        .map(|l| l.to_str().unwrap().to_string());
    let html = response.into_body().collect().await.unwrap().to_bytes();
    let html = String::from_utf8_lossy(&html).into_owned();
    if let Some(why) = live_script(&html) {
        panic!("uploading {name}: {why}");
    }
    location.unwrap_or_else(|| panic!("{name} was not opened ({status}): {html}"))
}

#[tokio::test]
async fn no_live_script_from_a_record() {
    let records = hostile_records();
    let dir = std::env::temp_dir().join(format!("qiyuan-xss-records-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    for (i, (_, text)) in records.iter().enumerate().step_by(3) {
        let ext = if text.starts_with('(') {
            "sgf"
        } else if text.starts_with('[') {
            "pgn"
        } else {
            "kifu"
        };
        std::fs::write(dir.join(format!("lib-{i}.{ext}")), text).unwrap();
    }
    let state = AppState::from_library(Library::default())
        .with_records(Some(dir.clone()), Default::default());
    let mut pages = vec![
        "/records?lang=en".to_string(),
        "/records?lang=zh&q=%3Cscript%3E".to_string(),
    ];
    let (_, _, list) = get(&state, "/records").await;
    pages.extend(
        links(&list)
            .into_iter()
            .filter(|l| l.starts_with("/records/lib-")),
    );
    for (name, text) in &records {
        let page = upload_record(&state, name, text).await;
        let q = if page.contains('?') { "&" } else { "?" };
        // The fields are on the page, as text.
        let (_, _, shown) = get(&state, &format!("{page}{q}lang=en")).await;
        let word = text
            .split(|c: char| !c.is_ascii_alphanumeric())
            .filter(|w| {
                w.len() >= 4
                    && ![
                        "SGF",
                        "Event",
                        "Site",
                        "Date",
                        "White",
                        "Black",
                        "Result",
                        "Annotator",
                    ]
                    .contains(w)
            })
            .max_by_key(|w| w.len())
            .unwrap_or("");
        assert!(
            shown.contains(word),
            "{name}: the text ({word}) is not shown"
        );
        for at in ["at=1", "at=0-1-1", "at=1-1-2"] {
            pages.push(format!("{page}{q}{at}&lang=en"));
        }
        pages.push(format!("{page}/print{q}lang=zh"));
        pages.push(format!(
            "{page}{q}try=%3Cscript%3Ealert(1)%3C%2Fscript%3E&sel=%22%3E%3Cb&to=%27"
        ));
        // A move that is no move: refused, its text shown.
        let mut request = Request::post(format!("{page}/moves"))
            .header(header::CONTENT_TYPE, "application/x-www-form-urlencoded")
            .body(Body::from("at=1&move=%3Cimg+src%3Dx+onerror%3Dalert(1)%3E"))
            .unwrap();
        request
            .headers_mut()
            .insert(header::ACCEPT, "text/html".parse().unwrap());
        let response = app(state.clone()).oneshot(request).await.unwrap();
        let html = response.into_body().collect().await.unwrap().to_bytes();
        if let Some(why) = live_script(&String::from_utf8_lossy(&html)) {
            panic!("{name}: a refused move: {why}");
        }
    }
    for uri in &pages {
        let (status, headers, html) = get(&state, uri).await;
        assert!(
            status == StatusCode::OK || status == StatusCode::SEE_OTHER,
            "{uri}: {status}"
        );
        assert!(
            headers.get(header::CONTENT_SECURITY_POLICY).is_some(),
            "{uri}"
        );
        if let Some(why) = live_script(&html) {
            panic!("{uri}: {why}");
        }
    }
    assert!(pages.len() > 250, "only {} pages", pages.len());
    let _ = std::fs::remove_dir_all(&dir);
}
