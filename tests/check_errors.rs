//! `qiyuan check` on deliberately broken content: every mistake is reported with its place.
//! Each case asserts the whole list of errors: path, line, column and the whole message.

use qiyuan::content::{Diagnostic, Library};

const LESSON_ZH: &str = r#"+++
title = "提子"
+++

一段话。

```goban id=one
size = 5
board = """
. . . . .
. . X . .
. X O X .
. . . . .
. . . . .
"""
triangles = ["C3"]

[[steps]]
play = "C2"
say = "提掉。"
```
"#;

const SET: &str = r#"[set]
title = { zh = "吃子", en = "Capturing" }
lesson = "captures"

[[problem]]
id = "1"
prompt = { zh = "黑先吃白子。", en = "Black to capture." }
size = 5
board = """
. . . . .
. . X . .
. X O X .
. . . . .
. . . . .
"""
goal = "capture"
target = ["C3"]
solutions = ["C2"]
"#;

fn english(zh: &str) -> String {
    zh.replace("提子", "Capturing")
        .replace("一段话。", "Some words.")
        .replace("提掉。", "Captured.")
}

/// A valid content folder, with `edit` applied to the file at `path`.
fn files_with(path: &str, edit: impl Fn(&str) -> String) -> Vec<(String, String)> {
    let mut files = vec![
        (
            "lessons/go/03-captures.zh.md".to_string(),
            LESSON_ZH.to_string(),
        ),
        (
            "lessons/go/03-captures.en.md".to_string(),
            english(LESSON_ZH),
        ),
        ("problems/go/captures.toml".to_string(), SET.to_string()),
    ];
    for (p, text) in &mut files {
        if p == path {
            *text = edit(text);
        }
    }
    files
}

fn errors(files: &[(String, String)]) -> Vec<Diagnostic> {
    Library::load(files).1
}

/// Asserts that loading `files` reports exactly the errors `expected`, each as
/// `(path, line, column, whole message)`, in any order.
fn assert_errors(files: &[(String, String)], expected: &[(&str, usize, usize, &str)]) {
    let mut got: Vec<(String, usize, usize, String)> = errors(files)
        .into_iter()
        .map(|e| (e.path, e.line, e.col, e.message))
        .collect();
    let mut want: Vec<(String, usize, usize, String)> = expected
        .iter()
        .map(|&(path, line, col, message)| (path.to_string(), line, col, message.to_string()))
        .collect();
    got.sort();
    want.sort();
    assert_eq!(got, want);
}

const ZH: &str = "lessons/go/03-captures.zh.md";
const CHESS: &str = "problems/chess/set.toml";
const SHOGI: &str = "problems/shogi/set.toml";
const GO: &str = "problems/go/set.toml";
const EN: &str = "lessons/go/03-captures.en.md";
const SETP: &str = "problems/go/captures.toml";

#[test]
fn valid_content_has_no_errors() {
    let files = files_with("", |t| t.to_string());
    let (library, errs) = Library::load(&files);
    assert!(errs.is_empty(), "{errs:?}");
    assert_eq!(library.shelves[0].lessons.len(), 1);
    assert_eq!(library.problem_count(), 1);
}

#[test]
fn errors_on_unknown_key() {
    let files = files_with(ZH, |t| t.replace("size = 5", "size = 5\ncolour = \"red\""));
    assert_errors(
        &files,
        &[(
            ZH,
            9,
            1,
            "unknown field `colour`, expected one of `size`, `sensei`, `view`, `board`, `to_play`, `caption`, `triangles`, `squares`, `circles`, `crosses`, `labels`, `liberties`, `steps`",
        )],
    );
}

#[test]
fn errors_on_bad_coordinate() {
    let files = files_with(ZH, |t| {
        t.replace("triangles = [\"C3\"]", "triangles = [\"I3\"]")
    });
    assert_errors(
        &files,
        &[(ZH, 16, 14, "column letters skip I: after H comes J")],
    );
}

#[test]
fn errors_on_off_board_point() {
    let files = files_with(SETP, |t| {
        t.replace("target = [\"C3\"]", "target = [\"F3\"]")
    });
    assert_errors(&files, &[(SETP, 17, 11, "F3 is outside the 5×5 board")]);
}

#[test]
fn errors_on_illegal_step() {
    let files = files_with(ZH, |t| t.replace("play = \"C2\"", "play = \"C4\""));
    let files: Vec<_> = files
        .into_iter()
        .map(|(p, t)| {
            if p == EN {
                (p, english(&t.replace("play = \"C2\"", "play = \"C4\"")))
            } else {
                (p, t)
            }
        })
        .collect();
    let message =
        "step 1: black C4 is illegal: There is already a stone on C4: stones go on empty points only.";
    assert_errors(&files, &[(ZH, 19, 8, message), (EN, 19, 8, message)]);
}

