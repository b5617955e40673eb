#!/usr/bin/env python3
"""PyTorch peer of conv_bench: the seed CNN's convolution block, forward + backward, batch 64.

  python3 benchmarks/conv_peers.py [--json OUT] [--reps 7] [--threads 1,2]

The block is conv_bench's: 28x28x1 input, 32 filters 3x3 (no padding), bias, ReLU, 2x2 max pool;
gradients of the filter and bias (not of the input) for a given upstream gradient of the pooled
output. Wall time is the measure; process CPU time (all threads) is reported too, because on a
shared, loaded machine it is disturbed less (at 1 thread it is the step's own work). PyTorch runs it in its two memory formats, NCHW (its default) and channels_last (NHWC,
tfcc's layout), and the JSON reports both and the best; the ratio uses the best. Reports the
median over --reps repetitions of the mean wall time of one step, in ms, per thread count, with
repetitions interleaved across thread counts and formats. Best settings are the caller's business
(benchmarks/run.sh sets GLIBC_TUNABLES so glibc keeps freed memory). If PyTorch cannot be
imported the script prints n/a and writes {"torch": null}.
"""
import argparse
import json
import statistics
import time


def bench_torch(reps, threads):
    import torch
    import torch.nn.functional as F

    torch.manual_seed(1)
    x0 = torch.rand(64, 1, 28, 28)
    w0 = (torch.rand(32, 1, 3, 3) * 2 - 1) * 0.3
    b = ((torch.rand(32) * 2 - 1) * 0.1).requires_grad_(True)
    g0 = torch.rand(64, 32, 13, 13) * 2 - 1

    def make(fmt):
        x = x0.contiguous(memory_format=fmt)
        w = w0.contiguous(memory_format=fmt).requires_grad_(True)
        g = g0.contiguous(memory_format=fmt)

        def step():
            y = F.max_pool2d(F.relu(F.conv2d(x, w, b)), 2)
            return torch.autograd.grad(y, (w, b), g)

        return step

    steps = {"nchw": make(torch.contiguous_format), "nhwc": make(torch.channels_last)}
    iters = {}
    for t in threads:
        torch.set_num_threads(t)
        for name, step in steps.items():
            for _ in range(5):
                step()
            t0, n = time.perf_counter(), 0
            while time.perf_counter() - t0 < 0.1:
                step()
                n += 1
            iters[(t, name)] = max(1, int(n * 0.5 / (time.perf_counter() - t0)))
    samples = {k: [] for k in iters}
    cpu = {k: [] for k in iters}
    for _ in range(reps):
        for t in threads:
            torch.set_num_threads(t)
            for name, step in steps.items():
                k = (t, name)
                t0, c0 = time.perf_counter(), time.process_time()
                for _ in range(iters[k]):
                    step()
                samples[k].append((time.perf_counter() - t0) * 1e3 / iters[k])
                cpu[k].append((time.process_time() - c0) * 1e3 / iters[k])
    out = {"version": torch.__version__, "ms": {}, "cpu_ms": {}, "formats": {}}
    for t in threads:
        per = {name: statistics.median(samples[(t, name)]) for name in steps}
        best = min(per, key=per.get)
        out["ms"][str(t)] = per[best]
        out["cpu_ms"][str(t)] = statistics.median(cpu[(t, best)])
        out["formats"][str(t)] = {"best": best, **per}
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--json")
    ap.add_argument("--reps", type=int, default=7)
    ap.add_argument("--threads", default="1,2")
    args = ap.parse_args()
    threads = [int(t) for t in args.threads.split(",")]
    try:
        result = bench_torch(args.reps, threads)
    except ImportError as e:
        print(f"conv_peers.py: PyTorch not importable ({e}): n/a")
        result = None
    if result:
        for t in threads:
            f = result["formats"][str(t)]
            print(f"PyTorch {result['version']} conv block, {t} thr: {result['ms'][str(t)]:.3f} ms "
                  f"(nchw {f['nchw']:.3f}, channels_last {f['nhwc']:.3f})")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"torch": result}, f, indent=1)


if __name__ == "__main__":
    main()
