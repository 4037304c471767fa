// qiyuan: the record page (打谱) without reloads. Arrow keys step through the record (← →),
// choose among the moves played in one place (↑ ↓), Home and End go to the start and the
// end of the line; links and forms are fetched and the page swapped in place. Every step
// is an ordinary link and every move tried an ordinary form, so the page works without it.

const KEYS = new Set(["ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown", "Home", "End"]);
let busy = false;

function view() {
  return document.getElementById("record");
}

// Puts the record of `html` (a whole page) in place of this one's.
function swap(html, url, push) {
  const doc = new DOMParser().parseFromString(html, "text/html");
  const next = doc.getElementById("record");
  const here = view();
  if (!next || !here) {
    location.href = url;
    return;
  }
  here.replaceWith(next);
  document.title = doc.title;
  const lang = doc.querySelector("a.lang-switch");
  const mine = document.querySelector("a.lang-switch");
  if (lang && mine) mine.setAttribute("href", lang.getAttribute("href"));
  if (push) history.pushState({ record: true }, "", url);
  const current = next.querySelector(".record-tree a.current");
  if (current && current.scrollIntoView) current.scrollIntoView({ block: "nearest" });
}

async function load(url, options, push) {
  if (busy) return;
  busy = true;
  const here = view();
  if (here) here.classList.add("busy");
  try {
    const response = await fetch(url, Object.assign({ headers: { Accept: "text/html" } }, options));
    const html = await response.text();
    // A refused move comes back as the page at the same place, with the reason.
    const target = response.ok ? response.url : location.href;
    swap(html, target, push && target !== location.href);
  } catch {
    location.href = url;
  } finally {
    busy = false;
    const v = view();
    if (v) v.classList.remove("busy");
  }
}

function go(href) {
  return load(new URL(href, location.href).href, {}, true);
}

function post(form, extra) {
  const data = new URLSearchParams(new FormData(form));
  for (const [k, v] of Object.entries(extra || {})) data.set(k, v);
  return load(new URL(form.getAttribute("action"), location.href).href, { method: "POST", body: data }, true);
}

document.addEventListener("keydown", (event) => {
  if (!view() || !KEYS.has(event.key)) return;
  if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
  const target = event.target;
  if (/^(INPUT|TEXTAREA|SELECT|BUTTON)$/.test(target.tagName)) return;
  // On the board the arrows move between points (app.js).
  if (target.closest && target.closest("#board")) return;
  const link = view().querySelector(`.record-nav a[data-key="${event.key}"]`);
  if (!link) return;
  event.preventDefault();
  if (link.getAttribute("aria-disabled") === "true") return;
  go(link.getAttribute("href"));
});

document.addEventListener("click", (event) => {
  if (!view() || event.defaultPrevented || event.button !== 0) return;
  if (event.ctrlKey || event.metaKey || event.shiftKey) return;
  const link = event.target.closest && event.target.closest("#record a[href]");
  if (!link || link.hasAttribute("download") || link.classList.contains("print-link")) return;
  // SVG links (the board's points) keep their address in the attribute only.
  const url = new URL(link.getAttribute("href"), location.href);
  if (url.origin !== location.origin || !url.pathname.startsWith("/records/")) return;
  event.preventDefault();
  // A point of the board: the move is tried at once (without the script, it is confirmed).
  const tried = url.searchParams.get("try");
  const form = view().querySelector("form.move-form");
  if (tried && form) {
    post(form, { move: tried });
    return;
  }
  go(url.href);
});

document.addEventListener("submit", (event) => {
  const form = event.target;
  if (!view() || !form.closest || !form.closest("#record")) return;
  if ((form.getAttribute("method") || "").toLowerCase() !== "post") return;
  event.preventDefault();
  post(form);
});

window.addEventListener("popstate", () => {
  if (view()) load(location.href, {}, false);
});
