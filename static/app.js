// qiyuan: upgrades the links of lesson diagrams and problem boards. Every page works without it.

const lang = document.body.dataset.lang || "zh";

// Lesson diagrams: step without reloading the page; ← and → step the focused or visible diagram.
async function stepDiagram(link) {
  const figure = link.closest("figure.diagram");
  const url = new URL(link.href, location.href);
  const fragment = `${figure.dataset.fragment}?s=${encodeURIComponent(url.searchParams.get("s") || "")}&lang=${lang}`;
  try {
    const response = await fetch(fragment);
    if (!response.ok) throw new Error(response.statusText);
    const holder = document.createElement("div");
    holder.innerHTML = await response.text();
    const fresh = holder.querySelector("figure.diagram");
    figure.replaceWith(fresh);
    fresh.focus({ preventScroll: true });
    history.replaceState(null, "", url.pathname + url.search);
  } catch {
    location.href = link.href;
  }
}

document.addEventListener("click", (event) => {
  const step = event.target.closest("figure.diagram a.step");
  if (step) {
    event.preventDefault();
    stepDiagram(step);
    return;
  }
  const point = event.target.closest("#board a.pt");
  if (point) {
    event.preventDefault();
    attempt(point);
  }
});

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
  if (event.target.closest && event.target.closest("#board")) return boardKeys(event);
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

// Problem boards: one tab stop; arrows move between points, Enter plays.
function points() {
  return [...document.querySelectorAll("#board a.pt")];
}

function coords(a) {
  const name = a.dataset.p;
  const col = "ABCDEFGHJKLMNOPQRSTUVWXYZ".indexOf(name[0]);
  return [col, parseInt(name.slice(1), 10)];
}

function rovingFocus(keep) {
  const all = points();
  if (!all.length) return;
  const current = all.find((a) => a.dataset.p === keep) || all[Math.floor(all.length / 2)];
  for (const a of all) a.setAttribute("tabindex", a === current ? "0" : "-1");
  return current;
}

function boardKeys(event) {
  const moves = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, 1], ArrowDown: [0, -1] };
  const delta = moves[event.key];
  const here = event.target.closest("a.pt");
  if (!delta || !here) return;
  event.preventDefault();
  const [c, r] = coords(here);
  const target = points().find((a) => {
    const [c2, r2] = coords(a);
    return c2 === c + delta[0] && r2 === r + delta[1];
  });
  if (target) {
    here.setAttribute("tabindex", "-1");
    target.setAttribute("tabindex", "0");
    target.focus();
  }
}

async function attempt(point) {
  const problem = document.querySelector(".problem");
  const list = (s) => (s ? s.split(",") : []);
  const body = {
    game: problem.dataset.game,
    set: problem.dataset.set,
    id: problem.dataset.id,
    moves: list(problem.dataset.moves),
    picked: list(problem.dataset.picked),
    play: point.dataset.p,
    lang,
  };
  const hadFocus = document.activeElement === point;
  try {
    const response = await fetch("/api/attempt", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    if (!response.ok) throw new Error(response.statusText);
    const reply = await response.json();
    document.getElementById("board").innerHTML = reply.svg;
    document.getElementById("status").innerHTML = reply.status;
    problem.dataset.moves = reply.moves.join(",");
    problem.dataset.picked = reply.picked.join(",");
    history.replaceState(null, "", reply.url);
    const next = rovingFocus(body.play);
    if (hadFocus && next) next.focus();
    if (!next) {
      const action = document.querySelector("#status .actions a");
      if (hadFocus && action) action.focus();
    }
  } catch {
    location.href = point.href;
  }
}

rovingFocus();
