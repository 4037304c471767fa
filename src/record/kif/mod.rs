//! Shogi game records: KIF read and written here, KI2 and CSA through rsshogi; UTF-8 or
//! Shift_JIS; every move played through our engine and kept in USI.
//!
//! **KIF reading.** The header's `key：value` lines give the tags (`先手`/`下手`,
//! `後手`/`上手`, `棋戦`, `開始日時`; the rest are kept) and `手合割` the start (平手 or one
//! of the usual handicaps), or a board diagram (BOD) any other start. Moves are `７六歩(77)`,
//! `同　歩(23)`, `５五角打`, `２二角成(88)`, `２三歩不成(24)`; a `*` line is a comment on the
//! move before it (before the first move: on the game). `変化：N手` starts a variation at
//! ply N of the most recent line that reaches it; the end words (`投了`, `詰み`, `千日手`,
//! `持将棋`, `切れ負け`, `反則負け`, `反則勝ち`, `入玉勝ち`, `中断`) and the `まで…の勝ち`
//! line give the result. An illegal move is refused with `path:line` and the engine's reason.
//!
//! **KIF writing.** UTF-8 with `#KIF version=2.0 encoding=UTF-8`, the header (`手合割` by
//! [`ShogiHandicap::kif_name`], or a BOD board for any other start), moves with `同`, `打`,
//! `成` and `不成`, comments, the end word and `まで` line, then each variation as a
//! `変化：N手` block, the later branches of a line before the earlier ones, so that every
//! block's "most recent line" is the line it branches from.
//!
//! **KI2 and CSA.** Read by [`split::read`] (rsshogi's readers, with the
//! `変化` blocks rsshogi stops before); the tags, the result and the main line's comments
//! come from rsshogi's reading of the whole file (the comments of variations are not
//! read). Written by rsshogi's exporters from the KIF this module writes (CSA has no
//! variations); a start rsshogi cannot write back (an empty board, ten or more of a piece
//! in hand) is refused, so KIF is the format that holds every record.
//!
//! ```
//! use qiyuan::record::{kif, Format};
//! let text = "手合割：平手\n先手：羽生善治\n後手：谷川浩司\n手数----指手---------消費時間--\n   1 ７六歩(77)\n*角道を開ける\n   2 ３四歩(33)\n   3 ２二角成(88)\n   4 同　銀(31)\n   5 投了\nまで4手で後手の勝ち\n";
//! let game = &kif::read("g.kif", text.as_bytes(), kif::KIF).unwrap()[0];
//! assert_eq!(game.main_line(), ["7g7f", "3c3d", "8h2b+", "3a2b"]);
//! assert_eq!(game.moves[0].comment, "角道を開ける");
//! assert_eq!(game.tags.first_player.as_deref(), Some("羽生善治"));
//! let out = kif::write_kif(game).unwrap();
//! assert!(out.contains("   3 ２二角成(88)\n   4 同　銀(31)\n   5 投了\nまで4手で後手の勝ち"), "{out}");
//! ```

pub mod split;

use super::{within_nesting, Format, Record, RecordError, Step, Tags, MAX_MOVES, MAX_PLIES};
use crate::base::{Finish, Reason, ShogiHandicap, Side, Start};
use crate::lang::Lang;
use crate::rules::shogi::{self, Kind, Position, Square, START_SFEN};
use rsshogi::records::formats::{csa, kif as rs_kif};
use rsshogi::records::{SpecialMove, SpecialMoveEntry};
use rsshogi::types::GameResult;

const FILES: [char; 9] = ['１', '２', '３', '４', '５', '６', '７', '８', '９'];
const RANKS: [char; 9] = ['一', '二', '三', '四', '五', '六', '七', '八', '九'];

/// The words that end a KIF line instead of a move.
const END_WORDS: [&str; 12] = [
    "投了",
    "詰み",
    "千日手",
    "持将棋",
    "切れ負け",
    "時間切れ",
    "反則負け",
    "反則勝ち",
    "入玉勝ち",
    "宣言勝ち",
    "中断",
    "不詰",
];

/// A record file's text: UTF-8 (its byte-order mark dropped) when the bytes are UTF-8,
/// else Shift_JIS.
pub fn decode(bytes: &[u8]) -> String {
    let bytes = bytes.strip_prefix(b"\xef\xbb\xbf").unwrap_or(bytes);
    match std::str::from_utf8(bytes) {
        Ok(t) => t.to_string(),
        Err(_) => encoding_rs::SHIFT_JIS
            .decode_without_bom_handling(bytes)
            .0
            .into_owned(),
    }
}

/// Reads every game of the shogi record file `name` in `format` from its raw bytes. A line
/// longer than [`MAX_PLIES`] moves is refused before any move is read
/// ([`split::past_the_limit`]).
pub fn read(name: &str, bytes: &[u8], format: Format) -> Result<Vec<Record>, RecordError> {
    if let Some(place) = split::past_the_limit(name, bytes) {
        return Err(RecordError::TooLong { place });
    }
    match format {
        f if f == KIF => read_kif(name, &decode(bytes)).map(|r| vec![r]),
        f if f == KI2 || f == CSA => read_with_rsshogi(name, bytes, format),
        _ => Err(RecordError::WrongGame {
            format,
            game: crate::base::Game::Shogi,
        }),
    }
}

