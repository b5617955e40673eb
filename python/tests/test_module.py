"""tf.Module: variable and submodule tracking through attributes, in TensorFlow's order."""

import pytest

import tfcc as tf


class Dense(tf.Module):
    def __init__(self, n_in, n_out, name=None):
        super().__init__(name=name)
        self.w = tf.Variable(tf.ones([n_in, n_out]), name="w")
        self.b = tf.Variable(tf.zeros([n_out]), name="b")

    def __call__(self, x):
        return tf.nn.relu(x @ self.w + self.b)


class MLP(tf.Module):
    def __init__(self):
        super().__init__()
        self.layers = [Dense(3, 2, name="first"), Dense(2, 1, name="second")]
        self.step = tf.Variable(0, trainable=False, name="step")

    @tf.function
    def __call__(self, x):
        for layer in self.layers:
            x = layer(x)
        return x


def test_tracks_variables_and_submodules_in_tensorflow_order():
    m = MLP()
    assert m.name == "mlp"
    # TensorFlow's order: this module's attributes by name, then each submodule's.
    assert [v.name for v in m.variables] == ["step:0", "b:0", "w:0", "b:0", "w:0"]
    assert len(m.trainable_variables) == 4 and [v.name for v in m.non_trainable_variables] == [
        "step:0"]
    assert [s.name for s in m.submodules] == ["first", "second"]


def test_module_trains_through_a_traced_call():
    m = MLP()
    x = tf.constant([[1.0, 2.0, 3.0]])
    assert float(m(x)[0, 0]) == 12.0
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(m(x))
    grads = tape.gradient(loss, m.trainable_variables)
    assert all(g is not None for g in grads)
    assert [g.shape for g in grads] == [(2,), (3, 2), (1,), (2, 1)]
    assert [v.shape for v in m.trainable_variables] == [(2,), (3, 2), (1,), (2, 1)]


def test_default_names_follow_tensorflow():
    class MyModule(tf.Module):
        pass

    class HTTPClient(tf.Module):
        pass

    assert MyModule().name == "my_module" and HTTPClient().name == "http_client"


def test_invalid_name():
    with pytest.raises(ValueError):
        tf.Module(name="not a name")
