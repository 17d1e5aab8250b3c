// FilterCast page, playback controls: play/pause (button and a click on the picture), the seek
// slider (throttled `seek` while dragged; its tooltip the frame's time, 00:12.480), the time label
// (from the pictures drawn: at once after a loop's wrap or a seek; a click or T shows SMPTE timecode
// instead), the LIVE badge and the paused mark.
import { mayControl } from "./access.js";
import { send } from "./connection.js";
import { formatFrameTime, formatTime } from "./format.js";
import { byId } from "./helpers.js";
import { player } from "./player.js";
import { CONFIRM_TIMEOUT_MS } from "./throttle.js";
import { timecodeOf } from "./timecode.js";

const SEEK_STEP_S = 5;
/// A playing state this far past a seek's target can still be that seek's result.
const SEEK_MATCH_PLAYING_S = 1;

const ui = {
  playPause: byId("play-pause"),
  seek: byId("seek"),
  time: byId("time"),
  liveBadge: byId("live-badge"),
  pausedMark: byId("paused-mark"),
  canvas: byId("view"),
};
const playback = player.playback;
/// Whether the time label shows SMPTE timecode (HH:MM:SS:FF) rather than minutes and seconds.
let showsTimecode = false;

/// `seek`; its position is shown until a state confirms it.
function sendSeek(position) {
  playback.seekIntent = { position, since: performance.now() };
  send({ type: "seek", position }, (ok) => {
    if (ok || !playback.seekIntent || playback.seekIntent.position !== position) return;
    playback.seekIntent = null; // refused: back to the server's position
    renderPlayback();
  });
}

/// Whether the source is live (or nothing is known yet): no seeking, a LIVE badge.
export function isLive() {
  const state = player.state;
  return !state || state.duration === null || state.duration === undefined || state.source?.seekable === false;
}

/// Shows the session's state on the controls (the seek slider keeps the user's position while
/// held, see seekHeld).
export function renderPlayback() {
  const state = player.state;
  if (!state) return;
  const playing = !!state.playing;
  document.body.dataset.playing = String(playing);
  ui.playPause.setAttribute("aria-label", playing ? "Pause" : "Play");
  ui.pausedMark.hidden = playing;
  const live = isLive();
  document.body.dataset.live = String(live);
  ui.liveBadge.hidden = !live;
  ui.seek.hidden = live;
  renderPosition();
}

/// The slider, its tooltip and the time label at the position: the user's while the slider is
/// held, else the picture drawn last, else the state's.
function renderPosition() {
  const state = player.state;
  const live = isLive();
  let shown = live ? state.position : drawnTime() ?? state.position;
  if (!live) {
    ui.seek.max = String(state.duration);
    if (seekHeld()) shown = Number(ui.seek.value);
    else ui.seek.value = String(shown);
    // A watch-only page's slider keeps its title, which says why it is disabled.
    if (!hovered && mayControl()) ui.seek.title = formatFrameTime(shown, state.duration >= 3600);
    ui.seek.setAttribute("aria-valuetext", formatFrameTime(shown, state.duration >= 3600));
  }
  renderTime(shown);
}

/// The time of the picture drawn last, while it is the newest news of the position (drawn within
/// the last second): states come twice a second, pictures with every frame — so the label and the
/// slider follow a loop's wrap or a seek's first picture at once, not at the next state.
let drawn = null;
function drawnTime() {
  return drawn && performance.now() - drawn.at < 1000 ? drawn.pts : null;
}

/// Whether the pointer is over the seek slider: its tooltip then says the frame under it.
let hovered = false;

/// The frame under the pointer on the seek slider: its time, to the millisecond (00:12.480).
function hoverTooltip(event) {
  const state = player.state;
  if (!state || isLive() || !mayControl()) return;
  hovered = true;
  const box = ui.seek.getBoundingClientRect();
  const fps = state.source?.fps > 0 ? state.source.fps : 30;
  const fraction = Math.min(Math.max((event.clientX - box.left) / Math.max(box.width, 1), 0), 1);
  const frame = Math.floor(fraction * state.duration * fps + 1e-6) / fps;
  ui.seek.title = formatFrameTime(Math.min(frame, state.duration), state.duration >= 3600);
}

export function togglePlay() {
  if (!player.state || !mayControl()) return;
  send({ type: player.state.playing ? "pause" : "play" });
}

