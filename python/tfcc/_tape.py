"""tf.GradientTape over tfcc::GradientTape: records inside its `with` block."""

import contextlib

from tfcc import _tfcc
from tfcc import _tensor


class UnconnectedGradients:
    NONE = "none"
    ZERO = "zero"


def _flatten(x):
    if isinstance(x, dict):
        keys = sorted(x)
        return [v for k in keys for v in _flatten(x[k])]
    if isinstance(x, (list, tuple)):
        return [v for e in x for v in _flatten(e)]
    return [x]


def _pack(structure, flat):
    it = iter(flat)

    def build(s):
        if isinstance(s, dict):
            return {k: build(s[k]) for k in sorted(s)}
        if isinstance(s, (list, tuple)):
            out = [build(e) for e in s]
            return type(s)(out) if isinstance(s, tuple) else out
        return next(it)

    return build(structure)


def _zero_flag(unconnected_gradients):
    u = getattr(unconnected_gradients, "value", unconnected_gradients)
    if u not in ("none", "zero"):
        raise ValueError("Unknown value for unconnected_gradients: %r" % (unconnected_gradients,))
    return u == "zero"


class GradientTape:
    """tf.GradientTape(persistent=False, watch_accessed_variables=True)."""

    def __init__(self, persistent=False, watch_accessed_variables=True):
        self._persistent = persistent
        self._tape = _tfcc.Tape(bool(persistent), bool(watch_accessed_variables))
        self._recording = False

    def __enter__(self):
        self._tape.enter()
        self._recording = True
        return self

    def __exit__(self, *exc):
        self._tape.exit()
        self._recording = False
        return False

    def watch(self, tensor):
        for t in _flatten(tensor):
            self._tape.watch(t)

    def watched_variables(self):
        from tfcc import _variables
        return tuple(_variables._by_id.get(v._id, v) for v in self._tape.watched_variables())

    @contextlib.contextmanager
    def stop_recording(self):
        self._tape.pause()
        try:
            yield
        finally:
            self._tape.resume()

    def reset(self):
        self._tape.reset()

    def gradient(self, target, sources, output_gradients=None,
                 unconnected_gradients=UnconnectedGradients.NONE):
        if self._recording and not self._persistent:
            pass  # like TF (which only warns), computing inside the block is allowed
        targets = _flatten(target)
        if len(targets) == 1:
            y = targets[0]
        else:
            from tfcc import _api
            y = _api.add_n([_api.reduce_sum(t) for t in targets])
        if output_gradients is not None and len(targets) == 1:
            output_gradients = _flatten(output_gradients)[0]
        flat = _flatten(sources)
        grads = self._tape.gradient(y, list(flat), output_gradients,
                                    _zero_flag(unconnected_gradients))
        return _pack(sources, grads)

    def jacobian(self, target, sources, unconnected_gradients=UnconnectedGradients.NONE,
                 parallel_iterations=None, experimental_use_pfor=True):
        del parallel_iterations, experimental_use_pfor
        zero = _zero_flag(unconnected_gradients)
        flat = [self._tape.jacobian(target, s, zero, False) for s in _flatten(sources)]
        return _pack(sources, flat)

    def batch_jacobian(self, target, source, unconnected_gradients=UnconnectedGradients.NONE,
                       parallel_iterations=None, experimental_use_pfor=True):
        del parallel_iterations, experimental_use_pfor
        return self._tape.jacobian(target, source, _zero_flag(unconnected_gradients), True)


_ = _tensor
