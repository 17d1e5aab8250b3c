// FilterCast page, the source: its name in the top bar and, for a live source that failed, the
// "No signal" badge on the picture.
import { on } from "./session.js";

const $ = (id) => document.getElementById(id);
const sourceName = $("source-name");
const signalBadge = $("signal-badge");

/** A live source that failed: "No signal — retrying in N s" (or "reconnecting…"), the reason as tooltip. */
function renderSignal(source) {
  const offline = source.online === false;
  signalBadge.hidden = !offline;
  document.body.dataset.signal = offline ? "lost" : "ok";
  if (!offline) return;
  const retryIn = Number.isFinite(source.retryIn) ? Math.ceil(source.retryIn) : null;
  signalBadge.textContent = retryIn === null ? "No signal — reconnecting…" : `No signal — retrying in ${retryIn} s`;
  signalBadge.title = source.reason || "";
}

on("state", ({ state, previous }) => {
  const source = state.source || {};
  if (!previous || previous.source?.name !== source.name) {
    sourceName.textContent = source.name || "";
    sourceName.title = source.name || "";
  }
  renderSignal(source);
});
