"""Starting and stopping a real `filtercast serve`, and plain HTTP against it.

Used by conftest.py's fixtures; nothing here depends on pytest.
"""

from __future__ import annotations

import http.client
import os
import re
import select
import shutil
import signal
import socket
import ssl
import subprocess
import tempfile
import threading
import time
import urllib.parse
from dataclasses import dataclass, field
from pathlib import Path

# The debug build of this checkout (what `make test` builds); FILTERCAST_BIN overrides it.
DEFAULT_BINARY = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", ".build", "debug", "filtercast")

# The ready line on stdout: `filtercast: serving …` in text, an object whose message is `serving …` in JSON
# (https:// with --tls-cert).
READY_LINE = re.compile(r"(?:^filtercast: |\"message\":\")serving (?P<name>.+) \((?P<width>\d+)x(?P<height>\d+)\) "
                        r"at (?P<scheme>https?)://(?P<host>[^:/]+):(?P<port>\d+)/")
# The data folder: in text on the line right after it, in JSON a field of it; `start` returns once it came.
DATA_LINE = re.compile(r"^filtercast: data in (?P<data>.+) \(recordings, looks, comments, LUTs, styles, uploads, backgrounds, thumbnails\)|\"data\":\"(?P<field>[^\"]*)\"")

# Every test's teardown checks that SIGTERM ends the server cleanly (exit code 0, no kill). The time
# bound here only tells "stops" from "hangs" (a thread never joined waits forever): it is far from
# the 1 s contract, which test_e2e_shutdown and test_e2e_startstop measure on their own, so that a
# recorder, encoder or style worker finishing its step on a loaded machine does not fail a test
# about something else.
TEARDOWN_STOP_SECONDS = 5.0


def make_clip(path, lavfi_source: str, seconds: float, *options: str, timeout: float = 120):
    """An H.264 MP4 at `path` from a lavfi source, made with the ffmpeg CLI (keyframes every
    `-g`, no B-frames unless `options` say otherwise). Raises when ffmpeg is missing or fails."""
    ffmpeg = shutil.which("ffmpeg")
    if not ffmpeg:
        raise RuntimeError("the ffmpeg CLI is needed to make test clips (apt-get install ffmpeg)")
    subprocess.run([ffmpeg, "-hide_banner", "-loglevel", "error", "-y", "-f", "lavfi", "-i", lavfi_source,
                    *options, "-t", str(seconds), "-pix_fmt", "yuv420p", "-c:v", "libx264", "-bf", "0",
                    str(path)], check=True, timeout=timeout)
    return path


def make_tone_clip(path, size: str, rate: int, seconds: float, sample_rate: int):
    """An H.264 MP4 at `path` (testsrc2 pictures of `size` at `rate` fps, a keyframe a second, no
    B-frames) with a 440 Hz tone as stereo AAC at `sample_rate`, made with the ffmpeg CLI."""
    subprocess.run([shutil.which("ffmpeg"), "-hide_banner", "-loglevel", "error", "-y",
                    "-f", "lavfi", "-i", f"testsrc2=size={size}:rate={rate}",
                    "-f", "lavfi", "-i", f"sine=frequency=440:sample_rate={sample_rate}", "-t", str(seconds),
                    "-c:v", "libx264", "-bf", "0", "-g", str(rate), "-pix_fmt", "yuv420p", "-c:a", "aac", "-ac", "2",
                    str(path)], check=True, timeout=60)
    return path


@dataclass
class KeyPair:
    """A certificate and its private key (PEM files)."""
    certificate: Path
    key: Path

    @property
    def args(self) -> list:
        return ["--tls-cert", str(self.certificate), "--tls-key", str(self.key)]

    def client_context(self) -> ssl.SSLContext:
        """A client context that trusts this certificate alone (it is its own CA) and checks the
        host name against it."""
        return ssl.create_default_context(cafile=str(self.certificate))


