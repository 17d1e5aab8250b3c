"""Every bad input of the protocol gets its error code; the connection and the server stay up."""

import json

import pytest
import websockets

from fc_client import Client, run

# (what is sent, expected code, expected id in the error or None)
BAD_MESSAGES = [
    pytest.param("this is not json", "bad_json", None, id="not-json"),
    pytest.param('{"type": "play"', "bad_json", None, id="truncated-json"),
    pytest.param("[1,2]", "bad_json", None, id="array"),
    pytest.param('"play"', "bad_json", None, id="string"),
    pytest.param("42", "bad_json", None, id="number"),
    pytest.param("null", "bad_json", None, id="null"),
    pytest.param("[" * 100 + "]" * 100, "bad_json", None, id="nested-too-deep"),
    pytest.param('{"type": "nope"}', "unknown_type", None, id="unknown-type"),
    pytest.param('{"type": "nope", "id": "u1"}', "unknown_type", "u1", id="unknown-type-with-id"),
    pytest.param("{}", "unknown_type", None, id="empty-object"),
    pytest.param('{"type": 5}', "unknown_type", None, id="type-not-string"),
    pytest.param('{"type": "seek", "position": "abc", "id": 1}', "invalid_argument", 1, id="seek-position-string"),
    pytest.param('{"type": "seek", "id": 2}', "invalid_argument", 2, id="seek-position-missing"),
    pytest.param('{"type": "setFilter", "name": 5, "id": 3}', "invalid_argument", 3, id="filter-name-number"),
    pytest.param('{"type": "setFilter", "id": 4}', "invalid_argument", 4, id="filter-name-missing"),
    pytest.param('{"type": "setFilter", "name": "sepia", "params": [1], "id": 5}', "invalid_argument", 5,
                 id="params-not-object"),
    pytest.param('{"type": "setFilter", "name": "sepia", "params": {"intensity": "high"}, "id": 6}',
                 "invalid_argument", 6, id="param-not-number"),
    pytest.param('{"type": "setParams", "id": 7}', "invalid_argument", 7, id="setparams-missing-params"),
    pytest.param('{"type": "frameAck", "seq": -1, "id": 8}', "invalid_argument", 8, id="seq-negative"),
    pytest.param('{"type": "frameAck", "seq": "x", "id": 9}', "invalid_argument", 9, id="seq-string"),
    pytest.param('{"type": "flow", "window": 1.5, "id": 10}', "invalid_argument", 10, id="window-fraction"),
    pytest.param('{"type": "flow", "window": "2", "id": 11}', "invalid_argument", 11, id="window-string"),
    pytest.param('{"type": "play", "id": [1]}', "invalid_argument", None, id="id-not-string-or-number"),
    pytest.param('{"type": "setFilter", "name": "vaporwave", "id": "f"}', "unknown_filter", "f", id="unknown-filter"),
    pytest.param('{"type": "setFilter", "name": "sepia", "params": {"bogus": 1}, "id": "p"}', "invalid_argument", "p",
                 id="unknown-parameter"),
    pytest.param('{"type": "setParams", "params": {"scale": 4}, "id": "q"}', "invalid_argument", "q",
                 id="parameter-of-another-filter"),
    pytest.param('{"type": "setFilter", "name": "sepia", "params": {"intensity": 1.5}, "id": "r"}', "out_of_range", "r",
                 id="param-above-max"),
    pytest.param('{"type": "setFilter", "name": "pixellate", "params": {"scale": 0}, "id": "s"}', "out_of_range", "s",
                 id="param-below-min"),
    pytest.param('{"type": "setFilter", "name": "sepia", "params": {"intensity": 1e999}, "id": "t"}', "out_of_range", "t",
                 id="param-infinite"),
    pytest.param('{"type": "flow", "window": 17, "id": "w"}', "out_of_range", "w", id="window-too-big"),
]


async def expect_error(client: Client, code: str, id_=None) -> dict:
    error = await client.next_json("error", timeout=3)
    assert error["code"] == code, f"expected {code}, got {error}"
    assert isinstance(error.get("message"), str) and error["message"], error
    if id_ is None:
        assert "id" not in error, error
    else:
        assert error.get("id") == id_, error
    return error


