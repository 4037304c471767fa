//! Unit tests of the life-and-death solver: problems, the search and its heuristics.

use super::search::{Search, INF};
use super::*;
use crate::rules::go::Board;

/// `text` in the lower left corner of a `size` board, `to_play` to move.
fn corner(size: u8, text: &str, to_play: Color) -> Position {
    let rows = text.trim().lines().count() as u8;
    diagram_at(size, text, size - rows, to_play)
}

/// `text` in the upper left corner of a 19×19 board (its first point is A19), `to_play`
/// to move.
fn upper_corner(text: &str, to_play: Color) -> Position {
    diagram_at(19, text, 0, to_play)
}

/// `text` on a `size` board from column A and grid row `top` down.
fn diagram_at(size: u8, text: &str, top: u8, to_play: Color) -> Position {
    let rows = text.trim().lines().count() as u8;
    let cols = text
        .trim()
        .lines()
        .next()
        .unwrap()
        .split_whitespace()
        .count() as u8;
    let origin = Point::new(0, top);
    Position::new(
        Board::from_text_at(size, text, origin, cols, rows).unwrap(),
        to_play,
    )
}

/// Black to live in `text` (the upper left corner): the position and its problem, with
/// the target and region the solver infers.
fn black_to_live(text: &str) -> (Position, Problem) {
    let pos = upper_corner(text, Color::Black);
    let problem = Problem::new(&pos, Goal::Live, Target::Inferred, Region::Auto).unwrap();
    (pos, problem)
}

/// Whether every point named is in the problem's region.
fn in_region(problem: &Problem, points: &[&str]) -> bool {
    points
        .iter()
        .all(|name| problem.region().contains(&Point::parse(name, 19).unwrap()))
}

/// Asserts that `first` wins for the side to play (two million positions at most).
fn assert_wins(pos: &Position, problem: &Problem, first: &str) {
    let judgement = evaluate_move(pos, problem, mv(first), two_million()).unwrap();
    assert_eq!(judgement.outcome, Outcome::Win, "{first}: {judgement:?}");
}

fn mv(name: &str) -> Move {
    Move::parse(name, 19).unwrap()
}

/// 2,000,000 positions on one thread, and time enough for a debug build.
fn two_million() -> Budget {
    Budget {
        nodes: 2_000_000,
        time: Duration::from_secs(60),
        threads: 1,
    }
}

/// White's eye space A1 B1 A2 is a bent three, Black to play: Black kills at the bend.
///   X X X X . .
///   O O O X . .
///   . O O X . .
///   . . O X . .
fn bent_three() -> Position {
    corner(
        19,
        "X X X X . .\nO O O X . .\n. O O X . .\n. . O X . .",
        Color::Black,
    )
}

#[test]
fn kills_bent_three_at_the_bend() {
    let pos = bent_three();
    let problem = Problem::new(&pos, Goal::Kill, Target::Inferred, Region::Auto).unwrap();
    let v = solve(&pos, &problem, Budget::default());
    assert_eq!(v.outcome, Outcome::Win);
    assert_eq!(v.best, Some(mv("A1")));
    let wrong = evaluate_move(&pos, &problem, mv("B1"), Budget::default()).unwrap();
    assert_eq!(wrong.outcome, Outcome::Loss);
    assert_eq!(wrong.reply, Some(mv("A1")));
}

#[test]
fn the_authors_first_move_is_searched_first() {
    // White's eye space A1 B1 holds one eye at most: either Black move kills.
    //   X X X X . .
    //   O O O X . .
    //   . . O X . .
    let text = "X X X X . .\nO O O X . .\n. . O X . .";
    let pos = corner(19, text, Color::Black);
    let problem = Problem::new(&pos, Goal::Kill, Target::Inferred, Region::Auto).unwrap();
    for first in ["A1", "B1"] {
        let point = Point::parse(first, 19).unwrap();
        let hinted = problem.clone().with_first_moves(&pos, &[point]);
        let v = solve(&pos, &hinted, Budget::default());
        assert_eq!((v.outcome, v.best), (Outcome::Win, Some(mv(first))));
    }
}

