"""GET /metrics: the Prometheus text format, scraped from a real server with real viewers and
parsed by a small strict parser (no prometheus_client here)."""

import asyncio
import math
import re
import time

import pytest

from fc_client import Client, run
from live_feed import LiveFeed

SAMPLE = re.compile(r'^(?P<name>[a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(?P<labels>.*)\})? (?P<value>\S+)$')
LABEL = re.compile(r'([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\\n]|\\[\\"n])*)"(,|$)')


def parse(text: str) -> dict:
    """{(name, frozenset of label pairs): value}; asserts the format line by line."""
    assert text.endswith("\n"), "the exposition ends with a newline"
    samples, types, helped = {}, {}, set()
    for line in text[:-1].split("\n"):
        if line.startswith("# HELP "):
            name = line.split(" ")[2]
            assert name not in helped, f"second HELP for {name}"
            helped.add(name)
            continue
        if line.startswith("# TYPE "):
            _, _, name, kind = line.split(" ")
            assert kind in ("counter", "gauge", "histogram") and name not in types, line
            types[name] = kind
            continue
        match = SAMPLE.match(line)
        assert match, f"not a sample line: {line!r}"
        labels, rest = [], match["labels"] or ""
        while rest:
            label = LABEL.match(rest)
            assert label, f"bad labels in {line!r}"
            labels.append((label[1], label[2]))
            rest = rest[label.end():]
        value = {"+Inf": math.inf, "-Inf": -math.inf, "NaN": math.nan}.get(match["value"])
        samples[(match["name"], frozenset(labels))] = float(match["value"]) if value is None else value
    # Every sample belongs to a declared family; counters end in _total.
    for name, _ in samples:
        family = re.sub(r"_(bucket|sum|count)$", "", name) if name not in types else name
        assert family in types, f"{name} has no # TYPE"
        assert types[family] != "counter" or name.endswith("_total"), name
    return {"samples": samples, "types": types}


def value(scrape: dict, name: str, **labels) -> float:
    return scrape["samples"][(name, frozenset(labels.items()))]


def scrape(server, path="/metrics") -> dict:
    response = server.get(path)
    assert response.status == 200, response
    assert response.content_type == "text/plain; version=0.0.4; charset=utf-8"
    assert response.headers.get("cache-control") == "no-store"
    return parse(response.text())


