"""Uploaded backgrounds (issue 41): `PUT /api/backgrounds/NAME` (control; JPEG or PNG ≤ 16 MB,
decoded and checked before it is kept in DATA/backgrounds), `GET /api/backgrounds[/NAME[.jpg]]`,
`DELETE`; each a choice of `backgroundReplace`'s `background` for every viewer at once, painted
behind the person scaled to cover the frame; bad pictures refused naming why; kept across a restart."""

from __future__ import annotations

import io
import json

import numpy as np
import pytest
from PIL import Image

from fc_client import Uploads, run
from fc_server import make_clip

TOKEN = "background-secret"
BEARER = {"Authorization": f"Bearer {TOKEN}"}
PERSON = "/usr/share/doc/opencv-doc/examples/data/messi5.jpg"
FRUITS = "/usr/share/doc/opencv-doc/examples/data/fruits.jpg"


@pytest.fixture(scope="module")
def person_clip(tmp_path_factory):
    path = tmp_path_factory.mktemp("clips") / "person-640x360.mp4"
    return make_clip(path, f"movie={PERSON},loop=loop=-1:size=1:start=0,fps=10,scale=640:360", 2)


def backgrounds(filters) -> list:
    replace = next(entry for entry in filters if entry["name"] == "backgroundReplace")
    return [choice["id"] for choice in replace["params"][0]["choices"]]


def covered(path: str, width: int, height: int) -> np.ndarray:
    """The picture's centre at width:height, scaled to that size (what "scaled to cover" means)."""
    picture = Image.open(path).convert("RGB")
    scale = max(width / picture.width, height / picture.height)
    big = picture.resize((round(picture.width * scale), round(picture.height * scale)), Image.BILINEAR)
    left, top = (big.width - width) // 2, (big.height - height) // 2
    return np.asarray(big.crop((left, top, left + width, top + height)), dtype=np.float64)


# The far background of a 640x360 frame (its top left corner), and what it is with the picture
# scaled to cover the frame behind the person.
CORNER = (slice(0, 54), slice(0, 96))
REFERENCE = covered(FRUITS, 640, 360)


def corner_change(rgb: np.ndarray) -> float:
    return float(np.abs(rgb[CORNER] - REFERENCE[CORNER]).mean())


def test_a_background_uploaded_is_a_choice_for_everybody_and_is_painted_behind_the_person(start_server, person_clip, tmp_path):
    server = start_server("--input", str(person_clip), "--token", TOKEN, "--public-view")
    fruits = open(FRUITS, "rb").read()

    async def scenario():
        async with Uploads(server, "/api/backgrounds", TOKEN) as uploads:
            viewer, controller, put = uploads.viewer, uploads.controller, uploads.put
            stored, catalog = await uploads.stored("fruits", fruits)
            await controller.ok({"type": "pause"})
            await controller.ok({"type": "setFilter", "name": "backgroundReplace", "params": {"background": "fruits"}})
            await viewer.next_json("state", where=lambda s: s["chain"] and s["chain"][0].get("choices") == {"background": "fruits"})
            # The new link is warmed (its backdrop cut) beside the picture, then the paused frame is
            # rendered again with it: the first frame whose far background is the picture.
            painted = await viewer.next_frame(timeout=60, where=lambda f: corner_change(f.rgb()) < 12)
            refusals = [put("gif", b"GIF89a not a picture"), put("fruits", fruits), put("green", fruits),
                        put("cut", fruits[:600]), put("huge", b"\xff\xd8\xff" + bytes(16 << 20)), put("Bad.Name", fruits)]
            in_use = server.http("DELETE", "/api/backgrounds/fruits", headers=BEARER)
            await controller.ok({"type": "setFilter", "name": "none"})
            deleted = server.http("DELETE", "/api/backgrounds/fruits", headers=BEARER)
            after = await viewer.next_json("catalog", where=lambda c: "fruits" not in backgrounds(c["filters"]), timeout=10)
            return stored, catalog, painted, refusals, in_use, deleted, after
    stored, catalog, painted, refusals, in_use, deleted, after = run(scenario(), timeout=120)
    assert stored.status == 201, stored.text()
    assert json.loads(stored.body) == {"name": "fruits", "format": "JPEG", "width": 512, "height": 480,
                                       "thumbnail": "/api/backgrounds/fruits.jpg"}
    assert backgrounds(catalog["filters"]) == ["black", "white", "green", "fruits"]
    # The far background is the picture (waited for above), the person is not.
    body = (slice(144, 198), slice(256, 320))
    assert np.abs(painted.rgb()[body] - REFERENCE[body]).mean() > 30
    gif, taken, colour, cut, huge, bad_name = refusals
    assert (gif.status, taken.status, colour.status, cut.status, huge.status, bad_name.status) == (415, 409, 400, 400, 413, 400), \
        [r.status for r in refusals]
    assert "not a JPEG or PNG" in gif.text() and "a colour's name" in colour.text() and "cannot be decoded" in cut.text()
    assert in_use.status == 409 and "channel main's program" in in_use.text(), in_use.text()
    assert deleted.status == 200 and json.loads(deleted.body) == {"deleted": "fruits"}
    assert backgrounds(after["filters"]) == ["black", "white", "green"]
    assert list((tmp_path / "backgrounds").iterdir()) == [], "refused and deleted pictures leave nothing"


def test_backgrounds_are_listed_described_and_kept_across_a_restart(start_server, tmp_path):
    png = io.BytesIO()
    Image.open(FRUITS).resize((200, 100)).save(png, format="PNG")
    server = start_server("--input", "test:160x120@30")
    assert server.http("PUT", "/api/backgrounds/wall", body=png.getvalue(), timeout=30).status == 201
    server.stop()
    again = start_server("--input", "test:160x120@30")
    listing = json.loads(again.get("/api/backgrounds").body)
    entry = {"name": "wall", "format": "PNG", "width": 200, "height": 100, "thumbnail": "/api/backgrounds/wall.jpg"}
    assert listing == {"backgrounds": [entry]}
    assert json.loads(again.get("/api/backgrounds/wall").body) == entry
    thumbnail = again.get("/api/backgrounds/wall.jpg")
    assert thumbnail.content_type == "image/jpeg" and Image.open(io.BytesIO(thumbnail.body)).size == (192, 112)
    assert again.get("/api/backgrounds/nothing").status == 404
    assert backgrounds(json.loads(again.get("/api/filters").body)["filters"])[-1] == "wall"
    assert (tmp_path / "backgrounds" / "wall.png").read_bytes() == png.getvalue()
