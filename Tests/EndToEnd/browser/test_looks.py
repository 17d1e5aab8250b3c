"""Saved looks in a real browser (#looks): save the chain under a name, the list (with a thumbnail), apply with a
click, export (the JSON file in the link), import (a look file dropped on the page goes to the
preview and is saved, never on air; a .cube dropped becomes a LUT), delete (asked twice); and a
link `?look=NAME` (or a chain in `#look=`) opens the look in the preview for a controller (studio
mode), never on air, and a watching page is only offered it."""

from __future__ import annotations

import json
import urllib.parse

IDENTITY = "LUT_3D_SIZE 2\n0 0 0\n1 0 0\n0 1 0\n1 1 0\n0 0 1\n1 0 1\n0 1 1\n1 1 1\n"
DROP = """
    const transfer = new DataTransfer();
    transfer.items.add(new File([arguments[1]], arguments[0], { type: "application/octet-stream" }));
    const target = document.querySelector("#view");
    for (const type of ["dragover", "drop"]) {
      target.dispatchEvent(new DragEvent(type, { dataTransfer: transfer, bubbles: true, cancelable: true }));
    }
"""


ATTRIBUTE = "const e = document.querySelector(arguments[0]); return e && e.getAttribute(arguments[1])"


def chain_names(state) -> list:
    return [link["name"] for link in state["chain"]]


def test_save_list_apply_export_import_delete(launch, open_page, tmp_path, artifacts):
    looks, luts = tmp_path / "looks", tmp_path / "luts"
    server = launch("--input", "test:320x240@30", "--looks", str(looks), "--luts", str(luts))
    page = open_page(server)
    page.wait_for(lambda: page.visible("#looks") and page.find("#look-list").get_attribute("data-loaded") == "true",
                  message="the Looks panel")
    assert page.visible("#looks-empty")

    page.choose_filter("sepia")
    page.find("#look-name").send_keys("warm")
    page.find("#look-save-button").click()
    item = '#look-list [data-look="warm"]'
    page.wait_for(lambda: page.find_all(item), message="the saved look listed")
    assert page.text(item + " .source-meta") == "sepia"
    # Its thumbnail: the look applied to this channel's picture, drawn (after a 202 while it is made).
    page.wait_for(lambda: page.find_all(item + ' canvas.look-thumbnail[data-drawn="true"]'), timeout=15,
                  message="the look's thumbnail drawn")
    saved = json.loads((looks / "warm.json").read_text())
    assert saved["name"] == "warm" and chain_names(saved) == ["sepia"]

    page.choose_filter("invert")
    page.click(item + ' [data-action="apply"]')  # found again if the list is redrawn before the click
    page.wait_state(lambda s: chain_names(s) == ["sepia"], message="the look applied")

    # Its link (issue 37.11): this page's address with ?look=NAME, which opens it in the preview.
    # Attributes read in one script each: the list may be redrawn between a find and a read.
    assert page.js(ATTRIBUTE, item + ' [data-action="copy-link"]', "data-link") == server.url + "?look=warm"

    href = page.js(ATTRIBUTE, item + ' [data-action="export"]', "href")
    assert page.js(ATTRIBUTE, item + ' [data-action="export"]', "download") == "warm.json"
    exported = json.loads(urllib.parse.unquote(href.split(",", 1)[1]))
    assert exported["name"] == "warm" and exported["chain"] == saved["chain"]

    # A look file dropped: saved, in the preview, the program unchanged.
    page.js(DROP, "Night Vision.json", json.dumps({"chain": [{"name": "invert"}, {"name": "vignette"}]}))
    page.wait_for(lambda: page.find_all('#look-list [data-look="night-vision"]'), message="the imported look listed")
    assert chain_names(json.loads((looks / "night-vision.json").read_text())) == ["invert", "vignette"]
    assert chain_names(page.state()) == ["sepia"], "an imported look is never on air by itself"
    assert page.find("#studio").get_attribute("aria-pressed") == "true", "the preview it went to is shown"
    assert chain_names({"chain": page.state().get("preview") or []}) == ["invert", "vignette"]
    # A .cube dropped: a LUT.
    page.js(DROP, "Teal.cube", IDENTITY)
    page.wait_for(lambda: (luts / "teal.cube").exists(), message="the dropped LUT stored")

    # #look-list is redrawn by every `looks` notice (the import just before may still bring one), and a
    # redraw disarms the button: the helpers arm (and re-arm) it rather than holding found elements.
    assert page.arm_delete(item) == "Delete? Click again" and (looks / "warm.json").exists(), "asked first"
    page.delete_from_list(item)
    page.wait_for(lambda: not page.find_all(item), message="the look gone from the list")
    assert sorted(p.name for p in looks.iterdir()) == ["night-vision.json"]
    page.screenshot(artifacts / "looks.png")


def test_a_link_opens_the_look_in_the_preview_never_on_air(launch, open_page, tmp_path):
    looks = tmp_path / "looks"
    looks.mkdir()
    (looks / "negative.json").write_text(json.dumps({"name": "negative", "chain": [{"name": "invert"}]}))
    server = launch("--input", "test:320x240@30", "--looks", str(looks))
    page = open_page(server, path="?look=negative")
    state = page.wait_state(lambda s: chain_names({"chain": s.get("preview") or []}) == ["invert"], message="the look in the preview")
    assert chain_names(state) == [], "never on air by itself"
    assert page.find("#studio").get_attribute("aria-pressed") == "true" and not page.visible("#look-offer")

    # A chain shared in the fragment (from another server): the same, into the preview.
    shared = urllib.parse.quote(json.dumps([{"name": "sepia", "params": {"intensity": 0.5}}]))
    page = open_page(server, path=f"#look={shared}", transport=None)
    state = page.wait_state(lambda s: chain_names({"chain": s.get("preview") or []}) == ["sepia"], message="the shared chain in the preview")
    assert state["preview"][0]["params"]["intensity"] == 0.5 and chain_names(state) == []


def test_a_watching_page_is_offered_the_look_it_cannot_apply(launch, open_page, tmp_path):
    looks = tmp_path / "looks"
    looks.mkdir()
    (looks / "negative.json").write_text(json.dumps({"name": "negative", "chain": [{"name": "invert"}]}))
    server = launch("--input", "test:320x240@30", "--looks", str(looks), "--token", "s3cret", "--public-view")
    page = open_page(server, path="?look=negative")
    page.wait_for(lambda: page.visible("#look-offer"), message="the offer")
    # Told why, not given a button that does nothing (issue 37.11).
    assert page.text("#look-offer-text") == "This link offers the look negative: applying it needs control (give the token)"
    assert not page.visible("#look-offer-apply") and chain_names(page.state()) == []


def test_a_link_whose_look_cannot_be_read_says_so(launch, open_page, tmp_path):
    server = launch("--input", "test:320x240@30", "--looks", str(tmp_path / "looks"))
    page = open_page(server, path="#look=%7Bnot-json")
    page.wait_for(lambda: page.visible("#toast") and "not JSON" in page.text("#toast"), message="the bad fragment said")
    page = open_page(server, second=True, path="?look=Not%20A%20Name")
    page.wait_for(lambda: page.visible("#toast") and "not a look's name" in page.text("#toast"), message="the bad name said")
    assert not page.visible("#look-offer") and chain_names(page.state()) == []
