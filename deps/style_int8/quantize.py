#!/usr/bin/python3
"""Post-training int8 quantization of multistyle26.onnx with NNCF (OpenVINO backend).
Usage: OPENVINO_PYTHON=DIR NNCF_PYTHON=DIR nice -n 10 /usr/bin/python3 deps/style_int8/quantize.py [VARIANT]
VARIANT: convonly (default, the one kept) | plain | mixed; each is written to
deps/style_int8/multistyle26-int8-VARIANT.xml/.bin, and convonly also to multistyle26-int8.xml/.bin
(the network FilterCast runs; make never runs this script).
Reproducible: fixed numpy seed; calibration = all opencv-doc *.jpg except the 4 hold-outs,
each used twice (at 256x144 and 320x180 crops) with one-hot styles from a seeded permutation
that covers all 26 styles.
"""
import sys, os, time
# nncf and the numpy it needs first: common imports numpy.
sys.path.insert(0, os.environ.get('NNCF_PYTHON', '/tmp/quant/py'))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import common  # noqa: F401 (puts OPENVINO_PYTHON on the path)
sys.modules['torch'] = None  # system torch 1.13 is too old for nncf 3.4; keep nncf off it
import numpy as np
import openvino as ov
import nncf
from common import FLOAT_MODEL, HERE, load_image, calib_files, onehot

variant = sys.argv[1] if len(sys.argv) > 1 else 'convonly'
SEED = 1234
rng = np.random.default_rng(SEED)

files = calib_files()
sizes = [(256, 144), (320, 180)]
n = len(files) * len(sizes)
styles = np.concatenate([rng.permutation(26) for _ in range((n + 25) // 26)])[:n]
samples = []
k = 0
for f in files:
    for (w, h) in sizes:
        samples.append({'image': load_image(f, w, h), 'style_weights': onehot(int(styles[k]))})
        k += 1
print(f'variant={variant} seed={SEED} calibration samples={len(samples)} '
      f'styles covered={len(set(styles.tolist()))}/26 nncf={nncf.__version__} ov={ov.__version__}', flush=True)

core = ov.Core()
model = core.read_model(FLOAT_MODEL)  # keep dynamic H,W
calib = nncf.Dataset(samples)

kw = dict(subset_size=len(samples))
if variant == 'mixed':
    kw['preset'] = nncf.QuantizationPreset.MIXED
elif variant == 'convonly':
    # quantize only convolution inputs/weights; leave the conditional instance-norm
    # arithmetic (Multiply/Add/Subtract/Divide/Reduce*) and Interpolate in float
    ignored = [op.get_friendly_name() for op in model.get_ops()
               if op.get_type_name() in ('Multiply', 'Add', 'Subtract', 'Divide', 'MatMul',
                                         'ReduceMean', 'ReduceSum', 'Interpolate', 'Power', 'Sqrt')]
    kw['ignored_scope'] = nncf.IgnoredScope(names=ignored, validate=False)
    kw['preset'] = nncf.QuantizationPreset.MIXED
t0 = time.time()
q = nncf.quantize(model, calib, **kw)
print(f'quantize took {time.time() - t0:.1f}s', flush=True)

out = str(HERE / f'multistyle26-int8-{variant}.xml')
ov.save_model(q, out, compress_to_fp16=False)
from collections import Counter
print('ops:', dict(Counter(op.get_type_name() for op in q.get_ops() if op.get_type_name() in ('FakeQuantize', 'Convolution'))))
print('inputs:', [(i.get_any_name(), str(i.get_partial_shape())) for i in q.inputs])
print('outputs:', [(o.get_any_name(), str(o.get_partial_shape())) for o in q.outputs])
print('saved', out, os.path.getsize(out), os.path.getsize(out[:-4] + '.bin'))
if variant == 'convonly':
    final = str(HERE / 'multistyle26-int8.xml')
    ov.save_model(q, final, compress_to_fp16=False)
    print('saved', final, os.path.getsize(final), os.path.getsize(final[:-4] + '.bin'))
