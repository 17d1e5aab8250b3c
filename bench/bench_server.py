"""What the Python benchmarks share: start `filtercast serve` on a free port and wait for its
address, and read a process's or thread's CPU time from /proc."""
from __future__ import annotations

import os
import re
import select
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "Tests" / "EndToEnd"))
from fc_server import child_environment  # noqa: E402  (the tests' helper: no proxy for 127.0.0.1)

REPO = Path(__file__).resolve().parent.parent
READY = re.compile(r"at http://(?P<host>[^:/]+):(?P<port>\d+)/")
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


def start_server(binary: str, args: list[str]) -> tuple[subprocess.Popen, str]:
    """The server process and its `host:port`, once it says where it listens (20 s at most)."""
    command = [binary, "serve", "--port", "0", "--web", str(REPO / "web"), *args]
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=child_environment())
    buffer = b""
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        ready, _, _ = select.select([proc.stdout], [], [], 0.2)
        if ready:
            chunk = os.read(proc.stdout.fileno(), 4096)
            if not chunk:
                break
            buffer += chunk
            match = READY.search(buffer.decode("utf-8", "replace"))
            if match:
                return proc, f"{match['host']}:{match['port']}"
        elif proc.poll() is not None:
            break
    proc.kill()
    sys.exit(f"the server did not start: {command}\n{buffer.decode('utf-8', 'replace')}")


def stat_cpu_seconds(stat_path: Path) -> float:
    """User + system CPU time from a /proc/…/stat file (a process's or a thread's)."""
    fields = stat_path.read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS
