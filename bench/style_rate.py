#!/usr/bin/python3
"""The style beside the picture (issue 42): what a page gets from `serve --filter style` on natural
footage — the fps it draws, its send → draw latency, and how many times a second the style
refreshes (`window.filtercast.stats.styleRefreshHz`) — against the same page without the filter
(the peer), and under each priority the network's threads could run at.

The server runs the network's threads (its links' workers and OpenVINO's own threads, made by the
warm-up) at nice 10. After the warm-up this script finds them (the server's threads at nice 10) and,
for the other variants, moves them to another priority from outside (re-applied every second, for
threads made later): `idle` SCHED_IDLE, `batch` SCHED_BATCH at nice 10, `normal` nice 0 (the frame
path's own). Variants and rounds alternate; prints each run, then each variant's median of rounds,
its fps as a fraction of the peer's, and the processor's name (figures differ 5× between machines
of one kind: say which).

    /usr/bin/python3 bench/style_rate.py [--bin PATH] [--input CLIP] [--variants none,nice10,idle,batch,normal]
                                         [--rounds 2] [--seconds 15] [--warmup 8] [--cpus 0] [--slowdown 5.5]

`--cpus LIST` runs the server under `taskset -c LIST` (e.g. `0`: one core, a slower machine's
share); `--slowdown F` makes every network run take F times as long (`FILTERCAST_STYLE_SLOWDOWN`):
issue 42's slower processor, whose network took 46 ms a run at 144 lines, is F = 46 / this
machine's run (printed by `filtercast bench --filter style --style-lines 144`). Needs chromium, chromium-driver and python3-selenium, and a release build.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

from bench_server import REPO, processor, start_server, stop_server, threads_at_nice
from browser import make_driver, percentile
from natural_clip import natural_clip

PRIORITIES = ("nice10", "idle", "batch", "normal")
NETWORK_NICE = 10


def network_threads(pid: int, known: set[int]) -> set[int]:
    """The server's threads at the network's nice value, with those found before."""
    return set(known) | threads_at_nice(pid, NETWORK_NICE)


def apply_priority(threads: set[int], variant: str):
    """Moves `threads` to `variant`'s priority (nothing for nice10: as the server set it)."""
    for tid in threads:
        try:
            if variant == "idle":
                os.sched_setscheduler(tid, os.SCHED_IDLE, os.sched_param(0))
            elif variant == "batch":
                os.sched_setscheduler(tid, os.SCHED_BATCH, os.sched_param(0))
            elif variant == "normal":
                os.setpriority(os.PRIO_PROCESS, tid, 0)
        except (ProcessLookupError, PermissionError):
            pass


def measure(binary: str, clip: Path, variant: str, seconds: float, warmup: float, cpus: str | None,
            slowdown: float) -> dict:
    """One server and one page pinned to the full-size H.264 rendition."""
    args = ["--input", str(clip)] + ([] if variant == "none" else ["--filter", "style"])
    command = binary if not cpus else str(write_taskset_wrapper(binary, cpus))
    server = start_server(command, args, style_warm_up=variant != "none",
                          env={"FILTERCAST_STYLE_SLOWDOWN": f"{slowdown:g}"})
    driver = None
    try:
        driver, _ = make_driver(1920, 1080)
        driver.get(server.http_url + f"?rendition=h264-{server.height}p")
        deadline = time.monotonic() + 30
        while not driver.execute_script("return !!(window.filtercast && window.filtercast.stats.framesDrawn > 0)"):
            if time.monotonic() > deadline:
                raise RuntimeError("the page drew no frame within 30 s")
            time.sleep(0.1)
        threads: set[int] = set()
        end_warmup = time.monotonic() + warmup
        while time.monotonic() < end_warmup:  # a benchmark: the JIT, caches, the network's height settle
            threads = network_threads(server.proc.pid, threads) if variant != "none" else threads
            apply_priority(threads, variant)
            time.sleep(0.5)
        driver.execute_script("window.filtercast.latencyHistory.length = 0")
        frames0 = driver.execute_script("return window.filtercast.stats.framesDrawn")
        start, rates = time.monotonic(), []
        while time.monotonic() - start < seconds:
            time.sleep(1)
            if variant != "none":
                threads = network_threads(server.proc.pid, threads)
                apply_priority(threads, variant)
            rate = driver.execute_script("return window.filtercast.stats.styleRefreshHz")
            if rate is not None:
                rates.append(rate)
        frames1, latencies = driver.execute_script(
            "const f = window.filtercast; return [f.stats.framesDrawn, f.latencyHistory.slice()]")
        elapsed = time.monotonic() - start
    finally:
        if driver:
            driver.quit()
        stop_server(server)
    return {"variant": variant, "fps": (frames1 - frames0) / elapsed, "p95": percentile(latencies, 0.95),
            "refresh": statistics.median(rates) if rates else None, "threads": len(threads)}


