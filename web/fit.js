// FilterCast page, the picture's size: as large as the window allows with the transport still in
// sight under it, whatever the source's shape and whatever sits above it (the channels, an
// admin's Add-channel form, the token banner, a look offered). CSS alone cannot do it: the room
// left depends on the height of what is above the picture and of the transport, which wraps.
// The stage gets the width that makes the picture fit (`--fit-width` on .player); the transport
// (the seek bar on a row of its own) is as wide as the picture, or wider for a narrow picture, so
// that its buttons keep one or two rows.
import { byId } from "./helpers.js";
import { player } from "./player.js";

/// The picture never gets smaller than this (px tall): on a tiny window the page scrolls instead.
const MIN_HEIGHT = 180;
/// The transport is at least this wide (px) when the column allows, under a narrow picture.
const MIN_TRANSPORT_WIDTH = 640;
/// Studio mode beside (not picture in picture, style.css's 700 px): the preview takes 3 of 4 parts.
const STUDIO_SIDE_BY_SIDE_MIN_WIDTH = 701;

const ui = {
  player: document.querySelector(".player"),
  stage: byId("stage"),
  transport: document.querySelector(".transport"),
  hint: byId("control-hint"),
  view: byId("view"),
  compare: byId("compare-view"),
};
let scheduled = false;

/// The stage's width over its height for the pictures shown now.
function stageAspect() {
  const canvas = player.compare.on ? ui.compare : ui.view;
  const aspect = canvas.width > 0 && canvas.height > 0 ? canvas.width / canvas.height : 16 / 9;
  const beside = player.studio.on && !player.compare.on && window.innerWidth >= STUDIO_SIDE_BY_SIDE_MIN_WIDTH;
  return beside ? aspect * 4 / 3 : aspect;
}

/// Sets the stage's and the transport's widths from the room the window leaves.
function fit() {
  scheduled = false;
  if (document.fullscreenElement) return;
  const column = ui.player.clientWidth;
  if (column <= 0) return;
  const top = ui.stage.getBoundingClientRect().top + window.scrollY;
  const below = ui.transport.offsetHeight + (ui.hint.hidden ? 0 : ui.hint.offsetHeight) +
    parseFloat(getComputedStyle(document.querySelector(".layout")).paddingBottom || "0");
  const height = Math.max(MIN_HEIGHT, window.innerHeight - top - below);
  const width = Math.floor(Math.min(column, height * stageAspect()));
  const transport = Math.max(width, Math.min(column, MIN_TRANSPORT_WIDTH));
  setWidth("--fit-width", width);
  setWidth("--transport-width", transport);
}

/// Sets `property` to `px` when it changed by a pixel or more (so that observing the result does
/// not loop).
function setWidth(property, px) {
  const now = parseFloat(ui.player.style.getPropertyValue(property));
  if (Number.isFinite(now) && Math.abs(now - px) < 1) return;
  ui.player.style.setProperty(property, `${px}px`);
}

/// Fits once on the next frame, however many changes asked for it.
export function refit() {
  if (scheduled) return;
  scheduled = true;
  requestAnimationFrame(fit);
}

// Whatever moves the stage or resizes what is around it: the window, the body (a banner or the
// channels above), the transport (it wraps), the stage (a picture of another shape).
window.addEventListener("resize", refit);
const observer = new ResizeObserver(refit);
for (const element of [document.body, ui.transport, ui.stage, ui.view, ui.compare]) observer.observe(element);
for (const event of ["studio", "state", "renditions"]) player.on(event, refit);
refit();