#[test]
fn a_wrong_first_move_changes_no_verdict() {
    let pos = bent_three();
    let problem = Problem::new(&pos, Goal::Kill, Target::Inferred, Region::Auto).unwrap();
    let plain = solve(&pos, &problem, Budget::default());
    let b1 = Point::parse("B1", 19).unwrap();
    let hinted = problem.clone().with_first_moves(&pos, &[b1]);
    let v = solve(&pos, &hinted, Budget::default());
    assert_eq!((v.outcome, v.best), (Outcome::Win, Some(mv("A1"))));
    assert_eq!((v.outcome, v.best), (plain.outcome, plain.best));
    // From another position (after a move) the first moves are not the author's.
    let after = pos.play_move(mv("A1")).unwrap();
    assert!(hinted.first_moves_from(&after).is_empty());
    assert_eq!(hinted.first_moves_from(&pos), &[b1]);
}

#[test]
fn a_defender_who_makes_life_in_one_move_has_won() {
    // White to play: B1 splits the straight three A1-C1 into two eyes.
    //   . . . . X .
    //   O O O O X .
    //   . . . O X .
    let text = ". . . . X .\nO O O O X .\n. . . O X .";
    let pos = corner(19, text, Color::White);
    let problem = Problem::new(&pos, Goal::Live, Target::Inferred, Region::Auto).unwrap();
    let mut search = Search::new(&pos, &problem, Color::White, None);
    let b1 = search.board.vertex(Point::parse("B1", 19).unwrap());
    assert_eq!(search.living_move(), Some(b1));
    let nodes = search.nodes;
    assert!(nodes > 0, "each move tried counts as a position");
    assert_eq!(search.living_move(), Some(b1), "found again first");
    assert_eq!(search.nodes, nodes + 1);
    let v = solve(&pos, &problem, Budget::default());
    assert_eq!((v.outcome, v.best), (Outcome::Win, Some(mv("B1"))));
    // The attacker to play: nothing to find.
    let pos = corner(19, text, Color::Black);
    let problem = Problem::new(&pos, Goal::Kill, Target::Inferred, Region::Auto).unwrap();
    let mut search = Search::new(&pos, &problem, Color::Black, None);
    assert_eq!(search.living_move(), None);
    // Black on the vital point: no White move makes two eyes.
    let dead = pos.play_move(mv("B1")).unwrap();
    let mut search = Search::new(&dead, &problem, Color::Black, None);
    assert_eq!(search.living_move(), None);
    assert_eq!(
        solve(&pos, &problem, Budget::default()).best,
        Some(mv("B1"))
    );
}

#[test]
fn judges_the_winning_move_from_the_proof_and_searches_a_wrong_one() {
    let pos = bent_three();
    let problem = Problem::new(&pos, Goal::Kill, Target::Inferred, Region::Auto).unwrap();
    let mut solution = solve_keeping(&pos, &problem, Budget::default());
    assert_eq!(solution.verdict.outcome, Outcome::Win);
    let right = solution.judge(mv("A1")).unwrap();
    assert_eq!(right.outcome, Outcome::Win);
    assert_eq!(right.nodes, 0, "taken from the proof's table");
    let searched = evaluate_move(&pos, &problem, mv("A1"), Budget::default()).unwrap();
    assert_eq!(searched.outcome, Outcome::Win);
    let wrong = solution.judge(mv("B1")).unwrap();
    assert_eq!(wrong.outcome, Outcome::Loss);
    assert_eq!(wrong.reply, Some(mv("A1")));
    assert!(
        wrong.nodes > 0,
        "a refuted move of a won problem is searched"
    );
    assert!(
        solution.judge(mv("B2")).is_err(),
        "an occupied point is illegal"
    );
}