/// The start of a record from its SFEN (written the one way our engine writes it, from
/// move 1: records do not keep the move number): the handicap it is, if any.
fn shogi_start(sfen: &str) -> Start {
    let canonical = Position::from_sfen(sfen)
        .map(|p| p.sfen())
        .unwrap_or_else(|_| sfen.to_string());
    let mut fields: Vec<&str> = canonical.split_whitespace().collect();
    if fields.len() == 4 {
        fields[3] = "1";
    }
    let sfen = &fields.join(" ");
    let fields = |s: &str| s.split_whitespace().take(3).collect::<Vec<_>>().join(" ");
    let handicap = ShogiHandicap::ALL
        .into_iter()
        .find(|h| fields(h.sfen()) == fields(sfen));
    Start::Shogi(crate::base::shogi::Start {
        sfen: sfen.to_string(),
        handicap,
    })
}

/// A KIF square: a file digit (full-width or ASCII) and a rank kanji or digit.
fn parse_square(file: char, rank: char) -> Option<Square> {
    let digit = |c: char| -> Option<u8> {
        FILES
            .iter()
            .position(|&f| f == c)
            .map(|i| i as u8 + 1)
            .or_else(|| c.to_digit(10).map(|d| d as u8))
    };
    let f = digit(file)?;
    let r = RANKS
        .iter()
        .position(|&k| k == rank)
        .map(|i| i as u8 + 1)
        .or_else(|| digit(rank))?;
    Square::new(f, r)
}

/// The USI letter of a piece name as KIF writes it, for a drop.
fn drop_letter(piece: &str) -> Option<char> {
    Some(match piece {
        "歩" => 'P',
        "香" => 'L',
        "桂" => 'N',
        "銀" => 'S',
        "金" => 'G',
        "角" => 'B',
        "飛" => 'R',
        _ => return None,
    })
}

/// A KIF move (`７六歩(77)`, `同　歩(23)`, `５五角打`) in USI; `last_to` is where the move
/// before it went (for `同`).
fn kif_to_usi(text: &str, last_to: Option<Square>) -> Result<String, String> {
    let text = text.trim_start_matches(['▲', '△', '☗', '☖']);
    let (to, body) = if let Some(rest) = text.strip_prefix('同') {
        let to = last_to.ok_or("`同` (same square) with no move before it")?;
        (to, rest.trim_start_matches([' ', '\u{3000}']))
    } else {
        let mut chars = text.chars();
        let (Some(f), Some(r)) = (chars.next(), chars.next()) else {
            return Err(format!("`{text}` is not a move"));
        };
        let to = parse_square(f, r).ok_or_else(|| format!("`{text}` names no square"))?;
        (to, chars.as_str())
    };
    let (piece_part, from) = match body.split_once('(') {
        Some((p, rest)) => {
            let digits: Vec<char> = rest.chars().take_while(|&c| c != ')').collect();
            let from = match digits.as_slice() {
                [f, r] => parse_square(*f, *r),
                _ => None,
            }
            .ok_or_else(|| format!("`{text}`: the square it comes from is not readable"))?;
            (p, Some(from))
        }
        None => (body, None),
    };
    let square = |s: Square| s.usi();
    match from {
        Some(from) => {
            let promote = piece_part.ends_with('成') && !piece_part.ends_with("不成");
            Ok(format!(
                "{}{}{}",
                square(from),
                square(to),
                if promote { "+" } else { "" }
            ))
        }
        None => {
            let piece = piece_part.trim_end_matches('打');
            let letter = drop_letter(piece)
                .ok_or_else(|| format!("`{text}`: no piece `{piece}` can be dropped"))?;
            Ok(format!("{letter}*{}", square(to)))
        }
    }
}

/// The KIF text of a move played from `pos`: `７六歩(77)`, `同　銀(31)`, `５五角打`.
fn usi_to_kif(pos: &Position, played: &shogi::Played, last_to: Option<Square>) -> String {
    let mut out = String::new();
    if Some(played.to) == last_to {
        out.push_str("同\u{3000}");
    } else {
        out.push(FILES[played.to.file as usize - 1]);
        out.push(RANKS[played.to.rank as usize - 1]);
    }
    let kind = played.drop.unwrap_or(played.kind);
    out.push_str(match kind {
        Kind::King => "玉",
        Kind::ProLance => "成香",
        Kind::ProKnight => "成桂",
        Kind::ProSilver => "成銀",
        k => k.kanji(shogi::Color::Black),
    });
    match played.from {
        None => out.push('打'),
        Some(from) => {
            let mover = pos.turn();
            if played.promote {
                out.push('成');
            } else if kind.can_promote() && (from.in_zone(mover) || played.to.in_zone(mover)) {
                out.push_str("不成");
            }
            out.push_str(&format!("({}{})", from.file, from.rank));
        }
    }
    out
}

/// The kanji of a count in a hand: 二 … 十, 十一 … 十八 (one is not written).
fn kanji_count(n: u8) -> String {
    let digit = |d: u8| RANKS[d as usize - 1].to_string();
    match n {
        0 | 1 => String::new(),
        2..=9 => digit(n),
        10 => "十".into(),
        _ => format!("十{}", digit(n - 10)),
    }
}

/// A count in a hand from its kanji (`十八`) or digits (`18`); 1 when none is written.
fn read_count(text: &str) -> Option<u8> {
    if text.is_empty() {
        return Some(1);
    }
    if let Ok(n) = text.parse() {
        return Some(n);
    }
    let value = |c: char| RANKS.iter().position(|&k| k == c).map(|i| i as u8 + 1);
    let mut chars = text.chars();
    match (chars.next(), chars.next(), chars.next()) {
        (Some('十'), None, None) => Some(10),
        (Some('十'), Some(d), None) => value(d).map(|d| 10 + d),
        (Some(d), None, None) => value(d),
        _ => None,
    }
}

