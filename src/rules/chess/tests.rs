//! Unit tests of the chess engine layer: input, every reason a move is refused, the end of
//! the game, the mate search and FEN errors. Boards are drawn rank 8 first, `.` empty,
//! upper case White, lower case Black.

use super::*;

fn pos(fen: &str) -> Position {
    Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn sq(name: &str) -> Square {
    parse_square(name).unwrap()
}

fn refused(fen: &str, mv: &str) -> Illegal {
    match pos(fen).play(mv) {
        Ok((_, p)) => panic!("{fen}: {mv} was accepted as {}", p.san),
        Err(e) => e,
    }
}

fn line(moves: &[&str]) -> Position {
    moves
        .iter()
        .fold(Position::start(), |p, m| p.play(m).unwrap().0)
}

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

// ---- input ----

#[test]
fn start_position_round_trips() {
    let p = Position::start();
    assert_eq!(p.fen(), START);
    assert_eq!(pos(START), p);
    assert_eq!(p.turn(), Color::White);
    assert_eq!(p.pieces().len(), 32);
    assert_eq!(p.piece_at(sq("e1")), Some((Color::White, Role::King)));
    assert_eq!(p.piece_at(sq("e4")), None);
    assert_eq!(p.legal_moves().len(), 20);
    assert!(!p.is_check());
    assert_eq!(p.king_in_check(), None);
    assert_eq!(p.outcome(), None);
}

#[test]
fn plays_san_and_uci_alike() {
    let start = Position::start();
    let (a, pa) = start.play("Nf3").unwrap();
    let (b, pb) = start.play("g1f3").unwrap();
    assert_eq!(a, b);
    assert_eq!(pa, pb);
    assert_eq!(pa.uci, "g1f3");
    assert_eq!(pa.san, "Nf3");
    assert_eq!((pa.from, pa.to), (sq("g1"), sq("f3")));
    assert_eq!(start.play("e2-e4").unwrap().1.san, "e4");
    assert_eq!(start.play(" e4 ").unwrap().1.uci, "e2e4");
    assert_eq!(start.play("Nf3!?").unwrap().1.uci, "g1f3");
}

#[test]
fn reads_san_leniently() {
    let p = line(&["e4", "d5"]);
    // Capture with or without the x.
    assert_eq!(p.play("exd5").unwrap().1.captured, Some(Role::Pawn));
    assert_eq!(p.play("ed5").unwrap().1.san, "exd5");
    // A capture mark where nothing is captured.
    assert_eq!(p.play("Nxf3").unwrap().1.san, "Nf3");
}

#[test]
fn castles_in_san_and_uci() {
    //  r . . . k . . r
    //  . . . . . . . .
    //  …
    //  R . . . K . . R
    let fen = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
    let p = pos(fen);
    for mv in ["O-O", "0-0", "e1g1", "e1h1"] {
        let (after, played) = p.play(mv).unwrap();
        assert_eq!(played.uci, "e1g1", "{mv}");
        assert_eq!(played.san, "O-O");
        assert_eq!(played.to, sq("g1"));
        assert_eq!(after.piece_at(sq("f1")), Some((Color::White, Role::Rook)));
    }
    let (_, played) = p.play("O-O-O").unwrap();
    assert_eq!(played.uci, "e1c1");
    assert_eq!(p.play("e1c1").unwrap().1.san, "O-O-O");
}

#[test]
fn promotes_and_underpromotes() {
    //  . . . . . . . .
    //  . . . . P . . .     the pawn on e7 promotes
    //  …
    //  k . . . K . . .
    let fen = "8/4P3/8/8/8/8/8/k3K3 w - - 0 1";
    let p = pos(fen);
    let (after, played) = p.play("e8=Q").unwrap();
    assert_eq!(played.uci, "e7e8q");
    assert_eq!(played.promotion, Some(Role::Queen));
    assert_eq!(after.piece_at(sq("e8")), Some((Color::White, Role::Queen)));
    assert_eq!(p.play("e7e8n").unwrap().1.san, "e8=N");
    assert_eq!(p.play("e8R").unwrap().1.uci, "e7e8r");
    assert_eq!(p.play("e8=b").unwrap().1.promotion, Some(Role::Bishop));
    assert_eq!(p.play("e7e8=Q").unwrap().1.uci, "e7e8q");
}

#[test]
fn marks_check_and_mate() {
    let p = line(&["f3", "e5", "g4"]);
    let (after, played) = p.play("Qh4").unwrap();
    assert_eq!(played.san, "Qh4#");
    assert!(played.check && played.mate);
    assert_eq!(after.king_in_check(), Some(sq("e1")));
    let (_, played) = line(&["e4", "f5"]).play("Qh5").unwrap();
    assert_eq!(played.san, "Qh5+");
    assert!(played.check && !played.mate);
}

// ---- each reason a move is refused ----

#[test]
fn refuses_text_that_is_not_a_move() {
    assert_eq!(refused(START, "hello"), Illegal::NotAMove("hello".into()));
    assert!(matches!(refused(START, "e2e9"), Illegal::NotAMove(_)));
    assert!(matches!(refused(START, ""), Illegal::NotAMove(_)));
}

#[test]
fn refuses_move_from_empty_square() {
    assert_eq!(refused(START, "e3e4"), Illegal::NoPiece { from: sq("e3") });
}

#[test]
fn refuses_opponents_piece() {
    assert_eq!(
        refused(START, "e7e5"),
        Illegal::NotYourPiece {
            from: sq("e7"),
            turn: Color::White
        }
    );
}

#[test]
fn refuses_capturing_own_piece() {
    assert_eq!(
        refused(START, "d1d2"),
        Illegal::OwnPieceOnTarget { to: sq("d2") }
    );
}

#[test]
fn explains_bishop_moved_like_a_rook() {
    //  . . . . k . . .
    //  …
    //  . . B . K . . .     c1-c4 is a rook's move
    let e = refused("4k3/8/8/8/8/8/8/2B1K3 w - - 0 1", "c1c4");
    assert_eq!(
        e,
        Illegal::CannotMoveThatWay {
            role: Role::Bishop,
            from: sq("c1"),
            to: sq("c4")
        }
    );
    assert!(e.explain(Lang::Zh).contains("象只能沿斜线走"));
    assert!(e.explain(Lang::En).contains("diagonal"));
}

#[test]
fn refuses_knight_move_that_is_not_an_l() {
    assert_eq!(
        refused(START, "g1g3"),
        Illegal::CannotMoveThatWay {
            role: Role::Knight,
            from: sq("g1"),
            to: sq("g3")
        }
    );
}

#[test]
fn names_the_square_that_blocks_the_path() {
    assert_eq!(
        refused(START, "f1c4"),
        Illegal::PathBlocked {
            role: Role::Bishop,
            from: sq("f1"),
            to: sq("c4"),
            by: sq("e2")
        }
    );
    assert_eq!(
        refused(START, "a1a5"),
        Illegal::PathBlocked {
            role: Role::Rook,
            from: sq("a1"),
            to: sq("a5"),
            by: sq("a2")
        }
    );
    // In SAN the bishop that could get there if the way were clear is the one named.
    assert_eq!(
        refused(START, "Bh6"),
        Illegal::PathBlocked {
            role: Role::Bishop,
            from: sq("c1"),
            to: sq("h6"),
            by: sq("d2")
        }
    );
}

#[test]
fn refuses_pawn_capturing_straight_ahead() {
    //  . . . . k . . .
    //  …
    //  . . . . p . . .     5
    //  . . . . P . . .     4
    //  …
    //  . . . . K . . .
    let e = refused("4k3/8/8/4p3/4P3/8/8/4K3 w - - 0 1", "e4e5");
    assert_eq!(
        e,
        Illegal::PawnCannotCaptureForward {
            from: sq("e4"),
            to: sq("e5")
        }
    );
    assert!(e.explain(Lang::Zh).contains("兵不能向前吃子"));
}

#[test]
fn refuses_pawn_moving_diagonally_without_capture() {
    assert_eq!(
        refused(START, "e2d3"),
        Illegal::PawnDiagonalNeedsCapture {
            from: sq("e2"),
            to: sq("d3")
        }
    );
}

#[test]
fn refuses_two_square_advance_after_the_first_move() {
    //  . . . . k . . .
    //  …
    //  . . . . P . . .     3: this pawn has moved already
    //  . . . . . . . .
    //  . . . . K . . .
    let fen = "4k3/8/8/8/8/4P3/8/4K3 w - - 0 1";
    assert_eq!(
        refused(fen, "e3e5"),
        Illegal::PawnDoubleStepNotFromStart {
            from: sq("e3"),
            to: sq("e5")
        }
    );
    assert_eq!(
        refused(fen, "e3e2"),
        Illegal::CannotMoveThatWay {
            role: Role::Pawn,
            from: sq("e3"),
            to: sq("e2")
        }
    );
    // From the start, but with a knight in the way.
    let fen = "rnbqkbnr/pppppppp/8/8/8/4n3/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    assert_eq!(
        refused(fen, "e2e4"),
        Illegal::PathBlocked {
            role: Role::Pawn,
            from: sq("e2"),
            to: sq("e4"),
            by: sq("e3")
        }
    );
}

