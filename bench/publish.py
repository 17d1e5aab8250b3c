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
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "Tests", "EndToEnd"))
from fc_client import Client  # noqa: E402
from fc_server import child_environment  # noqa: E402

TICKS = os.sysconf("SC_CLK_TCK")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def thread_cpu(pid: int) -> dict:
    """CPU seconds so far of each of `pid`'s threads, by thread name."""
    seconds: dict = {}
    for tid in os.listdir(f"/proc/{pid}/task"):
        try:
            name = open(f"/proc/{pid}/task/{tid}/comm").read().strip()
            fields = open(f"/proc/{pid}/task/{tid}/stat").read().rsplit(")", 1)[1].split()
        except FileNotFoundError:
            continue  # the thread ended
        seconds[name] = seconds.get(name, 0) + (int(fields[11]) + int(fields[12])) / TICKS
    return seconds


def frames_encoded(port: int) -> float:
    """The server's filtercast_frames_encoded_total: the preview frames it filtered and encoded."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    connection.request("GET", "/metrics")
    text = connection.getresponse().read().decode()
    connection.close()
    return float(re.search(r"^filtercast_frames_encoded_total (\S+)$", text, re.MULTILINE).group(1))


def measure(binary: str, publish: bool, seconds: float) -> tuple:
    """(viewer fps, server preview fps, {thread: % of a core}) for one server run."""
    args = [binary, "serve", "--port", "0", "--web", os.path.join(ROOT, "web"), "--input", "test:1280x720@30",
            "--filter", "sepia"]
    receiver = None
    if publish:
        url = f"rtmp://127.0.0.1:{free_port()}/live/bench"
        receiver = subprocess.Popen(["ffmpeg", "-nostdin", "-loglevel", "error", "-listen", "1", "-i", url,
                                     "-c", "copy", "-f", "null", "-"],
                                    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(0.5)
        args += ["--publish", url]
    server = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=child_environment(),
                              text=True)
    try:
        port = int(re.search(r":(\d+)/$", server.stdout.readline().strip()).group(1))

        async def watch():
            async with await Client.connect(f"ws://127.0.0.1:{port}/ws") as client:
                await client.collect(3.0)  # warm-up: connection, encoder start
                encoded, before, start = frames_encoded(port), thread_cpu(server.pid), time.monotonic()
                items = await client.collect(seconds)
                after, end = thread_cpu(server.pid), time.monotonic()
                encoded = frames_encoded(port) - encoded
                frames = sum(1 for item in items if not isinstance(item, dict))
                cpu = {name: 100 * (after[name] - before.get(name, 0)) / (end - start) for name in after}
                return frames / (end - start), encoded / (end - start), cpu
        return asyncio.run(watch())
    finally:
        server.terminate()
        server.wait(5)
        if receiver:
            receiver.kill()
            receiver.wait()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--bin", default=os.environ.get("FILTERCAST_BIN", os.path.join(ROOT, ".build/release/filtercast")))
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
