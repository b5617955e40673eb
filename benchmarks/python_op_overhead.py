#!/usr/bin/env python3
"""Eager op overhead from Python: `a + b` on two 1-element float32 tensors, per call.

Measures every framework importable by this interpreter (tfcc, tensorflow, torch) or those named
with --frameworks, and prints one line each: the median over --repeats runs of --number calls.
Run it once per venv to put frameworks installed in different venvs side by side:

    PYTHONPATH=python python3 benchmarks/python_op_overhead.py          # tfcc (python/tfcc built)
    /work/tf-venv/bin/python benchmarks/python_op_overhead.py           # TensorFlow

Timing only: nothing is asserted (docs/python.md has the figures and the load they were taken at).
"""

import argparse
import importlib
import os
import statistics
import timeit

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")


def operands(name):
    if name == "torch":
        import torch
        torch.set_num_threads(1)
        return torch.tensor([1.0]), torch.tensor([2.0])
    tf = importlib.import_module(name)
    return tf.constant([1.0]), tf.constant([2.0])


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--frameworks", default="tfcc,tensorflow,torch")
    p.add_argument("--number", type=int, default=20000)
    p.add_argument("--repeats", type=int, default=7)
    args = p.parse_args()
    for name in args.frameworks.split(","):
        try:
            a, b = operands(name)
        except ImportError:
            continue
        for _ in range(1000):
            a + b  # warm up
        runs = timeit.repeat(lambda: a + b, number=args.number, repeat=args.repeats)
        per_call = [r / args.number * 1e6 for r in runs]
        print("%-10s 1-element add: median %.2f us/call (min %.2f, %d x %d calls)"
              % (name, statistics.median(per_call), min(per_call), args.repeats, args.number))


if __name__ == "__main__":
    main()
