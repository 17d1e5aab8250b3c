#!/usr/bin/python3
"""Browser benchmark: what a real page gets from `filtercast serve`.

Starts the server (release build) on a test pattern (or on the clips of --inputs), opens the
viewer page in headless Chromium (with --full-size pinned to the full-size H.264 rendition,
`?rendition=h264-HEIGHTp`) and reads the page's own
measurements (window.filtercast: frames drawn, and the send → drawn
latency of every frame, from the header's server send time to the moment the frame was drawn
on the canvas, both on this machine's clock). One run per source size or clip; prints a table.
"CPU left" is what the server leaves of the 2 cores (the page runs elsewhere in real use).

    /usr/bin/python3 bench/browser.py [--bin PATH] [--sizes 1280x720,1920x1080] [--fps 30]
                                      [--inputs CLIP,CLIP] [--full-size]
                                      [--seconds 15] [--warmup 3] [--filter NAME] [--quality Q]

Issue 27's style figures (the server warms the network after its start, as `serve` does):
`--inputs NATURAL720P25,NATURAL1080P30 --filter style --full-size --warmup 8`.

Needs the Debian packages chromium, chromium-driver and python3-selenium, and a release build:
`swift build -c release` (or --bin / $FILTERCAST_BIN). Targets (issue 4): ≥ 29 fps at 1080p30
and p95 latency ≤ 50 ms.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

from bench_server import REPO, cpu_seconds, start_server, stop_server, tree_cpu_seconds

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
# Headless as root (--no-sandbox is required then), never through a proxy, and never throttled
# for being in the background: a benchmark's page is never the focused tab.
CHROMIUM_ARGUMENTS = ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--no-proxy-server",
                      "--mute-audio", "--no-first-run", "--disable-background-timer-throttling",
                      "--disable-renderer-backgrounding")


def make_driver(width: int, height: int, *extra_arguments: str):
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for argument in (*CHROMIUM_ARGUMENTS, f"--window-size={width},{height}", *extra_arguments):
        options.add_argument(argument)
    service = Service(CHROMEDRIVER)
    return webdriver.Chrome(service=service, options=options), service


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(fraction * (len(ordered) - 1))))
    return ordered[index]


def run(binary: str, source: str, seconds: float, warmup: float, filters: list[str],
        quality: int | None, full_size: bool) -> dict:
    """One server on `source` (an --input: a test pattern or a clip) with the `serve` arguments
    `filters` (`--filter`, `--param`, `--region`), and one page."""
    args = ["--input", source, *filters]
    if quality:
        args += ["--quality", str(quality)]
    server = start_server(binary, args, style_warm_up="style" in filters)
    driver = None
    try:
        driver, service = make_driver(1920, 1080)
        driver.get(server.http_url + (f"?rendition=h264-{server.height}p" if full_size else ""))
        deadline = time.monotonic() + 20
        while not driver.execute_script("return !!(window.filtercast && window.filtercast.stats.framesDrawn > 0)"):
            if time.monotonic() > deadline:
                raise RuntimeError("the page drew no frame within 20 s")
            time.sleep(0.1)
        time.sleep(warmup)  # a benchmark: let the JIT, caches and the pipeline settle

        browser_pid = service.process.pid
        driver.execute_script("window.filtercast.latencyHistory.length = 0")
        frames0 = driver.execute_script("return window.filtercast.stats.framesDrawn")
        server_cpu0, browser_cpu0, t0 = cpu_seconds(server.proc.pid), tree_cpu_seconds(browser_pid), time.monotonic()
        time.sleep(seconds)
        frames1, latencies, state = driver.execute_script(
            "const f = window.filtercast; return [f.stats.framesDrawn, f.latencyHistory.slice(), f.state]")
        elapsed = time.monotonic() - t0
        server_cpu = (cpu_seconds(server.proc.pid) - server_cpu0) / elapsed
        browser_cpu = (tree_cpu_seconds(browser_pid) - browser_cpu0) / elapsed
    finally:
        if driver:
            driver.quit()
        stop_server(server)
    return {
        "source": " ".join([Path(source).name.removeprefix("test:"), *filters[1::2]]),
        "size": f"{server.width}x{server.height}",
        "frames": frames1 - frames0,
        "fps": (frames1 - frames0) / elapsed,
        "server_fps": state["fps"],
        "p50": statistics.median(latencies),
        "p95": percentile(latencies, 0.95),
        "max": max(latencies),
        "server_cpu": server_cpu * 100,
        "browser_cpu": browser_cpu * 100,
        "seconds": elapsed,
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bin", default=os.environ.get("FILTERCAST_BIN", str(REPO / ".build/release/filtercast")))
    parser.add_argument("--sizes", default="1280x720,1920x1080")
    parser.add_argument("--fps", type=int, default=30)
    parser.add_argument("--inputs", default=None, help="clips to serve instead of the test pattern sizes")
    parser.add_argument("--full-size", action="store_true",
                        help="the page pins the full-size H.264 rendition (default: it chooses)")
    parser.add_argument("--seconds", type=float, default=15)
    parser.add_argument("--warmup", type=float, default=3)
    parser.add_argument("--filter", default=None, help="a filter to apply (default: none)")
    parser.add_argument("--quality", type=int, default=None)
    options = parser.parse_args()
    os.environ.update({"NO_PROXY": "*", "no_proxy": "*"})
    if not os.access(options.bin, os.X_OK):
        sys.exit(f"no filtercast binary at {options.bin}: swift build -c release, or --bin PATH")
    for tool in (CHROMIUM, CHROMEDRIVER):
        if not os.access(tool, os.X_OK):
            sys.exit(f"{tool} is missing: apt-get install chromium chromium-driver python3-selenium")

    print(f"filtercast: {options.bin}; headless Chromium; {options.seconds:g} s per run after {options.warmup:g} s warm-up")
    print(f"{'source':<28} {'size':>9} {'frames':>6} {'fps':>6} {'server fps':>10} {'p50 ms':>7} {'p95 ms':>7} "
          f"{'max ms':>7} {'server CPU':>10} {'CPU left':>8} {'browser CPU':>11}")
    sources = options.inputs.split(",") if options.inputs else [f"test:{size.strip()}@{options.fps}"
                                                                 for size in options.sizes.split(",")]
    results = []
    for source in sources:
        result = run(options.bin, source, options.seconds, options.warmup,
                     ["--filter", options.filter] if options.filter else [], options.quality, options.full_size)
        results.append(result)
        left = 100 * (os.cpu_count() or 1) - result["server_cpu"]
        print(f"{result['source']:<28} {result['size']:>9} {result['frames']:>6} {result['fps']:>6.1f} "
              f"{result['server_fps']:>10.1f} {result['p50']:>7.1f} {result['p95']:>7.1f} {result['max']:>7.1f} "
              f"{result['server_cpu']:>9.0f}% {left:>7.0f}% {result['browser_cpu']:>10.0f}%", flush=True)
    print("latency: server send time (frame header) → frame drawn on the page's canvas (Date.now), per frame; "
          "CPU: % of one core")
    for result in results:
        if result["source"].startswith("1920x1080@30"):
            verdict = "met" if result["fps"] >= 29 and result["p95"] <= 50 else "NOT met"
            print(f"targets at 1080p30 (≥ 29 fps, p95 ≤ 50 ms): {verdict}")


if __name__ == "__main__":
    main()
