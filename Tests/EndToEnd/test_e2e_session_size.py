"""The session takes the size of what plays (issue 23): a file of another size opened in a
session plays at its own size — the renditions follow it (the same ids, `renditions` tells
viewers the new sizes), JPEG frames and H.264 units come at the new sizes (H.264 from a keyframe
with the new SPS), the snapshot too — instead of being fitted into the first source's size with
bars. A recording under way keeps the size it started at (the new picture fitted into it) and
reads cleanly; going back to the input brings its size back."""

from __future__ import annotations

import io
import shutil
import subprocess

import pytest
from PIL import Image

from fc_client import Client, is_frame, run
from fc_server import make_tone_clip
from test_e2e_recording import wait_state
from test_e2e_timestamps import assert_on_the_source_clock, read_errors


def sizes(renditions: list) -> dict:
    return {r["id"]: (r["width"], r["height"]) for r in renditions}


def snapshot_size(server) -> tuple[int, int]:
    response = server.get("/snapshot.jpg")
    assert response.status == 200, response
    return Image.open(io.BytesIO(response.body)).size


def recorded_size(path) -> tuple[int, int]:
    out = subprocess.run([shutil.which("ffprobe"), "-v", "error", "-select_streams", "v:0", "-show_entries",
                          "stream=width,height", "-of", "csv=p=0", str(path)], check=True, capture_output=True,
                         text=True, timeout=30).stdout.strip()
    width, height = out.split(",")
    return int(width), int(height)


def serve_clips(start_server, tmp_path, *options: str):
    """A server of a 320x240 input, with a 640x360 clip in its media folder."""
    media = tmp_path / "media"
    media.mkdir()
    make_tone_clip(media / "wide.mp4", "640x360", 25, 3, 48000)
    clip = make_tone_clip(tmp_path / "clip.mp4", "320x240", 25, 2, 48000)
    return start_server("--input", str(clip), "--media-dir", str(media), *options)


@pytest.fixture
def server(start_server, tmp_path):
    return serve_clips(start_server, tmp_path)


def test_a_file_of_another_size_plays_at_its_own_size_and_a_recording_keeps_its_own(server, tmp_path):

    async def scenario():
        async with await Client.connect(server.ws_url()) as client:
            before = sizes(client.hello["renditions"])
            assert before["jpeg-240p"] == (320, 240), before
            frame = await client.next_frame(timeout=5)
            assert frame.image().size == (320, 240)
            await client.ok({"type": "record", "action": "start"})
            await wait_state(client, lambda s: s["recording"]["active"], "the recording runs")
            await client.ok({"type": "open", "source": "media/wide.mp4"})
            message = await client.next_json("renditions", timeout=5)
            after = sizes(message["renditions"])
            assert list(after) == list(before), "the same renditions, in the same order"
            assert after["jpeg-240p"] == (640, 360), after
            assert after["jpeg-120p"] == (320, 180), after
            client.drop_frames()
            frame = await client.next_frame(timeout=5, where=lambda f: f.image().size == (640, 360))
            assert snapshot_size(server) == (640, 360)
            await client.collect(1.0)
            await client.ok({"type": "open", "source": "input"})
            back = sizes((await client.next_json("renditions", timeout=5))["renditions"])
            assert back == before, back
            await client.next_frame(timeout=5, where=lambda f: f.image().size == (320, 240))
            await client.ok({"type": "record", "action": "stop"})
            return (await wait_state(client, lambda s: not s["recording"]["active"], "stopped"))["recording"]
    recording = run(scenario(), timeout=60)
    assert recording["error"] is None, recording
    path = tmp_path / "recordings" / recording["name"]
    assert recorded_size(path) == (320, 240)
    assert_on_the_source_clock(path, least_frames=20)


