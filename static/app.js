// qiyuan: upgrades the links of lesson diagrams and problem boards. Every page works without it.

const lang = document.body.dataset.lang || "zh";

// Lesson diagrams: step without reloading the page; ← and → step the focused or visible diagram.
// A task's own links (take back, start again) redraw the diagram the same way, with the focus
// on its board.
async function stepDiagram(link, focusBoard = false) {
  const figure = link.closest("figure.diagram");
  const url = new URL(link.getAttribute("href"), location.href);
  const query = new URLSearchParams(url.search);
  query.set("lang", lang);
  try {
    const response = await fetch(`${figure.dataset.fragment}?${query}`);
    if (!response.ok) throw new Error(response.statusText);
    const fresh = replaceFigure(figure, await response.text());
    const point = focusBoard && rovingFocus(fresh.querySelector(".task-board"));
    (point || fresh).focus({ preventScroll: true });
    history.replaceState(null, "", url.pathname + url.search);
    syncLanguageSwitch();
    taskOpened(fresh);
  } catch {
    location.href = url.href;
  }
}

// Puts the `<figure>` of `html` in the place of `figure`, and returns it.
function replaceFigure(figure, html) {
  const holder = document.createElement("div");
  holder.innerHTML = html;
  const fresh = holder.querySelector("figure.diagram");
  figure.replaceWith(fresh);
  return fresh;
}

// What a board link asks: a move (`play`), or to pick up a piece or put it down (`sel`, `to`).
function actionOf(params) {
  if (params.has("play")) return { play: params.get("play") };
  if (params.has("sel")) return params.has("to") ? { select: params.get("sel"), to: params.get("to") } : { select: params.get("sel") };
  return { select: "" };
}

// Sends `body` as JSON to `url`; the JSON reply.
async function postJson(url, body) {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(response.statusText);
  return response.json();
}

const list = (s) => (s ? s.split(",") : []);

// A move on a lesson task: sent to the server, which judges it and sends the diagram back.
async function taskAttempt(link) {
  const figure = link.closest("figure.diagram");
  const d = figure.dataset;
  // An SVG link's `href` is no string: read the attribute.
  const href = new URL(link.getAttribute("href"), location.href);
  const body = {
    game: d.game,
    lesson: d.lesson,
    diagram: Number(d.diagram),
    step: Number(d.step),
    moves: list(d.moves),
    picked: list(d.picked),
    selected: d.selected || null,
    lang,
    ...actionOf(href.searchParams),
  };
  const hadFocus = document.activeElement === link || figure.contains(document.activeElement);
  try {
    const reply = await postJson("/api/lesson-attempt", body);
    const fresh = replaceFigure(figure, reply.figure);
    history.replaceState(null, "", reply.url);
    syncLanguageSwitch();
    noteTask(fresh, reply.verdict);
    const next = rovingFocus(fresh.querySelector(".task-board"), link.dataset.p);
    if (hadFocus) {
      const onward = fresh.querySelector("a.step.next, .task-status .actions a");
      if (reply.solved && onward) onward.focus({ preventScroll: true });
      else if (next) next.focus({ preventScroll: true });
      else fresh.focus({ preventScroll: true });
    }
  } catch {
    location.href = href.href;
  }
}

document.addEventListener("click", (event) => {
  // Game tables have their own script (play.js).
  if (event.target.closest && event.target.closest(".play-table, .record-view")) return;
  const step = event.target.closest("figure.diagram a.step");
  if (step) {
    event.preventDefault();
    stepDiagram(step);
    return;
  }
  // Lesson tasks: a move (or a promotion choice) is judged by the server; the other links
  // of the task (take back, start again) redraw the diagram.
  const taskLink = event.target.closest("figure.diagram.task .task-board a.pt, figure.diagram.task .task-status a");
  if (taskLink) {
    event.preventDefault();
    const url = new URL(taskLink.getAttribute("href"), location.href);
    if (taskLink.matches("a.pt") || url.searchParams.has("play")) taskAttempt(taskLink);
    else stepDiagram(taskLink, !taskLink.classList.contains("primary"));
    return;
  }
  const point = event.target.closest("#board a.pt");
  if (point) {
    event.preventDefault();
    attempt(point);
    return;
  }
  // A promotion choice is a move too.
  const choice = event.target.closest('#status .choices a[href*="play="]');
  if (choice) {
    event.preventDefault();
    attempt(choice);
  }
});

