#!/usr/bin/python3
"""Take with a 1 s fade (issue 26): every viewer sees the fade (intermediate frames) and the new
look 1 s ± one frame after the fade's first changed frame.

Runs `filtercast serve` (release build) on the 720p30 test pattern and on the 720p25 natural clip
(bench/natural_clip.py) with `sepia` on air and `[sepia, invert]` in the preview: the new look is
the old one's negative, so every pixel moves far and a frame's place in the fade is exact. Two
viewers watch `jpeg-720p` and two `h264-720p` (their access units decoded by the ffmpeg CLI, as
bench/delivery.py does); one more client watches `preview-180p`, whose frame of each source
picture (same timestamp) is the new look N, and 255 − N the old look O. A controller sends
`take {transition: "fade", duration: 1}` 2 s in. For each viewer frame with a preview frame of the
same timestamp, its place in the fade is p = ⟨F − O, N − O⟩ / |N − O|² on the luma at 320x180
(0: the old look, 1: the new).

Per viewer: the first frame after the take with p > LOW (the fade's first changed frame), the first
frame after it within NEAR of the place the viewer settles on (equal to the new look; H.264 settles
over a few frames), the frames in between (intermediate), and
the time between those two in source timestamps and in arrival wall clock. A frame without a
preview frame of its timestamp (the preview's are dropped when the machine is busy) is placed by the
line through the measured places inside the fade (by arrival: the server fades by its clock), and
counted. Pass: every viewer saw
intermediate frames (at least a third of the frame rate) and both times are 1 s ± one frame
period. Prints the load average (the machine may be shared); exit 1 on a miss.

    /usr/bin/python3 bench/take_fade.py [--bin PATH] [--runs 2]
"""

from __future__ import annotations

import asyncio
import os
import sys
import time
from dataclasses import dataclass

import numpy as np

from bench_server import bench_arguments, serving
from delivery import MAGIC, received_lumas
from fc_client import Client, Frame
from natural_clip import natural_clip

OLD = [{"name": "sepia"}]
NEW = [{"name": "sepia"}, {"name": "invert"}]
# The preview's smallest rendition: the reference of every picture (a preview frame is dropped when the
# next source frame already waits; a small one is made fastest, so fewer are).
REFERENCE = "preview-180p"
VIEWERS = (("jpeg", "jpeg-720p"), ("jpeg", "jpeg-720p"), ("h264", "h264-720p"), ("h264", "h264-720p"))
FADE = 1.0
# Seconds of frames before the take (an H.264 viewer's stream starts at a keyframe), and after it.
BEFORE, AFTER = 2.0, 2.5
# A frame whose place in the fade is more than LOW from an end is between the looks (the measure's
# noise, the largest |p| before the take, is printed: some 0.001).
LOW = 0.005
# A frame within NEAR of the new look as the viewer settles on it is equal to it (2 % of the way:
# 2–4 luma codes, under a JPEG's error).
NEAR = 0.02


@dataclass
class Verdict:
    """One viewer's fade."""
    viewer: str
    intermediate: int
    pts_span: float | None  # first changed → first new look, source seconds (None: not seen)
    wall_span: float | None  # the same by arrival
    predicted: int  # frames after the take placed by the fit (no preview frame of their timestamp)
    frames: int  # frames after the take
    baseline: float  # the largest |p| before the take (the measure's noise)

    def passed(self, fps: float) -> bool:
        period = 1 / fps
        return (self.intermediate >= fps / 3 and self.pts_span is not None and self.wall_span is not None
                and abs(self.pts_span - FADE) <= period + 1e-3 and abs(self.wall_span - FADE) <= period + 1e-3)

    def line(self, fps: float) -> str:
        def seconds(value):
            return "—" if value is None else f"{value:.3f} s"
        return (f"  {self.viewer:<6} intermediate {self.intermediate:3d}, first changed → new look "
                f"{seconds(self.pts_span)} (pts) {seconds(self.wall_span)} (wall); {self.frames / AFTER:.0f} fps, "
                f"{self.predicted} of {self.frames} frames placed by the fit, "
                f"noise {self.baseline:.3f}: {'ok' if self.passed(fps) else 'MISS'}")


def small(luma: np.ndarray, shape: tuple) -> np.ndarray:
    """The luma as floats at `shape` (a whole fraction of its size) by block means: the preview's
    small rendition is the reference, and the measure needs no detail."""
    factor = luma.shape[0] // shape[0]
    height, width = shape[0] * factor, shape[1] * factor
    return luma[:height, :width].astype(np.float64).reshape(shape[0], factor, shape[1], factor).mean(axis=(1, 3))


def place(picture: np.ndarray, new: np.ndarray) -> float:
    """Where `picture` lies between the old look (255 − `new`) and `new`: 0 … 1."""
    old = 255 - new
    direction = new - old
    return float(((picture - old) * direction).sum() / max((direction * direction).sum(), 1e-9))


def placed(transport: str, frames: list[Frame], reference: dict) -> list[tuple[int, float, float | None]]:
    """(timestamp µs, arrival, place in the fade or None without a preview frame of that timestamp)
    of each frame decoded (an H.264 stream's from its first keyframe: the last ones of `frames`)."""
    pictures = list(received_lumas(transport, frames))
    return [(pts, frame.received, place(small(luma, reference[pts].shape), reference[pts]) if pts in reference else None)
            for frame, (pts, luma) in zip(frames[len(frames) - len(pictures):], pictures)]


