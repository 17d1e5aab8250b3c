// FilterCast page, frames: decodes the binary frame messages (docs/PROTOCOL.md, "Frames") and
// draws them on the canvas, one at a time and only the newest, and measures what it drew.
//
// The server's Content-Security-Policy forbids blob: images, so JPEGs are decoded with
// createImageBitmap and drawn on a canvas.
import { acknowledge } from "./connection.js";
import { on } from "./session.js";

const MAGIC = 0x31464346; // "FCF1" read little-endian
const HEADER_LENGTH = 32;
const LATENCY_WINDOW = 30; // frames in the recent latency median
const LATENCY_HISTORY_MAX = 10000;

const canvas = document.getElementById("view");
const placeholder = document.getElementById("placeholder");
const context = canvas.getContext("2d", { alpha: false });

/** window.filtercast.stats (the test contract in docs/PROTOCOL.md), updated in place. */
export const stats = {
  connected: false,
  framesDrawn: 0,
  fps: 0,
  latencyMs: null,
  lastSeq: null,
  lastPts: null,
  width: 0,
  height: 0,
};
/** window.filtercast.latencyHistory: the latency of every drawn frame, oldest first. */
export const latencyHistory = [];

let decoding = false;
let pendingFrame = null; // the newest frame that arrived while another one was decoding
const recentLatencies = [];
const drawTimes = []; // performance.now() of the frames drawn in the last second

/// A binary message from `ws`: decoded now, or kept as the one waiting frame.
export function receiveFrame(buffer, ws) {
  if (buffer.byteLength < HEADER_LENGTH) return;
  const view = new DataView(buffer);
  const headerLength = view.getUint16(4, true);
  if (view.getUint32(0, true) !== MAGIC || headerLength < HEADER_LENGTH || headerLength > buffer.byteLength) return;
  const frame = {
    ws,
    seq: Number(view.getBigUint64(8, true)),
    pts: Number(view.getBigInt64(16, true)) / 1e6,
    sentAt: Number(view.getBigInt64(24, true)) / 1000, // ms since the epoch, like Date.now()
    jpeg: new Uint8Array(buffer, headerLength),
  };
  if (decoding || document.hidden) {
    pendingFrame = frame; // only the newest waiting frame is kept
    return;
  }
  decode(frame);
}

/// Sets `stats.fps` to the frames drawn during the last second.
export function measureDeliveredRate() {
  const now = performance.now();
  while (drawTimes.length && now - drawTimes[0] > 1000) drawTimes.shift();
  stats.fps = drawTimes.length;
}

function decodePending() {
  if (!pendingFrame || document.hidden) return;
  const next = pendingFrame;
  pendingFrame = null;
  decode(next);
}

async function decode(frame) {
  decoding = true;
  try {
    const bitmap = await createImageBitmap(new Blob([frame.jpeg], { type: "image/jpeg" }));
    if (pendingFrame && pendingFrame.ws === frame.ws) bitmap.close(); // a newer frame is already here: show that one instead
    else draw(bitmap, frame);
  } catch {
    acknowledge(frame.ws, frame.seq); // undecodable: skip it, but keep the flow going
  } finally {
    decoding = false;
    decodePending();
  }
}

function draw(bitmap, frame) {
  if (canvas.width !== bitmap.width || canvas.height !== bitmap.height) {
    canvas.width = bitmap.width;
    canvas.height = bitmap.height;
  }
  context.drawImage(bitmap, 0, 0);
  bitmap.close();
  if (stats.framesDrawn === 0) placeholder.hidden = true;
  stats.framesDrawn += 1;
  stats.lastSeq = frame.seq;
  stats.lastPts = frame.pts;
  stats.width = canvas.width;
  stats.height = canvas.height;
  recordLatency(Date.now() - frame.sentAt);
  drawTimes.push(performance.now());
  acknowledge(frame.ws, frame.seq);
}

function recordLatency(latency) {
  recentLatencies.push(latency);
  if (recentLatencies.length > LATENCY_WINDOW) recentLatencies.shift();
  latencyHistory.push(latency);
  if (latencyHistory.length > LATENCY_HISTORY_MAX) latencyHistory.splice(0, latencyHistory.length - LATENCY_HISTORY_MAX);
  stats.latencyMs = median(recentLatencies);
}

function median(values) {
  if (values.length === 0) return null;
  const sorted = values.slice().sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

// A hidden tab decodes nothing and acknowledges nothing, so the server stops sending to it
// once the window is full; when it shows again, the newest frame is drawn and acknowledged.
document.addEventListener("visibilitychange", () => {
  if (!decoding) decodePending();
});

on("hello", () => { stats.connected = true; });
on("disconnected", () => {
  stats.connected = false;
  pendingFrame = null;
});

// The right shape before the first frame arrives.
on("state", ({ state }) => {
  const source = state.source || {};
  if (stats.framesDrawn === 0 && source.width > 0 && source.height > 0 &&
      (canvas.width !== source.width || canvas.height !== source.height)) {
    canvas.width = source.width;
    canvas.height = source.height;
  }
});
