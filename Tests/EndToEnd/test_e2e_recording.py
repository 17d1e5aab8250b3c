"""Recording and the library against a real server: `record` over WebSocket, the files checked
with ffprobe/ffmpeg, `kill -9` mid-recording, `open` + `seek` of a recording, downloads, and
the paths clients may not name."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import time
from pathlib import Path

import numpy as np
import pytest

from fc_client import Client, run
from fc_server import child_environment, make_clip
from test_e2e_metrics import scrape, value
from test_e2e_publish import keyframe_times

PATTERN = "test:640x360@30"


def probe(path) -> dict:
    """ffprobe's view of a file: duration (s), codec, size and the number of decodable frames."""
    out = subprocess.run([shutil.which("ffprobe"), "-v", "error", "-count_frames", "-select_streams", "v:0",
                          "-show_entries", "stream=codec_name,width,height,nb_read_frames:format=duration",
                          "-of", "json", str(path)], check=True, capture_output=True, timeout=60)
    info = json.loads(out.stdout)
    stream = info["streams"][0]
    return {"duration": float(info["format"]["duration"]), "codec": stream["codec_name"],
            "width": stream["width"], "height": stream["height"], "frames": int(stream["nb_read_frames"])}


def decode_errors(path) -> str:
    """What the decoder reports while ffprobe decodes every frame ("" when the file decodes cleanly)."""
    result = subprocess.run([shutil.which("ffprobe"), "-v", "error", "-count_frames", "-select_streams", "v:0",
                             "-show_entries", "stream=nb_read_frames", "-of", "csv", str(path)],
                            capture_output=True, timeout=60)
    assert result.returncode == 0, result.stderr
    return result.stderr.decode("utf-8", "replace")


async def wait_state(client: Client, predicate, what: str, timeout: float = 10.0) -> dict:
    deadline = time.monotonic() + timeout
    while True:
        remaining = deadline - time.monotonic()
        assert remaining > 0, f"no state where {what}"
        state = await client.next_json("state", timeout=remaining)
        if predicate(state):
            return state


def record_for(server, seconds: float, filtered: bool = True, encoder: str = "libx264") -> dict:
    """Records `seconds` over WebSocket; the `recording` state after the stop."""
    async def scenario():
        async with await Client.connect(server.ws_url()) as client:
            await client.ok({"type": "record", "action": "start", "filtered": filtered})
            started = time.monotonic()
            state = await wait_state(client, lambda s: s["recording"]["active"], "the recording runs")
            assert state["recording"]["encoder"] == encoder
            await client.next_json("state", timeout=3)
            time.sleep(max(0.0, seconds - (time.monotonic() - started)))
            await client.ok({"type": "record", "action": "stop"})
            state = await wait_state(client, lambda s: not s["recording"]["active"], "the recording stopped")
            return state["recording"]
    return run(scenario())


@pytest.mark.solo  # measures a rate or sync: run alone
def test_records_three_seconds_of_the_test_pattern(start_server, tmp_path):
    server = start_server("--input", PATTERN)
    recording = record_for(server, 3.0)
    # On a busy machine the encoder may fall behind now and then: every frame is either in the file
    # or counted as dropped (below).
    assert recording["error"] is None, recording
    path = tmp_path / "recordings" / recording["name"]
    assert path.stat().st_size == recording["bytes"] > 0
    info = probe(path)
    assert info["codec"] == "h264" and (info["width"], info["height"]) == (640, 360)
    # The file's times are the pattern's (1/30 s a frame): on a loaded machine the live pattern
    # may fall behind the wall clock, and the file is as long as the times of the frames it gave.
    assert 2.4 <= info["duration"] <= 3.2, info
    assert info["frames"] + recording["droppedFrames"] >= 72, info
    assert decode_errors(path) == ""

    listing = server.get("/api/recordings")
    assert listing.status == 200 and listing.content_type == "application/json"
    entries = json.loads(listing.body)["recordings"]
    assert [entry["name"] for entry in entries] == [recording["name"]]
    assert entries[0]["size"] == path.stat().st_size
    assert abs(entries[0]["duration"] - info["duration"]) < 0.05
    assert entries[0]["created"].endswith("Z")

    download = server.get("/recordings/" + recording["name"])
    assert download.status == 200
    assert download.content_type == "video/mp4"
    assert int(download.headers["content-length"]) == path.stat().st_size
    assert download.body == path.read_bytes()
    assert server.get("/api/recordings/" + recording["name"]).body == download.body


