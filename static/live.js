// qiyuan: the live pages. A student's click on the board sends the answer at once (without
// the script the link asks to confirm); the teacher's tally follows its own event stream.

const csrf = document.body.dataset.csrf || "";

const student = document.querySelector(".live-student");
if (student) {
  document.addEventListener("click", async (event) => {
    const link = event.target.closest && event.target.closest('.live-board a.pt[href*="play="], .live-student .choices a[href*="play="]');
    if (!link) return;
    event.preventDefault();
    // An SVG link's `href` is no string: its attribute is.
    const href = link.getAttribute("href");
    const play = new URL(href, location.href).searchParams.get("play");
    const body = new URLSearchParams({ csrf, round: student.dataset.round, answer: play });
    try {
      const response = await fetch("/live/answer", { method: "POST", body });
      if (response.ok) {
        location.href = "/live";
        return;
      }
      const holder = document.createElement("div");
      holder.innerHTML = await response.text();
      const said = holder.querySelector(".verdict");
      let shown = document.getElementById("live-refused");
      if (!shown) {
        shown = document.createElement("p");
        shown.id = "live-refused";
        shown.className = "verdict illegal";
        shown.setAttribute("role", "alert");
        student.querySelector(".problem-side").append(shown);
      }
      shown.textContent = said ? said.textContent : response.statusText;
    } catch {
      location.href = href;
    }
  });
}

const teacher = document.querySelector(".live-teacher");
if (teacher) {
  const tally = document.getElementById("live-tally");
  new EventSource(teacher.dataset.events).addEventListener("tally", (event) => {
    const now = JSON.parse(event.data);
    if (!now || now.problem !== teacher.dataset.problem || String(now.round) !== teacher.dataset.round) {
      location.reload();
      return;
    }
    tally.innerHTML = now.html;
    tally.dataset.answered = String(now.answered);
  });
}
