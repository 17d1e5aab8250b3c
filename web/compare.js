// FilterCast page, the compare view (docs/PROTOCOL.md, "Compare view"): "before" against "after"
// — the source's picture and the program, or in studio mode the program and the preview — as a
// wipe with a divider (#compare-split, or a drag on the picture) or side by side (#compare-mode).
// The page composites the two pictures itself on #compare-view, so moving the divider redraws at
// once from the pair last drawn and never waits for the server. Each side's newest pictures are
// held by their presentation time, and a pair is drawn only when both sides have a picture of the
// same time: mismatched pairs are never drawn. The source's picture comes over a connection of its
// own (second.js) that watches a `source-HEIGHTp` rendition. A controller's "Show to all"
// (#compare-all) sends `setCompare`; every page follows `state.compare` when it changes.
import { mayControl } from "./access.js";
import { send } from "./connection.js";
import { byId } from "./helpers.js";
import { player } from "./player.js";
import { offeredRenditions, SecondConnection } from "./second.js";

const HOLD = 8; // pictures held per side, waiting for their partner
const MODES = ["wipe", "side-by-side"];

const compare = player.compare;
const stats = player.stats.compare;
const ui = {
  toggle: byId("compare"), split: byId("compare-split"), mode: byId("compare-mode"), all: byId("compare-all"),
  stage: byId("stage"), canvas: byId("compare-view"),
};
const context = ui.canvas.getContext("2d", { alpha: false });

/// Turns the compare view on or off (the toggle, and `state.compare` when it changes).
export function setCompare(on) {
  const wanted = on && offered();
  if (wanted === compare.on) return;
  compare.on = wanted;
  stats.on = wanted;
  ui.toggle.setAttribute("aria-pressed", String(wanted));
  ui.stage.dataset.compare = wanted ? "on" : "off";
  ui.canvas.hidden = !wanted;
  ui.mode.hidden = !wanted;
  render();
  connectSides();
  player.emit("compare", wanted);
}

/// Whether this page can compare: the server offers the source's picture (or, in studio mode,
/// the preview's, which the studio's connection brings).
function offered() {
  return compare.offered.length > 0 || player.studio.on;
}

/// The source's rendition as tall as the program's picture (or the nearest): the size the pair is
/// shown at, and a full-size JPEG would only cost the page decoding time.
function sourceRendition() {
  const height = player.stats.height || Infinity;
  return compare.offered.reduce((best, r) => (Math.abs(r.height - height) < Math.abs(best.height - height) ? r : best),
                                compare.offered[0])?.id ?? "";
}

/// The sides' pictures start over: the source's connection is open while the view is on outside
/// studio mode (in studio mode "before" is the program and "after" the preview).
function connectSides() {
  forget();
  // What the pictures show now, so that a paused session (which sends nothing new) is compared too.
  if (compare.on) {
    seed(player.studio.on ? "before" : "after", byId("view"), player.stats.lastPts);
    if (player.studio.on) seed("after", byId("preview-view"), player.studio.lastPts);
  }
  const wanted = compare.on && !player.studio.on ? sourceRendition() : "";
  if (compare.second && wanted) return follows(wanted);
  compare.second?.close();
  // Three frames may wait for the decoder: each is one the program's of its time waits for.
  const held = (image, frame) => hold("before", image, frame);
  compare.second = wanted ? new SecondConnection(wanted, held, () => setCompare(false), 3) : null;
  stats.before = wanted;
}

/// The source's connection watches `rendition` (the program moved to another size).
function follows(rendition) {
  if (compare.second.rendition === rendition) return;
  compare.second.watch(rendition);
  stats.before = rendition;
}

/// Holds what `canvas` shows as `side`'s picture of time `pts` (s; null: nothing drawn yet).
function seed(side, canvas, pts) {
  if (pts !== null && pts !== undefined) hold(side, canvas, { pts });
}

/// Drops every held picture and the pair shown.
function forget() {
  for (const side of ["before", "after"]) {
    for (const canvas of compare.held[side].values()) compare.spare.push(canvas);
    compare.held[side].clear();
  }
  if (compare.shown) compare.spare.push(compare.shown.before, compare.shown.after);
  compare.shown = null;
}

/// Keeps a copy of `image` (an ImageBitmap or a VideoFrame, `frame` its header) as `side`'s
/// picture of its time; draws the pair when the other side has a picture of the same time.
function hold(side, image, frame) {
  if (!compare.on) return;
  const key = Math.round(frame.pts * 1e6);
  stats.pictures[side] += 1;
  const mine = compare.held[side];
  const other = compare.held[side === "before" ? "after" : "before"];
  if (mine.has(key)) compare.spare.push(mine.get(key));
  mine.delete(key);
  mine.set(key, copyOf(image));
  while (mine.size > HOLD) {
    const [oldest, canvas] = mine.entries().next().value;
    mine.delete(oldest);
    compare.spare.push(canvas);
  }
  if (!other.has(key)) return;
  if (compare.shown) compare.spare.push(compare.shown.before, compare.shown.after);
  compare.shown = { before: compare.held.before.get(key), after: compare.held.after.get(key), key };
  // Pictures older than the pair have lost their chance: no later pair can use them.
  for (const held of [mine, other]) {
    for (const [time, canvas] of held) {
      if (time > key) continue;
      held.delete(time);
      if (time < key) compare.spare.push(canvas);
    }
  }
  draw();
  stats.pairsDrawn += 1;
  stats.lastPair = { before: key, after: key };
  compare.pairTimes.push(performance.now());
}

