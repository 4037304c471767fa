//! The live board: a teacher opens a problem for a class of 40, every student answers at
//! once through the HTTP API, the teacher's event stream sees all 40 answers on the heat map,
//! each answer is judged and recorded as a try; the reveal, the next problem and stop.

mod common;

use axum::body::Body;
use axum::http::{header, Request};
use common::school::{login, School, Who};
use http_body_util::BodyExt;
use qiyuan::class::{Act, Roster, Store};
use qiyuan::lang::Lang;
use serde_json::Value;
use std::time::Duration;
use tower::ServiceExt;

/// An open stream of server-sent events.
struct Events {
    body: Body,
    buffer: String,
}

impl Events {
    async fn open(s: &School, who: &Who, path: &str) -> Events {
        let response = s
            .router()
            .oneshot(
                Request::get(path)
                    .header(header::HOST, "localhost")
                    .header(header::COOKIE, &who.cookie)
                    .body(Body::empty())
                    .unwrap(),
            )
            .await
            .unwrap();
        assert_eq!(response.status(), 200, "{path}");
        assert_eq!(
            response.headers()[header::CONTENT_TYPE],
            "text/event-stream",
            "{path}"
        );
        Events {
            body: response.into_body(),
            buffer: String::new(),
        }
    }

    /// The next event's name and data (a guard of 20 s against a hang, not a timing test).
    async fn next(&mut self) -> (String, Value) {
        loop {
            if let Some(end) = self.buffer.find("\n\n") {
                let block: String = self.buffer.drain(..end + 2).collect();
                let mut name = String::new();
                let mut data = String::new();
                for line in block.lines() {
                    if let Some(n) = line.strip_prefix("event:") {
                        name = n.trim().to_string();
                    } else if let Some(d) = line.strip_prefix("data:") {
                        data.push_str(d.trim_start());
                    }
                }
                if name.is_empty() {
                    continue; // a keep-alive comment
                }
                return (name, serde_json::from_str(&data).unwrap());
            }
            let frame = tokio::time::timeout(Duration::from_secs(20), self.body.frame())
                .await
                .expect("an event within 20 s")
                .expect("the stream is open")
                .unwrap();
            if let Ok(bytes) = frame.into_data() {
                self.buffer.push_str(&String::from_utf8_lossy(&bytes));
            }
        }
    }

    /// Reads events until one satisfies `done`.
    async fn until(&mut self, done: impl Fn(&Value) -> bool) -> Value {
        loop {
            let (_, data) = self.next().await;
            if done(&data) {
                return data;
            }
        }
    }
}

/// The heat map of a teacher's event as (point, count, right).
fn heat(event: &Value) -> Vec<(String, u64, bool)> {
    let mut h: Vec<(String, u64, bool)> = event["heat"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                c["p"].as_str().unwrap().to_string(),
                c["n"].as_u64().unwrap(),
                c["right"].as_bool().unwrap(),
            )
        })
        .collect();
    h.sort();
    h
}

/// Class A with `n` students in all, every one logged in.
async fn class_of(s: &School, n: usize) -> Vec<Who> {
    let names: Vec<String> = (2..=n).map(|i| format!("s{i}")).collect();
    let added = s
        .store
        .add_students(s.class, &Roster::parse(&names.join("\n")).unwrap())
        .unwrap();
    let router = s.router();
    let mut who = vec![s.student.clone()];
    for st in added {
        who.push(
            login(
                &router,
                "/login/student",
                &format!(
                    "class={}&name={}&code={}",
                    s.class_code,
                    st.name,
                    st.code.words(Lang::En).replace(' ', "+")
                ),
            )
            .await,
        );
    }
    who
}

