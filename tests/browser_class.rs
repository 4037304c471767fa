//! The classroom in real browsers: a teacher makes a class, adds students, gives homework and
//! opens the login cards; a student logs in with the card's pictures and does the homework
//! problem (a wrong move, then the right one); the teacher sees it on the grid and on the
//! student's page. Any JavaScript error fails the test.
//!
//! Needs Debian's `chromium` and `chromium-driver` (`scripts/test.sh` installs them).

#[allow(dead_code)]
#[path = "browser/harness.rs"]
mod harness;

use anyhow::{ensure, Context, Result};
use fantoccini::Locator;
use harness::{start_trainer, Browser, Driver};
use qiyuan::class::sqlite::Sqlite;
use qiyuan::class::{password, Store};
use qiyuan::web::AppState;
use serde_json::json;
use std::sync::Arc;

const PASSWORD: &str = "a long teacher password";

/// Sets the form fields (`selector` → value) and submits the form by its button.
async fn submit(b: &Browser, form: &str, fields: &[(&str, &str)]) -> Result<()> {
    for (name, value) in fields {
        b.js(
            "const f = document.querySelector(arguments[0]).elements[arguments[1]]; f.value = arguments[2]; return true",
            vec![json!(form), json!(name), json!(value)],
        )
        .await
        .with_context(|| format!("filling {form} {name}"))?;
    }
    b.follow(Locator::Css(&format!("{form} button[type=submit]")))
        .await
}

async fn teacher_and_student(t: &Browser, s: &Browser) -> Result<()> {
    // The teacher logs in, makes a class, adds students and gives homework.
    t.open("/login?lang=en").await?;
    submit(
        t,
        "form.teacher-login",
        &[("name", "王老师"), ("password", PASSWORD)],
    )
    .await?;
    ensure!(
        t.location().await?.ends_with("/teacher"),
        "the teacher lands on their classes"
    );
    submit(t, "form.new-class", &[("name", "三年级二班")]).await?;
    ensure!(t.text("h1").await? == "三年级二班");
    submit(t, "form.add-students", &[("names", "小明\nTom")]).await?;
    ensure!(
        t.text(".roster").await?.contains("Tom"),
        "Tom is on the roster"
    );
    submit(
        t,
        "form.give-homework",
        &[
            ("title", "Captures"),
            ("problems", "go/problems/captures/1"),
        ],
    )
    .await?;
    ensure!(t.text(".homework-list").await?.contains("Captures"));
    let location = t.location().await?;
    let class_path = location.split('?').next().unwrap_or_default().to_string();
    ensure!(
        class_path.starts_with("/teacher/classes/"),
        "the class page: {location}"
    );
    // The login cards: Tom's card, with the class code and his pictures.
    t.open(&format!("{class_path}/cards?lang=en")).await?;
    let card = t
        .js(
            "const c = [...document.querySelectorAll('.login-card')].find(c => c.querySelector('.card-name').textContent === 'Tom');
             return { code: c.querySelector('.class-code').textContent,
                      pictures: [...c.querySelectorAll('.card-pictures img')].map(e => e.getAttribute('src')),
                      address: c.querySelector('.card-address strong').textContent }",
            vec![],
        )
        .await?;
    let code = card["code"]
        .as_str()
        .context("the card's class code")?
        .to_string();
    let pictures: Vec<String> = card["pictures"]
        .as_array()
        .context("the card's pictures")?
        .iter()
        .filter_map(|e| e.as_str().map(String::from))
        .collect();
    ensure!(pictures.len() == 3, "three pictures on the card: {card}");
    let host = t.url("").trim_start_matches("http://").to_string();
    ensure!(
        card["address"] == json!(format!("{host}/login")),
        "the card's address is the teacher's host: {card}"
    );

    // The student logs in by tapping the card's pictures, in order, in the login's grid.
    s.open("/login?lang=en").await?;
    for (i, src) in pictures.iter().enumerate() {
        let grid = format!("form.student-login fieldset.pictures[data-n=\"{}\"]", i + 1);
        s.find(&format!("{grid}.active")).await?;
        s.find(&format!("{grid} label.picture:has(img[src=\"{src}\"])"))
            .await
            .with_context(|| format!("picture {src} is offered at login"))?
            .click()
            .await?;
    }
    submit(
        s,
        "form.student-login",
        &[("class", &code), ("name", "Tom")],
    )
    .await?;
    ensure!(
        s.location().await?.contains("/me"),
        "the student lands on their homework"
    );
    ensure!(s.text(".homework").await?.contains("Captures"));
    s.follow(Locator::Css(".homework .tasks a")).await?;
    let problem = s.location().await?;
    // A wrong move first (A1), then, from the start again, the right one (D4).
    s.find("#board a.pt[data-p=\"A1\"]").await?.click().await?;
    s.wait_for(
        "the wrong move's verdict",
        "return document.querySelector('#status .verdict.wrong')",
    )
    .await?;
    s.hook_if_reloaded().await?;
    s.client.goto(&problem).await?;
    s.after_reload().await?;
    s.find("#board a.pt[data-p=\"D4\"]").await?.click().await?;
    s.wait_for(
        "the problem to be solved",
        "return document.querySelector('#status .verdict.solved')",
    )
    .await?;
    s.hook_if_reloaded().await?;
    s.check_errors().await?;

    // The teacher sees it on the grid and on Tom's page.
    t.open(&format!("{class_path}?lang=en")).await?;
    let cell = t
        .js(
            "const row = [...document.querySelectorAll('table.grid tbody tr')].find(r => r.querySelector('th').textContent === 'Tom');
             return row.querySelector('td').className",
            vec![],
        )
        .await?;
    ensure!(cell == json!("st after-mistakes"), "Tom's cell: {cell}");
    t.follow(Locator::XPath(
        "//table[contains(@class, 'grid')]//th/a[text()='Tom']",
    ))
    .await?;
    let tom = t.text("h1").await?;
    ensure!(tom == "Tom");
    let tried = t.text(".mini-boards").await?;
    ensure!(
        tried.contains("✗ A1") && tried.contains("✓ D4"),
        "Tom's moves on his page: {tried}"
    );
    t.check_errors().await?;
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn teacher_gives_homework_and_sees_a_students_moves() {
    let dir = std::env::temp_dir().join(format!(
        "qiyuan-browser-class-{}-{}",
        std::process::id(),
        qiyuan::random::token()
    ));
    let store = Arc::new(Sqlite::open(&dir).unwrap());
    store
        .add_teacher("王老师", &password::hash(PASSWORD))
        .unwrap();
    let state = AppState::embedded().with_store(store, Some(dir.clone()));
    let base = start_trainer(state).await.expect("the trainer starts");
    let driver = Driver::start().await.unwrap_or_else(|e| panic!("{e:#}"));
    let t = driver
        .session(&base)
        .await
        .unwrap_or_else(|e| panic!("{e:#}"));
    let s = driver
        .session(&base)
        .await
        .unwrap_or_else(|e| panic!("{e:#}"));
    let result = teacher_and_student(&t, &s).await;
    if result.is_err() {
        let _ = t.screenshot("failed-class-teacher").await;
        let _ = s.screenshot("failed-class-student").await;
    }
    let _ = t.close().await;
    let _ = s.close().await;
    drop(driver);
    let _ = std::fs::remove_dir_all(&dir);
    result.unwrap_or_else(|e| panic!("{e:#}"));
}
