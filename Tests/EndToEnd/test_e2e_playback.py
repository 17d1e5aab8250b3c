"""Pause, seek and play on a seekable file (a 4 s, 25 fps, 320x240 H.264 clip)."""

import shutil
import subprocess
import time

import numpy as np
import pytest

from fc_client import Client, run

FRAME = 0.04  # 25 fps


@pytest.fixture
def clip_server(start_server, sample_clip):
    return start_server("--input", str(sample_clip))


def reference_frames(clip, numbers, tmp_path):
    """Luma of the given frame numbers of the clip, decoded by the ffmpeg CLI."""
    result = {}
    for number in numbers:
        out = tmp_path / f"frame{number}.pgm"
        subprocess.run([shutil.which("ffmpeg"), "-hide_banner", "-loglevel", "error", "-y", "-i", str(clip),
                        "-vf", f"select=eq(n\\,{number})", "-frames:v", "1", "-pix_fmt", "gray", str(out)],
                       check=True, timeout=30)
        from PIL import Image
        result[number] = np.asarray(Image.open(out), dtype=np.float64)
    return result


def test_file_state_is_seekable_with_a_duration(clip_server):
    async def scenario():
        async with await Client.connect(clip_server.ws_url()) as client:
            return client.hello["state"]
    state = run(scenario())
    assert state["source"]["kind"] == "file"
    assert state["source"]["seekable"] is True
    assert (state["source"]["width"], state["source"]["height"]) == (320, 240)
    assert state["source"]["fps"] == 25
    assert state["duration"] == pytest.approx(4.0, abs=0.05)


def test_pause_stops_the_pts(clip_server):
    async def scenario():
        async with await Client.connect(clip_server.ws_url()) as client:
            playing = await client.frames(3)
            await client.ok({"type": "pause"})
            state = await client.next_json("state", where=lambda s: s["playing"] is False)
            # After the pause the server sends the current frame once (flagged: a state change):
            # awaited however long a loaded machine takes, then 0.6 s must bring nothing new.
            paused = await client.next_frame(where=lambda f: f.state_changed, timeout=5)
            quiet = [m for m in await client.collect(0.6)]
            return playing, state, paused, quiet
    playing, state, paused, quiet = run(scenario())
    assert playing[-1].pts > playing[0].pts
    paused_pts = paused.pts_us
    quiet_frames = [m for m in quiet if not isinstance(m, dict)]
    assert all(frame.pts_us == paused_pts for frame in quiet_frames), (
        f"pts moved while paused: {paused_pts} then {quiet_frames}")
    assert len(quiet_frames) <= 1, f"frames kept coming while paused: {quiet_frames}"
    positions = {round(m["position"], 6) for m in quiet if isinstance(m, dict) and m["type"] == "state"}
    assert len(positions) <= 1, f"position moved while paused: {positions}"
    assert state["position"] == pytest.approx(paused_pts / 1e6, abs=FRAME + 1e-6)


def test_seek_while_paused_delivers_the_exact_frame_at_once(clip_server, sample_clip, tmp_path):
    references = reference_frames(sample_clip, [49, 50, 51], tmp_path)

    async def scenario():
        async with await Client.connect(clip_server.ws_url()) as client:
            await client.frames(2)
            await client.ok({"type": "pause"})
            await client.next_frame(where=lambda f: f.state_changed, timeout=5)  # the paused picture
            sent = time.time()  # the server's sent_us is on this (wall) clock
            await client.ok({"type": "seek", "position": 2.0})
            frame = await client.next_frame(timeout=5)
            more = await client.collect(0.6)
            return frame, frame.sent_us / 1e6 - sent, more
    frame, waited, more = run(scenario())
    # At once and exact: the very next frame is the seek's, paused at 2.0. How soon is read on the
    # server's send clock (the client's own read delays left out), within a second: without the
    # seek's own picture, none would come before play.
    assert frame.pts_us == 2_000_000, f"seek to 2.0 gave {frame}"
    assert frame.state_changed
    assert waited < 1.0, f"the server sent the frame after the seek {waited:.3f} s after it was asked"
    luma = frame.luma()
    distances = {number: float(np.abs(luma - reference).mean()) for number, reference in references.items()}
    assert min(distances, key=distances.get) == 50, f"mean |difference| to frames 49, 50, 51: {distances}"
    assert distances[50] < 4, distances
    extra = [m for m in more if not isinstance(m, dict)]
    assert all(m.pts_us == 2_000_000 for m in extra), f"frames moved while paused after the seek: {extra}"
    # The state that clients see must follow: some state after the seek reports position 2.0
    # (and paused), not the position from before the seek.
    states = [m for m in more if isinstance(m, dict) and m["type"] == "state"]
    assert states, "no state at all in the 0.6 s after a seek while paused"
    assert states[-1]["playing"] is False
    assert states[-1]["position"] == pytest.approx(2.0, abs=1e-6), (
        f"after the seek to 2.0 (frame shown: pts 2.0) the latest state still says position "
        f"{states[-1]['position']}: states after the seek: {[s['position'] for s in states]}")