#[test]
fn a_target_in_atari_with_the_attacker_to_play_is_captured_statically() {
    // White's A2-B2 has one liberty, A1, and Black is to play.
    //   X X . .
    //   O O X .
    //   . X . .
    let pos = corner(19, "X X . .\nO O X .\n. X . .", Color::Black);
    let problem = Problem::new(&pos, Goal::Kill, Target::Inferred, Region::Auto).unwrap();
    let search = Search::new(&pos, &problem, Color::Black, Some(Color::White));
    assert_eq!(search.decided(), Some(Color::Black));
    let v = solve(&pos, &problem, Budget::default());
    assert_eq!(v.outcome, Outcome::Win);
    assert_eq!(v.line, vec![mv("A1")], "the line ends with the capture");
}

#[test]
fn the_atari_rule_waits_for_the_attacker_and_one_shared_liberty() {
    // The same atari with White to play: White may still connect or capture.
    let pos = corner(19, "X X . .\nO O X .\n. X . .", Color::White);
    let problem = Problem::new(&pos, Goal::Live, Target::Inferred, Region::Auto).unwrap();
    let search = Search::new(&pos, &problem, Color::White, Some(Color::Black));
    assert_eq!(search.decided(), None);
    // Two target chains in atari on different liberties (A1 and E1): one move takes
    // only one of them.
    //   X X X X X .
    //   O O X O O X
    //   . X . X . X
    let pos = corner(19, "X X X X X .\nO O X O O X\n. X . X . X", Color::Black);
    let target = ["A2", "B2", "D2", "E2"].map(|p| Point::parse(p, 19).unwrap());
    let problem = Problem::new(
        &pos,
        Goal::Kill,
        Target::Stones(target.to_vec()),
        Region::Auto,
    )
    .unwrap();
    let search = Search::new(&pos, &problem, Color::Black, Some(Color::White));
    assert_eq!(search.decided(), None);
}

#[test]
fn two_eyes_are_alive_already() {
    let pos = corner(
        19,
        "X X X . .\nO O X . .\n. O X . .\nO O X . .\n. O X . .",
        Color::Black,
    );
    let problem = Problem::new(&pos, Goal::Kill, Target::Inferred, Region::Auto).unwrap();
    let v = solve(&pos, &problem, Budget::default());
    assert_eq!(v.outcome, Outcome::Loss);
    assert_eq!(v.best, None);
}

#[test]
fn recognises_a_ko() {
    // Black C1 takes D1: White's eye at C1 goes, but White can retake at D1.
    let pos = corner(19, "X X X X . .\nO O O X . .\n. O . O X .", Color::Black);
    let problem = Problem::new(&pos, Goal::Kill, Target::Inferred, Region::Auto).unwrap();
    let v = solve(&pos, &problem, Budget::default());
    assert!(matches!(v.outcome, Outcome::Ko { .. }), "{v:?}");
    let take = evaluate_move(&pos, &problem, mv("C1"), Budget::default()).unwrap();
    assert!(matches!(take.outcome, Outcome::Ko { .. }), "{take:?}");
}

#[test]
fn a_ko_masters_retake_to_an_earlier_board_is_searched_on() {
    // Cho Chikun, Elementary 448: Black A2 leads to a ko (White takes at D1 after
    // Black C1 captures D1's stone). White's retakes as ko master bring back boards of
    // the line; the search must not read them as the same, unfinished node.
    let pos = cho_448();
    let problem = Problem::new(&pos, Goal::Kill, Target::Inferred, Region::Auto).unwrap();
    let v = solve(&pos, &problem, Budget::default());
    assert!(matches!(v.outcome, Outcome::Ko { .. }), "{v:?}");
    assert_eq!(v.best, Some(mv("A2")));
}

/// Cho Chikun, Elementary 270 (in the book's corner, top left): Black E18 kills.
fn cho_270() -> Position {
    let board = Board::from_text_at(
        19,
        ". O X . O X . .
         O O . O . X . .
         X X O O O X . .
         . . X X X X . .
         . X . . . . . .",
        Point::new(0, 0),
        8,
        5,
    )
    .unwrap();
    Position::new(board, Color::Black)
}

/// Cho Chikun, Elementary 448: Black A2 leads to a ko.
fn cho_448() -> Position {
    corner(
        19,
        ". X . . . .
         . . . . . .
         X X X X . .
         . O O O X X
         . . . . O X
         . O . O . X",
        Color::Black,
    )
}

