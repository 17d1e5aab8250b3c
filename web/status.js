// FilterCast page, status: the status line (delivered fps, latency, what the page gets —
// "1280×720", "H.264 · 2.1 Mbit/s" — viewers, and for the page whose camera is the source, the
// camera's round trip). Beside the fps, while the chain has a `style` link, how often its network
// refreshes the style ("style 9/s"): the picture moves at the fps, the style follows at that rate.
import { byId } from "./helpers.js";
import { measureDeliveredRate } from "./picture.js";
import { player } from "./player.js";

const stats = player.stats;
const ui = {
  fps: byId("stat-fps"),
  style: byId("stat-style"),
  latency: byId("stat-latency"),
  resolution: byId("stat-resolution"),
  stream: byId("stat-stream"),
  viewers: byId("stat-viewers"),
  cameraItem: byId("stat-camera-item"),
  camera: byId("stat-camera"),
};

/// Redraws the status line from `stats` (called every 250 ms and on a disconnection).
export function updateStatus() {
  measureDeliveredRate();
  ui.fps.textContent = stats.connected ? `${stats.fps} fps` : "–";
  if (!stats.connected) stats.styleRefreshHz = null;
  ui.style.hidden = stats.styleRefreshHz === null;
  // Two significant figures: "style 9/s", "style 8.5/s", "style 25/s", "style 0.45/s".
  if (stats.styleRefreshHz !== null) ui.style.textContent = `style ${Number(stats.styleRefreshHz.toPrecision(2))}/s`;
  ui.latency.textContent = stats.connected && stats.latencyMs !== null ? `${Math.round(stats.latencyMs)} ms` : "–";
  ui.resolution.textContent = stats.width ? `${stats.width}×${stats.height}` : "–";
  ui.stream.textContent = stats.connected && stats.framesDrawn
    ? `${stats.transport === "h264" ? "H.264" : "JPEG"} · ${(stats.bitsPerSecond / 1e6).toFixed(1)} Mbit/s` : "–";
  if (!stats.connected) ui.viewers.textContent = "–";
  const roundTrip = stats.cameraRoundTripMs;
  ui.cameraItem.hidden = roundTrip === null;
  if (roundTrip !== null) ui.camera.textContent = `${roundTrip} ms`;
}

player.on("state", ({ state }) => {
  ui.viewers.textContent = Number.isFinite(state.viewers) ? String(state.viewers) : "–";
  const styled = Array.isArray(state.chain) && state.chain.some(link => link.name === "style");
  stats.styleRefreshHz = styled && Number.isFinite(state.styleRefreshHz) ? state.styleRefreshHz : null;
});
player.on("disconnected", updateStatus);
