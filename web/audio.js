// FilterCast page, the sound: the source's Opus packets (FCA1 messages, docs/PROTOCOL.md "Sound")
// decoded with WebCodecs' AudioDecoder and played with Web Audio, each packet scheduled by its time
// against the pictures' clock — the drawn picture's time, running on (at state.speed) from when it
// was drawn while playing — so that sound and picture stay together through pause, seek and source changes.
//
// Muted until the user unmutes (#mute, the key m; remembered for the tab): browsers start sound
// only after a gesture. #volume sets the level. Where AudioDecoder is missing (or the page is not
// a secure context) #mute says "no sound in this browser". window.filtercast.stats.audio is
// {playing, syncMs}: whether sound plays now, and the audio clock — what is heard now: the
// context's output time (getOutputTimestamp, else currentTime less outputLatency and baseLatency)
// mapped to the source's time — minus the drawn picture's time (ms, median of the last 30 drawn
// frames); null fields without sound. Packets are scheduled on that output time, so the output
// latency is made up for.
import { byId, median, pushBounded, store, stored } from "./helpers.js";
import { player } from "./player.js";
import { FLAGS, MAGIC, SOUND_FORMAT } from "./wire.js";

const STORAGE_KEY = "filtercast.sound";
const SYNC_WINDOW = 30;
/// A packet due this close to where the one before ends follows it seamlessly (no click, no gap);
/// further off (a packet that came late, the pictures' clock moved) the sound starts over at its
/// time, so that an error never lasts longer than a packet.
const JOIN_S = 0.015;
/// A packet this late on the pictures' clock still plays (at once): sound decoded a little after
/// its picture was drawn. Later than that the clock is elsewhere (a seek the pictures have not
/// reached yet), and it is dropped.
const LATE_S = 0.2;
/// A picture this near where the sound restarted is the new position's.
const RESTART_NEAR_S = 0.5;
/// At most this much decoded sound (packets: 1 s) waits for the pictures' clock.
const HELD_MAX = 50;
/// How far ahead of the context's clock a packet that plays at once is put.
const LEAD_S = 0.005;
/// Each restart (a seek, a new source, unmuting) fades in over this, and each stop (a pause, a
/// seek, a new source) fades out over it, so that the sound starts and stops without a click.
const FADE_S = 0.01;

const button = byId("mute");
const label = byId("mute-label");
const volume = byId("volume");

const supported = "AudioDecoder" in window && window.isSecureContext;
const sound = player.sound;
const audioStats = player.stats.audio;

/// Whether this page asks the server for sound (`watch {audio: true}`, transport.js): the server
/// offers it and this browser can play it.
export function wantsSound(hello) {
  sound.offered = Boolean(hello && hello.audio);
  render();
  return sound.offered && supported;
}

/// Seconds of the source a second (`state.speed`) while the sound plays (forward only: backward
/// the server sends none).
function rate() {
  const speed = player.state ? player.state.speed : 1;
  return speed > 0 ? speed : 1;
}

/// The pictures' clock now, seconds: while playing, where the drawn pictures say it runs (at the
/// playhead's rate); paused, the drawn picture's time.
function mediaNow() {
  if (sound.lastPts === null || sound.offsets.length === 0) return null;
  const playing = player.state ? player.state.playing : true;
  return playing ? rate() * performance.now() / 1000 + median(sound.offsets) : sound.lastPts;
}

/// A drawn picture's time: the clock goes on from it, or starts over after a jump (a seek, a
/// pause, another source: more than a quarter of a second off). After the sound restarted (at
/// `restartPts`), pictures far from there are the old position's, still on their way: the clock
/// waits for the first one near it, and the sound waits with it (held).
function clockPicture(pts) {
  if (sound.restartPts !== null) {
    if (Math.abs(pts - sound.restartPts) > RESTART_NEAR_S) return;
    sound.restartPts = null;
    sound.offsets.length = 0;
  }
  const offset = pts - rate() * performance.now() / 1000;
  if (sound.offsets.length > 0 && Math.abs(offset - median(sound.offsets)) > 0.25) sound.offsets.length = 0;
  pushBounded(sound.offsets, offset, SYNC_WINDOW);
  sound.lastPts = pts;
}

function makeDecoder() {
  sound.decoder = new AudioDecoder({ output: schedule, error: () => { sound.decoder = null; } });
  sound.decoder.configure(SOUND_FORMAT);
}

