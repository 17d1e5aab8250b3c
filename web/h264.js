// FilterCast page, H.264: decodes the access units of the h264 transport (docs/PROTOCOL.md,
// "Access units") with WebCodecs and draws each decoded picture on the canvas. Units come in
// decoding order; the decoder starts at a keyframe (the units before the first are skipped) and
// is configured from the keyframe's SPS. A decoder that fails is reported ("decoderFailed"), and
// transport.js falls back to JPEG.
import { acknowledge } from "./connection.js";
import { drawPicture } from "./picture.js";
import { player } from "./player.js";
import { BASELINE_CODEC, FLAGS, readUnitSize } from "./wire.js";

// The server's pictures are full-range BT.601, like JPEG's (docs/PROTOCOL.md). The decoder is
// told so (it would assume limited-range BT.709 and draw them washed out), and that the colours
// are sRGB, as a JPEG's are taken to be.
const COLOR_SPACE = { fullRange: true, matrix: "smpte170m", primaries: "bt709", transfer: "iec61966-2-1" };
const MAX_QUEUE = 30; // units waiting in the decoder beyond which it starts over at a keyframe

const video = player.video;

/// An access unit message (`frame`: its parsed header fields). After a fallback to JPEG the
/// units still on the way (sent before the server took the page's `watch`) are only acknowledged:
/// decoding them would start a decoder again and report H.264 as the transport.
export function receiveUnit(buffer, frame) {
  if (video.fellBack) return acknowledge(frame);
  const { width, height } = readUnitSize(buffer);
  const data = new Uint8Array(buffer, frame.headerLength);
  const keyframe = (frame.flags & FLAGS.keyframe) !== 0;
  player.stats.transport = "h264";
  if (keyframe) video.waitingForKeyframe = false;
  if (video.waitingForKeyframe || (!keyframe && !video.decoder)) return acknowledge(frame);
  try {
    if (keyframe) configure(codecOf(data), width, height);
    if (video.decoder.decodeQueueSize > MAX_QUEUE) return startOver(frame);
    video.headers.set(frame.seq, frame);
    video.decoder.decode(new EncodedVideoChunk({ type: keyframe ? "key" : "delta", timestamp: frame.seq, data }));
  } catch (error) {
    fail(error);
  }
}

/// Forgets the decoder (a new connection starts at a keyframe).
export function resetDecoder() {
  if (video.decoder && video.decoder.state !== "closed") video.decoder.close();
  video.decoder = null;
  video.configuration = "";
  video.waitingForKeyframe = true;
  video.headers.clear();
}

function configure(codec, width, height) {
  const wanted = `${codec} ${width}x${height}`;
  if (video.decoder && video.configuration === wanted) return;
  if (!video.decoder) video.decoder = new VideoDecoder({ output: show, error: fail });
  video.decoder.configure({ codec, codedWidth: width, codedHeight: height, optimizeForLatency: true, colorSpace: COLOR_SPACE });
  video.configuration = wanted;
}

function show(picture) {
  const frame = video.headers.get(picture.timestamp);
  for (const seq of video.headers.keys()) if (seq <= picture.timestamp) video.headers.delete(seq);
  if (frame) drawPicture(picture, picture.displayWidth, picture.displayHeight, frame);
  picture.close();
}

/// The decoder fell behind: drop what it holds and wait for the next keyframe.
function startOver(frame) {
  resetDecoder();
  acknowledge(frame);
}

function fail(error) {
  resetDecoder();
  player.emit("decoderFailed", String((error && error.message) || error));
}

/// The RFC 6381 codec string from the SPS in front of a keyframe: `avc1.` and the profile,
/// constraint flags and level, two hex digits each.
export function codecOf(data) {
  for (let i = 0; i + 4 < data.length; i++) {
    if (data[i] === 0 && data[i + 1] === 0 && data[i + 2] === 1 && (data[i + 3] & 0x1f) === 7) {
      const hex = (byte) => byte.toString(16).padStart(2, "0");
      return `avc1.${hex(data[i + 4])}${hex(data[i + 5])}${hex(data[i + 6])}`;
    }
  }
  return BASELINE_CODEC; // no SPS
}
