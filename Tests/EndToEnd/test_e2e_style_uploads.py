"""Style from your own picture (issue 27, item 2): `PUT /api/styles/NAME` (control; JPEG or PNG,
checked and its style code computed before it is kept), `GET /api/styles`, thumbnails, `DELETE`;
the picture a choice of `style` for every viewer at once (the `catalog` message) that paints the
frame its own way; bad pictures refused naming why; the folder read again at a restart."""

from __future__ import annotations

import io
import json
import subprocess
import time

import numpy as np
from PIL import Image

from fc_client import Uploads, run
from fc_server import child_environment

TOKEN = "style-secret"
BEARER = {"Authorization": f"Bearer {TOKEN}"}
STARRY = "/usr/share/doc/opencv-doc/examples/data/starry_night.jpg"


def style_choices(filters) -> list:
    style = next(entry for entry in filters if entry["name"] == "style")
    return [choice["id"] for choice in style["params"][0]["choices"]]


async def settled(viewer, state_says):
    """The paused picture once the state says `state_says` and the re-render (then its finer
    re-encode) came: the last frame of the second after the first flagged one."""
    await viewer.next_json("state", where=state_says, timeout=60)
    first = await viewer.next_frame(timeout=60, where=lambda f: f.state_changed)
    frames = [item for item in await viewer.collect(1.5) if not isinstance(item, dict)]
    return (frames or [first])[-1]


async def settled_unlike(viewer, state_says, unlike, timeout: float = 60.0):
    """`settled`, then, while its luma is still within 4 of `unlike`'s on average (a loaded machine
    paints a new style's picture later, and the paused picture is drawn again then), the next
    frames, up to `timeout` s."""
    frame = await settled(viewer, state_says)
    deadline = time.monotonic() + timeout
    while np.abs(frame.luma().astype(float) - unlike.luma().astype(float)).mean() <= 4 \
            and (remaining := deadline - time.monotonic()) > 0:
        frame = await viewer.next_frame(timeout=remaining)
    return frame


def test_a_picture_uploaded_is_a_style_for_everybody(start_server, tmp_path, sample_clip):
    folder = tmp_path / "styles"
    server = start_server("--input", str(sample_clip), "--styles", str(folder), "--token", TOKEN, "--public-view")
    starry = open(STARRY, "rb").read()
    png = subprocess.run(["ffmpeg", "-v", "error", "-i", STARRY, "-vf", "scale=200:-2", "-f", "image2pipe", "-c:v", "png", "-"],
                         capture_output=True, check=True).stdout

    async def scenario():
        async with Uploads(server, "/api/styles", TOKEN) as uploads:
            viewer, controller, put = uploads.viewer, uploads.controller, uploads.put
            stored, catalog = await uploads.stored("starry", starry)
            await controller.ok({"type": "pause"})
            await controller.ok({"type": "setFilter", "name": "none"})
            plain = await settled(viewer, lambda s: s["chain"] == [] or s["chain"][0]["name"] == "none")
            await controller.ok({"type": "setFilter", "name": "style", "params": {"style": "style-1", "detail": 0}})
            shipped = await settled(viewer, lambda s: s["chain"] and s["chain"][0].get("choices") == {"style": "style-1"})
            await controller.ok({"type": "setParams", "params": {"style": "starry"}})
            painted = await settled_unlike(viewer, lambda s: s["chain"][0].get("choices") == {"style": "starry"}, shipped)
            refusals = [put("bad", b"GIF89a not a picture"), put("starry", starry), put("style-3", starry),
                        put("cut", starry[:2000]), put("small", png)]
            in_use = server.http("DELETE", "/api/styles/starry", headers=BEARER)
            deleted = server.http("DELETE", "/api/styles/small", headers=BEARER)
            after = await viewer.next_json("catalog", where=lambda c: "small" not in style_choices(c["filters"]), timeout=10)
            return stored, catalog, plain, shipped, painted, refusals + [in_use], deleted, after
    stored, catalog, plain, shipped, painted, refusals, deleted, after = run(scenario(), timeout=180)
    assert stored.status == 201 and json.loads(stored.body) == {
        "name": "starry", "format": "JPEG", "width": 752, "height": 600, "thumbnail": "/api/styles/starry.jpg"}
    assert style_choices(catalog["filters"])[-1] == "starry" and len(style_choices(catalog["filters"])) == 27
    source, first, own = (frame.luma().astype(float) for frame in (plain, shipped, painted))
    assert np.abs(own - source).mean() > 8, "the uploaded style paints the picture"
    assert np.abs(own - first).mean() > 4, "in its own way, not a shipped style's"
    bad, taken, shipped_name, cut, small, in_use = refusals
    assert in_use.status == 409 and "channel main's program" in in_use.text(), in_use.text()
    assert (bad.status, taken.status, shipped_name.status, cut.status) == (415, 409, 400, 400), refusals
    assert "not a JPEG or PNG" in bad.text() and "shipped" in shipped_name.text() and "cannot be decoded" in cut.text()
    assert small.status == 201 and json.loads(small.body)["format"] == "PNG"
    assert deleted.status == 200 and json.loads(deleted.body) == {"deleted": "small"} and style_choices(after["filters"])[-1] == "starry"
    listing = json.loads(server.get("/api/styles", headers=BEARER).body)["styles"]
    assert [entry["name"] for entry in listing] == ["starry"]
    thumbnail = server.get("/api/styles/starry.jpg", headers=BEARER)
    assert thumbnail.content_type == "image/jpeg" and Image.open(io.BytesIO(thumbnail.body)).size == (192, 112)
    assert sorted(p.name for p in folder.iterdir()) == ["starry.jpg"], "refused and deleted pictures leave nothing"


def test_the_folder_is_read_at_start_and_a_bad_picture_there_stops_it(start_server, filtercast_bin, tmp_path):
    folder = tmp_path / "styles"
    folder.mkdir()
    (folder / "starry.jpg").write_bytes(open(STARRY, "rb").read())
    server = start_server("--input", "test:160x120@30", "--styles", str(folder))
    assert style_choices(json.loads(server.get("/api/filters").body)["filters"])[-1] == "starry"
    (folder / "broken.png").write_bytes(b"\x89PNG\r\n\x1a\n" + b"\0" * 40)
    result = subprocess.run([filtercast_bin, "serve", "--input", "test:160x120@30", "--port", "0", "--styles", str(folder)],
                            capture_output=True, text=True, timeout=60, env=child_environment())
    assert result.returncode != 0 and "broken.png" in result.stderr and "cannot be decoded" in result.stderr, result.stderr
