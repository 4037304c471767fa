//! Xiangqi records (`qiyuan::record::xiangqi`) on the CCPD collection (CC BY 4.0, Yu-Han
//! Tseng): Big5 PGN with traditional characters and full-width digits, as Chinese tools
//! write it. The moves read are checked against pyffish (`scripts/xiangqi_reference.py`,
//! `python3 -m pip install pyffish==0.0.90`; missing, the tests fail): pyffish must allow
//! every move, its WXF name of each move must say what the book wrote (the piece, its
//! file, the direction and the number) and read back (by our reader) to the same move, and
//! its FEN of the last position must be ours.
//!
//! * `bundled_ccpd_files_read_round_trip_and_agree`: the ten CCPD files in
//!   `tests/data/xiangqi/ccpd/` (games, endgames, kills), on any clone.
//! * `one_game_in_every_encoding_and_notation_reads_the_same`: one game re-encoded as Big5,
//!   GBK (traditional and simplified), UTF-8 with and without its mark, UTF-16LE and
//!   UTF-16BE, and rewritten in ICCS (`h2e2`, `H2-E2`) and WXF: the same moves.
//! * `whole_ccpd_collection_reads_round_trips_and_agrees` (ignored in a plain `cargo test`):
//!   all 674 files of `../shared/corpus/xiangqi/ccpd` (or `$QIYUAN_CCPD`); a missing folder
//!   fails. Run it with `cargo test --test xiangqi_records -- --ignored`.
//! * `mangled_files_are_read_or_refused_without_panic`: 1,000 seeded mutations of the
//!   bundled files (bytes changed, cut, removed, `{ } ( ) [ "` and Big5 pairs inserted):
//!   each is read or refused with a reason, and what is read writes and reads back alike.
//! * `the_largest_inputs_are_read_or_refused_in_bounded_time`: games of `MAX_PLIES`
//!   moves repeating one position, `MAX_MOVES` moves in a file, a line of tags, a line of
//!   quotes.
//!
//! For each file: it is read as Big5, holds one game whose `[FEN]` (if any) and `[Result]`
//! are kept, and the write → read round trip keeps every move, the FEN and the result.

mod xiangqi_pyffish;

use encoding_rs::{BIG5, GBK};
use qiyuan::record::xiangqi::{decode, read, read_named, write, Encoding, XiangqiGame};
use qiyuan::record::{self, Format};
use qiyuan::rules::xiangqi::{Position, START_FEN};
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Every `.pgn` file under `dir`, sorted.
fn pgn_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).unwrap_or_else(|e| panic!("{}: {e}", d.display())) {
            let path = entry.expect("a directory entry").path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "pgn") {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}

/// The moves as the book writes them: the words of the lines after the tags, without move
/// numbers and results (CCPD files have no comments or variations). Read without our reader.
fn written_moves(text: &str) -> Vec<String> {
    text.lines()
        .filter(|l| !l.trim_start().starts_with('['))
        .flat_map(|l| l.split_whitespace())
        .filter(|w| !w.ends_with('.') && !["1-0", "0-1", "1/2-1/2", "*"].contains(w))
        .map(String::from)
        .collect()
}

/// The value of the tag `name` in the text, read without our reader.
fn tag_in(text: &str, name: &str) -> Option<String> {
    let head = format!("[{name} \"");
    let line = text.lines().find(|l| l.starts_with(&head))?;
    Some(
        line[head.len()..]
            .trim_end()
            .trim_end_matches("\"]")
            .to_string(),
    )
}

fn number(c: char) -> Option<char> {
    let i = "一二三四五六七八九".chars().position(|x| x == c);
    let j = "１２３４５６７８９".chars().position(|x| x == c);
    let k = "123456789".chars().position(|x| x == c);
    i.or(j).or(k).map(|n| (b'1' + n as u8) as char)
}

/// Whether pyffish's WXF `wxf` says what the book's Chinese move `written` says: the
/// direction and number always; the piece and its file when the book names them so; 前/後
/// as `+`/`-` when pyffish writes a sign (it writes the file when only one of the two pieces
/// can make the move).
fn wxf_says(written: &str, wxf: &str) -> bool {
    let c: Vec<char> = written.chars().collect();
    let w: Vec<char> = wxf.chars().collect();
    if c.len() != 4 || w.len() != 4 {
        return false;
    }
    let dir = match c[2] {
        '進' | '进' => '+',
        '退' => '-',
        '平' => '=',
        _ => return false,
    };
    if w[2] != dir || number(c[3]) != Some(w[3]) {
        return false;
    }
    let letters = |p: char| match p {
        '車' | '车' => "R",
        '馬' | '马' => "HN",
        '炮' | '砲' => "C",
        '相' | '象' => "EB",
        '仕' | '士' => "A",
        '帥' | '帅' | '將' | '将' => "K",
        '兵' | '卒' => "P",
        _ => "",
    };
    if !letters(c[0]).is_empty() {
        // 車五平六: pyffish writes R5=6, or R+=6 when two chariots stand on 五.
        letters(c[0]).contains(w[0]) && (w[1] == '+' || w[1] == '-' || number(c[1]) == Some(w[1]))
    } else if (c[0] == '前' || c[0] == '後' || c[0] == '后') && w[0].is_ascii_alphabetic() {
        // pyffish names the piece by its file when only one of the two can make the move.
        let sign = if c[0] == '前' { '+' } else { '-' };
        letters(c[1]).contains(w[0]) && (w[1] == sign || w[1].is_ascii_digit())
    } else {
        true
    }
}

