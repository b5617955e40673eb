#!/usr/bin/env bash
# Fit throughput of the seed CNN (issue 7): tfcc (fit_cnn_bench) next to PyTorch at its best and
# TensorFlow running the seed's Keras program (fit_peers.py), in REPS rounds of one run each so
# load drifting on a shared machine falls on all three; prints medians and the ratio.
#
#   bash benchmarks/fit_run.sh [BUILD_DIR]     (default build/release; REPS=5, STEPS=300, THREADS=2)
set -uo pipefail

BUILD=${1:-build/release}
REPS=${REPS:-5}
STEPS=${STEPS:-300}
THREADS=${THREADS:-2}
OUT=${OUT:-$BUILD/bench-results/fit}
PYTHON_TORCH=${PYTHON_TORCH:-/usr/bin/python3}
PYTHON_TF=${PYTHON_TF:-$BUILD/tf-venv/bin/python}
HERE=$(cd "$(dirname "$0")" && pwd)
WARM_MALLOC=glibc.malloc.mmap_threshold=33554432:glibc.malloc.trim_threshold=4294967296

if [ ! -x "$BUILD/benchmarks/fit_cnn_bench" ]; then
  echo "fit_run.sh: $BUILD/benchmarks/fit_cnn_bench not built (run 'make bench')" >&2
  exit 1
fi
mkdir -p "$OUT"
rm -f "$OUT"/*.json
echo "== seed CNN fit, batch 64, $THREADS threads, $STEPS steps, $REPS rounds; load $(cut -d' ' -f1-3 /proc/loadavg)"
for r in $(seq 1 "$REPS"); do
  "$BUILD/benchmarks/fit_cnn_bench" --threads "$THREADS" --steps "$STEPS" \
    --json "$OUT/tfcc.$r.json" || echo "fit_run.sh: fit_cnn_bench failed" >&2
  if "$PYTHON_TORCH" -c "import torch" >/dev/null 2>&1; then
    GLIBC_TUNABLES=$WARM_MALLOC "$PYTHON_TORCH" "$HERE/fit_peers.py" --framework torch \
      --threads "$THREADS" --steps "$STEPS" --json "$OUT/pytorch.$r.json" ||
      echo "fit_run.sh: PyTorch peer failed" >&2
  fi
  if [ -x "$PYTHON_TF" ] && "$PYTHON_TF" -c "import tensorflow" >/dev/null 2>&1; then
    TF_CPP_MIN_LOG_LEVEL=2 "$PYTHON_TF" "$HERE/fit_peers.py" --framework tensorflow \
      --threads "$THREADS" --steps "$STEPS" --json "$OUT/tensorflow.$r.json" 2>/dev/null ||
      echo "fit_run.sh: TensorFlow peer failed" >&2
  fi
done
echo "== load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
python3 - "$OUT" <<'PY'
import glob, json, statistics, sys
out = sys.argv[1]
runs = {}
for f in sorted(glob.glob(out + "/*.json")):
    name, rnd = f.rsplit("/", 1)[1].split(".")[:2]
    runs.setdefault(name, {})[int(rnd)] = json.load(open(f))["samples_per_s"]
def med(name):
    v = list(runs.get(name, {}).values())
    return statistics.median(v) if v else None
t, p, tf = med("tfcc"), med("pytorch"), med("tensorflow")
peers = [x for x in (p, tf) if x]
best = max(peers) if peers else None
ratios = []
for r, v in runs.get("tfcc", {}).items():
    same = [runs[n][r] for n in ("pytorch", "tensorflow") if r in runs.get(n, {})]
    if same: ratios.append(v / max(same))
fmt = lambda x: f"{x:,.0f}" if x else "n/a"
print("| metric | tfcc | PyTorch (best) | TensorFlow (seed program) | tfcc / faster peer (median of rounds) | target | pass/fail |")
print("| --- | --- | --- | --- | --- | --- | --- |")
ratio = statistics.median(ratios) if ratios else None
verdict = "n/a" if ratio is None else ("PASS" if ratio >= 2 else "FAIL")
print(f"| fit samples/s | {fmt(t)} | {fmt(p)} | {fmt(tf)} | {ratio:.2f}x |" if ratio else
      f"| fit samples/s | {fmt(t)} | {fmt(p)} | {fmt(tf)} | n/a |", end="")
print(f" >= 2x | {verdict} |")
PY
