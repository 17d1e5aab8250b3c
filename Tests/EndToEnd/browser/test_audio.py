"""The page's sound (issue 16): the page asks for the source's sound, keeps it muted until the user
unmutes (#mute, the key m; remembered for the tab), then plays it with the pictures — the audio
clock within ±45 ms of the drawn picture's time — and pause silences it. Where AudioDecoder is
missing, #mute says "no sound in this browser". The clip: the browser tests' 640x360 pictures with
a 440 Hz tone as AAC, made by the ffmpeg CLI."""

from __future__ import annotations

import pytest

from browser_support import press
from fc_server import make_tone_clip


@pytest.fixture(scope="module")
def tone_clip(tmp_path_factory):
    return make_tone_clip(tmp_path_factory.mktemp("browser-audio") / "tone-8s.mp4", "640x360", 30, 8, 48_000)


def audio(page) -> dict:
    return page.js("return Object.assign({}, window.filtercast.stats.audio)")


@pytest.mark.solo  # the sound's clock against the pictures': run alone
def test_the_sound_plays_in_sync_once_unmuted_and_pause_silences_it(launch, open_page, tone_clip):
    server = launch("--input", str(tone_clip))
    page = open_page(server, transport=None)
    watches = page.wait_for(lambda: page.sent("watch"), 5, "the page's watch")
    assert watches[-1].get("audio") is True, f"the page did not ask for sound: {watches[-1]}"
    button = page.find("#mute")
    assert button.get_attribute("aria-pressed") == "false" and page.text("#mute-label") == "Unmute", "sound on before a gesture"
    page.wait_frames(10)
    assert audio(page)["playing"] is False

    button.click()
    page.wait_for(lambda: audio(page)["playing"] and audio(page)["syncMs"] is not None, 5, "the sound to play")
    assert button.get_attribute("aria-pressed") == "true" and page.text("#mute-label") == "Mute"
    assert page.js("return sessionStorage.getItem('filtercast.sound')") == "on"
    page.js("return new Promise((done) => setTimeout(done, 1500))")  # past the start (the median's 30 frames)
    samples = []
    for _ in range(20):
        page.js("return new Promise((done) => setTimeout(done, 100))")
        samples.append(audio(page)["syncMs"])
    assert all(abs(sample) <= 45 for sample in samples), f"audio clock minus picture time (ms): {samples}"
    print(f"audio clock minus picture time (ms): {samples}")

    page.pause()
    page.wait_for(lambda: audio(page)["playing"] is False, 1.0, "pause to silence the sound")

    page.find("#play-pause").click()
    page.wait_for(lambda: audio(page)["playing"], 5, "the sound to play again")
    press(page, "m")
    page.wait_for(lambda: audio(page)["playing"] is False, 1.0, "m to mute")
    assert page.text("#mute-label") == "Unmute" and page.js("return sessionStorage.getItem('filtercast.sound')") == "off"


def test_without_audio_decoder_the_page_says_so(launch, open_page, tone_clip):
    server = launch("--input", str(tone_clip))
    page = open_page(server, wait=False, transport=None)
    script = page.driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": "delete window.AudioDecoder;"})
    try:
        page.driver.get(server.url)
        page.wait_for(lambda: (s := page.stats()) and s["framesDrawn"] > 0, 15, "the page to draw a frame")
        assert page.text("#mute-label") == "no sound in this browser"
        assert page.find("#mute").get_attribute("disabled") is not None
        assert not page.sent("watch")[-1].get("audio"), "a page that cannot play sound asked for it"
        assert audio(page)["playing"] is None
    finally:
        page.driver.execute_cdp_cmd("Page.removeScriptToEvaluateOnNewDocument", {"identifier": script["identifier"]})


def test_a_source_without_sound_says_so_and_unmute_does_not_flip(file_server, open_page):
    """Issue 23: the browser tests' clip has no sound; the server offers sound all the same."""
    page = open_page(file_server, transport=None)
    page.wait_for(lambda: page.text("#mute-label") == "no sound in this source", 5, "the button to say so")
    assert page.state()["source"]["audio"] is None
    page.find("#mute").click()
    press(page, "m")
    assert page.text("#mute-label") == "no sound in this source"
    assert page.find("#mute").get_attribute("aria-pressed") == "false"
