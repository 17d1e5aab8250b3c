"""Recordings keep the sound (issue 16): the fragmented MP4 has an AAC-LC stream (48 kHz stereo)
beside the video, within 40 ms of it by ffprobe's start times and durations, and in step with it
— a white flash and a 1 kHz beep mark every second of the clips, and every beep of the recording
is found within 80 ms of its flash (see STEP) — through a start mid-file, a pause (silence), a seek, and
switches to a 5.1 AC3 MKV and to a clip without sound, and a recording started without sound that
switches to a clip with some; a kill -9 leaves both streams decodable.
The clips: black 320x240 H.264 at 25 fps with a white frame at each whole second and a 40 ms beep
at the same moments, made by the ffmpeg CLI."""

from __future__ import annotations

import json
import shutil
import subprocess
import time

import numpy as np
import pytest

from fc_client import Client, run
from test_e2e_recording import kill_when_recorded, wait_state

pytestmark = pytest.mark.solo  # beeps on flashes in recordings: run alone

TOLERANCE = 0.040
# A beep against its flash. Measured since the pictures are stamped where the sound puts their
# source time (session 8): +9…−14 ms playing straight, −22…−31 ms after a seek or a pause, the
# same for every beep of a stretch (before, offer-time stamps moved the flashes by the machine's
# jitter: 17-70 ms, once 90 ms under load). The 20 ms more after a seek is not explained yet. This
# bound catches a sound put in the wrong stretch (a second off) or drifting.
STEP = 0.080
FLASHES = "color=c=black:s=320x240:r=25,drawbox=x=0:y=0:w=iw:h=ih:color=white:t=fill:enable='lt(mod(t,1),0.04)'"


def beeps(channels: int, rate: int, delay: float = 0.0) -> str:
    """A lavfi source of a 40 ms 1 kHz beep at each whole second after `delay`, on `channels`."""
    beep = f"if(lt(mod(t,1),0.04),0.5*sin(2*PI*1000*t),0)"
    return f"aevalsrc='{'|'.join([beep] * channels)}':s={rate}" + (f",adelay={int(delay * 1000)}:all=1" if delay else "")


def make_marked_clip(path, seconds: float, audio: list[str] | None, delay: float = 0.0):
    """The flashes (and, with `audio`'s encoder options, the beeps) as `path`."""
    sound = ["-f", "lavfi", "-i", beeps(6 if "ac3" in audio else 2, 48_000 if "ac3" in audio else 44_100, delay)] if audio else []
    subprocess.run([shutil.which("ffmpeg"), "-hide_banner", "-loglevel", "error", "-y", "-f", "lavfi", "-i", FLASHES,
                    *sound, "-t", str(seconds), "-c:v", "libx264", "-bf", "0", "-g", "25", "-pix_fmt", "yuv420p",
                    *(audio or []), str(path)], check=True, timeout=60)
    return path


@pytest.fixture(scope="module")
def clips(tmp_path_factory):
    folder = tmp_path_factory.mktemp("sound-clips")
    media = folder / "media"
    media.mkdir()
    return {"main": make_marked_clip(folder / "aac-44k.mp4", 8, ["-c:a", "aac"]),
            "ac3": make_marked_clip(media / "ac3-51.mkv", 6, ["-c:a", "ac3"]),
            "silent": make_marked_clip(media / "silent.mp4", 6, None),
            "late": make_marked_clip(media / "late.mp4", 6, ["-c:a", "aac"], delay=0.5),
            "media": media}


def streams(path) -> dict:
    """ffprobe's streams of `path` by type: codec, start time and duration (s), and for audio rate and channels."""
    out = subprocess.run([shutil.which("ffprobe"), "-v", "error", "-show_entries",
                          "stream=codec_type,codec_name,start_time,duration,sample_rate,channels,profile",
                          "-of", "json", str(path)], check=True, capture_output=True, timeout=60)
    return {stream["codec_type"]: stream for stream in json.loads(out.stdout)["streams"]}


def expect_in_step(path):
    """Both streams start and last alike (within 40 ms); the sound is 48 kHz stereo AAC-LC."""
    found = streams(path)
    video, audio = found["video"], found["audio"]
    assert (audio["codec_name"], audio["profile"], int(audio["sample_rate"]), audio["channels"]) == ("aac", "LC", 48_000, 2)
    assert abs(float(audio["start_time"]) - float(video["start_time"])) <= TOLERANCE, found
    assert abs(float(audio["duration"]) - float(video["duration"])) <= TOLERANCE, found
    return found


def flash_times(path) -> list[float]:
    """When the recording shows a white picture (s)."""
    out = subprocess.run([shutil.which("ffprobe"), "-v", "error", "-f", "lavfi", "-i", f"movie={path},signalstats",
                          "-show_entries", "frame=pts_time:frame_tags=lavfi.signalstats.YAVG", "-of", "csv=p=0"],
                         check=True, capture_output=True, text=True, timeout=60)
    rows = [line.split(",") for line in out.stdout.split()]
    times = [float(t) for t, luma in rows if float(luma) > 128]
    # A held (paused) flash repeats: its first showing counts.
    return [t for i, t in enumerate(times) if i == 0 or t - times[i - 1] > 0.2]


def sound(path) -> np.ndarray:
    """The recording's sound as mono 48 kHz samples from its start, gaps filled as ffmpeg does."""
    out = subprocess.run([shutil.which("ffmpeg"), "-v", "error", "-i", str(path), "-map", "0:a", "-ac", "1", "-ar", "48000",
                          "-af", "aresample=async=1:first_pts=0", "-f", "s16le", "-"], check=True, capture_output=True, timeout=60)
    return np.frombuffer(out.stdout, dtype=np.int16).astype(np.float64)


