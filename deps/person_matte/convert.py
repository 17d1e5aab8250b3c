#!/usr/bin/env python3
"""Converts MediaPipe's selfie-segmentation models to OpenVINO IR (issue 41, slice 1).

Usage (the Python of tools-requirements.txt: openvino 2026.4.1 and tflite):
    /tmp/matte-venv/bin/python deps/person_matte/convert.py
Writes deps/person_matte/selfie_segmentation_landscape.xml/.bin (input 1x144x256x3) and
selfie_segmentation.xml/.bin (1x256x256x3), the wheel's LICENSE (LICENSE-mediapipe) and convert.log beside them. The same inputs give
byte-identical files (the log lists their sha256).

The models come out of the pinned mediapipe 0.10.14 wheel (wheels-requirements.txt; the .tflite files are
checked against the sha256 in common.py). OpenVINO's TFLite reader knows every operator in them but
MediaPipe's custom `Convolution2DTransposeBias` (a transposed convolution with a bias, the last layer
before the sigmoid): it is given here as a conversion extension that builds it from OpenVINO operators
(ConvolutionBackpropData + Add), with the stride and padding read from the operator's custom options in
the flatbuffer. Everything else is OpenVINO's own TFLite translation. The IR keeps the models' float16
weights (as in the .tflite, where they are DEQUANTIZEd to float32) and computes in float32.
"""
import struct
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import HERE, MODELS, check_openvino, sha256, tflite_model, wheel_member  # noqa: E402

import numpy as np  # noqa: E402
import tflite  # noqa: E402

ov = check_openvino()
from openvino.frontend import ConversionExtension  # noqa: E402
import openvino.opset13 as ops  # noqa: E402

CUSTOM_OP = "Convolution2DTransposeBias"
PADDING = {1: "SAME", 2: "VALID"}  # TfLitePadding (kTfLitePaddingSame = 1, kTfLitePaddingValid = 2)
LOG = []


def log(text: str) -> None:
    print(text, flush=True)
    LOG.append(text)


def custom_op_params(model_bytes: bytes) -> list:
    """(padding, stride_w, stride_h) of each Convolution2DTransposeBias: MediaPipe's kernel reads its custom
    options as a TfLiteTransposeConvParams (three int32: padding, stride_width, stride_height)."""
    model = tflite.Model.GetRootAsModel(model_bytes, 0)
    graph = model.Subgraphs(0)
    params = []
    for index in range(graph.OperatorsLength()):
        op = graph.Operators(index)
        code = model.OperatorCodes(op.OpcodeIndex()).CustomCode()
        if code is None:
            continue
        if code.decode() != CUSTOM_OP:
            sys.exit(f"unexpected custom operator {code.decode()}")
        raw = op.CustomOptionsAsNumpy().tobytes()
        if len(raw) != 12:
            sys.exit(f"{CUSTOM_OP}: {len(raw)} bytes of options, expected 12")
        params.append(struct.unpack("<3i", raw))
    return params


