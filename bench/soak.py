#!/usr/bin/env python3
"""Soak test of `filtercast serve` (driven by bench/soak.sh; see there for the environment).

One server on the 720p30 test pattern for --duration seconds, while:
- viewers join and leave at random: --viewers of them in cohorts of --cohort, each cohort a
  bench/fanout process (compiled lws client, acknowledges every frame) living 10–40 s at random,
  then replaced by a fresh one; each cohort reports its viewers' delivered fps;
- one paused tab: a WebSocket that completes the handshake and never reads again;
- one slow reader: a fanout viewer that shows 5 frames a second;
- a control client changes the filter every second and starts a recording every --record-every
  seconds (default 60) that runs half of that;
- with --churn-every S, a channel comes and goes every S seconds (issue 37.6: the memory of
  channels and styles coming and going): added at run time with a test pattern of another shape
  each time (with --churn-style, styled; else one of the filters), watched for a second, removed.
Every 10 s: the server's RSS (/proc/PID/status VmRSS), open fds (/proc/PID/fd), the fps of the
cohorts that finished since, and the error lines of its JSON log → a CSV row. At the end: the
verdict — RSS and fd growth after --warmup (default: the first minute) ≤ --max-growth, RSS at the
end within --max-drift (20 %) of RSS at --settle (5 minutes; issue 37.6: each a minute's mean), every
normal viewer ≥ --min-fps (29), no error in the log, no LeakSanitizer report (when the server is
an ASan build), the server alive and its SIGTERM exit clean. Exit code 0 when all hold, 1 otherwise.
"""

from __future__ import annotations

import argparse
import asyncio
import csv
import json
import os
import random
import re
import signal
import statistics
import sys
import time

from bench_server import fd_count, rss_kib, start_server, stop_server
from fc_client import Client, RawWebSocket

FILTERS = [{"type": "setFilter", "name": "sepia"}, {"type": "setFilter", "name": "none"},
           {"type": "setFilter", "name": "pixellate"}, {"type": "setFilter", "name": "comic"}]


def log_errors(path: str) -> list:
    """The log's error-level lines (JSON log: "level":"error")."""
    with open(path, errors="replace") as log:
        return [line.strip() for line in log if re.search(r'"level"\s*:\s*"error"', line)]


