// FilterCast page, studio mode (docs/PROTOCOL.md, "Studio mode"): a controller's Studio mode toggle
// (#studio) shows the preview chain's picture large and the program small beside it (picture in
// picture on a narrow screen), makes the chain's chips and sliders edit the preview (chain.js and
// params.js send `to: "preview"` through player.chainTarget()), and offers Take (#take, key t)
// with a cut or a fade (#take-transition). The preview's picture comes over a second WebSocket
// of its own that watches a preview rendition (second.js); each one drawn is told
// ("previewDrawn": the compare view pairs it with the program in studio mode).
import { mayControl } from "./access.js";
import { renderChain, sendChain } from "./chain.js";
import { send } from "./connection.js";
import { byId } from "./helpers.js";
import { player } from "./player.js";
import { offeredRendition, SecondConnection } from "./second.js";

const FADE_SECONDS = 1;

const ui = {
  toggle: byId("studio"),
  take: byId("take"),
  bar: byId("studio-bar"),
  transition: byId("take-transition"),
  stage: byId("stage"),
  canvas: byId("preview-view"),
};
const context = ui.canvas.getContext("2d", { alpha: false });
const studio = player.studio;
const stats = player.stats.studio;

/// Turns studio mode on or off (only a controller of a server that offers a preview turns it on;
/// also looks.js, for a look a link names).
export function setStudio(on) {
  const wanted = on && mayControl() && studio.offered !== "";
  if (wanted === studio.on) return;
  studio.on = wanted;
  stats.on = wanted;
  ui.toggle.setAttribute("aria-pressed", String(wanted));
  ui.bar.hidden = ui.take.hidden = ui.transition.hidden = !wanted;
  ui.stage.dataset.studio = wanted ? "on" : "off";
  ui.canvas.hidden = !wanted;
  if (wanted) {
    // The preview starts as the program, so that editing starts from what is on air.
    if (!Array.isArray(player.state?.preview)) sendChain(player.state?.chain ?? []);
    openPreview();
  } else {
    closePreview();
  }
  player.filters.shownChain = null; // the chips and sliders now show the other chain
  renderChain();
  player.emit("studio", wanted);
}

/// Puts the preview on air: a cut, or a fade of FADE_SECONDS. False when not in studio mode.
export function take() {
  if (!studio.on) return false;
  const fade = ui.transition.value === "fade";
  send({ type: "take", ...(fade ? { transition: "fade", duration: FADE_SECONDS } : {}) });
  return true;
}

function openPreview() {
  stats.rendition = studio.offered;
  // The preview is a controller's: its connection goes when the page leaves studio mode, and a
  // closed one (the server restarted, the channel changed) ends studio mode.
  studio.second = new SecondConnection(studio.offered, drawPreview, () => setStudio(false));
}

function closePreview() {
  studio.second?.close();
  studio.second = null;
  stats.rendition = "";
}

function drawPreview(bitmap, frame) {
  if (ui.canvas.width !== bitmap.width || ui.canvas.height !== bitmap.height) {
    ui.canvas.width = bitmap.width;
    ui.canvas.height = bitmap.height;
  }
  context.drawImage(bitmap, 0, 0);
  stats.previewFrames += 1;
  studio.lastPts = frame.pts;
  player.emit("previewDrawn", { image: bitmap, frame });
}

/// The toggle is a controller's, on a server that offers a preview.
function renderToggle() {
  ui.toggle.hidden = !mayControl() || studio.offered === "";
  if (ui.toggle.hidden) setStudio(false);
}

ui.toggle.addEventListener("click", () => setStudio(!studio.on));
ui.take.addEventListener("click", take);
player.on("hello", (hello) => {
  // The first preview rendition offered is the full-size one.
  studio.offered = offeredRendition(hello, "preview");
  setStudio(false);
  renderToggle();
});
player.on("access", renderToggle);
player.on("disconnected", () => setStudio(false));
