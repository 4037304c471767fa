//! The classroom: teachers, classes, students, their sessions, homework and every move a
//! student tried, kept in a [`Store`] (SQLite in a data folder: [`sqlite::Sqlite`]).
//!
//! This layer knows nothing of the web: it stores and answers. It names problems and lessons
//! by their addresses' parts (`go`, `captures`, `3`), not by the content's types, so a class's
//! history outlives a change of the content.
//!
//! ```
//! use qiyuan::class::{sqlite::Sqlite, Store, Roster};
//! let dir = std::env::temp_dir().join(format!("qiyuan-doc-{}", std::process::id()));
//! let store = Sqlite::open(&dir).unwrap();
//! let teacher = store.add_teacher("王老师", &qiyuan::class::password::hash("secret")).unwrap();
//! let class = store.create_class(teacher, "三年级二班").unwrap();
//! let students = store.add_students(class.id, &Roster::parse("小明\n小红").unwrap()).unwrap();
//! assert_eq!(students.len(), 2);
//! # std::fs::remove_dir_all(&dir).ok();
//! ```

pub mod codes;
pub mod lock;
pub mod password;
pub mod progress;
pub mod sqlite;
pub mod throttle;

use std::fmt;
use std::path::PathBuf;

pub use codes::PictureCode;
pub use progress::Status;

/// A teacher's number in the store.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TeacherId(pub i64);
/// A class's number in the store.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ClassId(pub i64);
/// A student's number in the store.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct StudentId(pub i64);
/// A homework's number in the store.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct AssignmentId(pub i64);

/// Milliseconds since 1970 (UTC).
pub type Millis = i64;

/// Now, in [`Millis`].
pub fn now() -> Millis {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or(0)
}

/// A teacher.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Teacher {
    /// Its number.
    pub id: TeacherId,
    /// The name it logs in with, as typed by `qiyuan teacher add`.
    pub name: String,
}

/// A class.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Class {
    /// Its number.
    pub id: ClassId,
    /// Its teacher.
    pub teacher: TeacherId,
    /// Its name (`三年级二班`).
    pub name: String,
    /// The six-letter code its students type to log in.
    pub code: String,
    /// When it was made.
    pub created: Millis,
}

/// A student.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Student {
    /// Their number.
    pub id: StudentId,
    /// Their class.
    pub class: ClassId,
    /// Their name, unique in the class.
    pub name: String,
    /// The picture code they log in with.
    pub code: PictureCode,
}

/// Who a session belongs to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Role {
    /// A teacher.
    Teacher(TeacherId),
    /// A student of a class.
    Student(StudentId, ClassId),
}

/// A logged-in session, as the web sees it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Account {
    /// Who.
    pub role: Role,
    /// Their name.
    pub name: String,
    /// The secret every form of theirs carries (CSRF).
    pub csrf: String,
    /// When the session ends.
    pub expires: Millis,
}

impl Account {
    /// The teacher, if a teacher.
    pub fn teacher(&self) -> Option<TeacherId> {
        match self.role {
            Role::Teacher(t) => Some(t),
            Role::Student(..) => None,
        }
    }

    /// The student and their class, if a student.
    pub fn student(&self) -> Option<(StudentId, ClassId)> {
        match self.role {
            Role::Student(s, c) => Some((s, c)),
            Role::Teacher(_) => None,
        }
    }
}

/// What a homework asks: a problem, a whole set or a lesson.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Task {
    /// One problem: game, set, problem id.
    Problem {
        /// `go`, `chess`, `shogi`.
        game: String,
        /// The set's slug.
        set: String,
        /// The problem's id.
        id: String,
    },
    /// Every problem of a set.
    Set {
        /// `go`, `chess`, `shogi`.
        game: String,
        /// The set's slug.
        set: String,
    },
    /// A lesson, read to its end.
    Lesson {
        /// `go`, `chess`, `shogi`.
        game: String,
        /// The lesson's slug.
        slug: String,
    },
}