#[test]
fn errors_on_forbidden_point_step() {
    let files = files_with(ZH, |t| {
        t.replace(
            ". . X . .\n. X O X .\n. . . . .",
            ". . O . .\n. O . O .\n. . O . .",
        )
        .replace("play = \"C2\"", "play = \"C3\"")
        .replace("triangles = [\"C3\"]", "triangles = []")
    });
    assert_errors(
        &files,
        &[(
            ZH,
            19,
            8,
            "step 1: black C3 is illegal: C3 is a forbidden point: a stone there would have no liberties and captures nothing.",
        )],
    );
}

#[test]
fn errors_on_stone_placed_on_a_stone() {
    let files = files_with(ZH, |t| t.replace("play = \"C2\"", "add_black = [\"C3\"]"));
    assert_errors(
        &files,
        &[(
            ZH,
            19,
            14,
            "step 1: add_black puts a stone on C3, which already has a white stone; clear it first",
        )],
    );
}

#[test]
fn errors_on_missing_language_twin() {
    let files: Vec<_> = files_with("", |t| t.to_string())
        .into_iter()
        .filter(|(p, _)| p != EN)
        .collect();
    assert_errors(
        &files,
        &[(
            ZH,
            1,
            1,
            "the English version `lessons/go/03-captures.en.md` is missing: every lesson is written in both zh and en",
        )],
    );
}

#[test]
fn errors_on_duplicate_id() {
    let files = files_with(SETP, |t| {
        let second = &t[t.find("[[problem]]").unwrap()..];
        format!("{t}\n{second}")
    });
    assert_errors(
        &files,
        &[(
            SETP,
            21,
            6,
            "problem id `1` is used twice in this set: ids must differ",
        )],
    );
}

#[test]
fn errors_on_capture_solution_that_does_not_capture() {
    let files = files_with(SETP, |t| {
        t.replace("solutions = [\"C2\"]", "solutions = [\"D2\"]")
    });
    assert_errors(
        &files,
        &[(
            SETP,
            18,
            14,
            "solution `D2` ends without capturing the target stone on C3",
        )],
    );
}

#[test]
fn errors_on_select_quiz_with_no_answer() {
    let files = files_with(SETP, |t| {
        t.replace(
            "goal = \"capture\"",
            "goal = \"select\"\nask = \"forbidden:black\"",
        )
        .replace("target = [\"C3\"]\n", "")
        .replace("solutions = [\"C2\"]\n", "")
    });
    assert_errors(
        &files,
        &[(
            SETP,
            17,
            7,
            "the question `forbidden:black` has no answer here, so the learner could never finish",
        )],
    );
}

#[test]
fn errors_on_unknown_goal() {
    let files = files_with(SETP, |t| {
        t.replace("goal = \"capture\"", "goal = \"catch\"")
    });
    // The second error follows from the first: with no known goal, `target` is unused.
    assert_errors(
        &files,
        &[
            (
                SETP,
                16,
                8,
                "unknown goal `catch`: use capture, live, kill, ko, best, select or count",
            ),
            (
                SETP,
                17,
                11,
                "`target` is only used with goal = \"capture\"",
            ),
        ],
    );
}

#[test]
fn errors_on_short_board_row() {
    let files = files_with(SETP, |t| t.replacen(". X O X .", ". X O X", 1));
    assert_errors(
        &files,
        &[(SETP, 12, 1, "board row 3 has 4 points but should have 5")],
    );
}

#[test]
fn errors_on_missing_translation() {
    let files = files_with(SETP, |t| {
        t.replace(
            "prompt = { zh = \"黑先吃白子。\", en = \"Black to capture.\" }",
            "prompt = { zh = \"黑先吃白子。\" }",
        )
    });
    assert_errors(&files, &[(SETP, 7, 10, "missing field `en`")]);
}

#[test]
fn errors_on_unknown_lesson_in_set() {
    let files = files_with(SETP, |t| {
        t.replace("lesson = \"captures\"", "lesson = \"capture\"")
    });
    assert_errors(
        &files,
        &[(
            SETP,
            3,
            10,
            "set names lesson `capture`, but there is no such Go lesson",
        )],
    );
}

