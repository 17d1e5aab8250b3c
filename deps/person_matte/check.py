#!/usr/bin/env python3
"""Checks the converted models (OpenVINO IR) against MediaPipe's own runtime running the original .tflite.

Usage (the Python of tools-requirements.txt: CPython 3.11 with mediapipe 0.10.14 and openvino 2026.4.1):
    /tmp/matte-venv/bin/python deps/person_matte/check.py
Writes deps/person_matte/CHECK.log (and prints it).

The reference is MediaPipe's SelfieSegmentation solution (model_selection 1 = landscape, 0 = square): its
graph (selfie_segmentation_cpu.binarypb) stretches the RGB picture to the model's size (no letterbox,
bilinear, floats in [0, 1]), runs the .tflite with MediaPipe's op resolver (which has the custom op) on
XNNPACK, takes the output as is (activation NONE: the model ends in a sigmoid) and resizes the mask back
to the picture's size. The installed package's .tflite files must be the pinned ones (checked).

Two comparisons per picture and model:
  net   the picture stretched to the model's size first (OpenCV INTER_AREA), so MediaPipe's own resizing is
        the identity: the two runtimes get the same input and the masks compare network to network.
  full  MediaPipe on the whole picture against the same pipeline around the IR: stretch to the model's size
        the way MediaPipe's CPU ImageToTensorCalculator samples (bilinear, output pixel x reads input x*Win/Wout:
        corners aligned, not centres, found by trying; OpenCV warpAffine), run the IR, resize the mask back
        (bilinear, cv2.resize): the pipeline, not only the network.
  centred  (not held to the goals) the same with a plain centre-aligned bilinear resize down (cv2.resize),
        as a frame scaler would do: it differs from MediaPipe only by MediaPipe's sub-pixel shift (up to half
        an input pixel), which shows how much a matte's edge moves with a sub-pixel shift of the input.
  bf16  (not held to the goals) net, with OpenVINO's CPU default precision where the CPU has bfloat16
        (avx512_bf16 / AMX: the default is then bf16, not f32; every other line sets the f32 hint).
Measures: mean absolute difference of the masks (goal <= 0.02), largest difference, IoU of the masks
thresholded at 0.5 (goal >= 0.98; where neither mask has a pixel over 0.5 the IoU is taken as 1 and the
line says "none"), and the share of the picture the reference calls person.
Pictures: photographs with people from Debian's opencv-doc (examples/data) and from the pinned
scikit-image wheel (astronaut.png, camera.png); a crop of basketball1.png brings its people nearer.
Then the IR's run time in OpenVINO at 1 and 2 threads (median of 50 runs after 5 warm-ups, 3 rounds),
and MediaPipe's time per picture for comparison.
"""
import io
import os
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import HERE, MODELS, check_openvino, sha256, wheel_member  # noqa: E402

import cv2  # noqa: E402
import numpy as np  # noqa: E402

ov = check_openvino()
import mediapipe  # noqa: E402
from mediapipe.python.solutions import selfie_segmentation  # noqa: E402

DATA = Path("/usr/share/doc/opencv-doc/examples/data")
SELECTION = {"selfie_segmentation_landscape": 1, "selfie_segmentation": 0}
LOG = []


def log(text: str = "") -> None:
    print(text, flush=True)
    LOG.append(text)


