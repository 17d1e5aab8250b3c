// FilterCast page, the transport: how frames reach this page, chosen after every hello.
// `?transport=` on the page URL: `jpeg`, `h264`, or `auto` (the default): H.264 where the page
// can decode it — WebCodecs' VideoDecoder exists (secure contexts only: https, or
// http://127.0.0.1) and takes Constrained Baseline — and the server offers it, otherwise JPEG.
// The server then picks the size the link allows (`watch` with no rendition); `?rendition=ID`
// pins one of hello.renditions instead. A decoder that fails falls back to JPEG for the life of
// the page, with a notice.
import { wantsSound } from "./audio.js";
import { send } from "./connection.js";
import { resetDecoder } from "./h264.js";
import { pageParameter } from "./helpers.js";
import { player } from "./player.js";
import { toast } from "./toast.js";
import { BASELINE_CODEC } from "./wire.js";

const CHOICES = ["auto", "jpeg", "h264"];
const PROBE = { codec: BASELINE_CODEC, optimizeForLatency: true };

const asked = pageParameter("transport") || "auto";
const requested = CHOICES.includes(asked) ? asked : "auto";
const pinned = pageParameter("rendition");

/// Whether this browser decodes H.264 with WebCodecs here.
async function canDecodeH264() {
  if (!("VideoDecoder" in window) || !window.isSecureContext) return false;
  try {
    return (await VideoDecoder.isConfigSupported(PROBE)).supported === true;
  } catch {
    return false;
  }
}

/// "h264" or "jpeg", for a server whose hello offers `transports`; says why when the page was
/// asked for H.264 and cannot have it.
async function choose(transports) {
  if (requested === "jpeg" || player.video.fellBack) return "jpeg";
  const offered = Array.isArray(transports) && transports.includes("h264");
  const decodes = await canDecodeH264();
  if (offered && decodes) return "h264";
  if (requested === "h264") {
    toast(`H.264 is not available: ${offered ? "this browser cannot decode it here (WebCodecs needs https or 127.0.0.1)" : "the server does not offer it"} — showing JPEG`);
  }
  return "jpeg";
}

/// The `watch` for a server whose hello offers `renditions`: the pinned one if the page can have
/// it, else the chosen transport at the server's choice of size.
async function watchFor(hello) {
  const pin = pinned && hello.renditions.find((rendition) => rendition.id === pinned);
  if (pinned && !pin) toast(`Unknown rendition "${pinned}": choosing automatically`);
  if (pin && (pin.transport === "jpeg" || (!player.video.fellBack && await canDecodeH264()))) {
    return { type: "watch", transport: pin.transport, rendition: pin.id };
  }
  return { type: "watch", transport: await choose(hello.transports) };
}

player.on("hello", async (hello) => {
  player.stats.transport = "jpeg";
  // A server without renditions sends JPEG at its one size: nothing to choose.
  // The sound comes along when the server offers it and this browser plays it (audio.js), muted or not.
  if (Array.isArray(hello.renditions)) send({ ...await watchFor(hello), ...(wantsSound(hello) ? { audio: true } : {}) });
});

player.on("decoderFailed", (reason) => {
  if (player.video.fellBack) return;
  player.video.fellBack = true;
  resetDecoder();
  send({ type: "watch", transport: "jpeg" });
  player.stats.transport = "jpeg";
  toast(`H.264 decoding failed (${reason}) — showing JPEG`);
});

if (asked !== requested) toast(`Unknown transport "${asked}" (auto, jpeg or h264): choosing automatically`);
