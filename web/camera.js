// FilterCast page, My camera (#camera-share): the browser's camera as the session's source
// (`share`, docs/PROTOCOL.md "Sharing a camera"). The camera's frames are encoded here — H.264
// with WebCodecs' VideoEncoder (realtime), else JPEG with OffscreenCanvas.convertToBlob — and
// each goes to the server as one FCI1 message with its capture time; the server filters it and
// sends it to every viewer, this page too, whose frames carry that capture time back:
// stats.cameraRoundTripMs is the median of capture → filtered frame drawn here. With more than
// one camera (a phone's front and back), #camera-device picks one while sharing: the new camera
// is announced with another `share start` (same sharer: the source is replaced, what played
// before the sharing still comes back at its end). With #camera-mic on, the microphone's sound
// goes with the pictures (microphone.js).
import { guard } from "./access.js";
import { send, sendBinary, sendingBacklog } from "./connection.js";
import { byId, median, pushBounded, store, stored } from "./helpers.js";
import { announcement, microphoneWanted, startMicrophone, stopMicrophone } from "./microphone.js";
import { player } from "./player.js";
import { toast } from "./toast.js";
import { BASELINE_CODEC, FLAGS, HEADER_LENGTH, MAGIC, newMessage } from "./wire.js";

const button = byId("camera-share");
const label = byId("camera-share-label");
const picker = byId("camera-device");
const CHOSEN_KEY = "filtercast.camera"; // sessionStorage: the deviceId last picked in this tab
const KEYFRAME_INTERVAL_MS = 2000;
const BITRATE = 2_500_000;
const BACKLOG_LIMIT = 512 * 1024; // bytes waiting in the socket beyond which frames are skipped
const ROUND_TRIP_WINDOW = 30;
const ROUND_TRIP_HISTORY_MAX = 10000;

const camera = player.camera;

/** A sharing under way (player.camera.sharing): one camera's pictures encoded and sent. */
class Sharing {
  constructor(track, microphone, width, height, codec) {
    /// The camera's video track.
    this.track = track;
    /// The microphone's track; undefined when the camera is shared without sound.
    this.microphone = microphone;
    /// The picture size announced in `share start`: frames of another size are skipped.
    this.width = width;
    this.height = height;
    /// "h264" or "jpeg": how the pictures are encoded.
    this.codec = codec;
    /// The next picture's sequence number (FCI1 bytes 8–15).
    this.sequence = 0;
    /// The next picture is to be a keyframe: the first, one the server asked for, one after a skip.
    this.keyframeDue = true;
    /// The capture time (ms, performance.now()) of the last keyframe.
    this.lastKeyframe = 0;
    /// VideoFrame timestamp → capture time (ms), for the frames in the encoder.
    this.captures = new Map();
    /// WebCodecs' VideoEncoder (H.264); null for JPEG, and until the pictures flow.
    this.encoder = null;
    /// The reader of the camera's frames; null until the pictures flow.
    this.reader = null;
    /// The microphone's sending (microphone.js); null without sound.
    this.sound = null;
  }
}

function render(state, text) {
  camera.state = state;
  button.dataset.state = state;
  button.setAttribute("aria-pressed", String(state === "sharing"));
  label.textContent = text;
  button.setAttribute("aria-label", state === "sharing" ? "Stop sharing my camera" : "Share my camera");
  const title = state === "sharing" ? `Sharing ${camera.sharing?.track.label || "the camera"}: click to stop`
    : "Share this browser's camera as the source everybody watches";
  // Only a page that may control may start; one that shares may always stop.
  if (state === "off") guard(button, title);
  else button.title = title;
  player.emit("camera", state);
}

player.on("access", () => { if (camera.state === "off") render("off", "My camera"); });

/** What the camera button (and the Sources panel's My camera) does: start sharing, or stop. */
export function toggleCamera() {
  if (camera.sharing) stop("stopped");
  else if (camera.state === "off") start();
}

/** "off", "starting" or "sharing": this page's camera. */
export function cameraState() {
  return camera.state;
}

button.addEventListener("click", toggleCamera);

picker.addEventListener("change", () => {
  store(CHOSEN_KEY, picker.value);
  if (camera.sharing) start(picker.value);
});

/** The session's frame size: pictures are sent at most its pixels, no side longer than its
 *  longer side (the server's bounds; it scales them to this size, keeping their shape). */
function sessionSize() {
  const source = player.state?.source;
  return { width: source?.width || 1280, height: source?.height || 720 };
}

