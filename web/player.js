// FilterCast page, the player: every piece of state the page's modules keep, in one object whose
// fields are documented where they are declared, and the events by which the modules hear what
// the server said. A module keeps no state of its own — only its constants and its elements —
// and reads and writes its part of `player` (player.sound is audio.js's, player.camera
// camera.js's, …). window.filtercast, the test contract, is made of its fields (main.js).
import { SEND_INTERVAL_MS, Throttle } from "./throttle.js";

/// The WebSocket and the commands waiting for an answer (connection.js).
class ConnectionPart {
  /// The connection in use, opening or open; null between connections and after a refusal.
  socket = null;
  /// Gets every binary message of `socket` as `(buffer, ws)` (connect()'s receiver).
  receiveFrame = () => {};
  /// Reconnections tried since the last `hello` (0 for the first connection): the backoff's exponent.
  reconnectAttempt = 0;
  /// The timeout that opens the next connection (a setTimeout id).
  reconnectTimer = 0;
  /// The interval that counts "Reconnecting in N s…" down (a setInterval id).
  countdownTimer = 0;
  /// The id the next command that wants an answer gets.
  nextCommandId = 1;
  /// Command id → `done(ok)`, for every command waiting for its ack or error.
  inFlight = new Map();
}

/// JPEG frames being decoded (frames.js).
class FramesPart {
  /// A JPEG is being decoded: the frames arriving meanwhile wait (only the newest).
  decoding = false;
  /// The newest frame that arrived while another was decoding or the tab was hidden; null for none.
  pendingFrame = null;
}

/// The H.264 decoder (h264.js) and the transport chosen (transport.js).
class VideoPart {
  /// WebCodecs' VideoDecoder; null until a keyframe configures one, and after a reset.
  decoder = null;
  /// The codec and size the decoder is configured for ("avc1.42e01f 1280x720"), "" for none.
  configuration = "";
  /// Units are skipped (and acknowledged) until a keyframe: after a reset, or a fall behind.
  waitingForKeyframe = true;
  /// Sequence number → the header of a unit in the decoder, for drawing its picture.
  headers = new Map();
  /// The decoder failed once: the page takes JPEG for the rest of its life.
  fellBack = false;
}

/// The recent pictures drawn and frame messages received (picture.js).
class PicturePart {
  /// The latencies (ms) of the last drawn frames, for stats.latencyMs.
  recentLatencies = [];
  /// performance.now() of each distinct picture drawn in the last second, for stats.fps.
  drawTimes = [];
  /// The presentation time of the last frame drawn: a frame with the same one and no restart
  /// flag is the same picture again (an H.264 refinement of a still).
  lastPts = null;
  /// [performance.now(), bytes] of each frame message received in the last second, for stats.bitsPerSecond.
  receipts = [];
}

/// The sound: decoding, scheduling on the pictures' clock, the output (audio.js).
class SoundPart {
  /// The sound is off: so a page starts, whatever the tab remembers (sound starts only after a gesture).
  muted = true;
  /// The server sends sound (`hello.audio`).
  offered = false;
  /// The AudioContext, made at the first unmute (a gesture); null before.
  context = null;
  /// The gain node of the fades in and out → `gain`.
  fader = null;
  /// The gain node of the volume → the context's destination.
  gain = null;
  /// The context time when the last fade-out ends: a new chain of packets starts after it.
  quietUntil = 0;
  /// WebCodecs' AudioDecoder; null before the first packet and after it failed.
  decoder = null;
  /// [{source, buffer, when, end, pts}] the packets scheduled and not yet heard, in start order.
  scheduled = [];
  /// [{buffer, pts}] decoded sound waiting for the pictures' clock to run, in order.
  held = [];
  /// The first packet's time (s) since the last restart, and the speed then: the decoder's
  /// timestamps count the sound played from it (audio.js `played`); null before one.
  base = null;
  /// The context time where the last scheduled packet ends, for seamless joins; null for none.
  nextStart = null;
  /// The last drawn picture's time (s); null before the first.
  lastPts = null;
  /// Where the sound restarted (s), until a picture near it is drawn; null otherwise.
  restartPts = null;
  /// The pictures' clock: each recent drawn picture's time less when it was drawn (s); their
  /// median is the clock's offset from performance.now(), however late one picture is drawn.
  offsets = [];
  /// The audio clock minus the drawn picture's time (ms) of the last drawn frames, for stats.audio.syncMs.
  recentSync = [];
}