/// A board diagram (BOD) of a start position, as Kifu for Windows writes it: the hands,
/// the board with `v` before Gote's pieces, and whose turn when it is Gote's.
fn board_diagram(pos: &Position) -> String {
    let hand = |color: shogi::Color| {
        let pieces: Vec<String> = pos
            .hand(color)
            .into_iter()
            .rev()
            .filter(|(_, n)| *n > 0)
            .map(|(k, n)| format!("{}{}", k.kanji(shogi::Color::Black), kanji_count(n)))
            .collect();
        if pieces.is_empty() {
            "なし".to_string()
        } else {
            pieces.join("\u{3000}")
        }
    };
    let mut out = format!("後手の持駒：{}\n", hand(shogi::Color::White));
    out.push_str("  ９ ８ ７ ６ ５ ４ ３ ２ １\n+---------------------------+\n");
    for rank in 1..=9u8 {
        out.push('|');
        for file in (1..=9u8).rev() {
            match Square::new(file, rank).and_then(|sq| pos.piece_at(sq)) {
                None => out.push_str(" ・"),
                Some((color, kind)) => {
                    out.push(if color == shogi::Color::White {
                        'v'
                    } else {
                        ' '
                    });
                    out.push_str(match kind {
                        Kind::King => "玉",
                        k => k.kanji(color),
                    });
                }
            }
        }
        out.push('|');
        out.push(RANKS[rank as usize - 1]);
        out.push('\n');
    }
    out.push_str("+---------------------------+\n");
    out.push_str(&format!("先手の持駒：{}\n", hand(shogi::Color::Black)));
    if pos.turn() == shogi::Color::White {
        out.push_str("後手番\n");
    }
    out
}

/// The SFEN of a board diagram (BOD) among a KIF header's lines.
fn read_board_diagram(lines: &[&str]) -> Result<String, String> {
    let letter = |c: char| -> Option<&'static str> {
        Some(match c {
            '歩' => "P",
            '香' => "L",
            '桂' => "N",
            '銀' => "S",
            '金' => "G",
            '角' => "B",
            '飛' => "R",
            '玉' | '王' => "K",
            'と' => "+P",
            '杏' => "+L",
            '圭' => "+N",
            '全' => "+S",
            '馬' => "+B",
            '龍' | '竜' => "+R",
            _ => return None,
        })
    };
    let mut rows = Vec::new();
    let mut hands = [String::new(), String::new()];
    let mut turn = 'b';
    for line in lines {
        let t = line.trim_end();
        if let Some(row) = t.strip_prefix('|') {
            let cells: Vec<char> = row.chars().take_while(|&c| c != '|').collect();
            if cells.len() != 18 {
                return Err(format!("the board row `{t}` does not have nine squares"));
            }
            let mut sfen = String::new();
            let mut empty = 0;
            for cell in cells.chunks(2) {
                if cell[1] == '・' {
                    empty += 1;
                    continue;
                }
                let piece =
                    letter(cell[1]).ok_or_else(|| format!("`{}` is not a piece", cell[1]))?;
                if empty > 0 {
                    sfen.push_str(&empty.to_string());
                    empty = 0;
                }
                if cell[0] == 'v' {
                    sfen.push_str(&piece.to_lowercase());
                } else {
                    sfen.push_str(piece);
                }
            }
            if empty > 0 {
                sfen.push_str(&empty.to_string());
            }
            rows.push(sfen);
        } else if let Some((key, value)) = t.trim().split_once('：') {
            let side = match key {
                "先手の持駒" | "下手の持駒" => 0,
                "後手の持駒" | "上手の持駒" => 1,
                _ => continue,
            };
            for item in value
                .split([' ', '\u{3000}'])
                .filter(|i| !i.is_empty() && *i != "なし")
            {
                let mut chars = item.chars();
                let piece = chars
                    .next()
                    .and_then(letter)
                    .filter(|p| !p.starts_with('+') && *p != "K");
                let (Some(piece), Some(n)) = (piece, read_count(chars.as_str())) else {
                    return Err(format!("`{item}` is not a piece in hand"));
                };
                if n > 1 {
                    hands[side].push_str(&n.to_string());
                }
                if side == 1 {
                    hands[side].push_str(&piece.to_lowercase());
                } else {
                    hands[side].push_str(piece);
                }
            }
        } else if t.trim() == "後手番" || t.trim() == "上手番" {
            turn = 'w';
        }
    }
    if rows.len() != 9 {
        return Err(format!("the board has {} rows, not nine", rows.len()));
    }
    let hand = format!("{}{}", hands[0], hands[1]);
    let sfen = format!(
        "{} {turn} {} 1",
        rows.join("/"),
        if hand.is_empty() { "-" } else { &hand }
    );
    let pos = Position::from_sfen(&sfen).map_err(|e| e.to_string())?;
    Ok(pos.sfen())
}

/// What follows the ply number of a KIF move line (`同　銀(31)`), or `None` when the line
/// is not a move line.
fn move_line(t: &str) -> Option<&str> {
    let t = t.trim_start();
    let digits = t.len() - t.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    if digits == 0 {
        return None;
    }
    let rest = t[digits..].trim_start_matches([' ', '\u{3000}']);
    // The move ends at the first space after it; the one after `同` belongs to it.
    let skip = match rest.strip_prefix('同') {
        Some(after) => rest.len() - after.trim_start_matches([' ', '\u{3000}']).len(),
        None => 0,
    };
    let end = rest[skip..]
        .find([' ', '\u{3000}', '\t'])
        .map_or(rest.len(), |e| skip + e);
    Some(&rest[..end])
}

