"""Tensors from Python: conversion, NumPy interop (no copy), dtypes, shapes, Python protocols."""

import numpy as np
import pytest

import tfcc as tf


def test_constant_defaults_like_tensorflow():
    assert tf.constant(1).dtype == tf.int32
    assert tf.constant(1.0).dtype == tf.float32
    assert tf.constant(True).dtype == tf.bool
    assert tf.constant(2**40).dtype == tf.int64
    assert tf.constant(np.float64(1)).dtype == tf.float64  # NumPy keeps its dtype
    assert tf.constant(np.arange(3)).dtype == tf.int64
    assert tf.constant([1, 2], dtype="float64").dtype == tf.float64
    assert tf.constant([1, 2], dtype=np.uint8).dtype == tf.uint8


def test_constant_from_noncontiguous_array():
    a = np.arange(12, dtype=np.float32).reshape(3, 4)[:, ::2]
    np.testing.assert_array_equal(tf.constant(a).numpy(), a)


def test_asarray_shares_the_buffer_and_is_read_only():
    t = tf.constant([[1.0, 2.0], [3.0, 4.0]])
    a = np.asarray(t)
    b = np.asarray(t)
    assert a.dtype == np.float32 and a.shape == (2, 2)
    assert not a.flags.writeable
    assert a.__array_interface__["data"][0] == b.__array_interface__["data"][0]
    with pytest.raises(ValueError):
        a[0, 0] = 5


def test_numpy_is_a_writable_copy():
    t = tf.constant([1, 2, 3])
    n = t.numpy()
    n[0] = 9
    assert t.numpy()[0] == 1
    assert isinstance(tf.constant(2.5).numpy(), np.float32)


def test_dtype_objects():
    assert tf.float32.name == "float32" and repr(tf.int64) == "tf.int64"
    assert tf.as_dtype(np.float64) is tf.float64 and tf.as_dtype("bool") is tf.bool
    assert tf.float32.is_floating and tf.int32.is_integer and tf.float32.size == 4
    assert tf.float32 == "float32" and tf.float32 != tf.float64
    with pytest.raises(TypeError):
        tf.as_dtype("complex64")


def test_shape_is_a_tensor_shape():
    t = tf.zeros([2, 3])
    assert t.shape == (2, 3) and t.shape == [2, 3]
    assert t.shape.as_list() == [2, 3] and t.shape.rank == 2 and t.shape[1] == 3
    assert str(t.shape) == "(2, 3)" and repr(t.shape) == "TensorShape([2, 3])"
    assert str(tf.zeros([4]).shape) == "(4,)"
    assert t.ndim == 2


def test_python_protocols():
    t = tf.constant([3, 4])
    assert len(t) == 2
    assert [int(e) for e in t] == [3, 4]
    assert float(tf.constant(2.5)) == 2.5 and bool(tf.constant(True))
    assert [10, 20, 30][tf.constant(1)] == 20
    with pytest.raises(ValueError):
        bool(t)
    with pytest.raises(TypeError):
        hash(t)
    assert {t.ref(): 1}[t.ref()] == 1


def test_numpy_array_on_the_left_gives_a_tensor():
    r = np.array([1.0, 2.0], dtype=np.float32) + tf.constant([1.0, 1.0])
    assert isinstance(r, tf.Tensor)


def test_equality_with_non_tensors():
    t = tf.constant([1, 2])
    assert (t == None) is False  # noqa: E711 - TensorFlow's behaviour is what is tested
    assert (t != None) is True  # noqa: E711
    assert (t == tf.constant([1, 2, 3])) is False  # shapes that do not broadcast


def test_bad_index_types():
    t = tf.constant([1.0, 2.0])
    with pytest.raises(TypeError):
        t[1.5]
    with pytest.raises(TypeError):
        t["a"]
    with pytest.raises(tf.errors.InvalidArgumentError):
        t[tf.constant(1.0)]
