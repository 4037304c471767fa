//! `qiyuan check` on deliberately broken content: every mistake is reported with its place.

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

/// Asserts exactly one error, in `path`, whose message contains `needle`; returns it.
fn one_error(files: &[(String, String)], path: &str, needle: &str) -> Diagnostic {
    let errs = errors(files);
    assert_eq!(
        errs.len(),
        1,
        "expected one error, got:\n{}",
        errs.iter()
            .map(|e| e.to_string())
            .collect::<Vec<_>>()
            .join("\n")
    );
    let e = errs.into_iter().next().unwrap();
    assert_eq!(e.path, path, "{e}");
    assert!(
        e.message.contains(needle),
        "message should contain `{needle}`:\n{e}"
    );
    e
}

const ZH: &str = "lessons/go/03-captures.zh.md";
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
    let e = one_error(&files, ZH, "unknown field `colour`");
    assert_eq!((e.line, e.col), (9, 1), "{e}");
}

#[test]
fn errors_on_bad_coordinate() {
    let files = files_with(ZH, |t| {
        t.replace("triangles = [\"C3\"]", "triangles = [\"I3\"]")
    });
    let e = one_error(&files, ZH, "column letters skip I");
    assert_eq!((e.line, e.col), (16, 14), "{e}");
}

#[test]
fn errors_on_off_board_point() {
    let files = files_with(SETP, |t| {
        t.replace("target = [\"C3\"]", "target = [\"F3\"]")
    });
    one_error(&files, SETP, "F3 is outside the 5×5 board");
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
    let errs = errors(&files);
    assert_eq!(errs.len(), 2, "{errs:?}");
    let e = errs.iter().find(|e| e.path == ZH).unwrap();
    assert!(
        e.message
            .contains("step 1: black C4 is illegal: There is already a stone on C4"),
        "{e}"
    );
    assert_eq!(e.line, 19, "{e}");
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
    let errs = errors(&files);
    let e = errs.iter().find(|e| e.path == ZH).expect("an error in zh");
    assert!(e.message.contains("C3 is a forbidden point"), "{e}");
}

#[test]
fn errors_on_stone_placed_on_a_stone() {
    let files = files_with(ZH, |t| t.replace("play = \"C2\"", "add_black = [\"C3\"]"));
    let errs = errors(&files);
    let e = errs.iter().find(|e| e.path == ZH).expect("an error in zh");
    assert!(
        e.message
            .contains("add_black puts a stone on C3, which already has a white stone"),
        "{e}"
    );
}

#[test]
fn errors_on_missing_language_twin() {
    let files: Vec<_> = files_with("", |t| t.to_string())
        .into_iter()
        .filter(|(p, _)| p != EN)
        .collect();
    let e = one_error(
        &files,
        ZH,
        "the English version `lessons/go/03-captures.en.md` is missing",
    );
    assert_eq!((e.line, e.col), (1, 1));
}

#[test]
fn errors_on_duplicate_id() {
    let files = files_with(SETP, |t| {
        let second = &t[t.find("[[problem]]").unwrap()..];
        format!("{t}\n{second}")
    });
    let e = one_error(&files, SETP, "problem id `1` is used twice");
    assert_eq!((e.line, e.col), (21, 6), "{e}");
}

