"""Filter chains in a real browser: the picker sets the picked link, "+" appends a link, each link
is a chip with its own remove button and its own sliders (setParams with its index), and the
server's state and the picture follow. Pixel checks run paused, on the same source frame.
"""

from __future__ import annotations

import numpy as np
from selenium.webdriver.common.keys import Keys

import browser_pixels as px


def names(state) -> list[str]:
    return [link["name"] for link in state["chain"]]


def wait_chain(page, expected: list[str]) -> dict:
    return page.wait_state(lambda s: names(s) == expected, message=f"the chain {expected}")


def correlation(a: np.ndarray, b: np.ndarray) -> float:
    return float(np.corrcoef(px.luma(a).ravel(), px.luma(b).ravel())[0, 1])


def test_build_a_chain_edit_each_link_and_remove_links(file_server, open_page):
    page = open_page(file_server)
    page.pause()
    page.wait_still()
    assert page.find("#chain-add").get_attribute("disabled") is not None, "nothing to add before a filter is picked"
    assert not page.visible("#chain")

    page.choose_filter("sepia")
    sepia = page.wait_pixels(lambda rgb: (px.warm_order_fraction(rgb) > 0.97, f"{px.warm_order_fraction(rgb):.3f}"),
                             message="a sepia picture")

    # Invert, then "+" (a second Invert, picked for editing), then Sepia replaces the picked link.
    page.choose_filter("invert")
    page.find("#chain-add").click()
    wait_chain(page, ["invert", "invert"])
    page.wait_for(lambda: page.find('#chain [data-link="1"]').get_attribute("aria-pressed") == "true",
                  message="the new link picked")
    page.find('[data-filter="sepia"]').click()
    state = wait_chain(page, ["invert", "sepia"])
    assert state["filter"]["name"] == "invert", "filter is the first link"
    # Lists read in one script each: #chain is rebuilt when a state changes the chain, so elements
    # found in one WebDriver call may be stale at the next one's read.
    chips = page.js("return [...document.querySelectorAll('#chain .link-select')].map(c => c.innerText)")
    assert chips == ["1. Invert", "2. Sepia"], chips
    assert page.text("#current-filter") == "Invert → Sepia"
    pressed = page.js("return [...document.querySelectorAll(\"#filters [aria-pressed='true']\")].map(b => b.dataset.filter)")
    assert pressed == ["sepia"], "the picker shows the picked link"
    sent = page.sent("setFilter")[-1]
    assert sent["chain"] == [{"name": "invert", "params": {}}, {"name": "sepia"}], sent

    # The picture: sepia of the negative, warm but with its brightness the other way round.
    chained = page.wait_pixels(lambda rgb: (px.warm_order_fraction(rgb) > 0.97 and correlation(rgb, sepia) < -0.5,
                                            f"warm {px.warm_order_fraction(rgb):.3f}, "
                                            f"correlation with sepia {correlation(rgb, sepia):.2f}"),
                               message="invert → sepia")
    assert np.abs(chained - sepia).mean() > 20, "invert then sepia differs from sepia"

    # Link 1's own slider sends setParams with index 1; link 0 (invert) has no sliders.
    sliders = page.find_all("#params input[data-param]")
    assert [(s.get_attribute("data-link"), s.get_attribute("data-param")) for s in sliders] == [("1", "intensity")]
    assert page.text(".link-params-title") == "2. Sepia"
    sliders[0].send_keys(*[Keys.ARROW_LEFT] * 10)
    state = page.wait_state(lambda s: abs(s["chain"][1]["params"]["intensity"] - 0.9) < 1e-9, message="intensity 0.9")
    assert names(state) == ["invert", "sepia"]
    sent = page.wait_sent_settled("setParams")
    assert sent and all(message["index"] == 1 for message in sent), sent

    # × on link 0 leaves sepia (at 0.9) alone: the picture is close to sepia again.
    page.find('#chain [data-link-remove="0"]').click()
    state = wait_chain(page, ["sepia"])
    assert state["chain"][0]["params"]["intensity"] == 0.9
    page.wait_for(lambda: page.js("return document.activeElement.dataset.link") == "0",
                  message="the focus on the chip now first")
    page.wait_pixels(lambda rgb: (correlation(rgb, sepia) > 0.9, f"correlation {correlation(rgb, sepia):.2f}"),
                     message="sepia alone")

    # Keyboard: the chip is a Tab stop and Delete removes its link.
    chip = page.find('#chain [data-link="0"]')
    chip.send_keys(Keys.DELETE)
    state = wait_chain(page, [])
    assert state["filter"] == {"name": "none", "params": {}}
    page.wait_for(lambda: not page.visible("#chain"), message="no chips for no filter")
    assert page.js("return document.activeElement.dataset.filter") == "none", "the focus moves to the picker"
    assert page.find("#chain-add").get_attribute("disabled") is not None


def test_none_in_the_picker_clears_the_chain_and_the_limit_disables_add(file_server, open_page):
    """"None" means no filter at all (issue 37.10): the whole chain goes, whichever link is picked
    (it removed only the picked link: lut → vignette, None → ["lut"]); × removes one link."""
    page = open_page(file_server)
    page.raw_send('{"type":"setFilter","chain":[{"name":"invert"},{"name":"mono"},{"name":"pixellate"}]}')
    wait_chain(page, ["invert", "mono", "pixellate"])
    page.find('#chain [data-link="1"]').click()
    page.find('[data-filter="none"]').click()
    state = wait_chain(page, [])
    assert state["filter"] == {"name": "none", "params": {}}
    page.wait_for(lambda: not page.visible("#chain") and page.text("#current-filter") == "None",
                  message="no chips, the title None")
    pressed = [b.get_attribute("data-filter") for b in page.find_all("#filters [aria-pressed='true']")]
    assert pressed == ["none"]

    # × removes one link: pixellate's slider then belongs to link 1, and moving it tells the server so.
    page.raw_send('{"type":"setFilter","chain":[{"name":"invert"},{"name":"mono"},{"name":"pixellate"}]}')
    wait_chain(page, ["invert", "mono", "pixellate"])
    page.find('#chain [data-link-remove="1"]').click()
    wait_chain(page, ["invert", "pixellate"])
    slider = page.find('#params input[data-param="scale"]')
    assert slider.get_attribute("data-link") == "1"
    slider.send_keys(Keys.ARROW_RIGHT)
    page.wait_state(lambda s: s["chain"][1]["params"]["scale"] == 9, message="scale 9 on link 1")

    page.raw_send('{"type":"setFilter","chain":[' + ",".join(['{"name":"invert"}'] * 8) + "]}")
    wait_chain(page, ["invert"] * 8)
    page.wait_for(lambda: page.find("#chain-add").get_attribute("disabled") is not None,
                  message="+ disabled at 8 filters")
    assert "8" in page.find("#chain-add").get_attribute("title")
    assert len(page.find_all("#chain .link")) == 8