# A recording that shares the page's H.264 rendition (`--record-rendition`): no encoder of its own.
SHARED = ("--record-rendition", "h264-360p")


@pytest.mark.solo  # measures a rate or sync: run alone
def test_a_filtered_recording_can_share_the_pages_rendition(start_server, tmp_path):
    server = start_server("--input", PATTERN, "--filter", "invert", *SHARED)
    recording = record_for(server, 3.0, encoder="libx264 (shared: h264-360p)")
    assert recording["error"] is None, recording
    path = tmp_path / "recordings" / recording["name"]
    info = probe(path)
    assert info["codec"] == "h264" and (info["width"], info["height"]) == (640, 360)
    assert abs(info["duration"] - 3.0) <= 0.3, info
    assert info["frames"] + recording["droppedFrames"] >= 75, info
    assert decode_errors(path) == ""
    keyframes = keyframe_times(path)
    assert keyframes[0] == 0 and max(b - a for a, b in zip(keyframes, keyframes[1:])) <= 2.6, keyframes
    # Nobody watched the page: the rendition encoded for the file — the one encode there was.
    assert value(scrape(server), "filtercast_rendition_frames_encoded_total", rendition="h264-360p") >= info["frames"]
    # The source's frames are not a rendition's: an unfiltered recording has its own encoder.
    unfiltered = record_for(server, 1.5, filtered=False)
    source_path = tmp_path / "recordings" / unfiltered["name"]
    assert unfiltered["error"] is None and probe(source_path)["frames"] > 20
    # The shared file is the filtered picture: inverted, its mean is 255 less the source's.
    assert abs(frame_at(path, 1.0).mean() + frame_at(source_path, 1.0).mean() - 255) < 12


def test_a_record_rendition_the_ladder_lacks_is_refused_at_start(filtercast_bin, tmp_path):
    result = subprocess.run([filtercast_bin, "serve", "--port", "0", "--input", PATTERN, "--recordings", str(tmp_path),
                             "--record-rendition", "h264-720p"], capture_output=True, text=True, timeout=30,
                            env=child_environment())
    assert result.returncode == 1, result
    assert "--record-rendition h264-720p: no such H.264 rendition; the choices are h264-360p, h264-180p, own" \
        in result.stderr, result.stderr


def kill_when_recorded(server, seconds: float) -> dict:
    """Kills the server (SIGKILL) once its recording has run `seconds`; the `recording` state then."""
    async def elapsed_when_killed():
        async with await Client.connect(server.ws_url()) as client:
            state = await wait_state(client, lambda s: s["recording"]["elapsed"] >= seconds, f"{seconds} s are recorded")
            server.proc.send_signal(signal.SIGKILL)
            return state["recording"]
    recording = run(elapsed_when_killed())
    server.kill()
    return recording


@pytest.mark.parametrize("shared", [False, True], ids=["own", "shared"])
def test_kill_9_mid_recording_leaves_a_playable_file(start_server, tmp_path, shared):
    server = start_server("--input", PATTERN, "--record", *(SHARED if shared else ()))
    recording = kill_when_recorded(server, 6.0)
    path = tmp_path / "recordings" / recording["name"]
    info = probe(path)
    # The contract, not a ratio: fragments close every second, so at most the one being gathered
    # (1 s) is lost, plus what the recorder's (low-priority) queue still held: half a second.
    kept = recording["elapsed"] - 1.0 - 0.5
    assert info["duration"] >= kept, (info, recording)
    # Frames throughout, not one frame stretched (fewer than 30 a second only on a loaded machine).
    assert info["frames"] >= kept * 5, (info, recording)
    assert decode_errors(path) == ""