#[test]
fn errors_on_capture_solution_that_does_not_capture() {
    let files = files_with(SETP, |t| {
        t.replace("solutions = [\"C2\"]", "solutions = [\"D2\"]")
    });
    one_error(
        &files,
        SETP,
        "solution `D2` ends without capturing the target stone on C3",
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
    one_error(
        &files,
        SETP,
        "the question `forbidden:black` has no answer here",
    );
}

#[test]
fn errors_on_unknown_goal() {
    let files = files_with(SETP, |t| {
        t.replace("goal = \"capture\"", "goal = \"catch\"")
    });
    let errs = errors(&files);
    assert!(
        errs.iter()
            .any(|e| e.message.contains("unknown goal `catch`: use capture")),
        "{errs:?}"
    );
}

#[test]
fn errors_on_short_board_row() {
    let files = files_with(SETP, |t| t.replacen(". X O X .", ". X O X", 1));
    let e = one_error(&files, SETP, "board row 3 has 4 points but should have 5");
    assert_eq!(e.line, 12, "{e}");
}

#[test]
fn errors_on_missing_translation() {
    let files = files_with(SETP, |t| {
        t.replace(
            "prompt = { zh = \"黑先吃白子。\", en = \"Black to capture.\" }",
            "prompt = { zh = \"黑先吃白子。\" }",
        )
    });
    one_error(&files, SETP, "missing field `en`");
}

#[test]
fn errors_on_unknown_lesson_in_set() {
    let files = files_with(SETP, |t| {
        t.replace("lesson = \"captures\"", "lesson = \"capture\"")
    });
    let e = one_error(
        &files,
        SETP,
        "set names lesson `capture`, but there is no such Go lesson",
    );
    assert_eq!(e.line, 3);
}

#[test]
fn errors_on_diagrams_that_differ_between_languages() {
    let files = files_with(EN, |t| {
        t.replace("triangles = [\"C3\"]", "triangles = [\"C4\"]")
    });
    one_error(&files, EN, "diagram 1 differs from diagram 1");
}

#[test]
fn errors_on_wrong_line_that_is_a_solution() {
    let files = files_with(SETP, |t| {
        format!("{t}\n[[problem.wrong]]\nline = \"C2\"\nwhy = {{ zh = \"错\", en = \"no\" }}\n")
    });
    one_error(&files, SETP, "nothing in it is wrong");
}

#[test]
fn errors_on_bad_lesson_file_name() {
    let mut files = files_with("", |t| t.to_string());
    files.push(("lessons/go/Intro.zh.md".into(), LESSON_ZH.into()));
    one_error(
        &files,
        "lessons/go/Intro.zh.md",
        "should look like `03-captures.zh.md`",
    );
}

#[test]
fn errors_on_missing_front_matter() {
    let files = files_with(ZH, |t| t.replacen("+++\ntitle = \"提子\"\n+++\n", "", 1));
    let errs = errors(&files);
    assert!(
        errs.iter()
            .any(|e| e.path == ZH && e.message.contains("a lesson starts with front matter")),
        "{errs:?}"
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
    one_error(
        &files,
        SETP,
        "to_play `red` should be \"black\" or \"white\"",
    );
    let files = files_with(SETP, |t| t.replace("size = 5", "size = 5\nview = \"A1\""));
    one_error(&files, SETP, "view `A1` should be two corners");
}

#[test]
fn reports_every_error_not_only_the_first() {
    let files = files_with(SETP, |t| {
        t.replace("solutions = [\"C2\"]", "solutions = [\"D2\"]")
            .replace("size = 5\n", "size = 5\ndifficulty = 9\n")
    });
    let errs = errors(&files);
    assert_eq!(errs.len(), 2, "{errs:?}");
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
    assert!(
        stdout.starts_with(
            "problems/go/captures.toml:18:14: error: solution `D2` ends without capturing"
        ),
        "{stdout}"
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
    one_error(
        &files,
        SETP,
        "move 2 of this line can never be reached: there the opponent always answers B4",
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
    let e = one_error(&files, "problems/chess/set.toml", "king");
    assert_eq!(e.line, 7, "{e}");
}

#[test]
fn errors_on_chess_mate_that_is_no_mate() {
    let files = board_set(
        "chess",
        "fen = \"4k3/8/8/8/8/8/8/4K2R w - - 0 1\"\ngoal = \"mate\"\nmate_in = 1\n",
    );
    one_error(
        &files,
        "problems/chess/set.toml",
        "the side to move has no mate in 1",
    );
}

#[test]
fn errors_on_chess_solution_that_does_not_mate() {
    let files = board_set(
        "chess",
        "fen = \"6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1\"\ngoal = \"mate\"\nmate_in = 1\nsolutions = [\"Ra7\"]\n",
    );
    one_error(
        &files,
        "problems/chess/set.toml",
        "solution `Ra7` starts with Ra7, which does not force mate in 1",
    );
}

#[test]
fn errors_on_illegal_chess_line_with_the_reason() {
    let files = board_set(
        "chess",
        "fen = \"4k3/8/8/8/8/8/8/R3K3 w Q - 0 1\"\ngoal = \"best\"\nsolutions = [\"a1b2\"]\n",
    );
    one_error(
        &files,
        "problems/chess/set.toml",
        "a1b2 is illegal: The rook cannot move from a1 to b2",
    );
}

#[test]
fn errors_on_illegal_chess_diagram_step() {
    let lesson = "+++\ntitle = \"T\"\n+++\n\n```chess\n[[steps]]\nplay = \"e5\"\n```\n";
    let files = vec![
        ("lessons/chess/01-a.zh.md".to_string(), lesson.to_string()),
        ("lessons/chess/01-a.en.md".to_string(), lesson.to_string()),
    ];
    let errs = errors(&files);
    assert_eq!(errs.len(), 2, "{errs:?}");
    assert!(
        errs[0].message.contains("step 1: e5 is illegal"),
        "{}",
        errs[0]
    );
    assert_eq!(errs[0].line, 7);
}

#[test]
fn errors_on_bad_sfen_and_tsume_without_mate() {
    let files = board_set(
        "shogi",
        "sfen = \"9/9/9 b - 1\"\ngoal = \"tsume\"\nmate_in = 1\n",
    );
    one_error(&files, "problems/shogi/set.toml", "");
    let files = board_set(
        "shogi",
        "sfen = \"4k4/9/9/9/9/9/9/9/4K4 b P 1\"\ngoal = \"tsume\"\nmate_in = 1\n",
    );
    one_error(&files, "problems/shogi/set.toml", "no tsume in 1 plies");
    let files = board_set(
        "shogi",
        "sfen = \"4k4/9/9/9/9/9/9/9/4K4 b P 1\"\ngoal = \"tsume\"\nmate_in = 2\n",
    );
    one_error(&files, "problems/shogi/set.toml", "use an odd number");
}

#[test]
fn errors_on_two_pawns_in_a_shogi_line() {
    let files = board_set(
        "shogi",
        "sfen = \"4k4/9/9/9/9/9/4P4/9/4K4 b P 1\"\ngoal = \"best\"\nsolutions = [\"P*5e\"]\n",
    );
    one_error(&files, "problems/shogi/set.toml", "P*5e is illegal");
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
    one_error(&files, "problems/go/set.toml", "goal `count` needs `rules`");
    let files = board_set(
        "go",
        &format!("{COUNT_BOARD}goal = \"count\"\nrules = \"japanese\"\ndead = [\"A1\"]\n"),
    );
    one_error(&files, "problems/go/set.toml", "dead: A1 is empty");
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
    let errs = errors(&files);
    let e = errs
        .iter()
        .find(|e| e.path.ends_with("zh.md"))
        .expect("an error");
    assert!(
        e.message.contains("`?` is not a Sensei's diagram symbol"),
        "{e}"
    );
    assert_eq!(e.line, 9, "{e}");
}

#[test]
fn errors_on_mate_line_that_stops_before_the_mate() {
    let files = board_set(
        "chess",
        "fen = \"k7/8/1K6/8/8/8/8/7R w - - 0 1\"\ngoal = \"mate\"\nmate_in = 2\nsolutions = [\"Rh7 Kb8\"]\n",
    );
    one_error(
        &files,
        "problems/chess/set.toml",
        "solution `Rh7 Kb8` does not end in mate",
    );
}
