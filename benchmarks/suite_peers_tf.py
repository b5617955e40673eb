#!/usr/bin/env python3
"""TensorFlow 2.21 / Keras 3 side of the benchmark suite (suite_run.sh): the models of
suite_models.h built with Keras layers, trained with model.fit (XLA as Keras chooses: off on a
CPU-only machine), exported with model.export and run through tf.saved_model.load's
serving_default signature.

  python suite_peers_tf.py --train resnet|gru|lstm|transformer|mlp [--threads 2] [--seconds 5]
  python suite_peers_tf.py --infer cnn|resnet [--batches 1,64]
  python suite_peers_tf.py --saved-model DIR --input X.npy [--batches 1,64]
  (each with --json OUT)
"""
import os
import sys
import tempfile
import time

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402
import keras  # noqa: E402
from keras import layers  # noqa: E402

from suite_common import TRAIN_BATCH, Records, parse_args, saved_model_name, steps_per_s  # noqa

CNN_ARGS = dict(kernel_regularizer=keras.regularizers.l2(0.02))


def conv_bn(x, filters, kernel, strides):
    x = layers.Conv2D(filters, kernel, strides=strides, padding="same", use_bias=False)(x)
    return layers.BatchNormalization()(x)


def resnet():
    inputs = keras.Input((28, 28, 1))
    x = layers.ReLU()(conv_bn(inputs, 32, 3, 1))
    for filters in (32, 64, 128):
        for block in range(2):
            strides = 2 if block == 0 and filters != 32 else 1
            shortcut = conv_bn(x, filters, 1, 2) if strides == 2 else x
            y = layers.ReLU()(conv_bn(x, filters, 3, strides))
            y = conv_bn(y, filters, 3, 1)
            x = layers.ReLU()(layers.Add()([shortcut, y]))
    x = layers.GlobalAveragePooling2D()(x)
    return keras.Model(inputs, layers.Dense(10)(x))


def seed_cnn():
    return keras.Sequential([
        keras.Input((28, 28, 1)),
        layers.Conv2D(32, 3, activation="relu", **CNN_ARGS), layers.MaxPooling2D(),
        layers.Flatten(), layers.Dropout(0.1), layers.Dense(64, activation="relu"),
        layers.BatchNormalization(), layers.Dense(10)])


def transformer():
    ids = keras.Input((128,), dtype="int32")
    x = layers.Embedding(1000, 128)(ids)
    for _ in range(4):
        att = layers.MultiHeadAttention(num_heads=4, key_dim=32)(x, x)
        x = layers.LayerNormalization()(layers.Add()([x, att]))
        ff = layers.Dense(128)(layers.Dense(512, activation="relu")(x))
        x = layers.LayerNormalization()(layers.Add()([x, ff]))
    x = layers.GlobalAveragePooling1D()(x)
    return keras.Model(ids, layers.Dense(2)(x))


def train_model(name):
    """The model and one epoch (16 batches) of random data."""
    rng = np.random.default_rng(42)
    n = 16 * TRAIN_BATCH[name]
    if name == "resnet":
        return resnet(), rng.random((n, 28, 28, 1), np.float32), rng.integers(0, 10, n)
    if name in ("gru", "lstm"):
        rnn = layers.GRU(64) if name == "gru" else layers.LSTM(64)
        model = keras.Sequential([keras.Input((30,), dtype="int32"), layers.Embedding(50, 64),
                                  rnn, layers.Dense(2)])
        return model, rng.integers(0, 50, (n, 30)).astype(np.int32), rng.integers(0, 2, n)
    if name == "transformer":
        return transformer(), rng.integers(0, 1000, (n, 128)).astype(np.int32), \
            rng.integers(0, 2, n)
    model = keras.Sequential([keras.Input((784,)), layers.Dense(512, activation="relu"),
                              layers.Dense(512, activation="relu"), layers.Dense(10)])
    return model, rng.random((n, 784), np.float32), rng.integers(0, 10, n)


def train(a, rec):
    model, x, y = train_model(a.train)
    batch = TRAIN_BATCH[a.train]
    model.compile(optimizer="adam",
                  loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True))
    data = tf.data.Dataset.from_tensor_slices((x, y.astype(np.int32))).batch(batch).repeat()
    rate = steps_per_s(lambda n: model.fit(data, epochs=1, steps_per_epoch=n, verbose=0,
                                         shuffle=False),
                       a.seconds)
    rec.add(a.train, "train", batch, rate * batch, "samples/s", "Keras fit")


def serve(name, fn, example, a, rec):
    for b in a.batches:
        x = tf.constant(random_like(example, b))
        rate = steps_per_s(lambda n: [fn(x) for _ in range(n)], a.seconds)
        rec.add(name, "infer", b, rate * b, "samples/s", "SavedModel serving_default")


def random_like(example, batch):
    shape = (batch,) + example.shape[1:]
    if example.dtype == np.float32:
        return np.random.rand(*shape).astype(np.float32)
    return np.random.randint(0, 50, size=shape).astype(example.dtype)


def infer(a, rec):
    model = seed_cnn() if a.infer == "cnn" else resnet()
    example = np.zeros((2, 28, 28, 1), np.float32)
    model(example, training=False)
    with tempfile.TemporaryDirectory() as d:
        model.export(os.path.join(d, "m"), verbose=False)
        fn = tf.saved_model.load(os.path.join(d, "m")).signatures["serving_default"]
        serve(a.infer, fn, example, a, rec)


def saved_model(a, rec):
    name = saved_model_name(a.saved_model)
    example = np.load(a.input)
    t0 = time.perf_counter()
    fn = tf.saved_model.load(a.saved_model).signatures["serving_default"]
    rec.add(name, "load", 0, time.perf_counter() - t0, "s", "tf.saved_model.load")
    for b in a.batches:
        x = tf.constant(random_like(example, b))
        t0 = time.perf_counter()
        fn(x)
        rec.add(name, "first_call", b, time.perf_counter() - t0, "s", "")
    serve(name, fn, example, a, rec)


def main():
    a = parse_args(__doc__)
    tf.config.threading.set_intra_op_parallelism_threads(a.threads)
    tf.config.threading.set_inter_op_parallelism_threads(a.threads)
    keras.utils.set_random_seed(42)
    rec = Records("tensorflow", tf.__version__)
    if a.train:
        train(a, rec)
    elif a.infer:
        infer(a, rec)
    else:
        saved_model(a, rec)
    rec.write(a.json)


if __name__ == "__main__":
    main()
