"""Recording and the library in a real browser: the Record button (red dot, elapsed time), the
Recordings panel listing the new file, Play switching the session to it, Download serving it,
Delete removing it."""

from __future__ import annotations

import re
import subprocess
import time
import urllib.request


def file_seconds(path) -> float:
    """The duration of a media file, as ffprobe reads its container."""
    out = subprocess.run(["ffprobe", "-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", str(path)],
                         capture_output=True, text=True, timeout=30, check=True).stdout
    return float(out.strip())


def test_record_play_download_delete(live_server, open_page, tmp_path, artifacts):
    page = open_page(live_server)
    button = page.find("#record")
    assert button.get_attribute("aria-pressed") == "false"
    assert button.get_attribute("aria-label") == "Start recording"
    page.wait_for(lambda: page.find("#recordings").get_attribute("data-loaded") == "true", message="the library loaded")
    assert page.visible("#library-empty") and page.find_all("#recordings [data-recording]") == []

    button.click()
    state = page.wait_state(lambda s: s["recording"]["active"], message="recording")
    name = state["recording"]["name"]
    page.wait_for(lambda: button.get_attribute("aria-pressed") == "true", message="the button showing the recording")
    assert button.get_attribute("aria-label") == "Stop recording"
    # The red dot, and the elapsed time counting up.
    dot = page.js("return getComputedStyle(document.querySelector('#record .rec-dot')).backgroundColor")
    red, green, blue = (int(v) for v in re.findall(r"\d+", dot)[:3])
    assert red > 150 and green < 120 and blue < 120, dot
    # Counted up to 2 s at least: the page adds " · N dropped" when the recording leaves frames out
    # (its encoder behind on a busy machine, by design), and a slow poll may first see 00:03.
    page.wait_for(lambda: re.fullmatch(r"00:0[2-9]( · \d+ dropped)?", page.text("#record-time")), timeout=10,
                  message=lambda: f"at least 00:02 elapsed: {page.text('#record-time')!r}")
    page.screenshot(artifacts / "library-recording.png")

    button.click()
    stopped = page.wait_state(lambda s: not s["recording"]["active"], message="the recording stopped")
    assert stopped["recording"]["name"] == name and stopped["recording"]["elapsed"] >= 2, stopped["recording"]
    page.wait_for(lambda: button.get_attribute("aria-pressed") == "false", message="the button back to Record")
    assert page.text("#record-time") == "Rec"
    item = f'#recordings [data-recording="{name}"]'
    page.wait_for(lambda: page.find_all(item), message="the new recording in the list")
    assert not page.visible("#library-empty")
    # The list may still show the recording as it was listed at its start (no duration, 1 kB)
    # until the listing that follows its end arrives.
    meta = re.compile(r"(\d\d):(\d\d) · (\d+ kB|\d+\.\d MB)")
    listed = page.wait_for(lambda: meta.match(page.text(item + " .recording-meta") or ""),
                           message=lambda: f"the finished recording's duration and size in the list: "
                                           f"{page.text(item + ' .recording-meta')!r}")
    # That duration is the file's, rounded to the second as the page shows it. Judged against the
    # file itself (ffprobe), not the wall clock: on a busy machine the test pattern makes fewer
    # pictures than the seconds that pass (4.8 s of recording held 2 s of pictures), and the stop
    # lands whenever the click does.
    seconds = file_seconds(tmp_path / "recordings" / name)
    assert seconds >= 1, f"the recording holds {seconds:.2f} s"
    assert abs(int(listed[1]) * 60 + int(listed[2]) - seconds) <= 0.6, (listed[0], seconds)

    # Download: the link serves the file as video/mp4 with its length.
    href = page.js("return document.querySelector(arguments[0]).href", item + ' [data-action="download"]')  # one read: the list redraws
    assert href == f"{live_server.url}recordings/{name}"
    with urllib.request.urlopen(href, timeout=10) as response:
        body = response.read()
        assert response.headers["Content-Type"] == "video/mp4"
        assert int(response.headers["Content-Length"]) == len(body)
    assert body == (tmp_path / "recordings" / name).read_bytes()

    # Play: the session switches to the recording, seekable, no LIVE badge.
    page.click(item + ' [data-action="play"]')
    page.wait_state(lambda s: s["source"]["name"] == f"recordings/{name}", message="the recording playing")
    page.wait_for(lambda: not page.visible("#live-badge") and page.visible("#seek"), message="file controls")
    page.wait_for(lambda: page.find(item).get_attribute("data-current") == "true", message="the item marked as playing")
    # The header names the file, not its place on the server.
    assert page.text("#source-name") == name
    page.wait_frames(5)
    page.screenshot(artifacts / "library-playing.png")

    # Delete asks first: the first click arms the button, and it disarms by itself.
    # (Armed by the helper: the list is redrawn when the source changes, as Play just did.)
    assert page.arm_delete(item) == "Delete? Click again"
    assert (tmp_path / "recordings" / name).exists(), "one click deleted"
    page.wait_for(lambda: page.find_all(item + ' [data-action="delete"]'), timeout=6, message="the delete disarmed")
    assert (tmp_path / "recordings" / name).exists()
    # Two clicks: gone from the list and from the folder.
    page.delete_from_list(item)
    page.wait_for(lambda: not page.find_all(item), message="the item removed")
    page.wait_for(lambda: page.visible("#library-empty"), message="the empty list")
    assert not (tmp_path / "recordings" / name).exists()
    # It was playing: the session is back on the input, live again (not NO SIGNAL).
    page.wait_state(lambda s: s["source"]["startInput"] and s["source"]["online"], message="back to the input")
    page.wait_for(lambda: page.visible("#live-badge") and not page.visible(BACK), message="the live input again")


