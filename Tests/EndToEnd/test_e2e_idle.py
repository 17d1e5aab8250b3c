"""A file nobody watches is not decoded: the server idles (a small fraction of a core) while the
clock runs on, and whoever comes later — a viewer, a snapshot — gets the frame where the clock
is, promptly. The clip is 640x360 H.264 at 30 fps, 4 s, a keyframe every second; it loops."""

import io
import os
import shutil
import subprocess
import time

import numpy as np
import pytest
from PIL import Image

from fc_client import Client, run
from fc_server import make_clip

DURATION = 4.0
TICKS = os.sysconf("SC_CLK_TCK")


@pytest.fixture(scope="module")
def idle_clip(tmp_path_factory):
    path = tmp_path_factory.mktemp("idle-clips") / "clip-4s-30fps-640x360-g30.mp4"
    return make_clip(path, "testsrc2=size=640x360:rate=30", DURATION, "-g", "30")


def cpu_seconds(pid: int) -> float:
    """User + system time of process `pid` so far, from /proc/PID/stat."""
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


FRAME = 1 / 30


def clock_anchor(server):
    """(position, asked, answered) from /api/state: the session's clock stood at `position` at some
    moment between `asked` and `answered` (monotonic times)."""
    import json
    asked = time.monotonic()
    state = json.loads(server.get("/api/state").body)
    return state["position"], asked, time.monotonic()


# How far from the clock the catch-up may land, either side of the bracket: the picture found is
# one shown at or a little before the clock's time (0.1 s behind seen with a prompt request); a
# picture left from where idling began is seconds away.
SLACK = 0.35


def expected_window(anchor, start: float, end: float) -> tuple:
    """Where the clock may stand at some moment between `start` and `end`, given the anchor:
    brackets rather than a point, as neither the anchor's nor the server's reading of the clock is
    at a known instant (a loaded machine stretches both requests)."""
    position, asked, answered = anchor
    return position + (start - answered) - SLACK, position + (end - asked) + SLACK


def in_window(at: float, window: tuple) -> bool:
    """`at` (a position in the looping clip) within `window` (unwrapped times), circularly."""
    low, high = window
    return high - low >= DURATION or (at - low) % DURATION <= high - low


def clip_lumas(clip) -> np.ndarray:
    """Every frame of the 640x360 clip as grey levels: frame i shows i/30 s."""
    raw = subprocess.run([shutil.which("ffmpeg"), "-hide_banner", "-loglevel", "error", "-i", str(clip),
                          "-f", "rawvideo", "-pix_fmt", "gray", "-"], check=True, capture_output=True, timeout=60).stdout
    return np.frombuffer(raw, dtype=np.uint8).reshape(-1, 360, 640).astype(np.float64)


def test_a_file_nobody_watches_costs_almost_no_cpu(start_server, idle_clip):
    server = start_server("--input", str(idle_clip))
    time.sleep(1.0)  # start-up (opening, the first frames) is not idling
    before, started = cpu_seconds(server.proc.pid), time.monotonic()
    time.sleep(5.0)
    share = (cpu_seconds(server.proc.pid) - before) / (time.monotonic() - started)
    # Decoding every frame and throwing it away cost 6–10 % of a core (release build, 720p) and
    # more in the debug build; idle it is well under 1 %.
    assert share < 0.03, f"{share:.1%} of a core while nobody watches"


def test_a_viewer_arriving_later_gets_the_frame_where_the_clock_is(start_server, idle_clip):
    server = start_server("--input", str(idle_clip))
    anchor = clock_anchor(server)
    time.sleep(5.5)  # past the end: the clock has looped once

    async def scenario():
        asked = time.monotonic()
        async with await Client.connect(server.ws_url()) as client:
            first = await client.next_frame(timeout=10)
            arrived = time.monotonic()
            more = await client.frames(10, timeout=10)
            return asked, first, arrived, more
    asked, first, arrived, more = run(scenario())
    # The catch-up seek decodes from the keyframe before the clock's position: ~0.2 s in a
    # release build for 720p, seconds on a loaded machine running the debug build. Whenever it was
    # made between the connect and the frame's arrival, the frame is where the clock was then (a
    # frame that stayed where idling began, ~1.5 s of the loop away, is not).
    window = expected_window(anchor, asked, arrived)
    assert in_window(first.pts, window), (
        f"first frame at pts {first.pts:.3f} s, the clock between {window[0] % DURATION:.3f} and "
        f"{window[1] % DURATION:.3f} s (of a {DURATION} s loop) while it was asked for")
    pts = [frame.pts for frame in more]
    assert all(b > a for a, b in zip(pts, pts[1:])), f"playback did not go on from there: {pts}"


def test_a_snapshot_while_nobody_watches_shows_the_current_frame(start_server, idle_clip):
    server = start_server("--input", str(idle_clip))
    anchor = clock_anchor(server)
    time.sleep(2.5)
    asked = time.monotonic()
    response = server.get("/snapshot.jpg", timeout=10)
    answered = time.monotonic()
    assert response.status == 200, response
    luma = np.asarray(Image.open(io.BytesIO(response.body)).convert("L"), dtype=np.float64)
    # Which frame of the clip the snapshot is (the same frame through JPEG differs by under 1 grey
    # level, frames 0.25 s apart by ~7), then whether the clock stood there at some moment while
    # the request was under way: a bracket, as a loaded server takes a while to answer.
    frames = clip_lumas(idle_clip)
    distances = np.abs(frames - luma).mean(axis=(1, 2))
    best = int(distances.argmin())
    window = expected_window(anchor, asked, answered)
    assert distances[best] < 2, f"the snapshot is no frame of the clip: {distances.min():.1f}"
    assert in_window(best * FRAME, window), (f"the snapshot is the frame at {best * FRAME:.3f} s, the clock was between "
                                             f"{window[0] % DURATION:.3f} and {window[1] % DURATION:.3f} s")
    assert distances[0] > 2 * distances[best], f"the snapshot is the start frame: {distances[0]:.1f} vs {distances[best]:.1f}"
