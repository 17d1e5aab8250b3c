// FilterCast page, parameters: a slider per parameter of every link of the chain. A slider
// sends `setParams {index, params}` while dragged (throttled) and otherwise shows the server's
// value. A choice parameter (the style filter's styles, the lut filter's LUTs) also shows its
// options as pictures (each choice's `thumbnail`): a click moves its slider to the option's index
// and sends it as the slider would.
import { descriptorOf, labelOf } from "./catalog.js";
import { send } from "./connection.js";
import { takesFiles } from "./choice-files.js";
import { byId } from "./helpers.js";
import { player } from "./player.js";
import { CONFIRM_TIMEOUT_MS, SEND_INTERVAL_MS, Throttle } from "./throttle.js";

const box = byId("params");
const filters = player.filters;

/// Every link's sliders (under its name when the chain has several links), in chain order.
export function buildSliders(chain) {
  cancelParamEdits();
  filters.paramThrottles = chain.map(() => new Throttle(SEND_INTERVAL_MS, (older, newer) => ({ ...older, ...newer })));
  box.replaceChildren(...chain.flatMap((link, index) => linkSliders(link.name, index, chain.length)));
}

/// Drops the edits not sent or not confirmed yet (the chain changes, or the connection closed).
export function cancelParamEdits() {
  for (const throttle of filters.paramThrottles) throttle.cancel();
  filters.paramIntents.clear();
}

/// Shows the server's parameter values, except on a slider the user is moving (it would jump
/// back under the finger) or whose last value the server has not shown yet.
export function syncSliders() {
  if (!player.state) return;
  const chain = player.currentChain();
  for (const slider of box.querySelectorAll("input[data-param]")) {
    const index = Number(slider.dataset.link);
    const link = chain[index];
    const values = link?.params || {};
    const name = slider.dataset.param;
    const param = descriptorOf(link?.name)?.params.find((candidate) => candidate.name === name);
    if (!param || !(name in values) || paramHeld(slider, index, name, values[name])) continue;
    slider.value = String(values[name]);
    slider.parentElement.querySelector("output").textContent = formatValue(param, values[name]);
    const picker = slider.parentElement.querySelector(".choices");
    if (picker) showChoice(picker, values[name]);
  }
}

function linkSliders(name, index, count) {
  const params = descriptorOf(name)?.params || [];
  const rows = params.map((param) => paramRow(param, name, index));
  if (count > 1 && rows.length) {
    const title = document.createElement("h3");
    title.className = "link-params-title";
    title.textContent = `${index + 1}. ${labelOf(name)}`;
    rows.unshift(title);
  }
  return rows;
}

/// One slider of link `index`; link 0's ids are `param-FILTER-PARAM` as before chains.
function paramRow(param, name, index) {
  const row = document.createElement("div");
  row.className = "param";
  const id = index === 0 ? `param-${name}-${param.name}` : `param-${index}-${name}-${param.name}`;
  const label = document.createElement("label");
  label.htmlFor = id;
  label.textContent = param.label || param.name;
  const slider = document.createElement("input");
  slider.type = "range";
  slider.id = id;
  slider.dataset.param = param.name;
  slider.dataset.link = String(index);
  slider.min = String(param.sliderMin ?? param.min);
  slider.max = String(param.sliderMax ?? param.max);
  slider.step = param.step > 0 ? String(param.step) : "any";
  slider.setAttribute("aria-label", param.label || param.name);
  const output = document.createElement("output");
  output.htmlFor = id;
  output.className = "param-value";
  slider.addEventListener("input", () => editParam(param, index, slider, output, false));
  slider.addEventListener("change", () => editParam(param, index, slider, output, true));
  followDragging(slider);
  row.append(label, slider, output);
  if (param.kind === "choice") {
    // The pictures are the control: a slider of indexes (0…26) beside them said the same twice.
    // It stays, hidden, as the value the rest of the page reads and sets.
    row.classList.add("param-choice");
    slider.hidden = true;
    const picker = choicePicker(param, index, slider, output);
    // The style filter's styles, the lut filter's LUTs and the backgrounds can be added from a file.
    const files = takesFiles(picker, name, param.name, (id) => {
      send({ type: "setParams", index, params: { [param.name]: id }, ...player.chainTarget() });
    });
    row.append(...[picker, files].filter(Boolean));
  }
  return row;
}