#[test]
fn errors_on_diagrams_that_differ_between_languages() {
    let files = files_with(EN, |t| {
        t.replace("triangles = [\"C3\"]", "triangles = [\"C4\"]")
    });
    assert_errors(
        &files,
        &[(
            EN,
            7,
            1,
            "diagram 1 differs from diagram 1 of `lessons/go/03-captures.zh.md`: both versions must have the same boards, moves and marks",
        )],
    );
}

#[test]
fn errors_on_wrong_line_that_is_a_solution() {
    let files = files_with(SETP, |t| {
        format!("{t}\n[[problem.wrong]]\nline = \"C2\"\nwhy = {{ zh = \"错\", en = \"no\" }}\n")
    });
    assert_errors(
        &files,
        &[(
            SETP,
            21,
            8,
            "every move of this wrong line is in a solution line: nothing in it is wrong",
        )],
    );
}

#[test]
fn errors_on_bad_lesson_file_name() {
    let mut files = files_with("", |t| t.to_string());
    files.push(("lessons/go/Intro.zh.md".into(), LESSON_ZH.into()));
    assert_errors(
        &files,
        &[(
            "lessons/go/Intro.zh.md",
            1,
            1,
            "lesson file name `Intro.zh.md` should look like `03-captures.zh.md`: a number, a slug of lowercase letters, digits and `-`, then `.zh.md` or `.en.md`",
        )],
    );
}

#[test]
fn errors_on_missing_front_matter() {
    let files = files_with(ZH, |t| t.replacen("+++\ntitle = \"提子\"\n+++\n", "", 1));
    assert_errors(
        &files,
        &[(
            ZH,
            1,
            1,
            "a lesson starts with front matter: a line `+++`, then `title = \"…\"`, then `+++`",
        )],
    );
}

#[test]
fn errors_on_bad_to_play_and_view() {
    let files = files_with(SETP, |t| {
        t.replace(
            "goal = \"capture\"",
            "to_play = \"red\"\ngoal = \"capture\"",
        )
    });
    assert_errors(
        &files,
        &[(
            SETP,
            16,
            11,
            "to_play `red` should be \"black\" or \"white\"",
        )],
    );
    let files = files_with(SETP, |t| t.replace("size = 5", "size = 5\nview = \"A1\""));
    assert_errors(
        &files,
        &[(
            SETP,
            9,
            8,
            "view `A1` should be two corners of a rectangle, like \"A1:E5\"",
        )],
    );
}

#[test]
fn reports_every_error_not_only_the_first() {
    let files = files_with(SETP, |t| {
        t.replace("solutions = [\"C2\"]", "solutions = [\"D2\"]")
            .replace("size = 5\n", "size = 5\ndifficulty = 9\n")
    });
    assert_errors(
        &files,
        &[
            (SETP, 9, 14, "difficulty should be 1 (easiest) to 5"),
            (
                SETP,
                19,
                14,
                "solution `D2` ends without capturing the target stone on C3",
            ),
        ],
    );
}

