"""What the real-browser tests of the viewer page share: the server process, headless Chromium,
the `Page` helper (JavaScript, waiting, pixels, errors) and the drag/throttle helpers.
The fixtures that use them are in conftest.py."""

from __future__ import annotations

import base64
import json
import os
import re
import select
import signal
import subprocess
import time
from pathlib import Path

import numpy as np
import pytest

from fc_server import child_environment  # Tests/EndToEnd is on sys.path (its conftest.py)

os.environ["NO_PROXY"] = os.environ["no_proxy"] = "*"

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[2]
WEB = REPO / "web"
DEFAULT_BINARY = REPO / ".build" / "debug" / "filtercast"
CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
READY = re.compile(r"filtercast: serving (?P<name>.+) \((?P<width>\d+)x(?P<height>\d+)\) "
                   r"at (?P<scheme>https?)://(?P<host>[^:/]+):(?P<port>\d+)/")

# The clip: a moving Mandelbrot zoom (texture, edges, smooth gradients) over a band of three greys
# (rows 304…359), 640x360 at 30 fps, 12 s, a keyframe every half second (quick, exact seeks).
CLIP_SECONDS = 12
GREY_BAND_ROWS = (312, 352)
CLIP_FILTER = ",".join(f"drawbox=x={x}:y=304:w={w}:h=56:color={c}:t=fill"
                       for x, w, c in ((0, 214, "0x404040"), (214, 213, "0x808080"), (427, 213, "0xC0C0C0")))

# Injected before any page script: records JS errors and the commands the page sends.
INSTRUMENTATION = r"""
(() => {
  if (window.__fc) return;
  const fc = window.__fc = { errors: [], sent: [], socket: null, acks: 0, lastAck: null, lastHeldMs: null };
  const text = (value) => {
    if (value instanceof Error) return value.stack || String(value);
    try { return typeof value === "string" ? value : JSON.stringify(value); } catch { return String(value); }
  };
  window.addEventListener("error", (event) => {
    if (event.error || event.message) {
      fc.errors.push(`uncaught: ${event.message} (${event.filename}:${event.lineno})`);
    } else if (event.target && event.target !== window) {
      const target = event.target;
      fc.errors.push(`resource failed: <${target.tagName}> ${target.src || target.href || ""}`);
    }
  }, true);
  window.addEventListener("unhandledrejection", (event) => fc.errors.push(`unhandled rejection: ${text(event.reason)}`));
  const consoleError = console.error;
  console.error = function (...args) {
    fc.errors.push(`console.error: ${args.map(text).join(" ")}`);
    return consoleError.apply(this, args);
  };
  const send = WebSocket.prototype.send;
  WebSocket.prototype.send = function (data) {
    fc.socket = this;
    if (typeof data === "string" && data.includes('"frameAck"')) {
      fc.acks += 1;
      try { const ack = JSON.parse(data); fc.lastAck = ack.seq; fc.lastHeldMs = ack.heldMs; } catch {}
    } else {
      fc.sent.push({ t: performance.now(), data });
    }
    return send.call(this, data);
  };
})();
"""


def browser_available() -> bool:
    return os.access(CHROMIUM, os.X_OK) and os.access(CHROMEDRIVER, os.X_OK)


# ---- The server ------------------------------------------------------------------------------

