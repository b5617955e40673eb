"""The seed documents' programs that the Python front end runs today (../shared/seeds/), with only
`import tensorflow as tf` replaced by `import tfcc as tf`. The others need tf.keras, tf.data and
AutoGraph (docs/python.md, "Not yet")."""

import contextlib
import io
import pdb

# 001 (eager vs graph), the eager program; TF2 has no tf.enable_eager_execution() (eager is the
# default), so that line is the one dropped.
EAGER_001 = """
import tfcc as tf
x = tf.constant(2)
y = tf.constant(3)
z = x + y
print(z)
"""

# 000 (Effective TF2), "Débogage": a tf.function run eagerly to reach pdb.
DEBUG_000 = """
import tfcc as tf

@tf.function
def f(x):
  if x > 0:
    import pdb
    pdb.set_trace()
    x = x + 1
  return x

tf.config.run_functions_eagerly(True)
result = f(tf.constant(1))
"""


def test_eager_program_prints_like_the_seed():
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(EAGER_001, {})  # noqa: S102
    assert out.getvalue() == "tf.Tensor(5, shape=(), dtype=int32)\n"


def test_debugging_program_reaches_pdb(monkeypatch):
    stops = []
    monkeypatch.setattr(pdb, "set_trace", lambda: stops.append(True))
    env = {}
    try:
        exec(DEBUG_000, env)  # noqa: S102
    finally:
        env["tf"].config.run_functions_eagerly(False)
    assert stops == [True]
    assert str(env["result"]) == "tf.Tensor(2, shape=(), dtype=int32)"
