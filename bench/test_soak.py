"""A short soak in `make bench-serve` (it was in `make test`, whose 30-minute bound it neared):
bench/soak.py for 90 s against the server (FILTERCAST_BIN, else this checkout's release build) — 10 viewers
joining and leaving at random, a paused tab, a slow reader, the filter changed every second and a
10 s recording every 20 s — then its verdict: RSS and open fds flat after the first 30 s (least-
squares trend ≤ 5%), no error in the log, a clean SIGTERM. Delivered fps is not judged here (a
build on a shared machine); the full soak is `bench/soak.sh`, the leak-checked one `make soak`
(in `make test`)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")


@pytest.fixture
def filtercast_bin() -> str:
    path = os.environ.get("FILTERCAST_BIN") or os.path.join(ROOT, ".build", "release", "filtercast")
    if not os.path.exists(path):
        pytest.fail(f"no server at {path}: run `make build` or set FILTERCAST_BIN")
    return path


def test_a_90_second_soak_keeps_memory_and_fds_flat(filtercast_bin, tmp_path):
    if subprocess.run(["pkg-config", "--exists", "libwebsockets"]).returncode != 0:
        pytest.fail("libwebsockets-dev is needed to build bench/fanout.c (make deps)")
    fanout = tmp_path / "fanout"
    flags = subprocess.run(["pkg-config", "--cflags", "--libs", "libwebsockets"], capture_output=True, text=True,
                           check=True).stdout.split()
    subprocess.run(["cc", "-O2", "-std=c99", "-o", str(fanout), os.path.join(ROOT, "bench", "fanout.c"), *flags],
                   check=True, timeout=120)
    result = subprocess.run([sys.executable, os.path.join(ROOT, "bench", "soak.py"), "--bin", filtercast_bin,
                             "--fanout", str(fanout), "--out", str(tmp_path / "soak"), "--duration", "90",
                             "--warmup", "30", "--viewers", "10", "--input", "test:640x360@30",
                             "--record-every", "20", "--min-fps", "0"],
                            capture_output=True, text=True, timeout=300)
    summary = json.loads((tmp_path / "soak" / "summary.json").read_text())
    assert result.returncode == 0, f"{summary['checks']}\n{result.stdout[-3000:]}\n{result.stderr[-2000:]}"
    assert summary["cohort_runs"] >= 4 and summary["filter_changes"] >= 60 and summary["recordings"] >= 3, summary
