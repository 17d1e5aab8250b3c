"""H.264 over /ws (protocol v1 addition): hello offers it, `watch` switches one client, the
access units decode with FFmpeg and carry their flags, a client that says nothing keeps JPEG,
bad choices are refused, and a client that never acknowledges holds at most eight units while
the others play on."""

import asyncio
import statistics
import subprocess

from fc_client import Client, run


async def units_in(client: Client, seconds: float) -> list:
    return [item for item in await client.collect(seconds) if not isinstance(item, dict)]


async def units(client: Client, count: int, timeout: float = 10.0) -> list:
    """The next `count` access units (JPEG frames before them skipped), however long a loaded
    machine takes to send them (up to `timeout`)."""
    deadline = asyncio.get_running_loop().time() + timeout
    return [await client.next_frame(timeout=max(0.01, deadline - asyncio.get_running_loop().time()),
                                    where=lambda f: f.is_unit) for _ in range(count)]


async def until_quiet(client: Client, quiet: float = 0.7, timeout: float = 6.0) -> list:
    """Everything that arrives until `quiet` s pass with no frame (the deadline fails a stream that
    never stops)."""
    received = []
    deadline = asyncio.get_running_loop().time() + timeout
    while window := await units_in(client, quiet):
        received += window
        assert asyncio.get_running_loop().time() < deadline, f"still sending after {timeout} s: {len(received)} frames"
    return received


def picture_step(units: list) -> float:
    """The median step of the source's clock (pts, s) from one picture to the next that reached the
    client (refinements, which repeat a pts, left out): a peer that made the stream skip pictures
    raises it; a one-off stall of a loaded machine is one step and moves a median little, and the
    client's receive timing does not enter."""
    times = sorted({u.pts_us for u in units})
    return statistics.median(b - a for a, b in zip(times, times[1:])) / 1e6


def decode(units: list) -> int:
    """Frames FFmpeg decodes from the units' Annex B bytes, laid end to end (it fails on errors)."""
    result = subprocess.run(["ffmpeg", "-v", "error", "-xerror", "-f", "h264", "-i", "-", "-f", "null", "-"],
                            input=b"".join(unit.jpeg for unit in units), capture_output=True, timeout=60)
    assert result.returncode == 0, result.stderr.decode()
    probe = subprocess.run(["ffprobe", "-v", "error", "-count_frames", "-show_entries", "stream=nb_read_frames,profile",
                            "-of", "csv=p=0", "-f", "h264", "-"], input=b"".join(unit.jpeg for unit in units),
                           capture_output=True, timeout=60, text=False)
    profile, frames = probe.stdout.decode().strip().split(",")
    assert profile == "Constrained Baseline"
    return int(frames)


def test_hello_offers_h264_and_watch_switches_one_client(server):
    async def scenario():
        async with await Client.connect(server.ws_url()) as viewer, await Client.connect(server.ws_url()) as other:
            hello = viewer.hello
            assert hello["transports"] == ["jpeg", "h264"]
            assert [(r["id"], r["transport"], r["width"], r["height"]) for r in hello["renditions"]] == [
                ("jpeg-240p", "jpeg", 320, 240), ("jpeg-120p", "jpeg", 160, 120), ("h264-240p", "h264", 320, 240),
                ("preview-240p", "jpeg", 320, 240), ("preview-120p", "jpeg", 160, 120),
                ("source-240p", "jpeg", 320, 240), ("source-120p", "jpeg", 160, 120)]
            assert hello["renditions"][2]["bitsPerSecond"] > 0 and "bitsPerSecond" not in hello["renditions"][0]
            await viewer.ok({"type": "watch", "transport": "h264"})
            viewer.drop_frames()
            taken = await units(viewer, 40)  # a count, not a rate: a loaded machine is slower
            assert taken[0].keyframe, "a viewer starts at a keyframe"
            assert [u.seq for u in taken] == list(range(taken[0].seq, taken[0].seq + len(taken))), "consecutive"
            assert all(u.picture == (320, 240, 2) for u in taken)
            assert decode(taken) == len(taken)
            others = await units_in(other, 0.5)
            assert others and all(f.magic == b"FCF1" for f in others), "the other client still gets JPEG"
    run(scenario())


def test_a_filter_change_marks_the_next_unit_and_back_to_jpeg(server):
    async def scenario():
        async with await Client.connect(server.ws_url()) as viewer:
            await viewer.ok({"type": "watch", "transport": "h264"})
            await units_in(viewer, 0.5)
            await viewer.ok({"type": "setFilter", "name": "invert"})
            marked = await viewer.next_frame(timeout=3, where=lambda f: f.is_unit and f.state_changed)
            assert not marked.keyframe or marked.seq > 1
            await viewer.ok({"type": "watch", "transport": "jpeg"})
            viewer.drop_frames()
            frames = await units_in(viewer, 0.5)
            assert frames and all(f.magic == b"FCF1" for f in frames[1:])
    run(scenario())


