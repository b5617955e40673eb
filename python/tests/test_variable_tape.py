"""tf.Variable and tf.GradientTape (expected values: TensorFlow's semantics, worked by hand)."""

import numpy as np
import pytest

import tfcc as tf


def test_variable_read_assign():
    v = tf.Variable([1.0, 2.0], name="w")
    assert v.name == "w:0" and v.dtype == tf.float32 and v.shape == (2,) and v.trainable
    v.assign([3.0, 4.0])
    v.assign_add([1.0, 1.0])
    v.assign_sub([0.5, 0.5])
    np.testing.assert_array_equal(v.numpy(), [3.5, 4.5])
    assert isinstance(v + 1, tf.Tensor) and float((v * 2)[1]) == 9.0
    assert float(tf.reduce_sum(v)) == 8.0  # a variable is accepted wherever a tensor is
    assert repr(tf.Variable(2.0)) == \
        "<tf.Variable 'Variable:0' shape=() dtype=float32, numpy=2.0>"
    with pytest.raises(tf.errors.InvalidArgumentError):
        v.assign([1.0, 2.0, 3.0])


def test_variable_initial_value_callable_and_dtype():
    v = tf.Variable(lambda: tf.ones([2]), trainable=False)
    assert not v.trainable and v.shape == (2,)
    assert tf.Variable(1, dtype=tf.float64).dtype == tf.float64


def test_gradient_of_variables():
    w = tf.Variable([[1.0], [2.0]])
    b = tf.Variable([0.5])
    x = tf.constant([[3.0, 4.0]])
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(tf.matmul(x, w) + b)
    dw, db = tape.gradient(y, [w, b])
    np.testing.assert_allclose(dw.numpy(), [[3.0], [4.0]])
    np.testing.assert_allclose(db.numpy(), [1.0])


def test_gradient_of_watched_constant_and_dict_sources():
    x = tf.constant(3.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * x + 2 * x
    g = tape.gradient(y, {"x": x})
    assert float(g["x"]) == 8.0


def test_non_persistent_tape_is_single_use():
    x = tf.constant(2.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * x
    tape.gradient(y, x)
    with pytest.raises(Exception):
        tape.gradient(y, x)


def test_persistent_and_nested_tapes():
    x = tf.constant(3.0)
    with tf.GradientTape(persistent=True) as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = x * x * x
        dy = inner.gradient(y, x)
    assert float(dy) == 27.0
    assert float(outer.gradient(dy, x)) == 18.0
    assert float(outer.gradient(y, x)) == 27.0  # persistent: a second gradient


def test_recording_stops_outside_the_block_and_when_paused():
    x = tf.constant(1.0)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = x * 2
        with tape.stop_recording():
            z = x * 3
    w = x * 4
    assert float(tape.gradient(y, x)) == 2.0
    assert tape.gradient(z, x) is None
    assert tape.gradient(w, x) is None


def test_unconnected_gradients():
    x, u = tf.constant(1.0), tf.constant([1.0, 2.0])
    with tf.GradientTape(persistent=True) as tape:
        tape.watch([x, u])
        y = x * 5
    assert tape.gradient(y, u) is None
    np.testing.assert_array_equal(
        tape.gradient(y, u, unconnected_gradients=tf.UnconnectedGradients.ZERO).numpy(), [0, 0])


def test_jacobian_and_batch_jacobian():
    x = tf.constant([1.0, 2.0, 3.0])
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = x * x
    np.testing.assert_allclose(tape.jacobian(y, x).numpy(), np.diag([2.0, 4.0, 6.0]))
    xb = tf.constant([[1.0, 2.0], [3.0, 4.0]])
    with tf.GradientTape() as tape:
        tape.watch(xb)
        yb = xb * xb
    j = tape.batch_jacobian(yb, xb)
    assert j.shape == (2, 2, 2)
    np.testing.assert_allclose(j.numpy()[1], np.diag([6.0, 8.0]))


def test_watched_variables_and_softmax_gradient():
    v = tf.Variable([1.0, 2.0, 3.0])
    with tf.GradientTape() as tape:
        p = tf.nn.softmax(v)
        loss = -tf.math.log(p[0])
    assert [w.name for w in tape.watched_variables()] == ["Variable:0"]
    g = tape.gradient(loss, v).numpy()
    want = np.exp([1.0, 2.0, 3.0]) / np.exp([1.0, 2.0, 3.0]).sum() - np.array([1.0, 0, 0])
    np.testing.assert_allclose(g, want, rtol=1e-5)


def test_persistent_tape_can_be_reentered():
    x = tf.constant(2.0)
    tape = tf.GradientTape(persistent=True)
    with tape:
        tape.watch(x)
        y = x * x
    between = y * x  # not recorded
    with tape:
        z = y * x
    assert float(tape.gradient(z, x)) == 12.0  # z = x^3
    assert tape.gradient(between, x) is None
