"""Comments with drawings pinned to a frame (issue 40, item 4) against a real server with named
clients: the author rules, the comments kept across a restart and a kill -9 right after the ack,
identity by content (two files with one name do not share them; a copy does), a recording's
comments deleted with it, the limits, the
CSV and EDL exports (the EDL read back by a parser here), and the snapshot with the drawing
burned in. The parser's edges are the Swift tests' (CommentProtocolTests, ServerCoreTests+Comments)."""

from __future__ import annotations

import csv
import io
import json
import re
import shutil
import time

import numpy as np

from fc_client import Client, decode_jpeg, run
from fc_server import make_clip

ADMIN = "b0ss-T0ken"
# A red rectangle's outline, 0.02 of the width thick, and an arrow.
RECT = {"kind": "rect", "points": [[0.25, 0.25], [0.75, 0.75]], "color": "#ff0000", "width": 0.02}
ARROW = {"kind": "arrow", "points": [[0.1, 0.9], [0.4, 0.6]], "color": "#00ff00", "width": 0.01}


def read_edl(text: str) -> list[dict]:
    """The events of a CMX 3600 EDL of markers: number, the four timecodes, and the marker's
    fields (`|C:` colour, `|M:` note, `|D:` length in frames) from the line after each event."""
    lines = text.splitlines()
    assert lines[0].startswith("TITLE: ") and lines[1] == "FCM: NON-DROP FRAME", lines[:2]
    event = re.compile(r"^(\d{3})  (\S+)\s+V\s+C\s+(\d\d:\d\d:\d\d:\d\d) (\d\d:\d\d:\d\d:\d\d) (\d\d:\d\d:\d\d:\d\d) (\d\d:\d\d:\d\d:\d\d)\s*$")
    events = []
    for index, line in enumerate(lines):
        match = event.match(line)
        if not match:
            continue
        marker = dict(re.findall(r"\|([CMD]):(.*?)(?= \||$)", lines[index + 1]))
        events.append({"number": int(match[1]), "in": match[3], "out": match[4], "record_in": match[5], "record_out": match[6],
                       "color": marker["C"], "note": marker["M"], "frames": int(marker["D"])})
    return events


def frames_of(timecode: str, fps: int = 25) -> int:
    hours, minutes, seconds, frames = (int(part) for part in timecode.split(":"))
    return ((hours * 60 + minutes) * 60 + seconds) * fps + frames


def picture(server, comment_id: str, deadline: float = 20.0):
    """The comment's snapshot: drawn off the network thread, 503 until it is there."""
    end = time.monotonic() + deadline
    while True:
        answer = server.get(f"/snapshot.jpg?comment={comment_id}")
        if answer.status != 503 or time.monotonic() > end:
            assert answer.status == 200, (answer.status, answer.text())
            return np.asarray(decode_jpeg(answer.body).convert("RGB")).astype(int)
        time.sleep(0.2)


