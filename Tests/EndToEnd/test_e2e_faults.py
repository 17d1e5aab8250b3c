"""Faults against a real server: `kill -9` during a recording, a seek or a filter change, then a
restart on the same recordings folder; a full disk under a recording; the playing file deleted,
replaced or truncated. Every wait is bounded; nothing assumes how fast the machine is."""

from __future__ import annotations

import json
import os
import signal
import subprocess

import pytest

from fc_client import Client, run
from fc_server import make_clip
from test_e2e_live import is_placeholder, state_where
from test_e2e_recording import decode_errors, probe, record_for, wait_state

PATTERN = "test:640x360@30"


def log_problems(server) -> list:
    """The error- and warn-level lines of a `--log-format json` server's log."""
    problems = []
    for line in server.stderr_text(last=1_000_000).splitlines():
        try:
            entry = json.loads(line)
        except ValueError:
            continue
        if entry.get("level") in ("error", "warn"):
            problems.append(line)
    return problems


def listed_recordings(server) -> dict:
    response = server.get("/api/recordings")
    assert response.status == 200, response
    return {entry["name"]: entry for entry in json.loads(response.body)["recordings"]}


def check_clean_restart(start_server, tmp_path, args, earlier: list):
    """Starts the server again on the same recordings folder: no error or warning in its log,
    every earlier recording listed with a duration, decodable, and playable with `open`."""
    server = start_server(*args, "--log-format", "json")
    listed = listed_recordings(server)
    for name in earlier:
        assert name in listed and listed[name]["duration"], (name, listed)
        path = tmp_path / "recordings" / name
        assert probe(path)["frames"] > 0 and decode_errors(path) == ""

    async def play_each():
        async with await Client.connect(server.ws_url(), timeout=10) as client:
            for name in earlier:
                await client.ok({"type": "open", "source": "recordings/" + name}, timeout=10)
                await wait_state(client, lambda s: s["source"]["name"] == "recordings/" + name, f"{name} plays")
                client.drop_frames()
                frame = await client.next_frame(timeout=10, where=lambda f: f.pts > 0.1)
                assert frame.image().size == (640, 360)
    run(play_each(), timeout=60)
    assert log_problems(server) == [], "the restart logged problems"
    return server


@pytest.mark.parametrize("during", ["recording", "seek", "filter change"])
def test_kill_9_then_a_clean_restart_on_the_same_recordings(start_server, tmp_path, during):
    clip = make_clip(tmp_path / "clip.mp4", "testsrc2=size=640x360:rate=30", 6, "-g", "30")
    args = ("--input", str(clip), "--filter", "sepia")
    server = start_server(*args)
    earlier = [record_for(server, 1.5)["name"]]

    async def fault():
        async with await Client.connect(server.ws_url(), timeout=10) as client:
            if during == "recording":
                await client.ok({"type": "record", "action": "start"}, timeout=10)
                state = await wait_state(client, lambda s: s["recording"]["elapsed"] >= 2.5, "2.5 s are recorded")
                earlier.append(state["recording"]["name"])
                server.proc.send_signal(signal.SIGKILL)
                return
            # A burst of commands, then the kill while the server is still working through them.
            for index in range(30):
                if during == "seek":
                    await client.send_json({"type": "seek", "position": (index * 0.37) % 5.5, "id": f"s{index}"})
                else:
                    name = ("invert", "comic", "pixellate", "sepia")[index % 4]
                    await client.send_json({"type": "setFilter", "name": name, "id": f"f{index}"})
            await client.next_json("ack", timeout=10)
            server.proc.send_signal(signal.SIGKILL)
    run(fault(), timeout=60)
    assert server.proc.wait(timeout=10) == -signal.SIGKILL
    server.kill()
    check_clean_restart(start_server, tmp_path, args, earlier)


def tmpfs(path, size: str):
    """Mounts a tmpfs of `size` at `path` (root only); skips the test when that is not allowed."""
    path.mkdir()
    result = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(path)],
                            capture_output=True, timeout=10)
    if result.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here ({result.stderr.decode(errors='replace').strip()})")