/// The number of a `変化：N手` line (ASCII or full-width digits).
fn variation_ply(t: &str) -> Option<usize> {
    let digits: String = t
        .chars()
        .filter_map(|c| match c {
            '0'..='9' => Some(c),
            '０'..='９' => char::from_digit(c as u32 - '０' as u32, 10),
            _ => None,
        })
        .collect();
    digits.parse().ok()
}

/// The side of a KIF player word.
fn side_of(word: &str) -> Option<Side> {
    if word.contains("先手") || word.contains("下手") {
        Some(Side::First)
    } else if word.contains("後手") || word.contains("上手") {
        Some(Side::Second)
    } else {
        None
    }
}

/// The finish an end word means, said at the turn of `mover`.
fn end_finish(word: &str, mover: Side) -> Option<Finish> {
    let (winner, reason) = match word {
        "投了" => (Some(mover.other()), Reason::Resignation),
        "詰み" => (Some(mover.other()), Reason::Checkmate),
        "切れ負け" | "時間切れ" => (Some(mover.other()), Reason::Timeout),
        "反則負け" => (Some(mover.other()), Reason::PerpetualCheck),
        "反則勝ち" => (Some(mover), Reason::PerpetualCheck),
        "入玉勝ち" | "宣言勝ち" => (Some(mover), Reason::Impasse),
        "千日手" => (None, Reason::Repetition),
        "持将棋" => (None, Reason::Impasse),
        "中断" => (None, Reason::Abandoned),
        _ => return None,
    };
    Some(Finish { winner, reason })
}

/// Reads a KIF text.
pub fn read_kif(name: &str, text: &str) -> Result<Record, RecordError> {
    let lines: Vec<&str> = text.lines().collect();
    let first_body = lines
        .iter()
        .position(|l| {
            let t = l.trim();
            move_line(t).is_some() || t.starts_with("手数-") || t.starts_with("変化")
        })
        .unwrap_or(lines.len());
    let mut tags = Tags::default();
    let mut comment = String::new();
    let mut handicap_name = None;
    let mut has_board = false;
    for line in &lines[..first_body] {
        let t = line.trim();
        if let Some(c) = t.strip_prefix('*') {
            push_line(&mut comment, c);
            continue;
        }
        if t.starts_with('#') || t.starts_with('&') || t.is_empty() {
            continue;
        }
        if t.starts_with('|') || t.starts_with('+') || t.starts_with('９') || t.ends_with("手番")
        {
            has_board = true;
            continue;
        }
        let Some((key, value)) = t.split_once('：').or_else(|| t.split_once(':')) else {
            continue;
        };
        let value = value.trim_matches([' ', '\u{3000}']).to_string();
        let known = (!value.is_empty()).then(|| value.clone());
        match key.trim() {
            "手合割" => handicap_name = Some(value),
            "先手" | "下手" => tags.first_player = known,
            "後手" | "上手" => tags.second_player = known,
            "棋戦" => tags.event = known,
            "開始日時" => tags.date = known,
            k if k.ends_with("の持駒") => has_board = true,
            k => tags.extra.push((k.to_string(), value)),
        }
    }
    let sfen = match handicap_name.as_deref() {
        _ if has_board => {
            read_board_diagram(&lines[..first_body]).map_err(|detail| RecordError::BadStart {
                place: format!("{name}:1"),
                detail,
            })?
        }
        None | Some("平手") => START_SFEN.to_string(),
        Some(h) => ShogiHandicap::ALL
            .into_iter()
            .find(|x| x.kif_name() == h)
            .map(|x| x.sfen().to_string())
            .ok_or_else(|| RecordError::BadStart {
                place: name.to_string(),
                detail: format!("the handicap `{h}` is not one this trainer knows"),
            })?,
    };
    let start_pos = Position::from_sfen(&sfen).map_err(|e| RecordError::BadStart {
        place: name.to_string(),
        detail: e.to_string(),
    })?;
    let first_mover = match start_pos.turn() {
        shogi::Color::Black => Side::First,
        shogi::Color::White => Side::Second,
    };
    let mut record = Record::new(shogi_start(&sfen));
    record.tags = tags;
    record.comment = comment;

    let mut done: Vec<Vec<Step>> = Vec::new();
    let mut current: Vec<Step> = Vec::new();
    // Steps held in `done` and `current` together (each line is copied from the start).
    let mut held = 0usize;
    let mut board = start_pos.clone();
    let mut last_to: Option<Square> = None;
    let mut in_main = true;
    let mut ended = false;
    let mut lead = String::new();
    let mut result = None;
    let mut summary = None;
    for (i, line) in lines.iter().enumerate().skip(first_body) {
        let place = format!("{name}:{}", i + 1);
        let t = line.trim();
        if let Some(c) = t.strip_prefix('*') {
            match current.last_mut() {
                Some(step) if !ended => push_line(&mut step.comment, c),
                _ if ended => {}
                _ => push_line(&mut lead, c),
            }
        } else if t.starts_with("変化") {
            let n = variation_ply(t)
                .filter(|&n| n >= 1)
                .ok_or_else(|| RecordError::Syntax {
                    place: place.clone(),
                    detail: format!("`{t}` names no ply"),
                })?;
            done.push(std::mem::take(&mut current));
            let from =
                done.iter()
                    .rev()
                    .find(|l| l.len() >= n)
                    .ok_or_else(|| RecordError::Syntax {
                        place: place.clone(),
                        detail: format!("no line before it reaches ply {n}"),
                    })?;
            current = from[..n - 1]
                .iter()
                .map(|s| Step::new(s.mv.clone()))
                .collect();
            held = held.saturating_add(current.len());
            if held > MAX_MOVES {
                return Err(RecordError::TooManyMoves { place });
            }
            board = start_pos.clone();
            last_to = None;
            for s in &current {
                let played = board
                    .play_in_place(&s.mv)
                    .map_err(|e| RecordError::Syntax {
                        place: place.clone(),
                        detail: e.explain(Lang::En),
                    })?;
                last_to = Some(played.to);
            }
            in_main = false;
            ended = false;
            lead.clear();
        } else if t.starts_with("まで") {
            if in_main {
                summary =
                    side_of(t.rsplit('で').next().unwrap_or("")).filter(|_| t.ends_with("勝ち"));
            }
        } else if let Some(mv) = move_line(t) {
            if ended {
                continue;
            }
            if let Some(word) = END_WORDS.iter().find(|w| mv.starts_with(**w)) {
                let ply = current.len();
                let mover = if ply.is_multiple_of(2) {
                    first_mover
                } else {
                    first_mover.other()
                };
                if in_main {
                    result = end_finish(word, mover);
                }
                ended = true;
                continue;
            }
            let usi = kif_to_usi(mv, last_to).map_err(|detail| RecordError::Syntax {
                place: place.clone(),
                detail,
            })?;
            held += 1;
            if current.len() >= MAX_PLIES {
                return Err(RecordError::TooLong { place });
            }
            if held > MAX_MOVES {
                return Err(RecordError::TooManyMoves { place });
            }
            let played = board
                .play_in_place(&usi)
                .map_err(|e| RecordError::Illegal {
                    place: place.clone(),
                    mv: mv.to_string(),
                    reason: e.explain(Lang::En),
                })?;
            let mut step = Step::new(played.usi.clone());
            step.comment = std::mem::take(&mut lead);
            current.push(step);
            last_to = Some(played.to);
        }
    }
    done.push(current);
    let mut lines_iter = done.into_iter();
    record.moves = lines_iter.next().unwrap_or_default();
    for line in lines_iter {
        insert(&mut record.moves, line, 0, name)?;
    }
    if let (Some(mut f), Some(winner)) = (result, summary) {
        if f.winner.is_some() {
            f.winner = Some(winner);
        }
        result = Some(f);
    }
    record.tags.result = result;
    Ok(record)
}

