#!/usr/bin/python3
"""SSIM (BT.601 luma, 11x11 gaussian sigma 1.5, range 1) and PSNR (RGB) of int8 vs fp32 outputs."""
import sys, os, json
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import *  # noqa: F401,F403 (sets up OPENVINO_PYTHON first)
import numpy as np
import openvino as ov
from common import *
qpath = sys.argv[1] if len(sys.argv) > 1 else INT8_MODEL
props = {'INFERENCE_NUM_THREADS': 2, 'PERFORMANCE_HINT': 'LATENCY', 'ENABLE_CPU_PINNING': False,
         'INFERENCE_PRECISION_HINT': 'f32'}
core = ov.Core()
res = {}
for (w, h) in [(256, 144), (320, 180)]:
    cm = {}
    for tag, p in (('fp32', FLOAT_MODEL), ('int8', qpath)):
        m = core.read_model(p); m.reshape({'image': [1, 3, h, w]})
        cm[tag] = core.compile_model(m, 'CPU', props)
    for s in EVAL_STYLES:
        ss, pp = [], []
        for f in HOLDOUT:
            x = {'image': load_image(os.path.join(DATA, f), w, h), 'style_weights': onehot(s)}
            a = cm['fp32'](x)[0]; b = cm['int8'](x)[0]
            ss.append(ssim(luma(a), luma(b))); pp.append(psnr(a, b))
        res[(w, h, s)] = (ss, pp)
        print(f'{w}x{h} style {s:2d}: SSIM mean {np.mean(ss):.4f} min {np.min(ss):.4f}  PSNR mean {np.mean(pp):.2f} min {np.min(pp):.2f} dB', flush=True)
allS = [v for ss, pp in res.values() for v in ss]; allP = [v for ss, pp in res.values() for v in pp]
print(f'OVERALL {os.path.basename(qpath)}: SSIM mean {np.mean(allS):.4f} min {np.min(allS):.4f}; PSNR mean {np.mean(allP):.2f} min {np.min(allP):.2f} dB')
