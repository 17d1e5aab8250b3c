"""Configuration by environment variable (the flag wins, bad values fail naming the variable)
and the connect/disconnect log lines in both log formats."""

import json
import os
import re
import subprocess
import time

from fc_client import Client, handshake_status, run
from fc_server import child_environment


def log_lines(server, predicate, timeout: float = 3.0) -> list:
    """The server's stderr lines that satisfy `predicate`, waiting up to `timeout` for one."""
    deadline = time.monotonic() + timeout
    while True:
        lines = [line for line in server.stderr_text(last=1_000_000).splitlines() if predicate(line)]
        if lines or time.monotonic() > deadline:
            return lines
        time.sleep(0.05)


def fps_consistent(fps: float, frames: int, seconds: float) -> bool:
    """The logged fps is the logged frames over the logged seconds (each rounded to 0.1)."""
    return frames / (seconds + 0.05) - 0.05 <= fps <= frames / max(0.01, seconds - 0.05) + 0.05


async def watch(server, seconds: float) -> int:
    """Watches as one viewer for `seconds`; the number of frames received."""
    async with await Client.connect(server.ws_url()) as client:
        items = await client.collect(seconds)
    return sum(1 for item in items if not isinstance(item, dict))


def test_environment_variables_configure_serve_and_the_flag_wins(start_server):
    server = start_server(env={
        "FILTERCAST_INPUT": "test:160x120@25",
        "FILTERCAST_FILTER": "sepia",
        "FILTERCAST_PARAM": "intensity=0.25",
        "FILTERCAST_MAX_CLIENTS": "1",
        "FILTERCAST_PORT": "not-a-port",  # --port 0 on the command line wins: never read
        "FILTERCAST_NO_LOOP": "false",
    })
    assert (server.width, server.height) == (160, 120)
    state = json.loads(server.get("/api/state").text())
    assert state["filter"] == {"name": "sepia", "params": {"intensity": 0.25}}, state
    assert state["source"]["fps"] == 25

    async def scenario():
        async with await Client.connect(server.ws_url()) as first:
            await first.next_frame(timeout=3)
            # FILTERCAST_MAX_CLIENTS=1: the next connection is refused.
            return handshake_status(server.host, server.port)
    assert run(scenario()) == 503

    flagged = start_server("--filter", "invert", "--input", "test:192x108@30",
                           env={"FILTERCAST_FILTER": "sepia", "FILTERCAST_INPUT": "test:160x120@25"})
    assert (flagged.width, flagged.height) == (192, 108)
    assert json.loads(flagged.get("/api/state").text())["filter"]["name"] == "invert"


def test_bad_environment_values_fail_at_start_naming_the_variable(filtercast_bin, tmp_path):
    cases = [
        ({"FILTERCAST_PORT": "abc"}, ["FILTERCAST_PORT", "'abc'"]),
        ({"FILTERCAST_MAX_CLIENTS": "0"}, ["FILTERCAST_MAX_CLIENTS", "'0'"]),
        ({"FILTERCAST_SIZE": "huge"}, ["FILTERCAST_SIZE", "'huge'"]),
        ({"FILTERCAST_PUBLIC_VIEW": "maybe"}, ["FILTERCAST_PUBLIC_VIEW", "'maybe'"]),
        ({"FILTERCAST_FILTER": "nope"}, ["FILTERCAST_FILTER", "nope"]),
        ({"FILTERCAST_FILTER": "sepia", "FILTERCAST_PARAM": "intensity=7"}, ["FILTERCAST_PARAM", "intensity"]),
        ({"FILTERCAST_LOG_FORMAT": "xml"}, ["FILTERCAST_LOG_FORMAT", "'xml'", "json"]),
        ({"FILTERCAST_INPUT": "test:1x1"}, ["FILTERCAST_INPUT", "test:1x1"]),
    ]
    for env, words in cases:
        result = subprocess.run([filtercast_bin, "serve", "--web", str(tmp_path)], env=child_environment(env),
                                capture_output=True, text=True, timeout=20, stdin=subprocess.DEVNULL)
        assert result.returncode == 2, f"{env}: exit code {result.returncode}, stderr {result.stderr!r}"
        lines = result.stderr.strip().splitlines()
        assert len(lines) == 1, f"{env}: want one line, got {result.stderr!r}"
        for word in words:
            assert word in lines[0], f"{env}: {word!r} missing from {lines[0]!r}"


