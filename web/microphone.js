// FilterCast page, the microphone of My camera (#camera-mic, off by default, remembered for the
// tab): when the sharer allows it, the camera's getUserMedia asks for sound too, and it is
// encoded here with WebCodecs' AudioEncoder (Opus, 20 ms packets) and sent as FCM1 messages
// (docs/PROTOCOL.md "Sharing a camera"), each with the capture time of its first sample on the
// pictures' clock: performance.now() in µs, as camera.js times the pictures (the moment the
// capture reached the page). Where AudioEncoder (or a track processor) is missing, the camera is
// shared without sound and the page says so.
import { sendBinary, sendingBacklog } from "./connection.js";
import { byId, store, stored } from "./helpers.js";
import { toast } from "./toast.js";
import { HEADER_LENGTH, MAGIC, SOUND_FORMAT, newMessage } from "./wire.js";

const toggle = byId("camera-mic");
const CHOSEN_KEY = "filtercast.cameraMic"; // sessionStorage: "1" when this tab shares its microphone
const BITRATE = 64_000;
const BACKLOG_LIMIT = 512 * 1024; // bytes waiting in the socket beyond which sound is skipped
// The sound's clock is set from how soon its first data reach the page: the least delay of the
// first ones (a start-up's late first data would put the sound tens of ms behind the pictures).
const SETTLING_DATA = 25;

const supported = typeof AudioEncoder === "function" && typeof MediaStreamTrackProcessor === "function";
toggle.checked = stored(CHOSEN_KEY) === "1";
toggle.title = supported ? "Share the microphone's sound with the camera"
  : "No sound from this browser: it cannot encode it (no AudioEncoder); the camera is shared alone";
toggle.addEventListener("change", () => {
  store(CHOSEN_KEY, toggle.checked ? "1" : "0");
  if (toggle.checked && !supported) toast("No sound in this browser: the camera will be shared without it");
});

/** Whether getUserMedia should ask for the microphone too (the sharer allows it, and it can be
 *  encoded here); says so when it is allowed but cannot be. */
export function microphoneWanted() {
  if (toggle.checked && !supported) toast("No sound from this browser (no AudioEncoder): sharing the camera without it");
  return toggle.checked && supported;
}

/** `share start`'s `audio` for `track` (nil: none): Opus, which decodes at 48 kHz. */
export function announcement(track) {
  if (!track) return undefined;
  const channels = Math.min(2, Math.max(1, track.getSettings().channelCount || 1));
  return { codec: SOUND_FORMAT.codec, channels, rate: SOUND_FORMAT.sampleRate };
}

/** A microphone's sound being sent (a Sharing's `sound`, camera.js). */
class MicrophoneSending {
  constructor(track, failed) {
    /// The microphone's audio track.
    this.track = track;
    /// The next packet's sequence number (FCM1 bytes 8–15).
    this.sequence = 0;
    /// The page's clock (µs, performance.now()) less the sound's timestamps: the least of the
    /// first SETTLING_DATA data's; Infinity before the first.
    this.offset = Infinity;
    /// How many data were read: packets are sent once the offset is settled.
    this.seen = 0;
    /// The sending ended (stopMicrophone): no more is read, encoded or sent.
    this.stopped = false;
    /// WebCodecs' AudioEncoder (Opus), configured for the first data.
    this.encoder = new AudioEncoder({
      output: (chunk) => transmit(this, chunk),
      error: (error) => { if (!this.stopped) failed(`the sound encoder failed: ${error.message}`); },
    });
    /// The reader of the microphone's data.
    this.reader = new MediaStreamTrackProcessor({ track }).readable.getReader();
  }
}

/** Encodes and sends `track`'s sound until `stopMicrophone`; `failed(reason)` when it cannot go on. */
export function startMicrophone(track, failed) {
  const mic = new MicrophoneSending(track, failed);
  pump(mic);
  return mic;
}

export function stopMicrophone(mic) {
  if (!mic || mic.stopped) return;
  mic.stopped = true;
  mic.reader.cancel().catch(() => {});
  mic.track.stop();
  if (mic.encoder.state !== "closed") mic.encoder.close();
}

/** Reads the microphone's sound and encodes it; the encoder is configured for the first data's
 *  rate and channels (Opus resamples to 48 kHz itself). */
async function pump(mic) {
  while (!mic.stopped) {
    const { value: data, done } = await mic.reader.read();
    if (done || mic.stopped) {
      data?.close();
      return;
    }
    // The page's clock at the data's first sample: it reached the page `duration` after it, at
    // the soonest; what is encoded before the clock is settled is not sent.
    if (mic.seen++ < SETTLING_DATA) mic.offset = Math.min(mic.offset, performance.now() * 1000 - data.timestamp - data.duration);
    if (mic.encoder.state === "unconfigured") {
      mic.encoder.configure({ codec: "opus", sampleRate: data.sampleRate, numberOfChannels: data.numberOfChannels,
                              bitrate: BITRATE, opus: { frameDuration: 20000 } });
    }
    // A slow link: this sound is skipped (a gap) rather than queued behind the pictures.
    if (sendingBacklog() <= BACKLOG_LIMIT) mic.encoder.encode(data);
    data.close();
  }
}

/** One FCM1 message: the header, then the Opus packet. */
function transmit(mic, chunk) {
  if (mic.stopped || mic.seen <= SETTLING_DATA) return;
  const message = newMessage(MAGIC.microphone, 0, mic.sequence++, chunk.timestamp + mic.offset, chunk.byteLength);
  chunk.copyTo(message.subarray(HEADER_LENGTH));
  sendBinary(message.buffer);
}
