// FilterCast page, the keyboard: space plays or pauses, ←/→ seek, `,`/`.` step a frame back or
// on (paused), J/K/L shuttle and I/O set the loop (shuttle.js), `f` toggles fullscreen, `m` the sound,
// `t` takes the preview on air in studio mode and otherwise switches the time label to timecode and back; and
// a control clicked or chosen from with a pointer gives the focus back so that space keeps meaning
// play/pause.
import { toggleMute } from "./audio.js";
import { toggleFullscreen } from "./fullscreen.js";
import { byId } from "./helpers.js";
import { frameStep, isLive, seekStep, togglePlay, toggleTimecode } from "./playback.js";
import { shuttleKey } from "./shuttle.js";
import { take } from "./studio.js";

const chain = byId("chain");
const seek = byId("seek");

// A button or link clicked with a pointer gives up the focus it took, so that space goes on
// meaning play/pause instead of clicking it again (a filter chip would re-apply its filter).
// Activated from the keyboard (`detail` 0) it keeps the focus, and space activates it. The
// chain's chips are left alone: after a removal the focus deliberately stays on the chain.
document.addEventListener("click", (event) => {
  const control = event.target instanceof Element ? event.target.closest("button, a[href]") : null;
  if (!control || event.detail === 0 || chain.contains(control)) return;
  if (document.activeElement === control) control.blur();
});

// So does a drop-down chosen from with a pointer, once chosen (from the keyboard it keeps the
// focus: its arrows go on choosing).
let pointerSelect = null;
document.addEventListener("pointerdown", (event) => {
  pointerSelect = event.target instanceof Element ? event.target.closest("select") : null;
});
document.addEventListener("change", (event) => {
  if (event.target !== pointerSelect) return;
  pointerSelect = null;
  event.target.blur();
});

document.addEventListener("keydown", (event) => {
  if (event.altKey || event.ctrlKey || event.metaKey || event.defaultPrevented) return;
  const target = event.target;
  const tag = target?.tagName;
  const isRange = tag === "INPUT" && target.type === "range";
  const typing = (tag === "INPUT" && !isRange) || tag === "TEXTAREA" || tag === "SELECT" || target?.isContentEditable;
  if (typing) return;
  if (event.key === " " || event.code === "Space") {
    if (tag === "BUTTON" || tag === "A") return; // space activates the focused control
    event.preventDefault();
    togglePlay();
  } else if (event.key === "ArrowLeft" || event.key === "ArrowRight") {
    if (isRange && target !== seek) return; // parameter sliders move themselves
    if (isLive()) return;
    event.preventDefault();
    seekStep(event.key === "ArrowRight");
  } else if ([",", ".", "<", ">"].includes(event.key)) {
    // A slider has no use for them: they step the frame wherever the focus is (with Shift, which
    // makes them < and > on most layouts, ten frames).
    event.preventDefault();
    const frames = event.shiftKey ? 10 : 1;
    frameStep(event.key === "." || event.key === ">" ? frames : -frames);
  } else if (shuttleKey(event)) {
    // J, K, L, I, O: done
  } else if ((event.key === "f" || event.key === "F") && !event.shiftKey) {
    event.preventDefault();
    toggleFullscreen();
  } else if ((event.key === "m" || event.key === "M") && !event.shiftKey) {
    event.preventDefault();
    toggleMute();
  } else if (event.key === "t" || event.key === "T") {
    event.preventDefault();
    if (event.shiftKey || !take()) toggleTimecode();
  }
});
