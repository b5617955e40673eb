"""TensorFlow functions whose Python signature needs more than a generic adapter (shapes given
as tensors or lists, optional axes, dtype arguments), and the composites written with ops.
Each is placed at TensorFlow's paths by the PATHS table at the end; functions whose op is not
registered are left out.
"""

import collections

import numpy as np

from tfcc import _api
from tfcc import _tfcc
from tfcc import _tensor
from tfcc import dtypes as _dtypes

_execute = _api._execute
_t = _tensor.convert_to_tensor
_DEFS = _api._DEFS


def _ints(v):
    if isinstance(v, (_tensor.Tensor, np.ndarray)) or hasattr(v, "read_value"):
        v = np.asarray(v).tolist()
    if np.ndim(v) == 0:
        return [int(v)]
    return [int(x) for x in v]


def _dt(dtype, default=None):
    return _dtypes.as_dtype(dtype) if dtype is not None else default


def cast(x, dtype, name=None):
    return _execute("Cast", [x], {"DstT": _dtypes.as_dtype(dtype)})


def reshape(tensor, shape, name=None):
    return _execute("Reshape", [tensor], {"shape": _ints(shape)})


def transpose(a, perm=None, conjugate=False, name=None):
    a = _t(a)
    perm = list(range(a.ndim))[::-1] if perm is None else _ints(perm)
    return _execute("Transpose", [a], {"perm": perm})


def expand_dims(input, axis, name=None):  # noqa: A002
    return _execute("ExpandDims", [input], {"axis": int(axis)})


def squeeze(input, axis=None, name=None):  # noqa: A002
    return _execute("Squeeze", [input], {"squeeze_dims": [] if axis is None else _ints(axis)})


def concat(values, axis, name=None):
    return _execute("ConcatV2", [list(values)], {"axis": int(axis)})


def stack(values, axis=0, name=None):
    return concat([expand_dims(v, axis) for v in values], axis)


def unstack(value, num=None, axis=0, name=None):
    value = _t(value)
    n = value.shape[axis] if num is None else int(num)
    return list(_execute("Unpack", [value], {"num": n, "axis": int(axis)}))


def tile(input, multiples, name=None):  # noqa: A002
    return _execute("Tile", [input], {"multiples": _ints(multiples)})


def broadcast_to(input, shape, name=None):  # noqa: A002
    return _execute("BroadcastTo", [input], {"shape": _ints(shape)})


def pad(tensor, paddings, mode="CONSTANT", constant_values=0, name=None):
    flat = [int(p) for row in np.asarray(paddings).tolist() for p in row]
    if mode.upper() == "CONSTANT":
        return _execute("Pad", [tensor], {"paddings": flat,
                                          "constant_values": float(constant_values)})
    return _execute("MirrorPad", [tensor], {"paddings": flat, "mode": mode.upper()})


def reverse(tensor, axis, name=None):
    return _execute("ReverseV2", [tensor], {"axis": _ints(axis)})


def slice(input_, begin, size, name=None):  # noqa: A001
    return _execute("Slice", [input_], {"begin": _ints(begin), "size": _ints(size)})


def split(value, num_or_size_splits, axis=0, num=None, name=None):
    if np.ndim(num_or_size_splits) == 0 and not isinstance(num_or_size_splits, _tensor.Tensor):
        out = _execute("Split", [value], {"num_split": int(num_or_size_splits), "axis": int(axis)})
    else:
        out = _execute("SplitV", [value], {"size_splits": _ints(num_or_size_splits),
                                           "axis": int(axis)})
    return list(out) if isinstance(out, tuple) else [out]


def gather(params, indices, validate_indices=None, axis=None, batch_dims=0, name=None):
    return _execute("GatherV2", [params, indices], {"axis": 0 if axis is None else int(axis),
                                                     "batch_dims": int(batch_dims)})


def gather_nd(params, indices, batch_dims=0, name=None):
    return _execute("GatherNd", [params, indices], {})