fn push_line(into: &mut String, text: &str) {
    if !into.is_empty() {
        into.push('\n');
    }
    into.push_str(text.trim_end());
}

/// Puts `rest` (a line whose steps from index 0 stand at `line[at..]`'s places) into the
/// tree of `line`: shared moves are followed, the first different move becomes a variation.
fn insert(line: &mut Vec<Step>, rest: Vec<Step>, at: usize, name: &str) -> Result<(), RecordError> {
    insert_at(line, rest, at, 0, name)
}

fn insert_at(
    line: &mut Vec<Step>,
    rest: Vec<Step>,
    at: usize,
    depth: usize,
    name: &str,
) -> Result<(), RecordError> {
    within_nesting(depth, name)?;
    for (i, step) in rest.iter().enumerate() {
        let k = at + i;
        if k >= line.len() {
            line.extend(rest.into_iter().skip(i));
            return Ok(());
        }
        if line[k].mv == step.mv {
            continue;
        }
        let tail: Vec<Step> = rest.into_iter().skip(i).collect();
        let here = &mut line[k];
        return match here.variations.iter_mut().find(|v| v[0].mv == tail[0].mv) {
            Some(v) => insert_at(v, tail, 0, depth + 1, name),
            None => {
                here.variations.push(tail);
                Ok(())
            }
        };
    }
    Ok(())
}

/// The end word and summary line of a finish after `plies` moves, `mover` to move.
fn end_lines(finish: &Finish, plies: usize, mover: Side) -> (&'static str, String) {
    let side = |s: Side| if s == Side::First { "先手" } else { "後手" };
    let word = match (finish.reason, finish.winner) {
        (Reason::Resignation, _) => "投了",
        (Reason::Checkmate, _) => "詰み",
        (Reason::Timeout, _) => "切れ負け",
        (Reason::Repetition, _) => "千日手",
        (Reason::PerpetualCheck, Some(w)) if w == mover => "反則勝ち",
        (Reason::PerpetualCheck, _) => "反則負け",
        (Reason::Impasse, Some(_)) => "入玉勝ち",
        (Reason::Impasse, None) | (Reason::Agreement, None) => "持将棋",
        _ => "中断",
    };
    let summary = match finish.winner {
        Some(w) => format!("まで{plies}手で{}の勝ち", side(w)),
        None => format!("まで{plies}手で{word}"),
    };
    (word, summary)
}

/// Writes a shogi record as KIF (UTF-8).
pub fn write_kif(record: &Record) -> Result<String, RecordError> {
    write_kif_text(record, true)
}

