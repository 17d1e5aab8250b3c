#!/usr/bin/python3
"""Issue 42 item 2: is multistyle26 faster with the chosen style folded in as constants?

The style input (26 weights) feeds only the conditional instance normalisation's scale and shift
(a MatMul of the weights with each layer's 26 rows). With one style chosen they are constants. Three
ways of running the int8 network the `style` filter ships, on the same inputs, alternated A/B/C in
rounds (median of 30 inferences after 5 warm-ups each round), and the same for float32:

- `input`: as shipped, the style an input (what the filter does);
- `const`: the style Parameter replaced by a Constant, the rest left to the CPU plugin's own
  transformations (they fold what feeds only on constants);
- `folded`: the same, then OpenVINO's ConstantFolding pass over the whole graph before compiling
  (what a fixed-style rewrite of the graph amounts to).

Prints each variant's median per round, its ratio to `input`, and the largest difference of its
output from `input`'s on a held-out photograph.

    OPENVINO_PYTHON=DIR /usr/bin/python3 deps/style_int8/fold.py [ROUNDS]
"""
import os, sys, time
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import *  # noqa: F401,F403 (sets up OPENVINO_PYTHON first)
import numpy as np
import openvino as ov
from openvino import opset13 as ops
from openvino._pyopenvino.passes import ConstantFolding, Manager
from common import DATA, FLOAT_MODEL, HOLDOUT, INT8_MODEL, load_image, onehot

STYLE = 3
rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 5
core = ov.Core()


def variant(path, kind, w, h):
    """The network at w x h with the style an input, a Constant, or a Constant folded through."""
    model = core.read_model(path)
    model.reshape({'image': [1, 3, h, w]})
    if kind != 'input':
        weights = next(p for p in model.get_parameters() if p.get_friendly_name() == 'style_weights')
        constant = ops.constant(onehot(STYLE))
        for target in list(weights.output(0).get_target_inputs()):
            target.replace_source_output(constant.output(0))
        model.remove_parameter(weights)
        if kind == 'folded':
            manager = Manager()
            manager.register_pass(ConstantFolding())
            manager.run_passes(model)
    return model


def main():
    print(f"openvino {ov.__version__}, {os.cpu_count()} cores, load {os.getloadavg()[0]:.1f}, "
          f"style {STYLE}, {rounds} rounds", flush=True)
    photo = os.path.join(DATA, HOLDOUT[0])
    for name, path in (('int8', INT8_MODEL), ('fp32', FLOAT_MODEL)):
        for threads in (1, 2):
            for (w, h) in [(256, 144), (320, 180)]:
                props = {'INFERENCE_NUM_THREADS': threads, 'PERFORMANCE_HINT': 'LATENCY',
                         'ENABLE_CPU_PINNING': False, 'INFERENCE_PRECISION_HINT': 'f32'}
                kinds = ('input', 'const', 'folded')
                requests = {k: core.compile_model(variant(path, k, w, h), 'CPU', props).create_infer_request() for k in kinds}
                image = load_image(photo, w, h)
                feeds = {k: ({'image': image, 'style_weights': onehot(STYLE)} if k == 'input' else {'image': image}) for k in kinds}
                outputs = {k: next(iter(requests[k].infer(feeds[k]).values())).copy() for k in kinds}
                medians = {k: [] for k in kinds}
                for _ in range(rounds):
                    for k in kinds:
                        for _ in range(5):
                            requests[k].infer(feeds[k])
                        times = []
                        for _ in range(30):
                            start = time.perf_counter()
                            requests[k].infer(feeds[k])
                            times.append((time.perf_counter() - start) * 1e3)
                        medians[k].append(float(np.median(times)))
                base = np.median(medians['input'])
                line = [f"{name} threads={threads} {w}x{h}:"]
                for k in kinds:
                    difference = float(np.abs(outputs[k] - outputs['input']).max())
                    line.append(f"{k} {'/'.join(f'{m:.2f}' for m in medians[k])} ms "
                                f"(x{np.median(medians[k]) / base:.2f}, max diff {difference:.4f})")
                print("  ".join(line), flush=True)


if __name__ == '__main__':
    main()
