"""Any filter on a region (issue 41): a chain link's `region` in `setFilter`, the state's `chain`,
`hello.regions` and `/api/filters`, and `snapshot --region` — a real server on a packaged
photograph of a person, the person matte through OpenVINO."""

from __future__ import annotations

import json
import subprocess

import numpy as np
import pytest
from PIL import Image

from fc_client import Client, run, warmth
from fc_server import child_environment, make_clip

PHOTO = "/usr/share/doc/opencv-doc/examples/data/messi5.jpg"
REGIONS = ["all", "person", "background"]
# Boxes as fractions of the width and height (as MatteKitTests has them): the person's body and
# a far corner of the background.
PERSON = (slice(0.40, 0.55), slice(0.40, 0.50))
CORNER = (slice(0.0, 0.15), slice(0.0, 0.15))


def box(rgb: np.ndarray, where) -> np.ndarray:
    rows, columns = where
    height, width = rgb.shape[:2]
    return rgb[int(rows.start * height):int(rows.stop * height), int(columns.start * width):int(columns.stop * width)]


@pytest.fixture(scope="module")
def person_clip(tmp_path_factory):
    """Two seconds of the photograph, still, at 640×360."""
    path = tmp_path_factory.mktemp("clips") / "person-640x360.mp4"
    return make_clip(path, f"movie={PHOTO},loop=loop=-1:size=1:start=0,fps=10,scale=640:360", 2)


def test_a_link_on_the_background_is_in_the_state_and_the_picture(start_server, person_clip):
    server = start_server("--input", str(person_clip))
    assert json.loads(server.get("/api/filters").body)["regions"] == REGIONS

    async def scenario():
        async with await Client.connect(server.ws_url()) as client:
            await client.frames(1, timeout=10)
            await client.ok({"type": "pause"})
            await client.collect(0.4)
            await client.ok({"type": "setFilter", "name": "none"})
            plain = await client.next_frame(timeout=10, where=lambda f: f.state_changed)
            await client.ok({"type": "setFilter", "chain": [{"name": "sepia", "region": "background"}, {"name": "vignette",
                                                                                                       "params": {"intensity": 0}}]})
            state = await client.next_json("state", where=lambda s: len(s["chain"]) == 2)
            await client.ok({"type": "setParams", "index": 0, "params": {"intensity": 0.9}})
            later = await client.next_json("state", where=lambda s: s["chain"][0]["params"]["intensity"] == 0.9)
            # The region link is warmed (the matte's networks compiled) beside the picture: the first
            # frame whose background turned sepia.
            before = warmth(box(plain.rgb(), CORNER))
            framed = await client.next_frame(timeout=60, where=lambda f: warmth(box(f.rgb(), CORNER)) - before > 8)
            return client.hello, state, later, plain, framed
    hello, state, later, plain, framed = run(scenario())
    assert hello["regions"] == REGIONS
    assert state["chain"][0] == {"name": "sepia", "params": {"intensity": 1}, "region": "background"}
    assert "region" not in state["chain"][1], "a link on the whole picture reads as it always did"
    assert later["chain"][0]["region"] == "background", "setParams keeps the link's region"
    before, after = plain.rgb(), framed.rgb()
    assert abs(warmth(box(after, PERSON)) - warmth(box(before, PERSON))) < 4, "the person keeps their colours"


def test_snapshot_takes_a_region_per_filter(filtercast_bin, tmp_path):
    def snapshot(name, *filters):
        out = tmp_path / f"{name}.jpg"
        done = subprocess.run([filtercast_bin, "snapshot", "--input", PHOTO, *filters, "--quality", "100", "-o", str(out)],
                              capture_output=True, text=True, timeout=120, env=child_environment())
        return done, (np.asarray(Image.open(out).convert("RGB"), dtype=np.float64) if done.returncode == 0 else None)
    _, plain = snapshot("plain")
    _, person = snapshot("person", "--filter", "sepia", "--region", "person")
    assert warmth(box(person, PERSON)) - warmth(box(plain, PERSON)) > 15
    assert abs(warmth(box(person, CORNER)) - warmth(box(plain, CORNER))) < 4
    refused, _ = snapshot("bad", "--filter", "sepia", "--region", "face")
    assert refused.returncode != 0 and "--region must be one of all, person, background, got 'face'" in refused.stderr


def test_bench_takes_a_region_and_reports_the_matte_apart(filtercast_bin, person_clip):
    def bench(*filters):
        done = subprocess.run([filtercast_bin, "bench", "--json", "--input", str(person_clip), *filters, "--frames", "5"],
                              capture_output=True, text=True, timeout=120, env=child_environment(), check=True)
        return json.loads(done.stdout)
    regional = bench("--filter", "sepia", "--region", "background")
    assert regional["filter"] == "sepia(intensity=1) on background" and regional["matteFrames"] == 5
    steps = regional["matteReduceMs"] + regional["matteNetworkMs"] + regional["matteUpsampleMs"]
    assert regional["matteMs"] == pytest.approx(steps) and min(regional["matteNetworkMs"], regional["matteUpsampleMs"]) > 0
    assert "matteMs" not in bench("--filter", "sepia"), "no matte where no link needs one"
