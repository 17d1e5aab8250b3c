"""The filter picker with a large catalog (30 filters in every category), in a real browser
against a small fake server: the page's own files from web/ and a WebSocket that speaks enough
of protocol v1 (hello, state, ack, one frame) and records the commands it receives.

From a 320 px phone to a desktop: the filters are grouped under a heading per category, "None"
first and always in sight, every button can be scrolled to and clicked (and sends `setFilter`
with its name), the page never scrolls sideways, and the current filter is highlighted and
scrolled into view when another viewer picks it."""

from __future__ import annotations

import asyncio
import io
import json
import mimetypes
import math
import struct
import threading
import time
from http import HTTPStatus

import pytest

from browser_support import WEB

CATEGORIES = ["colorAdjustment", "colorEffect", "blur", "sharpen", "stylize", "distortion"]
TITLES = {"colorAdjustment": "Color adjustment", "colorEffect": "Color effects", "blur": "Blur",
          "sharpen": "Sharpen", "stylize": "Stylize", "distortion": "Distortion"}


def param(name: str, label: str, kind: str = "number", default: float = 0.5, low: float = 0, high: float = 1,
          step: float = 0.01) -> dict:
    return {"name": name, "label": label, "type": kind, "default": default, "min": low, "max": high,
            "sliderMin": low, "sliderMax": high, "step": step, "identity": None}


def make_catalog() -> list[dict]:
    """30 filters with 0–3 parameters. Listed by category, except `tiltShiftBlur` at the end (the
    page groups it with the other blurs) and "none" second (the page puts it first)."""
    entries = [
        ("colorControls", "Color Controls", "colorAdjustment", 3), ("hueAdjust", "Hue", "colorAdjustment", 1),
        ("exposure", "Exposure", "colorAdjustment", 1), ("gamma", "Gamma", "colorAdjustment", 1),
        ("vibrance", "Vibrance", "colorAdjustment", 1), ("temperature", "Temperature & Tint", "colorAdjustment", 2),
        ("sepia", "Sepia", "colorEffect", 1), ("mono", "Mono", "colorEffect", 0), ("noir", "Noir", "colorEffect", 0),
        ("invert", "Invert", "colorEffect", 0), ("monochrome", "Monochrome", "colorEffect", 2),
        ("posterize", "Posterize", "colorEffect", 1), ("thermal", "Thermal", "colorEffect", 0),
        ("falseColor", "False Color", "colorEffect", 2), ("photoEffectInstant", "Photo Effect: Instant", "colorEffect", 0),
        ("gaussianBlur", "Gaussian Blur", "blur", 1), ("boxBlur", "Box Blur", "blur", 1),
        ("motionBlur", "Motion Blur", "blur", 2),
        ("sharpen", "Sharpen Luminance", "sharpen", 2), ("unsharpMask", "Unsharp Mask", "sharpen", 2),
        ("pixellate", "Pixellate", "stylize", 1), ("hexagonalPixellate", "Hexagonal Pixellate", "stylize", 1),
        ("crystallize", "Crystallize", "stylize", 1), ("comic", "Comic", "stylize", 2),
        ("edges", "Edges", "stylize", 1), ("bloom", "Bloom", "stylize", 2), ("vignette", "Vignette", "stylize", 2),
        ("twirl", "Twirl Distortion", "distortion", 3), ("kaleidoscope", "Kaleidoscope", "distortion", 3),
        ("tiltShiftBlur", "Tilt Shift Blur", "blur", 3),
    ]
    kinds = ["number", "integer", "angle"]
    catalog = []
    for name, label, category, count in entries:
        params = []
        for index in range(count):
            kind = kinds[index % 3]
            if kind == "integer":
                params.append(param(f"count{index}", f"Count {index + 1}", kind, 6, 2, 30, 1))
            elif kind == "angle":
                params.append(param(f"angle{index}", "Angle", kind, 0, -math.pi, math.pi, 0.01))
            else:
                params.append(param(f"amount{index}", "Amount" if index == 0 else f"Amount {index + 1}"))
        catalog.append({"name": name, "label": label, "category": category, "params": params})
    catalog.insert(1, {"name": "none", "label": "None", "category": "none", "params": []})
    return catalog


