#!/usr/bin/python3
"""Delivery benchmark (issue 14, "Numbers"): what a real headless Chromium page draws of natural
footage over a shaped link, per transport, and what each transport costs in bits for its quality.

Per row: a fresh `filtercast serve --input natural720.mp4 --filter sepia` (bench/natural_clip.py
makes the clip) and headless Chromium on `/?transport=T`, both inside a network namespace of
this benchmark's own whose loopback is shaped by `tc … tbf` (the unshaped rows use the machine's
own loopback); after a few seconds of settling the page's own figures are sampled once a second:
`window.filtercast.stats` (framesDrawn, width × height, transport, bitsPerSecond) and
`latencyHistory` (server send → drawn on the canvas, per frame), plus the server's /metrics
(bytes sent). Chromium is driven over the DevTools protocol on a pipe, so that nothing but the
page's own traffic crosses the shaped link.

The quality row: a Python WebSocket client records what the server sends for the unfiltered clip
(`--filter none`, plain loopback), as JPEG and after `watch {transport: "h264"}` as H.264, and
compares each picture with the clip's frame of the same presentation time (SSIM of the luma).

    /usr/bin/python3 bench/delivery.py [--bin PATH] [--transports auto,jpeg] [--links loopback,10mbit,3mbit]
                                       [--seconds 20] [--settle 5] [--quality-seconds 10] [--no-quality]

Needs root for the shaped rows (`ip netns`, `tc`); without it they are skipped, saying why.
Needs chromium, ffmpeg, opencv-doc (the clip's sources), python3-websockets, -numpy and -pil, and
a release build (`swift build -c release`, or --bin / $FILTERCAST_BIN).
"""
from __future__ import annotations

import argparse
import asyncio
import io
import os
import re
import shlex
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable, Iterator

import numpy as np
from PIL import Image

from bench_server import REPO, serving
from browser import CHROMIUM, percentile
from chromium_pipe import Page
from fc_client import Client, Frame  # the end-to-end tests' protocol client (bench_server put it on the path)
from fc_server import make_clip
from natural_clip import FPS, HEIGHT, WIDTH, natural_clip

TRANSPORTS = ("auto", "jpeg", "h264")


# -- the link ---------------------------------------------------------------------------------

@dataclass(frozen=True)
class Link:
    name: str
    rate: str | None  # a `tc` rate; None: the machine's own loopback, unshaped


LINKS = {"loopback": Link("loopback", None), "10mbit": Link("10 Mbit/s", "10mbit"),
         "3mbit": Link("3 Mbit/s", "3mbit")}
NAMESPACE_PREFIX = "fcbench-"
# A 256 KB bucket and at most 100 ms of queue: bursts of a few frames pass at once, a sender
# that keeps sending faster than the rate sees its packets wait, then dropped (as on a real link).
TBF_SHAPE = ("burst", "256kb", "latency", "100ms")


class NamespaceRefused(RuntimeError):
    """The kernel or our privileges do not allow a shaped namespace (not root, no tbf, …)."""


def namespace_name(pid: int | None = None) -> str:
    return f"{NAMESPACE_PREFIX}{os.getpid() if pid is None else pid}"


def in_namespace(namespace: str, command: list[str]) -> list[str]:
    return ["ip", "netns", "exec", namespace, *command]


def namespace_setup(namespace: str, rate: str) -> list[list[str]]:
    """The commands that make `namespace` with its loopback shaped to `rate`. Its lo stays at an
    MTU of 1500: at loopback's usual 64 KB a segment is larger than the tbf burst, is never sent,
    and the connection stalls (a harness artefact, not the server's)."""
    return [["ip", "netns", "add", namespace],
            in_namespace(namespace, ["ip", "link", "set", "lo", "mtu", "1500", "up"]),
            in_namespace(namespace, ["tc", "qdisc", "add", "dev", "lo", "root", "tbf", "rate", rate, *TBF_SHAPE])]


def reshape(namespace: str, rate: str, burst: str = "256kb"):
    """Changes the shaping of `namespace`'s loopback to `rate` (`tc qdisc change`), with a bucket
    of `burst` (a small one makes the new rate hold at once, not after the bucket drains)."""
    subprocess.run(in_namespace(namespace, ["tc", "qdisc", "change", "dev", "lo", "root", "tbf", "rate", rate,
                                            "burst", burst, "latency", "100ms"]), check=True)