#[tokio::test]
async fn forty_students_answer_at_once_and_the_teacher_sees_every_answer() {
    let s = School::new("live40").await;
    let students = class_of(&s, 40).await;
    let class = s.class.0;
    let live = format!("/teacher/classes/{class}/live");

    // Nothing live yet: the student's page says so; its stream says no problem.
    let idle = s.get(Some(&s.student), "/live").await;
    assert_eq!(idle.status, 200);
    assert!(idle.body.contains("live-idle"), "{}", idle.body);
    let mut student_events = Events::open(&s, &s.student, "/live/events").await;
    let (name, first) = student_events.next().await;
    assert_eq!(name, "live");
    assert!(first["problem"].is_null());

    // The teacher opens captures #1 (the book's answer: D4, the white stone's last liberty).
    let started = s
        .post_form(
            Some(&s.teacher),
            &live,
            "csrf={csrf}&problem=go%2Fproblems%2Fcaptures%2F1",
        )
        .await;
    assert_eq!(started.status, 303, "{}", started.body);
    let switched = student_events.until(|e| !e["problem"].is_null()).await;
    assert_eq!(switched["problem"], "go/problems/captures/1");
    assert_eq!(switched["revealed"], false);
    let round = switched["round"].as_u64().unwrap();

    let page = s.get(Some(&s.student), "/live").await;
    assert_eq!(page.status, 200);
    assert_eq!(page.body.matches("<a href=\"/live?play=").count(), 81);
    assert!(page.body.contains("http-equiv=\"refresh\""));

    let mut teacher = Events::open(&s, &s.teacher, &format!("{live}/events")).await;
    let (name, before) = teacher.next().await;
    assert_eq!(name, "tally");
    assert_eq!(before["answered"], 0);
    assert_eq!(before["class_size"], 40);

    // 25 answer D4 (right), 15 answer E4 (legal, wrong), all at once.
    let answers = students.iter().enumerate().map(|(i, who)| {
        let mv = if i < 25 { "D4" } else { "E4" };
        let body = format!("csrf={{csrf}}&round={round}&answer={mv}");
        let s = &s;
        async move { s.post_form(Some(who), "/live/answer", &body).await }
    });
    for reply in futures_util::future::join_all(answers).await {
        assert_eq!(reply.status, 303, "{}", reply.body);
    }
    let all = teacher.until(|e| e["answered"] == 40).await;
    assert_eq!(
        heat(&all),
        [("D4".to_string(), 25, false), ("E4".to_string(), 15, false)]
    );
    assert!(all["html"]
        .as_str()
        .unwrap()
        .contains("class=\"heat-cell\" data-p=\"D4\""));

    // Before the reveal a student sees their answer, not the verdict.
    let mine = s.get(Some(&students[30]), "/live").await;
    assert!(mine.body.contains("id=\"live-mine\""), "{}", mine.body);
    assert!(!mine.body.contains("live-verdict"));

    // Every answer is a try on the dashboard, judged by the puzzles' judge.
    let tries = s.store.class_history(s.class).unwrap().tries;
    let verdicts: Vec<(String, String)> = tries
        .iter()
        .filter_map(|t| match &t.act {
            Act::Move {
                played, verdict, ..
            } if t.problem == "1" && t.set == "captures" => Some((played.clone(), verdict.clone())),
            _ => None,
        })
        .collect();
    assert_eq!(verdicts.len(), 40);
    assert_eq!(
        verdicts
            .iter()
            .filter(|v| v.0 == "D4" && v.1 == "solved")
            .count(),
        25
    );
    assert_eq!(
        verdicts
            .iter()
            .filter(|v| v.0 == "E4" && v.1 == "wrong")
            .count(),
        15
    );

    // A student changes their answer: still 40 answers, the heat moves.
    let changed = s
        .post_form(Some(&students[39]), "/live/answer", "csrf={csrf}&answer=D4")
        .await;
    assert_eq!(changed.status, 303);
    let moved = teacher
        .until(|e| heat(e).first().map(|h| h.1) == Some(26))
        .await;
    assert_eq!(moved["answered"], 40);

    // An illegal move is no answer: refused at once, not recorded.
    let illegal = s
        .post_form(Some(&students[0]), "/live/answer", "csrf={csrf}&answer=D5")
        .await;
    assert_eq!(illegal.status, 422);
    assert_eq!(s.store.class_history(s.class).unwrap().tries.len(), 41);

    // The reveal: students' screens change, the right point is marked.
    let revealed = s
        .post_form(Some(&s.teacher), &format!("{live}/reveal"), "csrf={csrf}")
        .await;
    assert_eq!(revealed.status, 303);
    let told = student_events.until(|e| e["revealed"] == true).await;
    assert_eq!(told["round"], round);
    let shown = teacher.until(|e| e["revealed"] == true).await;
    assert_eq!(
        heat(&shown),
        [("D4".to_string(), 26, true), ("E4".to_string(), 14, false)]
    );
    let right = s.get(Some(&students[0]), "/live").await;
    assert!(right.body.contains("verdict solved"), "{}", right.body);
    let wrong = s.get(Some(&students[30]), "/live").await;
    assert!(wrong.body.contains("verdict wrong"), "{}", wrong.body);
    let late = s
        .post_form(Some(&students[1]), "/live/answer", "csrf={csrf}&answer=E4")
        .await;
    assert_eq!(late.status, 409);

    // Next: captures #2, answers cleared; an answer for the old round is not taken.
    let next = s
        .post_form(Some(&s.teacher), &format!("{live}/next"), "csrf={csrf}")
        .await;
    assert_eq!(next.status, 303);
    let second = student_events
        .until(|e| e["problem"] == "go/problems/captures/2")
        .await;
    assert_eq!(second["revealed"], false);
    let stale = s
        .post_form(
            Some(&students[2]),
            "/live/answer",
            &format!("csrf={{csrf}}&round={round}&answer=D4"),
        )
        .await;
    assert_eq!(stale.status, 303);
    let cleared = teacher
        .until(|e| e["problem"] == "go/problems/captures/2")
        .await;
    assert_eq!(cleared["answered"], 0);

    // Stop: nothing live.
    let stop = s
        .post_form(Some(&s.teacher), &format!("{live}/stop"), "csrf={csrf}")
        .await;
    assert_eq!(stop.status, 303);
    let ended = student_events.until(|e| e["problem"].is_null()).await;
    assert!(ended["round"].as_u64().unwrap() > round);
}

