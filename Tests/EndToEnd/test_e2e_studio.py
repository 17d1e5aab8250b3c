"""Studio mode through real sockets (issue 26.2): a controller edits and watches the preview, a
viewer without control never gets a preview frame, and a take with a fade changes every viewer's
program over about its duration. The rules themselves (who is told the preview, who may watch it,
the plan, the mix) are tested in process: Tests/CastServerTests/StudioTests.swift and
StudioPictureTests.swift."""

import statistics
import time

import numpy as np
import pytest

from fc_client import Client, run

TOKEN = "s3cret-T0ken"
DARK = {"name": "colorControls", "params": {"brightness": -1, "contrast": 1, "saturation": 1}}
BRIGHT = {"name": "colorControls", "params": {"brightness": 1, "contrast": 1, "saturation": 1}}


def mean_luma(frame) -> float:
    return float(frame.luma().mean())


# The fade's length is a timing of the picture path (bench/take_fade.py measures it in depth): alone.
@pytest.mark.solo  # measures a duration: run alone
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

            asked = time.time()  # the server's sent_us is on this (wall) clock
            await controller.ok({"type": "take", "transition": "fade", "duration": 1})
            viewer.drop_frames()  # sent before the take's ack
            after = []
            while not after or mean_luma(after[-1]) <= 200:  # until the program is bright (deadline 10 s)
                after.append(await viewer.next_frame(timeout=10))
            return asked, statistics.median(lumas), after + await viewer.frames(5, timeout=10)

    asked, dark, after = run(scenario())
    # Timed on the server's clock: the fade's progress is computed from it as each picture is made,
    # and the frame goes out (sent_us) after that. Not the source's pts: a starved test pattern makes
    # fewer pictures and the same one is re-made with the fade further on. Not the viewer's receive
    # times: they add the machine's send and read delays at both ends.
    bright = statistics.median(mean_luma(f) for f in after[-5:])
    assert bright > 200 and dark < 60, (dark, bright)
    timeline = [(f.sent_us / 1e6, (mean_luma(f) - dark) / (bright - dark)) for f in after]  # (time, progress)
    first_changed = next(i for i, (t, p) in enumerate(timeline) if p > 0.05)
    # At once: counted in frames, not seconds. Only the pictures already on their way when the take
    # was acknowledged may be unchanged (the viewer's window, the encoder's and the processing's
    # queues: 3 or 4 here); a fade that waited for anything would leave many more.
    assert first_changed <= 6, f"the fade began {first_changed} frames after the take: {timeline}"
    # A fade shows pictures in between; a cut shows none.
    middle = [(t, p) for t, p in timeline if 0.05 < p < 0.95]
    assert len(middle) >= 4, f"the fade showed {len(middle)} intermediate frames: {timeline}"
    # Not longer than about 1 s, by a bound no delay can break: a picture at progress p was made
    # after the take was asked and before it was sent, so duration <= (sent - asked) / p.
    longest = min((t - asked) / p for t, p in middle if p >= 0.1)
    assert longest < 1.3, f"the fade lasted at least {longest:.2f} s, want about 1 s: {timeline}"
    # Not shorter: the slope of progress over the send clock (least squares over the pictures in
    # between). Frames sent late at the fade's end only lengthen it; a burst at its start could
    # shorten it, which is why the test runs alone.
    slope = np.polyfit([t - middle[0][0] for t, _ in middle], [p for _, p in middle], 1)[0]
    assert 1 / slope > 0.75, f"the fade lasted {1 / slope:.2f} s, want about 1 s: {timeline}"
