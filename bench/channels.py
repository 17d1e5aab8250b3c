#!/usr/bin/python3
"""Issue 25's numbers for channels, in one run (bench/channels.sh builds what it needs and calls
this). Every figure is measured on this machine in this run, with the load average beside it:

1. idle: 8 channels configured (4 files of the natural clip, 4 live MPEG-TS streams over UDP made by
   the ffmpeg CLI), nobody watching: the whole server's CPU over IDLE_SECONDS (30), after the live
   channels had `--idle-close` + 2 s to close. Budget: ≤ 1 % of a core.
2. three: 3 channels of the natural clip at 720p30 with sepia, one H.264 viewer each (bench/fanout,
   `watch` h264-720p): the server's CPU against the sum of three runs of one such channel, in the
   same run; every viewer ≥ 29 fps. Budget: within 10 %.
3. fanout: 100 viewers (the v1 client's full-size JPEG) over 4 channels of the 720p30 test pattern
   with sepia (as bench/fanout.sh's table), 25 each, at once: each viewer ≥ 29 fps.
4. switch: Chromium on the page of a server of two file channels (720p and 360p): a click on the
   other channel's entry to the first picture of it drawn, SWITCHES times. Budget: ≤ 300 ms.
5. live: the same from a file channel to a live one (a UDP stream of the ffmpeg CLI) that
   `--idle-close 2` closed since the page left it: first picture (open + first keyframe) ≤ 2.5 s,
   and the live channel closed again ≤ `--idle-close` + 1 s after the page left it.

Environment: BIN (release filtercast), FANOUT (bench/fanout binary), IDLE_SECONDS, SECONDS (per
measured run, default 15), SWITCHES (default 8), ONLY (comma-separated: idle,three,fanout,switch,live).
Exit code 1 when a budget is missed, so CI can run it (it does not: `make bench-serve` territory).
"""
from __future__ import annotations

import json
import os
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_server import cpu_seconds, serving  # noqa: E402
from natural_clip import natural_clip  # noqa: E402

BIN = os.environ.get("BIN", ".build/release/filtercast")
FANOUT = os.environ.get("FANOUT", "/tmp/filtercast-channels/fanout")
IDLE_SECONDS = float(os.environ.get("IDLE_SECONDS", 30))
SECONDS = float(os.environ.get("SECONDS_PER_RUN", 15))
SWITCHES = int(os.environ.get("SWITCHES", 8))
ONLY = set(filter(None, os.environ.get("ONLY", "idle,three,fanout,switch,live").split(",")))
IDLE_CLOSE = 10
CACHE = Path(os.environ.get("FILTERCAST_BENCH_CACHE", "/tmp/filtercast-bench"))


def load() -> str:
    return "load %.2f %.2f %.2f" % os.getloadavg()


def clip(height: int) -> Path:
    """The natural clip at `height`p, 30 fps (frames repeated from its 25), made once."""
    source = Path(natural_clip())
    out = CACHE / f"channels-{height}p30-{source.stem}.mp4"
    if not out.exists():
        subprocess.run(["ffmpeg", "-nostdin", "-loglevel", "error", "-y", "-i", str(source),
                        "-vf", f"scale=-2:{height},fps=30", "-c:v", "libx264", "-preset", "fast", "-crf", "20",
                        "-g", "30", "-pix_fmt", "yuv420p", "-an", str(out)], check=True, timeout=600)
    return out


