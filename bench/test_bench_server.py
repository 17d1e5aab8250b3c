"""Tests of bench/bench_server.py, the benchmarks' one launcher and /proc reader, against the real
server (FILTERCAST_BIN, else this checkout's debug build):

    /usr/bin/python3 -m pytest -q bench/test_bench_server.py
"""
from __future__ import annotations

import http.client
import os
import re
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bench_server import (cpu_seconds, fd_count, peak_rss_kib, rss_kib, serving, thread_cpu_seconds,
                          tree_cpu_seconds)
from fc_server import binary_path  # the end-to-end tests' choice of binary (bench_server put it on the path)

BENCH = Path(__file__).resolve().parent


@pytest.fixture
def filtercast_bin() -> str:
    """The binary under test ($FILTERCAST_BIN, else this checkout's debug build), or a failure.
    (Not the end-to-end conftest's fixture: run in one pytest with Tests/EndToEnd, its conftest
    module name is taken.)"""
    path = binary_path()
    if not os.access(path, os.X_OK):
        pytest.fail(f"no filtercast binary at {path}: build it (swift build) or set FILTERCAST_BIN")
    return path
LAUNCHER = [sys.executable, str(BENCH / "bench_server.py"), "serve"]
SOURCE = ["--input", "test:160x120@30"]


def launch(binary: str, log: Path, *args: str) -> tuple[subprocess.Popen, list[str]]:
    """The shell launcher, running, and the words of its first line (PID HOST PORT)."""
    launcher = subprocess.Popen([*LAUNCHER, "--log", str(log), binary, *SOURCE, *args], stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True)
    return launcher, launcher.stdout.readline().split()


def stop(launcher: subprocess.Popen) -> tuple[list[str], str]:
    """SIGTERM to the launcher: the words of its report line and its stderr."""
    launcher.send_signal(signal.SIGTERM)
    out, err = launcher.communicate(timeout=20)
    assert launcher.returncode == 0, err
    return out.split(), err


def test_the_shell_launcher_prints_the_address_and_stops_the_server_on_sigterm(filtercast_bin, tmp_path):
    launcher, (pid, host, port) = launch(filtercast_bin, tmp_path / "server.log")
    try:
        connection = http.client.HTTPConnection(host, int(port), timeout=5)
        connection.request("GET", "/")
        assert connection.getresponse().status == 200
        connection.close()
        # The kernel keeps the first 15 bytes of the executable's name.
        assert Path(f"/proc/{pid}/comm").read_text().strip() == Path(filtercast_bin).name[:15]
    except BaseException:
        launcher.kill()
        os.kill(int(pid), signal.SIGKILL)
        raise
    (alive, code, seconds, peak), _ = stop(launcher)
    assert (alive, code) == ("1", "0")
    assert 0 <= float(seconds) < 5 and int(peak) > 1000
    assert not Path(f"/proc/{pid}").exists()


def test_the_shell_launcher_reports_a_server_that_died(filtercast_bin, tmp_path):
    launcher, (pid, _, _) = launch(filtercast_bin, tmp_path / "server.log")
    os.kill(int(pid), signal.SIGKILL)
    time.sleep(0.5)
    (alive, code, seconds, peak), _ = stop(launcher)
    assert (alive, code, peak) == ("0", str(-signal.SIGKILL), "0")


def test_a_server_that_does_not_start_is_named_with_its_reason(filtercast_bin, tmp_path):
    launcher, words = launch(filtercast_bin, tmp_path / "server.log", "--filter", "no-such-filter")
    _, err = launcher.communicate(timeout=30)
    assert words == [] and launcher.returncode == 1
    assert "the server did not start" in err and "no-such-filter" in err, err


def poll_until(condition, what: str, timeout: float = 10.0):
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, f"not within {timeout} s: {what}"
        time.sleep(0.05)


def test_the_proc_readers_see_the_server_its_threads_memory_and_connections(filtercast_bin):
    with serving(filtercast_bin, SOURCE) as server:
        pid = server.proc.pid
        # The decoder and the network thread run from the start: awaited (a loaded machine starts
        # them late), then read.
        poll_until(lambda: {"network", "decode"} <= thread_cpu_seconds(pid).keys()
                   and sum(thread_cpu_seconds(pid).values()) > 0, "the network and decode threads have run")
        threads, total = thread_cpu_seconds(pid), cpu_seconds(pid)
        assert {"network", "decode"} <= threads.keys(), threads
        assert 0 < sum(threads.values()) <= total + 0.05, (threads, total)
        assert 1000 < rss_kib(pid) <= peak_rss_kib(pid)
        before = fd_count(pid)
        with socket.create_connection((server.host, server.port)):
            # The accept comes when the server's network thread gets to it: the count is awaited to
            # reach one more, and must then stay there (not one per something else).
            poll_until(lambda: fd_count(pid) == before + 1, f"one more descriptor than {before}: {fd_count(pid)}")
            assert fd_count(pid) == before + 1
    assert server.returncode == 0


def test_tree_cpu_counts_the_descendants():
    burner = subprocess.Popen([sys.executable, "-c", "import time\nend = time.process_time() + 0.3\n"
                               "while time.process_time() < end: pass\nprint(flush=True)\ntime.sleep(30)"],
                              stdout=subprocess.PIPE)
    try:
        burner.stdout.readline()  # it has burnt its 0.3 s
        assert tree_cpu_seconds(os.getpid()) - cpu_seconds(os.getpid()) >= 0.25
    finally:
        burner.kill()
        burner.wait()


def test_no_other_bench_script_parses_the_ready_line_or_proc_itself():
    """The end state of issue 13, item 7: bench_server.py is the only place that does."""
    own_reading = re.compile(r"""["']/proc\b|at http://|READY|\.stdout\.readline\(\)""")
    offenders = [f"{path.name}:{number}: {line.strip()}"
                 for path in sorted(BENCH.iterdir()) if path.suffix in (".py", ".sh")
                 and path.name not in ("bench_server.py", Path(__file__).name)
                 for number, line in enumerate(path.read_text().splitlines(), 1) if own_reading.search(line)]
    assert not offenders, "\n".join(offenders)
