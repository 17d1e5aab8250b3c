#!/usr/bin/python3
"""Headless Chromium driven over the DevTools protocol on a pipe (`--remote-debugging-pipe`):
no chromedriver, no debugging port.

    with Page() as page:                      # or Page(["ip", "netns", "exec", NS])
        page.open("http://127.0.0.1:8080/")
        page.wait_for("window.filtercast && window.filtercast.stats.framesDrawn > 0", 20, "no frame drawn")
        page.evaluate("window.filtercast.stats.fps")
"""
from __future__ import annotations

import fcntl
import json
import os
import select
import shutil
import signal
import subprocess
import tempfile
import time
from typing import Sequence

from browser import CHROMIUM, CHROMIUM_ARGUMENTS


class Page:
    """Headless Chromium with one page, driven over `--remote-debugging-pipe` (file descriptors 3
    and 4, NUL-terminated JSON). `prefix` runs Chromium through another command (`ip netns exec
    NS`): with no debugging port, nothing of the driver's crosses the page's network, and
    Chromium may live in a network namespace its driver is not in."""

    def __init__(self, prefix: Sequence[str] = (), timeout: float = 20.0):
        self.timeout = timeout
        self.profile = tempfile.mkdtemp(prefix="fcbench-chromium-")
        commands_read, self._commands = _pipe_above_stdio()
        self._replies, replies_write = _pipe_above_stdio()

        def become_fds_3_and_4():  # in the child: Chromium reads commands on 3, answers on 4
            os.dup2(commands_read, 3)
            os.dup2(replies_write, 4)

        command = [CHROMIUM, *CHROMIUM_ARGUMENTS, "--remote-debugging-pipe", "--window-size=1920,1080",
                   f"--user-data-dir={self.profile}", "about:blank"]
        # close_fds=False: subprocess would close 3 and 4 after the dup; every other descriptor of
        # ours is close-on-exec anyway. A session of its own: Ctrl-C reaches the driver, which
        # closes Chromium in its turn (not Chromium first, in the middle of a command).
        self.process = subprocess.Popen([*prefix, *command], preexec_fn=become_fds_3_and_4, close_fds=False,
                                        start_new_session=True, stdout=subprocess.DEVNULL,
                                        stderr=subprocess.DEVNULL)
        os.close(commands_read)
        os.close(replies_write)
        self._buffer = b""
        self._last_id = 0
        try:
            targets = self.call("Target.getTargets")["targetInfos"]
            page = next(target for target in targets if target["type"] == "page")
            self._session = self.call("Target.attachToTarget", targetId=page["targetId"], flatten=True)["sessionId"]
        except BaseException:
            self.close()
            raise

    def call(self, method: str, session: str | None = None, **params) -> dict:
        """One DevTools command; its result (events and other replies in between are skipped)."""
        self._last_id += 1
        message = {"id": self._last_id, "method": method, "params": params}
        if session:
            message["sessionId"] = session
        try:
            os.write(self._commands, json.dumps(message).encode() + b"\0")
        except BrokenPipeError:
            raise RuntimeError(f"Chromium exited ({self.process.poll()})") from None
        deadline = time.monotonic() + self.timeout
        while True:
            reply = json.loads(self._next_message(deadline))
            if reply.get("id") == self._last_id:
                if "error" in reply:
                    raise RuntimeError(f"DevTools {method}: {reply['error']}")
                return reply["result"]

    def _next_message(self, deadline: float) -> bytes:
        while b"\0" not in self._buffer:
            remaining = deadline - time.monotonic()
            if remaining <= 0 or not select.select([self._replies], [], [], remaining)[0]:
                raise RuntimeError(f"Chromium did not answer within {self.timeout} s")
            chunk = os.read(self._replies, 1 << 16)
            if not chunk:
                raise RuntimeError(f"Chromium exited ({self.process.poll()})")
            self._buffer += chunk
        message, self._buffer = self._buffer.split(b"\0", 1)
        return message

    def open(self, url: str):
        self.call("Page.navigate", self._session, url=url)

    def evaluate(self, expression: str):
        """The value of a JavaScript expression in the page (promises awaited)."""
        result = self.call("Runtime.evaluate", self._session, expression=expression, returnByValue=True,
                           awaitPromise=True)
        if "exceptionDetails" in result:
            raise RuntimeError(f"{expression}: {result['exceptionDetails'].get('exception', result['exceptionDetails'])}")
        return result["result"].get("value")

    def wait_for(self, expression: str, timeout: float, what: str):
        deadline = time.monotonic() + timeout
        while not self.evaluate(expression):
            if time.monotonic() > deadline:
                raise RuntimeError(f"{what} within {timeout:g} s")
            time.sleep(0.1)

    def close(self):
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        _end_group(self.process.pid)
        for fd in (self._commands, self._replies):
            try:
                os.close(fd)
            except OSError:
                pass
        _remove(self.profile)

    def __enter__(self) -> "Page":
        return self

    def __exit__(self, *exc):
        self.close()


def _end_group(group: int):
    """Kills what is left of Chromium's process group (its own session: Popen made it): its
    renderer and GPU processes outlive the browser process for a moment. (They stay zombies until
    init reaps them, so waiting for the group to be gone could take long.)"""
    try:
        os.killpg(group, signal.SIGKILL)
    except ProcessLookupError:
        pass


def _remove(directory: str, timeout: float = 2.0):
    """Removes the profile, again while a process that was just killed may still have been
    writing into it (ENOTEMPTY); what is left after `timeout` stays in the temp dir."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            shutil.rmtree(directory)
            return
        except FileNotFoundError:
            return
        except OSError:
            if time.monotonic() > deadline:
                shutil.rmtree(directory, ignore_errors=True)
                return
            time.sleep(0.1)


def _pipe_above_stdio() -> tuple[int, int]:
    """A pipe whose two ends are above fd 4, so that the child's dup2 to 3 and 4 cannot overwrite
    one end with the other; both close-on-exec."""
    ends = []
    for end in os.pipe():
        ends.append(fcntl.fcntl(end, fcntl.F_DUPFD_CLOEXEC, 10))
        os.close(end)
    return ends[0], ends[1]
