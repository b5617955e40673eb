"""tf.Tensor's Python side: conversion (tf.constant), NumPy interop, shape and dtype, repr.

The type itself, its operators and indexing are C++ (python/src/tensor.cc); this module adds the
methods that are Python by nature and registers constant() as the converter the C++ side calls
for values that are not tensors yet.
"""

import builtins

import numpy as np

from tfcc import _tfcc
from tfcc import dtypes as _dtypes
from tfcc import errors as _errors

Tensor = _tfcc.Tensor

_INT32_MIN, _INT32_MAX = -(2**31), 2**31 - 1


class TensorShape(tuple):
    """A tensor's shape: a tuple of ints (None: unknown inside a trace) that prints and compares
    like tf.TensorShape."""

    def __new__(cls, dims):
        self = super().__new__(cls, () if dims is None else
                               (None if d is None else int(d) for d in dims))
        self._unknown_rank = dims is None
        return self

    @property
    def rank(self):
        return None if self._unknown_rank else len(self)

    @property
    def ndims(self):
        return self.rank

    @property
    def dims(self):
        return list(self)

    def as_list(self):
        return list(self)

    def num_elements(self):
        if not self.is_fully_defined():
            return None
        n = 1
        for d in self:
            n *= d
        return n

    def is_fully_defined(self):
        return not self._unknown_rank and None not in self

    def __getitem__(self, key):
        r = tuple.__getitem__(self, key)
        return TensorShape(r) if isinstance(key, slice) else r

    def __eq__(self, other):
        try:
            return tuple(self) == tuple(other)
        except TypeError:
            return False

    def __ne__(self, other):
        return not self.__eq__(other)

    __hash__ = tuple.__hash__

    def __repr__(self):
        return "TensorShape(None)" if self._unknown_rank else "TensorShape(%s)" % list(self)

    def __str__(self):
        if self._unknown_rank:
            return "<unknown>"
        if len(self) == 1:
            return "(%s,)" % self[0]
        return "(" + ", ".join(str(d) for d in self) + ")"


def _default_array(value):
    """NumPy array of a Python value with TensorFlow's defaults (float32, int32)."""
    arr = np.asarray(value)
    if arr.dtype == np.float64:
        return arr.astype(np.float32)
    if arr.dtype == np.int64:
        if arr.size and (arr.min() < _INT32_MIN or arr.max() > _INT32_MAX):
            return arr
        return arr.astype(np.int32)
    return arr


def _to_array(value, dtype):
    if isinstance(value, (np.ndarray, np.generic)):
        arr = np.asarray(value)
    else:
        if isinstance(value, (list, tuple)) and any(isinstance(v, (Tensor, _tfcc.Variable))
                                                    for v in value):
            value = [np.asarray(v) if isinstance(v, (Tensor, _tfcc.Variable)) else v
                     for v in value]
        arr = _default_array(value) if dtype is None else np.asarray(value)
    if arr.dtype == object or arr.dtype.kind in "USc":
        raise TypeError("tfcc cannot make a tensor from %r: no string or object dtype yet"
                        % (value,))
    if dtype is None:
        return arr, _dtypes.as_dtype(arr.dtype)
    dt = _dtypes.as_dtype(dtype)
    target = np.float32 if dt is _dtypes.bfloat16 else dt.as_numpy_dtype
    if arr.dtype != target:
        if dt.is_integer and arr.dtype.kind == "f":
            if not np.all(np.isfinite(arr)) or not np.all(np.floor(arr) == arr):
                raise TypeError("Cannot convert %r to EagerTensor of dtype %s"
                                % (value, dt.name))
        converted = arr.astype(target)
        if arr.dtype.kind in "iu" and dt.is_integer and not np.array_equal(converted, arr):
            raise TypeError("Cannot convert %r to EagerTensor of dtype %s" % (value, dt.name))
        arr = converted
    return arr, dt


def constant(value, dtype=None, shape=None, name=None):
    """tf.constant: a tensor from a Python value, a NumPy array or a tensor."""
    del name
    if isinstance(value, _tfcc.Variable):
        value = value.read_value()
    if isinstance(value, Tensor):
        t = value if dtype is None or _dtypes.as_dtype(dtype) == value.dtype else \
            _tfcc.cast(value, _dtypes.as_dtype(dtype))
    else:
        arr, dt = _to_array(value, dtype)
        if not arr.flags.c_contiguous:
            arr = arr.copy(order="C")
        t = _tfcc.from_numpy(arr, dt._enum)
    if shape is not None:
        shape = [int(d) for d in shape]
        n = int(np.prod(shape)) if shape else 1
        have = t.shape.num_elements()
        if have == 1 and n != 1:
            from tfcc import _signatures
            t = _signatures.fill(shape, t)
        elif have != n:
            raise TypeError("Eager execution of tf.constant with unsupported shape. Tensor %s "
                            "(converted from %r) has %d elements, but got `shape` %s with %d "
                            "elements)." % (t, value, have, tuple(shape), n))
        else:
            from tfcc import _signatures
            t = _signatures.reshape(t, shape)
    return t


