"""The generated API: tf.raw_ops covers the registry, TensorFlow's module paths exist, errors."""

import pytest

import tfcc as tf
from tfcc import _tfcc


def test_raw_ops_cover_every_registered_op():
    names = {d["name"] for d in _tfcc.op_defs()}
    assert len(names) > 100
    for n in names:
        assert callable(getattr(tf.raw_ops, n)), n


def test_raw_op_call_with_keywords():
    r = tf.raw_ops.MatMul(a=tf.ones([2, 3]), b=tf.ones([3, 1]), transpose_a=False)
    assert r.shape == (2, 1) and float(r[0, 0]) == 3.0
    with pytest.raises(TypeError):
        tf.raw_ops.AddV2(x=tf.ones([1]), y=tf.ones([1]), bogus=1)


@pytest.mark.parametrize("path", [
    "math.add", "add", "math.reduce_sum", "reduce_sum", "reduce_mean", "matmul", "linalg.matmul",
    "reshape", "nn.relu", "nn.softmax", "nn.sigmoid", "nn.conv2d", "nn.max_pool2d", "math.exp",
    "random.normal", "random.uniform", "random.set_seed", "concat", "stack", "cast", "one_hot",
    "where", "range", "zeros", "ones", "fill", "gather", "argmax", "math.cumsum", "bitwise.invert",
])
def test_tensorflow_paths_exist(path):
    obj = tf
    for part in path.split("."):
        obj = getattr(obj, part)
    assert callable(obj)


def test_error_classes_are_op_errors():
    for name in ("InvalidArgumentError", "NotFoundError", "OutOfRangeError", "UnimplementedError",
                 "FailedPreconditionError", "DataLossError", "InternalError"):
        cls = getattr(tf.errors, name)
        assert issubclass(cls, tf.errors.OpError)
    with pytest.raises(tf.errors.OpError) as info:
        tf.reshape(tf.ones([3]), [2, 2])
    e = info.value
    assert isinstance(e, tf.errors.InvalidArgumentError)
    assert e.error_code == tf.errors.INVALID_ARGUMENT
    assert "Reshape" in e.message


def test_random_is_seeded():
    tf.random.set_seed(7)
    a = tf.random.normal([3])
    tf.random.set_seed(7)
    b = tf.random.normal([3])
    assert a.numpy().tolist() == b.numpy().tolist()
    u = tf.random.uniform([1000], minval=2, maxval=3, seed=1)
    assert 2 <= float(tf.reduce_min(u)) and float(tf.reduce_max(u)) < 3
    assert tf.random.uniform([5], maxval=10, dtype=tf.int32).dtype == tf.int32


def test_conv_and_pool_shapes():
    x = tf.ones([1, 5, 5, 2])
    k = tf.ones([3, 3, 2, 4])
    y = tf.nn.conv2d(x, k, strides=1, padding="SAME")
    assert y.shape == (1, 5, 5, 4) and float(y[0, 2, 2, 0]) == 18.0
    assert tf.nn.max_pool2d(y, 2, 2, "VALID").shape == (1, 2, 2, 4)
