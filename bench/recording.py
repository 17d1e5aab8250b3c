#!/usr/bin/python3
"""Recording benchmark: does a running recording cost the preview anything?

For each size, starts `filtercast serve` (release build) on the test pattern at 30 fps with one
WebSocket viewer (frames acknowledged as they arrive), then measures over `--seconds`:
  1. the preview alone: frames the viewer received per second;
  2. the same while recording (`record start`, filtered): the viewer's fps again, the recording
     thread's CPU (the `record` thread in /proc: libx264 encoding and the MP4 writing), the
     whole server's CPU, frames the recorder dropped, and the file's bytes per second.
Each size runs `--runs` times; the table shows medians. CPU is in % of one core.

    /usr/bin/python3 bench/recording.py [--bin PATH] [--sizes 1280x720,1920x1080] [--seconds 10]
                                        [--runs 3] [--filter sepia]

Needs a release build (`swift build -c release`, or --bin / $FILTERCAST_BIN) and Debian's
python3-websockets. Target (issue 6): the preview keeps 30 fps at 720p30 while recording.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import sys
import tempfile
import time

import websockets

from bench_server import REPO, cpu_seconds, serving, thread_cpu_seconds


def record_cpu_seconds(pid: int) -> float:
    """CPU time of the server's recording thread so far (0 when it has none)."""
    return thread_cpu_seconds(pid).get("record", 0.0)


async def measure(url: str, pid: int, seconds: float, warmup: float, record: bool) -> dict:
    async with websockets.connect(url, subprotocols=["filtercast.v1"], max_size=None, ping_interval=None,
                                  compression=None) as ws:
        state = {}

        async def receive_for(duration: float) -> int:
            frames = 0
            end = time.monotonic() + duration
            while (remaining := end - time.monotonic()) > 0:
                try:
                    message = await asyncio.wait_for(ws.recv(), remaining)
                except asyncio.TimeoutError:
                    break
                if isinstance(message, bytes):
                    frames += 1
                    seq = int.from_bytes(message[8:16], "little")
                    await ws.send(json.dumps({"type": "frameAck", "seq": seq}))
                else:
                    parsed = json.loads(message)
                    if parsed.get("type") == "state":
                        state.update(parsed)
            return frames

        if record:
            await ws.send(json.dumps({"type": "record", "action": "start"}))
        await receive_for(warmup)
        cpu0, rec0 = cpu_seconds(pid), record_cpu_seconds(pid) if record else 0.0
        bytes0 = state.get("recording", {}).get("bytes", 0)
        dropped0 = state.get("recording", {}).get("droppedFrames", 0)
        start = time.monotonic()
        frames = await receive_for(seconds)
        elapsed = time.monotonic() - start
        cpu1, rec1 = cpu_seconds(pid), record_cpu_seconds(pid) if record else 0.0
        result = {"fps": frames / elapsed, "server_cpu": 100 * (cpu1 - cpu0) / elapsed}
        if record:
            recording = state.get("recording", {})
            result.update(record_cpu=100 * (rec1 - rec0) / elapsed,
                          dropped=recording.get("droppedFrames", 0) - dropped0,
                          mbit=8 * (recording.get("bytes", 0) - bytes0) / elapsed / 1e6,
                          encoder=recording.get("encoder"))
            await ws.send(json.dumps({"type": "record", "action": "stop"}))
            await receive_for(1.0)
        return result


def run_size(binary: str, size: str, args) -> dict:
    results = {"off": [], "on": []}
    with tempfile.TemporaryDirectory(prefix="filtercast-bench-rec-") as folder:
        for _ in range(args.runs):
            for mode in ("off", "on"):
                with serving(binary, ["--input", f"test:{size}@30", "--filter", args.filter,
                                      "--recordings", folder]) as server:
                    results[mode].append(asyncio.run(measure(server.ws_url(), server.proc.pid, args.seconds, args.warmup, mode == "on")))
    return results


def median(values: list) -> float:
    return statistics.median(values) if values else float("nan")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bin", default=os.environ.get("FILTERCAST_BIN", str(REPO / ".build" / "release" / "filtercast")))
    parser.add_argument("--sizes", default="1280x720,1920x1080")
    parser.add_argument("--seconds", type=float, default=10)
    parser.add_argument("--warmup", type=float, default=2)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--filter", default="sepia")
    args = parser.parse_args()
    if not os.access(args.bin, os.X_OK):
        sys.exit(f"no filtercast binary at {args.bin}: swift build -c release")
    load = os.getloadavg()[0]
    print(f"filter {args.filter}, {args.seconds:g} s per measurement, median of {args.runs} runs, "
          f"load average {load:.1f} on {os.cpu_count()} cores")
    print("| size | preview fps, no recording | preview fps, recording | recording thread CPU % | "
          "server CPU % (off → on) | recording frames dropped | video Mbit/s | encoder |")
    print("|---|---:|---:|---:|---:|---:|---:|---|")
    for size in args.sizes.split(","):
        results = run_size(args.bin, size, args)
        off, on = results["off"], results["on"]
        print(f"| {size} | {median([r['fps'] for r in off]):.1f} | {median([r['fps'] for r in on]):.1f} | "
              f"{median([r['record_cpu'] for r in on]):.0f} | "
              f"{median([r['server_cpu'] for r in off]):.0f} → {median([r['server_cpu'] for r in on]):.0f} | "
              f"{median([r['dropped'] for r in on]):.0f} | {median([r['mbit'] for r in on]):.1f} | "
              f"{on[0]['encoder'] if on else ''} |", flush=True)


if __name__ == "__main__":
    main()
