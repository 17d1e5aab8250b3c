#!/usr/bin/python3
"""Frame steps: what one frame forward or back costs, from the command to the frame sent.

Serves (release build) a 12 s cut of the natural 720p25 clip re-encoded with a keyframe every 5 s
and B-frames, pauses one viewer in the middle of the first GOP, then steps frame by frame, as the
page's `,` and `.` keys do (a `seek` to the next or previous frame's time), timing each from the
command leaving to the frame of that time arriving on loopback. The peer: the `ffmpeg` CLI seeking
to the same times and decoding the one frame (`-ss T -i clip -frames:v 1`), what any step that
seeks and decodes from the keyframe costs; a step that costs a frame is far below it.

    /usr/bin/python3 bench/step.py [--bin PATH] [--steps 30] [--at 2.4]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import subprocess
import time

from bench_server import REPO, serving
from fc_client import Client
from natural_clip import cache_dir, natural_clip

FPS = 25


def stepping_clip() -> str:
    """The natural clip's first 12 s with a keyframe every 5 s and 3 B-frames (made once)."""
    path = cache_dir() / "step-720p25-gop5.mp4"
    if not path.is_file():
        subprocess.run(["ffmpeg", "-hide_banner", "-loglevel", "error", "-y", "-i", str(natural_clip()), "-t", "12",
                        "-c:v", "libx264", "-preset", "fast", "-crf", "18", "-g", str(5 * FPS), "-keyint_min", str(5 * FPS),
                        "-sc_threshold", "0", "-bf", "3", str(path)], check=True)
    return str(path)


async def step_times(url: str, start: float, steps: int) -> tuple[list, list]:
    """Milliseconds from each step's command to its frame: `steps` forward from `start`, then as
    many back."""
    async with await Client.connect(url) as client:
        await client.ok({"type": "pause"})
        await client.ok({"type": "seek", "position": start})
        await client.next_frame(timeout=10, where=lambda f: abs(f.pts - start) < 0.5 / FPS)
        frame_index = round(start * FPS)
        timings = {1: [], -1: []}
        for direction in (1, -1):
            for _ in range(steps):
                frame_index += direction
                target = frame_index / FPS
                sent = time.monotonic()
                await client.send_json({"type": "seek", "position": target, "id": client.new_id()})
                frame = await client.next_frame(timeout=10, where=lambda f: abs(f.pts - target) < 0.5 / FPS)
                timings[direction].append((frame.received - sent) * 1000)
        return timings[1], timings[-1]


def peer_times(clip: str, times: list) -> list:
    """Milliseconds the ffmpeg CLI takes to seek to each time and decode that frame (its start-up
    of ~0.2 s measured apart and taken off)."""
    def run(*seek: str) -> float:
        began = time.monotonic()
        subprocess.run(["ffmpeg", "-hide_banner", "-loglevel", "error", *seek, "-i", clip, "-frames:v", "1",
                        "-f", "null", "-"], check=True)
        return (time.monotonic() - began) * 1000
    startup = statistics.median(run() for _ in range(5))
    return [max(0.0, run("-ss", f"{t:.3f}") - startup) for t in times]


def summary(values: list) -> str:
    ordered = sorted(values)
    return f"p50 {statistics.median(ordered):6.1f}  p95 {ordered[int(0.95 * (len(ordered) - 1))]:6.1f}  max {ordered[-1]:6.1f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bin", default=os.environ.get("FILTERCAST_BIN", str(REPO / ".build/release/filtercast")))
    parser.add_argument("--steps", type=int, default=30)
    parser.add_argument("--at", type=float, default=2.4, help="where the steps start (s): the GOP runs 0-5 s")
    options = parser.parse_args()
    clip = stepping_clip()
    with serving(options.bin, ["--input", clip]) as server:
        forward, backward = asyncio.run(step_times(server.ws_url(), options.at, options.steps))
    times = [options.at + k / FPS for k in range(1, options.steps + 1)]
    peer = peer_times(clip, times[:10])
    print(f"frame steps, 720p25 natural clip, 5 s GOP, from {options.at} s ({os.cpu_count()} cores, "
          f"load {os.getloadavg()[0]:.1f}), ms from the command to the frame:")
    print(f"  forward  {summary(forward)}")
    print(f"  backward {summary(backward)}")
    print(f"  peer: ffmpeg -ss T, one frame decoded {summary(peer)}")
    print(f"  ratio forward/peer p50 {statistics.median(forward) / max(statistics.median(peer), 1e-3):.2f}, "
          f"backward/peer {statistics.median(backward) / max(statistics.median(peer), 1e-3):.2f}")


if __name__ == "__main__":
    main()