CATALOG = make_catalog()
BY_NAME = {entry["name"]: entry for entry in CATALOG}
# The picker's order: "none", then by category in order of first appearance, catalog order within.
PICKER_ORDER = ["none"] + [f["name"] for category in CATEGORIES for f in CATALOG if f["category"] == category]


def jpeg_frame(width: int = 640, height: int = 360) -> bytes:
    """A colourful gradient as JPEG, so that the screenshots show a picture."""
    from PIL import Image
    import numpy as np

    x = np.linspace(0, 1, width)[None, :]
    y = np.linspace(0, 1, height)[:, None]
    rgb = np.stack([np.broadcast_to(80 + 150 * x, (height, width)),
                    100 + 100 * np.sin(6 * x + 3 * y) ** 2,
                    np.broadcast_to(200 - 120 * y, (height, width))], axis=-1)
    buffer = io.BytesIO()
    Image.fromarray(rgb.clip(0, 255).astype(np.uint8)).save(buffer, "JPEG", quality=85)
    return buffer.getvalue()


class FakeServer:
    """web/ over HTTP and protocol v1 on /ws, on one port, in a thread with its own event loop."""

    def __init__(self):
        self.received: list[dict] = []
        self.clients: set = set()
        self.state = {
            "source": {"kind": "file", "name": "fake-clip.mp4", "seekable": True, "width": 640, "height": 360,
                       "fps": 30},
            "playing": True, "position": 3.0, "duration": 60.0,
            "filter": {"name": "none", "params": {}}, "viewers": 0, "fps": 30.0,
        }
        self.frame = jpeg_frame()
        self.port = 0
        self.host = "127.0.0.1"
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.ready = threading.Event()
        self.stopping: asyncio.Future | None = None
        self.log: list[str] = []

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}/"

    def log_tail(self, size: int = 3000) -> str:
        return "\n".join(self.log)[-size:]

    # -- lifecycle ------------------------------------------------------------------------------

    def start(self) -> "FakeServer":
        self.thread.start()
        if not self.ready.wait(10):
            raise RuntimeError("the fake server did not start")
        return self

    def stop(self):
        if self.stopping is not None:
            self.loop.call_soon_threadsafe(self.stopping.set_result, None)
        self.thread.join(10)

    def _run(self):
        asyncio.set_event_loop(self.loop)
        self.loop.run_until_complete(self._serve())
        self.loop.close()

    async def _serve(self):
        import websockets

        self.stopping = self.loop.create_future()
        async with websockets.serve(self._session, self.host, 0, process_request=self._static,
                                    subprotocols=["filtercast.v1"]) as server:
            self.port = next(iter(server.sockets)).getsockname()[1]
            self.ready.set()
            await self.stopping

    # -- HTTP -----------------------------------------------------------------------------------

    async def _static(self, path: str, headers):
        path = path.split("?", 1)[0]
        if path == "/ws":
            return None  # the WebSocket handshake goes on
        if path == "/api/recordings":
            return HTTPStatus.OK, [("Content-Type", "application/json")], b'{"recordings":[]}'
        if path == "/api/thumbnails":  # the seek bar's: still being made, as a server says for a new file
            return HTTPStatus.ACCEPTED, [("Content-Type", "text/plain"), ("Retry-After", "60")], b"being made\n"
        name = "index.html" if path == "/" else path.lstrip("/")
        file = (WEB / name).resolve()
        if WEB.resolve() not in file.parents or not file.is_file():
            self.log.append(f"404 {path}")
            return HTTPStatus.NOT_FOUND, [("Content-Type", "text/plain")], b"not found\n"
        kind = mimetypes.guess_type(file.name)[0] or "application/octet-stream"
        if kind.startswith("text/") or kind.endswith("javascript"):
            kind += "; charset=utf-8"
        return HTTPStatus.OK, [("Content-Type", kind), ("Cache-Control", "no-store"),
                               ("Content-Security-Policy", "default-src 'self'; img-src 'self' data:")], \
            file.read_bytes()

    # -- WebSocket ------------------------------------------------------------------------------

    def state_message(self) -> str:
        return json.dumps({"type": "state", **self.state, "viewers": len(self.clients)})

    async def broadcast(self):
        message = self.state_message()
        for client in list(self.clients):
            try:
                await client.send(message)
            except Exception:  # noqa: BLE001 — a client that went away
                pass

    async def _session(self, websocket, path=None):
        self.clients.add(websocket)
        try:
            await websocket.send(json.dumps({"type": "hello", "version": 1, "server": "fake/0",
                                             "filters": CATALOG, "state": {**self.state,
                                                                           "viewers": len(self.clients)}}))
            now_us = int(time.time() * 1e6)
            header = struct.pack("<IHHQqq", 0x31464346, 32, 0, 1, int(self.state["position"] * 1e6), now_us)
            await websocket.send(header + self.frame)
            async for text in websocket:
                if not isinstance(text, str):
                    continue
                message = json.loads(text)
                if message.get("type") == "frameAck":
                    continue
                self.received.append(message)
                await self._command(websocket, message)
        finally:
            self.clients.discard(websocket)

    async def _command(self, websocket, message: dict):
        kind = message.get("type")
        if kind == "setFilter":
            descriptor = BY_NAME.get(message.get("name"))
            if descriptor is None:
                await websocket.send(json.dumps({"type": "error", "code": "unknown_filter",
                                                 "message": f"no filter {message.get('name')}"}))
                return
            self.state["filter"] = {"name": descriptor["name"],
                                    "params": {p["name"]: p["default"] for p in descriptor["params"]}}
        elif kind == "setParams":
            self.state["filter"]["params"].update(message.get("params", {}))
        elif kind in ("play", "pause"):
            self.state["playing"] = kind == "play"
        elif kind == "seek":
            self.state["position"] = float(message.get("position", 0))
        if "id" in message:
            await websocket.send(json.dumps({"type": "ack", "id": message["id"]}))
        await self.broadcast()

    def set_filter_from_elsewhere(self, name: str):
        """As if another viewer had picked `name`."""
        descriptor = BY_NAME[name]
        self.state["filter"] = {"name": name, "params": {p["name"]: p["default"] for p in descriptor["params"]}}
        asyncio.run_coroutine_threadsafe(self.broadcast(), self.loop).result(5)


