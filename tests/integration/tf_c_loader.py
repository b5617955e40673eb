"""Runs a SavedModel's serving signature through TensorFlow's C API: TF_LoadSessionFromSavedModel
is the session-based C++ loader TF Serving uses (tags {serve}, the saver's restore op fed with
DIR/variables/variables), then TF_SessionRun on the signature's tensors. No compiler needed: the
shared libraries ship in TensorFlow's pip package.

    run_serving_default(export_dir, x) -> numpy array (output_0)
"""
import ctypes
import os

import numpy as np
import tensorflow as tf
from tensorflow.core.protobuf import saved_model_pb2

_P = ctypes.c_void_p


class _Output(ctypes.Structure):
    _fields_ = [("oper", _P), ("index", ctypes.c_int)]


def _library():
    d = os.path.dirname(tf.__file__)
    ctypes.CDLL(os.path.join(d, "libtensorflow_framework.so.2"), mode=ctypes.RTLD_GLOBAL)
    lib = ctypes.CDLL(os.path.join(d, "libtensorflow_cc.so.2"), mode=ctypes.RTLD_GLOBAL)
    for name, res, args in [
        ("TF_NewStatus", _P, []), ("TF_GetCode", ctypes.c_int, [_P]),
        ("TF_Message", ctypes.c_char_p, [_P]), ("TF_NewGraph", _P, []),
        ("TF_NewSessionOptions", _P, []),
        ("TF_LoadSessionFromSavedModel", _P,
         [_P, _P, ctypes.c_char_p, ctypes.POINTER(ctypes.c_char_p), ctypes.c_int, _P, _P, _P]),
        ("TF_GraphOperationByName", _P, [_P, ctypes.c_char_p]),
        ("TF_AllocateTensor", _P,
         [ctypes.c_int, ctypes.POINTER(ctypes.c_int64), ctypes.c_int, ctypes.c_size_t]),
        ("TF_TensorData", _P, [_P]), ("TF_TensorByteSize", ctypes.c_size_t, [_P]),
        ("TF_SessionRun", None, [_P, _P, _P, _P, ctypes.c_int, _P, _P, ctypes.c_int, _P,
                                 ctypes.c_int, _P, _P]),
    ]:
        f = getattr(lib, name)
        f.restype = res
        f.argtypes = args
    return lib


_DTYPES = {np.dtype("float32"): 1, np.dtype("int32"): 3, np.dtype("int64"): 9}


def run_serving_default(export, x):
    lib = _library()
    sm = saved_model_pb2.SavedModel()
    with open(os.path.join(export, "saved_model.pb"), "rb") as f:
        sm.ParseFromString(f.read())
    sig = sm.meta_graphs[0].signature_def["serving_default"]
    (in_info,) = sig.inputs.values()
    out_info = sig.outputs["output_0"]
    status, graph = lib.TF_NewStatus(), lib.TF_NewGraph()

    def check(what):
        if lib.TF_GetCode(status) != 0:
            raise AssertionError(f"{what}: {lib.TF_Message(status).decode()}")

    tags = (ctypes.c_char_p * 1)(b"serve")
    session = lib.TF_LoadSessionFromSavedModel(lib.TF_NewSessionOptions(), None, export.encode(),
                                               tags, 1, graph, None, status)
    check("TF_LoadSessionFromSavedModel")
    x = np.ascontiguousarray(x)
    dims = (ctypes.c_int64 * x.ndim)(*x.shape)
    t = lib.TF_AllocateTensor(_DTYPES[x.dtype], dims, x.ndim, x.nbytes)
    ctypes.memmove(lib.TF_TensorData(t), x.ctypes.data, x.nbytes)

    def output(name):
        op, index = name.rsplit(":", 1)
        o = lib.TF_GraphOperationByName(graph, op.encode())
        assert o, f"no operation {op} in the loaded graph"
        return _Output(o, int(index))

    inputs, outputs = (_Output * 1)(output(in_info.name)), (_Output * 1)(output(out_info.name))
    values, results = (_P * 1)(t), (_P * 1)()
    lib.TF_SessionRun(session, None, inputs, values, 1, outputs, results, 1, None, 0, None, status)
    check("TF_SessionRun")
    data = ctypes.string_at(lib.TF_TensorData(results[0]), lib.TF_TensorByteSize(results[0]))
    return np.frombuffer(data, np.float32).copy()