impl Task {
    /// The task as its address part: `go/problems/captures/3`, `go/problems/captures`,
    /// `go/lessons/liberties`.
    pub fn path(&self) -> String {
        match self {
            Task::Problem { game, set, id } => format!("{game}/problems/{set}/{id}"),
            Task::Set { game, set } => format!("{game}/problems/{set}"),
            Task::Lesson { game, slug } => format!("{game}/lessons/{slug}"),
        }
    }

    /// Reads [`Task::path`]'s spelling back (a leading `/` is allowed).
    ///
    /// ```
    /// use qiyuan::class::Task;
    /// let t = Task::parse("/chess/problems/mate-in-one/4").unwrap();
    /// assert_eq!(t.path(), "chess/problems/mate-in-one/4");
    /// assert!(Task::parse("chess/games").is_none());
    /// ```
    pub fn parse(s: &str) -> Option<Task> {
        let s = s.trim().trim_start_matches('/').trim_end_matches('/');
        let parts: Vec<&str> = s.split('/').collect();
        let ok = |p: &str| {
            !p.is_empty()
                && !p.starts_with('.')
                && p.len() <= 100
                && p.bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b"-_.".contains(&b))
        };
        if !parts.iter().all(|p| ok(p)) {
            return None;
        }
        let game = |g: &str| crate::base::Game::from_slug(g).map(|g| g.slug().to_string());
        match parts.as_slice() {
            [g, "problems", set, id] => Some(Task::Problem {
                game: game(g)?,
                set: set.to_string(),
                id: id.to_string(),
            }),
            [g, "problems", set] => Some(Task::Set {
                game: game(g)?,
                set: set.to_string(),
            }),
            [g, "lessons", slug] => Some(Task::Lesson {
                game: game(g)?,
                slug: slug.to_string(),
            }),
            _ => None,
        }
    }
}

/// A homework: tasks given to a class, with an optional due date.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Assignment {
    /// Its number.
    pub id: AssignmentId,
    /// The class it is for.
    pub class: ClassId,
    /// Its title, as the teacher wrote it.
    pub title: String,
    /// What it asks, in order.
    pub tasks: Vec<Task>,
    /// The day it is due (`2026-12-08`), if any.
    pub due: Option<String>,
    /// When it was given.
    pub created: Millis,
}

/// What a student did on a problem: one move judged, a hint opened or the solution shown.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Act {
    /// A move, the moves before it, and the verdict (`correct`, `solved`, `wrong`,
    /// `illegal`, `found`, `not-answer`).
    Move {
        /// The moves before it (learner's and replies alternating), space-separated.
        before: String,
        /// The move as the learner gave it (`D4`, `e2e4`, `P*5e`).
        played: String,
        /// The judge's verdict.
        verdict: String,
    },
    /// The hint was opened.
    Hint,
    /// The solution was shown.
    Solution,
}

impl Act {
    /// The act as the store and the CSV export write it: kind (`move`, `hint`, `solution`),
    /// moves before, move, verdict (empty but for a move).
    pub fn columns(&self) -> (&'static str, &str, &str, &str) {
        match self {
            Act::Move {
                before,
                played,
                verdict,
            } => ("move", before, played, verdict),
            Act::Hint => ("hint", "", "", ""),
            Act::Solution => ("solution", "", "", ""),
        }
    }
}

/// One row of a student's history on a problem.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Try {
    /// Who.
    pub student: StudentId,
    /// `go`, `chess`, `shogi`.
    pub game: String,
    /// The set's slug.
    pub set: String,
    /// The problem's id.
    pub problem: String,
    /// What they did.
    pub act: Act,
    /// When.
    pub at: Millis,
}

impl Try {
    /// The problem tried, as a [`Task::Problem`].
    pub fn task(&self) -> Task {
        Task::Problem {
            game: self.game.clone(),
            set: self.set.clone(),
            id: self.problem.clone(),
        }
    }
}

/// What a student did with a lesson.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LessonMark {
    /// They opened it.
    Opened,
    /// They read it to its end.
    Finished,
}

/// One row of a student's reading.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reading {
    /// Who.
    pub student: StudentId,
    /// `go`, `chess`, `shogi`.
    pub game: String,
    /// The lesson's slug.
    pub slug: String,
    /// Opened or finished.
    pub mark: LessonMark,
    /// When.
    pub at: Millis,
}

