#!/usr/bin/python3
"""The person matte on a page (issue 41): what headless Chromium draws of `serve` with
`backgroundBlur` (amount 1) and with `sepia` on the background only, against the same page without
a filter (the peer), on natural footage at 720p25 and 1080p30, the page pinned to the full-size
H.264 rendition. Per run: the fps the page draws, its send → drawn latency (p95), the server's CPU
and what it leaves of the machine's cores. Variants and rounds alternate; prints each run, then
each variant's median and its fps as a fraction of the peer's, and the goals: 720p25 blur ≥ 24 fps,
p95 ≤ 100 ms, ≥ 30 % of a core left; 1080p30 blur ≥ 25 fps; 720p25 sepia on the background ≥ 24 fps.

    /usr/bin/python3 bench/matte_page.py [--bin PATH] [--sizes 720,1080] [--rounds 2] [--seconds 15] [--warmup 5]

Needs chromium, chromium-driver and python3-selenium, ffmpeg (the clips) and a release build with
the person matte laid out (`filtercast filters` lists `matte`).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys

from bench_server import REPO, processor
from browser import run
from natural_clip import natural_clip, natural_clip_1080p30

VARIANTS = {
    "none": [],
    "blur": ["--filter", "backgroundBlur", "--param", "amount=1"],
    "bg-sepia": ["--filter", "sepia", "--region", "background"],
}
# (size, variant) → (the least fps, the most p95 ms, the least % of a core left); None: not a goal.
GOALS = {("720", "blur"): (24, 100, 30), ("1080", "blur"): (25, None, None), ("720", "bg-sepia"): (24, None, None)}


def verdict(size: str, variant: str, fps: float, p95: float, left: float) -> str:
    goal = GOALS.get((size, variant))
    if not goal:
        return ""
    least_fps, most_p95, least_left = goal
    met = fps >= least_fps and (most_p95 is None or p95 <= most_p95) and (least_left is None or left >= least_left)
    wanted = [f"≥ {least_fps} fps"] + ([f"p95 ≤ {most_p95} ms"] if most_p95 else []) + \
             ([f"≥ {least_left} % of a core left"] if least_left else [])
    return f"  goal {', '.join(wanted)}: {'met' if met else 'NOT met'}"


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bin", default=os.environ.get("FILTERCAST_BIN", str(REPO / ".build/release/filtercast")))
    parser.add_argument("--sizes", default="720,1080")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--seconds", type=float, default=15)
    parser.add_argument("--warmup", type=float, default=5)
    options = parser.parse_args()
    os.environ.update({"NO_PROXY": "*", "no_proxy": "*"})
    if not os.access(options.bin, os.X_OK):
        sys.exit(f"no filtercast binary at {options.bin}: swift build -c release, or --bin PATH")
    if "\nmatte " not in "\n" + subprocess.run([options.bin, "filters"], capture_output=True, text=True).stdout:
        sys.exit("no person matte in this build (filtercast filters lists no matte): nothing measured")
    clips = {"720": natural_clip, "1080": natural_clip_1080p30}
    sizes = options.sizes.split(",")
    cores = os.cpu_count() or 1
    print(f"person matte on a page: natural clip, H.264 full size, {options.seconds:g} s a run after "
          f"{options.warmup:g} s, {options.rounds} rounds; {processor()}; load {os.getloadavg()[0]:.1f}", flush=True)
    print(f"{'size':<5} {'variant':<9} {'fps':>6} {'p95 ms':>7} {'server':>7} {'left':>6}", flush=True)
    runs: dict[tuple[str, str], list[dict]] = {}
    for round_ in range(options.rounds):
        for size in sizes:
            clip = str(clips[size]())
            names = list(VARIANTS) if round_ % 2 == 0 else list(reversed(VARIANTS))
            for name in names:
                result = run(options.bin, clip, options.seconds, options.warmup, VARIANTS[name], None, True)
                result["left"] = 100 * cores - result["server_cpu"]
                runs.setdefault((size, name), []).append(result)
                print(f"{size:<5} {name:<9} {result['fps']:>6.1f} {result['p95']:>7.0f} "
                      f"{result['server_cpu']:>6.0f}% {result['left']:>5.0f}%", flush=True)
    print(f"median of {options.rounds} rounds (load now {os.getloadavg()[0]:.1f}); CPU in % of one core:")
    for size in sizes:
        peer = statistics.median(r["fps"] for r in runs[(size, "none")])
        for name in VARIANTS:
            results = runs[(size, name)]
            fps, p95, left = (statistics.median(r[key] for r in results) for key in ("fps", "p95", "left"))
            print(f"  {size}p {name:<9} {fps:.1f} fps ({fps / peer:.2f}× the unfiltered page), p95 {p95:.0f} ms, "
                  f"{left:.0f} % of a core left" + verdict(size, name, fps, p95, left))


if __name__ == "__main__":
    main()
