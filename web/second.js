// FilterCast page, a second picture (docs/PROTOCOL.md, `hello.renditions`): a WebSocket of its
// own that watches one rendition of a picture besides the program — the preview's (`"preview":
// true`, studio.js) or the source's (`"source": true`, compare.js) — decodes its JPEGs (two at a
// time; only the newest wait) and hands each picture on, in order. The program's connection, its
// transport and its rung stay as they are.
import { savedToken } from "./access.js";
import { socketURL } from "./connection.js";
import { MAGIC, readHeader, SUBPROTOCOL } from "./wire.js";

const DECODES = 2; // JPEG decodes under way at once

/// The renditions `hello` offers of `kind` ("preview" or "source"), largest first.
export function offeredRenditions(hello, kind) {
  return (Array.isArray(hello.renditions) ? hello.renditions : []).filter((r) => r[kind] === true);
}

/// The first rendition `hello` offers of `kind` (the full-size one), "" for none.
export function offeredRendition(hello, kind) {
  return offeredRenditions(hello, kind)[0]?.id ?? "";
}

/// One second picture's connection, open from construction to close(): it watches `rendition`
/// and calls `onPicture(bitmap, frame)` for each picture (the bitmap is closed after it returns;
/// `frame` is the header: {seq, pts, …}), and `onClose()` when the server closed it.
///
/// A frame is acknowledged when it arrives, not when drawn: the page itself keeps at most
/// `waiting` frames for the decoders (the newest; older ones are dropped), so nothing queues
/// beyond them and the flow window's two frames in the network, and the server is never held to
/// one frame in flight by the time this page's busy main thread takes to decode — the compare
/// view pairs every source frame it can with the program's of the same time.
export class SecondConnection {
  constructor(rendition, onPicture, onClose, waiting = 1) {
    this.rendition = rendition;
    this.onPicture = onPicture;
    this.waiting = waiting;
    /// The hello came and the watch went: a new rendition is watched at once.
    this.greeted = false;
    /// JPEGs being decoded, and the frames waiting for a decode (oldest first).
    this.decoding = 0;
    this.pending = [];
    /// The last picture's hand-on: each waits for the one before, so pictures keep their order.
    this.handedOn = Promise.resolve();
    this.socket = new WebSocket(socketURL(), SUBPROTOCOL);
    this.socket.binaryType = "arraybuffer";
    this.socket.onmessage = (event) => {
      if (typeof event.data !== "string") this.receive(event.data);
      else if (JSON.parse(event.data).type === "hello") this.greet();
    };
    this.socket.onclose = () => {
      if (this.socket) onClose();
    };
  }

  /// Closes the connection; nothing is handed on after it.
  close() {
    const ws = this.socket;
    this.socket = null;
    this.pending = [];
    ws?.close();
  }

  /// After the hello: the tab's token when the URL has none, then the watch.
  greet() {
    const token = savedToken();
    if (token) this.socket.send(JSON.stringify({ type: "auth", token }));
    this.greeted = true;
    this.watch(this.rendition);
  }

  /// Watches `rendition` from now on (another size of the same picture).
  watch(rendition) {
    this.rendition = rendition;
    if (this.greeted && this.socket?.readyState === WebSocket.OPEN) {
      this.socket.send(JSON.stringify({ type: "watch", transport: "jpeg", rendition }));
    }
  }

  /// A frame message: decoded at once when fewer than DECODES are under way, else kept waiting
  /// (only the newest `waiting`).
  receive(buffer) {
    const frame = readHeader(buffer, this.socket);
    if (!frame || frame.magic !== MAGIC.frame) return;
    frame.jpeg = new Uint8Array(buffer, frame.headerLength);
    this.socket.send(JSON.stringify({ type: "frameAck", seq: frame.seq }));
    this.pending.push(frame);
    if (this.pending.length > this.waiting) this.pending.shift();
    this.startDecodes();
  }

  /// Starts a decode of each waiting frame while fewer than DECODES are under way. Two at once
  /// keep the decoder busy across the hop back to a busy main thread (one alone decoded ~18 of 25
  /// pictures a second at 720p beside an H.264 program); pictures are handed on in arrival order.
  startDecodes() {
    while (this.decoding < DECODES && this.pending.length > 0) {
      const frame = this.pending.shift();
      this.decoding += 1;
      const decoded = createImageBitmap(new Blob([frame.jpeg], { type: "image/jpeg" })).catch(() => null);
      this.handedOn = this.handedOn.then(async () => {
        const bitmap = await decoded;  // null: undecodable, skipped
        try {
          if (bitmap && frame.ws === this.socket) this.onPicture(bitmap, frame);
        } finally {  // a picture that failed to draw must not stop the ones after it
          bitmap?.close();
          this.decoding -= 1;
          this.startDecodes();
        }
      }).catch(() => {});
    }
  }
}
