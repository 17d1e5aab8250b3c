#!/usr/bin/python3
"""Measures a student checkpoint against its teacher on held-out frames, and both networks' speed.

    nice -n 19 /usr/bin/python3 deps/style_distil/evaluate.py --checkpoint OUT/checkpoint.pt \
        --openvino-python DIR [--onnx deps/style_distil/student.onnx]

Quality: for each style of `--styles`, student and teacher on the same held-out frames at 640x360
(the size the network runs at in a 720p stream): HELD_OUT photographs (data.py) resized and cropped
to 16:9, and frames of the natural clip (bench/natural_clip.py) from seconds 8.5-11, whose film
seconds and background (aloeL.jpg) training never saw. Luma SSIM (11x11 Gaussian) and RGB PSNR.
Speed: the student exported to ONNX and multistyle26, both in OpenVINO (Python API, CPU, float32,
2 threads), at 640x360 and 1280x720, interleaved in one run; the load average beside each.
"""
import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import torch
from PIL import Image

import data
import student

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent


def arguments():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--checkpoint", type=Path, required=True)
    parser.add_argument("--openvino-python", type=Path, required=True)
    parser.add_argument("--teacher", type=Path, default=REPO / ".build/openvino/models/multistyle26.onnx")
    parser.add_argument("--onnx", type=Path, help="where to export the student (default: next to the checkpoint)")
    parser.add_argument("--styles", default="0,3,6,9,12,15,18,21,24,25")
    parser.add_argument("--clip-frames", type=int, default=4)
    parser.add_argument("--speed-runs", type=int, default=20)
    parser.add_argument("--no-speed", action="store_true")
    parser.add_argument("--save-samples", type=Path, help="folder for side-by-side PNGs (teacher | student)")
    return parser.parse_args()


def to_360p(picture: Image.Image) -> np.ndarray:
    """Scaled to cover 640x360 and centre-cropped; 3 x 360 x 640 in 0..1."""
    scale = max(640 / picture.size[0], 360 / picture.size[1])
    w, h = round(picture.size[0] * scale), round(picture.size[1] * scale)
    resized = picture.resize((w, h), Image.BILINEAR)
    x, y = (w - 640) // 2, (h - 360) // 2
    crop = np.asarray(resized.crop((x, y, x + 640, y + 360)), dtype=np.float32) / 255
    return np.ascontiguousarray(crop.transpose(2, 0, 1))


def clip_frames(count: int) -> list:
    sys.path.insert(0, str(REPO / "bench"))
    from natural_clip import natural_clip
    clip = natural_clip()
    frames = []
    for i in range(count):
        at = 8.5 + 2.5 * i / max(count - 1, 1)
        raw = subprocess.run(["nice", "-n", "19", "ffmpeg", "-v", "error", "-ss", f"{at:.2f}", "-i", str(clip),
                              "-frames:v", "1", "-vf", "scale=640:360", "-f", "rawvideo", "-pix_fmt", "rgb24", "-"],
                             check=True, capture_output=True).stdout
        frames.append(np.frombuffer(raw, np.uint8).reshape(360, 640, 3).transpose(2, 0, 1).astype(np.float32) / 255)
    return frames


def held_out(args) -> list:
    photos = [(name, to_360p(Image.open(data.DATA / name).convert("RGB"))) for name in data.HELD_OUT]
    clip = [(f"clip{i}", frame) for i, frame in enumerate(clip_frames(args.clip_frames))]
    return photos + clip


