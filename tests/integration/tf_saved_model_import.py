"""Writes the SavedModels that tfcc must load: TensorFlow 2.21 / Keras 3 builds each model, saves it
both with `model.export()` and `tf.saved_model.save()`, and writes an input (x.npy) and TF's output
(y.npy) beside it. `tf1` is a TensorFlow 1 graph (tf.compat.v1: placeholders, Session, Saver)
saved by SavedModelBuilder twice: with reference variables (VariableV2) under a Saver whose
checkpoint keys differ from the variables' names, and with resource variables under the default
Saver.

    python tf_saved_model_import.py make OUT_DIR [MODEL ...]
    python tf_saved_model_import.py compare EXPECTED.npy ACTUAL.npy

`make` skips a model whose OUT_DIR/<model>/done holds this script's digest (ResNet50 saves are
slow); `compare` exits 1 unless ACTUAL is within 1e-4 relative of EXPECTED.
"""
import hashlib
import os
import sys

import numpy as np

MODELS = ["cnn", "lstm", "mobilenetv2", "resnet50", "transformer", "tf1"]


def make_tf1(tf, d):
    """A conv + dense classifier written with TensorFlow 1's API: no object graph in the SavedModel,
    variables restored by the Saver's RestoreV2 / Assign subgraph."""
    tf1 = tf.compat.v1
    rng = np.random.default_rng(3)
    x_value = rng.standard_normal((4, 8, 8, 1)).astype(np.float32)
    ys = None
    for variant, resource in (("ref", False), ("resource", True)):
        g = tf.Graph()
        with g.as_default():
            x = tf1.placeholder(tf.float32, [None, 8, 8, 1], name="x")

            def var(name, shape):
                init = rng.standard_normal(shape).astype(np.float32) * 0.3
                return tf1.get_variable(name, initializer=init, use_resource=resource)

            k = var("conv/kernel", (3, 3, 1, 4))
            b = var("conv/bias", (4,))
            w = var("dense/kernel", (64, 3))
            c = var("dense/bias", (3,))
            h = tf.nn.relu(tf.nn.bias_add(tf.nn.conv2d(x, k, 1, "SAME"), b))
            h = tf.nn.max_pool2d(h, 2, 2, "VALID")
            y = tf.nn.softmax(tf.matmul(tf.reshape(h, [-1, 64]), w) + c, name="y")
            # Reference variables: keys unlike the names, so only the RestoreV2 mapping finds them.
            saver = None if resource else tf1.train.Saver({f"ckpt/{v.op.name}": v for v in (k, b, w, c)})
            with tf1.Session(graph=g) as sess:
                sess.run(tf1.global_variables_initializer())
                # Same values in both variants: the second reuses the first's initial values.
                if ys is not None:
                    for v, value in zip((k, b, w, c), values):
                        v.load(value, sess)
                values = sess.run([k, b, w, c])
                out = sess.run(y, {x: x_value})
                builder = tf1.saved_model.Builder(os.path.join(d, variant))
                sig = tf1.saved_model.predict_signature_def({"x": x}, {"y": y})
                builder.add_meta_graph_and_variables(
                    sess, ["serve"], signature_def_map={"serving_default": sig}, saver=saver)
                builder.save()
        if ys is None:
            ys = out
        assert np.allclose(ys, out, rtol=1e-6), "tf1: the two variants disagree"
    return x_value, ys


