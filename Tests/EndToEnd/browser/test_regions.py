"""Person and background on the page (issue 41): each chain chip's region picker sends the link's
region (and the chip shows what the server says; no picker where the server has no person matte),
and a picture dropped on backgroundReplace's background picker is uploaded, then chosen for the link."""

from __future__ import annotations

from browser_support import drop_file

def test_a_chip_picks_its_region_and_a_dropped_picture_becomes_the_background(file_server, open_page, tmp_path, artifacts):
    from selenium.webdriver.support.select import Select
    page = open_page(file_server)
    page.pause()
    page.choose_filter("sepia")
    picker = Select(page.find('#chain .link-region[data-link-region="0"]'))
    assert [option.get_attribute("value") for option in picker.options] == ["all", "person", "background"]
    assert picker.first_selected_option.get_attribute("value") == "all"
    picker.select_by_value("background")
    page.wait_state(lambda s: s["chain"] == [{"name": "sepia", "params": {"intensity": 1}, "region": "background"}],
                    message="sepia on the background for everybody")
    page.wait_for(lambda: page.find('#chain .link-region').get_attribute("value") == "background",
                  message="the chip shows the link's region")
    # Another filter for the link keeps its region.
    page.find('[data-filter="backgroundReplace"]').click()
    page.wait_state(lambda s: s["chain"][0]["name"] == "backgroundReplace" and s["chain"][0].get("region") == "background",
                    message="backgroundReplace on the background")
    assert drop_file(page, "#params .choices", "/styles/style-3.jpg", "My Wall.jpg"), \
        "the background picker takes the drop (no video upload)"
    state = page.wait_state(lambda s: s["chain"][0].get("choices") == {"background": "my-wall"}, timeout=20,
                            message="the dropped picture uploaded, then chosen")
    assert state["chain"][0]["region"] == "background"
    assert [p.name for p in (tmp_path / "backgrounds").iterdir()] == ["my-wall.jpg"]
    page.wait_for(lambda: page.find('#params [data-choice="my-wall"]').get_attribute("aria-pressed") == "true",
                  message="the new background is shown chosen")
    page.screenshot(artifacts / "region-picker.png")


def test_without_the_person_matte_the_chips_have_no_region_picker(launch, test_clip, open_page, tmp_path):
    empty = tmp_path / "no-openvino"
    empty.mkdir()
    server = launch("--input", test_clip.name, cwd=test_clip.parent, env={"FILTERCAST_OPENVINO": str(empty)})
    page = open_page(server)
    page.choose_filter("sepia")
    page.wait_for(lambda: page.find_all("#chain .link-select"), message="the chain's chip")
    assert page.find_all("#chain .link-region") == [] and page.find_all('[data-filter="backgroundReplace"]') == []