def write_taskset_wrapper(binary: str, cpus: str) -> Path:
    """An executable that runs `binary` under `taskset -c cpus` (the server harness takes one path)."""
    wrapper = Path(os.environ.get("TMPDIR", "/tmp")) / f"filtercast-taskset-{cpus.replace(',', '_')}.sh"
    wrapper.write_text(f"#!/bin/sh\nexec taskset -c {cpus} {binary} \"$@\"\n")
    wrapper.chmod(0o755)
    return wrapper


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bin", default=os.environ.get("FILTERCAST_BIN", str(REPO / ".build/release/filtercast")))
    parser.add_argument("--input", default=None, help="a clip (default: the natural 720p25 clip)")
    parser.add_argument("--variants", default="none," + ",".join(PRIORITIES))
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--seconds", type=float, default=15)
    parser.add_argument("--warmup", type=float, default=8)
    parser.add_argument("--cpus", default=None, help="run the server under taskset -c CPUS")
    parser.add_argument("--slowdown", type=float, default=1, help="each network run takes this many times as long")
    options = parser.parse_args()
    os.environ.update({"NO_PROXY": "*", "no_proxy": "*"})
    if not os.access(options.bin, os.X_OK):
        sys.exit(f"no filtercast binary at {options.bin}: swift build -c release, or --bin PATH")
    variants = options.variants.split(",")
    unknown = [v for v in variants if v not in ("none", *PRIORITIES)]
    if unknown:
        sys.exit(f"unknown variants {unknown}: none, {', '.join(PRIORITIES)}")
    clip = Path(options.input) if options.input else natural_clip()
    print(f"style beside the picture: {clip.name}, page on h264 full size, {options.seconds:g} s a run after "
          f"{options.warmup:g} s, {options.rounds} rounds; {processor()}; load {os.getloadavg()[0]:.1f}"
          + (f"; server on cpus {options.cpus}" if options.cpus else "")
          + (f"; network slowed {options.slowdown:g}×" if options.slowdown != 1 else ""), flush=True)
    print(f"{'variant':<8} {'fps':>6} {'p95 ms':>7} {'style/s':>8} {'threads':>7}", flush=True)
    runs: dict[str, list[dict]] = {variant: [] for variant in variants}
    for round_ in range(options.rounds):
        for variant in (variants if round_ % 2 == 0 else list(reversed(variants))):
            result = measure(options.bin, clip, variant, options.seconds, options.warmup, options.cpus, options.slowdown)
            runs[variant].append(result)
            refresh = f"{result['refresh']:.1f}" if result["refresh"] is not None else "–"
            print(f"{variant:<8} {result['fps']:>6.1f} {result['p95']:>7.0f} {refresh:>8} {result['threads']:>7}", flush=True)
    peer = statistics.median(r["fps"] for r in runs["none"]) if runs.get("none") else None
    print(f"median of {options.rounds} rounds (load now {os.getloadavg()[0]:.1f}):")
    for variant, results in runs.items():
        fps = statistics.median(r["fps"] for r in results)
        rates = [r["refresh"] for r in results if r["refresh"] is not None]
        ratio = f"  {fps / peer:.2f}× the unfiltered page" if peer else ""
        style = f", style {statistics.median(rates):.1f}/s" if rates else ""
        print(f"  {variant:<8} {fps:.1f} fps, p95 {statistics.median(r['p95'] for r in results):.0f} ms{style}{ratio}")


if __name__ == "__main__":
    main()
