"""The `style` filter (issue 27) against a real server: offered with its choices, painting the
picture through OpenVINO, choices by id or index, refused choices, chained; and a server whose
OpenVINO runtime is missing starts anyway, says why once, and offers no `style`."""

import io
import subprocess
import json
from pathlib import Path

import numpy as np
from PIL import Image

from fc_client import Client, run

STYLES = [f"style-{n}" for n in range(1, 27)]


REPO = Path(__file__).resolve().parents[2]


def test_style_is_in_the_catalog_with_its_choices(start_server):
    server = start_server("--input", "test:320x240@30", web=REPO / "web")
    filters = json.loads(server.get("/api/filters").body)["filters"]
    style = next(entry for entry in filters if entry["name"] == "style")
    choice, strength, detail = style["params"]
    assert choice["kind"] == "choice" and [c["id"] for c in choice["choices"]] == STYLES
    # A client that knows only numeric parameters sees an integer over the choices' indexes.
    assert (choice["type"], choice["min"], choice["max"], choice["default"]) == ("integer", 0, 25, 0)
    # Each has a small picture, served with the page (the repository's web/).
    for entry in choice["choices"]:
        answer = server.get(entry["thumbnail"])
        assert (answer.status, answer.content_type) == (200, "image/jpeg"), entry
        assert Image.open(io.BytesIO(answer.body)).size == (192, 112), entry
    assert all(c["label"] for c in choice["choices"])
    assert (strength["name"], detail["name"]) == ("strength", "detail") and "kind" not in strength


def test_style_paints_the_picture_and_takes_choices_by_id_or_index(start_server, sample_clip):
    server = start_server("--input", str(sample_clip))

    async def scenario():
        async with await Client.connect(server.ws_url()) as client:
            await client.frames(1)
            await client.ok({"type": "pause"})
            await client.collect(0.4)
            await client.ok({"type": "setFilter", "name": "none"})
            plain = await client.next_frame(timeout=5, where=lambda f: f.state_changed)
            await client.ok({"type": "setFilter", "chain": [
                {"name": "style", "params": {"style": "style-5", "detail": 0}}, {"name": "invert"}]})
            # The first styled frame of the process waits for the calibration (seconds on a loaded machine).
            styled = await client.next_frame(timeout=30, where=lambda f: f.state_changed)
            state = await client.next_json("state", where=lambda s: s["chain"][0]["name"] == "style")
            refused = await client.command({"type": "setParams", "params": {"style": "wave"}})
            wrong = await client.command({"type": "setParams", "params": {"strength": "full"}})
            await client.ok({"type": "setParams", "params": {"style": 2}})
            by_index = await client.next_json("state", where=lambda s: s["chain"][0]["params"]["style"] == 2)
            return plain, styled, state, refused, wrong, by_index
    plain, styled, state, refused, wrong, by_index = run(scenario(), timeout=60)
    first = state["chain"][0]
    assert first["choices"] == {"style": "style-5"} and first["params"]["style"] == 4
    assert "choices" not in state["chain"][1], "a link without choice parameters is as it always was"
    difference = np.abs(styled.luma().astype(float) - plain.luma().astype(float)).mean()
    assert difference > 10, f"styled then inverted should differ from the source, mean {difference:.1f}"
    assert refused["code"] == "out_of_range" and "style-1" in refused["message"] and "wave" in refused["message"]
    assert wrong["code"] == "invalid_argument" and "strength" in wrong["message"]
    assert by_index["chain"][0]["choices"] == {"style": "style-3"}


def test_without_the_runtime_the_server_starts_without_style(start_server, tmp_path):
    empty = tmp_path / "no-openvino"
    empty.mkdir()
    server = start_server("--input", "test:320x240@30", env={"FILTERCAST_OPENVINO": str(empty)})
    names = [entry["name"] for entry in json.loads(server.get("/api/filters").body)["filters"]]
    assert "style" not in names and "sepia" in names

    async def scenario():
        async with await Client.connect(server.ws_url()) as client:
            return await client.command({"type": "setFilter", "name": "style"})
    assert run(scenario())["code"] == "unknown_filter"
    log = server.stderr_text()
    assert log.count("the style filter is unavailable") == 1 and str(empty) in log, log


def test_the_first_picture_after_picking_style_is_styled_once_the_network_warmed_up(filtercast_bin, web_root, tmp_path):
    """With the network warmed up in the background (as `serve` does), the first picture the
    switch to `style` brings is styled: the new link's first stylization (of the warm-up's blank
    frame) is not carried onto a real picture, which waits for its own once (it came unstyled)."""
    from fc_server import ServerProcess
    server = ServerProcess(filtercast_bin, ["--web", str(web_root), "--data", str(tmp_path), "--input", "test:640x360@25"],
                           str(tmp_path / "filtercast.log"), style_warm_up=True).start()
    try:
        async def scenario():
            async with await Client.connect(server.ws_url()) as client:
                before = await client.next_frame(timeout=10)
                await client.ok({"type": "setFilter", "name": "style", "params": {"style": "style-3"}})
                return before, await client.next_frame(timeout=30, where=lambda frame: frame.state_changed)
        before, styled = run(scenario(), timeout=60)
    finally:
        server.stop()
    source = np.asarray(Image.open(io.BytesIO(before.jpeg)).convert("RGB"), dtype=np.float64)
    painted = np.asarray(Image.open(io.BytesIO(styled.jpeg)).convert("RGB"), dtype=np.float64)
    assert np.abs(source - painted).mean() > 15, f"the first picture after the switch differs by {np.abs(source - painted).mean():.1f} levels"


def test_snapshot_takes_a_style_by_its_id_and_from_styles_never_by_a_zero_based_index(filtercast_bin, tmp_path):
    """Issue 37.11: `--param style=3` painted style-4 (an index counting from 0 where the page says
    Style 3): the command line takes a choice's id and refuses a bare number naming the ids; and
    `snapshot --styles DIR` paints like a picture of DIR, as the server does."""
    def snapshot(out, *arguments):
        return subprocess.run([filtercast_bin, "snapshot", "--input", "test:320x240@5", "--filter", "style", *arguments,
                               "-o", str(out)], capture_output=True, text=True, timeout=120)
    by_number = snapshot(tmp_path / "n.jpg", "--param", "style=3")
    assert by_number.returncode != 0 and "style-3" in by_number.stderr and "'3'" in by_number.stderr, by_number.stderr
    assert not (tmp_path / "n.jpg").exists()
    by_id = snapshot(tmp_path / "id.jpg", "--param", "style=style-3")
    assert by_id.returncode == 0 and "style='style-3'" in by_id.stdout, by_id.stderr
    styles = tmp_path / "styles"
    styles.mkdir()
    subprocess.run(["ffmpeg", "-loglevel", "error", "-f", "lavfi", "-i", "mandelbrot=size=256x256", "-frames:v", "1",
                    str(styles / "swirl.jpg")], check=True)
    own = snapshot(tmp_path / "own.jpg", "--styles", str(styles), "--param", "style=swirl")
    assert own.returncode == 0 and "style='swirl'" in own.stdout, own.stderr
    unknown = snapshot(tmp_path / "x.jpg", "--param", "style=swirl")
    assert unknown.returncode != 0 and "swirl" in unknown.stderr
