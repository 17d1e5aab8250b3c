"""H.264 over /ws (protocol v1 addition): hello offers it, `watch` switches one client, the
access units decode with FFmpeg and carry their flags, a client that says nothing keeps JPEG,
bad choices are refused, and a client that never acknowledges holds at most eight units while
the others play on."""

import asyncio
import subprocess

from fc_client import Client, run


async def units_in(client: Client, seconds: float) -> list:
    return [item for item in await client.collect(seconds) if not isinstance(item, dict)]


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
            units = [u for u in await units_in(viewer, 2.0) if u.is_unit]
            assert len(units) >= 40, f"{len(units)} units in 2 s of a 30 fps source"
            assert units[0].keyframe, "a viewer starts at a keyframe"
            assert [u.seq for u in units] == list(range(units[0].seq, units[0].seq + len(units))), "consecutive"
            assert all(u.picture == (320, 240, 2) for u in units)
            assert decode(units) == len(units)
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
            await units_in(viewer, 1.0)
            assert await units_in(viewer, 0.7) == [], "nothing more while paused and unchanged"
            await viewer.ok({"type": "setFilter", "name": "sepia"})
            after = [u for u in await units_in(viewer, 1.0) if u.is_unit]
            # The change at once, then at most eight refinements of the same picture.
            assert 1 <= len(after) <= 9 and after[0].state_changed, after
            assert len({u.pts_us for u in after}) == 1
    run(scenario())


def test_a_client_that_says_nothing_gets_jpeg_only(server):
    async def scenario():
        async with await Client.connect(server.ws_url()) as silent:
            frames = await units_in(silent, 1.0)
            assert len(frames) >= 20 and all(f.magic == b"FCF1" and f.header_length == 32 for f in frames)
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
            await stuck.ok({"type": "watch", "transport": "h264"})
            await fine.ok({"type": "watch", "transport": "h264"})
            held = [u for u in await units_in(stuck, 1.5) if u.is_unit]
            assert 1 <= len(held) <= 8, f"{len(held)} unacknowledged units"
            assert await units_in(stuck, 0.5) == []
            flowing = [u for u in await units_in(fine, 1.0) if u.is_unit]
            assert len(flowing) >= 25, f"the acknowledging client got {len(flowing)} units in 1 s"
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
