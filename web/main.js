// FilterCast viewer page: watches the shared session over WebSocket (protocol v1, see
// docs/PROTOCOL.md) and drives it — filter chain, parameters, play/pause, seek, recording.
//
// ES modules, no build step and nothing from other hosts (the server's Content-Security-Policy
// allows scripts from 'self' only, and no inline scripts or styles). Each module holds one
// concern and imports what it uses; the page's state is one object, the player (player.js), whose
// events tell the modules what the server said; protocol v1's numbers are in wire.js. This one
// wires them up and publishes window.filtercast, the test contract (docs/PROTOCOL.md), from the
// player's fields.
import "./access.js";
import { soundOutput } from "./audio.js";
import "./camera.js";
import "./catalog.js";
import "./chain.js";
import { notes } from "./comments.js";
import "./compare.js";
import "./channels.js";
import { connect } from "./connection.js";
import { formatTime } from "./format.js";
import { receiveFrame } from "./frames.js";
import "./fit.js";
import "./fullscreen.js";
import "./goto.js";
import "./keyboard.js";
import "./labels.js";
import "./library.js";
import "./looks.js";
import { syncSliders } from "./params.js";
import "./picture.js";
import { renderPlayback } from "./playback.js";
import { player } from "./player.js";
import "./record.js";
import { room } from "./room.js";
import "./seek-thumbnails.js";
import "./shuttle.js";
import "./source.js";
import "./sources.js";
import "./studio.js";
import "./transport.js";
import "./upload.js";
import { updateStatus } from "./status.js";
import { PROTOCOL_VERSION } from "./wire.js";

const REFRESH_MS = 250;

window.filtercast = {
  version: PROTOCOL_VERSION,
  stats: player.stats,
  latencyHistory: player.latencyHistory,
  cameraRoundTripHistory: player.cameraRoundTripHistory,
  get state() { return player.state; },
  get filters() { return player.filters.catalog; },
  get channel() { return player.channels.current; },
  formatTime,
  soundOutput, // a test hook: {context, node} that feeds the page's sound output
  room, // {pointers, laserOn, drawnDots}: the review room's pointers (room.js)
  comments: notes, // {comments (by id), source, drawnShapes, editing}: the source's comments (comments.js)
};

setInterval(() => {
  updateStatus();
  // A control stops showing the user's value when a drag ends, a throttled value goes out or
  // a confirmation times out — not only when a state arrives (none does while paused).
  renderPlayback();
  syncSliders();
}, REFRESH_MS);

connect(receiveFrame);
