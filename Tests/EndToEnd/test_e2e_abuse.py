"""Protocol abuse: frames that break RFC 6455, a storm of random and malformed commands from many
clients at once, a client that opens 1,000 connections, a slowloris HTTP client and a command
flood. After each the server is still up and streaming. What libwebsockets 4.1.6 does for each
frame violation (and why it is safe where it does not send a close frame) is in docs/SECURITY.md.
"""

import asyncio
import json
import random
import socket
import time

import pytest

from fc_client import (OPCODE_CLOSE, OPCODE_CONTINUATION, OPCODE_PING, OPCODE_PONG, OPCODE_TEXT, Client,
                       RawWebSocket, run)

PROTOCOL_ERROR, INVALID_PAYLOAD, POLICY_VIOLATION = 1002, 1007, 1008
HTTP_TIMEOUT = 4  # --http-timeout of the server here: the slowloris test waits it out


@pytest.fixture(scope="module")
def abuse_server(filtercast_bin, web_root, tmp_path_factory):
    """One small, cheap server for the frame violations (each test leaves it as it found it)."""
    from fc_server import TEARDOWN_STOP_SECONDS, ServerProcess
    folder = tmp_path_factory.mktemp("abuse-server")
    server = ServerProcess(filtercast_bin, ["--web", str(web_root), "--recordings", str(folder / "recordings"),
                                            "--input", "test:160x120@15", "--http-timeout", str(HTTP_TIMEOUT)],
                           str(folder / "filtercast.log")).start()
    yield server
    # Exit 0 without a kill; the bound only tells a stop from a hang (see conftest).
    code, seconds = server.stop(timeout=TEARDOWN_STOP_SECONDS)
    assert code == 0, f"SIGTERM: exit code {code} after {seconds:.2f} s (None: killed)\n{server.stderr_text()}"


def still_streaming(server, frames: int = 3):
    """A fresh client gets `hello`, its commands acked, and frames with rising sequence numbers."""
    async def scenario():
        async with await Client.connect(server.ws_url()) as client:
            await client.ok({"type": "play"})  # in case something paused the session
            received = await client.frames(frames, timeout=5)
            assert [f.seq for f in received] == sorted({f.seq for f in received}), received
    assert server.running, server.stderr_text()
    run(scenario())


def violate(server, *frames) -> tuple | None:
    """Sends `frames` (send_frame arguments) on a fresh connection; what the server closes with."""
    raw = RawWebSocket.connect(server.host, server.port)
    try:
        assert raw.status == 101, raw.response_head
        for opcode, payload, options in frames:
            raw.send_frame(opcode, payload, **options)
        return raw.close_received(timeout=5)
    finally:
        raw.close()


# -- RFC 6455 frame violations -------------------------------------------------------------------

VIOLATIONS = [
    # (frames, close code lws sends, words of its reason)
    pytest.param([(3, b"x", {})], PROTOCOL_ERROR, "bad opc", id="reserved-data-opcode-3"),
    pytest.param([(0xB, b"x", {})], PROTOCOL_ERROR, "bad opc", id="reserved-control-opcode-11"),
    pytest.param([(OPCODE_TEXT, b'{"type":"play"}', {"rsv": 4})], PROTOCOL_ERROR, "rsv bits", id="rsv1-without-extension"),
    pytest.param([(OPCODE_PING, b"x", {"fin": False})], PROTOCOL_ERROR, "frag ctl", id="fragmented-ping"),
    pytest.param([(OPCODE_CONTINUATION, b"x", {})], PROTOCOL_ERROR, "bad cont", id="continuation-without-start"),
    pytest.param([(OPCODE_TEXT, b'{"ty', {"fin": False}), (OPCODE_TEXT, b'pe":"play"}', {})], PROTOCOL_ERROR,
                 "bad cont", id="new-message-inside-a-fragmented-one"),
    pytest.param([(OPCODE_CLOSE, b"\x00\x01", {})], PROTOCOL_ERROR, "", id="close-with-invalid-code-1"),
    pytest.param([(OPCODE_TEXT, b'{"type":"\xff\xfe"}', {})], INVALID_PAYLOAD, "bad utf8", id="invalid-utf8-bytes"),
    pytest.param([(OPCODE_TEXT, b'{"type":"\xc0\xaf"}', {})], INVALID_PAYLOAD, "bad utf8", id="overlong-utf8"),
    pytest.param([(OPCODE_TEXT, b'{"type":"\xed\xa0\x80"}', {})], INVALID_PAYLOAD, "bad utf8", id="utf16-surrogate"),
    pytest.param([(OPCODE_TEXT, b'{"type":"\xe2', {"fin": False}), (OPCODE_CONTINUATION, b'\x28\xa1"}', {})],
                 INVALID_PAYLOAD, "bad utf8", id="invalid-utf8-across-fragments"),
]


