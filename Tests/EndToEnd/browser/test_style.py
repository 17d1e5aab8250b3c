"""The style filter's picker in a real browser: every shipped style as a picture under the
`style` slider, the current one marked; a click picks a style for everybody (the server's state
names it) and moves the slider with it."""

from __future__ import annotations

from browser_support import WEB, choose_file, drop_file, file_button_opens

STYLES = [f"style-{n}" for n in range(1, 27)]

PICKER = """
    return [...document.querySelectorAll('#params .choices [data-choice]')].map(button => ({
        id: button.dataset.choice, pressed: button.getAttribute('aria-pressed'),
        loaded: button.querySelector('img')?.naturalWidth || 0}));"""


def loaded_picker(page) -> list[dict] | None:
    """The picker's buttons once every picture has loaded."""
    buttons = page.js(PICKER)
    return buttons if buttons and all(button["loaded"] for button in buttons) else None


def test_the_style_picker_shows_every_style_and_picks_one(file_server, open_page, artifacts):
    page = open_page(file_server)
    page.pause()
    page.choose_filter("style")
    shown = page.wait_for(lambda: loaded_picker(page), message="every style's picture loaded")
    assert [b["id"] for b in shown] == STYLES
    assert [b["pressed"] for b in shown] == ["true"] + ["false"] * 25, "the default style is marked"
    assert {b["loaded"] for b in shown} == {192}, "the pictures are the 2x thumbnails"

    page.find('[data-choice="style-5"]').click()
    state = page.wait_state(lambda s: s["chain"][0].get("choices", {}).get("style") == "style-5",
                            message="style-5 for everybody")
    assert state["chain"][0]["params"]["style"] == 4
    shown = page.js(PICKER)
    assert [b["id"] for b in shown if b["pressed"] == "true"] == ["style-5"]
    assert page.find("#param-style-style").get_attribute("value") == "4"
    assert page.text("#param-style-style + output") == "Style 5", "the slider's value is the style's name"
    page.screenshot(artifacts / "style-picker.png")


def test_a_picture_dropped_on_the_picker_becomes_a_style(launch, test_clip, open_page, tmp_path):
    server = launch("--input", test_clip.name, "--styles", str(tmp_path / "styles"), cwd=test_clip.parent)
    page = open_page(server)
    page.pause()
    page.choose_filter("style")
    page.wait_for(lambda: loaded_picker(page), message="every style's picture loaded")
    assert drop_file(page, "#params .choices", "/styles/style-3.jpg", "My Picture.jpg"), "the picker takes the drop (no video upload)"
    shown = page.wait_for(lambda: (b := loaded_picker(page)) and len(b) == 27 and b,
                          message="the new style arrives with the catalog, its picture loaded")
    assert shown[-1]["id"] == "my-picture" and shown[-1]["loaded"] == 192
    page.find('[data-choice="my-picture"]').click()
    page.wait_state(lambda s: s["chain"][0].get("choices", {}).get("style") == "my-picture",
                    message="the uploaded style for everybody")
    assert sorted(p.name for p in (tmp_path / "styles").iterdir()) == ["my-picture.jpg"]


def test_a_picture_picked_with_the_file_button_becomes_a_style(launch, test_clip, open_page, tmp_path):
    """The drop zone has a file button too (issue 37.8): a phone or a keyboard cannot drop."""
    server = launch("--input", test_clip.name, "--styles", str(tmp_path / "styles"), cwd=test_clip.parent)
    page = open_page(server)
    page.pause()
    page.choose_filter("style")
    page.wait_for(lambda: loaded_picker(page), message="every style's picture loaded")
    assert file_button_opens(page, "#params .choice-files button", '#params input[type="file"][data-adds="style"]'), \
        "the button under the styles opens the file chooser"
    picture = tmp_path / "My Holiday.jpg"
    picture.write_bytes((WEB / "styles" / "style-3.jpg").read_bytes())
    choose_file(page, '#params input[type="file"][data-adds="style"]', picture)
    shown = page.wait_for(lambda: (b := loaded_picker(page)) and len(b) == 27 and b,
                          message="the picked picture arrives as a style with the catalog")
    assert shown[-1]["id"] == "my-holiday"
    assert sorted(p.name for p in (tmp_path / "styles").iterdir()) == ["my-holiday.jpg"]


def test_the_strip_scrolls_to_the_chosen_style_and_style_is_shown_once(file_server, open_page):
    """Issue 37.10: a style chosen elsewhere (another page, a look) is scrolled into the strip,
    and the strip is the only control of `style` (no 0…26 slider beside it)."""
    page = open_page(file_server)
    page.pause()
    page.choose_filter("style")
    page.wait_for(lambda: loaded_picker(page), message="every style's picture loaded")
    assert not page.visible("#param-style-style"), "a slider of style indexes beside the pictures"
    assert page.text("#param-style-style + output") == "Style 1", "the chosen style is named"
    visible = """
        const strip = document.querySelector('#params .choices').getBoundingClientRect();
        const chip = document.querySelector(`[data-choice="${arguments[0]}"]`).getBoundingClientRect();
        return chip.left >= strip.left - 1 && chip.right <= strip.right + 1;"""
    assert not page.js(visible, "style-20"), "style-20 starts out of the strip's sight"
    page.raw_send('{"type":"setParams","index":0,"params":{"style":19}}')
    page.wait_state(lambda s: s["chain"][0].get("choices", {}).get("style") == "style-20", message="style-20")
    page.wait_for(lambda: page.js(visible, "style-20"), message="the strip scrolled to style-20")
    assert page.js("return window.scrollX") == 0, "the page itself does not scroll sideways"
    page.wait_for(lambda: page.text("#param-style-style + output") == "Style 20", message="the name follows")


def shown_rate(page):
    """The rate the page shows: the last state's, while its chain has a style link."""
    return page.js("return window.filtercast.state.styleRefreshHz ?? null")


def test_the_status_line_shows_the_style_refresh_rate_beside_the_fps(file_server, open_page):
    """Issue 42: the picture moves at the fps, the style follows at its own rate — the page says
    both, the style's only while the chain has a style link."""
    page = open_page(file_server)
    assert page.stats()["styleRefreshHz"] is None and not page.visible("#stat-style"), "no style link: nothing said"
    page.choose_filter("style")
    rate = page.wait_for(lambda: page.stats()["styleRefreshHz"], 20, "the style's refresh rate measured")
    state = page.state()
    assert rate > 0 and state["chain"][0]["name"] == "style"
    page.wait_for(lambda: page.visible("#stat-style") and shown_rate(page) == (rate := page.stats()["styleRefreshHz"]) and
                  page.text("#stat-style") == f"style {float(f'{rate:.2g}'):g}/s",
                  message="'style N/s' beside the fps, the stats' rate to two figures")
    assert page.text("#stat-fps").endswith(" fps"), "the fps stays as it was"
    page.choose_filter("none")
    page.wait_for(lambda: page.stats()["styleRefreshHz"] is None and not page.visible("#stat-style"),
                  message="no style link: the rate hidden again")
