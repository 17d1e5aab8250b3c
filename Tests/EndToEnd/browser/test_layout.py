"""Layout and accessibility in a real browser: from a 320 px phone to a desktop, every control
keyboard-reachable with a label and a visible focus ring, light and dark colour schemes."""

from __future__ import annotations

import pytest
from selenium.webdriver.common.keys import Keys

from browser_support import press

CONTROLS = ["#play-pause", "#seek", "#time", "#record", "#fullscreen", "#filters", "#reset", "#connection",
            "#library-refresh"]


def emulate(page, width: int, height: int, mobile: bool):
    page.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                                {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile})


@pytest.mark.parametrize("width,height,mobile", [(320, 640, True), (390, 844, True), (768, 1024, True),
                                                 (1920, 1080, False)])
def test_fits_from_phone_to_desktop(file_server, open_page, width, height, mobile):
    page = open_page(file_server)
    page.choose_filter("comic")  # two sliders: the widest panel
    emulate(page, width, height, mobile)
    page.wait_for(lambda: page.js("return window.innerWidth") == width, message=f"a {width} px viewport")
    overflow = page.js("return document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 0, f"horizontal scrolling at {width} px ({overflow} px too wide)"
    # The picker's chips wrap in its box at every width: none lies beyond the edge.
    for css in CONTROLS + ["#view", "#params input[data-param]", "#filters [data-filter]"]:
        boxes = page.js("""
            return [...document.querySelectorAll(arguments[0])].map(e => {
              const r = e.getBoundingClientRect(); return [r.left, r.right, r.width, r.height];
            });""", css)
        assert boxes, css
        for left, right, box_width, box_height in boxes:
            assert box_width > 0 and box_height > 0, f"{css} is not visible at {width} px"
            assert left >= -0.5 and right <= width + 0.5, f"{css} sticks out at {width} px: {left}…{right}"
    canvas = page.js("const r = document.getElementById('view').getBoundingClientRect(); return [r.width, r.height]")
    assert abs(canvas[0] / canvas[1] - 16 / 9) < 0.02, f"aspect ratio lost at {width} px: {canvas}"
    # Touch-friendly targets on phones.
    for css in ("#play-pause", "#fullscreen", "#filters [data-filter]"):
        height_px = page.js("return document.querySelector(arguments[0]).getBoundingClientRect().height", css)
        assert height_px >= 36, f"{css} is too small to tap ({height_px} px)"


def test_every_control_is_labelled(file_server, open_page):
    page = open_page(file_server)
    page.choose_filter("comic")
    unlabelled = page.js("""
        return [...document.querySelectorAll('button, input, select, [tabindex]')]
          .filter(e => !(e.getAttribute('aria-label') || (e.labels && e.labels.length) || e.textContent.trim()))
          .map(e => e.outerHTML.slice(0, 80));
    """)
    assert unlabelled == []
    for css in ("#play-pause", "#seek", "#fullscreen", "#reset", "[data-filter='none']", "[data-param='levels']"):
        assert page.find(css).get_attribute("aria-label"), css


def test_keyboard_reaches_every_control_with_a_visible_focus(file_server, open_page):
    page = open_page(file_server)
    page.choose_filter("comic")
    page.js("document.activeElement && document.activeElement.blur(); window.scrollTo(0, 0)")
    expected = {"play-pause", "seek", "fullscreen", "reset", "filter:none", "filter:sepia", "filter:pixellate",
                "filter:comic", "param:levels", "param:edgeThreshold"}
    reached = set()
    # Every control of the page is a Tab stop: the whole catalog's chips come before the sliders.
    for _ in range(page.js("return document.querySelectorAll('button, input').length") + 5):
        press(page, Keys.TAB)
        focused = page.js("""
            const e = document.activeElement, s = getComputedStyle(e);
            const name = (e.dataset.filter && 'filter:' + e.dataset.filter) || (e.dataset.param && 'param:' + e.dataset.param) || e.id;
            return [name, s.outlineStyle, parseFloat(s.outlineWidth), e.matches(':focus-visible')];
        """)
        name, outline_style, outline_width, focus_visible = focused
        if name in expected:
            reached.add(name)
            assert focus_visible and outline_style != "none" and outline_width >= 2, \
                f"no visible focus on {name}: {focused}"
        if reached == expected:
            break
    assert reached == expected, f"not reachable with Tab: {expected - reached}"

    # Enter and space work on the focused controls (the global space shortcut leaves buttons alone).
    page.find('[data-filter="sepia"]').send_keys(Keys.ENTER)
    page.wait_state(lambda s: s["filter"]["name"] == "sepia", message="sepia chosen with Enter")
    page.find('[data-filter="pixellate"]').send_keys(Keys.SPACE)
    page.wait_state(lambda s: s["filter"]["name"] == "pixellate", message="pixellate chosen with space")
    assert page.state()["playing"], "space on a filter button must not also toggle playback"
    page.find("#play-pause").send_keys(Keys.SPACE)
    page.wait_state(lambda s: not s["playing"], message="paused with space on the button")
    assert [m["type"] for m in page.sent() if m["type"] in ("play", "pause")] == ["pause"]


def luminance(css_color: str) -> float:
    values = [float(part) for part in css_color[css_color.index("(") + 1:css_color.index(")")].split(",")[:3]]
    return (0.2126 * values[0] + 0.7152 * values[1] + 0.0722 * values[2]) / 255


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_follows_the_color_scheme(file_server, open_page, scheme):
    page = open_page(file_server)
    page.driver.execute_cdp_cmd("Emulation.setEmulatedMedia",
                                {"features": [{"name": "prefers-color-scheme", "value": scheme}]})
    page.wait_for(lambda: page.js("return matchMedia('(prefers-color-scheme: dark)').matches") == (scheme == "dark"),
                  message=f"the {scheme} scheme")
    background = luminance(page.js("return getComputedStyle(document.body).backgroundColor"))
    text = luminance(page.js("return getComputedStyle(document.body).color"))
    if scheme == "dark":
        assert background < 0.15 and text > 0.7
    else:
        assert background > 0.85 and text < 0.2


def test_on_a_phone_the_picker_wraps_by_group_and_nothing_is_clipped(file_server, open_page, artifacts):
    """At 390x844 (issue 37.8): the picture, the transport (the seek bar on a row of its own), then
    the picker as rows — "None", each category's heading over its chips, which wrap (it was one
    sideways-scrolling row mixing headings and chips) — in a box that scrolls up and down to the
    picked chip; the chosen filter's sliders right under it; the Sources panel below; the Mic
    checkbox whole; the page at most two screens tall."""
    page = open_page(file_server)
    emulate(page, 390, 844, True)
    page.wait_for(lambda: page.js("return window.innerWidth") == 390, message="a 390 px viewport")
    page.choose_filter("comic")

    def box(css):
        return page.js("const r = document.querySelector(arguments[0]).getBoundingClientRect();"
                       "return {top: r.top, bottom: r.bottom, left: r.left, right: r.right, width: r.width};", css)

    page.js("window.scrollTo(0, 0)")
    view, seek, picker, last_slider = box("#view"), box("#seek"), box("#filters"), box("#params .param:last-child input")
    assert seek["width"] >= 330, f"the seek bar is {seek['width']} px wide"
    assert view["bottom"] <= seek["top"] <= picker["top"] <= last_slider["top"], (view, seek, picker, last_slider)
    sources = box("#sources")
    assert sources["top"] >= last_slider["bottom"] and sources["left"] >= 0 and sources["right"] <= 390, sources
    assert page.visible('#sources [data-source="input"]') and page.visible("#sources-camera")

    assert page.js("const f = document.getElementById('filters'); f.scrollLeft = 200; const x = f.scrollLeft;"
                   "f.scrollLeft = 0; return x === 0"), "the picker scrolls sideways"
    groups = page.js("""
        return [...document.querySelectorAll('#filters .filter-group')].map(g => {
          const title = g.querySelector('.filter-group-title').getBoundingClientRect();
          const chips = [...g.querySelectorAll('[data-filter]')].map(c => c.getBoundingClientRect());
          return {title: [title.left, title.bottom], chips: chips.map(c => [Math.round(c.left), Math.round(c.top)])};
        });""")
    assert groups, "the picker has category groups"
    for group in groups:
        left, bottom = group["title"]
        assert all(top >= bottom - 1 for _, top in group["chips"]), f"a heading beside its chips, not over them: {group}"
        assert min(x for x, _ in group["chips"]) <= left + 1, f"the chips start under their heading: {group}"
    assert any(len({top for _, top in group["chips"]}) > 1 for group in groups), "no group's chips wrap into rows"
    # The picked filter's chip is scrolled into the picker's box.
    scroller, chip = box("#filters .filter-groups"), box("#filters [data-filter='comic']")
    assert scroller["top"] - 1 <= chip["top"] and chip["bottom"] <= scroller["bottom"] + 1, (chip, scroller)

    mic = page.js("""
        const label = document.querySelector('.camera-mic'), r = label.getBoundingClientRect();
        const bar = label.closest('.transport').getBoundingClientRect();
        return {left: r.left, right: r.right, inside: r.left >= bar.left - 0.5 && r.right <= bar.right + 0.5,
                whole: label.scrollWidth <= label.clientWidth + 0.5};""")
    assert mic["inside"] and mic["whole"] and mic["right"] <= 390, f"the Mic checkbox is clipped: {mic}"
    height = page.js("return document.documentElement.scrollHeight")
    assert height <= 2 * 844, f"the page is {height} px tall"
    page.screenshot(artifacts / "phone-390x844.png")
