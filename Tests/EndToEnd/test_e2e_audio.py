"""Sound on the WebSocket (issue 16): a client that asks (`watch {audio: true}`) gets the source's
sound as `FCA1` Opus packets on the pictures' clock, a file's ~150 ms ahead of its pictures; a v1 client gets none; pause stops it, a seek
restarts it at the new position, another source (`open`) at its start; a clip without sound has
`state.source.audio` null and no packets; a file of sound alone is refused, saying so; a live
stream's sound also leaves ahead of its pictures (they wait for it), stops while the stream is
offline and starts over with its pictures when it is back.
The clip: 320x240 H.264 at 25 fps with a 440 Hz tone as AAC at 44.1 kHz, 6 s, made by the ffmpeg CLI."""

import asyncio
import bisect
import shutil
import statistics
import subprocess

import pytest

from fc_client import Client, run
from fc_server import child_environment, make_clip, make_tone_clip
from live_feed import LiveFeed
from test_e2e_live import start_when_listening, state_where

AUDIO = b"FCA1"
PACKET_US = 20_000


@pytest.fixture(scope="module")
def tone_clip(tmp_path_factory):
    return make_tone_clip(tmp_path_factory.mktemp("audio-clips") / "tone-6s.mp4", "320x240", 25, 6, 44_100)


def sound(items):
    return [item for item in items if getattr(item, "magic", None) == AUDIO]


def pictures(items):
    return [item for item in items if getattr(item, "magic", None) == b"FCF1"]


def offsets(items):
    """For each sound packet, its time less the time of the picture received last before it (s)."""
    shown = pictures(items)
    arrivals = [picture.received for picture in shown]
    result = []
    for packet in sound(items):
        index = bisect.bisect_right(arrivals, packet.received) - 1
        if index >= 0:
            result.append((packet.pts_us - shown[index].pts_us) / 1e6)
    return result


async def until_sound(client, count: int, timeout: float = 8.0) -> list:
    """Everything received until `count` sound packets came (a count, not a rate: a loaded machine
    is slower; the deadline fails a stream that stops)."""
    loop = asyncio.get_running_loop()
    deadline, items = loop.time() + timeout, []
    while len(sound(items)) < count:
        assert loop.time() < deadline, f"{len(sound(items))} sound packets of {count} within {timeout} s"
        items += await client.collect(0.1)
    return items


async def next_sound(client, where=lambda packet: True, timeout: float = 5.0):
    return await client.next_frame(where=lambda item: item.magic == AUDIO and where(item), timeout=timeout)


async def listener(server):
    client = await Client.connect(server.ws_url())
    assert (await client.command({"type": "watch", "transport": "jpeg", "audio": True}))["type"] == "ack"
    return client


# The sync figure (sound ahead of pictures) is a latency of the picture path, which a second test
# on the two cores lengthens: measured alone, like its live twin below.
@pytest.mark.solo  # measures sync: run alone
def test_a_listener_gets_the_sound_in_step_with_the_pictures_and_a_v1_client_none(start_server, tone_clip):
    server = start_server("--input", str(tone_clip))

    async def scenario():
        plain = await Client.connect(server.ws_url())
        assert plain.hello["audio"] == {"codec": "opus", "channels": 2, "rate": 48000}
        assert plain.hello["state"]["source"]["audio"] == {"codec": "aac", "channels": 2, "rate": 44100}
        client = await listener(server)
        items = await until_sound(client, 100)
        packets = sound(items)
        steps = {b.pts_us - a.pts_us for a, b in zip(packets, packets[1:]) if b.pts_us > a.pts_us}
        assert steps <= {PACKET_US}, f"sound packets are not 20 ms apart: {sorted(steps)[:5]}"
        assert all(b.seq == a.seq + 1 for a, b in zip(packets, packets[1:])), "a listener keeping up skips no packet"
        # 6 s clip that loops: at most one restart in 100 packets (2 s of sound), flagged.
        assert sum(1 for a, b in zip(packets, packets[1:]) if b.pts_us < a.pts_us) <= 1
        # A file's sound leaves ahead of its pictures (up to 150 ms: the page holds it, and so
        # has it in time to be heard with its picture).
        differences = offsets(items)
        median = statistics.median(differences)
        assert 0.08 <= median <= 0.2, f"sound minus picture at the same moments: median {median * 1000:.0f} ms"
        assert not sound(await plain.collect(0.5)), "a client that did not ask got sound"
        metrics = server.get("/metrics").text()
        encoded = int(next(line.split()[-1] for line in metrics.splitlines()
                           if line.startswith("filtercast_audio_packets_total")))
        assert encoded >= len(packets)

    run(scenario())


