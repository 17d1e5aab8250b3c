"""Shared fixtures for the end-to-end tests: a real `filtercast serve --port 0`, a small web root
and a short seekable clip.

Fixtures
- `filtercast_bin` (session): the binary ($FILTERCAST_BIN, default .build/debug/filtercast).
- `web_root` (session): a tmp folder with index.html, app.js, style.css, sub/index.html,
  a hidden .secret, and symlinks (leak.txt, leakdir) that point outside it; `web_root.outside`
  is the folder they point to and `web_root.secret` the marker text of the files outside.
- `sample_clip` (session): a 4 s, 25 fps, 320x240 H.264 MP4 made with the ffmpeg CLI.
- `start_server` (function): a factory `start_server(*args, web=None, env=None) -> ServerProcess`
  (`env`: extra environment variables; inherited FILTERCAST_* ones are dropped); each
  server is started with `--port 0 --web <web_root>` (and `--recordings <tmp_path>/recordings`, `--looks <tmp_path>/looks`
  unless the test gives its own) and stopped with SIGTERM at teardown, which
  asserts exit code 0 within TEARDOWN_STOP_SECONDS.
- `server` (function): `start_server("--input", "test:320x240@30")`.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

sys.path.insert(0, os.path.dirname(__file__))

from fc_server import TEARDOWN_STOP_SECONDS, ServerProcess, binary_path, make_clip  # noqa: E402

TEST_PATTERN = "test:320x240@30"


def pytest_configure(config):
    # `make test` runs the end-to-end tests two at a time (most of them wait on sockets, the clock
    # or the browser), then the `solo` ones alone: they measure rates, latencies or sound sync,
    # which a second test sharing the two cores would skew.
    config.addinivalue_line("markers", "solo: measures a rate, a latency or sync: runs alone, after the others")
    # Slow checks beside a shorter one of the same kind that `make test` keeps (a second shaped
    # link, more sound formats, long scenarios): `make bench-serve` runs them, `make test` does not.
    config.addinivalue_line("markers", "bench: a slow check that make bench-serve runs and make test does not")
SECRET = "TOP-SECRET-OUTSIDE-THE-WEB-ROOT"


@pytest.fixture(scope="session")
def filtercast_bin() -> str:
    path = binary_path()
    if not os.access(path, os.X_OK):
        pytest.fail(f"no filtercast binary at {path}: build it (swift build) or set FILTERCAST_BIN")
    return path


class WebRoot(type(Path())):
    outside: Path
    secret: str


@pytest.fixture(scope="session")
def web_root(tmp_path_factory) -> Path:
    base = tmp_path_factory.mktemp("webroot")
    root = base / "web"
    outside = base / "outside"
    (root / "sub").mkdir(parents=True)
    outside.mkdir()
    (root / "index.html").write_text("<!doctype html><title>FilterCast e2e</title><p>E2E-INDEX</p>\n")
    (root / "app.js").write_text("console.log('E2E-APP');\n")
    (root / "style.css").write_text("body { color: black; } /* E2E-STYLE */\n")
    (root / "sub" / "index.html").write_text("<!doctype html><p>E2E-SUB-INDEX</p>\n")
    (root / "sub" / "notes.txt").write_text("E2E-SUB-NOTES\n")
    (root / ".secret").write_text(SECRET + " hidden\n")
    (outside / "secret.txt").write_text(SECRET + " file\n")
    (root / "leak.txt").symlink_to(outside / "secret.txt")
    (root / "leakdir").symlink_to(outside, target_is_directory=True)
    # A symlink that stays inside the root is fine to serve.
    (root / "inside-link.css").symlink_to(root / "style.css")
    result = WebRoot(root)
    result.outside = outside
    result.secret = SECRET
    return result


@pytest.fixture(scope="session")
def sample_clip(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("clips") / "clip-4s-25fps-320x240.mp4"
    return make_clip(path, "testsrc2=size=320x240:rate=25", 4, "-g", "25")


@pytest.fixture
def start_server(filtercast_bin, web_root, tmp_path):
    started: list[ServerProcess] = []

    def start(*args: str, web: str | os.PathLike | None = None, env: dict | None = None) -> ServerProcess:
        log = tmp_path / f"filtercast-{len(started)}.log"
        # What the server writes (recordings/, looks/, …) goes to the test's own folder unless the test names one.
        data = [] if "--data" in args or "FILTERCAST_DATA" in (env or {}) else ["--data", str(tmp_path)]
        server = ServerProcess(filtercast_bin, ["--web", str(web or web_root), *data, *args],
                               str(log), env=env or {})
        started.append(server)
        return server.start()

    yield start

    problems = []
    for server in started:
        if server.proc is None:
            continue
        was_running = server.running
        code, seconds = server.stop(timeout=TEARDOWN_STOP_SECONDS)
        if was_running and code != 0:
            problems.append(f"{server.args}: SIGTERM gave exit code {code} after {seconds:.2f} s "
                            f"(want 0 within {TEARDOWN_STOP_SECONDS} s; None: killed); "
                            f"stderr:\n{server.stderr_text()}")
    assert not problems, "\n".join(problems)


@pytest.fixture
def server(start_server) -> ServerProcess:
    return start_server("--input", TEST_PATTERN)