#[test]
fn refuses_king_stepping_into_check() {
    //  . . . . k . . .
    //  …
    //  . . . r . . . .     2
    //  . . . . K . . .     1
    let e = refused("4k3/8/8/8/8/8/3r4/4K3 w - - 0 1", "Ke2");
    assert_eq!(
        e,
        Illegal::KingIntoCheck {
            to: sq("e2"),
            attacker: (Role::Rook, sq("d2"))
        }
    );
    assert!(e.explain(Lang::En).contains("the rook on d2"));
    assert!(e.explain(Lang::Zh).contains("d2 上的车"));
}

#[test]
fn explains_pinned_piece_with_attacker() {
    //  . . . . k . . .
    //  . . . . r . . .     the rook on e7 pins
    //  …
    //  . . . . N . . .     the knight on e2
    //  . . . . K . . .     to the king
    let e = refused("4k3/4r3/8/8/8/8/4N3/4K3 w - - 0 1", "e2f4");
    assert_eq!(
        e,
        Illegal::LeavesKingInCheck {
            attacker: (Role::Rook, sq("e7"))
        }
    );
    assert!(e.explain(Lang::Zh).contains("牵制"));
    assert!(e.explain(Lang::En).contains("pinned"));
}

#[test]
fn explains_en_passant_that_would_expose_the_king() {
    //  . . . . . . . .
    //  …
    //  k . . P p . . Q     4: exd3 e.p. would clear the rank between h4 and a4
    //  …
    //  . . . K . . . .
    let e = refused("8/8/8/8/k2Pp2Q/8/8/3K4 b - d3 0 1", "exd3");
    assert_eq!(
        e,
        Illegal::EnPassantUncoversKing {
            to: sq("d3"),
            captured: sq("d4"),
            own_pawn: Some(sq("e4")),
            attacker: (Role::Queen, sq("h4"))
        }
    );
}

