#!/usr/bin/python3
"""What a change of size costs (issue 23: the session takes the size of what plays): how long from
`open`'s answer to the first picture of a clip of another size, against the peer run in the same
script — opening a clip of the session's own size, where nothing is resized. The clips are the
natural 720p clip's first 20 s at 1280x720, 854x480 and 960x720 (cropped: another shape). Two
sessions, so that both directions are seen (a smaller clip also decodes faster): one started on
the 1280x720 clip, opening 854x480 and 960x720 against 1280x720; one started on the 854x480
clip, opening 1280x720 and 960x720 against 854x480. Per transport: JPEG (the full-size
rendition) and H.264 (its full-size rendition: a new encoder, a keyframe with the new SPS). Also
the longest gap between two frames around each switch, and whether the first picture after it had
the new size.

Each round opens the clips in turn (another size, the same size, the other, the same size), so that
the machine's drift weighs on both alike; the medians over the rounds are reported, and their ratio.

    /usr/bin/python3 bench/session_size.py [--bin PATH] [--rounds 6] [--filter NAME]

`--filter style` measures it with the style network, which is compiled per picture shape: a clip
of another shape costs a compile on its first frame.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

from bench_server import REPO, serving
from natural_clip import cache_dir, natural_clip

sys.path.insert(0, str(REPO / "Tests" / "EndToEnd"))
from fc_client import Client  # noqa: E402

SIZES = {"same.mp4": (1280, 720), "wide.mp4": (854, 480), "square.mp4": (960, 720)}
# Each session: its input, the clips of other sizes it opens, the clip of its own size.
SESSIONS = [("same.mp4", ("wide.mp4", "square.mp4"), "same.mp4"), ("wide.mp4", ("same.mp4", "square.mp4"), "wide.mp4")]


def clips(source: Path) -> Path:
    """A media folder of the natural clip's first 20 s at 1280x720, 854x480 and 960x720 (cropped)."""
    folder = cache_dir() / f"session-size-{source.stem}"
    folder.mkdir(exist_ok=True)
    filters = {"same.mp4": "scale=1280:720", "wide.mp4": "scale=854:480", "square.mp4": "crop=960:720"}
    for name, graph in filters.items():
        if not (folder / name).is_file():
            partial = folder / f"partial-{name}"
            subprocess.run(["ffmpeg", "-hide_banner", "-loglevel", "error", "-y", "-i", str(source), "-t", "20",
                            "-vf", graph, "-c:v", "libx264", "-preset", "fast", "-crf", "18", "-g", "25", "-bf", "0",
                            str(partial)], check=True, timeout=600)
            partial.replace(folder / name)
    return folder


def size_of(frame) -> tuple[int, int]:
    return frame.picture[:2] if frame.is_unit else frame.image().size


async def switch(client: Client, name: str) -> tuple[float, float, bool]:
    """Opens `media/NAME`: ms from the answer to its first frame (pts under 0.2 s), the longest gap
    between frames from the command to that frame, and whether that frame had the clip's size."""
    client.drop_frames()
    sent = time.monotonic()
    await client.ok({"type": "open", "source": f"media/{name}"}, timeout=10)
    answered = time.monotonic()
    last, gap = sent, 0.0
    while True:
        frame = await client.next_frame(timeout=10)
        gap = max(gap, frame.received - last)
        last = frame.received
        if frame.received > answered and frame.pts < 0.2:
            return (frame.received - answered) * 1000, gap * 1000, size_of(frame) == SIZES[name]


async def measure(url: str, transport: str, others: tuple[str, str], same: str, rounds: int) -> dict:
    results: dict[str, list] = {"other": [], "same": [], "gaps": [], "sized": []}
    async with await Client.connect(url) as client:
        full = next(r["id"] for r in client.hello["renditions"] if r["transport"] == transport)
        await client.ok({"type": "watch", "transport": transport, "rendition": full})
        await client.collect(2.0)
        for _ in range(rounds):
            for name, kind in ((others[0], "other"), (same, "same"), (others[1], "other"), (same, "same")):
                ms, gap, sized = await switch(client, name)
                results[kind].append(ms)
                results["gaps"].append(gap)
                results["sized"].append(sized)
                await client.collect(0.6)
    return results


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bin", default=os.environ.get("FILTERCAST_BIN", str(REPO / ".build/release/filtercast")))
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--filter", help="the sessions' filter (default none)")
    args = parser.parse_args()
    chain = ["--filter", args.filter] if args.filter else []
    media = clips(natural_clip())
    print(f"clips in {media}")
    for start, others, own in SESSIONS:
        width, height = SIZES[start]
        for transport in ("jpeg", "h264"):
            with serving(args.bin, ["--input", str(media / start), "--media-dir", str(media), *chain]) as server:
                results = asyncio.run(measure(server.ws_url(), transport, others, own, args.rounds))
            other, same = statistics.median(results["other"]), statistics.median(results["same"])
            print(f"{width}x{height} session, {transport}: first picture after open — another size {other:.0f} ms "
                  f"(median of {len(results['other'])}), the same size {same:.0f} ms: {other / same:.2f}x; "
                  f"longest gap {max(results['gaps']):.0f} ms; first picture at the clip's size "
                  f"{sum(results['sized'])}/{len(results['sized'])}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
