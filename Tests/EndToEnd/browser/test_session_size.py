"""The session takes the size of what plays (issue 23), in Chromium: a 640x360 session that opens a
320x240 clip draws it at 320x240 — over H.264 the decoder reconfigures from the new keyframe's SPS,
over JPEG each picture has its size — with no black picture in between; going back to the input
brings 640x360 back."""

from __future__ import annotations

import json

import pytest

from browser_support import PageServer
from fc_server import make_clip

CLIP = "media/small.mp4"

# Every picture the page draws, reduced to 16x9, gives its mean luma; the darkest is kept.
WATCH_DARKEST = """
const small = document.createElement("canvas");
small.width = 16; small.height = 9;
const context = small.getContext("2d", { willReadFrequently: true });
const canvas = document.getElementById("view");
window.darkest = 255;
let drawn = window.filtercast.stats.framesDrawn;
function look() {
  if (window.filtercast.stats.framesDrawn !== drawn) {
    drawn = window.filtercast.stats.framesDrawn;
    context.drawImage(canvas, 0, 0, 16, 9);
    const data = context.getImageData(0, 0, 16, 9).data;
    let sum = 0;
    for (let i = 0; i < data.length; i += 4) sum += 0.299 * data[i] + 0.587 * data[i + 1] + 0.114 * data[i + 2];
    window.darkest = Math.min(window.darkest, sum / (data.length / 4));
  }
  requestAnimationFrame(look);
}
requestAnimationFrame(look);
"""


@pytest.fixture(scope="module")
def sized_server(fc_binary, tmp_path_factory):
    """The live test pattern at 640x360, and a 320x240 clip (another size and shape) to open."""
    base = tmp_path_factory.mktemp("sized")
    (base / "media").mkdir()
    make_clip(base / CLIP, "color=c=0x1e3cc8:size=320x240:rate=30", 6,
              "-vf", "drawbox=x='mod(t*80,280)':y=100:w=40:h=40:color=white:t=fill", "-g", "15")
    server = PageServer(fc_binary, ["--input", "test:640x360@30", "--media-dir", str(base / "media"),
                                    "--recordings", str(base / "recordings")], base / "server.log")
    yield server.start()
    server.stop()


@pytest.mark.parametrize("rendition", ["h264-360p", "jpeg-360p"])
def test_a_clip_of_another_size_is_drawn_at_its_size_without_a_black_picture(sized_server, open_page, rendition):
    page = open_page(sized_server, transport=None, path=f"?rendition={rendition}")
    transport = rendition.split("-")[0]
    page.wait_for(lambda: page.stats()["transport"] == transport and page.stats()["width"] == 640,
                  message=f"{transport} at 640x360")
    page.js(WATCH_DARKEST)
    page.raw_send(json.dumps({"type": "open", "source": CLIP}))
    page.wait_for(lambda: (page.stats()["width"], page.stats()["height"]) == (320, 240), message="the clip at 320x240")
    drawn = page.stats()["framesDrawn"]
    page.wait_for(lambda: page.stats()["framesDrawn"] >= drawn + 20, message="the clip playing")
    assert page.stats()["transport"] == transport
    page.raw_send(json.dumps({"type": "open", "source": "input"}))
    page.wait_for(lambda: (page.stats()["width"], page.stats()["height"]) == (640, 360), message="the input at 640x360")
    darkest = page.js("return window.darkest")
    assert darkest > 40, f"a picture of mean luma {darkest:.1f} was drawn: black while the size changed"
