"""Delivery over a shaped link (issue 14): server and headless Chromium in a network namespace of
the test's own whose loopback `tc tbf` shapes to 700 kbit/s. A page that lets the server choose is
moved down to a rendition the link carries and keeps its frame rate; H.264 then climbs back to
full size once the link widens. Needs root (CI runs as root); skipped, saying why, where
namespaces are refused.

The clip is the test pattern with heavy noise: camera-like in what it costs to encode (x264 spends
its whole cap on it), made in a few seconds."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
from delivery import Link, measure_recovery, measure_row, shaped_links_refusal  # noqa: E402
from delivery import noisy_clip as make_noisy_clip  # noqa: E402

pytestmark = pytest.mark.solo  # rates over shaped links: run alone


@pytest.fixture(scope="module")
def noisy_clip(tmp_path_factory) -> Path:
    return make_noisy_clip(tmp_path_factory.mktemp("shaped"))


@pytest.fixture(scope="module")
def namespaces():
    refusal = shaped_links_refusal()
    if refusal:
        pytest.skip(refusal)


def binary() -> str:
    return os.environ.get("FILTERCAST_BIN", str(Path(__file__).resolve().parents[2] / ".build/debug/filtercast"))


# The 640x360 clip's ladder: JPEG at 360 and 180 lines; H.264 at 360 (capped at 1.0 Mbit/s) and
# 180 (0.4 Mbit/s). Over 700 kbit/s only the smaller ones fit.
@pytest.mark.parametrize("transport, fps", [("auto", 18), pytest.param("jpeg", 3, marks=pytest.mark.bench)])
def test_a_narrow_link_gets_a_smaller_rendition(namespaces, noisy_clip, transport, fps):
    row = measure_row(binary(), noisy_clip, Link("700 kbit/s", "700kbit"), transport, "none", settle=6, seconds=6)
    assert row.error is None and row.skipped is None, row.error or row.skipped
    assert tuple(row.sizes[-1]) == (320, 180), f"drawn {row.sizes}"
    assert row.fps >= fps, f"{row.fps:.1f} fps over the 700 kbit/s link"
    if transport == "auto":
        assert set(row.transports) == {"h264"}
        assert row.latency(0.5) < 100, f"send→draw p50 {row.latency(0.5):.0f} ms"


@pytest.mark.bench
def test_h264_climbs_back_when_the_link_widens(namespaces, noisy_clip):
    recovery = measure_recovery(binary(), noisy_clip, "auto", "none", slow="700kbit", fast="50mbit",
                                slow_seconds=8, timeout=12)
    assert recovery.error is None, recovery.error
    assert recovery.slow_size == (320, 180), f"not moved down on the slow link: {recovery.slow_size}"
    assert recovery.seconds is not None, "never back to full size within 12 s"