#[test]
fn a_value_resting_on_the_lines_superko_is_not_taken_to_another_line() {
    // Cho Chikun, Elementary 270: Black E18 kills (each of White's answers, searched
    // on its own, loses). Searched in other orders, a value found under a move the
    // superko rule refused because of a board higher on the line was once stored
    // and read on a line without that board: a false refutation, and "ko".
    // (In the book's corner, top left: the order of the search is the benchmark's.)
    let pos = cho_270();
    let problem = Problem::new(&pos, Goal::Kill, Target::Inferred, Region::Auto).unwrap();
    for stay in [4, 8, 16] {
        // As `solve` tries first: White may retake every ko at once.
        let mut search = Search::new(&pos, &problem, Color::Black, Some(Color::White));
        search.options.stay = stay;
        search.node_limit = 1_000_000;
        assert_eq!(search.run(), Some(true), "ε = {stay}/16");
    }
}

/// Black's wall A4-F1 is safe; White's group A2-C1 has the eye space A1 B1 and A3-C3,
/// and a way out to D1-E3 that Black closes with D2 and D1.
fn closable() -> Position {
    corner(
        19,
        "X X X X X X .
         . . . X . X .
         O O O . . X .
         . . O . . X .",
        Color::Black,
    )
}

#[test]
fn moves_away_from_the_fight_are_not_searched() {
    let pos = closable();
    let problem = Problem::new(&pos, Goal::Kill, Target::Inferred, Region::Auto).unwrap();
    let names = |search: &Search| -> Vec<String> {
        search
            .candidates()
            .into_iter()
            .map(|c| search.to_move(c).name(19))
            .collect()
    };
    let away = ["E1", "E2", "E3"];
    let mut search = Search::new(&pos, &problem, Color::Black, Some(Color::White));
    // Open: White's way out is part of the fight.
    assert!(away.iter().all(|p| names(&search).contains(&p.to_string())));
    for m in ["D2", "pass", "D1"] {
        search.board.play_move(mv(m)).unwrap();
    }
    // Closed: Black's D1-D3 joins the safe wall; the points beyond are a pass to both.
    let white = names(&search);
    assert!(white.contains(&"pass".to_string()), "{white:?}");
    assert!(
        white.iter().all(|m| !away.contains(&m.as_str())),
        "{white:?}"
    );
    search.board.play_move(Move::Pass).unwrap();
    let black = names(&search);
    assert!(
        black.iter().all(|m| !away.contains(&m.as_str())),
        "{black:?}"
    );
    // Without the rule, every point of the region is a candidate.
    search.options.fight_only = false;
    assert!(away.iter().all(|p| names(&search).contains(&p.to_string())));
}

/// Walks random lines of the search from `pos` (the ko master retaking kos, so that
/// boards repeat), calling `check` at every position with its depth.
fn walk_lines(pos: &Position, ko_master: Color, mut check: impl FnMut(&mut Search, usize)) {
    let problem = Problem::new(pos, Goal::Kill, Target::Inferred, Region::Auto).unwrap();
    let mut search = Search::new(pos, &problem, pos.turn(), Some(ko_master));
    let mut rng = super::super::search_board::SplitMix64(7);
    for _ in 0..60 {
        let mut depth = 0;
        while depth < 30 && search.decided().is_none() {
            check(&mut search, depth);
            let moves = search.candidates();
            if moves.is_empty() {
                break;
            }
            search.play(moves[rng.below(moves.len())]);
            depth += 1;
        }
        for _ in 0..depth {
            search.board.undo();
        }
    }
}

#[test]
fn a_childs_key_read_off_the_board_is_its_key_after_the_move() {
    let (mut moves, mut repeats) = (0, 0);
    for (pos, master) in [(cho_270(), Color::Black), (cho_448(), Color::White)] {
        walk_lines(&pos, master, |search, _| {
            for c in search.candidates() {
                let (key, repeated) = search.key_after(c);
                search.play(c);
                assert_eq!((key, repeated), (search.key(), search.board.repeated()));
                search.board.undo();
                moves += 1;
                repeats += usize::from(repeated);
            }
        });
    }
    // Kos were taken back to earlier boards on the way.
    assert!(
        moves > 1000 && repeats > 0,
        "{moves} moves, {repeats} repeats"
    );
}

