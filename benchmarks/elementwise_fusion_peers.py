#!/usr/bin/env python3
"""PyTorch twin of benchmarks/elementwise_fusion_bench.cc: the same chain of 10 element-wise ops
over 16M float32 values, eager and TorchScript-scripted (with the CPU fuser switched on where this
PyTorch has one), median of the repeats.

  /usr/bin/python3 benchmarks/elementwise_fusion_peers.py [--reps 15] [--n 16777216] [--threads 2]

The chain: y = |-(min(((relu(x*0.5 + 0.25) * 1.5) - x)^2, 6) + x)|.
"""
import argparse
import statistics
import time


def chain(x):
    y = x * 0.5
    y = y + 0.25
    y = y.relu()
    y = y * 1.5
    y = y - x
    y = y * y
    y = y.clamp(max=6.0)
    y = y + x
    y = -y
    return y.abs()


def median_ms(fn, reps):
    fn()
    samples = []
    for _ in range(reps):
        t0 = time.perf_counter()
        fn()
        samples.append((time.perf_counter() - t0) * 1e3)
    return statistics.median(samples)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--reps", type=int, default=15)
    ap.add_argument("--n", type=int, default=1 << 24)
    ap.add_argument("--threads", type=int, default=2, help="intra-op threads (tfcc uses 2)")
    args = ap.parse_args()
    import torch
    torch.set_num_threads(args.threads)
    torch.manual_seed(1)
    x = torch.rand(args.n) * 8 - 4
    with torch.no_grad():
        eager = median_ms(lambda: chain(x), args.reps)
        try:
            torch._C._jit_override_can_fuse_on_cpu(True)
            torch._C._jit_set_texpr_fuser_enabled(True)
        except AttributeError:
            pass
        label = "torch.jit.script (CPU fuser on)"
        scripted = torch.jit.script(chain)
        try:
            for _ in range(3):  # profiling runs before the fused graph is used
                scripted(x)
        except RuntimeError as e:  # Debian's build has no LLVM: the CPU fuser cannot compile
            label = "torch.jit.script (no CPU fuser)"
            print(f"note: CPU fuser unavailable ({e}); scripting without it")
            torch._C._jit_override_can_fuse_on_cpu(False)
            torch._C._jit_set_texpr_fuser_enabled(False)
            scripted = torch.jit.script(chain)
            for _ in range(3):
                scripted(x)
        jit = median_ms(lambda: scripted(x), args.reps)
    print(f"PyTorch {torch.__version__}, {torch.get_num_threads()} threads, {args.n} float32, "
          f"median of {args.reps}")
    print(f"{'variant':34s} {'ms':>10s}")
    print(f"{'torch eager':34s} {eager:10.2f}")
    print(f"{label:34s} {jit:10.2f}")


if __name__ == "__main__":
    main()
