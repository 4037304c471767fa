//! Game records on the web (`/records`): every corpus file of chess/pgn, go/sgf-encodings,
//! go/scoring and shogi/kif, and the xiangqi CCPD files in tests/data, opens through the upload route and replays to its end (its main
//! line as long as sgf-parse, pgn-reader or rsshogi count it), or is refused with its reason;
//! the GBK MultiGo file shows its Chinese text; moves tried are judged and kept as variations
//! and come back in every download; the library lists a folder by its tags; the print page
//! has Go figures with the books' notes and score sheets.

mod common;

use axum::body::Body;
use axum::http::{header, Request, StatusCode};
use common::{send, Reply};
use qiyuan::record::library::{summarize, Library};
use qiyuan::record::{self, Format};
use qiyuan::web::records::RecordLimits;
use qiyuan::web::{app, AppState};
use std::path::{Path, PathBuf};

fn state() -> AppState {
    AppState::from_library(Default::default())
}

async fn get(state: &AppState, uri: &str) -> Reply {
    send(
        app(state.clone()),
        Request::get(uri).body(Body::empty()).unwrap(),
    )
    .await
}

/// A form sent by this test's browser (its viewer cookie: the variations it adds are its).
async fn post_form(state: &AppState, uri: &str, form: &[(&str, &str)]) -> Reply {
    post_form_as(state, "qiyuan-viewer=testbrowser", uri, form).await
}

/// A form sent with `cookie`.
async fn post_form_as(state: &AppState, cookie: &str, uri: &str, form: &[(&str, &str)]) -> Reply {
    let body = form
        .iter()
        .map(|(k, v)| {
            format!(
                "{k}={}",
                percent_encoding::utf8_percent_encode(v, percent_encoding::NON_ALPHANUMERIC)
            )
        })
        .collect::<Vec<_>>()
        .join("&");
    send(
        app(state.clone()),
        Request::post(uri)
            .header(header::CONTENT_TYPE, "application/x-www-form-urlencoded")
            .header(header::COOKIE, cookie)
            .body(Body::from(body))
            .unwrap(),
    )
    .await
}

/// Uploads `bytes` as the file `name`, as a browser's form does (multipart).
async fn upload(state: &AppState, name: &str, bytes: &[u8], lang: &str) -> Reply {
    let boundary = "qiyuan-test-boundary-7d1f";
    let mut body = Vec::new();
    body.extend_from_slice(
        format!(
            "--{boundary}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"{name}\"\r\nContent-Type: application/octet-stream\r\n\r\n"
        )
        .as_bytes(),
    );
    body.extend_from_slice(bytes);
    body.extend_from_slice(
        format!("\r\n--{boundary}\r\nContent-Disposition: form-data; name=\"text\"\r\n\r\n\r\n--{boundary}--\r\n")
            .as_bytes(),
    );
    send(
        app(state.clone()),
        Request::post(format!("/records?lang={lang}"))
            .header(
                header::CONTENT_TYPE,
                format!("multipart/form-data; boundary={boundary}"),
            )
            .body(Body::from(body))
            .unwrap(),
    )
    .await
}

fn location(reply: &Reply) -> String {
    assert_eq!(reply.status, StatusCode::SEE_OTHER, "{}", reply.body);
    reply.headers[header::LOCATION]
        .to_str()
        .unwrap()
        .to_string()
}

fn files(dir: &Path, ends: &[&str]) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| ends.iter().any(|e| p.to_string_lossy().ends_with(e)))
        .collect();
    out.sort();
    out
}

fn corpus_files() -> Vec<PathBuf> {
    let corpus = common::corpus("go/sgf-encodings");
    let mut paths = files(&corpus.join("chess/pgn"), &[".pgn"]);
    paths.extend(files(&corpus.join("go/sgf-encodings"), &[".sgf"]));
    let scoring = files(&corpus.join("go/scoring/games/scoring"), &[".sgf"]);
    // In debug builds a sample of the 58 scored games; all of them in release.
    let step = if cfg!(debug_assertions) { 6 } else { 1 };
    paths.extend(scoring.into_iter().step_by(step));
    paths.extend(files(
        &corpus.join("shogi/kif"),
        &[".kif", ".kifu", ".ki2", ".ki2u", ".csa"],
    ));
    // Xiangqi as Chinese tools write it (Big5 PGN): the CCPD files in the repository.
    let ccpd = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/xiangqi/ccpd");
    for folder in ["games", "endgames", "kills"] {
        paths.extend(files(&ccpd.join(folder), &[".pgn"]));
    }
    paths
}

