//! Classroom and games, polished (issue 48), in headless Chromium: the classroom's points
//! (homework bars, the login page and its pictures, taking homework back, the live board's
//! reveal, the teacher's class page, a record's print) as a child or a teacher meets them, in both languages and at phone width
//! where the point is about layout, with a screenshot kept in `target/screenshots/polish-*`.
//! Any JavaScript error fails the test.
//!
//! Needs Debian's `chromium` and `chromium-driver` (`scripts/test.sh` installs them).

#[allow(dead_code)]
#[macro_use]
#[path = "browser/classroom.rs"]
mod classroom;
#[allow(dead_code)]
#[path = "browser/harness.rs"]
mod harness;

use anyhow::{anyhow, ensure, Result};
use classroom::{finish, no_sideways_scroll, Room, ONE_AT_A_TIME};
use harness::{Browser, Runner};
use qiyuan::class::{Act, Store, Task, Try};
use qiyuan::content::Game;
use serde_json::json;

/// The first problem of the `n`th Go set, as a task.
fn go_problem(room: &Room, n: usize) -> Result<(Task, String)> {
    let library = room.state.snapshot().library;
    let shelf = library
        .shelves
        .iter()
        .find(|s| s.game == Game::Go)
        .ok_or_else(|| anyhow!("no Go shelf"))?;
    let set = shelf.sets.get(n).ok_or_else(|| anyhow!("no Go set {n}"))?;
    let task = Task::Problem {
        game: "go".into(),
        set: set.slug.clone(),
        id: set.problems[0].id.clone(),
    };
    Ok((task, set.slug.clone()))
}

/// Point 1: `/me`'s homework bars are as long as the part done: empty at 0 of 15, full when
/// all is done.
async fn homework_bars(room: &Room, b: &Browser) -> Result<()> {
    let (one, _) = go_problem(room, 0)?;
    let (_, other_set) = go_problem(room, 1)?;
    let whole = Task::Set {
        game: "go".into(),
        set: other_set,
    };
    room.store
        .assign(room.class.id, "Whole set", &[whole], None)?;
    room.store
        .assign(room.class.id, "One problem", &[one.clone()], None)?;
    let Task::Problem { game, set, id } = one else {
        unreachable!()
    };
    room.store.record_try(&Try {
        student: room.student("Tom").id,
        game,
        set,
        problem: id,
        act: Act::Move {
            before: String::new(),
            played: "A1".into(),
            verdict: "solved".into(),
        },
        at: qiyuan::class::now(),
    })?;
    room.student_login(b, "Tom").await?;
    for lang in ["zh", "en"] {
        b.open(&format!("/me?lang={lang}")).await?;
        let bars = b
            .js(
                "return [...document.querySelectorAll('.homework')].map(h => {
                   const bar = h.querySelector('.progress .bar'), fill = bar.firstElementChild;
                   return [h.querySelector('h2').textContent,
                           fill.getBoundingClientRect().width / bar.getBoundingClientRect().width];
                 })",
                vec![],
            )
            .await?;
        let ratio = |title: &str| {
            bars.as_array()
                .and_then(|a| a.iter().find(|h| h[0] == json!(title)))
                .and_then(|h| h[1].as_f64())
        };
        ensure!(
            ratio("Whole set") == Some(0.0),
            "{lang}: nothing done, yet the bar is {bars}"
        );
        ensure!(
            ratio("One problem") == Some(1.0),
            "{lang}: all done, yet the bar is {bars}"
        );
        b.viewport(390, 844).await?;
        no_sideways_scroll(b, "/me").await?;
        b.screenshot(&format!("polish-01-me-{lang}")).await?;
        b.viewport(1280, 800).await?;
    }
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn point_01_homework_bar_shows_the_part_done() {
    in_room!("bars", "小明\nTom", "point 1 homework bars", |room, b| {
        homework_bars(&room, &b)
    });
}

