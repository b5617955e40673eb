#!/usr/bin/env python3
"""Prints the conv block table from conv_run.sh's rounds: tfcc against PyTorch's best format.

  python3 benchmarks/conv_report.py DIR

DIR/conv holds tfcc.N.json (Google Benchmark, conv_bench) and pytorch.N.json (conv_peers.py), one
per round N. Every figure is a median over rounds; each ratio is the median of the per-round
ratios (tfcc / PyTorch, lower is better for tfcc). A missing peer prints n/a.
"""
import json
import os
import statistics
import sys


def load(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def rounds(d):
    """{series: {threads: {round: ms}}}; tfcc series are the benchmark names."""
    out = {}
    folder = os.path.join(d, "conv")
    if not os.path.isdir(folder):
        return out
    scale = {"ns": 1e-6, "us": 1e-3, "ms": 1.0, "s": 1e3}
    for f in sorted(os.listdir(folder)):
        if not f.endswith(".json"):
            continue
        series, rnd = f[:-5].rsplit(".", 1)
        j = load(os.path.join(folder, f))
        if not j:
            continue
        if "benchmarks" in j:
            for b in j["benchmarks"]:
                if b.get("run_type") != "iteration":
                    continue
                name, rest = b["name"].split("/", 1)
                t = int(rest.split("threads:")[1].split("/")[0])
                unit = scale[b.get("time_unit", "ns")]
                out.setdefault(name, {}).setdefault(t, {})[rnd] = b["real_time"] * unit
                out.setdefault(name + "_cpu", {}).setdefault(t, {})[rnd] = b["cpu_time"] * unit
        elif j.get("torch"):
            for t, ms in j["torch"]["ms"].items():
                out.setdefault("pytorch", {}).setdefault(int(t), {})[rnd] = ms
            for t, ms in j["torch"].get("cpu_ms", {}).items():
                out.setdefault("pytorch_cpu", {}).setdefault(int(t), {})[rnd] = ms
            for t, fm in j["torch"]["formats"].items():
                for fmt in ("nchw", "nhwc"):
                    out.setdefault(f"pytorch_{fmt}", {}).setdefault(int(t), {})[rnd] = fm[fmt]
    return out


def main():
    r = rounds(sys.argv[1])

    def med(series, t):
        v = list(r.get(series, {}).get(t, {}).values())
        return statistics.median(v) if v else None

    def paired(a, b, t):
        x, y = r.get(a, {}).get(t, {}), r.get(b, {}).get(t, {})
        v = [x[k] / y[k] for k in x if k in y and y[k]]
        return statistics.median(v) if v else None

    def fmt(v, spec=".3f"):
        return "n/a" if v is None else format(v, spec)

    rows = [("metric", "tfcc [ms]", "PyTorch [ms]", "tfcc / PyTorch", "target", "pass/fail")]
    for t in (1, 2):
        for name, label, target in (("BM_ConvBlock", "conv block fwd+bwd (op by op)", 1.0),
                                    ("BM_ConvBlockFused", "conv block fwd+bwd (fused conv)",
                                     None)):
            ours, peer, ratio = med(name, t), med("pytorch", t), paired(name, "pytorch", t)
            ok = "-" if target is None or ratio is None else ("PASS" if ratio <= target else "FAIL")
            rows.append((f"{label}, {t} thr", fmt(ours), fmt(peer), fmt(ratio, ".2f") + "x"
                         if ratio is not None else "n/a",
                         f"<= {target:.1f}x" if target else "(info)", ok))
        ratio = paired("BM_ConvBlock_cpu", "pytorch_cpu", t)
        rows.append((f"  op by op, process CPU time, {t} thr", fmt(med("BM_ConvBlock_cpu", t)),
                     fmt(med("pytorch_cpu", t)),
                     fmt(ratio, ".2f") + "x" if ratio is not None else "n/a", "(info)", "-"))
        for fmt_name in ("nchw", "nhwc"):
            rows.append((f"  PyTorch {fmt_name}, {t} thr", "", fmt(med(f"pytorch_{fmt_name}", t)),
                         "", "(info)", "-"))
        for name in ("BM_ConvForward", "BM_ConvBackpropFilter", "BM_MaxPoolForward",
                     "BM_MaxPoolGrad"):
            rows.append((f"  {name[3:]}, {t} thr", fmt(med(name, t)), "", "", "(info)", "-"))
    widths = [max(len(str(row[i])) for row in rows) for i in range(len(rows[0]))]
    for i, row in enumerate(rows):
        print(" | ".join(str(c).ljust(w) for c, w in zip(row, widths)))
        if i == 0:
            print("-+-".join("-" * w for w in widths))


if __name__ == "__main__":
    main()
