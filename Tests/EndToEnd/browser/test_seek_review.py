"""Reviewing a file in the page (issue 39, items 4 and 5): hovering the seek bar shows the picture
at that time above the pointer (#seek-thumbnail, cut from the server's sprite); the time label
switches to SMPTE timecode and back (a click, or T); "go to" (#goto) seeks to a timecode, m:ss or
seconds; the timecode arithmetic (drop-frame at 29.97 and 59.94) against known labels."""

from __future__ import annotations

import io
import urllib.request

import numpy as np
from PIL import Image

from browser_support import press

FPS = 30  # the browser tests' clip: 12 s
DURATION = 12


def test_hovering_the_seek_bar_shows_the_picture_at_that_time(file_server, open_page):
    page = open_page(file_server)
    page.wait_for(lambda: page.js("return document.getElementById('seek-thumbnail').dataset.sprite"), timeout=60,
                  message="the sprite loaded (made by the server, then fetched)")
    sprite_url = page.js("return document.getElementById('seek-thumbnail').dataset.sprite")
    # Shown in the pointermove's own task: well within 100 ms of the pointer moving.
    shown = page.js("""
      const seek = document.getElementById('seek'), thumbnail = document.getElementById('seek-thumbnail');
      const box = seek.getBoundingClientRect();
      seek.dispatchEvent(new PointerEvent('pointermove', {clientX: box.left + box.width * arguments[0],
                                                          clientY: box.top + box.height / 2, bubbles: true}));
      const at = thumbnail.getBoundingClientRect();
      return [thumbnail.hidden, thumbnail.dataset.index, at.bottom <= box.top + 4, Math.abs(at.left + at.width / 2 - (box.left + box.width * arguments[0]))];""",
                    0.52)
    hidden, index, above, off_centre = shown
    # 12 s: thumbnails at 0, 2, …, 10; 0.52 × 12 = 6.24 s is nearest 6 s, the fourth.
    assert (hidden, index, above) == (False, "3", True), shown
    assert off_centre < 2, shown
    with urllib.request.urlopen(file_server.url + sprite_url.lstrip("/"), timeout=10) as response:
        sprite = np.asarray(Image.open(io.BytesIO(response.read())).convert("RGB"), dtype=np.float64)
    drawn = page.canvas_rgb("seek-thumbnail")
    height, width = drawn.shape[:2]
    assert (width, height) == (160, 90)
    cell = sprite[0:90, 3 * 160:4 * 160]
    other = sprite[0:90, 0:160]
    assert np.abs(drawn - cell).mean() < 4, np.abs(drawn - cell).mean()
    assert np.abs(drawn - other).mean() > np.abs(drawn - cell).mean() + 2, "the cell at its time, not the first"
    # With the real pointer too; leaving the bar hides it.
    from selenium.webdriver.common.action_chains import ActionChains
    seek = page.find("#seek")
    ActionChains(page.driver, duration=0).move_to_element_with_offset(seek, -seek.size["width"] // 2 + 2, 0).perform()
    page.wait_for(lambda: page.js("return document.getElementById('seek-thumbnail').dataset.index") == "0", timeout=2,
                  message="the first thumbnail at the left end")
    ActionChains(page.driver, duration=0).move_to_element(page.find("#time")).perform()
    page.wait_for(lambda: page.js("return document.getElementById('seek-thumbnail').hidden"), timeout=2, message="hidden")


def test_a_live_page_never_asks_for_thumbnails(live_server, open_page):
    """A live source has none (404): the page asks only while a file plays, so the 404 the page
    tests allow is only ever a source that changed under a request."""
    page = open_page(live_server)
    page.wait_frames(10)
    asked = [entry["message"] for entry in page.console_log() if "/api/thumbnails" in entry["message"]]
    assert not asked, asked


def test_t_shows_timecode_and_goto_seeks_to_any_form(file_server, open_page):
    page = open_page(file_server)
    page.pause()
    page.raw_send('{"type":"seek","position":4.5}')
    page.wait_state(lambda s: abs(s["position"] - 4.5) < 0.02, message="at 4.5 s")
    page.find("#view").click()  # the focus off any control (a click on the picture toggles play)
    page.wait_state(lambda s: s["playing"], message="playing")
    page.pause()
    page.wait_for(lambda: page.text("#time").startswith("00:0"), message="the clock label")
    press(page, "t")
    label = page.wait_for(lambda: (lambda t: t if t.count(":") == 6 else None)(page.text("#time")), message="timecode")
    position = page.state()["position"]
    frame = round(position * FPS)
    assert label == f"00:00:{frame // FPS:02d}:{frame % FPS:02d} / 00:00:12:00", (label, position)
    page.find("#time").click()
    page.wait_for(lambda: page.text("#time").count(":") == 2, message="back to the clock")

    goto = page.find("#goto")
    for typed, target in [("00:00:05:15", 5.5), ("0:03", 3.0), ("7.25", 7.25 + 1 / 60)]:
        goto.clear()
        goto.send_keys(typed + "\n")
        page.wait_state(lambda s, target=target: abs(s["position"] - target) <= 0.5 / FPS, message=f"at {typed}")
    before = len(page.sent("seek"))
    goto.clear()
    goto.send_keys("5 minutes\n")
    assert goto.get_attribute("aria-invalid") == "true"
    assert "m:ss" in goto.get_attribute("title")
    assert len(page.sent("seek")) == before, "nothing sent for what is no time"


def test_timecode_arithmetic(file_server, open_page):
    page = open_page(file_server)
    labels = page.driver.execute_async_script("""
      const done = arguments[arguments.length - 1];
      import('./timecode.js').then((tc) => {
        const ntsc = 30000 / 1001, ntsc60 = 60000 / 1001;
        const frames = [0, 1799, 1800, 17981, 17982, 17983, 107892];
        const roundTrip = [];
        for (let frame = 0; frame < 120000; frame += 97) {
          const [h, m, s, f] = tc.timecodeOfFrame(frame, ntsc).split(/[:;]/).map(Number);
          if (tc.frameOfTimecode(h, m, s, f, ntsc) !== frame) roundTrip.push(frame);
        }
        let refused = null;
        try { tc.parseTime('00:01:00;01', ntsc); } catch (error) { refused = error.message; }
        done({
          ntsc: frames.map((frame) => tc.timecodeOfFrame(frame, ntsc)),
          ntsc60: [3599, 3600, 35963, 35964].map((frame) => tc.timecodeOfFrame(frame, ntsc60)),
          pal: tc.timecodeOf(61.04, 25), film: tc.timecodeOfFrame(24 * 3600, 24000 / 1001),
          parsed: [tc.parseTime('00:01:00;02', ntsc) * ntsc, tc.parseTime('1:02:03.5', 25), tc.parseTime('90', 25)],
          roundTrip, refused,
        });
      });""")
    assert labels["ntsc"] == ["00:00:00;00", "00:00:59;29", "00:01:00;02", "00:09:59;29", "00:10:00;00", "00:10:00;01",
                              "01:00:00;00"]
    assert labels["ntsc60"] == ["00:00:59;59", "00:01:00;04", "00:09:59;59", "00:10:00;00"]
    assert labels["pal"] == "00:01:01:01" and labels["film"] == "01:00:00:00"
    assert [round(value, 6) for value in labels["parsed"]] == [1800, 3723.5, 90]
    assert labels["roundTrip"] == [], labels["roundTrip"][:5]
    assert "skips" in labels["refused"]
