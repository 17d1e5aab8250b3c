"""TLS built in: `--tls-cert`/`--tls-key` serve HTTPS and WSS on the one port (lws' OpenSSL).

Certificates are made in the test with the `openssl` CLI (Debian package `openssl`). Clients
verify the server against the generated certificate itself (it is its own CA), so a wrong
certificate, name or protocol fails the test rather than being waved through."""

from __future__ import annotations

import json
import socket
import ssl
import subprocess
import time

import pytest

from fc_client import Client, is_complete_jpeg, handshake_status, run
from fc_server import KeyPair, binary_path, child_environment, make_certificate

TEST_PATTERN = "test:320x240@30"


def verifying(pair: KeyPair) -> ssl.SSLContext:
    """`pair`'s client context, offering h2 and HTTP/1.1 by ALPN as browsers do."""
    context = pair.client_context()
    context.set_alpn_protocols(["h2", "http/1.1"])
    return context


@pytest.fixture(scope="module")
def pair(tmp_path_factory) -> KeyPair:
    return make_certificate(tmp_path_factory.mktemp("tls"), "server", "localhost", "127.0.0.1")


@pytest.fixture
def tls_server(start_server, pair):
    server = start_server("--input", TEST_PATTERN, *pair.args)
    server.ssl_context = verifying(pair)
    return server


# -- serving --------------------------------------------------------------------------------------


def test_the_ready_line_names_the_https_url_in_text_and_json(start_server, pair):
    text = start_server("--input", TEST_PATTERN, *pair.args)
    assert text.scheme == "https" and text.stdout_lines[0].endswith(f"at https://127.0.0.1:{text.port}/"), \
        text.stdout_lines
    as_json = start_server("--input", TEST_PATTERN, "--log-format", "json", *pair.args)
    ready = json.loads(as_json.stdout_lines[-1])
    assert ready["url"] == f"https://127.0.0.1:{as_json.port}/", ready


def test_the_page_and_healthz_over_https_verified_against_the_certificate(tls_server, web_root):
    page = tls_server.get("/")
    assert page.status == 200 and "E2E-INDEX" in page.text(), page
    health = tls_server.get("/healthz")
    assert health.status == 200 and health.body == b"ok\n"
    snapshot = tls_server.get("/snapshot.jpg")
    assert snapshot.status == 200 and is_complete_jpeg(snapshot.body)
    # Offered h2 and HTTP/1.1, the server picks HTTP/1.1 (its transport is made for it), TLS ≥ 1.2.
    with socket.create_connection((tls_server.host, tls_server.port), timeout=5) as plain:
        with tls_server.ssl_context.wrap_socket(plain, server_hostname="localhost") as sock:
            assert sock.selected_alpn_protocol() == "http/1.1"
            assert sock.version() in ("TLSv1.2", "TLSv1.3"), sock.version()


def test_a_wss_viewer_gets_hello_and_frames_and_a_same_origin_page_is_admitted(tls_server):
    async def scenario():
        for origin in (None, tls_server.origin):  # a tool, and the page on https://127.0.0.1:PORT
            async with await Client.connect(tls_server.ws_url(), origin=origin, ssl=tls_server.ssl_context) as client:
                assert client.hello["type"] == "hello"
                frames = await client.frames(3, timeout=10)
                assert all(is_complete_jpeg(frame.jpeg) for frame in frames)
    run(scenario(), timeout=30)
    assert tls_server.origin.startswith("https://")
    foreign = handshake_status(tls_server.host, tls_server.port, headers={"Origin": "https://evil.example"},
                               ssl_context=tls_server.ssl_context)
    assert foreign == 403


def test_plain_http_on_the_tls_port_is_redirected_to_https(tls_server):
    answer = tls_server.raw_request(b"GET /healthz HTTP/1.1\r\nHost: cast.lan:8443\r\n\r\n")
    head = answer.split(b"\r\n\r\n", 1)[0].decode("latin-1").lower()
    assert head.startswith("http/1.1 301"), head
    # lws redirects to the site's root on the same host and port (the path is not kept).
    assert "\r\nlocation: https://cast.lan:8443/\r\n" in head + "\r\n", head
    assert b"ok\n" not in answer.split(b"\r\n\r\n", 1)[-1], "nothing is served in plain text"


