"""`--input http://…`: a file on a server that answers byte ranges plays as a file (duration,
seekable, frame-accurate seeks, loops, a dropped connection resumes where it broke off); a
server without ranges, or a URL without a known length, is a live stream. The servers are real
HTTP servers in this process (media_http.py)."""

import shutil
import subprocess
import time

import numpy as np
import pytest

from fc_client import Client, run
from fc_server import make_clip
from media_http import MediaHTTPServer
from test_e2e_playback import reference_frames

FRAME = 0.04  # 25 fps


@pytest.fixture(scope="module")
def faststart_clip(tmp_path_factory):
    """The 4 s, 25 fps sample clip with its index first, so a player reads it front to back in
    one request (and a dropped connection falls in the middle of the pictures)."""
    folder = tmp_path_factory.mktemp("http-clips")
    return make_clip(folder / "fast.mp4", "testsrc2=size=320x240:rate=25", 4, "-g", "25", "-movflags", "+faststart")


def converted(clip, suffix, *options, folder):
    """`clip` rewrapped by the ffmpeg CLI (no re-encoding) into `folder`/clip`suffix`."""
    out = folder / f"clip{suffix}"
    subprocess.run([shutil.which("ffmpeg"), "-hide_banner", "-loglevel", "error", "-y", "-i", str(clip),
                    "-c", "copy", *options, str(out)], check=True, timeout=60)
    return out


def hello_state(server) -> dict:
    async def scenario():
        async with await Client.connect(server.ws_url()) as client:
            await client.next_frame(timeout=5)
            return client.hello["state"]
    return run(scenario())


def test_a_file_on_a_range_server_is_seekable_and_seeks_to_the_exact_frame(start_server, sample_clip, tmp_path):
    references = reference_frames(sample_clip, [49, 50, 51], tmp_path)
    with MediaHTTPServer(sample_clip, ranges=True) as http:
        server = start_server("--input", http.url)

        async def scenario():
            async with await Client.connect(server.ws_url()) as client:
                await client.frames(2)
                await client.ok({"type": "pause"})
                await client.collect(0.2)
                await client.ok({"type": "seek", "position": 2.0})
                frame = await client.next_frame(where=lambda f: f.state_changed and f.pts_us == 2_000_000, timeout=3)
                return client.hello["state"], frame
        state, frame = run(scenario())
        assert http.range_requests > 0, f"FFmpeg never asked for a range: {http.requests}"
    assert state["source"]["kind"] == "file", state["source"]
    assert state["source"]["seekable"] is True
    assert state["duration"] == pytest.approx(4.0, abs=0.05)
    luma = frame.luma()
    distances = {number: float(np.abs(luma - reference).mean()) for number, reference in references.items()}
    assert min(distances, key=distances.get) == 50, f"mean |difference| to frames 49, 50, 51: {distances}"


def test_a_file_on_a_range_server_loops(start_server, sample_clip):
    with MediaHTTPServer(sample_clip, ranges=True) as http:
        server = start_server("--input", http.url)

        async def scenario():
            async with await Client.connect(server.ws_url()) as client:
                await client.frames(1)
                await client.ok({"type": "seek", "position": 3.5})
                await client.next_frame(where=lambda f: f.pts >= 3.5, timeout=3)
                return [frame.pts for frame in await client.frames(25, timeout=5)]
        pts = run(scenario())
        assert server.running
    wrapped = [b for a, b in zip(pts, pts[1:]) if b < a]
    assert wrapped and wrapped[0] < 0.2, f"no loop back to the start after 3.5 s: {pts}"
    assert pts[-1] > 0.3, f"playback did not go on after the loop: {pts}"


@pytest.mark.solo  # measures a rate or sync: run alone
def test_a_dropped_connection_resumes_where_it_broke_off(start_server, faststart_clip):
    size = faststart_clip.stat().st_size
    with MediaHTTPServer(faststart_clip, ranges=True, drop_after=size // 2) as http:
        server = start_server("--input", http.url, "--no-loop")

        async def scenario():
            async with await Client.connect(server.ws_url()) as client:
                frames = await client.frames(100, timeout=10)
                await client.collect(0.3)
                return [frame.pts for frame in frames], client.hello["state"]
        pts, state = run(scenario())
        assert http.dropped == 1, "the connection was never cut: the test proves nothing"
        assert f"bytes={size // 2}-" in http.requests, f"no request resumed at the cut: {http.requests}"
    assert state["source"]["kind"] == "file"
    steps = [round(b - a, 3) for a, b in zip(pts, pts[1:])]
    assert pts[0] == 0 and pts[-1] == pytest.approx(3.96, abs=1e-6), f"not every frame played: {pts}"
    assert all(step == pytest.approx(FRAME, abs=1e-3) for step in steps), f"frames skipped at the cut: {steps}"
    assert "error" not in server.stderr_text().lower(), server.stderr_text()


def test_a_server_without_ranges_plays_a_live_stream(start_server, sample_clip, tmp_path):
    # MPEG-TS can be read front to back; without ranges (and without a length) nothing can seek.
    stream = converted(sample_clip, ".ts", folder=tmp_path)
    with MediaHTTPServer(stream, ranges=False) as http:
        server = start_server("--input", http.url)
        state = hello_state(server)

        async def seek():
            async with await Client.connect(server.ws_url()) as client:
                return await client.command({"type": "seek", "position": 1.0, "id": "s"})
        reply = run(seek())
        assert http.range_requests == 0
    assert state["source"]["kind"] == "stream", state["source"]
    assert state["source"]["seekable"] is False
    assert state["duration"] is None
    assert reply["type"] == "error" and reply["code"] == "not_seekable", reply


def test_a_url_without_a_length_is_live_even_on_a_range_server(start_server, sample_clip, tmp_path):
    # A raw H.264 stream has no duration: seekable bytes, but no timeline to seek on.
    raw = converted(sample_clip, ".h264", "-bsf:v", "h264_mp4toannexb", "-f", "h264", folder=tmp_path)
    with MediaHTTPServer(raw, ranges=True) as http:
        server = start_server("--input", http.url)
        state = hello_state(server)
    assert state["source"]["kind"] == "stream", state["source"]
    assert state["source"]["seekable"] is False
    assert state["duration"] is None