/// A binary message that is a sound packet is taken (true); anything else is left to frames.js.
export function receiveSound(buffer, header) {
  if (!header || header.magic !== MAGIC.sound) return false;
  if (!supported || sound.muted || !sound.context) return true;
  if (header.flags & FLAGS.restart) {
    restart();
    sound.restartPts = header.pts;
    sound.offsets.length = 0;
  }
  if (!sound.decoder || sound.decoder.state === "closed") makeDecoder();
  if (sound.base === null) sound.base = { pts: header.pts, rate: rate() };
  sound.decoder.decode(new EncodedAudioChunk({ type: "key", timestamp: Math.round(played(header.pts) * 1e6),
                                         data: new Uint8Array(buffer, header.headerLength) }));
  return true;
}

/// A packet's time (s) as the decoder is given it: at a speed other than 1 the packets' times move
/// faster or slower than their sound, and the decoder stamps its output by counting samples from
/// the first packet after a restart — so it is given the time the sound plays at from there.
function played(pts) {
  return sound.base.pts + (pts - sound.base.pts) / sound.base.rate;
}

/// The source's time of decoded sound the decoder stamped `timestamp` (s): `played` undone.
function sourceTime(timestamp) {
  return sound.base ? sound.base.pts + (timestamp - sound.base.pts) * sound.base.rate : timestamp;
}

/// Decoded sound: played at its time on the pictures' clock, or held until that clock runs
/// (paused, or no picture drawn since play).
function schedule(data) {
  if (sound.muted || !sound.context) return data.close();
  const buffer = sound.context.createBuffer(data.numberOfChannels, data.numberOfFrames, data.sampleRate);
  for (let channel = 0; channel < data.numberOfChannels; channel += 1) {
    data.copyTo(buffer.getChannelData(channel), { planeIndex: channel, format: "f32-planar" });
  }
  pushBounded(sound.held, { buffer, pts: sourceTime(data.timestamp / 1e6) }, HELD_MAX);
  data.close();
  playHeld();
}

/// Plays what is held, in order, once the pictures' clock runs.
function playHeld() {
  const now = mediaNow();
  if (now === null || !sound.context || (player.state && !player.state.playing)) return;
  for (const { buffer, pts } of sound.held) play(buffer, pts, now);
  sound.held = [];
}

/// Plays `buffer` (sound at `pts`) where the pictures' clock, at `now` now, reaches `pts` at the
/// output, following the packet before without a gap while it is near that time; a little late,
/// at once; far off, it is dropped.
function play(buffer, pts, now) {
  let when = heardNow() + (pts - now) / rate();
  const joins = sound.nextStart !== null && Math.abs(when - sound.nextStart) < JOIN_S && sound.nextStart > sound.context.currentTime;
  if (joins) when = sound.nextStart;
  if (when < sound.context.currentTime - LATE_S) return;
  // Off the chain of packets still to play by more than a join: it starts over from this one.
  if (!joins && sound.nextStart !== null && sound.nextStart > sound.context.currentTime) silence();
  when = Math.max(when, sound.context.currentTime + LEAD_S);
  if (!joins) when = fadeIn(when);
  const source = sound.context.createBufferSource();
  source.buffer = buffer;
  source.connect(sound.fader);
  source.start(when);
  sound.nextStart = when + buffer.duration;
  const heard = heardNow(); // what was scheduled is kept until it has been heard (audioNow)
  sound.scheduled = sound.scheduled.filter((item) => item.end > heard);
  sound.scheduled.push({ source, buffer, when, end: sound.nextStart, pts });
}

/// A pause: the sound fades out at once; what was scheduled and not yet heard (the server sends
/// the sound ahead of its pictures) is held for the play that follows, and the pictures' clock
/// waits for the next drawn picture.
function pause() {
  if (sound.context) {
    const heard = heardNow();
    sound.held = sound.scheduled.filter((item) => item.when > heard).map(({ buffer, pts }) => ({ buffer, pts })).concat(sound.held);
  }
  sound.offsets.length = 0;
  silence();
}

/// Fades a chain in from `when`, or from where the last fade-out ends if later; returns where it
/// starts. A fade-out that ends there is kept: cancelling from its end would drop it, and the old
/// sound would stop at full level (a click, at every seek).
function fadeIn(when) {
  const start = Math.max(when, sound.quietUntil);
  sound.fader.gain.cancelScheduledValues(start > sound.quietUntil ? start : start + 1e-6);
  sound.fader.gain.setValueAtTime(0, start);
  sound.fader.gain.linearRampToValueAtTime(1, start + FADE_S);
  return start;
}