@pytest.fixture
def fake_server():
    server = FakeServer().start()
    yield server
    server.stop()


def emulate(page, width: int, height: int, mobile: bool):
    page.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                                {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile})
    page.wait_for(lambda: page.js("return window.innerWidth") == width, message=f"a {width} px viewport")


def open_fake(open_page, server: FakeServer):
    page = open_page(server, wait=False)
    page.wait_for(lambda: (s := page.stats()) and s["connected"] and s["framesDrawn"] > 0, 10,
                  "the page to connect to the fake server and draw its frame")
    return page


def horizontal_overflow(page) -> float:
    return page.js("return document.documentElement.scrollWidth - window.innerWidth")


@pytest.mark.parametrize("width,height,mobile", [(320, 640, True), (1280, 900, False)])
def test_every_filter_can_be_reached_and_clicked(fake_server, open_page, width, height, mobile):
    page = open_fake(open_page, fake_server)
    emulate(page, width, height, mobile)
    assert horizontal_overflow(page) <= 0, f"horizontal scrolling at {width} px"

    buttons = page.find_all("#filters [data-filter]")
    assert [b.get_attribute("data-filter") for b in buttons] == PICKER_ORDER
    assert page.js("return window.filtercast.filters.map(f => f.name)") == PICKER_ORDER

    for name in PICKER_ORDER[1:] + ["none"]:
        label = BY_NAME[name]["label"]
        # Scrolled into sight (the picker box, then the page), the button is on screen, whole, and
        # the topmost element at its centre: a click lands on it.
        box = page.js("""
            const b = document.querySelector(`[data-filter="${arguments[0]}"]`);
            b.scrollIntoView({block: 'nearest', inline: 'nearest'});
            const r = b.getBoundingClientRect();
            const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
            const scroller = b.closest('.filter-groups');
            const s = scroller ? scroller.getBoundingClientRect() : {top: -1e9, bottom: 1e9};
            return [r.left, r.right, r.top, r.bottom, hit === b || b.contains(hit), s.top, s.bottom, b.scrollWidth > b.clientWidth];
        """, name)
        left, right, top, bottom, on_top, box_top, box_bottom, truncated = box
        assert left >= -0.5 and right <= width + 0.5, f"{name} sticks out at {width} px: {left}…{right}"
        assert top >= -0.5 and bottom <= height + 0.5, f"{name} is off screen at {width} px: {top}…{bottom}"
        assert top >= box_top - 0.5 and bottom <= box_bottom + 0.5, f"{name} is cut by the picker's box"
        assert on_top, f"{name} is covered at {width} px"
        assert not truncated, f"the label of {name} is cut at {width} px"
        count = len(fake_server.received)
        page.find(f'[data-filter="{name}"]').click()
        page.wait_for(lambda: len(fake_server.received) > count, 5, f"a command after clicking {name}")
        assert fake_server.received[count:] == [{"type": "setFilter", "name": name}]
        # What the page shows once the button is highlighted, read in one call per poll.
        shown = page.wait_for(lambda: (s := page.js("""
            const b = document.querySelector(`[data-filter="${arguments[0]}"]`);
            return b.getAttribute('aria-pressed') === 'true' && {
                pressed: [...document.querySelectorAll('#filters [aria-pressed="true"]')].map(b => b.dataset.filter),
                sliders: [...document.querySelectorAll('#params input[data-param]')].map(s => s.dataset.param),
                current: document.getElementById('current-filter').textContent,
                overflow: document.documentElement.scrollWidth - window.innerWidth};""", name)) and s,
            5, f"{name} highlighted")
        assert shown["pressed"] == [name]
        assert shown["sliders"] == [p["name"] for p in BY_NAME[name]["params"]]
        assert shown["current"] == label
        assert shown["overflow"] <= 0, f"horizontal scrolling at {width} px with {name}"