/// Reads one CCPD file, checks what needs no reference, and returns its game and the moves
/// as written.
fn read_ccpd(path: &Path) -> (XiangqiGame, Vec<String>) {
    let name = path.display().to_string();
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{name}: {e}"));
    let (text, encoding) = decode(&bytes);
    assert_eq!(encoding, Encoding::Big5, "{name}");
    let games = read_named(&name, &bytes).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(games.len(), 1, "{name}");
    let game = games.into_iter().next().expect("one game");
    let written = written_moves(&text);
    assert_eq!(game.moves.len(), written.len(), "{name}: every move read");
    assert_eq!(game.tag("Game"), Some("Chinese Chess"), "{name}");
    let fen = tag_in(&text, "FEN");
    assert_eq!(game.fen, fen, "{name}: the FEN kept");
    assert_eq!(game.result, tag_in(&text, "Result"), "{name}: the result");
    let again = write(std::slice::from_ref(&game)).unwrap_or_else(|e| panic!("{name}: {e}"));
    let back = read(again.as_bytes()).unwrap_or_else(|e| panic!("{name}: {e}\n{again}"));
    assert_eq!(back.len(), 1, "{name}");
    assert_eq!(back[0].moves, game.moves, "{name}: round trip");
    assert_eq!(back[0].fen, game.fen, "{name}: round trip FEN");
    assert_eq!(back[0].result, game.result, "{name}: round trip result");
    assert!(again.contains("[Game \"Chinese Chess\"]") && again.contains("[Variant \"xiangqi\"]"));
    // Through the records' registry, as `qiyuan convert` and the records pages take it: the
    // file is claimed as xiangqi's PGN, and converting it keeps every move and the start.
    let format = Format::for_file(&name, &bytes).expect("a .pgn file has a format");
    assert_eq!(format, record::xiangqi::PGN, "{name}: claimed as xiangqi");
    let records = record::read(&name, &bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
    let iccs: Vec<String> = game.moves.iter().map(|m| m.iccs.clone()).collect();
    assert_eq!(records[0].main_line(), iccs, "{name}: the record's moves");
    let converted = record::convert(&name, &bytes, format, None)
        .unwrap_or_else(|e| panic!("{name}: converting: {e}"));
    let back = record::read("converted.pgn", converted.text.as_bytes())
        .unwrap_or_else(|e| panic!("{name}: the converted file: {e}"));
    assert_eq!(
        back[0].main_line(),
        iccs,
        "{name}: every move kept by convert"
    );
    assert_eq!(
        back[0].start, records[0].start,
        "{name}: the start kept by convert"
    );
    (game, written)
}

/// Reads every file, then asks pyffish about all the games at once; the number of moves.
fn check_files(files: &[PathBuf]) -> usize {
    let books: Vec<(XiangqiGame, Vec<String>)> = files.iter().map(|p| read_ccpd(p)).collect();
    let batch: Vec<(String, Vec<String>)> = books
        .iter()
        .map(|(g, _)| {
            let fen = g.fen.clone().unwrap_or_else(|| START_FEN.to_string());
            (fen, g.moves.iter().map(|m| m.iccs.clone()).collect())
        })
        .collect();
    let answers = xiangqi_pyffish::ask(&batch, true);
    let mut moves = 0;
    for (((path, (_, written)), answer), (fen, iccs)) in
        files.iter().zip(&books).zip(&answers).zip(&batch)
    {
        let name = path.display();
        assert_eq!(
            answer.illegal, None,
            "{name}: pyffish refuses a move we read"
        );
        let mut pos = Position::from_fen(fen).expect("the FEN read");
        for m in iccs {
            let mv = pos.legal_moves().into_iter().find(|x| &x.iccs() == m);
            pos.apply(mv.unwrap_or_else(|| panic!("{name}: {m} read but not legal")));
        }
        assert_eq!(pos.fen(), answer.fen, "{name}: the last position");
        assert_eq!(answer.wxf.len(), written.len(), "{name}");
        for (i, (w, x)) in written.iter().zip(&answer.wxf).enumerate() {
            assert!(
                wxf_says(w, x),
                "{name}: move {} written {w}, pyffish says {x}",
                i + 1
            );
        }
        // pyffish's WXF, read by our reader, is the same game.
        let wxf = format!("[FEN \"{fen}\"]\n{}", answer.wxf.join(" "));
        let again = read(wxf.as_bytes()).unwrap_or_else(|e| panic!("{name}: pyffish's WXF: {e}"));
        assert_eq!(&again[0].iccs(), iccs, "{name}: pyffish's WXF read back");
        moves += written.len();
    }
    moves
}

#[test]
fn bundled_ccpd_files_read_round_trip_and_agree() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/xiangqi/ccpd");
    let files = pgn_files(&dir);
    assert_eq!(files.len(), 10, "the ten CCPD files in {}", dir.display());
    for folder in ["games", "endgames", "kills"] {
        assert!(files
            .iter()
            .any(|f| f.parent().is_some_and(|p| p.ends_with(folder))));
    }
    let moves = check_files(&files);
    println!("{} bundled files, {moves} moves", files.len());
}