#[test]
fn refuses_move_that_ignores_check() {
    //  . . . . k . . .
    //  . . . . r . . .     the rook on e7 gives check
    //  …
    //  R . . . K . . .
    let fen = "4k3/4r3/8/8/8/8/8/R3K3 w - - 0 1";
    let e = refused(fen, "a1a2");
    assert_eq!(
        e,
        Illegal::InCheck {
            attacker: (Role::Rook, sq("e7"))
        }
    );
    assert!(e.explain(Lang::Zh).contains("将军"));
    assert!(pos(fen).play("Kd1").is_ok());
}

// ---- castling ----

#[test]
fn refuses_castling_after_the_king_moved() {
    let fen = "r3k2r/8/8/8/8/8/8/R3K2R w kq - 0 1";
    assert_eq!(
        refused(fen, "e1g1"),
        Illegal::Castling(CastlingRefused::KingMoved)
    );
    assert_eq!(
        refused(fen, "O-O-O"),
        Illegal::Castling(CastlingRefused::KingMoved)
    );
}

#[test]
fn refuses_castling_after_the_rook_moved() {
    let fen = "r3k2r/8/8/8/8/8/8/R3K2R w Q - 0 1";
    let e = refused(fen, "O-O");
    assert_eq!(
        e,
        Illegal::Castling(CastlingRefused::RookMoved {
            side: CastlingSide::KingSide
        })
    );
    assert!(e.explain(Lang::Zh).contains("短易位"));
    assert!(pos(fen).play("O-O-O").is_ok());
}

#[test]
fn refuses_castling_without_a_rook() {
    let fen = "r3k2r/8/8/8/8/8/8/R3K3 w Q - 0 1";
    assert_eq!(
        refused(fen, "e1g1"),
        Illegal::Castling(CastlingRefused::NoRook {
            side: CastlingSide::KingSide
        })
    );
}

#[test]
fn refuses_castling_with_pieces_between() {
    assert_eq!(
        refused(START, "e1g1"),
        Illegal::Castling(CastlingRefused::PiecesBetween { square: sq("f1") })
    );
    // b1 must be empty too for the queenside.
    let fen = "r3k2r/8/8/8/8/8/8/RN2K2R w KQkq - 0 1";
    assert_eq!(
        refused(fen, "O-O-O"),
        Illegal::Castling(CastlingRefused::PiecesBetween { square: sq("b1") })
    );
}

#[test]
fn refuses_castling_out_of_check() {
    //  . . . . k . . .
    //  . . . . r . . .     check on the e-file
    //  …
    //  R . . . K . . R
    let e = refused("4k3/4r3/8/8/8/8/8/R3K2R w KQ - 0 1", "e1g1");
    assert_eq!(
        e,
        Illegal::Castling(CastlingRefused::InCheck {
            by: (Role::Rook, sq("e7"))
        })
    );
    assert!(e.explain(Lang::En).contains("the rook on e7"));
}

#[test]
fn refuses_castling_through_attacked_square() {
    //  . . . . k r . .     the rook on f8 attacks f1
    //  …
    //  R . . . K . . R
    let e = refused("4kr2/8/8/8/8/8/8/R3K2R w KQ - 0 1", "O-O");
    assert_eq!(
        e,
        Illegal::Castling(CastlingRefused::PassesThroughAttacked {
            square: sq("f1"),
            by: (Role::Rook, sq("f8"))
        })
    );
    assert!(e.explain(Lang::Zh).contains("f8 上的车"));
    assert!(e.explain(Lang::En).contains("pass through f1"));
}

#[test]
fn refuses_castling_onto_attacked_square() {
    //  . . . . k . r .     the rook on g8 attacks g1
    //  …
    //  R . . . K . . R
    assert_eq!(
        refused("4k1r1/8/8/8/8/8/8/R3K2R w KQ - 0 1", "e1g1"),
        Illegal::Castling(CastlingRefused::LandsOnAttacked {
            square: sq("g1"),
            by: (Role::Rook, sq("g8"))
        })
    );
    // A bishop guarding c1.
    assert_eq!(
        refused("4k3/8/8/8/8/4b3/8/R3K2R w KQ - 0 1", "O-O-O"),
        Illegal::Castling(CastlingRefused::LandsOnAttacked {
            square: sq("c1"),
            by: (Role::Bishop, sq("e3"))
        })
    );
}

#[test]
fn allows_queenside_castling_with_b1_attacked() {
    //  . r . . k . . .     b1 is attacked, but only the rook crosses it
    assert!(pos("1r2k3/8/8/8/8/8/8/R3K2R w KQ - 0 1")
        .play("O-O-O")
        .is_ok());
}

// ---- en passant ----

#[test]
fn en_passant_is_available_then_gone() {
    let p = line(&["e4", "a6", "e5", "d5"]);
    let (after, played) = p.play("exd6").unwrap();
    assert_eq!(played.uci, "e5d6");
    assert_eq!(played.captured, Some(Role::Pawn));
    assert_eq!(after.piece_at(sq("d5")), None);
    assert!(p.fen().contains(" d6 "));
    // One move later the chance is gone.
    let later = line(&["e4", "a6", "e5", "d5", "h3", "h6"]);
    let e = later.play("e5d6").unwrap_err();
    assert_eq!(e, Illegal::EnPassantGone { to: sq("d6") });
    assert!(e.explain(Lang::Zh).contains("吃过路兵"));
    assert!(e.explain(Lang::En).contains("en passant"));
    assert_eq!(later.play("exd6").unwrap_err(), e);
}

