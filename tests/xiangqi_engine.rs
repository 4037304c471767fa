//! The xiangqi rules engine (`qiyuan::rules::xiangqi`) against Fairy-Stockfish
//! (`/usr/games/fairy-stockfish`, or `$FAIRY_STOCKFISH`), an independent implementation
//! spoken to over UCI with `UCI_Variant xiangqi`. A missing Fairy-Stockfish fails these
//! tests; it is never skipped.
//!
//! * `plays_through_the_rules_trait`: moves written three ways played through [`Rules`],
//!   their ICCS names and Chinese notation, and a refusal naming its point.
//! * `perft_from_the_start`: 44, 1,920 and 79,666 at depths 1–3, and the same totals from
//!   Fairy-Stockfish's `go perft` (depth 4, 3,290,240, in a release build only).
//! * `random_games_agree_with_fairy_stockfish`: 2,000 positions reached by random play
//!   from the start (fixed seed, games of at most 100 plies): the legal moves
//!   (Fairy-Stockfish's per-move list of `go perft 1`), whether the side to move is in check (`d`'s `Checkers:`), the FEN
//!   after the game's moves (`d`'s `Fen:`, counters included), the end of each game, and
//!   perft 2 of every tenth position.
//! * `ends_and_checks_agree_with_fairy_stockfish`: a stalemate (困毙, which loses), a
//!   mate and three checks set up by hand, compared the same way.
//! * `ccpd_games_read_and_agree`: the 374 games of `tests/data/xiangqi/ccpd.tsv` (CCPD
//!   endgames and kills, CC BY 4.0): each game's FEN is read and written back, each move
//!   is read from the book's own Chinese notation (traditional characters, full-width
//!   digits), every position reached is compared with Fairy-Stockfish as above, and
//!   perft 2 (perft 3 for the first 40) from each game's FEN.
//! * `notation_round_trips`: every legal move of the random positions and of every tenth
//!   CCPD position (some 2,500) written in WXF, Chinese notation and ICCS and read back to
//!   the same move.
//! * `every_refusal_is_explained`: every from–to pair of the side to move's pieces in 200
//!   of those positions is legal exactly when it is in `legal_moves`, and a refused one
//!   has a reason in both languages.

mod fairy;

use fairy::Fsf;
use qiyuan::lang::Lang;
use qiyuan::rules::xiangqi::{Kind, Move, Outcome, Point, Position, START_FEN};
use qiyuan::rules::Rules;
use std::collections::BTreeSet;
use std::time::Instant;

const RELEASE: bool = !cfg!(debug_assertions);

fn names(moves: &[Move]) -> BTreeSet<String> {
    moves.iter().map(|m| m.iccs()).collect()
}

/// A small fixed-seed generator (xorshift64*).
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 33) as usize % n
    }
}

/// A game: the FEN it starts from, the moves played (ICCS) and the positions, the start
/// first.
struct Line {
    fen: String,
    moves: Vec<String>,
    positions: Vec<Position>,
}

/// Random games from the start (seed fixed) until `count` positions are collected; a
/// game stops at its end or after 100 plies. Captures are preferred half the time, so
/// that the games reach thin endgames, checks and mates.
fn random_lines(count: usize) -> Vec<Line> {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let mut lines = Vec::new();
    let mut total = 0;
    while total < count {
        let mut pos = Position::start();
        let mut line = Line {
            fen: START_FEN.to_string(),
            moves: Vec::new(),
            positions: vec![pos.clone()],
        };
        while line.moves.len() < 100
            && pos.outcome().is_none()
            && total + line.positions.len() < count
        {
            let moves = pos.legal_moves();
            let captures: Vec<&Move> = moves.iter().filter(|m| m.captured.is_some()).collect();
            let mv = if !captures.is_empty() && rng.below(2) == 0 {
                *captures[rng.below(captures.len())]
            } else {
                moves[rng.below(moves.len())]
            };
            pos.play_in_place(&mv.iccs()).unwrap();
            line.moves.push(mv.iccs());
            line.positions.push(pos.clone());
        }
        total += line.positions.len();
        lines.push(line);
    }
    lines
}

/// The CCPD games: (name, FEN, moves as written).
fn ccpd() -> Vec<(String, String, Vec<String>)> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/xiangqi/ccpd.tsv");
    std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("cannot read {path}: {e}"))
        .lines()
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            let moves = f
                .get(2)
                .map(|m| m.split_whitespace().map(String::from).collect());
            (
                f[0].to_string(),
                f[1].to_string(),
                moves.unwrap_or_default(),
            )
        })
        .collect()
}

