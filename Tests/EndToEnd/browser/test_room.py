"""The review room in the page (issue 40, items 1–3): the name is asked once (a `?name=` in the
page's address is taken), #people lists one entry per person (the page's second connection, the
compare view's, is not a second person), a change made in one page shows in the other's
#activity, and one page's laser pointer is drawn in the other as a labelled dot. The server's
rules are the Swift and end-to-end tests' (test_e2e_room.py)."""

from __future__ import annotations

from selenium.webdriver.common.action_chains import ActionChains


def people(page) -> list[str]:
    # One script, one read: #people is rebuilt on every state (twice a second on a live source), so
    # elements found in one WebDriver call may be gone (stale) by the next one's `.text`.
    return page.js("return [...document.querySelectorAll('#people li')].map(li => li.textContent)")


# Watches, in the page, for the first drawn dot and in that same task reads the pointer and counts
# the dot's red pixels (into window.__firstDot): the dot fades over 2.5 s (opaque enough to count for
# ~1.5 s), so reads in later round trips could find it faded or gone on a busy machine. Installed
# before the pointer moves, so that no dot can come and go unseen.
WATCH_FIRST_DOT = """
    window.__firstDot = null;
    const room = window.filtercast.room;
    const look = () => {
      if (room.drawnDots >= 1) window.__firstDot = {pointer: [...room.pointers.values()][0] || null, red: (%s)()};
      else requestAnimationFrame(look);
    };
    requestAnimationFrame(look);"""


def red_pixels_script() -> str:
    return """() => {
        const layer = document.getElementById('laser-layer');
        if (!layer.width || !layer.height) return 0;
        const data = layer.getContext('2d').getImageData(0, 0, layer.width, layer.height).data;
        let count = 0;
        for (let i = 0; i < data.length; i += 4) if (data[i] > 200 && data[i + 1] < 90 && data[i + 3] > 100) count++;
        return count;
    }"""


def red_pixels(page) -> int:
    """The laser layer's pixels that are the dot's red."""
    return page.js(f"return ({red_pixels_script()})()")


def test_names_people_activity_and_a_laser_dot_seen_in_another_page(launch, open_page):
    server = launch("--input", "test:320x240@30")
    ana = open_page(server, path="?name=Ana")
    assert not ana.visible("#name-form"), "a name in the address is not asked again"
    bob = open_page(server, second=True)
    bob.wait_for(lambda: bob.visible("#name-form"), message="the name asked")
    bob.find("#name-input").send_keys("Bob")
    bob.find("#name-submit").click()
    bob.wait_for(lambda: not bob.visible("#name-form"), message="the name taken")
    # The report's read is lazy (a callable): made at the timeout, not eagerly outside the retry.
    bob.wait_for(lambda: people(bob) == ["Ana", "Bob (you)"], message=lambda: f"the people: {people(bob)}")
    ana.wait_for(lambda: people(ana) == ["Ana (you)", "Bob"], message=lambda: f"the people: {people(ana)}")

    # Ana's compare view opens a second connection: still one person, counted once.
    ana.choose_filter("invert")
    ana.find("#compare").click()
    ana.wait_for(lambda: ana.stats()["compare"]["pairsDrawn"] >= 2, message="the compare view")
    viewers, listed = ana.state()["viewers"], people(ana)
    assert viewers == 2 and listed == ["Ana (you)", "Bob"], (viewers, listed)
    ana.find("#compare").click()
    bob.wait_for(lambda: "Ana switched the look to invert" in bob.text("#activity"), message="Ana's change in Bob's activity")

    bob.js(WATCH_FIRST_DOT % red_pixels_script())
    ana.find("#laser").click()
    view = ana.find("#view")
    ActionChains(ana.driver, duration=0).move_to_element_with_offset(view, 20, 10).pause(0.1) \
        .move_by_offset(5, 5).perform()
    first = bob.wait_for(lambda: bob.js("return window.__firstDot"), message="Ana's dot drawn in Bob's page")
    pointer = first["pointer"]
    assert pointer and pointer["name"] == "Ana" and 0.5 < pointer["x"] < 0.7 and 0.5 < pointer["y"] < 0.7, pointer
    assert first["red"] > 50, "the dot is on the layer over the picture"
    bob.wait_for(lambda: red_pixels(bob) == 0, timeout=6, message="the dot fades away")
