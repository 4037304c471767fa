//! The live board in real browsers: one teacher and two students, each a headless Chromium
//! session of its own. The teacher opens a problem live; both students' pages switch to it by
//! themselves; each answers by a click; the teacher's page shows the two answers and the heat
//! map without a reload; the teacher reveals and the students see their verdicts. Any
//! JavaScript error fails the test.
//!
//! Needs Debian's `chromium` and `chromium-driver` (`scripts/test.sh` installs them).

mod common;
#[allow(dead_code)]
#[path = "browser/harness.rs"]
mod harness;

use anyhow::{ensure, Context, Result};
use common::school::{School, PASSWORD};
use fantoccini::Locator;
use harness::{start_trainer, Browser, Driver};
use qiyuan::class::{Roster, Store};
use qiyuan::lang::Lang;
use qiyuan::web::i18n::Ui;

/// Logs `b` in as a student through the login page, landing on `/me`.
async fn student_login(b: &Browser, class: &str, name: &str, code: &str) -> Result<()> {
    b.open("/login?lang=en&next=/me").await?;
    b.js(
        "const f = document.querySelector('form.student-login');
         f.elements.class.value = arguments[0]; f.elements.name.value = arguments[1];
         f.elements.code.value = arguments[2]; return true",
        vec![class.into(), name.into(), code.into()],
    )
    .await?;
    b.follow(Locator::Css("form.student-login button[type=submit]"))
        .await?;
    ensure!(
        b.location().await?.ends_with("/me"),
        "{name} logged in lands on /me"
    );
    Ok(())
}

async fn lesson(
    teacher: &Browser,
    students: [&Browser; 2],
    s: &School,
    codes: &[String],
) -> Result<()> {
    let ui = Ui::get(Lang::En);
    let class = s.class.0;
    teacher
        .open(&format!(
            "/login?lang=en&next=/teacher/classes/{class}/live"
        ))
        .await?;
    teacher
        .js(
            "const f = document.querySelector('form.teacher-login');
             f.elements.name.value = 't1'; f.elements.password.value = arguments[0]; return true",
            vec![PASSWORD.into()],
        )
        .await?;
    teacher
        .follow(Locator::Css("form.teacher-login button[type=submit]"))
        .await?;
    for (b, (name, code)) in students.iter().zip(["Ann", "Bob"].iter().zip(codes)) {
        student_login(b, &s.class_code, name, code).await?;
    }
    // The teacher opens captures #1 (its set first); both students' pages go to /live by
    // themselves.
    teacher
        .open(&format!(
            "/teacher/classes/{class}/live?set=go/captures&lang=en"
        ))
        .await?;
    teacher
        .js(
            "document.querySelector('form.live-start select').value = 'go/problems/captures/1'; return true",
            vec![],
        )
        .await?;
    teacher
        .follow(Locator::Css("form.live-start button[type=submit]"))
        .await?;
    for b in students {
        b.wait_for(
            "the student's page to switch to the live problem",
            "return location.pathname === '/live' && document.readyState === 'complete' && !!document.querySelector('.live-board a.pt')",
        )
        .await?;
        b.hook_if_reloaded().await?;
    }
    // Each answers by a click: the first the right point, the second a wrong one.
    for (b, p) in students.iter().zip(["D4", "E4"]) {
        b.find(&format!(".live-board a.pt[data-p=\"{p}\"]"))
            .await?
            .click()
            .await?;
        b.wait_for(
            "the answer to be taken",
            "return document.readyState === 'complete' && !!document.getElementById('live-mine')",
        )
        .await?;
        b.hook_if_reloaded().await?;
        ensure!(b.text("#live-mine").await?.contains(p));
    }
    // The teacher's page follows without a reload: 2 answers and the heat map.
    teacher
        .wait_for(
            "two answers on the teacher's page",
            "return document.getElementById('live-tally').dataset.answered === '2'",
        )
        .await?;
    teacher.same_page("answers arriving").await?;
    let counts = teacher.text(".live-counts").await?;
    ensure!(counts.starts_with("2 answered"), "counts: {counts}");
    let heat = teacher
        .js(
            "return [...document.querySelectorAll('.live-heat g.heat-cell')].map(g => g.dataset.p + ':' + g.textContent).sort().join(' ')",
            vec![],
        )
        .await?;
    ensure!(heat == "D4:1 E4:1", "heat map: {heat}");
    teacher.screenshot("live-teacher-heat").await?;
    // The reveal: the right point ringed, each student told.
    teacher.follow(Locator::Css("button.live-reveal")).await?;
    ensure!(
        teacher.text(".live-answer").await?.contains("D4"),
        "the answer shown to the teacher"
    );
    let ringed = teacher
        .js(
            "return [...document.querySelectorAll('.live-heat .heat-right')].map(r => r.parentNode.dataset.p).join(' ')",
            vec![],
        )
        .await?;
    ensure!(ringed == "D4", "right answers marked: {ringed}");
    for (b, right) in students.iter().zip([true, false]) {
        b.wait_for(
            "the student's verdict after the reveal",
            "return document.readyState === 'complete' && !!document.getElementById('live-verdict')",
        )
        .await?;
        b.hook_if_reloaded().await?;
        let verdict = b.text("#live-verdict").await?;
        let want = if right {
            &ui.live.you_right
        } else {
            &ui.live.you_wrong
        };
        ensure!(verdict.contains(want.as_str()), "verdict: {verdict}");
        b.check_errors().await?;
    }
    students[1].screenshot("live-student-revealed").await?;
    teacher.check_errors().await?;
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_teacher_runs_a_live_problem_for_two_students() {
    let s = School::new("browserlive").await;
    let added = s
        .store
        .add_students(s.class, &Roster::parse("Ann\nBob").unwrap())
        .unwrap();
    let codes: Vec<String> = added.iter().map(|st| st.code.words(Lang::En)).collect();
    let base = start_trainer(s.state.clone())
        .await
        .expect("the trainer starts");
    let driver = Driver::start().await.unwrap_or_else(|e| panic!("{e:#}"));
    let mut sessions = Vec::new();
    for _ in 0..3 {
        sessions.push(
            driver
                .session(&base)
                .await
                .context("a browser session")
                .unwrap_or_else(|e| panic!("{e:#}")),
        );
    }
    let result = lesson(&sessions[0], [&sessions[1], &sessions[2]], &s, &codes).await;
    if result.is_err() {
        for (i, b) in sessions.iter().enumerate() {
            let _ = b.screenshot(&format!("failed-live-{i}")).await;
        }
    }
    for b in sessions {
        let _ = b.close().await;
    }
    drop(driver);
    if let Err(e) = result {
        panic!("{e:#}");
    }
}
