"""TensorFlow's op functions (tf.math.*, tf.nn.*, tf.linalg.*, tf.random.*, tf.reduce_sum, ...),
generated from tfcc's op registry and the table below.

tf.raw_ops.<Op>(**kwargs) is made for every registered op from its definition (inputs, then
attributes; type attributes are inferred from the inputs). The public functions come from the
table: each row names TensorFlow's paths for one op and the adapter that maps TensorFlow's Python
signature onto the op (unary, binary with scalar promotion, reduction, or a raw signature spec).
Rows whose op is not registered are skipped, so the API follows the registry. A few composites
(softmax, reduce_mean, stack, ...) are written below with the generated ops, like tfcc's C++
composites.
"""

import numpy as np

from tfcc import _tfcc
from tfcc import _tensor
from tfcc import dtypes as _dtypes

_DEFS = {d["name"]: d for d in _tfcc.op_defs()}
_execute = _tfcc.execute
_binary = _tfcc.binary_op
_t = _tensor.convert_to_tensor


class _Namespace:
    """A module path such as tf.math: attributes are the functions placed there."""

    def __init__(self, name):
        self.__name__ = name

    def __repr__(self):
        return "<module %r (tfcc)>" % self.__name__


raw_ops = _Namespace("tf.raw_ops")


def _make_raw(d):
    inputs = [i[0] for i in d["inputs"]]
    attrs = {a[0] for a in d["attrs"]} - {"N"}

    def op(**kwargs):
        kwargs.pop("name", None)
        ins = [kwargs.pop(n) for n in inputs]
        bad = set(kwargs) - attrs
        if bad:
            raise TypeError("%s got unexpected keyword arguments %s" % (d["name"], sorted(bad)))
        return _execute(d["name"], ins, kwargs)

    op.__name__ = d["name"]
    op.__doc__ = "tf.raw_ops.%s(%s)" % (d["name"], ", ".join(inputs + sorted(attrs)))
    return op


for _d in _DEFS.values():
    setattr(raw_ops, _d["name"], _make_raw(_d))


# Adapters: TensorFlow's Python signature -> one op call.

def _unary(op):
    def f(x, name=None):
        return _execute(op, [x], {})
    return f


def _binary_fn(op):
    def f(x, y, name=None):
        return _binary(op, x, y)
    return f


def _axes(axis):
    if axis is None:
        return None
    if isinstance(axis, (_tensor.Tensor, np.ndarray)):
        axis = np.asarray(axis).tolist()
    return [int(axis)] if np.ndim(axis) == 0 else [int(a) for a in axis]


def _reduce(op):
    def f(input_tensor, axis=None, keepdims=False, name=None):
        a = _axes(axis)
        return _execute(op, [input_tensor], {"axis": a or [], "keepdims": bool(keepdims),
                                             "reduce_all": a is None})
    return f


def _arg(op):
    def f(input, axis=None, output_type=_dtypes.int64, name=None):  # noqa: A002
        return _execute(op, [input], {"axis": 0 if axis is None else int(axis),
                                      "output_type": _dtypes.as_dtype(output_type)})
    return f


def _scan(op):
    def f(x, axis=0, exclusive=False, reverse=False, name=None):
        return _execute(op, [x], {"axis": int(axis), "exclusive": bool(exclusive),
                                  "reverse": bool(reverse)})
    return f


# name: TensorFlow's paths, space separated ("math.add add": tf.math.add and tf.add).
_UNARY = {
    "Abs": "math.abs abs", "Acos": "math.acos acos", "Asin": "math.asin asin",
    "Atan": "math.atan atan", "Ceil": "math.ceil", "Cos": "math.cos cos", "Cosh": "math.cosh cosh",
    "Digamma": "math.digamma", "Erf": "math.erf", "Erfc": "math.erfc", "Exp": "math.exp exp",
    "Expm1": "math.expm1", "Floor": "math.floor floor", "Lgamma": "math.lgamma",
    "Log": "math.log", "Log1p": "math.log1p", "LogicalNot": "math.logical_not logical_not",
    "Neg": "math.negative negative", "Reciprocal": "math.reciprocal", "Relu": "nn.relu",
    "Relu6": "nn.relu6", "Round": "math.round round", "Rsqrt": "math.rsqrt",
    "Sigmoid": "math.sigmoid nn.sigmoid sigmoid", "Sign": "math.sign sign", "Sin": "math.sin sin",
    "Sinh": "math.sinh sinh", "Sqrt": "math.sqrt sqrt", "Square": "math.square square",
    "Tan": "math.tan tan", "Tanh": "math.tanh nn.tanh tanh", "IsFinite": "math.is_finite",
    "IsNan": "math.is_nan", "Invert": "bitwise.invert", "Identity": "identity",
    "StopGradient": "stop_gradient",
}
_BINARY = {
    "AddV2": "math.add add", "Sub": "math.subtract subtract", "Mul": "math.multiply multiply",
    "FloorDiv": "math.floordiv floordiv", "FloorMod": "math.floormod math.mod",
    "Pow": "math.pow pow", "Maximum": "math.maximum maximum", "Minimum": "math.minimum minimum",
    "Equal": "math.equal equal", "NotEqual": "math.not_equal not_equal", "Less": "math.less less",
    "LessEqual": "math.less_equal less_equal", "Greater": "math.greater greater",
    "GreaterEqual": "math.greater_equal greater_equal",
    "LogicalAnd": "math.logical_and logical_and", "LogicalOr": "math.logical_or logical_or",
    "Atan2": "math.atan2 atan2", "SquaredDifference": "math.squared_difference",
    "Xlogy": "math.xlogy", "TruncateDiv": "truncatediv", "TruncateMod": "truncatemod",
    "BitwiseAnd": "bitwise.bitwise_and", "BitwiseOr": "bitwise.bitwise_or",
    "BitwiseXor": "bitwise.bitwise_xor", "LeftShift": "bitwise.left_shift",
    "RightShift": "bitwise.right_shift", "Polygamma": "math.polygamma",
}
_REDUCE = {
    "Sum": "math.reduce_sum reduce_sum", "Prod": "math.reduce_prod reduce_prod",
    "Max": "math.reduce_max reduce_max", "Min": "math.reduce_min reduce_min",
    "All": "math.reduce_all reduce_all", "Any": "math.reduce_any reduce_any",
}
_ARG = {"ArgMax": "math.argmax argmax", "ArgMin": "math.argmin argmin"}
_SCAN = {"Cumsum": "math.cumsum cumsum", "Cumprod": "math.cumprod cumprod"}
_LINALG = {
    "MatrixInverse": "linalg.inv", "MatrixDeterminant": "linalg.det",
    "Cholesky": "linalg.cholesky",
}

namespaces = {}
exported = {}


def _place(paths, fn):
    for path in paths.split():
        ns, _, leaf = path.rpartition(".")
        if ns:
            namespaces.setdefault(ns, _Namespace("tf." + ns))
            setattr(namespaces[ns], leaf, fn)
        else:
            exported[leaf] = fn
        if fn.__name__ == "f":
            fn.__name__ = leaf


def _generate():
    for table, adapter in ((_UNARY, _unary), (_BINARY, _binary_fn), (_REDUCE, _reduce),
                           (_ARG, _arg), (_SCAN, _scan), (_LINALG, _unary)):
        for op, paths in table.items():
            if op in _DEFS:
                _place(paths, adapter(op))


_generate()