/// Plays a CCPD game through the Chinese reader: the line, the first move it could not
/// read (with the reason), after which it stops, and the repetitions the book plays
/// through. A book may show a position a third time (an endgame study showing that a
/// line repeats); the engine ends the game there, so the reader starts a fresh history
/// from that position's FEN and goes on, and the repetition is reported.
fn ccpd_line(name: &str, fen: &str, written: &[String]) -> (Line, Option<String>, Vec<String>) {
    let mut pos = Position::from_fen(fen).unwrap_or_else(|e| panic!("{name}: {e}"));
    let mut line = Line {
        fen: fen.to_string(),
        moves: Vec::new(),
        positions: vec![pos.clone()],
    };
    let mut repeated = Vec::new();
    for (i, text) in written.iter().enumerate() {
        if let Some(end @ (Outcome::Repetition | Outcome::PerpetualCheck { .. })) = pos.outcome() {
            repeated.push(format!("{name} before move {}: {end}", i + 1));
            pos = Position::from_fen(&pos.fen()).unwrap();
        }
        match pos.play_in_place(text) {
            Ok(mv) => {
                line.moves.push(mv.iccs());
                line.positions.push(pos.clone());
            }
            Err(e) => {
                let err = format!("{name} move {} {text}: {e}", i + 1);
                return (line, Some(err), repeated);
            }
        }
    }
    (line, None, repeated)
}

/// Compares every position of `line` with Fairy-Stockfish: legal moves, check, FEN (the
/// positions after moves are set up from the line's FEN and its moves, so that the
/// counters are Fairy-Stockfish's own). Returns (positions, checks, ends with no move).
fn compare_line(fsf: &mut Fsf, line: &Line, label: &str) -> (usize, usize, usize) {
    let (mut checks, mut mates) = (0, 0);
    for (i, pos) in line.positions.iter().enumerate() {
        fsf.position(&line.fen, &line.moves[..i]);
        let (fen, check) = fsf.show();
        assert_eq!(pos.fen(), fen, "{label} after {} moves", i);
        assert_eq!(pos.is_check(), check, "{label}: check in {fen}");
        let (theirs, total) = fsf.perft(1);
        let ours = names(&pos.legal_moves());
        assert_eq!(
            ours,
            theirs,
            "{label}: legal moves of {fen}: ours only {:?}, Fairy-Stockfish only {:?}",
            ours.difference(&theirs).collect::<Vec<_>>(),
            theirs.difference(&ours).collect::<Vec<_>>()
        );
        assert_eq!(total as usize, ours.len());
        checks += check as usize;
        if ours.is_empty() {
            mates += 1;
            let expected = if check {
                Outcome::Checkmate {
                    winner: pos.turn().opponent(),
                }
            } else {
                Outcome::Stalemate {
                    winner: pos.turn().opponent(),
                }
            };
            assert_eq!(pos.outcome(), Some(expected), "{label}: {fen}");
        }
    }
    (line.positions.len(), checks, mates)
}

/// The engine as every game is spoken to: the `Rules` trait.
fn line<P: Rules>(start: &P, moves: &[&str]) -> Result<Vec<(String, String)>, String> {
    let mut pos = start.clone();
    let mut out = Vec::new();
    for text in moves {
        let (next, played) = pos
            .play(text)
            .map_err(|e| qiyuan::rules::Explain::explain(&e, Lang::En))?;
        out.push((pos.move_name(&played), pos.notation(&played)));
        pos = next;
    }
    Ok(out)
}

#[test]
fn plays_through_the_rules_trait() {
    let start = Position::start();
    let got = line(&start, &["炮二平五", "H8+7", "b0c2", "车９平８"]).unwrap();
    let want = [
        ("h2e2", "炮二平五"),
        ("h9g7", "马8进7"),
        ("b0c2", "马八进七"),
        ("i9h9", "车9平8"),
    ];
    let got: Vec<(&str, &str)> = got.iter().map(|(a, b)| (a.as_str(), b.as_str())).collect();
    assert_eq!(got, want);
    // 马三进二 from g2 to h4: the soldier on g3 blocks the horse's leg.
    let err = line(&start, &["h0g2", "b9c7", "g2h4"]).unwrap_err();
    assert!(err.contains("g3"), "{err}");
    assert_eq!(Rules::legal_moves(&start).len(), 44);
    assert!(Rules::ending(&start).is_none());
}

