// FilterCast page, comments with drawings pinned to a frame (docs/PROTOCOL.md, v1 additions): the
// #comment button (or the C key) pauses and opens the note box (#comment-box) with drawing tools
// over the picture (#comment-layer: arrow, line, rect, ellipse, freehand, on the picture's 0–1
// plane); the source's comments come as `comments` (the list, then each change) and show as
// markers on the seek bar (.comment-marker, a range as a band) and in the #comments list
// (author, timecode, text, resolved); clicking one sends `comment show`: everybody pauses there
// and sees its drawing (`state.showing`) until the playhead moves. Its author or the admin may edit
// its text in the list (`comment edit`), resolve or delete it.
import { isAdmin, mayControl } from "./access.js";
import { send } from "./connection.js";
import { formatFrameTime } from "./format.js";
import { byId } from "./helpers.js";
import { player } from "./player.js";
import { toast } from "./toast.js";

const TOOLS = ["arrow", "line", "rect", "ellipse", "freehand"];
const MAX_POINTS = 5000;

const button = byId("comment");
const box = byId("comment-box");
const text = byId("comment-text");
const tools = byId("comment-tools");
const color = byId("comment-color");
const list = byId("comments");
const heading = byId("comments-heading");
const markers = byId("comment-markers");
const seek = byId("seek");
const stage = byId("stage");
const layer = byId("comment-layer");

/// The comments of the source that plays, by id, oldest first; what is drawn (for tests).
const comments = new Map();
export const notes = { comments, source: "", drawnShapes: 0, editing: null };

let tool = "arrow";
let stroke = null; // the shape being drawn
/// The comment whose text is being edited in the list: {id, form, input}, kept across renders (a
/// `comments` message while typing keeps the draft).
let rewriting = null;

// --- The list and the markers -----------------------------------------------------------------

player.on("comments", (message) => {
  if (Array.isArray(message.comments)) {
    comments.clear();
    for (const comment of message.comments) comments.set(comment.id, comment);
  } else if (message.changed) {
    comments.set(message.changed.id, message.changed);
  } else if (message.deleted) {
    comments.delete(message.deleted);
  }
  notes.source = message.source || notes.source;
  render();
});

function timecode(comment) {
  return formatFrameTime(comment.position, (player.state?.duration || 0) >= 3600);
}

function render() {
  const you = player.state?.you?.id;
  heading.hidden = comments.size === 0; // a phone's page stays short without any
  if (rewriting && !comments.has(rewriting.id)) rewriting = null; // deleted meanwhile
  const typing = rewriting && document.activeElement === rewriting.input;
  list.replaceChildren(...[...comments.values()].map((comment) => {
    const item = document.createElement("li");
    item.className = "comment-item";
    item.dataset.id = comment.id;
    item.dataset.resolved = String(comment.resolved);
    const head = document.createElement("button");
    head.type = "button";
    head.className = "comment-seek";
    head.textContent = `${timecode(comment)} · ${comment.author.name}${comment.drawing.length ? " ✎" : ""}`;
    head.title = "Show this frame and its drawing to everyone";
    head.addEventListener("click", () => show(comment.id));
    const body = document.createElement("span");
    body.className = "comment-text";
    body.textContent = comment.text;
    const editing = rewriting?.id === comment.id;
    item.append(head, " ", editing ? rewriting.form : body);
    if (mayControl() && (comment.author.id === you || isAdmin())) { // the protocol's rule: its author or the admin
      if (!editing) item.append(action("Edit", "comment-edit", () => startEditing(comment)));
      item.append(action(comment.resolved ? "Reopen" : "Resolve", "comment-resolve", () => change(comment, { action: "resolve", resolved: !comment.resolved })),
                  action("Delete", "comment-delete", () => change(comment, { action: "delete" })));
    } else if (comment.resolved) {
      item.append(" ✓");
    }
    return item;
  }));
  if (typing) rewriting.input.focus();
  renderMarkers();
}

function action(label, className, onClick) {
  const control = document.createElement("button");
  control.type = "button";
  control.className = `text-button comment-action ${className}`;
  control.textContent = label;
  control.addEventListener("click", onClick);
  return control;
}

function change(comment, fields) {
  send({ type: "comment", comment: comment.id, ...fields }, failed);
}

function failed(ok, reply) {
  if (!ok) toast(reply?.message || "The comment was not changed");
}