/// Fades out and stops what is scheduled: the next packet starts a new chain.
function silence() {
  if (sound.context && sound.scheduled.length > 0) {
    const now = sound.context.currentTime;
    sound.quietUntil = now + FADE_S;
    sound.fader.gain.cancelScheduledValues(now);
    sound.fader.gain.setValueAtTime(sound.fader.gain.value, now);
    sound.fader.gain.linearRampToValueAtTime(0, sound.quietUntil);
    for (const item of sound.scheduled) {
      try { item.source.stop(sound.quietUntil); } catch { /* already ended */ }
    }
  }
  sound.scheduled = [];
  sound.nextStart = null;
}

/// The context time heard now: what leaves the output (its timestamp, run on to now), else the
/// rendering time less the latencies the context reports.
function heardNow() {
  const stamp = sound.context.getOutputTimestamp ? sound.context.getOutputTimestamp() : null;
  if (stamp && stamp.contextTime > 0) {
    return stamp.contextTime + (performance.now() - stamp.performanceTime) / 1000;
  }
  return sound.context.currentTime - (sound.context.outputLatency || 0) - (sound.context.baseLatency || 0);
}

/// Drops what is scheduled and what the decoder holds: the sound starts over at the next packet.
function restart() {
  silence();
  sound.held = [];
  sound.base = null;
  if (sound.decoder && sound.decoder.state === "configured") sound.decoder.reset();
  if (sound.decoder && sound.decoder.state !== "closed") sound.decoder.configure(SOUND_FORMAT);
}

/// The sound heard now: the time of the scheduled packet playing, or null.
function audioNow() {
  if (!sound.context) return null;
  const heard = heardNow();
  const item = sound.scheduled.find((candidate) => candidate.when <= heard && heard < candidate.end);
  return item ? item.pts + (heard - item.when) * rate() : null;
}

function setMuted(value) {
  sound.muted = value;
  store(STORAGE_KEY, sound.muted ? "off" : "on");
  if (!sound.muted && !sound.context) {
    sound.context = new AudioContext({ sampleRate: SOUND_FORMAT.sampleRate });
    sound.fader = sound.context.createGain();
    sound.gain = sound.context.createGain();
    sound.gain.gain.value = Number(volume.value);
    sound.fader.connect(sound.gain);
    sound.gain.connect(sound.context.destination);
  }
  if (sound.context && !sound.muted) sound.context.resume();
  restart();
  render();
}

/// A test hook (window.filtercast.soundOutput): the AudioContext and the node that feeds its
/// destination — what the page outputs — or null before the first unmute.
export function soundOutput() {
  return sound.context ? { context: sound.context, node: sound.gain } : null;
}

/// Whether the source playing has sound (`state.source.audio`; before any state: yes).
function sourceHasSound() {
  return !player.state || Boolean(player.state.source && player.state.source.audio);
}

/// Whether #mute can do anything now: this browser plays sound, the server offers it, and the
/// source has some.
function audible() {
  return supported && sound.offered && sourceHasSound();
}

/// Toggles the sound (the key m, #mute); nothing on a source without sound (the button says so).
export function toggleMute() {
  if (audible()) setMuted(!sound.muted);
}

function render() {
  button.disabled = !audible();
  button.setAttribute("aria-pressed", String(!sound.muted && audible()));
  label.textContent = !supported ? "no sound in this browser" : !sound.offered ? "no sound"
    : !sourceHasSound() ? "no sound in this source" : sound.muted ? "Unmute" : "Mute";
  button.setAttribute("aria-label", audible() ? (sound.muted ? "Unmute" : "Mute") : label.textContent);
  volume.disabled = button.disabled || sound.muted;
}

player.on("drawn", (frame) => {
  clockPicture(frame.pts);
  if (sound.held.length > 0) playHeld();
  const heard = audioNow();
  audioStats.playing = sound.offered && supported ? heard !== null : null;
  if (heard === null) return;
  pushBounded(sound.recentSync, (heard - frame.pts) * 1000, SYNC_WINDOW);
  audioStats.syncMs = median(sound.recentSync);
});

player.on("state", ({ state, previous }) => {
  if (!state.source.audio) audioStats.syncMs = null;
  if (Boolean(state.source.audio) !== Boolean(previous && previous.source.audio)) render();
  if (previous && previous.playing && !state.playing) pause(); // silence at once
});

player.on("disconnected", () => {
  restart();
  audioStats.playing = null;
});

button.addEventListener("click", toggleMute);
volume.addEventListener("input", () => {
  if (sound.gain) sound.gain.gain.setValueAtTime(Number(volume.value), sound.context.currentTime);
});
// A tab that had the sound on asks again at its first gesture (an AudioContext needs one).
if (stored(STORAGE_KEY) === "on") {
  document.addEventListener("pointerdown", () => { if (sound.muted && audible()) setMuted(false); }, { once: true });
}
render();