def convert_to_tensor(value, dtype=None, dtype_hint=None, name=None):
    """tf.convert_to_tensor: tensors pass through (their dtype must match `dtype`)."""
    del name
    if isinstance(value, _tfcc.Variable):
        value = value.read_value()
    if isinstance(value, Tensor):
        if dtype is not None and _dtypes.as_dtype(dtype) != value.dtype:
            raise ValueError("Tensor conversion requested dtype %s for Tensor with dtype %s: %r"
                             % (_dtypes.as_dtype(dtype).name, value.dtype.name, value))
        return value
    if dtype is None and dtype_hint is not None:
        try:
            return constant(value, dtype_hint)
        except (TypeError, ValueError):
            pass
    return constant(value, dtype)


_tfcc.set_converter(convert_to_tensor)


# Methods that are Python by nature, added to the C++ type.

def _numpy(self):
    arr = self._view()
    return arr[()].copy() if arr.ndim == 0 else arr.copy()


def _array(self, dtype=None, copy=None):
    arr = self._view()
    if dtype is not None and np.dtype(dtype) != arr.dtype:
        return arr.astype(dtype)
    if copy:
        return arr.copy()
    return arr


def _repr(self):
    if _tfcc.is_symbolic(self):
        return str(self)  # Tensor("symbolic:12", shape=(None, 3), dtype=float32)
    text = str(self.numpy()) if self.ndim == 0 else repr(self.numpy())
    if "\n" in text:
        text = "\n" + text
    return "<tf.Tensor: shape=%s, dtype=%s, numpy=%s>" % (self.shape, self.dtype.name, text)


def _scalar(self, kind):
    if self.ndim != 0 and self.shape.num_elements() != 1:
        raise ValueError("only one element tensors can be converted to Python scalars")
    return kind(self._view().reshape(()))


def _not_in_graph(what):
    raise _errors.OperatorNotAllowedInGraphError(
        "Using a symbolic tf.Tensor as a Python %s is not allowed: tfcc's tf.function traces "
        "Python code once and has no AutoGraph yet, so `if`/`while`/`for` on a tensor cannot "
        "become graph control flow. Run the function eagerly (tf.config.run_functions_eagerly("
        "True)) or keep the decision outside it." % what)


def _bool(self):
    if _tfcc.is_symbolic(self):
        _not_in_graph("bool")
    if self.shape.num_elements() != 1:
        raise ValueError("The truth value of an array with more than one element is ambiguous. "
                         "Use a.any() or a.all()")
    return builtins.bool(self._view().reshape(()))


def _len(self):
    if self.ndim == 0:
        raise TypeError("Scalar tensor has no `len()`")
    return self._shape[0]


def _iter(self):
    if _tfcc.is_symbolic(self) and (self.ndim is None or self._shape[0] is None):
        _not_in_graph("iterable")
    if self.ndim == 0:
        raise TypeError("Cannot iterate over a scalar tensor.")
    for i in range(self._shape[0]):
        yield self[i]


def _hash(self):
    raise TypeError("Tensor is unhashable. Instead, use tensor.ref() as the key.")


def _index(self):
    if not self.dtype.is_integer or self.ndim != 0:
        raise TypeError("Only integer scalar tensors can be used as an index")
    return int(self._view()[()])


def _ref(self):
    return _Ref(self)


class _Ref:
    """tensor.ref(): a hashable reference (by identity)."""

    __slots__ = ("_t",)

    def __init__(self, t):
        self._t = t

    def deref(self):
        return self._t

    def __hash__(self):
        return hash(self._t._id())

    def __eq__(self, other):
        return isinstance(other, _Ref) and other._t._id() == self._t._id()


Tensor.numpy = _numpy
Tensor.__array__ = _array
Tensor.__repr__ = _repr
Tensor.__bool__ = _bool
Tensor.__float__ = lambda self: _scalar(self, float)
Tensor.__int__ = lambda self: _scalar(self, int)
Tensor.__index__ = _index
Tensor.__len__ = _len
Tensor.__iter__ = _iter
Tensor.__hash__ = _hash
Tensor.__array_priority__ = 100  # ndarray + Tensor calls Tensor.__radd__, like TensorFlow
Tensor.ref = _ref
Tensor.shape = property(lambda self: TensorShape(self._shape))
Tensor.dtype = property(lambda self: _dtypes.from_enum(self._dtype))
Tensor.get_shape = lambda self: self.shape
Tensor.__module__ = "tfcc"
_ = _errors  # tf.errors must be imported (and registered) before any op runs