#[test]
fn check_command_prints_errors_and_exits_1() {
    let dir = std::env::temp_dir().join(format!("qiyuan-check-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    for (path, text) in files_with(SETP, |t| {
        t.replace("solutions = [\"C2\"]", "solutions = [\"D2\"]")
    }) {
        let p = dir.join(path);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_qiyuan"))
        .arg("check")
        .arg(&dir)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert_eq!(
        stdout,
        "problems/go/captures.toml:18:14: error: solution `D2` ends without capturing the target stone on C3\n"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn errors_on_solution_line_that_can_never_be_reached() {
    let files = files_with(SETP, |t| {
        t.replace(
            "goal = \"capture\"\ntarget = [\"C3\"]\nsolutions = [\"C2\"]",
            "goal = \"best\"\nsolutions = [\"B2 B4 D4\", \"B2 D4 B4\"]",
        )
    });
    assert_errors(
        &files,
        &[(
            SETP,
            17,
            26,
            "move 2 of this line can never be reached: there the opponent always answers B4, the reply of an earlier line; list each reply once, or make this a separate problem",
        )],
    );
}

/// A one-problem set of `game` with `problem` as its only `[[problem]]` body.
fn board_set(game: &str, problem: &str) -> Vec<(String, String)> {
    vec![(
        format!("problems/{game}/set.toml"),
        format!(
            "[set]\ntitle = {{ zh = \"题\", en = \"Set\" }}\n\n[[problem]]\nid = \"1\"\nprompt = {{ zh = \"题\", en = \"Do it\" }}\n{problem}"
        ),
    )]
}

#[test]
fn errors_on_bad_fen() {
    let files = board_set(
        "chess",
        "fen = \"8/8/8/8/8/8/8/8 w - - 0 1\"\ngoal = \"best\"\nsolutions = [\"e4\"]\n",
    );
    assert_errors(
        &files,
        &[(CHESS, 7, 7, "white has no king: put one `K` on the board")],
    );
}

#[test]
fn errors_on_chess_mate_that_is_no_mate() {
    let files = board_set(
        "chess",
        "fen = \"4k3/8/8/8/8/8/8/4K2R w - - 0 1\"\ngoal = \"mate\"\nmate_in = 1\n",
    );
    assert_errors(
        &files,
        &[(
            CHESS,
            8,
            8,
            "the side to move has no mate in 1 here: check the FEN and mate_in",
        )],
    );
}

#[test]
fn errors_on_chess_solution_that_does_not_mate() {
    let files = board_set(
        "chess",
        "fen = \"6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1\"\ngoal = \"mate\"\nmate_in = 1\nsolutions = [\"Ra7\"]\n",
    );
    assert_errors(
        &files,
        &[(
            CHESS,
            10,
            14,
            "solution `Ra7` starts with Ra7, which does not force mate in 1",
        )],
    );
}

#[test]
fn errors_on_illegal_chess_line_with_the_reason() {
    let files = board_set(
        "chess",
        "fen = \"4k3/8/8/8/8/8/8/R3K3 w Q - 0 1\"\ngoal = \"best\"\nsolutions = [\"a1b2\"]\n",
    );
    assert_errors(
        &files,
        &[(
            CHESS,
            9,
            14,
            "line `a1b2`: move 1 (a1b2): a1b2 is illegal: The rook cannot move from a1 to b2: the rook moves any number of squares along a rank or a file.",
        )],
    );
}

#[test]
fn errors_on_illegal_chess_diagram_step() {
    let lesson = "+++\ntitle = \"T\"\n+++\n\n```chess\n[[steps]]\nplay = \"e5\"\n```\n";
    let files = vec![
        ("lessons/chess/01-a.zh.md".to_string(), lesson.to_string()),
        ("lessons/chess/01-a.en.md".to_string(), lesson.to_string()),
    ];
    let message = "step 1: e5 is illegal: The pawn cannot move from e2 to e5: a pawn moves straight forward one square (two from its starting square) and captures one square diagonally forward; it never moves backward or sideways.";
    assert_errors(
        &files,
        &[
            ("lessons/chess/01-a.zh.md", 7, 8, message),
            ("lessons/chess/01-a.en.md", 7, 8, message),
        ],
    );
}

#[test]
fn errors_on_bad_sfen_and_tsume_without_mate() {
    let files = board_set(
        "shogi",
        "sfen = \"9/9/9 b - 1\"\ngoal = \"tsume\"\nmate_in = 1\n",
    );
    assert_errors(&files, &[(SHOGI, 7, 8, "bad sfen: invalid square")]);
    let files = board_set(
        "shogi",
        "sfen = \"4k4/9/9/9/9/9/9/9/4K4 b P 1\"\ngoal = \"tsume\"\nmate_in = 1\n",
    );
    assert_errors(
        &files,
        &[(
            SHOGI,
            8,
            8,
            "the side to move has no tsume in 1 plies here: check the SFEN and mate_in",
        )],
    );
    let files = board_set(
        "shogi",
        "sfen = \"4k4/9/9/9/9/9/9/9/4K4 b P 1\"\ngoal = \"tsume\"\nmate_in = 2\n",
    );
    assert_errors(
        &files,
        &[(
            SHOGI,
            9,
            11,
            "mate_in counts plies of a tsume (the attacker moves first and last): use an odd number, 1 to 11",
        )],
    );
}

#[test]
fn errors_on_two_pawns_in_a_shogi_line() {
    let files = board_set(
        "shogi",
        "sfen = \"4k4/9/9/9/9/9/4P4/9/4K4 b P 1\"\ngoal = \"best\"\nsolutions = [\"P*5e\"]\n",
    );
    assert_errors(
        &files,
        &[(
            SHOGI,
            9,
            14,
            "line `P*5e`: move 1 (P*5e): P*5e is illegal: Two pawns (nifu, 二歩): you already have an unpromoted pawn on file 5, and a second may not be dropped on the same file. (A promoted pawn, a tokin, does not count.)",
        )],
    );
}

/// A finished 5×5 game: Black owns the two left columns, White the rest.
const COUNT_BOARD: &str =
    "size = 5\nboard = \"\"\"\n. X O . .\n. X O . .\n. X O . .\n. X O . .\n. X O . .\n\"\"\"\n";

#[test]
fn count_problem_is_counted_by_the_engine() {
    let files = board_set(
        "go",
        &format!("{COUNT_BOARD}goal = \"count\"\nrules = \"chinese\"\nask = \"black\"\n"),
    );
    let (library, errs) = Library::load(&files);
    assert!(errs.is_empty(), "{errs:?}");
    let puzzle = &library.shelves[0].sets[0].problems[0].puzzle;
    // 5 stones and 5 empty points.
    assert!(matches!(
        puzzle.attempt(&[], &[], "10"),
        qiyuan::content::Verdict::Correct { solved: true, .. }
    ));
    assert!(matches!(
        puzzle.attempt(&[], &[], "11"),
        qiyuan::content::Verdict::Wrong { .. }
    ));
    assert!(matches!(
        puzzle.attempt(&[], &[], "ten"),
        qiyuan::content::Verdict::Invalid { .. }
    ));
    // White has 15 of the 25 points: 2½ stones more than half the board, without komi.
    let files = board_set(
        "go",
        &format!("{COUNT_BOARD}goal = \"count\"\nrules = \"chinese\"\nkomi = 0.0\n"),
    );
    let (library, errs) = Library::load(&files);
    assert!(errs.is_empty(), "{errs:?}");
    let puzzle = &library.shelves[0].sets[0].problems[0].puzzle;
    assert_eq!(puzzle.answer(), vec!["W+2.5".to_string()]);
    assert!(matches!(
        puzzle.attempt(&[], &[], "W+2½"),
        qiyuan::content::Verdict::Correct { solved: true, .. }
    ));
}

#[test]
fn errors_on_count_without_rules_and_on_empty_dead_point() {
    let files = board_set("go", &format!("{COUNT_BOARD}goal = \"count\"\n"));
    assert_errors(
        &files,
        &[(
            GO,
            15,
            8,
            "goal `count` needs `rules`: \"chinese\" (area counting) or \"japanese\" (territory counting)",
        )],
    );
    let files = board_set(
        "go",
        &format!("{COUNT_BOARD}goal = \"count\"\nrules = \"japanese\"\ndead = [\"A1\"]\n"),
    );
    assert_errors(
        &files,
        &[(GO, 17, 9, "dead: A1 is empty; list the dead stones")],
    );
}

fn sensei_lesson(diagram: &str) -> Vec<(String, String)> {
    let lesson =
        format!("+++\ntitle = \"T\"\n+++\n\n```goban\nsensei = \"\"\"\n{diagram}\n\"\"\"\n```\n");
    vec![
        ("lessons/go/01-a.zh.md".to_string(), lesson.clone()),
        ("lessons/go/01-a.en.md".to_string(), lesson),
    ]
}

#[test]
fn sensei_diagram_numbered_stones_become_steps() {
    let files = sensei_lesson(
        "$$Bc Atari\n$$ +-----------+\n$$ | . . . . . |\n$$ | . X O 1 . |\n$$ | . . X . . |\n$$ | . . . . . |\n$$ | . . . . . |\n$$ +-----------+",
    );
    let (library, errs) = Library::load(&files);
    assert!(errs.is_empty(), "{errs:?}");
    let d = &library.shelves[0].lessons[0].en.diagrams[0];
    assert_eq!(d.frames.len(), 2, "the start and move 1");
}

#[test]
fn errors_on_bad_sensei_diagram_at_its_line() {
    let files = sensei_lesson("$$B\n$$ | . . . . .\n$$ | . ? . . .\n$$ +----------");
    let message = "Sensei's diagram line 3: `?` is not a Sensei's diagram symbol: use . , X O, 1–9 0, B W # @ Y Q Z P, C S T M or a–z";
    assert_errors(
        &files,
        &[
            ("lessons/go/01-a.zh.md", 9, 1, message),
            ("lessons/go/01-a.en.md", 9, 1, message),
        ],
    );
}

#[test]
fn errors_on_mate_line_that_stops_before_the_mate() {
    let files = board_set(
        "chess",
        "fen = \"k7/8/1K6/8/8/8/8/7R w - - 0 1\"\ngoal = \"mate\"\nmate_in = 2\nsolutions = [\"Rh7 Kb8\"]\n",
    );
    assert_errors(
        &files,
        &[(
            CHESS,
            10,
            14,
            "solution `Rh7 Kb8` does not end in mate: write the line to the mate",
        )],
    );
}