def test_comments_belong_to_their_author_and_their_source_and_survive_a_crash(start_server, sample_clip, tmp_path):
    media = tmp_path / "media"
    for folder in ("a", "b"):
        (media / folder).mkdir(parents=True)
    shutil.copy(sample_clip, media / "a" / "clip.mp4")  # the same content: the same comments
    make_clip(media / "b" / "clip.mp4", "testsrc=size=320x240:rate=25", 2, "-g", "25")  # the same name, another file
    (tmp_path / "recordings").mkdir()
    make_clip(tmp_path / "recordings" / "take.mp4", "testsrc=size=160x120:rate=25", 1, "-g", "25")
    args = ("--input", str(sample_clip), "--media-dir", str(media), "--admin-token", ADMIN)
    server = start_server(*args)
    ids = {}

    async def scenario():
        ana = await Client.connect(server.ws_url(name="Ana"))
        bob = await Client.connect(server.ws_url(name="Bob"))
        admin = await Client.connect(server.ws_url(name="Cy", token=ADMIN))
        try:
            first = await bob.next_json("comments", timeout=5)
            assert first["comments"] == [] and first["source"] == sample_clip.name
            await ana.ok({"type": "setFilter", "name": "sepia"})
            await ana.ok({"type": "comment", "action": "add", "frame": 25, "text": "warmer here", "drawing": [RECT, ARROW]})
            added = (await bob.next_json("comments", where=lambda m: "changed" in m, timeout=5))["changed"]
            assert added["author"]["name"] == "Ana" and added["frame"] == 25 and added["position"] == 1.0
            assert [link["name"] for link in added["chain"]] == ["sepia"] and added["at"].endswith("Z")
            ids["rect"] = added["id"]
            for command in ({"action": "edit", "text": "mine"}, {"action": "resolve"}, {"action": "delete"}):
                refused = await bob.command({"type": "comment", "comment": added["id"], **command})
                assert refused["code"] == "unauthorized" and "Ana" in refused["message"], refused
            await ana.ok({"type": "comment", "action": "edit", "comment": added["id"], "text": "warmer, please"})
            await admin.ok({"type": "comment", "action": "resolve", "comment": added["id"]})
            changed = await bob.next_json("comments", where=lambda m: m.get("changed", {}).get("resolved"), timeout=5)
            assert changed["changed"]["text"] == "warmer, please"
            refused = await ana.command({"type": "comment", "action": "add", "frame": 1, "text": "x" * 2001})
            assert refused["code"] == "invalid_argument" and "comment.text" in refused["message"]
            refused = await ana.command({"type": "comment", "action": "add", "frame": 1, "drawing": [dict(RECT, width=0.2)]})
            assert refused["code"] == "invalid_argument" and "comment.drawing[0].width" in refused["message"]
            await bob.ok({"type": "comment", "action": "add", "position": 2, "duration": 1, "text": "a range, \"quoted\""})
            # The last one is acknowledged, then the server dies at once: it is on disk already.
            reply = await bob.ok({"type": "comment", "action": "add", "frame": 75, "text": "kept through a crash"})
            assert reply["type"] == "ack"
            server.kill()
        finally:
            for client in (ana, bob, admin):
                await client.close()
    run(scenario(), timeout=40)

    again = start_server(*args)
    listed = json.loads(again.get("/api/comments").body)
    assert [c["text"] for c in listed["comments"]] == ["warmer, please", "a range, \"quoted\"", "kept through a crash"], listed
    assert listed["comments"][0]["resolved"] is True and listed["comments"][0]["drawing"] == [RECT, ARROW]

    table = list(csv.DictReader(io.StringIO(again.get("/api/comments?format=csv").text())))
    assert [row["text"] for row in table] == [c["text"] for c in listed["comments"]]
    assert table[0]["author"] == "Ana" and table[0]["frame"] == "25" and table[0]["chain"] == "sepia" and table[0]["shapes"] == "2"
    events = read_edl(again.get("/api/comments?format=edl").text())
    assert [e["number"] for e in events] == [1, 2, 3]
    assert [frames_of(e["in"]) for e in events] == [25, 50, 75] and all(e["in"] == e["record_in"] for e in events)
    assert [e["frames"] for e in events] == [1, 25, 1] and frames_of(events[1]["out"]) == 75
    assert events[0]["note"] == "Ana: warmer, please" and events[0]["color"] == "ResolveColorGreen"
    assert events[1]["color"] == "ResolveColorBlue" and events[1]["note"].startswith("Bob: a range")

    # The snapshot: frame 25 of the file, sepia, the red outline and the green arrow burned in.
    rgb = picture(again, ids["rect"])
    assert rgb.shape == (240, 320, 3)
    red = rgb[120, 80]  # on the rectangle's left side (x = 0.25)
    assert red[0] > 180 and red[1] < 90 and red[2] < 90, red
    inside = rgb[100:140, 120:200].reshape(-1, 3).mean(axis=0)
    assert not (inside[0] > 180 and inside[1] < 90), "only the outline is drawn"
    assert inside[0] > inside[2], "the comment's chain (sepia) is applied"
    arrow = rgb[int(0.75 * 240), int(0.25 * 320)]  # the arrow's middle
    assert arrow[1] > 150 and arrow[0] < 120, arrow

    async def identity():
        viewer = await Client.connect(again.ws_url(name="Dee"))
        try:
            await viewer.next_json("comments", timeout=5)
            await viewer.ok({"type": "open", "source": "media/b/clip.mp4"})
            other = await viewer.next_json("comments", where=lambda m: "comments" in m, timeout=5)
            assert other["source"] == "media/b/clip.mp4" and other["comments"] == [], "another file of the same name"
            await viewer.ok({"type": "open", "source": "media/a/clip.mp4"})
            copy = await viewer.next_json("comments", where=lambda m: "comments" in m, timeout=5)
            assert len(copy["comments"]) == 3, "a copy of the file has its comments"
            # A recording's comments go with it.
            await viewer.ok({"type": "open", "source": "recordings/take.mp4"})
            await viewer.next_json("comments", where=lambda m: m.get("source") == "recordings/take.mp4", timeout=5)
            await viewer.ok({"type": "comment", "action": "add", "frame": 3, "text": "on the take"})
            assert len(list((tmp_path / "comments").glob("*.json"))) == 2
            await viewer.ok({"type": "delete", "source": "recordings/take.mp4"})
            assert len(list((tmp_path / "comments").glob("*.json"))) == 1, "the recording's went with it"
        finally:
            await viewer.close()
    run(identity(), timeout=30)
