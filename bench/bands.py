#!/usr/bin/python3
"""Bands benchmark: what `serve --filter-threads N` gains per filter.

For each filter, starts `filtercast serve` (release build) on a 1080p30 clip with one MJPEG
reader (frames are filtered only while someone watches) and takes the mean of the server's
`filtercast_filter_seconds` histogram over `--seconds`, with `--filter-threads 1` and then N,
`--runs` times in turn. The single-threaded run is the peer: the table shows the medians and
their ratio. In `serve` the paced decoder leaves most of the second core idle, which is what
bands use (the server splits a filter only where that proves faster, see SplitChooser).

    /usr/bin/python3 bench/bands.py [--bin PATH] [--threads 2] [--seconds 6] [--runs 1] [--filters a,b]

Needs a release build (`swift build -c release`, or --bin / $FILTERCAST_BIN) and the ffmpeg CLI
(the clip is made once under /tmp/filtercast-bench, as bench/compare.sh does).
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import threading
import time
import urllib.request
from pathlib import Path

from bench_server import REPO, start_server, stop_server

# Filters and the parameters that make them work (identity defaults moved off), at 1080p.
FILTERS = {
    "sepia": [],
    "gaussianBlur": [],
    "boxBlur": [],
    "motionBlur": ["angle=29"],
    "sharpen": [],
    "unsharpMask": [],
    "comic": [],
    "edges": [],
    "edgeWork": [],
    "bloom": [],
    "vignette": ["intensity=0.5"],
    "pixellate": [],
    "crystallize": [],
    "twirl": ["radius=1000"],
    "kaleidoscope": [],
}


def clip() -> Path:
    path = Path("/tmp/filtercast-bench/testsrc2-1920x1080-10s-crf23.mp4")
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        subprocess.run(["ffmpeg", "-nostdin", "-loglevel", "error", "-y", "-f", "lavfi", "-i",
                        "testsrc2=size=1920x1080:rate=30", "-t", "10", "-c:v", "libx264", "-preset", "fast",
                        "-crf", "23", "-pix_fmt", "yuv420p", str(path)], check=True)
    return path


def filter_seconds(url: str) -> tuple[float, float]:
    """The histogram's sum and count, from the /metrics of the server at `url`."""
    text = urllib.request.urlopen(url + "metrics", timeout=5).read().decode()
    total = float(re.search(r"^filtercast_filter_seconds_sum (\S+)$", text, re.M)[1])
    count = float(re.search(r"^filtercast_filter_seconds_count (\S+)$", text, re.M)[1])
    return total, count


def mean_filter_ms(binary: str, path: Path, name: str, params: list[str], threads: int, seconds: float) -> float:
    args = ["--input", str(path), "--filter", name, "--filter-threads", str(threads)]
    for param in params:
        args += ["--param", param]
    server = start_server(binary, args)
    stop = threading.Event()

    def read_stream():
        with urllib.request.urlopen(server.http_url + "stream.mjpg", timeout=10) as stream:
            while not stop.is_set() and stream.read(1 << 16):
                pass

    reader = threading.Thread(target=read_stream, daemon=True)
    reader.start()
    try:
        time.sleep(2)  # warm-up: maps and scratch are built on the first frames
        sum0, count0 = filter_seconds(server.http_url)
        time.sleep(seconds)
        sum1, count1 = filter_seconds(server.http_url)
        return 1000 * (sum1 - sum0) / max(count1 - count0, 1)
    finally:
        stop.set()
        stop_server(server)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bin", default=os.environ.get("FILTERCAST_BIN", str(REPO / ".build/release/filtercast")))
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--seconds", type=float, default=6)
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--filters", default=",".join(FILTERS))
    options = parser.parse_args()
    path = clip()
    print(f"filter at 1080p30 in serve, mean ms/frame over {options.seconds:g} s, median of {options.runs} "
          f"({os.cpu_count()} cores, load {os.getloadavg()[0]:.1f})")
    print(f"{'filter':<14} {'1 thread':>9} {f'{options.threads} threads':>10} {'speed-up':>9}")
    for name in options.filters.split(","):
        ones, manys = [], []
        for _ in range(options.runs):
            ones.append(mean_filter_ms(options.bin, path, name, FILTERS.get(name, []), 1, options.seconds))
            manys.append(mean_filter_ms(options.bin, path, name, FILTERS.get(name, []), options.threads, options.seconds))
        one, many = statistics.median(ones), statistics.median(manys)
        print(f"{name:<14} {one:9.2f} {many:10.2f} {one / many:8.2f}×", flush=True)


if __name__ == "__main__":
    main()