def build(name, keras):
    layers = keras.layers
    if name == "cnn":
        model = keras.Sequential([
            keras.Input((28, 28, 1)),
            layers.Conv2D(32, 3, activation="relu"),
            layers.MaxPooling2D(),
            layers.Flatten(),
            layers.Dropout(0.1),
            layers.Dense(64, activation="relu"),
            layers.BatchNormalization(),
            layers.Dense(10),
        ])
        return model, np.random.rand(4, 28, 28, 1).astype(np.float32)
    if name == "lstm":
        model = keras.Sequential([
            keras.Input((20,), dtype="int32"),
            layers.Embedding(100, 16),
            layers.LSTM(32),
            layers.Dense(3),
        ])
        return model, np.random.randint(0, 100, size=(4, 20)).astype(np.int32)
    if name == "mobilenetv2":
        model = keras.applications.MobileNetV2(weights=None, input_shape=(96, 96, 3))
        return model, np.random.rand(2, 96, 96, 3).astype(np.float32)
    if name == "resnet50":
        model = keras.applications.ResNet50(weights=None, input_shape=(64, 64, 3))
        return model, np.random.rand(2, 64, 64, 3).astype(np.float32)
    if name == "transformer":
        inp = keras.Input((16, 64))
        att = layers.MultiHeadAttention(num_heads=4, key_dim=16)(inp, inp)
        x = layers.LayerNormalization(epsilon=1e-6)(inp + att)
        ff = layers.Dense(64)(layers.Dense(128, activation="relu")(x))
        x = layers.LayerNormalization(epsilon=1e-6)(x + ff)
        x = layers.GlobalAveragePooling1D()(x)
        model = keras.Model(inp, layers.Dense(10)(x))
        return model, np.random.rand(2, 16, 64).astype(np.float32)
    raise SystemExit(f"unknown model {name}")


def randomize_batch_norm(model):
    # Fresh BatchNormalization statistics are 0 / 1: give them values so the test sees them used.
    for layer in model.layers:
        if layer.__class__.__name__ == "BatchNormalization":
            for v in (layer.moving_mean, layer.moving_variance, layer.gamma, layer.beta):
                v.assign(np.random.uniform(0.5, 1.5, v.shape).astype(np.float32))


def make(out, names):
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    import tensorflow as tf
    import keras

    tf.config.threading.set_intra_op_parallelism_threads(2)
    tf.config.threading.set_inter_op_parallelism_threads(2)
    digest = hashlib.sha256(open(__file__, "rb").read()).hexdigest()
    for name in names:
        d = os.path.join(out, name)
        done = os.path.join(d, "done")
        if os.path.exists(done) and open(done).read() == digest:
            print(f"{name}: up to date")
            continue
        if name == "tf1":
            import shutil

            shutil.rmtree(d, ignore_errors=True)
            os.makedirs(d)
            x, ys = make_tf1(tf, d)
            np.save(os.path.join(d, "x.npy"), x)
            np.save(os.path.join(d, "y.npy"), ys)
            with open(done, "w") as f:
                f.write(digest)
            print(f"{name}: written")
            continue
        np.random.seed(1)
        keras.utils.set_random_seed(1)
        model, x = build(name, keras)
        randomize_batch_norm(model)
        os.makedirs(d, exist_ok=True)
        y = model(x, training=False)
        y = np.asarray(y)
        model.export(os.path.join(d, "export"), verbose=False)
        tf.saved_model.save(model, os.path.join(d, "tfsave"))
        # TF's own output through the saved signature (what tfcc must reproduce).
        sig = tf.saved_model.load(os.path.join(d, "export")).signatures["serving_default"]
        ys = list(sig(tf.constant(x)).values())[0].numpy()
        assert np.allclose(y, ys, rtol=1e-5, atol=1e-6), f"{name}: TF disagrees with itself"
        np.save(os.path.join(d, "x.npy"), x)
        np.save(os.path.join(d, "y.npy"), ys)
        with open(done, "w") as f:
            f.write(digest)
        print(f"{name}: written")


def compare(expected, actual):
    e, a = np.load(expected), np.load(actual)
    if e.shape != a.shape:
        print(f"shape {a.shape}, expected {e.shape}")
        return 1
    # Relative to the output's scale: per-element ratios blow up on outputs near zero.
    err = float(np.max(np.abs(e - a)) / max(float(np.max(np.abs(e))), 1e-30))
    print(f"max relative difference {err:.3g}")
    return 0 if err <= 1e-4 else 1


if __name__ == "__main__":
    if len(sys.argv) >= 3 and sys.argv[1] == "make":
        make(sys.argv[2], sys.argv[3:] or MODELS)
    elif len(sys.argv) == 4 and sys.argv[1] == "compare":
        sys.exit(compare(sys.argv[2], sys.argv[3]))
    else:
        sys.exit(__doc__)
