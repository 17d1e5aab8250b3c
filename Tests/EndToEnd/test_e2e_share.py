"""A viewer's camera as the session's source (`share`, protocol v1 addition): a client sends
pictures — H.264 made by the ffmpeg CLI, or JPEGs — as FCI1 binary messages, and every viewer
gets them filtered; stopping, leaving, falling silent, a takeover and bad pictures bring back
the source from before."""

from __future__ import annotations

import asyncio
import contextlib
import io
import shutil
import struct
import subprocess
import time

import numpy as np
import pytest
from PIL import Image

from fc_client import Client, run
from test_e2e_metrics import scrape, value

PATTERN = "test:640x360@30"
# The shared camera shows red (the test pattern is balanced): a viewer tells them apart by colour.
RED = (200, 40, 30)


def fci1(payload: bytes, sequence: int, capture_us: int, keyframe: bool) -> bytes:
    """One FCI1 picture message (docs/PROTOCOL.md)."""
    return b"FCI1" + struct.pack("<HHQqq", 32, 2 if keyframe else 0, sequence, capture_us, 0) + payload


def h264_units(tmp_path, seconds: float = 6, size: str = "640x360") -> list[tuple[bytes, bool]]:
    """Access units of a red clip with a moving box, x264 Constrained Baseline with access unit
    delimiters (so that it splits at them), a keyframe a second: (bytes, keyframe)."""
    path = tmp_path / "camera.h264"
    subprocess.run([shutil.which("ffmpeg"), "-nostdin", "-v", "error", "-y", "-f", "lavfi", "-i",
                    f"color=c=0x{RED[0]:02x}{RED[1]:02x}{RED[2]:02x}:size={size}:rate=30,"
                    "drawbox=x='mod(t*200,500)':y=100:w=80:h=80:c=white:t=fill",
                    "-t", str(seconds), "-c:v", "libx264", "-profile:v", "baseline", "-tune", "zerolatency",
                    "-g", "30", "-x264-params", "aud=1", "-pix_fmt", "yuv420p", "-f", "h264", str(path)],
                   check=True, timeout=60)
    data = path.read_bytes()
    starts = [i for i in range(len(data) - 4) if data[i:i + 5] == b"\0\0\0\x01\x09"]
    units = [data[a:b] for a, b in zip(starts, starts[1:] + [len(data)])]
    return [(unit, b"\0\0\x01\x65" in unit or b"\0\0\0\x01\x65" in unit) for unit in units]


def jpeg_picture(size=(640, 360)) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", size, RED).save(out, "JPEG", quality=80)
    return out.getvalue()


async def send_units(client: Client, units, fps: float = 30, start_us: int = 5_000_000):
    """Sends `units` at `fps`, capture times from `start_us` one frame apart; the capture times."""
    times = []
    for index, (unit, keyframe) in enumerate(units):
        capture = start_us + int(index * 1e6 / fps)
        await client.send_raw(fci1(unit, index, capture, keyframe))
        times.append(capture)
        await asyncio.sleep(1 / fps)
    return times


def redness(frame) -> float:
    rgb = frame.rgb().astype(np.float64)
    return float(rgb[..., 0].mean() - rgb[..., 2].mean())


async def wait_source(client: Client, kind: str, timeout: float = 5.0) -> dict:
    deadline = time.monotonic() + timeout
    while True:
        remaining = deadline - time.monotonic()
        assert remaining > 0, f"the source never became {kind}"
        state = await client.next_json("state", timeout=remaining)
        if state["source"]["kind"] == kind:
            return state


@contextlib.asynccontextmanager
async def shared_camera(server, units):
    """Two clients of `server`: the first shares its camera and has sent `units`; the other."""
    async with await Client.connect(server.ws_url()) as sharer, await Client.connect(server.ws_url()) as other:
        await sharer.ok(START)
        await send_units(sharer, units)
        yield sharer, other


START = {"type": "share", "action": "start", "codec": "h264", "width": 640, "height": 360, "label": "Fake camera"}