BACK = '[data-action="input"]'


def test_back_to_the_input_button(live_server, open_page, tmp_path, artifacts):
    """Shown while a recording plays (also one deleted behind the server's back): one click and
    the session plays the input it was started with again."""
    page = open_page(live_server)
    page.wait_for(lambda: page.find("#recordings").get_attribute("data-loaded") == "true", message="the library loaded")
    assert not page.visible(BACK), "hidden while the start input plays"
    page.raw_send('{"type":"record","action":"start"}')
    page.wait_state(lambda s: s["recording"]["active"], message="recording")
    time.sleep(1.0)
    page.raw_send('{"type":"record","action":"stop"}')
    page.wait_for(lambda: len(page.find_all("#recordings [data-recording]")) == 1, message="the recording listed")
    # (In the page's script: the list may be redrawn between a lookup and a click.)
    name = page.js("return document.querySelector('#recordings [data-recording]').dataset.recording")
    page.js("document.querySelector('#recordings [data-action=\"play\"]').click()")
    page.wait_state(lambda s: s["source"]["name"] == f"recordings/{name}", message="the recording playing")
    page.wait_for(lambda: page.visible(BACK), message="the Back to the input button")
    assert page.text(BACK) == "Back to the input"
    # It fits on a 320 px phone too.
    page.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                                {"width": 320, "height": 640, "deviceScaleFactor": 1, "mobile": True})
    page.wait_for(lambda: page.js("return window.innerWidth") == 320, message="a 320 px viewport")
    right = page.js("return document.querySelector(arguments[0]).getBoundingClientRect().right", BACK)
    assert right <= 320.5 and page.js("return document.documentElement.scrollWidth - window.innerWidth") <= 0
    page.driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
    # The file vanishes behind the server's back: NO SIGNAL, and the button is the way out.
    (tmp_path / "recordings" / name).unlink()
    page.raw_send('{"type":"seek","position":0.2}')
    page.wait_state(lambda s: not s["source"]["online"], message="the recording given up")
    assert page.visible(BACK)
    page.screenshot(artifacts / "library-back-to-the-input.png")
    page.find(BACK).click()
    page.wait_state(lambda s: s["source"]["startInput"] and s["source"]["online"] and s["playing"],
                    message="the input playing again")
    page.wait_for(lambda: not page.visible(BACK) and page.visible("#live-badge"), message="the button hidden again")
    before = page.stats()["framesDrawn"]
    page.wait_for(lambda: page.stats()["framesDrawn"] > before + 5, message="frames of the input drawn")


