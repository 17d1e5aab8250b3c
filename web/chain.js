// FilterCast page, the filter chain: the chips of its links (each picks its link for the
// picker; × or Delete removes it; where the server has the person matte, a region picker applies
// it to the whole picture, the person or the background), "+ Add to chain", Reset, and what the
// picker's choice does to the chain (docs/PROTOCOL.md, "Commands" and "Regions").
import { descriptorOf, labelOf } from "./catalog.js";
import { send } from "./connection.js";
import { buildPicker, pickedButton, showPicked } from "./filters.js";
import { byId } from "./helpers.js";
import { buildSliders, cancelParamEdits, syncSliders } from "./params.js";
import { player } from "./player.js";

/// The longest chain of servers whose hello has no `maxChainLength`.
const MAX_CHAIN_LENGTH_BEFORE_HELLO = 8;

/// What the region picker says of each region a server may offer (`hello.regions`).
const REGION_LABELS = { all: "All", person: "Person", background: "Background" };

const ui = {
  currentFilter: byId("current-filter"),
  chain: byId("chain"),
  add: byId("chain-add"),
  reset: byId("reset"),
};
const filters = player.filters;

/// The longest chain this server takes.
function maxChainLength() {
  return filters.maxChainLength ?? MAX_CHAIN_LENGTH_BEFORE_HELLO;
}

function pickedLink(chain) {
  return Math.max(0, Math.min(filters.selectedLink, chain.length - 1));
}

/// Shows the session's chain: the picker's pressed filter, the title, the chips and sliders
/// (rebuilt when the links changed), and what "+" may do.
export function renderChain() {
  const chain = player.currentChain();
  const picked = chain.length ? chain[pickedLink(chain)].name : "none";
  showPicked(picked);
  const title = chain.length ? chain.map((link) => labelOf(link.name)).join(" → ") : labelOf("none");
  if (ui.currentFilter.textContent !== title) {
    ui.currentFilter.textContent = title;
    ui.currentFilter.title = title; // the header cuts a long chain short
  }
  const names = chain.map((link) => `${link.name}@${link.region || "all"}`).join("|");
  if (filters.shownChain !== names) {
    filters.shownChain = names;
    buildChain(chain);
  }
  for (const button of ui.chain.querySelectorAll("[data-link]")) {
    button.setAttribute("aria-pressed", String(chain.length > 1 && Number(button.dataset.link) === pickedLink(chain)));
  }
  const full = chain.length >= maxChainLength();
  ui.add.disabled = chain.length === 0 || full;
  ui.add.title = full ? `A chain holds at most ${maxChainLength()} filters`
    : chain.length ? `Add ${labelOf(picked)} after the last filter, then pick what it should be` : "Pick a filter first";
  syncSliders();
}

/// The chips and every link's sliders. Keeps the keyboard focus on the chips when it was there.
function buildChain(chain) {
  const focused = ui.chain.contains(document.activeElement) ? Number(document.activeElement.dataset.link ??
    document.activeElement.dataset.linkRemove) : null;
  ui.chain.replaceChildren(...chain.map((link, index) => linkChip(link, index, chain.length)));
  ui.chain.hidden = chain.length === 0;
  buildSliders(chain);
  ui.reset.disabled = !chain.some((link) => (descriptorOf(link.name)?.params || []).length > 0);
  if (focused !== null) {
    const target = ui.chain.querySelector(`[data-link="${Math.min(focused, chain.length - 1)}"]`) || pickedButton();
    target?.focus();
  }
}

function linkChip(link, index, count) {
  const label = labelOf(link.name);
  const item = document.createElement("li");
  item.className = "link";
  const select = document.createElement("button");
  select.type = "button";
  select.className = "link-select";
  select.dataset.link = String(index);
  select.textContent = count > 1 ? `${index + 1}. ${label}` : label;
  select.title = count > 1 ? `Filter ${index + 1}: the picker changes it` : label;
  select.setAttribute("aria-label", `Filter ${index + 1} of ${count}: ${label}`);
  select.setAttribute("aria-pressed", "false");
  select.addEventListener("click", () => {
    filters.selectedLink = index;
    renderChain();
  });
  select.addEventListener("keydown", (event) => {
    if (event.key !== "Delete" && event.key !== "Backspace") return;
    event.preventDefault();
    removeLink(index);
  });
  const remove = document.createElement("button");
  remove.type = "button";
  remove.className = "link-remove";
  remove.dataset.linkRemove = String(index);
  remove.textContent = "×";
  remove.title = "Remove from the chain";
  remove.setAttribute("aria-label", `Remove ${label} (filter ${index + 1}) from the chain`);
  remove.addEventListener("click", () => removeLink(index));
  item.append(...[select, regionPicker(link, index, label), remove].filter(Boolean));
  return item;
}

