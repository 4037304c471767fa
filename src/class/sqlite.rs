//! The classroom in one SQLite file (`qiyuan.db` in the data folder): WAL mode, versioned
//! migrations applied at open, one writing connection and a few reading ones.

use super::*;
use rusqlite::{params, Connection, ErrorCode, OpenFlags, OptionalExtension};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, MutexGuard};

/// The database file's name in the data folder.
pub const FILE: &str = "qiyuan.db";

/// The migrations, in order: migration `i` takes the schema from version `i` to `i + 1`.
/// Never edit one that has shipped; add a new one.
const MIGRATIONS: &[&str] = &[
    // 1: accounts, classes, sessions, history, homework.
    "
    CREATE TABLE teachers (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL,
        name_key TEXT NOT NULL UNIQUE,
        hash TEXT NOT NULL,
        created INTEGER NOT NULL
    );
    CREATE TABLE classes (
        id INTEGER PRIMARY KEY,
        teacher INTEGER NOT NULL REFERENCES teachers(id),
        name TEXT NOT NULL,
        code TEXT NOT NULL UNIQUE,
        created INTEGER NOT NULL,
        deleted INTEGER
    );
    CREATE INDEX classes_teacher ON classes(teacher);
    CREATE TABLE students (
        id INTEGER PRIMARY KEY,
        class INTEGER NOT NULL REFERENCES classes(id),
        name TEXT NOT NULL,
        name_key TEXT NOT NULL,
        code TEXT NOT NULL,
        created INTEGER NOT NULL,
        UNIQUE (class, name_key)
    );
    CREATE TABLE sessions (
        token BLOB PRIMARY KEY,
        teacher INTEGER REFERENCES teachers(id),
        student INTEGER REFERENCES students(id),
        csrf TEXT NOT NULL,
        expires INTEGER NOT NULL
    );
    CREATE TABLE tries (
        id INTEGER PRIMARY KEY,
        student INTEGER NOT NULL REFERENCES students(id),
        game TEXT NOT NULL,
        set_slug TEXT NOT NULL,
        problem TEXT NOT NULL,
        kind TEXT NOT NULL,
        before TEXT NOT NULL,
        played TEXT NOT NULL,
        verdict TEXT NOT NULL,
        at INTEGER NOT NULL
    );
    CREATE INDEX tries_student ON tries(student, id);
    CREATE TABLE readings (
        id INTEGER PRIMARY KEY,
        student INTEGER NOT NULL REFERENCES students(id),
        game TEXT NOT NULL,
        slug TEXT NOT NULL,
        mark TEXT NOT NULL,
        at INTEGER NOT NULL
    );
    CREATE INDEX readings_student ON readings(student, id);
    CREATE TABLE games (
        id INTEGER PRIMARY KEY,
        student INTEGER NOT NULL REFERENCES students(id),
        game TEXT NOT NULL,
        code TEXT NOT NULL,
        opponent TEXT NOT NULL,
        at INTEGER NOT NULL
    );
    CREATE INDEX games_student ON games(student, id);
    CREATE TABLE assignments (
        id INTEGER PRIMARY KEY,
        class INTEGER NOT NULL REFERENCES classes(id),
        title TEXT NOT NULL,
        tasks TEXT NOT NULL,
        due TEXT,
        created INTEGER NOT NULL,
        deleted INTEGER
    );
    CREATE INDEX assignments_class ON assignments(class);
    ",
];

/// The schema version this build writes.
pub const SCHEMA_VERSION: i64 = MIGRATIONS.len() as i64;

/// How many connections read at once (WAL lets them read while one writes).
const READERS: usize = 4;

/// The classroom in SQLite.
pub struct Sqlite {
    path: PathBuf,
    writer: Mutex<Connection>,
    readers: Vec<Mutex<Connection>>,
    next: AtomicUsize,
}

fn db(e: rusqlite::Error) -> ClassError {
    match e.sqlite_error_code() {
        Some(ErrorCode::DiskFull | ErrorCode::ReadOnly | ErrorCode::CannotOpen) => {
            ClassError::Unwritable(e.to_string())
        }
        _ => ClassError::Database(e.to_string()),
    }
}

fn name_key(name: &str) -> String {
    name.trim().to_lowercase()
}