def test_play_resumes_from_the_seek_position(clip_server):
    async def scenario():
        async with await Client.connect(clip_server.ws_url()) as client:
            await client.ok({"type": "pause"})
            await client.ok({"type": "seek", "position": 2.0})
            await client.next_frame(where=lambda f: f.pts_us == 2_000_000, timeout=1.0)
            await client.ok({"type": "play"})
            state = await client.next_json("state", where=lambda s: s["playing"] is True)
            frames = await client.frames(12, timeout=3)
            return state, frames
    state, frames = run(scenario())
    assert state["position"] == pytest.approx(2.0, abs=0.2)
    pts = [frame.pts for frame in frames]
    assert all(b > a for a, b in zip(pts, pts[1:])), f"pts not increasing after play: {pts}"
    assert 2.0 <= pts[0] <= 2.3, pts
    assert pts[-1] - pts[0] >= 0.3, pts
    for a, b in zip(pts, pts[1:]):
        assert b - a == pytest.approx(round((b - a) / FRAME) * FRAME, abs=1e-4), f"pts off the 25 fps grid: {pts}"


def test_seek_before_the_start_is_out_of_range(clip_server):
    async def scenario():
        async with await Client.connect(clip_server.ws_url()) as client:
            reply = await client.command({"type": "seek", "position": -0.5, "id": "s"})
            after = await client.ok({"type": "seek", "position": 1.0, "id": "valid"})
            return reply, after
    reply, after = run(scenario())
    assert reply["type"] == "error" and reply["code"] == "out_of_range", reply
    assert reply["id"] == "s"


@pytest.mark.parametrize("position", [5.0, 1e6])
def test_seek_past_the_end_shows_the_last_frame(clip_server, position):
    """What PROTOCOL.md says (a slider dragged to its end): the last frame, not out_of_range."""
    async def scenario():
        async with await Client.connect(clip_server.ws_url()) as client:
            await client.ok({"type": "pause"})
            await client.ok({"type": "seek", "position": position, "id": "end"})
            frame = await client.next_frame(where=lambda f: f.pts > 1.0, timeout=3.0)
            state = await client.next_json("state", where=lambda s: s["position"] > 1.0, timeout=3.0)
            return frame, state
    frame, state = run(scenario())
    assert frame.pts == pytest.approx(3.96, abs=1e-3), frame
    assert state["position"] == pytest.approx(3.96, abs=1e-3) and state["playing"] is False, state


def test_seek_to_the_end_is_accepted(clip_server):
    async def scenario():
        async with await Client.connect(clip_server.ws_url()) as client:
            await client.ok({"type": "pause"})
            await client.ok({"type": "seek", "position": 4.0})
            # (The frame re-rendered for the pause may come first.)
            return await client.next_frame(where=lambda f: f.pts > 1.0, timeout=1.0)
    frame = run(scenario())
    # "the last frame when past the end": the clip's last frame is at 3.96 s.
    assert frame.pts == pytest.approx(3.96, abs=1e-3), frame


