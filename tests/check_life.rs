//! `qiyuan check` proving Go life-and-death problems: an author's correct line the solver
//! refutes, an author's wrong line that works, a reply that does not refute, and a line
//! the solver cannot decide within its budget, each reported at the line's place; and the
//! repository's own `live`, `kill` and `ko` problems proven clean.
//!
//! The shapes are textbook ones with known answers (a straight three dies when the attacker
//! takes its middle point, lives when the defender does). Budgets are node counts, so the
//! results do not depend on the machine's speed.

use qiyuan::content::go::life_check::{check_budget, check_life_and_death, AsWarning};
use qiyuan::content::{source, Diagnostic, Library};

/// White's straight three A1 B1 C1 in the corner of a 19×19 board, walled in by Black.
const SET: &str = r#"[set]
title = { zh = "死活", en = "Life and death" }

[[problem]]
id = "straight-three"
prompt = { zh = "黑先杀。", en = "Black to kill." }
size = 19
view = "A1:G3"
board = """
X X X X X . .
O O O O X . .
. . . O X . .
"""
to_play = "black"
goal = "kill"
solutions = ["B1"]

[[problem.wrong]]
line = "A1 B1"
why = { zh = "白 B1 做成两个眼。", en = "White B1 makes two eyes." }
"#;

const PATH: &str = "problems/go/life.toml";

fn findings(set: &str, nodes: u64) -> (Vec<String>, Vec<String>) {
    let files = vec![(PATH.to_string(), set.to_string())];
    let (library, errors) = Library::load(&files);
    assert!(errors.is_empty(), "{errors:?}");
    let found = check_life_and_death(&library, &files, check_budget(nodes));
    let show = |d: &Diagnostic| d.to_string();
    (
        found.errors.iter().map(show).collect(),
        found
            .warnings
            .iter()
            .map(|w| AsWarning(w).to_string())
            .collect(),
    )
}

#[test]
fn proves_a_correct_problem_clean() {
    assert_eq!(findings(SET, 100_000), (Vec::new(), Vec::new()));
}

#[test]
fn errors_on_a_solution_the_solver_refutes() {
    // A1 is the wrong end of the straight three: White B1 makes two eyes.
    let set = SET
        .replace("solutions = [\"B1\"]", "solutions = [\"A1\"]")
        .replace("line = \"A1 B1\"", "line = \"B1 A1\"");
    let (errors, warnings) = findings(&set, 100_000);
    assert_eq!(
        errors,
        [
            "problems/go/life.toml:16:14: error: solution `A1`: A1 fails: the group lives after B1",
            "problems/go/life.toml:19:8: error: wrong line `B1 A1`: B1 actually works: the solver proves it; list it in `solutions` or fix the problem",
        ]
    );
    assert!(warnings.is_empty(), "{warnings:?}");
}

#[test]
fn errors_on_a_reply_that_does_not_refute() {
    // A1 is wrong, but the author's reply C1 lets Black kill with B1 after all.
    let set = SET.replace("line = \"A1 B1\"", "line = \"A1 C1\"");
    let (errors, _) = findings(&set, 100_000);
    assert_eq!(
        errors,
        ["problems/go/life.toml:19:8: error: wrong line `A1 C1`: the reply C1 does not refute A1: after it the solver proves B1; answer with B1 or fix the problem"]
    );
}

#[test]
fn warns_naming_the_budget_when_the_solver_cannot_decide() {
    // With an outside liberty at E1 the pocket after B1 is no dead shape yet: two
    // positions do not prove the kill. The wrong A1 is decided at once (White B1
    // captures it and has two eyes).
    let set = SET.replace(". . . O X . .", ". . . O . X .");
    let (errors, warnings) = findings(&set, 2);
    assert!(errors.is_empty(), "{errors:?}");
    assert_eq!(
        warnings,
        [
            "problems/go/life.toml:16:14: warning: solution `B1`: B1: the solver cannot decide it within its budget of 2 positions",
        ]
    );
}

