#!/usr/bin/python3
"""Temporal stability of the `style` filter (issue 27 item 4): does a natural clip flicker more
once styled than its own motion explains?

For each style, `filtercast bench --flicker` decodes the natural 720p25 clip (natural_clip.py),
styles it (strength 1, default detail, the network at --lines lines so that runs compare) and
measures the mean absolute luma difference of consecutive frames, of the source and of the
styled frames. Prints their ratio per style and the median; exits 1 when a style's ratio is over
the goal (1.5).

    /usr/bin/python3 bench/style_flicker.py [--bin PATH] [--styles style-1,style-4] [--frames 50] [--lines 360]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

from natural_clip import natural_clip

REPO = Path(__file__).resolve().parent.parent
GOAL = 1.5
# Eight of the 26: spread over the index, with the three most restless of all 26 on 2026-12-03
# (style-16, style-20, style-10).
STYLES = ["style-1", "style-4", "style-7", "style-10", "style-13", "style-16", "style-20", "style-24"]


def flicker(binary: str, clip: Path, style: str, frames: int, lines: int) -> dict:
    command = [binary, "bench", "--input", str(clip), "--filter", "style", "--param", f"style={style}",
               "--frames", str(frames), "--threads", "2", "--flicker", "--style-lines", str(lines), "--json"]
    run = subprocess.run(command, capture_output=True, text=True)
    if run.returncode != 0:
        sys.exit(f"style_flicker.py: {' '.join(command)} failed: {run.stderr.strip()}")
    result = json.loads(run.stdout)
    if "flicker" not in result:
        sys.exit(f"style_flicker.py: {binary} does not measure flicker (bench --flicker)")
    return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bin", default=os.environ.get("FILTERCAST_BIN", str(REPO / ".build/release/filtercast")))
    parser.add_argument("--styles", default=",".join(STYLES), help="comma-separated style ids")
    parser.add_argument("--frames", type=int, default=50)
    parser.add_argument("--lines", type=int, default=360, help="the network's height (360: what an idle 2-core machine calibrates)")
    options = parser.parse_args()
    clip = natural_clip()
    print(f"style flicker, {clip.name}, {options.frames} frames, network at {options.lines} lines, "
          f"{os.cpu_count()} cores, load {os.getloadavg()[0]:.1f}", flush=True)
    print(f"{'style':<10} {'source':>7} {'styled':>7} {'ratio':>6}  fps", flush=True)
    ratios = {}
    for style in options.styles.split(","):
        result = flicker(options.bin, clip, style, options.frames, options.lines)
        measured = result["flicker"]
        ratios[style] = measured["ratio"]
        print(f"{style:<10} {measured['source']:7.2f} {measured['filtered']:7.2f} {measured['ratio']:6.2f}  "
              f"{result['fps']:.1f}", flush=True)
    median, worst = statistics.median(ratios.values()), max(ratios, key=ratios.get)
    print(f"median ratio {median:.2f}, worst {worst} {ratios[worst]:.2f} (goal ≤ {GOAL}); load {os.getloadavg()[0]:.1f}")
    return 0 if ratios[worst] <= GOAL else 1


if __name__ == "__main__":
    sys.exit(main())
