#!/usr/bin/python3
"""What every benchmark shares: the one way to start and stop `filtercast serve`, and the one
reader of a process's CPU time, RSS and open files in /proc.

Python benchmarks import it (`from bench_server import serving, cpu_seconds`). The launcher is
the end-to-end tests' own (Tests/EndToEnd/fc_server.py: `ServerProcess`, its READY_LINE and
child environment), so a bench run starts the server exactly as a test does.

Shell benchmarks use its command line:

    python3 bench/bench_server.py serve [--log PATH] BINARY [serve options…]

starts `BINARY serve --port 0 --style-at-first-use --web REPO/web [serve options…]` (stderr to PATH, default
/dev/null), prints `PID HOST PORT` once the server says where it listens, and then holds it until
SIGTERM, SIGINT or SIGHUP. Then it stops the server (SIGTERM, at most 5 s of waiting, then
SIGKILL) and prints `ALIVE EXIT SECONDS PEAK_RSS_KIB`: 1 when the server was still running when
asked to stop (else 0), its exit code (`killed` when it had to be killed), how long it took to
exit after SIGTERM, and its peak RSS (VmHWM, 0 when it had already exited). Exit code 0, or 1
(with the reason on stderr) when the server did not start.
"""
from __future__ import annotations

import argparse
import os
import signal
import sys
import threading
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "Tests" / "EndToEnd"))
from fc_server import ServerProcess  # noqa: E402  (the tests' launcher: no proxy, no FILTERCAST_* of ours)

CLOCK_TICKS = os.sysconf("SC_CLK_TCK")
# How long a stop waits for the exit after SIGTERM before SIGKILL (the server takes well under 1 s).
STOP_TIMEOUT = 5.0


# -- the server -------------------------------------------------------------------------------

def start_server(binary: str, args: list[str], log_path: str = os.devnull,
                 startup_timeout: float = 20.0, style_warm_up: bool = False, env: dict | None = None) -> ServerProcess:
    """`binary serve --port 0 --web REPO/web *args`, running and listening (its host and port
    read from the ready line), its stderr going to `log_path`. Exits this program with the reason
    when the server does not start within `startup_timeout` s. Without `style_warm_up`, with
    `--style-at-first-use` (fc_server's `ServerProcess`): only style benchmarks want the warm-up.
    `env`: variables of the server's environment beside the tests' own."""
    server = ServerProcess(binary, ["--web", str(REPO / "web"), *args], log_path, startup_timeout=startup_timeout,
                           style_warm_up=style_warm_up, env=env or {})
    try:
        return server.start()
    except (RuntimeError, OSError) as error:  # it exited, did not answer in time, or is not there
        sys.exit(f"the server did not start: {error}")


def stop_server(server: ServerProcess, timeout: float = STOP_TIMEOUT) -> tuple[int | None, float]:
    """SIGTERM, at most `timeout` s of waiting, then SIGKILL: (exit code, or None when it had to
    be killed; seconds from SIGTERM to the exit)."""
    return server.stop(timeout=timeout)


@contextmanager
def serving(binary: str, args: list[str], **options) -> Iterator[ServerProcess]:
    """A started server (see `start_server` for `options`), stopped when the block ends."""
    server = start_server(binary, args, **options)
    try:
        yield server
    finally:
        stop_server(server)


async def clients_window(pid: int, clients: list, seconds: float, *alongside) -> tuple[float, list[float]]:
    """Over `seconds` (after a 3 s warm-up): the % of a core process `pid` used and each client's
    frames per second (fc_client `Client`s, closed at the end), while each of `alongside`
    (a function of the window's end, time.monotonic(), giving a coroutine) runs too."""
    import asyncio
    import time
    try:
        await asyncio.gather(*(client.collect(3.0) for client in clients))  # warm-up
        before, start = cpu_seconds(pid), time.monotonic()
        jobs = [client.collect(seconds) for client in clients] + [job(start + seconds) for job in alongside]
        received = (await asyncio.gather(*jobs))[:len(clients)]
        cpu, end = cpu_seconds(pid), time.monotonic()
    finally:
        for client in clients:
            await client.close()
    fps = [sum(1 for item in items if not isinstance(item, dict)) / (end - start) for items in received]
    return 100 * (cpu - before) / (end - start), fps


def bench_arguments(description: str, runs: int, seconds: float) -> argparse.ArgumentParser:
    """The options every server benchmark takes: --bin (default: the release build), --runs, --seconds."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--bin", default=os.environ.get("FILTERCAST_BIN", str(REPO / ".build/release/filtercast")))
    parser.add_argument("--runs", type=int, default=runs)
    parser.add_argument("--seconds", type=float, default=seconds)
    return parser


# -- /proc ------------------------------------------------------------------------------------

def _stat_fields(stat_path: Path) -> list[str]:
    """The fields of a /proc/…/stat file after the command name (which may hold spaces and
    parentheses): index 0 is the state, 1 the parent pid, 11 utime, 12 stime."""
    return stat_path.read_text().rsplit(")", 1)[1].split()


def _stat_cpu_seconds(stat_path: Path) -> float:
    fields = _stat_fields(stat_path)
    return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of process `pid` so far (all its threads)."""
    return _stat_cpu_seconds(Path(f"/proc/{pid}/stat"))