def test_refused_commands_show_a_toast(live_server, open_page, tmp_path):
    page = open_page(live_server)
    page.wait_for(lambda: page.find("#recordings").get_attribute("data-loaded") == "true", message="the library loaded")
    page.raw_send('{"type":"open","source":"/etc/passwd","id":"x"}')
    page.wait_for(lambda: page.visible("#toast"), message="the toast")
    assert page.text("#toast").startswith("Not allowed:")
    # Another client's recording shows up in this page's list once it ends.
    page.raw_send('{"type":"record","action":"start"}')
    page.wait_state(lambda s: s["recording"]["active"], message="recording")
    time.sleep(1.0)
    page.raw_send('{"type":"record","action":"stop"}')
    page.wait_for(lambda: len(page.find_all("#recordings [data-recording]")) == 1, message="the list refreshed")


def test_the_header_names_the_input_file_not_its_path(launch, test_clip, open_page):
    server = launch("--input", str(test_clip.resolve()))
    page = open_page(server)
    # The state names it as the header does: the server's path to it is nobody else's business.
    assert page.state()["source"]["name"] == test_clip.name
    assert page.text("#source-name") == test_clip.name
    assert page.find("#source-name").get_attribute("title") == test_clip.name


def test_a_recording_made_filtered_says_so_and_plays_as_recorded(launch, open_page, tmp_path):
    """Played with the session's filter it was sepia on sepia: the library says what it was
    recorded with, and Play shows it as recorded (the filter off; issue 37.12: Play applied the
    filter again, "Play as recorded" cleared the chain for good); Back to the input gives the
    chain back; "With the filter" plays it with the filter on top."""
    server = launch("--input", "test:640x360@30", "--filter", "sepia")
    page = open_page(server)
    page.wait_for(lambda: page.find("#recordings").get_attribute("data-loaded") == "true", message="the library loaded")
    page.raw_send('{"type":"record","action":"start"}')
    page.wait_state(lambda s: s["recording"]["active"] and s["recording"]["bytes"] > 0, message="recording")
    # A change while it records is listed with its time (the recording's looks).
    page.raw_send('{"type":"setFilter","chain":[{"name":"sepia"},{"name":"vignette"}]}')
    page.wait_state(lambda s: len(s["chain"]) == 2, message="the chain changed")
    page.raw_send('{"type":"record","action":"stop"}')
    page.wait_state(lambda s: not s["recording"]["active"], message="stopped")
    item = "#recordings [data-recording]"
    page.wait_for(lambda: page.find_all(item + " .recorded-with"), message="the recording listed with its filter")
    assert re.fullmatch(r"recorded with sepia → sepia \+ vignette at 0:0\d", page.text(item + " .recorded-with"))
    name = page.js("return document.querySelector(arguments[0]).dataset.recording", item)
    page.click(item + ' [data-action="play"]')
    page.wait_state(lambda s: s["source"]["name"] == f"recordings/{name}" and s["filter"]["name"] == "none",
                    message="the recording playing, filter off")
    page.wait_for(lambda: page.visible("#library-input"), message="Back to the input")
    page.find("#library-input").click()
    page.wait_state(lambda s: s["source"]["startInput"] and [l["name"] for l in s["chain"]] == ["sepia", "vignette"],
                    message="the input again, with its chain")
    page.click(item + ' [data-action="play-with-filter"]')
    page.wait_state(lambda s: s["source"]["name"] == f"recordings/{name}" and len(s["chain"]) == 2,
                    message="the recording playing with the filter on top")
    page.find("#library-input").click()
    page.wait_state(lambda s: s["source"]["startInput"], message="the input again")
    # An unfiltered recording names no filter.
    page.raw_send('{"type":"record","action":"start","filtered":false}')
    page.wait_state(lambda s: s["recording"]["active"] and s["recording"]["bytes"] > 0, message="recording unfiltered")
    page.raw_send('{"type":"record","action":"stop"}')
    page.wait_for(lambda: len(page.find_all(item)) == 2, message="two recordings listed")
    assert len(page.find_all(item + " .recorded-with")) == 1