function renderMarkers() {
  const duration = player.state?.duration;
  markers.hidden = !duration || seek.hidden;
  if (markers.hidden) return;
  markers.style.left = `${seek.offsetLeft}px`;
  markers.style.width = `${seek.offsetWidth}px`;
  markers.style.top = `${seek.offsetTop + seek.offsetHeight - 2}px`;
  markers.replaceChildren(...[...comments.values()].map((comment) => {
    const marker = document.createElement("button");
    marker.type = "button";
    marker.className = "comment-marker";
    marker.dataset.id = comment.id;
    marker.dataset.resolved = String(comment.resolved);
    marker.style.left = `${Math.min(100, (comment.position / duration) * 100)}%`;
    if (comment.duration) {
      marker.classList.add("comment-range");
      marker.style.width = `${Math.min(100, (comment.duration / duration) * 100)}%`;
    }
    marker.title = `${timecode(comment)} ${comment.author.name}: ${comment.text}`;
    marker.setAttribute("aria-label", marker.title);
    marker.addEventListener("click", () => show(comment.id));
    return marker;
  }));
}

// --- Editing a comment's text in the list ---------------------------------------------------------

function startEditing(comment) {
  const form = document.createElement("form");
  form.className = "comment-edit-form";
  const input = document.createElement("textarea");
  input.className = "comment-text-input comment-edit-text";
  input.rows = 2;
  input.maxLength = 2000;
  input.value = comment.text;
  input.setAttribute("aria-label", "The comment's text");
  const save = document.createElement("button");
  save.className = "comment-edit-save";
  save.textContent = "Save";
  const cancel = action("Cancel", "comment-edit-cancel", stopEditing);
  form.append(input, save, cancel);
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    send({ type: "comment", action: "edit", comment: comment.id, text: input.value }, (ok, reply) => {
      if (ok) stopEditing();
      else toast(reply?.message || "The comment was not changed");
    });
  });
  input.addEventListener("keydown", (event) => { // handled here: the page's keys do not see them
    if (event.key === "Escape") stopEditing();
    else if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) form.requestSubmit();
    else return;
    event.preventDefault();
  });
  rewriting = { id: comment.id, form, input };
  render();
  input.focus();
}

function stopEditing() {
  rewriting = null;
  render();
}

function show(id) {
  send({ type: "comment", action: "show", comment: id }, failed);
}

window.addEventListener("resize", renderMarkers);

// --- What everyone is shown -------------------------------------------------------------------

let shownBefore = null;
let durationBefore = null;
player.on("state", ({ state }) => {
  button.hidden = !mayControl();
  if ((state.showing ?? null) !== shownBefore || (state.duration ?? null) !== durationBefore) {
    shownBefore = state.showing ?? null;
    durationBefore = state.duration ?? null;
    render();
  }
  draw();
});

/// The picture's box within the stage (the drawing's 0–1 plane).
function pictureBox() {
  const stageBox = stage.getBoundingClientRect(), view = byId("view").getBoundingClientRect();
  return { left: view.left - stageBox.left, top: view.top - stageBox.top, width: view.width, height: view.height, stage: stageBox };
}

/// The shown comment's drawing, or the one being drawn, on #comment-layer.
function draw() {
  const { left, top, width, height, stage: stageBox } = pictureBox();
  const ratio = window.devicePixelRatio || 1;
  const w = Math.round(stageBox.width * ratio), h = Math.round(stageBox.height * ratio);
  if (layer.width !== w || layer.height !== h) { layer.width = w; layer.height = h; }
  const context = layer.getContext("2d");
  context.clearRect(0, 0, w, h);
  const shown = notes.editing ? notes.editing.drawing.concat(stroke ? [stroke] : [])
    : comments.get(player.state?.showing)?.drawing ?? [];
  for (const shape of shown) drawShape(context, shape, (x, y) => [(left + x * width) * ratio, (top + y * height) * ratio], width * ratio);
  notes.drawnShapes = shown.length;
  layer.dataset.showing = player.state?.showing ?? "";
}

