// FilterCast page, the picture: the canvas every frame is drawn on, whatever brought it (a JPEG
// or an H.264 access unit), and what was drawn and received — window.filtercast.stats and
// latencyHistory, the test contract in docs/PROTOCOL.md.
import { acknowledge } from "./connection.js";
import { byId, median, pushBounded } from "./helpers.js";
import { player } from "./player.js";
import { FLAGS } from "./wire.js";

const LATENCY_WINDOW = 30; // frames in the recent latency median
const LATENCY_HISTORY_MAX = 10000;

const canvas = byId("view");
const placeholder = byId("placeholder");
const context = canvas.getContext("2d", { alpha: false });

const stats = player.stats;
const latencyHistory = player.latencyHistory;
const picture = player.picture;

/// Draws `image` (an ImageBitmap or a VideoFrame, `width`×`height`; the caller closes it) as
/// the frame `frame` ({ws, seq, pts, sentAt}), counts it and acknowledges it.
export function drawPicture(image, width, height, frame) {
  if (canvas.width !== width || canvas.height !== height) {
    canvas.width = width;
    canvas.height = height;
  }
  context.drawImage(image, 0, 0);
  player.emit("picture", { image, frame });
  if (stats.framesDrawn === 0) placeholder.hidden = true;
  stats.framesDrawn += 1;
  stats.lastSeq = frame.seq;
  stats.lastPts = frame.pts;
  stats.width = width;
  stats.height = height;
  recordLatency(Date.now() - frame.sentAt);
  // A distinct picture: another time of the source, or the first after a change (a re-render
  // while paused). The H.264 encoder's refinements of a still — the same picture encoded
  // finer — are drawn but not counted, so both transports report the same rate.
  if (frame.pts !== picture.lastPts || (frame.flags & FLAGS.restart) !== 0) picture.drawTimes.push(performance.now());
  picture.lastPts = frame.pts;
  acknowledge(frame);
  player.emit("drawn", frame);
}

/// Counts a frame message of `bytes` bytes as received now.
export function countReceived(bytes) {
  picture.receipts.push([performance.now(), bytes]);
}

/// Sets `stats.fps` (distinct pictures drawn in the last second) and `stats.bitsPerSecond` from
/// the last second. A count in the window reads 26 or 27 for a 25 fps source whenever its two
/// ends both catch a picture or a late picture comes with the next: a stream's count is capped by
/// the rate its pictures' span gives (the intervals between its first and last picture: draw
/// times quantised to the display's frames made a median interval read 30 for 25 fps), which never
/// hides pictures that did not come; a few pictures (a still refined, a step) are counted. Draw
/// times jittered by a busy machine still shorten a span now and then, so the figure never
/// exceeds what the source makes a second at the playback speed.
export function measureDeliveredRate() {
  const now = performance.now();
  const times = picture.drawTimes;
  while (times.length && now - times[0] > 1000) times.shift();
  while (picture.receipts.length && now - picture.receipts[0][0] > 1000) picture.receipts.shift();
  const span = times.length >= 10 ? times[times.length - 1] - times[0] : 0;
  const counted = span > 0 ? Math.min(times.length, Math.round(((times.length - 1) * 1000) / span)) : times.length;
  stats.fps = Math.min(counted, sourceRateCeiling());
  stats.bitsPerSecond = picture.receipts.reduce((sum, [, bytes]) => sum + bytes * 8, 0);
}

/// The most distinct pictures a second the source gives: its rate times the playback speed,
/// rounded up (30 for 29.97); no bound while the source does not say its rate.
function sourceRateCeiling() {
  const fps = player.state?.source?.fps;
  if (!(fps > 0)) return Infinity;
  const speed = Math.abs(player.state.speed) || 1; // 1 while the state says none
  return Math.ceil(fps * speed - 1e-6);
}

function recordLatency(latency) {
  pushBounded(picture.recentLatencies, latency, LATENCY_WINDOW);
  pushBounded(latencyHistory, latency, LATENCY_HISTORY_MAX);
  stats.latencyMs = median(picture.recentLatencies);
}

player.on("hello", () => { stats.connected = true; });
player.on("disconnected", () => { stats.connected = false; });

// The right shape before the first frame arrives.
player.on("state", ({ state }) => {
  const source = state.source || {};
  if (stats.framesDrawn === 0 && source.width > 0 && source.height > 0 &&
      (canvas.width !== source.width || canvas.height !== source.height)) {
    canvas.width = source.width;
    canvas.height = source.height;
  }
});
