"""Expressions evaluated with `tf` bound to TensorFlow (make_fixtures.py, once, to record the
expected results in fixtures/tf_expected.json) and to tfcc (test_against_tf.py, every run).

Each case is one Python expression; names x, m, i, b are defined by SETUP first.
"""

SETUP = """
x = tf.constant([1.5, -2.0, 3.25])
m = tf.constant([[1.0, 2.0], [3.0, 4.0]])
i = tf.constant([[7, -3, 2], [4, 5, -6]])
b = tf.constant([True, False, True])
c = tf.reshape(tf.range(24), [2, 3, 4])
"""

# str(result) must match TensorFlow's exactly (print(t)).
PRINT_CASES = [
    "tf.constant(5)",
    "tf.constant(2.5)",
    "tf.constant(True)",
    "tf.constant([1, 2, 3])",
    "tf.constant([[1.0, 2.0], [3.0, 4.0]])",
    "tf.constant([0.1, 1e-5, 12345.678])",
    "tf.constant([[True, False]])",
    "tf.constant([], dtype=tf.float32)",
    "tf.constant(3, dtype=tf.int64)",
    "tf.constant([1.0, 2.0], dtype=tf.float64)",
    "tf.constant([[1, 2], [3, 4]], dtype=tf.uint8)",
    "tf.zeros([2, 0])",
    "tf.reshape(tf.range(24), [2, 3, 4])",
    "x", "m", "i", "b",
]

