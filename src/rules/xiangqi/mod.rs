//! The xiangqi rules engine (中国象棋), written here: every piece's moves on the 9×10
//! board with its river and palaces, 将帅不能照面, check, 将死 and 困毙, perpetual check,
//! FEN as Fairy-Stockfish writes it, and moves in ICCS, WXF and Chinese notation.
//!
//! What it judges:
//!
//! * every piece's way of moving, with the reason a move is refused ([`Illegal`]):
//!   蹩马腿, 塞象眼, the elephant and the river, the palace, the cannon's screen (炮架),
//!   the soldier before and after the river, 将帅照面, and leaving the king in check;
//! * the end of the game ([`Outcome`]): a side with no legal move loses, in check
//!   (将死) or not (困毙);
//! * repetition: every position of the game is kept as a Zobrist hash with whether the
//!   side to move was in check there. When a position arises for the third time
//!   ([`Position::repetitions`] is 2), the side that gave check with every one of its
//!   moves since the first of those occurrences loses (长将判负), if the other side did
//!   not also check with every move; otherwise the game is drawn
//!   ([`Outcome::Repetition`]). [`Position::perpetual_checker`] answers the same
//!   question for any number of repetitions, for a table with its own policy.
//!
//! What it does not judge: the chasing rules (长捉: perpetually attacking an unprotected
//! piece loses; 一将一捉 and the other mixed cases of the Asian and Chinese rule books),
//! which need a definition of "attack" and "protected" with many exceptions (a king or
//! soldier "chasing", pieces pinned, exchanges) that this engine does not state; a
//! repetition without a lone perpetual checker is simply a draw here, even where those
//! rules would make one side lose. Nor the move limit (自然限着, 60 moves without a
//! capture): the FEN's halfmove clock counts plies since the last capture, as
//! Fairy-Stockfish's does, but no game ends by it. Draw offers, resignation and time
//! belong to the table.
//!
//! Beside the rules: [`MateProver`] proves a forced win in `n` moves (将死 and 困毙 both
//! win; a repetition on the path does not), with every winning first move, the most
//! stubborn defence and, for a move that fails, the defence that escapes; [`select`] asks
//! which points a piece can move to or capture on, and which moves give check.
//!
//! ```
//! use qiyuan::lang::Lang;
//! use qiyuan::rules::xiangqi::{Illegal, Position};
//! // The start: Red's cannon on h2 may not capture on h7, nothing stands between.
//! //   r n b a k a b n r  9
//! //   . . . . . . . . .  8
//! //   . c . . . . . c .  7
//! //   …
//! //   . C . . . . . C .  2
//! //   a b c d e f g h i
//! let pos = Position::start();
//! let err = pos.play("h2h7").unwrap_err();
//! assert!(matches!(err, Illegal::CannonScreen { .. }));
//! assert!(err.explain(Lang::Zh).contains("炮架"));
//! let (next, mv) = pos.play("炮二平五").unwrap();
//! assert_eq!(mv.iccs(), "h2e2");
//! assert_eq!(next.fen(), "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1");
//! ```

mod board;
mod illegal;
mod mate;
mod notation;
mod position;
pub mod select;
mod types;

pub use board::BadFen;
pub use illegal::{Illegal, Outcome};
pub use mate::{MateError, MateProver, NotForcing, DEFAULT_BUDGET, LONGEST_MATE};
pub use position::{Position, START_FEN};
pub use types::{Color, Kind, Move, Point};

/// The rules in the words every game shares. A move is read on past a repetition that ended
/// the game ([`Position::play_on`]): records keep the moves players made after one, and a
/// table, which stops at [`Position::outcome`], takes no move after the end anyway.
impl super::Rules for Position {
    type Move = Move;
    type Illegal = Illegal;
    type Ending = Outcome;
    type Color = Color;

    fn turn(&self) -> Color {
        Position::turn(self)
    }
    fn legal_moves(&self) -> Vec<Move> {
        Position::legal_moves(self)
    }
    fn play(&self, text: &str) -> Result<(Self, Move), Illegal> {
        Position::play_on(self, text)
    }
    fn move_name(&self, mv: &Move) -> String {
        mv.iccs()
    }
    fn notation(&self, mv: &Move) -> String {
        self.chinese(mv)
    }
    fn ending(&self) -> Option<Outcome> {
        self.outcome()
    }
}
