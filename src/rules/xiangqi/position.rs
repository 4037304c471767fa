//! A xiangqi position with its history: playing written moves, saying why one is refused,
//! and how the game has ended (将死, 困毙, 长将判负, repetition).

use super::board::{horse_leg, BadFen, Board};
use super::illegal::{Illegal, Outcome};
use super::notation;
use super::types::{Color, Kind, Move, Point};
use std::fmt;

/// The start position in FEN, as Fairy-Stockfish writes it.
pub const START_FEN: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

/// One position of the game so far, as the repetition rules need it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Seen {
    /// The Zobrist hash: pieces on points and the side to move.
    hash: u64,
    /// Whether the side to move was in check there (the move that led to it gave check).
    check: bool,
}

/// A position and the positions of the game that led to it (for the repetition rules).
#[derive(Clone, PartialEq, Eq)]
pub struct Position {
    board: Board,
    /// Every position of the game from the FEN it started from; the last is this one.
    history: Vec<Seen>,
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({})", self.board.fen())
    }
}

impl Position {
    /// The start position.
    pub fn start() -> Position {
        Position::from_fen(START_FEN).expect("the start FEN is valid")
    }

    /// Reads a FEN as Fairy-Stockfish writes it (`… w - - 0 1`; `w` is Red, `b` Black; the
    /// last four fields may be left out). The history starts here.
    pub fn from_fen(fen: &str) -> Result<Position, BadFen> {
        let board = Board::from_fen(fen)?;
        let first = Seen {
            hash: board.hash,
            check: board.in_check(),
        };
        Ok(Position {
            board,
            history: vec![first],
        })
    }

    /// The FEN, as Fairy-Stockfish writes it.
    pub fn fen(&self) -> String {
        self.board.fen()
    }

    /// The side to move.
    pub fn turn(&self) -> Color {
        self.board.turn
    }

    /// The piece on `at`, if any.
    pub fn piece_at(&self, at: Point) -> Option<(Color, Kind)> {
        self.board.at(at)
    }

    /// Every piece on the board, `a0` first.
    pub fn pieces(&self) -> Vec<(Point, Color, Kind)> {
        Point::all()
            .filter_map(|p| self.board.at(p).map(|(c, k)| (p, c, k)))
            .collect()
    }

    /// Where `color`'s king stands.
    pub fn king(&self, color: Color) -> Point {
        self.board.king(color)
    }

    /// Whether the side to move is in check (被将军).
    pub fn is_check(&self) -> bool {
        self.board.in_check()
    }

    /// The pieces of the side not to move that give check: (kind, point).
    pub fn checkers(&self) -> Vec<(Kind, Point)> {
        let us = self.board.turn;
        self.board.attackers(self.board.king(us), us.opponent())
    }

    /// The Zobrist hash of this position (pieces and side to move; not the counters).
    pub fn hash(&self) -> u64 {
        self.board.hash
    }

    /// The hashes of every position of the game from its starting FEN, this one last.
    pub fn history(&self) -> Vec<u64> {
        self.history.iter().map(|s| s.hash).collect()
    }

    /// Every legal move of the side to move.
    pub fn legal_moves(&self) -> Vec<Move> {
        self.board.legal_moves()
    }

    /// The number of leaves `depth` plies deep (perft): 44, 1,920, 79,666 and 3,290,240
    /// from the start.
    ///
    /// ```
    /// use qiyuan::rules::xiangqi::Position;
    /// assert_eq!(Position::start().perft(2), 1920);
    /// ```
    pub fn perft(&self, depth: u32) -> u64 {
        self.board.perft(depth)
    }

    /// Plays a move written in ICCS (`h2e2`, `H2-E2`), WXF (`C2=5`, `C2.5`) or Chinese
    /// notation (炮二平五, 馬８進７): the new position and the move, or why it is refused.
    ///
    /// ```
    /// use qiyuan::rules::xiangqi::{Illegal, Point, Position};
    /// // Red's horse on h0; a red cannon stands on h1, the horse's leg toward g2:
    /// //   . . . k . . . . .   9
    /// //   …
    /// //   . . . . . . . C .   1   ← the leg h1
    /// //   . . . . K . . N .   0
    /// //   a b c d e f g h i
    /// let pos = Position::from_fen("3k5/9/9/9/9/9/9/9/7C1/4K2N1 w - - 0 1").unwrap();
    /// let err = pos.play("h0g2").unwrap_err();
    /// assert_eq!(err, Illegal::HorseLegBlocked {
    ///     from: Point::parse("h0").unwrap(),
    ///     to: Point::parse("g2").unwrap(),
    ///     leg: Point::parse("h1").unwrap(),
    /// });
    /// assert!(pos.play("h0f1").is_ok());
    /// ```
    pub fn play(&self, text: &str) -> Result<(Position, Move), Illegal> {
        let mut next = self.clone();
        let mv = next.play_in_place(text)?;
        Ok((next, mv))
    }