/// A game a student played on the server.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Played {
    /// Who.
    pub student: StudentId,
    /// `go`, `chess`, `shogi`.
    pub game: String,
    /// The game's code (`/play/{code}`).
    pub code: String,
    /// Who they played: `computer 3`, `engine gnugo`, `classmate`.
    pub opponent: String,
    /// When it started.
    pub at: Millis,
}

/// A class's list of names, as pasted by its teacher: one name a line (or separated by
/// commas, 、 or ，), blank lines skipped, each name trimmed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Roster {
    /// The names, in the order given.
    pub names: Vec<String>,
}

impl Roster {
    /// The longest name (in characters).
    pub const NAME_LIMIT: usize = 40;
    /// The most students a class holds.
    pub const CLASS_LIMIT: usize = 200;

    /// Reads a pasted list. Refuses a list with the same name twice (names are how students
    /// log in), a name too long, a name with control characters, or too many names.
    ///
    /// ```
    /// use qiyuan::class::{Roster, ClassError};
    /// assert_eq!(Roster::parse("小明, 小红\n\n Tom ").unwrap().names, ["小明", "小红", "Tom"]);
    /// assert!(matches!(Roster::parse("小明\n小明"), Err(ClassError::DuplicateName(n)) if n == "小明"));
    /// ```
    pub fn parse(text: &str) -> Result<Roster, ClassError> {
        let mut names: Vec<String> = Vec::new();
        for name in text.split(['\n', ',', '，', '、', ';', '；']) {
            let name = name.trim();
            if name.is_empty() {
                continue;
            }
            if name.chars().any(char::is_control) {
                return Err(ClassError::BadName(name.escape_debug().to_string()));
            }
            if name.chars().count() > Self::NAME_LIMIT {
                return Err(ClassError::NameTooLong(name.chars().take(20).collect()));
            }
            if names
                .iter()
                .any(|n| n.to_lowercase() == name.to_lowercase())
            {
                return Err(ClassError::DuplicateName(name.to_string()));
            }
            names.push(name.to_string());
        }
        if names.is_empty() {
            return Err(ClassError::EmptyRoster);
        }
        if names.len() > Self::CLASS_LIMIT {
            return Err(ClassError::ClassFull(Self::CLASS_LIMIT));
        }
        Ok(Roster { names })
    }
}

/// Why the classroom refused or failed.
#[derive(Debug)]
pub enum ClassError {
    /// The same name twice in a class.
    DuplicateName(String),
    /// A name with a control character.
    BadName(String),
    /// A name over [`Roster::NAME_LIMIT`] characters.
    NameTooLong(String),
    /// No name in the pasted list.
    EmptyRoster,
    /// More students than a class holds.
    ClassFull(usize),
    /// A teacher of that name exists.
    TeacherExists(String),
    /// No teacher of that name.
    NoTeacher(String),
    /// A title or a class name that is empty or too long.
    BadTitle,
    /// A homework with no task, or a task the content does not have.
    BadTask(String),
    /// A due date that is no `YYYY-MM-DD`.
    BadDate(String),
    /// The class, student or homework is not there (deleted, or not this teacher's).
    NotFound,
    /// The database was written by a newer qiyuan.
    NewerDatabase {
        /// The database's schema version.
        found: i64,
        /// The newest this build knows.
        known: i64,
    },
    /// The data folder could not be made or opened.
    Folder(PathBuf, std::io::Error),
    /// The disk is full or the file read-only.
    Unwritable(String),
    /// Any other database error.
    Database(String),
}

