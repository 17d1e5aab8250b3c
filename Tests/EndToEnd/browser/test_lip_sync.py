"""Lip sync measured at the page's output (issue 16): a clip whose picture flashes white and whose
sound beeps at the same instants (every second, made by the ffmpeg CLI) plays in headless
Chromium; an AudioWorklet tapped onto the node that feeds the page's audio destination
(`window.filtercast.soundOutput()`, a test hook) reports when each beep is heard (its context time
mapped to `performance.now()` through `getOutputTimestamp`), and a wrapper of the canvas'
`drawImage` when each flash is drawn. Beeps are heard within ±45 ms of their flashes (nine in
ten, and the median) over 8 + 30 s of playing (and 6 s of a 5.1 AC3 MKV, of a mono 44.1 kHz MP3
AVI and of an MP4 whose sound starts 1.5 s after its pictures), after three seeks and after a pause on JPEG and on H.264, after a filter change, a switch to
another file and a reconnect to a restarted server, and at twice the speed (issue 39: the sound sped up
by atempo, its pitch kept; at 4× it is silent and the page says why);
`stats.audio.syncMs` agrees with what was measured (within 15 ms); a pause silences the output
within 100 ms."""

from __future__ import annotations

import math
import shutil
import statistics
import subprocess
import time

import pytest
from selenium.webdriver.common.keys import Keys

from browser_support import press

pytestmark = pytest.mark.solo  # beeps against flashes within 45 ms: run alone

TOLERANCE_MS = 45
SECONDS = 40

# Beeps: a 1 kHz tone at 0.7 for the first 0.1 s of every second over a quiet 300 Hz tone at 0.1
# (so that a pause is heard as silence); the worklet reports a beep's first sample above 0.4
# after half a second without one, and every change between sound and silence (a render
# quantum's peak below 0.02).
TAP = r"""
const done = arguments[arguments.length - 1];
const output = window.filtercast.soundOutput();
if (!output) return done("no sound output");
const { context, node } = output;
const code = `class Tap extends AudioWorkletProcessor {
  constructor() { super(); this.lastLoud = -1; this.silent = null; }
  process(inputs) {
    const samples = inputs[0] && inputs[0][0];
    let peak = 0;
    if (samples) {
      for (let i = 0; i < samples.length; i += 1) {
        const value = Math.abs(samples[i]);
        if (value > peak) peak = value;
        if (value > 0.4) {
          const at = currentTime + i / sampleRate;
          if (at - this.lastLoud > 0.5) this.port.postMessage({ onset: at });
          this.lastLoud = at;
        }
      }
    }
    const silent = peak < 0.02;
    if (silent !== this.silent) { this.silent = silent; this.port.postMessage({ silent, at: currentTime }); }
    return true;
  }
}
registerProcessor("fc-tap", Tap);`;
const url = URL.createObjectURL(new Blob([code], { type: "application/javascript" }));
const tap = window.__tap = { onsets: [], changes: [], flashes: [] };
const heard = (at) => {
  const stamp = context.getOutputTimestamp();
  return stamp.performanceTime + (at - stamp.contextTime) * 1000;
};
context.audioWorklet.addModule(url).then(() => {
  const worklet = new AudioWorkletNode(context, "fc-tap");
  const sink = context.createGain();
  sink.gain.value = 0;
  worklet.connect(sink);
  sink.connect(context.destination);
  node.connect(worklet);
  worklet.port.onmessage = ({ data }) => {
    if ("onset" in data) tap.onsets.push(heard(data.onset));
    else tap.changes.push({ silent: data.silent, at: heard(data.at) });
  };
  const draw = CanvasRenderingContext2D.prototype.drawImage;
  let bright = false;
  CanvasRenderingContext2D.prototype.drawImage = function (...args) {
    const result = draw.apply(this, args);
    if (this.canvas.id === "view") {
      const pixel = this.getImageData(this.canvas.width >> 1, this.canvas.height >> 1, 1, 1).data;
      if (pixel[0] > 128 && !bright) tap.flashes.push(performance.now());
      bright = pixel[0] > 128;
    }
    return result;
  };
  const stamp = context.getOutputTimestamp();
  done({ outputLatency: context.outputLatency, baseLatency: context.baseLatency,
         outputBehindMs: (context.currentTime - stamp.contextTime) * 1000 - (performance.now() - stamp.performanceTime) });
}, (error) => done(String(error)));
"""