def transposed_conv_bias(padding: str, stride_w: int, stride_h: int):
    """The translator: TFLite tensors are NHWC here and the kernel is OHWI ([out, kh, kw, in])."""
    def translate(node):
        x, kernel, bias = node.get_input(0), node.get_input(1), node.get_input(2)
        _, in_h, in_w, _ = x.get_partial_shape().to_shape()
        _, k_h, k_w, _ = kernel.get_partial_shape().to_shape()
        pads = []
        for size, k, s in ((in_h, k_h, stride_h), (in_w, k_w, stride_w)):
            out = size * s if padding == "SAME" else (size - 1) * s + k
            total = max((size - 1) * s + k - out, 0)
            pads.append((total // 2, total - total // 2))
        nchw = ops.transpose(x, ops.constant(np.array([0, 3, 1, 2], np.int64)))
        iohw = ops.transpose(kernel, ops.constant(np.array([3, 0, 1, 2], np.int64)))
        y = ops.convolution_backprop_data(nchw, iohw, strides=[stride_h, stride_w],
                                          pads_begin=[pads[0][0], pads[1][0]], pads_end=[pads[0][1], pads[1][1]],
                                          dilations=[1, 1])
        y = ops.transpose(y, ops.constant(np.array([0, 2, 3, 1], np.int64)))
        y = ops.add(y, ops.reshape(bias, ops.constant(np.array([1, 1, 1, -1], np.int64)), False))
        return [y.output(0)]
    return translate


def convert(name: str, work: Path) -> None:
    member, _, (height, width), input_name, output_name = MODELS[name]
    data = tflite_model(name)
    log(f"{name}: {member} ({len(data)} bytes, sha256 {sha256(data)})")
    params = set(custom_op_params(data))
    if len(params) != 1:
        sys.exit(f"{name}: {CUSTOM_OP} options {params}: expected one kind")
    padding, stride_w, stride_h = params.pop()
    log(f"  {CUSTOM_OP}: padding {PADDING[padding]}, stride {stride_w}x{stride_h}")
    source = work / (name + ".tflite")
    source.write_bytes(data)
    try:
        ov.Core().read_model(str(source))
        log("  (OpenVINO reads it as is: the extension was not needed)")
    except RuntimeError as error:
        log("  as is: " + [l for l in str(error).splitlines() if "translator" in l][0].strip())
    model = ov.convert_model(str(source), extension=[ConversionExtension(
        CUSTOM_OP, transposed_conv_bias(PADDING[padding], stride_w, stride_h))])
    (inp,), (out,) = model.inputs, model.outputs
    assert inp.get_any_name() == input_name and list(inp.get_shape()) == [1, height, width, 3], inp
    assert output_name in out.get_names() and list(out.get_shape()) == [1, height, width, 1], out
    xml = HERE / (name + ".xml")
    ov.save_model(model, str(xml))  # compress_to_fp16: the weights are float16 in the .tflite already
    # The saved IR needs only the IR reader; it must compute what the converted model computes.
    core = ov.Core()
    x = np.random.default_rng(0).random((1, height, width, 3), dtype=np.float32)
    props = {"INFERENCE_PRECISION_HINT": "f32"}
    a = core.compile_model(model, "CPU", props)(x)[0]
    b = core.compile_model(core.read_model(str(xml)), "CPU", props)(x)[0]
    counts = {}
    for op in model.get_ordered_ops():
        counts[op.get_type_name()] = counts.get(op.get_type_name(), 0) + 1
    log(f"  IR: input '{input_name}' f32 [1,{height},{width},3] NHWC, output '{output_name}' f32 "
        f"[1,{height},{width},1]; {counts.get('Convolution', 0)} Convolution, {counts.get('GroupConvolution', 0)} "
        f"GroupConvolution, {counts.get('ConvolutionBackpropData', 0)} ConvolutionBackpropData; "
        f"saved and reread: max |diff| {float(np.abs(a - b).max()):.3g} on a random input")
    for path in (xml, xml.with_suffix(".bin")):
        log(f"  {path.name}: {path.stat().st_size} bytes, sha256 {sha256(path.read_bytes())}")


def main() -> int:
    log(f"openvino {ov.get_version()}, tflite reader (PyPI tflite), numpy {np.__version__}")
    with tempfile.TemporaryDirectory() as work:
        for name in MODELS:
            convert(name, Path(work))
    licence = wheel_member("mediapipe", "mediapipe-0.10.14.dist-info/LICENSE")
    (HERE / "LICENSE-mediapipe").write_bytes(licence)
    log(f"LICENSE-mediapipe: the wheel's mediapipe-0.10.14.dist-info/LICENSE ({len(licence)} bytes, sha256 "
        f"{sha256(licence)})")
    (HERE / "convert.log").write_text("\n".join(LOG) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
