"""Access control through the real socket: the 401 of an HTTP route, `auth` on a WebSocket, lws'
403 for a foreign origin and 503 over --max-clients, a client without subprotocol. The rules
themselves (every command, every route's level, bearer tokens, each origin) are tested in process:
Tests/CastServerTests/ServerCoreAccessTests.swift and RouteTableTests.swift."""

import pytest
import websockets

from fc_client import Client, handshake_status, run

TOKEN = "s3cret-T0ken"


async def frames_within(client: Client, seconds: float) -> list:
    return [m for m in await client.collect(seconds) if not isinstance(m, dict)]


# -- token ---------------------------------------------------------------------------------------

@pytest.fixture
def token_server(start_server):
    return start_server("--input", "test:320x240@30", "--token", TOKEN)


def test_an_auth_message_authorizes(token_server):
    async def scenario():
        async with await Client.connect(token_server.ws_url()) as client:
            before = await frames_within(client, 0.6)
            await client.ok({"type": "auth", "token": TOKEN})
            await client.ok({"type": "setFilter", "name": "sepia"})
            after = await client.next_frame(timeout=3)
            return before, after
    before, after = run(scenario())
    assert before == [], f"without --public-view an unauthenticated client got frames: {before}"
    assert after is not None


def test_http_endpoints_need_the_token_without_public_view(token_server):
    assert token_server.get("/api/state").status == 401
    assert token_server.get("/snapshot.jpg").status == 401
    assert token_server.get(f"/api/state?token={TOKEN}").status == 200
    assert token_server.get("/healthz").status == 200
    assert token_server.get("/").status == 200


# -- Origin --------------------------------------------------------------------------------------

def test_a_foreign_origin_is_refused(server):
    # Checked on the raw handshake: lws answers a refused upgrade with "HTTP/1.0 403", which the
    # `websockets` client does not parse (InvalidMessage rather than InvalidStatusCode).
    status = handshake_status(server.host, server.port, headers={"Origin": "http://evil.example"})
    assert status == 403, f"a foreign origin was answered with {status}"
    assert handshake_status(server.host, server.port, headers={"Origin": server.origin}) == 101

    async def scenario():
        with pytest.raises(websockets.InvalidHandshake):
            await Client.connect(server.ws_url(), origin="http://evil.example")
    run(scenario())
    assert server.running
    assert server.get("/healthz").status == 200


def test_a_client_without_subprotocol_is_served(server):
    async def scenario():
        async with await Client.connect(server.ws_url(), subprotocol=None) as client:
            assert client.ws.subprotocol is None
            await client.ok({"type": "setFilter", "name": "sepia"})
            await client.next_frame(timeout=3)
        async with await Client.connect(server.ws_url()) as client:
            assert client.ws.subprotocol == "filtercast.v1"
    run(scenario())


# -- --max-clients -------------------------------------------------------------------------------

def test_max_clients_refuses_the_next_connection_with_503(start_server):
    server = start_server("--input", "test:320x240@30", "--max-clients", "2")

    async def scenario():
        first = await Client.connect(server.ws_url())
        second = await Client.connect(server.ws_url())
        try:
            await second.next_json("state", where=lambda s: s["viewers"] == 2)
            status = handshake_status(server.host, server.port)
            assert status == 503, f"the third connection got {status}"
            # The two admitted clients are unaffected.
            await first.next_frame(timeout=3)
            await second.next_frame(timeout=3)
        finally:
            await second.close()
        # A place is free again.
        await first.next_json("state", where=lambda s: s["viewers"] == 1, timeout=3)
        third = await Client.connect(server.ws_url())
        await third.next_frame(timeout=3)
        await third.close()
        await first.close()
    run(scenario())
