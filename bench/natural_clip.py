#!/usr/bin/python3
"""Natural footage for benchmarks and tests, made at run time from Debian's `opencv-doc`.

The test pattern compresses far better than a camera does, so transport figures measured on it
flatter H.264 and JPEG alike. This clip is camera-like (measured: JPEG q80 ≈ 120 KB a frame,
x264 CRF 23 ≈ 1.8 Mbit/s, a ratio of ~13×, as the real footage of issue 14): a real photo
(aloeL.jpg) panned and with a little temporal noise (sensor grain), a real film clip
(Megamind.avi) moving over it.

    from natural_clip import natural_clip
    path = natural_clip()            # made once, then taken from the cache

    /usr/bin/python3 bench/natural_clip.py [OUTPUT.mp4]   # writes it (default: the cache)

The cache is $FILTERCAST_BENCH_CACHE, else TMPDIR/filtercast-bench; the file name carries a hash
of the recipe, so a changed recipe makes a new clip.
"""
from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

DATA = Path("/usr/share/doc/opencv-doc/examples/data")
SOURCES = ("aloeL.jpg", "Megamind.avi")
WIDTH, HEIGHT, FPS = 1280, 720, 25
# Megamind.avi lasts 11.3 s; played 4 times the clip lasts 45 s, so a benchmark run (a fresh
# server per run, a few seconds of settling and 20 s of measuring) never reaches the loop point,
# where the server seeks back to the start and the first frames after it are late.
PLAYS = 4
# One recipe: the photo scaled up and panned slowly on two axes, grain that changes every frame
# (noise allf=t), the film moving across it; yuv420p H.264 at CRF 16 so the source itself is close
# to lossless next to what the transports do to it.
FILTER_GRAPH = (f"[0]scale=1600:1386,crop={WIDTH}:{HEIGHT}:x='160+150*sin(t*0.7)':y='300+200*sin(t*0.45)',"
                "noise=alls=3:allf=t[bg];"
                f"[1]scale=640:470,fps={FPS}[fg];"
                "[bg][fg]overlay=x='320+200*sin(t*0.3)':y=200:shortest=1,format=yuv420p")


def ffmpeg_command(data: Path, output: Path) -> list[str]:
    """The ffmpeg command line that writes the clip to `output` from the files in `data`."""
    return ["ffmpeg", "-hide_banner", "-loglevel", "error", "-y",
            "-loop", "1", "-framerate", str(FPS), "-i", str(data / SOURCES[0]),
            "-stream_loop", str(PLAYS - 1), "-i", str(data / SOURCES[1]),
            "-filter_complex", FILTER_GRAPH, "-an", "-c:v", "libx264", "-preset", "fast", "-crf", "16",
            str(output)]


def cache_dir() -> Path:
    path = Path(os.environ.get("FILTERCAST_BENCH_CACHE") or Path(tempfile.gettempdir()) / "filtercast-bench")
    path.mkdir(parents=True, exist_ok=True)
    return path


def opencv_data(cache: Path) -> Path:
    """The directory holding aloeL.jpg and Megamind.avi: opencv-doc's, or, where the image keeps
    dpkg from installing /usr/share/doc (a path-exclude in /etc/dpkg/dpkg.cfg.d, as Docker-like
    images have), the same files extracted from the .deb into the cache."""
    if all((DATA / name).is_file() for name in SOURCES):
        return DATA
    extracted = cache / "opencv-doc" / DATA.relative_to("/")
    if not all((extracted / name).is_file() for name in SOURCES):
        download = cache / "opencv-doc-deb"
        download.mkdir(exist_ok=True)
        try:
            subprocess.run(["apt-get", "download", "opencv-doc"], cwd=download, check=True)
            deb = next(download.glob("opencv-doc_*.deb"))
            subprocess.run(["dpkg", "-x", str(deb), str(cache / "opencv-doc")], check=True)
            deb.unlink()  # 96 MB, and what was in it is extracted now
        except (OSError, subprocess.CalledProcessError, StopIteration) as error:
            raise RuntimeError(f"no {DATA}: apt-get install opencv-doc (downloading the .deb failed: {error})")
    return extracted


def clip_name() -> str:
    """natural720-HASH.mp4, HASH taken from the recipe."""
    recipe = " ".join(ffmpeg_command(Path("DATA"), Path("OUT")))
    return f"natural720-{hashlib.sha256(recipe.encode()).hexdigest()[:10]}.mp4"


def natural_clip(output: Path | None = None) -> Path:
    """The clip's path, made first when it is not there yet (about a minute on 2 cores)."""
    cache = cache_dir()
    output = Path(output) if output else cache / clip_name()
    if output.is_file():
        return output
    if not shutil.which("ffmpeg"):
        raise RuntimeError("the ffmpeg CLI is needed to make the clip (apt-get install ffmpeg)")
    partial = output.with_name(output.stem + ".partial.mp4")  # never a half-written clip in the cache
    subprocess.run(ffmpeg_command(opencv_data(cache), partial), check=True, timeout=600)
    partial.replace(output)
    return output


def natural_clip_1080p30() -> Path:
    """The clip scaled to 1920x1080 at 30 fps (frames repeated), cached beside it: the size and rate
    of the issues' 1080p30 figures, with the same detail."""
    source = natural_clip()
    output = source.with_name(source.stem + "-1080p30.mp4")
    if not output.is_file():
        partial = output.with_name(output.stem + ".partial.mp4")
        subprocess.run(["ffmpeg", "-hide_banner", "-loglevel", "error", "-y", "-i", str(source),
                        "-vf", "scale=1920:1080:flags=lanczos,fps=30", "-an", "-c:v", "libx264", "-preset", "fast",
                        "-crf", "16", str(partial)], check=True, timeout=900)
        partial.replace(output)
    return output


if __name__ == "__main__":
    print(natural_clip(Path(sys.argv[1]) if len(sys.argv) > 1 else None))
