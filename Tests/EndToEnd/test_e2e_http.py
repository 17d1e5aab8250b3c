"""HTTP on the WebSocket port: static files, MIME types, the JSON API, snapshots, MJPEG, health,
and path traversal."""

import http.client
import json
import random
import re
import socket
import threading
import time
from pathlib import Path

import pytest

from fc_client import Client, decode_jpeg, run

STATE_KEYS = {"source", "playing", "position", "duration", "filter", "chain", "viewers", "fps"}


HTTP_TIMEOUT = 4  # --http-timeout of the servers here: the tests of the timeout wait it out


@pytest.fixture(scope="module")
def http_server(filtercast_bin, web_root, tmp_path_factory):
    """One server for the read-only HTTP tests (nothing here changes the session)."""
    from fc_server import TEARDOWN_STOP_SECONDS, ServerProcess
    log = tmp_path_factory.mktemp("http-server") / "filtercast.log"
    server = ServerProcess(filtercast_bin, ["--web", str(web_root), "--input", "test:320x240@30",
                                            "--http-timeout", str(HTTP_TIMEOUT)], str(log)).start()
    yield server
    # Exit 0 without a kill; the bound only tells a stop from a hang (see conftest).
    code, seconds = server.stop(timeout=TEARDOWN_STOP_SECONDS)
    assert code == 0, f"SIGTERM: exit code {code} after {seconds:.2f} s (None: killed)\n{server.stderr_text()}"


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


REAL_WEB = Path(__file__).resolve().parents[2] / "web"
IMPORT = re.compile(r'^import (?:[^"]* from )?"\./([\w.-]+\.js)";$', re.M)


def test_the_page_is_es_modules_the_server_serves_as_javascript(start_server):
    """The real page: index.html loads its script as a module; that module and every module it
    imports, and they import, is served as JavaScript (modules require a JavaScript MIME type)
    under a policy that allows scripts from the page's own origin and nowhere else."""
    server = start_server("--input", "test:160x120@15", web=REAL_WEB)
    entries = []
    # The viewer page and the embed page (/embed, embed.html: the picture alone).
    for path, entry in (("/", "main.js"), ("/embed", "embed.js")):
        page = server.get(path).text()
        found = re.findall(r'<script type="module" src="([\w.-]+\.js)"></script>', page)
        assert found == [entry], (path, found)
        assert "<script src=" not in page, f"a classic script besides the modules in {path}"
        entries += found
    seen, waiting = set(), list(entries)
    while waiting:
        name = waiting.pop()
        if name in seen:
            continue
        seen.add(name)
        response = server.get("/" + name)
        assert response.status == 200, (name, response.status)
        assert response.content_type.split(";")[0].strip() == "text/javascript", (name, response.content_type)
        assert "script-src 'self'" in response.headers.get("content-security-policy", ""), response.headers
        waiting += IMPORT.findall(response.text())
    # Every script in web/ is reached from main.js or embed.js: none is left over.
    assert seen == {file.name for file in REAL_WEB.glob("*.js")}, seen


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
    # regions: the server of the tests has the person matte (v1 addition, absent without it).
    assert set(body) == {"filters", "regions"}
    names = [entry["name"] for entry in body["filters"]]
    assert names[0] == "none" and {"sepia", "pixellate", "comic"} <= set(names)

    async def hello():
        async with await Client.connect(http_server.ws_url()) as client:
            return client.hello
    hello = run(hello())
    assert hello["filters"] == body["filters"], "the catalog differs between hello and /api/filters"
    assert hello["regions"] == body["regions"] == ["all", "person", "background"]


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


def read_mjpeg_parts(server, count: int, seconds: float, path: str = "/stream.mjpg"):
    """Reads `count` JPEG parts from `path` within `seconds`; returns (headers, parts)."""
    deadline = time.monotonic() + seconds
    with socket.create_connection((server.host, server.port), timeout=seconds) as sock:
        sock.sendall(f"GET {path} HTTP/1.1\r\nHost: {server.host}:{server.port}\r\n\r\n".encode())
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


def test_mjpeg_readers_pick_the_nearest_rendition(http_server):
    # The 320x240 source's ladder has JPEG at 320 and 160 wide.
    for width, size in [("160", (160, 120)), ("200", (160, 120)), ("1000", (320, 240))]:
        status, _, parts = read_mjpeg_parts(http_server, 2, 3.0, f"/stream.mjpg?width={width}")
        assert status == 200 and {decode_jpeg(part).size for part in parts} == {size}, (width, status)
    for bad in ["abc", "0", "-5", "99999", "1.5"]:
        response = http_server.get(f"/stream.mjpg?width={bad}", timeout=3)
        assert response.status == 400 and "width must be a whole number of pixels" in response.text(), (bad, response.status)
    assert decode_jpeg(http_server.get("/snapshot.jpg", timeout=3).body).size == (320, 240), "snapshots stay full size"


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


# -- byte ranges (downloads and files) -----------------------------------------------------------

DOWNLOAD = "2026-02-03T04-05-06Z.mp4"
DOWNLOAD_SIZE = 300_000  # several of the server's 32 KB pieces


