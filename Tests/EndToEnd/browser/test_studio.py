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


INSIDE = """
    const [label, picture] = [arguments[0], arguments[1]].map(css => document.querySelector(css).getBoundingClientRect());
    return label.width > 0 && label.left >= picture.left - 1 && label.right <= picture.right + 1
        && label.top >= picture.top - 1 && label.bottom <= picture.bottom + 1;"""


def labelled(page, label: str, text: str, picture: str) -> bool:
    """`label` is shown with `text`, over `picture`."""
    return page.visible(label) and page.text(label).strip() == text and page.js(INSIDE, label, picture)


def one_row(page) -> bool | str:
    """The filter panel's header is one row: every control in it has its top where the others do."""
    tops = page.js("return [...document.querySelectorAll('#filter-panel > .panel-head > *')]"
                   ".filter(e => e.getBoundingClientRect().height > 0).map(e => e.getBoundingClientRect().top)")
    height = page.js("return document.querySelector('#filter-panel > .panel-head').getBoundingClientRect().height")
    return (max(tops) - min(tops) < 10 and height < 56) or f"tops {tops}, height {height}"


def test_studio_and_compare_say_what_is_what(launch, open_page, artifacts):
    """Issue 37.9: "Preview" and "On air" on the studio's two pictures, "Before" and "After" on
    the wipe and side by side; the toggle says what it does ("Studio mode", not "Preview"); the
    divider only in a wipe; "Show to all" only while there is a comparison; the filter header one
    row at 1280 px wide, a chain and studio mode on."""
    server = launch("--input", "test:320x240@30")
    page = open_page(server)
    page.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                                {"width": 1280, "height": 800, "deviceScaleFactor": 1, "mobile": False})
    page.raw_send('{"type":"setFilter","chain":[{"name":"invert"},{"name":"sepia"}]}')
    page.wait_state(lambda s: len(s["chain"]) == 2, message="a chain of two")
    page.wait_for(lambda: page.visible("#studio"), message="the studio toggle")
    assert page.text("#studio").strip() == "Studio mode", page.text("#studio")
    assert not page.visible("#compare-all"), "Show to all while nothing is compared"
    assert not any(page.visible(f"#{name}-label") for name in ("preview", "program", "before", "after"))

    page.find("#studio").click()
    page.wait_for(lambda: page.stats()["studio"]["on"], message="studio mode on")
    assert page.find("#studio").get_attribute("aria-pressed") == "true"
    page.wait_for(lambda: labelled(page, "#preview-label", "Preview", "#preview-view")
                  and labelled(page, "#program-label", "On air", "#view"), message="the studio's labels")
    assert page.wait_for(lambda: one_row(page) is True, message="the filter header on one row") is True, one_row(page)
    page.screenshot(artifacts / "studio-labels.png")
    page.find("#studio").click()
    page.wait_for(lambda: not page.stats()["studio"]["on"] and not page.visible("#preview-label")
                  and not page.visible("#program-label"), message="studio mode off, its labels gone")

    page.find("#compare").click()
    page.wait_for(lambda: page.stats()["compare"]["pairsDrawn"] >= 1, message="a pair drawn")
    page.wait_for(lambda: labelled(page, "#before-label", "Before", "#compare-view")
                  and labelled(page, "#after-label", "After", "#compare-view"), message="the wipe's labels")
    before, after = (page.js(f"return document.querySelector('{css}').getBoundingClientRect().left")
                     for css in ("#before-label", "#after-label"))
    assert before < after, "Before on the left, After on the right"
    assert page.visible("#compare-split") and page.visible("#compare-all"), "the divider and Show to all of a wipe"
    page.js("const m = document.getElementById('compare-mode'); m.value = 'side-by-side';"
            "m.dispatchEvent(new Event('change'));")
    page.wait_for(lambda: page.stats()["compare"]["mode"] == "side-by-side", message="side by side")
    assert not page.visible("#compare-split"), "no divider side by side"
    assert labelled(page, "#before-label", "Before", "#compare-view") and labelled(page, "#after-label", "After", "#compare-view")
    page.screenshot(artifacts / "compare-labels.png")
    page.find("#compare").click()
    page.wait_for(lambda: not page.visible("#compare-all") and not page.visible("#before-label"),
                  message="compare off: no Show to all, no labels")


def test_turning_studio_mode_on_again_starts_from_the_program_not_an_old_preview(launch, open_page):
    """Issue 37.9: a preview left behind when the last controller turned studio mode off came
    back minutes later; the preview starts as the program each time somebody turns studio on."""
    server = launch("--input", "test:320x240@30")
    page = open_page(server)
    page.wait_for(lambda: page.visible("#studio"), message="the Preview toggle")
    page.find("#studio").click()
    page.wait_for(lambda: page.stats()["studio"]["previewFrames"] >= 2, message="preview pictures")
    page.find('[data-filter="invert"]').click()
    page.wait_state(lambda s: first(s.get("preview"))["name"] == "invert", message="invert in the preview")
    page.find("#studio").click()
    page.wait_state(lambda s: "preview" not in s or s["preview"] is None, message="the preview forgotten once nobody is in studio")
    page.choose_filter("sepia")
    page.wait_state(lambda s: s["filter"]["name"] == "sepia", message="sepia on air")
    page.find("#studio").click()
    page.wait_state(lambda s: first(s.get("preview"))["name"] == "sepia", message="the preview starts as the program")
