// qiyuan: moves you can see happen at a game's table. A new board is compared with the one
// it replaces: a piece that moved slides from its old square, a new stone fades in, a
// captured stone or piece fades out. Optional sounds (a stone's click, a capture, check),
// drawn by the browser, are off until the learner turns them on; the choice is kept in this
// browser. `prefers-reduced-motion` turns every movement off.

const SOUND = "qiyuan:sound";
const calm = matchMedia("(prefers-reduced-motion: reduce)");

export function still() {
  return calm.matches;
}

export function soundOn() {
  try {
    return localStorage.getItem(SOUND) === "on";
  } catch {
    return false;
  }
}

export function setSound(on) {
  try {
    localStorage.setItem(SOUND, on ? "on" : "off");
  } catch {
    // Storage forbidden: the choice lasts this page.
  }
}

let audio = null;
// A short tone: `kind` is `click` (a stone or piece put down), `capture` or `check`.
export function play(kind) {
  if (!soundOn()) return;
  try {
    audio = audio || new AudioContext();
    const tones = { click: [[880, 0.05]], capture: [[660, 0.06], [440, 0.08]], check: [[990, 0.08], [1320, 0.1]] };
    let at = audio.currentTime;
    for (const [freq, length] of tones[kind] || tones.click) {
      const osc = audio.createOscillator();
      const gain = audio.createGain();
      osc.frequency.value = freq;
      gain.gain.setValueAtTime(0.2, at);
      gain.gain.exponentialRampToValueAtTime(0.001, at + length);
      osc.connect(gain).connect(audio.destination);
      osc.start(at);
      osc.stop(at + length);
      at += length;
    }
  } catch {
    // No sound here: the game goes on silently.
  }
}

// The drawn things of a board: `layer|tag|shape` → [element, position] for pieces placed by
// `transform`, and `layer|x y` → element for stones (circles).
function inventory(svg) {
  const pieces = new Map();
  const stones = new Map();
  for (const el of svg.querySelectorAll("[transform^='translate(']")) {
    const layer = el.parentNode.getAttribute("class") || "";
    const shape = el.getAttribute("d") || el.textContent;
    const key = `${layer}|${el.tagName}|${shape}`;
    if (!pieces.has(key)) pieces.set(key, []);
    pieces.get(key).push(el);
  }
  svg.querySelectorAll(".stones circle").forEach((el) => {
    const layer = [...el.parentNode.parentNode.children].indexOf(el.parentNode);
    stones.set(`${layer}|${el.getAttribute("cx")} ${el.getAttribute("cy")}`, el);
  });
  return { pieces, stones };
}

// `translate(300 400) rotate(180)` as CSS.
function css(transform) {
  return transform
    .replace(/translate\(([-\d.]+)[ ,]+([-\d.]+)\)/, "translate($1px, $2px)")
    .replace(/rotate\(([-\d.]+)\)/, "rotate($1deg)");
}

// Leaves a copy of `el` fading out in the new board, then takes it away.
function fadeOut(el, into) {
  const ghost = el.cloneNode(true);
  ghost.classList.add("leave");
  into.append(ghost);
  setTimeout(() => ghost.remove(), 500);
}

// Shows the change from the board `old` to the board `fresh` (both SVG elements, `fresh`
// already in the page). What was taken away, for the sound.
export function animate(old, fresh) {
  if (!old || !fresh || still()) return { captured: false };
  const before = inventory(old);
  const after = inventory(fresh);
  let captured = false;
  // Pieces: a shape gone from one square and come to another slid there.
  for (const [key, now] of after.pieces) {
    const was = (before.pieces.get(key) || []).map((e) => e.getAttribute("transform"));
    const stay = new Set(was);
    const arrived = now.filter((e) => !stay.has(e.getAttribute("transform")));
    const left = was.filter((t) => !now.some((e) => e.getAttribute("transform") === t));
    arrived.forEach((el, i) => {
      const from = left[i];
      if (from) el.animate([{ transform: css(from) }, { transform: css(el.getAttribute("transform")) }], { duration: 260, easing: "ease-out" });
      else el.classList.add("appear");
    });
  }
  for (const [key, was] of before.pieces) {
    const now = (after.pieces.get(key) || []).map((e) => e.getAttribute("transform"));
    const gone = was.filter((e) => !now.includes(e.getAttribute("transform")));
    const moved = Math.max(0, now.length - (was.length - gone.length));
    gone.slice(moved).forEach((el) => {
      captured = true;
      const layer = fresh.querySelector(`[class="${el.parentNode.getAttribute("class")}"]`);
      if (layer) fadeOut(el, layer);
    });
  }
  // Stones: new ones fade in, taken ones fade out.
  for (const [key, el] of after.stones) if (!before.stones.has(key)) el.classList.add("appear");
  const layers = fresh.querySelectorAll(".stones > g");
  for (const [key, el] of before.stones) {
    if (after.stones.has(key)) continue;
    const index = Number(key.split("|")[0]);
    if (layers[index]) {
      captured = true;
      fadeOut(el, layers[index]);
    }
  }
  return { captured };
}

export function pause(ms) {
  return new Promise((done) => setTimeout(done, still() ? 0 : ms));
}