def make_certificate(folder, name: str, *names: str) -> KeyPair:
    """A self-signed certificate (EC P-256, valid 2 days) for `names` (DNS names or IPv4
    addresses) in `folder`, made with the openssl CLI the way docs/DEPLOY.md shows."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    pair = KeyPair(folder / f"{name}.crt", folder / f"{name}.key")
    alternative = ",".join(f"IP:{n}" if n.replace(".", "").isdigit() else f"DNS:{n}" for n in names)
    subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
                    "-days", "2", "-subj", f"/CN={names[0]}", "-addext", f"subjectAltName={alternative}",
                    "-keyout", str(pair.key), "-out", str(pair.certificate)],
                   check=True, capture_output=True, timeout=30)
    return pair


class ExitClock:
    """Notes the moment a process exits, from a thread that blocks in waitpid from the moment it is
    made: made right at the signal, it measures the stop itself, not when a test got round to ask."""

    def __init__(self, proc: subprocess.Popen, since: float):
        self.proc = proc
        self.since = since
        self.exited_at: float | None = None
        self._thread = threading.Thread(target=self._watch, daemon=True)
        self._thread.start()

    def _watch(self):
        self.proc.wait()
        self.exited_at = time.monotonic()

    def wait(self, timeout: float) -> int | None:
        """The exit code, or None when still running `timeout` s after `since`."""
        self._thread.join(max(0.0, self.since + timeout - time.monotonic()))
        return None if self.exited_at is None else self.proc.returncode

    @property
    def seconds(self) -> float | None:
        """From `since` to the exit (None while running)."""
        return None if self.exited_at is None else self.exited_at - self.since


def binary_path() -> str:
    return os.environ.get("FILTERCAST_BIN", DEFAULT_BINARY)


def child_environment(extra: dict | None = None) -> dict:
    """The test's environment without proxies and without FILTERCAST_* options of its own (so a
    developer's settings cannot change a test), with a data folder of its own (never the user's),
    plus `extra` (a name given None is taken out)."""
    env = {name: value for name, value in os.environ.items() if not name.startswith("FILTERCAST_")}
    env["FILTERCAST_DATA"] = tempfile.mkdtemp(prefix="filtercast-data-")
    # Nothing here must go through a proxy.
    env["NO_PROXY"] = env["no_proxy"] = "*"
    for name in ("http_proxy", "https_proxy", "HTTP_PROXY", "HTTPS_PROXY", "all_proxy", "ALL_PROXY"):
        env.pop(name, None)
    for name, value in (extra or {}).items():
        if value is None:
            env.pop(name, None)
        else:
            env[name] = value
    return env


@dataclass
class Response:
    status: int
    reason: str
    headers: dict  # lower-cased names
    body: bytes

    @property
    def content_type(self) -> str:
        return self.headers.get("content-type", "")

    def text(self) -> str:
        return self.body.decode("utf-8", "replace")


@dataclass
class ServerProcess:
    """One `filtercast serve --port 0` process."""

    binary: str
    args: list
    log_path: str
    startup_timeout: float = 20.0
    env: dict = field(default_factory=dict)  # extra environment variables
    # Off: `--style-at-first-use`. The warm-up's calibration burns both cores for seconds after
    # each start, which confounds every timing a test or benchmark makes of anything but style.
    style_warm_up: bool = False
    proc: subprocess.Popen | None = None
    host: str = ""
    port: int = 0
    scheme: str = "http"  # from the ready line
    ssl_context: ssl.SSLContext | None = None  # over https: what verifies the server (None: the system's CAs)
    name: str = ""
    data: str = ""  # the data folder, from the line after the ready line
    width: int = 0
    height: int = 0
    stdout_lines: list = field(default_factory=list)
    returncode: int | None = None
    stop_seconds: float | None = None
    exit_clock: ExitClock | None = None  # started by send_signal

    # -- life cycle --------------------------------------------------------------------------

    def start(self) -> "ServerProcess":
        warm_up = [] if self.style_warm_up else ["--style-at-first-use"]
        command = [self.binary, "serve", "--port", "0", *warm_up, *self.args]
        self._log = open(self.log_path, "wb")
        self.proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=self._log, stdin=subprocess.DEVNULL,
                                     env=child_environment(self.env))
        deadline = time.monotonic() + self.startup_timeout
        buffer = b""
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                self.kill()
                raise RuntimeError(f"filtercast did not print its URL within {self.startup_timeout} s: "
                                   f"{command}\nstdout: {buffer!r}\nstderr: {self.stderr_text()}")
            ready, _, _ = select.select([self.proc.stdout], [], [], min(remaining, 0.2))
            if ready:
                chunk = os.read(self.proc.stdout.fileno(), 4096)
                if not chunk:
                    self.proc.wait(timeout=5)
                    raise RuntimeError(f"filtercast exited ({self.proc.returncode}) before serving: {command}\n"
                                       f"stdout: {buffer!r}\nstderr: {self.stderr_text()}")
                buffer += chunk
                if b"\n" in buffer:
                    *lines, buffer = buffer.split(b"\n")
                    for line in lines:
                        text = line.decode("utf-8", "replace")
                        self.stdout_lines.append(text)
                        match = READY_LINE.search(text)
                        if match:
                            self.host = match["host"]
                            self.scheme = match["scheme"]
                            self.port = int(match["port"])
                            self.name = match["name"]
                            self.width = int(match["width"])
                            self.height = int(match["height"])
                        data = DATA_LINE.search(text)
                        if data:
                            self.data = data["data"] or data["field"]
                            return self
            elif self.proc.poll() is not None:
                raise RuntimeError(f"filtercast exited ({self.proc.returncode}) before serving: {command}\n"
                                   f"stderr: {self.stderr_text()}")

    @property
    def running(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def send_signal(self, signum: int = signal.SIGTERM) -> float:
        """Sends `signum`; returns the monotonic time it was sent."""
        sent = time.monotonic()
        self.proc.send_signal(signum)
        if self.exit_clock is None:
            self.exit_clock = ExitClock(self.proc, sent)
        return sent

    def wait(self, timeout: float, since: float | None = None) -> int | None:
        """Waits for the exit; returns the exit code, or None when still running after `timeout`.
        After `send_signal`, `stop_seconds` is from the signal to the exit as the exit clock saw it
        (whenever this is called); otherwise from `since` (or now) to when the wait returned."""
        clock = self.exit_clock
        if clock is not None and since is not None:
            self.returncode = clock.wait(timeout + since - clock.since)
            if self.returncode is None:
                return None
            self.stop_seconds = clock.exited_at - since
            self._finish()
            return self.returncode
        start = since if since is not None else time.monotonic()
        try:
            self.returncode = self.proc.wait(timeout=max(0.0, start + timeout - time.monotonic()))
        except subprocess.TimeoutExpired:
            return None
        self.stop_seconds = time.monotonic() - start
        self._finish()
        return self.returncode

    def stop(self, signum: int = signal.SIGTERM, timeout: float = 2.0) -> tuple:
        """Graceful stop: (exit code or None if it had to be killed, seconds it took)."""
        if self.proc is None:
            return (None, 0.0)
        if self.proc.poll() is not None:
            self._finish()
            return (self.proc.returncode, self.stop_seconds or 0.0)
        sent = self.send_signal(signum)
        code = self.wait(timeout, since=sent)
        if code is None:
            self.kill()
            return (None, time.monotonic() - sent)
        return (code, self.stop_seconds)

    def kill(self):
        if self.proc and self.proc.poll() is None:
            self.proc.kill()
            try:
                self.proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                pass
        self._finish()

    def _finish(self):
        if self.proc and self.proc.stdout and not self.proc.stdout.closed:
            try:
                rest = self.proc.stdout.read()
                self.stdout_lines += rest.decode("utf-8", "replace").splitlines()
            except (OSError, ValueError):
                pass
            self.proc.stdout.close()
        log = getattr(self, "_log", None)
        if log and not log.closed:
            log.close()

    def stderr_text(self, last: int = 4000) -> str:
        try:
            with open(self.log_path, "rb") as handle:
                return handle.read().decode("utf-8", "replace")[-last:]
        except OSError:
            return ""

    # -- addresses ---------------------------------------------------------------------------

    @property
    def http_url(self) -> str:
        return f"{self.scheme}://{self.host}:{self.port}/"

    @property
    def origin(self) -> str:
        """The server's own origin, as a browser on its page would send it."""
        return f"{self.scheme}://{self.host}:{self.port}"

    def ws_url(self, path: str = "/ws", **query) -> str:
        url = f"{'wss' if self.scheme == 'https' else 'ws'}://{self.host}:{self.port}{path}"
        if query:
            url += "?" + urllib.parse.urlencode(query)
        return url

    # -- HTTP --------------------------------------------------------------------------------

    def http(self, method: str, path: str, headers: dict | None = None, body: bytes | None = None,
             timeout: float = 5.0) -> Response:
        """One request on a fresh connection; `path` is sent exactly as given."""
        if self.scheme == "https":
            connection = http.client.HTTPSConnection(self.host, self.port, timeout=timeout, context=self.ssl_context)
        else:
            connection = http.client.HTTPConnection(self.host, self.port, timeout=timeout)
        try:
            connection.putrequest(method, path, skip_accept_encoding=True)
            for name, value in (headers or {}).items():
                connection.putheader(name, value)
            if body is not None:
                connection.putheader("Content-Length", str(len(body)))
            connection.endheaders(body)
            response = connection.getresponse()
            data = response.read()
            return Response(response.status, response.reason,
                            {name.lower(): value for name, value in response.getheaders()}, data)
        finally:
            connection.close()

    def get(self, path: str, **kwargs) -> Response:
        return self.http("GET", path, **kwargs)

    def raw_request(self, request: bytes, timeout: float = 5.0) -> bytes:
        """Sends raw bytes, returns everything the server answers until it closes or goes quiet."""
        with socket.create_connection((self.host, self.port), timeout=timeout) as sock:
            sock.sendall(request)
            chunks = []
            deadline = time.monotonic() + timeout
            while time.monotonic() < deadline:
                sock.settimeout(max(0.05, min(0.5, deadline - time.monotonic())))
                try:
                    chunk = sock.recv(65536)
                except socket.timeout:
                    if chunks:
                        break
                    continue
                if not chunk:
                    break
                chunks.append(chunk)
            return b"".join(chunks)
