"""Commands that change the picture: setFilter, setParams, ids, and a change seen by two clients."""

import numpy as np

from fc_client import Client, run, tile_stddev, warmth

# The test pattern (testsrc2) is colourful but balanced: mean red ≈ mean blue (measured: R−B ≈ −4).
# Sepia maps every pixel to a warm tone (measured: R−B ≈ +44, R ≥ B on every pixel).
NEUTRAL = 12.0
WARM = 25.0


def warm_fraction(rgb: np.ndarray) -> float:
    """Share of pixels whose red is at least their blue (JPEG noise allowed)."""
    return float((rgb[..., 0] + 3 >= rgb[..., 2]).mean())


async def after_command(client: Client, command: dict, frames: int = 4):
    """Sends `command`, waits for its ack, and returns the next `frames` frames."""
    await client.ok(command)
    return await client.frames(frames, timeout=5)


def test_set_filter_sepia_warms_the_picture_and_flags_the_first_frame(server):
    async def scenario():
        async with await Client.connect(server.ws_url()) as client:
            before = await client.frames(3)
            after = await after_command(client, {"type": "setFilter", "name": "sepia"}, frames=6)
            state = await client.next_json("state", where=lambda s: s["filter"]["name"] == "sepia")
            return before, after, state
    before, after, state = run(scenario())
    for frame in before:
        rgb = frame.rgb()
        assert abs(warmth(rgb)) < NEUTRAL, f"unfiltered test pattern should be neutral, R−B = {warmth(rgb):.1f}"
        assert warm_fraction(rgb) < 0.8
    # Frames after the ack were rendered after the change... except possibly the ones already
    # encoded when the command arrived; the flagged frame marks the first one with the new filter.
    flagged = [index for index, frame in enumerate(after) if frame.state_changed]
    assert len(flagged) == 1, f"expected exactly one frame with flag bit 0 among {after}"
    first = flagged[0]
    assert first <= 2, f"the first frame after the change came only at index {first}: {after}"
    for frame in after[:first]:
        assert abs(warmth(frame.rgb())) < NEUTRAL, f"{frame} is sepia but precedes the flagged frame"
    for frame in after[first:]:
        rgb = frame.rgb()
        assert warmth(rgb) > WARM, f"{frame}: R−B = {warmth(rgb):.1f} is not sepia"
        assert warm_fraction(rgb) > 0.99
    assert state["filter"] == {"name": "sepia", "params": {"intensity": 1}}
    for frame in before:
        assert not frame.state_changed or frame is before[0], f"unexpected flag on {frame}"


def test_set_params_intensity_zero_is_neutral_again(server):
    async def scenario():
        async with await Client.connect(server.ws_url()) as client:
            sepia = await after_command(client, {"type": "setFilter", "name": "sepia", "params": {"intensity": 1}})
            neutral = await after_command(client, {"type": "setParams", "params": {"intensity": 0}})
            state = await client.next_json("state", where=lambda s: s["filter"]["params"].get("intensity") == 0)
            return sepia, neutral, state
    sepia, neutral, state = run(scenario())
    assert warmth(sepia[-1].rgb()) > WARM
    assert neutral[0].state_changed or neutral[1].state_changed, "a parameter change must flag a frame"
    for frame in neutral[-2:]:
        rgb = frame.rgb()
        assert abs(warmth(rgb)) < NEUTRAL, f"intensity 0 should be neutral, R−B = {warmth(rgb):.1f}"
        assert warm_fraction(rgb) < 0.8
    assert state["filter"] == {"name": "sepia", "params": {"intensity": 0}}


def test_pixellate_scale_16_makes_uniform_16x16_blocks(server):
    async def scenario():
        async with await Client.connect(server.ws_url()) as client:
            plain = await client.frames(2)
            # The scale is a length in pixels of a 1080-line frame: ask for 16-pixel blocks here.
            scale = 16 * 1080 / plain[-1].luma().shape[0]
            blocky = await after_command(client, {"type": "setFilter", "name": "pixellate",
                                                  "params": {"scale": scale}})
            return plain, blocky
    plain, blocky = run(scenario())
    # Luma only: 4:2:0 chroma rings at the edges between blocks of different colours.
    plain_spread = tile_stddev(plain[-1].luma(), 16)
    assert plain_spread.mean() > 8, "the unfiltered pattern should have detail inside 16x16 tiles"
    for frame in blocky[-2:]:
        luma = frame.luma()
        spread = tile_stddev(luma, 16)
        assert spread.mean() < 2 and np.percentile(spread, 95) < 5, (
            f"{frame}: 16x16 tiles are not uniform (mean spread {spread.mean():.2f}, "
            f"95th percentile {np.percentile(spread, 95):.2f})")
        # The blocks start at the top left and are 16 wide: tiles shifted by half a block are not
        # uniform.
        shifted = tile_stddev(luma, 16, offset=8)
        assert shifted.mean() > 4 * spread.mean() + 2, (spread.mean(), shifted.mean())


def test_command_ids_are_echoed_in_acks(server):
    async def scenario():
        async with await Client.connect(server.ws_url()) as client:
            replies = []
            for id_ in ["req-1", 7, 0, -3, 2.5, 9007199254740993 - 1, ""]:
                await client.send_json({"type": "setFilter", "name": "none", "id": id_})
                replies.append((id_, await client.next_json("ack", where=lambda m, i=id_: m.get("id") == i
                                                            and type(m.get("id")) is type(i))))
            # A command without an id gets no ack.
            await client.send_json({"type": "play"})
            await client.ok({"type": "pause", "id": "marker"})
            stray = [m for m in client.json_received if m["type"] == "ack" and "id" not in m]
            return replies, stray, client.json_received
    replies, stray, received = run(scenario())
    for id_, reply in replies:
        assert reply == {"type": "ack", "id": id_}
    assert not stray
    acks = [m for m in received if m["type"] == "ack"]
    assert len(acks) == 8, f"one ack per command with an id, none for the others: {acks}"


def test_a_change_by_one_client_reaches_the_other(server):
    async def scenario():
        async with await Client.connect(server.ws_url()) as a, await Client.connect(server.ws_url()) as b:
            await b.next_json("state", where=lambda s: s["viewers"] == 2)
            before = await b.frames(2)
            await a.ok({"type": "setFilter", "name": "sepia", "params": {"intensity": 1}})
            state = await b.next_json("state", where=lambda s: s["filter"]["name"] == "sepia", timeout=3)
            b.drop_frames()
            after = await b.frames(3)
            assert not any(m.get("type") == "ack" for m in b.json_received), "b got a's ack"
            return before, state, after
    before, state, after = run(scenario())
    assert state["filter"] == {"name": "sepia", "params": {"intensity": 1}}
    assert abs(warmth(before[-1].rgb())) < NEUTRAL
    for frame in after:
        assert warmth(frame.rgb()) > WARM, f"{frame} seen by the other client is not sepia"