/** The camera's own picture nearest the session's size, uncropped (`resizeMode: "none"`: a
 *  phone held upright gives its 720x1280, not a landscape strip cut out of it). */
function constraints(deviceId, audio) {
  const size = sessionSize();
  return {
    audio,
    video: { deviceId: deviceId ? { exact: deviceId } : undefined, width: { ideal: size.width },
             height: { ideal: size.height }, frameRate: { ideal: 30 }, resizeMode: "none" },
  };
}

/** Scales the camera down, keeping its shape, when its picture is over the session's bounds
 *  (a 640x480 webcam in a 640x360 session gives 554x414). */
async function fitToSession(track) {
  const { width, height } = track.getSettings();
  const size = sessionSize();
  const scale = Math.min(1, Math.sqrt((size.width * size.height) / (width * height)),
                         Math.max(size.width, size.height) / Math.max(width, height));
  if (scale >= 1) return;
  const even = (side) => Math.max(16, Math.floor((side * scale) / 2) * 2);
  await track.applyConstraints({ width: { exact: even(width) }, height: { exact: even(height) }, resizeMode: "crop-and-scale" })
    .catch(() => {}); // the server's refusal names the size
}

/** The camera `deviceId` (else the browser's choice when that one is gone), and the microphone
 *  when `audio` (else the camera alone when there is none, said so). */
async function openCamera(deviceId, audio) {
  const open = (id, withAudio) => navigator.mediaDevices.getUserMedia(constraints(id, withAudio))
    .catch((error) => (id && error.name === "OverconstrainedError"
      ? navigator.mediaDevices.getUserMedia(constraints(null, withAudio)) : Promise.reject(error)));
  if (!audio) return open(deviceId, false);
  return open(deviceId, true).catch((error) => {
    toast(`No microphone (${error.message || error.name}): sharing the camera without sound`);
    return open(deviceId, false);
  });
}

/** Starts sharing `deviceId` (else the one picked last in this tab, else the browser's
 *  choice); while sharing, this switches cameras. */
async function start(deviceId = stored(CHOSEN_KEY)) {
  if (!navigator.mediaDevices?.getUserMedia) return toast("This browser cannot share a camera here (it needs https or localhost)");
  render("starting", "Starting…");
  let stream;
  try {
    stream = await openCamera(deviceId, microphoneWanted());
  } catch (error) {
    if (camera.sharing) return stop(`the camera could not be opened (${error.message || error.name})`);
    render("off", "My camera");
    return toast(`No camera: ${error.message || error.name}`);
  }
  const track = stream.getVideoTracks()[0];
  await fitToSession(track);
  release(camera.sharing);
  const { width, height } = track.getSettings();
  const codec = (await h264Supported(width, height)) ? "h264" : "jpeg";
  const microphone = stream.getAudioTracks()[0];
  camera.sharing = new Sharing(track, microphone, width, height, codec);
  const shared = camera.sharing;
  const audio = announcement(microphone);
  const sent = send({ type: "share", action: "start", codec, width, height, label: track.label, audio }, (ok) => {
    if (!ok) return stop(null);
    if (camera.sharing !== shared) return;
    if (microphone) shared.sound = startMicrophone(microphone, (reason) => camera.sharing === shared && stop(reason));
    pump(shared);
  });
  if (!sent) stop(null);
  listCameras(track);
}

/** Fills #camera-device with the cameras (their labels are known once one is open); shown
 *  only when there is a choice. */
async function listCameras(track) {
  const cameras = (await navigator.mediaDevices.enumerateDevices()).filter((device) => device.kind === "videoinput");
  const current = track.getSettings().deviceId;
  picker.replaceChildren(...cameras.map((device, index) => {
    const option = new Option(device.label || `Camera ${index + 1}`, device.deviceId);
    option.selected = device.deviceId === current;
    return option;
  }));
  picker.hidden = cameras.length < 2 || !camera.sharing;
}

async function h264Supported(width, height) {
  if (typeof VideoEncoder !== "function") return false;
  try {
    return (await VideoEncoder.isConfigSupported(encoderConfig(width, height))).supported === true;
  } catch {
    return false;
  }
}

function encoderConfig(width, height) {
  return { codec: BASELINE_CODEC, width, height, bitrate: BITRATE, framerate: 30, latencyMode: "realtime",
           avc: { format: "annexb" } };
}

