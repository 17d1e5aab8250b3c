// OpenVINO's C API, loaded at run time (dlopen), never linked: a machine without the runtime (or whose
// CPU it refuses) still runs the server, without the style filter. The headers come from the pinned
// wheel (make deps: .build/openvino/include); Package.swift adds that folder to the include path.
#pragma once
#include <dlfcn.h>
#include <stddef.h>
#include "openvino/c/openvino.h"

// The functions FilterCast calls, one table entry each. Only non-variadic ones: Swift cannot call a
// variadic C function (compile with ov_core_compile_model_props, whose keys are plain strings).
#define FC_OV_FUNCTIONS(X) \
    X(ov_core_create) X(ov_core_free) X(ov_core_read_model) X(ov_core_compile_model_props) \
    X(ov_model_free) X(ov_model_reshape_input_by_name) \
    X(ov_partial_shape_create_static) X(ov_partial_shape_free) \
    X(ov_compiled_model_create_infer_request) X(ov_compiled_model_free) \
    X(ov_infer_request_set_tensor) X(ov_infer_request_infer) X(ov_infer_request_get_output_tensor_by_index) \
    X(ov_infer_request_free) \
    X(ov_tensor_create_from_host_ptr) X(ov_tensor_data) X(ov_tensor_get_shape) X(ov_tensor_free) \
    X(ov_shape_create) X(ov_shape_free) X(ov_get_last_err_msg)

/// The OpenVINO C API of one loaded library: a pointer per function, named as the function.
typedef struct {
#define FC_OV_MEMBER(name) __typeof__(name) *name;
    FC_OV_FUNCTIONS(FC_OV_MEMBER)
#undef FC_OV_MEMBER
} fc_openvino_api;

/// Loads the library at `path` and fills `api`; NULL on success, else why not (dlerror's text or the
/// missing symbol), valid until the next dl call. A library loaded is never unloaded.
static inline const char *fc_openvino_load(const char *path, fc_openvino_api *api) {
    void *handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (handle == NULL) return dlerror();
#define FC_OV_BIND(name) \
    if ((api->name = (__typeof__(name) *)dlsym(handle, #name)) == NULL) return "the library has no " #name;
    FC_OV_FUNCTIONS(FC_OV_BIND)
#undef FC_OV_BIND
    return NULL;
}