@pytest.fixture(scope="module")
def range_server(filtercast_bin, web_root, tmp_path_factory):
    """A server whose recordings folder holds one file of known, non-repeating bytes."""
    from fc_server import TEARDOWN_STOP_SECONDS, ServerProcess
    folder = tmp_path_factory.mktemp("range-server")
    (folder / "recordings").mkdir()
    data = bytes(random.Random(7).getrandbits(8) for _ in range(DOWNLOAD_SIZE))
    (folder / "recordings" / DOWNLOAD).write_bytes(data)
    server = ServerProcess(filtercast_bin, ["--web", str(web_root), "--recordings", str(folder / "recordings"),
                                            "--input", "test:160x120@15", "--http-timeout", str(HTTP_TIMEOUT)],
                           str(folder / "filtercast.log")).start()
    server.data = data
    server.folder = folder / "recordings"
    yield server
    server.stop()


def test_a_whole_download_says_it_accepts_ranges(range_server):
    response = range_server.get("/recordings/" + DOWNLOAD)
    assert response.status == 200 and response.content_type == "video/mp4"
    assert response.headers.get("accept-ranges") == "bytes", response.headers
    assert int(response.headers["content-length"]) == DOWNLOAD_SIZE
    assert response.body == range_server.data
    assert "content-range" not in response.headers
    head = range_server.http("HEAD", "/recordings/" + DOWNLOAD)
    assert head.status == 200 and head.body == b""
    assert head.headers.get("accept-ranges") == "bytes"
    assert int(head.headers["content-length"]) == DOWNLOAD_SIZE


@pytest.mark.parametrize("spec, first, last", [
    ("bytes=100-199", 100, 199),
    ("bytes=0-0", 0, 0),
    ("bytes=1000-250000", 1000, 250000),                  # many pieces
    (f"bytes={DOWNLOAD_SIZE - 7}-", DOWNLOAD_SIZE - 7, DOWNLOAD_SIZE - 1),
    ("bytes=-500", DOWNLOAD_SIZE - 500, DOWNLOAD_SIZE - 1),
    ("bytes=299000-999999999", 299000, DOWNLOAD_SIZE - 1),  # the end is clamped to the file
    (f"bytes=-{DOWNLOAD_SIZE * 2}", 0, DOWNLOAD_SIZE - 1),   # a suffix longer than the file
])
def test_a_single_range_is_a_206_with_exactly_those_bytes(range_server, spec, first, last):
    for path in ("/recordings/" + DOWNLOAD, "/api/recordings/" + DOWNLOAD):
        response = range_server.get(path, headers={"Range": spec})
        assert response.status == 206, (path, spec, response.status, response.body[:100])
        assert response.headers["content-range"] == f"bytes {first}-{last}/{DOWNLOAD_SIZE}", response.headers
        assert int(response.headers["content-length"]) == last - first + 1
        assert response.body == range_server.data[first:last + 1], (path, spec)
        assert response.content_type == "video/mp4"


def test_head_with_a_range_has_the_partial_headers_and_no_body(range_server):
    response = range_server.http("HEAD", "/recordings/" + DOWNLOAD, headers={"Range": "bytes=10-19"})
    assert response.status == 206 and response.body == b""
    assert response.headers["content-range"] == f"bytes 10-19/{DOWNLOAD_SIZE}"
    assert int(response.headers["content-length"]) == 10


@pytest.mark.parametrize("spec", [f"bytes={DOWNLOAD_SIZE}-", f"bytes={DOWNLOAD_SIZE + 5}-{DOWNLOAD_SIZE + 9}",
                                  "bytes=-0"])
def test_a_range_past_the_end_is_416(range_server, spec):
    response = range_server.get("/recordings/" + DOWNLOAD, headers={"Range": spec})
    assert response.status == 416, (spec, response.status)
    assert response.headers["content-range"] == f"bytes */{DOWNLOAD_SIZE}"
    assert str(DOWNLOAD_SIZE) in response.text(), response.text()
    assert range_server.get("/healthz").status == 200


@pytest.mark.parametrize("spec", ["bytes=0-9,20-29", "bytes=50-10", "lines=1-2", "bytes=x-"])
def test_several_or_malformed_ranges_get_the_whole_body(range_server, spec):
    response = range_server.get("/recordings/" + DOWNLOAD, headers={"Range": spec})
    assert response.status == 200, (spec, response.status)
    assert response.body == range_server.data


def test_if_range_resumes_only_the_same_file(range_server):
    modified = range_server.get("/recordings/" + DOWNLOAD).headers["last-modified"]
    assert modified.endswith(" GMT"), modified
    same = range_server.get("/recordings/" + DOWNLOAD, headers={"Range": "bytes=5-9", "If-Range": modified})
    assert same.status == 206 and same.body == range_server.data[5:10]
    changed = range_server.get("/recordings/" + DOWNLOAD,
                               headers={"Range": "bytes=5-9", "If-Range": "Thu, 01 Jan 1970 00:00:00 GMT"})
    assert changed.status == 200 and changed.body == range_server.data


