#!/usr/bin/env python3
"""Tables of the benchmark suite (suite_run.sh) from its JSON records: medians over the rounds,
tfcc against the fastest peer, the busy-core slowdowns, targets and pass/fail (issue 22), and the
TensorFlow SavedModels' load time and samples/s in tfcc and TensorFlow (issue 18).

  python3 benchmarks/suite_report.py OUT_DIR [--mode quick|full] [--reps N]

Targets: quiet, tfcc >= 1.5x the fastest peer on training and >= 1.0x on inference; busy (two
busy-looping processes beside it), tfcc's slowdown against its own quiet figure no worse than
TensorFlow's and at most 2x.
"""
import argparse
import collections
import glob
import json
import os
import platform
import statistics
import time

PEERS = ["tensorflow", "pytorch", "onnxruntime"]
NAMES = {"tfcc": "tfcc", "tensorflow": "TensorFlow", "pytorch": "PyTorch",
         "onnxruntime": "ONNX Runtime"}
TRAIN_TITLE = {"cnn": "seed CNN fit", "resnet": "ResNet 3x2 blocks", "gru": "Embedding + GRU",
               "lstm": "Embedding + LSTM", "transformer": "Transformer encoder 4x128",
               "mlp": "MLP 784-512-512-10"}


def load(out):
    """{(load, threads, kind, workload, batch, framework): [values]}, configs, versions."""
    vals, configs, versions = collections.defaultdict(list), {}, {}
    for path in glob.glob(os.path.join(out, "raw", "*.json")):
        parts = os.path.basename(path).split(".")
        try:
            data = json.load(open(path))
        except (OSError, ValueError):
            continue
        if parts[0] == "savedmodel":
            for r in data:
                vals[("savedmodel", 2, r["kind"], r["workload"], r["batch"], r["framework"])] \
                    .append(r["value"])
            continue
        load_, threads, kind, workload = parts[0], int(parts[1][1:]), parts[2], parts[3]
        if isinstance(data, dict):  # fit_cnn_bench / fit_peers.py
            data = [{"framework": data["framework"], "batch": 64, "kind": "train",
                     "workload": workload, "value": data["samples_per_s"],
                     "config": data.get("config", ""), "version": data.get("version", "")}]
        for r in data:
            key = (load_, threads, r["kind"], r["workload"], r["batch"], r["framework"])
            vals[key].append(r["value"])
            configs.setdefault(key, set()).add(r.get("config", ""))
            if r.get("version"):
                versions[r["framework"]] = r["version"]
    return {k: statistics.median(v) for k, v in vals.items()}, configs, versions


def fmt(x, digits=0):
    return "n/a" if x is None else f"{x:,.{digits}f}"


def times(x):
    return "n/a" if x is None else f"{x:.2f}x"


def rows(med, configs, kind, workloads, threads, batches, target):
    lines, verdicts = [], []
    for w in workloads:
        for b in batches(w):
            for t in threads:
                get = lambda fw, load="quiet": med.get((load, t, kind, w, b, fw))  # noqa: E731
                tfcc = get("tfcc")
                peers = {p: get(p) for p in PEERS if get(p) is not None}
                best = max(peers.values()) if peers else None
                ratio = tfcc / best if tfcc and best else None
                quiet_ok = None if ratio is None else ratio >= target
                slow = lambda fw: (get(fw) / get(fw, "busy")  # noqa: E731
                                   if get(fw) and get(fw, "busy") else None)
                s_tfcc, s_tf = slow("tfcc"), slow("tensorflow")
                busy_ok = None if s_tfcc is None else (
                    s_tfcc <= 2.0 and (s_tf is None or s_tfcc <= s_tf))
                pt = get("pytorch")
                pt_cfg = ",".join(sorted(configs.get(("quiet", t, kind, w, b, "pytorch"), [])))
                name = TRAIN_TITLE.get(w, w) if kind == "train" else f"{w} inference"
                verdicts += [v for v in (quiet_ok, busy_ok) if v is not None]
                pf = lambda v: "n/a" if v is None else ("PASS" if v else "FAIL")  # noqa: E731
                lines.append(
                    f"| {name} | {b} | {t} | {fmt(tfcc)} | {fmt(get('tensorflow'))} | "
                    f"{fmt(pt)}{f' ({pt_cfg})' if pt and pt_cfg else ''} | "
                    f"{fmt(get('onnxruntime')) if kind == 'infer' else '-'} | "
                    f"{times(ratio)} | >= {target}x | {pf(quiet_ok)} | "
                    f"{fmt(get('tfcc', 'busy'))} | {times(s_tfcc)} | {times(s_tf)} | "
                    f"{pf(busy_ok)} |")
    return lines, verdicts


