"""A recording as a `<video>` source in a real browser: with byte ranges the browser can seek in
it without downloading it first (before them, Chromium saw no seekable range and stayed at 0)."""

from __future__ import annotations

import http.server
import threading
import time

import pytest

from fc_server import make_clip
from browser_support import reset_browser

RECORDING = "2026-01-01T00-00-00Z.mp4"


@pytest.fixture
def embedding_page():
    """A page of another origin on loopback (the server's own CSP allows no media), empty."""
    class Empty(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            body = b"<!doctype html><title>embedding page</title><body></body>"
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Empty)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_port}/"
    server.shutdown()


def test_a_video_element_seeks_in_a_download(launch, browsers, embedding_page, tmp_path):
    folder = tmp_path / "library"
    folder.mkdir()
    # moov at the end, as ffmpeg writes it: the browser must ask for the end of the file first.
    make_clip(folder / RECORDING, "testsrc2=size=320x240:rate=30", 12, "-g", "15")
    server = launch("--recordings", str(folder), "--input", "test:160x120@15")
    driver = browsers.get(0)
    try:
        driver.get(embedding_page)
        driver.execute_script("""
            const video = document.createElement('video');
            video.muted = true;
            video.preload = 'auto';
            video.src = arguments[0];
            document.body.append(video);""", server.url + "recordings/" + RECORDING)
        deadline = time.monotonic() + 10
        while driver.execute_script("return document.querySelector('video').readyState") < 1:
            assert time.monotonic() < deadline, driver.execute_script(
                "const v = document.querySelector('video'); return v.error && v.error.message")
            time.sleep(0.05)
        duration, seekable_end = driver.execute_script(
            "const v = document.querySelector('video'); return [v.duration, v.seekable.length ? v.seekable.end(0) : 0]")
        assert duration == pytest.approx(12, abs=0.1)
        assert seekable_end == pytest.approx(12, abs=0.1), "the browser sees no seekable range"
        driver.execute_script("document.querySelector('video').currentTime = 8")
        deadline = time.monotonic() + 10
        while True:
            position, seeking = driver.execute_script(
                "const v = document.querySelector('video'); return [v.currentTime, v.seeking]")
            if not seeking:
                break
            assert time.monotonic() < deadline, "the seek did not finish"
            time.sleep(0.05)
        assert position == pytest.approx(8, abs=0.1), f"the video is at {position} s after a seek to 8 s"
    finally:
        reset_browser(driver)
