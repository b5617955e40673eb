#!/usr/bin/env python3
"""Prints run.sh's side-by-side table from the benchmark JSON files of one run.

  python3 benchmarks/report.py DIR

DIR holds core_bench.json (required), and, where the peers ran, torch_add_bench.json,
peers_torch.json and peers_tensorflow.json. Every figure is a median over repetitions. A missing
peer prints n/a. GB/s are decimal (1e9 bytes) and counted as core_bench counts them: add moves
3 x 64 MB per call, copy 2 x 64 MB.
"""
import json
import os
import statistics
import sys

ADD_BYTES = 3 * (1 << 24) * 4
COPY_BYTES = 2 * (1 << 24) * 4


def load(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def medians(gbench, field="real_time"):
    """{run_name: median `field` (real_time or cpu_time) in ns} from a Google Benchmark report."""
    if not gbench:
        return {}
    scale = {"ns": 1.0, "us": 1e3, "ms": 1e6, "s": 1e9}
    out = {}
    for b in gbench.get("benchmarks", []):
        if b.get("aggregate_name") == "median" or b.get("run_type") == "iteration":
            name = b.get("run_name", b["name"])
            if b.get("aggregate_name") == "median" or name not in out:
                out[name] = b[field] * scale[b.get("time_unit", "ns")]
    return out


# The MLP step's matmul flops (mlp_step_bench.cc: forward, and backward without the input's
# gradient) and the machine's fp32 FMA peak (shared/research/machine.md): the step's floor.
MLP_FLOPS = 2.0 * 128 * (784 * 512 + 512 * 512 + 512 * 10) * 3 - 2.0 * 128 * 784 * 512
PEAK_GFLOPS = {1: 209.0, 2: 410.0}


def mlp_rounds(d):
    """{series: {threads: {round: ms}}} from run.sh's mlp/ folder (one repetition per round)."""
    out = {}
    folder = os.path.join(d, "mlp")
    if not os.path.isdir(folder):
        return out
    for f in sorted(os.listdir(folder)):
        if not f.endswith(".json"):
            continue
        series, rnd = f[:-5].rsplit(".", 1)
        j = load(os.path.join(folder, f))
        if not j:
            continue
        per = out.setdefault(series, {})
        if "benchmarks" in j:  # Google Benchmark: BM_..Step/threads:N/...
            for name, ns in medians(j).items():
                t = int(name.split("threads:")[1].split("/")[0])
                per.setdefault(t, {})[rnd] = ns / 1e6
        else:  # mlp_peers.py
            for fw in ("torch", "tensorflow"):
                if j.get(fw):
                    for t, ms in j[fw]["ms"].items():
                        per.setdefault(int(t), {})[rnd] = ms
    return out


def mlp_rows(d, row):
    """MLP step rows: tfcc against PyTorch at its best setting (target), then every peer."""
    rounds = mlp_rounds(d)
    tf_ = rounds.get("tfcc", {})

    def med(series, t):
        v = list(rounds.get(series, {}).get(t, {}).values())
        return statistics.median(v) if v else None

    def paired(series, t):
        """Median over rounds of tfcc / peer, each ratio from the same round."""
        a, b = tf_.get(t, {}), rounds.get(series, {}).get(t, {})
        r = [a[k] / b[k] for k in a if k in b and b[k]]
        return statistics.median(r) if r else None

    labels = {"pytorch_haswell": "PyTorch, OPENBLAS_CORETYPE=Haswell", "pytorch_auto": "PyTorch, "
              "OPENBLAS_CORETYPE unset", "libtorch_haswell": "LibTorch, OPENBLAS_CORETYPE=Haswell",
              "libtorch_auto": "LibTorch, OPENBLAS_CORETYPE unset"}
    for t in (1, 2):
        ours = med("tfcc", t)
        # The target: PyTorch (Python) at its best of the two OpenBLAS settings.
        best = min((s for s in ("pytorch_haswell", "pytorch_auto") if med(s, t) is not None),
                   key=lambda s: med(s, t), default=None)
        peer = med(best, t) if best else None
        r = paired(best, t) if best else None
        row(f"MLP step, {t} thr [ms]", ours, ".3f", peer,
            f"best: {labels[best]}" if best else "PyTorch", r, "tfcc <= PyTorch",
            None if r is None else r <= 1.0)
        row(f"MLP step, {t} thr [ms]", ours, ".3f", MLP_FLOPS / PEAK_GFLOPS[t] / 1e6,
            f"matmul flops at {PEAK_GFLOPS[t]:.0f} GFLOP/s", None if ours is None else
            ours / (MLP_FLOPS / PEAK_GFLOPS[t] / 1e6), "(info)", None)
        for s in ("pytorch_haswell", "pytorch_auto", "libtorch_haswell", "libtorch_auto",
                  f"tensorflow_t{t}"):
            if s == best:
                continue
            label = labels.get(s, "TensorFlow")
            row(f"MLP step, {t} thr [ms]", ours, ".3f", med(s, t), label, paired(s, t), "-",
                None)


def main():
    d = sys.argv[1]
    core_json = load(os.path.join(d, "core_bench.json"))
    torch_json = load(os.path.join(d, "torch_add_bench.json"))
    # Bandwidth rows use wall time (the work is spread over threads); single-thread latency rows
    # use the thread's CPU time, which preemption on a shared, loaded machine does not inflate.
    core, core_cpu = medians(core_json), medians(core_json, "cpu_time")
    torch_cc, torch_cpu = medians(torch_json), medians(torch_json, "cpu_time")
    py = {k: (load(os.path.join(d, f"peers_{k}.json")) or {}).get(k) for k in
          ("torch", "tensorflow")}

    def g(m, name):
        return m.get(name)

    def gbs(ns, nbytes):
        return nbytes / ns if ns else None

    def py_get(fw, key):
        r = py.get(fw)
        return r.get(key) if r else None

    add1 = g(core_cpu, "BM_EagerAdd1")
    add1_wall = g(core, "BM_EagerAdd1")
    add2 = gbs(g(core, "BM_Add16M/threads:2/real_time"), ADD_BYTES)
    add1t = gbs(g(core, "BM_Add16M/threads:1/real_time"), ADD_BYTES)
    copy2 = gbs(g(core, "BM_Copy16M/threads:2/real_time"), COPY_BYTES)
    copy1 = gbs(g(core, "BM_Copy16M/threads:1/real_time"), COPY_BYTES)
    cached = g(core_cpu, "BM_Alloc4MiB_Cached")
    mmap = g(core_cpu, "BM_Alloc4MiB_Mmap")
    cached_wall = g(core, "BM_Alloc4MiB_Cached")
    mmap_wall = g(core, "BM_Alloc4MiB_Mmap")
    t_add1 = g(torch_cpu, "BM_TorchAdd1")
    t_add1_wall = g(torch_cc, "BM_TorchAdd1")
    t_add2 = gbs(g(torch_cc, "BM_TorchAdd16M/threads:2/real_time"), ADD_BYTES)
    t_add1t = gbs(g(torch_cc, "BM_TorchAdd16M/threads:1/real_time"), ADD_BYTES)
    t_out2 = gbs(g(torch_cc, "BM_TorchAddOut16M/threads:2/real_time"), ADD_BYTES)
    t_out1t = gbs(g(torch_cc, "BM_TorchAddOut16M/threads:1/real_time"), ADD_BYTES)

    def fmt(v, spec):
        return "n/a" if v is None else format(v, spec)

    def ratio(a, b):
        return a / b if a is not None and b else None

    # metric, tfcc, peer/limit, peer label, ratio (shown as x), target text, pass predicate
    rows = []

    def row(metric, ours, spec, peer, peer_label, r, target, ok):
        verdict = "-" if ok is None else ("PASS" if ok else "FAIL")
        if ours is None:
            verdict = "n/a" if ok is not None else "-"
        rows.append((metric, fmt(ours, spec), f"{fmt(peer, spec)} ({peer_label})",
                     fmt(r, ".2f") + "x" if r is not None else "n/a", target, verdict))

    row("eager add, 1 element [CPU ns/op]", add1, ".0f", t_add1, "LibTorch a+b", ratio(add1, t_add1),
        "tfcc <= 500 ns", None if add1 is None else add1 <= 500)
    row("eager add, 1 element [wall ns/op]", add1_wall, ".0f", t_add1_wall, "LibTorch a+b",
        ratio(add1_wall, t_add1_wall), "(info)", None)
    row("add 16M f32, 2 thr [GB/s]", add2, ".2f", copy2, "memcpy 2 thr", ratio(add2, copy2),
        ">= 0.70x copy", None if ratio(add2, copy2) is None else ratio(add2, copy2) >= 0.70)
    row("add 16M f32, 1 thr [GB/s]", add1t, ".2f", copy1, "memcpy 1 thr", ratio(add1t, copy1),
        ">= 0.70x copy", None if ratio(add1t, copy1) is None else ratio(add1t, copy1) >= 0.70)
    row("alloc+touch+free 4 MiB [CPU ns]", cached, ".0f", mmap, "mmap per alloc",
        ratio(mmap, cached), ">= 20x faster",
        None if ratio(mmap, cached) is None else ratio(mmap, cached) >= 20)
    row("alloc+touch+free 4 MiB [wall ns]", cached_wall, ".0f", mmap_wall, "mmap per alloc",
        ratio(mmap_wall, cached_wall), "(info)", None)
    # Peers, for information: ratio is tfcc's advantage (peer time / tfcc time).
    row("add 16M f32, 2 thr [GB/s]", add2, ".2f", t_add2, "LibTorch a+b", ratio(add2, t_add2),
        "-", None)
    row("add 16M f32, 1 thr [GB/s]", add1t, ".2f", t_add1t, "LibTorch a+b", ratio(add1t, t_add1t),
        "-", None)
    row("add 16M f32, 2 thr [GB/s]", add2, ".2f", t_out2, "LibTorch add_out", ratio(add2, t_out2),
        "-", None)
    row("add 16M f32, 1 thr [GB/s]", add1t, ".2f", t_out1t, "LibTorch add_out",
        ratio(add1t, t_out1t), "-", None)
    for fw, label in (("torch", "PyTorch"), ("tensorflow", "TensorFlow")):
        v = py.get(fw)
        tag = f"{label} {v['version']}" if v else label
        row("eager add, 1 element [CPU ns/op]", add1, ".0f", py_get(fw, "add1_cpu_ns"), tag,
            ratio(add1, py_get(fw, "add1_cpu_ns")), "-", None)
        row("add 16M f32, 2 thr [GB/s]", add2, ".2f", py_get(fw, "add16m_gbs_t2"), tag,
            ratio(add2, py_get(fw, "add16m_gbs_t2")), "-", None)

    mlp_rows(d, row)

    headers = ("metric", "tfcc", "peer / limit", "ratio", "target", "pass/fail")
    widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(headers)]
    line = lambda cells: "| " + " | ".join(c.ljust(w) for c, w in zip(cells, widths)) + " |"
    print(line(headers))
    print("|" + "|".join("-" * (w + 2) for w in widths) + "|")
    for r in rows:
        print(line(r))
    print("\nratio: tfcc / peer for times (lower is better for tfcc), tfcc / peer for GB/s (higher "
          "is better), mmap / cached for allocation (speed-up). All figures medians. CPU ns: the "
          "measuring thread's CPU time; wall: elapsed time. GB/s from wall time, 1e9 bytes. MLP "
          "step: wall ms per step, medians over run.sh's rounds; its ratio is the median over "
          "rounds of tfcc / peer within a round.")


if __name__ == "__main__":
    main()
