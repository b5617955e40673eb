"""tf.function on Python callables, through tfcc's trace context (python/src/function.cc).

A call is flattened into its tensors (by dtype and shape in tfcc's cache key) and a key string
for the rest: the nesting of the arguments and every non-tensor value by repr (variables by
identity), so a new Python value retraces, as in TensorFlow. The callable runs once per trace,
with symbolic tensors; the graph runs on later calls.
"""

import functools
import weakref

from tfcc import _tfcc
from tfcc import _tensor
from tfcc import dtypes as _dtypes


class TensorSpec:
    """tf.TensorSpec(shape, dtype=tf.float32, name=None); None dimensions are unknown."""

    def __init__(self, shape, dtype=_dtypes.float32, name=None):
        self.shape = None if shape is None else tuple(shape)
        self.dtype = _dtypes.as_dtype(dtype)
        self.name = name

    def __repr__(self):
        return "TensorSpec(shape=%s, dtype=%r, name=%r)" % (
            "<unknown>" if self.shape is None else _tensor.TensorShape(
                [-1 if d is None else d for d in self.shape]), self.dtype, self.name)


def _flatten(value, tensors):
    """The key of `value` (nesting and non-tensor values); appends its tensors to `tensors`."""
    from tfcc import _variables
    if isinstance(value, _tensor.Tensor):
        tensors.append(value)
        return "T"
    if isinstance(value, _variables.Variable):
        return "V%d" % value._id
    if isinstance(value, (list, tuple)):
        inner = ",".join(_flatten(v, tensors) for v in value)
        return ("[%s]" if isinstance(value, list) else "(%s)") % inner
    if isinstance(value, dict):
        return "{%s}" % ",".join("%r:%s" % (k, _flatten(value[k], tensors)) for k in sorted(value))
    return "%s:%r" % (type(value).__name__, value)


def _rebuild(value, it):
    from tfcc import _variables
    if isinstance(value, _tensor.Tensor):
        return next(it)
    if isinstance(value, _variables.Variable):
        return value
    if isinstance(value, (list, tuple)):
        out = [_rebuild(v, it) for v in value]
        return out if isinstance(value, list) else tuple(out)
    if isinstance(value, dict):
        return {k: _rebuild(value[k], it) for k in value}
    return value


def _outputs(value, tensors):
    """Replaces each tensor of the result by its index in `tensors` (the graph's outputs)."""
    if isinstance(value, _tensor.Tensor) or hasattr(value, "read_value"):
        tensors.append(value)
        return _Out(len(tensors) - 1)
    if isinstance(value, (list, tuple)):
        out = [_outputs(v, tensors) for v in value]
        return out if isinstance(value, list) else tuple(out)
    if isinstance(value, dict):
        return {k: _outputs(v, tensors) for k, v in value.items()}
    return value


class _Out:
    __slots__ = ("i",)

    def __init__(self, i):
        self.i = i


def _fill(skeleton, out):
    if isinstance(skeleton, _Out):
        return out[skeleton.i]
    if isinstance(skeleton, (list, tuple)):
        r = [_fill(v, out) for v in skeleton]
        return r if isinstance(skeleton, list) else tuple(r)
    if isinstance(skeleton, dict):
        return {k: _fill(v, out) for k, v in skeleton.items()}
    return skeleton


class Function:
    """What tf.function returns: call it like the Python function."""

    def __init__(self, fn, input_signature=None, reduce_retracing=False, name=None):
        self.python_function = fn
        self._calls = {}  # key -> (args, kwargs) of the call being traced
        self._skeletons = {}  # key -> output structure
        sig = None
        if input_signature is not None:
            sig = [([-1 if d is None else int(d) for d in s.shape], s.dtype._enum)
                   for s in input_signature]
        self._input_signature = input_signature
        # The C++ function holds the tracer; a weak reference back avoids a cycle through C++.
        self_ref = weakref.ref(self)

        def trace(tensors, key):
            return self_ref()._trace(tensors, key)

        self._core = _tfcc.Function(trace, name or getattr(fn, "__name__", "function"),
                                    bool(reduce_retracing), sig)
        functools.update_wrapper(self, fn)

    def _trace(self, tensors, key):
        args, kwargs = self._calls[key]
        it = iter(tensors)
        args = _rebuild(args, it)
        kwargs = _rebuild(kwargs, it)
        result = self.python_function(*args, **kwargs)
        flat = []
        self._skeletons[key] = _outputs(result, flat)
        return flat

    def __call__(self, *args, **kwargs):
        if _tfcc.functions_run_eagerly():
            return self.python_function(*args, **kwargs)
        tensors = []
        if self._input_signature is not None:
            args = tuple(_tensor.convert_to_tensor(a) for a in args)
        key = _flatten((args, kwargs), tensors)
        self._calls[key] = (args, kwargs)
        try:
            out = self._core.call(tensors, key)
        finally:
            del self._calls[key]
        return _fill(self._skeletons[key], out)

    def __get__(self, obj, objtype=None):
        return self if obj is None else functools.partial(self.__call__, obj)

    def experimental_get_tracing_count(self):
        return self._core.tracing_count

    @property
    def last_retrace_reason(self):
        return self._core.last_retrace_reason


def function(func=None, input_signature=None, autograph=True, jit_compile=None,
             reduce_retracing=False, experimental_relax_shapes=None, name=None, **kwargs):
    """tf.function: as a decorator (with or without arguments) or a call."""
    del autograph, jit_compile, kwargs
    relax = reduce_retracing or bool(experimental_relax_shapes)
    if func is None:
        return lambda f: Function(f, input_signature, relax, name)
    return Function(func, input_signature, relax, name)


def run_functions_eagerly(run_eagerly):
    """tf.config.run_functions_eagerly."""
    _tfcc.run_functions_eagerly(bool(run_eagerly))


def functions_run_eagerly():
    return _tfcc.functions_run_eagerly()
