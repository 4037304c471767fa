//! Counting (`qiyuan::rules::go::score`) against the goscorer corpus (lightvector/goscorer's
//! expected outputs: boards with dead stones marked and the expected territory maps under
//! territory counting), plus the Chinese-rules numbers of the seed text.
//!
//! The corpus is read from `$QIYUAN_CORPUS` or `tests/data/corpus`; the test fails if it
//! is missing. Nothing from it is copied into the repository.

mod common;

use qiyuan::lang::Lang;
use qiyuan::rules::go::score::classify_grid;
use qiyuan::rules::go::{score, Board, Color, Counting, Outcome, Owner, Scoring};
use std::path::PathBuf;

fn corpus() -> PathBuf {
    common::corpus("go/goscorer")
}

/// Goscorer reads the eye space that dead stones leave behind (how the owner must capture
/// them, whether the opponent's throw-ins spoil an eye) and may call the group seki, or
/// withhold the points next to a throw-in. The players marked those stones dead: by the
/// rules they come off and the space they leave is counted as it stands.
const DEAD_IN_EYE: &str = "dead stones inside the eye space: goscorer judges the eye by reading";

/// Unfinished boundaries: goscorer decides whether an open or half-closed space is an eye,
/// and whether stones are connected, by its own patterns (connection blocks, loose eyes,
/// bamboo joints, chains of two-point false eyes). The rules count a finished board; here
/// the players would close these boundaries before counting.
const LOOSE: &str = "open boundaries: goscorer guesses how they close";

/// Eye shapes whose life depends on who plays first (the L-group, an edge group whose eye a
/// hane has reduced): goscorer reads them; the rules leave life and death to the players.
const SHAPE: &str = "unsettled eye shape: goscorer reads life and death";

/// Fixtures left out, and why. Goscorer is a heuristic scorer: besides applying the rules to
/// a finished position, it reads eye shapes and guesses how unfinished boundaries will be
/// closed. Where its map depends on such reading rather than on the position as the rules
/// count it, the fixture is left out here; every other fixture must match point for point.
const EXCLUDED: &[(&str, &str)] = &[
    ("test_7pteyes", DEAD_IN_EYE),
    ("test_7pteyes_2", DEAD_IN_EYE),
    ("test_8pteyes", DEAD_IN_EYE),
    ("test_basic_sekis_marked_dead", DEAD_IN_EYE),
    ("test_belly_eye2", DEAD_IN_EYE),
    ("test_cross_nopoke", DEAD_IN_EYE),
    ("test_cross_noseal", LOOSE),
    ("test_cross_poke", DEAD_IN_EYE),
    ("test_cross_poke_deeper", DEAD_IN_EYE),
    ("test_dead_stone_marking", DEAD_IN_EYE),
    ("test_double_throwin_seki4", DEAD_IN_EYE),
    ("test_false_eye_multicycles1", DEAD_IN_EYE),
    ("test_false_eye_multicycles2", DEAD_IN_EYE),
    ("test_false_eyes_2", DEAD_IN_EYE),
    ("test_false_eyes_chain_big_false_eye", LOOSE),
    ("test_false_eyes_chain_big_false_eye_aliveend", LOOSE),
    ("test_false_eyes_chain_loose_eye", LOOSE),
    ("test_false_eyes_chain_loose_eye_3", LOOSE),
    ("test_false_eyes_chain_no_bamboo", LOOSE),
    ("test_hanezeki2", DEAD_IN_EYE),
    ("test_lgroups_and_rectanglelikes", SHAPE),
    ("test_lgroups_and_rectanglelikes2", DEAD_IN_EYE),
    ("test_lgroups_and_rectanglelikes3", DEAD_IN_EYE),
    ("test_lgroups_and_rectanglelikes4", DEAD_IN_EYE),
    ("test_lgroups_and_rectanglelikes5", DEAD_IN_EYE),
    ("test_live_in_a_row_with_hane", SHAPE),
    ("test_live_in_a_row_with_hane_throwin", DEAD_IN_EYE),
    ("test_live_in_a_row_with_hane_throwin_poke", DEAD_IN_EYE),
    ("test_more_fancy_sekis", DEAD_IN_EYE),
    ("test_no_bamboo_interleave_seki_broken", LOOSE),
    ("test_side_bamboo_cut", LOOSE),
    ("test_three_point_false_eye", LOOSE),
    ("test_three_point_false_eye_cycle", LOOSE),
    ("test_three_way_pokes", DEAD_IN_EYE),
    ("test_throwin_false_eye_chains", DEAD_IN_EYE),
    ("test_various_eyefillings", DEAD_IN_EYE),
    ("test_various_eyefillings2", DEAD_IN_EYE),
    ("test_various_eyefillings2b", DEAD_IN_EYE),
    ("test_various_eyefillings2c", DEAD_IN_EYE),
    ("test_various_eyefillings3", DEAD_IN_EYE),
    ("test_various_eyefillings4", DEAD_IN_EYE),
    ("test_various_eyefillings5", DEAD_IN_EYE),
];

