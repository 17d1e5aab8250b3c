"""Saved looks (issue 26, item 3), what only a real server shows: `saveLook` writes one JSON file
per look into `--looks DIR` (as setFilter's chain, readable and writable by hand), a look written
by hand is read at start, looks survive a restart, `deleteLook` removes the file; a file in the
folder that is not a look stops the start, named. The commands' rules are the Swift tests'."""

from __future__ import annotations

import json
import subprocess

from fc_client import Client, run
from fc_server import child_environment


def test_looks_are_files_that_survive_a_restart(start_server, tmp_path):
    looks = tmp_path / "my-looks"
    looks.mkdir()
    (looks / "by-hand.json").write_text(json.dumps({"name": "by-hand", "chain": [{"name": "invert"}]}))
    server = start_server("--input", "test:160x120@30", "--looks", str(looks))

    async def save():
        async with await Client.connect(server.ws_url()) as client:
            assert client.hello.get("looks") is True
            await client.ok({"type": "setFilter", "chain": [{"name": "sepia", "params": {"intensity": 0.25}}, {"name": "vignette"}]})
            await client.ok({"type": "saveLook", "name": "old-film"})
            told = await client.next_json("looks", timeout=5)
            await client.ok({"type": "setFilter", "look": "by-hand"})
            state = await client.next_json("state", where=lambda s: [l["name"] for l in s["chain"]] == ["invert"])
            return told, state
    told, state = run(save(), timeout=30)
    assert [look["name"] for look in told["looks"]] == ["by-hand", "old-film"]
    saved = json.loads((looks / "old-film.json").read_text())
    assert saved["name"] == "old-film" and saved["created"].endswith("Z")
    assert [link["name"] for link in saved["chain"]] == ["sepia", "vignette"]
    assert saved["chain"][0]["params"]["intensity"] == 0.25
    assert sorted(p.name for p in looks.iterdir()) == ["by-hand.json", "old-film.json"], "no temporary file left"

    assert server.stop()[0] == 0
    again = start_server("--input", "test:160x120@30", "--looks", str(looks))
    listed = json.loads(again.get("/api/looks").body)["looks"]
    assert [look["name"] for look in listed] == ["by-hand", "old-film"] and listed[1]["chain"] == saved["chain"]

    async def delete():
        async with await Client.connect(again.ws_url()) as client:
            await client.ok({"type": "setFilter", "look": "old-film"})
            state = await client.next_json("state", where=lambda s: len(s["chain"]) == 2)
            await client.ok({"type": "deleteLook", "name": "old-film"})
            refused = await client.command({"type": "setFilter", "look": "old-film"})
            return state, refused
    state, refused = run(delete(), timeout=30)
    assert state["chain"][0]["params"]["intensity"] == 0.25
    assert refused["code"] == "not_found" and "no look named 'old-film'" in refused["message"]
    assert sorted(p.name for p in looks.iterdir()) == ["by-hand.json"]


def test_a_file_that_is_not_a_look_stops_the_start_naming_it(filtercast_bin, tmp_path):
    looks = tmp_path / "looks"
    looks.mkdir()
    (looks / "broken.json").write_text('{"name": "broken", "chain": "sepia"}')
    result = subprocess.run([filtercast_bin, "serve", "--input", "test:160x120@30", "--port", "0", "--looks", str(looks)],
                            capture_output=True, text=True, timeout=30, env=child_environment())
    assert result.returncode != 0
    assert "broken.json is not a look: look.chain must be an array" in result.stderr, result.stderr