@pytest.mark.parametrize("frames, code, reason", VIOLATIONS)
def test_a_frame_violation_is_closed_with_its_code(abuse_server, frames, code, reason):
    closed = violate(abuse_server, *frames)
    assert closed is not None, "the server did not send a close frame"
    assert closed[0] == code and reason in closed[1], f"closed with {closed}, want {code} {reason!r}"


@pytest.mark.parametrize("frames", [
    pytest.param([(OPCODE_PING, b"x" * 126, {})], id="ping-over-125-bytes"),
    pytest.param([(OPCODE_CLOSE, b"\x03\xe8" + b"x" * 200, {})], id="close-over-125-bytes"),
    pytest.param([(OPCODE_CLOSE, b"\x03\xe8\xff", {})], id="close-reason-invalid-utf8"),
])
def test_an_oversize_or_broken_control_frame_ends_the_connection_at_once(abuse_server, frames):
    """lws fails these connections without a close frame (RFC 6455 §7.1.7 allows it: the
    control frame itself is unreadable); what matters is that it is at once, not after a timeout."""
    start = time.monotonic()
    closed = violate(abuse_server, *frames)
    assert closed is None and time.monotonic() - start < 2.0, f"got {closed} after {time.monotonic() - start:.1f} s"


def test_a_one_byte_close_payload_is_answered_by_a_close(abuse_server):
    # RFC 6455 §5.5.1: a close body is empty or at least 2 bytes; lws answers with a bare close.
    assert violate(abuse_server, (OPCODE_CLOSE, b"\x03", {})) == (None, "")


def test_an_unmasked_client_frame_is_read_by_the_same_rules(abuse_server):
    """lws 4.1.6 accepts unmasked client frames (RFC 6455 §5.1 says close); see docs/SECURITY.md
    for why that is safe. The frame gets no privilege: the same parser, limits and budget."""
    raw = RawWebSocket.connect(abuse_server.host, abuse_server.port)
    try:
        raw.send_frame(OPCODE_TEXT, b'{"type":"nope","id":"unmasked"}', masked=False)
        deadline = time.monotonic() + 5
        while (frame := raw.read_frame(deadline)) is not None:
            if frame[0] == OPCODE_TEXT and json.loads(frame[1])["type"] == "error":
                error = json.loads(frame[1])
                break
        else:
            raise AssertionError("no answer to an unmasked command")
        assert error["code"] == "unknown_type" and error["id"] == "unmasked", error
    finally:
        raw.close()


def test_a_ping_is_answered_with_its_pong(abuse_server):
    raw = RawWebSocket.connect(abuse_server.host, abuse_server.port)
    try:
        raw.send_frame(OPCODE_PING, b"are you there")
        deadline = time.monotonic() + 5
        while (frame := raw.read_frame(deadline)) is not None and frame[0] != OPCODE_PONG:
            pass
        assert frame == (OPCODE_PONG, b"are you there"), frame
    finally:
        raw.close()


def test_the_server_streams_after_every_frame_violation(abuse_server):
    still_streaming(abuse_server)


# -- 10,000 random and malformed commands from 40 clients at once ---------------------------------

FILTERS = ["none", "sepia", "invert", "pixellate", "comic", "vaporwave", "", "SEPIA", "../etc"]
VALUES = [0, -1, 1, 0.5, 1e308, -1e308, 2 ** 64, "", "x" * 300, None, True, [], {}, [1, [2]], {"a": {"b": 1}}, "\u0000",
          "\u202e", "😀"]
TYPES = ["play", "pause", "seek", "setFilter", "setParams", "flow", "auth", "open", "delete", "record", "nope", "",
         "PLAY"]


def random_command(rng: random.Random, id_: str) -> str:
    """A JSON object with this `id`, a type and random fields: always answered (ack or error)."""
    message = {"type": rng.choice(TYPES), "id": id_}
    for _ in range(rng.randrange(4)):
        key = rng.choice(["position", "name", "params", "window", "chain", "index", "token", "path", "action",
                          "filtered", "seq", "zz"])
        message[key] = rng.choice(VALUES + FILTERS + [{"intensity": rng.choice(VALUES)}, {"scale": rng.uniform(-5, 80)}])
    if message["type"] == "record" and message.get("action") == "start":
        message["action"] = "begin"  # a recording would encode H.264 for the rest of the test
    return json.dumps(message)


