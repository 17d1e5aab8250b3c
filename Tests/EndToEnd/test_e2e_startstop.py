"""Starting and stopping as a new user meets them: an input that never answers, a stop signal at
any moment, standard error closed under the server, and one log format from the first line to the
last. Every wait is bounded."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import time

import pytest

from fc_client import Client, run
from fc_server import ExitClock, binary_path, child_environment, make_clip
from live_feed import LiveFeed
from test_e2e_live import state_where


@pytest.fixture
def silent_listener():
    """A TCP port that accepts connections (the kernel's backlog) and never says a word."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        sock.listen(8)
        yield sock.getsockname()[1]


def spawn(*args, stderr=subprocess.PIPE, env=None) -> subprocess.Popen:
    return subprocess.Popen([binary_path(), "serve", "--port", "0", *args], stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=stderr, env=child_environment(env))


def test_a_stop_signal_during_a_hung_open_ends_the_process_within_a_second(silent_listener):
    for signum in (signal.SIGINT, signal.SIGTERM):
        proc = spawn("--input", f"rtsp://127.0.0.1:{silent_listener}/x")
        time.sleep(1.0)
        assert proc.poll() is None, "still opening"
        # The exit is timed by a thread waiting on the process from the signal on: the process's
        # own stop, not when this thread was scheduled again.
        sent = time.monotonic()
        proc.send_signal(signum)
        exit_clock = ExitClock(proc, sent)
        code = exit_clock.wait(5)
        assert code is not None and exit_clock.seconds < 1.0, (code, exit_clock.seconds)
        errors = proc.stderr.read().decode().splitlines()
        assert code == 1 and len(errors) == 1 and "while starting" in errors[0], (code, errors)


def test_a_stop_signal_while_a_live_source_reconnects_ends_the_process_within_a_second(start_server):
    feed = LiveFeed("udp").start()
    try:
        server = start_server("--input", feed.url, "--stall-timeout", "1", "--open-timeout", "30")

        async def until_offline_and_reopening():
            async with await Client.connect(server.ws_url()) as client:
                await client.frames(3, timeout=10)
                feed.stop()
                offline = await state_where(client, lambda s: s["source"]["online"] is False, timeout=10)
                # The first attempt comes 1 s later; nobody sends, so it waits in the open.
                await state_where(client, lambda s: s["source"]["retryIn"] is None, timeout=5)
                return offline
        run(until_offline_and_reopening(), timeout=30)
        time.sleep(1.0)
        code, seconds = server.stop(signal.SIGINT)  # timed from the signal to the exit (ExitClock)
        assert code == 0 and seconds < 1.0, (code, seconds)
    finally:
        feed.stop()


def test_closed_standard_error_never_takes_the_server_down(web_root):
    """`serve 2>&1 | head -1`: every log line after that fails with EPIPE (once, a SIGILL)."""
    proc = spawn("--input", "test:320x240@30", "--web", str(web_root), "--log-level", "debug")
    proc.stderr.close()
    try:
        ready = proc.stdout.readline().decode()
        assert "serving" in ready, ready
        port = int(ready.rsplit(":", 1)[1].strip(" /\n"))

        async def watch():
            for _ in range(3):  # connections and disconnections are logged
                async with await Client.connect(f"ws://127.0.0.1:{port}/ws") as client:
                    assert len(await client.frames(5, timeout=10)) == 5
                    await client.command({"type": "setFilter", "name": "nope"})  # an error reply, logged
        run(watch(), timeout=60)
        assert proc.poll() is None, f"the server died: {proc.returncode}"
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=10) == 0  # the stop itself is measured elsewhere
    finally:
        if proc.poll() is None:
            proc.kill()


def damaged_clip(path):
    """A 3 s H.264 MP4 with 2 KB of garbage every 20 KB past its header: decode errors throughout."""
    make_clip(path, "testsrc2=size=320x240:rate=25", 3, "-g", "25")
    data = bytearray(path.read_bytes())
    for offset in range(8192, len(data) - 4096, 20_000):
        data[offset:offset + 2048] = os.urandom(2048)
    path.write_bytes(bytes(data))
    return path


def test_json_logs_every_line_as_json_from_first_to_last(start_server, tmp_path):
    clip = damaged_clip(tmp_path / "damaged.mp4")
    server = start_server("--input", str(clip), "--log-format", "json", "--host", "0.0.0.0",
                          env={"FILTERCAST_PORTT": "9"})

    async def watch():
        async with await Client.connect(server.ws_url()) as client:
            await client.collect(3.5)
            await client.command({"type": "setFilter", "name": "nope"})
    run(watch(), timeout=30)
    code, _ = server.stop()
    assert code == 0
    stdout = [line for line in server.stdout_lines if line]
    assert len(stdout) == 1 and json.loads(stdout[0])["url"].startswith("http://127.0.0.1:"), stdout
    entries = [json.loads(line) for line in server.stderr_text(last=10_000_000).splitlines()]  # every line parses
    messages = [(entry["level"], entry["message"]) for entry in entries]
    assert ("warn", "unknown environment variable FILTERCAST_PORTT is ignored (did you mean FILTERCAST_PORT?)") in messages
    assert any(level == "warn" and "without --token" in message for level, message in messages), messages
    assert any(level == "warn" and message.startswith("ffmpeg: ") for level, message in messages), \
        "the damaged file's decode errors are visible"
    assert ("info", "terminated, shutting down") in messages


def test_text_logs_say_nothing_about_a_loopback_server_without_a_token(start_server):
    server = start_server("--input", "test:160x120@10")
    server.stop()
    assert "without --token" not in server.stderr_text()
    assert "filtercast: info: terminated, shutting down" in server.stderr_text()