#[tokio::test]
async fn another_class_gets_nothing_of_this_class_board() {
    let s = School::new("liveother").await;
    let class = s.class.0;
    let started = s
        .post_form(
            Some(&s.teacher),
            &format!("/teacher/classes/{class}/live"),
            "csrf={csrf}&problem=go%2Fproblems%2Fcaptures%2F1",
        )
        .await;
    assert_eq!(started.status, 303);
    // Class B's student: their own class has nothing live.
    let page = s.get(Some(&s.other_student), "/live").await;
    assert_eq!(page.status, 200);
    assert!(page.body.contains("live-idle"));
    assert!(!page.body.contains("play="));
    let answer = s
        .post_form(
            Some(&s.other_student),
            "/live/answer",
            "csrf={csrf}&answer=D4",
        )
        .await;
    assert_eq!(answer.status, 409);
    // Class B's teacher: not found.
    for path in ["", "/events"] {
        let got = s
            .get(
                Some(&s.other_teacher),
                &format!("/teacher/classes/{class}/live{path}"),
            )
            .await;
        assert_eq!(got.status, 404);
    }
    // A problem that is not in the content.
    let missing = s
        .post_form(
            Some(&s.teacher),
            &format!("/teacher/classes/{class}/live"),
            "csrf={csrf}&problem=go%2Fproblems%2Fcaptures%2F999",
        )
        .await;
    assert_eq!(missing.status, 404);
}

#[tokio::test]
async fn a_chess_move_is_two_clicks_without_the_script() {
    let s = School::new("livechess").await;
    let class = s.class.0;
    let snap = s.state.snapshot();
    let chess = snap
        .library
        .shelves
        .iter()
        .find(|sh| sh.game == qiyuan::content::Game::Chess)
        .unwrap();
    let (set, problem) = chess
        .sets
        .iter()
        .flat_map(|set| set.problems.iter().map(move |p| (set, p)))
        .find(|(_, p)| {
            matches!(p.puzzle.input(), qiyuan::content::Input::Piece { .. })
                && p.puzzle.lines().main_line()[0].len() == 4
        })
        .unwrap();
    let main = problem.puzzle.lines().main_line();
    let first = &main[0];
    let started = s
        .post_form(
            Some(&s.teacher),
            &format!("/teacher/classes/{class}/live"),
            &format!(
                "csrf={{csrf}}&problem=chess%2Fproblems%2F{}%2F{}",
                set.slug, problem.id
            ),
        )
        .await;
    assert_eq!(started.status, 303, "{}", started.body);
    // The piece picked up, then its destination: a confirm form for the move.
    let picked = s
        .get(Some(&s.student), &format!("/live?sel={}", &first[..2]))
        .await;
    assert!(
        picked.body.contains(&format!("/live?play={}", &first[..4])),
        "{}",
        picked.body
    );
    let confirm = s
        .get(Some(&s.student), &format!("/live?play={first}"))
        .await;
    assert!(confirm.body.contains("class=\"live-confirm\""));
    assert!(confirm
        .body
        .contains(&format!("name=\"answer\" value=\"{first}\"")));
    let sent = s
        .post_form(
            Some(&s.student),
            "/live/answer",
            &format!("csrf={{csrf}}&answer={first}"),
        )
        .await;
    assert_eq!(sent.status, 303);
    let tally = s
        .get(Some(&s.teacher), &format!("/teacher/classes/{class}/live"))
        .await;
    assert!(tally
        .body
        .contains(&format!("class=\"heat-cell\" data-p=\"{}\"", &first[2..4])));
}
