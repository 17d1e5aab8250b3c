"""`--publish URL` against the ffmpeg CLI as the listening media server on loopback: the stream it
receives decodes and shows the filter; a receiver that is killed and started again gets frames
again (reconnect with backoff) while a WebSocket viewer keeps its frame rate throughout; bad URLs
are refused at start."""

from __future__ import annotations

import asyncio
import shutil
import signal
import socket
import subprocess
import threading
import time
from urllib.parse import urlsplit

import numpy as np
import pytest

from fc_client import Client, run
from fc_server import binary_path, child_environment
from live_feed import free_port
from test_e2e_metrics import scrape, value

PATTERN = "test:320x240@30"
WIDTH, HEIGHT = 320, 240


def listening(port: int) -> bool:
    """Whether a TCP socket listens on 127.0.0.1:`port` (read from /proc: connecting would use up
    the receiver's one connection)."""
    wanted = f"0100007F:{port:04X}"
    with open("/proc/net/tcp") as table:
        return any(line.split()[1] == wanted and line.split()[3] == "0A" for line in list(table)[1:])


class Receiver:
    """The ffmpeg CLI listening for one published stream (RTMP or RTSP), copying `frames` video
    frames into a file, then exiting."""

    def __init__(self, scheme: str, port: int, output, frames: int = 30, path: str = "live"):
        self.url = {"rtmp": f"rtmp://127.0.0.1:{port}/live/test", "rtsp": f"rtsp://127.0.0.1:{port}/{path}"}[scheme]
        listen = ["-listen", "1"] if scheme == "rtmp" else ["-rtsp_flags", "listen"]
        self.port = port
        self.output = output
        self.command = [shutil.which("ffmpeg"), "-nostdin", "-hide_banner", "-loglevel", "error", "-y", *listen,
                        "-i", self.url, "-frames:v", str(frames), "-c", "copy", str(output)]
        self.proc: subprocess.Popen | None = None

    def start(self) -> "Receiver":
        self.proc = subprocess.Popen(self.command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                     stderr=subprocess.PIPE)
        deadline = time.monotonic() + 10
        while not listening(self.port):
            assert self.proc.poll() is None, f"ffmpeg did not listen: {self.proc.stderr.read().decode()}"
            assert time.monotonic() < deadline, "ffmpeg did not listen within 10 s"
            time.sleep(0.05)
        return self

    @property
    def done(self) -> bool:
        return self.proc.poll() is not None

    def wait(self, timeout: float) -> None:
        try:
            code = self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.kill()
            raise AssertionError(f"the receiver got no complete stream within {timeout} s: {self.proc.stderr.read().decode()[-3000:]}")
        assert code == 0, f"ffmpeg exited with {code}: {self.proc.stderr.read().decode()}"

    def kill(self):
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(timeout=5)


class PathRouter:
    """What a media server's paths do for `--publish rtsp://…/{channel}`, made of ffmpeg listeners
    (one stream each, any path): listens on one port, reads each connection's first RTSP request,
    notes its path and hands the connection — those bytes first — to the receiver of that path."""

    def __init__(self, receivers: dict[str, Receiver]):
        self.receivers = receivers
        self.paths: list[str] = []
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self):
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            threading.Thread(target=self._route, args=(client,), daemon=True).start()

    def _route(self, client: socket.socket):
        head = b""
        while b"\r\n" not in head and len(head) < 4096:
            piece = client.recv(4096)
            if not piece:
                return client.close()
            head += piece
        path = urlsplit(head.split(b" ")[1].decode()).path
        self.paths.append(path)
        receiver = self.receivers.get(path)
        if receiver is None or receiver.done:  # no such path, or its receiver is gone: refused as a server would
            return client.close()
        try:
            upstream = socket.create_connection(("127.0.0.1", receiver.port))
        except OSError:
            return client.close()
        upstream.sendall(head)
        for source, sink in ((client, upstream), (upstream, client)):
            threading.Thread(target=self._pump, args=(source, sink), daemon=True).start()

    @staticmethod
    def _pump(source: socket.socket, sink: socket.socket):
        try:
            while piece := source.recv(65536):
                sink.sendall(piece)
        except OSError:
            pass
        finally:
            for end in (source, sink):
                try:
                    end.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass

    def close(self):
        self.listener.close()


def probe(path) -> dict:
    out = subprocess.run([shutil.which("ffprobe"), "-v", "error", "-count_frames", "-select_streams", "v:0",
                          "-show_entries", "stream=codec_name,profile,width,height,nb_read_frames", "-of", "csv=p=0",
                          str(path)], check=True, capture_output=True, timeout=60, text=True)
    codec, profile, width, height, frames = out.stdout.strip().split(",")[:5]
    return {"codec": codec, "profile": profile, "width": int(width), "height": int(height), "frames": int(frames)}


