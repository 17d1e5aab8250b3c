// FilterCast page, the picture: the canvas every frame is drawn on, whatever brought it (a JPEG
// or an H.264 access unit), and what was drawn and received — window.filtercast.stats and
// latencyHistory, the test contract in docs/PROTOCOL.md.
import { acknowledge } from "./connection.js";
import { byId, median, pushBounded } from "./helpers.js";
import { emit, on } from "./session.js";

const LATENCY_WINDOW = 30; // frames in the recent latency median
const LATENCY_HISTORY_MAX = 10000;

const canvas = byId("view");
const placeholder = byId("placeholder");
const context = canvas.getContext("2d", { alpha: false });

/** window.filtercast.stats, updated in place. */
export const stats = {
  connected: false,
  framesDrawn: 0,
  fps: 0,
  latencyMs: null,
  lastSeq: null,
  lastPts: null,
  width: 0,
  height: 0,
  transport: "jpeg", // what the frames arrive as: "jpeg" or "h264"
  bitsPerSecond: 0, // frame bytes received during the last second, × 8
  cameraRoundTripMs: null, // while this page shares its camera: capture → filtered frame drawn, median (camera.js)
};
/** window.filtercast.latencyHistory: the latency of every drawn frame, oldest first. */
export const latencyHistory = [];

const recentLatencies = [];
const drawTimes = []; // performance.now() of the frames drawn in the last second
const receipts = []; // [performance.now(), bytes] of the frame messages received in the last second

/// Draws `image` (an ImageBitmap or a VideoFrame, `width`×`height`; the caller closes it) as
/// the frame `frame` ({ws, seq, pts, sentAt}), counts it and acknowledges it.
export function drawPicture(image, width, height, frame) {
  if (canvas.width !== width || canvas.height !== height) {
    canvas.width = width;
    canvas.height = height;
  }
  context.drawImage(image, 0, 0);
  if (stats.framesDrawn === 0) placeholder.hidden = true;
  stats.framesDrawn += 1;
  stats.lastSeq = frame.seq;
  stats.lastPts = frame.pts;
  stats.width = width;
  stats.height = height;
  recordLatency(Date.now() - frame.sentAt);
  drawTimes.push(performance.now());
  acknowledge(frame.ws, frame.seq);
  emit("drawn", frame);
}

/// Counts a frame message of `bytes` bytes as received now.
export function countReceived(bytes) {
  receipts.push([performance.now(), bytes]);
}

/// Sets `stats.fps` and `stats.bitsPerSecond` from the last second.
export function measureDeliveredRate() {
  const now = performance.now();
  while (drawTimes.length && now - drawTimes[0] > 1000) drawTimes.shift();
  while (receipts.length && now - receipts[0][0] > 1000) receipts.shift();
  stats.fps = drawTimes.length;
  stats.bitsPerSecond = receipts.reduce((sum, [, bytes]) => sum + bytes * 8, 0);
}

function recordLatency(latency) {
  pushBounded(recentLatencies, latency, LATENCY_WINDOW);
  pushBounded(latencyHistory, latency, LATENCY_HISTORY_MAX);
  stats.latencyMs = median(recentLatencies);
}

on("hello", () => { stats.connected = true; });
on("disconnected", () => { stats.connected = false; });

// The right shape before the first frame arrives.
on("state", ({ state }) => {
  const source = state.source || {};
  if (stats.framesDrawn === 0 && source.width > 0 && source.height > 0 &&
      (canvas.width !== source.width || canvas.height !== source.height)) {
    canvas.width = source.width;
    canvas.height = source.height;
  }
});