#[test]
fn benson_is_left_out_only_where_life_is_ruled_out() {
    // After a pass or a defender stone that the position's living move tried, no
    // target stone is alive (the attacker's stones are not checked: they only nearly
    // never give life).
    let mut checked = 0;
    for (pos, master) in [(cho_270(), Color::Black), (cho_448(), Color::White)] {
        walk_lines(&pos, master, |search, depth| {
            if depth == 0 || search.board.turn() != search.defender {
                return;
            }
            if search.living_move().is_some() {
                return;
            }
            for c in search.candidates() {
                if !search.alive_ruled_out(c, depth + 1) {
                    continue;
                }
                search.play(c);
                assert!(!search.target_alive());
                search.board.undo();
                checked += 1;
            }
        });
    }
    assert!(checked > 100, "{checked} moves checked");
}

#[test]
fn a_ko_the_master_takes_back_at_once_is_not_searched() {
    // Black C1 takes D1 in a ko. With White as ko master, White takes back at D1 at
    // once, so Black's C1 is left out; as ko master (or with none) Black searches it.
    let pos = corner(19, "X X X X . .\nO O O X . .\n. O . O X .", Color::Black);
    let problem = Problem::new(&pos, Goal::Kill, Target::Inferred, Region::Auto).unwrap();
    let has_c1 = |ko_master: Option<Color>, left: bool| {
        let mut search = Search::new(&pos, &problem, Color::Black, ko_master);
        search.options.kos_left_to_master = left;
        let c1 = search.board.vertex(Point::new(2, 18));
        search.candidates().contains(&c1)
    };
    assert!(!has_c1(Some(Color::White), true));
    assert!(has_c1(Some(Color::White), false));
    assert!(has_c1(Some(Color::Black), true));
    assert!(has_c1(None, true));
}

#[test]
fn keeping_to_the_fight_changes_no_verdict() {
    // A kill (Elementary 270), a ko (Elementary 448 and a corner ko), a life, and the
    // group above once closed in: the same result with and without the rule, and
    // without leaving kos to the ko master.
    let mut closed = closable();
    for m in ["D2", "pass", "D1"] {
        closed = closed.play_move(mv(m)).unwrap();
    }
    let ko = corner(19, "X X X X . .\nO O O X . .\n. O . O X .", Color::Black);
    let live = corner(
        19,
        "X X X X X . .\nO O O O X . .\n. . . O X . .",
        Color::White,
    );
    let cases = [
        (cho_270(), Goal::Kill),
        (cho_448(), Goal::Kill),
        (ko, Goal::Kill),
        (live, Goal::Live),
        (closable(), Goal::Kill),
        (closed.clone(), Goal::Kill),
        (closed, Goal::Live),
    ];
    for (pos, goal) in cases {
        let problem = Problem::new(&pos, goal, Target::Inferred, Region::Auto).unwrap();
        let attacker = problem.attacker;
        let prover = if goal == Goal::Kill {
            attacker
        } else {
            attacker.opponent()
        };
        for ko_master in [Some(prover.opponent()), Some(prover)] {
            let run = |fight_only: bool, kos_left_to_master: bool| {
                let mut search = Search::new(&pos, &problem, prover, ko_master);
                search.options.fight_only = fight_only;
                search.options.kos_left_to_master = kos_left_to_master;
                search.node_limit = 2_000_000;
                search.run()
            };
            let kept = run(true, true);
            assert!(kept.is_some(), "{goal:?} {ko_master:?}: unknown");
            assert_eq!(kept, run(false, true), "{goal:?}, ko master {ko_master:?}");
            assert_eq!(kept, run(true, false), "{goal:?}, ko master {ko_master:?}");
        }
    }
}