def beep_times(samples: np.ndarray) -> list[float]:
    loud = np.flatnonzero(np.abs(samples) > 4000)
    if loud.size == 0:
        return []
    return [loud[0] / 48_000] + [b / 48_000 for a, b in zip(loud, loud[1:]) if b - a > 4800]


def expect_beeps_on_flashes(path, minimum: int, cut: bool = False, step: float = STEP):
    """Every beep within `step` of a flash, and at least `minimum` of them. In a `cut` file (kill -9)
    the streams end in different places of the last fragment: a beep past the last flash's second
    may have lost its flash with the video's end."""
    flashes, heard = flash_times(path), beep_times(sound(path))
    if cut:
        heard = [beep for beep in heard if beep < flashes[-1] + 1 - step]
    assert len(heard) >= minimum, (heard, flashes)
    for beep in heard:
        nearest = min(flashes, key=lambda flash: abs(flash - beep))
        assert abs(beep - nearest) <= step, f"a beep at {beep:.3f} s, the nearest flash at {nearest:.3f} s: {heard} {flashes}"


async def command(client: Client, message: dict):
    assert (await client.command(message))["type"] == "ack", message


async def record(client: Client, steps) -> dict:
    """Starts a recording, runs `steps` (an async function of the client), stops; the `recording` state."""
    await command(client, {"type": "record", "action": "start", "filtered": True})
    await wait_state(client, lambda s: s["recording"]["active"], "the recording runs")
    await steps(client)
    await command(client, {"type": "record", "action": "stop"})
    return (await wait_state(client, lambda s: not s["recording"]["active"], "the recording stopped"))["recording"]


def test_a_recording_started_mid_file_keeps_the_sound_in_step_through_a_pause_and_a_seek(start_server, clips, tmp_path):
    server = start_server("--input", str(clips["main"]))

    async def steps(client):
        time.sleep(1.6)
        await command(client, {"type": "pause"})
        time.sleep(1.0)
        await command(client, {"type": "play"})
        time.sleep(1.3)
        await command(client, {"type": "seek", "position": 1.5})
        time.sleep(1.8)

    async def scenario():
        async with await Client.connect(server.ws_url()) as client:
            time.sleep(1.3)  # into the clip: not at a whole second
            return await record(client, steps)

    recording = run(scenario())
    assert recording["error"] is None, recording
    path = tmp_path / "recordings" / recording["name"]
    found = expect_in_step(path)
    assert float(found["video"]["duration"]) >= 5.0, found
    expect_beeps_on_flashes(path, minimum=3)
    # The pause (from about 1.6 s to 2.6 s of the file) is silence, not the sound held or repeated.
    samples = sound(path)
    assert np.abs(samples[int(1.75 * 48_000):int(2.45 * 48_000)]).max() < 500


@pytest.mark.bench
def test_the_sound_follows_source_switches_and_a_recording_started_without_sound_keeps_the_sound_switched_to(
        start_server, clips, tmp_path):
    server = start_server("--input", str(clips["main"]), "--media-dir", str(clips["media"]))

    async def steps(client):
        time.sleep(1.5)
        await command(client, {"type": "open", "source": "media/ac3-51.mkv"})
        time.sleep(2.5)  # not at a whole second: a beep whose flash the switch cuts off would count as out of step
        await command(client, {"type": "open", "source": "media/silent.mp4"})
        time.sleep(1.2)

    async def scenario():
        async with await Client.connect(server.ws_url()) as client:
            switched = await record(client, steps)
            # Started on a source without sound: silence, then the sound of the clip switched to.
            silent = await record(client, switch_after_a_second)
            await command(client, {"type": "open", "source": "media/late.mp4"})
            await wait_state(client, lambda s: s["source"]["name"] == "media/late.mp4", "the late clip plays")
            late = await record(client, lambda _: _sleep(2.0))
            return switched, silent, late

    switched, silent, late = run(scenario())
    path = tmp_path / "recordings" / switched["name"]
    expect_in_step(path)
    expect_beeps_on_flashes(path, minimum=3)
    silent_path = tmp_path / "recordings" / silent["name"]
    expect_in_step(silent_path)
    expect_beeps_on_flashes(silent_path, minimum=2)
    assert np.abs(sound(silent_path)[:int(0.9 * 48_000)]).max() < 500, "sound before the switch to a clip with sound"
    # Sound starting 0.5 s after the picture: silence before it, the streams still in step.
    late_path = tmp_path / "recordings" / late["name"]
    expect_in_step(late_path)


async def _sleep(seconds: float):
    time.sleep(seconds)


async def switch_after_a_second(client):
    time.sleep(1.0)
    await command(client, {"type": "open", "source": "input"})
    time.sleep(2.6)


def test_kill_9_mid_recording_leaves_both_streams_decodable(start_server, clips, tmp_path):
    server = start_server("--input", str(clips["main"]), "--record")
    recording = kill_when_recorded(server, 3.3)
    path = tmp_path / "recordings" / recording["name"]
    found = streams(path)
    assert set(found) == {"video", "audio"}, found
    for kind in ("v:0", "a:0"):
        result = subprocess.run([shutil.which("ffprobe"), "-v", "error", "-count_frames", "-select_streams", kind,
                                 "-show_entries", "stream=nb_read_frames", "-of", "csv=p=0", str(path)],
                                capture_output=True, text=True, timeout=60)
        assert result.returncode == 0 and result.stderr == "" and int(result.stdout) > 0, (kind, result.stderr)
    # Fragments close every second: at most the one being gathered is lost, of either stream.
    heard = len(sound(path)) / 48_000
    assert heard >= 0.6 * recording["elapsed"], (heard, recording)
    expect_beeps_on_flashes(path, minimum=2, cut=True)
