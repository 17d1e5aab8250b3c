// FilterCast page, status: the status line (delivered fps, latency, resolution, viewers).
import { on } from "./session.js";
import { measureDeliveredRate, stats } from "./frames.js";

const $ = (id) => document.getElementById(id);
const ui = {
  fps: $("stat-fps"),
  latency: $("stat-latency"),
  resolution: $("stat-resolution"),
  viewers: $("stat-viewers"),
};

/// Redraws the status line from `stats` (called every 250 ms and on a disconnection).
export function updateStatus() {
  measureDeliveredRate();
  ui.fps.textContent = stats.connected ? `${stats.fps} fps` : "–";
  ui.latency.textContent = stats.connected && stats.latencyMs !== null ? `${Math.round(stats.latencyMs)} ms` : "–";
  ui.resolution.textContent = stats.width ? `${stats.width}×${stats.height}` : "–";
  if (!stats.connected) ui.viewers.textContent = "–";
}

on("state", ({ state }) => {
  ui.viewers.textContent = Number.isFinite(state.viewers) ? String(state.viewers) : "–";
});
on("disconnected", updateStatus);
