// FilterCast page, the review room (docs/PROTOCOL.md, v1 additions): the name asked once
// (#name-form, kept by person.js), who is on the channel (#people, from `state.people`), who changed
// what (`activity`: a short toast for others' changes and the #activity panel, an entry updated in
// place when a burst of slider moves sends it again), and the laser pointer: with #laser on, or
// Alt held over the picture, this page's pointer goes out as `point` (at most 30 a second), and
// everyone's `pointer` is drawn over the picture as a fading dot labelled with the name.
import { send } from "./connection.js";
import { byId } from "./helpers.js";
import { keepName, savedName } from "./person.js";
import { player } from "./player.js";
import { toast } from "./toast.js";

const POINT_INTERVAL_MS = 34; // ≤ 30 `point` a second
const FADE_MS = 2500; // a dot fades out this long after its last move
const ACTIVITY_SHOWN = 100;

const nameForm = byId("name-form");
const nameInput = byId("name-input");
const peopleList = byId("people");
const activityList = byId("activity");
const laserButton = byId("laser");
const stage = byId("stage");
const layer = byId("laser-layer");

/// Everyone's pointer: by person id → {x, y, name, at (performance.now of the last move)}.
const pointers = new Map();
/// The activity entries shown, by id (a burst's entry comes again with its latest value).
const shown = new Map();

export const room = { pointers, laserOn: false, drawnDots: 0 };

// --- The name ---------------------------------------------------------------------------------

nameForm.hidden = savedName() !== "";
nameForm.addEventListener("submit", (event) => {
  event.preventDefault();
  const name = nameInput.value.trim();
  if (!name) return;
  send({ type: "name", name }, (ok) => {
    if (!ok) return;
    keepName(name);
    nameForm.hidden = true;
  });
});

// --- People -----------------------------------------------------------------------------------

function renderPeople(state) {
  const people = Array.isArray(state.people) ? state.people : [];
  const you = state.you?.id;
  peopleList.replaceChildren(...people.map((person) => {
    const item = document.createElement("li");
    item.className = "person";
    item.dataset.id = person.id;
    item.dataset.access = person.access;
    item.textContent = person.name + (person.id === you ? " (you)" : "");
    if (person.presenter) {
      item.dataset.presenter = "true";
      item.title = "Presenting";
    }
    return item;
  }));
  laserButton.hidden = !(state.you && people.some((p) => p.id === you && (p.access === "control" || p.access === "admin")));
}

player.on("state", ({ state }) => renderPeople(state));

// --- Activity ---------------------------------------------------------------------------------

function activityItem(entry) {
  const item = document.createElement("li");
  item.className = "activity-entry";
  item.dataset.id = String(entry.id);
  item.dataset.what = entry.what;
  const time = document.createElement("time");
  time.dateTime = entry.at;
  time.textContent = new Date(entry.at).toLocaleTimeString();
  item.append(time, " ", entry.summary);
  return item;
}

player.on("activity", (entry) => {
  const item = activityItem(entry);
  const previous = shown.get(entry.id);
  if (previous) previous.replaceWith(item);
  else activityList.prepend(item);
  shown.set(entry.id, item);
  while (activityList.children.length > ACTIVITY_SHOWN) {
    const last = activityList.lastElementChild;
    shown.delete(Number(last.dataset.id));
    last.remove();
  }
  if (!previous && entry.by.id !== player.state?.you?.id) toast(entry.summary, 2500);
});

// --- The laser pointer ------------------------------------------------------------------------

let altHeld = false;
let lastSent = 0;
let pendingPoint = null;
let pointTimer = 0;
let pointing = false;

function laserActive() { return room.laserOn || altHeld; }

/// The picture the pointer is over: the compare view while it shows, else the program's.
function picture() {
  const compare = byId("compare-view");
  return compare && !compare.hidden && stage.dataset.compare === "on" ? compare : byId("view");
}

function sendPoint(point) {
  pendingPoint = point;
  const wait = lastSent + POINT_INTERVAL_MS - performance.now();
  if (wait > 0) {
    if (!pointTimer) pointTimer = setTimeout(() => { pointTimer = 0; sendPoint(pendingPoint); }, wait);
    return;
  }
  lastSent = performance.now();
  send(point ? { type: "point", x: point.x, y: point.y } : { type: "point", x: null, y: null });
}

stage.addEventListener("pointermove", (event) => {
  if (!laserActive()) return;
  const box = picture().getBoundingClientRect();
  const x = (event.clientX - box.left) / box.width, y = (event.clientY - box.top) / box.height;
  if (x < 0 || x > 1 || y < 0 || y > 1) return;
  pointing = true;
  sendPoint({ x, y });
});

function stopPointing() {
  if (!pointing) return;
  pointing = false;
  sendPoint(null);
}

stage.addEventListener("pointerleave", stopPointing);
laserButton.addEventListener("click", () => {
  room.laserOn = !room.laserOn;
  laserButton.setAttribute("aria-pressed", String(room.laserOn));
  stage.dataset.laser = room.laserOn ? "on" : "off";
  if (!room.laserOn) stopPointing();
});
window.addEventListener("keydown", (event) => { if (event.key === "Alt") altHeld = true; });
window.addEventListener("keyup", (event) => {
  if (event.key !== "Alt") return;
  altHeld = false;
  if (!room.laserOn) stopPointing();
});
window.addEventListener("blur", () => { altHeld = false; });

player.on("pointer", (message) => {
  if (typeof message.x !== "number" || typeof message.y !== "number") pointers.delete(message.by.id);
  else pointers.set(message.by.id, { x: message.x, y: message.y, name: message.by.name, at: performance.now() });
  scheduleDraw();
});

let drawing = 0;
function scheduleDraw() {
  if (!drawing) drawing = requestAnimationFrame(draw);
}

/// Every pointer over the picture, fading with the time since it last moved.
function draw() {
  drawing = 0;
  const stageBox = stage.getBoundingClientRect(), box = picture().getBoundingClientRect();
  const ratio = window.devicePixelRatio || 1;
  const width = Math.round(stageBox.width * ratio), height = Math.round(stageBox.height * ratio);
  if (layer.width !== width || layer.height !== height) { layer.width = width; layer.height = height; }
  const context = layer.getContext("2d");
  context.clearRect(0, 0, width, height);
  const now = performance.now();
  let drawn = 0;
  for (const [id, pointer] of pointers) {
    const alpha = 1 - (now - pointer.at) / FADE_MS;
    if (alpha <= 0) { pointers.delete(id); continue; }
    const x = (box.left - stageBox.left + pointer.x * box.width) * ratio, y = (box.top - stageBox.top + pointer.y * box.height) * ratio;
    context.globalAlpha = alpha;
    context.fillStyle = "#ff2020";
    context.beginPath();
    context.arc(x, y, 7 * ratio, 0, 2 * Math.PI);
    context.fill();
    context.font = `${12 * ratio}px sans-serif`;
    context.fillStyle = "#ffffff";
    context.fillText(pointer.name, x + 10 * ratio, y - 8 * ratio);
    drawn += 1;
  }
  context.globalAlpha = 1;
  room.drawnDots = drawn;
  if (pointers.size) scheduleDraw();
}