class PageServer:
    """One `filtercast serve` with the real page; `port=0` picks a free port."""

    def __init__(self, binary: str, args: list[str], log_path: Path, cwd: Path | None = None,
                 style_warm_up: bool = False, env: dict | None = None):
        self.binary = binary
        self.env = env or {}  # beside child_environment()'s
        # Without `style_warm_up`, `--style-at-first-use`, as fc_server's ServerProcess.
        self.args = ([] if style_warm_up else ["--style-at-first-use"]) + list(args)
        self.log_path = log_path
        self.cwd = cwd
        self.proc: subprocess.Popen | None = None
        self.port = 0
        self.host = "127.0.0.1"
        self.scheme = "http"  # https with --tls-cert (from the ready line)
        self.height = 0  # the source's, from the ready line

    @property
    def url(self) -> str:
        return f"{self.scheme}://{self.host}:{self.port}/"

    def start(self, port: int = 0, timeout: float = 20.0) -> "PageServer":
        """Starts it; on a fixed port, retries for a few seconds while the port is still taken."""
        deadline = time.monotonic() + timeout
        while True:
            try:
                return self._start_once(port, deadline)
            except RuntimeError:
                if port == 0 or time.monotonic() > deadline - 1:
                    raise
                time.sleep(0.1)

    def _start_once(self, port: int, deadline: float) -> "PageServer":
        command = [self.binary, "serve", "--port", str(port), "--web", str(WEB), *self.args]
        log = open(self.log_path, "ab")
        self.proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=log, stdin=subprocess.DEVNULL,
                                     env={**child_environment(), **self.env}, cwd=self.cwd)
        log.close()
        buffer = b""
        while time.monotonic() < deadline:
            ready, _, _ = select.select([self.proc.stdout], [], [], 0.1)
            if ready:
                chunk = os.read(self.proc.stdout.fileno(), 4096)
                if not chunk:
                    break
                buffer += chunk
                match = READY.search(buffer.decode("utf-8", "replace"))
                if match:
                    self.host, self.port, self.scheme = match["host"], int(match["port"]), match["scheme"]
                    self.height = int(match["height"])
                    return self
            elif self.proc.poll() is not None:
                break
        self.kill()
        raise RuntimeError(f"filtercast did not start: {command}\nstdout: {buffer!r}\nlog:\n{self.log_tail()}")

    def stop(self, timeout: float = 3.0) -> int | None:
        """SIGTERM, then SIGKILL after `timeout`; the exit code (None when killed)."""
        if not self.proc or self.proc.poll() is not None:
            return self.proc.returncode if self.proc else None
        self.proc.send_signal(signal.SIGTERM)
        try:
            return self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.kill()
            return None
        finally:
            if self.proc.stdout:
                self.proc.stdout.close()

    def kill(self):
        if self.proc and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(timeout=5)

    def log_tail(self, size: int = 3000) -> str:
        try:
            return self.log_path.read_bytes().decode("utf-8", "replace")[-size:]
        except OSError:
            return ""


# ---- The browser -----------------------------------------------------------------------------

