"""Looking at a paused picture (issue 23, friction): the play mark fades, the source list says
"· paused", the time label shows the frame to the millisecond, and `,`/`.` step one frame back and
on; a live source's LIVE badge is beside the time, not over the picture."""

from __future__ import annotations

import re

from browser_support import press

FRAME = 1 / 30  # the browser tests' clip


def after_content(page, css: str) -> str:
    return page.js("return getComputedStyle(document.querySelector(arguments[0]), '::after').content", css)


def test_a_paused_picture_can_be_reviewed_frame_by_frame(file_server, open_page):
    page = open_page(file_server)
    current = '.source[aria-current="true"] .source-title'
    page.wait_for(lambda: page.js("return !!document.querySelector(arguments[0])", current), message="the input marked")
    assert after_content(page, current) == '" · playing"'
    page.pause()
    page.js("document.activeElement && document.activeElement.blur()")
    assert after_content(page, current) == '" · paused"'
    page.wait_for(lambda: page.js("return getComputedStyle(document.getElementById('paused-mark')).opacity") == "0",
                  timeout=3, message="the play mark faded")
    position = page.state()["position"]
    label = page.text("#time")
    assert re.fullmatch(r"\d\d:\d\d\.\d{3} / 00:12", label), label
    assert label.startswith(f"00:{int(position):02d}.{round(position * 1000) % 1000:03d}"), (label, position)

    press(page, ".")
    page.wait_state(lambda s: abs(s["position"] - (position + FRAME)) < 0.002, timeout=5, message="one frame on")
    press(page, ".", ".")
    page.wait_state(lambda s: abs(s["position"] - (position + 3 * FRAME)) < 0.002, timeout=5, message="two more on")
    press(page, ",")
    stepped = page.wait_state(lambda s: abs(s["position"] - (position + 2 * FRAME)) < 0.002, timeout=5, message="one back")
    assert not stepped["playing"]
    page.wait_for(lambda: page.text("#time").startswith(f"00:{int(stepped['position']):02d}."
                                                        f"{round(stepped['position'] * 1000) % 1000:03d}"),
                  message="the label at the frame shown")


def test_the_live_badge_is_beside_the_time_not_over_the_picture(live_server, open_page):
    page = open_page(live_server)
    page.wait_for(lambda: page.visible("#live-badge"), message="the LIVE badge")
    overlap = page.js("""
      const a = document.getElementById('live-badge').getBoundingClientRect();
      const b = document.getElementById('view').getBoundingClientRect();
      return a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;""")
    assert overlap is False


def test_a_step_after_a_seek_goes_on_from_the_seek(file_server, open_page):
    """A `.` still unconfirmed when another seek is made (here ←) is forgotten: the next `.` steps
    from where that seek landed, not from the frame the first step aimed at."""
    from selenium.webdriver.common.keys import Keys

    page = open_page(file_server)
    page.pause()
    page.js("document.activeElement && document.activeElement.blur()")
    page.raw_send('{"type": "seek", "position": 8}')
    start = page.wait_state(lambda s: 8 <= s["position"] < 8 + FRAME, message="at 8 s")["position"]
    press(page, ".", Keys.ARROW_LEFT)
    landed = page.wait_state(lambda s: abs(s["position"] - (start + FRAME - 5)) < FRAME, timeout=5,
                             message="5 s back from the step")["position"]
    press(page, ".")
    page.wait_state(lambda s: abs(s["position"] - (landed + FRAME)) < 0.002, timeout=5,
                    message=f"one frame on from {landed:.3f}")


def test_the_keys_still_step_and_play_after_a_slider_or_a_drop_down_was_used(file_server, open_page):
    """`.` steps a frame with a parameter slider focused, and a drop-down chosen from with the
    pointer gives the focus back: space plays again."""
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.support.select import Select

    page = open_page(file_server)
    page.pause()
    page.choose_filter("pixellate")
    slider = page.find('input[data-param="scale"]')
    ActionChains(page.driver, duration=0).click(slider).perform()
    assert page.js("return document.activeElement.dataset.param") == "scale"
    position = page.wait_state(lambda s: s["filter"]["name"] == "pixellate" and not s["playing"],
                               message="pixellate, paused")["position"]
    press(page, ".")
    page.wait_state(lambda s: abs(s["position"] - (position + FRAME)) < 0.002, timeout=5,
                    message="one frame on from the slider")

    page.find("#compare").click()
    page.wait_for(lambda: page.visible("#compare-mode"), message="the compare mode drop-down")
    # As a user: the pointer opens it, then an option is chosen.
    ActionChains(page.driver, duration=0).click(page.find("#compare-mode")).perform()
    Select(page.find("#compare-mode")).select_by_value("side-by-side")
    page.wait_for(lambda: page.stats()["compare"]["mode"] == "side-by-side", message="side by side")
    assert page.js("return document.activeElement.id") != "compare-mode"
    press(page, " ")
    page.wait_state(lambda s: s["playing"], timeout=5, message="space plays")