#[test]
#[ignore = "reads all of CCPD in ../shared/corpus: cargo test --test xiangqi_records -- --ignored"]
fn whole_ccpd_collection_reads_round_trips_and_agrees() {
    let started = Instant::now();
    let dir = std::env::var_os("QIYUAN_CCPD")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus/xiangqi/ccpd")
        });
    assert!(
        dir.is_dir(),
        "the CCPD collection is missing at {}: set QIYUAN_CCPD",
        dir.display()
    );
    let files = pgn_files(&dir);
    assert_eq!(
        files.len(),
        674,
        "300 games, 244 endgames, 130 kills in {}",
        dir.display()
    );
    let moves = check_files(&files);
    println!(
        "{} CCPD files, {moves} moves, read, written, read again and compared with pyffish in {:.2?}",
        files.len(),
        started.elapsed()
    );
}

/// Traditional characters of the CCPD books in simplified form.
fn simplified(text: &str) -> String {
    text.chars()
        .map(|c| match c {
            '車' => '车',
            '馬' => '马',
            '砲' => '炮',
            '帥' => '帅',
            '將' => '将',
            '進' => '进',
            '後' => '后',
            c => c,
        })
        .collect()
}

#[test]
fn one_game_in_every_encoding_and_notation_reads_the_same() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/xiangqi/ccpd/games/0013.pgn");
    let big5 = std::fs::read(&path).expect("games/0013.pgn");
    let (text, _) = BIG5.decode_without_bom_handling(&big5);
    assert!(text.contains("後"), "a game with 後 (the rear one of two)");
    let want = read(&big5).expect("the Big5 file").remove(0);
    let utf16 = |le: bool| -> Vec<u8> {
        text.encode_utf16()
            .flat_map(|u| if le { u.to_le_bytes() } else { u.to_be_bytes() })
            .collect()
    };
    let simple = simplified(&text);
    let cases: Vec<(&str, Vec<u8>, Encoding)> = vec![
        ("Big5", big5.clone(), Encoding::Big5),
        ("GBK", GBK.encode(&text).0.into_owned(), Encoding::Gb18030),
        (
            "GBK simplified",
            GBK.encode(&simple).0.into_owned(),
            Encoding::Gb18030,
        ),
        ("UTF-8", text.as_bytes().to_vec(), Encoding::Utf8),
        (
            "UTF-8 BOM",
            [&b"\xef\xbb\xbf"[..], text.as_bytes()].concat(),
            Encoding::Utf8Bom,
        ),
        (
            "UTF-16LE BOM",
            [&b"\xff\xfe"[..], &utf16(true)].concat(),
            Encoding::Utf16Le,
        ),
        ("UTF-16BE", utf16(false), Encoding::Utf16Be),
    ];
    for (what, bytes, encoding) in cases {
        assert_eq!(decode(&bytes).1, encoding, "{what}");
        let got = read(&bytes)
            .unwrap_or_else(|e| panic!("{what}: {e}"))
            .remove(0);
        assert_eq!(got.moves, want.moves, "{what}");
        assert_eq!(
            got.tag("Red"),
            want.tag("Red"),
            "{what}: the tags read in their encoding"
        );
    }
    // The same moves in ICCS, upper case with a dash, and WXF as our engine writes it.
    let mut pos = Position::start();
    let (mut iccs, mut dashed, mut wxf) = (String::new(), String::new(), String::new());
    for (i, m) in want.moves.iter().enumerate() {
        let mv = pos
            .legal_moves()
            .into_iter()
            .find(|x| x.iccs() == m.iccs)
            .expect("legal");
        if i % 2 == 0 {
            let n = format!("{}. ", i / 2 + 1);
            iccs += &n;
            dashed += &n;
            wxf += &n;
        }
        iccs += &format!("{} ", m.iccs);
        let up = m.iccs.to_uppercase();
        dashed += &format!("{}-{} ", &up[..2], &up[2..]);
        wxf += &format!("{} ", pos.wxf(&mv));
        pos.apply(mv);
    }
    for (what, movetext) in [("ICCS", iccs), ("ICCS upper case", dashed), ("WXF", wxf)] {
        let got = read(format!("[Game \"Chinese Chess\"]\n{movetext}1/2-1/2").as_bytes())
            .unwrap_or_else(|e| panic!("{what}: {e}"))
            .remove(0);
        assert_eq!(got.moves, want.moves, "{what}");
    }
}

