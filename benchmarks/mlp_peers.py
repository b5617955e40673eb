#!/usr/bin/env python3
"""Python peers of mlp_step_bench: one eager training step of a 784-512-512-10 ReLU MLP, batch 128.

  python3 benchmarks/mlp_peers.py [--json OUT] [--reps 7] [--frameworks torch,tensorflow]
                                  [--threads 1,2] [--tag NAME]

The step is the same as tfcc's: forward, gradient of the mean softmax cross-entropy (PyTorch:
F.cross_entropy, its fused op; TensorFlow: tf.nn.sparse_softmax_cross_entropy_with_logits), SGD
update in place. Reports the median over --reps repetitions of the mean wall time of one step, in
ms, per thread count. Repetitions of the thread counts are interleaved (rep 1 at 1 thread, rep 1 at
2 threads, rep 2 at 1 thread, ...) so that load drifting on a shared machine falls on both.

Best settings are the caller's business (benchmarks/run.sh sets them): glibc told to keep freed
memory (GLIBC_TUNABLES=glibc.malloc.mmap_threshold=...:glibc.malloc.trim_threshold=...), and
OpenBLAS's core type (OPENBLAS_CORETYPE) as the environment has it, or unset. --tag names the
setting in the JSON. TensorFlow fixes its thread pools at start-up, so it is measured at one thread
count per process (the first of --threads). A framework that cannot be imported is n/a.
"""
import argparse
import json
import os
import statistics
import sys
import time

BATCH, IN, HIDDEN, CLASSES = 128, 784, 512, 10
LR = 0.01


def interleaved_medians(step, set_threads, threads, reps, min_time=0.5):
    """{threads: median ms per step}; per repetition, each thread count runs >= min_time s."""
    iters = {}
    for t in threads:  # warm-up and iteration count per thread count
        set_threads(t)
        for _ in range(3):
            step()
        t0, n = time.perf_counter(), 0
        while time.perf_counter() - t0 < 0.1:
            step()
            n += 1
        iters[t] = max(1, int(n * min_time / (time.perf_counter() - t0)))
    samples = {t: [] for t in threads}
    for _ in range(reps):
        for t in threads:
            set_threads(t)
            t0 = time.perf_counter()
            for _ in range(iters[t]):
                step()
            samples[t].append((time.perf_counter() - t0) * 1e3 / iters[t])
    return {t: statistics.median(s) for t, s in samples.items()}, samples


def bench_torch(reps, threads):
    import torch
    import torch.nn.functional as F

    torch.manual_seed(1)

    def glorot(fan_in, fan_out):
        limit = (6.0 / (fan_in + fan_out)) ** 0.5
        return (torch.rand(fan_in, fan_out) * 2 - 1) * limit

    params = [glorot(IN, HIDDEN), torch.zeros(HIDDEN), glorot(HIDDEN, HIDDEN), torch.zeros(HIDDEN),
              glorot(HIDDEN, CLASSES), torch.zeros(CLASSES)]
    for p in params:
        p.requires_grad_(True)
    x = torch.rand(BATCH, IN)
    labels = torch.arange(BATCH) % CLASSES
    w1, b1, w2, b2, w3, b3 = params

    def step():
        h1 = torch.relu(x @ w1 + b1)
        h2 = torch.relu(h1 @ w2 + b2)
        logits = h2 @ w3 + b3
        loss = F.cross_entropy(logits, labels)
        grads = torch.autograd.grad(loss, params)
        with torch.no_grad():
            for p, g in zip(params, grads):
                p.add_(g, alpha=-LR)  # torch.optim.SGD's update: in place, one pass
        return loss

    med, samples = interleaved_medians(step, torch.set_num_threads, threads, reps)
    return {"version": torch.__version__, "ms": med, "samples": samples}


def bench_tensorflow(reps, threads):
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
    import tensorflow as tf

    t = threads[0]
    tf.config.threading.set_intra_op_parallelism_threads(t)
    tf.config.threading.set_inter_op_parallelism_threads(1)
    tf.random.set_seed(1)
    init = tf.keras.initializers.GlorotUniform(seed=1)
    params = [tf.Variable(init([IN, HIDDEN])), tf.Variable(tf.zeros([HIDDEN])),
              tf.Variable(init([HIDDEN, HIDDEN])), tf.Variable(tf.zeros([HIDDEN])),
              tf.Variable(init([HIDDEN, CLASSES])), tf.Variable(tf.zeros([CLASSES]))]
    x = tf.random.uniform([BATCH, IN])
    labels = tf.range(BATCH) % CLASSES
    w1, b1, w2, b2, w3, b3 = params

    def step():
        with tf.GradientTape() as tape:
            h1 = tf.nn.relu(x @ w1 + b1)
            h2 = tf.nn.relu(h1 @ w2 + b2)
            logits = h2 @ w3 + b3
            loss = tf.reduce_mean(
                tf.nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=logits))
        grads = tape.gradient(loss, params)
        for p, g in zip(params, grads):
            p.assign_sub(g * LR)
        return loss

    med, samples = interleaved_medians(step, lambda _: None, [t], reps)
    return {"version": tf.__version__, "ms": med, "samples": samples}


BENCHES = {"torch": bench_torch, "tensorflow": bench_tensorflow}


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--json", help="write the results here as JSON")
    p.add_argument("--reps", type=int, default=7)
    p.add_argument("--frameworks", default="torch,tensorflow")
    p.add_argument("--threads", default="1,2")
    p.add_argument("--tag", default="", help="name of the setting, stored in the JSON")
    args = p.parse_args()
    threads = [int(t) for t in args.threads.split(",")]

    results = {"tag": args.tag, "OPENBLAS_CORETYPE": os.environ.get("OPENBLAS_CORETYPE"),
               "GLIBC_TUNABLES": os.environ.get("GLIBC_TUNABLES")}
    for name in args.frameworks.split(","):
        try:
            results[name] = BENCHES[name](args.reps, threads)
        except ImportError as e:
            print(f"mlp_peers: {name} not available ({e}); skipped", file=sys.stderr)
            results[name] = None
        r = results[name]
        cells = " ".join(f"{t} thr {r['ms'][t]:.3f} ms" for t in r["ms"]) if r else "n/a"
        print(f"{name} {r['version'] if r else ''} [{args.tag}]: {cells}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=1)


if __name__ == "__main__":
    main()
