"""`--publish` carries the sound (issue 16): the stream a media server receives (the ffmpeg CLI
listening for RTMP or RTSP) has an AAC-LC track, 48 kHz stereo, beside the H.264 — for the
publisher's own encode and for a shared rendition's — whose beeps fall on their flashes (the
marked clips of the recordings' sound tests); a source without sound publishes silence in the
same layout; and recordings that share a rendition (`--record-rendition`) keep the sound too."""

from __future__ import annotations

import socket
import time

import numpy as np
import pytest

from fc_client import Client, run
from live_feed import free_port
from test_e2e_publish import Receiver
from test_e2e_recording_sound import TOLERANCE, clips, expect_beeps_on_flashes, record, sound, streams  # noqa: F401 (a fixture)

pytestmark = pytest.mark.solo  # beeps on flashes in the published stream: run alone

# What the receiver keeps: 4 s of pictures at the clips' 25 fps.
FRAMES = 100


def expect_sound_track(path):
    """The stream's audio: AAC-LC, 48 kHz stereo, beside H.264."""
    found = streams(path)
    audio = found["audio"]
    assert found["video"]["codec_name"] == "h264", found
    assert (audio["codec_name"], audio["profile"], int(audio["sample_rate"]), audio["channels"]) == ("aac", "LC", 48_000, 2)
    return found


# rtmp-own and rtsp-shared cover both muxers and both encodes; the third pairing is make bench-serve's.
@pytest.mark.parametrize("scheme, encode", [("rtmp", "own"), pytest.param("rtmp", "shared", marks=pytest.mark.bench), ("rtsp", "shared")])
def test_the_published_stream_carries_the_sound_on_its_pictures(start_server, clips, tmp_path, scheme, encode):
    port = free_port(socket.SOCK_STREAM)
    receiver = Receiver(scheme, port, tmp_path / "out.mkv", frames=FRAMES).start()
    choice = ["--publish-rendition", "own"] if encode == "own" else []
    try:
        start_server("--input", str(clips["main"]), "--publish", receiver.url, *choice)
        receiver.wait(timeout=40)
    finally:
        receiver.kill()
    expect_sound_track(receiver.output)
    # Measured: every beep 0-10 ms from its flash (a recording's lead of 17-70 ms is not seen here).
    expect_beeps_on_flashes(receiver.output, minimum=3, step=TOLERANCE)


def test_a_source_without_sound_publishes_silence(start_server, clips, tmp_path):
    port = free_port(socket.SOCK_STREAM)
    receiver = Receiver("rtmp", port, tmp_path / "out.mkv", frames=FRAMES).start()
    try:
        start_server("--input", str(clips["media"] / "silent.mp4"), "--publish", receiver.url)
        receiver.wait(timeout=40)
    finally:
        receiver.kill()
    expect_sound_track(receiver.output)
    samples = sound(receiver.output)
    assert samples.size >= 48_000 and np.abs(samples).max() < 100, (samples.size, np.abs(samples).max())


def test_a_recording_that_shares_a_rendition_keeps_the_sound(start_server, clips, tmp_path):
    server = start_server("--input", str(clips["main"]), "--record-rendition", "h264-240p")

    async def scenario():
        async with await Client.connect(server.ws_url()) as client:
            return await record(client, lambda _: _sleep(4.5))

    recording = run(scenario())
    assert recording["error"] is None and "shared" in recording["encoder"], recording
    path = tmp_path / "recordings" / recording["name"]
    found = expect_sound_track(path)
    # A shared rendition's fragments need not start at a keyframe: the streams start and end
    # within a fragment's pictures of each other, not the own encode's 40 ms.
    assert abs(float(found["audio"]["duration"]) - float(found["video"]["duration"])) <= 0.1, found
    expect_beeps_on_flashes(path, minimum=3)


async def _sleep(seconds: float):
    time.sleep(seconds)