/// This page's camera shared as the source (camera.js, microphone.js).
class CameraPart {
  /// "off", "starting" or "sharing" (#camera-share's data-state).
  state = "off";
  /// The sharing under way (camera.js's Sharing: the track, its encoder, …); null when none.
  sharing = null;
  /// The camera round trips (ms) of the last drawn frames, for stats.cameraRoundTripMs.
  roundTrips = [];
}

/// What this page may do (access.js).
class AccessPart {
  /// `hello.access` of this connection, or "control" once a token was accepted: "admin", "control",
  /// "watch" or "none" (an admin controls as a controller does, access.js's mayControl).
  level = "control";
  /// An `auth` waits for its answer: an `unauthorized` error meanwhile is that answer's.
  authPending = false;
}

/// The filters: the catalog (catalog.js), the picker (filters.js), the chain (chain.js) and
/// the parameters' sliders (params.js).
class FiltersPart {
  /// `hello.filters` in picker order, "none" first (window.filtercast.filters).
  catalog = [];
  /// `hello.categories`: a heading per category; null for a server that sends none.
  categoryTitles = null;
  /// `hello.maxChainLength`; null for a server that sends none.
  maxChainLength = null;
  /// `hello.regions` (where a link may apply: "all", "person", "background"); null for a server
  /// without the person matte, whose chips then have no region picker.
  regions = null;
  /// The links ("name@region|…") the chips and sliders were built for; null before any.
  shownChain = null;
  /// The link the picker edits (clamped to the chain where it is used).
  selectedLink = 0;
  /// The picker's box of category groups; null before the first catalog.
  scroller = null;
  /// The filter whose button was last pressed in the picker, scrolled into sight.
  shownPick = null;
  /// "link:parameter" → {value, since}: what the user set on a slider and no state showed yet.
  paramIntents = new Map();
  /// One throttle of `setParams` per link of the chain.
  paramThrottles = [];
}

/// The playback controls (playback.js).
class PlaybackPart {
  /// The last seek sent, {position, since}, until a state shows it (or it times out); null for none.
  seekIntent = null;
  /// The pointer holds the seek slider.
  scrubbing = false;
  /// The pace of `seek` while the slider is dragged.
  seekThrottle = new Throttle(SEND_INTERVAL_MS);
  /// The slider's last `input` value: its `change` repeats it when let go.
  seekInput = null;
}

/// The Sources panel (sources.js), its recordings (library.js) and the uploads (upload.js).
class SourcesPart {
  /// What plays, as the panel marks it: a reference ("input", "media/PATH", …), "camera" for this page's camera.
  playing = null;
  /// The start input's name, from the last state that played it; "" before.
  inputName = "";
  /// The server has a media folder to list (`hello.mediaFolder`).
  mediaOffered = false;
  /// The folder of the media folder shown, "" for its top.
  mediaFolder = "";
  /// The server takes uploads (`hello.uploads`), so it lists them.
  uploadsOffered = false;
  /// The recordings as last listed (GET /api/recordings).
  recordings = [];
  /// `{maxBytes}` when the server takes uploads (`hello.uploads`); null when it takes none.
  uploadOffer = null;
  /// An upload is going up (one at a time).
  uploading = false;
}

/// The Channels panel (channels.js).
class ChannelsPart {
  /// `hello.channel`: the channel this page is on (window.filtercast.channel); null before the
  /// first hello and for a server without channels.
  current = null;
  /// The channels as last listed (GET /api/channels), the default one first.
  list = [];
  /// This page's channel that the server removed, until the page says so on the channel it moved
  /// to; null otherwise.
  removed = null;
}

