"""HTTP on the WebSocket port: static files, MIME types, the JSON API, snapshots, MJPEG, health,
and path traversal."""

import http.client
import json
import socket
import time

import pytest

from fc_client import Client, decode_jpeg, run

STATE_KEYS = {"source", "playing", "position", "duration", "filter", "chain", "viewers", "fps"}


@pytest.fixture(scope="module")
def http_server(filtercast_bin, web_root, tmp_path_factory):
    """One server for the read-only HTTP tests (nothing here changes the session)."""
    from fc_server import ServerProcess
    log = tmp_path_factory.mktemp("http-server") / "filtercast.log"
    server = ServerProcess(filtercast_bin, ["--web", str(web_root), "--input", "test:320x240@30"], str(log)).start()
    yield server
    code, seconds = server.stop()
    assert code == 0 and seconds <= 2.0, f"SIGTERM: exit code {code} after {seconds:.2f} s\n{server.stderr_text()}"


@pytest.mark.parametrize("path, mime, marker", [
    ("/", "text/html", "E2E-INDEX"),
    ("/index.html", "text/html", "E2E-INDEX"),
    ("/app.js", "text/javascript", "E2E-APP"),
    ("/style.css", "text/css", "E2E-STYLE"),
    ("/sub/", "text/html", "E2E-SUB-INDEX"),
    ("/sub/notes.txt", "text/plain", "E2E-SUB-NOTES"),
    ("/app.js?v=123", "text/javascript", "E2E-APP"),
    ("/inside-link.css", "text/css", "E2E-STYLE"),
])
def test_static_files_with_their_mime_types(http_server, path, mime, marker):
    response = http_server.get(path)
    assert response.status == 200, (path, response.status, response.body[:200])
    assert response.content_type.split(";")[0].strip() == mime, (path, response.content_type)
    assert marker in response.text()


def test_head_of_a_static_file(http_server):
    response = http_server.http("HEAD", "/app.js")
    assert response.status == 200
    assert response.content_type.startswith("text/javascript")
    assert response.body == b""


def test_api_state_is_the_state_object(http_server):
    response = http_server.get("/api/state")
    assert response.status == 200
    assert response.content_type.startswith("application/json")
    state = json.loads(response.body)
    assert STATE_KEYS <= set(state), state
    assert state["source"]["width"] == 320 and state["source"]["kind"] == "test"
    assert state["duration"] is None
    # PROTOCOL.md: "The same object (without "type") is … the body of GET /api/state".
    assert "type" not in state, f'/api/state carries "type": {state.get("type")!r}'


def test_api_filters_is_the_catalog(http_server):
    response = http_server.get("/api/filters")
    assert response.status == 200
    assert response.content_type.startswith("application/json")
    body = json.loads(response.body)
    assert set(body) == {"filters"}
    names = [entry["name"] for entry in body["filters"]]
    assert names[0] == "none" and {"sepia", "pixellate", "comic"} <= set(names)

    async def hello():
        async with await Client.connect(http_server.ws_url()) as client:
            return client.hello
    assert run(hello())["filters"] == body["filters"], "the catalog differs between hello and /api/filters"


def test_healthz(http_server):
    response = http_server.get("/healthz")
    assert response.status == 200
    assert response.text().strip() == "ok"


def test_snapshot_without_any_viewer(http_server):
    deadline = time.monotonic() + 2
    while json.loads(http_server.get("/api/state").body)["viewers"] != 0:
        assert time.monotonic() < deadline, "a viewer of an earlier test is still counted"
        time.sleep(0.05)
    started = time.monotonic()
    response = http_server.get("/snapshot.jpg", timeout=3)
    assert time.monotonic() - started < 2.0
    assert response.status == 200
    assert response.content_type == "image/jpeg"
    image = decode_jpeg(response.body)
    assert image.size == (320, 240)


def test_snapshot_while_paused_and_nobody_watches(start_server, sample_clip):
    server = start_server("--input", str(sample_clip))

    async def pause_and_leave():
        async with await Client.connect(server.ws_url()) as client:
            await client.ok({"type": "pause"})
            await client.ok({"type": "seek", "position": 1.0})
            await client.next_frame(where=lambda f: f.pts_us == 1_000_000, timeout=2)
    run(pause_and_leave())
    time.sleep(0.2)
    response = server.get("/snapshot.jpg", timeout=3)
    assert response.status == 200, (response.status, response.body[:200])
    assert decode_jpeg(response.body).size == (320, 240)


