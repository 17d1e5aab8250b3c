"""The `style` filter (issue 27) against a real server: offered with its choices, painting the
picture through OpenVINO, choices by id or index, refused choices, chained; and a server whose
OpenVINO runtime is missing starts anyway, says why once, and offers no `style`."""

import asyncio
import datetime
import io
import json
import os
import re
import select
import subprocess
import time
from pathlib import Path

import numpy as np
import pytest
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
    catalog = json.loads(server.get("/api/filters").body)
    names = [entry["name"] for entry in catalog["filters"]]
    assert "style" not in names and "sepia" in names
    # Nor the person matte: no region but the whole picture (a v1 server's catalog).
    assert "backgroundBlur" not in names and set(catalog) == {"filters"}
    assert server.get("/api/backgrounds").status == 404 and not (tmp_path / "backgrounds").exists()

    async def scenario():
        async with await Client.connect(server.ws_url()) as client:
            region = await client.command({"type": "setFilter", "chain": [{"name": "sepia", "region": "person"}]})
            return await client.command({"type": "setFilter", "name": "style"}), region, client.hello
    style, region, hello = run(scenario())
    assert style["code"] == "unknown_filter"
    assert region["code"] == "out_of_range" and "person matte" in region["message"], region
    assert "regions" not in hello
    log = server.stderr_text()
    assert log.count("the style filter is unavailable") == 1 and str(empty) in log, log
    assert "unknown environment variable" not in log, "FILTERCAST_OPENVINO is read, not ignored"


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


def test_sigterm_while_the_network_runs_exits_0_within_1_s(start_server, sample_clip):
    """Issue 42: the network's threads beside the picture (each link's worker; a warm-up or a
    height's compile) are ended and waited for at the stop, before `exit` tears OpenVINO down
    under them. The signal comes at the first styled frames: the calibration just done, the worker
    painting every frame."""
    for _ in range(3):
        # The fixture's servers start with --style-at-first-use: the calibration at the first frame.
        # JSON logs: their times (the server's clock, ms) say when a height's compile ended.
        server = start_server("--input", str(sample_clip), "--filter", "style", "--log-format", "json")

        async def first_frames():
            async with await Client.connect(server.ws_url()) as client:
                await client.frames(2, timeout=30)
        run(first_frames(), timeout=40)
        signal_wall = time.time()
        code, seconds = server.stop(timeout=10.0)
        assert code == 0, f"exit code {code}\n{server.stderr_text()[-3000:]}"
        # A height's compile (started by the first-use calibration) cannot be interrupted, and issue 42
        # is that it must be waited for: the part of it after the signal is the machine's (seconds on a
        # busy one), the 1 s is the rest of the stop. A stop that ended nothing, or waited on something
        # else, still exceeds it; a compile the stop did not wait for would be logged after the exit
        # (never) or crash (exit code).
        compile_after_signal = max([0.0] + [
            entry_time(entry) - signal_wall for entry in json_log(server)
            if re.match(r"style: the network (runs at \d+ lines;|stays at)", entry["message"])])
        assert seconds < 1.0 + compile_after_signal, \
            f"the server took {seconds:.2f} s to exit ({compile_after_signal:.2f} s of it finishing a compile)"


def json_log(server) -> list:
    return [json.loads(line) for line in server.stderr_text(last=10_000_000).splitlines() if line.startswith("{")]


def entry_time(entry) -> float:
    """A JSON log line's `time` (UTC, ms) as a time.time() value."""
    return datetime.datetime.strptime(entry["time"], "%Y-%m-%dT%H:%M:%S.%fZ").replace(
        tzinfo=datetime.timezone.utc).timestamp()


STYLE_LINE = re.compile(r"^filtercast: style refreshes up to (?P<hz>[\d.]+) times a second here "
                        r"\(the network at (?P<lines>\d+) lines, (?P<run>[\d.]+) ms a run\)$")


