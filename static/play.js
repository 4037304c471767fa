// qiyuan: game tables live. Moves go to /api/games/{id}/moves, the board follows the game by
// server-sent events, and the learner's games are listed from this browser's storage. Every
// page works without it (forms and links).

const lang = document.body.dataset.lang || "zh";
const GAMES = "qiyuan:games";
const table = document.querySelector(".play-table");

function myGames() {
  try {
    return JSON.parse(localStorage.getItem(GAMES)) || [];
  } catch {
    return [];
  }
}

function remember(entry) {
  const all = myGames().filter((g) => g.id !== entry.id);
  all.unshift(entry);
  try {
    localStorage.setItem(GAMES, JSON.stringify(all.slice(0, 50)));
  } catch {
    // Storage full or forbidden: the list is simply not kept.
  }
}

function listMyGames() {
  const box = document.getElementById("my-games");
  if (!box) return;
  const games = myGames();
  if (!games.length) return;
  const list = box.querySelector("ul");
  list.innerHTML = "";
  for (const g of games) {
    const li = document.createElement("li");
    const a = document.createElement("a");
    a.href = `/play/${encodeURIComponent(g.id)}`;
    a.textContent = `${g.title} · ${g.id}`;
    const when = document.createElement("small");
    when.textContent = ` ${new Date(g.t).toLocaleString(lang === "zh" ? "zh-CN" : "en")}`;
    li.append(a, when);
    list.append(li);
  }
  box.hidden = false;
}

listMyGames();

