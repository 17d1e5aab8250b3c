// FilterCast page, the session: the latest state the server sent, and the events by which the
// modules hear what the server said. Modules talk through these imports; window.filtercast is
// only the test contract (main.js).

/** What this page knows of the shared session. */
export const session = {
  /** The latest `state` the server broadcast (parsed JSON); null until the first of a connection. */
  state: null,
};

const listeners = new Map(); // event name → [listener]

/// Calls `listener(detail)` on every `event`:
/// - "hello": the `hello` message of a new connection (before its state);
/// - "state": `{state, previous}` for every state (`previous` is null for a connection's first);
/// - "error": the `error` message;
/// - "disconnected": the WebSocket closed (the page reconnects by itself);
/// - "authorized": the token typed into the page was accepted (access.js);
/// - "access": what this page may do changed (access.js: "control", "watch" or "none");
/// - "camera": this page's camera sharing started, stopped or is starting (camera.js: its state);
/// - "drawn": a frame ({seq, pts, …}) was drawn on the canvas (picture.js);
/// - "keyframeRequest", "shareEnded": to the page sharing its camera (camera.js).
/// Listeners run in the order they subscribed. A module subscribes when it is first evaluated, and
/// ES modules evaluate the modules they import first, so a module hears an event after those.
export function on(event, listener) {
  if (!listeners.has(event)) listeners.set(event, []);
  listeners.get(event).push(listener);
}

/// Tells every listener of `event`.
export function emit(event, detail) {
  for (const listener of listeners.get(event) || []) listener(detail);
}

/// The current chain, [{name, params}] in the order the filters apply; [] for no filter. A
/// server without chains has its single filter.
export function currentChain() {
  const state = session.state;
  if (!state) return [];
  if (Array.isArray(state.chain)) return state.chain;
  return state.filter && state.filter.name !== "none" ? [state.filter] : [];
}