class Soak:
    def __init__(self, args):
        self.args = args
        self.rng = random.Random(args.seed)
        self.cohort_fps: list = []       # (finished at, min fps, median fps, viewers) per cohort run
        self.cohort_failures: list = []  # fanout runs that failed or lost viewers
        self.slow_fps: list = []
        self.filter_changes = 0
        self.filter_refusals: list = []
        self.recordings = 0
        self.recording_problems: list = []
        self.churns = 0
        self.churn_problems: list = []
        self.stopping = False

    # -- load ---------------------------------------------------------------------------------

    async def fanout(self, viewers: int, duration: float, *extra: str) -> dict | None:
        process = await asyncio.create_subprocess_exec(
            self.args.fanout, "--host", self.server.host, "--port", str(self.server.port), "--viewers", str(viewers),
            "--duration", f"{duration:.1f}", "--warmup", "1", *extra,
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
        try:
            out, err = await asyncio.wait_for(process.communicate(), duration + 60)
        except asyncio.TimeoutError:
            process.kill()
            await process.wait()
            return None
        try:
            result = json.loads(out.decode().strip().splitlines()[-1])
        except (IndexError, ValueError):
            self.cohort_failures.append(f"fanout exit {process.returncode}: {err.decode(errors='replace')[-300:]}")
            return None
        if result.get("connected") != viewers or result.get("closed_early") or result.get("bad_frames"):
            self.cohort_failures.append({k: result.get(k) for k in ("viewers", "connected", "failed",
                                                                     "closed_early", "bad_frames")})
        return result

    async def cohort(self, end: float):
        # Start at a random offset so the cohorts do not join and leave together.
        await asyncio.sleep(self.rng.uniform(0, 10))
        while not self.stopping and (remaining := end - time.monotonic()) > 12:
            life = min(self.rng.uniform(10, 40), remaining - 2)
            result = await self.fanout(self.args.cohort, life)
            if result and result.get("fps"):
                fps = result["fps"]
                self.cohort_fps.append((time.monotonic(), fps["min"], fps["median"], fps["viewers"]))

    async def slow_reader(self, end: float):
        while not self.stopping and (remaining := end - time.monotonic()) > 12:
            result = await self.fanout(1, remaining - 2, "--slow", "5", "--slow-count", "1")
            if result and result.get("slow_fps"):
                self.slow_fps.append(result["slow_fps"]["min"])

    async def control(self, end: float):
        """setFilter every second; a recording started every --record-every s, for half of that."""
        client = await Client.connect(self.server.ws_url(), timeout=10)
        try:
            index = 0
            period = self.args.record_every
            next_record = time.monotonic() + period / 4
            recording_since = None
            while time.monotonic() < end - 1:
                tick = time.monotonic()
                reply = await client.command(FILTERS[index % len(FILTERS)], timeout=10)
                index += 1
                if reply["type"] == "ack":
                    self.filter_changes += 1
                else:
                    self.filter_refusals.append(reply)
                if recording_since is None and tick >= next_record and tick < end - 10:
                    reply = await client.command({"type": "record", "action": "start"}, timeout=10)
                    if reply["type"] == "ack":
                        recording_since = tick
                    else:
                        self.recording_problems.append(reply)
                    next_record += period
                elif recording_since is not None and tick - recording_since >= period / 2:
                    await self.stop_recording(client)
                    recording_since = None
                client.drop_frames()
                await asyncio.sleep(max(0.0, 1.0 - (time.monotonic() - tick)))
            if recording_since is not None:
                await self.stop_recording(client)
        finally:
            await client.close()

    CHURN_SHAPES = ["320x240", "400x400", "240x320", "480x270", "352x288", "256x144"]
    ADMIN = "soak-admin"

    async def churn(self, end: float):
        """A channel added, watched a second and removed every --churn-every seconds."""
        headers = {"Authorization": f"Bearer {self.ADMIN}"}
        turn = 0
        while time.monotonic() < end - self.args.churn_every and not self.stopping:
            tick = time.monotonic()
            shape = self.CHURN_SHAPES[turn % len(self.CHURN_SHAPES)]
            chain = {"name": "style"} if self.args.churn_style else {"name": FILTERS[turn % len(FILTERS)]["name"]}
            body = json.dumps({"input": f"test:{shape}@15", "filter": chain}).encode()
            added = await asyncio.to_thread(self.server.http, "PUT", "/api/channels/churn", headers=headers, body=body, timeout=30)
            if added.status == 201:
                try:
                    async with await Client.connect(self.server.ws_url(channel="churn"), timeout=10) as client:
                        await client.frames(3, timeout=10)
                except Exception as error:  # noqa: BLE001 (any failure is a finding, reported)
                    self.churn_problems.append(f"watching {shape}: {error!r}")
                removed = await asyncio.to_thread(self.server.http, "DELETE", "/api/channels/churn", headers=headers, timeout=30)
                if removed.status != 200:
                    self.churn_problems.append(f"DELETE {removed.status}")
                self.churns += 1
            else:
                self.churn_problems.append(f"PUT {shape}: {added.status}")
            turn += 1
            await asyncio.sleep(max(0.0, self.args.churn_every - (time.monotonic() - tick)))

    async def stop_recording(self, client: Client):
        reply = await client.command({"type": "record", "action": "stop"}, timeout=10)
        if reply["type"] == "ack":
            self.recordings += 1
        else:
            self.recording_problems.append(reply)

    # -- sampling -----------------------------------------------------------------------------

    async def sampler(self, start: float, end: float, rows: list, writer, out):
        last_cohorts = 0
        while True:
            now = time.monotonic()
            pid = self.server.proc.pid
            if not self.server.running:
                rows.append({"t": round(now - start, 1), "alive": 0})
                return
            finished = self.cohort_fps[last_cohorts:]
            last_cohorts = len(self.cohort_fps)
            row = {"t": round(now - start, 1), "alive": 1, "rss_kib": rss_kib(pid), "fds": fd_count(pid),
                   "cohorts_done": len(finished),
                   "fps_min": min((c[1] for c in finished), default=""),
                   "fps_median": statistics.median([c[2] for c in finished]) if finished else "",
                   "slow_fps": self.slow_fps[-1] if self.slow_fps else "",
                   "filter_changes": self.filter_changes, "recordings": self.recordings,
                   "log_errors": len(log_errors(self.server.log_path))}
            rows.append(row)
            writer.writerow(row)
            out.flush()
            print(f"soak: t={row['t']:6.0f}s rss={row['rss_kib'] / 1024:7.1f} MiB fds={row['fds']:4d} "
                  f"cohorts={row['cohorts_done']} fps_min={row['fps_min']} errors={row['log_errors']}", flush=True)
            if now >= end:
                return
            await asyncio.sleep(min(self.args.interval, max(0.0, end - time.monotonic())))

    # -- run ----------------------------------------------------------------------------------

    async def main(self) -> int:
        args = self.args
        os.makedirs(args.out, exist_ok=True)
        recordings = os.path.join(args.out, "recordings")
        log = os.path.join(args.out, "server.log")
        self.server = start_server(args.bin, ["--input", args.input, "--filter", "sepia", "--recordings", recordings,
                                              "--log-format", "json", "--max-clients", str(args.viewers + 16),
                                              "--min-free-space", "50M", "--admin-token", self.ADMIN],
                                   log_path=log, startup_timeout=60)
        paused = RawWebSocket.connect(self.server.host, self.server.port, receive_buffer=4096)
        assert paused.status == 101, paused.response_head
        start = time.monotonic()
        end = start + args.duration
        rows: list = []
        fields = ["t", "alive", "rss_kib", "fds", "cohorts_done", "fps_min", "fps_median", "slow_fps",
                  "filter_changes", "recordings", "log_errors"]
        with open(os.path.join(args.out, "soak.csv"), "w", newline="") as out:
            writer = csv.DictWriter(out, fields)
            writer.writeheader()
            tasks = [asyncio.create_task(self.cohort(end)) for _ in range(args.viewers // args.cohort)]
            tasks += [asyncio.create_task(self.slow_reader(end)), asyncio.create_task(self.control(end))]
            if args.churn_every > 0:
                tasks.append(asyncio.create_task(self.churn(end)))
            try:
                await self.sampler(start, end, rows, writer, out)
            finally:
                self.stopping = True
                results = await asyncio.gather(*tasks, return_exceptions=True)
        paused.close()
        load_errors = [repr(r) for r in results if isinstance(r, BaseException)]
        alive = self.server.running
        code, stop_seconds = stop_server(self.server, timeout=10)  # an ASan build's exit runs LeakSanitizer
        return self.verdict(rows, alive, code, stop_seconds, load_errors)

    @staticmethod
    def per_minute(samples, key) -> list:
        minutes: dict = {}
        for row in samples:
            minutes.setdefault(int(row["t"] // 60), []).append(row[key])
        return [minutes[m] for m in sorted(minutes)]

    def verdict(self, rows, alive, code, stop_seconds, load_errors) -> int:
        args = self.args
        samples = [r for r in rows if r.get("alive")]
        # The last sample is taken as the load winds down (viewers leaving): not comparable.
        baseline = next((r for r in samples if r["t"] >= args.warmup), samples[-1])
        later = [r for r in samples[:-1] if r["t"] >= baseline["t"]] or [baseline]
        tail = later[-3:]

        def growth(key):
            """Growth after the warm-up: the least-squares line through the samples from
            then on, its end over its start (a recording running or not moves RSS by ~20 MiB
            either way; a leak is a trend), and the peak over the first of them."""
            times = [r["t"] for r in later]
            values = [r[key] for r in later]
            if len(later) < 3:
                return 0.0, max(values) / values[0] - 1
            slope, intercept = statistics.linear_regression(times, values)
            start, end = intercept + slope * times[0], intercept + slope * times[-1]
            return (end - start) / start, max(values) / values[0] - 1

        rss_end, rss_peak = growth("rss_kib")
        rss_tail = statistics.median(r["rss_kib"] for r in tail)
        # Issue 37.6's measure: RSS at the end against RSS once settled, each the mean of a
        # minute's samples (the minute around --settle, the last one): a recording every minute
        # and the channels coming and going move RSS by tens of MiB within a minute, not across.
        settled = [r["rss_kib"] for r in samples if abs(r["t"] - args.settle) < 30]
        last_minute = [r["rss_kib"] for r in later if r["t"] > later[-1]["t"] - 60]
        rss_settled = statistics.mean(settled) if settled and args.duration >= args.settle + 120 else None
        drift = statistics.mean(last_minute) / rss_settled - 1 if rss_settled else None
        fds_end, fds_peak = growth("fds")
        normal_min = min((c[1] for c in self.cohort_fps), default=0.0)
        below = sum(1 for c in self.cohort_fps if c[1] < args.min_fps)
        errors = log_errors(self.server.log_path)
        summary = {
            "duration_s": args.duration, "viewers": args.viewers, "input": args.input,
            "rss_mib": {"first": samples[0]["rss_kib"] / 1024, "baseline": baseline["rss_kib"] / 1024,
                        "settled_minute": rss_settled / 1024 if rss_settled else None,
                        "last_minute": statistics.mean(last_minute) / 1024, "end": rss_tail / 1024,
                        "peak": max(r["rss_kib"] for r in later) / 1024},
            "rss_growth_pct": {"trend": 100 * rss_end, "peak": 100 * rss_peak,
                               "end_over_settled": 100 * drift if drift is not None else None},
            # Lowest and highest RSS of each minute: the floor is RSS with no recording running.
            "rss_mib_per_minute": [[min(m) / 1024, max(m) / 1024] for m in self.per_minute(samples, "rss_kib")],
            "fds": {"baseline": baseline["fds"], "end": statistics.median(r["fds"] for r in tail),
                    "peak": max(r["fds"] for r in later)},
            "fd_growth_pct": {"trend": 100 * fds_end, "peak": 100 * fds_peak},
            "cohort_runs": len(self.cohort_fps), "cohort_runs_below_min_fps": below,
            "normal_fps_min": normal_min,
            "normal_fps_median": statistics.median(c[2] for c in self.cohort_fps) if self.cohort_fps else 0,
            "slow_reader_fps": self.slow_fps, "cohort_failures": self.cohort_failures[:5],
            "filter_changes": self.filter_changes, "filter_refusals": self.filter_refusals[:5],
            "recordings": self.recordings, "recording_problems": self.recording_problems[:5],
            "channels_churned": self.churns, "churn_problems": self.churn_problems[:5],
            "log_errors": errors[:5], "load_errors": load_errors,
            "server_alive": alive, "sigterm_exit": code, "stop_seconds": stop_seconds,
        }
        checks = {
            "rss flat": rss_end <= (args.max_rss_growth if args.max_rss_growth is not None else args.max_growth),
            f"rss in the last minute within {100 * args.max_drift:g} % of the minute around {args.settle:g} s":
                drift is None or abs(drift) <= args.max_drift,
            # A recording's file and a viewer in its handshake are one fd each: a leak is more.
            "fds flat": fds_end <= max(args.max_growth, 2.5 / baseline["fds"]),
            f"normal viewers >= {args.min_fps:g} fps": below == 0 and bool(self.cohort_fps),
            "no error in the log": not errors,
            "no leak report": "LeakSanitizer" not in self.server.stderr_text(last=10_000_000),
            "server alive, clean SIGTERM": alive and code == 0,
            "load ran": not load_errors and not self.cohort_failures and self.filter_changes > 0,
            "channels came and went": self.args.churn_every <= 0 or (self.churns > 0 and not self.churn_problems),
        }
        summary["checks"] = checks
        with open(os.path.join(args.out, "summary.json"), "w") as out:
            json.dump(summary, out, indent=1)
        print(json.dumps(summary, indent=1))
        for name, ok in checks.items():
            print(f"soak: {'PASS' if ok else 'FAIL'}  {name}")
        return 0 if all(checks.values()) else 1


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bin", required=True)
    parser.add_argument("--fanout", required=True, help="the compiled bench/fanout.c")
    parser.add_argument("--out", required=True, help="folder for soak.csv, summary.json, the log, recordings")
    parser.add_argument("--duration", type=float, default=1800)
    parser.add_argument("--viewers", type=int, default=50)
    parser.add_argument("--cohort", type=int, default=5)
    parser.add_argument("--input", default="test:1280x720@30")
    parser.add_argument("--interval", type=float, default=10)
    parser.add_argument("--max-growth", type=float, default=0.05, help="RSS and fd growth allowed after --warmup")
    parser.add_argument("--max-rss-growth", type=float, help="RSS growth allowed, if not --max-growth (an ASan build's "
                        "quarantine grows RSS for minutes; its leak check is LeakSanitizer's)")
    parser.add_argument("--warmup", type=float, default=60, help="seconds before growth is measured")
    parser.add_argument("--settle", type=float, default=300, help="RSS in the last minute is judged against RSS in the "
                        "minute around this time (when the run lasts two minutes more)")
    parser.add_argument("--max-drift", type=float, default=0.20, help="RSS at the end against at --settle, either way")
    parser.add_argument("--record-every", type=float, default=60, help="a recording starts this often, runs half")
    parser.add_argument("--min-fps", type=float, default=29, help="every normal viewer's delivered fps")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--churn-every", type=float, default=0, help="a channel added and removed this often (0: never)")
    parser.add_argument("--churn-style", action="store_true", help="the channels that come and go are styled")
    args = parser.parse_args()
    if args.duration < args.warmup + 30 or args.viewers < args.cohort or args.record_every < 4:
        parser.error("--duration must be ≥ --warmup + 30 s, --viewers ≥ --cohort, --record-every ≥ 4 s")
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(130))
    sys.exit(asyncio.run(Soak(args).main()))


if __name__ == "__main__":
    main()