/** Reads the camera's frames and sends each, until the sharing ends. */
async function pump(shared) {
  render("sharing", "Stop camera");
  if (shared.codec === "h264") {
    shared.encoder = new VideoEncoder({
      output: (chunk) => {
        const bytes = new Uint8Array(chunk.byteLength);
        chunk.copyTo(bytes);
        const capture = shared.captures.get(chunk.timestamp) ?? performance.now();
        shared.captures.delete(chunk.timestamp);
        transmit(shared, bytes, chunk.type === "key", capture);
      },
      error: (error) => camera.sharing === shared && stop(`the encoder failed: ${error.message}`),
    });
    shared.encoder.configure(encoderConfig(shared.width, shared.height));
  }
  shared.reader = new MediaStreamTrackProcessor({ track: shared.track }).readable.getReader();
  while (camera.sharing === shared) {
    const { value: frame, done } = await shared.reader.read();
    if (camera.sharing !== shared) { // stopped, or another camera chosen
      frame?.close();
      return;
    }
    if (done) return stop("the camera stopped");
    await encode(shared, frame, performance.now());
  }
}

async function encode(shared, frame, capture) {
  // Frames of another size than announced (the camera before fitToSession's constraints took
  // hold) would fail the encoder and be refused by the server: skipped.
  if (frame.displayWidth !== shared.width || frame.displayHeight !== shared.height) {
    frame.close();
    return;
  }
  // A slow link or encoder: skip this frame (H.264 restarts at a keyframe) rather than queue it.
  if (sendingBacklog() > BACKLOG_LIMIT || (shared.encoder && shared.encoder.encodeQueueSize > 2)) {
    frame.close();
    shared.keyframeDue = true;
    return;
  }
  if (shared.encoder) {
    const keyFrame = shared.keyframeDue || capture - shared.lastKeyframe >= KEYFRAME_INTERVAL_MS;
    if (keyFrame) {
      shared.keyframeDue = false;
      shared.lastKeyframe = capture;
    }
    shared.captures.set(frame.timestamp, capture);
    shared.encoder.encode(frame, { keyFrame });
    frame.close();
    return;
  }
  const canvas = new OffscreenCanvas(shared.width, shared.height);
  canvas.getContext("2d").drawImage(frame, 0, 0);
  frame.close();
  const blob = await canvas.convertToBlob({ type: "image/jpeg", quality: 0.8 });
  transmit(shared, new Uint8Array(await blob.arrayBuffer()), true, capture);
}

/** One FCI1 message: the header, then the picture captured at `capture` (ms, performance.now()). */
function transmit(shared, bytes, keyframe, capture) {
  if (camera.sharing !== shared) return;
  const message = newMessage(MAGIC.picture, keyframe ? FLAGS.keyframe : 0, shared.sequence++, capture * 1000, bytes.byteLength);
  message.set(bytes, HEADER_LENGTH);
  sendBinary(message.buffer);
}

/** Stops the capture and encoding of `shared` (nothing is told to the server). */
function release(shared) {
  if (!shared) return;
  if (camera.sharing === shared) camera.sharing = null;
  shared.reader?.cancel().catch(() => {});
  shared.track.stop();
  shared.microphone?.stop();
  stopMicrophone(shared.sound);
  if (shared.encoder && shared.encoder.state !== "closed") shared.encoder.close();
}

/** Ends the sharing here; `reason` (null: silently) tells the user why, and the server is told. */
function stop(reason) {
  const shared = camera.sharing;
  if (!shared) return;
  release(shared);
  picker.hidden = true;
  if (reason === "stopped") send({ type: "share", action: "stop" });
  else if (reason) toast(`Camera sharing ended: ${reason}`);
  camera.roundTrips.length = 0;
  player.stats.cameraRoundTripMs = null;
  render("off", "My camera");
}

player.on("keyframeRequest", () => { if (camera.sharing) camera.sharing.keyframeDue = true; });
player.on("shareEnded", ({ reason }) => stop(reason || "the server ended it"));
player.on("disconnected", () => stop("the connection was lost"));

/** A frame drawn here: while this page's camera is the source, its time is our capture time. */
player.on("drawn", (frame) => {
  if (!camera.sharing || player.state?.source?.kind !== "browser") return;
  const roundTrip = performance.now() - frame.pts * 1000;
  if (!(roundTrip >= 0 && roundTrip < 10000)) return; // another sharer's clock
  pushBounded(camera.roundTrips, roundTrip, ROUND_TRIP_WINDOW);
  pushBounded(player.cameraRoundTripHistory, roundTrip, ROUND_TRIP_HISTORY_MAX);
  player.stats.cameraRoundTripMs = Math.round(median(camera.roundTrips));
});

render("off", "My camera");