def scatter_nd(indices, updates, shape, name=None):
    return _execute("ScatterNd", [indices, updates], {"shape": _ints(shape)})


def tensor_scatter_nd_update(tensor, indices, updates, name=None):
    return _execute("TensorScatterUpdate", [tensor, indices, updates], {})


def where(condition, x=None, y=None, name=None):
    if x is None and y is None:
        return _execute("Where", [condition], {})
    x, y = _tfcc_resolve(x, y)
    return _execute("SelectV2", [condition, x, y], {})


def _tfcc_resolve(x, y):
    if not isinstance(x, _tensor.Tensor) and isinstance(y, _tensor.Tensor):
        return _tensor.constant(x, y.dtype), y
    x = _t(x)
    return x, (y if isinstance(y, _tensor.Tensor) else _tensor.constant(y, x.dtype))


def one_hot(indices, depth, on_value=None, off_value=None, axis=None, dtype=None, name=None):
    out = _execute("OneHot", [indices], {
        "T": _dtypes.as_dtype(dtype or _dtypes.float32), "depth": int(depth), "on_value": 1.0 if on_value is None else float(on_value),
        "off_value": 0.0 if off_value is None else float(off_value),
        "axis": -1 if axis is None else int(axis)})
    return out


def shape(input, out_type=_dtypes.int32, name=None):  # noqa: A002
    return _execute("Shape", [input], {"out_type": _dtypes.as_dtype(out_type)})


def size(input, out_type=_dtypes.int32, name=None):  # noqa: A002
    return _execute("Size", [input], {"out_type": _dtypes.as_dtype(out_type)})


def rank(input, name=None):  # noqa: A002
    return _execute("Rank", [input], {})


def fill(dims, value, name=None):
    v = _t(value)
    out = _execute("Fill", [], {"dtype": v.dtype, "dims": _ints(dims), "value": 0.0})
    return out + v


def zeros(shape, dtype=_dtypes.float32, name=None):
    return _execute("Fill", [], {"dtype": _dtypes.as_dtype(dtype), "dims": _ints(shape),
                                 "value": 0.0})


def ones(shape, dtype=_dtypes.float32, name=None):
    return _execute("Fill", [], {"dtype": _dtypes.as_dtype(dtype), "dims": _ints(shape),
                                 "value": 1.0})


def zeros_like(input, dtype=None, name=None):  # noqa: A002
    out = _execute("ZerosLike", [input], {})
    return out if dtype is None else cast(out, dtype)


def ones_like(input, dtype=None, name=None):  # noqa: A002
    out = _execute("OnesLike", [input], {})
    return out if dtype is None else cast(out, dtype)


def eye(num_rows, num_columns=None, batch_shape=None, dtype=_dtypes.float32, name=None):
    return _execute("Eye", [], {"dtype": _dtypes.as_dtype(dtype), "num_rows": int(num_rows),
                                "num_columns": int(num_rows if num_columns is None
                                                   else num_columns)})


def range(start, limit=None, delta=1, dtype=None, name="range"):  # noqa: A001
    if limit is None:
        start, limit = 0, start
    vals = [np.asarray(v).item() if isinstance(v, _tensor.Tensor) else v
            for v in (start, limit, delta)]
    if dtype is None:
        dtype = _dtypes.float32 if any(isinstance(v, float) for v in vals) else _dtypes.int32
    return _execute("Range", [], {"Tidx": _dtypes.as_dtype(dtype), "start": float(vals[0]),
                                  "limit": float(vals[1]), "delta": float(vals[2])})


def linspace(start, stop, num, name=None, axis=0):
    return _execute("LinSpace", [], {"T": _dtypes.float32, "start": float(start), "stop": float(stop), "num": int(num)})


def add_n(inputs, name=None):
    return _execute("AddN", [list(inputs)], {})


def divide(x, y, name=None):
    if isinstance(x, _tensor.Tensor):
        return x / y
    if isinstance(y, _tensor.Tensor):
        return y.__rtruediv__(x)
    return _t(x) / _t(y)


