"""Filters in a real browser: the picker and sliders come from `hello`, clicking a filter changes
the canvas pixels the expected way, sliders send throttled `setParams` and the picture follows,
reset restores the defaults, and a second window sees the first one's changes.

The pixel checks run paused, so that the same source frame is compared with and without a filter.
"""

from __future__ import annotations

import os
import shutil

import numpy as np
import pytest
from selenium.webdriver.common.keys import Keys

import browser_pixels as px
from browser_support import GREY_BAND_ROWS, REPO, assert_throttled, drag, release


def paused_baseline(page) -> np.ndarray:
    """Pauses, waits for the paused frame to settle, and returns the unfiltered pixels."""
    page.pause()
    page.wait_still()
    assert page.state()["filter"]["name"] == "none"
    return page.canvas_rgb()


def save_screenshot(page, artifacts, name: str):
    """Plays again (no pause mark over the picture), then saves a screenshot of the page."""
    page.find("#play-pause").click()
    page.wait_state(lambda s: s["playing"], message="playing")
    page.wait_frames(31)  # a second of frames: the status line shows the full rate
    path = artifacts / f"filter-{name}.png"
    page.screenshot(path)
    if name == "sepia" and os.environ.get("FILTERCAST_UPDATE_DOCS_SCREENSHOT") == "1":
        shutil.copyfile(path, REPO / "docs" / "screenshot-sepia.png")
    return path


def test_picker_and_sliders_come_from_hello(file_server, open_page):
    page = open_page(file_server)
    catalog = page.js("return window.filtercast.filters")
    # The picker read in one script: #filters is rebuilt by a `catalog` message, which would leave
    # elements found in an earlier WebDriver call stale.
    buttons = page.js("""return [...document.querySelectorAll('#filters [data-filter]')]
                         .map(b => ({name: b.dataset.filter, text: b.innerText, pressed: b.getAttribute('aria-pressed')}))""")
    assert [b["name"] for b in buttons] == [f["name"] for f in catalog]
    assert buttons[0]["name"] == "none" and buttons[0]["text"] == "None"
    assert [b["text"] for b in buttons] == [f["label"] for f in catalog]
    assert buttons[0]["pressed"] == "true"
    assert page.find_all("[data-param]") == []  # "none" has no parameters
    assert page.find("#reset").get_attribute("disabled") is not None

    # Every filter clicked in turn inside the page, what it then shows read there: one WebDriver
    # call for the whole catalog (a few round trips per filter made this the slowest test of its phase).
    page.driver.set_script_timeout(60)
    shown_all = page.driver.execute_async_script("""
        const [names, done] = [arguments[0], arguments[arguments.length - 1]];
        const f = window.filtercast, shown = [];
        const read = () => ({
            sliders: [...document.querySelectorAll('#params input[data-param]')].map(s => ({
                name: s.dataset.param, type: s.type, min: +s.min, max: +s.max, step: +s.step, value: +s.value,
                ariaLabel: s.getAttribute('aria-label'), label: s.labels[0].textContent})),
            pressed: [...document.querySelectorAll('#filters [aria-pressed="true"]')].map(b => b.dataset.filter),
            resetEnabled: !document.getElementById('reset').disabled,
        });
        (function next(index) {
            if (index === names.length) return done(shown);
            const name = names[index], started = performance.now();
            document.querySelector(`#filters [data-filter="${name}"]`).click();
            (function check() {
                if (f.state && f.state.filter.name === name) { shown.push(read()); next(index + 1); }
                else if (performance.now() - started > 10000) done({timedOut: name});
                else setTimeout(check, 5);
            })();
        })(0);""", [d["name"] for d in catalog[1:]])
    assert isinstance(shown_all, list), f"the server's state did not follow a click: {shown_all}"
    for descriptor, shown in zip(catalog[1:], shown_all, strict=True):
        assert [s["name"] for s in shown["sliders"]] == [p["name"] for p in descriptor["params"]]
        for slider, param in zip(shown["sliders"], descriptor["params"]):
            assert slider["type"] == "range"
            assert (slider["min"], slider["max"], slider["step"]) == (param["sliderMin"], param["sliderMax"], param["step"])
            assert slider["value"] == pytest.approx(param["default"])
            assert slider["ariaLabel"] == slider["label"] == param["label"]
        assert shown["pressed"] == [descriptor["name"]], descriptor["name"]
        # Reset is there for filters with parameters (invert, mono … have none).
        assert shown["resetEnabled"] == bool(descriptor["params"]), descriptor["name"]


