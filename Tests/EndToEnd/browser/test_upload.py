"""Uploads in a real browser (`--uploads`): #upload-file is shown when the server takes uploads,
a file picked through #upload-input goes up (Authorization: Bearer from the page's token), and
the session plays it and it is deleted from the page (asked twice); a file the server refuses is
said in the toast."""

from __future__ import annotations

import base64

from fc_server import make_clip

TOKEN = "browser-up"


def test_a_picked_file_uploads_and_plays(launch, open_page, tmp_path, artifacts):
    uploads = tmp_path / "uploads"
    server = launch("--input", "test:640x360@30", "--uploads", str(uploads), "--token", TOKEN)
    red = make_clip(tmp_path / "red.mp4", "color=c=0xc8281e:size=640x360:rate=30", 3, "-g", "30")
    page = open_page(server, path=f"?token={TOKEN}")
    page.wait_for(lambda: page.visible("#upload-file"), message="the upload button")
    assert page.find("#upload-input").get_attribute("accept") == "video/*"

    page.find("#upload-input").send_keys(str(red))
    page.wait_state(lambda s: s["source"]["name"] == "uploads/red.mp4", timeout=20, message="the upload playing")
    page.wait_pixels(lambda rgb: rgb[..., 0].mean() - rgb[..., 2].mean() > 100, timeout=10, message="the red clip drawn")
    assert page.text("#upload-status") == "Uploaded red.mp4" and not page.visible("#upload-progress")
    assert (uploads / "red.mp4").read_bytes() == red.read_bytes()
    # The Sources panel lists it among the uploads, marked as what plays.
    item = '#uploads [data-source="uploads/red.mp4"]'
    page.wait_for(lambda: page.find_all(item) and page.find(item).get_attribute("aria-current") == "true",
                  message="the upload listed and marked")
    page.js("document.getElementById('upload').scrollIntoView({block: 'center'})")
    page.screenshot(artifacts / "upload-playing.png")

    # Deleted from the page, asked twice; it played, so the session goes back to the input.
    page.delete_from_list(item)
    page.wait_for(lambda: not page.find_all(item), message="the upload gone from the list")
    assert not (uploads / "red.mp4").exists()
    page.wait_state(lambda s: s["source"]["startInput"], message="back to the input")

    notes = tmp_path / "notes.mp4"
    notes.write_text("not a video\n")
    page.allow_console("api/uploads/notes.mp4 - Failed to load resource: the server responded with a status of 415")
    page.find("#upload-input").send_keys(str(notes))
    page.wait_for(lambda: page.visible("#toast"), message="the toast")
    assert page.text("#toast").startswith("Cannot upload notes.mp4:") and "not a video file" in page.text("#toast")
    assert sorted(path.name for path in uploads.iterdir()) == []


def test_a_file_dropped_on_the_page_uploads_and_plays(launch, open_page, tmp_path):
    uploads = tmp_path / "uploads"
    server = launch("--input", "test:640x360@30", "--uploads", str(uploads))
    blue = make_clip(tmp_path / "blue.mp4", "color=c=0x1e28c8:size=640x360:rate=30", 2, "-g", "30")
    page = open_page(server)
    page.wait_for(lambda: page.visible("#upload-file"), message="the upload button")
    # What a drop of a file from the desktop delivers: a DataTransfer holding a File.
    page.js("""
        const bytes = Uint8Array.from(atob(arguments[0]), (c) => c.charCodeAt(0));
        const transfer = new DataTransfer();
        transfer.items.add(new File([bytes], "dropped.mp4", { type: "video/mp4" }));
        const target = document.querySelector("#view");
        for (const type of ["dragover", "drop"]) {
          target.dispatchEvent(new DragEvent(type, { dataTransfer: transfer, bubbles: true, cancelable: true }));
        }
    """, base64.b64encode(blue.read_bytes()).decode())
    page.wait_state(lambda s: s["source"]["name"] == "uploads/dropped.mp4", timeout=20, message="the dropped file playing")
    page.wait_pixels(lambda rgb: rgb[..., 2].mean() - rgb[..., 0].mean() > 100, timeout=10, message="the blue clip drawn")
    assert (uploads / "dropped.mp4").read_bytes() == blue.read_bytes()


def test_no_upload_button_without_uploads(launch, open_page):
    page = open_page(launch("--input", "test:320x240@15", "--uploads", "off"))
    assert not page.visible("#upload-file") and not page.visible("#upload-input")
