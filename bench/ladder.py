#!/usr/bin/python3
"""Ladder benchmark: what the whole ladder of renditions costs the server, at 720p30 and 1080p30.

Runs `filtercast serve` (release build) on the test pattern with sepia, in turn with one viewer
on the full-size JPEG (what one rendition costs) and with one viewer pinned on each rendition the
server offers (JPEG full/half/quarter, H.264 full/half by default: every rung encoding), and
prints the CPU of the whole server over the window (/proc, all threads) and the frame rate each
viewer got; then the medians and the ladder's cost over one rendition, in % of a core. Issue 14's
budget: ≤ 50% of a core at 720p30, ≤ 80% at 1080p30.

    /usr/bin/python3 bench/ladder.py [--bin PATH] [--runs 3] [--seconds 12] [--sizes 1280x720,1920x1080]
"""

from __future__ import annotations

import asyncio
import statistics

from bench_server import bench_arguments, clients_window, serving
from fc_client import Client


async def watch(server, all_renditions: bool, seconds: float) -> tuple[float, list[float]]:
    """(% of a core the server used, fps of each viewer) over `seconds` after a warm-up."""
    async with await Client.connect(server.ws_url()) as probe:
        offer = [r["id"] for r in probe.hello["renditions"] if not r.get("preview")]  # the program's ladder
    chosen = offer if all_renditions else offer[:1]
    clients = [await Client.connect(server.ws_url()) for _ in chosen]
    for client, rendition in zip(clients, chosen):
        transport = "h264" if rendition.startswith("h264") else "jpeg"
        await client.ok({"type": "watch", "transport": transport, "rendition": rendition})
    return await clients_window(server.proc.pid, clients, seconds)


def main():
    parser = bench_arguments(__doc__.split("\n")[0], runs=3, seconds=12)
    parser.add_argument("--sizes", default="1280x720,1920x1080")
    options = parser.parse_args()
    for size in options.sizes.split(","):
        results: dict = {False: [], True: []}
        for _ in range(options.runs):
            for ladder in (False, True):
                with serving(options.bin, ["--input", f"test:{size}@30", "--filter", "sepia"]) as server:
                    cpu, fps = asyncio.run(watch(server, ladder, options.seconds))
                results[ladder].append(cpu)
                print(f"{size} {'whole ladder' if ladder else 'one JPEG    '}: server {cpu:5.1f}% of a core, "
                      f"viewers {' '.join(f'{f:.1f}' for f in fps)} fps", flush=True)
        one, whole = statistics.median(results[False]), statistics.median(results[True])
        print(f"median {size}: one JPEG viewer {one:.1f}%, the whole ladder {whole:.1f}%: "
              f"the ladder costs +{whole - one:.1f}% of a core", flush=True)


if __name__ == "__main__":
    main()
