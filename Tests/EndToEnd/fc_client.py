"""A protocol-v1 test client around `websockets` (asyncio), plus frame and image helpers.

Every wait has a timeout; a timeout becomes an AssertionError that says what was awaited.
"""

from __future__ import annotations

import asyncio
import base64
import collections
import io
import json
import os
import socket
import struct
import time
from dataclasses import dataclass

import numpy as np
import websockets
from PIL import Image

SUBPROTOCOL = "filtercast.v1"
HEADER = struct.Struct("<4sHHQqq")
assert HEADER.size == 32
FLAG_STATE_CHANGED = 1
# RFC 6455 opcodes
OPCODE_CONTINUATION, OPCODE_TEXT, OPCODE_BINARY, OPCODE_CLOSE, OPCODE_PING, OPCODE_PONG = 0, 1, 2, 8, 9, 10


def run(coroutine, timeout: float = 30.0):
    """Runs a test coroutine with an overall deadline."""
    async def guarded():
        return await asyncio.wait_for(coroutine, timeout)
    return asyncio.run(guarded())


# -- frames --------------------------------------------------------------------------------------

@dataclass
class Frame:
    magic: bytes
    header_length: int
    flags: int
    seq: int
    pts_us: int
    sent_us: int
    jpeg: bytes  # the body: a JPEG (FCF1), or an H.264 access unit (FCH1)
    received: float  # time.monotonic() at arrival
    received_wall_us: int
    extra: bytes = b""  # the header's bytes past the first 32 (FCH1: width, height, rendition)

    @classmethod
    def parse(cls, data: bytes) -> "Frame":
        assert len(data) > HEADER.size, f"binary message of {len(data)} bytes is shorter than a header + JPEG"
        magic, length, flags, seq, pts, sent = HEADER.unpack_from(data)
        return cls(magic, length, flags, seq, pts, sent, bytes(data[length:]), time.monotonic(),
                   time.time_ns() // 1000, bytes(data[HEADER.size:length]))

    @property
    def is_unit(self) -> bool:
        return self.magic == b"FCH1"

    @property
    def keyframe(self) -> bool:
        return bool(self.flags & 2)

    @property
    def picture(self) -> tuple[int, int, int]:
        """An access unit's (width, height, rendition index)."""
        return struct.unpack_from("<HHB", self.extra)

    @property
    def pts(self) -> float:
        return self.pts_us / 1e6

    @property
    def state_changed(self) -> bool:
        return bool(self.flags & FLAG_STATE_CHANGED)

    def image(self) -> Image.Image:
        image = Image.open(io.BytesIO(self.jpeg))
        image.load()
        return image

    def rgb(self) -> np.ndarray:
        """H×W×3 float array."""
        return np.asarray(self.image().convert("RGB"), dtype=np.float64)

    def luma(self) -> np.ndarray:
        """H×W float array of the decoded luma (JPEG's Y: no chroma subsampling artefacts)."""
        return np.asarray(self.image().convert("L"), dtype=np.float64)

    def __repr__(self):
        return (f"Frame(seq={self.seq}, pts={self.pts:.6f}, flags={self.flags:#x}, "
                f"{len(self.jpeg)} JPEG bytes)")


def is_complete_jpeg(data: bytes) -> bool:
    return data[:2] == b"\xff\xd8" and data[-2:] == b"\xff\xd9"


def decode_jpeg(data: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(data))
    image.load()
    assert image.format == "JPEG", image.format
    return image


def warmth(rgb: np.ndarray) -> float:
    """Mean red minus mean blue: clearly positive for sepia."""
    return float(rgb[..., 0].mean() - rgb[..., 2].mean())


def tile_stddev(plane: np.ndarray, block: int, offset: int = 0) -> np.ndarray:
    """Standard deviation inside each block×block tile of a 2-D plane, tiles starting at
    (offset, offset)."""
    plane = plane[offset:, offset:]
    rows, columns = plane.shape[0] // block, plane.shape[1] // block
    tiles = plane[:rows * block, :columns * block].reshape(rows, block, columns, block)
    return tiles.std(axis=(1, 3))


def is_frame(item) -> bool:
    return isinstance(item, Frame)


# -- WebSocket client ----------------------------------------------------------------------------

class Client:
    """One `/ws` connection.

    Everything received goes into `inbox` in arrival order. `next_json` takes the first matching
    text message (leaving frames in place); `next_frame` takes the first matching frame and drops
    the frames before it. With `auto_ack`, every frame is acknowledged the moment it arrives.
    """

    def __init__(self, ws, auto_ack: bool):
        self.ws = ws
        self.auto_ack = auto_ack
        self.inbox: collections.deque = collections.deque()
        self.hello: dict | None = None
        self.frames_received = 0
        self.json_received: list = []
        self._next_id = 0

    @classmethod
    async def connect(cls, url: str, *, subprotocol: str | None = SUBPROTOCOL, origin: str | None = None,
                      headers: dict | None = None, auto_ack: bool = True, expect_hello: bool = True,
                      timeout: float = 5.0, ssl=None) -> "Client":
        """`ssl`: for wss:// URLs, the `ssl.SSLContext` that verifies the server (None: the system's)."""
        ws = await asyncio.wait_for(
            websockets.connect(url, subprotocols=[subprotocol] if subprotocol else None, origin=origin,
                               extra_headers=headers, open_timeout=timeout, close_timeout=1,
                               **({"ssl": ssl} if ssl is not None else {}),
                               max_size=16 * 1024 * 1024, max_queue=None, ping_interval=None,
                               compression=None),
            timeout)
        client = cls(ws, auto_ack)
        if expect_hello:
            client.hello = await client.next_json("hello", timeout=timeout)
        return client

    # receiving

    async def _receive(self, timeout: float):
        """Reads one message from the socket into the inbox; False on timeout."""
        try:
            data = await asyncio.wait_for(self.ws.recv(), timeout)
        except asyncio.TimeoutError:
            return False
        if isinstance(data, str):
            message = json.loads(data)
            assert isinstance(message, dict) and isinstance(message.get("type"), str), f"bad text message {data!r}"
            self.json_received.append(message)
            self.inbox.append(message)
        else:
            frame = Frame.parse(data)
            self.frames_received += 1
            self.inbox.append(frame)
            if self.auto_ack:
                try:
                    await self.ack(frame.seq)
                except websockets.ConnectionClosed:
                    # The server closed: what it sent before the close is still to be read, and the
                    # next recv() raises once it has been.
                    pass
        return True

    async def _take(self, predicate, what: str, timeout: float, drop_before=None):
        """Takes the first item of the inbox that matches; `drop_before(item)` says which of the items
        that arrived before it are discarded."""
        deadline = time.monotonic() + timeout
        while True:
            for index, item in enumerate(self.inbox):
                if predicate(item):
                    del self.inbox[index]
                    if drop_before:
                        kept = [m for i, m in enumerate(self.inbox) if i >= index or not drop_before(m)]
                        self.inbox = collections.deque(kept)
                    return item
            remaining = deadline - time.monotonic()
            if remaining <= 0 or not await self._receive(remaining):
                raise AssertionError(f"timed out after {timeout} s waiting for {what}; last text messages: "
                                     f"{[m for m in self.json_received[-5:]]}")

    async def next_json(self, type_: str | None = None, timeout: float = 3.0, where=None) -> dict:
        def matches(item):
            return (isinstance(item, dict) and (type_ is None or item.get("type") == type_)
                    and (where is None or where(item)))
        return await self._take(matches, f"a {type_ or 'text'} message", timeout)

    async def next_frame(self, timeout: float = 3.0, where=None) -> Frame:
        def matches(item):
            return isinstance(item, Frame) and (where is None or where(item))
        return await self._take(matches, "a frame", timeout, drop_before=is_frame)

    async def frames(self, count: int, timeout: float = 5.0) -> list:
        deadline = time.monotonic() + timeout
        result = []
        while len(result) < count:
            result.append(await self.next_frame(timeout=max(0.01, deadline - time.monotonic())))
        return result

    async def collect(self, seconds: float) -> list:
        """Everything that arrives in the next `seconds` (plus what was already in the inbox)."""
        deadline = time.monotonic() + seconds
        while (remaining := deadline - time.monotonic()) > 0:
            await self._receive(remaining)
        items = list(self.inbox)
        self.inbox.clear()
        return items

    def drop_frames(self):
        self.inbox = collections.deque(m for m in self.inbox if not isinstance(m, Frame))

    # sending

    async def send_json(self, message):
        await self.ws.send(json.dumps(message))

    async def send_raw(self, data):
        await self.ws.send(data)

    async def ack(self, seq: int):
        await self.send_json({"type": "frameAck", "seq": seq})

    def new_id(self) -> str:
        self._next_id += 1
        return f"c{self._next_id}"

    async def command(self, message: dict, timeout: float = 3.0) -> dict:
        """Sends a command with an `id` (one is added if missing) and returns the `ack` or `error`
        that carries that id. Frames and `state` messages that arrived before the reply are
        dropped: they were sent before the command was carried out — but for a `step` or a
        `seek`, answered once its frame is out: that frame (and its state) came before the reply."""
        message = dict(message)
        message.setdefault("id", self.new_id())
        await self.send_json(message)
        wanted = message["id"]
        # A step's or a seek's ack comes once its frame is out: what came before it is kept.
        keeps = message.get("type") in ("step", "seek")
        reply = await self._take(
            lambda item: isinstance(item, dict) and item.get("type") in ("ack", "error") and item.get("id") == wanted,
            f"the ack or error for {message}", timeout,
            drop_before=lambda item: not keeps and (is_frame(item) or item.get("type") == "state"))
        return reply

    async def ok(self, message: dict, timeout: float = 3.0) -> dict:
        reply = await self.command(message, timeout)
        assert reply["type"] == "ack", f"{message} was refused: {reply}"
        return reply

    async def close(self):
        try:
            await asyncio.wait_for(self.ws.close(), 2)
        except (asyncio.TimeoutError, websockets.ConnectionClosed, OSError):
            pass

    async def __aenter__(self):
        return self

    async def __aexit__(self, *exc):
        await self.close()


# -- raw WebSocket (for a client that never reads, and for handshake status codes) ---------------

class RawWebSocket:
    """A minimal blocking WebSocket client on a plain socket: sends masked text frames and can
    simply stop reading, which the asyncio library never does."""

    def __init__(self, sock: socket.socket, status: int, response_head: bytes):
        self.sock = sock
        self.status = status
        self.response_head = response_head

    @classmethod
    def connect(cls, host: str, port: int, path: str = "/ws", *, headers: dict | None = None,
                subprotocol: str | None = SUBPROTOCOL, receive_buffer: int | None = None,
                timeout: float = 5.0, ssl_context=None) -> "RawWebSocket":
        """`ssl_context`: speak TLS (wss://), verified by that `ssl.SSLContext`."""
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        if receive_buffer:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, receive_buffer)
        sock.settimeout(timeout)
        sock.connect((host, port))
        if ssl_context is not None:
            sock = ssl_context.wrap_socket(sock, server_hostname=host)
        key = base64.b64encode(os.urandom(16)).decode()
        lines = [f"GET {path} HTTP/1.1", f"Host: {host}:{port}", "Upgrade: websocket", "Connection: Upgrade",
                 f"Sec-WebSocket-Key: {key}", "Sec-WebSocket-Version: 13"]
        if subprotocol:
            lines.append(f"Sec-WebSocket-Protocol: {subprotocol}")
        lines += [f"{name}: {value}" for name, value in (headers or {}).items()]
        sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode())
        head = b""
        deadline = time.monotonic() + timeout
        while b"\r\n\r\n" not in head:
            if time.monotonic() > deadline:
                raise AssertionError(f"no handshake answer within {timeout} s: {head!r}")
            chunk = sock.recv(1)  # byte by byte: what follows the head stays in the socket
            if not chunk:
                break
            head += chunk
        # (A refused handshake is answered "HTTP/1.0 403 …" by lws: accept either version here.)
        status = int(head.split(b" ", 2)[1]) if head[:9] in (b"HTTP/1.1 ", b"HTTP/1.0 ") else 0
        return cls(sock, status, head)

    def send_text(self, text: str):
        self.send_frame(OPCODE_TEXT, text.encode())

    def send_frame(self, opcode: int, payload: bytes, *, fin: bool = True, masked: bool = True, rsv: int = 0):
        """One frame exactly as asked, valid or not (see `encode_frame`)."""
        self.sock.sendall(self.encode_frame(opcode, payload, fin=fin, masked=masked, rsv=rsv))

    @staticmethod
    def encode_frame(opcode: int, payload: bytes, *, fin: bool = True, masked: bool = True, rsv: int = 0) -> bytes:
        """The bytes of one frame (RFC 6455 §5.2): `rsv` is the three RSV bits (0…7),
        `masked=False` sends the payload in clear as a client never may."""
        header = bytearray([(0x80 if fin else 0) | (rsv & 7) << 4 | opcode & 0x0F])
        mask_bit = 0x80 if masked else 0
        if len(payload) < 126:
            header.append(mask_bit | len(payload))
        elif len(payload) < 65536:
            header.append(mask_bit | 126)
            header += struct.pack(">H", len(payload))
        else:
            header.append(mask_bit | 127)
            header += struct.pack(">Q", len(payload))
        if masked:
            mask = os.urandom(4)
            body = mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
        else:
            body = payload
        return bytes(header) + body

    def read_frame(self, deadline: float) -> tuple | None:
        """The next frame from the server as (opcode, payload); None when the connection ends
        (or nothing arrives) before `deadline` (a `time.monotonic()` value)."""
        def exactly(count: int) -> bytes | None:
            data = b""
            while len(data) < count:
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    return None
                self.sock.settimeout(remaining)
                try:
                    chunk = self.sock.recv(count - len(data))
                except (socket.timeout, ConnectionError):
                    return None
                if not chunk:
                    return None
                data += chunk
            return data
        head = exactly(2)
        if head is None:
            return None
        length = head[1] & 0x7F
        if length == 126:
            length = struct.unpack(">H", exactly(2) or b"\0\0")[0]
        elif length == 127:
            length = struct.unpack(">Q", exactly(8) or bytes(8))[0]
        payload = exactly(length) if length else b""
        return None if payload is None else (head[0] & 0x0F, payload)

    def close_received(self, timeout: float = 5.0) -> tuple | None:
        """Reads (skipping frames and text) until the server's close frame: (code, reason), or
        (None, "") for a close frame without a code; None when the TCP connection ended or
        `timeout` passed without a close frame."""
        deadline = time.monotonic() + timeout
        while (frame := self.read_frame(deadline)) is not None:
            opcode, payload = frame
            if opcode == OPCODE_CLOSE:
                if len(payload) < 2:
                    return (None, "")
                return (struct.unpack(">H", payload[:2])[0], payload[2:].decode("utf-8", "replace"))
        return None

    def close(self):
        try:
            self.sock.close()
        except OSError:
            pass