def test_a_plain_ws_upgrade_on_the_tls_port_is_refused(tls_server):
    assert handshake_status(tls_server.host, tls_server.port) == 403
    deadline = time.monotonic() + 3
    while "ws:// on the TLS port" not in tls_server.stderr_text() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert "client refused: ws:// on the TLS port (use wss://)" in tls_server.stderr_text()


def test_the_environment_variables_turn_tls_on(start_server, pair):
    server = start_server("--input", TEST_PATTERN, env={"FILTERCAST_TLS_CERT": str(pair.certificate),
                                                        "FILTERCAST_TLS_KEY": str(pair.key)})
    server.ssl_context = verifying(pair)
    assert server.scheme == "https" and server.get("/healthz").status == 200
    assert "unknown environment variable" not in server.stderr_text()


# -- refusals -------------------------------------------------------------------------------------


def start_error(*args: str, env: dict | None = None) -> tuple[int, list[str], str]:
    """Runs `serve` expecting it to stop at start: (exit code, stderr lines, stdout)."""
    result = subprocess.run([binary_path(), "serve", "--port", "0", "--input", "test:160x120@10", *args],
                            env=child_environment(env), capture_output=True, text=True, timeout=30,
                            stdin=subprocess.DEVNULL)
    return result.returncode, result.stderr.splitlines(), result.stdout


@pytest.fixture(scope="module")
def bad_files(tmp_path_factory, pair) -> dict:
    folder = tmp_path_factory.mktemp("bad-tls")
    other = make_certificate(folder, "other", "other.example")
    (folder / "notes.txt").write_text("not a certificate\n")
    encrypted = folder / "encrypted.key"
    subprocess.run(["openssl", "pkey", "-in", str(pair.key), "-aes256", "-passout", "pass:secret", "-out", str(encrypted)],
                   check=True, capture_output=True, timeout=30)
    damaged = folder / "damaged.crt"
    damaged.write_text("-----BEGIN CERTIFICATE-----\nAAAAnot-base64!\n-----END CERTIFICATE-----\n")
    return {"missing": folder / "missing.pem", "notes": folder / "notes.txt", "other_key": other.key,
            "encrypted": encrypted, "damaged": damaged}


# (which file is bad → the arguments, the file the line names, and words it must contain)
BAD_FILES = {
    "missing certificate": (lambda p, b: [b["missing"], p.key], "missing", ["cannot be read", "no such file"]),
    "missing key": (lambda p, b: [p.certificate, b["missing"]], "missing", ["private key", "no such file"]),
    "certificate not PEM": (lambda p, b: [b["notes"], p.key], "notes", ["not a PEM certificate"]),
    "key not PEM": (lambda p, b: [p.certificate, b["notes"]], "notes", ["not a PEM private key"]),
    "swapped": (lambda p, b: [p.key, p.certificate], "key", ["holds a private key", "swapped"]),
    "key of another certificate": (lambda p, b: [p.certificate, b["other_key"]], "other_key",
                                   ["does not match the certificate"]),
    "encrypted key": (lambda p, b: [p.certificate, b["encrypted"]], "encrypted", ["encrypted", "passphrase"]),
    "damaged certificate": (lambda p, b: [b["damaged"], p.key], "damaged", ["damaged", "OpenSSL"]),
}


@pytest.mark.parametrize("case", list(BAD_FILES))
def test_a_bad_certificate_or_key_is_one_line_and_exit_code_1(case, pair, bad_files):
    files, named, words = BAD_FILES[case]
    certificate, key = files(pair, bad_files)
    code, lines, stdout = start_error("--tls-cert", str(certificate), "--tls-key", str(key))
    assert code == 1 and len(lines) == 1, (case, code, lines)
    path = str(pair.key) if named == "key" else str(bad_files[named])
    assert path in lines[0], (case, lines)
    for word in words:
        assert word in lines[0], (case, word, lines)
    assert "libwebsockets" not in lines[0] and not stdout, (case, lines, stdout)


def test_one_file_without_the_other_is_a_usage_error_naming_the_missing_flag(pair):
    for args, env, missing in ((["--tls-cert", str(pair.certificate)], None, "--tls-key"),
                               (["--tls-key", str(pair.key)], None, "--tls-cert"),
                               ([], {"FILTERCAST_TLS_CERT": str(pair.certificate)}, "--tls-key")):
        code, lines, _ = start_error(*args, env=env)
        assert code == 2 and len(lines) == 1 and f"needs {missing}" in lines[0], (args, env, lines)
