"""Tests of bench/delivery.py's own parts (no server, browser or namespace, no timing; the ffmpeg CLI
makes and decodes one tiny clip):

    /usr/bin/python3 -m pytest -q bench/test_delivery.py
"""
from __future__ import annotations

import numpy as np
import pytest

from delivery import (GOALS, ROW_HEADER, Goal, Link, LINKS, Row, StreamQuality, _sizes, _window_means,
                      binary_in_namespace, decoded_lumas, format_table, frame_index, full_range_luma, goal_for,
                      in_namespace, largest_rendition, metric, namespace_name, namespace_pid, namespace_setup,
                      quality_verdict, row_cells, ssim, verdict)
from fc_server import make_clip
from natural_clip import clip_name, ffmpeg_command

SHAPED = LINKS["10mbit"]


def row(link: Link = SHAPED, transport: str = "jpeg", *, fps: float = 25, latencies=(10.0,) * 20,
        size=(1280, 720)) -> Row:
    return Row(link, transport, seconds=10, frames=round(fps * 10), latencies=list(latencies),
               sizes=[size] * 10, full_size=(1280, 720))


# -- the link -----------------------------------------------------------------------------------

def test_the_namespace_is_ours_its_lo_stays_at_mtu_1500_and_is_shaped_by_tbf():
    name = namespace_name(4242)
    assert name == "fcbench-4242" and namespace_pid(name) == 4242
    assert namespace_pid("someone-elses") is None and namespace_pid("fcbench-12x") is None
    add, lo, tbf = namespace_setup(name, "3mbit")
    assert add == ["ip", "netns", "add", name]
    assert lo == ["ip", "netns", "exec", name, "ip", "link", "set", "lo", "mtu", "1500", "up"]
    assert tbf == in_namespace(name, ["tc", "qdisc", "add", "dev", "lo", "root", "tbf", "rate", "3mbit",
                                      "burst", "256kb", "latency", "100ms"])


def test_the_server_script_execs_the_binary_in_the_namespace(tmp_path):
    script = binary_in_namespace("fcbench-1", "/opt/fc dir/filtercast", str(tmp_path))
    assert open(script).read().splitlines() == [
        "#!/bin/sh", "exec ip netns exec fcbench-1 '/opt/fc dir/filtercast' \"$@\""]


# -- goals --------------------------------------------------------------------------------------

def test_every_link_has_a_goal_for_auto_and_jpeg_and_h264_is_judged_as_auto():
    assert {(link.rate, transport) for link in LINKS.values() for transport in ("auto", "jpeg")} == set(GOALS)
    assert goal_for(row(transport="h264")) == goal_for(row(transport="auto")) == Goal(24, True, 60)


def test_a_row_passes_or_fails_with_what_it_missed():
    assert verdict(row()) == "PASS"  # 10 Mbit/s JPEG: ≥ 20 fps, any size, p95 ≤ 150 ms
    assert verdict(row(size=(640, 360))) == "PASS"
    assert verdict(row(fps=8.4, latencies=[120.0] * 19 + [400.0])) == "FAIL (8.4 fps)"
    assert verdict(row(latencies=[160.0] * 20)) == "FAIL (p95 160 ms)"
    assert verdict(row(transport="auto", size=(640, 360))) == "FAIL (not full size)"
    assert verdict(row(LINKS["loopback"], latencies=[])) == "PASS"  # loopback JPEG: latency not judged
    assert verdict(row(LINKS["loopback"], "auto", latencies=[])) == "FAIL (no latency)"
    assert verdict(Row(SHAPED, "jpeg", skipped="not root")) == "SKIPPED"


def test_goals_read_as_the_issue_writes_them():
    assert GOALS[(None, "auto")].describe() == "≥ 24 fps, full size, p95 ≤ 30 ms"
    assert GOALS[("3mbit", "jpeg")].describe() == "≥ 15 fps, p95 ≤ 200 ms"


def test_the_quality_goal_wants_a_fifth_of_the_bits_at_an_ssim_within_a_hundredth():
    jpeg = StreamQuality("jpeg", 10, 250, 220_000_000, 0.982, 250)
    assert quality_verdict(jpeg, "the server does not give h264").startswith("PENDING")
    assert quality_verdict(jpeg, StreamQuality("h264", 10, 250, 34_000_000, 0.975, 250)) == "PASS"
    assert quality_verdict(jpeg, StreamQuality("h264", 10, 250, 50_000_000, 0.970, 250)) == \
        "FAIL (H.264 4.4× fewer bits, not 5×, SSIM 0.970 vs 0.982)"


