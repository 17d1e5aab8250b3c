"""The Channels panel (#channels, issue 25 item 6) in a real browser: a server of two channels
lists both with a thumbnail each, this page's channel marked; a click moves the page to the other
channel without a reload (the WebSocket reconnects with its ?channel=, the URL's query follows),
and Back comes back. `/?channel=NAME` opens a channel; with one channel the panel stays hidden."""

from __future__ import annotations

PANEL = """
    return [...document.querySelectorAll('#channel-list [data-channel]')].map(li => ({
        name: li.dataset.channel, current: li.querySelector('button').getAttribute('aria-current'),
        loaded: +(li.querySelector('canvas').dataset.width || 0), meta: li.querySelector('.channel-meta').textContent}));"""


def shown(page) -> list[dict] | None:
    """The panel's entries once every thumbnail has loaded."""
    entries = page.js(PANEL)
    return entries if entries and all(entry["loaded"] for entry in entries) else None


def on_channel(page, name: str, width: int):
    page.wait_for(lambda: page.js("return window.filtercast.channel") == name
                  and (page.state() or {}).get("source", {}).get("width") == width,
                  message=f"the page on channel {name}")


def test_the_panel_lists_the_channels_and_moves_the_page_between_them(launch, open_page):
    server = launch("--input", "test:640x360@15", "--channel", "small=test:160x120@15")
    page = open_page(server, transport=None)
    on_channel(page, "main", 640)
    entries = page.wait_for(lambda: shown(page), message="both channels with their thumbnails")
    assert [(e["name"], e["current"]) for e in entries] == [("main", "page"), ("small", None)]
    assert {e["loaded"] for e in entries} == {640, 160}, "each thumbnail is its channel's snapshot"
    assert all(e["meta"].startswith("live · ") for e in entries), entries
    page.js("window.__notReloaded = true")

    page.find('[data-channel="small"] button').click()
    on_channel(page, "small", 160)
    assert page.js("return location.search") == "?channel=small"
    assert page.js("return window.__notReloaded") is True, "the page reloaded"
    # main's smallest rendition is 320 wide: a picture this narrow is small's.
    page.wait_for(lambda: 0 < page.stats()["width"] <= 160, message="small's pictures drawn")
    page.wait_for(lambda: [e["current"] for e in page.js(PANEL)] == [None, "page"], message="small marked")

    page.driver.back()
    on_channel(page, "main", 640)
    assert page.js("return location.search") == ""
    assert page.js("return window.__notReloaded") is True


def test_a_channel_opens_from_the_url_and_one_channel_shows_no_panel(launch, open_page):
    server = launch("--input", "test:320x240@15", "--channel", "small=test:160x120@15")
    page = open_page(server, path="?channel=small", transport=None)
    on_channel(page, "small", 160)
    single = open_page(launch("--input", "test:320x240@15"), second=True, transport=None)
    on_channel(single, "main", 320)
    assert single.find("#channels").get_attribute("hidden") is not None
