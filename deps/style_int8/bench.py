#!/usr/bin/python3
"""Median latency of 30 inferences after 5 warm-ups, fp32 vs int8, alternating A/B/A/B rounds."""
import os, sys, time
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import *  # noqa: F401,F403 (sets up OPENVINO_PYTHON first)
import numpy as np
import openvino as ov
from common import FLOAT_MODEL, onehot
qpath = sys.argv[1] if len(sys.argv) > 1 else INT8_MODEL; rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 5
core = ov.Core()
rng = np.random.default_rng(0)
for threads in (1, 2):
    for (w, h) in [(256, 144), (320, 180)]:
        props = {'INFERENCE_NUM_THREADS': threads, 'PERFORMANCE_HINT': 'LATENCY',
                 'ENABLE_CPU_PINNING': False, 'INFERENCE_PRECISION_HINT': 'f32'}
        reqs = {}
        for tag, p in (('fp32', FLOAT_MODEL), ('int8', qpath)):
            m = core.read_model(p); m.reshape({'image': [1, 3, h, w]})
            reqs[tag] = core.compile_model(m, 'CPU', props).create_infer_request()
        x = {'image': rng.random((1, 3, h, w), dtype=np.float32), 'style_weights': onehot(3)}
        meds = {'fp32': [], 'int8': []}
        for r in range(rounds):
            for tag in ('fp32', 'int8'):
                req = reqs[tag]
                for _ in range(5): req.infer(x)
                ts = []
                for _ in range(30):
                    t0 = time.perf_counter(); req.infer(x); ts.append((time.perf_counter() - t0) * 1e3)
                meds[tag].append(float(np.median(ts)))
        f, q = meds['fp32'], meds['int8']
        print(f'threads={threads} {w}x{h}: fp32 ' + '/'.join(f'{v:.2f}' for v in f) +
              ' ms  int8 ' + '/'.join(f'{v:.2f}' for v in q) +
              f' ms  speed-up (median of rounds) {np.median(f) / np.median(q):.2f}x', flush=True)
