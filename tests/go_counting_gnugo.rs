//! The answers of the counting problems (`problems/go/area-counting.toml`,
//! `territory-counting.toml`) checked against GNU Go, not against our own scoring.
//!
//! Each problem's board, with its listed dead stones taken off, is set up in GNU Go 3.8
//! (`--mode gtp --level 0`; `--chinese-rules` for area counting, `--japanese-rules` for
//! territory counting; komi 0). GNU Go's judgement of every point (`final_status_list`:
//! living stones, each side's territory, the rest for nobody) is then counted by the rules
//! the problems teach, and the problem's answer must be that count:
//!
//! - area (Chinese rules, in stones): living stones plus territory, half of every point
//!   that belongs to nobody; the result takes off komi (3¾ stones, none in a handicap game)
//!   and half the handicap from Black, against half the board;
//! - territory (Japanese rules, in points): territory plus prisoners (captured during the
//!   game, and the dead stones taken off); White adds komi (6½, none in a handicap game).
//!
//! GNU Go's own `final_score` must agree with that judgement: exactly under Japanese rules;
//! under Chinese rules up to the points that belong to nobody, which GNU Go's play-out
//! fills for one side where the Chinese rules share them.
//!
//! GNU Go does not see four of the finished boards as the problems (and any count by the
//! rules) do; `GNUGO_DIFFERS` lists, for each such problem, the points where its
//! judgement is replaced by the problem's, and why. Every other point is GNU Go's.
//!
//! GNU Go must be installed: `apt-get install gnugo` (scripts/test.sh does), or point the
//! `GNUGO` environment variable at the binary.

use qiyuan::content::Library;
use std::io::Write;
use std::process::{Command, Stdio};

/// A point's owner as counted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Status {
    /// A living stone (in seki too) of Black (`true`) or White.
    Stone(bool),
    /// Territory of Black (`true`) or White.
    Territory(bool),
    /// Nobody's: dame, a shared liberty or an eye of a seki.
    Nobody,
}

use Status::{Nobody, Stone, Territory};

/// Where GNU Go's judgement of a finished board is not the problem's: `(set, id, points)`,
/// each point with the problem's status.
const GNUGO_DIFFERS: &[(&str, &str, &[(&str, Status)])] = &[
    // E4 lies in the empty area D5 E5 D4 E4 E3 E2 E1, which touches white stones only:
    // White's. GNU Go counts E4 (alone of the seven) for nobody.
    ("area-counting", "3", &[("E4", Territory(false))]),
    // The same board shape on 7×7: E3, in White's area right of D3 and below E4.
    ("area-counting", "7", &[("E3", Territory(false))]),
    ("territory-counting", "5", &[("E3", Territory(false))]),
    // G7, in the middle of White's 26 points on the right (they touch white stones only).
    ("area-counting", "11", &[("G7", Territory(false))]),
    ("area-counting", "12", &[("G7", Territory(false))]),
    ("territory-counting", "9", &[("G7", Territory(false))]),
    ("territory-counting", "11", &[("G7", Territory(false))]),
    // The seki in the lower left: Black's eight stones and White's A2 B2 share the two
    // liberties A1 and C2, and neither side can approach. GNU Go calls the black stones
    // dead and the liberties White's.
    ("area-counting", "14", SEKI),
    ("territory-counting", "10", SEKI),
];

const SEKI: &[(&str, Status)] = &[
    ("A3", Stone(true)),
    ("B3", Stone(true)),
    ("C3", Stone(true)),
    ("D3", Stone(true)),
    ("D2", Stone(true)),
    ("B1", Stone(true)),
    ("C1", Stone(true)),
    ("D1", Stone(true)),
    ("A1", Nobody),
    ("C2", Nobody),
];

/// A counting problem as its TOML writes it.
struct CountProblem {
    set: &'static str,
    id: String,
    size: usize,
    /// `(point name, black?)` of every stone left after the dead ones are taken off.
    stones: Vec<(String, bool)>,
    /// Dead stones taken off: black, white.
    dead: [u32; 2],
    ask: String,
    komi: Option<f64>,
    handicap: u32,
    /// Captured during the game by Black, by White.
    prisoners: [u32; 2],
}

