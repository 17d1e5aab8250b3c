#!/usr/bin/python3
"""Adaptation on a busy machine (issue 37, item 4): does a page on loopback keep the largest
rendition while the machine is loaded, and how often is it moved?

Serves the natural 720p25 clip (bench/natural_clip.py) with sepia to headless Chromium on
`/?transport=T` over the machine's own loopback, with `--load N` busy loops of our own running
(`python3 -c 'while 1: pass'`, started after the page drew its first picture, stopped at the end).
Once a quarter second it samples the size the page draws; from the server's /metrics it reads the
viewer's moves (`filtercast_rendition_switches_total`). Prints, per transport: moves a minute, the
share of the time at full size, the page's fps and the server's, and the load average.

`--drag` moves the filter's first slider back and forth all along, as a user dragging it (the page
sends a `setParams` per input event).

    /usr/bin/python3 bench/adapt_load.py [--bin PATH] [--transports auto,jpeg] [--load 2] [--seconds 60] [--drag]
"""
from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
import urllib.request
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Iterator

from bench_server import REPO, serving
from chromium_pipe import Page
from natural_clip import natural_clip

BUSY_LOOP = ["/usr/bin/python3", "-c", "while 1: pass"]
# The page's drawn size and count, and the last state's `fps`: the rate the server makes (a server
# that cannot keep up, on a busy machine, is told from a page that cannot).
SAMPLE = """(() => { const f = window.filtercast, s = f.stats;
  return [s.width, s.height, s.framesDrawn, f.state?.fps ?? 0]; })()"""


@contextmanager
def busy_loops(count: int) -> Iterator[None]:
    """`count` processes that spin a core each, stopped (by their own pids) when the block ends."""
    loops = [subprocess.Popen(BUSY_LOOP) for _ in range(count)]
    try:
        yield
    finally:
        for loop in loops:
            loop.kill()
            loop.wait()


def switches(metrics_url: str) -> int:
    """The viewers' moves so far, both directions (/metrics)."""
    text = urllib.request.urlopen(metrics_url, timeout=5).read().decode()
    return sum(int(float(line.split()[-1])) for line in text.splitlines()
               if line.startswith("filtercast_rendition_switches_total{"))


@dataclass
class Run:
    transport: str
    seconds: float
    moves: int
    at_full: float  # share of the samples drawn at full size
    fps: float  # drawn by the page
    server_fps: float  # made by the server (the median of state.fps)
    load: float  # the 1-minute load average at the end

    def line(self) -> str:
        return (f"{self.transport:<5} {self.moves * 60 / self.seconds:12.1f} {100 * self.at_full:12.0f}% "
                f"{self.fps:6.1f} {self.server_fps:10.1f} {self.load:6.1f}")


# A user dragging the first parameter's slider back and forth, an input event every 50 ms (as a
# mouse drag gives them), until the page is closed.
DRAG = """(() => { const slider = document.querySelector('#params input[type=range]');
  if (!slider) return false;
  let step = 0;
  setInterval(() => {
    const span = Number(slider.max) - Number(slider.min), phase = (step++ % 40) / 20;
    slider.value = String(Number(slider.min) + span * (phase <= 1 ? phase : 2 - phase));
    slider.dispatchEvent(new Event("input", { bubbles: true }));
  }, 50);
  return true; })()"""


def measure(binary: str, clip, transport: str, load: int, seconds: float, settle: float, filter_name: str = "sepia",
            drag: bool = False) -> Run:
    with serving(binary, ["--input", str(clip), "--filter", filter_name]) as server, Page() as page:
        full = (server.width, server.height)
        page.open(f"{server.http_url}?transport={transport}")
        page.wait_for("window.filtercast && window.filtercast.stats.framesDrawn > 0", 30, "the page drew no frame")
        if drag and not page.evaluate(DRAG):
            raise RuntimeError(f"{filter_name} has no slider to drag")
        with busy_loops(load):
            time.sleep(settle)
            moves_before, frames_before = switches(server.http_url + "metrics"), page.evaluate(SAMPLE)[2]
            started, samples = time.monotonic(), []
            while time.monotonic() - started < seconds:
                time.sleep(0.25)
                samples.append(page.evaluate(SAMPLE))
            elapsed = time.monotonic() - started
            moves = switches(server.http_url + "metrics") - moves_before
            load_average = os.getloadavg()[0]
    at_full = sum(1 for width, height, *_ in samples if (width, height) == full) / len(samples)
    return Run(transport, elapsed, moves, at_full, (samples[-1][2] - frames_before) / elapsed,
               statistics.median(sample[3] for sample in samples), load_average)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bin", default=os.environ.get("FILTERCAST_BIN", str(REPO / ".build/release/filtercast")))
    parser.add_argument("--transports", default="auto,jpeg")
    parser.add_argument("--load", type=int, default=2, help="busy loops to run (default 2)")
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--settle", type=float, default=3)
    parser.add_argument("--filter", default="sepia", help="the filter served (default sepia; none: the clip as it is)")
    parser.add_argument("--drag", action="store_true", help="drag the filter's first slider all along (20 steps a second)")
    options = parser.parse_args()
    os.environ.update({"NO_PROXY": "*", "no_proxy": "*"})
    if not os.access(options.bin, os.X_OK):
        sys.exit(f"no filtercast binary at {options.bin}: swift build -c release, or --bin PATH")
    clip = natural_clip()
    print(f"{options.bin}: natural 720p25 + {options.filter}{' (its slider dragged)' if options.drag else ''}, loopback, {options.load} busy loops, {options.seconds:g} s "
          f"({os.cpu_count()} cores, load {os.getloadavg()[0]:.1f} before)")
    print(f"{'asked':<5} {'moves/min':>12} {'full size':>13} {'fps':>6} {'server fps':>10} {'load':>6}")
    for transport in options.transports.split(","):
        print(measure(options.bin, clip, transport, options.load, options.seconds, options.settle, options.filter,
                      options.drag).line(), flush=True)


if __name__ == "__main__":
    main()
