"""Colour LUTs (issue 26, item 4): the `lut` filter against FFmpeg's `lut3d` (interp=tetrahedral)
on a cube made here and a natural picture; LUTs read from `--luts DIR` at start and uploaded over
HTTP (`PUT /api/luts/NAME`: control; good, bad, taken; with and without the token), listed
(`GET /api/luts`: watch), pushed to a connected page as a new choice at once, and deleted
(`DELETE /api/luts/NAME`: control; refused while a chain uses it)."""

from __future__ import annotations

import json
import subprocess

import numpy as np

from fc_client import Client, run
from fc_server import child_environment

TOKEN = "lut-secret"
BEARER = {"Authorization": f"Bearer {TOKEN}"}
PHOTO = "/usr/share/doc/opencv-doc/examples/data/fruits.jpg"


def grade_cube(size: int = 33, title: str = "Test grade") -> bytes:
    """A non-trivial grade: an S-curve, warm highlights, teal shadows, crossed channels."""
    def s(t):
        return t * t * (3 - 2 * t)
    lines = [f'TITLE "{title}"', "# made by the test", f"LUT_3D_SIZE {size}", "DOMAIN_MIN 0 0 0", "DOMAIN_MAX 1 1 1"]
    for b in range(size):
        for g in range(size):
            for r in range(size):
                x, y, z = r / (size - 1), g / (size - 1), b / (size - 1)
                luma = 0.299 * x + 0.587 * y + 0.114 * z
                out = (0.85 * s(x) + 0.1 * y + 0.08 * luma, 0.9 * s(y) + 0.05 * z + 0.03,
                       0.75 * s(z) + 0.075 * (1 - luma) + 0.05 * x)
                lines.append(" ".join(f"{min(1.0, max(0.0, v)):.6f}" for v in out))
    return ("\n".join(lines) + "\n").encode()


def planes(jpeg) -> tuple:
    """A JPEG's own Y, Cb, Cr planes (4:2:0, no conversion), as floats."""
    probe = subprocess.run(["ffprobe", "-v", "error", "-show_entries", "stream=width,height", "-of", "csv=p=0", str(jpeg)],
                           capture_output=True, text=True, check=True).stdout
    width, height = map(int, probe.strip().split(","))
    raw = subprocess.run(["ffmpeg", "-v", "error", "-i", str(jpeg), "-f", "rawvideo", "-pix_fmt", "yuvj420p", "-"],
                         capture_output=True, check=True).stdout
    samples = np.frombuffer(raw, np.uint8).astype(float)
    cw, ch = (width + 1) // 2, (height + 1) // 2
    y = samples[:width * height].reshape(height, width)
    u = samples[width * height:width * height + cw * ch].reshape(ch, cw)
    v = samples[width * height + cw * ch:].reshape(ch, cw)
    return y, u, v


