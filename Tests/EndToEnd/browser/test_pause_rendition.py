"""A pause is not a slow link (issue 23, defect 1): a paused viewer keeps its rendition, on
H.264 (the page as a user loads it) and on JPEG (`?transport=jpeg`), both chosen by the server."""

from __future__ import annotations

import time

import pytest

pytestmark = pytest.mark.solo  # the rendition the adaptation picks from delivery rates: run alone


def test_a_paused_viewer_keeps_its_rendition(file_server, open_page):
    h264 = open_page(file_server, transport=None)
    jpeg = open_page(file_server, second=True, transport="jpeg")
    full = (640, 360)
    for page, transport in ((h264, "h264"), (jpeg, "jpeg")):
        page.wait_for(lambda: (page.stats()["transport"], page.stats()["width"], page.stats()["height"]) == (transport, *full),
                      message=f"{transport} at full size")
    h264.pause()
    started = time.monotonic()
    widths = []
    for second in range(1, 11):
        # The observation: the size each page draws, once a second for 10 s of pause.
        time.sleep(max(0.0, started + second - time.monotonic()))
        widths.append((h264.stats()["width"], jpeg.stats()["width"]))
    assert widths == [(full[0], full[0])] * 10, f"widths drawn each second of the pause (H.264, JPEG): {widths}"