const COLUMNS: &str = "ABCDEFGHJKLMNOPQRST";

fn point_name(col: usize, row_from_top: usize, size: usize) -> String {
    format!("{}{}", &COLUMNS[col..=col], size - row_from_top)
}

/// Reads the `count` problems of `problems/go/{set}.toml` with the toml crate.
fn read_set(set: &'static str) -> Vec<CountProblem> {
    let path = format!("{}/problems/go/{set}.toml", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let table: toml::Table = text.parse().unwrap_or_else(|e| panic!("{path}: {e}"));
    let int = |v: Option<&toml::Value>| v.and_then(|v| v.as_integer()).unwrap_or(0) as u32;
    table["problem"]
        .as_array()
        .expect("[[problem]] tables")
        .iter()
        .filter(|p| p["goal"].as_str() == Some("count"))
        .map(|p| {
            let size = p["size"].as_integer().expect("size") as usize;
            let dead: Vec<&str> = p
                .get("dead")
                .and_then(|d| d.as_array())
                .map(|d| d.iter().filter_map(|v| v.as_str()).collect())
                .unwrap_or_default();
            let mut stones = Vec::new();
            let mut dead_count = [0, 0];
            for (r, line) in p["board"]
                .as_str()
                .expect("board")
                .trim()
                .lines()
                .enumerate()
            {
                for (c, symbol) in line.split_whitespace().enumerate() {
                    let black = match symbol {
                        "X" => true,
                        "O" => false,
                        "." => continue,
                        other => panic!("{set} {}: symbol {other}", p["id"]),
                    };
                    let name = point_name(c, r, size);
                    if dead.contains(&name.as_str()) {
                        dead_count[usize::from(!black)] += 1;
                    } else {
                        stones.push((name, black));
                    }
                }
            }
            assert_eq!(dead_count[0] + dead_count[1], dead.len() as u32);
            let prisoners = p.get("prisoners");
            CountProblem {
                set,
                id: p["id"].as_str().expect("id").to_string(),
                size,
                stones,
                dead: dead_count,
                ask: p
                    .get("ask")
                    .and_then(|a| a.as_str())
                    .unwrap_or("result")
                    .to_string(),
                komi: p.get("komi").map(|k| {
                    k.as_float()
                        .or_else(|| k.as_integer().map(|i| i as f64))
                        .expect("komi")
                }),
                handicap: int(p.get("handicap")),
                prisoners: [
                    int(prisoners.and_then(|t| t.get("black"))),
                    int(prisoners.and_then(|t| t.get("white"))),
                ],
            }
        })
        .collect()
}

/// GNU Go's view of one board: its `final_score` with komi 0, and every point's status.
struct Judgement {
    score: f64,
    status: Vec<(String, Status)>,
}

const STATUS_LISTS: [&str; 5] = [
    "alive",
    "seki",
    "dead",
    "black_territory",
    "white_territory",
];

/// Asks one GNU Go process (`rules`: `--chinese-rules` or `--japanese-rules`) about every
/// problem, all commands sent at once.
fn gnugo(rules: &str, problems: &[CountProblem]) -> Vec<Judgement> {
    let mut commands = Vec::new();
    for p in problems {
        commands.push(format!("boardsize {}", p.size));
        commands.push("clear_board".to_string());
        commands.push("komi 0".to_string());
        // A subset of a finished board: no stone placed here captures anything.
        for (name, black) in &p.stones {
            commands.push(format!("play {} {name}", if *black { "B" } else { "W" }));
        }
        commands.push("final_score".to_string());
        commands.extend(
            STATUS_LISTS
                .iter()
                .map(|s| format!("final_status_list {s}")),
        );
    }
    let binary = std::env::var_os("GNUGO").unwrap_or_else(|| "/usr/games/gnugo".into());
    let mut child = Command::new(&binary)
        .args(["--mode", "gtp", "--level", "0", rules])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| {
            panic!(
                "cannot start GNU Go ({}): {e}; run `apt-get install gnugo` or set GNUGO",
                binary.to_string_lossy()
            )
        });
    let input = commands.join("\n") + "\nquit\n";
    let mut stdin = child.stdin.take().expect("piped stdin");
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let out = child.wait_with_output().expect("GNU Go runs");
    writer
        .join()
        .expect("writer")
        .expect("GNU Go reads its commands");
    let text = String::from_utf8(out.stdout).expect("UTF-8 from GNU Go");
    let mut answers = text
        .split("\n\n")
        .filter(|a| !a.trim().is_empty())
        .map(|a| {
            a.trim()
                .strip_prefix('=')
                .unwrap_or_else(|| panic!("GNU Go refused a command: {a}"))
                .trim()
                .to_string()
        });
    problems
        .iter()
        .map(|p| {
            for _ in 0..3 + p.stones.len() {
                answers.next().expect("an answer per command");
            }
            let score = answers.next().expect("final_score");
            let score = match score.split_once('+') {
                Some(("B", m)) => m.parse::<f64>().expect("a margin"),
                Some(("W", m)) => -m.parse::<f64>().expect("a margin"),
                _ if score == "0" => 0.0,
                _ => panic!("final_score {score}"),
            };
            let lists: Vec<String> = STATUS_LISTS
                .iter()
                .map(|_| answers.next().expect("final_status_list"))
                .collect();
            let black_stone = |name: &str| p.stones.iter().find(|(n, _)| n == name).map(|s| s.1);
            let mut status = Vec::new();
            for r in 0..p.size {
                for c in 0..p.size {
                    let name = point_name(c, r, p.size);
                    let listed = |i: usize| lists[i].split_whitespace().any(|n| n == name);
                    let s = if listed(0) || listed(1) {
                        Stone(black_stone(&name).expect("a stone"))
                    } else if listed(2) {
                        // Dead: its point goes to the other side.
                        Territory(!black_stone(&name).expect("a stone"))
                    } else if listed(3) {
                        Territory(true)
                    } else if listed(4) {
                        Territory(false)
                    } else {
                        Nobody
                    };
                    status.push((name, s));
                }
            }
            Judgement { score, status }
        })
        .collect()
}

