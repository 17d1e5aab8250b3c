#!/usr/bin/python3
"""Review room benchmark: how long a laser pointer's move, and a comment with a drawing, take to
reach another viewer.

Starts `filtercast serve` on the test pattern (720p25) with two WebSocket viewers that watch the
picture (JPEG frames, acknowledged): one sends `point` moves at `--rate` a second (under the
30-a-second limit), the other times each `pointer` from the move's send to its arrival, on
loopback. The peer, run in the same script: a bare relay (Python `websockets`, every text message
to the other clients, no pictures) — what relaying costs with nothing else to do. Prints the
median and p95 of both and their ratio; the goal is ≤ 100 ms p95 (issue 40).

Then comments: the sender adds `--comments` comments, each with a drawing of 20 shapes (an
arrow, boxes, ellipses and a 200-point freehand stroke), 5 a second; the other viewer times each
from the send to the `comments` message that carries it — the server checks it, writes the
source's comments file (flushed and renamed) before it answers and tells the channel. The peer
relays the same message unchanged. The goal is ≤ 150 ms p95 to the other page (issue 40; the
page draws within a frame of the message, which this leaves out).

    /usr/bin/python3 bench/room.py [--bin PATH] [--moves 250] [--rate 25] [--comments 60]
"""

from __future__ import annotations

import argparse
import asyncio
import json
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


def drawing() -> list[dict]:
    """20 shapes, 218 points: what a reviewer draws on a frame, at most."""
    shapes = [{"kind": kind, "points": [[0.1 + 0.02 * i, 0.2], [0.3 + 0.02 * i, 0.5]], "color": "#ff3030", "width": 0.006}
              for i, kind in enumerate(["arrow", "rect", "ellipse", "line"] * 4 + ["arrow", "rect", "ellipse"])]
    stroke = [[round(0.1 + 0.004 * i, 4), round(0.5 + 0.2 * ((i % 20) / 20), 4)] for i in range(200)]
    return shapes + [{"kind": "freehand", "points": stroke, "color": "#30ff30", "width": 0.004}]


def comment(x: float) -> dict:
    return {"type": "comment", "action": "add", "frame": 0, "text": f"note {x}", "drawing": drawing()}


async def filtercast_comments(url_for, count: int) -> list[float]:
    sender = await Client.connect(url_for(name="Sender"))
    receiver = await Client.connect(url_for(name="Receiver"))

    async def receive():
        while True:
            item = await receiver.next_json("comments", where=lambda m: "changed" in m, timeout=5)
            yield float(item["changed"]["text"].split()[1]), time.monotonic()

    try:
        await sender.collect(1)
        return await time_moves(lambda x: sender.send_json(comment(x)), receive, count, 5)
    finally:
        await sender.close()
        await receiver.close()


async def peer(moves: int, rate: float, comments: bool = False) -> list[float]:
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
                    yield (float(json.loads(message)["text"].split()[1]) if comments else float(message.split(":")[1])), time.monotonic()
            await asyncio.sleep(0.2)
            send = (lambda x: sender.send(json.dumps(comment(x)))) if comments else (lambda x: sender.send(f"x:{x}"))
            return await time_moves(send, receive, moves, rate)


def arguments(description: str, moves: int) -> argparse.ArgumentParser:
    """The options of the room's benchmarks: the binary, how many pointer moves and how fast."""
    parser = argparse.ArgumentParser(description=description, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bin", default=os.environ.get("FILTERCAST_BIN", str(REPO / ".build/release/filtercast")))
    parser.add_argument("--moves", type=int, default=moves)
    parser.add_argument("--rate", type=float, default=25)
    return parser


def heading(what: str, options) -> None:
    """The run's first line: what is timed, the moves, and the machine's load."""
    print(f"{what}, loopback, {options.moves} moves at {options.rate:g}/s "
          f"({os.cpu_count()} cores, load {os.getloadavg()[0]:.1f}, {options.bin})")


def main() -> None:
    parser = arguments(__doc__, 250)
    parser.add_argument("--comments", type=int, default=60)
    options = parser.parse_args()
    heading("pointer move → relayed", options)
    with serving(options.bin, ["--input", "test:1280x720@25"]) as server:
        ours = asyncio.run(filtercast(lambda **query: server.ws_url(**query), options.moves, options.rate))
        notes = asyncio.run(filtercast_comments(lambda **query: server.ws_url(**query), options.comments))
    theirs = asyncio.run(peer(options.moves, options.rate))
    relayed = asyncio.run(peer(options.comments, 5, comments=True))
    report(ours, theirs, 100)
    print(f"comment with a drawing (20 shapes, 218 points) added → in another viewer, {options.comments} at 5/s")
    report(notes, relayed, 150)


def report(ours: list[float], theirs: list[float], goal: int) -> None:
    for name, values in (("filtercast (with 720p frames)", ours), ("peer: bare websockets relay", theirs)):
        print(f"{name:<30} relayed {len(values):4d}  median {statistics.median(values):6.2f} ms  p95 {percentile(values, 0.95):6.2f} ms")
    print(f"p95 ratio filtercast/peer: {percentile(ours, 0.95) / percentile(theirs, 0.95):.1f}  (goal: filtercast p95 ≤ {goal} ms)")


if __name__ == "__main__":
    main()