def read_mjpeg_parts(server, count: int, seconds: float):
    """Reads `count` JPEG parts from /stream.mjpg within `seconds`; returns (headers, parts)."""
    deadline = time.monotonic() + seconds
    with socket.create_connection((server.host, server.port), timeout=seconds) as sock:
        sock.sendall(f"GET /stream.mjpg HTTP/1.1\r\nHost: {server.host}:{server.port}\r\n\r\n".encode())
        data = b""
        while b"\r\n\r\n" not in data:
            chunk = sock.recv(65536)
            assert chunk, "connection closed before the headers"
            data += chunk
        head, data = data.split(b"\r\n\r\n", 1)
        headers = {}
        for line in head.decode("latin-1").split("\r\n")[1:]:
            name, _, value = line.partition(":")
            headers[name.strip().lower()] = value.strip()
        status = int(head.split(b" ", 2)[1])
        boundary = headers.get("content-type", "").split("boundary=")[-1].strip('"')
        parts = []
        while len(parts) < count:
            if time.monotonic() > deadline:
                raise AssertionError(f"only {len(parts)} MJPEG parts in {seconds} s")
            # A part: --boundary CRLF headers CRLF CRLF body(Content-Length) CRLF
            marker = f"--{boundary}".encode()
            start = data.find(marker)
            end_of_head = data.find(b"\r\n\r\n", start)
            if start >= 0 and end_of_head >= 0:
                part_head = data[start:end_of_head].decode("latin-1")
                length = int(next(line.split(":", 1)[1] for line in part_head.split("\r\n")
                                  if line.lower().startswith("content-length")))
                body_start = end_of_head + 4
                if len(data) >= body_start + length:
                    parts.append(data[body_start:body_start + length])
                    data = data[body_start + length:]
                    continue
            sock.settimeout(max(0.05, deadline - time.monotonic()))
            chunk = sock.recv(65536)
            assert chunk, "MJPEG stream closed"
            data += chunk
        return status, headers, parts


def test_mjpeg_stream(http_server):
    status, headers, parts = read_mjpeg_parts(http_server, 3, 2.0)
    assert status == 200
    assert headers["content-type"].startswith("multipart/x-mixed-replace"), headers
    assert "boundary=" in headers["content-type"]
    for part in parts:
        image = decode_jpeg(part)
        assert image.size == (320, 240)
    assert len({bytes(p) for p in parts}) == 3, "the same frame was sent twice"


TRAVERSALS = [
    "/../etc/passwd",
    "/%2e%2e/etc/passwd",
    "/..%2fetc/passwd",
    "/%2e%2e%2fetc%2fpasswd",
    "/sub/../../etc/passwd",
    "/sub/%2e%2e/%2e%2e/etc/passwd",
    "/..%5c..%5cetc/passwd",
    "//etc/passwd",
    "/.%2e/.%2e/etc/passwd",
    "/%252e%252e/etc/passwd",
    "/leak.txt",
    "/leakdir/secret.txt",
    "/.secret",
    "/%2esecret",
    "/sub/../.secret",
    "/index.html%00.txt",
]


@pytest.mark.parametrize("path", TRAVERSALS)
def test_traversal_attempts_are_refused(http_server, web_root, path):
    try:
        response = http_server.get(path)
    except http.client.RemoteDisconnected:
        # lws drops a request whose URL decodes to a NUL byte without answering: refused too.
        assert "%00" in path, f"{path}: the server closed the connection without an answer"
        return
    assert response.status in (400, 403, 404), (path, response.status, response.body[:200])
    assert web_root.secret not in response.text(), f"{path} leaked a file outside the root"
    assert "root:" not in response.text(), f"{path} leaked /etc/passwd"


def test_traversal_with_a_raw_request_line(http_server, web_root):
    # Not normalised by any client library: exactly these bytes go to the server.
    for target in [b"/../../../../etc/passwd", b"/leakdir/../leakdir/secret.txt", b"../etc/passwd",
                   b"/sub/..%2f..%2f..%2fetc/passwd"]:
        answer = http_server.raw_request(b"GET " + target + b" HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
                                         timeout=3)
        assert b"root:" not in answer and web_root.secret.encode() not in answer, (target, answer[:300])
        if answer:
            status = int(answer.split(b" ", 2)[1])
            assert status in (400, 403, 404), (target, answer[:300])


def test_a_missing_file_is_404(http_server):
    assert http_server.get("/nope.html").status == 404
    assert http_server.get("/sub/nope/").status == 404


@pytest.mark.parametrize("method", ["POST", "PUT", "DELETE"])
def test_other_methods_are_405(http_server, method):
    response = http_server.http(method, "/api/state", body=b"{}")
    assert response.status == 405, (method, response.status)
    response = http_server.http(method, "/index.html", body=b"x")
    assert response.status == 405, (method, response.status)


def test_ws_over_plain_get_is_426(http_server):
    response = http_server.get("/ws")
    assert response.status == 426


def test_the_server_still_answers_after_all_that(http_server):
    assert http_server.running
    assert http_server.get("/healthz").status == 200
