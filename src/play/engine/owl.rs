//! GNU Go's owl reading of life and death, over GTP: the second reading the importer asks
//! before it tells a learner that a book's answer fails (`import::life::SecondReading`).
//!
//! GNU Go's `owl_attack V` and `owl_defend V` read whether the group at `V` can be killed
//! or saved with the side named moving first: `0` no, `1` yes (with the move), `2` and `3`
//! through a ko (the first needs one threat ignored, the second the ko won), `4` and `5`
//! yes, with a gain or a loss of other stones. They are GNU Go's own commands, not GTP's:
//! no other engine answers them, so this looks for `gnugo` by name.

use super::gtp::Session;
use super::process::Process;
use super::{find_program, program_dirs, EngineError, Timeouts};
use crate::import::life::{Reading, SecondReading};
use crate::rules::go::life::Goal;
use crate::rules::go::{Color, Move, Point, Position};
use std::path::Path;
use std::time::Duration;

/// How long one owl reading may take. GNU Go's owl reading stops at its own node limit,
/// which takes well under a second on a corner problem; past this, it cannot tell.
const READING: Duration = Duration::from_secs(20);

/// A GNU Go process kept for owl readings; after an error it reads no more.
pub struct Owl {
    session: Option<Session>,
    name: String,
}

impl Owl {
    /// GNU Go from `PATH` or `/usr/games`, started; `None` where it is not installed or
    /// does not start.
    pub fn discover() -> Option<Owl> {
        let command = find_program(&["gnugo"], &program_dirs())?;
        Owl::start(&command.program).ok()
    }

    /// Starts GNU Go at `program` in GTP mode, under Chinese rules (the count of points plays
    /// no part in the owl reading, but a ko's legality follows the rules).
    pub fn start(program: &Path) -> Result<Owl, EngineError> {
        let args = ["--mode", "gtp", "--chinese-rules"].map(String::from);
        let process = Process::spawn(program, &args)?;
        let session = Session::start(process, Timeouts::default())?;
        let name = session.name().to_string();
        Ok(Owl {
            session: Some(session),
            name,
        })
    }

    /// Sets up `before`'s stones on GNU Go's board (each chain in a position keeps a
    /// liberty, so playing the stones one by one captures nothing), plays `book_move` on
    /// it (so that GNU Go knows a ko it makes), then asks `question`.
    fn ask(
        &mut self,
        before: &Position,
        book_move: Move,
        question: &str,
    ) -> Result<String, EngineError> {
        let session = self
            .session
            .as_mut()
            .ok_or_else(|| EngineError::Protocol("an earlier owl reading failed".into()))?;
        let size = before.size();
        let reply = Timeouts::default().reply;
        session.command(&format!("boardsize {size}"), reply)?;
        session.command("clear_board", reply)?;
        for color in [Color::Black, Color::White] {
            for p in before.board().stones(color).collect::<Vec<_>>() {
                session.command(&format!("play {} {}", color.as_str(), p.name(size)), reply)?;
            }
        }
        let mover = before.turn().as_str();
        session.command(&format!("play {mover} {}", book_move.name(size)), reply)?;
        session.command(question, READING)
    }
}

/// The book move's result from an owl answer, asked for the side that moves next: a `0`
/// (that side fails) means the book's move holds.
///
/// ```text
/// = 0        → Holds
/// = 1 B19    → Fails
/// = 3 A18    → Ko
/// ```
fn reading_of(answer: &str) -> Option<Reading> {
    match answer.split_whitespace().next()? {
        "0" => Some(Reading::Holds),
        "1" | "4" | "5" => Some(Reading::Fails),
        "2" | "3" => Some(Reading::Ko),
        _ => None,
    }
}

impl SecondReading for Owl {
    fn read(
        &mut self,
        before: &Position,
        book_move: Move,
        goal: Goal,
        target: Point,
    ) -> Option<Reading> {
        // After a killing move the defender tries to save the group; after a living move
        // the attacker tries to kill it.
        let command = match goal {
            Goal::Kill => "owl_defend",
            Goal::Live => "owl_attack",
        };
        let question = format!("{command} {}", target.name(before.size()));
        match self.ask(before, book_move, &question) {
            Ok(answer) => reading_of(&answer),
            Err(_) => {
                self.session = None;
                None
            }
        }
    }

    fn name(&self) -> String {
        format!("{}'s owl reading", self.name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_owl_codes() {
        assert_eq!(reading_of("0"), Some(Reading::Holds));
        assert_eq!(reading_of("1 B19"), Some(Reading::Fails));
        assert_eq!(reading_of("5 C3"), Some(Reading::Fails));
        assert_eq!(reading_of("2 A18"), Some(Reading::Ko));
        assert_eq!(reading_of("3 A18"), Some(Reading::Ko));
        assert_eq!(reading_of(""), None);
        assert_eq!(reading_of("unknown"), None);
    }
}
