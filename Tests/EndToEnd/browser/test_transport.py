"""Transport in a real browser: play/pause (button, click on the video, space), seeking by
dragging the slider and with ←/→, the time label, and the live-source variant."""

from __future__ import annotations

import re
import time

import pytest
from selenium.webdriver.common.keys import Keys

from browser_support import CLIP_SECONDS, assert_throttled, drag, press, release

FRAME = 1 / 30


def label_seconds(text: str) -> int:
    """Seconds of the current-time part of the time label ("01:05 / 02:00" or, paused,
    "01:05.480 / 02:00" → 65)."""
    current = text.split("/")[0].strip().split(".")[0]
    parts = [int(part) for part in current.split(":")]
    seconds = 0
    for part in parts:
        seconds = seconds * 60 + part
    return seconds


def test_pause_stops_pts_and_play_resumes(file_server, open_page):
    page = open_page(file_server)
    page.wait_frames(10)
    button = page.find("#play-pause")
    assert button.get_attribute("aria-label") == "Pause"

    button.click()
    page.wait_state(lambda s: not s["playing"], message="paused")
    page.wait_for(lambda: button.get_attribute("aria-label") == "Play", message="the button offering Play")
    assert page.visible("#paused-mark")
    stats = page.wait_still()
    time.sleep(1.0)  # the observation window: nothing may move while paused
    later = page.stats()
    assert later["lastPts"] == stats["lastPts"] and later["framesDrawn"] == stats["framesDrawn"]
    assert page.state()["position"] == pytest.approx(stats["lastPts"], abs=2 * FRAME)

    # A click on the video plays again, and pts move on.
    page.find("#view").click()
    page.wait_state(lambda s: s["playing"], message="playing")
    page.wait_for(lambda: page.stats()["lastPts"] > stats["lastPts"] + 0.3, message="pts moving again")
    assert not page.visible("#paused-mark")

    # And a second click on the video pauses.
    page.find("#view").click()
    page.wait_state(lambda s: not s["playing"], message="paused by a click on the video")


def test_space_toggles_play_pause(file_server, open_page):
    page = open_page(file_server)
    page.js("document.activeElement && document.activeElement.blur()")
    press(page, Keys.SPACE)
    page.wait_state(lambda s: not s["playing"], message="paused by space")
    press(page, Keys.SPACE)
    page.wait_state(lambda s: s["playing"], message="playing after space")
    assert [m["type"] for m in page.sent() if m["type"] in ("play", "pause")] == ["pause", "play"]


def test_space_pauses_after_a_click_on_a_filter_chip(file_server, open_page):
    """A clicked chip keeps no focus: space then pauses instead of choosing the chip again."""
    page = open_page(file_server)
    page.find('[data-filter="sepia"]').click()
    page.wait_state(lambda s: s["filter"]["name"] == "sepia", message="sepia chosen by a click")
    assert page.js("return document.activeElement === document.body"), "the chip kept the focus"
    press(page, Keys.SPACE)
    page.wait_state(lambda s: not s["playing"], message="paused by space after the chip click")
    press(page, Keys.SPACE)
    page.wait_state(lambda s: s["playing"], message="playing again by space")
    assert [m["type"] for m in page.sent() if m["type"] in ("play", "pause")] == ["pause", "play"]
    assert len(page.sent("setFilter")) == 1, "space chose the filter again"


