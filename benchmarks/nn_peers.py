#!/usr/bin/env python3
"""PyTorch twin of benchmarks/nn_bench.cc: the same computations on the same shapes.

  /usr/bin/python3 benchmarks/nn_peers.py [--reps 7] [--json OUT]

Per benchmark and thread count (1, 2): the median over --reps repetitions of the mean wall time
of one call, in ns, plus the calling thread's CPU time (less disturbed on a loaded machine).
  SparseXentFwdBwd   logits [64, 10] (requires grad), labels [64]:
                     F.cross_entropy(logits, labels).backward()
  SparseXentForward  F.cross_entropy(logits, labels, reduction='none') without autograd
  BatchNormFwdBwd    x [64, 64] (shape 0) or [64, 32, 26, 26] (shape 1, channels_last memory):
                     (F.batch_norm(x, rm, rv, gamma, beta, training=True, eps=1e-3) * dy)
                     .sum().backward(), gradients for x, gamma, beta
  BatchNormForward   the forward alone, without autograd
"""
import argparse
import json
import statistics
import time


def median_ns(fn, iters, reps, clock):
    fn()
    fn()
    samples = []
    for _ in range(reps):
        t0 = clock()
        for _ in range(iters):
            fn()
        samples.append((clock() - t0) / iters)
    return statistics.median(samples)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--reps", type=int, default=7)
    ap.add_argument("--json")
    args = ap.parse_args()
    try:
        import torch
        import torch.nn.functional as F
    except ImportError:
        print("torch: n/a")
        return
    torch.manual_seed(0)
    results = {"version": torch.__version__}

    def shapes(which):
        if which == 0:
            return torch.randn(64, 64)
        return torch.randn(64, 32, 26, 26).contiguous(memory_format=torch.channels_last)

    for threads in (1, 2):
        torch.set_num_threads(threads)
        logits = torch.randn(64, 10, requires_grad=True)
        labels = torch.randint(0, 10, (64,))

        def xent_step():
            logits.grad = None
            F.cross_entropy(logits, labels).backward()

        def xent_fwd():
            with torch.no_grad():
                return F.cross_entropy(logits, labels, reduction="none")

        cases = {"SparseXentFwdBwd": (xent_step, 2000), "SparseXentForward": (xent_fwd, 5000)}
        for which in (0, 1):
            x = shapes(which).requires_grad_(True)
            dy = torch.randn_like(x)
            c = x.shape[1]
            gamma = (torch.rand(c) + 0.5).requires_grad_(True)
            beta = torch.randn(c).requires_grad_(True)
            rm, rv = torch.zeros(c), torch.ones(c)

            def bn_step(x=x, dy=dy, gamma=gamma, beta=beta, rm=rm, rv=rv):
                x.grad = gamma.grad = beta.grad = None
                (F.batch_norm(x, rm, rv, gamma, beta, training=True, eps=1e-3) * dy).sum().backward()

            def bn_fwd(x=x, gamma=gamma, beta=beta, rm=rm, rv=rv):
                with torch.no_grad():
                    return F.batch_norm(x, rm, rv, gamma, beta, training=True, eps=1e-3)

            iters = 500 if which == 0 else 10
            cases[f"BatchNormFwdBwd/shape:{which}"] = (bn_step, iters)
            cases[f"BatchNormForward/shape:{which}"] = (bn_fwd, iters * 4)
        for name, (fn, iters) in cases.items():
            wall = median_ns(fn, iters, args.reps, time.perf_counter_ns)
            cpu = median_ns(fn, iters, args.reps, time.thread_time_ns)
            results[f"{name}/threads:{threads}"] = {"real_ns": wall, "cpu_ns": cpu}
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=1)
    print(json.dumps(results, indent=1))


if __name__ == "__main__":
    main()