def make_driver(*extra_arguments: str):
    """Headless Chromium under chromedriver; `extra_arguments` are further Chromium switches."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--no-proxy-server",
                     "--window-size=1280,900", "--disable-extensions", "--mute-audio", "--no-first-run",
                     "--disable-background-timer-throttling", "--disable-renderer-backgrounding",
                     "--disable-backgrounding-occluded-windows", *extra_arguments):
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    driver.set_page_load_timeout(20)
    driver.set_script_timeout(20)
    driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": INSTRUMENTATION})
    return driver


class BrowserPool:
    """Up to two Chromium instances, started on first use and shared by the whole session (or
    by the tests that need `extra_arguments`, further Chromium switches)."""

    def __init__(self, *extra_arguments: str):
        self.drivers: list = []
        self.extra_arguments = extra_arguments

    def get(self, index: int):
        if not browser_available():
            message = f"needs {CHROMIUM} and {CHROMEDRIVER} (apt-get install chromium chromium-driver)"
            if os.environ.get("FILTERCAST_REQUIRE_BROWSER") == "1":
                pytest.fail(message)
            pytest.skip(message)
        while len(self.drivers) <= index:
            self.drivers.append(make_driver(*self.extra_arguments))
        return self.drivers[index]

    def close(self):
        for driver in self.drivers:
            try:
                driver.quit()
            except Exception:  # noqa: BLE001 — best effort at the end of the session
                pass


THUMBNAILS_NOT_FOUND = re.compile(r"/api/thumbnails(/[^\s?]+\.jpg)?(\?\S*)? - Failed to load resource: the server responded with a status of 404")


class Page:
    """The viewer page in one browser, with the helpers the tests use."""

    def __init__(self, driver, server: PageServer):
        self.driver = driver
        self.server = server
        # The protocol answers thumbnails (the listing, or its sprite) asked of a live source or of a
        # file no longer playing with a 404, which the page handles (no thumbnails) and Chromium logs:
        # the page asks only while a file plays, but the source can change between the state it read
        # and its request's arrival.
        # (test_seek_review checks that a live page never asks.)
        self.allowed_console: list[re.Pattern] = [THUMBNAILS_NOT_FOUND]
        self.console: list[dict] = []  # the browser's console entries, drained from the driver

    # -- JavaScript ----------------------------------------------------------------------------

    def js(self, script: str, *args):
        return self.driver.execute_script(script, *args)

    def stats(self) -> dict:
        return self.js("return window.filtercast ? Object.assign({}, window.filtercast.stats) : null")

    def state(self) -> dict | None:
        return self.js("return window.filtercast ? window.filtercast.state : null")

    def sent(self, kind: str | None = None) -> list[dict]:
        """Commands the page sent (frame acks left out), each with its performance.now() time `t`."""
        entries = self.js("return window.__fc ? window.__fc.sent.slice() : []")
        messages = []
        for entry in entries:
            message = json.loads(entry["data"])
            message["t"] = entry["t"]
            if kind is None or message.get("type") == kind:
                messages.append(message)
        return messages

    def raw_send(self, text: str):
        """Sends `text` on the page's own WebSocket, as if the page had sent it."""
        self.js("window.__fc.socket.send(arguments[0])", text)

    # -- waiting -------------------------------------------------------------------------------

    def wait_for(self, condition, timeout: float = 10.0, message="condition", interval: float = 0.05):
        """Polls `condition()` until it returns something truthy; returns that. `message` may be a
        callable (e.g. one that reads the page): it is called only when the wait times out, so that
        a DOM read for the report is neither made on every poll nor made outside the retry."""
        deadline = time.monotonic() + timeout
        last = None
        while True:
            try:
                last = condition()
            except Exception as error:  # noqa: BLE001 — keep polling through transient errors
                last = error
            else:
                if last:
                    return last
            if time.monotonic() > deadline:
                if callable(message):
                    try:
                        message = message()
                    except Exception as error:  # noqa: BLE001 — the report must not hide the timeout
                        message = f"<the message could not be read: {error!r}>"
                raise AssertionError(f"timed out after {timeout} s waiting for {message} (last: {last!r}); "
                                     f"stats: {self.safe_stats()}\nserver log:\n{self.server.log_tail(1500)}")
            time.sleep(interval)

    def safe_stats(self):
        try:
            return self.stats()
        except Exception as error:  # noqa: BLE001
            return f"<{error}>"

    def wait_frames(self, count: int = 1, timeout: float = 10.0) -> dict:
        start = self.stats()["framesDrawn"]
        return self.wait_for(lambda: (s := self.stats())["framesDrawn"] >= start + count and s,
                             timeout, f"{count} more drawn frames")

    def wait_state(self, predicate, timeout: float = 10.0, message: str = "state") -> dict:
        return self.wait_for(lambda: (s := self.state()) is not None and predicate(s) and s, timeout, message)

    def wait_still(self, quiet: float = 0.3, timeout: float = 10.0) -> dict:
        """Waits until no frame has been drawn for `quiet` seconds (after a pause, say)."""
        seen = {"frames": None, "since": time.monotonic()}

        def still():
            stats = self.stats()
            if stats["framesDrawn"] != seen["frames"]:
                seen["frames"], seen["since"] = stats["framesDrawn"], time.monotonic()
                return False
            return time.monotonic() - seen["since"] >= quiet and stats

        return self.wait_for(still, timeout, f"no new frame for {quiet} s")

    def wait_sent_settled(self, kind: str, quiet: float = 0.15, timeout: float = 5.0) -> list[dict]:
        """Waits until the page has sent no `kind` command for `quiet` seconds; returns them all."""
        seen = {"count": -1, "since": time.monotonic()}

        def settled():
            messages = self.sent(kind)
            if len(messages) != seen["count"]:
                seen["count"], seen["since"] = len(messages), time.monotonic()
                return None
            return time.monotonic() - seen["since"] >= quiet and (messages or [None])

        result = self.wait_for(settled, timeout, f"the page to stop sending {kind}")
        return [] if result == [None] else result

    def watch_control(self, css: str):
        """From now on keeps, in window.__lastInput, the value the control at `css` (a slider) had at
        its last `input` or `change` event: the value the user set last (see wait_sent_last)."""
        self.js("""const control = document.querySelector(arguments[0]);
                   window.__lastInput = null;
                   for (const type of ['input', 'change'])
                     control.addEventListener(type, () => { window.__lastInput = Number(control.value); });""", css)

    def wait_sent_last(self, kind: str, value_of, timeout: float = 5.0) -> list[dict]:
        """Waits until the last `kind` command the page sent carries, as `value_of(message)`, the value
        the watched control (watch_control) was last set to: the throttle's trailing send of the
        newest value has gone out, however late its timer ran. Returns all `kind` commands.
        (Settling on content: a quiet spell after the last send says nothing when the renderer
        stalls longer than the spell before the trailing send.)"""
        last = {"wanted": None, "sent": None}

        def arrived():
            last["wanted"] = self.js("return window.__lastInput")
            messages = self.sent(kind)
            last["sent"] = value_of(messages[-1]) if messages else None
            return last["wanted"] is not None and messages and last["sent"] == last["wanted"] and messages

        return self.wait_for(arrived, timeout,
                             lambda: f"the last {kind} to carry the control's last value {last['wanted']} "
                                     f"(last sent: {last['sent']})")

    def wait_pixels(self, check, timeout: float = 10.0, message: str = "the picture"):
        """Polls the canvas until `check(rgb)` is truthy; returns those pixels. `check` may return
        a falsy value with a description, e.g. `(False, "warm=0.2")`."""
        last = {"why": None}

        def ok():
            rgb = self.canvas_rgb()
            verdict = check(rgb)
            if isinstance(verdict, tuple):
                verdict, last["why"] = verdict
            return (rgb,) if verdict else None  # a tuple: an array has no truth value

        try:
            return self.wait_for(ok, timeout, message, interval=0.1)[0]
        except AssertionError as error:
            raise AssertionError(f"{error}\nlast measure: {last['why']}") from None

    def wait_new_frame_after(self, seq: int | None, timeout: float = 10.0) -> dict:
        """Waits for a drawn frame with a sequence number above `seq`."""
        return self.wait_for(lambda: (s := self.stats())["lastSeq"] is not None
                             and (seq is None or s["lastSeq"] > seq) and s, timeout, f"a frame after #{seq}")

    # -- DOM -----------------------------------------------------------------------------------

    def find(self, css: str):
        from selenium.webdriver.common.by import By
        return self.driver.find_element(By.CSS_SELECTOR, css)

    def find_all(self, css: str):
        from selenium.webdriver.common.by import By
        return self.driver.find_elements(By.CSS_SELECTOR, css)

    def click(self, css: str, timeout: float = 10.0):
        """Clicks what `css` names. A list redrawn between the find and the click (the library
        lists itself again when a recording ends or a source changes) is found again, as a user's
        click lands on the redrawn button."""
        def clicked():
            self.find(css).click()
            return True

        self.wait_for(clicked, timeout, f"a click on {css}")

    def arm_delete(self, item: str, timeout: float = 10.0) -> str:
        """Clicks `item`'s Delete once, so that it asks first; a redraw of the list before the armed
        button is seen disarms it, so it is armed again. Returns the armed button's text, read in
        one script (a found element may be redrawn away before its `.text`)."""
        confirm = item + ' [data-action="confirm-delete"]'

        def armed():
            text = self.text(confirm)
            if text is not None:
                return text
            self.find(item + ' [data-action="delete"]').click()
            return None

        return self.wait_for(armed, timeout, f"the delete of {item} armed")

    def delete_from_list(self, item: str, timeout: float = 10.0):
        """Deletes `item` with its Delete button's two clicks; a redraw between them disarms the
        button, so it is armed again."""
        def confirmed():
            armed = self.find_all(item + ' [data-action="confirm-delete"]')
            if armed:
                armed[0].click()
                return True
            self.find(item + ' [data-action="delete"]').click()
            return None

        self.wait_for(confirmed, timeout, f"deleting {item}")

    def text(self, css: str) -> str:
        return self.js("const e = document.querySelector(arguments[0]); return e ? e.textContent : null", css)

    def visible(self, css: str) -> bool:
        return self.js("""
            const e = document.querySelector(arguments[0]);
            if (!e) return false;
            const r = e.getBoundingClientRect(), s = getComputedStyle(e);
            return r.width > 0 && r.height > 0 && s.visibility !== 'hidden' && s.display !== 'none';
        """, css)

    def pause(self):
        """Pauses through the page's button and waits until the server says so."""
        if self.state()["playing"]:
            self.find("#play-pause").click()
        self.wait_state(lambda s: not s["playing"], message="paused")

    def choose_filter(self, name: str) -> dict:
        """Clicks the filter's button; waits for the server's state and a frame rendered after it."""
        seq = self.stats()["lastSeq"]
        self.find(f'[data-filter="{name}"]').click()
        self.wait_state(lambda s: s["filter"]["name"] == name, message=f"filter {name}")
        return self.wait_new_frame_after(seq)

    # -- pixels --------------------------------------------------------------------------------

    def canvas_rgb(self, canvas_id: str = "view"):
        """A canvas's pixels (#view's by default), as a height × width × 3 float array (read with getImageData)."""
        import numpy as np

        data = self.js("""
            const canvas = document.getElementById(arguments[0]);
            const image = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height);
            // Base64 of the RGBA bytes: much faster through WebDriver than a JSON array.
            const bytes = image.data;
            let binary = '';
            for (let i = 0; i < bytes.length; i += 0x8000) {
              binary += String.fromCharCode.apply(null, bytes.subarray(i, i + 0x8000));
            }
            return [canvas.width, canvas.height, btoa(binary)];
        """, canvas_id)
        width, height, encoded = data
        rgba = np.frombuffer(base64.b64decode(encoded), dtype=np.uint8).reshape(height, width, 4)
        return rgba[:, :, :3].astype(np.float64)

    def screenshot(self, path: Path):
        self.driver.save_screenshot(str(path))

    # -- errors --------------------------------------------------------------------------------

    def allow_console(self, pattern: str):
        """Console errors matching `pattern` do not fail the test (e.g. the failed connection
        attempts the browser logs while the server is down)."""
        self.allowed_console.append(re.compile(pattern))

    def console_log(self) -> list[dict]:
        """The browser's console entries so far (drained from the driver, kept for the teardown)."""
        self.console += self.driver.get_log("browser")
        return self.console

    def clear_errors(self):
        self.js("if (window.__fc) window.__fc.errors.length = 0")
        self.driver.get_log("browser")
        self.console = []

    def errors(self) -> list[str]:
        found = []
        try:
            found += self.js("return window.__fc ? window.__fc.errors.slice() : ['instrumentation missing']")
        except Exception as error:  # noqa: BLE001
            found.append(f"could not read the page's errors: {error}")
        for entry in self.console_log():
            if entry.get("level") == "SEVERE":
                found.append(f"console: {entry.get('message')}")
        return [error for error in found if not any(pattern.search(error) for pattern in self.allowed_console)]


