"""The page takes what the server defines from `hello` (docs/PROTOCOL.md): the longest chain
(`maxChainLength`), the category headings (`categories`) and the error names (`errors`). The
real server's hello is changed in the browser, before the page reads it, to values that no page
could have written down itself: a page that restated the server's values would show those.
"""

from __future__ import annotations

import json

import pytest

# The page's WebSocket handlers are set as `onmessage`: wrap the setter so that `hello` reaches
# the page with these keys merged in (a fresh MessageEvent, the original is read-only).
CHANGED = {"maxChainLength": 2, "categories": {"colorEffect": "Tints and tones"},
           "errors": {"out_of_range": "Beyond the range"}}
CHANGE_HELLO = r"""
(() => {
  const changed = %s;
  const property = Object.getOwnPropertyDescriptor(WebSocket.prototype, "onmessage");
  Object.defineProperty(WebSocket.prototype, "onmessage", {
    configurable: true,
    get: property.get,
    set(listener) {
      property.set.call(this, (event) => {
        if (typeof event.data !== "string") return listener(event);
        const message = JSON.parse(event.data);
        if (message.type !== "hello") return listener(event);
        message.maxChainLength = changed.maxChainLength;
        Object.assign(message.categories, changed.categories);
        Object.assign(message.errors, changed.errors);
        return listener(new MessageEvent("message", { data: JSON.stringify(message) }));
      });
    },
  });
})();
""" % json.dumps(CHANGED)


@pytest.fixture
def changed_hello(browsers):
    """The first browser, with every hello changed as CHANGED says (until the test ends)."""
    driver = browsers.get(0)
    script = driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": CHANGE_HELLO})
    yield
    driver.execute_cdp_cmd("Page.removeScriptToEvaluateOnNewDocument", {"identifier": script["identifier"]})


def test_the_page_takes_limits_and_names_from_hello(changed_hello, file_server, open_page):
    page = open_page(file_server)
    heading = page.js("""return document.querySelector('.filter-group[data-category="colorEffect"] .filter-group-title')
                         .textContent""")
    assert heading == "Tints and tones"
    # The other headings are the server's own.
    assert page.js("""return document.querySelector('.filter-group[data-category="blur"] .filter-group-title')
                      .textContent""") == "Blur"

    page.choose_filter("sepia")
    page.find("#chain-add").click()
    page.wait_state(lambda s: [link["name"] for link in s["chain"]] == ["sepia", "sepia"], message="two links")
    page.wait_for(lambda: page.find("#chain-add").get_attribute("disabled") is not None,
                  message="+ disabled at hello's maxChainLength")
    assert "at most 2 filters" in page.find("#chain-add").get_attribute("title")

    page.raw_send('{"type": "seek", "position": -1}')
    page.wait_for(lambda: page.visible("#toast"), message="a toast")
    assert page.text("#toast").startswith("Beyond the range: "), page.text("#toast")