// ---- promotion ----

#[test]
fn requires_a_promotion_piece() {
    let fen = "8/4P3/8/8/8/8/8/k3K3 w - - 0 1";
    assert_eq!(
        refused(fen, "e7e8"),
        Illegal::PromotionRequired { to: sq("e8") }
    );
    assert_eq!(
        refused(fen, "e8"),
        Illegal::PromotionRequired { to: sq("e8") }
    );
}

#[test]
fn refuses_impossible_promotions() {
    let fen = "8/4P3/8/8/8/8/P7/k3K3 w - - 0 1";
    assert_eq!(
        refused(fen, "e7e8k"),
        Illegal::BadPromotion {
            from: sq("e7"),
            to: sq("e8"),
            role: Role::King
        }
    );
    assert_eq!(
        refused(fen, "a2a3q"),
        Illegal::BadPromotion {
            from: sq("a2"),
            to: sq("a3"),
            role: Role::Queen
        }
    );
    let e = refused(fen, "e1e2q");
    assert!(matches!(e, Illegal::BadPromotion { .. }));
    assert!(e.explain(Lang::Zh).contains("升变"));
}

// ---- SAN ----

#[test]
fn refuses_ambiguous_san() {
    //  . . . . k . . .
    //  …
    //  . . . . . N . .     3
    //  . . . . . . . .
    //  . N . . K . . .     both knights reach d2
    let fen = "4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1";
    assert_eq!(refused(fen, "Nd2"), Illegal::AmbiguousSan("Nd2".into()));
    assert_eq!(pos(fen).play("Nbd2").unwrap().1.from, sq("b1"));
    assert_eq!(pos(fen).play("Nfd2").unwrap().1.san, "Nfd2");
}

#[test]
fn refuses_san_for_a_missing_piece() {
    let e = refused("4k3/8/8/8/8/8/8/4K3 w - - 0 1", "Nf3");
    assert_eq!(
        e,
        Illegal::NoSuchPiece {
            role: Role::Knight,
            san: "Nf3".into()
        }
    );
    assert!(e.explain(Lang::Zh).contains("马"));
}

#[test]
fn refuses_moves_once_the_game_is_over() {
    let mate = line(&["f3", "e5", "g4", "Qh4"]);
    assert_eq!(mate.play("e2e4").unwrap_err(), Illegal::GameOver);
    assert_eq!(mate.play("a3").unwrap_err(), Illegal::GameOver);
}

// ---- the end of the game ----

#[test]
fn detects_checkmate() {
    let mate = line(&["f3", "e5", "g4", "Qh4"]);
    let o = mate.outcome().unwrap();
    assert_eq!(
        o,
        Outcome::Checkmate {
            winner: Color::Black
        }
    );
    assert_eq!(o.score(), "0-1");
    assert!(o.explain(Lang::Zh).contains("将死"));
    assert!(o.explain(Lang::En).contains("Checkmate"));
}