#[test]
fn threads_sharing_the_table_reach_the_same_verdicts() {
    // A kill without ko (Cho Chikun Elementary 270: E18), a ko (Elementary 448: A2)
    // and a life, each searched on one thread and on two and three that share the
    // table: the same outcome, and a best move that the one thread's proof accepts.
    let live = corner(
        19,
        "X X X X X . .\nO O O O X . .\n. . . O X . .",
        Color::White,
    );
    for (pos, goal) in [
        (cho_270(), Goal::Kill),
        (cho_448(), Goal::Kill),
        (live, Goal::Live),
    ] {
        let problem = Problem::new(&pos, goal, Target::Inferred, Region::Auto).unwrap();
        let one = solve_keeping(&pos, &problem, Budget::default());
        assert_ne!(one.verdict.outcome, Outcome::Unknown);
        for threads in [2, 3] {
            let budget = Budget {
                threads,
                ..Budget::default()
            };
            let many = solve(&pos, &problem, budget);
            assert_eq!(many.outcome, one.verdict.outcome, "{threads} threads");
            let best = many.best.expect("a proven problem has a best move");
            let mut judge = solve_keeping(&pos, &problem, Budget::default());
            let judged = judge.judge(best).unwrap();
            assert_eq!(
                judged.outcome.as_str(),
                one.verdict.outcome.as_str(),
                "{threads} threads: {best:?}"
            );
        }
    }
}

#[test]
fn refuses_a_target_without_a_defender_stone() {
    let pos = corner(19, "X X . .\nO X . .", Color::Black);
    let a1 = Point::parse("C1", 19).unwrap();
    assert_eq!(
        Problem::new(&pos, Goal::Kill, Target::Stones(vec![a1]), Region::Auto),
        Err(BadProblem::NotDefenderStone {
            point: a1,
            defender: Color::White
        })
    );
}

#[test]
fn a_siblings_proof_carries_over_by_simulation() {
    // Cho Chikun Elementary 1 after Black's B5, White to play. Once one White move is
    // refuted, others are refuted by following that proof, and every position the
    // simulation settles is settled the same by a search without it.
    //   . X . O . . .
    //   O O O O X X .
    //   . X X X . . .
    //   . . . . . . .
    //   . X . . . . .
    let cho = corner(
        19,
        ". . . O . . .\nO O O O X X .\n. X X X . . .\n. . . . . . .\n. X . . . . .",
        Color::Black,
    );
    let dead = cho.play_move(mv("B5")).unwrap();
    let problem = Problem::new(&dead, Goal::Kill, Target::Inferred, Region::Auto).unwrap();
    let mut search = Search::new(&dead, &problem, Color::Black, None);
    let moves = search.candidates();
    assert!(moves.len() > 2);
    let first = moves[0];
    search.play(first);
    assert_eq!(
        search.mid(INF - 1, INF - 1, 1).0,
        0,
        "Black kills after any White move"
    );
    search.board.undo();
    let mut carried = Vec::new();
    for &m in &moves[1..] {
        if carried.len() == 3 || !search.try_simulation(first, m, 1, true) {
            continue;
        }
        carried.push(m);
        let mut plain = Search::new(&dead, &problem, Color::Black, None);
        plain.options.simulation = false;
        plain.play(m);
        assert_eq!(
            plain.mid(INF - 1, INF - 1, 1).0,
            0,
            "{:?}",
            search.to_move(m)
        );
    }
    assert!(!carried.is_empty(), "no sibling proof carried over");
    // Tried once from a position, not again.
    assert!(!search.try_simulation(first, carried[0], 1, true));
}

#[test]
fn reports_unknown_when_the_budget_is_too_small() {
    // Cho Chikun Elementary 1: Black kills, but not within three positions.
    let pos = corner(
        19,
        ". . . O . . .\nO O O O X X .\n. X X X . . .\n. . . . . . .\n. X . . . . .",
        Color::Black,
    );
    let problem = Problem::new(&pos, Goal::Kill, Target::Inferred, Region::Auto).unwrap();
    let tiny = Budget {
        nodes: 3,
        time: Duration::from_secs(1),
        threads: 1,
    };
    assert_eq!(solve(&pos, &problem, tiny).outcome, Outcome::Unknown);
}