async def still_works(client: Client):
    """The connection is still open and takes commands; the state was not changed."""
    reply = await client.ok({"type": "setFilter", "name": "none", "id": "still-works"})
    assert reply == {"type": "ack", "id": "still-works"}
    state = await client.next_json("state")
    assert state["filter"] == {"name": "none", "params": {}}
    assert state["playing"] is True
    await client.next_frame(timeout=3)


@pytest.mark.parametrize("text, code, id_", BAD_MESSAGES)
def test_bad_message_gets_its_error_code_and_the_connection_stays_open(server, text, code, id_):
    async def scenario():
        async with await Client.connect(server.ws_url()) as client:
            # A filter whose parameters the bad setParams messages would change.
            await client.ok({"type": "setFilter", "name": "sepia", "params": {"intensity": 0.5}})
            await client.send_raw(text)
            await expect_error(client, code, id_)
            await client.ok({"type": "play", "id": "probe"})
            reply_state = await client.next_json("state")
            assert reply_state["filter"] == {"name": "sepia", "params": {"intensity": 0.5}}, (
                f"a refused command changed the state: {reply_state['filter']}")
            await still_works(client)
    run(scenario())


def test_a_binary_message_from_the_client_is_invalid_argument(server):
    async def scenario():
        async with await Client.connect(server.ws_url()) as client:
            await client.send_raw(b"\x00\x01binary")
            await expect_error(client, "invalid_argument")
            await still_works(client)
    run(scenario())


def test_a_message_over_64_kib_is_too_large_and_closes_the_connection(server):
    async def scenario():
        async with await Client.connect(server.ws_url()) as client:
            # Valid JSON with a long unknown field: only the size is wrong.
            text = json.dumps({"type": "play", "padding": "x" * (64 * 1024)})
            assert len(text.encode()) > 65536
            await client.send_raw(text)
            error, closed_with = None, None
            try:
                while True:
                    message = await client.next_json(timeout=3)
                    if message["type"] == "error":
                        error = message
            except websockets.ConnectionClosed as closed:
                closed_with = closed
            assert closed_with is not None, "the connection stayed open after a too-large message"
            assert error is not None and error["code"] == "too_large", (
                f"no too_large error before the close (close code {closed_with.rcvd and closed_with.rcvd.code}, "
                f"text messages: {client.json_received})")
            assert closed_with.rcvd is not None and closed_with.rcvd.code == 1009, closed_with
        # The server is still up for others.
        async with await Client.connect(server.ws_url()) as other:
            await still_works(other)
    run(scenario())


def test_a_message_of_exactly_64_kib_is_accepted(server):
    async def scenario():
        async with await Client.connect(server.ws_url()) as client:
            prefix = '{"type": "play", "id": "big", "padding": "'
            text = prefix + "x" * (65536 - len(prefix) - 2) + '"}'
            assert len(text.encode()) == 65536
            await client.send_raw(text)
            reply = await client.next_json("ack", timeout=3)
            assert reply == {"type": "ack", "id": "big"}
    run(scenario())


def test_unknown_fields_in_a_command_are_ignored(server):
    async def scenario():
        async with await Client.connect(server.ws_url()) as client:
            await client.ok({"type": "setFilter", "name": "sepia", "future": {"x": [1, 2]}, "id": "fwd"})
            state = await client.next_json("state", where=lambda s: s["filter"]["name"] == "sepia")
            assert state["filter"]["params"] == {"intensity": 1}
    run(scenario())


def test_the_server_stays_up_after_all_the_bad_input(server):
    async def scenario():
        async with await Client.connect(server.ws_url()) as client:
            for param in BAD_MESSAGES:
                text = param.values[0]
                await client.send_raw(text)
                await client.next_json("error", timeout=3)
            await client.send_raw(b"\xff\xfe")
            await client.next_json("error", timeout=3)
            await still_works(client)
        async with await Client.connect(server.ws_url()) as fresh:
            assert fresh.hello["state"]["filter"]["name"] == "none"
            await fresh.next_frame(timeout=3)
    run(scenario())
    assert server.get("/healthz").status == 200