# Options whose variable is not named by the rule: `--channel` is repeated in one variable whose
# name is plural (issue "Many channels on one server").
OWN_VARIABLES = {"--channel": "FILTERCAST_CHANNELS"}


def variable_of(flag: str) -> str:
    return OWN_VARIABLES.get(flag, "FILTERCAST_" + flag[2:].upper().replace("-", "_"))


def test_help_lists_every_option_with_its_variable(filtercast_bin):
    result = subprocess.run([filtercast_bin, "serve", "--help"], capture_output=True, text=True, timeout=20,
                            env=child_environment())
    assert result.returncode == 0
    flags = sorted(set(re.findall(r"^  (--[a-z0-9-]+)", result.stdout, re.MULTILINE)))
    assert "--port" in flags and "--log-format" in flags
    for flag in flags:
        variable = variable_of(flag)
        assert re.search(rf"^  {flag}\b.*\b{variable}$", result.stdout, re.MULTILINE), f"{flag} → {variable} not listed"


def test_json_log_lines_for_connect_and_disconnect(start_server):
    server = start_server("--input", "test:160x120@30", "--log-format", "json")
    frames = run(watch(server, 1.5))

    def parsed(line):
        try:
            return json.loads(line)
        except ValueError:
            raise AssertionError(f"not a JSON line: {line!r}")

    lines = [parsed(line) for line in log_lines(server, lambda line: "client disconnected" in line)]
    assert len(lines) == 1, lines
    left = lines[0]
    assert left["level"] == "info" and left["client"] == "viewer" and left["address"] == "127.0.0.1", left
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z", left["time"]), left["time"]
    assert left["frames"] >= frames - 2, (left, frames)
    # The rate is the frames the viewer got over its session: checked against the client's own
    # count and session rather than a fixed floor, which a loaded machine's slow start or stall
    # breaks; above the source's 30 fps it is wrong on any machine.
    assert left["seconds"] >= 1.5 - 0.05 and fps_consistent(left["fps"], left["frames"], left["seconds"]), left
    assert left["fps"] <= 31, f"a 30 fps viewer that acknowledged every frame: {left}"
    joined = [parsed(line) for line in log_lines(server, lambda line: "client connected" in line)]
    assert len(joined) == 1 and joined[0]["address"] == "127.0.0.1" and joined[0]["viewers"] == 1, joined
    # Every line the server wrote is a JSON object.
    for line in server.stderr_text(last=1_000_000).splitlines():
        assert isinstance(parsed(line), dict)


def test_text_log_lines_and_levels(start_server):
    server = start_server("--input", "test:160x120@30")
    frames = run(watch(server, 1.0))
    left = log_lines(server, lambda line: "client disconnected" in line)
    assert len(left) == 1 and left[0].startswith("filtercast: info: client disconnected channel=main client=viewer address=127.0.0.1 ")
    fps = float(re.search(r" fps=([0-9.]+)", left[0])[1])
    logged_frames, seconds = int(re.search(r" frames=(\d+)", left[0])[1]), float(re.search(r" seconds=([0-9.]+)", left[0])[1])
    # As in the JSON test: the viewer's own frames over its session, never above the source's rate.
    assert logged_frames >= frames - 2 and seconds >= 1.0 - 0.05, (left[0], frames)
    assert fps_consistent(fps, logged_frames, seconds) and fps <= 31, left[0]
    assert not log_lines(server, lambda line: "debug:" in line, timeout=0), "debug lines at the default level"

    quiet = start_server("--input", "test:160x120@30", "--log-level", "warn")
    run(watch(quiet, 0.5))
    time.sleep(0.5)
    assert not log_lines(quiet, lambda line: "client" in line, timeout=0), quiet.stderr_text()

    chatty = start_server("--input", "test:160x120@30", env={"FILTERCAST_LOG_LEVEL": "debug"})
    chatty.get("/healthz")
    assert log_lines(chatty, lambda line: line.startswith("filtercast: debug: http request") and "path=/healthz" in line)


REPO = os.path.join(os.path.dirname(__file__), "..", "..")


