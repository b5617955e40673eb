"""TensorFlow's side of tf_checkpoint_interop.sh.

  python tf_checkpoint_interop.py check DIR   reads the tfcc checkpoint in DIR/tfcc with
                                             tf.train.load_checkpoint / list_variables and with an
                                             object-based tf.train.Checkpoint.restore, comparing
                                             values with DIR/tfcc_expected.npz (written by tfcc)
  python tf_checkpoint_interop.py write DIR   writes DIR/tf/ckpt-1 with tf.train.Checkpoint and the
                                             expected values as .npz (stored and compressed)
"""
import os
import sys

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402


def check(d):
    expected = np.load(os.path.join(d, "tfcc_expected.npz"))
    listed = dict(tf.train.list_variables(os.path.join(d, "tfcc")))
    reader = tf.train.load_checkpoint(os.path.join(d, "tfcc"))
    print("TensorFlow lists", len(listed), "keys in the tfcc checkpoint:", sorted(listed))
    assert "_CHECKPOINTABLE_OBJECT_GRAPH" in listed, listed
    state = tf.train.get_checkpoint_state(os.path.join(d, "tfcc"))
    kept = [os.path.basename(p) for p in state.all_model_checkpoint_paths]
    assert kept == ["ckpt-2", "ckpt-3"], state
    assert len(state.all_model_checkpoint_timestamps) == 2, state
    assert os.path.basename(tf.train.latest_checkpoint(os.path.join(d, "tfcc"))) == "ckpt-3"
    assert not os.path.exists(os.path.join(d, "tfcc", "ckpt-1.index"))
    bad = 0
    for key in expected.files:
        want = expected[key]
        got = np.asarray(reader.get_tensor(key))
        if got.dtype.name == "bfloat16":
            got = got.astype(np.float32)
        if list(listed[key]) != list(want.shape) or got.dtype != want.dtype or not np.array_equal(got, want):
            print("MISMATCH", key, got, got.dtype, "expected", want, want.dtype)
            bad += 1

    # Object-based restore: the object graph tfcc wrote must match TensorFlow objects.
    dense = tf.Module()
    dense.kernel = tf.Variable(tf.zeros([2, 3]))
    dense.bias = tf.Variable(tf.zeros([3], tf.float64))
    model = tf.Module()
    model.dense = dense
    model.counts = tf.Variable(tf.zeros([3], tf.int32))
    model.pixels = tf.Variable(tf.zeros([2, 2], tf.uint8))
    model.mask = tf.Variable(tf.zeros([3], tf.bool))
    model.half = tf.Variable(tf.zeros([2], tf.bfloat16))
    step = tf.Variable(0, dtype=tf.int64)
    ckpt = tf.train.Checkpoint(model=model, step=step)
    ckpt.restore(tf.train.latest_checkpoint(os.path.join(d, "tfcc"))).assert_consumed()
    pairs = {
        "model/dense/kernel/.ATTRIBUTES/VARIABLE_VALUE": dense.kernel,
        "model/dense/bias/.ATTRIBUTES/VARIABLE_VALUE": dense.bias,
        "model/counts/.ATTRIBUTES/VARIABLE_VALUE": model.counts,
        "model/pixels/.ATTRIBUTES/VARIABLE_VALUE": model.pixels,
        "model/mask/.ATTRIBUTES/VARIABLE_VALUE": model.mask,
        "model/half/.ATTRIBUTES/VARIABLE_VALUE": model.half,
        "step/.ATTRIBUTES/VARIABLE_VALUE": step,
        "save_counter/.ATTRIBUTES/VARIABLE_VALUE": ckpt.save_counter,
    }
    for key, var in pairs.items():
        got = var.numpy()
        if got.dtype.name == "bfloat16":
            got = got.astype(np.float32)
        if not np.array_equal(got, expected[key]):
            print("MISMATCH after restore", key, got, expected[key])
            bad += 1
    print("TensorFlow: tfcc checkpoint", "MISMATCHES" if bad else "matches", "(name-based and object-based)")
    return 1 if bad else 0


def write(d):
    model = tf.Module()
    model.w = tf.Variable([[1.5, -2.0, 3.25], [0.0, 1e-30, -7.0]])
    model.b = tf.Variable([0.1, 0.2, -0.3], dtype=tf.float64)
    model.i32 = tf.Variable([-1, 0, 2147483647], dtype=tf.int32)
    model.u8 = tf.Variable([[0, 255], [9, 10]], dtype=tf.uint8)
    model.flag = tf.Variable([True, False], dtype=tf.bool)
    model.bf = tf.Variable([0.5, -4.0], dtype=tf.bfloat16)
    extras = tf.Module()
    extras.f16 = tf.Variable([1.0, 2.0], dtype=tf.float16)
    extras.words = tf.Variable(["hello", "", "tf"])
    step = tf.Variable(987654321012, dtype=tf.int64)
    ckpt = tf.train.Checkpoint(model=model, step=step, extras=extras)
    path = ckpt.save(os.path.join(d, "tf", "ckpt"))
    print("TensorFlow wrote", path)
    reader = tf.train.load_checkpoint(path)
    expected = {}
    for key, _ in tf.train.list_variables(path):
        if key.startswith("extras/") or key == "_CHECKPOINTABLE_OBJECT_GRAPH":
            continue
        value = np.asarray(reader.get_tensor(key))
        if value.dtype.name == "bfloat16":
            value = value.astype(np.float32)
        expected[key] = value
    np.savez(os.path.join(d, "tf_expected.npz"), **expected)
    np.savez_compressed(os.path.join(d, "tf_expected_compressed.npz"), **expected)
    return 0


if __name__ == "__main__":
    sys.exit({"check": check, "write": write}[sys.argv[1]](sys.argv[2]))