#[test]
fn detects_stalemate() {
    //  . . . . . . . k     Black to move: no legal move, not in check
    //  . . . . . Q . .
    //  . . . . . . K .
    let p = pos("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
    let o = p.outcome().unwrap();
    assert_eq!(o, Outcome::Stalemate);
    assert_eq!(o.score(), "1/2-1/2");
    assert!(o.explain(Lang::Zh).contains("逼和"));
    assert!(o.explain(Lang::Zh).contains("和棋"));
    assert_eq!(p.play("Kg8").unwrap_err(), Illegal::GameOver);
}

#[test]
fn detects_insufficient_material() {
    // King and bishop against king: nobody can mate, but the kings may still be moved.
    let p = pos("8/8/8/4k3/8/8/8/4KB2 w - - 0 1");
    assert_eq!(p.outcome(), Some(Outcome::InsufficientMaterial));
    assert!(p.play("Ke2").is_ok());
    assert_eq!(pos("8/8/8/4k3/8/8/8/4KR2 w - - 0 1").outcome(), None);
    // Capturing the last pawn.
    let (after, _) = pos("8/8/8/4k3/8/8/4p3/4KB2 w - - 0 1")
        .play("Kxe2")
        .unwrap();
    assert_eq!(after.outcome(), Some(Outcome::InsufficientMaterial));
}

#[test]
fn detects_threefold_repetition() {
    let moves = ["Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1"];
    let p = line(&moves);
    // The position after 2.Ng1 is here for the second time: not yet a draw.
    assert_eq!(p.repetitions(), 2);
    assert_eq!(p.outcome(), None);
    let (p, _) = p.play("Ng8").unwrap();
    assert_eq!(p.repetitions(), 3);
    let o = p.outcome().unwrap();
    assert_eq!(o, Outcome::ThreefoldRepetition);
    assert!(o.explain(Lang::Zh).contains("三次重复"));
    // A pawn move makes the old positions unreachable.
    assert_eq!(p.play("e4").unwrap().0.repetitions(), 1);
}

#[test]
fn castling_rights_make_positions_differ() {
    // Kings out and back: same squares, but the castling rights are gone.
    let p = line(&[
        "e4", "e5", "Ke2", "Ke7", "Ke1", "Ke8", "Ke2", "Ke7", "Ke1", "Ke8",
    ]);
    assert_eq!(p.repetitions(), 2);
    assert_eq!(p.outcome(), None);
}

#[test]
fn applies_the_fifty_move_rule() {
    //  . . . . k . . .
    //  …
    //  R . . . K . . .     99 half-moves without capture or pawn move
    let p = pos("4k3/8/8/8/8/8/8/R3K3 w - - 99 80");
    assert_eq!(p.outcome(), None);
    let (after, _) = p.play("Ra2").unwrap();
    assert_eq!(after.halfmove_clock(), 100);
    let o = after.outcome().unwrap();
    assert_eq!(o, Outcome::FiftyMoves);
    assert!(o.explain(Lang::En).contains("fifty-move"));
    // Mate on the hundredth half-move still counts as mate.
    let (mated, _) = pos("6k1/5ppp/8/8/8/8/8/R5K1 w - - 99 80")
        .play("Ra8")
        .unwrap();
    assert_eq!(
        mated.outcome(),
        Some(Outcome::Checkmate {
            winner: Color::White
        })
    );
}

// ---- mate search ----

#[test]
fn finds_every_mate_in_one() {
    //  . . . . . . k .
    //  . . . . . p p p
    //  …
    //  R . . . . . K .     Ra8# and nothing else
    let p = pos("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1");
    let mates: Vec<String> = p.mating_moves(1).into_iter().map(|m| m.san).collect();
    assert_eq!(mates, ["Ra8#"]);
    assert!(p.forces_mate("a1a8", 1));
    assert!(p.forces_mate("Ra8", 3));
    assert!(!p.forces_mate("a1a7", 1));
    assert!(!p.forces_mate("a1a9", 1));
    assert!(p.mating_moves(0).is_empty());
}

#[test]
fn proves_mate_in_two() {
    // From the corpus: 1.Qa5 forces mate next move.
    let p = pos("2brrb2/8/p7/7Q/1p1kpPp1/1P1pN1K1/3P4/8 w - -");
    assert!(p.forces_mate("h5a5", 2));
    assert!(!p.forces_mate("h5a5", 1));
    assert!(!p.forces_mate("h5h8", 2));
    let firsts: Vec<String> = p.mating_moves(2).into_iter().map(|m| m.uci).collect();
    assert!(firsts.contains(&"h5a5".to_string()), "{firsts:?}");
}

#[test]
fn defends_as_stubbornly_as_possible() {
    //  . . . . . . k .     Black to move; White threatens Ra8#.
    //  . . . . . p p p     Kh8 walks into it; a pawn move gives the king air.
    //  …
    //  R . . . . . K .
    let p = pos("6k1/5ppp/8/8/8/8/5PPP/R5K1 b - - 0 1");
    let reply = p.best_defence(1).unwrap();
    let (after, _) = p.play(&reply.uci).unwrap();
    assert!(after.mating_moves(1).is_empty(), "{}", reply.san);
    // When every reply loses, the longest resistance is chosen: after 1.Qa5 in the
    // corpus position, every Black reply is mated at once.
    let p = pos("2brrb2/8/p7/7Q/1p1kpPp1/1P1pN1K1/3P4/8 w - -");
    let (after, _) = p.play("h5a5").unwrap();
    let reply = after.best_defence(1).unwrap();
    let first = &after.legal_moves()[0];
    assert_eq!(&reply, first);
    assert!(pos("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1")
        .best_defence(2)
        .is_none());
}

// ---- perft ----

#[test]
fn counts_perft() {
    assert_eq!(Position::start().perft(3), 8902);
    let kiwipete = pos("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq -");
    assert_eq!(kiwipete.perft(2), 2039);
    assert_eq!(kiwipete.legal_moves().len(), 48);
}

// ---- FEN errors ----

#[test]
fn explains_bad_fens() {
    assert_eq!(Position::from_fen("  "), Err(BadFen::Empty));
    let e =
        Position::from_fen("rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1").unwrap_err();
    assert!(matches!(
        e,
        BadFen::Field {
            field: FenField::Board,
            ..
        }
    ));
    let e = Position::from_fen("4k3/8/8/8/8/8/8/4K3 x - - 0 1").unwrap_err();
    assert_eq!(
        e,
        BadFen::Field {
            field: FenField::Turn,
            text: "x".into()
        }
    );
    assert!(e.to_string().contains("`w` or `b`"));
    assert_eq!(
        Position::from_fen("4k3/8/8/8/8/8/8/8 w - - 0 1"),
        Err(BadFen::MissingKing {
            color: Color::White
        })
    );
    assert_eq!(
        Position::from_fen("4k3/8/8/8/8/8/8/3KK3 w - - 0 1"),
        Err(BadFen::TooManyKings {
            color: Color::White
        })
    );
    assert_eq!(
        Position::from_fen("4k3/8/8/8/8/8/8/P3K3 w - - 0 1"),
        Err(BadFen::PawnOnBackRank { square: sq("a1") })
    );
    // A standard castling letter that fits no rook is dropped (see
    // `impossible_castling_letter_is_dropped_in_standard_chess`); read as Chess960 (the king
    // on d1, `Q` the rook on b1), the `K` that fits nothing is an error.
    let e = Position::from_fen("4k3/8/8/8/8/8/8/1R1K4 w KQ - 0 1").unwrap_err();
    assert_eq!(
        e,
        BadFen::CastlingRights {
            letters: "K".into()
        }
    );
    assert!(e.to_string().contains("remove `K`"));
    assert_eq!(
        Position::from_fen("4k3/8/8/8/8/8/8/4K3 w - e6 0 1"),
        Err(BadFen::EnPassant { square: sq("e6") })
    );
    assert_eq!(
        Position::from_fen("4k3/8/8/8/8/8/8/4K2R b - - 0 1").map(|p| p.turn()),
        Ok(Color::Black)
    );
    assert_eq!(
        Position::from_fen("4k2R/8/8/8/8/8/8/4K3 w - - 0 1"),
        Err(BadFen::OpponentInCheck {
            color: Color::Black
        })
    );
    for e in [
        BadFen::Empty,
        BadFen::Variant,
        BadFen::MissingKing {
            color: Color::Black,
        },
    ] {
        let s = e.to_string();
        assert!(s.starts_with(|c: char| c.is_lowercase()), "{s}");
    }
}

#[test]
fn accepts_composed_positions_and_chess960() {
    // Nine queens: more than a game can produce, still a position to play.
    let p = pos("8/6kR/8/8/8/bq6/1rqqqqqq/K1nqnbrq b - - 0 1");
    assert_eq!(p.perft(1), 7);
    // An X-FEN castling field: Chess960, castling written king-takes-rook.
    let p = pos("r1k1r2q/p1ppp1pp/8/8/8/8/P1PPP1PP/R1K1R2Q w KQkq - 0 1");
    assert!(p.is_chess960());
    assert_eq!(p.perft(1), 23);
    assert!(!Position::start().is_chess960());
}

// ---- explanations ----

fn every_illegal() -> Vec<Illegal> {
    let (e4, e5, e7) = (sq("e4"), sq("e5"), sq("e7"));
    let by = (Role::Bishop, sq("b4"));
    vec![
        Illegal::NotAMove("xyz".into()),
        Illegal::NoPiece { from: e4 },
        Illegal::NotYourPiece {
            from: e7,
            turn: Color::White,
        },
        Illegal::OwnPieceOnTarget { to: e5 },
        Illegal::CannotMoveThatWay {
            role: Role::Knight,
            from: e4,
            to: e5,
        },
        Illegal::PawnCannotCaptureForward { from: e4, to: e5 },
        Illegal::PawnDiagonalNeedsCapture { from: e4, to: e5 },
        Illegal::PawnDoubleStepNotFromStart { from: e4, to: e5 },
        Illegal::PathBlocked {
            role: Role::Rook,
            from: e4,
            to: e7,
            by: e5,
        },
        Illegal::KingIntoCheck {
            to: e5,
            attacker: by,
        },
        Illegal::LeavesKingInCheck { attacker: by },
        Illegal::InCheck { attacker: by },
        Illegal::Castling(CastlingRefused::KingMoved),
        Illegal::Castling(CastlingRefused::RookMoved {
            side: CastlingSide::QueenSide,
        }),
        Illegal::Castling(CastlingRefused::NoRook {
            side: CastlingSide::KingSide,
        }),
        Illegal::Castling(CastlingRefused::PiecesBetween { square: sq("f1") }),
        Illegal::Castling(CastlingRefused::InCheck { by }),
        Illegal::Castling(CastlingRefused::PassesThroughAttacked {
            square: sq("f1"),
            by,
        }),
        Illegal::Castling(CastlingRefused::LandsOnAttacked {
            square: sq("g1"),
            by,
        }),
        Illegal::EnPassantGone { to: sq("d6") },
        Illegal::EnPassantUncoversKing {
            to: sq("d6"),
            captured: sq("d5"),
            own_pawn: None,
            attacker: by,
        },
        Illegal::EnPassantUncoversKing {
            to: sq("d6"),
            captured: sq("d5"),
            own_pawn: Some(e5),
            attacker: (Role::Rook, sq("h5")),
        },
        Illegal::PromotionRequired { to: sq("e8") },
        Illegal::BadPromotion {
            from: e7,
            to: sq("e8"),
            role: Role::King,
        },
        Illegal::BadPromotion {
            from: e4,
            to: e5,
            role: Role::Queen,
        },
        Illegal::AmbiguousSan("Nd2".into()),
        Illegal::NoSuchPiece {
            role: Role::Queen,
            san: "Qh5".into(),
        },
        Illegal::GameOver,
    ]
}

#[test]
fn explains_every_refusal_in_both_languages() {
    let has_han = |s: &str| s.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c));
    for e in every_illegal() {
        let zh = e.explain(Lang::Zh);
        let en = e.explain(Lang::En);
        assert!(has_han(&zh), "{zh}");
        assert!(!has_han(&en), "{en}");
        assert!(
            en.starts_with(|c: char| c.is_uppercase() || c == '“'),
            "{en}"
        );
        let short = e.to_string();
        assert!(short.starts_with(|c: char| c.is_lowercase()), "{short}");
        // Squares named in the data are named in the words.
        if let Illegal::PathBlocked { by, .. } = e {
            assert!(zh.contains(&square_name(by)) && en.contains(&square_name(by)));
        }
    }
    let e = Illegal::Castling(CastlingRefused::InCheck {
        by: (Role::Bishop, sq("b4")),
    });
    assert!(e.explain(Lang::Zh).starts_with("不能王车易位"));
    assert!(e.explain(Lang::En).contains("the bishop on b4"));
}