@pytest.mark.parametrize("width", [320, 390, 768, 1280])
def test_grouped_by_category_with_none_first(fake_server, open_page, width):
    page = open_fake(open_page, fake_server)
    emulate(page, width, 800, width < 960)
    assert horizontal_overflow(page) <= 0
    groups = page.js("""
        return [...document.querySelectorAll('#filters .filter-group')].map(g => [
          g.querySelector('.filter-group-title').textContent,
          [...g.querySelectorAll('[data-filter]')].map(b => b.dataset.filter),
          g.querySelector('[role=group]').getAttribute('aria-labelledby') === g.querySelector('h3').id,
        ]);""")
    assert [title for title, _, _ in groups] == [TITLES[c] for c in CATEGORIES]
    for (title, names, labelled), category in zip(groups, CATEGORIES):
        assert names == [f["name"] for f in CATALOG if f["category"] == category], title
        assert labelled, f"the {title} group is not labelled by its heading"
    # "None" is outside the scrolling box: still in sight with the box scrolled to its end.
    assert page.js("return document.querySelector('[data-filter=\"none\"]').closest('.filter-groups')") is None
    page.js("const s = document.querySelector('.filter-groups'); s.scrollTop = s.scrollHeight;"
            "document.querySelector('#filters').scrollIntoView({block: 'start'})")
    assert page.visible('[data-filter="none"]')
    # Within a pixel: scrollIntoView leaves a fraction of one where the layout above has fractional heights.
    assert page.js("""const r = document.querySelector('[data-filter="none"]').getBoundingClientRect();
                      return r.top >= -1 && r.bottom <= innerHeight + 1""")
    # Labels and touch-friendly sizes.
    for name, aria, tall in page.js("""return [...document.querySelectorAll('[data-filter]')].map(b =>
            [b.dataset.filter, b.getAttribute('aria-label'), b.getBoundingClientRect().height])"""):
        assert aria == f"Filter: {BY_NAME[name]['label']}"
        assert tall >= 36, f"{name} is too small to tap at {width} px ({tall} px)"
    # The sliders stay near: the picker box is shorter than the viewport.
    box_height = page.js("return document.querySelector('.filter-groups').getBoundingClientRect().height")
    assert box_height <= 0.6 * 800, box_height


