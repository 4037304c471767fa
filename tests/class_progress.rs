//! What the server records of a logged-in student: every move judged (by script and by
//! links), a look at the solution, hints, lessons opened and read, games, and the browser's
//! earlier progress merged once; nothing of anyone else.

mod common;

use common::school::School;
use qiyuan::class::{progress, Act, LessonMark, Status, Store, Task};

fn attempt(play: &str) -> String {
    format!(r#"{{"game":"go","set":"captures","id":"1","moves":[],"play":"{play}","lang":"en"}}"#)
}

#[tokio::test]
async fn records_every_judged_move_of_a_student_and_nobody_elses() {
    let s = School::new("moves").await;
    // A wrong move, an illegal one (D6 holds a black stone), then the answer D4.
    for (play, verdict) in [("A1", "wrong"), ("D6", "illegal"), ("D4", "solved")] {
        let r = s
            .post_json(Some(&s.student), "/api/attempt", &attempt(play))
            .await;
        assert_eq!(r.status, 200, "{}", r.body);
        assert_eq!(r.json()["verdict"], verdict);
    }
    // The teacher, another class's student without a session and an anonymous learner are
    // judged the same and recorded nowhere.
    s.post_json(Some(&s.teacher), "/api/attempt", &attempt("A1"))
        .await;
    s.post_json(None, "/api/attempt", &attempt("A1")).await;
    let h = s.store.student_history(s.student_id).unwrap();
    let moves: Vec<(String, String)> = h
        .tries
        .iter()
        .map(|t| match &t.act {
            Act::Move {
                played, verdict, ..
            } => (played.clone(), verdict.clone()),
            other => panic!("{other:?}"),
        })
        .collect();
    assert_eq!(
        moves,
        [
            ("A1".into(), "wrong".into()),
            ("D6".into(), "illegal".into()),
            ("D4".into(), "solved".into())
        ]
    );
    let summary = &progress::summarize(&h.tries)
        [&(s.student_id, Task::parse("go/problems/captures/1").unwrap())];
    assert_eq!(
        (summary.status, summary.mistakes),
        (Status::AfterMistakes, 2)
    );
    assert!(s
        .store
        .student_history(s.other_student_id)
        .unwrap()
        .tries
        .is_empty());
}

#[tokio::test]
async fn records_moves_played_by_links_and_a_look_at_the_solution() {
    let s = School::new("links").await;
    let page = s
        .get(Some(&s.student), "/go/problems/captures/1?play=D4&lang=en")
        .await;
    assert_eq!(page.status, 200);
    let page = s
        .get(Some(&s.student), "/go/problems/captures/2?solution=1")
        .await;
    assert_eq!(page.status, 200);
    let h = s.store.student_history(s.student_id).unwrap();
    assert_eq!(h.tries.len(), 2, "{:?}", h.tries);
    assert!(
        matches!(&h.tries[0].act, Act::Move { played, verdict, .. } if played == "D4" && verdict == "solved")
    );
    assert_eq!(
        (h.tries[1].problem.as_str(), &h.tries[1].act),
        ("2", &Act::Solution)
    );
    let all = progress::summarize(&h.tries);
    assert_eq!(
        all[&(s.student_id, Task::parse("go/problems/captures/1").unwrap())].status,
        Status::FirstTry
    );
    assert_eq!(
        all[&(s.student_id, Task::parse("go/problems/captures/2").unwrap())].status,
        Status::Failed
    );
}

#[tokio::test]
async fn records_lessons_opened_and_read_hints_and_games() {
    let s = School::new("lessons").await;
    let page = s.get(Some(&s.student), "/go/lessons/liberties").await;
    assert_eq!(page.status, 200);
    assert!(
        page.body.contains("action=\"/me/read\""),
        "no read form for a student"
    );
    assert!(page.body.contains(">a1<"), "the header names the student");
    let read = s
        .post_form(
            Some(&s.student),
            "/me/read",
            "csrf={csrf}&game=go&slug=liberties",
        )
        .await;
    assert_eq!(read.status, 303);
    let hint = s
        .post_json(
            Some(&s.student),
            "/api/class/event",
            r#"{"kind":"hint","game":"go","set":"captures","id":"3","csrf":"{csrf}"}"#,
        )
        .await;
    assert_eq!(hint.status, 204);
    let game = s
        .post_form(
            Some(&s.student),
            "/play",
            "game=go&opponent=computer&level=1&size=9",
        )
        .await;
    assert_eq!(game.status, 303, "{}", game.body);
    let h = s.store.student_history(s.student_id).unwrap();
    let marks: Vec<LessonMark> = h.readings.iter().map(|r| r.mark).collect();
    assert_eq!(marks, [LessonMark::Opened, LessonMark::Finished]);
    assert_eq!(h.tries[0].act, Act::Hint);
    assert_eq!(h.games.len(), 1);
    assert_eq!(h.games[0].opponent, "computer, level 1");
    // Anonymous pages are the same as before: no read form, no name, and cached.
    let anon = s.get(None, "/go/lessons/liberties").await;
    assert!(!anon.body.contains("/me/read"));
}

#[tokio::test]
async fn merges_the_browsers_progress_once() {
    let s = School::new("merge").await;
    let body = r#"{"csrf":"{csrf}","entries":[
        {"key":"go/captures/1","state":"solved","t":1700000000000},
        {"key":"chess/mate-in-one/2","state":"failed"},
        {"key":"go/../x","state":"solved"},
        {"key":"go/captures/2","state":"unknown"}]}"#;
    let first = s
        .post_json(Some(&s.student), "/api/class/merge", body)
        .await;
    assert_eq!(first.json()["merged"], 2, "{}", first.body);
    let second = s
        .post_json(Some(&s.student), "/api/class/merge", body)
        .await;
    assert_eq!(second.json()["merged"], 0);
    let h = s.store.student_history(s.student_id).unwrap();
    let all = progress::summarize(&h.tries);
    assert_eq!(
        all[&(s.student_id, Task::parse("go/problems/captures/1").unwrap())].status,
        Status::FirstTry
    );
    assert_eq!(
        all[&(
            s.student_id,
            Task::parse("chess/problems/mate-in-one/2").unwrap()
        )]
            .status,
        Status::Failed
    );
}