impl fmt::Display for ClassError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ClassError::DuplicateName(n) => write!(f, "the name {n:?} is in the list twice: add something to tell them apart (小明 A, 小明 B)"),
            ClassError::BadName(n) => write!(f, "the name {n:?} has a control character"),
            ClassError::NameTooLong(n) => write!(f, "the name starting {n:?} is longer than {} characters", Roster::NAME_LIMIT),
            ClassError::EmptyRoster => write!(f, "the list has no name: paste one name a line"),
            ClassError::ClassFull(n) => write!(f, "a class holds at most {n} students"),
            ClassError::TeacherExists(n) => write!(f, "a teacher named {n:?} exists already"),
            ClassError::NoTeacher(n) => write!(f, "no teacher named {n:?}"),
            ClassError::BadTitle => write!(f, "a title must have 1 to 100 characters"),
            ClassError::BadTask(t) => write!(f, "no such lesson, problem or set: {t}"),
            ClassError::BadDate(d) => write!(f, "{d:?} is not a date like 2026-12-08"),
            ClassError::NotFound => write!(f, "not found (deleted, or not yours)"),
            ClassError::NewerDatabase { found, known } => write!(f, "the database was written by a newer qiyuan (schema {found}, this one knows {known}): run the newer qiyuan, or restore a backup"),
            ClassError::Folder(p, e) => write!(f, "cannot use the data folder {}: {e}", p.display()),
            ClassError::Unwritable(e) => write!(f, "cannot write the database (disk full or read-only?): {e}; nothing was saved"),
            ClassError::Database(e) => write!(f, "database error: {e}"),
        }
    }
}

impl std::error::Error for ClassError {}

/// A student's or a class's history, as the dashboard reads it.
#[derive(Clone, Debug, Default)]
pub struct History {
    /// Every try, oldest first.
    pub tries: Vec<Try>,
    /// Every lesson opened or finished, oldest first.
    pub readings: Vec<Reading>,
    /// Every game started, oldest first.
    pub games: Vec<Played>,
}

/// Where the classroom lives. One interface for every database: the web layer holds an
/// `Arc<dyn Store>` and nothing else of it, so a PostgreSQL store can follow without touching
/// a handler. Every method is blocking; the web calls them off its async workers.
pub trait Store: Send + Sync {
    /// Adds a teacher with a password hash from [`password::hash`].
    fn add_teacher(&self, name: &str, hash: &str) -> Result<TeacherId, ClassError>;
    /// Changes a teacher's password.
    fn set_password(&self, name: &str, hash: &str) -> Result<(), ClassError>;
    /// The teacher of that name and their password hash.
    fn teacher_login(&self, name: &str) -> Result<Option<(Teacher, String)>, ClassError>;
    /// Every teacher.
    fn teachers(&self) -> Result<Vec<Teacher>, ClassError>;

    /// Makes a class with a fresh code.
    fn create_class(&self, teacher: TeacherId, name: &str) -> Result<Class, ClassError>;
    /// A teacher's classes, newest first.
    fn classes(&self, teacher: TeacherId) -> Result<Vec<Class>, ClassError>;
    /// A class, if it is there (a deleted class is not).
    fn class(&self, id: ClassId) -> Result<Option<Class>, ClassError>;
    /// Deletes a class of this teacher's: its students can no longer log in and it leaves
    /// the dashboard. Its history stays in the database (nothing is lost).
    fn delete_class(&self, teacher: TeacherId, id: ClassId) -> Result<(), ClassError>;

    /// Adds students to a class, each with a fresh picture code; refuses a name the class
    /// has already (nothing is added then).
    fn add_students(&self, class: ClassId, roster: &Roster) -> Result<Vec<Student>, ClassError>;
    /// A class's students, by name.
    fn students(&self, class: ClassId) -> Result<Vec<Student>, ClassError>;
    /// A student.
    fn student(&self, id: StudentId) -> Result<Option<Student>, ClassError>;
    /// The student a class code and a name name, if the class is there.
    fn student_login(&self, class_code: &str, name: &str) -> Result<Option<Student>, ClassError>;

    /// Starts a session: `token_hash` is [`password::token_hash`] of the cookie's token.
    fn open_session(&self, token_hash: &[u8], account: &Account) -> Result<(), ClassError>;
    /// The session of a token, if it has not ended at `now` (and its class is still there).
    fn session(&self, token_hash: &[u8], now: Millis) -> Result<Option<Account>, ClassError>;
    /// Ends a session.
    fn close_session(&self, token_hash: &[u8]) -> Result<(), ClassError>;

