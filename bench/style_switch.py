#!/usr/bin/python3
"""Switching to `style` in the page (issue 27): how long from the click on the filter picker's
"Style transfer" to the first styled picture drawn (goal ≤ 1 s), and the longest gap between two
pictures drawn meanwhile (does the stream stall while the network loads?).

Each run starts a fresh `filtercast serve` (release build) on a still 720p25 clip (a photograph from
opencv-doc, so that the only change of the picture is the filter's), opens the page in headless
Chromium, waits for pictures, then clicks `style`: the first switch of the process (cold; the server
warms the network after its start, as `serve` does unless `--style-at-first-use`). Then `None` and
`style` again (warm). A picture counts as styled when a 32×18 thumbnail of the canvas differs from
the one before the click by more than THRESHOLD.

    /usr/bin/python3 bench/style_switch.py [--bin PATH] [--runs 3]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

from bench_server import REPO, serving
from browser import make_driver
from natural_clip import cache_dir, opencv_data

GOAL_MS = 1000
THRESHOLD = 20  # mean absolute RGB difference of the thumbnails, 0…255; JPEG/H.264 noise is < 3
SCRIPT = """
    const [filter, threshold, done] = [arguments[0], arguments[1], arguments[arguments.length - 1]];
    const f = window.filtercast, view = document.getElementById("view");
    const thumb = document.createElement("canvas");
    [thumb.width, thumb.height] = [32, 18];
    const context = thumb.getContext("2d", { willReadFrequently: true });
    const grab = () => { context.drawImage(view, 0, 0, 32, 18); return context.getImageData(0, 0, 32, 18).data; };
    const change = (a, b) => { let sum = 0; for (let i = 0; i < a.length; i++) if (i % 4 !== 3) sum += Math.abs(a[i] - b[i]); return sum / (a.length * 3 / 4); };
    const reference = grab(), start = performance.now();
    let drawn = f.stats.framesDrawn, last = start, gap = 0;
    document.querySelector(`#filters [data-filter="${filter}"]`).click();
    (function check() {
        const now = performance.now();
        if (f.stats.framesDrawn !== drawn) {
            drawn = f.stats.framesDrawn;
            gap = Math.max(gap, now - last);
            last = now;
            const moved = change(grab(), reference);
            if (moved > threshold) return done({ ms: now - start, gap: gap, change: moved });
        }
        if (now - start > 20000) return done({ ms: -1, gap: Math.max(gap, now - last), change: 0 });
        requestAnimationFrame(check);
    })();"""


def still_clip() -> Path:
    """A 60 s 720p25 H.264 clip of one photograph (made once, cached)."""
    path = cache_dir() / "still720-aloeL.mp4"
    if not path.exists():
        photo = opencv_data(cache_dir()) / "aloeL.jpg"
        subprocess.run(["ffmpeg", "-hide_banner", "-loglevel", "error", "-y", "-loop", "1", "-framerate", "25",
                        "-i", str(photo), "-t", "60", "-vf", "scale=1280:720,format=yuv420p", "-c:v", "libx264",
                        "-preset", "fast", "-crf", "18", str(path)], check=True)
    return path


def wait_for_pictures(driver) -> None:
    deadline = time.monotonic() + 20
    while not driver.execute_script("const f = window.filtercast; return !!f && f.stats.framesDrawn > 10 && "
                                    "!!document.querySelector('#filters [data-filter=\"style\"]')"):
        if time.monotonic() > deadline:
            sys.exit("style_switch.py: the page drew no pictures or offers no style within 20 s")
        time.sleep(0.1)


def run(binary: str, clip: Path) -> tuple[dict, dict]:
    """One fresh server: the cold switch to style, then (after None) the warm one."""
    with serving(binary, ["--input", str(clip)], startup_timeout=60, style_warm_up=True) as server:
        driver, _ = make_driver(1280, 900)
        try:
            driver.set_script_timeout(30)
            driver.get(server.http_url)
            wait_for_pictures(driver)
            cold = driver.execute_async_script(SCRIPT, "style", THRESHOLD)
            time.sleep(1.0)
            driver.execute_async_script(SCRIPT, "none", THRESHOLD)
            time.sleep(1.0)
            warm = driver.execute_async_script(SCRIPT, "style", THRESHOLD)
        finally:
            driver.quit()
    return cold, warm


def main() -> int:
    clip = still_clip()
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bin", default=os.environ.get("FILTERCAST_BIN", str(REPO / ".build/release/filtercast")))
    parser.add_argument("--runs", type=int, default=3)
    options = parser.parse_args()
    print(f"switch to style in the page, {clip.name}, {os.cpu_count()} cores, load {os.getloadavg()[0]:.1f}", flush=True)
    colds = []
    for index in range(options.runs):
        cold, warm = run(options.bin, clip)
        colds.append(cold["ms"] if cold["ms"] >= 0 else float("inf"))
        print(f"  run {index + 1}: cold {cold['ms']:.0f} ms (longest gap {cold['gap']:.0f} ms), "
              f"warm {warm['ms']:.0f} ms (gap {warm['gap']:.0f} ms) — load {os.getloadavg()[0]:.1f}", flush=True)
    median = statistics.median(colds)
    print(f"first styled picture, cold: median {median:.0f} ms, max {max(colds):.0f} ms (goal ≤ {GOAL_MS} ms); "
          f"load {os.getloadavg()[0]:.1f}")
    return 0 if median <= GOAL_MS else 1


if __name__ == "__main__":
    sys.exit(main())