fn write_kif_text(record: &Record, with_end: bool) -> Result<String, RecordError> {
    let Start::Shogi(crate::base::shogi::Start { sfen, handicap }) = &record.start else {
        return Err(RecordError::WrongGame {
            format: KIF,
            game: record.start.game(),
        });
    };
    let start = Position::from_sfen(sfen).map_err(|e| RecordError::BadStart {
        place: "record".into(),
        detail: e.to_string(),
    })?;
    let mut out = String::from("#KIF version=2.0 encoding=UTF-8\n");
    let tags = &record.tags;
    if let Some(d) = &tags.date {
        out.push_str(&format!("開始日時：{d}\n"));
    }
    if let Some(e) = &tags.event {
        out.push_str(&format!("棋戦：{e}\n"));
    }
    let fields = |s: &str| s.split_whitespace().take(3).collect::<Vec<_>>().join(" ");
    if fields(sfen) == fields(START_SFEN) {
        out.push_str("手合割：平手\n");
    } else if let Some(h) = handicap.filter(|h| fields(h.sfen()) == fields(sfen)) {
        out.push_str(&format!("手合割：{}\n", h.kif_name()));
    } else {
        out.push_str(&board_diagram(&start));
    }
    out.push_str(&format!(
        "先手：{}\n",
        tags.first_player.as_deref().unwrap_or("")
    ));
    out.push_str(&format!(
        "後手：{}\n",
        tags.second_player.as_deref().unwrap_or("")
    ));
    for (k, v) in &tags.extra {
        out.push_str(&format!("{k}：{v}\n"));
    }
    for l in record.comment.lines() {
        out.push_str(&format!("*{l}\n"));
    }
    out.push_str("手数----指手---------消費時間--\n");
    let end = if with_end { tags.result.as_ref() } else { None };
    write_block(&record.moves, 1, &start, None, end, &mut out, 0)?;
    Ok(out)
}

/// Writes `line` from ply `first` (played from `pos`, the move before it went to
/// `last_to`), then its variations as `変化` blocks, the latest branch first.
fn write_block(
    line: &[Step],
    first: usize,
    pos: &Position,
    last_to: Option<Square>,
    end: Option<&Finish>,
    out: &mut String,
    depth: usize,
) -> Result<(), RecordError> {
    within_nesting(depth, "record")?;
    let mut pos = pos.clone();
    let mut last_to = last_to;
    let mut branches = Vec::new();
    for (i, step) in line.iter().enumerate() {
        let ply = first + i;
        let (next, played) = pos.play(&step.mv).map_err(|e| RecordError::Illegal {
            place: format!("record, ply {ply}"),
            mv: step.mv.clone(),
            reason: e.explain(Lang::En),
        })?;
        for v in &step.variations {
            branches.push((ply, pos.clone(), last_to, v));
        }
        out.push_str(&format!(
            "{ply:>4} {}\n",
            usi_to_kif(&pos, &played, last_to)
        ));
        for l in step.comment.lines() {
            out.push_str(&format!("*{l}\n"));
        }
        pos = next;
        last_to = Some(played.to);
    }
    if let Some(finish) = end {
        let mover = match pos.turn() {
            shogi::Color::Black => Side::First,
            shogi::Color::White => Side::Second,
        };
        let plies = first - 1 + line.len();
        let (word, summary) = end_lines(finish, plies, mover);
        out.push_str(&format!("{:>4} {word}\n{summary}\n", plies + 1));
    }
    for (ply, before, to, v) in branches.into_iter().rev() {
        out.push_str(&format!("\n変化：{ply}手\n"));
        write_block(v, ply, &before, to, None, out, depth + 1)?;
    }
    Ok(())
}

/// The rsshogi end entry of a finish.
fn special_of(finish: &Finish) -> SpecialMoveEntry {
    let win = |side: Side| match side {
        Side::First => GameResult::BlackWin,
        Side::Second => GameResult::WhiteWin,
    };
    let (kind, result) = match (finish.reason, finish.winner) {
        (Reason::Resignation, Some(w)) => (SpecialMove::Resign, win(w)),
        (Reason::Checkmate, Some(w)) => (SpecialMove::Mate, win(w)),
        (Reason::Timeout, Some(w)) => (SpecialMove::Timeout, win(w)),
        (Reason::Repetition, _) => (SpecialMove::RepetitionDraw, GameResult::DrawByRepetition),
        (Reason::PerpetualCheck, Some(w)) => (SpecialMove::WinByIllegalMove, win(w)),
        (Reason::Impasse, Some(w)) => (
            SpecialMove::WinByDeclaration,
            match w {
                Side::First => GameResult::BlackWinByDeclaration,
                Side::Second => GameResult::WhiteWinByDeclaration,
            },
        ),
        (Reason::Impasse, None) => (SpecialMove::Impasse, GameResult::DrawByImpasse),
        (_, Some(w)) => (SpecialMove::Resign, win(w)),
        (_, None) => (SpecialMove::Interrupt, GameResult::Paused),
    };
    SpecialMoveEntry::new(kind, result)
}

