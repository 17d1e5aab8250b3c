"""The Sources panel in a real browser: the media folder browsed into a subfolder, a clip opened
from it (the picture is the clip's, the item marked, the filter kept), back to the input, and a
watch-only viewer who sees the list, and the marks move, but cannot switch."""

from __future__ import annotations

import numpy as np
import pytest
from selenium.webdriver.common.keys import Keys

from browser_support import PageServer
from fc_server import make_clip

TOKEN = "sources-Tok3n"
CLIP = "media/clips/blue clip.mp4"


@pytest.fixture(scope="module")
def sources_server(fc_binary, tmp_path_factory):
    """The live test pattern, with --media-dir holding clips/ (a blue clip) and a note that is
    not a video; --token with --public-view, so that a page without the token may only watch."""
    base = tmp_path_factory.mktemp("sources")
    clips = base / "media" / "clips"
    clips.mkdir(parents=True)
    make_clip(clips / "blue clip.mp4", "color=c=0x1e3cc8:size=640x360:rate=30", 8,
              "-vf", "drawbox=x='mod(t*160,560)':y=140:w=80:h=80:color=white:t=fill", "-g", "15")
    (base / "media" / "notes.txt").write_text("not a video\n")
    server = PageServer(fc_binary, ["--input", "test:640x360@30", "--media-dir", str(base / "media"),
                                    "--recordings", str(base / "recordings"), "--token", TOKEN, "--public-view"],
                        base / "server.log")
    yield server.start()
    server.stop()


def blueness(rgb: np.ndarray) -> float:
    return float(rgb[..., 2].mean() - rgb[..., 0].mean())


def marked(page) -> list[str]:
    return page.js("return [...document.querySelectorAll('#sources [aria-current=\"true\"]')].map(e => e.dataset.source)")


def test_browse_open_a_clip_and_go_back_to_the_input(sources_server, open_page, artifacts):
    page = open_page(sources_server, path=f"?token={TOKEN}")
    page.choose_filter("invert")
    page.wait_for(lambda: page.find_all('#media-entries [data-folder="clips"]'), message="the media folder listed")
    assert page.text("#media-entries").count("notes.txt") == 0, "not a video: not listed"
    assert marked(page) == ["input"]
    assert not page.visible("#media-up")

    # From the keyboard: Enter opens the folder in place, and the focus goes to its first item.
    page.find('#media-entries [data-folder="clips"] button').send_keys(Keys.ENTER)
    item = f'#media-entries [data-source="{CLIP}"]'
    page.wait_for(lambda: page.find_all(item), message="the clips folder")
    focus = page.wait_for(lambda: page.js("""
        const e = document.activeElement, s = getComputedStyle(e), item = e.closest('[data-source]');
        return item && [item.dataset.source, e.matches(':focus-visible'), s.outlineStyle, parseFloat(s.outlineWidth)];"""),
        message="the focus on the clip")
    assert focus[0] == CLIP and focus[1] and focus[2] != "none" and focus[3] >= 2, focus
    crumbs = page.js("return [...document.querySelectorAll('#media-path li')].map(li => li.textContent)")
    assert crumbs == ["Media", "clips"] and page.visible("#media-up"), crumbs
    assert page.text('#media-path [aria-current="location"]') == "clips"  # one read: the path is redrawn with each listing
    assert "00:08" in page.text(item), page.text(item)

    page.find(item + " button").send_keys(Keys.ENTER)
    state = page.wait_state(lambda s: s["source"].get("reference") == CLIP, message="the clip playing")
    assert state["source"]["kind"] == "file" and state["source"]["seekable"] and not state["source"]["startInput"]
    assert [link["name"] for link in state["chain"]] == ["invert"], "the filter chain stays"
    # Inverted blue is yellow: the picture is the clip's, and frames keep coming.
    page.wait_pixels(lambda rgb: (blueness(rgb) < -100, f"B-R {blueness(rgb):.0f}"), message="the clip, inverted")
    page.wait_frames(10)
    page.wait_for(lambda: marked(page) == [CLIP], message="the clip marked")
    assert page.text("#source-name") == "blue clip.mp4", "the header names the file, not its path"
    page.screenshot(artifacts / "sources-clip.png")

    page.find("#media-up").click()
    page.wait_for(lambda: page.find_all('#media-entries [data-folder="clips"]'), message="the root again")
    page.find('#sources-main [data-source="input"] button').click()
    page.wait_state(lambda s: s["source"]["reference"] == "input" and s["source"]["startInput"], message="the input")
    page.wait_pixels(lambda rgb: (blueness(rgb) > -60, f"B-R {blueness(rgb):.0f}"), message="the test pattern")
    page.wait_frames(10)
    page.wait_for(lambda: marked(page) == ["input"], message="the input marked")
    assert page.js("return document.activeElement === document.body"), "a pointer click leaves no focus behind"


def test_a_watch_only_viewer_sees_the_sources_but_cannot_switch(sources_server, open_page):
    controller = open_page(sources_server, path=f"?token={TOKEN}")
    viewer = open_page(sources_server, second=True)  # no token: hello.access is "watch"
    viewer.wait_for(lambda: viewer.find_all('#media-entries [data-folder="clips"]'), message="the media folder listed")
    # Browsing is allowed; switching is not, and the title says why.
    viewer.find('#media-entries [data-folder="clips"] button').click()
    viewer.wait_for(lambda: viewer.find_all(f'#media-entries [data-source="{CLIP}"]'), message="the clips folder")
    for css in (f'#media-entries [data-source="{CLIP}"] button', '#sources-main [data-source="input"] button',
                "#sources-camera"):
        button = viewer.find(css)
        assert not button.is_enabled() and "watching only" in button.get_attribute("title"), css
    viewer.js("document.querySelector(arguments[0]).click()", f'#media-entries [data-source="{CLIP}"] button')
    assert viewer.sent("open") == [] and viewer.state()["source"]["reference"] == "input"

    # Another viewer switches: the marks follow the state.
    controller.raw_send(f'{{"type":"open","source":"{CLIP}"}}')
    viewer.wait_for(lambda: marked(viewer) == [CLIP], message="the clip marked for the watcher")
    controller.raw_send('{"type":"open","source":"input"}')
    viewer.wait_for(lambda: marked(viewer) == ["input"], message="the input marked again")