    /// Plays a move as [`Position::play`] does, on this position; a refused move leaves
    /// it as it was.
    pub fn play_in_place(&mut self, text: &str) -> Result<Move, Illegal> {
        let mv = self.read_move(text)?;
        self.apply(mv);
        Ok(mv)
    }

    /// Reads a written move and checks it, without playing it.
    pub fn read_move(&self, text: &str) -> Result<Move, Illegal> {
        // The repetition rules end the game whatever the move.
        if self.repetitions() >= 2 {
            return Err(Illegal::GameOver);
        }
        self.read_move_on(text)
    }

    /// Plays a move as [`Position::play`] does, but also after a repetition that ended the
    /// game: a record whose players went on (nobody claimed it) is read to its end. A side
    /// with no legal move still has none.
    pub fn play_on(&self, text: &str) -> Result<(Position, Move), Illegal> {
        let mv = self.read_move_on(text)?;
        let mut next = self.clone();
        next.apply(mv);
        Ok((next, mv))
    }

    /// Reads and checks a move whatever the repetitions; a side with no legal move (将死,
    /// 困毙) is told so in place of the reason its move is refused.
    fn read_move_on(&self, text: &str) -> Result<Move, Illegal> {
        let legal = |f: Point, t: Point| self.check_move(f, t).is_ok();
        let checked = notation::read(&self.board, &legal, text)
            .and_then(|(from, to)| self.check_move(from, to));
        if checked.is_err() && self.legal_moves().is_empty() {
            return Err(Illegal::GameOver);
        }
        checked
    }

    /// Plays a move known to be legal (one of [`Position::legal_moves`]).
    pub fn apply(&mut self, mv: Move) {
        self.board.make(mv.from, mv.to);
        self.history.push(Seen {
            hash: self.board.hash,
            check: self.board.in_check(),
        });
    }

