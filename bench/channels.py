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

Environment: BIN (release filtercast), FANOUT (bench/fanout binary), IDLE_SECONDS, SECONDS (per
measured run, default 15), SWITCHES (default 8), ONLY (comma-separated: idle,three,fanout,switch).
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
ONLY = set(filter(None, os.environ.get("ONLY", "idle,three,fanout,switch").split(",")))
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


def switch(big: Path, small: Path) -> dict:
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from browser import make_driver
    script = """
        const [name, width, done] = [arguments[0], arguments[1], arguments[arguments.length - 1]];
        const f = window.filtercast, drawn = f.stats.framesDrawn, start = performance.now();
        document.querySelector(`#channel-list [data-channel="${name}"] button`).click();
        (function check() {
            if (f.channel === name && f.stats.framesDrawn > drawn && f.stats.width === width) done(performance.now() - start);
            else if (performance.now() - start > 10000) done(-1);
            else requestAnimationFrame(check);
        })();"""
    with serving(BIN, ["--input", str(big), "--channel", f"small={small}"], startup_timeout=60) as server:
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
            times = []
            for index in range(SWITCHES):
                name, width = ("small", 640) if index % 2 == 0 else ("main", 1280)
                times.append(driver.execute_async_script(script, name, width))
                time.sleep(1.0)  # the new channel plays a while, as a user would look at it
            transport = driver.execute_script("return window.filtercast.stats.transport")
        finally:
            driver.quit()
    good = [t for t in times if t >= 0]
    return {"ms": [round(t) for t in times], "median_ms": round(statistics.median(good)) if good else None,
            "max_ms": round(max(good)) if good else None, "transport": transport,
            "ok": len(good) == len(times) and max(good) <= 300, "load": load()}


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
    print(json.dumps(results))
    return 0 if all(r.get("ok") for r in results.values()) else 1


if __name__ == "__main__":
    sys.exit(main())
