#!/usr/bin/env python3
"""Runs the converted models through OpenVINO's C API as deps/openvino.py lays it out (what the Swift side links:
libopenvino_c with the IR reader, no TFLite reader), and compares the mask with the Python API's.

Usage: /tmp/matte-venv/bin/python deps/person_matte/c_api_check.py [OPENVINO_LAYOUT]   (default .build/openvino)
Calls, in the order the Swift side would: ov_core_create, ov_core_read_model(xml, NULL),
ov_core_compile_model_props("CPU", {INFERENCE_PRECISION_HINT: f32, INFERENCE_NUM_THREADS: 2}),
ov_model_const_input_by_index / ov_port_get_any_name / ov_const_port_get_shape,
ov_tensor_create_from_host_ptr(F32, [1,H,W,3]), ov_infer_request_set_input_tensor_by_index, infer,
ov_infer_request_get_output_tensor_by_index, ov_tensor_data.
"""
import ctypes as C
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import HERE, MODELS, REPO, check_openvino  # noqa: E402

import numpy as np  # noqa: E402

F32 = 4  # ov_element_type_e: DYNAMIC = 0, BOOLEAN, BF16, F16, F32


class Shape(C.Structure):
    _fields_ = [("rank", C.c_int64), ("dims", C.POINTER(C.c_int64))]


class Property(C.Structure):
    _fields_ = [("key", C.c_char_p), ("value", C.c_void_p)]


def main() -> int:
    layout = Path(sys.argv[1] if len(sys.argv) > 1 else REPO / ".build" / "openvino").resolve()
    lib = C.CDLL(str(layout / "lib" / "libopenvino_c.so"))
    frontends = sorted(p.name for p in (layout / "lib").glob("libopenvino_*_frontend.so*"))
    print(f"{layout}/lib: frontends {', '.join(frontends)}")

    def ok(status, what):
        if status != 0:
            sys.exit(f"{what}: status {status}")

    core = C.c_void_p()
    ok(lib.ov_core_create(C.byref(core)), "ov_core_create")
    ov = check_openvino()
    py_core = ov.Core()
    for name, (_, _, (height, width), input_name, output_name) in MODELS.items():
        model = C.c_void_p()
        ok(lib.ov_core_read_model(core, str(HERE / (name + ".xml")).encode(), None, C.byref(model)), "read_model")
        ports = {}
        for kind in ("input", "output"):
            port, text, shape = C.c_void_p(), C.c_char_p(), Shape()
            ok(getattr(lib, f"ov_model_const_{kind}_by_index")(model, C.c_size_t(0), C.byref(port)), kind)
            ok(lib.ov_port_get_any_name(port, C.byref(text)), "ov_port_get_any_name")
            ok(lib.ov_const_port_get_shape(port, C.byref(shape)), "ov_const_port_get_shape")
            ports[kind] = (text.value.decode(), [shape.dims[i] for i in range(shape.rank)])
        props = (Property * 2)(Property(b"INFERENCE_PRECISION_HINT", C.cast(C.c_char_p(b"f32"), C.c_void_p)),
                               Property(b"INFERENCE_NUM_THREADS", C.cast(C.c_char_p(b"2"), C.c_void_p)))
        compiled, request = C.c_void_p(), C.c_void_p()
        ok(lib.ov_core_compile_model_props(core, model, b"CPU", C.c_size_t(2), props, C.byref(compiled)), "compile")
        ok(lib.ov_compiled_model_create_infer_request(compiled, C.byref(request)), "create_infer_request")
        x = np.ascontiguousarray(np.random.default_rng(1).random((1, height, width, 3), dtype=np.float32))
        dims = (C.c_int64 * 4)(1, height, width, 3)
        tensor, output, data = C.c_void_p(), C.c_void_p(), C.c_void_p()
        ok(lib.ov_tensor_create_from_host_ptr(C.c_int(F32), Shape(4, dims), x.ctypes.data_as(C.c_void_p),
                                              C.byref(tensor)), "tensor")
        ok(lib.ov_infer_request_set_input_tensor_by_index(request, C.c_size_t(0), tensor), "set_input")
        ok(lib.ov_infer_request_infer(request), "infer")
        ok(lib.ov_infer_request_get_output_tensor_by_index(request, C.c_size_t(0), C.byref(output)), "get_output")
        ok(lib.ov_tensor_data(output, C.byref(data)), "ov_tensor_data")
        mask = np.ctypeslib.as_array(C.cast(data, C.POINTER(C.c_float)), shape=(1, height, width, 1)).copy()
        reference = py_core.compile_model(str(HERE / (name + ".xml")), "CPU",
                                          {"INFERENCE_PRECISION_HINT": "f32"})(x)[0]
        print(f"{name}: input {ports['input']}, output {ports['output']}; C API against Python API: "
              f"max |diff| {float(np.abs(mask - reference).max()):.3g}")
        assert ports == {"input": (input_name, [1, height, width, 3]), "output": (output_name, [1, height, width, 1])}
        for fn, handle in (("ov_tensor_free", output), ("ov_tensor_free", tensor),
                           ("ov_infer_request_free", request), ("ov_compiled_model_free", compiled),
                           ("ov_model_free", model)):
            getattr(lib, fn)(handle)
    lib.ov_core_free(core)
    return 0


if __name__ == "__main__":
    sys.exit(main())
