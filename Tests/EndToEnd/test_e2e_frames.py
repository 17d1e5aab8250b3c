"""Frames, hello and state: what a plain viewer of the test pattern receives."""

import time

from fc_client import Client, decode_jpeg, is_complete_jpeg, run

PARAMETER_KEYS = {"name", "label", "type", "default", "min", "max", "sliderMin", "sliderMax", "step", "identity"}
STATE_KEYS = {"source", "playing", "position", "duration", "filter", "chain", "viewers", "fps"}
SOURCE_KEYS = {"kind", "name", "seekable", "width", "height", "fps", "online", "reason", "retryIn", "startInput",
               "reference"}


def check_state(state: dict, *, width: int, height: int):
    assert STATE_KEYS <= set(state), f"state lacks {STATE_KEYS - set(state)}: {state}"
    source = state["source"]
    assert SOURCE_KEYS <= set(source), f"source lacks {SOURCE_KEYS - set(source)}: {source}"
    assert source["kind"] == "test"
    assert source["seekable"] is False
    assert (source["width"], source["height"]) == (width, height)
    assert source["fps"] == 30
    assert source["startInput"] is True
    assert isinstance(source["name"], str) and source["name"]
    assert state["playing"] is True
    assert isinstance(state["position"], (int, float)) and state["position"] >= 0
    assert state["duration"] is None, "a live source has no duration"
    assert set(state["filter"]) >= {"name", "params"}
    assert isinstance(state["viewers"], int) and state["viewers"] >= 1
    assert isinstance(state["fps"], (int, float)) and state["fps"] >= 0


def test_frames_have_a_valid_header_and_decode_to_the_source_size(server):
    async def scenario():
        async with await Client.connect(server.ws_url()) as client:
            frames = await client.frames(12, timeout=5)
        for frame in frames:
            assert frame.magic == b"FCF1"
            assert frame.header_length == 32
            assert frame.flags & ~1 == 0, f"reserved flag bits set: {frame.flags:#x}"
            assert is_complete_jpeg(frame.jpeg), "the payload is not one whole JPEG (SOI…EOI)"
            image = decode_jpeg(frame.jpeg)
            assert image.size == (320, 240)
            # Send time: µs since the epoch, close to now (same machine).
            assert abs(frame.sent_us - frame.received_wall_us) < 2_000_000, frame
        for before, after in zip(frames, frames[1:]):
            assert after.seq >= before.seq + 1, f"sequence did not grow: {before} then {after}"
            assert after.pts_us > before.pts_us, f"pts did not grow on a live source: {before} then {after}"
        # 30 fps source: consecutive pts are about a frame interval apart (frames may be skipped).
        steps = [after.pts - before.pts for before, after in zip(frames, frames[1:])]
        assert min(steps) >= 0.03, steps
    run(scenario())


def test_hello_has_version_server_catalog_and_state(server):
    async def scenario():
        async with await Client.connect(server.ws_url()) as client:
            return client.hello
    hello = run(scenario())
    assert hello["type"] == "hello"
    assert hello["version"] == 1 and isinstance(hello["version"], int)
    assert isinstance(hello["server"], str) and hello["server"].startswith("filtercast")
    names = [entry["name"] for entry in hello["filters"]]
    assert names[0] == "none"
    assert {"sepia", "pixellate", "comic"} <= set(names), names
    catalog = {entry["name"]: entry for entry in hello["filters"]}
    assert catalog["none"]["params"] == []
    for name, parameters in {"sepia": {"intensity"}, "pixellate": {"scale"},
                             "comic": {"levels", "edgeThreshold"}}.items():
        entry = catalog[name]
        assert isinstance(entry["label"], str) and entry["label"]
        assert {p["name"] for p in entry["params"]} == parameters
        for parameter in entry["params"]:
            assert PARAMETER_KEYS <= set(parameter), f"{name}.{parameter.get('name')} lacks {PARAMETER_KEYS - set(parameter)}"
            assert parameter["type"] in ("number", "integer", "angle")
            assert parameter["min"] <= parameter["sliderMin"] <= parameter["sliderMax"] <= parameter["max"]
            assert parameter["min"] <= parameter["default"] <= parameter["max"]
    scale = next(p for p in catalog["pixellate"]["params"] if p["name"] == "scale")
    assert scale["type"] == "integer"
    check_state(hello["state"], width=320, height=240)
    assert hello["state"]["filter"] == {"name": "none", "params": {}}
    assert hello["state"]["viewers"] == 1


def test_state_arrives_at_least_twice_a_second_while_playing(server):
    async def scenario():
        async with await Client.connect(server.ws_url()) as client:
            await client.collect(0.3)  # the join's own state
            start = time.monotonic()
            times, states, frame_times = [], [], [start]
            while time.monotonic() - start < 2.0:
                state = await client.next_json("state", timeout=5)
                times.append(time.monotonic())
                states.append(state)
                frame_times += [m.received for m in client.inbox if not isinstance(m, dict)]
                client.drop_frames()
            return start, times, states, frame_times + [times[-1]]
    start, times, states, frame_times = run(scenario())
    for state in states:
        check_state(state, width=320, height=240)
    assert len(states) >= 4, f"{len(states)} state messages in 2 s"
    gaps = [b - a for a, b in zip([start] + times, times)]
    # Schedule 0.5 s, read on 250 ms ticks: 0.75 s — plus whatever stall the frames (30 a second on
    # the same connection) show in the same window beyond their own interval: a stalled server or
    # client delays both, a state schedule that slipped delays only the states.
    frame_gaps = [b - a for a, b in zip(frame_times, frame_times[1:])]
    stall = max(0.0, max(frame_gaps) - 1 / 30)
    assert max(gaps) <= 0.75 + stall, f"gap of {max(gaps):.3f} s between state messages (frames stalled {stall:.3f} s): {gaps}"
    positions = [s["position"] for s in states]
    assert positions == sorted(positions) and positions[-1] > positions[0], positions
    # state.fps is the encoded rate: about the source's 30 fps once a viewer watches — in some state of
    # the window (a loaded machine's stalled second lowers one reading), and never above 40.
    fps = [s["fps"] for s in states]
    assert 20 <= max(fps) <= 40, fps
