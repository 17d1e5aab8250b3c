"""Two channels on one server over real sockets (`--channel NAME=INPUT`): each its own source,
filter, frames, state and recordings; a v1 client on plain `/ws` gets the default channel; a
channel that is not there is 404 for HTTP and for the upgrade. The core's rules (commands and
state per channel, every route's `?channel=`) are tested in process:
Tests/CastServerTests/ServerCoreChannelTests.swift."""

import json

import numpy as np

from fc_client import Client, decode_jpeg, handshake_status, run, warmth
from test_e2e_recording import wait_state


def picture(frame) -> np.ndarray:
    return np.asarray(decode_jpeg(frame.jpeg).convert("RGB"), dtype=np.float64)


def test_two_channels_each_with_its_source_filter_and_recordings(start_server, sample_clip, tmp_path):
    server = start_server("--input", "test:160x120@15", "--channel", f"clip={sample_clip}")

    async def scenario():
        async with await Client.connect(server.ws_url()) as main, \
                await Client.connect(server.ws_url(channel="clip")) as clip:
            assert main.hello["channel"] == "main" and main.hello["state"]["source"]["kind"] == "test"
            assert clip.hello["channel"] == "clip" and clip.hello["state"]["source"]["kind"] == "file"
            await main.ok({"type": "setFilter", "name": "sepia"})
            await clip.ok({"type": "setFilter", "name": "mono"})
            await wait_state(main, lambda s: s["filter"]["name"] == "sepia", "main is sepia")
            await wait_state(clip, lambda s: s["filter"]["name"] == "mono", "clip is mono")
            sepia = await main.next_frame(timeout=3, where=lambda f: warmth(picture(f)) > 10)
            mono = await clip.next_frame(timeout=3, where=lambda f: abs(warmth(picture(f))) < 2)
            assert picture(sepia).shape[:2] == (120, 160) and picture(mono).shape[:2] == (240, 320)
            await clip.ok({"type": "record", "action": "start"})
            await wait_state(clip, lambda s: s["recording"]["active"] and s["recording"]["bytes"] > 0, "clip records")
            await clip.ok({"type": "record", "action": "stop"})
            stopped = await wait_state(clip, lambda s: not s["recording"]["active"], "the recording stopped")
            assert not (await main.next_json("state", timeout=3))["recording"]["active"]
            states = [m for m in clip.json_received if m["type"] == "state"]
            assert all(s["filter"]["name"] != "sepia" for s in states), "the clip channel saw main's filter"
            return stopped["recording"]["name"]
    name = run(scenario())

    assert (tmp_path / "recordings" / "clip" / name).stat().st_size > 0, "a named channel records under RECORDINGS/NAME"
    clip_listing = json.loads(server.get("/api/recordings?channel=clip").body)["recordings"]
    assert [entry["name"] for entry in clip_listing] == [name]
    assert json.loads(server.get("/api/recordings").body)["recordings"] == []
    assert server.get(f"/recordings/{name}?channel=clip").status == 200

    channels = json.loads(server.get("/api/channels").body)
    assert [(c["name"], c["source"]["kind"], [link["name"] for link in c["filter"]]) for c in channels] \
        == [("main", "test", ["sepia"]), ("clip", "file", ["mono"])]
    snapshot = server.get(channels[1]["snapshot"])
    assert snapshot.status == 200 and decode_jpeg(snapshot.body).size == (320, 240)
    assert decode_jpeg(server.get("/snapshot.jpg").body).size == (160, 120), "no ?channel=: the default channel"

    missing = server.get("/api/state?channel=nope")
    assert missing.status == 404 and "main, clip" in missing.text()
    assert handshake_status(server.host, server.port, path="/ws?channel=nope") == 404
    assert handshake_status(server.host, server.port, path="/ws?channel=clip") == 101

    # Each channel's series carry its name (the default channel's none: v1 scrapes unchanged).
    metrics = server.get("/metrics").text()
    assert 'filtercast_channel_viewers{channel="clip"} ' in metrics and 'filtercast_channel_viewers{channel="main"} ' in metrics
    encoded = [line for line in metrics.splitlines() if line.startswith('filtercast_frames_encoded_total{channel="clip"} ')]
    assert encoded and float(encoded[0].split(" ")[1]) > 0, metrics
    assert any(line.startswith("filtercast_frames_encoded_total ") for line in metrics.splitlines())
    # Every line about a channel names it.
    lines = server.stderr_text().splitlines()
    saved = [line for line in lines if "recording saved" in line]
    assert saved and all(" channel=clip " in line for line in saved), saved
    joined = [line for line in lines if "client connected" in line and "client=viewer" in line]
    assert {line.split(" channel=")[1].split(" ")[0] for line in joined} == {"main", "clip"}, joined