/// The finish an rsshogi end entry means.
fn finish_of(special: &SpecialMoveEntry) -> Option<Finish> {
    let winner = match special.result() {
        GameResult::BlackWin
        | GameResult::BlackWinByDeclaration
        | GameResult::BlackWinByForfeit
        | GameResult::BlackWinByIllegalMove
        | GameResult::BlackWinByTimeout
        | GameResult::BlackWinByTryRule => Some(Side::First),
        GameResult::WhiteWin
        | GameResult::WhiteWinByDeclaration
        | GameResult::WhiteWinByForfeit
        | GameResult::WhiteWinByIllegalMove
        | GameResult::WhiteWinByTimeout
        | GameResult::WhiteWinByTryRule => Some(Side::Second),
        _ => None,
    };
    let reason = match special.kind() {
        SpecialMove::Resign => Reason::Resignation,
        SpecialMove::Mate => Reason::Checkmate,
        SpecialMove::Timeout => Reason::Timeout,
        SpecialMove::RepetitionDraw => Reason::Repetition,
        SpecialMove::Impasse | SpecialMove::WinByDeclaration => Reason::Impasse,
        SpecialMove::WinByIllegalMove | SpecialMove::LoseByIllegalMove => Reason::PerpetualCheck,
        SpecialMove::Interrupt => Reason::Abandoned,
        SpecialMove::Draw => Reason::Agreement,
        _ => return None,
    };
    Some(Finish { winner, reason })
}

/// Writes a shogi record as KI2 or CSA with rsshogi's exporters (from the KIF written here,
/// read by rsshogi with its variations).
pub fn write_with_rsshogi(record: &Record, format: Format) -> Result<String, RecordError> {
    let kif = write_kif_text(record, false)?;
    let failed = |e: String| RecordError::Syntax {
        place: format!("record as {}", format.as_str()),
        detail: e,
    };
    let mut rs = rs_kif::parse_kif_str(&kif).map_err(|e| failed(e.to_string()))?;
    if let Some(finish) = &record.tags.result {
        rs.set_main_terminal(special_of(finish))
            .map_err(|e| failed(e.to_string()))?;
    }
    let text = match format {
        f if f == KI2 => rs_kif::export_ki2(&rs).map_err(|e| failed(e.to_string()))?,
        f if f == CSA => csa::export_csa(&rs).map_err(|e| failed(e.to_string()))?,
        _ => return write_kif(record),
    };
    // rsshogi's board diagrams lose some starts (an empty board, ten or more of a piece in
    // hand): what it wrote must read back from the same start, or it is refused.
    let name = format!("record.{}", format.extension());
    let back = read_with_rsshogi(&name, text.as_bytes(), format)?;
    if back.first().map(|b| &b.start) != Some(&shogi_start(sfen_of(record))) {
        return Err(RecordError::BadStart {
            place: name,
            detail: format!(
                "this start position cannot be written as {}; write KIF",
                format.as_str()
            ),
        });
    }
    Ok(text)
}

fn sfen_of(record: &Record) -> &str {
    match &record.start {
        Start::Shogi(crate::base::shogi::Start { sfen, .. }) => sfen,
        _ => "",
    }
}

/// Reads KI2 or CSA: moves and variations by [`split::read`], tags and result
/// from rsshogi's reading of the whole file.
fn read_with_rsshogi(name: &str, bytes: &[u8], format: Format) -> Result<Vec<Record>, RecordError> {
    let games = split::read(name, bytes).map_err(|detail| RecordError::Syntax {
        place: name.to_string(),
        detail,
    })?;
    let metadata: Vec<rsshogi::records::Record> = split::guarded(format, || match format {
        f if f == CSA => csa::parse_csa_games_bytes(bytes).map_err(|e| e.to_string()),
        _ => rs_kif::parse_ki2_bytes(bytes)
            .map(|r| vec![r])
            .map_err(|e| e.to_string()),
    })
    .unwrap_or_default();
    let decoded = decode(bytes);
    let mut out = Vec::new();
    for (i, game) in games.into_iter().enumerate() {
        let mut record = Record::new(shogi_start(&game.start));
        record.moves = game.main.iter().map(Step::new).collect();
        for v in game.variations {
            let rest: Vec<Step> = v.line.iter().map(Step::new).collect();
            insert(&mut record.moves, rest, 0, name)?;
        }
        record.notes = game.notes;
        if let Some(rs) = metadata.get(i) {
            let m = rs.metadata();
            let text =
                |v: Option<&str>| v.map(str::trim).filter(|v| !v.is_empty()).map(String::from);
            record.tags.first_player = text(m.black_player());
            record.tags.second_player = text(m.white_player());
            record.tags.event = text(m.event());
            record.tags.date = text(m.start_date());
            // rsshogi's KI2 reader ends a record without an end word with 中断.
            let said = |special: &&SpecialMoveEntry| {
                !matches!(special.kind(), SpecialMove::Interrupt) || decoded.contains("中断")
            };
            record.tags.result = rs.main_terminal().filter(said).and_then(finish_of);
            // The comments of the main line, when rsshogi read the same moves.
            let ids = rs.main_line_ids();
            let same = ids.len() == record.moves.len()
                && ids.iter().zip(&record.moves).all(|(id, step)| {
                    rs.node(*id).mv().map(|m| m.mv().to_usi()).as_deref() == Some(step.mv.as_str())
                });
            if same {
                for (id, step) in ids.iter().zip(record.moves.iter_mut()) {
                    step.comment = rs.node(*id).comment().unwrap_or("").trim().to_string();
                }
            }
            record.comment = rs.initial_comment().unwrap_or("").trim().to_string();
        }
        out.push(record);
    }
    Ok(out)
}

/// KIF: shogi records as 柿木 writes them, one game a file.
pub const KIF: Format = Format::new(&KIF_KIND);

static KIF_KIND: super::FormatKind = super::FormatKind {
    game: crate::base::Game::Shogi,
    name: "KIF",
    extensions: &["kif", "kifu"],
    mime: "text/plain; charset=utf-8",
    many_games: None,
    claims: |_| true,
    read,
    write: |record, _| write_kif(record),
    summarize: |bytes| vec![super::library::kif_summary(&decode(bytes))],
};

