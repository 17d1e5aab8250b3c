"""Serving a media file over HTTP from the test, with or without byte-range support.

Python's http.server ignores `Range` (it always answers 200 with the whole file and no
`Accept-Ranges`), which is what a server that cannot seek looks like. `MediaHTTPServer(ranges=True)`
answers `Range: bytes=A-B` with 206 and `Content-Range`, as any web server does for static files.
`ranges=False` also leaves out `Content-Length`, so the body is a stream of unknown length.
`drop_after=N` cuts the first response that reaches byte N short there (the connection closes),
like a network that drops out mid-file.

Run as a script (`media_http.py FILE [--no-ranges] [--drop-after N]`) it prints its URL on one
line and serves until it is killed: the Swift tests start it that way.
"""

from __future__ import annotations

import http.server
import os
import re
import sys
import threading

RANGE = re.compile(r"bytes=(\d*)-(\d*)$")
CONTENT_TYPES = {".mp4": "video/mp4", ".ts": "video/mp2t"}


class MediaHTTPServer:
    """Serves one file at `http://127.0.0.1:PORT/NAME` on a thread of its own. `requests` lists
    each request's `Range` header ("" for none), `range_requests` counts those answered with 206."""

    def __init__(self, path, *, ranges: bool, drop_after: int | None = None):
        self.path = str(path)
        self.name = os.path.basename(self.path)
        self.ranges = ranges
        self.drop_after = drop_after
        self.range_requests = 0
        self.dropped = 0
        self.requests: list[str] = []
        self._httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self._httpd.daemon_threads = True
        self._thread = threading.Thread(target=self._httpd.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._httpd.server_address[1]}/{self.name}"

    def __enter__(self) -> "MediaHTTPServer":
        self._thread.start()
        return self

    def __exit__(self, *exc):
        self._httpd.shutdown()
        self._httpd.server_close()
        self._thread.join(timeout=5)

    def _handler(self):
        media = self

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):  # quiet: pytest shows failures, not every request
                pass

            def do_GET(self):
                if self.path.split("?")[0] != "/" + media.name:
                    self.send_error(404)
                    return
                media.requests.append(self.headers.get("Range", ""))
                with open(media.path, "rb") as file:
                    data = file.read()
                requested = RANGE.match(self.headers.get("Range", "")) if media.ranges else None
                if requested is None:
                    self._send_whole(data)
                else:
                    media.range_requests += 1
                    self._send_range(data, requested)

            def _send_whole(self, data: bytes):
                self.send_response(200)
                self.send_header("Content-Type", CONTENT_TYPES.get(os.path.splitext(media.name)[1], "video/mp4"))
                if media.ranges:
                    self.send_header("Accept-Ranges", "bytes")
                    self.send_header("Content-Length", str(len(data)))
                else:
                    # No length and no ranges: the body ends when the connection closes.
                    self.send_header("Connection", "close")
                    self.close_connection = True
                self.end_headers()
                self._write(data, 0)

            def _send_range(self, data: bytes, requested: re.Match):
                first, last = requested.group(1), requested.group(2)
                if first == "":  # a suffix: the last N bytes
                    start, end = max(0, len(data) - int(last or 0)), len(data) - 1
                else:
                    start, end = int(first), min(int(last) if last else len(data) - 1, len(data) - 1)
                if start >= len(data) or start > end:
                    self.send_response(416)
                    self.send_header("Content-Range", f"bytes */{len(data)}")
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                    return
                self.send_response(206)
                self.send_header("Content-Type", CONTENT_TYPES.get(os.path.splitext(media.name)[1], "video/mp4"))
                self.send_header("Accept-Ranges", "bytes")
                self.send_header("Content-Range", f"bytes {start}-{end}/{len(data)}")
                self.send_header("Content-Length", str(end - start + 1))
                self.end_headers()
                self._write(data[start:end + 1], start)

            def _write(self, body: bytes, offset: int):
                """Sends `body` (the file from `offset` on), cut short at `drop_after` once."""
                if media.drop_after is not None and media.dropped == 0 and offset + len(body) > media.drop_after:
                    media.dropped += 1
                    body = body[:max(0, media.drop_after - offset)]
                    self.close_connection = True
                try:
                    self.wfile.write(body)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client seeked elsewhere and hung up: normal for media players

        return Handler


if __name__ == "__main__":
    arguments = sys.argv[1:]
    drop = int(arguments[arguments.index("--drop-after") + 1]) if "--drop-after" in arguments else None
    with MediaHTTPServer(arguments[0], ranges="--no-ranges" not in arguments, drop_after=drop) as served:
        print(served.url, flush=True)
        threading.Event().wait()  # until the test kills us
