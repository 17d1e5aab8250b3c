"""A filtered recording carries its looks: the chain at its start and every change with its time,
in a sidecar beside it, listed by GET /api/recordings and deleted with it (issue 26 item 5)."""
from __future__ import annotations

import json

from fc_client import Client, run
from test_e2e_recording import PATTERN, wait_state


def test_a_recording_lists_the_chain_it_started_with_and_every_change(start_server, tmp_path):
    server = start_server("--input", PATTERN, "--filter", "sepia")

    async def scenario():
        async with await Client.connect(server.ws_url()) as client:
            await client.ok({"type": "record", "action": "start"})
            state = await wait_state(client, lambda s: s["recording"]["active"], "the recording runs")
            await client.frames(3)
            await client.ok({"type": "setFilter", "chain": [{"name": "sepia"}, {"name": "vignette"}]})
            await client.frames(3)
            await client.ok({"type": "record", "action": "stop"})
            return state["recording"]["name"]
    name = run(scenario())

    recordings = json.loads(server.get("/api/recordings").body)["recordings"]
    entry = next(entry for entry in recordings if entry["name"] == name)
    assert entry["filter"] == "sepia", entry  # v1's field stays
    looks = entry["looks"]
    assert [[link["name"] for link in look["chain"]] for look in looks] == [["sepia"], ["sepia", "vignette"]], looks
    assert looks[0]["at"] == 0 and 0 < looks[1]["at"] < 10, looks
    assert looks[0]["chain"][0]["params"]["intensity"] == 1, looks
    sidecar = tmp_path / "recordings" / (name + ".json")
    assert json.loads(sidecar.read_text())["looks"] == looks

    async def delete():
        async with await Client.connect(server.ws_url()) as client:
            await client.ok({"type": "delete", "source": "recordings/" + name})
    run(delete())
    assert not sidecar.exists() and not (tmp_path / "recordings" / name).exists()