def test_sigterm_finishes_the_recording(start_server, tmp_path):
    server = start_server("--input", PATTERN, "--record")

    async def recorded():
        async with await Client.connect(server.ws_url()) as client:
            state = await wait_state(client, lambda s: s["recording"]["elapsed"] >= 2.0, "2 s are recorded")
            return state["recording"]["elapsed"], time.monotonic()
    # The recording's own clock says how long it ran (a slow start on a loaded machine recorded less
    # in a fixed 2 s); the file holds that, and what was recorded until the signal, ± 1 s.
    elapsed, seen = run(recorded())
    signalled = time.monotonic()
    code, _ = server.stop()
    assert code == 0
    files = list((tmp_path / "recordings").glob("*.mp4"))
    assert len(files) == 1
    info = probe(files[0])
    assert elapsed - 1.0 <= info["duration"] <= elapsed + (signalled - seen) + 1.0, (info, elapsed, signalled - seen)
    assert "recording saved" in server.stderr_text()


def frame_times(path) -> list:
    """Presentation times of every frame of the file, in seconds (ffprobe)."""
    out = subprocess.run([shutil.which("ffprobe"), "-v", "error", "-select_streams", "v:0", "-show_entries",
                          "packet=pts_time", "-of", "csv=p=0", str(path)], check=True, capture_output=True, timeout=60)
    return sorted(float(line) for line in out.stdout.decode().split())


def test_open_a_recording_and_seek_in_it(start_server, tmp_path):
    server = start_server("--input", PATTERN, "--filter", "invert")
    recording = record_for(server, 2.0, filtered=False)
    # Capture times: the frame nearest 1 s is where the seek must land, exactly.
    path = tmp_path / "recordings" / recording["name"]
    target = min(frame_times(path), key=lambda t: abs(t - 1.0))
    # The state's duration is the file's (what a busy machine's recording holds of its 2 s).
    file_seconds = probe(path)["duration"]
    assert file_seconds > 1.0, recording

    async def scenario():
        async with await Client.connect(server.ws_url()) as client:
            reference = "recordings/" + recording["name"]
            await client.ok({"type": "open", "source": reference})
            state = await wait_state(client, lambda s: s["source"]["name"] == reference, "the recording plays")
            assert state["source"]["kind"] == "file" and state["source"]["seekable"] is True
            assert abs(state["duration"] - file_seconds) <= 0.05, (state, file_seconds)
            assert state["filter"]["name"] == "invert", "the filter stays"
            await client.ok({"type": "pause"})
            await client.ok({"type": "seek", "position": target})
            frame = await client.next_frame(timeout=5, where=lambda f: f.state_changed and abs(f.pts - target) < 0.0015)
            assert frame.image().size == (640, 360)
            await client.ok({"type": "play"})
            # Playback goes on from there.
            later = await client.next_frame(timeout=5, where=lambda f: f.pts > target + 0.15)
            assert later.pts < 2.1
    run(scenario())


def test_open_a_file_of_the_media_folder(start_server, tmp_path):
    media = tmp_path / "media"
    (media / "sub").mkdir(parents=True)
    make_clip(media / "sub" / "clip.mp4", "testsrc2=size=320x240:rate=25", 2, "-g", "25")
    server = start_server("--input", PATTERN, "--media-dir", str(media))

    async def scenario():
        async with await Client.connect(server.ws_url()) as client:
            await client.ok({"type": "open", "source": "media/sub/clip.mp4"})
            state = await wait_state(client, lambda s: s["source"]["name"] == "media/sub/clip.mp4", "the clip plays")
            assert abs(state["duration"] - 2.0) < 0.1
            # The session takes the clip's size.
            frame = await client.next_frame(timeout=5, where=lambda f: f.pts > 0.2)
            assert frame.image().size == (320, 240)
            refused = await client.command({"type": "delete", "source": "media/sub/clip.mp4"})
            assert refused["code"] == "forbidden" and "read-only" in refused["message"]
            missing = await client.command({"type": "open", "source": "media/none.mp4"})
            assert missing["code"] == "not_found"
            not_video = await client.command({"type": "open", "source": "recordings/../x"})
            assert not_video["code"] == "forbidden"
    run(scenario())
    assert (media / "sub" / "clip.mp4").exists()


