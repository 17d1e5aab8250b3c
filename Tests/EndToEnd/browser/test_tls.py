"""The page over HTTPS (`--tls-cert`/`--tls-key`) in a real Chromium: it connects with wss: by
itself and draws frames, plain http:// to the TLS port lands on the https page, and under a host
name other than loopback's own only https makes the page a secure context (where WebCodecs'
`VideoDecoder`, which H.264 in the page needs, exists).

This Chromium trusts the test's self-signed certificate by its public key
(`--ignore-certificate-errors-spki-list`: that key only, as if the user had trusted it) and
resolves HOST to 127.0.0.1 itself (`--host-resolver-rules`), so no /etc/hosts entry is needed."""

from __future__ import annotations

import subprocess

import pytest

from browser_support import BrowserPool, Page, reset_browser
from fc_server import KeyPair, make_certificate

HOST = "filtercast.test"
PATTERN = "test:640x360@30"


def spki_hash(pair: KeyPair) -> str:
    """Base64 of the SHA-256 of the certificate's public key (SubjectPublicKeyInfo), as Chromium pins it."""
    script = (f"openssl x509 -in '{pair.certificate}' -pubkey -noout | openssl pkey -pubin -outform der"
              " | openssl dgst -sha256 -binary | base64")
    return subprocess.run(["sh", "-c", script], check=True, capture_output=True, text=True, timeout=30).stdout.strip()


@pytest.fixture(scope="module")
def pair(tmp_path_factory) -> KeyPair:
    return make_certificate(tmp_path_factory.mktemp("tls-page"), "page", HOST, "127.0.0.1")


@pytest.fixture(scope="module")
def driver(pair):
    pool = BrowserPool(f"--ignore-certificate-errors-spki-list={spki_hash(pair)}",
                       f"--host-resolver-rules=MAP {HOST} 127.0.0.1")
    yield pool.get(0)
    pool.close()


def open_at(driver, server, url: str) -> Page:
    """Loads `url` (the page of `server`, by whatever name) and waits for a drawn frame."""
    reset_browser(driver)
    page = Page(driver, server)
    driver.get(url)
    page.wait_for(lambda: (s := page.stats()) and s["connected"] and s["framesDrawn"] > 0, 15,
                  f"the page at {url} to connect and draw a frame")
    return page


def secure_context(page: Page) -> dict:
    return page.js("return {secure: window.isSecureContext, videoDecoder: 'VideoDecoder' in window,"
                   " href: location.href}")


def test_the_page_over_https_connects_with_wss_and_draws_frames(launch, driver, pair):
    server = launch("--input", PATTERN, *pair.args)
    assert server.scheme == "https"
    page = open_at(driver, server, server.url)
    page.wait_frames(10)
    assert page.js("return window.__fc.socket.url").startswith(f"wss://127.0.0.1:{server.port}/ws")
    assert not page.errors(), page.errors()


def test_a_lan_host_name_is_a_secure_context_over_https_and_not_over_http(launch, driver, pair):
    tls = launch("--input", PATTERN, *pair.args)
    page = open_at(driver, tls, f"https://{HOST}:{tls.port}/")
    page.wait_frames(5)
    assert secure_context(page) == {"secure": True, "videoDecoder": True, "href": f"https://{HOST}:{tls.port}/"}
    assert not page.errors(), page.errors()

    plain = launch("--input", PATTERN)
    page = open_at(driver, plain, f"http://{HOST}:{plain.port}/")
    assert secure_context(page) == {"secure": False, "videoDecoder": False, "href": f"http://{HOST}:{plain.port}/"}


def test_http_to_the_tls_port_lands_on_the_https_page(launch, driver, pair):
    server = launch("--input", PATTERN, *pair.args)
    page = open_at(driver, server, f"http://{HOST}:{server.port}/")
    assert page.js("return location.href") == f"https://{HOST}:{server.port}/"
    page.wait_frames(5)
    assert not page.errors(), page.errors()
