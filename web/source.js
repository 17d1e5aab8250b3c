// FilterCast page, the source: its name in the top bar and, for a live source that failed, the
// "No signal" badge on the picture.
import { byId } from "./helpers.js";
import { player } from "./player.js";

const sourceName = byId("source-name");
const signalBadge = byId("signal-badge");

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

/**
 * What the header calls the source: a file by its name, never the server's path to it; a stream
 * by its host and path (no credentials, no query); a camera or the test pattern as the server
 * names it.
 */
export function displayName(source) {
  const name = source.name || "";
  if (source.kind === "file") return name.split("/").filter(Boolean).pop() || name;
  if (source.kind === "stream") {
    try {
      const url = new URL(name);
      return url.host + url.pathname;
    } catch {
      return name.split("/").filter(Boolean).pop() || name;
    }
  }
  return name;
}

/**
 * What `open` names to play `source` again (`state.source.reference`): "input",
 * "recordings/NAME", "media/PATH", "uploads/NAME"; null for a shared camera. Servers before it
 * said it in `name` (a library file's reference) and `startInput`.
 */
export function sourceReference(source) {
  if (!source) return null;
  if (source.reference !== undefined) return source.reference;
  return source.startInput === false ? source.name || null : "input";
}

/** Marks `li` as what plays when its `data-source` is `reference`: data-current, aria-current. */
export function markSource(li, reference) {
  const current = li.dataset.source === reference;
  li.dataset.current = String(current);
  if (current) li.setAttribute("aria-current", "true");
  else li.removeAttribute("aria-current");
}

player.on("state", ({ state, previous }) => {
  const source = state.source || {};
  if (!previous || previous.source?.name !== source.name) {
    sourceName.textContent = sourceName.title = displayName(source);
  }
  renderSignal(source);
});