def test_the_media_folder_is_listed_folder_by_folder(start_server, tmp_path):
    """GET /api/media: a folder's folders then files (with durations), what a user could open
    and nothing else, the names `open` refuses, and the token; hello says the folder is there."""
    media = tmp_path / "media"
    (media / "sub dir").mkdir(parents=True)
    make_clip(media / "sub dir" / "clip.mp4", "testsrc2=size=160x120:rate=25", 2, "-g", "25")
    (media / "notes.txt").write_text("not a video")
    (media / ".hidden.mp4").write_bytes(b"x")
    (media / "escape").symlink_to(tmp_path)
    server = start_server("--input", PATTERN, "--media-dir", str(media), "--token", "T0k")
    auth = {"Authorization": "Bearer T0k"}

    def listing(query: str):
        answer = server.get("/api/media" + query, headers=auth)
        return answer.status, json.loads(answer.body) if answer.status == 200 else answer.text()

    assert listing("") == (200, {"folder": "", "truncated": False,
                                 "entries": [{"name": "sub dir", "kind": "folder", "size": None, "duration": None}]})
    status, sub = listing("?folder=sub%20dir/")
    assert status == 200 and sub["folder"] == "sub dir", sub
    [clip] = sub["entries"]
    assert (clip["name"], clip["kind"], clip["size"]) == ("clip.mp4", "file", (media / "sub dir" / "clip.mp4").stat().st_size)
    assert abs(clip["duration"] - 2.0) < 0.1
    for query, code in [("?folder=..", 403), ("?folder=escape", 403), ("?folder=%2Fetc", 403), ("?folder=.hidden.mp4", 403),
                        ("?folder=none", 404), ("?folder=notes.txt", 404), ("?folder=" + "a" * 600, 414)]:
        assert listing(query)[0] == code, query
    assert server.get("/api/media").status == 401, "the token, like /api/recordings"
    assert server.get("/api/media?token=T0k").status == 200
    bare = start_server("--input", PATTERN)
    answer = bare.get("/api/media")
    assert answer.status == 404 and "--media-dir" in answer.text()

    async def offered(url):
        async with await Client.connect(url) as client:
            return client.hello["mediaFolder"]
    assert run(offered(server.ws_url(token="T0k"))) is True and run(offered(bare.ws_url())) is False


FORBIDDEN = [
    "/etc/passwd", "../etc/passwd", "recordings/../../etc/passwd", "recordings/..", "media/../../etc/passwd",
    "http://127.0.0.1:1/x.mp4", "file:///etc/passwd", "rtsp://example.invalid/s", "pipe:0", "concat:a|b",
    "recordings/.hidden.mp4", "recordings/leak.mp4", "recordings/sub/x.mp4", "~/x.mp4", "clip.mp4",
    "media/clip.mp4", "recordings\\..\\x",
]


