"""The Channels panel (#channels, issue 25 item 6) in a real browser: a server of two channels
lists both with a thumbnail each, this page's channel marked; a click moves the page to the other
channel without a reload (the WebSocket reconnects with its ?channel=, the URL's query follows),
and Back comes back. `/?channel=NAME` opens a channel; with one channel the panel stays hidden (and
fetches no thumbnail).
A page opened with the admin token adds channels (the server's refusal shown in its words) and
removes them (asked twice), a viewer of the removed one moved to the default channel; a
controller's page has neither."""

from __future__ import annotations

import json
import urllib.request

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
    # Each thumbnail is its channel's snapshot, of its smallest rendition (main's is 320 wide).
    assert {e["loaded"] for e in entries} == {320, 160}, entries
    assert all(e["meta"].startswith("live · ") for e in entries), entries
    page.js("window.__notReloaded = true")

    page.click('[data-channel="small"] button')  # found again if the panel is redrawn before the click
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
    # The hidden panel still follows the channel list, but fetches no thumbnail: a full-size
    # snapshot every few seconds was a burst a slow link's live stream queued behind.
    fetched = "return performance.getEntriesByType('resource').map(entry => new URL(entry.name).pathname)"
    single.wait_for(lambda: single.js(fetched).count("/api/channels") >= 2, timeout=15,
                    message="the channel list fetched twice")
    assert "/snapshot.jpg" not in single.js(fetched)


def entries(page) -> list[str]:
    return [e["name"] for e in page.js(PANEL)]


def test_an_admin_adds_and_removes_channels_from_the_panel_and_a_controller_cannot(launch, open_page):
    server = launch("--input", "test:320x240@15", "--token", "ctl", "--admin-token", "boss")
    page = open_page(server, path="?token=boss", transport=None)
    on_channel(page, "main", 320)
    # One channel: the panel shows, for the admin's form, with no Delete on the default channel.
    page.wait_for(lambda: page.find("#channel-add").is_displayed(), message="the Add channel form")
    assert page.find_all('[data-channel="main"] [data-action="delete"]') == []

    page.find("#channel-add-name").send_keys("small")
    page.find("#channel-add-input").send_keys("test:160x120@15")
    page.find("#channel-add-submit").click()
    page.wait_for(lambda: entries(page) == ["main", "small"], message="small listed")
    assert page.text("#channel-add-message") == "Channel small added."

    # A refusal shows the server's own words.
    page.allow_console(r"api/channels/small\S* - Failed to load resource: the server responded with a status of 409")
    page.find("#channel-add-name").send_keys("small")
    page.find("#channel-add-input").send_keys("test:160x120@15")
    page.find("#channel-add-submit").click()
    page.wait_for(lambda: page.text("#channel-add-message") == "channel small exists already", message="the 409's text")

    # A viewer on small, to be moved when it goes.
    viewer = open_page(server, path="?channel=small&token=ctl", second=True, transport=None)
    on_channel(viewer, "small", 160)

    # Delete asks first; the page stays on its channel; the server's list no longer has it.
    # (Through the list helpers: the panel lists the channels again now and then, which disarms.)
    assert page.arm_delete('[data-channel="small"]') == "Delete? Click again"
    assert entries(page) == ["main", "small"], "one click deleted"
    page.delete_from_list('[data-channel="small"]')
    page.wait_for(lambda: entries(page) == ["main"], message="small removed")
    with urllib.request.urlopen(server.url + "api/channels?token=boss", timeout=10) as response:
        assert [c["name"] for c in json.load(response)] == ["main"]
    assert page.js("return window.filtercast.channel") == "main"
    # The viewer is told (the close's reason) and comes back on the default channel, its address
    # without the removed one, and the page says why it moved (issue 37.13: it moved silently).
    on_channel(viewer, "main", 320)
    assert viewer.js("return location.search") == "?token=ctl"
    # The toast's text, not its visibility: it hides after 4 s, which the moves and reads since
    # the removal can take on a busy machine; its text stays until the next toast.
    viewer.wait_for(lambda: "small was removed" in (text := viewer.text("#toast")) and "main" in text,
                    message=lambda: f"the viewer told why it moved: {viewer.text('#toast')!r}")
    assert not page.visible("#toast") or "removed" not in page.text("#toast"), "the admin stayed on main: nothing to say"

    controller = open_page(server, path="?token=ctl", second=True, transport=None)
    on_channel(controller, "main", 320)
    assert not controller.find("#channel-add").is_displayed()
    assert controller.find("#channels").get_attribute("hidden") is not None

    # The admin token typed into the page's prompt (auth's ack says "admin") opens the same actions.
    typed = open_page(server, transport=None, wait=False)
    typed.wait_for(lambda: typed.find("#token-form").is_displayed(), message="the token prompt")
    typed.find("#token-input").send_keys("boss")
    typed.find("#token-submit").click()
    typed.wait_for(lambda: typed.find("#channel-add").is_displayed(), message="the form after auth with the admin token")
