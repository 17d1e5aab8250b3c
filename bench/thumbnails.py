#!/usr/bin/python3
"""Seek-bar thumbnails: how long the sprite of a 10-minute 720p file takes, against the ffmpeg CLI
making the same sprite, and whether a viewer keeps its frame rate meanwhile.

Makes (once) 10 minutes of the natural 720p25 clip (looped, streams copied: its GOP of 10 s),
serves it (release build, a fresh data folder: nothing cached) with one viewer watching (its frame
rate counted for 20 s before, then while the sprite is made), asks
`GET /api/thumbnails` until it answers 200 (asked every 0.2 s), and reads the CPU time of the
server's `thumbnails` thread (/proc/PID/task/TID/stat). The peer, run alone afterwards at the same
priority: `nice -n 19 ffmpeg -threads 1 -filter_threads 1 -i FILE -vf fps=0.5,scale=160:-1,tile=10x30
-frames:v 1 sprite.jpg` (one thread, the same 300 thumbnails 160 px wide in one JPEG), its CPU time
from the kernel's accounting of the child; then again with the decoding shortcuts the server's
sprite decoder takes (`-skip_frame noref -skip_loop_filter all`).

    /usr/bin/python3 bench/thumbnails.py [--bin PATH] [--minutes 10]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import resource
import subprocess
import tempfile
import time
from pathlib import Path

from bench_server import REPO, serving, thread_cpu_seconds
from fc_client import Client
from natural_clip import cache_dir, natural_clip

# What the server's preview decoder skips (non-reference pictures, deblocking), as ffmpeg's options.
SHORTCUTS = ("-skip_frame", "noref", "-skip_loop_filter", "all")


def long_clip(minutes: int) -> Path:
    """`minutes` of the natural clip, looped with its streams copied (made once)."""
    path = cache_dir() / f"natural-720p25-{minutes}min.mp4"
    if not path.is_file():
        subprocess.run(["ffmpeg", "-hide_banner", "-loglevel", "error", "-y", "-stream_loop", "-1", "-i", str(natural_clip()),
                        "-t", str(minutes * 60), "-c", "copy", str(path)], check=True)
    return path


def frame_count(items: list) -> int:
    return sum(1 for item in items if not isinstance(item, dict))


async def watched_fps(server, seconds_ceiling: float = 3600) -> tuple[float, float, float, dict]:
    """Seconds from the first request to the 200, the frames per second a viewer got in the
    20 s before it and meanwhile, the listing."""
    async with await Client.connect(server.ws_url()) as viewer:
        await viewer.frames(10, timeout=10)
        before = frame_count(await viewer.collect(20)) / 20
        began = time.monotonic()
        count = 0
        answer = server.get("/api/thumbnails")
        while answer.status == 202 and time.monotonic() - began < seconds_ceiling:
            count += frame_count(await viewer.collect(0.2))
            answer = server.get("/api/thumbnails")
        seconds = time.monotonic() - began
    assert answer.status == 200, (answer.status, answer.text())
    return seconds, before, count / seconds, json.loads(answer.body)


def peer(clip: Path, folder: str, *decoding: str) -> tuple[float, float]:
    """Wall and CPU seconds of the ffmpeg CLI making the same sprite on one thread at nice 19
    (with the decoder options `decoding`)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    began = time.monotonic()
    subprocess.run(["nice", "-n", "19", "ffmpeg", "-hide_banner", "-loglevel", "error", "-y", "-threads", "1", "-filter_threads", "1",
                    *decoding, "-i", str(clip), "-vf", "fps=0.5,scale=160:-1,tile=10x30", "-frames:v", "1", "-q:v", "5",
                    os.path.join(folder, "peer.jpg")], check=True)
    wall = time.monotonic() - began
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bin", default=os.environ.get("FILTERCAST_BIN", str(REPO / ".build/release/filtercast")))
    parser.add_argument("--minutes", type=int, default=10)
    options = parser.parse_args()
    clip = long_clip(options.minutes)
    with tempfile.TemporaryDirectory() as folder:
        with serving(options.bin, ["--input", str(clip), "--data", folder]) as server:
            wall, fps_before, fps, listing = asyncio.run(watched_fps(server))
            cpu = thread_cpu_seconds(server.proc.pid).get("thumbnails")
        peer_wall, peer_cpu = peer(clip, folder)
        short_wall, short_cpu = peer(clip, folder, *SHORTCUTS)
    print(f"seek-bar thumbnails, {options.minutes} min of natural 720p25 ({os.cpu_count()} cores, "
          f"load {os.getloadavg()[0]:.1f}): {len(listing['times'])} of {listing['width']}x{listing['height']}")
    print(f"  filtercast: {wall:5.1f} s from the request to the 200, thumbnails thread {cpu:5.1f} s of CPU (nice 19); "
          f"a viewer got {fps:4.1f} fps meanwhile ({fps_before:4.1f} in the 20 s before)")
    print(f"  peer ffmpeg -threads 1 fps=0.5,scale=160:-1,tile=10x30: {peer_wall:5.1f} s, {peer_cpu:5.1f} s of CPU")
    print(f"  peer with the same decoding shortcuts ({' '.join(SHORTCUTS)}): {short_wall:5.1f} s, {short_cpu:5.1f} s of CPU")
    print(f"  ratio CPU filtercast/peer {cpu / max(peer_cpu, 1e-3):.2f} (wall {wall / max(peer_wall, 1e-3):.2f}), "
          f"filtercast/peer with the shortcuts {cpu / max(short_cpu, 1e-3):.2f}")


if __name__ == "__main__":
    main()
