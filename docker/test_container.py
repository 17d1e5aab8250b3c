"""Checks of the running demo container, through its published port (docker/test.sh starts the
containers and runs this with Debian's /usr/bin/python3 -m pytest).

The same clients as the end-to-end tests (Tests/EndToEnd): fc_client over /ws, and headless
Chromium with the browser tests' `Page` helper against the page the container serves.

Environment
- FILTERCAST_CONTAINER: `NAME=URL` of the container running the image's default command (the
  test pattern).
- FILTERCAST_CLIP_CONTAINER: `NAME=URL` of the container serving the sample clip, /media/sample.mp4.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import urllib.parse
import urllib.request
from pathlib import Path

import pytest
from PIL import ImageChops, ImageStat

REPO = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(REPO / "Tests" / "EndToEnd"), str(REPO / "Tests" / "EndToEnd" / "browser")]

import browser_pixels as px  # noqa: E402
from browser_support import BrowserPool, Page  # noqa: E402
from fc_client import Client, decode_jpeg, is_complete_jpeg, run, warmth  # noqa: E402

os.environ["NO_PROXY"] = os.environ["no_proxy"] = "*"
DIRECT = urllib.request.build_opener(urllib.request.ProxyHandler({}))


class Container:
    """A running container seen through its published port: what `Page` needs of a server."""

    def __init__(self, variable: str):
        value = os.environ.get(variable)
        if not value or "=" not in value:
            pytest.fail(f"set {variable}=NAME=URL (docker/test.sh does)")
        self.name, self.url = value.split("=", 1)
        parsed = urllib.parse.urlsplit(self.url)
        self.host, self.port = parsed.hostname, parsed.port

    def ws_url(self) -> str:
        return f"ws://{self.host}:{self.port}/ws"

    def get(self, path: str) -> tuple[int, bytes]:
        with DIRECT.open(self.url.rstrip("/") + path, timeout=5) as response:
            return response.status, response.read()

    def log_tail(self, size: int = 3000) -> str:
        result = subprocess.run(["podman", "logs", self.name], capture_output=True, text=True, timeout=10)
        return (result.stdout + result.stderr)[-size:]


@pytest.fixture(scope="session")
def pattern() -> Container:
    return Container("FILTERCAST_CONTAINER")


@pytest.fixture(scope="session")
def clip() -> Container:
    return Container("FILTERCAST_CLIP_CONTAINER")


@pytest.fixture(scope="session")
def browser():
    pool = BrowserPool()
    yield pool.get(0)
    pool.close()


def test_healthz_and_state(pattern):
    assert pattern.get("/healthz") == (200, b"ok\n")
    status, body = pattern.get("/api/state")
    assert status == 200
    source = json.loads(body)["source"]
    assert (source["kind"], source["width"], source["height"], source["fps"]) == ("test", 1280, 720, 30)


def test_frames_over_websocket_follow_the_filter(pattern):
    async def scenario():
        async with await Client.connect(pattern.ws_url()) as client:
            assert client.hello["state"]["source"]["kind"] == "test"
            frames = await client.frames(15, timeout=10)
            await client.ok({"type": "setFilter", "name": "sepia", "params": {"intensity": 1}})
            # Frames encoded before the change may still come; flag bit 0 marks the first after it.
            sepia = await client.next_frame(timeout=5, where=lambda frame: frame.state_changed)
            await client.ok({"type": "setFilter", "name": "none"})
        return frames, sepia

    frames, sepia = run(scenario())
    assert [f.seq for f in frames] == sorted({f.seq for f in frames}), "sequence numbers increase"
    for frame in frames:
        assert frame.magic == b"FCF1" and is_complete_jpeg(frame.jpeg)
        assert decode_jpeg(frame.jpeg).size == (1280, 720)
    # The test pattern is balanced (R−B ≈ −4), sepia warm (R−B ≈ +44): see test_e2e_commands.py.
    assert abs(warmth(frames[-1].rgb())) < 12 and warmth(sepia.rgb()) > 25, "sepia warms the picture"


def test_style_filter_runs_on_the_images_openvino(pattern):
    """The image carries OpenVINO and the style networks where the binary looks (next to it):
    `style` is offered, and a styled frame comes."""
    async def scenario():
        async with await Client.connect(pattern.ws_url()) as client:
            names = [entry["name"] for entry in client.hello["filters"]]
            assert "style" in names, f"no style filter in the image's catalog: {names}\n{pattern.log_tail()}"
            before = await client.next_frame(timeout=10)
            await client.ok({"type": "setFilter", "name": "style", "params": {"style": "style-3"}})
            styled = await client.next_frame(timeout=30, where=lambda frame: frame.state_changed)
            await client.ok({"type": "setFilter", "name": "none"})
        return before, styled

    before, styled = run(scenario())
    picture, styled_picture = decode_jpeg(before.jpeg).convert("RGB"), decode_jpeg(styled.jpeg).convert("RGB")
    assert styled_picture.size == (1280, 720)
    # The pattern moves little between two frames; a painting's style repaints all of it.
    change = sum(ImageStat.Stat(ImageChops.difference(picture, styled_picture)).mean) / 3
    assert change > 15, f"the styled frame differs from the source by only {change:.1f} levels"


def test_sample_clip_made_at_build_time_plays(clip):
    async def scenario():
        async with await Client.connect(clip.ws_url()) as client:
            return client.hello["state"], await client.frames(10, timeout=10)

    state, frames = run(scenario())
    assert state["source"]["kind"] == "file" and state["source"]["seekable"] is True
    assert state["duration"] == pytest.approx(20, abs=0.5)
    # Its beeping tone: the image's FFmpeg decodes AAC and resamples (libswresample).
    assert state["source"]["audio"] == {"codec": "aac", "channels": 1, "rate": 48000}, state["source"]
    assert decode_jpeg(frames[-1].jpeg).size == (1280, 720)
    assert frames[-1].pts > frames[0].pts


def offered_renditions(server: Container) -> list[dict]:
    async def hello():
        async with await Client.connect(server.ws_url()) as client:
            return client.hello["renditions"]
    return run(hello())


def test_page_draws_frames_and_applies_sepia(pattern, browser):
    page = Page(browser, pattern)
    browser.get(pattern.url)
    page.wait_for(lambda: (s := page.stats()) and s["connected"] and s["framesDrawn"] > 0, 20,
                  "the page to connect and draw a frame")
    page.wait_for(lambda: page.stats()["fps"] >= 20, 15, "about 30 fps drawn")
    # The page adapts the size to what it keeps up with (a loaded machine may move it down a
    # rung), so the picture is one the server offers for the transport the page chose.
    offered = {(r["width"], r["height"]) for r in offered_renditions(pattern)
               if r["transport"] == page.stats()["transport"]}
    assert (page.stats()["width"], page.stats()["height"]) in offered
    before = px.warm_order_fraction(page.canvas_rgb())
    assert before < 0.9, f"the test pattern is not all warm tones (R≥G≥B share {before:.3f})"

    page.choose_filter("sepia")
    page.wait_pixels(lambda rgb: (px.warm_order_fraction(rgb) > 0.97,
                                  f"R≥G≥B share {px.warm_order_fraction(rgb):.3f}"), message="a sepia picture")
    page.choose_filter("none")
    assert page.errors() == [], "JavaScript errors on the page"
