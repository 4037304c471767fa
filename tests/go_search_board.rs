//! The search board (`SearchBoard`, make/undo) against the rules engine's `Position::play_move`
//! (itself compared with GNU Go in `tests/go_gnugo.rs`): random games on boards 5×5 to
//! 19×19, with random take-backs, comparing after every move the stones, the captures, the
//! prisoners, the ko point and the legality of moves for both sides.

use qiyuan::rules::go::{Board, Color, Illegal, Move, Point, Position, SearchBoard, SplitMix64};

/// What the two engines say about one point, reason included.
fn verdicts(
    pos: &Position,
    board: &SearchBoard,
    p: Point,
) -> (Result<(), Illegal>, Result<(), Illegal>) {
    (
        pos.play_move(Move::Play(p)).map(|_| ()),
        board.check(Move::Play(p)),
    )
}

/// Points to ask about: all of them on small boards; on large ones the ko point, the points
/// just emptied, every crowded empty point (no empty neighbour: where suicide and ko live)
/// and a few random ones.
fn points_to_check(pos: &Position, rng: &mut SplitMix64) -> Vec<Point> {
    let board = pos.board();
    if board.size() <= 5 {
        return board.points().collect();
    }
    let mut out: Vec<Point> = pos.ko_point().into_iter().collect();
    out.extend_from_slice(pos.captured());
    let crowded: Vec<Point> = board
        .points()
        .filter(|&p| board.get(p).is_none() && board.neighbours(p).all(|q| board.get(q).is_some()))
        .collect();
    for _ in 0..crowded.len().min(6) {
        out.push(crowded[rng.below(crowded.len())]);
    }
    let all: Vec<Point> = board.points().collect();
    for _ in 0..4 {
        out.push(all[rng.below(all.len())]);
    }
    out
}

fn compare(pos: &Position, board: &SearchBoard, rng: &mut SplitMix64, context: &str) {
    assert_eq!(&board.board(), pos.board(), "{context}: boards differ");
    assert_eq!(board.turn(), pos.turn(), "{context}: side to play");
    assert_eq!(board.ko_point(), pos.ko_point(), "{context}: ko point");
    assert_eq!(
        board.captured(),
        pos.captured(),
        "{context}: captured stones"
    );
    for c in [Color::Black, Color::White] {
        assert_eq!(board.prisoners(c), pos.prisoners(c), "{context}: prisoners");
    }
    assert_eq!(
        board.consecutive_passes(),
        pos.consecutive_passes(),
        "{context}: passes"
    );
    for p in points_to_check(pos, rng) {
        let (ours, fast) = verdicts(pos, board, p);
        assert_eq!(fast, ours, "{context}: legality of {}", p.name(pos.size()));
    }
    // Chains and liberties of a few stones.
    for p in pos
        .board()
        .points()
        .filter(|&p| pos.board().get(p).is_some())
        .take(4)
    {
        let mut chain = pos.board().chain(p);
        chain.sort();
        assert_eq!(
            board.chain(p),
            chain,
            "{context}: chain of {}",
            p.name(pos.size())
        );
        assert_eq!(
            board.liberties(p),
            pos.board().liberties(p),
            "{context}: liberties"
        );
    }
}

#[test]
fn search_board_agrees_with_position_play_on_random_games() {
    let mut rng = SplitMix64(0x5EA5_C0DE);
    let (mut moves, mut undos, mut captures) = (0usize, 0usize, 0usize);
    // Every size in release; in debug builds a spread of them (the test must stay quick).
    let sizes: Vec<u8> = if cfg!(debug_assertions) {
        vec![5, 6, 7, 8, 9, 11, 13, 19]
    } else {
        (5..=19).collect()
    };
    for size in sizes {
        let games = if size <= 9 { 3 } else { 2 };
        for game in 0..games {
            let mut stack = vec![Position::empty(size).unwrap()];
            let mut board = SearchBoard::new(stack[0].board(), Color::Black);
            let limit = 2 * size as usize * size as usize;
            let mut played = 0;
            while played < limit {
                let pos = stack.last().unwrap().clone();
                if pos.consecutive_passes() >= 2 {
                    break;
                }
                let context = format!("{size}×{size} game {game} move {played}");
                // Now and then take back a few moves.
                if stack.len() > 4 && rng.below(40) == 0 {
                    let k = 1 + rng.below(3);
                    for _ in 0..k {
                        stack.pop();
                        assert!(board.undo());
                        undos += 1;
                    }
                    compare(
                        stack.last().unwrap(),
                        &board,
                        &mut rng,
                        &format!("{context}, undo"),
                    );
                    continue;
                }
                let mv = if rng.below(60) == 0 {
                    Move::Pass
                } else {
                    board.random_move(&mut rng)
                };
                let next = pos
                    .play_move(mv)
                    .unwrap_or_else(|e| panic!("{context}: Position refuses {mv:?}: {e}"));
                board.play_move(mv).unwrap();
                captures += next.captured().len();
                stack.push(next);
                played += 1;
                moves += 1;
                compare(stack.last().unwrap(), &board, &mut rng, &context);
            }
            // Undo the whole game back to the empty board.
            while stack.len() > 1 {
                stack.pop();
                assert!(board.undo());
            }
            assert_eq!(board.board(), Board::new(size).unwrap());
            assert!(!board.undo());
        }
    }
    eprintln!("{moves} moves, {captures} stones captured, {undos} moves taken back");
    assert!(moves > 2_000, "only {moves} moves");
    assert!(
        captures > 300 && undos > 30,
        "{captures} captures, {undos} undos"
    );
}

#[test]
fn search_board_refuses_superko_like_position() {
    // A board whose history makes a capture illegal: start from a Position with history.
    let b = Board::from_text(5, ". X O . .\nX O . O .\n. X O . .\n. . . . .\n. . . . .").unwrap();
    let pos = Position::new(b.clone(), Color::Black);
    let c4 = b.point("C4").unwrap();
    let b4 = b.point("B4").unwrap();
    // Black takes, both pass (the ko ban ends), White's retake repeats the first board.
    let pos = pos
        .play_move(Move::Play(c4))
        .unwrap()
        .play_move(Move::Pass)
        .unwrap()
        .play_move(Move::Pass)
        .unwrap();
    let board = SearchBoard::from_position(&pos);
    assert_eq!(
        board.check(Move::Play(b4)),
        pos.play_move(Move::Play(b4)).map(|_| ())
    );
    assert!(matches!(
        board.check(Move::Play(b4)),
        Err(Illegal::Superko { .. })
    ));
}