def test_a_full_disk_stops_the_recording_with_a_clear_error_and_streaming_continues(start_server, tmp_path):
    recordings = tmp_path / "recordings"
    tmpfs(recordings, "1m")
    try:
        server = start_server("--input", PATTERN, "--recordings", str(recordings), "--min-free-space", "1")

        async def scenario():
            async with await Client.connect(server.ws_url(), timeout=10) as client:
                await client.ok({"type": "record", "action": "start"}, timeout=10)
                error = await client.next_json("error", timeout=60)
                assert error["code"] == "recording_failed", error
                assert "No space left on device" in error["message"] or "free" in error["message"], error
                state = await wait_state(client, lambda s: not s["recording"]["active"], "the recording stopped")
                assert state["recording"]["error"], state
                # Streaming goes on: fresh frames keep coming.
                client.drop_frames()
                frames = await client.frames(15, timeout=10)
                assert frames[-1].pts > frames[0].pts
                return state["recording"]
        recording = run(scenario(), timeout=90)
        assert server.get("/healthz").status == 200
        # What was written before the disk filled up decodes.
        assert probe(recordings / recording["name"])["frames"] > 0
        server.stop()
    finally:
        subprocess.run(["umount", "-l", str(recordings)], timeout=10)


def replace_by_rename(path, other):
    os.rename(other, path)


def truncate(path, other):
    os.truncate(path, 0)


def delete(path, other):
    os.unlink(path)


@pytest.mark.parametrize("change", [replace_by_rename, truncate, delete], ids=["replaced", "truncated", "deleted"])
def test_the_playing_file_goes_away_error_placeholder_then_recovery_on_open(start_server, tmp_path, change):
    media = tmp_path / "media"
    media.mkdir()
    playing = make_clip(media / "playing.mp4", "testsrc2=size=640x360:rate=25", 2, "-g", "25")
    other = make_clip(tmp_path / "other.mp4", "smptebars=size=640x360:rate=25", 2, "-g", "25")
    spare = make_clip(media / "spare.mp4", "testsrc2=size=640x360:rate=25", 2, "-g", "25")
    server = start_server("--input", str(playing), "--media-dir", str(media), "--log-format", "json")

    async def scenario():
        async with await Client.connect(server.ws_url(), timeout=10) as client:
            await client.frames(5, timeout=10)
            change(playing, other)
            # The server notices at the latest when the 2 s clip loops.
            offline = await state_where(client, lambda s: s["source"]["online"] is False, timeout=15)
            reason = offline["source"]["reason"]
            assert "playing.mp4" in reason and ("deleted" in reason or "changed" in reason), reason
            assert str(media) not in reason, "viewers see the input's name, not its path on the server"
            assert offline["playing"] is False
            client.drop_frames()
            frames = [item for item in await client.collect(3.0) if not isinstance(item, dict)]
            # (The last real frames may still have been on their way.)
            first = next((i for i, frame in enumerate(frames) if is_placeholder(frame)), len(frames))
            assert len(frames) - first >= 2, f"{len(frames) - first} placeholders in 3 s"
            assert all(is_placeholder(frame) for frame in frames[first:]), "only placeholders once offline"
            # /metrics and /api/state say so too.
            assert json.loads(server.get("/api/state").body)["source"]["online"] is False
            assert "filtercast_source_online 0" in server.get("/metrics").text()

            await client.ok({"type": "open", "source": "media/spare.mp4"}, timeout=10)
            online = await state_where(client, lambda s: s["source"]["online"] is True, timeout=10)
            assert online["source"]["reason"] is None and online["source"]["name"] == "media/spare.mp4"
            client.drop_frames()
            resumed = await client.frames(10, timeout=10)
            assert not any(is_placeholder(frame) for frame in resumed[2:])
            assert resumed[-1].pts > resumed[2].pts
            if change is delete:
                # A library file's reason names it as clients do, not by the server's path.
                os.unlink(spare)
                gone = await state_where(client, lambda s: s["source"]["online"] is False, timeout=15)
                assert gone["source"]["reason"] == "error reading media/spare.mp4: the file was deleted", gone
            return reason
    reason = run(scenario(), timeout=90)
    # The log, for the operator, names the file by its path.
    logged = reason.replace("playing.mp4", str(playing))
    assert any(logged in line for line in log_problems(server)), "the failure is in the log"
