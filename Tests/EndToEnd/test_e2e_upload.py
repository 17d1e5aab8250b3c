"""Uploads (`--uploads DIR`, v1): a controlling client PUTs a video file, which is streamed to a
hidden file, probed, placed under its name and then plays like any library file. Refusals —
not a video, too large, cut short, no token, a path for a name, too many at once — leave
nothing behind in DIR, and the server keeps serving."""

from __future__ import annotations

import json
import os
import socket
import time

import numpy as np
import pytest

from fc_client import Client, run
from fc_server import ServerProcess, make_clip
from test_e2e_recording import wait_state

TOKEN = "up-secret"
BEARER = {"Authorization": f"Bearer {TOKEN}"}
MAX_BYTES = 20_000_000


@pytest.fixture(scope="module")
def uploads(tmp_path_factory, filtercast_bin, web_root):
    """One server for the module, with uploads into its own folder and a token (the size limit
    from the environment, as FILTERCAST_MAX_UPLOAD_SIZE)."""
    folder = tmp_path_factory.mktemp("uploads")
    (folder / "up").mkdir()
    (folder / "up" / ".upload-stale.part").write_bytes(b"left by a crash")
    server = ServerProcess(filtercast_bin, ["--web", str(web_root), "--recordings", str(folder / "rec"),
                                            "--input", "test:320x240@30", "--token", TOKEN,
                                            "--uploads", str(folder / "up")],
                           str(folder / "server.log"), env={"FILTERCAST_MAX_UPLOAD_SIZE": str(MAX_BYTES)}).start()
    server.folder = folder / "up"
    server.red = make_clip(folder / "red.mp4", "color=c=0xc8281e:size=320x240:rate=25", 3, "-g", "25")
    yield server
    code, _ = server.stop()
    assert code == 0, server.stderr_text()


def put(server, name: str, body: bytes, headers: dict | None = None):
    return server.http("PUT", f"/api/uploads/{name}", headers={**BEARER, **(headers or {})}, body=body, timeout=30)


def leftovers(server) -> list:
    return sorted(os.listdir(server.folder))


def hidden(server) -> list:
    return [name for name in leftovers(server) if name.startswith(".upload-")]


def wait_until(condition, what: str, timeout: float = 10.0):
    """Polls `condition` until it holds: how soon the server gets to a connection is the machine's,
    not the property (a server that never does still fails, at the deadline)."""
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, f"not within {timeout} s: {what}"
        time.sleep(0.05)


def raw_put(server, name: str, length: int, body: bytes, extra: str = "") -> socket.socket:
    sock = socket.create_connection((server.host, server.port), timeout=5)
    sock.sendall(f"PUT /api/uploads/{name} HTTP/1.1\r\nHost: {server.host}:{server.port}\r\n"
                 f"Authorization: Bearer {TOKEN}\r\nContent-Length: {length}\r\n{extra}\r\n".encode() + body)
    return sock


def test_an_uploaded_clip_is_listed_and_plays(uploads):
    assert leftovers(uploads) == [], "stale temporary files are removed at start"
    answer = put(uploads, "red%20clip.mp4", uploads.red.read_bytes())
    assert answer.status == 201, answer.text()
    stored = json.loads(answer.body)
    assert stored["source"] == "uploads/red clip.mp4" and stored["name"] == "red clip.mp4", stored
    assert (stored["width"], stored["height"], stored["size"]) == (320, 240, uploads.red.stat().st_size)
    assert abs(stored["duration"] - 3) < 0.2, stored
    again = json.loads(put(uploads, "red%20clip.mp4", uploads.red.read_bytes()).body)
    assert again["name"] == "red clip-1.mp4", "an existing name is never overwritten"
    # A client that waits for 100 Continue (curl, for bodies over 1 MB) gets it, then the answer.
    body = uploads.red.read_bytes()
    with raw_put(uploads, "continued.mp4", len(body), b"", extra="Expect: 100-continue\r\n") as sock:
        assert sock.recv(100) == b"HTTP/1.1 100 Continue\r\n\r\n"
        sock.sendall(body)
        assert sock.recv(200).startswith(b"HTTP/1.1 201")
    (uploads.folder / "continued.mp4").unlink()
    listing = json.loads(uploads.get("/api/uploads", headers=BEARER).body)["uploads"]
    assert sorted(entry["name"] for entry in listing) == ["red clip-1.mp4", "red clip.mp4"], listing
    assert uploads.get("/api/uploads").status == 401

    async def scenario():
        async with await Client.connect(uploads.ws_url(token=TOKEN)) as client:
            await client.ok({"type": "open", "source": stored["source"]})
            await wait_state(client, lambda s: s["source"]["name"].endswith("red clip.mp4"), "the upload plays")
            client.drop_frames()
            frames = await client.frames(5, timeout=10)
            await client.ok({"type": "delete", "source": "uploads/red clip-1.mp4"})
            return client.hello, frames

    hello, frames = run(scenario(), timeout=40)
    assert hello["uploads"] == {"maxBytes": MAX_BYTES}, hello.get("uploads")
    rgb = frames[-1].rgb().astype(np.float64)
    assert rgb[..., 0].mean() - rgb[..., 2].mean() > 100, "the frames come from the uploaded red clip"
    assert leftovers(uploads) == ["red clip.mp4"]