def reset_browser(driver):
    """A blank page and an empty console log, so that nothing from the last test leaks in."""
    driver.get("about:blank")
    driver.get_log("browser")
    driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})


# ---- Pointer and keyboard helpers --------------------------------------------------------------

SEND_INTERVAL_MS = 50  # the page's throttle: ≤ 20 messages a second


def drag(page: Page, element, start: float, end: float, steps: int):
    """Presses `element` at `start` (0…1 of its width) and moves towards `end` in `steps` moves,
    30 ms apart, still holding the button at the end (see `release`)."""
    from selenium.webdriver.common.action_chains import ActionChains

    width = element.size["width"]
    actions = ActionChains(page.driver, duration=0)
    actions.move_to_element_with_offset(element, int(-width / 2 + width * start), 0).click_and_hold()
    step = (end - start) * width / steps
    for _ in range(steps):
        actions.move_by_offset(int(round(step)), 0).pause(0.03)
    actions.perform()


def release(page: Page):
    from selenium.webdriver.common.action_chains import ActionChains

    ActionChains(page.driver, duration=0).release().perform()


def press(page: Page, *keys):
    """Types keys into whatever has the focus (the page body when nothing does)."""
    from selenium.webdriver.common.action_chains import ActionChains

    ActionChains(page.driver, duration=0).send_keys(*keys).perform()