@pytest.mark.solo  # measures a rate or sync: run alone
def test_a_shared_camera_reaches_every_viewer_with_its_capture_times(start_server, tmp_path):
    server = start_server("--input", PATTERN, "--filter", "invert")
    units = h264_units(tmp_path)

    async def scenario():
        async with await Client.connect(server.ws_url()) as viewer, await Client.connect(server.ws_url()) as sharer:
            await viewer.frames(3)
            await sharer.ok(START)
            sending = asyncio.create_task(send_units(sharer, units))
            state = await wait_source(viewer, "browser")
            viewer.drop_frames()
            started = time.monotonic()
            frames = await viewer.frames(60, timeout=10)
            elapsed = time.monotonic() - started
            times = await sending
            await sharer.ok({"type": "share", "action": "stop"})
            back = await wait_source(viewer, "test")
            return state, frames, elapsed, times, back

    state, frames, elapsed, times, back = run(scenario(), timeout=60)
    source = state["source"]
    assert (source["name"], source["seekable"], source["startInput"]) == ("Fake camera (shared camera)", False, False)
    assert (source["width"], source["height"]) == (640, 360)
    assert 60 / elapsed >= 25, f"{60 / elapsed:.1f} fps"
    # Each frame carries its picture's capture time as its presentation time.
    sent = set(times)
    assert all(round(frame.pts * 1e6) in sent for frame in frames[5:]), [frame.pts for frame in frames[:8]]
    # The camera's red, filtered: inverted, cyan (the test pattern is balanced either way).
    assert max(redness(frame) for frame in frames[5:]) < -100
    assert back["source"]["startInput"] is True
    metrics = scrape(server)
    assert value(metrics, "filtercast_ingest_pictures_total") == len(times)
    assert value(metrics, "filtercast_ingest_bytes_total") == sum(len(unit) + 32 for unit, _ in units[:len(times)])


def upright_camera_frame(server, tmp_path):
    """The last of 20 frames a viewer gets while a phone held upright — 360x640 — is shared. 360
    is no multiple of the decoder's stride alignment (its buffers are 384 wide)."""
    units = h264_units(tmp_path, seconds=2, size="360x640")

    async def scenario():
        async with await Client.connect(server.ws_url()) as viewer, await Client.connect(server.ws_url()) as sharer:
            await sharer.ok({**START, "width": 360, "height": 640})
            sending = asyncio.create_task(send_units(sharer, units))
            await wait_source(viewer, "browser")
            viewer.drop_frames()
            frames = await viewer.frames(20, timeout=10)
            await sending
            return frames

    frame = run(scenario(), timeout=60)[-1]
    assert "did not decode" not in server.stderr_text(20000)
    return frame


def test_an_upright_camera_plays_at_its_own_size(start_server, tmp_path):
    """The session takes the size of what plays: the camera's 360x640, all of it red."""
    frame = upright_camera_frame(start_server("--input", PATTERN), tmp_path)
    assert frame.image().size == (360, 640)
    rgb = frame.rgb().astype(np.float64)
    assert rgb[..., 0].mean() - rgb[..., 2].mean() > 100, rgb.mean(axis=(0, 1))


def test_an_upright_camera_of_an_unaligned_width_is_pillarboxed_at_a_fixed_size(start_server, tmp_path):
    """With --size 640x360 the picture keeps its shape in the session's size."""
    frame = upright_camera_frame(start_server("--input", PATTERN, "--size", "640x360"), tmp_path)
    rgb = frame.rgb().astype(np.float64)
    # 360x640 in 640x360: a 202-pixel column (219…420) of the camera's red, black either side.
    left, middle, right = rgb[:, :200], rgb[:, 240:400], rgb[:, 440:]
    assert left.mean() < 20 and right.mean() < 20, (left.mean(), right.mean())
    assert middle[..., 0].mean() - middle[..., 2].mean() > 100, middle.mean(axis=(0, 1))


def test_jpeg_pictures_are_a_camera_too(start_server):
    server = start_server("--input", PATTERN)
    picture = jpeg_picture()

    async def scenario():
        async with await Client.connect(server.ws_url()) as viewer, await Client.connect(server.ws_url()) as sharer:
            await sharer.ok({**START, "codec": "jpeg"})
            sending = asyncio.create_task(send_units(sharer, [(picture, True)] * 60))
            await wait_source(viewer, "browser")
            viewer.drop_frames()
            frames = await viewer.frames(10, timeout=5)
            await sending
            return frames[-5:]

    frames = run(scenario(), timeout=30)
    assert min(redness(frame) for frame in frames) > 100


def test_a_second_sharer_is_refused_or_takes_over_and_leaving_or_silence_ends_it(start_server, tmp_path):
    server = start_server("--input", PATTERN)
    units = h264_units(tmp_path, seconds=2)

    async def scenario():
        async with shared_camera(server, units[:15]) as (first, second):
            busy = await second.command(START)
            await second.ok({**START, "takeOver": True, "label": "Second"})
            ended = await first.next_json("shareEnded", timeout=3)
            # The first one's pictures are not the source's any more.
            refused = await first.command({"type": "share", "action": "stop"})
            await send_units(second, units[:10])
            state = await wait_source(second, "browser")
            # Silence: the source from before comes back within the silence limit and a tick.
            started = time.monotonic()
            silent = await second.next_json("shareEnded", timeout=5)
            back = await wait_source(second, "test")
            silence = time.monotonic() - started
        async with await Client.connect(server.ws_url()) as third:
            await third.ok(START)
            await send_units(third, units[:10])
        async with await Client.connect(server.ws_url()) as watcher:
            after_leaving = await wait_source(watcher, "test")
        return busy, ended, refused, state, silent, silence, after_leaving

    busy, ended, refused, state, silent, silence, after_leaving = run(scenario(), timeout=60)
    assert busy["type"] == "error" and busy["code"] == "busy" and "takeOver" in busy["message"], busy
    assert ended["reason"] == "another viewer took over the camera"
    assert refused["type"] == "ack", refused  # stopping what it no longer has is nothing
    assert state["source"]["name"] == "Second (shared camera)"
    assert "no picture from the camera for 3 s" in silent["reason"] and silence < 4.5, (silent, silence)
    assert after_leaving["source"]["kind"] == "test"