def saved_model_table(med):
    models = sorted({k[3] for k in med if k[0] == "savedmodel"})
    if not models:
        return []
    out = ["| model | load tfcc [s] | load TF [s] | TF / tfcc | first call b64 tfcc [s] | "
           "first call b64 TF [s] | batch 1 tfcc | batch 1 TF | tfcc / TF | batch 64 tfcc | "
           "batch 64 TF | tfcc / TF |", "| --- " * 12 + "|"]
    for m in models:
        g = lambda kind, b, fw: med.get(("savedmodel", 2, kind, m, b, fw))  # noqa: E731
        ratio = lambda a, b: f"{a / b:.2f}x" if a and b else "n/a"  # noqa: E731
        lt, lf = g("load", 0, "tfcc"), g("load", 0, "tensorflow")
        cells = [fmt(lt, 3), fmt(lf, 3), ratio(lf, lt), fmt(g("first_call", 64, "tfcc"), 3),
                 fmt(g("first_call", 64, "tensorflow"), 3)]
        for b in (1, 64):
            a, c = g("infer", b, "tfcc"), g("infer", b, "tensorflow")
            cells += [fmt(a), fmt(c), ratio(a, c)]
        out.append(f"| {m} | " + " | ".join(cells) + " |")
    return out


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("out")
    p.add_argument("--mode", default="full")
    p.add_argument("--reps", type=int, default=1)
    a = p.parse_args()
    med, configs, versions = load(a.out)
    threads = sorted({k[1] for k in med if k[0] != "savedmodel"})
    cpu = next((ln.split(":", 1)[1].strip() for ln in open("/proc/cpuinfo")
                if ln.startswith("model name")), platform.machine())
    read = lambda f: open(os.path.join(a.out, f)).read().strip() \
        if os.path.exists(os.path.join(a.out, f)) else "?"  # noqa: E731
    cmd = "make bench-suite" + (" SUITE_ARGS=--quick" if a.mode == "quick" else "")
    print(f"Command: `{cmd}` ({a.mode} mode, {a.reps} round(s), medians). "
          f"Date: {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}. "
          f"Machine: {os.cpu_count()} CPUs, {cpu}; load average before {read('load_before')}, "
          f"after {read('load_after')}.")
    print("Versions: " + ", ".join(f"{NAMES.get(k, k)} {v}" for k, v in sorted(versions.items()))
          + ".\n")
    if threads:
        main_table(med, configs, threads)
    sm = saved_model_table(med)
    if sm:
        print(f"\nTensorFlow SavedModels (tests/integration/tf_saved_model_import.py) loaded and "
              f"run by tfcc and by TensorFlow, 2 threads, quiet, median of {a.reps} round(s); "
              f"samples/s:\n")
        print("\n".join(sm))


def main_table(med, configs, threads):
    print("Samples per second (higher is better). Quiet: nothing else started by the suite; "
          "busy: two busy-looping processes beside it. Slowdown = quiet / busy samples/s.\n")
    head = ("| workload | batch | threads | tfcc | TensorFlow | PyTorch | ONNX Runtime | "
            "tfcc / fastest peer | target | quiet | tfcc busy | tfcc slowdown | "
            "TF slowdown | busy: <= TF's and <= 2x |")
    sep = "| --- " * 14 + "|"
    train_ws = [w for w in TRAIN_TITLE if any(k[3] == w and k[2] == "train" for k in med)]
    infer_ws = sorted({k[3] for k in med if k[2] == "infer" and k[0] != "savedmodel"})
    lines, v1 = rows(med, configs, "train", train_ws, threads,
                     lambda w: sorted({k[4] for k in med if k[3] == w and k[2] == "train"}), 1.5)
    lines2, v2 = rows(med, configs, "infer", infer_ws, threads, lambda w: [1, 64], 1.0)
    print("\n".join([head, sep] + lines + lines2))
    verdicts = v1 + v2
    print(f"\n{sum(verdicts)} PASS, {len(verdicts) - sum(verdicts)} FAIL "
          f"(of {len(verdicts)} graded cells).")


if __name__ == "__main__":
    main()