/// The options of a choice parameter as buttons with their pictures (`data-choice`: the id).
function choicePicker(param, index, slider, output) {
  const picker = document.createElement("div");
  picker.className = "choices";
  picker.setAttribute("role", "group");
  picker.setAttribute("aria-label", param.label || param.name);
  picker.append(...param.choices.map((choice, position) => {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "choice";
    button.dataset.choice = choice.id;
    button.title = choice.label;
    button.setAttribute("aria-pressed", "false");
    if (choice.thumbnail) {
      const picture = document.createElement("img");
      Object.assign(picture, { src: choice.thumbnail, alt: "", width: 96, height: 56 });
      button.append(picture);
    }
    const caption = document.createElement("span");
    caption.textContent = choice.label;
    button.append(caption);
    button.addEventListener("click", () => {
      slider.value = String(position);
      showChoice(picker, position);
      editParam(param, index, slider, output, true);
    });
    return button;
  }));
  showChoice(picker, param.default);
  return picker;
}

/// Marks the option at `position` as the chosen one, and scrolls the strip (never the page) to
/// it when it changed or was not laid out yet.
function showChoice(picker, position) {
  const chosen = Math.round(position);
  [...picker.children].forEach((button, at) => button.setAttribute("aria-pressed", String(at === chosen)));
  if (picker.dataset.revealed === String(chosen)) return;
  const button = picker.children[chosen];
  const strip = picker.getBoundingClientRect();
  if (!button || strip.width === 0) return; // not in the page yet: the next sync does it
  const box = button.getBoundingClientRect();
  if (box.left < strip.left || box.right > strip.right) picker.scrollLeft += box.left - strip.left - (strip.width - box.width) / 2;
  picker.dataset.revealed = String(chosen);
}

/// `data-dragging` while the pointer holds `slider`; the server's value shows again after.
function followDragging(slider) {
  slider.addEventListener("pointerdown", () => { slider.dataset.dragging = "true"; });
  const stopDragging = () => {
    if (slider.dataset.dragging !== "true") return;
    delete slider.dataset.dragging;
    queueMicrotask(syncSliders);
  };
  slider.addEventListener("pointerup", stopDragging);
  slider.addEventListener("pointercancel", stopDragging);
  slider.addEventListener("lostpointercapture", stopDragging);
}

function editParam(param, index, slider, output, isChange) {
  let value = Number(slider.value);
  if (param.type === "integer") value = Math.round(value);
  output.textContent = formatValue(param, value);
  // `change` repeats the last `input` value when the slider is let go: send it once.
  if (isChange && slider.dataset.lastInput === String(value)) return;
  slider.dataset.lastInput = String(value);
  filters.paramThrottles[index]?.push({ [param.name]: value }, (params) => sendParams(index, params));
}

/// `setParams` of link `index`; what it sets is shown until a state confirms it.
function sendParams(index, params) {
  const now = performance.now();
  for (const [name, value] of Object.entries(params)) filters.paramIntents.set(`${index}:${name}`, { value, since: now });
  // Refused (or unanswered): show the server's values again.
  send({ type: "setParams", index, params, ...player.chainTarget() }, (ok) => {
    if (ok) return;
    for (const name of Object.keys(params)) filters.paramIntents.delete(`${index}:${name}`);
    syncSliders();
  });
}

function paramHeld(slider, index, name, serverValue) {
  if (slider.dataset.dragging === "true" || filters.paramThrottles[index]?.pending()) return true;
  const key = `${index}:${name}`;
  const intent = filters.paramIntents.get(key);
  if (!intent) return false;
  const confirmed = Math.abs(serverValue - intent.value) <= 1e-9 * Math.max(1, Math.abs(intent.value));
  if (confirmed || performance.now() - intent.since > CONFIRM_TIMEOUT_MS) filters.paramIntents.delete(key);
  return filters.paramIntents.has(key);
}

function formatValue(param, value) {
  if (!Number.isFinite(value)) return "";
  if (param.kind === "choice") return param.choices[Math.round(value)]?.label ?? "";
  if (param.type === "integer") return String(Math.round(value));
  if (param.type === "angle") return `${Math.round((value * 180) / Math.PI)}°`;
  const step = param.step > 0 ? param.step : 0.01;
  const decimals = Math.min(4, Math.max(0, Math.ceil(-Math.log10(step) - 1e-9)));
  return value.toFixed(decimals);
}

player.on("hello", () => box.replaceChildren());
player.on("disconnected", cancelParamEdits);