def decoded_luma(path, index: int = 20) -> np.ndarray:
    """The Y plane of frame `index` of `path`, as the H.264 decoder gives it (no range conversion)."""
    raw = subprocess.run([shutil.which("ffmpeg"), "-nostdin", "-v", "error", "-i", str(path),
                          "-vf", f"select=eq(n\\,{index})", "-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "yuv420p",
                          "-"], check=True, capture_output=True, timeout=60).stdout
    assert len(raw) == WIDTH * HEIGHT * 3 // 2, f"{len(raw)} bytes decoded"
    return np.frombuffer(raw[:WIDTH * HEIGHT], np.uint8).reshape(HEIGHT, WIDTH).astype(np.float64)


def pattern_luma(tmp_path) -> np.ndarray:
    """The unfiltered test pattern's luma, from `filtercast snapshot`."""
    from PIL import Image
    path = tmp_path / "pattern.jpg"
    subprocess.run([binary_path(), "snapshot", "--input", PATTERN, "-o", str(path)], check=True, timeout=60,
                   env=child_environment(), capture_output=True)
    return np.asarray(Image.open(path).convert("L"), np.float64)


def blocks(plane: np.ndarray, size: int = 16) -> np.ndarray:
    """Mean of each size×size block: the pattern's layout without its moving details."""
    h, w = plane.shape[0] // size * size, plane.shape[1] // size * size
    return plane[:h, :w].reshape(h // size, size, w // size, size).mean(axis=(1, 3)).ravel()


def assert_inverted(received: np.ndarray, pattern: np.ndarray):
    """The received picture is the pattern's negative: block means anti-correlated with the
    pattern's, and near 255 minus them (an unfiltered stream correlates at about +1)."""
    a, b = blocks(received), blocks(pattern)
    correlation = np.corrcoef(a, b)[0, 1]
    assert correlation < -0.9, f"received vs pattern correlation {correlation:.3f}: not inverted"
    assert np.median(np.abs(a - (255 - b))) < 12, np.median(np.abs(a - (255 - b)))


@pytest.mark.parametrize("scheme, encode", [("rtmp", "shared"), ("rtsp", "shared"), ("rtmp", "own")])
def test_published_stream_decodes_and_shows_the_filter(start_server, tmp_path, scheme, encode):
    port = free_port(socket.SOCK_STREAM)
    receiver = Receiver(scheme, port, tmp_path / ("out.flv" if scheme == "rtmp" else "out.mkv")).start()
    # By default the stream is the page's full-size H.264 rendition (one encode for both).
    choice = ["--publish-rendition", "own"] if encode == "own" else []
    # Without {channel} in the URL only the default channel publishes.
    other = ["--channel", "other=test:64x48@5"] if scheme == "rtsp" else []
    try:
        server = start_server("--input", PATTERN, "--filter", "invert", "--publish", receiver.url, *choice, *other)
        receiver.wait(timeout=40)
    finally:
        receiver.kill()
    info = probe(receiver.output)
    # Constrained Baseline: what every browser's WebRTC decodes (MediaMTX passes it through).
    assert info == {"codec": "h264", "profile": "Constrained Baseline", "width": WIDTH, "height": HEIGHT,
                    "frames": 30}, info
    assert_inverted(decoded_luma(receiver.output), pattern_luma(tmp_path))
    shared = "encoder=\"libx264 (shared: h264-240p)\"" in server.stderr_text()
    assert shared == (encode == "shared"), server.stderr_text()
    # Nobody watches the page: the rendition encoded for the stream alone, or not at all.
    rendition = value(scrape(server), "filtercast_rendition_frames_encoded_total", rendition="h264-240p")
    assert rendition >= 30 if encode == "shared" else rendition == 0, rendition
    # The receiver left after 30 frames: the server reports it and keeps trying.
    deadline = time.monotonic() + 10
    while True:
        metrics = scrape(server)
        if value(metrics, "filtercast_publish_failures_total") >= 1:
            break
        assert time.monotonic() < deadline, "the broken connection was not counted"
        time.sleep(0.2)
    assert value(metrics, "filtercast_publish_connected") == 0
    assert value(metrics, "filtercast_publish_frames_total") >= 30
    assert value(metrics, "filtercast_publish_bytes_total") > 10_000
    assert "publish: connected" in server.stderr_text()
    assert not any('channel="other"' in line for line in server.get("/metrics").text().splitlines()
                   if line.startswith("filtercast_publish_")), "a channel other than the default one published"


def test_with_channel_in_the_url_each_channel_publishes_to_its_own_path(start_server, tmp_path):
    receivers = {f"/{name}": Receiver("rtsp", free_port(socket.SOCK_STREAM), tmp_path / f"{name}.mkv", path=name).start()
                 for name in ("main", "cam")}
    router = PathRouter(receivers)
    try:
        server = start_server("--input", PATTERN, "--filter", "invert", "--channel", f"cam={PATTERN}",
                              "--publish", f"rtsp://127.0.0.1:{router.port}/{{channel}}")
        for receiver in receivers.values():
            receiver.wait(timeout=40)
    finally:
        router.close()
        for receiver in receivers.values():
            receiver.kill()
    assert sorted(set(router.paths)) == ["/cam", "/main"], router.paths
    pattern = pattern_luma(tmp_path)
    for receiver in receivers.values():  # --filter starts every channel
        assert_inverted(decoded_luma(receiver.output), pattern)
    metrics = scrape(server)
    assert value(metrics, "filtercast_publish_frames_total") >= 30
    assert value(metrics, "filtercast_publish_frames_total", channel="cam") >= 30
    assert "publish: connected channel=cam target=rtsp://127.0.0.1:" in server.stderr_text()


@pytest.mark.solo  # measures a rate or sync: run alone
def test_reconnects_after_the_receiver_is_killed_while_viewers_keep_their_rate(start_server, tmp_path):
    port = free_port(socket.SOCK_STREAM)
    first = Receiver("rtmp", port, tmp_path / "first.flv", frames=100_000).start()
    second = Receiver("rtmp", port, tmp_path / "second.flv", frames=30)
    server = start_server("--input", PATTERN, "--filter", "invert", "--publish", first.url)
    windows: list[tuple[float, int]] = []  # (end of a 0.25 s window, frames the viewer got in it)
    events: dict[str, float] = {}

    async def scenario():
        async with await Client.connect(server.ws_url()) as viewer:
            started = time.monotonic()
            while time.monotonic() - started < 60:
                items = await viewer.collect(0.25)
                windows.append((time.monotonic(), sum(1 for item in items if not isinstance(item, dict))))
                now = time.monotonic()
                if "killed" not in events:
                    # HTTP and process starts in a thread: the viewer keeps reading meanwhile.
                    if value(await asyncio.to_thread(scrape, server), "filtercast_publish_frames_total") >= 60:
                        first.kill()  # the media server dies mid-stream
                        events["killed"] = now
                elif "restarted" not in events:
                    metrics = await asyncio.to_thread(scrape, server)
                    if value(metrics, "filtercast_publish_failures_total") >= 2 and now - events["killed"] >= 2:
                        assert value(metrics, "filtercast_publish_connected") == 0
                        await asyncio.to_thread(second.start)  # back: the publisher finds it at its next attempt
                        events["restarted"] = now
                elif second.done:
                    events["received"] = now
                    break
            await viewer.collect(0.5)

    try:
        run(scenario(), timeout=90)
    finally:
        first.kill()
        second.kill()
    assert "received" in events, f"no stream after the restart: {events}; {server.stderr_text()}"
    second.wait(timeout=1)
    info = probe(second.output)
    assert info["codec"] == "h264" and info["frames"] == 30, info
    assert_inverted(decoded_luma(second.output), pattern_luma(tmp_path))
    # The viewer kept the source's rate while the server was gone and came back.
    duration = windows[-1][0] - windows[0][0] + 0.25
    frames = sum(count for _, count in windows)
    assert frames / duration >= 25, f"the viewer got {frames / duration:.1f} fps"
    seconds = [sum(count for _, count in windows[i:i + 4]) for i in range(0, len(windows) - 3, 4)]
    assert min(seconds) >= 20, f"frames the viewer got in each second: {seconds}"
    log = server.stderr_text(last=20000)
    assert log.count("publish: connected") >= 2 and "retry_in=" in log, log
    # Each failure is one line that names its target once (in its field), not twice.
    failures = [line for line in log.splitlines() if "publish: the connection failed" in line]
    assert failures and all(line.count("127.0.0.1:") == 1 for line in failures), failures


@pytest.mark.parametrize("url, problem", [
    ("http://example.com/live", "unsupported scheme 'http'"),
    ("rtmp:///live", "no host"),
    ("rtsp://host:99999/x", "the port must be 1…65535"),
    ("srt://host", "srt:// needs a port"),
    ("example.com/live", "no scheme"),
])
def test_bad_publish_urls_are_refused_at_start(filtercast_bin, url, problem):
    result = subprocess.run([filtercast_bin, "serve", "--port", "0", "--publish", url], capture_output=True,
                            text=True, timeout=30, env=child_environment())
    assert result.returncode == 2, result
    assert f"--publish must be rtmp://" in result.stderr and problem in result.stderr, result.stderr
    result = subprocess.run([filtercast_bin, "serve", "--port", "0"], capture_output=True, text=True, timeout=30,
                            env=child_environment({"FILTERCAST_PUBLISH": url}))
    assert result.returncode == 2 and "FILTERCAST_PUBLISH must be rtmp://" in result.stderr, result.stderr


def keyframe_times(path) -> list[float]:
    """The presentation times of the keyframes of `path`'s video, seconds."""
    out = subprocess.run([shutil.which("ffprobe"), "-v", "error", "-select_streams", "v:0", "-show_entries",
                          "packet=pts_time,flags", "-of", "csv=p=0", str(path)],
                         check=True, capture_output=True, timeout=60, text=True).stdout
    return [float(line.split(",")[0]) for line in out.split() if ",K" in line]


def test_a_shared_stream_has_a_keyframe_every_two_seconds_and_viewers_are_unaffected(start_server, tmp_path):
    port = free_port(socket.SOCK_STREAM)
    receiver = Receiver("rtmp", port, tmp_path / "shared.flv", frames=200).start()
    server = start_server("--input", PATTERN, "--publish", receiver.url)

    async def scenario():
        # A page viewer on the same rendition gets its units as before, while the stream runs.
        async with await Client.connect(server.ws_url()) as client:
            await client.ok({"type": "watch", "transport": "h264", "rendition": "h264-240p"})
            units = await client.frames(60, timeout=20)
            await asyncio.to_thread(receiver.wait, 30)
        return units

    try:
        units = run(scenario(), timeout=60)
    finally:
        receiver.kill()
    assert all(unit.magic == b"FCH1" for unit in units)
    times = keyframe_times(receiver.output)
    assert times and times[0] == 0, f"the stream starts with a keyframe: {times}"
    gaps = [b - a for a, b in zip(times, times[1:])]
    assert len(times) >= 3 and max(gaps) <= 2.6, f"keyframes at {times}"


def test_a_publish_rendition_the_ladder_lacks_is_refused_at_start(filtercast_bin):
    result = subprocess.run([filtercast_bin, "serve", "--port", "0", "--input", "test:640x360@30",
                             "--publish", "rtmp://127.0.0.1:1/live", "--publish-rendition", "h264-720p"],
                            capture_output=True, text=True, timeout=30, env=child_environment())
    assert result.returncode == 1, result
    assert "--publish-rendition h264-720p: no such H.264 rendition; the choices are h264-360p, h264-180p, own" \
        in result.stderr, result.stderr


def decoded_lumas(path) -> list:
    """The Y plane of every frame of `path` (as stored: no frames repeated to a constant rate)."""
    raw = subprocess.run([shutil.which("ffmpeg"), "-nostdin", "-v", "error", "-i", str(path), "-vsync", "passthrough",
                          "-f", "rawvideo",
                          "-pix_fmt", "yuv420p", "-"], check=True, capture_output=True, timeout=60).stdout
    size = WIDTH * HEIGHT * 3 // 2
    return [np.frombuffer(raw[i:i + WIDTH * HEIGHT], np.uint8).reshape(HEIGHT, WIDTH).astype(np.float64)
            for i in range(0, len(raw) - size + 1, size)]


def test_a_paused_session_keeps_the_stream_alive_and_shows_filter_changes(start_server, tmp_path):
    port = free_port(socket.SOCK_STREAM)
    # RTSP: the ffmpeg CLI's RTMP server side reads in 32 KB blocks, which a 1 fps stream of
    # repeated frames takes minutes to fill; its RTSP side hands on every packet.
    receiver = Receiver("rtsp", port, tmp_path / "paused.mkv", frames=6)
    server = start_server("--input", PATTERN, "--publish", receiver.url)

    async def scenario():
        async with await Client.connect(server.ws_url()) as client:
            await client.ok({"type": "pause"})
            # The server is not listening yet: the publisher retries; it connects once it is, and
            # sends the paused frame again every second.
            await asyncio.to_thread(receiver.start)
            # Up to the retry delay's cap (10 s) before the next attempt, on a busy machine more.
            deadline = time.monotonic() + 25
            while value(await asyncio.to_thread(scrape, server), "filtercast_publish_frames_total") < 1:
                assert time.monotonic() < deadline, "no frame published while paused"
                await asyncio.sleep(0.1)
            await client.ok({"type": "setFilter", "name": "invert"})
            await asyncio.to_thread(receiver.wait, 30)

    try:
        run(scenario(), timeout=90)
    finally:
        receiver.kill()
    frames = decoded_lumas(receiver.output)
    assert len(frames) == 6, len(frames)
    pattern = blocks(pattern_luma(tmp_path))
    assert np.corrcoef(blocks(frames[0]), pattern)[0, 1] > 0.9, "the first frame is the unfiltered pattern"
    assert_inverted(frames[-1], pattern_luma(tmp_path))
