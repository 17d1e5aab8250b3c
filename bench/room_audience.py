#!/usr/bin/python3
"""Review room benchmark, a full room: how long a presenter's laser pointer takes to reach the
last of 50 viewers who watch the picture (issue 40: 50 viewers on a channel).

Starts `filtercast serve` on the test pattern (720p25) with `--viewers` WebSocket viewers, each
watching the smallest JPEG rendition the server offers (frames acknowledged as they arrive, as a
page does), and one presenter (`present take`) who moves the laser pointer at `--rate` a second
(under the 30-a-second limit). For each move, the latency to the room is the time from its send
to its arrival at the last viewer that gets it — the 50th — on loopback; the script prints its
median and p95, against the frame interval (40 ms at 25 fps: a pointer within a frame keeps up
with the picture) and against the peer run in the same script: a bare relay (Python `websockets`,
every text message to every other client, no pictures) with as many listeners, in the same
process of clients — what fanning a move out costs with nothing else to do.

    /usr/bin/python3 bench/room_audience.py [--bin PATH] [--viewers 50] [--moves 200] [--rate 25]

Not part of `make test`: a figure, not a check.
"""

from __future__ import annotations

import asyncio
import json
import statistics
import time

import websockets

from bench_server import cpu_seconds, serving
from fc_client import HEADER, Client
from room import arguments, heading, percentile

FRAME_INTERVAL_MS = 40.0  # 25 fps


def pointer_x(text: str) -> float | None:
    """The x of a `pointer` message of the server, or of the peer's `x:X`; None for anything else."""
    if text.startswith("x:"):
        return float(text[2:])
    message = json.loads(text)
    return message["x"] if message.get("type") == "pointer" else None


async def listen(ws, arrivals: dict[float, float], expected: int, on_frame=None) -> None:
    """Reads `ws` until `expected` pointers came, noting each one's x and arrival; a frame goes to
    `on_frame(seq)` (its acknowledgement)."""
    while len(arrivals) < expected:
        data = await ws.recv()
        at = time.monotonic()
        if isinstance(data, str):
            if (x := pointer_x(data)) is not None:
                arrivals[x] = at
        elif on_frame:
            await on_frame(HEADER.unpack_from(data)[3])


async def fan_out(send, listeners: list, moves: int, rate: float) -> tuple[list[float], int]:
    """Sends `moves` moves through `send(x)` while each of `listeners` (coroutine functions of
    (arrivals, expected)) notes what it gets. Returns each move's latency in ms to the last
    listener that got it, for the moves every listener got, and how many moves some listener missed."""
    arrivals = [{} for _ in listeners]
    tasks = [asyncio.create_task(listener(arrivals[index], moves)) for index, listener in enumerate(listeners)]
    sent: dict[float, float] = {}
    for index in range(moves):
        x = round((index + 1) / (moves + 1), 6)
        sent[x] = time.monotonic()
        await send(x)
        await asyncio.sleep(1 / rate)
    await asyncio.wait(tasks, timeout=3)
    for task in tasks:
        task.cancel()
    latencies = [(max(got[x] for got in arrivals) - at) * 1000 for x, at in sent.items() if all(x in got for got in arrivals)]
    return latencies, moves - len(latencies)


async def filtercast(url_for, viewers: int, moves: int, rate: float) -> tuple[list[float], int]:
    """The room on the server: (latencies, moves missed); prints the frames a second each viewer got."""
    presenter = await Client.connect(url_for(name="Presenter"))
    audience = [await Client.connect(url_for(name=f"Viewer {index + 1}")) for index in range(viewers)]
    smallest = min((r for r in presenter.hello["renditions"] if r["transport"] == "jpeg" and not r.get("second")),
                   key=lambda r: r["height"])
    try:
        await presenter.ok({"type": "present", "action": "take"})
        for viewer in audience:
            await viewer.send_json({"type": "watch", "transport": "jpeg", "rendition": smallest["id"]})
        counts = [0] * viewers

        def listener(viewer, index):
            async def on_frame(seq):
                counts[index] += 1
                await viewer.ack(seq)
            return lambda arrivals, expected: listen(viewer.ws, arrivals, expected, on_frame)

        started = time.monotonic()
        latencies, missed = await fan_out(lambda x: presenter.send_json({"type": "point", "x": x, "y": 0.5}),
                                          [listener(viewer, index) for index, viewer in enumerate(audience)], moves, rate)
        fps = statistics.median(counts) / (time.monotonic() - started)
        print(f"the viewers watched {smallest['id']} ({smallest['width']}x{smallest['height']}): median {fps:.1f} frames/s each")
        return latencies, missed
    finally:
        for client in [presenter, *audience]:
            await client.close()


async def peer(viewers: int, moves: int, rate: float) -> tuple[list[float], int]:
    """The bare relay: every message of a client to every other."""
    clients = set()

    async def relay(ws):
        clients.add(ws)
        try:
            async for message in ws:
                websockets.broadcast([other for other in clients if other is not ws], message)
        finally:
            clients.discard(ws)

    async with websockets.serve(relay, "127.0.0.1", 0, compression=None) as server:
        url = f"ws://127.0.0.1:{server.sockets[0].getsockname()[1]}"
        sender = await websockets.connect(url, compression=None)
        audience = [await websockets.connect(url, compression=None) for _ in range(viewers)]
        try:
            while len(clients) < viewers + 1:
                await asyncio.sleep(0.01)
            return await fan_out(lambda x: sender.send(f"x:{x}"),
                                 [lambda arrivals, expected, ws=ws: listen(ws, arrivals, expected) for ws in audience], moves, rate)
        finally:
            for ws in [sender, *audience]:
                await ws.close()


def main() -> None:
    parser = arguments(__doc__, 200)
    parser.add_argument("--viewers", type=int, default=50)
    options = parser.parse_args()
    heading(f"presenter's pointer → the last of {options.viewers} viewers", options)
    with serving(options.bin, ["--input", "test:1280x720@25", "--max-clients", str(options.viewers + 10)]) as server:
        started, cpu, own = time.monotonic(), cpu_seconds(server.proc.pid), time.process_time()
        ours, missed = asyncio.run(filtercast(lambda **query: server.ws_url(**query), options.viewers, options.moves, options.rate))
        print(f"the server used {100 * (cpu_seconds(server.proc.pid) - cpu) / (time.monotonic() - started):.0f} % of a core "
              f"(connecting the viewers included), this script {100 * (time.process_time() - own) / (time.monotonic() - started):.0f} %")
    theirs, peer_missed = asyncio.run(peer(options.viewers, options.moves, options.rate))
    for name, values, lost in (("filtercast (with JPEG frames)", ours, missed), ("peer: bare websockets relay", theirs, peer_missed)):
        print(f"{name:<30} moves at all {len(values):4d} (missed {lost})  median {statistics.median(values):6.2f} ms  "
              f"p95 {percentile(values, 0.95):6.2f} ms")
    p50, p95 = statistics.median(ours), percentile(ours, 0.95)
    print(f"filtercast against the frame interval ({FRAME_INTERVAL_MS:g} ms): median {p50 / FRAME_INTERVAL_MS:.2f}, "
          f"p95 {p95 / FRAME_INTERVAL_MS:.2f} frames")
    print(f"p95 ratio filtercast/peer: {p95 / percentile(theirs, 0.95):.1f}  (goal, issue 40: ≤ 100 ms p95 a move)")


if __name__ == "__main__":
    main()
