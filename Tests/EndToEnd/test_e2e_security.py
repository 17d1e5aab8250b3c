"""Security review points of docs/SECURITY.md not covered elsewhere: the response headers of every
endpoint, and the default bind address."""

import socket
import time

import pytest

from fc_client import Client, run

RECORDING = "2026-01-01T00-00-00Z.mp4"


@pytest.fixture(scope="module")
def headers_server(filtercast_bin, web_root, tmp_path_factory):
    from fc_server import ServerProcess
    folder = tmp_path_factory.mktemp("headers-server")
    (folder / "recordings").mkdir()
    (folder / "recordings" / RECORDING).write_bytes(b"\0\0\0\x18ftypisom" + bytes(100))
    (web_root / "embed.html").write_text("<!doctype html><title>embed</title>\n")
    server = ServerProcess(filtercast_bin, ["--web", str(web_root), "--recordings", str(folder / "recordings"),
                                            "--input", "test:160x120@15"], str(folder / "filtercast.log")).start()
    yield server
    server.stop()


def response_head(server, method: str, path: str, body: bytes = b"") -> tuple:
    """(status, {header: value}) of a raw request; reads only the head (MJPEG never ends)."""
    request = f"{method} {path} HTTP/1.1\r\nHost: {server.host}:{server.port}\r\nConnection: close\r\n"
    request += f"Content-Length: {len(body)}\r\n\r\n" if body else "\r\n"
    with socket.create_connection((server.host, server.port), timeout=5) as sock:
        sock.sendall(request.encode() + body)
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = sock.recv(4096)
            assert chunk, f"{method} {path}: closed without an answer: {head!r}"
            head += chunk
    lines = head.split(b"\r\n\r\n", 1)[0].decode("latin-1").split("\r\n")
    headers = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    return int(lines[0].split(" ")[1]), headers


ENDPOINTS = [
    ("GET", "/", 200), ("GET", "/index.html", 200), ("GET", "/app.js", 200), ("GET", "/style.css", 200),
    ("HEAD", "/app.js", 200), ("GET", "/api/state", 200), ("GET", "/api/filters", 200),
    ("GET", "/api/recordings", 200), ("GET", "/metrics", 200), ("GET", "/healthz", 200),
    ("GET", "/snapshot.jpg", 200), ("GET", "/stream.mjpg", 200), ("GET", f"/recordings/{RECORDING}", 200),
    ("GET", f"/api/recordings/{RECORDING}", 200), ("GET", "/recordings/missing.mp4", 404),
    ("GET", "/recordings/.hidden.mp4", 403), ("GET", "/nope.html", 404), ("GET", "/api/nope", 404),
    ("POST", "/api/state", 405), ("DELETE", "/recordings/" + RECORDING, 405), ("GET", "/ws", 426),
]


@pytest.mark.parametrize("method, path, code", ENDPOINTS, ids=[f"{m} {p}" for m, p, _ in ENDPOINTS])
def test_every_answer_carries_the_security_headers(headers_server, method, path, code):
    status, headers = response_head(headers_server, method, path, b"{}" if method == "POST" else b"")
    assert status == code, (method, path, status)
    policy = headers.get("content-security-policy", "")
    assert "script-src 'self'" in policy and "unsafe-inline" not in policy and "unsafe-eval" not in policy, policy
    assert "default-src 'none'" in policy and "frame-ancestors 'none'" in policy, policy
    assert headers.get("x-content-type-options") == "nosniff", headers
    assert headers.get("referrer-policy") == "no-referrer", headers
    assert headers.get("x-frame-options") == "deny", headers
    assert headers.get("cache-control") == "no-store", headers


@pytest.mark.parametrize("path", ["/embed", "/embed.html", "/embed?channel=main"])
def test_the_embed_page_alone_may_be_framed_by_any_site(headers_server, path):
    """Issue 37.16: /embed is for <iframe>s of other sites (and OBS); lws' own security option
    sent frame-ancestors 'none' and X-Frame-Options: deny to it as to every answer."""
    status, headers = response_head(headers_server, "GET", path, b"")
    assert status == 200, (path, status)
    policy = headers.get("content-security-policy", "")
    assert "frame-ancestors *" in policy and "script-src 'self'" in policy and "default-src 'none'" in policy, policy
    assert "x-frame-options" not in headers, headers
    assert headers.get("x-content-type-options") == "nosniff", headers


def test_the_server_binds_to_loopback_by_default(start_server):
    server = start_server("--input", "test:160x120@15")  # no --host
    assert server.host == "127.0.0.1", server.stdout_lines
    # The machine's own non-loopback address (the one a route out would use) does not answer.
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))  # TEST-NET-1: no packet is sent for a UDP connect
            own = probe.getsockname()[0]
        except OSError:
            own = None
    if own and not own.startswith("127."):
        with pytest.raises(OSError):
            socket.create_connection((own, server.port), timeout=2).close()

    async def scenario():
        async with await Client.connect(server.ws_url()) as client:
            await client.next_frame(timeout=5)
    run(scenario())


def test_request_headers_over_4_kib_are_refused_at_once(headers_server):
    """lws keeps at most its header buffer (4 KiB by default) per request: a larger header block
    ends the connection without an answer, and the server goes on."""
    for size in (5_000, 1_000_000):
        start = time.monotonic()
        try:
            answer = headers_server.raw_request(b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * size
                                                + b"\r\n\r\n", timeout=5)
        except (BrokenPipeError, ConnectionResetError):
            answer = b""  # closed while the rest was still being sent
        assert answer == b"" and time.monotonic() - start < 3, (size, answer[:100])
    assert headers_server.get("/healthz").status == 200
