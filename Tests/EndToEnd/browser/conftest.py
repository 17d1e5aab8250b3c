"""Fixtures for the real-browser tests of the viewer page (web/): headless Chromium driven by
Selenium against a real `filtercast serve`.

Run: `/usr/bin/python3 -m pytest Tests/EndToEnd/browser` (Debian packages: chromium,
chromium-driver, python3-selenium, python3-pytest, python3-pil, python3-numpy, ffmpeg).

Environment
- FILTERCAST_BIN: the binary (default: .build/debug/filtercast of this checkout).
- FILTERCAST_ARTIFACTS: where screenshots go (default: a folder in the system tmp dir).
- FILTERCAST_UPDATE_DOCS_SCREENSHOT=1: also write docs/screenshot-sepia.png.
- FILTERCAST_REQUIRE_BROWSER=1: fail instead of skipping when Chromium/chromedriver are missing.

Fixtures
- `launch` (function): `launch(*args, port=0, cwd=None) -> PageServer`, a server with the real
  web/ folder (recordings and looks in the test's tmp folder unless `--recordings`/`--looks` is given); every server
  is stopped at teardown.
- `file_server` / `live_server` (function): the test clip (seekable) / the live test pattern.
- `open_page` (function): `open_page(server, second=False, transport="jpeg-full") -> Page`: loads
  the page in the (first or second) shared browser and waits for drawn frames. The filter and
  page tests measure pixels, so by default they pin the full-size JPEG rendition
  (`?rendition=jpeg-360p`); `transport=None` loads the page as a user would (auto: H.264 here),
  `"h264"` or `"jpeg"` asks for that transport (the server adapting the size). At teardown every page opened in the test
  is checked for JavaScript errors (window.onerror, unhandled rejections, console.error, and the
  browser's SEVERE console entries); any error fails the test.
- `artifacts` (session): the screenshot folder.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pytest

from fc_server import make_clip
from browser_support import (CLIP_FILTER, CLIP_SECONDS, BrowserPool, Page, PageServer, DEFAULT_BINARY,
                             reset_browser)


@pytest.fixture(scope="session")
def fc_binary() -> str:
    path = os.environ.get("FILTERCAST_BIN", str(DEFAULT_BINARY))
    if not os.access(path, os.X_OK):
        pytest.fail(f"no filtercast binary at {path}: build it (swift build) or set FILTERCAST_BIN")
    return path


@pytest.fixture(scope="session")
def test_clip(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("browser-clip") / "mandelbrot-640x360-30fps.mp4"
    return make_clip(path, "mandelbrot=size=640x360:rate=30", CLIP_SECONDS, "-vf", CLIP_FILTER,
                     "-preset", "veryfast", "-g", "15")


@pytest.fixture
def launch(fc_binary, tmp_path):
    servers: list[PageServer] = []

    def start(*args: str, port: int = 0, cwd: Path | None = None, env: dict | None = None) -> PageServer:
        # What the server writes (recordings/, looks/, …) goes to the test's own folder unless the test names one.
        data = [] if "--data" in args else ["--data", str(tmp_path)]
        server = PageServer(fc_binary, [*data, *args], tmp_path / f"filtercast-{len(servers)}.log", cwd, env=env)
        servers.append(server)
        return server.start(port=port)

    yield start
    for server in servers:
        server.stop()


@pytest.fixture
def file_server(launch, test_clip) -> PageServer:
    # Started in the clip's folder, so that the page shows a short source name.
    return launch("--input", test_clip.name, cwd=test_clip.parent)


@pytest.fixture
def live_server(launch) -> PageServer:
    return launch("--input", "test:640x360@30")


@pytest.fixture(scope="session")
def browsers():
    pool = BrowserPool()
    yield pool
    pool.close()


@pytest.fixture(scope="session")
def artifacts() -> Path:
    folder = Path(os.environ.get("FILTERCAST_ARTIFACTS") or Path(tempfile.gettempdir()) / "filtercast-browser-artifacts")
    folder.mkdir(parents=True, exist_ok=True)
    return folder


@pytest.fixture
def open_page(browsers):
    pages: list[Page] = []

    def open_(server: PageServer, second: bool = False, wait: bool = True, path: str = "",
              transport: str | None = "jpeg-full") -> Page:
        driver = browsers.get(1 if second else 0)
        reset_browser(driver)
        page = Page(driver, server)
        pages.append(page)
        # The pixel tests pin the full-size JPEG (a loaded machine must not move them to a smaller
        # one); a stand-in server without renditions (no `height`) gets the page's defaults.
        height = getattr(server, "height", None)
        if transport == "jpeg-full":
            query = f"rendition=jpeg-{height}p" if height else None
        else:
            query = transport and f"transport={transport}"
        if query:
            path += ("&" if "?" in path else "?") + query
        driver.get(server.url + path)
        if wait:
            page.wait_for(lambda: (s := page.stats()) and s["connected"] and s["framesDrawn"] > 0, 15,
                          "the page to connect and draw a frame")
        return page

    yield open_

    problems = []
    for page in pages:
        errors = page.errors()
        if errors:
            problems.append(f"JavaScript errors on {page.server.url}:\n  " + "\n  ".join(errors))
    for page in pages:
        try:
            reset_browser(page.driver)
        except Exception:  # noqa: BLE001
            pass
    if problems:
        pytest.fail("\n".join(problems), pytrace=False)
