//! The teacher's pages: rosters and homework refused with what to fix, the progress grid after
//! a student's real moves, the CSV exports and the class's wrong moves on one problem.

mod common;

use common::school::{login, School, Who};
use common::Reply;
use qiyuan::class::{Act, Roster, Store, Try};
use qiyuan::lang::Lang;

/// Problem 1 of the built-in "captures" set: the marked white stone on D5 has one liberty,
/// D4 (its neighbours C5, E5 and D6 are black), so D4 solves it and A1 is wrong.
const RIGHT: &str = "D4";
const WRONG: &str = "A1";

fn class_path(s: &School, rest: &str) -> String {
    format!("/teacher/classes/{}{rest}", s.class.0)
}

/// A second student of class A, logged in through the real route.
async fn another_student(s: &School, name: &str) -> Who {
    let added = s
        .store
        .add_students(s.class, &Roster::parse(name).unwrap())
        .unwrap();
    login(
        &s.router(),
        "/login/student",
        &format!(
            "class={}&name={name}&code={}",
            s.class_code,
            added[0].code.words(Lang::En).replace(' ', "+")
        ),
    )
    .await
}

/// Plays `mv` on go/captures/1 from the start as `who`, through `/api/attempt`.
async fn play(s: &School, who: &Who, mv: &str) -> Reply {
    let reply = s
        .post_json(
            Some(who),
            "/api/attempt",
            &format!(r#"{{"game":"go","set":"captures","id":"1","play":"{mv}"}}"#),
        )
        .await;
    assert_eq!(reply.status, 200, "{}", reply.body);
    reply
}

#[tokio::test]
async fn roster_with_a_duplicate_is_refused_and_adds_nobody() {
    let s = School::new("roster-dup").await;
    let path = class_path(&s, "/students?lang=en");
    let reply = s
        .post_form(Some(&s.teacher), &path, "csrf={csrf}&names=x1%0Ax2%0Ax1")
        .await;
    assert_eq!(reply.status, 422);
    assert!(reply.body.contains("Nothing was added"), "{}", reply.body);
    assert!(
        reply.body.contains("“x1” is in the list twice"),
        "{}",
        reply.body
    );
    // The list comes back in the form to be fixed.
    assert!(reply.body.contains("x2"));
    // A name the class has already (a1), in Chinese.
    let path = class_path(&s, "/students?lang=zh");
    let reply = s
        .post_form(Some(&s.teacher), &path, "csrf={csrf}&names=y1%0AA1")
        .await;
    assert_eq!(reply.status, 422, "{}", reply.body);
    assert!(reply.body.contains("什么都没有加入"), "{}", reply.body);
    let names: Vec<String> = s
        .store
        .students(s.class)
        .unwrap()
        .into_iter()
        .map(|st| st.name)
        .collect();
    assert_eq!(names, ["a1"]);
    // A good list is added.
    let reply = s
        .post_form(
            Some(&s.teacher),
            &class_path(&s, "/students"),
            "csrf={csrf}&names=x1%0Ax2",
        )
        .await;
    assert_eq!(reply.status, 303);
    assert_eq!(s.store.students(s.class).unwrap().len(), 3);
}

#[tokio::test]
async fn homework_with_an_unknown_task_is_refused() {
    let s = School::new("hw-unknown").await;
    let path = class_path(&s, "/homework?lang=en");
    for body in [
        "csrf={csrf}&title=H&task=go%2Fproblems%2Fcaptures&task=go%2Fproblems%2Fno-such-set",
        "csrf={csrf}&title=H&problems=go%2Fproblems%2Fcaptures%2F999",
        "csrf={csrf}&title=H&problems=..%2Fetc",
    ] {
        let reply = s.post_form(Some(&s.teacher), &path, body).await;
        assert_eq!(reply.status, 422, "{body}: {}", reply.body);
        assert!(
            reply.body.contains("The homework was not given"),
            "{}",
            reply.body
        );
    }
    let reply = s
        .post_form(Some(&s.teacher), &path, "csrf={csrf}&title=H")
        .await;
    assert_eq!(reply.status, 422);
    assert!(reply.body.contains("choose at least one"));
    assert!(s.store.assignments(s.class).unwrap().is_empty());
    // A real set, a lesson and a single problem with a due date are given.
    let reply = s
        .post_form(
            Some(&s.teacher),
            &path,
            "csrf={csrf}&title=H&task=go%2Fproblems%2Fatari&task=go%2Flessons%2Fliberties&problems=go%2Fproblems%2Fcaptures%2F1&due=2026-12-08",
        )
        .await;
    assert_eq!(reply.status, 303, "{}", reply.body);
    let given = s.store.assignments(s.class).unwrap();
    assert_eq!(given.len(), 1);
    assert_eq!(given[0].tasks.len(), 3);
    assert_eq!(given[0].due.as_deref(), Some("2026-12-08"));
}

#[tokio::test]
async fn grid_shows_each_students_status_after_real_moves() {
    let s = School::new("grid").await;
    let reply = s
        .post_form(
            Some(&s.teacher),
            &class_path(&s, "/homework"),
            "csrf={csrf}&title=Captures&problems=go%2Fproblems%2Fcaptures%2F1+go%2Fproblems%2Fcaptures%2F2",
        )
        .await;
    assert_eq!(reply.status, 303, "{}", reply.body);
    let a2 = another_student(&s, "a2").await;
    let a3 = another_student(&s, "a3").await;
    // a1: wrong, then right; a2: right at once; a3: wrong only.
    assert_eq!(play(&s, &s.student, WRONG).await.json()["verdict"], "wrong");
    assert_eq!(play(&s, &a3, WRONG).await.json()["verdict"], "wrong");
    assert_eq!(
        play(&s, &s.student, RIGHT).await.json()["verdict"],
        "solved"
    );
    play(&s, &a2, RIGHT).await;

    let page = s.get(Some(&s.teacher), &class_path(&s, "?lang=en")).await;
    assert_eq!(page.status, 200);
    let cell = |name: &str, status: &str| {
        format!("class=\"st {status}\" title=\"{name} · Capturing practice · Problem 1: ")
    };
    for (name, status) in [
        ("a1", "after-mistakes"),
        ("a2", "first-try"),
        ("a3", "failed"),
    ] {
        assert!(
            page.body.contains(&cell(name, status)),
            "{name} {status}: {}",
            page.body
        );
    }
    let untried = "class=\"st not-started\" title=\"a1 · Capturing practice · Problem 2: ";
    assert!(page.body.contains(untried));
    assert!(page.body.contains("2/3 solved"));
    assert!(page.body.contains("0/3 solved"));
    // The class page leads to its live board, and the student's home page to theirs.
    let live = format!("<a href=\"{}\">Live board</a>", class_path(&s, "/live"));
    assert!(page.body.contains(&live), "{}", page.body);
    let home = s.get(Some(&s.student), "/me?lang=en").await;
    assert!(
        home.body.contains("<a href=\"/live\">Live board</a>"),
        "{}",
        home.body
    );
    // The student's page draws the moves, the wrong one marked.
    let sid = s.store.students(s.class).unwrap()[0].id.0;
    let student = s
        .get(
            Some(&s.teacher),
            &class_path(&s, &format!("/students/{sid}?lang=en")),
        )
        .await;
    assert_eq!(student.status, 200);
    assert!(student.body.contains("✗ A1 — "), "{}", student.body);
    assert!(student.body.contains("✓ D4 — "), "{}", student.body);
    assert!(student.body.matches("<svg").count() >= 2);
}

#[tokio::test]
async fn csv_exports_have_a_bom_and_escape_formulas() {
    let s = School::new("csv").await;
    let added = s
        .store
        .add_students(
            s.class,
            &Roster::parse("=HYPERLINK(\"x\")\n@evil\n小明").unwrap(),
        )
        .unwrap();
    for st in &added {
        s.store
            .record_try(&Try {
                student: st.id,
                game: "go".into(),
                set: "captures".into(),
                problem: "1".into(),
                act: Act::Move {
                    before: String::new(),
                    played: "-D4".into(),
                    verdict: "wrong".into(),
                },
                at: 1_796_083_200_000,
            })
            .unwrap();
    }
    let reply = s
        .get(Some(&s.teacher), &class_path(&s, "/attempts.csv"))
        .await;
    assert_eq!(reply.status, 200);
    assert!(reply.body.starts_with('\u{feff}'));
    assert!(reply.headers["content-disposition"]
        .to_str()
        .unwrap()
        .starts_with("attachment"));
    let lines: Vec<&str> = reply.body.trim_start_matches('\u{feff}').lines().collect();
    assert_eq!(
        lines[0],
        "student,game,set,problem,kind,moves before,move,verdict,time"
    );
    assert!(
        lines.contains(
            &"\"'=HYPERLINK(\"\"x\"\")\",go,captures,1,move,,'-D4,wrong,2026-12-01T00:00:00Z"
        ),
        "{lines:?}"
    );
    assert!(lines.contains(&"'@evil,go,captures,1,move,,'-D4,wrong,2026-12-01T00:00:00Z"));
    assert!(lines.contains(&"小明,go,captures,1,move,,'-D4,wrong,2026-12-01T00:00:00Z"));
    s.store
        .assign(
            s.class,
            "=cmd",
            &[qiyuan::class::Task::parse("go/problems/captures/1").unwrap()],
            None,
        )
        .unwrap();
    let grid = s
        .get(Some(&s.teacher), &class_path(&s, "/grid.csv?lang=en"))
        .await;
    assert!(grid.body.starts_with('\u{feff}'));
    let lines: Vec<&str> = grid.body.trim_start_matches('\u{feff}').lines().collect();
    assert_eq!(
        lines[0],
        "student,'=cmd / Capturing practice · Problem 1 (go/problems/captures/1)"
    );
    assert!(lines.contains(&"'@evil,failed"));
    assert!(lines.contains(&"a1,not-started"));
}

#[tokio::test]
async fn problem_page_ranks_the_wrong_move_of_two_students_first() {
    let s = School::new("wrong-moves").await;
    let a2 = another_student(&s, "a2").await;
    // B2: one student, three times; A1: two students, once each.
    for _ in 0..3 {
        play(&s, &s.student, "B2").await;
    }
    play(&s, &s.student, WRONG).await;
    play(&s, &a2, WRONG).await;
    let page = s
        .get(
            Some(&s.teacher),
            &class_path(&s, "/problems/go/captures/1?lang=en"),
        )
        .await;
    assert_eq!(page.status, 200);
    let first = page.body.find("A1: played by 2 students (2 times)");
    let second = page.body.find("B2: played by 1 students (3 times)");
    assert!(first.is_some() && second.is_some(), "{}", page.body);
    assert!(first < second);
    // Each wrong move is drawn.
    let list = &page.body[page.body.find("wrong-moves").unwrap()..];
    assert!(list.matches("<svg").count() >= 2);
    // A problem the content does not have is not found.
    let none = s
        .get(
            Some(&s.teacher),
            &class_path(&s, "/problems/go/captures/999"),
        )
        .await;
    assert_eq!(none.status, 404);
}

/// Xiangqi in the classroom as the other games: homework of a xiangqi kill, a student's
/// wrong, refused (a horse that cannot go so) and winning moves recorded and shown on the
/// teacher's grid and the student's page.
#[tokio::test]
async fn xiangqi_homework_records_each_move_and_shows_on_the_grid() {
    let s = School::new("xiangqi").await;
    let reply = s
        .post_form(
            Some(&s.teacher),
            &class_path(&s, "/homework"),
            "csrf={csrf}&title=Kills&problems=xiangqi%2Fproblems%2Fbasic-kills%2F1",
        )
        .await;
    assert_eq!(reply.status, 303, "{}", reply.body);
    for (mv, verdict) in [("a4a5", "wrong"), ("e7e5", "illegal"), ("a4e4", "solved")] {
        let reply = s
            .post_json(
                Some(&s.student),
                "/api/attempt",
                &format!(r#"{{"game":"xiangqi","set":"basic-kills","id":"1","play":"{mv}"}}"#),
            )
            .await;
        assert_eq!(reply.status, 200, "{}", reply.body);
        assert_eq!(reply.json()["verdict"], verdict, "{mv}: {}", reply.body);
    }
    let page = s.get(Some(&s.teacher), &class_path(&s, "?lang=en")).await;
    assert_eq!(page.status, 200);
    assert!(
        page.body.contains(
            "class=\"st after-mistakes\" title=\"a1 · Mate in one: the basic kills · Problem 1: "
        ),
        "{}",
        page.body
    );
    let sid = s.store.students(s.class).unwrap()[0].id.0;
    let student = s
        .get(
            Some(&s.teacher),
            &class_path(&s, &format!("/students/{sid}?lang=en")),
        )
        .await;
    assert_eq!(student.status, 200);
    assert!(
        student.body.contains("✓ a4e4 — ") || student.body.contains("✓ 炮九平五"),
        "{}",
        student.body
    );
    assert!(student.body.matches("<svg").count() >= 2);
}
