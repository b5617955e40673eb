"""tf.dtypes: the element types, spelled like TensorFlow's (tf.float32, tf.int64, ...)."""

import numpy as np

__all__ = ["DType", "as_dtype", "float32", "float64", "int32", "int64", "uint8", "bool",
           "bfloat16", "double", "float"]


class DType:
    """An element type. `_enum` is tfcc's DType value (tfcc/core/dtype.h)."""

    __slots__ = ("_enum", "_name", "_np", "_size")

    def __init__(self, enum, name, np_dtype, size):
        self._enum = enum
        self._name = name
        self._np = np_dtype
        self._size = size

    @property
    def name(self):
        return self._name

    @property
    def as_numpy_dtype(self):
        return self._np

    @property
    def size(self):
        return self._size

    @property
    def is_floating(self):
        return self._name in ("float32", "float64", "bfloat16")

    @property
    def is_integer(self):
        return self._name in ("int32", "int64", "uint8")

    @property
    def is_bool(self):
        return self._name == "bool"

    @property
    def base_dtype(self):
        return self

    def __repr__(self):
        return "tf." + self._name

    def __str__(self):
        return "<dtype: %r>" % self._name

    def __eq__(self, other):
        try:
            return self is as_dtype(other)
        except TypeError:
            return False

    def __ne__(self, other):
        return not self.__eq__(other)

    def __hash__(self):
        return hash(self._name)

    def __reduce__(self):
        return as_dtype, (self._name,)


# The order is tfcc's enum DType (kFloat32, kFloat64, kInt32, kInt64, kUInt8, kBool, kBFloat16).
float32 = DType(0, "float32", np.float32, 4)
float64 = DType(1, "float64", np.float64, 8)
int32 = DType(2, "int32", np.int32, 4)
int64 = DType(3, "int64", np.int64, 8)
uint8 = DType(4, "uint8", np.uint8, 1)
bool = DType(5, "bool", np.bool_, 1)  # noqa: A001 - TensorFlow's spelling
bfloat16 = DType(6, "bfloat16", np.float32, 2)  # NumPy has no bfloat16: arrays are float32
double = float64
float = float32  # noqa: A001 - tf.float is an alias of tf.float32 in TensorFlow too

_BY_ENUM = (float32, float64, int32, int64, uint8, bool, bfloat16)
_BY_NAME = {d.name: d for d in _BY_ENUM}
_BY_NAME["double"] = float64
_BY_NAME["float"] = float32
_BY_NP = {np.dtype(d._np): d for d in _BY_ENUM if d is not bfloat16}


def from_enum(e):
    return _BY_ENUM[e]


def as_dtype(value):
    """tf.as_dtype: a DType from a DType, a name ("float32"), or a NumPy dtype / type."""
    if isinstance(value, DType):
        return value
    if isinstance(value, str):
        if value in _BY_NAME:
            return _BY_NAME[value]
        raise TypeError("Cannot convert value %r to a TensorFlow DType." % (value,))
    try:
        npd = np.dtype(value)
    except TypeError:
        raise TypeError("Cannot convert value %r to a TensorFlow DType." % (value,)) from None
    if npd in _BY_NP:
        return _BY_NP[npd]
    raise TypeError("Cannot convert value %r to a TensorFlow DType: tfcc has no %s tensors."
                    % (value, npd))


