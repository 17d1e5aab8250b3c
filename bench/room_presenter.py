#!/usr/bin/python3
"""Review room benchmark, a presenter before a full room (issue 40's "50 viewers on a channel, one
presenter moving the slider: every viewer ≥ 24 fps at 720p25; attribution within 1 s").

Serves the test pattern at 1280x720, 25 fps, with sepia. bench/fanout.c connects `--viewers`
WebSocket viewers. Each one watches the full-size JPEG (a v1 page's default) and acknowledges
every frame. fanout reports each viewer's delivered fps.

Meanwhile a presenter (`present take`, `?name=Presenter`) moves sepia's intensity slider `--rate`
times a second, a new value each time. An observer (`?name=Observer`, watching the smallest
rendition) times each move from its send to the first `state` that carries that value and names
the presenter in `changedBy`: the attribution, as every viewer of the room reads it.

The peer, in the same script: the same fanout run with nobody presenting. That is what the
viewers get when the room is quiet.

    /usr/bin/python3 bench/room_presenter.py [--bin PATH] [--viewers 50] [--seconds 20] [--rate 10]

Not part of `make test`: a figure, not a check.
"""

from __future__ import annotations

import asyncio
import json
import os
import statistics
import subprocess
import time
from pathlib import Path

from bench_server import REPO, bench_arguments, cpu_seconds, serving
from fc_client import Client
from room import percentile

FANOUT = Path("/tmp/filtercast-fanout/fanout")


def fanout_binary() -> Path:
    """bench/fanout.c, built as bench/fanout.sh builds it."""
    FANOUT.parent.mkdir(parents=True, exist_ok=True)
    flags = subprocess.run(["pkg-config", "--cflags", "--libs", "libwebsockets"], capture_output=True, text=True, check=True).stdout.split()
    subprocess.run(["cc", "-O2", "-std=c99", "-Wall", "-o", str(FANOUT), str(REPO / "bench/fanout.c"), *flags], check=True)
    return FANOUT


def start_fanout(server, viewers: int, seconds: float) -> subprocess.Popen:
    return subprocess.Popen([str(FANOUT), "--host", "127.0.0.1", "--port", str(server.port), "--viewers", str(viewers),
                             "--duration", str(seconds), "--warmup", "3", "--pid", str(server.proc.pid)],
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)


def fanout_result(process: subprocess.Popen, seconds: float) -> dict:
    out, _ = process.communicate(timeout=seconds + 90)
    return json.loads(out.strip().splitlines()[-1])


async def present(url_for, seconds: float, rate: float) -> list[float]:
    """The presenter's moves for `seconds`: each one's time to the observer's `state`, in ms."""
    presenter = await Client.connect(url_for(name="Presenter"))
    observer = await Client.connect(url_for(name="Observer"))
    smallest = min((r for r in observer.hello["renditions"] if r["transport"] == "jpeg" and not r.get("second")),
                   key=lambda r: r["height"])
    try:
        await observer.send_json({"type": "watch", "transport": "jpeg", "rendition": smallest["id"]})
        await presenter.ok({"type": "present", "action": "take"})
        latencies = []
        end, index = time.monotonic() + seconds, 0
        while time.monotonic() < end:
            index += 1
            value = round(0.2 + 0.6 * (index % 50) / 50 + 0.001 * (index // 50), 4)
            sent = time.monotonic()
            await presenter.send_json({"type": "setParams", "params": {"intensity": value}})

            def attributed(state, value=value):
                link = (state.get("chain") or [{}])[0]
                return (link.get("params", {}).get("intensity") == value
                        and (state.get("changedBy") or {}).get("name") == "Presenter")
            await observer.next_json("state", where=attributed, timeout=5)
            latencies.append((time.monotonic() - sent) * 1000)
            observer.drop_frames()
            presenter.drop_frames()
            await asyncio.sleep(max(0.0, 1 / rate - (time.monotonic() - sent)))
        return latencies
    finally:
        await presenter.close()
        await observer.close()


def line(name: str, result: dict) -> str:
    fps = result["fps"]
    return (f"{name:<22} viewer fps min {fps['min']:5.1f}  median {fps['median']:5.1f}  under 29: {fps['below29']}  "
            f"server {result['server']['cpu_pct']:.0f} % of a core")


def main() -> None:
    parser = bench_arguments(__doc__, 1, 20)
    parser.add_argument("--viewers", type=int, default=50)
    parser.add_argument("--rate", type=float, default=10)
    options = parser.parse_args()
    fanout_binary()
    print(f"a presenter moving a slider before {options.viewers} viewers of 1280x720 at 25 fps, {options.seconds:g} s, "
          f"{options.rate:g} moves/s ({os.cpu_count()} cores, load {os.getloadavg()[0]:.1f}, {options.bin})")
    args = ["--input", "test:1280x720@25", "--filter", "sepia", "--max-clients", str(options.viewers + 10)]
    with serving(options.bin, args) as server:
        quiet = fanout_result(start_fanout(server, options.viewers, options.seconds), options.seconds)
        process = start_fanout(server, options.viewers, options.seconds + 3)
        time.sleep(3)
        cpu, started = cpu_seconds(server.proc.pid), time.monotonic()
        latencies = asyncio.run(present(lambda **query: server.ws_url(**query), options.seconds, options.rate))
        busy = fanout_result(process, options.seconds + 3)
        print(f"the server used {100 * (cpu_seconds(server.proc.pid) - cpu) / (time.monotonic() - started):.0f} % of a core meanwhile")
    print(line("peer: nobody presents", quiet))
    print(line("a presenter moves", busy))
    print(f"attribution (send → the observer's state naming the presenter), {len(latencies)} moves: "
          f"median {statistics.median(latencies):.1f} ms, p95 {percentile(latencies, 0.95):.1f} ms, max {max(latencies):.1f} ms "
          f"(goal ≤ 1000 ms); viewers' median fps against the quiet room's: {busy['fps']['median'] / quiet['fps']['median']:.2f}")


if __name__ == "__main__":
    main()