/// Every picture of the login grid (or of `css`) drawn: loaded images with a size.
async fn pictures_drawn(b: &Browser, css: &str, at_least: usize) -> Result<()> {
    let drawn = b
        .wait_for_with(
            "the pictures to load",
            "const imgs = [...document.querySelectorAll(arguments[0])];
             return imgs.length && imgs.every(i => i.complete) ? imgs.map(i => [i.getAttribute('src'), i.naturalWidth]) : null",
            vec![json!(css)],
        )
        .await?;
    let list = drawn.as_array().cloned().unwrap_or_default();
    ensure!(list.len() >= at_least, "{css}: {} pictures", list.len());
    for p in &list {
        ensure!(
            p[0].as_str()
                .is_some_and(|s| s.starts_with("/static/pictures/") && s.ends_with(".svg"))
                && p[1].as_f64().unwrap_or(0.0) > 0.0,
            "{css}: a picture is not a drawing that loads: {p}"
        );
    }
    Ok(())
}

/// Point 2: the login page a child can use on a tablet: the class code first, big fields and
/// button, a grid of pictures to tap (44 px and more) chosen one after the other; and a failed
/// teacher login does not put the teacher's name in the student's form.
async fn login_for_a_child(room: &Room, b: &Browser) -> Result<()> {
    for (lang, width, height) in [("zh", 390, 844), ("en", 390, 844), ("zh", 1280, 800)] {
        b.viewport(width, height).await?;
        b.open(&format!("/login?lang={lang}")).await?;
        let first = b
            .js(
                "return document.querySelector('form.student-login').querySelector('input:not([type=hidden]), select').name",
                vec![],
            )
            .await?;
        ensure!(
            first == json!("class"),
            "{lang}: the first field is {first}"
        );
        let sizes = b
            .js(
                "const f = document.querySelector('form.student-login');
                 const r = (e) => e.getBoundingClientRect();
                 const grid = f.querySelector('fieldset.pictures.active');
                 return { selects: f.querySelectorAll('select').length,
                          input: r(f.elements.class).height,
                          button: r(f.querySelector('button[type=submit]')).height,
                          shown: [...f.querySelectorAll('fieldset.pictures')].filter(s => r(s).height > 0).length,
                          pictures: grid ? [...grid.querySelectorAll('label.picture')].map(l => [r(l).width, r(l).height]) : [] }",
                vec![],
            )
            .await?;
        ensure!(
            sizes["selects"] == json!(0),
            "{lang}: a dropdown is left: {sizes}"
        );
        ensure!(
            sizes["shown"] == json!(1),
            "{lang}: one grid at a time: {sizes}"
        );
        let big = |v: &serde_json::Value| v.as_f64().unwrap_or(0.0) >= 44.0;
        ensure!(
            big(&sizes["input"]) && big(&sizes["button"]),
            "{lang} at {width}: small fields: {sizes}"
        );
        let pictures = sizes["pictures"].as_array().cloned().unwrap_or_default();
        ensure!(
            pictures.len() == 32 && pictures.iter().all(|p| big(&p[0]) && big(&p[1])),
            "{lang} at {width}: 32 pictures of 44 px or more: {sizes}"
        );
        no_sideways_scroll(b, "/login").await?;
        b.screenshot(&format!("polish-02-login-{lang}-{width}"))
            .await?;
    }
    // Tom taps his three pictures; each slot shows the one chosen, and he is in.
    let tom = room.student("Tom");
    b.viewport(390, 844).await?;
    b.open("/login?lang=en&next=/me").await?;
    classroom::fill(
        b,
        "form.student-login",
        &[("class", &room.class.code), ("name", "Tom")],
    )
    .await?;
    for (i, &n) in tom.code.0.iter().enumerate() {
        let grid = format!("form.student-login fieldset.pictures[data-n=\"{}\"]", i + 1);
        b.find(&format!("{grid}.active")).await?;
        b.find(&format!("{grid} label.picture:has(input[value=\"{n}\"])"))
            .await?
            .click()
            .await?;
    }
    let slots = b
        .js(
            "return [...document.querySelectorAll('.picked .slot img')].map(i => i.getAttribute('src'))",
            vec![],
        )
        .await?;
    ensure!(
        slots.as_array().map(Vec::len) == Some(3),
        "the three slots show the pictures: {slots}"
    );
    b.screenshot("polish-02-login-chosen").await?;
    b.follow(fantoccini::Locator::Css(
        "form.student-login button[type=submit]",
    ))
    .await?;
    ensure!(b.location().await?.ends_with("/me"), "Tom is in");
    // A teacher's failed login: their name stays in the teacher's form only.
    let t = room.browser().await?;
    let outcome = async {
        t.open("/login?lang=zh").await?;
        classroom::fill(
            &t,
            "form.teacher-login",
            &[("name", "李老师"), ("password", "wrong password")],
        )
        .await?;
        t.follow(fantoccini::Locator::Css(
            "form.teacher-login button[type=submit]",
        ))
        .await?;
        // The refused login is answered 401, which Chromium logs: expected here.
        if let Err(e) = t.check_errors().await {
            ensure!(format!("{e:#}").contains("status of 401"), "{e:#}");
        }
        let names = t
            .js(
                "return [document.querySelector('form.student-login').elements.name.value,
                         document.querySelector('form.teacher-login').elements.name.value]",
                vec![],
            )
            .await?;
        ensure!(
            names == json!(["", "李老师"]),
            "after a failed teacher login the names are {names}"
        );
        t.check_errors().await
    }
    .await;
    let _ = t.close().await;
    outcome
}