#[tokio::test]
async fn the_homework_page_shows_what_is_due_and_how_far() {
    let s = School::new("homework").await;
    s.store
        .assign(
            s.class,
            "第一周 <b>",
            &[
                Task::parse("go/problems/captures/1").unwrap(),
                Task::parse("go/problems/captures/2").unwrap(),
                Task::parse("go/lessons/liberties").unwrap(),
            ],
            Some("2000-01-01"),
        )
        .unwrap();
    s.post_json(Some(&s.student), "/api/attempt", &attempt("D4"))
        .await;
    let me = s.get(Some(&s.student), "/me?lang=en").await;
    assert_eq!(me.status, 200);
    assert!(me.body.contains("第一周 &"), "{}", me.body);
    assert!(!me.body.contains("第一周 <b>"), "the title is escaped");
    assert!(me.body.contains("1 of 3 done"), "{}", me.body);
    assert!(me.body.contains("past its due date"));
    // The other class sees none of it.
    let other = s.get(Some(&s.other_student), "/me?lang=en").await;
    assert!(!other.body.contains("第一周"));
}

#[tokio::test]
async fn wrong_login_answers_are_all_the_same_and_limited() {
    let s = School::new("login").await;
    let student = s.store.student_login(&s.class_code, "a1").unwrap().unwrap();
    let wrong_code = format!("class={}&name=a1&code=0-0-0", s.class_code);
    let wrong_code = if student.code.to_string() == "0-0-0" {
        wrong_code.replace("0-0-0", "1-1-1")
    } else {
        wrong_code
    };
    let wrong_name = format!("class={}&name=nobody&code={}", s.class_code, student.code);
    let wrong_class = format!("class=zzzzzz&name=a1&code={}", student.code);
    let mut bodies = Vec::new();
    for body in [&wrong_code, &wrong_name, &wrong_class] {
        let r = s.post_form(None, "/login/student?lang=en", body).await;
        assert_eq!(r.status, 401);
        let msg = r
            .body
            .split("role=\"alert\">")
            .nth(1)
            .unwrap()
            .split('<')
            .next()
            .unwrap()
            .to_string();
        bodies.push(msg);
    }
    assert!(bodies.iter().all(|b| b == &bodies[0]), "{bodies:?}");
    // Eight failures for one name lock it, even with the right code.
    for _ in 0..7 {
        s.post_form(None, "/login/student", &wrong_code).await;
    }
    let right = format!("class={}&name=a1&code={}", s.class_code, student.code);
    let locked = s.post_form(None, "/login/student", &right).await;
    assert_eq!(locked.status, 429);
}
