"""Studio mode through real sockets (issue 26.2): a controller edits and watches the preview, a
viewer without control never gets a preview frame, and a take with a fade changes every viewer's
program over about its duration. The rules themselves (who is told the preview, who may watch it,
the plan, the mix) are tested in process: Tests/CastServerTests/StudioTests.swift and
StudioPictureTests.swift."""

from fc_client import Client, run

TOKEN = "s3cret-T0ken"
DARK = {"name": "colorControls", "params": {"brightness": -1, "contrast": 1, "saturation": 1}}
BRIGHT = {"name": "colorControls", "params": {"brightness": 1, "contrast": 1, "saturation": 1}}


def mean_luma(frame) -> float:
    return float(frame.luma().mean())


def test_a_viewer_never_gets_the_preview_and_a_fade_changes_the_program_over_its_duration(start_server):
    server = start_server("--input", "test:320x240@30", "--token", TOKEN, "--public-view")

    async def scenario():
        async with await Client.connect(server.ws_url(token=TOKEN)) as controller, \
                await Client.connect(server.ws_url()) as viewer:
            previews = [r["id"] for r in controller.hello["renditions"] if r.get("preview")]
            assert previews == ["preview-240p", "preview-120p"], controller.hello["renditions"]
            await controller.ok({"type": "setFilter", "chain": [DARK]})
            await controller.ok({"type": "setFilter", "chain": [BRIGHT], "to": "preview"})
            refused = await viewer.command({"type": "watch", "transport": "jpeg", "rendition": "preview-240p"})
            assert refused["type"] == "error" and refused["code"] == "unauthorized", refused
            refused = await viewer.command({"type": "setParams", "params": {"brightness": 0}, "to": "preview"})
            assert refused["type"] == "error" and refused["code"] == "unauthorized", refused

            await controller.ok({"type": "watch", "transport": "jpeg", "rendition": "preview-240p"})
            preview = await controller.next_frame(where=lambda f: mean_luma(f) > 200, timeout=5)
            assert preview.image().size == (320, 240)
            viewer.drop_frames()
            before = await viewer.frames(15, timeout=10)  # a count, not a rate: a loaded machine is slower
            lumas = [mean_luma(f) for f in before]
            assert max(lumas) < 60, f"a viewer got a bright (preview) frame before the take: {lumas}"
            states = [m for m in viewer.json_received if m.get("type") in ("state", "hello")]
            assert all("preview" not in m and "preview" not in m.get("state", {}) for m in states), states

            await controller.ok({"type": "take", "transition": "fade", "duration": 1})
            viewer.drop_frames()  # sent before the take's ack
            after = []
            while not after or mean_luma(after[-1]) <= 200:  # until the program is bright (deadline 10 s)
                after.append(await viewer.next_frame(timeout=10))
            return after + await viewer.frames(5, timeout=10)

    after = run(scenario())
    # Timed on the source's clock (the frames' pts), which the picture path carries through: the
    # viewer's receive times add the loaded machine's send and read delays at both ends of the fade.
    timeline = [(f.pts, mean_luma(f)) for f in after]
    dark, bright = timeline[0][1], timeline[-1][1]
    assert bright > 200 and dark < 60, timeline
    first_changed = next(i for i, (t, y) in enumerate(timeline) if y > dark + 8)
    started = timeline[first_changed][0]
    ended = next(t for t, y in timeline if y > bright - 8)
    # A fade shows pictures in between (a cut shows none): at least half of those sent during it.
    span = [y for t, y in timeline if started <= t < ended]
    middle = [y for y in span if dark + 30 < y < bright - 30]
    assert len(middle) >= max(5, len(span) / 2), f"the fade showed {len(middle)} intermediate frames: {timeline}"
    # At once: counted in frames, not seconds. Only the pictures already on their way when the take
    # was acknowledged may be unchanged (the viewer's window, the encoder's and the processing's
    # queues: 3 or 4 here); a fade that waited for anything would leave many more.
    assert first_changed <= 6, f"the fade began {first_changed} frames after the take: {timeline}"
    assert 0.75 < ended - started < 1.3, f"the fade lasted {ended - started:.2f} s, want about 1 s: {timeline}"
