// FilterCast page, fullscreen: the button and `f` put the picture (with its badges) in
// fullscreen and back; the button hides where fullscreen is not available.
import { byId } from "./helpers.js";
import { toast } from "./toast.js";

const stage = byId("stage");
const button = byId("fullscreen");

function fullscreenElement() {
  return document.fullscreenElement || document.webkitFullscreenElement || null;
}

export function toggleFullscreen() {
  if (fullscreenElement()) {
    (document.exitFullscreen || document.webkitExitFullscreen).call(document);
    return;
  }
  const request = stage.requestFullscreen || stage.webkitRequestFullscreen;
  if (!request) return;
  const result = request.call(stage);
  if (result && typeof result.catch === "function") {
    result.catch((error) => toast(`Fullscreen is not available: ${error.message || error}`));
  }
}

function fullscreenChanged() {
  const on = !!fullscreenElement();
  button.setAttribute("aria-label", on ? "Exit fullscreen" : "Fullscreen");
  document.body.dataset.fullscreen = String(on);
}

if (!(document.fullscreenEnabled || document.webkitFullscreenEnabled)) button.hidden = true;
button.addEventListener("click", toggleFullscreen);
document.addEventListener("fullscreenchange", fullscreenChanged);
document.addEventListener("webkitfullscreenchange", fullscreenChanged);