def quality(args, model, teacher, frames) -> list:
    rows = []
    for style in [int(s) for s in args.styles.split(",")]:
        weights = data.one_hot(style)
        targets = torch.from_numpy(np.stack([teacher(frame, weights) for _, frame in frames]))
        images = torch.from_numpy(np.stack([frame for _, frame in frames]))
        with torch.no_grad():
            outputs = torch.cat([model(images[i:i + 1], torch.from_numpy(weights)) for i in range(len(frames))])
        ssim, psnr = student.ssim(outputs, targets), student.psnr(outputs, targets)
        rows.append((style, ssim.mean().item(), ssim.min().item(), psnr.mean().item(), os.getloadavg()[0]))
        print(f"style {style:2d} ssim {rows[-1][1]:.3f} (min {rows[-1][2]:.3f}) psnr {rows[-1][3]:.2f} dB "
              f"load {rows[-1][4]:.1f}", flush=True)
        if args.save_samples:
            save_samples(args.save_samples, style, frames, targets, outputs)
    return rows


def save_samples(folder: Path, style: int, frames, targets, outputs):
    folder.mkdir(parents=True, exist_ok=True)
    for index in (0, len(frames) - 1):
        row = np.concatenate([frames[index][1], targets[index].numpy(), outputs[index].numpy()], axis=2)
        picture = Image.fromarray((row.transpose(1, 2, 0) * 255 + 0.5).astype(np.uint8))
        picture.save(folder / f"style{style:02d}-{frames[index][0].removesuffix('.jpg')}.png")


def export(model, path: Path):
    image, weights = torch.rand(1, 3, 360, 640), torch.from_numpy(data.one_hot(0))
    torch.onnx.export(model, (image, weights), str(path), opset_version=13, input_names=["image", "style_weights"],
                      output_names=["stylized"], dynamic_axes={"image": {2: "height", 3: "width"},
                                                               "stylized": {2: "height", 3: "width"}})


def speed(args, core, path: Path, height: int, width: int) -> tuple:
    """(frames a second of wall time, CPU seconds a frame): at nice 19 on a loaded machine the first
    says how much CPU was left; the second is the cost (2 idle cores: fps ~ 2 / CPU seconds)."""
    model = core.read_model(str(path))
    model.reshape({"image": [1, 3, height, width], "style_weights": [data.STYLES]})
    request = core.compile_model(model, "CPU").create_infer_request()
    inputs = {"image": np.random.default_rng(0).random((1, 3, height, width), dtype=np.float32),
              "style_weights": data.one_hot(3)}
    for _ in range(3):
        request.infer(inputs)
    times, cpu = [], time.process_time()
    for _ in range(args.speed_runs):
        started = time.perf_counter()
        request.infer(inputs)
        times.append(time.perf_counter() - started)
    return 1 / float(np.median(times)), (time.process_time() - cpu) / args.speed_runs


def main():
    args = arguments()
    torch.set_num_threads(2)
    state = torch.load(args.checkpoint)
    model = student.Student(state["width"], state["blocks"])
    model.load_state_dict(state["model"])
    model.eval()
    weights, norms = student.parameter_counts(model)
    print(f"checkpoint step {state['step']}, {weights} weights + {norms} per-style norm values", flush=True)
    teacher = data.Teacher(args.openvino_python, args.teacher)
    rows = quality(args, model, teacher, held_out(args))
    print(f"mean over styles: ssim {np.mean([r[1] for r in rows]):.3f} psnr {np.mean([r[3] for r in rows]):.2f} dB")
    onnx = args.onnx or args.checkpoint.with_name("student.onnx")
    export(model, onnx)
    print(f"exported {onnx} ({onnx.stat().st_size} bytes)")
    if args.no_speed:
        return
    for height, width in ((360, 640), (720, 1280)):
        for name, path in (("student", onnx), ("multistyle26", args.teacher)):
            fps, cpu = speed(args, teacher.core, path, height, width)
            print(f"speed {name} {width}x{height}: {fps:.1f} fps (median of {args.speed_runs}), "
                  f"{cpu * 1000:.0f} ms CPU a frame (=> {2 / cpu:.1f} fps on 2 idle cores) "
                  f"load {os.getloadavg()[0]:.1f}", flush=True)


if __name__ == "__main__":
    main()
