#!/usr/bin/env bash
# Runs benchmarks/nn_bench (tfcc) and benchmarks/nn_peers.py (PyTorch) in one go and prints
#   benchmark | tfcc us | torch us | torch / tfcc      (wall time; CPU time of the calling thread
#                                                       in brackets: a loaded machine disturbs it less)
#
#   bash benchmarks/nn_bench.sh [BUILD_DIR]     (default build/release; REPS=7, PYTHON_TORCH)
set -uo pipefail
BUILD=${1:-build/release}
REPS=${REPS:-7}
PYTHON_TORCH=${PYTHON_TORCH:-/usr/bin/python3}
HERE=$(cd "$(dirname "$0")" && pwd)
OUT=$(mktemp -d)
echo "== $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"
"$BUILD/benchmarks/nn_bench" --benchmark_repetitions="$REPS" \
  --benchmark_report_aggregates_only=true --benchmark_enable_random_interleaving=true \
  --benchmark_out="$OUT/tfcc.json" --benchmark_out_format=json > /dev/null || exit 1
"$PYTHON_TORCH" "$HERE/nn_peers.py" --reps "$REPS" --json "$OUT/torch.json" > /dev/null
python3 - "$OUT/tfcc.json" "$OUT/torch.json" <<'PY'
import json, os, re, sys
tfcc = {}
for b in json.load(open(sys.argv[1]))["benchmarks"]:
    if b.get("aggregate_name") != "median":
        continue
    name = re.sub(r"/min_time:[^/]*|/real_time|_median", "", b["run_name"]).replace("BM_", "")
    scale = {"ns": 1, "us": 1e3, "ms": 1e6}[b["time_unit"]]
    tfcc[name] = (b["real_time"] * scale, b["cpu_time"] * scale)
torch = json.load(open(sys.argv[2])) if os.path.exists(sys.argv[2]) else {}
print(f"{'benchmark':42} {'tfcc us':>18} {'torch us':>18} {'torch/tfcc':>10}")
for name, (real, cpu) in tfcc.items():
    p = torch.get(name)
    peer = f"{p['real_ns']/1e3:8.1f} [{p['cpu_ns']/1e3:7.1f}]" if p else "n/a"
    ratio = f"{p['real_ns']/real:6.2f} [{p['cpu_ns']/cpu:4.2f}]" if p else ""
    print(f"{name:42} {real/1e3:8.1f} [{cpu/1e3:7.1f}] {peer:>18} {ratio:>10}")
PY
rm -rf "$OUT"