def handshake_status(host: str, port: int, path: str = "/ws", headers: dict | None = None,
                     subprotocol: str | None = SUBPROTOCOL, timeout: float = 5.0, ssl_context=None) -> int:
    """The HTTP status the server answers a WebSocket upgrade with (101 when accepted; 0 when it
    closed without an answer); over TLS with `ssl_context`."""
    raw = RawWebSocket.connect(host, port, path, headers=headers, subprotocol=subprotocol, timeout=timeout,
                               ssl_context=ssl_context)
    try:
        return raw.status
    finally:
        raw.close()


class Uploads:
    """A viewer and a controller of `server` (its token `token`) and `PUT prefix/NAME` as the
    controller: the shelves' tests (styles, backgrounds) upload a picture, check that it needs the
    token, and that the viewer is sent the new catalog."""

    def __init__(self, server, prefix: str, token: str):
        self.server, self.prefix, self.token = server, prefix, token

    def put(self, name: str, body: bytes, authorized: bool = True):
        headers = {"Authorization": f"Bearer {self.token}"} if authorized else {}
        return self.server.http("PUT", f"{self.prefix}/{name}", headers=headers, body=body, timeout=30)

    async def __aenter__(self):
        self.viewer = await Client.connect(self.server.ws_url())
        self.controller = await Client.connect(self.server.ws_url(token=self.token))
        return self

    async def __aexit__(self, *exc):
        await self.controller.close()
        await self.viewer.close()

    async def stored(self, name: str, body: bytes):
        """The 201 of `body` as `name` (refused without the token first) and the catalog the viewer is sent."""
        assert self.put(name, body, authorized=False).status == 401
        stored = self.put(name, body)
        return stored, await self.viewer.next_json("catalog", timeout=10)

