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

function centre(a) {
  const r = a.getBoundingClientRect();
  return [r.left + r.width / 2, r.top + r.height / 2, r.width];
}

function rovingFocus(keep) {
  const all = points();
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
  if (event.key === "Enter" || event.key === " ") {
    // SVG links do not follow on Enter by themselves.
    event.preventDefault();
    attempt(here);
    return;
  }
  if (!delta) return;
  event.preventDefault();
  const [x, y, size] = centre(here);
  let best = null;
  let bestDistance = Infinity;
  for (const a of points()) {
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
  const list = (s) => (s ? s.split(",") : []);
  const href = point.getAttribute("href");
  const link = new URL(href, location.href).searchParams;
  const body = {
    game: problem.dataset.game,
    set: problem.dataset.set,
    id: problem.dataset.id,
    moves: list(problem.dataset.moves),
    picked: list(problem.dataset.picked),
    selected: problem.dataset.selected || null,
    lang,
  };
  if (link.has("play")) body.play = link.get("play");
  else if (link.has("sel")) {
    body.select = link.get("sel");
    if (link.has("to")) body.to = link.get("to");
  } else body.select = "";
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
    problem.dataset.selected = reply.selected || "";
    history.replaceState(null, "", reply.url);
    const next = rovingFocus(point.dataset.p);
    if (hadFocus && next) next.focus();
    if (!next) {
      const action = document.querySelector("#status .actions a, #status .choices a");
      if (hadFocus && action) action.focus();
    }
  } catch {
    location.href = href;
  }
}

rovingFocus();