/// The main line's length as the independent readers count it: sgf-parse (SGF), pgn-reader
/// (PGN, first game), rsshogi (shogi).
fn independent_main_line(path: &Path, bytes: &[u8]) -> Option<usize> {
    let name = path.to_string_lossy();
    let format = Format::for_file(&name, bytes)?;
    match (format.game().slug(), format.as_str()) {
        ("go", "SGF") => {
            let (text, _) = record::sgf::decode(bytes);
            let root = sgf_parse::go::parse(&text)
                .or_else(|_| sgf_parse::go::parse(&text.replacen('(', "(;", 1)))
                .ok()?
                .remove(0);
            Some(
                root.main_variation()
                    .filter(|n| {
                        n.properties().any(|p| {
                            matches!(p, sgf_parse::go::Prop::B(_) | sgf_parse::go::Prop::W(_))
                        })
                    })
                    .count(),
            )
        }
        ("chess", "PGN") => {
            struct Count(usize);
            impl pgn_reader::Visitor for Count {
                type Tags = ();
                type Movetext = ();
                type Output = usize;
                fn begin_tags(&mut self) -> std::ops::ControlFlow<usize, ()> {
                    std::ops::ControlFlow::Continue(())
                }
                fn begin_movetext(&mut self, _: ()) -> std::ops::ControlFlow<usize, ()> {
                    std::ops::ControlFlow::Continue(())
                }
                fn begin_variation(
                    &mut self,
                    _: &mut (),
                ) -> std::ops::ControlFlow<usize, pgn_reader::Skip> {
                    std::ops::ControlFlow::Continue(pgn_reader::Skip(true))
                }
                fn san(
                    &mut self,
                    _: &mut (),
                    _: pgn_reader::SanPlus,
                ) -> std::ops::ControlFlow<usize> {
                    self.0 += 1;
                    std::ops::ControlFlow::Continue(())
                }
                fn end_game(&mut self, _: ()) -> usize {
                    self.0
                }
            }
            let bytes = bytes.strip_prefix(b"\xef\xbb\xbf").unwrap_or(bytes);
            let mut reader = pgn_reader::Reader::new(bytes);
            reader.read_game(&mut Count(0)).ok().flatten()
        }
        _ => None,
    }
}

#[tokio::test]
async fn every_corpus_record_opens_by_upload_and_replays_to_its_end() {
    let state = state();
    let mut opened = 0;
    for path in corpus_files() {
        let bytes = std::fs::read(&path).unwrap();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let ours = record::read(&name, &bytes);
        let reply = upload(&state, &name, &bytes, "en").await;
        match ours {
            Err(e) => {
                assert_eq!(reply.status, StatusCode::UNPROCESSABLE_ENTITY, "{name}");
                let reason = qiyuan::render::escape(&e.to_string());
                assert!(reply.body.contains(&reason), "{name}: no reason {reason}");
                let zh = upload(&state, &name, &bytes, "zh").await;
                assert!(zh.body.contains("无法打开这份棋谱"), "{name}: no zh reason");
            }
            Ok(games) => {
                opened += 1;
                let page = location(&reply);
                let first = &games[0];
                let len = first.moves.len();
                if let Some(n) = independent_main_line(&path, &bytes) {
                    // Our SGF reader puts a pass between two moves of one side.
                    let passes = first.notes.iter().filter(|n| n.contains("a pass")).count();
                    assert_eq!(len, n + passes, "{name}: main line");
                }
                let end = get(&state, &format!("{page}?at={len}&lang=en")).await;
                let want = if len == 0 {
                    StatusCode::SEE_OTHER
                } else {
                    StatusCode::OK
                };
                assert_eq!(end.status, want, "{name} at its end");
                if len > 0 {
                    assert!(
                        end.body.contains(&format!("After move {len}")),
                        "{name}: not at move {len}"
                    );
                    assert!(end.body.contains("aria-current=\"step\""), "{name}");
                    // Past the end is the end.
                    let past = get(&state, &format!("{page}?at={}", len + 5)).await;
                    assert_eq!(location(&past), format!("{page}?at={len}"), "{name}");
                }
                // Every variation's first move is a link of the tree.
                let start = get(&state, &page).await;
                assert_eq!(start.status, StatusCode::OK, "{name}");
                let links = start.body.matches("class=\"mv d").count();
                let steps: usize = first.lines().len() + first.main_line().len();
                assert!(links >= first.moves.len(), "{name}: {links} < {steps}");
                if games.len() > 1 {
                    assert!(start.body.contains("?game=2"), "{name}: the other games");
                }
            }
        }
    }
    assert!(opened >= 15, "only {opened} records opened");
}