struct Fixture {
    name: String,
    width: usize,
    height: usize,
    stones: Vec<Option<Color>>,
    dead: Vec<bool>,
    territory: Vec<Option<Color>>,
}

fn read_fixture(name: &str, text: &str) -> Fixture {
    let mut sections: Vec<(String, Vec<String>)> = Vec::new();
    for line in text.lines() {
        let line = line.trim_end();
        if line.ends_with(':')
            && line
                .chars()
                .all(|c| c.is_ascii_uppercase() || c == ' ' || c == ':')
        {
            sections.push((line.trim_end_matches(':').to_string(), Vec::new()));
        } else if !line.is_empty() {
            sections
                .last_mut()
                .expect("a section header first")
                .1
                .push(line.to_string());
        }
    }
    let get = |title: &str| {
        sections
            .iter()
            .find(|(t, _)| t == title)
            .unwrap_or_else(|| panic!("{name}: no {title} section"))
            .1
            .clone()
    };
    let board = get("BOARD");
    let territory = get("TERRITORY");
    let height = board.len();
    let width = board[0].len();
    let mut stones = Vec::new();
    let mut dead = Vec::new();
    for row in &board {
        assert_eq!(row.len(), width, "{name}: ragged board");
        for ch in row.chars() {
            let (s, d) = match ch {
                '.' => (None, false),
                'x' => (Some(Color::Black), false),
                'o' => (Some(Color::White), false),
                'b' => (Some(Color::Black), true),
                'w' => (Some(Color::White), true),
                other => panic!("{name}: unexpected `{other}` on the board"),
            };
            stones.push(s);
            dead.push(d);
        }
    }
    let territory = territory
        .iter()
        .flat_map(|row| row.chars())
        .map(|ch| match ch {
            'z' => Some(Color::Black),
            'a' => Some(Color::White),
            _ => None,
        })
        .collect::<Vec<_>>();
    assert_eq!(
        territory.len(),
        width * height,
        "{name}: territory map size"
    );
    Fixture {
        name: name.to_string(),
        width,
        height,
        stones,
        dead,
        territory,
    }
}

fn picture(f: &Fixture, map: &[Option<Color>]) -> String {
    let mut out = String::new();
    for r in 0..f.height {
        for c in 0..f.width {
            let i = r * f.width + c;
            out.push(match (map[i], f.stones[i], f.dead[i]) {
                (Some(Color::Black), _, _) => 'z',
                (Some(Color::White), _, _) => 'a',
                (None, Some(Color::Black), false) => 'x',
                (None, Some(Color::White), false) => 'o',
                (None, Some(Color::Black), true) => 'b',
                (None, Some(Color::White), true) => 'w',
                (None, None, _) => '.',
            });
        }
        out.push('\n');
    }
    out
}

