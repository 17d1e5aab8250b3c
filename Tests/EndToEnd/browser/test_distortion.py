"""The distortion filters in a real browser against a real `filtercast serve`: the picker lists
them under their own heading, kaleidoscope at its defaults (count 6, angle 0, centred) mirrors
the picture across its middle row, and twirl turns the picture around the centre it is given and
leaves the rest as it was.

The pixel checks run paused, so that the same source frame is compared with and without a filter.
"""

from __future__ import annotations

import json

import numpy as np

import browser_pixels as px


def paused_luma(page) -> np.ndarray:
    page.pause()
    page.wait_still()
    assert page.state()["filter"]["name"] == "none"
    return px.luma(page.canvas_rgb())


def mirror_error(y: np.ndarray) -> float:
    """Mean luma difference between the picture and the picture turned upside down."""
    return float(np.abs(y - y[::-1]).mean())


def test_distortions_have_their_own_group(file_server, open_page):
    page = open_page(file_server)
    groups = page.js("""
        return [...document.querySelectorAll('#filters .filter-group')].map(g => [
          g.querySelector('.filter-group-title').textContent,
          [...g.querySelectorAll('[data-filter]')].map(b => b.dataset.filter)]);""")
    assert dict(groups).get("Distortion") == ["twirl", "bump", "pinch", "kaleidoscope"]


def test_kaleidoscope_mirrors_the_picture(file_server, open_page):
    page = open_page(file_server)
    before = paused_luma(page)
    assert mirror_error(before) > 15, "the test clip should not be symmetric to begin with"
    page.choose_filter("kaleidoscope")
    after = page.wait_pixels(lambda rgb: (mirror_error(px.luma(rgb)) < 3, f"mirror error {mirror_error(px.luma(rgb)):.2f}"),
                             message="a picture mirrored across its middle row")
    assert np.abs(px.luma(after) - before).mean() > 10


def test_twirl_moves_the_disk_around_its_centre_only(file_server, open_page):
    page = open_page(file_server)
    before = paused_luma(page)
    height, width = before.shape
    page.choose_filter("twirl")
    # Centred where the dark and the middle grey of the clip's band meet: an edge to turn, whatever
    # the Mandelbrot shows at the time.
    center = (214, 332)
    page.raw_send(json.dumps({"type": "setParams", "params": {"centerX": center[0] / width, "centerY": center[1] / height}}))
    # Radius 300 at 1080 lines.
    radius = 300 * height / 1080
    rows, columns = np.mgrid[0:height, 0:width]
    distance = np.hypot(columns + 0.5 - center[0], rows + 0.5 - center[1])
    inside, outside = distance < radius * 0.4, distance > radius + 16  # JPEG blocks straddle the circle

    def twirled(rgb):
        change = np.abs(px.luma(rgb) - before)
        return change[inside].mean() > 15, f"mean change inside {change[inside].mean():.1f}"

    after = page.wait_pixels(twirled, message="a twirl around the band's edge")
    assert np.abs(px.luma(after) - before)[outside].mean() < 1
