"""The seek bar's thumbnails (issue 39, item 4), what only a real server shows: `GET
/api/thumbnails` of a channel playing a file answers 202 while its sprite is made in the
background, then 200 with the layout; the sprite is one JPEG of the layout's size, kept in the data
folder; a channel playing the test pattern has none (404). The layout's rules and the cache's are
the Swift tests'."""

from __future__ import annotations

import io
import json
import time

from PIL import Image


def test_thumbnails_of_a_file_are_made_then_served_and_a_live_source_has_none(start_server, sample_clip, tmp_path):
    server = start_server("--input", str(sample_clip), "--channel", "live=test:320x240@30")
    first = server.get("/api/thumbnails")
    assert first.status == 202 and first.headers.get("retry-after") == "1", (first.status, first.text())
    deadline = time.monotonic() + 60
    answer = first
    while answer.status == 202 and time.monotonic() < deadline:
        time.sleep(0.1)
        answer = server.get("/api/thumbnails?channel=main")
    assert answer.status == 200 and answer.content_type == "application/json", (answer.status, answer.text())
    listing = json.loads(answer.body)
    # 4 s at 320x240: one thumbnail every 2 s, 160 px wide.
    assert (listing["width"], listing["height"], listing["columns"], listing["times"]) == (160, 120, 2, [0, 2])
    sprite = server.get(listing["sprite"])
    assert sprite.status == 200 and sprite.content_type == "image/jpeg"
    picture = Image.open(io.BytesIO(sprite.body))
    assert picture.format == "JPEG" and picture.size == (320, 120)
    picture.load()
    assert list((tmp_path / "thumbnails").glob("*.jpg")), "kept in the data folder"

    live = server.get("/api/thumbnails?channel=live")
    assert live.status == 404 and "live source" in live.text()
    assert server.get(listing["sprite"].replace("channel=main", "channel=live")).status == 404, "not another channel's"
