"""Studio mode in the page (issue 26.3): a controller's Preview toggle shows the preview large
beside the program, the picker and sliders edit the preview, and Take (key t) puts it on air;
a viewer without control has no toggle, never watches the preview and only ever sees the program.
The server's rules are tested in process (StudioTests) and through sockets (test_e2e_studio)."""

from __future__ import annotations

from browser_support import press

TOKEN = "s3cret-Tok3n"


def set_slider(page, css: str, value: float):
    page.js("const s = document.querySelector(arguments[0]); s.value = String(arguments[1]);"
            "s.dispatchEvent(new Event('input')); s.dispatchEvent(new Event('change'));", css, value)


def sepia_share(page, css: str) -> float:
    """The share of the canvas's pixels that are sepia-toned (red ≥ green ≥ blue)."""
    return page.js("const c = document.querySelector(arguments[0]);"
                   "const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data; let n = 0;"
                   "for (let i = 0; i < d.length; i += 4) if (d[i] + 2 >= d[i + 1] && d[i + 1] + 2 >= d[i + 2]) n++;"
                   "return n / (d.length / 4);", css)


def first(chain):
    return chain[0] if chain else {"name": "none", "params": {}}


def test_a_controller_edits_the_preview_and_takes_it_while_a_viewer_sees_the_program(launch, open_page):
    server = launch("--input", "test:320x240@30", "--token", TOKEN, "--public-view")
    viewer = open_page(server)
    controller = open_page(server, second=True, path=f"?token={TOKEN}")
    controller.wait_for(lambda: controller.visible("#studio"), message="the Preview toggle")
    assert not viewer.visible("#studio"), "a viewer without control has no Preview toggle"
    assert not controller.visible("#take") and not controller.visible("#preview-view")

    controller.find("#studio").click()
    controller.wait_for(lambda: controller.stats()["studio"]["previewFrames"] >= 5, message="preview pictures")
    studio = controller.stats()["studio"]
    assert studio["on"] and studio["rendition"] == "preview-240p", studio
    assert controller.visible("#take") and controller.visible("#preview-view")
    preview_width, program_width = (controller.js(f"return document.querySelector('{css}').getBoundingClientRect().width")
                                    for css in ("#preview-view", "#view"))
    assert preview_width > 2 * program_width > 0, f"the preview {preview_width} px, the program {program_width} px"

    controller.find('[data-filter="sepia"]').click()
    controller.wait_state(lambda s: first(s.get("preview"))["name"] == "sepia", message="sepia in the preview")
    controller.wait_for(lambda: sepia_share(controller, "#preview-view") > 0.95, message="the preview drawn in sepia")
    assert sepia_share(controller, "#view") < 0.8 and sepia_share(viewer, "#view") < 0.8, "the program is not sepia"
    set_slider(controller, "#param-sepia-intensity", 0.3)
    controller.wait_state(lambda s: abs(first(s["preview"])["params"]["intensity"] - 0.3) < 1e-6, message="the slider")
    assert all(m.get("to") == "preview" for m in controller.sent("setFilter") + controller.sent("setParams"))
    assert controller.state()["filter"]["name"] == "none", "nothing went on air"
    assert viewer.state()["filter"]["name"] == "none" and "preview" not in viewer.state()

    press(controller, "t")  # a button clicked gives the focus back: the key goes to the page
    for page in (controller, viewer):
        page.wait_state(lambda s: s["filter"]["name"] == "sepia" and abs(s["filter"]["params"]["intensity"] - 0.3) < 1e-6,
                        message="the take on air")
    assert controller.sent("take"), "key t sent take"
    assert "preview" not in viewer.state()
    assert not viewer.sent("watch") or all("preview" not in m.get("rendition", "") for m in viewer.sent("watch"))
    assert viewer.stats()["studio"]["previewFrames"] == 0

    controller.find("#studio").click()
    controller.wait_for(lambda: not controller.visible("#take"), message="studio mode off")
    studio = controller.stats()["studio"]
    assert not studio["on"] and studio["rendition"] == "" and not controller.visible("#preview-view"), studio
    assert controller.state()["filter"]["name"] == "sepia" and controller.find("#current-filter").text == "Sepia"
