"""The page on a server with --token: it says that a token is needed, offers a field for it,
sends it with `auth`, keeps it for the tab (never in a URL) and works without a reload."""

from __future__ import annotations

from selenium.webdriver.common.keys import Keys

from browser_support import press

TOKEN = "s3cret-Tok3n"


def enter_token(page, token: str):
    field = page.find("#token-input")
    field.clear()
    field.send_keys(token)
    page.find("#token-submit").click()


def test_the_page_asks_for_the_token_then_plays_without_a_reload(launch, test_clip, open_page):
    server = launch("--input", str(test_clip), "--token", TOKEN)
    page = open_page(server, wait=False)
    page.wait_for(lambda: page.visible("#token-form"), message="the token prompt")
    assert "needs a token" in page.text("#token-message"), page.text("#token-message")
    assert "Token needed" in page.text("#placeholder"), page.text("#placeholder")
    assert page.js("return document.activeElement.id") == "token-input", "the field has the focus"
    assert page.stats()["framesDrawn"] == 0
    assert "Enter the token" in page.text("#library-empty")

    enter_token(page, "wrong")
    page.wait_for(lambda: "Wrong token" in page.text("#token-message"), message="the refusal")
    assert page.visible("#token-form") and page.stats()["framesDrawn"] == 0
    assert page.js("return sessionStorage.getItem('filtercast.token')") is None

    enter_token(page, TOKEN)
    page.wait_for(lambda: not page.visible("#token-form"), message="the prompt to go")
    page.wait_frames(3)
    page.choose_filter("sepia")
    page.wait_for(lambda: page.js("return document.querySelector('#recordings').dataset.loaded") == "true",
                  message="the recordings listed with the token")
    assert "token" not in page.driver.current_url
    assert page.js("return sessionStorage.getItem('filtercast.token')") == TOKEN
    assert [m["token"] for m in page.sent("auth")] == ["wrong", TOKEN]

    # A reload in the same tab uses the kept token: no prompt.
    page.driver.refresh()
    page.wait_for(lambda: (s := page.stats()) and s["framesDrawn"] > 0, 15, "frames after the reload")
    assert not page.visible("#token-form")
    assert page.state()["filter"]["name"] == "sepia"


def test_a_watch_only_viewer_is_offered_the_token_to_control(launch, test_clip, open_page):
    server = launch("--input", str(test_clip), "--token", TOKEN, "--public-view")
    page = open_page(server)  # frames come without the token
    page.wait_for(lambda: page.visible("#token-form"), message="the token prompt")
    assert "watching only" in page.text("#token-message")
    # Sharing a camera needs control too: the button says why it is off.
    assert page.find("#camera-share").get_attribute("disabled") is not None
    assert "watching only" in page.find("#camera-share").get_attribute("title")
    # So do the controls that change the session (issue 23): disabled, with the hint, not buttons
    # that answer "Not authorized"; the filter panel is inert; the keys do nothing.
    for control in ("#play-pause", "#seek", "#record"):
        assert page.find(control).get_attribute("disabled") is not None, control
        assert "ask for the token to control" in page.find(control).get_attribute("title"), control
    assert page.visible("#control-hint") and "ask for the token to control" in page.text("#control-hint")
    assert page.js("return document.getElementById('filter-panel').inert") is True
    # The field does not take the keys a watcher may use (`m`, `f`).
    assert page.js("return document.activeElement.id") != "token-input"
    press(page, " ", ".", Keys.ARROW_RIGHT)
    page.find("#view").click()
    assert [m["type"] for m in page.sent() if m["type"] != "watch"] == [], page.sent()
    assert page.errors() == []
    enter_token(page, TOKEN)
    page.wait_for(lambda: not page.visible("#token-form"), message="the prompt to go")
    page.wait_for(lambda: page.find("#camera-share").get_attribute("disabled") is None, message="the camera button enabled")
    assert page.find("#play-pause").get_attribute("disabled") is None and not page.visible("#control-hint")
    assert page.js("return document.getElementById('filter-panel').inert") is False
    page.choose_filter("sepia")


def test_no_prompt_without_a_token_or_with_it_in_the_url(launch, test_clip, open_page):
    open_server = launch("--input", str(test_clip))
    page = open_page(open_server)
    assert not page.visible("#token-form")
    token_server = launch("--input", str(test_clip), "--token", TOKEN)
    page = open_page(token_server, path=f"?token={TOKEN}")
    assert not page.visible("#token-form")
    assert page.sent("auth") == []


def test_a_typed_token_downloads_a_recording_without_putting_it_in_a_url(launch, test_clip, open_page, tmp_path):
    folder = tmp_path / "library"
    folder.mkdir()
    data = bytes(range(256)) * 300
    (folder / "2026-01-01T00-00-00Z.mp4").write_bytes(data)
    server = launch("--input", str(test_clip), "--token", TOKEN, "--recordings", str(folder))
    page = open_page(server, wait=False)
    page.wait_for(lambda: page.visible("#token-form"), message="the token prompt")
    enter_token(page, TOKEN)
    page.wait_for(lambda: page.find_all('#recordings [data-action="download"]'), message="the recording listed")
    link = page.find('#recordings [data-action="download"]')
    assert "token" not in link.get_attribute("href")
    # Where the file would be saved: record the blob instead of letting the browser save it.
    page.js("""
        window.__saved = [];
        const create = URL.createObjectURL;
        URL.createObjectURL = (blob) => { window.__saved.push(blob.size); return create(blob); };
        const click = HTMLAnchorElement.prototype.click;
        HTMLAnchorElement.prototype.click = function () {
          if (this.href.startsWith('blob:')) window.__saved.push(this.download); else click.call(this);
        };""")
    link.click()
    page.wait_for(lambda: page.js("return window.__saved.length") == 2, message="the file fetched with the token")
    assert page.js("return window.__saved") == [len(data), "2026-01-01T00-00-00Z.mp4"]