/// KI2: shogi moves as players write them, one game a file.
pub const KI2: Format = Format::new(&KI2_KIND);

static KI2_KIND: super::FormatKind = super::FormatKind {
    game: crate::base::Game::Shogi,
    name: "KI2",
    extensions: &["ki2", "ki2u"],
    mime: "text/plain; charset=utf-8",
    many_games: None,
    claims: |_| true,
    read,
    write: write_with_rsshogi,
    summarize: |bytes| vec![super::library::kif_summary(&decode(bytes))],
};

/// CSA: shogi records of the コンピュータ将棋協会, one game a file.
pub const CSA: Format = Format::new(&CSA_KIND);

static CSA_KIND: super::FormatKind = super::FormatKind {
    game: crate::base::Game::Shogi,
    name: "CSA",
    extensions: &["csa"],
    mime: "text/plain; charset=utf-8",
    many_games: None,
    claims: |_| true,
    read,
    write: write_with_rsshogi,
    summarize: |bytes| vec![super::library::csa_summary(&decode(bytes))],
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kif_moves_become_usi() {
        let sq = Square::parse("2c");
        assert_eq!(kif_to_usi("７六歩(77)", None).unwrap(), "7g7f");
        assert_eq!(kif_to_usi("同　銀(31)", sq).unwrap(), "3a2c");
        assert_eq!(kif_to_usi("同銀(31)", sq).unwrap(), "3a2c");
        assert_eq!(kif_to_usi("２二角成(88)", None).unwrap(), "8h2b+");
        assert_eq!(kif_to_usi("２三歩不成(24)", None).unwrap(), "2d2c");
        assert_eq!(kif_to_usi("５五角打", None).unwrap(), "B*5e");
        assert_eq!(kif_to_usi("２二成銀(31)", None).unwrap(), "3a2b");
        assert!(kif_to_usi("同　歩(23)", None).is_err());
        assert!(kif_to_usi("５五玉打", None).is_err());
    }

    #[test]
    fn move_lines_keep_the_same_square_mark() {
        assert_eq!(
            move_line("   4 同　銀(31)   ( 0:00/00:00:00)"),
            Some("同　銀(31)")
        );
        assert_eq!(
            move_line("  17 ５六歩打     ( 0:00/00:00:00)"),
            Some("５六歩打")
        );
        assert_eq!(move_line("手数----指手"), None);
        assert_eq!(variation_ply("変化：   9手"), Some(9));
        assert_eq!(variation_ply("変化：１２手"), Some(12));
        assert_eq!(variation_ply("変化：10手"), Some(10));
    }

    #[test]
    fn a_board_diagram_with_its_last_move_line_keeps_gotes_turn() {
        let bod = "後手の持駒：なし\n  ９ ８ ７ ６ ５ ４ ３ ２ １\n+---------------------------+\n| ・ ・ ・ ・v玉 ・ ・ ・ ・|一\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|二\n| ・ ・ ・ ・ 金 ・ ・ ・ ・|三\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|四\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|五\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|六\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|七\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|八\n| ・ ・ ・ ・ 玉 ・ ・ ・ ・|九\n+---------------------------+\n先手の持駒：歩十八\n手数＝1  ▲５三金  まで\n後手番\n手数----指手---------消費時間--\n   1 ４一玉(51)\n";
        let game = read_kif("bod.kif", bod).unwrap();
        let Start::Shogi(crate::base::shogi::Start { sfen, .. }) = &game.start else {
            panic!("{:?}", game.start)
        };
        assert_eq!(sfen, "4k4/9/4G4/9/9/9/9/9/4K4 w 18P 1");
        assert_eq!(game.main_line(), ["5a4a"]);
        let out = write_kif(&game).unwrap();
        assert!(out.contains("先手の持駒：歩十八\n後手番\n"), "{out}");
    }

    #[test]
    fn an_illegal_move_is_refused_with_its_line() {
        let text =
            "手合割：平手\n手数----指手---------消費時間--\n   1 ７六歩(77)\n   2 ７五歩(76)\n";
        let err = read_kif("bad.kif", text).unwrap_err();
        assert!(
            err.to_string()
                .starts_with("bad.kif:4: illegal move ７五歩(76)"),
            "{err}"
        );
    }

    #[test]
    fn variations_are_written_latest_branch_first_and_read_back() {
        let text = "手合割：平手\n手数----指手---------消費時間--\n   1 ７六歩(77)\n   2 ３四歩(33)\n   3 ２六歩(27)\n\n変化：2手\n   2 ８四歩(83)\n\n変化：3手\n   3 ６六歩(67)\n";
        // 変化：3手 follows the 2手 block: its most recent line reaching ply 3 is the main line
        // (the 2手 block has 2 plies).
        let game = read_kif("v.kif", text).unwrap();
        assert_eq!(
            game.lines(),
            vec![
                vec!["7g7f", "3c3d", "2g2f"],
                vec!["7g7f", "8c8d"],
                vec!["7g7f", "3c3d", "6g6f"],
            ]
        );
        let out = write_kif(&game).unwrap();
        let three = out.find("変化：3手").unwrap();
        let two = out.find("変化：2手").unwrap();
        assert!(three < two, "{out}");
        assert_eq!(read_kif("again.kif", &out).unwrap().moves, game.moves);
    }
}
