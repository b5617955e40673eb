"""tf.Variable: tfcc::Variable with TensorFlow's Python surface (operators read the value)."""

from tfcc import _tfcc
from tfcc import _tensor
from tfcc import dtypes as _dtypes

import weakref

# tfcc variable id -> the Python Variable, so C++ results (watched_variables) map back to it.
_by_id = weakref.WeakValueDictionary()


class Variable(_tfcc.Variable):
    """A mutable, named tensor: tf.Variable(initial_value, trainable=True, name=None, dtype=None)."""

    def __init__(self, initial_value=None, trainable=True, name=None, dtype=None, shape=None,
                 **kwargs):
        del shape, kwargs
        if callable(initial_value):
            initial_value = initial_value()
        value = _tensor.constant(initial_value, dtype)
        super().__init__(value, name or "Variable", bool(trainable))
        _by_id[self._id] = self

    @property
    def name(self):
        return self._name + ":0"

    @property
    def dtype(self):
        return _dtypes.from_enum(self._dtype)

    @property
    def shape(self):
        return self.read_value().shape

    def numpy(self):
        return self.read_value().numpy()

    def __array__(self, dtype=None, copy=None):
        return self.read_value().__array__(dtype, copy)

    def get_shape(self):
        return self.shape

    def __repr__(self):
        text = repr(self.numpy()) if self.read_value().ndim else str(self.numpy())
        return "<tf.Variable '%s' shape=%s dtype=%s, numpy=%s>" % (
            self.name, self.shape, self.dtype.name, text)

    def __str__(self):
        return repr(self)

    def __hash__(self):
        return hash(self._id)

    def ref(self):
        return _tensor._Ref(self.read_value())

    def __bool__(self):
        return bool(self.read_value())

    def __float__(self):
        return float(self.read_value())

    def __int__(self):
        return int(self.read_value())

    def __len__(self):
        return len(self.read_value())

    def __iter__(self):
        return iter(self.read_value())

    def __getitem__(self, key):
        return self.read_value()[key]


def _forward(name):
    def method(self, *args):
        return getattr(self.read_value(), name)(*args)

    method.__name__ = name
    return method


for _name in ("__add__ __radd__ __sub__ __rsub__ __mul__ __rmul__ __truediv__ __rtruediv__ "
              "__floordiv__ __rfloordiv__ __mod__ __rmod__ __pow__ __rpow__ __matmul__ "
              "__rmatmul__ __lt__ __le__ __gt__ __ge__ __eq__ __ne__ __and__ __rand__ __or__ "
              "__ror__ __xor__ __rxor__ __neg__ __pos__ __abs__ __invert__").split():
    setattr(Variable, _name, _forward(_name))
Variable.__array_priority__ = 100
Variable.__module__ = "tfcc"