/// Writes a count as the trainer does: `12`, `12.5`, `B+0.75`, `0`.
fn decimal(x: f64) -> String {
    let s = format!("{x:.2}");
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

fn result(margin: f64) -> String {
    match margin {
        m if m > 0.0 => format!("B+{}", decimal(m)),
        m if m < 0.0 => format!("W+{}", decimal(-m)),
        _ => "0".to_string(),
    }
}

/// The answer GNU Go's judgement gives `p`, counted by the rules of its set.
fn expected(p: &CountProblem, status: &[(String, Status)]) -> String {
    let count = |s: Status| status.iter().filter(|(_, t)| *t == s).count() as f64;
    let points = (p.size * p.size) as f64;
    if p.set == "area-counting" {
        let black_area = count(Stone(true)) + count(Territory(true));
        let white_area = count(Stone(false)) + count(Territory(false));
        let shared = (points - black_area - white_area) / 2.0;
        let (black, white) = (black_area + shared, white_area + shared);
        let komi = p.komi.unwrap_or(if p.handicap > 0 { 0.0 } else { 7.5 });
        let give_back = if p.handicap >= 2 {
            p.handicap as f64 / 2.0
        } else {
            0.0
        };
        match p.ask.as_str() {
            "black" => decimal(black),
            "white" => decimal(white),
            _ => result(black - komi / 2.0 - give_back - points / 2.0),
        }
    } else {
        let komi = p.komi.unwrap_or(if p.handicap > 0 { 0.0 } else { 6.5 });
        let black = count(Territory(true)) + (p.prisoners[0] + p.dead[1]) as f64;
        let white = count(Territory(false)) + (p.prisoners[1] + p.dead[0]) as f64 + komi;
        match p.ask.as_str() {
            "black" => decimal(black),
            "white" => decimal(white),
            _ => result(black - white),
        }
    }
}

/// The problems' own answers, from the content loaded as the trainer loads it.
fn answers() -> Vec<(String, String, String)> {
    let root = env!("CARGO_MANIFEST_DIR");
    // The two sets, and the lessons they practise (found by slug, whatever their number).
    let mut paths = vec![
        "problems/go/area-counting.toml".to_string(),
        "problems/go/territory-counting.toml".to_string(),
    ];
    for entry in std::fs::read_dir(format!("{root}/lessons/go")).unwrap() {
        let name = entry.unwrap().file_name().to_string_lossy().into_owned();
        if name.contains("-area-counting.") || name.contains("-territory-counting.") {
            paths.push(format!("lessons/go/{name}"));
        }
    }
    assert_eq!(
        paths.len(),
        6,
        "both counting lessons in both languages: {paths:?}"
    );
    let files: Vec<(String, String)> = paths
        .iter()
        .map(|p| {
            let text = std::fs::read_to_string(format!("{root}/{p}")).unwrap();
            (p.clone(), text)
        })
        .collect();
    let (library, errors) = Library::load(&files);
    assert!(errors.is_empty(), "{errors:?}");
    let mut out = Vec::new();
    for set in library.shelves.iter().flat_map(|s| &s.sets) {
        for problem in &set.problems {
            let answer = problem.puzzle.answer().join(" ");
            out.push((set.slug.clone(), problem.id.clone(), answer));
        }
    }
    out
}

#[test]
fn counting_answers_agree_with_gnu_go() {
    let ours = answers();
    let mut checked = 0;
    let mut corrected = Vec::new();
    for (set, rules) in [
        ("area-counting", "--chinese-rules"),
        ("territory-counting", "--japanese-rules"),
    ] {
        let problems = read_set(set);
        assert!(problems.len() >= 10, "{set}: {} problems", problems.len());
        for (p, mut judged) in problems.iter().zip(gnugo(rules, &problems)) {
            let name = format!("{set} {}", p.id);
            let differs = GNUGO_DIFFERS
                .iter()
                .find(|(s, id, _)| *s == set && *id == p.id)
                .map(|(_, _, points)| *points);
            match differs {
                None => {
                    // GNU Go's score agrees with its judgement of the points.
                    let status = &judged.status;
                    let count = |s: Status| status.iter().filter(|(_, t)| *t == s).count() as f64;
                    let territory = count(Territory(true)) - count(Territory(false));
                    if set == "territory-counting" {
                        assert_eq!(judged.score, territory, "{name}: final_score");
                    } else {
                        let area = territory + count(Stone(true)) - count(Stone(false));
                        assert!(
                            (judged.score - area).abs() <= count(Nobody),
                            "{name}: final_score {} for an area margin of {area}",
                            judged.score
                        );
                    }
                }
                Some(points) => {
                    for (point, status) in points {
                        let entry = judged
                            .status
                            .iter_mut()
                            .find(|(n, _)| n == point)
                            .expect("a point of the board");
                        assert_ne!(entry.1, *status, "{name}: GNU Go now agrees on {point}");
                        entry.1 = *status;
                    }
                    corrected.push(name.clone());
                }
            }
            let answer = ours
                .iter()
                .find(|(s, id, _)| s == set && id == &p.id)
                .map(|(.., a)| a.as_str())
                .unwrap_or_else(|| panic!("{name}: not loaded"));
            assert_eq!(answer, expected(p, &judged.status), "{name}");
            checked += 1;
        }
    }
    eprintln!(
        "{checked} counting answers agree with GNU Go; its judgement corrected at listed points in {}: {corrected:?}",
        corrected.len()
    );
    assert_eq!(checked, 26);
    assert_eq!(corrected.len(), GNUGO_DIFFERS.len());
}