def thread_cpu_seconds(pid: int) -> dict[str, float]:
    """User + system CPU time so far of each of `pid`'s threads, by thread name (/proc/PID/task/
    TID/comm; threads of the same name are summed). Threads that end while read are left out."""
    seconds: dict[str, float] = {}
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            name = (task / "comm").read_text().strip()
            seconds[name] = seconds.get(name, 0.0) + _stat_cpu_seconds(task / "stat")
        except (OSError, IndexError, ValueError):
            continue  # the thread ended
    return seconds


def tree_cpu_seconds(root: int) -> float:
    """CPU time of process `root` and all its descendants (Chromium is many processes)."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                parent = int(_stat_fields(entry / "stat")[1])
            except (OSError, IndexError, ValueError):
                continue
            children.setdefault(parent, []).append(int(entry.name))
    total, stack = 0.0, [root]
    while stack:
        pid = stack.pop()
        try:
            total += cpu_seconds(pid)
        except (OSError, IndexError, ValueError):
            pass
        stack += children.get(pid, [])
    return total


def _status_kib(pid: int, key: str) -> int:
    """A `KEY: N kB` line of /proc/PID/status."""
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith(key + ":"):
                return int(line.split()[1])
    raise RuntimeError(f"no {key} in /proc/{pid}/status")


def rss_kib(pid: int) -> int:
    """Resident memory of `pid` now (VmRSS), KiB."""
    return _status_kib(pid, "VmRSS")


def peak_rss_kib(pid: int) -> int:
    """The most resident memory `pid` has had (VmHWM), KiB."""
    return _status_kib(pid, "VmHWM")


def threads_at_nice(pid: int, nice: int) -> set[int]:
    """The ids of `pid`'s threads whose nice value is `nice` now (threads that end while read are left out)."""
    found = set()
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            if int(_stat_fields(task / "stat")[16]) == nice:
                found.add(int(task.name))
        except (OSError, IndexError, ValueError):
            continue
    return found


def processor() -> str:
    """The processor's model name, its cores, and the vector units a network's speed depends on."""
    info = Path("/proc/cpuinfo").read_text()
    name = next((line.split(":", 1)[1].strip() for line in info.splitlines() if line.startswith("model name")), "?")
    flags = next((line.split(":", 1)[1].split() for line in info.splitlines() if line.startswith("flags")), [])
    units = [unit for unit in ("avx2", "fma", "avx512f", "avx512_vnni", "avx512_bf16") if unit in flags]
    return f"{name} ({os.cpu_count()} cores; {', '.join(units) or 'no AVX2'})"


def fd_count(pid: int) -> int:
    """How many file descriptors `pid` has open."""
    return len(os.listdir(f"/proc/{pid}/fd"))


# -- the command line for shell scripts -------------------------------------------------------

def serve_for_shell(binary: str, args: list[str], log_path: str) -> int:
    """`serve`: see the module's doc comment."""
    stop_requested = threading.Event()
    for signum in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        signal.signal(signum, lambda *_: stop_requested.set())
    server = start_server(binary, args, log_path=log_path)
    try:
        print(server.proc.pid, server.host, server.port, flush=True)
        stop_requested.wait()
    finally:
        alive, peak = server.running, _peak_rss_kib_while_running(server)
        code, seconds = stop_server(server)
    print(int(alive), "killed" if code is None else code, f"{seconds:.2f}", peak, flush=True)
    return 0


def _peak_rss_kib_while_running(server: ServerProcess) -> int:
    """The server's peak RSS, or 0 when it has exited."""
    try:
        return peak_rss_kib(server.proc.pid) if server.running else 0
    except (OSError, RuntimeError):  # it exited just now
        return 0


def main() -> int:
    parser = argparse.ArgumentParser(prog="bench_server.py", description="Runs filtercast serve for a shell "
                                     "benchmark (see the doc comment of bench/bench_server.py).")
    commands = parser.add_subparsers(dest="command", required=True)
    serve = commands.add_parser("serve", help="start the server, print PID HOST PORT; on SIGTERM stop it and "
                                "print ALIVE EXIT SECONDS PEAK_RSS_KIB")
    serve.add_argument("--log", default=os.devnull, help="where the server's stderr goes (default: nowhere)")
    serve.add_argument("binary", help="the filtercast executable")
    serve.add_argument("serve_args", nargs=argparse.REMAINDER, help="options for `filtercast serve`")
    options = parser.parse_args()
    return serve_for_shell(options.binary, options.serve_args, options.log)


if __name__ == "__main__":
    sys.exit(main())