def test_dragging_the_seek_slider_scrubs_and_moves_the_time_label(file_server, open_page):
    page = open_page(file_server)
    page.pause()
    page.wait_still()
    assert re.fullmatch(r"00:0\d\.\d{3} / 00:12", page.text("#time")), page.text("#time")  # paused: to the frame
    seek = page.find("#seek")
    assert float(seek.get_attribute("max")) == pytest.approx(CLIP_SECONDS, abs=0.1)
    page.watch_control("#seek")

    drag(page, seek, 0.2, 0.7, steps=20)
    during = page.sent("seek")
    assert len(during) >= 3, f"seek should be sent while dragging, got {during}"
    release(page)
    # The last value goes out at most one throttle interval after the release: wait for the
    # slider's last value to be the last seek sent (a content, not a quiet spell).
    sent = page.wait_sent_last("seek", lambda message: message["position"])
    target = sent[-1]["position"]
    assert 0.6 * CLIP_SECONDS < target < 0.8 * CLIP_SECONDS
    assert_throttled(sent, "seek")
    # Paused, the seek shows the exact frame: the first one at or after the target.
    state = page.wait_state(lambda s: target - 0.001 <= s["position"] <= target + FRAME + 0.001,
                            message=f"position {target:.3f}")
    page.wait_for(lambda: abs(page.stats()["lastPts"] - state["position"]) < 0.001,
                  message="the frame at the seek target")
    millis = round(state["position"] * 1000)
    expected = f"{millis // 60000:02d}:{millis // 1000 % 60:02d}.{millis % 1000:03d} / 00:12"
    page.wait_for(lambda: page.text("#time") == expected, message=f"time label {expected}")
    page.wait_for(lambda: abs(float(seek.get_attribute("value")) - state["position"]) < 0.01,
                  message="the slider at the position")
    target = state["position"]

    # ←/→ jump 5 s (the slider keeps the focus: the keys are the page's, not the slider's).
    press(page, Keys.ARROW_LEFT)
    page.wait_state(lambda s: abs(s["position"] - (target - 5)) < 2 * FRAME, message="5 s back")
    page.wait_for(lambda: label_seconds(page.text("#time")) == int(target - 5), message="the label 5 s back")
    page.js("document.activeElement.blur()")
    press(page, Keys.ARROW_RIGHT)
    page.wait_state(lambda s: abs(s["position"] - target) < 2 * FRAME, message="5 s forward again")
    page.wait_for(lambda: label_seconds(page.text("#time")) == int(target), message="the label forward again")
    assert not page.state()["playing"], "seeking does not start playback"


def test_arrow_keys_stop_at_the_ends(file_server, open_page):
    page = open_page(file_server)
    page.pause()
    page.js("document.activeElement && document.activeElement.blur()")
    press(page, Keys.ARROW_LEFT)
    page.wait_state(lambda s: s["position"] < FRAME, message="the start")
    assert page.sent("seek")[-1]["position"] == 0
    for _ in range(3):
        press(page, Keys.ARROW_RIGHT)
    page.wait_for(lambda: page.sent("seek") and page.sent("seek")[-1]["position"] == CLIP_SECONDS,
                  message="a seek clamped to the duration")
    page.wait_state(lambda s: s["position"] > CLIP_SECONDS - 0.5, message="the end")
    assert page.text("#toast") in ("", None) or not page.visible("#toast")


def test_live_source_has_no_seek_slider_and_a_live_badge(live_server, open_page):
    page = open_page(live_server)
    state = page.state()
    assert state["duration"] is None and state["source"]["seekable"] is False
    assert page.visible("#live-badge") and page.text("#live-badge") == "LIVE"
    assert not page.visible("#seek")
    assert re.fullmatch(r"\d\d:\d\d", page.text("#time")), page.text("#time")
    page.js("document.activeElement && document.activeElement.blur()")
    press(page, Keys.ARROW_RIGHT, Keys.ARROW_LEFT)
    page.wait_frames(3)
    assert page.sent("seek") == []


def test_time_format(file_server, open_page):
    page = open_page(file_server)
    fmt = lambda *args: page.js("return window.filtercast.formatTime(...arguments)", *args)  # noqa: E731
    assert fmt(0) == "00:00"
    assert fmt(5.9) == "00:05"
    assert fmt(65) == "01:05"
    assert fmt(3599.5) == "59:59"
    assert fmt(3600) == "1:00:00"
    assert fmt(3725) == "1:02:05"
    assert fmt(36000 + 61) == "10:01:01"
    assert fmt(65, True) == "0:01:05"  # beside a duration past an hour
    assert fmt(-3) == "00:00"
