// FilterCast page, a second picture (docs/PROTOCOL.md, `hello.renditions`): a WebSocket of its
// own that watches one rendition of a picture besides the program — the preview's (`"preview":
// true`, studio.js) or the source's (`"source": true`, compare.js) — decodes its JPEGs one at a
// time (only the newest waits) and hands each picture on. The program's connection, its
// transport and its rung stay as they are.
import { savedToken } from "./access.js";
import { socketURL } from "./connection.js";
import { MAGIC, readHeader, SUBPROTOCOL } from "./wire.js";

/// The first rendition `hello` offers of `kind` ("preview" or "source": the full-size one), "" for none.
export function offeredRendition(hello, kind) {
  return (Array.isArray(hello.renditions) ? hello.renditions : []).find((r) => r[kind] === true)?.id ?? "";
}

/// One second picture's connection, open from construction to close(): it watches `rendition`
/// and calls `onPicture(bitmap, frame)` for each picture (the bitmap is closed after it returns;
/// `frame` is the header: {seq, pts, …}), and `onClose()` when the server closed it.
export class SecondConnection {
  constructor(rendition, onPicture, onClose) {
    this.rendition = rendition;
    this.onPicture = onPicture;
    /// A JPEG is being decoded: the newest one arriving meanwhile waits here (null: none).
    this.decoding = false;
    this.pendingFrame = null;
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
    this.pendingFrame = null;
    ws?.close();
  }

  /// After the hello: the tab's token when the URL has none, then the watch.
  greet() {
    const token = savedToken();
    if (token) this.socket.send(JSON.stringify({ type: "auth", token }));
    this.socket.send(JSON.stringify({ type: "watch", transport: "jpeg", rendition: this.rendition }));
  }

  /// A frame message: decoded now, or kept as the one waiting while another decodes.
  receive(buffer) {
    const frame = readHeader(buffer, this.socket);
    if (!frame || frame.magic !== MAGIC.frame) return;
    frame.jpeg = new Uint8Array(buffer, frame.headerLength);
    if (this.decoding) {
      this.pendingFrame = frame;
      return;
    }
    this.decode(frame);
  }

  async decode(frame) {
    this.decoding = true;
    try {
      const bitmap = await createImageBitmap(new Blob([frame.jpeg], { type: "image/jpeg" }));
      if (frame.ws === this.socket) this.onPicture(bitmap, frame);
      bitmap.close();
    } catch {
      // Undecodable: skipped, and acknowledged below so that the flow goes on.
    } finally {
      if (frame.ws.readyState === WebSocket.OPEN) frame.ws.send(JSON.stringify({ type: "frameAck", seq: frame.seq }));
      this.decoding = false;
      const next = this.pendingFrame;
      this.pendingFrame = null;
      if (next) this.decode(next);
    }
  }
}