@pytest.mark.parametrize("message, code, problem", [
    ({**START, "width": 2560, "height": 1440}, "out_of_range", "at most 1920x1080"),
    ({**START, "codec": "vp8"}, "out_of_range", 'share.codec must be one of "h264", "jpeg"'),
    ({"type": "share", "action": "begin"}, "out_of_range", "share.action"),
])
def test_bad_share_requests_are_refused(start_server, message, code, problem):
    server = start_server("--input", PATTERN)

    async def scenario():
        async with await Client.connect(server.ws_url()) as client:
            return await client.command(message)

    reply = run(scenario())
    assert reply["code"] == code and problem in reply["message"], reply


def test_bad_pictures_end_the_sharing_and_the_session_goes_on(start_server, tmp_path):
    server = start_server("--input", PATTERN, "--max-ingest-bitrate", "200k")
    units = h264_units(tmp_path, seconds=2)

    async def scenario():
        async with await Client.connect(server.ws_url()) as client:
            # Not sharing: a binary message is refused, nothing else happens.
            await client.send_raw(fci1(units[0][0], 0, 0, True))
            not_sharing = await client.next_json("error", timeout=3)
            # Not an FCI1 message: the sharing ends.
            await client.ok(START)
            await client.send_raw(b"JUNK" + bytes(60))
            junk = await client.next_json("error", timeout=3)
            await wait_source(client, "test")
            # H.264 that does not start at a keyframe cannot be decoded: a keyframe is asked for.
            await client.ok(START)
            await client.send_raw(fci1(units[1][0], 1, 1, False))
            keyframe = await client.next_json("keyframeRequest", timeout=3)
            dropped = value(await asyncio.to_thread(scrape, server), "filtercast_ingest_dropped_total")
            # Over --max-ingest-bitrate (200 kbit/s: 50 KB in 2 s): keyframes of 1.5 KB at 60 a second.
            await send_units(client, [units[0]] * 120, fps=60)
            over = await client.next_json("error", timeout=10)
            back = await wait_source(client, "test")
            frames = await client.frames(5)
            return not_sharing, junk, keyframe, dropped, over, back, frames

    not_sharing, junk, keyframe, dropped, over, back, frames = run(scenario(), timeout=60)
    assert dropped == 1
    assert not_sharing["code"] == "invalid_argument" and "binary messages are not accepted" in not_sharing["message"]
    assert junk["code"] == "invalid_argument" and "FCI1" in junk["message"], junk
    assert keyframe == {"type": "keyframeRequest"}
    assert over["code"] == "ingest_failed" and "--max-ingest-bitrate" in over["message"], over
    assert back["source"]["startInput"] and len(frames) == 5
    assert server.running


def test_pictures_of_another_size_than_announced_end_the_sharing(start_server):
    """The decoder ends the source at the first 320x180 picture of a 640x360 camera; the next
    picture is answered with the error, and the start input plays again."""
    server = start_server("--input", PATTERN)

    async def scenario():
        async with await Client.connect(server.ws_url()) as client:
            await client.ok({**START, "codec": "jpeg"})
            sending = asyncio.create_task(send_units(client, [(jpeg_picture((320, 180)), True)] * 30))
            error = await client.next_json("error", timeout=5)
            back = await wait_source(client, "test")
            sending.cancel()
            return error, back

    error, back = run(scenario(), timeout=30)
    assert error["code"] == "ingest_failed" and "320x180, not the 640x360 announced" in error["message"], error
    assert back["source"]["startInput"] and server.running


def test_opening_another_source_ends_the_sharing(start_server, tmp_path):
    server = start_server("--input", PATTERN)
    units = h264_units(tmp_path, seconds=1)

    async def scenario():
        async with shared_camera(server, units[:10]) as (sharer, other):
            await wait_source(other, "browser")
            await other.ok({"type": "open", "source": "input"})
            ended = await sharer.next_json("shareEnded", timeout=3)
            back = await wait_source(other, "test")
            # Its pictures are not taken any more.
            await sharer.send_raw(fci1(units[0][0], 99, 0, True))
            refused = await sharer.next_json("error", timeout=3)
            return ended, back, refused

    ended, back, refused = run(scenario(), timeout=30)
    assert ended["reason"] == "another source was opened"
    assert back["source"]["startInput"] is True
    assert refused["code"] == "invalid_argument"
