// FilterCast page, review playback (issue 39): J/K/L shuttle — L plays forward (again: 2×, 4×), J
// backward (again: −2×, −4×), K pauses, K held with J or L steps one frame — and the in/out loop:
// I and O set in and out at the picture shown, #loop turns it off and on again, the seek bar shows
// the range. #speed says how fast the playhead moves (state.speed), #sound-note why the sound is
// silent at that speed (it plays from 0.5× to 2× forward).
import { mayControl } from "./access.js";
import { send } from "./connection.js";
import { formatFrameTime } from "./format.js";
import { byId } from "./helpers.js";
import { isLive } from "./playback.js";
import { player } from "./player.js";

const ui = {
  seek: byId("seek"),
  speed: byId("speed"),
  loop: byId("loop"),
  soundNote: byId("sound-note"),
};
const SHUTTLE = [1, 2, 4];
/// The sound's forward rates (docs/PROTOCOL.md, `speed`).
const SOUND_RATES = [0.5, 2];

/// The time of the picture drawn last (the playhead the viewer sees), else the state's position.
let shownPts = null;
/// The loop set last, kept while it is off so that #loop can turn it on again.
let lastLoop = null;
/// Whether K is held: J and L then step a frame.
let kHeld = false;

function controllable() {
  return player.state && !isLive() && mayControl();
}

function playhead() {
  return shownPts ?? player.state.position;
}

/// The next rate of a shuttle key: forward (L) or backward (J), one notch faster when it already
/// plays that way.
function nextRate(forward) {
  const { playing, speed } = player.state;
  const sign = forward ? 1 : -1;
  if (!playing || Math.sign(speed) !== sign) return sign;
  const notch = SHUTTLE.findIndex((rate) => rate >= Math.abs(speed));
  return sign * SHUTTLE[Math.min(notch + 1, SHUTTLE.length - 1)];
}

function shuttle(forward) {
  if (kHeld) {
    send({ type: "step", frames: forward ? 1 : -1 });
    return;
  }
  send({ type: "speed", rate: nextRate(forward) });
  if (!player.state.playing) send({ type: "play" });
}

/// `loop` from `range` ({in, out}), remembered for #loop; null ends it.
function setLoop(range) {
  if (range) lastLoop = range;
  send({ type: "loop", in: range ? range.in : null, ...(range ? { out: range.out } : {}) });
}

/// I (in) or O (out) at the picture shown: the other end is the loop's (the source's start or end
/// when there is none, or when it would come on the wrong side).
function markLoop(isIn) {
  const state = player.state;
  const at = playhead();
  const current = state.loop ?? lastLoop ?? { in: 0, out: state.duration };
  const range = isIn ? { in: at, out: current.out > at ? current.out : state.duration }
    : { in: current.in < at ? current.in : 0, out: at };
  if (range.in < range.out) setLoop(range);
}

function toggleLoop() {
  if (!controllable()) return;
  if (player.state.loop) setLoop(null);
  else setLoop(lastLoop ?? { in: 0, out: player.state.duration });
}

/// J, K, L, I, O (no modifier); true when the key was one of them.
export function shuttleKey(event) {
  const key = event.key.toLowerCase();
  if (!["j", "k", "l", "i", "o"].includes(key) || event.shiftKey || !controllable()) return false;
  event.preventDefault();
  if (key === "k") {
    kHeld = true;
    if (player.state.playing) send({ type: "pause" });
  } else if (key === "j" || key === "l") {
    shuttle(key === "l");
  } else {
    markLoop(key === "i");
  }
  return true;
}

function speedText(speed) {
  return `${speed < 0 ? "−" : ""}${Math.abs(speed)}×`;
}

/// Why the sound is silent at `speed`, or null.
function silenceReason(speed) {
  if (speed < 0) return "no sound while playing backward";
  if (speed < SOUND_RATES[0] || speed > SOUND_RATES[1]) return `no sound at ${speedText(speed)} (sound plays from 0.5× to 2×)`;
  return null;
}

function render() {
  const state = player.state;
  if (!state) return;
  const live = isLive();
  const speed = Number.isFinite(state.speed) ? state.speed : 1;
  ui.speed.hidden = live;
  ui.speed.textContent = speedText(speed);
  ui.speed.dataset.normal = String(speed === 1);
  const reason = state.source?.audio ? silenceReason(speed) : null;
  ui.soundNote.hidden = !reason;
  ui.soundNote.textContent = reason ?? "";
  ui.loop.hidden = live;
  ui.loop.disabled = !mayControl();
  ui.loop.setAttribute("aria-pressed", String(Boolean(state.loop)));
  if (state.loop) lastLoop = state.loop;
  const long = state.duration >= 3600;
  ui.loop.title = state.loop ? `Looping ${formatFrameTime(state.loop.in, long)}–${formatFrameTime(state.loop.out, long)} (I / O: in / out)`
    : "Loop between in and out (I / O set them at the picture shown)";
  renderRange(live ? null : state.loop, state.duration);
}

/// The loop's range on the seek bar: a band between in and out.
function renderRange(loop, duration) {
  ui.seek.classList.toggle("looping", Boolean(loop && duration > 0));
  if (!loop || !(duration > 0)) return;
  ui.seek.style.setProperty("--loop-in", `${(100 * loop.in) / duration}%`);
  ui.seek.style.setProperty("--loop-out", `${(100 * Math.min(loop.out, duration)) / duration}%`);
}

document.addEventListener("keyup", (event) => {
  if (event.key.toLowerCase() === "k") kHeld = false;
});
window.addEventListener("blur", () => { kHeld = false; });
ui.loop.addEventListener("click", toggleLoop);
player.on("state", render);
player.on("drawn", (frame) => {
  if (Number.isFinite(frame.pts)) shownPts = frame.pts;
});
player.on("disconnected", () => {
  shownPts = null;
  kHeld = false;
});
