"""Prints TensorFlow's values on NaN, +-Inf, signed zeros and poles for the element-wise,
activation and reduction ops whose conformance rows (tests/ops/rows_*.cc) carry such cases, so a
row's expected rule can be checked against TensorFlow by eye:

    /path/to/tf-venv/bin/python tests/ops/tf_edge_values.py

Not run by the suite (the rows hold the rules); issue 20 plans the automatic comparison.
"""
import numpy as np
import tensorflow as tf

NAN, INF = float("nan"), float("inf")
X = tf.constant([NAN, INF, -INF, 0.0, -0.0, 1.0, -1.0, 6.0, 7.0], tf.float64)

np.set_printoptions(precision=8, linewidth=120)
print("x", X.numpy())
UNARY = {
    "relu": tf.nn.relu, "relu6": tf.nn.relu6, "elu": tf.nn.elu, "selu": tf.nn.selu,
    "gelu": tf.nn.gelu, "gelu_approximate": lambda x: tf.nn.gelu(x, approximate=True),
    "leaky_relu": tf.nn.leaky_relu, "silu": tf.nn.silu, "softplus": tf.nn.softplus,
    "softsign": tf.nn.softsign, "log_sigmoid": tf.math.log_sigmoid, "sigmoid": tf.sigmoid,
    "abs": tf.abs, "sign": tf.sign, "exp": tf.exp, "log": tf.math.log, "log1p": tf.math.log1p,
    "expm1": tf.math.expm1, "sqrt": tf.sqrt, "rsqrt": tf.math.rsqrt, "sin": tf.sin,
    "cos": tf.cos, "tan": tf.tan, "tanh": tf.tanh, "erf": tf.math.erf, "erfc": tf.math.erfc,
    "asin": tf.asin, "acos": tf.acos, "atan": tf.atan, "sinh": tf.sinh, "cosh": tf.cosh,
    "lgamma": tf.math.lgamma, "digamma": tf.math.digamma, "round": tf.round,
    "clip_by_value": lambda x: tf.clip_by_value(x, -1.0, 2.0),
}
for name, f in UNARY.items():
    print(name, f(X).numpy())

A = tf.constant([NAN, 1, INF, -INF, 0, 0, -1, 2, 0, 1], tf.float64)
B = tf.constant([1, NAN, 1, 1, 0, -0.0, 0, 0, -1, INF], tf.float64)
BINARY = {
    "atan2": tf.math.atan2, "xlogy": tf.math.xlogy, "truncatediv": tf.truncatediv,
    "truncatemod": tf.truncatemod, "floordiv": tf.math.floordiv, "floormod": tf.math.floormod,
    "pow": tf.pow, "maximum": tf.maximum, "minimum": tf.minimum,
    "squared_difference": tf.math.squared_difference,
    "polygamma": lambda a, b: tf.math.polygamma(tf.abs(a), b),
}
print("a", A.numpy(), "\nb", B.numpy())
for name, f in BINARY.items():
    print(name, f(A, B).numpy())

M = tf.constant([[1, NAN, 3], [NAN, 2, NAN], [NAN, NAN, NAN], [INF, NAN, -INF], [-INF, -INF, 0]],
                tf.float64)
print("m", M.numpy())
for name in ["reduce_sum", "reduce_max", "reduce_min", "reduce_mean", "reduce_prod",
             "reduce_logsumexp", "reduce_variance", "reduce_std"]:
    print(name, getattr(tf.math, name)(M, axis=1).numpy())
print("argmax", tf.argmax(M, axis=1).numpy(), "argmin", tf.argmin(M, axis=1).numpy())
print("softmax", tf.nn.softmax(M).numpy())
print("log_softmax", tf.nn.log_softmax(M).numpy())
print("cumsum", tf.cumsum(M, axis=1).numpy())

v = tf.constant([0.0, 3.0, 6.0, 7.0, -1.0], tf.float64)
with tf.GradientTape() as tape:
    tape.watch(v)
    y = tf.nn.relu6(v)
print("relu6 gradient at", v.numpy(), tape.gradient(y, v).numpy())