def test_paths_outside_the_folders_are_forbidden(start_server, tmp_path):
    recordings = tmp_path / "recordings"
    recordings.mkdir()
    outside = tmp_path / "outside.mp4"
    make_clip(outside, "testsrc2=size=160x120:rate=25", 1)
    (recordings / "leak.mp4").symlink_to(outside)
    (recordings / ".hidden.mp4").write_bytes(outside.read_bytes())
    server = start_server("--input", PATTERN)

    async def scenario():
        async with await Client.connect(server.ws_url()) as client:
            for reference in FORBIDDEN:
                for command in ("open", "delete"):
                    reply = await client.command({"type": command, "source": reference})
                    assert reply["type"] == "error" and reply["code"] == "forbidden", (command, reference, reply)
            missing = await client.command({"type": "delete", "source": "recordings/none.mp4"})
            assert missing["code"] == "not_found"
            wrong_type = await client.command({"type": "open", "source": 5})
            assert wrong_type["code"] == "invalid_argument"
            state = await client.next_json("state")
            assert state["source"]["name"].startswith("test pattern")
    run(scenario())
    assert outside.exists() and (recordings / "leak.mp4").is_symlink() and (recordings / ".hidden.mp4").exists()
    assert server.get("/recordings/leak.mp4").status == 403
    assert server.get("/recordings/.hidden.mp4").status == 403
    assert server.get("/recordings/%2e%2e%2foutside.mp4").status in (403, 404)
    assert server.get("/recordings/none.mp4").status == 404
    listing = json.loads(server.get("/api/recordings").body)["recordings"]
    assert [entry["name"] for entry in listing] == [], "neither symlinks nor hidden files are listed"


def test_delete_a_recording(start_server, tmp_path):
    server = start_server("--input", PATTERN)
    recording = record_for(server, 1.0)
    path = tmp_path / "recordings" / recording["name"]
    assert path.exists()

    async def scenario():
        async with await Client.connect(server.ws_url()) as client:
            await client.ok({"type": "delete", "source": "recordings/" + recording["name"]})
            again = await client.command({"type": "delete", "source": "recordings/" + recording["name"]})
            assert again["code"] == "not_found"
            # The running recording cannot be deleted.
            await client.ok({"type": "record", "action": "start"})
            state = await wait_state(client, lambda s: s["recording"]["active"], "the recording runs")
            busy = await client.command({"type": "delete", "source": "recordings/" + state["recording"]["name"]})
            assert busy["code"] == "forbidden" and "being recorded" in busy["message"]
            await client.frames(3)  # a recording stopped before its first frame leaves no file (and says so)
            await client.ok({"type": "record", "action": "stop"})
    run(scenario())
    assert not path.exists()
    assert json.loads(server.get("/api/recordings").body)["recordings"][0]["name"] != recording["name"]


def test_deleting_the_recording_that_plays_returns_to_the_input(start_server, tmp_path):
    """Before: NO SIGNAL "open a file to go on", an empty library and `open` of the input forbidden."""
    server = start_server("--input", PATTERN)
    recording = record_for(server, 1.0)
    reference = "recordings/" + recording["name"]

    async def scenario():
        async with await Client.connect(server.ws_url()) as client:
            assert client.hello["state"]["source"]["startInput"] is True
            await client.ok({"type": "open", "source": reference})
            playing = await wait_state(client, lambda s: s["source"]["name"] == reference, "the recording plays")
            assert playing["source"]["startInput"] is False
            await client.ok({"type": "delete", "source": reference, "id": "del"})
            back = await wait_state(client, lambda s: s["source"]["startInput"], "back to the input")
            assert back["source"]["kind"] == "test" and back["source"]["name"].startswith("test pattern"), back
            assert back["duration"] is None
            # Live frames again: online, playing, the pts moving on. Frames that came before the
            # state (the recording's last, re-sent when it ended) are not the input's.
            client.drop_frames()
            frames = await client.frames(8, timeout=8)
            state = await wait_state(client, lambda s: s["source"]["online"] and s["playing"], "the input online")
            return frames, state
    frames, state = run(scenario())
    # The input's frames: the last three move on (the recording's last may still come first, its
    # picture re-sent as it ended, more than once on a busy machine).
    tail = frames[-3:]
    assert tail[0].pts < tail[1].pts < tail[2].pts and all(f.image().size == (640, 360) for f in tail), frames
    assert not (tmp_path / "recordings" / recording["name"]).exists()
    assert json.loads(server.get("/api/state").body)["source"]["startInput"] is True


