"""A live network stream fed by the ffmpeg CLI: the test pattern as H.264 (and, with `sound`, a
440 Hz tone as AAC) in MPEG-TS, in real time
(`-re`), sent over UDP or served to one client on a listening TCP socket. It can be stopped and
started again, like a broadcast that drops out."""

from __future__ import annotations

import shutil
import socket
import subprocess


def free_port(kind=socket.SOCK_DGRAM) -> int:
    with socket.socket(socket.AF_INET, kind) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class LiveFeed:
    def __init__(self, transport: str = "udp", width: int = 320, height: int = 240, rate: int = 25, sound: bool = False):
        ffmpeg = shutil.which("ffmpeg")
        if not ffmpeg:
            raise RuntimeError("the ffmpeg CLI is needed for live feeds (apt-get install ffmpeg)")
        self.port = free_port(socket.SOCK_DGRAM if transport == "udp" else socket.SOCK_STREAM)
        self.url = f"{transport}://127.0.0.1:{self.port}"
        output = f"{self.url}?pkt_size=1316" if transport == "udp" else f"{self.url}?listen=1"
        self.command = [ffmpeg, "-nostdin", "-hide_banner", "-loglevel", "error", "-re",
                        "-f", "lavfi", "-i", f"testsrc2=size={width}x{height}:rate={rate}",
                        *(["-f", "lavfi", "-i", "sine=f=440:r=48000"] if sound else []),
                        "-c:v", "libx264", "-preset", "ultrafast", "-tune", "zerolatency", "-g", str(rate // 2),
                        "-pix_fmt", "yuv420p", *(["-c:a", "aac"] if sound else []), "-f", "mpegts", output]
        self.proc: subprocess.Popen | None = None

    def start(self) -> "LiveFeed":
        self.proc = subprocess.Popen(self.command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                     stderr=subprocess.DEVNULL)
        return self

    def stop(self):
        if self.proc and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(timeout=5)
        self.proc = None
