// FilterCast embed page (/embed?channel=NAME, embed.html): a channel's picture and sound alone —
// no controls, filling its frame — for an OBS browser source or a kiosk. The viewer page's own
// modules receive, decode and draw it (connection, transport, frames, picture, h264, audio), so
// the two never differ; the sound plays at once where the browser allows it (OBS), else it waits
// muted for a tap on #mute ("Unmute").
// window.filtercast gives the same stats as the viewer page (docs/PROTOCOL.md), for tests.
import { toggleMute } from "./audio.js";
import { connect } from "./connection.js";
import { receiveFrame } from "./frames.js";
import { byId } from "./helpers.js";
import { measureDeliveredRate } from "./picture.js";
import { player } from "./player.js";
import "./transport.js";

const REFRESH_MS = 250;
/// How long an AudioContext may take to start running where sound needs no gesture.
const AUTOPLAY_PROBE_MS = 2000;

window.filtercast = {
  stats: player.stats,
  get state() { return player.state; },
  get channel() { return player.channels.current; },
};

// The channel watched (channels.js keeps it on the viewer page).
player.on("hello", (hello) => { player.channels.current = typeof hello.channel === "string" ? hello.channel : null; });
// Where the browser lets sound play without a gesture (OBS's browser source does), it plays at
// once: an AudioContext made now goes "running" there within moments, and stays "suspended" in a
// browser that waits for a gesture (then "Unmute" stays for the tap). Asked once, at the first
// state with sound.
// The sound is turned on once, when #mute can (the server's offer is known a moment after hello).
const autoplay = { asked: false, allowed: false, done: false };
player.on("state", ({ state }) => {
  if (!state.source?.audio || !player.sound.muted) return;
  if (!autoplay.asked) askAutoplay();
  unmuteOnce();
});

function askAutoplay() {
  autoplay.asked = true;
  const probe = new AudioContext();
  const done = () => {
    clearTimeout(timer);
    probe.onstatechange = null;
    probe.close();
  };
  const timer = setTimeout(done, AUTOPLAY_PROBE_MS);
  const check = () => {
    if (probe.state !== "running") return;
    done();
    autoplay.allowed = true;
    unmuteOnce();
  };
  probe.onstatechange = check;
  check();
}

// #mute is enabled by audio.js once the offer is known: a paused source sends no further state.
new MutationObserver(() => unmuteOnce()).observe(byId("mute"), { attributes: true, attributeFilter: ["disabled"] });

function unmuteOnce() {
  if (!autoplay.allowed || autoplay.done || byId("mute").disabled) return;
  autoplay.done = true;
  if (player.sound.muted) toggleMute();
}
setInterval(measureDeliveredRate, REFRESH_MS);
connect(receiveFrame);
