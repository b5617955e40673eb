"""tf.function on Python callables (tfcc's trace context): tracing, cache, retracing, variables,
gradients inside, input_signature, run_functions_eagerly."""

import numpy as np
import pytest

import tfcc as tf


def test_traces_once_per_signature_and_python_value():
    traces = []

    @tf.function
    def power(x, n):
        traces.append(n)
        y = x
        for _ in range(n - 1):  # Python control flow runs at trace time
            y = y * x
        return y

    np.testing.assert_array_equal(power(tf.constant([1.0, 2.0]), 3).numpy(), [1.0, 8.0])
    np.testing.assert_array_equal(power(tf.constant([3.0, 4.0]), 3).numpy(), [27.0, 64.0])
    assert traces == [3] and power.experimental_get_tracing_count() == 1
    power(tf.constant([2.0]), 3)  # new shape
    assert power.experimental_get_tracing_count() == 2
    assert "changed shape from (2,) to (1,)" in power.last_retrace_reason
    power(tf.constant([2.0]), 2)  # new Python value
    assert traces == [3, 3, 2]
    assert "changed value" in power.last_retrace_reason


def test_tensors_inside_are_symbolic():
    seen = []

    @tf.function
    def f(x):
        seen.append(tf.executing_eagerly())
        return x + 1

    f(tf.constant(1.0))
    assert seen == [False] and tf.executing_eagerly()


def test_variables_are_captured_and_updated_every_call():
    v = tf.Variable(2.0)

    @tf.function
    def step(x):
        v.assign_add(1.0)
        return {"scaled": x * v, "list": [x + 1]}

    first = step(tf.constant(1.0))
    second = step(tf.constant(1.0))
    assert float(first["scaled"]) == 3.0 and float(second["scaled"]) == 4.0
    assert float(second["list"][0]) == 2.0 and float(v) == 4.0
    assert step.experimental_get_tracing_count() == 1


def test_gradient_tape_inside_a_function():
    w = tf.Variable([1.0, -1.0])

    @tf.function
    def train_step(x):
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(tf.square(x * w))
        g = tape.gradient(loss, w)
        w.assign_sub(0.1 * g)
        return loss

    loss = train_step(tf.constant([1.0, 2.0]))
    assert float(loss) == 5.0
    np.testing.assert_allclose(w.numpy(), [0.8, -0.2], rtol=1e-6)


def test_input_signature_traces_once_for_unknown_dims():
    @tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
    def double(x):
        return x * 2

    assert double(tf.constant([1.0])).shape == (1,)
    np.testing.assert_array_equal(double([1.0, 2.0, 3.0]).numpy(), [2.0, 4.0, 6.0])
    assert double.experimental_get_tracing_count() == 1


def test_symbolic_tensors_know_their_static_shape():
    seen = []

    @tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float32)])
    def f(x):
        seen.append((x.shape, x.shape.as_list(), x.shape.is_fully_defined(), repr(x)))
        return tf.reduce_sum(x, axis=1)

    assert f(tf.ones([2, 3])).shape == (2,)
    shape, dims, full, text = seen[0]
    assert shape == (None, 3) and dims == [None, 3] and not full
    assert str(shape) == "(None, 3)"
    assert text.startswith('Tensor("symbolic:') and "shape=(None, 3), dtype=float32)" in text


def test_python_if_on_a_traced_tensor_is_a_clear_error():
    @tf.function
    def f(x):
        if x > 0:
            x = x + 1
        return x

    with pytest.raises(tf.errors.OperatorNotAllowedInGraphError, match="AutoGraph"):
        f(tf.constant(1))
    assert isinstance(tf.errors.OperatorNotAllowedInGraphError("x"), TypeError)


def test_run_functions_eagerly():
    calls = []

    @tf.function
    def f(x):
        calls.append(tf.executing_eagerly())
        return x

    tf.config.run_functions_eagerly(True)
    try:
        f(tf.constant(1.0))
        f(tf.constant(1.0))
    finally:
        tf.config.run_functions_eagerly(False)
    assert calls == [True, True]


def test_methods_can_be_decorated():
    class Model:
        def __init__(self):
            self.w = tf.Variable(3.0)

        @tf.function
        def __call__(self, x):
            return x * self.w

    assert float(Model()(tf.constant(2.0))) == 6.0