/// `,`/`.` (Shift: 10): `frames` frames on (negative: back) with `step`: the server pauses a
/// playing session first, and a step it has not shown yet counts — the next goes on from the
/// frame it aims at, or from a seek still on its way.
export function frameStep(frames) {
  if (!player.state || isLive() || !mayControl()) return;
  send({ type: "step", frames });
}

/// ←/→: 5 s back or on from where the slider shows.
export function seekStep(forward) {
  if (!player.state || isLive()) return;
  seekTo((seekHeld() ? Number(ui.seek.value) : player.state.position) + (forward ? SEEK_STEP_S : -SEEK_STEP_S));
}

/// Whether the seek slider shows the user's position rather than the server's: while it is
/// held, while a seek waits to be sent, and until a state shows the last seek's result.
function seekHeld() {
  if (playback.scrubbing || playback.seekThrottle.pending()) return true;
  if (!playback.seekIntent) return false;
  if (seekConfirmed(playback.seekIntent.position) || performance.now() - playback.seekIntent.since > CONFIRM_TIMEOUT_MS) {
    playback.seekIntent = null;
  }
  return playback.seekIntent !== null;
}

/// Whether the state shows the result of a seek to `target`: the server shows the first frame
/// at or after it (the last frame past the end), then plays on from there. The position of an
/// earlier seek, still on its way while the user scrubs, does not count.
function seekConfirmed(target) {
  const state = player.state;
  if (!state) return false;
  const frame = 1 / (state.source?.fps > 0 ? state.source.fps : 30);
  const after = state.position - target;
  return after >= -1.5 * frame && after <= (state.playing ? SEEK_MATCH_PLAYING_S : 1.5 * frame);
}

/// The time label: paused, to the millisecond (the frame shown: 00:12.480), else to the second;
/// or as timecode at the source's rate (30 when it declares none).
function renderTime(position) {
  const state = player.state;
  let text;
  if (showsTimecode) {
    const fps = state.source?.fps;
    text = isLive() ? timecodeOf(position, fps) : `${timecodeOf(position, fps)} / ${timecodeOf(state.duration, fps)}`;
  } else if (isLive()) {
    text = formatTime(position);
  } else {
    const long = state.duration >= 3600;
    const now = state.playing ? formatTime(position, long) : formatFrameTime(position, long);
    text = `${now} / ${formatTime(state.duration, long, true)}`;
  }
  if (ui.time.textContent !== text) ui.time.textContent = text;
}

/// Switches the time label between minutes and seconds and timecode (a click on it, or T).
export function toggleTimecode() {
  showsTimecode = !showsTimecode;
  ui.time.dataset.format = showsTimecode ? "timecode" : "clock";
  if (player.state) renderPosition();
}

/// Seeks to `position` (clamped to the file), as the slider does.
export function seekTo(position) {
  if (!player.state || isLive() || !mayControl()) return;
  const target = Math.min(Math.max(0, position), player.state.duration);
  ui.seek.value = String(target);
  renderTime(target);
  playback.seekThrottle.push(target, sendSeek);
}

function followSeekSlider() {
  ui.seek.addEventListener("pointerdown", () => { playback.scrubbing = true; });
  const stopScrubbing = () => {
    playback.scrubbing = false;
    queueMicrotask(renderPlayback);
  };
  ui.seek.addEventListener("pointerup", stopScrubbing);
  ui.seek.addEventListener("pointercancel", stopScrubbing);
  ui.seek.addEventListener("lostpointercapture", stopScrubbing);
  ui.seek.addEventListener("input", () => {
    playback.seekInput = Number(ui.seek.value);
    seekTo(playback.seekInput);
  });
  // `change` repeats the last `input` value when the slider is let go: send it once.
  ui.seek.addEventListener("change", () => {
    if (Number(ui.seek.value) !== playback.seekInput) seekTo(Number(ui.seek.value));
  });
}

followSeekSlider();
ui.playPause.addEventListener("click", togglePlay);
ui.canvas.addEventListener("click", togglePlay);
ui.time.addEventListener("click", toggleTimecode);

player.on("state", renderPlayback);
player.on("drawn", (frame) => {
  if (!player.state || isLive() || !Number.isFinite(frame.pts)) return;
  drawn = { pts: frame.pts, at: performance.now() };
  renderPosition();
});
ui.seek.addEventListener("pointermove", hoverTooltip);
ui.seek.addEventListener("pointerleave", () => {
  hovered = false;
  renderPlayback();
});
player.on("disconnected", () => {
  drawn = null;
  playback.seekThrottle.cancel();
  playback.seekIntent = null;
  playback.scrubbing = false;
});
