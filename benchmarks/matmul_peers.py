#!/usr/bin/env python3
"""PyTorch peer of matmul_bench: float32 [n, n] x [n, n] at n = 256 ... 4096, 1 and 2 threads.

  python3 benchmarks/matmul_peers.py [--reps 7] [--json OUT]

Reports the median GFLOP/s over --reps timed repetitions (torch.mm, torch.set_num_threads).
Debian's PyTorch does its matmuls with the system BLAS (OpenBLAS from install-bench-deps.sh).
"""
import argparse
import json
import time

import torch


def once(a, b, n):
    reps = 1000 if n <= 256 else (150 if n <= 512 else (20 if n <= 1024 else (4 if n <= 2048 else 1)))
    t0 = time.perf_counter()
    for _ in range(reps):
        torch.mm(a, b)
    return 2.0 * n ** 3 * reps / (time.perf_counter() - t0) / 1e9


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--reps", type=int, default=7)
    p.add_argument("--json")
    args = p.parse_args()
    results = []
    for threads in (1, 2):
        torch.set_num_threads(threads)
        for n in (256, 512, 1024, 2048, 4096):
            a, b = torch.rand(n, n), torch.rand(n, n)
            once(a, b, n)
            g = sorted(once(a, b, n) for _ in range(args.reps))[args.reps // 2]
            print(f"pytorch matmul_{n} {threads} thr: {g:7.1f} GFLOP/s")
            results.append({"what": f"matmul_{n}", "threads": threads, "gflops": g})
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"framework": "pytorch", "version": torch.__version__,
                       "results": results}, f)


if __name__ == "__main__":
    main()