fn configure(conn: &Connection) -> Result<(), ClassError> {
    conn.busy_timeout(std::time::Duration::from_secs(10))
        .map_err(db)?;
    conn.pragma_update(None, "foreign_keys", "ON").map_err(db)?;
    conn.pragma_update(None, "synchronous", "NORMAL")
        .map_err(db)?;
    Ok(())
}

impl Sqlite {
    /// Opens (making it on first use) the database in `folder`, making the folder too, and
    /// brings its schema up to [`SCHEMA_VERSION`]. Refuses a database written by a newer
    /// qiyuan without changing it.
    pub fn open(folder: &Path) -> Result<Sqlite, ClassError> {
        std::fs::create_dir_all(folder).map_err(|e| ClassError::Folder(folder.into(), e))?;
        let path = folder.join(FILE);
        let writer = Connection::open(&path).map_err(db)?;
        configure(&writer)?;
        let mode: String = writer
            .query_row("PRAGMA journal_mode = WAL", [], |r| r.get(0))
            .map_err(db)?;
        if !mode.eq_ignore_ascii_case("wal") {
            return Err(ClassError::Database(format!(
                "the database would not go into WAL mode (it is in {mode} mode)"
            )));
        }
        migrate(&writer)?;
        let readers = (0..READERS)
            .map(|_| {
                let c = Connection::open_with_flags(
                    &path,
                    OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX,
                )
                .map_err(db)?;
                configure(&c)?;
                Ok(Mutex::new(c))
            })
            .collect::<Result<Vec<_>, ClassError>>()?;
        Ok(Sqlite {
            path,
            writer: Mutex::new(writer),
            readers,
            next: AtomicUsize::new(0),
        })
    }

    /// The database file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Caps the database at `pages` pages (of 4 KiB) for the writing connection: a full disk,
    /// for tests of what a full disk does.
    #[doc(hidden)]
    pub fn simulate_full_disk(&self, pages: u32) -> Result<(), ClassError> {
        self.write()
            .query_row(&format!("PRAGMA max_page_count = {pages}"), [], |_| Ok(()))
            .map_err(db)
    }

    fn write(&self) -> MutexGuard<'_, Connection> {
        self.writer.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn read(&self) -> MutexGuard<'_, Connection> {
        let start = self.next.fetch_add(1, Ordering::Relaxed);
        for i in 0..READERS {
            if let Ok(c) = self.readers[(start + i) % READERS].try_lock() {
                return c;
            }
        }
        self.readers[start % READERS]
            .lock()
            .unwrap_or_else(|e| e.into_inner())
    }
}

fn migrate(conn: &Connection) -> Result<(), ClassError> {
    let found: i64 = conn
        .query_row("PRAGMA user_version", [], |r| r.get(0))
        .map_err(db)?;
    if found > SCHEMA_VERSION {
        return Err(ClassError::NewerDatabase {
            found,
            known: SCHEMA_VERSION,
        });
    }
    for (i, sql) in MIGRATIONS.iter().enumerate().skip(found as usize) {
        // Each migration and its version number in one transaction: all or nothing.
        conn.execute_batch(&format!(
            "BEGIN IMMEDIATE; {sql}; PRAGMA user_version = {}; COMMIT;",
            i + 1
        ))
        .map_err(|e| {
            let _ = conn.execute_batch("ROLLBACK");
            db(e)
        })?;
    }
    Ok(())
}

fn class_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<Class> {
    Ok(Class {
        id: ClassId(r.get(0)?),
        teacher: TeacherId(r.get(1)?),
        name: r.get(2)?,
        code: r.get(3)?,
        created: r.get(4)?,
    })
}

fn student_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<Student> {
    let code: String = r.get(3)?;
    Ok(Student {
        id: StudentId(r.get(0)?),
        class: ClassId(r.get(1)?),
        name: r.get(2)?,
        code: PictureCode::parse(&code).unwrap_or(PictureCode([0; codes::LENGTH])),
    })
}

fn try_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<Try> {
    let kind: String = r.get(4)?;
    let act = match kind.as_str() {
        "hint" => Act::Hint,
        "solution" => Act::Solution,
        _ => Act::Move {
            before: r.get(5)?,
            played: r.get(6)?,
            verdict: r.get(7)?,
        },
    };
    Ok(Try {
        student: StudentId(r.get(0)?),
        game: r.get(1)?,
        set: r.get(2)?,
        problem: r.get(3)?,
        act,
        at: r.get(8)?,
    })
}