def test_open_input_comes_back_from_a_recording_that_vanished(start_server, tmp_path):
    server = start_server("--input", PATTERN, "--filter", "invert")
    recording = record_for(server, 1.0)
    reference = "recordings/" + recording["name"]

    async def scenario():
        async with await Client.connect(server.ws_url()) as client:
            await client.ok({"type": "open", "source": reference})
            await wait_state(client, lambda s: s["source"]["name"] == reference, "the recording plays")
            (tmp_path / "recordings" / recording["name"]).unlink()  # behind the server's back
            await client.ok({"type": "seek", "position": 0.5})  # a seek checks the file
            failed = await wait_state(client, lambda s: not s["source"]["online"], "the recording given up")
            assert "the file was deleted" in failed["source"]["reason"] and failed["playing"] is False, failed
            await client.ok({"type": "open", "source": "input", "id": "back"})
            back = await wait_state(client, lambda s: s["source"]["online"] and s["source"]["startInput"] and s["playing"],
                                    "the input plays again")
            assert back["filter"]["name"] == "invert", "the filter stays"
            frame = await client.next_frame(timeout=5, where=lambda f: f.state_changed or f.pts > 0)
            return frame
    frame = run(scenario())
    assert frame.image().size == (640, 360)


def test_open_input_restarts_a_start_file(start_server, tmp_path):
    clip = make_clip(tmp_path / "clip.mp4", "testsrc2=size=320x240:rate=25", 2, "-g", "25")
    server = start_server("--input", str(clip))

    async def scenario():
        async with await Client.connect(server.ws_url()) as client:
            await client.ok({"type": "pause"})
            await client.ok({"type": "seek", "position": 1.5})
            await client.next_frame(timeout=3, where=lambda f: f.pts >= 1.5)
            await client.ok({"type": "open", "source": "input"})
            first = await client.next_frame(timeout=3, where=lambda f: f.pts < 1.0)
            state = await wait_state(client, lambda s: s["position"] < 1.0, "the file from its start")
            return first, state
    first, state = run(scenario())
    assert first.pts == 0 and first.state_changed, first
    assert state["source"]["startInput"] and state["source"]["name"] == clip.name and state["playing"] is False
    assert state["source"]["reference"] == "input"


@pytest.mark.solo  # measures a rate or sync: run alone
@pytest.mark.parametrize("shared", [False, True], ids=["own", "shared"])
def test_record_while_paused_records_the_held_picture(start_server, tmp_path, shared):
    """Before: a 787-byte file with no frames, listed with duration "–". Now the paused picture at
    the frame rate (shared: the rendition's refinements, then one a second), for as long as the
    recording ran, as a camera app does."""
    server = start_server("--input", PATTERN, "--filter", "invert", *(SHARED if shared else ()))

    async def scenario():
        async with await Client.connect(server.ws_url()) as client:
            await client.ok({"type": "pause"})
            await wait_state(client, lambda s: not s["playing"], "paused")
            await client.ok({"type": "record", "action": "start"})
            started = time.monotonic()
            await wait_state(client, lambda s: s["recording"]["active"], "the recording runs")
            time.sleep(max(0.0, 2.0 - (time.monotonic() - started)))
            await client.ok({"type": "record", "action": "stop"})
            return (await wait_state(client, lambda s: not s["recording"]["active"], "stopped"))["recording"]
    recording = run(scenario())
    path = tmp_path / "recordings" / recording["name"]
    info = probe(path)
    assert abs(info["duration"] - 2.0) <= 0.3 and info["frames"] >= (3 if shared else 40), info
    listing = json.loads(server.get("/api/recordings").body)["recordings"]
    # A shared take's still picture comes once a second (its refinements soon after a keyframe): its
    # pictures end with the last that came, up to a second before the stop; its sound lasts to the stop.
    shortest = 1.0 if shared else 1.7
    assert listing[0]["name"] == recording["name"] and shortest <= listing[0]["duration"] <= 2.3, listing
    # The same (filtered) picture to the end (from 0.5 s: a frame on its way when the pause came
    # may follow the one held at the start).
    first, last = frame_at(path, 0.5), frame_at(path, listing[0]["duration"] - 0.1)
    assert np.abs(first - last).mean() < 2, "the held picture changed"


