// FilterCast page, the source: its name in the top bar and, for a live source that failed, the
// "No signal" badge on the picture.
import { byId } from "./helpers.js";
import { player } from "./player.js";

const sourceName = byId("source-name");
const signalBadge = byId("signal-badge");

/**
 * The countdown `elapsedMs` after a state said `retryIn` seconds were left: the whole seconds
 * shown (rounded up) and the milliseconds until that changes (null at 0). The server draws its
 * NO SIGNAL picture at the same instants (its RetryCountdown), so the picture and the badge agree.
 */
export function retryCountdown(retryIn, elapsedMs) {
  const leftMs = Math.max(0, retryIn * 1000 - elapsedMs);
  const seconds = Math.ceil(leftMs / 1000);
  return { seconds, nextChangeMs: seconds > 0 ? leftMs - (seconds - 1) * 1000 : null };
}

let countdownTimer = null;

/**
 * A live source that failed: "No signal — retrying in N s" (or "reconnecting…"), the reason as
 * tooltip. The seconds count down on the page's clock from the state's `retryIn` (states come
 * only when something changes), each change at the instant the server's picture changes too.
 */
export function renderSignal(source) {
  clearTimeout(countdownTimer);
  const offline = source.online === false;
  signalBadge.hidden = !offline;
  document.body.dataset.signal = offline ? "lost" : "ok";
  if (!offline) return;
  signalBadge.title = source.reason || "";
  if (!Number.isFinite(source.retryIn)) {
    signalBadge.textContent = "No signal — reconnecting…";
    return;
  }
  const received = performance.now();
  const tick = () => {
    const { seconds, nextChangeMs } = retryCountdown(source.retryIn, performance.now() - received);
    signalBadge.textContent = `No signal — retrying in ${seconds} s`;
    // A millisecond past the change, so that the next tick reads the new second.
    if (nextChangeMs !== null) countdownTimer = setTimeout(tick, nextChangeMs + 1);
  };
  tick();
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