def namespace_pid(namespace: str) -> int | None:
    """The pid in one of our namespaces' names; None for anybody else's namespace."""
    match = re.fullmatch(re.escape(NAMESPACE_PREFIX) + r"(\d+)", namespace)
    return int(match[1]) if match else None


def remove_stale_namespaces():
    """Deletes the namespaces of earlier runs that were killed before their cleanup (SIGKILL)."""
    listing = subprocess.run(["ip", "netns", "list"], capture_output=True, text=True).stdout
    for namespace in (line.split()[0] for line in listing.splitlines() if line.strip()):
        pid = namespace_pid(namespace)
        if pid is not None and pid != os.getpid() and not _process_exists(pid):
            subprocess.run(["ip", "netns", "delete", namespace], capture_output=True)


def _process_exists(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


@contextmanager
def shaped_namespace(rate: str) -> Iterator[str]:
    """A namespace of our own with its loopback shaped to `rate`, deleted when the block ends
    (also on Ctrl-C or an error). Raises NamespaceRefused with the failing command's words."""
    namespace = namespace_name()
    try:
        for command in namespace_setup(namespace, rate):
            result = subprocess.run(command, capture_output=True, text=True)
            if result.returncode != 0:
                hint = "" if os.geteuid() == 0 else " (shaped links need root)"
                raise NamespaceRefused(f"`{shlex.join(command)}` failed: {result.stderr.strip() or result.returncode}{hint}")
        yield namespace
    finally:
        # Also after a failed `add` (then it answers that there is no such namespace, harmlessly).
        subprocess.run(["ip", "netns", "delete", namespace], capture_output=True)


def noisy_clip(folder: Path) -> Path:
    """The shaped-link tests' clip in `folder`: the test pattern at 640x360, 25 fps, 40 s, with
    heavy noise — camera-like in what it costs to encode (x264 spends its whole cap on it), made
    in a few seconds."""
    return make_clip(folder / "noise-640x360-25fps.mp4", "testsrc2=size=640x360:rate=25", 40,
                     "-vf", "noise=alls=25:allf=t", "-preset", "ultrafast", "-crf", "18")


def shaped_links_refusal() -> str | None:
    """Why shaped links cannot be made here (not root, namespaces refused), or None when they can:
    tries one after deleting what earlier runs left."""
    if os.geteuid() != 0:
        return "shaped links need root (ip netns, tc): not root here"
    remove_stale_namespaces()
    try:
        with shaped_namespace("700kbit"):
            return None
    except NamespaceRefused as refusal:
        return f"network namespaces are refused here: {refusal}"


def binary_in_namespace(namespace: str, binary: str, directory: str) -> str:
    """A script that runs `binary` inside `namespace`, for bench_server's launcher (which runs
    `BINARY serve …`). `ip netns exec` execs without forking, so the pid the launcher holds, stops
    and reads is the server's own."""
    script = Path(directory) / "filtercast-in-netns"
    script.write_text(f'#!/bin/sh\nexec {shlex.join(in_namespace(namespace, [binary]))} "$@"\n')
    script.chmod(0o755)
    return str(script)


# -- one row: measuring what the page draws ---------------------------------------------------

# What the page says about itself each second. `transport` and `bitsPerSecond` are there once the
# page has H.264 (null before); `serverFps` is the last state's `fps`, the rate the server delivers
# (it tells a server that could not keep up, on a busy machine, from a page or link that could not).
SNAPSHOT = """(() => { const f = window.filtercast, s = f.stats;
  return {framesDrawn: s.framesDrawn, width: s.width, height: s.height,
          transport: s.transport ?? null, bitsPerSecond: s.bitsPerSecond ?? null,
          serverFps: f.state?.fps ?? null}; })()"""
METRICS = "fetch('/metrics').then(response => response.text())"


@dataclass
class Row:
    link: Link
    transport: str  # as asked in the page's URL
    skipped: str | None = None  # why the row was not measured (the harness could not shape the link)
    error: str | None = None  # why the measurement broke off (no frame drawn, Chromium exited, …)
    seconds: float = 0.0
    frames: int = 0
    latencies: list = field(default_factory=list)  # send → drawn, ms, one per drawn frame
    sizes: list = field(default_factory=list)  # (width, height) drawn, one per second
    full_size: tuple = (WIDTH, HEIGHT)  # the server's frame size
    transports: list = field(default_factory=list)  # stats.transport, one per second (None: not reported)
    page_bits: list = field(default_factory=list)  # stats.bitsPerSecond, one per second (when reported)
    server_fps: list = field(default_factory=list)  # state.fps, one per second
    sent_bytes: float | None = None  # /metrics bytes sent during the measurement

    @property
    def fps(self) -> float:
        return self.frames / self.seconds if self.seconds else 0.0

    def latency(self, fraction: float) -> float | None:
        return percentile(self.latencies, fraction) if self.latencies else None

    @property
    def drawn_full_size(self) -> bool:
        return bool(self.sizes) and all(tuple(size) == tuple(self.full_size) for size in self.sizes)

    @property
    def page_bits_per_second(self) -> float | None:
        return statistics.median(self.page_bits) if self.page_bits else None

    @property
    def server_fps_median(self) -> float | None:
        return statistics.median(self.server_fps) if self.server_fps else None

    @property
    def sent_bits_per_second(self) -> float | None:
        return self.sent_bytes * 8 / self.seconds if self.sent_bytes is not None and self.seconds else None


def metric(text: str, name: str) -> float | None:
    """A sample of the Prometheus text exposition (`name` with its labels, as written)."""
    for line in text.splitlines():
        if line.startswith(name + " "):
            return float(line.split()[1])
    return None


def page_url(http_url: str, transport: str) -> str:
    return f"{http_url}?transport={transport}"


def measure(page: Page, row: Row, seconds: float):
    """Samples the page once a second for `seconds` into `row`."""
    page.evaluate("window.filtercast.latencyHistory.length = 0")
    bytes_before = metric(page.evaluate(METRICS), "filtercast_bytes_sent_total")
    first = page.evaluate(SNAPSHOT)
    started = time.monotonic()
    snapshots = []
    for second in range(1, int(seconds) + 1):
        time.sleep(max(0.0, started + second - time.monotonic()))
        snapshots.append(page.evaluate(SNAPSHOT))
    row.seconds = time.monotonic() - started
    row.latencies = page.evaluate("window.filtercast.latencyHistory.slice()")
    bytes_after = metric(page.evaluate(METRICS), "filtercast_bytes_sent_total")
    row.frames = snapshots[-1]["framesDrawn"] - first["framesDrawn"]
    row.sizes = [(snapshot["width"], snapshot["height"]) for snapshot in snapshots]
    row.transports = [snapshot["transport"] for snapshot in snapshots]
    row.page_bits = [snapshot["bitsPerSecond"] for snapshot in snapshots if snapshot["bitsPerSecond"] is not None]
    row.server_fps = [snapshot["serverFps"] for snapshot in snapshots if snapshot["serverFps"] is not None]
    if bytes_before is not None and bytes_after is not None:
        row.sent_bytes = bytes_after - bytes_before


def serve_on_link(stack: ExitStack, binary: str, clip: Path, rate: str | None, filter_name: str):
    """The server on `clip` over a loopback shaped to `rate` (None: the plain loopback), entered
    on `stack` (closed in reverse: the server, the namespace); (server, namespace or None).
    Raises NamespaceRefused."""
    if not rate:
        return stack.enter_context(serving(binary, ["--input", str(clip), "--filter", filter_name])), None
    namespace = stack.enter_context(shaped_namespace(rate))
    server_binary = binary_in_namespace(namespace, binary, stack.enter_context(tempfile.TemporaryDirectory()))
    return stack.enter_context(serving(server_binary, ["--input", str(clip), "--filter", filter_name])), namespace


def open_page(stack: ExitStack, server, namespace: str | None, transport: str) -> Page:
    """Headless Chromium (in `namespace`, if any) on the server's page, once it drew a frame."""
    page = stack.enter_context(Page(in_namespace(namespace, []) if namespace else ()))
    page.open(page_url(server.http_url, transport))
    page.wait_for("window.filtercast && window.filtercast.stats.framesDrawn > 0", 30, "the page drew no frame")
    return page


def measure_row(binary: str, clip: Path, link: Link, transport: str, filter_name: str, settle: float,
                seconds: float) -> Row:
    row = Row(link, transport)
    with ExitStack() as stack:  # closed in reverse: the page, the server, the namespace
        try:
            server, namespace = serve_on_link(stack, binary, clip, link.rate, filter_name)
        except NamespaceRefused as refusal:
            row.skipped = f"no shaped namespace: {refusal}"
            return row
        row.full_size = (server.width, server.height)
        try:
            page = open_page(stack, server, namespace, transport)
            time.sleep(settle)  # TCP's ramp-up, the server's slow-reader detection, the page's JIT
            measure(page, row, seconds)
        except RuntimeError as error:  # this row fails; the next may still be measured
            row.error = str(error)
    return row


# -- recovery: a link that gets better ----------------------------------------------------------

RECOVERY_GOAL_SECONDS = 5.0


@dataclass
class Recovery:
    transport: str
    slow_size: tuple | None = None  # what the page drew at the end of the slow spell
    seconds: float | None = None  # from the link's change to the first full-size picture
    error: str | None = None


def measure_recovery(binary: str, clip: Path, transport: str, filter_name: str, slow: str = "3mbit",
                     fast: str = "50mbit", slow_seconds: float = 12, timeout: float = 15,
                     full_size: tuple | None = None) -> Recovery:
    """Serves `clip` over a link shaped to `slow` for `slow_seconds` (the page moves down), then
    changes the shaping to `fast` (`tc qdisc change`) and times how long the page takes to draw a
    full-size picture again (`full_size`: the clip's, if not given)."""
    result = Recovery(transport)
    with ExitStack() as stack:
        try:
            server, namespace = serve_on_link(stack, binary, clip, slow, filter_name)
        except NamespaceRefused as refusal:
            result.error = f"no shaped namespace: {refusal}"
            return result
        full = full_size or (server.width, server.height)
        try:
            page = open_page(stack, server, namespace, transport)
            time.sleep(slow_seconds)
            snapshot = page.evaluate(SNAPSHOT)
            result.slow_size = (snapshot["width"], snapshot["height"])
            reshape(namespace, fast)
            changed = time.monotonic()
            while time.monotonic() - changed < timeout:
                snapshot = page.evaluate(SNAPSHOT)
                if (snapshot["width"], snapshot["height"]) == tuple(full):
                    result.seconds = time.monotonic() - changed
                    break
                time.sleep(0.1)
        except (RuntimeError, subprocess.CalledProcessError) as error:
            result.error = str(error)
    return result


def recovery_line(recovery: Recovery) -> str:
    if recovery.error:
        return f"recovery  {recovery.transport:5}  ERROR: {recovery.error}"
    took = f"{recovery.seconds:.1f} s" if recovery.seconds is not None else "not within the timeout"
    passed = recovery.seconds is not None and recovery.seconds <= RECOVERY_GOAL_SECONDS
    return (f"recovery  {recovery.transport:5}  3 Mbit/s → 50 Mbit/s: drawn {_sizes([recovery.slow_size]) if recovery.slow_size else '?'}"
            f" when slow, full size again after {took}  (goal ≤ {RECOVERY_GOAL_SECONDS:g} s)  {'PASS' if passed else 'FAIL'}")


# -- goals and the table --------------------------------------------------------------------------

@dataclass(frozen=True)
class Goal:
    min_fps: float
    full_size: bool
    max_p95: float | None  # ms; None: not judged

    def describe(self) -> str:
        words = [f"≥ {self.min_fps:g} fps"]
        if self.full_size:
            words.append("full size")
        if self.max_p95 is not None:
            words.append(f"p95 ≤ {self.max_p95:g} ms")
        return ", ".join(words)

    def failures(self, row: Row) -> list[str]:
        """What `row` misses of the goal (empty: met)."""
        if row.error:
            return [f"error: {row.error}"]  # what was measured before it broke off is no figure
        failed = []
        if row.fps < self.min_fps:
            failed.append(f"{row.fps:.1f} fps")
        if self.full_size and not row.drawn_full_size:
            failed.append("not full size")
        p95 = row.latency(0.95)
        if self.max_p95 is not None and (p95 is None or p95 > self.max_p95):
            failed.append("no latency" if p95 is None else f"p95 {p95:.0f} ms")
        return failed


# Issue 14's goals by (tc rate, transport); `h264` is judged as `auto`, which should pick it.
GOALS = {
    (None, "auto"): Goal(24, True, 30),
    (None, "jpeg"): Goal(24, True, None),
    ("10mbit", "auto"): Goal(24, True, 60),
    ("10mbit", "jpeg"): Goal(20, False, 150),  # a smaller rendition is allowed
    ("3mbit", "auto"): Goal(24, False, 80),
    ("3mbit", "jpeg"): Goal(15, False, 200),
}


def goal_for(row: Row) -> Goal:
    return GOALS[(row.link.rate, "auto" if row.transport == "h264" else row.transport)]


def verdict(row: Row) -> str:
    if row.skipped:
        return "SKIPPED"
    failed = goal_for(row).failures(row)
    return "PASS" if not failed else "FAIL (" + ", ".join(failed) + ")"


def _number(value: float | None, digits: int = 1) -> str:
    return "n/a" if value is None else f"{value:.{digits}f}"


def _mbit(bits: float | None) -> str:
    return "n/a" if bits is None else f"{bits / 1e6:.2f}"


def _sizes(sizes: Iterable[tuple]) -> str:
    """The distinct sizes drawn, most frequent first: `1280x720` or `1280x720/640x360`."""
    counts: dict[tuple, int] = {}
    for size in sizes:
        counts[tuple(size)] = counts.get(tuple(size), 0) + 1
    return "/".join(f"{w}x{h}" for (w, h) in sorted(counts, key=counts.get, reverse=True)) or "n/a"


def _transports(values: Iterable[str | None]) -> str:
    distinct = sorted({value or "n/a" for value in values})
    return "/".join(distinct) or "n/a"


ROW_HEADER = ("link", "asked", "drawn", "fps", "server fps", "p50 ms", "p95 ms", "size", "page Mbit/s", "sent Mbit/s", "goal",
              "verdict")


def row_cells(row: Row) -> tuple:
    goal = goal_for(row).describe()
    if row.skipped:
        return (row.link.name, row.transport, "", "", "", "", "", "", "", "", goal, f"SKIPPED ({row.skipped})")
    return (row.link.name, row.transport, _transports(row.transports), _number(row.fps),
            _number(row.server_fps_median), _number(row.latency(0.5)),
            _number(row.latency(0.95)), _sizes(row.sizes), _mbit(row.page_bits_per_second),
            _mbit(row.sent_bits_per_second), goal, verdict(row))


def format_table(header: tuple, rows: Iterable[tuple]) -> str:
    """Plain text columns under the header and a rule; columns of numbers (and their header)
    right-aligned."""
    rows = [tuple(str(cell) for cell in row) for row in rows]
    columns = list(zip(header, *rows))
    widths = [max(map(len, column)) for column in columns]
    right = [_numeric_column(column[1:]) for column in columns]

    def line(cells):
        return "  ".join(cell.rjust(width) if is_right else cell.ljust(width)
                         for cell, width, is_right in zip(cells, widths, right)).rstrip()
    return "\n".join([line(header), "  ".join("-" * width for width in widths), *map(line, rows)])


def _numeric_column(cells: tuple) -> bool:
    """Numbers, with `n/a` or nothing where a row has none."""
    numbers = [cell for cell in cells if cell not in ("", "n/a")]
    return bool(numbers) and all(re.fullmatch(r"-?\d+(\.\d+)?", cell) for cell in numbers)


# -- the quality row: bits and SSIM of what the server sends ------------------------------------

@dataclass
class StreamQuality:
    transport: str
    seconds: float
    frames: int
    bits: int  # payload bits received (headers included)
    ssim: float  # mean over the frames of full size
    full_size_frames: int

    @property
    def bits_per_second(self) -> float:
        return self.bits / self.seconds


# Each transport's binary messages by their magic (docs/PROTOCOL.md "Binary messages"): fc_client's
# Frame reads both, its `jpeg` the body after the header (a JPEG, or an Annex B access unit).
MAGIC = {"jpeg": b"FCF1", "h264": b"FCH1"}


async def _record_frames(url: str, settle: float, seconds: float, transport: str) -> tuple[list, list]:
    client = await Client.connect(url, auto_ack=True)  # a frameAck for every frame, as the page sends
    try:
        if transport != "jpeg":  # a client that never says `watch` gets the first (full-size) JPEG rendition
            try:
                await client.ok({"type": "watch", "transport": transport,
                                 "rendition": largest_rendition(client.hello or {}, transport) or "auto"})
            except AssertionError as refusal:  # refused, or no answer
                raise RuntimeError(f"the server does not give {transport}: {refusal}") from None
        phases = [await client.collect(settle), await client.collect(seconds)]
    finally:
        await client.close()
    # Leaves out the JPEG frames still on their way when `watch` was answered.
    return tuple([item for item in items if isinstance(item, Frame) and item.magic == MAGIC[transport]]
                 for items in phases)


def largest_rendition(hello: dict, transport: str) -> str | None:
    """The id of the largest of `hello.renditions` of `transport` (None when it lists none): the
    quality row compares full-size pictures, and a pinned rendition is never changed under it."""
    offered = [rendition for rendition in hello.get("renditions", []) if rendition.get("transport") == transport]
    return max(offered, key=lambda rendition: rendition["width"] * rendition["height"])["id"] if offered else None


def record_stream(ws_url: str, settle: float, seconds: float, transport: str) -> tuple[list[Frame], list[Frame]]:
    """The messages of `transport` the server sends one viewer: those of the first `settle`
    seconds (an H.264 decoder needs them: the stream starts at their keyframe), and those of the
    `seconds` after them, the ones measured."""
    return asyncio.run(asyncio.wait_for(_record_frames(ws_url, settle, seconds, transport), settle + seconds + 30))


def received_lumas(transport: str, frames: list[Frame]) -> Iterator[tuple[int, np.ndarray]]:
    """(pts µs, full-range luma plane) of every received frame."""
    if transport == "h264":
        yield from _h264_lumas(frames)
        return
    for frame in frames:
        image = Image.open(io.BytesIO(frame.jpeg))
        image.draft("YCbCr", image.size)  # the JPEG's own Y, no trip through RGB
        yield frame.pts_us, np.asarray(image)[..., 0]


def _h264_lumas(frames: list[Frame]) -> Iterator[tuple[int, np.ndarray]]:
    """The access units from the first keyframe on, decoded by ffmpeg in order: Constrained
    Baseline has no B-frames, so the n-th picture is the n-th unit's."""
    start = next((i for i, frame in enumerate(frames) if frame.keyframe), len(frames))
    units = frames[start:]
    if not units:
        return
    width, height, _ = units[0].picture
    with tempfile.NamedTemporaryFile(suffix=".h264") as stream:
        stream.write(b"".join(unit.jpeg for unit in units))
        stream.flush()
        pictures = decoded_lumas(Path(stream.name), width, height, input_options=("-f", "h264"))
        decoded = 0
        for unit, (_, luma) in zip(units, pictures):
            decoded += 1
            yield unit.pts_us, luma
    if decoded != len(units):
        raise RuntimeError(f"ffmpeg decoded {decoded} pictures of {len(units)} H.264 access units")


def full_range_luma(plane: np.ndarray) -> np.ndarray:
    """Limited-range (16–235) luma as full range: the server expands it before encoding JPEGs."""
    return np.clip((plane.astype(np.float64) - 16) * (255 / 219), 0, 255)


def frame_index(pts_us: int, fps: int = FPS) -> int:
    """The clip's frame shown at presentation time `pts_us` (constant frame rate, starting at 0)."""
    return round(pts_us * fps / 1e6)


def decoded_lumas(path: Path, width: int, height: int, input_options: Iterable[str] = (),
                  wanted: set[int] | None = None) -> Iterator[tuple[int, np.ndarray]]:
    """(index, full-range luma) of the pictures of a video file in decoding order, all of them or
    those in `wanted`, decoded by ffmpeg as limited-range yuv420p (a full-range stream is scaled
    to it first, so the expansion is always right), one picture per frame (passthrough: no
    frame made up or dropped for timestamps)."""
    frame_bytes = width * height * 3 // 2
    decoder = subprocess.Popen(["ffmpeg", "-hide_banner", "-loglevel", "error", *input_options, "-i", str(path),
                                "-fps_mode", "passthrough", "-f", "rawvideo", "-pix_fmt", "yuv420p", "-"],
                               stdout=subprocess.PIPE)
    try:
        index = 0
        while wanted is None or index <= max(wanted, default=-1):
            data = decoder.stdout.read(frame_bytes)
            if len(data) < frame_bytes:
                return
            if wanted is None or index in wanted:
                yield index, full_range_luma(np.frombuffer(data, np.uint8, width * height).reshape(height, width))
            index += 1
    finally:
        decoder.kill()
        decoder.wait()


def _window_means(plane: np.ndarray, window: int) -> np.ndarray:
    """The mean of every window × window square of `plane` (all positions), by summed areas."""
    sums = np.pad(plane.cumsum(0).cumsum(1), ((1, 0), (1, 0)))
    return (sums[window:, window:] - sums[:-window, window:] - sums[window:, :-window]
            + sums[:-window, :-window]) / (window * window)


def ssim(a: np.ndarray, b: np.ndarray, window: int = 8) -> float:
    """Mean SSIM of two 8-bit planes (Wang et al. 2004) over 8 × 8 windows, as x264's and ffmpeg's
    `ssim` measure it (they step the windows by 4; here every position counts)."""
    a, b = a.astype(np.float64), b.astype(np.float64)
    c1, c2 = (0.01 * 255) ** 2, (0.03 * 255) ** 2
    mean_a, mean_b = _window_means(a, window), _window_means(b, window)
    var_a = _window_means(a * a, window) - mean_a ** 2
    var_b = _window_means(b * b, window) - mean_b ** 2
    covariance = _window_means(a * b, window) - mean_a * mean_b
    index = ((2 * mean_a * mean_b + c1) * (2 * covariance + c2)
             / ((mean_a ** 2 + mean_b ** 2 + c1) * (var_a + var_b + c2)))
    return float(index.mean())


def stream_quality(binary: str, clip: Path, settle: float, seconds: float, transport: str) -> StreamQuality:
    """Bits and SSIM of the `transport` stream for the unfiltered clip on the plain loopback,
    after `settle` seconds: a viewer's first H.264 pictures are worse than the stream's (its
    keyframe, made at once for the joiner under the same tight VBV) and no viewer watches only them."""
    with serving(binary, ["--input", str(clip), "--filter", "none"]) as server:
        settling, frames = record_stream(server.ws_url(), settle, seconds, transport)
    measured = {frame.pts_us for frame in frames}
    received = {frame_index(pts): luma for pts, luma in received_lumas(transport, settling + frames)
                if pts in measured and luma.shape == (HEIGHT, WIDTH)}  # a smaller rendition is not compared
    scores = [ssim(source, received[index])
              for index, source in decoded_lumas(clip, WIDTH, HEIGHT, wanted=set(received))]
    return StreamQuality(transport, seconds, len(frames), sum((frame.header_length + len(frame.jpeg)) * 8 for frame in frames),
                         statistics.fmean(scores) if scores else float("nan"), len(scores))


QUALITY_HEADER = ("transport", "frames", "full size", "Mbit/s", "KB/frame", "SSIM (Y)")


def quality_cells(quality: StreamQuality | str, transport: str) -> tuple:
    if isinstance(quality, str):
        return (transport, "", "", "", "", f"not measured: {quality}")
    return (transport, quality.frames, quality.full_size_frames, _mbit(quality.bits_per_second),
            _number(quality.bits / 8 / 1000 / quality.frames if quality.frames else None), f"{quality.ssim:.4f}")


def quality_verdict(jpeg: StreamQuality | str, h264: StreamQuality | str) -> str:
    """Issue 14: H.264 bits ≤ 1/5 of JPEG's at full size, SSIM within 0.01 of JPEG's (or better)."""
    if isinstance(jpeg, str) or isinstance(h264, str):
        return "PENDING (a stream was not measured)"
    failed = []
    if h264.bits_per_second * 5 > jpeg.bits_per_second:
        failed.append(f"H.264 {jpeg.bits_per_second / h264.bits_per_second:.1f}× fewer bits, not 5×")
    if h264.ssim < jpeg.ssim - 0.01:
        failed.append(f"SSIM {h264.ssim:.3f} vs {jpeg.ssim:.3f}")
    return "PASS" if not failed else "FAIL (" + ", ".join(failed) + ")"


def measure_quality(binary: str, clip: Path, settle: float, seconds: float) -> dict[str, StreamQuality | str]:
    """Each transport's StreamQuality, or why it was not measured (a server without H.264)."""
    results: dict[str, StreamQuality | str] = {}
    for transport in ("jpeg", "h264"):
        try:
            results[transport] = stream_quality(binary, clip, settle, seconds, transport)
        except RuntimeError as error:
            results[transport] = str(error)
    return results


# -- main ---------------------------------------------------------------------------------------

def _interrupted(signum, frame):
    raise KeyboardInterrupt  # SIGTERM as Ctrl-C: the finally blocks stop Chromium and the server, delete the namespace


def _choices(text: str, allowed: Iterable[str], what: str) -> list[str]:
    chosen = [word.strip() for word in text.split(",") if word.strip()]
    unknown = [word for word in chosen if word not in allowed]
    if unknown:
        raise argparse.ArgumentTypeError(f"unknown {what}: {', '.join(unknown)} (choose from {', '.join(allowed)})")
    return chosen


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bin", default=os.environ.get("FILTERCAST_BIN", str(REPO / ".build/release/filtercast")))
    parser.add_argument("--transports", default="auto,jpeg", type=lambda t: _choices(t, TRANSPORTS, "transport"),
                        help="the page's ?transport= values to measure (auto, jpeg, h264; default auto,jpeg)")
    parser.add_argument("--links", default=",".join(LINKS), type=lambda t: _choices(t, LINKS, "link"),
                        help="default loopback,10mbit,3mbit")
    parser.add_argument("--filter", default="sepia")
    parser.add_argument("--seconds", type=float, default=20, help="measured per row (default 20)")
    parser.add_argument("--settle", type=float, default=5, help="after the first drawn frame (default 5)")
    parser.add_argument("--quality-seconds", type=float, default=10)
    parser.add_argument("--no-quality", action="store_true", help="skip the quality row")
    parser.add_argument("--no-recovery", action="store_true", help="skip the recovery rows (3 → 50 Mbit/s)")
    options = parser.parse_args()
    if not os.access(options.bin, os.X_OK):
        sys.exit(f"no filtercast binary at {options.bin}: swift build -c release, or --bin PATH")
    if not os.access(CHROMIUM, os.X_OK):
        sys.exit(f"{CHROMIUM} is missing: apt-get install chromium")
    signal.signal(signal.SIGTERM, _interrupted)
    os.environ.update({"NO_PROXY": "*", "no_proxy": "*"})
    clip = natural_clip()
    if os.geteuid() == 0:
        remove_stale_namespaces()
    print(f"filtercast: {options.bin}; clip {clip.name} ({WIDTH}x{HEIGHT}@{FPS}, natural), --filter {options.filter}; "
          f"headless Chromium; {options.seconds:g} s per row after {options.settle:g} s of settling", flush=True)

    load_before = os.getloadavg()[0]
    rows = []
    for link in (LINKS[name] for name in options.links):
        for transport in options.transports:
            rows.append(measure_row(options.bin, clip, link, transport, options.filter, options.settle,
                                    options.seconds))
            print(format_table(ROW_HEADER, [row_cells(row) for row in rows[-1:]]).splitlines()[-1], flush=True)
    print()
    print(format_table(ROW_HEADER, [row_cells(row) for row in rows]))
    print("drawn: the page's stats.transport (n/a: a page from before H.264, which does not report it and draws "
          "JPEG only); server fps: the median of state.fps; latency: server send time (frame header) → drawn on the "
          "canvas, per frame; page Mbit/s: median of stats.bitsPerSecond; sent Mbit/s: the server's /metrics bytes "
          "sent during the measurement")
    # Server, Chromium and anything else running share the cores: a busy machine costs frames.
    print(f"load average (1 min) before the rows {load_before:.1f}, after {os.getloadavg()[0]:.1f}, "
          f"on {os.cpu_count()} cores")

    if not options.no_recovery:
        print()
        for transport in options.transports:
            print(recovery_line(measure_recovery(options.bin, clip, transport, options.filter)), flush=True)

    if not options.no_quality:
        quality = measure_quality(options.bin, clip, options.settle, options.quality_seconds)
        print()
        print(f"quality: the unfiltered clip (--filter none) over the plain loopback, {options.quality_seconds:g} s "
              f"after {options.settle:g} s of settling, each received picture against the clip's frame of the same "
              "presentation time")
        print(format_table(QUALITY_HEADER, [quality_cells(quality[t], t) for t in ("jpeg", "h264")]))
        print(f"goal: H.264 bits ≤ 1/5 of JPEG's at full size, SSIM within 0.01 → "
              f"{quality_verdict(quality['jpeg'], quality['h264'])}")
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except KeyboardInterrupt:
        sys.exit("interrupted (Chromium, the server and the namespace are gone)")
