"""My camera's shape and choice: an upright camera (a phone held upright) reaches the viewers
upright at its own size (the session takes it), or pillarboxed with --size, never stretched; with
several cameras, #camera-device switches the shared one."""

from __future__ import annotations

import shutil
import subprocess

import numpy as np
import pytest

from browser_support import BrowserPool
from test_camera import open_on


@pytest.fixture(scope="module")
def upright_camera(tmp_path_factory):
    """Chromium's fake camera playing a white 360x640 clip."""
    path = tmp_path_factory.mktemp("upright") / "upright.y4m"
    subprocess.run([shutil.which("ffmpeg"), "-nostdin", "-v", "error", "-y", "-f", "lavfi", "-i",
                    "color=c=white:size=360x640:rate=30", "-t", "2", "-pix_fmt", "yuv420p", str(path)],
                   check=True, timeout=60)
    pool = BrowserPool("--use-fake-device-for-media-stream", "--use-fake-ui-for-media-stream",
                       f"--use-file-for-fake-video-capture={path}")
    yield pool.get(0)
    pool.close()


@pytest.fixture(scope="module")
def three_cameras():
    # Chromium's fake cameras: 0 gives I420, 1 Y16 (a depth camera: nothing to encode), 2 MJPEG.
    pool = BrowserPool("--use-fake-device-for-media-stream=device-count=3", "--use-fake-ui-for-media-stream")
    yield pool.get(0)
    pool.close()


def pillarboxed(rgb: np.ndarray):
    luma = rgb.astype(np.float64).mean(axis=(0, 2))  # per column
    width = len(luma)
    # 360x640 in 640x360: a 202-pixel white column in the middle, black either side.
    bars = max(luma[: width * 30 // 100].max(), luma[width * 70 // 100:].max())
    middle = luma[width * 40 // 100: width * 60 // 100].min()
    return bars < 30 and middle > 200, f"bars {bars:.0f}, middle {middle:.0f}"


def upright(rgb: np.ndarray):
    # The session takes the camera's size: 360x640, the fake camera's white all across.
    height, width = rgb.shape[:2]
    least = rgb.astype(np.float64).mean(axis=(0, 2)).min()
    return (width, height) == (360, 640) and least > 200, f"{width}x{height}, darkest column {least:.0f}"


@pytest.mark.parametrize("size, shown", [([], upright), (["--size", "640x360"], pillarboxed)], ids=["own size", "fixed size"])
def test_an_upright_camera_plays_upright_or_pillarboxed_at_a_fixed_size(launch, upright_camera, open_page, size, shown):
    server = launch("--input", "test:640x360@30", *size)
    sharer = open_on(upright_camera, server)
    sharer.find("#camera-share").click()
    watcher = open_page(server)
    state = watcher.wait_state(lambda s: s["source"]["kind"] == "browser", timeout=15, message="the camera as the source")
    # The fake camera's label is the clip's path: viewers are not shown it.
    assert state["source"]["name"] == "shared camera", state["source"]["name"]
    watcher.wait_pixels(shown, timeout=10, message="the upright camera")
    assert sharer.errors() == [] and watcher.errors() == []


def test_the_camera_picker_switches_cameras(launch, three_cameras):
    server = launch("--input", "test:640x360@30")
    page = open_on(three_cameras, server)
    assert not page.visible("#camera-device")
    page.find("#camera-share").click()
    first = page.wait_state(lambda s: s["source"]["kind"] == "browser", timeout=15, message="the camera as the source")
    page.wait_for(lambda: page.visible("#camera-device"), 10, "the camera picker")
    options = page.js("return [...document.querySelectorAll('#camera-device option')].map(o => [o.value, o.textContent, o.selected])")
    assert len(options) == 3, options
    chosen = next(option for option in options if option[2])
    assert first["source"]["name"] == f"{chosen[1]} (shared camera)"
    other = next(option for option in options if option[1] == "fake_device_2")
    page.js("const p = document.getElementById('camera-device'); p.value = arguments[0];"
            "p.dispatchEvent(new Event('change', {bubbles: true}));", other[0])
    page.wait_state(lambda s: s["source"]["kind"] == "browser" and s["source"]["name"] == f"{other[1]} (shared camera)", timeout=15,
                    message="the other camera shared")
    page.wait_frames(30)
    assert page.find("#camera-share").get_attribute("aria-pressed") == "true"
    # Stopping brings back what played before the first camera, not the first camera.
    page.find("#camera-share").click()
    page.wait_state(lambda s: s["source"]["kind"] == "test", timeout=10, message="the input back")
    assert not page.visible("#camera-device")
    assert page.errors() == []
