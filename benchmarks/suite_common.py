"""What the benchmark suite's peers share (suite_peers_tf.py, suite_peers_torch.py): the command
line, the calibrated timing and the JSON records, the same as suite_bench.cc's.

Records: {"framework", "workload", "kind" (train | infer | load | first_call), "batch", "value",
"unit", "config"}; one JSON list per run, read by suite_report.py.
"""
import argparse
import json
import os
import time

# Batch size of each training workload (suite_models.h).
TRAIN_BATCH = {"resnet": 64, "gru": 64, "lstm": 64, "transformer": 32, "mlp": 128}


def parse_args(doc):
    p = argparse.ArgumentParser(description=doc.splitlines()[0])
    g = p.add_mutually_exclusive_group(required=True)
    g.add_argument("--train", choices=sorted(TRAIN_BATCH))
    g.add_argument("--infer", choices=["cnn", "resnet"])
    g.add_argument("--saved-model", help="a SavedModel directory written by TensorFlow")
    p.add_argument("--input", help="with --saved-model: an .npy whose shape/dtype inputs copy")
    p.add_argument("--batches", default="1,64")
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--seconds", type=float, default=5.0)
    p.add_argument("--json")
    a = p.parse_args()
    a.batches = [int(b) for b in a.batches.split(",")]
    return a


def steps_per_s(run, seconds):
    """run(3) to warm up, then run(n) with n grown until one call lasts `seconds`: steps/s."""
    run(3)
    n = 3
    while True:
        t0 = time.perf_counter()
        run(n)
        t = time.perf_counter() - t0
        if t >= seconds or n >= 1000000:
            return n / t
        n = int(min(max(1.1 * seconds / max(t, 1e-6) * n, n + 1), 1000000))


class Records:
    def __init__(self, framework, version):
        self.framework, self.version, self.items = framework, version, []

    def add(self, workload, kind, batch, value, unit, config="", framework=None, version=None):
        fw = framework or self.framework
        print(f"{fw} {workload} {kind} batch {batch} ({config}): {value:.4g} {unit}", flush=True)
        self.items.append({"framework": fw, "version": version or self.version,
                           "workload": workload, "kind": kind, "batch": batch, "value": value,
                           "unit": unit, "config": config})

    def write(self, path):
        if path:
            with open(path, "w") as f:
                json.dump(self.items, f)


def saved_model_name(path):
    """tf_saved_models/<name>/export -> <name>."""
    return os.path.basename(os.path.dirname(os.path.abspath(path)))