def lut3d(y, u, v, cube) -> tuple:
    """FFmpeg's lut3d (interp=tetrahedral) on the picture's RGB (JFIF's conversion, each chroma
    sample for its 2x2 block), back to Y and 4:2:0 Cb and Cr (each the mean of its block)."""
    height, width = y.shape
    cb = np.repeat(np.repeat(u, 2, 0), 2, 1)[:height, :width] - 128
    cr = np.repeat(np.repeat(v, 2, 0), 2, 1)[:height, :width] - 128
    rgb = np.stack([y + 1.402 * cr, y - 0.344136 * cb - 0.714136 * cr, y + 1.772 * cb], -1)
    rgb = np.clip(np.rint(rgb), 0, 255).astype(np.uint8)
    out = subprocess.run(["ffmpeg", "-v", "error", "-f", "rawvideo", "-pix_fmt", "rgb24", "-s", f"{width}x{height}", "-i", "-",
                          "-vf", f"lut3d=file={cube}:interp=tetrahedral", "-f", "rawvideo", "-pix_fmt", "rgb24", "-"],
                         input=rgb.tobytes(), capture_output=True, check=True).stdout
    r, g, b = np.moveaxis(np.frombuffer(out, np.uint8).reshape(height, width, 3).astype(float), -1, 0)

    def blocks(plane):
        return plane[:height // 2 * 2, :width // 2 * 2].reshape(height // 2, 2, width // 2, 2).mean(axis=(1, 3))
    return (0.299 * r + 0.587 * g + 0.114 * b, blocks(128 - 0.168736 * r - 0.331264 * g + 0.5 * b),
            blocks(128 + 0.5 * r - 0.418688 * g - 0.081312 * b))


def psnr(ours: tuple, reference: tuple) -> float:
    errors = [((a[:b.shape[0], :b.shape[1]] - b) ** 2).ravel() for a, b in zip(ours, reference)]
    return float(10 * np.log10(255 ** 2 / np.concatenate(errors).mean()))


def test_lut_matches_ffmpeg_lut3d_tetrahedral_on_a_natural_picture(filtercast_bin, tmp_path):
    luts = tmp_path / "luts"
    luts.mkdir()
    (luts / "grade.cube").write_bytes(grade_cube())

    def snapshot(out, *filters):
        subprocess.run([filtercast_bin, "snapshot", "--input", PHOTO, "--luts", str(luts), *filters, "--quality", "100",
                        "-o", str(out)], check=True, capture_output=True, timeout=60, env=child_environment())
        return planes(out)
    plain = snapshot(tmp_path / "plain.jpg")
    graded = snapshot(tmp_path / "graded.jpg", "--filter", "lut", "--param", "lut=grade", "--param", "intensity=1")
    reference = lut3d(*plain, luts / "grade.cube")
    assert psnr(graded, reference) >= 40, f"{psnr(graded, reference):.2f} dB against lut3d"
    assert psnr(graded, plain) < 32, "the grade changes the picture: a test that cannot fail proves nothing"


def test_luts_are_read_at_start_uploaded_listed_and_offered_at_once(start_server, tmp_path):
    luts = tmp_path / "luts"
    luts.mkdir()
    (luts / "warm.cube").write_bytes(grade_cube(size=5, title="Warm"))
    server = start_server("--input", "test:160x120@30", "--luts", str(luts), "--token", TOKEN, "--public-view")
    # --public-view: watching (the listing) needs no token; adding a LUT does.
    listed = json.loads(server.get("/api/luts").body)
    assert listed == {"luts": [{"name": "warm", "size": 5, "title": "Warm", "thumbnail": "/api/luts/warm.jpg"}]}

    def put(name, body, headers=BEARER):
        return server.http("PUT", f"/api/luts/{name}", headers=headers, body=body, timeout=30)

    async def scenario():
        async with await Client.connect(server.ws_url()) as viewer:  # watches without the token
            hello = viewer.hello
            refused = put("teal", grade_cube(size=3), headers={})
            assert refused.status == 401, refused
            stored = put("teal", grade_cube(size=3, title="Teal"))
            catalog = await viewer.next_json("catalog", timeout=5)
            bad = put("broken", b"LUT_3D_SIZE 2\n0 0 0\n1 0 1.5\n")
            taken = put("teal", grade_cube(size=3))
            bad_name = put("Bad%20Name", grade_cube(size=2))
            return hello, stored, catalog, bad, taken, bad_name
    hello, stored, catalog, bad, taken, bad_name = run(scenario(), timeout=60)

    def choices(filters):
        lut = next(entry for entry in filters if entry["name"] == "lut")
        return [(c["id"], c["label"]) for c in lut["params"][0]["choices"]]
    assert choices(hello["filters"]) == [("warm", "Warm")]
    assert [c["thumbnail"] for c in next(f for f in catalog["filters"] if f["name"] == "lut")["params"][0]["choices"]] == \
        ["/api/luts/warm.jpg", "/api/luts/teal.jpg"]
    assert (stored.status, json.loads(stored.body)) == (201, {"name": "teal", "size": 3, "title": "Teal",
                                                              "thumbnail": "/api/luts/teal.jpg"})
    assert choices(catalog["filters"]) == [("warm", "Warm"), ("teal", "Teal")]
    assert bad.status == 400 and bad.text().strip() == "broken.cube: line 3: 1.5 is outside the domain 0.0 to 1.0", bad.text()
    assert taken.status == 409 and bad_name.status == 400
    assert sorted(p.name for p in luts.iterdir()) == ["teal.cube", "warm.cube"], "a refused LUT leaves nothing"
    assert choices(json.loads(server.get("/api/filters").body)["filters"]) == [("warm", "Warm"), ("teal", "Teal")]

    async def apply():
        async with await Client.connect(server.ws_url(token=TOKEN)) as controller:
            await controller.ok({"type": "setFilter", "name": "lut", "params": {"lut": "teal", "intensity": 0.8}})
            state = await controller.next_json("state", where=lambda s: s["chain"] and s["chain"][0]["name"] == "lut")
            refused = await controller.command({"type": "setParams", "params": {"lut": "nope"}})
            return state, refused
    state, refused = run(apply(), timeout=30)
    assert state["chain"][0]["choices"] == {"lut": "teal"} and state["chain"][0]["params"]["intensity"] == 0.8
    assert refused["code"] == "out_of_range" and "warm" in refused["message"] and "teal" in refused["message"]

    # DELETE: a LUT on air is kept, naming where; another goes, file and choice.
    in_use = server.http("DELETE", "/api/luts/teal", headers=BEARER)
    assert in_use.status == 409 and "channel main's program" in in_use.text(), in_use
    assert server.http("DELETE", "/api/luts/warm", headers={}).status == 401
    # The thumbnails (the LUT on a chart made in code): open to anyone, as the catalog; gone with the LUT.
    thumbnail = server.http("GET", "/api/luts/warm.jpg", headers={})
    assert thumbnail.status == 200 and thumbnail.headers.get("content-type") == "image/jpeg", thumbnail
    assert thumbnail.body[:3] == b"\xff\xd8\xff" and thumbnail.body != server.http("GET", "/api/luts/teal.jpg", headers={}).body
    deleted = server.http("DELETE", "/api/luts/warm", headers=BEARER)
    assert (deleted.status, json.loads(deleted.body)) == (200, {"deleted": "warm"})
    assert server.http("GET", "/api/luts/warm.jpg", headers={}).status == 404
    assert sorted(p.name for p in luts.iterdir()) == ["teal.cube"]
    assert choices(json.loads(server.get("/api/filters").body)["filters"]) == [("teal", "Teal")]


def test_a_bad_lut_in_the_folder_stops_the_start_naming_it(filtercast_bin, tmp_path):
    luts = tmp_path / "luts"
    luts.mkdir()
    (luts / "short.cube").write_bytes(b"LUT_3D_SIZE 2\n0 0 0\n")
    result = subprocess.run([filtercast_bin, "serve", "--input", "test:160x120@30", "--port", "0", "--luts", str(luts)],
                            capture_output=True, text=True, timeout=30, env=child_environment())
    assert result.returncode != 0
    assert "short.cube" in result.stderr and "line 2" in result.stderr and "needs 8" in result.stderr, result.stderr