/// Point 3: the pictures are drawings (SVG), the same in the login form and on the cards;
/// the cards' numbers do not run into the words, and the cards fit a phone.
async fn pictures_are_drawings(room: &Room, b: &Browser) -> Result<()> {
    b.open("/login?lang=zh").await?;
    pictures_drawn(b, "form.student-login label.picture img", 96).await?;
    room.teacher_login(b, &format!("{}/cards?lang=zh", room.class_path()))
        .await?;
    for (lang, width, height) in [("zh", 390, 844), ("en", 390, 844), ("zh", 1280, 800)] {
        b.viewport(width, height).await?;
        b.open(&format!("{}/cards?lang={lang}", room.class_path()))
            .await?;
        pictures_drawn(b, ".card-pictures img", 3 * room.students.len()).await?;
        let overlaps = b
            .js(
                "const r = (e) => e.getBoundingClientRect();
                 const out = [];
                 for (const li of document.querySelectorAll('.card-pictures li')) {
                   const n = r(li.querySelector('.n')), w = r(li.querySelector('.word')), i = r(li.querySelector('img'));
                   const hit = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
                   if (hit(n, w) || hit(n, i)) out.push(li.textContent);
                 }
                 for (const ol of document.querySelectorAll('.card-pictures')) {
                   const lis = [...ol.children].map(r);
                   for (let k = 1; k < lis.length; k++) if (lis[k].left < lis[k - 1].right) out.push(ol.textContent);
                 }
                 return out",
                vec![],
            )
            .await?;
        ensure!(
            overlaps == json!([]),
            "{lang} at {width}: overlapping: {overlaps}"
        );
        no_sideways_scroll(b, "the cards").await?;
        b.screenshot(&format!("polish-03-cards-{lang}-{width}"))
            .await?;
    }
    // The class page's list of students: each student's code as the same drawings, with
    // its words, and no emoji.
    for (lang, width, height) in [("zh", 390, 844), ("en", 1280, 800)] {
        b.viewport(width, height).await?;
        b.open(&format!("{}?lang={lang}", room.class_path()))
            .await?;
        pictures_drawn(b, ".roster .pictures img", 3 * room.students.len()).await?;
        let roster = b
            .js(
                "return [...document.querySelectorAll('.roster li')].map(li => [li.querySelector('a').textContent, li.textContent, [...li.querySelectorAll('.pictures img')].map(i => i.alt).join(' ')])",
                vec![],
            )
            .await?;
        let ui_lang = if lang == "zh" {
            qiyuan::lang::Lang::Zh
        } else {
            qiyuan::lang::Lang::En
        };
        for s in &room.students {
            let row = roster
                .as_array()
                .and_then(|r| r.iter().find(|row| row[0] == json!(s.name)))
                .ok_or_else(|| anyhow!("{lang}: {} is not listed: {roster}", s.name))?;
            let text = row[1].as_str().unwrap_or_default();
            ensure!(
                !text.chars().any(|c| qiyuan::class::codes::PICTURES
                    .iter()
                    .any(|p| p.0.contains(c))),
                "{lang}: {}'s code is shown as emoji: {text:?}",
                s.name
            );
            ensure!(
                row[2] == json!(s.code.words(ui_lang)),
                "{lang}: {}'s pictures are named {} (the code is {})",
                s.name,
                row[2],
                s.code.words(ui_lang)
            );
        }
        no_sideways_scroll(b, "the class page").await?;
        b.js(
            "document.querySelector('.roster-section').scrollIntoView(); return true",
            vec![],
        )
        .await?;
        b.screenshot(&format!("polish-03-roster-{lang}-{width}"))
            .await?;
    }
    b.viewport(1280, 800).await?;
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn point_02_03_login_a_child_can_use_with_drawn_pictures() {
    let _one = ONE_AT_A_TIME.lock().await;
    let room = Room::new("login", "小明\nTom\n欧阳娜娜\nAlexandrina")
        .await
        .unwrap_or_else(|e| panic!("{e:#}"));
    let b = room.browser().await.unwrap_or_else(|e| panic!("{e:#}"));
    let c = room.browser().await.unwrap_or_else(|e| panic!("{e:#}"));
    let mut runner = Runner {
        browser: &b,
        failures: Vec::new(),
    };
    runner
        .run("point 2 login for a child", login_for_a_child(&room, &b))
        .await;
    let mut failures = runner.failures;
    let mut runner = Runner {
        browser: &c,
        failures: Vec::new(),
    };
    runner
        .run(
            "point 3 pictures are drawings",
            pictures_are_drawings(&room, &c),
        )
        .await;
    failures.extend(runner.failures);
    finish(failures, vec![b, c]).await;
}

/// Point 9: taking homework back asks first, as deleting a class does; the grid does not call
/// a student who only opened the hint and the solution wrong.
async fn take_back_asks_first(room: &Room, b: &Browser) -> Result<()> {
    let (task, _) = go_problem(room, 0)?;
    room.store
        .assign(room.class.id, "Looked only", &[task.clone()], None)?;
    let Task::Problem { game, set, id } = task else {
        unreachable!()
    };
    for act in [Act::Hint, Act::Solution] {
        room.store.record_try(&Try {
            student: room.student("Tom").id,
            game: game.clone(),
            set: set.clone(),
            problem: id.clone(),
            act,
            at: qiyuan::class::now(),
        })?;
    }
    let class = room.class_path();
    room.teacher_login(b, &format!("{class}?lang=zh")).await?;
    for lang in ["zh", "en"] {
        let ui = qiyuan::web::i18n::Ui::get(if lang == "zh" {
            qiyuan::lang::Lang::Zh
        } else {
            qiyuan::lang::Lang::En
        });
        b.open(&format!("{class}?lang={lang}")).await?;
        let cell = b
            .js(
                "const row = [...document.querySelectorAll('table.grid tbody tr')].find(r => r.querySelector('th').textContent === 'Tom');
                 const td = row.querySelector('td'); return [td.className, td.textContent, td.title]",
                vec![],
            )
            .await?;
        ensure!(
            cell[0] == json!("st looked") && cell[1] != json!("✗"),
            "{lang}: Tom only looked, yet his cell is {cell}"
        );
        ensure!(
            cell[2]
                .as_str()
                .is_some_and(|t| t.ends_with(&ui.polish.looked_only)),
            "{lang}: the cell's label {cell}"
        );
        let legend = b.text(".legend").await?;
        ensure!(
            legend.contains(&ui.polish.looked_only),
            "{lang}: legend {legend}"
        );
        // 收回 asks first; "no" keeps the homework.
        b.follow(fantoccini::Locator::Css(".homework-list a.take-back"))
            .await?;
        ensure!(
            b.location().await?.contains("/homework/"),
            "{lang}: 收回 acted at once: {}",
            b.location().await?
        );
        let title = b.text("h1").await?;
        ensure!(
            title.contains("Looked only"),
            "{lang}: the question {title}"
        );
        b.viewport(390, 844).await?;
        no_sideways_scroll(b, "the take-back question").await?;
        b.screenshot(&format!("polish-09-take-back-{lang}")).await?;
        b.viewport(1280, 800).await?;
        b.follow(fantoccini::Locator::Css("form.confirm-delete a.button"))
            .await?;
        ensure!(
            b.text(".homework-list").await?.contains("Looked only"),
            "{lang}: cancelled, yet the homework is gone"
        );
    }
    b.follow(fantoccini::Locator::Css(".homework-list a.take-back"))
        .await?;
    b.follow(fantoccini::Locator::Css(
        "form.confirm-delete button[type=submit]",
    ))
    .await?;
    let left = b
        .js(
            "const l = document.querySelector('.homework-list'); return l ? l.textContent : ''",
            vec![],
        )
        .await?;
    ensure!(
        !left.as_str().unwrap_or_default().contains("Looked only"),
        "taken back, yet listed: {left}"
    );
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn point_09_take_back_asks_and_looking_is_not_failing() {
    in_room!(
        "takeback",
        "小明\nTom",
        "point 9 take back asks first",
        |room, b| take_back_asks_first(&room, &b)
    );
}

/// The centre of the point `p` of the board in `css`, in the SVG's units (from its link's
/// square; the point must not be on the edge).
async fn point_centre(b: &Browser, css: &str, p: &str) -> Result<(f64, f64)> {
    let v = b
        .js(
            "const r = document.querySelector(`${arguments[0]} a.pt[data-p=\"${arguments[1]}\"] rect`);
             const n = (a) => Number(r.getAttribute(a));
             return [n('x') + n('width') / 2, n('y') + n('height') / 2]",
            vec![json!(css), json!(p)],
        )
        .await?;
    Ok((v[0].as_f64().unwrap_or(-1.0), v[1].as_f64().unwrap_or(-1.0)))
}

/// Point 7: after the reveal the student's board shows the answer: the answer's stone on its
/// point with the last-move mark, not the student's wrong move and its refutation.
async fn reveal_shows_the_answer(room: &Room, t: &Browser, s: &Browser) -> Result<()> {
    let (right, wrong) = ("D4", "E4");
    room.teacher_login(
        t,
        &format!("{}/live?lang=zh&set=go/captures", room.class_path()),
    )
    .await?;
    room.student_login(s, "Tom").await?;
    t.js(
        "document.querySelector('form.live-start select').value = 'go/problems/captures/1'; return true",
        vec![],
    )
    .await?;
    t.follow(fantoccini::Locator::Css(
        "form.live-start button[type=submit]",
    ))
    .await?;
    s.wait_for(
        "the live problem",
        "return location.pathname === '/live' && document.readyState === 'complete' && !!document.querySelector('.live-board a.pt')",
    )
    .await?;
    s.hook_if_reloaded().await?;
    let (rx, ry) = point_centre(s, ".live-board", right).await?;
    let (wx, wy) = point_centre(s, ".live-board", wrong).await?;
    s.find(&format!(".live-board a.pt[data-p=\"{wrong}\"]"))
        .await?
        .click()
        .await?;
    s.wait_for(
        "the answer to be taken",
        "return document.readyState === 'complete' && !!document.getElementById('live-mine')",
    )
    .await?;
    s.hook_if_reloaded().await?;
    t.wait_for(
        "the answer on the teacher's page",
        "return document.getElementById('live-tally').dataset.answered === '1'",
    )
    .await?;
    t.follow(fantoccini::Locator::Css("button.live-reveal"))
        .await?;
    s.wait_for(
        "the reveal",
        "return document.readyState === 'complete' && !!document.getElementById('live-verdict')",
    )
    .await?;
    s.hook_if_reloaded().await?;
    for lang in ["zh", "en"] {
        s.open(&format!("/live?lang={lang}")).await?;
        let board = s
            .js(
                "const svg = document.querySelector('.live-board svg');
                 const near = (c, x, y) => Math.abs(Number(c.getAttribute('cx')) - x) < 3 && Math.abs(Number(c.getAttribute('cy')) - y) < 3;
                 const bodies = [...svg.querySelectorAll('g.stones > g')].slice(1);
                 const stone = (x, y) => bodies.findIndex(g => [...g.querySelectorAll('circle')].some(c => near(c, x, y)));
                 const last = svg.querySelector('circle.last');
                 return { right: stone(arguments[0], arguments[1]), wrong: stone(arguments[2], arguments[3]),
                          last: !!last && near(last, arguments[0], arguments[1]) }",
                vec![json!(rx), json!(ry), json!(wx), json!(wy)],
            )
            .await?;
        // Layers after the shadows: black bodies (0), two black glows, white bodies (3).
        ensure!(
            board["right"] == json!(0) && board["last"] == json!(true),
            "{lang}: the answer {right} is not shown as the last black stone: {board}"
        );
        ensure!(
            board["wrong"] == json!(-1),
            "{lang}: the wrong move {wrong} is still on the board: {board}"
        );
        let verdict = s.text("#live-verdict").await?;
        ensure!(
            verdict.contains(wrong),
            "{lang}: the verdict names the student's answer: {verdict}"
        );
        s.viewport(390, 844).await?;
        no_sideways_scroll(s, "the live board").await?;
        s.screenshot(&format!("polish-07-live-revealed-{lang}"))
            .await?;
        s.viewport(1280, 800).await?;
    }
    t.check_errors().await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn point_07_the_reveal_shows_the_answer_on_the_board() {
    let _one = ONE_AT_A_TIME.lock().await;
    let room = Room::new("reveal", "Tom")
        .await
        .unwrap_or_else(|e| panic!("{e:#}"));
    let t = room.browser().await.unwrap_or_else(|e| panic!("{e:#}"));
    let s = room.browser().await.unwrap_or_else(|e| panic!("{e:#}"));
    let mut runner = Runner {
        browser: &s,
        failures: Vec::new(),
    };
    runner
        .run(
            "point 7 the reveal shows the answer",
            reveal_shows_the_answer(&room, &t, &s),
        )
        .await;
    let failures = runner.failures;
    finish(failures, vec![t, s]).await;
}

/// Point 18: the teacher's class page: a new class starts with adding students, the class
/// code is large, the activity chart's dates do not run into each other, a grid wider than
/// the page says it scrolls; the live board's problem is chosen by set, then problem.
async fn class_page_for_a_teacher(room: &Room, b: &Browser) -> Result<()> {
    let library = room.state.snapshot().library;
    let go = library
        .shelves
        .iter()
        .find(|s| s.game == Game::Go)
        .ok_or_else(|| anyhow!("no Go"))?;
    // Homework wide enough to scroll on a phone.
    let tasks: Vec<Task> = go
        .sets
        .iter()
        .take(3)
        .map(|s| Task::Set {
            game: "go".into(),
            set: s.slug.clone(),
        })
        .collect();
    room.store.assign(room.class.id, "Wide", &tasks, None)?;
    let teacher = room
        .store
        .class(room.class.id)?
        .map(|c| c.teacher)
        .ok_or_else(|| anyhow!("no class"))?;
    let empty = room.store.create_class(teacher, "四年级一班")?;
    let class = room.class_path();
    room.teacher_login(b, &format!("{class}?lang=zh")).await?;
    for lang in ["zh", "en"] {
        for (width, height) in [(390, 844), (1280, 800)] {
            b.viewport(width, height).await?;
            // A new class: adding students comes first.
            b.open(&format!("/teacher/classes/{}?lang={lang}", empty.id.0))
                .await?;
            let order = b
                .js(
                    "const top = (s) => document.querySelector(s).getBoundingClientRect().top;
                     return [top('form.add-students'), top('.grid-section'), parseFloat(getComputedStyle(document.querySelector('.class-code-line .class-code')).fontSize)]",
                    vec![],
                )
                .await?;
            ensure!(
                order[0].as_f64() < order[1].as_f64(),
                "{lang} {width}: adding students is not at the top of a new class: {order}"
            );
            ensure!(
                order[2].as_f64().unwrap_or(0.0) >= 32.0,
                "{lang} {width}: the class code is small: {order}"
            );
            if width == 390 {
                b.screenshot(&format!("polish-18-new-class-{lang}")).await?;
            }
            // The class with homework: the grid's scroll hint shows only when it scrolls.
            b.open(&format!("{class}?lang={lang}")).await?;
            let grid = b
                .js(
                    "const w = document.querySelector('.grid-wrap');
                     return [w.scrollWidth > w.clientWidth, !document.querySelector('.scroll-hint').hidden]",
                    vec![],
                )
                .await?;
            ensure!(
                grid[0] == grid[1],
                "{lang} {width}: the grid scrolls {} but the hint shows {}",
                grid[0],
                grid[1]
            );
            if width == 390 {
                ensure!(
                    grid[0] == json!(true),
                    "{lang}: the wide grid does not scroll at 390 px"
                );
                no_sideways_scroll(b, "the class page").await?;
                b.screenshot(&format!("polish-18-class-{lang}")).await?;
            }
        }
    }
    b.viewport(1280, 800).await?;
    // The chart's dates: a week apart at least.
    let xs = b
        .js(
            "const r = await fetch(document.querySelector('.activity img').getAttribute('src'));
             const text = await r.text();
             return [...text.matchAll(/<text x=\"([0-9.]+)\" y=\"[0-9.]+\" text-anchor=\"middle\"/g)].map(m => Number(m[1]))",
            vec![],
        )
        .await?;
    let xs: Vec<f64> = xs
        .as_array()
        .map(|a| a.iter().filter_map(|x| x.as_f64()).collect())
        .unwrap_or_default();
    ensure!(
        xs.len() >= 4 && xs.windows(2).all(|w| w[1] - w[0] >= 60.0),
        "the chart's dates crowd: {xs:?}"
    );
    // The live board: a set, then its problems.
    b.open(&format!("{class}/live?lang=zh")).await?;
    let counts = b
        .js(
            "return [document.querySelectorAll('form.live-set select option').length, document.querySelectorAll('form.live-start select option').length]",
            vec![],
        )
        .await?;
    let total: usize = library
        .shelves
        .iter()
        .flat_map(|s| &s.sets)
        .map(|s| s.problems.len())
        .sum();
    ensure!(
        counts[0].as_u64().unwrap_or(0) > 1 && (counts[1].as_u64().unwrap_or(0) as usize) < total,
        "the live board offers {counts} (sets, problems) of {total} problems"
    );
    let second = format!("go/{}", go.sets[1].slug);
    b.js(
        "const s = document.querySelector('form.live-set select'); s.value = arguments[0]; s.dispatchEvent(new Event('change')); return true",
        vec![json!(second)],
    )
    .await?;
    b.after_reload().await?;
    let first = b
        .js(
            "return document.querySelector('form.live-start select').value",
            vec![],
        )
        .await?;
    ensure!(
        first
            == json!(format!(
                "go/problems/{}/{}",
                go.sets[1].slug, go.sets[1].problems[0].id
            )),
        "after choosing {second}, the first problem offered is {first}"
    );
    b.screenshot("polish-18-live-picker-zh").await?;
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn point_18_the_teachers_class_page() {
    in_room!(
        "classpage",
        "小明\nTom\n欧阳娜娜",
        "point 18 the class page",
        |room, b| class_page_for_a_teacher(&room, &b)
    );
}

/// Point 18, the record print: a long Go record's first printed page holds its first figure,
/// not only the title (a blank first page).
async fn record_print_starts_at_once(b: &Browser) -> Result<()> {
    let sgf = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/data/corpus/go/sgf-encodings/complex.sgf"),
    )?;
    b.open("/records?lang=zh").await?;
    classroom::fill(
        b,
        "form.record-upload",
        &[("text", &sgf), ("format", "sgf")],
    )
    .await?;
    b.follow(fantoccini::Locator::Css(
        "form.record-upload button[type=submit]",
    ))
    .await?;
    let page = b
        .location()
        .await?
        .split('?')
        .next()
        .unwrap_or_default()
        .to_string();
    b.open(&format!("{page}/print?lang=zh")).await?;
    let first = b.print_pdf(Some("1")).await?;
    let second = b.print_pdf(Some("2")).await?;
    // A page's board is most of its PDF: the first page must carry about as much as the
    // second, not only the title.
    ensure!(
        first.len() * 3 > second.len(),
        "the first printed page is nearly blank: {} bytes, the second {}",
        first.len(),
        second.len()
    );
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn point_18_a_record_prints_from_its_first_page() {
    in_room!("print", "Tom", "point 18 record print", |room, b| {
        record_print_starts_at_once(&b)
    });
}
