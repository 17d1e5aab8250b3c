"""Delivery: flow control (window, acks) and a stalled client that must not slow the others."""

import asyncio
import json
import time

import pytest

from fc_client import Client, RawWebSocket, run

pytestmark = pytest.mark.solo  # delivered rates and windows: run alone


async def frames_in(client: Client, seconds: float) -> list:
    items = await client.collect(seconds)
    return [item for item in items if not isinstance(item, dict)]


def test_without_acks_at_most_the_window_of_two_frames_arrives(server):
    async def scenario():
        async with await Client.connect(server.ws_url(), auto_ack=False) as client:
            unacked = await frames_in(client, 1.0)
            assert 1 <= len(unacked) <= 2, f"window 2 without acks let {len(unacked)} frames through: {unacked}"
            still = await frames_in(client, 0.5)
            assert still == [], f"frames kept coming without acks: {still}"
            # Acknowledging the last one opens the window again.
            await client.ack(unacked[-1].seq)
            resumed = await frames_in(client, 0.5)
            assert 1 <= len(resumed) <= 2, f"after one ack: {resumed}"
            assert resumed[0].seq > unacked[-1].seq
            # Acknowledging as they come: the full rate (30 fps source).
            client.auto_ack = True
            await client.ack(resumed[-1].seq)
            flowing = await frames_in(client, 1.0)
            assert len(flowing) >= 20, f"only {len(flowing)} frames in 1 s while acknowledging each"
    run(scenario())


def test_window_of_one_and_four(server):
    async def scenario():
        async with await Client.connect(server.ws_url(), auto_ack=False) as client:
            await client.ok({"type": "flow", "window": 1})
            await client.collect(0.1)  # frames in flight from the default window
            await client.ack(2**63)  # acknowledges everything sent so far (clamped by the server)
            one = await frames_in(client, 0.6)
            assert len(one) == 1, f"window 1: {one}"
            await client.ok({"type": "flow", "window": 4})
            # Acknowledge frames at once for a while: the server then knows this client keeps up
            # with the frame rate (a client slower than that — as this one was so far — gets one
            # frame in flight whatever its window: see the next test).
            await client.ack(one[-1].seq)
            for _ in range(20):
                frame = await client.next_frame()
                await client.ack(frame.seq)
            four = await frames_in(client, 0.8)
            assert len(four) == 4, f"window 4 should let 4 frames through without acks: {four}"
    run(scenario())


def test_a_reader_slower_than_the_frame_rate_gets_one_frame_in_flight(server):
    """A client that shows a frame every 200 ms would find a second frame in flight 200 ms old."""
    async def scenario():
        async with await Client.connect(server.ws_url(), auto_ack=False) as client:
            latencies = []
            for _ in range(8):
                frame = await client.next_frame()
                latencies.append(frame.received_wall_us - frame.sent_us)
                await asyncio.sleep(0.2)  # "showing" it
                await client.ack(frame.seq)
            fresh = sorted(latencies[3:])
            assert fresh[-1] < 100_000, f"frames arrived {fresh} µs after they were sent"
    run(scenario())


def test_window_zero_turns_acknowledgements_off(server):
    async def scenario():
        async with await Client.connect(server.ws_url(), auto_ack=False) as client:
            reply = await client.ok({"type": "flow", "window": 0})
            assert reply["type"] == "ack"
            frames = await frames_in(client, 1.0)
            assert len(frames) >= 20, f"window 0: only {len(frames)} frames in 1 s without acks"
            seqs = [f.seq for f in frames]
            assert seqs == sorted(set(seqs))
    run(scenario())


def test_an_ack_beyond_what_was_sent_does_not_open_the_window_for_ever(server):
    async def scenario():
        async with await Client.connect(server.ws_url(), auto_ack=False) as client:
            await client.ack(10**12)
            frames = await frames_in(client, 1.0)
            assert len(frames) <= 4, f"an ack for a frame never sent let {len(frames)} frames through"
    run(scenario())