#[test]
fn explains_every_outcome_in_both_languages() {
    for o in [
        Outcome::Checkmate {
            winner: Color::White,
        },
        Outcome::Stalemate,
        Outcome::InsufficientMaterial,
        Outcome::ThreefoldRepetition,
        Outcome::FiftyMoves,
    ] {
        assert!(o.explain(Lang::Zh).contains(if o.winner().is_some() {
            "胜"
        } else {
            "和棋"
        }));
        assert!(!o.explain(Lang::En).is_empty());
        assert!(o.to_string().starts_with(|c: char| c.is_lowercase()));
    }
    assert_eq!(
        Outcome::Checkmate {
            winner: Color::White
        }
        .score(),
        "1-0"
    );
}

#[test]
fn diagnoses_every_from_to_pair_consistently() {
    // Every from-to pair of the side to move is either legal or refused with a reason
    // that is not a fallback.
    for fen in [
        START,
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1",
    ] {
        let p = pos(fen);
        let legal: Vec<String> = p.legal_moves().into_iter().map(|m| m.uci).collect();
        for (from, color, _) in p.pieces() {
            if color != p.turn() {
                continue;
            }
            for to in Square::ALL {
                let uci = format!("{from}{to}");
                match p.play(&uci) {
                    Ok((_, played)) => assert!(legal.contains(&played.uci), "{fen} {uci}"),
                    Err(Illegal::PromotionRequired { .. }) => {}
                    Err(e) => {
                        assert!(!legal.contains(&uci), "{fen} {uci}: {e}");
                        assert!(!e.explain(Lang::En).is_empty());
                    }
                }
            }
        }
    }
}

