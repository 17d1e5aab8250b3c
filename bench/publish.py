#!/usr/bin/python3
"""Publish benchmark: what `--publish` costs at 720p30, with an encode of its own and sharing the
page's full-size H.264 rendition (`--publish-rendition`, the default).

Runs `filtercast serve` (release build) on the 1280x720@30 test pattern with sepia and one
WebSocket viewer (`--viewer h264`: on the full-size H.264 rendition, as the page on a good link;
`jpeg`: the full-size JPEG), in turn without `--publish`, publishing with an encode of its own
(`--publish-rendition own`) and publishing the shared rendition, to the `ffmpeg` CLI listening for
RTMP on loopback (`-c copy -f null`). For each run it prints the frame rate the viewer got, the
preview frames the server encoded per second (/metrics), and the CPU of the server's threads over
the window (from /proc: `publish` is the stream's encoder (if its own) and muxer, `h264` the
rendition's encoder, `process` the filter and JPEG, `decode` the source); then the medians.

    /usr/bin/python3 bench/publish.py [--bin PATH] [--runs 3] [--seconds 15] [--viewer h264|jpeg]
"""

from __future__ import annotations

import argparse
import asyncio
import http.client
import os
import re
import socket
import statistics
import subprocess
import time

from bench_server import REPO, serving, thread_cpu_seconds
from fc_client import Client


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def frames_encoded(port: int) -> float:
    """The server's filtercast_frames_encoded_total: the preview frames it filtered and encoded."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    connection.request("GET", "/metrics")
    text = connection.getresponse().read().decode()
    connection.close()
    return float(re.search(r"^filtercast_frames_encoded_total (\S+)$", text, re.MULTILINE).group(1))


MODES = ("none", "own", "shared")


def measure(binary: str, mode: str, viewer: str, seconds: float) -> tuple:
    """(viewer fps, server preview fps, {thread: % of a core}) for one server run."""
    args = ["--input", "test:1280x720@30", "--filter", "sepia"]
    receiver = None
    if mode != "none":
        url = f"rtmp://127.0.0.1:{free_port()}/live/bench"
        receiver = subprocess.Popen(["ffmpeg", "-nostdin", "-loglevel", "error", "-listen", "1", "-i", url,
                                     "-c", "copy", "-f", "null", "-"],
                                    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(0.5)
        args += ["--publish", url] + (["--publish-rendition", "own"] if mode == "own" else [])
    try:
        with serving(binary, args) as server:
            return asyncio.run(watch(server, viewer, seconds))
    finally:
        if receiver:
            receiver.kill()
            receiver.wait()


async def watch(server, viewer: str, seconds: float) -> tuple:
    """One viewer of `server` for `seconds` after a warm-up: see `measure`."""
    async with await Client.connect(server.ws_url()) as client:
        if viewer == "h264":
            await client.ok({"type": "watch", "transport": "h264", "rendition": "h264-720p"})
        await client.collect(3.0)  # warm-up: connection, encoder start
        encoded, before, start = frames_encoded(server.port), thread_cpu_seconds(server.proc.pid), time.monotonic()
        items = await client.collect(seconds)
        after, end = thread_cpu_seconds(server.proc.pid), time.monotonic()
        encoded = frames_encoded(server.port) - encoded
        frames = sum(1 for item in items if not isinstance(item, dict))
        cpu = {name: 100 * (after[name] - before.get(name, 0)) / (end - start) for name in after}
        return frames / (end - start), encoded / (end - start), cpu


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--bin", default=os.environ.get("FILTERCAST_BIN", str(REPO / ".build/release/filtercast")))
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=15)
    parser.add_argument("--viewer", choices=("h264", "jpeg"), default="h264")
    options = parser.parse_args()
    results: dict = {mode: [] for mode in MODES}
    for _ in range(options.runs):
        for mode in MODES:
            fps, encoded, cpu = measure(options.bin, mode, options.viewer, options.seconds)
            results[mode].append((fps, encoded, cpu))
            print(f"publish={mode:6} viewer {fps:5.1f} fps  server {encoded:5.1f} fps  publish {cpu.get('publish', 0):5.1f}%  "
                  f"h264 {cpu.get('h264', 0):5.1f}%  process {cpu.get('process', 0):4.1f}%  decode {cpu.get('decode', 0):4.1f}%  "
                  f"all threads {sum(cpu.values()):5.1f}%", flush=True)
    for mode in MODES:
        runs = results[mode]
        print(f"median, publish={mode}: viewer {statistics.median(r[0] for r in runs):.1f} fps, "
              f"server {statistics.median(r[1] for r in runs):.1f} fps, "
              f"publish thread {statistics.median(r[2].get('publish', 0) for r in runs):.1f}% of a core, "
              f"h264 thread {statistics.median(r[2].get('h264', 0) for r in runs):.1f}%, "
              f"all threads {statistics.median(sum(r[2].values()) for r in runs):.1f}%")


if __name__ == "__main__":
    main()