def test_the_configuration_table_is_every_serve_option_with_its_variable_and_the_helps_default(filtercast_bin):
    """docs/CONFIGURATION.md lists every option `serve --help` shows (and no other), each with its
    variable, and the default the help states is the one the table states first."""
    table = open(os.path.join(REPO, "docs", "CONFIGURATION.md"), encoding="utf-8").read()
    rows = {flag: (variable, default) for flag, variable, default in
            re.findall(r"^\| `(--[a-z0-9-]+)[^|]*\| `(FILTERCAST_[A-Z0-9_]+)`[^|]*\| ([^|\n]*)", table, re.MULTILINE)}
    result = subprocess.run([filtercast_bin, "serve", "--help"], capture_output=True, text=True, timeout=20,
                            env=child_environment())
    options, environment = result.stdout.split("\nOptions:\n")[1].split("\nEnvironment")
    helps = dict(re.findall(r"^  (--[a-z0-9-]+)[^\n]*?  +(\S[^\n]*)", options, re.MULTILINE))
    variables = dict(re.findall(r"^  (--[a-z0-9-]+)[^\n]*?  +(FILTERCAST_\w+)", environment, re.MULTILINE))
    flags = set(helps) - {"--help"}
    assert len(flags) > 40 and set(variables) == flags, result.stdout
    assert sorted(flags - set(rows)) == [], "the table lacks these options"
    assert sorted(set(rows) - flags) == [], "the table lists options serve does not have"
    assert [flag for flag in flags if rows[flag][0] != variables[flag]] == [], "wrong variable names"
    differ = []
    for flag in sorted(flags):
        said = re.search(r"\(default:? ([^\s;,)]+)", helps[flag])
        first = re.match(r"\s*`([^`]+)`", rows[flag][1])
        if said and first and said.group(1).rstrip(":.") != first.group(1):
            differ.append((flag, said.group(1), first.group(1)))
    compared = [flag for flag in flags if re.search(r"\(default", helps[flag]) and re.match(r"\s*`", rows[flag][1])]
    assert differ == [] and len(compared) >= 20, f"the help's default is not the table's ({len(compared)} compared)"


def test_the_readme_names_every_target_of_the_package():
    package = open(os.path.join(REPO, "Package.swift"), encoding="utf-8").read()
    targets = set(re.findall(r'\.(?:target|systemLibrary|executableTarget)\(\s*name: "([A-Za-z]+)"', package))
    readme = open(os.path.join(REPO, "README.md"), encoding="utf-8").read()
    table = readme[readme.index("| target | job |"):]
    assert targets and sorted(t for t in targets if f"`{t}`" not in table) == []


IDENTITY_CUBE = b"LUT_3D_SIZE 2\n0 0 0\n1 0 0\n0 1 0\n1 1 0\n0 0 1\n1 0 1\n0 1 1\n1 1 1\n"


def test_one_data_folder_takes_uploads_on_a_plain_server_and_is_made_when_first_written(start_server, tmp_path):
    """A server given no folder option keeps what it writes in the data folder (--data), says where,
    and makes each part only when it writes there: a LUT can be uploaded on any server."""
    data = tmp_path / "data"
    server = start_server("--input", "test:160x120@15", "--data", str(data))
    assert server.data == str(data), server.stdout_lines
    assert not data.exists(), "starting writes nothing"
    stored = server.http("PUT", "/api/luts/warm", body=IDENTITY_CUBE)
    assert stored.status == 201, stored.text()
    assert (data / "luts" / "warm.cube").read_bytes() == IDENTITY_CUBE
    assert "lut" in [f["name"] for f in json.loads(server.get("/api/filters").body)["filters"]]
    assert sorted(os.listdir(data)) == ["luts"], "the other parts wait for their first write"


def test_the_data_folder_defaults_to_xdg_data_home_then_home(start_server, tmp_path):
    """FILTERCAST_DATA and XDG_DATA_HOME and HOME, in that order, never the working folder."""
    by_xdg = start_server("--input", "test:160x120@15", env={"FILTERCAST_DATA": None, "XDG_DATA_HOME": str(tmp_path / "xdg")})
    by_home = start_server("--input", "test:160x120@15",
                           env={"FILTERCAST_DATA": None, "XDG_DATA_HOME": None, "HOME": str(tmp_path / "home")})
    assert by_xdg.data == f"{tmp_path / 'xdg'}/filtercast", by_xdg.stdout_lines
    assert by_home.data == f"{tmp_path / 'home'}/.local/share/filtercast", by_home.stdout_lines
