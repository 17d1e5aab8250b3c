"""J/K/L shuttle and the I/O loop in the page (issue 39): L plays forward (again 2×, 4×), J
backward (again −2×), K pauses, K held with L steps one frame; #speed shows the rate; I and O set
the loop's in and out at the picture shown, the seek bar shows the range and #loop turns it off
and on again."""

from __future__ import annotations

from selenium.webdriver.common.action_chains import ActionChains

from browser_support import press

FRAME = 1 / 30  # the browser tests' clip


def test_j_k_l_shuttle_and_i_o_set_the_loop(file_server, open_page):
    page = open_page(file_server)
    page.js("document.activeElement && document.activeElement.blur()")
    assert page.text("#speed") == "1×"
    for key, rate in [("l", 2), ("l", 4), ("j", -1), ("j", -2)]:
        press(page, key)
        page.wait_state(lambda s, rate=rate: s["speed"] == rate and s["playing"], timeout=5, message=f"{key}: {rate}×")
        page.wait_for(lambda rate=rate: page.text("#speed") == f"{'−' if rate < 0 else ''}{abs(rate)}×", timeout=3,
                      message=f"#speed at {rate}×")
    press(page, "k")
    paused = page.wait_state(lambda s: not s["playing"], timeout=5, message="K pauses")
    press(page, "l")
    page.wait_state(lambda s: s["playing"] and s["speed"] == 1, timeout=5, message="L after a pause: 1× forward")
    press(page, "k")
    paused = page.wait_state(lambda s: not s["playing"], timeout=5, message="K pauses")
    page.wait_still()
    position = page.state()["position"]
    ActionChains(page.driver, duration=0).key_down("k").send_keys("l").key_up("k").perform()
    stepped = page.wait_state(lambda s: abs(s["position"] - (position + FRAME)) < 0.002, timeout=5, message="K+L: one frame on")
    assert not stepped["playing"] and paused["speed"] == 1

    press(page, "i")
    start = stepped["position"]
    page.wait_state(lambda s: s["loop"] and abs(s["loop"]["in"] - start) < 0.002, timeout=5, message="I: in at the picture")
    press(page, ".", ".", ".")
    page.wait_state(lambda s: abs(s["position"] - (start + 3 * FRAME)) < 0.002, timeout=5, message="three frames on")
    page.wait_still()
    press(page, "o")
    looped = page.wait_state(lambda s: s["loop"] and abs(s["loop"]["out"] - (start + 3 * FRAME)) < 0.002, timeout=5,
                             message="O: out at the picture")
    assert abs(looped["loop"]["in"] - start) < 0.002, looped["loop"]
    assert page.js("return document.getElementById('seek').classList.contains('looping')")
    assert page.js("return document.getElementById('loop').getAttribute('aria-pressed')") == "true"
    page.find("#loop").click()
    page.wait_state(lambda s: s["loop"] is None, timeout=5, message="#loop turns it off")
    assert not page.js("return document.getElementById('seek').classList.contains('looping')")
    page.find("#loop").click()
    page.wait_state(lambda s: s["loop"] == looped["loop"], timeout=5, message="#loop turns the same loop on again")