def make_beep_clip(path, audio: list[str], seconds: float = SECONDS):
    """The flashes and beeps as `path`, the sound encoded with `audio`'s options."""
    flash = "color=c=black:s=320x240:r=30,drawbox=x=0:y=0:w=iw:h=ih:color=white:t=fill:enable='lt(mod(t,1),0.1)'"
    beep = "aevalsrc='0.1*sin(2*PI*300*t)+if(lt(mod(t,1),0.1),0.7*sin(2*PI*1000*t),0)':s=48000"
    subprocess.run([shutil.which("ffmpeg"), "-hide_banner", "-loglevel", "error", "-y",
                    "-f", "lavfi", "-i", flash, "-f", "lavfi", "-i", beep, "-t", str(seconds),
                    "-c:v", "libx264", "-preset", "veryfast", "-bf", "0", "-g", "30", "-pix_fmt", "yuv420p",
                    *audio, str(path)], check=True, timeout=60)
    return path


@pytest.fixture(scope="module")
def beep_clip(tmp_path_factory):
    return make_beep_clip(tmp_path_factory.mktemp("lip-sync") / "flash-beep.mp4", ["-c:a", "aac", "-ac", "2"])


def tap(page) -> dict:
    return page.js("return JSON.parse(JSON.stringify(window.__tap))")


def pairs(flashes: list[float], onsets: list[float], since: float) -> list[float]:
    """For each flash drawn after `since` (performance.now() ms), the nearest beep heard less it
    (ms); infinite for a flash with no beep within 0.5 s."""
    result = []
    for flash in (f for f in flashes if f > since):
        nearest = min(onsets, key=lambda onset: abs(onset - flash), default=None)
        result.append(nearest - flash if nearest is not None and abs(nearest - flash) < 500 else float("inf"))
    return result


def shown(differences: list[float]) -> list:
    """Differences rounded to the ms for a message (None: a flash without its beep)."""
    return [round(d) if math.isfinite(d) else None for d in differences]


