"""`open` of a URL (v1): only what `--allow-source` allows — the server must not fetch any URL
for whoever reaches the page. An allowed stream plays as a live source, shown without
credentials or query; anything else is `forbidden` and changes nothing."""

from __future__ import annotations

import shutil
import subprocess

import numpy as np

from fc_client import Client, run
from fc_server import child_environment
from media_http import MediaHTTPServer
from test_e2e_recording import wait_state


def red_clip(tmp_path):
    path = tmp_path / "red.mp4"
    subprocess.run([shutil.which("ffmpeg"), "-nostdin", "-v", "error", "-y", "-f", "lavfi", "-i",
                    "color=c=0xc8281e:size=320x240:rate=30", "-t", "10", "-c:v", "libx264", "-pix_fmt", "yuv420p",
                    str(path)], check=True, timeout=60)
    return path


def test_an_allowed_url_plays_and_others_are_forbidden(start_server, tmp_path):
    with MediaHTTPServer(red_clip(tmp_path), ranges=True) as media:
        server = start_server("--input", "test:640x360@30", "--allow-source", "rtsp://cams.local/*, http://127.0.0.1:*/*.mp4*")
        url = media.url.replace("http://", "http://viewer:secret@") + "?token=abc"

        async def scenario():
            async with await Client.connect(server.ws_url()) as client:
                other = await client.command({"type": "open", "source": "http://example.com/x.mp4"})
                await client.ok({"type": "open", "source": url})
                state = await wait_state(client, lambda s: s["source"]["kind"] == "stream", "the stream")
                playing = await wait_state(client, lambda s: s["source"]["online"] and s["fps"] > 0, "frames", timeout=15)
                client.drop_frames()
                frames = await client.frames(5, timeout=10)
                await client.ok({"type": "open", "source": "input"})
                back = await wait_state(client, lambda s: s["source"]["startInput"] and s["source"]["width"] == 640,
                                        "the input, at its size")
                return other, state, playing, frames, back

        other, state, playing, frames, back = run(scenario(), timeout=60)
    assert other["code"] == "forbidden" and "--allow-source allows rtsp://cams.local/*, http://127.0.0.1:*/*.mp4*" \
        in other["message"], other
    source = state["source"]
    assert source["name"] == media.url and "secret" not in str(state) and "token" not in source["name"], source
    assert (source["seekable"], source["startInput"]) == (False, False)
    rgb = frames[-1].rgb().astype(np.float64)
    assert rgb[..., 0].mean() - rgb[..., 2].mean() > 100, "the red clip plays"
    # The session takes the stream's size, and the state says it.
    assert frames[-1].image().size == (320, 240)
    assert (playing["source"]["width"], playing["source"]["height"]) == (320, 240), playing["source"]
    assert back["source"]["kind"] == "test" and back["source"]["height"] == 360
    assert "secret" not in server.stderr_text(last=20000)


def test_without_allow_source_no_url_opens(start_server):
    server = start_server("--input", "test:320x240@30")

    async def scenario():
        async with await Client.connect(server.ws_url()) as client:
            return await client.command({"type": "open", "source": "rtsp://cams.local/front"})

    reply = run(scenario())
    assert reply["code"] == "forbidden" and "it opens no URLs (--allow-source PATTERN lets it)" in reply["message"], reply


def test_a_pattern_without_a_scheme_is_refused_at_start(filtercast_bin):
    result = subprocess.run([filtercast_bin, "serve", "--port", "0", "--allow-source", "cams.local/*"],
                            capture_output=True, text=True, timeout=30, env=child_environment())
    assert result.returncode == 2 and "--allow-source must be URL patterns with a scheme" in result.stderr, result.stderr
