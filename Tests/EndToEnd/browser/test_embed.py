"""The embed page (issue 37.16): `/embed?channel=NAME` is the channel's picture alone, filling its
frame — no controls — for an OBS browser source; the sound starts muted with a tap-to-unmute
button, and one tap turns it on — or plays at once where the browser allows sound without a
gesture, as OBS's does. It uses the viewer page's own player modules."""

from __future__ import annotations

import time

import pytest
from selenium.webdriver.common.by import By

from browser_support import BrowserPool, Page, reset_browser
from fc_server import make_tone_clip
from test_downloads import embedding_page  # noqa: F401 (fixture)


@pytest.fixture(scope="module")
def tone_clip(tmp_path_factory):
    return make_tone_clip(tmp_path_factory.mktemp("embed") / "tone-320x240.mp4", "320x240", 25, 8, 48000)


def shown_controls(page) -> list[str]:
    return page.js("""
        return [...document.querySelectorAll('button, input, select, a')].filter(e => {
          const r = e.getBoundingClientRect(), s = getComputedStyle(e);
          return r.width > 0 && r.height > 0 && s.display !== 'none' && s.visibility !== 'hidden';
        }).map(e => e.id || e.outerHTML.slice(0, 60));""")


def test_the_embed_page_is_the_channels_picture_alone_filling_its_frame(launch, open_page, tone_clip, artifacts):
    server = launch("--input", str(tone_clip), "--channel", "small=test:160x120@15")
    page = open_page(server, path="embed?channel=small", transport=None)
    assert page.js("return window.filtercast.channel") == "small"
    page.wait_for(lambda: page.stats()["width"] == 160 and page.stats()["fps"] > 5, message="the small channel's pictures")
    for width, height in ((1280, 720), (800, 600)):
        page.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                                    {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False})
        page.wait_for(lambda: page.js("return [innerWidth, innerHeight]") == [width, height], message="the frame's size")
        box = page.js("const r = document.getElementById('view').getBoundingClientRect(); return [r.left, r.top, r.width, r.height]")
        assert box == [0, 0, width, height], f"the picture does not fill its {width}x{height} frame: {box}"
        assert page.js("return document.documentElement.scrollHeight <= innerHeight && document.documentElement.scrollWidth <= innerWidth")
    assert shown_controls(page) == [], "no controls over a channel without sound"
    assert not page.visible("#placeholder")
    page.screenshot(artifacts / "embed-small.png")

    # The main channel has sound: muted at first, with the one button that turns it on.
    sound = open_page(server, second=True, path="embed", transport=None)
    assert sound.js("return window.filtercast.channel") == "main"
    sound.wait_for(lambda: shown_controls(sound) == ["mute"], message="the tap-to-unmute button alone")
    assert "Unmute" in sound.text("#mute") and sound.stats()["audio"]["playing"] is False
    sound.find("#mute").click()
    sound.wait_for(lambda: sound.stats()["audio"]["playing"] is True, message="the sound playing after the tap")
    sound.wait_for(lambda: shown_controls(sound) == [], message="the button gone once the sound is on")


@pytest.fixture(scope="module")
def autoplay_browser():
    """Chromium that plays sound without a gesture, as OBS's browser source does."""
    pool = BrowserPool("--autoplay-policy=no-user-gesture-required")
    yield pool.get(0)
    pool.close()


def test_where_the_browser_allows_it_the_sound_plays_at_once(launch, tone_clip, autoplay_browser):
    server = launch("--input", str(tone_clip))
    reset_browser(autoplay_browser)
    page = Page(autoplay_browser, server)
    autoplay_browser.get(server.url + "embed")
    page.wait_for(lambda: (s := page.stats()) and s["framesDrawn"] > 0, 15, "the embed page to draw")
    page.wait_for(lambda: page.stats()["audio"]["playing"] is True, message="the sound playing without a tap")
    assert shown_controls(page) == [], "no Unmute button when the sound is on"
    assert page.errors() == []


def test_a_page_of_another_site_frames_the_embed_page_and_it_plays(launch, browsers, embedding_page):
    """Issue 37.16's <iframe>: the page of another origin frames /embed, and the picture plays in
    it (lws' security option denied every frame: Chromium showed an error page in the frame)."""
    server = launch("--input", "test:160x120@15")
    driver = browsers.get(0)
    try:
        driver.get(embedding_page)
        driver.execute_script("""
            const frame = document.createElement('iframe');
            frame.src = arguments[0]; frame.width = 320; frame.height = 240;
            document.body.append(frame);""", server.url + "embed")
        driver.switch_to.frame(driver.find_element(By.TAG_NAME, "iframe"))
        deadline = time.monotonic() + 15
        while (fps := driver.execute_script("return window.filtercast?.stats?.fps ?? null")) in (None, 0):
            assert time.monotonic() < deadline, "no picture plays in the frame: " + driver.execute_script(
                "return document.body ? document.body.innerText.slice(0, 200) : document.documentElement.outerHTML.slice(0, 200)")
            time.sleep(0.1)
        assert driver.execute_script("return window.filtercast.channel") == "main"
    finally:
        driver.switch_to.default_content()
        reset_browser(driver)
