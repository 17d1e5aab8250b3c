"""Channels added and removed at run time over real sockets (`PUT`/`DELETE /api/channels/NAME`,
`--admin-token`): 401 without a token, 403 with `--token`'s, 201 with the admin token; an input
that cannot be opened is 400 and adds nothing; a channel removed while watched closes its viewer
with a reason that says so, and its recording is finished and kept. With `--channels-file` they
survive a restart (the command line winning a name in both); a bad file stops the start. The rules in detail (bodies,
names, limits) are tested in process: Tests/CastServerTests/ServerCoreChannelAdminTests.swift."""

import asyncio
import json
import subprocess
import time

import websockets

from fc_client import Client, run
from fc_server import child_environment
from test_e2e_recording import wait_state

ADMIN = {"Authorization": "Bearer boss"}
CONTROL = {"Authorization": "Bearer ctl"}


async def removed_while_recording(server, token, before_removal=lambda viewer: None, filter_first=None):
    """Channel `cam` watched and recording, then removed by the admin: the DELETE's answer and the
    close the viewer got (None when it stayed open 3 s)."""
    loop = asyncio.get_running_loop()
    async with await Client.connect(server.ws_url(channel="cam", token=token)) as viewer:
        if filter_first:
            await viewer.ok({"type": "setFilter", "name": filter_first})
        await viewer.ok({"type": "record", "action": "start"})
        await wait_state(viewer, lambda s: s["recording"]["active"] and s["recording"]["bytes"] > 0, "cam records")
        await loop.run_in_executor(None, before_removal, viewer)
        removed = await loop.run_in_executor(None, lambda: server.http("DELETE", "/api/channels/cam", headers=ADMIN))
        try:
            await viewer.collect(3)
        except websockets.ConnectionClosed as closed:
            return removed, closed.rcvd
        return removed, None


def test_a_channel_added_and_removed_over_the_api_with_and_without_the_admin_token(start_server, tmp_path):
    server = start_server("--input", "test:160x120@15", "--token", "ctl", "--admin-token", "boss", "--open-timeout", "2")
    body = json.dumps({"input": "test:160x120@15", "filter": {"name": "sepia"}}).encode()

    def put(headers, name="cam", data=body):
        return server.http("PUT", f"/api/channels/{name}", headers=headers, body=data)

    assert put({}).status == 401 and put(CONTROL).status == 403
    added = put(ADMIN)
    assert added.status == 201, added.text()
    assert json.loads(added.body)["name"] == "cam" and json.loads(added.body)["filter"][0]["name"] == "sepia"
    assert put(ADMIN).status == 409
    missing = put(ADMIN, "gone", json.dumps({"input": str(tmp_path / "missing.mp4")}).encode())
    assert missing.status == 400 and "missing.mp4" in missing.text(), missing.text()
    assert [c["name"] for c in json.loads(server.get("/api/channels", headers=CONTROL).body)] == ["main", "cam"]

    def before_removal(viewer):
        assert viewer.hello["channel"] == "cam" and viewer.hello["state"]["filter"]["name"] == "sepia"
        assert server.http("DELETE", "/api/channels/cam", headers=CONTROL).status == 403

    removed, close = run(removed_while_recording(server, "ctl", before_removal))
    assert removed.status == 200, removed.text()
    assert close is not None and close.code == 1001 and close.reason == "channel cam was removed", close
    assert server.get("/api/state?channel=cam", headers=CONTROL).status == 404
    recordings = list((tmp_path / "recordings" / "cam").glob("*.mp4"))
    assert len(recordings) == 1 and recordings[0].stat().st_size > 0, "the recording is finished and kept"
    kept = server.http("DELETE", "/api/channels/main", headers=ADMIN)
    assert kept.status == 409 and "default" in kept.text()