def fill_by_fit(after: list) -> tuple[list, int]:
    """`after` with each unknown place predicted by the line through the measured places inside the
    fade (by arrival: the server fades by its clock), and how many were predicted."""
    inside = [(at, p) for _, at, p in after if p is not None and 0.05 < p < 0.95]
    if len(inside) < 3:
        return [(pts, at, p) for pts, at, p in after if p is not None], 0
    slope, intercept = np.polyfit(*zip(*inside), 1)
    filled = [(pts, at, p if p is not None else min(max(slope * at + intercept, 0.0), 1.0)) for pts, at, p in after]
    return filled, sum(1 for _, _, p in after if p is None)


def judge(name: str, transport: str, frames: list[Frame], reference: dict, taken: float) -> Verdict:
    """`frames` of one viewer against the preview's pictures by timestamp; `taken`: time.monotonic() of the take."""
    places = placed(transport, frames, reference)
    before = [p for _, at, p in places if at < taken and p is not None]
    after, predicted = fill_by_fit([(pts, at, p) for pts, at, p in places if at >= taken])
    # The new look as this viewer settles on it (its last half second): H.264 takes a few frames
    # to settle after a change this large (0.992 → 0.998), and the small reference leaves 0.999.
    settled = float(np.median([p for _, at, p in after if at >= taken + AFTER - 0.5] or [1.0]))
    start = next((i for i, (_, _, p) in enumerate(after) if p > LOW), None)
    end = None if start is None else next((i for i in range(start, len(after)) if after[i][2] >= settled - NEAR), None)
    spans = (None, None) if end is None else ((after[end][0] - after[start][0]) / 1e6, after[end][1] - after[start][1])
    intermediate = sum(1 for _, _, p in after if LOW < p < settled - NEAR)
    return Verdict(name, intermediate, *spans, predicted, len(after), max((abs(p) for p in before), default=float("nan")))


async def record(server) -> tuple[float, dict, list]:
    """(when the take was sent, the preview's pictures by timestamp, each viewer's frames)."""
    controller = await Client.connect(server.ws_url())
    await controller.ok({"type": "setFilter", "chain": NEW, "to": "preview"})
    reference = await Client.connect(server.ws_url())
    await reference.ok({"type": "watch", "transport": "jpeg", "rendition": REFERENCE})
    viewers = []
    for transport, rendition in VIEWERS:
        viewers.append(await Client.connect(server.ws_url()))
        await viewers[-1].ok({"type": "watch", "transport": transport, "rendition": rendition})

    async def take() -> float:
        await asyncio.sleep(BEFORE)  # the schedule of the run, not a wait for anything
        await controller.send_json({"type": "take", "transition": "fade", "duration": FADE})
        return time.monotonic()
    try:
        *received, taken = await asyncio.gather(*(client.collect(BEFORE + AFTER) for client in [reference, *viewers]), take())
    finally:
        for client in [controller, reference, *viewers]:
            await client.close()
    # Only the frames of each client's transport: a JPEG frame on its way when `watch` was answered is left out.
    frames = [[item for item in items if isinstance(item, Frame) and item.magic == MAGIC[transport]]
              for items, (transport, _) in zip(received, [("jpeg", ""), *VIEWERS])]
    pictures = {pts: luma.astype(np.float64) for pts, luma in received_lumas("jpeg", frames[0])}
    return taken, pictures, frames[1:]


def run_once(binary: str, source: str, fps: float) -> list[Verdict]:
    with serving(binary, ["--input", source, "--filter", "sepia"]) as server:
        taken, reference, frames = asyncio.run(asyncio.wait_for(record(server), 60))
    names = [f"{transport}{index + 1}" for index, (transport, _) in enumerate(VIEWERS)]
    return [judge(name, transport, viewer, reference, taken)
            for name, (transport, _), viewer in zip(names, VIEWERS, frames)]


def main() -> int:
    options = bench_arguments(__doc__.split("\n")[0], runs=2, seconds=0).parse_args()
    sources = [("test pattern 720p30", "test:1280x720@30", 30.0), ("natural clip 720p25", str(natural_clip()), 25.0)]
    print(f"take with a {FADE:g} s fade, sepia → its negative, {len(VIEWERS)} viewers "
          f"({os.cpu_count()} cores, load {' '.join(f'{x:.1f}' for x in os.getloadavg())})", flush=True)
    missed = 0
    for label, source, fps in sources:
        for run in range(options.runs):
            verdicts = run_once(options.bin, source, fps)
            print(f"{label}, run {run + 1} (load {os.getloadavg()[0]:.1f}); pass: 1 s ± {1000 / fps:.0f} ms", flush=True)
            for verdict in verdicts:
                print(verdict.line(fps), flush=True)
            missed += sum(1 for verdict in verdicts if not verdict.passed(fps))
    print(f"{'every viewer saw the fade and the new look on time' if not missed else f'{missed} viewer fades missed'} "
          f"(load {os.getloadavg()[0]:.1f})", flush=True)
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