/// Studio mode (studio.js): the preview chain, edited apart from the program and taken on air.
class StudioPart {
  /// The Studio mode toggle (#studio) is on: the chain's controls edit the preview, shown large.
  on = false;
  /// The preview rendition the server's hello offers (the full-size one), "" for none.
  offered = "";
  /// The preview picture's own connection while on (second.js's SecondConnection); null otherwise.
  second = null;
  /// The presentation time (s) of the preview picture drawn last; null before the first.
  lastPts = null;
}

/// The compare view (compare.js): "before" against "after", composited by the page.
class ComparePart {
  /// The toggle (#compare) is on.
  on = false;
  /// "wipe" or "side-by-side" (#compare-mode).
  mode = "wipe";
  /// The divider, 0…1 of the picture's width from the left (#compare-split).
  split = 0.5;
  /// The source's renditions the server's hello offers ([{id, height, …}], largest first).
  offered = [];
  /// The source picture's own connection while on outside studio mode (second.js); null otherwise.
  second = null;
  /// Each side's held pictures by presentation time (µs) → a canvas with a copy, oldest first.
  held = { before: new Map(), after: new Map() };
  /// The pair drawn last, {before, after, key}: what a divider move redraws; null before.
  shown = null;
  /// Canvases to reuse for held pictures.
  spare = [];
  /// The pointer drags the divider on the picture.
  dragging = false;
  /// The `state.compare` last followed (JSON): only a change is followed.
  followed = "";
  /// performance.now() of each pair drawn in the last second, for stats.compare.fps.
  pairTimes = [];
  /// The pace of `setCompare` while a controller drags what it shows to all.
  throttle = new Throttle(SEND_INTERVAL_MS);
}

/// The player: one per page.
class Player {
  /// The last `state` the server sent (parsed JSON, window.filtercast.state); null until the first of a connection.
  state = null;
  /// Event name → its listeners, in the order they subscribed (see on()).
  listeners = new Map();
  /// window.filtercast.stats, updated in place (docs/PROTOCOL.md, "Browser page testability contract").
  stats = {
    /// From `hello` until the WebSocket closes.
    connected: false,
    /// Frames drawn since the page loaded (across reconnections).
    framesDrawn: 0,
    /// Frames drawn during the last second.
    fps: 0,
    /// While the chain has a `style` link: how many times a second its network refreshes the
    /// style (`state.styleRefreshHz`); null otherwise.
    styleRefreshHz: null,
    /// The median latency (drawn − sent, ms) of the last 30 drawn frames; null before the first.
    latencyMs: null,
    /// The last drawn frame's sequence number and time (s); null before the first.
    lastSeq: null,
    lastPts: null,
    /// The last drawn frame's size; 0 before the first.
    width: 0,
    height: 0,
    /// What the frames arrive as: "jpeg" or "h264".
    transport: "jpeg",
    /// Frame bytes received during the last second, × 8.
    bitsPerSecond: 0,
    /// While this page's camera is the source: the median of capture → filtered frame drawn (ms); null otherwise.
    cameraRoundTripMs: null,
    /// {playing, syncMs}: whether sound plays now, and the audio clock minus the drawn picture's
    /// time (ms); null fields without sound.
    audio: { playing: null, syncMs: null },
    /// Studio mode: {on, rendition, previewFrames} — the toggle, the preview rendition watched
    /// ("" when none) and the preview pictures drawn since the page loaded.
    studio: { on: false, rendition: "", previewFrames: 0 },
    /// The compare view: {on, mode, split} (the view shown), pairsDrawn and fps (pairs of pictures
    /// drawn, since the page loaded and in the last second), lastPair ({before, after}: their
    /// presentation times, µs; null before the first), before (the source rendition watched, ""
    /// when none), redrawMs (the last divider move's input-to-drawn time; null before one) and
    /// pictures ({before, after}: each side's pictures received while on, paired or not).
    compare: { on: false, mode: "wipe", split: 0.5, pairsDrawn: 0, fps: 0, lastPair: null, before: "", redrawMs: null,
               pictures: { before: 0, after: 0 } },
  };
  /// window.filtercast.latencyHistory: the latency (ms) of every drawn frame, oldest first.
  latencyHistory = [];
  /// window.filtercast.cameraRoundTripHistory: every camera round trip measured (ms), oldest first.
  cameraRoundTripHistory = [];

