"""Colour LUTs in a real browser: the `lut` filter's LUTs as the options of its `lut` parameter;
a LUT uploaded while the page is open (`PUT /api/luts/NAME`) is an option at once, without a
reload, with its thumbnail, and a click picks it for everybody."""

from __future__ import annotations

import urllib.request

from browser_support import choose_file, file_button_opens

IDENTITY = b"LUT_3D_SIZE 2\n0 0 0\n1 0 0\n0 1 0\n1 1 0\n0 0 1\n1 0 1\n0 1 1\n1 1 1\n"
THUMBNAILS = "return [...document.querySelectorAll('#params .choices [data-choice] img')].map(i => i.complete && i.naturalWidth);"
CHOICES = "return [...document.querySelectorAll('#params .choices [data-choice]')].map(b => b.dataset.choice);"


def test_an_uploaded_lut_is_an_option_at_once(launch, open_page, tmp_path, artifacts):
    luts = tmp_path / "luts"
    luts.mkdir()
    (luts / "warm.cube").write_bytes(b'TITLE "Warm"\n' + IDENTITY)
    server = launch("--input", "test:320x240@30", "--luts", str(luts))
    page = open_page(server)
    page.choose_filter("lut")
    assert page.wait_for(lambda: page.js(CHOICES) or None, message="the lut options") == ["warm"]

    request = urllib.request.Request(server.url + "api/luts/teal", data=b'TITLE "Teal"\n' + IDENTITY, method="PUT")
    with urllib.request.urlopen(request, timeout=10) as answer:
        assert answer.status == 201
    page.wait_for(lambda: page.js(CHOICES) == ["warm", "teal"] or None, message="teal offered without a reload")
    # Each option shows its thumbnail (the LUT on the chart, GET /api/luts/NAME.jpg), as the styles do.
    page.wait_for(lambda: page.js(THUMBNAILS) == [192, 192] or None, message="the LUTs' thumbnails drawn")
    assert page.js("return document.querySelector('[data-filter=\"lut\"]') !== null"), "the picker still has lut"

    page.find('[data-choice="teal"]').click()
    state = page.wait_state(lambda s: s["chain"] and s["chain"][0].get("choices", {}).get("lut") == "teal",
                            message="teal for everybody")
    assert state["chain"][0]["params"]["lut"] == 1
    page.screenshot(artifacts / "lut-options.png")


def test_a_lut_picked_with_the_file_button_is_an_option(launch, open_page, tmp_path):
    """The LUTs' drop zone has a file button too (issue 37.8)."""
    luts = tmp_path / "luts"
    luts.mkdir()
    (luts / "warm.cube").write_bytes(b'TITLE "Warm"\n' + IDENTITY)
    (tmp_path / "Teal Grade.cube").write_bytes(b'TITLE "Teal"\n' + IDENTITY)
    server = launch("--input", "test:320x240@30", "--luts", str(luts))
    page = open_page(server)
    page.choose_filter("lut")
    assert page.wait_for(lambda: page.js(CHOICES) or None, message="the lut options") == ["warm"]
    assert file_button_opens(page, "#params .choice-files button", '#params input[type="file"][data-adds="lut"]'), \
        "the button under the LUTs opens the file chooser"
    choose_file(page, '#params input[type="file"][data-adds="lut"]', tmp_path / "Teal Grade.cube")
    page.wait_for(lambda: page.js(CHOICES) == ["warm", "teal-grade"] or None, message="the picked LUT offered")
    assert (luts / "teal-grade.cube").exists()
