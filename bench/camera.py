#!/usr/bin/python3
"""Camera benchmark: a browser's camera as the source (`share`), on natural footage.

Headless Chromium's fake camera plays the natural 1280x720 clip (bench/natural_clip.py, made
30 fps) and the page shares it (`#camera-share`: WebCodecs H.264); `filtercast serve` (release
build, a 1280x720 session, sepia) makes it the source; a WebSocket viewer (Python, JPEG) watches.
Over the window it prints what issue 15 asks of it: the frame rate the other viewer gets, the
sharing page's capture → filtered frame drawn round trip (p50/p95, its own clock), the upload
(bits a second of the picture messages, /metrics) and the CPU of the server's `decode` thread,
which decodes the camera's pictures (% of a core, /proc).

    /usr/bin/python3 bench/camera.py [--bin PATH] [--seconds 15]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import shutil
import subprocess
import time
import urllib.request

from bench_server import REPO, serving, thread_cpu_seconds
from browser import make_driver, percentile
from fc_client import Client
from natural_clip import cache_dir, natural_clip


def camera_file() -> str:
    """The natural clip as the fake camera's y4m (30 fps, 6 s; Chromium loops it)."""
    path = cache_dir() / "camera-natural720p30.y4m"
    if not path.exists():
        subprocess.run([shutil.which("ffmpeg"), "-nostdin", "-v", "error", "-y", "-i", str(natural_clip()), "-t", "6",
                        "-vf", "fps=30", "-pix_fmt", "yuv420p", str(path)], check=True, timeout=300)
    return str(path)


def metric(port: int, name: str) -> float:
    text = urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5).read().decode()
    return float(re.search(rf"^{name} (\S+)$", text, re.MULTILINE).group(1))


async def watch(server, seconds: float) -> float:
    async with await Client.connect(server.ws_url()) as viewer:
        await viewer.collect(1.0)
        started = time.monotonic()
        items = await viewer.collect(seconds)
        return sum(1 for item in items if not isinstance(item, dict)) / (time.monotonic() - started)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--bin", default=os.environ.get("FILTERCAST_BIN", str(REPO / ".build/release/filtercast")))
    parser.add_argument("--seconds", type=float, default=15)
    options = parser.parse_args()
    camera = camera_file()
    driver, _ = make_driver(1280, 900, "--use-fake-device-for-media-stream", "--use-fake-ui-for-media-stream",
                            f"--use-file-for-fake-video-capture={camera}")
    try:
        with serving(options.bin, ["--input", "test:1280x720@30", "--filter", "sepia"]) as server:
            driver.get(f"http://127.0.0.1:{server.port}/")
            time.sleep(2)
            driver.find_element("id", "camera-share").click()
            deadline = time.monotonic() + 20
            while driver.execute_script("return window.filtercast.state?.source?.kind") != "browser":
                assert time.monotonic() < deadline, "the camera did not become the source"
                time.sleep(0.2)
            time.sleep(3)  # warm-up: encoder, decoder, the first keyframes
            driver.execute_script("window.filtercast.cameraRoundTripHistory.length = 0")
            bytes_before, cpu_before = metric(server.port, "filtercast_ingest_bytes_total"), thread_cpu_seconds(server.proc.pid)
            started = time.monotonic()
            fps = asyncio.run(watch(server, options.seconds))
            elapsed = time.monotonic() - started
            upload = (metric(server.port, "filtercast_ingest_bytes_total") - bytes_before) * 8 / elapsed
            decode = 100 * (thread_cpu_seconds(server.proc.pid).get("decode", 0) - cpu_before.get("decode", 0)) / elapsed
            trips = driver.execute_script("return window.filtercast.cameraRoundTripHistory.slice()")
            dropped = metric(server.port, "filtercast_ingest_dropped_total")
    finally:
        driver.quit()
    print(f"camera 1280x720@30 (natural clip, WebCodecs H.264) → sepia → a JPEG viewer: {fps:.1f} fps; "
          f"round trip p50 {percentile(trips, 0.5):.0f} ms, p95 {percentile(trips, 0.95):.0f} ms ({len(trips)} frames); "
          f"upload {upload / 1e6:.2f} Mbit/s; decode thread {decode:.1f}% of a core; {dropped:.0f} pictures dropped")


if __name__ == "__main__":
    main()