// The language switch keeps the learner where they are: the address as it is now.
function syncLanguageSwitch() {
  const link = document.querySelector("a.lang-switch");
  if (!link) return;
  const target = new URL(link.getAttribute("href"), location.href);
  const here = new URL(location.href);
  here.searchParams.delete("play");
  here.searchParams.set("lang", target.searchParams.get("lang"));
  link.setAttribute("href", here.pathname + here.search + here.hash);
}

function visibleDiagram() {
  const focused = document.activeElement && document.activeElement.closest && document.activeElement.closest("figure.diagram");
  if (focused) return focused;
  return [...document.querySelectorAll("figure.diagram")].find((f) => {
    const r = f.getBoundingClientRect();
    return r.bottom > 0 && r.top < window.innerHeight;
  });
}

document.addEventListener("keydown", (event) => {
  if (event.altKey || event.ctrlKey || event.metaKey) return;
  if (event.target.closest && event.target.closest("#board, .task-board")) return boardKeys(event);
  if (event.key !== "ArrowLeft" && event.key !== "ArrowRight") return;
  if (/^(INPUT|TEXTAREA|SELECT)$/.test(event.target.tagName)) return;
  const figure = visibleDiagram();
  if (!figure) return;
  const link = figure.querySelector(event.key === "ArrowLeft" ? "a.step.prev" : "a.step.next");
  if (link) {
    event.preventDefault();
    stepDiagram(link);
  }
});

// Problem boards and lesson tasks: one tab stop; arrows move between points, Enter plays.
function points(board) {
  return board ? [...board.querySelectorAll("a.pt")] : [];
}

function centre(a) {
  const r = a.getBoundingClientRect();
  return [r.left + r.width / 2, r.top + r.height / 2, r.width];
}

function rovingFocus(board, keep) {
  const all = points(board);
  if (!all.length) return;
  const current = all.find((a) => a.dataset.p === keep) || all[Math.floor(all.length / 2)];
  for (const a of all) a.setAttribute("tabindex", a === current ? "0" : "-1");
  return current;
}

// Arrow keys go to the nearest point in that direction on the screen, so the same code
// serves every board, turned round or not.
function boardKeys(event) {
  const moves = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
  const delta = moves[event.key];
  const here = event.target.closest("a.pt");
  if (!here) return;
  const board = here.closest("#board, .task-board");
  if (event.key === "Enter" || event.key === " ") {
    // SVG links do not follow on Enter by themselves.
    event.preventDefault();
    if (here.closest(".play-table, .record-view")) here.dispatchEvent(new MouseEvent("click", { bubbles: true, cancelable: true }));
    else if (here.closest(".task-board")) taskAttempt(here);
    else attempt(here);
    return;
  }
  if (!delta) return;
  event.preventDefault();
  const [x, y, size] = centre(here);
  let best = null;
  let bestDistance = Infinity;
  for (const a of points(board)) {
    const [x2, y2] = centre(a);
    const along = (x2 - x) * delta[0] + (y2 - y) * delta[1];
    const across = Math.abs((x2 - x) * delta[1] + (y2 - y) * delta[0]);
    if (along < size / 2 || across > size / 2) continue;
    if (along < bestDistance) {
      best = a;
      bestDistance = along;
    }
  }
  if (best) {
    here.setAttribute("tabindex", "-1");
    best.setAttribute("tabindex", "0");
    best.focus();
  }
}

async function attempt(point) {
  const problem = document.querySelector(".problem");
  const href = point.getAttribute("href");
  const body = {
    game: problem.dataset.game,
    set: problem.dataset.set,
    id: problem.dataset.id,
    moves: list(problem.dataset.moves),
    picked: list(problem.dataset.picked),
    selected: problem.dataset.selected || null,
    lang,
    ...actionOf(new URL(href, location.href).searchParams),
  };
  const hadFocus = document.activeElement === point;
  try {
    const reply = await postJson("/api/attempt", body);
    document.getElementById("board").innerHTML = reply.svg;
    document.getElementById("status").innerHTML = reply.status;
    problem.dataset.moves = reply.moves.join(",");
    problem.dataset.picked = reply.picked.join(",");
    problem.dataset.selected = reply.selected || "";
    history.replaceState(null, "", reply.url);
    syncLanguageSwitch();
    noteVerdict(problem, reply.verdict);
    const next = rovingFocus(document.getElementById("board"), point.dataset.p);
    if (hadFocus && next) next.focus();
    if (!next) {
      const action = document.querySelector("#status .actions a, #status .choices a");
      if (hadFocus && action) action.focus();
    }
  } catch {
    location.href = href;
  }
}