def delivered_fps(client: Client, seconds: float):
    async def measure():
        await client.collect(0.3)  # settle
        start = time.monotonic()
        frames = await frames_in(client, seconds)
        return len(frames) / (time.monotonic() - start)
    return measure()


def test_a_client_that_stops_reading_does_not_slow_another(server):
    async def scenario():
        async with await Client.connect(server.ws_url()) as reader:
            alone = await delivered_fps(reader, 2.0)
            # The stalled client: window 0 (no acks needed) and a tiny receive buffer, then it
            # never reads again, so the server's writes to it back up.
            stalled = RawWebSocket.connect(server.host, server.port, receive_buffer=4096)
            assert stalled.status == 101, stalled.response_head
            stalled.send_text(json.dumps({"type": "flow", "window": 0}))
            # A second stalled client that never acknowledges (default window).
            unacking = RawWebSocket.connect(server.host, server.port, receive_buffer=4096)
            assert unacking.status == 101
            try:
                await asyncio.sleep(0.5)  # let their buffers fill
                state = await reader.next_json("state", where=lambda s: s["viewers"] == 3, timeout=3)
                together = await delivered_fps(reader, 2.0)
            finally:
                stalled.close()
                unacking.close()
            return alone, together, state
    alone, together, state = run(scenario())
    assert alone >= 20, f"a single reader of a 30 fps source got {alone:.1f} fps"
    assert together >= 0.8 * alone, (
        f"with a stalled client the reader got {together:.1f} fps, alone {alone:.1f} fps")
    assert 20 <= state["fps"] <= 40, state


def test_many_idle_clients_do_not_slow_a_reader(server):
    """Ten clients that never acknowledge and never read."""
    async def scenario():
        async with await Client.connect(server.ws_url()) as reader:
            alone = await delivered_fps(reader, 1.5)
            idle = [RawWebSocket.connect(server.host, server.port, receive_buffer=4096) for _ in range(10)]
            try:
                for sock in idle[::2]:
                    sock.send_text('{"type": "flow", "window": 0}')
                await reader.next_json("state", where=lambda s: s["viewers"] == 11, timeout=3)
                together = await delivered_fps(reader, 1.5)
            finally:
                for sock in idle:
                    sock.close()
            after = await reader.next_json("state", where=lambda s: s["viewers"] == 1, timeout=3)
            return alone, together, after
    alone, together, after = run(scenario())
    assert together >= 0.8 * alone, f"with 10 idle clients {together:.1f} fps, alone {alone:.1f} fps"
    assert after["viewers"] == 1


def test_a_command_flood_is_rate_limited_and_the_connection_survives(server):
    async def scenario():
        async with await Client.connect(server.ws_url()) as client:
            client.auto_ack = False
            for _ in range(300):
                await client.send_json({"type": "flow", "window": 2})
            error = await client.next_json("error", timeout=3)
            assert error["code"] == "rate_limited", error
            await asyncio.sleep(1.0)  # the budget refills
            client.auto_ack = True
            await client.ok({"type": "setFilter", "name": "sepia"})
            await client.next_frame(timeout=3)
    run(scenario())


def test_acknowledging_every_frame_of_a_fast_source_is_not_rate_limited(start_server):
    """frameAck is the flow control itself: a client that acknowledges every frame of a 120 fps
    source must keep getting frames (and commands) rather than being told rate_limited."""
    server = start_server("--input", "test:160x120@120")

    async def scenario():
        async with await Client.connect(server.ws_url()) as client:
            await client.collect(0.5)
            start = time.monotonic()
            frames = await frames_in(client, 3.0)
            rate = len(frames) / (time.monotonic() - start)
            reply = await client.command({"type": "setFilter", "name": "sepia"})
            errors = [m for m in client.json_received if m["type"] == "error"]
            return rate, reply, errors
    rate, reply, errors = run(scenario())
    assert not errors, f"errors while only acknowledging frames: {errors}"
    assert reply["type"] == "ack", reply
    assert rate >= 60, f"{rate:.1f} fps delivered from a 120 fps source while acknowledging each frame"