#[test]
fn perft_from_the_start() {
    let pos = Position::start();
    let mut fsf = Fsf::start("the xiangqi engine test");
    let expected: &[u64] = if RELEASE {
        &[44, 1_920, 79_666, 3_290_240]
    } else {
        &[44, 1_920, 79_666]
    };
    for (depth, &nodes) in (1..).zip(expected) {
        let t = Instant::now();
        let ours = pos.perft(depth);
        let ours_time = t.elapsed();
        fsf.position(START_FEN, &[]);
        let t = Instant::now();
        let (_, theirs) = fsf.perft(depth);
        eprintln!(
            "perft {depth}: {ours} in {ours_time:.2?}; Fairy-Stockfish {theirs} in {:.2?}",
            t.elapsed()
        );
        assert_eq!(ours, nodes);
        assert_eq!(theirs, nodes);
    }
}

/// Positions where the side to move has no legal move, or is in check, set up by hand:
/// 困毙 (stalemate, a loss in xiangqi), 将死 by two chariots, a horse's check, a cannon's
/// check over a screen, and a horse whose leg is blocked.
#[test]
fn ends_and_checks_agree_with_fairy_stockfish() {
    let cases = [
        ("4k4/9/4P4/9/9/9/9/9/9/3RKR3 b - - 0 1", Some("stalemate")),
        ("R3k4/R8/9/9/9/9/9/9/9/3K5 b - - 0 1", Some("checkmate")),
        ("3k5/9/2N6/9/9/9/9/9/9/4K4 b - - 0 1", None),
        ("4k4/9/9/9/4p4/9/9/4C4/9/3K5 b - - 0 1", None),
        ("3k5/9/9/9/9/9/9/9/7C1/4K2N1 w - - 0 1", None),
    ];
    let mut fsf = Fsf::start("the xiangqi engine test");
    for (fen, end) in cases {
        let pos = Position::from_fen(fen).unwrap();
        let line = Line {
            fen: fen.to_string(),
            moves: Vec::new(),
            positions: vec![pos.clone()],
        };
        compare_line(&mut fsf, &line, fen);
        let ours = pos.outcome().map(|o| match o {
            Outcome::Stalemate { .. } => "stalemate",
            Outcome::Checkmate { .. } => "checkmate",
            _ => "other",
        });
        assert_eq!(ours, end, "{fen}");
        if let Some(o) = pos.outcome() {
            assert_eq!(o.winner(), Some(pos.turn().opponent()));
        }
    }
}

#[test]
fn random_games_agree_with_fairy_stockfish() {
    let start = Instant::now();
    let lines = random_lines(2_000);
    let mut fsf = Fsf::start("the xiangqi engine test");
    let (mut n, mut checks, mut mates, mut ends) = (0, 0, 0, Vec::new());
    let mut deeper = 0;
    for (i, line) in lines.iter().enumerate() {
        let (p, c, m) = compare_line(&mut fsf, line, &format!("random game {i}"));
        n += p;
        checks += c;
        mates += m;
        ends.push(line.positions.last().unwrap().outcome());
        // Perft 2 of every tenth position, against Fairy-Stockfish's total.
        for (k, pos) in line.positions.iter().enumerate().step_by(10) {
            fsf.position(&line.fen, &line.moves[..k]);
            let (_, theirs) = fsf.perft(2);
            assert_eq!(
                pos.perft(2),
                theirs,
                "random game {i}: perft 2 of {}",
                pos.fen()
            );
            deeper += 1;
        }
    }
    eprintln!(
        "{n} positions of {} random games agree with Fairy-Stockfish ({checks} in check, {mates} without a legal move; perft 2 of {deeper}); ends {:?}; {:.2?}",
        lines.len(),
        ends,
        start.elapsed()
    );
    assert!(n >= 2_000 && checks >= 20 && mates >= 1);
}