def feeds(count: int) -> tuple[list[subprocess.Popen], list[str]]:
    """`count` live MPEG-TS streams over UDP from the ffmpeg CLI (320x240@25, as the tests' LiveFeed)."""
    procs, urls = [], []
    for index in range(count):
        port = 25500 + index * 2 + os.getpid() % 1000 * 8
        url = f"udp://127.0.0.1:{port}"
        procs.append(subprocess.Popen(
            ["ffmpeg", "-nostdin", "-hide_banner", "-loglevel", "error", "-re", "-f", "lavfi",
             "-i", "testsrc2=size=320x240:rate=25", "-c:v", "libx264", "-preset", "ultrafast", "-tune", "zerolatency",
             "-g", "12", "-pix_fmt", "yuv420p", "-f", "mpegts", f"{url}?pkt_size=1316"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        urls.append(url)
    return procs, urls


def idle(file: Path) -> dict:
    procs, urls = feeds(4)
    try:
        channels = [f"f{i}={file}" for i in range(1, 4)] + [f"l{i}={url}" for i, url in enumerate(urls, 1)]
        args = ["--input", str(file), "--idle-close", str(IDLE_CLOSE)]
        for channel in channels:
            args += ["--channel", channel]
        with serving(BIN, args, startup_timeout=60) as server:
            time.sleep(IDLE_CLOSE + 2)  # the live channels close their inputs
            before, start = cpu_seconds(server.proc.pid), time.monotonic()
            time.sleep(IDLE_SECONDS)
            cpu = (cpu_seconds(server.proc.pid) - before) / (time.monotonic() - start) * 100
    finally:
        for proc in procs:
            proc.kill()
            proc.wait()
    return {"cpu_pct": round(cpu, 2), "ok": cpu <= 1.0, "load": load()}


def fanout(port: int, pid: int, viewers: int, path: str, watch: str | None) -> subprocess.Popen:
    command = [FANOUT, "--port", str(port), "--viewers", str(viewers), "--duration", str(SECONDS), "--warmup", "3",
               "--pid", str(pid), "--path", path] + (["--watch", watch] if watch else [])
    return subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def watched(source: str, names: list[str], per_channel: int, watch: str | None) -> dict:
    """A server of `names` channels of `source` with sepia, `per_channel` fanout viewers on each at
    once: the server's CPU over the fanouts' run and every viewer's fps."""
    args = ["--input", source, "--filter", "sepia", "--max-clients", str(len(names) * per_channel + 16)]
    for name in names[1:]:
        args += ["--channel", f"{name}={source}"]
    with serving(BIN, args, startup_timeout=60) as server:
        runs = [fanout(server.port, server.proc.pid, per_channel, "/ws" if index == 0 else f"/ws?channel={name}", watch)
                for index, name in enumerate(names)]
        time.sleep(3)  # the fanouts' warm-up
        before, start = cpu_seconds(server.proc.pid), time.monotonic()
        results = []
        for run in runs:
            out, err = run.communicate(timeout=SECONDS + 120)
            if run.returncode != 0 or not out.strip():
                sys.exit(f"fanout failed: {err.strip()[-400:]}")
            results.append(json.loads(out))
        cpu = (cpu_seconds(server.proc.pid) - before) / (time.monotonic() - start) * 100
    fps = [r["fps"] for r in results if r.get("fps")]
    return {"cpu_pct": round(cpu, 1), "viewers": sum(r["connected"] for r in results),
            "fps_min": min(f["min"] for f in fps) if fps else 0.0,
            "below29": sum(f["below29"] for f in fps) if fps else -1, "load": load()}


def three(file: Path) -> dict:
    singles = [watched(str(file), ["main"], 1, "h264-720p") for _ in range(3)]
    together = watched(str(file), ["main", "b", "c"], 1, "h264-720p")
    total = sum(s["cpu_pct"] for s in singles)
    ratio = together["cpu_pct"] / total if total else 0.0
    return {"singles": singles, "three": together, "sum_of_singles_pct": round(total, 1), "ratio": round(ratio, 3),
            "ok": abs(ratio - 1) <= 0.10 and together["below29"] == 0}


SWITCH_SCRIPT = """
    const [name, width, done] = [arguments[0], arguments[1], arguments[arguments.length - 1]];
    const f = window.filtercast, start = performance.now();
    let drawn = null;  // frames drawn when the new channel's source was online: placeholders do not count
    document.querySelector(`#channel-list [data-channel="${name}"] button`).click();
    (function check() {
        const online = f.channel === name && f.state && f.state.source.online === true;
        if (online && drawn === null) drawn = f.stats.framesDrawn;
        if (online && f.stats.framesDrawn > drawn && f.stats.width === width) done(performance.now() - start);
        else if (performance.now() - start > 10000) done(-1);
        else requestAnimationFrame(check);
    })();"""


def page_switches(server, targets: list[tuple[str, int]], before_each) -> tuple[list[float], str]:
    """Chromium on `server`'s page, once it shows both channels and a picture: for each (name, width)
    of `targets`, `before_each(name, when)` (`when`: the monotonic time of the click before, that left
    the channel shown until then), then a click on that channel's entry and the time to its first real
    picture drawn at `width` (-1: none within 10 s). Returns those times and the page's transport."""
    from browser import make_driver
    driver, _ = make_driver(1280, 900)
    try:
        driver.set_script_timeout(15)
        driver.get(server.http_url)
        deadline = time.monotonic() + 20
        while not driver.execute_script(
                "const f = window.filtercast; return !!f && f.stats.framesDrawn > 5 && "
                "document.querySelectorAll('#channel-list [data-channel]').length === 2"):
            if time.monotonic() > deadline:
                sys.exit("the page did not show two channels and a picture within 20 s")
            time.sleep(0.1)
        times, clicked = [], time.monotonic()
        for name, width in targets:
            before_each(name, clicked)
            clicked = time.monotonic()
            times.append(driver.execute_async_script(SWITCH_SCRIPT, name, width))
        return times, driver.execute_script("return window.filtercast.stats.transport")
    finally:
        driver.quit()


def switch_figures(times: list[float], transport: str, budget_ms: float) -> dict:
    good = [t for t in times if t >= 0]
    return {"ms": [round(t) for t in times], "median_ms": round(statistics.median(good)) if good else None,
            "max_ms": round(max(good)) if good else None, "transport": transport,
            "ok": len(good) == len(times) and max(good) <= budget_ms, "load": load()}


def switch(big: Path, small: Path) -> dict:
    """The page between two file channels: each click to the other's first picture. Budget 300 ms."""
    targets = [("small", 640) if index % 2 == 0 else ("main", 1280) for index in range(SWITCHES)]
    with serving(BIN, ["--input", str(big), "--channel", f"small={small}"], startup_timeout=60) as server:
        # The new channel plays a while before the next click, as a user would look at it.
        times, transport = page_switches(server, targets, lambda *_: time.sleep(1.0))
    return switch_figures(times, transport, 300)


def channel_entry(server, name: str) -> dict:
    return next(c for c in json.loads(server.get("/api/channels").body) if c["name"] == name)


def live_switch(file: Path) -> dict:
    """The page from a file channel to an idle live one (a UDP stream of the ffmpeg CLI) whose input
    `--idle-close` closed: each click to its first picture (open + first keyframe; budget 2.5 s), and
    how long after the page left it the live channel closed again (budget `--idle-close` + 1 s)."""
    idle_close, closes = 2, []
    procs, urls = feeds(1)

    def before_each(name: str, left: float):
        if name != "live":
            return time.sleep(1.0)
        while not channel_entry(server, "live")["idle"]:
            if time.monotonic() - left > idle_close + 5:
                sys.exit("the live channel did not close within --idle-close + 5 s")
            time.sleep(0.05)
        closes.append(time.monotonic() - left)
    try:
        args = ["--input", str(file), "--channel", f"live={urls[0]}", "--idle-close", str(idle_close)]
        with serving(BIN, args, startup_timeout=60) as server:
            targets = [("live", 320) if index % 2 == 0 else ("main", 1280) for index in range(SWITCHES)]
            times, transport = page_switches(server, targets, before_each)
    finally:
        procs[0].kill()
        procs[0].wait()
    figures = switch_figures([t for t, (name, _) in zip(times, targets) if name == "live"], transport, 2500)
    # The first close is measured from the page's start on `main`, not from leaving `live`.
    figures["closed_after_s"] = [round(c, 2) for c in closes[1:]]
    figures["ok"] = figures["ok"] and all(c <= idle_close + 1 for c in closes[1:])
    figures["idle_close_s"] = idle_close
    return figures


def main() -> int:
    for tool in ("ffmpeg", FANOUT, BIN):
        if not shutil.which(tool) and not Path(tool).exists():
            sys.exit(f"channels.py: {tool} missing")
    big, small = clip(720), clip(360)
    print(f"channels bench, {os.cpu_count()} cores, {load()}, clip {big.name}", flush=True)
    results = {}
    if "idle" in ONLY:
        results["idle"] = r = idle(big)
        print(f"  idle, 8 channels (4 files, 4 live), {IDLE_SECONDS:.0f} s: server {r['cpu_pct']} % of a core "
              f"(budget 1 %) — {r['load']}", flush=True)
    if "three" in ONLY:
        results["three"] = r = three(big)
        singles = " + ".join(str(s["cpu_pct"]) for s in r["singles"])
        print(f"  3 channels × 1 H.264 viewer, 720p30 sepia: {r['three']['cpu_pct']} % vs {singles} = "
              f"{r['sum_of_singles_pct']} % alone (ratio {r['ratio']}, budget 0.90–1.10); min fps "
              f"{r['three']['fps_min']}, below 29: {r['three']['below29']} — {r['three']['load']}", flush=True)
    if "fanout" in ONLY:
        results["fanout"] = r = watched("test:1280x720@30", ["main", "b", "c", "d"], 25, None)
        r["ok"] = r["below29"] == 0 and r["viewers"] == 100
        print(f"  100 viewers over 4 channels (JPEG, 720p30 test pattern, sepia): {r['viewers']} connected, min fps {r['fps_min']}, "
              f"below 29: {r['below29']}, server {r['cpu_pct']} % — {r['load']}", flush=True)
    if "switch" in ONLY:
        results["switch"] = r = switch(big, small)
        print(f"  page switch to a file channel's first picture ({r['transport']}): median {r['median_ms']} ms, "
              f"max {r['max_ms']} ms of {r['ms']} (budget 300) — {r['load']}", flush=True)
    if "live" in ONLY:
        results["live"] = r = live_switch(big)
        print(f"  page switch to an idle live channel's first picture ({r['transport']}): median {r['median_ms']} ms, "
              f"max {r['max_ms']} ms of {r['ms']} (budget 2500); closed {r['closed_after_s']} s after the page left "
              f"(budget --idle-close {r['idle_close_s']} + 1 s) — {r['load']}", flush=True)
    print(json.dumps(results))
    return 0 if all(r.get("ok") for r in results.values()) else 1


if __name__ == "__main__":
    sys.exit(main())