#[test]
fn territory_maps_match_goscorer() {
    let dir = corpus().join("go/goscorer");
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".txt"))
        .collect();
    names.sort();
    assert_eq!(names.len(), 91, "the goscorer corpus should hold 91 boards");
    let (mut matched, mut excluded) = (0, 0);
    let mut failures = Vec::new();
    for name in &names {
        let text = std::fs::read_to_string(dir.join(name)).unwrap();
        let f = read_fixture(name, &text);
        let map: Vec<Option<Color>> = classify_grid(f.width, f.height, &f.stones, &f.dead)
            .into_iter()
            .map(Owner::territory)
            .collect();
        let stem = name.trim_end_matches(".txt");
        if let Some((_, why)) = EXCLUDED.iter().find(|(n, _)| *n == stem) {
            if *why == DEAD_IN_EYE {
                assert!(
                    f.dead.contains(&true),
                    "{stem} is excluded for its dead stones but has none"
                );
            }
            excluded += 1;
            if map == f.territory {
                eprintln!("note: excluded fixture {stem} now matches; it can come off the list");
            }
            continue;
        }
        if map == f.territory {
            matched += 1;
        } else {
            failures.push(format!(
                "{}: expected\n{}got\n{}",
                f.name,
                picture(&f, &f.territory),
                picture(&f, &map)
            ));
        }
    }
    for (n, _) in EXCLUDED {
        assert!(
            names.iter().any(|x| x.trim_end_matches(".txt") == *n),
            "excluded fixture {n} is not in the corpus"
        );
    }
    eprintln!(
        "goscorer: {matched} of {} boards match, {excluded} excluded",
        names.len()
    );
    assert!(
        failures.is_empty(),
        "{} boards differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// A 19×19 board whose first `black` points (row by row) hold black stones, then `dame`
/// empty points, then white stones: every point settled, nothing to surround.
fn filled(size: u8, black: usize, dame: usize) -> Board {
    let mut b = Board::new(size).unwrap();
    for (i, p) in b.clone().points().enumerate() {
        let stone = if i < black {
            Some(Color::Black)
        } else if i < black + dame {
            None
        } else {
            Some(Color::White)
        };
        b.set(p, stone);
    }
    b
}

fn winner(board: &Board, counting: Counting) -> Outcome {
    score(board, &[], &counting).unwrap().outcome
}

#[test]
fn chinese_rules_black_needs_185_and_white_177_on_19x19() {
    let chinese = Counting::new(Scoring::Chinese);
    // 185 black stones, 176 white: Black wins by ¾ stone (185 − 3¾ = 181¼ > 180½).
    let s = score(&filled(19, 185, 0), &[], &chinese).unwrap();
    assert_eq!((s.black, s.white), (185.0, 176.0));
    assert_eq!(
        s.outcome,
        Outcome::Win {
            winner: Color::Black,
            margin: 0.75,
            rules: Scoring::Chinese
        }
    );
    assert_eq!(s.outcome.text(Lang::Zh), "黑胜 ¾ 子。");
    assert_eq!(s.outcome.text(Lang::En), "Black wins by ¾ stone.");
    assert_eq!(s.outcome.sgf(), "B+1.5");
    // 184 black, 177 white: White wins by ¼ stone.
    let o = winner(&filled(19, 184, 0), chinese);
    assert_eq!(o.winner(), Some(Color::White));
    assert_eq!(o.text(Lang::Zh), "白胜 ¼ 子。");
    // 184 black, one dame, 176 white: the dame is shared, 184½ wins for Black.
    let s = score(&filled(19, 184, 1), &[], &chinese).unwrap();
    assert_eq!((s.black, s.white), (184.5, 176.5));
    assert_eq!(s.outcome.winner(), Some(Color::Black));
    // The explanation walks through the count.
    let zh = s.explain(Lang::Zh);
    assert!(
        zh.contains("数子法") && zh.contains("180½") && zh.contains("3¾"),
        "{zh}"
    );
    let en = s.explain(Lang::En);
    assert!(
        en.contains("half of it is 180½") && en.contains("3¾"),
        "{en}"
    );
}

#[test]
fn chinese_rules_on_9x9_and_13x13() {
    let chinese = Counting::new(Scoring::Chinese);
    // 9×9: half is 40½; Black needs more than 44¼ (45 whole), White more than 36¾ (37).
    assert_eq!(
        winner(&filled(9, 45, 0), chinese).winner(),
        Some(Color::Black)
    );
    assert_eq!(
        winner(&filled(9, 44, 0), chinese).winner(),
        Some(Color::White)
    );
    assert_eq!(
        winner(&filled(9, 44, 1), chinese).winner(),
        Some(Color::Black)
    );
    // 13×13: half is 84½; Black needs 89 whole (88½ with a dame), White 81.
    assert_eq!(
        winner(&filled(13, 89, 0), chinese).winner(),
        Some(Color::Black)
    );
    assert_eq!(
        winner(&filled(13, 88, 0), chinese).winner(),
        Some(Color::White)
    );
    assert_eq!(
        winner(&filled(13, 88, 1), chinese).winner(),
        Some(Color::Black)
    );
}

#[test]
fn chinese_handicap_gives_back_half_the_stones() {
    // Four stones: no komi, Black gives back 2 at the count: needs B − 2 > 180½.
    let four = Counting::new(Scoring::Chinese).handicap(4);
    assert_eq!((four.komi, four.give_back()), (0.0, 2.0));
    assert_eq!(
        winner(&filled(19, 183, 0), four).winner(),
        Some(Color::Black)
    );
    assert_eq!(winner(&filled(19, 182, 1), four), Outcome::Draw);
    assert_eq!(
        winner(&filled(19, 182, 0), four).winner(),
        Some(Color::White)
    );
    let s = score(&filled(19, 183, 0), &[], &four).unwrap();
    assert!(
        s.explain(Lang::Zh).contains("让 4 子，黑还 2 子"),
        "{}",
        s.explain(Lang::Zh)
    );
    // Japanese counting gives nothing back.
    assert_eq!(
        Counting::new(Scoring::Japanese).handicap(4).give_back(),
        0.0
    );
}

#[test]
fn territory_counting_adds_prisoners_dead_stones_and_komi() {
    // Black walls off the left, White the right; C3 is dame, the white stone on A1 is dead.
    let board = Board::from_text(
        5,
        "
        . X O . .
        . X O . .
        . X . O .
        . X O . .
        O X O . .",
    )
    .unwrap();
    let a1 = board.point("A1").unwrap();
    let japanese = Counting::new(Scoring::Japanese).prisoners(3, 1);
    let s = score(&board, &[a1], &japanese).unwrap();
    // Black: 5 points + 3 prisoners + the dead stone; White: 9 points + 1 prisoner + 6½.
    assert_eq!((s.black, s.white), (9.0, 16.5));
    assert_eq!(s.outcome.text(Lang::Zh), "白胜 7½ 目。");
    assert_eq!(s.outcome.sgf(), "W+7.5");
    assert_eq!(s.dead, vec![(a1, Color::White)]);
    let en = s.explain(Lang::En);
    assert!(
        en.contains("Black has 5 points of territory and 4 prisoners"),
        "{en}"
    );
    // Area counting ignores prisoners: 5 stones + 5 points + ½ against 9 + 5 + ½.
    let s = score(&board, &[a1], &Counting::new(Scoring::Chinese)).unwrap();
    assert_eq!((s.black, s.white), (10.5, 14.5));
    // Listing an empty point as dead is refused.
    let c3 = board.point("C3").unwrap();
    assert!(score(&board, &[c3], &japanese).is_err());
}

#[test]
fn seki_score_of_the_seki_exotics_readme() {
    // seki_score.sgf: the README counts, under Japanese rules, territory B 96, W 97, and no
    // points in seki; under Chinese rules the same territory, 79 stones each, and the seki's
    // points split B 8½, W 1½.
    let text = std::fs::read_to_string(corpus().join("go/seki-exotics/seki_score.sgf")).unwrap();
    let root = sgf_parse::go::parse(&text).unwrap().remove(0);
    let mut board = Board::new(19).unwrap();
    let mut node = &root;
    loop {
        for prop in node.properties() {
            let (points, colour) = match prop {
                sgf_parse::go::Prop::AB(p) => (p, Color::Black),
                sgf_parse::go::Prop::AW(p) => (p, Color::White),
                _ => continue,
            };
            for p in points {
                board.set(qiyuan::rules::go::Point::new(p.x, p.y), Some(colour));
            }
        }
        match node.children().next() {
            Some(child) => node = child,
            None => break,
        }
    }
    let japanese = score(&board, &[], &Counting::new(Scoring::Japanese).komi(0.0)).unwrap();
    let chinese = score(&board, &[], &Counting::new(Scoring::Chinese)).unwrap();
    let count = |o: Owner| japanese.points(o).len();
    assert_eq!(count(Owner::Territory(Color::Black)), 96);
    assert_eq!(count(Owner::Territory(Color::White)), 97);
    assert_eq!(count(Owner::Stone(Color::Black)), 79);
    assert_eq!(count(Owner::Stone(Color::White)), 79);
    // The seki: 8 points inside Black's seki group, 1 inside White's, 1 shared liberty.
    assert_eq!(count(Owner::Seki(Color::Black)), 8);
    assert_eq!(count(Owner::Seki(Color::White)), 1);
    assert_eq!(count(Owner::Dame), 1);
    assert_eq!((japanese.black, japanese.white), (96.0, 97.0));
    // Chinese: 96 + 79 + 8½ and 97 + 79 + 1½.
    assert_eq!((chinese.black, chinese.white), (183.5, 177.5));
    let zh = japanese.explain(Lang::Zh);
    assert!(zh.contains("双活"), "{zh}");
}
