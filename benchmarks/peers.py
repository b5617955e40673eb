#!/usr/bin/env python3
"""Python peers of core_bench: PyTorch and TensorFlow, the same two ops measured the same way.

  python3 benchmarks/peers.py [--json OUT] [--reps 7] [--frameworks torch,tensorflow]

For each framework found: eager `a + b` on one-element float32 tensors (ns per op) and on 16M
float32 elements (GB/s, counting 3 x 64 MB per add: two reads, one write, as core_bench does),
on 2 and on 1 intra-op threads. Medians over --reps repetitions. The one-element add is timed
both in wall time (add1_ns) and in the calling thread's CPU time (add1_cpu_ns), which a shared,
loaded machine disturbs less. A framework that cannot be
imported is reported as n/a and skipped; the script never fails because a peer is missing.
"""
import argparse
import json
import statistics
import sys
import time

N16M = 1 << 24
ADD_BYTES = 3 * N16M * 4


def median_ns(fn, iters, reps, clock=time.perf_counter_ns):
    """Median over `reps` repetitions of the mean time of one call, in ns of `clock`."""
    fn()  # warm-up: first-call costs, output block mapped once
    samples = []
    for _ in range(reps):
        t0 = clock()
        for _ in range(iters):
            fn()
        samples.append((clock() - t0) / iters)
    return statistics.median(samples)


def bench_torch(reps):
    import torch

    torch.set_grad_enabled(False)
    out = {"version": torch.__version__}
    torch.set_num_threads(2)
    a1, b1 = torch.ones(1), torch.ones(1)
    out["add1_ns"] = median_ns(lambda: a1 + b1, 100_000, reps)
    out["add1_cpu_ns"] = median_ns(lambda: a1 + b1, 100_000, reps, time.thread_time_ns)
    a, b = torch.rand(N16M), torch.rand(N16M)
    c = torch.empty(N16M)
    for threads in (2, 1):
        torch.set_num_threads(threads)
        t = median_ns(lambda: a + b, 10, reps)
        out[f"add16m_gbs_t{threads}"] = ADD_BYTES / t
        t = median_ns(lambda: torch.add(a, b, out=c), 10, reps)
        out[f"add16m_out_gbs_t{threads}"] = ADD_BYTES / t
    return out


def bench_tensorflow(reps):
    import os

    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
    import numpy as np
    import tensorflow as tf

    out = {"version": tf.__version__}
    # Thread pools are fixed at first use: TensorFlow gets 2 intra-op threads (the machine's
    # cores, as tfcc's OpenMP loops); a 1-thread figure would need a second process.
    tf.config.threading.set_intra_op_parallelism_threads(2)
    tf.config.threading.set_inter_op_parallelism_threads(1)
    a1, b1 = tf.constant([1.0]), tf.constant([1.0])
    out["add1_ns"] = median_ns(lambda: tf.add(a1, b1), 50_000, reps)
    out["add1_cpu_ns"] = median_ns(lambda: tf.add(a1, b1), 50_000, reps, time.thread_time_ns)
    rng = np.random.default_rng(0)
    a = tf.constant(rng.random(N16M, dtype=np.float32))
    b = tf.constant(rng.random(N16M, dtype=np.float32))
    t = median_ns(lambda: tf.add(a, b), 10, reps)
    out["add16m_gbs_t2"] = ADD_BYTES / t
    return out


BENCHES = {"torch": bench_torch, "tensorflow": bench_tensorflow}


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--json", help="write the results here as JSON")
    p.add_argument("--reps", type=int, default=7)
    p.add_argument("--frameworks", default="torch,tensorflow")
    args = p.parse_args()

    results = {}
    for name in args.frameworks.split(","):
        try:
            results[name] = BENCHES[name](args.reps)
        except ImportError as e:
            print(f"peers: {name} not available ({e}); skipped", file=sys.stderr)
            results[name] = None

    def cell(r, key, fmt):
        return fmt.format(r[key]) if r and key in r else "n/a"

    print(f"{'framework':<22} {'add 1-elem ns':>14} {'(CPU ns)':>9} {'add16M GB/s 2T':>15} "
          f"{'add16M GB/s 1T':>15} {'add_out 2T':>11} {'add_out 1T':>11}")
    for name, r in results.items():
        label = f"{name} {r['version']}" if r else name
        print(f"{label:<22} {cell(r, 'add1_ns', '{:.0f}'):>14} {cell(r, 'add1_cpu_ns', '{:.0f}'):>9} "
              f"{cell(r, 'add16m_gbs_t2', '{:.2f}'):>15} {cell(r, 'add16m_gbs_t1', '{:.2f}'):>15} "
              f"{cell(r, 'add16m_out_gbs_t2', '{:.2f}'):>11} "
              f"{cell(r, 'add16m_out_gbs_t1', '{:.2f}'):>11}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=1)


if __name__ == "__main__":
    main()