/// Cho 772, Black to live: A18 is the book's answer. After it, Black's B18-A18 chain
/// and White's C19-C17 chain race, and A19 is a liberty both need; nothing reaches it
/// from Black's group (White's chain is in the way), but the region is all around it.
///
/// ```text
///   . . O . X . .
///   . X O . . O O
///   . X O X X . .
///   X O X X . O .
///   . O O . . O .
///   . . . . O . .
///   . . O . . . .
/// ```
#[test]
fn a_hole_the_fight_surrounds_is_in_the_region() {
    let text = ". . O . X . .
                . X O . . O O
                . X O X X . .
                X O X X . O .
                . O O . . O .
                . . . . O . .
                . . O . . . .";
    let (pos, problem) = black_to_live(text);
    assert!(in_region(&problem, &["A19"]));
    assert_wins(&pos, &problem, "A18");
}

/// Cho Chikun Elementary 40 (Black to live): Black's A18-B16 chain and White's B19-B18
/// are in mutual atari. Black's two chains of four are equal; the target is the
/// C19-E18 chain with its liberties, not the one in atari, which the book gives up:
/// after its E19 White captures four stones at A19, and Black B17 lives.
///   . O X . . . . . .
///   X O X X X O . O .
///   X X O . O O . . .
///   O X O . . . . . .
///   O O O . . . . . .
///   . . . . . . . . .
#[test]
fn a_chain_in_atari_is_not_taken_for_the_group() {
    let text = ". O X . . . . . .
                X O X X X O . O .
                X X O . O O . . .
                O X O . . . . . .
                O O O . . . . . .
                . . . . . . . . .";
    let (pos, problem) = black_to_live(text);
    let at = |name: &str| Point::parse(name, 19).unwrap();
    assert!(problem.target().contains(&at("C18")));
    assert!(!problem.target().contains(&at("A18")));
    assert_wins(&pos, &problem, "E19");
}

/// Cho Chikun Elementary 104 (Black to live): White's B18-B17 and C19-D19 are short of
/// liberties, so A18, A17 and B19 are in the region; A19, next to them only, is a hole
/// that White guards, taken in because Black must live. The book's A18 lives: White
/// B19 is answered by A17, and White's five stones, left with A19 alone, are captured
/// there. Without A19 the solver refuted A18.
///   . . O O X O .
///   . O X X X O .
///   . O X . X O .
///   . X O X X O .
///   . . O . O O .
///   . . O . . . .
///   . . . . . . .
#[test]
fn a_hole_the_attacker_guards_is_in_the_region_of_a_group_that_must_live() {
    let text = ". . O O X O .
                . O X X X O .
                . O X . X O .
                . X O X X O .
                . . O . O O .
                . . O . . . .
                . . . . . . .";
    let (pos, problem) = black_to_live(text);
    assert!(in_region(&problem, &["A19"]));
    assert_wins(&pos, &problem, "A18");
}

/// Cho Chikun Elementary 711 (Black to live): White's C18 is short of liberties, so
/// Black's B18 next to it is in the region; B18's own neighbour A18 (White, two
/// liberties) is then a boundary chain too, and its liberties A19 and A17 are in. The
/// book's B19 lives: White A19 is answered by A17, which captures two stones. Without
/// A17 in the region the solver refuted B19.
///   . . . O . X O .
///   O X O X . X O .
///   . O X X X X O .
///   . O O O O O O .
///   . . . . . . . .
#[test]
fn a_chain_the_fight_brings_in_brings_its_own_neighbours() {
    let text = ". . . O . X O .
                O X O X . X O .
                . O X X X X O .
                . O O O O O O .
                . . . . . . . .";
    let (pos, problem) = black_to_live(text);
    assert!(in_region(&problem, &["A19", "A17"]));
    assert_wins(&pos, &problem, "B19");
}

