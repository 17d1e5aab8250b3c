// FilterCast page, the filter picker: a button per catalog filter — "None" on its own row,
// always in sight, the others under a heading per category in a box that scrolls when the
// catalog is long.
import { categoryOf, categoryTitle } from "./catalog.js";
import { byId } from "./helpers.js";
import { player } from "./player.js";

const picker = byId("filters");
const filters = player.filters;

/// Builds the buttons for the current catalog; `choose(name)` runs when one is clicked.
export function buildPicker(choose) {
  const pinned = document.createElement("div");
  pinned.className = "chips chips-pinned";
  filters.scroller = document.createElement("div");
  filters.scroller.className = "filter-groups";
  const groups = new Map(); // category → its chips' box
  for (const filter of filters.catalog) {
    if (filter.name === "none") {
      pinned.append(filterButton(filter, choose));
      continue;
    }
    const category = categoryOf(filter);
    if (!groups.has(category)) groups.set(category, categoryGroup(category, groups.size));
    groups.get(category).append(filterButton(filter, choose));
  }
  picker.replaceChildren(...[pinned, filters.scroller].filter((part) => part.childElementCount > 0));
  filters.shownPick = null;
}

/// Presses the button of `name` (and no other), and scrolls it into sight when it changed.
export function showPicked(name) {
  let current = null;
  for (const button of picker.querySelectorAll("[data-filter]")) {
    const pressed = button.dataset.filter === name;
    button.setAttribute("aria-pressed", String(pressed));
    if (pressed) current = button;
  }
  if (filters.shownPick === name) return;
  filters.shownPick = name;
  if (current) revealInPicker(current);
}

/// The picked filter's button, for the keyboard focus.
export function pickedButton() {
  return picker.querySelector('[aria-pressed="true"]');
}

/// A category's heading and chips' box, appended to the scroller; returns the box. `index`
/// makes the heading's id.
function categoryGroup(category, index) {
  const group = document.createElement("div");
  group.className = "filter-group";
  group.dataset.category = category;
  const title = document.createElement("h3");
  title.className = "filter-group-title";
  title.id = `filter-group-${index}`;
  title.textContent = categoryTitle(category);
  const chips = document.createElement("div");
  chips.className = "chips";
  chips.setAttribute("role", "group");
  chips.setAttribute("aria-labelledby", title.id);
  group.append(title, chips);
  filters.scroller.append(group);
  return chips;
}

function filterButton(filter, choose) {
  const label = filter.label || filter.name;
  const button = document.createElement("button");
  button.type = "button";
  button.className = "chip";
  button.dataset.filter = filter.name;
  button.textContent = label;
  button.title = label;
  button.setAttribute("aria-label", `Filter: ${label}`);
  button.setAttribute("aria-pressed", "false");
  button.addEventListener("click", () => choose(filter.name));
  return button;
}

/// Scrolls the picker's own box (never the page) so that `button` is in sight, with its
/// category heading when it is on the first row of its group.
function revealInPicker(button) {
  if (!filters.scroller || !filters.scroller.contains(button) || filters.scroller.scrollHeight <= filters.scroller.clientHeight) return;
  const margin = 6;
  const box = filters.scroller.getBoundingClientRect();
  const chip = button.getBoundingClientRect();
  const row = button.parentElement.getBoundingClientRect();
  const group = button.closest(".filter-group")?.getBoundingClientRect();
  const top = group && chip.top - row.top < 2 ? group.top : chip.top;
  if (top < box.top + margin) filters.scroller.scrollTop += top - box.top - margin;
  else if (chip.bottom > box.bottom - margin) filters.scroller.scrollTop += chip.bottom - box.bottom + margin;
}