def test_a_start_channel_removed_while_recording_stops_like_one_added_at_run_time(start_server, tmp_path):
    """A `--channel` channel is owned like a run-time one: removing it closes its viewer with the
    reason, finishes its recording (readable, its sidecar written) and stops its decoding — the
    file no longer grows once the DELETE is answered."""
    server = start_server("--input", "test:160x120@15", "--channel", "cam=test:160x120@15", "--admin-token", "boss")

    removed, close = run(removed_while_recording(server, "boss", filter_first="sepia"))
    assert removed.status == 200, removed.text()
    assert close is not None and close.code == 1001 and close.reason == "channel cam was removed", close
    recordings = list((tmp_path / "recordings" / "cam").glob("*.mp4"))
    assert len(recordings) == 1, recordings
    size = recordings[0].stat().st_size
    decoded = [line for line in server.get("/metrics").text().splitlines() if 'channel="cam"' in line]
    assert decoded == [], "the removed channel's series are gone"
    time.sleep(1.0)  # the file is finished: a channel still running would have written ~15 frames since
    assert recordings[0].stat().st_size == size, "the removed channel kept recording"
    frames = subprocess.run(["ffprobe", "-v", "error", "-count_frames", "-select_streams", "v:0", "-show_entries",
                             "stream=nb_read_frames", "-of", "csv=p=0", str(recordings[0])],
                            capture_output=True, text=True, check=True).stdout.strip()
    assert int(frames) > 0, "the recording is readable"
    sidecar = json.loads((recordings[0].parent / (recordings[0].name + ".json")).read_text())
    assert sidecar["looks"][0]["chain"][0]["name"] == "sepia", sidecar


def test_channels_added_at_run_time_survive_a_restart_and_the_command_line_wins(start_server, filtercast_bin, tmp_path):
    path = tmp_path / "channels.json"
    first = start_server("--input", "test:160x120@15", "--admin-token", "boss", "--channels-file", str(path))
    assert json.loads(path.read_text()) == {"channels": []}, "a missing file is created"
    for name in ("cam", "door"):
        body = json.dumps({"input": "test:160x120@15", "filter": {"name": "sepia"}}).encode()
        assert first.http("PUT", f"/api/channels/{name}", headers=ADMIN, body=body).status == 201
    first.stop()

    again = start_server("--input", "test:160x120@15", "--channel", "door=test:320x240@15", "--channels-file", str(path))
    channels = {c["name"]: c for c in json.loads(again.get("/api/channels").body)}
    assert list(channels) == ["main", "door", "cam"]
    assert [link["name"] for link in channels["cam"]["filter"]] == ["sepia"], "a kept channel keeps its filter"
    assert channels["door"]["source"]["name"] == "test pattern 320x240@15", "the command line's input wins"
    assert "channel door: the command line's input is used" in again.stderr_text()


def test_a_channels_own_token_controls_that_channel_only(start_server, tmp_path):
    path = tmp_path / "channels.json"
    path.write_text(json.dumps({"channels": [{"name": "cam", "input": "test:160x120@15", "token": "camtok"}]}))
    server = start_server("--input", "test:160x120@15", "--token", "ctl", "--channels-file", str(path))
    cam = {"Authorization": "Bearer camtok"}
    assert server.get("/api/state?channel=cam", headers=cam).status == 200
    assert server.get("/api/state", headers=cam).status == 401, "the default channel does not take cam's token"
    assert server.get("/api/channels", headers=cam).status == 401, "nor does the server's list"
    assert "camtok" not in server.get("/api/channels", headers=CONTROL).text(), "a channel's token is never shown"

    async def scenario():
        async with await Client.connect(server.ws_url(channel="cam", token="camtok")) as on_cam, \
                await Client.connect(server.ws_url(token="camtok")) as on_main:
            assert on_cam.hello["access"] == "control" and on_main.hello["access"] == "none"
            await on_cam.ok({"type": "setFilter", "name": "sepia"})
    run(scenario())


def test_a_bad_channels_file_stops_the_start_with_one_line_naming_it(filtercast_bin, tmp_path):
    path = tmp_path / "channels.json"
    path.write_text('{"channels": [{"name": "Bad", "input": "a.mp4"}]}')
    result = subprocess.run([filtercast_bin, "serve", "--port", "0", "--channels-file", str(path)],
                            capture_output=True, text=True, timeout=30, env=child_environment())
    lines = [line for line in result.stderr.splitlines() if "error" in line]
    assert result.returncode == 1 and len(lines) == 1 and str(path) in lines[0] and "not a channel name" in lines[0], result.stderr