def test_seek_on_a_live_source_is_not_seekable(server):
    async def scenario():
        async with await Client.connect(server.ws_url()) as client:
            reply = await client.command({"type": "seek", "position": 1.0, "id": 42})
            frames = await client.frames(3)
            return reply, frames
    reply, frames = run(scenario())
    assert reply == {"type": "error", "code": "not_seekable", "id": 42, "message": reply.get("message")}
    assert isinstance(reply["message"], str) and reply["message"]
    assert all(b.pts > a.pts for a, b in zip(frames, frames[1:]))


def test_a_viewer_who_joins_while_paused_gets_the_current_frame_once(clip_server):
    async def scenario():
        async with await Client.connect(clip_server.ws_url()) as first:
            await first.ok({"type": "pause"})
            await first.ok({"type": "seek", "position": 1.0})
            await first.next_frame(where=lambda f: f.pts_us == 1_000_000, timeout=5)
            async with await Client.connect(clip_server.ws_url()) as late:
                assert late.hello["state"]["playing"] is False
                # The picture, however long a loaded machine takes; then 0.6 s with no other.
                items = [await late.next_frame(timeout=5)] + await late.collect(0.6)
            # Everyone left while paused; a newcomer still gets the picture.
        async with await Client.connect(clip_server.ws_url()) as alone:
            alone_frame = await alone.next_frame(timeout=5)
        return items, alone_frame
    items, alone_frame = run(scenario())
    frames = [m for m in items if not isinstance(m, dict)]
    assert len(frames) == 1, f"a viewer joining while paused should get the current frame once: {frames}"
    assert frames[0].pts_us == 1_000_000
    assert alone_frame.pts_us == 1_000_000, alone_frame


def test_step_pauses_moves_by_frames_and_stops_at_both_ends(clip_server, sample_clip, tmp_path):
    """`step` (v1 addition): a playing source pauses and moves by whole frames, exactly (the luma
    against ffmpeg's frames); steps in a row add up; the first and the last frame bound it;
    state.frame numbers the playhead."""
    references = reference_frames(sample_clip, [30, 31, 41, 40], tmp_path)

    async def stepped(client, frames, number):
        await client.ok({"type": "step", "frames": frames})
        frame = await client.next_frame(where=lambda f: abs(f.pts - number * FRAME) < 1e-3, timeout=5)
        state = await client.next_json("state", where=lambda s: s["frame"] == number, timeout=5)
        return frame, state

    async def scenario():
        async with await Client.connect(clip_server.ws_url()) as client:
            await client.ok({"type": "seek", "position": 30 * FRAME})
            await client.next_frame(where=lambda f: abs(f.pts - 30 * FRAME) < 1e-3, timeout=5)
            await client.ok({"type": "pause"})
            await client.ok({"type": "seek", "position": 30 * FRAME})
            shown = {}
            for frames, number in [(1, 31), (10, 41), (-1, 40)]:
                frame, state = await stepped(client, frames, number)
                assert state["playing"] is False and state["position"] == pytest.approx(number * FRAME, abs=1e-3), state
                shown[number] = frame
            await client.ok({"type": "play"})
            await client.next_json("state", where=lambda s: s["playing"], timeout=5)
            _, state = await stepped(client, -250, 0)  # a playing source pauses; before the first: the first
            assert state["playing"] is False, state
            await stepped(client, 250, 99)  # past the end: the last (4 s at 25 fps)
            return shown
    shown = run(scenario(), timeout=60)
    for number, frame in shown.items():
        luma = np.asarray(frame.image().convert("L"), dtype=np.float64)
        assert np.abs(luma - references[number]).mean() < np.abs(luma - references[number - 1 if number != 40 else 41]).mean()


def test_step_is_checked_and_needs_a_seekable_source(clip_server, server):
    async def scenario(target, message):
        async with await Client.connect(target.ws_url()) as client:
            return await client.command(message)
    assert run(scenario(clip_server, {"type": "step", "frames": 0}))["code"] == "out_of_range"
    assert run(scenario(clip_server, {"type": "step", "frames": 251}))["code"] == "out_of_range"
    assert run(scenario(clip_server, {"type": "step", "frames": 1.5}))["code"] == "invalid_argument"
    assert run(scenario(server, {"type": "step", "frames": 1}))["code"] == "not_seekable"