def matmul(a, b, transpose_a=False, transpose_b=False, adjoint_a=False, adjoint_b=False,
           name=None):
    a, b = _t(a), _t(b)
    ta, tb = bool(transpose_a or adjoint_a), bool(transpose_b or adjoint_b)
    if a.ndim == 2 and b.ndim == 2:
        return _execute("MatMul", [a, b], {"transpose_a": ta, "transpose_b": tb})
    return _execute("BatchMatMulV2", [a, b], {"adj_x": ta, "adj_y": tb})


def reduce_mean(input_tensor, axis=None, keepdims=False, name=None):
    x = _t(input_tensor)
    total = _api.exported["reduce_sum"](x, axis, keepdims)
    count = max(1, x.shape.num_elements() // max(1, total.shape.num_elements()))
    if x.dtype.is_integer:
        return _execute("TruncateDiv", [total, _tensor.constant(count, x.dtype)], {})
    return total / count


def softmax(logits, axis=None, name=None):
    axis = -1 if axis is None else axis
    e = _api.exported["exp"](logits - _api.exported["reduce_max"](logits, axis, True))
    return e / _api.exported["reduce_sum"](e, axis, True)


def log_softmax(logits, axis=None, name=None):
    axis = -1 if axis is None else axis
    z = logits - _api.exported["reduce_max"](logits, axis, True)
    return z - _api.namespaces["math"].log(
        _api.exported["reduce_sum"](_api.exported["exp"](z), axis, True))


def bias_add(value, bias, data_format=None, name=None):
    return _execute("BiasAdd", [value, bias], {"data_format": data_format or "NHWC"})


def _four(v, data_format="NHWC"):
    v = _ints(v)
    if len(v) == 1:
        v = v * 2
    if len(v) == 2:
        v = [1, v[0], v[1], 1] if data_format == "NHWC" else [1, 1, v[0], v[1]]
    return v


def conv2d(input, filters, strides, padding, data_format="NHWC", dilations=None,
           name=None):  # noqa: A002
    return _execute("Conv2D", [input, filters], {
        "strides": _four(strides, data_format), "padding": padding, "data_format": data_format,
        "dilations": _four(1 if dilations is None else dilations, data_format)})


def max_pool2d(input, ksize, strides, padding, data_format="NHWC", name=None):  # noqa: A002
    return _execute("MaxPool", [input], {"ksize": _four(ksize, data_format),
                                         "strides": _four(strides, data_format),
                                         "padding": padding, "data_format": data_format})


def avg_pool2d(input, ksize, strides, padding, data_format="NHWC", name=None):  # noqa: A002
    return _execute("AvgPool", [input], {"ksize": _four(ksize, data_format),
                                         "strides": _four(strides, data_format),
                                         "padding": padding, "data_format": data_format})


def sparse_softmax_cross_entropy_with_logits(labels=None, logits=None, name=None):
    return _execute("SparseSoftmaxCrossEntropyWithLogits", [logits, labels], {})[0]


def softmax_cross_entropy_with_logits(labels=None, logits=None, axis=-1, name=None):
    return _execute("SoftmaxCrossEntropyWithLogits", [logits, labels], {})[0]


def _seed(seed):
    return None if seed is None else int(seed)


def normal(shape, mean=0.0, stddev=1.0, dtype=_dtypes.float32, seed=None, name=None):
    return _tfcc.random_tensor("normal", _ints(shape), float(mean), float(stddev),
                               _dtypes.as_dtype(dtype)._enum, _seed(seed))


def truncated_normal(shape, mean=0.0, stddev=1.0, dtype=_dtypes.float32, seed=None, name=None):
    return _tfcc.random_tensor("truncated_normal", _ints(shape), float(mean), float(stddev),
                               _dtypes.as_dtype(dtype)._enum, _seed(seed))


def uniform(shape, minval=0, maxval=None, dtype=_dtypes.float32, seed=None, name=None):
    dt = _dtypes.as_dtype(dtype)
    if maxval is None:
        if dt.is_integer:
            raise ValueError("Must specify maxval for integer dtype %r" % dt)
        maxval = 1
    return _tfcc.random_tensor("uniform", _ints(shape), float(minval), float(maxval), dt._enum,
                               _seed(seed))


def shuffle(value, seed=None, name=None):
    return _tfcc.random_shuffle(_t(value), _seed(seed))


def categorical(logits, num_samples, dtype=None, seed=None, name=None):
    return _tfcc.random_categorical(_t(logits), int(num_samples), _seed(seed))


def set_seed(seed):
    _tfcc.set_seed(int(seed))


def _named(name, fields, values):
    return collections.namedtuple(name, fields)(*values)


def solve(matrix, rhs, adjoint=False, name=None):
    return _execute("MatrixSolve", [matrix, rhs], {"adjoint": bool(adjoint)})


def triangular_solve(matrix, rhs, lower=True, adjoint=False, name=None):
    return _execute("MatrixTriangularSolve", [matrix, rhs], {"lower": bool(lower),
                                                             "adjoint": bool(adjoint)})


def band_part(input, num_lower, num_upper, name=None):  # noqa: A002
    return _execute("MatrixBandPart", [input], {"num_lower": int(num_lower),
                                                "num_upper": int(num_upper)})


def qr(input, full_matrices=False, name=None):  # noqa: A002
    return _named("Qr", "q r", _execute("Qr", [input], {"full_matrices": bool(full_matrices)}))


def svd(tensor, full_matrices=False, compute_uv=True, name=None):
    s, u, v = _execute("Svd", [tensor], {"compute_uv": bool(compute_uv),
                                         "full_matrices": bool(full_matrices)})
    return (s, u, v) if compute_uv else s


def eigh(tensor, name=None):
    return tuple(_execute("SelfAdjointEigV2", [tensor], {"compute_v": True}))


def eigvalsh(tensor, name=None):
    return _execute("SelfAdjointEigV2", [tensor], {"compute_v": False})[0]


def _segment(op):
    def f(data, segment_ids, name=None):
        return _execute(op, [data, segment_ids], {})
    f.__name__ = op
    return f


def _unsorted_segment(op):
    def f(data, segment_ids, num_segments, name=None):
        return _execute(op, [data, segment_ids], {"num_segments": int(num_segments)})
    f.__name__ = op
    return f


def top_k(input, k=1, sorted=True, index_type=_dtypes.int32, name=None):  # noqa: A002
    return _named("TopKV2", "values indices", _execute("TopKV2", [input], {
        "k": int(k), "sorted": bool(sorted), "index_type": _dtypes.as_dtype(index_type)}))


def unique(x, out_idx=_dtypes.int32, name=None):
    return _named("Unique", "y idx", _execute("Unique", [x], {
        "out_idx": _dtypes.as_dtype(out_idx)}))


def roll(input, shift, axis, name=None):  # noqa: A002
    return _execute("Roll", [input], {"shift": _ints(shift), "axis": _ints(axis)})


def searchsorted(sorted_sequence, values, side="left", out_type=_dtypes.int32, name=None):
    op = {"left": "LowerBound", "right": "UpperBound"}[side]
    seq, vals = _t(sorted_sequence), _t(values)
    if seq.ndim == 1:  # the op works on rows, as TensorFlow's does: 1-D inputs become one row
        out = _execute(op, [expand_dims(seq, 0), expand_dims(vals, 0)],
                       {"out_type": _dtypes.as_dtype(out_type)})
        return squeeze(out, [0])
    return _execute(op, [seq, vals], {"out_type": _dtypes.as_dtype(out_type)})


# function -> TensorFlow's paths, and the op it needs (None: composite of table ops).
PATHS = [
    (cast, "cast dtypes.cast", "Cast"), (reshape, "reshape", "Reshape"),
    (transpose, "transpose linalg.matrix_transpose", "Transpose"),
    (expand_dims, "expand_dims", "ExpandDims"), (squeeze, "squeeze", "Squeeze"),
    (concat, "concat", "ConcatV2"), (stack, "stack", "ConcatV2"), (unstack, "unstack", "Unpack"),
    (tile, "tile", "Tile"), (broadcast_to, "broadcast_to", "BroadcastTo"), (pad, "pad", "Pad"),
    (reverse, "reverse", "ReverseV2"), (slice, "slice", "Slice"), (split, "split", "Split"),
    (gather, "gather", "GatherV2"), (gather_nd, "gather_nd", "GatherNd"),
    (scatter_nd, "scatter_nd", "ScatterNd"),
    (tensor_scatter_nd_update, "tensor_scatter_nd_update", "TensorScatterUpdate"),
    (where, "where", "SelectV2"), (one_hot, "one_hot", "OneHot"), (shape, "shape", "Shape"),
    (size, "size", "Size"), (rank, "rank", "Rank"), (fill, "fill", "Fill"),
    (zeros, "zeros", "Fill"), (ones, "ones", "Fill"), (zeros_like, "zeros_like", "ZerosLike"),
    (ones_like, "ones_like", "OnesLike"), (eye, "eye linalg.eye", "Eye"),
    (range, "range", "Range"), (linspace, "linspace", "LinSpace"),
    (add_n, "add_n math.add_n", "AddN"), (divide, "math.divide divide math.truediv", "RealDiv"),
    (matmul, "matmul linalg.matmul", "MatMul"),
    (reduce_mean, "reduce_mean math.reduce_mean", "Sum"),
    (softmax, "nn.softmax math.softmax", "Exp"), (log_softmax, "nn.log_softmax", "Exp"),
    (bias_add, "nn.bias_add", "BiasAdd"), (conv2d, "nn.conv2d", "Conv2D"),
    (max_pool2d, "nn.max_pool2d", "MaxPool"), (avg_pool2d, "nn.avg_pool2d", "AvgPool"),
    (sparse_softmax_cross_entropy_with_logits, "nn.sparse_softmax_cross_entropy_with_logits",
     "SparseSoftmaxCrossEntropyWithLogits"),
    (softmax_cross_entropy_with_logits, "nn.softmax_cross_entropy_with_logits",
     "SoftmaxCrossEntropyWithLogits"),
    (normal, "random.normal", "RandomStandardNormal"),
    (truncated_normal, "random.truncated_normal", "TruncatedNormal"),
    (uniform, "random.uniform", "RandomUniform"), (shuffle, "random.shuffle", "RandomShuffle"),
    (categorical, "random.categorical", "Multinomial"), (set_seed, "random.set_seed", None),
    (solve, "linalg.solve", "MatrixSolve"),
    (triangular_solve, "linalg.triangular_solve", "MatrixTriangularSolve"),
    (band_part, "linalg.band_part", "MatrixBandPart"), (qr, "linalg.qr", "Qr"),
    (svd, "linalg.svd", "Svd"), (eigh, "linalg.eigh", "SelfAdjointEigV2"),
    (eigvalsh, "linalg.eigvalsh", "SelfAdjointEigV2"),
    (_segment("SegmentSum"), "math.segment_sum", "SegmentSum"),
    (_segment("SegmentMean"), "math.segment_mean", "SegmentMean"),
    (_segment("SegmentMax"), "math.segment_max", "SegmentMax"),
    (_unsorted_segment("UnsortedSegmentSum"), "math.unsorted_segment_sum", "UnsortedSegmentSum"),
    (_unsorted_segment("UnsortedSegmentMax"), "math.unsorted_segment_max", "UnsortedSegmentMax"),
    (top_k, "math.top_k nn.top_k", "TopKV2"), (unique, "unique", "Unique"),
    (roll, "roll", "Roll"), (searchsorted, "searchsorted", "LowerBound"),
]

for _fn, _paths, _op in PATHS:
    if _op is None or _op in _DEFS:
        _api._place(_paths, _fn)
