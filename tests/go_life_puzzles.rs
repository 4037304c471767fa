//! Go life-and-death puzzles judged by the solver: a move the author did not foresee is
//! answered on the board with the solver's refutation, and a correct one the author did not
//! list is accepted. The solver itself is checked against GNU Go and the book in
//! `tests/go_life.rs`; here the trainer is checked to follow it.

use qiyuan::content::{Library, Verdict};

/// A straight three on the right edge of a 19×19 board (T2, T3, T4), in Black's group.
const STRAIGHT_THREE: &str = r#"size = 19
view = "N1:T7"
board = """
. . . . . . .
. . . . . O O
. . . . O X X
. . . . O X .
. . . . O X .
. . . . O X .
. . . . O X X
"""
"#;

const SET: &str = r#"[set]
title = { zh = "死活", en = "Life and death" }

[[problem]]
id = "straight-three"
prompt = { zh = "黑先活。", en = "Black to live." }
STRAIGHT_THREE
to_play = "black"
goal = "live"
solutions = ["T3"]

[[problem]]
id = "kill-straight-three"
prompt = { zh = "白先杀。", en = "White to kill." }
STRAIGHT_THREE
to_play = "white"
goal = "kill"
solutions = ["T3"]

[[problem]]
id = "straight-four"
prompt = { zh = "黑先活。", en = "Black to live." }
size = 19
view = "N1:T7"
board = """
. . . . . O O
. . . . O X X
. . . . O X .
. . . . O X .
. . . . O X .
. . . . O X .
. . . . O X X
"""
to_play = "black"
goal = "live"
solutions = ["T3"]
"#;

fn library() -> Library {
    let set = SET.replace("STRAIGHT_THREE\n", STRAIGHT_THREE);
    let (library, errors) = Library::load(&[("problems/go/ld.toml".into(), set)]);
    assert!(errors.is_empty(), "{errors:?}");
    library
}

#[test]
fn an_unforeseen_wrong_move_is_refuted_on_the_board() {
    let lib = library();
    let p = &lib.shelves[0].sets[0].problems[0].puzzle;
    // Q5 is far from the eye space: White answers at the vital point and Black dies.
    match p.attempt(&[], &[], "Q5") {
        Verdict::Wrong { why, shown } => {
            assert_eq!(shown.first().map(String::as_str), Some("Q5"));
            assert_eq!(shown.get(1).map(String::as_str), Some("T3"), "{shown:?}");
            let why = why.expect("the solver says why");
            assert!(why.en.contains("cannot live"), "{}", why.en);
            assert!(why.zh.contains("活不了"), "{}", why.zh);
        }
        other => panic!("Q5 should be wrong, got {other:?}"),
    }
}

#[test]
fn an_unlisted_correct_move_is_accepted() {
    let lib = library();
    // A straight four lives whatever Black does elsewhere: Q5, which the author did not
    // list, keeps the group alive.
    let four = &lib.shelves[0].sets[0].problems[2].puzzle;
    assert!(
        matches!(four.attempt(&[], &[], "Q5"), Verdict::Correct { .. }),
        "{:?}",
        four.attempt(&[], &[], "Q5")
    );
    // Moves the author did not write as wrong lines are refuted by the solver's reply.
    let three = &lib.shelves[0].sets[0].problems[1].puzzle;
    // White at the end of the straight three: Black takes the vital point and lives.
    for end in ["T2", "T4"] {
        match three.attempt(&[], &[], end) {
            Verdict::Wrong { shown, why } => {
                assert_eq!(
                    shown.get(1).map(String::as_str),
                    Some("T3"),
                    "{end}: {shown:?}"
                );
                assert!(why.is_some(), "{end}: the solver says why");
            }
            other => panic!("White {end} should be refuted, got {other:?}"),
        }
    }
}
