//! The classroom's SQLite store against a real file: a restart keeps everything, 500
//! students writing at once lose no row, `kill -9` loses nothing committed, a full disk
//! half-writes nothing, a backup is consistent while writes go on.

mod common;

use qiyuan::class::sqlite::{Sqlite, FILE};
use qiyuan::class::{now, password, Act, ClassError, Roster, Store, StudentId, Task, Try};
use std::io::{BufRead, BufReader};
use std::path::PathBuf;
use std::sync::Arc;

fn temp(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!(
        "qiyuan-store-{name}-{}-{}",
        std::process::id(),
        qiyuan::random::token()
    ))
}

fn a_try(student: StudentId, n: usize) -> Try {
    Try {
        student,
        game: "go".into(),
        set: "captures".into(),
        problem: (n % 7 + 1).to_string(),
        act: Act::Move {
            before: String::new(),
            played: "D4".into(),
            verdict: if n % 3 == 0 { "wrong" } else { "solved" }.into(),
        },
        at: now(),
    }
}

#[test]
fn restart_keeps_everything() {
    let dir = temp("restart");
    let (class, code, student) = {
        let s = Sqlite::open(&dir).unwrap();
        let t = s
            .add_teacher("王老师", &password::hash("12345678"))
            .unwrap();
        let c = s.create_class(t, "三年级二班").unwrap();
        let st = s
            .add_students(c.id, &Roster::parse("小明\n小红").unwrap())
            .unwrap();
        s.record_try(&a_try(st[0].id, 1)).unwrap();
        s.assign(
            c.id,
            "第一周",
            &[Task::parse("go/problems/captures").unwrap()],
            Some("2026-12-08"),
        )
        .unwrap();
        (c, st[1].code, st[0].id)
    };
    let s = Sqlite::open(&dir).unwrap();
    let (t, hash) = s.teacher_login("王老师").unwrap().unwrap();
    assert!(password::verify("12345678", &hash));
    assert_eq!(s.classes(t.id).unwrap(), vec![class.clone()]);
    let names: Vec<_> = s
        .students(class.id)
        .unwrap()
        .into_iter()
        .map(|x| x.name)
        .collect();
    assert_eq!(names, ["小明", "小红"]);
    assert_eq!(
        s.student_login(&class.code, "小红").unwrap().unwrap().code,
        code
    );
    assert_eq!(s.student_history(student).unwrap().tries.len(), 1);
    let hw = s.assignments(class.id).unwrap();
    assert_eq!(hw.len(), 1);
    assert_eq!(hw[0].due.as_deref(), Some("2026-12-08"));
    std::fs::remove_dir_all(&dir).ok();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn five_hundred_students_writing_at_once_lose_no_row() {
    let dir = temp("500");
    let store = Arc::new(Sqlite::open(&dir).unwrap());
    let t = store.add_teacher("T", "x").unwrap();
    let mut students = Vec::new();
    for c in 0..10 {
        let class = store.create_class(t, &format!("C{c}")).unwrap();
        let names: Vec<String> = (0..50).map(|i| format!("s{c}-{i}")).collect();
        students.extend(
            store
                .add_students(class.id, &Roster::parse(&names.join("\n")).unwrap())
                .unwrap(),
        );
    }
    assert_eq!(students.len(), 500);
    let per = 6;
    let mut tasks = Vec::new();
    for s in &students {
        let (store, id) = (store.clone(), s.id);
        tasks.push(tokio::task::spawn_blocking(move || {
            for n in 0..per {
                store.record_try(&a_try(id, n)).unwrap();
            }
        }));
    }
    for t in tasks {
        t.await.unwrap();
    }
    let counted: usize = students
        .iter()
        .map(|s| store.student_history(s.id).unwrap().tries.len())
        .sum();
    assert_eq!(counted, 500 * per);
    // And from a fresh connection, counted by SQLite itself.
    let conn = rusqlite_count(&dir);
    assert_eq!(conn, 500 * per as i64);
    std::fs::remove_dir_all(&dir).ok();
}

fn rusqlite_count(dir: &std::path::Path) -> i64 {
    let s = Sqlite::open(dir).unwrap();
    let t = s.teachers().unwrap();
    let mut n = 0;
    for teacher in t {
        for c in s.classes(teacher.id).unwrap() {
            n += s.class_history(c.id).unwrap().tries.len() as i64;
        }
    }
    n
}

/// The child of `kill_minus_nine_loses_nothing_committed`: writes tries and prints the count
/// after each commit, until killed.
#[test]
fn child_writer() {
    let Some(dir) = std::env::var_os("QIYUAN_KILL_CHILD") else {
        return;
    };
    let store = Sqlite::open(std::path::Path::new(&dir)).unwrap();
    let t = store.add_teacher("T", "x").unwrap();
    let c = store.create_class(t, "C").unwrap();
    let s = store
        .add_students(c.id, &Roster::parse("a").unwrap())
        .unwrap();
    for n in 1.. {
        store.record_try(&a_try(s[0].id, n)).unwrap();
        println!("committed {n}");
    }
}

#[test]
fn kill_minus_nine_loses_nothing_committed() {
    let dir = temp("kill");
    std::fs::create_dir_all(&dir).unwrap();
    let mut child = std::process::Command::new(std::env::current_exe().unwrap())
        .args(["--exact", "child_writer", "--nocapture", "--test-threads=1"])
        .env("QIYUAN_KILL_CHILD", &dir)
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut last = 0u64;
    let out = BufReader::new(child.stdout.take().unwrap());
    for line in out.lines() {
        let line = line.unwrap();
        if let Some(n) = line.strip_prefix("committed ") {
            last = n.parse().unwrap();
            if last >= 400 {
                break;
            }
        }
    }
    // SIGKILL, in the middle of the writes.
    child.kill().unwrap();
    child.wait().unwrap();
    assert!(last >= 400);
    let counted = rusqlite_count(&dir);
    assert!(
        counted as u64 >= last,
        "{counted} rows after kill -9, {last} were committed"
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_full_disk_half_writes_nothing() {
    let dir = temp("full");
    let s = Sqlite::open(&dir).unwrap();
    let t = s.add_teacher("T", "x").unwrap();
    let c = s.create_class(t, "C").unwrap();
    let pages: u32 = {
        let size = std::fs::metadata(dir.join(FILE)).unwrap().len();
        (size / 4096) as u32 + 2
    };
    s.simulate_full_disk(pages).unwrap();
    let long: Vec<String> = (0..200)
        .map(|i| format!("{}{i}", "名".repeat(30)))
        .collect();
    let e = s
        .add_students(c.id, &Roster::parse(&long.join("\n")).unwrap())
        .unwrap_err();
    assert!(matches!(e, ClassError::Unwritable(_)), "{e}");
    assert!(e.to_string().contains("nothing was saved"));
    assert_eq!(
        s.students(c.id).unwrap().len(),
        0,
        "half a roster was written"
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn backup_while_writing_is_consistent_and_never_overwrites() {
    let dir = temp("backup");
    let store = Arc::new(Sqlite::open(&dir).unwrap());
    let t = store.add_teacher("T", "x").unwrap();
    let c = store.create_class(t, "C").unwrap();
    let s = store
        .add_students(c.id, &Roster::parse("a").unwrap())
        .unwrap();
    let writer = {
        let (store, id) = (store.clone(), s[0].id);
        std::thread::spawn(move || {
            for n in 0..2_000 {
                store.record_try(&a_try(id, n)).unwrap();
            }
        })
    };
    let file = dir.join("copy.db");
    store.backup(&file).unwrap();
    writer.join().unwrap();
    // The copy opens as a data folder of its own and holds a prefix of the writes.
    let restored = temp("restored");
    std::fs::create_dir_all(&restored).unwrap();
    std::fs::copy(&file, restored.join(FILE)).unwrap();
    let r = Sqlite::open(&restored).unwrap();
    let copied = r.student_history(s[0].id).unwrap().tries.len();
    assert!(copied <= 2_000);
    assert_eq!(r.students(c.id).unwrap().len(), 1);
    let again = store.backup(&file).unwrap_err();
    assert!(again.to_string().contains("exists already"), "{again}");
    std::fs::remove_dir_all(&dir).ok();
    std::fs::remove_dir_all(&restored).ok();
}