def scrape_until(server, condition, timeout: float = 3.0) -> dict:
    """Scrapes until `condition(scrape)` holds; fails after `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while True:
        metrics = scrape(server)
        if condition(metrics):
            return metrics
        assert time.monotonic() < deadline, f"not reached within {timeout} s: {metrics['samples']}"
        time.sleep(0.05)


def check_histogram(scrape: dict, name: str):
    buckets = sorted(((float(dict(labels)["le"]), v) for (n, labels), v in scrape["samples"].items()
                      if n == name + "_bucket"))
    assert buckets[-1][0] == math.inf, buckets
    counts = [count for _, count in buckets]
    assert counts == sorted(counts), f"{name}: buckets are not cumulative: {buckets}"
    assert counts[-1] == value(scrape, name + "_count")
    return counts[-1], value(scrape, name + "_sum")


async def watch(server, seconds: float, auto_ack: bool = True) -> list:
    async with await Client.connect(server.ws_url(), auto_ack=auto_ack) as client:
        items = await client.collect(seconds)
    return [item for item in items if not isinstance(item, dict)]


@pytest.mark.solo  # measures a rate or sync: run alone
def test_counters_move_with_viewers_and_parse_back(start_server):
    server = start_server("--input", "test:320x240@30", "--filter", "sepia")
    idle = scrape_until(server, lambda m: value(m, "filtercast_frames_dropped_total", reason="no_viewers") > 0)
    assert idle["types"]["filtercast_frames_dropped_total"] == "counter"
    assert value(idle, "filtercast_viewers") == 0
    assert value(idle, "filtercast_source_online") == 1
    assert value(idle, "filtercast_recording_active") == 0
    assert value(idle, "filtercast_frames_encoded_total") == 0, "nothing is encoded while nobody watches"

    async def two_viewers():
        async with await Client.connect(server.ws_url()) as first, await Client.connect(server.ws_url()) as second:
            await first.next_json("state", where=lambda state: state["viewers"] == 2)
            during = scrape(server)
            got = await asyncio.gather(first.collect(1.5), second.collect(1.5))
            return during, [[item for item in items if not isinstance(item, dict)] for items in got]
    during, (frames, others) = run(two_viewers())
    assert value(during, "filtercast_viewers") == 2
    # Once nobody watches the counts settle: every filtered frame encoded and timed.
    after = scrape_until(server, lambda m: value(m, "filtercast_viewers") == 0 and len({
        value(m, "filtercast_frames_filtered_total"), value(m, "filtercast_frames_encoded_total"),
        value(m, "filtercast_filter_seconds_count"), value(m, "filtercast_encode_seconds_count")}) == 1)

    encoded = value(after, "filtercast_frames_encoded_total")
    sent = value(after, "filtercast_frames_sent_total")
    assert len(frames) >= 15, f"only {len(frames)} frames in 1.5 s"
    assert encoded >= len(frames), (encoded, len(frames))
    assert value(after, "filtercast_frames_filtered_total") >= encoded
    assert sent >= len(frames) + len(others), f"viewers got {len(frames)} + {len(others)}, {sent} counted as sent"
    assert value(after, "filtercast_frames_decoded_total") > value(idle, "filtercast_frames_decoded_total")
    assert value(after, "filtercast_bytes_sent_total") >= sum(32 + len(frame.jpeg) for frame in frames)
    for name in ("filtercast_filter_seconds", "filtercast_encode_seconds"):
        count, total = check_histogram(after, name)
        assert count == encoded, f"{name}: {count} observations for {encoded} frames"
        assert 0 < total < count * 0.1, f"{name}: {total} s for {count} frames"
    assert check_histogram(idle, "filtercast_encode_seconds") == (0, 0)


def test_drops_by_reason(start_server):
    server = start_server("--input", "test:320x240@30", "--max-fps", "10")
    before = scrape(server)
    # A viewer that never acknowledges gets its window (2 frames); the rest are dropped for it.
    frames = run(watch(server, 1.5, auto_ack=False))
    assert 1 <= len(frames) <= 2
    # Scraped before the acknowledging viewer: a loaded machine may make *it* lag two frame
    # intervals once and skip a frame, rightly counted; the unacknowledging one must count none.
    stuck = scrape(server)
    assert value(stuck, "filtercast_frames_dropped_total", reason="slow_client") == 0, \
        "a client that stops acknowledging is not sent more; it skips nothing until it gets another frame"
    fast = run(watch(server, 1.0))
    after = scrape(server)
    assert value(after, "filtercast_frames_dropped_total", reason="max_fps") > \
        value(before, "filtercast_frames_dropped_total", reason="max_fps") + 10, "30 fps source, --max-fps 10"
    assert len(fast) >= 3
    assert value(after, "filtercast_frames_dropped_total", reason="encode_failed") == 0


def test_slow_client_drops_are_counted(start_server):
    server = start_server("--input", "test:320x240@30")

    async def slow_then_resume():
        async with await Client.connect(server.ws_url(), auto_ack=False) as client:
            held = [item for item in await client.collect(1.0) if not isinstance(item, dict)]
            await client.ack(held[-1].seq)
            resumed = await client.next_frame(timeout=3)
            return held[-1].seq, resumed.seq
    last_held, resumed = run(slow_then_resume())
    skipped = resumed - last_held - 1
    assert skipped >= 10, f"resumed at {resumed} after holding {last_held} for ~1 s"
    dropped = value(scrape(server), "filtercast_frames_dropped_total", reason="slow_client")
    assert dropped >= skipped, (dropped, skipped)


def test_metrics_need_the_token_like_the_state(start_server):
    server = start_server("--input", "test:160x120@30", "--token", "m3trics")
    assert server.get("/metrics").status == 401
    assert value(scrape(server, "/metrics?token=m3trics"), "filtercast_viewers") == 0
    head = server.http("HEAD", "/metrics?token=m3trics")
    assert head.status == 200 and head.body == b"" and int(head.headers["content-length"]) > 1000


def test_recording_active_follows_the_recorder_also_when_it_stops_by_itself(start_server):
    server = start_server("--input", "test:640x360@30", "--max-record-size", "300k")
    assert value(scrape(server), "filtercast_recording_active") == 0

    async def scenario():
        async with await Client.connect(server.ws_url()) as client:
            await client.ok({"type": "record", "action": "start"})
            scrape_until(server, lambda m: value(m, "filtercast_recording_active") == 1)
            error = await client.next_json("error", timeout=20)  # the size limit stops it
            assert error["code"] == "recording_failed", error
            while True:
                state = await client.next_json("state", timeout=5)
                if not state["recording"]["active"]:
                    return state["recording"]
    recording = run(scenario(), timeout=40)
    stopped = scrape_until(server, lambda m: value(m, "filtercast_recording_active") == 0)
    # The counter adds up the drops of every recording: here the one.
    assert value(stopped, "filtercast_frames_dropped_total", reason="recording") == recording["droppedFrames"]


def test_source_online_follows_a_live_stream(start_server):
    feed = LiveFeed("udp").start()
    try:
        server = start_server("--input", feed.url, "--stall-timeout", "1")
        scrape_until(server, lambda m: value(m, "filtercast_source_online") == 1
                     and value(m, "filtercast_frames_decoded_total") > 0, timeout=10)
        feed.stop()
        scrape_until(server, lambda m: value(m, "filtercast_source_online") == 0, timeout=10)
        feed.start()
        scrape_until(server, lambda m: value(m, "filtercast_source_online") == 1, timeout=25)
    finally:
        feed.stop()
