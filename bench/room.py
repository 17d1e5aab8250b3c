#!/usr/bin/python3
"""Review room benchmark: how long a laser pointer's move takes to reach another viewer.

Starts `filtercast serve` on the test pattern (720p25) with two WebSocket viewers that watch the
picture (JPEG frames, acknowledged): one sends `point` moves at `--rate` a second (under the
30-a-second limit), the other times each `pointer` from the move's send to its arrival, on
loopback. The peer, run in the same script: a bare relay (Python `websockets`, every text message
to the other clients, no pictures) — what relaying costs with nothing else to do. Prints the
median and p95 of both and their ratio; the goal is ≤ 100 ms p95 (issue 40).

    /usr/bin/python3 bench/room.py [--bin PATH] [--moves 250] [--rate 25]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import time

import websockets

from bench_server import REPO, serving
from fc_client import Client


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


async def time_moves(send, receive, moves: int, rate: float) -> list[float]:
    """Sends `moves` points through `send(x)`; `receive()` yields (x, arrival) of relayed ones.
    Returns each move's latency in ms (moves not relayed are left out)."""
    sent: dict[float, float] = {}
    arrived: dict[float, float] = {}

    async def listen():
        async for x, at in receive():
            arrived[x] = at
            if len(arrived) == moves:
                return

    listener = asyncio.create_task(listen())
    for index in range(moves):
        x = round((index + 1) / (moves + 1), 6)
        sent[x] = time.monotonic()
        await send(x)
        await asyncio.sleep(1 / rate)
    try:
        await asyncio.wait_for(listener, 3)
    except asyncio.TimeoutError:
        pass
    return [(arrived[x] - sent[x]) * 1000 for x in sent if x in arrived]


async def filtercast(url_for, moves: int, rate: float) -> list[float]:
    sender = await Client.connect(url_for(name="Sender"))
    receiver = await Client.connect(url_for(name="Receiver"))

    async def receive():
        while True:
            item = await receiver.next_json("pointer", timeout=5)
            yield item["x"], time.monotonic()

    try:
        await sender.collect(1)
        return await time_moves(lambda x: sender.send_json({"type": "point", "x": x, "y": 0.5}), receive, moves, rate)
    finally:
        await sender.close()
        await receiver.close()


async def peer(moves: int, rate: float) -> list[float]:
    clients = set()

    async def relay(ws):
        clients.add(ws)
        try:
            async for message in ws:
                for other in list(clients):
                    if other is not ws:
                        await other.send(message)
        finally:
            clients.discard(ws)

    async with websockets.serve(relay, "127.0.0.1", 0) as server:
        port = server.sockets[0].getsockname()[1]
        async with websockets.connect(f"ws://127.0.0.1:{port}") as sender, websockets.connect(f"ws://127.0.0.1:{port}") as receiver:
            async def receive():
                async for message in receiver:
                    yield float(message.split(":")[1]), time.monotonic()
            await asyncio.sleep(0.2)
            return await time_moves(lambda x: sender.send(f"x:{x}"), receive, moves, rate)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bin", default=os.environ.get("FILTERCAST_BIN", str(REPO / ".build/release/filtercast")))
    parser.add_argument("--moves", type=int, default=250)
    parser.add_argument("--rate", type=float, default=25)
    options = parser.parse_args()
    print(f"pointer move → relayed, loopback, {options.moves} moves at {options.rate:g}/s "
          f"({os.cpu_count()} cores, load {os.getloadavg()[0]:.1f}, {options.bin})")
    with serving(options.bin, ["--input", "test:1280x720@25"]) as server:
        ours = asyncio.run(filtercast(lambda **query: server.ws_url(**query), options.moves, options.rate))
    theirs = asyncio.run(peer(options.moves, options.rate))
    for name, values in (("filtercast (with 720p frames)", ours), ("peer: bare websockets relay", theirs)):
        print(f"{name:<30} relayed {len(values):4d}  median {statistics.median(values):6.2f} ms  p95 {percentile(values, 0.95):6.2f} ms")
    print(f"p95 ratio filtercast/peer: {percentile(ours, 0.95) / percentile(theirs, 0.95):.1f}  (goal: filtercast p95 ≤ 100 ms)")


if __name__ == "__main__":
    main()