#[test]
fn errors_on_a_target_that_is_not_the_defenders() {
    let set = SET.replace("goal = \"kill\"", "goal = \"kill\"\ntarget = [\"E3\"]");
    let files = vec![(PATH.to_string(), set)];
    let errors: Vec<String> = Library::load(&files)
        .1
        .iter()
        .map(|d| d.to_string())
        .collect();
    assert_eq!(
        errors,
        ["problems/go/life.toml:16:11: error: target E3 is not a white stone: the target of a life-and-death problem is the stones that must live (or that the side to play kills)"]
    );
}

/// Cho Chikun Elementary 74 (Black to live; the book's answer D18). The region the solver
/// derives leaves out F18, a liberty of White's E18, and refutes D18 with D17; with the
/// whole corner as the region the solver proves D18 (after White D17, Black E17 lives), as
/// GNU Go reads it.
const CHO_74: &str = r#"[set]
title = { zh = "死活", en = "Life and death" }

[[problem]]
id = "cho-74"
prompt = { zh = "黑先活。", en = "Black to live." }
size = 19
view = "A19:G14"
board = """
. X . . . . .
. X O . O . .
X X O . . O .
O X X X X O .
O O O O O . .
. . . . . . .
"""
to_play = "black"
goal = "live"
solutions = ["D18"]
"#;

#[test]
fn a_wider_region_proves_a_line_the_derived_region_refutes() {
    let (errors, _) = findings(CHO_74, 2_000_000);
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(errors[0].contains("D18 fails"), "{errors:?}");
    let widened = CHO_74.replace("goal = \"live\"", "goal = \"live\"\nregion = \"A19:G14\"");
    assert_eq!(findings(&widened, 2_000_000), (Vec::new(), Vec::new()));
}

#[test]
fn errors_on_a_region_that_is_no_rectangle_or_for_another_goal() {
    let load = |set: String| -> Vec<String> {
        let files = vec![(PATH.to_string(), set)];
        Library::load(&files)
            .1
            .iter()
            .map(|d| d.to_string())
            .collect()
    };
    let region = |value: &str| {
        SET.replace(
            "goal = \"kill\"",
            &format!("goal = \"kill\"\nregion = \"{value}\""),
        )
    };
    assert_eq!(
        load(region("A1-G3")),
        ["problems/go/life.toml:16:10: error: region `A1-G3` should be two corners of a rectangle, like \"A1:E5\""]
    );
    assert_eq!(
        load(region("A1:Z3")),
        ["problems/go/life.toml:16:10: error: region: Z3 is outside the 19×19 board"]
    );
    let best = region("A1:G3").replace("goal = \"kill\"", "goal = \"best\"");
    assert_eq!(
        load(best),
        ["problems/go/life.toml:16:10: error: `region` is only used with goal = \"live\", \"kill\" or \"ko\""]
    );
}

#[test]
fn proves_every_life_and_death_problem_of_the_repository() {
    let files = source::embedded();
    let (library, errors) = Library::load(&files);
    assert!(errors.is_empty(), "{errors:?}");
    let found = check_life_and_death(&library, &files, check_budget(200_000));
    let shown: Vec<String> = found
        .errors
        .iter()
        .map(|d| d.to_string())
        .chain(found.warnings.iter().map(|w| AsWarning(w).to_string()))
        .collect();
    assert!(shown.is_empty(), "{}", shown.join("\n"));
    assert!(found.problems >= 35, "only {} problems", found.problems);
    assert_eq!(found.proven, found.problems);
}

#[test]
fn check_command_reports_a_refuted_solution_and_exits_1() {
    let dir = std::env::temp_dir().join(format!("qiyuan-check-life-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let file = dir.join(PATH);
    std::fs::create_dir_all(file.parent().unwrap()).unwrap();
    std::fs::write(
        &file,
        SET.replace("solutions = [\"B1\"]", "solutions = [\"C1\"]"),
    )
    .unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_qiyuan"))
        .args(["check", "--life-nodes", "100000", "--content"])
        .arg(&dir)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(
        stdout.starts_with(
            "problems/go/life.toml:16:14: error: solution `C1`: C1 fails: the group lives after B1"
        ),
        "{stdout}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
