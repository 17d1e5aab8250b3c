#!/usr/bin/python3
"""Compare-view benchmark (issue 26.2): does a real page draw both sides of the wipe at the clip's
rate, in sync, and does a divider move redraw at once?

Runs `filtercast serve` (release build) on the 720p25 natural clip (bench/natural_clip.py) with
sepia on air, opens the page in headless Chromium (it chooses its program transport and rung
itself, as a viewer's would, or `--program ID` pins one: `?rendition=ID`), turns the compare view
on (`#compare`: the source's rendition of the program's size against the program) and over the window reads the page's own figures: pairs drawn per second
(`stats.compare.pairsDrawn`), the program's pictures drawn (`stats.framesDrawn`), the source's
pictures that reached the view (`stats.compare.pictures.before`), and — sampled at
every animation frame by a script of the bench — the pair on screen, whose two sides' presentation
times must be equal. Then it moves the divider (`#compare-split`) 60 times, one move per animation
frame, and reads each move's input-to-drawn time (`stats.compare.redrawMs`) against the 16.7 ms of
one animation frame at 60 Hz. Issue 26's budget: both sides ≥ 24 fps, equal times on ≥ 99 % of the
drawn frames, a move redrawn within one animation frame.

    /usr/bin/python3 bench/wipe.py [--bin PATH] [--runs 3] [--seconds 10] [--program h264-720p]
"""

from __future__ import annotations

import os
import statistics
import time

from bench_server import bench_arguments, cpu_seconds, serving, tree_cpu_seconds
from browser import make_driver
from natural_clip import natural_clip

# Records, at every animation frame, the pair on screen and the program's picture drawn.
SAMPLER = """
const f = window.filtercast, samples = [];
window.__wipe = {samples, running: true};
(function sample() {
  const pair = f.stats.compare.lastPair;
  if (pair) samples.push([pair.before, pair.after]);
  if (window.__wipe.running) requestAnimationFrame(sample);
})();
"""
# Moves the divider once per animation frame, `count` times, keeping each move's redrawMs.
MOVES = """
const done = arguments[arguments.length - 1], count = arguments[0];
const split = document.getElementById('compare-split'), times = [];
let index = 0;
(function move() {
  if (index === count) return done(times);
  split.value = String(0.1 + 0.8 * ((index * 37) % 100) / 100);
  split.dispatchEvent(new Event('input', {bubbles: true}));
  times.push(window.filtercast.stats.compare.redrawMs);
  index += 1;
  requestAnimationFrame(move);
})();
"""


def wait_for(driver, script: str, what: str, timeout: float = 20):
    deadline = time.monotonic() + timeout
    while not driver.execute_script(script):
        if time.monotonic() > deadline:
            raise RuntimeError(f"no {what} within {timeout} s")
        time.sleep(0.1)


def run(binary: str, clip: str, seconds: float, warmup: float, program: str | None) -> dict:
    with serving(binary, ["--input", clip, "--filter", "sepia"]) as server:
        driver, service = make_driver(1920, 1080)
        try:
            driver.get(server.http_url + (f"?rendition={program}" if program else ""))
            wait_for(driver, "return !!(window.filtercast && window.filtercast.stats.framesDrawn > 0)", "frame")
            wait_for(driver, "return !document.getElementById('compare').hidden", "Compare toggle")
            driver.execute_script("document.getElementById('compare').click()")
            wait_for(driver, "return window.filtercast.stats.compare.pairsDrawn > 0", "pair")
            time.sleep(warmup)  # a benchmark: let the JIT, caches and both connections settle

            read = "const s = window.filtercast.stats; return [s.compare.pairsDrawn, s.framesDrawn, s.transport, s.compare.before, s.compare.pictures.before]"
            pairs0, frames0, _, _, before0 = driver.execute_script(read)
            server_cpu0, browser_cpu0, t0 = cpu_seconds(server.proc.pid), tree_cpu_seconds(service.process.pid), time.monotonic()
            driver.execute_script(SAMPLER)
            time.sleep(seconds)
            driver.execute_script("window.__wipe.running = false")
            pairs1, frames1, transport, before, before1 = driver.execute_script(read)
            elapsed = time.monotonic() - t0
            server_cpu = (cpu_seconds(server.proc.pid) - server_cpu0) / elapsed
            browser_cpu = (tree_cpu_seconds(service.process.pid) - browser_cpu0) / elapsed
            samples = driver.execute_script("return window.__wipe.samples")
            driver.set_script_timeout(30)
            moves = [m for m in driver.execute_async_script(MOVES, 60) if m is not None]
        finally:
            driver.quit()
    return {
        "pair_fps": (pairs1 - pairs0) / elapsed,
        "program_fps": (frames1 - frames0) / elapsed,
        "before_fps": (before1 - before0) / elapsed,  # the source's pictures that reached the view
        "paired": (pairs1 - pairs0) / max(frames1 - frames0, 1),
        "equal": sum(1 for b, a in samples if b == a) / max(len(samples), 1),
        "samples": len(samples),
        "redraw_p50": statistics.median(moves),
        "redraw_max": max(moves),
        "server_cpu": server_cpu * 100,
        "browser_cpu": browser_cpu * 100,
        "transport": f"program {transport}, before {before}",
    }


def main():
    parser = bench_arguments(__doc__.split("\n")[0], runs=3, seconds=10)
    parser.add_argument("--program", default=None, help="the program's rendition to pin (default: the page chooses)")
    options = parser.parse_args()
    clip = str(natural_clip())
    print(f"compare view, 720p25 natural clip, sepia on air, program {options.program or 'as the page chooses'} ({os.cpu_count()} cores, load {os.getloadavg()[0]:.1f})")
    results = []
    for _ in range(options.runs):
        result = run(options.bin, clip, options.seconds, warmup=3, program=options.program)
        results.append(result)
        print(f"pairs {result['pair_fps']:5.1f} fps, program {result['program_fps']:5.1f} fps, "
              f"source {result['before_fps']:5.1f} fps, "
              f"{result['paired'] * 100:5.1f} % of program pictures paired, equal times {result['equal'] * 100:.1f} % "
              f"of {result['samples']} animation frames; divider move drawn in {result['redraw_p50']:.2f} ms "
              f"(max {result['redraw_max']:.2f}); server {result['server_cpu']:.0f}% browser {result['browser_cpu']:.0f}% "
              f"of a core; {result['transport']}; load {os.getloadavg()[0]:.1f}", flush=True)
    median = lambda key: statistics.median(r[key] for r in results)  # noqa: E731
    print(f"median: pairs {median('pair_fps'):.1f} fps (min {min(r['pair_fps'] for r in results):.1f}), "
          f"equal times {median('equal') * 100:.1f} %, divider move {median('redraw_p50'):.2f} ms "
          f"(worst {max(r['redraw_max'] for r in results):.2f} ms; one animation frame: 16.7 ms)", flush=True)


if __name__ == "__main__":
    main()