def test_h264_viewers_get_a_keyframe_of_the_new_size(server):

    async def scenario():
        async with await Client.connect(server.ws_url()) as client:
            await client.ok({"type": "watch", "transport": "h264", "rendition": "h264-240p"})
            first = await client.next_frame(timeout=5, where=lambda f: f.is_unit and f.keyframe)
            assert first.picture[:2] == (320, 240)
            await client.ok({"type": "open", "source": "media/wide.mp4"})
            units = []

            def new_size(frame) -> bool:
                units.append(frame)
                return frame.is_unit and frame.picture[:2] == (640, 360)
            changed = await client.next_frame(timeout=5, where=new_size)
            assert changed.keyframe, "the first unit of the new size is a keyframe"
            assert b"\x00\x00\x01\x67" in changed.jpeg or b"\x00\x00\x00\x01\x67" in changed.jpeg, "with its SPS"
            later = await client.frames(10, timeout=5)
            assert all(f.picture[:2] == (640, 360) for f in later if f.is_unit)
    run(scenario(), timeout=40)


def test_a_recording_started_while_another_size_plays_takes_that_size(server, tmp_path):
    async def scenario():
        async with await Client.connect(server.ws_url()) as client:
            await client.ok({"type": "open", "source": "media/wide.mp4"})
            await client.next_json("renditions", timeout=5)
            await client.ok({"type": "record", "action": "start"})
            await wait_state(client, lambda s: s["recording"]["active"], "the recording runs")
            await client.collect(1.0)
            await client.ok({"type": "record", "action": "stop"})
            return (await wait_state(client, lambda s: not s["recording"]["active"], "stopped"))["recording"]
    recording = run(scenario(), timeout=40)
    path = tmp_path / "recordings" / recording["name"]
    assert recorded_size(path) == (640, 360)
    assert_on_the_source_clock(path, least_frames=15)


def test_a_shared_rendition_keeps_its_size_while_a_recording_takes_its_units(start_server, tmp_path):
    """`--record-rendition`: the recording's muxer has the first SPS, so the rendition stays
    320x240 (the new picture fitted in) until the recording stops; the JPEG ones follow at once."""
    server = serve_clips(start_server, tmp_path, "--record-rendition", "h264-240p")

    async def scenario():
        async with await Client.connect(server.ws_url()) as client:
            await client.ok({"type": "watch", "transport": "h264", "rendition": "h264-240p"})
            await client.ok({"type": "record", "action": "start"})
            await wait_state(client, lambda s: s["recording"]["active"], "the recording runs")
            await client.ok({"type": "open", "source": "media/wide.mp4"})
            during = sizes((await client.next_json("renditions", timeout=5))["renditions"])
            client.drop_frames()
            units = [f for f in await client.collect(1.0) if is_frame(f) and f.is_unit]
            await client.ok({"type": "record", "action": "stop"})
            recording = (await wait_state(client, lambda s: not s["recording"]["active"], "stopped"))["recording"]
            after = sizes((await client.next_json("renditions", timeout=5))["renditions"])
            resized = await client.next_frame(timeout=5, where=lambda f: f.is_unit and f.picture[:2] == (640, 360))
            return during, units, recording, after, resized
    during, units, recording, after, resized = run(scenario(), timeout=40)
    assert during["h264-240p"] == (320, 240) and during["jpeg-240p"] == (640, 360), during
    assert units and all(f.picture[:2] == (320, 240) for f in units)
    assert after["h264-240p"] == (640, 360), after
    assert resized.keyframe
    path = tmp_path / "recordings" / recording["name"]
    assert recorded_size(path) == (320, 240)
    assert read_errors(path) == ""


def test_with_a_fixed_size_every_source_is_fitted_into_it(start_server, tmp_path):
    server = serve_clips(start_server, tmp_path, "--size", "320x240")

    async def scenario():
        async with await Client.connect(server.ws_url()) as client:
            await client.ok({"type": "open", "source": "media/wide.mp4"})
            await wait_state(client, lambda s: s["source"]["name"] == "media/wide.mp4", "the clip plays")
            client.drop_frames()
            return await client.frames(5, timeout=5), client.json_received
    frames, texts = run(scenario(), timeout=30)
    assert all(f.image().size == (320, 240) for f in frames)
    assert not [t for t in texts if t.get("type") == "renditions"]
    # 16:9 in 4:3: letterboxed, black above and below.
    luma = frames[-1].luma()
    assert luma[:20].mean() < 20 and luma[-20:].mean() < 20 and luma[60:180].mean() > 40