rovingFocus(document.getElementById("board"));
for (const board of document.querySelectorAll(".task-board")) rovingFocus(board);

// Progress, kept in this browser only: solved, failed, hint used, per problem.
const STORE = "qiyuan:progress";
const LAST = "qiyuan:last";

function load() {
  try {
    return JSON.parse(localStorage.getItem(STORE)) || {};
  } catch {
    return {};
  }
}

function save(all) {
  try {
    localStorage.setItem(STORE, JSON.stringify(all));
  } catch {
    // Storage full or forbidden: progress is simply not kept.
  }
}

function record(key, change) {
  const all = load();
  const entry = all[key] || {};
  change(entry);
  entry.t = Date.now();
  all[key] = entry;
  save(all);
}

// This visit to a problem: a mistake or a look at the solution makes it "failed".
let mistake = false;

function noteVerdict(problem, verdict) {
  const key = problem.dataset.key;
  if (!key) return;
  const title = problem.dataset.title;
  if (verdict === "wrong" || verdict === "illegal" || verdict === "not-answer") mistake = true;
  if (verdict === "solved") {
    record(key, (e) => {
      e.title = title;
      e.href = location.pathname;
      e.state = mistake ? "failed" : "solved";
      if (mistake) e.solvedAfter = true;
    });
  } else if (mistake) {
    record(key, (e) => {
      e.title = title;
      e.href = location.pathname;
      if (e.state !== "solved") e.state = "failed";
    });
  }
}

// Lesson tasks, kept in this browser: `qiyuan:lessons` holds, per lesson (`go/captures`),
// its title and address and, per task (`diagram:step`), solved or tried, the wrong tries and
// whether the hint was opened (docs/authoring.md). A solved task also sends the event
// `qiyuan:task-solved` with { game, lesson, diagram, step }, for the classroom.
const LESSONS = "qiyuan:lessons";

function recordTask(figure, change) {
  const d = figure.dataset;
  let all;
  try {
    all = JSON.parse(localStorage.getItem(LESSONS)) || {};
  } catch {
    all = {};
  }
  const key = `${d.game}/${d.lesson}`;
  const lesson = all[key] || { tasks: {} };
  lesson.title = document.querySelector(".lesson h1")?.textContent || lesson.title;
  lesson.href = location.pathname;
  const task = lesson.tasks[`${d.diagram}:${d.step}`] || { state: "tried", tries: 0 };
  change(task);
  task.t = Date.now();
  lesson.tasks[`${d.diagram}:${d.step}`] = task;
  all[key] = lesson;
  try {
    localStorage.setItem(LESSONS, JSON.stringify(all));
  } catch {
    // Storage full or forbidden: progress is simply not kept.
  }
}

function noteTask(figure, verdict) {
  if (!figure.dataset.lesson) return;
  if (verdict === "wrong" || verdict === "illegal" || verdict === "not-answer") {
    recordTask(figure, (t) => {
      t.tries += 1;
    });
  } else if (verdict === "solved") {
    recordTask(figure, (t) => {
      t.state = "solved";
    });
    const d = figure.dataset;
    figure.dispatchEvent(new CustomEvent("qiyuan:task-solved", {
      bubbles: true,
      detail: { game: d.game, lesson: d.lesson, diagram: Number(d.diagram), step: Number(d.step) },
    }));
  }
  taskOpened(figure);
}

// A task's hint, once opened, is remembered with the task.
function taskOpened(figure) {
  const hint = figure.matches("figure.diagram.task") && figure.querySelector("details.hint");
  if (!hint) return;
  hint.addEventListener("toggle", () => {
    if (hint.open) recordTask(figure, (t) => { t.hint = true; });
  });
}

// A task solved through links (no script at the time) is noted when its page is shown.
for (const figure of document.querySelectorAll("figure.diagram.task")) {
  if (figure.dataset.solved === "true") noteTask(figure, "solved");
  else taskOpened(figure);
}

function fillIn(template, values) {
  return template.replace(/\{(\w+)\}/g, (_, k) => values[k] ?? "");
}