function drawShape(context, shape, at, pictureWidth) {
  const points = shape.points.map(([x, y]) => at(x, y));
  context.strokeStyle = shape.color;
  context.lineWidth = Math.max(1, shape.width * pictureWidth);
  context.lineCap = context.lineJoin = "round";
  context.beginPath();
  const [[ax, ay], [bx, by]] = [points[0], points[1] ?? points[0]];
  if (shape.kind === "rect") {
    context.rect(Math.min(ax, bx), Math.min(ay, by), Math.abs(bx - ax), Math.abs(by - ay));
  } else if (shape.kind === "ellipse") {
    context.ellipse((ax + bx) / 2, (ay + by) / 2, Math.abs(bx - ax) / 2, Math.abs(by - ay) / 2, 0, 0, 2 * Math.PI);
  } else {
    points.forEach(([x, y], index) => (index ? context.lineTo(x, y) : context.moveTo(x, y)));
    if (shape.kind === "arrow") {
      const angle = Math.atan2(ay - by, ax - bx), size = Math.min(Math.hypot(bx - ax, by - ay), Math.max(4 * context.lineWidth, Math.hypot(bx - ax, by - ay) / 5));
      for (const side of [angle - 0.49, angle + 0.49]) { context.moveTo(bx, by); context.lineTo(bx + size * Math.cos(side), by + size * Math.sin(side)); }
    }
  }
  context.stroke();
}

// --- Writing one ------------------------------------------------------------------------------

/// Pauses everybody and opens the note box over the picture.
export function openNote() {
  if (!mayControl() || notes.editing) return;
  if (player.state?.playing) send({ type: "pause" });
  notes.editing = { drawing: [] };
  box.hidden = false;
  stage.dataset.commenting = "on";
  text.value = "";
  text.focus();
  draw();
}

function closeNote() {
  notes.editing = null;
  stroke = null;
  box.hidden = true;
  delete stage.dataset.commenting;
  draw();
}

button.addEventListener("click", openNote);
byId("comment-cancel").addEventListener("click", closeNote);
box.addEventListener("submit", (event) => {
  event.preventDefault();
  const note = notes.editing;
  if (!note) return;
  // The frame the pause landed on (the state when the box opened was still playing's).
  const message = { type: "comment", action: "add", frame: player.state?.frame ?? 0, text: text.value, drawing: note.drawing };
  send(message, (ok, reply) => {
    if (ok) closeNote();
    else toast(reply?.message || "The comment was not added");
  });
});

tools.addEventListener("click", (event) => {
  const chosen = event.target instanceof Element ? event.target.closest("[data-tool]") : null;
  if (!chosen) return;
  tool = chosen.dataset.tool;
  for (const item of tools.querySelectorAll("[data-tool]")) item.setAttribute("aria-pressed", String(item === chosen));
});
byId("comment-undo").addEventListener("click", () => { notes.editing?.drawing.pop(); draw(); });

/// Where `event` is on the picture's 0–1 plane (clamped).
function planePoint(event) {
  const view = byId("view").getBoundingClientRect();
  const clamp = (value) => Math.round(Math.min(1, Math.max(0, value)) * 10000) / 10000;
  return [clamp((event.clientX - view.left) / view.width), clamp((event.clientY - view.top) / view.height)];
}

function pointsSoFar() {
  return (notes.editing?.drawing ?? []).reduce((sum, shape) => sum + shape.points.length, 0);
}

layer.addEventListener("pointerdown", (event) => {
  if (!notes.editing || !TOOLS.includes(tool)) return;
  event.preventDefault();
  layer.setPointerCapture(event.pointerId);
  const point = planePoint(event);
  stroke = { kind: tool, points: [point, point], color: color.value, width: 0.006 };
});
layer.addEventListener("pointermove", (event) => {
  if (!stroke) return;
  const point = planePoint(event);
  if (stroke.kind === "freehand") {
    if (pointsSoFar() + stroke.points.length < MAX_POINTS) stroke.points.push(point);
  } else {
    stroke.points[1] = point;
  }
  draw();
});
layer.addEventListener("pointerup", () => {
  if (!stroke || !notes.editing) return;
  const [[ax, ay], [bx, by]] = stroke.points;
  if (stroke.kind === "freehand" || Math.hypot(bx - ax, by - ay) > 0.002) notes.editing.drawing.push(stroke);
  if (notes.editing.drawing.length > 100) notes.editing.drawing.pop();
  stroke = null;
  draw();
});

document.addEventListener("keydown", (event) => {
  if (event.altKey || event.ctrlKey || event.metaKey || event.defaultPrevented) return;
  const tag = event.target?.tagName;
  if (tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT" || event.target?.isContentEditable) {
    if (event.key === "Escape" && notes.editing) closeNote();
    return;
  }
  if ((event.key === "c" || event.key === "C") && !event.shiftKey) {
    event.preventDefault();
    openNote();
  }
});