def test_pause_stops_the_sound_and_a_seek_restarts_it_at_the_new_time(start_server, tone_clip):
    server = start_server("--input", str(tone_clip))

    async def scenario():
        client = await listener(server)
        assert sound(await client.collect(1.0)), "no sound before the pause"
        assert (await client.command({"type": "pause"}))["type"] == "ack"
        paused = await client.next_json("state", where=lambda s: s["playing"] is False, timeout=5)
        # What was demuxed and encoded before the pause may still come out, however slowly a loaded
        # machine sends it — but none of it past the paused position + the sound's lead (150 ms) and
        # a packet, and it ends: 0.5 s with no sound within 5 s, then a whole second of silence.
        tail, deadline = [], asyncio.get_running_loop().time() + 5
        while window := sound(await client.collect(0.5)):
            tail += window
            assert asyncio.get_running_loop().time() < deadline, f"sound kept coming while paused: {len(tail)} packets"
        assert all(p.pts_us / 1e6 <= paused["position"] + 0.2 for p in tail), \
            (paused["position"], [p.pts_us / 1e6 for p in tail])
        assert not sound(await client.collect(1.0)), "sound while paused"
        assert (await client.command({"type": "play"}))["type"] == "ack"
        await next_sound(client)  # "no sound after play" fails here (5 s)
        client.drop_frames()
        assert (await client.command({"type": "seek", "position": 4.0}))["type"] == "ack"
        first = await next_sound(client, where=lambda packet: packet.flags & 1)
        assert abs(first.pts_us / 1e6 - 4.0) < 0.03, f"the sound restarted at {first.pts_us / 1e6} s, not 4.0 s"
        after = [first] + sound(await until_sound(client, 39))
        assert all(b.pts_us - a.pts_us == PACKET_US for a, b in zip(after, after[1:])), [p.pts_us for p in after]

    run(scenario())


def test_a_clip_without_sound_has_no_audio_and_sends_none(start_server, tmp_path):
    clip = make_clip(tmp_path / "silent.mp4", "testsrc2=size=320x240:rate=25", 3, "-g", "25")
    server = start_server("--input", str(clip))

    async def scenario():
        client = await listener(server)
        assert client.hello["state"]["source"]["audio"] is None
        items = await client.collect(1.5)
        assert pictures(items) and not sound(items)
        refused = await client.command({"type": "watch", "transport": "jpeg", "audio": "yes"})
        assert refused["type"] == "error" and refused["code"] == "invalid_argument" and "watch.audio" in refused["message"]

    run(scenario())


def test_another_source_restarts_the_sound_at_its_start(start_server, tone_clip, tmp_path):
    media = tmp_path / "media"
    media.mkdir()
    make_tone_clip(media / "other.mp4", "320x240", 25, 4, 48_000)
    server = start_server("--input", str(tone_clip), "--media-dir", str(media))

    async def scenario():
        client = await listener(server)
        await client.collect(1.2)  # into the first clip
        assert (await client.command({"type": "open", "source": "media/other.mp4"}))["type"] == "ack"
        # The file's sound is described in the first state that names it (it is known at `open`).
        state = await client.next_json("state", where=lambda s: s["source"]["name"] == "media/other.mp4")
        assert state["source"]["audio"] == {"codec": "aac", "channels": 2, "rate": 48000}
        restarted = [packet for packet in sound(await client.collect(1.0)) if packet.flags & 1]
        assert restarted, "no sound packet flagged as the first of the new source"
        assert abs(restarted[-1].pts_us / 1e6) < 0.05, f"the new source's sound starts at {restarted[-1].pts_us / 1e6} s"

    run(scenario())