# Values, dtypes and shapes must match; str(result) too.
VALUE_CASES = [
    # Operators and TensorFlow's dtype rules.
    "x + 1", "1 + x", "x - m[0, 0]", "2 * x", "x * x", "x / 2", "1 / x", "i / 2", "i // 4",
    "i % 4", "-i // 4", "x // 1", "x % 2", "x ** 2", "2 ** x", "i ** 2", "m @ m", "-x", "abs(x)",
    "x < 0", "x <= 1.5", "x > 0", "x >= 3.25", "x == 1.5", "x != 1.5", "b & tf.constant([True, True, False])",
    "b | tf.constant([False, False, True])", "b ^ tf.constant([True, True, True])", "~b",
    # Indexing like TensorFlow.
    "x[0]", "x[-1]", "x[1:]", "x[::-1]", "x[::2]", "m[1]", "m[:, 1]", "m[..., 0]",
    "m[tf.newaxis, :, 1]", "m[:, tf.newaxis]", "c[1, ..., ::2]", "c[:, 1:3, -1]", "c[..., 1:2]",
    "c[::-1, ::2, 1::2]", "c[0, 1, 2]", "x[tf.constant(1)]",
    # Module paths, generated from the op registry.
    "tf.math.exp(x)", "tf.math.log(tf.abs(x))", "tf.math.sqrt(tf.abs(x))", "tf.math.square(x)",
    "tf.math.sin(x)", "tf.math.tanh(x)", "tf.math.sigmoid(x)", "tf.nn.relu(x)", "tf.nn.relu6(x * 3)",
    "tf.math.floor(x)", "tf.math.ceil(x)", "tf.math.round(x)", "tf.math.sign(x)",
    "tf.math.reciprocal(x)", "tf.math.maximum(x, 0.)", "tf.math.minimum(i, 3)",
    "tf.math.squared_difference(x, 1.)", "tf.math.logical_not(b)", "tf.math.is_nan(x / 0)",
    "tf.add(x, 1)", "tf.subtract(i, 1)", "tf.multiply(m, m)", "tf.divide(i, 4)",
    "tf.math.floordiv(i, 3)", "tf.math.floormod(i, 3)", "tf.math.pow(m, 2)",
    "tf.reduce_sum(m)", "tf.reduce_sum(m, axis=0)", "tf.reduce_sum(i, axis=1, keepdims=True)",
    "tf.math.reduce_max(m, axis=-1)", "tf.reduce_min(i)", "tf.reduce_prod(m, 1)",
    "tf.reduce_mean(m)", "tf.reduce_mean(i, axis=0)", "tf.reduce_all(b)", "tf.reduce_any(b)",
    "tf.argmax(x)", "tf.math.argmin(i, axis=1)", "tf.math.cumsum(i, axis=1)",
    "tf.math.cumprod(x, exclusive=True)", "tf.matmul(m, m, transpose_b=True)",
    "tf.linalg.matmul(m, m, transpose_a=True)", "tf.matmul(tf.ones([2, 2, 3]), tf.ones([2, 3, 1]))",
    "tf.reshape(i, [3, 2])", "tf.reshape(i, [-1])", "tf.transpose(i)", "tf.transpose(c, [2, 0, 1])",
    "tf.expand_dims(x, 0)", "tf.squeeze(tf.ones([1, 2, 1]))", "tf.concat([i, i], axis=0)",
    "tf.stack([x, x], axis=1)", "tf.tile(m, [1, 2])", "tf.broadcast_to(x, [2, 3])",
    "tf.pad(m, [[1, 0], [0, 1]])", "tf.reverse(i, [1])", "tf.slice(i, [0, 1], [2, 2])",
    "tf.gather(x, [2, 0])", "tf.gather(i, [1], axis=1)", "tf.gather_nd(m, [[1, 0], [0, 1]])",
    "tf.where(b, x, -x)", "tf.where(x > 0, x, 0.)", "tf.one_hot([0, 2], 3)",
    "tf.shape(c)", "tf.size(c)", "tf.rank(c)", "tf.cast(x, tf.int32)", "tf.cast(i, tf.float64)",
    "tf.zeros([2, 3])", "tf.ones([2], tf.int64)", "tf.fill([2, 2], 7)", "tf.zeros_like(i)",
    "tf.ones_like(x)", "tf.eye(2)", "tf.range(5)", "tf.range(1, 2, 0.25)", "tf.linspace(0., 1., 5)",
    "tf.add_n([x, x, x])", "tf.nn.softmax(m)", "tf.nn.log_softmax(x)",
    "tf.nn.bias_add(m, tf.constant([1., -1.]))",
    "tf.nn.sparse_softmax_cross_entropy_with_logits(labels=tf.constant([0, 1]), logits=m)",
    "tf.constant([1, 2], dtype=tf.float32)", "tf.constant(7, shape=[2, 2])",
    "tf.constant([1, 2, 3, 4], shape=[2, 2])", "tf.constant(2**40)",
    "tf.math.reduce_sum(tf.constant([[1, 2], [3, 4]], dtype=tf.int64), axis=0)",
    # Linear algebra, segments, sorting (values only where the result is unique).
    "tf.linalg.inv(m)", "tf.linalg.det(m)", "tf.linalg.cholesky(tf.constant([[4., 2.], [2., 3.]]))",
    "tf.linalg.solve(m, tf.constant([[1.], [2.]]))",
    "tf.linalg.triangular_solve(tf.constant([[2., 0.], [1., 4.]]), tf.constant([[2.], [9.]]))",
    "tf.linalg.band_part(tf.ones([3, 3]), 0, 1)",
    "tf.linalg.eigvalsh(tf.constant([[2., 1.], [1., 2.]]))",
    "tf.linalg.svd(m, compute_uv=False)",
    "tf.abs(tf.linalg.qr(m).r)", "tf.abs(tf.linalg.qr(m)[0] @ tf.linalg.qr(m)[1])",
    "tf.math.segment_sum(i, tf.constant([0, 0]))", "tf.math.segment_mean(m, tf.constant([0, 1]))",
    "tf.math.segment_max(x, tf.constant([0, 0, 1]))",
    "tf.math.unsorted_segment_sum(x, tf.constant([1, 0, 1]), 3)",
    "tf.math.unsorted_segment_max(i, tf.constant([1, 1]), 2)",
    "tf.math.top_k(x, 2).values", "tf.math.top_k(x, 2).indices", "tf.unique(tf.constant([3, 1, 3, 2])).y",
    "tf.unique(tf.constant([3, 1, 3, 2])).idx", "tf.roll(x, 1, 0)", "tf.roll(i, [1, -1], [0, 1])",
    "tf.searchsorted(tf.constant([1., 2., 3.]), tf.constant([2.5, 2.]))",
    "tf.searchsorted(tf.constant([1., 2., 3.]), tf.constant([2.5, 2.]), side='right')",
]

# These must raise the named tf.errors class (or Python exception).
ERROR_CASES = [
    "x + tf.constant([1.0, 2.0])",
    "tf.matmul(m, tf.ones([3, 3]))",
    "tf.reshape(x, [2, 2])",
    "x[3]",
    "m[:, 5]",
    "tf.constant(2.5, dtype=tf.int32)",
    "tf.constant([1, 2]) + tf.constant([1.0, 2.0])",
    "tf.concat([x, m], 0)",
]