def test_sepia_gives_warm_tones(file_server, open_page, artifacts):
    page = open_page(file_server)
    before = paused_baseline(page)
    top, bottom = GREY_BAND_ROWS
    grey = before[top:bottom].reshape(-1, 3)
    assert np.abs(grey[:, 0] - grey[:, 1]).mean() < 4 and np.abs(grey[:, 1] - grey[:, 2]).mean() < 4, \
        "the grey band of the test clip should be grey without a filter"
    assert px.warm_order_fraction(before) < 0.6

    page.choose_filter("sepia")
    after = page.wait_pixels(lambda rgb: (px.warm_order_fraction(rgb) > 0.97,
                                          f"R≥G≥B share {px.warm_order_fraction(rgb):.3f}"),
                             message="a sepia picture")
    r, g, b = px.mean_channels(after[top:bottom])
    assert r > g + 8 and g > b + 15, f"grey areas should turn warm (R > G > B), got R={r:.1f} G={g:.1f} B={b:.1f}"
    # Full-intensity sepia follows the luma: the grey band's brightness order is kept.
    thirds = [px.luma(after[top:bottom, x:x + 150]).mean() for x in (30, 245, 460)]
    assert thirds[0] < thirds[1] < thirds[2]
    save_screenshot(page, artifacts, "sepia")


