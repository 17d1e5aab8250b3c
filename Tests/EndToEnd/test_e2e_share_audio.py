"""A shared camera's microphone (issue 16 item 4, `share {audio}` and `FCM1`, protocol v1
addition): Opus packets made by the ffmpeg CLI (libopus, 20 ms frames, split out of an Ogg file)
sent beside H.264 pictures with capture times on one clock; a listener hears them as `FCA1`
sound whose times track the camera's frames; bad microphone messages are refused clearly."""

from __future__ import annotations

import asyncio
import bisect
import random
import shutil
import statistics
import struct
import subprocess

from fc_client import Client, run
from test_e2e_metrics import scrape, value
from test_e2e_share import PATTERN, START, fci1, h264_units, wait_source

AUDIO = {"codec": "opus", "channels": 1, "rate": 48000}
START_US = 7_000_000


def fcm1(packet: bytes, sequence: int, capture_us: int) -> bytes:
    """One FCM1 microphone message (docs/PROTOCOL.md)."""
    return b"FCM1" + struct.pack("<HHQqq", 32, 0, sequence, capture_us, 0) + packet


def opus_packets(tmp_path, seconds: float = 4) -> list[bytes]:
    """A 440 Hz tone as mono Opus of 20 ms packets, split out of the Ogg the ffmpeg CLI wrote
    (its first two packets, OpusHead and OpusTags, left out)."""
    path = tmp_path / "mic.ogg"
    subprocess.run([shutil.which("ffmpeg"), "-nostdin", "-v", "error", "-y", "-f", "lavfi", "-i",
                    "sine=frequency=440:sample_rate=48000", "-t", str(seconds), "-ac", "1",
                    "-c:a", "libopus", "-b:a", "48k", "-frame_duration", "20", str(path)], check=True, timeout=60)
    data, packets, current, offset = path.read_bytes(), [], b"", 0
    while offset < len(data):
        assert data[offset:offset + 4] == b"OggS"
        count = data[offset + 26]
        lacing = data[offset + 27:offset + 27 + count]
        offset += 27 + count
        for length in lacing:
            current += data[offset:offset + length]
            offset += length
            if length < 255:
                packets.append(current)
                current = b""
    return packets[2:]


async def send_camera(client: Client, units, packets, seconds: float):
    """Pictures at 30 fps and microphone packets at 50 a second for `seconds`, in real time, both
    timed from START_US on one clock."""
    loop = asyncio.get_running_loop()
    began = loop.time()
    pictures = sounds = 0
    while (elapsed := loop.time() - began) < seconds:
        while pictures * 1 / 30 <= elapsed:
            unit, keyframe = units[pictures % len(units)]
            await client.send_raw(fci1(unit, pictures, START_US + round(pictures * 1e6 / 30), keyframe))
            pictures += 1
        while sounds * 0.02 <= elapsed:
            await client.send_raw(fcm1(packets[sounds % len(packets)], sounds, START_US + sounds * 20_000))
            sounds += 1
        await asyncio.sleep(0.005)
    return sounds


def test_the_microphone_is_heard_in_step_with_the_camera(start_server, tmp_path):
    server = start_server("--input", PATTERN)
    units, packets = h264_units(tmp_path, seconds=4), opus_packets(tmp_path)

    async def scenario():
        async with await Client.connect(server.ws_url()) as listener, await Client.connect(server.ws_url()) as sharer:
            await listener.ok({"type": "watch", "transport": "jpeg", "audio": True})
            await listener.frames(2)
            await sharer.ok({**START, "audio": AUDIO})
            sending = asyncio.create_task(send_camera(sharer, units, packets, 3.5))
            items = await listener.collect(3.2)
            sent = await sending
            metrics = await asyncio.to_thread(scrape, server)
            return items, sent, metrics

    items, sent, metrics = run(scenario(), timeout=60)
    states = [item for item in items if isinstance(item, dict) and item.get("type") == "state"]
    assert any(state["source"]["kind"] == "browser" for state in states)
    assert all(state["source"]["audio"] == AUDIO for state in states if state["source"]["kind"] == "browser"), states
    # The camera's, on its clock (the test pattern's are seconds earlier).
    sound = [item for item in items if getattr(item, "magic", None) == b"FCA1" and item.pts_us >= START_US - 1_000_000]
    pictures = [item for item in items if getattr(item, "magic", None) == b"FCF1" and item.pts_us >= START_US]
    assert len(sound) >= 100 and len(pictures) >= 60, (len(sound), len(pictures))
    # The first packet starts the stream at the first capture time (less the Opus encoder's 6.5 ms
    # of look-ahead), the others follow 20 ms apart: the camera frames' clock, whose first is START_US.
    first = sound[0]
    assert first.flags & 1 and abs(first.pts_us - START_US) <= 45_000, (first.flags, first.pts_us)
    assert all(b.pts_us - a.pts_us == 20_000 for a, b in zip(sound, sound[1:]))
    assert sound[-1].pts_us <= START_US + sent * 20_000
    # Each packet's time less that of the picture received last before it: the sound is never
    # more than 45 ms behind the pictures (it may come ahead: the page holds it until its picture).
    arrivals = [picture.received for picture in pictures]
    offsets = [(packet.pts_us - pictures[index].pts_us) / 1e3 for packet in sound
               if (index := bisect.bisect_right(arrivals, packet.received) - 1) >= 0]
    lead = statistics.median(offsets)
    assert -45 <= lead <= 250, f"median sound − picture {lead:.1f} ms"
    print(f"first sound {(first.pts_us - START_US) / 1e3:.1f} ms from the first capture; sound − picture received "
          f"last before it: median {lead:.1f} ms; {len(sound)} packets, {len(pictures)} pictures")
    assert value(metrics, "filtercast_ingest_sound_packets_total") == sent


