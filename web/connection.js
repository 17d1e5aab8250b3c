// FilterCast page, connection: the WebSocket to the server (protocol v1, docs/PROTOCOL.md), its
// reconnection (shown in the top bar's indicator), commands and their answers. Text messages become
// the player's events (player.js); binary messages (frames) go to the receiver given to connect().
import { byId, pageParameter } from "./helpers.js";
import { personKey, savedName } from "./person.js";
import { player } from "./player.js";
import { toast } from "./toast.js";
import { PROTOCOL_VERSION, SUBPROTOCOL } from "./wire.js";

const RECONNECT_FIRST_MS = 500;
const RECONNECT_MAX_MS = 10000;
const COMMAND_TIMEOUT_MS = 3000;

const indicator = byId("connection");
const connection = player.connection;

/// Opens the connection (and keeps reopening it); `frameReceiver(buffer, ws)` gets every binary
/// message, `ws` being what acknowledge() wants back.
export function connect(frameReceiver) {
  connection.receiveFrame = frameReceiver;
  open();
}

/// Closes the connection and opens another at once: the page moved to another channel (its
/// ?channel= changed), whose `hello` and state then rebuild the page.
export function reopen() {
  const ws = connection.socket;
  connection.socket = null;
  connection.inFlight.clear();
  if (ws) {
    ws.close();
    player.emit("disconnected");
  }
  connection.reconnectAttempt = 0;
  open();
}

/// Sends a command; `done(ok, answer)` runs when the server answers it (ack or error: the
/// message), or with false when it does not within a few seconds. Returns whether it was sent.
export function send(message, done) {
  if (!connection.socket || connection.socket.readyState !== WebSocket.OPEN) {
    toast("Not connected: the command was not sent");
    return false;
  }
  if (done) {
    const id = connection.nextCommandId++;
    message.id = id;
    connection.inFlight.set(id, done);
    // A command dropped without an answer that names it (rate_limited carries no id) must
    // not leave the page waiting forever.
    setTimeout(() => settle(id, false), COMMAND_TIMEOUT_MS);
  }
  connection.socket.send(JSON.stringify(message));
  return true;
}

/// Sends a binary message (a shared camera's picture); false when not connected.
export function sendBinary(buffer) {
  if (!connection.socket || connection.socket.readyState !== WebSocket.OPEN) return false;
  connection.socket.send(buffer);
  return true;
}

/// Bytes given to the socket and not yet sent (a slow link).
export function sendingBacklog() {
  return connection.socket ? connection.socket.bufferedAmount : 0;
}

/// `frameAck {seq, heldMs}` for `frame` (readHeader's: {ws, seq, receivedAt}), unless its
/// connection is gone. `heldMs` says how long the page held the frame (waiting for its decoder,
/// decoding, drawing): the server does not take a busy page for a slow link (docs/PROTOCOL.md,
/// "Adaptation").
export function acknowledge(frame) {
  if (frame.ws === connection.socket && connection.socket.readyState === WebSocket.OPEN) {
    const heldMs = Math.min(60000, Math.max(0, Math.round(performance.now() - frame.receivedAt)));
    connection.socket.send(JSON.stringify({ type: "frameAck", seq: frame.seq, heldMs }));
  }
}

/// `kind` is the indicator's data-state: connecting, live, reconnecting or error.
function showConnection(kind, text) {
  indicator.dataset.state = kind;
  if (indicator.textContent !== text) indicator.textContent = text;
}

/// The WebSocket endpoint with the page's `?token=` and `?channel=`, and who the page is
/// (`?person=`, `?name=`: person.js) — the same for the second connection second.js opens.
export function socketURL() {
  const url = new URL("ws", location.href);
  url.protocol = location.protocol === "https:" ? "wss:" : "ws:";
  url.hash = "";
  url.search = "";
  const token = pageParameter("token");
  if (token) url.searchParams.set("token", token);
  const channel = pageParameter("channel");
  if (channel) url.searchParams.set("channel", channel);
  url.searchParams.set("person", personKey());
  const name = savedName();
  if (name) url.searchParams.set("name", name);
  return url.href;
}