  /// The WebSocket and the commands waiting for an answer.
  connection = new ConnectionPart();
  /// JPEG frames being decoded.
  frames = new FramesPart();
  /// The H.264 decoder and the fall-back to JPEG.
  video = new VideoPart();
  /// The recent pictures drawn and frame messages received.
  picture = new PicturePart();
  /// The sound.
  sound = new SoundPart();
  /// This page's camera shared as the source.
  camera = new CameraPart();
  /// What this page may do.
  access = new AccessPart();
  /// The catalog, the picker, the chain and the sliders.
  filters = new FiltersPart();
  /// The playback controls.
  playback = new PlaybackPart();
  /// The Sources panel, the recordings and the uploads.
  sources = new SourcesPart();
  /// The server's channels and this page's.
  channels = new ChannelsPart();
  /// Studio mode.
  studio = new StudioPart();
  /// The compare view.
  compare = new ComparePart();
  /// The toast's hiding timeout (a setTimeout id).
  toastTimer = 0;
  /// `hello.errors`: a name per error code ({} for a server that sends none: the code is shown).
  errorNames = {};

  /// Calls `listener(detail)` on every `event`:
  /// - "hello": the `hello` message of a new connection (before its state);
  /// - "catalog": the `catalog` message (the filters changed while connected: a LUT was added);
  /// - "renditions": the `renditions` message (another size of source plays: the same renditions
  ///   at their new sizes);
  /// - "state": `{state, previous}` for every state (`previous` is null for a connection's first);
  /// - "error": the `error` message;
  /// - "disconnected": the WebSocket closed (the page reconnects by itself); `{code, reason}` when
  ///   the socket said why (a removed channel's 1001 "channel NAME was removed": channels.js);
  /// - "authorized": the token typed into the page was accepted (access.js);
  /// - "access": what this page may do changed (access.js: "admin", "control", "watch" or "none");
  /// - "camera": this page's camera sharing started, stopped or is starting (camera.js: its state);
  /// - "picture": `{image, frame}`, the program's picture about to be drawn (picture.js; the image
  ///   is closed after the listeners return), and "previewDrawn", the preview's (studio.js);
  /// - "studio": studio mode went on or off (studio.js); "compare": the compare view did (compare.js);
  /// - "drawn": a frame ({seq, pts, …}) was drawn on the canvas (picture.js);
  /// - "decoderFailed": the H.264 decoder failed (h264.js: why);
  /// - "keyframeRequest", "shareEnded": to the page sharing its camera (camera.js);
  /// - "comments": the `comments` message (the source's list, or one changed or deleted: comments.js).
  /// Listeners run in the order they subscribed. A module subscribes when it is first evaluated, and
  /// ES modules evaluate the modules they import first, so a module hears an event after those.
  on(event, listener) {
    if (!this.listeners.has(event)) this.listeners.set(event, []);
    this.listeners.get(event).push(listener);
  }

  /// Tells every listener of `event`.
  emit(event, detail) {
    for (const listener of this.listeners.get(event) || []) listener(detail);
  }

  /// The chain the page's controls edit, [{name, params}] in the order the filters apply; [] for
  /// no filter: in studio mode the preview's (once the server has one), else the program's. A
  /// server without chains has its single filter.
  currentChain() {
    const state = this.state;
    if (!state) return [];
    if (this.studio.on && Array.isArray(state.preview)) return state.preview;
    if (Array.isArray(state.chain)) return state.chain;
    return state.filter && state.filter.name !== "none" ? [state.filter] : [];
  }

  /// The fields a filter command takes to change the chain currentChain() shows: `to` in studio mode.
  chainTarget() {
    return this.studio.on ? { to: "preview" } : {};
  }
}

/// The page's player.
export const player = new Player();
