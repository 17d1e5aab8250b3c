#!/usr/bin/python3
"""Slider benchmark: does dragging a slider stall the stream?

For each filter, starts `filtercast serve` (release build) on a 1080p30 clip with the filter and
one WebSocket viewer, counts the frames the viewer gets per second while nothing changes, then
while a parameter moves the way the page sends a dragged slider (a `setParams` every 50 ms) for
`--seconds`. The still rate is the peer: a drag should not fall below it. Filters whose tables are
built per setting (distortions, cells) are the ones a drag could stall.

    /usr/bin/python3 bench/slider.py [--bin PATH] [--seconds 3]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import time

from bench_server import REPO, serving
from bands import clip
from fc_client import Client

# Filter, the parameter dragged, and its values along the drag (cycled).
DRAGS = {
    "kaleidoscope": ("angle", [round(0.05 * i, 2) for i in range(60)]),
    "twirl": ("angle", [round(0.05 * i, 2) for i in range(60)]),
    "crystallize": ("radius", list(range(5, 65))),
}


async def rates(url: str, parameter: str, values: list, seconds: float) -> tuple[float, float]:
    async with await Client.connect(url) as client:
        await client.collect(2)
        still = sum(1 for item in await client.collect(seconds) if not isinstance(item, dict)) / seconds
        frames, start, index = 0, time.monotonic(), 0
        while time.monotonic() - start < seconds:
            await client.send_json({"type": "setParams", "id": client.new_id(), "params": {parameter: values[index % len(values)]}})
            index += 1
            frames += sum(1 for item in await client.collect(0.05) if not isinstance(item, dict))
        return still, frames / (time.monotonic() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bin", default=os.environ.get("FILTERCAST_BIN", str(REPO / ".build/release/filtercast")))
    parser.add_argument("--seconds", type=float, default=3)
    options = parser.parse_args()
    path = clip()
    print(f"frames a viewer gets per second, 1080p30 clip ({os.cpu_count()} cores, load {os.getloadavg()[0]:.1f})")
    print(f"{'filter':<14} {'parameter':<10} {'still':>6} {'dragged at 20 Hz':>17}")
    for name, (parameter, values) in DRAGS.items():
        with serving(options.bin, ["--input", str(path), "--filter", name]) as server:
            still, dragged = asyncio.run(rates(server.ws_url(), parameter, values, options.seconds))
        print(f"{name:<14} {parameter:<10} {still:6.1f} {dragged:17.1f}", flush=True)


if __name__ == "__main__":
    main()