#[test]
fn random_games_never_fall_back_to_a_vague_reason() {
    // Random playouts (a fixed linear congruential generator); at every position every
    // from-to pair of the side to move is tried. A refusal is either legal-move-consistent
    // and specific: `CannotMoveThatWay` only when the piece really cannot move so.
    let mut seed: u64 = 0x2545_f491_4f6c_dd1d;
    let mut next = |n: usize| {
        seed = seed
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        ((seed >> 33) as usize) % n
    };
    let mut tried = 0;
    for _ in 0..6 {
        let mut p = Position::start();
        for _ in 0..40 {
            let legal = p.legal_moves();
            if legal.is_empty() {
                break;
            }
            for (from, color, role) in p.pieces() {
                if color != p.turn() {
                    continue;
                }
                for to in Square::ALL {
                    tried += 1;
                    let uci = format!("{from}{to}");
                    match p.play(&uci) {
                        Ok((_, m)) => assert!(legal.contains(&m), "{p:?} {uci}"),
                        Err(Illegal::CannotMoveThatWay { .. }) if role == Role::Pawn => {}
                        Err(Illegal::CannotMoveThatWay { .. }) => {
                            let piece = role.of(color);
                            let reach =
                                shakmaty::attacks::attacks(from, piece, shakmaty::Bitboard::EMPTY);
                            assert!(!reach.contains(to), "{p:?} {uci}");
                        }
                        Err(e) => {
                            assert!(!legal.iter().any(|m| m.uci == uci), "{p:?} {uci}: {e}");
                        }
                    }
                }
            }
            let m = &legal[next(legal.len())];
            p = p.play(&m.san).unwrap().0;
        }
    }
    assert!(tried > 15_000, "{tried}");
}

#[test]
fn black_castles_and_is_refused_too() {
    //  r . . . k . . r
    //  …
    //  . . . . . . B .     3: the bishop on g3 attacks c7, not the castling squares
    //  R . . . K . . R
    let fen = "r3k2r/8/8/8/8/6B1/8/R3K2R b KQkq - 0 1";
    let (_, played) = pos(fen).play("e8c8").unwrap();
    assert_eq!((played.san.as_str(), played.to), ("O-O-O", sq("c8")));
    //  the bishop on a3 attacks f8, which the king would cross
    let e = refused("r3k2r/8/8/8/8/B7/8/R3K2R b KQkq - 0 1", "O-O");
    assert_eq!(
        e,
        Illegal::Castling(CastlingRefused::PassesThroughAttacked {
            square: sq("f8"),
            by: (Role::Bishop, sq("a3"))
        })
    );
    assert!(pos("r3k2r/8/8/8/8/B7/8/R3K2R b KQkq - 0 1")
        .play("O-O-O")
        .is_ok());
}

// ---- moves python-chess reads differently (issue 9) ----

#[test]
fn bare_pawn_destination_is_a_push_never_a_capture() {
    //  . . . r . r k .     8
    //  . p b . q p . p     7
    //  . . p . . . p .     6
    //  p . . . . . . .     5
    //  P . . N p P . R     4   f2-f4 was just played: e4xf3 en passant is legal
    //  . P . . . . . P     3
    //  . B P . . . P .     2
    //  . . . Q . B K .     1
    let fen = "3r1rk1/1pb1qp1p/2p3p1/p7/P2NpP1R/1P5P/1BP3P1/3Q1BK1 b - f3 0 1";
    assert_eq!(pos(fen).play("exf3").unwrap().1.uci, "e4f3");
    assert_eq!(pos(fen).play("ef3").unwrap().1.uci, "e4f3");
    // `f3` names the pawn of the f-file, which is on f7 and cannot get there.
    assert_eq!(
        refused(fen, "f3"),
        Illegal::CannotMoveThatWay {
            role: Role::Pawn,
            from: sq("f7"),
            to: sq("f3")
        }
    );
    // An ordinary capture is not read from a bare destination either: after 1.e4 d5,
    // `d5` is no move of White's (python-chess refuses it too), `exd5` is.
    let p = line(&["e4", "d5"]);
    assert_eq!(p.play("exd5").unwrap().1.uci, "e4d5");
    assert_eq!(
        p.play("d5").unwrap_err(),
        Illegal::CannotMoveThatWay {
            role: Role::Pawn,
            from: sq("d2"),
            to: sq("d5")
        }
    );
    // Pushes are still found from the destination alone.
    assert_eq!(p.play("d4").unwrap().1.uci, "d2d4");
}