/// A small seeded generator (SplitMix64): the same mutations on every run.
struct SplitMix(u64);

impl SplitMix {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        ((z ^ (z >> 31)) % n.max(1) as u64) as usize
    }
}

#[test]
fn mangled_files_are_read_or_refused_without_panic() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/xiangqi/ccpd");
    let files: Vec<Vec<u8>> = pgn_files(&dir)
        .iter()
        .map(|p| std::fs::read(p).unwrap())
        .collect();
    let mut rng = SplitMix(7);
    let (mut read_ok, mut refused) = (0, 0);
    let pieces: [&[u8]; 9] = [
        b"{",
        b"}",
        b"(",
        b")",
        b"[",
        b"\"",
        b"\n",
        b"\xa8\xae",
        b" 1-0 ",
    ];
    for _ in 0..1_000 {
        let mut bytes = files[rng.below(files.len())].clone();
        for _ in 0..1 + rng.below(4) {
            if bytes.is_empty() {
                break;
            }
            let at = rng.below(bytes.len());
            match rng.below(4) {
                0 => bytes[at] = rng.below(256) as u8,
                1 => bytes.truncate(at),
                2 => {
                    let piece = pieces[rng.below(pieces.len())];
                    bytes.splice(at..at, piece.iter().copied());
                }
                _ => {
                    let end = (at + rng.below(64)).min(bytes.len());
                    bytes.drain(at..end);
                }
            }
        }
        match read(&bytes) {
            Ok(games) => {
                read_ok += 1;
                let text = write(&games).expect("games read can be written");
                let back = read(text.as_bytes()).expect("and read again");
                let moves =
                    |g: &[XiangqiGame]| g.iter().map(|g| g.moves.clone()).collect::<Vec<_>>();
                assert_eq!(moves(&back), moves(&games));
            }
            Err(e) => {
                refused += 1;
                assert!(!e.explain(qiyuan::lang::Lang::Zh).is_empty());
            }
        }
    }
    println!("1,000 mangled files: {read_ok} read, {refused} refused");
    assert!(read_ok > 0 && refused > 0);
}

#[test]
fn the_largest_inputs_are_read_or_refused_in_bounded_time() {
    use qiyuan::record::xiangqi::{ReadError, MAX_BYTES, MAX_MOVES, MAX_PLIES};
    let started = Instant::now();
    // Games of MAX_PLIES moves that repeat one position over and over, MAX_MOVES in all.
    let shuffle = "h0g2 h9g7 g2h0 g7h9 ".repeat(MAX_PLIES / 4);
    let game = format!("[Event \"x\"]\n{shuffle}*\n");
    let games = read(game.as_bytes()).expect("a long repeating game");
    assert_eq!(games[0].moves.len(), MAX_PLIES);
    // Every game is read, the last refused at its first move past MAX_MOVES.
    let more = game.repeat(MAX_MOVES / MAX_PLIES + 1);
    let Err(ReadError::TooManyMoves { at }) = read(more.as_bytes()) else {
        panic!("more than MAX_MOVES moves are read");
    };
    assert_eq!(at.line, 2 * (MAX_MOVES / MAX_PLIES) + 2);
    let long = format!("{shuffle}{shuffle}");
    assert!(matches!(
        read(long.as_bytes()),
        Err(ReadError::GameTooLong { .. })
    ));
    // One line of tags, and one of quotes.
    let tags = "[a \"b\"] ".repeat(MAX_BYTES / 8);
    assert!(read(tags.as_bytes()).is_ok());
    let quotes = format!("[a \"{}", "\"] x".repeat(MAX_BYTES / 5));
    assert!(matches!(
        read(quotes.as_bytes()),
        Err(ReadError::BadTag { .. })
    ));
    println!(
        "{} moves and the rest in {:.2?}",
        MAX_MOVES + 3 * MAX_PLIES,
        started.elapsed()
    );
}