def frame_at(path, seconds: float = 0.0):
    """The frame of a video at `seconds` (the first by default) as an RGB numpy array (decoded by
    the ffmpeg CLI)."""
    from PIL import Image
    png = Path(f"{path}.{seconds:.2f}.png")
    subprocess.run([shutil.which("ffmpeg"), "-v", "error", "-y", "-ss", str(seconds), "-i", str(path),
                    "-frames:v", "1", str(png)], check=True, timeout=60)
    return np.asarray(Image.open(png).convert("RGB"), dtype=np.float64)


def test_max_record_size_stops_the_recording_with_an_error(start_server, tmp_path):
    server = start_server("--input", PATTERN, "--max-record-size", "300k")

    async def scenario():
        async with await Client.connect(server.ws_url()) as client:
            await client.ok({"type": "record", "action": "start"})
            error = await client.next_json("error", timeout=20)
            assert error["code"] == "recording_failed" and "size limit" in error["message"], error
            state = await wait_state(client, lambda s: not s["recording"]["active"], "the recording stopped")
            assert "size limit" in state["recording"]["error"]
            assert state["recording"]["bytes"] >= 300_000
            return state["recording"]
    recording = run(scenario(), timeout=40)
    info = probe(tmp_path / "recordings" / recording["name"])
    assert info["frames"] > 0 and decode_errors(tmp_path / "recordings" / recording["name"]) == ""
    # The server keeps running and can record again.
    assert server.get("/healthz").status == 200


def test_low_free_space_refuses_to_record(start_server, tmp_path):
    server = start_server("--input", PATTERN, "--min-free-space", "1000000G")

    async def scenario():
        async with await Client.connect(server.ws_url()) as client:
            reply = await client.command({"type": "record", "action": "start"})
            assert reply["type"] == "error" and reply["code"] == "recording_failed"
            assert "MB free" in reply["message"] and "minimum" in reply["message"], reply
            state = await client.next_json("state")
            assert state["recording"]["active"] is False
    run(scenario())
    assert list((tmp_path / "recordings").iterdir()) == []


@pytest.mark.parametrize("message, code", [
    ({"type": "record"}, "invalid_argument"),
    ({"type": "record", "action": "pause"}, "out_of_range"),
    ({"type": "record", "action": "start", "filtered": "yes"}, "invalid_argument"),
    ({"type": "open"}, "invalid_argument"),
    ({"type": "delete", "source": None}, "invalid_argument"),
])
def test_bad_record_open_delete_commands(server, message, code):
    async def scenario():
        async with await Client.connect(server.ws_url()) as client:
            return await client.command(message)
    reply = run(scenario())
    assert reply["type"] == "error" and reply["code"] == code, reply


def test_filtered_and_unfiltered_recordings(start_server, tmp_path):
    server = start_server("--input", PATTERN, "--filter", "invert")
    filtered = record_for(server, 1.0, filtered=True)
    unfiltered = record_for(server, 1.0, filtered=False)
    assert (filtered["filtered"], unfiltered["filtered"]) == (True, False)
    # The test pattern's first bar (left seventh) is red; inverted, it is cyan.
    red = frame_at(tmp_path / "recordings" / unfiltered["name"])[100:300, 10:80].mean(axis=(0, 1))
    cyan = frame_at(tmp_path / "recordings" / filtered["name"])[100:300, 10:80].mean(axis=(0, 1))
    assert red[0] > 200 and red[1] < 50 and red[2] < 50, red
    assert cyan[0] < 50 and cyan[1] > 200 and cyan[2] > 200, cyan
    # The listing says what the filtered one was recorded with (the page offers it as recorded).
    listed = {entry["name"]: entry for entry in json.loads(server.get("/api/recordings").body)["recordings"]}
    assert listed[filtered["name"]]["filter"] == "invert" and "filter" not in listed[unfiltered["name"]], listed
