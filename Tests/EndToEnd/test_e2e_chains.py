"""Filter chains: `setFilter {chain}`, `setParams {index}`, the state's `chain`, their errors, and
`serve` with repeated `--filter`s — against a real server."""

import json
import subprocess

import numpy as np
import pytest

from fc_client import Client, run, warmth
from fc_server import child_environment

WARM = 25.0  # sepia's R−B on the test pattern is ≈ +44 (see test_e2e_commands.py)


def link(name, **params):
    return {"name": name, "params": params}


@pytest.fixture
def paused_clip_server(start_server, sample_clip):
    return start_server("--input", str(sample_clip))


async def paused(client: Client):
    """Pauses and lets the paused frame go by, so that the next flagged frame is a re-render of
    the same picture with whatever filter the next command sets."""
    await client.frames(1)
    await client.ok({"type": "pause"})
    await client.collect(0.4)


async def picture_after(client: Client, command: dict):
    """The frame re-rendered for `command` (paused: the same source picture every time)."""
    await client.ok(command)
    frame = await client.next_frame(timeout=5, where=lambda f: f.state_changed)
    return frame


def test_a_chain_is_applied_in_order_and_shown_in_the_state(paused_clip_server):
    async def scenario():
        async with await Client.connect(paused_clip_server.ws_url()) as client:
            await paused(client)
            sepia = await picture_after(client, {"type": "setFilter", "name": "sepia"})
            invert_sepia = await picture_after(client, {"type": "setFilter", "chain": [link("invert"), link("sepia")]})
            state = await client.next_json("state", where=lambda s: len(s["chain"]) == 2)
            sepia_invert = await picture_after(client, {"type": "setFilter", "chain": [link("sepia"), link("invert")]})
            return sepia, invert_sepia, sepia_invert, state
    sepia, invert_sepia, sepia_invert, state = run(scenario())
    assert state["chain"] == [link("invert"), link("sepia", intensity=1)]
    assert state["filter"] == link("invert"), "filter is the first link, for single-filter clients"
    assert warmth(sepia.rgb()) > WARM
    # Sepia last: still warm, but from the inverted picture (its brightness runs the other way).
    assert warmth(invert_sepia.rgb()) > WARM, warmth(invert_sepia.rgb())
    correlation = np.corrcoef(sepia.luma().ravel(), invert_sepia.luma().ravel())[0, 1]
    assert correlation < -0.5, f"invert → sepia should be sepia of the negative, correlation {correlation:.2f}"
    # Invert last: the negative of a warm picture is cold.
    assert warmth(sepia_invert.rgb()) < -WARM, warmth(sepia_invert.rgb())


def test_set_params_with_an_index_changes_that_link_only(server):
    async def scenario():
        async with await Client.connect(server.ws_url()) as client:
            await client.ok({"type": "setFilter", "chain": [link("pixellate", scale=8), link("sepia", intensity=0.8)]})
            await client.ok({"type": "setParams", "index": 1, "params": {"intensity": 0.25}})
            state = await client.next_json("state", where=lambda s: s["chain"][-1]["params"]["intensity"] == 0.25)
            await client.ok({"type": "setParams", "params": {"scale": 12}})  # no index: link 0
            later = await client.next_json("state", where=lambda s: s["chain"][0]["params"]["scale"] == 12)
            return state, later
    state, later = run(scenario())
    assert state["chain"] == [link("pixellate", scale=8), link("sepia", intensity=0.25)]
    assert later["chain"] == [link("pixellate", scale=12), link("sepia", intensity=0.25)]
    assert later["filter"] == link("pixellate", scale=12)


def test_single_filters_and_none_replace_the_chain(server):
    async def scenario():
        async with await Client.connect(server.ws_url()) as client:
            await client.ok({"type": "setFilter", "chain": [link("invert"), link("sepia")]})
            await client.ok({"type": "setFilter", "name": "mono"})
            mono = await client.next_json("state", where=lambda s: s["filter"]["name"] == "mono")
            await client.ok({"type": "setFilter", "chain": [link("none")]})
            none = await client.next_json("state", where=lambda s: s["chain"] == [])
            return mono, none
    mono, none = run(scenario())
    assert [entry["name"] for entry in mono["chain"]] == ["mono"]
    assert none["filter"] == {"name": "none", "params": {}}