#[test]
fn ccpd_games_read_and_agree() {
    let start = Instant::now();
    let games = ccpd();
    assert_eq!(games.len(), 374);
    let mut fsf = Fsf::start("the xiangqi engine test");
    let (mut n, mut checks, mut mates, mut moves) = (0, 0, 0, 0);
    let (mut unread, mut repeated) = (Vec::new(), Vec::new());
    let (mut same_text, mut by_file, mut other_text) = (0, 0, Vec::new());
    for (k, (name, fen, written)) in games.iter().enumerate() {
        let pos = Position::from_fen(fen).unwrap();
        assert_eq!(&pos.fen(), fen, "{name}");
        let (line, err, rep) = ccpd_line(name, fen, written);
        unread.extend(err);
        repeated.extend(rep);
        moves += line.moves.len();
        // The book's notation against ours, traditional characters made simplified.
        for (i, iccs) in line.moves.iter().enumerate() {
            let before = &line.positions[i];
            let mv = *before
                .legal_moves()
                .iter()
                .find(|m| &m.iccs() == iccs)
                .unwrap();
            let ours = before.notation(&mv);
            let book = simplified(&written[i]);
            if ours == book {
                same_text += 1;
            } else if ours.starts_with(['前', '中', '后'])
                && book.chars().next().and_then(Kind::from_hanzi) == Some(mv.piece)
                && book.chars().skip(2).eq(ours.chars().skip(2))
            {
                // Two of a kind on the file, only one of which can make the move: the book
                // names it by its file, as the rules of notation do not; ours says 前/后.
                by_file += 1;
            } else {
                other_text.push(format!(
                    "{name} {}: book {} ours {ours} in {}",
                    i + 1,
                    written[i],
                    before.fen()
                ));
            }
        }
        let (p, c, m) = compare_line(&mut fsf, &line, name);
        n += p;
        checks += c;
        mates += m;
        let depth = if k < 40 { 3 } else { 2 };
        fsf.position(fen, &[]);
        let (_, theirs) = fsf.perft(depth);
        assert_eq!(pos.perft(depth), theirs, "{name}: perft {depth} of {fen}");
    }
    eprintln!(
        "ccpd: {} games, {moves} moves read from Chinese notation, {n} positions agree with Fairy-Stockfish ({checks} in check, {mates} without a legal move); {same_text} moves written as the book writes them, {by_file} tandem pieces the book names by file where we write 前/后, {} otherwise: {:?}; repetitions played through: {repeated:?}; {:.2?}",
        games.len(),
        other_text.len(),
        &other_text[..other_text.len().min(10)],
        start.elapsed()
    );
    assert!(
        unread.is_empty(),
        "{} moves not read: {unread:#?}",
        unread.len()
    );
    assert!(
        other_text.is_empty(),
        "{} moves written otherwise than the book: {:#?}",
        other_text.len(),
        &other_text[..other_text.len().min(12)]
    );
}

/// The book's text in simplified characters and ASCII digits, as `notation` writes it.
fn simplified(text: &str) -> String {
    text.chars()
        .map(|c| match c {
            '車' | '俥' => '车',
            '馬' | '傌' => '马',
            '帥' => '帅',
            '將' => '将',
            '砲' => '炮',
            '進' => '进',
            '後' => '后',
            '１'..='９' => char::from(b'1' + (c as u32 - '１' as u32) as u8),
            c => c,
        })
        .collect()
}

/// The positions of the random games and every tenth position of the CCPD games, those
/// where the game goes on.
fn sample_positions() -> Vec<Position> {
    let mut out: Vec<Position> = random_lines(2_000)
        .into_iter()
        .flat_map(|l| l.positions)
        .collect();
    let mut book = Vec::new();
    for (name, fen, written) in ccpd() {
        book.extend(ccpd_line(&name, &fen, &written).0.positions);
    }
    out.extend(book.into_iter().step_by(10));
    // A game that has ended refuses every move; the notation is read elsewhere.
    out.retain(|p| p.outcome().is_none());
    out
}

#[test]
fn notation_round_trips() {
    let start = Instant::now();
    let positions = sample_positions();
    let mut count = 0;
    for pos in &positions {
        for mv in pos.legal_moves() {
            for text in [pos.wxf(&mv), pos.chinese(&mv), mv.iccs()] {
                let (_, back) = pos.play(&text).unwrap_or_else(|e| {
                    panic!("{pos:?}: {} written {text} is refused: {e}", mv.iccs())
                });
                assert_eq!(back, mv, "{pos:?}: {text}");
                count += 1;
            }
            assert_eq!(pos.move_name(&mv), mv.iccs());
        }
    }
    eprintln!(
        "{count} texts of the legal moves of {} positions read back to their moves in {:.2?}",
        positions.len(),
        start.elapsed()
    );
}

#[test]
fn every_refusal_is_explained() {
    let positions = sample_positions();
    let mut refused = 0;
    for pos in positions.iter().step_by(positions.len() / 200) {
        if pos.outcome().is_some() {
            continue;
        }
        let legal = pos.legal_moves();
        for (from, color, _) in pos.pieces() {
            if color != pos.turn() {
                continue;
            }
            for to in Point::all() {
                let text = format!("{from}{to}");
                let is_legal = legal.iter().any(|m| m.from == from && m.to == to);
                match pos.play(&text) {
                    Ok(_) => assert!(is_legal, "{pos:?}: {text} accepted"),
                    Err(e) => {
                        assert!(!is_legal, "{pos:?}: {text} refused: {e}");
                        for lang in [Lang::Zh, Lang::En] {
                            assert!(!qiyuan::rules::Explain::explain(&e, lang).is_empty());
                        }
                        refused += 1;
                    }
                }
            }
        }
    }
    eprintln!("{refused} refusals explained");
}
