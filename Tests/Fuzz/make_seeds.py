#!/usr/bin/env python3
"""Writes the seeds of the ingest fuzzers from clips the ffmpeg CLI makes: corpus/ingest and
corpus/browser-source from x264 access units (Annex B, 64x64 and other sizes) and JPEGs (4:2:0,
4:2:2, 4:4:4, grey), each valid and broken; corpus/upload-probe from tiny MP4, MKV, WebM and AVI
clips, a cut one and files that are no video. Run from anywhere; needs ffmpeg with libx264 and
libvpx."""
import pathlib
import struct
import subprocess
import tempfile

HERE = pathlib.Path(__file__).resolve().parent
SEPARATOR = b"FCIS"  # FuzzBrowserSource's picture separator


def ffmpeg(out, size, frames, *args):
    subprocess.run(["ffmpeg", "-hide_banner", "-loglevel", "error", "-y", "-f", "lavfi",
                    "-i", f"testsrc2=size={size}:rate=30", "-frames:v", str(frames), *args, str(out)], check=True)
    return out.read_bytes()


def nal_units(stream):
    """The NAL units of an Annex B stream, each with its start code."""
    starts = []
    i = stream.find(b"\x00\x00\x01")
    while i >= 0:
        starts.append(i - 1 if i > 0 and stream[i - 1] == 0 else i)
        i = stream.find(b"\x00\x00\x01", i + 3)
    return [stream[a:b] for a, b in zip(starts, starts[1:] + [len(stream)])]


def access_units(stream):
    """(keyframe, bytes) per picture: SPS/PPS go with the IDR slice after them; SEI is dropped
    (x264's is its 600-byte version string)."""
    units, pending = [], b""
    for nal in nal_units(stream):
        kind = nal[nal.index(1) + 1] & 0x1F
        if kind == 6:
            continue
        pending += nal
        if kind in (1, 5):
            units.append((kind == 5, pending))
            pending = b""
    return units


def h264(tmp, size, frames, *args):
    return access_units(ffmpeg(tmp / "clip.h264", size, frames, "-c:v", "libx264", "-tune", "zerolatency",
                               "-pix_fmt", "yuv420p", *args, "-bsf:v", "h264_mp4toannexb", "-f", "h264"))


def jpeg(tmp, size, pix_fmt="yuvj420p", quality=5):
    return ffmpeg(tmp / "picture.jpg", size, 1, "-pix_fmt", pix_fmt, "-q:v", str(quality))


def ingest_message(payload, keyframe, sequence, flags_extra=0, length=32, magic=b"FCI1"):
    header = magic + struct.pack("<HHQqQ", length, (2 if keyframe else 0) | flags_extra, sequence, sequence * 33_333, 0)
    return header + payload


def source_input(codec_h264, burst, session_announced, pictures):
    mode = (1 if codec_h264 else 0) | (2 if burst else 0) | (4 if session_announced else 0)
    return bytes([mode]) + SEPARATOR.join(bytes([1 if key else 0]) + data for key, data in pictures)


def flipped(data, every=97):
    """A broken copy: every `every`th byte past the first 40 inverted."""
    out = bytearray(data)
    for i in range(40, len(out), every):
        out[i] ^= 0xFF
    return bytes(out)


def write(folder, seeds):
    """Seeds by name: those named valid-* make frames (the swift tests check it)."""
    folder.mkdir(parents=True, exist_ok=True)
    for old in folder.iterdir():
        old.unlink()
    for name, data in seeds.items():
        (folder / name).write_bytes(data)


def clips(tmp):
    """Tiny files of each accepted container, named by what they are."""
    made = {}
    for name, args in {"valid-mp4-h264.mp4": ["-c:v", "libx264", "-pix_fmt", "yuv420p", "-movflags", "+faststart"],
                       "valid-mkv-h264.mkv": ["-c:v", "libx264", "-pix_fmt", "yuv420p"],
                       "valid-webm-vp8.webm": ["-c:v", "libvpx", "-b:v", "100k"],
                       "valid-avi-mjpeg.avi": ["-c:v", "mjpeg", "-q:v", "8"],
                       "valid-mp4-mpeg4.mp4": ["-c:v", "mpeg4", "-q:v", "8"]}.items():
        made[name] = ffmpeg(tmp / name, "32x32", 3, *args)
    made["cut-mp4"] = made["valid-mp4-h264.mp4"][: len(made["valid-mp4-h264.mp4"]) // 2]
    made["text"] = b"This is not a video.\n" * 4
    made["hls-playlist.m3u8"] = b"#EXTM3U\n#EXT-X-TARGETDURATION:1\n#EXTINF:1,\n/etc/passwd\n#EXT-X-ENDLIST\n"
    return made


def main():
    with tempfile.TemporaryDirectory() as name:
        tmp = pathlib.Path(name)
        clip = h264(tmp, "64x64", 8, "-preset", "ultrafast", "-g", "8")
        slow = h264(tmp, "64x64", 6, "-preset", "medium", "-g", "3")
        small, large, wide = h264(tmp, "32x32", 2), h264(tmp, "128x128", 2), h264(tmp, "128x32", 1)
        jpegs = [jpeg(tmp, "64x64", fmt) for fmt in ("yuvj420p", "yuvj422p", "yuvj444p", "gray")]
        small_jpeg, large_jpeg = jpeg(tmp, "40x30", quality=8), jpeg(tmp, "128x128", quality=8)
        write(HERE / "corpus/upload-probe", clips(tmp))
    write(HERE / "corpus/ingest", {
        "valid-h264-idr": ingest_message(clip[0][1], True, 0), "valid-h264-p": ingest_message(clip[1][1], False, 1),
        "valid-jpeg": ingest_message(jpegs[0], True, 2),
        "valid-all-flags": ingest_message(b"\x00\x00\x00\x01\x65", True, 3, flags_extra=0xFFFD),
        "header-only": ingest_message(b"", True, 4), "header-length-40": ingest_message(b"x", False, 5, length=40),
        "server-magic": ingest_message(b"x", False, 6, magic=b"FCF1"), "magic-only": b"FCI1", "empty": b"",
        "cut-header": ingest_message(jpegs[1], True, 7)[:31],
    })
    write(HERE / "corpus/browser-source", {
        "valid-h264": source_input(True, False, False, clip), "valid-h264-burst": source_input(True, True, True, clip),
        "valid-h264-gop3": source_input(True, False, True, slow),
        "valid-jpeg-formats": source_input(False, False, False, [(True, j) for j in jpegs]),
        "h264-p-first": source_input(True, False, False, clip[1:3] + clip[:1]),
        "h264-flipped": source_input(True, False, False, [(k, flipped(d)) for k, d in clip]),
        "h264-smaller-then-valid": source_input(True, False, False, small + clip[:2]),
        "h264-larger-then-valid": source_input(True, False, False, large + clip[:1]),
        "h264-wide": source_input(True, False, False, wide),
        "h264-cut-idr": source_input(True, False, False, [(True, clip[0][1][:len(clip[0][1]) // 2])]),
        "jpeg-burst-overflow": source_input(False, True, True, [(True, small_jpeg)] * 10),
        "jpeg-smaller-larger-valid": source_input(False, False, True, [(True, small_jpeg), (True, large_jpeg), (True, jpegs[2])]),
        "jpeg-flipped-cut": source_input(False, False, False, [(True, flipped(j, 61)) for j in jpegs[:2]] + [(True, jpegs[0][:900])]),
    })

if __name__ == "__main__":
    main()
