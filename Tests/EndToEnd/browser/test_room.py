"""The review room in the page (issue 40, items 1–3): the name is asked once (a `?name=` in the
page's address is taken), #people lists one entry per person (the page's second connection, the
compare view's, is not a second person), a change made in one page shows in the other's
#activity, and one page's laser pointer is drawn in the other as a labelled dot. The server's
rules are the Swift and end-to-end tests' (test_e2e_room.py)."""

from __future__ import annotations

from selenium.webdriver.common.action_chains import ActionChains


def people(page) -> list[str]:
    return [item.text for item in page.find_all("#people li")]


def red_pixels(page) -> int:
    """The laser layer's pixels that are the dot's red."""
    return page.js("""
        const layer = document.getElementById('laser-layer');
        if (!layer.width || !layer.height) return 0;
        const data = layer.getContext('2d').getImageData(0, 0, layer.width, layer.height).data;
        let count = 0;
        for (let i = 0; i < data.length; i += 4) if (data[i] > 200 && data[i + 1] < 90 && data[i + 3] > 100) count++;
        return count;""")


def test_names_people_activity_and_a_laser_dot_seen_in_another_page(launch, open_page):
    server = launch("--input", "test:320x240@30")
    ana = open_page(server, path="?name=Ana")
    assert not ana.visible("#name-form"), "a name in the address is not asked again"
    bob = open_page(server, second=True)
    bob.wait_for(lambda: bob.visible("#name-form"), message="the name asked")
    bob.find("#name-input").send_keys("Bob")
    bob.find("#name-submit").click()
    bob.wait_for(lambda: not bob.visible("#name-form"), message="the name taken")
    bob.wait_for(lambda: people(bob) == ["Ana", "Bob (you)"], message=f"the people: {people(bob)}")
    ana.wait_for(lambda: people(ana) == ["Ana (you)", "Bob"], message=f"the people: {people(ana)}")

    # Ana's compare view opens a second connection: still one person, counted once.
    ana.choose_filter("invert")
    ana.find("#compare").click()
    ana.wait_for(lambda: ana.stats()["compare"]["pairsDrawn"] >= 2, message="the compare view")
    assert ana.state()["viewers"] == 2 and people(ana) == ["Ana (you)", "Bob"], (ana.state()["viewers"], people(ana))
    ana.find("#compare").click()
    bob.wait_for(lambda: "Ana switched the look to invert" in bob.text("#activity"), message="Ana's change in Bob's activity")

    ana.find("#laser").click()
    view = ana.find("#view")
    ActionChains(ana.driver, duration=0).move_to_element_with_offset(view, 20, 10).pause(0.1) \
        .move_by_offset(5, 5).perform()
    bob.wait_for(lambda: bob.js("return window.filtercast.room.drawnDots") >= 1, message="Ana's dot drawn in Bob's page")
    pointer = bob.js("return [...window.filtercast.room.pointers.values()][0]")
    assert pointer["name"] == "Ana" and 0.5 < pointer["x"] < 0.7 and 0.5 < pointer["y"] < 0.7, pointer
    assert red_pixels(bob) > 50, "the dot is on the layer over the picture"
    bob.wait_for(lambda: red_pixels(bob) == 0, timeout=6, message="the dot fades away")
