"""The style filter's picker in a real browser: every shipped style as a picture under the
`style` slider, the current one marked; a click picks a style for everybody (the server's state
names it) and moves the slider with it."""

from __future__ import annotations

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
