"""Access control: --token (with and without --public-view), Origin checks, --max-clients."""

import json

import pytest
import websockets

from fc_client import Client, handshake_status, run

TOKEN = "s3cret-T0ken"
SESSION_COMMANDS = [
    {"type": "setFilter", "name": "sepia"},
    {"type": "setParams", "params": {}},
    {"type": "pause"},
    {"type": "play"},
    {"type": "seek", "position": 1.0},
    # A browser's bitstream goes to FFmpeg's decoders: only a client that may control sends one.
    {"type": "share", "action": "start", "codec": "h264", "width": 320, "height": 240},
]


async def frames_within(client: Client, seconds: float) -> list:
    return [m for m in await client.collect(seconds) if not isinstance(m, dict)]


# -- token ---------------------------------------------------------------------------------------

@pytest.fixture
def token_server(start_server):
    return start_server("--input", "test:320x240@30", "--token", TOKEN)


@pytest.fixture
def public_server(start_server):
    return start_server("--input", "test:320x240@30", "--token", TOKEN, "--public-view")


def test_commands_without_the_token_are_unauthorized(token_server):
    async def scenario():
        async with await Client.connect(token_server.ws_url()) as client:
            for command in SESSION_COMMANDS:
                reply = await client.command(command)
                assert reply["type"] == "error" and reply["code"] == "unauthorized", (command, reply)
            reply = await client.command({"type": "auth", "token": "wrong"})
            assert reply["code"] == "unauthorized", reply
            reply = await client.command({"type": "setFilter", "name": "sepia"})
            assert reply["code"] == "unauthorized", "a wrong token must not authorize"
        # Nothing changed.
        assert token_server.get(f"/api/state?token={TOKEN}").status == 200
    run(scenario())
    state = token_server.get(f"/api/state?token={TOKEN}")
    assert json.loads(state.body)["filter"]["name"] == "none"


def test_token_in_the_url_authorizes(token_server):
    async def scenario():
        async with await Client.connect(token_server.ws_url(token=TOKEN)) as client:
            await client.ok({"type": "setFilter", "name": "sepia"})
            await client.next_frame(timeout=3)
    run(scenario())


def test_a_wrong_token_in_the_url_does_not_authorize(token_server):
    async def scenario():
        async with await Client.connect(token_server.ws_url(token="nope")) as client:
            reply = await client.command({"type": "pause"})
            assert reply["code"] == "unauthorized", reply
            assert await frames_within(client, 0.5) == []
    run(scenario())


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


def test_without_public_view_an_unauthenticated_client_gets_nothing_but_hello(token_server):
    async def scenario():
        async with await Client.connect(token_server.ws_url()) as client:
            items = await client.collect(1.2)
            return client.hello, items
    hello, items = run(scenario())
    assert hello["type"] == "hello"
    frames = [m for m in items if not isinstance(m, dict)]
    assert frames == [], f"frames sent before auth: {frames}"
    texts = [m for m in items if isinstance(m, dict)]
    assert texts == [], f"PROTOCOL.md: an unauthenticated client is sent nothing but hello; got {texts}"


def test_with_public_view_an_unauthenticated_client_watches_but_cannot_control(public_server):
    async def scenario():
        async with await Client.connect(public_server.ws_url()) as client:
            frames = await client.frames(5, timeout=3)
            await client.ok({"type": "flow", "window": 3})
            for command in SESSION_COMMANDS:
                reply = await client.command(command)
                assert reply["code"] == "unauthorized", (command, reply)
            state = await client.next_json("state", timeout=2)
            await client.ok({"type": "auth", "token": TOKEN})
            await client.ok({"type": "pause"})
            return frames, state
    frames, state = run(scenario())
    assert len(frames) == 5
    assert state["playing"] is True


def test_http_endpoints_need_the_token_without_public_view(token_server):
    assert token_server.get("/api/state").status == 401
    assert token_server.get("/snapshot.jpg").status == 401
    assert token_server.get(f"/api/state?token={TOKEN}").status == 200
    assert token_server.get("/healthz").status == 200
    assert token_server.get("/").status == 200


