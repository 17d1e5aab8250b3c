"""Channels added and removed at run time over real sockets (`PUT`/`DELETE /api/channels/NAME`,
`--admin-token`): 401 without a token, 403 with `--token`'s, 201 with the admin token; an input
that cannot be opened is 400 and adds nothing; a channel removed while watched closes its viewer
with a reason that says so, and its recording is finished and kept. The rules in detail (bodies,
names, limits) are tested in process: Tests/CastServerTests/ServerCoreChannelAdminTests.swift."""

import asyncio
import json
import time

import websockets

from fc_client import Client, run
from test_e2e_recording import wait_state

ADMIN = {"Authorization": "Bearer boss"}
CONTROL = {"Authorization": "Bearer ctl"}


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

    async def scenario():
        loop = asyncio.get_running_loop()
        async with await Client.connect(server.ws_url(channel="cam", token="ctl")) as viewer:
            assert viewer.hello["channel"] == "cam" and viewer.hello["state"]["filter"]["name"] == "sepia"
            await viewer.ok({"type": "record", "action": "start"})
            await wait_state(viewer, lambda s: s["recording"]["active"] and s["recording"]["bytes"] > 0, "cam records")
            refused = await loop.run_in_executor(None, lambda: server.http("DELETE", "/api/channels/cam", headers=CONTROL))
            assert refused.status == 403
            removed = await loop.run_in_executor(None, lambda: server.http("DELETE", "/api/channels/cam", headers=ADMIN))
            deadline = time.monotonic() + 3
            try:
                while time.monotonic() < deadline:
                    await viewer.collect(0.1)
            except websockets.ConnectionClosed as closed:
                return removed, closed.rcvd
            return removed, None
    removed, close = run(scenario())
    assert removed.status == 200, removed.text()
    assert close is not None and close.code == 1001 and close.reason == "channel cam was removed", close
    assert server.get("/api/state?channel=cam", headers=CONTROL).status == 404
    recordings = list((tmp_path / "recordings" / "cam").glob("*.mp4"))
    assert len(recordings) == 1 and recordings[0].stat().st_size > 0, "the recording is finished and kept"
    kept = server.http("DELETE", "/api/channels/main", headers=ADMIN)
    assert kept.status == 409 and "default" in kept.text()