def assert_throttled(messages: list[dict], what: str):
    """At most one message per SEND_INTERVAL_MS (a few ms of timer slack), ≤ 20 in any second."""
    times = [message["t"] for message in messages]
    gaps = np.diff(times)
    assert len(gaps) == 0 or gaps.min() >= SEND_INTERVAL_MS - 5, \
        f"{what} sent {SEND_INTERVAL_MS - 5} ms apart at least (≤ 20/s), gaps {np.round(gaps).tolist()}"
    for index, start in enumerate(times):
        assert sum(1 for t in times[index:] if t < start + 1000) <= 20, f"over 20 {what} in one second"


def choose_file(page: Page, css: str, path: Path):
    """Gives the `input type=file` at `css` the file `path`, as the file chooser would (hidden
    inputs too: the page opens them from a button), which fires its `change`."""
    root = page.driver.execute_cdp_cmd("DOM.getDocument", {"depth": 0})["root"]["nodeId"]
    node = page.driver.execute_cdp_cmd("DOM.querySelector", {"nodeId": root, "selector": css})["nodeId"]
    assert node, f"no {css}"
    page.driver.execute_cdp_cmd("DOM.setFileInputFiles", {"nodeId": node, "files": [str(path)]})


def drop_file(page: Page, css: str, url: str, name: str, mime: str = "image/jpeg") -> bool:
    """Drops the page's own `url`, as a file called `name`, on the element at `css` (a real
    DragEvent with a DataTransfer); whether the page took it (the drop's default prevented)."""
    return page.driver.execute_async_script("""
        const [target, url, name, mime, done] = [document.querySelector(arguments[0]), ...[...arguments].slice(1)];
        fetch(url).then(r => r.blob()).then(blob => {
            const carried = new DataTransfer();
            carried.items.add(new File([blob], name, {type: mime}));
            const dropped = new DragEvent('drop', {dataTransfer: carried, bubbles: true, cancelable: true});
            target.dispatchEvent(dropped);
            done(dropped.defaultPrevented);
        });""", css, url, name, mime)


def file_button_opens(page: Page, button_css: str, input_css: str) -> bool:
    """Whether a click on the visible `button_css` opens the chooser of `input_css` (its click is
    caught before the chooser would open)."""
    page.js("""const input = document.querySelector(arguments[0]); window.__chooserOpened = false;
               input.addEventListener('click', (e) => { e.preventDefault(); window.__chooserOpened = true; }, {once: true});""",
            input_css)
    page.find(button_css).click()
    return page.visible(button_css) and page.js("return window.__chooserOpened")
