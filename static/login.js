// The login page: the three pictures chosen one after the other from one grid, shown in a
// row of three slots; a slot tapped chooses its picture again. Without the script the three
// grids are all shown, one a picture.

const form = document.querySelector("form.student-login");
const sets = [...form.querySelectorAll("fieldset.pictures")];
const slots = [...form.querySelectorAll(".picked .slot")];

// Shows the grid of picture `n` (0, 1 or 2) and marks its slot.
function show(n) {
  sets.forEach((set, i) => set.classList.toggle("active", i === n));
  slots.forEach((slot, i) => slot.classList.toggle("active", i === n));
}

// Draws the chosen picture of grid `i` in its slot.
function fill(i) {
  const chosen = sets[i].querySelector("input:checked");
  const holder = slots[i].querySelector(".slot-picture");
  holder.replaceChildren();
  slots[i].classList.toggle("filled", !!chosen);
  if (!chosen) return;
  const picture = chosen.closest(".picture");
  const img = picture.querySelector("img").cloneNode();
  img.alt = picture.querySelector(".word").textContent;
  holder.append(img);
}

if (sets.length === 3 && slots.length === 3) {
  form.classList.add("js-pictures");
  form.querySelector(".picked").hidden = false;
  sets.forEach((set, i) => {
    fill(i);
    set.addEventListener("change", () => {
      fill(i);
      const next = sets.findIndex((s) => !s.querySelector("input:checked"));
      show(next === -1 ? i : next);
      if (next === -1) form.querySelector("button[type=submit]").focus({ preventScroll: true });
      else sets[next].querySelector("input").focus({ preventScroll: true });
    });
  });
  slots.forEach((slot, i) =>
    slot.addEventListener("click", () => {
      show(i);
      sets[i].querySelector("input:checked, input").focus({ preventScroll: true });
    }),
  );
  show(0);
}
