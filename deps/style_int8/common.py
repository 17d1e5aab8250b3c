"""What the quantization scripts share: where things are, the pictures, SSIM and PSNR.

OPENVINO_PYTHON names the pinned openvino wheel (deps/openvino-requirements.txt) unzipped into a
folder; NNCF_PYTHON a folder `pip install --target` put nncf==3.4.0 in (for quantize.py only).
"""
import sys, os, glob
from pathlib import Path
HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
sys.path.insert(0, os.environ.get('OPENVINO_PYTHON', '/tmp/distil-ov'))
import numpy as np
from PIL import Image
DATA = '/usr/share/doc/opencv-doc/examples/data'
HOLDOUT = ['aloeL.jpg', 'baboon.jpg', 'fruits.jpg', 'messi5.jpg']
FLOAT_MODEL = str(REPO / '.build/openvino/models/multistyle26.onnx')
INT8_MODEL = str(HERE / 'multistyle26-int8.xml')
EVAL_STYLES = [0, 3, 6, 9, 12, 15, 18, 21, 24, 25]

def load_image(path, w, h):
    """Resize (cover) + centre crop to w x h; planar RGB float32 0..1, NCHW."""
    im = Image.open(path).convert('RGB')
    sw, sh = im.size
    s = max(w / sw, h / sh)
    nw, nh = max(w, round(sw * s)), max(h, round(sh * s))
    im = im.resize((nw, nh), Image.BICUBIC)
    l, t = (nw - w) // 2, (nh - h) // 2
    im = im.crop((l, t, l + w, t + h))
    a = np.asarray(im, dtype=np.float32) / 255.0
    return np.ascontiguousarray(a.transpose(2, 0, 1)[None])

def calib_files():
    fs = sorted(glob.glob(os.path.join(DATA, '*.jpg')))
    return [f for f in fs if os.path.basename(f) not in HOLDOUT]

def onehot(i):
    v = np.zeros(26, np.float32); v[i] = 1.0; return v

def luma(x):
    x = np.clip(x[0], 0, 1)
    return 0.299 * x[0] + 0.587 * x[1] + 0.114 * x[2]

def _gauss_filter(img, size=11, sigma=1.5):
    r = size // 2
    g = np.exp(-(np.arange(-r, r + 1) ** 2) / (2 * sigma * sigma)); g /= g.sum()
    # 'valid' separable convolution (as skimage/Wang et al. with valid cropping)
    tmp = np.apply_along_axis(lambda v: np.convolve(v, g, mode='valid'), 1, img)
    return np.apply_along_axis(lambda v: np.convolve(v, g, mode='valid'), 0, tmp)

def ssim(a, b, data_range=1.0):
    a = a.astype(np.float64); b = b.astype(np.float64)
    C1 = (0.01 * data_range) ** 2; C2 = (0.03 * data_range) ** 2
    mu_a = _gauss_filter(a); mu_b = _gauss_filter(b)
    saa = _gauss_filter(a * a) - mu_a ** 2
    sbb = _gauss_filter(b * b) - mu_b ** 2
    sab = _gauss_filter(a * b) - mu_a * mu_b
    m = ((2 * mu_a * mu_b + C1) * (2 * sab + C2)) / ((mu_a ** 2 + mu_b ** 2 + C1) * (saa + sbb + C2))
    return float(m.mean())

def psnr(a, b):
    a = np.clip(a, 0, 1).astype(np.float64); b = np.clip(b, 0, 1).astype(np.float64)
    mse = np.mean((a - b) ** 2)
    return float('inf') if mse == 0 else float(10 * np.log10(1.0 / mse))