    /// Records what a student did on a problem.
    fn record_try(&self, t: &Try) -> Result<(), ClassError>;
    /// Records a lesson opened or finished.
    fn record_reading(&self, r: &Reading) -> Result<(), ClassError>;
    /// Records a game started.
    fn record_game(&self, g: &Played) -> Result<(), ClassError>;
    /// One student's history.
    fn student_history(&self, student: StudentId) -> Result<History, ClassError>;
    /// The history of every student of a class.
    fn class_history(&self, class: ClassId) -> Result<History, ClassError>;

    /// Gives a class homework.
    fn assign(
        &self,
        class: ClassId,
        title: &str,
        tasks: &[Task],
        due: Option<&str>,
    ) -> Result<Assignment, ClassError>;
    /// A class's homework, newest first.
    fn assignments(&self, class: ClassId) -> Result<Vec<Assignment>, ClassError>;
    /// Takes a homework back.
    fn unassign(&self, class: ClassId, id: AssignmentId) -> Result<(), ClassError>;

    /// Writes a consistent copy of the whole database to `file` while others go on writing.
    fn backup(&self, file: &std::path::Path) -> Result<(), ClassError>;
}

/// The data folder used when `--data` is not given: `$QIYUAN_DATA`, else
/// `$XDG_DATA_HOME/qiyuan`, else `~/.local/share/qiyuan` (`%APPDATA%\\qiyuan` on Windows).
pub fn default_folder() -> Option<PathBuf> {
    let var = |k: &str| {
        std::env::var_os(k)
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
    };
    if let Some(d) = var("QIYUAN_DATA") {
        return Some(d);
    }
    if cfg!(windows) {
        return var("APPDATA").map(|d| d.join("qiyuan"));
    }
    var("XDG_DATA_HOME")
        .map(|d| d.join("qiyuan"))
        .or_else(|| var("HOME").map(|h| h.join(".local/share/qiyuan")))
}

/// Checks a `YYYY-MM-DD` date.
///
/// ```
/// use qiyuan::class::check_date;
/// assert!(check_date("2026-12-08").is_ok());
/// assert!(check_date("2026-13-01").is_err());
/// assert!(check_date("next week").is_err());
/// ```
pub fn check_date(s: &str) -> Result<(), ClassError> {
    let bad = || ClassError::BadDate(s.chars().take(20).collect());
    let parts: Vec<&str> = s.split('-').collect();
    let [y, m, d] = parts.as_slice() else {
        return Err(bad());
    };
    let num = |p: &str, len| {
        (p.len() == len && p.bytes().all(|b| b.is_ascii_digit()))
            .then(|| p.parse::<u32>().ok())
            .flatten()
    };
    match (num(y, 4), num(m, 2), num(d, 2)) {
        (Some(2000..=2200), Some(1..=12), Some(1..=31)) => Ok(()),
        _ => Err(bad()),
    }
}

/// The day (`2026-12-01`, UTC) of a time.
pub fn day_of(at: Millis) -> String {
    // Civil from days (Howard Hinnant's algorithm).
    let z = at.div_euclid(86_400_000) + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = if m <= 2 { y + 1 } else { y };
    format!("{y:04}-{m:02}-{d:02}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn day_of_known_times() {
        assert_eq!(day_of(0), "1970-01-01");
        assert_eq!(day_of(951_782_400_000), "2000-02-29");
        assert_eq!(day_of(1_796_083_200_000), "2026-12-01");
    }

    #[test]
    fn errors_on_duplicate_name_whatever_the_case() {
        assert!(matches!(
            Roster::parse("Tom\ntom"),
            Err(ClassError::DuplicateName(_))
        ));
    }

    #[test]
    fn errors_on_empty_roster() {
        assert!(matches!(
            Roster::parse("\n , \n"),
            Err(ClassError::EmptyRoster)
        ));
    }

    #[test]
    fn task_paths_round_trip() {
        for p in [
            "go/problems/captures/3",
            "shogi/problems/tsume-1",
            "chess/lessons/check",
        ] {
            assert_eq!(Task::parse(p).unwrap().path(), p);
        }
        assert!(Task::parse("go/problems/../x").is_none());
        assert!(Task::parse("janggi/lessons/a").is_none());
    }
}