/// Cho Chikun Elementary 881 (Black to live): B19, which White guards, is on the fence.
/// The book's C18 lives: after White C17, Black D19 and White C19, White's C19 has one
/// liberty, B19, and Black takes it there. Without that capture the solver refuted C18.
///   . . . . . X O .
///   . O . . O X O .
///   . O . X O X O .
///   . . O X O X O .
///   . . O X X X O .
///   . . . O O O . .
#[test]
fn the_defender_may_capture_on_the_fence() {
    let text = ". . . . . X O .
                . O . . O X O .
                . O . X O X O .
                . . O X O X O .
                . . O X X X O .
                . . . O O O . .";
    let (pos, problem) = black_to_live(text);
    let b19 = Point::parse("B19", 19).unwrap();
    assert!(problem.fence.contains(&b19) && !problem.region.contains(&b19));
    assert_wins(&pos, &problem, "C18");
    let mut after = pos;
    for name in ["C18", "C17", "D19", "C19"] {
        after = after.play_move(mv(name)).unwrap();
    }
    let verdict = solve(&after, &problem, two_million());
    assert_eq!(verdict.outcome, Outcome::Win, "{verdict:?}");
    assert_eq!(verdict.best, Some(mv("B19")));
}

/// Cho Chikun Elementary 14 (Black to kill): after the book's B19, White F18 and Black
/// F19, White's E19 leaves F19 one liberty, G19, on the fence, where White may take it;
/// Black may then attack that stone at H19, just off the region. Without H19 White's
/// G19 could never be captured and B19 was refuted; with it B19 is a ko (as it was
/// before the defender could capture on the fence).
///   . . . . . . . . .
///   O O O O O . X . .
///   . X X X X X . X .
///   . . . . . . . . .
///   . X . . . . . . .
#[test]
fn a_stone_that_captures_on_the_fence_may_be_attacked_from_outside_the_region() {
    let text = ". . . . . . . . .
                O O O O O . X . .
                . X X X X X . X .
                . . . . . . . . .
                . X . . . . . . .";
    let pos = upper_corner(text, Color::Black);
    let problem = Problem::new(&pos, Goal::Kill, Target::Inferred, Region::Auto).unwrap();
    let g19 = Point::parse("G19", 19).unwrap();
    assert!(problem.fence.contains(&g19));
    let judgement = evaluate_move(&pos, &problem, mv("B19"), two_million()).unwrap();
    assert!(
        matches!(judgement.outcome, Outcome::Ko { .. }),
        "{judgement:?}"
    );
}

/// Cho Chikun Elementary 1 (Black to kill): White may run out along the edge at A17 and
/// A16; A15 and B16, guarded by Black's B15 and B17, are the fence.
///   . . . O . . .
///   O O O O X X .
///   . X X X . . .
///   . . . . . . .
///   . X . . . . .
#[test]
fn fence_points_are_the_attackers_moves_only() {
    let text = ". . . O . . .\nO O O O X X .\n. X X X . . .\n. . . . . . .\n. X . . . . .";
    let pos = upper_corner(text, Color::Black);
    let problem = Problem::new(&pos, Goal::Kill, Target::Inferred, Region::Auto).unwrap();
    let fence: Vec<String> = problem.fence.iter().map(|p| p.name(19)).collect();
    assert_eq!(fence, ["A15", "B16"]);
    let white: Vec<Point> = problem.moves_of(Color::White).collect();
    let black: Vec<Point> = problem.moves_of(Color::Black).collect();
    for p in &problem.fence {
        assert!(!problem.region.contains(p) && !white.contains(p) && black.contains(p));
    }
    // The fence is empty on the search board: Black still spends the move that closes
    // the gap (White's A17 A16 is answered there), and Black's B19 kills.
    let verdict = solve(&pos, &problem, Budget::default());
    assert_eq!(verdict.outcome, Outcome::Win, "{verdict:?}");
    assert_eq!(verdict.best, Some(mv("B19")));
    let after = pos.play_move(mv("B19")).unwrap();
    let search = Search::new(&after, &problem, Color::Black, None);
    assert!(search
        .board
        .is_empty_vertex(search.board.vertex(Point::parse("A15", 19).unwrap())));
}
