#!/usr/bin/env python3
"""Peers of fit_cnn_bench: the seed CNN trained at batch 64 on Fashion-MNIST, samples per second.

  python3 benchmarks/fit_peers.py --framework torch|tensorflow [--threads 2] [--steps 300]
                                  [--json OUT]

PyTorch runs the same model and loop at its best here: the images decoded and scaled once into
one float tensor, a random permutation per epoch, Conv2d(1, 32, 3) + ReLU (+ L2 0.02 on its
kernel in the loss), MaxPool2d(2), Flatten, Dropout(0.1), Linear(5408, 64) + ReLU,
BatchNorm1d(64, eps=1e-3, momentum=0.01 as Keras' 0.99), Linear(64, 10), cross-entropy from
logits, Adam(1e-3, eps=1e-7), and the running accuracy Keras reports. It tries NCHW and
channels_last and reports the faster. TensorFlow runs the seed's own Keras program (map scale,
shuffle 10000, batch 64, Sequential, compile('adam', SparseCategoricalCrossentropy(from_logits),
['accuracy']), fit). Both warm up with 20 steps, then time --steps steps.
"""
import argparse
import gzip
import json
import os
import struct
import time

import numpy as np

DATA = os.environ.get("TFCC_DATASETS_DIR", "") or "/usr/share/datasets/fashion-mnist"
BATCH = 64


def idx(path):
    with gzip.open(path, "rb") as f:
        raw = f.read()
    ndim = raw[3]
    dims = struct.unpack(">" + "I" * ndim, raw[4:4 + 4 * ndim])
    return np.frombuffer(raw, dtype=np.uint8, offset=4 + 4 * ndim).reshape(dims)


def load():
    d = DATA
    if os.path.isdir(os.path.join(d, "fashion_mnist")):
        d = os.path.join(d, "fashion_mnist")
    return (idx(os.path.join(d, "train-images-idx3-ubyte.gz")),
            idx(os.path.join(d, "train-labels-idx1-ubyte.gz")))


def bench_torch(threads, steps):
    import torch
    import torch.nn as nn
    import torch.nn.functional as F
    torch.set_num_threads(threads)
    torch.manual_seed(42)
    images, labels = load()
    x_all = torch.from_numpy(images.astype(np.float32) / 255.0).reshape(-1, 1, 28, 28)
    y_all = torch.from_numpy(labels.astype(np.int64))
    best = None
    for fmt in (torch.contiguous_format, torch.channels_last):
        model = nn.Sequential(nn.Conv2d(1, 32, 3), nn.ReLU(), nn.MaxPool2d(2), nn.Flatten(),
                              nn.Dropout(0.1), nn.Linear(32 * 13 * 13, 64), nn.ReLU(),
                              nn.BatchNorm1d(64, eps=1e-3, momentum=0.01), nn.Linear(64, 10))
        model = model.to(memory_format=fmt)
        opt = torch.optim.Adam(model.parameters(), lr=1e-3, eps=1e-7)
        conv = model[0].weight
        x_fmt = x_all.contiguous(memory_format=fmt)
        state = {"perm": torch.randperm(len(x_fmt)), "pos": 0, "correct": 0.0, "seen": 0}

        def step():
            if state["pos"] + BATCH > len(x_fmt):
                state["perm"], state["pos"] = torch.randperm(len(x_fmt)), 0
            idx_b = state["perm"][state["pos"]:state["pos"] + BATCH]
            state["pos"] += BATCH
            xb, yb = x_fmt[idx_b], y_all[idx_b]
            logits = model(xb)
            loss = F.cross_entropy(logits, yb) + 0.02 * (conv * conv).sum()
            opt.zero_grad(set_to_none=True)
            loss.backward()
            opt.step()
            with torch.no_grad():
                state["correct"] += float((logits.argmax(1) == yb).sum())
                state["seen"] += BATCH

        model.train()
        for _ in range(20):
            step()
        t0 = time.perf_counter()
        for _ in range(steps):
            step()
        rate = steps * BATCH / (time.perf_counter() - t0)
        name = "channels_last" if fmt is torch.channels_last else "NCHW"
        if best is None or rate > best[0]:
            best = (rate, name)
    return {"framework": "pytorch", "version": torch.__version__, "threads": threads,
            "steps": steps, "samples_per_s": best[0], "config": best[1]}


def bench_tensorflow(threads, steps):
    import tensorflow as tf
    tf.config.threading.set_intra_op_parallelism_threads(threads)
    tf.config.threading.set_inter_op_parallelism_threads(threads)
    tf.random.set_seed(42)
    images, labels = load()

    def scale(image, label):
        image = tf.cast(tf.reshape(image, (28, 28, 1)), tf.float32) / 255.0
        return image, label

    data = (tf.data.Dataset.from_tensor_slices((images, labels.astype(np.int64)))
            .map(scale).shuffle(10000).batch(BATCH).repeat())
    model = tf.keras.Sequential([
        tf.keras.layers.Conv2D(32, 3, activation="relu",
                               kernel_regularizer=tf.keras.regularizers.l2(0.02),
                               input_shape=(28, 28, 1)),
        tf.keras.layers.MaxPooling2D(),
        tf.keras.layers.Flatten(),
        tf.keras.layers.Dropout(0.1),
        tf.keras.layers.Dense(64, activation="relu"),
        tf.keras.layers.BatchNormalization(),
        tf.keras.layers.Dense(10)])
    model.compile(optimizer="adam",
                  loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
                  metrics=["accuracy"])
    model.fit(data, epochs=1, steps_per_epoch=20, verbose=0)
    t0 = time.perf_counter()
    model.fit(data, epochs=1, steps_per_epoch=steps, verbose=0)
    rate = steps * BATCH / (time.perf_counter() - t0)
    return {"framework": "tensorflow", "version": tf.__version__, "threads": threads,
            "steps": steps, "samples_per_s": rate, "config": "seed program"}


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--framework", required=True, choices=["torch", "tensorflow"])
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--steps", type=int, default=300)
    p.add_argument("--json")
    a = p.parse_args()
    fn = bench_torch if a.framework == "torch" else bench_tensorflow
    r = fn(a.threads, a.steps)
    print(f"{r['framework']} {r['version']} fit, seed CNN, batch 64, {a.threads} threads "
          f"({r['config']}): {r['samples_per_s']:.0f} samples/s")
    if a.json:
        with open(a.json, "w") as f:
            json.dump(r, f)


if __name__ == "__main__":
    main()