def test_hello_tells_each_client_its_access(start_server, token_server, public_server):
    open_server = start_server("--input", "test:320x240@30")

    async def access(server, **query):
        async with await Client.connect(server.ws_url(**query)) as client:
            return client.hello["access"]
    assert run(access(open_server)) == "control"
    assert run(access(token_server)) == "none"
    assert run(access(token_server, token="wrong")) == "none"
    assert run(access(token_server, token=TOKEN)) == "control"
    assert run(access(public_server)) == "watch"
    assert run(access(public_server, token=TOKEN)) == "control"


def test_auth_brings_a_fresh_state_at_once(token_server):
    """The state in hello may be old: after `auth` the client gets the current one, even paused."""
    async def scenario():
        async with await Client.connect(token_server.ws_url(token=TOKEN)) as owner:
            await owner.ok({"type": "pause"})
            async with await Client.connect(token_server.ws_url()) as client:
                await client.ok({"type": "auth", "token": TOKEN})
                state = await client.next_json("state", timeout=0.4)
                await client.next_frame(timeout=2)
                return state
    state = run(scenario())
    assert state["playing"] is False and state["viewers"] == 2


PROTECTED = ["/metrics", "/api/state", "/api/recordings", "/snapshot.jpg"]


@pytest.mark.parametrize("path", PROTECTED)
def test_a_bearer_token_opens_the_http_endpoints(token_server, path):
    for scheme in ("Bearer", "bearer"):
        response = token_server.get(path, headers={"Authorization": f"{scheme} {TOKEN}"})
        assert response.status == 200, (path, scheme, response.status, response.body[:200])
    if path == "/metrics":
        assert b"filtercast_viewers" in response.body
    if path == "/api/state":
        assert json.loads(response.body)["source"]["kind"] == "test"


@pytest.mark.parametrize("authorization", [f"Bearer {TOKEN[:-1]}", f"Bearer {TOKEN}x", "Bearer ", f"Basic {TOKEN}",
                                           TOKEN])
def test_a_wrong_bearer_token_is_401_with_a_challenge(token_server, authorization):
    for path in PROTECTED:
        response = token_server.get(path, headers={"Authorization": authorization})
        assert response.status == 401, (path, authorization, response.status)
        assert response.headers.get("www-authenticate", "").startswith("Bearer"), response.headers
        assert "Authorization: Bearer" in response.text()


# -- Origin --------------------------------------------------------------------------------------

def test_a_foreign_origin_is_refused(server):
    # Checked on the raw handshake: lws answers a refused upgrade with "HTTP/1.0 403", which the
    # `websockets` client does not parse (InvalidMessage rather than InvalidStatusCode).
    for origin in ["http://evil.example", "https://evil.example",
                   f"http://{server.host}:{server.port}.evil.example",
                   f"http://evil.example/{server.host}:{server.port}",
                   f"http://{server.host}:{server.port + 1}", "null"]:
        status = handshake_status(server.host, server.port, headers={"Origin": origin})
        assert status == 403, f"Origin {origin!r} was answered with {status}"

    async def scenario():
        with pytest.raises(websockets.InvalidHandshake):
            await Client.connect(server.ws_url(), origin="http://evil.example")
    run(scenario())
    assert server.running
    assert server.get("/healthz").status == 200


def test_the_own_origin_and_no_origin_are_accepted(server):
    async def scenario():
        async with await Client.connect(server.ws_url(), origin=server.origin) as own:
            await own.next_frame(timeout=3)
        async with await Client.connect(server.ws_url()) as none:
            await none.next_frame(timeout=3)
    run(scenario())


def test_allow_origin_admits_that_origin(start_server):
    server = start_server("--input", "test:320x240@30", "--allow-origin", "http://ok.example")

    async def scenario():
        async with await Client.connect(server.ws_url(), origin="http://ok.example") as client:
            await client.next_frame(timeout=3)
        assert handshake_status(server.host, server.port, headers={"Origin": "http://evil.example"}) == 403
        assert handshake_status(server.host, server.port, headers={"Origin": server.origin}) == 101
    run(scenario())
    assert handshake_status(server.host, server.port, headers={"Origin": "http://ok.example"}) == 101


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
