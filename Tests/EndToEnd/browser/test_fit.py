"""The picture fits the window (issue 37.7): at 1280x800 a 4:3 source leaves the transport in sight
without scrolling — for a controller, an admin with the channels and the Add-channel form above
the picture, and a watcher with the token banner —, the seek bar spans the picture's width, and on
a 2560 px screen the picture grows past the old 1000 px cap while the transport stays in sight."""

from __future__ import annotations

import pytest

from fc_server import make_clip

TOKEN = "fit-T0ken"
ADMIN = "fit-Adm1n"


@pytest.fixture(scope="module")
def clip_4_3(tmp_path_factory):
    path = tmp_path_factory.mktemp("fit") / "testsrc2-640x480.mp4"
    return make_clip(path, "testsrc2=size=640x480:rate=25", 6, "-g", "25")


def emulate(page, width: int, height: int):
    page.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                                {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False})
    page.wait_for(lambda: page.js("return [innerWidth, innerHeight]") == [width, height],
                  message=f"a {width}x{height} window")


def boxes(page) -> dict:
    return page.js("""
        window.scrollTo(0, 0);
        const box = (css) => { const r = document.querySelector(css).getBoundingClientRect();
                               return {left: r.left, right: r.right, top: r.top, bottom: r.bottom, width: r.width, height: r.height}; };
        return {view: box('#view'), seek: box('#seek'), play: box('#play-pause'), fullscreen: box('#fullscreen'),
                width: innerWidth, height: innerHeight, scrollWidth: document.documentElement.scrollWidth};
    """)


def fits(page, aspect: float):
    """The picture (of `aspect`) and the transport are in the window, unscrolled; the seek bar
    spans the picture. Returns the boxes, or False (with what did not fit in `fits.why`)."""
    b = boxes(page)
    view, seek, play, full = b["view"], b["seek"], b["play"], b["fullscreen"]
    problems = []
    if abs(view["width"] / view["height"] - aspect) > 0.02:
        problems.append(f"the picture is {view['width']}x{view['height']}, not {aspect:.3f}:1 (letterboxed?)")
    for name, box in (("#play-pause", play), ("#seek", seek), ("#fullscreen", full), ("#view", view)):
        if box["bottom"] > b["height"] or box["right"] > b["width"] or box["top"] < 0:
            problems.append(f"{name} is outside the {b['width']}x{b['height']} window: {box}")
    if seek["left"] > view["left"] + 4 or seek["right"] < view["right"] - 4:
        problems.append(f"the seek bar ({seek['left']:.0f}…{seek['right']:.0f}) does not span the picture "
                        f"({view['left']:.0f}…{view['right']:.0f})")
    if b["scrollWidth"] > b["width"]:
        problems.append("the page scrolls sideways")
    fits.why = problems
    return not problems and b


@pytest.mark.parametrize("who", ["controller", "admin", "watcher"])
def test_a_4_3_picture_leaves_the_transport_in_sight_at_1280x800(launch, open_page, clip_4_3, artifacts, who):
    if who == "controller":
        page = open_page(launch("--input", str(clip_4_3)))
    elif who == "admin":
        server = launch("--input", str(clip_4_3), "--channel", "small=test:160x120@15", "--admin-token", ADMIN)
        page = open_page(server, path=f"?token={ADMIN}")
        page.wait_for(lambda: page.visible("#channel-add") and page.visible("#channel-list .channel"),
                      message="the channels and the Add-channel form above the picture")
    else:
        page = open_page(launch("--input", str(clip_4_3), "--token", TOKEN, "--public-view"))
        page.wait_for(lambda: page.visible("#token-form"), message="the token banner")
    emulate(page, 1280, 800)
    # Fitting must not mean small: the picture takes most of the height the window leaves.
    try:
        page.wait_for(lambda: (b := fits(page, 4 / 3)) and b["view"]["height"] >= 360,
                      message="the picture and the transport in the window")
    except AssertionError:
        page.screenshot(artifacts / f"fit-4-3-{who}-1280x800.png")
        raise AssertionError(f"{who}: " + ("; ".join(fits.why) or f"a small picture: {boxes(page)['view']}")) from None
    page.screenshot(artifacts / f"fit-4-3-{who}-1280x800.png")


def test_on_a_2560_px_screen_the_picture_grows_and_the_transport_stays_in_sight(file_server, open_page, artifacts):
    page = open_page(file_server)
    emulate(page, 2560, 1440)
    try:
        found = page.wait_for(lambda: (b := fits(page, 16 / 9)) and b["view"]["width"] > 1400 and b,
                              message="a large picture with the transport in the window")
    except AssertionError:
        page.screenshot(artifacts / "fit-2560x1440.png")
        raise AssertionError("; ".join(fits.why) or f"the picture stayed small: {boxes(page)['view']}") from None
    page.screenshot(artifacts / "fit-2560x1440.png")
    # Back to a small window: the picture shrinks again.
    emulate(page, 1280, 800)
    page.wait_for(lambda: fits(page, 16 / 9), message="the picture fits again at 1280x800")
