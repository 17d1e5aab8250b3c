"""My camera (#camera-share): Chromium's fake camera, playing a red clip with a moving box,
shared from one page as the session's source; another page watches it filtered; the sharing
page shows its round trip (stats.cameraRoundTripMs); stopping brings the input back."""

from __future__ import annotations

import re
import shutil
import subprocess

import numpy as np
import pytest

from browser_support import BrowserPool, Page, reset_browser
from test_h264 import before_every_page

pytestmark = pytest.mark.solo  # the camera's rate at a watcher: run alone


@pytest.fixture(scope="module")
def camera_clip(tmp_path_factory):
    path = tmp_path_factory.mktemp("camera") / "camera.y4m"
    subprocess.run([shutil.which("ffmpeg"), "-nostdin", "-v", "error", "-y", "-f", "lavfi", "-i",
                    "color=c=0xc8281e:size=640x360:rate=30,drawbox=x='mod(t*200,500)':y=100:w=80:h=80:c=white:t=fill",
                    "-t", "4", "-pix_fmt", "yuv420p", str(path)], check=True, timeout=60)
    return path


@pytest.fixture(scope="module")
def camera_browser(camera_clip):
    pool = BrowserPool("--use-fake-device-for-media-stream", "--use-fake-ui-for-media-stream",
                       f"--use-file-for-fake-video-capture={camera_clip}")
    yield pool.get(0)
    pool.close()


def redness(rgb: np.ndarray) -> float:
    return float(rgb[..., 0].astype(np.float64).mean() - rgb[..., 2].astype(np.float64).mean())


def open_on(driver, server, query: str = "?rendition=jpeg-360p") -> Page:
    reset_browser(driver)
    page = Page(driver, server)
    driver.get(server.url + query)
    page.wait_for(lambda: (s := page.stats()) and s["connected"] and s["framesDrawn"] > 0, 15, "the page to draw")
    return page


@pytest.mark.parametrize("encoder", ["h264", "jpeg"])
def test_my_camera_becomes_everybodys_source(launch, camera_browser, open_page, encoder):
    server = launch("--input", "test:640x360@30", "--filter", "invert")
    # Without WebCodecs' VideoEncoder the page sends JPEGs.
    with before_every_page(camera_browser, "delete window.VideoEncoder;" if encoder == "jpeg" else ""):
        sharer = open_on(camera_browser, server)
        share(sharer, open_page(server), server, encoder)


def share(sharer, watcher, server, encoder):
    assert sharer.text("#camera-share-label") == "My camera"
    sharer.find("#camera-share").click()
    state = watcher.wait_state(lambda s: s["source"]["kind"] == "browser", timeout=15, message="the camera as the source")
    assert state["source"]["startInput"] is False and state["source"]["name"]
    assert sharer.find("#camera-share").get_attribute("aria-pressed") == "true"
    assert sharer.text("#camera-share-label") == "Stop camera"
    # The watcher sees the camera's red, inverted: cyan (the test pattern is balanced).
    watcher.wait_pixels(lambda rgb: (redness(rgb) < -80, f"R−B {redness(rgb):.0f}"), timeout=10,
                        message="the shared camera, inverted")
    watcher.wait_for(lambda: watcher.stats()["fps"] >= 25, 10, "the camera's rate at the watcher")
    # The sharing page measures capture → its own filtered frame drawn.
    sharer.wait_for(lambda: isinstance(sharer.stats().get("cameraRoundTripMs"), (int, float)), 10, "a round trip")
    sharer.wait_frames(60)
    round_trip = sharer.stats()["cameraRoundTripMs"]
    # Capture → encode → server decode, filter, encode → page decode and draw, on loopback.
    assert 0 <= round_trip < 150, round_trip
    # The sharer sees it in the status line; a watcher has none.
    sharer.wait_for(lambda: re.fullmatch(r"\d+ ms", sharer.text("#stat-camera")) and sharer.visible("#stat-camera"),
                    2, "the round trip in the status line")
    assert not watcher.visible("#stat-camera")
    print(f"camera round trip {round_trip} ms, watcher {watcher.stats()['fps']} fps")
    sharer.find("#camera-share").click()
    watcher.wait_state(lambda s: s["source"]["kind"] == "test", timeout=10, message="the input back")
    assert sharer.stats()["cameraRoundTripMs"] is None
    sharer.wait_for(lambda: not sharer.visible("#stat-camera"), 2, "the round trip gone from the status line")
    assert sharer.errors() == [] and watcher.errors() == []
    assert f"codec={encoder}" in server.log_tail(20000)


def test_the_recorder_flow_with_my_camera(launch, camera_browser, tmp_path):
    """The seed app's whole flow, in a browser against a headless server: share the camera,
    record 5 s, stop, find the recording in the library, play it, seek in it, delete it, and
    back to the input."""
    server = launch("--input", "test:640x360@30")
    page = open_on(camera_browser, server)
    page.find("#camera-share").click()
    page.wait_state(lambda s: s["source"]["kind"] == "browser", timeout=15, message="the camera as the source")
    page.find("#record").click()
    page.wait_state(lambda s: s["recording"]["active"] and s["recording"]["elapsed"] >= 5, timeout=15, message="5 s recorded")
    page.find("#record").click()
    state = page.wait_state(lambda s: not s["recording"]["active"], timeout=10, message="the recording stopped")
    name = state["recording"]["name"]
    # The Sources panel's My camera is the same sharing: marked while it plays, and it stops it.
    camera = '#sources [data-source="camera"]'
    page.wait_for(lambda: page.find(camera).get_attribute("aria-current") == "true", message="My camera marked")
    assert page.text("#sources-camera-title") == "Stop my camera"
    page.find("#sources-camera").click()
    page.wait_state(lambda s: s["source"]["kind"] == "test", timeout=10, message="the input back")
    page.wait_for(lambda: page.find("#camera-share").get_attribute("data-state") == "off", message="the button off")
    assert page.find(camera).get_attribute("aria-current") is None and page.text("#sources-camera-title") == "My camera"

    item = f'#recordings [data-recording="{name}"]'
    page.find("#library-refresh").click()
    page.wait_for(lambda: page.find_all(item), 10, "the recording in the library")
    page.click(item + ' [data-action="play"]')
    playing = page.wait_state(lambda s: s["source"]["name"] == f"recordings/{name}", timeout=10, message="the recording playing")
    assert abs(playing["duration"] - 5) < 1, playing["duration"]
    page.wait_for(lambda: page.find(item).get_attribute("aria-current") == "true", message="the recording marked")
    # The camera's red is in the file.
    page.wait_pixels(lambda rgb: (redness(rgb) > 80, f"R−B {redness(rgb):.0f}"), timeout=10, message="the camera's picture")
    page.pause()
    page.js("""const seek = document.getElementById('seek'); seek.value = 2.5;
               seek.dispatchEvent(new Event('input', {bubbles: true})); seek.dispatchEvent(new Event('change', {bubbles: true}));""")
    page.wait_state(lambda s: abs(s["position"] - 2.5) < 0.2, timeout=10, message="the seek")
    page.delete_from_list(item)
    page.wait_for(lambda: not page.find_all(item), 10, "the recording gone")
    page.wait_state(lambda s: s["source"]["startInput"], timeout=10, message="back to the input")
    assert not (tmp_path / "recordings" / name).exists()
    assert page.errors() == []
