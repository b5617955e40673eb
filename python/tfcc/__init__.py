"""tfcc: TensorFlow 2's programming model on tfcc's C++ engine.

    import tfcc as tf
    x = tf.constant([[1.0, 2.0], [3.0, 4.0]])
    print(tf.reduce_sum(x * 2, axis=1))   # tf.Tensor([ 6. 14.], shape=(2,), dtype=float32)

What exists and what does not yet: docs/python.md.
"""

from tfcc import _tfcc
from tfcc import errors
from tfcc import dtypes
from tfcc.dtypes import DType, as_dtype, bfloat16, bool, double, float32, float64, int32, \
    int64, uint8  # noqa: A004
from tfcc._tensor import Tensor, TensorShape, constant, convert_to_tensor
from tfcc._variables import Variable
from tfcc._tape import GradientTape, UnconnectedGradients
from tfcc._function import Function, TensorSpec, function
from tfcc._module import Module
from tfcc import config
from tfcc import data
from tfcc import keras
from tfcc import _api
from tfcc import _signatures  # noqa: F401 - places its functions at TF's paths

__version__ = "0.2.0"

raw_ops = _api.raw_ops
newaxis = None

globals().update(_api.exported)
for _ns_name, _ns in _api.namespaces.items():
    if "." in _ns_name:
        continue
    if _ns_name in globals():  # a real module (tf.dtypes): its functions join it
        for _k, _v in vars(_ns).items():
            if not _k.startswith("_"):
                setattr(globals()[_ns_name], _k, _v)
    else:
        globals()[_ns_name] = _ns


def is_tensor(x):
    """tf.is_tensor."""
    return isinstance(x, (Tensor, Variable))


def executing_eagerly():
    """tf.executing_eagerly: False while a tf.function traces."""
    return _tfcc.executing_eagerly()


del _ns_name, _ns, _k, _v