# On a phone the picker is one row that scrolls sideways (test_layout.py); beside the picture, a
# box that scrolls down.
@pytest.mark.parametrize("width,height,mobile,scroller,sideways", [(390, 844, True, "#filters", True),
                                                                    (1280, 600, False, ".filter-groups", False)])
def test_current_filter_is_scrolled_into_view(fake_server, open_page, width, height, mobile, scroller, sideways):
    page = open_fake(open_page, fake_server)
    emulate(page, width, height, mobile)
    page.js("window.scrollTo(0, 0)")
    assert page.js("""const s = document.querySelector(arguments[0]);
                      return arguments[1] ? s.scrollWidth > s.clientWidth : s.scrollHeight > s.clientHeight""",
                   scroller, sideways), f"30 filters should need the picker to scroll at {width} px"
    page_scroll = page.js("return window.scrollY")
    for name in ("kaleidoscope", "colorControls", "unsharpMask"):
        fake_server.set_filter_from_elsewhere(name)
        page.wait_for(lambda: page.find(f'[data-filter="{name}"]').get_attribute("aria-pressed") == "true", 5,
                      f"{name} highlighted")
        inside = page.js("""
            const b = document.querySelector(`[data-filter="${arguments[0]}"]`);
            const s = document.querySelector(arguments[1]).getBoundingClientRect(), r = b.getBoundingClientRect();
            return arguments[2] ? r.left >= s.left - 0.5 && r.right <= s.right + 0.5
                                : r.top >= s.top - 0.5 && r.bottom <= s.bottom + 0.5;""", name, scroller, sideways)
        assert inside, f"{name} was not scrolled into the picker's view"
        assert page.js("return window.scrollY") == page_scroll, "the page itself must not jump"
        assert page.text("#current-filter") == BY_NAME[name]["label"]
    # Polled: the chip's background fades in over 120 ms (style.css), from the unpressed colour.
    page.wait_for(lambda: page.js("""const b = document.querySelector('[data-filter="unsharpMask"]'),
                                         o = document.querySelector('[data-filter="none"]');
                                   return getComputedStyle(b).backgroundColor !== getComputedStyle(o).backgroundColor"""),
                  2, "the current filter looking different")


def test_keyboard_reaches_the_filters(fake_server, open_page):
    from selenium.webdriver.common.keys import Keys

    from browser_support import press

    page = open_fake(open_page, fake_server)
    page.js("document.activeElement && document.activeElement.blur(); window.scrollTo(0, 0)")
    reached = []
    for _ in range(30):  # the header's and the transport's controls come first
        press(page, Keys.TAB)
        name = page.js("return document.activeElement.dataset.filter || null")
        if name:
            reached.append(name)
        if len(reached) == 3:
            break
    assert reached == PICKER_ORDER[:3]
    count = len(fake_server.received)
    press(page, Keys.ENTER)
    page.wait_for(lambda: len(fake_server.received) > count, 5, "setFilter after Enter")
    assert fake_server.received[count:] == [{"type": "setFilter", "name": PICKER_ORDER[2]}]
    assert page.js("return document.activeElement.matches(':focus-visible')")


@pytest.mark.parametrize("width,height,mobile", [(390, 844, True), (1280, 900, False)])
def test_screenshots(fake_server, open_page, artifacts, width, height, mobile):
    page = open_fake(open_page, fake_server)
    emulate(page, width, height, mobile)
    page.find('[data-filter="hexagonalPixellate"]').click()
    page.wait_for(lambda: page.find('[data-filter="hexagonalPixellate"]').get_attribute("aria-pressed") == "true",
                  5, "the filter highlighted")
    if mobile:
        page.js("document.querySelector('.panel').scrollIntoView({block: 'start'})")
    time.sleep(0.6)  # colour transitions done, the status line updated
    page.screenshot(artifacts / f"large-catalog-{width}.png")
