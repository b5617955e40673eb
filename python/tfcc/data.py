"""tf.data: Dataset over tfcc::data::Dataset (python/src/data.cc).

    ds = tf.data.Dataset.from_tensor_slices((x, y)).shuffle(1000).batch(64).prefetch(1)
    for xb, yb in ds: ...

Elements are a tensor or a tuple of tensors (nested structures and dicts: not yet). map() and
filter() call the Python function eagerly on each element (TensorFlow traces it once; the
results are the same for functions of their arguments made of tf ops).
"""

from tfcc import _tfcc
from tfcc._tensor import constant as _constant

AUTOTUNE = -1


class experimental:  # noqa: N801 - tf.data.experimental
    AUTOTUNE = AUTOTUNE


def _flatten(value):
    if isinstance(value, (tuple, list)):
        return True, [_constant(v) for v in value]
    return False, [_constant(value)]


def _restructure(is_tuple, flat):
    return tuple(flat) if is_tuple[0] else flat[0]


class Dataset:
    """tf.data.Dataset: an immutable pipeline; every method returns a new dataset."""

    def __init__(self, cpp, is_tuple):
        self._ds = cpp
        # A one-element list: map() learns its output structure at the first call.
        self._is_tuple = is_tuple if isinstance(is_tuple, list) else [is_tuple]

    def _derive(self, cpp):
        return Dataset(cpp, self._is_tuple)

    @staticmethod
    def from_tensor_slices(tensors, name=None):
        del name
        is_tuple, flat = _flatten(tensors)
        return Dataset(_tfcc.Dataset.from_tensor_slices(flat), is_tuple)

    @staticmethod
    def from_tensors(tensors, name=None):
        del name
        is_tuple, flat = _flatten(tensors)
        return Dataset(_tfcc.Dataset.from_tensors(flat), is_tuple)

    @staticmethod
    def range(*args):
        start, stop, step = (0, args[0], 1) if len(args) == 1 else (tuple(args) + (1,))[:3]
        return Dataset(_tfcc.Dataset.range(start, stop, step), False)

    def _structure(self, flat):
        return _restructure(self._is_tuple, flat)

    def batch(self, batch_size, drop_remainder=False, num_parallel_calls=None,
              deterministic=None, name=None):
        del num_parallel_calls, deterministic, name
        return self._derive(self._ds.batch(batch_size, drop_remainder))

    def shuffle(self, buffer_size, seed=None, reshuffle_each_iteration=True, name=None):
        del name
        return self._derive(self._ds.shuffle(buffer_size, seed, reshuffle_each_iteration))

    def prefetch(self, buffer_size, name=None):
        del name
        return self._derive(self._ds.prefetch(buffer_size))

    def take(self, count, name=None):
        del name
        return self._derive(self._ds.take(count))

    def skip(self, count, name=None):
        del name
        return self._derive(self._ds.skip(count))

    def repeat(self, count=None, name=None):
        del name
        return self._derive(self._ds.repeat(-1 if count is None else count))

    def unbatch(self, name=None):
        del name
        return self._derive(self._ds.unbatch())

    def cache(self, filename="", name=None):
        del name
        return self._derive(self._ds.cache(filename))

    def concatenate(self, dataset, name=None):
        del name
        return self._derive(self._ds.concatenate(dataset._ds))

    def map(self, map_func, num_parallel_calls=None, deterministic=None, name=None):
        del num_parallel_calls, deterministic, name
        out_is_tuple, in_is_tuple = [None], self._is_tuple

        # The closure holds no Dataset: the C++ pipeline owns it (no cycle through C++).
        def call(flat):
            value = _restructure(in_is_tuple, flat)
            result = map_func(*value) if isinstance(value, tuple) else map_func(value)
            out_is_tuple[0], out = _flatten(result)
            return out

        return Dataset(self._ds.map_python(call), out_is_tuple)

    def filter(self, predicate, name=None):
        del name

        in_is_tuple = self._is_tuple

        def call(flat):
            value = _restructure(in_is_tuple, flat)
            return [_constant(predicate(*value) if isinstance(value, tuple) else predicate(value))]

        return self._derive(self._ds.filter_python(call))

    def cardinality(self):
        return _constant(self._ds.cardinality(), dtype="int64")

    def __len__(self):
        n = self._ds.cardinality()
        if n < 0:
            raise TypeError("The dataset length is infinite or unknown.")
        return n

    def __iter__(self):
        it = _tfcc.DatasetIterator(self._ds)
        while True:
            flat = it.next()
            if flat is None:
                return
            yield self._structure(flat)

    def as_numpy_iterator(self):
        for e in self:
            yield tuple(t.numpy() for t in e) if isinstance(e, tuple) else e.numpy()