def test_refused_uploads_leave_nothing_behind(uploads):
    before = leftovers(uploads)
    text = put(uploads, "notes.mp4", b"this is not a video\n" * 100)
    assert text.status == 415 and "'notes.mp4': not a video file" in text.text(), text.text()
    assert "/" not in text.text().split(":")[0], "the temporary path is not shown"
    big = raw_put(uploads, "big.mp4", MAX_BYTES + 1, b"")
    assert big.recv(200).startswith(b"HTTP/1.1 413"), "refused by Content-Length, before any body"
    big.close()
    nobody = uploads.http("PUT", "/api/uploads/x.mp4", body=b"1234")
    assert nobody.status == 401 and nobody.headers["www-authenticate"].startswith("Bearer"), nobody.text()
    for name, why in [("a%2Fb.mp4", "a name, not a path"), (".hidden.mp4", "hidden names"),
                      ("notes.txt", "video extension"), ("x" * 200 + ".mp4", "longer than 120 bytes")]:
        answer = put(uploads, name, b"1234")
        assert answer.status == 400 and why in answer.text(), (name, answer.text())
    foreign = put(uploads, "f.mp4", b"1234", headers={"Origin": "http://evil.example"})
    assert foreign.status == 403, foreign.text()
    # Cut short: the client closes mid-body.
    cut = raw_put(uploads, "cut.mp4", 1_000_000, b"\0" * 1000)
    wait_until(lambda: hidden(uploads), "the body streams to a hidden file")
    cut.close()
    wait_until(lambda: leftovers(uploads) == before, f"the cut upload's file removed: {leftovers(uploads)}")
    metrics = uploads.get("/metrics", headers=BEARER).text()
    assert 'filtercast_uploads_total{result="not_video"} 1' in metrics and 'result="cut_short"} 1' in metrics, metrics


def test_two_uploads_at_once_and_no_more(uploads):
    first, second = (raw_put(uploads, f"slow-{n}.mp4", 1000, b"\0" * 10) for n in (1, 2))
    # The server makes an upload's hidden file as it admits it, and removes it only after letting
    # the upload go: two files = two under way, none = room again.
    wait_until(lambda: len(hidden(uploads)) == 2, "both slow uploads admitted")
    third = put(uploads, "third.mp4", uploads.red.read_bytes())
    assert third.status == 503 and "2 uploads are under way" in third.text(), third.text()
    first.close()
    second.close()
    wait_until(lambda: not hidden(uploads), "both closed uploads let go")
    assert put(uploads, "third.mp4", uploads.red.read_bytes()).status == 201, "room again once they end"
    assert not any(name.startswith(".") for name in leftovers(uploads))


def test_an_upload_that_would_fill_the_disk_is_refused_up_front(start_server, tmp_path):
    # No disk has a petabyte free: every upload would leave less than --min-free-space.
    server = start_server("--input", "test:160x120@30", "--uploads", str(tmp_path / "up"), "--min-free-space", "900T")
    answer = server.http("PUT", "/api/uploads/a.mp4", body=b"\0" * 1000)
    assert answer.status == 413 and "free disk" in answer.text() and "--min-free-space" in answer.text(), answer.text()
    assert not (tmp_path / "up").exists(), "nothing is left behind, not even the folder"