    /// The move from `from` to `to` if it is legal, else the first rule it breaks, looked
    /// for as a teacher would: the piece, its way of moving, what stands in its way, then
    /// its own king's safety.
    pub fn check_move(&self, from: Point, to: Point) -> Result<Move, Illegal> {
        let b = &self.board;
        let us = b.turn;
        let (color, kind) = b.at(from).ok_or(Illegal::NoPiece { from })?;
        if color != us {
            return Err(Illegal::NotYourPiece { from });
        }
        let captured = b.at(to);
        if captured.is_some_and(|(c, _)| c == us) {
            return Err(Illegal::OwnPieceOnTarget { to });
        }
        let (df, dr) = (to.file() - from.file(), to.rank() - from.rank());
        let cannot = Illegal::CannotMoveThatWay {
            color: us,
            kind,
            from,
            to,
        };
        let between = || -> Vec<Point> {
            let (sf, sr) = (df.signum(), dr.signum());
            let mut out = Vec::new();
            let mut p = from.offset(sf, sr).unwrap();
            while p != to {
                if b.at(p).is_some() {
                    out.push(p);
                }
                p = p.offset(sf, sr).unwrap();
            }
            out
        };
        match kind {
            Kind::King | Kind::Advisor => {
                let ok = if kind == Kind::King {
                    df.abs() + dr.abs() == 1
                } else {
                    df.abs() == 1 && dr.abs() == 1
                };
                if !ok {
                    return Err(cannot);
                }
                if !to.in_palace(us) {
                    return Err(Illegal::LeavesPalace {
                        color: us,
                        kind,
                        to,
                    });
                }
            }
            Kind::Elephant => {
                if df.abs() != 2 || dr.abs() != 2 {
                    return Err(cannot);
                }
                if !to.on_own_side(us) {
                    return Err(Illegal::ElephantCrossesRiver {
                        color: us,
                        from,
                        to,
                    });
                }
                let eye = from.offset(df / 2, dr / 2).unwrap();
                if b.at(eye).is_some() {
                    return Err(Illegal::ElephantEyeBlocked {
                        color: us,
                        from,
                        to,
                        eye,
                    });
                }
            }
            Kind::Horse => {
                if !matches!((df.abs(), dr.abs()), (1, 2) | (2, 1)) {
                    return Err(cannot);
                }
                let (lf, lr) = horse_leg(df, dr);
                let leg = from.offset(lf, lr).unwrap();
                if b.at(leg).is_some() {
                    return Err(Illegal::HorseLegBlocked { from, to, leg });
                }
            }
            Kind::Rook | Kind::Cannon => {
                if df != 0 && dr != 0 {
                    return Err(cannot);
                }
                let pieces = between();
                if kind == Kind::Cannon && captured.is_some() {
                    if pieces.len() != 1 {
                        return Err(Illegal::CannonScreen {
                            from,
                            to,
                            screens: pieces,
                        });
                    }
                } else if let Some(&by) = pieces.first() {
                    return Err(Illegal::PathBlocked { kind, from, to, by });
                }
            }
            Kind::Pawn => {
                let fwd = us.forward();
                if df == 0 && dr * fwd < 0 {
                    return Err(Illegal::PawnBackward {
                        color: us,
                        from,
                        to,
                    });
                }
                if dr == 0 && df.abs() == 1 && from.on_own_side(us) {
                    return Err(Illegal::PawnSidewaysBeforeRiver {
                        color: us,
                        from,
                        to,
                    });
                }
                if !((df == 0 && dr == fwd) || (dr == 0 && df.abs() == 1)) {
                    return Err(cannot);
                }
            }
        }
        let mut next = b.clone();
        next.make(from, to);
        if next.kings_face() {
            return Err(Illegal::KingsFace {
                red: next.king(Color::Red),
                black: next.king(Color::Black),
            });
        }
        if let Some(&(k, p)) = next.attackers(next.king(us), us.opponent()).first() {
            return Err(Illegal::LeavesKingInCheck {
                attacker: (us.opponent(), k, p),
            });
        }
        Ok(Move {
            from,
            to,
            piece: kind,
            captured: captured.map(|(_, k)| k),
        })
    }

    /// How many times this position (pieces and side to move) arose earlier in the game.
    pub fn repetitions(&self) -> usize {
        let now = self.board.hash;
        self.history[..self.history.len() - 1]
            .iter()
            .filter(|s| s.hash == now)
            .count()
    }

    /// The side that gave check with every one of its moves since this position's
    /// `times`-th last earlier occurrence, when only one side did: the perpetual checker.
    /// `None` if the position has not arisen `times` times before, or if neither or both
    /// sides checked throughout.
    pub fn perpetual_checker(&self, times: usize) -> Option<Color> {
        let n = self.history.len() - 1;
        let now = self.board.hash;
        let earlier: Vec<usize> = (0..n).filter(|&i| self.history[i].hash == now).collect();
        if times == 0 || earlier.len() < times {
            return None;
        }
        let start = earlier[earlier.len() - times];
        // Position k (k > start) was reached by a move of the side not to move at k; the
        // side to move at n is `turn`, and sides alternate.
        let mover = |k: usize| {
            if (n - k).is_multiple_of(2) {
                self.board.turn.opponent()
            } else {
                self.board.turn
            }
        };
        let checks_always = |side: Color| {
            (start + 1..=n)
                .filter(|&k| mover(k) == side)
                .all(|k| self.history[k].check)
        };
        match (checks_always(Color::Red), checks_always(Color::Black)) {
            (true, false) => Some(Color::Red),
            (false, true) => Some(Color::Black),
            _ => None,
        }
    }

    /// How the game has ended here, if it has: the side to move has no legal move (将死
    /// if in check, 困毙 if not; it loses either way), or the position arises for the
    /// third time (a lone perpetual checker loses, else a draw).
    pub fn outcome(&self) -> Option<Outcome> {
        let us = self.board.turn;
        if self.legal_moves().is_empty() {
            let winner = us.opponent();
            return Some(if self.is_check() {
                Outcome::Checkmate { winner }
            } else {
                Outcome::Stalemate { winner }
            });
        }
        if self.repetitions() >= 2 {
            return Some(match self.perpetual_checker(2) {
                Some(loser) => Outcome::PerpetualCheck { loser },
                None => Outcome::Repetition,
            });
        }
        None
    }