/// A canvas of `image`'s size holding a copy of it (a spare one reused when there is one).
function copyOf(image) {
  const width = image.displayWidth ?? image.width, height = image.displayHeight ?? image.height;
  const canvas = compare.spare.pop() ?? new OffscreenCanvas(width, height);
  if (canvas.width !== width || canvas.height !== height) {
    canvas.width = width;
    canvas.height = height;
  }
  canvas.getContext("2d", { alpha: false }).drawImage(image, 0, 0);
  return canvas;
}

/// Draws the pair shown as the mode and the divider say: the wipe puts "before" left of the
/// divider and "after" right of it; side by side puts each whole in its half.
function draw() {
  const pair = compare.shown;
  if (!pair) return;
  const width = Math.max(pair.before.width, pair.after.width), height = Math.max(pair.before.height, pair.after.height);
  if (ui.canvas.width !== width || ui.canvas.height !== height) {
    ui.canvas.width = width;
    ui.canvas.height = height;
  }
  if (compare.mode === "side-by-side") {
    context.fillStyle = "#000";
    context.fillRect(0, 0, width, height);
    context.drawImage(pair.before, 0, height / 4, width / 2, height / 2);
    context.drawImage(pair.after, width / 2, height / 4, width / 2, height / 2);
    return;
  }
  const x = Math.round(compare.split * width);
  const part = (picture, from, to) => {
    if (to <= from) return;
    const scale = picture.width / width;
    context.drawImage(picture, from * scale, 0, (to - from) * scale, picture.height, from, 0, to - from, height);
  };
  part(pair.before, 0, x);
  part(pair.after, x, width);
  context.fillStyle = "#fff";
  context.fillRect(Math.min(Math.max(x - 1, 0), width - 2), 0, 2, height);
}

/// Moves the divider to `split` (0…1) and redraws at once; a user's move (`event`) is timed and,
/// while the comparison is shown to all, sent to everybody by a controller.
function setSplit(split, event) {
  compare.split = Math.min(Math.max(split, 0), 1);
  stats.split = compare.split;
  ui.split.value = String(compare.split);
  draw();
  if (event) {
    stats.redrawMs = performance.now() - event.timeStamp;
    shareChange();
  }
}

function setMode(mode, byUser) {
  compare.mode = MODES.includes(mode) ? mode : "wipe";
  stats.mode = compare.mode;
  ui.mode.value = compare.mode;
  render(); // side by side has no divider
  draw();
  if (byUser) shareChange();
}

/// While a controller shows the comparison to all, its own changes go to everybody (paced).
function shareChange() {
  if (!mayControl() || player.state?.compare?.on !== true) return;
  compare.throttle.push({ type: "setCompare", on: compare.on, mode: compare.mode, split: compare.split }, (message) => send(message));
}

/// "Show to all": the page's view for everybody, or stop showing it.
function showToAll() {
  const shown = player.state?.compare?.on === true;
  if (!shown) setCompare(true);
  send(shown ? { type: "setCompare", on: false } : { type: "setCompare", on: true, mode: compare.mode, split: compare.split });
}

/// Follows `state.compare` when it changed since the last one followed (a page may change its own
/// view in between); a drag under way keeps its divider.
function follow(state) {
  const shown = state.compare;
  ui.all.setAttribute("aria-pressed", String(shown?.on === true));
  render();
  if (!shown) return;
  const key = JSON.stringify(shown);
  if (key === compare.followed) return;
  compare.followed = key;
  setMode(shown.mode);
  if (!compare.dragging) setSplit(shown.split);
  setCompare(shown.on);
}

/// The controls of what is offered and shown: the divider only for a wipe shown, "Show to all"
/// only while there is a comparison to show (or it is shown to all, to stop it).
function render() {
  ui.toggle.hidden = !offered();
  ui.split.hidden = !compare.on || compare.mode !== "wipe";
  const shownToAll = player.state?.compare?.on === true;
  ui.all.hidden = ui.toggle.hidden || !mayControl() || !(compare.on || shownToAll);
  if (ui.toggle.hidden) setCompare(false);
}

/// The divider where the pointer is on the picture.
function dragTo(event) {
  const box = ui.canvas.getBoundingClientRect();
  if (box.width > 0) setSplit((event.clientX - box.left) / box.width, event);
}

ui.toggle.addEventListener("click", () => setCompare(!compare.on));
ui.split.addEventListener("input", (event) => setSplit(Number(ui.split.value), event));
ui.mode.addEventListener("change", () => setMode(ui.mode.value, true));
ui.all.addEventListener("click", showToAll);
ui.canvas.addEventListener("pointerdown", (event) => {
  compare.dragging = true;
  ui.canvas.setPointerCapture(event.pointerId);
  dragTo(event);
});
ui.canvas.addEventListener("pointermove", (event) => { if (compare.dragging) dragTo(event); });
for (const end of ["pointerup", "pointercancel"]) ui.canvas.addEventListener(end, () => { compare.dragging = false; });

// The program's pictures are "after", in studio mode "before" (against the preview's).
player.on("picture", ({ image, frame }) => {
  if (compare.second) follows(sourceRendition());
  hold(player.studio.on ? "before" : "after", image, frame);
});
player.on("previewDrawn", ({ image, frame }) => { if (player.studio.on) hold("after", image, frame); });
player.on("studio", () => {
  render();
  connectSides();
});
player.on("hello", (hello) => {
  compare.offered = offeredRenditions(hello, "source");
  compare.followed = "";
  setCompare(false);
  render();
});
// Another size of source plays: the same renditions at their new sizes.
player.on("renditions", (message) => { compare.offered = offeredRenditions(message, "source"); });
player.on("state", ({ state }) => follow(state));
player.on("access", render);
player.on("disconnected", () => setCompare(false));
setInterval(() => {
  const now = performance.now();
  while (compare.pairTimes.length && now - compare.pairTimes[0] > 1000) compare.pairTimes.shift();
  stats.fps = compare.pairTimes.length;
}, 250);
