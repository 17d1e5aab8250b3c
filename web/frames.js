// FilterCast page, frames: the binary frame messages (docs/PROTOCOL.md, "Frames"). JPEG frames
// are decoded here, one at a time and only the newest; H.264 access units go to h264.js.
//
// The server's Content-Security-Policy forbids blob: images, so JPEGs are decoded with
// createImageBitmap and drawn on a canvas.
import { receiveSound } from "./audio.js";
import { acknowledge } from "./connection.js";
import { receiveUnit, resetDecoder } from "./h264.js";
import { countReceived, drawPicture } from "./picture.js";
import { player } from "./player.js";
import { MAGIC, readHeader } from "./wire.js";

const frames = player.frames;

/// A binary message from `ws`: a JPEG decoded now or kept as the one waiting frame, an access
/// unit for the H.264 decoder, or a sound packet for audio.js.
export function receiveFrame(buffer, ws) {
  const frame = readHeader(buffer, ws);
  if (receiveSound(buffer, frame)) return; // a sound packet (FCA1): audio.js
  // Anything else — the padding of the server's probes (FCP1) — is skipped, and not counted.
  if (!frame || (frame.magic !== MAGIC.unit && frame.magic !== MAGIC.frame)) return;
  countReceived(buffer.byteLength);
  if (frame.magic === MAGIC.unit) return receiveUnit(buffer, frame);
  frame.jpeg = new Uint8Array(buffer, frame.headerLength);
  if (frames.decoding || document.hidden) {
    frames.pendingFrame = frame; // only the newest waiting frame is kept
    return;
  }
  decode(frame);
}

function decodePending() {
  if (!frames.pendingFrame || document.hidden) return;
  const next = frames.pendingFrame;
  frames.pendingFrame = null;
  decode(next);
}

async function decode(frame) {
  frames.decoding = true;
  try {
    const bitmap = await createImageBitmap(new Blob([frame.jpeg], { type: "image/jpeg" }));
    if (!(frames.pendingFrame && frames.pendingFrame.ws === frame.ws)) drawPicture(bitmap, bitmap.width, bitmap.height, frame);
    bitmap.close(); // drawn, or a newer frame is already here: show that one instead
  } catch {
    acknowledge(frame); // undecodable: skip it, but keep the flow going
  } finally {
    frames.decoding = false;
    decodePending();
  }
}

// A hidden tab decodes nothing and acknowledges nothing, so the server stops sending to it
// once the window is full; when it shows again, the newest frame is drawn and acknowledged.
document.addEventListener("visibilitychange", () => {
  if (!frames.decoding) decodePending();
});

player.on("disconnected", () => {
  frames.pendingFrame = null;
  resetDecoder();
});
