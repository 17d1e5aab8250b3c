"""A live network source that drops out: the server keeps sending a "NO SIGNAL" placeholder about
once a second, says so in state.source (online false, the reason, the retry countdown), and
recovers by itself when the stream comes back. The stream is a real UDP MPEG-TS feed from the
ffmpeg CLI, stopped and restarted."""

import json
import math
import statistics
import subprocess
import time

import numpy as np
import pytest

from fc_client import Client, run
from live_feed import LiveFeed

STALL = "1"  # seconds without a frame before the source counts as offline


@pytest.fixture
def feed():
    feed = LiveFeed("udp").start()
    yield feed
    feed.stop()


@pytest.fixture
def tcp_feed():
    feed = LiveFeed("tcp").start()
    yield feed
    feed.stop()


def start_when_listening(start_server, feed, *args):
    """Starts the server on `feed` once ffmpeg listens (until then the open fails, exit code 1)."""
    deadline = time.monotonic() + 15
    while True:
        try:
            return start_server("--input", feed.url, *args)
        except RuntimeError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.3)


async def state_where(client: Client, predicate, timeout: float) -> dict:
    """The first `state` (or hello state) that satisfies `predicate`, within `timeout` s."""
    deadline = time.monotonic() + timeout
    while True:
        remaining = deadline - time.monotonic()
        assert remaining > 0, "no state matched in time"
        message = await client.next_json("state", timeout=remaining)
        if predicate(message):
            return message


def is_placeholder(frame) -> bool:
    """Dark grey background with white text: the placeholder, not the test pattern."""
    return is_placeholder_luma(frame.luma())


def is_placeholder_luma(luma: np.ndarray) -> bool:
    dark = np.mean(np.abs(luma.astype(int) - 24) < 12)
    bright = np.mean(luma > 200)
    return dark > 0.85 and 0.002 < bright < 0.15


def test_a_udp_stream_that_stops_shows_the_placeholder_and_recovers(start_server, feed):
    server = start_server("--input", feed.url, "--stall-timeout", STALL)
    assert (server.width, server.height) == (320, 240)

    async def scenario():
        async with await Client.connect(server.ws_url()) as client:
            hello = client.hello
            assert hello["state"]["source"]["kind"] == "stream"
            assert hello["state"]["source"]["online"] is True and hello["state"]["source"]["reason"] is None
            live = await client.frames(10, timeout=10)
            assert not any(is_placeholder(frame) for frame in live)

            feed.stop()
            offline = await state_where(client, lambda s: s["source"]["online"] is False, timeout=10)
            reason = offline["source"]["reason"]
            assert feed.url in reason and "no frame for 1 s" in reason, reason
            # The filter does not apply to the placeholder: its text stays readable.
            await client.ok({"type": "setFilter", "name": "invert"})
            http_state = json.loads(server.get("/api/state").body)
            assert http_state["source"]["online"] is False and http_state["source"]["reason"] == reason

            client.drop_frames()
            # Five pictures, however long a loaded machine takes to send them, then their rhythm on
            # the server's send clock: ~1 a second (the median spacing: a re-render for the filter
            # change may add one in between).
            arrivals = await client.frames(5, timeout=15)
            assert all(is_placeholder(frame) for frame in arrivals), "only placeholders while offline"
            spacing = statistics.median(b.sent_us / 1e6 - a.sent_us / 1e6 for a, b in zip(arrivals, arrivals[1:]))
            assert 0.7 <= spacing <= 1.3, f"a placeholder every {spacing:.2f} s (want ~1 a second): {arrivals}"

            feed.start()
            online = await state_where(client, lambda s: s["source"]["online"] is True, timeout=25)
            assert online["source"]["reason"] is None and online["source"]["retryIn"] is None
            client.drop_frames()
            resumed = await client.frames(20, timeout=5)
            assert not any(is_placeholder(frame) for frame in resumed[5:])

    run(scenario(), timeout=90)
    # Going offline and coming back are both in the log.
    log = server.stderr_text(last=1_000_000)
    assert f"{feed.url} is offline" in log and f"{feed.url} is back online" in log, log


