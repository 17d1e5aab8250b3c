#!/usr/bin/python3
"""Studio mode benchmark (issue 26): do the program's viewers keep their frame rate while a
controller drags preview sliders, and what does the preview cost?

Runs `filtercast serve` (release build) on the 720p30 test pattern with sepia on air, and in turn:
one viewer on the full-size JPEG (`program`); that viewer plus one on the full-size H.264
rendition (`+ one rendition`: what one more rendition of the same size costs); that viewer plus a
controller watching `preview-720p` while it moves a preview slider the way the page sends a drag
(`setParams {to: "preview"}` every 50 ms; `+ preview, dragging`). Prints the server's CPU over the
window (/proc, all threads) and each client's frame rate, then the medians. Issue 26's budget:
program viewers ≥ 29 fps at 720p30, the preview's extra CPU ≤ one more rendition's.

    /usr/bin/python3 bench/studio.py [--bin PATH] [--runs 3] [--seconds 8]
"""

from __future__ import annotations

import asyncio
import os
import statistics
import time

from bench_server import bench_arguments, clients_window, serving
from fc_client import Client

CASES = ("program", "+ one rendition", "+ preview, dragging")
PREVIEW = [{"name": "vignette"}, {"name": "colorControls"}]


async def drag(controller: Client, stop: float):
    """A preview slider moved every 50 ms until `stop` (time.monotonic())."""
    index = 0
    while time.monotonic() < stop:
        value = 0.5 + 0.4 * ((index % 20) / 10 - 1)
        await controller.send_json({"type": "setParams", "index": 1, "params": {"saturation": value}, "to": "preview"})
        index += 1
        await asyncio.sleep(0.05)


async def measure(server, case: str, seconds: float) -> tuple[float, list[float]]:
    """(% of a core the server used, fps of each client) over `seconds` after a warm-up."""
    clients = [await Client.connect(server.ws_url())]
    await clients[0].ok({"type": "watch", "transport": "jpeg", "rendition": "jpeg-720p"})
    if case == CASES[0]:
        return await clients_window(server.proc.pid, clients, seconds)
    clients.append(await Client.connect(server.ws_url()))
    if case == CASES[1]:
        await clients[1].ok({"type": "watch", "transport": "h264", "rendition": "h264-720p"})
        return await clients_window(server.proc.pid, clients, seconds)
    await clients[1].ok({"type": "setFilter", "chain": PREVIEW, "to": "preview"})
    await clients[1].ok({"type": "watch", "transport": "jpeg", "rendition": "preview-720p"})
    return await clients_window(server.proc.pid, clients, seconds, lambda stop: drag(clients[1], stop))


def main():
    options = bench_arguments(__doc__.split("\n")[0], runs=3, seconds=8).parse_args()
    print(f"studio mode at 720p30, sepia on air ({os.cpu_count()} cores, load {os.getloadavg()[0]:.1f})")
    cpu: dict = {case: [] for case in CASES}
    program_fps: dict = {case: [] for case in CASES}
    for _ in range(options.runs):
        for case in CASES:
            with serving(options.bin, ["--input", "test:1280x720@30", "--filter", "sepia"]) as server:
                used, fps = asyncio.run(measure(server, case, options.seconds))
            cpu[case].append(used)
            program_fps[case].append(fps[0])
            print(f"{case:<20} server {used:5.1f}% of a core, clients {' '.join(f'{f:.1f}' for f in fps)} fps", flush=True)
    base = statistics.median(cpu[CASES[0]])
    rendition, preview = (statistics.median(cpu[case]) - base for case in CASES[1:])
    print(f"median: program {base:.1f}% of a core; one more rendition +{rendition:.1f}%; the preview, dragged, "
          f"+{preview:.1f}%; program viewer while dragging {statistics.median(program_fps[CASES[2]]):.1f} fps "
          f"(min {min(program_fps[CASES[2]]):.1f})", flush=True)


if __name__ == "__main__":
    main()