function open() {
  clearTimeout(connection.reconnectTimer);
  clearInterval(connection.countdownTimer);
  showConnection(connection.reconnectAttempt === 0 ? "connecting" : "reconnecting", "Connecting…");
  let ws;
  try {
    ws = new WebSocket(socketURL(), SUBPROTOCOL);
  } catch (error) {
    scheduleReconnect(String(error.message || error));
    return;
  }
  ws.binaryType = "arraybuffer";
  connection.socket = ws;
  ws.onmessage = (event) => {
    if (ws !== connection.socket) return;
    if (typeof event.data === "string") receiveText(event.data);
    else connection.receiveFrame(event.data, ws);
  };
  ws.onclose = (event) => {
    if (ws !== connection.socket) return;
    connection.socket = null;
    connection.inFlight.clear();
    player.emit("disconnected", { code: event.code, reason: event.reason || "" });
    scheduleReconnect(event.reason || "");
  };
  // An error is always followed by a close event, which does the work.
  ws.onerror = () => {};
}

/// Exponential backoff: 0.5 s, 1 s, 2 s, … up to 10 s, with a little jitter so that many
/// pages do not all come back at the same instant.
function scheduleReconnect(reason) {
  const base = Math.min(RECONNECT_MAX_MS, RECONNECT_FIRST_MS * 2 ** connection.reconnectAttempt);
  const delay = Math.round(base * (0.85 + Math.random() * 0.3));
  connection.reconnectAttempt += 1;
  const due = performance.now() + delay;
  const show = () => {
    const seconds = Math.max(0, Math.ceil((due - performance.now()) / 1000));
    const text = `Reconnecting in ${seconds} s…`;
    showConnection("reconnecting", reason ? `${text} (${reason})` : text);
  };
  show();
  connection.countdownTimer = setInterval(show, 250);
  connection.reconnectTimer = setTimeout(open, delay);
}

function receiveText(text) {
  let message;
  try {
    message = JSON.parse(text);
  } catch {
    return; // not for us
  }
  if (!message || typeof message !== "object") return;
  switch (message.type) {
    case "hello": return receiveHello(message);
    case "state": return receiveState(message);
    case "error": return receiveError(message);
    case "ack": return settle(message.id, true, message);
    case "keyframeRequest": return player.emit("keyframeRequest");
    case "shareEnded": return player.emit("shareEnded", message);
    case "catalog": return Array.isArray(message.filters) ? player.emit("catalog", message) : undefined;
    case "looks": return player.emit("looks", message);
    case "renditions": return Array.isArray(message.renditions) ? player.emit("renditions", message) : undefined;
    case "activity": return message.by ? player.emit("activity", message) : undefined;
    case "pointer": return message.by ? player.emit("pointer", message) : undefined;
    case "comments": return player.emit("comments", message);
    default: return; // unknown types are ignored (forward compatibility)
  }
}

function receiveHello(hello) {
  if (hello.version !== PROTOCOL_VERSION) {
    const ws = connection.socket;
    connection.socket = null; // no reconnection: this page cannot talk to this server
    ws.close();
    player.emit("disconnected");
    showConnection("error", `Unsupported protocol version ${hello.version}`);
    return;
  }
  connection.reconnectAttempt = 0;
  showConnection("live", "Connected");
  player.state = null; // rebuild everything from this server's state
  player.emit("hello", hello);
  if (hello.state) receiveState(hello.state);
}

function receiveState(next) {
  const previous = player.state;
  player.state = next;
  player.emit("state", { state: next, previous });
}

function receiveError(error) {
  player.emit("error", error);
  if (error.id !== undefined) settle(error.id, false, error);
}

function settle(id, ok, answer) {
  const done = connection.inFlight.get(id);
  if (!done) return;
  connection.inFlight.delete(id);
  done(ok, answer);
}