BAD_CHAIN_COMMANDS = [
    # (command, code, words its message must contain)
    ({"type": "setFilter", "chain": [link("invert")] * 9}, "out_of_range", ["setFilter.chain", "1…8", "got 9"]),
    ({"type": "setFilter", "chain": []}, "out_of_range", ["setFilter.chain", "1…8", "got 0"]),
    ({"type": "setFilter", "name": "sepia", "chain": [link("invert")]}, "invalid_argument", ["either name", "chain"]),
    ({"type": "setFilter", "chain": "sepia"}, "invalid_argument", ["setFilter.chain", "an array"]),
    ({"type": "setFilter", "chain": [link("invert"), {"params": {}}]}, "invalid_argument", ["setFilter.chain[1].name"]),
    ({"type": "setFilter", "chain": [link("invert"), link("nope")]}, "unknown_filter", ["chain link 1", "nope"]),
    ({"type": "setFilter", "chain": [link("invert"), link("sepia", radius=2)]}, "invalid_argument",
     ["chain link 1", "radius"]),
    ({"type": "setFilter", "chain": [link("sepia", intensity=2), link("invert")]}, "out_of_range",
     ["chain link 0", "sepia.intensity", "0…1"]),
    ({"type": "setFilter", "chain": [link("invert"), link("none")]}, "invalid_argument", ["'none'"]),
    ({"type": "setParams", "index": 2, "params": {}}, "out_of_range", ["setParams.index", "0…1", "got 2"]),
    ({"type": "setParams", "index": 8, "params": {}}, "out_of_range", ["setParams.index", "0…7"]),
    ({"type": "setParams", "index": "1", "params": {}}, "invalid_argument", ["setParams.index"]),
    ({"type": "setParams", "index": 1, "params": {"scale": 4}}, "invalid_argument", ["chain link 1", "sepia", "scale"]),
    ({"type": "setParams", "index": 0, "params": {"scale": 0}}, "out_of_range", ["chain link 0", "pixellate.scale"]),
]


@pytest.mark.parametrize("command, code, words", BAD_CHAIN_COMMANDS)
def test_bad_chain_commands_get_a_clear_error_and_change_nothing(server, command, code, words):
    chain = [link("pixellate", scale=6), link("sepia", intensity=0.5)]

    async def scenario():
        async with await Client.connect(server.ws_url()) as client:
            await client.ok({"type": "setFilter", "chain": chain})
            reply = await client.command(command)
            await client.ok({"type": "play"})
            state = await client.next_json("state")
            return reply, state
    reply, state = run(scenario())
    assert reply["type"] == "error" and reply["code"] == code, reply
    for word in words:
        assert word in reply["message"], f"{reply['message']!r} should mention {word!r}"
    assert state["chain"] == chain, f"a refused command changed the chain: {state['chain']}"
    assert json.loads(server.get("/api/state").body)["chain"] == chain


def test_serve_starts_with_the_chain_from_the_command_line(start_server):
    server = start_server("--input", "test:320x240@30", "--filter", "invert",
                          "--filter", "sepia", "--param", "intensity=0.5")

    async def scenario():
        async with await Client.connect(server.ws_url()) as client:
            frame = await client.next_frame(timeout=5)
            return client.hello["state"], frame
    state, frame = run(scenario())
    assert state["chain"] == [link("invert"), link("sepia", intensity=0.5)]
    assert state["filter"] == link("invert")
    assert warmth(frame.rgb()) > WARM / 2, "sepia at half intensity, applied last, warms the picture"
    http_state = json.loads(server.get("/api/state").body)
    assert http_state["chain"] == state["chain"]


def test_environment_variables_give_a_chain(start_server, filtercast_bin, tmp_path):
    server = start_server(env={"FILTERCAST_INPUT": "test:160x120@25", "FILTERCAST_FILTER": "invert,pixellate",
                               "FILTERCAST_PARAM": "scale=4"})
    state = json.loads(server.get("/api/state").text())
    assert state["chain"] == [link("invert"), link("pixellate", scale=4)], "FILTERCAST_PARAM sets the last filter"

    result = subprocess.run([filtercast_bin, "serve", "--web", str(tmp_path)], capture_output=True, text=True,
                            env=child_environment({"FILTERCAST_FILTER": ",".join(["invert"] * 9)}),
                            timeout=20, stdin=subprocess.DEVNULL)
    assert result.returncode == 2, result.stderr
    assert "FILTERCAST_FILTER" in result.stderr and "at most 8" in result.stderr, result.stderr