    /// The move in WXF notation: `C2=5`, `H8+7`, `R+=3` (tandem pieces by `+`/`-`).
    pub fn wxf(&self, mv: &Move) -> String {
        notation::wxf(&self.board, mv)
    }

    /// The move in Chinese notation (simplified characters): 炮二平五, 马8进7, 前车退一.
    pub fn chinese(&self, mv: &Move) -> String {
        notation::chinese(&self.board, mv)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(s: &str) -> Point {
        Point::parse(s).unwrap()
    }

    fn refuse(fen: &str, mv: &str) -> Illegal {
        Position::from_fen(fen).unwrap().play(mv).unwrap_err()
    }

    #[test]
    fn horse_leg_blocked_is_refused_with_the_point() {
        let err = refuse(START_FEN, "b0d1");
        assert_eq!(
            err,
            Illegal::HorseLegBlocked {
                from: p("b0"),
                to: p("d1"),
                leg: p("c0")
            }
        );
        assert!(err.to_string().contains("c0"));
    }

    #[test]
    fn elephant_eye_and_river_are_refused() {
        // Red elephant c4; a red soldier on d5 and a red horse on d3 (the eyes):
        //   . . . . k . . . .  9
        //   …
        //   . . . P . . . . .  5
        //   . . B . . . . . .  4
        //   . . . N . . . . .  3
        //   …
        //   . . . K . . . . .  0
        let fen = "4k4/9/9/9/3P5/2B6/3N5/9/9/3K5 w - - 0 1";
        assert!(matches!(
            refuse(fen, "c4e6"),
            Illegal::ElephantCrossesRiver { .. }
        ));
        assert_eq!(
            refuse(fen, "c4e2"),
            Illegal::ElephantEyeBlocked {
                color: Color::Red,
                from: p("c4"),
                to: p("e2"),
                eye: p("d3")
            }
        );
        assert!(Position::from_fen(fen).unwrap().play("c4a2").is_ok());
    }

    #[test]
    fn king_and_advisor_stay_in_the_palace() {
        let fen = "4k4/9/9/9/9/9/9/5K3/9/5A3 w - - 0 1";
        assert!(matches!(
            refuse(fen, "f2g2"),
            Illegal::LeavesPalace {
                kind: Kind::King,
                ..
            }
        ));
        assert!(matches!(
            refuse(fen, "f0g1"),
            Illegal::LeavesPalace {
                kind: Kind::Advisor,
                ..
            }
        ));
        assert!(matches!(
            refuse(fen, "f2e1"),
            Illegal::CannotMoveThatWay {
                kind: Kind::King,
                ..
            }
        ));
    }

    #[test]
    fn cannon_needs_exactly_one_screen_to_capture() {
        // The start: the cannon on h2 sees h9 (black chariot) over h7 (black cannon) and
        // nothing else; over nothing it sees h7.
        let err = refuse(START_FEN, "h2h7");
        assert_eq!(
            err,
            Illegal::CannonScreen {
                from: p("h2"),
                to: p("h7"),
                screens: vec![]
            }
        );
        assert!(Position::start().play("h2h9").is_ok());
        // Two screens: the red cannon on a2 looks up the a-file at a3 (red) and a6
        // (black) before the black chariot on a9.
        let two = "r3k4/9/9/p8/9/9/P8/C8/9/3K5 w - - 0 1";
        assert_eq!(
            refuse(two, "a2a9"),
            Illegal::CannonScreen {
                from: p("a2"),
                to: p("a9"),
                screens: vec![p("a3"), p("a6")]
            }
        );
        // Without capturing, a cannon may not jump at all.
        assert!(matches!(
            refuse(two, "a2a4"),
            Illegal::PathBlocked {
                kind: Kind::Cannon,
                ..
            }
        ));
    }

    #[test]
    fn soldier_cannot_retreat_or_go_sideways_before_the_river() {
        let fen = "4k4/9/9/9/2P6/9/4P4/9/9/4K4 w - - 0 1";
        assert!(matches!(
            refuse(fen, "e3d3"),
            Illegal::PawnSidewaysBeforeRiver { .. }
        ));
        assert!(matches!(refuse(fen, "e3e2"), Illegal::PawnBackward { .. }));
        assert!(matches!(refuse(fen, "c5c4"), Illegal::PawnBackward { .. }));
        let pos = Position::from_fen(fen).unwrap();
        assert!(pos.play("c5b5").is_ok() && pos.play("c5c6").is_ok());
        assert!(matches!(
            refuse(fen, "e3e5"),
            Illegal::CannotMoveThatWay { .. }
        ));
    }

    #[test]
    fn kings_may_not_face_each_other() {
        // Red king d0 and black king e9; moving to e0 would open the e-file.
        let fen = "4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1";
        assert_eq!(
            refuse(fen, "d0e0"),
            Illegal::KingsFace {
                red: p("e0"),
                black: p("e9")
            }
        );
        // A piece between may not step aside either: the red horse on e5.
        let fen = "4k4/9/9/9/4N4/9/9/9/9/4K4 w - - 0 1";
        assert!(matches!(refuse(fen, "e5d7"), Illegal::KingsFace { .. }));
    }

    #[test]
    fn leaving_the_king_in_check_names_the_attacker() {
        // The black chariot on e8 checks the red king on e0.
        let fen = "3k5/4r4/9/9/9/9/9/9/9/4K4 w - - 0 1";
        let pos = Position::from_fen(fen).unwrap();
        assert!(pos.is_check());
        assert_eq!(
            refuse(fen, "e0e1"),
            Illegal::LeavesKingInCheck {
                attacker: (Color::Black, Kind::Rook, p("e8"))
            }
        );
        assert!(matches!(refuse(fen, "a0a1"), Illegal::NoPiece { .. }));
        assert!(matches!(refuse(fen, "d9d8"), Illegal::NotYourPiece { .. }));
    }

    #[test]
    fn stalemate_loses_and_checkmate_loses() {
        // The black king on e9 is not in check, but d9 and f9 are held by the chariots
        // on d0 and f0, and e8 by the red soldier on e7: 困毙, and Black loses.
        let fen = "4k4/9/4P4/9/9/9/9/9/9/3RKR3 b - - 0 1";
        let pos = Position::from_fen(fen).unwrap();
        assert!(!pos.is_check());
        assert_eq!(
            pos.outcome(),
            Some(Outcome::Stalemate { winner: Color::Red })
        );
        // Mate: the chariot on a9 checks along the ninth rank, the one on a8 holds the
        // eighth, and d9 would face the red king.
        let mate = "R3k4/R8/9/9/9/9/9/9/9/3K5 b - - 0 1";
        let pos = Position::from_fen(mate).unwrap();
        assert!(pos.is_check());
        assert_eq!(
            pos.outcome(),
            Some(Outcome::Checkmate { winner: Color::Red })
        );
        assert_eq!(pos.play("e9e8"), Err(Illegal::GameOver));
    }

    #[test]
    fn perpetual_check_loses_on_the_third_occurrence() {
        // The red chariot checks from f1 and e1 in turn; the black king steps f9, e9, f9…
        //   . . . . . k . . .  9
        //   …
        //   R . . . . . . . .  1
        //   . . . K . . . . .  0
        let mut pos = Position::from_fen("5k3/9/9/9/9/9/9/9/R8/3K5 w - - 0 1").unwrap();
        let line = [
            "a1f1", "f9e9", "f1e1", "e9f9", "e1f1", "f9e9", "f1e1", "e9f9", "e1f1",
        ];
        for (i, mv) in line.iter().enumerate() {
            assert_eq!(pos.outcome(), None, "before move {i}");
            pos.play_in_place(mv).unwrap();
        }
        assert_eq!(pos.repetitions(), 2);
        assert_eq!(
            pos.outcome(),
            Some(Outcome::PerpetualCheck { loser: Color::Red })
        );
        assert_eq!(pos.play("e9e8"), Err(Illegal::GameOver));
    }

    #[test]
    fn quiet_repetition_is_a_draw() {
        let mut pos = Position::from_fen("5k3/9/9/9/9/9/9/9/R8/3K5 w - - 0 1").unwrap();
        for mv in ["a1a2", "f9f8", "a2a1", "f8f9"].iter().cycle().take(8) {
            pos.play_in_place(mv).unwrap();
        }
        assert_eq!(pos.repetitions(), 2);
        assert_eq!(pos.outcome(), Some(Outcome::Repetition));
    }
}
