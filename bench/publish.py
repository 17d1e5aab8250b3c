#!/usr/bin/python3
"""Publish benchmark: what `--publish` costs at 720p30.

Runs `filtercast serve` (release build) on the 1280x720@30 test pattern with sepia and one
WebSocket viewer, alternately without and with `--publish` to the `ffmpeg` CLI listening for RTMP
on loopback (`-c copy -f null`). For each run it prints the frame rate the viewer got, the preview
frames the server encoded per second (/metrics), and the CPU of the server's threads over the
window (from /proc: `publish` is the H.264 encoder and muxer, `process` the filter and JPEG,
`decode` the source); then the medians.

    /usr/bin/python3 bench/publish.py [--bin PATH] [--runs 3] [--seconds 15]
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


def measure(binary: str, publish: bool, seconds: float) -> tuple:
    """(viewer fps, server preview fps, {thread: % of a core}) for one server run."""
    args = ["--input", "test:1280x720@30", "--filter", "sepia"]
    receiver = None
    if publish:
        url = f"rtmp://127.0.0.1:{free_port()}/live/bench"
        receiver = subprocess.Popen(["ffmpeg", "-nostdin", "-loglevel", "error", "-listen", "1", "-i", url,
                                     "-c", "copy", "-f", "null", "-"],
                                    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(0.5)
        args += ["--publish", url]
    try:
        with serving(binary, args) as server:
            return asyncio.run(watch(server, seconds))
    finally:
        if receiver:
            receiver.kill()
            receiver.wait()


async def watch(server, seconds: float) -> tuple:
    """One viewer of `server` for `seconds` after a warm-up: see `measure`."""
    async with await Client.connect(server.ws_url()) as client:
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
    options = parser.parse_args()
    results: dict = {False: [], True: []}
    for _ in range(options.runs):
        for publish in (False, True):
            fps, encoded, cpu = measure(options.bin, publish, options.seconds)
            results[publish].append((fps, encoded, cpu))
            print(f"publish={'yes' if publish else 'no '} viewer {fps:5.1f} fps  server {encoded:5.1f} fps  publish {cpu.get('publish', 0):5.1f}%  "
                  f"process {cpu.get('process', 0):4.1f}%  decode {cpu.get('decode', 0):4.1f}%  "
                  f"all threads {sum(cpu.values()):5.1f}%", flush=True)
    for publish in (False, True):
        runs = results[publish]
        print(f"median, publish={'yes' if publish else 'no '}: viewer {statistics.median(r[0] for r in runs):.1f} fps, "
              f"server {statistics.median(r[1] for r in runs):.1f} fps, "
              f"publish thread {statistics.median(r[2].get('publish', 0) for r in runs):.1f}% of a core, "
              f"all threads {statistics.median(sum(r[2].values()) for r in runs):.1f}%")


if __name__ == "__main__":
    main()