def test_paused_h264_sends_the_picture_and_refines_it_then_stops(server):
    async def scenario():
        async with await Client.connect(server.ws_url()) as viewer:
            await viewer.ok({"type": "watch", "transport": "h264"})
            await units_in(viewer, 0.3)
            await viewer.ok({"type": "pause"})
            # The refinements come at the encoder's pace, slower on a loaded machine: they must end
            # (0.7 s with nothing, within 6 s); how fast is not the property.
            await until_quiet(viewer)
            await viewer.ok({"type": "setFilter", "name": "sepia"})
            first = await viewer.next_frame(timeout=5, where=lambda f: f.is_unit)
            after = [first] + [u for u in await until_quiet(viewer) if u.is_unit]
            # The change first, then at most eight refinements of the same picture, then nothing.
            assert 1 <= len(after) <= 9 and after[0].state_changed, after
            assert len({u.pts_us for u in after}) == 1
    run(scenario())


def test_a_client_that_says_nothing_gets_jpeg_only(server):
    async def scenario():
        async with await Client.connect(server.ws_url()) as silent:
            frames = await silent.frames(20, timeout=10)  # a count, not a rate: a loaded machine is slower
            assert all(f.magic == b"FCF1" and f.header_length == 32 for f in frames)
    run(scenario())


def test_bad_watches_are_refused_and_change_nothing(server):
    async def scenario():
        async with await Client.connect(server.ws_url()) as viewer:
            for message, code, text in [
                ({"type": "watch", "transport": "vp9"}, "out_of_range", 'watch.transport must be one of "jpeg", "h264"'),
                ({"type": "watch"}, "invalid_argument", "watch.transport is required"),
                ({"type": "watch", "transport": "h264", "rendition": "jpeg-240p"}, "out_of_range",
                 'watch.rendition must be one of "auto", "h264-240p" for h264'),
                ({"type": "watch", "transport": "h264", "rendition": 5}, "invalid_argument", "watch.rendition must be a string"),
            ]:
                error = await viewer.command(message)
                assert error["type"] == "error" and error["code"] == code and error["message"].startswith(text), error
            viewer.drop_frames()
            assert all(f.magic == b"FCF1" for f in await units_in(viewer, 0.5))
    run(scenario())


def test_a_client_that_never_acknowledges_holds_eight_units_and_slows_nobody(server):
    async def scenario():
        async with await Client.connect(server.ws_url(), auto_ack=False) as stuck, \
                await Client.connect(server.ws_url()) as fine:
            # `fine` alone first, as the peer figure: the share of the source's pictures it gets.
            await fine.ok({"type": "watch", "transport": "h264"})
            alone = await units(fine, 30)
            await stuck.ok({"type": "watch", "transport": "h264"})
            # `fine` reads (and acknowledges) all along, concurrently with the stuck client filling up.
            held, _ = await asyncio.gather(units_in(stuck, 1.5), units_in(fine, 1.5))
            held = [u for u in held if u.is_unit]
            assert 1 <= len(held) <= 8, f"{len(held)} unacknowledged units"
            quiet, together = await asyncio.gather(units_in(stuck, 0.5), units(fine, 30))
            assert quiet == []
            # Held up by the stuck peer = nothing more after a window's worth (the 30 never come) or
            # pictures skipped for `fine`: a gap in its sequence, a longer step between its pictures
            # on the source's clock — judged against `fine` alone on the same machine just before.
            assert [u.seq for u in together] == list(range(together[0].seq, together[0].seq + 30)), "none skipped"
            assert picture_step(together) <= 1.25 * picture_step(alone), \
                f"a picture every {picture_step(together):.3f} s of the source beside the stuck client, " \
                f"every {picture_step(alone):.3f} s alone"
            # Acknowledging again: the stuck client is far behind, so it starts over at a keyframe.
            await stuck.ack(held[-1].seq)
            stuck.auto_ack = True
            resumed = [u for u in await units_in(stuck, 3.0) if u.is_unit]
            assert resumed and resumed[0].seq > held[-1].seq
            assert any(u.keyframe for u in resumed)
    run(scenario())


def test_a_viewer_may_pin_a_smaller_jpeg_rendition_and_metrics_count_it(server):
    async def scenario():
        async with await Client.connect(server.ws_url()) as viewer:
            await viewer.ok({"type": "watch", "transport": "jpeg", "rendition": "jpeg-120p"})
            viewer.drop_frames()
            frames = await viewer.frames(20, timeout=10)  # a count, not a rate: a loaded machine is slower
            assert {f.image().size for f in frames[1:]} == {(160, 120)}
            metrics = server.get("/metrics").text()
            assert 'filtercast_rendition_viewers{rendition="jpeg-120p"} 1' in metrics
            assert 'filtercast_rendition_viewers{rendition="jpeg-240p"} 0' in metrics
            await viewer.ok({"type": "watch", "transport": "h264"})
            viewer.drop_frames()
            await viewer.frames(20, timeout=10)
            metrics = server.get("/metrics").text()
            assert 'filtercast_rendition_viewers{rendition="h264-240p"} 1' in metrics
            encoded = [line for line in metrics.splitlines() if line.startswith('filtercast_rendition_frames_encoded_total{rendition="h264-240p"}')]
            assert encoded and int(encoded[0].split()[-1]) >= 20
            assert 'filtercast_rendition_encode_seconds_count{rendition="h264-240p"}' in metrics
    run(scenario())
