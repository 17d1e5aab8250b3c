// FilterCast page, the wire: protocol v1's numbers (docs/PROTOCOL.md) — the version and
// subprotocol, the binary messages' magic values, header layout and flags, the sound's format —
// and the binary headers read and written with them. Every other module takes them from here.

/// The protocol version this page speaks (`hello.version`, window.filtercast.version).
export const PROTOCOL_VERSION = 1;
/// The WebSocket subprotocol the page asks for.
export const SUBPROTOCOL = `filtercast.v${PROTOCOL_VERSION}`;

/// A magic value as the header's bytes 0–3 read as a little-endian u32: four ASCII letters.
function magicOf(letters) {
  return new DataView(new TextEncoder().encode(letters).buffer).getUint32(0, true);
}

/// The binary messages by their magic (bytes 0–3).
export const MAGIC = {
  /// A JPEG frame, server → page.
  frame: magicOf("FCF1"),
  /// An H.264 access unit, server → page (the `h264` transport).
  unit: magicOf("FCH1"),
  /// An Opus sound packet, server → page (`watch {audio: true}`).
  sound: magicOf("FCA1"),
  /// A shared camera's picture, page → server (`share`).
  picture: magicOf("FCI1"),
  /// A shared camera's microphone packet, page → server (`share` with `audio`).
  microphone: magicOf("FCM1"),
};

/// The common header's length: the payload of every message but an access unit starts here.
export const HEADER_LENGTH = 32;

/// Bits of the header's flags (bytes 6–7).
export const FLAGS = {
  /// The first frame or unit after a state change; the first sound packet after a restart.
  restart: 1,
  /// An H.264 keyframe (access units; a shared camera's pictures).
  keyframe: 2,
};

/// The source's sound (FCA1 packets) as WebCodecs' AudioDecoder takes it: 20 ms Opus packets,
/// 48 kHz stereo. A shared microphone is announced at the same rate.
export const SOUND_FORMAT = { codec: "opus", sampleRate: 48000, numberOfChannels: 2 };

/// The H.264 profile and level the server's units and a shared camera's pictures use when they
/// say none: Constrained Baseline, level 3.1 (RFC 6381).
export const BASELINE_CODEC = "avc1.42e01f";

/// The header fields every frame message has (bytes 0–31) with `ws`, the connection it came
/// over, and `receivedAt` (performance.now() on arrival), or null when it is not one.
export function readHeader(buffer, ws) {
  if (buffer.byteLength < HEADER_LENGTH) return null;
  const view = new DataView(buffer);
  const headerLength = view.getUint16(4, true);
  if (headerLength < HEADER_LENGTH || headerLength > buffer.byteLength) return null;
  return {
    ws,
    magic: view.getUint32(0, true),
    headerLength,
    flags: view.getUint16(6, true),
    seq: Number(view.getBigUint64(8, true)),
    pts: Number(view.getBigInt64(16, true)) / 1e6,
    sentAt: Number(view.getBigInt64(24, true)) / 1000, // ms since the epoch, like Date.now()
    receivedAt: performance.now(), // when the page got it: acknowledge() says how long it held it
  };
}

/// An access unit's picture size (bytes 32–35 of its header).
export function readUnitSize(buffer) {
  const view = new DataView(buffer);
  return { width: view.getUint16(HEADER_LENGTH, true), height: view.getUint16(HEADER_LENGTH + 2, true) };
}

/// A page → server message (FCI1, FCM1): the header with `magic`, `flags`, the sequence `seq`
/// and the capture time `micros` (µs), and room for `payloadLength` bytes from HEADER_LENGTH on.
export function newMessage(magic, flags, seq, micros, payloadLength) {
  const message = new Uint8Array(HEADER_LENGTH + payloadLength);
  const view = new DataView(message.buffer);
  view.setUint32(0, magic, true);
  view.setUint16(4, HEADER_LENGTH, true);
  view.setUint16(6, flags, true);
  view.setBigUint64(8, BigInt(seq), true);
  view.setBigInt64(16, BigInt(Math.round(micros)), true);
  return message;
}
