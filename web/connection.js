// FilterCast page, connection: the WebSocket to the server (protocol v1, docs/PROTOCOL.md), its
// reconnection (shown in the top bar's indicator), commands and their answers. Text messages become session events (session.js);
// binary messages (frames) go to the receiver given to connect().
import { byId, pageParameter } from "./helpers.js";
import { emit, session } from "./session.js";
import { toast } from "./toast.js";
import { PROTOCOL_VERSION, SUBPROTOCOL } from "./wire.js";

const RECONNECT_FIRST_MS = 500;
const RECONNECT_MAX_MS = 10000;
const COMMAND_TIMEOUT_MS = 3000;

const indicator = byId("connection");
let socket = null;
let receiveFrame = () => {};
let reconnectAttempt = 0;
let reconnectTimer = 0;
let countdownTimer = 0;
let nextCommandId = 1;
const inFlight = new Map(); // command id → done(ok) for commands awaiting ack/error

/// Opens the connection (and keeps reopening it); `frameReceiver(buffer, ws)` gets every binary
/// message, `ws` being what acknowledge() wants back.
export function connect(frameReceiver) {
  receiveFrame = frameReceiver;
  open();
}

/// Sends a command; `done(ok)` runs when the server answers it (ack or error), or with false
/// when it does not within a few seconds. Returns whether it was sent.
export function send(message, done) {
  if (!socket || socket.readyState !== WebSocket.OPEN) {
    toast("Not connected: the command was not sent");
    return false;
  }
  if (done) {
    const id = nextCommandId++;
    message.id = id;
    inFlight.set(id, done);
    // A command dropped without an answer that names it (rate_limited carries no id) must
    // not leave the page waiting forever.
    setTimeout(() => settle(id, false), COMMAND_TIMEOUT_MS);
  }
  socket.send(JSON.stringify(message));
  return true;
}

/// Sends a binary message (a shared camera's picture); false when not connected.
export function sendBinary(buffer) {
  if (!socket || socket.readyState !== WebSocket.OPEN) return false;
  socket.send(buffer);
  return true;
}

/// Bytes given to the socket and not yet sent (a slow link).
export function sendingBacklog() {
  return socket ? socket.bufferedAmount : 0;
}

/// `frameAck {seq}` for a frame that came over `ws`, unless that connection is gone.
export function acknowledge(ws, seq) {
  if (ws === socket && socket.readyState === WebSocket.OPEN) {
    socket.send(JSON.stringify({ type: "frameAck", seq }));
  }
}

/// `kind` is the indicator's data-state: connecting, live, reconnecting or error.
function showConnection(kind, text) {
  indicator.dataset.state = kind;
  if (indicator.textContent !== text) indicator.textContent = text;
}

function socketURL() {
  const url = new URL("ws", location.href);
  url.protocol = location.protocol === "https:" ? "wss:" : "ws:";
  url.hash = "";
  url.search = "";
  const token = pageParameter("token");
  if (token) url.searchParams.set("token", token);
  return url.href;
}

function open() {
  clearTimeout(reconnectTimer);
  clearInterval(countdownTimer);
  showConnection(reconnectAttempt === 0 ? "connecting" : "reconnecting", "Connecting…");
  let ws;
  try {
    ws = new WebSocket(socketURL(), SUBPROTOCOL);
  } catch (error) {
    scheduleReconnect(String(error.message || error));
    return;
  }
  ws.binaryType = "arraybuffer";
  socket = ws;
  ws.onmessage = (event) => {
    if (ws !== socket) return;
    if (typeof event.data === "string") receiveText(event.data);
    else receiveFrame(event.data, ws);
  };
  ws.onclose = (event) => {
    if (ws !== socket) return;
    socket = null;
    inFlight.clear();
    emit("disconnected");
    scheduleReconnect(event.reason || "");
  };
  // An error is always followed by a close event, which does the work.
  ws.onerror = () => {};
}

/// Exponential backoff: 0.5 s, 1 s, 2 s, … up to 10 s, with a little jitter so that many
/// pages do not all come back at the same instant.
function scheduleReconnect(reason) {
  const base = Math.min(RECONNECT_MAX_MS, RECONNECT_FIRST_MS * 2 ** reconnectAttempt);
  const delay = Math.round(base * (0.85 + Math.random() * 0.3));
  reconnectAttempt += 1;
  const due = performance.now() + delay;
  const show = () => {
    const seconds = Math.max(0, Math.ceil((due - performance.now()) / 1000));
    const text = `Reconnecting in ${seconds} s…`;
    showConnection("reconnecting", reason ? `${text} (${reason})` : text);
  };
  show();
  countdownTimer = setInterval(show, 250);
  reconnectTimer = setTimeout(open, delay);
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
    case "ack": return settle(message.id, true);
    case "keyframeRequest": return emit("keyframeRequest");
    case "shareEnded": return emit("shareEnded", message);
    default: return; // unknown types are ignored (forward compatibility)
  }
}

function receiveHello(hello) {
  if (hello.version !== PROTOCOL_VERSION) {
    const ws = socket;
    socket = null; // no reconnection: this page cannot talk to this server
    ws.close();
    emit("disconnected");
    showConnection("error", `Unsupported protocol version ${hello.version}`);
    return;
  }
  reconnectAttempt = 0;
  showConnection("live", "Connected");
  session.state = null; // rebuild everything from this server's state
  emit("hello", hello);
  if (hello.state) receiveState(hello.state);
}

function receiveState(next) {
  const previous = session.state;
  session.state = next;
  emit("state", { state: next, previous });
}

function receiveError(error) {
  emit("error", error);
  if (error.id !== undefined) settle(error.id, false);
}

function settle(id, ok) {
  const done = inFlight.get(id);
  if (!done) return;
  inFlight.delete(id);
  done(ok);
}