#[test]
fn king_written_to_its_castling_square_castles() {
    // Decided: `Kg8` / `Kc8` (and White's `Kg1` / `Kc1`) with the king on its home square
    // is read as castling when castling is legal, because no king move can be meant;
    // python-chess refuses these. `Kh8` (king onto its rook) is not SAN for castling.
    //  r . . . k . . r     8
    //  p p p . . p p p     7
    //  . . n . b q . .     6
    //  . . b p . . N .     5
    //  . . B p . . . .     4
    //  . . . . . . . .     3
    //  P P P . . P P P     2
    //  R N B Q R . K .     1
    let fen = "r3k2r/ppp2ppp/2n1bq2/2bp2N1/2Bp4/8/PPP2PPP/RNBQR1K1 b kq - 3 9";
    let (after, played) = pos(fen).play("Kg8").unwrap();
    assert_eq!((played.san.as_str(), played.uci.as_str()), ("O-O", "e8g8"));
    assert_eq!(after.piece_at(sq("f8")), Some((Color::Black, Role::Rook)));
    assert_eq!(pos(fen).play("Kc8").unwrap().1.san, "O-O-O");
    assert!(matches!(
        refused(fen, "Kh8"),
        Illegal::CannotMoveThatWay {
            role: Role::King,
            ..
        } | Illegal::OwnPieceOnTarget { .. }
    ));
    let white = pos("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    assert_eq!(white.play("Kg1").unwrap().1.uci, "e1g1");
    assert_eq!(white.play("Kc1").unwrap().1.uci, "e1c1");
    // When castling is not allowed, the reason is still the castling rule.
    assert_eq!(
        refused("r3k2r/8/8/8/8/8/8/R3K2R w Qkq - 0 1", "Kg1"),
        Illegal::Castling(CastlingRefused::RookMoved {
            side: CastlingSide::KingSide
        })
    );
}

#[test]
fn en_passant_that_takes_away_the_shield_says_so() {
    //  b . . . k . . .     8   the bishop on a8 looks down the long diagonal
    //  …
    //  . . . p P . . .     5   d7-d5 was just played: the pawn on d5 shields the king
    //  . . . . . . . .     4
    //  . . . . . K . .     3
    let fen = "b3k3/8/8/3pP3/8/5K2/8/8 w - d6 0 2";
    let e = refused(fen, "e5d6");
    assert_eq!(
        e,
        Illegal::EnPassantUncoversKing {
            to: sq("d6"),
            captured: sq("d5"),
            own_pawn: None,
            attacker: (Role::Bishop, sq("a8"))
        }
    );
    assert!(
        e.explain(Lang::En)
            .contains("the pawn it would take, on d5"),
        "{}",
        e.explain(Lang::En)
    );
    assert!(
        e.explain(Lang::Zh).contains("d5 上的兵"),
        "{}",
        e.explain(Lang::Zh)
    );
    assert!(!e.explain(Lang::En).contains("pinned"));
    // Both pawns on the king's rank: together they shield it from the rook on h5.
    //  . . . . . . . .
    //  . . p . . . . .     7   c7-c5 comes next
    //  . . . p . . . .     6
    //  K P . . . . . r     5
    //  . R . . . p . k     4
    let after = pos("8/2p5/3p4/KP5r/1R3p1k/4P3/6P1/8 b - - 0 1")
        .play("c5")
        .unwrap()
        .0;
    let e = after.play("b5c6").unwrap_err();
    assert_eq!(
        e,
        Illegal::EnPassantUncoversKing {
            to: sq("c6"),
            captured: sq("c5"),
            own_pawn: Some(sq("b5")),
            attacker: (Role::Rook, sq("h5"))
        }
    );
    assert!(
        e.explain(Lang::En).contains("your pawn on b5"),
        "{}",
        e.explain(Lang::En)
    );
    assert!(
        e.explain(Lang::Zh).contains("b5"),
        "{}",
        e.explain(Lang::Zh)
    );
    // A capturing pawn that is pinned itself is still just pinned.
    //  . . . . r . . k     8   the rook on e8 pins the pawn on e5
    //  …
    //  . . . p P . . .     5
    //  …
    //  . . . . K . . .     1
    assert_eq!(
        refused("4r2k/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "exd6"),
        Illegal::LeavesKingInCheck {
            attacker: (Role::Rook, sq("e8"))
        }
    );
}

#[test]
fn impossible_castling_letter_is_dropped_in_standard_chess() {
    //  r . . r . . . k     8   `q`: the black king on h8 cannot castle
    //  p . . . . . . .
    //  . . . p . . . .
    //  …
    //  P . . . . . . P     3
    //  . . . . . . . .
    //  R . . . K . . R     1
    let p = pos("r2r3k/p7/3p4/8/8/P6P/8/R3K2R w KQq");
    assert!(!p.is_chess960());
    assert_eq!(p.fen(), "r2r3k/p7/3p4/8/8/P6P/8/R3K2R w KQ - 0 1");
    let mut castles: Vec<String> = p
        .legal_moves()
        .into_iter()
        .filter(|m| m.san.starts_with("O-O"))
        .map(|m| m.uci)
        .collect();
    castles.sort();
    assert_eq!(castles, ["e1c1", "e1g1"]);
    // A castling letter with no rook at all is dropped too.
    assert_eq!(
        pos("4k3/8/8/8/8/8/8/4K3 w K - 0 1").fen(),
        "4k3/8/8/8/8/8/8/4K3 w - - 0 1"
    );
    // A field only Chess960 can read stays Chess960 (X-FEN: `Q` is the rook on c1).
    assert!(pos("8/8/8/4B2b/6nN/8/5P2/2R1K2k w Q -").is_chess960());
}