#[tokio::test]
async fn the_gbk_multigo_file_shows_its_chinese_text_in_both_languages() {
    let state = state();
    let corpus = common::corpus("go/sgf-encodings/no-ca.sgf");
    let bytes = std::fs::read(corpus.join("go/sgf-encodings/no-ca.sgf")).unwrap();
    let page = location(&upload(&state, "no-ca.sgf", &bytes, "zh").await);
    let zh = get(&state, &format!("{page}?lang=zh")).await;
    assert!(
        zh.body.contains("这是从压长星定式演变而来的形"),
        "{}",
        zh.body
    );
    assert!(zh.body.contains("推演") && zh.body.contains("下载"));
    let en = get(&state, &format!("{page}?lang=en")).await;
    assert!(en.body.contains("这是从压长星定式演变而来的形"));
    assert!(en.body.contains("Try your own moves"));
    // At move 1 four moves were considered: the main line's and three variations.
    let one = get(&state, &format!("{page}?at=1&lang=en")).await;
    assert!(one.body.contains("variation 1 of 4 here"), "{}", one.body);
    assert!(one.body.contains("rel=\"down\""));
    // The end of the main line, with its comment.
    let seven = get(&state, &format!("{page}?at=7&lang=zh")).await;
    assert!(seven.body.contains("黑1夹是严厉的一手"));
}

#[tokio::test]
async fn places_have_one_spelling() {
    let state = state();
    let sgf = "(;GM[1]SZ[9];B[ee](;W[cc];B[gg])(;W[gc]))";
    let page = location(&upload(&state, "t.sgf", sgf.as_bytes(), "en").await);
    assert_eq!(
        location(&get(&state, &format!("{page}?at=01")).await),
        format!("{page}?at=1")
    );
    assert_eq!(location(&get(&state, &format!("{page}?at=0")).await), page);
    assert_eq!(
        location(&get(&state, &format!("{page}?at=1-9-1")).await),
        format!("{page}?at=1")
    );
    assert_eq!(
        location(&get(&state, &format!("{page}?at=nonsense")).await),
        page
    );
    let var = get(&state, &format!("{page}?at=1-1-1&lang=en")).await;
    assert_eq!(var.status, StatusCode::OK);
    // Back from a variation's first move is where it branched off; up and down go round.
    assert!(var
        .body
        .contains(&format!("href=\"{page}?at=1\" rel=\"prev\"")));
    assert!(var
        .body
        .contains(&format!("href=\"{page}?at=2\" rel=\"up\"")));
}