function showProgress() {
  const all = load();
  const label = document.body.dataset.solvedLabel || "{n} / {total}";
  for (const box of document.querySelectorAll(".progress[data-keys]")) {
    const keys = box.dataset.keys.split(",").filter(Boolean);
    if (!keys.length) continue;
    const solved = keys.filter((k) => all[k] && all[k].state === "solved").length;
    box.innerHTML = "";
    const bar = document.createElement("span");
    bar.className = "bar";
    const fillBar = document.createElement("span");
    fillBar.style.width = `${Math.round((100 * solved) / keys.length)}%`;
    bar.append(fillBar);
    const text = document.createElement("span");
    text.textContent = fillIn(label, { n: solved, total: keys.length });
    box.append(bar, text);
    box.hidden = false;
  }
  for (const li of document.querySelectorAll("li[data-key]")) {
    const entry = all[li.dataset.key];
    if (entry && entry.state) li.classList.add(entry.state);
  }
  const review = document.getElementById("review");
  if (review) {
    const game = location.pathname.split("/")[1];
    const failed = Object.entries(all).filter(([k, e]) => k.startsWith(`${game}/`) && e.state === "failed");
    const list = review.querySelector("ul");
    list.innerHTML = "";
    for (const [, e] of failed) {
      const li = document.createElement("li");
      const a = document.createElement("a");
      a.href = e.href;
      a.textContent = e.title;
      li.append(a);
      list.append(li);
    }
    if (!failed.length) {
      const li = document.createElement("li");
      li.textContent = document.body.dataset.noFailed;
      list.append(li);
    }
    review.hidden = false;
  }
  const last = JSON.parse(localStorage.getItem(LAST) || "null");
  const cont = document.getElementById("continue");
  if (cont && last && last.href) {
    const a = cont.querySelector("a");
    a.href = last.href;
    a.textContent = last.title;
    cont.hidden = false;
  }
  for (const tools of document.querySelectorAll(".progress-tools")) tools.hidden = false;
}

document.addEventListener("click", (event) => {
  if (event.target.closest("button.print-page")) {
    window.print();
    return;
  }
  const clear = event.target.closest("button.clear-progress");
  if (clear && confirm(document.body.dataset.clearConfirm)) {
    localStorage.removeItem(STORE);
    localStorage.removeItem(LAST);
    location.reload();
  }
});

const problemBox = document.querySelector(".problem:not(.play-table)");
if (problemBox) {
  try {
    localStorage.setItem(LAST, JSON.stringify({ href: location.pathname, title: problemBox.dataset.title }));
  } catch {
    // Not kept.
  }
  if (new URLSearchParams(location.search).has("solution")) noteVerdict(problemBox, "wrong");
  const first = document.querySelector("#status .verdict");
  if (first) noteVerdict(problemBox, [...first.classList].find((c) => c !== "verdict"));
  const hint = document.querySelector("details.hint");
  if (hint) {
    hint.addEventListener("toggle", () => {
      if (hint.open) record(problemBox.dataset.key, (e) => { e.hint = true; e.title = problemBox.dataset.title; e.href = location.pathname; });
    });
  }
}
showProgress();

// Games: live boards and the learner's list of games.
if (document.querySelector(".play-table, #my-games")) import("/static/play.js");
if (document.querySelector(".record-view")) import("/static/record.js");
// A wide grid that scrolls sideways says so.
for (const wrap of document.querySelectorAll(".grid-wrap")) {
  const mark = () => {
    const scrolls = wrap.scrollWidth > wrap.clientWidth + 1;
    wrap.classList.toggle("scrolls", scrolls);
    const hint = wrap.previousElementSibling;
    if (hint && hint.classList.contains("scroll-hint")) hint.hidden = !scrolls;
  };
  mark();
  addEventListener("resize", mark);
}

// The live board's set: choosing one lists its problems.
for (const form of document.querySelectorAll("form.live-set")) {
  form.querySelector("select").addEventListener("change", () => form.submit());
}

// The login page's picture grid.
if (document.querySelector("form.student-login")) import("/static/login.js");

// The classroom: a logged-in student's hints and earlier progress go to the server.
if (document.body.dataset.student) import("/static/class.js");

// The live board: every page of a logged-in student listens for the class's live problem and
// goes to /live when one starts or changes (live.js runs the live pages themselves).
if (document.body.dataset.student) {
  const livePage = document.querySelector(".live-student");
  const seen = "qiyuan-live-round";
  if (livePage) sessionStorage.setItem(seen, livePage.dataset.round);
  new EventSource("/live/events").addEventListener("live", (event) => {
    const now = JSON.parse(event.data);
    if (livePage) {
      if (String(now.round) !== livePage.dataset.round || (now.revealed ? "1" : "0") !== livePage.dataset.revealed) location.href = "/live";
    } else if (now.problem && sessionStorage.getItem(seen) !== String(now.round)) {
      location.href = "/live";
    }
  });
}
if (document.querySelector(".live")) import("/static/live.js");