/// The link's region (`data-link-region`: its index), or null where the server offers none.
function regionPicker(link, index, label) {
  if (!filters.regions) return null;
  const picker = document.createElement("select");
  picker.className = "link-region";
  picker.dataset.linkRegion = String(index);
  picker.title = "Where the filter applies";
  picker.setAttribute("aria-label", `Where ${label} (filter ${index + 1}) applies`);
  picker.append(...filters.regions.map((region) => new Option(REGION_LABELS[region] || region, region)));
  picker.value = link.region || "all";
  picker.addEventListener("change", () => {
    const chain = player.currentChain();
    sendChain(chain.map((each, i) => (i === index ? { ...each, region: picker.value } : each)));
  });
  return picker;
}

/// Makes `links` ([{name, params?, region?}]) the chain the controls edit (the program's, or in
/// studio mode the preview's); none when empty. A link keeps its region (left out for all).
export function sendChain(links) {
  cancelParamEdits();
  if (links.length === 0) send({ type: "setFilter", name: "none", ...player.chainTarget() });
  else send({ type: "setFilter", chain: links.map(wireLink), ...player.chainTarget() });
}

/// A link as setFilter's chain takes it.
function wireLink({ name, params, region }) {
  return { name, ...(params ? { params } : {}), ...(region && region !== "all" ? { region } : {}) };
}

/// The picker: with one filter or none it switches filters (`setFilter {name}`); in a longer
/// chain it replaces the picked link. "None" is no filter at all: it clears the whole chain (a
/// link alone goes with its ×).
function chooseFilter(name) {
  const chain = player.currentChain();
  const region = chain[pickedLink(chain)]?.region;
  if (chain.length <= 1 && region && name !== "none") {
    sendChain([{ name, region }]); // a filter on the background stays on the background
    return;
  }
  if (chain.length <= 1 || name === "none") {
    filters.selectedLink = 0;
    cancelParamEdits();
    send({ type: "setFilter", name, ...player.chainTarget() });
    return;
  }
  const index = pickedLink(chain);
  sendChain(chain.map((link, i) => (i === index ? { name, region: link.region } : link)));
}

/// "+": appends the picked filter as a new link, which the picker then edits.
function addToChain() {
  const chain = player.currentChain();
  if (chain.length === 0 || chain.length >= maxChainLength()) return;
  filters.selectedLink = chain.length;
  const { name, region } = chain[pickedLink(chain)];
  sendChain([...chain, { name, region }]);
}

function removeLink(index) {
  const chain = player.currentChain();
  if (index >= chain.length) return;
  if (filters.selectedLink > index) filters.selectedLink -= 1;
  sendChain(chain.filter((_, i) => i !== index));
}

/// Every link's parameters back to their defaults.
function resetParams() {
  const chain = player.currentChain();
  if (chain.length <= 1 && !chain[0]?.region) {
    cancelParamEdits();
    send({ type: "setFilter", name: chain[0]?.name || "none", ...player.chainTarget() });
    return;
  }
  sendChain(chain.map(({ name, region }) => ({ name, region })));
}

ui.reset.addEventListener("click", resetParams);
ui.add.addEventListener("click", addToChain);

player.on("hello", (hello) => {
  const limit = hello.maxChainLength;
  filters.maxChainLength = Number.isInteger(limit) && limit > 0 ? limit : null;
  filters.regions = Array.isArray(hello.regions) && hello.regions.length > 1 ? hello.regions : null;
  buildPicker(chooseFilter);
  ui.chain.replaceChildren();
  filters.shownChain = null;
});
// The catalog changed: the picker and the sliders (a choice parameter's options) follow it.
player.on("catalog", () => {
  buildPicker(chooseFilter);
  filters.shownChain = null;
  renderChain();
});
player.on("state", renderChain);