def assert_in_sync(differences: list[float], what: str):
    """Every beep within ±45 ms of its flash but one in ten (at least one may miss), and their
    median: on this shared machine (2 cores, a load of 10+) a picture is now and then drawn
    100 ms late, and the sound, which does not wait for it, is then early by as much."""
    within = [d for d in differences if abs(d) <= TOLERANCE_MS]
    assert len(within) >= len(differences) - max(1, len(differences) // 10) and abs(statistics.median(differences)) <= TOLERANCE_MS, \
        f"{what}: beep heard minus flash drawn (ms): {shown(differences)}"


def now_ms(page) -> float:
    return page.js("return performance.now()")


def start_tap(launch, open_page, clip, transport, *args, tap_script: str = TAP):
    """The page on a server playing `clip` (with `args`), unmuted, with `tap_script` running; returns the page."""
    server = launch("--input", str(clip), *args)
    page = open_page(server, wait=False, transport=transport)
    # The tap's worklet module is a blob: URL, which the server's CSP (script-src 'self') refuses.
    page.driver.execute_cdp_cmd("Page.setBypassCSP", {"enabled": True})
    page.driver.get(server.url + (f"?transport={transport}" if transport else ""))
    page.wait_for(lambda: (s := page.stats()) and s["framesDrawn"] > 0, 15, "the page to draw a frame")
    page.find("#mute").click()
    page.wait_for(lambda: page.js("return window.filtercast.stats.audio.playing"), 5, "the sound to play")
    latencies = page.driver.execute_async_script(tap_script)
    assert isinstance(latencies, dict), f"the tap did not start: {latencies}"
    print(f"AudioContext latencies (s): {latencies}")
    time.sleep(1.5)  # the start: the pictures' clock settles over its first 30 frames
    return page


@pytest.fixture
def tapped(launch, open_page, beep_clip):
    pages = []
    yield lambda transport=None, *args: pages.append(start_tap(launch, open_page, beep_clip, transport, *args)) or pages[-1]
    for page in pages:
        page.driver.execute_cdp_cmd("Page.setBypassCSP", {"enabled": False})


# H.264, the transport a page takes, in make test; JPEG's pictures reach the same sound clock: bench-serve's.
@pytest.mark.parametrize("transport", [pytest.param("jpeg", marks=pytest.mark.bench), "h264"])
def test_sync_ms_is_what_is_heard_and_pause_silences_the_output(tapped, transport):
    page = tapped(transport)
    start = now_ms(page)
    reported = []
    for _ in range(16):  # 8 s
        time.sleep(0.5)
        reported.append(page.js("return window.filtercast.stats.audio.syncMs"))
    measured = pairs(tap(page)["flashes"], tap(page)["onsets"], start)
    print(f"beep heard minus flash drawn (ms): {shown(measured)}; syncMs {reported}")
    assert len(measured) >= 6, f"{len(measured)} flashes drawn in 8 s"
    # syncMs (what is heard minus the drawn picture's time) is the measured lag with its sign turned.
    syncs = [s for s in reported[2:] if s is not None]
    assert len(syncs) >= 12, f"stats.audio.syncMs was null: {reported}"
    assert abs(statistics.median(syncs) + statistics.median(measured)) <= 15, \
        f"syncMs {statistics.median(syncs):.1f} ms against {statistics.median(measured):.1f} ms measured"

    page.wait_for(lambda: not tap(page)["changes"][-1]["silent"], 2, "the output to sound")
    paused_at = page.js("const at = performance.now(); document.getElementById('play-pause').click(); return at;")
    time.sleep(0.6)
    changes = tap(page)["changes"]
    before = [c for c in changes if c["at"] <= paused_at]
    assert before and not before[-1]["silent"], f"the output was silent before the pause: {changes[-5:]}"
    quiet = next((c["at"] for c in changes if c["at"] > paused_at and c["silent"]), None)
    assert quiet is not None and quiet - paused_at <= 100, f"the output went quiet {quiet and quiet - paused_at} ms after pause"
    assert tap(page)["changes"][-1]["silent"], "sound after the pause"
    print(f"pause silenced the output in {quiet - paused_at:.0f} ms")

    since = now_ms(page)
    page.find("#play-pause").click()
    time.sleep(3.5)
    resumed = pairs(tap(page)["flashes"], tap(page)["onsets"], since)
    assert len(resumed) >= 2, f"{len(resumed)} beeps with their flashes in the 3.5 s after play"
    print(f"after play (ms): {shown(resumed)}")
    assert_in_sync(resumed, "after play")
    assert abs(statistics.median(resumed) - statistics.median(measured)) <= 25, \
        f"after play, beep minus flash (ms) {resumed} against {statistics.median(measured):.0f} before the pause"


def test_every_beep_is_heard_within_45_ms_of_its_flash_playing_and_after_seeks(tapped):
    page = tapped()
    start = now_ms(page)
    time.sleep(12)
    playing = pairs(tap(page)["flashes"], tap(page)["onsets"], start)
    print(f"beep heard minus flash drawn (ms), playing: {shown(playing)}")
    assert len(playing) >= 10, f"{len(playing)} flashes drawn in 12 s"
    seeks = []
    for _ in range(3):  # back 5 s each time: into beeps already heard
        since = now_ms(page)
        press(page, Keys.ARROW_LEFT)
        time.sleep(3.0)
        after = pairs(tap(page)["flashes"], tap(page)["onsets"], since)
        assert len(after) >= 2, f"{len(after)} flashes drawn in the 3 s after a seek"
        seeks.append(after)
    print(f"after seeks (ms): {[shown(after) for after in seeks]}")
    assert_in_sync(playing, "playing")
    # From the second flash after each seek: the first is not a fair measure — a seek that lands
    # inside a flash draws it while the restart has cut its beep short, and the tap counts a beep
    # only after 0.5 s of quiet (session 9 traced a "165 ms early" first beep to that; sessions 8
    # and 9 saw others of 66, −106, −300…−487 ms whose pictures' clock was steady — see
    # docs/PERFORMANCE.md "From the architecture map").
    assert_in_sync([d for after in seeks for d in after[1:]], "after seeks")


@pytest.mark.parametrize("name, audio", [pytest.param("ac3-5.1-48k.mkv", ["-c:a", "ac3", "-ac", "6"], marks=pytest.mark.bench),
                                         pytest.param("mp3-mono-44k.avi", ["-c:a", "libmp3lame", "-ac", "1", "-ar", "44100"],
                                                      marks=pytest.mark.bench),
                                         # The sound starts 1.5 s after the pictures (an edit list).
                                         pytest.param("late-sound.mp4", ["-af", "atrim=start=1.5", "-c:a", "aac", "-ac", "2"],
                                                      marks=pytest.mark.bench)])
def test_every_beep_is_heard_in_sync_whatever_the_files_sound(launch, open_page, tmp_path, name, audio):
    # The page hears Opus whatever the file has (the server transcodes), but each container
    # interleaves its sound its own way and each decoder has its own delay.
    page = start_tap(launch, open_page, make_beep_clip(tmp_path / name, audio, seconds=12), None)
    try:
        start = now_ms(page)
        time.sleep(6)
        playing = pairs(tap(page)["flashes"], tap(page)["onsets"], start)
        print(f"{name}: beep heard minus flash drawn (ms): {shown(playing)}")
        assert len(playing) >= 4, f"{len(playing)} flashes drawn in 6 s"
        assert_in_sync(playing, name)
    finally:
        page.driver.execute_cdp_cmd("Page.setBypassCSP", {"enabled": False})


def test_the_sound_stays_in_sync_through_a_filter_change_a_switch_and_a_reconnect(tapped, launch, beep_clip, tmp_path):
    media = tmp_path / "media"
    media.mkdir()
    shutil.copy(beep_clip, media / "other.mp4")
    page = tapped(None, "--media-dir", str(media))
    page.allow_console(r"WebSocket connection to .* failed")

    def measure(what: str, seconds: float = 3.5) -> None:
        since = now_ms(page)
        time.sleep(seconds)
        # From the second flash, as after a seek: the first may come before the pictures' clock settles.
        after = pairs(tap(page)["flashes"], tap(page)["onsets"], since)[1:]
        assert len(after) >= 2, f"{what}: {len(after)} beeps with their flashes in {seconds} s"
        print(f"after {what} (ms): {shown(after)}")
        assert_in_sync(after, f"after {what}")

    page.choose_filter("sepia")  # white stays bright: the flashes are still seen
    measure("a filter change")
    entry = '#media-entries [data-source="media/other.mp4"] button'
    page.wait_for(lambda: page.find_all(entry), message="the media folder listed")
    page.find(entry).click()
    page.wait_state(lambda s: s["source"]["name"] == "media/other.mp4", message="the other file playing")
    measure("a switch to another file")
    port = page.server.port
    assert page.server.stop() == 0
    page.wait_for(lambda: page.stats()["connected"] is False, message="the page noticing the disconnect")
    launch("--input", str(beep_clip), "--media-dir", str(media), port=port)
    page.wait_for(lambda: page.stats()["connected"], timeout=15, message="the page reconnecting")
    page.wait_for(lambda: page.js("return window.filtercast.stats.audio.playing"), 5, "the sound to play again")
    measure("a reconnect")


# Slow on this shared machine: 60 pictures a second and twice the sound, both sped up; a loaded
# machine loses sound packets then (make bench-serve runs it).
@pytest.mark.bench
def test_at_twice_the_speed_every_beep_is_heard_with_its_flash_and_at_4x_the_page_says_why_it_is_silent(
        launch, open_page, beep_clip):
    # At 2× a beep comes every half second of the output: an onset after a quarter second of quiet.
    page = start_tap(launch, open_page, beep_clip, None, tap_script=TAP.replace("this.lastLoud > 0.5", "this.lastLoud > 0.25"))
    try:
        page.js("document.activeElement && document.activeElement.blur()")
        press(page, "l")
        page.wait_state(lambda s: s["speed"] == 2, timeout=5, message="L: 2×")
        time.sleep(1.5)  # the pictures' clock settles at the new rate
        start = now_ms(page)
        time.sleep(5)
        fast = pairs(tap(page)["flashes"], tap(page)["onsets"], start)
        print(f"at 2×, beep heard minus flash drawn (ms): {shown(fast)}")
        assert len(fast) >= 8, f"{len(fast)} flashes drawn in 5 s at 2×"
        assert_in_sync(fast, "at 2×")
        assert page.js("return document.getElementById('sound-note').hidden") is True
        press(page, "l")
        page.wait_state(lambda s: s["speed"] == 4, timeout=5, message="L again: 4×")
        page.wait_for(lambda: page.visible("#sound-note") and "no sound at 4×" in page.text("#sound-note"), timeout=3,
                      message="the page saying why the sound is silent")
        page.wait_for(lambda: tap(page)["changes"][-1]["silent"], timeout=3, message="silence at 4×")
    finally:
        page.driver.execute_cdp_cmd("Page.setBypassCSP", {"enabled": False})