def pictures() -> list:
    """(label, RGB uint8 picture) of photographs with people."""
    out = []
    for name in ("messi5.jpg", "basketball1.png", "basketball2.png", "left01.jpg", "left07.jpg"):
        path = DATA / name
        if not path.is_file():
            sys.exit(f"{path} is missing: apt-get install opencv-doc")
        out.append((name, cv2.cvtColor(cv2.imread(str(path)), cv2.COLOR_BGR2RGB)))
    basketball = out[1][1]
    h, w = basketball.shape[:2]
    out.append(("basketball1.png right half", np.ascontiguousarray(basketball[:, w // 2:])))
    out.append(("basketball1.png left third", np.ascontiguousarray(basketball[:, : w // 3])))
    for name in ("astronaut.png", "camera.png"):
        data = wheel_member("scikit-image", "skimage/data/" + name)
        picture = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
        out.append((f"{name} (scikit-image)", cv2.cvtColor(picture, cv2.COLOR_BGR2RGB)))
    return out


def compare(ref: np.ndarray, out: np.ndarray) -> dict:
    diff = np.abs(ref.astype(np.float64) - out.astype(np.float64))
    a, b = ref > 0.5, out > 0.5
    union = int((a | b).sum())
    return {"mad": float(diff.mean()), "max": float(diff.max()),
            "iou": float((a & b).sum()) / union if union else 1.0, "none": union == 0,
            "person": float(a.mean())}


def mediapipe_resize(rgb: np.ndarray, width: int, height: int) -> np.ndarray:
    """Bilinear, output pixel (x, y) sampled at input (x * Win / Wout, y * Hin / Hout), as MediaPipe's CPU
    ImageToTensorCalculator does with keep_aspect_ratio false (its own resize is corner-aligned)."""
    ph, pw = rgb.shape[:2]
    matrix = np.array([[pw / width, 0, 0], [0, ph / height, 0]], np.float64)
    return cv2.warpAffine(rgb, matrix, (width, height), flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                          borderMode=cv2.BORDER_CONSTANT)


def fmt(m: dict, held: bool = True) -> str:
    iou = "none" if m["none"] else f"{m['iou']:.4f}"
    ok = ("ok" if m["mad"] <= 0.02 and m["iou"] >= 0.98 else "FAIL") if held else "(info)"
    return f"MAD {m['mad']:.6f}  max {m['max']:.4f}  IoU {iou:>6}  person {m['person']:.3f}  {ok}"


def median_ms(run, x, warm=5, n=50) -> float:
    for _ in range(warm):
        run(x)
    times = []
    for _ in range(n):
        start = time.perf_counter()
        run(x)
        times.append((time.perf_counter() - start) * 1e3)
    return float(np.median(times))


def main() -> int:
    cpu = subprocess.run(["lscpu"], capture_output=True, text=True).stdout
    model_name = next((l.split(":", 1)[1].strip() for l in cpu.splitlines() if l.startswith("Model name")), "?")
    flags = next((l for l in cpu.splitlines() if l.startswith("Flags")), "")
    isa = [f for f in ("avx2", "fma", "avx512f", "avx512_vnni", "avx512_bf16", "amx_tile") if f" {f}" in flags]
    log(f"openvino {ov.get_version()}, mediapipe {mediapipe.__version__}, opencv {cv2.__version__}, "
        f"numpy {np.__version__}; CPU: {model_name} ({', '.join(isa)}), {os.cpu_count()} cores, "
        f"load {os.getloadavg()[0]:.2f}")
    installed = Path(mediapipe.__file__).parent / "modules" / "selfie_segmentation"
    for name, (member, digest, *_rest) in MODELS.items():
        found = sha256((installed / Path(member).name).read_bytes())
        if found != digest:
            sys.exit(f"the installed mediapipe's {Path(member).name} is not the pinned one ({found})")
    log("MediaPipe's installed .tflite files are the pinned ones (sha256 as in common.py)")
    core = ov.Core()
    photos = pictures()
    worst = {"net": {"mad": 0.0, "iou": 1.0}, "full": {"mad": 0.0, "iou": 1.0}}
    below = []
    for name, (_, _, (height, width), input_name, output_name) in MODELS.items():
        xml = HERE / (name + ".xml")
        log()
        log(f"{name} ({width}x{height}): {xml.name} against MediaPipe model_selection={SELECTION[name]}")
        net = core.compile_model(str(xml), "CPU", {"INFERENCE_PRECISION_HINT": "f32"})
        default = core.compile_model(str(xml), "CPU")
        default_precision = default.get_property("INFERENCE_PRECISION_HINT").get_type_name()
        log(f"  (OpenVINO's CPU default precision here: {default_precision})")
        with selfie_segmentation.SelfieSegmentation(model_selection=SELECTION[name]) as reference:
            for label, rgb in photos:
                ph, pw = rgb.shape[:2]
                small = cv2.resize(rgb, (width, height), interpolation=cv2.INTER_AREA)
                ref = reference.process(small).segmentation_mask
                out = net({input_name: small[None].astype(np.float32) / 255.0})[output_name][0, :, :, 0]
                at_net = compare(ref, out)
                out = default({input_name: small[None].astype(np.float32) / 255.0})[output_name][0, :, :, 0]
                at_default = compare(ref, out)
                ref_full = reference.process(rgb).segmentation_mask
                lines = {}
                for tag, down in (("full", mediapipe_resize(rgb, width, height)),
                                  ("centred", cv2.resize(rgb, (width, height), interpolation=cv2.INTER_LINEAR))):
                    out = net({input_name: down[None].astype(np.float32) / 255.0})[output_name][0, :, :, 0]
                    lines[tag] = compare(ref_full, cv2.resize(out, (pw, ph), interpolation=cv2.INTER_LINEAR))
                full = lines["full"]
                log(f"  {label:<34} {pw}x{ph}")
                log(f"    net     {fmt(at_net)}")
                log(f"    full    {fmt(full)}")
                log(f"    centred {fmt(lines['centred'], held=False)}")
                if default_precision != "f32":
                    log(f"    {default_precision:<7} {fmt(at_default, held=False)}")
                for tag, m in (("net", at_net), ("full", full)):
                    worst[tag]["mad"] = max(worst[tag]["mad"], m["mad"])
                    worst[tag]["iou"] = min(worst[tag]["iou"], m["iou"])
                    if m["mad"] > 0.02 or m["iou"] < 0.98:
                        below.append(f"{tag} {name} {label} (person {m['person']:.3f}: IoU {m['iou']:.4f})")
    log()
    for tag, what in (("net", "the conversion: both runtimes given the same input"),
                      ("full", "the pipeline, MediaPipe's resampling emulated")):
        w = worst[tag]
        log(f"worst {tag} ({what}): MAD {w['mad']:.6f} (goal <= 0.02), IoU {w['iou']:.4f} (goal >= 0.98): "
            + ("PASS" if w["mad"] <= 0.02 and w["iou"] >= 0.98 else "FAIL"))
    for line in below:
        log(f"  below a goal: {line}")

    log()
    log("Run time, OpenVINO Python API, CPU, LATENCY hint, no pinning, precision hint as named; median ms of 50 "
        "runs after 5 warm-ups, 3 rounds (the machine is shared: the spread is the rounds'); bf16 too where "
        "the CPU has it")
    rng = np.random.default_rng(0)
    for name, (_, _, (height, width), input_name, _) in MODELS.items():
        x = rng.random((1, height, width, 3), dtype=np.float32)
        precisions = ["f32"] + (["bf16"] if "BF16" in core.get_property("CPU", "OPTIMIZATION_CAPABILITIES") else [])
        for precision, threads in [(p, t) for p in precisions for t in (1, 2)]:
          props = {"INFERENCE_NUM_THREADS": threads, "PERFORMANCE_HINT": "LATENCY",
                   "ENABLE_CPU_PINNING": False, "INFERENCE_PRECISION_HINT": precision}
          request = core.compile_model(str(HERE / (name + ".xml")), "CPU", props).create_infer_request()
          rounds = [median_ms(lambda v: request.infer({input_name: v}), x) for _ in range(3)]
          log(f"  {name} {width}x{height} {precision} threads={threads}: "
              + " / ".join(f"{v:.2f}" for v in rounds) + f" ms (median {np.median(rounds):.2f})")
    log("MediaPipe 0.10.14 for comparison (process() on a picture already at the model's size: graph, "
        "XNNPACK with its default threads, conversions; same timing):")
    for name, (_, _, (height, width), *_rest) in MODELS.items():
        picture = (rng.random((height, width, 3)) * 255).astype(np.uint8)
        with selfie_segmentation.SelfieSegmentation(model_selection=SELECTION[name]) as reference:
            rounds = [median_ms(reference.process, picture) for _ in range(3)]
        log(f"  {name} {width}x{height}: " + " / ".join(f"{v:.2f}" for v in rounds)
            + f" ms (median {np.median(rounds):.2f})")
    (HERE / "CHECK.log").write_text("\n".join(LOG) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