def malformed(rng: random.Random, id_: str) -> str:
    """Text that is never a valid command: always a bad_json (or unknown_type) error without id."""
    valid = random_command(rng, id_)
    return rng.choice([
        lambda: valid[:rng.randrange(1, len(valid) - 1)],                      # cut short
        lambda: json.dumps(rng.choice(VALUES[:-5] + [[1, 2], "play"])),         # not an object
        lambda: "".join(rng.choice("{}[]\":,0123456789abc \\ntrue") for _ in range(rng.randrange(1, 80))) + "}{",
        lambda: "[" * rng.randrange(65, 400) + "]" * 3,                         # nested too deep
        lambda: "{" + valid,                                                    # doubled brace
        lambda: '{"type": "play", "id": ' + str(rng.random()) + ',}',           # trailing comma
    ])()


async def storm(url: str, seed: int, count: int) -> dict:
    """Sends `count` commands at under the per-client budget; every one must be answered."""
    rng = random.Random(seed)
    async with await Client.connect(url, timeout=10) as client:
        pending_ids, anonymous = set(), 0
        sent, started = 0, time.monotonic()

        async def take_replies(timeout: float):
            nonlocal anonymous
            for item in await client.collect(timeout):
                if isinstance(item, dict) and item["type"] in ("ack", "error"):
                    assert item.get("code") != "rate_limited", f"client {seed}: rate limited below the budget"
                    if "id" in item:
                        pending_ids.discard(item["id"])
                    else:
                        anonymous -= 1
        while sent < count:
            # The budget: 120 at once, then 60 a second; stay at 100 + 50 a second, and at most
            # 40 unanswered so that a server slowed by a busy machine never gets them in a clump.
            allowed = min(count, 100 + int((time.monotonic() - started) * 50),
                          sent + 40 - len(pending_ids) - anonymous)
            while sent < allowed:
                id_ = f"{seed}-{sent}"
                if rng.random() < 0.5:
                    await client.send_raw(random_command(rng, id_))
                    pending_ids.add(id_)
                else:
                    await client.send_raw(malformed(rng, id_))
                    anonymous += 1
                sent += 1
            await take_replies(0.05)
        deadline = time.monotonic() + 20
        while (pending_ids or anonymous > 0) and time.monotonic() < deadline:
            await take_replies(0.2)
        return {"unanswered": sorted(pending_ids)[:5], "anonymous_left": anonymous, "sent": sent}


def test_ten_thousand_random_and_malformed_commands_from_40_clients_are_all_answered(abuse_server):
    clients, per_client = 40, 250

    async def scenario():
        return await asyncio.gather(*(storm(abuse_server.ws_url(), seed, per_client) for seed in range(clients)))
    results = run(scenario(), timeout=90)
    assert sum(r["sent"] for r in results) == 10_000
    unanswered = [r for r in results if r["unanswered"] or r["anonymous_left"]]
    assert not unanswered, f"commands without an answer: {unanswered[:3]}"
    still_streaming(abuse_server)


# -- a command flood ------------------------------------------------------------------------------

def test_a_flood_far_over_the_budget_is_refused_then_closed_with_1008(abuse_server):
    """The budget's worth of commands is answered, then one rate_limited error; after 500 refused
    (in one episode: the bucket never refilled) the connection closes. The refused commands are dropped unanswered (the client was
    told once), and what was answered is written before the close."""
    raw = RawWebSocket.connect(abuse_server.host, abuse_server.port)
    try:
        flood = b"".join(RawWebSocket.encode_frame(OPCODE_TEXT, json.dumps({"type": "flow", "window": 2, "id": index})
                                                   .encode()) for index in range(800))
        try:
            raw.sock.sendall(flood)
        except (ConnectionResetError, BrokenPipeError):
            pass  # the server closed before the flood's tail arrived: its answers are in the socket
        acked, errors, closed = [], [], None
        deadline = time.monotonic() + 10
        while (frame := raw.read_frame(deadline)) is not None:
            message = json.loads(frame[1]) if frame[0] == OPCODE_TEXT else {}
            if message.get("type") == "error":
                errors.append(message)
            elif message.get("type") == "ack":
                acked.append(message["id"])
            elif frame[0] == OPCODE_CLOSE:
                closed = (int.from_bytes(frame[1][:2], "big"), frame[1][2:].decode())
                break
        assert closed == (POLICY_VIOLATION, "command flood"), closed
        assert [e["code"] for e in errors] == ["rate_limited"], errors
        # The bucket's 120 first, then the odd one that refilled while the flood was read (at
        # most 800 - 500), in order.
        assert acked[:120] == list(range(120)) and len(acked) <= 300 and acked == sorted(acked), acked
    finally:
        raw.close()
    still_streaming(abuse_server)


