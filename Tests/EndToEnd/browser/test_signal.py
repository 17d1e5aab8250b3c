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


# Counts the page's states (window.__stateAt: the page's clock at the last one): each state
# renders the source's signal again, which (online) hides the badge and ends its countdown.
COUNT_STATES = """
    return import('/player.js').then(({ player }) => {
      window.__stateAt = performance.now();
      player.on('state', () => { window.__stateAt = performance.now(); });
    });"""

# Starts the countdown of a state saying `retryIn: 2.2` and records every text of the badge with
# the page's clock (a MutationObserver), until it reads 0 s; returns [[ms since the start, text]…]
# and whether a state came meanwhile. All in the page: the verdict holds no WebDriver round trip.
COUNT_DOWN = """
    const done = arguments[arguments.length - 1];
    import('/source.js').then((m) => {
      const badge = document.getElementById('signal-badge');
      const seen = [], statesBefore = window.__stateAt;
      let start = null, finished = false;
      const finish = () => {
        if (finished) return;
        finished = true;
        observer.disconnect();
        done({ seen, stateCame: window.__stateAt !== statesBefore });
      };
      const observer = new MutationObserver(() => {
        seen.push([performance.now() - start, badge.textContent]);
        if (badge.textContent.endsWith(' 0 s')) finish();
      });
      observer.observe(badge, { childList: true, characterData: true, subtree: true });
      start = performance.now();
      m.renderSignal({ online: false, retryIn: 2.2, reason: 'test' });
      seen.push([performance.now() - start, badge.textContent]);  // synchronous: at once
      setTimeout(finish, 15000);  // a frozen countdown: the verdict below says so
    });"""


def test_the_badge_counts_down_between_states_on_the_pictures_clock(file_server, open_page):
    """Issue 23, defect 6: the badge's seconds change at the whole seconds before the attempt
    (where the server redraws its picture), counting on the page's clock, not frozen at the
    value of the last state. Paused, no state comes to refresh it."""
    page = open_page(file_server)
    page.js(COUNT_STATES)
    page.pause()
    # A state (the pause's own position, late on a busy machine) would end the countdown: start it
    # once none has come for a second.
    page.wait_for(lambda: page.js("return performance.now() - window.__stateAt") > 1000, timeout=15,
                  message="a second without a state after the pause")
    assert page.js("""return import('/source.js').then(m => [[2.4, 0], [2.4, 400], [2.4, 399], [0.2, 500]]
                        .map(([r, e]) => Object.values(m.retryCountdown(r, e))))""") == [[3, 400], [2, 1000], [3, 1], [0, None]]
    result = page.driver.execute_async_script(COUNT_DOWN)
    assert not result["stateCame"], f"a state came during the countdown and reset it: {result}"
    texts = [text for _, text in result["seen"]]
    changes = [(round(ms), text) for (ms, text), previous in zip(result["seen"], [None] + texts) if text != previous]
    # Each second's text once, in order: 3 s at once (read as renderSignal returned), 2 s at 0.2 s,
    # 1 s at 1.2 s, 0 s at 2.2 s, each on the page's clock from the state. The page's timer fires
    # after the change is due (it re-arms when early), so the lower bounds are exact; a busy
    # renderer may run it late, and each change is timed from the state, not from the previous
    # change (lateness does not add up), so up to 500 ms of lateness is allowed: a countdown
    # stepping whole seconds from the state (at 1 s, 2 s, …) would be 800 ms off.
    prefix = "No signal — retrying in "
    assert result["seen"][0][1] == prefix + "3 s", result["seen"]
    assert [text for _, text in changes] == [prefix + n for n in ("3 s", "2 s", "1 s", "0 s")], changes
    for (ms, _), due in zip(changes[1:], (200, 1200, 2200)):
        assert due - 1 <= ms <= due + 500, f"changed at {ms} ms, due at {due} ms: {changes}"
