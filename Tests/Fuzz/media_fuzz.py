#!/usr/bin/python3
"""Media fuzz (issue 8): mutated copies of small MP4 / MKV / WebM clips — bit flips, truncation,
swapped or zeroed boxes — fed to `filtercast snapshot`. Every file must end within the timeout
with either a picture (exit 0, a JPEG) or a clear error (exit 1, a message on stderr): never a
crash (a signal), a hang, or a silent failure.

Usage: media_fuzz.py FILTERCAST_BIN [--files N] [--seed S] [--timeout SECONDS] [--keep DIR]
Prints one line per failure and a summary; exits 1 when anything failed.
"""
import argparse, os, random, subprocess, sys, tempfile

CLIPS = {  # container: ffmpeg output options
    "mp4": ["-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", "-movflags", "+faststart"],
    "mkv": ["-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p"],
    "webm": ["-c:v", "libvpx", "-deadline", "realtime", "-b:v", "300k"],
}


def make_clips(folder):
    paths = []
    for container, options in CLIPS.items():
        path = os.path.join(folder, f"clip.{container}")
        subprocess.run(["ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=160x120:rate=15",
                        "-t", "1", *options, path], check=True)
        paths.append(path)
    return paths


def boxes(data):
    """Offsets and sizes of the top-level ISO BMFF boxes (MP4); empty for other containers."""
    found, offset = [], 0
    while offset + 8 <= len(data):
        size = int.from_bytes(data[offset:offset + 4], "big")
        if size < 8 or offset + size > len(data):
            break
        found.append((offset, size))
        offset += size
    return found


def mutate(data, rng):
    data = bytearray(data)
    kind = rng.choice(["flip", "flip", "truncate", "zero", "swap", "duplicate"])
    if kind == "flip":
        for _ in range(rng.randint(1, 64)):
            data[rng.randrange(len(data))] ^= 1 << rng.randrange(8)
    elif kind == "truncate":
        del data[rng.randrange(1, len(data)):]
    elif kind == "zero":
        start = rng.randrange(len(data))
        data[start:start + rng.randint(1, 512)] = bytes(min(512, len(data) - start))
    elif kind in ("swap", "duplicate"):
        found = boxes(data)
        if len(found) >= 2:
            (a, asize), (b, bsize) = sorted(rng.sample(found, 2))
            first, second = bytes(data[a:a + asize]), bytes(data[b:b + bsize])
            if kind == "swap":
                data = data[:a] + second + data[a + asize:b] + first + data[b + bsize:]
            else:
                data = data[:b] + first + data[b:]
        else:  # not a box container: move a chunk
            start, length = rng.randrange(len(data)), rng.randint(16, 4096)
            chunk = data[start:start + length]
            del data[start:start + length]
            at = rng.randrange(len(data) + 1)
            data[at:at] = chunk
    return kind, bytes(data)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("binary")
    parser.add_argument("--files", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--timeout", type=float, default=20)
    parser.add_argument("--keep", help="copy failing inputs here")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    failures, outcomes = 0, {"picture": 0, "error": 0}
    with tempfile.TemporaryDirectory() as folder:
        clips = make_clips(folder)
        originals = {path: open(path, "rb").read() for path in clips}
        for index in range(args.files):
            clip = clips[index % len(clips)]
            kind, data = mutate(originals[clip], rng)
            source = os.path.join(folder, f"mutant{index}{os.path.splitext(clip)[1]}")
            output = os.path.join(folder, "out.jpg")
            with open(source, "wb") as handle:
                handle.write(data)
            problem = None
            try:
                run = subprocess.run([args.binary, "snapshot", "--input", source, "--at", "0.5", "-o", output],
                                     capture_output=True, timeout=args.timeout)
                stderr = run.stderr.decode(errors="replace").strip()
                if run.returncode == 0:
                    with open(output, "rb") as handle:
                        if handle.read(2) != b"\xff\xd8":
                            problem = "exit 0 without a JPEG"
                    outcomes["picture"] += 1
                elif run.returncode == 1 and stderr:
                    outcomes["error"] += 1
                else:
                    problem = f"exit {run.returncode}: {stderr[-300:]!r}"
            except subprocess.TimeoutExpired:
                problem = f"no answer within {args.timeout} s"
            finally:
                if os.path.exists(output):
                    os.remove(output)
            if problem:
                failures += 1
                print(f"FAIL {os.path.basename(clip)} {kind} #{index}: {problem}")
                if args.keep:
                    os.makedirs(args.keep, exist_ok=True)
                    os.replace(source, os.path.join(args.keep, os.path.basename(source)))
                    continue
            os.remove(source)
    print(f"media fuzz: {args.files} files, {outcomes['picture']} pictures, {outcomes['error']} clear errors, "
          f"{failures} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