# -- 1,000 connections from one client -------------------------------------------------------------

def test_a_client_opening_1000_connections_gets_200_and_a_clear_refusal(start_server):
    server = start_server("--input", "test:160x120@5")  # --max-clients left at its default
    admitted, refusals, others = [], [], []
    try:
        for _ in range(1000):
            raw = RawWebSocket.connect(server.host, server.port, timeout=10)
            if raw.status == 101:
                admitted.append(raw)
                continue
            try:
                raw.sock.settimeout(2)
                body = raw.sock.recv(4096)
            except OSError:
                body = b""
            raw.close()
            (refusals if raw.status == 503 else others).append(raw.response_head + body)
        assert len(admitted) == 200, f"{len(admitted)} admitted"
        assert not others, f"other answers: {others[:2]}"
        assert len(refusals) == 800 and all(b"too many clients" in r for r in refusals), refusals[:1]
        assert server.get("/healthz").status == 200
        assert "--max-clients reached" in server.stderr_text(last=20000)
    finally:
        for raw in admitted:
            raw.close()
    # The places are free again once the connections close.
    deadline = time.monotonic() + 10
    while json.loads(server.get("/api/state").body)["viewers"] > 0 and time.monotonic() < deadline:
        time.sleep(0.1)
    still_streaming(server)


def mjpeg_status(server) -> tuple:
    """(status, open socket) of a `GET /stream.mjpg` (the socket stays open: a reader)."""
    sock = socket.create_connection((server.host, server.port), timeout=5)
    sock.sendall(b"GET /stream.mjpg HTTP/1.1\r\nHost: x\r\n\r\n")
    head = b""
    while b"\r\n\r\n" not in head and (chunk := sock.recv(1)):
        head += chunk
    return int(head.split(b" ")[1]), sock


def test_mjpeg_readers_count_against_max_clients(start_server):
    server = start_server("--input", "test:160x120@5", "--max-clients", "3")
    readers = []

    async def scenario():
        async with await Client.connect(server.ws_url()):
            for _ in range(2):
                status, sock = mjpeg_status(server)
                readers.append(sock)
                assert status == 200
            status, sock = mjpeg_status(server)
            sock.close()
            assert status == 503, "a third stream over --max-clients 3"
            raw = RawWebSocket.connect(server.host, server.port)
            raw.close()
            assert raw.status == 503, "a viewer over --max-clients 3"
            assert server.get("/healthz").status == 200 and server.get("/api/state").status == 200
    try:
        run(scenario())
    finally:
        for sock in readers:
            sock.close()


# -- slowloris -----------------------------------------------------------------------------------

SLOWLORIS_BOUND = HTTP_TIMEOUT + 2  # --http-timeout, plus a second of lws' timer's granularity and slack


def test_a_slowloris_client_is_cut_off_within_the_bound(abuse_server):
    """Headers one byte every second never complete: lws closes the connection within
    --http-timeout of its start, however steadily bytes keep coming."""
    request = b"GET /api/state HTTP/1.1\r\nHost: x\r\nX-Slow: " + b"a" * 1000
    start = time.monotonic()
    with socket.create_connection((abuse_server.host, abuse_server.port), timeout=5) as sock:
        sock.settimeout(1.0)
        for byte in request:
            try:
                sock.sendall(bytes([byte]))
                sock.recv(4096)
                break  # an answer or the close: either way the server acted
            except socket.timeout:
                pass  # still open: next byte
            except (BrokenPipeError, ConnectionResetError):
                break
            assert time.monotonic() - start < SLOWLORIS_BOUND + 5, "the slow client was never cut off"
    elapsed = time.monotonic() - start
    assert elapsed < SLOWLORIS_BOUND, f"cut off after {elapsed:.1f} s"
    assert elapsed > HTTP_TIMEOUT - 1, f"cut off after {elapsed:.1f} s: sooner than the timeout should"
    assert abuse_server.get("/healthz").status == 200