def test_pixellate_gives_uniform_blocks(file_server, open_page, artifacts):
    page = open_page(file_server)
    before = paused_baseline(page)
    assert px.block_contrast(before, 8) < 2.5

    page.choose_filter("pixellate")
    scale = page.state()["filter"]["params"]["scale"]
    assert scale == 8  # the catalog's default, in 1080p pixels
    # Scale is in 1080p pixels: blocks of 3 on the 360-line clip, too small to survive JPEG
    # well enough for the checks below, which use scale 24: blocks of 8.
    assert px.block_size(scale, before.shape[0]) == 3
    page.wait_pixels(lambda rgb: (px.estimated_block_size(rgb) == 3,
                                  f"estimated block size {px.estimated_block_size(rgb)}"),
                     message="blocks of 3 px at the default scale")
    page.raw_send('{"type": "setParams", "params": {"scale": 24}}')
    block = px.block_size(24, before.shape[0])
    after = page.wait_pixels(lambda rgb: (px.block_contrast(rgb, block) > 8,
                                          f"block contrast {px.block_contrast(rgb, block):.2f}"),
                             message="a pixellated picture")
    assert px.estimated_block_size(after) == block
    # Inside each block the picture is flat (up to JPEG noise).
    y = px.luma(after)
    blocks = y[: y.shape[0] // block * block, : y.shape[1] // block * block]
    blocks = blocks.reshape(blocks.shape[0] // block, block, blocks.shape[1] // block, block)
    spread = blocks.max(axis=(1, 3)) - blocks.min(axis=(1, 3))
    assert np.median(spread) <= 6, f"blocks should be uniform, median spread {np.median(spread)}"
    save_screenshot(page, artifacts, "pixellate")


# Measured share of the texture flattened: hexagonalPixellate 0.57, crystallize 0.65, pointillize
# 0.35 (its dots' edges against the white count as texture); unfiltered, 0 by definition.
@pytest.mark.parametrize("name, length, value, flattened", [
    ("hexagonalPixellate", "scale", 30, 0.5), ("crystallize", "radius", 20, 0.55), ("pointillize", "radius", 20, 0.3)])
def test_cell_filters_paint_flat_cells(file_server, open_page, artifacts, name, length, value, flattened):
    """Cells (10 px and more on the 360-line clip) are flat; pointillize's dots lie on white."""
    page = open_page(file_server)
    before = paused_baseline(page)
    page.choose_filter(name)
    page.raw_send(f'{{"type": "setParams", "params": {{"{length}": {value}}}}}')
    page.wait_state(lambda s: s["filter"]["params"][length] == value, message=f"{length} {value}")
    white_before = px.white_fraction(before)

    def cells(rgb):
        share, white = px.flattened_fraction(before, rgb), px.white_fraction(rgb)
        ok = share > flattened and (name != "pointillize" or white > white_before + 0.1)
        return ok, f"texture flattened {share:.3f}, white {white:.3f} (before {white_before:.3f})"

    page.wait_pixels(cells, message=f"a {name} picture")
    save_screenshot(page, artifacts, name)


def test_comic_inks_edges_and_posterizes(file_server, open_page, artifacts):
    page = open_page(file_server)
    before = paused_baseline(page)
    page.choose_filter("comic")
    levels = int(page.state()["filter"]["params"]["levels"])

    def comic(rgb):
        black, tones = px.near_black_fraction(rgb), px.posterized_fraction(rgb, levels)
        ok = black > max(0.02, 3 * px.near_black_fraction(before)) and tones > max(0.6, 2 * px.posterized_fraction(before, levels))
        return ok, f"near-black {black:.3f}, on {levels} tones {tones:.3f}"

    after = page.wait_pixels(comic, message="a comic picture")
    assert px.dominant_tones(after, 4, 0.01) < px.dominant_tones(before, 4, 0.01)
    save_screenshot(page, artifacts, "comic")


def test_slider_sends_throttled_params_and_the_picture_follows(file_server, open_page):
    page = open_page(file_server)
    height = paused_baseline(page).shape[0]
    page.choose_filter("pixellate")
    first = px.block_size(8, height)
    page.wait_pixels(lambda rgb: px.estimated_block_size(rgb) == first, message=f"pixellate at 8: blocks of {first}")
    slider = page.find('input[data-param="scale"]')
    page.watch_control('input[data-param="scale"]')

    drag(page, slider, 0.15, 0.35, steps=24)
    during = page.sent("setParams")
    assert len(during) >= 3, f"setParams should be sent while dragging, got {during}"
    release(page)
    # The newest value always goes out last: wait for the slider's last value to be sent.
    sent = page.wait_sent_last("setParams", lambda message: message["params"]["scale"])
    assert_throttled(sent, "setParams")
    value = sent[-1]["params"]["scale"]
    block = px.block_size(value, height)
    assert 10 <= value <= 45 and block != first, value
    assert int(slider.get_attribute("value")) == value

    state = page.wait_state(lambda s: s["filter"]["params"]["scale"] == value, message=f"scale {value}")
    assert state["filter"]["name"] == "pixellate"
    assert page.text('output[for="param-pixellate-scale"]') == str(value)
    page.wait_pixels(lambda rgb: (px.estimated_block_size(rgb) == block,
                                  f"estimated block size {px.estimated_block_size(rgb)}"),
                     message=f"blocks of {block} px (scale {value})")


def test_reset_restores_defaults(file_server, open_page):
    page = open_page(file_server)
    page.choose_filter("comic")
    levels = page.find('input[data-param="levels"]')
    levels.send_keys(Keys.ARROW_RIGHT, Keys.ARROW_RIGHT, Keys.ARROW_RIGHT)
    page.wait_state(lambda s: s["filter"]["params"]["levels"] == 8, message="levels 8")
    threshold = page.find('input[data-param="edgeThreshold"]')
    threshold.send_keys(Keys.ARROW_LEFT)
    page.wait_state(lambda s: s["filter"]["params"]["edgeThreshold"] == pytest.approx(0.19), message="threshold 0.19")

    page.find("#reset").click()
    state = page.wait_state(lambda s: s["filter"]["params"] == {"levels": 5, "edgeThreshold": 0.2},
                            message="the defaults")
    assert state["filter"]["name"] == "comic"
    page.wait_for(lambda: levels.get_attribute("value") == "5" and threshold.get_attribute("value") == "0.2",
                  message="the sliders at their defaults")


def test_second_window_sees_the_first_ones_changes(file_server, open_page):
    first = open_page(file_server)
    second = open_page(file_server, second=True)
    for page in (first, second):
        page.wait_for(lambda p=page: p.text("#stat-viewers") == "2", message="2 viewers")

    ink_before = px.near_black_fraction(second.canvas_rgb())
    first.find('[data-filter="comic"]').click()
    second.wait_for(lambda: second.find('[data-filter="comic"]').get_attribute("aria-pressed") == "true",
                    message="comic selected in the second window")
    assert second.find('[data-filter="none"]').get_attribute("aria-pressed") == "false"
    assert [s.get_attribute("data-param") for s in second.find_all("#params input[data-param]")] == \
        ["levels", "edgeThreshold"]
    second.wait_pixels(lambda rgb: px.near_black_fraction(rgb) > max(0.02, 3 * ink_before),
                       message="comic ink in the second window")

    first.find('input[data-param="levels"]').send_keys(Keys.ARROW_RIGHT)
    second.wait_for(lambda: second.find('input[data-param="levels"]').get_attribute("value") == "6",
                    message="the second window's slider following the first")
    assert second.text('output[for="param-comic-levels"]') == "6"

    second.pause()
    first.wait_for(lambda: first.find("#play-pause").get_attribute("aria-label") == "Play",
                   message="the first window showing the pause")