fn reading_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<Reading> {
    let mark: String = r.get(3)?;
    Ok(Reading {
        student: StudentId(r.get(0)?),
        game: r.get(1)?,
        slug: r.get(2)?,
        mark: if mark == "finished" {
            LessonMark::Finished
        } else {
            LessonMark::Opened
        },
        at: r.get(4)?,
    })
}

fn played_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<Played> {
    Ok(Played {
        student: StudentId(r.get(0)?),
        game: r.get(1)?,
        code: r.get(2)?,
        opponent: r.get(3)?,
        at: r.get(4)?,
    })
}

fn assignment_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<Assignment> {
    let tasks: String = r.get(3)?;
    Ok(Assignment {
        id: AssignmentId(r.get(0)?),
        class: ClassId(r.get(1)?),
        title: r.get(2)?,
        tasks: tasks.lines().filter_map(Task::parse).collect(),
        due: r.get(4)?,
        created: r.get(5)?,
    })
}

/// The rows of a history query with one parameter.
fn rows<T>(
    conn: &Connection,
    sql: &str,
    param: i64,
    row: fn(&rusqlite::Row<'_>) -> rusqlite::Result<T>,
) -> Result<Vec<T>, ClassError> {
    let mut stmt = conn.prepare_cached(sql).map_err(db)?;
    let out = stmt
        .query_map([param], row)
        .map_err(db)?
        .collect::<rusqlite::Result<Vec<T>>>()
        .map_err(db)?;
    Ok(out)
}

fn check_title(s: &str) -> Result<&str, ClassError> {
    let s = s.trim();
    if s.is_empty() || s.chars().count() > 100 || s.chars().any(char::is_control) {
        return Err(ClassError::BadTitle);
    }
    Ok(s)
}

const TRIES: &str = "SELECT t.student, t.game, t.set_slug, t.problem, t.kind, t.before, t.played, t.verdict, t.at FROM tries t";
const READINGS: &str = "SELECT r.student, r.game, r.slug, r.mark, r.at FROM readings r";
const GAMES: &str = "SELECT g.student, g.game, g.code, g.opponent, g.at FROM games g";

impl Store for Sqlite {
    fn add_teacher(&self, name: &str, hash: &str) -> Result<TeacherId, ClassError> {
        let name = check_title(name)?;
        let conn = self.write();
        let r = conn.execute(
            "INSERT INTO teachers (name, name_key, hash, created) VALUES (?1, ?2, ?3, ?4)",
            params![name, name_key(name), hash, now()],
        );
        match r {
            Ok(_) => Ok(TeacherId(conn.last_insert_rowid())),
            Err(e) if e.sqlite_error_code() == Some(ErrorCode::ConstraintViolation) => {
                Err(ClassError::TeacherExists(name.to_string()))
            }
            Err(e) => Err(db(e)),
        }
    }

    fn set_password(&self, name: &str, hash: &str) -> Result<(), ClassError> {
        let conn = self.write();
        let n = conn
            .execute(
                "UPDATE teachers SET hash = ?1 WHERE name_key = ?2",
                params![hash, name_key(name)],
            )
            .map_err(db)?;
        if n == 0 {
            return Err(ClassError::NoTeacher(name.to_string()));
        }
        // A new password ends the teacher's sessions.
        conn.execute(
            "DELETE FROM sessions WHERE teacher = (SELECT id FROM teachers WHERE name_key = ?1)",
            [name_key(name)],
        )
        .map_err(db)?;
        Ok(())
    }

    fn teacher_login(&self, name: &str) -> Result<Option<(Teacher, String)>, ClassError> {
        self.read()
            .query_row(
                "SELECT id, name, hash FROM teachers WHERE name_key = ?1",
                [name_key(name)],
                |r| {
                    Ok((
                        Teacher {
                            id: TeacherId(r.get(0)?),
                            name: r.get(1)?,
                        },
                        r.get(2)?,
                    ))
                },
            )
            .optional()
            .map_err(db)
    }

    fn teachers(&self) -> Result<Vec<Teacher>, ClassError> {
        let conn = self.read();
        let mut stmt = conn
            .prepare("SELECT id, name FROM teachers ORDER BY name")
            .map_err(db)?;
        let out = stmt
            .query_map([], |r| {
                Ok(Teacher {
                    id: TeacherId(r.get(0)?),
                    name: r.get(1)?,
                })
            })
            .map_err(db)?
            .collect::<rusqlite::Result<Vec<_>>>()
            .map_err(db)?;
        Ok(out)
    }

    fn create_class(&self, teacher: TeacherId, name: &str) -> Result<Class, ClassError> {
        let name = check_title(name)?;
        let conn = self.write();
        let created = now();
        for _ in 0..20 {
            let code = crate::random::code(6);
            match conn.execute(
                "INSERT INTO classes (teacher, name, code, created) VALUES (?1, ?2, ?3, ?4)",
                params![teacher.0, name, code, created],
            ) {
                Ok(_) => {
                    return Ok(Class {
                        id: ClassId(conn.last_insert_rowid()),
                        teacher,
                        name: name.to_string(),
                        code,
                        created,
                    })
                }
                Err(e) if e.sqlite_error_code() == Some(ErrorCode::ConstraintViolation) => {
                    // The code is taken (or the teacher is gone): try another code.
                    let exists: bool = conn
                        .query_row("SELECT 1 FROM teachers WHERE id = ?1", [teacher.0], |_| {
                            Ok(true)
                        })
                        .optional()
                        .map_err(db)?
                        .unwrap_or(false);
                    if !exists {
                        return Err(ClassError::NotFound);
                    }
                }
                Err(e) => return Err(db(e)),
            }
        }
        Err(ClassError::Database(
            "no free class code after 20 tries".into(),
        ))
    }

    fn classes(&self, teacher: TeacherId) -> Result<Vec<Class>, ClassError> {
        rows(
            &self.read(),
            "SELECT id, teacher, name, code, created FROM classes WHERE teacher = ?1 AND deleted IS NULL ORDER BY id DESC",
            teacher.0,
            class_row,
        )
    }

    fn class(&self, id: ClassId) -> Result<Option<Class>, ClassError> {
        self.read()
            .query_row(
                "SELECT id, teacher, name, code, created FROM classes WHERE id = ?1 AND deleted IS NULL",
                [id.0],
                class_row,
            )
            .optional()
            .map_err(db)
    }

    fn delete_class(&self, teacher: TeacherId, id: ClassId) -> Result<(), ClassError> {
        let mut conn = self.write();
        let tx = conn.transaction().map_err(db)?;
        let n = tx
            .execute(
                "UPDATE classes SET deleted = ?1 WHERE id = ?2 AND teacher = ?3 AND deleted IS NULL",
                params![now(), id.0, teacher.0],
            )
            .map_err(db)?;
        if n == 0 {
            return Err(ClassError::NotFound);
        }
        tx.execute(
            "DELETE FROM sessions WHERE student IN (SELECT id FROM students WHERE class = ?1)",
            [id.0],
        )
        .map_err(db)?;
        tx.commit().map_err(db)
    }

    fn add_students(&self, class: ClassId, roster: &Roster) -> Result<Vec<Student>, ClassError> {
        let mut conn = self.write();
        let tx = conn.transaction().map_err(db)?;
        let live: Option<i64> = tx
            .query_row(
                "SELECT COUNT(s.id) FROM classes c LEFT JOIN students s ON s.class = c.id WHERE c.id = ?1 AND c.deleted IS NULL GROUP BY c.id",
                [class.0],
                |r| r.get(0),
            )
            .optional()
            .map_err(db)?;
        let Some(count) = live else {
            return Err(ClassError::NotFound);
        };
        if count as usize + roster.names.len() > Roster::CLASS_LIMIT {
            return Err(ClassError::ClassFull(Roster::CLASS_LIMIT));
        }
        let mut out = Vec::with_capacity(roster.names.len());
        for name in &roster.names {
            let code = PictureCode::random();
            let r = tx.execute(
                "INSERT INTO students (class, name, name_key, code, created) VALUES (?1, ?2, ?3, ?4, ?5)",
                params![class.0, name, name_key(name), code.to_string(), now()],
            );
            match r {
                Ok(_) => out.push(Student {
                    id: StudentId(tx.last_insert_rowid()),
                    class,
                    name: name.clone(),
                    code,
                }),
                // Dropping the transaction rolls back the names added before this one.
                Err(e) if e.sqlite_error_code() == Some(ErrorCode::ConstraintViolation) => {
                    return Err(ClassError::DuplicateName(name.clone()))
                }
                Err(e) => return Err(db(e)),
            }
        }
        tx.commit().map_err(db)?;
        Ok(out)
    }

    fn students(&self, class: ClassId) -> Result<Vec<Student>, ClassError> {
        let mut out = rows(
            &self.read(),
            "SELECT id, class, name, code FROM students WHERE class = ?1",
            class.0,
            student_row,
        )?;
        out.sort_by(|a, b| a.name.cmp(&b.name));
        Ok(out)
    }

    fn student(&self, id: StudentId) -> Result<Option<Student>, ClassError> {
        self.read()
            .query_row(
                "SELECT id, class, name, code FROM students WHERE id = ?1",
                [id.0],
                student_row,
            )
            .optional()
            .map_err(db)
    }

    fn student_login(&self, class_code: &str, name: &str) -> Result<Option<Student>, ClassError> {
        self.read()
            .query_row(
                "SELECT s.id, s.class, s.name, s.code FROM students s JOIN classes c ON c.id = s.class \
                 WHERE c.code = ?1 AND c.deleted IS NULL AND s.name_key = ?2",
                params![class_code.trim().to_lowercase(), name_key(name)],
                student_row,
            )
            .optional()
            .map_err(db)
    }

    fn open_session(&self, token_hash: &[u8], account: &Account) -> Result<(), ClassError> {
        let (teacher, student) = match account.role {
            Role::Teacher(t) => (Some(t.0), None),
            Role::Student(s, _) => (None, Some(s.0)),
        };
        let conn = self.write();
        // Sessions that have ended go when new ones come: the table stays small.
        conn.execute("DELETE FROM sessions WHERE expires < ?1", [now()])
            .map_err(db)?;
        conn.execute(
            "INSERT INTO sessions (token, teacher, student, csrf, expires) VALUES (?1, ?2, ?3, ?4, ?5)",
            params![token_hash, teacher, student, account.csrf, account.expires],
        )
        .map_err(db)?;
        Ok(())
    }

    fn session(&self, token_hash: &[u8], now: Millis) -> Result<Option<Account>, ClassError> {
        self.read()
            .query_row(
                "SELECT s.teacher, s.student, s.csrf, s.expires, t.name, st.name, st.class \
                 FROM sessions s \
                 LEFT JOIN teachers t ON t.id = s.teacher \
                 LEFT JOIN students st ON st.id = s.student \
                 LEFT JOIN classes c ON c.id = st.class \
                 WHERE s.token = ?1 AND s.expires > ?2 \
                   AND (s.teacher IS NOT NULL OR c.deleted IS NULL)",
                params![token_hash, now],
                |r| {
                    let teacher: Option<i64> = r.get(0)?;
                    let student: Option<i64> = r.get(1)?;
                    let (role, name) = match (teacher, student) {
                        (Some(t), _) => (Role::Teacher(TeacherId(t)), r.get(4)?),
                        (None, Some(s)) => {
                            (Role::Student(StudentId(s), ClassId(r.get(6)?)), r.get(5)?)
                        }
                        (None, None) => return Ok(None),
                    };
                    Ok(Some(Account {
                        role,
                        name,
                        csrf: r.get(2)?,
                        expires: r.get(3)?,
                    }))
                },
            )
            .optional()
            .map(Option::flatten)
            .map_err(db)
    }

    fn close_session(&self, token_hash: &[u8]) -> Result<(), ClassError> {
        self.write()
            .execute("DELETE FROM sessions WHERE token = ?1", [token_hash])
            .map_err(db)?;
        Ok(())
    }

    fn record_try(&self, t: &Try) -> Result<(), ClassError> {
        let (kind, before, played, verdict) = t.act.columns();
        let conn = self.write();
        let mut stmt = conn
            .prepare_cached(
                "INSERT INTO tries (student, game, set_slug, problem, kind, before, played, verdict, at) \
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
            )
            .map_err(db)?;
        stmt.execute(params![
            t.student.0,
            t.game,
            t.set,
            t.problem,
            kind,
            before,
            played,
            verdict,
            t.at
        ])
        .map_err(db)?;
        Ok(())
    }

    fn record_reading(&self, r: &Reading) -> Result<(), ClassError> {
        let mark = match r.mark {
            LessonMark::Opened => "opened",
            LessonMark::Finished => "finished",
        };
        self.write()
            .prepare_cached(
                "INSERT INTO readings (student, game, slug, mark, at) VALUES (?1, ?2, ?3, ?4, ?5)",
            )
            .and_then(|mut s| s.execute(params![r.student.0, r.game, r.slug, mark, r.at]))
            .map_err(db)?;
        Ok(())
    }

    fn record_game(&self, g: &Played) -> Result<(), ClassError> {
        self.write()
            .prepare_cached(
                "INSERT INTO games (student, game, code, opponent, at) VALUES (?1, ?2, ?3, ?4, ?5)",
            )
            .and_then(|mut s| s.execute(params![g.student.0, g.game, g.code, g.opponent, g.at]))
            .map_err(db)?;
        Ok(())
    }

    fn student_history(&self, student: StudentId) -> Result<History, ClassError> {
        let conn = self.read();
        // One read transaction: the three lists agree with each other.
        conn.execute_batch("BEGIN").map_err(db)?;
        let out = (|| {
            Ok(History {
                tries: rows(
                    &conn,
                    &format!("{TRIES} WHERE t.student = ?1 ORDER BY t.id"),
                    student.0,
                    try_row,
                )?,
                readings: rows(
                    &conn,
                    &format!("{READINGS} WHERE r.student = ?1 ORDER BY r.id"),
                    student.0,
                    reading_row,
                )?,
                games: rows(
                    &conn,
                    &format!("{GAMES} WHERE g.student = ?1 ORDER BY g.id"),
                    student.0,
                    played_row,
                )?,
            })
        })();
        let _ = conn.execute_batch("COMMIT");
        out
    }

    fn class_history(&self, class: ClassId) -> Result<History, ClassError> {
        let conn = self.read();
        conn.execute_batch("BEGIN").map_err(db)?;
        let of_class = "JOIN students s ON s.id = student WHERE s.class = ?1";
        let out = (|| {
            Ok(History {
                tries: rows(
                    &conn,
                    &format!("{TRIES} {of_class} ORDER BY t.id"),
                    class.0,
                    try_row,
                )?,
                readings: rows(
                    &conn,
                    &format!("{READINGS} {of_class} ORDER BY r.id"),
                    class.0,
                    reading_row,
                )?,
                games: rows(
                    &conn,
                    &format!("{GAMES} {of_class} ORDER BY g.id"),
                    class.0,
                    played_row,
                )?,
            })
        })();
        let _ = conn.execute_batch("COMMIT");
        out
    }

    fn assign(
        &self,
        class: ClassId,
        title: &str,
        tasks: &[Task],
        due: Option<&str>,
    ) -> Result<Assignment, ClassError> {
        let title = check_title(title)?;
        if tasks.is_empty() {
            return Err(ClassError::BadTask(String::new()));
        }
        if let Some(d) = due {
            check_date(d)?;
        }
        let joined = tasks.iter().map(Task::path).collect::<Vec<_>>().join("\n");
        let conn = self.write();
        let live: bool = conn
            .query_row(
                "SELECT 1 FROM classes WHERE id = ?1 AND deleted IS NULL",
                [class.0],
                |_| Ok(true),
            )
            .optional()
            .map_err(db)?
            .unwrap_or(false);
        if !live {
            return Err(ClassError::NotFound);
        }
        let created = now();
        conn.execute(
            "INSERT INTO assignments (class, title, tasks, due, created) VALUES (?1, ?2, ?3, ?4, ?5)",
            params![class.0, title, joined, due, created],
        )
        .map_err(db)?;
        Ok(Assignment {
            id: AssignmentId(conn.last_insert_rowid()),
            class,
            title: title.to_string(),
            tasks: tasks.to_vec(),
            due: due.map(str::to_string),
            created,
        })
    }

    fn assignments(&self, class: ClassId) -> Result<Vec<Assignment>, ClassError> {
        rows(
            &self.read(),
            "SELECT id, class, title, tasks, due, created FROM assignments WHERE class = ?1 AND deleted IS NULL ORDER BY id DESC",
            class.0,
            assignment_row,
        )
    }

    fn unassign(&self, class: ClassId, id: AssignmentId) -> Result<(), ClassError> {
        let n = self
            .write()
            .execute(
                "UPDATE assignments SET deleted = ?1 WHERE id = ?2 AND class = ?3 AND deleted IS NULL",
                params![now(), id.0, class.0],
            )
            .map_err(db)?;
        if n == 0 {
            return Err(ClassError::NotFound);
        }
        Ok(())
    }

    fn backup(&self, file: &Path) -> Result<(), ClassError> {
        if file.exists() {
            return Err(ClassError::Unwritable(format!(
                "{} exists already: choose a new file name",
                file.display()
            )));
        }
        let target = file
            .to_str()
            .ok_or_else(|| ClassError::Unwritable("the backup path is not UTF-8".into()))?;
        // VACUUM INTO reads one snapshot of the database and writes it whole: a consistent
        // copy while the server goes on writing.
        self.read()
            .execute("VACUUM INTO ?1", [target])
            .map_err(db)?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!(
            "qiyuan-sqlite-{name}-{}-{}",
            std::process::id(),
            crate::random::token()
        ));
        dir
    }

    #[test]
    fn refuses_a_newer_database_without_changing_it() {
        let dir = temp("newer");
        drop(Sqlite::open(&dir).unwrap());
        let c = Connection::open(dir.join(FILE)).unwrap();
        c.pragma_update(None, "user_version", SCHEMA_VERSION + 1)
            .unwrap();
        drop(c);
        let e = Sqlite::open(&dir).err().unwrap();
        assert!(
            matches!(e, ClassError::NewerDatabase { found, .. } if found == SCHEMA_VERSION + 1)
        );
        let c = Connection::open(dir.join(FILE)).unwrap();
        let v: i64 = c
            .query_row("PRAGMA user_version", [], |r| r.get(0))
            .unwrap();
        assert_eq!(v, SCHEMA_VERSION + 1);
        std::fs::remove_dir_all(&dir).ok();
    }

    #[test]
    fn duplicate_name_adds_nobody() {
        let dir = temp("dup");
        let s = Sqlite::open(&dir).unwrap();
        let t = s.add_teacher("T", "h").unwrap();
        let c = s.create_class(t, "C").unwrap();
        s.add_students(c.id, &Roster::parse("小明").unwrap())
            .unwrap();
        let e = s
            .add_students(c.id, &Roster::parse("小红\n小明\n小刚").unwrap())
            .unwrap_err();
        assert!(matches!(e, ClassError::DuplicateName(n) if n == "小明"));
        assert_eq!(s.students(c.id).unwrap().len(), 1);
        std::fs::remove_dir_all(&dir).ok();
    }

    #[test]
    fn deleted_class_ends_its_sessions_and_logins() {
        let dir = temp("deleted");
        let s = Sqlite::open(&dir).unwrap();
        let t = s.add_teacher("T", "h").unwrap();
        let c = s.create_class(t, "C").unwrap();
        let st = s.add_students(c.id, &Roster::parse("A").unwrap()).unwrap();
        let account = Account {
            role: Role::Student(st[0].id, c.id),
            name: "A".into(),
            csrf: "x".into(),
            expires: now() + 60_000,
        };
        s.open_session(b"tok", &account).unwrap();
        assert_eq!(s.session(b"tok", now()).unwrap(), Some(account));
        s.delete_class(t, c.id).unwrap();
        assert_eq!(s.session(b"tok", now()).unwrap(), None);
        assert_eq!(s.student_login(&c.code, "A").unwrap(), None);
        assert!(matches!(s.delete_class(t, c.id), Err(ClassError::NotFound)));
        std::fs::remove_dir_all(&dir).ok();
    }

    #[test]
    fn expired_session_is_no_session() {
        let dir = temp("expired");
        let s = Sqlite::open(&dir).unwrap();
        let t = s.add_teacher("T", "h").unwrap();
        let account = Account {
            role: Role::Teacher(t),
            name: "T".into(),
            csrf: "x".into(),
            expires: 1_000,
        };
        s.open_session(b"tok", &account).unwrap();
        assert_eq!(
            s.session(b"tok", 999).unwrap().map(|a| a.name),
            Some("T".into())
        );
        assert_eq!(s.session(b"tok", 1_000).unwrap(), None);
        std::fs::remove_dir_all(&dir).ok();
    }
}