def stdout_line(server, matching, timeout: float = 30.0) -> str:
    """The first line of the server's standard output after the ready and data lines that `matching` accepts."""
    deadline, buffer = time.monotonic() + timeout, b""
    while time.monotonic() < deadline:
        ready, _, _ = select.select([server.proc.stdout], [], [], 0.2)
        if ready:
            chunk = os.read(server.proc.stdout.fileno(), 4096)
            assert chunk, f"standard output closed\n{server.stderr_text()}"
            buffer += chunk
            for line in buffer.decode().splitlines():
                if matching(line):
                    return line
    raise AssertionError(f"no such line within {timeout} s: {buffer!r}")


@pytest.mark.parametrize("log_format", ["text", "json"])
def test_the_ready_line_and_the_catalog_say_the_style_refresh_rate_this_machine_reaches(filtercast_bin, web_root, tmp_path, log_format):
    """Issue 42: calibrated after start, the server says on standard output (after the ready and data
    lines) how often the style refreshes here, at the height chosen, and `/api/filters` says it too."""
    from fc_server import ServerProcess
    server = ServerProcess(filtercast_bin, ["--web", str(web_root), "--data", str(tmp_path), "--input", "test:320x240@25",
                                            "--log-format", log_format],
                           str(tmp_path / "filtercast.log"), style_warm_up=True).start()
    try:
        if log_format == "text":
            match = STYLE_LINE.match(stdout_line(server, STYLE_LINE.match))
            said = {"hz": float(match["hz"]), "lines": int(match["lines"]), "run": float(match["run"])}
        else:
            line = json.loads(stdout_line(server, lambda line: "styleRefreshHz" in line))
            said = {"hz": line["styleRefreshHz"], "lines": line["styleLines"], "run": line["styleRunMs"]}
        style = next(entry for entry in json.loads(server.get("/api/filters").body)["filters"] if entry["name"] == "style")
    finally:
        server.stop()
    assert said["lines"] in (360, 288, 240, 216, 180, 144), said
    assert said["hz"] > 0 and abs(said["hz"] - 1000 / said["run"]) <= 0.1 + 0.01 * said["hz"], said
    assert style["refreshHz"] == said["hz"], "the catalog says what the line said"


def test_every_channel_styled_at_once_gets_its_pictures_and_its_style_and_leaves_promptly(start_server):
    """Channels of three shapes styled at once (issue 37.6's use): each channel's network worker
    took the engine's lock in turn with the others — a plain mutex let one channel paint on while
    the others waited for minutes, showing nothing (a first frame waited for its stylization
    without bound) and answering DELETE after 30 s. Each now gets pictures and its own style
    refreshes, and each leaves at once."""
    server = start_server("--input", "test:320x180@15", "--filter", "style", "--admin-token", "A")
    shapes = {"square": "test:240x240@15", "tall": "test:180x320@15"}
    for name, source in shapes.items():
        added = server.http("PUT", f"/api/channels/{name}", headers={"Authorization": "Bearer A"},
                            body=json.dumps({"input": source, "filter": {"name": "style"}}).encode(), timeout=30)
        assert added.status == 201, added.body

    async def watch(channel):
        async with await Client.connect(server.ws_url(channel=channel)) as client:
            await client.frames(10, timeout=60)
            return await client.next_json("state", where=lambda s: (s.get("styleRefreshHz") or 0) > 0, timeout=60)

    async def scenario():
        return await asyncio.gather(*(watch(channel) for channel in ["main", *shapes]))
    states = run(scenario(), timeout=120)
    assert all(state["styleRefreshHz"] > 0 for state in states), [state.get("styleRefreshHz") for state in states]
    for name in shapes:
        started = time.monotonic()
        removed = server.http("DELETE", f"/api/channels/{name}", headers={"Authorization": "Bearer A"}, timeout=30)
        assert removed.status == 200 and time.monotonic() - started < 5, (removed.status, time.monotonic() - started)
