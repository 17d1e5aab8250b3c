#!/usr/bin/python3
"""Sound benchmark (issue 16): what the sound path costs for a stereo 48 kHz source.

Makes (once, under /tmp/filtercast-bench) a 20 s 640x360 H.264 clip at 30 fps with AAC stereo at
48 kHz, 128 kbit/s — pink noise under a tone, harder for the Opus encoder than a tone alone — and
starts `filtercast serve` (release build) on it with one JPEG viewer that acknowledges every frame.
For `--seconds` it measures the server's CPU while the viewer does not ask for sound, then while it
does (`watch {audio: true}`), `--runs` times in turn, and the **audio** thread's own CPU (decode,
resample, Opus encode) from /proc. Then the same for a recording (`record start`, filtered, nobody
listening: the audio thread decodes, resamples and encodes AAC), against a recording of the same
clip without its sound (its AAC track is silence: one packet made once). The goal is at most 3 %
of a core.

    /usr/bin/python3 bench/audio.py [--bin PATH] [--seconds 10] [--runs 2]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import shutil
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

from bench_server import REPO, cpu_seconds, serving, thread_cpu_seconds
from fc_client import Client

CLIP = Path("/tmp/filtercast-bench/audio-noise-tone-360p30-48k.mp4")
SILENT_CLIP = CLIP.with_name("audio-noise-tone-360p30-without-sound.mp4")


def make_clip() -> Path:
    if CLIP.exists() and SILENT_CLIP.exists():
        return CLIP
    CLIP.parent.mkdir(parents=True, exist_ok=True)
    subprocess.run([shutil.which("ffmpeg"), "-hide_banner", "-loglevel", "error", "-y",
                    "-f", "lavfi", "-i", "testsrc2=size=640x360:rate=30",
                    "-f", "lavfi", "-i", "anoisesrc=color=pink:sample_rate=48000:amplitude=0.2",
                    "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000",
                    "-filter_complex", "[1:a][2:a]amix=inputs=2,aformat=channel_layouts=stereo[a]",
                    "-map", "0:v", "-map", "[a]", "-t", "20", "-c:v", "libx264", "-bf", "0", "-g", "30",
                    "-pix_fmt", "yuv420p", "-c:a", "aac", "-b:a", "128k", "-ar", "48000", str(CLIP)],
                   check=True, timeout=300)
    subprocess.run([shutil.which("ffmpeg"), "-hide_banner", "-loglevel", "error", "-y", "-i", str(CLIP), "-map", "0:v",
                    "-c", "copy", str(SILENT_CLIP)], check=True, timeout=300)
    return CLIP


async def measure(server, listen: bool, seconds: float) -> tuple[float, float, int]:
    """(server CPU %, audio thread CPU %, sound packets received) over `seconds` of one viewer."""
    client = await Client.connect(server.ws_url())
    await client.command({"type": "watch", "transport": "jpeg", "audio": listen})
    await client.collect(1.0)  # settle
    cpu, audio = cpu_seconds(server.proc.pid), thread_cpu_seconds(server.proc.pid).get("audio", 0.0)
    start = time.monotonic()
    items = await client.collect(seconds)
    elapsed = time.monotonic() - start
    cpu = cpu_seconds(server.proc.pid) - cpu
    audio = thread_cpu_seconds(server.proc.pid).get("audio", 0.0) - audio
    await client.ws.close()
    packets = sum(1 for item in items if getattr(item, "magic", None) == b"FCA1")
    return 100 * cpu / elapsed, 100 * audio / elapsed, packets


async def measure_recording(server, seconds: float) -> tuple[float, float]:
    """(server CPU %, audio thread CPU %) over `seconds` of a filtered recording and one JPEG viewer."""
    client = await Client.connect(server.ws_url())
    await client.command({"type": "watch", "transport": "jpeg"})
    assert (await client.command({"type": "record", "action": "start", "filtered": True}))["type"] == "ack"
    await client.collect(1.0)  # settle
    cpu, audio = cpu_seconds(server.proc.pid), thread_cpu_seconds(server.proc.pid).get("audio", 0.0)
    start = time.monotonic()
    await client.collect(seconds)
    elapsed = time.monotonic() - start
    cpu = cpu_seconds(server.proc.pid) - cpu
    audio = thread_cpu_seconds(server.proc.pid).get("audio", 0.0) - audio
    await client.command({"type": "record", "action": "stop"})
    await client.ws.close()
    return 100 * cpu / elapsed, 100 * audio / elapsed


def recording_cost(binary: str, seconds: float, runs: int):
    """A recording of the clip against one of the same pictures without sound, `runs` times in turn."""
    results = {True: [], False: []}
    with tempfile.TemporaryDirectory() as folder:
        for _ in range(runs):
            for sound in (False, True):
                with serving(binary, ["--input", str(CLIP if sound else SILENT_CLIP), "--recordings", folder]) as server:
                    results[sound].append(asyncio.run(measure_recording(server, seconds)))
    for sound in (False, True):
        rows = results[sound]
        print(f"recording {'with sound' if sound else 'silent    '}: server {statistics.median(r[0] for r in rows):5.1f} % "
              f"of a core, audio thread {statistics.median(r[1] for r in rows):4.2f} %")
    difference = statistics.median(r[0] for r in results[True]) - statistics.median(r[0] for r in results[False])
    print(f"the sound costs a recording {difference:+.1f} % of a core (goal: at most 3 %)")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bin", default=os.environ.get("FILTERCAST_BIN", str(REPO / ".build/release/filtercast")))
    parser.add_argument("--seconds", type=float, default=10)
    parser.add_argument("--runs", type=int, default=2)
    options = parser.parse_args()
    clip = make_clip()
    results = {False: [], True: []}
    with serving(options.bin, ["--input", str(clip)]) as server:
        for _ in range(options.runs):
            for listen in (False, True):
                results[listen].append(asyncio.run(measure(server, listen, options.seconds)))
    for listen in (False, True):
        rows = results[listen]
        print(f"{'with sound' if listen else 'no sound  '}: server {statistics.median(r[0] for r in rows):5.1f} % of a core, "
              f"audio thread {statistics.median(r[1] for r in rows):4.2f} %, "
              f"{statistics.median(r[2] for r in rows) / options.seconds:.1f} sound packets/s")
    difference = statistics.median(r[0] for r in results[True]) - statistics.median(r[0] for r in results[False])
    print(f"sound costs the server {difference:+.1f} % of a core (goal: at most 3 %)")
    recording_cost(options.bin, options.seconds, options.runs)


if __name__ == "__main__":
    main()