# -- the table ----------------------------------------------------------------------------------

def test_the_table_aligns_numbers_right_and_words_left():
    assert format_table(("link", "fps"), [("loopback", "25.0"), ("3 Mbit/s", "2.5")]).splitlines() == [
        "link       fps",
        "--------  ----",
        "loopback  25.0",
        "3 Mbit/s   2.5"]


def test_every_row_has_a_cell_under_every_heading():
    measured = row_cells(row())
    assert len(measured) == len(row_cells(Row(SHAPED, "jpeg", skipped="not root"))) == len(ROW_HEADER)
    assert measured[ROW_HEADER.index("fps")] == "25.0" and measured[ROW_HEADER.index("drawn")] == "n/a"


def test_sizes_are_listed_most_frequent_first():
    assert _sizes([(640, 360), (1280, 720), (1280, 720)]) == "1280x720/640x360"
    assert _sizes([]) == "n/a"


def test_a_metric_is_read_from_the_exposition():
    text = ("# HELP filtercast_bytes_sent_total …\n# TYPE filtercast_bytes_sent_total counter\n"
            "filtercast_bytes_sent_total 3481172\nfiltercast_frames_dropped_total{reason=\"slow_client\"} 7\n")
    assert metric(text, "filtercast_bytes_sent_total") == 3481172
    assert metric(text, 'filtercast_frames_dropped_total{reason="slow_client"}') == 7
    assert metric(text, "filtercast_viewers") is None


# -- quality ------------------------------------------------------------------------------------

def test_window_means_are_the_means_of_every_square():
    plane = np.arange(30, dtype=np.float64).reshape(5, 6) ** 1.5
    means = _window_means(plane, 3)
    assert means.shape == (3, 4)
    assert means[1, 2] == pytest.approx(plane[1:4, 2:5].mean())


def test_ssim_is_one_for_the_same_plane_and_falls_with_noise():
    rng = np.random.default_rng(1)
    plane = rng.integers(0, 256, (64, 80)).astype(np.float64)
    assert ssim(plane, plane) == pytest.approx(1.0)
    slightly, badly = (np.clip(plane + rng.normal(0, sigma, plane.shape), 0, 255) for sigma in (4, 40))
    assert 1.0 > ssim(plane, slightly) > ssim(plane, badly) > 0


def test_luma_is_expanded_to_full_range_and_frames_are_found_by_their_time():
    assert full_range_luma(np.array([0, 16, 235, 255], np.uint8)).tolist() == [0, 0, 255, 255]
    assert [frame_index(pts) for pts in (0, 40_000, 39_990, 1_000_000)] == [0, 1, 1, 25]


def test_the_clip_recipe_reads_the_opencv_files_and_names_its_cache_entry_by_a_hash(tmp_path):
    command = ffmpeg_command(tmp_path, tmp_path / "out.mp4")
    assert str(tmp_path / "aloeL.jpg") in command and str(tmp_path / "Megamind.avi") in command
    assert command[-1] == str(tmp_path / "out.mp4")
    assert clip_name().startswith("natural720-") and clip_name() == clip_name()


def test_a_row_that_broke_off_fails_with_its_error_alone():
    broken = Row(SHAPED, "jpeg", error="the page drew no frame within 30 s")
    assert verdict(broken) == "FAIL (error: the page drew no frame within 30 s)"


def test_decoded_pictures_come_one_per_frame_in_full_range(tmp_path):
    clip = make_clip(tmp_path / "grey.mp4", "color=c=black:size=64x48:rate=25", 0.4)
    pictures = list(decoded_lumas(clip, 64, 48))
    assert [index for index, _ in pictures] == list(range(10))
    assert pictures[0][1].shape == (48, 64) and pictures[0][1].max() < 3  # limited-range black is 0
    assert [index for index, _ in decoded_lumas(clip, 64, 48, wanted={2, 5})] == [2, 5]


def test_the_quality_row_pins_the_largest_rendition_of_its_transport():
    hello = {"renditions": [{"id": "jpeg-720p", "transport": "jpeg", "width": 1280, "height": 720},
                            {"id": "h264-360p", "transport": "h264", "width": 640, "height": 360},
                            {"id": "h264-720p", "transport": "h264", "width": 1280, "height": 720}]}
    assert largest_rendition(hello, "h264") == "h264-720p"
    assert largest_rendition({}, "h264") is None