def test_a_tcp_stream_that_ends_counts_down_to_each_attempt_and_recovers(start_server, tcp_feed):
    server = start_when_listening(start_server, tcp_feed)

    async def scenario():
        async with await Client.connect(server.ws_url()) as client:
            await client.frames(5, timeout=10)
            tcp_feed.stop()
            first = await state_where(client, lambda s: s["source"]["online"] is False, timeout=10)
            assert tcp_feed.url in first["source"]["reason"] and "ended" in first["source"]["reason"], first
            assert 0 <= first["source"]["retryIn"] <= 1
            # Attempts fail at once (connection refused) and the delays grow: 1, 2, 4 s.
            later = await state_where(client, lambda s: (s["source"]["retryIn"] or 0) > 2.5, timeout=15)
            assert later["source"]["online"] is False and "refused" in later["source"]["reason"], later
            tcp_feed.start()
            await state_where(client, lambda s: s["source"]["online"] is True, timeout=20)
            frames = await client.frames(10, timeout=5)
            assert not any(is_placeholder(frame) for frame in frames[3:])

    run(scenario(), timeout=60)


def test_a_recording_made_while_the_stream_is_down_leaves_no_file(start_server, feed, tmp_path):
    """No frame reaches the recorder while the source is offline: the file would be an empty entry
    in the library (787 bytes, duration "–"). It is removed, and the stop says why."""
    server = start_server("--input", feed.url, "--stall-timeout", STALL)

    async def scenario():
        async with await Client.connect(server.ws_url()) as client:
            await client.frames(3, timeout=10)
            feed.stop()
            await state_where(client, lambda s: s["source"]["online"] is False, timeout=10)
            await client.ok({"type": "record", "action": "start"})
            await state_where(client, lambda s: s["recording"]["active"], timeout=5)
            time.sleep(1.0)
            stopped = await client.command({"type": "record", "action": "stop", "id": "stop"})
            state = await state_where(client, lambda s: not s["recording"]["active"], timeout=5)
            return stopped, state
    stopped, state = run(scenario(), timeout=40)
    assert stopped["type"] == "error" and stopped["code"] == "recording_failed" and stopped["id"] == "stop", stopped
    assert "no file was kept" in stopped["message"], stopped
    assert "no frame" in state["recording"]["error"], state["recording"]
    assert list((tmp_path / "recordings").iterdir()) == []
    assert json.loads(server.get("/api/recordings").body)["recordings"] == []


def last_h264_luma(units: list, width: int, height: int) -> np.ndarray:
    """The last picture FFmpeg decodes from `units` (Annex B, from a keyframe on), as luma."""
    result = subprocess.run(["ffmpeg", "-v", "error", "-f", "h264", "-i", "-", "-f", "rawvideo", "-pix_fmt", "gray", "-"],
                            input=b"".join(unit.jpeg for unit in units), capture_output=True, timeout=60, check=True)
    size = width * height
    assert len(result.stdout) >= size, result.stderr.decode()
    return np.frombuffer(result.stdout[-size:], dtype=np.uint8).reshape(height, width)


def test_h264_viewers_get_the_placeholder_too(start_server, feed):
    server = start_server("--input", feed.url, "--stall-timeout", STALL)

    async def scenario():
        async with await Client.connect(server.ws_url()) as client:
            await client.ok({"type": "watch", "transport": "h264"})
            client.drop_frames()
            units = [await client.next_frame(where=lambda f: f.is_unit, timeout=5)]
            assert units[0].keyframe
            feed.stop()
            await state_where(client, lambda s: s["source"]["online"] is False, timeout=10)
            # Every unit from the first on (the stream decodes from that keyframe) until the
            # placeholders have gone on for 2 s of the server's send clock (a later placeholder: the
            # first one's refinements end within half a second) — a deadline, not a window.
            offline, deadline = [], time.monotonic() + 15

            def placeholders() -> list:
                marked = next((index for index, unit in enumerate(offline) if unit.state_changed), None)
                return offline[marked:] if marked is not None else []
            while not placeholders() or placeholders()[-1].sent_us - placeholders()[0].sent_us < 2_000_000:
                assert time.monotonic() < deadline, f"{len(placeholders())} placeholder units in 15 s offline"
                offline += [u for u in await client.collect(0.2) if not isinstance(u, dict) and u.is_unit]
            # The first placeholder is marked (the source went offline); then one a second, each
            # followed by at most 8 refinements of the still picture: 9 units a second at most, on
            # the send clock.
            sent = placeholders()
            span = (sent[-1].sent_us - sent[0].sent_us) / 1e6
            assert len(sent) <= 9 * (math.ceil(span) + 1), f"{len(sent)} units in {span:.2f} s offline"
            assert is_placeholder_luma(last_h264_luma(units + offline, 320, 240).astype(float))

    run(scenario(), timeout=60)
