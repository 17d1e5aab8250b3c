"""Graceful shutdown: SIGTERM/SIGINT with clients connected."""

import asyncio
import signal
import socket
import time

import pytest
import websockets

from fc_client import Client, run


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
def test_signal_closes_clients_with_1001_and_exits_0_within_1_s(start_server, signum):
    server = start_server("--input", "test:320x240@30")

    async def scenario():
        viewer = await Client.connect(server.ws_url())
        idle = await Client.connect(server.ws_url(), auto_ack=False)  # window full: nothing to write
        await viewer.frames(3)
        # An MJPEG reader too: an HTTP connection that never ends by itself.
        mjpeg = socket.create_connection((server.host, server.port), timeout=3)
        mjpeg.sendall(f"GET /stream.mjpg HTTP/1.1\r\nHost: {server.host}\r\n\r\n".encode())
        assert mjpeg.recv(100).startswith(b"HTTP/1.1 200")
        # Both clients are watched at once from the signal on, and the exit by a thread that
        # waits on the process from the signal (send_signal): each time is when it happened, not
        # when the test got round to look.
        sent = server.send_signal(signum)

        async def close_code(client):
            try:
                while time.monotonic() - sent < 2.0:
                    await client._receive(max(0.01, sent + 2.0 - time.monotonic()))
                    client.inbox.clear()
            except websockets.ConnectionClosed as closed:
                return (closed.rcvd.code if closed.rcvd else None, time.monotonic() - sent)
            return None
        codes = [code for code in await asyncio.gather(close_code(viewer), close_code(idle)) if code]
        exit_code = await asyncio.get_running_loop().run_in_executor(None, server.wait, 2.0, sent)
        mjpeg.close()
        return codes, exit_code
    codes, exit_code = run(scenario())
    assert len(codes) == 2, f"a client was not closed within 2 s: {codes}"
    for code, seconds in codes:
        assert code == 1001, f"close code {code} (want 1001 going away)"
        assert seconds < 1.0, f"the close frame came {seconds:.2f} s after the signal"
    assert exit_code == 0, f"exit code {exit_code}\n{server.stderr_text()}"
    assert server.stop_seconds < 1.0, f"the server took {server.stop_seconds:.2f} s to exit"


def test_sigterm_with_no_client_exits_0_quickly(start_server):
    server = start_server("--input", "test:320x240@30")
    code, seconds = server.stop(timeout=2.0)
    assert code == 0
    assert seconds < 1.0, f"{seconds:.2f} s"


def test_sigterm_with_three_file_channels_and_two_mjpeg_readers_exits_within_1_s(start_server, sample_clip):
    """Every channel stops on a thread of its own: three file channels with MJPEG readers stop in
    the time of one (they stopped one after another: 1.25–2.0 s)."""
    server = start_server("--input", str(sample_clip), "--channel", f"b={sample_clip}", "--channel", f"c={sample_clip}")
    readers = []
    for channel in ("b", "c"):
        reader = socket.create_connection((server.host, server.port), timeout=3)
        reader.sendall(f"GET /stream.mjpg?channel={channel} HTTP/1.1\r\nHost: {server.host}\r\n\r\n".encode())
        assert reader.recv(100).startswith(b"HTTP/1.1 200")
        readers.append(reader)
    code, seconds = server.stop(timeout=3.0)
    for reader in readers:
        reader.close()
    assert code == 0, server.stderr_text()
    assert seconds < 1.0, f"the server took {seconds:.2f} s to exit"