def test_a_file_of_sound_alone_is_refused_clearly_and_the_session_goes_on(start_server, filtercast_bin, tone_clip, tmp_path):
    media = tmp_path / "media"
    media.mkdir()
    tone = media / "tone.m4a"
    subprocess.run([shutil.which("ffmpeg"), "-v", "error", "-y", "-f", "lavfi", "-i", "sine=f=440:d=2", "-c:a", "aac",
                    str(tone)], check=True, timeout=60)
    why = "has no video stream: a file of sound alone is not played (there is no picture to filter)"
    started = subprocess.run([filtercast_bin, "serve", "--input", str(tone), "--port", "0"], capture_output=True,
                             text=True, timeout=30, env=child_environment())
    assert started.returncode != 0 and why in started.stderr, started.stderr
    server = start_server("--input", str(tone_clip), "--media-dir", str(media))

    async def scenario():
        client = await listener(server)
        refused = await client.command({"type": "open", "source": "media/tone.m4a"})
        assert refused["type"] == "error" and refused["code"] == "open_failed", refused
        assert refused["message"] == f"media/tone.m4a {why}", refused
        # The clip plays on, with its sound.
        items = await client.collect(1.0)
        assert pictures(items) and sound(items)

    run(scenario())


def test_at_another_speed_the_pictures_play_without_sound(start_server, tone_clip):
    server = start_server("--input", str(tone_clip), "--speed", "2")

    async def scenario():
        client = await Client.connect(server.ws_url())
        assert client.hello["audio"] is None, "sound offered at --speed 2: it would play at the wrong pace"
        refused = await client.command({"type": "watch", "transport": "jpeg", "audio": True})
        assert refused["type"] == "error" and "sends no sound" in refused["message"], refused
        items = await client.collect(1.0)
        assert pictures(items) and not sound(items)

    run(scenario())
    assert "no sound at --speed 2.0: the pictures play alone" in server.stderr_text()


@pytest.mark.solo  # measures a rate or sync: run alone
def test_a_live_streams_sound_leaves_ahead_of_its_pictures_too(start_server):
    # MPEG-TS gathers its sound into packets of ~170 ms, after the pictures of that time: without
    # waiting for it, the sound left 50 ms behind its pictures in the median (-190…+70 ms).
    feed = LiveFeed("tcp", sound=True).start()
    try:
        server = start_when_listening(start_server, feed)

        async def scenario():
            client = await listener(server)
            await client.collect(1.5)  # the first pictures, before the sound was waited for
            items = await client.collect(3.0)
            assert len(pictures(items)) >= 60, f"{len(pictures(items))} pictures in 3 s of a 25 fps stream"
            differences = offsets(items)
            deciles = statistics.quantiles(differences, n=10)
            assert 0.08 <= statistics.median(differences) <= 0.3 and deciles[0] > 0, \
                f"sound minus picture at the same moments (ms): median {statistics.median(differences) * 1000:.0f}, " \
                f"deciles {[round(d * 1000) for d in deciles]}"

        run(scenario())
    finally:
        feed.stop()


@pytest.mark.solo  # measures a rate or sync: run alone
def test_a_live_streams_sound_stops_while_it_is_offline_and_resumes_with_its_pictures(start_server):
    feed = LiveFeed("udp", sound=True).start()
    try:
        server = start_server("--input", feed.url, "--stall-timeout", "1")

        async def scenario():
            client = await listener(server)
            playing = await client.collect(2.5)
            assert len(sound(playing)) >= 50, f"{len(sound(playing))} sound packets in 2.5 s of a stream with sound"
            feed.stop()
            await state_where(client, lambda s: s["source"]["online"] is False, timeout=10)
            await client.collect(0.5)  # what left before the source was found offline
            offline = await client.collect(2.0)
            assert sound(offline) == [], f"{len(sound(offline))} sound packets while the source was offline"
            assert pictures(offline), "no placeholder while offline"
            feed.start()
            await state_where(client, lambda s: s["source"]["online"] is True, timeout=25)
            back = await client.collect(3.0)
            resumed = sound(back)
            assert len(resumed) >= 100, f"{len(resumed)} sound packets in 3 s back online"
            assert resumed[0].flags & 1, "the sound back online does not start over (no restart flag)"
            differences = offsets(back)
            assert abs(statistics.median(differences)) <= 0.3, \
                f"sound minus picture back online (ms): median {statistics.median(differences) * 1000:.0f}"

        run(scenario(), timeout=90)
    finally:
        feed.stop()
