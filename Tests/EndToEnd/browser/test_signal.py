"""The page when a live source drops out: a "No signal" badge with the countdown (the reason as
its tooltip) over the placeholder the server sends about once a second, and back to normal when
the stream returns. The stream is a real UDP feed from the ffmpeg CLI, stopped and restarted."""

from __future__ import annotations

import numpy as np
import pytest

from live_feed import LiveFeed  # Tests/EndToEnd is on sys.path (its conftest.py)


@pytest.fixture
def feed():
    feed = LiveFeed("udp", width=640, height=360).start()
    yield feed
    feed.stop()


def test_a_live_source_that_drops_out_shows_no_signal_and_recovers(launch, open_page, feed):
    server = launch("--input", feed.url, "--stall-timeout", "1")
    page = open_page(server)
    page.wait_frames(10)
    assert not page.visible("#signal-badge")

    feed.stop()
    page.wait_state(lambda s: s["source"]["online"] is False, timeout=10, message="source offline")
    page.wait_for(lambda: page.visible("#signal-badge"), message="the No signal badge")
    badge = page.find("#signal-badge")
    assert badge.text.startswith("No signal"), badge.text
    assert "no frame for 1 s" in badge.get_attribute("title")
    page.wait_for(lambda: "retrying in" in page.text("#signal-badge"), timeout=15, message="a countdown")
    assert page.js("return document.body.dataset.signal") == "lost"
    # Placeholders keep coming, about one a second: dark, with a little white text.
    drawn = page.stats()["framesDrawn"]
    page.wait_for(lambda: page.stats()["framesDrawn"] >= drawn + 2, timeout=5, message="placeholders arriving")

    def looks_like_placeholder(rgb: np.ndarray) -> bool:
        luma = rgb.mean(axis=2)
        return np.mean(luma < 60) > 0.85 and np.mean(luma > 200) > 0.002

    page.wait_pixels(looks_like_placeholder, message="the NO SIGNAL placeholder on the canvas")

    feed.start()
    page.wait_state(lambda s: s["source"]["online"] is True, timeout=25, message="source back online")
    page.wait_for(lambda: not page.visible("#signal-badge"), message="the badge gone")
    assert page.js("return document.body.dataset.signal") == "ok"
    page.wait_pixels(lambda rgb: not looks_like_placeholder(rgb), message="the test pattern again")


def test_the_badge_counts_down_between_states_on_the_pictures_clock(file_server, open_page):
    """Issue 23, defect 6: the badge's seconds change at the whole seconds before the attempt
    (where the server redraws its picture), counting on the page's clock, not frozen at the
    value of the last state. Paused, no state comes to refresh it."""
    page = open_page(file_server)
    page.pause()
    page.js("return import('/source.js').then(m => m.renderSignal({ online: false, retryIn: 2.4, reason: 'test' }))")
    page.wait_for(lambda: page.text("#signal-badge") == "No signal — retrying in 3 s", timeout=0.3, message="3 s at once")
    assert page.js("""return import('/source.js').then(m => [[2.4, 0], [2.4, 400], [2.4, 399], [0.2, 500]]
                        .map(([r, e]) => Object.values(m.retryCountdown(r, e))))""") == [[3, 400], [2, 1000], [3, 1], [0, None]]
    page.wait_for(lambda: page.text("#signal-badge") == "No signal — retrying in 2 s", timeout=1, message="2 s after 0.4 s")
    page.wait_for(lambda: page.text("#signal-badge") == "No signal — retrying in 1 s", timeout=1.5, message="1 s a second later")