if (table) {
  const id = table.dataset.id;
  let version = Number(table.dataset.version) || 0;
  let view = {
    sel: "",
    at: table.dataset.at || "",
    hints: table.dataset.hints !== "false",
  };
  let busy = false;

  if (table.dataset.seated === "true") {
    remember({ id, title: document.title.split(" · ")[0], t: Date.now() });
  }

  function viewQuery() {
    const q = new URLSearchParams({ view: "1", lang });
    if (view.sel) q.set("sel", view.sel);
    if (view.sel && view.to) q.set("to", view.to);
    if (view.at !== "") q.set("at", view.at);
    if (!view.hints) q.set("hints", "0");
    return q;
  }

  function pageAddress() {
    const q = new URLSearchParams();
    if (!view.hints) q.set("hints", "0");
    if (view.at !== "") q.set("at", view.at);
    const s = q.toString();
    return `/play/${id}${s ? `?${s}` : ""}`;
  }

  function focusedPoint() {
    const a = document.activeElement;
    return a && a.closest && a.closest("#board a.pt") ? a.dataset.p : null;
  }

  // The running clock counts down between updates from the server.
  let clockShown = performance.now();
  function mmss(ms) {
    const s = Math.max(0, Math.ceil(ms / 1000));
    const h = Math.floor(s / 3600);
    const m = Math.floor((s % 3600) / 60);
    const pad = (n) => String(n).padStart(2, "0");
    return h ? `${h}:${pad(m)}:${pad(s % 60)}` : `${m}:${pad(s % 60)}`;
  }
  function tick() {
    const clock = document.querySelector("#side .clock.running");
    if (!clock) return;
    const spent = performance.now() - clockShown;
    const left = Number(clock.dataset.ms) - spent;
    const byoyomi = Number(clock.dataset.byoyomi);
    const b = clock.querySelector("b");
    if (!b) return;
    if (left > 0 || !byoyomi) b.textContent = mmss(left);
    else b.textContent = `${clock.dataset.byoyomiLabel} ${mmss(byoyomi + left)}`;
  }
  setInterval(tick, 250);

  // Moves you can see happen (motion.js), loaded with the table.
  const motion = import("/static/motion.js");
  let shownMoves = Number(table.dataset.moves || 0);

  // Puts `svg` in place of the board; when moves were added, shows them happen and sounds
  // them.
  async function showBoard(svg, moves, check) {
    const m = await motion;
    const board = document.getElementById("board");
    const old = board.querySelector("svg");
    board.innerHTML = svg;
    if (moves > shownMoves) {
      const { captured } = m.animate(old, board.querySelector("svg"));
      m.play(check ? "check" : captured ? "capture" : "click");
    }
    shownMoves = moves;
  }

  async function refresh() {
    const keep = focusedPoint();
    const response = await fetch(`/api/games/${id}?${viewQuery()}`, { credentials: "same-origin" });
    if (!response.ok) return;
    const state = await response.json();
    version = Math.max(version, state.version);
    const moves = view.at === "" ? state.moves.length : Number(view.at);
    await showBoard(state.svg, moves, state.check);
    document.getElementById("side").innerHTML = state.side;
    clockShown = performance.now();
    history.replaceState(null, "", pageAddress());
    roving(keep);
  }

  // After the learner's move: their move on the board at once, the opponent's reply after a
  // short pause.
  async function showOwnMove(before) {
    const q = viewQuery();
    q.set("at", String(before + 1));
    q.delete("sel");
    q.delete("to");
    const response = await fetch(`/api/games/${id}?${q}`, { credentials: "same-origin" });
    if (!response.ok) return;
    const state = await response.json();
    if (state.moves.length <= before + 1) return;
    await showBoard(state.svg, before + 1, false);
    await (await motion).pause(450);
  }

  // The sound switch: off until turned on, remembered in this browser.
  const soundSwitch = document.querySelector("button.sound-toggle");
  if (soundSwitch) {
    motion.then((m) => {
      const show = () => soundSwitch.setAttribute("aria-pressed", m.soundOn() ? "true" : "false");
      show();
      soundSwitch.hidden = false;
      soundSwitch.addEventListener("click", () => {
        m.setSound(!m.soundOn());
        show();
        m.play("click");
      });
    });
  }

  // One tab stop on the board, kept where the learner was.
  function roving(keep) {
    const all = [...document.querySelectorAll("#board a.pt")];
    if (!all.length) return;
    const current = all.find((a) => a.dataset.p === keep) || all[Math.floor(all.length / 2)];
    for (const a of all) a.setAttribute("tabindex", a === current ? "0" : "-1");
    if (keep) current.focus();
  }

  function showRefusal(text) {
    const status = document.getElementById("status");
    if (!status) return;
    const box = document.createElement("div");
    box.className = "verdict illegal";
    box.setAttribute("role", "alert");
    const p = document.createElement("p");
    p.className = "message";
    p.textContent = text;
    box.append(p);
    status.prepend(box);
  }

  async function send(move) {
    if (busy) return;
    busy = true;
    table.classList.add("busy");
    const before = shownMoves;
    try {
      const response = await fetch(`/api/games/${id}/moves`, {
        method: "POST",
        credentials: "same-origin",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ move }),
      });
      view.sel = "";
      view.to = "";
      view.at = "";
      if (response.ok) {
        await showOwnMove(before);
        await refresh();
      } else {
        const body = await response.json().catch(() => null);
        await refresh();
        if (body && body.reason) showRefusal(body.reason[lang] || body.reason.en);
      }
    } catch {
      location.reload();
    } finally {
      busy = false;
      table.classList.remove("busy");
    }
  }

  table.addEventListener("click", (event) => {
    const link = event.target.closest("a");
    if (!link || !link.getAttribute("href")) return;
    const url = new URL(link.getAttribute("href"), location.href);
    if (url.pathname !== `/play/${id}`) return;
    const q = url.searchParams;
    event.preventDefault();
    if (q.has("confirm")) {
      send(q.get("confirm"));
      return;
    }
    view.sel = q.get("sel") || "";
    view.to = q.get("to") || "";
    view.at = q.get("at") || "";
    view.hints = q.get("hints") !== "0";
    refresh();
  });

  table.addEventListener("submit", (event) => {
    const form = event.target;
    const field = form.querySelector('[name="move"]');
    if (!field) return;
    event.preventDefault();
    const button = form.querySelector("button[data-confirm]");
    if (button && !confirm(button.dataset.confirm)) return;
    const move = field.value.trim();
    if (move) send(move);
  });

  // The game as it goes: every change comes as a `state` event.
  let events = null;
  function listen() {
    if (events) events.close();
    events = new EventSource(`/api/games/${id}/events`);
    events.addEventListener("state", (event) => {
      let state;
      try {
        state = JSON.parse(event.data);
      } catch {
        return;
      }
      if (state.version > version && !busy) {
        version = state.version;
        refresh();
      }
      // Over and settled: against the computer, or once a rematch is open.
      if (state.over && (state.rematch || state.seats.some((s) => s.kind === "computer"))) events.close();
    });
  }
  listen();
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") {
      refresh();
      if (!events || events.readyState === EventSource.CLOSED) listen();
    }
  });
  roving(null);
}
