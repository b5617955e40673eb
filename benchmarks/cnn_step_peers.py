#!/usr/bin/env python3
"""PyTorch twin of cnn_step_bench: the seed CNN's training step at batch 64, ms per step.

  /usr/bin/python3 benchmarks/cnn_step_peers.py [--steps 200] [--json OUT]

The step is cnn_step_model.h's: Conv2d(1, 32, 3) + bias + ReLU, MaxPool2d(2), Flatten,
Dropout(0.1), Linear(5408, 64) + ReLU, BatchNorm1d(64, eps=1e-3, momentum=0.01 as Keras' 0.99),
Linear(64, 10); cross-entropy from logits (batch mean) + 0.02 * sum(kernel ** 2); backward; SGD
(lr 0.01, no momentum), on one fixed batch of uniform images. PyTorch runs at its best: NCHW
and channels_last, 1 and 2 threads (torch.set_num_threads), warmed up; it reports every
configuration and the fastest. Blocks of steps alternate between configurations and the
median block counts, as in the tfcc benchmark.
"""
import argparse
import json
import statistics
import time

BATCH = 64
BLOCKS = 5


def build(torch, fmt):
    nn = torch.nn
    model = nn.Sequential(nn.Conv2d(1, 32, 3), nn.ReLU(), nn.MaxPool2d(2), nn.Flatten(),
                          nn.Dropout(0.1), nn.Linear(32 * 13 * 13, 64), nn.ReLU(),
                          nn.BatchNorm1d(64, eps=1e-3, momentum=0.01), nn.Linear(64, 10))
    model = model.to(memory_format=fmt)
    model.train()
    return model


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--steps", type=int, default=200)
    p.add_argument("--json")
    a = p.parse_args()
    import torch
    import torch.nn.functional as F
    torch.manual_seed(42)
    x = torch.rand(BATCH, 1, 28, 28)
    y = torch.arange(BATCH) % 10
    configs = {}
    for fmt_name, fmt in (("NCHW", torch.contiguous_format),
                          ("channels_last", torch.channels_last)):
        for threads in (1, 2):
            model = build(torch, fmt)
            opt = torch.optim.SGD(model.parameters(), lr=0.01)
            xb = x.contiguous(memory_format=fmt)
            conv = model[0].weight

            def step(model=model, opt=opt, xb=xb, conv=conv):
                logits = model(xb)
                loss = F.cross_entropy(logits, y) + 0.02 * (conv * conv).sum()
                opt.zero_grad(set_to_none=True)
                loss.backward()
                opt.step()
                return loss

            configs[(fmt_name, threads)] = (step, threads)
    per_block = max(1, a.steps // BLOCKS)
    for step, threads in configs.values():  # warm up every configuration
        torch.set_num_threads(threads)
        for _ in range(5):
            step()
    blocks = {k: [] for k in configs}
    for _ in range(BLOCKS):
        for k, (step, threads) in configs.items():
            torch.set_num_threads(threads)
            t0 = time.perf_counter()
            for _ in range(per_block):
                step()
            blocks[k].append(1e3 * (time.perf_counter() - t0) / per_block)
    ms = {f"{f} {t} thread{'s' if t > 1 else ''}": statistics.median(v)
          for (f, t), v in blocks.items()}
    best = min(ms, key=ms.get)
    for k, v in ms.items():
        print(f"pytorch {torch.__version__} seed CNN step, batch 64, {k}: {v:.2f} ms")
    print(f"pytorch best: {best} {ms[best]:.2f} ms")
    if a.json:
        with open(a.json, "w") as f:
            json.dump({"framework": "pytorch", "version": torch.__version__, "ms": ms,
                       "best": best, "best_ms": ms[best]}, f)


if __name__ == "__main__":
    main()