def test_ranges_on_one_kept_alive_connection(range_server):
    connection = http.client.HTTPConnection(range_server.host, range_server.port, timeout=5)
    try:
        for first in (0, 65_536, 200_000):
            connection.request("GET", "/recordings/" + DOWNLOAD, headers={"Range": f"bytes={first}-{first + 40_000}"})
            response = connection.getresponse()
            assert response.status == 206
            assert response.read() == range_server.data[first:first + 40_001]
        connection.request("GET", "/healthz")
        assert connection.getresponse().read() == b"ok\n"
    finally:
        connection.close()


def test_page_files_serve_ranges_too(range_server):
    whole = range_server.get("/app.js")
    assert whole.headers.get("accept-ranges") == "bytes"
    part = range_server.get("/app.js", headers={"Range": "bytes=2-5"})
    assert part.status == 206 and part.body == whole.body[2:6]
    assert part.content_type.startswith("text/javascript")


def test_a_growing_file_is_sent_as_it_was_when_opened(range_server):
    """A recording in progress grows while it downloads: the length told is the length sent."""
    growing = range_server.folder / "2026-02-03T05-00-00Z.mp4"
    growing.write_bytes(bytes(8_000_000))
    stop = threading.Event()

    def append():
        with open(growing, "ab") as file:
            while not stop.is_set():
                file.write(b"\x01" * 65_536)
                file.flush()
                time.sleep(0.001)
    writer = threading.Thread(target=append)
    writer.start()
    try:
        for headers in ({}, {"Range": "bytes=1000-"}):
            response = range_server.get("/recordings/" + growing.name, headers=headers, timeout=20)
            assert response.status in (200, 206)
            assert int(response.headers["content-length"]) == len(response.body), headers
            assert len(response.body) >= 8_000_000 - 1000
    finally:
        stop.set()
        writer.join()
        growing.unlink()


def read_slowly(server, path: str, chunk: int, pause: float, stall_after: int | None = None,
                stall: float = 0.0) -> tuple:
    """GET `path` on a raw socket, `chunk` bytes every `pause` s (and, after `stall_after` body
    bytes, nothing for `stall` s); (Content-Length, body bytes received, seconds taken)."""
    started = time.monotonic()
    with socket.create_connection((server.host, server.port), timeout=30) as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 65536)
        sock.sendall(f"GET {path} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
        data = b""
        while b"\r\n\r\n" not in data:
            data += sock.recv(4096)
        head, body = data.split(b"\r\n\r\n", 1)
        length = int(next(line.split(b":", 1)[1] for line in head.split(b"\r\n")
                          if line.lower().startswith(b"content-length")))
        received, stalled = len(body), False
        while received < length:
            if stall_after is not None and received >= stall_after and not stalled:
                time.sleep(stall)
                stalled = True
            piece = sock.recv(chunk)
            if not piece:
                break
            received += len(piece)
            time.sleep(pause)
    return length, received, time.monotonic() - started


def test_a_slow_download_outlasts_the_idle_timeout(range_server):
    """lws ends a response --http-timeout after its request unless told otherwise: a download that
    keeps going is not cut."""
    slow = range_server.folder / "2026-02-03T06-00-00Z.mp4"
    slow.write_bytes(bytes(9_000_000))
    try:
        length, received, seconds = read_slowly(range_server, "/recordings/" + slow.name, 65_536, 0.08 * HTTP_TIMEOUT / 10)
    finally:
        slow.unlink()
    assert seconds > HTTP_TIMEOUT + 1, f"the download took only {seconds:.1f} s: not slow enough to test the timeout"
    assert received == length == 9_000_000, f"cut after {received} of {length} bytes ({seconds:.1f} s)"


def test_a_stalled_download_is_closed(range_server):
    """A reader that takes nothing for the stall time (--http-timeout) is dropped: downloads do not
    count against --max-clients, so time bounds them."""
    stalled = range_server.folder / "2026-02-03T07-00-00Z.mp4"
    stalled.write_bytes(bytes(40_000_000))  # far more than the socket buffers hold
    try:
        length, received, _ = read_slowly(range_server, "/recordings/" + stalled.name, 1 << 20, 0,
                                          stall_after=1_000_000, stall=HTTP_TIMEOUT + 2)
    finally:
        stalled.unlink()
    assert received < length, f"a reader that stalled for {HTTP_TIMEOUT + 2} s still got the whole file"
    assert range_server.get("/healthz").status == 200


def test_mjpeg_outlasts_the_idle_timeout(http_server):
    deadline = time.monotonic() + HTTP_TIMEOUT + 2.5
    late = 0
    with socket.create_connection((http_server.host, http_server.port), timeout=3) as sock:
        sock.sendall(b"GET /stream.mjpg HTTP/1.1\r\nHost: x\r\n\r\n")
        started = time.monotonic()
        while time.monotonic() < deadline:
            piece = sock.recv(65536)
            assert piece, f"the MJPEG stream ended after {time.monotonic() - started:.1f} s"
            if time.monotonic() - started > HTTP_TIMEOUT + 1:
                late += len(piece)
    assert late > 0, f"no MJPEG data after {HTTP_TIMEOUT + 1} s"