#[tokio::test]
async fn moves_tried_are_judged_kept_and_downloaded() {
    let state = state();
    let pgn = "[Event \"t\"]\n[White \"甲\"]\n[Black \"乙\"]\n[Result \"*\"]\n\n1. e4 e5 2. Nf3 (2. f4 exf4) 2... Nc6 *\n";
    let page = location(&upload(&state, "t.pgn", pgn.as_bytes(), "en").await);
    let moves = format!("{page}/moves");
    // Illegal: refused with the engine's reason, in either language.
    let refused = post_form(
        &state,
        &format!("{moves}?lang=en"),
        &[("at", "2"), ("move", "Ke3")],
    )
    .await;
    assert_eq!(refused.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(
        refused.body.contains("Ke3 is not allowed"),
        "{}",
        refused.body
    );
    let zh = post_form(
        &state,
        &format!("{moves}?lang=zh"),
        &[("at", "2"), ("move", "Ke3")],
    )
    .await;
    assert!(zh.body.contains("不能下 Ke3"), "{}", zh.body);
    // The record's own move is followed, not copied.
    assert_eq!(
        location(&post_form(&state, &moves, &[("at", "2"), ("move", "Nf3")]).await),
        format!("{page}?at=3")
    );
    assert_eq!(
        location(&post_form(&state, &moves, &[("at", "2"), ("move", "f2f4")]).await),
        format!("{page}?at=2-1-1")
    );
    // A new move: a second variation beside 2. Nf3, then a move after it.
    let new = location(&post_form(&state, &moves, &[("at", "2"), ("move", "Bc4")]).await);
    assert_eq!(new, format!("{page}?at=2-2-1"));
    let next = location(&post_form(&state, &moves, &[("at", "2-2-1"), ("move", "Nf6")]).await);
    assert_eq!(next, format!("{page}?at=2-2-2"));
    let shown = get(&state, &format!("{next}&lang=en")).await;
    assert!(
        shown.body.contains("2. Bc4") && shown.body.contains("2… Nf6"),
        "{}",
        shown.body
    );
    // Downloaded with it; read back by pgn-reader's SAN through our reader.
    let pgn_back = get(&state, &format!("{page}/download?format=pgn")).await;
    assert_eq!(pgn_back.status, StatusCode::OK);
    assert!(pgn_back.headers[header::CONTENT_DISPOSITION]
        .to_str()
        .unwrap()
        .contains("t.pgn"));
    let back = record::read("back.pgn", pgn_back.body.as_bytes()).unwrap();
    let lines = back[0].lines();
    assert!(
        lines.contains(&["e2e4", "e7e5", "f1c4", "g8f6"].map(String::from).to_vec()),
        "{lines:?}"
    );
    assert_eq!(back[0].tags.first_player.as_deref(), Some("甲"));
    // Deleting it goes back to where it branched off; the main line is not deleted, nor the
    // record's own variation, nor by another browser what this one added.
    let delete = format!("{page}/delete");
    let own = post_form(&state, &format!("{delete}?lang=en"), &[("at", "2-1-1")]).await;
    assert_eq!(own.status, StatusCode::FORBIDDEN, "{}", own.body);
    assert!(own
        .body
        .contains("Only the variations you added here can be deleted"));
    let other = post_form_as(
        &state,
        "qiyuan-viewer=someoneelse",
        &delete,
        &[("at", "2-2-2")],
    )
    .await;
    assert_eq!(other.status, StatusCode::FORBIDDEN);
    let anonymous = post_form_as(&state, "", &delete, &[("at", "2-2-2")]).await;
    assert_eq!(anonymous.status, StatusCode::FORBIDDEN);
    assert_eq!(
        location(&post_form(&state, &delete, &[("at", "2-2-2")]).await),
        format!("{page}?at=2")
    );
    let main = post_form(&state, &format!("{delete}?lang=en"), &[("at", "3")]).await;
    assert_eq!(main.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(main.body.contains("The main line cannot be deleted."));
    let after = record::read(
        "again.pgn",
        get(&state, &format!("{page}/download"))
            .await
            .body
            .as_bytes(),
    )
    .unwrap();
    assert_eq!(after[0].variation_count(), 1);
}

#[tokio::test]
async fn a_shogi_record_downloads_in_its_three_formats_with_a_variation() {
    let state = state();
    let corpus = common::corpus("shogi/kif/kifu-utf8.kifu");
    let bytes = std::fs::read(corpus.join("shogi/kif/kifu-utf8.kifu")).unwrap();
    let original = record::read("kifu-utf8.kifu", &bytes).unwrap().remove(0);
    let page = location(&upload(&state, "kifu-utf8.kifu", &bytes, "zh").await);
    let tried = location(
        &post_form(
            &state,
            &format!("{page}/moves"),
            &[("at", "1"), ("move", "8c8d")],
        )
        .await,
    );
    assert!(tried.contains("?at=1-"), "{tried}");
    let illegal = post_form(
        &state,
        &format!("{page}/moves?lang=en"),
        &[("at", "1"), ("move", "5a5c")],
    )
    .await;
    assert_eq!(illegal.status, StatusCode::UNPROCESSABLE_ENTITY);
    for format in ["kif", "ki2", "csa"] {
        let text = get(&state, &format!("{page}/download?format={format}")).await;
        assert_eq!(text.status, StatusCode::OK, "{format}");
        let back = record::read(&format!("back.{format}"), text.body.as_bytes())
            .unwrap_or_else(|e| panic!("{format}: {e}"));
        assert_eq!(back[0].main_line(), original.main_line(), "{format}");
        if format != "csa" {
            // CSA holds no variations.
            assert!(
                back[0]
                    .lines()
                    .iter()
                    .any(|l| l.len() == 2 && l[1] == "8c8d"),
                "{format}: the variation is lost"
            );
        }
    }
}

#[tokio::test]
async fn uploads_too_large_or_empty_are_refused_in_both_languages() {
    let state = state();
    let big = vec![b'('; qiyuan::web::records::UPLOAD_LIMIT + 10];
    let en = upload(&state, "big.sgf", &big, "en").await;
    assert_eq!(en.status, StatusCode::PAYLOAD_TOO_LARGE);
    assert!(en.body.contains("larger than 1 MiB"), "{}", en.body);
    let zh = upload(&state, "big.sgf", &big, "zh").await;
    assert!(zh.body.contains("棋谱超过 1 MiB"));
    let huge = vec![b'('; 3 * qiyuan::web::records::UPLOAD_LIMIT];
    assert_eq!(
        upload(&state, "huge.sgf", &huge, "en").await.status,
        StatusCode::PAYLOAD_TOO_LARGE
    );
    let none = post_form(
        &state,
        "/records?lang=en",
        &[("text", " "), ("format", "sgf")],
    )
    .await;
    assert!(none.body.contains("Choose a record file"), "{}", none.body);
    let odd = upload(&state, "game.txt", b"(;B[aa])", "en").await;
    assert!(odd.body.contains("does not say its format"));
    // Pasted text, without a file.
    let pasted = post_form(
        &state,
        "/records",
        &[("text", "(;SZ[9];B[ee])"), ("format", "sgf")],
    )
    .await;
    assert!(location(&pasted).starts_with("/records/"));
}

#[tokio::test]
async fn kept_records_are_bounded_oldest_first() {
    let state = state().with_records(
        None,
        RecordLimits {
            count: 3,
            ..RecordLimits::default()
        },
    );
    let mut pages = Vec::new();
    for i in 0..5 {
        let sgf = format!("(;SZ[9]PB[p{i}];B[ee])");
        pages.push(location(
            &upload(&state, "t.sgf", sgf.as_bytes(), "en").await,
        ));
    }
    assert_eq!(get(&state, &pages[0]).await.status, StatusCode::NOT_FOUND);
    assert_eq!(get(&state, &pages[1]).await.status, StatusCode::NOT_FOUND);
    assert_eq!(get(&state, &pages[4]).await.status, StatusCode::OK);
    assert_eq!(state.records().kept().0, 3);
}

/// A library folder of the corpus's records, `name` telling the tests' folders apart (they
/// run at once, and each removes its own).
fn library_folder(name: &str) -> PathBuf {
    let corpus = common::corpus("go/sgf-encodings");
    let dir =
        std::env::temp_dir().join(format!("qiyuan-records-web-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("chess")).unwrap();
    for f in files(&corpus.join("go/sgf-encodings"), &[".sgf"]) {
        std::fs::copy(&f, dir.join(f.file_name().unwrap())).unwrap();
    }
    for f in files(&corpus.join("chess/pgn"), &[".pgn"]) {
        std::fs::copy(&f, dir.join("chess").join(f.file_name().unwrap())).unwrap();
    }
    for f in files(
        &corpus.join("shogi/kif"),
        &[".kif", ".kifu", ".ki2", ".ki2u", ".csa"],
    ) {
        std::fs::copy(&f, dir.join(f.file_name().unwrap())).unwrap();
    }
    dir
}

#[test]
fn tags_read_alone_are_the_tags_of_the_full_read() {
    let dir = library_folder("tags");
    let library = Library::new(&dir);
    let entries = library.list().unwrap();
    assert!(entries.len() > 20);
    let mut compared = 0;
    for e in &entries {
        let bytes = std::fs::read(library.file(&e.path).unwrap()).unwrap();
        let Ok(full) = record::read(&e.path, &bytes) else {
            continue;
        };
        // The PGN reader stops at a variant game; the tags-only read goes on.
        let summaries = summarize(&e.path, &bytes);
        for (r, s) in full.iter().zip(&summaries) {
            assert_eq!(s.players[0], r.tags.first_player, "{}", e.path);
            assert_eq!(s.players[1], r.tags.second_player, "{}", e.path);
            assert_eq!(s.event, r.tags.event, "{}", e.path);
            assert_eq!(s.date, r.tags.date, "{}", e.path);
            // The list shows a result the model cannot name too (`RE[257手完, 黒中押し勝ち]`).
            if r.tags.result.is_some() {
                assert!(s.result.is_some(), "{}: result", e.path);
            }
            compared += 1;
        }
        assert_eq!(summaries.len(), full.len(), "{}: games", e.path);
    }
    assert!(compared >= 15, "{compared}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test]
async fn the_library_lists_searches_opens_and_copies_on_edit() {
    let dir = library_folder("list");
    let state = state().with_records(Some(dir.clone()), RecordLimits::default());
    let list = get(&state, "/records?lang=en").await;
    assert_eq!(list.status, StatusCode::OK);
    assert!(list.body.contains("chess/kasparov-deep-blue-1997.pgn"));
    assert!(list.body.contains("Garry Kasparov"), "{}", list.body);
    // Chinese, Japanese and Korean names, each from its own encoding, in UTF-8.
    let mut names = Vec::new();
    for file in ["chinese.sgf", "japanese.sgf", "korean.sgf"] {
        let full = record::read(file, &std::fs::read(dir.join(file)).unwrap()).unwrap();
        let name = full[0].tags.first_player.clone().unwrap();
        assert!(!name.is_ascii(), "{file}: {name}");
        assert!(list.body.contains(&name), "{file}: {name}");
        names.push(name);
    }
    let name = names.pop().unwrap();
    let found = get(&state, "/records?q=kasparov").await;
    assert_eq!(found.body.matches("Garry Kasparov").count(), 6);
    assert!(!found.body.contains(&name));
    let none = get(&state, "/records?q=nobody-at-all&lang=en").await;
    assert!(none.body.contains("No record matches."));
    // A library record opens; its sixth game too.
    let id = qiyuan::web::records::library_id("chess/kasparov-deep-blue-1997.pgn");
    let six = get(&state, &format!("/records/{id}?game=6&lang=en&at=1")).await;
    assert_eq!(six.status, StatusCode::OK, "{}", six.body);
    assert!(six.body.contains("Deep Blue (Computer) – Garry Kasparov"));
    // An edit copies it into memory under a new id; the file is not written.
    let before = std::fs::read(dir.join("chess/kasparov-deep-blue-1997.pgn")).unwrap();
    let tried = location(
        &post_form(
            &state,
            &format!("/records/{id}/moves?game=6"),
            &[("at", "1"), ("move", "c5")],
        )
        .await,
    );
    assert!(!tried.contains(&id) && tried.contains("game=6"), "{tried}");
    assert_eq!(
        std::fs::read(dir.join("chess/kasparov-deep-blue-1997.pgn")).unwrap(),
        before
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test]
async fn go_figures_carry_the_books_notes() {
    let state = state();
    // 1 takes the white stone on B8 (a ko); 4 retakes on a stone of before the figure (▲);
    // 7 retakes the ko on 1.
    let sgf = "(;GM[1]SZ[9]AB[ba][ab][bc]AW[ca][db][cc][bb]PL[B];B[cb];W[ee];B[gg];W[bb];B[hh];W[ii];B[cb]C[ko <again>])";
    let page = location(&upload(&state, "ko.sgf", sgf.as_bytes(), "en").await);
    let en = get(&state, &format!("{page}/print?lang=en")).await;
    assert_eq!(en.status, StatusCode::OK);
    assert!(en.body.contains("Figure 1 (moves 1–7)"), "{}", en.body);
    assert!(en.body.contains("<li>4 at ▲</li>"), "{}", en.body);
    assert!(en.body.contains("<li>7: ko at 1</li>"), "{}", en.body);
    assert!(en.body.contains("7: ko &") && !en.body.contains("<again>"));
    let zh = get(&state, &format!("{page}/print?lang=zh")).await;
    assert!(
        zh.body.contains("<li>4 = ▲</li>") && zh.body.contains("<li>7 = 1 劫</li>"),
        "{}",
        zh.body
    );
    // A plain stone played where one of the figure was: "5 at 2".
    let capture = "(;GM[1]SZ[9];B[bi];W[ai];B[ah];W[ee];B[ai])";
    let page = location(&upload(&state, "cap.sgf", capture.as_bytes(), "en").await);
    let en = get(&state, &format!("{page}/print?lang=en&per=25")).await;
    assert!(en.body.contains("<li>5 at 2</li>"), "{}", en.body);
    // A figure per 2 moves: three figures.
    let small = get(&state, &format!("{page}/print?per=2")).await;
    assert_eq!(
        small.body.matches("<section class=\"record-figure").count(),
        1,
        "per below 4 is refused"
    );
    let four = get(&state, &format!("{page}/print?per=4&lang=en")).await;
    assert!(four.body.contains("Figure 2 (moves 5–5)"), "{}", four.body);
}

#[tokio::test]
async fn chess_prints_a_score_sheet_with_a_diagram_every_n_moves() {
    let state = state();
    let corpus = common::corpus("chess/pgn/molinari-bordais-1979.pgn");
    let bytes = std::fs::read(corpus.join("chess/pgn/molinari-bordais-1979.pgn")).unwrap();
    let game = record::read("m.pgn", &bytes).unwrap().remove(0);
    let page = location(&upload(&state, "m.pgn", &bytes, "en").await);
    let sheet = get(&state, &format!("{page}/print?per=10&lang=en")).await;
    assert_eq!(sheet.status, StatusCode::OK);
    let figures = sheet.body.matches("class=\"chessboard\"").count();
    assert_eq!(figures, game.moves.len().div_ceil(10), "{}", sheet.body);
    assert!(sheet.body.contains("<table class=\"score-sheet\">"));
    assert!(sheet.body.contains("<th>1</th>"));
}

/// Each hostile record of issue 43, uploaded as a file and pasted as text, is refused with
/// 413 and its reason in the learner's language, and the server goes on answering.
#[tokio::test]
async fn hostile_records_are_refused_and_the_server_goes_on() {
    let state = state();
    for (name, text) in common::hostile::cases() {
        let (ext, lang) = (name.rsplit('.').next().unwrap(), "en");
        let replies = [
            upload(&state, name, text.as_bytes(), lang).await,
            post_form(
                &state,
                "/records?lang=zh",
                &[("text", &text), ("format", ext)],
            )
            .await,
        ];
        for (reply, words) in replies.iter().zip([
            ["past 10000 moves", "larger than 1 MiB"],
            ["超过了 10000 手", "棋谱超过 1 MiB"],
        ]) {
            assert_eq!(
                reply.status,
                StatusCode::PAYLOAD_TOO_LARGE,
                "{name}: {}",
                reply.body
            );
            assert!(
                words.iter().any(|w| reply.body.contains(w)),
                "{name}: {}",
                reply.body
            );
        }
        let health = get(&state, "/health").await;
        assert_eq!(health.status, StatusCode::OK, "after {name}");
    }
    // The limit itself opens.
    let fits = common::hostile::sgf_nodes(record::MAX_PLIES - 1);
    let page = upload(&state, "fits.sgf", fits.as_bytes(), "en").await;
    assert!(location(&page).starts_with("/records/"), "{}", page.body);
}

#[test]
fn the_weight_of_kept_records_counts_their_buffers() {
    let text = common::hostile::pgn_knight_shuffle(4_000);
    let games = record::read("p.pgn", text.as_bytes()).unwrap();
    let steps = games[0].moves.len();
    let weight = qiyuan::web::records::weight(&games);
    // Each step: the step itself, its move's name on the heap, the allocator's share.
    let least = steps * (std::mem::size_of::<record::Step>() + 32);
    assert!(weight >= least, "{weight} < {least} for {steps} steps");
}

#[tokio::test]
async fn an_upload_over_its_memory_ceiling_is_refused_with_413_in_both_languages() {
    let state = state().with_records(
        None,
        RecordLimits {
            upload_memory: 1 << 20,
            ..RecordLimits::default()
        },
    );
    // 20 games of 2,000 legal passes: 160 KB of text, several MiB once read.
    let games = format!("(;GM[1]SZ[19]{})\n", ";B[];W[]".repeat(1_000)).repeat(20);
    let en = upload(&state, "games.sgf", games.as_bytes(), "en").await;
    assert_eq!(en.status, StatusCode::PAYLOAD_TOO_LARGE, "{}", en.body);
    assert!(
        en.body.contains("more than 1 MiB of the server"),
        "{}",
        en.body
    );
    let zh = upload(&state, "games.sgf", games.as_bytes(), "zh").await;
    assert!(zh.body.contains("超过 1 MiB 的内存"), "{}", zh.body);
    assert_eq!(get(&state, "/health").await.status, StatusCode::OK);
    assert_eq!(state.records().kept().0, 0);
}
