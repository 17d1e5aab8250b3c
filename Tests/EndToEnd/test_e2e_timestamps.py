"""Recorded and published timestamps come from the source's clock (issue 23, defect 3): a 25 fps
file is written in steps of whole 40 ms frames — across a loop, a pause, a seek and a source
switch —, strictly increasing, r_frame_rate 25/1, and `ffmpeg -v error` reads every file and
stream without a word. Before: steps of 608–656 ticks of 1/16000, r_frame_rate=151/6 and "non
monotonically increasing dts"."""

from __future__ import annotations

import shutil
import socket
import subprocess
import time

import pytest

from fc_client import Client, run
from fc_server import make_tone_clip
from live_feed import free_port
from test_e2e_metrics import scrape, value
from test_e2e_publish import Receiver
from test_e2e_recording import SHARED, wait_state

INTERVAL_MS = 40


def video_times(path) -> tuple[list[int], str]:
    """The video packets' presentation times in ms (in decoding order) and r_frame_rate."""
    out = subprocess.run([shutil.which("ffprobe"), "-v", "error", "-select_streams", "v:0",
                          "-show_entries", "packet=pts_time:stream=r_frame_rate", "-of", "csv=p=0", str(path)],
                         check=True, capture_output=True, timeout=60, text=True).stdout.split()
    rate = next(line for line in out if "/" in line)
    return [round(float(line) * 1000) for line in out if "/" not in line and line != "N/A"], rate


def read_errors(path) -> str:
    """What `ffmpeg -v error` says reading every stream of `path` ("" for a clean file)."""
    result = subprocess.run([shutil.which("ffmpeg"), "-nostdin", "-v", "error", "-i", str(path), "-f", "null", "-"],
                            capture_output=True, timeout=60, text=True)
    return result.stderr


def assert_on_the_source_clock(path, least_frames: int):
    times, rate = video_times(path)
    assert len(times) >= least_frames, times
    steps = [b - a for a, b in zip(times, times[1:])]
    assert all(step > 0 for step in steps), f"times go back: {steps}"
    off = [step for step in steps if step % INTERVAL_MS]
    assert not off, f"steps that are no whole 40 ms frames: {off} of {len(steps)}"
    assert rate == "25/1", rate
    assert read_errors(path) == ""


@pytest.fixture
def clips(tmp_path):
    """A 2 s 25 fps clip with sound (it loops while recorded) and another in the media folder."""
    media = tmp_path / "media"
    media.mkdir()
    make_tone_clip(media / "other.mp4", "320x240", 25, 3, 48000)
    return make_tone_clip(tmp_path / "clip.mp4", "320x240", 25, 2, 48000), media


@pytest.mark.parametrize("shared", [False, True], ids=["own", "shared"])
def test_a_recording_across_loop_pause_seek_and_switch_keeps_the_sources_steps(start_server, tmp_path, clips, shared):
    clip, media = clips
    server = start_server("--input", str(clip), "--media-dir", str(media), *(SHARED[:1] + ("h264-240p",) if shared else ()))

    async def scenario():
        async with await Client.connect(server.ws_url()) as client:
            await client.ok({"type": "record", "action": "start"})
            state = await wait_state(client, lambda s: s["recording"]["active"], "the recording runs")
            positions = [state["position"]]

            def looped(state: dict) -> bool:
                positions.append(state["position"])
                return positions[-1] < positions[-2]
            # Past the loop point at 2 s.
            await wait_state(client, looped, "the clip looped", timeout=10)
            await client.ok({"type": "pause"})
            await client.collect(1.0)
            await client.ok({"type": "play"})
            await client.collect(0.4)
            await client.ok({"type": "seek", "position": 1.2})
            await client.collect(0.4)
            await client.ok({"type": "open", "source": "media/other.mp4"})
            await client.collect(0.8)
            await client.ok({"type": "record", "action": "stop"})
            return (await wait_state(client, lambda s: not s["recording"]["active"], "stopped"))["recording"]
    recording = run(scenario(), timeout=60)
    assert recording["error"] is None, recording
    # Enough frames to judge the steps, scaled by what was recorded: half the 25 fps of the time it
    # ran less the paused second, less the frames the recorder counted as dropped (a busy machine
    # drops some by design), rather than a fixed count of a scenario a loaded machine stretches.
    least = 0.5 * (recording["elapsed"] - 1.0) * 25 - recording["droppedFrames"]
    assert_on_the_source_clock(tmp_path / "recordings" / recording["name"], least_frames=max(20, int(least)))


def test_a_published_stream_across_pause_and_seek_keeps_the_sources_steps(start_server, tmp_path, clips):
    clip, _ = clips
    port = free_port(socket.SOCK_STREAM)
    receiver = Receiver("rtmp", port, tmp_path / "out.flv", frames=90).start()
    try:
        server = start_server("--input", str(clip), "--publish", receiver.url)

        async def scenario():
            async with await Client.connect(server.ws_url()) as client:
                deadline = time.monotonic() + 20
                while value(scrape(server), "filtercast_publish_frames_total") < 20:
                    assert time.monotonic() < deadline, "nothing published"
                    await client.collect(0.1)
                await client.ok({"type": "pause"})
                await client.collect(1.2)
                await client.ok({"type": "play"})
                await client.collect(0.3)
                await client.ok({"type": "seek", "position": 0.2})
        run(scenario(), timeout=40)
        receiver.wait(timeout=20)
    finally:
        receiver.kill()
    assert_on_the_source_clock(receiver.output, least_frames=90)