def test_without_audio_there_is_none_and_bad_microphone_messages_are_refused(start_server, tmp_path):
    server = start_server("--input", PATTERN, "--max-ingest-bitrate", "300k")
    units, packets = h264_units(tmp_path, seconds=1), opus_packets(tmp_path, seconds=1)

    async def scenario():
        async with await Client.connect(server.ws_url()) as client:
            await client.ok(START)
            await client.send_raw(fci1(units[0][0], 0, START_US, True))
            silent = await wait_source(client, "browser")
            # Sound that share start did not announce: refused, and the sharing ends.
            await client.send_raw(fcm1(packets[0], 0, START_US))
            unannounced = await client.next_json("error", timeout=3)
            await wait_source(client, "test")
            await client.ok({**START, "audio": AUDIO})
            # A packet over 4000 bytes is dropped; the sharing goes on.
            await client.send_raw(fcm1(bytes(5000), 1, START_US))
            large = await client.next_json("error", timeout=3)
            await client.send_raw(fci1(units[0][0], 1, START_US, True))
            still = await wait_source(client, "browser")
            # A header alone, another header length: the sharing ends, as for pictures.
            await client.send_raw(fcm1(b"", 2, START_US))
            empty = await client.next_json("error", timeout=3)
            await wait_source(client, "test")
            await client.ok({**START, "audio": AUDIO})
            await client.send_raw(b"FCM1" + struct.pack("<HHQqq", 40, 0, 3, START_US, 0) + packets[0])
            length = await client.next_json("error", timeout=3)
            # A flood of packets (200 a second) ends it too.
            await client.ok({**START, "audio": AUDIO})
            for index in range(500):
                await client.send_raw(fcm1(packets[0], index, START_US + index * 5_000))
                if index % 50 == 0:
                    await asyncio.sleep(0.25)
            flood = await client.next_json("error", timeout=5)
            back = await wait_source(client, "test")
            return silent, unannounced, large, still, empty, length, flood, back

    silent, unannounced, large, still, empty, length, flood, back = run(scenario(), timeout=60)
    assert silent["source"]["audio"] is None
    assert unannounced["code"] == "invalid_argument" and "announced no audio" in unannounced["message"], unannounced
    assert large["code"] == "too_large" and "4000 bytes" in large["message"], large
    assert still["source"]["audio"] == AUDIO
    assert empty["code"] == "invalid_argument" and "no Opus packet" in empty["message"], empty
    assert length["code"] == "invalid_argument" and "not a valid FCM1 message" in length["message"], length
    assert flood["code"] == "ingest_failed" and "100 packets a second" in flood["message"], flood
    assert back["source"]["startInput"] and server.running


def test_packets_that_do_not_decode_are_skipped_and_the_sound_goes_on(start_server, tmp_path):
    """The microphone's packets are untrusted input to the Opus decoder: random bytes and cut or
    bit-flipped packets among real ones (a listener, so that they are decoded)."""
    server = start_server("--input", PATTERN)
    units, packets = h264_units(tmp_path, seconds=1), opus_packets(tmp_path, seconds=2)
    rng = random.Random(16)

    def mutated(index: int) -> bytes:
        packet = bytearray(packets[index % len(packets)])
        choice = index % 3
        if choice == 0:
            return rng.randbytes(rng.randint(1, 4000))
        if choice == 1:
            return bytes(packet[:rng.randint(1, len(packet))])
        for _ in range(8):
            packet[rng.randrange(len(packet))] ^= 1 << rng.randrange(8)
        return bytes(packet)

    async def scenario():
        async with await Client.connect(server.ws_url()) as listener, await Client.connect(server.ws_url()) as sharer:
            await listener.ok({"type": "watch", "transport": "jpeg", "audio": True})
            await sharer.ok({**START, "audio": AUDIO})
            for index in range(90):
                if index % 3 == 0:
                    await sharer.send_raw(fci1(units[0][0], index, START_US + index * 20_000, True))
                await sharer.send_raw(fcm1(mutated(index), index, START_US + index * 20_000))
                await asyncio.sleep(0.02)
            await send_camera(sharer, units, packets, 1.5)
            items = await listener.collect(0.5)
            errors = [item for item in await sharer.collect(0.2) if isinstance(item, dict) and item.get("type") == "error"]
            return items, errors

    items, errors = run(scenario(), timeout=60)
    assert errors == []
    assert sum(1 for item in items if getattr(item, "magic", None) == b"FCA1") >= 10, "no sound after the bad packets"
    assert server.running
